"""Plugin dispatch overhead: the same keyword-less boards on an engine with
every built-in plugin and on one with none (target: at most 1.3x)."""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine

SIZES = (1, 50, 400)


@pytest.mark.parametrize("n", SIZES)
def test_dispatch_all_plugins(benchmark: Any, engine: Engine, n: int) -> None:
    benchmark.group = f"dispatch-{n}v{n}"
    board = rzbench.vanilla(engine, n)
    benchmark.extra_info.update(per_side=n, plugins="all")
    benchmark(rzbench.run, engine, board)


@pytest.mark.parametrize("n", SIZES)
def test_dispatch_no_plugins(benchmark: Any, bare_engine: Engine, n: int) -> None:
    benchmark.group = f"dispatch-{n}v{n}"
    board = rzbench.vanilla(bare_engine, n)
    benchmark.extra_info.update(per_side=n, plugins="none")
    benchmark(rzbench.run, bare_engine, board)
