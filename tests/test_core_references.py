"""References: which field of which class names what, declared once in the
annotations (``PlayerId``, ``ObjectId`` ...), read by one function
(:func:`redzone.kernel.references.reference_fields`) that the saved-state
checks, a scenario's action checks and the checks of a plugin's trigger
actions all call (guarantee 7; 608.2b for the ids an action names)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from attrs import frozen
from redzone import Action, Engine, ObjectId, PlayerId
from redzone.formats import serialize
from redzone.formats.document import Problems, ScenarioProblems, format_path
from redzone.formats.scenario import _Builder
from redzone.formats.scenario_actions import BOARD_KINDS
from redzone.kernel._checks import _unknown_ids
from redzone.kernel.actions import ACTIONS, MakeBlock, Prevent
from redzone.kernel.model import Combat, Trigger
from redzone.kernel.references import Ref, named_ids, reference_fields


@frozen
class Nudge(Action):
    """A plugin's action kind whose ``creature`` names an object."""

    do: ClassVar[str] = "test_references_nudge"
    creature: ObjectId
    player: PlayerId | None = None
    note: str = ""


@frozen
class Plain(Action):
    """A plugin's action kind that declares no reference."""

    do: ClassVar[str] = "test_references_plain"
    creature: str


def test_reference_fields_read_the_annotations() -> None:
    """A field's kind is its annotation's, through ``| None`` and tuples, in
    declaration order; a field without one (a text, the combat's maps,
    checked with the combat: 506.4) is no reference."""
    assert reference_fields(Trigger) == {"source": "any", "controller": "player",
                                         "targets": "player or object"}
    assert list(reference_fields(Prevent).items()) == [
        ("target", "player or object"), ("source", "source"), ("gain_life", "player")]
    assert reference_fields(Nudge) == {"creature": "object", "player": "player"}
    assert reference_fields(Plain) == {}
    assert reference_fields(Combat) == {}
    assert reference_fields(int) == {}


def test_named_ids_are_the_reference_fields_values() -> None:
    """The ids an error about an action names are those of its reference
    fields, not its other strings."""
    assert named_ids(MakeBlock("wall", "ogre")) == ("wall", "ogre")
    assert named_ids(Nudge("ogre", None, note="ghost")) == ("ogre",)
    assert named_ids(Trigger("t", "ogre", "alice", "603.2", targets=("wall", "bob"))) == (
        "ogre", "alice", "wall", "bob")


def test_an_unknown_kind_is_refused() -> None:
    """A mark names one of the kinds the checks know, or is refused as it is made."""
    with pytest.raises(ValueError, match="unknown reference kind 'creature'"):
        Ref("creature")


def _state(engine: Engine) -> Any:
    return engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3)])


def test_a_plugin_kinds_references_are_checked_as_a_trigger_names_them(engine: Engine) -> None:
    """608.2b: a trigger's action that names an id the state doesn't have is
    refused, for a plugin's kind as for the core's, when its fields say they
    are references; a field that doesn't say so is not looked into."""
    state = _state(engine)
    assert _unknown_ids(state, Nudge("ghost", "alice", note="nowhere")) == ["ghost"]
    assert _unknown_ids(state, Nudge("ogre", "nobody")) == ["nobody"]
    assert _unknown_ids(state, Nudge("ogre", "alice", note="nowhere")) == []
    assert _unknown_ids(state, Plain("ghost")) == []


def test_a_saved_plugin_action_names_ids_of_the_state(engine: Engine) -> None:
    """Guarantee 7: a saved trigger's action of a plugin's kind naming an id
    the state doesn't have is refused with its path; its other strings are open."""
    data = serialize.state_to_dict(_state(engine))
    trigger = {"kind": "t", "source": "ogre", "controller": "alice", "rule": "603.2",
               "id": "t1"}
    data["stack"] = [{**trigger, "actions": [{"do": Nudge.do, "creature": "ogre",
                                              "note": "anything"}]}]
    serialize.state_from_dict(data)
    data["stack"] = [{**trigger, "actions": [{"do": Plain.do, "creature": "ghost"}]}]
    serialize.state_from_dict(data)
    data["stack"] = [{**trigger, "actions": [{"do": Nudge.do, "creature": "ghost"}]}]
    with pytest.raises(serialize.StateFormatError) as info:
        serialize.state_from_dict(data)
    assert info.value.path == "stack[0].actions[0].creature"


def _problems(engine: Engine, do: str, adata: dict[str, Any]) -> dict[str, str]:
    """The problems a scenario action ``adata`` of kind ``do`` has on a board
    of alice, bob and alice's ogre, by key."""
    data = {"players": {"alice": {}, "bob": {}},
            "permanents": [{"id": "ogre", "controller": "alice", "power": 3, "toughness": 3}]}
    problems = Problems("<test>", {})
    board = _Builder(data, problems, engine)
    board.build_players()
    board.build_permanents()
    board.reader.fields(("combat", "actions", 0), do, {"do": do, **adata}, {})
    if not problems:
        return {}
    error: ScenarioProblems = problems.error()
    return {p.key: p.detail for p in error.problems}


def test_a_scenario_action_checks_each_reference_field_its_kind_declares(
        engine: Engine) -> None:
    """Each reference field of each action kind a scenario may name must
    name a player or permanent of the scenario, and one its kind allows (a
    permanent where an object is named, 608.2b); the problem names the key."""
    checked = 0
    for do, cls in ACTIONS.items():
        for name, kind in reference_fields(cls).items():
            key = format_path(("combat", "actions", 0, name))
            found = _problems(engine, do, {name: "nobody"})
            assert "'nobody'" in found.get(key, ""), (do, name, found)
            wrong = "alice" if "player" not in BOARD_KINDS[kind] else "ogre"
            if "permanent" in BOARD_KINDS[kind] and "player" in BOARD_KINDS[kind]:
                assert key not in _problems(engine, do, {name: "alice"}), (do, name)
                continue
            found = _problems(engine, do, {name: wrong})
            assert "must be a" in found.get(key, ""), (do, name, found)
            checked += 1
    assert checked >= 20
