"""Rampage (CR 702.23).

"Rampage N" means "Whenever this creature becomes blocked, it gets +N/+N
until end of turn for each creature blocking it beyond the first" (702.23a).
It triggers once as the creature goes from unblocked to blocked (509.3c), and
only if it has rampage at that moment (509.3f). The bonus is counted once,
as the trigger resolves, from the creatures blocking it then (702.23b): a
blocker added before it resolves counts, one added or removed after it
resolved changes nothing, and an attacker that is already blocked doesn't
trigger again. Each instance triggers separately (702.23c).

N is at most 100 (declared with the form, refused as the keyword is
parsed): the bonus, N for each blocker beyond the first, then stays within
the kernel's bound on a pump (1,000,000) for any board within the object
bound (10,000).

Trigger: kind ``"rampage"``, source the creature, controller its controller,
``amount`` the N of the instance (the bonus per extra blocker).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "rampage"
#: The largest N (see the module docstring).
MOST = 100


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.23", form="rampage {number}",
                        summary="+N/+N for each creature blocking it beyond the first",
                        examples=("rampage 1", "rampage 2"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "blocked" or not event.object or event.object not in state.objects:
            continue
        perm = state.last_known(event.object)
        for keyword in perm.instances(KIND):
            n = keyword.number
            out.append(Trigger(KIND, perm.id, perm.controller, "702.23a",
                               f"{perm.name} gets +{n}/+{n} for each creature blocking it "
                               "beyond the first", amount=n))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND:
        return []
    combat = state.combat
    blockers = len(combat.blockers_of(trigger.source)) if combat is not None else 0
    bonus = (trigger.amount or 0) * max(0, blockers - 1)  # 702.23b: counted now
    return [Pump(trigger.source, bonus, bonus)] if bonus else []

