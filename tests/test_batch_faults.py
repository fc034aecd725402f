"""Faults in a batch: a job past its time limit, a job that kills its worker.

The "Batch runs" part of the scenario format: a job past ``--timeout`` is
reported with ``"kind": "timeout"`` and the batch goes on; one job that
kills its worker is reported as failed alone (``"kind": "worker_lost"``)
and the jobs that shared its worker are run again.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _plugin_module import named_jobs, plugin_module
from click.testing import CliRunner
from redzone import Engine
from redzone.execution import JobOutcome, simulate
from redzone.execution.faults import JobTimeout, time_limit
from redzone.frontends.cli import cli
from redzone.kernel.errors import BadQueryError

HAS_DASK = importlib.util.find_spec("distributed") is not None

FAULTY_PLUGIN = '''
import os
import time
from redzone import hookimpl

@hookimpl
def redzone_attack_violations(state, attacker):
    name = state.objects[attacker].name
    if name == "Sloth":
        time.sleep(60)          # hung: sleeps far past any time limit
    if name == "Spinner":
        while True:             # hung: a loop in Python
            pass
    if name == "Poison":
        os._exit(70)            # kills the worker running it
    return None
'''


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    folder = tmp_path_factory.mktemp("faulty")
    with plugin_module(folder, "rz_batch_faulty", FAULTY_PLUGIN) as module:
        yield module


@pytest.fixture(scope="module")
def engine(faulty: ModuleType) -> Engine:
    return Engine(plugins=[faulty])


def _texts(results: list[JobOutcome]) -> list[tuple[int, int, str]]:
    return [(r.index, r.status, r.json) for r in results]


def test_time_limit_cuts_a_sleep_and_a_loop_on_the_main_thread_and_on_others() -> None:
    def spin() -> None:
        while True:
            pass

    for body in (lambda: __import__("time").sleep(30), spin):
        with pytest.raises(JobTimeout), time_limit(0.2) as limit:
            body()
        assert limit.fired
        if body is not spin:
            continue  # a sleep on another thread is C code: not cut there (faults.py)
        seen: list[BaseException] = []

        def on_thread(body: Any = body, seen: list[BaseException] = seen) -> None:
            try:
                with time_limit(0.2):
                    body()
            except JobTimeout as exc:
                seen.append(exc)

        t = threading.Thread(target=on_thread)
        t.start()
        t.join(20)
        assert not t.is_alive() and len(seen) == 1
    with time_limit(5) as limit:
        pass
    assert not limit.fired


@pytest.mark.parametrize("where", ["serial", "pool", "threads"])
def test_a_hung_job_is_cut_at_its_timeout_and_the_batch_goes_on(engine: Engine,
                                                                 where: str) -> None:
    # A thread is cut only in Python code (a sleep is C code): Spinner there.
    hung = "Spinner" if where == "threads" else "Sloth"
    names = ["Bear"] * 6 + [hung] + ["Bear"] * 5 + ["Spinner"] + ["Bear"] * 3
    jobs = named_jobs(engine, names)
    expected = list(simulate(jobs[:6] + jobs[7:12] + jobs[13:], engine=engine))
    if where == "serial":
        got = list(simulate(jobs, engine=engine, timeout=0.5))
    else:
        make = cf.ProcessPoolExecutor if where == "pool" else cf.ThreadPoolExecutor
        with make(max_workers=2) as ex:
            got = list(simulate(jobs, engine=engine, executor=ex, chunksize=3, timeout=0.5))
    cut = [got[6], got[12]]
    assert all(r.status == 3 and r.kind == "timeout" for r in cut)
    error = cut[0].outcome["error"]
    assert "time limit of 0.5 s" in error["message"] and error["plugin"] == "rz_batch_faulty"
    others = [r for r in got if r.index not in (6, 12)]
    assert [(r.status, r.json) for r in others] == [(r.status, r.json) for r in expected]


def test_a_workers_set_up_is_not_its_first_jobs_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 4: the time limit is the job's. A worker building its engine
    (importing the plugins, once per process) before its first job doesn't
    spend that job's time: with a build that takes three times the limit,
    every job of a fresh process pool still resolves."""
    import multiprocessing

    from redzone.execution import engines

    real = engines.build_engine

    def slow_build(spec: Any) -> Engine:
        __import__("time").sleep(1.5)
        return real(spec)

    monkeypatch.setattr(engines, "build_engine", slow_build)  # inherited by forked workers
    monkeypatch.setattr(engines, "_ENGINES", {})
    plain = Engine()
    jobs = named_jobs(plain, ["Bear"] * 4)
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as ex:
        got = list(simulate(jobs, engine=plain, executor=ex, chunksize=1, timeout=0.5))
    assert [r.kind for r in got] == ["resolved"] * 4
    assert _texts(got) == _texts(list(simulate(jobs, engine=plain)))


def test_a_timeout_must_be_a_positive_number(engine: Engine) -> None:
    for bad in (0, -1, "2", True):
        with pytest.raises(BadQueryError, match="timeout"):
            simulate(named_jobs(engine, ["Bear"]), engine=engine, timeout=bad)  # type: ignore[arg-type]


def test_a_poison_job_fails_alone_and_its_neighbours_are_run_again(engine: Engine) -> None:
    names = ["Bear"] * 20 + ["Poison"] + ["Bear"] * 19
    jobs = named_jobs(engine, names)
    serial = list(simulate(jobs[:20] + jobs[21:], engine=engine))
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        got = list(simulate(jobs, engine=engine, executor=pool, chunksize=4))
    lost = [r for r in got if r.status != 0]
    assert [(r.index, r.kind) for r in lost] == [(20, "worker_lost")]
    others = [r for r in got if r.index != 20]
    assert [(r.status, r.json) for r in others] == [(r.status, r.json) for r in serial]
    assert any(r.retried for r in others)  # the poison's chunk-mates were sent again


@pytest.mark.skipif(not HAS_DASK, reason="Dask (redzone[dask]) is not installed")
def test_a_poison_job_fails_alone_on_dask(engine: Engine) -> None:
    import dask
    from distributed import Client, LocalCluster

    names = ["Bear"] * 8 + ["Poison"] + ["Bear"] * 7
    jobs = named_jobs(engine, names)
    serial = list(simulate(jobs[:8] + jobs[9:], engine=engine))
    # Dask's own retries off (allowed-failures 0): a task whose worker dies
    # errs at once, and redzone's retry (each job of the chunk alone) is what
    # isolates the poison. With Dask's default of 3, each poisoned task would
    # kill four workers, each replaced by a new process, for nothing tested.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                         dashboard_address=None) as cluster, Client(cluster) as client:
        got = list(simulate(jobs, engine=engine, executor=client, chunksize=4))
    assert [(r.index, r.kind) for r in got if r.status] == [(8, "worker_lost")]
    assert [(r.status, r.json) for r in got if r.index != 8] == [
        (r.status, r.json) for r in serial]


def test_cli_timeout_is_each_jobs_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """``redzone batch --timeout SECONDS`` is ``simulate(timeout=SECONDS)``;
    a limit that is not above 0 is a usage error."""
    import redzone.examples as examples
    import redzone.execution.simulation as simulation

    seen: list[Any] = []
    real = simulation.simulate

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("timeout"))
        return real(*args, **kwargs)

    monkeypatch.setattr(simulation, "simulate", spy)
    lure = str(Path(examples.__file__).parent / "lure.toml")
    result = CliRunner().invoke(cli, ["batch", "--json", "--timeout", "2.5", lure])
    assert result.exit_code == 0 and seen == [2.5]
    bad = CliRunner().invoke(cli, ["batch", "--timeout", "0", lure])
    assert bad.exit_code == 64 and "--timeout" in bad.output


def _kind(outcome: Any) -> str:
    """A score of a full or a light outcome: how the job ended."""
    return str(outcome.kind)


@pytest.mark.parametrize("asked", [{}, {"outcome": "light"}, {"score": _kind},
                                   {"outcome": "light", "score": _kind}])
def test_a_job_sent_again_says_so_in_every_kind_of_outcome_and_its_row(
        engine: Engine, tmp_path: Path, asked: dict[str, Any]) -> None:
    """The contract of ``retried``: a job sent again after its worker was
    lost says so, whether the batch gives full outcomes, light ones or
    scores, and its sink row says the same (``retried``); the poison job,
    lost twice, is one of them."""
    import json

    names = ["Bear"] * 6 + ["Poison"] + ["Bear"] * 5
    jobs = named_jobs(engine, names)
    out = tmp_path / "rows.jsonl"
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        got = list(simulate(jobs, engine=engine, executor=pool, chunksize=3, sink=out,
                            **asked))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r.retried for r in got] == [r["retried"] for r in rows]
    assert got[6].kind == "worker_lost" and got[6].retried == 1
    assert all(r.retried == 1 for r in got[6:9])  # the poison's chunk-mates, sent again
