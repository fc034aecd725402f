"""Horsemanship (CR 702.31): a creature with horsemanship can't be blocked by creatures
without horsemanship; a creature with horsemanship can block a creature with or without
horsemanship (702.31b)."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, Grant, IllegalBlockError
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone_keywords import flying, horsemanship, reach


def attack(board: Any, attacker: Any, *blockers: Any) -> GameState:
    state = board(attacker, *blockers)
    out: GameState = board.engine.declare_attackers(state, {attacker.id: "bob"}).state
    return out


def test_702_31b_a_creature_without_horsemanship_cannot_block_it(board: Any) -> None:
    state = attack(board, board.c("rider", "alice", 2, 2, "horsemanship",
                                  name="Shu Cavalry"),
                   board.c("bear", "bob", 2, 2, name="Grizzly Bears"))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"bear": "rider"})
    err = info.value
    assert err.rule == "702.31b"
    assert err.objects == ("bear", "rider")
    assert str(err) == ("Shu Cavalry (horsemanship) can't be blocked by Grizzly Bears: it "
                        "doesn't have horsemanship (rule 702.31b)")
    assert err.violations[0].restriction == "horsemanship"
    assert state == snapshot


def test_702_31b_a_creature_with_horsemanship_can_block_it(board: Any) -> None:
    state = attack(board, board.c("rider", "alice", 2, 2, "horsemanship"),
                   board.c("archer", "bob", 1, 3, "horsemanship"))
    out = board.engine.declare_blockers(state, {"archer": "rider"})
    assert out.state.combat.blockers_of("rider") == ("archer",)


@pytest.mark.parametrize("keyword", ["flying", "reach"])
def test_702_31b_flying_or_reach_does_not_let_a_creature_block_it(board: Any,
                                                                   keyword: str) -> None:
    """Horsemanship is not flying: only horsemanship lifts its restriction."""
    state = attack(board, board.c("rider", "alice", 2, 2, "horsemanship"),
                   board.c("guard", "bob", 1, 3, keyword))
    assert [v.rule for v in board.engine.block_violations(state, {"guard": "rider"})] == [
        "702.31b"]


def test_702_31b_a_creature_with_horsemanship_can_block_one_without(board: Any) -> None:
    """Unlike shadow (702.28b), horsemanship doesn't restrict the blocker that has it."""
    state = attack(board, board.c("bear", "alice", 2, 2),
                   board.c("archer", "bob", 1, 3, "horsemanship"))
    assert board.engine.block_violations(state, {"archer": "bear"}) == ()
    assert board.engine.legal_blockers(state, "bear") == ("archer",)


def test_702_31b_legal_blockers_are_those_with_horsemanship(board: Any) -> None:
    state = attack(board, board.c("rider", "alice", 2, 2, "horsemanship"),
                   board.c("bear", "bob", 2, 2), board.c("archer", "bob", 1, 3, "horsemanship"),
                   board.c("owl", "bob", 1, 1, "flying"))
    assert board.engine.legal_blockers(state, "rider") == ("archer",)


def test_509_1b_horsemanship_and_flying_are_cumulative(board: Any) -> None:
    state = attack(board, board.c("rider", "alice", 2, 2, "horsemanship", "flying"),
                   board.c("archer", "bob", 1, 3, "horsemanship"),
                   board.c("owl", "bob", 1, 1, "flying"),
                   board.c("roc", "bob", 1, 1, "flying", "horsemanship"))
    assert [v.rule for v in board.engine.block_violations(state, {"archer": "rider"})] == [
        "702.9b"]
    assert [v.rule for v in board.engine.block_violations(state, {"owl": "rider"})] == [
        "702.31b"]
    assert board.engine.legal_blockers(state, "rider") == ("roc",)


def test_702_31c_multiple_instances_of_horsemanship_are_redundant(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("rider", "alice", 2, 2, "horsemanship", "horsemanship"),
        engine.creature("bear", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"rider": "bob"}).state
    assert len(engine.block_violations(state, {"bear": "rider"})) == 1


def test_509_1b_horsemanship_gained_after_blocks_does_not_undo_them(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4))
    result = board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                                  actions=[("declare_blockers", Grant("bear", "horsemanship"))])
    assert result.state.objects["wall"].damage == 2
    assert result.state.players["bob"].life == 20


def test_702_31b_unblockable_rider_deals_its_damage_to_the_player(board: Any) -> None:
    state = board(board.c("rider", "alice", 3, 3, "horsemanship"), board.c("bear", "bob", 2, 2))
    with pytest.raises(IllegalBlockError):
        board.engine.resolve(state, {"rider": "bob"}, {"bear": "rider"})
    assert board.engine.resolve(state, {"rider": "bob"}, {}).state.players["bob"].life == 17


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (flying, horsemanship, reach)
KEYWORDS = ("horsemanship", "flying", "reach")


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


@given(st.lists(st.sampled_from(KEYWORDS), unique=True),
       st.lists(st.sampled_from(KEYWORDS), unique=True))
@settings(max_examples=40, deadline=None)
def test_702_31b_verdict_and_registration_order(att: list[str], blk: list[str]) -> None:
    """702.31b: the horsemanship restriction applies exactly when the attacker has
    horsemanship and the blocker doesn't; whatever the registration order (design)."""
    verdicts = []
    for engine in engines():
        state = engine.game(["alice", "bob"], [engine.creature("a", "alice", 2, 2, *att),
                                               engine.creature("b", "bob", 2, 2, *blk)])
        state = engine.declare_attackers(state, {"a": "bob"}).state
        verdicts.append(engine.block_violations(state, {"b": "a"}))
    assert verdicts[0] == verdicts[1]
    assert ("702.31b" in [v.rule for v in verdicts[0]]) == (
        "horsemanship" in att and "horsemanship" not in blk)


class TestHorsemanshipConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, order independence), with
    the evasion keywords it combines with."""

    plugin = horsemanship
    builtins = False
    extra_plugins = (flying, reach)
    max_examples = 25
