"""First strike (CR 702.7) and the first combat damage step (510.4).

Each test names the rule it checks. The first combat damage step exists only
if an attacking or blocking creature has first strike or double strike as the
combat damage step begins (510.4, 702.7b); who deals damage in the second step
is decided from who dealt damage in the first, not from current keywords
(702.7c).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    CombatResult,
    Engine,
    GameState,
    Grant,
    LeaveBattlefield,
    Prevent,
    Pump,
    Revoke,
)
from redzone.testing import KeywordConformance
from redzone_keywords import first_strike

FIRST = "first_strike_damage"
REGULAR = "combat_damage"


def damage_by(result: CombatResult, source: str, step: str | None = None) -> list[Any]:
    """The combat damage events ``source`` dealt (in ``step`` if given)."""
    return [e for e in result.events if e.kind == "damage" and e.source == source
            and (step is None or e.step == step)]


def zone(result: CombatResult, obj: str) -> str:
    return result.state.objects[obj].zone


def life(result: CombatResult, player: str) -> int:
    return result.state.players[player].life


# ---------------------------------------------------------------------------
# 510.4 / 702.7b: whether there is a first combat damage step
# ---------------------------------------------------------------------------


def test_510_4_no_first_strike_step_without_first_or_double_strike(engine: Engine,
                                                                   board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 2, 2))
    result = engine.resolve(state, {"bear": "bob"}, {"wall": "bear"})
    assert FIRST not in result.steps
    assert zone(result, "bear") == zone(result, "wall") == "graveyard"


def test_510_4_first_strike_step_when_an_attacker_has_first_strike(engine: Engine,
                                                                  board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"), board.c("wall", "bob", 2, 2))
    assert engine.next_step(engine.declare_blockers(
        engine.declare_attackers(state, {"knight": "bob"}).state, {"wall": "knight"}
    ).state) == FIRST
    result = engine.resolve(state, {"knight": "bob"}, {"wall": "knight"})
    assert result.steps == ("beginning_of_combat", "declare_attackers", "declare_blockers",
                            FIRST, REGULAR, "end_of_combat")


def test_510_4_first_strike_on_a_creature_not_in_combat_makes_no_step(engine: Engine,
                                                                     board: Any) -> None:
    """Only attacking and blocking creatures count (510.4)."""
    state = board(board.c("bear", "alice", 2, 2), board.c("knight", "alice", 2, 2, "first strike"),
                  board.c("wall", "bob", 2, 2), board.c("guard", "bob", 1, 1, "first strike"))
    result = engine.resolve(state, {"bear": "bob"}, {"wall": "bear"})
    assert FIRST not in result.steps
    assert zone(result, "bear") == zone(result, "wall") == "graveyard"


def test_702_7b_first_striking_attacker_kills_blocker_before_it_deals_damage(
        engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"), board.c("wall", "bob", 2, 2))
    result = engine.resolve(state, {"knight": "bob"}, {"wall": "knight"})
    after_first = result.after_steps[FIRST]
    assert after_first.objects["wall"].zone == "graveyard"
    assert after_first.objects["knight"].damage == 0
    assert zone(result, "knight") == "battlefield"
    assert result.state.objects["knight"].damage == 0
    assert damage_by(result, "wall") == []


def test_702_7b_first_striking_blocker_kills_attacker_before_it_deals_damage(
        engine: Engine, board: Any) -> None:
    state = board(board.c("bear", "alice", 3, 2), board.c("guard", "bob", 2, 2, "first strike"))
    result = engine.resolve(state, {"bear": "bob"}, {"guard": "bear"})
    assert zone(result, "bear") == "graveyard"
    assert zone(result, "guard") == "battlefield"
    assert result.state.objects["guard"].damage == 0


def test_702_7b_only_first_strikers_deal_damage_in_the_first_step(engine: Engine,
                                                                  board: Any) -> None:
    """A 1/1 first striker blocked by a 3/3: 1 damage in the first step, the
    3/3's damage only in the second; the first striker doesn't hit twice."""
    state = board(board.c("knight", "alice", 1, 1, "first strike"), board.c("ogre", "bob", 3, 3))
    result = engine.resolve(state, {"knight": "bob"}, {"ogre": "knight"})
    assert [(e.source, e.amount) for e in damage_by(result, "knight")] == [("knight", 1)]
    assert damage_by(result, "knight", FIRST) == damage_by(result, "knight")
    assert damage_by(result, "ogre", FIRST) == []
    assert len(damage_by(result, "ogre", REGULAR)) == 1
    assert result.after_steps[FIRST].objects["ogre"].damage == 1
    assert zone(result, "knight") == "graveyard"
    assert result.state.objects["ogre"].damage == 1


def test_510_4_step_api_lists_only_first_strikers_first(engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"), board.c("bear", "alice", 2, 2),
                  board.c("ogre", "bob", 3, 3))
    state = engine.declare_attackers(state, {"knight": "bob", "bear": "bob"}).state
    state = engine.declare_blockers(state, {"ogre": "bear"}).state
    step, duties = engine.damage_duties(state)
    assert step == FIRST
    assert [d.source for d in duties] == ["knight"]
    state = engine.combat_damage(state).state
    assert state.step == FIRST
    step, duties = engine.damage_duties(state)
    assert step == REGULAR
    assert sorted(d.source for d in duties) == ["bear", "ogre"]


def test_702_7b_first_strike_granted_before_the_damage_step_counts(engine: Engine,
                                                                   board: Any) -> None:
    """What matters is first strike "as the combat damage step begins": a
    creature given first strike during declare blockers strikes first."""
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 2, 2))
    result = engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                            actions=[("declare_blockers", Grant("bear", "first strike"))])
    assert FIRST in result.steps
    assert zone(result, "bear") == "battlefield"
    assert zone(result, "wall") == "graveyard"


def test_510_4_first_striker_gone_before_damage_means_no_first_step(engine: Engine,
                                                                    board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4),
                  board.c("guard", "bob", 1, 1, "first strike"))
    result = engine.resolve(state, {"bear": "bob"}, {"wall": "bear", "guard": "bear"},
                            actions=[("declare_blockers", LeaveBattlefield("guard"))])
    assert FIRST not in result.steps
    assert result.state.objects["wall"].damage == 2


# ---------------------------------------------------------------------------
# 702.7c: changes after the first step
# ---------------------------------------------------------------------------


def test_702_7c_gaining_first_strike_after_the_first_step_still_deals_regular_damage(
        engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"), board.c("bear", "alice", 3, 3))
    result = engine.resolve(state, {"knight": "bob", "bear": "bob"},
                            actions=[(FIRST, Grant("bear", "first strike"))])
    assert [e.amount for e in damage_by(result, "bear", REGULAR)] == [3]
    assert life(result, "bob") == 20 - 2 - 3


def test_702_7c_losing_first_strike_after_the_first_step_gives_no_second_hit(
        engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"))
    result = engine.resolve(state, {"knight": "bob"},
                            actions=[(FIRST, Revoke("knight", "first strike"))])
    assert damage_by(result, "knight", REGULAR) == []
    assert life(result, "bob") == 18


def test_702_7c_first_strike_damage_prevented_still_no_regular_damage(engine: Engine,
                                                                      board: Any) -> None:
    """The first striker dealt its damage in the first step even though all of
    it was prevented; it doesn't assign again (the shield, used up, would let
    a second hit through)."""
    state = board(board.c("knight", "alice", 3, 3, "first strike"))
    result = engine.resolve(state, {"knight": "bob"},
                            actions=[("declare_blockers", Prevent(source="knight", amount=3))])
    assert life(result, "bob") == 20
    assert [e.amount for e in result.events if e.kind == "prevented"] == [3]
    assert not any(e.kind == "assign" and e.step == REGULAR for e in result.events)


def test_510_4_zero_power_first_striker_pumped_in_the_first_step_deals_nothing(
        engine: Engine, board: Any) -> None:
    """A 0-power first striker makes the first step and assigns nothing in it
    (510.1a); pumped afterwards it still doesn't deal damage in the second,
    because it had first strike as the first step began."""
    state = board(board.c("spirit", "alice", 0, 2, "first strike"), board.c("bear", "alice", 2, 2))
    result = engine.resolve(state, {"spirit": "bob", "bear": "bob"},
                            actions=[(FIRST, Pump("spirit", 3, 0))])
    assert FIRST in result.steps
    assert damage_by(result, "spirit") == []
    assert life(result, "bob") == 18


def test_702_7b_first_striker_kills_deathtouch_blocker_before_it_deals_damage(
        engine: Engine, board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike"),
                  board.c("asp", "bob", 1, 1, "deathtouch"))
    result = engine.resolve(state, {"knight": "bob"}, {"asp": "knight"})
    assert zone(result, "asp") == "graveyard"
    assert zone(result, "knight") == "battlefield"
    assert damage_by(result, "asp") == []
    # Without first strike the deathtouch creature would have killed it.
    plain = board(board.c("knight", "alice", 2, 2), board.c("asp", "bob", 1, 1, "deathtouch"))
    result = engine.resolve(plain, {"knight": "bob"}, {"asp": "knight"})
    assert zone(result, "knight") == "graveyard"


def test_702_7d_multiple_instances_of_first_strike_are_redundant(engine: Engine,
                                                                 board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "first strike", "first strike"))
    result = engine.resolve(state, {"knight": "bob"})
    assert life(result, "bob") == 18
    assert len(damage_by(result, "knight")) == 1


# ---------------------------------------------------------------------------
# Property: each creature deals combat damage in at most one step
# ---------------------------------------------------------------------------

_ENGINE = Engine(discover=False, plugins=[first_strike])


@st.composite
def _boards(draw: st.DrawFn) -> tuple[GameState, dict[str, str], dict[str, str]]:
    n_att = draw(st.integers(1, 3))
    n_blk = draw(st.integers(0, 3))
    perms = []
    for i in range(n_att):
        kws = ("first strike",) if draw(st.booleans()) else ()
        perms.append(_ENGINE.creature(f"a{i}", "alice", draw(st.integers(0, 4)),
                                      draw(st.integers(1, 4)), *kws))
    blocks = {}
    for i in range(n_blk):
        kws = ("first strike",) if draw(st.booleans()) else ()
        perms.append(_ENGINE.creature(f"b{i}", "bob", draw(st.integers(0, 4)),
                                      draw(st.integers(1, 4)), *kws))
        target = draw(st.integers(-1, n_att - 1))
        if target >= 0:
            blocks[f"b{i}"] = f"a{target}"
    return (_ENGINE.game(["alice", "bob"], perms), {f"a{i}": "bob" for i in range(n_att)},
            blocks)


@settings(max_examples=60, deadline=None)
@given(_boards())
def test_510_4_702_7b_each_creature_deals_combat_damage_in_one_step_only(
        case: tuple[GameState, dict[str, str], dict[str, str]]) -> None:
    """Whatever the board: first strikers deal damage only in the first step,
    the others only in the second, and nobody in both (510.4)."""
    state, attacks, blocks = case
    result = _ENGINE.resolve(state, attacks, blocks)
    combatants = set(attacks) | set(blocks)
    has_fs = {p.id for p in state.objects.values()
              if p.id in combatants and p.has("first strike")}
    assert (FIRST in result.steps) == bool(has_fs)
    steps_of: dict[str, set[str]] = {}
    for e in result.events:
        if e.kind == "assign" and e.source is not None:
            steps_of.setdefault(e.source, set()).add(e.step)
    for source, steps in steps_of.items():
        assert steps == ({FIRST} if source in has_fs else {REGULAR})


class TestFirstStrikeConformance(KeywordConformance):
    """The conformance kit's invariants hold with first strike on generated boards
    (mixed with every other loaded keyword)."""

    plugin = first_strike
    max_examples = 15
