"""A job hung in C code is cut by the caller at its deadline (issue 24, item 4).

A job's time limit is enforced on its worker (:mod:`redzone.execution.faults`),
but only in Python code: a job stuck in C code (here a sleep with ``SIGALRM``
blocked, which neither the alarm nor an asynchronous exception can cut)
holds its worker. The caller then cuts it at its chunk's deadline
(``timeout`` per job plus ``GRACE``): a process pool's workers are killed and
the pool replaced, the job is a ``timeout`` outcome and the batch goes on.
On Ray the task's worker process is ended; on Dask the task's worker is
restarted by its nanny. Run serially, such a job can't be cut
(the batch waits for it): not tested.

Each batch runs in a thread joined with a time bound, so a regression fails
instead of hanging the suite.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from _plugin_module import named_jobs, plugin_module
from _ray import ray_started
from redzone import Engine
from redzone.execution import JobOutcome, faults, simulate, simulation
from redzone.execution.executors import worker_start

HAS_DASK = importlib.util.find_spec("distributed") is not None
HAS_RAY = importlib.util.find_spec("ray") is not None

#: The grace the tests give (GRACE's default leaves room for slow workers).
GRACE = 1.0

HUNG_PLUGIN = '''
import os
import signal
import time
from redzone import hookimpl

@hookimpl
def redzone_attack_violations(state, attacker):
    if state.objects[attacker].name == "Stone":
        # hung in C: the alarm that cuts a job can't reach this sleep
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(30)
    return None
'''


@pytest.fixture(scope="module")
def hung(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with plugin_module(tmp_path_factory.mktemp("hung"), "rz_batch_hung", HUNG_PLUGIN) as module:
        yield module


@pytest.fixture(scope="module")
def engine(hung: ModuleType) -> Engine:
    return Engine(plugins=[hung])


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    real = getattr(faults, "chunk_deadline", None)
    monkeypatch.setattr(simulation, "chunk_deadline",
                        lambda timeout, jobs: real(timeout, jobs, GRACE), raising=False)


def _bounded(run: Callable[[], list[JobOutcome]], seconds: float) -> list[JobOutcome]:
    """``run()``'s outcomes, failing the test if it takes more than ``seconds``."""
    box: list[Any] = []
    t = threading.Thread(target=lambda: box.append(run()), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"the batch did not end within {seconds} s"
    return list(box[0])


def _pids(pool: cf.ProcessPoolExecutor) -> set[int]:
    return set(pool._processes)  # type: ignore[attr-defined]


def _clean_start() -> Any:
    """The start method of the pool the hung job runs on: forkserver. Its
    workers fork from a server started afresh (exec'd), not from the suite's
    process, which by then may hold the threads of an earlier test's Ray
    client. gRPC skips its fork handlers while its threads are busy ("Other
    threads are currently calling into gRPC, skipping fork() handlers"), and
    in one CI run both pools forked in such a moment lost a worker at once:
    the hung job came back worker_lost ("lost twice (ChunkHung ...; then
    BrokenProcessPool ...)") instead of cut at its deadline. The pools that
    replace a broken one take its start method, so they fork from the
    server too; the server imports redzone once, for every worker."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["redzone.execution.simulation", "redzone_keywords"])
    return ctx


@pytest.mark.parametrize("chunksize", [1, 3])
def test_a_job_hung_in_c_on_a_process_pool_is_cut_and_its_pool_replaced(
        engine: Engine, chunksize: int) -> None:
    """Issue 24, item 4: on a process pool of 2, a job hung in C is a
    ``timeout`` outcome within a bounded time, its neighbours' outcomes are
    the serial ones, and the pool's processes were replaced."""
    names = ["Bear"] * 4 + ["Stone"] + ["Bear"] * 4
    jobs = named_jobs(engine, names)
    serial = list(simulate(jobs[:4] + jobs[5:], engine=engine))
    pools: list[cf.ProcessPoolExecutor] = []
    real = simulation._replace

    def spy(executor: cf.Executor, owned: list[cf.Executor]) -> cf.Executor:
        new = real(executor, owned)
        assert isinstance(new, cf.ProcessPoolExecutor)
        pools.append(new)
        return new

    # (The suite's process may have a SIGTERM handler by now, set by a
    # cluster's client in an earlier test: the workers reset it, as redzone's
    # own pools do, so that the broken pool's shutdown ends them.)
    with cf.ProcessPoolExecutor(max_workers=2, initializer=worker_start,
                                mp_context=_clean_start()) as pool:
        pool.submit(int).result()  # a worker starts
        before = _pids(pool)
        start = time.monotonic()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(simulation, "_replace", spy)

            def run() -> list[JobOutcome]:
                got = simulate(jobs, engine=engine, executor=pool, chunksize=chunksize,
                               timeout=0.5)
                out = []
                for r in got:
                    out.append(r)
                    if r.index == len(jobs) - 1:  # the new pool, still open
                        after.update(_pids(pools[-1]))
                return out

            after: set[int] = set()
            got = _bounded(run, 20)
        took = time.monotonic() - start
    cut = got[4]
    # (the outcome, which says what was raised, when a job is lost instead)
    assert (cut.index, cut.status, cut.kind) == (4, 3, "timeout"), cut.outcome
    message = cut.outcome["error"]["message"]
    assert "cut by the caller" in message and "worker was ended and replaced" in message
    assert [(r.status, r.json) for r in got if r.index != 4] == [
        (r.status, r.json) for r in serial]
    assert pools and after and not after & before  # other processes now
    assert took < 15


@pytest.mark.skipif(not HAS_DASK, reason="Dask (redzone[dask]) is not installed")
def test_a_job_hung_in_c_on_dask_is_cut_and_its_worker_restarted(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, item 4: on Dask, a job hung in C is a ``timeout`` outcome at
    its deadline, the worker running it is restarted by its nanny (another
    process at the same place in the cluster), and the batch goes on: its
    neighbours resolve as serially, and afterwards both workers run jobs
    again (two jobs that each wait for the other run at once)."""
    from distributed import Client, LocalCluster

    names = ["Bear"] * 3 + ["Stone"] + ["Bear"] * 3
    jobs = named_jobs(engine, names)
    serial = list(simulate(jobs[:3] + jobs[4:], engine=engine))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        # A Dask worker starts cold: the imports and the engine first, so the
        # grace is the jobs'; the restarted worker starts cold again, and is
        # given the default grace (room to import and build the engine).
        for name in ("redzone.execution.simulation", "rz_batch_hung"):
            client.run(importlib.import_module, name)
        list(simulate(jobs[:2], engine=engine, executor=client, chunksize=1))
        monkeypatch.setattr(simulation, "chunk_deadline", faults.chunk_deadline)
        before = set(client.run(os.getpid).values())
        got = _bounded(lambda: list(simulate(jobs, engine=engine, executor=client,
                                             chunksize=1, timeout=0.5)), 90)
        client.wait_for_workers(2, timeout=30)
        after = set(client.run(os.getpid).values())
        # Both workers free: two tasks meeting at a barrier both run.
        token = f"rz-meet-{os.getpid()}-{time.time_ns()}"
        barrier = (client.submit(_meet, 0, token, pure=False),
                   client.submit(_meet, 1, token, pure=False))
        met = client.gather(list(barrier))
        shutil.rmtree(os.path.join(tempfile.gettempdir(), token), ignore_errors=True)
        cluster.close(timeout=5)
    assert (got[3].status, got[3].kind) == (3, "timeout"), got[3].outcome
    assert "worker was ended and replaced" in got[3].outcome["error"]["message"]
    assert [(r.status, r.json) for r in got if r.index != 3] == [
        (r.status, r.json) for r in serial]
    assert len(before - after) == 1 and len(after) == 2  # one worker process replaced
    assert sorted(met) == [0, 1]


def _meet(n: int, token: str) -> int:
    """Wait (at most 20 s) until the other of two calls has started: both
    return only when two workers run them at once."""
    import tempfile

    folder = os.path.join(tempfile.gettempdir(), token)
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, str(n)), "w").close()
    end = time.monotonic() + 20
    while not os.path.exists(os.path.join(folder, str(1 - n))):
        if time.monotonic() > end:
            raise TimeoutError("the other worker never started its call")
        time.sleep(0.05)
    return n


@pytest.mark.skipif(not HAS_RAY, reason="Ray (redzone[ray]) is not installed")
def test_a_job_hung_in_c_on_ray_is_cut_and_its_worker_ended(engine: Engine) -> None:
    """Issue 24, item 4: on Ray, a job hung in C is a ``timeout`` outcome at
    its deadline, its worker process ended (``ray.cancel(force=True)``), and
    its neighbours resolve as serially."""
    from redzone.execution.executors import RayExecutor

    names = ["Bear"] * 2 + ["Stone"] + ["Bear"] * 2
    jobs = named_jobs(engine, names)
    serial = list(simulate(jobs[:2] + jobs[3:], engine=engine))
    with ray_started(num_cpus=2, include_dashboard=False):
        executor = RayExecutor()
        # Ray's workers start cold: warm them, so the grace is the jobs'.
        list(simulate(jobs[:2], engine=engine, executor=executor, chunksize=1))
        got = _bounded(lambda: list(simulate(jobs, engine=engine, executor=executor,
                                             chunksize=1, timeout=0.5)), 30)
    assert (got[2].status, got[2].kind) == (3, "timeout"), got[2].outcome
    assert "worker was ended and replaced" in got[2].outcome["error"]["message"]
    assert [(r.status, r.json) for r in got if r.index != 2] == [
        (r.status, r.json) for r in serial]


def _sigterm_default() -> bool:
    import signal

    return signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_the_pools_redzone_makes_are_ended_by_their_terminate() -> None:
    """A pool that replaces a broken one has workers that end on SIGTERM
    (what a broken pool's shutdown sends its workers), even forked from a
    caller with a SIGTERM handler of its own: inherited, that handler runs
    only in the thread the signal reaches, and a worker blocked in C would
    live on and hold the shutdown for ever."""
    import signal

    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    owned: list[cf.Executor] = []
    try:
        fork = multiprocessing.get_context("fork")
        with cf.ProcessPoolExecutor(max_workers=1, mp_context=fork) as broken:
            assert broken.submit(_sigterm_default).result() is False  # inherited
            new = simulation._replace(broken, owned)
        assert isinstance(new, cf.ProcessPoolExecutor)
        assert new.submit(_sigterm_default).result() is True
    finally:
        signal.signal(signal.SIGTERM, previous)
        for pool in owned:
            pool.shutdown(wait=True)
