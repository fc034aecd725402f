"""Legality checks of large declarations (509.1a-c, 508.1a-d): queries an
engine calls many times while searching."""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine

SIZES = (50, 200, 400)


@pytest.mark.parametrize("n", SIZES)
def test_block_violations_legal(benchmark: Any, engine: Engine, n: int) -> None:
    """A legal declaration of N blockers, mixed keywords."""
    benchmark.group = "legality-blocks"
    board = rzbench.mixed(engine, n)
    st = rzbench.after_attacks(engine, board)
    assert engine.block_violations(st, board.blocks) == ()
    benchmark.extra_info.update(per_side=n)
    benchmark(engine.block_violations, st, board.blocks)


@pytest.mark.parametrize("n", SIZES)
def test_block_violations_illegal(benchmark: Any, engine: Engine, n: int) -> None:
    """N blockers that each break 702.9b: every violation is built."""
    benchmark.group = "legality-blocks-illegal"
    board = rzbench.illegal_blocks(engine, n)
    st = rzbench.after_attacks(engine, board)
    assert len(engine.block_violations(st, board.blocks)) == n
    benchmark.extra_info.update(per_side=n)
    benchmark(engine.block_violations, st, board.blocks)


@pytest.mark.parametrize("n", SIZES)
def test_attack_violations(benchmark: Any, engine: Engine, n: int) -> None:
    """A legal declaration of N attackers, mixed keywords."""
    benchmark.group = "legality-attacks"
    board = rzbench.mixed(engine, n)
    assert engine.attack_violations(board.state, board.attacks) == ()
    benchmark.extra_info.update(per_side=n)
    benchmark(engine.attack_violations, board.state, board.attacks)


@pytest.mark.parametrize("n", SIZES)
def test_legal_blockers_of_one_attacker(benchmark: Any, engine: Engine, n: int) -> None:
    """Which of N creatures could block one flying attacker (pair by pair)."""
    benchmark.group = "legality-legal-blockers"
    board = rzbench.mixed(engine, n)
    st = rzbench.after_attacks(engine, board)
    assert engine.legal_blockers(st, "a0")
    benchmark.extra_info.update(per_side=n)
    benchmark(engine.legal_blockers, st, "a0")
