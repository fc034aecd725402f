"""Mobilize (CR 702.181).

"Mobilize N" means "Whenever this creature attacks, create N 1/1 red Warrior
creature tokens. Those tokens enter tapped and attacking. Sacrifice them at
the beginning of the next end step" (702.181a). It triggers when the
creature is declared as an attacker (508.2a, 508.3a); each instance triggers
separately, each with its own N.

The tokens are 1/1 red Warrior creatures (111.2: the trigger's controller
creates, owns and controls them). They enter tapped and attacking (508.4):
they never "attacked", so nothing that triggers "whenever ... attacks" sees
them and no requirement or restriction on declaring attackers applies
(508.4c). The effect doesn't say what they attack, so their controller
chooses, as they enter (508.4): what they attack is no target of the
ability, chosen as it resolves among what can be attacked then. The default
here is what the creature with mobilize was declared attacking (the
combat's record of it), when that is still a defending player, a
planeswalker a defending player controls or a battle one protects (a
planeswalker that left and came back is a new object, 400.7, and may be
attacked as any other), or else its defending player (506.2); if that
player has left the game the tokens enter but aren't attacking (508.4a).

As the trigger resolves it creates a delayed trigger (603.7a, 603.7e: its
source and controller are the ability's) that, at the beginning of the next
end step (513.2), makes its controller sacrifice the tokens (701.21a); a
token that already left the battlefield isn't found (603.7c), one another
player now controls can't be sacrificed. Sacrificed, they go to the
graveyard and cease to exist (111.7, 704.5d).

N is at most 100 (declared with the form, refused as the keyword is
parsed): one ability creates tokens well below the kernel's bound on
objects (10,000), so a board reaches that bound only with many instances,
and then the command fails naming this plugin.

Token ids are ``<creature>.mobilize.<n>`` (:func:`redzone.token_ids`: n
counts from 1 over the game for that creature, so a second attack's Warriors
go on numbering), so a scenario file can name them (111.1).

Trigger: kind ``"mobilize"``, source the creature, controller its
controller, ``amount`` the N of the instance, ``targets`` its defending
player (a trigger of earlier versions, which also names what the creature
was declared attacking first, resolves alike).
"""

from __future__ import annotations

from redzone import (
    Action,
    CreateDelayedTrigger,
    CreateToken,
    Event,
    GameState,
    KeywordSpec,
    Permanent,
    Sacrifice,
    Trigger,
    hookimpl,
    token_ids,
)

KIND = "mobilize"
#: The delayed trigger it creates (603.7a); the kernel performs its actions.
DELAYED = "mobilize sacrifice"
#: The largest N (see the module docstring).
MOST = 100


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.181", form="mobilize {number}",
                        summary="when it attacks, N 1/1 red Warriors enter tapped and attacking",
                        examples=("mobilize 1", "mobilize 2"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    combat = state.combat
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects \
                or event.target is None:
            continue
        defender = combat.defending_players.get(event.attacker) if combat is not None else None
        defender = defender or state.defending_player_of(event.target) or event.target
        perm = state.last_known(event.attacker)
        for keyword in perm.instances(KIND):
            n = keyword.number or 0
            # (Only the defending player: what the tokens attack is chosen as
            # they enter, 508.4, not a target noted as it goes on the stack.)
            out.append(Trigger(KIND, perm.id, perm.controller, "702.181a",
                               f"create {n} 1/1 red Warrior token{'s' if n != 1 else ''} "
                               "tapped and attacking", amount=n, targets=(defender,)))
    return out


def _attackable(state: GameState, attacked: str, controller: str) -> bool:
    """Whether ``controller``'s tokens can enter attacking ``attacked`` now: a
    player still in the game who is their opponent, or a planeswalker on the
    battlefield such a player controls or a battle such a player protects,
    whatever object it is now (400.7).

    Rules: 508.4, 508.4a, 506.2
    """
    if attacked in state.players:
        return attacked in state.opponents(controller)
    perm = state.on_battlefield(attacked)
    return perm is not None and bool(perm.types & {"planeswalker", "battle"}) \
        and state.defending_player_of(attacked) in state.opponents(controller)


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Action]:
    if trigger.kind != KIND or trigger.actions or len(trigger.targets) not in (1, 2):
        return []
    defender = trigger.targets[-1]
    if len(trigger.targets) == 2:
        declared: str | None = trigger.targets[0]
    else:
        combat = state.combat
        declared = combat.declared.get(trigger.source) if combat is not None else None
    # 508.4: chosen as they enter; by default what the creature was declared
    # attacking, else its defending player.
    attacked = declared if declared is not None \
        and _attackable(state, declared, trigger.controller) else defender
    tokens = token_ids(state, trigger.source, KIND, trigger.amount or 0)
    actions: list[Action] = [
        CreateToken(Permanent(t, trigger.controller, name="Warrior", types={"creature"},
                              subtypes=("Warrior",), colors={"red"}, base_power=1,
                              base_toughness=1, token=True), tapped=True, attacking=attacked)
        for t in tokens]
    if tokens:
        actions.append(CreateDelayedTrigger(
            "end_step", tuple(Sacrifice(t, player=trigger.controller) for t in tokens),
            kind=DELAYED, text=f"sacrifice {', '.join(tokens)}", rule="702.181a"))
    return actions

