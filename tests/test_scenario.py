"""The scenario format: parsing, validation and the JSON outcome.

The format is a public contract (the scenario format specification): every
key it documents is accepted with its documented meaning and default, unknown
keys are errors, and a malformed file is a ``bad_scenario`` error that names
the file, the key path and (for TOML and JSON) the line.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
import redzone
from redzone import (
    UNLIMITED,
    AddCounters,
    BecomeBlocked,
    DealDamage,
    Engine,
    GainLife,
    Grant,
    LeaveBattlefield,
    LoseLife,
    Prevent,
    Pump,
    RemoveFromCombat,
    Revoke,
    Tap,
    Untap,
)
from redzone.formats import scenario as sc
from redzone.formats.outcome import (
    EXIT_BAD_SCENARIO,
    EXIT_ILLEGAL,
    EXIT_OK,
    check,
    dumps,
    error_json,
    exit_status,
    outcome_json,
    resolve,
    run_file,
)
from redzone.kernel.editions import EDITIONS

engine_for = functools.cache(Engine)


def loads(text: str, **kwargs: Any) -> sc.Scenario:
    return sc.loads(text, engine_factory=engine_for, **kwargs)


def problems(text: str, *, format: str = "toml", **kwargs: Any) -> list[redzone.ScenarioError]:
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.loads(text, format=format, engine_factory=engine_for, **kwargs)
    return list(info.value.problems)


def keys(errs: list[redzone.ScenarioError]) -> list[str]:
    return [e.key for e in errs]


BASE = """\
active_player = "alice"

[players.alice]
[players.bob]

[[permanents]]
id = "wurm"
name = "Craw Wurm"
controller = "alice"
power = 6
toughness = 4

[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 3

[[permanents]]
id = "cadet"
controller = "bob"
power = 1
toughness = 1

[combat]
attacks = { wurm = "bob" }
blocks = { wall = ["wurm"], cadet = ["wurm"] }
"""

#: Every key of the scenario format specification, in one file.
KITCHEN_SINK = """\
rules = "foundations"
active_player = "alice"
turn_order = ["alice", "bob"]

[players.alice]
life = 20
poison = 0

[players.bob]
life = 18
poison = 1

[[permanents]]
id = "wurm"
name = "Craw Wurm"
controller = "alice"
owner = "alice"
types = ["creature"]
subtypes = ["Wurm"]
colors = ["green"]
power = 6
toughness = 4
loyalty = 0
defense = 0
keywords = ["Trample"]
damage = 0
counters = { "+1/+1" = 0, "-1/-1" = 0 }
tapped = false
summoning_sick = false
can_block_additional = 0

[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
can_block_additional = "any"

[[permanents]]
id = "cadet"
controller = "bob"
power = 1
toughness = 1

[[permanents]]
id = "walker"
controller = "bob"
types = ["planeswalker"]
loyalty = 3

[[permanents]]
id = "siege"
controller = "alice"
types = ["battle"]
subtypes = ["Siege"]
defense = 5
protector = "bob"

[[permanents]]
id = "swamp"
controller = "bob"
types = ["land"]
subtypes = ["Swamp"]

[combat]
attacks = { wurm = "bob" }
blocks = { wall = ["wurm"], cadet = ["wurm"] }
order = { wurm = ["wall", "cadet"] }

[combat.assign]
wurm = { wall = 3, cadet = 2, bob = 1 }

[combat.assign_first_strike]

[[combat.actions]]
after = "beginning_of_combat"
do = "tap"
target = "swamp"

[[combat.actions]]
after = "declare_attackers"
do = "untap"
target = "swamp"

[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "wall"
power = 3
toughness = 3

[[combat.actions]]
after = "declare_blockers"
do = "grant"
target = "cadet"
keywords = ["flying"]

[[combat.actions]]
after = "declare_blockers"
do = "revoke"
target = "cadet"
keywords = ["flying"]

[[combat.actions]]
after = "declare_blockers"
do = "prevent"
target = "wall"
amount = 4
gain_life = "bob"

[[combat.actions]]
after = "declare_blockers"
do = "prevent"
source = "cadet"
amount = "next"

[[combat.actions]]
after = "declare_blockers"
do = "add_counters"
target = "cadet"
counters = { "+1/+1" = 1 }

[[combat.actions]]
after = "declare_blockers"
do = "become_blocked"
target = "wurm"

[[combat.actions]]
after = "declare_blockers"
do = "gain_life"
player = "alice"
amount = 2

[[combat.actions]]
after = "declare_blockers"
do = "lose_life"
player = "alice"
amount = 1

[[combat.actions]]
after = "declare_blockers"
do = "deal_damage"
source = "cadet"
target = "alice"
amount = 1

[[combat.actions]]
after = "combat_damage"
do = "remove_from_combat"
target = "wurm"

[[combat.actions]]
after = "end_of_combat"
do = "leave_battlefield"
target = "swamp"

[[effects]]
kind = "prevent_all_combat_damage"
[[effects]]
kind = "double_life_gain"
player = "alice"
[[effects]]
kind = "life_floor"
player = "bob"
[[effects]]
kind = "double_damage"
[[effects]]
kind = "reduce_damage"
to = "wurm"
amount = 1
"""


# ---------------------------------------------------------------------------
# Every documented key
# ---------------------------------------------------------------------------


def test_every_documented_key_is_accepted_with_its_meaning() -> None:
    """Scenario format: each key of the contract is read as documented."""
    s = loads(KITCHEN_SINK)
    st = s.state
    assert s.rules == "foundations" and st.rules == "foundations"
    assert st.active_player == "alice" and st.turn_order == ("alice", "bob")
    assert st.players["bob"].life == 18 and st.players["bob"].poison == 1
    wurm = st.objects["wurm"]
    assert (wurm.name, wurm.owner, wurm.subtypes, wurm.colors) == (
        "Craw Wurm", "alice", ("Wurm",), frozenset({"green"}))
    assert [k.name for k in wurm.keywords] == ["trample"]  # case-insensitive (spec: Keywords)
    assert st.objects["wall"].can_block_additional == UNLIMITED  # "any"
    assert st.objects["walker"].loyalty == 3
    assert st.objects["siege"].defense == 5 and st.objects["siege"].protector == "bob"
    assert st.objects["swamp"].types == frozenset({"land"})
    assert s.attacks == {"wurm": "bob"}
    assert s.blocks == {"wall": ("wurm",), "cadet": ("wurm",)}
    assert s.order == {"wurm": ("wall", "cadet")}
    assert s.assign == {"wurm": {"wall": 3, "cadet": 2, "bob": 1}}
    assert s.assign_first_strike == {}
    kinds = [type(a) for _after, a in s.actions]
    assert kinds == [Tap, Untap, Pump, Grant, Revoke, Prevent, Prevent, AddCounters,
                     BecomeBlocked, GainLife, LoseLife, DealDamage, RemoveFromCombat,
                     LeaveBattlefield]
    prevent = s.actions[5][1]
    assert isinstance(prevent, Prevent)
    assert (prevent.target, prevent.amount, prevent.gain_life) == ("wall", 4, "bob")
    assert [e.kind for e in st.effects] == ["prevent_all_combat_damage", "double_life_gain",
                                           "life_floor", "double_damage", "reduce_damage"]
    assert st.effects[4].to == "wurm" and st.effects[4].amount == 1


def test_defaults_are_the_documented_ones() -> None:
    """Scenario format defaults: life 20, poison 0, name = id, owner =
    controller, types = creature, turn order = order of [players]."""
    s = loads(BASE)
    st = s.state
    assert st.turn_order == ("alice", "bob")
    assert st.players["alice"].life == 20 and st.players["alice"].poison == 0
    wall = st.objects["wall"]
    assert (wall.name, wall.owner, wall.types) == ("wall", "bob", frozenset({"creature"}))
    assert (wall.damage, wall.tapped, wall.summoning_sick, wall.can_block_additional) == (
        0, False, False, 0)
    assert s.rules == "foundations"
    assert s.assign is None and s.assign_first_strike is None and s.actions == ()


def test_counters_modify_printed_power_and_toughness() -> None:
    """Scenario format: power and toughness are printed values; +1/+1 and
    -1/-1 counters modify them (613.4c)."""
    s = loads(BASE.replace('id = "cadet"', 'id = "cadet"\ncounters = { "+1/+1" = 2 }'))
    cadet = s.state.objects["cadet"]
    assert (cadet.base_power, cadet.power, cadet.toughness) == (1, 3, 3)


def test_json_and_toml_give_byte_identical_outcomes(tmp_path: Path) -> None:
    """Scenario format: the same structure in JSON (a *.json file) resolves
    exactly like the TOML file."""
    import tomllib

    toml_file = tmp_path / "s.toml"
    toml_file.write_text(KITCHEN_SINK)
    json_file = tmp_path / "s.json"
    json_file.write_text(json.dumps(tomllib.loads(KITCHEN_SINK)))
    assert dumps(run_file(toml_file)) == dumps(run_file(json_file))


def test_the_same_scenario_gives_byte_identical_json() -> None:
    """Determinism: resolving a scenario twice, with fresh engines, gives
    the same bytes."""
    first = dumps(outcome_json(resolve(sc.loads(KITCHEN_SINK))))
    second = dumps(outcome_json(resolve(sc.loads(KITCHEN_SINK))))
    assert first == second


# ---------------------------------------------------------------------------
# The JSON outcome
# ---------------------------------------------------------------------------


def test_outcome_has_the_documented_shape() -> None:
    """Scenario format, the JSON outcome: ok, rules, players, permanents,
    zones (January 2027 additions), steps, after_steps for each damage step,
    events with step/kind/rule."""
    out = outcome_json(resolve(loads(BASE)))
    assert list(out) == ["ok", "rules", "players", "permanents", "zones", "steps",
                         "game_over", "choices", "after_steps", "events"]
    assert out["game_over"] is None  # 104: the game goes on
    assert out["ok"] is True and out["rules"] == "foundations"
    assert out["players"]["bob"] == {"life": 20, "poison": 0, "lost": False}
    assert set(out["permanents"]["wurm"]) == {"zone", "object", "power", "toughness",
                                              "damage", "counters", "tapped", "loyalty",
                                              "defense", "keywords"}
    assert out["steps"] == ["beginning_of_combat", "declare_attackers", "declare_blockers",
                            "combat_damage", "end_of_combat"]
    assert list(out["after_steps"]) == ["combat_damage"]
    assert set(out["after_steps"]["combat_damage"]) == {"players", "permanents", "zones"}
    for event in out["events"]:
        assert {"step", "kind", "rule"} <= set(event)


def test_damage_is_what_is_marked_at_the_end_of_combat() -> None:
    """Scenario format: ``damage`` is what is marked at the end of combat;
    permanents that left show their zone (704.5g puts the wall and cadet in
    the graveyard; the wurm has 1 damage from the cadet)."""
    out = outcome_json(resolve(loads(BASE)))
    assert out["permanents"]["wurm"]["damage"] == 1
    assert out["permanents"]["wurm"]["tapped"] is True  # 508.1f
    assert out["permanents"]["wall"]["zone"] == "graveyard"
    assert out["permanents"]["cadet"]["zone"] == "graveyard"


def test_counters_events_carry_the_counter_kind_under_counter() -> None:
    """Scenario format: a ``counters`` event names the counter kind under
    "counter" ("kind" is the event kind)."""
    text = BASE + """
[[combat.actions]]
after = "declare_blockers"
do = "add_counters"
target = "wall"
counters = { "+1/+1" = 2 }
"""
    out = outcome_json(resolve(loads(text)))
    event = next(e for e in out["events"] if e["kind"] == "counters")
    assert event["counter"] == "+1/+1" and event["amount"] == 2 and event["target"] == "wall"
    assert out["permanents"]["wall"]["counters"] == {}  # it died: the card has none
    assert out["after_steps"]["combat_damage"]["permanents"]["wall"]["zone"] == "graveyard"


def test_illegal_declaration_gives_the_documented_error_object() -> None:
    """Scenario format: an illegal declaration gives {"ok": false, "error":
    {kind, rule, message, objects}} and exit status 1 (702.9b)."""
    text = BASE.replace('power = 6\n', 'power = 6\nkeywords = ["flying"]\n')
    res = resolve(loads(text))
    out = outcome_json(res)
    assert out["ok"] is False
    err = out["error"]
    assert err["kind"] == "illegal_block" and err["rule"] == "702.9b"
    assert "Craw Wurm" in err["message"] and "wurm" in err["objects"]
    assert res.exit_status == EXIT_ILLEGAL == exit_status(res.error)


def test_bad_scenario_error_object_names_file_key_and_line() -> None:
    """Scenario format: ``bad_scenario`` names the file, the key and the line."""
    try:
        sc.loads(BASE.replace("power = 6", "power = \"six\""), file="w.toml")
    except sc.ScenarioProblems as exc:
        out = error_json(exc)
        assert exit_status(exc) == EXIT_BAD_SCENARIO
    else:  # pragma: no cover
        pytest.fail("accepted a string power")
    err = out["error"]
    assert err["kind"] == "bad_scenario"
    assert (err["file"], err["key"], err["line"]) == ("w.toml", "permanents[0].power", 10)
    assert err["problems"][0]["line"] == 10
    assert {"kind", "rule", "message", "objects"} <= set(err)


def test_blocks_without_attackers_are_rejected_not_dropped() -> None:
    """508.8: with no attackers the declare blockers step is skipped, so a
    declared block can't happen: it is rejected, never silently dropped."""
    text = BASE.replace('attacks = { wurm = "bob" }', "attacks = {}")
    res = resolve(loads(text))
    assert res.error is not None and res.error.rule == "508.8"
    assert check(loads(text))[0].error.rule == "508.8"


def test_exit_status_zero_when_resolved() -> None:
    """Scenario format: exit status 0 when the combat resolved."""
    assert resolve(loads(BASE)).exit_status == EXIT_OK


# ---------------------------------------------------------------------------
# Rules editions and the damage assignment order
# ---------------------------------------------------------------------------


def test_unknown_edition_is_a_bad_scenario_naming_the_known_ones() -> None:
    """Scenario format ``rules``: an unknown edition is a bad scenario that
    lists the known editions (read from the editions registry)."""
    errs = problems('rules = "tenth"\n' + BASE)
    assert keys(errs) == ["rules"] and errs[0].line == 1
    for name in EDITIONS:
        assert repr(name) in errs[0].detail


def test_rules_override_replaces_the_files_edition() -> None:
    """``--rules`` overrides the file's ``rules`` key; a bad override is a
    bad scenario naming the option."""
    other = [e for e in EDITIONS if e != "foundations"]
    if other:
        assert loads('rules = "foundations"\n' + BASE, rules=other[0]).rules == other[0]
    errs = problems(BASE, rules="bogus")
    assert keys(errs) == ["--rules"]


def test_order_is_ignored_without_assignment_orders() -> None:
    """Scenario format ``order``: ignored under editions without a damage
    assignment order, so the default strategy follows the declaration order
    of ``blocks`` (lethal 3 to the wall first, then 1 to the cadet)."""
    text = BASE + 'order = { wurm = ["cadet", "wall"] }\n'
    res = resolve(loads(text))
    assert res.result is not None
    assert res.result.state.combat is None
    first = res.assignments[0]
    assert list(first.amounts) == ["wall", "cadet"]
    assert dict(first.amounts) == {"wall": 3, "cadet": 3}


@pytest.mark.skipif("m10" not in EDITIONS, reason="the m10 edition is not installed")
def test_order_is_used_under_m10() -> None:
    """Scenario format ``order`` under m10 (509.2 of 2009-2024): the order is
    announced at declare blockers and the default strategy follows it (lethal
    1 to the cadet first, then the rest to the wall)."""
    text = BASE + 'order = { wurm = ["cadet", "wall"] }\n'
    res = resolve(loads(text, rules="m10"))
    assert res.result is not None
    order_events = [e for e in res.events if e.kind == "order" and e.object == "wurm"]
    assert order_events and order_events[0].get("order") == ("cadet", "wall")
    first = res.assignments[0]
    assert list(first.amounts) == ["cadet", "wall"]


def test_order_ids_are_validated() -> None:
    """Scenario format ``order``: ids must exist, and name each creature once."""
    errs = problems(BASE + 'order = { wurm = ["wall", "nobody"], cadet = ["wurm", "wurm"] }\n')
    assert keys(errs) == ["combat.order.wurm[1]", "combat.order.cadet"]


# ---------------------------------------------------------------------------
# Bad input: every problem at once, with key paths and lines
# ---------------------------------------------------------------------------


def test_unknown_keys_suggest_the_closest_valid_key() -> None:
    """Scenario format: unknown keys are an error (typos must not pass)."""
    errs = problems(BASE.replace("toughness = 3", "toughnes = 3"))
    assert "permanents[1].toughnes" in keys(errs)
    msg = next(e.detail for e in errs if e.key == "permanents[1].toughnes")
    assert "did you mean 'toughness'" in msg
    errs = problems("rulez = 'm10'\n" + BASE)
    assert errs[0].key == "rulez" and "'rules'" in errs[0].detail and errs[0].line == 1


def test_unknown_action_and_effect_names_suggest_close_matches() -> None:
    """Scenario format: ``do`` and effect ``kind`` must be documented names."""
    text = BASE + """
[[combat.actions]]
after = "declare_blockers"
do = "pumpp"
target = "wall"

[[effects]]
kind = "fog"
"""
    errs = problems(text)
    assert keys(errs) == ["combat.actions[0].do", "effects[0].kind"]
    assert "did you mean 'pump'" in errs[0].detail
    assert errs[0].line == 31 and errs[1].line == 35


def test_wrong_types_missing_keys_and_bounds() -> None:
    """Scenario format: types, required keys and sane integer bounds."""
    text = BASE.replace('controller = "bob"\npower = 0', 'power = 0').replace(
        "toughness = 4", "toughness = 4.5").replace("power = 1\n", "power = 10000001\n")
    errs = problems(text)
    by_key = {e.key: e.detail for e in errs}
    assert "missing required key 'controller'" in by_key["permanents[1].controller"]
    assert "not a whole number" in by_key["permanents[0].toughness"]
    assert "out of bounds" in by_key["permanents[2].power"]


def test_a_creature_needs_power_and_toughness() -> None:
    """Scenario format: a creature has power and toughness."""
    errs = problems(BASE.replace("power = 0\n", ""))
    assert keys(errs) == ["permanents[1].power"]


def test_duplicate_ids_and_ids_of_the_wrong_kind() -> None:
    """Scenario format: ids are unique across players and permanents, and
    each place takes a player or a permanent as documented."""
    text = BASE.replace('id = "cadet"', 'id = "wall"').replace(
        'attacks = { wurm = "bob" }', 'attacks = { wurm = "bob", bob = "alice" }')
    text += """
[[permanents]]
id = "alice"
controller = "wurm"
power = 1
toughness = 1
"""
    errs = problems(text)
    by_key = {e.key: e.detail for e in errs}
    assert "duplicate id 'wall'" in by_key["permanents[2].id"]
    assert "already a player's id" in by_key["permanents[3].id"]
    assert "'wurm' is a permanent, but a controller must be a player" in \
        by_key["permanents[3].controller"]
    assert "'bob' is a player, but an attacking creature must be a permanent" in \
        by_key["combat.attacks.bob"]


def test_unknown_ids_suggest_close_ids() -> None:
    """Scenario format: ids must name a player or permanent of the file."""
    errs = problems(BASE.replace('blocks = { wall = ["wurm"]', 'blocks = { wall = ["wurn"]'))
    assert keys(errs) == ["combat.blocks.wall[0]"]
    assert "did you mean 'wurm'" in errs[0].detail and errs[0].line == 27


def test_unknown_keywords_list_close_matches() -> None:
    """Scenario format, Keywords: a keyword no loaded plugin provides is an
    error that names it and lists the close matches."""
    errs = problems(BASE.replace("power = 6\n", 'power = 6\nkeywords = ["trampel"]\n'))
    assert keys(errs) == ["permanents[0].keywords[0]"]
    assert "'trampel'" in errs[0].detail and "'trample'" in errs[0].detail
    assert errs[0].line == 11


def test_every_problem_is_listed_at_once_in_file_order() -> None:
    """``redzone check``: every problem at once, sorted by line."""
    text = BASE.replace("life", "x").replace("power = 6", "power = 'a'").replace(
        'attacks = { wurm = "bob" }', 'attacks = { wurm = "nobody" }').replace(
        "[players.bob]", "[players.bob]\nlif = 3")
    errs = problems(text)
    assert len(errs) == 3
    lines = [e.line for e in errs]
    assert lines == sorted(lines)


def test_active_player_and_turn_order_are_checked() -> None:
    """Scenario format: active_player names a player; turn_order names each
    player once."""
    errs = problems(BASE.replace('active_player = "alice"',
                                 'active_player = "carol"\nturn_order = ["alice"]'))
    assert keys(errs) == ["active_player", "turn_order"]


def test_toml_syntax_errors_carry_the_line() -> None:
    """bad_scenario: the TOML parser's line for a syntax error."""
    errs = problems(BASE.replace("power = 6", "power = = 6"), file="x.toml")
    assert errs[0].line == 10 and errs[0].file == "x.toml" and "invalid TOML" in errs[0].detail


def test_json_syntax_errors_duplicates_and_constants_are_refused() -> None:
    """bad_scenario for JSON: syntax errors with their line, duplicate keys,
    NaN and Infinity."""
    errs = problems('{\n  "active_player": "alice",\n  "players": {\n}', format="json")
    assert errs[0].line == 4 and "invalid JSON" in errs[0].detail
    errs = problems('{"players": {}, "players": {}}', format="json")
    assert "duplicate key 'players'" in errs[0].detail
    errs = problems('{"active_player": "a", "players": {"a": {"life": NaN}}}', format="json")
    assert "NaN" in errs[0].detail


def test_json_semantic_errors_carry_the_line() -> None:
    """bad_scenario for JSON: the line of the key, from a light scan."""
    text = ('{\n "active_player": "alice",\n "players": {"alice": {}, "bob": {}},\n'
            ' "permanents": [\n  {"id": "x", "controller": "alice", "power": 1,\n'
            '   "toughness": 1},\n  {"id": "y", "controller": "alice",\n   "power": 1,\n'
            '   "toughnes": 1}\n ]\n}\n')
    errs = problems(text, format="json")
    assert {(e.key, e.line) for e in errs} == {("permanents[1].toughnes", 9),
                                               ("permanents[1].toughness", 7)}


def test_huge_integers_are_refused() -> None:
    """bad_scenario: integers beyond sane bounds, including ones Python
    won't even convert."""
    errs = problems(BASE.replace("power = 6", "power = " + "9" * 5000))
    assert "invalid TOML" in errs[0].detail
    errs = problems(BASE.replace("power = 6", "power = 1000001"))
    assert keys(errs) == ["permanents[0].power"]


def test_deeply_nested_documents_are_refused() -> None:
    """bad_scenario: a document nested too deeply is refused, not a crash."""
    errs = problems("[" * 100_000 + "]" * 100_000, format="json")
    assert errs[0].key == ""
    errs = problems("a = " + "[" * 50_000 + "]" * 50_000)
    assert "longer than 20000 characters" in errs[0].detail
    errs = problems("a = " + "[" * 5_000 + "]" * 5_000)
    assert "nested more than 32 levels deep" in errs[0].detail and errs[0].line == 1


def test_files_over_the_size_limit_are_refused(tmp_path: Path) -> None:
    """bad_scenario: files over 1 MiB are refused with a clear message."""
    big = tmp_path / "big.toml"
    big.write_text(BASE + "#" * sc.MAX_BYTES)
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.load(big)
    assert "1 MiB" in str(info.value) and info.value.file == str(big)


def test_unreadable_files(tmp_path: Path) -> None:
    """bad_scenario: a missing file, a directory, bad UTF-8."""
    for target, words in ((tmp_path / "none.toml", "no such file"),
                          (tmp_path, "directory")):
        with pytest.raises(sc.ScenarioProblems) as info:
            sc.load(target)
        assert words in str(info.value)
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'active_player = "alice"\nname = "\xff"\n')
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.load(bad)
    assert info.value.line == 2 and "UTF-8" in str(info.value)


def test_actions_check_their_ids_and_targets() -> None:
    """Scenario format, actions: ``prevent`` takes exactly one of target and
    source; each id names the right kind of object."""
    text = BASE + """
[[combat.actions]]
after = "declare_blockers"
do = "prevent"
amount = 1

[[combat.actions]]
after = "declare_blockers"
do = "gain_life"
player = "wall"
amount = 1

[[combat.actions]]
after = "declare_blockers"
do = "grant"
target = "wall"
keywords = ["flyin"]
"""
    errs = problems(text)
    assert keys(errs) == ["combat.actions[0]", "combat.actions[1].player",
                          "combat.actions[2].keywords[0]"]


def test_effects_check_their_ids() -> None:
    """Scenario format, effects: ``player`` names a player, ``to`` a player
    or permanent."""
    text = BASE + '\n[[effects]]\nkind = "life_floor"\nplayer = "wall"\n' \
        '\n[[effects]]\nkind = "reduce_damage"\nto = "nobody"\namount = 1\n'
    assert keys(problems(text)) == ["effects[0].player", "effects[1].to"]


def test_not_a_table_at_the_top() -> None:
    """bad_scenario: a JSON document that isn't an object."""
    errs = problems("[1, 2]", format="json")
    assert "must be a table" in errs[0].detail


# ---------------------------------------------------------------------------
# The shipped schema
# ---------------------------------------------------------------------------


#: The keys of the contract's first version (the scenario format specification).
CONTRACT = {
    "top": {"rules", "active_player", "turn_order", "players", "permanents", "combat",
            "effects", "through", "additional_combats", "turns", "first_turn"},
    "player": {"life", "poison"},
    "permanent": {"id", "name", "controller", "owner", "types", "subtypes", "colors", "power",
                  "toughness", "loyalty", "defense", "protector", "keywords", "damage",
                  "counters", "tapped", "summoning_sick", "can_block_additional",
                  "zone"},  # zone: the additions of January 2027
    "combat": {"attacks", "blocks", "order", "assign", "assign_first_strike", "actions"},
    "action": {"pump", "grant", "revoke", "prevent", "remove_from_combat", "leave_battlefield",
               "add_counters", "tap", "untap", "become_blocked", "gain_life", "lose_life",
               "deal_damage", "create_token", "destroy", "sacrifice",
               "move", "activate"},  # the additions of January 2027 (400.7, 602)
    "effect": {"prevent_all_combat_damage", "double_life_gain", "life_floor", "double_damage",
               "reduce_damage"},
}

#: The keys added since (each documented on the extensions page).
EXTENSIONS = {
    "top": {"cards", "choices", "teams", "unknown_keywords", "triggers"},
    "player": {"max_hand_size"},
    "permanent": {"card", "supertypes", "cant_attack", "cant_block", "cant_be_blocked",
                  "min_blockers", "attacks_if_able", "blocks_if_able", "must_be_blocked",
                  "lure", "token", "printed_loyalty", "printed_defense"},
    "combat": {"bands"},
    "action": {"block", "enter_blocking", "enter_attacking", "add_effect", "exile",
               "regenerate", "draw", "cast", "play", "continuous", "create_delayed_trigger"},
    "effect": {"blocks_if_able", "redirect_damage"},
}


def _schema_keys() -> dict[str, set[str]]:
    schema = sc.schema()
    defs = schema["$defs"]
    return {
        "top": set(schema["properties"]),
        "player": set(defs["player"]["properties"]),
        "permanent": set(defs["permanent"]["properties"]),
        "combat": set(defs["combat"]["properties"]),
        "action": {b["properties"]["do"]["const"] for b in defs["action"]["oneOf"]},
        "effect": {b["properties"]["kind"]["const"] for b in defs["effect"]["oneOf"]},
    }


def test_the_schema_documents_every_key_of_the_format() -> None:
    """schema.json covers the contract: the top-level, player, permanent,
    combat, action and effect keys of the specification, and beyond them
    exactly the extensions (the contract is extended, never changed)."""
    found = _schema_keys()
    for part, keys_ in CONTRACT.items():
        assert keys_ <= found[part], (part, keys_ - found[part])
        assert found[part] - keys_ == EXTENSIONS[part], part


def test_every_extension_is_documented_with_an_example() -> None:
    """Every key beyond the contract appears, in an example, on the
    extensions page (docs/scenario-extensions.md, section "Extensions")."""
    page = (Path(__file__).resolve().parent.parent / "docs" /
            "scenario-extensions.md").read_text(encoding="utf-8")
    assert "\n## Extensions\n" in page
    for part, added in EXTENSIONS.items():
        for key in added:
            pattern = {"action": f'do = "{key}"', "effect": f'kind = "{key}"'}.get(
                part, f"{key} = ")
            # a top-level array of tables is written [[key]]
            assert pattern in page or (part == "top" and f"\n[[{key}]]" in page), (part, key)


def test_every_schema_action_is_an_engine_action() -> None:
    """Each ``do`` of the schema builds the engine action of that name."""
    from redzone.kernel.actions import ACTIONS

    for branch in sc.schema()["$defs"]["action"]["oneOf"]:
        assert branch["properties"]["do"]["const"] in ACTIONS


def test_the_schema_is_a_valid_json_schema_accepting_the_examples() -> None:
    """schema.json is valid Draft 2020-12 and accepts the bundled examples
    (checked with the jsonschema package when it is installed)."""
    jsonschema = pytest.importorskip("jsonschema")
    import tomllib

    from redzone import Engine, examples

    jsonschema.Draft202012Validator.check_schema(sc.schema())
    # as a file is read: with the loaded plugins' action kinds (enlist's)
    full = sc.scenario_schema(Engine())
    jsonschema.Draft202012Validator.check_schema(full)
    validator = jsonschema.Draft202012Validator(full)
    for name in examples.names():
        validator.validate(tomllib.loads(examples.path(name).read_text()))


def test_key_lines_of_toml() -> None:
    """The light scan finds the lines of headers, keys, array-of-table items
    and inline-table keys."""
    lines = sc.toml_lines(KITCHEN_SINK)
    assert lines[("players", "bob", "life")] == 10
    assert lines[("permanents", 1)] == 32
    assert lines[("permanents", 0, "counters", "+1/+1")] == 27
    assert lines[("combat", "attacks", "wurm")] == 66
    assert lines[("combat", "actions", 0, "do")] == 77
    assert lines[("combat", "actions", 1, "do")] == 82
    assert sc.line_for(lines, ("combat", "actions", 0, "nothing")) == 75


def test_format_path() -> None:
    """Key paths are written the way errors print them."""
    assert sc.format_path(("permanents", 2, "counters", "+1/+1")) == \
        'permanents[2].counters."+1/+1"'


def test_an_action_whose_do_is_not_a_string_is_a_bad_scenario() -> None:
    """Scenario contract: ``do`` names an action kind. A list there (``do =
    [["prevent"]]``, found by the mutation fuzzer) is a ``bad_scenario``
    problem at ``combat.actions[0].do``, not a crash of the loader."""
    text = BASE + '[[combat.actions]]\nafter = "declare_blockers"\ndo = [["prevent"]]\n'
    errs = problems(text)
    assert "combat.actions[0].do" in keys(errs)
