"""Toxic (CR 702.164, 120.3g): combat damage dealt to a player by a creature with toxic
also gives that player poison counters equal to the creature's total toxic value, the
sum of the N of all its toxic abilities (702.164b-c)."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    CombatResult,
    DealDamage,
    Engine,
    Event,
    Grant,
    Permanent,
    Player,
    Prevent,
)
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone_keywords import double_strike, first_strike, infect, lifelink, toxic, trample


def poison_events(events: tuple[Event, ...]) -> list[tuple[str | None, str | None, int | None,
                                                           str]]:
    return [(e.source, e.player, e.amount, e.rule) for e in events if e.kind == "poison"]


def test_702_164c_combat_damage_to_a_player_also_gives_poison_counters(board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "toxic 1", name="Blightbelly Rat"))
    result = board.engine.resolve(state, {"rat": "bob"})
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (18, 1)  # "in addition to the damage's other results"
    assert poison_events(result.events) == [("rat", "bob", 1, "702.164c")]


def test_702_164c_the_counters_are_the_toxic_value_not_the_damage(board: Any) -> None:
    state = board(board.c("wurm", "alice", 5, 5, "toxic 2"))
    result = board.engine.resolve(state, {"wurm": "bob"})
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (15, 2)


def test_702_164b_example_toxic_2_and_a_gained_toxic_1_give_3(board: Any) -> None:
    """702.164b example: "If a creature with toxic 2 gains toxic 1 due to another effect,
    its total toxic value is 3." It gives 3 poison counters with its combat damage."""
    state = board(board.c("drone", "alice", 1, 1, "toxic 2"))
    result = board.engine.resolve(state, {"drone": "bob"},
                                  actions=[("declare_blockers", Grant("drone", "toxic 1"))])
    assert result.state.players["bob"].poison == 3
    assert poison_events(result.events) == [("drone", "bob", 3, "702.164c")]


def test_702_164b_printed_instances_add_up_too(board: Any) -> None:
    state = board(board.c("drone", "alice", 1, 1, "toxic 1", "toxic 1", "toxic 3"))
    assert board.engine.resolve(state, {"drone": "bob"}).state.players["bob"].poison == 5


def test_702_164c_combat_damage_to_a_creature_gives_no_poison(board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "toxic 1"), board.c("bear", "bob", 2, 2))
    result = board.engine.resolve(state, {"rat": "bob"}, {"bear": "rat"})
    assert result.state.players["bob"].poison == 0
    assert poison_events(result.events) == []


def test_702_164c_a_blocking_creature_with_toxic_gives_none_to_the_attacker(
        board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("rat", "bob", 2, 2, "toxic 2"))
    result = board.engine.resolve(state, {"bear": "bob"}, {"rat": "bear"})
    assert result.state.players["alice"].poison == 0


def test_702_164c_combat_damage_to_a_planeswalker_gives_no_poison(board: Any) -> None:
    walker = Permanent(id="jace", controller="bob", types=["planeswalker"],
                       counters={"loyalty": 5})
    state = board(board.c("rat", "alice", 2, 2, "toxic 1"), walker)
    result = board.engine.resolve(state, {"rat": "jace"})
    assert result.state.players["bob"].poison == 0
    assert result.state.objects["jace"].loyalty == 3


def test_702_164c_noncombat_damage_gives_no_poison(board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "toxic 2"))
    out = board.engine.perform(state, DealDamage("rat", "bob", 2))
    assert out.state.players["bob"].life == 18
    assert out.state.players["bob"].poison == 0


def test_702_164c_prevented_combat_damage_is_not_dealt_and_gives_no_poison(
        board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "toxic 2"))
    result = board.engine.resolve(state, {"rat": "bob"},
                                  actions=[("declare_blockers", Prevent(target="bob"))])
    assert result.state.players["bob"].poison == 0
    # Damage partly prevented is still dealt: the whole toxic value applies.
    result = board.engine.resolve(state, {"rat": "bob"},
                                  actions=[("declare_blockers", Prevent(target="bob", amount=1))])
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (19, 2)


def test_702_164c_trample_damage_to_the_player_gives_poison(board: Any) -> None:
    state = board(board.c("wurm", "alice", 4, 4, "toxic 1", "trample"),
                  board.c("bear", "bob", 2, 2))
    result = board.engine.resolve(state, {"wurm": "bob"}, {"bear": "wurm"})
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (18, 1)


def test_702_164c_each_combat_damage_step_gives_poison_double_strike(board: Any) -> None:
    """702.164c applies each time the creature deals combat damage to a player: a creature
    with double strike deals it in both combat damage steps (702.4b)."""
    state = board(board.c("knight", "alice", 1, 1, "toxic 1", "double strike"))
    result = board.engine.resolve(state, {"knight": "bob"})
    assert [p[2] for p in poison_events(result.events)] == [1, 1]
    assert result.state.players["bob"].poison == 2


def test_702_164c_120_3b_toxic_adds_to_the_poison_counters_of_infect(board: Any) -> None:
    """Infect's damage gives poison counters instead of life loss (120.3b); toxic's come in
    addition (120.3g)."""
    state = board(board.c("phyrexian", "alice", 2, 2, "infect", "toxic 1"))
    result = board.engine.resolve(state, {"phyrexian": "bob"})
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (20, 3)
    assert sorted(p[3] for p in poison_events(result.events)) == ["702.164c", "702.90b"]


def test_704_5c_ten_poison_counters_from_toxic_lose_the_game(board: Any) -> None:
    state = board(board.c("rat", "alice", 1, 1, "toxic 2"),
                  players=["alice", Player("bob", poison=8)])
    result = board.engine.resolve(state, {"rat": "bob"})
    bob = result.state.players["bob"]
    assert (bob.poison, bob.lost, bob.loss_rule) == (10, True, "704.5c")


def test_702_164c_lifelink_and_toxic_are_separate_results(board: Any) -> None:
    state = board(board.c("rat", "alice", 2, 2, "toxic 1", "lifelink"))
    result = board.engine.resolve(state, {"rat": "bob"})
    assert result.state.players["alice"].life == 22
    assert result.state.players["bob"].poison == 1


def test_702_164c_a_creature_that_lost_toxic_gives_none(board: Any) -> None:
    from redzone import Revoke

    state = board(board.c("rat", "alice", 2, 2, "toxic 1"))
    result = board.engine.resolve(state, {"rat": "bob"},
                                  actions=[("declare_blockers", Revoke("rat", "toxic 1"))])
    assert result.state.players["bob"].poison == 0


@pytest.mark.parametrize("text", ["toxic 1", "toxic 2", "Toxic 10"])
def test_702_164a_toxic_is_written_toxic_n(engine: Engine, text: str) -> None:
    keyword = engine.keyword(text)
    assert (keyword.name, keyword.number) == ("toxic", int(text.split()[1]))


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (double_strike, first_strike, infect, lifelink, toxic, trample)


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


def combat(engine: Engine, power: int, values: list[int], extra: list[str]) -> CombatResult:
    state = engine.game(["alice", "bob"], [engine.creature(
        "a", "alice", power, 3, *(f"toxic {n}" for n in values), *extra)])
    return engine.resolve(state, {"a": "bob"})


@given(st.integers(0, 4), st.lists(st.integers(1, 3), max_size=3),
       st.lists(st.sampled_from(("infect", "lifelink", "double strike")), unique=True))
@settings(max_examples=40, deadline=None)
def test_702_164b_c_poison_is_the_total_toxic_value_per_hit_and_order_does_not_matter(
        power: int, values: list[int], extra: list[str]) -> None:
    """702.164b-c: an unblocked creature with power > 0 gives, with each combat damage it
    deals to the player, poison counters equal to the sum of its toxic values, on top of
    the damage's other results (life loss, or infect's poison counters: 120.3a-b); the
    whole outcome is the same whatever the plugins' call order (design)."""
    results = [combat(engine, power, values, extra) for engine in engines()]
    assert (results[0].state, results[0].events) == (results[1].state, results[1].events)
    poison, life = 0, 20
    for _hit in range(0 if power <= 0 else (2 if "double strike" in extra else 1)):
        poison += sum(values) + (power if "infect" in extra else 0)
        life -= 0 if "infect" in extra else power
        if poison >= 10 or life <= 0:
            break  # 704.5a, 704.5c: bob lost after the first combat damage step
    bob = results[0].state.players["bob"]
    assert (bob.poison, bob.life) == (poison, life)


class TestToxicConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, events account for every
    change, order independence), with the damage keywords it combines with."""

    plugin = toxic
    builtins = False
    extra_plugins = (double_strike, first_strike, infect, lifelink, trample)
    max_examples = 25
