"""Every action kind a plugin declares is usable in a scenario file (issue 23
item 2; the contract's "plugins' own actions in files"): ``do = "<its
kind>"`` with its declared fields as keys, each field checked by its
annotation (a bad one a ``bad_scenario`` problem naming the file, the key
and the line), and listed by ``redzone keywords``.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import ClassVar, Literal

import pytest
from attrs import frozen
from click.testing import CliRunner
from redzone import Action, ActionSpec, Engine, ObjectId, Permanent, PlayerId, Tx, hookimpl
from redzone.formats.action_fields import action_fields, action_schema, type_text
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.frontends.cli import cli

KNIGHT = """
active_player = "alice"

[players.alice]
[players.bob]

[[permanents]]
id = "knight"
name = "Knight"
controller = "alice"
power = 2
toughness = 2
keywords = ["enlist"]

[[permanents]]
id = "squire"
name = "Squire"
controller = "alice"
power = 3
toughness = 1

[combat]
attacks = { knight = "bob" }

[[combat.actions]]
after = "declare_attackers"
do = "enlist"
"""


def _problems(text: str, **kwargs: object) -> list[tuple[str, int | None, str]]:
    with pytest.raises(ScenarioProblems) as info:
        loads(text, file="knight.toml", **kwargs)  # type: ignore[arg-type]
    return [(p.key, p.line, p.detail) for p in info.value.problems]


def test_a_plugin_action_kind_is_performed_from_a_file() -> None:
    """702.154a, 702.154c: enlist's own action kind, written in a file, taps
    the Squire and its reflexive trigger gives the Knight +3/+0: 5 damage to
    bob. (Refused as an unknown action before; a wrong field would fail.)"""
    scenario = loads(KNIGHT + 'creature = "knight"\nenlisted = "squire"\n')
    out = outcome_json(resolve(scenario))
    assert out["ok"] is True
    assert out["permanents"]["squire"]["tapped"] is True
    assert out["players"]["bob"]["life"] == 15
    assert any(e["kind"] == "enlisted" and e["object"] == "squire" for e in out["events"])


def test_a_plugin_action_field_of_the_wrong_type_names_file_key_and_line() -> None:
    """Issue 23 item 2: each field is checked by its annotation (``ObjectId``:
    an id), a bad one a problem with file, key and line; an unknown key gets
    the valid keys."""
    text = KNIGHT + 'creature = "knight"\nenlisted = 3\nextra = true\n'
    found = _problems(text)
    assert ("combat.actions[0].enlisted", 29, "expected a string, got the number 3") in found
    assert any(k == "combat.actions[0].extra" and line == 30
               and "valid keys here: after, do, creature, enlisted" in m
               for k, line, m in found)


def test_a_plugin_action_missing_a_field_or_naming_no_permanent_is_refused() -> None:
    """A required field left out, and an ``ObjectId`` naming nothing on the board."""
    missing = _problems(KNIGHT + 'creature = "knight"\n')
    assert any(k == "combat.actions[0].enlisted" and "missing required key 'enlisted'" in m
               for k, _line, m in missing)
    unknown = _problems(KNIGHT + 'creature = "knight"\nenlisted = "squirre"\n')
    assert any(k == "combat.actions[0].enlisted" and "squirre" in m and "'squire'" in m
               for k, _line, m in unknown), unknown


def test_without_its_plugin_the_kind_is_unknown() -> None:
    """The kinds a file may name are the engine's: with enlist blocked,
    ``do = "enlist"`` is an unknown action."""
    text = KNIGHT.replace('keywords = ["enlist"]', "") + \
        'creature = "knight"\nenlisted = "squire"\n'
    found = _problems(text, engine_factory=lambda rules: Engine(rules, block=["enlist"]))
    assert any(k == "combat.actions[0].do" and "unknown action 'enlist'" in m
               for k, _line, m in found), found


# -- a plugin kind with every writable annotation, and one that can't be written ------


@frozen
class Rally(Action):
    """Tap creatures and name a player (a test kind)."""

    do: ClassVar[str] = "rally"
    tapped: tuple[ObjectId, ...]
    player: PlayerId
    mode: Literal["loud", "quiet"] = "loud"
    times: int = 1


@frozen
class Summon(Action):
    """Put a permanent onto the battlefield (a test kind a file can't write)."""

    do: ClassVar[str] = "summon"
    permanent: Permanent


def _rally(tx: Tx, action: Action) -> None:
    assert isinstance(action, Rally)
    for obj in action.tapped:
        tx.put(tx.permanent(obj, action.do).evolve(tapped=True))
    tx.lose_life(action.player, action.times, "", "119.3")


RALLY = SimpleNamespace(__name__="rally", redzone_actions=hookimpl(
    lambda: [ActionSpec(Rally, _rally, "701.26a"), ActionSpec(Summon, _rally, "110.2")]))

BOARD = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "a"
name = "A"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "b"
name = "B"
controller = "alice"
power = 1
toughness = 1
[combat]
attacks = {}
[[combat.actions]]
after = "beginning_of_combat"
"""


def _rally_engine(rules: str) -> Engine:
    return Engine(rules, plugins=[RALLY])


def test_a_list_field_and_a_literal_field_are_read_from_a_file() -> None:
    """A ``tuple[ObjectId, ...]`` is a TOML list (each id checked), a
    ``Literal`` one of its values; the action is performed with a tuple."""
    text = BOARD + 'do = "rally"\ntapped = ["a", "b"]\nplayer = "bob"\ntimes = 2\n'
    scenario = loads(text, engine_factory=_rally_engine)
    assert scenario.actions[0][1] == Rally(("a", "b"), "bob", "loud", 2)
    out = outcome_json(resolve(scenario))
    assert out["players"]["bob"]["life"] == 18
    assert out["permanents"]["a"]["tapped"] and out["permanents"]["b"]["tapped"]
    bad = BOARD + 'do = "rally"\ntapped = ["a", "zz"]\nplayer = "a"\nmode = "shout"\n'
    found = _problems(bad, engine_factory=_rally_engine)
    keys = {k for k, _line, _m in found}
    assert {"combat.actions[0].tapped[1]", "combat.actions[0].player",
            "combat.actions[0].mode"} <= keys, found


def test_a_field_a_file_cant_write_is_refused_naming_it() -> None:
    """A kind with a ``Permanent`` field: the problem names the field and
    its type, not a bare failure."""
    found = _problems(BOARD + 'do = "summon"\n', engine_factory=_rally_engine)
    assert any(k == "combat.actions[0].do" and "'permanent'" in m and "Permanent" in m
               and "can't be written" in m for k, _line, m in found), found


def test_the_fields_are_read_from_the_annotations() -> None:
    """The schema branch and the listing come from the kind's annotations."""
    fields = {f.name: f for f in action_fields(Rally)}
    assert [f.text for f in fields.values()] == [
        "tapped: list of object id", "player: player id", "mode: 'loud' | 'quiet' (optional)",
        "times: whole number (optional)"]
    branch = action_schema(Rally)
    assert branch["required"] == ["after", "do", "tapped", "player"]
    assert branch["properties"]["mode"] == {"enum": ["loud", "quiet"]}
    assert type_text(Permanent) == "Permanent"


def test_redzone_keywords_lists_each_plugin_action_kind_with_its_fields() -> None:
    """Issue 23 item 2: ``redzone keywords`` documents the plugins' kinds
    (text and JSON), not the kernel's."""
    result = CliRunner().invoke(cli, ["keywords"])
    assert result.exit_code == 0
    assert "enlist (702.154a, plugin enlist): creature: object id, enlisted: object id" \
        in result.output
    data = json.loads(CliRunner().invoke(cli, ["keywords", "--json"]).output)
    kinds = {a["do"]: a for a in data["actions"]}
    assert "pump" not in kinds
    assert [f["name"] for f in kinds["enlist"]["fields"]] == ["creature", "enlisted"]
    assert kinds["enlist"]["summary"].startswith("Pay an enlist cost")


def test_a_literal_field_out_of_its_values_is_an_illegal_action() -> None:
    """117.1: the kernel checks a ``Literal`` field as it performs the
    action (an illegal action naming the field, not a crash of the checker)."""
    from redzone import IllegalActionError

    engine = _rally_engine("foundations")
    state = engine.game(["alice", "bob"], [engine.creature("a", "alice", 1, 1)])
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Rally(("a",), "bob", "shout"))  # type: ignore[arg-type]
    assert "mode" in info.value.message and "shout" in info.value.message
    assert engine.perform(state, Rally(("a",), "bob", "quiet")).state.players["bob"].life == 19
