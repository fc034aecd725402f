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
any other zone, putting a card onto the battlefield among them, and drawing.
"""

from __future__ import annotations

from typing import Final

from redzone.kernel import sba as _sba
from redzone.kernel.events import Event
from redzone.kernel.frozen import evolve as _evolve
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
    turn began (302.6). A token that has left the battlefield stays where it
    is (111.8). Within one zone nothing changes but a library's order: the
    card is put on top or at the bottom and stays the same object.

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
    if source == "battlefield":
        if to == "battlefield":
            return state, []
        return _sba.move_to_zone(state, obj, to, rule, step, top=top)
    if source == to:
        if to != "library":
            return state, []
        place = _sba.next_position(state, perm.owner, to, top=top)
        return state.with_permanents({obj: _evolve(perm, position=place)}), []
    place = _sba.next_position(state, perm.owner, to, top=top)
    new: Permanent = _sba._left(perm, to, place)  # type: ignore[operator]
    events: list[Event] = []
    if to == "battlefield":
        new = _evolve(new, summoning_sick=True)  # 302.6
        events.append(Event("enters_battlefield", rule, step, object=obj, player=new.controller))
    else:
        events.append(Event.make("moved", rule, step, object=obj, zone=to, origin=source))
    objects = state.objects.set(obj, new)
    return state.with_objects_left(objects, (obj,)), events


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
        state = state.with_players({player: _evolve(who, drew_from_empty=True)})
        return state, [Event.make("draw_from_empty", "121.4", step, player=player)]
    top = library[0]
    state, _moved = move_object(state, top, "hand", "121.1", step)
    return state, [Event("draws", "121.1", step, player=player, object=top)]


__all__ = ["POSITIONS", "draw", "move_object"]
