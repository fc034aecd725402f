"""Melee (CR 702.121).

"Melee" means "Whenever this creature attacks, it gets +1/+1 until end of
turn for each opponent you attacked with a creature this combat" (702.121a).
It triggers when the creature is declared as an attacker (508.3a). The
opponents counted are the players, other than its controller, that the
declaration of attackers attacked with at least one creature: attacking a
planeswalker or a battle doesn't count as attacking a player, and a creature
put onto the battlefield attacking was never declared. All attackers are
declared at once (508.1), so the count is fixed as the ability triggers and
is the trigger's ``amount``; it doesn't change if attackers later leave
combat. Each instance triggers separately (702.121b).

Trigger: kind ``"melee"``, source the creature, controller its controller,
``amount`` the number of opponents attacked (it gets +amount/+amount).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Pump, Trigger, hookimpl

KIND = "melee"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.121",
                        summary="+1/+1 for each opponent attacked with a creature this combat")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    attacks = [e for e in events if e.kind == "attack" and e.attacker in state.objects]
    out = []
    # What each player attacked, worked out once (not once per melee creature).
    targets: dict[str, set[str]] = {}
    for event in attacks:
        assert event.attacker is not None
        if event.target is not None:
            controller = state.last_known(event.attacker).controller
            targets.setdefault(controller, set()).add(event.target)
    for event in attacks:
        assert event.attacker is not None
        perm = state.last_known(event.attacker)
        if not perm.has(KIND):
            continue
        opponents = state.opponents(perm.controller)
        n = len({t for t in targets.get(perm.controller, ()) if t in opponents})
        for _ in perm.instances(KIND):
            out.append(Trigger(KIND, perm.id, perm.controller, "702.121a",
                               f"{perm.name} gets +{n}/+{n} until end of turn ({n} "
                               f"opponent{'s' if n != 1 else ''} attacked)", amount=n))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND or not trigger.amount:
        return []
    return [Pump(trigger.source, trigger.amount, trigger.amount)]

