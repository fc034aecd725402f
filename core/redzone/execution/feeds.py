"""Feeds: jobs that live on a cluster already, in a Dask bag or a Ray dataset.

:func:`~redzone.execution.simulation.simulate` sends the caller's jobs to
workers. When the jobs are made on the cluster (a bag read from many files, a
dataset built by an earlier stage), :func:`run_bag` and :func:`run_dataset`
resolve them where they are, with the same worker code: each partition (or
batch) rebuilds the engine by name from the caller's
:class:`~redzone.execution.engines.EngineSpec`, checks it, and gives one
:class:`~redzone.execution.jobs.JobOutcome` per job, the same outcome, byte
for byte, as ``simulate`` gives for that job at that index. As with
``simulate``, ``outcome="light"`` gives light outcomes, ``score=`` a
:class:`~redzone.execution.jobs.Scored` per job (the function run where the
job runs), and ``reduce=`` one :class:`~redzone.execution.jobs.Reduced`.

A job of a feed is what ``simulate`` takes (a scenario file path, a
``(state, decisions)`` pair; a :class:`~redzone.formats.scenario.Scenario`
only where the bag never leaves this process, as it can't be pickled), or a
``(name, text)`` pair: a scenario file's name and its text (``str``) or bytes,
resolved as the file of that name would be. A path in a feed is read by the
worker that runs its partition: on a cluster of machines, give texts.

Neither Dask nor Ray is imported by this module; the bag or dataset given
brings its own.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import functools
import importlib
import itertools
import json
import os
import pickle
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from attrs import frozen

from redzone.execution.engines import EngineSpec, WorkerSetupError, worker_engine
from redzone.execution.jobs import (
    JobOutcome,
    LightOutcome,
    Query,
    Reduced,
    Scored,
    _FileJob,
    _payload_outcome,
    _Planner,
    _run,
)
from redzone.execution.simulation import _NO_INITIAL, _query, _reduced
from redzone.execution.sinks import outcome_text
from redzone.formats.outcome import command_engine
from redzone.formats.scenario import Scenario
from redzone.kernel.engine import Engine
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState

#: The columns of a dataset :func:`run_dataset` gives: the fields of
#: :class:`~redzone.execution.jobs.JobOutcome`, each a column.
OUTCOME_COLUMNS: Final = ("index", "source", "status", "json", "keywords", "seconds",
                          "worker", "retried")

#: The columns with ``outcome="light"``: a
#: :class:`~redzone.execution.jobs.LightOutcome`'s index, source, status,
#: kind, message and retries, and ``light``, its other fields as the compact
#: JSON text of a sink row's ``outcome``.
LIGHT_COLUMNS: Final = ("index", "source", "status", "kind", "message", "retried", "light")

#: The columns with ``score=``: the fields of
#: :class:`~redzone.execution.jobs.Scored`.
SCORED_COLUMNS: Final = ("index", "source", "status", "kind", "value", "message", "retried")


@frozen
class _Feed:
    """What each partition is given: the caller's engine by name, and what
    to give back for each job (``None``: its full outcome)."""

    spec: EngineSpec
    family: tuple[tuple[str, EngineSpec], ...]
    rules: str | None
    query: Query | None = None

    @property
    def light(self) -> bool:
        return self.query is not None and self.query.light

    def answer(self, outs: list[JobOutcome | LightOutcome]) -> list[Any]:
        """What a partition gives back for its jobs' outcomes: the outcomes,
        their scores, or their reduction (:class:`_Partial`).

        :raises ScoreError: when the score or reduce function raised.
        """
        if self.query is None or self.query.score is None:
            return list(outs)
        return list(self.query.decode(self.query.finish(outs)))


def _feed(engine: Engine | None, rules: str | None, query: Query | None = None) -> _Feed:
    planner = _Planner(engine if engine is not None else command_engine(), rules)
    plain = query is None or (query.score is None and not query.light)
    return _Feed(planner.spec, planner.family(), rules, None if plain else query)


def _is_text(job: Any) -> bool:
    return (isinstance(job, tuple) and len(job) == 2 and isinstance(job[0], str)
            and isinstance(job[1], str | bytes))


def _source(index: int, job: Any) -> str:
    if _is_text(job):
        return str(job[0])
    if isinstance(job, str | os.PathLike):
        return os.fspath(job)
    if isinstance(job, Scenario):
        return job.file
    return f"<job {index}>"


def _run_jobs(jobs: Iterable[Any], offset: int, feed: _Feed
              ) -> list[JobOutcome | LightOutcome]:
    """Resolve the jobs of one partition, the first at index ``offset``
    (what :func:`run_bag` and :func:`run_dataset` run on the workers): full
    outcomes, or light ones when the feed asks for them."""
    out: list[JobOutcome | LightOutcome] = []
    light = feed.light
    planner: _Planner | None = None
    for index, job in enumerate(jobs, offset):
        if _is_text(job):
            name, text = job
            content = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
            out.append(_payload_outcome(index, _FileJob(name, feed.family, feed.rules, content),
                                        None, light))
            continue
        if isinstance(job, str | os.PathLike):
            out.append(_payload_outcome(index, _FileJob.read(os.fspath(job), feed.family,
                                                             feed.rules), None, light))
            continue
        if planner is None:
            try:
                planner = _Planner(worker_engine(feed.spec), feed.rules)
            except WorkerSetupError as exc:
                failed = _run(index, _source(index, job), functools.partial(_raise, exc))
                out.append(LightOutcome.of_failure(failed) if light else failed)
                continue
            planner._spec, planner._family = feed.spec, feed.family
        out.append(_payload_outcome(index, planner.payload(index, job), None, light))
    return out


def _raise(error: BaseException) -> Scenario:
    raise error


def _offsets(*counts: int) -> list[int]:
    return [0, *itertools.accumulate(counts)][:-1]


def _partition(jobs: Iterable[Any], offsets: list[int], number: int, feed: _Feed
               ) -> list[Any]:
    return feed.answer(_run_jobs(jobs, offsets[number], feed))


def _indexed_partition(pairs: Iterable[tuple[int, Any]], feed: _Feed) -> list[Any]:
    out: list[JobOutcome | LightOutcome] = []
    for index, job in pairs:
        out.extend(_run_jobs([job], int(index), feed))
    return feed.answer(out)


def _reduce_parts(parts: list[list[Any]], fn: Callable[[Any, Any], Any], initial: Any,
                  who: str) -> Reduced:
    """The partitions' reductions (each a list of at most one
    :class:`_Partial`), reduced in the order given."""
    return _reduced((p for part in parts for p in part), fn, initial, who)


def run_bag(bag: Any, *, engine: Engine | None = None, rules: str | None = None,
            indexed: bool = False, outcome: str = "json",
            score: Callable[[Any], Any] | None = None,
            reduce: Callable[[Any, Any], Any] | None = None, initial: Any = _NO_INITIAL) -> Any:
    """A Dask bag of the :class:`~redzone.execution.jobs.JobOutcome` of each
    job of ``bag``, in the bag's order (lazy: ``.compute()`` it, or take it
    further).

    :param bag: a ``dask.bag.Bag`` of jobs (see the module's documentation).
    :param engine: as :func:`~redzone.execution.simulation.simulate`'s
        (default: ``redzone run``'s engine); rebuilt by name on each worker.
    :param rules: as ``simulate``'s: a rules edition overriding each file's.
    :param indexed: whether each element is an ``(index, job)`` pair, the
        index the outcome carries. Without it, a job's index is its place in
        the bag, which needs each partition's length first: every partition
        is then made before any is resolved (held by the cluster, not the
        caller).
    :param outcome: as ``simulate``'s: ``"json"``, or ``"light"`` for
        :class:`~redzone.execution.jobs.LightOutcome` values.
    :param score: as ``simulate``'s: run where each job runs, on its
        outcome; the bag is then of :class:`~redzone.execution.jobs.Scored`
        values.
    :param reduce: as ``simulate``'s: combines the scores, on each partition
        in its order and then over the partitions in the bag's order; needs
        ``score``.
    :param initial: with ``reduce``, as ``simulate``'s.
    :returns: a ``dask.bag.Bag`` of outcomes (or scores), each what
        ``simulate`` gives for the same job at the same index; with
        ``reduce``, a ``dask.delayed`` value whose ``.compute()`` is the
        :class:`~redzone.execution.jobs.Reduced` ``simulate`` gives.
    :raises BadQueryError: as ``simulate``, for an unknown ``outcome``, a
        ``score`` or ``reduce`` that is not a function or can't be sent,
        ``reduce`` without ``score``, ``initial`` without ``reduce``.
    :raises ScoreError: when computed, where ``score`` or ``reduce`` raised,
        naming the job.
    :raises BatchError: for an engine a worker can't rebuild by name.

    .. versionadded:: 0.1.0
    """
    query = _query(outcome, score, reduce, initial, sent=True, who="run_bag")
    feed = _feed(engine, rules, query)
    delayed: Any = importlib.import_module("dask").delayed
    if indexed:
        done = bag.map_partitions(_indexed_partition, feed)
    else:
        from_delayed: Any = importlib.import_module("dask.bag").from_delayed
        parts = bag.to_delayed()
        offsets = delayed(_offsets)(*(delayed(len)(p) for p in parts))
        done = from_delayed([delayed(_partition)(p, offsets, n, feed)
                             for n, p in enumerate(parts)])
    if query.reduce is None:
        return done
    return delayed(_reduce_parts)(done.to_delayed(), query.reduce, initial, "run_bag")


def _batch(batch: Mapping[str, Any], column: str, index: str, feed: _Feed
           ) -> dict[str, list[Any]]:
    outcomes: list[JobOutcome | LightOutcome] = []
    for i, job in zip(batch[index], batch[column], strict=True):
        outcomes.extend(_run_jobs([_native(job)], int(i), feed))
    answers = feed.answer(outcomes)
    if feed.query is not None and feed.query.reduce is not None:
        # the batch's reduction, pickled (any value), and where it starts
        return {"first": [p.first for p in answers],
                "partial": [pickle.dumps(p, protocol=pickle.HIGHEST_PROTOCOL)
                            for p in answers]}
    if feed.query is not None and feed.query.score is not None:
        return {name: [getattr(r, name) for r in answers] for name in SCORED_COLUMNS}
    if feed.light:
        return {**{name: [getattr(r, name) for r in answers] for name in LIGHT_COLUMNS[:-1]},
                "light": [outcome_text(r) for r in answers]}
    return {"index": [r.index for r in answers], "source": [r.source for r in answers],
            "status": [r.status for r in answers], "json": [r.json for r in answers],
            "keywords": [list(r.keywords) for r in answers],
            "seconds": [r.seconds for r in answers], "worker": [r.worker for r in answers],
            "retried": [r.retried for r in answers]}


def _native(job: Any) -> Any:
    """A job as it was put in the dataset (Ray gives a ``(name, text)`` pair
    or a ``(state, decisions)`` pair back as an array)."""
    if isinstance(job, str | bytes | tuple | GameState | Scenario | os.PathLike):
        return job
    tolist = getattr(job, "tolist", None)
    if callable(tolist):
        return tuple(tolist())
    if isinstance(job, list):
        return tuple(job)
    return job


def run_dataset(dataset: Any, *, engine: Engine | None = None, rules: str | None = None,
                column: str = "job", index: str = "index", batch_size: int = 64,
                outcome: str = "json", score: Callable[[Any], Any] | None = None,
                reduce: Callable[[Any, Any], Any] | None = None,
                initial: Any = _NO_INITIAL) -> Any:
    """A Ray dataset of the outcome of each job of ``dataset`` (lazy).

    Each row of ``dataset`` holds a job in ``column`` and its index in
    ``index`` (:func:`jobs_dataset` makes such a dataset from a list of
    jobs). Each output row holds the fields of
    :class:`~redzone.execution.jobs.JobOutcome` (:data:`OUTCOME_COLUMNS`),
    or with ``outcome="light"`` those of :data:`LIGHT_COLUMNS`, or with
    ``score=`` those of :class:`~redzone.execution.jobs.Scored`
    (:data:`SCORED_COLUMNS`); :func:`outcome_of_row` makes each back.

    :param engine: as :func:`~redzone.execution.simulation.simulate`'s;
        rebuilt by name on each worker.
    :param rules: as ``simulate``'s.
    :param batch_size: rows per batch handed to a worker.
    :param outcome: as ``simulate``'s: ``"json"`` or ``"light"``.
    :param score: as ``simulate``'s: run where each job runs, on its outcome.
    :param reduce: as ``simulate``'s: combines the scores, on each batch and
        then here over the batches in the order of their first index; needs
        ``score``. The dataset is then run, here and now.
    :param initial: with ``reduce``, as ``simulate``'s.
    :returns: ``dataset.map_batches(...)``: each row the outcome (or score)
        ``simulate`` gives for the same job at the same index; with
        ``reduce``, the :class:`~redzone.execution.jobs.Reduced` ``simulate``
        gives.
    :raises BadQueryError: as ``simulate``, for a bad ``outcome``, ``score``,
        ``reduce`` or ``initial``.
    :raises ScoreError: where ``score`` or ``reduce`` raised, naming the job
        (with ``reduce``, here; else when the dataset is run, in Ray's error).
    :raises BatchError: for an engine a worker can't rebuild by name.

    .. versionadded:: 0.1.0
    """
    query = _query(outcome, score, reduce, initial, sent=True, who="run_dataset")
    feed = _feed(engine, rules, query)
    done = dataset.map_batches(_batch, fn_args=(column, index, feed), batch_size=batch_size,
                               batch_format="default")
    if query.reduce is None:
        return done
    rows = sorted(done.take_all(), key=lambda r: int(r["first"]))
    return _reduced((pickle.loads(r["partial"]) for r in rows), query.reduce, initial,
                    "run_dataset")


def jobs_dataset(jobs: Iterable[Any], *, column: str = "job", index: str = "index") -> Any:
    """A Ray dataset of jobs with their indexes, as :func:`run_dataset` takes
    (made in this process: ``ray.data.from_items``).

    .. versionadded:: 0.1.0
    """
    data: Any = importlib.import_module("ray.data")
    return data.from_items([{index: i, column: job} for i, job in enumerate(jobs)])


def outcome_of_row(row: Mapping[str, Any]) -> JobOutcome | LightOutcome | Scored:
    """The :class:`~redzone.execution.jobs.JobOutcome` of a row of
    :func:`run_dataset`'s dataset; the
    :class:`~redzone.execution.jobs.LightOutcome` of a row with a ``light``
    column, the :class:`~redzone.execution.jobs.Scored` of a row with a
    ``value`` column.

    .. versionadded:: 0.1.0
    """
    head = (int(row["index"]), str(row["source"]), int(row["status"]))
    if "value" in row:
        return Scored(*head, str(row["kind"]), _plain(row["value"]), str(row["message"]),
                      int(row["retried"]))
    if "light" in row:
        data = json.loads(str(row["light"]))
        return LightOutcome(*head, str(row["kind"]), FrozenMap(data["lives"]),
                            FrozenMap(data["poison"]), tuple(data["deaths"]),
                            bool(data["game_over"]), tuple(data["winners"]),
                            tuple(data["losers"]), bool(data["draw"]), str(row["message"]),
                            int(row["retried"]))
    return JobOutcome(*head, str(row["json"]), tuple(str(k) for k in row["keywords"]),
                      float(row["seconds"]), str(row["worker"]), int(row["retried"]))


def _plain(value: Any) -> Any:
    """A score as it was returned: a NumPy scalar or array Ray made of it
    back to Python values."""
    if type(value).__module__ == "numpy":
        return value.tolist()
    return value


__all__ = ["LIGHT_COLUMNS", "OUTCOME_COLUMNS", "SCORED_COLUMNS", "jobs_dataset",
           "outcome_of_row", "run_bag", "run_dataset"]
