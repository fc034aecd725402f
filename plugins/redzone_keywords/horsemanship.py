"""Horsemanship (CR 702.31).

A creature with horsemanship can't be blocked by creatures without
horsemanship (702.31b); the restriction is named ``horsemanship``. A creature
with horsemanship can block a creature with or without horsemanship: nothing
restricts it. Several instances are redundant (702.31c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("horsemanship", "702.31",
                        summary="can be blocked only by creatures with horsemanship")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    if not att.has("horsemanship"):
        return []
    blk = state.objects[blocker]
    if blk.has("horsemanship"):
        return []
    return [Violation("702.31b", f"{att.name} (horsemanship) can't be blocked by {blk.name}: "
                      "it doesn't have horsemanship", (blocker, attacker),
                      restriction="horsemanship")]

