"""The default assignment policy and the assignment checks with many
creatures blocking one attacker (510.1c: lethal to each in turn, counting
what was assigned before)."""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine

BLOCKERS = (10, 50, 200)


@pytest.mark.parametrize("blockers", BLOCKERS)
@pytest.mark.parametrize("keywords", [(), ("trample",), ("trample", "deathtouch")],
                         ids=["vanilla", "trample", "trample+deathtouch"])
def test_default_assignment(benchmark: Any, engine: Engine, blockers: int,
                            keywords: tuple[str, ...]) -> None:
    benchmark.group = "assignment-policy"
    board = rzbench.gang_block(engine, blockers, keywords=keywords)
    st = rzbench.after_blocks(engine, board)
    chosen = engine.default_assignment(st)
    assert sum(chosen["a0"].values()) == 3 * blockers
    benchmark.extra_info.update(blockers=blockers, keywords=list(keywords))
    benchmark(engine.default_assignment, st)


@pytest.mark.parametrize("blockers", BLOCKERS)
@pytest.mark.parametrize("keywords", [(), ("trample",)], ids=["vanilla", "trample"])
def test_assignment_violations(benchmark: Any, engine: Engine, blockers: int,
                               keywords: tuple[str, ...]) -> None:
    """The full check of the default assignment (what combat_damage does)."""
    benchmark.group = "assignment-check"
    board = rzbench.gang_block(engine, blockers, keywords=keywords)
    st = rzbench.after_blocks(engine, board)
    assert engine.assignment_violations(st) == ()
    benchmark.extra_info.update(blockers=blockers, keywords=list(keywords))
    benchmark(engine.assignment_violations, st)


@pytest.mark.parametrize("blockers", BLOCKERS)
def test_gang_block_combat(benchmark: Any, engine: Engine, blockers: int) -> None:
    """The whole combat of a trampler blocked by many creatures."""
    benchmark.group = "assignment-combat"
    board = rzbench.gang_block(engine, blockers, keywords=("trample",))
    rzbench.run(engine, board)
    benchmark.extra_info.update(blockers=blockers)
    benchmark(rzbench.run, engine, board)
