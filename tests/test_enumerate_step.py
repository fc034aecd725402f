"""The enumerator and ``is_legal_*`` agree with the declaring commands about
when a declaration can be made (506.1, 508.1, 509.1, 508.8): once attackers
are declared no declaration of attackers is legal, once blockers are
declared none of blockers, and none of blockers before attackers are
declared or when nothing attacks."""

from __future__ import annotations

import pytest
from redzone import Engine, IllegalActionError
from redzone.kernel.model import GameState

engine = Engine()
c = engine.creature


def _board() -> GameState:
    return engine.game(["alice", "bob"], [c("a", "alice", 2, 2), c("a2", "alice", 2, 2),
                                          c("b", "bob", 2, 2), c("b2", "bob", 2, 2)])


def _none_of_attacks(state: GameState) -> None:
    assert list(engine.legal_attack_declarations(state)) == []
    assert engine.count_legal_attacks(state) == 0
    assert not engine.is_legal_attack(state, {"a2": "bob"})
    with pytest.raises(IllegalActionError):
        engine.declare_attackers(state, {"a2": "bob"})


def _none_of_blocks(state: GameState) -> None:
    assert list(engine.legal_block_declarations(state)) == []
    assert engine.count_legal_blocks(state) == 0
    assert not engine.is_legal_block(state, {})
    with pytest.raises(IllegalActionError):
        engine.declare_blockers(state, {})


def test_506_1_508_1_no_second_declaration_of_attackers() -> None:
    """508.1: attackers are declared once; after that the enumerator lists
    none and no declaration is legal, as declare_attackers refuses."""
    state = engine.declare_attackers(_board(), {"a": "bob"}).state
    _none_of_attacks(state)


def test_506_1_509_1_no_second_declaration_of_blockers() -> None:
    """509.1: blockers are declared once."""
    state = engine.declare_attackers(_board(), {"a": "bob"}).state
    state = engine.declare_blockers(state, {"b": "a"}).state
    _none_of_blocks(state)


def test_508_8_no_blockers_when_nothing_attacked() -> None:
    """508.8: with no attackers the declare blockers step is skipped."""
    state = engine.declare_attackers(_board(), {}).state
    _none_of_blocks(state)


def test_506_1_no_blockers_at_the_beginning_of_combat() -> None:
    """506.1: blockers come after attackers."""
    _none_of_blocks(engine.begin_combat(_board()).state)


def test_508_1_509_1_the_declarations_in_their_steps_are_listed() -> None:
    """508.1, 509.1: from the main phase and at the beginning of combat
    attacks are listed; after attackers, blocks are."""
    board = _board()
    assert engine.count_legal_attacks(board) == 4  # each of two: bob, or not
    assert engine.count_legal_attacks(engine.begin_combat(board).state) == 4
    state = engine.declare_attackers(board, {"a": "bob"}).state
    assert engine.count_legal_blocks(state) == 4
    assert engine.is_legal_block(state, {"b": "a"})
