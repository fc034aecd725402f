"""Trample (CR 702.19).

Each test names the rule it checks. Lethal damage for trample counts damage
already marked and damage other creatures assign in the same step, and
ignores prevention and other effects on the damage actually dealt (702.19b);
deathtouch makes 1 lethal (702.2c).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    CombatResult,
    Effect,
    Engine,
    GameState,
    IllegalAssignmentError,
    LeaveBattlefield,
    Permanent,
    Prevent,
)
from redzone.testing import KeywordConformance
from redzone_keywords import deathtouch, trample

FIRST = "first_strike_damage"
REGULAR = "combat_damage"


def life(result: CombatResult, player: str) -> int:
    return result.state.players[player].life


def zone(result: CombatResult, obj: str) -> str:
    return result.state.objects[obj].zone


def blocked(engine: Engine, state: GameState, attacks: dict[str, str],
            blocks: dict[str, Any]) -> GameState:
    """The state after declaring attackers and blockers."""
    state = engine.declare_attackers(state, attacks).state
    return engine.declare_blockers(state, blocks).state


def rules_of(engine: Engine, state: GameState, assign: dict[str, dict[str, int]]) -> list[str]:
    return [v.rule for v in engine.assignment_violations(state, assign)]


def planeswalker(id: str, controller: str, loyalty: int) -> Permanent:
    return Permanent(id=id, controller=controller, types=["planeswalker"],
                     counters={"loyalty": loyalty})


# ---------------------------------------------------------------------------
# 702.19b: lethal to every blocker first, then the excess
# ---------------------------------------------------------------------------


def test_702_19b_excess_damage_goes_to_the_defending_player(engine: Engine,
                                                             board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6, "trample"), board.c("bear", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm"})
    assert engine.default_assignment(st_)["wurm"] == {"bear": 2, "bob": 4}
    result = engine.resolve(state, {"wurm": "bob"}, {"bear": "wurm"})
    assert life(result, "bob") == 16
    assert zone(result, "bear") == "graveyard"


def test_702_19b_without_trample_no_damage_reaches_the_player(engine: Engine,
                                                              board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6), board.c("bear", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"bear": 2, "bob": 4}}) == ["510.1c"]
    assert life(engine.resolve(state, {"wurm": "bob"}, {"bear": "wurm"}), "bob") == 20


def test_702_19b_player_damage_before_lethal_to_the_blocker_is_illegal(engine: Engine,
                                                                       board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6, "trample"), board.c("bear", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"bear": 1, "bob": 5}}) == ["702.19b"]
    assert rules_of(engine, st_, {"wurm": {"bob": 6}}) == ["702.19b"]
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(st_, {"wurm": {"bear": 1, "bob": 5}})
    assert info.value.rule == "702.19b"
    assert "bear" in info.value.objects


def test_702_19b_more_than_lethal_to_blockers_and_none_to_the_player_is_legal(
        engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6, "trample"), board.c("bear", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"bear": 4, "bob": 2}}) == []
    assert rules_of(engine, st_, {"wurm": {"bear": 6}}) == []


def test_702_19b_need_not_assign_lethal_to_all_blockers_but_then_none_to_the_player(
        engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 3, 3, "trample"), board.c("bear", "bob", 2, 2),
                  board.c("cub", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm", "cub": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"bear": 2, "cub": 1}}) == []
    assert rules_of(engine, st_, {"wurm": {"bear": 2, "bob": 1}}) == ["702.19b"]


def test_702_19b_starving_one_blocker_and_overfilling_another_is_illegal(
        engine: Engine, board: Any) -> None:
    """5 damage to blockers needing 2 + 2 is enough in total, but one of them
    is not assigned lethal damage, so none may go to the player."""
    state = board(board.c("wurm", "alice", 6, 6, "trample"), board.c("bear", "bob", 2, 2),
                  board.c("cub", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm", "cub": "wurm"})
    violations = engine.assignment_violations(st_, {"wurm": {"bear": 4, "cub": 1, "bob": 1}})
    assert [v.rule for v in violations] == ["702.19b"]
    assert "cub" in violations[0].objects and "bear" not in violations[0].objects
    assert rules_of(engine, st_, {"wurm": {"bear": 2, "cub": 2, "bob": 2}}) == []


def test_702_19b_lethal_counts_damage_already_marked(engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6, "trample"),
                  board.c("ogre", "bob", 3, 3, damage=2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"ogre": "wurm"})
    assert engine.lethal_damage(st_, "wurm", "ogre") == 1
    assert rules_of(engine, st_, {"wurm": {"ogre": 1, "bob": 5}}) == []
    assert rules_of(engine, st_, {"wurm": {"bob": 6}}) == ["702.19b"]
    result = engine.resolve(state, {"wurm": "bob"}, {"ogre": "wurm"},
                            assign={"wurm": {"ogre": 1, "bob": 5}})
    assert life(result, "bob") == 15
    assert zone(result, "ogre") == "graveyard"


def test_702_19b_example_lethal_counts_damage_other_creatures_assign(engine: Engine,
                                                                     board: Any) -> None:
    """702.19b's first example: a 2/2 that can block an additional creature
    blocks a 1/1 and a 3/3 with trample; 1 from each to the blocker and 2 from
    the trampler to the player is legal."""
    state = board(board.c("elf", "alice", 1, 1), board.c("boar", "alice", 3, 3, "trample"),
                  board.c("brigade", "bob", 2, 2, can_block_additional=1))
    st_ = blocked(engine, state, {"elf": "bob", "boar": "bob"}, {"brigade": ["elf", "boar"]})
    legal = {"elf": {"brigade": 1}, "boar": {"brigade": 1, "bob": 2}}
    assert rules_of(engine, st_, legal) == []
    # With the 1/1's damage, lethal from the trampler is 1, not 0 and not 2.
    assert rules_of(engine, st_, {"elf": {"brigade": 1}, "boar": {"bob": 3}}) == ["702.19b"]
    result = engine.resolve(state, {"elf": "bob", "boar": "bob"}, {"brigade": ["elf", "boar"]},
                            assign=legal)
    assert life(result, "bob") == 18
    assert zone(result, "brigade") == "graveyard"


def test_702_19b_example_protection_shield_doesnt_lower_lethal(engine: Engine,
                                                               board: Any) -> None:
    """702.19b's second example, with a prevention shield standing in for
    protection from green: the 6/6 must still assign 2 to the 2/2."""
    state = board(board.c("wurm", "alice", 6, 6, "trample", colors=["green"]),
                  board.c("knight", "bob", 2, 2))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"knight": "wurm"})
    st_ = engine.perform(st_, Prevent(target="knight")).state
    assert engine.lethal_damage(st_, "wurm", "knight") == 2
    assert rules_of(engine, st_, {"wurm": {"bob": 6}}) == ["702.19b"]
    assert rules_of(engine, st_, {"wurm": {"knight": 1, "bob": 5}}) == ["702.19b"]
    out = engine.combat_damage(st_, {"wurm": {"knight": 2, "bob": 4}})
    assert out.state.players["bob"].life == 16
    assert out.state.objects["knight"].zone == "battlefield"
    assert out.state.objects["knight"].damage == 0


def test_702_19b_example_protection_from_green(engine: Engine, board: Any) -> None:
    """702.19b's second example, with the protection plugin: 6/6 green
    trampler, 2/2 with protection from green: at least 2 to the blocker (its
    protection doesn't lower lethal damage), the rest as its controller
    chooses; the damage to the blocker is prevented."""
    state = engine.game(["alice", "bob"], [
        engine.creature("wurm", "alice", 6, 6, "trample", colors=["green"]),
        engine.creature("knight", "bob", 2, 2, "protection from green")])
    st_ = blocked(engine, state, {"wurm": "bob"}, {"knight": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"bob": 6}}) == ["702.19b"]
    assert engine.default_assignment(st_)["wurm"] == {"knight": 2, "bob": 4}
    result = engine.resolve(state, {"wurm": "bob"}, {"knight": "wurm"},
                            assign={"wurm": {"knight": 3, "bob": 3}})
    assert life(result, "bob") == 17
    assert zone(result, "knight") == "battlefield"
    assert result.state.objects["knight"].damage == 0


def test_702_19b_damage_doubling_doesnt_lower_lethal(engine: Engine, board: Any) -> None:
    """Effects that change the damage actually dealt are ignored: with
    damage doubled, lethal for a 2/2 is still 2."""
    state = board(board.c("wurm", "alice", 3, 3, "trample"), board.c("bear", "bob", 2, 2),
                  effects=[Effect("double_damage")])
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"bear": 1, "bob": 2}}) == ["702.19b"]
    out = engine.combat_damage(st_, {"wurm": {"bear": 2, "bob": 1}})
    assert out.state.players["bob"].life == 18


# ---------------------------------------------------------------------------
# 702.19b + 702.2c: trample and deathtouch
# ---------------------------------------------------------------------------


def test_702_19b_702_2c_with_deathtouch_one_damage_per_blocker_is_lethal(
        engine: Engine, board: Any) -> None:
    state = board(board.c("basilisk", "alice", 5, 5, "trample", "deathtouch"),
                  board.c("ogre", "bob", 4, 4), board.c("troll", "bob", 4, 4))
    st_ = blocked(engine, state, {"basilisk": "bob"}, {"ogre": "basilisk", "troll": "basilisk"})
    assert engine.default_assignment(st_)["basilisk"] == {"ogre": 1, "troll": 1, "bob": 3}
    assert rules_of(engine, st_, {"basilisk": {"ogre": 1, "troll": 1, "bob": 3}}) == []
    assert rules_of(engine, st_, {"basilisk": {"ogre": 1, "bob": 4}}) == ["702.19b"]
    result = engine.resolve(state, {"basilisk": "bob"}, {"ogre": "basilisk", "troll": "basilisk"})
    assert life(result, "bob") == 17
    assert zone(result, "ogre") == zone(result, "troll") == "graveyard"


def test_702_19b_702_2c_deathtouch_lethal_is_0_when_others_already_assign_lethal(
        engine: Engine, board: Any) -> None:
    state = board(board.c("basilisk", "alice", 3, 3, "trample", "deathtouch"),
                  board.c("giant", "alice", 4, 4),
                  board.c("ogre", "bob", 4, 4, can_block_additional=1))
    st_ = blocked(engine, state, {"basilisk": "bob", "giant": "bob"},
                  {"ogre": ["basilisk", "giant"]})
    assign = {"giant": {"ogre": 4}, "basilisk": {"bob": 3}}
    assert rules_of(engine, st_, assign) == []


# ---------------------------------------------------------------------------
# 702.19a, 702.19d, 702.19f and what it attacks
# ---------------------------------------------------------------------------


def test_702_19d_no_creatures_left_blocking_all_damage_to_the_player(engine: Engine,
                                                                     board: Any) -> None:
    """Blocked, but its blocker is gone: the trampler's damage all goes to the
    player; a blocked creature without trample deals none (510.1c)."""
    state = board(board.c("wurm", "alice", 4, 4, "trample"), board.c("ox", "alice", 3, 3),
                  board.c("bear", "bob", 2, 2), board.c("cub", "bob", 2, 2))
    result = engine.resolve(state, {"wurm": "bob", "ox": "bob"}, {"bear": "wurm", "cub": "ox"},
                            actions=[("declare_blockers", LeaveBattlefield("bear")),
                                     ("declare_blockers", LeaveBattlefield("cub"))])
    assert life(result, "bob") == 16
    assert not any(e.kind == "damage" and e.source == "ox" for e in result.events)


def test_702_19a_trample_on_a_blocker_does_nothing(engine: Engine, board: Any) -> None:
    """The seed's question: a 7/7 with trample blocks a 5/5. The attacking
    player takes no damage."""
    state = board(board.c("giant", "alice", 5, 5), board.c("hydra", "bob", 7, 7, "trample"))
    st_ = blocked(engine, state, {"giant": "bob"}, {"hydra": "giant"})
    assert rules_of(engine, st_, {"hydra": {"giant": 5, "alice": 2}}) == ["510.1d"]
    assert engine.default_assignment(st_)["hydra"] == {"giant": 7}
    result = engine.resolve(state, {"giant": "bob"}, {"hydra": "giant"})
    assert life(result, "alice") == 20
    assert zone(result, "giant") == "graveyard"


def test_702_19b_excess_to_an_attacked_planeswalker_stays_on_it(engine: Engine,
                                                                board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6, "trample"), board.c("bear", "bob", 2, 2),
                  planeswalker("jace", "bob", 3))
    st_ = blocked(engine, state, {"wurm": "jace"}, {"bear": "wurm"})
    assert engine.default_assignment(st_)["wurm"] == {"bear": 2, "jace": 4}
    assert rules_of(engine, st_, {"wurm": {"bear": 2, "jace": 3, "bob": 1}}) == ["510.1c"]
    assert rules_of(engine, st_, {"wurm": {"bear": 1, "jace": 5}}) == ["702.19b"]
    result = engine.resolve(state, {"wurm": "jace"}, {"bear": "wurm"})
    assert life(result, "bob") == 20
    assert [e.amount for e in result.events if e.kind == "loyalty"] == [3]
    assert zone(result, "jace") == "graveyard"


def test_702_19b_excess_to_an_attacked_battle(engine: Engine, board: Any) -> None:
    siege = Permanent(id="siege", controller="alice", types=["battle"], subtypes=["Siege"],
                      counters={"defense": 5}, protector="bob")
    state = board(board.c("wurm", "alice", 6, 6, "trample"), board.c("bear", "bob", 2, 2), siege)
    st_ = blocked(engine, state, {"wurm": "siege"}, {"bear": "wurm"})
    assert rules_of(engine, st_, {"wurm": {"siege": 6}}) == ["702.19b"]
    result = engine.resolve(state, {"wurm": "siege"}, {"bear": "wurm"})
    assert result.state.objects["siege"].counters.get("defense") == 1
    assert life(result, "bob") == 20


def test_702_19f_attacked_planeswalker_gone_no_trample_damage_to_the_player(
        engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 4, 4, "trample"), board.c("elf", "bob", 1, 1),
                  planeswalker("jace", "bob", 3))
    st_ = blocked(engine, state, {"wurm": "jace"}, {"elf": "wurm"})
    st_ = engine.perform(st_, LeaveBattlefield("jace")).state
    assert rules_of(engine, st_, {"wurm": {"elf": 1, "bob": 3}}) == ["510.1c"]
    out = engine.combat_damage(st_)
    assert out.state.players["bob"].life == 20
    assert [(e.target, e.amount) for e in out.events
            if e.kind == "damage" and e.source == "wurm"] == [("elf", 4)]


# ---------------------------------------------------------------------------
# 702.19b with double strike: lethal again in the second step
# ---------------------------------------------------------------------------


def test_702_19b_double_strike_surviving_blocker_needs_lethal_again(engine: Engine,
                                                                    board: Any) -> None:
    state = board(board.c("wurm", "alice", 4, 4, "double strike", "trample"),
                  board.c("bear", "bob", 2, 2), board.c("ogre", "bob", 0, 5))
    st_ = blocked(engine, state, {"wurm": "bob"}, {"bear": "wurm", "ogre": "wurm"})
    out = engine.combat_damage(st_)
    assert out.state.step == FIRST
    st_ = out.state
    assert st_.objects["bear"].zone == "graveyard"
    assert st_.objects["ogre"].damage == 2
    # The dead blocker needs nothing; the 0/5 with 2 marked needs 3 more.
    assert engine.lethal_damage(st_, "wurm", "ogre") == 3
    assert rules_of(engine, st_, {"wurm": {"bob": 4}}) == ["702.19b"]
    assert rules_of(engine, st_, {"wurm": {"ogre": 2, "bob": 2}}) == ["702.19b"]
    assert engine.default_assignment(st_)["wurm"] == {"ogre": 3, "bob": 1}
    out = engine.combat_damage(st_)
    assert out.state.players["bob"].life == 19
    assert out.state.objects["ogre"].zone == "graveyard"


def test_702_19b_702_19d_double_strike_all_blockers_dead_second_hit_to_player(
        engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 4, 4, "double strike", "trample"),
                  board.c("bear", "bob", 2, 2), board.c("cub", "bob", 2, 2))
    result = engine.resolve(state, {"wurm": "bob"}, {"bear": "wurm", "cub": "wurm"})
    assert [(e.step, e.target, e.amount) for e in result.events
            if e.kind == "damage" and e.source == "wurm"] == [
        (FIRST, "bear", 2), (FIRST, "cub", 2), (REGULAR, "bob", 4)]
    assert life(result, "bob") == 16


def test_702_19g_multiple_instances_of_trample_are_redundant(engine: Engine,
                                                             board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6, "trample", "trample"),
                  board.c("bear", "bob", 2, 2))
    result = engine.resolve(state, {"wurm": "bob"}, {"bear": "wurm"})
    assert life(result, "bob") == 16


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

_ENGINE = Engine(discover=False, plugins=[trample, deathtouch])


@st.composite
def _trample_blocks(draw: st.DrawFn) -> tuple[GameState, dict[str, int]]:
    power = draw(st.integers(1, 12))
    kws = ("trample", "deathtouch") if draw(st.booleans()) else ("trample",)
    perms = [_ENGINE.creature("wurm", "alice", power, 5, *kws)]
    blocks = {}
    for i in range(draw(st.integers(1, 3))):
        toughness = draw(st.integers(1, 5))
        perms.append(_ENGINE.creature(f"b{i}", "bob", 0, toughness,
                                      damage=draw(st.integers(0, toughness - 1))))
        blocks[f"b{i}"] = "wurm"
    state = _ENGINE.game(["alice", "bob"], perms)
    state = blocked(_ENGINE, state, {"wurm": "bob"}, blocks)
    lethal = {b: (1 if "deathtouch" in kws else
                  state.objects[b].toughness - state.objects[b].damage) for b in blocks}
    return state, lethal


@settings(max_examples=80, deadline=None)
@given(_trample_blocks())
def test_702_19b_default_assignment_is_legal_and_tramples_over_exactly_the_excess(
        case: tuple[GameState, dict[str, int]]) -> None:
    """The default assignment assigns exactly the power (510.1a), is legal,
    and gives the player exactly what is left after lethal to every blocker."""
    state, lethal = case
    power = state.objects["wurm"].power
    chosen = _ENGINE.default_assignment(state)["wurm"]
    assert sum(chosen.values()) == power
    assert _ENGINE.assignment_violations(state, {"wurm": chosen}) == ()
    assert chosen.get("bob", 0) == max(0, power - sum(lethal.values()))


@settings(max_examples=80, deadline=None)
@given(_trample_blocks(), st.data())
def test_702_19b_any_player_damage_with_a_blocker_short_of_lethal_is_rejected(
        case: tuple[GameState, dict[str, int]], data: st.DataObject) -> None:
    """An assignment of the full power is legal exactly when it gives nothing
    to the player or gives every blocker at least lethal damage."""
    state, lethal = case
    power = state.objects["wurm"].power
    recipients = [*lethal, "bob"]
    cuts = sorted(data.draw(st.lists(st.integers(0, power), min_size=len(recipients) - 1,
                                     max_size=len(recipients) - 1)))
    bounds = [0, *cuts, power]
    assign = {r: bounds[i + 1] - bounds[i] for i, r in enumerate(recipients)}
    legal = assign["bob"] == 0 or all(assign[b] >= n for b, n in lethal.items())
    violations = _ENGINE.assignment_violations(state, {"wurm": assign})
    assert (violations == ()) == legal
    assert all(v.rule == "702.19b" for v in violations)


class TestTrampleConformance(KeywordConformance):
    """The conformance kit's invariants hold with trample on generated boards
    (mixed with every other loaded keyword)."""

    plugin = trample
    max_examples = 15


class TestTrampleConformanceM10(KeywordConformance):
    """The same invariants under the 2009-2024 rules (damage assignment order)."""

    plugin = trample
    rules = "m10"
    max_examples = 15


# ---------------------------------------------------------------------------
# 702.19b with 702.2c: deathtouch damage from ANOTHER creature in the same step
# ---------------------------------------------------------------------------
#
# 702.19b: "When checking for assigned lethal damage, take into account damage
# already marked on the creature and damage from other creatures that's being
# assigned during the same combat damage step". 702.2c: "Any nonzero amount of
# combat damage assigned to a creature by a source with deathtouch is
# considered to be lethal damage". So a blocker that another creature with
# deathtouch assigns 1 is already assigned lethal damage: the trampler owes it
# nothing.


def _shared_wall(board: Any, snake_power: int, *snake_keywords: str,
                 marked: int = 0) -> GameState:
    """A 1/1 snake and a 6/4 trampling wurm attack; a 0/3 wall (that can block
    an additional creature) blocks both."""
    return board(board.c("snake", "alice", snake_power, 1, *snake_keywords),
                 board.c("wurm", "alice", 6, 4, "trample"),
                 board.c("wall", "bob", 0, 3, can_block_additional=1, damage=marked,
                         name="Wall of Wood"))


def _shared_blocked(engine: Engine, state: GameState) -> GameState:
    return blocked(engine, state, {"snake": "bob", "wurm": "bob"},
                   {"wall": ["snake", "wurm"]})


def test_702_19b_702_2c_other_deathtouch_creatures_damage_is_lethal_for_the_trampler(
        engine: Engine, board: Any) -> None:
    st_ = _shared_blocked(engine, _shared_wall(board, 1, "deathtouch"))
    assign = {"snake": {"wall": 1}, "wurm": {"bob": 6}}
    assert rules_of(engine, st_, assign) == []
    assert rules_of(engine, st_, {"snake": {"wall": 1}, "wurm": {"wall": 0, "bob": 6}}) == []
    out = engine.combat_damage(st_, assign)
    assert out.state.players["bob"].life == 14
    assert out.state.objects["wall"].zone == "graveyard"  # 702.2b: 1 deathtouch damage


def test_702_19b_without_deathtouch_the_others_1_only_lowers_lethal(
        engine: Engine, board: Any) -> None:
    """The same board, the snake without deathtouch: its 1 counts as damage
    (toughness 3 - 1 = 2 left), not as lethal."""
    st_ = _shared_blocked(engine, _shared_wall(board, 1))
    assert rules_of(engine, st_, {"snake": {"wall": 1}, "wurm": {"bob": 6}}) == ["702.19b"]
    assert rules_of(engine, st_, {"snake": {"wall": 1}, "wurm": {"wall": 1, "bob": 5}}) == [
        "702.19b"]
    assert rules_of(engine, st_, {"snake": {"wall": 1}, "wurm": {"wall": 2, "bob": 4}}) == []


def test_702_2c_only_a_nonzero_amount_from_deathtouch_is_lethal(
        engine: Engine, board: Any) -> None:
    """A 0-power snake with deathtouch assigns nothing (510.1a): the wall is not
    assigned lethal damage by it, so the trampler owes it all 3."""
    st_ = _shared_blocked(engine, _shared_wall(board, 0, "deathtouch"))
    assert rules_of(engine, st_, {"wurm": {"bob": 6}}) == ["702.19b"]
    assert rules_of(engine, st_, {"wurm": {"wall": 3, "bob": 3}}) == []


def test_702_19b_702_2c_default_assignment_counts_the_other_deathtouch_damage(
        engine: Engine, board: Any) -> None:
    """The default strategy (scenario format: lethal in order counting what
    other creatures assign earlier in the step): the snake's 1 deathtouch
    damage is lethal, so the wurm's 6 all trample over."""
    st_ = _shared_blocked(engine, _shared_wall(board, 1, "deathtouch"))
    default = engine.default_assignment(st_)
    assert default["snake"] == {"wall": 1}
    assert default["wurm"] == {"bob": 6}
    assert rules_of(engine, st_, default) == []


@pytest.mark.parametrize("touch", [True, False])
@pytest.mark.parametrize("helper", [0, 1, 2])
def test_702_19b_702_2c_trample_past_a_shared_blocker_oracle(touch: bool, helper: int) -> None:
    """Oracle from the rule text, every small case: the wurm may assign the
    rest of its 6 to the player iff the wall is assigned lethal damage by
    everyone together: marked + assigned >= toughness (702.19b), or some
    other source with deathtouch assigns it a nonzero amount (702.2c)."""
    engine = _ENGINE
    kws = ("deathtouch",) if touch else ()
    for toughness in range(1, 5):
        for marked in range(toughness):
            state = engine.game(["alice", "bob"], [
                engine.creature("helper", "alice", helper, 1, *kws),
                engine.creature("wurm", "alice", 6, 4, "trample"),
                engine.creature("wall", "bob", 0, toughness, can_block_additional=1,
                                damage=marked)])
            st_ = blocked(engine, state, {"helper": "bob", "wurm": "bob"},
                          {"wall": ["helper", "wurm"]})
            for to_wall in range(7):
                assign: dict[str, dict[str, int]] = {
                    "wurm": {"wall": to_wall, "bob": 6 - to_wall}}
                if helper:
                    assign["helper"] = {"wall": helper}
                lethal_assigned = (touch and helper > 0) or (
                    marked + helper + to_wall >= toughness)
                legal = to_wall == 6 or lethal_assigned
                assert (rules_of(engine, st_, assign) == []) == legal, (
                    toughness, marked, to_wall)
