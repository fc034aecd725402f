"""Flanking (CR 702.25).

"Flanking" means "Whenever this creature becomes blocked by a creature
without flanking, the blocking creature gets -1/-1 until end of turn"
(702.25a): a -1/-1 effect, not counters. It triggers once for each creature
that blocks it (509.3d): declared as a blocker, made to block it by an
effect, or put onto the battlefield blocking it; not when an effect makes
it blocked without a creature (509.3d). The blocker's lack of flanking, and
the attacker's flanking, are read as the blocker becomes a blocking creature
(509.3f). Each instance triggers separately (702.25b).

Trigger: kind ``"flanking"``, source the creature with flanking, controller
its controller, ``targets`` the blocking creature, ``amount`` 1 (it gets
-1/-1).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "flanking"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.25",
                        summary="each blocker without flanking gets -1/-1 until end of turn")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "block" or not event.attacker or not event.blocker:
            continue
        if event.attacker not in state.objects or event.blocker not in state.objects:
            continue
        attacker = state.last_known(event.attacker)
        blocker = state.last_known(event.blocker)
        if blocker.has(KIND):
            continue
        for _ in attacker.instances(KIND):
            out.append(Trigger(KIND, attacker.id, attacker.controller, "702.25a",
                               f"{blocker.name} gets -1/-1 until end of turn",
                               amount=1, targets=(blocker.id,)))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND:
        return []
    n = trigger.amount or 0
    return [Pump(target, -n, -n) for target in trigger.targets]

