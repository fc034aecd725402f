"""What a program wrote to a pseudo-terminal: the tests that check the
progress bar shows on a terminal run ``redzone batch`` with its standard
error on one and read it here."""

from __future__ import annotations

import os


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
