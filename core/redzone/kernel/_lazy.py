"""Plugins imported when an engine first needs them.

A plugin that discovery found and that its package's index declares
(:mod:`redzone.kernel.index`) is not imported when the engine is built. In its
place, each hook the index says it implements gets a stand-in implementation,
sorted by plugin name among the others exactly where the plugin's own would
be, and gated by the state's gates exactly as its own would be (they read
only the keywords it declares, which the index gives). Object gates, which
depend on whether an implementation is :func:`~redzone.whole_board` (known
only from its function), apply from its import on: until then the stand-in
is asked wherever the state's gates let it through, and its first call
imports the plugin. So the implementations asked, and their order, are
those of an engine that imported every plugin at once, but for those first
calls, which a plugin whose object gates are right answers with nothing:
the lazy import changes when a plugin's module is imported, never what
answers.

A stand-in, when called:

* for ``redzone_keywords``, answers the index's keyword specs (the engine
  parses and suggests keywords, and gates hooks, from them);
* for a gated hook about a state where none of the plugin's keywords is
  present, answers nothing (verify mode, which asks every implementation
  whatever its gate, asks it too: a plugin not imported yet has never been
  let through, so it has nothing to be checked for);
* otherwise imports and registers the plugin (once per engine, under a
  lock: two threads resolving on one engine import it once), checks that it
  implements the hooks and declares the keywords its index says, and calls
  the plugin's own implementation. From then on the stand-in calls it
  directly (its function is replaced in place when it takes the hook's
  arguments as the hook gives them, else it passes them on).

So a plugin is imported when one of its keywords first appears on a state the
engine asks about, when a hook no keyword gates is first asked
(``redzone_resolve_trigger``, ``redzone_condition_holds``), or, as the engine
is built, when it declares action kinds, activated abilities, combat damage
steps or event kinds (the engine asks for those at once).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import pluggy

from redzone.kernel import _calling, _gates
from redzone.kernel import index as _index
from redzone.kernel._calling import Impl
from redzone.kernel._loading import PluginInfo, check_pending, register
from redzone.kernel.errors import PluginLoadError
from redzone.kernel.model import GameState
from redzone.kernel.slots import declares_slot, owned


class Pending:
    """The plugins of one engine its index declares and that aren't
    imported yet, and their stand-ins in the engine's implementations.

    :param pm: the engine's plugin manager (a plugin is registered with it
        when imported).
    :param infos: the engine's plugins, by name.
    :param cache: each hook's implementations, sorted by plugin name: the
        stand-ins are added here.
    """

    def __init__(self, pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo],
                 cache: dict[str, tuple[Impl, ...]]) -> None:
        self._pm = pm
        self._lock = threading.Lock()
        #: The imported plugins' own implementations, by plugin and hook.
        self._real: dict[str, dict[str, Impl]] = {}
        #: The stand-ins, by plugin and hook.
        self._stand_ins: dict[str, dict[str, Impl]] = {}
        #: Told of each plugin as it is imported, its implementations in
        #: place (what the engine worked out from its functions, such as
        #: which are :func:`~redzone.dynamic`, is worked out again).
        self.loaded: list[Callable[[PluginInfo], None]] = []
        #: The stand-ins given the state that answer ``None`` without
        #: importing their plugin when its keyword gate keeps them out.
        self._gated: set[Impl] = set()
        added: dict[str, list[Impl]] = {}
        for info in infos.values():
            if info.declared is None or pm.get_plugin(info.name) is not None:
                continue  # registered as the engine was built
            own = self._stand_ins[info.name] = {}
            for item in info.declared[0]:
                hook, args = _index.hook_name(item), _index.hook_args(item)
                spec = _index.spec_args(hook)
                # the arguments the plugin's own implementation takes, as the
                # call loop passes them (so it can replace the stand-in's function)
                picks = None if args is None else tuple(spec.index(a) for a in args)
                impl = own[hook] = Impl(_calling.state_of, picks, info)
                impl.fn = self._stand_in(impl, hook)
                if hook != "redzone_keywords" and (picks is None or 0 in picks):
                    self._gated.add(impl)
                added.setdefault(hook, []).append(impl)
        for hook, impls in added.items():
            cache[hook] = tuple(sorted((*cache[hook], *impls), key=lambda i: i.plugin.name))

    @property
    def names(self) -> frozenset[str]:
        """The plugins not imported yet."""
        return frozenset(self._stand_ins) - frozenset(self._real)

    def kept_silent(self, impl: Impl) -> bool:
        """Whether ``impl``, which the gates keep out of a call about a
        state, is the stand-in of a plugin not imported yet: it answers
        ``None`` (asking it would import nothing, and say nothing)."""
        return impl in self._gated and impl.plugin.name not in self._real

    def _stand_in(self, impl: Impl, hook: str) -> Callable[..., Any]:
        """The function of ``impl``, the stand-in for ``hook`` of a plugin
        not imported yet."""
        info = impl.plugin
        assert info.declared is not None
        keywords = info.declared[1]

        # where the state is among the arguments the stand-in is given (-1: none)
        at = 0 if impl.picks is None else impl.picks.index(0) if 0 in impl.picks else -1

        def stand_in(*args: Any) -> Any:
            real = self._real.get(info.name)
            if real is None:
                if hook == "redzone_keywords":
                    return keywords
                gate = impl.gate
                if gate is not None and 0 <= at < len(args) and isinstance(args[at], GameState) \
                        and gate.isdisjoint(args[at].keyword_names_present):
                    return None
                real = self.load(info)
            return real[hook].fn(*args)  # taking the arguments as the stand-in does

        return stand_in

    def load(self, info: PluginInfo) -> dict[str, Impl]:
        """Import and register ``info``'s plugin (once), checked against its
        index; its stand-ins call its own implementations from then on.

        The time it takes (waiting for another thread's import included) is
        added to :data:`redzone.kernel._calling.IMPORTING`, which a time
        limit on hook calls doesn't count.

        :returns: its implementations, by hook.
        :raises PluginLoadError: when it fails to import or register, or
            doesn't implement the hooks or declare the keywords its index says.
        """
        started = time.perf_counter()
        try:
            return self._load(info)
        finally:
            _calling.IMPORTING.seconds += time.perf_counter() - started

    def _load(self, info: PluginInfo) -> dict[str, Impl]:
        with self._lock:
            real = self._real.get(info.name)
            if real is not None:
                return real
            own = self._stand_ins[info.name]
            real = _imported(self._pm, info, {hook: i.picks for hook, i in own.items()})
            for hook, impl in own.items():
                impl.fn = real[hook].fn  # the same call: the loop may call either
            _gates.warn_retired(info)
            self._real[info.name] = real
            for tell in self.loaded:
                tell(info)
            return real

    def load_all(self) -> None:
        """Import every plugin not imported yet, in order of name."""
        for name in sorted(self.names):
            self.load(next(iter(self._stand_ins[name].values())).plugin)


def _imported(pm: pluggy.PluginManager, info: PluginInfo,
              picks: Mapping[str, tuple[int, ...] | None]) -> dict[str, Impl]:
    """``info``'s plugin imported and registered with ``pm``, its
    implementations by hook (as :func:`redzone.kernel._calling.implementations`
    makes them), checked against its index entry (unregistered again when
    they disagree)."""
    assert info.declared is not None
    keywords = info.declared[1]
    register(pm, info)
    try:
        check_pending(pm)
        real = _own(pm, info)
        _check(info, real, picks, keywords)
    except BaseException:
        pm.unregister(info.module)
        raise
    return real


def _own(pm: pluggy.PluginManager, info: PluginInfo) -> dict[str, Impl]:
    """The implementations of ``info``'s registered plugin, by hook."""
    module = info.module
    slotted = declares_slot(module)
    found: dict[str, Impl] = {}
    for caller in pm.get_hookcallers(module) or ():
        assert caller.spec is not None
        spec_args = tuple(caller.spec.argnames)
        for impl in caller.get_hookimpls():
            if impl.plugin is not module:
                continue
            args = tuple(impl.argnames)
            picks = None if args == spec_args else tuple(spec_args.index(a) for a in args)
            fn = owned(impl.function, info.name) if slotted else impl.function
            found[caller.name] = Impl(fn, picks, info)
    return found


def _check(info: PluginInfo, real: Mapping[str, Impl],
           picks: Mapping[str, tuple[int, ...] | None], keywords: tuple[Any, ...]) -> None:
    """``info``'s plugin implements the hooks of ``picks``, each taking the
    arguments they pick, and declares ``keywords``, as its index says.

    :raises PluginLoadError: naming the plugin and the difference.
    """
    where = (f"plugin {info.name!r} ({info.distribution or 'unknown distribution'})")
    fix = "regenerate its package's index (python -m redzone.kernel.index PACKAGE)"
    if {hook: impl.picks for hook, impl in real.items()} != picks:
        said = [_shown(h, p) for h, p in sorted(picks.items())]
        found = [_shown(h, i.picks) for h, i in sorted(real.items())]
        raise PluginLoadError(
            f"{where} implements the hooks {', '.join(found) or 'none'}, but its "
            f"package's index says {', '.join(said) or 'none'}: {fix}",
            plugin=info.name, distribution=info.distribution)
    try:
        answer = tuple(real["redzone_keywords"].fn())
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise PluginLoadError(f"{where} raised {type(exc).__name__} declaring its keywords: "
                              f"{exc}", plugin=info.name,
                              distribution=info.distribution) from exc
    if answer != keywords:
        raise PluginLoadError(
            f"{where} declares the keywords {answer!r}, but its package's index says "
            f"{keywords!r}: {fix}", plugin=info.name, distribution=info.distribution,
            hook="redzone_keywords")


def _shown(hook: str, picks: tuple[int, ...] | None) -> str:
    """A hook and the arguments an implementation takes: ``hook(state, damage)``."""
    spec = _index.spec_args(hook)
    return f"{hook}({', '.join(spec if picks is None else (spec[i] for i in picks))})"


__all__ = ["Pending"]
