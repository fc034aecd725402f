"""Big boards: N attackers each blocked by one creature, N = 10 ... 400 per
side, with every built-in plugin loaded (targets: 50 vs 50 in 2 ms; log-log
slope <= 1.1 from 10 to 400 on the mixed boards, see ``slope.py``)."""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine


@pytest.mark.benchmark(group="big-vanilla")
@pytest.mark.parametrize("n", rzbench.SIZES)
def test_vanilla_board(benchmark: Any, engine: Engine, n: int) -> None:
    """N 2/2s blocked by N 2/2s: everything dies."""
    board = rzbench.vanilla(engine, n)
    st = rzbench.run(engine, board)
    assert sum(p.zone == "graveyard" for p in st.objects.values()) == 2 * n
    benchmark.extra_info.update(per_side=n, board="vanilla")
    benchmark(rzbench.run, engine, board)


@pytest.mark.benchmark(group="big-mixed")
@pytest.mark.parametrize("n", rzbench.SIZES)
def test_mixed_board(benchmark: Any, engine: Engine, n: int) -> None:
    """N creatures a side with every built-in keyword in the mix."""
    board = rzbench.mixed(engine, n)
    rzbench.run(engine, board)
    benchmark.extra_info.update(per_side=n, board="mixed")
    benchmark(rzbench.run, engine, board)
