"""Bushido (CR 702.45).

"Bushido N" means "Whenever this creature blocks or becomes blocked, it gets
+N/+N until end of turn" (702.45a). One ability with two trigger events: a
creature that blocks several attackers triggers once (509.3a), and so does an
attacker blocked by several creatures (509.3c). It triggers when the creature
is declared as a blocker, or is made to block by an effect while it wasn't
already blocking (509.3a); not when it is put onto the battlefield blocking
(509.3a). An attacker triggers when it goes from unblocked to blocked, by a
declaration, an effect or a creature put onto the battlefield blocking it
(509.3c). The creature must have bushido at that moment (509.3f): gaining it
later triggers nothing, losing it later doesn't take back a trigger. Each
instance triggers separately (702.45b).

Trigger: kind ``"bushido"``, source the creature, controller its controller,
``amount`` the N of the instance that triggered.

N is at most 1,000 (declared with the form, refused as the keyword is
parsed; no printed card goes past single digits): the numbers of all the
instances a permanent can hold then add up well below the kernel's bound
on amounts (1,000,000), so a sum over it is a plugin fault only on a board
past any printed one.
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "bushido"


#: The largest N (see the module docstring).
MOST = 1_000


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.45", form="bushido {number}",
                        summary="+N/+N until end of turn when it blocks or becomes blocked",
                        examples=("bushido 1", "bushido 2"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    entered = {e.object for e in events if e.kind == "enters_battlefield"}
    new_blocks: dict[str, set[str]] = {}
    becomes_blocked: list[str] = []
    for event in events:
        if event.kind == "block" and event.blocker and event.attacker:
            new_blocks.setdefault(event.blocker, set()).add(event.attacker)
        elif event.kind == "blocked" and event.object:
            becomes_blocked.append(event.object)
    combat = state.combat
    blocks: list[str] = []
    for blocker, attackers in new_blocks.items():
        if blocker in entered:
            continue  # 509.3a: put onto the battlefield blocking
        if combat is not None and set(combat.blocks.get(blocker, ())) - attackers:
            continue  # 509.3a: it was already a blocking creature
        blocks.append(blocker)
    out = []
    for obj in dict.fromkeys([*blocks, *becomes_blocked]):
        if obj not in state.objects:
            continue
        perm = state.last_known(obj)
        for keyword in perm.instances(KIND):
            n = keyword.number
            out.append(Trigger(KIND, obj, perm.controller, "702.45a",
                               f"{perm.name} gets +{n}/+{n} until end of turn", amount=n))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND:
        return []
    n = trigger.amount or 0
    return [Pump(trigger.source, n, n)]

