"""A battle's protector, a state-based action: "If a battle has no player in
the game designated as its protector and no attacking creatures are currently
attacking that battle, that battle's controller chooses an appropriate player
to be its protector based on its battle type. If the battle has no battle
type, its controller must be chosen. If no player can be chosen this way, the
battle is put into its owner's graveyard" (704.5x); "If a battle's protector
is a player who can't be its protector, that battle's controller chooses an
appropriate player to become its protector. If no player can be chosen this
way, the battle is put into its owner's graveyard" (704.5y). Only an opponent
of a Siege's controller can be its protector (310.12a); a battle with no
battle type is protected by its controller (310.9a); a battle's protector
can never attack it (310.9b, 506.2, 508.1b)."""

from __future__ import annotations

import pytest
from redzone import (
    DealDamage,
    Engine,
    GainControl,
    GameState,
    IllegalActionError,
    Permanent,
    Player,
)
from redzone.kernel import sba
from redzone.kernel.plans import CombatPlan

KEY = "protector@siege"


def siege(engine: Engine, controller: str = "bob", protector: str | None = "carol",
          *, subtypes: tuple[str, ...] = ("Siege",), defense: int = 5,
          id: str = "siege") -> Permanent:
    return engine.permanent(id, controller, types=["battle"], subtypes=list(subtypes),
                            counters={"defense": defense}, protector=protector)


def three(engine: Engine, *permanents: Permanent, carol_life: int = 1,
          more: tuple[str, ...] = ()) -> GameState:
    """alice (active), bob and carol (1 life), then ``more``."""
    return engine.game([Player("alice"), Player("bob"), Player("carol", life=carol_life),
                        *(Player(p) for p in more)], permanents, active_player="alice")


def protector_events(events: object) -> list[tuple[str, str, str | None, str | None]]:
    return [(e.kind, e.rule, e.object, e.player) for e in events  # type: ignore[attr-defined]
            if e.kind == "protector"]


def test_704_5x_a_siege_whose_protector_left_gets_an_opponent_of_its_controller(
        engine: Engine) -> None:
    """704.5x, 800.4a, 310.12a: carol, the protector of bob's Siege, loses
    and leaves the game; no creature attacks the Siege, so bob chooses an
    opponent of his in the game to protect it: alice, the only one (no
    choice is asked), with a ``protector`` event citing 704.5x after
    carol's ``left_game``."""
    state = three(engine, siege(engine), engine.creature("x", "bob", 1, 1))
    out = engine.perform(state, DealDamage("x", "carol", 1))
    assert out.state.players["carol"].lost
    assert out.state.objects["siege"].zone == "battlefield"
    assert out.state.objects["siege"].protector == "alice"
    assert protector_events(out.events) == [("protector", "704.5x", "siege", "alice")]
    kinds = [e.kind for e in out.events]
    assert kinds.index("left_game") < kinds.index("protector")
    event = next(e for e in out.events if e.kind == "protector")
    assert event.get("previous") == "carol"
    assert str(event).startswith("alice becomes the protector of siege")
    assert [c.key for c in out.choices if c.key.startswith("protector@")] == []


def test_704_5x_the_controller_chooses_among_two_opponents_by_default_the_next_in_turn_order(
        engine: Engine) -> None:
    """704.5x: with two opponents of bob left (dave and alice), bob chooses
    (``protector@siege``, kind ``option``, exactly one); without an answer
    the default is the next of them in turn order after bob: dave."""
    state = three(engine, siege(engine), engine.creature("x", "bob", 1, 1), more=("dave",))
    out = engine.perform(state, DealDamage("x", "carol", 1))
    assert out.state.objects["siege"].protector == "dave"
    assert protector_events(out.events) == [("protector", "704.5x", "siege", "dave")]
    made = [c for c in out.choices if c.key == KEY]
    assert len(made) == 1
    assert (made[0].player, made[0].kind, made[0].options, made[0].answer, made[0].by_default,
            made[0].rule) == ("bob", "option", ("dave", "alice"), ("dave",), True, "704.5x")


def test_704_5x_the_controller_may_choose_another_opponent(engine: Engine) -> None:
    """704.5x: bob answers ``protector@siege`` with alice: she protects it."""
    state = three(engine, siege(engine), engine.creature("x", "bob", 1, 1), more=("dave",))
    out = engine.perform(state, DealDamage("x", "carol", 1), choices={KEY: ["alice"]})
    assert out.state.objects["siege"].protector == "alice"
    assert [c.by_default for c in out.choices if c.key == KEY] == [False]


def test_704_5x_an_answer_that_is_not_an_opponent_is_illegal(engine: Engine) -> None:
    """704.5x, 310.12a: only an opponent of the Siege's controller can be
    chosen: bob naming himself is an illegal action, nothing changes."""
    state = three(engine, siege(engine), engine.creature("x", "bob", 1, 1), more=("dave",))
    with pytest.raises(IllegalActionError) as caught:
        engine.perform(state, DealDamage("x", "carol", 1), choices={KEY: ["bob"]})
    assert caught.value.rule == "704.5x"


def test_704_5x_a_battle_with_no_battle_type_gets_its_controller(engine: Engine) -> None:
    """704.5x, 310.9a: a battle that isn't a Siege (no battle type) and has
    no protector gets its controller as its protector, whoever its
    opponents are; nobody is asked."""
    state = engine.game(["alice", "bob"], [siege(engine, "bob", None, subtypes=())])
    out = engine.check_state_based_actions(state)
    assert out.state.objects["siege"].protector == "bob"
    assert protector_events(out.events) == [("protector", "704.5x", "siege", "bob")]
    assert out.choices == ()


def test_704_5y_a_siege_protected_by_a_teammate_of_its_controller_gets_an_opponent(
        engine: Engine) -> None:
    """704.5y, 310.12a, 102.3: in Two-Headed Giant, alice, bob's teammate,
    isn't an opponent of his and can't protect his Siege: bob chooses one of
    the other team (carol, then dave in turn order: by default carol)."""
    state = engine.game(["alice", "bob", "carol", "dave"], [siege(engine, "bob", "alice")],
                        teams={"ab": ["alice", "bob"], "cd": ["carol", "dave"]})
    out = engine.check_state_based_actions(state)
    assert out.state.objects["siege"].protector == "carol"
    assert protector_events(out.events) == [("protector", "704.5y", "siege", "carol")]
    assert [(c.key, c.player, c.options, c.answer, c.by_default, c.rule)
            for c in out.choices] == [(KEY, "bob", ("carol", "dave"), ("carol",), True, "704.5y")]


def test_704_5x_a_siege_with_no_protector_gets_one_as_the_state_is_first_checked(
        engine: Engine) -> None:
    """704.5x: a Siege built without a protector gets the only opponent of
    its controller at the first check of state-based actions."""
    state = engine.game(["alice", "bob"], [siege(engine, "bob", None)])
    out = engine.check_state_based_actions(state)
    assert out.state.objects["siege"].protector == "alice"
    assert protector_events(out.events) == [("protector", "704.5x", "siege", "alice")]


def test_704_5x_no_player_can_be_chosen_puts_the_battle_into_its_owners_graveyard(
        engine: Engine) -> None:
    """704.5x: a Siege whose controller has no opponent left in the game
    (carol, the only one, has left it) can't be protected by anyone: it is
    put into its owner's graveyard, citing 704.5x."""
    state = engine.game([Player("alice"), Player("bob"), Player("carol", lost=True)],
                        [siege(engine, "bob", "carol")], teams={"t1": ["alice", "bob"],
                                                                 "t2": ["carol"]})
    out = engine.check_state_based_actions(state)
    assert out.state.objects["siege"].zone == "graveyard"
    assert [(e.kind, e.rule, e.object) for e in out.events if e.object == "siege"] == [
        ("dies", "704.5x", "siege")]
    assert protector_events(out.events) == []


def test_704_5x_waits_while_creatures_attack_the_battle(engine: Engine) -> None:
    """704.5x: "no attacking creatures are currently attacking that battle":
    carol, the Siege's protector, dies to the first striker while alice's
    ogre attacks the Siege; the Siege keeps no protector in the game and the
    ogre keeps attacking it and deals it damage; only once combat is over
    (511.3) does bob's Siege get alice, his only opponent left, citing
    704.5x."""
    state = three(engine, engine.creature("striker", "alice", 1, 1, "first strike"),
                  engine.creature("ogre", "alice", 3, 3), siege(engine))
    out = engine.declare_attackers(engine.begin_combat(state).state,
                                   {"striker": "carol", "ogre": "siege"})
    out = engine.declare_blockers(out.state, {})
    out = engine.combat_damage(out.state)  # first strike: carol loses and leaves
    assert out.state.players["carol"].lost
    assert out.state.objects["siege"].protector == "carol"
    assert out.state.combat is not None and out.state.combat.attacks["ogre"] == "siege"
    assert protector_events(out.events) == []
    out = engine.combat_damage(out.state)
    assert out.state.objects["siege"].defense == 2
    assert out.state.objects["siege"].protector == "carol"
    out = engine.end_of_combat(out.state)
    assert out.state.objects["siege"].protector == "carol"  # (still attacked: 511.3 to come)
    out = engine.finish(out.state)
    assert out.state.objects["siege"].protector == "alice"
    assert protector_events(out.events) == [("protector", "704.5x", "siege", "alice")]


def test_704_5x_after_the_combat_the_new_protector_cant_attack_the_siege(
        engine: Engine) -> None:
    """704.5x, 310.9b, 508.1b: carol dies in the turn's first combat and
    alice becomes the protector of bob's Siege; in a second combat alice's
    creature can't attack the Siege she protects."""
    state = three(engine, engine.creature("a", "alice", 1, 1, "vigilance"), siege(engine))
    first = engine.resolve(state, {"a": "carol"}, {})
    assert first.state.objects["siege"].protector == "alice"
    with pytest.raises(IllegalActionError) as caught:
        engine.resolve(state, {"a": "carol"}, {},
                       additional_combats=[CombatPlan({"a": "siege"})])
    assert caught.value.rule == "508.1b"
    assert "siege" in str(caught.value)


def test_704_5y_a_siege_its_protector_gains_control_of_gets_an_opponent(
        engine: Engine) -> None:
    """704.5y, 310.12a: alice gains control of bob's Siege, which she
    protects; she can't protect a Siege she controls, so she chooses one of
    her opponents (``protector@siege``, by default bob, the next in turn
    order), citing 704.5y."""
    state = three(engine, siege(engine, "bob", "alice"), carol_life=20)
    out = engine.perform(state, GainControl("siege", "alice"))
    assert out.state.objects["siege"].controller == "alice"
    assert out.state.objects["siege"].protector == "bob"
    assert protector_events(out.events) == [("protector", "704.5y", "siege", "bob")]
    made = [c for c in out.choices if c.key == KEY]
    assert [(c.player, c.options, c.by_default, c.rule) for c in made] == [
        ("alice", ("bob", "carol"), True, "704.5y")]
    out = engine.perform(state, GainControl("siege", "alice"), choices={KEY: ["carol"]})
    assert out.state.objects["siege"].protector == "carol"


def test_704_5y_a_battle_with_no_battle_type_protected_by_another_player_gets_its_controller(
        engine: Engine) -> None:
    """704.5y, 310.9a: only its controller can protect a battle with no
    battle type: protected by alice, bob's battle gets bob."""
    state = engine.game(["alice", "bob"], [siege(engine, "bob", "alice", subtypes=())])
    out = engine.check_state_based_actions(state)
    assert out.state.objects["siege"].protector == "bob"
    assert protector_events(out.events) == [("protector", "704.5y", "siege", "bob")]


def test_704_5v_a_siege_with_0_defense_goes_and_gets_no_protector(engine: Engine) -> None:
    """704.5v, 704.5x: performed at the same time, a Siege with 0 defense
    and no protector is put into its owner's graveyard (704.5v) and gets no
    protector."""
    state = engine.game(["alice", "bob"], [siege(engine, "bob", None, defense=0)])
    out = engine.check_state_based_actions(state)
    assert out.state.objects["siege"].zone == "graveyard"
    assert [(e.kind, e.rule) for e in out.events if e.object == "siege"] == [
        ("dies", "704.5v")]


def test_a_protected_siege_and_a_board_without_battles_ask_nothing(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """704.5x-y: a Siege protected by an opponent of its controller calls
    for nothing; on a board without battles where no player leaves the
    game the battles aren't looked for (the check is gated on a battle that
    changed, or a player leaving the game)."""
    state = engine.game(["alice", "bob"], [siege(engine, "bob", "alice")])
    out = engine.check_state_based_actions(state)
    assert protector_events(out.events) == []
    assert out.state.objects["siege"].protector == "alice"
    calls: list[object] = []
    real = sba.battle_protectors
    monkeypatch.setattr(sba, "battle_protectors",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    board = engine.game([Player("alice"), Player("bob", life=0), Player("carol")],
                        [engine.creature("bear", "alice", 2, 2, damage=2)])
    out = engine.check_state_based_actions(board)
    assert [(e.kind, e.rule) for e in out.events][:2] == [("lost", "704.5a"),
                                                          ("destroyed", "704.5g")]
    assert calls == []
