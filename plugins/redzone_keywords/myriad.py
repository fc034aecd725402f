"""Myriad (CR 702.116).

"Myriad" means "Whenever this creature attacks, for each opponent other than
defending player, you may create a token that's a copy of this creature
that's tapped and attacking that player or a planeswalker they control. If
one or more tokens are created this way, exile the tokens at end of combat"
(702.116a). It triggers when the creature is declared as an attacker (508.2a,
508.3a); each instance triggers separately (702.116b).

As it resolves, "each opponent other than defending player" is each player
still in the game (800.4a), other than the trigger's controller and the
creature's defending player (fixed as it was declared, 506.2, 508.5). In a
two-player game there is none, and nothing happens.

The copies are tokens (111.2) with the creature's copiable values (707.2)
as it resolves, or as it last existed on the battlefield (608.2h): its name,
types, subtypes, supertypes, colors, power and toughness and keywords as
printed and as modified by copy effects (layer 1: a copy of a creature
copying another is a copy of that other, 707.3), its printed loyalty and
defense and its own restrictions and requirements; not the other effects on
it (a color, type or ability one gave it), its damage, counters or tapped
status (:func:`redzone.copiable_values`). They enter tapped
and attacking (508.4): they never "attacked", so their own myriad, battle
cry and other "whenever ... attacks" abilities don't trigger, and no
requirement or restriction on declaring attackers applies to them (508.4c).
As the trigger resolves it creates a delayed trigger (603.7a) that exiles
the tokens at the end of combat (511.2); a token in exile ceases to exist
(111.7, 704.5d); one that already left the battlefield isn't found (603.7c).

"You may": the controller chooses, for each of those opponents, whether to
create a token and whether it attacks the player or a planeswalker they
control. An embedding engine passes the choice as the trigger's
``choices["attack"]`` (for example ``engine.resolve_trigger(state,
choices={"attack": ["dave"]})``): the players and planeswalkers the tokens
attack, at most one for each of those opponents; an opponent named by
nothing gets no token. A name that is neither such an opponent nor a
planeswalker one of them controls, or two for the same opponent, is an
:class:`~redzone.IllegalActionError` (rule 702.116a) and nothing changes.
Without a choice the default is to create every token, each attacking the
opponent themselves.

Token ids are ``<creature>.myriad.<n>`` (:func:`redzone.token_ids`: n
counts from 1 over the game for that creature, the tokens of one resolution
in turn order of the opponents they are for), so a scenario file can name
them (111.1).

Trigger: kind ``"myriad"``, source the creature, controller its controller,
``targets`` its defending player.
"""

from __future__ import annotations

from redzone import (
    Action,
    Choice,
    CreateDelayedTrigger,
    CreateToken,
    Event,
    Exile,
    GameState,
    IllegalActionError,
    KeywordSpec,
    Permanent,
    Trigger,
    copiable_values,
    hookimpl,
    token_ids,
)

KIND = "myriad"
#: The delayed trigger it creates (603.7a); the kernel performs its actions.
DELAYED = "myriad exile"
CHOICE = "attack"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.116",
                        summary="when it attacks, a token copy attacks each other opponent")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    combat = state.combat
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects:
            continue
        defender = combat.defending_players.get(event.attacker) if combat is not None else None
        if defender is None and event.target is not None:
            defender = state.defending_player_of(event.target)
        if defender is None:
            continue
        perm = state.last_known(event.attacker)
        others = tuple(p for p in state.opponents(perm.controller) if p != defender)
        walkers = tuple(sorted(p.id for p in state.battlefield
                               if "planeswalker" in p.types and p.controller in others))
        for _ in perm.instances(KIND):
            # The choice is data: made as it resolves (608.2d), by key
            # "myriad@<creature>:attack"; by default a token for each opponent.
            offer = Choice(CHOICE, perm.controller, "option", (*others, *walkers),
                           default=others, min=0, max=len(others), rule="702.116a",
                           text="the players and planeswalkers the token copies attack")
            out.append(Trigger(KIND, perm.id, perm.controller, "702.116a",
                               f"a token copy attacks each opponent other than {defender}",
                               targets=(defender,), offers=(offer,) if others else ()))
    return out


def _copy(state: GameState, original: Permanent, token_id: str, controller: str
          ) -> Permanent:
    """A token copying the copiable values of ``original`` (707.2): what is
    printed on it as modified by copy effects (layer 1, 707.3), not the
    other effects on it, nor its damage, counters or status."""
    values = copiable_values(state, original)
    return Permanent(
        token_id, controller, name=values.name, types=values.types,
        subtypes=values.subtypes, supertypes=values.supertypes, colors=values.colors,
        base_power=values.base_power, base_toughness=values.base_toughness,
        printed_keywords=values.printed_keywords, printed_loyalty=original.printed_loyalty,
        printed_defense=original.printed_defense,
        can_block_additional=original.can_block_additional,
        cant_attack=original.cant_attack, cant_block=original.cant_block,
        cant_be_blocked=original.cant_be_blocked, min_blockers=original.min_blockers,
        attacks_if_able=original.attacks_if_able, blocks_if_able=original.blocks_if_able,
        must_be_blocked=original.must_be_blocked, lure=original.lure, token=True)


def _attacked(state: GameState, trigger: Trigger, opponents: tuple[str, ...]
              ) -> dict[str, str]:
    """Opponent -> what their token attacks: the choice, checked, or the default."""
    chosen = trigger.choices.get(CHOICE)
    if chosen is None:
        return {opp: opp for opp in opponents}
    out: dict[str, str] = {}
    for name in chosen:
        gone = state.players[name].lost if name in state.players else (
            name in state.objects and state.on_battlefield(name) is None)
        if gone:
            continue  # 800.4a: it left the game (or the battlefield) since it triggered
        if name in opponents:
            opp: str | None = name
        else:
            walker = state.on_battlefield(name)
            opp = walker.controller if walker is not None and "planeswalker" in walker.types \
                and walker.controller in opponents else None
        if opp is None:
            raise IllegalActionError(
                f"myriad: {name!r} is neither an opponent other than the defending player "
                f"({', '.join(opponents) or 'there is none'}) nor a planeswalker one of them "
                "controls", rule="702.116a", objects=(trigger.source, name))
        if opp in out:
            raise IllegalActionError(
                f"myriad: one token at most for {opp}, not two ({out[opp]!r} and {name!r})",
                rule="702.116a", objects=(trigger.source, out[opp], name))
        out[opp] = name
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Action]:
    if trigger.kind != KIND or trigger.actions or trigger.source not in state.objects:
        return []
    defender = trigger.targets[0] if trigger.targets else None
    opponents = tuple(p for p in state.opponents(trigger.controller) if p != defender)
    attacked = _attacked(state, trigger, opponents)
    original = state.last_known(trigger.source)
    actions: list[Action] = []
    tokens = []
    chosen = [opp for opp in opponents if opp in attacked]  # turn order; else declined (603.5)
    for opp, token_id in zip(chosen, token_ids(state, trigger.source, KIND, len(chosen)),
                             strict=True):
        actions.append(CreateToken(_copy(state, original, token_id, trigger.controller),
                                   tapped=True, attacking=attacked[opp]))
        tokens.append(token_id)
    if tokens:
        actions.append(CreateDelayedTrigger(
            "end_of_combat", tuple(Exile(t) for t in tokens), kind=DELAYED,
            text=f"exile {', '.join(tokens)}", rule="702.116a"))
    return actions

