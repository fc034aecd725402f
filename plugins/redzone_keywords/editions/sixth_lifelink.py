"""Lifelink, 1999-2009 wording (CR 502.68 of February 2009).

"Lifelink is a triggered ability. 'Lifelink' means 'Whenever this permanent
deals damage, you gain that much life'" (502.68a); each instance triggers
separately (502.68b), so a permanent with two instances gains twice.

It triggers once for each event in which its permanent deals damage (the
damage of one combat damage step is one event, whatever it was dealt to;
two instructions that deal damage are two events), for the damage it dealt
in that event, and it goes on the stack only after state-based
effects are checked (420.3): a player dealt lethal damage while their
lifelink creature deals damage loses before the life is gained (420.5a).
A permanent that died in that event still triggers, by its last known
information; "you" is its controller as it dealt the damage. One that left
play before its damage on the stack was dealt (310.4a) deals it, but its
ability wasn't in play to trigger.

Trigger: kind ``"lifelink"``, source the permanent, controller its
controller, ``amount`` the damage it dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from redzone import Event, GameState, KeywordSpec, Trigger, hookimpl

from redzone_keywords.editions import damage_in_play

if TYPE_CHECKING:
    from redzone import GainLife

KIND = "lifelink"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "502.68", summary="you gain life equal to the damage it "
                        "deals (a triggered ability, 1999-2009 wording)")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    # One trigger per event the permanent deals damage in: its combat damage
    # of the step is one event whatever it was dealt to (310.4); each other
    # damage event is its own (two instructions that deal damage, two events).
    dealt: list[tuple[str, int]] = []
    combat: dict[str, int] = {}
    for event in damage_in_play(state, events):
        source = event.source or ""
        if event.combat:
            if source in combat:
                at = combat[source]
                dealt[at] = (source, dealt[at][1] + (event.amount or 0))
                continue
            combat[source] = len(dealt)
        dealt.append((source, event.amount or 0))
    out = []
    for source, amount in dealt:
        if not state.is_source(source):
            continue
        # It triggered as the damage was dealt: a permanent as it last was on
        # the battlefield (it may have died in that event), else the spell.
        perm = state.last_known(source) if source in state.objects else state.source(source)
        instances = len(perm.instances(KIND))  # each triggers (502.68b)
        out += [Trigger(KIND, source, perm.controller, "502.68a",
                        f"{perm.name} dealt {amount} damage: gain {amount} life", amount=amount)
                for _ in range(instances)]
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[GainLife]:
    if trigger.kind != KIND or not trigger.amount:
        return []
    from redzone import GainLife  # (the kernel's action classes, imported when needed)

    return [GainLife(trigger.controller, trigger.amount)]
