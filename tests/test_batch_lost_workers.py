"""Losing every worker, and hung jobs, on Dask and Ray (issue 24, item 4).

A Dask or Ray cluster whose workers are all gone keeps a batch's tasks
waiting for workers that may never come: ``simulate`` must end such a batch
with :class:`~redzone.execution.faults.WorkersLost`, naming the executor,
within about ``lost_after`` seconds of the last worker going (Ray first
takes its own time, about 15 s, to mark a killed node dead), never wait for
ever. Dask's workers are closed in process, and killed as separate
processes; Ray runs in process with no CPU (a Ray cluster of separate
processes needs its token set before Ray is first imported, which a test
session can't promise). The outcomes given before are whole, and a resumed batch goes on from
its sink. Each test runs the batch on a thread and bounds its own time.

Also here, a job past its time limit is cut on a Dask worker process (an
exception raised in the task's thread) and on a Ray worker (``SIGALRM`` on
the task's main thread), and the batch goes on.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from _plugin_module import named_jobs, plugin_module
from _ray import ray_started
from redzone import Engine
from redzone.execution import JobOutcome, RayExecutor, simulate
from redzone.execution.executors import live_workers
from redzone.execution.faults import WorkersLost, wait_result
from test_batch_clusters import (
    HAS_DASK,
    HAS_RAY,
    REQUIRED,
    START_SECONDS,
    _end,
    _env,
    start_dask_scheduler,
    start_dask_worker,
)

needs_dask = pytest.mark.skipif(not HAS_DASK and not REQUIRED,
                                reason="Dask (redzone[dask]) is not installed")
needs_ray = pytest.mark.skipif(not HAS_RAY and not REQUIRED,
                               reason="Ray (redzone[ray]) is not installed")

PLUGIN = '''
import time
from redzone import hookimpl

@hookimpl
def redzone_attack_violations(state, attacker):
    name = state.objects[attacker].name
    if name == "Slow":
        time.sleep(0.3)         # a job that takes a while: the batch is mid-way when killed
    if name == "Sloth":
        time.sleep(60)          # hung in a sleep
    if name == "Spinner":
        while True:             # hung in a Python loop
            pass
    return None
'''

#: The seconds of no worker after which these batches end.
LOST_AFTER = 2.0


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The plugin above, importable here and by every process started after."""
    with plugin_module(tmp_path_factory.mktemp("lost"), "rz_batch_lost", PLUGIN) as module:
        yield module


@pytest.fixture(scope="module")
def engine(slow: ModuleType) -> Engine:
    return Engine(plugins=[slow], verify=False)


class Batch:
    """``simulate`` run on a thread: its outcomes as they come, and how it ended."""

    def __init__(self, run: Callable[[], Iterator[JobOutcome]]) -> None:
        self.outcomes: list[JobOutcome] = []
        self.error: BaseException | None = None
        self.ended_at = 0.0
        self._thread = threading.Thread(target=self._run, args=(run,), daemon=True)
        self._thread.start()

    def _run(self, run: Callable[[], Iterator[JobOutcome]]) -> None:
        try:
            for outcome in run():
                self.outcomes.append(outcome)
        except BaseException as exc:
            self.error = exc
        finally:
            self.ended_at = time.monotonic()

    def wait_for(self, n: int, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while len(self.outcomes) < n and self._thread.is_alive():
            assert time.monotonic() < deadline, f"{len(self.outcomes)} outcomes in {seconds} s"
            time.sleep(0.05)
        assert len(self.outcomes) >= n, self.error

    def join(self, seconds: float) -> None:
        self._thread.join(seconds)
        assert not self._thread.is_alive(), f"the batch didn't end within {seconds} s"


def test_wait_result_ends_after_lost_after_seconds_with_no_worker() -> None:
    """The bounded wait itself: ``live`` says 0 workers, the future never
    ends; a worker seen again starts the count anew; ``None`` (an executor
    that can't say) waits as before."""
    never: cf.Future[int] = cf.Future()
    start = time.monotonic()
    with pytest.raises(WorkersLost, match=r"every worker of the Dask cluster X was lost.*0\.3 s"):
        wait_result(never, lambda: 0, 0.3, what="the Dask cluster X", poll=0.05)
    assert 0.3 <= time.monotonic() - start < 5
    seen = iter([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    start = time.monotonic()
    with pytest.raises(WorkersLost):
        wait_result(never, lambda: next(seen), 0.15, poll=0.05)
    assert time.monotonic() - start >= 0.3  # the count began again after the worker
    done: cf.Future[int] = cf.Future()
    threading.Timer(0.2, done.set_result, (7,)).start()
    assert wait_result(done, lambda: None, 0.05, poll=0.01) == 7
    assert live_workers(cf.ThreadPoolExecutor(1)) is None


@needs_dask
def test_a_dask_cluster_scaled_to_no_worker_mid_batch_ends_the_batch(
        engine: Engine, tmp_path: Path) -> None:
    """Every worker of an in-process Dask cluster closed mid-batch: the
    batch ends with WorkersLost naming the scheduler, about ``lost_after``
    seconds later; its sink holds the outcomes given, and a resumed batch
    on a new cluster resolves exactly the rest."""
    from distributed import Client, LocalCluster

    jobs = named_jobs(engine, ["Slow"] * 24)
    out = tmp_path / "out.jsonl"
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        address = client.scheduler.address
        batch = Batch(lambda: simulate(jobs, engine=engine, executor=client, chunksize=2,
                                       sink=out, lost_after=LOST_AFTER))
        batch.wait_for(2, 60)
        cluster.scale(0)
        gone = time.monotonic()
        batch.join(60)
    assert isinstance(batch.error, WorkersLost), batch.error
    assert address in str(batch.error) and "resume=True" in str(batch.error)
    assert batch.ended_at - gone < LOST_AFTER + 15
    done = len(batch.outcomes)
    assert 2 <= done < 24 and all(o.ok for o in batch.outcomes)
    with LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        rest = list(simulate(jobs, engine=engine, executor=client, sink=out, resume=True))
    assert [o.index for o in rest] == list(range(done, 24))


@needs_dask
def test_a_dask_worker_process_killed_mid_batch_ends_the_batch(
        engine: Engine, tmp_path: Path) -> None:
    """A Dask scheduler and its only ``dask worker`` as separate processes;
    the worker's processes killed (SIGKILL) mid-batch: WorkersLost within
    a bounded time, never a batch that waits for ever."""
    from distributed import Client

    env = _env()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        sched_file = start_dask_scheduler(procs, tmp_path, env)
        start_dask_worker(procs, tmp_path, "w", env)
        with Client(scheduler_file=str(sched_file), timeout=START_SECONDS) as client:
            client.wait_for_workers(1, timeout=START_SECONDS)
            jobs = named_jobs(engine, ["Slow"] * 30)
            batch = Batch(lambda: simulate(jobs, engine=engine, executor=client, chunksize=2,
                                           lost_after=LOST_AFTER))
            batch.wait_for(2, 60)
            os.killpg(procs[1].pid, signal.SIGKILL)
            gone = time.monotonic()
            batch.join(60)
        assert isinstance(batch.error, WorkersLost), batch.error
        assert "every worker of the Dask cluster of the scheduler tcp://127.0.0.1" in str(
            batch.error)
        assert batch.ended_at - gone < LOST_AFTER + 30
        assert 2 <= len(batch.outcomes) < 30
    finally:
        _end(procs)


@needs_dask
def test_a_hung_job_is_cut_at_its_timeout_on_dask_worker_processes(engine: Engine) -> None:
    """``timeout=`` on Dask: the hung job (a Python loop, on a worker's task
    thread) is a ``timeout`` outcome and its neighbours resolve."""
    from distributed import Client, LocalCluster

    jobs = named_jobs(engine, ["Bear"] * 3 + ["Spinner"] + ["Bear"] * 3)
    with LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        batch = Batch(lambda: simulate(jobs, engine=engine, executor=client, chunksize=2,
                                       timeout=0.5))
        batch.join(90)
    assert batch.error is None, batch.error
    assert [(o.index, o.kind) for o in batch.outcomes if not o.ok] == [(3, "timeout")]
    assert len(batch.outcomes) == 7


@needs_ray
def test_a_hung_job_is_cut_at_its_timeout_on_ray(engine: Engine) -> None:
    """``timeout=`` on Ray: the hung job (a sleep, cut by ``SIGALRM`` on the
    Ray worker's main thread) is a ``timeout`` outcome and its neighbours
    resolve."""
    with ray_started(num_cpus=1, include_dashboard=False):
        jobs = named_jobs(engine, ["Bear", "Sloth", "Bear"])
        batch = Batch(lambda: simulate(jobs, engine=engine, executor=RayExecutor(), chunksize=1,
                                       timeout=0.5))
        batch.join(90)
    assert batch.error is None, batch.error
    assert [o.kind for o in batch.outcomes] == ["resolved", "timeout", "resolved"]


@needs_ray
def test_a_ray_cluster_with_no_worker_ends_the_batch(engine: Engine) -> None:
    """A Ray whose nodes have no CPU left (here: none from the start) runs
    no task: the batch ends with WorkersLost about ``lost_after`` seconds
    later instead of waiting for ever. (By hand, a worker node killed
    mid-batch ended a batch 18 s after the kill: Ray's 15 s to mark the node
    dead, then ``lost_after``.)"""
    with ray_started(num_cpus=0, include_dashboard=False):
        executor = RayExecutor()
        assert executor.live_workers() == 0
        start = time.monotonic()
        batch = Batch(lambda: simulate(named_jobs(engine, ["Bear"] * 4), engine=engine,
                                       executor=executor, lost_after=LOST_AFTER))
        batch.join(60)
    assert isinstance(batch.error, WorkersLost), batch.error
    assert "every worker of the Ray cluster was lost" in str(batch.error)
    assert LOST_AFTER <= batch.ended_at - start < LOST_AFTER + 20
    assert batch.outcomes == []
