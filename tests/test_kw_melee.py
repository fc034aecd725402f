"""Melee (CR 702.121): "Whenever this creature attacks, it gets +1/+1 until end of
turn for each opponent you attacked with a creature this combat" (702.121a); each
instance triggers separately (702.121b)."""

from __future__ import annotations

import pytest
import redzone_keywords.melee as melee
from redzone import Engine, GameState, RemoveFromCombat
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def table(engine: Engine, *keywords: str) -> GameState:
    """Four players; alice has a 2/2 with ``keywords`` ("knight") and two 1/1s; dan
    has a planeswalker."""
    c = engine.creature
    return engine.game(["alice", "bob", "carol", "dan"], [
        c("knight", "alice", 2, 2, *keywords), c("elf", "alice", 1, 1),
        c("goblin", "alice", 1, 1),
        engine.permanent("jace", "dan", types=["planeswalker"], counters={"loyalty": 3})])


def power(engine: Engine, attacks: dict[str, str], *keywords: str) -> int:
    state = engine.declare_attackers(table(engine, *keywords), attacks).state
    result: int = state.objects["knight"].power
    return result


def test_702_121a_two_players_one_opponent(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 2, 2, "melee")])
    out = engine.declare_attackers(state, {"knight": "bob"})
    knight = out.state.objects["knight"]
    assert (knight.power, knight.toughness) == (3, 3)
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.121a"]


@pytest.mark.parametrize(("attacks", "bonus"), [
    ({"knight": "bob"}, 1),
    ({"knight": "bob", "elf": "bob"}, 1),                      # one opponent, two creatures
    ({"knight": "bob", "elf": "carol"}, 2),
    ({"knight": "bob", "elf": "carol", "goblin": "dan"}, 3),
    ({"knight": "bob", "elf": "carol", "goblin": "jace"}, 2),  # a planeswalker isn't a player
    ({"knight": "jace", "elf": "carol"}, 1),
    ({"knight": "jace"}, 0),
])
def test_702_121a_each_opponent_attacked_with_a_creature(engine: Engine,
                                                          attacks: dict[str, str],
                                                          bonus: int) -> None:
    assert power(engine, attacks, "melee") == 2 + bonus


def test_702_121a_without_melee_no_bonus(engine: Engine) -> None:
    assert power(engine, {"knight": "bob", "elf": "carol"}) == 2


def test_702_121b_each_instance_triggers_separately(engine: Engine) -> None:
    assert power(engine, {"knight": "bob", "elf": "carol"}, "melee", "melee") == 2 + 2 + 2


def test_702_121a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_attackers(table(manual, "melee"),
                                     {"knight": "bob", "elf": "carol"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.amount,
            trigger.rule) == ("melee", "knight", "alice", 2, "702.121a")
    assert manual.resolve_trigger(state).state.objects["knight"].power == 4
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.objects["knight"].power == 2


def test_702_121a_an_opponent_attacked_still_counts_after_the_creature_left_combat(
        manual: Engine) -> None:
    """"Each opponent you attacked ... this combat": the elf attacked carol even if it
    is removed from combat before melee resolves."""
    state = manual.declare_attackers(table(manual, "melee"),
                                     {"knight": "bob", "elf": "carol"}).state
    state = manual.perform(state, RemoveFromCombat("elf")).state
    assert manual.resolve_trigger(state).state.objects["knight"].power == 4


class TestMeleeConformance(KeywordConformance):
    """The conformance kit's invariants hold with melee on generated boards."""

    plugin = melee
    max_examples = 10
