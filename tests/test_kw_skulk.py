"""Skulk (CR 702.118): a creature with skulk can't be blocked by creatures with greater
power (702.118b)."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, IllegalBlockError, Pump
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone_keywords import flying, reach, skulk


def skulker_attacks(board: Any, *blockers: Any, power: int = 2) -> GameState:
    state = board(board.c("rat", "alice", power, 2, "skulk", name="Furtive Homunculus"),
                  *blockers)
    out: GameState = board.engine.declare_attackers(state, {"rat": "bob"}).state
    return out


def test_702_118b_a_creature_with_greater_power_cannot_block_it(board: Any) -> None:
    state = skulker_attacks(board, board.c("ogre", "bob", 3, 3, name="Hill Giant"))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"ogre": "rat"})
    err = info.value
    assert err.rule == "702.118b"
    assert err.objects == ("ogre", "rat")
    assert str(err) == ("Furtive Homunculus (skulk, power 2) can't be blocked by Hill Giant: "
                        "its power 3 is greater (rule 702.118b)")
    assert err.violations[0].restriction == "skulk"
    assert state == snapshot


@pytest.mark.parametrize("power", [0, 1, 2])
def test_702_118b_creatures_with_equal_or_less_power_can_block_it(board: Any,
                                                                   power: int) -> None:
    state = skulker_attacks(board, board.c("guard", "bob", power, 3))
    out = board.engine.declare_blockers(state, {"guard": "rat"})
    assert out.state.combat.blockers_of("rat") == ("guard",)


def test_702_118b_legal_blockers(board: Any) -> None:
    state = skulker_attacks(board, board.c("elf", "bob", 1, 1), board.c("bear", "bob", 2, 2),
                            board.c("ogre", "bob", 3, 3))
    assert board.engine.legal_blockers(state, "rat") == ("elf", "bear")


def test_702_118b_powers_are_compared_as_blockers_are_declared(board: Any) -> None:
    """702.118b: "can't be blocked by creatures with greater power", compared
    with current power as blockers are declared: the 2/2 can't block the 1/1
    skulker; a pump on the skulker before blocks lets it block; a pump on the
    blocker keeps it from blocking."""
    state = board(board.c("rat", "alice", 1, 1, "skulk"), board.c("bear", "bob", 2, 2))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.resolve(state, {"rat": "bob"}, {"bear": "rat"})
    assert (info.value.rule, info.value.objects) == ("702.118b", ("bear", "rat"))
    assert "its power 2 is greater" in info.value.message
    result = board.engine.resolve(state, {"rat": "bob"}, {"bear": "rat"},
                                  actions=[("declare_attackers", Pump("rat", 1, 1))])
    assert result.state.objects["rat"].zone == "graveyard"
    with pytest.raises(IllegalBlockError) as info:
        board.engine.resolve(state, {"rat": "bob"}, {"bear": "rat"}, actions=[
            ("declare_attackers", Pump("rat", 1, 1)), ("declare_attackers", Pump("bear", 1, 0))])
    assert info.value.rule == "702.118b"


def test_509_1b_a_bigger_blocker_after_blocks_does_not_undo_them(board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "skulk"), board.c("bear", "bob", 2, 2))
    result = board.engine.resolve(state, {"rat": "bob"}, {"bear": "rat"},
                                  actions=[("declare_blockers", Pump("bear", 3, 0))])
    assert result.state.objects["rat"].zone == "graveyard"
    assert result.state.players["bob"].life == 20


def test_702_118b_skulk_restricts_the_attacker_not_a_blocker_with_skulk(board: Any) -> None:
    state = board(board.c("bear", "alice", 1, 1), board.c("rat", "bob", 3, 3, "skulk"))
    state = board.engine.declare_attackers(state, {"bear": "bob"}).state
    assert board.engine.block_violations(state, {"rat": "bear"}) == ()


def test_509_1b_skulk_and_flying_are_cumulative(board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "skulk", "flying"),
                  board.c("owl", "bob", 1, 1, "flying"), board.c("roc", "bob", 4, 4, "flying"),
                  board.c("elf", "bob", 1, 1))
    state = board.engine.declare_attackers(state, {"rat": "bob"}).state
    assert board.engine.legal_blockers(state, "rat") == ("owl",)
    assert [v.rule for v in board.engine.block_violations(state, {"roc": "rat"})] == [
        "702.118b"]
    assert [v.rule for v in board.engine.block_violations(state, {"elf": "rat"})] == ["702.9b"]


def test_702_118c_multiple_instances_of_skulk_are_redundant(board: Any) -> None:
    state = board(board.c("rat", "alice", 1, 1, "skulk", "skulk"), board.c("ogre", "bob", 3, 3))
    state = board.engine.declare_attackers(state, {"rat": "bob"}).state
    assert len(board.engine.block_violations(state, {"ogre": "rat"})) == 1


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (flying, reach, skulk)


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


@given(st.integers(-1, 5), st.integers(-1, 5), st.booleans())
@settings(max_examples=40, deadline=None)
def test_702_118b_verdict_and_registration_order(mine: int, theirs: int,
                                                 has_skulk: bool) -> None:
    """702.118b: the block is illegal exactly when the attacker has skulk and the
    blocker's power is greater; whatever the registration order (design)."""
    verdicts = []
    for engine in engines():
        state = engine.game(["alice", "bob"], [
            engine.creature("a", "alice", mine, 9, *(["skulk"] if has_skulk else [])),
            engine.creature("b", "bob", theirs, 9)])
        state = engine.declare_attackers(state, {"a": "bob"}).state
        verdicts.append(engine.block_violations(state, {"b": "a"}))
    assert verdicts[0] == verdicts[1]
    assert bool(verdicts[0]) == (has_skulk and theirs > mine)


class TestSkulkConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, order independence), with
    the evasion keywords it combines with."""

    plugin = skulk
    builtins = False
    extra_plugins = (flying, reach)
    max_examples = 25
