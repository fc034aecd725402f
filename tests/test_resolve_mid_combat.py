"""``Engine.resolve`` from the middle of a combat (506.1): the rest of the
combat is run by the same loop as a whole one, from the step the state is at
(its beginning, 507; attackers declared, 508; blockers declared, 509; a
combat damage step, 510, 702.7b; the 1999-2009 edition's ``_assigned``
windows, combat damage on the stack, 310.4 of 1999-2009), and a decision for
a step already done is refused unless it is the one made.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import BadQueryError, Engine, GameState, IllegalActionError, Player, Pump
from redzone.kernel.editions import EDITIONS

ENGINES = {rules: Engine(rules) for rules in EDITIONS}

KEYWORDS = ("first strike", "double strike", "trample", "deathtouch", "lifelink", "flying",
            "reach", "vigilance", "menace", "indestructible", "wither", "infect", "persist",
            "exalted", "battle cry", "bushido 1", "flanking", "rampage 1")

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def combats(draw: st.DrawFn) -> tuple[Engine, GameState, dict[str, Any]]:
    """An edition, a board before combat, and legal declarations for it
    (drawn from the enumerator), with pumps in random windows."""
    engine = ENGINES[draw(st.sampled_from(sorted(ENGINES)))]
    perms = []
    for player, most in (("alice", 3), ("bob", 3)):
        for i in range(draw(st.integers(1 if player == "alice" else 0, most))):
            kws = draw(st.lists(st.sampled_from(KEYWORDS), max_size=2, unique=True))
            if draw(st.integers(0, 2)) == 0:  # a first-strike damage step, often
                kws = [*{*kws, draw(st.sampled_from(("first strike", "double strike")))}]
            perms.append(engine.creature(f"{player[0]}{i}", player, draw(st.integers(0, 5)),
                                         draw(st.integers(1, 5)), *kws))
    board = engine.game([Player("alice"), Player("bob", life=draw(st.integers(1, 20)))],
                        perms)
    begun = engine.begin_combat(board).state
    attacks = dict(draw(st.sampled_from(list(engine.legal_attack_declarations(begun)))))
    declared = engine.declare_attackers(begun, attacks).state
    blocks: dict[str, Any] = {}
    if engine.next_step(declared) == "declare_blockers":
        blocks = {b: list(a) for b, a in draw(st.sampled_from(
            list(engine.legal_block_declarations(declared)))).items()}
    ids = [p.id for p in perms]
    actions = draw(st.lists(st.tuples(st.sampled_from(engine.step_names()),
                                      st.builds(Pump, st.sampled_from(ids), st.integers(0, 2),
                                                st.integers(0, 2))), max_size=2))
    return engine, board, {"attacks": attacks, "blocks": blocks, "actions": actions}


def entries(engine: Engine, board: GameState, decisions: dict[str, Any]
            ) -> Iterator[GameState]:
    """Each state the combat stands at as a step's turn-based action is done
    (before its window's actions), stepped through command by command; until
    the game ends or a command is refused."""
    try:
        state = engine.begin_combat(board).state
        while state.game_over is None:
            yield state
            for after, action in decisions["actions"]:
                if after == state.step and state.game_over is None:
                    state = engine.perform(state, action).state
            nxt = engine.next_step(state)
            if nxt == "declare_attackers":
                state = engine.declare_attackers(state, decisions["attacks"]).state
            elif nxt == "declare_blockers":
                state = engine.declare_blockers(state, decisions["blocks"]).state
            elif nxt is not None and engine.damage_step(nxt) is not None:
                state = engine.combat_damage(state).state
            else:
                return
    except IllegalActionError:
        return


def _done(engine: Engine, state: GameState, decisions: dict[str, Any]) -> dict[str, Any]:
    """The decisions without those for steps before ``state``'s."""
    windows = ("precombat_main", *engine.step_names())
    past = set(windows[:windows.index(state.step)])
    rest: dict[str, Any] = {"actions": [a for a in decisions["actions"] if a[0] not in past]}
    if state.step == "beginning_of_combat":
        rest["attacks"] = decisions["attacks"]
    if state.step in ("beginning_of_combat", "declare_attackers"):
        rest["blocks"] = decisions["blocks"]
    return rest


def _outcome(engine: Engine, state: GameState, decisions: dict[str, Any]) -> Any:
    try:
        return engine.resolve(state, **decisions)
    except IllegalActionError as exc:
        return type(exc), exc.rule


@SETTINGS
@given(combats())
def test_506_1_resolving_from_the_middle_is_the_tail_of_resolving_from_the_start(
        case: tuple[Engine, GameState, dict[str, Any]]) -> None:
    """From every step of a combat (507, 508, 509, each combat damage step
    and, in the 1999-2009 edition, each ``_assigned`` window), with the
    decisions left: the same final state, and the steps, events, choices and
    damage records are the tail of the whole combat's; an illegal action is
    the same error (its class and rule)."""
    engine, board, decisions = case
    whole = _outcome(engine, board, decisions)
    for state in entries(engine, board, decisions):
        rest = _outcome(engine, state, _done(engine, state, decisions))
        if isinstance(whole, tuple):
            if isinstance(rest, tuple):  # the error comes after this step
                assert rest == whole
            continue
        assert not isinstance(rest, tuple), rest
        assert rest.state == whole.state and rest.before is state
        n = len(rest.steps)
        assert n and rest.steps == whole.steps[-n:]
        assert rest.events == whole.events[len(whole.events) - len(rest.events):]
        assert rest.damage_steps == whole.damage_steps[
            len(whole.damage_steps) - len(rest.damage_steps):]
        assert {k: v for k, v in whole.after_steps.items() if k in rest.after_steps} == \
            rest.after_steps


@pytest.fixture(params=sorted(EDITIONS))
def engine(request: pytest.FixtureRequest) -> Engine:
    return ENGINES[request.param]


def _board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [c("knight", "alice", 2, 2, "first strike"),
                                          c("rhino", "alice", 4, 4, "trample"),
                                          c("elf", "bob", 1, 1), c("ox", "bob", 2, 4)])


ATTACKS = {"knight": "bob", "rhino": "bob"}
BLOCKS = {"elf": "rhino", "ox": "knight"}


def _states(engine: Engine) -> dict[str, GameState]:
    board = _board(engine)
    states = {"main": board}
    state = engine.begin_combat(board).state
    states[state.step] = state
    state = engine.declare_attackers(state, ATTACKS).state
    states[state.step] = state
    state = engine.declare_blockers(state, BLOCKS).state
    states[state.step] = state
    while engine.damage_step(engine.next_step(state) or "") is not None:
        state = engine.combat_damage(state).state
        states[state.step] = state
    states["end_of_combat"] = engine.end_of_combat(state).state
    return states


def test_508_1_509_1_the_declarations_made_may_be_given_again(engine: Engine) -> None:
    """A declaration for a step already done that is the one the state
    records is taken (nothing is declared again): the same outcome as with
    none."""
    states = _states(engine)
    whole = engine.resolve(states["main"], ATTACKS, BLOCKS)
    for step in ("declare_attackers", "declare_blockers"):
        again = engine.resolve(states[step], ATTACKS, BLOCKS)
        assert again.state == whole.state
        blocks = BLOCKS if step == "declare_attackers" else None
        assert again.state == engine.resolve(states[step], None, blocks).state
    assert engine.resolve(states["declare_blockers"], {"rhino": "bob"}, {"ox": ["knight"]}
                          ).state == whole.state  # a part of each declaration agrees too


@pytest.mark.parametrize(("at", "decisions", "message", "rule"), [
    ("declare_attackers", {"attacks": {"knight": "bob", "elf": "alice"}},
     "attackers are declared already .* 'elf'", "508.1"),
    ("declare_attackers", {"bands": [["knight", "rhino"]]},
     "attacking bands are declared already", "508.1e"),
    ("declare_blockers", {"blocks": {"elf": "knight"}},
     "blockers are declared already .* 'elf'", "509.1"),
    ("first_strike_damage", {"blocks": {"ox": "rhino"}},
     "blockers are declared already", "509.1"),
    ("first_strike_damage", {"assign_first_strike": {"knight": {"ox": 2}}},
     "assign_first_strike: combat damage is assigned already", "510.4"),
    ("combat_damage", {"assign": {"rhino": {"elf": 1, "bob": 3}}},
     "assign: combat damage is assigned already", "510.1"),
    ("declare_blockers", {"actions": [("declare_attackers", Pump("rhino", 1, 1))]},
     "actions after 'declare_attackers': those priority windows are past", "506.1"),
    ("beginning_of_combat", {"actions": [("precombat_main", Pump("rhino", 1, 1))]},
     "actions after 'precombat_main'", "506.1"),
    ("declare_attackers", {"first_turn": True}, "first_turn: the state is in a combat",
     "500.1"),
])
def test_decisions_for_steps_already_done_are_refused(
        engine: Engine, at: str, decisions: dict[str, Any], message: str, rule: str) -> None:
    """Each names the step the state is at and the rule of the decision; the
    state given is untouched (it is a value), and nothing is resolved."""
    state = _states(engine)[at]
    with pytest.raises(BadQueryError, match=message) as caught:
        engine.resolve(state, **decisions)
    assert caught.value.rule == rule and repr(at) in str(caught.value)


def test_1999_2009_damage_on_the_stack_is_resolved_from_its_window() -> None:
    """310.4 of 1999-2009: from a step's ``_assigned`` window the damage on
    the stack is dealt as assigned; ``assign`` for that step is refused once
    no later step is left to assign."""
    engine = ENGINES["sixth"]
    states = _states(engine)
    whole = engine.resolve(states["main"], ATTACKS, BLOCKS)
    for step in ("first_strike_damage_assigned", "combat_damage_assigned"):
        rest = engine.resolve(states[step])
        assert rest.state == whole.state and rest.steps[0] == step.removesuffix("_assigned")
    with pytest.raises(BadQueryError, match="assign: combat damage is assigned already"):
        engine.resolve(states["combat_damage_assigned"], assign={"rhino": {"bob": 3}})


@pytest.mark.parametrize("at", ["end_of_combat", "untap"])
def test_506_1_a_state_outside_a_combat_is_refused(engine: Engine, at: str) -> None:
    """From the end of combat step (the combat is over, 511) or a step
    outside combat, no combat is resolved: a clear error naming the step."""
    state = _states(engine)["end_of_combat"]
    if at == "untap":
        state = _states(engine)["main"].evolve(step="untap")
    with pytest.raises(IllegalActionError, match=f"can't resolve a combat from a state at "
                                                 f"'{at}'") as caught:
        engine.resolve(state)
    assert caught.value.rule == "506.1"


def test_506_1_the_run_goes_on_through_the_turn_from_the_middle(engine: Engine) -> None:
    """The rest of the turn (513-514) and an additional combat (500.8) run
    after a combat resolved from its middle, as after a whole one."""
    states = _states(engine)
    whole = engine.resolve(states["main"], ATTACKS, BLOCKS, through="cleanup")
    rest = engine.resolve(states["declare_blockers"], through="cleanup")
    assert rest.state == whole.state and rest.steps == whole.steps[-len(rest.steps):]
    assert rest.steps[-1] == "cleanup"


def test_506_1_an_assigned_window_exists_only_where_damage_uses_the_stack() -> None:
    """310.4 of 1999-2009: only that edition has ``_assigned`` windows; a state
    at one under another edition is not in a combat (a clear error, not a
    run from a step that doesn't exist)."""
    engine = ENGINES["foundations"]
    state = _states(engine)["declare_blockers"].evolve(step="combat_damage_assigned")
    with pytest.raises(IllegalActionError, match="'combat_damage_assigned'"):
        engine.resolve(state)
