"""Positions of the game, for loops of mandatory actions (104.4b).

104.4b: "If a game that's not using the limited range of influence option
(including a two-player game) somehow enters a "loop" of mandatory actions,
repeating a sequence of events with no way to stop, the game is a draw.
Loops that contain an optional action don't result in a draw."

While a command resolves the triggered abilities it puts on the stack
(``auto_triggers``), :func:`~redzone.kernel.settle.resolve_stack` counts
them; past :data:`LOOP_AFTER` it asks :class:`Positions` before each further
one whether the game is back at a position it was at, with no choice made
since (one asked, answered or taken by default is an optional action). A
command that resolves fewer (every combat of the race boards and keyword
boards) never gets here: nothing is noted and nothing is computed.

A position (:func:`position`) is the state as its serialised form writes it
(:func:`redzone.formats.serialize.state_to_dict`: every attrs field, by
name, maps in their order, sets sorted), less what changes in a loop
without changing the game:

- object numbers (400.7): each object's numbers (its own, its last known
  information's, those noted by the abilities, effects and conditions about
  it) become their rank among that object's
  numbers, newest first: which are the same object and which a newer one
  is kept, how many zone changes ago is not;
- timestamps (613.7) become their rank: their order is kept;
- a card's position in its zone becomes its rank among its owner's cards
  there (401.1, 404.1: the order is kept);
- the ids the kernel numbers (triggers on the stack or held, effects,
  shields, continuous effects, delayed and written triggers) become their
  kind and place, everywhere they appear; an id of a token's form,
  ``<source>.<keyword>.<n>`` (111.1), becomes its prefix and its rank
  among those written, newest first (a token that is made and dies each
  time around a loop has a new id each time: only its number differs);
- the counts behind those ids (``triggered``, ``created``, ``timestamp``,
  ``token_numbers``), and the tokens that ceased to exist (704.5d) with
  their last known information: they are in no zone of the game;
- the events: a position is a state; the log isn't part of it.

Everything else is kept: each player's life, poison and counters, each
object's zone, controller, characteristics, counters, damage and tapped
state, attachments, the stack's abilities (kind, source, targets, choices,
actions), continuous effects, shields, delayed and written triggers, the
combat, the plugins' own state. A position is kept as a digest of that form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import (
    Combat,
    Condition,
    ContinuousEffect,
    DelayedTrigger,
    GameState,
    Layered,
    Modification,
    Permanent,
    Trigger,
    WrittenTrigger,
)

#: How many triggered abilities one command resolves before its positions
#: are noted (104.4b): the longest chain a combat of the race or keyword
#: boards makes is far shorter, so normal play never pays for a position.
LOOP_AFTER: Final = 64

#: How many times a position is digested whose cheap key (:func:`key`) came
#: before; past that, only when the times it came before are a power of two.
DIGESTS: Final = 16

#: The state's counts of what the kernel numbered: they only grow, loop or not.
_COUNTS: Final = frozenset({"triggered", "created", "timestamp", "token_numbers"})

#: What :attr:`Positions.heights` holds for a height not met yet.
_NEW: Final[Any] = object()

# (Structure marks of the flat form: never equal to a value, which is a
# string, a number, a boolean or None; a renamed id is a tuple too.)
_OPEN: Final = ("(",)
_MAP: Final = ("{",)
_SET: Final = ("<",)
_CLOSE: Final = (")",)


class Positions:
    """The positions one command's resolutions went through (104.4b).

    A position can come back only at the height of the stack it had (the
    cheap key below holds it), so the first position at each height is kept
    as it is, a reference to a frozen state, and nothing of it is computed
    until the stack is at that height again: a chain of abilities that
    only empties the stack (a hundred attack triggers, each resolving to
    nothing that triggers) costs nothing per resolution. From the second
    position at a height on, the hash of a cheap key of what the digest
    keeps as it is (:func:`key`) is noted for every position there; a
    position is digested only when its key came before, so a stack that
    grows, a life total or a counter that keeps changing never costs a
    digest, and a loop is found on its third pass through a position. A
    key that comes back again and again with a new position each time
    (what changes is only in the digest: an ability's text, a plugin's own
    state) is digested :data:`DIGESTS` times, then only when the times it
    came before are 32, 64, 128 ...: a runaway costs a few digests, never
    one per resolution (a loop that starts only then is found later, or the
    trigger bound stops it).

    .. versionadded:: 0.1.0
    """

    __slots__ = ("heights", "keys", "seen")

    def __init__(self) -> None:
        #: By the stack's height: the first position at it, while it is the
        #: only one (``None`` once another came and its key was noted).
        self.heights: dict[int, GameState | None] = {}
        #: How many times each cheap key came, by its hash.
        self.keys: dict[int, int] = {}
        #: Each digested position: how many choices the command had made there.
        self.seen: dict[bytes, int] = {}

    def repeated(self, state: GameState, choices: int) -> bool:
        """Whether ``state`` is a position the command was at before, with no
        choice made since (a loop of mandatory actions, 104.4b); it is noted.

        :param state: the state before the next resolution.
        :param choices: how many choices the command has made so far
            (asked, answered or taken by default).
        """
        height = len(state.stack)
        first = self.heights.get(height, _NEW)
        if first is _NEW:
            self.heights[height] = state  # nothing at this height to be back at yet
            return False
        if first is not None:
            # The stack is back at this height: the first position at it is
            # noted now as it would have been then (its key new, no digest).
            self.heights[height] = None
            earlier = hash(key(first))
            self.keys[earlier] = self.keys.get(earlier, 0) + 1
        cheap = hash(key(state))
        met = self.keys.get(cheap, 0)
        self.keys[cheap] = met + 1
        if not met or (met > DIGESTS and met & (met - 1)):
            return False
        digest = position(state)
        before = self.seen.get(digest)
        self.seen[digest] = choices
        return before == choices


def key(state: GameState) -> tuple[Any, ...]:
    """A cheap key of ``state``, made of what :func:`position` keeps as it
    is (so the same position always has the same key): the stack's height
    and the kind and controller of the ability on top, the players' life,
    poison and whether they lost, how many effects, shields, continuous
    effects and delayed triggers there are, and each object's zone,
    controller, counters, damage, tapped state and number of
    modifications, in order (the tokens that ceased to exist left out)."""
    stack = state.stack
    top = stack[-1] if stack else None
    # (lists, not generators: one call each, not one per item)
    players = [(p.life, p.poison, p.lost) for p in state.players._items.values()]
    objects = [(p.zone, p.controller, tuple(p.counters._items.items()), p.damage, p.tapped,
                len(p.modifications))
               for p in state.objects._items.values() if p.zone != "ceased"]
    return (len(stack), top.kind if top else "", top.controller if top else "",
            tuple(players), len(state.effects), len(state.shields), len(state.continuous),
            len(state.delayed), tuple(objects))


def position(state: GameState) -> bytes:
    """The digest of what decides the game in ``state`` (see the module's
    docstring: what changes in a loop without changing the game is left
    out); two states with the same digest are the same position.

    Rules: 104.4b, 400.7, 613.7a.
    """
    import hashlib  # (here: a command that never loops doesn't pay for OpenSSL's import)

    return hashlib.blake2b(repr(_Canon(state).flat()).encode(), digest_size=32).digest()


class _Canon:
    """The flat canonical form of one state (a list of values and marks)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.out: list[Any] = []
        #: ``(index in out, object, number)`` of each object number written.
        self.numbers: list[tuple[int, str, int]] = []
        #: ``(index in out, timestamp)`` of each timestamp written.
        self.stamps: list[tuple[int, int]] = []
        objects = state.objects._items
        self.ceased = frozenset(k for k, p in objects.items() if p.zone == "ceased")
        self.rename = _renamed(state)
        self.places = _places(state)

    def flat(self) -> tuple[Any, ...]:
        """The form: the state written, then numbers and timestamps ranked."""
        self.value(self.state)
        out = self.out
        mine: dict[str, set[int]] = {}
        for _at, obj, n in self.numbers:
            mine.setdefault(obj, set()).add(n)
        ranks = {obj: {n: i for i, n in enumerate(sorted(ns, reverse=True))}
                 for obj, ns in mine.items()}
        for at, obj, n in self.numbers:
            out[at] = ("#object", ranks[obj][n])
        order = {n: i for i, n in enumerate(sorted({n for _at, n in self.stamps}))}
        for at, n in self.stamps:
            out[at] = ("#timestamp", order[n])
        self.tokens()
        return tuple(out)

    def tokens(self) -> None:
        """Each id of a token's form, ``<source>.<keyword>.<n>`` (111.1:
        :func:`~redzone.kernel.tokens.token_ids`), of an object there is or
        is to be (an action's on the stack), as its prefix and its rank
        among those of that prefix written, newest first."""
        state = self.state
        heads = state.objects._items.keys() | state.players._items.keys() \
            | state.sources._items.keys()
        out = self.out
        found: dict[str, list[tuple[int, int]]] = {}
        for at, value in enumerate(out):
            if type(value) is str and "." in value:
                prefix, _dot, digits = value.rpartition(".")
                if digits.isdigit() and digits.isascii() \
                        and prefix.rpartition(".")[0] in heads:
                    found.setdefault(prefix, []).append((int(digits), at))
        for prefix, numbers in found.items():
            rank = {n: i for i, n in enumerate(sorted({n for n, _at in numbers}, reverse=True))}
            for n, at in numbers:
                out[at] = ("#token", prefix, rank[n])

    # -- writing ----------------------------------------------------------------------

    def number(self, obj: str | None, n: int | None) -> None:
        """An object number of ``obj`` (ranked once all are known)."""
        if obj is None or n is None:
            self.out.append(n)
            return
        self.numbers.append((len(self.out), obj, n))
        self.out.append(None)

    def stamp(self, n: int) -> None:
        """A timestamp (ranked once all are known)."""
        self.stamps.append((len(self.out), n))
        self.out.append(None)

    def value(self, value: Any) -> None:
        out = self.out
        kind = type(value)
        if kind is str:
            out.append(self.rename.get(value, value))
        elif value is None or kind in (int, bool, float):
            out.append(value)
        elif kind is tuple or kind is list:
            out.append(_OPEN)
            for item in value:
                self.value(item)
            out.append(_CLOSE)
        elif kind is FrozenMap or isinstance(value, Mapping):
            out.append(_MAP)
            for k, v in value.items():
                self.value(k)
                self.value(v)
            out.append(_CLOSE)
        elif kind is frozenset or kind is set:
            # (the state's sets hold ids and names: sorted once renamed)
            rename = self.rename
            out.append(_SET)
            out.extend(sorted((rename.get(item, item) if type(item) is str
                               else ("?", type(item).__name__, repr(item)) for item in value),
                              key=repr))
            out.append(_CLOSE)
        elif attrs.has(kind):
            self.instance(value)
        else:  # (no such value in a state: written by its type and repr)
            out.append(("?", kind.__name__, repr(value)))

    def instance(self, value: Any) -> None:
        """An attrs instance: its class, then its fields in order, the
        volatile ones written as ranks (or left out)."""
        kind = type(value)
        out = self.out
        out.append(("#class", kind.__module__, kind.__qualname__))
        if kind is GameState:
            self.game(value)
            return
        for name in _names(kind):
            field = getattr(value, name)
            if kind is Permanent and name == "object":
                self.number(value.id, field)
            elif kind is Permanent and name == "position":
                out.append(self.places.get((value.zone, value.owner, field), field))
            elif name == "timestamp" and kind in (Modification, ContinuousEffect):
                self.stamp(field)
            elif kind is ContinuousEffect and name == "numbers":
                out.append(_OPEN)
                for i, n in enumerate(field):
                    self.number(value.affects[i] if i < len(value.affects) else None, n)
                out.append(_CLOSE)
            elif kind is Layered and name == "slots":
                out.append(_OPEN)
                for stamp, before in field:
                    self.stamp(stamp)
                    out.append(before)
                out.append(_CLOSE)
            elif (name == "objects" and kind in (Trigger, DelayedTrigger)) \
                    or (kind is Combat and name == "on_stack_objects"):
                self.noted(field)
            elif kind is Condition and name == "number":
                self.number(value.object, field)
            elif kind is WrittenTrigger and name == "object":
                self.number(value.source, field)
            else:
                self.value(field)

    def noted(self, numbers: Mapping[str, int]) -> None:
        """A map of objects to the numbers noted for them."""
        out = self.out
        out.append(_MAP)
        for obj, n in numbers.items():
            self.value(obj)
            self.number(obj, n)
        out.append(_CLOSE)

    def game(self, state: GameState) -> None:
        """The state's fields, without the counts and the ceased objects."""
        ceased = self.ceased
        for name in _names(GameState):
            if name in _COUNTS:
                continue
            field = getattr(state, name)
            if name in ("objects", "lki") and ceased:
                field = {k: v for k, v in field.items() if k not in ceased}
            self.value(field)


def _names(kind: type) -> tuple[str, ...]:
    """The names of an attrs class's fields, in order."""
    found = _NAMES.get(kind)
    if found is None:
        found = _NAMES[kind] = tuple(f.name for f in attrs.fields(kind))
    return found


_NAMES: dict[type, tuple[str, ...]] = {}


def _renamed(state: GameState) -> dict[str, tuple[Any, ...]]:
    """The ids the kernel numbered, each as its kind and place: triggers on
    the stack and held, effects, shields, continuous effects, delayed and
    written triggers."""
    out: dict[str, tuple[Any, ...]] = {}
    numbered: tuple[tuple[str, tuple[Any, ...]], ...] = (
        ("stack", state.stack), ("held", state.held), ("effect", state.effects),
        ("shield", state.shields), ("continuous", state.continuous),
        ("delayed", state.delayed), ("written", state.written))
    for kind, items in numbered:
        for i, item in enumerate(items):
            if item.id:
                out.setdefault(item.id, ("#" + kind, i))
    return out


def _places(state: GameState) -> dict[tuple[str, str, int], tuple[str, int]]:
    """Each position an owner's cards have in a zone, as its rank there."""
    found: dict[tuple[str, str], set[int]] = {}
    for perms in (state.objects._items.values(), state.lki._items.values()):
        for perm in perms:
            found.setdefault((perm.zone, perm.owner), set()).add(perm.position)
    return {(zone, owner, p): ("#position", i) for (zone, owner), ps in found.items()
            for i, p in enumerate(sorted(ps))}


__all__ = ["DIGESTS", "LOOP_AFTER", "Positions", "key", "position"]
