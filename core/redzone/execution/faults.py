"""A job's time limit, on the worker that runs it.

:func:`time_limit` cuts a job that runs past its limit by raising
:class:`JobTimeout` in the thread running it:

- on the main thread of its process (a process-pool worker, a Ray task, a
  serial batch run from the main thread), by ``SIGALRM`` through
  :func:`signal.setitimer`, which also interrupts a sleep or a blocking
  read;
- on any other thread (a Dask worker's task threads), by an asynchronous
  exception (``PyThreadState_SetAsyncExc``), which Python raises at the
  thread's next bytecode.

Either way, Python code is cut; C code that never returns to Python (a
plugin stuck in a C extension's loop, a sleep with ``SIGALRM`` blocked) is
not cut here, and holds its worker until the caller cuts it at the chunk's
deadline (:func:`chunk_deadline`, below). A job cut while a plugin was
answering a hook reaches the kernel's exception triage as that plugin's
failure: :class:`Limit` remembers that it fired, so the job's outcome is a ``timeout`` all the same.

:func:`wait_result` is the caller's side: it waits for a chunk's result, but
not for ever when the cluster has no worker left to run it. A Dask or Ray
cluster whose workers are all lost keeps its tasks waiting for workers that
may never come; when the executor says it has had no worker for
``lost_after`` seconds, :class:`WorkersLost` ends the batch. Given a
``deadline``, it also stops waiting for a chunk that is past it
(:class:`ChunkHung`): a job stuck in C code, which :func:`time_limit` can't
cut, is then cut by the caller (:func:`~redzone.execution.simulation.simulate`
ends the worker's process where the executor allows it, see
:func:`chunk_deadline`).
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final, TypeVar

from redzone.execution.engines import BatchError

#: The kind of outcome of a job cut at its time limit.
TIMEOUT: Final = "timeout"

#: How many seconds a batch waits, by default, while its executor has no
#: worker at all, before it ends with :class:`WorkersLost`.
LOST_AFTER: Final = 60.0

#: A time limit of this many seconds (about 31 years) or more, ``inf``
#: included, is no limit: no timer of the system reaches that far
#: (``setitimer`` and :data:`threading.TIMEOUT_MAX` stop near 9.2e9 s).
NO_LIMIT: Final = 1e9

#: The most seconds between two looks at the executor's workers.
POLL: Final = 1.0

#: The seconds a chunk (or a job sent alone) is given past its jobs' time
#: limits before the caller cuts it (:func:`chunk_deadline`): room for a
#: worker to start, to rebuild its engine and to send its outcomes back.
GRACE: Final = 5.0

_T = TypeVar("_T")


class JobTimeout(Exception):
    """Raised in a job's thread when its time limit is past.

    .. versionadded:: 0.1.0
    """


class Limit:
    """One job's time limit, and whether it fired.

    :param seconds: the limit; ``None`` for none.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.fired = False


@contextmanager
def time_limit(seconds: float | None) -> Iterator[Limit]:
    """Run the block under a time limit of ``seconds`` (none for ``None``).

    :returns: the :class:`Limit`, whose ``fired`` says whether it cut the block.
    """
    limit = Limit(seconds)
    if seconds is None:
        yield limit
        return
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def alarm(signum: int, frame: FrameType | None) -> None:
            limit.fired = True
            raise JobTimeout(f"past its time limit of {seconds:g} s")

        old = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield limit
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        return
    lock = threading.Lock()
    armed = [True]
    target = threading.get_ident()

    def cut() -> None:
        with lock:
            if not armed[0]:
                return
            limit.fired = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                       ctypes.py_object(JobTimeout))

    timer = threading.Timer(seconds, cut)
    timer.daemon = True
    timer.start()
    try:
        yield limit
    finally:
        with lock:
            armed[0] = False
        timer.cancel()


def chunk_deadline(timeout: float, jobs: int, grace: float = GRACE) -> float:
    """The most seconds the caller waits for a chunk of ``jobs`` jobs, each
    limited to ``timeout`` seconds on its worker: ``timeout * jobs + grace``.

    The wait starts when the caller starts waiting for the chunk, that is
    when every earlier chunk's outcomes are in (chunks are waited for in
    input order), so a chunk that queued behind others is not charged for
    their time. A job sent alone is given ``timeout + grace``.

    .. versionadded:: 0.1.0
    """
    return timeout * jobs + grace


class ChunkHung(TimeoutError):
    """A chunk (or a job sent alone) is past its deadline (:func:`chunk_deadline`):
    its worker is stuck where :func:`time_limit` can't cut it.

    .. versionadded:: 0.1.0
    """


class WorkersLost(BatchError):
    """Every worker of a batch's executor was lost, and none came back within
    ``lost_after`` seconds: the batch ends. The outcomes yielded before it
    are whole (and in the sink, from which ``resume=True`` goes on); the jobs
    in flight and after them were not run.

    .. versionadded:: 0.1.0
    """


def wait_result(future: cf.Future[_T], live: Callable[[], int | None],
                lost_after: float | None, *, what: str = "the executor",
                poll: float = POLL, deadline: float | None = None) -> _T:
    """A future's result, waited for while the executor has workers.

    :param future: a chunk's future.
    :param live: how many workers the executor has now (``None``: it can't
        say, and the wait has no bound, as :meth:`~concurrent.futures.Future.result`).
    :param lost_after: how many seconds in a row with no worker end the wait;
        ``None`` waits for ever.
    :param what: the executor, as the error names it.
    :param poll: the most seconds between two looks at the workers.
    :param deadline: a :func:`time.monotonic` time past which the wait ends
        with :class:`ChunkHung`; ``None`` for none.
    :raises ChunkHung: when ``deadline`` is past and the future is still not
        done.
    :raises WorkersLost: when ``live`` said 0 for ``lost_after`` seconds in a
        row and the future is still not done.
    :returns: the future's result (or raises its exception).

    .. versionadded:: 0.1.0
    """
    if lost_after is None and deadline is None:
        return future.result()
    since: float | None = None
    step = max(0.01, min(poll, lost_after / 4)) if lost_after is not None else poll
    look = lost_after is not None
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        done, _ = cf.wait([future], timeout=step if left is None else max(0.0, min(step, left)))
        if done:
            return future.result()
        if deadline is not None and time.monotonic() >= deadline:
            raise ChunkHung(f"{what} did not give the chunk's outcomes by its deadline")
        if not look:
            continue
        n = live()
        if n is None:
            if deadline is None:
                return future.result()  # nothing to look at: wait as before
            look = False
            continue
        if n > 0:
            since = None
            continue
        now = time.monotonic()
        since = now if since is None else since
        if lost_after is not None and now - since >= lost_after:
            raise WorkersLost(
                f"every worker of {what} was lost: it has had no worker for "
                f"{lost_after:g} s while jobs waited to run (lost_after={lost_after:g}); "
                "the batch ends here. The outcomes already given are whole: with a sink "
                "path, resume=True (redzone batch --resume) goes on from them")


__all__ = ["GRACE", "LOST_AFTER", "NO_LIMIT", "POLL", "TIMEOUT", "ChunkHung", "JobTimeout",
           "Limit", "WorkersLost", "chunk_deadline", "time_limit", "wait_result"]
