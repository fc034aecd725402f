"""Reach (CR 702.17).

A creature with flying can't be blocked except by creatures with flying
and/or reach (702.17b): reach lifts the ``flying`` block restriction for the
creature that has it. Reach has no other effect.
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("reach", "702.17", summary="can block creatures with flying")]


@hookimpl
def redzone_block_exemption(state: GameState, blocker: str, violation: Violation) -> bool:
    return violation.restriction == "flying" and state.objects[blocker].has("reach")

