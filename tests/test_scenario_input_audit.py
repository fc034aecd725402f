"""Bad scenario input found by an audit, against the scenario format's
contract and ``docs/guarantees.md`` #11: every scenario file gives a resolved
combat, an illegal-declaration error, or a ``bad_scenario`` error naming the
file, the key and the line, never a traceback; unknown keys are an error
(typos must not pass silently).

- A key that isn't a string (an API document's ``1``, ``None``, ``1.5``...)
  is a problem naming the table it is in, never a ``TypeError``.
- A ``[[triggers]]`` ``match`` key must be a field of the ``when`` kind of
  event (603.2: the trigger event's fields), and the value of an id field
  must name an object or player of the file.
- The ``cards`` key is checked (stays in the scenario's folder, names a
  file) whether or not a permanent names a card (docs/cards.md).
- A duplicate key, or JSON's ``NaN``/``Infinity``, names its key and line.
- ``after = "combat_damage_assigned"`` names a window only an edition with
  combat damage on the stack has (310.4 of February 2009); under another
  edition the action is a bad scenario naming its ``after`` ("Additions of
  January 2027": an action after a window that never comes in the file).

Each file is run as ``redzone run --json FILE`` runs it (exit status: 0
resolved, 1 illegal, 2 bad scenario).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from redzone.formats import scenario as sc
from redzone.frontends.cli import cli

BOARD = """active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
controller = "alice"
power = 6
toughness = 4
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "warden"
controller = "bob"
power = 1
toughness = 1
[combat]
attacks = { wurm = "bob" }
blocks = { bear = ["wurm"] }
"""

#: A Soul Warden-like trigger of the board's; MATCH is its ``match``.
TRIGGER = """[[triggers]]
when = "dies"
source = "warden"
match = MATCH
text = "bob gains 2 life"
actions = [ { do = "gain_life", player = "bob", amount = 2 } ]
"""


def run(tmp_path: Path, text: str, name: str = "scenario.toml") -> tuple[int, dict[str, Any]]:
    """``redzone run --json FILE``: its exit status and its JSON."""
    path = tmp_path / name
    path.write_text(text)
    result = CliRunner().invoke(cli, ["run", "--json", str(path)])
    return result.exit_code, json.loads(result.stdout)


def refused(tmp_path: Path, text: str, name: str = "scenario.toml"
            ) -> tuple[str, int | None, str]:
    """The key, line and message of the one problem of a bad scenario file
    (exit status 2)."""
    status, out = run(tmp_path, text, name)
    assert status == 2, out
    error = out["error"]
    assert error["kind"] == "bad_scenario"
    assert error["file"] == str(tmp_path / name)
    return error["key"], error["line"], error["message"]


# ---------------------------------------------------------------------------
# 1. Keys that aren't strings (from_data)
# ---------------------------------------------------------------------------

BASE: dict[str, Any] = {
    "active_player": "alice", "players": {"alice": {}, "bob": {}},
    "teams": {"t1": ["alice"]},
    "permanents": [{"id": "wurm", "controller": "alice", "power": 6, "toughness": 4,
                    "counters": {"+1/+1": 1}},
                   {"id": "wall", "controller": "bob", "power": 0, "toughness": 4}],
    "combat": {"attacks": {"wurm": "bob"}, "blocks": {"wall": ["wurm"]},
               "order": {"wurm": ["wall"]}, "assign": {"wurm": {"wall": 4, "bob": 2}},
               "actions": [{"after": "declare_blockers", "do": "gain_life",
                            "player": "bob", "amount": 1}]},
    "triggers": [{"when": "dies", "source": "wall", "match": {"object": "self"},
                  "actions": [{"do": "gain_life", "player": "bob", "amount": 1}]}],
    "choices": {},
}


def _tables(node: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The path of every table of ``node``."""
    out: list[tuple[str | int, ...]] = []
    if isinstance(node, dict):
        out.append(path)
        for k, v in node.items():
            out += _tables(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _tables(v, (*path, i))
    return out


def _with_key(path: tuple[str | int, ...], key: Any) -> dict[str, Any]:
    doc = json.loads(json.dumps(BASE))
    node = doc
    for part in path:
        node = node[part]
    node[key] = "x"
    return doc


@pytest.mark.parametrize("key", [1, None, True, 1.5, (1, 2), b"id"],
                         ids=["int", "None", "bool", "float", "tuple", "bytes"])
@pytest.mark.parametrize("path", _tables(BASE), ids=lambda p: sc.format_path(p) or "top")
def test_guarantee_11_a_key_that_isnt_a_string_is_a_problem_naming_its_table(
        path: tuple[str | int, ...], key: Any) -> None:
    """docs/guarantees.md #11: every document gives a resolved combat or an
    error naming the key, never a traceback: a key that isn't a string, in
    any table (fixed keys or ids), is the problem "expected a string key"
    at the table it is in."""
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.from_data(_with_key(path, key))
    found = [(p.key, p.detail) for p in info.value.problems
             if "expected a string key" in p.detail]
    assert len(found) == 1
    assert found[0][0] == sc.format_path(path)
    assert found[0][1].startswith("expected a string key, got ")


def test_guarantee_11_an_id_that_isnt_a_string_is_never_suggested() -> None:
    """docs/guarantees.md #11: with a player whose id isn't a string, an
    unknown id elsewhere is still a problem with its close match (the
    suggestions offer only string ids)."""
    doc = json.loads(json.dumps(BASE))
    doc["players"][1.5] = {}
    doc["permanents"][0]["controller"] = "alcie"
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.from_data(doc)
    assert [(p.key, p.detail) for p in info.value.problems][:2] == [
        ("players", "expected a string key, got the number 1.5, which is not a whole number"),
        ("permanents[0].controller",
         "unknown player id 'alcie' (a controller); did you mean 'alice'?")]


def test_guarantee_11_the_message_names_the_key_that_isnt_a_string() -> None:
    """docs/guarantees.md #11: the problem says which key it is."""
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.from_data({**BASE, "players": {"alice": {}, "bob": {}, 1.5: {}}})
    assert [(p.key, p.detail) for p in info.value.problems] == [
        ("players", "expected a string key, got the number 1.5, which is not a whole number")]
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.from_data({**BASE, "combat": {"attacks": {"wurm": "bob", None: "bob"}}})
    assert [(p.key, p.detail) for p in info.value.problems] == [
        ("combat.attacks", "expected a string key, got null")]


# ---------------------------------------------------------------------------
# 2. A trigger's match (603.2)
# ---------------------------------------------------------------------------


def test_603_2_a_match_key_that_is_no_field_of_the_kind_of_event_is_refused(
        tmp_path: Path) -> None:
    """603.2: an ability triggers on an event whose fields are those its
    trigger condition names; "dies" events have an ``object``, so
    ``match = { objcet = "bear" }`` (a typo) is refused at its key, with the
    field it was meant to be, not a trigger that never fires."""
    text = BOARD + TRIGGER.replace("MATCH", '{ objcet = "bear" }')
    key, line, message = refused(tmp_path, text)
    assert (key, line) == ("triggers[0].match.objcet", 25)
    assert "did you mean 'object'" in message
    assert "'dies'" in message


def test_603_2_a_match_id_that_names_nothing_of_the_file_is_refused(tmp_path: Path) -> None:
    """603.2: ``match = { object = "baer" }`` names no object of the file:
    the trigger could never fire; refused at its key as unknown ids are,
    with the close id."""
    text = BOARD + TRIGGER.replace("MATCH", '{ object = "baer" }')
    key, line, message = refused(tmp_path, text)
    assert (key, line) == ("triggers[0].match.object", 25)
    assert "'baer'" in message and "did you mean 'bear'" in message


def test_603_2_a_match_of_the_kinds_fields_still_triggers(tmp_path: Path) -> None:
    """603.2: a correct ``match`` (an id of the file, ``"self"``, a step,
    which every event has) is accepted, and the trigger fires."""
    status, out = run(tmp_path, BOARD + TRIGGER.replace("MATCH", '{ object = "bear" }'))
    assert status == 0, out
    assert out["players"]["bob"]["life"] == 22
    step = BOARD + TRIGGER.replace("MATCH", '{ step = "combat_damage", object = "bear" }')
    status, out = run(tmp_path, step)
    assert status == 0, out
    assert out["players"]["bob"]["life"] == 22


def test_603_2_a_match_value_of_a_field_that_holds_no_id_is_not_an_id(
        tmp_path: Path) -> None:
    """603.2: only id fields are checked against the file's ids: a
    ``zone_change`` event's ``zone`` is a zone, not an id."""
    text = BOARD + TRIGGER.replace('"dies"', '"zone_change"').replace(
        "MATCH", '{ zone = "graveyard", object = "bear" }')
    status, out = run(tmp_path, text)
    assert status == 0, out


# ---------------------------------------------------------------------------
# 3. The cards key, with no permanent naming a card
# ---------------------------------------------------------------------------

PLAIN = """active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
controller = "alice"
power = 6
toughness = 4
[combat]
attacks = { wurm = "bob" }
"""


@pytest.mark.parametrize("cards", ["/etc/passwd", "../../nonexistent/AtomicCards.json",
                                   "sub/../../x.json"])
def test_cards_md_a_cards_path_out_of_the_folder_is_refused_even_unused(
        tmp_path: Path, cards: str) -> None:
    """docs/cards.md, "The file": absolute and ``../`` paths are refused at
    the ``cards`` key, so a scenario from elsewhere can't make redzone read
    other files, whether or not a permanent names a card."""
    key, line, message = refused(tmp_path, f'cards = "{cards}"\n' + PLAIN)
    assert (key, line) == ("cards", 1)
    assert "not in the scenario's folder" in message


def test_cards_md_a_missing_card_file_is_refused_even_unused(tmp_path: Path) -> None:
    """docs/cards.md: the ``cards`` key names a card file; one that doesn't
    exist is refused at the key (a typo must not pass silently)."""
    key, line, message = refused(tmp_path, 'cards = "nope.json"\n' + PLAIN)
    assert (key, line) == ("cards", 1)
    assert "no such card file" in message


def test_cards_md_an_unused_card_file_is_not_read(tmp_path: Path) -> None:
    """docs/cards.md: a card file no permanent uses is checked to be there,
    not read: one that isn't JSON still resolves."""
    (tmp_path / "cards.json").write_text("not JSON at all")
    status, out = run(tmp_path, 'cards = "cards.json"\n' + PLAIN)
    assert status == 0, out


def test_cards_md_a_directory_as_card_file_is_refused(tmp_path: Path) -> None:
    """docs/cards.md: only a regular file is opened; a directory is refused
    at once, at the ``cards`` key."""
    (tmp_path / "sub").mkdir()
    key, line, message = refused(tmp_path, 'cards = "sub"\n' + PLAIN)
    assert (key, line) == ("cards", 1)
    assert "not a regular file" in message


# ---------------------------------------------------------------------------
# 4. Syntax-level problems name the key
# ---------------------------------------------------------------------------


def test_guarantee_11_a_toml_duplicate_key_names_the_key_and_line(tmp_path: Path) -> None:
    """docs/guarantees.md #11: a TOML key given twice (which TOML forbids)
    is refused naming the key and the line of the second one."""
    text = PLAIN.replace("power = 6\n", "power = 6\npower = 7\n")
    key, line, message = refused(tmp_path, text)
    assert (key, line) == ("permanents[0].power", 8)
    assert message.startswith(f"{tmp_path / 'scenario.toml'}:8: permanents[0].power: "
                              "invalid TOML")


def test_guarantee_11_a_json_duplicate_key_names_the_key_and_line(tmp_path: Path) -> None:
    """docs/guarantees.md #11: a JSON key given twice in one object is
    refused naming that key path and the line of the second one, even when
    an earlier object has the same key once."""
    text = ('{\n "active_player": "alice",\n "players": {"alice": {}, "bob": {}},\n'
            ' "permanents": [\n  {"id": "w", "controller": "alice", "power": 1,\n'
            '   "toughness": 1},\n  {"id": "v", "controller": "bob",\n'
            '   "power": 1, "toughness": 1,\n   "power": 2}\n ],\n'
            ' "combat": {"attacks": {}}\n}\n')
    key, line, message = refused(tmp_path, text, "scenario.json")
    assert (key, line) == ("permanents[1].power", 9)
    assert "duplicate key 'power'" in message


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_guarantee_11_json_nan_names_the_key_and_line(tmp_path: Path, constant: str) -> None:
    """docs/guarantees.md #11: JSON's ``NaN`` and ``Infinity`` (not numbers
    a scenario can use) are refused naming their key and line."""
    text = ('{\n "active_player": "alice",\n "players": {"alice": {}, "bob": {}},\n'
            ' "permanents": [\n  {"id": "w", "controller": "alice",\n'
            f'   "power": {constant}, "toughness": 1}}\n ],\n "combat": {{}}\n}}\n')
    key, line, message = refused(tmp_path, text, "scenario.json")
    assert (key, line) == ("permanents[0].power", 6)
    assert f"{constant.lstrip('-')} is not a number" in message


# ---------------------------------------------------------------------------
# 5. A window only another edition has
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["foundations", "m10"])
@pytest.mark.parametrize("window", ["combat_damage_assigned", "first_strike_damage_assigned"])
def test_310_4_a_damage_on_the_stack_window_is_refused_under_other_editions(
        tmp_path: Path, rules: str, window: str) -> None:
    """310.4 of February 2009 (rules = "sixth"): combat damage on the stack,
    with a window after it is assigned; today's combat damage doesn't use the
    stack (510.2). "Additions of January 2027": an action after a window that
    never comes in the file is a bad scenario naming its ``after``, found
    before anything runs (not an illegal action, 506.1, as it runs)."""
    from redzone.kernel.editions import EDITIONS

    if rules not in EDITIONS:
        pytest.skip(f"edition {rules!r} not installed")
    text = (f'rules = "{rules}"\n' + PLAIN + "[[combat.actions]]\n"
            f'after = "{window}"\ndo = "gain_life"\nplayer = "bob"\namount = 1\n')
    key, line, message = refused(tmp_path, text)
    assert (key, line) == ("combat.actions[0].after", 13)
    assert f"the step {window!r} never comes in this file" in message
    assert "rules = \"sixth\"" in message


def test_310_4_the_window_is_there_under_sixth(tmp_path: Path) -> None:
    """310.4 of February 2009: under rules = "sixth" the window comes, and
    the action is performed in it."""
    text = ('rules = "sixth"\n' + PLAIN + "[[combat.actions]]\n"
            'after = "combat_damage_assigned"\ndo = "gain_life"\nplayer = "bob"\n'
            "amount = 1\n")
    status, out = run(tmp_path, text)
    assert status == 0, out
    assert out["players"]["bob"]["life"] == 15
