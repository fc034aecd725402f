"""The one loop that calls plugin implementations, and the exception triage.

Every place plugin code runs as an answer to the kernel (a hook's
implementations, a result replacement's ``replace``) goes through the loop
:meth:`Calls.loop` builds: each implementation is called in order, a lazy
answer is consumed inside the guard, and whatever it raises is triaged once
(:meth:`Calls.triage`). What an engine adds to a call (verify mode, a time
limit) wraps that loop when the engine is built, as pluggy's
``add_hookcall_monitoring`` wraps its hook call: the loop itself never tests a
flag.
"""

from __future__ import annotations

import re
import threading
import time
import types
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeVar

import pluggy

from redzone.kernel import hookspecs
from redzone.kernel._loading import PluginInfo
from redzone.kernel.answers import shown
from redzone.kernel.errors import BoundError, IllegalActionError, PluginError
from redzone.kernel.model import GameState
from redzone.kernel.slots import declares_slot, owned

_E = TypeVar("_E", bound=PluginError)
F = TypeVar("F", bound=Callable[..., Any])
_T = TypeVar("_T")

#: Hooks whose implementations may raise :class:`IllegalActionError` to reject
#: choices an embedding engine supplied (a trigger's ``choices``); the error
#: reaches the caller unchanged instead of becoming a :class:`PluginError`.
_MAY_REJECT: Final = frozenset({"redzone_resolve_trigger"})

#: Answer types that are never lazy iterators (no ABC check needed).
_PLAIN: Final = frozenset({list, tuple, bool, int, set, frozenset, dict})

#: The :class:`PluginError`\ s the kernel made (each names the plugin at
#: fault): one raised through a nested call (an action performed inside
#: another plugin's action) passes on as it is.
_TRIAGED: weakref.WeakSet[PluginError] = weakref.WeakSet()


class _Importing(threading.local):
    """The seconds this thread has spent importing plugins as an engine
    first needed them (:meth:`redzone.kernel._lazy.Pending.load` adds them),
    which a time limit on hook calls doesn't count."""

    seconds = 0.0


IMPORTING: Final = _Importing()


class Impl:
    """One implementation the loop calls.

    :param fn: the plugin's function.
    :param picks: the positions of the hook's arguments it takes, in its
        order (``None``: all of them, in the hook's order).
    :param plugin: the plugin it belongs to.
    :param doing: what it does, as the start of a fault's message
        (``"replacement 'x' "``; empty for a hook implementation).
    """

    __slots__ = ("doing", "fn", "gate", "object_gate", "picks", "plugin", "state_gate")

    def __init__(self, fn: Callable[..., Any], picks: tuple[int, ...] | None,
                 plugin: PluginInfo, doing: str = "") -> None:
        self.fn = fn
        self.picks = picks
        self.plugin = plugin
        self.doing = doing
        #: The keywords one of which must be present for it to be asked
        #: (``None``: no keyword gate); see :mod:`redzone.kernel._gates`.
        self.gate: frozenset[str] | None = None
        #: Bits of the gated state fields: asked only when one is set.
        self.state_gate = 0
        #: For a hook about objects, the keywords one of which an object
        #: asked about must have for it to be asked (``None``: no object
        #: gate); see :mod:`redzone.kernel._gates`.
        self.object_gate: frozenset[str] | None = None


def mark(fn: F, marker: str, decorator: str) -> F:
    """Set ``marker`` on the hook implementation ``fn`` (a function, or a
    method: its function), for ``@decorator``.

    :returns: ``fn`` itself.
    :raises TypeError: for anything but a function or a method."""
    target = fn.__func__ if isinstance(fn, types.MethodType) else fn
    if not isinstance(target, types.FunctionType):
        raise TypeError(f"@{decorator} marks a hook implementation (a function), not {shown(fn)}")
    setattr(target, marker, True)
    return fn


def marked(fn: object, marker: str) -> bool:
    """Whether the implementation ``fn`` (a function, a bound method, or the
    kernel's wrapper of either: a slot's owner, a stand-in's replacement)
    carries ``marker`` (an attribute set to ``True`` by a decorator such as
    :func:`~redzone.dynamic`), read without running plugin code."""
    for _ in range(4):
        if isinstance(fn, types.MethodType):
            fn = fn.__func__
        if not isinstance(fn, types.FunctionType):
            return False
        if fn.__dict__.get(marker) is True:
            return True
        fn = fn.__dict__.get("__wrapped__")
    return False


#: The call loop's signature: ``(hook, implementations, arguments)`` ->
#: ``(implementation, answer)`` for each answer that isn't ``None``.
Loop = Callable[[str, tuple[Impl, ...], tuple[Any, ...]], list[tuple[Impl, Any]]]


def state_of(args: tuple[Any, ...]) -> GameState | None:
    """The state a call was given (its first argument), if any."""
    return args[0] if args and isinstance(args[0], GameState) else None


class Calls:
    """The loop and the triage of one engine's plugins.

    :param infos: the registered plugins, by name.
    """

    def __init__(self, infos: Mapping[str, PluginInfo]) -> None:
        self._infos = dict(infos)

    def info(self, plugin: str) -> PluginInfo:
        """The registered plugin named ``plugin`` (a bare record for a name
        that isn't registered)."""
        return self._infos.get(plugin) or PluginInfo(plugin, None)

    def loop(self) -> Loop:
        """The one call loop: each implementation in order, its answer
        (a lazy iterable consumed inside the guard) kept when it isn't
        ``None``. One ``try`` around the loop costs nothing until something
        raises; then :meth:`triage` says what the caller sees."""
        triage = self.triage

        def answers(hook: str, impls: tuple[Impl, ...],
                    args: tuple[Any, ...]) -> list[tuple[Impl, Any]]:
            out: list[tuple[Impl, Any]] = []
            impl = None
            try:
                for impl in impls:
                    picks = impl.picks
                    res = impl.fn(*args) if picks is None else impl.fn(*[args[i] for i in picks])
                    if res is None:
                        continue
                    if type(res) not in _PLAIN and not isinstance(res, (str, bytes)) \
                            and isinstance(res, Iterable):
                        res = tuple(res)  # a lazy iterable runs (and may raise) here
                    out.append((impl, res))
            except BaseException as exc:
                assert impl is not None
                err = triage(impl.plugin, hook, state_of(args), exc, doing=impl.doing)
                if err is exc:
                    raise
                raise err from exc
            return out

        return answers

    def timed(self, inner: Loop, limit: float) -> Loop:
        """``inner`` with a time limit on each implementation's call: one
        that takes over ``limit`` seconds fails the command, naming it."""

        def answers(hook: str, impls: tuple[Impl, ...],
                    args: tuple[Any, ...]) -> list[tuple[Impl, Any]]:
            out: list[tuple[Impl, Any]] = []
            for impl in impls:
                started, imports = time.perf_counter(), IMPORTING.seconds
                out += inner(hook, (impl,), args)
                # (the import of a plugin on its first call is not its answer's time)
                elapsed = time.perf_counter() - started - (IMPORTING.seconds - imports)
                if elapsed > limit:
                    raise self.fail(impl, hook, state_of(args), None,
                                    f"{impl.doing}took {elapsed:.3f} s, over the engine's "
                                    f"limit of {limit:g} s for one hook call,")
            return out

        return answers

    def fail(self, impl: Impl | PluginInfo, hook: str, state: GameState | None,
             exc: BaseException | None, problem: str) -> PluginError:
        """The :class:`PluginError` for ``problem`` of ``impl``'s plugin in
        ``hook``: it names the plugin, its distribution, the hook, its rules
        and the step (``exc``, its cause, is the caller's to chain)."""
        info = impl.plugin if isinstance(impl, Impl) else impl
        dist = f"{info.distribution} {info.version}".strip() or "unknown distribution"
        step = state.step if state is not None else "loading"
        rules = ""
        doc = getattr(hookspecs, hook).__doc__ or ""
        m = re.search(r"Rules:\s*(.+)", doc)
        if m:
            rules = f" (rules {m.group(1).strip()})"
        err = PluginError(
            f"plugin {info.name!r} ({dist}) {problem} in hook {hook}{rules} during step "
            f"{step!r}",
            plugin=info.name,
            distribution=info.distribution,
            hook=hook,
        )
        _TRIAGED.add(err)
        return err

    def bound_fail(self, impl: Impl, hook: str, state: GameState | None, bound: str,
                   limit: int, problem: str) -> BoundError:
        """:meth:`fail` for a run-time bound reached: a :class:`BoundError`
        naming the plugin, the hook and the bound."""
        err = self.fail(impl, hook, state, None, problem)
        return vouch(BoundError(str(err), bound=bound, limit=limit, plugin=err.plugin,
                                distribution=err.distribution, hook=err.hook))

    def checking(self, impl: Impl, hook: str, state: GameState | None,
                 check: Callable[[], _T]) -> _T:
        """``check()``, the check or use of ``impl``'s answer, inside the
        call's triage: whatever it raises that isn't already a triaged
        :class:`PluginError` (a value's dunder method raising ``SystemExit``)
        is ``impl``'s plugin's :class:`PluginError`."""
        try:
            return check()
        except BaseException as exc:
            err = self.contained(impl, hook, state, exc)
            if err is exc:
                raise
            raise err from exc

    def contained(self, impl: Impl, hook: str, state: GameState | None,
                  exc: BaseException) -> BaseException:
        """What ``exc``, raised by the check or use of ``impl``'s answer,
        becomes (the triage of :meth:`checking`, for a caller with its own
        ``try``): itself when it is a triaged :class:`PluginError` already,
        else ``impl``'s plugin's :class:`PluginError`."""
        if triaged(exc):
            return exc
        return self.triage(impl.plugin, hook, state, exc,
                           doing=f"{impl.doing}answered a value whose check ")

    def triage(self, plugin: PluginInfo | str, hook: str, state: GameState | None,
               exc: BaseException, *, doing: str = "") -> BaseException:
        """What an exception raised by plugin code becomes: the one triage
        of every place plugin code runs (the call loop, action kinds, the
        actions of answers).

        ``KeyboardInterrupt`` is returned as it is (CPython raises a user's
        Ctrl-C in whatever frame is running, so it can't be told from a
        plugin raising it itself: both stop the command and reach the
        caller); so is an :class:`IllegalActionError` from a hook that may
        reject the embedding engine's choices (``redzone_resolve_trigger``).
        So is a :class:`PluginError` the kernel made (:func:`triaged`) as the
        plugin asked a hook itself (:func:`~redzone.kernel.plugins.target_violations`):
        it names the plugin that failed there. Everything else
        (``SystemExit``, ``GeneratorExit``, ``RecursionError``, a
        :class:`PluginError` a plugin made, naming another plugin) becomes a
        :class:`PluginError` naming ``plugin``: a plugin can't blame another
        one.

        :param doing: what the plugin code was doing, as the message's
            start (``"replacement 'x' "``).
        :returns: the exception the caller raises (from ``exc`` when it is
            new).
        """
        if isinstance(exc, KeyboardInterrupt) or triaged(exc):
            return exc  # (a triaged error of a hook the plugin asked names its culprit)
        if isinstance(exc, IllegalActionError) and hook in _MAY_REJECT:
            return exc  # the embedding engine's choices were illegal: nothing changes
        what = type(exc).__name__
        if isinstance(exc, PluginError) and exc.plugin:
            what = f"PluginError (naming plugin {exc.plugin!r})"
        info = plugin if isinstance(plugin, PluginInfo) else self.info(plugin)
        return self.fail(info, hook, state, exc, f"{doing}raised {what}: {exc}")


def vouch(err: _E) -> _E:
    """Mark ``err`` as triaged: it passes through the calls it is raised in
    as it is.

    :returns: ``err``.
    """
    _TRIAGED.add(err)
    return err


def triaged(exc: BaseException) -> bool:
    """Whether ``exc`` is a :class:`PluginError` the kernel made (and so
    names the plugin at fault)."""
    return isinstance(exc, PluginError) and exc in _TRIAGED


def implementations(pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo]
                    ) -> dict[str, tuple[Impl, ...]]:
    """Each hook's implementations, sorted by plugin name, each with the
    positions of the hook's arguments it takes (asked once per engine: the
    plugin set never changes after construction). The implementations of a
    plugin that declares a :class:`~redzone.Slot` run as its code (the
    handle resolves to its registered name)."""
    found: dict[str, tuple[Impl, ...]] = {}
    slotted: dict[str, bool] = {}
    for hook in sorted(n for n in dir(hookspecs) if n.startswith("redzone_")):
        caller = getattr(pm.hook, hook)
        assert caller.spec is not None
        spec_args = tuple(caller.spec.argnames)
        impls: list[Impl] = []
        for impl in caller.get_hookimpls():
            info = infos.get(impl.plugin_name) or PluginInfo(impl.plugin_name, impl.plugin)
            args = tuple(impl.argnames)
            picks = None if args == spec_args else tuple(spec_args.index(a) for a in args)
            fn = impl.function
            if slotted.setdefault(info.name, declares_slot(impl.plugin)):
                fn = owned(fn, info.name)
            impls.append(Impl(fn, picks, info))
        found[hook] = tuple(sorted(impls, key=lambda i: i.plugin.name))
    return found
