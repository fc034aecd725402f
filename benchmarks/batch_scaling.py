"""Batch simulation throughput against job count and worker count, the
per-job overhead of each executor, and an extrapolation to more cores.

Usage (from the repository root)::

    python benchmarks/batch_scaling.py                    # serial, pool 1 and 2, Dask, Ray
    python benchmarks/batch_scaling.py --counts 500,3000 --rounds 5
    python benchmarks/batch_scaling.py --executors serial,pool
    python benchmarks/batch_scaling.py --board mixed10 --counts 100,400   # ~3 ms jobs
    python benchmarks/batch_scaling.py --light            # scores made on the workers

The jobs are ``(state, decisions)`` pairs from the test kit's board generator
(``redzone.testing.conformance.cases``: up to 3 attackers and 3 blockers,
random keywords, some illegal declarations, about 0.2 ms each), the same
every run; ``--board mixed10`` makes each job the benchmarks' mixed-keyword
board of 10 creatures a side (about 3 ms each). Each figure
is the median wall time of ``--rounds`` runs on a warm executor (started and
given one small batch first; the start-up is reported on its own). For each
run the caller's own CPU time is measured too: it bounds what any number of
workers can give, since the caller sends every job and receives every
outcome.

Figures per executor:

- ``jobs/s``: throughput; ``speedup``: against the serial run of the same jobs;
- ``overhead us/job``: wall time per job and worker not spent resolving:
  ``workers * wall / N - serial / N`` (on a loaded machine, mostly waiting
  for a core);
- ``caller us/job``: the caller's CPU time per job (it sends every job and
  receives every outcome);
- ``worker cpu us/job``: a worker's CPU time per job, unpickling the chunk,
  resolving and pickling the outcomes (measured by running the same chunks
  through the executor inside a timer), against the serial CPU time per job;
- ``64 cores``: ``min(64 / worker_cpu, 1 / caller)`` jobs/s: what 64 free
  cores would give at most, from CPU times measured here (which don't depend
  on what else the machine runs); it leaves out network transfer between
  machines and scheduler limits.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import pickle
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from redzone import Engine
from redzone.execution.executors import RayExecutor, as_executor
from redzone.execution.jobs import LightOutcome, Query, _Planner, pack, run_chunk, unpack_jobs
from redzone.execution.simulation import simulate
from redzone.testing.conformance import Case, cases, printed_keywords

sys.path.insert(0, str(Path(__file__).resolve().parent))


def damage(out: LightOutcome) -> int:
    """A search's score of a job: the life the defending player lost."""
    return 20 - min(out.lives.values()) if out.ok else 0


#: What every ``simulate`` call here asks for: the full outcome (default),
#: or with ``--light`` a score computed on the worker from the light outcome.
QUERY: dict[str, Any] = {}


def corpus(engine: Engine, n: int) -> list[tuple[Any, dict[str, Any]]]:
    out: list[Case] = []

    @settings(max_examples=n, derandomize=True, database=None, phases=[Phase.generate],
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(cases(engine, printed_keywords(engine, first_only=True)))
    def collect(case: Case) -> None:
        out.append(case)

    collect()
    return [(c.state, {"attacks": c.attacks, "blocks": c.blocks, "assign": c.assign})
            for c in out]


@contextmanager
def executor(kind: str, workers: int) -> Iterator[Any]:
    if kind == "serial":
        yield None
    elif kind == "pool":
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool
    elif kind == "dask":  # as ``redzone batch --executor dask:local`` makes it
        from redzone.execution.localdask import local_dask

        with local_dask(workers) as client:
            yield client
    elif kind == "lc":  # a LocalCluster: its scheduler runs in the caller's process
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        with cluster, Client(cluster) as client:
            yield client
    elif kind == "ray":
        import ray

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            yield RayExecutor()
        finally:
            ray.shutdown()
    else:
        raise SystemExit(f"unknown executor {kind!r}")


def timed_chunk(blob: bytes) -> tuple[float, bytes]:
    """Run a pickled chunk inside a CPU timer, as a worker does."""
    start = time.process_time()
    query = Query("light", damage) if QUERY else None
    out = pickle.dumps(run_chunk(unpack_jobs(blob), None, query))
    return time.process_time() - start, out


def worker_cpu(ex: Any, engine: Engine, jobs: list[Any], size: int = 64) -> float:
    """A worker's CPU seconds per job (the chunks run one at a time)."""
    planner = _Planner(engine)
    payloads = [(i, planner.payload(i, j)) for i, j in enumerate(jobs)]
    blobs = [pack(payloads[i:i + size]) for i in range(0, len(payloads), size)]
    if ex is None:
        return sum(timed_chunk(b)[0] for b in blobs) / len(jobs)
    pool = as_executor(ex)
    return sum(pool.submit(timed_chunk, b).result()[0] for b in blobs) / len(jobs)


def timed(fn: Callable[[], object], rounds: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(rounds):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def first_result(ex: Any, engine: Engine, jobs: list[Any]) -> float:
    """Seconds from calling ``simulate`` to its first outcome."""
    start = time.perf_counter()
    it = simulate(jobs, executor=ex, engine=engine, **QUERY)
    next(it)
    seconds = time.perf_counter() - start
    for _ in it:
        pass
    return seconds


def memory(ex: Any, engine: Engine, jobs: list[Any], n: int) -> tuple[float, float]:
    """The caller's peak resident memory growth, in MB, while ``n`` jobs are
    simulated from a lazy stream (the jobs cycle through ``jobs``) and each
    outcome is written out and dropped; and the caller's CPU per job."""
    import resource

    def stream() -> Iterator[Any]:
        for i in range(n):
            yield jobs[i % len(jobs)]

    def rss_mb() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    list(simulate(jobs[:200], executor=ex, engine=engine, **QUERY))
    before = rss_mb()
    cpu = time.process_time()
    with open(os.devnull, "w", encoding="utf-8") as out:
        for outcome in simulate(stream(), executor=ex, engine=engine, **QUERY):
            out.write(outcome.json if not QUERY else str(outcome.value))
    return rss_mb() - before, (time.process_time() - cpu) / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="200,1000,3000", help="job counts")
    parser.add_argument("--executors", default="serial,pool1,pool2,dask2,ray2",
                        help="serial, poolN, daskN (a scheduler and N workers as processes "
                        "of their own, as dask:local), lcN (a Dask LocalCluster, its "
                        "scheduler in this process), rayN (N workers)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", type=int, default=64, help="cores to extrapolate to")
    parser.add_argument("--board", choices=("generated", "mixed10"), default="generated")
    parser.add_argument("--light", action="store_true",
                        help="what a search asks for: a score computed on the worker from "
                        "the light outcome, instead of the full JSON outcome")
    parser.add_argument("--memory", type=int, default=0, metavar="N",
                        help="instead: the caller's peak memory growth at N jobs streamed")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.counts.split(",")]
    if args.light:
        QUERY.update(outcome="light", score=damage)
    engine = Engine()
    if args.board == "mixed10":
        import rzbench

        board = rzbench.mixed(engine, 10)
        jobs: list[Any] = [(board.state, {"attacks": dict(board.attacks),
                                          "blocks": dict(board.blocks)})] * max(counts)
    else:
        jobs = corpus(engine, max(counts))
    print(f"{os.cpu_count()} CPUs here; load average {os.getloadavg()[0]:.2f}; "
          f"{len(jobs)} jobs ({args.board})", flush=True)
    serial: dict[int, float] = {}
    for name in args.executors.split(","):
        kind = name.rstrip("0123456789")
        workers = int(name[len(kind):] or 1)
        start = time.perf_counter()
        with executor(kind, workers) as ex:
            list(simulate(jobs[:20], executor=ex, engine=engine, **QUERY))
            startup = time.perf_counter() - start
            if args.memory:
                grown, caller = memory(ex, engine, jobs, args.memory)
                print(f"{name:7} N={args.memory:7} caller memory +{grown:6.1f} MB  caller "
                      f"{caller * 1e6:5.0f} us/job", flush=True)
                continue
            wcpu = worker_cpu(ex, engine, jobs)
            for n in counts:
                wall, cpu = timed(lambda ex=ex, n=n: list(
                    simulate(jobs[:n], executor=ex, engine=engine, **QUERY)), args.rounds)
                first = first_result(ex, engine, jobs[:n])
                if kind == "serial":
                    serial[n] = wall
                base = serial.get(n)
                speedup = base / wall if base else float("nan")
                bound = (min(args.cores / wcpu, 1 / (cpu / n)) if kind != "serial"
                         else args.cores / wcpu)
                print(f"{name:7} N={n:5} {n / wall:6.0f} jobs/s  speedup {speedup:4.2f}  "
                      f"caller {cpu / n * 1e6:5.0f} us/job  worker cpu {wcpu * 1e6:5.0f} "
                      f"us/job  first result {first * 1000:6.1f} ms  {args.cores} cores <= "
                      f"{bound:7.0f} jobs/s  (start-up {startup:.2f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
