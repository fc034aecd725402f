"""Exalted (CR 702.83).

"Exalted" means "Whenever a creature you control attacks alone, that
creature gets +1/+1 until end of turn" (702.83a). A creature attacks alone
if it is the only creature declared as an attacker in the declaration of
attackers (702.83b, 506.5): one ``attack`` event in the declaration's batch.
A creature put onto the battlefield attacking was never declared, so it
neither attacks alone nor keeps another creature from attacking alone. The
ability is on any permanent, not just the attacker; each instance of exalted
among the permanents the attacking creature's controller controls triggers
separately, each giving +1/+1.

Trigger: kind ``"exalted"``, source the permanent with exalted, controller
its controller, ``targets`` the creature that attacked alone, ``amount`` 1
(it gets +1/+1).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "exalted"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.83",
                        summary="a creature you control that attacks alone gets +1/+1")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    declared = list(dict.fromkeys(e.attacker for e in events if e.kind == "attack"))
    if len(declared) != 1 or declared[0] is None or declared[0] not in state.objects:
        return []
    attacker = state.last_known(declared[0])
    out = []
    for perm in state.battlefield:
        if perm.controller != attacker.controller:
            continue
        for _ in perm.instances(KIND):
            out.append(Trigger(KIND, perm.id, perm.controller, "702.83a",
                               f"{attacker.name} attacks alone: +1/+1 until end of turn",
                               amount=1, targets=(attacker.id,)))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND:
        return []
    n = trigger.amount or 0
    return [Pump(target, n, n) for target in trigger.targets]

