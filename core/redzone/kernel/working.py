"""A command's working copy of the state: private mutable maps over a frozen
state, frozen once when someone must see the state.

A :class:`~redzone.kernel.tx.Tx` (a :class:`WorkingCopy`) keeps what its
command changed in plain dicts: the permanents changed or created, the
players changed, the last known information added, the creatures that
entered attacking, and the other fields of the state given new values. The
kernel reads through them (the change first, then the frozen state under
it); a new frozen :class:`~redzone.kernel.model.GameState` is made from them
only when the state is read whole (``tx.state``: a plugin is handed it, or
the command commits), in one copy of the state and one of each map changed.
Reading it again before the next change costs nothing.

While a mark is held (one is taken before each action), every write is
logged with the value it replaced, so a mark is a few references and a
length, and undoing to it restores the maps exactly (733: an illegal action
changes nothing); freezing hands the maps over and starts new ones, so marks
taken before a freeze stay exact too. Outside actions (a step's own work,
settling) nothing is undone, and nothing is logged. The frozen states made
are never changed afterwards: a plugin that kept one sees the moment it was
given, and the state a command was given is never touched.

The step, the combat count and the turn are never left pending: they
change by assigning ``tx.state`` (events are labelled with them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, overload

from redzone.kernel.model import Combat, GameState, Permanent, Player

#: What the log records for a key a map didn't hold.
_ABSENT: Final[Any] = object()
#: The map a working copy reads while it has no changes of that kind: one
#: empty dict shared by every working copy, never written (each writer
#: makes a map of its own first), so that a command that changes nothing,
#: or a freeze, makes no dict.
_NONE: Final[dict[str, Any]] = {}

#: A mark (:meth:`WorkingCopy._mark`): the state then if it was frozen (else
#: ``None``), the frozen state under the changes, the maps, how many objects
#: were new, and the log's length.
Mark = tuple[Any, ...]


class Frozen:
    """A working copy's ``state``: the current state, frozen.

    While nothing is pending the frozen state is a plain attribute of the
    instance's own (this descriptor has no ``__set__``, so the instance's
    attribute shadows it), read and assigned at no cost; a change takes that
    attribute away, and the next read puts the changes into a new state (one
    copy of it and of each map changed), kept as that attribute until the
    next change. Assigning it drops what is pending."""

    @overload
    def __get__(self, work: None, cls: type[Any]) -> Frozen: ...

    @overload
    def __get__(self, work: WorkingCopy, cls: type[Any]) -> GameState: ...

    def __get__(self, work: WorkingCopy | None, cls: type[Any]) -> GameState | Frozen:
        if work is None:
            return self
        state = work._base
        objects, players, fields, lki = work._objects, work._players, work._fields, work._lki
        attacks = work._attacks
        if objects or players or fields or lki or attacks:
            if attacks:
                fields = dict(fields)
                combat = fields.get("combat", state.combat)
                assert combat is not None  # (one enters attacking only in a combat)
                defending = work._defending
                fields["combat"] = combat.evolve(
                    attacks=combat.attacks.merge(attacks),
                    declared=combat.declared.merge(attacks),
                    defending_players=combat.defending_players.merge(
                        {a: player for a, (player, _) in defending.items()}),
                    entered=combat.entered | {a for a, (_, new) in defending.items() if new})
            state = state.with_changes(objects, players, fields, work._left, lki)
            work._base = state
            # Handed over: a mark holding them keeps what they held (the log
            # restores them), and the next change makes maps of its own.
            work._objects = work._players = work._fields = work._lki = _NONE
            work._left = work._attacks = work._defending = _NONE
            work._added = 0
        work.__dict__["state"] = state
        return state


class WorkingCopy:
    """The changes of one command over a frozen state (the base of
    :class:`~redzone.kernel.tx.Tx`, whose ``__init__`` sets its ``state``,
    :attr:`_base` and :attr:`_log`: nothing changed).

    Its ``state`` (:class:`Frozen`), while in the instance's dict, is the
    current state, and nothing is pending whatever the maps hold (the state
    was assigned over them, or they were frozen into it)."""

    #: The frozen state the changes are over.
    _base: GameState
    #: While a mark is held: (map, key, the value it replaced or
    #: ``_ABSENT``), in order; ``None`` while none is.
    _log: list[tuple[dict[str, Any], str, Any]] | None = None
    #: How many marks are held.
    _marks = 0
    #: Permanents changed or created, by id (new ones in creation order).
    _objects: dict[str, Permanent]
    #: How many of them were created (:meth:`~redzone.kernel.tx.Tx.create`).
    _added: int
    #: Ids among :attr:`_objects` that only left the battlefield (400.7).
    _left: dict[str, bool]
    _players: dict[str, Player]
    #: Last known information added (608.2h).
    _lki: dict[str, Permanent]
    #: Other fields of the state given new values, by name.
    _fields: dict[str, Any]
    #: Creatures put onto the battlefield attacking (508.4): attacker ->
    #: what it attacks, and attacker -> its defending player and whether it
    #: entered attacking without being declared (``Combat.entered``).
    _attacks: dict[str, str]
    _defending: dict[str, tuple[str, bool]]
    # (Until a change of their kind, the maps are the shared empty one.)
    _objects = _players = _fields = _lki = _left = _attacks = _defending = _NONE
    _added = 0

    state = Frozen()

    # -- reading -----------------------------------------------------------------

    def _current(self) -> GameState:
        """The frozen state the changes are over (the current one when
        nothing is pending), not frozen for this: what never waits (the step,
        combat count, turn, teams) is read from it."""
        state: GameState | None = self.__dict__.get("state")
        return self._base if state is None else state

    def _now(self, obj: str) -> Permanent | None:
        """The object ``obj`` as it is now (in any zone), or ``None``."""
        state = self.__dict__.get("state")
        if state is not None:
            return state.objects._items.get(obj)  # type: ignore[no-any-return]
        perm = self._objects.get(obj)
        return perm if perm is not None else self._base.objects._items.get(obj)

    def _player_now(self, player: str) -> Player | None:
        """The player ``player`` as they are now, or ``None``."""
        state = self.__dict__.get("state")
        if state is not None:
            return state.players._items.get(player)  # type: ignore[no-any-return]
        found = self._players.get(player)
        return found if found is not None else self._base.players._items.get(player)

    def _field(self, name: str) -> Any:
        """The state's field ``name`` as it is now (not ``lki``, and not the
        combat of creatures entering attacking: read those frozen)."""
        state = self.__dict__.get("state")
        if state is not None:
            return getattr(state, name)
        fields = self._fields
        return fields[name] if name in fields else getattr(self._base, name)

    def _new_objects(self) -> int:
        """How many new objects wait to be frozen."""
        return 0 if "state" in self.__dict__ else self._added

    # -- writing -------------------------------------------------------------------

    def _open(self) -> None:
        """About to change a frozen state (each writer calls this only when
        it is held: ``"state"`` in the instance's dict): it becomes the one
        changed."""
        known = self.__dict__
        if "state" in known:
            self._base = known.pop("state")
        if self._objects or self._players or self._fields or self._lki or self._attacks:
            # (Assigned over what was pending: that is dropped; a mark holding
            # the maps keeps what they held, the log restores them.)
            self._objects = self._players = self._fields = self._lki = _NONE
            self._left = self._attacks = self._defending = _NONE
            self._added = 0

    def _put(self, changed: Mapping[str, Permanent], left: bool = False) -> None:
        """Replace (or add) permanents; ``left``: they only left the battlefield."""
        if not changed:
            return
        known = self.__dict__
        if "state" in known:  # (:meth:`_open`, inline: the writer called most)
            self._base = known.pop("state")
            if self._objects or self._players or self._fields or self._lki or self._attacks:
                self._open()
        objects = self._objects
        if objects is _NONE:
            objects = self._objects = {}
        self._write(objects, changed)
        moved = self._left
        log = self._log
        if left:
            if moved is _NONE:
                moved = self._left = {}
            self._write(moved, dict.fromkeys(changed, True))
        elif moved:
            for obj in changed:
                if obj in moved:
                    if log is not None:
                        log.append((moved, obj, True))
                    del moved[obj]

    def _write(self, target: dict[Any, Any], changes: Mapping[Any, Any]) -> None:
        """Bind ``changes`` in ``target``, one of the pending maps, logging
        each key's value before (or its absence) while an action runs, for
        :meth:`_undo`."""
        log = self._log
        if log is not None:
            log.extend([(target, key, target.get(key, _ABSENT)) for key in changes])
        target.update(changes)

    def _put_players(self, changed: Mapping[str, Player]) -> None:
        """Replace players."""
        if not changed:
            return
        if "state" in self.__dict__:
            self._open()
        players = self._players
        if players is _NONE:
            players = self._players = {}
        self._write(players, changed)

    def _set(self, **values: Any) -> None:
        """Give fields of the state new values (not ``objects``, ``players``
        or ``lki``, and never the step, combat count or turn)."""
        if "state" in self.__dict__:
            self._open()
        fields = self._fields
        if fields is _NONE:
            fields = self._fields = {}
        self._write(fields, values)

    def _leave(self, objects: Mapping[str, Permanent], lki: Mapping[str, Permanent],
               combat: Combat | None) -> None:
        """Cards left the battlefield (400.7): the new objects they became,
        their last known information (608.2h) and the combat they left."""
        self._put(objects, left=True)
        known, fields = self._lki, self._fields
        if known is _NONE:
            known = self._lki = {}
        self._write(known, lki)
        if combat is not fields.get("combat", self._base.combat):
            if fields is _NONE:
                fields = self._fields = {}
            self._write(fields, {"combat": combat})

    def _attack(self, attacker: str, attacked: str, defending: str,
                entered: bool = True) -> None:
        """A created creature attacks ``attacked`` (508.4); ``entered``: it
        wasn't declared (``Combat.entered``)."""
        if "state" in self.__dict__:
            self._open()
        attacks, defending_players = self._attacks, self._defending
        if attacks is _NONE:
            attacks = self._attacks = {}
            defending_players = self._defending = {}
        log = self._log
        if log is not None:
            log.append((attacks, attacker, attacks.get(attacker, _ABSENT)))
            log.append((defending_players, attacker, defending_players.get(attacker, _ABSENT)))
        attacks[attacker] = attacked
        defending_players[attacker] = (defending, entered)

    # -- undoing ---------------------------------------------------------------------

    def _mark(self) -> Mark:
        """Where :meth:`_undo` returns to (nothing is frozen for it); the
        mark is held until its action ends (``Tx.perform`` takes one off
        :attr:`_marks`, and drops the log when none is held)."""
        log = self._log
        if log is None:
            log = self._log = []
        self._marks += 1
        return (self.__dict__.get("state"), self._base, self._objects, self._players,
                self._fields, self._lki, self._left, self._attacks, self._defending,
                self._added, len(log))

    def _undo(self, mark: Mark) -> None:
        """Return to ``mark`` exactly: the maps it holds get back what they
        held, by the log."""
        state, self._base, self._objects, self._players, self._fields, self._lki, \
            self._left, self._attacks, self._defending, self._added, size = mark
        log = self._log
        assert log is not None  # (the mark is held)
        while len(log) > size:
            items, key, old = log.pop()
            if old is _ABSENT:
                del items[key]
            else:
                items[key] = old
        if state is None:
            self.__dict__.pop("state", None)
        else:
            self.__dict__["state"] = state


__all__ = ["Frozen", "Mark", "WorkingCopy"]
