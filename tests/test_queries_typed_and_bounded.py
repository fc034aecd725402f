"""Queries check what they are given as commands do, and commands make only
states that can be saved.

- Guarantees 7 and 15: every state a command returns round-trips through its
  serialised form, so a command that would take a life total, poison, a
  counter count or marked damage past the bounds that form holds
  (``serialize.BOUNDS``) fails with a :class:`~redzone.BoundError` naming who
  acted and the bound, and changes nothing. No rule caps these numbers
  (107.1: the game's numbers are integers); redzone does, as it bounds its
  other work.
- Guarantee 13: a query (or a command) given something that isn't a state,
  or an assignment that isn't one, raises a typed error naming the
  argument, never a bare ``AttributeError`` or ``TypeError``.
- Guarantee 14: a query asked by an engine that can't honour the state
  (another rules edition, a keyword it doesn't load) raises
  :class:`~redzone.kernel.errors.EngineMismatchError`, as a command does,
  instead of answering as if the keyword were absent (702.9b: a flyer can't
  be blocked by a bear); the check is one lookup on a state checked before.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
import redzone
from redzone import (
    AddCounters,
    BoundError,
    DealDamage,
    Destroy,
    Engine,
    Event,
    GainLife,
    GameState,
    IllegalAssignmentError,
    LoseLife,
    Player,
    Pump,
    Trigger,
)
from redzone.formats import serialize
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel import context as context_module
from redzone.kernel.errors import BadQueryError, EngineMismatchError

ENGINE = Engine()
#: The bound of life (either way), poison, counters and damage.
MILLION = 1_000_000


def _round_trips(state: GameState) -> None:
    assert state_from_dict(state_to_dict(state)) == state


def _counts_board(engine: Engine = ENGINE) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("wurm", "alice", 6, 6, "trample"), c("rat", "alice", 1, 1, "infect"),
        c("golem", "bob", 1, 1, "indestructible"), c("bear", "bob", 2, 2)])


# ---------------------------------------------------------------------------
# Guarantees 7 and 15: a command never makes a state its saved form refuses
# ---------------------------------------------------------------------------

#: name -> (the actions of each command, in order: the last one goes past
#: the bound; the bound; the key path of the count that would)
PAST_THE_BOUND: dict[str, tuple[list[Any], str, str]] = {
    "life-gained": ([GainLife("alice", MILLION - 20), GainLife("alice", 1)], "life",
                    "players.alice.life"),
    "life-lost": ([[LoseLife("bob", MILLION), LoseLife("bob", MILLION)]], "life",
                  "players.bob.life"),
    "poison": ([[DealDamage("rat", "bob", MILLION), DealDamage("rat", "bob", MILLION)]],
               "poison", "players.bob.poison"),
    "counters": ([AddCounters("wurm", {"+1/+1": MILLION})] * 2, "counters",
                 "objects.wurm.counters['+1/+1']"),
    "damage-on-indestructible": ([DealDamage("wurm", "golem", MILLION)] * 2, "damage",
                                 "objects.golem.damage"),
    "damage-of-one-that-left": (
        [[DealDamage("wurm", "bear", MILLION), DealDamage("wurm", "bear", MILLION),
          Destroy("bear")]], "damage", "lki.bear.damage"),
}


@pytest.mark.parametrize("name", sorted(PAST_THE_BOUND))
def test_a_command_past_a_count_bound_is_a_bound_error_and_changes_nothing(name: str) -> None:
    """Guarantees 7 and 15 (107.1, 119, 120.3, 122.1): the commands before
    the last leave counts within the bounds, inclusive (a million life, a
    million counters, a million damage), and their states round-trip;
    the last would take a count past them (life gained past a million, two
    AddCounters of a million, damage marked on an indestructible creature or
    kept as last known information) and fails with a BoundError naming the
    kernel's or the scenario's actions, the bound and the key path; the state
    given is unchanged."""
    commands, bound, path = PAST_THE_BOUND[name]
    state = _counts_board()
    for action in commands[:-1]:
        state = ENGINE.perform(state, action).state
        _round_trips(state)
    before = state_to_dict(state)
    with pytest.raises(BoundError) as info:
        ENGINE.perform(state, commands[-1])
    err = info.value
    assert (err.bound, err.limit, err.plugin) == (bound, MILLION, ""), str(err)
    assert "the kernel's or the scenario's actions" in str(err) and path in str(err), str(err)
    assert f"the bound {bound} = 1,000,000" in str(err)
    assert state_to_dict(state) == before


def test_a_turn_past_the_bound_is_a_bound_error() -> None:
    """Guarantees 7 and 15 (500.1): the turn after turn 1,000,000 would be
    one the saved form refuses: beginning it fails with a BoundError naming
    the bound ``turn``, and the state given is unchanged."""
    state = ENGINE.game(["alice", "bob"], [ENGINE.creature("bear", "alice", 2, 2)])
    ended = ENGINE.end_turn(state.evolve(turn=MILLION)).state
    _round_trips(ended)
    before = state_to_dict(ended)
    with pytest.raises(BoundError) as info:
        ENGINE.begin_turn(ended)
    assert (info.value.bound, info.value.limit) == ("turn", MILLION)
    assert state_to_dict(ended) == before


def _pumped(engine: Engine = ENGINE) -> GameState:
    state = _counts_board(engine)
    return engine.perform(state, [Pump("wurm", MILLION, 0), Pump("wurm", MILLION, 0)]).state


def test_combat_damage_past_the_life_bound_is_a_bound_error() -> None:
    """Guarantees 7 and 15 (510.2, 119.3): an unblocked attacker with power
    over two million would leave its player's life below minus a million:
    the combat damage step fails with a BoundError, through the step API and
    through resolve, and the state given is unchanged."""
    state = _pumped()
    _round_trips(state)
    blocked = ENGINE.declare_blockers(ENGINE.declare_attackers(
        ENGINE.begin_combat(state).state, {"wurm": "bob"}).state, {}).state
    before = state_to_dict(blocked)
    with pytest.raises(BoundError) as info:
        ENGINE.combat_damage(blocked)
    assert info.value.bound == "life" and "players.bob.life" in str(info.value)
    assert state_to_dict(blocked) == before
    with pytest.raises(BoundError):
        ENGINE.resolve(state, {"wurm": "bob"}, {})


def _tithe(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """Whenever a creature attacks, its controller gains a million life: the
    ability's actions, its plugin's (``plugin``)."""
    return [Trigger("tithe", "wurm", "alice", "603.2", actions=(GainLife("alice", MILLION),),
                    plugin="tithe") for e in events if e.kind == "attack"]


def _tithe_resolving(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """The same ability, whose plugin gives its actions as it resolves."""
    return [Trigger("tithe", "wurm", "alice", "603.2") for e in events if e.kind == "attack"]


def _tithe_resolves(state: GameState, trigger: Trigger) -> list[Any]:
    return [GainLife("alice", MILLION)] if trigger.kind == "tithe" else []


TITHES: dict[str, dict[str, Callable[..., Any]]] = {
    "its-actions": {"redzone_triggers": _tithe},
    "resolving": {"redzone_triggers": _tithe_resolving,
                  "redzone_resolve_trigger": _tithe_resolves},
}


@pytest.mark.parametrize("how", sorted(TITHES))
@pytest.mark.parametrize("auto_triggers", [True, False])
def test_a_plugin_trigger_past_the_life_bound_names_the_plugin(auto_triggers: bool,
                                                                how: str) -> None:
    """Guarantee 15 (603.2, 608.2): an ability of a plugin that gains a
    million life as it resolves (its own actions, or the actions its plugin
    gives as it resolves) would take life past the bound: the command that
    resolves it (the declaration, or resolve_trigger with ``auto_triggers``
    off) fails with a BoundError naming that plugin."""
    plugin = SimpleNamespace(__name__="tithe", **{
        hook: redzone.hookimpl(fn) for hook, fn in TITHES[how].items()})
    engine = Engine(plugins=[plugin], auto_triggers=auto_triggers)
    state = engine.begin_combat(_counts_board(engine)).state
    if not auto_triggers:
        state = engine.declare_attackers(state, {"wurm": "bob"}).state
        assert len(state.stack) == 1
        _round_trips(state)
    before = state_to_dict(state)
    with pytest.raises(BoundError) as info:
        if auto_triggers:
            engine.declare_attackers(state, {"wurm": "bob"})
        else:
            engine.resolve_trigger(state)
    assert (info.value.plugin, info.value.bound) == ("tithe", "life"), str(info.value)
    assert "plugin 'tithe'" in str(info.value)
    assert state_to_dict(state) == before


@pytest.mark.parametrize("amount", [999_980, 999_981])
def test_a_state_at_the_bound_loads_back_and_one_past_it_is_never_made(amount: int) -> None:
    """Guarantee 7: every state a command returns loads back from its saved
    form: life gained up to the bound (1,000,000) round-trips; one more is
    a BoundError, and the state the caller holds loads back as it was."""
    from redzone import BoundError, GainLife

    state = ENGINE.game(["alice", "bob"], [])
    if amount + 20 <= serialize.BOUNDS["Player.life"][1]:
        out = ENGINE.perform(state, GainLife("alice", amount)).state
        assert state_from_dict(state_to_dict(out)).players["alice"].life == amount + 20
    else:
        with pytest.raises(BoundError):
            ENGINE.perform(state, GainLife("alice", amount))
        assert state_from_dict(state_to_dict(state)) == state


GAMES_PAST_THE_BOUND = {
    "life": (lambda: ([Player("alice", life=10**12), "bob"], []), "players.alice.life"),
    "negative life": (lambda: ([Player("alice", life=-(10**12)), "bob"], []),
                      "players.alice.life"),
    "poison": (lambda: ([Player("alice", poison=10**12), "bob"], []), "players.alice.poison"),
    "damage": (lambda: (["alice", "bob"], [ENGINE.creature("bear", "alice", 2, 2).evolve(
        damage=10**12)]), "objects.bear.damage"),
    "counters": (lambda: (["alice", "bob"], [ENGINE.creature("bear", "alice", 2, 2).evolve(
        counters={"+1/+1": 10**12})]), "objects.bear.counters['+1/+1']"),
}


@pytest.mark.parametrize("name", sorted(GAMES_PAST_THE_BOUND))
def test_engine_game_refuses_a_count_past_what_a_state_holds(name: str) -> None:
    """Guarantees 7 and 15: ``Engine.game`` makes only states that load back
    from their saved form, as commands do: a life total, poison count,
    marked damage or counter count past its bound (107.1 caps none of
    them; the saved form does) is a BadQueryError naming the count's key
    path and the bound, not a state every later command would refuse."""
    make, path = GAMES_PAST_THE_BOUND[name]
    players, permanents = make()
    with pytest.raises(BadQueryError) as info:
        ENGINE.game(players, permanents)
    assert path in str(info.value) and "1,000,000" in str(info.value), str(info.value)


def test_an_effects_negative_amount_is_refused_where_it_is_given() -> None:
    """Guarantees 7 and 13: an effect's number counts something (the damage
    a reduce_damage effect takes off, 615-616), never below 0: ``Engine.game``,
    ``AddEffect`` and the saved form refuse -3, naming it, rather than a
    later combat failing in the plugin that reads it."""
    from redzone import Effect
    from redzone.formats.serialize import StateFormatError

    with pytest.raises(BadQueryError, match=r"effects\[0\]\.amount is -3"):
        ENGINE.game(["alice", "bob"], [], effects=[Effect("reduce_damage", to="bob", amount=-3)])
    state = ENGINE.game(["alice", "bob"], [], effects=[Effect("reduce_damage", to="bob",
                                                               amount=3)])
    from redzone import AddEffect, IllegalActionError

    with pytest.raises(IllegalActionError, match="amount -3"):
        ENGINE.perform(state, AddEffect(Effect("reduce_damage", to="bob", amount=-3)))
    saved = state_to_dict(state)
    saved["effects"][0]["amount"] = -3
    with pytest.raises(StateFormatError, match="effects"):
        state_from_dict(saved)


def test_engine_game_at_the_bounds_makes_a_state_that_loads_back() -> None:
    """The bounds themselves are states (the check is not off by one)."""
    low, high = serialize.BOUNDS["Player.life"]
    state = ENGINE.game([Player("alice", life=high), Player("bob", life=low)], [])
    assert state_from_dict(state_to_dict(state)) == state


def test_engine_game_names_an_unknown_keyword_argument() -> None:
    """Guarantee 13: a misspelt option of ``Engine.game`` is a BadQueryError
    naming it and the closest option, not Python's bare TypeError."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game(["alice", "bob"], [], active_plyer="bob")
    assert "active_plyer" in str(info.value) and "active_player" in str(info.value)


def test_the_bound_check_looks_only_at_what_the_command_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantee 15's cost (704.3's bookkeeping): the counts are watched by
    the pass of state-based actions over what the command changed, never the
    whole board. A board with one permanent's counters already past the
    bound (a state `Engine.game` refuses, made here with its checks off)
    lets a Pump on another of its 300 creatures through, since that
    permanent isn't looked at; a command that changes it fails."""
    from redzone import AddCounters, BoundError
    from redzone.kernel import validate

    creatures = [ENGINE.creature(f"c{i}", "alice", 2, 2) for i in range(300)]
    creatures[299] = ENGINE.creature("c299", "alice", 2, 2, counters={"charge": 2_000_000})
    with monkeypatch.context() as patch:
        patch.setattr(validate, "_game_count", lambda *args: None)
        patch.setattr(validate, "_well_typed", lambda *args: None)
        state = ENGINE.game(["alice", "bob"], creatures)
    pumped = ENGINE.perform(state, Pump("c7", 1, 1)).state
    assert pumped.objects["c7"].power == 3
    with pytest.raises(BoundError) as info:
        ENGINE.perform(pumped, AddCounters("c299", {"charge": 1}))
    assert info.value.bound == "counters"


# ---------------------------------------------------------------------------
# Guarantees 13 and 14: every query checks its state as commands do
# ---------------------------------------------------------------------------


def _flyer_board(engine: Engine = ENGINE) -> dict[str, GameState]:
    """A flying drake attacks; the bear can't block it (702.9b)."""
    c = engine.creature
    main = engine.game(["alice", "bob"], [c("drake", "alice", 2, 2, "flying"),
                                          c("bear", "bob", 2, 2)])
    begun = engine.begin_combat(main).state
    attacked = engine.declare_attackers(begun, {"drake": "bob"}).state
    blocked = engine.declare_blockers(attacked, {}).state
    return {"main": main, "begun": begun, "attacked": attacked, "blocked": blocked}


STATES = _flyer_board()

#: Each query of the engine -> (the state it is asked about, the call).
QUERIES: dict[str, tuple[str, Callable[[Engine, Any], Any]]] = {
    "next_step": ("attacked", lambda e, s: e.next_step(s)),
    "attackable": ("begun", lambda e, s: e.attackable(s)),
    "attack_violations": ("begun", lambda e, s: e.attack_violations(s, {"drake": "bob"})),
    "legal_attackers": ("begun", lambda e, s: e.legal_attackers(s)),
    "block_violations": ("attacked", lambda e, s: e.block_violations(s, {"bear": "drake"})),
    "suggest_attacks": ("begun", lambda e, s: e.suggest_attacks(s)),
    "suggest_blocks": ("attacked", lambda e, s: e.suggest_blocks(s)),
    "legal_blockers": ("attacked", lambda e, s: e.legal_blockers(s, "drake")),
    "lethal_damage": ("blocked", lambda e, s: e.lethal_damage(s, "drake", "bear")),
    "damage_duties": ("blocked", lambda e, s: e.damage_duties(s)),
    "default_assignment": ("blocked", lambda e, s: e.default_assignment(s)),
    "assignment_violations": ("blocked", lambda e, s: e.assignment_violations(s)),
    "legal_attack_declarations": ("begun", lambda e, s: list(e.legal_attack_declarations(s))),
    "legal_block_declarations": ("attacked", lambda e, s: list(e.legal_block_declarations(s))),
    "count_legal_attacks": ("begun", lambda e, s: e.count_legal_attacks(s)),
    "count_legal_blocks": ("attacked", lambda e, s: e.count_legal_blocks(s)),
    "is_legal_attack": ("begun", lambda e, s: e.is_legal_attack(s, {"drake": "bob"})),
    "is_legal_block": ("attacked", lambda e, s: e.is_legal_block(s, {"bear": "drake"})),
    "pending_choices": ("attacked", lambda e, s: e.pending_choices(s)),
    "choices_for": ("attacked", lambda e, s: e.choices_for(s, "declare_blockers", {})),
}

#: Each command of the engine -> its call (the state is the main phase's).
COMMANDS: dict[str, Callable[[Engine, Any], Any]] = {
    "activate": lambda e, s: e.activate(s, "drake", "ability"),
    "begin_combat": lambda e, s: e.begin_combat(s),
    "begin_turn": lambda e, s: e.begin_turn(s),
    "check_state_based_actions": lambda e, s: e.check_state_based_actions(s),
    "cleanup": lambda e, s: e.cleanup(s),
    "combat_damage": lambda e, s: e.combat_damage(s),
    "declare_attackers": lambda e, s: e.declare_attackers(s, {}),
    "declare_blockers": lambda e, s: e.declare_blockers(s, {}),
    "draw_step": lambda e, s: e.draw_step(s),
    "end_of_combat": lambda e, s: e.end_of_combat(s),
    "end_step": lambda e, s: e.end_step(s),
    "end_turn": lambda e, s: e.end_turn(s),
    "finish": lambda e, s: e.finish(s),
    "perform": lambda e, s: e.perform(s, GainLife("alice", 1)),
    "precombat_main": lambda e, s: e.precombat_main(s),
    "remove_trigger": lambda e, s: e.remove_trigger(s, "t1"),
    "resolve": lambda e, s: e.resolve(s, {}),
    "resolve_trigger": lambda e, s: e.resolve_trigger(s),
    "untap_step": lambda e, s: e.untap_step(s),
    "upkeep": lambda e, s: e.upkeep(s),
}


def test_every_method_taking_a_state_is_listed_here() -> None:
    """Guarantees 13 and 14 hold for every public method of the engine that
    takes a state: each is a query or a command of the tables above."""
    taking = {name for name, fn in inspect.getmembers(Engine, inspect.isfunction)
              if not name.startswith("_") and "state" in inspect.signature(fn).parameters}
    assert taking == set(QUERIES) | set(COMMANDS)


def test_the_queries_answer_by_the_rules_on_the_engine_that_made_the_state() -> None:
    """702.9b, the control for the mismatch tests below: on its own engine
    each query answers, and the bear can't block the flying drake."""
    for at, query in QUERIES.values():
        query(ENGINE, STATES[at])
    attacked = STATES["attacked"]
    assert ENGINE.legal_blockers(attacked, "drake") == ()
    assert not ENGINE.is_legal_block(attacked, {"bear": "drake"})
    assert ENGINE.count_legal_blocks(attacked) == 1


@pytest.mark.parametrize("name", sorted(QUERIES) + sorted(COMMANDS))
@pytest.mark.parametrize("given", [None, "state", {"players": {}}], ids=["none", "str", "dict"])
def test_every_query_and_command_refuses_what_isnt_a_state(name: str, given: Any) -> None:
    """Guarantee 13 (117.1): a query or a command given something that isn't
    a GameState (``None``, a failed load, its dict form) raises a
    BadQueryError saying so, never a bare AttributeError."""
    call = QUERIES[name][1] if name in QUERIES else COMMANDS[name]
    with pytest.raises(BadQueryError) as info:
        call(ENGINE, given)
    message = str(info.value)
    assert f"{type(given).__name__}, not a GameState" in message, message
    if name in QUERIES and name != "choices_for":
        assert message.startswith(f"{name}: state is "), message


MISMATCHED: dict[str, Callable[[], Engine]] = {
    "flying-blocked": lambda: Engine(block=["flying"]),
    "another-edition": lambda: Engine("m10"),
}


@pytest.fixture(scope="module", params=sorted(MISMATCHED))
def mismatched(request: pytest.FixtureRequest) -> tuple[str, Engine]:
    return request.param, MISMATCHED[request.param]()


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_query_on_a_state_the_engine_cant_honour_raises(
        mismatched: tuple[str, Engine], name: str) -> None:
    """Guarantee 14 (702.9b): asked by an engine without flying, or of
    another rules edition, every query raises EngineMismatchError naming the
    difference, as the commands do, instead of saying that the bear may
    block the flying drake."""
    kind, engine = mismatched
    at, query = QUERIES[name]
    with pytest.raises(EngineMismatchError) as info:
        query(engine, STATES[at])
    assert ("'flying'" if kind == "flying-blocked" else "'m10'") in str(info.value)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_on_a_state_the_engine_cant_honour_raises(
        mismatched: tuple[str, Engine], name: str) -> None:
    """Guarantee 14: the commands, on the same states, raise the same error
    (whatever the step: the state is checked first)."""
    _kind, engine = mismatched
    with pytest.raises(EngineMismatchError):
        COMMANDS[name](engine, STATES["main"])


def test_a_state_already_honoured_is_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantee 14's cost: the first query of a state checks it whole; it
    notes the engine that honours it, so every later query and command on
    it is one lookup (and so are the states the commands make from it)."""
    calls: list[GameState] = []
    real = context_module.engine_honours

    def counting(rules: str, hooks: Any, state: GameState) -> None:
        calls.append(state)
        real(rules, hooks, state)

    monkeypatch.setattr(context_module, "engine_honours", counting)
    engine = Engine()
    attacked = _flyer_board(engine)["attacked"]
    fresh = attacked.evolve(step=attacked.step)  # (a copy: no note)
    engine.legal_blockers(fresh, "drake")
    assert len(calls) == 1
    for _ in range(3):
        engine.legal_blockers(fresh, "drake")
        engine.next_step(fresh)
        engine.count_legal_blocks(fresh)
        engine.suggest_blocks(fresh)
    engine.declare_blockers(fresh, {})
    assert len(calls) == 1


# ---------------------------------------------------------------------------
# Guarantee 13: an assignment a query is given is one, or a typed error
# ---------------------------------------------------------------------------

BLOCKED_BY_SPIDER = ENGINE.declare_blockers(ENGINE.declare_attackers(ENGINE.begin_combat(
    ENGINE.game(["alice", "bob"], [ENGINE.creature("drake", "alice", 2, 2, "flying"),
                                   ENGINE.creature("spider", "bob", 1, 3, "reach")])
).state, {"drake": "bob"}).state, {"spider": "drake"}).state

#: An assignment that is no assignment -> what the error names.
NOT_ASSIGNMENTS: dict[str, tuple[Any, str]] = {
    "a-str": ("x", "fixed is a str"),
    "an-amount-for-a-creature": ({"drake": 5}, "fixed['drake'] is an int 5"),
    "a-str-amount": ({"drake": {"spider": "two"}}, "fixed['drake']['spider'] is a str 'two'"),
    "a-negative-amount": ({"drake": {"spider": -1}}, "fixed['drake']['spider'] is an int -1"),
    "a-bool-amount": ({"drake": {"spider": True}}, "fixed['drake']['spider'] is a bool"),
    "a-float-amount": ({"drake": {"spider": 2.0}}, "fixed['drake']['spider'] is a float"),
    "an-int-recipient": ({"drake": {5: 2}}, "fixed['drake']: the key 5"),
    "an-int-source": ({5: {"spider": 2}}, "fixed: the key 5"),
}


@pytest.mark.parametrize("name", sorted(NOT_ASSIGNMENTS))
def test_default_assignment_refuses_what_isnt_an_assignment(name: str) -> None:
    """Guarantee 13 (510.1, 510.1a): the creatures whose assignment is
    ``fixed`` must be given one, a mapping of recipients to amounts (whole
    numbers, 0 or more); anything else is a BadQueryError naming ``fixed``
    and the entry, never a bare AttributeError or a silent default."""
    fixed, text = NOT_ASSIGNMENTS[name]
    with pytest.raises(BadQueryError) as info:
        ENGINE.default_assignment(BLOCKED_BY_SPIDER, fixed)
    message = str(info.value)
    assert message.startswith("default_assignment: ") and text in message, message
    # (an assignment is taken: the policy assigns for every creature not in it)
    assert ENGINE.default_assignment(BLOCKED_BY_SPIDER, {"drake": {"spider": 2}}) == {
        "spider": {"drake": 1}}


def test_assignment_violations_refuses_what_combat_damage_refuses() -> None:
    """Guarantee 13 (510.1, 510.1a): ``assign`` that isn't a mapping is
    refused as combat_damage refuses it, with a BadQueryError naming
    ``assign``; an entry of one that isn't a legal assignment (an amount
    where a mapping belongs, an amount that isn't a whole number, 0 or more)
    is a violation, the same one combat_damage's IllegalAssignmentError
    lists."""
    for command in (ENGINE.assignment_violations, ENGINE.combat_damage):
        with pytest.raises(BadQueryError, match="assign is a str, not a mapping"):
            command(BLOCKED_BY_SPIDER, "x")  # type: ignore[arg-type]
    malformed: list[Any] = [{"drake": 5}, {"drake": {"spider": "two"}},
                            {"drake": {"spider": -1}}, {"spider": 3}]
    for assign in malformed:
        with pytest.raises(IllegalAssignmentError) as info:
            ENGINE.combat_damage(BLOCKED_BY_SPIDER, assign)
        assert ENGINE.assignment_violations(BLOCKED_BY_SPIDER, assign) == info.value.violations

