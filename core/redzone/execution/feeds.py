"""Feeds: jobs that live on a cluster already, in a Dask bag or a Ray dataset.

:func:`~redzone.execution.simulation.simulate` sends the caller's jobs to
workers. When the jobs are made on the cluster (a bag read from many files, a
dataset built by an earlier stage), :func:`run_bag` and :func:`run_dataset`
resolve them where they are, with the same worker code: each partition (or
batch) rebuilds the engine by name from the caller's
:class:`~redzone.execution.engines.EngineSpec`, checks it, and gives one
:class:`~redzone.execution.jobs.JobOutcome` per job, the same outcome, byte
for byte, as ``simulate`` gives for that job at that index.

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
import os
from collections.abc import Iterable, Mapping
from typing import Any, Final

from attrs import frozen

from redzone.execution.engines import EngineSpec, WorkerSetupError, worker_engine
from redzone.execution.jobs import (
    JobOutcome,
    _FileJob,
    _Planner,
    _run,
    _run_payload,
)
from redzone.formats.outcome import command_engine
from redzone.formats.scenario import Scenario
from redzone.kernel.engine import Engine
from redzone.kernel.model import GameState

#: The columns of a dataset :func:`run_dataset` gives: the fields of
#: :class:`~redzone.execution.jobs.JobOutcome`, each a column.
OUTCOME_COLUMNS: Final = ("index", "source", "status", "json", "keywords", "seconds",
                          "worker", "retried")


@frozen
class _Feed:
    """What each partition is given: the caller's engine by name."""

    spec: EngineSpec
    family: tuple[tuple[str, EngineSpec], ...]
    rules: str | None


def _feed(engine: Engine | None, rules: str | None) -> _Feed:
    planner = _Planner(engine if engine is not None else command_engine(), rules)
    return _Feed(planner.spec, planner.family(), rules)


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


def _run_jobs(jobs: Iterable[Any], offset: int, feed: _Feed) -> list[JobOutcome]:
    """Resolve the jobs of one partition, the first at index ``offset``
    (what :func:`run_bag` and :func:`run_dataset` run on the workers)."""
    out: list[JobOutcome] = []
    planner: _Planner | None = None
    for index, job in enumerate(jobs, offset):
        if _is_text(job):
            name, text = job
            content = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
            out.append(_run_payload(index, _FileJob(name, feed.family, feed.rules, content)))
            continue
        if isinstance(job, str | os.PathLike):
            out.append(_run_payload(index, _FileJob.read(os.fspath(job), feed.family,
                                                         feed.rules)))
            continue
        if planner is None:
            try:
                planner = _Planner(worker_engine(feed.spec), feed.rules)
            except WorkerSetupError as exc:
                out.append(_run(index, _source(index, job), functools.partial(_raise, exc)))
                continue
            planner._spec, planner._family = feed.spec, feed.family
        out.append(_run_payload(index, planner.payload(index, job)))
    return out


def _raise(error: BaseException) -> Scenario:
    raise error


def _offsets(*counts: int) -> list[int]:
    return [0, *itertools.accumulate(counts)][:-1]


def _partition(jobs: Iterable[Any], offsets: list[int], number: int, feed: _Feed
               ) -> list[JobOutcome]:
    return _run_jobs(jobs, offsets[number], feed)


def _indexed_partition(pairs: Iterable[tuple[int, Any]], feed: _Feed) -> list[JobOutcome]:
    out: list[JobOutcome] = []
    for index, job in pairs:
        out.extend(_run_jobs([job], int(index), feed))
    return out


def run_bag(bag: Any, *, engine: Engine | None = None, rules: str | None = None,
            indexed: bool = False) -> Any:
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
    :returns: a ``dask.bag.Bag`` of outcomes, each what ``simulate`` gives for
        the same job at the same index.
    :raises BatchError: for an engine a worker can't rebuild by name.

    .. versionadded:: 0.1.0
    """
    feed = _feed(engine, rules)
    if indexed:
        return bag.map_partitions(_indexed_partition, feed)
    delayed: Any = importlib.import_module("dask").delayed
    from_delayed: Any = importlib.import_module("dask.bag").from_delayed
    parts = bag.to_delayed()
    offsets = delayed(_offsets)(*(delayed(len)(p) for p in parts))
    return from_delayed([delayed(_partition)(p, offsets, n, feed)
                         for n, p in enumerate(parts)])


def _batch(batch: Mapping[str, Any], column: str, index: str, feed: _Feed
           ) -> dict[str, list[Any]]:
    outcomes: list[JobOutcome] = []
    for i, job in zip(batch[index], batch[column], strict=True):
        outcomes.extend(_run_jobs([_native(job)], int(i), feed))
    return {"index": [r.index for r in outcomes], "source": [r.source for r in outcomes],
            "status": [r.status for r in outcomes], "json": [r.json for r in outcomes],
            "keywords": [list(r.keywords) for r in outcomes],
            "seconds": [r.seconds for r in outcomes], "worker": [r.worker for r in outcomes],
            "retried": [r.retried for r in outcomes]}


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
                column: str = "job", index: str = "index", batch_size: int = 64) -> Any:
    """A Ray dataset of the outcome of each job of ``dataset`` (lazy).

    Each row of ``dataset`` holds a job in ``column`` and its index in
    ``index`` (:func:`jobs_dataset` makes such a dataset from a list of
    jobs). Each output row holds the fields of
    :class:`~redzone.execution.jobs.JobOutcome` (:data:`OUTCOME_COLUMNS`);
    :func:`outcome_of_row` makes one back.

    :param engine: as :func:`~redzone.execution.simulation.simulate`'s;
        rebuilt by name on each worker.
    :param rules: as ``simulate``'s.
    :param batch_size: rows per batch handed to a worker.
    :returns: ``dataset.map_batches(...)``: each row the outcome ``simulate``
        gives for the same job at the same index.
    :raises BatchError: for an engine a worker can't rebuild by name.

    .. versionadded:: 0.1.0
    """
    feed = _feed(engine, rules)
    return dataset.map_batches(_batch, fn_args=(column, index, feed), batch_size=batch_size,
                               batch_format="default")


def jobs_dataset(jobs: Iterable[Any], *, column: str = "job", index: str = "index") -> Any:
    """A Ray dataset of jobs with their indexes, as :func:`run_dataset` takes
    (made in this process: ``ray.data.from_items``).

    .. versionadded:: 0.1.0
    """
    data: Any = importlib.import_module("ray.data")
    return data.from_items([{index: i, column: job} for i, job in enumerate(jobs)])


def outcome_of_row(row: Mapping[str, Any]) -> JobOutcome:
    """The :class:`~redzone.execution.jobs.JobOutcome` of a row of
    :func:`run_dataset`'s dataset.

    .. versionadded:: 0.1.0
    """
    return JobOutcome(int(row["index"]), str(row["source"]), int(row["status"]),
                      str(row["json"]), tuple(str(k) for k in row["keywords"]),
                      float(row["seconds"]), str(row["worker"]), int(row["retried"]))


__all__ = ["OUTCOME_COLUMNS", "jobs_dataset", "outcome_of_row", "run_bag", "run_dataset"]
