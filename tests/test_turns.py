"""More turns: the beginning phase (502-504), durations that belong to a
player, shared team turns (805.4) and [[turns]] in scenario files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    AddEffect,
    Cast,
    CreateDelayedTrigger,
    Effect,
    Engine,
    GainControl,
    GainLife,
    GameState,
    IllegalActionError,
    LoseLife,
    Permanent,
    Player,
    Pump,
    Tap,
    Trigger,
)
from redzone.formats.outcome import run_file
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.model import DelayedTrigger
from redzone.kernel.plans import CombatPlan, TurnPlan
from redzone.testing import plugin_module

EXAMPLES = Path(__file__).resolve().parent.parent / "core" / "redzone" / "examples"


@pytest.fixture
def engine() -> Engine:
    return Engine()


def _after_turn(engine: Engine, *perms: Permanent) -> GameState:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("orc", "alice", 2, 2, tapped=True),
                                           c("bear", "bob", 2, 2, tapped=True), *perms])
    return engine.resolve(state, {}, through="cleanup").state


def test_502_3_a_doesnt_untap_effect_keeps_a_permanent_tapped_once(engine: Engine) -> None:
    """502.3, 701.43a: redzone_keeps_tapped (the kernel's doesnt_untap effect
    lasting next_untap_step) keeps the bear tapped in bob's next untap step
    only; the effect ends as that step ends."""
    state = _after_turn(engine)
    state = engine.perform(state, AddEffect(Effect("doesnt_untap", player="bob", to="bear",
                                                   duration="next_untap_step"))).state
    out = engine.untap_step(state)
    assert out.state.active_player == "bob" and out.state.objects["bear"].tapped
    assert not out.state.effects
    assert [e.object for e in out.events if e.kind == "untap"] == []


def test_502_3_alice_untap_step_does_not_end_bobs_effect(engine: Engine) -> None:
    """502.3: an effect for bob's next untap step survives alice's."""
    state = _after_turn(engine)
    state = engine.perform(state, AddEffect(Effect("doesnt_untap", player="bob", to="bear",
                                                   duration="next_untap_step"))).state
    out = engine.untap_step(state, "alice")
    assert len(out.state.effects) == 1 and out.state.objects["bear"].tapped
    assert not out.state.objects["orc"].tapped


def test_502_3_302_6_a_permanent_untaps_in_its_controllers_untap_step_not_its_owners(
        engine: Engine) -> None:
    """502.3: "the active player determines which permanents they control
    will untap"; 302.6: a creature can attack once its controller has
    controlled it continuously since their most recent turn began. Alice
    gained control of bob's bear in bob's turn: in her untap step it untaps
    and is no longer summoning sick; in bob's next one, bob (its owner, not
    its controller) doesn't untap it."""
    state = engine.game(["alice", "bob"], [engine.creature("bear", "bob", 2, 2)],
                        active_player="bob")
    state = engine.perform(state, [GainControl("bear", "alice"), Tap("bear")]).state
    bear = state.objects["bear"]
    assert (bear.owner, bear.controller, bear.tapped, bear.summoning_sick) == (
        "bob", "alice", True, True)
    alices = engine.begin_turn(engine.end_turn(state).state, draw=False)
    bear = alices.state.objects["bear"]
    assert alices.state.active_player == "alice"
    assert (bear.controller, bear.tapped, bear.summoning_sick) == ("alice", False, False)
    assert [e.object for e in alices.events if e.kind == "untap"] == ["bear"]
    tapped = engine.perform(alices.state, Tap("bear")).state
    bobs = engine.begin_turn(engine.end_turn(tapped).state, draw=False)
    assert bobs.state.active_player == "bob" and bobs.state.objects["bear"].tapped


def test_611_2a_until_your_next_turn_ends_as_that_players_turn_begins(engine: Engine) -> None:
    """500.4/611.2a: "until your next turn" (alice's) lasts through bob's turn
    and ends as alice's next turn begins."""
    state = _after_turn(engine)
    state = engine.perform(state, AddEffect(Effect("double_damage", player="alice",
                                                   duration="until_your_next_turn"))).state
    bobs = engine.begin_turn(state, draw=False).state
    assert len(bobs.effects) == 1
    alices = engine.begin_turn(engine.end_turn(bobs).state, draw=False)
    assert not alices.state.effects
    assert any(e.kind == "effect_ends" and e.rule == "500.4" for e in alices.events)


def test_611_2a_your_is_the_controller_of_the_spell_not_of_what_it_affects(
        engine: Engine) -> None:
    """611.2a: alice casts "target creature gets -2/-0 until your next turn"
    on bob's ogre: "your" is alice, the spell's controller, so the effect
    lasts through bob's turn and ends as alice's next turn begins."""
    spell = engine.permanent("spell", "alice", types=("instant",), zone="hand")
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "bob", 3, 3), spell])
    state = engine.perform(state, Cast("spell", effects=(
        Pump("ogre", -2, 0, duration="until_your_next_turn"),))).state
    assert state.objects["ogre"].power == 1
    bobs = engine.begin_turn(engine.end_turn(state).state, draw=False)
    assert bobs.state.active_player == "bob"
    assert bobs.state.objects["ogre"].power == 1
    assert not [e for e in bobs.events if e.kind == "effect_ends"]
    alices = engine.begin_turn(engine.end_turn(bobs.state).state, draw=False)
    assert alices.state.objects["ogre"].power == 3
    assert [e.rule for e in alices.events if e.kind == "effect_ends"] == ["500.4"]


def test_503_1a_an_upkeep_delayed_trigger(engine: Engine) -> None:
    """503.1a: a delayed trigger "at the beginning of the next upkeep" fires
    in the upkeep and resolves (auto_triggers)."""
    state = _after_turn(engine)
    state = state.evolve(delayed=(DelayedTrigger("upkeep", "grow", "orc", "alice",
                                                 actions=(Pump("orc", 1, 1),)),))
    out = engine.begin_turn(state, through="upkeep")
    assert out.state.step == "upkeep" and not out.state.delayed
    assert out.state.objects["orc"].power == 3


def test_504_1_the_active_player_draws_and_704_5b_empty_library_loses(engine: Engine) -> None:
    """504.1: bob draws his library's top card; with an empty library he loses
    at the next state-based check (704.5b)."""
    c = engine.creature
    cub = c("cub", "bob", 2, 2).evolve(zone="library")
    state = _after_turn(engine, cub)
    out = engine.begin_turn(state)
    assert out.state.objects["cub"].zone == "hand" and out.state.step == "main"
    empty = engine.begin_turn(_after_turn(engine))
    assert empty.state.game_over is not None and empty.state.game_over.losers == ("bob",)
    assert empty.state.players["bob"].loss_rule == "704.5b"


def test_103_8a_draw_false_skips_the_draw(engine: Engine) -> None:
    """103.8a: the draw can be skipped (the first player's first turn)."""
    out = engine.begin_turn(_after_turn(engine), draw=False)
    assert out.state.game_over is None and out.state.step == "main"


def test_500_1_steps_in_order_and_refused_out_of_order(engine: Engine) -> None:
    """500.1/501.1: upkeep follows the untap step, the draw step the upkeep;
    one out of order is refused and changes nothing."""
    state = _after_turn(engine)
    with pytest.raises(IllegalActionError):
        engine.upkeep(state)
    with pytest.raises(IllegalActionError):
        engine.begin_turn(state, through="combat")
    untapped = engine.untap_step(state).state
    with pytest.raises(IllegalActionError):
        engine.draw_step(untapped)
    assert engine.next_step(untapped) == "upkeep"


def test_resolve_turns_label_steps_with_at_n(engine: Engine) -> None:
    """500.1: the second turn's steps are labelled @2; its beginning phase
    runs before its combat."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("orc", "alice", 2, 2), c("bear", "bob", 2, 2),
                                           c("cub", "bob", 1, 1).evolve(zone="library")])
    result = engine.resolve(state, {"orc": "bob"}, turns=[TurnPlan(CombatPlan({"bear": "alice"}))])
    assert result.steps[7:] == ("untap@2", "upkeep@2", "draw@2", "beginning_of_combat@2",
                                "declare_attackers@2", "declare_blockers@2",
                                "combat_damage@2", "end_of_combat@2", "end_step@2",
                                "cleanup@2")
    assert "combat_damage@2" in result.after_steps and "cleanup@2" in result.after_steps
    assert result.state.players["alice"].life == 18


def test_files_turns_and_exert_example() -> None:
    """701.43a through a file: the exerted tiger stays tapped in alice's next
    untap step; the bear untaps (502.3)."""
    data = run_file(EXAMPLES / "exert.toml")
    assert data["permanents"]["tiger"]["tapped"] is True
    assert data["permanents"]["bear"]["tapped"] is False
    assert "untap@3" in data["steps"]


def test_805_4_the_next_team_untaps_and_each_of_its_players_draws(engine: Engine) -> None:
    """805.4, 810.2, 504.1: in shared team turns the next team is active; both
    of its players' permanents untap (502.3) and each of them draws (504.1);
    the other team's stay tapped and draw nothing."""
    c = engine.creature
    teams = {"red": ["alice", "carol"], "blue": ["bob", "dave"]}
    state = engine.game(["alice", "bob", "carol", "dave"], [
        c("orc", "alice", 2, 2, tapped=True), c("bear", "bob", 2, 2, tapped=True),
        c("wolf", "dave", 2, 2, tapped=True),
        c("b1", "bob", 1, 1).evolve(zone="library"), c("d1", "dave", 1, 1).evolve(zone="library"),
        c("c1", "carol", 1, 1).evolve(zone="library")],
        teams=teams, turn_order=["alice", "bob", "carol", "dave"])
    out = engine.begin_turn(engine.resolve(state, {}, through="cleanup").state)
    after = out.state
    assert after.active_player == "bob" and after.game_over is None
    assert not after.objects["bear"].tapped and not after.objects["wolf"].tapped
    assert after.objects["orc"].tapped
    assert {o: after.objects[o].zone for o in ("b1", "d1", "c1")} == {
        "b1": "hand", "d1": "hand", "c1": "library"}


def test_turns_errors_name_the_problem(tmp_path: Path) -> None:
    """Bad input: an unknown step after which a turn's action happens is a bad
    scenario naming the key; a turn that is no TurnPlan is a bad query."""
    from redzone import BadQueryError, ScenarioError
    from redzone.formats.scenario import load
    bad = tmp_path / "bad.toml"
    bad.write_text('active_player = "alice"\n[players.alice]\n[players.bob]\n'
                   '[combat]\nattacks = {}\n[[turns]]\nattacks = {}\n'
                   '[[turns.actions]]\nafter = "upkep"\ndo = "gain_life"\nplayer = "bob"\n'
                   'amount = 1\n')
    with pytest.raises(ScenarioError) as info:
        load(bad)
    assert "turns[0].actions[0].after" in str(info.value) and "upkeep" in str(info.value)
    engine = Engine()
    state = engine.game(["alice", "bob"], [])
    with pytest.raises(BadQueryError, match="TurnPlan"):
        engine.resolve(state, {}, turns=[CombatPlan({})])  # type: ignore[list-item]


@settings(max_examples=15, deadline=None)
@given(turns=st.integers(min_value=1, max_value=3), exert_it=st.booleans())
def test_a_state_after_turns_round_trips_and_exert_holds(turns: int, exert_it: bool) -> None:
    """Invariant: after any number of turns the state serialises and reads
    back equal; an exerted attacker is tapped after alice's next untap step
    exactly when it was exerted (701.43a) and the game goes on while every
    library has a card for each draw (504.1)."""
    engine = Engine()
    c = engine.creature
    library = [c(f"card{i}", p, 1, 1).evolve(zone="library")
               for i, p in enumerate(["bob", "alice"] * 2)]
    state = engine.game(["alice", "bob"], [c("tiger", "alice", 3, 3, "exert"), *library])
    result = engine.resolve(state, {"tiger": "bob"},
                            choices={"exert:tiger": "yes" if exert_it else "no"},
                            turns=[TurnPlan(CombatPlan({})) for _ in range(turns)])
    after = result.state
    assert after.game_over is None
    assert state_from_dict(state_to_dict(after)) == after
    if turns >= 2:
        assert after.objects["tiger"].tapped is exert_it


def test_103_8a_the_first_player_skips_the_first_draw_in_a_two_player_game(
        engine: Engine) -> None:
    """103.8a: with first_turn the board's turn runs its beginning phase: the
    tapped orc untaps (502.3) and alice, first in a two-player game, doesn't
    draw (an empty library costs her nothing); 103.8c: with three players she
    draws."""
    c = engine.creature
    two = engine.game(["alice", "bob"], [c("orc", "alice", 2, 2, tapped=True)])
    result = engine.resolve(two, {"orc": "bob"}, first_turn=True)
    # (the skipped draw step is passed as though it didn't exist: 500.11)
    assert result.steps[:4] == ("untap", "upkeep", "beginning_of_combat", "declare_attackers")
    assert result.state.game_over is None and result.state.players["bob"].life == 18
    assert not any(e.kind == "draw" for e in result.events)
    three = engine.game(["alice", "bob", "carol"], [
        c("orc", "alice", 2, 2), c("kit", "alice", 1, 1).evolve(zone="library")])
    drawn = engine.resolve(three, {}, first_turn=True).state
    assert drawn.objects["kit"].zone == "hand"
    assert engine.resolve(three, {}).state.objects["kit"].zone == "library"


def test_first_turn_from_a_file(tmp_path: Path) -> None:
    """103.8a through a file: first_turn = true runs the beginning phase and
    skips the draw; a value that is no boolean is a bad scenario naming it."""
    from redzone import ScenarioError
    from redzone.formats.scenario import load
    text = ('active_player = "alice"\nfirst_turn = true\n[players.alice]\n[players.bob]\n'
            '[[permanents]]\nid = "orc"\ncontroller = "alice"\npower = 2\ntoughness = 2\n'
            'tapped = true\n[combat]\nattacks = { orc = "bob" }\n')
    good = tmp_path / "first.toml"
    good.write_text(text)
    data = run_file(good)
    assert data["steps"][:3] == ["untap", "upkeep", "beginning_of_combat"]  # 500.11
    assert data["players"]["bob"]["life"] == 18 and data["game_over"] is None
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("first_turn = true", 'first_turn = "yes"'))
    with pytest.raises(ScenarioError, match="first_turn"):
        load(bad)


LIBRARY_OUT = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "ogre"
controller = "bob"
power = 3
toughness = 3
[combat]
attacks = { bear = "bob" }
[[turns]]
attacks = { ogre = "alice" }
"""


def test_704_5b_a_later_turns_steps_events_and_end_carry_its_label(tmp_path: Path) -> None:
    """504.1, 121.4, 704.5b: bob draws from an empty library in his turn (the
    file's second) and loses at once (104.2a). The game ended in ``draw@2``:
    ``steps`` ends with it, ``game_over`` names it, and every event of the
    second turn names its step as ``steps`` does (``@2``), so that each
    can be matched to it; the first turn's keep their plain names."""
    path = tmp_path / "library.toml"
    path.write_text(LIBRARY_OUT, encoding="utf-8")
    out = run_file(path)
    assert out["ok"] is True
    assert out["steps"][-1] == out["game_over"]["step"] == "draw@2"
    assert out["game_over"]["losers"] == ["bob"] and out["game_over"]["rule"] == "104.2a"
    turn = next(i for i, e in enumerate(out["events"]) if e["kind"] == "turn")
    first, second = out["events"][:turn], out["events"][turn:]
    assert all("@" not in e["step"] for e in first)
    assert second and all(e["step"].endswith("@2") for e in second)
    assert {e["step"] for e in second} <= set(out["steps"])


def test_800_4m_a_left_players_next_turn_effect_ends_as_that_turn_would_have_begun(
        engine: Engine) -> None:
    """800.4m: an effect lasting until the next turn of a player who left the
    game lasts until that turn would have begun: neither at once nor for
    ever. Bob's "until your next turn" doubling outlives his leaving in
    alice's turn, and ends as carol's turn begins (bob's would have come
    between), so carol's 2/2 deals alice 2, not 4."""
    state = engine.game(["alice", Player("bob", life=1), "carol"], [
        engine.creature("orc", "alice", 2, 2), engine.creature("wolf", "carol", 2, 2)])
    state = engine.perform(state, AddEffect(Effect("double_damage", player="bob",
                                                   duration="until_your_next_turn"))).state
    state = engine.perform(state, LoseLife("bob", 1)).state
    assert state.players["bob"].lost and len(state.effects) == 1  # not at once
    state = engine.resolve(state, {"orc": "carol"}, {}, through="cleanup").state
    assert state.players["carol"].life == 16 and len(state.effects) == 1  # alice's turn
    out = engine.begin_turn(state, draw=False)
    assert out.state.active_player == "carol" and not out.state.effects
    assert [(e.kind, e.rule) for e in out.events if e.kind == "effect_ends"] == [
        ("effect_ends", "800.4m")]
    state = engine.resolve(out.state, {"wolf": "alice"}, {}).state
    assert state.players["alice"].life == 18


def test_514_2_a_this_combat_effect_made_after_combat_ends_by_the_cleanup_step(
        engine: Engine) -> None:
    """511.2, 514.2: "this combat" is the turn's combat: an effect lasting
    "this combat" made after that combat is over (in the postcombat main
    phase) can't outlast the turn: it has ended by the cleanup step at the
    latest, with the "until end of turn" and "this turn" ones, and the bear
    is a 2/2 again, with nothing left on it."""
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
    state = engine.declare_attackers(state, {}).state
    state = engine.finish(engine.end_of_combat(state).state).state
    assert state.step == "postcombat_main" and state.combat is None
    state = engine.perform(state, Pump("bear", 2, 2, duration="this_combat")).state
    out = engine.end_turn(state)
    bear = out.state.objects["bear"]
    assert (bear.power, bear.toughness, bear.modifications) == (2, 2, ())
    bobs = engine.begin_turn(out.state, draw=False).state
    assert (bobs.objects["bear"].power, bobs.objects["bear"].toughness) == (2, 2)


def _cleanup_pump(engine: Engine) -> GameState:
    """alice's bear, with "at the beginning of the next cleanup step, the
    bear gets +3/+3 until end of turn", through the end step."""
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
    state = engine.perform(state, CreateDelayedTrigger(
        "cleanup", (Pump("bear", 3, 3),), source="bear", controller="alice")).state
    return engine.end_step(state).state


def test_514_3a_without_auto_triggers_the_cleanup_step_waits_for_the_stack() -> None:
    """514.3a: an ability triggered in the cleanup step goes on the stack and
    players get priority; "once the stack is empty ... another cleanup step
    begins". With auto_triggers off the step stops with the ability on the
    stack; resolving it empties the stack, and the next cleanup step ends the
    "until end of turn" pump it gave (514.2), before the next turn."""
    engine = Engine(auto_triggers=False)
    out = engine.cleanup(_cleanup_pump(engine))
    assert (out.state.step, len(out.state.stack)) == ("cleanup", 1)
    assert [e.kind for e in out.events].count("step") == 1
    resolved = engine.resolve_trigger(out.state)
    assert not resolved.state.stack
    assert resolved.state.objects["bear"].power == 2
    assert [(e.kind, e.rule) for e in resolved.events if e.kind in ("step", "effect_ends")] == [
        ("step", "514.1"), ("effect_ends", "514.2")]
    bobs = engine.begin_turn(resolved.state, draw=False).state
    assert bobs.objects["bear"].power == 2


def test_514_3a_a_host_that_resolves_the_ability_itself_begins_the_next_cleanup() -> None:
    """514.3a: a host engine that takes the ability off redzone's stack and
    resolves it itself then begins the next cleanup step, which ends the
    pump; another cleanup step can't begin while the stack holds anything."""
    engine = Engine(auto_triggers=False)
    paused = engine.cleanup(_cleanup_pump(engine)).state
    with pytest.raises(IllegalActionError):
        engine.cleanup(paused)
    trigger = paused.stack[0]
    state = engine.remove_trigger(paused, trigger.id).state
    state = engine.perform(state, Pump("bear", 3, 3)).state  # the host resolves it
    out = engine.cleanup(state)
    assert out.state.objects["bear"].power == 2
    assert ("effect_ends", "514.2") in [(e.kind, e.rule) for e in out.events]


def test_514_3a_end_turn_without_auto_triggers_resolves_and_cleans_up_again() -> None:
    """514.3a: end_turn with auto_triggers off resolves what waits and runs
    the cleanup steps that follow: the pump is over when the turn is."""
    engine = Engine(auto_triggers=False)
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
    state = engine.perform(state, CreateDelayedTrigger(
        "cleanup", (Pump("bear", 3, 3),), source="bear", controller="alice")).state
    out = engine.end_turn(state)
    assert not out.state.stack
    assert out.state.objects["bear"].power == 2


# ---------------------------------------------------------------------------
# 502.4, 503.1a: nobody gets priority in the untap step
# ---------------------------------------------------------------------------


def _refresh(state: GameState, events: tuple[Any, ...]) -> list[Trigger]:
    """"Whenever this creature becomes untapped, you gain 1 life" (a test
    ability of every creature with the keyword "refresh")."""
    out = []
    for e in events:
        perm = state.objects.get(e.object or "") if e.kind == "untap" else None
        if perm is not None and perm.has("refresh"):
            out.append(Trigger("refresh", perm.id, perm.controller, "603.2",
                               actions=(GainLife(perm.controller, 1),)))
    return out


def _refresh_engine() -> Engine:
    return Engine(plugins=[plugin_module("refresh", "refresh", redzone_triggers=_refresh)])


def _refresh_board(engine: Engine) -> GameState:
    c = engine.creature
    state = engine.game(["bob", "alice"], [
        c("orc", "alice", 2, 2, "refresh", tapped=True),
        c("elf", "alice", 1, 1, "refresh", tapped=True)])
    state = engine.resolve(state, {}, through="cleanup").state
    return state.evolve(delayed=(DelayedTrigger("upkeep", "grow", "orc", "alice",
                                                actions=(Pump("orc", 1, 1),)),))


def test_502_4_what_triggers_in_the_untap_step_waits_for_the_upkeep() -> None:
    """502.4: "No player receives priority during the untap step ... Any
    ability that triggers during this step will be held until the next time
    a player would receive priority": after alice's untap step her two
    untap triggers are held, not on the stack, and nothing resolved."""
    engine = _refresh_engine()
    state = _refresh_board(engine)
    out = engine.untap_step(state)
    assert out.state.step == "untap" and out.state.active_player == "alice"
    assert out.state.stack == ()
    assert sorted(t.source for t in out.state.held) == ["elf", "orc"]
    assert not [e for e in out.events if e.kind == "trigger"]
    assert out.state.players["alice"].life == 20
    # What is held is part of the state: it round-trips with it.
    assert state_from_dict(state_to_dict(out.state)) == out.state


def test_503_1a_held_and_upkeep_triggers_go_on_the_stack_together() -> None:
    """503.1a: "Any abilities that triggered during the untap step and any
    abilities that triggered at the beginning of the upkeep are put onto the
    stack before the active player gets priority; the order in which they
    triggered doesn't matter": alice orders all three in one choice, and
    her answer decides the stack (the first put there resolves last)."""
    engine = Engine(plugins=[plugin_module("refresh", "refresh", redzone_triggers=_refresh)],
                    auto_triggers=False)
    state = engine.untap_step(_refresh_board(engine)).state
    (order,) = [c for c in engine.choices_for(state, "upkeep") if c.key == "order@alice"]
    assert order.rule == "603.3b"
    assert sorted(order.options) == ["grow@orc", "refresh@elf", "refresh@orc"]
    answer = ["refresh@orc", "grow@orc", "refresh@elf"]
    out = engine.upkeep(state, choices={"order@alice": answer})
    assert out.state.held == ()
    assert [f"{t.kind}@{t.source}" for t in out.state.stack] == answer
    assert [e.rule for e in out.events if e.kind == "trigger"] == ["603.3b"] * 3


def test_502_4_704_3_no_state_based_actions_in_the_untap_step() -> None:
    """704.3, 502.4: state-based actions are checked only when a player would
    receive priority: a 0/0 kept alive by bob's "until your next turn"
    +0/+1 loses it as bob's turn begins (500.4), and is put into the
    graveyard as the upkeep begins, not in the untap step."""
    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("orc", "alice", 2, 2),
                                           c("wisp", "bob", 0, 0)])
    state = engine.perform(state, Pump("wisp", 0, 1, duration="until_your_next_turn"),
                           ).state
    assert state.objects["wisp"].zone == "battlefield"
    state = engine.resolve(state, {}, through="cleanup").state
    untapped = engine.untap_step(state)
    assert untapped.state.active_player == "bob"
    assert untapped.state.objects["wisp"].zone == "battlefield"
    upkeep = engine.upkeep(untapped.state)
    assert upkeep.state.objects["wisp"].zone == "graveyard"
    assert [(e.object, e.rule) for e in upkeep.events if e.kind == "dies"] == [
        ("wisp", "704.5f")]


def test_502_4_704_3_an_action_in_the_untap_step_waits_for_priority_too() -> None:
    """502.4, 704.3: an action a host performs in the untap step (an effect
    of the step) is followed by no state-based actions and what it triggers
    is held: alice at 0 life loses as the upkeep begins, not in the untap
    step (704.5a)."""
    engine = _refresh_engine()
    state = engine.untap_step(_refresh_board(engine)).state
    out = engine.perform(state, LoseLife("alice", 20))
    assert out.state.players["alice"].life == 0 and out.state.game_over is None
    assert out.state.stack == () and len(out.state.held) == 2
    upkeep = engine.upkeep(out.state)
    assert upkeep.state.game_over is not None
    assert upkeep.state.players["alice"].lost


def test_500_2_the_upkeep_begins_with_an_empty_stack() -> None:
    """500.2, 502.4: nothing is on the stack as the upkeep begins (nobody
    could put it there in the untap step): a state that says otherwise is
    refused, and nothing changes."""
    engine = _refresh_engine()
    state = engine.untap_step(_refresh_board(engine)).state
    odd = state.evolve(stack=(Trigger("refresh", "orc", "alice", "603.2", id="t9"),))
    with pytest.raises(IllegalActionError) as caught:
        engine.upkeep(odd)
    assert caught.value.rule == "500.2"
    assert engine.upkeep(state).state.step == "upkeep"


def test_603_7c_111_7_a_ceased_token_a_delayed_trigger_is_bound_to_keeps_its_id(
        engine: Engine) -> None:
    """603.7c, 111.7: a delayed trigger bound to a token that ceased to
    exist keeps the token's id from being reused as turns begin (a new
    token with that id would be a different object it must not affect)."""
    from redzone import CreateToken, Exile

    c = engine.creature
    state = engine.game(["alice", "bob"], [c("orc", "alice", 2, 2)])
    state = engine.perform(state, CreateToken(c("tok", "alice", 1, 1))).state
    (token,) = [o for o in state.objects if o != "orc"]
    state = engine.perform(state, CreateDelayedTrigger(
        "upkeep", (Pump(token, 5, 5),), source="orc", controller="alice")).state
    state = engine.perform(state, Exile(token)).state
    state = engine.resolve(state, {}, through="cleanup").state
    after = engine.untap_step(state).state
    assert token in after.objects and after.delayed


def test_502_4_a_saved_state_holds_abilities_only_in_the_untap_step() -> None:
    """502.4, 503.1a: abilities are held only in the untap step (they go on
    the stack at the upkeep): a saved state at another step that holds some
    is refused, naming the key, and one in the untap step is read back."""
    from redzone.formats.serialize import StateFormatError

    engine = _refresh_engine()
    untap = engine.untap_step(_refresh_board(engine)).state
    assert state_from_dict(state_to_dict(untap)) == untap
    data = state_to_dict(untap)
    data["step"] = "main"
    with pytest.raises(StateFormatError) as caught:
        state_from_dict(data)
    assert "held" in str(caught.value) and "502.4" in str(caught.value)
