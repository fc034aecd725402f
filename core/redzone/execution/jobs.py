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

import importlib
import inspect
import io
import itertools
import json
import os
import pickle
import reprlib
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Generic, TypeAlias

import attrs
from attrs import field, frozen

from redzone.execution.engines import (
    BatchError,
    EngineSpec,
    WorkerSetupError,
    _here,
    spec_of,
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
    combat_outcome_json,
    dumps,
    error_json,
    exit_status,
)
from redzone.formats.scenario import Scenario, read_document
from redzone.formats.scenario import build as build_scenario
from redzone.kernel.combat import normalise_blocks
from redzone.kernel.editions import EDITIONS
from redzone.kernel.engine import Engine
from redzone.kernel.errors import IllegalActionError, ScenarioError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState
from redzone.kernel.tx import CombatResult

if TYPE_CHECKING:
    from typing_extensions import TypeVar
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


#: The decisions a :class:`MidCombat` job may hold: those of
#: :meth:`redzone.Engine.resolve` but ``first_turn`` (a state in a combat is
#: not at the start of the game's first turn, 500.1).
_REST_KEYS: Final = tuple(sorted(_DECISION_KEYS - {"first_turn"}))


@frozen
class MidCombat:
    """A job that starts in the middle of a combat: ``state`` is at the
    beginning of combat, declare attackers or declare blockers step (or
    after a combat damage step), and the rest of that combat is resolved
    with :meth:`redzone.Engine.resolve` (what
    :func:`~redzone.execution.whatif.what_if` sends for a state in combat).

    :param state: the state in the middle of a combat.
    :param decisions: keyword arguments of
        :meth:`redzone.Engine.resolve` (``attacks`` only
        from the beginning of combat step, ``blocks`` only before blockers
        are declared; any other but ``first_turn``: the rest of the turn,
        its additional combats and later turns too).

    .. versionadded:: 0.1.0
    """

    state: GameState
    decisions: Mapping[str, Any]


#: Why a path with a NUL character is no scenario file: no file name holds one.
NUL_NAME: Final = "no such file: its name has a NUL character, which no file name can hold"


def read_named(path: str) -> Document:
    """The scenario file at ``path``, read as
    :func:`~redzone.formats.scenario.read_document` reads it; a path with a
    NUL character in it is a bad scenario naming it (:data:`NUL_NAME`), as
    a job read by the caller for an executor is (the system refuses such a
    path with a ``ValueError``).

    :raises ScenarioProblems: for a file that can't be read or parsed.
    """
    if "\0" in path:
        raise ScenarioProblems([ScenarioError(NUL_NAME, file=path)])
    return read_document(path)


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
        if "\0" in path:
            return cls(path, specs, rules, None, NUL_NAME)
        try:
            return cls(path, specs, rules, read_scenario_bytes(path))
        except ScenarioProblems as exc:  # the outcome of reading it, as read_document's
            return cls(path, specs, rules, None, exc.problems[0].detail)
        except Exception as exc:  # a path the system refuses otherwise: internal_error
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
    #: resolved from the middle of a combat (:class:`MidCombat`)
    rest: bool = False

    @property
    def file(self) -> str:
        return str(dict(self.fields)["file"])


@frozen
class _BadJob:
    source: str
    message: str


@frozen
class _PairJob:
    """A ``(state, decisions)`` job (or a :class:`MidCombat`) as it travels:
    the decisions as the caller gave them, checked and converted where the
    job runs (:meth:`converted`), so that the caller's cost per job is
    sending it, not converting it."""

    index: int
    state: GameState
    decisions: Any
    rules: str
    spec: EngineSpec
    #: resolved from the middle of a combat (:class:`MidCombat`)
    rest: bool = False

    @property
    def file(self) -> str:
        return f"<job {self.index}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # A tuple of the fields: a slotted class's own pickling is a Python
        # dict of them, made for every job a batch sends.
        return (_PairJob, (self.index, self.state, self.decisions, self.rules, self.spec,
                           self.rest))

    def converted(self) -> _ScenarioJob | _BadJob:
        """The job with its decisions checked and converted to the fields of
        :meth:`redzone.Engine.resolve` (those of a :class:`MidCombat`, with
        ``rest``); a mapping with
        unknown keys, or a value of the wrong type or shape, is a bad job
        naming the key."""
        index, decisions, rest = self.index, self.decisions, self.rest
        keys = frozenset(_REST_KEYS) if rest else _DECISION_KEYS
        if not isinstance(decisions, Mapping) or set(decisions) - keys:
            bad = sorted(set(decisions) - keys) if isinstance(decisions, Mapping) else decisions
            return _BadJob(self.file, f"job {index}: the decisions must be a mapping with keys "
                           f"among {', '.join(sorted(keys))}, not {bad!r}")
        fields: dict[str, Any] = {"file": self.file, "rules": self.rules, "state": self.state}
        for key, (convert, default) in _DECISIONS.items():
            if rest and key not in keys:
                continue
            value = decisions.get(key)
            try:
                fields[key] = default if value is None else convert(value)
            except Exception as exc:  # any value of the wrong type or shape
                return _BadJob(self.file, f"job {index}: decisions[{key!r}] = "
                               f"{reprlib.repr(value)} is not what Engine.resolve takes "
                               f"({exc})")
        return _ScenarioJob(tuple(fields.items()), self.spec, rest)


_Payload: TypeAlias = "_FileJob | _ScenarioJob | _PairJob | _BadJob"

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


#: The outcomes a batch can give for each job: ``json``, the full JSON
#: outcome (:class:`JobOutcome`), or ``light`` (:class:`LightOutcome`).
OUTCOMES: Final = ("json", "light")

_NO_MAP: Final[FrozenMap[str, int]] = FrozenMap()


@frozen
class LightOutcome:
    """What a search needs of one job, built from the engine's result
    directly, without the JSON outcome (``simulate(..., outcome="light")``).

    :param index: the job's place in the input, from 0.
    :param source: the file, or ``<job N>``.
    :param status: as :attr:`JobOutcome.status`: 0 resolved, 1 illegal, 2 bad
        scenario file or bad job, 3 a plugin (or redzone, or the worker) failed.
    :param kind: ``resolved``, or the error's kind, as :attr:`JobOutcome.kind`.
    :param lives: player -> life total after the combat (119), in the
        state's player order; empty unless resolved.
    :param poison: player -> poison counters after the combat (122.1f).
    :param deaths: the permanents on the battlefield in the job's state that
        are not on it after the combat (they died, were exiled, bounced, or
        were tokens that ceased to exist, 704.5d), or are on it as a new
        object (400.7: one destroyed by lethal damage, 704.5g, and returned
        by undying or persist; its id is the same, its
        :attr:`~redzone.kernel.model.Permanent.object` number is not), in
        the state's order.
    :param game_over: whether the game ended (104).
    :param winners: the players who won, when it ended.
    :param losers: the players who lost.
    :param draw: whether the game is a draw (104.4a).
    :param message: the error's message, ``""`` when resolved.
    :param retried: how many times the job was sent again after its worker
        was lost (or hung), as :attr:`JobOutcome.retried`.

    .. versionadded:: 0.1.0
    """

    index: int
    source: str
    status: int
    kind: str
    lives: FrozenMap[str, int] = _NO_MAP
    poison: FrozenMap[str, int] = _NO_MAP
    deaths: tuple[str, ...] = ()
    game_over: bool = False
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    draw: bool = False
    message: str = ""
    retried: int = field(default=0, eq=False)

    @property
    def ok(self) -> bool:
        """Whether the combat resolved."""
        return self.status == 0

    @classmethod
    def of_result(cls, index: int, source: str, before: GameState,
                  after: GameState) -> LightOutcome:
        """The light outcome of a resolved combat.

        :param before: the job's state.
        :param after: the state after the combat (:attr:`redzone.CombatResult.state`).
        :returns: the outcome, status 0.
        """
        players = after.players.values()
        objects = after.objects
        # One back on the battlefield under its id is a new object (400.7):
        # its number has changed, and the permanent of the job's state is gone.
        deaths = tuple(i for i, p in before.objects.items() if p.zone == "battlefield" and (
            (q := objects.get(i)) is None or q.zone != "battlefield" or q.object != p.object))
        over = after.game_over
        if over is None:
            return cls(index, source, 0, "resolved", FrozenMap((p.id, p.life) for p in players),
                       FrozenMap((p.id, p.poison) for p in players), deaths)
        return cls(index, source, 0, "resolved", FrozenMap((p.id, p.life) for p in players),
                   FrozenMap((p.id, p.poison) for p in players), deaths, True,
                   tuple(over.winners), tuple(over.losers), bool(over.draw))

    @classmethod
    def of_failure(cls, outcome: JobOutcome) -> LightOutcome:
        """The light outcome of a job that failed, from its full outcome.

        :param outcome: the failed job's outcome.
        :returns: its index, source, status, kind, message and retries.
        """
        error = outcome.outcome.get("error") or {}
        return cls(outcome.index, outcome.source, outcome.status, outcome.kind,
                   message=str(error.get("message", "")), retried=outcome.retried)

    def to_wire(self) -> tuple[Any, ...]:
        """The outcome as a plain tuple (:meth:`from_wire` makes it again).

        :returns: its fields, the maps as tuples of pairs.
        """
        return (self.index, self.source, self.status, self.kind, tuple(self.lives.items()),
                tuple(self.poison.items()), self.deaths, self.game_over, self.winners,
                self.losers, self.draw, self.message, self.retried)

    @classmethod
    def from_wire(cls, t: Sequence[Any]) -> LightOutcome:
        """The outcome from :meth:`to_wire`'s tuple.

        :param t: the tuple.
        :returns: the outcome.
        """
        return cls(t[0], t[1], t[2], t[3], FrozenMap(t[4]), FrozenMap(t[5]), *t[6:])


#: What a score function returns: what a :class:`Scored` and a
#: :class:`Reduced` carry (``Any`` when not said, so a bare ``Scored`` is
#: ``Scored[Any]``).
if TYPE_CHECKING:
    S = TypeVar("S", default=Any)  # (a default: Python 3.13's TypeVar, for checkers only)
else:
    from typing import TypeVar

    S = TypeVar("S")


@frozen
class Scored(Generic[S]):
    """What a job's score gave (``simulate(..., score=f)``), with what says
    whether the job failed.

    :param index: the job's place in the input, from 0.
    :param source: the file, or ``<job N>``.
    :param status: the job's status (0 resolved), as :attr:`JobOutcome.status`.
    :param kind: ``resolved``, or the error's kind.
    :param value: what the score function returned for the job's outcome
        (for a failed job too: the function is given every outcome).
    :param message: the error's message, ``""`` when resolved.
    :param retried: how many times the job was sent again after its worker
        was lost (or hung), as :attr:`JobOutcome.retried`.

    .. versionadded:: 0.1.0
    """

    index: int
    source: str
    status: int
    kind: str
    value: S
    message: str = ""
    retried: int = field(default=0, eq=False)

    @property
    def ok(self) -> bool:
        """Whether the combat resolved."""
        return self.status == 0


@frozen
class Reduced(Generic[S]):
    """What a batch reduced to one value gave (``simulate(..., score=f,
    reduce=g)``).

    :param value: the reduction of every job's score, in input order (the
        ``initial`` value first, when one was given).
    :param jobs: how many jobs were scored.
    :param kinds: how many jobs ended each way: ``resolved``, or an error's
        kind (``illegal_block``, ``plugin_error``, ``worker_lost``...).

    .. versionadded:: 0.1.0
    """

    value: S
    jobs: int
    kinds: FrozenMap[str, int]

    @property
    def failed(self) -> int:
        """How many jobs did not resolve."""
        return self.jobs - self.kinds.get("resolved", 0)


class ScoreError(BatchError):
    """A batch's score or reduce function failed, or can't be used: raised
    on the caller, naming the job (or the first job of the chunk) it failed
    on. Nothing else of the batch is given back.

    :param message: what failed, and on which job.
    :param index: the job's index (``None`` when no job is concerned).
    :param source: the job's source, ``""`` when none.

    .. versionadded:: 0.1.0
    """

    def __init__(self, message: str, index: int | None = None, source: str = "") -> None:
        super().__init__(message)
        self.index = index
        self.source = source


@frozen
class _Failed:
    """A score or reduce function that raised on a worker: sent back as a
    value (an exception would look like a lost worker)."""

    index: int
    source: str
    message: str


@frozen
class _Partial:
    """One chunk's reduction: the value, how many jobs, and their kinds."""

    value: Any
    jobs: int
    kinds: tuple[tuple[str, int], ...]
    first: int = 0
    source: str = ""


def _message(outcome: JobOutcome | LightOutcome) -> str:
    if outcome.status == 0:
        return ""
    if isinstance(outcome, LightOutcome):
        return outcome.message
    error = outcome.outcome.get("error") or {}
    return str(error.get("message", ""))


def _raised(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


@frozen
class Query:
    """What a worker gives back for each job: its outcome (``json`` or
    ``light``), or only what ``score`` returns for it, or one reduction of
    the scores of its chunk by ``reduce``. Both functions travel by
    reference: module-level functions (or other picklable callables).

    :param outcome: ``json`` or ``light`` (:data:`OUTCOMES`).
    :param score: outcome -> anything picklable, or ``None``.
    :param reduce: ``(a, b) -> a`` combining two scores (or reductions), or
        ``None``; needs ``score``.

    .. versionadded:: 0.1.0
    """

    outcome: str = "json"
    score: Callable[[Any], Any] | None = None
    reduce: Callable[[Any, Any], Any] | None = None

    @property
    def light(self) -> bool:
        """Whether the light outcome is given."""
        return self.outcome == "light"

    def run(self, chunk: Sequence[tuple[int, _Payload]],
            timeout: float | None = None) -> list[Any]:
        """Run a chunk of jobs (on a worker) and give what travels back.

        :returns: plain tuples, or one :class:`_Partial` with ``reduce``; a
            function that raised gives a :class:`_Failed` instead.
        """
        return self.finish([_payload_outcome(i, p, timeout, self.light) for i, p in chunk])

    def finish(self, outs: Sequence[JobOutcome | LightOutcome]) -> list[Any]:
        """What travels back for these outcomes (scored, reduced)."""
        if self.score is None:
            return [to_wire(o) if isinstance(o, JobOutcome) else o.to_wire() for o in outs]
        scored: list[tuple[int, str, int, str, Any, str, int]] = []
        for o in outs:
            try:
                value = self.score(o)
            except Exception as exc:  # the caller's function: its error, named
                return [_Failed(o.index, o.source, f"the score function {_name(self.score)} "
                                f"raised on job {o.index} ({o.source}): {_raised(exc)}")]
            scored.append((o.index, o.source, o.status, o.kind, value, _message(o), o.retried))
        if self.reduce is None or not scored:
            return scored
        value = scored[0][4]
        for t in scored[1:]:
            try:
                value = self.reduce(value, t[4])
            except Exception as exc:
                return [_Failed(t[0], t[1], f"the reduce function {_name(self.reduce)} "
                                f"raised on job {t[0]} ({t[1]}): {_raised(exc)}")]
        kinds: dict[str, int] = {}
        for t in scored:
            kinds[t[3]] = kinds.get(t[3], 0) + 1
        return [_Partial(value, len(scored), tuple(kinds.items()), scored[0][0], scored[0][1])]

    def decode(self, wires: Sequence[Any]) -> Iterator[Any]:
        """What a worker sent back, as the caller gives it: :class:`JobOutcome`,
        :class:`LightOutcome`, :class:`Scored` or :class:`_Partial` values,
        each made as it is taken (so that a chunk's outcomes are not all
        alive at once, for the garbage collector to walk and promote).

        :raises ScoreError: when a function raised on the worker (before
            any value is given).
        """
        for w in wires:
            if isinstance(w, _Failed):
                raise ScoreError(w.message, w.index, w.source)
        if self.score is None:
            return map(LightOutcome.from_wire if self.light else from_wire, wires)
        if self.reduce is None:
            return itertools.starmap(Scored, wires)
        return iter(wires)

    def local(self, outcome: JobOutcome) -> list[Any]:
        """The caller's own answer for a job whose outcome it made (a lost
        worker, a job that can't be sent), as a worker would have given it."""
        return list(self.decode(self.finish([LightOutcome.of_failure(outcome) if self.light
                                             else outcome])))


def _name(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__qualname__", None) or repr(fn))


def _keywords_of(state: GameState) -> tuple[str, ...]:
    return tuple(sorted({k.name for p in state.objects.values() for k in p.keywords}))


@frozen
class _Combat:
    """What a worker resolves for one job: the engine, the rules edition of
    the outcome, the state and the keyword arguments of
    :meth:`redzone.Engine.resolve`, from the middle of a combat too."""

    engine: Engine
    rules: str
    state: GameState
    kwargs: Mapping[str, Any]

    @classmethod
    def of_scenario(cls, scenario: Scenario) -> _Combat:
        return cls(scenario.engine, scenario.rules, scenario.state,
                   {k: getattr(scenario, k) for k in _DECISION_KEYS})

    def resolve(self) -> CombatResult:
        return self.engine.resolve(self.state, **self.kwargs)


def _run(index: int, source: str, make: Callable[[], Scenario],
         timeout: float | None = None) -> JobOutcome:
    """Build a job's scenario and resolve it, within ``timeout`` seconds;
    every error becomes the outcome."""
    outcome = _job(index, source, lambda: _Combat.of_scenario(make()), timeout)
    assert isinstance(outcome, JobOutcome)
    return outcome


def _job(index: int, source: str, make: Callable[[], _Combat], timeout: float | None = None,
         light: bool = False) -> JobOutcome | LightOutcome:
    """Build a job's combat and resolve it with :meth:`redzone.Engine.resolve`
    itself, within ``timeout`` seconds; every error becomes the outcome: the
    full one (:class:`JobOutcome`, the same JSON as the scenario format's
    :func:`~redzone.formats.outcome.resolve` gives), or with ``light`` the
    :class:`LightOutcome`."""
    start = time.perf_counter()
    keywords: tuple[str, ...] = ()
    limit = Limit(None)
    error: IllegalActionError | None = None
    result: CombatResult | None = None
    try:
        with time_limit(timeout) as limit:
            combat = make()
            if not light:
                keywords = _keywords_of(combat.state)
            try:
                result = combat.resolve()
            except IllegalActionError as exc:  # what the scenario resolver catches
                error = exc
    except Exception as exc:  # a bad file, a failing plugin, a worker that can't build
        out = (_timed_out(index, source, exc, timeout, keywords, start) if limit.fired else
               _done(index, source, exc, error_json(exc), keywords, start))
        return LightOutcome.of_failure(out) if light else out
    if light:
        if result is None:
            assert error is not None
            body = error_json(error)["error"]
            return LightOutcome(index, source, exit_status(error), str(body["kind"]),
                                message=str(body["message"]))
        return LightOutcome.of_result(index, source, combat.state, result.state)
    return _done(index, source, error, combat_outcome_json(combat.rules, result, error),
                 keywords, start)


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


def _combat_of(payload: _ScenarioJob, engine: Engine) -> _Combat:
    """A pair's or a Scenario's combat, without building a Scenario."""
    fields = dict(payload.fields)
    return _Combat(engine, fields["rules"], fields["state"],
                   {k: fields[k] for k in (_REST_KEYS if payload.rest else _DECISION_KEYS)})


def _run_payload(index: int, payload: _Payload, timeout: float | None = None) -> JobOutcome:
    return _full(_payload_outcome(index, payload, timeout))


def _warm(payload: _Payload) -> None:
    """Build (and keep, :func:`~redzone.execution.engines.worker_engine`) the
    engines a payload's job may need before its time limit starts: a
    worker's set-up (importing the plugins, building the engine, once per
    process) is not the job's time. A build that fails is left to the job,
    whose outcome reports it."""
    if isinstance(payload, _FileJob):  # its file's rules choose among these
        specs = [spec for _, spec in payload.specs]
    elif isinstance(payload, _ScenarioJob | _PairJob):
        specs = [payload.spec]
    else:
        return
    for spec in specs:
        try:
            worker_engine(spec)
        except Exception:  # reported by the job itself, as its outcome
            continue


def _payload_outcome(index: int, payload: _Payload, timeout: float | None = None,
                     light: bool = False) -> JobOutcome | LightOutcome:
    if isinstance(payload, _PairJob):
        payload = payload.converted()
    if timeout is not None:
        _warm(payload)
    if isinstance(payload, _BadJob):
        out = _bad(index, payload)
        return LightOutcome.of_failure(out) if light else out
    if isinstance(payload, _FileJob):
        specs = dict(payload.specs)
        return _job(index, payload.path, lambda: _Combat.of_scenario(build_scenario(
            payload.document(), rules=payload.rules,
            engine_factory=lambda r: worker_engine(specs[r]))), timeout, light)
    return _job(index, payload.file,
                lambda: _combat_of(payload, worker_engine(payload.spec)), timeout, light)


_Wire: TypeAlias = "tuple[int, str, int, str, tuple[str, ...], float, str, int]"


def run_chunk(chunk: Sequence[tuple[int, _Payload]], timeout: float | None = None,
              query: Query | None = None) -> list[Any]:
    """Run a chunk of jobs on this worker (the function executors are given),
    each within ``timeout`` seconds (:mod:`redzone.execution.faults`).

    Without ``query``, the outcomes travel back as plain tuples
    (:func:`from_wire` makes them :class:`JobOutcome` again): unpickling
    them costs the caller less. With one, what :meth:`Query.run` gives."""
    if query is None:
        return [to_wire(_run_payload(i, p, timeout)) for i, p in chunk]
    return query.run(chunk, timeout)


#: How many jobs of a chunk a :class:`Packer` pickles together, sharing what
#: they share (the engine's spec, names): the pickler keeps each object it
#: writes until told to forget them, and a thousand jobs' worth of them
#: alive at once made the caller's garbage collector walk and promote them,
#: and then walk the whole heap.
PACK_PART: Final = 64


class Packer:
    """Pickles the jobs of a chunk as they are given, :data:`PACK_PART` at a
    time, so that no more than a part's jobs are alive as objects: the
    chunk travels as the bytes :meth:`bytes` gives (:func:`unpack_jobs`
    reads them), which an executor sends as they are (a Dask scheduler
    neither walks nor unpickles them, nor keeps them as objects)."""

    __slots__ = ("_out", "_part", "_pickler")

    def __init__(self) -> None:
        self._out = io.BytesIO()
        self._pickler = pickle.Pickler(self._out, protocol=pickle.HIGHEST_PROTOCOL)
        self._part: list[tuple[int, _Payload]] = []

    def add(self, index: int, payload: _Payload) -> None:
        """Add a job.

        :raises Exception: what pickling raises, for a job that can't be
            sent (its part is then :meth:`unsent`).
        """
        self._part.append((index, payload))
        if len(self._part) >= PACK_PART:
            self._flush()

    def _flush(self) -> None:
        if self._part:
            at = self._out.tell()
            try:
                self._pickler.dump(self._part)
            except BaseException:
                # What the failed part wrote (a part larger than a frame is
                # written as it goes) is no job: the parts before it stay whole.
                self._out.seek(at)
                self._out.truncate()
                self._pickler.clear_memo()
                raise
            self._pickler.clear_memo()
            self._part = []

    def bytes(self) -> bytes:
        """The chunk as it travels.

        :raises Exception: what pickling raises, for a job that can't be sent.
        """
        self._flush()
        return self._out.getvalue()

    def unsent(self) -> list[tuple[int, _Payload]]:
        """Every job given, as objects (after pickling one failed)."""
        return unpack_jobs(self._out.getvalue()) + self._part


def pack(chunk: Sequence[tuple[int, _Payload]]) -> bytes:
    """A chunk of jobs as it travels (:class:`Packer`).

    :raises Exception: what pickling raises, for a job that can't be sent.
    """
    packer = Packer()
    for index, payload in chunk:
        packer.add(index, payload)
    return packer.bytes()


def unpack_jobs(work: bytes) -> list[tuple[int, _Payload]]:
    """The jobs of a chunk a :class:`Packer` made, in order."""
    source = io.BytesIO(work)
    jobs: list[tuple[int, _Payload]] = []
    while source.tell() < len(work):
        jobs += pickle.Unpickler(source).load()  # each part has its own memo
    return jobs


def pack_query(query: Query | None) -> bytes | None:
    """A batch's query as it travels, pickled once per batch: with
    cloudpickle where it is installed (Dask and Ray bring it), so that a
    score function defined in the script that runs (``__main__``) travels
    by value, as Dask and Ray send a function; else with :mod:`pickle`."""
    if query is None:
        return None
    try:
        cloudpickle: Any = importlib.import_module("cloudpickle")
    except ImportError:
        return pickle.dumps(query, protocol=pickle.HIGHEST_PROTOCOL)
    return bytes(cloudpickle.dumps(query, protocol=pickle.HIGHEST_PROTOCOL))


#: The queries a worker has unpickled, by their bytes (a batch sends one).
_QUERIES: dict[bytes, Query] = {}


def run_packed(chunk: bytes, timeout: float | None = None,
               query: bytes | None = None) -> bytes | list[Any]:
    """:func:`run_chunk` for a chunk :func:`pack` made and a query
    :func:`pack_query` made (unpickled once per worker and batch); what
    travels back is pickled here too, one object for the executor to send
    (Dask would send each outcome as a frame of its own), unless a score
    can't be pickled so (an instance of a class of the script that runs):
    then the list, for the executor's own pickling. :func:`unpack` reads
    either."""
    asked: Query | None = None
    jobs = unpack_jobs(chunk)
    if query is not None:
        asked = _QUERIES.get(query)
        if asked is None:
            try:
                asked = pickle.loads(query)
            except Exception as exc:
                # The batch's fault, not the chunk's: said once, not as lost workers.
                index, payload = jobs[0] if jobs else (-1, None)
                return pickle.dumps([_Failed(index, payload_source(payload), (
                    f"the batch's query (its outcome, score and reduce functions) can't be "
                    f"loaded on a worker: {type(exc).__name__}: {exc}; a function travels by "
                    "reference to its module, which the workers must be able to import "
                    "(a function of the script that runs travels by value)"))])
            if len(_QUERIES) >= 8:
                _QUERIES.clear()
            _QUERIES[query] = asked
    wires = run_chunk(jobs, timeout, asked)
    try:
        return pickle.dumps(wires, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # left to the executor's pickling (cloudpickle on a cluster)
        return wires


def payload_source(payload: _Payload | None) -> str:
    """A job's source, as its outcome names it (``""`` for no job)."""
    if payload is None:
        return ""
    return (payload.path if isinstance(payload, _FileJob) else
            payload.file if isinstance(payload, _ScenarioJob | _PairJob) else payload.source)


def unpack(result: bytes | list[Any]) -> list[Any]:
    """What :func:`run_packed` gave, as :func:`run_chunk` gives it."""
    if isinstance(result, bytes):
        wires: list[Any] = pickle.loads(result)
        return wires
    return result


def _full(outcome: JobOutcome | LightOutcome) -> JobOutcome:
    assert isinstance(outcome, JobOutcome)
    return outcome


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

    @property
    def spec(self) -> EngineSpec:
        if self._spec is None:
            self._spec = spec_of(self.engine)
        return self._spec

    def family(self) -> tuple[tuple[str, EngineSpec], ...]:
        if self._family is None:
            self._family = tuple((r, self.spec.for_rules(r)) for r in EDITIONS)
        return self._family

    def spec_of(self, engine: Engine) -> EngineSpec:
        return self.spec if engine is self.engine else spec_of(engine)

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
        rest = isinstance(job, MidCombat)
        if rest or (isinstance(job, tuple) and len(job) == 2 and isinstance(job[0], GameState)):
            state, decisions = (job.state, job.decisions) if isinstance(job, MidCombat) else job
            return _PairJob(index, state, decisions, self.engine.rules,
                            self.spec if spec else _NO_SPEC, rest)
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


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a str is wanted, got {type(value).__name__}")
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
    "through": (_text, "end_of_combat"),
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
    """The scenario files named: files as given (``os.fspath``, so that
    ``./boards/a.toml`` stays what ``redzone run`` and a job's key name),
    folders searched recursively for ``*.toml`` and ``*.json``
    (``*.expected.json`` outcome files left out), sorted; in the order given.

    :param paths: scenario files and folders.
    :returns: the files' paths.
    """
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*") if f.is_file()
                           and f.suffix in SCENARIO_SUFFIXES
                           and not f.name.endswith(".expected.json"))
            out.extend(str(f) for f in found)
        else:
            out.append(os.fspath(p))
    return out


__all__ = [
    "BAD_JOB",
    "NUL_NAME",
    "OUTCOMES",
    "SCENARIO_SUFFIXES",
    "WORKER_LOST",
    "WORKER_SETUP",
    "Decisions",
    "Job",
    "JobOutcome",
    "LightOutcome",
    "MidCombat",
    "Query",
    "Reduced",
    "ScoreError",
    "Scored",
    "from_wire",
    "pack",
    "pack_query",
    "read_named",
    "run_chunk",
    "run_packed",
    "scenario_files",
    "to_wire",
    "unpack",
]
