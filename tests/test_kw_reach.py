"""Reach (CR 702.17): a creature with flying can't be blocked except by creatures with
flying and/or reach (702.17b); reach lifts the flying restriction and does nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, GameState, IllegalBlockError, Revoke, Violation, hookimpl
from redzone.testing import KeywordConformance
from redzone_keywords import reach as _reach_plugin


def test_702_17b_a_creature_with_reach_can_block_a_flier(board: Any) -> None:
    state = board(board.c("hawk", "alice", 1, 1, "flying"), board.c("spider", "bob", 1, 3,
                                                                    "reach"))
    result = board.engine.resolve(state, {"hawk": "bob"}, {"spider": "hawk"})
    assert result.state.objects["hawk"].zone == "graveyard"
    assert result.state.players["bob"].life == 20


def test_702_17b_reach_lifts_the_flying_restriction_only_for_its_own_creature(
        board: Any) -> None:
    state = board(board.c("hawk", "alice", 1, 1, "flying"),
                  board.c("spider", "bob", 1, 3, "reach"), board.c("bear", "bob", 2, 2))
    state = board.engine.declare_attackers(state, {"hawk": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"spider": "hawk", "bear": "hawk"})
    assert [(v.rule, v.objects) for v in info.value.violations] == [
        ("702.9b", ("bear", "hawk"))]


def test_702_17b_reach_can_block_a_creature_without_flying(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("spider", "bob", 1, 3, "reach"))
    state = board.engine.declare_attackers(state, {"bear": "bob"}).state
    assert board.engine.legal_blockers(state, "bear") == ("spider",)


def test_702_17b_reach_on_an_attacker_is_no_evasion(board: Any) -> None:
    state = board(board.c("spider", "alice", 1, 3, "reach"), board.c("bear", "bob", 2, 2))
    state = board.engine.declare_attackers(state, {"spider": "bob"}).state
    assert board.engine.block_violations(state, {"bear": "spider"}) == ()


def test_702_17b_reach_does_not_lift_other_restrictions(engine: Engine) -> None:
    """Reach answers only for the flying restriction: a green creature with reach still
    can't block a flier with protection from green (702.16f)."""
    state = engine.game(["alice", "bob"], [
        engine.creature("angel", "alice", 3, 3, "flying", "protection from green"),
        engine.creature("spider", "bob", 1, 3, "reach", colors=["green"]),
    ])
    state = engine.declare_attackers(state, {"angel": "bob"}).state
    assert [v.rule for v in engine.block_violations(state, {"spider": "angel"})] == [
        "702.16f"]
    assert engine.legal_blockers(state, "angel") == ()


def test_702_17b_reach_does_not_lift_the_shadow_restriction(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("wraith", "alice", 2, 2, "shadow"),
        engine.creature("spider", "bob", 1, 3, "reach"),
    ])
    state = engine.declare_attackers(state, {"wraith": "bob"}).state
    assert [v.restriction for v in engine.block_violations(state, {"spider": "wraith"})] == [
        "shadow"]


def test_509_1b_losing_reach_after_blocking_a_flier_does_not_undo_the_block(
        board: Any) -> None:
    state = board(board.c("hawk", "alice", 1, 1, "flying"), board.c("spider", "bob", 1, 3,
                                                                    "reach"))
    result = board.engine.resolve(state, {"hawk": "bob"}, {"spider": "hawk"},
                                  actions=[("declare_blockers", Revoke("spider", "reach"))])
    assert result.state.objects["hawk"].zone == "graveyard"
    assert result.state.players["bob"].life == 20


def test_702_17c_several_instances_of_reach_are_redundant(board: Any) -> None:
    state = board(board.c("hawk", "alice", 1, 1, "flying"),
                  board.c("spider", "bob", 1, 3, "reach", "reach"))
    state = board.engine.declare_attackers(state, {"hawk": "bob"}).state
    assert board.engine.block_violations(state, {"spider": "hawk"}) == ()


class Skyless:
    """Test double: an evasion ability with its own named restriction ("can't be blocked
    except by creatures with flying and no reach"), to check that reach lifts only the
    one named ``flying``."""

    __name__ = "test-skyless"

    @hookimpl
    def redzone_block_violations(self, state: GameState, blocker: str,
                                 attacker: str) -> list[Violation]:
        if state.objects[attacker].name != "Skyless":
            return []
        return [Violation("test", f"{blocker} can't block Skyless", (blocker, attacker),
                          restriction="skyless")]


def test_702_17b_reach_lifts_no_other_named_restriction() -> None:
    engine = Engine(plugins=[Skyless()])
    state = engine.game(["alice", "bob"], [
        engine.creature("odd", "alice", 1, 1, name="Skyless"),
        engine.creature("spider", "bob", 1, 3, "reach"),
    ])
    state = engine.declare_attackers(state, {"odd": "bob"}).state
    assert [v.restriction for v in engine.block_violations(state, {"spider": "odd"})] == [
        "skyless"]


class TestReachConformance(KeywordConformance):
    """The conformance kit's invariants for reach (702.17), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _reach_plugin
    max_examples = 25
