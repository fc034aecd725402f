"""Tests of the Last strike plugin, written with redzone's test kit.

``redzone_engine`` and ``redzone_board`` are fixtures of redzone's pytest
plugin; the engine discovers this package through its entry point, as it
would in a user's program. Last strike is made up: each test names the rule
of the real game it mirrors (510.4 and 702.7 for first strike's step).
"""

from __future__ import annotations

import redzone_laststrike
from redzone import Engine, Event, Grant, Revoke
from redzone.testing import KeywordConformance
from redzone.testing.boards import Board

STEPS = ("beginning_of_combat", "declare_attackers", "declare_blockers")


class TestLaststrikeConformance(KeywordConformance):
    """The invariants every keyword plugin keeps, on generated boards."""

    plugin = redzone_laststrike


def damage(events: tuple[Event, ...], step: str) -> list[tuple[str | None, str | None, int]]:
    return [(e.source, e.target, e.amount or 0) for e in events
            if e.kind == "damage" and e.step == step]


def test_the_step_comes_after_the_regular_one(redzone_engine: Engine,
                                              redzone_board: Board) -> None:
    """As 510.4 adds a step for first strike: a blocker without last strike
    deals its damage in the regular step, the last striker in its own step,
    after it; its damage is combat damage (510.2)."""
    b = redzone_board
    state = b(b.c("monk", "alice", 3, 3, "last strike"), b.c("bear", "bob", 2, 2))
    result = redzone_engine.resolve(state, {"monk": "bob"}, {"bear": "monk"})
    assert result.steps == (*STEPS, "combat_damage", "last_strike_damage", "end_of_combat")
    assert damage(result.events, "combat_damage") == [("bear", "monk", 2)]
    assert damage(result.events, "last_strike_damage") == [("monk", "bear", 3)]
    assert all(e.combat for e in result.events if e.kind == "damage")
    assert set(result.after_steps) == {"combat_damage", "last_strike_damage"}
    assert result.state.objects["bear"].zone == "graveyard"


def test_a_last_striker_killed_first_deals_no_damage(redzone_engine: Engine,
                                                     redzone_board: Board) -> None:
    """704.3 between steps (510.4): the blocker's damage kills the last
    striker in the regular step; no creature with last strike remains, so
    the step doesn't happen."""
    b = redzone_board
    state = b(b.c("monk", "alice", 3, 3, "last strike"), b.c("ogre", "bob", 3, 3))
    result = redzone_engine.resolve(state, {"monk": "bob"}, {"ogre": "monk"})
    assert result.steps == (*STEPS, "combat_damage", "end_of_combat")
    assert result.state.objects["monk"].zone == "graveyard"
    assert result.state.objects["ogre"].damage == 0


def test_lifelink_applies_in_the_last_step(redzone_engine: Engine,
                                           redzone_board: Board) -> None:
    """702.15b: the last-strike step's damage is combat damage, so lifelink
    gains life as it is dealt, in that step."""
    b = redzone_board
    state = b(b.c("monk", "alice", 3, 3, "last strike", "lifelink"))
    result = redzone_engine.resolve(state, {"monk": "bob"})
    gains = [e for e in result.events if e.kind == "life_gain"]
    assert [(e.step, e.player, e.amount) for e in gains] == [
        ("last_strike_damage", "alice", 3)]
    assert result.after_steps["combat_damage"].players["bob"].life == 20
    assert (result.state.players["alice"].life, result.state.players["bob"].life) == (23, 17)


def test_toxic_applies_in_the_last_step(redzone_engine: Engine, redzone_board: Board) -> None:
    """702.164c: combat damage to a player from a creature with toxic 2 gives
    that player 2 poison counters: in the last-strike step too."""
    b = redzone_board
    state = b(b.c("monk", "alice", 1, 1, "last strike", "toxic 2"))
    result = redzone_engine.resolve(state, {"monk": "bob"})
    poison = [(e.step, e.player, e.amount) for e in result.events if e.kind == "poison"]
    assert poison == [("last_strike_damage", "bob", 2)]
    assert result.state.players["bob"].poison == 2


def test_three_steps_with_first_strike(redzone_engine: Engine, redzone_board: Board) -> None:
    """510.4 with a third step: first strike's step, the regular one, then
    last strike's, each with only its own creatures."""
    b = redzone_board
    state = b(b.c("knight", "alice", 1, 1, "first strike"), b.c("orc", "alice", 2, 2),
              b.c("monk", "alice", 3, 3, "last strike"))
    result = redzone_engine.resolve(state, {"knight": "bob", "orc": "bob", "monk": "bob"})
    assert result.steps == (*STEPS, "first_strike_damage", "combat_damage",
                            "last_strike_damage", "end_of_combat")
    assert [damage(result.events, s) for s in ("first_strike_damage", "combat_damage",
                                               "last_strike_damage")] == [
        [("knight", "bob", 1)], [("orc", "bob", 2)], [("monk", "bob", 3)]]
    assert result.state.players["bob"].life == 14


def test_gaining_it_after_the_regular_step_deals_no_damage_twice(
        redzone_engine: Engine, redzone_board: Board) -> None:
    """As 702.7c: a creature that dealt damage in the regular step and then
    gains last strike doesn't deal damage again; with no other last
    striker, no last-strike step happens."""
    b = redzone_board
    state = b(b.c("orc", "alice", 2, 2))
    result = redzone_engine.resolve(state, {"orc": "bob"},
                                    actions=[("combat_damage", Grant("orc", "last strike"))])
    assert "last_strike_damage" not in result.steps
    assert result.state.players["bob"].life == 18


def test_losing_it_after_the_regular_step_deals_no_damage(
        redzone_engine: Engine, redzone_board: Board) -> None:
    """As 702.7c: a creature that had last strike as the regular step began
    dealt no damage in it; losing last strike afterwards doesn't give it a
    step to deal damage in."""
    b = redzone_board
    state = b(b.c("monk", "alice", 3, 3, "last strike"))
    result = redzone_engine.resolve(state, {"monk": "bob"},
                                    actions=[("combat_damage", Revoke("monk", "last strike"))])
    assert result.steps == (*STEPS, "combat_damage", "end_of_combat")
    assert result.state.players["bob"].life == 20
