"""Menace (CR 702.111).

A creature with menace can't be blocked except by two or more creatures
(702.111b). The restriction is on the attacker's blockers taken together, so
it is checked once per blocked attacker with all of its blockers; a
declaration in which one creature alone blocks it is rejected as a whole.
Other evasion abilities apply to each blocker as well (509.1b: evasion
abilities are cumulative). Several instances are redundant (702.111c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("menace", "702.111", summary="can't be blocked except by two or "
                        "more creatures")]


@hookimpl
def redzone_blocked_by_violations(
    state: GameState, attacker: str, blockers: tuple[str, ...]
) -> list[Violation]:
    att = state.objects[attacker]
    if len(blockers) >= 2 or not att.has("menace"):
        return []
    alone = ", ".join(_label(state, b) for b in blockers)
    return [Violation("702.111b", f"{_label(state, attacker)} (menace) can't be blocked except "
                      f"by two or more creatures; only {len(blockers)} creature blocks it: "
                      f"{alone}",
                      (attacker, *blockers))]


def _label(state: GameState, obj: str) -> str:
    perm = state.objects.get(obj)
    if perm is None or perm.name == perm.id:
        return obj
    return f"{perm.name} ({perm.id})"

