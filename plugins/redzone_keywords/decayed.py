"""Decayed (CR 702.147).

"Decayed" means "This creature can't block" and "When this creature
attacks, sacrifice it at end of combat" (702.147a).

The first is a restriction on declaring blockers (509.1b), named
``decayed`` so another ability may lift it (``redzone_block_exemption``).
The second triggers when the creature is declared as an attacker (508.2a,
508.3a), not when it is put onto the battlefield attacking (508.4); as it
resolves it creates a delayed trigger (603.7a, 603.7e) that makes its
controller sacrifice it at the beginning of the end of combat step (511.2,
701.21a). If it has already left the battlefield, or another player now
controls it, nothing is sacrificed (603.7c, 701.21a). Sacrifice is not
destruction: indestructible and regeneration don't save it. Several
instances are redundant for the restriction; each instance triggers.

Trigger: kind ``"decayed"``, source the creature, controller its controller.
"""

from __future__ import annotations

from redzone import (
    CreateDelayedTrigger,
    Event,
    GameState,
    KeywordSpec,
    Sacrifice,
    Trigger,
    Violation,
    hookimpl,
)

KIND = "decayed"
#: The delayed trigger it creates (603.7a); the kernel performs its actions.
DELAYED = "decayed sacrifice"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.147",
                        summary="can't block; when it attacks, sacrifice it at end of combat")]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    perm = state.objects[blocker]
    if not perm.has(KIND):
        return []
    return [Violation("702.147a", f"{perm.label} has decayed and can't block", (blocker,),
                      restriction=KIND)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects:
            continue
        perm = state.last_known(event.attacker)
        for _ in perm.instances(KIND):
            out.append(Trigger(KIND, perm.id, perm.controller, "702.147a",
                               "sacrifice it at end of combat"))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[CreateDelayedTrigger]:
    if trigger.kind != KIND or trigger.actions:
        return []
    return [CreateDelayedTrigger("end_of_combat",
                                 (Sacrifice(trigger.source, player=trigger.controller),),
                                 kind=DELAYED, text=f"sacrifice {trigger.source}",
                                 rule="702.147a")]

