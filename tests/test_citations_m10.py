"""The account of a run under ``rules = "m10"`` cites the Comprehensive Rules
of July 2024 where today's rule for an event has another number there (a
creature entering but not blocking 509.7a, not today's 509.4a; destroy 701.7a,
not today's 701.8a); the account under today's rules and the JSON outcome keep
today's numbers. Under ``rules = "sixth"`` the same events cite the rules of
February 2009."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import redzone
import redzone_keywords
from click.testing import CliRunner
from redzone.formats.citations import EQUIVALENTS
from redzone.frontends.cli import cli

PLAYERS = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "spider"
controller = "alice"
power = 2
toughness = 4
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
"""

#: The spider is exiled, then a Saproling enters blocking it; a second one,
#: of the attacking player, enters blocking the bear.
NOT_BLOCKING = PLAYERS + """\
[combat]
attacks = { spider = "bob", bear = "bob" }
blocks = {}
[[combat.actions]]
after = "declare_blockers"
do = "exile"
target = "spider"
[[combat.actions]]
after = "declare_blockers"
do = "enter_blocking"
attacker = "spider"
permanent = { id = "sap", name = "Saproling", controller = "bob", power = 1, toughness = 1 }
[[combat.actions]]
after = "declare_blockers"
do = "enter_blocking"
attacker = "bear"
permanent = { id = "sap2", name = "Saproling2", controller = "alice", power = 1, toughness = 1 }
[[combat.actions]]
after = "declare_blockers"
do = "enter_blocking"
attacker = "bear"
[combat.actions.permanent]
id = "bc"
name = "Battle Creature"
controller = "bob"
types = ["creature", "battle"]
subtypes = ["Siege"]
protector = "alice"
power = 1
toughness = 1
defense = 3
"""

#: After blockers are declared: a Wolf enters attacking, the ox is destroyed,
#: the elk sacrificed, the wall tapped.
ACTIONS = PLAYERS + """\
[[permanents]]
id = "ox"
controller = "bob"
power = 1
toughness = 4
[[permanents]]
id = "elk"
controller = "bob"
power = 1
toughness = 1
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
[combat]
attacks = { bear = "bob" }
blocks = {}
[[combat.actions]]
after = "declare_blockers"
do = "enter_attacking"
permanent = { id = "wolf", name = "Wolf", controller = "alice", power = 2, toughness = 2 }
attacking = "bob"
[[combat.actions]]
after = "declare_blockers"
do = "destroy"
target = "ox"
[[combat.actions]]
after = "declare_blockers"
do = "sacrifice"
target = "elk"
[[combat.actions]]
after = "declare_blockers"
do = "tap"
target = "wall"
"""

#: The ox, blocking, regenerates; a battle that isn't a Siege has defense 0.
REGENERATION = PLAYERS + """\
[[permanents]]
id = "ox"
controller = "bob"
power = 1
toughness = 4
[[permanents]]
id = "fort"
name = "Fort"
controller = "bob"
types = ["battle"]
protector = "alice"
defense = 0
[combat]
attacks = { bear = "bob" }
blocks = { ox = "bear" }
[[combat.actions]]
after = "declare_blockers"
do = "regenerate"
target = "ox"
[[combat.actions]]
after = "declare_blockers"
do = "destroy"
target = "ox"
"""


def _run(folder: Path, text: str, rules: str, *more: str) -> str:
    path = folder / "combat.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["run", str(path), "--rules", rules, "--no-color", *more])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _line(out: str, fragment: str) -> str:
    found = [ln for ln in out.splitlines() if fragment in ln]
    assert len(found) == 1, (fragment, out)
    return found[0].rstrip()


def _cited(out: str, fragment: str) -> str:
    line = _line(out, fragment)
    assert line.endswith("]") and "  [" in line, line
    return line[line.rindex("  [") + 3:-1]


def test_509_7a_506_3e_a_creature_entering_but_not_blocking_cites_the_2024_rules(
        tmp_path: Path) -> None:
    """509.7a (2024): "If the effect that puts a creature onto the battlefield
    blocking specifies it's blocking a certain creature and that creature is no
    longer attacking, the creature is put onto the battlefield but is never
    considered a blocking creature. The same is true if the controller of the
    creature ... isn't a defending player for the specified attacking
    creature" (today's 509.4a); 506.3e (2024): a creature that's also a battle
    put onto the battlefield blocking is never a blocking creature (today's
    506.3f; 2024's 506.3f is another rule)."""
    out = _run(tmp_path, NOT_BLOCKING, "m10")
    assert _cited(out, "Saproling enters but isn't blocking") == "509.7a"
    assert _cited(out, "Saproling2 enters but isn't blocking") == "509.7a"
    assert _cited(out, "Battle Creature enters but isn't blocking") == "506.3e"
    assert _cited(out, "Saproling enters the battlefield") == "509.7"


def test_509_4a_506_3f_today_s_account_and_the_json_outcome_keep_today_s_numbers(
        tmp_path: Path) -> None:
    """509.4a and 506.3f (today): the same events keep today's numbers in the
    account under today's rules, and in the JSON outcome under m10."""
    out = _run(tmp_path, NOT_BLOCKING, "foundations")
    assert _cited(out, "Saproling enters but isn't blocking") == "509.4a"
    assert _cited(out, "Battle Creature enters but isn't blocking") == "506.3f"
    outcome = json.loads(_run(tmp_path, NOT_BLOCKING, "m10", "--json"))
    rules = {e["rule"] for e in outcome["events"] if e["kind"] == "not_blocking"}
    assert rules == {"509.4a", "506.3f"}


def test_509_1h_701_7a_701_17a_701_21a_events_after_blockers_cite_the_2024_rules(
        tmp_path: Path) -> None:
    """509.1h (2024): "one with no creatures declared as blockers for it
    becomes an unblocked creature" -- the 2024 rules have no 508.4d (today: a
    creature put onto the battlefield attacking after blockers are declared
    enters unblocked), and 509.1h is the rule of 2024 that makes a creature
    unblocked; 701.7a "To destroy a permanent, move it from the battlefield to
    its owner's graveyard" (today's 701.8a); 701.17a "To sacrifice a
    permanent, its controller moves it from the battlefield directly to its
    owner's graveyard" (today's 701.21a); 701.21a "To tap a permanent, turn it
    sideways" (today's 701.26a)."""
    out = _run(tmp_path, ACTIONS, "m10")
    assert _cited(out, "Wolf is unblocked") == "509.1h"
    assert _cited(out, "ox is destroyed") == "701.7a"
    assert _cited(out, "ox is put into its owner's graveyard") == "701.7a"
    assert _cited(out, "bob sacrifices elk") == "701.17a"
    assert _cited(out, "elk is put into its owner's graveyard") == "701.17a"
    assert _cited(out, "wall becomes tapped") == "701.21a"
    today = _run(tmp_path, ACTIONS, "foundations")
    assert [_cited(today, f) for f in ("Wolf is unblocked", "ox is destroyed",
                                       "bob sacrifices elk", "wall becomes tapped")] == [
        "508.4d", "701.8a", "701.21a", "701.26a"]


def test_701_15a_704_5v_regeneration_and_a_battle_s_defense_cite_the_2024_rules(
        tmp_path: Path) -> None:
    """701.15a (2024): regenerating a permanent: "instead remove all damage
    marked on it and tap it. If it's an attacking or blocking creature, remove
    it from combat" (today's 701.19a); 704.5v (2024): "If a battle has defense
    0 ... it's put into its owner's graveyard" (today's 704.5w for a battle
    that isn't a Siege)."""
    out = _run(tmp_path, REGENERATION, "m10")
    assert _cited(out, "ox gets a regeneration shield") == "701.15a"
    assert _cited(out, "ox regenerates") == "701.15a"
    assert _cited(out, "ox is removed from combat") == "701.15a"
    assert _cited(out, "Fort is put into its owner's graveyard") == "704.5v"
    # 509.2-509.3 (2024): the damage assignment orders, numbered as in 2024 already.
    assert _cited(out, "damage assignment order of bear") == "509.2"
    assert _cited(out, "damage assignment order of ox") == "509.3"


def test_306_3c_309_2f_the_same_events_cite_the_2009_rules(tmp_path: Path) -> None:
    """306.3c (2009): "If an effect would put a creature into play blocking but
    the creature it would block isn't attacking either the first creature's
    controller or a planeswalker that player controls, that creature does come
    into play, but it's never considered to be a blocking creature" (today's
    509.4a); 309.2f (2009): "one with no blockers becomes an unblocked
    creature" (today's 508.4d has no rule of 2009)."""
    out = _run(tmp_path, NOT_BLOCKING, "sixth")
    assert _cited(out, "Saproling enters but isn't blocking") == "306.3c"
    assert _cited(out, "Saproling2 enters but isn't blocking") == "306.3c"
    out = _run(tmp_path, ACTIONS, "sixth")
    assert _cited(out, "Wolf is unblocked") == "309.2f"


def _rule_numbers(folder: Path) -> set[str]:
    """Each string of the modules under ``folder`` that is a rule number."""
    found: set[str] = set()
    for path in folder.rglob("*.py"):
        if path.name == "citations.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(r"\d{3}\.\d+[a-z]{0,2}", node.value):
                found.add(node.value)
    return found


def test_every_number_the_m10_table_maps_from_is_one_the_kernel_or_a_plugin_cites() -> None:
    """The m10 table translates today's numbers the engine cites (in events,
    errors and explanations) into the 2024 rules': each number it maps from
    is one a module of the core or of the keyword plugins names; 509.2 and
    509.3, which the damage assignment orders cite as the 2024 rules number
    them, are not translated."""
    cited = _rule_numbers(Path(redzone.__file__).parent) | _rule_numbers(
        Path(redzone_keywords.__file__).parent)
    table = EQUIVALENTS["m10"]
    assert sorted(set(table) - cited) == []
    assert {"509.2", "509.3", "509.6"}.isdisjoint(table)
    assert {"506.3f", "508.4d", "509.4a", "701.8a", "701.21a", "704.5y"} <= set(table)
