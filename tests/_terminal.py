"""A command run as from a terminal: what a program wrote to a
pseudo-terminal (the tests that check the progress bar shows on a terminal
run ``redzone batch`` with its standard error on one and read it here), a
process that Ctrl-C reaches, and a Ctrl-C in the middle of this one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def python_handles_ctrl_c() -> Iterator[None]:
    """For the block, ``SIGINT`` as a Ctrl-C finds a Python program: Python's
    own handler set, and the signal not blocked in this thread (a library an
    earlier test started may have changed either); both restored after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, previous)


def ctrl_c() -> None:
    """A Ctrl-C (``SIGINT``) now, sent to this thread: handled before this
    returns (a signal sent to the process may reach a thread an earlier test
    left, and be handled later)."""
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)


def drained(leader: int) -> bytes:
    """Everything written to the terminal whose leader end is ``leader``
    until its last writer closed it; closes ``leader``."""
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # Linux: the follower end is closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return seen


def interruptible(*args: Any, **kwargs: Any) -> subprocess.Popen[str]:
    """``subprocess.Popen(*args, **kwargs)`` whose process Ctrl-C
    (``SIGINT``) reaches. A process inherits an ignored signal, and a shell
    without job control starts its background commands with ``SIGINT``
    ignored: a suite run in the background would start every command with
    it ignored, and Python then never raises ``KeyboardInterrupt``. A
    handled signal is reset to its default in the new program, so
    ``SIGINT`` is handled here while the process starts."""
    with python_handles_ctrl_c():
        return subprocess.Popen(*args, **kwargs)
