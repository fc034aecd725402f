"""A bare ``str`` is not a collection of strings, and what a plugin puts is checked.

A ``str`` is an iterable of its characters, so ``subtypes="Soldier"`` once
became ``('S', 'o', 'l', ...)`` and ``Engine(block="flying")`` blocked
plugins named ``f``, ``l``, ``y`` ... and loaded flying. A value class's
collection field, and an engine's ``block`` and ``allow``, refuse a ``str``
(or ``bytes``) with a :class:`TypeError` naming the field. A plugin that
builds such a value fails its command with a :class:`~redzone.PluginError`
naming it (guarantee 9), and so does one that puts a permanent with a field
of the wrong type (``tx.put(perm.evolve(tapped="no"))``), the state
unchanged, instead of a bare ``TypeError`` or a state that can't be saved
(guarantee 7).
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from attrs import frozen
from redzone import (
    Action,
    ActionSpec,
    Choice,
    CreateToken,
    Engine,
    Event,
    GameState,
    Modification,
    ObjectId,
    Permanent,
    PluginError,
    Pump,
    Trigger,
    Tx,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.testing import plugin_module


def _soldier(**fields: Any) -> Permanent:
    return Permanent("s1", "alice", **{"name": "Soldier", "base_power": 1,
                                       "base_toughness": 1, **fields})


@pytest.mark.parametrize(("field", "value"), [
    ("subtypes", "Soldier"), ("subtypes", b"Soldier"), ("colors", "white"),
    ("types", "creature"), ("supertypes", "legendary"), ("printed_keywords", "flying"),
    ("marks", "chosen"),
])
def test_permanent_refuses_a_str_for_a_collection(field: str, value: object) -> None:
    """205.3a / 105.2 / 702.1: a permanent has zero or more subtypes, colors
    and keywords: ``subtypes="Soldier"`` is one str, not the subtypes S, o,
    l, d, i, e, r. Building it raises a TypeError naming the field and
    saying to pass a list or tuple, on construction and through evolve."""
    with pytest.raises(TypeError, match=rf"Permanent: {field} is .*pass a list or tuple"):
        _soldier(**{field: value})
    with pytest.raises(TypeError, match=rf"Permanent: {field} is .*pass a list or tuple"):
        _soldier().evolve(**{field: value})


def test_a_list_of_strings_is_still_taken() -> None:
    """205.3a: the same values as lists or tuples are what they always were."""
    p = _soldier(subtypes=["Soldier"], colors=("white",), printed_keywords=["flying"])
    assert (p.subtypes, p.colors, [k.text for k in p.printed_keywords]) == (
        ("Soldier",), frozenset({"white"}), ["flying"])
    assert p.evolve(subtypes=["Human", "Soldier"]).subtypes == ("Human", "Soldier")


def test_choice_refuses_a_str_for_its_options_and_default() -> None:
    """608.2d: a choice offers options and has a default answer, each a
    sequence of options: the str ``"bear"`` is refused (naming ``options``,
    then ``default``), not read as the options b, e, a, r."""
    with pytest.raises(TypeError, match=r"Choice: options is the str 'bear'.*pass a list "
                                        r"or tuple"):
        Choice("target", "alice", "target", "bear", default=("bear",))
    with pytest.raises(TypeError, match=r"Choice: default is the str 'bear'.*pass a list "
                                        r"or tuple"):
        Choice("target", "alice", "target", ("bear",), default="bear")


def test_choice_then_maps_each_option_to_a_sequence_of_actions() -> None:
    """608.2d, 118.3: what an option's choice makes happen is a sequence of
    actions; one action in its place is refused naming ``then`` and the
    option, and so is a str; a list becomes a tuple."""
    with pytest.raises(TypeError, match=r"Choice: then\['a'\] is a Pump.*pass a list or "
                                        r"tuple"):
        Choice("x", "alice", "cost", ("a",), then={"a": Pump("a", 1, 1)})
    with pytest.raises(TypeError, match=r"Choice: then\['a'\] is the str 'pump'"):
        Choice("x", "alice", "cost", ("a",), then={"a": "pump"})
    c = Choice("x", "alice", "cost", ("a",), then={"a": [Pump("a", 1, 1)]})
    assert c.then["a"] == (Pump("a", 1, 1),)


def test_trigger_choices_refuse_a_str_answer() -> None:
    """608.2d: a trigger's choices made as it resolves are, by name,
    sequences of what was chosen: ``{"target": "cub"}`` is refused naming
    ``choices`` and the name, not read as the answer ``'c'``."""
    with pytest.raises(TypeError, match=r"Trigger: choices\['target'\] is the str 'cub'.*"
                                        r"pass a list or tuple"):
        Trigger("mentor", "sage", "alice", "702.134a", choices={"target": "cub"})
    t = Trigger("mentor", "sage", "alice", "702.134a", choices={"target": ["cub"]})
    assert t.choices["target"] == ("cub",)


@pytest.mark.parametrize("argument", ["block", "allow"])
def test_engine_refuses_a_str_for_block_or_allow(argument: str) -> None:
    """Guarantee 9's load-time side: ``block`` and ``allow`` are collections
    of plugin names; ``block="flying"`` once blocked plugins named f, l, y,
    i, n, g and loaded flying. A str is a TypeError naming the argument."""
    with pytest.raises(TypeError, match=rf"Engine: {argument} is the str 'flying'.*pass a "
                                        r"list or tuple"):
        Engine(**{argument: "flying"})  # type: ignore[arg-type]
    engine = Engine(block=["flying"])
    assert not any(k.spec.name == "flying" for k in engine.keywords())


def test_plugin_building_a_str_collection_is_a_plugin_error() -> None:
    """603.2, guarantee 9: a plugin whose triggered ability is built with
    ``choices={"target": "cub"}`` fails the command with a PluginError
    naming it and the hook; the caller's state is unchanged."""
    def triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("cubs", "orc", "alice", "603.2", choices={"target": "cub"})
                for e in events if e.kind == "attack"]

    engine = Engine(discover=False, plugins=[plugin_module("cubs", redzone_triggers=triggers)])
    state = engine.game(["alice", "bob"], [engine.creature("orc", "alice", 2, 2)])
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.declare_attackers(state, {"orc": "bob"})
    assert (info.value.plugin, info.value.hook) == ("cubs", "redzone_triggers")
    assert "choices['target'] is the str 'cub'" in str(info.value)
    assert state_to_dict(state) == before


@frozen
class Wound(Action):
    """A test action kind: its perform function puts ``target`` changed."""

    do: ClassVar[str] = "wound"
    target: ObjectId
    changes: tuple[tuple[str, Any], ...] = ()


def _wound(tx: Tx, action: Action) -> None:
    assert isinstance(action, Wound)
    perm = tx.permanent(action.target, action.do)
    tx.put(perm.evolve(**dict(action.changes)))


@frozen
class Spawn(Action):
    """A test action kind: its perform function creates a token whose power
    is the str ``"2"``."""

    do: ClassVar[str] = "spawn"
    id: ObjectId


def _spawn(tx: Tx, action: Action) -> None:
    assert isinstance(action, Spawn)
    tx.create(Permanent(action.id, "alice", base_power=1, base_toughness=1).evolve(
        base_power="2"))


@frozen
class Weaken(Action):
    """A test action kind: its perform function gives ``target`` a
    modification whose power is the str ``"2"``."""

    do: ClassVar[str] = "weaken"
    target: ObjectId


def _weaken(tx: Tx, action: Action) -> None:
    assert isinstance(action, Weaken)
    tx.modify(action.target, Modification(power="2"))  # type: ignore[arg-type]


def _wounding() -> tuple[Engine, GameState]:
    wound = plugin_module("wound", redzone_actions=lambda: [
        ActionSpec(Wound, _wound, "120.3e"), ActionSpec(Spawn, _spawn, "111.2"),
        ActionSpec(Weaken, _weaken, "613.4c")])
    engine = Engine(discover=False, plugins=[wound])
    return engine, engine.game(["alice", "bob"], [engine.creature("bear", "bob", 2, 2)])


@pytest.mark.parametrize(("changes", "named"), [
    ((("damage", "2"), ("tapped", "no")), "damage is '2' (str)"),
    ((("tapped", "no"),), "tapped is 'no' (str)"),
    ((("controller", 7),), "controller is 7 (int)"),
])
def test_plugin_putting_a_mistyped_permanent_is_a_plugin_error(
        changes: tuple[tuple[str, Any], ...], named: str) -> None:
    """120.3e, 110.5, guarantees 7 and 9: damage marked on a creature is a
    number and a permanent is tapped or untapped. A plugin's action that
    puts ``perm.evolve(damage="2")`` or ``tapped="no"`` fails the command
    with a PluginError naming the plugin, the permanent and the field, the
    state unchanged (not a bare TypeError as state-based actions compare
    damage, nor a state that can't be saved and loaded back)."""
    engine, state = _wounding()
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.perform(state, Wound("bear", changes))
    assert info.value.plugin == "wound"
    assert "put" in str(info.value) and "'bear'" in str(info.value)
    assert named in str(info.value)
    assert state_to_dict(state) == before


def test_plugin_creating_a_mistyped_permanent_is_a_plugin_error() -> None:
    """111.2, guarantees 7 and 9: a plugin's action creating a token whose
    power is the str ``"2"`` fails with a PluginError naming the plugin and
    the field, the state unchanged."""
    engine, state = _wounding()
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.perform(state, Spawn("t1"))
    assert info.value.plugin == "wound"
    assert "base_power is '2' (str)" in str(info.value)
    assert state_to_dict(state) == before


def test_plugin_modifying_with_a_mistyped_effect_is_a_plugin_error() -> None:
    """613.4c, guarantee 9: a plugin's action adding a modification whose
    power is the str ``"2"`` fails with a PluginError naming the plugin and
    the field (not a bare TypeError as power is computed), the state
    unchanged."""
    engine, state = _wounding()
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.perform(state, Weaken("bear"))
    assert info.value.plugin == "wound"
    assert "modify: the modification: power is '2' (str)" in str(info.value)
    assert state_to_dict(state) == before


def test_plugin_putting_a_well_typed_permanent_is_taken() -> None:
    """120.3e: a plugin's action marking damage with a number does so, and
    the state round-trips."""
    engine, state = _wounding()
    out = engine.perform(state, Wound("bear", (("damage", 1), ("tapped", True))))
    bear = out.state.objects["bear"]
    assert (bear.damage, bear.tapped) == (1, True)
    assert state_from_dict(state_to_dict(out.state)) == out.state


def test_create_token_of_a_str_subtype_is_refused_before_the_command() -> None:
    """111.2, 205.3a: a token's subtypes given as one str are refused as the
    Permanent is built, so neither CreateToken nor Engine.game sees letters."""
    with pytest.raises(TypeError, match=r"Permanent: subtypes is the str 'Soldier'"):
        CreateToken(_soldier(subtypes="Soldier"))
