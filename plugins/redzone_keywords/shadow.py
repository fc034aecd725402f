"""Shadow (CR 702.28).

A creature with shadow can't be blocked by creatures without shadow, and a
creature without shadow can't be blocked by creatures with shadow (702.28b):
both directions are restrictions on one blocker and one attacker. The first
is named ``shadow``, the second ``shadow_blocker``, so that an ability such
as "can block creatures with shadow as though it had shadow" can lift one of
them through ``redzone_block_exemption``. Evasion abilities are cumulative
(509.1b): an attacker with flying and shadow needs a blocker with shadow and
with flying or reach. Several instances are redundant (702.28c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("shadow", "702.28", summary="blocks and is blocked only by creatures "
                        "with shadow")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    blk = state.objects[blocker]
    if att.has("shadow") == blk.has("shadow"):
        return []
    if att.has("shadow"):
        return [Violation("702.28b", f"{att.name} (shadow) can't be blocked by {blk.name}: it "
                          "doesn't have shadow", (blocker, attacker), restriction="shadow")]
    return [Violation("702.28b", f"{blk.name} (shadow) can't block {att.name}: a creature "
                      "with shadow can block only creatures with shadow", (blocker, attacker),
                      restriction="shadow_blocker")]

