"""Training (CR 702.149).

"Training" means "Whenever this creature and at least one other creature
with power greater than this creature's power attack, put a +1/+1 counter
on this creature" (702.149a). Both must be declared as attackers in the same
declaration (508.3a); powers are compared as attackers are declared, before
any attack trigger resolves (508.2a). Each instance triggers separately
(702.149b).

Trigger: kind ``"training"``, source the creature, controller its
controller, ``amount`` 1 (one +1/+1 counter).
"""

from __future__ import annotations

from redzone import AddCounters, Event, GameState, KeywordSpec, Trigger, hookimpl

KIND = "training"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.149",
                        summary="a +1/+1 counter when it attacks with a more powerful creature")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    attackers = [state.last_known(a) for a in dict.fromkeys(
        e.attacker for e in events if e.kind == "attack" and e.attacker in state.objects)
        if a is not None]
    out = []
    for perm in attackers:
        if not perm.has(KIND):
            continue
        if not any(o.id != perm.id and o.power > perm.power for o in attackers):
            continue
        for _ in perm.instances(KIND):
            out.append(Trigger(KIND, perm.id, perm.controller, "702.149a",
                               f"{perm.name} trains: a +1/+1 counter", amount=1))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[AddCounters]:
    if trigger.kind != KIND:
        return []
    return [AddCounters(trigger.source, {"+1/+1": trigger.amount or 0})]

