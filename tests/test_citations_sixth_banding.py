"""The account of a run under ``rules = "sixth"`` cites the Comprehensive Rules
of February 2009 for banding (308.2b, 502.10, 502.11) and for combat damage
dealt (310.4), not today's 508.1e, 702.22 and 510.2; the JSON outcome and the
account under today's rules keep today's numbers."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from redzone.frontends.cli import cli

#: 502.10h and 502.11c (2009): who divides the combat damage of a creature
#: blocked by, or blocking, a band (today's 702.22j-k).
DIVIDES = "[502.10h, 502.11c]"
#: 502.10b-c and 502.11b (2009): which attacking creatures may form a band, and
#: each in only one (today's 702.22c).
BANDS = "[502.10b-c, 502.11b]"

PLAYERS = """\
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
"""

HERO_AND_OGRE = """\
[[permanents]]
id = "hero"
controller = "alice"
power = 1
toughness = 1
keywords = ["banding"]
[[permanents]]
id = "ogre"
controller = "alice"
power = 3
toughness = 3
"""


def _out(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--no-color"])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _run(folder: Path, text: str) -> str:
    path = folder / "combat.toml"
    path.write_text(text)
    return _out("run", str(path))


def _line(out: str, fragment: str) -> str:
    found = [ln for ln in out.splitlines() if fragment in ln]
    assert len(found) == 1, (fragment, out)
    return found[0].rstrip()


def _cited(out: str) -> list[str]:
    return [ln[ln.rindex("  [") + 2:] for ln in out.splitlines() if ln.rstrip().endswith("]")
            and "  [" in ln]


def test_308_2b_502_10e_a_band_and_its_blocker_cite_the_2009_rules() -> None:
    """308.2b (2009): "If any of the chosen creatures have banding or a bands
    with other ability, the active player announces which creatures, if any,
    are banded with which" (today's 508.1e); 502.10e (2009): "If an attacking
    creature becomes blocked by a creature, each other creature in the same
    band as the attacking creature becomes blocked by that same blocking
    creature" (today's 702.22h)."""
    out = _out("demo", "banding-band-blocked", "--rules", "sixth")
    assert _line(out, "Benalish Hero and Colossal Dreadmaw attack as a band").endswith(
        "  [308.2b]")
    assert _line(out, "Timber Wolves blocks Colossal Dreadmaw").endswith("  [502.10e]")
    assert _line(out, "Timber Wolves blocks Benalish Hero").endswith("  [309.2a]")


def test_502_10h_502_11c_who_divides_the_damage_cites_the_2009_rules() -> None:
    """502.10h (2009): "A player who controls an attacking creature with
    banding chooses how combat damage is assigned by creatures blocking that
    creature. A player who controls a blocking creature with banding chooses
    how combat damage is assigned by creatures it blocks"; 502.11c says the
    same of "bands with other" (today's 702.22j for an attacker, 702.22k for
    a blocker). The banding demo's three divided assignments cite them."""
    out = _out("demo", "banding-band-blocked", "--rules", "sixth")
    divided = [ln.rstrip() for ln in out.splitlines() if "as they choose:" in ln]
    assert len(divided) == 3
    assert all(ln.endswith(f"  {DIVIDES}") for ln in divided), divided


def test_310_4_the_banding_demo_cites_no_rule_of_today_s_702_22_or_510_2() -> None:
    """310.4 (2009): "Combat damage resolves as an object on the stack. When
    it resolves, it's all dealt at once, as originally assigned" (today's
    510.2): each damage line of the banding demo cites 310.4, and no line
    cites 702.22 or 510.2 (nor 508.1e)."""
    out = _out("demo", "banding-band-blocked", "--rules", "sixth")
    dealt = [ln.rstrip() for ln in out.splitlines() if "combat damage to" in ln]
    assert len(dealt) == 3 and all(ln.endswith("  [310.4]") for ln in dealt), dealt
    cited = _cited(out)
    assert not [c for c in cited if "702.22" in c or c in ("[510.2]", "[508.1e]")], cited


def test_310_4_one_attacker_against_one_player_cites_the_2009_rules(tmp_path: Path) -> None:
    """310.4 (2009): combat damage is dealt as the combat damage object
    resolves from the stack (today's 510.2): a lone Ogre attacking bob deals
    its damage citing 310.4, and no line cites 510.2 or 702.22."""
    text = PLAYERS + """\
[[permanents]]
id = "ogre"
controller = "alice"
power = 3
toughness = 3
[combat]
attacks = { ogre = "bob" }
"""
    out = _run(tmp_path, text)
    assert _line(out, "ogre deals 3 combat damage to bob").endswith("  [310.4]")
    cited = _cited(out)
    assert not [c for c in cited if "702.22" in c or c == "[510.2]"], cited


def test_502_10b_c_502_11b_a_band_of_a_creature_not_attacking_cites_the_2009_rules(
        tmp_path: Path) -> None:
    """502.10b (2009): "As a player declares attackers, he or she may declare
    that any number of those creatures with banding, and up to one of those
    creatures without banding, are all in a 'band'" (with 502.10c, each in one
    band, and 502.11b for "bands with other": today's 702.22c). A band naming
    a blocker that doesn't attack is refused citing them."""
    text = PLAYERS + HERO_AND_OGRE + """\
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
[combat]
attacks = { hero = "bob", ogre = "bob" }
bands = [["hero", "wall"]]
"""
    out = _run(tmp_path, text)
    assert _line(out, "rejected as a whole").endswith(f"  {BANDS}")
    assert _line(out, "wall can't be in a band: not declared as attacking").endswith(
        f"  {BANDS}")
    assert not [c for c in _cited(out) if "702.22" in c]


def test_502_10b_a_band_attacking_two_players_cites_the_2009_rule(tmp_path: Path) -> None:
    """502.10b (2009): "All of those creatures must attack the same player or
    planeswalker" (today's 702.22d): a band whose members attack bob and
    carol is refused citing 502.10b."""
    text = PLAYERS + "[players.carol]\n" + HERO_AND_OGRE + """\
[combat]
attacks = { hero = "bob", ogre = "carol" }
bands = [["hero", "ogre"]]
"""
    out = _run(tmp_path, text)
    assert _line(out, "rejected as a whole").endswith("  [502.10b]")
    assert _line(out, "all creatures in a band must attack the same").endswith("  [502.10b]")


def test_502_10g_a_band_made_blocked_by_an_effect_cites_the_2009_rule(
        tmp_path: Path) -> None:
    """502.10g (2009): "If one member of a band would become blocked due to an
    effect, the entire band becomes blocked" (today's 702.22i): the Ogre,
    banded with a Hero an effect makes blocked, is blocked citing 502.10g."""
    text = PLAYERS + HERO_AND_OGRE + """\
[combat]
attacks = { hero = "bob", ogre = "bob" }
bands = [["hero", "ogre"]]
[[combat.actions]]
after = "declare_blockers"
do = "become_blocked"
target = "hero"
"""
    out = _run(tmp_path, text)
    assert _line(out, "ogre is blocked").endswith("  [502.10g]")
    assert _line(out, "hero is blocked").endswith("  [309.2f]")


def test_702_22_today_s_account_and_the_json_outcome_keep_today_s_numbers() -> None:
    """702.22h, 702.22j-k, 508.1e, 510.2 (today): the account under today's
    rules cites them unchanged; and the JSON outcome of the sixth run keeps
    the engine's own (today's) numbers: 508.1e for the band, 702.22h for the
    band's blocker, 510.2 for damage dealt."""
    out = _out("demo", "banding-band-blocked")
    assert _line(out, "Benalish Hero and Colossal Dreadmaw attack as a band").endswith(
        "  [508.1e]")
    assert _line(out, "Timber Wolves blocks Colossal Dreadmaw").endswith("  [702.22h]")
    assert _line(out, "Benalish Hero (power 1").endswith("  [702.22j]")
    assert _line(out, "Colossal Dreadmaw (power 6").endswith("  [702.22j]")
    assert _line(out, "Timber Wolves (power 1").endswith("  [702.22k]")
    dealt = [ln.rstrip() for ln in out.splitlines() if "combat damage to" in ln]
    assert len(dealt) == 3 and all(ln.endswith("  [510.2]") for ln in dealt), dealt
    outcome = json.loads(_out("demo", "banding-band-blocked", "--rules", "sixth", "--json"))
    events = outcome["events"]
    rules = {(e["kind"], e["rule"]) for e in events}
    assert ("band", "508.1e") in rules and ("block", "702.22h") in rules
    assert ("damage", "510.2") in rules
