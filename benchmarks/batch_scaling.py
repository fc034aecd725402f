"""Batch simulation throughput against job count and worker count, the
per-job overhead of each executor, and an extrapolation to more cores.

Usage (from the repository root)::

    python benchmarks/batch_scaling.py                    # serial, pool 1 and 2, Dask, Ray
    python benchmarks/batch_scaling.py --counts 500,3000 --rounds 5
    python benchmarks/batch_scaling.py --executors serial,pool
    python benchmarks/batch_scaling.py --board mixed10 --counts 100,400   # ~3 ms jobs

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
from redzone.execution.jobs import _Planner, run_chunk
from redzone.execution.simulation import simulate
from redzone.testing.conformance import Case, cases, printed_keywords

sys.path.insert(0, str(Path(__file__).resolve().parent))


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
    elif kind == "dask":
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
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
    out = pickle.dumps(run_chunk(pickle.loads(blob)))
    return time.process_time() - start, out


def worker_cpu(ex: Any, engine: Engine, jobs: list[Any], size: int = 64) -> float:
    """A worker's CPU seconds per job (the chunks run one at a time)."""
    planner = _Planner(engine)
    payloads = [(i, planner.payload(i, j)) for i, j in enumerate(jobs)]
    blobs = [pickle.dumps(payloads[i:i + size]) for i in range(0, len(payloads), size)]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="200,1000,3000", help="job counts")
    parser.add_argument("--executors", default="serial,pool1,pool2,dask2,ray2",
                        help="serial, poolN, daskN, rayN (N workers)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", type=int, default=64, help="cores to extrapolate to")
    parser.add_argument("--board", choices=("generated", "mixed10"), default="generated")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.counts.split(",")]
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
    rows = []
    for name in args.executors.split(","):
        kind = name.rstrip("0123456789")
        workers = int(name[len(kind):] or 1)
        start = time.perf_counter()
        with executor(kind, workers) as ex:
            list(simulate(jobs[:20], executor=ex, engine=engine))
            startup = time.perf_counter() - start
            wcpu = worker_cpu(ex, engine, jobs)
            for n in counts:
                wall, cpu = timed(lambda ex=ex, n=n: list(
                    simulate(jobs[:n], executor=ex, engine=engine)), args.rounds)
                if kind == "serial":
                    serial[n] = wall
                base = serial.get(n)
                per = base / n if base else float("nan")
                overhead = workers * wall / n - per if kind != "serial" else 0.0
                bound = (min(args.cores / wcpu, 1 / (cpu / n)) if kind != "serial"
                         else float("nan"))
                rows.append((name, n, n / wall, (base / wall) if base else float("nan"),
                             overhead * 1e6, cpu / n * 1e6, bound, startup))
                print(f"{name:7} N={n:5} {n / wall:6.0f} jobs/s  speedup "
                      f"{rows[-1][3]:4.2f}  overhead {rows[-1][4]:6.0f} us/job  caller "
                      f"{rows[-1][5]:5.0f} us/job  worker cpu {wcpu * 1e6:5.0f} us/job  "
                      f"{args.cores} cores <= {bound:6.0f} jobs/s  (start-up {startup:.2f} s)",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
