"""Batch simulation: many combats at once, in one process or on many.

:func:`simulate` resolves jobs (scenario files, :class:`~redzone.formats.scenario.Scenario`
objects, or ``(state, decisions)`` pairs) and yields one :class:`JobOutcome`
per job, in input order. A job that fails (an illegal declaration, a bad
file, a failing plugin, a lost worker) gives an outcome with its error as a
value; nothing else is lost.

The work can go to any :class:`concurrent.futures.Executor`: a process pool,
a Dask ``distributed.Client`` (or its ``get_executor()``), or Ray through
:class:`RayExecutor`. Jobs travel in chunks, so that the per-job cost of the
executor stays small.

Engines never travel. Each worker rebuilds the engine from an
:class:`EngineSpec`: the rules edition and the plugins by name (entry-point
names, importable module names), the hook timeout, the trigger setting,
verify mode, the unknown-keyword policy and the assignment policy by
qualified name. The engine built there is checked
against the caller's: the same plugins, from the same distributions, at the
same versions. A plugin missing on a worker is an error naming it, reported
for each job the worker was given.

Neither Dask nor Ray is imported unless asked for (``redzone[dask]``,
``redzone[ray]``).
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import importlib.metadata
import inspect
import itertools
import json
import os
import pickle
import reprlib
import socket
import sys
import time
import types
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TypeAlias

import attrs
from attrs import evolve, field, frozen

from redzone.formats.outcome import (
    EXIT_BAD_SCENARIO,
    EXIT_FAILURE,
    command_engine,
    dumps,
    error_json,
    exit_status,
    outcome_json,
    resolve,
)
from redzone.formats.scenario import Scenario, read_document
from redzone.formats.scenario import build as build_scenario
from redzone.kernel.combat import default_policy, normalise_blocks
from redzone.kernel.editions import EDITIONS
from redzone.kernel.engine import Engine
from redzone.kernel.errors import PluginLoadError, RulesError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState
from redzone.kernel.plugins import GROUP

#: The most jobs in one chunk when the chunk size is chosen automatically.
MAX_CHUNK: Final = 64

#: Kinds of outcome beyond the scenario format's error kinds.
WORKER_LOST: Final = "worker_lost"
WORKER_SETUP: Final = "worker_setup"


class BatchError(RulesError):
    """A batch that can't start: an engine that can't be rebuilt on a worker
    by name, or a job of an unknown kind. Raised before any job runs."""


class WorkerSetupError(PluginLoadError):
    """A worker can't rebuild the caller's engine: a plugin is missing there,
    or differs (distribution, version)."""


# ---------------------------------------------------------------------------
# Engines by name
# ---------------------------------------------------------------------------


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
    def of(cls, engine: Engine, *, entry_points: frozenset[str] | None = None) -> EngineSpec:
        """The spec of an engine.

        :param entry_points: the names of the ``redzone`` entry-point group,
            when the caller has them already.
        :raises BatchError: when a plugin is an object (not a module or an
            entry point), or the policy is not a module-level function: they
            can't be rebuilt by name.
        """
        baseline = _baseline(engine.rules)
        if entry_points is None:
            entry_points = _entry_point_names()
        allow: list[str] = []
        modules: list[str] = []
        for name, info in engine.plugin_infos.items():
            if name in baseline:
                continue
            module = info.module
            if isinstance(module, types.ModuleType) and name in entry_points:
                allow.append(name)
            elif isinstance(module, types.ModuleType) and (
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
        here)."""
        if rules == self.rules:
            return self
        spec = evolve(self, rules=rules, expected=())
        return evolve(spec, expected=signature(_construct(spec)))


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
    return frozenset(ep.name for ep in importlib.metadata.entry_points(group=GROUP))


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
    missing: list[str] = []
    if spec.discover:
        installed = _entry_point_names()
        for name in spec.allow:
            if name not in installed:
                dist = next((d for n, d, _v in spec.expected if n == name), "")
                missing.append(f"plugin {name!r} (distribution {dist or 'unknown'!r}) is not "
                               f"installed here: no {GROUP!r} entry point of that name")
    plugins: list[object] = []
    for module in spec.modules:
        try:
            plugins.append(importlib.import_module(module))
        except ImportError as exc:
            missing.append(f"plugin module {module!r} can't be imported here ({exc})")
    if missing:
        raise WorkerSetupError(f"the worker {_here()} can't rebuild the engine: "
                               + "; ".join(missing), plugin=_first_plugin(missing))
    policy = _resolve_name(spec.policy) if spec.policy else default_policy
    return Engine(spec.rules, plugins=plugins, discover=spec.discover,
                  allow=spec.allow if spec.discover else None, policy=policy,
                  auto_triggers=spec.auto_triggers, hook_timeout=spec.hook_timeout,
                  verify=spec.verify, unknown_keywords=spec.unknown_keywords)


def _first_plugin(problems: Sequence[str]) -> str:
    text = problems[0]
    start = text.find("'")
    end = text.find("'", start + 1)
    return text[start + 1:end] if start >= 0 and end > start else ""


def build_engine(spec: EngineSpec) -> Engine:
    """Rebuild an engine from its spec and check it matches.

    :raises WorkerSetupError: naming each plugin missing here, or each that
        differs in distribution or version.
    """
    engine = _construct(spec)
    got = signature(engine)
    if spec.expected and got != spec.expected:
        want = {n: (d, v) for n, d, v in spec.expected}
        have = {n: (d, v) for n, d, v in got}
        diffs = []
        for name in sorted(set(want) | set(have)):
            if name not in have:
                diffs.append(f"plugin {name!r} ({want[name][0]} {want[name][1]}) is missing here")
            elif name not in want:
                diffs.append(f"plugin {name!r} ({have[name][0]} {have[name][1]}) is loaded "
                             "here but not by the caller")
            elif want[name] != have[name]:
                diffs.append(f"plugin {name!r} is {have[name][0]} {have[name][1]} here, "
                             f"{want[name][0]} {want[name][1]} for the caller")
        raise WorkerSetupError(f"the worker {_here()} built a different engine: "
                               + "; ".join(diffs), plugin=_first_plugin(diffs))
    return engine


_ENGINES: dict[EngineSpec, Engine] = {}


def worker_engine(spec: EngineSpec) -> Engine:
    """The engine for a spec in this process, built once and kept."""
    engine = _ENGINES.get(spec)
    if engine is None:
        engine = _ENGINES[spec] = build_engine(spec)
    return engine


# ---------------------------------------------------------------------------
# Jobs and outcomes
# ---------------------------------------------------------------------------

Decisions = Mapping[str, Any]
"""The declarations of a ``(state, decisions)`` job: the keyword arguments of
:meth:`redzone.Engine.resolve` (``attacks``, ``blocks``, ``assign``,
``assign_first_strike``, ``actions``, ``order``, ``bands``,
``additional_combats``, ``through``, ``choices``)."""

Job: TypeAlias = "str | os.PathLike[str] | Scenario | tuple[GameState, Decisions]"

#: What a decisions mapping may hold: every keyword argument of
#: :meth:`redzone.Engine.resolve`, each also a field of :class:`Scenario`.
_DECISION_KEYS: Final = frozenset(
    name for name in inspect.signature(Engine.resolve).parameters if name not in ("self", "state"))

#: The fields of a :class:`Scenario` a job carries to a worker: all but the
#: engine, which the worker builds from the job's spec.
_SCENARIO_FIELDS: Final = tuple(f.name for f in attrs.fields(Scenario) if f.name != "engine")
assert set(_SCENARIO_FIELDS) >= _DECISION_KEYS, "a resolve argument has no Scenario field"


@frozen
class _FileJob:
    path: str
    specs: tuple[tuple[str, EngineSpec], ...]
    rules: str | None = None


@frozen
class _ScenarioJob:
    """A scenario without its engine (:data:`_SCENARIO_FIELDS`, by name), and
    the spec of the engine that resolves it."""

    fields: tuple[tuple[str, Any], ...]
    spec: EngineSpec

    @property
    def file(self) -> str:
        return str(dict(self.fields)["file"])


@frozen
class _BadJob:
    source: str
    message: str


_Payload: TypeAlias = "_FileJob | _ScenarioJob | _BadJob"

#: The kind of outcome of a job that is neither a file, a Scenario nor a
#: ``(state, decisions)`` pair (status 2, like a bad scenario file).
BAD_JOB: Final = "bad_job"

#: The spec of a payload run in the caller's process (never looked at).
_NO_SPEC: Final = EngineSpec("", False, (), (), None, True, "", ())


@frozen
class JobOutcome:
    """What one job gave.

    :param index: the job's place in the input, from 0.
    :param source: the file, or ``<job N>``.
    :param status: the exit status ``redzone run`` would give: 0 resolved,
        1 illegal, 2 bad scenario file, 3 a plugin (or redzone, or the worker)
        failed.
    :param json: the JSON outcome of the scenario format as compact JSON
        text (:attr:`outcome` is it parsed, :attr:`text` as ``redzone run
        --json`` prints it). Text travels from a worker much faster than the
        nested objects.
    :param keywords: the keyword names on the board (empty for a bad file).
    :param seconds: how long the job took on its worker.
    :param worker: ``host:pid`` of the worker.
    :param retried: how many times the job was sent again after its worker
        was lost.
    """

    index: int
    source: str
    status: int
    json: str
    keywords: tuple[str, ...] = ()
    seconds: float = field(default=0.0, eq=False)
    worker: str = field(default="", eq=False)
    retried: int = field(default=0, eq=False)

    @property
    def outcome(self) -> dict[str, Any]:
        """The JSON outcome (parsed anew on each access)."""
        value: dict[str, Any] = json.loads(self.json)
        return value

    @property
    def ok(self) -> bool:
        """Whether the combat resolved."""
        return self.status == 0

    @property
    def kind(self) -> str:
        """``resolved``, or the error's kind (``illegal_attack``,
        ``bad_scenario``, ``plugin_error``, ``worker_lost``...)."""
        if self.status == 0:
            return "resolved"
        error = self.outcome.get("error")
        return str(error.get("kind", "")) if isinstance(error, Mapping) else "resolved"

    @property
    def text(self) -> str:
        """The outcome as ``redzone run --json`` prints it."""
        return dumps(self.outcome)


def _keywords_of(state: GameState) -> tuple[str, ...]:
    return tuple(sorted({k.name for p in state.objects.values() for k in p.keywords}))


def _run(index: int, source: str, make: Callable[[], Scenario]) -> JobOutcome:
    """Build a job's scenario and resolve it; every error becomes the outcome."""
    start = time.perf_counter()
    keywords: tuple[str, ...] = ()
    try:
        scenario = make()
        keywords = _keywords_of(scenario.state)
        resolution = resolve(scenario)
    except Exception as exc:  # a bad file, a failing plugin, a worker that can't build
        return _done(index, source, exc, error_json(exc), keywords, start)
    return _done(index, source, resolution.error, outcome_json(resolution), keywords, start)


def _done(index: int, source: str, error: BaseException | None, outcome: dict[str, Any],
          keywords: tuple[str, ...], start: float) -> JobOutcome:
    status = exit_status(error)
    if isinstance(error, WorkerSetupError):
        outcome["error"]["kind"] = WORKER_SETUP
    return JobOutcome(index, source, status, _compact(outcome), keywords,
                      time.perf_counter() - start, _here())


def _compact(outcome: Mapping[str, Any]) -> str:
    return json.dumps(outcome, ensure_ascii=False, separators=(",", ":"))


def _scenario_of(payload: _ScenarioJob, engine: Engine) -> Scenario:
    return Scenario(engine=engine, **dict(payload.fields))


def _bad(index: int, payload: _BadJob) -> JobOutcome:
    outcome = {"ok": False, "error": {"kind": BAD_JOB, "rule": "", "message": payload.message,
                                      "objects": []}}
    return JobOutcome(index, payload.source, EXIT_BAD_SCENARIO, _compact(outcome),
                      worker=_here())


def _run_payload(index: int, payload: _Payload) -> JobOutcome:
    if isinstance(payload, _BadJob):
        return _bad(index, payload)
    if isinstance(payload, _FileJob):
        specs = dict(payload.specs)
        return _run(index, payload.path, lambda: build_scenario(
            read_document(payload.path), rules=payload.rules,
            engine_factory=lambda r: worker_engine(specs[r])))
    return _run(index, payload.file,
                lambda: _scenario_of(payload, worker_engine(payload.spec)))


_Wire: TypeAlias = "tuple[int, str, int, str, tuple[str, ...], float, str, int]"


def run_chunk(chunk: Sequence[tuple[int, _Payload]]) -> list[_Wire]:
    """Run a chunk of jobs on this worker (the function executors are given).

    The outcomes travel back as plain tuples (:func:`from_wire` makes them
    :class:`JobOutcome` again): unpickling them costs the caller less."""
    return [to_wire(_run_payload(i, p)) for i, p in chunk]


def to_wire(r: JobOutcome) -> _Wire:
    """A :class:`JobOutcome` as a plain tuple."""
    return (r.index, r.source, r.status, r.json, r.keywords, r.seconds, r.worker, r.retried)


def from_wire(t: _Wire) -> JobOutcome:
    """A :class:`JobOutcome` from :func:`to_wire`'s tuple."""
    return JobOutcome(*t)


# ---------------------------------------------------------------------------
# Turning jobs into payloads (in the caller's process)
# ---------------------------------------------------------------------------


class _Planner:
    def __init__(self, engine: Engine, rules: str | None = None) -> None:
        self.engine = engine
        self.rules = rules
        self._spec: EngineSpec | None = None
        self._family: tuple[tuple[str, EngineSpec], ...] | None = None
        self._by_print: dict[tuple[Any, ...], EngineSpec] = {}
        self._entry_points: frozenset[str] | None = None

    def _of(self, engine: Engine) -> EngineSpec:
        # Scenarios loaded from files each have their own engine, mostly alike:
        # engines with the same plugin objects and settings share one spec.
        key = (engine.rules, engine.hooks.timeout, engine.auto_triggers, id(engine.policy),
               engine.hooks.verify, engine.hooks.unknown_keywords,
               tuple((n, id(i.module)) for n, i in engine.plugin_infos.items()))
        spec = self._by_print.get(key)
        if spec is None:
            if self._entry_points is None:
                self._entry_points = _entry_point_names()
            spec = self._by_print[key] = EngineSpec.of(engine,
                                                       entry_points=self._entry_points)
        return spec

    @property
    def spec(self) -> EngineSpec:
        if self._spec is None:
            self._spec = self._of(self.engine)
        return self._spec

    def family(self) -> tuple[tuple[str, EngineSpec], ...]:
        if self._family is None:
            self._family = tuple((r, self.spec.for_rules(r)) for r in EDITIONS)
        return self._family

    def spec_of(self, engine: Engine) -> EngineSpec:
        return self.spec if engine is self.engine else self._of(engine)

    def payload(self, index: int, job: Any, *, spec: bool = True) -> _Payload:
        if isinstance(job, str | os.PathLike):
            return _FileJob(os.fspath(job), self.family(), self.rules)
        if isinstance(job, Scenario):
            try:
                job_spec = self.spec_of(job.engine) if spec else _NO_SPEC
            except BatchError as exc:  # this Scenario's own engine can't travel
                return _BadJob(job.file, f"job {index} ({job.file}): {exc}")
            return _ScenarioJob(tuple((n, getattr(job, n)) for n in _SCENARIO_FIELDS),
                                job_spec)
        if isinstance(job, tuple) and len(job) == 2 and isinstance(job[0], GameState):
            state, decisions = job
            if not isinstance(decisions, Mapping) or set(decisions) - _DECISION_KEYS:
                bad = sorted(set(decisions) - _DECISION_KEYS) if isinstance(
                    decisions, Mapping) else decisions
                return _BadJob(f"<job {index}>", f"job {index}: the decisions must be a "
                               f"mapping with keys among {', '.join(sorted(_DECISION_KEYS))}, "
                               f"not {bad!r}")
            fields: dict[str, Any] = {"file": f"<job {index}>", "rules": self.engine.rules,
                                      "state": state}
            for key, (convert, default) in _DECISIONS.items():
                value = decisions.get(key)
                try:
                    fields[key] = default if value is None else convert(value)
                except Exception as exc:  # any value of the wrong type or shape
                    return _BadJob(f"<job {index}>", f"job {index}: decisions[{key!r}] = "
                                   f"{reprlib.repr(value)} is not what Engine.resolve takes "
                                   f"({exc})")
            return _ScenarioJob(tuple(fields.items()), self.spec if spec else _NO_SPEC)
        return _BadJob(f"<job {index}>", f"job {index} is a {type(job).__name__}: a job is "
                       "a scenario file path, a Scenario, or a (state, decisions) pair")


def _mapping(value: Any) -> FrozenMap[Any, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"a mapping is wanted, got {type(value).__name__}")
    return FrozenMap(value)


def _sequence(value: Any) -> tuple[Any, ...]:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise TypeError(f"a sequence (list, tuple) is wanted, got {type(value).__name__}")
    return tuple(value)


def _blocks(value: Any) -> FrozenMap[str, tuple[str, ...]]:
    return FrozenMap((b, a) for b, a in normalise_blocks(_mapping(value)).items() if a)


def _assign(value: Any) -> FrozenMap[Any, Any]:
    return FrozenMap((s, _mapping(a)) for s, a in _mapping(value).items())


#: Each decision of a ``(state, decisions)`` job: how its value becomes the
#: :class:`Scenario` field, and the field's value when it is absent (or
#: ``None``). A value of the wrong type makes the job a :data:`BAD_JOB`.
_DECISIONS: Final[dict[str, tuple[Callable[[Any], Any], Any]]] = {
    "attacks": (_mapping, FrozenMap()),
    "blocks": (_blocks, FrozenMap()),
    "order": (lambda v: FrozenMap((k, _sequence(o)) for k, o in _mapping(v).items()),
              FrozenMap()),
    "assign": (_assign, None),
    "assign_first_strike": (_assign, None),
    "actions": (_sequence, ()),
    "bands": (lambda v: tuple(_sequence(b) for b in _sequence(v)), ()),
    "additional_combats": (_sequence, ()),
    "through": (lambda v: v, "end_of_combat"),
    "choices": (lambda v: FrozenMap((k, (c,) if isinstance(c, str) else _sequence(c))
                                    for k, c in _mapping(v).items()), FrozenMap()),
}
assert set(_DECISIONS) == _DECISION_KEYS, "a resolve argument has no conversion"


# ---------------------------------------------------------------------------
# Executors
# ---------------------------------------------------------------------------


class RayExecutor(cf.Executor):
    """A :class:`concurrent.futures.Executor` running each call as a Ray task.

    Ray is imported when this is made; connect first (``ray.init(...)``) or
    give ``address`` (``"auto"``, ``"ray://host:port"``).

    :param address: passed to ``ray.init`` when Ray is not initialised yet.
    :param max_retries: Ray's retries of a task whose worker died.
    """

    def __init__(self, address: str | None = None, *, max_retries: int = 3,
                 **init: Any) -> None:
        ray: Any = importlib.import_module("ray")
        if not ray.is_initialized():
            ray.init(address=address, **init)
        self._ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}
        self._max_retries = max_retries

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(max_retries=self._max_retries)(fn)
        future: cf.Future[Any] = remote.remote(*args, **kwargs).future()
        return future

    @property
    def workers(self) -> int:
        """The CPUs of the Ray cluster."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))


def as_executor(executor: Any) -> cf.Executor:
    """An executor from what the caller gave: an :class:`~concurrent.futures.Executor`,
    or a Dask ``distributed.Client`` (its ``get_executor(pure=False)``)."""
    if isinstance(executor, cf.Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get):
        made = get(pure=False)
        if isinstance(made, cf.Executor):
            return made
    raise BatchError(f"{type(executor).__name__} is not an executor: give a "
                     "concurrent.futures.Executor, a Dask Client or a RayExecutor")


def worker_count(executor: Any) -> int:
    """How many jobs an executor runs at once, as far as it says."""
    for attr in ("workers", "_max_workers"):
        n = getattr(executor, attr, None)
        if isinstance(n, int) and n > 0:
            return n
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # pragma: no cover - a client that can't say
            pass
    return os.cpu_count() or 1


# ---------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------


def simulate(jobs: Iterable[Job], *, executor: Any = None, engine: Engine | None = None,
             chunksize: int | None = None, rules: str | None = None) -> Iterator[JobOutcome]:
    """Resolve many combats; yield one :class:`JobOutcome` per job, in input order.

    :param jobs: scenario file paths, :class:`~redzone.formats.scenario.Scenario`
        objects, or ``(state, decisions)`` pairs (``decisions``: the keyword
        arguments of :meth:`redzone.Engine.resolve`, e.g. ``{"attacks": ...,
        "blocks": ...}``). A file is read by the worker that runs it (on a
        cluster, give paths every worker can read, or Scenario objects).
    :param executor: ``None`` to run here, one job after another; or any
        :class:`concurrent.futures.Executor` (a process pool, a Dask
        ``distributed.Client`` or its ``get_executor()``, a
        :class:`RayExecutor`).
    :param engine: the engine of ``(state, decisions)`` jobs, and the plugin
        set files are read with (each file's rules edition applies); default
        :func:`~redzone.formats.outcome.command_engine`, the engine of
        ``redzone run``: verify mode on, so a plugin that changes the state it
        is given fails its job naming itself. A given engine keeps its own
        verify mode, here and on every worker. A Scenario is resolved with its
        own engine's plugins.
    :param chunksize: jobs per chunk sent to a worker (default: about four
        chunks per worker, at most :data:`MAX_CHUNK` jobs each).
    :param rules: a rules edition overriding each file's ``rules`` key (as
        ``redzone run --rules``); files only. An unknown edition is each
        file's bad-scenario outcome.
    :raises BatchError: before any job runs, for an engine a worker can't
        rebuild by name. A job of an unknown kind, or decisions with unknown
        keys, is a ``bad_job`` outcome (status 2).

    A job whose worker is lost (killed, out of memory) is sent again, alone;
    if it is lost again, its outcome is a ``worker_lost`` error (status 3). A
    :class:`~concurrent.futures.ProcessPoolExecutor` that breaks is replaced
    by a new pool of the same size for the rest of the batch (shut down at
    the end; the caller's pool stays broken).
    """
    engine = engine if engine is not None else command_engine()
    planner = _Planner(engine, rules)
    if executor is None:
        return _serial(jobs, planner)
    return _parallel(jobs, planner, as_executor(executor), chunksize)


def _serial(jobs: Iterable[Job], planner: _Planner) -> Iterator[JobOutcome]:
    """Here, one job after another, with the caller's engines themselves."""
    engine = planner.engine
    others: dict[str, Engine] = {}

    def for_file(rules: str) -> Engine:
        if rules == engine.rules:
            return engine
        if rules not in others:
            others[rules] = build_engine(planner.spec.for_rules(rules))
        return others[rules]

    for index, job in enumerate(jobs):
        if isinstance(job, str | os.PathLike):
            path = os.fspath(job)
            yield _run(index, path, lambda path=path: build_scenario(  # type: ignore[misc]
                read_document(path), rules=planner.rules, engine_factory=for_file))
        elif isinstance(job, Scenario):
            yield _run(index, job.file, lambda job=job: job)  # type: ignore[misc]
        else:
            payload = planner.payload(index, job, spec=False)
            if isinstance(payload, _BadJob):
                yield _bad(index, payload)
                continue
            assert isinstance(payload, _ScenarioJob)
            yield _run(index, payload.file,
                       lambda p=payload: _scenario_of(p, engine))  # type: ignore[misc]


def _parallel(jobs: Iterable[Job], planner: _Planner, executor: cf.Executor,
              chunksize: int | None) -> Iterator[JobOutcome]:
    workers = worker_count(executor)
    size = chunksize or 0
    window = max(2, 2 * workers)
    owned: list[cf.Executor] = []
    state = {"executor": executor}
    it = iter(enumerate(jobs))
    pending: deque[tuple[list[tuple[int, _Payload]], cf.Future[list[_Wire]]]] = deque()

    def submit(chunk: list[tuple[int, _Payload]]) -> cf.Future[list[_Wire]]:
        try:
            return state["executor"].submit(run_chunk, chunk)
        except cf.BrokenExecutor:
            state["executor"] = _replace(state["executor"], owned)
            return state["executor"].submit(run_chunk, chunk)

    def fill() -> bool:
        nonlocal size
        if size == 0:
            # Look ahead to choose a chunk size: about four chunks per worker.
            head = list(itertools.islice(it, MAX_CHUNK * 4 * workers))
            size = max(1, min(MAX_CHUNK, -(-len(head) // (4 * workers))))
            buffered.extend(head)
        chunk: list[tuple[int, _Payload]] = []
        while len(chunk) < size:
            if buffered:
                index, job = buffered.popleft()
            else:
                nxt = next(it, None)
                if nxt is None:
                    break
                index, job = nxt
            chunk.append((index, planner.payload(index, job)))
        if chunk:
            pending.append((chunk, submit(chunk)))
        return bool(chunk)

    buffered: deque[tuple[int, Any]] = deque()
    try:
        while len(pending) < window and fill():
            pass
        while pending:
            chunk, future = pending.popleft()
            try:
                results = [from_wire(t) for t in future.result()]
            except Exception as exc:
                results = _retry(chunk, exc, submit)
            yield from results
            while len(pending) < window and fill():
                pass
    finally:
        for ex in owned:
            ex.shutdown(wait=False, cancel_futures=True)


def _replace(executor: cf.Executor, owned: list[cf.Executor]) -> cf.Executor:
    """A new process pool like a broken one."""
    if not isinstance(executor, cf.ProcessPoolExecutor):
        raise cf.BrokenExecutor(f"the executor {type(executor).__name__} is broken")
    ctx = getattr(executor, "_mp_context", None)
    new = cf.ProcessPoolExecutor(max_workers=worker_count(executor), mp_context=ctx)
    owned.append(new)
    return new


def _retry(chunk: list[tuple[int, _Payload]], exc: BaseException,
           submit: Callable[[list[tuple[int, _Payload]]], cf.Future[list[_Wire]]]
           ) -> list[JobOutcome]:
    """Send each job of a lost chunk again, alone; a job lost twice is reported
    (a job that can't be pickled, as a :data:`BAD_JOB`: nothing was lost)."""
    futures: list[tuple[int, _Payload, cf.Future[list[_Wire]] | BaseException]] = []
    for index, payload in chunk:
        try:
            futures.append((index, payload, submit([(index, payload)])))
        except Exception as again:
            futures.append((index, payload, again))
    out: list[JobOutcome] = []
    for index, payload, fut in futures:
        try:
            if isinstance(fut, BaseException):
                raise fut
            out.extend(evolve(from_wire(t), retried=1) for t in fut.result())
        except Exception as lost:
            source = (payload.path if isinstance(payload, _FileJob) else
                      payload.file if isinstance(payload, _ScenarioJob) else payload.source)
            unsendable = _unpicklable(payload)
            if unsendable:
                out.append(evolve(_bad(index, _BadJob(source, (
                    f"job {index} can't be sent to a worker: {unsendable}"))), retried=1))
                continue
            message = (f"the worker running this job was lost twice ({type(exc).__name__}: "
                       f"{exc}; then {type(lost).__name__}: {lost})")
            outcome = {"ok": False, "error": {"kind": WORKER_LOST, "rule": "",
                                              "message": message, "objects": []}}
            out.append(JobOutcome(index, source, EXIT_FAILURE, _compact(outcome), retried=1))
    return out


def _unpicklable(payload: _Payload) -> str:
    """Why a job can't be pickled (a lambda, a lock in its decisions), or ``""``."""
    try:
        pickle.dumps(payload)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""


# ---------------------------------------------------------------------------
# Files and folders
# ---------------------------------------------------------------------------

#: The file names a folder is searched for.
SCENARIO_SUFFIXES: Final = (".toml", ".json")


def scenario_files(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The scenario files named: files as given, folders searched recursively
    for ``*.toml`` and ``*.json`` (``*.expected.json`` outcome files left
    out), sorted; in the order given."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*") if f.is_file()
                           and f.suffix in SCENARIO_SUFFIXES
                           and not f.name.endswith(".expected.json"))
            out.extend(str(f) for f in found)
        else:
            out.append(str(path))
    return out


# ---------------------------------------------------------------------------
# What-if: every legal block of one board
# ---------------------------------------------------------------------------


@frozen
class WhatIf:
    """One legal declaration of blockers and how it scored.

    :param blocks: the declaration.
    :param outcome: its outcome.
    :param score: what the caller's function gave it.
    """

    blocks: FrozenMap[str, tuple[str, ...]]
    outcome: JobOutcome
    score: Any


def what_if_blocks(state: GameState, attacks: Mapping[str, str],
                   score: Callable[[JobOutcome], Any], *, engine: Engine | None = None,
                   executor: Any = None, chunksize: int | None = None,
                   **decisions: Any) -> list[WhatIf]:
    """Resolve one board under every legal declaration of blockers (509.1,
    enumerated by :meth:`redzone.Engine.legal_block_declarations`) through
    :func:`simulate`, each outcome scored by ``score``; best score first
    (ties in enumeration order).

    :param state: the board before combat.
    :param attacks: the declaration of attackers.
    :param score: outcome -> a sortable score (higher is better).
    :param decisions: other keyword arguments of :meth:`redzone.Engine.resolve`
        (``assign``, ``actions``...), the same for every declaration.
    """
    engine = engine if engine is not None else Engine()
    begun = engine.begin_combat(state).state
    declared = engine.declare_attackers(begun, attacks).state
    if engine.next_step(declared) == "declare_blockers":
        options = list(engine.legal_block_declarations(declared))
    else:
        options = [FrozenMap()]
    jobs = [(state, {**decisions, "attacks": dict(attacks), "blocks": dict(b)})
            for b in options]
    outs = simulate(jobs, executor=executor, engine=engine, chunksize=chunksize)
    scored = [WhatIf(b, o, score(o)) for b, o in zip(options, outs, strict=True)]
    order = sorted(range(len(scored)), key=lambda i: scored[i].score, reverse=True)
    return [scored[i] for i in order]


__all__ = [
    "BAD_JOB",
    "MAX_CHUNK",
    "SCENARIO_SUFFIXES",
    "WORKER_LOST",
    "WORKER_SETUP",
    "BatchError",
    "EngineSpec",
    "JobOutcome",
    "RayExecutor",
    "WhatIf",
    "WorkerSetupError",
    "as_executor",
    "build_engine",
    "from_wire",
    "run_chunk",
    "scenario_files",
    "signature",
    "simulate",
    "to_wire",
    "what_if_blocks",
    "worker_engine",
]
