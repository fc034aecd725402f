"""Blockers are declared after attackers that all left combat (508.8).

508.8: "If no creatures are declared as attackers or put onto the
battlefield attacking, skip the declare blockers and combat damage steps."
Creatures declared and then removed from combat (506.4) don't skip them:
the declare blockers step happens, and declaring no blockers is its one
legal declaration. The engine goes there (``next_step``) and accepts
``{}``; the enumeration must agree.
"""

from __future__ import annotations

from redzone import Engine, RemoveFromCombat
from redzone.kernel.model import GameState

engine = Engine()


def _removed() -> GameState:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("wall", "bob", 0, 4)])
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = engine.perform(state, RemoveFromCombat("bear")).state
    assert state.combat is not None and not state.combat.attacks
    assert engine.next_step(state) == "declare_blockers"
    return state


def test_508_8_no_blockers_is_the_one_legal_block_after_every_attacker_left_combat() -> None:
    state = _removed()
    assert [dict(d) for d in engine.legal_block_declarations(state)] == [{}]
    assert engine.count_legal_blocks(state) == 1
    assert engine.is_legal_block(state, {})
    assert not engine.is_legal_block(state, {"wall": ["bear"]})
    engine.declare_blockers(state, {})  # what the enumeration offers is accepted


def test_508_8_nothing_declared_still_skips_the_step() -> None:
    """No creature declared as an attacker: the step is skipped, nothing to
    enumerate (the rule's own case)."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("wall", "bob", 0, 4)])
    state = engine.declare_attackers(state, {}).state
    assert engine.next_step(state) == "end_of_combat"
    assert list(engine.legal_block_declarations(state)) == []
    assert engine.count_legal_blocks(state) == 0
