"""The combat phase step by step (506-511): step order, 508.8, the first
combat damage step (510.4, through a tiny test plugin), priority windows and
511.3."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from redzone import (
    Action,
    DamageStep,
    DealDamage,
    Destroy,
    Engine,
    GainLife,
    GameState,
    Grant,
    IllegalActionError,
    KeywordSpec,
    LeaveBattlefield,
    Pump,
    RemoveFromCombat,
    Revoke,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.testing import plugin_module as plugin

#: A test stand-in for first strike and double strike: "t-early" deals damage
#: in the first combat damage step, "t-twice" in both.
EARLY = plugin(
    "t_early",
    redzone_keywords=lambda: [KeywordSpec("t-early", "702.7"), KeywordSpec("t-twice", "702.4")],
    redzone_damage_steps=lambda: [DamageStep("first_strike_damage", -1, "510.4")],
    redzone_deals_combat_damage=lambda state, creature, step: True if (
        (step == "first_strike_damage" and (state.objects[creature].has("t-early")
                                            or state.objects[creature].has("t-twice")))
        or (step == "combat_damage" and state.objects[creature].has("t-twice"))) else None,
)


@pytest.fixture
def early_engine() -> Engine:
    return Engine(discover=False, plugins=[EARLY])


@pytest.fixture
def simple(bare_engine: Engine) -> GameState:
    return bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                               creature("bear", "bob", 2, 3)])


def damage(events: Any, step: str | None = None) -> list[tuple[str, str, int]]:
    return [(e.source, e.target, e.amount) for e in events
            if e.kind == "damage" and (step is None or e.step == step)]


def test_506_1_steps_in_order(bare_engine: Engine, simple: GameState) -> None:
    """506.1: beginning of combat, declare attackers, declare blockers, combat
    damage, end of combat; then the postcombat main phase (505)."""
    engine = bare_engine
    assert engine.next_step(simple) == "beginning_of_combat"
    state = engine.begin_combat(simple).state
    assert (state.step, engine.next_step(state)) == ("beginning_of_combat", "declare_attackers")
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    assert (state.step, engine.next_step(state)) == ("declare_attackers", "declare_blockers")
    state = engine.declare_blockers(state, {"bear": "orc"}).state
    assert (state.step, engine.next_step(state)) == ("declare_blockers", "combat_damage")
    state = engine.combat_damage(state).state
    assert (state.step, engine.next_step(state)) == ("combat_damage", "end_of_combat")
    out = engine.end_of_combat(state)
    assert [e.rule for e in out.events] == ["511.1"]
    state = out.state
    assert (state.step, engine.next_step(state)) == ("end_of_combat", "postcombat_main")
    state = engine.finish(state).state
    assert (state.step, state.combat, engine.next_step(state)) == ("postcombat_main", None, None)


def _states(engine: Engine, simple: GameState) -> dict[str, GameState]:
    begun = engine.begin_combat(simple).state
    attacked = engine.declare_attackers(begun, {"orc": "bob"}).state
    blocked = engine.declare_blockers(attacked, {"bear": "orc"}).state
    damaged = engine.combat_damage(blocked).state
    ended = engine.end_of_combat(damaged).state
    return {"main": simple, "beginning_of_combat": begun, "declare_attackers": attacked,
            "declare_blockers": blocked, "combat_damage": damaged, "end_of_combat": ended,
            "postcombat_main": engine.finish(ended).state}


COMMANDS: dict[str, Callable[[Engine, GameState], Any]] = {
    "begin_combat": lambda e, s: e.begin_combat(s),
    "declare_attackers": lambda e, s: e.declare_attackers(s, {}),
    "declare_blockers": lambda e, s: e.declare_blockers(s, {}),
    "combat_damage": lambda e, s: e.combat_damage(s),
    "end_of_combat": lambda e, s: e.end_of_combat(s),
    "finish": lambda e, s: e.finish(s),
}
ALLOWED = {
    # 500.8, 505.1a: after a combat, an additional combat phase may begin.
    "begin_combat": {"main", "postcombat_main"},
    "declare_attackers": {"main", "beginning_of_combat", "postcombat_main"},
    "declare_blockers": {"declare_attackers"},
    "combat_damage": {"declare_blockers"},
    "end_of_combat": {"combat_damage"},
    "finish": {"end_of_combat"},
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_506_1_step_order_errors(bare_engine: Engine, simple: GameState, command: str) -> None:
    """506.1: the steps proceed in order; a command out of order is an illegal
    action citing 506.1 and changes nothing."""
    for where, state in _states(bare_engine, simple).items():
        if where in ALLOWED[command]:
            COMMANDS[command](bare_engine, state)
            continue
        before = state_to_dict(state)
        with pytest.raises(IllegalActionError) as info:
            COMMANDS[command](bare_engine, state)
        assert info.value.rule == "506.1", (command, where)
        assert info.value.kind == "illegal_action"
        assert state_to_dict(state) == before


def test_508_8_no_attackers_skip_blockers_and_damage(bare_engine: Engine,
                                                     simple: GameState) -> None:
    """508.8: if no creatures are declared as attackers, the declare blockers
    and combat damage steps are skipped."""
    result = bare_engine.resolve(simple, {})
    assert result.steps == ("beginning_of_combat", "declare_attackers", "end_of_combat")
    assert result.after_steps == {}
    with pytest.raises(IllegalActionError) as info:
        bare_engine.resolve(simple, {}, actions=[("declare_blockers", Pump("bear", 1, 1))])
    assert info.value.rule == "506.1"
    assert "declare_blockers" in info.value.message


@pytest.mark.parametrize("removal", [RemoveFromCombat("orc"), Destroy("orc")],
                         ids=["removed from combat", "destroyed"])
def test_508_8_an_attacker_declared_then_removed_skips_no_step(
        bare_engine: Engine, simple: GameState, removal: Action) -> None:
    """508.8, 506.1: the declare blockers and combat damage steps are skipped
    only if no creatures are *declared* as attackers or put onto the
    battlefield attacking. An attacker declared and then removed from combat
    or destroyed in the declare attackers step (Royal Assassin killing the
    only attacker) leaves both steps to happen, with no creature attacking:
    actions can be taken in each, and no combat damage is dealt."""
    gain = GainLife("bob", 3)
    result = bare_engine.resolve(simple, {"orc": "bob"}, actions=[
        ("declare_attackers", removal), ("declare_blockers", gain), ("combat_damage", gain)])
    assert result.steps == ("beginning_of_combat", "declare_attackers", "declare_blockers",
                            "combat_damage", "end_of_combat")
    assert result.state.players["bob"].life == 26
    assert damage(result.events) == []
    state = bare_engine.declare_attackers(bare_engine.begin_combat(simple).state,
                                          {"orc": "bob"}).state
    state = bare_engine.perform(state, removal).state
    assert state.combat is not None and not state.combat.attacks
    assert bare_engine.next_step(state) == "declare_blockers"
    state = bare_engine.declare_blockers(state, {}).state
    assert bare_engine.next_step(state) == "combat_damage"


def test_308_5_an_attacker_declared_then_removed_skips_no_step_in_1999_2009() -> None:
    """308.5 and 306.1 of 1999-2009, worded as 508.8 is today: with combat
    damage on the stack, a declared attacker removed from combat leaves the
    declare blockers step and the combat damage step (its assignment onto the
    stack included) to happen."""
    engine = Engine(discover=False, rules="sixth")
    simple = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                            creature("bear", "bob", 2, 3)])
    state = engine.declare_attackers(engine.begin_combat(simple).state, {"orc": "bob"}).state
    state = engine.perform(state, RemoveFromCombat("orc")).state
    assert engine.next_step(state) == "declare_blockers"
    result = engine.resolve(simple, {"orc": "bob"},
                            actions=[("declare_attackers", RemoveFromCombat("orc"))])
    assert "declare_blockers" in result.steps and "end_of_combat" in result.steps
    assert any(step.startswith("combat_damage") for step in result.steps)


def test_510_4_no_first_step_without_early_creatures(bare_engine: Engine,
                                                     simple: GameState) -> None:
    """510.4: with no creature dealing damage early, there is one combat damage
    step."""
    result = bare_engine.resolve(simple, {"orc": "bob"}, {"bear": "orc"})
    assert result.steps == ("beginning_of_combat", "declare_attackers", "declare_blockers",
                            "combat_damage", "end_of_combat")
    assert set(result.after_steps) == {"combat_damage"}


def test_510_4_first_combat_damage_step_exists_through_a_plugin(early_engine: Engine) -> None:
    """510.4 via redzone_damage_steps: if a combatant deals damage early,
    the phase gets a first combat damage step in which only those creatures
    deal damage; the others deal theirs in the second step."""
    state = early_engine.game(["alice", "bob"], [
        early_engine.creature("knight", "alice", 2, 2, "t-early"),
        creature("orc", "alice", 2, 2), creature("bear", "bob", 1, 3)])
    result = early_engine.resolve(state, {"knight": "bob", "orc": "bob"}, {"bear": "knight"})
    assert result.steps == ("beginning_of_combat", "declare_attackers", "declare_blockers",
                            "first_strike_damage", "combat_damage", "end_of_combat")
    assert damage(result.events, "first_strike_damage") == [("knight", "bear", 2)]
    assert sorted(damage(result.events, "combat_damage")) == [("bear", "knight", 1),
                                                              ("orc", "bob", 2)]
    first = result.after_steps["first_strike_damage"]
    assert first.combat is not None
    assert first.combat.damage_steps == {"first_strike_damage": frozenset({"knight"})}
    assert first.players["bob"].life == 20
    assert result.state.players["bob"].life == 18


def test_510_4_each_damage_step_is_a_full_step(early_engine: Engine) -> None:
    """510.4, 704.3 (argentum #1598): state-based actions run after the first
    step, so a blocker it killed deals no damage in the second."""
    state = early_engine.game(["alice", "bob"], [
        early_engine.creature("knight", "alice", 2, 2, "t-early"), creature("bear", "bob", 5, 2)])
    result = early_engine.resolve(state, {"knight": "bob"}, {"bear": "knight"})
    assert result.after_steps["first_strike_damage"].objects["bear"].zone == "graveyard"
    assert damage(result.events) == [("knight", "bear", 2)]
    assert result.state.objects["knight"].damage == 0


def test_510_4_participation_recorded_as_the_first_step_began(early_engine: Engine) -> None:
    """510.4 / 702.7c (XMage #10232): a creature that had the early ability as
    the first step began deals no damage in the second even if it loses it; one
    that gains it afterwards still deals its damage in the second."""
    state = early_engine.game(["alice", "bob"], [
        early_engine.creature("knight", "alice", 2, 2, "t-early"),
        creature("orc", "alice", 2, 2), creature("other", "alice", 1, 1)])
    result = early_engine.resolve(
        state, {"knight": "bob", "orc": "bob", "other": "bob"}, {},
        actions=[("first_strike_damage", Revoke("knight", "t-early")),
                 ("first_strike_damage", Grant("orc", "t-early"))])
    assert damage(result.events, "first_strike_damage") == [("knight", "bob", 2)]
    assert sorted(damage(result.events, "combat_damage")) == [("orc", "bob", 2),
                                                              ("other", "bob", 1)]


def test_510_4_deals_damage_again_read_from_current_abilities(early_engine: Engine) -> None:
    """510.4 / 702.4c-d via redzone_deals_combat_damage: a creature that still
    has the ability deals damage in both steps; one that lost it doesn't."""
    state = early_engine.game(["alice", "bob"], [
        early_engine.creature("twin", "alice", 2, 2, "t-twice"),
        early_engine.creature("lost", "alice", 3, 3, "t-twice")])
    result = early_engine.resolve(state, {"twin": "bob", "lost": "bob"}, {},
                                  actions=[("first_strike_damage", Revoke("lost", "t-twice"))])
    assert sorted(damage(result.events, "first_strike_damage")) == [("lost", "bob", 3),
                                                                    ("twin", "bob", 2)]
    assert damage(result.events, "combat_damage") == [("twin", "bob", 2)]
    assert result.state.players["bob"].life == 13


def test_510_4_priority_between_the_two_steps(early_engine: Engine) -> None:
    """510.3 / 510.4: players get priority after the first combat damage step;
    an effect then changes the second step."""
    state = early_engine.game(["alice", "bob"], [
        early_engine.creature("knight", "alice", 2, 2, "t-early"),
        creature("orc", "alice", 2, 2)])
    result = early_engine.resolve(state, {"knight": "bob", "orc": "bob"}, {},
                                  actions=[("first_strike_damage", Pump("orc", 3, 0))])
    assert damage(result.events, "combat_damage") == [("orc", "bob", 5)]


def test_510_4_step_api_commands(early_engine: Engine) -> None:
    """510.4: the step API reports the first step next, then the second."""
    state = early_engine.game(["alice", "bob"], [
        early_engine.creature("knight", "alice", 2, 2, "t-early"), creature("orc", "alice", 2, 2)])
    state = early_engine.declare_attackers(state, {"knight": "bob", "orc": "bob"}).state
    state = early_engine.declare_blockers(state, {}).state
    assert early_engine.next_step(state) == "first_strike_damage"
    step, duties = early_engine.damage_duties(state)
    assert (step, [d.source for d in duties]) == ("first_strike_damage", ["knight"])
    state = early_engine.combat_damage(state).state
    assert early_engine.next_step(state) == "combat_damage"
    step, duties = early_engine.damage_duties(state)
    assert (step, [d.source for d in duties]) == ("combat_damage", ["orc"])
    state = early_engine.combat_damage(state).state
    assert early_engine.next_step(state) == "end_of_combat"
    assert state.combat is not None and state.combat.dealt == frozenset({"knight", "orc"})


def test_510_2_squadron_hawk_example(bare_engine: Engine) -> None:
    """510.2 example: Mogg Fanatic blocks Goblin Piker and is sacrificed during
    the declare blockers step to deal 1 damage to Squadron Hawk: the Hawk is
    destroyed; the Piker deals and is dealt no combat damage. Left on the
    battlefield, Fanatic and Piker deal lethal damage to one another, and the
    Hawk can't be dealt damage: there is no priority between assigning and
    dealing combat damage."""
    state = bare_engine.game(["alice", "bob"], [
        creature("hawk", "alice", 1, 1, name="Squadron Hawk"),
        creature("piker", "alice", 2, 1, name="Goblin Piker"),
        creature("fanatic", "bob", 1, 1, name="Mogg Fanatic")])
    attacks, blocks = {"hawk": "bob", "piker": "bob"}, {"fanatic": "piker"}
    sacrificed = bare_engine.resolve(state, attacks, blocks, actions=[
        ("declare_blockers", LeaveBattlefield("fanatic")),
        ("declare_blockers", DealDamage("fanatic", "hawk", 1))])
    assert sacrificed.state.objects["hawk"].zone == "graveyard"
    assert damage(sacrificed.events, "combat_damage") == []
    assert sacrificed.state.objects["piker"].zone == "battlefield"
    assert sacrificed.state.players["bob"].life == 20

    kept = bare_engine.resolve(state, attacks, blocks)
    assert sorted(damage(kept.events)) == [("fanatic", "piker", 1), ("hawk", "bob", 1),
                                           ("piker", "fanatic", 2)]
    assert kept.state.objects["piker"].zone == kept.state.objects["fanatic"].zone == "graveyard"
    with pytest.raises(IllegalActionError):
        bare_engine.resolve(state, attacks, blocks, actions=[
            ("combat_damage_assigned", DealDamage("fanatic", "hawk", 1))])


def test_117_5_state_based_actions_after_each_action(bare_engine: Engine,
                                                     simple: GameState) -> None:
    """117.5 / 704.3: state-based actions are performed before a player gets
    priority again: a creature shrunk to 0 toughness dies in the window."""
    result = bare_engine.resolve(simple, {"orc": "bob"}, {"bear": "orc"},
                                 actions=[("declare_blockers", Pump("bear", 0, -3))])
    events = [(e.kind, e.step, e.rule) for e in result.events]
    assert ("dies", "declare_blockers", "704.5f") in events
    assert damage(result.events) == []
    assert result.state.players["bob"].life == 20


def test_priority_windows_in_every_step(bare_engine: Engine, simple: GameState) -> None:
    """507.2, 508.2, 509.2, 510.3, 511.1: actions happen in the window after
    each step's turn-based action, in order."""
    result = bare_engine.resolve(simple, {"orc": "bob"}, {}, actions=[
        ("beginning_of_combat", Pump("orc", 1, 0)),
        ("declare_attackers", Pump("orc", 1, 0)),
        ("declare_blockers", Pump("orc", 1, 0)),
        ("combat_damage", DealDamage("bear", "bob", 1)),
        ("end_of_combat", DealDamage("bear", "bob", 1))])
    assert damage(result.events, "combat_damage") == [("orc", "bob", 5), ("bear", "bob", 1)]
    assert damage(result.events, "end_of_combat") == [("bear", "bob", 1)]
    assert result.state.players["bob"].life == 13
    assert [e.kind for e in result.events if e.kind == "pump"] == ["pump"] * 3


def test_511_3_end_of_combat_removes_everything_from_combat() -> None:
    """511.3 via redzone_end_of_combat: as the end of combat step ends, all
    creatures are removed from combat and the plugins are told."""
    seen: list[GameState] = []
    engine = Engine(discover=False, plugins=[plugin(
        "watch", redzone_end_of_combat=lambda state: seen.append(state))])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           creature("bear", "bob", 1, 3)])
    result = engine.resolve(state, {"orc": "bob"}, {"bear": "orc"})
    assert result.state.combat is None
    assert result.state.step == "postcombat_main"
    assert seen == [result.state]
    assert [(e.kind, e.rule) for e in result.events[-2:]] == [("step", "511.1"),
                                                              ("end_of_combat", "511.3")]
    assert result.before == state
    # Damage stays marked until cleanup (120.6, 514.2).
    assert result.state.objects["bear"].damage == 2


def test_510_4_gaining_the_early_ability_in_the_only_step_adds_no_step(
        early_engine: Engine) -> None:
    """510.4: only "if at least one attacking or blocking creature has first
    strike ... as the combat damage step begins" does the phase get two
    combat damage steps. With none, the one step is the regular one; "after
    that step, the phase proceeds to the end of combat step", even if a
    creature gains the ability during it: no further damage step is added."""
    state = early_engine.game(["alice", "bob"], [creature("knight", "alice", 2, 2),
                                                 creature("wall", "bob", 0, 5)])
    state = early_engine.declare_attackers(state, {"knight": "bob"}).state
    state = early_engine.declare_blockers(state, {"wall": "knight"}).state
    assert early_engine.next_step(state) == "combat_damage"
    state = early_engine.combat_damage(state).state
    state = early_engine.perform(state, Grant("knight", "t-early")).state
    assert early_engine.next_step(state) == "end_of_combat"
    with pytest.raises(IllegalActionError):
        early_engine.combat_damage(state)
    result = early_engine.resolve(
        early_engine.game(["alice", "bob"], [creature("knight", "alice", 2, 2),
                                             creature("wall", "bob", 0, 5)]),
        {"knight": "bob"}, {"wall": "knight"},
        actions=[("combat_damage", Grant("knight", "t-early"))])
    assert result.steps == ("beginning_of_combat", "declare_attackers", "declare_blockers",
                            "combat_damage", "end_of_combat")
    assert damage(result.events) == [("knight", "wall", 2)]
    assert result.state.objects["wall"].damage == 2
