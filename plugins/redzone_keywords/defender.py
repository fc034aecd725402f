"""Defender (CR 702.3).

A creature with defender can't attack (702.3b). It is a restriction named
``defender``, so an effect that lets a creature "attack as though it didn't
have defender" can lift it through ``redzone_attack_exemption``. Defender
doesn't restrict blocking. Several instances are redundant (702.3c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("defender", "702.3", summary="can't attack")]


@hookimpl
def redzone_attack_violations(state: GameState, attacker: str) -> list[Violation]:
    perm = state.objects[attacker]
    if not perm.has("defender"):
        return []
    return [Violation("702.3b", f"{perm.label} has defender and can't attack", (attacker,),
                      restriction="defender")]

