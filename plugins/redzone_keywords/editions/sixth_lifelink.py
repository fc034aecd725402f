"""Lifelink, 1999-2009 wording (CR 502.68 of February 2009).

"Lifelink is a triggered ability. 'Lifelink' means 'Whenever this permanent
deals damage, you gain that much life'" (502.68a); each instance triggers
separately (502.68b), so a permanent with two instances gains twice. The life
gain is modelled as the trigger resolving right after the damage it counts.
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Result, hookimpl
from redzone.kernel.hooktypes import Damage


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("lifelink", "502.68", summary="you gain life equal to the damage it "
                        "deals (a triggered ability, 1999-2009 wording)")]


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    source = state.last_known(damage.source)
    instances = len(source.instances("lifelink"))
    if not instances:
        return []
    return [Result("life_gain", "502.68a", damage.source, damage.amount * instances,
                   player=source.controller)]
