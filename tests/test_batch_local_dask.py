"""The local Dask cluster of ``redzone batch --executor dask:local``
(``redzone.execution.localdask``): a scheduler and workers that are
processes of their own, so that the caller is only a client (its CPU bounds
a batch, issue 24's "caller CPU per job"), bound to 127.0.0.1 without a
dashboard, ended with the batch, on Ctrl-C, and when the caller is killed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redzone.examples as examples
from _terminal import interruptible
from redzone import Engine
from redzone.execution import simulate

HAS_DASK = importlib.util.find_spec("distributed") is not None
REQUIRED = os.environ.get("REDZONE_REQUIRE_CLUSTERS", "") == "1"
pytestmark = pytest.mark.skipif(not HAS_DASK and not REQUIRED,
                                reason="Dask is not installed (pip install 'redzone[dask]')")

EXAMPLES = Path(examples.__file__).parent


def _gone(pid: int, within: float) -> bool:
    """Whether process ``pid`` ends (or is a zombie) within ``within`` seconds."""
    import psutil

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


def _listening(*pids: int) -> set[str]:
    """The addresses processes ``pids`` listen on."""
    import psutil

    return {c.laddr.ip for pid in pids for c in psutil.Process(pid).net_connections()
            if c.status == psutil.CONN_LISTEN}


def _jobs(engine: Engine) -> list[tuple[Any, dict[str, Any]]]:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2),
                                           c("wall", "bob", 0, 4, "defender")])
    return [(state, {"attacks": {"bear": "bob"}, "blocks": {"wall": ["bear"]}}),
            (state, {"attacks": {"bear": "bob"}})] * 3


def test_the_scheduler_and_workers_are_processes_of_their_own_and_end_with_the_block(
) -> None:
    """The caller runs neither the scheduler nor a worker; both listen on
    127.0.0.1 only (no dashboard, no endpoint on 0.0.0.0); outcomes are the serial ones; after
    the ``with`` block no process of the cluster is left."""
    from redzone.execution.localdask import local_dask

    engine = Engine()
    jobs = _jobs(engine)
    with local_dask(2) as client:
        scheduler = client.run_on_scheduler(os.getpid)
        workers = set(client.run(os.getpid).values())
        assert os.getpid() != scheduler and os.getpid() not in workers and len(workers) == 2
        assert client.scheduler.address.startswith("tcp://127.0.0.1:")
        # every socket the cluster listens on (Dask's HTTP endpoints too) is loopback's
        assert _listening(scheduler, *workers) == {"127.0.0.1"}
        here = [o.json for o in simulate(jobs, engine=engine)]
        there = [o.json for o in simulate(jobs, engine=engine, executor=client, chunksize=2)]
        assert there == here
    assert _gone(scheduler, 30) and all(_gone(w, 30) for w in workers)


_KILLED = """
import os, sys, time
from redzone.execution.localdask import local_dask
with local_dask(1) as client:
    print(client.run_on_scheduler(os.getpid), *client.run(os.getpid).values(), flush=True)
    print(client.run_on_scheduler(lambda: os.environ.get("REDZONE_DASK_FOLDER")), flush=True)
    time.sleep(600)
"""


def test_a_cluster_whose_caller_is_killed_ends_itself() -> None:
    """A caller killed outright can't end its cluster: the scheduler sees
    its parent gone and closes (within seconds), and the worker follows.
    The scheduler removes the cluster's temporary folder (its address file
    and log), which the killed caller couldn't."""
    proc = subprocess.Popen([sys.executable, "-c", _KILLED], stdout=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        pids = [int(x) for x in line.split()]
        assert len(pids) == 2, line
        folder = proc.stdout.readline().strip() if proc.stdout else ""
        assert os.path.isdir(folder), folder
        proc.kill()
        proc.wait(timeout=30)
        assert _gone(pids[0], 30), "the scheduler outlived its caller"
        assert not os.path.exists(folder), "the cluster's folder outlived its caller"
        from redzone.execution.localdask import DEATH_TIMEOUT

        assert _gone(pids[1], DEATH_TIMEOUT + 30), "the worker outlived its scheduler"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_ctrl_c_on_a_local_dask_batch_exits_130_with_the_summary_and_no_traceback(
        tmp_path: Path) -> None:
    """SIGINT reaches the command alone (its cluster runs in a session of its
    own): exit 130, the summary of what was done, no traceback from the
    cluster's processes, and none of them left."""
    import psutil

    boards = tmp_path / "boards"
    boards.mkdir()
    for i in range(400):
        shutil.copy(EXAMPLES / "layers-forests-and-anthem.toml", boards / f"b{i:03}.toml")
    out = tmp_path / "out.jsonl"
    proc = interruptible([sys.executable, "-m", "redzone", "batch", "--no-color", "--jobs",
                          "2", "--chunksize", "4", "--executor", "dask:local", "--out",
                          str(out), str(boards)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and (
            not out.exists() or len(out.read_text().splitlines()) < 3):
        time.sleep(0.05)
    cluster = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
    assert len(cluster) >= 3  # a scheduler, and a nanny and its worker at least
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr[-3000:]
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert 3 <= len(rows) < 400
    assert f"{len(rows)} scenario files" in stdout
    assert "interrupted" in stderr and "Traceback" not in stderr, stderr[-3000:]
    assert all(_gone(pid, 30) for pid in cluster)


@pytest.mark.parametrize("workers, threads, named", [
    (0, 1, "workers"), (-1, 1, "workers"), (True, 1, "workers"), (1.5, 1, "workers"),
    (2, 0, "threads")])
def test_a_cluster_of_no_worker_or_thread_is_refused_before_anything_starts(
        workers: Any, threads: Any, named: str) -> None:
    """Bad input names the argument, and no process is started."""
    import psutil
    from redzone.execution import BatchError
    from redzone.execution.localdask import local_dask

    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with pytest.raises(BatchError, match=f"local_dask: {named} must be a whole number"), \
            local_dask(workers, threads=threads):
        pass  # pragma: no cover
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before


def test_a_local_cluster_that_cant_start_is_executor_unavailable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A scheduler process that ends at once (here: started as ``false``,
    not Python): ``local_dask`` raises ``ExecutorUnavailable`` with what the
    process printed, no process is left, and ``redzone batch --executor
    dask:local`` says it can't run the batch and exits 3, with no
    traceback and no job run."""
    import psutil
    from click.testing import CliRunner
    from redzone.execution import ExecutorUnavailable
    from redzone.execution.localdask import local_dask
    from redzone.frontends.cli import cli

    board = Path(examples.__file__).parent / "lure.toml"
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    monkeypatch.setattr(sys, "executable", shutil.which("false") or "/bin/false")
    with pytest.raises(ExecutorUnavailable, match="the local Dask scheduler did not start"), \
            local_dask(1):
        pass  # pragma: no cover
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before
    result = CliRunner().invoke(cli, ["batch", "--json", "--executor", "dask:local",
                                      str(board)])
    said = " ".join(result.output.split())
    assert result.exit_code == 3, result.output
    assert "can't run the batch: the local Dask scheduler did not start" in said
    assert "Traceback" not in said and "{" not in said
