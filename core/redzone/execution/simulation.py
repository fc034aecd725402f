"""Batch simulation: many combats at once, in one process or on many.

:func:`simulate` resolves jobs (scenario files,
:class:`~redzone.formats.scenario.Scenario` objects, or ``(state, decisions)``
pairs, :mod:`redzone.execution.jobs`) and yields one
:class:`~redzone.execution.jobs.JobOutcome` per job, in input order. A job
that fails (an illegal declaration, a bad file, a failing plugin, a lost
worker) gives an outcome with its error as a value; nothing else is lost.

The work can go to any :class:`concurrent.futures.Executor`
(:mod:`redzone.execution.executors`). Jobs travel in chunks, so that the
per-job cost of the executor stays small; each worker rebuilds the engine by
name (:mod:`redzone.execution.engines`).

The caller's memory stays flat whatever the number of jobs: jobs are drawn
from the input as chunks are sent, at most a window of chunks (two per
worker) is in flight, and no outcome is kept once handed over. What a batch
does around its outcomes (a sink, resuming, progress) is
:class:`~redzone.execution.sinks.Recording`'s.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
import pickle
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final, Literal, overload

from attrs import evolve

from redzone.execution.engines import BatchError, build_engine
from redzone.execution.executors import (
    as_executor,
    cut,
    describe,
    live_workers,
    worker_count,
    worker_start,
)
from redzone.execution.faults import (
    LOST_AFTER,
    NO_LIMIT,
    TIMEOUT,
    ChunkHung,
    WorkersLost,
    chunk_deadline,
    wait_result,
)
from redzone.execution.jobs import (
    OUTCOMES,
    WORKER_LOST,
    Job,
    JobOutcome,
    LightOutcome,
    Packer,
    Query,
    Reduced,
    S,
    Scored,
    ScoreError,
    _bad,
    _BadJob,
    _Combat,
    _combat_of,
    _compact,
    _job,
    _PairJob,
    _Partial,
    _Payload,
    _Planner,
    _ScenarioJob,
    pack_query,
    payload_source,
    read_named,
    run_packed,
    unpack,
    unpack_jobs,
)
from redzone.execution.sinks import KeyOf, Progress, Recording, Sink, numbered
from redzone.formats.outcome import EXIT_FAILURE, command_engine
from redzone.formats.scenario import Scenario
from redzone.formats.scenario import build as build_scenario
from redzone.kernel.engine import Engine
from redzone.kernel.errors import BadQueryError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState

#: The most jobs in one chunk when the chunk size is chosen automatically,
#: on a local pool; a cluster's executor says its own
#: (:data:`~redzone.execution.executors.CLUSTER_CHUNK`). Each chunk costs the
#: caller a submission and a result's round trip: from 64 to 256 jobs, its
#: CPU per small job fell from 42 to 37 us on a pool of two.
MAX_CHUNK: Final = 256
#: The most jobs in each worker's first chunk when the chunk size is chosen
#: automatically: a batch's first results come after this many jobs, not
#: after a whole cluster-sized chunk.
FIRST_CHUNK: Final = 16


def chunk_limit(executor: Any) -> int:
    """The most jobs in one chunk the chunk size is chosen up to: the
    executor's ``max_chunk`` (a cluster's task costs the caller about ten
    times a local pool's: fewer, larger chunks), else :data:`MAX_CHUNK`."""
    most = getattr(executor, "max_chunk", None)
    return most if isinstance(most, int) and most > 0 else MAX_CHUNK


class _NoInitial:
    def __repr__(self) -> str:
        return "<no initial value>"

    def __reduce__(self) -> str:
        return "_NO_INITIAL"  # the one value, wherever it is unpickled


#: ``initial`` not given.
_NO_INITIAL: Final = _NoInitial()

#: What ``simulate`` gives without ``outcome``, ``score`` or ``reduce``.
_PLAIN: Final = Query()


# Each kind of outcome (the default "json", "light", a str chosen at run
# time) with what is handed over for it, to score=, sink= and progress=: the
# outcomes themselves, their scores, or one value reduced from the scores.
@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: Literal["json"] = ...,
             score: None = ..., reduce: None = ...,
             sink: str | os.PathLike[str] | Sink[JobOutcome] | None = ..., resume: bool = ...,
             key: KeyOf | None = ..., progress: Progress[JobOutcome] | None = ...,
             lost_after: float | None = ...) -> Iterator[JobOutcome]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: Literal["light"],
             score: None = ..., reduce: None = ...,
             sink: str | os.PathLike[str] | Sink[LightOutcome] | None = ..., resume: bool = ...,
             key: KeyOf | None = ..., progress: Progress[LightOutcome] | None = ...,
             lost_after: float | None = ...) -> Iterator[LightOutcome]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: str,
             score: None = ..., reduce: None = ...,
             sink: str | os.PathLike[str] | Sink[JobOutcome | LightOutcome] | None = ...,
             resume: bool = ...,
             key: KeyOf | None = ..., progress: Progress[JobOutcome | LightOutcome] | None = ...,
             lost_after: float | None = ...) -> Iterator[JobOutcome | LightOutcome]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: Literal["json"] = ...,
             score: Callable[[JobOutcome], S], reduce: None = ...,
             sink: str | os.PathLike[str] | Sink[Scored[S]] | None = ..., resume: bool = ...,
             key: KeyOf | None = ..., progress: Progress[Scored[S]] | None = ...,
             lost_after: float | None = ...) -> Iterator[Scored[S]]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: Literal["light"],
             score: Callable[[LightOutcome], S], reduce: None = ...,
             sink: str | os.PathLike[str] | Sink[Scored[S]] | None = ..., resume: bool = ...,
             key: KeyOf | None = ..., progress: Progress[Scored[S]] | None = ...,
             lost_after: float | None = ...) -> Iterator[Scored[S]]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: str,
             score: Callable[[JobOutcome | LightOutcome], S], reduce: None = ...,
             sink: str | os.PathLike[str] | Sink[Scored[S]] | None = ..., resume: bool = ...,
             key: KeyOf | None = ..., progress: Progress[Scored[S]] | None = ...,
             lost_after: float | None = ...) -> Iterator[Scored[S]]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: Literal["json"] = ...,
             score: Callable[[JobOutcome], S], reduce: Callable[[S, S], S],
             initial: S = ..., lost_after: float | None = ...) -> Reduced[S]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: Literal["light"],
             score: Callable[[LightOutcome], S], reduce: Callable[[S, S], S],
             initial: S = ..., lost_after: float | None = ...) -> Reduced[S]: ...


@overload
def simulate(jobs: Iterable[Job], *, executor: Any = ..., engine: Engine | None = ...,
             chunksize: int | None = ..., rules: str | None = ...,
             timeout: float | None = ..., outcome: str,
             score: Callable[[JobOutcome | LightOutcome], S], reduce: Callable[[S, S], S],
             initial: S = ..., lost_after: float | None = ...) -> Reduced[S]: ...


def simulate(jobs: Iterable[Job], *, executor: Any = None, engine: Engine | None = None,
             chunksize: int | None = None, rules: str | None = None,
             timeout: float | None = None, outcome: str = "json",
             score: Callable[[Any], Any] | None = None,
             reduce: Callable[[Any, Any], Any] | None = None, initial: Any = _NO_INITIAL,
             sink: str | os.PathLike[str] | Sink[Any] | None = None, resume: bool = False,
             key: KeyOf | None = None, progress: Progress[Any] | None = None,
             lost_after: float | None = LOST_AFTER,
             ) -> (Iterator[JobOutcome] | Iterator[LightOutcome]
                   | Iterator[JobOutcome | LightOutcome] | Iterator[Scored[Any]]
                   | Reduced[Any]):
    """Resolve many combats; yield one :class:`JobOutcome` per job, in input order.

    :param jobs: scenario file paths, :class:`~redzone.formats.scenario.Scenario`
        objects, or ``(state, decisions)`` pairs (``decisions``: the keyword
        arguments of :meth:`redzone.Engine.resolve`, e.g. ``{"attacks": ...,
        "blocks": ...}``). A file is read here, as its chunk is sent, and
        travels as its bytes with its name as given: a worker never resolves
        a path (a relative path means the caller's folder, on any cluster).
        A pair is resolved with :meth:`redzone.Engine.resolve` itself on its
        worker (no :class:`~redzone.formats.scenario.Scenario` is built).
    :param executor: ``None`` to run here, one job after another; or any
        :class:`concurrent.futures.Executor` (a process pool, a Dask
        ``distributed.Client`` or its ``get_executor()``, run through a
        :class:`~redzone.execution.executors.DaskExecutor`, a
        :class:`~redzone.execution.executors.RayExecutor`).
    :param engine: the engine of ``(state, decisions)`` jobs, and the plugin
        set files are read with (each file's rules edition applies); default
        :func:`~redzone.formats.outcome.command_engine`, the engine of
        ``redzone run``: verify mode on, so a plugin that changes the state it
        is given fails its job naming itself. A given engine keeps its own
        verify mode, here and on every worker. A Scenario is resolved with its
        own engine's plugins.
    :param chunksize: jobs per chunk sent to a worker, 1 or more (default:
        about four chunks per worker, at most :data:`MAX_CHUNK` jobs each on a local
        pool, :data:`~redzone.execution.executors.CLUSTER_CHUNK` on Dask or
        Ray, each worker's first chunk at most :data:`FIRST_CHUNK`, so that
        the first results come soon).
    :param rules: a rules edition overriding each file's ``rules`` key (as
        ``redzone run --rules``); files only. An unknown edition is each
        file's bad-scenario outcome.
    :param timeout: the most seconds one job may take, on whatever runs it
        (:mod:`redzone.execution.faults`); a job past it is cut and its
        outcome is a ``timeout`` error (status 3), and the batch goes on.
        With an executor, the caller also gives each chunk a deadline
        (:func:`~redzone.execution.faults.chunk_deadline`: ``timeout`` per
        job plus :data:`~redzone.execution.faults.GRACE` seconds), for a job
        stuck in C code that its worker can't cut: past it, the chunk's
        worker is ended where the executor allows it (below), and its jobs
        are sent again alone, each with ``timeout + GRACE`` seconds; a job
        past that alone is a ``timeout`` outcome cut by the caller, and the
        batch goes on. Run here (no executor), a job stuck in C code can't
        be cut: the batch waits for it. ``None`` (the default), ``inf`` or
        :data:`~redzone.execution.faults.NO_LIMIT` seconds or more: no limit.
    :param outcome: ``"json"`` (the default): each job's
        :class:`JobOutcome`, with the full JSON outcome; ``"light"``: its
        :class:`~redzone.execution.jobs.LightOutcome` (lives, poison,
        deaths, the end of the game, status and kind), built on the worker
        from the engine's result, without the JSON outcome.
    :param score: a function run on the worker for each job, given that
        job's outcome (the :class:`JobOutcome` or the
        :class:`~redzone.execution.jobs.LightOutcome`, as ``outcome`` says;
        for a failed job too, so it must look at ``status`` or ``ok``); only
        what it returns travels back, as a
        :class:`~redzone.execution.jobs.Scored` with the job's index,
        source, status, kind and error message. With an executor it must be
        picklable: a module-level function.
    :param reduce: a function ``(a, b) -> c`` that combines two scores, run
        on each worker over its chunk's scores in input order and once more
        here over the chunks' results in input order; ``simulate`` then
        returns one :class:`~redzone.execution.jobs.Reduced` (the value, the
        number of jobs and their kinds) instead of an iterator. It must be
        associative (``operator.add``, ``max``, ``min``, merging counts) for
        the value not to depend on the chunks; it needs ``score``.
    :param initial: with ``reduce``, the value the reduction starts from
        (combined once, here, before the first chunk's value); without it,
        the first job's score starts it, and a batch of no job is an error.
    :returns: an iterator of :class:`JobOutcome`,
        :class:`~redzone.execution.jobs.LightOutcome` or
        :class:`~redzone.execution.jobs.Scored` values in input order; with
        ``reduce``, a :class:`~redzone.execution.jobs.Reduced`.
    :param sink: where each outcome's row is written as it is handed over
        (:mod:`redzone.execution.sinks`, the rows of ``redzone batch
        --out``): a ``.jsonl`` or ``.parquet`` path, opened at the first
        outcome and closed when the batch ends however it ends; or a
        :class:`~redzone.execution.sinks.Sink` object, written and left open.
        The outcomes are yielded all the same. A row's ``outcome`` is what
        was asked for: the JSON outcome, the light outcome's fields, or
        ``{"score": value}`` (a score must then be JSON data). Not with
        ``reduce``, which yields no outcome per job.
    :param resume: with a sink path: keep the rows already in the file and
        skip each job whose key is the ``file`` of one of them, so that a
        batch stopped halfway and run again resolves each job once in all.
        The skipped jobs' keys are held in memory.
    :param key: ``key(index, job) -> str``, each job's key (``index`` its
        place in the input, from 0); the key is then the ``source`` of the
        job's outcome and the ``file`` of its row. Default
        (:func:`~redzone.execution.sinks.job_key`): a file's path as given,
        a Scenario's ``file``, ``<job N>`` for any other job. Keys should be
        unique: jobs sharing a key are skipped together (Scenarios made by
        ``loads`` or ``from_data`` all have the file ``<scenario>``: give
        them a key).
    :param progress: ``progress(done, total, outcome)``, called once per job
        as its outcome is handed over, in input order: ``done`` counts the
        outcomes so far (from 1), ``total`` is the number of jobs this run
        resolves when ``jobs`` has a length (skipped jobs left out), else
        ``None``. An exception it raises ends the batch.
    :param lost_after: with a Dask or Ray executor, how many seconds in a
        row it may have no worker at all while jobs wait before the batch
        ends with :class:`~redzone.execution.faults.WorkersLost` (``None``:
        wait for ever). Other executors are waited for as before.
    :raises BadQueryError: when ``jobs`` is one job (a path, a Scenario, a
        pair) or a mapping, not an iterable of jobs; for a ``chunksize``
        that is not a positive whole number, ``rules`` that is not a str, an
        ``engine`` that is not an :class:`~redzone.kernel.engine.Engine`; an
        unknown ``outcome``; a ``score`` or ``reduce`` that is not callable, or that
        can't be sent to a worker; ``reduce`` without ``score``, ``initial``
        without ``reduce``; a bad ``sink``, ``resume`` without a sink path,
        a ``key`` or ``progress`` that is not a function; ``sink``,
        ``resume``, ``key`` or ``progress`` with ``reduce``; a reduction of
        no job without ``initial``. All before any job runs (the last, after
        none did).
    :raises ScoreError: when ``score`` or ``reduce`` raises, naming the job
        (its index and source) it raised on.
    :raises WorkersLost: while iterating, when every worker of a Dask or Ray
        executor was lost and none came back within ``lost_after`` seconds.
    :raises BatchError: before any job runs, for an engine a worker can't
        rebuild by name. A job of an unknown kind, or decisions with unknown
        keys, is a ``bad_job`` outcome (status 2).

    A job whose worker is lost (killed, out of memory) is sent again, alone;
    if it is lost again, its outcome is a ``worker_lost`` error (status 3),
    made (and scored) here. A
    :class:`~concurrent.futures.ProcessPoolExecutor` that breaks is replaced
    by a new pool of the same size for the rest of the batch (shut down at
    the end; the caller's pool stays broken).

    A chunk past its deadline (``timeout`` given) is cut by the caller as
    the executor allows: a
    :class:`~concurrent.futures.ProcessPoolExecutor`'s worker processes are
    all killed and the pool replaced as a broken one is (the jobs of other
    chunks in flight on it are sent again to the new pool: they lost their
    worker, it is not counted against them); a
    :class:`~redzone.execution.executors.RayExecutor` ends the task's worker
    process (``ray.cancel(force=True)``) and Ray starts another; on Dask
    (:class:`~redzone.execution.executors.DaskExecutor`) the task is
    cancelled and its worker restarted by its nanny; any other executor (a
    thread pool, a Dask worker without a nanny) has its worker left busy
    until the job returns, and the job is reported at its deadline all the
    same.

    .. versionchanged:: 0.1.0
       ``outcome``, ``score``, ``reduce`` and ``initial``.
    """
    pair = isinstance(jobs, tuple) and len(jobs) == 2 and isinstance(jobs[0], GameState)
    if pair or isinstance(jobs, str | bytes | os.PathLike | Mapping | Scenario) or not isinstance(
            jobs, Iterable):
        # one job where the jobs were expected (a str would be a job per character)
        what = "one (state, decisions) pair" if pair else f"a {type(jobs).__name__}"
        raise BadQueryError(f"simulate: jobs is {what}, not an iterable of jobs (scenario "
                            "file paths, Scenarios or (state, decisions) pairs): give a list "
                            "of them")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(
            timeout, int | float) or not timeout > 0):
        raise BadQueryError(f"simulate: timeout is {timeout!r}: give a number of seconds "
                            "above 0, or None for no limit")
    if timeout is not None and timeout >= NO_LIMIT:
        timeout = None  # longer than any timer: no limit
    if lost_after is not None and (isinstance(lost_after, bool) or not isinstance(
            lost_after, int | float) or not lost_after > 0):
        raise BadQueryError(f"simulate: lost_after is {lost_after!r}: give a number of "
                            "seconds above 0, or None to wait for ever")
    _check_arguments(chunksize, rules, engine)
    query = _query(outcome, score, reduce, initial, sent=executor is not None)
    recording = Recording(jobs, sink=sink, resume=resume, key=key, progress=progress)
    if query.reduce is not None and recording.active:
        raise BadQueryError("simulate: sink, resume, key and progress go with outcomes "
                            "handed over one per job; with reduce there is one value")
    jobs = recording.jobs
    engine = engine if engine is not None else command_engine()
    planner = _Planner(engine, rules)
    if executor is None:
        items = _serial(jobs, planner, timeout, query)
    else:
        items = _parallel(jobs, planner, as_executor(executor), chunksize, timeout, query,
                          lost_after)
    if query.reduce is None:
        return recording.record(items)
    return _reduced(items, query.reduce, initial)


def _check_arguments(chunksize: Any, rules: Any, engine: Any, who: str = "simulate") -> None:
    """Refuse a ``chunksize``, ``rules`` or ``engine`` of the wrong type or
    value, before any job runs (a chunk of no job, or of -1, would send no
    job at all).

    :param who: the function asked, as the errors name it.
    :raises BadQueryError: naming the argument and what it must be.
    """
    if chunksize is not None and (isinstance(chunksize, bool) or not isinstance(
            chunksize, int) or chunksize < 1):
        raise BadQueryError(f"{who}: chunksize is {chunksize!r}: give the jobs per chunk as a "
                            "positive whole number (1 or more), or None to have it chosen")
    if rules is not None and not isinstance(rules, str):
        raise BadQueryError(f"{who}: rules is {rules!r}, a {type(rules).__name__}: give a "
                            "rules edition's name (a str, as redzone run --rules takes), or "
                            "None for each file's own")
    if engine is not None and not isinstance(engine, Engine):
        raise BadQueryError(f"{who}: engine is {engine!r}, not an Engine: give a "
                            "redzone.Engine, or None for the engine of redzone run")


def _query(outcome: Any, score: Any, reduce: Any, initial: Any, *, sent: bool,
           who: str = "simulate") -> Query:
    """The query of a batch, checked before any job runs.

    :param who: the function asked (``simulate``, ``run_bag``...), as the
        errors name it.
    :raises BadQueryError: naming what is wrong.
    """
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise BadQueryError(f"{who}: outcome is {outcome!r}: give one of "
                            f"{', '.join(repr(o) for o in OUTCOMES)}")
    for name, fn in (("score", score), ("reduce", reduce)):
        if fn is not None and not callable(fn):
            raise BadQueryError(f"{who}: {name} is a {type(fn).__name__}, not a function: "
                                f"give a module-level function (or None)")
    if reduce is not None and score is None:
        raise BadQueryError(f"{who}: reduce needs score: the scores are what it combines")
    if initial is not _NO_INITIAL and reduce is None:
        raise BadQueryError(f"{who}: initial is given without reduce: it is the value a "
                            "reduction starts from")
    query = Query(outcome, score, reduce)
    if sent and (score is not None or reduce is not None):
        try:
            pickle.dumps(query)
        except Exception as exc:
            which = "score" if _unpicklable(score) else "reduce"
            fn = score if which == "score" else reduce
            raise BadQueryError(f"{who}: the {which} function {fn!r} can't be sent to a "
                                f"worker ({type(exc).__name__}: {exc}): make it a "
                                "module-level function") from exc
    return query


def _reduced(items: Iterable[Any], fn: Callable[[Any, Any], Any], initial: Any,
             who: str = "simulate") -> Reduced:
    """The chunks' reductions, reduced here in input order."""
    value = initial
    jobs = 0
    kinds: dict[str, int] = {}
    for part in items:
        assert isinstance(part, _Partial)
        if value is _NO_INITIAL:
            value = part.value
        else:
            try:
                value = fn(value, part.value)
            except Exception as exc:
                raise ScoreError(f"the reduce function {getattr(fn, '__qualname__', fn)} "
                                 f"raised here, combining the chunk from job {part.first} "
                                 f"({part.source}): {type(exc).__name__}: {exc}",
                                 part.first, part.source) from exc
        jobs += part.jobs
        for kind, n in part.kinds:
            kinds[kind] = kinds.get(kind, 0) + n
    if value is _NO_INITIAL:
        raise BadQueryError(f"{who}: there was no job to reduce and no initial value: give "
                            "initial= for batches that may be empty")
    return Reduced(value, jobs, FrozenMap(kinds))


def _serial(jobs: Iterable[Job], planner: _Planner, timeout: float | None = None,
            query: Query = _PLAIN) -> Iterator[Any]:
    """Here, one job after another, with the caller's engines themselves."""
    engine = planner.engine
    others: dict[str, Engine] = {}
    light = query.light
    plain = query.score is None

    def for_file(rules: str) -> Engine:
        if rules == engine.rules:
            return engine
        if rules not in others:
            others[rules] = build_engine(planner.spec.for_rules(rules))
        return others[rules]

    for index, job in numbered(jobs):
        out: JobOutcome | LightOutcome
        if isinstance(job, str | os.PathLike):
            path = os.fspath(job)
            out = _job(index, path, lambda path=path: _Combat.of_scenario(  # type: ignore[misc]
                build_scenario(read_named(path), rules=planner.rules,
                               engine_factory=for_file)), timeout, light)
        elif isinstance(job, Scenario):
            out = _job(index, job.file, lambda job=job: _Combat.of_scenario(job),  # type: ignore[misc]
                       timeout, light)
        else:
            payload = planner.payload(index, job, spec=False)
            if isinstance(payload, _PairJob):
                payload = payload.converted()
            if isinstance(payload, _BadJob):
                bad = _bad(index, payload)
                out = LightOutcome.of_failure(bad) if light else bad
            else:
                assert isinstance(payload, _ScenarioJob)
                out = _job(index, payload.file,
                           lambda p=payload: _combat_of(p, engine),  # type: ignore[misc]
                           timeout, light)
        if plain:
            yield out
        else:
            yield from query.decode(query.finish([out]))


def _parallel(jobs: Iterable[Job], planner: _Planner, executor: cf.Executor,
              chunksize: int | None, timeout: float | None = None,
              query: Query = _PLAIN, lost_after: float | None = None) -> Iterator[Any]:
    workers = worker_count(executor)
    size = chunksize if chunksize is not None else 0  # 0: chosen below (checked: 1 or more)
    most = chunk_limit(executor)
    window = max(2, 2 * workers)
    owned: list[cf.Executor] = []
    state = {"executor": executor}
    it = iter(numbered(jobs))
    pending: deque[tuple[_Chunk, cf.Future[Any]]] = deque()
    # The plain query travels as None; any other, pickled once for the batch.
    sent = pack_query(None if query == _PLAIN else query)

    # The futures sent and not given up on, in the order sent, with their
    # numbers of jobs: a chunk's deadline counts the jobs queued before it.
    flight: dict[cf.Future[Any], int] = {}
    started = [0]  # the chunks sent so far

    def submit(chunk: _Chunk) -> cf.Future[Any]:
        if not isinstance(chunk.work, bytes):  # a job that can't be sent: as if lost
            future: cf.Future[Any] = cf.Future()
            future.set_exception(chunk.error or BatchError("the chunk can't be sent"))
            return future
        try:
            future = state["executor"].submit(run_packed, chunk.work, timeout, sent)
        except cf.BrokenExecutor:
            state["executor"] = _replace(state["executor"], owned)
            future = state["executor"].submit(run_packed, chunk.work, timeout, sent)
        if timeout is not None:
            flight[future] = chunk.jobs
        return future

    def fill() -> bool:
        nonlocal size
        if size == 0:
            # Look ahead to choose a chunk size: about four chunks per worker.
            head = list(itertools.islice(it, most * 4 * workers))
            size = max(1, min(most, -(-len(head) // (4 * workers))))
            buffered.extend(head)
        sending = _Chunk()
        # each worker's first chunk is small when the size is ours to choose
        limit = size if chunksize or started[0] >= workers else min(size, FIRST_CHUNK)
        while sending.jobs < limit:
            if buffered:
                index, job = buffered.popleft()
            else:
                nxt = next(it, None)
                if nxt is None:
                    break
                index, job = nxt
            sending.add(index, planner.payload(index, job))
        if not sending.jobs:
            return False
        sending.close()
        pending.append((sending, submit(sending)))
        started[0] += 1
        return True

    def wait(future: cf.Future[Any]) -> list[Any]:
        ex = state["executor"]
        deadline = None
        if timeout is not None:
            # Jobs sent before this chunk and still running or queued may run first.
            for f in [f for f in flight if f.done()]:
                del flight[f]
            ahead = 0
            for f, n in flight.items():
                if f is future:
                    break
                ahead += n
            deadline = time.monotonic() + chunk_deadline(timeout, flight.get(future, 1)) + (
                timeout * ahead)
        try:
            return unpack(wait_result(future, lambda: live_workers(ex), lost_after,
                                      what=describe(ex), deadline=deadline))
        finally:
            flight.pop(future, None)

    def hung(future: cf.Future[Any]) -> bool:
        """End the worker stuck on ``future``; replace a pool so ended, and
        send the other chunks in flight on it again."""
        ex = state["executor"]
        ended = cut(ex, future)
        if ended and isinstance(ex, cf.ProcessPoolExecutor):
            ex.shutdown(wait=False, cancel_futures=True)
            state["executor"] = _replace(ex, owned)
            for i, (other, f) in enumerate(pending):
                flight.pop(f, None)
                if not (f.done() and not f.cancelled() and f.exception() is None):
                    pending[i] = (other, submit(other))
        return ended

    buffered: deque[tuple[int, Any]] = deque()
    try:
        while len(pending) < window and fill():
            pass
        while pending:
            sending, future = pending.popleft()
            results: Iterable[Any]
            try:
                wires = wait(future)
            except WorkersLost:
                raise
            except ChunkHung as exc:
                ended = hung(future)
                chunk = sending.payloads()
                if len(chunk) == 1:  # alone already: cut
                    index, payload = chunk[0]
                    results = query.local(_cut_by_caller(index, payload_source(payload), timeout,
                                                         ended, retried=0))
                else:
                    results = _retry(chunk, exc, submit, query, wait, hung, timeout)
            except Exception as exc:
                results = _retry(sending.payloads(), exc, submit, query, wait, hung, timeout)
            else:
                results = query.decode(wires)
            yield from results
            while len(pending) < window and fill():
                pass
    finally:
        for _chunk, future in pending:  # a consumer that stopped, a score that failed
            future.cancel()
        for ex in owned:
            ex.shutdown(wait=False, cancel_futures=True)


class _Chunk:
    """A chunk as it is sent: its jobs pickled once, as they are added
    (:class:`~redzone.execution.jobs.Packer`), so that what waits for its
    outcomes is bytes, not the jobs' objects; or, when one can't be
    pickled, the jobs themselves and why."""

    __slots__ = ("_packer", "_raw", "error", "jobs", "work")

    def __init__(self) -> None:
        self.error: Exception | None = None
        self.work: bytes | list[tuple[int, _Payload]] = b""
        #: how many jobs it holds
        self.jobs = 0
        #: pickling its jobs, until it is closed (then its bytes are :attr:`work`)
        self._packer: Packer | None = Packer()
        #: its jobs as objects, once one couldn't be pickled
        self._raw: list[tuple[int, _Payload]] | None = None

    @classmethod
    def of(cls, payloads: Iterable[tuple[int, _Payload]]) -> _Chunk:
        """A chunk of these jobs, closed."""
        chunk = cls()
        for index, payload in payloads:
            chunk.add(index, payload)
        chunk.close()
        return chunk

    def add(self, index: int, payload: _Payload) -> None:
        self.jobs += 1
        if self._raw is not None:
            self._raw.append((index, payload))
            return
        assert self._packer is not None, "a closed chunk takes no job"
        try:
            self._packer.add(index, payload)
        except Exception as exc:  # a job that can't be sent: found when sent alone
            self._raw, self.error = self._packer.unsent(), exc
            self._packer = None

    def close(self) -> None:
        """No more jobs: the chunk as it is sent (its packer, holding a copy
        of its bytes, is let go)."""
        packer, self._packer = self._packer, None
        if packer is not None:  # (None: a job couldn't be pickled, and the jobs are raw)
            try:
                self.work = packer.bytes()
                return
            except Exception as exc:
                self._raw, self.error = packer.unsent(), exc
        assert self._raw is not None, "a chunk is closed once"
        self.work = self._raw

    def payloads(self) -> list[tuple[int, _Payload]]:
        """The chunk's jobs (unpickled again: to send them one by one)."""
        if isinstance(self.work, bytes):
            return unpack_jobs(self.work)
        return self.work


def _replace(executor: cf.Executor, owned: list[cf.Executor]) -> cf.Executor:
    """A new process pool like a broken one."""
    if not isinstance(executor, cf.ProcessPoolExecutor):
        raise cf.BrokenExecutor(f"the executor {type(executor).__name__} is broken")
    ctx = getattr(executor, "_mp_context", None)
    new = cf.ProcessPoolExecutor(max_workers=worker_count(executor), mp_context=ctx,
                                 initializer=worker_start)
    owned.append(new)
    return new


def _retry(chunk: list[tuple[int, _Payload]], exc: BaseException,
           submit: Callable[[_Chunk], cf.Future[Any]],
           query: Query = _PLAIN,
           wait: Callable[[cf.Future[Any]], list[Any]] = lambda f: unpack(f.result()),
           hung: Callable[[cf.Future[Any]], bool] = lambda f: False,
           timeout: float | None = None) -> list[Any]:
    """Send each job of a lost (or hung) chunk again, alone and one after
    another, so that a job that kills its worker is lost alone: its
    neighbours never share a worker (or a process pool) with it again. A job
    lost twice is reported (a job that can't be pickled, as a
    :data:`BAD_JOB`: nothing was lost), its outcome made (and scored) here;
    so is a job past its deadline alone (``wait`` raised
    :class:`~redzone.execution.faults.ChunkHung`), after ``hung`` ended its
    worker where it could."""
    out: list[Any] = []
    for index, payload in chunk:
        future = submit(_Chunk.of([(index, payload)]))
        try:
            wires = wait(future)
        except WorkersLost:
            raise
        except ChunkHung:
            ended = hung(future)
            out.extend(query.local(_cut_by_caller(index, payload_source(payload), timeout, ended,
                                                  retried=1)))
            continue
        except Exception as lost:
            source = payload_source(payload)
            unsendable = _unpicklable(payload)
            if unsendable:
                out.extend(query.local(evolve(_bad(index, _BadJob(source, (
                    f"job {index} can't be sent to a worker: {unsendable}"))), retried=1)))
                continue
            message = (f"the worker running this job was lost twice ({type(exc).__name__}: "
                       f"{exc}; then {type(lost).__name__}: {lost})")
            outcome = {"ok": False, "error": {"kind": WORKER_LOST, "rule": None,
                                              "message": message, "objects": []}}
            out.extend(query.local(JobOutcome(index, source, EXIT_FAILURE, _compact(outcome),
                                              retried=1)))
            continue
        out.extend(evolve(r, retried=1) if isinstance(r, JobOutcome | LightOutcome | Scored)
                   else r for r in query.decode(wires))
    return out


def _cut_by_caller(index: int, source: str, timeout: float | None, ended: bool, *,
                   retried: int) -> JobOutcome:
    """The outcome of a job the caller cut at its deadline (``kind``
    :data:`~redzone.execution.faults.TIMEOUT`, status 3, the shape of a job
    cut on its worker)."""
    limit = f"{timeout:g} s" if timeout is not None else "its time"
    worker = ("its worker was ended and replaced" if ended else
              "its worker could not be ended and stays busy until the job returns")
    message = (f"the job ran past its time limit of {limit} where its worker could not "
               f"cut it (C code) and was cut by the caller at its deadline; {worker}")
    outcome = {"ok": False, "error": {"kind": TIMEOUT, "rule": None, "message": message,
                                      "objects": []}}
    return JobOutcome(index, source, EXIT_FAILURE, _compact(outcome), retried=retried)


def _unpicklable(payload: Any) -> str:
    """Why a job (or a function) can't be pickled (a lambda, a lock in its
    decisions), or ``""``."""
    try:
        pickle.dumps(payload)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""


__all__ = ["FIRST_CHUNK", "MAX_CHUNK", "chunk_limit", "simulate"]
