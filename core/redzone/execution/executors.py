"""Executors: where the jobs of a batch run.

:func:`~redzone.execution.simulation.simulate` sends chunks of jobs to any
:class:`concurrent.futures.Executor`: a process pool, a Dask
``distributed.Client`` (or its ``get_executor()``), or Ray through
:class:`RayExecutor`. Neither Dask nor Ray is imported unless asked for
(``redzone[dask]``, ``redzone[ray]``).
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import os
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

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(max_retries=self._max_retries)(fn)
        future: cf.Future[Any] = remote.remote(*args, **kwargs).future()
        return future

    @property
    def workers(self) -> int:
        """The CPUs of the Ray cluster."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))


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


__all__ = ["RayExecutor", "as_executor", "worker_count"]
