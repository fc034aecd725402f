"""Dethrone (CR 702.105): "Whenever this creature attacks the player with the most
life or tied for most life, put a +1/+1 counter on this creature" (702.105a); each
instance triggers separately (702.105b)."""

from __future__ import annotations

import pytest
import redzone_keywords.dethrone as dethrone
from redzone import Engine, GameState, LoseLife, Move, Player
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def table(engine: Engine, lives: dict[str, int], *keywords: str) -> GameState:
    """Players with ``lives``; alice has a 2/2 with ``keywords`` ("rogue") and a 1/1;
    bob a planeswalker."""
    c = engine.creature
    return engine.game([Player(p, life) for p, life in lives.items()], [
        c("rogue", "alice", 2, 2, *keywords), c("elf", "alice", 1, 1),
        engine.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 3})])


@pytest.mark.parametrize(("lives", "target", "counters"), [
    ({"alice": 10, "bob": 20}, "bob", 1),                 # bob has the most life
    ({"alice": 20, "bob": 20}, "bob", 1),                 # tied for the most
    ({"alice": 25, "bob": 20}, "bob", 0),                 # the attacking player counts
    ({"alice": 10, "bob": 20, "carol": 25}, "bob", 0),
    ({"alice": 10, "bob": 20, "carol": 25}, "carol", 1),
    ({"alice": 10, "bob": 25, "carol": 25}, "carol", 1),
    ({"alice": 10, "bob": 20}, "jace", 0),                # a planeswalker isn't a player
])
def test_702_105a_attacking_the_player_with_the_most_life(
        engine: Engine, lives: dict[str, int], target: str, counters: int) -> None:
    out = engine.declare_attackers(table(engine, lives, "dethrone"), {"rogue": target})
    rogue = out.state.objects["rogue"]
    assert rogue.counters.get("+1/+1", 0) == counters
    assert (rogue.power, rogue.toughness) == (2 + counters, 2 + counters)
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.105a"] * counters


def test_702_105a_104_5_a_player_who_left_the_game_is_not_compared(engine: Engine) -> None:
    """702.105a "the player with the most life or tied for most life" is among the
    players in the game: carol has lost and left it (104.5) with 25 life; bob, with
    20, has the most life of those left, so a creature attacking him gets its
    counter."""
    state = engine.game([Player("alice", 10), Player("bob", 20),
                         Player("carol", 25, lost=True)],
                        [engine.creature("rogue", "alice", 2, 2, "dethrone")])
    out = engine.declare_attackers(state, {"rogue": "bob"})
    assert out.state.objects["rogue"].counters == {"+1/+1": 1}
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.105a"]


def test_508_3a_a_creature_put_onto_the_battlefield_attacking_does_not_trigger(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the battlefield
    attacking": dethrone on a creature put onto the battlefield attacking bob, the
    player with the most life, never triggers; it gets no counter."""
    c = engine.creature
    state = engine.game([Player("alice", 10), Player("bob", 20)], [
        c("elf", "alice", 1, 1), c("knight", "alice", 3, 3, "dethrone", zone="hand")])
    state = engine.declare_attackers(state, {"elf": "bob"}).state
    out = engine.perform(state, Move("knight", "battlefield", attacking="bob"))
    assert out.state.combat is not None and out.state.combat.attacks["knight"] == "bob"
    assert [e for e in out.events if e.kind == "trigger"] == []
    assert out.state.objects["knight"].counters == {}


def test_702_105a_without_dethrone_nothing(engine: Engine) -> None:
    out = engine.declare_attackers(table(engine, {"alice": 10, "bob": 20}), {"rogue": "bob"})
    assert out.state.objects["rogue"].counters == {}


def test_702_105b_each_instance_triggers_separately(engine: Engine) -> None:
    out = engine.declare_attackers(table(engine, {"alice": 10, "bob": 20}, "dethrone",
                                         "dethrone"), {"rogue": "bob", "elf": "bob"})
    assert out.state.objects["rogue"].counters == {"+1/+1": 2}
    assert out.state.objects["elf"].counters == {}


def test_702_105a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_attackers(table(manual, {"alice": 10, "bob": 20}, "dethrone"),
                                     {"rogue": "bob"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.targets,
            trigger.amount, trigger.rule) == (
        "dethrone", "rogue", "alice", ("bob",), 1, "702.105a")
    assert manual.resolve_trigger(state).state.objects["rogue"].counters == {"+1/+1": 1}
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.objects["rogue"].counters == {}


def test_508_2a_life_totals_are_compared_as_attackers_are_declared(manual: Engine) -> None:
    """Once triggered, a change of life totals before it resolves changes nothing; the
    trigger condition isn't checked again."""
    state = manual.declare_attackers(table(manual, {"alice": 20, "bob": 20}, "dethrone"),
                                     {"rogue": "bob"}).state
    state = manual.perform(state, LoseLife("bob", 5)).state
    assert manual.resolve_trigger(state).state.objects["rogue"].counters == {"+1/+1": 1}


class TestDethroneConformance(KeywordConformance):
    """The conformance kit's invariants hold with dethrone on generated boards."""

    plugin = dethrone
    max_examples = 10
