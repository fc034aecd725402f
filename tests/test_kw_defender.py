"""Defender (CR 702.3): a creature with defender can't attack (702.3b)."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, IllegalAttackError, Revoke, Violation, hookimpl
from redzone.testing import KeywordConformance
from redzone_keywords import defender as _defender_plugin


def test_702_3b_seed_tree_of_redemption_cannot_attack(board: Any) -> None:
    """Seed: "Tree of Redemption cannot attack at all because of the Defender ability"."""
    state = board(board.c("tree", "alice", 0, 13, "defender", name="Tree of Redemption"),
                  board.c("bear", "alice", 2, 2))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.declare_attackers(state, {"tree": "bob", "bear": "bob"})
    err = info.value
    assert err.rule == "702.3b"
    assert err.objects == ("tree",)
    assert str(err) == ("Tree of Redemption (tree) has defender and can't attack "
                        "(rule 702.3b)")
    assert err.violations[0].restriction == "defender"
    assert board.engine.legal_attackers(state) == ("bear",)


def test_702_3b_defender_does_not_stop_the_other_attackers_alone(board: Any) -> None:
    state = board(board.c("tree", "alice", 0, 13, "defender"), board.c("bear", "alice", 2, 2))
    assert board.engine.attack_violations(state, {"bear": "bob"}) == ()


def test_702_3b_a_creature_with_defender_can_block(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4, "defender"))
    out = board.engine.declare_attackers(state, {"bear": "bob"})
    assert board.engine.legal_blockers(out.state, "bear") == ("wall",)
    out = board.engine.declare_blockers(out.state, {"wall": "bear"})
    out = board.engine.combat_damage(out.state)
    assert out.state.objects["wall"].damage == 2
    assert out.state.players["bob"].life == 20


def test_702_3b_seed_losing_defender_lets_it_attack(board: Any) -> None:
    """Seed: "to declare it an attacker, you would need to remove that ability somehow"."""
    state = board(board.c("tree", "alice", 0, 13, "defender"), board.c("bear", "alice", 2, 2))
    result = board.engine.resolve(state, {"tree": "bob", "bear": "bob"},
                                  actions=[("beginning_of_combat", Revoke("tree", "defender"))])
    assert result.state.combat is None
    assert [e.attacker for e in result.events if e.kind == "attack"] == ["tree", "bear"]


class AssaultFormation:
    """Test double for "each creature you control can attack as though it didn't have
    defender": the restriction is named, so an exemption may lift it (508.1c)."""

    __name__ = "test-assault-formation"

    @hookimpl
    def redzone_attack_exemption(self, violation: Violation) -> bool:
        return violation.restriction == "defender"


def test_508_1c_an_effect_can_let_a_creature_attack_as_though_it_had_no_defender() -> None:
    engine = Engine(plugins=[AssaultFormation()])
    state = engine.game(["alice", "bob"], [engine.creature("tree", "alice", 0, 13, "defender")])
    assert engine.attack_violations(state, {"tree": "bob"}) == ()


def test_702_3c_several_instances_of_defender_are_redundant(board: Any) -> None:
    """Two instances still make one restriction, which one exemption lifts."""
    engine = Engine(plugins=[AssaultFormation()])
    state = engine.game(["alice", "bob"],
                        [engine.creature("tree", "alice", 0, 13, "defender", "defender")])
    assert engine.attack_violations(state, {"tree": "bob"}) == ()
    state = board(board.c("tree", "alice", 0, 13, "defender", "defender"))
    assert [v.rule for v in board.engine.hooks.attack_violations(state, "tree", "bob")] == [
        "702.3b"]


class TestDefenderConformance(KeywordConformance):
    """The conformance kit's invariants for defender (702.3), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _defender_plugin
    max_examples = 25
