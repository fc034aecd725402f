"""Vigilance (CR 702.20).

Attacking doesn't cause a creature with vigilance to tap (702.20b): the core
taps each declared attacker (508.1f) unless a plugin says otherwise. Vigilance
changes nothing else: a tapped creature with vigilance still can't be declared
as an attacker (508.1a). Several instances are redundant (702.20c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("vigilance", "702.20", summary="attacking doesn't cause it to tap")]


@hookimpl
def redzone_attacks_without_tapping(state: GameState, attacker: str) -> bool:
    return state.objects[attacker].has("vigilance")

