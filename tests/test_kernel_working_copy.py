"""A command's working copy (``redzone.kernel.working``): what it changes
waits in private maps and is frozen into a new state only when the state is
read whole. These properties hold whatever actions a command performs, in
whatever order, and whenever the state is read between them:

* 733, 608.2b: an action that fails (an illegal one, or a plugin's that
  raises after changing things) leaves the working copy exactly as it was,
  and the state the caller gave is never touched;
* a state read in the middle of a command (what a plugin is handed) is
  frozen: it never changes afterwards, whatever the command goes on to do;
* reading the state lazily (once, at the end) or eagerly (after every
  action) gives the same state and events;
* states made by commands round-trip through serialisation and pickling.
"""

from __future__ import annotations

import contextlib
import pickle
from typing import Any, ClassVar

import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Action,
    ActionSpec,
    AddCounters,
    CreateToken,
    DealDamage,
    Destroy,
    Engine,
    Exile,
    GainLife,
    GameState,
    IllegalActionError,
    LoseLife,
    Permanent,
    PluginError,
    Pump,
    RemoveFromCombat,
    SetState,
    Tap,
    Tx,
    UnaskedChoiceError,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.settle import commit
from redzone.testing import plugin_module as plugin


@frozen
class Botch(Action):
    """A made-up action: performs ``then`` (kernel actions, by index into
    the drawn list), reading the state after each with ``read``, then
    fails, with an illegal action or a plugin fault."""

    do: ClassVar[str] = "botch"
    then: tuple[int, ...]
    fault: bool = False
    read: bool = False


#: The actions a :class:`Botch` performs before failing (set per example).
_BOTCHED: list[Action] = []


def _botch(tx: Tx, action: Action) -> None:
    assert isinstance(action, Botch)
    for i in action.then:
        with contextlib.suppress(IllegalActionError):
            tx.perform(_BOTCHED[i % len(_BOTCHED)])
        if action.read:
            tx.state  # noqa: B018 - read between them (freezes what is pending)
    if action.fault:
        raise RuntimeError("botch: a plugin's bug after changing things")
    raise IllegalActionError("botch: refused after changing things", rule="608.2b")


ENGINE = Engine(plugins=[plugin("botcher", redzone_actions=lambda: [
    ActionSpec(Botch, _botch, "608.2b")])])

IDS = ("a0", "a1", "b0", "b1", "ghost")
PLAYERS = ("alice", "bob")


def _board() -> GameState:
    """Mid-combat: alice's a0 (3/3) and a1 (2/2) attack bob; b0 (2/2)
    blocks a0, b1 (1/1) stays back."""
    state = ENGINE.game(list(PLAYERS), [
        ENGINE.creature("a0", "alice", 3, 3), ENGINE.creature("a1", "alice", 2, 2),
        ENGINE.creature("b0", "bob", 2, 2), ENGINE.creature("b1", "bob", 1, 1)])
    state = ENGINE.declare_attackers(state, {"a0": "bob", "a1": "bob"}).state
    return ENGINE.declare_blockers(state, {"b0": "a0"}).state


BOARD = _board()

_ids = st.sampled_from(IDS)
_players = st.sampled_from(PLAYERS)
_amounts = st.integers(-1, 4)


@st.composite
def _token(draw: st.DrawFn) -> CreateToken:
    n = draw(st.integers(0, 3))
    return CreateToken(Permanent(f"t{n}", draw(_players), types={"creature"}, base_power=1,
                                 base_toughness=1),
                       tapped=draw(st.booleans()),
                       attacking=draw(st.none() | _players | _ids))


ACTIONS = st.one_of(
    st.builds(Pump, _ids, _amounts, _amounts),
    st.builds(Tap, _ids),
    st.builds(AddCounters, _ids, st.just((("+1/+1", 1),)) | st.just((("-1/-1", 2),))),
    st.builds(RemoveFromCombat, _ids),
    st.builds(Destroy, _ids),
    st.builds(Exile, _ids),
    _token(),
    st.builds(DealDamage, _ids, _ids | _players, _amounts),
    st.builds(GainLife, _players, _amounts),
    st.builds(LoseLife, _players, _amounts),
    st.builds(SetState, st.integers(0, 3)),
)

#: A command: actions, each maybe a Botch (which performs some of them and
#: fails), and whether the state is read after it.
SCRIPTS = st.lists(st.tuples(ACTIONS, st.none() | st.builds(
    Botch, st.lists(st.integers(0, 20), max_size=4).map(tuple), st.booleans(), st.booleans()),
    st.booleans()), max_size=10)


def _run(script: list[tuple[Action, Botch | None, bool]], *, eager: bool,
         skip: frozenset[int] = frozenset(), seen: list[tuple[GameState, Any]] | None = None
         ) -> tuple[Tx, list[int]]:
    """Perform the script's actions in one working copy, on behalf of the
    plugin ``botcher``; ``eager``: read the state after each; ``skip``: the
    indexes of the actions left out; ``seen``: collects each state read
    with its serialised form. Returns the copy and which actions failed."""
    tx = Tx(ENGINE, BOARD, plugin="botcher")
    failed = []
    for i, (action, botch, read) in enumerate(script):
        if i in skip:
            continue
        for one in (action,) if botch is None else (action, botch):
            try:
                tx.perform(one)
            except (IllegalActionError, PluginError):
                failed.append(i)
            if eager or read:
                now = tx.state
                if seen is not None:
                    seen.append((now, state_to_dict(now)))
    return tx, failed


@settings(max_examples=150, deadline=None)
@given(SCRIPTS)
def test_733_a_failed_action_leaves_the_working_copy_as_it_was(
        script: list[tuple[Action, Botch | None, bool]]) -> None:
    """733, 608.2b: each failing action (an illegal one, or a plugin's
    Botch that performs actions and then fails) leaves nothing behind: the
    command ends as the same actions without the failed ones would, read
    lazily or after every action, with the same events; the state the
    command was given is unchanged."""
    _BOTCHED[:] = [a for a, _, _ in script] or [Tap("a0")]
    before = state_to_dict(BOARD)
    lazy, failed = _run(script, eager=False)
    # The same command, read after every action, without the actions that
    # failed alone (a Botch fails whatever it did, and is kept: it must
    # leave nothing behind).
    alone = frozenset(i for i in failed if failed.count(i) == 1
                      and script[i][1] is None)
    eager, _ = _run(script, eager=True, skip=alone)
    assert state_to_dict(lazy.state) == state_to_dict(eager.state)
    assert lazy.events == eager.events
    assert state_to_dict(BOARD) == before


@settings(max_examples=60, deadline=None)
@given(SCRIPTS)
def test_a_state_read_mid_command_never_changes_afterwards(
        script: list[tuple[Action, Botch | None, bool]]) -> None:
    """A state read in the middle of a command (what a plugin is handed) is
    frozen: after the command goes on, fails actions and settles, every state
    read on the way still holds what it held when read."""
    _BOTCHED[:] = [a for a, _, _ in script] or [Tap("a0")]
    seen: list[tuple[GameState, Any]] = []
    tx, _ = _run(script, eager=False, seen=seen)
    # (A plugin's trigger may fail the settling: the states read stay.)
    with contextlib.suppress(PluginError):
        commit(tx)
    for state, then in seen:
        assert state_to_dict(state) == then


@settings(max_examples=40, deadline=None)
@given(SCRIPTS)
def test_states_made_by_commands_round_trip(
        script: list[tuple[Action, Botch | None, bool]]) -> None:
    """A command's state (frozen once from its working copy) serialises and
    pickles to an equal state, which the engine goes on from alike."""
    _BOTCHED[:] = [a for a, _, _ in script] or [Tap("a0")]
    tx, _ = _run(script, eager=False)
    state = commit(tx).state
    data = state_to_dict(state)
    back = state_from_dict(data)
    assert state_to_dict(back) == data
    assert pickle.loads(pickle.dumps(state)) == state
    assert ENGINE.next_step(back) == ENGINE.next_step(state)


def test_a_failed_action_after_freezing_restores_the_maps_it_froze() -> None:
    """733: a mark taken while changes wait, then a freeze (a plugin reads the
    state), then more changes: undoing to the mark restores both what waited
    and the state under it."""
    tx = Tx(ENGINE, BOARD, plugin="botcher")
    tx.perform(Tap("b1"))  # waits
    _BOTCHED[:] = [Pump("a0", 1, 1), LoseLife("bob", 2)]
    with pytest.raises(IllegalActionError):
        tx.perform(Botch((0, 1), read=True))  # reads (freezes) between them, then fails
    expected = Tx(ENGINE, BOARD, plugin="botcher")
    expected.perform(Tap("b1"))
    assert state_to_dict(tx.state) == state_to_dict(expected.state)
    assert tx.state.objects["b1"].tapped and tx.state.players["bob"].life == 20


def test_507_beginning_combat_on_one_main_phase_state_is_done_once() -> None:
    """507.1, 506.1: declaring attackers again and again from one main-phase
    state (a search trying its candidates) begins combat once, with the same
    outcome (its abilities trigger once, as plugins answer from the state);
    with answers given, in verify mode, or on a changed copy of the state, it
    begins again."""
    asked: list[int] = []

    def triggers(state: GameState, events: tuple[Any, ...]) -> list[Any]:
        if events and all(e.step == "beginning_of_combat" for e in events):
            asked.append(state.combats)  # (the beginning of combat step's own settling)
        return []

    counter = plugin("counter", redzone_triggers=triggers)
    for verify, times in ((False, 1), (True, 3)):
        engine = Engine(plugins=[counter], verify=verify)
        state = engine.game(["alice", "bob"], [engine.creature("a0", "alice", 2, 2),
                                               engine.creature("a1", "alice", 2, 2)])
        asked.clear()
        one = engine.declare_attackers(state, {"a0": "bob"})
        two = engine.declare_attackers(state, {"a1": "bob"})
        three = engine.declare_attackers(state, {"a0": "bob", "a1": "bob"})
        assert len(asked) == times
        assert [state_to_dict(o.state)["combats"] for o in (one, two, three)] == [1, 1, 1]
        assert one.events[0] == two.events[0] == three.events[0]  # the step, 507.1
    engine = Engine(plugins=[counter], verify=False)
    state = engine.game(["alice", "bob"], [engine.creature("a0", "alice", 2, 2)])
    asked.clear()
    for _ in range(2):
        engine.declare_attackers(state, {"a0": "bob"})
        engine.declare_attackers(state.evolve(turn=2), {"a0": "bob"})  # a changed copy
        with pytest.raises(UnaskedChoiceError):  # answers given: it begins (and refuses them)
            engine.begin_combat(state, choices={"order@alice": ()})
    assert len(asked) == 5
