"""Battalion (CR 207.2c).

Battalion is an ability word: it has no rules meaning of its own (207.2c),
and groups cards whose abilities share a trigger. Battalion's is "Whenever this creature and
at least two other creatures attack, ..." (Boros Elite: "it gets +2/+2
until end of turn"). This plugin gives the ability word the effect most
battalion cards have, written with it:

``battalion +N/+M``: "Whenever this creature and at least two other
creatures attack, this creature gets +N/+M until end of turn."

It triggers when attackers are declared (508.1, 508.3a) with it among them
and at least two other creatures declared with it: creatures put onto the
battlefield attacking were never declared and don't count, and it doesn't
trigger if it is put onto the battlefield attacking itself (508.4). Each
instance triggers separately (603.2). The pump applies as it resolves, to
the creature if it is still on the battlefield (608.2b); it lasts until end
of turn (611.2a, 514.2).

Trigger: kind ``"battalion"``, source the creature, controller its
controller, ``amount`` N; its action is the :class:`~redzone.Pump`, which
the kernel performs as it resolves (and skips if the creature has left,
608.2b).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "battalion"
#: How many creatures attack with it, at least (207.2c: "at least two other").
OTHERS = 2
#: The largest +N or +M it may say.
MOST = 20


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "207.2c", form="battalion +{number}/+{number}",
                        summary="whenever it and at least two other creatures attack, it gets "
                        "+N/+M until end of turn",
                        examples=("battalion +2/+2", "battalion +1/+0"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    declared = [e.attacker for e in events if e.kind == "attack" and e.attacker]
    if len(declared) < OTHERS + 1:
        return []
    out = []
    for attacker in declared:
        if attacker not in state.objects:
            continue
        perm = state.last_known(attacker)
        for keyword in perm.instances(KIND):
            power, toughness = (int(a) for a in keyword.args)
            out.append(Trigger(KIND, perm.id, perm.controller, "207.2c",
                               f"it gets +{power}/+{toughness} until end of turn",
                               amount=power, actions=(Pump(perm.id, power, toughness),)))
    return out
