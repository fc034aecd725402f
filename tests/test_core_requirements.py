"""Restrictions and requirements that are not keywords (508.1c-d, 509.1b-c),
and the checker that maximises obeyed requirements."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest
import redzone
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    AddEffect,
    Effect,
    Engine,
    GameState,
    IllegalAttackError,
    IllegalBlockError,
    Violation,
    hookimpl,
)
from redzone.kernel.requirements import SEARCH_BUDGET


def _attacked(engine: Engine, state: GameState, attacks: Mapping[str, str]) -> GameState:
    return engine.declare_attackers(state, attacks).state


def _rules(exc: pytest.ExceptionInfo[Any]) -> list[str]:
    return [v.rule for v in exc.value.violations]


# --- restrictions -------------------------------------------------------------------


def test_508_1c_cant_attack(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [engine.creature("wall", "alice", 0, 4,
                                                            cant_attack=True)])
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"wall": "bob"})
    assert _rules(info) == ["508.1c"]


def test_509_1b_cant_block_and_cant_be_blocked(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("rogue", "alice", 2, 2, cant_be_blocked=True), c("ogre", "alice", 3, 3),
        c("coward", "bob", 2, 2, cant_block=True), c("bear", "bob", 2, 2)])
    state = _attacked(engine, state, {"rogue": "bob", "ogre": "bob"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"coward": "ogre"})
    assert "can't block" in info.value.message and _rules(info) == ["509.1b"]
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"bear": "rogue"})
    assert "can't be blocked" in info.value.message
    assert engine.declare_blockers(state, {"bear": "ogre"}).state.combat is not None


def test_509_1b_cant_be_blocked_except_by_three_or_more(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("beast", "alice", 5, 5, min_blockers=3),
        *[c(f"b{i}", "bob", 1, 1) for i in range(3)]])
    state = _attacked(engine, state, {"beast": "bob"})
    with pytest.raises(IllegalBlockError, match="except by 3 or more creatures, not 2"):
        engine.declare_blockers(state, {"b0": "beast", "b1": "beast"})
    engine.declare_blockers(state, {"b0": "beast", "b1": "beast", "b2": "beast"})


# --- requirements ---------------------------------------------------------------------


def _one_attacker_limit(state: GameState, attacks: Mapping[str, str]) -> list[Violation]:
    if len(attacks) > 1:
        return [Violation("508.1c", "no more than one creature can attack each turn",
                          tuple(attacks))]
    return []


LIMIT = SimpleNamespace(__name__="limit", redzone_attack_declaration_violations=hookimpl(
    _one_attacker_limit))


def test_508_1d_example_attacks_if_able_under_a_one_attacker_limit() -> None:
    """508.1d example: one creature attacks if able, another has no abilities,
    and no more than one creature can attack: the only legal attack is the
    first one attacking alone."""
    engine = Engine(plugins=[LIMIT])
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("berserker", "alice", 2, 2, attacks_if_able=True),
                                            c("bear", "alice", 2, 2)])
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"bear": "bob"})
    assert _rules(info) == ["508.1d"]
    assert "berserker attacks if able" in info.value.message
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {})
    assert _rules(info) == ["508.1d"]
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"bear": "bob", "berserker": "bob"})
    assert _rules(info) == ["508.1c"]
    engine.declare_attackers(state, {"berserker": "bob"})
    assert engine.suggest_attacks(state) == {"berserker": "bob"}


def test_508_1d_a_tapped_creature_need_not_attack(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("berserker", "alice", 2, 2, attacks_if_able=True, tapped=True)])
    assert engine.declare_attackers(state, {}).state.combat is not None


def test_509_1c_example_blocks_if_able_and_menace(engine: Engine) -> None:
    """509.1c example: a creature that blocks if able and one with no
    abilities; a creature with menace attacks: the player must block with both."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("brute", "alice", 3, 3, "menace"),
        c("guard", "bob", 1, 1, blocks_if_able=True), c("bear", "bob", 2, 2)])
    state = _attacked(engine, state, {"brute": "bob"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {})
    assert _rules(info) == ["509.1c"]
    assert "guard blocks if able" in info.value.message
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"guard": "brute"})
    assert _rules(info) == ["702.111b"]
    engine.declare_blockers(state, {"guard": "brute", "bear": "brute"})
    assert engine.suggest_blocks(state) == {"guard": ("brute",), "bear": ("brute",)}


def test_509_1c_menace_and_a_lone_must_block_creature_is_no_deadlock(engine: Engine) -> None:
    """Obeying the requirement would break menace's restriction, so not
    blocking at all is legal (the bug trackers' menace + must-block deadlock)."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("brute", "alice", 3, 3, "menace"), c("guard", "bob", 1, 1, blocks_if_able=True)])
    state = _attacked(engine, state, {"brute": "bob"})
    assert engine.declare_blockers(state, {}).state.combat is not None
    with pytest.raises(IllegalBlockError):
        engine.declare_blockers(state, {"guard": "brute"})


def test_lure_all_creatures_able_to_block_it_do_so(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("lure", "alice", 1, 1, "flying", lure=True), c("ogre", "alice", 3, 3),
        c("bird", "bob", 1, 1, "flying"), c("spider", "bob", 1, 3, "reach"),
        c("bear", "bob", 2, 2)])
    state = _attacked(engine, state, {"lure": "bob", "ogre": "bob"})
    # The Bear can't block a flier, so it is free; the Bird and the Spider must block.
    engine.declare_blockers(state, {"bird": "lure", "spider": "lure", "bear": "ogre"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"bird": "lure", "spider": "ogre"})
    assert "spider blocks lure if able" in info.value.message


def test_must_be_blocked_if_able_needs_one_blocker(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("taunter", "alice", 1, 1, must_be_blocked=True),
        c("bear", "bob", 2, 2), c("elf", "bob", 1, 1)])
    state = _attacked(engine, state, {"taunter": "bob"})
    with pytest.raises(IllegalBlockError):
        engine.declare_blockers(state, {})
    engine.declare_blockers(state, {"elf": "taunter"})


def test_702_39a_provoke_style_effect_requires_that_block(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("goblin", "alice", 2, 2), c("ogre", "alice", 3, 3), c("bear", "bob", 2, 2)])
    state = _attacked(engine, state, {"goblin": "bob", "ogre": "bob"})
    state = engine.perform(state, AddEffect(Effect("blocks_if_able", to="bear",
                                                   source="goblin"))).state
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"bear": "ogre"})
    assert "bear blocks goblin if able" in info.value.message
    engine.declare_blockers(state, {"bear": "goblin"})


@settings(max_examples=15, deadline=None)
@given(n=st.integers(min_value=1, max_value=25), seed=st.integers(0, 3))
def test_the_checker_always_terminates_and_its_suggestion_is_legal(
        engine: Engine, n: int, seed: int) -> None:
    """On boards of any size the search stops (at most SEARCH_BUDGET leaves)
    and the declaration it suggests is accepted by the checker."""
    c = engine.creature
    perms = [c(f"a{i}", "alice", 1 + (i + seed) % 3, 2, *(["menace"] if i % 3 == seed % 3
                                                         else []))
             for i in range(n)]
    perms += [c(f"d{i}", "bob", 1, 1, blocks_if_able=(i + seed) % 2 == 0) for i in range(n)]
    state = engine.game(["alice", "bob"], perms)
    state = _attacked(engine, state, {f"a{i}": "bob" for i in range(n)})
    suggestion = engine.suggest_blocks(state)
    engine.declare_blockers(state, suggestion)
    assert SEARCH_BUDGET > 0


def test_requirement_objects_are_plain_values() -> None:
    r = redzone.Requirement("block", "guard", "509.1c")
    assert r.obeyed_by(None, {"guard": ("x",)}) and not r.obeyed_by(None, {})


# --- found by an audit (509.1c, 508.1a-c) ----------------------------------------------


def test_509_1c_a_creature_that_can_block_four_lures_must_block_all_four(
        engine: Engine) -> None:
    """509.1c: four attackers each "must be blocked by all creatures able to
    block it"; a creature that can block four attackers at once obeys four
    requirements by blocking all four, so blocking three obeys too few (the
    search used to try at most three attackers at once)."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        *(c(f"a{i}", "alice", 1, 1, lure=True) for i in range(1, 5)),
        c("b1", "bob", 1, 9, can_block_additional=3)])
    state = _attacked(engine, state, {f"a{i}": "bob" for i in range(1, 5)})
    engine.declare_blockers(state, {"b1": ("a1", "a2", "a3", "a4")})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"b1": ("a1", "a2", "a3")})
    assert _rules(info) == ["509.1c"]
    assert [dict(d) for d in engine.legal_block_declarations(state)] == [
        {"b1": ("a1", "a2", "a3", "a4")}]


def test_509_1c_ten_blockers_the_requirement_is_found_not_given_up(engine: Engine) -> None:
    """509.1c: bz must block if able and can block only a0, which has menace;
    b1 (reach) can join it, so blocking nothing breaks bz's requirement.
    Eight other blockers that could block only the other attackers used to
    exhaust the search before it tried b1 on a0, and nothing was refused."""
    c = engine.creature
    perms = [c("a0", "alice", 2, 2, "flying", "menace"),
             *(c(f"a{i}", "alice", 2, 2, "horsemanship") for i in (1, 2, 3)),
             c("bz", "bob", 1, 1, "flying", blocks_if_able=True), c("b1", "bob", 1, 1, "reach"),
             *(c(f"b{i}", "bob", 1, 1, "horsemanship") for i in range(2, 10))]
    state = engine.game(["alice", "bob"], perms)
    state = _attacked(engine, state, {p.id: "bob" for p in perms if p.controller == "alice"})
    engine.declare_blockers(state, {"bz": "a0", "b1": "a0"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {})
    assert _rules(info) == ["509.1c"]


def test_508_1a_c_legal_attackers_are_those_that_could_attack_on_their_own(
        engine: Engine) -> None:
    """508.1a-c: ``legal_attackers`` lists the creatures no restriction keeps
    from attacking; requirements (508.1d) are about the whole declaration:
    two creatures that attack if able and a vanilla one all may attack."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("x", "alice", 2, 2, attacks_if_able=True), c("y", "alice", 2, 2, attacks_if_able=True),
        c("z", "alice", 2, 2), c("sick", "alice", 2, 2, summoning_sick=True)])
    assert engine.legal_attackers(state) == ("x", "y", "z")
    engine.declare_attackers(state, {"x": "bob", "y": "bob", "z": "bob"})


# --- found by a mutation audit (509.1c, 508.1d) ------------------------------------------


def test_509_1c_a_must_be_blocked_attacker_blocked_second_of_two_is_obeyed(
        engine: Engine) -> None:
    """509.1c: the requirement "a must be blocked if able" is obeyed by any
    declaration in which a creature blocks it, also one that blocks it as
    the second of the two attackers it blocks; the declaration obeys every
    requirement, so it is legal, whatever order the attackers are listed in."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("a", "alice", 2, 2, must_be_blocked=True), c("b", "alice", 2, 2),
        c("x", "bob", 1, 5, can_block_additional=1)])
    state = _attacked(engine, state, {"a": "bob", "b": "bob"})
    for blocks in (("b", "a"), ("a", "b")):
        combat = engine.declare_blockers(state, {"x": blocks}).state.combat
        assert combat is not None
        assert (combat.blockers_of("a"), combat.blockers_of("b")) == (("x",), ("x",))
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"x": ("b",)})
    assert _rules(info) == ["509.1c"]


def test_508_1d_two_attack_if_able_under_a_one_attacker_limit() -> None:
    """508.1d: two creatures attack if able and no more than one creature can
    attack (508.1c). Both attacking breaks the restriction, so at most one
    requirement can be obeyed without disobeying a restriction: either one
    attacking alone obeys that many and is legal; no attack obeys fewer."""
    engine = Engine(plugins=[LIMIT])
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("b1", "alice", 2, 2, attacks_if_able=True),
                                            c("b2", "alice", 2, 2, attacks_if_able=True)])
    for alone in ("b1", "b2"):
        combat = engine.declare_attackers(state, {alone: "bob"}).state.combat
        assert combat is not None and dict(combat.attacks) == {alone: "bob"}
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {})
    assert _rules(info) == ["508.1d"]
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"b1": "bob", "b2": "bob"})
    assert _rules(info) == ["508.1c"]
