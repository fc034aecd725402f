"""A command run as from a terminal: what a program wrote to a
pseudo-terminal (the tests that check the progress bar shows on a terminal
run ``redzone batch`` with its standard error on one and read it here), and
a process that Ctrl-C reaches."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any


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
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(*args, **kwargs)
    finally:
        signal.signal(signal.SIGINT, previous)
