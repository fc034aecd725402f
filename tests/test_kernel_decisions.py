"""Decisions a host or an AI sees in advance (issue 23, item 4), one command for
a multi-action resolution (608.2c), and change of control (613.1b, 506.4).

- 601.2, 508.1g, 603.3b, 608.2d: every player decision is a :class:`Choice`;
  ``Engine.choices_for`` lists those a command would ask, without giving it.
- 601.2: a choice key no decision asked for is refused by every command
  (:class:`UnaskedChoiceError`, naming the key and the keys asked).
- 608.2c, 704.3: a resolution's actions are performed in order, and
  state-based actions are checked once, after the last.
- 613.1b, 506.4, 302.6: gaining control of an attacking or blocking creature
  removes it from combat; it returns when the effect ends (611.2).
"""

from __future__ import annotations

import pickle

import pytest
from redzone import (
    BadQueryError,
    Combat,
    DealDamage,
    Engine,
    GainControl,
    GainLife,
    GameState,
    IllegalActionError,
    IllegalAttackError,
    LoseLife,
    Player,
    Pump,
    Tap,
    UnaskedChoiceError,
    creature,
)


def enlist_board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("knight", "alice", 2, 2, "enlist"), c("ox", "alice", 3, 3),
        c("hasty", "alice", 1, 1, "haste", summoning_sick=True),
        c("bear", "bob", 2, 2)])


def annihilator_board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("eldrazi", "alice", 10, 10, "annihilator 2"), c("bear", "bob", 2, 2),
        engine.permanent("land", "bob", types=["land"]),
        c("spirit", "bob", 1, 1, token=True)])


# -- choices listed in advance (601.2) ------------------------------------------------


def test_601_2_508_1g_enlists_cost_is_listed_before_the_declaration(engine: Engine) -> None:
    """508.1g: enlist's optional cost is a choice made as attackers are
    declared; choices_for lists it, with its options and default, before the
    declaration, and the state is untouched (no declaring twice to learn it)."""
    state = enlist_board(engine)
    snapshot = pickle.dumps(state)
    (choice,) = engine.choices_for(state, "declare_attackers", {"knight": "bob"})
    assert (choice.key, choice.player, choice.kind, choice.options, choice.default,
            choice.min, choice.max, choice.rule) == (
        "enlist:knight", "alice", "cost", ("hasty", "ox"), (), 0, 1, "702.154a")
    assert pickle.loads(snapshot) == state
    assert state.step == "main" and not state.objects["ox"].tapped
    # The listed key is the one the command answers by.
    out = engine.declare_attackers(state, {"knight": "bob"}, choices={choice.key: "ox"})
    assert out.state.objects["ox"].tapped


def test_702_86a_608_2d_annihilators_sacrifice_is_a_choice(engine: Engine) -> None:
    """702.86a: the defending player chooses what to sacrifice as the trigger
    resolves (608.2d): a Choice of bob's, exactly N of the permanents he
    controls, listed in advance and answered by its key like any other."""
    state = annihilator_board(engine)
    listed = engine.choices_for(state, "declare_attackers", {"eldrazi": "bob"})
    (choice,) = [c for c in listed if c.key == "annihilator@eldrazi:sacrifice"]
    assert (choice.player, choice.options, choice.min, choice.max, choice.default,
            choice.rule) == ("bob", ("bear", "land", "spirit"), 2, 2, ("spirit", "bear"),
                             "702.86a")
    out = engine.declare_attackers(state, {"eldrazi": "bob"},
                                   choices={choice.key: ["land", "bear"]})
    gone = sorted(o.id for o in out.state.objects.values() if o.zone != "battlefield")
    assert gone == ["bear", "land"]
    made = {m.key: m for m in out.choices}[choice.key]
    assert made.answer == ("land", "bear") and not made.by_default
    result = engine.resolve(state, {"eldrazi": "bob"}, choices={choice.key: ["land", "spirit"]})
    assert result.state.objects["bear"].zone == "battlefield"


def test_702_86a_an_illegal_sacrifice_answer_is_refused_with_the_choice(engine: Engine) -> None:
    """702.86a: three permanents for annihilator 2 is refused by the Choice's
    bounds (601.2c style check), naming its key; nothing changes."""
    state = annihilator_board(engine)
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(state, {"eldrazi": "bob"}, choices={
            "annihilator@eldrazi:sacrifice": ["land", "bear", "spirit"]})
    assert "annihilator@eldrazi:sacrifice" in str(info.value)
    assert info.value.rule == "702.86a"


def test_603_3b_later_choices_follow_the_answers_given(engine: Engine) -> None:
    """603.3b-d: what a command asks can depend on earlier answers; with the
    enlist answer given, the listing goes on past it (the reflexive trigger)
    and still lists enlist's choice first."""
    state = enlist_board(engine)
    plain = engine.choices_for(state, "declare_attackers", {"knight": "bob"})
    answered = engine.choices_for(state, "declare_attackers", {"knight": "bob"},
                                  choices={"enlist:knight": "ox"})
    assert [c.key for c in plain] == [c.key for c in answered][:1] == ["enlist:knight"]


def test_601_2_choices_for_a_trigger_waiting_and_a_refused_command(engine: Engine) -> None:
    """608.2d: with triggers left on the stack, resolve_trigger's choices are
    listed; a command that would be refused (508.1a: a creature that isn't
    there) raises its error; a name that is no command is a BadQueryError."""
    manual = Engine(auto_triggers=False)
    state = manual.declare_attackers(annihilator_board(manual), {"eldrazi": "bob"}).state
    (waiting,) = manual.pending_choices(state)
    assert manual.choices_for(state, "resolve_trigger") == (waiting,)
    with pytest.raises(IllegalAttackError):
        engine.choices_for(annihilator_board(engine), "declare_attackers", {"ghost": "bob"})
    with pytest.raises(BadQueryError, match="did you mean 'declare_attackers'"):
        engine.choices_for(state, "declare_attacker", {"eldrazi": "bob"})


# -- unasked keys are refused by every command (601.2) -----------------------------


def _at(engine: Engine, command: str) -> tuple[GameState, tuple[object, ...]]:
    """A state where ``command`` can be given, and its arguments."""
    state = enlist_board(engine)
    attacked = engine.declare_attackers(state, {"knight": "bob"}).state
    blocked = engine.declare_blockers(attacked, {}).state
    damaged = engine.combat_damage(blocked).state
    ended = engine.end_of_combat(damaged).state
    main2 = engine.finish(ended).state
    return {
        "begin_combat": (state, ()),
        "declare_attackers": (state, ({"knight": "bob"},)),
        "declare_blockers": (attacked, ({},)),
        "combat_damage": (blocked, ()),
        "end_of_combat": (damaged, ()),
        "finish": (ended, ()),
        "end_step": (main2, ()),
        "end_turn": (main2, ()),
        "cleanup": (engine.end_step(main2).state, ()),
        "perform": (state, (Tap("ox"),)),
    }[command]


@pytest.mark.parametrize("command", [
    "begin_combat", "declare_attackers", "declare_blockers", "combat_damage",
    "end_of_combat", "finish", "end_step", "cleanup", "end_turn", "perform"])
def test_601_2_every_command_refuses_a_key_no_decision_asked_for(
        engine: Engine, command: str) -> None:
    """601.2: a misspelt key used to be silently ignored by the step commands
    (the default taken); each now refuses it, naming it and the keys asked."""
    state, args = _at(engine, command)
    with pytest.raises(UnaskedChoiceError) as info:
        getattr(engine, command)(state, *args, choices={"enlist:knigth": "ox"})
    err = info.value
    assert err.unasked == ("enlist:knigth",) and err.rule == "601.2"
    assert "'enlist:knigth'" in str(err) and err.objects == ("enlist:knigth",)
    if command == "declare_attackers":
        assert err.asked == ("enlist:knight",)
        assert "(asked: enlist:knight)" in str(err)
    # The same command without the stray key is fine.
    getattr(engine, command)(state, *args)


def test_601_2_resolve_trigger_refuses_an_unasked_answer() -> None:
    """601.2: resolve_trigger's answers are checked too (its by-name
    ``choices`` set the trigger's own)."""
    manual = Engine(auto_triggers=False)
    state = manual.declare_attackers(annihilator_board(manual), {"eldrazi": "bob"}).state
    with pytest.raises(UnaskedChoiceError) as info:
        manual.resolve_trigger(state, answers={"annihilator@eldrazi:sacrifise": ["land"]})
    assert info.value.asked == ("annihilator@eldrazi:sacrifice",)


def test_601_2_resolve_shares_keys_among_its_commands(engine: Engine) -> None:
    """601.2: in resolve, a key for a later command is fine in the earlier
    ones (enlist's, asked in the declaration, passes the beginning of
    combat); one asked by none is refused at the end."""
    state = enlist_board(engine)
    result = engine.resolve(state, {"knight": "bob"}, choices={"enlist:knight": "ox"})
    assert result.state.objects["ox"].tapped
    with pytest.raises(UnaskedChoiceError) as info:
        engine.resolve(state, {"knight": "bob"}, choices={"enlist:knight": "ox", "nope": "x"})
    assert info.value.unasked == ("nope",) and "enlist:knight" in info.value.asked


# -- a multi-action resolution is one command (608.2c) -------------------------------


def test_608_2c_704_3_actions_in_order_then_one_check(engine: Engine) -> None:
    """608.2c: the instructions are followed in order; state-based actions
    are checked only after (704.3): 2 damage to a 2/2 then +0/+2 leaves it
    alive, where two separate commands kill it in between."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "bob", 2, 2), c("elf", "alice", 1, 1)])
    spell = [DealDamage("elf", "bear", 2), Pump("bear", 0, 2)]
    out = engine.perform(state, spell)
    assert out.state.objects["bear"].zone == "battlefield"
    assert [e.kind for e in out.events if e.kind in ("damage", "pump", "dies")] == [
        "damage", "pump"]
    first = engine.perform(state, spell[0])
    assert first.state.objects["bear"].zone != "battlefield"


def test_608_2c_704_5a_a_player_at_zero_mid_resolution_survives(engine: Engine) -> None:
    """704.5a is a state-based action: a player brought to 0 life and back
    to 5 by one resolution hasn't lost."""
    state = engine.game(["alice", "bob"], [])
    out = engine.perform(state, (LoseLife("bob", 20), GainLife("bob", 5)))
    assert out.state.players["bob"].life == 5 and not out.state.players["bob"].lost
    assert out.state.game_over is None


def test_608_2c_a_wrong_action_in_the_sequence_changes_nothing(engine: Engine) -> None:
    """117.1: a field of the wrong type is refused before anything is done,
    naming its place; an illegal second action (no such permanent) rolls the
    first back; an empty sequence is refused."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "bob", 2, 2)])
    with pytest.raises(BadQueryError, match="action 2 of 2"):
        engine.perform(state, [Tap("bear"), Pump("bear", "3", 0)])  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="ghost"):
        engine.perform(state, [Tap("bear"), Tap("ghost")])
    assert not state.objects["bear"].tapped
    with pytest.raises(BadQueryError, match="no action"):
        engine.perform(state, [])


# -- change of control (613.1b, 506.4) ------------------------------------------------


def _combat(state: GameState) -> Combat:
    assert state.combat is not None
    return state.combat


def combat_board(engine: Engine) -> GameState:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("giant", "alice", 4, 4), c("knight", "alice", 2, 2), c("wall", "bob", 0, 5)])
    state = engine.declare_attackers(state, {"giant": "bob", "knight": "bob"}).state
    return engine.declare_blockers(state, {"wall": "giant"}).state


def test_613_1b_506_4_gaining_control_of_an_attacker_removes_it_from_combat(
        engine: Engine) -> None:
    """506.4: a permanent whose controller changes is removed from combat;
    bob's Threaten on the attacking knight: it deals no combat damage, and is
    bob's until end of turn (302.6: not controlled since his turn began).
    The events are in causal order: the control change, then its removal
    from combat."""
    state = combat_board(engine)
    out = engine.perform(state, GainControl("knight", "bob", "end_of_turn"))
    knight = out.state.objects["knight"]
    assert knight.controller == "bob" and knight.summoning_sick
    assert not _combat(out.state).is_attacking("knight")
    assert [(e.kind, e.rule) for e in out.events] == [
        ("control", "613.1b"), ("removed_from_combat", "506.4")]
    damaged = engine.combat_damage(out.state).state
    assert damaged.players["bob"].life == 20  # the giant is blocked; the knight gone
    # 611.2, 514.2: the effect ends in the cleanup step; alice controls it again.
    ended = engine.end_turn(engine.finish(engine.end_of_combat(damaged).state).state)
    assert ended.state.objects["knight"].controller == "alice"
    assert ("control", "611.2") in [(e.kind, e.rule) for e in ended.events]


def test_613_1b_506_4_gaining_control_of_a_blocker_removes_it_from_combat(
        engine: Engine) -> None:
    """506.4: alice gains control of bob's blocking wall for the game: it
    stops blocking, the giant stays blocked (509.1h) and deals no damage to
    bob; the wall stays alice's after the turn (duration ``game``)."""
    state = combat_board(engine)
    out = engine.perform(state, GainControl("wall", "alice"))
    assert not _combat(out.state).is_blocking("wall")
    assert out.state.objects["wall"].controller == "alice"
    damaged = engine.combat_damage(out.state).state
    assert damaged.players["bob"].life == 18  # only the unblocked knight
    assert damaged.objects["wall"].damage == 0
    ended = engine.end_turn(engine.finish(engine.end_of_combat(damaged).state).state)
    assert ended.state.objects["wall"].controller == "alice"


def test_613_1b_the_latest_control_effect_wins_and_the_first_owner_returns(
        engine: Engine) -> None:
    """613.1b, 613.7: control effects apply in timestamp order; bob takes the
    knight until end of turn, then alice takes it back for the game: when
    bob's ends, alice's still applies. Control by a player not in the game is
    refused (800.4a)."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 2, 2)])
    both = engine.perform(state, [GainControl("knight", "bob", "end_of_turn"),
                                  GainControl("knight", "alice")]).state
    assert both.objects["knight"].controller == "alice"
    after = engine.end_turn(both).state
    assert after.objects["knight"].controller == "alice"
    with pytest.raises(IllegalActionError, match="'carol' is not a player") as info:
        engine.perform(state, GainControl("knight", "carol"))
    assert info.value.rule == "800.4a"


def test_800_4a_a_player_who_leaves_loses_control_effects_before_what_they_control_is_exiled(
        engine: Engine) -> None:
    """800.4a: when a player leaves the game, the effects that give them
    control of objects end first (Act of Treason's creature "reverts to
    Bianca's control"); only what they still control is then exiled. Bob
    took alice's gift until end of turn and leaves: the gift goes back to
    alice on the battlefield; bob's own bear leaves the game though carol
    controls it (it is bob's: 800.4a), and carol's wolf, which the file
    gave bob outright (no effect to end), is exiled."""
    state = engine.game(["alice", Player("bob", life=2), "carol"], [
        creature("gift", "alice", 2, 2), creature("bear", "bob", 2, 2),
        creature("wolf", "bob", 2, 2, owner="carol")])
    state = engine.perform(state, [GainControl("gift", "bob", "end_of_turn"),
                                   GainControl("bear", "carol")]).state
    out = engine.perform(state, LoseLife("bob", 2))
    objects = out.state.objects
    assert (objects["gift"].zone, objects["gift"].controller) == ("battlefield", "alice")
    assert not objects["gift"].modifications
    assert objects["bear"].zone == "left_game"
    assert (objects["wolf"].zone, objects["wolf"].owner) == ("exile", "carol")
    assert [(e.kind, e.object) for e in out.events if e.kind == "control"] == [
        ("control", "gift")]


def test_608_2d_the_sacrifice_default_is_made_as_the_trigger_resolves() -> None:
    """608.2d: the choice is made as the trigger resolves; the spirit token
    destroyed while the trigger waits, the default is the permanents bob
    controls then (bear and land), not the stale one of when it triggered."""
    from redzone import Destroy

    manual = Engine(auto_triggers=False)
    state = manual.declare_attackers(annihilator_board(manual), {"eldrazi": "bob"}).state
    (offer,) = manual.pending_choices(state)
    assert offer.default == ("spirit", "bear")
    state = manual.perform(state, Destroy("spirit")).state
    out = manual.resolve_trigger(state)
    assert [e.object for e in out.events if e.kind == "sacrificed"] == ["bear", "land"]


def test_613_7_611_2_when_one_of_three_control_effects_ends_the_latest_left_wins(
        engine: Engine) -> None:
    """613.1b, 613.7: control-changing effects apply in timestamp order, so
    the latest one that still applies decides the controller. Bob, then carol
    gain control of alice's ox for the game; dave then takes it until end of
    turn (Threaten). When dave's effect ends in the cleanup step (611.2a,
    514.2), bob's and carol's still apply: carol's is later, so carol
    controls the ox, not bob."""
    state = engine.game(["alice", "bob", "carol", "dave"], [creature("ox", "alice", 2, 2)])
    state = engine.perform(state, GainControl("ox", "bob")).state
    state = engine.perform(state, GainControl("ox", "carol")).state
    state = engine.perform(state, GainControl("ox", "dave", "end_of_turn")).state
    assert state.objects["ox"].controller == "dave"
    ended = engine.end_turn(state).state
    assert ended.objects["ox"].controller == "carol"
