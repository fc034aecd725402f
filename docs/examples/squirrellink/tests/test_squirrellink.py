"""Tests of the Squirrellink plugin, written with redzone's test kit.

``redzone_engine`` and ``redzone_board`` are fixtures of redzone's pytest
plugin; the engine discovers this package through its entry point, as it
would in a user's program.
"""

from __future__ import annotations

import redzone_squirrellink
from redzone import DealDamage, Effect, Engine, GameState, Permanent
from redzone.testing import Board, KeywordConformance


class TestSquirrellinkConformance(KeywordConformance):
    """The invariants every keyword plugin keeps, on generated boards."""

    plugin = redzone_squirrellink


def squirrels(state: GameState, player: str) -> list[Permanent]:
    return [p for p in state.battlefield if p.token and p.controller == player
            and p.name == "Squirrel"]


def test_combat_damage_creates_that_many_squirrels(redzone_engine: Engine,
                                                   redzone_board: Board) -> None:
    """Squirrellink: 3 combat damage to the player creates three 1/1 green Squirrels."""
    b = redzone_board
    state = b(b.c("earl", "alice", 3, 3, "squirrellink"))
    result = redzone_engine.resolve(state, {"earl": "bob"})
    made = squirrels(result.state, "alice")
    assert [p.id for p in made] == ["earl.squirrellink.1", "earl.squirrellink.2",
                                   "earl.squirrellink.3"]
    assert all((p.power, p.toughness, p.colors) == (1, 1, frozenset({"green"})) for p in made)
    assert result.state.players["bob"].life == 17


def test_damage_beyond_toughness_counts_too(redzone_engine: Engine, redzone_board: Board) -> None:
    """All the damage dealt counts, as for lifelink (702.15b): 5 damage to a 2/2 makes 5."""
    b = redzone_board
    state = b(b.c("earl", "alice", 5, 5, "squirrellink"), b.c("bear", "bob", 2, 2))
    result = redzone_engine.resolve(state, {"earl": "bob"}, {"bear": "earl"})
    assert len(squirrels(result.state, "alice")) == 5


def test_prevented_damage_creates_nothing(redzone_engine: Engine, redzone_board: Board) -> None:
    """Prevented damage is not dealt (615), so it has no results (120.3)."""
    b = redzone_board
    state = b(b.c("earl", "alice", 3, 3, "squirrellink"),
              effects=[Effect("prevent_all_combat_damage")])
    result = redzone_engine.resolve(state, {"earl": "bob"})
    assert squirrels(result.state, "alice") == []


def test_noncombat_damage_creates_squirrels_for_the_sources_controller(
        redzone_engine: Engine, redzone_board: Board) -> None:
    """Noncombat damage goes through the same pipeline (120.2b); the tokens are
    created under the source's controller's control (111.2)."""
    b = redzone_board
    state = b(b.c("earl", "bob", 1, 1, "squirrellink"), b.c("hawk", "alice", 1, 1))
    out = redzone_engine.perform(state, DealDamage("earl", "hawk", 1))
    assert [p.controller for p in squirrels(out.state, "bob")] == ["bob"]
