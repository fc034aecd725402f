"""Lifelink (CR 702.15).

Damage dealt by a source with lifelink causes its controller to gain that much
life, in addition to the damage's other results (702.15b, 120.3f): all the
damage dealt, also beyond a creature's toughness, and nothing for damage that
was prevented. The core sums one source's life gain in one damage event into
one life gain event, whatever the number of recipients; several sources gain
life separately (702.15e). A source that left the battlefield is read from its
last known information (702.15c-d).
"""

from __future__ import annotations

from redzone import Damage, GameState, KeywordSpec, Result, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("lifelink", "702.15",
                        summary="damage it deals also gains its controller that much life")]


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    if not state.is_source(damage.source):
        return []
    source = state.source(damage.source)
    if not source.has("lifelink"):
        return []
    player = source.controller or source.owner
    return [Result("life_gain", "702.15b", damage.source, damage.amount, player=player)]

