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
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final

from attrs import evolve

from redzone.execution.engines import build_engine
from redzone.execution.executors import as_executor, describe, live_workers, worker_count
from redzone.execution.faults import LOST_AFTER, WorkersLost, wait_result
from redzone.execution.jobs import (
    WORKER_LOST,
    Job,
    JobOutcome,
    _bad,
    _BadJob,
    _compact,
    _FileJob,
    _Payload,
    _Planner,
    _run,
    _scenario_of,
    _ScenarioJob,
    _Wire,
    from_wire,
    run_chunk,
)
from redzone.execution.sinks import KeyOf, Progress, Recording, Sink, numbered
from redzone.formats.outcome import EXIT_FAILURE, command_engine
from redzone.formats.scenario import Scenario, read_document
from redzone.formats.scenario import build as build_scenario
from redzone.kernel.engine import Engine
from redzone.kernel.errors import BadQueryError
from redzone.kernel.model import GameState

#: The most jobs in one chunk when the chunk size is chosen automatically.
MAX_CHUNK: Final = 64


def simulate(jobs: Iterable[Job], *, executor: Any = None, engine: Engine | None = None,
             chunksize: int | None = None, rules: str | None = None,
             timeout: float | None = None,
             sink: str | os.PathLike[str] | Sink | None = None, resume: bool = False,
             key: KeyOf | None = None, progress: Progress | None = None,
             lost_after: float | None = LOST_AFTER) -> Iterator[JobOutcome]:
    """Resolve many combats; yield one :class:`JobOutcome` per job, in input order.

    :param jobs: scenario file paths, :class:`~redzone.formats.scenario.Scenario`
        objects, or ``(state, decisions)`` pairs (``decisions``: the keyword
        arguments of :meth:`redzone.Engine.resolve`, e.g. ``{"attacks": ...,
        "blocks": ...}``). A file is read here, as its chunk is sent, and
        travels as its bytes with its name as given: a worker never resolves
        a path (a relative path means the caller's folder, on any cluster).
    :param executor: ``None`` to run here, one job after another; or any
        :class:`concurrent.futures.Executor` (a process pool, a Dask
        ``distributed.Client`` or its ``get_executor()``, a
        :class:`~redzone.execution.executors.RayExecutor`).
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
    :param timeout: the most seconds one job may take, on whatever runs it
        (:mod:`redzone.execution.faults`); a job past it is cut and its
        outcome is a ``timeout`` error (status 3), and the batch goes on.
    :param sink: where each outcome's row is written as it is handed over
        (:mod:`redzone.execution.sinks`, the rows of ``redzone batch
        --out``): a ``.jsonl`` or ``.parquet`` path, opened at the first
        outcome and closed when the batch ends however it ends; or a
        :class:`~redzone.execution.sinks.Sink` object, written and left open.
        The outcomes are yielded all the same.
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
        pair) or a mapping, not an iterable of jobs; for a bad ``sink``,
        ``resume`` without a sink path, a ``key`` or ``progress`` that is not
        a function.
    :raises WorkersLost: while iterating, when every worker of a Dask or Ray
        executor was lost and none came back within ``lost_after`` seconds.
    :raises BatchError: before any job runs, for an engine a worker can't
        rebuild by name. A job of an unknown kind, or decisions with unknown
        keys, is a ``bad_job`` outcome (status 2).

    A job whose worker is lost (killed, out of memory) is sent again, alone;
    if it is lost again, its outcome is a ``worker_lost`` error (status 3). A
    :class:`~concurrent.futures.ProcessPoolExecutor` that breaks is replaced
    by a new pool of the same size for the rest of the batch (shut down at
    the end; the caller's pool stays broken).
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
    if lost_after is not None and (isinstance(lost_after, bool) or not isinstance(
            lost_after, int | float) or not lost_after > 0):
        raise BadQueryError(f"simulate: lost_after is {lost_after!r}: give a number of "
                            "seconds above 0, or None to wait for ever")
    recording = Recording(jobs, sink=sink, resume=resume, key=key, progress=progress)
    jobs = recording.jobs
    engine = engine if engine is not None else command_engine()
    planner = _Planner(engine, rules)
    if executor is None:
        return recording.record(_serial(jobs, planner, timeout))
    return recording.record(_parallel(jobs, planner, as_executor(executor), chunksize, timeout,
                                      lost_after))


def _serial(jobs: Iterable[Job], planner: _Planner,
            timeout: float | None = None) -> Iterator[JobOutcome]:
    """Here, one job after another, with the caller's engines themselves."""
    engine = planner.engine
    others: dict[str, Engine] = {}

    def for_file(rules: str) -> Engine:
        if rules == engine.rules:
            return engine
        if rules not in others:
            others[rules] = build_engine(planner.spec.for_rules(rules))
        return others[rules]

    for index, job in numbered(jobs):
        if isinstance(job, str | os.PathLike):
            path = os.fspath(job)
            yield _run(index, path, lambda path=path: build_scenario(  # type: ignore[misc]
                read_document(path), rules=planner.rules, engine_factory=for_file), timeout)
        elif isinstance(job, Scenario):
            yield _run(index, job.file, lambda job=job: job, timeout)  # type: ignore[misc]
        else:
            payload = planner.payload(index, job, spec=False)
            if isinstance(payload, _BadJob):
                yield _bad(index, payload)
                continue
            assert isinstance(payload, _ScenarioJob)
            yield _run(index, payload.file,
                       lambda p=payload: _scenario_of(p, engine), timeout)  # type: ignore[misc]


def _parallel(jobs: Iterable[Job], planner: _Planner, executor: cf.Executor,
              chunksize: int | None, timeout: float | None = None,
              lost_after: float | None = None) -> Iterator[JobOutcome]:
    workers = worker_count(executor)
    size = chunksize or 0
    window = max(2, 2 * workers)
    owned: list[cf.Executor] = []
    state = {"executor": executor}
    it = iter(numbered(jobs))
    pending: deque[tuple[list[tuple[int, _Payload]], cf.Future[list[_Wire]]]] = deque()

    def submit(chunk: list[tuple[int, _Payload]]) -> cf.Future[list[_Wire]]:
        try:
            return state["executor"].submit(run_chunk, chunk, timeout)
        except cf.BrokenExecutor:
            state["executor"] = _replace(state["executor"], owned)
            return state["executor"].submit(run_chunk, chunk, timeout)

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

    def wait(future: cf.Future[list[_Wire]]) -> list[_Wire]:
        ex = state["executor"]
        return wait_result(future, lambda: live_workers(ex), lost_after, what=describe(ex))

    buffered: deque[tuple[int, Any]] = deque()
    try:
        while len(pending) < window and fill():
            pass
        while pending:
            chunk, future = pending.popleft()
            try:
                results = [from_wire(t) for t in wait(future)]
            except WorkersLost:
                raise
            except Exception as exc:
                results = _retry(chunk, exc, submit, wait)
            yield from results
            while len(pending) < window and fill():
                pass
    finally:
        for _, future in pending:
            future.cancel()
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
           submit: Callable[[list[tuple[int, _Payload]]], cf.Future[list[_Wire]]],
           wait: Callable[[cf.Future[list[_Wire]]], list[_Wire]] = lambda f: f.result()
           ) -> list[JobOutcome]:
    """Send each job of a lost chunk again, alone and one after another, so
    that a job that kills its worker is lost alone: its neighbours never
    share a worker (or a process pool) with it again. A job lost twice is
    reported (a job that can't be pickled, as a :data:`BAD_JOB`: nothing
    was lost)."""
    out: list[JobOutcome] = []
    for index, payload in chunk:
        try:
            out.extend(evolve(from_wire(t), retried=1)
                       for t in wait(submit([(index, payload)])))
        except WorkersLost:
            raise
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
            outcome = {"ok": False, "error": {"kind": WORKER_LOST, "rule": None,
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


__all__ = ["MAX_CHUNK", "simulate"]
