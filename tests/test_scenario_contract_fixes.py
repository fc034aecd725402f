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
