"""Legal declarations, enumerated (508.1, 509.1), for AI search: a 4 attackers
vs 5 blockers board with mixed keywords.

- ``enumerate-blocks``: every legal declaration of blockers, generated;
  ``extra_info`` gives the candidates (every per-creature combination the
  generator weighs) and the legal declarations, so candidates/s is
  ``candidates / median``.
- ``enumerate-and-resolve``: each legal declaration declared through the
  unchecked entry point (``checked=False``: not checked again) and resolved
  through every combat damage step.
- ``check-each-candidate``: the same candidates checked one by one with
  ``block_violations``, the loop the generator replaces.
- ``enumerate-attacks``: every legal declaration of attackers on the board.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from redzone import Engine, GameState
from redzone.kernel import enumerate as en


def board(engine: Engine) -> GameState:
    """Four attackers, five blockers: flying, reach, menace, trample, first
    strike, deathtouch, defender, a creature that blocks two."""
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("a1", "alice", 3, 3, "flying"),
        c("a2", "alice", 2, 2, "menace", "trample"),
        c("a3", "alice", 2, 1, "first strike", "deathtouch"),
        c("a4", "alice", 4, 4, "trample"),
        c("b1", "bob", 1, 3, "reach"),
        c("b2", "bob", 2, 2, "deathtouch"),
        c("b3", "bob", 1, 1, "flying"),
        c("b4", "bob", 0, 4, "defender", can_block_additional=1),
        c("b5", "bob", 3, 3, "first strike"),
    ])


ATTACKS = {"a1": "bob", "a2": "bob", "a3": "bob", "a4": "bob"}


@pytest.fixture(scope="module")
def declared(engine: Engine) -> GameState:
    state = engine.begin_combat(board(engine)).state
    return engine.declare_attackers(state, ATTACKS).state


def _candidates(engine: Engine, state: GameState) -> int:
    return math.prod(1 + len(g) for g in en.block_options(engine.hooks, state).values())


def test_enumerate_blocks(benchmark: Any, engine: Engine, declared: GameState) -> None:
    benchmark.group = "enumerate-blocks"
    n = engine.count_legal_blocks(declared)
    cands = _candidates(engine, declared)
    assert 0 < n < cands
    benchmark.extra_info.update(candidates=cands, legal=n)
    assert benchmark(engine.count_legal_blocks, declared) == n


def _resolve_all(engine: Engine, state: GameState) -> int:
    done = 0
    for decl in engine.legal_block_declarations(state):
        st = engine.declare_blockers(state, decl, checked=False).state
        while engine.next_step(st) in ("first_strike_damage", "combat_damage"):
            st = engine.combat_damage(st).state
        done += 1
    return done


def test_enumerate_and_resolve(benchmark: Any, engine: Engine, declared: GameState) -> None:
    benchmark.group = "enumerate-and-resolve"
    n = engine.count_legal_blocks(declared)
    benchmark.extra_info.update(candidates=_candidates(engine, declared), legal=n)
    assert benchmark.pedantic(_resolve_all, (engine, declared), rounds=5, iterations=1) == n


def _check_each(engine: Engine, state: GameState) -> int:
    options = en.block_options(engine.hooks, state)
    creatures = list(options)
    legal = 0
    for combo in itertools.product(*[(None, *options[c]) for c in creatures]):
        decl = {c: g for c, g in zip(creatures, combo, strict=True) if g is not None}
        legal += not engine.block_violations(state, decl)
    return legal


def test_check_each_candidate(benchmark: Any, engine: Engine, declared: GameState) -> None:
    benchmark.group = "check-each-candidate"
    n = engine.count_legal_blocks(declared)
    benchmark.extra_info.update(candidates=_candidates(engine, declared), legal=n)
    assert benchmark.pedantic(_check_each, (engine, declared), rounds=3, iterations=1) == n


def test_enumerate_attacks(benchmark: Any, engine: Engine) -> None:
    benchmark.group = "enumerate-attacks"
    state = engine.begin_combat(board(engine)).state
    n = engine.count_legal_attacks(state)
    assert n == 16
    benchmark.extra_info.update(legal=n)
    assert benchmark(engine.count_legal_attacks, state) == n
