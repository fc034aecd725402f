"""Containment of plugin values (guarantee 9), offers' ``then`` (603.3c-d)
and the ids a trigger's actions name (608.2b).

Guarantee 9: checking and using a plugin's answer runs inside the same
triage as the call: a value whose dunder methods run plugin code (a ``str``
or ``int`` subclass, an action class with a hostile ``__getattribute__``) is
refused, or its fault is the answering plugin's :class:`~redzone.PluginError`,
and the command line exits 3 naming it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from attrs import frozen
from hostile_kit import FILES, board, combat, hostile, install_plugin, snapshot
from redzone import Action, Choice, Engine, GameState, PluginError, Pump, Trigger
from redzone.kernel.actions import Destroy
from redzone.kernel.hooktypes import ActionSpec

ATTACK = FILES / "containment-attack.toml"


class LoudStr(str):
    """A str whose repr, hash and equality run plugin code."""

    def __repr__(self) -> str:
        raise SystemExit(0)

    def __eq__(self, other: object) -> bool:
        raise SystemExit(0)

    __hash__ = str.__hash__


class LoudInt(int):
    """An int whose repr and comparisons run plugin code."""

    def __repr__(self) -> str:
        raise SystemExit(0)

    def __eq__(self, other: object) -> bool:
        raise SystemExit(0)

    def __lt__(self, other: object) -> bool:
        raise SystemExit(0)

    def __gt__(self, other: object) -> bool:
        raise SystemExit(0)

    __hash__ = int.__hash__


@frozen
class Sneaky(Action):
    """An action kind whose attribute reads run plugin code."""

    do: ClassVar[str] = "contain2_sneaky"
    target: str

    def __getattribute__(self, name: str) -> Any:
        if name == "target":
            raise SystemExit(0)
        return object.__getattribute__(self, name)


def _on_attack(**fields: Any) -> Any:
    def redzone_triggers(state: GameState, events: tuple[Any, ...]) -> list[Trigger]:
        if any(e.kind == "attack" for e in events):
            base: dict[str, Any] = {"kind": "hostile", "source": "ogre",
                                    "controller": "alice", "rule": "603.2"}
            base.update(fields)
            return [Trigger(**base)]
        return []
    return redzone_triggers


def _fails_naming(plugin: Any, hook: str, *texts: str) -> PluginError:
    engine = Engine(plugins=[plugin])
    state = board(engine)
    before = snapshot(state)
    with pytest.raises(PluginError) as info:
        combat(engine, state)
    error = info.value
    assert (error.plugin, error.hook) == (plugin.__name__, hook), str(error)
    for text in texts:
        assert text in str(error), str(error)
    assert snapshot(state) == before
    return error


# -- 1: values whose dunder methods run plugin code ----------------------------------

def test_guarantee_9_a_str_subclass_field_is_refused_without_running_its_repr() -> None:
    """A trigger's ``text`` of a str subclass whose ``__repr__`` raises
    SystemExit is refused naming the plugin, the hook and the field."""
    _fails_naming(hostile("loudtext", redzone_triggers=_on_attack(text=LoudStr("x"))),
                  "redzone_triggers", "'text'", "LoudStr")


def test_guarantee_9_an_action_class_raising_in_getattribute_names_its_plugin() -> None:
    """A plugin's action kind whose ``__getattribute__`` raises SystemExit
    while the kernel checks its fields is that plugin's PluginError."""
    plugin = hostile("sneaky",
                     redzone_actions=lambda: [ActionSpec(Sneaky, lambda tx, a: None, "117.1")],
                     redzone_triggers=_on_attack(actions=(Sneaky("ogre"),)))
    _fails_naming(plugin, "redzone_triggers", "SystemExit")


@pytest.mark.parametrize("hook", ["redzone_lethal_damage", "redzone_combat_damage_amount"])
def test_guarantee_9_an_int_subclass_amount_is_refused(hook: str) -> None:
    """510.1: an amount answered as an int subclass (whose ``__eq__`` would
    run in the damage pipeline) is refused naming the plugin and hook."""
    plugin = hostile("loudint", **{hook: lambda state, **kw: LoudInt(1)})
    _fails_naming(plugin, hook, "LoudInt", "an int")


PLUGIN_MODULE = '''
import redzone
from redzone import Trigger


class LoudStr(str):
    def __repr__(self):
        raise SystemExit(0)


@redzone.hookimpl
def redzone_triggers(state, events):
    return [Trigger("loud", e.attacker, state.active_player, "603.2", text=LoudStr("x"))
            for e in events if e.kind == "attack"]
'''


@pytest.fixture(scope="module")
def loud_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An installed distribution ``contain2-loud`` whose ``redzone`` entry
    point ``loud`` answers a trigger whose text's repr calls SystemExit."""
    return install_plugin(tmp_path_factory.mktemp("site"), "contain2-loud",
                          "contain2_loud", PLUGIN_MODULE, "loud")


def test_guarantee_9_a_str_subclass_from_an_installed_plugin_is_exit_3(
        loud_site: Path) -> None:
    """As reported: ``run --json`` exited 0 with no output; now it exits 3
    naming the plugin."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(loud_site), *filter(None, [
        *sys.path[1:], env.get("PYTHONPATH", "")])])
    result = subprocess.run([sys.executable, "-m", "redzone", "run", "--json", str(ATTACK)],
                            capture_output=True, text=True, env=env, timeout=300,
                            check=False)
    assert result.returncode == 3, (result.stdout, result.stderr)
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "plugin_error", error
    assert "'loud'" in error["message"] and "'text'" in error["message"], error


# -- 2: a trigger's offers carry no then ---------------------------------------------

def test_603_3c_a_then_on_a_trigger_offer_is_a_malformed_answer() -> None:
    """603.3c-d: a trigger's offers are its targets and modes; ``then``
    (costs and options of declarations, 508.1g-h, 509.1d-f) on one would be
    silently ignored, so it is refused naming the plugin."""
    offer = Choice("a", "alice", "option", ("a", "b"), default=("a",),
                   then={"a": (Pump("ogre", 5, 5),)})
    _fails_naming(hostile("offering", redzone_triggers=_on_attack(offers=(offer,))),
                  "redzone_triggers", "then")


# -- 3: ids a trigger's actions name -------------------------------------------------

def test_608_2b_an_action_naming_an_id_that_never_existed_is_the_plugins_error() -> None:
    """608.2b is for objects that became illegal; an id that is no object,
    no last known information and no player when the trigger is answered
    is the plugin's malformed answer."""
    _fails_naming(hostile("ghostly",
                          redzone_triggers=_on_attack(actions=(Pump("ghost", 5, 5),))),
                  "redzone_triggers", "'ghost'")


def test_608_2b_an_object_that_left_before_resolving_is_still_skipped() -> None:
    """608.2b: the trigger's action names the wall, which is destroyed
    (by a trigger resolving first) before it resolves: skipped, not an error."""
    def redzone_triggers(state: GameState, events: tuple[Any, ...]) -> list[Trigger]:
        if any(e.kind == "attack" for e in events):
            return [Trigger("a-pump", "ogre", "alice", "603.2", actions=(Pump("wall", 1, 1),)),
                    Trigger("b-kill", "ogre", "alice", "603.2", actions=(Destroy("wall"),))]
        return []

    engine = Engine(plugins=[hostile("leaver", redzone_triggers=redzone_triggers)])
    state = board(engine)
    outcome = engine.declare_attackers(state, {"ogre": "bob"})
    kinds = [e.kind for e in outcome.events]
    assert "skipped" in kinds, kinds
    assert outcome.state.objects["wall"].zone == "graveyard"
