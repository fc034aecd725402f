"""Afflict (CR 702.130): "Whenever this creature becomes blocked, defending player
loses N life" (702.130a); each instance triggers separately (702.130b). It triggers
once as the creature goes from unblocked to blocked (509.3c)."""

from __future__ import annotations

import pytest
import redzone_keywords.afflict as afflict
from redzone import (
    BecomeBlocked,
    Engine,
    GameState,
    Grant,
    LeaveBattlefield,
    MakeBlock,
    Permanent,
)
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def attacked(engine: Engine, *keywords: str, extra: tuple[Permanent, ...] = (),
             players: tuple[str, ...] = ("alice", "bob"), target: str = "bob") -> GameState:
    """A 3/3 with ``keywords`` ("minotaur") attacks ``target``; bob has two 2/2s."""
    c = engine.creature
    state = engine.game(list(players), [c("minotaur", "alice", 3, 3, *keywords),
                                        c("x", "bob", 2, 2), c("y", "bob", 2, 2), *extra])
    return engine.declare_attackers(state, {"minotaur": target}).state


def test_702_130a_blocked_the_defending_player_loses_n_life(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "afflict 2"), {"x": "minotaur"})
    assert out.state.players["bob"].life == 18
    assert [(e.kind, e.player, e.amount) for e in out.events if e.kind == "life_loss"] == [
        ("life_loss", "bob", 2)]
    assert out.state.players["alice"].life == 20


def test_509_3c_blocked_by_two_creatures_it_triggers_once(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "afflict 2"),
                                  {"x": "minotaur", "y": "minotaur"})
    assert out.state.players["bob"].life == 18


def test_702_130a_unblocked_it_does_not_trigger(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "afflict 2"), {})
    assert out.state.players["bob"].life == 20
    assert engine.combat_damage(out.state).state.players["bob"].life == 17  # combat only


def test_702_130b_each_instance_triggers_separately(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "afflict 1", "afflict 2"),
                                  {"x": "minotaur"})
    assert [e.kind for e in out.events].count("trigger") == 2
    assert out.state.players["bob"].life == 17


def test_702_130a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_blockers(attacked(manual, "afflict 3"), {"x": "minotaur"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.targets,
            trigger.amount, trigger.rule) == (
        "afflict", "minotaur", "alice", ("bob",), 3, "702.130a")
    assert state.players["bob"].life == 20
    assert manual.resolve_trigger(state).state.players["bob"].life == 17
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.players["bob"].life == 20


def test_702_130a_the_life_loss_happens_after_the_creature_left(manual: Engine) -> None:
    """The ability exists independently of its source once triggered; its defending
    player was fixed when it attacked (508.5)."""
    state = manual.declare_blockers(attacked(manual, "afflict 3"), {"x": "minotaur"}).state
    state = manual.perform(state, LeaveBattlefield("minotaur")).state
    assert manual.resolve_trigger(state).state.players["bob"].life == 17


def test_506_2_the_defending_player_of_an_attacked_planeswalker(engine: Engine) -> None:
    jace = engine.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 4})
    state = attacked(engine, "afflict 2", extra=(jace,), target="jace")
    out = engine.declare_blockers(state, {"y": "minotaur"})
    assert out.state.players["bob"].life == 18
    assert out.state.objects["jace"].loyalty == 4


def test_506_2_in_multiplayer_only_its_defending_player_loses_life(engine: Engine) -> None:
    c = engine.creature
    state = attacked(engine, "afflict 2", extra=(c("z", "carol", 1, 1),),
                     players=("alice", "bob", "carol"), target="carol")
    out = engine.declare_blockers(state, {"z": "minotaur"})
    assert out.state.players["carol"].life == 18
    assert out.state.players["bob"].life == 20


def test_509_3c_made_blocked_by_an_effect_it_triggers_once(engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine, "afflict 2"), {}).state
    once = engine.perform(state, BecomeBlocked("minotaur")).state
    assert once.players["bob"].life == 18
    twice = engine.perform(once, BecomeBlocked("minotaur")).state
    assert twice.players["bob"].life == 18
    blocker = engine.perform(twice, MakeBlock("x", "minotaur")).state
    assert blocker.players["bob"].life == 18


def test_509_3c_a_creature_made_to_block_an_unblocked_attacker_triggers(
        engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine, "afflict 2"), {}).state
    assert engine.perform(state, MakeBlock("x", "minotaur")).state.players["bob"].life == 18


def test_509_3f_afflict_gained_after_it_became_blocked_does_not_trigger(
        engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine), {"x": "minotaur"}).state
    assert engine.perform(state, Grant("minotaur", "afflict 2")).state.players[
        "bob"].life == 20


class TestAfflictConformance(KeywordConformance):
    """The conformance kit's invariants hold with afflict on generated boards."""

    plugin = afflict
    max_examples = 10


def test_119_3_afflicts_life_loss_names_its_source(engine: Engine) -> None:
    """119.3, 702.130a: the life a blocked afflict creature makes the defending
    player lose is lost from its trigger, so the ``life_loss`` event names the
    creature as its source (the contract's ``life_loss`` (player, amount,
    source))."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("ghoul", "alice", 2, 2, "afflict 3"),
                                           c("wall", "bob", 0, 4)])
    out = engine.resolve(state, {"ghoul": "bob"}, {"wall": "ghoul"})
    losses = [(e.player, e.amount, e.source) for e in out.events if e.kind == "life_loss"]
    assert losses == [("bob", 3, "ghoul")]
