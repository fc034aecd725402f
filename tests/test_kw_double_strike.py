"""Double strike (CR 702.4) and the second combat damage step (510.4).

Each test names the rule it checks. Also here: the property that the
damage keywords resolve a board the same way whatever order their plugins are
called in (the engine calls plugins in name order, so the property renames
them with their position first).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import CombatResult, Engine, GameState, Grant, Permanent, Pump, Revoke
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone.testing.conformance import _unprefixed
from redzone_keywords import (
    deathtouch,
    double_strike,
    first_strike,
    infect,
    lifelink,
    trample,
    wither,
)

FIRST = "first_strike_damage"
REGULAR = "combat_damage"


def damage_by(result: CombatResult, source: str, step: str | None = None) -> list[Any]:
    return [e for e in result.events if e.kind == "damage" and e.source == source
            and (step is None or e.step == step)]


def life(result: CombatResult, player: str) -> int:
    return result.state.players[player].life


def test_702_4b_unblocked_double_striker_deals_damage_in_both_steps(engine: Engine,
                                                                    board: Any) -> None:
    state = board(board.c("duelist", "alice", 3, 3, "double strike"))
    result = engine.resolve(state, {"duelist": "bob"})
    assert [(e.step, e.amount) for e in damage_by(result, "duelist")] == [(FIRST, 3),
                                                                          (REGULAR, 3)]
    assert life(result, "bob") == 14


def test_702_4b_double_striker_deals_first_strike_damage(engine: Engine, board: Any) -> None:
    """It kills a 2/2 blocker before the blocker deals damage; then, blocked
    with no blocker left and no trample, it assigns nothing (510.1c)."""
    state = board(board.c("duelist", "alice", 2, 2, "double strike"), board.c("wall", "bob", 2, 2))
    result = engine.resolve(state, {"duelist": "bob"}, {"wall": "duelist"})
    assert result.state.objects["wall"].zone == "graveyard"
    assert result.state.objects["duelist"].damage == 0
    assert damage_by(result, "wall") == []
    assert damage_by(result, "duelist", REGULAR) == []
    assert life(result, "bob") == 20


def test_702_4b_double_striker_and_regular_creature_in_the_second_step(engine: Engine,
                                                                       board: Any) -> None:
    state = board(board.c("duelist", "alice", 1, 1, "double strike"), board.c("ogre", "bob", 3, 3))
    result = engine.resolve(state, {"duelist": "bob"}, {"ogre": "duelist"})
    assert result.after_steps[FIRST].objects["ogre"].damage == 1
    assert damage_by(result, "ogre", FIRST) == []
    assert [e.amount for e in damage_by(result, "ogre", REGULAR)] == [3]
    assert [e.amount for e in damage_by(result, "duelist", REGULAR)] == [1]
    assert result.state.objects["ogre"].damage == 2
    assert result.state.objects["duelist"].zone == "graveyard"


def test_702_4c_losing_double_strike_in_the_first_step_stops_the_second_hit(
        engine: Engine, board: Any) -> None:
    state = board(board.c("duelist", "alice", 3, 3, "double strike"))
    result = engine.resolve(state, {"duelist": "bob"},
                            actions=[(FIRST, Revoke("duelist", "double strike"))])
    assert damage_by(result, "duelist", REGULAR) == []
    assert life(result, "bob") == 17


def test_702_4d_first_striker_given_double_strike_after_the_first_step_hits_again(
        engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"))
    result = engine.resolve(state, {"knight": "bob"},
                            actions=[(FIRST, Grant("knight", "double strike"))])
    assert [e.step for e in damage_by(result, "knight")] == [FIRST, REGULAR]
    assert life(result, "bob") == 16


def test_702_4d_702_7c_losing_first_strike_and_gaining_double_strike_hits_again(
        engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"))
    result = engine.resolve(state, {"knight": "bob"},
                            actions=[(FIRST, Revoke("knight", "first strike")),
                                     (FIRST, Grant("knight", "double strike"))])
    assert life(result, "bob") == 16


def test_510_4_power_is_read_again_at_the_second_step(engine: Engine, board: Any) -> None:
    state = board(board.c("duelist", "alice", 2, 2, "double strike"))
    result = engine.resolve(state, {"duelist": "bob"}, actions=[(FIRST, Pump("duelist", 3, 0))])
    assert [e.amount for e in damage_by(result, "duelist")] == [2, 5]
    assert life(result, "bob") == 13


def test_510_4_double_strike_gained_after_the_first_step_by_a_regular_creature(
        engine: Engine, board: Any) -> None:
    """A creature that dealt no first-strike damage and gains double strike
    deals damage once, in the second step."""
    state = board(board.c("knight", "alice", 2, 2, "first strike"), board.c("bear", "alice", 3, 3))
    result = engine.resolve(state, {"knight": "bob", "bear": "bob"},
                            actions=[(FIRST, Grant("bear", "double strike"))])
    assert [e.step for e in damage_by(result, "bear")] == [REGULAR]
    assert life(result, "bob") == 15


def test_702_4b_blocking_double_striker(engine: Engine, board: Any) -> None:
    state = board(board.c("ogre", "alice", 3, 5), board.c("guard", "bob", 2, 4, "double strike"))
    result = engine.resolve(state, {"ogre": "bob"}, {"guard": "ogre"})
    assert result.state.objects["ogre"].damage == 4
    assert result.state.objects["guard"].damage == 3
    assert [e.step for e in damage_by(result, "guard")] == [FIRST, REGULAR]


def test_702_4e_multiple_instances_of_double_strike_are_redundant(engine: Engine,
                                                                  board: Any) -> None:
    state = board(board.c("duelist", "alice", 2, 2, "double strike", "double strike",
                          "first strike"))
    result = engine.resolve(state, {"duelist": "bob"})
    assert len(damage_by(result, "duelist")) == 2
    assert life(result, "bob") == 16


def test_510_4_second_step_duties_are_recomputed(engine: Engine, board: Any) -> None:
    """The step API: after the first step, the second lists the double
    striker and the creatures that had neither ability, and not the first
    striker."""
    state = board(board.c("duelist", "alice", 1, 1, "double strike"),
                  board.c("knight", "alice", 1, 1, "first strike"), board.c("bear", "alice", 2, 2),
                  board.c("ogre", "bob", 3, 3))
    state = engine.declare_attackers(state, {"duelist": "bob", "knight": "bob",
                                             "bear": "bob"}).state
    state = engine.declare_blockers(state, {"ogre": "bear"}).state
    step, duties = engine.damage_duties(state)
    assert (step, sorted(d.source for d in duties)) == (FIRST, ["duelist", "knight"])
    state = engine.combat_damage(state).state
    step, duties = engine.damage_duties(state)
    assert (step, sorted(d.source for d in duties)) == (REGULAR, ["bear", "duelist", "ogre"])


# ---------------------------------------------------------------------------
# Property: plugin registration order doesn't change the outcome
# ---------------------------------------------------------------------------

MODULES = (deathtouch, double_strike, first_strike, infect, lifelink, trample, wither)
KEYWORDS = ("deathtouch", "double strike", "first strike", "infect", "lifelink", "trample",
            "wither")
#: The reference order (as listed), the reverse and a handful of shuffles, as
#: positions in MODULES (building an engine costs a plugin scan).
_ORDERS = [tuple(range(len(MODULES))), tuple(reversed(range(len(MODULES))))] + [
    tuple(random.Random(seed).sample(range(len(MODULES)), len(MODULES))) for seed in range(4)]
_ENGINES: dict[tuple[int, ...], Engine] = {}


def _engine(order: tuple[int, ...]) -> Engine:
    """An engine that calls the plugins in ``order``: the engine calls plugins in
    name order whatever the registration order, so each is renamed with its
    position first."""
    if order not in _ENGINES:
        _ENGINES[order] = Engine(discover=False, plugins=[
            PluginInfo(f"{pos:03d}.{MODULES[i].__name__}", MODULES[i])
            for pos, i in enumerate(order)])
    return _ENGINES[order]


@st.composite
def _creature(draw: st.DrawFn, id: str, controller: str) -> Permanent:
    toughness = draw(st.integers(1, 5))
    keywords = draw(st.lists(st.sampled_from(KEYWORDS), max_size=3, unique=True))
    return _engine(_ORDERS[0]).creature(
        id, controller, draw(st.integers(0, 5)), toughness, *keywords,
        damage=draw(st.integers(0, toughness - 1)))


@st.composite
def _boards(draw: st.DrawFn) -> tuple[GameState, dict[str, str], dict[str, str]]:
    n_att = draw(st.integers(1, 3))
    n_blk = draw(st.integers(0, 3))
    perms = [draw(_creature(f"a{i}", "alice")) for i in range(n_att)]
    blocks = {}
    for i in range(n_blk):
        perms.append(draw(_creature(f"b{i}", "bob")))
        target = draw(st.integers(-1, n_att - 1))
        if target >= 0:
            blocks[f"b{i}"] = f"a{target}"
    state = _engine(_ORDERS[0]).game(["alice", "bob"], perms)
    return state, {f"a{i}": "bob" for i in range(n_att)}, blocks


@settings(max_examples=60, deadline=None)
@given(_boards(), st.sampled_from(_ORDERS[1:]))
def test_outcome_does_not_depend_on_plugin_registration_order(
        case: tuple[GameState, dict[str, str], dict[str, str]], order: tuple[int, ...]) -> None:
    """The design's order-independence property, for the seven damage
    keywords together: an engine calling their plugins in another order (the
    reverse or a shuffle) resolves the same board to the same state, the same
    events and the same steps as one calling them as listed."""
    state, attacks, blocks = case
    a = _engine(_ORDERS[0]).resolve(state, attacks, blocks)
    b = _engine(order).resolve(state, attacks, blocks)
    assert _unprefixed(b.state) == _unprefixed(a.state)
    assert b.events == a.events
    assert b.steps == a.steps


class TestDoubleStrikeConformance(KeywordConformance):
    """The conformance kit's invariants hold with double strike on generated boards
    (mixed with every other loaded keyword)."""

    plugin = double_strike
    max_examples = 15
