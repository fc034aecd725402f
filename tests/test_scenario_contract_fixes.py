"""Scenario reader fixes against the scenario format's contract ("Additions of
December 2026" and "Additions of January 2027").

- "Objects that entered before a declaration can be declared" (Jan 2027,
  302.6, 508.1a, 509.1a): a creature put onto the battlefield in any step
  before a declaration (this turn's beginning phase or precombat main phase,
  or an earlier turn, its end step included) may be named in it; one that
  enters after it still may not.
- ``create_token``'s ``token = { ... } # any permanent key`` (Dec 2026,
  111.2): each key is honoured (``tapped``) or refused naming the key; none
  is silently ignored ("Unknown keys are an error (typos must not pass
  silently)").
- ``after = "declare_attackers#2"`` is one problem (an unknown step), not also
  a false "not a valid id".
- "More turns" (Jan 2027): a turn takes ``choices`` (601.2), answering that
  turn's decisions; the turn's answer to a key wins over the top level's.
- A card off the battlefield is neither tapped nor damaged and has no
  counters but in exile (110.5, 120.6, 122.2, 702.62a): such keys are refused.
- An action after a window that never comes in the file (500.1, 103.8a,
  500.8) is a bad scenario naming its ``after``.
- ``move``'s ``position`` is for a library only (401.1).
- docs/scenario-format.md follows the contract ("More turns" lists
  ``choices``; ``"zone": "ceased"`` is contract).

Each test runs the file as ``redzone run --json FILE`` does (the command
line's exit status: 0 resolved, 1 illegal, 2 bad scenario).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from redzone import CreateToken
from redzone.formats import scenario as sc
from redzone.frontends.cli import cli

HEAD = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "bear"
name = "Grizzly Bears"
controller = "alice"
power = 2
toughness = 2
"""

#: A card in each library, so that nobody loses drawing in a later turn (704.5b).
LIBRARIES = """
[[permanents]]
id = "a1"
controller = "alice"
types = ["land"]
zone = "library"

[[permanents]]
id = "b1"
controller = "bob"
types = ["land"]
zone = "library"
"""


def run(tmp_path: Path, text: str) -> tuple[int, dict[str, Any]]:
    """``redzone run --json FILE``: its exit status and its JSON."""
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["run", "--json", str(path)])
    return result.exit_code, json.loads(result.stdout)


def problems(text: str) -> dict[str, list[str]]:
    """The problems of a bad scenario, by key path."""
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.loads(text)
    out: dict[str, list[str]] = {}
    for p in info.value.problems:
        out.setdefault(p.key or "", []).append(p.detail)
    return out


def token(tid: str, controller: str, after: str, extra: str = "", table: str = "combat",
          keywords: str = "[]") -> str:
    return f"""
[[{table}.actions]]
after = "{after}"
do = "create_token"
token = {{ id = "{tid}", name = "Token", controller = "{controller}", power = 1, \
toughness = 1, keywords = {keywords}{extra} }}
"""


def attackers(out: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["attacker"], e["step"]) for e in out["events"] if e["kind"] == "attack"]


# -- (A) Objects that entered before a declaration can be declared (Jan 2027) ----------


def test_508_1a_a_token_made_in_the_precombat_main_phase_attacks(tmp_path: Path) -> None:
    """508.1a, 302.6 (Jan 2027, Objects that entered before a declaration): a
    hasty token created with ``after = "precombat_main"`` is on the
    battlefield when attackers are declared; ``attacks`` may name it."""
    code, out = run(tmp_path, HEAD + '[combat]\nattacks = { bear = "bob", goblin = "bob" }\n'
                    + token("goblin", "alice", "precombat_main", keywords='["haste"]'))
    assert code == 0 and out["ok"] is True, out.get("error")
    assert attackers(out) == [("bear", "declare_attackers"), ("goblin", "declare_attackers")]
    assert out["players"]["bob"]["life"] == 17


def test_509_1a_a_token_made_in_the_precombat_main_phase_blocks(tmp_path: Path) -> None:
    """509.1a (Jan 2027, Objects that entered before a declaration): a token
    created in the precombat main phase is declared as a blocker."""
    code, out = run(tmp_path, HEAD + '[combat]\nattacks = { bear = "bob" }\n'
                    'blocks = { soldier = "bear" }\n' + token("soldier", "bob", "precombat_main"))
    assert code == 0 and out["ok"] is True, out.get("error")
    assert [(e["blocker"], e["attacker"]) for e in out["events"] if e["kind"] == "block"] == [
        ("soldier", "bear")]
    assert out["players"]["bob"]["life"] == 20
    assert out["permanents"]["bear"]["damage"] == 1


def test_508_1a_a_token_made_in_a_later_turns_upkeep_attacks_that_turn(tmp_path: Path) -> None:
    """508.1a, 503 (Jan 2027, Objects that entered before a declaration; More
    turns): a hasty token created in the upkeep of alice's next turn attacks
    in that turn's combat."""
    text = HEAD + LIBRARIES + '[combat]\nattacks = { bear = "bob" }\n' \
        '[[turns]]\nattacks = {}\n[[turns]]\nattacks = { g = "bob" }\n' \
        + token("g", "alice", "upkeep", table="turns", keywords='["haste"]')
    code, out = run(tmp_path, text)
    assert code == 0 and out["ok"] is True, out.get("error")
    assert attackers(out) == [("bear", "declare_attackers"), ("g", "declare_attackers@3")]
    assert out["players"]["bob"]["life"] == 17


@pytest.mark.parametrize("after", ["untap", "draw", "precombat_main"])
def test_509_1a_a_token_made_in_a_later_turns_beginning_blocks_that_turn(
        tmp_path: Path, after: str) -> None:
    """509.1a, 502-505 (Jan 2027, Objects that entered before a declaration):
    a token bob creates in the untap step, draw step or precombat main phase
    of alice's next turn blocks in that turn's combat."""
    text = HEAD + LIBRARIES + '[combat]\nattacks = {}\n[[turns]]\nattacks = {}\n' \
        '[[turns]]\nattacks = { bear = "bob" }\nblocks = { s = "bear" }\n' \
        + token("s", "bob", after, table="turns")
    code, out = run(tmp_path, text)
    assert code == 0 and out["ok"] is True, out.get("error")
    assert out["players"]["bob"]["life"] == 20
    assert out["permanents"]["s"]["zone"] == "ceased"


def test_508_1a_an_end_step_token_attacks_in_a_later_turn(tmp_path: Path) -> None:
    """508.1a, 513, 302.6 (Jan 2027, Objects that entered before a
    declaration): a token made in the end step of the first turn is on the
    battlefield in alice's next turn; its attack is declared (and, under her
    control since that turn began, it needs no haste)."""
    text = HEAD + LIBRARIES + '[combat]\nattacks = { bear = "bob" }\n' \
        + token("g", "alice", "end_step") \
        + '[[turns]]\nattacks = {}\n[[turns]]\nattacks = { g = "bob" }\n'
    code, out = run(tmp_path, text)
    assert code == 0 and out["ok"] is True, out.get("error")
    assert attackers(out) == [("bear", "declare_attackers"), ("g", "declare_attackers@3")]
    assert out["players"]["bob"]["life"] == 17


def test_508_1a_a_token_of_a_later_turn_can_t_be_declared_earlier(tmp_path: Path) -> None:
    """508.1a (Jan 2027, Objects that entered before a declaration): a token
    made in the precombat main phase of the third turn isn't there when the
    second turn's blockers, or the first turn's attackers, are declared."""
    text = HEAD + LIBRARIES + '[combat]\nattacks = { g = "bob" }\n[[turns]]\nattacks = {}\n' \
        'blocks = { g = "bear" }\n[[turns]]\nattacks = {}\n' \
        + token("g", "alice", "precombat_main", table="turns", keywords='["haste"]')
    code, out = run(tmp_path, text)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    keys = {p["key"]: p["message"] for p in out["error"]["problems"]}
    assert "in a later turn" in keys["combat.attacks.g"]
    assert "in a later turn" in keys["turns[0].blocks.g"]
    assert "after attackers are declared" in keys["combat.attacks.g"]


def test_505_1a_a_postcombat_main_token_can_t_be_declared_in_another_combat_that_turn(
        tmp_path: Path) -> None:
    """505.1a, 500.8 (Dec 2026, More than one combat in a turn): the
    postcombat main phase's actions happen after every combat of the turn,
    so a token made then can't attack in an additional combat."""
    text = HEAD.replace('active_player = "alice"', 'active_player = "alice"\n'
                        'through = "cleanup"') + '[combat]\nattacks = { bear = "bob" }\n' \
        + token("g", "alice", "postcombat_main", keywords='["haste"]') \
        + '[[additional_combats]]\nattacks = { g = "bob" }\n'
    code, out = run(tmp_path, text)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert out["error"]["key"] == "additional_combats[0].attacks.g"
    assert "after every combat" in out["error"]["message"]


def test_508_1a_a_token_made_in_an_upkeep_that_doesn_t_happen_can_t_attack(
        tmp_path: Path) -> None:
    """508.1a, 103.8a (Jan 2027, Objects that entered before a declaration):
    the first turn's beginning phase runs only with ``first_turn = true``;
    without it, a token "made" in its upkeep never enters, and naming it is
    a problem of the file; with it, the token attacks."""
    body = '[combat]\nattacks = { g = "bob" }\n' + token("g", "alice", "upkeep",
                                                           keywords='["haste"]')
    code, out = run(tmp_path, HEAD + body)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert out["error"]["key"] == "combat.attacks.g"
    assert "first_turn = true" in out["error"]["message"]
    code, out = run(tmp_path, HEAD.replace('active_player = "alice"',
                                           'active_player = "alice"\nfirst_turn = true') + body)
    assert code == 0 and out["ok"] is True, out.get("error")
    assert out["players"]["bob"]["life"] == 19


# -- (B) create_token: every permanent key is honoured or refused (Dec 2026, 111.2) ----

TOKEN_HEAD = HEAD + '[combat]\nattacks = { bear = "bob" }\n'


def test_111_2_a_token_with_tapped_true_enters_tapped(tmp_path: Path) -> None:
    """111.2 (Dec 2026, Objects entering: ``token = { ... } # any permanent
    key``): ``tapped = true`` in the token's table makes it enter tapped, as
    the action's own ``tapped = true`` does."""
    text = TOKEN_HEAD + token("w1", "alice", "declare_attackers", ", tapped = true") \
        + token("w2", "alice", "declare_attackers", ", tapped = false") \
        + token("w3", "alice", "declare_attackers") + "tapped = true\n"
    (_, first), (_, second), (_, third) = sc.loads(text).actions
    made = [a for a in (first, second, third) if isinstance(a, CreateToken)]
    assert [a.tapped for a in made] == [True, False, True]
    code, out = run(tmp_path, text)
    assert code == 0 and out["ok"] is True, out.get("error")
    assert [out["permanents"][t]["tapped"] for t in ("w1", "w2", "w3")] == [True, False, True]
    assert out["players"]["bob"]["life"] == 18


def test_111_2_tapped_in_the_token_and_in_the_action_must_agree() -> None:
    """111.2 (Dec 2026, Objects entering): ``tapped`` given both in the token
    and in the action, with different values, is a problem at the token's key."""
    found = problems(TOKEN_HEAD + token("w1", "alice", "declare_attackers", ", tapped = true")
                     + "tapped = false\n")
    assert list(found) == ["combat.actions[0].token.tapped"]
    assert "disagrees" in found["combat.actions[0].token.tapped"][0]


@pytest.mark.parametrize(("extra", "key", "words"), [
    (", damage = 1", "damage", "no damage"),
    (", summoning_sick = false", "summoning_sick", "302.6"),
    (', zone = "hand"', "zone", "111.2"),
    (", token = false", "token", "111.1"),
    (', owner = "bob"', "owner", "111.2"),
    (', card = "Grizzly Bears"', "card", "[[permanents]]"),
])
def test_111_2_a_token_key_the_rules_don_t_allow_is_refused(
        tmp_path: Path, extra: str, key: str, words: str) -> None:
    """111.1, 111.2, 302.6 (Dec 2026, Objects entering; the contract's "Unknown
    keys are an error (typos must not pass silently)"): a token is created on
    the battlefield, under its creator's control and owned by them, summoning
    sick and with no damage: a key saying otherwise is refused as
    bad_scenario, naming the file, the key path and why; never ignored."""
    code, out = run(tmp_path, TOKEN_HEAD + token("w2", "alice", "declare_attackers", extra))
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == [f"combat.actions[0].token.{key}"]
    assert out["error"]["file"].endswith("scenario.toml")
    assert words in out["error"]["message"]


def test_111_2_token_keys_that_say_what_the_rules_do_are_accepted() -> None:
    """111.2 (Dec 2026, Objects entering): ``damage = 0``, ``summoning_sick =
    true``, ``zone = "battlefield"``, ``token = true`` and the controller as
    ``owner`` say what creating a token does: accepted."""
    text = TOKEN_HEAD + token("w2", "alice", "declare_attackers",
                              ', damage = 0, summoning_sick = true, zone = "battlefield", '
                              'token = true, owner = "alice"')
    (_, action), = sc.loads(text).actions
    assert isinstance(action, CreateToken)
    made = action.token
    assert (made.damage, made.summoning_sick, made.zone, made.token, made.owner) == (
        0, True, "battlefield", True, "alice")


def test_508_4_enter_attacking_honours_tapped_in_its_permanent(tmp_path: Path) -> None:
    """508.4 (Dec 2026, Objects entering; ``enter_attacking``'s ``permanent``
    has the keys of a ``[[permanents]]`` entry): ``tapped = true`` in it
    puts it onto the battlefield tapped and attacking."""
    text = TOKEN_HEAD + """
[[combat.actions]]
after = "declare_attackers"
do = "enter_attacking"
attacking = "bob"
permanent = { id = "vanguard", controller = "alice", power = 2, toughness = 1, tapped = true }
"""
    code, out = run(tmp_path, text)
    assert code == 0 and out["ok"] is True, out.get("error")
    assert out["permanents"]["vanguard"]["tapped"] is True
    assert out["players"]["bob"]["life"] == 16


def test_509_4_enter_blocking_refuses_tapped_and_damage_in_its_permanent() -> None:
    """509.4 (``enter_blocking``'s ``permanent``): it is put onto the
    battlefield untapped and with no damage marked; ``tapped = true`` and
    ``damage = 1`` can't be honoured and are refused, not ignored."""
    text = TOKEN_HEAD.replace("[combat]", "[[permanents]]\nid = \"x\"\ncontroller = \"bob\"\n"
                              "power = 1\ntoughness = 1\n[combat]") + """
[[combat.actions]]
after = "declare_attackers"
do = "enter_blocking"
attacker = "bear"
permanent = { id = "wall", controller = "bob", power = 0, toughness = 3, tapped = true, damage = 1 }
"""
    found = problems(text)
    assert sorted(found) == ["combat.actions[0].permanent.damage",
                             "combat.actions[0].permanent.tapped"]


# -- (C) after = "declare_attackers#2": one problem, no false "not a valid id" ----------


@pytest.mark.parametrize("after", ["declare_attackers#2", "declare_attackers@2"])
def test_after_with_a_step_label_suffix_is_one_problem(tmp_path: Path, after: str) -> None:
    """Scenario format, Actions in priority windows (Dec 2026, More than one
    combat: step labels ``declare_attackers#2``; Jan 2027, More turns:
    ``@2``): ``after`` names a step, not a label; the file gets one problem,
    the unknown step with its close matches, and no false "not a valid id"."""
    text = TOKEN_HEAD + f"""
[[combat.actions]]
after = "{after}"
do = "gain_life"
player = "alice"
amount = 1
"""
    code, out = run(tmp_path, text)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    found = [(p["key"], p["message"]) for p in out["error"]["problems"]]
    assert len(found) == 1, found
    key, message = found[0]
    assert key == "combat.actions[0].after"
    assert message.startswith(f"unknown step {after!r} (did you mean 'declare_attackers'")
    assert "not a valid id" not in message


def test_603_1_an_unknown_kind_of_event_is_one_problem() -> None:
    """603.1 (``[[triggers]]``' ``when``): an event kind that isn't a name is
    one problem, the unknown kind of event, not also "not a valid id"."""
    found = problems(HEAD + """
[combat]
attacks = { bear = "bob" }
[[triggers]]
when = "dies#2"
source = "bear"
[[triggers.actions]]
do = "gain_life"
player = "alice"
amount = 1
""")
    assert list(found) == ["triggers[0].when"]
    assert len(found["triggers[0].when"]) == 1
    assert "unknown kind of event" in found["triggers[0].when"][0]


# -- (D) More turns: a turn's own `choices` (Jan 2027) --------------------------------

#: Alice's Eldrazi (annihilator 1) and bob's three lands, a card in each
#: library; alice attacks with the Eldrazi in her first turn and again in
#: her next turn (the file's second [[turns]] entry, the third turn); bob's
#: turn between attacks with nothing.
ANNIHILATOR = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "eldrazi"
controller = "alice"
power = 5
toughness = 5
keywords = ["annihilator 1"]
[[permanents]]
id = "l1"
controller = "bob"
types = ["land"]
[[permanents]]
id = "l2"
controller = "bob"
types = ["land"]
[[permanents]]
id = "l3"
controller = "bob"
types = ["land"]
""" + LIBRARIES

#: The key of the choice annihilator's trigger asks as it resolves (702.86a).
SACRIFICE = "annihilator@eldrazi:sacrifice"


def sacrificed(out: dict[str, Any]) -> list[tuple[str, list[str], bool]]:
    """The outcome's annihilator choices: (step, answer, taken by default)."""
    return [(c["step"], c["answer"], c["default"]) for c in out["choices"]
            if c["key"] == SACRIFICE]


def lands(out: dict[str, Any]) -> list[str]:
    """Bob's lands still on the battlefield."""
    return [i for i in ("l1", "l2", "l3") if out["permanents"][i]["zone"] == "battlefield"]


def test_608_2d_a_turns_choices_answer_that_turns_decisions(tmp_path: Path) -> None:
    """608.2d, 702.86a (Jan 2027, More turns: a turn takes "the same keys as
    [combat]: blocks, assign, actions, choices"): a ``[[turns]]`` entry's
    ``choices`` answers the decisions of that turn. Bob sacrifices the land
    the third turn's entry names; in the first turn, whose file part says
    nothing, the decision takes its default."""
    code, out = run(tmp_path, ANNIHILATOR + '[combat]\nattacks = { eldrazi = "bob" }\n'
                    '[[turns]]\n[[turns]]\nattacks = { eldrazi = "bob" }\n'
                    f'choices = {{ "{SACRIFICE}" = "l3" }}\n')
    assert code == 0 and out["ok"] is True, out.get("error")
    assert sacrificed(out) == [("declare_attackers", ["l1"], True),
                               ("declare_attackers@3", ["l3"], False)]
    assert lands(out) == ["l2"]
    assert out["players"]["bob"]["life"] == 10


def test_608_2d_a_turns_own_answer_wins_over_the_top_level_for_that_turn(
        tmp_path: Path) -> None:
    """608.2d, 702.86a (Jan 2027, More turns; docs: a turn's choices and the
    file's): the top-level ``[choices]`` answer every turn's decisions,
    except where a turn's own ``choices`` answers the same key: there the
    turn's answer wins, for that turn only. Bob sacrifices l2 in the first
    turn (the top level's answer) and l3 in the third (its own)."""
    code, out = run(tmp_path, ANNIHILATOR.replace(
        'active_player = "alice"', f'active_player = "alice"\nchoices = {{ "{SACRIFICE}" = '
        '"l2" }') + '[combat]\nattacks = { eldrazi = "bob" }\n'
        '[[turns]]\n[[turns]]\nattacks = { eldrazi = "bob" }\n'
        f'choices = {{ "{SACRIFICE}" = ["l3"] }}\n')
    assert code == 0 and out["ok"] is True, out.get("error")
    assert sacrificed(out) == [("declare_attackers", ["l2"], False),
                               ("declare_attackers@3", ["l3"], False)]
    assert lands(out) == ["l1"]


def test_601_2_a_turns_choice_that_turn_never_asks_is_refused(tmp_path: Path) -> None:
    """601.2 (Jan 2027, More turns: a turn's ``choices`` has the checks of
    the top-level one, which refuses a key no decision asked for): an answer
    in bob's turn to the sacrifice that only alice's attacks ask for is an
    illegal action citing 601.2 and naming the key, as that turn ends; the
    partial outcome runs to the end of that turn."""
    code, out = run(tmp_path, ANNIHILATOR + '[combat]\nattacks = { eldrazi = "bob" }\n'
                    f'[[turns]]\nchoices = {{ "{SACRIFICE}" = "l3" }}\n')
    assert code == 1 and out["ok"] is False
    assert (out["error"]["kind"], out["error"]["rule"]) == ("illegal_action", "601.2")
    assert out["error"]["objects"] == [SACRIFICE]
    assert out["partial"]["steps"][-1] == "cleanup@2"


def test_601_2_a_turns_choices_are_checked_as_the_top_level_ones() -> None:
    """601.2 (Jan 2027, More turns: the same shape and checks as the
    top-level ``[choices]``): an answer that is neither an option nor a list
    of options is a bad scenario naming the turn's key path."""
    found = problems(ANNIHILATOR + '[combat]\nattacks = {}\n[[turns]]\n'
                     f'choices = {{ "{SACRIFICE}" = 3 }}\n')
    assert list(found) == [f'turns[0].choices."{SACRIFICE}"']


def test_601_2_turn_plan_choices_through_the_api() -> None:
    """601.2 (Jan 2027, More turns): ``TurnPlan(choices=...)`` carries a
    turn's answers through :meth:`Engine.resolve`; answers that aren't a
    mapping are refused naming the turn, and nothing is resolved."""
    from redzone import BadQueryError
    from redzone.kernel.plans import CombatPlan, TurnPlan

    scenario = sc.loads(ANNIHILATOR + '[combat]\nattacks = { eldrazi = "bob" }\n')
    engine = scenario.engine
    turns = (TurnPlan(CombatPlan({})),
             TurnPlan(CombatPlan({"eldrazi": "bob"}), choices={SACRIFICE: "l3"}))
    result = engine.resolve(scenario.state, {"eldrazi": "bob"}, turns=turns)
    assert [(c.step, c.answer, c.by_default) for c in result.choices
            if c.key == SACRIFICE] == [("declare_attackers", ("l1",), True),
                                       ("declare_attackers@3", ("l3",), False)]
    with pytest.raises(BadQueryError, match=r"turns\[0\]\.choices"):
        engine.resolve(scenario.state, {"eldrazi": "bob"},
                       turns=(TurnPlan(CombatPlan({}), choices=["l3"]),))  # type: ignore[arg-type]


# -- (E) Cards off the battlefield: no permanent-only state (110.5, 120.6, 122.2) -------


def card(zone: str, extra: str) -> str:
    return HEAD + f"""
[[permanents]]
id = "x"
controller = "alice"
power = 1
toughness = 1
zone = "{zone}"
{extra}
[combat]
attacks = {{}}
"""


@pytest.mark.parametrize("zone", ["hand", "library", "graveyard", "exile"])
@pytest.mark.parametrize(("extra", "key", "rule"), [
    ("damage = 5", "damage", "120.6"),
    ("tapped = true", "tapped", "110.5"),
])
def test_110_5_120_6_a_card_off_the_battlefield_is_neither_tapped_nor_damaged(
        tmp_path: Path, zone: str, extra: str, key: str, rule: str) -> None:
    """110.5 (tapped and untapped is a permanent's status), 120.6 (damage is
    marked on a permanent, and removed as it leaves: 400.7): a card in a
    hand, library, graveyard or exile can't be tapped nor have damage
    marked; the key is refused as bad_scenario naming it, not echoed in the
    outcome."""
    code, out = run(tmp_path, card(zone, extra))
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == [f"permanents[1].{key}"]
    assert rule in out["error"]["message"] and zone in out["error"]["message"]


@pytest.mark.parametrize("zone", ["hand", "library", "graveyard"])
@pytest.mark.parametrize(("extra", "key"), [
    ('counters = { "+1/+1" = 2 }', "counters"),
])
def test_122_2_a_card_in_a_hand_library_or_graveyard_has_no_counters(
        tmp_path: Path, zone: str, extra: str, key: str) -> None:
    """122.2, 400.7: counters on an object aren't kept when it moves from
    one zone to another; a card in a hand, library or graveyard has none.
    The key is refused as bad_scenario naming it. (``loyalty`` and
    ``defense`` off the battlefield are the card's printed numbers, 306.5b,
    310.4b: tests/test_printed_loyalty_defense.py.)"""
    code, out = run(tmp_path, card(zone, extra))
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == [f"permanents[1].{key}"]
    assert "122.2" in out["error"]["message"]


def test_702_62a_only_a_card_in_exile_may_have_counters(tmp_path: Path) -> None:
    """702.62a (suspend: a card is exiled with time counters on it), 122.2:
    a card in exile may have counters; they are kept and shown. The same
    counters on a card in a graveyard are refused."""
    code, out = run(tmp_path, card("exile", 'counters = { "time" = 3 }'))
    assert code == 0 and out["ok"] is True, out.get("error")
    assert out["permanents"]["x"]["zone"] == "exile"
    assert out["permanents"]["x"]["counters"] == {"time": 3}
    code, out = run(tmp_path, card("graveyard", 'counters = { "time" = 3 }'))
    assert code == 2 and out["error"]["key"] == "permanents[1].counters"


def test_110_5_keys_that_say_what_a_card_off_the_battlefield_is_are_accepted(
        tmp_path: Path) -> None:
    """110.5, 120.6, 122.2: ``damage = 0``, ``tapped = false`` and zero
    counters say what a card in a graveyard is: accepted; ``damage = 1``
    with them is refused alone."""
    keys = 'tapped = false\ncounters = { "+1/+1" = 0 }\n'
    code, out = run(tmp_path, card("graveyard", keys + "damage = 0"))
    assert code == 0 and out["ok"] is True, out.get("error")
    entry = out["permanents"]["x"]
    assert (entry["zone"], entry["damage"], entry["tapped"]) == ("graveyard", 0, False)
    code, out = run(tmp_path, card("graveyard", keys + "damage = 1"))
    assert code == 2 and [p["key"] for p in out["error"]["problems"]] == [
        "permanents[1].damage"]


# -- (F) An action after a step that never comes in the file (500.1, 103.8a) -----------


def gain(after: str, table: str = "combat") -> str:
    return f"""
[[{table}.actions]]
after = "{after}"
do = "gain_life"
player = "alice"
amount = 1
"""


@pytest.mark.parametrize("after", ["untap", "upkeep", "draw"])
def test_500_1_the_first_turns_beginning_phase_never_comes_without_first_turn(
        tmp_path: Path, after: str) -> None:
    """500.1 (the phases in order: the beginning phase comes before the
    precombat main phase) (Jan 2027, More turns): without ``first_turn =
    true`` the board stands in the first turn's precombat main phase, its
    beginning phase past; an action after one of its steps is a bad
    scenario naming the action's ``after``, not an illegal action at run
    time."""
    code, out = run(tmp_path, HEAD + "[combat]\nattacks = {}\n" + gain(after))
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == ["combat.actions[0].after"]
    message = out["error"]["message"]
    assert "500.1" in message and "first_turn = true" in message and "never comes" in message


@pytest.mark.parametrize("teams", ["", '\n[players.carol]\n[players.dave]\n'
                                   '[teams]\nred = ["alice", "carol"]\nblue = ["bob", "dave"]'])
def test_103_8a_the_first_players_skipped_draw_step_never_comes(
        tmp_path: Path, teams: str) -> None:
    """103.8a, 810.6 (Jan 2027, More turns: "the first turn's player doesn't
    draw in a two-player game only where the file says first_turn = true"):
    in a two-player (or Two-Headed Giant) game the first player skips the
    draw step of the first turn; an action after ``"draw"`` there is a bad
    scenario citing 103.8a and naming the key."""
    text = HEAD.replace('active_player = "alice"', 'active_player = "alice"\nfirst_turn = true') \
        + teams + "\n[combat]\nattacks = {}\n" + gain("draw")
    code, out = run(tmp_path, text)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == ["combat.actions[0].after"]
    assert "103.8a" in out["error"]["message"]


def test_103_8c_with_more_players_the_first_draw_step_comes(tmp_path: Path) -> None:
    """103.8c: in a game of three players the first player draws: the draw
    step comes, and an action after it is performed; with two, it is
    refused (103.8a)."""
    text = HEAD.replace('active_player = "alice"', 'active_player = "alice"\nfirst_turn = true') \
        + "MORE" + LIBRARIES + "[combat]\nattacks = {}\n" + gain("draw")
    code, out = run(tmp_path, text.replace("MORE", "[players.carol]\n"))
    assert code == 0 and out["ok"] is True, out.get("error")
    assert out["steps"][:3] == ["untap", "upkeep", "draw"]
    assert out["players"]["alice"]["life"] == 21
    code, out = run(tmp_path, text.replace("MORE", ""))
    assert code == 2 and out["error"]["key"] == "combat.actions[0].after"


@pytest.mark.parametrize("after", ["postcombat_main", "end_step"])
def test_500_1_the_rest_of_the_turn_never_comes_when_the_file_stops_at_combat(
        tmp_path: Path, after: str) -> None:
    """500.1, 513 (Dec 2026, Durations: ``through = "cleanup"`` runs the turn
    on after combat; default ``"end_of_combat"``): without ``through =
    "cleanup"`` or ``[[turns]]`` the file stops at the end of combat, so an
    action after the postcombat main phase or the end step never happens: a
    bad scenario naming the key. With either, the action is performed."""
    body = "[combat]\nattacks = {}\n" + gain(after)
    code, out = run(tmp_path, HEAD + body)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == ["combat.actions[0].after"]
    assert "500.1" in out["error"]["message"] and 'through = "cleanup"' in out["error"]["message"]
    code, out = run(tmp_path, HEAD.replace('active_player = "alice"',
                                           'active_player = "alice"\nthrough = "cleanup"') + body)
    assert code == 0 and out["players"]["alice"]["life"] == 21, out.get("error")
    code, out = run(tmp_path, HEAD + LIBRARIES + body + "[[turns]]\n")
    assert code == 0 and out["players"]["alice"]["life"] == 21, out.get("error")


def test_500_8_an_additional_combats_action_before_combat_never_comes(
        tmp_path: Path) -> None:
    """500.8 (Dec 2026, More than one combat in a turn): an additional
    combat phase comes after the first; its ``actions`` can't be in the
    turn's upkeep. A bad scenario naming the action's ``after``."""
    text = HEAD.replace('active_player = "alice"', 'active_player = "alice"\nfirst_turn = true') \
        + "[combat]\nattacks = {}\n[[additional_combats]]\nattacks = {}\n" \
        + gain("upkeep", "additional_combats")
    code, out = run(tmp_path, text)
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == [
        "additional_combats[0].actions[0].after"]
    assert "500.8" in out["error"]["message"]


# -- (G) `position` only for a move to a library (Jan 2027, 401.1) ---------------------


@pytest.mark.parametrize("to", ["hand", "graveyard", "exile", "battlefield"])
def test_401_1_position_is_refused_for_a_move_elsewhere_than_a_library(
        tmp_path: Path, to: str) -> None:
    """401.1 (Jan 2027, Cards in other zones: ``position = "top"|"bottom"``
    for the library): a library is ordered, other zones' places aren't
    chosen this way; ``position`` on a move to another zone is refused as a
    bad scenario naming the key, not ignored."""
    code, out = run(tmp_path, card("graveyard", "") + f"""
[[combat.actions]]
after = "declare_attackers"
do = "move"
target = "x"
to = "{to}"
position = "bottom"
""")
    assert code == 2 and out["error"]["kind"] == "bad_scenario"
    assert [p["key"] for p in out["error"]["problems"]] == ["combat.actions[0].position"]
    assert "401.1" in out["error"]["message"] and to in out["error"]["message"]


def test_401_1_position_puts_a_card_at_the_bottom_of_a_library(tmp_path: Path) -> None:
    """401.1: a move to a library with ``position = "bottom"`` puts the card
    under the others (and one in a delayed trigger's actions is checked as
    any action is: ``position`` on its move to a hand is refused)."""
    code, out = run(tmp_path, card("graveyard", "") + LIBRARIES + """
[[combat.actions]]
after = "declare_attackers"
do = "move"
target = "x"
to = "library"
position = "bottom"
""")
    assert code == 0 and out["ok"] is True, out.get("error")
    assert out["zones"]["alice"]["library"] == ["a1", "x"]
    found = problems(card("graveyard", "") + """
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "end_of_combat"
source = "bear"
actions = [ { do = "move", target = "x", to = "hand", position = "top" } ]
""")
    assert list(found) == ["combat.actions[0].actions[0].position"]


# -- (H) The user docs follow the contract ----------------------------------------------


def test_docs_more_turns_lists_choices_and_ceased_is_contract() -> None:
    """The scenario format page (docs/scenario-format.md): "More turns"
    says a turn takes ``choices`` (the contract's "the same keys as
    [combat]: blocks, assign, actions, choices"), and the outcome's
    ``"zone": "ceased"`` is contract (Dec 2026, Objects entering: tokens
    "are reported with "zone": "ceased""), not beyond it."""
    page = (Path(__file__).resolve().parent.parent / "docs" /
            "scenario-format.md").read_text(encoding="utf-8")
    turns = page.split("\n## More turns")[1].split("\n## ")[0]
    keys = turns.split("```toml\n")[1].split("```")[0]
    assert "choices" in keys
    outcome = page.split("\n## The JSON outcome")[1].split("\n## ")[0]
    assert "beyond the contract, `\"ceased\"`" not in outcome
    assert '`"ceased"` for a token that ceased to exist' in outcome
