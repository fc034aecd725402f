"""Fear (CR 702.36).

A creature with fear can't be blocked except by artifact creatures and/or
black creatures (702.36b), judged by the blocker's current types and colors
as blockers are declared; the restriction is named ``fear``. Several
instances are redundant (702.36c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("fear", "702.36",
                        summary="can be blocked only by artifact and/or black creatures")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    if not att.has("fear"):
        return []
    blk = state.objects[blocker]
    if "artifact" in blk.types or "black" in blk.colors:
        return []
    return [Violation("702.36b", f"{att.name} (fear) can't be blocked by {blk.name}: it is "
                      "neither an artifact creature nor black", (blocker, attacker),
                      restriction="fear")]

