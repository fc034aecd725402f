"""Fuzzing the scenario loader: every document, however malformed, yields a
resolved combat, a rejected declaration (illegal_attack, illegal_block,
illegal_assignment, illegal_action) or a ``bad_scenario`` error; never any
other exception (scenario format: "a malformed file ... bad_scenario").

Three generators: arbitrary JSON-like values; plausible scenarios built from
valid and invalid parts (known and unknown ids, keywords, actions, numbers
out of bounds); and random text parsed as TOML and as JSON. When the
jsonschema package is installed, the loader's own schema check is also
compared with it: both must agree on whether a document fits the schema.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, IllegalActionError
from redzone import scenario as sc
from redzone.outcome import dumps, error_json, outcome_json, resolve

engine_for = functools.cache(Engine)

#: A few hundred examples in CI; REDZONE_FUZZ_EXAMPLES=5000 for a deeper run.
FUZZ = settings(max_examples=int(os.environ.get("REDZONE_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ALLOWED_KINDS = {"illegal_attack", "illegal_block", "illegal_assignment", "illegal_action"}


def outcome_of(data: Any) -> dict[str, Any]:
    """Load and resolve; the JSON outcome or error object. Anything other
    than a bad scenario or an illegal declaration propagates."""
    try:
        scenario = sc.from_data(data, engine_factory=engine_for)
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
                               "pumpp"]))
    action: dict[str, Any] = {"after": draw(st.sampled_from(STEPS)), "do": do}
    fields: dict[str, st.SearchStrategy[Any]] = {
        "target": ids, "source": ids, "player": ids, "power": small, "toughness": small,
        "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=2),
        "amount": st.one_of(count, st.sampled_from(["next", "all", "some"])),
        "gain_life": ids, "counters": st.dictionaries(st.just("+1/+1"), small, max_size=1),
        "zone": st.sampled_from(["graveyard", "exile", "hand"]),
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
    if draw(st.booleans()):
        combat["actions"] = draw(st.lists(actions(), max_size=3))
    doc["combat"] = combat
    if draw(st.integers(0, 3)) == 0:
        doc["effects"] = draw(st.lists(st.fixed_dictionaries(
            {"kind": st.sampled_from(["prevent_all_combat_damage", "double_life_gain",
                                      "life_floor", "double_damage", "reduce_damage", "fog"])},
            optional={"player": ids, "to": ids, "amount": count}), max_size=2))
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
