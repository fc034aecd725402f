"""Long mode: ``REDZONE_LONG=1 python -m pytest`` runs the sampled tests with
more samples (more hypothesis examples, bigger corpora, more hash seeds).

The default run keeps every test and every assertion, on fewer samples: each
invariant is still exercised, and the long run restores (at least) the counts
the suite ran before the default was cut, for a deeper run before a release.
"""

from __future__ import annotations

import os

#: ``REDZONE_LONG=1`` in the environment: the long run.
LONG = os.environ.get("REDZONE_LONG", "") == "1"


def samples(default: int, long: int) -> int:
    """``long`` in the long run, else ``default``."""
    return long if LONG else default
