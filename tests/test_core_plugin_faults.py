"""A plugin that takes too long on a hook call (issue: contained plugin faults).

Raising and wrongly-typed answers are covered per hook in test_core_plugins;
this module covers the time limit an embedding engine can set.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
import redzone
from redzone import Engine, GameState, PluginError


def _slow(seconds: float) -> SimpleNamespace:
    def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[object]:
        time.sleep(seconds)
        return []

    return SimpleNamespace(__name__="sloth",
                           redzone_block_violations=redzone.hookimpl(redzone_block_violations))


def _attacked(engine: Engine) -> GameState:
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3),
                                            engine.creature("bear", "bob", 2, 2)])
    return engine.declare_attackers(state, {"ogre": "bob"}).state


def test_a_plugin_over_the_time_limit_fails_the_command_and_changes_nothing() -> None:
    # Only the slow plugin: a built-in's call descheduled for 10 ms on a busy
    # machine would fail the command first, naming the built-in.
    engine = Engine(discover=False, plugins=[_slow(0.05)], hook_timeout=0.01)
    state = _attacked(engine)
    with pytest.raises(PluginError) as info:
        engine.declare_blockers(state, {"bear": "ogre"})
    error = info.value
    assert error.plugin == "sloth" and error.hook == "redzone_block_violations"
    assert "over the engine's limit of 0.01 s" in str(error)
    assert "509.1a" in str(error) and "'declare_attackers'" in str(error)
    assert state.combat is not None and state.combat.blocks == {}


def test_no_limit_by_default() -> None:
    engine = Engine(plugins=[_slow(0.02)])
    assert engine.hooks.timeout is None
    state = _attacked(engine)
    assert engine.declare_blockers(state, {"bear": "ogre"}).state.combat is not None


def test_a_plugin_under_the_limit_is_fine() -> None:
    engine = Engine(plugins=[_slow(0.0)], hook_timeout=5.0)
    assert engine.declare_blockers(_attacked(engine), {"bear": "ogre"}).state.step == (
        "declare_blockers")


def _slow_replacement(seconds: float) -> SimpleNamespace:
    def replace(state: GameState, result: redzone.Result) -> None:
        time.sleep(seconds)

    def redzone_result_replacements(state: GameState,
                                    result: redzone.Result) -> list[redzone.ResultReplacement]:
        return [redzone.ResultReplacement("slow", "614.1a", replace)]

    return SimpleNamespace(__name__="sloth", redzone_result_replacements=redzone.hookimpl(
        redzone_result_replacements))


def test_a_result_replacement_over_the_time_limit_is_named() -> None:
    """Guarantee 9: a result replacement's ``replace`` is plugin code the one
    call loop runs, so the engine's time limit holds for it as for a hook
    call, and the fault names the plugin and the replacement."""
    # (a limit loading every built-in plugin stays well within on a loaded machine)
    engine = Engine(plugins=[_slow_replacement(0.6)], hook_timeout=0.25)
    state = engine.declare_blockers(_attacked(engine), {}).state
    with pytest.raises(PluginError) as info:
        engine.combat_damage(state)
    error = info.value
    assert (error.plugin, error.hook) == ("sloth", "redzone_result_replacements")
    assert "replacement 'slow' took" in str(error)
    assert "over the engine's limit of 0.25 s" in str(error)


def test_the_production_loop_is_not_wrapped() -> None:
    """Guarantee 22 (the production path): with verify mode off and no time
    limit the facade calls the plain loop itself; each of them wraps it."""
    plain = Engine(verify=False).hooks
    assert plain._loop is plain._plain
    for hooks in (Engine(verify=True).hooks, Engine(verify=False, hook_timeout=1.0).hooks):
        assert hooks._loop is not hooks._plain
