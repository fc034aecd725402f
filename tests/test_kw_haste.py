"""Haste (CR 702.10): a creature with haste can attack even if it hasn't been under its
controller's control continuously since their most recent turn began (302.6, 508.1a)."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, Grant, IllegalAttackError, Revoke
from redzone.testing import KeywordConformance
from redzone_keywords import haste as _haste_plugin


def test_302_6_a_summoning_sick_creature_without_haste_cannot_attack(board: Any) -> None:
    state = board(board.c("ogre", "alice", 3, 3, summoning_sick=True, name="Hill Ogre"))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.declare_attackers(state, {"ogre": "bob"})
    err = info.value
    assert err.rule == "302.6"
    assert err.objects == ("ogre",)
    (violation,) = err.violations
    assert violation.restriction == "summoning_sickness"
    assert ("Hill Ogre (ogre) has not been under the control of 'alice' continuously"
            in violation.message)
    assert board.engine.legal_attackers(state) == ()


def test_702_10b_haste_lets_a_summoning_sick_creature_attack(board: Any) -> None:
    state = board(board.c("goblin", "alice", 2, 2, "haste", summoning_sick=True))
    assert board.engine.attack_violations(state, {"goblin": "bob"}) == ()
    assert board.engine.legal_attackers(state) == ("goblin",)
    result = board.engine.resolve(state, {"goblin": "bob"})
    assert result.state.players["bob"].life == 18
    assert result.state.objects["goblin"].tapped is True  # haste is not vigilance


def test_702_10b_haste_exempts_only_its_own_creature(board: Any) -> None:
    state = board(board.c("goblin", "alice", 2, 2, "haste", summoning_sick=True),
                  board.c("ogre", "alice", 3, 3, summoning_sick=True))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.declare_attackers(state, {"goblin": "bob", "ogre": "bob"})
    assert [(v.rule, v.objects) for v in info.value.violations] == [("302.6", ("ogre",))]
    assert board.engine.legal_attackers(state) == ("goblin",)


def test_508_1a_haste_does_not_let_a_tapped_creature_attack(board: Any) -> None:
    state = board(board.c("goblin", "alice", 2, 2, "haste", tapped=True, summoning_sick=True))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.declare_attackers(state, {"goblin": "bob"})
    assert "508.1a" in {v.rule for v in info.value.violations}


def test_702_3b_haste_does_not_lift_another_named_restriction(board: Any) -> None:
    """Defender's restriction is named too, so the exemption hook is asked about it:
    haste must answer only for summoning sickness (702.10b)."""
    state = board(board.c("wall", "alice", 0, 4, "haste", "defender"))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.declare_attackers(state, {"wall": "bob"})
    assert [v.rule for v in info.value.violations] == ["702.3b"]


def test_702_10b_haste_gained_before_attackers_are_declared_counts(board: Any) -> None:
    state = board(board.c("ogre", "alice", 3, 3, summoning_sick=True))
    result = board.engine.resolve(state, {"ogre": "bob"},
                                  actions=[("beginning_of_combat", Grant("ogre", "haste"))])
    assert result.state.players["bob"].life == 17


def test_302_6_haste_lost_before_attackers_are_declared_no_longer_helps(board: Any) -> None:
    state = board(board.c("goblin", "alice", 2, 2, "haste", summoning_sick=True))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.resolve(state, {"goblin": "bob"},
                             actions=[("beginning_of_combat", Revoke("goblin", "haste"))])
    assert info.value.rule == "302.6"


def test_702_10d_several_instances_of_haste_are_redundant(board: Any) -> None:
    state = board(board.c("goblin", "alice", 2, 2, "haste", "haste", summoning_sick=True))
    assert board.engine.attack_violations(state, {"goblin": "bob"}) == ()


@pytest.mark.parametrize(("sick", "legal"), [(False, True), (True, False)])
def test_302_6_seed_an_animated_land_needs_continuous_control_not_creature_time(
        engine: Engine, sick: bool, legal: bool) -> None:
    """Seed: "For 'animated' permanents it doesn't matter for how long they have been
    creatures. What matters is how long and how continuously you have controlled that
    permanent." A land that became a creature this turn, controlled since the turn began,
    can attack without haste."""
    state = engine.game(["alice", "bob"], [engine.permanent(
        "nexus", "alice", types=["land", "creature"], power=1, toughness=1,
        summoning_sick=sick)])
    assert [v.rule for v in engine.attack_violations(state, {"nexus": "bob"})] == (
        [] if legal else ["302.6"])


class TestHasteConformance(KeywordConformance):
    """The conformance kit's invariants for haste (702.10), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _haste_plugin
    max_examples = 25
