"""Combat damage steps as a hook (510.4 generalised), how much a creature
assigns (510.1a) and "as though it weren't blocked" (510.1b-c), with
in-test plugins.

The kernel knows the regular combat damage step only; plugins declare the
others (redzone_damage_steps) and say who deals damage in each
(redzone_deals_combat_damage: any False -> no, else any True -> yes, else the
kernel's answer).
"""

from __future__ import annotations

import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    DamageStep,
    Engine,
    GameState,
    Grant,
    IllegalAssignmentError,
    KeywordSpec,
    LeaveBattlefield,
    PluginLoadError,
    Pump,
    Revoke,
    creature,
)
from redzone.testing import plugin_module as plugin


def damage(events: Any, step: str | None = None) -> list[tuple[str, str, int]]:
    return [(e.source, e.target, e.amount) for e in events
            if e.kind == "damage" and (step is None or e.step == step)]


STEPS = ("beginning_of_combat", "declare_attackers", "declare_blockers")


# ---------------------------------------------------------------------------
# 510.4 generalised: declaring steps
# ---------------------------------------------------------------------------


def _steps_plugin(name: str, *steps: DamageStep) -> types.ModuleType:
    return plugin(name, redzone_damage_steps=lambda: list(steps))


@pytest.mark.parametrize("steps,problem", [
    ((DamageStep("early", -1, "510.4"),), "ends in '_damage'"),
    ((DamageStep("Early_damage", -1, "510.4"),), "ends in '_damage'"),
    ((DamageStep("combat_damage", 1, "510"),), "the kernel"),
    ((DamageStep("zero_damage", 0, "510"),), "order 0"),
    ((DamageStep("one_damage", -1, "510.4"), DamageStep("one_damage", -2, "510.4")),
     "declares it as"),
    ((DamageStep("one_damage", -1, "510.4"), DamageStep("two_damage", -1, "510.4")),
     "no two steps share an order"),
    ((DamageStep("odd_damage", True, "510.4"),), "whole number"),  # type: ignore[arg-type]
])
def test_bad_step_declarations_are_load_errors(steps: tuple[DamageStep, ...],
                                               problem: str) -> None:
    """510.4: the steps come in one order; a declaration that breaks it, or
    takes the regular step's name or place, is a load error naming the plugin."""
    with pytest.raises(PluginLoadError) as info:
        Engine(discover=False, plugins=[_steps_plugin("stepper", *steps)])
    assert info.value.plugin == "stepper" and problem in str(info.value)


def test_identical_declarations_from_two_plugins_count_once(engine: Engine) -> None:
    """510.4, 702.4b, 702.7b: first strike and double strike both declare the
    first-strike step; it is one step."""
    assert [(s.name, s.order) for s in engine.damage_steps] == [
        ("first_strike_damage", -1), ("combat_damage", 0)]
    only_double = Engine(block=["first_strike"])
    assert [s.name for s in only_double.damage_steps] == ["first_strike_damage",
                                                          "combat_damage"]
    assert [s.name for s in Engine(discover=False).damage_steps] == ["combat_damage"]


def test_first_strike_step_needs_double_strike_alone(engine: Engine) -> None:
    """702.4b / 510.4: with first strike's plugin blocked, a double striker
    still gets the first step, and deals damage in both."""
    only_double = Engine(block=["first_strike"])
    state = only_double.game(["alice", "bob"], [
        only_double.creature("twin", "alice", 2, 2, "double strike")])
    result = only_double.resolve(state, {"twin": "bob"})
    assert result.steps == (*STEPS, "first_strike_damage", "combat_damage", "end_of_combat")
    assert result.state.players["bob"].life == 16


# Two early steps and the kernel's default: a creature that dealt damage in
# any earlier step doesn't deal damage in the regular one (510.4, 702.7c).
TWO_EARLY = plugin(
    "two_early",
    redzone_keywords=lambda: [KeywordSpec("t-alpha", "510.4"), KeywordSpec("t-beta", "510.4")],
    redzone_damage_steps=lambda: [DamageStep("beta_damage", -1, "510.4"),
                                  DamageStep("alpha_damage", -2, "510.4")],
    redzone_deals_combat_damage=lambda state, creature, step: True if (
        (step == "alpha_damage" and state.objects[creature].has("t-alpha"))
        or (step == "beta_damage" and state.objects[creature].has("t-beta"))) else None,
)


def test_steps_come_in_order_and_record_who_dealt_damage() -> None:
    """510.4 for any step kind: the declared steps come in order of their
    ``order``, each with its creatures; the kernel records who dealt damage in
    which step, and by default the regular step takes only the creatures that
    dealt none earlier."""
    engine = Engine(discover=False, plugins=[TWO_EARLY])
    state = engine.game(["alice", "bob"], [
        engine.creature("a", "alice", 1, 1, "t-alpha"),
        engine.creature("b", "alice", 2, 2, "t-beta"),
        engine.creature("ab", "alice", 3, 3, "t-alpha", "t-beta"),
        creature("plain", "alice", 4, 4)])
    result = engine.resolve(state, {"a": "bob", "b": "bob", "ab": "bob", "plain": "bob"})
    assert result.steps == (*STEPS, "alpha_damage", "beta_damage", "combat_damage",
                            "end_of_combat")
    assert sorted(damage(result.events, "alpha_damage")) == [("a", "bob", 1), ("ab", "bob", 3)]
    assert sorted(damage(result.events, "beta_damage")) == [("ab", "bob", 3), ("b", "bob", 2)]
    assert damage(result.events, "combat_damage") == [("plain", "bob", 4)]
    combat = result.after_steps["combat_damage"].combat
    assert combat is not None and dict(combat.damage_steps) == {
        "alpha_damage": frozenset({"a", "ab"}), "beta_damage": frozenset({"b", "ab"}),
        "combat_damage": frozenset({"plain"})}


def test_a_step_without_creatures_does_not_happen() -> None:
    """510.4: a declared step happens only if some creature deals combat
    damage in it as it would begin; the regular step always happens."""
    engine = Engine(discover=False, plugins=[TWO_EARLY])
    state = engine.game(["alice", "bob"], [engine.creature("b", "alice", 2, 2, "t-beta")])
    result = engine.resolve(state, {"b": "bob"})
    assert result.steps == (*STEPS, "beta_damage", "combat_damage", "end_of_combat")
    assert damage(result.events, "combat_damage") == []


def test_the_step_is_asked_as_it_would_begin(engine: Engine) -> None:
    """510.4 "as the combat damage step begins": first strike granted after
    blockers are declared still gives the combat its first step."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           creature("bear", "bob", 2, 2)])
    result = engine.resolve(state, {"orc": "bob"}, {"bear": "orc"},
                            actions=[("declare_blockers", Grant("orc", "first strike"))])
    assert result.steps == (*STEPS, "first_strike_damage", "combat_damage", "end_of_combat")
    assert result.state.objects["bear"].zone == "graveyard"
    assert result.state.objects["orc"].damage == 0


def test_any_false_wins_over_true(engine: Engine) -> None:
    """The combination: any False -> no. A plugin that says a double striker
    deals no damage in the regular step beats double strike's True (702.4b)."""
    lazy = plugin("lazy", redzone_deals_combat_damage=lambda creature, step: False if (
        creature == "twin" and step == "combat_damage") else None)
    with_lazy = Engine(plugins=[lazy])
    state = with_lazy.game(["alice", "bob"], [
        with_lazy.creature("twin", "alice", 2, 2, "double strike")])
    result = with_lazy.resolve(state, {"twin": "bob"})
    assert damage(result.events, "first_strike_damage") == [("twin", "bob", 2)]
    assert damage(result.events, "combat_damage") == []
    plain = engine.resolve(engine.game(["alice", "bob"], [
        engine.creature("twin", "alice", 2, 2, "double strike")]), {"twin": "bob"})
    assert damage(plain.events, "combat_damage") == [("twin", "bob", 2)]


def test_702_4c_d_and_702_7c_with_the_real_keywords(engine: Engine) -> None:
    """702.4c: removing double strike in the first step stops the second hit;
    702.4d: giving double strike to a first striker allows it; 702.7c: giving
    first strike after the first step doesn't keep a creature out of the
    second."""
    state = engine.game(["alice", "bob"], [
        engine.creature("twin", "alice", 1, 1, "double strike"),
        engine.creature("knight", "alice", 2, 2, "first strike"),
        creature("orc", "alice", 4, 4)])
    result = engine.resolve(state, {"twin": "bob", "knight": "bob", "orc": "bob"}, actions=[
        ("first_strike_damage", Revoke("twin", "double strike")),
        ("first_strike_damage", Grant("knight", "double strike")),
        ("first_strike_damage", Grant("orc", "first strike"))])
    assert sorted(damage(result.events, "first_strike_damage")) == [
        ("knight", "bob", 2), ("twin", "bob", 1)]
    assert sorted(damage(result.events, "combat_damage")) == [
        ("knight", "bob", 2), ("orc", "bob", 4)]


def test_sixth_second_step_by_assignment(engine: Engine) -> None:
    """310.5 of 1999-2009: the second step takes the creatures that didn't
    assign combat damage in the first: a 0-power first striker pumped after
    the first step assigns in the second (unlike 510.4 today)."""
    sixth = Engine("sixth")
    for eng, expected in ((sixth, 17), (engine, 20)):
        state = eng.game(["alice", "bob"], [eng.creature("knight", "alice", 0, 2,
                                                         "first strike"),
                                            eng.creature("twin", "alice", 0, 1,
                                                         "double strike")])
        result = eng.resolve(state, {"knight": "bob", "twin": "bob"},
                             actions=[("first_strike_damage", Pump("knight", 3, 0))])
        assert result.state.players["bob"].life == expected, eng.rules


# ---------------------------------------------------------------------------
# 510.1a: how much a creature assigns
# ---------------------------------------------------------------------------

DORAN = plugin(
    "doran",
    redzone_combat_damage_amount=lambda state, creature: (
        state.objects[creature].toughness if any(
            p.name == "Doran, the Siege Tower" and p.zone == "battlefield"
            for p in state.objects.values()) else None),
)
#: Laccolith Grunt after its ability resolved: "assigns no combat damage this turn".
QUIET = frozenset({"grunt"})
GRUNT = plugin(
    "grunt",
    redzone_combat_damage_amount=lambda creature: 0 if creature in QUIET else None,
)


def test_510_1a_doran_assigns_toughness_rather_than_power() -> None:
    """510.1a with Doran, the Siege Tower: each creature assigns combat damage
    equal to its toughness; a 0/4 wall kills a 3/3, an unblocked 1/5 deals 5."""
    engine = Engine(plugins=[DORAN])
    state = engine.game(["alice", "bob"], [
        creature("doran", "bob", 0, 5, name="Doran, the Siege Tower"),
        creature("ogre", "alice", 3, 3), creature("elder", "alice", 1, 5),
        creature("wall", "bob", 0, 4)])
    result = engine.resolve(state, {"ogre": "bob", "elder": "bob"}, {"wall": "ogre"})
    assert sorted(damage(result.events)) == [("elder", "bob", 5), ("ogre", "wall", 3),
                                             ("wall", "ogre", 4)]
    assert result.state.objects["ogre"].zone == "graveyard"
    _step, duties = engine.damage_duties(engine.declare_blockers(
        engine.declare_attackers(state, {"ogre": "bob"}).state, {"wall": "ogre"}).state)
    assert {d.source: d.power for d in duties} == {"ogre": 3, "wall": 4}


def test_510_1a_an_assignment_must_add_up_to_the_amount() -> None:
    """510.1a: the assignment adds up to the amount the creature assigns (its
    toughness under Doran), and the message says it isn't its power."""
    engine = Engine(plugins=[DORAN])
    state = engine.game(["alice", "bob"], [
        creature("doran", "bob", 0, 5, name="Doran, the Siege Tower"),
        creature("elder", "alice", 1, 5)])
    state = engine.declare_blockers(engine.declare_attackers(state, {"elder": "bob"}).state,
                                    {}).state
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, {"elder": {"bob": 1}})
    (v,) = info.value.violations
    assert v.rule == "510.1a" and "assigns 5 combat damage (not its power, 1)" in v.message
    assert engine.assignment_violations(state, {"elder": {"bob": 1}}) == (v,)


def test_510_1a_assigns_no_combat_damage_this_turn() -> None:
    """510.1a with Laccolith Grunt ("assigns no combat damage this turn"): it
    assigns none; an assignment that names an amount for it is illegal, not
    silently dropped; an empty one is fine."""
    engine = Engine(plugins=[GRUNT])
    grunt = creature("grunt", "alice", 2, 2, name="Laccolith Grunt")
    state = engine.game(["alice", "bob"], [grunt, creature("bear", "bob", 2, 2)])
    result = engine.resolve(state, {"grunt": "bob"}, {"bear": "grunt"})
    assert damage(result.events) == [("bear", "grunt", 2)]
    assert not [e for e in result.events if e.kind == "assign" and e.source == "grunt"]
    ready = engine.declare_blockers(engine.declare_attackers(state, {"grunt": "bob"}).state,
                                    {"bear": "grunt"}).state
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(ready, {"grunt": {"bear": 2}})
    (v,) = info.value.violations
    assert v.rule == "510.1a" and "assigns no combat damage" in v.message
    assert engine.assignment_violations(ready, {"grunt": {"bear": 2}}) == (v,)
    assert engine.combat_damage(ready, {"grunt": {}}).state.objects["bear"].damage == 0
    assert engine.combat_damage(ready, {"grunt": {"bear": 0}}).state.objects["bear"].damage == 0


def test_510_1a_no_damage_wins_over_toughness() -> None:
    """Combined: the smallest answer, so "assigns no combat damage" beats
    Doran's "equal to its toughness"."""
    engine = Engine(plugins=[DORAN, GRUNT])
    grunt = creature("grunt", "alice", 2, 2, name="Laccolith Grunt")
    state = engine.game(["alice", "bob"], [
        creature("doran", "bob", 0, 5, name="Doran, the Siege Tower"), grunt])
    result = engine.resolve(state, {"grunt": "bob"})
    assert damage(result.events) == []


def test_510_1a_an_entry_for_a_creature_of_another_step_is_not_for_it(engine: Engine) -> None:
    """510.4: ``assign`` is used in each step; an entry for a creature that
    doesn't deal damage in this step is ignored there (not an error)."""
    state = engine.game(["alice", "bob"], [
        engine.creature("knight", "alice", 2, 2, "first strike"), creature("orc", "alice", 3, 3)])
    result = engine.resolve(state, {"knight": "bob", "orc": "bob"},
                            assign={"knight": {"bob": 2}, "orc": {"bob": 3}})
    assert result.state.players["bob"].life == 15


# ---------------------------------------------------------------------------
# 510.1b-c: "as though it weren't blocked"
# ---------------------------------------------------------------------------

THORN = plugin(
    "thorn",
    redzone_may_assign_as_though_unblocked=lambda state, attacker: (
        state.objects[attacker].name == "Thorn Elemental") or None,
)


@pytest.fixture
def thorn_engine() -> Engine:
    return Engine(plugins=[THORN])


def _blocked(engine: Engine, *keywords: str, blockers: int = 1) -> GameState:
    perms = [engine.creature("thorn", "alice", 7, 7, *keywords, name="Thorn Elemental")]
    perms += [creature(f"bear{i}", "bob", 2, 2) for i in range(1, blockers + 1)]
    state = engine.game(["alice", "bob"], perms)
    state = engine.declare_attackers(state, {"thorn": "bob"}).state
    return engine.declare_blockers(state, {f"bear{i}": "thorn"
                                           for i in range(1, blockers + 1)}).state


def test_510_1c_default_assigns_as_blocked(thorn_engine: Engine) -> None:
    """510.1c: the choice is the attacking player's; redzone's default
    assigns as blocked."""
    state = thorn_engine.combat_damage(_blocked(thorn_engine)).state
    assert state.objects["bear1"].zone == "graveyard"
    assert state.players["bob"].life == 20


def test_510_1b_all_to_the_player_as_though_unblocked(thorn_engine: Engine) -> None:
    """510.1b: assigning all of it to the player it attacks is the "as though
    it weren't blocked" choice; the blocker is dealt nothing."""
    out = thorn_engine.combat_damage(_blocked(thorn_engine), {"thorn": {"bob": 7}})
    assert out.state.players["bob"].life == 13
    assert out.state.objects["bear1"].damage == 0


def test_510_1c_a_mixed_assignment_is_a_blocked_one(thorn_engine: Engine) -> None:
    """510.1c: anything other than all to the player is an ordinary blocked
    assignment: without trample, damage to the player is illegal; with
    trample, it follows trample's lethal-first rule (702.19b)."""
    state = _blocked(thorn_engine)
    with pytest.raises(IllegalAssignmentError) as info:
        thorn_engine.combat_damage(state, {"thorn": {"bear1": 2, "bob": 5}})
    assert [v.rule for v in info.value.violations] == ["510.1c"]
    # The message says what is legal: all 7 to bob, or among the blockers
    # (bob is not one of its recipients when the damage is split).
    assert info.value.violations[0].message == (
        "Thorn Elemental (thorn) can't assign damage to bob with other recipients: it "
        "assigns all 7 to bob (as though it weren't blocked) or among its legal "
        "recipients: bear1")
    trampler = _blocked(thorn_engine, "trample", blockers=2)
    with pytest.raises(IllegalAssignmentError) as info:
        thorn_engine.combat_damage(trampler, {"thorn": {"bear1": 2, "bob": 5}})
    assert [v.rule for v in info.value.violations] == ["702.19b"]
    out = thorn_engine.combat_damage(trampler, {"thorn": {"bob": 7}})
    assert out.state.players["bob"].life == 13


def test_510_1c_without_the_ability_the_player_is_no_recipient(engine: Engine) -> None:
    """510.1c: a blocked creature without the ability can't assign to the
    player."""
    state = _blocked(engine)
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, {"thorn": {"bob": 7}})
    assert [v.rule for v in info.value.violations] == ["510.1c"]


def test_510_1c_no_blocker_left_assigns_as_though_unblocked(thorn_engine: Engine,
                                                            engine: Engine) -> None:
    """510.1c: with its blocker gone, a blocked creature assigns no combat
    damage, unless it may assign as though it weren't blocked: by default it
    then does (the only way it deals damage)."""
    for eng, life in ((thorn_engine, 13), (engine, 20)):
        state = eng.perform(_blocked(eng), LeaveBattlefield("bear1")).state
        assert eng.combat_damage(state).state.players["bob"].life == life, eng


def test_510_4_a_creature_entering_attacking_after_the_first_step(engine: Engine) -> None:
    """510.4, 508.4: a creature put onto the battlefield attacking after the
    first-strike step had neither ability as that step began: it deals its
    damage in the regular step (and the first-strike step's window is a
    combat step where it may enter attacking)."""
    from redzone import CreateToken

    state = engine.game(["alice", "bob"], [
        engine.creature("knight", "alice", 2, 2, "first strike")])
    token = creature("soldier", "alice", 1, 1, token=True)
    result = engine.resolve(state, {"knight": "bob"}, actions=[
        ("first_strike_damage", CreateToken(token, attacking="bob"))])
    assert damage(result.events, "combat_damage") == [("soldier", "bob", 1)]
    assert result.state.players["bob"].life == 17


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(((), ("first strike",), ("double strike",),
                                           ("first strike", "double strike"))),
                          st.integers(0, 3)), min_size=1, max_size=5))
def test_510_4_each_creature_deals_damage_in_the_steps_its_abilities_say(
        engine: Engine, creatures: list[tuple[tuple[str, ...], int]]) -> None:
    """510.4, 702.4b, 702.7b as an invariant: unblocked attackers with any mix
    of first strike and double strike: the first step exists iff one of them
    has either ability; a double striker deals damage in both steps, a first
    striker in the first only, the others in the regular one only."""
    perms = [engine.creature(f"c{i}", "alice", power, 4, *kws)
             for i, (kws, power) in enumerate(creatures)]
    result = engine.resolve(engine.game(["alice", "bob"], perms),
                            {p.id: "bob" for p in perms})
    early = any(kws for kws, _ in creatures)
    assert ("first_strike_damage" in result.steps) == early
    for i, (kws, power) in enumerate(creatures):
        steps = {e.step for e in result.events if e.kind == "damage" and e.source == f"c{i}"}
        expected = ({"first_strike_damage", "combat_damage"} if "double strike" in kws
                    else {"first_strike_damage"} if kws else {"combat_damage"})
        assert steps == (expected if power else set()), (kws, power)
    hits = sum(power * (2 if "double strike" in kws else 1) for kws, power in creatures)
    assert result.state.players["bob"].life == 20 - hits


def test_505_1a_events_of_a_declared_step_in_a_second_combat_carry_its_label(
        engine: Engine) -> None:
    """505.1a, 510.4: in an additional combat phase every step is labelled
    ``#2``, a plugin's damage step too: its damage events say
    ``first_strike_damage#2``, as the combat's list of steps does."""
    from redzone.kernel.engine import CombatPlan

    state = engine.game(["alice", "bob"], [
        creature("knight", "alice", 2, 2, "first strike", "vigilance")])
    result = engine.resolve(state, attacks={"knight": "bob"},
                            additional_combats=[CombatPlan(attacks={"knight": "bob"})])
    assert "first_strike_damage#2" in result.steps
    assert damage(result.events, "first_strike_damage#2") == [("knight", "bob", 2)]
    assert damage(result.events, "first_strike_damage") == [("knight", "bob", 2)]
    labels = {e.step for e in result.events}
    assert labels <= set(result.steps) | {"main", "postcombat_main"}, labels - set(result.steps)
