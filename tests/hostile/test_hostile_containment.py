"""Containment of plugin code on every path (Containment II, items 2 and 8).

Guarantee 9: a plugin that raises anything, wherever its code runs (a hook
call, a result replacement, the perform function of its own action kind,
the actions its answers ask the kernel to perform) fails the command with a
:class:`~redzone.PluginError` naming *that* plugin, its distribution, the
hook, its rules and the step; the caller's state is unchanged; the command
line exits 3. ``KeyboardInterrupt`` passes through. Guarantee 20: once the
game is over every command is refused (104.2a). Guarantee 13: a command
given ``choices`` of the wrong type raises a typed error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
import redzone
from attrs import frozen
from hostile_kit import FILES, board, combat, hostile, install_plugin, snapshot
from redzone import (
    Action,
    Choice,
    Engine,
    GameState,
    IllegalActionError,
    PluginError,
    PluginState,
    Pump,
    Trigger,
)
from redzone.kernel.actions import AddEffect, Destroy, SetState
from redzone.kernel.errors import BadQueryError
from redzone.kernel.hooktypes import ActionSpec, DestructionReplacement
from redzone.kernel.model import Condition, Effect

ATTACK = FILES / "containment-attack.toml"


@frozen
class Hostile(Action):
    """A plugin's own action kind whose perform function misbehaves."""

    do: ClassVar[str] = "hostile_containment"
    target: str


def _on_attack(kind: str = "hostile", **fields: Any) -> Callable[..., list[Trigger]]:
    """``redzone_triggers``: one trigger of ``kind`` when the ogre attacks."""
    def redzone_triggers(state: GameState, events: tuple[Any, ...]) -> list[Trigger]:
        if any(e.kind == "attack" for e in events):
            base: dict[str, Any] = {"kind": kind, "source": "ogre", "controller": "alice",
                                    "rule": "603.2"}
            base.update(fields)
            return [Trigger(**base)]
        return []
    return redzone_triggers


def _resolving(*actions: Action) -> Callable[..., list[Action]]:
    def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Action]:
        return list(actions) if trigger.kind == "hostile" else []
    return redzone_resolve_trigger


def _acting(name: str, perform: Callable[[Any, Hostile], None]) -> Any:
    """A plugin declaring :class:`Hostile` performed by ``perform``, whose
    trigger on the ogre's attack resolves one such action."""
    return hostile(name, redzone_actions=lambda: [ActionSpec(Hostile, perform, "117.1")],
                   redzone_triggers=_on_attack(),
                   redzone_resolve_trigger=_resolving(Hostile("ogre")))


def _raise(exc: BaseException) -> Callable[[Any, Hostile], None]:
    def perform(tx: Any, action: Hostile) -> None:
        raise exc
    return perform


def _fails_naming(plugin: Any, hook: str, text: str, *, verify: bool = True,
                  unchanged: bool = True) -> PluginError:
    """The combat with ``plugin`` fails naming it and ``hook``, the message
    holding ``text``, the hook's rules and the step; the state is unchanged."""
    engine = Engine(plugins=[plugin], verify=verify)
    state = board(engine)
    before = snapshot(state)
    with pytest.raises(PluginError) as info:
        combat(engine, state)
    error = info.value
    assert (error.plugin, error.hook) == (plugin.__name__, hook), str(error)
    assert text in str(error), str(error)
    assert "(rules " in str(error) and "during step" in str(error), str(error)
    if unchanged:  # (a change made with object.__setattr__ is reported, not undone)
        assert snapshot(state) == before
    return error


# -- item 2: BaseException from a plugin's action kind ------------------------------

@pytest.mark.parametrize("verify", [True, False], ids=["verify", "production"])
@pytest.mark.parametrize("exc", [SystemExit(0), GeneratorExit(), RecursionError("deep"),
                                 PluginError("flying is broken", plugin="flying")],
                         ids=["SystemExit", "GeneratorExit", "RecursionError", "blame"])
def test_guarantee_9_a_raising_perform_function_names_its_plugin(
        exc: BaseException, verify: bool) -> None:
    """Guarantee 9 on the path of actions: the perform function of a
    plugin's own kind raising anything (it blaming another plugin included)
    is that plugin's PluginError, with and without verify mode."""
    plugin = _acting("quitter", _raise(exc))
    error = _fails_naming(plugin, "redzone_actions", f"raised {type(exc).__name__}",
                          verify=verify)
    assert error.__cause__ is exc


def test_guarantee_9_ctrl_c_in_a_perform_function_passes_through() -> None:
    """KeyboardInterrupt passes through every path (documented: a real
    Ctrl-C can't be told from a plugin raising it)."""
    engine = Engine(plugins=[_acting("ctrl-c", _raise(KeyboardInterrupt()))])
    with pytest.raises(KeyboardInterrupt):
        combat(engine, board(engine))


def test_guarantee_10_a_perform_function_changing_its_state_is_named() -> None:
    """Guarantee 10 on the path of actions: verify mode compares the state a
    perform function was given before and after it, and names its plugin."""
    def perform(tx: Any, action: Hostile) -> None:
        object.__setattr__(tx.state.players["bob"], "life", 99)

    _fails_naming(_acting("rewriter", perform), "redzone_actions", "changed the state",
                  unchanged=False)


def test_guarantee_9_a_destruction_replacement_that_destroys_again_is_its_plugins_fault(
        ) -> None:
    """701.8, 614.8: a replacement whose action destroys the same permanent
    again recursed until Python's RecursionError escaped; now that error
    names the plugin that answered the replacement."""
    def redzone_destruction_replacements(state: GameState, permanent: str
                                         ) -> list[DestructionReplacement]:
        return [DestructionReplacement("again", "614.8", (Destroy(permanent),))]

    _fails_naming(hostile("again", redzone_destruction_replacements=(
        redzone_destruction_replacements)), "redzone_destruction_replacements",
        "raised RecursionError")


def _deep(depth: int = 100_000) -> Any:
    value: Any = ()
    for _ in range(depth):
        value = (value,)
    return value


@pytest.mark.parametrize("verify", [True, False], ids=["verify", "production"])
def test_guarantee_9_a_slot_value_nested_too_deep_names_its_plugin(verify: bool) -> None:
    """611.2: a plugin's slot holds frozen data; one nested deeper than
    Python recurses raised a bare RecursionError, now the plugin's error."""
    deep = _deep()
    plugin = hostile("deep", redzone_record=lambda state, events: PluginState(deep, "game"))
    _fails_naming(plugin, "redzone_record", "nested too deep", verify=verify)


def test_guarantee_9_a_deep_value_set_through_set_state_names_its_plugin() -> None:
    """The kernel's SetState performed for a plugin (its resolving trigger)
    with a value nested too deep: that plugin's error, not the kernel's."""
    plugin = hostile("deep-set", redzone_triggers=_on_attack(),
                     redzone_resolve_trigger=_resolving(SetState(_deep())))
    _fails_naming(plugin, "redzone_resolve_trigger", "RecursionError")


# -- item 2: malformed answers of the new hooks -----------------------------------

def _choices(*items: Any) -> Callable[..., list[Any]]:
    return lambda state, attacks: list(items)


#: name -> (hooks, the hook named, a text of the message). The first six came
#: back as an IllegalActionError naming no plugin (a "bad scenario" on the
#: command line); the others resolved as if nothing was wrong.
MALFORMED: dict[str, tuple[dict[str, Callable[..., Any]], str, str]] = {
    "choice-default-not-an-option": (
        {"redzone_attack_choices": _choices(Choice("pay", "alice", "option", ("a",),
                                                   default=("b",)))},
        "redzone_attack_choices", "default is illegal"),
    "choice-then-not-an-action": (
        {"redzone_attack_choices": _choices(Choice("pay", "alice", "option", ("a",),
                                                   default=("a",), then={"a": ("x",)}))},
        "redzone_attack_choices", "where an action of a declared kind was expected"),
    "choice-then-string-power": (
        {"redzone_attack_choices": _choices(Choice(
            "pay", "alice", "option", ("a",), default=("a",),
            then={"a": (Pump("ogre", "3", 3),)}))},  # type: ignore[arg-type]
        "redzone_attack_choices", "Pump.power is '3'"),
    "offer-default-not-an-option": (
        {"redzone_triggers": _on_attack(offers=(Choice("t", "alice", "target", ("ogre",),
                                                       default=("ghost",)),))},
        "redzone_triggers", "default is illegal"),
    "slot-not-frozen-data": (
        {"redzone_record": lambda state, events: PluginState({1.5}, "game")},
        "redzone_record", "not frozen data"),
    "replacement-string-power": (
        {"redzone_destruction_replacements": lambda state, permanent: [
            DestructionReplacement("r", "614.8", (Pump(permanent, "3", 3),))]},  # type: ignore[arg-type]
        "redzone_destruction_replacements", "Pump.power is '3'"),
    # resolved as if nothing was wrong: a trigger's own malformed actions were
    # skipped as illegal at resolution (608.2b), an unknown choice kind taken
    "trigger-action-string-power": (
        {"redzone_triggers": _on_attack(actions=(Pump("ogre", "3", 3),))},  # type: ignore[arg-type]
        "redzone_triggers", "Pump.power is '3'"),
    "choice-unknown-kind": (
        {"redzone_attack_choices": _choices(Choice("pay", "alice", "wish", ("a",),
                                                   default=("a",)))},
        "redzone_attack_choices", "field 'kind' is 'wish'"),
    "choice-player-nobody": (
        {"redzone_attack_choices": _choices(Choice("pay", "nobody", "option", ("a",),
                                                   default=("a",)))},
        "redzone_attack_choices", "field 'player' is 'nobody'"),
    # with no plugin named before
    "replacement-not-an-action": (
        {"redzone_destruction_replacements": lambda state, permanent: [
            DestructionReplacement("r", "614.8", ("x",))]},  # type: ignore[arg-type]
        "redzone_destruction_replacements", "where an action of a declared kind"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_guarantee_9_a_malformed_answer_of_a_new_hook_names_the_plugin(name: str) -> None:
    """Guarantee 9, field by field, for the hooks of the open kernel
    (choices and their ``then``, trigger offers and actions, destruction
    replacements, slots): the plugin and the hook are named."""
    hooks, hook, text = MALFORMED[name]
    _fails_naming(hostile(name, **hooks), hook, text)


def test_611_2b_a_while_condition_no_plugin_answers_is_the_plugins_error() -> None:
    """611.2b and the hook's documentation ("a condition no plugin answers
    is an error naming its kind"): an effect a plugin makes lasting while a
    condition of a kind nobody answers was skipped, so it silently never
    applied."""
    effect = Effect("pump", to="ogre", duration="while",
                    condition=Condition("moon_is_full", object="ogre"))
    plugin = hostile("moon", redzone_triggers=_on_attack(),
                     redzone_resolve_trigger=_resolving(AddEffect(effect)))
    _fails_naming(plugin, "redzone_condition_holds", "'moon_is_full'")


def test_611_2b_the_callers_own_while_effect_stays_an_illegal_action() -> None:
    """The same effect performed by the caller (no plugin) is the caller's
    illegal action, as before: no plugin is blamed."""
    engine = Engine()
    effect = Effect("pump", to="ogre", duration="while",
                    condition=Condition("moon_is_full", object="ogre"))
    with pytest.raises(IllegalActionError) as info:
        engine.perform(board(engine), AddEffect(effect))
    assert not isinstance(info.value, PluginError)
    assert info.value.rule == "611.2b"


# -- the command line: run, run --json, batch, batch --jobs 2 -------------------------

PLUGIN_MODULE = '''
import sys
from typing import ClassVar

from attrs import frozen

import redzone
from redzone import Action, Trigger
from redzone.kernel.hooktypes import ActionSpec


@frozen
class Quit(Action):
    do: ClassVar[str] = "containment_quit"
    target: str


def _perform(tx, action):
    sys.exit(0)


@redzone.hookimpl
def redzone_actions():
    return [ActionSpec(Quit, _perform, "117.1")]


@redzone.hookimpl
def redzone_triggers(state, events):
    return [Trigger("containment_quit", e.attacker, state.active_player, "603.2")
            for e in events if e.kind == "attack"]


@redzone.hookimpl
def redzone_resolve_trigger(state, trigger):
    return [Quit(trigger.source)] if trigger.kind == "containment_quit" else []
'''


@pytest.fixture(scope="module")
def quitter_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding an installed distribution ``containment-quitter``
    whose ``redzone`` entry point ``quitter`` is a plugin whose action kind
    calls ``sys.exit(0)``: how the command line takes third-party plugins."""
    return install_plugin(tmp_path_factory.mktemp("site"), "containment-quitter",
                          "containment_quitter", PLUGIN_MODULE, "quitter")


def _cli(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [
        *sys.path[1:], env.get("PYTHONPATH", "")])])
    return subprocess.run([sys.executable, "-m", "redzone", *args], capture_output=True,
                          text=True, env=env, timeout=300, check=False)


@pytest.mark.parametrize("args", [["run"], ["run", "--json"], ["batch", "--json"],
                                  ["batch", "--json", "--jobs", "2"]],
                         ids=["run", "run-json", "batch", "batch-jobs-2"])
def test_guarantee_9_sys_exit_in_a_plugin_action_is_exit_3_on_every_command(
        quitter_site: Path, args: list[str]) -> None:
    """Item 2, as reported: ``sys.exit(0)`` in a plugin action's perform
    function made ``run``, ``run --json``, ``batch`` and ``batch --jobs 2``
    exit 0 with no output. Now each exits 3 naming the plugin and its
    distribution."""
    result = _cli(quitter_site, *args, str(ATTACK))
    assert result.returncode == 3, (result.stdout, result.stderr)
    if "--json" not in args:
        assert "quitter" in result.stdout + result.stderr
        return
    if args[0] == "run":
        error = json.loads(result.stdout)["error"]
    else:  # one line per file: {"file", "status", "outcome"}
        line = json.loads(result.stdout.splitlines()[0])
        assert line["status"] == 3
        error = line["outcome"]["error"]
    assert error["kind"] == "plugin_error", error
    assert "'quitter'" in error["message"] and "containment-quitter" in error["message"]
    assert "raised SystemExit" in error["message"]


# -- item 8: choices= of the wrong type ----------------------------------------------

def _commands(engine: Engine, state: GameState) -> dict[str, Callable[[Any], Any]]:
    """Every Engine method taking ``choices``, called with ``choices=c``."""
    return {
        "begin_combat": lambda c: engine.begin_combat(state, choices=c),
        "declare_attackers": lambda c: engine.declare_attackers(state, {"ogre": "bob"},
                                                                choices=c),
        "declare_blockers": lambda c: engine.declare_blockers(
            engine.declare_attackers(state, {"ogre": "bob"}).state, {}, choices=c),
        "combat_damage": lambda c: engine.combat_damage(engine.declare_blockers(
            engine.declare_attackers(state, {"ogre": "bob"}).state, {}).state, choices=c),
        "end_of_combat": lambda c: engine.end_of_combat(
            engine.declare_attackers(state, {}).state, choices=c),
        "finish": lambda c: engine.finish(engine.end_of_combat(
            engine.declare_attackers(state, {}).state).state, choices=c),
        "end_step": lambda c: engine.end_step(state, choices=c),
        "cleanup": lambda c: engine.cleanup(engine.end_step(state).state, choices=c),
        "end_turn": lambda c: engine.end_turn(state, choices=c),
        "begin_turn": lambda c: engine.begin_turn(engine.end_turn(state).state, draw=False,
                                                  choices=c),
        "perform": lambda c: engine.perform(state, Pump("ogre", 1, 1), choices=c),
        "resolve": lambda c: engine.resolve(state, {"ogre": "bob"}, choices=c),
        "resolve_trigger(choices)": lambda c: engine.resolve_trigger(state, choices=c),
        "resolve_trigger(answers)": lambda c: engine.resolve_trigger(state, answers=c),
    }


WRONG_CHOICES: dict[str, Any] = {
    "a list": ["order@alice"],
    "a str": "order@alice",
    "an int answer": {"order@alice": 3},
    "an int key": {3: "a"},
    "a list of ints": {"order@alice": [1, 2]},
    "bytes": {"order@alice": b"t1"},
}


@pytest.mark.parametrize("wrong", sorted(WRONG_CHOICES))
@pytest.mark.parametrize("command", [
    "begin_combat", "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat",
    "finish", "end_step", "cleanup", "end_turn", "begin_turn", "perform", "resolve",
    "resolve_trigger(choices)", "resolve_trigger(answers)"])
def test_guarantee_13_choices_of_the_wrong_type_are_a_bad_query(command: str,
                                                                 wrong: str) -> None:
    """Guarantee 13 (601.2): every Engine method taking ``choices`` refuses
    answers of the wrong type with a BadQueryError naming the argument, and
    changes nothing (an AttributeError or TypeError escaped before)."""
    engine = Engine()
    state = board(engine)
    before = snapshot(state)
    with pytest.raises(BadQueryError) as info:
        _commands(engine, state)[command](WRONG_CHOICES[wrong])
    assert "choices" in str(info.value) or "answers" in str(info.value)
    assert snapshot(state) == before


def test_guarantee_13_good_choices_still_work() -> None:
    """The check refuses only the wrong types: str and list answers pass it
    (what is refused then is that no decision asked for them, 601.2, issue
    23 item 4: not their type)."""
    from redzone import UnaskedChoiceError

    engine = Engine()
    state = board(engine)
    engine.resolve(state, {"ogre": "bob"}, {"wall": "ogre"}, choices={})
    with pytest.raises(UnaskedChoiceError) as info:
        engine.begin_combat(state, choices={"x": "y", "z": ["a", "b"], "w": ("c",)})
    assert info.value.unasked == ("w", "x", "z") and info.value.asked == ()


# -- item 8: after the game is over, every command is refused (104.2a) ----------------

def _over(engine: Engine) -> GameState:
    """A game Bob has lost (104.3b: 0 life), with a trigger on the stack."""
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 6, 6)])
    state = state.evolve(players=state.players.set(
        "bob", state.players["bob"].evolve(life=0)))
    over = Engine(auto_triggers=False).check_state_based_actions(state).state
    assert over.game_over is not None
    return over.evolve(stack=(Trigger("t", "ogre", "alice", "603.2", id="t1"),))


#: Every public command of Engine (each returns an Outcome or a CombatResult).
COMMANDS: dict[str, Callable[[Engine, GameState], Any]] = {
    "begin_combat": lambda e, s: e.begin_combat(s),
    "declare_attackers": lambda e, s: e.declare_attackers(s, {}),
    "declare_blockers": lambda e, s: e.declare_blockers(s, {}),
    "combat_damage": lambda e, s: e.combat_damage(s),
    "end_of_combat": lambda e, s: e.end_of_combat(s),
    "finish": lambda e, s: e.finish(s),
    "end_step": lambda e, s: e.end_step(s),
    "cleanup": lambda e, s: e.cleanup(s),
    "end_turn": lambda e, s: e.end_turn(s),
    "begin_turn": lambda e, s: e.begin_turn(s, draw=False),
    "untap_step": lambda e, s: e.untap_step(s),
    "upkeep": lambda e, s: e.upkeep(s),
    "draw_step": lambda e, s: e.draw_step(s),
    "precombat_main": lambda e, s: e.precombat_main(s),
    "perform": lambda e, s: e.perform(s, Pump("ogre", 1, 1)),
    "check_state_based_actions": lambda e, s: e.check_state_based_actions(s),
    "resolve_trigger": lambda e, s: e.resolve_trigger(s),
    "remove_trigger": lambda e, s: e.remove_trigger(s, "t1"),
    "resolve": lambda e, s: e.resolve(s, {}),
    "activate": lambda e, s: e.activate(s, "ogre", "ninjutsu"),
}


def test_guarantee_20_the_command_list_is_every_public_command() -> None:
    """The list below covers every public method of Engine that returns an
    Outcome or a CombatResult (a new command must join it)."""
    import inspect

    returning = {name for name, fn in inspect.getmembers(Engine, inspect.isfunction)
                 if not name.startswith("_")
                 and str(inspect.signature(fn).return_annotation) in ("Outcome",
                                                                      "CombatResult")}
    assert returning == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_guarantee_20_every_command_is_refused_once_the_game_is_over(command: str) -> None:
    """104.2a: once the game is over nothing more happens; remove_trigger
    and check_state_based_actions still acted on a finished game."""
    engine = Engine(auto_triggers=False)
    state = _over(engine)
    with pytest.raises(IllegalActionError) as info:
        COMMANDS[command](engine, state)
    assert info.value.rule == "104.2a", str(info.value)


# -- item 8: a plugin passed as an object is named by what it is ----------------------

class _NamedByClass:
    """A plugin instance without a ``__name__`` of its own."""

    @redzone.hookimpl
    def redzone_attack_violations(self, state: GameState, attacker: str,
                                  attacked: str) -> None:
        raise SystemExit(5)


class _ExitingGetattr(_NamedByClass):
    """Attribute access runs code that exits: naming must not run it."""

    def __getattr__(self, name: str) -> Any:
        raise SystemExit(2)


@pytest.mark.parametrize("plugin, name", [
    (_NamedByClass(), "_NamedByClass"),
    (_ExitingGetattr(), "_ExitingGetattr"),
    (_NamedByClass, "_NamedByClass"),
], ids=["instance", "instance-with-exiting-getattr", "class"])
def test_guarantee_9_a_plugin_object_is_named_by_what_it_is(plugin: object,
                                                            name: str) -> None:
    """A plugin object (not a module) is named by its own ``__name__`` or,
    for an instance, its class's name, not ``module.Class``; reading the
    name runs no plugin code (a ``__getattr__`` raising SystemExit escaped
    from Engine() before)."""
    engine = Engine(plugins=[plugin], discover=False)
    assert name in engine.plugin_infos
    assert not any("." in n and not n.startswith("redzone.") for n in engine.plugin_infos)
