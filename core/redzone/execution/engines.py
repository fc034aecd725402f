"""Engines by name: how a worker rebuilds the caller's engine.

Engines never travel. Each worker rebuilds the engine from an
:class:`EngineSpec`: the rules edition and the plugins by name (entry-point
names, importable module names), the hook timeout, the trigger setting,
verify mode, the unknown-keyword policy and the assignment policy by
qualified name. The engine built there is checked against the caller's: the
same plugins, from the same distributions, at the same versions. A plugin
missing on a worker is an error naming it, reported for each job the worker
was given.
"""

from __future__ import annotations

import importlib
import os
import socket
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any, Final

from attrs import evolve, frozen

from redzone.kernel.combat import default_policy
from redzone.kernel.engine import Engine
from redzone.kernel.errors import PluginLoadError, RulesError
from redzone.kernel.plugins import GROUP, entry_points


class BatchError(RulesError):
    """A batch that can't start: an engine that can't be rebuilt on a worker
    by name, or a job of an unknown kind. Raised before any job runs.

    .. versionadded:: 0.1.0
    """


class WorkerSetupError(PluginLoadError):
    """A worker can't rebuild the caller's engine: a plugin is missing there,
    or differs (distribution, version).

    .. versionadded:: 0.1.0
    """


@frozen
class EngineSpec:
    """Everything needed to rebuild an engine on a worker, by name.

    :param rules: the rules edition.
    :param discover: whether plugins are discovered from the ``redzone``
        entry-point group.
    :param allow: the entry-point names to load (with ``discover``).
    :param modules: plugins given as modules, by importable module name.
    :param hook_timeout: the engine's hook timeout.
    :param auto_triggers: the engine's trigger setting.
    :param policy: the assignment policy as ``module:qualname``, or ``""``
        for the default policy.
    :param expected: ``(name, distribution, version)`` of every plugin the
        caller's engine has, sorted: the rebuilt engine must have the same.
    :param verify: the engine's verify mode (a worker's ``REDZONE_VERIFY``
        never decides it: the same jobs give the same outcomes everywhere).
    :param unknown_keywords: the engine's unknown-keyword policy.

    .. versionadded:: 0.1.0
    """

    rules: str
    discover: bool
    allow: tuple[str, ...]
    modules: tuple[str, ...]
    hook_timeout: float | None
    auto_triggers: bool
    policy: str
    expected: tuple[tuple[str, str, str], ...]
    verify: bool = False
    unknown_keywords: str = "error"

    @classmethod
    def of(cls, engine: Engine) -> EngineSpec:
        """The spec of an engine.

        :raises BatchError: when a plugin is an object (not a module or an
            entry point), or the policy is not a module-level function: they
            can't be rebuilt by name.
        """
        baseline = _baseline(engine.rules)
        entry_points = _entry_point_names()
        allow: list[str] = []
        modules: list[str] = []
        for name, info in engine.plugin_infos.items():
            if name in baseline:
                continue
            # (One found through its entry point is named by it: not imported for this.)
            if name in entry_points and (info.entry is not None
                                         or isinstance(info.module, types.ModuleType)):
                allow.append(name)
                continue
            module = info.module
            if isinstance(module, types.ModuleType) and (
                    sys.modules.get(module.__name__) is module):
                modules.append(module.__name__)
            else:
                raise BatchError(
                    f"plugin {name!r} is a {type(module).__name__} object, not a module or an "
                    "installed entry point: a worker can't rebuild it by name; make it a "
                    "module (or install it), or run the batch without an executor")
        return cls(engine.rules, bool(allow), tuple(sorted(allow)), tuple(modules),
                   engine.hooks.timeout, engine.auto_triggers, _policy_name(engine.policy),
                   signature(engine), engine.hooks.verify, engine.hooks.unknown_keywords)

    def for_rules(self, rules: str) -> EngineSpec:
        """The same plugin choices under another rules edition (the edition
        replaces some plugins: the expected set is that of an engine built
        here, once per process)."""
        if rules == self.rules:
            return self
        known = _OTHER_RULES.get((self, rules))
        if known is None:
            spec = evolve(self, rules=rules, expected=())
            known = evolve(spec, expected=signature(_construct(spec)))
            _remember(_OTHER_RULES, (self, rules), known)
        return known


#: How many specs :func:`spec_of` and :meth:`EngineSpec.for_rules` keep.
_KEPT: Final = 64
_SPECS: dict[tuple[object, ...], EngineSpec] = {}
_OTHER_RULES: dict[tuple[EngineSpec, str], EngineSpec] = {}


def _remember(cache: dict[Any, EngineSpec], key: Any, spec: EngineSpec) -> None:
    if len(cache) >= _KEPT:
        cache.clear()
    cache[key] = spec


def spec_of(engine: Engine) -> EngineSpec:
    """:meth:`EngineSpec.of`, kept for the process by what it depends on:
    the engine's settings and each plugin (its entry point, or the object
    given), never importing a plugin not imported yet. A batch after
    another with the same engine, or with an engine alike (each scenario
    file has its own), reads no metadata and builds no engine.

    :param engine: the engine.
    :raises BatchError: as :meth:`EngineSpec.of`.

    .. versionadded:: 0.1.0
    """
    plugins: list[object] = []
    for name, info in engine.plugin_infos.items():
        if info.entry is not None:
            plugins.append((name, info.entry.value, info.distribution, info.version))
        elif isinstance(info.module, types.ModuleType):
            plugins.append((name, info.module, info.distribution, info.version))
        else:  # not a module: can't be rebuilt by name
            return EngineSpec.of(engine)
    key = (engine.rules, engine.hooks.timeout, engine.auto_triggers, engine.policy,
           engine.hooks.verify, engine.hooks.unknown_keywords, tuple(plugins))
    try:
        spec = _SPECS.get(key)
    except TypeError:  # an unhashable policy: not a module-level function
        return EngineSpec.of(engine)
    if spec is None:
        spec = EngineSpec.of(engine)
        _remember(_SPECS, key, spec)
    return spec


def signature(engine: Engine) -> tuple[tuple[str, str, str], ...]:
    """``(name, distribution, version)`` of each of an engine's plugins, sorted."""
    return tuple(sorted((n, i.distribution, i.version) for n, i in engine.plugin_infos.items()))


_BASELINES: dict[str, frozenset[str]] = {}


def _baseline(rules: str) -> frozenset[str]:
    """The plugins an engine of ``rules`` registers by itself."""
    if rules not in _BASELINES:
        _BASELINES[rules] = frozenset(Engine(rules, discover=False).plugin_infos)
    return _BASELINES[rules]


def _entry_point_names() -> frozenset[str]:
    return frozenset(ep.name for ep in entry_points(GROUP))


def _policy_name(policy: Callable[..., Any]) -> str:
    if policy is default_policy:
        return ""
    module = getattr(policy, "__module__", None)
    qualname = getattr(policy, "__qualname__", "")
    if module and qualname and "<" not in qualname:
        return f"{module}:{qualname}"
    raise BatchError(f"the engine's assignment policy {policy!r} is not a module-level "
                     "function: a worker can't rebuild it by name")


def _resolve_name(ref: str) -> Any:
    module, _, qualname = ref.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _here() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _construct(spec: EngineSpec) -> Engine:
    """An engine from a spec, without checking it."""
    # Each problem: (the plugin, the distribution it comes from on the caller, the message).
    missing: list[tuple[str, str, str]] = []
    caller = {n: d for n, d, _v in spec.expected}
    if spec.discover:
        installed = _entry_point_names()
        for name in spec.allow:
            if name not in installed:
                dist = caller.get(name, "")
                missing.append((name, dist, f"plugin {name!r} (distribution "
                                f"{dist or 'unknown'!r}) is not installed here: no {GROUP!r} "
                                "entry point of that name"))
    plugins: list[object] = []
    for module in spec.modules:
        try:
            plugins.append(importlib.import_module(module))
        except ImportError as exc:
            # A plugin given as a module is registered under the module's name.
            missing.append((module, caller.get(module, ""),
                            f"plugin module {module!r} can't be imported here ({exc})"))
    if missing:
        raise _setup_error(f"the worker {_here()} can't rebuild the engine", missing)
    policy = _resolve_name(spec.policy) if spec.policy else default_policy
    return Engine(spec.rules, plugins=plugins, discover=spec.discover,
                  allow=spec.allow if spec.discover else None, policy=policy,
                  auto_triggers=spec.auto_triggers, hook_timeout=spec.hook_timeout,
                  verify=spec.verify, unknown_keywords=spec.unknown_keywords)


def _setup_error(what: str, problems: Sequence[tuple[str, str, str]]) -> WorkerSetupError:
    """The error for a worker's problems, named by the first: its plugin, and
    the distribution that plugin comes from on the caller (``""`` when it
    comes from none there, as a :class:`~redzone.PluginError`'s)."""
    plugin, distribution, _message = problems[0]
    return WorkerSetupError(f"{what}: " + "; ".join(m for _p, _d, m in problems),
                            plugin=plugin, distribution=distribution)


def build_engine(spec: EngineSpec) -> Engine:
    """Rebuild an engine from its spec and check it matches.

    :raises WorkerSetupError: naming each plugin missing here, or each that
        differs in distribution or version; its ``plugin`` and
        ``distribution`` are those of the first, the distribution as the
        caller has it (as this worker has it, for a plugin loaded here but
        not by the caller).
    """
    engine = _construct(spec)
    got = signature(engine)
    if spec.expected and got != spec.expected:
        want = {n: (d, v) for n, d, v in spec.expected}
        have = {n: (d, v) for n, d, v in got}
        diffs: list[tuple[str, str, str]] = []
        for name in sorted(set(want) | set(have)):
            if name not in have:
                diffs.append((name, want[name][0], f"plugin {name!r} ({want[name][0]} "
                              f"{want[name][1]}) is missing here"))
            elif name not in want:
                diffs.append((name, have[name][0], f"plugin {name!r} ({have[name][0]} "
                              f"{have[name][1]}) is loaded here but not by the caller"))
            elif want[name] != have[name]:
                diffs.append((name, want[name][0], f"plugin {name!r} is {have[name][0]} "
                              f"{have[name][1]} here, {want[name][0]} {want[name][1]} for "
                              "the caller"))
        raise _setup_error(f"the worker {_here()} built a different engine", diffs)
    return engine


_ENGINES: dict[EngineSpec, Engine] = {}


def worker_engine(spec: EngineSpec) -> Engine:
    """The engine for a spec in this process, built once and kept."""
    engine = _ENGINES.get(spec)
    if engine is None:
        engine = _ENGINES[spec] = build_engine(spec)
    return engine


__all__ = [
    "BatchError",
    "EngineSpec",
    "WorkerSetupError",
    "build_engine",
    "signature",
    "spec_of",
    "worker_engine",
]
