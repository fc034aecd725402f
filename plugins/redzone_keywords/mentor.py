"""Mentor (CR 702.134).

"Whenever this creature attacks, put a +1/+1 counter on target attacking
creature with power less than this creature's power" (702.134a). Each
instance triggers separately (702.134b).

The target is a choice made as the ability is put on the stack (603.3d):
its key is ``"mentor@<source>:target"`` (``#2`` after the source for a second
instance). The options are the attacking creatures whose power is less than
the mentor's at that moment and that the mentor's ability can target (not
one with protection from a quality the mentor has, 702.16b: whatever
``redzone_target_violations`` refuses); the default is the one with the
greatest power (ties by id). With no legal target the ability is removed
from the stack (603.3d). As it resolves it checks the target again (608.2b):
a creature that is no longer attacking, whose power is no longer less than
the mentor's (its last known power if it left), or that the mentor's ability
can no longer target (it gained protection from the mentor), is an illegal
target and the ability does nothing.
"""

from __future__ import annotations

from redzone import (
    AddCounters,
    Choice,
    Event,
    GameState,
    KeywordSpec,
    Trigger,
    hookimpl,
    target_violations,
)

KIND = "mentor"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.134",
                        summary="when it attacks, a +1/+1 counter on a weaker attacking creature")]


def _legal(state: GameState, mentor: str, mentor_power: int) -> list[str]:
    """The attacking creatures with power less than ``mentor_power`` that
    ``mentor``'s ability can target (702.134a, 702.16b), the greatest power
    first (ties by id)."""
    combat = state.combat
    if combat is None:
        return []
    found = [p for a in combat.attacks if (p := state.on_battlefield(a)) is not None
             and p.is_creature and p.power < mentor_power
             and not target_violations(state, mentor, p.id)]
    found.sort(key=lambda p: (-p.power, p.id))
    return [p.id for p in found]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects:
            continue
        perm = state.last_known(event.attacker)
        for _ in perm.instances(KIND):
            legal = _legal(state, perm.id, perm.power)
            target = Choice("target", perm.controller, "target", tuple(sorted(legal)),
                            default=legal[:1], min=1, max=1, rule="702.134a",
                            text="target attacking creature with power less than "
                                 f"{perm.name}'s")
            out.append(Trigger(KIND, perm.id, perm.controller, "702.134a",
                               "put a +1/+1 counter on target attacking creature with "
                               "lesser power", offers=(target,)))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[AddCounters]:
    if trigger.kind != KIND:
        return []
    chosen = trigger.choices.get("target", ())
    if not chosen:
        return []
    mentor_power = state.source(trigger.source).power
    if chosen[0] not in _legal(state, trigger.source, mentor_power):
        return []  # 608.2b: its only target is illegal now
    return [AddCounters(chosen[0], {"+1/+1": 1})]

