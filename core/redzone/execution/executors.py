"""Executors: where the jobs of a batch run.

:func:`~redzone.execution.simulation.simulate` sends chunks of jobs to any
:class:`concurrent.futures.Executor`: a process pool, a Dask
``distributed.Client`` (or its ``get_executor()``; either is run through
:class:`DaskExecutor`), or Ray through :class:`RayExecutor`. Neither Dask nor
Ray is imported unless asked for (``redzone[dask]``, ``redzone[ray]``).

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
from collections import deque
from collections.abc import Callable
from typing import Any, Final

from redzone.execution.engines import BatchError

#: The most jobs in one chunk :func:`~redzone.execution.simulation.simulate`
#: chooses for a Dask or Ray cluster: each task costs the caller more than a
#: local pool's (sending it, its result's round trip, about 1.5 ms of CPU),
#: so a chunk is four times a pool's largest. From 256 to 1024, the caller's
#: CPU per small job fell from 46 to 40 us on Dask and on Ray.
CLUSTER_CHUNK: Final = 1024


def _forget_ray_client() -> None:
    """Undo what a failed ``ray.init("ray://...")`` leaves behind: Ray turns
    its client mode on before connecting and, when the connection fails,
    closes the connection but leaves the mode on, so that every later Ray
    call of the process (a local ``ray.init`` included) goes to a client
    that isn't there. Ray's own ``disconnect`` turns it off with the last
    connection."""
    with contextlib.suppress(Exception):
        importlib.import_module("ray.util.client").ray.disconnect()


class ExecutorUnavailable(BatchError):
    """A batch's cluster can't be reached or started: the address, and what
    the cluster's client said, are in the message. No job was run.

    .. versionadded:: 0.1.0
    """


class RayExecutor(cf.Executor):
    """A :class:`concurrent.futures.Executor` running each call as a Ray task.

    Ray is imported when this is made; connect first (``ray.init(...)``) or
    give ``address`` (``"auto"``, ``"ray://host:port"``).

    :param address: passed to ``ray.init`` when Ray is not initialised yet.
    :param max_retries: Ray's retries of a task whose worker died.
    :raises ExecutorUnavailable: when ``ray.init`` fails (no cluster at the
        address, a client server that didn't start). This process is left
        as it was: Ray's client mode, which a failed ``ray://`` connection
        leaves on (and a later local ``ray.init`` then fails with a bare
        ``AssertionError``), is turned off again.

    .. versionadded:: 0.1.0
    """

    #: The most jobs in a chunk chosen for it.
    max_chunk: int = CLUSTER_CHUNK

    def __init__(self, address: str | None = None, *, max_retries: int = 3,
                 **init: Any) -> None:
        ray: Any = importlib.import_module("ray")
        if not ray.is_initialized():
            try:
                ray.init(address=address, **init)
            except Exception as exc:
                _forget_ray_client()
                what = f"connect to Ray at {address}" if address else "start a local Ray"
                raise ExecutorUnavailable(f"can't {what}: {type(exc).__name__}: {exc}") from exc
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


#: The most seconds a Dask scheduler has to say how many workers it has.
ASK_TIMEOUT = 10.0


#: How many of the latest messages a Dask client and scheduler keep, each
#: per connection, once a :class:`DaskExecutor` is made (Dask's own default,
#: ``distributed.admin.low-level-log-length``, is 1000).
MESSAGE_LOG: Final = 8


class DaskExecutor(cf.Executor):
    """A :class:`concurrent.futures.Executor` running each call as a task of
    a Dask cluster, through its ``distributed.Client``.

    It knows which task each of its futures is, so that :meth:`cut` can
    restart the worker running one (a task hung in C code, which no
    exception reaches).

    Made, it shortens the logs of the latest messages that Dask keeps, on
    the client and on the scheduler, to :data:`MESSAGE_LOG` messages per
    connection: Dask keeps the last 1000 of each connection for its own
    debugging, and each message that sends a chunk holds the chunk's jobs
    (on a scheduler run in the caller's process, a ``LocalCluster``, as
    objects: a gigabyte of the caller's memory at 10^5 jobs). Workers that
    join later have their log of Dask's length; set
    ``distributed.admin.low-level-log-length`` where the scheduler runs to
    shorten those too.

    :param client: a connected ``distributed.Client``.
    :param submit: more keyword arguments of ``Client.submit`` for every
        call (``workers``, ``resources``, ``retries``...).

    .. versionadded:: 0.1.0
    """

    #: The most jobs in a chunk chosen for it.
    max_chunk: int = CLUSTER_CHUNK

    def __init__(self, client: Any, **submit: Any) -> None:
        self._client = client
        self._submit = {**submit, "pure": False}
        self._tasks: weakref.WeakKeyDictionary[cf.Future[Any], Any] = (
            weakref.WeakKeyDictionary())
        _shorten_message_logs(client)

    @property
    def client(self) -> Any:
        """The ``distributed.Client``."""
        return self._client

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        task = self._client.submit(fn, *args, **self._submit, **kwargs)
        future: cf.Future[Any] = cf.Future()
        self._tasks[future] = task

        def cancelled(done: cf.Future[Any]) -> None:
            if done.cancelled():
                task.cancel()

        future.add_done_callback(cancelled)
        self._client.loop.add_callback(_relay, task, future)
        return future

    def cut(self, future: cf.Future[Any]) -> bool:
        """Restart the worker running ``future``'s task
        (``Client.restart_workers``: its nanny ends the worker's process and
        starts another in its place); the task is cancelled first, so that
        it is not run again elsewhere. The future then fails. A worker
        without a nanny (``dask worker --no-nanny``) can't be restarted and
        is left busy.

        :returns: whether the worker was restarted.

        .. versionadded:: 0.1.0
        """
        task = self._tasks.pop(future, None)
        if task is None:
            return False
        client = self._client
        try:
            where = [w for w, keys in client.processing().items() if task.key in keys]
            info = client.scheduler_info(n_workers=-1).get("workers", {})
            restartable = [w for w in where if (info.get(w) or {}).get("nanny")]
            task.cancel()
            if not future.done():
                future.set_exception(cf.CancelledError(f"task {task.key} was cut"))
            if not restartable:
                return False
            done = client.restart_workers(restartable, timeout=RESTART_TIMEOUT,
                                          raise_for_error=False)
        except Exception:  # the task finished meanwhile, or the scheduler is gone
            return False
        _shorten_message_logs(client)  # the new worker's connection
        return all(status == "OK" for status in done.values())

    @property
    def workers(self) -> int:
        """The threads of the cluster's workers."""
        return max(1, int(sum(self._client.nthreads().values())))

    def live_workers(self) -> int:
        """The threads of the cluster's workers now (0 when there are none,
        or when the scheduler can't be reached within :data:`ASK_TIMEOUT`
        seconds).

        .. versionadded:: 0.1.0
        """
        try:
            return int(sum(self._client.nthreads(callback_timeout=ASK_TIMEOUT).values()))
        except Exception:  # the scheduler can't be reached: no worker is left for us
            return 0

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel the tasks not done when ``cancel_futures``; the client is
        the caller's, and stays open."""
        if cancel_futures:
            for future in list(self._tasks):
                future.cancel()


#: The most seconds :meth:`DaskExecutor.cut` waits for a worker to restart.
RESTART_TIMEOUT: Final = 60.0


async def _relay(task: Any, future: cf.Future[Any]) -> None:
    """Hand a Dask task's result (or error) to its future (on the client's
    event loop)."""
    try:
        result = await task
    except BaseException as exc:  # the task's error, or its cancellation
        with contextlib.suppress(cf.InvalidStateError):
            if not future.done():
                future.set_exception(exc if isinstance(exc, Exception) else
                                     cf.CancelledError(str(exc)))
        return
    with contextlib.suppress(cf.InvalidStateError):
        if not future.done():
            future.set_result(result)


def _shorten_message_logs(client: Any) -> None:
    """Keep :data:`MESSAGE_LOG` latest messages per connection, on the
    client and on its scheduler (best effort: a scheduler that can't run
    this function keeps its logs)."""
    stream = getattr(client, "scheduler_comm", None)
    if stream is not None and hasattr(stream, "recent_message_log"):
        stream.recent_message_log = deque(stream.recent_message_log, maxlen=MESSAGE_LOG)
    with contextlib.suppress(Exception):
        client.run_on_scheduler(_shorten_scheduler_logs, MESSAGE_LOG)


def _shorten_scheduler_logs(length: int, dask_scheduler: Any = None) -> None:
    """On the scheduler: keep ``length`` latest messages per connection."""
    comms = [*getattr(dask_scheduler, "stream_comms", {}).values(),
             *getattr(dask_scheduler, "client_comms", {}).values()]
    for stream in comms:
        if hasattr(stream, "recent_message_log"):
            stream.recent_message_log = deque(stream.recent_message_log, maxlen=length)


def as_executor(executor: Any) -> cf.Executor:
    """An executor from what the caller gave: an :class:`~concurrent.futures.Executor`,
    or a Dask ``distributed.Client`` or its ``get_executor()`` (each a
    :class:`DaskExecutor`, the latter with its keyword arguments)."""
    if type(executor).__name__ == "ClientExecutor" and hasattr(executor, "_client"):
        return DaskExecutor(executor._client, **dict(getattr(executor, "_kwargs", {})))
    if isinstance(executor, cf.Executor):
        return executor
    if callable(getattr(executor, "get_executor", None)) and callable(
            getattr(executor, "submit", None)):
        return DaskExecutor(executor)
    raise BatchError(f"{type(executor).__name__} is not an executor: give a "
                     "concurrent.futures.Executor, a Dask Client or a RayExecutor")


def worker_count(executor: Any) -> int:
    """How many jobs an executor runs at once, as far as it says."""
    for attr in ("workers", "_max_workers"):
        try:
            n = getattr(executor, attr, None)
        except Exception:  # pragma: no cover - a cluster that can't say
            continue
        if isinstance(n, int) and n > 0:
            return n
    return os.cpu_count() or 1



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
    return None


def worker_start() -> None:
    """The initializer of the process pools redzone makes (a broken pool's
    replacement, ``redzone batch --jobs N``): a worker ends when its pool
    terminates it. A worker forked from a caller that set its own ``SIGTERM``
    handler (Ray's driver does) inherits it, and the handler runs only in
    the thread the signal reaches: a worker blocked in C on its queue's lock
    (its pool broken by a worker killed mid-read) would live on, and the
    pool's shutdown would wait for it for ever. The default action ends the
    process whichever thread the signal reaches."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def cut(executor: Any, future: cf.Future[Any]) -> bool:
    """End the worker stuck on ``future``'s chunk, where the executor has a
    way to: every worker process of a
    :class:`~concurrent.futures.ProcessPoolExecutor` is killed (the pool
    can't end one alone; it breaks, and the caller replaces it); a
    :class:`RayExecutor` ends the task's worker process (:meth:`RayExecutor.cut`);
    a :class:`DaskExecutor` restarts the task's worker through its nanny
    (:meth:`DaskExecutor.cut`). Any other executor (a thread pool) is left as
    it is: its worker stays busy until the job returns.

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
    if isinstance(executor, DaskExecutor):
        address = getattr(getattr(executor.client, "scheduler", None), "address", None)
        return f"the Dask cluster of the scheduler {address}"
    if isinstance(executor, RayExecutor):
        return "the Ray cluster"
    return f"the executor {type(executor).__name__}"


__all__ = ["ASK_TIMEOUT", "CLUSTER_CHUNK", "MESSAGE_LOG", "RESTART_TIMEOUT",
           "DaskExecutor", "ExecutorUnavailable", "RayExecutor", "as_executor", "cut", "describe",
           "live_workers", "worker_count"]
