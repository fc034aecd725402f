"""The caller's memory stays flat whatever the number of jobs (issue 24, item 1).

Jobs come from a generator, outcomes go to a sink with progress reported,
and the caller keeps nothing: the peak of what Python allocates in the
caller's process (``tracemalloc``) for 12,000 jobs must be about that for
1,500. Kept outcomes (about 250 bytes each at the least), payloads drawn
from the generator without a bound on the chunks in flight, or a list of
the keys written would add megabytes to the larger run and fail it.

Three jobs in four are of no known kind (each a ``bad_job`` outcome, cheap
to make): the stream around the jobs is what is measured, and tracing every
allocation makes each real combat cost about 2 ms.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from redzone import Engine
from redzone.execution import simulate
from redzone.execution.jobs import unpack_jobs
from redzone.execution.simulation import FIRST_CHUNK

HAS_DASK = importlib.util.find_spec("distributed") is not None

#: The two batch sizes compared.
SMALL, LARGE = 1_500, 12_000

#: What the larger run's peak may add to twice the smaller's (bytes).
SLACK = 512 * 1024

#: The chunk size of both runs: chosen by ``simulate``, it grows with the
#: number of jobs up to the executor's largest (1,024 jobs on Dask), and
#: the chunks in flight with it; fixed, what the two runs' peaks differ by
#: is what the caller keeps per job. (The chunks in flight are bounded
#: below, by the window test.)
CHUNK = 128


def _jobs(engine: Engine, n: int) -> Iterator[Any]:
    c = engine.creature
    states = [engine.game(["a", "b"], [c("x", "a", 1 + i % 5, 2), c("y", "b", 2, 1 + i % 3)])
              for i in range(10)]
    for i in range(n):
        if i % 4:
            yield i  # a bad_job outcome
        else:
            yield (states[i % 10], {"attacks": {"x": "b"}, "blocks": {"y": "x"} if i % 8 else {}})


def _peak(engine: Engine, n: int, executor: Any, out: Path) -> tuple[int, int]:
    """The peak of traced memory above what was traced before, and the jobs done."""
    done = [0]

    def progress(count: int, total: int | None, outcome: Any) -> None:
        done[0] = count

    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    for _ in simulate(_jobs(engine, n), engine=engine, executor=executor, sink=out,
                      progress=progress, chunksize=CHUNK):
        pass
    return tracemalloc.get_traced_memory()[1] - base, done[0]


@contextmanager
def _executor(where: str) -> Iterator[Any]:
    if where == "serial":
        yield None
    elif where == "pool":
        with cf.ProcessPoolExecutor(max_workers=2) as pool:
            yield pool
    else:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            yield client


@pytest.mark.parametrize("where", ["serial", "pool", pytest.param("dask", marks=pytest.mark.skipif(
    not HAS_DASK, reason="Dask (redzone[dask]) is not installed"))])
def test_the_callers_peak_memory_does_not_grow_with_the_number_of_jobs(
        tmp_path: Path, where: str) -> None:
    """With Dask, a ``LocalCluster`` runs its scheduler in the caller's
    process, where Dask keeps the latest messages of each connection, each
    holding a chunk's jobs (1000 by default): ``simulate`` shortens those
    logs (:data:`~redzone.execution.executors.MESSAGE_LOG`), else the peak
    grows with every chunk sent."""
    engine = Engine(verify=False)
    with _executor(where) as pool:
        _peak(engine, 200, pool, tmp_path / "warm.jsonl")  # imports, caches, workers up
        tracemalloc.start()
        try:
            small, n_small = _peak(engine, SMALL, pool, tmp_path / "small.jsonl")
            large, n_large = _peak(engine, LARGE, pool, tmp_path / "large.jsonl")
        finally:
            tracemalloc.stop()
    assert (n_small, n_large) == (SMALL, LARGE)
    assert sum(1 for _ in (tmp_path / "large.jsonl").open(encoding="utf-8")) == LARGE
    assert large <= 2 * small + SLACK, (
        f"{where}: peak {small / 1024:.0f} KiB for {SMALL} jobs, {large / 1024:.0f} KiB "
        f"for {LARGE}")


def test_the_chunks_in_flight_and_the_jobs_drawn_ahead_are_bounded() -> None:
    """Item 1: ``simulate`` sends at most two chunks per worker ahead of the
    one the caller waits for, and draws from the input only what those
    chunks hold (plus the look-ahead choosing the chunk size), however many
    jobs the input has."""
    engine = Engine(verify=False)
    in_flight, most = [0], [0]
    drawn = [0]

    class Counting(cf.ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
            in_flight[0] += 1
            most[0] = max(most[0], in_flight[0])
            future = super().submit(fn, *args, **kwargs)
            future.add_done_callback(lambda _: in_flight.__setitem__(0, in_flight[0] - 1))
            return future

    def jobs() -> Iterator[Any]:
        for job in _jobs(engine, 5_000):
            drawn[0] += 1
            yield job

    ahead = 0
    with Counting(max_workers=2) as pool:
        for n, _ in enumerate(simulate(jobs(), engine=engine, executor=pool, chunksize=8), 1):
            ahead = max(ahead, drawn[0] - n)
    assert n == 5_000
    assert most[0] <= 2 * 2 + 1  # the window of two chunks per worker, and the one refilled
    assert ahead <= (2 * 2 + 1) * 8


def test_each_workers_first_chunk_is_small_and_the_rest_as_large_as_chosen() -> None:
    """Item 1 (time to first result): with the chunk size left to
    ``simulate`` on an executor whose chunks may hold 256 jobs (as Dask's
    and Ray's may), each worker's first chunk holds at most
    ``FIRST_CHUNK`` jobs and later ones the size chosen; every job's outcome
    comes back once, in order. A size the caller gives is used throughout."""
    engine = Engine(verify=False)
    sizes: list[int] = []

    class Big(cf.ThreadPoolExecutor):
        max_chunk = 256

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
            sizes.append(len(unpack_jobs(args[0])))
            return super().submit(fn, *args, **kwargs)

    jobs = list(_jobs(engine, 3_000))
    with Big(max_workers=2) as pool:
        outcomes = list(simulate(jobs, engine=engine, executor=pool))
    assert [o.index for o in outcomes] == list(range(3_000))
    assert sum(sizes) == 3_000
    assert sizes[:2] == [FIRST_CHUNK, FIRST_CHUNK]
    assert max(sizes[2:]) > FIRST_CHUNK and max(sizes) <= 256
    sizes.clear()
    with Big(max_workers=2) as pool:
        assert len(list(simulate(jobs[:200], engine=engine, executor=pool, chunksize=50))) == 200
    assert sizes == [50, 50, 50, 50]
