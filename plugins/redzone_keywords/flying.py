"""Flying (CR 702.9).

A creature with flying can't be blocked except by creatures with flying
and/or reach (702.9b). Reach lifts the restriction from its own module
(702.17b). A creature with flying can block a creature with or without
flying (702.9c): nothing restricts it.
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("flying", "702.9", summary="can be blocked only by flying or reach")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    if not att.has("flying"):
        return []
    blk = state.objects[blocker]
    if blk.has("flying"):
        return []
    return [Violation("702.9b", f"{att.name} (flying) can't be blocked by {blk.name}: it has "
                      "neither flying nor reach", (blocker, attacker), restriction="flying")]

