"""Verify mode: the plugin that changed a state it was given is named.

Verify mode wraps the one call loop (:meth:`Verifier.wrap`) when an engine is
built with it on; the loop itself never asks whether it is.

Fingerprinting the whole state around every hook call costs the size of the
state times the number of calls, and so does fingerprinting each new state
whole: a state grows by a part at a time. Instead a state is its containers
(its fields, its maps and tuples) and its parts (each value in them), and
consecutive states share almost all their parts:

* a part is recorded once, when a state holding it is first given to a
  hook call (only new parts cost Python calls; finding them is done in C):
  every attrs instance and map inside it with its field values (a value
  shared with a part recorded before is walked once), and its fingerprint
  only when it holds what those values can't see change. A new version of
  a part (the value under the same key of a map, in the state watched
  before) that differs from the last only in ids and numbers reads its own
  fields alone: what is inside them is compared as the last recorded it;
* the containers of the state calls are made with are recorded as it is
  first given (field values by identity, a copy of each map's dict) and
  compared, in C, when the calls move on to another state, after each
  notification and ``redzone_triggers``, as a command returns its outcome and
  when the next one starts;
* the parts are compared with what was recorded, in C, as a command returns
  its outcome, and when the calls move on to another state and either the new
  parts since the last comparison outnumber the parts then kept or 32 states
  have been watched since, after each notification and when a command
  starts; then a part holding what recorded values can't see change (a list,
  a dict that isn't a map's, an object of a class that isn't attrs) is
  fingerprinted again too. Then the table is pruned to the watched state's
  parts: all linear in the work done;
* the arguments beside the state are recorded alike once per hook call
  (snapped whole when they hold such a value) and compared after each
  implementation; a hook call the gates left no implementation watches
  nothing.

A container that changed is named as before: the calls made with that state
are replayed, in order, on a pristine copy, and the first one that changes it
is named. A part that changed: the calls since the parts were last compared
that were given a state holding it, or another part whose records differ too
(versions of a part share what is inside them), are replayed on copies
holding pristine rebuilds of those, and the first one that changes a rebuild
is named.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

from redzone.kernel import fingerprint as _fp
from redzone.kernel._calling import Calls, Impl, Loop
from redzone.kernel.errors import PluginError
from redzone.kernel.model import GameState

#: Hooks after whose calls verify mode checks the state at once: the
#: notifications, and the question about triggers that ends a command's work.
_VERIFY_NOW: Final = frozenset({"redzone_triggers", "redzone_damage_event",
                                "redzone_end_of_combat"})

#: The kinds of argument nothing can change (ids, numbers: a tuple of them
#: is asked about with :func:`~redzone.kernel.fingerprint.plain_values`).
_PLAIN_KINDS: Final = frozenset({str, int, bool, float, type(None)})

#: States watched between two comparisons of the parts, at most.
_VERIFY_MOVES: Final = 32

#: A call verify mode recorded: the implementation, the hook and the arguments.
_Call = tuple[Impl, str, tuple[Any, ...]]
#: A hook call verify mode logged: its implementations, the hook and the arguments.
_Logged = tuple[tuple[Impl, ...], str, tuple[Any, ...]]


def _each(log: Sequence[_Logged]) -> list[_Call]:
    """The calls of ``log``, one per implementation, in order."""
    return [(impl, hook, args) for impls, hook, args in log for impl in impls]


class _VerifyState(threading.local):
    """Verify mode's watch, per thread: the state hook calls are being made
    with and its containers as they were; the parts fingerprinted; and the
    calls made since the parts were last compared."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.shallow: _fp.Shallow | None = None
        self.parts = _fp.Parts()
        #: Parts in the table when it was last compared and pruned.
        self.kept = 0
        #: States watched since then.
        self.moves = 0
        self.log: list[_Logged] = []
        #: Where the calls with the watched state start in :attr:`log`
        #: (since its containers were last compared).
        self.since = 0
        #: Whether plugin code may have run since the parts were last
        #: compared (a hook call, or plugin code outside one, was watched).
        self.ran = False
        #: What the arguments beside the state given lately recorded, by id.
        self.args: dict[int, tuple[Any, _fp.Record]] = {}
        #: The containers of the state watched last, once it no longer is
        #: (a command started), while its parts are the table's: the next
        #: state is watched against it as against the last
        #: (:meth:`~redzone.kernel.fingerprint.Parts.watch`), the containers
        #: it shares taken as they were compared last.
        self.before: _fp.Shallow | None = None

    def reset(self) -> None:
        """Stop watching and forget every part (a change was reported)."""
        self.state = None
        self.shallow = None
        self.parts = _fp.Parts()
        self.kept = self.moves = self.since = 0
        self.log = []
        self.ran = False
        self.args = {}
        self.before = None


class Verifier:
    """Verify mode of one engine (per thread: an engine may serve several
    threads at once, as the batch runner's thread pools do).

    :param calls: the engine's triage, to name a plugin.
    :param plain: the unwrapped call loop, which replays run on.
    """

    def __init__(self, calls: Calls, plain: Loop) -> None:
        self._calls = calls
        self._plain = plain
        self._vs = _VerifyState()

    def wrap(self, inner: Loop) -> Loop:
        """``inner`` with each implementation's arguments watched: the
        objects beside the state compared around each call, the state's
        calls recorded for a replay, and the state checked at once after
        the hooks of :data:`_VERIFY_NOW`."""
        vs = self._vs

        def answers(hook: str, impls: tuple[Impl, ...],
                    args: tuple[Any, ...]) -> list[tuple[Impl, Any]]:
            if not impls:  # no plugin code runs (the gates kept all out): nothing to watch
                if hook in _VERIFY_NOW:
                    self.pending(keep=True, deep=hook != "redzone_triggers")
                vs.ran = True  # the gates ask the ones they kept out next
                return []
            if args and isinstance(args[0], GameState):
                if args[0] is not vs.state:
                    self._move(args[0])
                rest = args[1:]
                log = vs.log
            else:
                rest = args
                log = None
            vs.ran = True  # (after the move: its comparison is of what ran before)
            if not rest or _PLAIN_KINDS.issuperset(map(type, rest)) or _fp.plain_values(rest):
                # Nothing beside the state to compare: one call of the loop
                # for them all (the replay of a change calls them one by one).
                if log is not None:
                    log.append((impls, hook, args))
                out = inner(hook, impls, args)
            else:
                out = self._one_by_one(inner, hook, impls, args, rest, log)
            if hook in _VERIFY_NOW:
                self.pending(keep=True, deep=hook != "redzone_triggers")
                vs.ran = True  # the gates ask the ones they kept out next
            return out

        return answers

    def fingerprint(self, args: Any) -> bytes | str:
        """Everything ``args`` hold, as bytes (states share parts, so this
        covers the caller's earlier snapshots too); ``pickle.loads`` of it
        is a pristine copy. Plugin code outside a hook call is about to run
        with them, or has run: the parts are compared next time."""
        self._vs.ran = True
        return _fp.fingerprint(args)

    def _one_by_one(self, inner: Loop, hook: str, impls: tuple[Impl, ...],
                    args: tuple[Any, ...], rest: tuple[Any, ...],
                    log: list[_Logged] | None) -> list[tuple[Impl, Any]]:
        """The calls of ``impls`` one at a time, ``rest`` (the arguments
        beside the state) compared after each: the values :func:`~redzone.
        kernel.fingerprint.record` read, in C, or (holding what those can't
        cover) a :func:`~redzone.kernel.fingerprint.snap` of them.

        :raises PluginError: naming the implementation that changed them.
        """
        rec = _fp.record_reusing(rest, self._vs.args)
        before = _fp.snap(rest) if rec is None else None
        out: list[tuple[Impl, Any]] = []
        for impl in impls:
            if log is not None:
                log.append(((impl,), hook, args))
            out += inner(hook, (impl,), args)
            if not (_fp.unchanged(rec) if rec is not None else _fp.snap(rest) == before):
                self._vs.reset()
                raise self._calls.fail(
                    impl, hook, args[0] if log is not None else None, None,
                    f"{impl.doing}changed the objects it was given (verify mode compares "
                    "them before and after each hook call)")
        return out

    def _move(self, state: GameState) -> None:
        """The calls move on to ``state``: compare the last one's containers,
        watch this one, and compare the parts when it is their turn."""
        vs = self._vs
        last = vs.shallow if vs.state is not None else None
        if last is not None:
            self._containers(last)
        vs.state = state
        vs.shallow = vs.parts.watch(state, last or vs.before)
        vs.before = None
        vs.since = len(vs.log)
        vs.moves += 1
        if vs.parts.new > vs.kept or vs.moves >= _VERIFY_MOVES:
            self.parts(deep=False)

    def _containers(self, shallow: _fp.Shallow) -> None:
        """Fail the plugin that changed the containers of the watched state.

        :raises PluginError: naming it.
        """
        vs = self._vs
        if not shallow.changed():
            vs.since = len(vs.log)
            return
        log = _each(vs.log[vs.since:])
        copy = vs.parts.rebuild(shallow)
        culprit = self._replay([(impl, hook, (copy, *args[1:]), copy)
                                for impl, hook, args in log])
        state = shallow.state
        vs.reset()
        self._blame(culprit, log, state)

    def parts(self, deep: bool) -> None:
        """Compare every part in the table with what it recorded (unless no
        plugin code ran since they were last compared: as a command starts
        right after the last one returned) and (``deep``) fingerprint again
        the parts holding what records can't see change; then keep only the
        watched state's.

        :raises PluginError: naming the plugin that changed one.
        """
        vs = self._vs
        if vs.state is None and not vs.parts.table:
            vs.log = []  # nothing watched, nothing recorded (the gates asked no plugin)
            vs.moves = vs.since = 0
            return
        if vs.shallow is not None and vs.state is not None:
            self._containers(vs.shallow)
        part = vs.parts.changed(deep, records=vs.ran)
        if part is not None:
            found = [part, *(p for p in vs.parts.differing() if p is not part)]
            rebuilt = [(p, vs.parts.pristine(p)) for p in found]
            replays = []
            log = []
            for impl, hook, args in _each(vs.log):
                copy, watched = args[0], []
                for was, now in rebuilt:
                    if now is not was and _fp.holds(copy, was):
                        copy = _fp.swap(copy, was, now)
                        watched.append(now)
                if copy is not args[0] or any(_fp.holds(args[0], p) for p in found):
                    log.append((impl, hook, args))
                if watched:
                    replays.append((impl, hook, (copy, *args[1:]), tuple(watched)))
            culprit = self._replay(replays)
            state = vs.state or (log[-1][2][0] if log else None)
            everyone = _each(vs.log)
            vs.reset()
            self._blame(culprit, log or everyone, state)
        vs.parts.prune(vs.shallow if vs.state is not None else None)
        if vs.state is None:
            vs.before = None  # its parts are no longer in the table
        vs.kept = len(vs.parts.table)
        vs.moves = 0
        vs.log = []
        vs.since = 0
        vs.ran = False

    def _blame(self, culprit: tuple[Impl, str] | None, log: Sequence[_Call],
               state: GameState | None) -> None:
        """Raise the error for a change verify mode found.

        :raises PluginError: naming the plugin found by replaying ``log``
            (``culprit``), or the plugins called.
        """
        if culprit is not None:
            impl, hook = culprit
            raise self._calls.fail(impl, hook, state, None,
                                   f"{impl.doing}changed the state it was given (verify mode "
                                   "found the change and replayed the hook calls on a "
                                   "pristine copy to find who made it)")
        names = sorted({entry[0].plugin.name for entry in log})
        step = state.step if state is not None else "?"
        raise PluginError(
            f"a plugin changed the state it was given during step {step!r} (verify mode "
            f"found the change; replaying the calls didn't repeat it): one of "
            f"{', '.join(map(repr, names)) or 'the plugins'}",
            plugin=names[0] if len(names) == 1 else "",
            hook=log[-1][1] if log else "")

    def _replay(self, calls: Sequence[tuple[Impl, str, tuple[Any, ...], Any]]
                ) -> tuple[Impl, str] | None:
        """The first of ``calls`` (each with what it is watched on: a
        pristine copy in its arguments) that changes what it is watched on;
        each is made by the plain loop."""
        for impl, hook, call, watched in calls:
            before = self.fingerprint(watched)
            if not isinstance(before, bytes):
                return None
            try:
                self._plain(hook, (impl,), call)
            except KeyboardInterrupt:
                raise  # a user's Ctrl-C (see triage)
            except BaseException:  # what it raises was reported already; only changes count
                pass
            if self.fingerprint(watched) != before:
                return impl, hook
        return None

    def unchanged(self, state: GameState, before: bytes | str,
                  error: Callable[[], PluginError]) -> None:
        """Raise ``error()`` when ``state`` no longer matches ``before`` (its
        :meth:`fingerprint` before plugin code outside the loop ran with it);
        then stop watching, so that the next command doesn't report it again."""
        if self.fingerprint(state) != before:
            self._vs.reset()
            raise error()

    def pending(self, keep: bool = False, deep: bool = True) -> None:
        """Compare the state hook calls were last made with to what was
        recorded of it: its containers, and (``deep``) every part
        fingerprinted since the parts were last compared.

        :param keep: keep watching it (more calls with it may follow).
        :param deep: fingerprint the parts again too.
        :raises PluginError: naming the plugin that changed it.
        """
        vs = self._vs
        if deep:
            self.parts(deep=True)
        elif vs.state is not None and vs.shallow is not None:
            self._containers(vs.shallow)
        if not keep:
            if vs.state is not None:
                vs.before = vs.shallow
            vs.state = None
            vs.shallow = None
