"""The kernel owns time: durations (611.2, 514.2, 511.2), delayed triggered
abilities (603.7), a plugin's own state, the turn around combat (302.6, 502,
513, 514, 500.8), the end of the game (104, 800.4a) and the stack between
steps (500.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Action,
    AddEffect,
    Condition,
    CreateDelayedTrigger,
    DealDamage,
    Effect,
    Engine,
    Event,
    GainControl,
    GainLife,
    GameState,
    Grant,
    IllegalActionError,
    LoseLife,
    Player,
    PluginError,
    PluginState,
    Prevent,
    Pump,
    Sacrifice,
    Trigger,
    creature,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.testing import plugin_module as plugin


def to_main2(engine: Engine, state: GameState) -> GameState:
    """Through a combat in which nothing attacks, to the postcombat main phase."""
    state = engine.declare_attackers(state, {}).state
    state = engine.end_of_combat(state).state
    return engine.finish(state).state


# -- durations (611.2) ----------------------------------------------------------------


def test_514_2_until_end_of_turn_ends_in_cleanup(engine: Engine) -> None:
    """514.2: "until end of turn" effects end, and marked damage is removed,
    in the cleanup step, at the same time; each with an event."""
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2, damage=1)])
    state = engine.perform(state, Pump("bear", 3, 3)).state
    state = engine.perform(state, Grant("bear", "flying")).state
    state = to_main2(engine, state)
    assert (state.objects["bear"].power, state.objects["bear"].has("flying")) == (5, True)
    out = engine.end_turn(state)
    bear = out.state.objects["bear"]
    assert (bear.power, bear.toughness, bear.damage, bear.has("flying")) == (2, 2, 0, False)
    ends = [(e.kind, e.rule, e.step) for e in out.events if e.rule == "514.2"]
    assert ends == [("damage_removed", "514.2", "cleanup"),
                    ("effect_ends", "514.2", "cleanup"), ("effect_ends", "514.2", "cleanup")]


def test_514_2_a_pump_ending_can_kill(engine: Engine) -> None:
    """514.2 then 514.3a: a +0/+2 "until end of turn" keeps a 2/2 with two
    -1/-1 counters alive; it ends in the cleanup step, the creature's
    toughness is 0 and state-based actions put it into the graveyard (704.5f)
    in that cleanup step, so another cleanup step follows."""
    state = engine.game(["alice", "bob"], [
        creature("bear", "alice", 2, 2, counters={"-1/-1": 2})])
    state = engine.perform(state, Pump("bear", 0, 2)).state  # enters the check as a 0/2
    assert state.objects["bear"].zone == "battlefield"
    out = engine.end_turn(to_main2(engine, state))
    assert out.state.objects["bear"].zone == "graveyard"
    assert ("dies", "704.5f", "cleanup") in [(e.kind, e.rule, e.step) for e in out.events]
    # 514.3a: something happened, so another cleanup step followed.
    assert [e.step for e in out.events if e.kind == "step"].count("cleanup") == 2


def test_511_2_until_end_of_combat_ends_with_the_combat(engine: Engine) -> None:
    """511.2, 500.5a: "until end of combat" (and "this combat") effects
    "expire at the end of the combat phase", as everything is removed from
    combat (511.3); "until end of turn" ones go on."""
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2)])
    state = engine.declare_attackers(state, {}).state
    state = engine.perform(state, Pump("bear", 1, 1, duration="end_of_combat")).state
    state = engine.perform(state, Pump("bear", 2, 0, duration="this_combat")).state
    state = engine.perform(state, Pump("bear", 0, 5)).state
    state = engine.end_of_combat(state).state
    assert state.objects["bear"].power == 5
    out = engine.finish(state)
    assert (out.state.objects["bear"].power, out.state.objects["bear"].toughness) == (2, 7)
    assert [(e.kind, e.rule) for e in out.events] == [
        ("end_of_combat", "511.3"), ("effect_ends", "511.2"), ("effect_ends", "511.2")]


def test_611_2b_for_as_long_as(engine: Engine) -> None:
    """611.2b: an effect "for as long as" a condition holds ends the moment
    it stops holding (here: for as long as alice controls the thief)."""
    state = engine.game(["alice", "bob"], [creature("thief", "alice", 1, 1),
                                           creature("bear", "alice", 2, 2),
                                           creature("bolt", "bob", 3, 3)])
    cond = Condition("controls", object="thief", player="alice", text="while alice controls thief")
    state = engine.perform(state, Pump("bear", 2, 2, duration="while", condition=cond)).state
    assert state.objects["bear"].power == 4
    out = engine.perform(state, Sacrifice("thief"))
    assert out.state.objects["bear"].power == 2
    assert ("effect_ends", "611.2b") in [(e.kind, e.rule) for e in out.events]
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Pump("bear", 1, 1, duration="while"))
    assert info.value.rule == "611.2b"
    with pytest.raises(IllegalActionError):
        engine.perform(state, Pump("bear", 1, 1, duration="next_tuesday"))


def test_611_2b_a_plugin_states_a_condition() -> None:
    """A condition kind no kernel rule knows is the plugin's to answer
    (redzone_condition_holds); one no plugin answers is refused."""
    def holds(state: GameState, condition: Condition) -> bool | None:
        if condition.kind != "alice_above_10":
            return None
        return state.players["alice"].life > 10

    engine = Engine(discover=False, plugins=[plugin("above", redzone_condition_holds=holds)])
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2)])
    state = engine.perform(state, Pump("bear", 1, 0, duration="while",
                                       condition=Condition("alice_above_10"))).state
    assert state.objects["bear"].power == 3
    state = engine.perform(state, LoseLife("alice", 9)).state
    assert state.objects["bear"].power == 3
    state = engine.perform(state, LoseLife("alice", 1)).state
    assert state.objects["bear"].power == 2
    with pytest.raises(IllegalActionError, match="no loaded plugin answers"):
        engine.perform(state, Pump("bear", 1, 0, duration="while", condition=Condition("x")))


def test_615_a_prevention_shield_lasts_this_turn(engine: Engine) -> None:
    """615 and 514.2: a shield "this turn" ends in the cleanup step."""
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2)])
    state = engine.perform(state, Prevent(target="bob", amount=3)).state
    out = engine.end_turn(to_main2(engine, state))
    assert out.state.shields == ()


# -- delayed triggered abilities (603.7) ---------------------------------------------------


def test_603_7_at_end_of_combat_and_at_the_next_end_step(engine: Engine) -> None:
    """603.7: a delayed trigger triggers once, the next time its event
    happens, and goes on the stack: "at end of combat" at the beginning of the
    end of combat step (511.2), "at the beginning of the next end step" at
    the end step (513)."""
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2),
                                           creature("elf", "alice", 1, 1)])
    state = engine.perform(state, CreateDelayedTrigger(
        "end_of_combat", (Sacrifice("bear"),), source="bear", controller="alice")).state
    state = engine.perform(state, CreateDelayedTrigger(
        "end_step", (Sacrifice("elf"),), source="elf", controller="alice")).state
    assert [d.when for d in state.delayed] == ["end_of_combat", "end_step"]
    state = engine.declare_attackers(state, {}).state
    out = engine.end_of_combat(state)
    assert out.state.objects["bear"].zone == "graveyard"
    assert [e.kind for e in out.events][:3] == ["step", "trigger", "resolve"]
    assert [d.when for d in out.state.delayed] == ["end_step"]
    state = engine.finish(out.state).state
    out = engine.end_step(state)
    assert out.state.objects["elf"].zone == "graveyard" and out.state.delayed == ()


def test_603_7_when_it_leaves_the_battlefield(engine: Engine) -> None:
    """603.7, 603.6c: "when that creature leaves the battlefield" triggers on
    its zone change, once; 603.7c: what it refers to that moved isn't found."""
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2),
                                           creature("orc", "bob", 3, 3)])
    state = engine.perform(state, CreateDelayedTrigger(
        "leaves", (GainLife("alice", 4),), object="bear", source="bear",
        controller="alice")).state
    out = engine.perform(state, DealDamage("orc", "bear", 3))
    assert out.state.players["alice"].life == 24
    assert out.state.delayed == ()
    with pytest.raises(IllegalActionError):
        engine.perform(out.state, CreateDelayedTrigger("leaves", (), object="bear",
                                                       source="bear", controller="alice"))


def test_513_1_resolve_performs_actions_given_for_the_end_step(engine: Engine) -> None:
    """513.1, 117.3: ``resolve(..., through="cleanup")`` performs the actions
    given for ``end_step`` in the end step's priority window, after the
    combat; without the end step they are actions after a step that didn't
    happen, and nothing is performed."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    actions = [("end_step", GainLife("alice", 3)), ("declare_attackers", LoseLife("bob", 1))]
    result = engine.resolve(state, {"orc": "bob"}, {}, actions=actions, through="cleanup")
    assert result.state.players["alice"].life == 23
    assert result.state.players["bob"].life == 20 - 1 - 2
    gains = [e for e in result.events if e.kind == "life_gain"]
    assert [(e.step, e.player, e.amount) for e in gains] == [("end_step", "alice", 3)]
    # (after_steps holds each step as its turn-based actions left it, before
    # the actions of its window.)
    assert result.after_steps["end_step"].players["alice"].life == 20
    with pytest.raises(IllegalActionError, match="did not happen: end_step"):
        engine.resolve(state, {"orc": "bob"}, {}, actions=actions)


def test_513_2_created_during_the_end_step_waits_for_the_next_one(engine: Engine) -> None:
    """513.2: a delayed trigger "at the beginning of the next end step"
    created during an end step waits for the next turn's end step."""
    state = engine.game(["alice", "bob"], [creature("elf", "alice", 1, 1)])
    state = engine.end_step(to_main2(engine, state)).state
    state = engine.perform(state, CreateDelayedTrigger(
        "end_step", (Sacrifice("elf"),), source="elf", controller="alice")).state
    state = engine.cleanup(state).state
    assert state.objects["elf"].zone == "battlefield" and len(state.delayed) == 1
    state = engine.begin_turn(state, draw=False).state
    state = engine.end_step(to_main2(engine, state)).state
    assert state.objects["elf"].zone == "graveyard"


# -- a plugin's own state ---------------------------------------------------------------


def test_plugin_state_is_recorded_scoped_and_serialised() -> None:
    """Each plugin has its own slot (redzone_record): frozen data, kept with
    the state (snapshots, serialisation), cleared by scope: ``combat`` as
    each combat begins, ``turn`` as each turn begins."""
    def recorder(name: str, scope: str) -> Callable[..., PluginState | None]:
        def record(state: GameState, events: tuple[Event, ...]) -> PluginState | None:
            dealt = sum(e.amount or 0 for e in events if e.kind == "damage" and e.combat)
            if not dealt:
                return None
            return PluginState({"combat_damage": (state.slot(name) or {}).get(
                "combat_damage", 0) + dealt}, scope)
        return record

    engine = Engine(discover=False, plugins=[
        plugin("counter", redzone_record=recorder("counter", "turn")),
        plugin("per_combat", redzone_record=recorder("per_combat", "combat"))])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    assert state.slot("counter") == {"combat_damage": 3}
    assert state.slot("per_combat") == {"combat_damage": 3}
    assert state_from_dict(state_to_dict(state)) == state
    state = engine.finish(engine.end_of_combat(state).state).state
    assert state.slot("per_combat") == {"combat_damage": 3}  # kept until a combat begins
    state = engine.begin_combat(state).state  # a second combat keeps a "turn" slot
    assert state.slot("counter") == {"combat_damage": 3}
    assert state.slot("per_combat") is None  # ... and clears a "combat" one
    state = engine.end_turn(engine.finish(engine.end_of_combat(
        engine.declare_attackers(state, {}).state).state).state).state
    assert engine.begin_turn(state, draw=False).state.slot("counter") is None

    bad = Engine(discover=False, plugins=[plugin(
        "floaty", redzone_record=lambda: PluginState(0.5))])
    with pytest.raises((PluginError, IllegalActionError)):
        bad.declare_attackers(bad.game(["alice", "bob"]), {})


# -- the turn (302.6, 502, 513, 514) -------------------------------------------------------


def test_302_6_and_502_3_begin_turn(engine: Engine) -> None:
    """302.6: the new active player's permanents are no longer summoning sick;
    502.3: they untap; the other player's stay as they are."""
    state = engine.game(["alice", "bob"], [
        creature("orc", "alice", 2, 2, tapped=True),
        creature("bear", "bob", 2, 2, tapped=True, summoning_sick=True)])
    with pytest.raises(IllegalActionError) as info:
        engine.begin_turn(state, draw=False)
    assert info.value.rule == "500.1"
    state = engine.end_turn(to_main2(engine, state)).state
    out = engine.begin_turn(state, draw=False)
    after = out.state
    assert (after.turn, after.active_player, after.step, after.combats) == (2, "bob", "main", 0)
    assert not after.objects["bear"].tapped and not after.objects["bear"].summoning_sick
    assert after.objects["orc"].tapped
    assert [(e.kind, e.rule) for e in out.events] == [  # (draw=False: no draw step, 500.11)
        ("turn", "500.1"), ("step", "502.1"), ("untap", "502.3"), ("step", "503.1"),
        ("step", "505.1")]
    assert engine.begin_turn(state, "alice", untap=False, draw=False).state.objects["orc"].tapped


def test_500_8_an_additional_combat_phase(engine: Engine) -> None:
    """500.8, 505.1a: after a combat, another combat phase may begin; a
    creature that attacked and stayed tapped can't attack again, a vigilant one
    can; the second combat's steps are labelled ``#2``."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           engine.creature("knight", "alice", 2, 2, "vigilance")])
    result = engine.resolve(state, {"orc": "bob", "knight": "bob"})
    with pytest.raises(IllegalActionError):
        engine.declare_attackers(result.state, {"orc": "bob"})
    out = engine.declare_attackers(result.state, {"knight": "bob"})
    assert out.state.combats == 2
    assert {e.step for e in out.events} == {"beginning_of_combat#2", "declare_attackers#2"}
    second = engine.resolve(result.state, {"knight": "bob"})
    assert second.steps[0] == "beginning_of_combat#2"
    assert second.state.players["bob"].life == 14


# -- the end of the game (104, 800.4a) ------------------------------------------------------


def test_104_2a_two_players_nothing_happens_after_a_loss(engine: Engine) -> None:
    """104.2a: in a two-player game the game ends the moment a player loses;
    later commands are illegal actions citing 104.2a; a resolve stops there."""
    state = engine.game(["alice", Player("bob", life=2)], [creature("orc", "alice", 3, 3),
                                                          engine.creature(
                                                              "elf", "bob", 1, 1, "lifelink")])
    result = engine.resolve(state, {"orc": "bob"}, {},
                            actions=[("end_of_combat", GainLife("bob", 5))])
    over = result.state.game_over
    assert over is not None and (over.winners, over.losers, over.draw, over.step, over.rule) == (
        ("alice",), ("bob",), False, "combat_damage", "104.2a")
    assert result.steps[-1] == "combat_damage"
    assert result.state.players["bob"].life == -1  # the GainLife never happened
    for command in (lambda s: engine.end_of_combat(s), lambda s: engine.perform(
            s, GainLife("bob", 1)), lambda s: engine.begin_combat(s)):
        with pytest.raises(IllegalActionError) as info:
            command(result.state)
        assert info.value.rule == "104.2a"


def test_104_4a_all_lose_at_once_is_a_draw(engine: Engine) -> None:
    """104.4a: if all the players remaining lose simultaneously, it's a draw."""
    state = engine.game([Player("alice", life=1), Player("bob", life=1)], [
        creature("orc", "alice", 1, 1), creature("elf", "bob", 1, 1)])
    state = state.with_players({"alice": Player("alice", life=0), "bob": Player("bob", life=0)})
    out = engine.check_state_based_actions(state)
    over = out.state.game_over
    assert over is not None and over.draw and over.winners == () and over.rule == "104.4a"


def test_800_4a_in_multiplayer_a_loser_leaves_and_combat_goes_on(engine: Engine) -> None:
    """800.4a: with more players, a player who loses leaves the game: the
    objects they own leave it, creatures attacking them are removed from
    combat, and combat goes on for the others."""
    state = engine.game(["alice", Player("bob", life=2), "carol"], [
        creature("orc", "alice", 3, 3), creature("elf", "alice", 2, 2),
        creature("bear", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"orc": "carol", "elf": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    out = engine.combat_damage(state)
    after = out.state
    assert after.players["bob"].lost and after.game_over is None
    assert after.objects["bear"].zone == "left_game"
    assert after.combat is not None and after.combat.attacks == {"orc": "carol"}
    assert after.players["carol"].life == 17
    assert ("left_game", "800.4a") in [(e.kind, e.rule) for e in out.events]
    assert engine.end_of_combat(after).state.game_over is None


# -- 500.2: no step ends while the stack holds something -----------------------------------


PLAN: list[tuple[str, Callable[[Engine, GameState], Any]]] = [
    ("begin_combat", lambda e, s: e.begin_combat(s)),
    ("declare_attackers", lambda e, s: e.declare_attackers(s, {"orc": "bob"})),
    ("declare_blockers", lambda e, s: e.declare_blockers(s, {"bear": "orc"})),
    ("combat_damage", lambda e, s: e.combat_damage(s)),
    ("end_of_combat", lambda e, s: e.end_of_combat(s)),
    ("finish", lambda e, s: e.finish(s)),
    ("additional_combat", lambda e, s: e.begin_combat(s)),
    ("end_step", lambda e, s: e.end_step(s)),
    ("cleanup", lambda e, s: e.cleanup(s)),
    ("begin_turn", lambda e, s: e.begin_turn(s, draw=False)),
]


@pytest.mark.parametrize("command", [name for name, _ in PLAN])
def test_500_2_every_step_waits_for_the_stack(bare_engine: Engine, command: str) -> None:
    """500.2: a step ends only when the stack is empty; each transition is
    refused while a triggered ability waits, and nothing changes."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                                creature("bear", "bob", 2, 5)])
    for name, run in PLAN:
        if name == command:
            break
        if name != "additional_combat":
            state = run(bare_engine, state).state
    waiting = state.evolve(stack=(Trigger("ping", "orc", "alice", "603.2", id="t1"),))
    before = state_to_dict(waiting)
    with pytest.raises(IllegalActionError) as info:
        dict(PLAN)[command](bare_engine, waiting)
    assert info.value.rule == "500.2", (command, info.value)
    assert state_to_dict(waiting) == before
    dict(PLAN)[command](bare_engine, state)  # with the stack empty, it may proceed


# -- invariants -----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(turns=st.integers(1, 4), pumps=st.lists(st.integers(-1, 3), max_size=3))
def test_turns_round_trip_and_leave_no_effect_behind(turns: int, pumps: list[int]) -> None:
    """Every state of several whole turns round-trips through its serialised
    form, and no "until end of turn" effect or marked damage outlives its
    cleanup step (514.2)."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 5),
                                           creature("bear", "bob", 2, 5)])
    for _ in range(turns):
        for n in pumps:
            state = engine.perform(state, Pump("orc", n, n)).state
        result = engine.resolve(state, {"orc": (state.active_player == "alice" and "bob")
                                        or "alice"} if state.active_player == "alice" else {},
                                {}, through="cleanup")
        state = result.state
        for snapshot in (state, *result.after_steps.values()):
            assert state_from_dict(state_to_dict(snapshot)) == snapshot
        if state.game_over is not None:
            break  # 104.2a: the game ended in combat; no cleanup step follows
        assert all(not p.modifications and not p.damage for p in state.battlefield)
        state = engine.begin_turn(state, draw=False).state


def _scratch_conditions(state: GameState) -> list[Condition]:
    """Every "for as long as" condition, found by scanning every object."""
    found = [e.condition for e in state.effects if e.condition is not None]
    found += [s.condition for s in state.shields if s.condition is not None]
    for perm in state.objects.values():
        if perm.zone == "battlefield":
            found += [m.condition for m in perm.modifications if m.condition is not None]
    return found


def test_611_2b_the_kept_index_of_conditional_modifications_stays_exact(engine: Engine) -> None:
    """611.2b: the kernel keeps the permanents with a "for as long as"
    modification as states change (instead of scanning every object as each
    command settles); through a pump, an unrelated pump, combat damage and a
    death, it names exactly what a full scan finds."""
    state = engine.game(["alice", "bob"], [creature("thief", "alice", 1, 1),
                                           creature("bear", "alice", 2, 2),
                                           creature("ogre", "bob", 3, 3)])
    cond = Condition("controls", object="thief", player="alice", text="while alice controls thief")
    states = [state]
    state = engine.perform(state, Pump("bear", 2, 2, duration="while", condition=cond)).state
    states.append(state)
    state = engine.perform(state, Pump("ogre", 1, 1)).state  # no condition: not indexed
    states.append(state)
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = engine.declare_blockers(state, {"ogre": "bear"}).state
    states.append(state)
    state = engine.combat_damage(state).state  # the 4/4 bear and the 4/4 ogre trade
    states.append(state)
    for s in states:
        assert sorted(s.conditional) == sorted(
            p.id for p in s.objects.values() if p.zone == "battlefield"
            and any(m.condition is not None for m in p.modifications))
        assert list(s.conditions) == _scratch_conditions(s)
    assert states[1].conditional == {"bear"} and states[-1].conditional == frozenset()


@pytest.mark.parametrize("make", [
    lambda c: GainControl("wurm", "alice", duration="while", condition=c),
    lambda c: Pump("wurm", 2, 2, duration="while", condition=c),
    lambda c: Grant("wurm", ("flying",), duration="while", condition=c),
    lambda c: Prevent(target="wurm", duration="while", condition=c),
    lambda c: AddEffect(Effect("doesnt_untap", to="wurm", duration="while", condition=c)),
])
def test_611_2b_a_for_as_long_as_that_never_starts_does_nothing(
        engine: Engine, make: Callable[[Condition], Action]) -> None:
    """611.2b: "If the 'for as long as' duration never starts, the effect does
    nothing. It doesn't start and immediately stop again" (Master Thief:
    "for as long as you control Master Thief", when alice no longer does)."""
    state = engine.game(["alice", "bob"], [engine.creature("thief", "bob", 1, 1),
                                           engine.creature("wurm", "bob", 6, 4)],
                        active_player="bob")
    out = engine.perform(state, make(Condition("controls", object="thief", player="alice")))
    assert out.state.objects["wurm"] == state.objects["wurm"]
    assert (out.state.shields, out.state.effects) == ((), ())
    assert [e.kind for e in out.events] == []
