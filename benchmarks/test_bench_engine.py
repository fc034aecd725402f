"""Building an engine: ``Engine()`` with every discovered plugin, after the
first one in the process (the plugin modules it needs at once are imported,
and what discovery read of the installed distributions is kept under each
folder's and file's stamp; see "Plugin discovery" in docs/embedding.md), and
``Engine(verify=True)``, as ``redzone run`` builds it. A batch builds one a
worker; a test suite or a server that builds one a request pays this each
time.

Run: ``python -m pytest benchmarks/test_bench_engine.py --benchmark-only
--benchmark-timer=time.process_time``.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine


@pytest.mark.parametrize("verify", [False, True], ids=["production", "verify"])
def test_build_an_engine(benchmark: Any, verify: bool) -> None:
    benchmark.group = "engine"
    Engine(verify=verify)  # the first: plugin imports, the first discovery
    engine = benchmark(Engine, verify=verify)
    assert engine.keywords()  # the built-in keywords were discovered
