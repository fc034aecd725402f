"""Battle cry (CR 702.91).

"Battle cry" means "Whenever this creature attacks, each other attacking
creature gets +1/+0 until end of turn" (702.91a). It triggers when the
creature is declared as an attacker (508.2a, 508.3a), not when it is put
onto the battlefield attacking. The creatures it pumps are the attacking
creatures other than its source as it resolves: a creature that entered the
battlefield attacking before it resolved gets +1/+0, one that comes later
doesn't (the Hero of Bladehold ordering). Each instance triggers separately
(702.91b).

Trigger: kind ``"battle cry"``, source the creature, controller its
controller, ``amount`` 1 (each other attacker gets +1/+0).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "battle cry"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.91",
                        summary="when it attacks, each other attacking creature gets +1/+0")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects:
            continue
        perm = state.last_known(event.attacker)
        for _ in perm.instances(KIND):
            out.append(Trigger(KIND, perm.id, perm.controller, "702.91a",
                               "each other attacking creature gets +1/+0 until end of turn",
                               amount=1))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND or state.combat is None:
        return []
    n = trigger.amount or 0
    return [Pump(attacker, n, 0) for attacker in state.combat.attacks
            if attacker != trigger.source and state.on_battlefield(attacker) is not None]

