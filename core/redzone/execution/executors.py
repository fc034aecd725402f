"""Executors: where the jobs of a batch run.

:func:`~redzone.execution.simulation.simulate` sends chunks of jobs to any
:class:`concurrent.futures.Executor`: a process pool, a Dask
``distributed.Client`` (or its ``get_executor()``), or Ray through
:class:`RayExecutor`. Neither Dask nor Ray is imported unless asked for
(``redzone[dask]``, ``redzone[ray]``).

:func:`live_workers` says how many workers a cluster has now, so that a batch
whose workers are all lost ends (:func:`~redzone.execution.faults.wait_result`)
instead of waiting for them for ever.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import os
import weakref
from collections.abc import Callable
from typing import Any

from redzone.execution.engines import BatchError


class RayExecutor(cf.Executor):
    """A :class:`concurrent.futures.Executor` running each call as a Ray task.

    Ray is imported when this is made; connect first (``ray.init(...)``) or
    give ``address`` (``"auto"``, ``"ray://host:port"``).

    :param address: passed to ``ray.init`` when Ray is not initialised yet.
    :param max_retries: Ray's retries of a task whose worker died.

    .. versionadded:: 0.1.0
    """

    def __init__(self, address: str | None = None, *, max_retries: int = 3,
                 **init: Any) -> None:
        ray: Any = importlib.import_module("ray")
        if not ray.is_initialized():
            ray.init(address=address, **init)
        self._ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}
        self._max_retries = max_retries
        self._refs: weakref.WeakKeyDictionary[cf.Future[Any], Any] = (
            weakref.WeakKeyDictionary())

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(max_retries=self._max_retries)(fn)
        ref = remote.remote(*args, **kwargs)
        future: cf.Future[Any] = ref.future()
        self._refs[future] = ref
        return future

    def cut(self, future: cf.Future[Any]) -> bool:
        """End the worker process running ``future``'s task
        (``ray.cancel(ref, force=True)``); Ray starts another worker in its
        place. The future then fails.

        :returns: whether the task was known (and cancelled).

        .. versionadded:: 0.1.0
        """
        ref = self._refs.pop(future, None)
        if ref is None:
            return False
        try:
            self._ray.cancel(ref, force=True)
        except Exception:  # the task finished meanwhile, or the head is gone
            return False
        return True

    @property
    def workers(self) -> int:
        """The CPUs of the Ray cluster."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def live_workers(self) -> int:
        """The CPUs of the Ray cluster's live nodes now (0 when there are none,
        or when the cluster can't be reached).

        .. versionadded:: 0.1.0
        """
        try:
            return int(self._ray.cluster_resources().get("CPU", 0))
        except Exception:  # the head is gone: no worker is left
            return 0


def as_executor(executor: Any) -> cf.Executor:
    """An executor from what the caller gave: an :class:`~concurrent.futures.Executor`,
    or a Dask ``distributed.Client`` (its ``get_executor(pure=False)``)."""
    if isinstance(executor, cf.Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get):
        made = get(pure=False)
        if isinstance(made, cf.Executor):
            return made
    raise BatchError(f"{type(executor).__name__} is not an executor: give a "
                     "concurrent.futures.Executor, a Dask Client or a RayExecutor")


def worker_count(executor: Any) -> int:
    """How many jobs an executor runs at once, as far as it says."""
    for attr in ("workers", "_max_workers"):
        n = getattr(executor, attr, None)
        if isinstance(n, int) and n > 0:
            return n
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # pragma: no cover - a client that can't say
            pass
    return os.cpu_count() or 1


#: The most seconds a Dask scheduler has to say how many workers it has.
ASK_TIMEOUT = 10.0


def live_workers(executor: Any) -> int | None:
    """How many workers a cluster executor has now: the threads of a Dask
    cluster's workers, the CPUs of a Ray cluster's live nodes; 0 when its
    scheduler or head can't be reached. ``None`` for an executor that can't
    say (a local pool, which breaks by itself when its processes die).

    :param executor: what :func:`as_executor` gave.

    .. versionadded:: 0.1.0
    """
    live = getattr(executor, "live_workers", None)
    if callable(live):
        n = live()
        return n if isinstance(n, int) else None
    client = getattr(executor, "_client", None)
    if client is None or not callable(getattr(client, "nthreads", None)):
        return None
    try:
        return int(sum(client.nthreads(callback_timeout=ASK_TIMEOUT).values()))
    except Exception:  # the scheduler can't be reached: no worker is left for us
        return 0


def cut(executor: Any, future: cf.Future[Any]) -> bool:
    """End the worker stuck on ``future``'s chunk, where the executor has a
    way to: every worker process of a
    :class:`~concurrent.futures.ProcessPoolExecutor` is killed (the pool
    can't end one alone; it breaks, and the caller replaces it); a
    :class:`RayExecutor` ends the task's worker process (:meth:`RayExecutor.cut`).
    Any other executor (a Dask cluster, a thread pool) is left as it is: its
    worker stays busy until the job returns.

    :returns: whether a worker was ended.

    .. versionadded:: 0.1.0
    """
    if isinstance(executor, cf.ProcessPoolExecutor):
        processes = dict(getattr(executor, "_processes", None) or {})
        for process in processes.values():
            with contextlib.suppress(Exception):  # gone already
                process.kill()
        return bool(processes)
    end = getattr(executor, "cut", None)
    if callable(end):
        return bool(end(future))
    return False


def describe(executor: Any) -> str:
    """The executor, for a message: its class, and its Dask scheduler's
    address."""
    client = getattr(executor, "_client", None)
    address = getattr(getattr(client, "scheduler", None), "address", None)
    if address:
        return f"the Dask cluster of the scheduler {address}"
    if isinstance(executor, RayExecutor):
        return "the Ray cluster"
    return f"the executor {type(executor).__name__}"


__all__ = ["ASK_TIMEOUT", "RayExecutor", "as_executor", "cut", "describe", "live_workers",
           "worker_count"]
