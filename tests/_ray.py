"""Starting Ray in the tests.

A Ray start can fail on a loaded machine: its raylet has 30 s (not
settable) to register with its control store, and in one CI run, with a
compiled build beside the suite, it didn't ("The current node timed out
during startup"). What these tests test is redzone on Ray, not Ray's own
start: :func:`ray_started` starts it again, up to :data:`STARTS` times.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

#: How many times a test tries to start (or connect to) Ray.
STARTS = 3


@contextlib.contextmanager
def ray_started(**init: Any) -> Iterator[None]:
    """``ray.init(**init)`` (``log_to_driver=False`` unless given), started
    again when Ray's start fails, and ``ray.shutdown()`` after the block."""
    import ray

    init.setdefault("log_to_driver", False)
    for attempt in range(STARTS):
        try:
            ray.init(**init)
        except Exception:
            ray.shutdown()
            if attempt == STARTS - 1:
                raise
        else:
            break
    try:
        yield
    finally:
        ray.shutdown()
