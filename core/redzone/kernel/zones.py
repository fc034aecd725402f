"""Objects moving between any two zones (400.7) and drawing (121).

The state holds every object in :attr:`~redzone.GameState.objects`, each with
its ``zone`` and its ``position`` there (:meth:`~redzone.GameState.zone` reads
a player's hand, library or graveyard in order). A card that changes zones is
a new object (400.7): its id stays, its ``object`` number goes up by one, and
it keeps only its printed characteristics (counters, damage, effects and
combat status don't come along). A permanent's last known information, as it
last existed on the battlefield, stays in ``state.lki`` for what looks back
in time (603.10a).

Leaving the battlefield is :func:`redzone.kernel.sba.move_many_to_zone`'s
(combat, last known information); this module adds the moves that start in
any other zone, putting a card onto the battlefield among them, casting
(a permanent spell, or an instant or sorcery whose effects the kernel's
:class:`~redzone.Cast` performs as it resolves), and drawing.
"""

from __future__ import annotations

from typing import Final

from redzone.kernel import sba as _sba
from redzone.kernel.errors import IllegalActionError
from redzone.kernel.events import Event
from redzone.kernel.model import ZONES, GameState, Permanent

#: Where in a library a card is put: ``top`` (it is drawn next, 401.1) or
#: ``bottom``.
POSITIONS: Final = ("top", "bottom")


def move_object(state: GameState, obj: str, to: str, rule: str, step: str, *,
                top: bool = False) -> tuple[GameState, list[Event]]:
    """Move the object ``obj`` from its zone to ``to`` (400.7).

    From the battlefield it leaves combat and its last known information is
    kept (:func:`redzone.kernel.sba.move_to_zone`). Onto the battlefield it
    enters under its owner's control (a card off the battlefield is its
    owner's), untapped, and it hasn't been controlled continuously since the
    turn began (302.6); a planeswalker enters with loyalty counters and a
    battle with defense counters, as many as its printed number (306.5b,
    310.4b, 614.1c), and a battle with no protector (its controller chooses
    one, 704.5x). A token that has left the battlefield stays where it
    is (111.8), and so does a card whose owner has left the game, rather
    than go onto the battlefield or the stack under their control (800.4b);
    one that is no longer in the game (``ceased``, ``left_game``) doesn't
    move. Within one zone nothing changes but a library's order: the card is
    put on top or at the bottom and stays the same object.

    :param obj: an object of the state.
    :param to: one of :data:`~redzone.kernel.model.ZONES`.
    :param rule: the rule that moves it.
    :param step: the step it happens in (the events' label).
    :param top: put it on top of its owner's library (401.1) rather than at
        the bottom; other zones take arriving cards last.
    :returns: the new state and the events.
    """
    if to not in ZONES:
        raise ValueError(f"unknown zone {to!r}: one of {', '.join(ZONES)}")
    perm = state.objects[obj]
    source = perm.zone
    if perm.token and source != "battlefield":
        return state, []  # 111.8: it can't move to another zone
    if source not in ZONES:
        return state, []  # it ceased to exist, or left the game (111.7, 800.4a)
    if to in ENTERS_UNDER_OWNER and source != to and has_left(state, perm.owner):
        return state, []  # 800.4b: it remains in its current zone
    if source == "battlefield":
        if to == "battlefield":
            return state, []
        return _sba.move_to_zone(state, obj, to, rule, step, top=top)
    if source == to:
        if to != "library":
            return state, []
        place = _sba.next_position(state, perm.owner, to, top=top)
        return state.with_permanents({obj: perm.evolve(position=place)}), []
    place = _sba.next_position(state, perm.owner, to, top=top)
    new: Permanent = _sba._left(perm, to, place)  # type: ignore[operator]
    events: list[Event] = []
    if to == "battlefield":
        new = new.evolve(summoning_sick=True)  # 302.6
        events.append(Event("enters_battlefield", rule, step, object=obj, player=new.controller))
        new = enters_with(new, step, events)
        combat = state.combat
        if combat is not None and obj in combat.removed:
            # 400.7: a new object, which was never removed from this combat
            state = state.evolve(combat=combat.evolve(removed=combat.removed - {obj},
                                                      returned=combat.returned | {obj}))
    else:
        events.append(Event.make("moved", rule, step, object=obj, zone=to, origin=source))
    objects = state.objects.set(obj, new)
    return state.with_objects_left(objects, (obj,)), events


def enters_with(perm: Permanent, step: str, events: list[Event]) -> Permanent:
    """``perm`` as it enters the battlefield with the counters of its own
    intrinsic abilities (:meth:`~redzone.kernel.model.Permanent.entering_counters`:
    a planeswalker's printed loyalty, 306.5b; a battle's printed defense,
    310.4b), a ``counters`` event for each added to ``events``.

    Rules: 306.5b, 310.4b, 614.1c
    """
    entering = perm.entering_counters()
    if not entering:
        return perm
    counters = perm.counters.thaw()
    for kind, n, rule in entering:
        counters[kind] = counters.get(kind, 0) + n
        events.append(Event("counters", rule, step, target=perm.id, counter=kind, amount=n))
    return perm.evolve(counters=counters)


#: The zones a card off the battlefield enters under its owner's control
#: (a card put onto the battlefield, 110.2; a spell cast, 601.2a): where it
#: doesn't go when that player has left the game (800.4b).
ENTERS_UNDER_OWNER: Final = frozenset({"battlefield", "stack"})

#: The zones whose objects leave the game with their owner (800.4a) through
#: :func:`leave_the_game`, in the order they do: every zone but the
#: battlefield, whose permanents leave it through
#: :func:`redzone.kernel.sba.move_many_to_zone`.
LEFT_WITH_OWNER: Final = ("hand", "library", "graveyard", "exile", "stack")


def has_left(state: GameState, player: str) -> bool:
    """Whether ``player`` has left the game (104.5: a player who lost;
    800.4a).

    Rules: 104.5, 800.4a
    """
    found = state.players._items.get(player)
    return found is not None and found.lost


def leave_the_game(state: GameState, player: str, step: str
                   ) -> tuple[GameState, list[Event]]:
    """As ``player`` leaves the game, every object they own off the
    battlefield leaves it too (800.4a): each card in their hand, library,
    graveyard and exile, and on the stack, goes to the ``left_game`` zone as
    a new object (400.7), with a ``moved`` event citing 800.4a that names the
    zone it left. (Their permanents leave the battlefield with the
    ``zone_change`` events of :func:`redzone.kernel.sba.move_many_to_zone`.)
    Objects in ``ceased`` or ``left_game`` stay where they are, so a second
    call does nothing.

    Rules: 400.7, 800.4a

    :param player: the player who leaves.
    :param step: the step it happens in (the events' label).
    :returns: the new state and the events, the cards in zone and position
        order.
    """
    leaving = sorted((p for p in state.objects._items.values()
                      if p.owner == player and p.zone in LEFT_WITH_OWNER),
                     key=lambda p: (LEFT_WITH_OWNER.index(p.zone), p.position))
    if not leaving:
        return state, []
    place = _sba.next_position(state, player, "left_game")
    moved: dict[str, Permanent] = {}
    events: list[Event] = []
    for n, perm in enumerate(leaving):
        moved[perm.id] = _sba._left(perm, "left_game", place + n)  # type: ignore[operator]
        events.append(Event.make("moved", "800.4a", step, object=perm.id, zone="left_game",
                                 origin=perm.zone))
    return state.with_objects_left(state.objects.merge(moved), tuple(moved)), events


def draw(state: GameState, player: str, step: str) -> tuple[GameState, list[Event]]:
    """``player`` draws a card: the top card of their library is put into
    their hand (121.1). From an empty library nothing is drawn and the player
    is marked to lose at the next check of state-based actions (121.4,
    704.5b).

    :returns: the new state and the events.
    """
    library = state.zone(player, "library")
    if not library:
        who = state.players[player]
        state = state.with_players({player: who.evolve(drew_from_empty=True)})
        return state, [Event.make("draw_from_empty", "121.4", step, player=player)]
    top = library[0]
    state, _moved = move_object(state, top, "hand", "121.1", step)
    return state, [Event("draws", "121.1", step, player=player, object=top)]


def discard_to_hand_size(state: GameState, player: str, step: str, chosen: tuple[str, ...]
                         ) -> tuple[GameState, list[Event]]:
    """``player`` discards ``chosen``: each card goes from their hand to their
    graveyard (701.9a), in the order given (404.1).

    :returns: the new state and the events.
    """
    events: list[Event] = []
    for card in chosen:
        state, _moved = move_object(state, card, "graveyard", "701.9a", step)
        events.append(Event("discards", "701.9a", step, player=player, object=card))
    return state, events


def over_hand_size(state: GameState, player: str) -> int:
    """How many cards over their maximum hand size ``player`` holds (402.2,
    514.1): 0 with no maximum."""
    most = state.players[player].max_hand_size
    return 0 if most is None else max(len(state.zone(player, "hand")) - most, 0)


#: The main phases (505): where a permanent spell is cast and a land played
#: without flash (302.1, 305.1, 307.1).
MAIN_PHASES: Final = frozenset({"main", "precombat_main", "postcombat_main"})

#: The rule that says when a card of each permanent type may be cast (301.1
#: artifacts, 302.1 creatures, 303.1 enchantments, 306.1 planeswalkers, 310.1
#: battles): a main phase of the caster's turn, with an empty stack.
CAST_TIMING: Final = {"creature": "302.1", "artifact": "301.1", "enchantment": "303.1",
                      "planeswalker": "306.1", "battle": "310.1"}


def _in_hand(state: GameState, obj: str, doing: str) -> Permanent:
    perm = state.objects.get(obj)
    if perm is None or perm.zone != "hand":
        where = "no such card" if perm is None else f"it is {perm.zone!r}, not in a hand"
        done = "cast" if doing == "cast" else "played"
        raise IllegalActionError(f"{doing}: {obj!r} can't be {done} from its owner's hand: "
                                 f"{where}", rule="601.2a" if doing == "cast" else "305.1",
                                 objects=(obj,))
    if has_left(state, perm.owner):
        raise IllegalActionError(f"{doing}: {perm.owner!r}, who owns {obj!r}, has left the "
                                 "game: it can't be put onto the stack or the battlefield "
                                 "under their control", rule="800.4b", objects=(obj, perm.owner))
    return perm


def sorcery_timing_problem(state: GameState, player: str) -> str | None:
    """Why ``player`` can't do now what is done only when a sorcery could be
    cast (307.1, 602.5d: a main phase of their turn, with an empty stack),
    or ``None`` when they can.

    :param state: the state.
    :param player: who would do it (a sorcery's caster, an ability's
        controller).
    :returns: ``"during 'bob''s turn"`` or ``"now: "`` and why not.
    """
    if state.active_player != player and player not in state.teammates(state.active_player):
        return f"during {state.active_player!r}'s turn"
    if state.step not in MAIN_PHASES or state.stack:
        why = "the stack isn't empty" if state.step in MAIN_PHASES else \
            f"it is the {state.step.replace('_', ' ')} step, not a main phase"
        return f"now: {why}"
    return None


def _sorcery_timing(state: GameState, perm: Permanent, doing: str, rule: str) -> None:
    """A main phase of the owner's turn, with an empty stack."""
    why = sorcery_timing_problem(state, perm.owner)
    if why is not None:
        raise IllegalActionError(f"{doing}: {perm.owner!r} can't {doing} {perm.id!r} {why}",
                                 rule=rule, objects=(perm.id, perm.owner))


def cast(state: GameState, obj: str, step: str, *, flash: bool) -> tuple[GameState, list[Event]]:
    """Cast the permanent card ``obj`` from its owner's hand and resolve it:
    the card moves to the stack (601.2a), then, with no targets, becomes a
    permanent and enters the battlefield under its caster's control (608.3a),
    summoning sick (302.6). Two zone changes: it is object 3 when it has
    never moved before (400.7). Costs are the embedding's to pay (601.2f-h).

    :param flash: the card has flash (702.8a): cast any time its owner could
        cast an instant, else only in a main phase of their turn with an empty
        stack (:data:`CAST_TIMING`).
    :raises IllegalActionError: for a card not in a hand (601.2a), a land
        (305.1: it is played, not cast), a card of no permanent type (608.3),
        or the wrong time.
    """
    perm = _in_hand(state, obj, "cast")
    if "land" in perm.types:
        raise IllegalActionError(f"cast: {obj!r} is a land: a land is played, not cast "
                                 "(play)", rule="305.1", objects=(obj,))
    rules = [CAST_TIMING[t] for t in sorted(perm.types) if t in CAST_TIMING]
    if not rules:
        raise IllegalActionError(f"cast: {obj!r} is no permanent card "
                                 f"({', '.join(sorted(perm.types)) or 'no types'}): only a "
                                 "permanent spell becomes a permanent as it resolves",
                                 rule="608.3", objects=(obj,))
    if not flash:
        _sorcery_timing(state, perm, "cast", rules[0])
    events = [Event("cast", "601.2a", step, object=obj, player=perm.owner)]
    state, _moved = move_object(state, obj, "stack", "601.2a", step)
    state, entered = move_object(state, obj, "battlefield", "608.3a", step)
    return state, events + entered


#: The card types of a spell that resolves by following its instructions and
#: then goes to its owner's graveyard (608.2, 608.2n): it never becomes a
#: permanent (304.4, 307.4).
SPELL_TYPES: Final = frozenset({"instant", "sorcery"})

#: The steps in which no player gets priority, so no instant is cast (117.3a:
#: none in the untap step, 502.4; usually none in the cleanup step, 514.3).
NO_PRIORITY: Final = frozenset({"untap", "cleanup"})


def without_priority(state: GameState) -> bool:
    """Whether no player has priority in ``state``'s step, so that no spell
    is cast and no ability activated (117.3a): the untap step (502.4), and
    a cleanup step unless triggered abilities wait on the stack (514.3,
    514.3a: then the active player gets priority)."""
    return state.step in NO_PRIORITY and not (state.step == "cleanup" and state.stack)


def cast_spell(state: GameState, obj: str, step: str, *,
               flash: bool) -> tuple[GameState, list[Event]]:
    """Cast the instant or sorcery card ``obj`` from its owner's hand: it
    moves to the stack (601.2a), where it is until it has resolved
    (:func:`spell_resolved`). An instant (or a sorcery with flash, 702.8a) is
    cast any time its owner has priority (117.1a, 304.1), so not in the untap
    or cleanup step (:data:`NO_PRIORITY`); a sorcery only in a main phase of
    its owner's turn with an empty stack (307.1).

    :raises IllegalActionError: for a card not in a hand (601.2a) or the
        wrong time.
    """
    perm = _in_hand(state, obj, "cast")
    if "instant" not in perm.types and not flash:
        _sorcery_timing(state, perm, "cast", "307.1")
    elif without_priority(state):
        raise IllegalActionError(f"cast: {perm.owner!r} can't cast {obj!r} in the "
                                 f"{state.step} step: no player gets priority then",
                                 rule="117.3a", objects=(obj, perm.owner))
    events = [Event("cast", "601.2a", step, object=obj, player=perm.owner)]
    state, _moved = move_object(state, obj, "stack", "601.2a", step)
    return state, events


def spell_resolved(state: GameState, obj: str, step: str) -> tuple[GameState, list[Event]]:
    """The final part of an instant or sorcery spell's resolution: it is put
    into its owner's graveyard (608.2n), unless it already left the stack as
    it resolved (608.2m).

    :returns: the new state and the events.
    """
    if state.objects[obj].zone != "stack":
        return state, []
    return move_object(state, obj, "graveyard", "608.2n", step)


def play_land(state: GameState, obj: str, step: str) -> tuple[GameState, list[Event]]:
    """Play the land card ``obj`` from its owner's hand (305.1: a special
    action; it doesn't use the stack): it enters the battlefield under its
    owner's control. Only in a main phase of the owner's turn with an empty
    stack, and once a turn (305.2).

    :raises IllegalActionError: for a card not in a hand or not a land
        (305.1), the wrong time (305.1), or a second land this turn (305.2).
    """
    perm = _in_hand(state, obj, "play")
    if "land" not in perm.types:
        raise IllegalActionError(f"play: {obj!r} isn't a land", rule="305.1",
                                 objects=(obj,))
    _sorcery_timing(state, perm, "play", "305.1")
    player = state.players[perm.owner]
    if player.lands_played >= 1:
        raise IllegalActionError(f"play: {perm.owner!r} has already played a land this "
                                 "turn", rule="305.2", objects=(obj, perm.owner))
    state = state.with_players(
        {player.id: player.evolve(lands_played=player.lands_played + 1)})
    state, entered = move_object(state, obj, "battlefield", "305.1", step)
    return state, [Event("play_land", "305.1", step, object=obj, player=perm.owner), *entered]


__all__ = ["CAST_TIMING", "ENTERS_UNDER_OWNER", "LEFT_WITH_OWNER", "MAIN_PHASES", "NO_PRIORITY",
           "POSITIONS", "SPELL_TYPES", "cast", "cast_spell", "draw", "has_left",
           "leave_the_game", "move_object", "play_land", "sorcery_timing_problem",
           "spell_resolved", "without_priority"]
