"""Haste (CR 702.10).

A creature with haste can attack even if it hasn't been under its
controller's control continuously since their most recent turn began
(702.10b): it lifts the core's ``summoning_sickness`` restriction (302.6,
508.1a) and no other. The tap-ability half of the rule (702.10c) has nothing
to do in combat. Several instances are redundant (702.10d).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl

#: The restriction name the core gives its 302.6 check.
SUMMONING_SICKNESS = "summoning_sickness"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("haste", "702.10", summary="can attack the turn it comes under "
                        "your control")]


@hookimpl
def redzone_attack_exemption(state: GameState, attacker: str, violation: Violation) -> bool:
    return violation.restriction == SUMMONING_SICKNESS and state.objects[attacker].has("haste")

