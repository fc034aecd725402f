"""Bounds that hold for any input and any plugin (Containment II, items 1
and 5): a keyword's number is bounded by what its form declares; reaching a
run-time bound (objects, objects created, triggers, cleanup steps) fails the
command with a :class:`~redzone.BoundError` naming the plugin and the bound,
never a ``skipped`` event; tokens that ceased to exist don't accumulate.
Work is measured by counts (objects, Python function calls), never a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs
import pytest
from hostile_kit import FILES, CliResult, counting_calls, counting_copies, hostile, snapshot
from redzone import (
    Action,
    ActionSpec,
    BoundError,
    Engine,
    Event,
    GameState,
    KeywordSpec,
    Permanent,
    Player,
    PluginError,
    PluginLoadError,
    Trigger,
    UnknownKeywordError,
)
from redzone.kernel import tx as tx_module
from redzone.kernel.tx import Tx


def _mobilizers(engine: Engine, count: int, n: int, life: int = 20) -> GameState:
    return engine.game(["alice", Player("bob", life=life)],
                       [engine.creature(f"c{i}", "alice", 1, 1, f"mobilize {n}")
                        for i in range(count)])


def _attack_all(engine: Engine, state: GameState) -> Any:
    return engine.resolve(state, {p.id: "bob" for p in state.battlefield
                                  if p.controller == "alice"}, {})


# ---------------------------------------------------------------------------
# Item 1: keyword numbers that multiply work
# ---------------------------------------------------------------------------


def test_702_181_mobilize_over_its_declared_bound_is_refused_by_the_file(
        run_cli: Callable[..., CliResult]) -> None:
    """Rule 107.1 and guarantee 15: "mobilize 1000000" (a million tokens)
    is refused at load, exit 2, naming the key and the bound of 100 that
    mobilize's form declares; nothing is resolved."""
    result = run_cli(["run", "--json", str(FILES / "bounds-mobilize-over-bound.toml")])
    assert result.status == 2, result.out
    error = result.json["error"]
    assert error["kind"] == "bad_scenario"
    assert [p["key"] for p in error["problems"]] == ["permanents[0].keywords[0]"]
    assert "over the bound of 100" in error["message"]


def test_702_181_mobilize_over_its_declared_bound_is_refused_through_the_api() -> None:
    """Guarantee 15: the API refuses the same keyword with the same bound,
    as it is parsed; the bound itself is accepted."""
    engine = Engine()
    with pytest.raises(UnknownKeywordError, match="over the bound of 100"):
        engine.creature("captain", "alice", 1, 1, "mobilize 101")
    assert engine.keyword("mobilize 100").number == 100
    with pytest.raises(UnknownKeywordError, match="over the bound of 100"):
        engine.keyword("rampage 1000000")  # N x blockers would pass the pump bound


def test_a_keyword_form_declares_the_bound_of_its_number() -> None:
    """Guarantee 15: any plugin's form may declare the bound of its
    ``{number}`` (``most``), checked by redzone's parser; a bound that isn't a
    whole number from 0 to 1,000,000 is a load error naming the field."""
    def keywords() -> list[KeywordSpec]:
        return [KeywordSpec("swarm", "702.900", form="swarm {number}", most=3)]

    engine = Engine(plugins=[hostile("swarm", redzone_keywords=keywords)])
    assert engine.keyword("swarm 3").number == 3
    with pytest.raises(UnknownKeywordError, match="over the bound of 3"):
        engine.keyword("swarm 4")

    def bad() -> list[KeywordSpec]:
        return [KeywordSpec("swarm", "702.900", form="swarm {number}", most=-1)]

    with pytest.raises(PluginLoadError, match="field 'most'") as info:
        Engine(plugins=[hostile("bad_swarm", redzone_keywords=bad)])
    assert info.value.plugin == "bad_swarm"


@pytest.mark.parametrize("verify", [False, True])
def test_reaching_the_created_bound_names_the_plugin_never_a_skipped_event(
        verify: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantee 15, 608.2b: past the bound on objects one command creates,
    the command fails with a BoundError naming mobilize and the bound; the
    tokens over it are never ``skipped`` events letting the combat end with
    another life total. (The bound lowered to 50 to keep the test small.)"""
    monkeypatch.setattr(tx_module, "MAX_CREATED", 50)
    engine = Engine(verify=verify)
    state = _mobilizers(engine, 10, 10)
    before = snapshot(state)
    with pytest.raises(BoundError) as info:
        _attack_all(engine, state)
    assert (info.value.plugin, info.value.bound, info.value.limit) == ("mobilize", "created", 50)
    assert "plugin 'mobilize'" in str(info.value) and "50" in str(info.value)
    assert snapshot(state) == before


def test_reaching_the_object_bound_names_the_plugin() -> None:
    """Guarantee 15: a state holds at most 10,000 objects; 101 creatures
    with mobilize 100 would make 10,100 tokens: BoundError naming mobilize
    and the bound ``objects``, nothing changed."""
    engine = Engine(verify=False)
    state = _mobilizers(engine, 101, 100)
    with pytest.raises(BoundError) as info:
        _attack_all(engine, state)
    assert (info.value.plugin, info.value.bound, info.value.limit) == (
        "mobilize", "objects", 10_000)


def test_702_181_tokens_created_cost_work_linear_in_their_number() -> None:
    """Guarantee 15: creating tokens costs work linear in the tokens
    created, counted as Python calls and as the items copied into new maps
    (C-level copying, which calls don't see: copying the map of objects for
    each token made a combat quadratic). Twice the tokens cost less than 2.2
    times either."""
    engine = Engine(verify=False)
    calls, copies = [], []
    for n in (25, 50):
        state = _mobilizers(engine, 8, n, life=1_000)
        with counting_calls() as called, counting_copies() as copied:
            result = _attack_all(engine, state)
        assert result.state.players["bob"].life == 1_000 - 8 * (n + 1)
        calls.append(called.count)
        copies.append(copied.count)
    assert calls[1] < 2.2 * calls[0], calls
    assert copies[1] < 2.2 * copies[0], copies


@attrs.frozen
class Swarm(Action):
    """A made-up action creating ``amount`` 1/1 tokens attacking ``target``."""

    do: ClassVar[str] = "swarm"
    amount: int
    target: str


def _swarm(tx: Tx, action: Action) -> None:
    assert isinstance(action, Swarm)
    for n in range(action.amount):
        tx.create(Permanent(f"swarm-{n}", "alice", types={"creature"}, base_power=1,
                            base_toughness=1, token=True), tapped=True,
                  attacking=action.target)


def test_111_2_one_action_creating_many_tokens_costs_work_linear_in_them() -> None:
    """Guarantee 15, 111.2: one action of a plugin creating N tokens that
    enter attacking (508.4) copies items linear in N: 300 and 600 tokens,
    twice the tokens cost less than 2.2 times the items copied."""
    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("swarm", e.attacker, "alice", "111.2", actions=(Swarm(size, "bob"),))
                for e in events if e.kind == "attack" and e.attacker == "captain"]

    engine = Engine(verify=False, plugins=[hostile("swarm", redzone_triggers=redzone_triggers,
                                                   redzone_actions=lambda: [
                                                       ActionSpec(Swarm, _swarm, "111.2")])])
    copies = []
    for size in (300, 600):
        state = engine.game(["alice", Player("bob", life=10_000)],
                            [engine.creature("captain", "alice", 1, 1)])
        with counting_copies() as copied:
            result = engine.resolve(state, {"captain": "bob"}, {})
        assert result.state.players["bob"].life == 10_000 - size - 1
        copies.append(copied.count)
    assert copies[1] < 2.2 * copies[0], copies


# ---------------------------------------------------------------------------
# Item 5: loops and growth
# ---------------------------------------------------------------------------


def test_514_3a_the_cleanup_bound_names_the_plugin_that_kept_it_going() -> None:
    """514.3a: a cleanup step in which something happens is followed by
    another; an ability that triggers in every one would repeat it for ever.
    After 100 the command fails with a BoundError naming that plugin."""
    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        if any(e.kind == "step" and e.step == "cleanup" for e in events):
            return [Trigger("again", "ogre", "alice", "514.3a")]
        return []

    engine = Engine(plugins=[hostile("again", redzone_triggers=redzone_triggers)])
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 2, 2)])
    before = snapshot(state)
    with pytest.raises(BoundError) as info:
        engine.end_turn(state)
    assert (info.value.plugin, info.value.bound) == ("again", "cleanups")
    assert "plugin 'again'" in str(info.value) and "514.3a" in str(info.value)
    assert snapshot(state) == before


def _growing(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """Two abilities trigger on the attack and on each of their own
    resolutions: the stack grows until the trigger bound stops the command."""
    return [Trigger("grow", "ogre", "alice", "603.2") for e in events
            if e.kind == "attack" or (e.kind == "resolve" and e.get("ability") == "grow")
            for _ in range(2)]


def test_reaching_the_trigger_bound_in_verify_mode_costs_work_linear_in_the_triggers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantees 10 and 15: verify mode's work is linear in the command's
    work. A stack that grows by one ability per resolution reaches the
    trigger bound (lowered to 250 and 500 for the test); twice the bound
    costs less than 2.2 times the Python calls, with verify mode on."""
    from redzone.kernel import answers

    calls = []
    for bound in (250, 500):
        monkeypatch.setattr(answers, "MAX_TRIGGERS", bound)
        engine = Engine(verify=True, plugins=[hostile("grow", redzone_triggers=_growing)])
        state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 2, 2)])
        with counting_calls() as called, pytest.raises(BoundError) as info:
            engine.declare_attackers(state, {"ogre": "bob"})
        assert (info.value.plugin, info.value.bound) == ("grow", "triggers")
        calls.append(called.count)
    assert calls[1] < 2.2 * calls[0], calls


def test_verify_mode_names_a_plugin_changing_a_trigger_deep_in_a_growing_stack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantee 10: verify mode fingerprints each part of a state once, so a
    plugin that rewrites a trigger deep in the stack (``object.__setattr__``,
    which Python can't stop) is still caught, named, and before the
    trigger bound: the calls that were given a state holding that trigger
    are replayed on a pristine rebuild of it."""
    from redzone.kernel import answers

    monkeypatch.setattr(answers, "MAX_TRIGGERS", 500)

    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        if len(state.stack) == 120:
            object.__setattr__(state.stack[5], "text", "rewritten")
        return []

    engine = Engine(verify=True, plugins=[hostile("grow", redzone_triggers=_growing),
                                          hostile("sneak", redzone_triggers=redzone_triggers)])
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 2, 2)])
    with pytest.raises(PluginError) as info:
        engine.declare_attackers(state, {"ogre": "bob"})
    assert not isinstance(info.value, BoundError), str(info.value)
    assert (info.value.plugin, info.value.hook) == ("sneak", "redzone_triggers"), str(info.value)
    assert "changed the state" in str(info.value)


def test_verify_mode_names_a_plugin_changing_one_permanent_of_a_big_board() -> None:
    """Guarantee 10: on a board of 300 creatures a plugin that rewrites one
    of them in a query is named, its hook too; the permanent is one part
    among hundreds, found by comparing what was recorded of each."""
    def redzone_attack_violations(state: GameState) -> list[Any]:
        object.__setattr__(state.objects["c217"], "base_power", 9)
        return []

    engine = Engine(verify=True, plugins=[hostile("sneak", redzone_attack_violations=(
        redzone_attack_violations))])
    state = engine.game(["alice", "bob"],
                        [engine.creature(f"c{i}", "alice" if i % 2 else "bob", 1, 1)
                         for i in range(300)])
    with pytest.raises(PluginError) as info:
        engine.declare_attackers(state, {"c1": "bob", "c3": "bob"})
    assert (info.value.plugin, info.value.hook) == ("sneak", "redzone_attack_violations")
    assert "changed the state" in str(info.value)


def _turns(engine: Engine, state: GameState, turns: int) -> list[int]:
    """Play ``turns`` turns in which alice's captain attacks (mobilize 2: two
    Warriors, sacrificed at the end step, 702.181a); the size of the state
    (objects and last known information) after each."""
    sizes = []
    for _ in range(turns):
        if state.active_player == "alice":
            state = engine.resolve(state, {"captain": "bob"}, {}, through="cleanup").state
            # 111.7, 704.5d: within the turn, they are reported as ceased.
            assert {p.zone for i, p in state.objects.items() if ".mobilize." in i} == {"ceased"}
        else:
            state = engine.end_turn(state).state
        state = engine.begin_turn(state, draw=False).state
        sizes.append(len(state.objects) + len(state.lki))
    return sizes


def test_704_5d_ceased_tokens_do_not_accumulate_over_a_long_game() -> None:
    """111.7, 704.5d: tokens that ceased to exist are gone from the state as
    the next turn begins, so the state's size stays flat however many turns
    make tokens (40 turns: the same size after each)."""
    engine = Engine()
    state = engine.game(["alice", Player("bob", life=1_000)],
                        [engine.creature("captain", "alice", 1, 1, "mobilize 2")])
    sizes = _turns(engine, state, 40)
    assert len(set(sizes)) == 1, sizes


# ---------------------------------------------------------------------------
# The bounds on actions and on continuous effects (guarantee 15)
# ---------------------------------------------------------------------------


@attrs.frozen
class _Loop(Action):
    """A plugin action whose perform function performs ``count`` actions."""

    do: ClassVar[str] = "bounds_loop"
    count: int
    pump: bool


@attrs.frozen
class _Nothing(Action):
    do: ClassVar[str] = "bounds_nothing"
    target: str


def _looper() -> Any:
    def perform(tx: Tx, action: _Loop) -> None:
        for _ in range(action.count):
            tx.perform(_Nothing("ogre") if not action.pump else _pump())

    def _pump() -> Action:
        from redzone import Pump
        return Pump("ogre", 0, 0)

    def triggers(state: GameState, events: Any) -> list[Trigger]:
        return [Trigger("looper", "ogre", "alice", "603.2")
                for e in events if e.kind == "attack"]

    return perform, triggers


@pytest.mark.parametrize(("pump", "count", "bound", "calls_each"), [
    (False, tx_module.MAX_ACTIONS + 1, "actions", 150),
    (True, tx_module.MAX_MODIFICATIONS + 1, "modifications", 1_000),
])
def test_a_plugin_past_the_action_or_effect_bound_is_named(
        pump: bool, count: int, bound: str, calls_each: int) -> None:
    """Guarantee 15: a plugin action performing more than MAX_ACTIONS actions,
    or giving one permanent more than MAX_MODIFICATIONS continuous effects
    (613: each is read again for every characteristic, so thousands would
    cost time quadratic in them), fails the command with a BoundError naming
    the plugin and the bound; the state given is unchanged. Stopped by
    counting calls, never a clock: a bound that didn't hold would run past
    the budget."""
    perform, triggers = _looper()
    plugin = hostile(
        "looper",
        redzone_actions=lambda: [ActionSpec(_Loop, perform, "117.1"),
                                 ActionSpec(_Nothing, lambda tx, a: None, "117.1")],
        redzone_triggers=triggers,
        redzone_resolve_trigger=lambda state, trigger: (
            [_Loop(count, pump)] if trigger.kind == "looper" else []))
    engine = Engine(plugins=[plugin])
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 2, 2)])
    before = snapshot(state)
    with counting_calls() as calls, pytest.raises(BoundError) as info:
        engine.resolve(state, {"ogre": "bob"}, {})
    assert info.value.plugin == "looper" and info.value.bound == bound
    assert f"the bound {bound} = " in str(info.value)
    assert snapshot(state) == before
    assert calls.count < calls_each * count, calls.count


def test_a_bound_error_names_the_plugins_distribution() -> None:
    """Guarantee 9's naming holds for run-time bounds: a BoundError made by
    the working copy names the plugin's distribution (here the built-in
    mobilize, past the bound on objects created)."""
    engine = Engine()
    with pytest.raises(BoundError) as info:
        _attack_all(engine, _mobilizers(engine, 101, 100))
    assert info.value.plugin == "mobilize"
    assert info.value.distribution == "redzone"
    assert "plugin 'mobilize' (redzone " in str(info.value)


def test_a_board_within_the_schema_past_the_answers_bound_is_a_bound_error() -> None:
    """Guarantees 11 and 15: 201 creatures with 50 instances of exalted each
    (within the scenario format's bounds) make exalted answer more than
    10,000 triggers to one call: a BoundError naming the plugin, its
    distribution and the bound "answers" (exit 3), never a plugin fault of
    another kind or minutes of work."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [
        engine.creature(f"c{i}", "alice", 1, 1, *["exalted"] * 50) for i in range(201)])
    with pytest.raises(BoundError) as info:
        engine.resolve(state, {"c0": "bob"}, {})
    assert (info.value.bound, info.value.plugin, info.value.distribution) == (
        "answers", "exalted", "redzone")
