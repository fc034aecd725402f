"""Keyword-heavy combats: one small combat per built-in keyword, in which the
keyword does its work, and a board mixing all of them."""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine

#: Read at collection time, so a keyword plugin added later is benchmarked too
#: (with a generic scenario until it gets its own in ``rzbench``).
KEYWORDS = rzbench.keyword_names(Engine())


@pytest.mark.benchmark(group="keywords")
@pytest.mark.parametrize("keyword", KEYWORDS)
def test_keyword_combat(benchmark: Any, engine: Engine, keyword: str) -> None:
    board = rzbench.keyword_board(engine, keyword)
    rzbench.run(engine, board)  # must be legal and resolve
    benchmark.extra_info.update(keyword=keyword,
                                scenario=keyword in rzbench.KEYWORD_UNITS)
    benchmark(rzbench.run, engine, board)


@pytest.mark.benchmark(group="keywords")
def test_every_keyword_at_once(benchmark: Any, engine: Engine) -> None:
    """Every mixed-keyword unit once (about 20 creatures a side)."""
    board = rzbench.from_units(engine, rzbench.mixed_units(engine), label="all keywords")
    rzbench.run(engine, board)
    benchmark.extra_info.update(per_side=len(board.attacks))
    benchmark(rzbench.run, engine, board)
