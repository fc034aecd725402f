"""Batch simulation throughput against job count and worker count.

``simulate`` over generated boards (the test kit's generator: up to 3
attackers and 3 blockers, random keywords, some illegal declarations):
serially, on a process pool of 1 and 2, on a local Dask cluster of 2 and a
local Ray of 2 (skipped when not installed). Executors are started once per
module (start-up is not timed). ``extra_info`` gives the job count and the
workers; jobs/s is ``jobs / median``. ``benchmarks/batch_scaling.py`` prints
the same figures as a table, with the per-job overhead and an extrapolation.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest
from batch_scaling import corpus
from redzone import Engine
from redzone.execution import RayExecutor, simulate

COUNTS = (100, 1000)


@pytest.fixture(scope="module")
def jobs(engine: Engine) -> list[Any]:
    return corpus(engine, max(COUNTS))


@pytest.fixture(scope="module")
def pools() -> Iterator[dict[int, cf.ProcessPoolExecutor]]:
    made = {n: cf.ProcessPoolExecutor(max_workers=n) for n in (1, 2)}
    yield made
    for pool in made.values():
        pool.shutdown()


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("Dask (redzone[dask]) is not installed")
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def ray_executor() -> Iterator[Any]:
    if importlib.util.find_spec("ray") is None:
        pytest.skip("Ray (redzone[ray]) is not installed")
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield RayExecutor()
    ray.shutdown()


def _run(benchmark: Any, engine: Engine, jobs: list[Any], n: int, executor: Any,
         workers: int, group: str) -> None:
    benchmark.group = f"batch-{n}"
    benchmark.extra_info.update(jobs=n, workers=workers, executor=group)
    list(simulate(jobs[:20], executor=executor, engine=engine))  # warm the workers
    out = benchmark.pedantic(lambda: list(simulate(jobs[:n], executor=executor,
                                                   engine=engine)), rounds=3, iterations=1)
    assert len(out) == n


@pytest.mark.parametrize("n", COUNTS)
def test_batch_serial(benchmark: Any, engine: Engine, jobs: list[Any], n: int) -> None:
    _run(benchmark, engine, jobs, n, None, 1, "serial")


@pytest.mark.parametrize("workers", (1, 2))
@pytest.mark.parametrize("n", COUNTS)
def test_batch_process_pool(benchmark: Any, engine: Engine, jobs: list[Any], n: int,
                            workers: int, pools: dict[int, cf.ProcessPoolExecutor]) -> None:
    _run(benchmark, engine, jobs, n, pools[workers], workers, "pool")


@pytest.mark.parametrize("n", COUNTS)
def test_batch_dask(benchmark: Any, engine: Engine, jobs: list[Any], n: int,
                    dask_client: Any) -> None:
    _run(benchmark, engine, jobs, n, dask_client, 2, "dask")


@pytest.mark.parametrize("n", COUNTS)
def test_batch_ray(benchmark: Any, engine: Engine, jobs: list[Any], n: int,
                   ray_executor: Any) -> None:
    _run(benchmark, engine, jobs, n, ray_executor, 2, "ray")
