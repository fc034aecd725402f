"""Fuzzing the scenario loader: every document, however malformed, yields a
resolved combat, a rejected declaration (illegal_attack, illegal_block,
illegal_assignment, illegal_action) or a ``bad_scenario`` error; never any
other exception (scenario format: "a malformed file ... bad_scenario"), and
within a bounded amount of work.

The generators: arbitrary JSON-like values; plausible scenarios built from
valid and invalid parts (known and unknown ids, keywords, actions, numbers
out of bounds); random text parsed as TOML and as JSON; and mutations of the
VALID bundled examples, both as parsed documents (and their JSON text) and
as TOML text: deleted keys, swapped types, huge numbers (10**100), deep
nesting, unicode and very long strings; plus boards with thousands of
permanents. When the jsonschema package is installed, the loader's own schema
check is also compared with it: both must agree on whether a document fits
the schema.

Bounded time is checked without a clock: each input is run under a profile
hook that counts Python function calls, and the count must stay under a
generous budget (a bundled example takes about 2,000 calls; a board of 500
creatures a few hundred thousand). Oversized inputs must be refused, not
processed.

How many inputs: ``REDZONE_FUZZ_EXAMPLES`` examples per fuzz test (default
60, a few hundred in all, well under a minute); long mode,
``REDZONE_LONG=1 python -m pytest tests/test_scenario_fuzz.py tests/hostile``,
runs 3,000 per fuzz test (and 100 drawn wrong answers per hook instead of 2);
an explicit ``REDZONE_FUZZ_EXAMPLES`` wins.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import sys
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, IllegalActionError, examples
from redzone.formats import scenario as sc
from redzone.formats.outcome import dumps, error_json, outcome_json, resolve

engine_for = functools.cache(Engine)

#: Examples per fuzz test: a few hundred in all in CI; REDZONE_FUZZ_EXAMPLES=5000
#: for a deeper run.
#: Long mode (REDZONE_LONG=1): fifty times as many examples per fuzz test.
LONG = os.environ.get("REDZONE_LONG", "") == "1"
EXAMPLES = int(os.environ.get("REDZONE_FUZZ_EXAMPLES", "3000" if LONG else "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: The most Python function calls one input may take, loading and resolving
#: (about 1,000 times what a bundled example takes).
#: Raised from 2,000,000 when the kernel grew a turn, choices and damage
#: steps as hooks: the largest board allowed takes about 3.5 million calls.
CALL_BUDGET = 5_000_000


class _Calls:
    count = 0


@contextmanager
def counting_calls() -> Iterator[_Calls]:
    """Count the Python function calls made inside the block (a measure of
    work that doesn't depend on the machine's speed)."""
    calls = _Calls()

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            calls.count += 1

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(old)


def bounded(fn: Callable[[], Any], budget: int = CALL_BUDGET) -> Any:
    """Run ``fn`` and check it stayed within ``budget`` calls."""
    with counting_calls() as calls:
        result = fn()
    assert calls.count <= budget, f"{calls.count} calls: more than the budget of {budget}"
    return result


ALLOWED_KINDS = {"illegal_attack", "illegal_block", "illegal_assignment", "illegal_action"}


def _outcome(load: Callable[[], sc.Scenario]) -> dict[str, Any]:
    try:
        scenario = load()
    except sc.ScenarioProblems as exc:
        assert exc.problems and all(p.detail for p in exc.problems)
        out = error_json(exc)
        assert out["error"]["kind"] == "bad_scenario"
        return out
    res = resolve(scenario)
    out = outcome_json(res)
    if res.error is not None:
        assert isinstance(res.error, IllegalActionError)
        assert out["error"]["kind"] in ALLOWED_KINDS
    dumps(out)  # always serialisable
    return out


def outcome_of(data: Any) -> dict[str, Any]:
    """Load and resolve, within the call budget; the JSON outcome or error
    object. Anything other than a bad scenario or an illegal declaration
    propagates."""
    out: dict[str, Any] = bounded(
        lambda: _outcome(lambda: sc.from_data(data, engine_factory=engine_for)))
    return out


def text_outcome_of(text: str, format: str) -> dict[str, Any]:
    """:func:`outcome_of` for a scenario's text."""
    out: dict[str, Any] = bounded(
        lambda: _outcome(lambda: sc.loads(text, format=format, engine_factory=engine_for)))
    return out


# -- arbitrary values ----------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                    st.text(max_size=8))
json_like = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)


@FUZZ
@given(json_like)
def test_arbitrary_values_are_bad_scenarios_not_crashes(data: Any) -> None:
    """Any JSON-like value: a bad_scenario error (or, by chance, a combat)."""
    outcome_of(data)


# -- plausible scenarios ---------------------------------------------------------

PLAYERS = ["alice", "bob", "carol"]
IDS = ["a1", "a2", "b1", "b2", "c1"]
KEYWORDS = ["flying", "reach", "trample", "deathtouch", "first strike", "double strike",
            "lifelink", "infect", "wither", "menace", "vigilance", "defender", "haste",
            "indestructible", "protection from red", "Flying", "trampel", ""]
STEPS = ["beginning_of_combat", "declare_attackers", "declare_blockers",
         "first_strike_damage", "combat_damage", "end_of_combat", "combat_damage_assigned",
         "nope"]

ids = st.sampled_from(IDS + PLAYERS + ["zz"])
small = st.one_of(st.integers(-3, 8), st.sampled_from([10**7, -(10**7), "3", 2.5, True]))
count = st.one_of(st.integers(0, 8), st.sampled_from([-1, 10**7, "2"]))


@st.composite
def permanents(draw: st.DrawFn, pid: str) -> dict[str, Any]:
    perm: dict[str, Any] = {"id": pid, "controller": draw(st.sampled_from([*PLAYERS, "zz"]))}
    kind = draw(st.sampled_from([["creature"], ["creature"], ["creature"], ["planeswalker"],
                                 ["battle"], ["artifact", "creature"], ["creatur"]]))
    if draw(st.booleans()) or kind != ["creature"]:
        perm["types"] = kind
    if "creature" in kind or draw(st.booleans()):
        perm["power"] = draw(small)
        perm["toughness"] = draw(small)
    optional: dict[str, st.SearchStrategy[Any]] = {
        "name": st.text(min_size=1, max_size=6),
        "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=3),
        "damage": count,
        "tapped": st.booleans(),
        "summoning_sick": st.booleans(),
        "loyalty": count,
        "defense": count,
        "protector": st.sampled_from(PLAYERS),
        "subtypes": st.just(["Siege"]),
        "counters": st.dictionaries(st.sampled_from(["+1/+1", "-1/-1", "loyalty"]), count,
                                    max_size=2),
        "can_block_additional": st.one_of(st.integers(0, 3), st.just("any"), st.just("x")),
        "powr": st.just(1),
        # Extensions (the extensions page).
        "supertypes": st.lists(st.sampled_from(["basic", "legendary", "snow", "basik"]),
                               max_size=2),
        "min_blockers": st.one_of(st.integers(0, 3), st.just(-1)),
        "cant_attack": st.booleans(), "cant_block": st.booleans(),
        "cant_be_blocked": st.booleans(), "attacks_if_able": st.booleans(),
        "blocks_if_able": st.booleans(), "must_be_blocked": st.booleans(),
        "lure": st.one_of(st.booleans(), st.just("yes")),
    }
    for key, strategy in optional.items():
        if draw(st.integers(0, 5)) == 0:
            perm[key] = draw(strategy)
    return perm


@st.composite
def actions(draw: st.DrawFn) -> dict[str, Any]:
    do = draw(st.sampled_from(["pump", "grant", "revoke", "prevent", "remove_from_combat",
                               "leave_battlefield", "add_counters", "tap", "untap",
                               "become_blocked", "gain_life", "lose_life", "deal_damage",
                               "block", "enter_blocking", "add_effect", "pumpp"]))
    action: dict[str, Any] = {"after": draw(st.sampled_from(STEPS)), "do": do}
    fields: dict[str, st.SearchStrategy[Any]] = {
        "target": ids, "source": ids, "player": ids, "power": small, "toughness": small,
        "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=2),
        "amount": st.one_of(count, st.sampled_from(["next", "all", "some"])),
        "gain_life": ids, "counters": st.dictionaries(st.just("+1/+1"), small, max_size=1),
        "zone": st.sampled_from(["graveyard", "exile", "hand"]),
        "blocker": ids, "attacker": ids, "position": st.integers(-1, 3),
        "permanent": st.sampled_from([*IDS, "new1", "new2"]).flatmap(permanents),
        "effect": st.fixed_dictionaries(
            {"kind": st.sampled_from(["blocks_if_able", "prevent_all_combat_damage", "fog"])},
            optional={"to": ids, "source": ids}),
    }
    for key, strategy in fields.items():
        if draw(st.integers(0, 2)) == 0:
            action[key] = draw(strategy)
    return action


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=3, unique=True))
    doc: dict[str, Any] = {
        "active_player": draw(st.sampled_from([*players, "zz"])),
        "players": {p: draw(st.fixed_dictionaries(
            {}, optional={"life": small, "poison": count})) for p in players},
    }
    if draw(st.integers(0, 4)) == 0:
        doc["rules"] = draw(st.sampled_from(["foundations", "m10", "sixth", "fifth"]))
    pids = draw(st.lists(st.sampled_from(IDS), max_size=5))
    doc["permanents"] = [draw(permanents(pid)) for pid in pids]
    combat: dict[str, Any] = {}
    combat["attacks"] = draw(st.dictionaries(ids, ids, max_size=3))
    combat["blocks"] = draw(st.dictionaries(ids, st.one_of(ids, st.lists(ids, max_size=3)),
                                            max_size=3))
    if draw(st.booleans()):
        combat["assign"] = draw(st.dictionaries(ids, st.dictionaries(ids, count, max_size=3),
                                                max_size=2))
    if draw(st.integers(0, 3)) == 0:
        combat["assign_first_strike"] = draw(st.dictionaries(
            ids, st.dictionaries(ids, count, max_size=2), max_size=2))
    if draw(st.integers(0, 3)) == 0:
        combat["order"] = draw(st.dictionaries(ids, st.lists(ids, max_size=3), max_size=2))
    if draw(st.integers(0, 3)) == 0:
        combat["bands"] = draw(st.lists(st.lists(ids, max_size=3), max_size=2))
    if draw(st.booleans()):
        combat["actions"] = draw(st.lists(actions(), max_size=3))
    doc["combat"] = combat
    if draw(st.integers(0, 3)) == 0:
        doc["effects"] = draw(st.lists(st.fixed_dictionaries(
            {"kind": st.sampled_from(["prevent_all_combat_damage", "double_life_gain",
                                      "life_floor", "double_damage", "reduce_damage",
                                      "blocks_if_able", "fog"])},
            optional={"player": ids, "to": ids, "source": ids, "amount": count}), max_size=2))
    if draw(st.integers(0, 6)) == 0:
        doc[draw(st.sampled_from(["rule", "turn_order", "extra"]))] = draw(
            st.sampled_from([["alice", "bob"], players, "x"]))
    return doc


@FUZZ
@given(scenarios())
def test_plausible_scenarios_resolve_or_are_rejected_cleanly(doc: dict[str, Any]) -> None:
    """Plausible scenarios, valid or subtly not: a combat, an illegal
    declaration, or a bad_scenario error; the same document twice gives the
    same bytes (determinism)."""
    first = outcome_of(doc)
    assert dumps(first) == dumps(outcome_of(doc))


# -- random text -----------------------------------------------------------------

toml_bits = st.sampled_from([
    'active_player = "alice"\n', "[players.alice]\n", "[players.bob]\n", "life = 3\n",
    "[[permanents]]\n", 'id = "x"\n', 'controller = "alice"\n', "power = 2\n",
    "toughness = 2\n", "[combat]\n", 'attacks = { x = "bob" }\n', "= \n", "[[\n",
    'keywords = ["flying"]\n', "power = 99999999999999999999999\n", '"\n', "a.b.c = 1\n",
    "[combat.assign]\n", "x = { bob = 2 }\n", "\x00", "é = 1\n", "[players]\n",
    'name = """\n[[permanents]]\nid = "decoy"\n"""\n', "name = \'\'\'[combat]\'\'\'\n",
    'keywords = [\n  "flying", # [[permanents]]\n]\n', 'x = { a = [ { b = 1 } ] }\n',
    "[[combat.actions]]\n", '"a.b".c = 1\n', "a . b = 2\n",
])


@FUZZ
@given(st.lists(toml_bits, max_size=14).map("".join))
def test_random_toml_text_never_crashes(text: str) -> None:
    """Random TOML text: a scenario or a bad_scenario error with a message."""
    try:
        scenario = sc.loads(text, engine_factory=engine_for)
    except sc.ScenarioProblems as exc:
        assert str(exc)
        return
    resolve(scenario)


@FUZZ
@given(st.text(alphabet='{}[]:,"0123456789aelnrstu \n-.', max_size=60))
def test_random_json_text_never_crashes(text: str) -> None:
    """Random JSON text: a bad_scenario error (with the line when the parser
    gives one), or by chance a scenario."""
    try:
        scenario = sc.loads(text, format="json", engine_factory=engine_for)
    except sc.ScenarioProblems as exc:
        assert str(exc)
        return
    resolve(scenario)


# -- the loader's schema check agrees with a reference validator -----------------


@FUZZ
@given(st.one_of(scenarios(), json_like))
def test_schema_check_agrees_with_jsonschema(doc: Any) -> None:
    """Where jsonschema is installed: the loader's schema check accepts
    exactly the documents the shipped schema accepts."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(sc.schema())
    ours = not sc.schema_problems(doc)
    theirs = validator.is_valid(doc) if isinstance(doc, dict) else False
    assert ours == theirs, (doc, sc.schema_problems(doc),
                            [e.message for e in validator.iter_errors(doc)])


# -- mutations of the valid bundled examples ---------------------------------------

BUNDLED = {name: tomllib.loads(examples.path(name).read_text(encoding="utf-8"))
           for name in examples.names()}
TEXTS = {name: examples.path(name).read_text(encoding="utf-8") for name in examples.names()}

#: Values of every other type, to swap in.
SWAPS: list[Any] = [None, True, False, 0, -1, 2.5, "", "x", "bob", [], {}, ["x"], {"x": 1},
                    [[]], {"": {}}]
HUGE: list[int] = [10**100, -(10**100), 2**63, -(2**63) - 1, 1_000_001]
NASTY = ["é", "\u0000", "\u202e", "🐉", "\U0001f9d9\u200d\u2642", "a\u0301", "ß", "İ",
         "\ufeff", "\n", " ", "\\", '"', "[", "]", "{", "}", "Ⅻ"]
unicode_text = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=6).map("".join))
LONG = [100 * "x", 10_000 * "x", 100_000 * "é", 2_000 * " ", (sc.MAX_BYTES + 1) * "a"]
MUTATIONS = ["delete", "swap", "huge", "nest", "unicode", "long", "rename"]


def all_paths(doc: Any) -> list[tuple[Any, ...]]:
    """Every key path of a document (iteratively: it may be deeply nested)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), doc)]
    while stack:
        path, node = stack.pop()
        if len(path) > 12:
            continue
        children = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        for key, value in children:
            out.append((*path, key))
            stack.append(((*path, key), value))
    return sorted(out, key=repr)


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node


def nest(value: Any, depth: int, tables: bool) -> Any:
    for _ in range(depth):
        value = {"x": value} if tables else [value]
    return value


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A bundled example with one to four mutations at random key paths."""
    doc = copy.deepcopy(BUNDLED[draw(st.sampled_from(sorted(BUNDLED)))])
    for _ in range(draw(st.integers(1, 4))):
        paths = all_paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _parent(doc, path), path[-1]
        how = draw(st.sampled_from(MUTATIONS))
        if how == "delete":
            del parent[key]
        elif how == "swap":
            parent[key] = copy.deepcopy(draw(st.sampled_from(SWAPS)))
        elif how == "huge":
            parent[key] = draw(st.sampled_from(HUGE))
        elif how == "nest":
            parent[key] = nest(parent[key], draw(st.sampled_from([2, 40, 3_000])),
                               draw(st.booleans()))
        elif how == "unicode":
            parent[key] = draw(unicode_text)
        elif how == "long":
            parent[key] = draw(st.sampled_from(LONG))
        elif isinstance(parent, dict):  # rename the key
            new = draw(st.one_of(unicode_text, st.sampled_from(LONG[:3])))
            parent[new] = parent.pop(key)
    return doc


@FUZZ
@given(mutated_documents())
def test_mutated_examples_resolve_or_are_bad_scenarios(doc: dict[str, Any]) -> None:
    """A valid bundled example with keys deleted, types swapped, huge
    numbers, deep nesting, unicode and very long strings: a combat, an
    illegal declaration or a bad_scenario error, within the call budget; and
    the same through its JSON text (when it has one)."""
    first = outcome_of(doc)
    try:
        text = json.dumps(doc, ensure_ascii=False)
    except (RecursionError, ValueError):
        return  # too deep for the JSON encoder itself
    again = text_outcome_of(text, "json")
    if first["ok"] or again["ok"]:
        assert dumps(first) == dumps(again)


LINE_JUNK = ["[[permanents]]", "[combat]", "= 1", 'id = "x"', "power = " + "9" * 101,
             "power = 100000000000000000000000000000000000000000000000000", "[players.é]",
             'keywords = ["🐉"]', "a.b.c.d.e.f = 1", "x = [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]",
             "tapped = 1979-05-27", "'''", '"\\u0000" = 1', "lure = true", "bands = [[]]",
             'supertypes = ["basic", "basic"]', "\t\u3000", "#" * 10_000]


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    """A bundled example's TOML text with lines deleted, repeated, swapped,
    replaced with junk, or cut short."""
    lines = TEXTS[draw(st.sampled_from(sorted(TEXTS)))].splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "repeat", "swap", "junk", "digits", "cut"]))
        if how == "delete":
            del lines[i]
        elif how == "repeat":
            lines[i:i] = [lines[i]] * draw(st.sampled_from([1, 2, 1_000]))
        elif how == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "junk":
            lines.insert(i, draw(st.one_of(st.sampled_from(LINE_JUNK), unicode_text)))
        elif how == "digits":
            lines[i] = "".join("1" + "0" * 100 if ch.isdigit() else ch for ch in lines[i])
        else:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
            del lines[i + 1:]
    return "\n".join(lines) + "\n"


@FUZZ
@given(mutated_texts())
def test_mutated_example_texts_resolve_or_are_bad_scenarios(text: str) -> None:
    """A valid bundled TOML file, edited at random line by line: a combat,
    an illegal declaration or a bad_scenario error (a syntax error with its
    line), within the call budget."""
    text_outcome_of(text, "toml")


def _exists(data: Any, path: tuple[Any, ...]) -> bool:
    node = data
    for part in path:
        in_table = isinstance(node, dict) and isinstance(part, str) and part in node
        in_array = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if not (in_table or in_array):
            return False
        node = node[part]
    return True


@FUZZ
@given(st.one_of(st.lists(toml_bits, max_size=14).map("".join), mutated_texts()))
def test_the_line_scan_follows_the_toml_grammar(text: str) -> None:
    """Issue 14 item 10: for any text the TOML parser accepts, every key path
    the line scan reports exists in the parsed document (a multi-line string
    or a comment holding "[[permanents]]" makes no table), and the scan is
    linear: a small fraction of the call budget."""
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):  # a syntax error, or a 10**100 number
        return
    lines, limit = bounded(lambda: sc.toml_prescan(text), budget=200_000)
    if limit is not None:
        return
    invented = [path for path in lines if not _exists(data, path)]
    assert not invented, invented



# -- big boards --------------------------------------------------------------------


def board_text(n: int, *, attack: bool) -> str:
    """A TOML scenario with ``n`` creatures for alice (2/2 trample; all
    attacking, if ``attack``) and ``n`` for bob (1/3), each of bob's
    blocking one of alice's."""
    parts = ['active_player = "alice"\n[players.alice]\n[players.bob]\n']
    for i in range(n):
        parts.append(f'[[permanents]]\nid = "a{i}"\ncontroller = "alice"\npower = 2\n'
                     f'toughness = 2\nkeywords = ["trample"]\n')
        parts.append(f'[[permanents]]\nid = "b{i}"\ncontroller = "bob"\npower = 1\n'
                     f'toughness = 3\n')
    if attack:
        parts.append("[combat]\nattacks = { " + ", ".join(f'a{i} = "bob"' for i in range(n))
                     + " }\nblocks = { " + ", ".join(f'b{i} = "a{i}"' for i in range(n))
                     + " }\n")
    return "".join(parts)


def test_thousands_of_permanents_are_refused_cheaply() -> None:
    """3,000 permanents (the schema allows 500): a bad_scenario error naming
    the key, within the call budget (the items beyond the limit are not each
    checked against the schema)."""
    text = board_text(1_500, attack=False)
    assert len(text.encode()) < sc.MAX_BYTES
    out = text_outcome_of(text, "toml")
    assert out["ok"] is False and out["error"]["kind"] == "bad_scenario"
    assert out["error"]["key"] == "permanents"
    assert "at most 500" in out["error"]["message"]


def test_the_largest_board_allowed_resolves_within_the_budget() -> None:
    """500 permanents, 250 attacking and 250 blocking: a resolved combat
    within the call budget. Each 2/2 tramples over a 1/3: it must assign
    lethal damage (3) first and has only 2, so nothing reaches bob (702.19b);
    each is dealt 1."""
    out = text_outcome_of(board_text(250, attack=True), "toml")
    assert out["ok"] is True
    assert all(out["permanents"][f"a{i}"]["damage"] == 1 for i in range(250))
    assert all(out["permanents"][f"b{i}"]["damage"] == 2 for i in range(250))
    assert out["players"]["bob"]["life"] == 20


def test_oversized_documents_are_refused_before_any_work() -> None:
    """No memory blow-up: a document nested 100,000 deep, one with 300,000
    values and one with 2 MiB of strings are refused (bad_scenario, key "")
    after a walk over them, without validating or building anything."""
    deep = {"active_player": "alice", "players": {"alice": {}}, "x": nest(0, 100_000, True)}
    wide = {"active_player": "alice", "players": {"alice": {}}, "x": [0] * 300_000}
    long = {"active_player": "alice", "players": {"alice": {}}, "x": "é" * (2 * sc.MAX_BYTES)}
    for doc, words in ((deep, "nested"), (wide, "values"), (long, "characters")):
        with counting_calls() as calls, pytest.raises(sc.ScenarioProblems) as info:
            sc.from_data(doc, engine_factory=engine_for)
        assert calls.count < 10_000, calls.count  # no call per value
        assert info.value.key == "" and words in str(info.value)


def test_the_call_budget_can_fail() -> None:
    """The budget check itself catches runaway work."""
    with pytest.raises(AssertionError, match="more than the budget"):
        bounded(lambda: sorted(str(i) for i in range(10)), budget=0)
    assert bounded(lambda: 1, budget=100) == 1


def test_a_board_full_of_requirements_is_checked_within_the_budget() -> None:
    """509.1c: 60 attackers with Lure and 60 potential blockers make 3,600
    "block this attacker if able" requirements, of which a declaration can
    obey at most 60 (one per blocker). Declaring no blockers is illegal, and
    finding that out stays within the call budget: the search for the most
    requirements obeyed stops at the first declaration that reaches that
    ceiling (it used to try 20,000 declarations, about 75 million calls)."""
    n = 60
    parts = ['active_player = "alice"\n[players.alice]\n[players.bob]\n']
    for i in range(n):
        parts.append(f'[[permanents]]\nid = "a{i}"\ncontroller = "alice"\npower = 1\n'
                     f'toughness = 1\nlure = true\n')
        parts.append(f'[[permanents]]\nid = "b{i}"\ncontroller = "bob"\npower = 1\n'
                     f'toughness = 1\n')
    parts.append("[combat]\nattacks = { " + ", ".join(f'a{i} = "bob"' for i in range(n))
                 + " }\n")
    out = text_outcome_of("".join(parts), "toml")
    assert out["ok"] is False
    assert (out["error"]["kind"], out["error"]["rule"]) == ("illegal_block", "509.1c")
    assert f"obeys 0 of {n * n} requirements, but {n} can be obeyed" in out["error"]["message"]
