"""Hostile cases found around the scenario fuzzer (issue "Containment II",
item 8): a team of one player, and the "did you mean" over many unknown ids.

Work is bounded by a count of Python function calls, never by a clock.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hostile_kit import counting_calls
from redzone import Engine, new_game
from redzone.formats import scenario as sc
from redzone.formats import validator
from redzone.formats.outcome import outcome_json, resolve
from redzone.kernel.model import team_life

EDITIONS = ["foundations", "m10", "sixth"]


# -- a team of one player (810.1, 810.4, 810.11, 103.4) --------------------------


def test_810_11_team_life_grows_by_15_from_30_and_a_lone_player_keeps_20() -> None:
    """810.4: a team's shared life starts at 30; 810.11: 15 more for each
    player beyond the second. A "team" of one player shares its life with
    no one: 810 (two teams of two, 810.1; equally sized larger teams,
    810.11) gives it nothing, so it starts as every player does, at 20
    (103.4). It used to start at 15 (30 less 15)."""
    assert [team_life(n) for n in (1, 2, 3, 4)] == [20, 30, 45, 60]


@pytest.mark.parametrize("rules", EDITIONS)
def test_810_a_one_player_team_starts_at_20_through_engine_game(rules: str) -> None:
    """``Engine.game(..., teams=)`` with a team of one beside a team of two,
    under each rules edition: the lone player starts at 20 (103.4), the two
    at their shared 30 (810.4)."""
    engine = Engine(rules)
    state = engine.game(["alice", "bob", "carol"], teams={"red": ["alice", "carol"],
                                                          "blue": ["bob"]})
    assert {p: state.players[p].life for p in state.players} == {
        "alice": 30, "bob": 20, "carol": 30}
    alone = new_game(["alice", "bob"], teams={"red": ["alice"], "blue": ["bob"]})
    assert {p.life for p in alone.players.values()} == {20}


@pytest.mark.parametrize("rules", EDITIONS)
def test_810_a_one_player_team_from_a_scenario_file_starts_at_20(rules: str) -> None:
    """The scenario's ``teams`` key with two teams of one: a duel, each player
    at 20 (103.4); bob is dealt 5 and ends at 15, not at 10."""
    text = f"""
rules = "{rules}"
active_player = "alice"
teams = {{ red = ["alice"], blue = ["bob"] }}
[players.alice]
[players.bob]

[[permanents]]
id = "orc"
controller = "alice"
power = 5
toughness = 5

[combat]
attacks = {{ orc = "bob" }}
"""
    out = outcome_json(resolve(sc.loads(text)))
    assert out["ok"] is True
    assert out["players"]["alice"]["life"] == 20
    assert out["players"]["bob"]["life"] == 15


# -- "did you mean" over many unknown ids (guarantee 11) ---------------------------


@contextmanager
def counting(name: str) -> Iterator[Counter[str]]:
    """Count the Python calls of functions named ``name`` made in the block."""
    seen: Counter[str] = Counter()

    def profile(frame: Any, event: str, _arg: Any) -> None:
        if event == "call" and frame.f_code.co_name == name:
            seen[name] += 1

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(old)


def _long_ids_document() -> dict[str, Any]:
    """A board of 500 permanents with random ids of 100 letters a and b (the
    longest that get a suggestion), and 100 attackers with other such ids:
    about 95 kB of TOML, within every limit of the format."""
    rnd = random.Random(1)

    def rid() -> str:
        return "".join(rnd.choice("ab") for _ in range(validator.MAX_SUGGEST_WORD))

    perms = [{"id": rid(), "controller": "alice", "power": 1, "toughness": 1}
             for _ in range(500)]
    return {"active_player": "alice", "players": {"alice": {}, "bob": {}},
            "permanents": perms, "combat": {"attacks": {rid(): "bob" for _ in range(100)}}}


def test_did_you_mean_over_long_unknown_ids_is_bounded() -> None:
    """Guarantee 11 (bounded work): 100 unknown ids of 100 characters on a
    board of 500 such ids. Each comparison of two ids runs difflib's
    ``find_longest_match`` a few times, each of which walks up to 100 x 100
    character pairs in one Python call; the suggestions' work is therefore
    counted by those calls. There were 106,858 of them (7 to 10 seconds of
    CPU: 50 suggestions x 200 candidates); the scenario now has a budget of
    character pairs for all its suggestions, and each problem is still
    reported."""
    doc = _long_ids_document()
    with counting("find_longest_match") as seen, counting_calls() as calls, \
            pytest.raises(sc.ScenarioProblems) as info:
        sc.from_data(doc)
    assert len(info.value.problems) == 100
    assert all("unknown permanent id" in p.detail for p in info.value.problems)
    assert seen["find_longest_match"] < 3_000, seen
    assert calls.count < 400_000, calls.count
    assert len(json.dumps(doc)) < 100_000


def test_did_you_mean_still_names_the_typo_among_500_ids() -> None:
    """The bound keeps the suggestions as good: 50 misspelt attackers
    (``reaim`` for ``realm``) spread over 500 ids each get their own id
    suggested, not merely one of the first 200 in alphabetical order (which
    is what the candidates used to be when more than 200 were as long)."""
    perms = [{"id": f"knight-of-the-realm-{i:03d}", "controller": "alice", "power": 1,
              "toughness": 1} for i in range(500)]
    typos = [f"knight-of-the-reaim-{i:03d}" for i in range(0, 500, 10)]
    doc = {"active_player": "alice", "players": {"alice": {}, "bob": {}},
           "permanents": perms, "combat": {"attacks": dict.fromkeys(typos, "bob")}}
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.from_data(doc)
    details = [p.detail for p in info.value.problems]
    assert len(details) == len(typos)
    for typo, detail in zip(typos, details, strict=True):
        assert f"did you mean {typo.replace('reaim', 'realm')!r}" in detail, detail


def test_a_short_typo_still_gets_its_suggestion() -> None:
    """The usual case is untouched: ``wrum`` on a small board suggests
    ``wurm``."""
    doc = {"active_player": "alice", "players": {"alice": {}, "bob": {}},
           "permanents": [{"id": "wurm", "controller": "alice", "power": 6,
                           "toughness": 4},
                          {"id": "bear", "controller": "bob", "power": 2, "toughness": 2}],
           "combat": {"attacks": {"wrum": "bob"}}}
    with pytest.raises(sc.ScenarioProblems, match="did you mean 'wurm'"):
        sc.from_data(doc)


# -- holes the scenario fuzzer found ----------------------------------------------


def _one_attacker(*keywords: str) -> dict[str, Any]:
    return {"active_player": "alice", "players": {"alice": {}, "bob": {}},
            "permanents": [{"id": "snake", "controller": "alice", "power": 1,
                            "toughness": 1, "keywords": list(keywords)}],
            "combat": {"attacks": {"snake": "bob"}}}


def _resolved_or_refused(doc: dict[str, Any]) -> dict[str, Any]:
    """Guarantee 11: a resolved combat or a bad_scenario naming a key; any
    other exception (a plugin fault here) propagates."""
    try:
        scenario = sc.from_data(doc)
    except sc.ScenarioProblems as exc:
        assert exc.key.startswith("permanents[0].keywords"), exc.key
        bound = re.search(r"over the bound of ([0-9,]+)", str(exc))
        return {"ok": False, "bound": int(bound.group(1).replace(",", "")) if bound else None}
    out: dict[str, Any] = outcome_json(resolve(scenario))
    return out


def test_two_instances_of_toxic_at_the_bound_resolve_or_are_refused() -> None:
    """Guarantee 11 and 702.164c, found by the scenario fuzzer: a creature
    with ``toxic 1000000`` twice was a plugin fault (its total of 2,000,000
    poison counters is over the bound on amounts). Toxic declares the bound
    of its number (1,000), so the file is refused at the keyword, and the
    most instances a file can write add up within the bound: 50 times
    ``toxic 1000`` resolves, bob losing to poison (704.5c)."""
    out = _resolved_or_refused(_one_attacker("toxic 1000000", "toxic 1000000"))
    assert out == {"ok": False, "bound": 1000}
    out = _resolved_or_refused(_one_attacker(*["toxic 1000"] * 50))
    assert out["ok"] is True
    assert out["players"]["bob"]["poison"] == 50_000
    assert out["players"]["bob"]["lost"] is True


def test_a_million_mobilized_tokens_are_refused_at_load() -> None:
    """Guarantee 11 (bounded work), found by the scenario fuzzer: an
    attacker with ``mobilize 1000000`` is refused (a bad_scenario at its
    keyword) or resolved within 1,000,000 calls (``mobilize 3`` takes about
    50,000); it is stopped at the budget."""

    class OverBudget(BaseException):
        pass

    calls = [0]

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            calls[0] += 1
            if calls[0] > 1_000_000:
                raise OverBudget

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        out = _resolved_or_refused(_one_attacker("mobilize 1000000"))
    finally:
        sys.setprofile(old)
    assert out == {"ok": False, "bound": 100}
    assert calls[0] <= 1_000_000, calls[0]
