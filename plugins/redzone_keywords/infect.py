"""Infect (CR 702.90).

Damage dealt by a source with infect to a player gives that player that many
poison counters instead of making them lose life (702.90b, 120.3b); damage it
deals to a creature puts that many -1/-1 counters on it instead of being marked
(702.90c, 120.3d). Damage to planeswalkers and battles is unchanged. A player
with ten or more poison counters loses the game (704.5c, checked by the core).
The -1/-1 counter result is the one wither gives (120.3d: "wither and/or
infect"), so a source with both puts the counters on once. A source that left
the battlefield is read from its last known information (702.90d-e).
"""

from __future__ import annotations

from redzone import Damage, GameState, KeywordSpec, Result, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("infect", "702.90",
                        summary="deals damage as poison counters and -1/-1 counters")]


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    if not state.is_source(damage.source):
        return []
    if not state.source(damage.source).has("infect"):
        return []
    if damage.target in state.players:
        return [Result("poison", "702.90b", damage.source, damage.amount,
                       player=damage.target, replaces="life_loss")]
    target = state.objects.get(damage.target)
    if target is None or not target.is_creature:
        return []
    return [Result("counters", "120.3d", damage.source, damage.amount, target=damage.target,
                   counter="-1/-1", replaces="marked")]

