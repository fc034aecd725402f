"""Skulk (CR 702.118).

A creature with skulk can't be blocked by creatures with greater power
(702.118b): the powers are compared as blockers are declared; a blocker with
equal or less power may block it. The restriction is named ``skulk``.
Several instances are redundant (702.118c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("skulk", "702.118",
                        summary="can't be blocked by creatures with greater power")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    if not att.has("skulk"):
        return []
    blk = state.objects[blocker]
    if blk.power <= att.power:
        return []
    return [Violation("702.118b", f"{att.name} (skulk, power {att.power}) can't be blocked by "
                      f"{blk.name}: its power {blk.power} is greater", (blocker, attacker),
                      restriction="skulk")]

