"""Deathtouch, 1999-2009 wording (CR 502.63 of February 2009).

"Deathtouch is a triggered ability. 'Deathtouch' means 'Whenever this
permanent deals damage to a creature, destroy that creature'" (502.63a), and
each instance triggers separately (502.63b). It is not a rule about lethal
damage, so 1 damage is not lethal for a trampler's assignment.

The trigger is modelled as resolving in the first priority window after the
damage, right after state-based actions: the damaged creature is marked as the
damage is dealt, and destroyed with rule 502.63a when the marks are read. A
creature saved from that destruction by an instant cast in response is the one
difference this does not model.
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Result, StateBasedAction, hookimpl
from redzone.kernel.hooktypes import Damage

MARK = "dealt damage by a deathtouch trigger source (502.63a)"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("deathtouch", "502.63", summary="destroys creatures it deals damage "
                        "to (a triggered ability, 1999-2009 wording)")]


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    source = state.last_known(damage.source)
    target = state.objects.get(damage.target)
    if not source.has("deathtouch") or target is None or "creature" not in target.types:
        return []
    return [Result("mark", "502.63a", damage.source, target=damage.target, mark=MARK)]


@hookimpl
def redzone_state_based_actions(state: GameState) -> list[StateBasedAction]:
    return [StateBasedAction("destroy", "502.63a", object=p.id)
            for p in state.objects.values()
            if p.zone == "battlefield" and MARK in p.marks and "creature" in p.types]
