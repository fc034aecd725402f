"""Fuzzing the scenario loader: every document, however malformed, yields a
resolved combat, a rejected declaration (illegal_attack, illegal_block,
illegal_assignment, illegal_action) or a ``bad_scenario`` error; never any
other exception (scenario format: "a malformed file ... bad_scenario"), and
within a bounded amount of work.

The generators: arbitrary JSON-like values; plausible scenarios built from
valid and invalid parts (known and unknown ids, keywords with and without
numbers, actions, tokens, destroy, sacrifice, durations, choices, teams,
card references, numbers out of bounds); valid scenarios using every key of
the format (which must resolve or be rejected as illegal declarations);
random text parsed as TOML and as JSON; and mutations of the valid bundled
examples and of those valid scenarios, both as parsed documents (and their
JSON text) and as TOML text: deleted keys, swapped types, huge numbers
(10**100), deep nesting, unicode and very long strings; plus boards with
thousands of permanents. A bad_scenario error must name its keys. When the
jsonschema package is installed, the loader's own schema check is also
compared with it: both must agree on whether a document fits the schema.

Bounded time is checked without a clock: each input is run under a profile
hook that counts Python function calls, and the count must stay under a
generous budget (a bundled example takes about 2,000 calls; a board of 500
creatures a few hundred thousand); an input is stopped at its first call
past the budget, so a runaway fails at once. Oversized inputs must be
refused, not processed. The holes the fuzzer found (two instances of a
keyword whose numbers add up past the bound on amounts; a keyword number
that multiplies work) are held by tests/hostile/test_hostile_fuzz.py.

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
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, IllegalActionError, examples
from redzone.formats import document
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


class OverBudget(BaseException):
    """Raised inside the code under test at its first call past the budget: a
    runaway input (say a million tokens) fails at once instead of running
    for minutes. A BaseException, so that no ``except Exception`` swallows it."""


def bounded(fn: Callable[[], Any], budget: int = CALL_BUDGET) -> Any:
    """Run ``fn`` and check it stayed within ``budget`` calls (it is stopped
    at the first call past it)."""
    calls = _Calls()

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            calls.count += 1
            if calls.count > budget:
                raise OverBudget

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    except OverBudget:
        result = None
    except Exception:  # an OverBudget a plugin's containment reported as its fault
        if calls.count <= budget:
            raise
        result = None
    finally:
        sys.setprofile(old)
    assert calls.count <= budget, f"{calls.count} calls: more than the budget of {budget}"
    return result


ALLOWED_KINDS = {"illegal_attack", "illegal_block", "illegal_assignment", "illegal_action"}


def _outcome(load: Callable[[], sc.Scenario]) -> dict[str, Any]:
    try:
        scenario = load()
    except sc.ScenarioProblems as exc:
        assert exc.problems and all(p.detail for p in exc.problems)
        assert all(isinstance(p.key, str) for p in exc.problems)
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


TOP_KEYS = frozenset(sc.schema()["properties"])


def names_a_key(problem: dict[str, Any], data: Any) -> bool:
    """A bad scenario's problem names the key it is about: the whole
    document (``""``), or a path whose first part is a key of the format or
    of the document (a misspelt one)."""
    key: str = problem["key"]
    if key.startswith('"'):  # a quoted part, as format_path writes it
        head = json.JSONDecoder().raw_decode(key)[0]
    else:
        head = key.split(".")[0].split("[")[0]
    return key == "" or head in TOP_KEYS or (isinstance(data, dict) and head in data)


def outcome_of(data: Any) -> dict[str, Any]:
    """Load and resolve, within the call budget; the JSON outcome or error
    object. Anything other than a bad scenario or an illegal declaration
    propagates; a bad scenario names its keys."""
    out: dict[str, Any] = bounded(
        lambda: _outcome(lambda: sc.from_data(data, file=scenario_file(),
                                              engine_factory=engine_for)))
    if out.get("error", {}).get("kind") == "bad_scenario":
        assert all(names_a_key(p, data) for p in out["error"]["problems"]), out
    return out


def text_outcome_of(text: str, format: str) -> dict[str, Any]:
    """:func:`outcome_of` for a scenario's text."""
    out: dict[str, Any] = bounded(
        lambda: _outcome(lambda: sc.loads(text, file=scenario_file(), format=format,
                                          engine_factory=engine_for)))
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

#: Keys of ``choices`` (the extensions page): a trigger's choice, the order
#: of simultaneous triggers, a declaration's option; some name nothing.
CHOICE_KEYS = ["mentor@a1:target", "order@alice", "order@bob", "enlist:a1", "enlist:zz",
               "provoke@a1:target", "exalted@a1", "mentor@a1#2:target", "nope"]
#: The cards of the card file written beside the fuzzed scenarios.
CARD_FILE: dict[str, Any] = {
    "meta": {"date": "2026-11-30", "version": "5.2.2"},
    "data": {
        "Serra Angel": [{"name": "Serra Angel", "power": "4", "toughness": "4",
                         "colors": ["W"], "types": ["Creature"], "subtypes": ["Angel"],
                         "keywords": ["Flying", "Vigilance"], "text": "Flying, vigilance"}],
        "Konda's Hatamoto": [{"name": "Konda's Hatamoto", "power": "1", "toughness": "2",
                              "colors": ["W"], "types": ["Creature"], "keywords": ["Bushido"],
                              "text": "Bushido 1 (Whenever this creature blocks...)"}],
        "Tarmogoyf": [{"name": "Tarmogoyf", "power": "*", "toughness": "1+*",
                       "colors": ["G"], "types": ["Creature"], "text": ""}],
        "Sower of Temptation": [{"name": "Sower of Temptation", "power": "2",
                                 "toughness": "2", "colors": ["U"], "types": ["Creature"],
                                 "keywords": ["Flying", "Ward"], "text": "Flying\nWard {2}"}],
        "Plaguecrafter's Toxic Rat": [{"name": "Plaguecrafter's Toxic Rat", "power": "1",
                                       "toughness": "1", "colors": ["B"],
                                       "types": ["Creature"], "keywords": ["Toxic"],
                                       "text": "Toxic 2"}],
    },
}
CARD_NAMES = sorted(CARD_FILE["data"])
#: The cards a valid document may name without writing their power.
RICH_CARDS = [name for name in CARD_NAMES if name != "Tarmogoyf"]
#: Where the card file is: a scenario's relative ``cards`` path is read from
#: the scenario file's folder (set up by the card_file fixture).
CARD_DIR: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def card_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Write the card file the fuzzed scenarios may reference."""
    folder = tmp_path_factory.mktemp("cards")
    (folder / "AtomicCards.json").write_text(json.dumps(CARD_FILE), encoding="utf-8")
    CARD_DIR.append(str(folder / "fuzzed.toml"))
    yield
    CARD_DIR.clear()


def scenario_file() -> str:
    """The file name the fuzzed scenarios are loaded as."""
    return CARD_DIR[-1] if CARD_DIR else "<scenario>"


PLAYERS = ["alice", "bob", "carol"]
IDS = ["a1", "a2", "b1", "b2", "c1"]
KEYWORDS = ["flying", "reach", "trample", "deathtouch", "first strike", "double strike",
            "lifelink", "infect", "wither", "menace", "vigilance", "defender", "haste",
            "indestructible", "protection from red", "Flying", "trampel", ""]
STEPS = ["beginning_of_combat", "declare_attackers", "declare_blockers",
         "first_strike_damage", "combat_damage", "end_of_combat", "combat_damage_assigned",
         "nope"]

#: Keywords that carry a number (107.1), and numbers for them: small ones,
#: the bound (1,000,000), past it, and digits of other scripts.
NUMBERED = ["toxic", "bushido", "rampage", "afflict", "annihilator", "frenzy", "mobilize"]
NUMBERS = ["0", "1", "2", "3", "1000000", "1000001", "99999999999999999999", "-1", "x",
           "\u0663", "\uff11", "", "1.5"]
#: Keywords whose number is a count of objects to create: past a few
#: hundred, the run is a runaway until the keyword's bound refuses it at
#: load (see test_a_million_mobilized_tokens_are_refused_at_load).
CREATING = {"mobilize"}


@st.composite
def numbered_keywords(draw: st.DrawFn) -> str:
    """A keyword with a number, as printed ("toxic 2"), or a bad number."""
    name = draw(st.sampled_from(NUMBERED))
    number = draw(st.sampled_from(NUMBERS))
    if name in CREATING and number == "1000000":
        number = "3"
    return f"{name} {number}".strip()


KEYWORD_TEXTS = st.one_of(st.sampled_from([
    *KEYWORDS, "myriad", "exalted", "training", "mentor", "melee", "dethrone", "battle cry",
    "flanking", "skulk", "enlist", "decayed", "provoke", "banding", "swampwalk",
    "trample over planeswalkers", "hexproof", "ward {2}", "flash"]), numbered_keywords())
#: Keywords as a valid document writes them: numbers from 1 to 3 (and the
#: bound, where the number creates nothing).
GOOD_KEYWORDS = st.one_of(
    st.sampled_from(["flying", "reach", "trample", "deathtouch", "first strike",
                     "double strike", "lifelink", "infect", "wither", "menace", "vigilance",
                     "haste", "indestructible", "protection from red", "myriad", "exalted",
                     "training", "mentor", "melee", "dethrone", "battle cry", "flanking",
                     "skulk", "decayed", "banding", "hexproof", "ward {2}"]),
    st.builds("{} {}".format, st.sampled_from(NUMBERED), st.integers(1, 3)),
    st.builds("{} 1000000".format, st.sampled_from(sorted(set(NUMBERED) - CREATING))))
#: Mostly good keywords, now and then a bad number.
RICH_KEYWORDS = st.one_of(GOOD_KEYWORDS, GOOD_KEYWORDS, GOOD_KEYWORDS, KEYWORD_TEXTS)
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
        "keywords": st.lists(KEYWORD_TEXTS, max_size=3),
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
        # Card references (a card file beside the scenario; see card_file).
        "card": st.sampled_from([*CARD_NAMES, "serra angel", "Sera Angel", ""]),
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
                               "block", "enter_blocking", "add_effect", "create_token",
                               "destroy", "sacrifice", "exile", "regenerate", "pumpp"]))
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
            {"kind": st.sampled_from(["blocks_if_able", "prevent_all_combat_damage", "fog",
                                      "redirect_damage", "double_damage"])},
            optional={"to": ids, "source": ids, "player": ids}),
        # Tokens, durations, regeneration (the December 2026 additions).
        "token": st.sampled_from(["t1", "t2", "a1"]).flatmap(permanents),
        "tapped": st.booleans(), "attacking": ids, "blocking": ids,
        "duration": st.sampled_from(["end_of_turn", "end_of_combat", "this_combat",
                                     "forever"]),
        "regenerate": st.booleans(), "combat_only": st.booleans(),
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
    if draw(st.integers(0, 4)) == 0:
        doc["teams"] = draw(st.dictionaries(st.sampled_from(["red", "blue", ""]),
                                            st.lists(ids, max_size=3), max_size=2))
    if draw(st.integers(0, 4)) == 0:
        doc["choices"] = draw(st.dictionaries(
            st.sampled_from(CHOICE_KEYS), st.one_of(ids, st.lists(ids, max_size=2)),
            max_size=2))
    if draw(st.integers(0, 4)) == 0:
        doc["through"] = draw(st.sampled_from(["cleanup", "end_of_combat", "end"]))
    if draw(st.integers(0, 5)) == 0:
        doc["additional_combats"] = [{"attacks": draw(st.dictionaries(ids, ids, max_size=2))}]
    if draw(st.integers(0, 5)) == 0:
        doc["cards"] = draw(st.sampled_from(["AtomicCards.json", "missing.json", ""]))
    if draw(st.integers(0, 6)) == 0:
        doc["unknown_keywords"] = draw(st.sampled_from(["error", "inert", "ignore"]))
    return doc


@FUZZ
@given(scenarios())
def test_plausible_scenarios_resolve_or_are_rejected_cleanly(doc: dict[str, Any]) -> None:
    """Plausible scenarios, valid or subtly not: a combat, an illegal
    declaration, or a bad_scenario error; the same document twice gives the
    same bytes (determinism)."""
    first = outcome_of(doc)
    assert dumps(first) == dumps(outcome_of(doc))


# -- valid scenarios using every key of the format ---------------------------------

#: The steps of one combat an action may follow (``rules = "sixth"`` adds the
#: assigned windows; ``through = "cleanup"`` the end step).
COMBAT_STEPS = ["beginning_of_combat", "declare_attackers", "declare_blockers",
                "first_strike_damage", "combat_damage", "end_of_combat"]
#: Keys of a valid document that may still be refused, each for a reason of
#: its own: a keyword number past the bound (107.1), a choice no decision
#: asks for, a card whose power is ``*``.
RISKY = ("keywords", "choices", "card")


@st.composite
def rich_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A document built to be valid, using the keys the format has now:
    teams (810), card references, keywords with numbers, tokens created
    attacking or blocking, destroy, sacrifice, exile, regenerate, durations,
    choices, ``through = "cleanup"`` and additional combats. Its ids all
    refer to what they should; only the keyword numbers, the choices and the
    cards may make it a bad scenario (:data:`RISKY`)."""
    size = draw(st.sampled_from([2, 2, 3, 4]))
    players = PLAYERS[:min(size, 3)] + (["dave"] if size == 4 else [])
    doc: dict[str, Any] = {"active_player": "alice", "players": {p: {} for p in players},
                           "rules": draw(st.sampled_from(["foundations", "m10", "sixth"]))}
    mates = {"alice": {"alice"}}
    if size == 4 and draw(st.booleans()):
        doc["teams"] = {"red": ["alice", "carol"], "blue": ["bob", "dave"]}
        doc["turn_order"] = ["alice", "bob", "carol", "dave"]
        mates["alice"] = {"alice", "carol"}
    elif size == 2 and draw(st.integers(0, 3)) == 0:
        doc["teams"] = {"red": ["alice"], "blue": ["bob"]}
    foes = [p for p in players if p not in mates["alice"]]
    perms: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 4))):
        owner = draw(st.sampled_from(sorted(mates["alice"])))
        perms.append({"id": f"a{i}", "controller": owner})
    for i in range(draw(st.integers(0, 3))):
        perms.append({"id": f"d{i}", "controller": draw(st.sampled_from(foes))})
    for perm in perms:
        if draw(st.integers(0, 4)) == 0:
            perm["card"] = draw(st.sampled_from(RICH_CARDS))
            doc["cards"] = "AtomicCards.json"
        else:
            perm["power"] = draw(st.integers(0, 6))
            perm["toughness"] = draw(st.integers(1, 6))
        perm["keywords"] = draw(st.lists(RICH_KEYWORDS, max_size=2))
    doc["permanents"] = perms
    attackers = [p["id"] for p in perms if p["id"].startswith("a")]
    blockers = [p["id"] for p in perms if p["id"].startswith("d")]
    attacks = {a: draw(st.sampled_from(foes)) for a in attackers if draw(st.booleans())}
    combat: dict[str, Any] = {"attacks": attacks}
    if attacks and blockers:
        combat["blocks"] = {b: [draw(st.sampled_from(sorted(attacks)))]
                            for b in blockers if draw(st.booleans())}
    acts: list[dict[str, Any]] = []
    everyone = attackers + blockers
    for n in range(draw(st.integers(0, 3))):
        after = draw(st.sampled_from(COMBAT_STEPS[:-1]))
        do = draw(st.sampled_from(["create_token", "destroy", "sacrifice", "exile",
                                   "regenerate", "pump", "grant", "prevent"]))
        act: dict[str, Any] = {"after": after, "do": do}
        if do == "create_token":
            act["token"] = {"id": f"t{n}", "controller": "alice", "power": 1,
                            "toughness": 1,
                            "keywords": draw(st.lists(RICH_KEYWORDS, max_size=1))}
            if after == "declare_attackers" and draw(st.booleans()):
                act["attacking"] = draw(st.sampled_from(foes))
                act["tapped"] = True
        elif do == "prevent":
            act["target"] = draw(st.sampled_from(everyone + players))
            act["amount"] = draw(st.sampled_from([1, 3, "next", "all"]))
        else:
            act["target"] = draw(st.sampled_from(everyone))
            if do == "pump":
                act["power"] = draw(st.integers(-2, 3))
                act["toughness"] = draw(st.integers(0, 3))
            elif do == "grant":
                act["keywords"] = draw(st.lists(RICH_KEYWORDS, min_size=1, max_size=2))
            elif do == "destroy" and draw(st.booleans()):
                act["regenerate"] = draw(st.booleans())
        if do in ("pump", "grant", "prevent") and draw(st.booleans()):
            act["duration"] = draw(st.sampled_from(["end_of_turn", "end_of_combat",
                                                    "this_combat"]))
        acts.append(act)
    if acts:
        combat["actions"] = acts
    doc["combat"] = combat
    if draw(st.integers(0, 3)) == 0:
        doc["through"] = "cleanup"
    if draw(st.integers(0, 4)) == 0:
        doc["additional_combats"] = [{"attacks": {
            a: draw(st.sampled_from(foes)) for a in attackers if draw(st.booleans())}}]
    if draw(st.integers(0, 7)) == 0:
        doc["choices"] = {draw(st.sampled_from([f"mentor@{a}:target" for a in attackers]
                                               + ["order@alice", "enlist:a0"])):
                          draw(st.sampled_from(everyone))}
    return doc


@FUZZ
@given(rich_scenarios())
def test_valid_scenarios_with_every_key_resolve(doc: dict[str, Any]) -> None:
    """Guarantee 11: a valid document using the format's newer keys (teams,
    cards, keyword numbers, tokens, destroy, sacrifice, durations, choices,
    the rest of the turn, additional combats) gives a resolved combat or an
    illegal declaration; a bad_scenario only at a key that may hold a bad
    value (:data:`RISKY`: a keyword number past the bound, a choice no
    decision asks for, a card with ``*`` power). Within the call budget."""
    out = outcome_of(doc)
    if out.get("error", {}).get("kind") == "bad_scenario":
        keys = [p["key"] for p in out["error"]["problems"]]
        assert all(any(part in key for part in RISKY) for key in keys), out["error"]


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
SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
NASTY = ["é", "\u0000", "\u202e", "🐉", "\U0001f9d9\u200d\u2642", "a\u0301", "ß", "İ",
         "\ufeff", "\n", " ", "\\", '"', "[", "]", "{", "}", "Ⅻ"]
unicode_text = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=SURROGATES), min_size=1, max_size=12),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=6).map("".join))
LONG_STRINGS = [100 * "x", 10_000 * "x", 100_000 * "é", 2_000 * " ",
                (sc.MAX_BYTES + 1) * "a"]
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
    """A bundled example, or a valid document using the newer keys
    (:func:`rich_scenarios`), with one to four mutations at random key paths."""
    if draw(st.integers(0, 2)) == 0:
        doc = draw(rich_scenarios())
    else:
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
            parent[key] = draw(st.sampled_from(LONG_STRINGS))
        elif isinstance(parent, dict):  # rename the key
            new = draw(st.one_of(unicode_text, st.sampled_from(LONG_STRINGS[:3])))
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
    lines, limit = bounded(lambda: document.toml_prescan(text), budget=200_000)
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
