"""Menace (CR 702.111): a creature with menace can't be blocked except by two or more
creatures (702.111b); a declaration breaking it is rejected as a whole (509.1b, 733)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, Grant, IllegalBlockError
from redzone.testing import KeywordConformance
from redzone_keywords import menace as _menace_plugin


def attacked(board: Any, *blockers: str) -> GameState:
    """A state after a creature with menace ("orc") attacked bob, who has ``blockers``."""
    state = board(board.c("orc", "alice", 3, 3, "menace", name="Bloodrage Brawler"),
                  *(board.c(b, "bob", 1, 1) for b in blockers))
    out: GameState = board.engine.declare_attackers(state, {"orc": "bob"}).state
    return out


def test_702_111b_one_creature_alone_cannot_block_it(board: Any) -> None:
    state = attacked(board, "elf", "bear")
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"elf": "orc"})
    err = info.value
    assert err.rule == "702.111b"
    assert err.objects == ("elf", "orc")
    assert str(err) == ("Bloodrage Brawler (orc) (menace) can't be blocked except by two or "
                        "more creatures; only 1 creature blocks it: elf (rule 702.111b)")
    assert state == snapshot


@pytest.mark.parametrize("blockers", [("elf", "bear"), ("elf", "bear", "wolf")])
def test_702_111b_two_or_more_creatures_can_block_it(board: Any,
                                                     blockers: tuple[str, ...]) -> None:
    state = attacked(board, "elf", "bear", "wolf")
    out = board.engine.declare_blockers(state, dict.fromkeys(blockers, "orc"))
    assert out.state.combat.blockers_of("orc") == blockers


def test_702_111b_not_blocking_it_at_all_is_legal(board: Any) -> None:
    state = attacked(board, "elf")
    assert board.engine.block_violations(state, {}) == ()
    assert board.engine.resolve(board(board.c("orc", "alice", 3, 3, "menace")),
                                {"orc": "bob"}).state.players["bob"].life == 17


@given(st.integers(min_value=0, max_value=4))
@settings(max_examples=10, deadline=None)
def test_702_111b_a_block_is_legal_exactly_when_not_by_one_creature(engine: Engine,
                                                                     n: int) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("orc", "alice", 3, 3, "menace"),
        *(engine.creature(f"b{i}", "bob", 1, 1) for i in range(4)),
    ])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    violations = engine.block_violations(state, {f"b{i}": "orc" for i in range(n)})
    assert [v.rule for v in violations] == (["702.111b"] if n == 1 else [])


def test_702_111b_menace_on_a_blocker_does_not_restrict_its_blocking(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("orc", "bob", 3, 3, "menace"))
    state = board.engine.declare_attackers(state, {"bear": "bob"}).state
    assert board.engine.block_violations(state, {"orc": "bear"}) == ()


def test_702_111b_each_attacker_with_menace_needs_two_blockers_of_its_own(board: Any) -> None:
    """A creature that can block an additional creature (509.1a) blocking two attackers
    with menace is one creature blocking each of them."""
    state = board(board.c("orc", "alice", 3, 3, "menace"), board.c("ogre", "alice", 3, 3,
                                                                    "menace"),
                  board.c("guard", "bob", 1, 4, can_block_additional=1),
                  board.c("bear", "bob", 2, 2, can_block_additional=1))
    state = board.engine.declare_attackers(state, {"orc": "bob", "ogre": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"guard": ["orc", "ogre"]})
    assert sorted(v.objects for v in info.value.violations) == [("ogre", "guard"),
                                                                ("orc", "guard")]
    out = board.engine.declare_blockers(state, {"guard": ["orc", "ogre"],
                                                "bear": ["orc", "ogre"]})
    assert out.state.combat.blockers_of("orc") == ("guard", "bear")
    assert out.state.combat.blockers_of("ogre") == ("guard", "bear")


@pytest.mark.parametrize(("blocks", "rules"), [
    ({"eager": "orc"}, ["702.111b"]),
    ({"plain": "orc"}, ["702.111b"]),
    ({"eager": "orc", "plain": "orc"}, []),
    ({}, ["509.1c"]),
])
def test_509_1c_example_blocks_if_able_and_menace(engine: Engine, blocks: dict[str, str],
                                                  rules: list[str]) -> None:
    """509.1c example: one creature that "blocks if able", one with no abilities, and an
    attacker with menace: the player must block with both. Either creature alone breaks
    menace's restriction (702.111b); no block fulfils the restriction but not the
    requirement (509.1c).

    The example adds that the second creature alone breaks the requirement too; the
    engine weighs requirements only among declarations that break no restriction, so
    that declaration is reported for menace alone.
    """
    state = engine.game(["alice", "bob"], [
        engine.creature("orc", "alice", 3, 3, "menace"),
        engine.creature("eager", "bob", 1, 1, blocks_if_able=True),
        engine.creature("plain", "bob", 1, 1),
    ])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    assert [v.rule for v in engine.block_violations(state, blocks)] == rules
    if not rules:
        assert engine.declare_blockers(state, blocks).state.combat is not None


@pytest.mark.parametrize(("blockers", "rules"), [
    (("hawk", "bear"), ["702.9b"]),
    (("hawk", "spider"), []),
    (("hawk",), ["702.111b"]),
])
def test_509_1b_menace_and_flying_are_cumulative(engine: Engine, blockers: tuple[str, ...],
                                                 rules: list[str]) -> None:
    """509.1b: different evasion abilities are cumulative: two blockers, each with flying
    or reach."""
    state = engine.game(["alice", "bob"], [
        engine.creature("drake", "alice", 3, 3, "flying", "menace"),
        engine.creature("hawk", "bob", 1, 1, "flying"),
        engine.creature("spider", "bob", 1, 3, "reach"),
        engine.creature("bear", "bob", 2, 2),
    ])
    state = engine.declare_attackers(state, {"drake": "bob"}).state
    assert [v.rule for v in engine.block_violations(state, dict.fromkeys(blockers,
                                                                          "drake"))] == rules


def test_509_1b_menace_gained_after_blocks_does_not_undo_the_block(board: Any) -> None:
    state = board(board.c("orc", "alice", 3, 3), board.c("bear", "bob", 2, 2))
    result = board.engine.resolve(state, {"orc": "bob"}, {"bear": "orc"},
                                  actions=[("declare_blockers", Grant("orc", "menace"))])
    assert result.state.objects["bear"].zone == "graveyard"
    assert result.state.objects["orc"].damage == 2
    assert result.state.players["bob"].life == 20


def test_702_111b_legal_blockers_is_pair_by_pair_and_ignores_menace(board: Any) -> None:
    state = attacked(board, "elf", "bear")
    assert board.engine.legal_blockers(state, "orc") == ("elf", "bear")


def test_702_111c_several_instances_of_menace_are_redundant(board: Any) -> None:
    state = board(board.c("orc", "alice", 3, 3, "menace", "menace"),
                  board.c("elf", "bob", 1, 1), board.c("bear", "bob", 2, 2))
    state = board.engine.declare_attackers(state, {"orc": "bob"}).state
    assert board.engine.block_violations(state, {"elf": "orc", "bear": "orc"}) == ()
    assert len(board.engine.hooks.blocked_by_violations(state, "orc", ("elf",))) == 1


def test_702_111b_a_second_blocker_whose_own_block_is_illegal_still_counts(board: Any) -> None:
    """Two creatures are declared, one of them tapped: the declaration breaks 509.1a,
    not menace (it would be legal with that creature untapped)."""
    state = board(board.c("orc", "alice", 3, 3, "menace"),
                  board.c("elf", "bob", 1, 1, tapped=True), board.c("bear", "bob", 2, 2))
    state = board.engine.declare_attackers(state, {"orc": "bob"}).state
    violations = board.engine.block_violations(state, {"elf": "orc", "bear": "orc"})
    assert [(v.rule, v.objects) for v in violations] == [("509.1a", ("elf",))]


@pytest.mark.parametrize(("blocks", "rules"), [
    ({"b1": "scourge", "b2": "scourge"}, []),
    ({"b1": "scourge", "b2": "scourge", "b3": "scourge"}, []),
    ({"b1": "scourge", "b2": "scourge", "b3": "neonate"}, []),
    ({"b1": "scourge", "b2": "scourge", "b3": "terror"}, ["702.111b"]),
    ({"b1": "scourge", "b2": "terror", "b3": "terror"}, ["702.111b"]),
])
def test_702_111b_seed_werewolves_with_menace(engine: Engine, blocks: dict[str, str],
                                               rules: list[str]) -> None:
    """Seed: Bloodcrazed Neonate, Terror of Kruin Pass and Hinterland Scourge attack;
    Terror gives Werewolves menace. Two creatures on the Scourge are legal, the third
    may also block it or the Neonate, but a lone creature can't block Terror. The
    Scourge's "must be blocked if able" requirement (509.1c) isn't part of this test."""
    state = engine.game(["alice", "bob"], [
        engine.creature("neonate", "alice", 2, 1),
        engine.creature("terror", "alice", 3, 3, "menace", subtypes=["Werewolf"]),
        engine.creature("scourge", "alice", 3, 2, "menace", subtypes=["Werewolf"]),
        *(engine.creature(f"b{i}", "bob", 2, 2) for i in (1, 2, 3)),
    ])
    state = engine.declare_attackers(state, dict.fromkeys(("neonate", "terror", "scourge"),
                                                          "bob")).state
    assert [v.rule for v in engine.block_violations(state, blocks)] == rules


class TestMenaceConformance(KeywordConformance):
    """The conformance kit's invariants for menace (702.111), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _menace_plugin
    max_examples = 25
