"""Intimidate (CR 702.13).

A creature with intimidate can't be blocked except by artifact creatures
and/or creatures that share a color with it (702.13b), judged by current
types and colors as blockers are declared. A colorless creature with
intimidate shares a color with nothing: only artifact creatures can block
it. The restriction is named ``intimidate``. Several instances are
redundant (702.13c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("intimidate", "702.13", summary="can be blocked only by artifact "
                        "creatures and/or creatures that share a color with it")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    if not att.has("intimidate"):
        return []
    blk = state.objects[blocker]
    if "artifact" in blk.types or blk.colors & att.colors:
        return []
    colors = ", ".join(sorted(att.colors)) or "colorless"
    theirs = ", ".join(sorted(blk.colors)) or "colorless"
    return [Violation("702.13b", f"{att.name} (intimidate; {colors}) can't be blocked by "
                      f"{blk.name} ({theirs}): it is not an artifact creature and shares no "
                      "color with it", (blocker, attacker), restriction="intimidate")]

