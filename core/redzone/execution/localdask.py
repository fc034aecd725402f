"""A Dask cluster on this machine whose scheduler and workers are processes
of their own: what ``redzone batch --executor dask:local`` runs on.

A ``distributed.LocalCluster`` runs its scheduler inside the caller's
process: every task's bookkeeping then costs the caller's CPU, the one CPU
that bounds a batch however many workers it has, and the scheduler's memory
is the caller's. :func:`local_dask` starts ``dask scheduler`` and one ``dask
worker`` per worker as separate processes instead, bound to 127.0.0.1 with no
dashboard, as on a cluster of machines: the caller is only a client.

The processes run in a session of their own, so that Ctrl-C in a terminal
reaches the caller alone, which then ends them. A caller killed outright
(``SIGKILL``) can't end them: the scheduler watches its parent and closes
when it is gone, and workers close when their scheduler has been gone for
:data:`DEATH_TIMEOUT` seconds.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any, Final

from redzone.execution.engines import BatchError
from redzone.execution.executors import MESSAGE_LOG, ExecutorUnavailable

#: Dask settings of the scheduler and workers :func:`local_dask` starts,
#: given to them as ``DASK_...`` environment variables: the system monitor
#: every 2 s instead of 0.5 s, a nanny's look at its worker's memory every
#: second instead of 0.1 s, and the event loop's tick every 0.5 s instead of
#: 20 ms (an idle cluster of two workers then costs the machine about 7 ms
#: of CPU a second instead of 40), and
#: :data:`~redzone.execution.executors.MESSAGE_LOG` messages kept per
#: connection instead of 1000.
SETTINGS: Final = {"distributed.admin.system-monitor.interval": "2s",
                   "distributed.worker.memory.monitor-interval": "1s",
                   "distributed.admin.tick.interval": "500ms",
                   "distributed.admin.low-level-log-length": str(MESSAGE_LOG)}

#: Seconds a worker waits for a scheduler that is gone before it closes.
DEATH_TIMEOUT: Final = 30

#: The most seconds the scheduler and the workers have to start.
START_TIMEOUT: Final = 120.0

#: How the scheduler knows the caller whose cluster it is.
_PARENT: Final = "REDZONE_DASK_PARENT"

#: How the scheduler knows the cluster's temporary folder (its address file
#: and log), which it removes when it closes because the caller is gone.
_FOLDER: Final = "REDZONE_DASK_FOLDER"


def environment() -> dict[str, str]:
    """The environment of the processes :func:`local_dask` starts: this
    process's, with :data:`SETTINGS` as Dask's environment variables
    (``distributed.admin.tick.interval`` is
    ``DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL``) and this process's id for
    the scheduler to watch."""
    env = dict(os.environ)
    for key, value in SETTINGS.items():
        env["DASK_" + "__".join(part.upper().replace("-", "_")
                                for part in key.split("."))] = value
    env[_PARENT] = str(os.getpid())
    return env


@contextlib.contextmanager
def local_dask(workers: int, *, threads: int = 1) -> Iterator[Any]:
    """A scheduler and ``workers`` worker processes (each with a nanny, so
    that a hung worker can be restarted) on 127.0.0.1, started for the
    ``with`` block and ended after it; yields a connected
    ``distributed.Client``.

    :param workers: how many worker processes.
    :param threads: threads per worker.
    :raises BatchError: when ``workers`` or ``threads`` is below 1, or Dask
        is not installed.
    :raises ExecutorUnavailable: (a :class:`BatchError`) when the cluster
        doesn't start within :data:`START_TIMEOUT` seconds, with what its
        processes printed.

    .. versionadded:: 0.1.0
    """
    for name, value in (("workers", workers), ("threads", threads)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise BatchError(f"local_dask: {name} must be a whole number of 1 or more, "
                             f"not {value!r}")
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise BatchError(f"a local Dask cluster needs Dask (pip install 'redzone[dask]'): "
                         f"{exc}") from None
    folder = tempfile.mkdtemp(prefix="redzone-dask-")
    file = os.path.join(folder, "scheduler.json")
    log = open(os.path.join(folder, "cluster.log"), "wb")  # noqa: SIM115 - closed below
    quiet: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": log, "stderr": log,
                             "env": {**environment(), _FOLDER: folder},
                             "start_new_session": True}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", "0", "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
             "--scheduler-file", file,
             "--preload", __name__], **quiet))
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                 file, "--nworkers", "1", "--nthreads", str(threads), "--no-dashboard",
                 "--dashboard-address", "127.0.0.1:0", "--host", "127.0.0.1",
                 "--death-timeout", str(DEATH_TIMEOUT)], **quiet))
        deadline = time.monotonic() + START_TIMEOUT
        while not _written(file):
            if procs[0].poll() is not None or time.monotonic() > deadline:
                raise ExecutorUnavailable("the local Dask scheduler did not start: "
                                          + _tail(log.name))
            time.sleep(0.05)
        try:
            client = distributed.Client(scheduler_file=file, timeout=START_TIMEOUT)
        except OSError as exc:
            raise ExecutorUnavailable(f"the local Dask scheduler doesn't answer: {exc}; "
                                      + _tail(log.name)) from None
        with client:
            try:
                client.wait_for_workers(workers, timeout=START_TIMEOUT)
            except TimeoutError:
                raise ExecutorUnavailable(f"the local Dask workers did not start within "
                                          f"{START_TIMEOUT:g} s: " + _tail(log.name)) from None
            yield client
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def _written(file: str) -> bool:
    """Whether the scheduler has written its whole file (it writes it in
    place: a file that exists may not parse yet)."""
    try:
        with open(file, encoding="utf-8") as f:
            return "address" in json.load(f)
    except (OSError, ValueError):
        return False


def _tail(path: str, size: int = 2000) -> str:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - size))
        text = f.read().decode("utf-8", "replace").strip()
    return f"it printed: {text}" if text else "it printed nothing"


def dask_setup(scheduler: Any) -> None:
    """Run by the scheduler :func:`local_dask` starts (a Dask preload, in
    its event loop): close it once the process that started it is gone, and
    remove the cluster's temporary folder, which that process would have
    removed."""
    import asyncio

    parent = int(os.environ.get(_PARENT, "0") or 0)
    if not parent:
        return

    async def watch() -> None:
        while os.getppid() == parent:
            await asyncio.sleep(1.0)
        await scheduler.close(reason="the process that started it is gone")
        folder = os.environ.get(_FOLDER)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)

    _WATCHES.add(asyncio.get_running_loop().create_task(watch()))


#: The scheduler's watch of its parent (a task the loop holds only weakly).
_WATCHES: set[Any] = set()


__all__ = ["DEATH_TIMEOUT", "SETTINGS", "START_TIMEOUT", "environment", "local_dask"]
