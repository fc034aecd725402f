"""The simple combat: a 2/2 attacks and is blocked by a 2/2 (target: 25 us
with every built-in plugin loaded), as a whole and step by step."""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine
from rzbench import Board


@pytest.fixture(scope="module")
def board(engine: Engine) -> Board:
    return rzbench.simple(engine)


def _check_both_die(engine: Engine, board: Board) -> None:
    st = rzbench.run(engine, board)
    assert st.objects["a0"].zone == "graveyard"
    assert st.objects["b0"].zone == "graveyard"


@pytest.mark.benchmark(group="simple")
def test_simple_combat(benchmark: Any, engine: Engine, board: Board) -> None:
    """Declare attackers, declare blockers, combat damage: all plugins."""
    _check_both_die(engine, board)
    benchmark.extra_info.update(target_us=25, plugins="all")
    benchmark(rzbench.run, engine, board)


@pytest.mark.benchmark(group="simple")
def test_simple_combat_no_plugins(benchmark: Any, bare_engine: Engine) -> None:
    """The same combat on an engine with no keyword plugins."""
    board = rzbench.simple(bare_engine)
    _check_both_die(bare_engine, board)
    benchmark.extra_info.update(plugins="none")
    benchmark(rzbench.run, bare_engine, board)


@pytest.mark.benchmark(group="simple")
def test_simple_resolve(benchmark: Any, engine: Engine, board: Board) -> None:
    """The one-shot API: the whole combat phase (507-511) in one call."""
    benchmark(engine.resolve, board.state, board.attacks, board.blocks)


@pytest.mark.benchmark(group="simple-steps")
def test_simple_declare_attackers(benchmark: Any, engine: Engine, board: Board) -> None:
    benchmark(engine.declare_attackers, board.state, board.attacks)


@pytest.mark.benchmark(group="simple-steps")
def test_simple_declare_blockers(benchmark: Any, engine: Engine, board: Board) -> None:
    st = rzbench.after_attacks(engine, board)
    benchmark(engine.declare_blockers, st, board.blocks)


@pytest.mark.benchmark(group="simple-steps")
def test_simple_combat_damage(benchmark: Any, engine: Engine, board: Board) -> None:
    st = rzbench.after_blocks(engine, board)
    benchmark(engine.combat_damage, st)
