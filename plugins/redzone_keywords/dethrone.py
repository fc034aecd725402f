"""Dethrone (CR 702.105).

"Dethrone" means "Whenever this creature attacks the player with the most
life or tied for most life, put a +1/+1 counter on this creature"
(702.105a). It triggers when the creature is declared as an attacker
attacking that player (508.3a), comparing life totals as attackers are
declared: every player still in the game counts, the attacking player too.
Attacking a planeswalker or a battle never triggers it. Each instance
triggers separately (702.105b).

Trigger: kind ``"dethrone"``, source the creature, controller its
controller, ``targets`` the attacked player, ``amount`` 1 (one +1/+1
counter).
"""

from __future__ import annotations

from redzone import AddCounters, Event, GameState, KeywordSpec, Trigger, hookimpl

KIND = "dethrone"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.105",
                        summary="a +1/+1 counter when it attacks the player with the most life")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    lives = [p.life for p in state.players.values() if not p.lost]
    if not lives:
        return []
    most = max(lives)
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects:
            continue
        target = state.players.get(event.target or "")
        if target is None or target.lost or target.life != most:
            continue
        perm = state.last_known(event.attacker)
        for _ in perm.instances(KIND):
            out.append(Trigger(KIND, perm.id, perm.controller, "702.105a",
                               f"{perm.name} attacks {target.id} (most life, {target.life}): "
                               "a +1/+1 counter", amount=1, targets=(target.id,)))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[AddCounters]:
    if trigger.kind != KIND:
        return []
    return [AddCounters(trigger.source, {"+1/+1": trigger.amount or 0})]

