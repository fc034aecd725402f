"""Frenzy (CR 702.68).

"Frenzy N" means "Whenever this creature attacks and isn't blocked, it gets
+N/+0 until end of turn" (702.68a). It triggers in the declare blockers step,
not as attackers are declared (508.3f): when no creature is declared as a
blocker for it (509.3g), also if it entered the battlefield attacking before
blockers were declared, but not if it was blocked and its blockers were later
removed from combat, nor if it entered attacking after blockers were declared
(ninjutsu): it wasn't there when the ability would have triggered (509.1i,
603.2). Each instance triggers separately (702.68b).

Trigger: kind ``"frenzy"``, source the creature, controller its controller,
``amount`` the N of the instance.

N is at most 1,000 (declared with the form, refused as the keyword is
parsed; no printed card goes past single digits): the numbers of all the
instances a permanent can hold then add up well below the kernel's bound
on amounts (1,000,000), so a sum over it is a plugin fault only on a board
past any printed one.
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "frenzy"


#: The rule of the ``unblocked`` event the declaration of blockers makes.
DECLARED = "509.1h"

#: The largest N (see the module docstring).
MOST = 1_000


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.68", form="frenzy {number}",
                        summary="+N/+0 until end of turn when it attacks and isn't blocked",
                        examples=("frenzy 1", "frenzy 2"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        # Blockers declared, none for it (509.1h's event): not a creature that
        # entered attacking afterwards, unblocked (508.4d) but not there as
        # blockers were declared, when the ability would have triggered (603.2).
        if event.kind != "unblocked" or event.rule != DECLARED or not event.object \
                or event.object not in state.objects:
            continue
        perm = state.last_known(event.object)
        for keyword in perm.instances(KIND):
            n = keyword.number
            out.append(Trigger(KIND, perm.id, perm.controller, "702.68a",
                               f"{perm.name} isn't blocked: +{n}/+0 until end of turn",
                               amount=n))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND:
        return []
    return [Pump(trigger.source, trigger.amount or 0, 0)]

