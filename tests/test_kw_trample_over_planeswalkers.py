"""Trample over planeswalkers (CR 702.19c-g).

A variant of trample with its own keyword: it assigns as trample does (702.19b, 702.19d),
and when it attacks a planeswalker, once every blocker is assigned lethal damage and the
planeswalker is assigned damage at least equal to its loyalty (counting what other
creatures assign to it in the same step), the excess may also go to that planeswalker's
controller (702.19c); if the planeswalker was removed from combat, to the defending
player (702.19e). Without it, nothing reaches the player (702.19f).
"""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    AddContinuous,
    Engine,
    GainControl,
    GameState,
    IllegalAssignmentError,
    LeaveBattlefield,
    Permanent,
    Player,
    PluginError,
    Prevent,
    RemoveFromCombat,
    hookimpl,
)
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone_keywords import (
    deathtouch,
    double_strike,
    first_strike,
    trample,
    trample_over_planeswalkers,
)

TOP = "trample over planeswalkers"


def planeswalker(id: str = "jace", controller: str = "bob", loyalty: int = 3) -> Permanent:
    return Permanent(id=id, controller=controller, name="Jace", types=["planeswalker"],
                     counters={"loyalty": loyalty})


def declared(engine: Engine, state: GameState, attacks: dict[str, str],
             blocks: dict[str, Any] | None = None) -> GameState:
    """The state after declaring attackers and blockers."""
    state = engine.declare_attackers(state, attacks).state
    return engine.declare_blockers(state, blocks or {}).state


def rules_of(engine: Engine, state: GameState, assign: dict[str, dict[str, int]]) -> list[str]:
    return sorted(v.rule for v in engine.assignment_violations(state, assign))


# ---------------------------------------------------------------------------
# 702.19c: the example, and damage to the planeswalker's controller
# ---------------------------------------------------------------------------


def example(board: Any) -> GameState:
    """702.19c example: a planeswalker with three loyalty counters attacked by a 1/1 with
    no abilities and a 7/7 with trample over planeswalkers."""
    state = board(board.c("one", "alice", 1, 1), board.c("seven", "alice", 7, 7, TOP),
                  planeswalker(loyalty=3))
    return declared(board.engine, state, {"one": "jace", "seven": "jace"})


def test_702_19c_example_one_from_the_1_1_two_from_the_7_7_and_five_to_the_player(
        board: Any) -> None:
    """702.19c example: "The active player could assign 1 damage from the first attacker and
    2 damage from the second to the planeswalker and 5 damage to the defending player from
    the creature with trample over planeswalkers." """
    state = example(board)
    assign = {"one": {"jace": 1}, "seven": {"jace": 2, "bob": 5}}
    assert board.engine.assignment_violations(state, assign) == ()
    out = board.engine.combat_damage(state, assign)
    assert out.state.players["bob"].life == 15
    assert out.state.objects["jace"].zone == "graveyard"  # 120.3c, 704.5i
    damage = sorted((e.source, e.target, e.amount) for e in out.events if e.kind == "damage")
    assert damage == [("one", "jace", 1), ("seven", "bob", 5), ("seven", "jace", 2)]


def test_702_19c_example_derived_less_than_the_loyalty_before_the_player_is_illegal(
        board: Any) -> None:
    """With the 1/1's 1 damage, 1 more from the 7/7 makes 2, less than the loyalty 3: no
    damage may go to the player."""
    state = example(board)
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalAssignmentError) as info:
        board.engine.combat_damage(state, {"one": {"jace": 1}, "seven": {"jace": 1, "bob": 6}})
    err = info.value
    assert [v.rule for v in err.violations] == ["702.19c"]
    assert err.objects == ("bob", "jace", "seven")
    assert str(err) == ("seven (trample over planeswalkers) can't assign damage to bob before "
                        "damage at least equal to Jace's loyalty (3) is assigned to Jace: it is "
                        "assigned 1 by seven and 1 by other creatures (rule 702.19c)")
    assert state == snapshot


def test_702_19c_damage_other_creatures_assign_counts_toward_the_loyalty(board: Any) -> None:
    """Without the 1/1 assigning to the planeswalker, 2 from the 7/7 is not enough."""
    state = example(board)
    assert rules_of(board.engine, state, {"one": {"jace": 1},
                                          "seven": {"jace": 2, "bob": 5}}) == []
    state = board(board.c("seven", "alice", 7, 7, TOP), planeswalker(loyalty=3))
    state = declared(board.engine, state, {"seven": "jace"})
    assert rules_of(board.engine, state, {"seven": {"jace": 2, "bob": 5}}) == ["702.19c"]
    assert rules_of(board.engine, state, {"seven": {"jace": 3, "bob": 4}}) == []
    assert rules_of(board.engine, state, {"seven": {"jace": 5, "bob": 2}}) == []
    out = board.engine.combat_damage(state, {"seven": {"jace": 3, "bob": 4}})
    assert out.state.players["bob"].life == 16


def test_702_19c_the_planeswalkers_controller_is_a_legal_recipient(board: Any) -> None:
    """The core's damage duties list the controller as an additional recipient; a creature
    without the ability has only the planeswalker."""
    state = board(board.c("seven", "alice", 7, 7, TOP), board.c("bear", "alice", 2, 2),
                  planeswalker())
    state = declared(board.engine, state, {"seven": "jace", "bear": "jace"})
    duties = {d.source: d for d in board.engine.damage_duties(state)[1]}
    assert duties["seven"].recipients == ("jace", "bob")
    assert duties["seven"].additional == ("bob",)
    assert duties["bear"].recipients == ("jace",)


def test_702_19c_prevention_does_not_lower_the_loyalty_to_assign(board: Any) -> None:
    """702.19c: "not any abilities or effects that might change the amount of damage that's
    actually dealt": with the damage to the planeswalker prevented, 3 must still be
    assigned to it; it keeps its loyalty and the player takes the rest."""
    state = board(board.c("seven", "alice", 7, 7, TOP), planeswalker(loyalty=3))
    state = board.engine.declare_attackers(state, {"seven": "jace"}).state
    state = board.engine.perform(state, Prevent(target="jace")).state
    state = board.engine.declare_blockers(state, {}).state
    assert rules_of(board.engine, state, {"seven": {"bob": 7}}) == ["702.19c"]
    out = board.engine.combat_damage(state, {"seven": {"jace": 3, "bob": 4}})
    assert out.state.objects["jace"].loyalty == 3
    assert out.state.players["bob"].life == 16


def test_702_19c_blocked_lethal_to_blockers_then_loyalty_then_the_player(board: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP), board.c("bear", "bob", 2, 2),
                  planeswalker(loyalty=3))
    state = declared(board.engine, state, {"seven": "jace"}, {"bear": "seven"})
    assert rules_of(board.engine, state, {"seven": {"bear": 2, "jace": 3, "bob": 2}}) == []
    assert rules_of(board.engine, state, {"seven": {"bear": 1, "jace": 3, "bob": 3}}) == [
        "702.19b"]
    assert rules_of(board.engine, state, {"seven": {"bear": 2, "jace": 2, "bob": 3}}) == [
        "702.19c"]
    assert rules_of(board.engine, state, {"seven": {"bear": 1, "jace": 2, "bob": 4}}) == [
        "702.19b", "702.19c"]
    # Further excess may go to the blocker, the planeswalker or the player as chosen.
    assert rules_of(board.engine, state, {"seven": {"bear": 3, "jace": 3, "bob": 1}}) == []
    assert rules_of(board.engine, state, {"seven": {"bear": 2, "jace": 5}}) == []
    out = board.engine.combat_damage(state, {"seven": {"bear": 2, "jace": 3, "bob": 2}})
    assert out.state.players["bob"].life == 18
    assert out.state.objects["bear"].zone == "graveyard"
    assert out.state.objects["jace"].zone == "graveyard"


def test_702_19c_702_2c_deathtouch_makes_1_lethal_to_the_blocker_not_to_the_loyalty(
        board: Any) -> None:
    state = board(board.c("seven", "alice", 4, 4, TOP, "deathtouch"),
                  board.c("ogre", "bob", 3, 3), planeswalker(loyalty=2))
    state = declared(board.engine, state, {"seven": "jace"}, {"ogre": "seven"})
    assert rules_of(board.engine, state, {"seven": {"ogre": 1, "jace": 2, "bob": 1}}) == []
    assert rules_of(board.engine, state, {"seven": {"ogre": 1, "jace": 1, "bob": 2}}) == [
        "702.19c"]


def test_702_19c_a_creature_attacking_a_player_tramples_as_702_19b(board: Any) -> None:
    """Attacking a player, it is trample: lethal to each blocker, the rest to the player;
    no other recipient."""
    state = board(board.c("seven", "alice", 5, 5, TOP), board.c("bear", "bob", 2, 2))
    state = declared(board.engine, state, {"seven": "bob"}, {"bear": "seven"})
    assert rules_of(board.engine, state, {"seven": {"bear": 2, "bob": 3}}) == []
    assert rules_of(board.engine, state, {"seven": {"bear": 1, "bob": 4}}) == ["702.19b"]
    assert board.engine.damage_duties(state)[1][0].recipients == ("bear", "bob")
    assert board.engine.default_assignment(state)["seven"] == {"bear": 2, "bob": 3}


def test_702_19c_a_creature_attacking_a_battle_gets_no_extra_recipient(board: Any) -> None:
    battle = Permanent(id="siege", controller="alice", types=["battle"], subtypes=["Siege"],
                       counters={"defense": 3}, protector="bob")
    state = board(board.c("seven", "alice", 5, 5, TOP), battle)
    state = declared(board.engine, state, {"seven": "siege"})
    assert board.engine.damage_duties(state)[1][0].recipients == ("siege",)
    assert [v.rule for v in board.engine.assignment_violations(
        state, {"seven": {"siege": 3, "bob": 2}})] == ["510.1b"]


def test_702_19c_the_keyword_is_distinct_from_trample(engine: Engine) -> None:
    perm = engine.creature("t", "alice", 7, 7, TOP)
    assert [k.name for k in perm.keywords] == [TOP]
    assert not perm.has("trample")


def test_702_19c_default_assignment_is_legal(board: Any) -> None:
    """The default (scenario format): lethal to blockers in order, the rest to what it
    attacks, which is always legal."""
    state = board(board.c("seven", "alice", 7, 7, TOP), board.c("bear", "bob", 2, 2),
                  planeswalker(loyalty=3))
    state = declared(board.engine, state, {"seven": "jace"}, {"bear": "seven"})
    assert board.engine.default_assignment(state)["seven"] == {"bear": 2, "jace": 5}
    assert board.engine.assignment_violations(state) == ()


# ---------------------------------------------------------------------------
# 702.19d-f
# ---------------------------------------------------------------------------


def test_702_19d_blocked_but_no_blockers_left_loyalty_then_the_player(board: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP), board.c("bear", "bob", 2, 2),
                  planeswalker(loyalty=3))
    state = declared(board.engine, state, {"seven": "jace"}, {"bear": "seven"})
    state = board.engine.perform(state, LeaveBattlefield("bear")).state
    duty = board.engine.damage_duties(state)[1][0]
    assert (duty.creatures, duty.recipients) == ((), ("jace", "bob"))
    assert rules_of(board.engine, state, {"seven": {"jace": 3, "bob": 4}}) == []
    assert rules_of(board.engine, state, {"seven": {"jace": 2, "bob": 5}}) == ["702.19c"]


@pytest.mark.parametrize("removal", [
    LeaveBattlefield("jace"), RemoveFromCombat("jace"),
    AddContinuous(affects=("jace",), set_types=("artifact",)),  # 506.4: no longer one
], ids=["leaves", "removed", "stops being a planeswalker"])
def test_702_19e_planeswalker_removed_unblocked_all_damage_to_the_defending_player(
        board: Any, removal: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP), planeswalker())
    result = board.engine.resolve(state, {"seven": "jace"}, {},
                                  actions=[("declare_attackers", removal)])
    assert result.state.players["bob"].life == 13
    damage = [(e.source, e.target, e.amount) for e in result.events if e.kind == "damage"]
    assert damage == [("seven", "bob", 7)]


def test_702_19e_506_4_planeswalker_changes_control_the_defending_player_not_its_new_one(
        board: Any) -> None:
    """702.19e: "If a creature with trample over planeswalkers is attacking a
    planeswalker and that planeswalker is removed from combat, the creature's damage may
    be assigned to the defending player". Alice gains control of bob's attacked
    planeswalker, which removes it from combat (506.4: its controller changes): the
    damage goes to bob, the defending player, not to alice, its controller now."""
    state = board(board.c("seven", "alice", 7, 7, TOP), planeswalker())
    result = board.engine.resolve(state, {"seven": "jace"}, {},
                                  actions=[("declare_blockers", GainControl("jace", "alice"))])
    assert result.state.objects["jace"].controller == "alice"
    damage = [(e.source, e.target, e.amount) for e in result.events if e.kind == "damage"]
    assert damage == [("seven", "bob", 7)]
    assert (result.state.players["alice"].life, result.state.players["bob"].life) == (20, 13)


def test_702_19e_it_does_not_make_the_creature_attack_that_player(board: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP), planeswalker())
    state = board.engine.declare_attackers(state, {"seven": "jace"}).state
    state = board.engine.perform(state, RemoveFromCombat("jace")).state
    state = board.engine.declare_blockers(state, {}).state
    assert state.combat.attacks["seven"] is None  # 506.4c: attacking nothing
    duty = board.engine.damage_duties(state)[1][0]
    assert (duty.attacked, duty.additional) == (None, ("bob",))


def test_702_19e_planeswalker_removed_blocked_lethal_first_then_the_player(
        board: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP), board.c("bear", "bob", 2, 2),
                  planeswalker())
    state = declared(board.engine, state, {"seven": "jace"}, {"bear": "seven"})
    state = board.engine.perform(state, LeaveBattlefield("jace")).state
    assert rules_of(board.engine, state, {"seven": {"bear": 2, "bob": 5}}) == []
    assert rules_of(board.engine, state, {"seven": {"bear": 1, "bob": 6}}) == ["702.19e"]
    assert rules_of(board.engine, state, {"seven": {"jace": 5, "bear": 2}}) == ["510.1c"]
    assert board.engine.default_assignment(state)["seven"] == {"bear": 2, "bob": 5}
    out = board.engine.combat_damage(state, {"seven": {"bear": 2, "bob": 5}})
    assert out.state.players["bob"].life == 15


def test_702_19e_planeswalker_and_blockers_gone_all_damage_to_the_defending_player(
        board: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP), board.c("bear", "bob", 2, 2),
                  planeswalker())
    result = board.engine.resolve(state, {"seven": "jace"}, {"bear": "seven"}, actions=[
        ("declare_blockers", LeaveBattlefield("jace")),
        ("declare_blockers", LeaveBattlefield("bear"))])
    assert result.state.players["bob"].life == 13


def test_702_19e_only_for_a_planeswalker_not_a_battle(board: Any) -> None:
    battle = Permanent(id="siege", controller="alice", types=["battle"], subtypes=["Siege"],
                       counters={"defense": 3}, protector="bob")
    state = board(board.c("seven", "alice", 7, 7, TOP), battle)
    result = board.engine.resolve(state, {"seven": "siege"}, {},
                                  actions=[("declare_attackers", LeaveBattlefield("siege"))])
    assert result.state.players["bob"].life == 20


@pytest.mark.parametrize("keywords", [(), ("trample",)])
def test_702_19f_without_the_ability_no_damage_reaches_the_player(
        board: Any, keywords: tuple[str, ...]) -> None:
    """702.19f: even with damage greater than the loyalty, or the planeswalker removed from
    combat; seed: the attacker of a bounced planeswalker assigns no damage."""
    state = board(board.c("wurm", "alice", 7, 7, *keywords), planeswalker(loyalty=3))
    attacking = declared(board.engine, state, {"wurm": "jace"})
    assert [v.rule for v in board.engine.assignment_violations(
        attacking, {"wurm": {"jace": 3, "bob": 4}})] == ["510.1b"]
    for removal in (LeaveBattlefield("jace"), RemoveFromCombat("jace")):
        result = board.engine.resolve(state, {"wurm": "jace"}, {},
                                      actions=[("declare_blockers", removal)])
        assert result.state.players["bob"].life == 20
        assert [e for e in result.events if e.kind == "damage"] == []


def test_702_19a_it_does_nothing_for_a_blocking_creature(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("seven", "bob", 7, 7, TOP))
    state = declared(board.engine, state, {"bear": "bob"}, {"seven": "bear"})
    assert board.engine.damage_duties(state)[1][1].recipients == ("bear",)
    assert [v.rule for v in board.engine.assignment_violations(
        state, {"seven": {"bear": 2, "alice": 5}})] == ["510.1d"]


def test_702_19g_multiple_instances_are_redundant(board: Any) -> None:
    state = board(board.c("seven", "alice", 7, 7, TOP, TOP), board.c("bear", "bob", 2, 2),
                  planeswalker(loyalty=3))
    state = declared(board.engine, state, {"seven": "jace"}, {"bear": "seven"})
    assert rules_of(board.engine, state, {"seven": {"bear": 1, "jace": 2, "bob": 4}}) == [
        "702.19b", "702.19c"]
    assert board.engine.damage_duties(state)[1][0].additional == ("bob",)


def test_702_19c_510_4_double_strike_second_step_after_the_planeswalker_died(
        board: Any) -> None:
    """First strike damage: 3 to the planeswalker and 1 to the player; it dies (704.5i),
    so in the second step the damage goes to the defending player (702.19e)."""
    state = board(board.c("knight", "alice", 4, 4, TOP, "double strike"),
                  planeswalker(loyalty=3))
    result = board.engine.resolve(state, {"knight": "jace"}, {},
                                  assign_first_strike={"knight": {"jace": 3, "bob": 1}})
    damage = [(e.step, e.target, e.amount) for e in result.events if e.kind == "damage"]
    assert damage == [("first_strike_damage", "jace", 3), ("first_strike_damage", "bob", 1),
                      ("combat_damage", "bob", 4)]
    assert result.state.players["bob"].life == 15


def test_510_1e_the_loyalty_check_counts_the_whole_assignment_of_the_step(
        board: Any) -> None:
    """Two creatures with the ability: each may count what the other assigns to the
    planeswalker (510.1e: the total assignment is checked)."""
    state = board(board.c("t1", "alice", 3, 3, TOP), board.c("t2", "alice", 3, 3, TOP),
                  planeswalker(loyalty=4))
    state = declared(board.engine, state, {"t1": "jace", "t2": "jace"})
    assert rules_of(board.engine, state, {"t1": {"jace": 2, "bob": 1},
                                          "t2": {"jace": 2, "bob": 1}}) == []
    assert rules_of(board.engine, state, {"t1": {"jace": 1, "bob": 2},
                                          "t2": {"jace": 2, "bob": 1}}) == ["702.19c",
                                                                            "702.19c"]


# ---------------------------------------------------------------------------
# The core hook: redzone_additional_recipients
# ---------------------------------------------------------------------------


def test_510_1b_the_core_drops_additional_recipients_that_cannot_be_dealt_damage() -> None:
    """The hook's answers are a union in id order; ids already legal, players who left the
    game and permanents that can't be dealt damage (120.1a) are dropped."""
    class Extra:
        @staticmethod
        @hookimpl
        def redzone_additional_recipients(attacker: str) -> list[str]:
            return ["zed", "land", "orc", "carol", "bob", "ghost", "bear"]

    engine = Engine(discover=False, plugins=[Extra])
    state = engine.game(["alice", "bob", Player("carol", lost=True)], [
        engine.creature("orc", "alice", 2, 2), engine.creature("bear", "bob", 2, 2),
        Permanent(id="land", controller="bob", types=["land"]),
        Permanent(id="ghost", controller="bob", zone="graveyard"),
        engine.creature("zed", "carol", 1, 1)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    duty = engine.damage_duties(state)[1][0]
    assert duty.recipients == ("bob", "bear", "orc", "zed")


def test_510_1b_an_unblocked_creature_attacking_nothing_assigns_to_additional_recipients(
        ) -> None:
    """With the hook's answer, a creature attacking nothing (506.4c) has someone to assign
    to; without one it assigns no combat damage (510.1b)."""
    class Extra:
        @staticmethod
        @hookimpl
        def redzone_additional_recipients(state: GameState, attacker: str) -> list[str]:
            return ["bob"] if state.objects[attacker].name == "special" else []

    engine = Engine(discover=False, plugins=[Extra])
    state = engine.game(["alice", "bob"], [
        engine.creature("s", "alice", 2, 2, name="special"), engine.creature("o", "alice", 2, 2),
        planeswalker(loyalty=9)])
    result = engine.resolve(state, {"s": "jace", "o": "jace"}, {},
                            actions=[("declare_attackers", LeaveBattlefield("jace"))])
    assert [(e.source, e.target) for e in result.events if e.kind == "damage"] == [("s", "bob")]


@pytest.mark.parametrize("answer", ["bob", [1], 3])
def test_design_a_wrong_answer_to_the_hook_is_a_plugin_error(answer: Any) -> None:
    """DESIGN: an answer that is not an iterable of ids is a PluginError naming the plugin
    and the hook; the state is unchanged."""
    class Sloppy:
        @staticmethod
        @hookimpl
        def redzone_additional_recipients() -> Any:
            return answer

    engine = Engine(discover=False, plugins=[Sloppy])
    state = engine.game(["alice", "bob"], [engine.creature("orc", "alice", 2, 2)])
    state = declared(engine, state, {"orc": "bob"})
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(PluginError) as info:
        engine.combat_damage(state)
    assert info.value.hook == "redzone_additional_recipients"
    assert state == snapshot


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (deathtouch, double_strike, first_strike, trample, trample_over_planeswalkers)


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2), st.data())
@settings(max_examples=50, deadline=None)
def test_702_19b_c_legal_exactly_when_lethal_then_loyalty_and_order_does_not_matter(
        loyalty: int, toughness: int, helper: int, data: st.DataObject) -> None:
    """702.19b-c written out: a split of a 6/6's damage among its blocker, the attacked
    planeswalker and its controller is legal exactly when (a) nothing goes past the
    blocker unless it is assigned lethal, and (b) nothing goes to the controller unless
    the planeswalker is assigned at least its loyalty counting an unblocked helper's
    damage to it; the verdict doesn't depend on the plugins' call order (design)."""
    to_blocker = data.draw(st.integers(0, 6))
    to_walker = data.draw(st.integers(0, 6 - to_blocker))
    to_player = 6 - to_blocker - to_walker
    verdicts = []
    for engine in engines():
        perms = [engine.creature("t", "alice", 6, 6, TOP),
                 engine.creature("bear", "bob", 1, toughness), planeswalker(loyalty=loyalty)]
        attacks = {"t": "jace"}
        if helper:
            perms.append(engine.creature("h", "alice", helper, 1))
            attacks["h"] = "jace"
        state = declared(engine, engine.game(["alice", "bob"], perms), attacks,
                         {"bear": "t"})
        assign = {"t": {"bear": to_blocker, "jace": to_walker, "bob": to_player}}
        if helper:
            assign["h"] = {"jace": helper}
        verdicts.append(engine.assignment_violations(state, assign))
    assert verdicts[0] == verdicts[1]
    lethal_ok = to_walker + to_player == 0 or to_blocker >= toughness
    loyalty_ok = to_player == 0 or to_walker + helper >= loyalty
    assert sorted(v.rule for v in verdicts[0]) == sorted(
        ([] if lethal_ok else ["702.19b"]) + ([] if loyalty_ok else ["702.19c"]))


class TestTrampleOverPlaneswalkersConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, the default assignment is
    legal, order independence), with the damage keywords it combines with."""

    plugin = trample_over_planeswalkers
    builtins = False
    extra_plugins = (deathtouch, double_strike, first_strike, trample)
    max_examples = 25
