"""Fixtures of the benchmark suites (pytest-benchmark).

The benchmarks are not part of the test run (pyproject's ``testpaths`` is
``tests``); run them on their own::

    python -m pytest benchmarks --benchmark-only --benchmark-json=benchmarks/results.json
    python benchmarks/report.py benchmarks/results.json

This conftest makes the folder self-contained: it puts the folder on
``sys.path`` for :mod:`rzbench` and defines its own engines instead of the
test suite's fixtures.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from redzone import Engine  # noqa: E402


@pytest.fixture(scope="session")
def engine() -> Engine:
    """An engine with every discovered plugin (all built-in keywords)."""
    return Engine()


@pytest.fixture(scope="session")
def bare_engine() -> Engine:
    """An engine with no keyword plugins (core rules and effects only)."""
    return Engine(discover=False)
