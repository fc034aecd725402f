"""Deathtouch, 1999-2009 wording (CR 502.63 of February 2009).

"Deathtouch is a triggered ability. 'Deathtouch' means 'Whenever this
permanent deals damage to a creature, destroy that creature'" (502.63a), and
each instance triggers separately (502.63b). It is not a rule about lethal
damage, so 1 damage is not lethal for a trampler's assignment.

It triggers for each creature its permanent deals damage to while in play
(a creature gone before its damage on the stack was dealt, 310.4a, deals
it, but has no ability in play to trigger), once per instance, and goes on
the stack only after state-based effects are checked (420.3). As it
resolves it destroys that creature, if it is still on the battlefield: a
regeneration shield replaces one destruction (419.6b), so two instances
need two shields.

Trigger: kind ``"deathtouch"``, source the permanent, controller its
controller, ``targets`` the creature it dealt damage to.
"""

from __future__ import annotations

from redzone import Destroy, Event, GameState, KeywordSpec, Trigger, hookimpl

from redzone_keywords.editions import damage_in_play

KIND = "deathtouch"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "502.63", summary="destroys creatures it deals damage "
                        "to (a triggered ability, 1999-2009 wording)")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in damage_in_play(state, events):
        source, target = event.source or "", event.target or ""
        if source not in state.objects or target not in state.objects:
            continue
        dealt_to = state.last_known(target)
        if "creature" not in dealt_to.types:
            continue
        perm = state.last_known(source)
        instances = len(perm.instances(KIND))  # each triggers (502.63b)
        out += [Trigger(KIND, source, perm.controller, "502.63a",
                        f"{perm.name} dealt damage to {dealt_to.name}: destroy it",
                        targets=(target,))
                for _ in range(instances)]
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Destroy]:
    if trigger.kind != KIND or not trigger.targets:
        return []
    creature = state.objects.get(trigger.targets[0])
    if creature is None or creature.zone != "battlefield":
        return []  # that creature is gone: nothing to destroy
    return [Destroy(creature.id)]
