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
plugin stuck in a C extension's loop) is not, and holds its worker until it
returns. A job cut while a plugin was answering a hook reaches the kernel's
exception triage as that plugin's failure: :class:`Limit` remembers that it
fired, so the job's outcome is a ``timeout`` all the same.
"""

from __future__ import annotations

import ctypes
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final

#: The kind of outcome of a job cut at its time limit.
TIMEOUT: Final = "timeout"


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


__all__ = ["TIMEOUT", "JobTimeout", "Limit", "time_limit"]
