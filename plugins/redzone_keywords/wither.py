"""Wither (CR 702.80).

Damage dealt to a creature by a source with wither puts that many -1/-1
counters on it instead of being marked (702.80a, 120.3d). Damage to players,
planeswalkers and battles is unchanged. The -1/-1 counter result is the one
infect gives (120.3d: "wither and/or infect"), so a source with both puts the
counters on once. A source that left the battlefield is read from its last
known information (702.80b-c).
"""

from __future__ import annotations

from redzone import Damage, GameState, KeywordSpec, Result, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("wither", "702.80",
                        summary="deals damage to creatures as -1/-1 counters")]


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    if not state.is_source(damage.source):
        return []
    if not state.source(damage.source).has("wither"):
        return []
    target = state.objects.get(damage.target)
    if target is None or not target.is_creature:
        return []
    return [Result("counters", "120.3d", damage.source, damage.amount, target=damage.target,
                   counter="-1/-1", replaces="marked")]

