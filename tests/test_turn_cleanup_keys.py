"""The choices of repeated cleanup steps, and the player whose turn begins.

514.3a: "if state-based actions are performed or abilities trigger during
the cleanup step, ... another cleanup step begins": each cleanup step makes
its own discard (514.1) and its own trigger ordering (603.3b), so within one
command their keys are numbered (``discard@alice:cleanup#2``,
``order@alice#2``) as any choice asked twice in a command is.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import BadQueryError, Engine, GameState, IllegalActionError, creature
from redzone.kernel.actions import AddTrigger, CreateDelayedTrigger, Draw, GainLife


def _hand(engine: Engine, actions: list[Any]) -> GameState:
    """Alice with eight cards in hand (one over seven, 402.2), three in her
    library, and the permanents ``x`` and ``y``; ``actions`` performed."""
    cards = [creature(f"a{i}", "alice", 1, 1, zone="hand") for i in range(8)]
    cards += [creature(f"l{i}", "alice", 1, 1, zone="library") for i in range(3)]
    cards += [creature("x", "alice", 1, 1), creature("y", "alice", 1, 1)]
    state = engine.game(["alice", "bob"], cards)
    return engine.perform(state, actions).state


def _gains(events: Any) -> list[tuple[str | None, int | None]]:
    return [(e.source, e.amount) for e in events if e.kind == "life_gain"]


def test_514_3a_each_cleanup_step_of_one_command_has_its_own_keys(engine: Engine) -> None:
    """514.3a, 514.1, 603.3b: alice discards one card in the first cleanup
    step, which triggers two written abilities; with two delayed triggers "at
    the beginning of the next cleanup step" she orders four. One draws two
    cards: a second cleanup step begins, where she discards two and orders the
    two abilities' new triggers. Each step's choices are her own: answered
    apart, as ``#2`` of the same key, each step resolves as answered."""
    state = engine.end_step(_hand(engine, [
        CreateDelayedTrigger("cleanup", (Draw("alice", 2),), source="x", controller="alice"),
        CreateDelayedTrigger("cleanup", (GainLife("alice", 3),), source="y",
                             controller="alice"),
        AddTrigger("discards", "x", (GainLife("alice", 1),), text="whenever alice discards"),
        AddTrigger("discards", "y", (GainLife("alice", 2),), text="whenever alice discards"),
    ])).state
    keys = ["discard@alice:cleanup", "order@alice", "discard@alice:cleanup#2", "order@alice#2"]
    assert [c.key for c in engine.choices_for(state, "cleanup")] == keys
    answers = {"discard@alice:cleanup": ["a0"],
               "order@alice": ["written@y", "delayed@y", "written@x", "delayed@x"],
               "discard@alice:cleanup#2": ["a1", "l1"],
               "order@alice#2": ["written@x", "written@y", "written@x#2", "written@y#2"]}
    out = engine.cleanup(state, choices=answers)
    assert [(c.key, c.answer, c.by_default) for c in out.choices] == [
        (k, tuple(answers[k]), False) for k in keys]
    after = out.state
    assert set(after.zone("alice", "graveyard")) == {"a0", "a1", "l1"}
    assert set(after.zone("alice", "hand")) == {*(f"a{i}" for i in range(2, 8)), "l0"}
    # the first put on the stack resolves last (603.3b, 608.1)
    assert _gains(out.events) == [("x", 1), ("y", 3), ("y", 2),
                                  ("y", 2), ("x", 1), ("y", 2), ("x", 1)]


def test_514_3a_an_answer_for_the_first_step_isnt_the_second_ones(engine: Engine) -> None:
    """514.1: the card chosen in the first cleanup step is in the graveyard
    when the second one's discard is asked: its key is ``#2``, so the first
    step's answer alone leaves the second at its default (the last cards
    alice got) instead of refusing the command."""
    state = engine.end_step(_hand(engine, [
        CreateDelayedTrigger("cleanup", (Draw("alice", 2),), source="x", controller="alice"),
    ])).state
    out = engine.cleanup(state, choices={"discard@alice:cleanup": ["a0"]})
    assert [(c.key, c.answer, c.by_default) for c in out.choices] == [
        ("discard@alice:cleanup", ("a0",), False),
        ("discard@alice:cleanup#2", ("l0", "l1"), True)]
    assert set(out.state.zone("alice", "graveyard")) == {"a0", "l0", "l1"}


def test_513_514_end_turn_numbers_its_keys_across_its_steps(engine: Engine) -> None:
    """513.1, 514.1, 514.3a, 603.3b: in one ``end_turn`` alice orders two
    delayed triggers of the end step, then two of the cleanup step (one
    draws two cards), and discards in two cleanup steps: the end step's
    order is ``order@alice``, the cleanup step's ``order@alice#2``, the
    discards ``discard@alice:cleanup`` and ``...#2``; each as answered."""
    state = _hand(engine, [
        CreateDelayedTrigger("end_step", (GainLife("alice", 1),), source="x",
                             controller="alice"),
        CreateDelayedTrigger("end_step", (GainLife("alice", 2),), source="y",
                             controller="alice"),
        CreateDelayedTrigger("cleanup", (Draw("alice", 2),), source="x", controller="alice"),
        CreateDelayedTrigger("cleanup", (GainLife("alice", 3),), source="y",
                             controller="alice"),
    ])
    keys = ["order@alice", "discard@alice:cleanup", "order@alice#2", "discard@alice:cleanup#2"]
    assert [c.key for c in engine.choices_for(state, "end_turn")] == keys
    answers = {"order@alice": ["delayed@y", "delayed@x"],
               "discard@alice:cleanup": ["a3"],
               "order@alice#2": ["delayed@y", "delayed@x"],
               "discard@alice:cleanup#2": ["a4", "l0"]}
    out = engine.end_turn(state, choices=answers)
    assert [(c.key, c.answer, c.by_default) for c in out.choices] == [
        (k, tuple(answers[k]), False) for k in keys]
    assert set(out.state.zone("alice", "graveyard")) == {"a3", "a4", "l0"}
    # the end step's x resolves first; in the cleanup step x draws, then y gains
    assert _gains(out.events) == [("x", 1), ("y", 2), ("y", 3)]
    assert out.state.players["alice"].life == 26


def test_514_3a_end_turn_numbers_its_keys_with_abilities_left_on_the_stack() -> None:
    """514.3a, 608.2: with ``auto_triggers`` off, ``end_turn`` resolves what
    waits on the stack itself, and the cleanup step that follows the stack
    emptying is still the same command: its discard is
    ``discard@alice:cleanup#2``, answered apart from the first."""
    engine = Engine(auto_triggers=False)
    state = _hand(engine, [
        CreateDelayedTrigger("cleanup", (Draw("alice", 2),), source="x", controller="alice")])
    answers = {"discard@alice:cleanup": ["a3"], "discard@alice:cleanup#2": ["a4", "l0"]}
    out = engine.end_turn(state, choices=answers)
    assert [(c.key, c.answer, c.by_default) for c in out.choices
            if c.key.startswith("discard")] == [(k, tuple(v), False) for k, v in answers.items()]
    assert set(out.state.zone("alice", "graveyard")) == {"a3", "a4", "l0"}


def test_503_504_begin_turn_numbers_its_keys_across_its_steps(engine: Engine) -> None:
    """503.1a, 504.1, 603.3b: in one ``begin_turn`` bob orders two delayed
    triggers of his upkeep, then two abilities that trigger on his draw:
    ``order@bob``, then ``order@bob#2``, each as answered (the first put on
    the stack resolves last)."""
    cards = [creature(f"l{i}", "bob", 1, 1, zone="library") for i in range(3)]
    cards += [creature("x", "bob", 1, 1), creature("y", "bob", 1, 1)]
    state = engine.perform(engine.game(["alice", "bob"], cards), [
        CreateDelayedTrigger("upkeep", (GainLife("bob", 1),), source="x", controller="bob"),
        CreateDelayedTrigger("upkeep", (GainLife("bob", 2),), source="y", controller="bob"),
        AddTrigger("draws", "x", (GainLife("bob", 3),), text="whenever bob draws"),
        AddTrigger("draws", "y", (GainLife("bob", 4),), text="whenever bob draws")]).state
    state = engine.end_turn(state).state
    assert [c.key for c in engine.choices_for(state, "begin_turn")] == ["order@bob",
                                                                        "order@bob#2"]
    answers = {"order@bob": ["delayed@y", "delayed@x"], "order@bob#2": ["written@y", "written@x"]}
    out = engine.begin_turn(state, choices=answers)
    assert [(c.key, c.answer, c.by_default) for c in out.choices] == [
        (k, tuple(v), False) for k, v in answers.items()]
    assert _gains(out.events) == [("x", 1), ("y", 2), ("x", 3), ("y", 4)]


@pytest.mark.parametrize("command", ["begin_turn", "untap_step"])
@pytest.mark.parametrize(("player", "shown"), [(["bob"], "['bob'] (list)"),
                                               ({"a": 1}, "(dict)"), (5, "5 (int)")])
def test_102_1_whose_turn_is_a_player_id(engine: Engine, command: str, player: Any,
                                          shown: str) -> None:
    """102.1 ("A player is one of the people in the game"), 500.1: the player
    whose turn begins is named by their id, a str; anything else is refused
    with a typed error naming the argument and what it was, never a bare
    TypeError, and the state isn't changed."""
    state = engine.resolve(engine.game(["alice", "bob"], [creature("x", "alice", 1, 1)]), {},
                           through="cleanup").state
    with pytest.raises(BadQueryError) as info:
        getattr(engine, command)(state, player)
    assert "active_player" in str(info.value) and shown in str(info.value)
    assert state.step == "cleanup" and state.turn == 1


@pytest.mark.parametrize("command", ["begin_turn", "untap_step"])
def test_102_1_an_unknown_or_default_player(engine: Engine, command: str) -> None:
    """102.1, 800.4k: an id of no player in the game keeps its error (not a
    query's: a str is what's asked for); ``None``, the documented default, is
    the next player in turn order."""
    state = engine.resolve(engine.game(["alice", "bob"], [creature("x", "alice", 1, 1)]), {},
                           through="cleanup").state
    with pytest.raises(IllegalActionError) as info:
        getattr(engine, command)(state, "carol")
    assert type(info.value) is IllegalActionError and info.value.rule == "102.1"
    assert getattr(engine, command)(state, None).state.active_player == "bob"
