"""Jobs and their outcomes: what a batch is made of, and what travels.

A job is a scenario file path, a :class:`~redzone.formats.scenario.Scenario`,
or a ``(state, decisions)`` pair. In the caller's process each job becomes a
payload that holds no engine (a file's name and bytes, read by the caller as
its chunk is sent, a scenario's fields, the
:class:`~redzone.execution.engines.EngineSpec` of its engine); a worker runs
payloads with :func:`run_chunk` and sends each :class:`JobOutcome` back as a
plain tuple. A job that fails (an illegal declaration, a bad file, a failing
plugin, a worker that can't rebuild the engine) gives an outcome with its
error as a value.
"""

from __future__ import annotations

import inspect
import json
import os
import reprlib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TypeAlias

import attrs
from attrs import field, frozen

from redzone.execution.engines import (
    BatchError,
    EngineSpec,
    WorkerSetupError,
    _entry_point_names,
    _here,
    worker_engine,
)
from redzone.execution.faults import TIMEOUT, Limit, time_limit
from redzone.formats.document import (
    Document,
    ScenarioProblems,
    document_of_bytes,
    read_scenario_bytes,
)
from redzone.formats.outcome import (
    EXIT_BAD_SCENARIO,
    EXIT_FAILURE,
    dumps,
    error_json,
    exit_status,
    outcome_json,
    resolve,
)
from redzone.formats.scenario import Scenario
from redzone.formats.scenario import build as build_scenario
from redzone.kernel.combat import normalise_blocks
from redzone.kernel.editions import EDITIONS
from redzone.kernel.engine import Engine
from redzone.kernel.errors import ScenarioError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState

#: Kinds of outcome beyond the scenario format's error kinds.
WORKER_LOST: Final = "worker_lost"
WORKER_SETUP: Final = "worker_setup"


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
    """A scenario file as it travels: its name as the caller gave it, and its
    bytes, read by the caller (a worker never resolves the path: on a cluster
    its folder and disks are not the caller's); or why they couldn't be read."""

    path: str
    specs: tuple[tuple[str, EngineSpec], ...]
    rules: str | None = None
    content: bytes | None = None
    unreadable: str = ""
    failure: Exception | None = None

    @classmethod
    def read(cls, path: str, specs: tuple[tuple[str, EngineSpec], ...],
             rules: str | None) -> _FileJob:
        """The job of the file at ``path``, read here; a file that can't be
        read is a job whose worker reports it, as a serial run would."""
        try:
            return cls(path, specs, rules, read_scenario_bytes(path))
        except ScenarioProblems as exc:  # the outcome of reading it, as read_document's
            return cls(path, specs, rules, None, exc.problems[0].detail)
        except Exception as exc:  # a path the system refuses (a NUL in it): internal_error
            return cls(path, specs, rules, None, failure=exc)

    def document(self) -> Document:
        """The parsed file, as :func:`~redzone.formats.scenario.read_document`
        gives it for the same bytes (every error naming :attr:`path`)."""
        if self.failure is not None:
            raise self.failure
        if self.content is None:
            raise ScenarioProblems([ScenarioError(self.unreadable, file=self.path)])
        return document_of_bytes(self.content, file=self.path)


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

    .. versionadded:: 0.1.0
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


def _run(index: int, source: str, make: Callable[[], Scenario],
         timeout: float | None = None) -> JobOutcome:
    """Build a job's scenario and resolve it, within ``timeout`` seconds;
    every error becomes the outcome."""
    start = time.perf_counter()
    keywords: tuple[str, ...] = ()
    limit = Limit(None)
    try:
        with time_limit(timeout) as limit:
            scenario = make()
            keywords = _keywords_of(scenario.state)
            resolution = resolve(scenario)
    except Exception as exc:  # a bad file, a failing plugin, a worker that can't build
        if limit.fired:
            return _timed_out(index, source, exc, timeout, keywords, start)
        return _done(index, source, exc, error_json(exc), keywords, start)
    return _done(index, source, resolution.error, outcome_json(resolution), keywords, start)


def _timed_out(index: int, source: str, exc: BaseException, timeout: float | None,
               keywords: tuple[str, ...], start: float) -> JobOutcome:
    """The outcome of a job cut at its time limit (``kind`` :data:`TIMEOUT`,
    status 3), naming the plugin that was answering when it was cut."""
    plugin = getattr(exc, "plugin", None) or None
    where = (f" while plugin {plugin!r} was answering {getattr(exc, 'hook', '')}".rstrip()
             if plugin else "")
    message = f"the job ran past its time limit of {timeout:g} s and was cut{where}"
    outcome = {"ok": False, "error": {"kind": TIMEOUT, "rule": None, "message": message,
                                      "objects": [], **({"plugin": plugin} if plugin else {})}}
    return JobOutcome(index, source, EXIT_FAILURE, _compact(outcome), keywords,
                      time.perf_counter() - start, _here())


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
    outcome = {"ok": False, "error": {"kind": BAD_JOB, "rule": None, "message": payload.message,
                                      "objects": []}}
    return JobOutcome(index, payload.source, EXIT_BAD_SCENARIO, _compact(outcome),
                      worker=_here())


def _run_payload(index: int, payload: _Payload, timeout: float | None = None) -> JobOutcome:
    if isinstance(payload, _BadJob):
        return _bad(index, payload)
    if isinstance(payload, _FileJob):
        specs = dict(payload.specs)
        return _run(index, payload.path, lambda: build_scenario(
            payload.document(), rules=payload.rules,
            engine_factory=lambda r: worker_engine(specs[r])), timeout)
    return _run(index, payload.file,
                lambda: _scenario_of(payload, worker_engine(payload.spec)), timeout)


_Wire: TypeAlias = "tuple[int, str, int, str, tuple[str, ...], float, str, int]"


def run_chunk(chunk: Sequence[tuple[int, _Payload]],
              timeout: float | None = None) -> list[_Wire]:
    """Run a chunk of jobs on this worker (the function executors are given),
    each within ``timeout`` seconds (:mod:`redzone.execution.faults`).

    The outcomes travel back as plain tuples (:func:`from_wire` makes them
    :class:`JobOutcome` again): unpickling them costs the caller less."""
    return [to_wire(_run_payload(i, p, timeout)) for i, p in chunk]


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
            return _FileJob.read(os.fspath(job), self.family(), self.rules)
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


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"true or false is wanted, got {type(value).__name__}")
    return value


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
    "turns": (_sequence, ()),
    "first_turn": (_flag, False),
    "through": (lambda v: v, "end_of_combat"),
    "choices": (lambda v: FrozenMap((k, (c,) if isinstance(c, str) else _sequence(c))
                                    for k, c in _mapping(v).items()), FrozenMap()),
}
assert set(_DECISIONS) == _DECISION_KEYS, "a resolve argument has no conversion"


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


__all__ = [
    "BAD_JOB",
    "SCENARIO_SUFFIXES",
    "WORKER_LOST",
    "WORKER_SETUP",
    "Decisions",
    "Job",
    "JobOutcome",
    "from_wire",
    "run_chunk",
    "scenario_files",
    "to_wire",
]
