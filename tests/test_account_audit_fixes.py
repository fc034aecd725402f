"""What an audit of the text account (``redzone run`` without ``--json``)
found: under ``--rules sixth`` a second combat's or a later turn's steps
cited today's numbers, a rule number written into a sentence wasn't the
edition's, many of today's numbers had no 1999-2009 counterpart, prevented
damage was called a replacement, counters that annihilate and the answers of
a choice read badly. The account cites the edition's own rules
(``docs/command-line.md``); the JSON outcome keeps today's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import redzone
from click.testing import CliRunner
from redzone.frontends.cli import cli

EXAMPLES = Path(redzone.__file__).parent / "examples"

#: Two combats and a second turn under the 1999-2009 rules: the knight
#: (first strike) is unblocked in the first combat and kills the bear in the
#: second; bob then draws from his empty library.
TWO_COMBATS = """\
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "knight"
name = "White Knight"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike", "vigilance"]
[[permanents]]
id = "bear"
name = "Grizzly Bears"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { knight = "bob" }
[[additional_combats]]
attacks = { knight = "bob" }
blocks = { bear = "knight" }
[[turns]]
attacks = {}
"""

#: Worship (a life floor), Furnace of Rath for the ape (double damage) and a
#: prevention shield of 2 on the wall the ape attacks into.
WORSHIP_FURNACE = """\
active_player = "alice"
[players.alice]
[players.bob]
life = 2
[[permanents]]
id = "wurm"
name = "Craw Wurm"
controller = "alice"
power = 6
toughness = 4
[[permanents]]
id = "ape"
name = "Silverback Ape"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "wall"
name = "Wall of Stone"
controller = "bob"
power = 0
toughness = 8
keywords = ["defender"]
[combat]
attacks = { wurm = "bob", ape = "bob" }
blocks = { wall = "ape" }
[[combat.actions]]
after = "declare_blockers"
do = "prevent"
target = "wall"
amount = 2
[[effects]]
kind = "life_floor"
player = "bob"
[[effects]]
kind = "double_damage"
source = "ape"
"""

#: A Two-Headed Giant game: team blue's shared life drops to -1.
TWO_HEADED = """\
active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
teams = { red = ["alice", "carol"], blue = ["bob", "dave"] }
[players.alice]
[players.bob]
life = 4
[players.carol]
[players.dave]
life = 4
[[permanents]]
id = "giant"
name = "Hill Giant"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "ogre"
name = "Gray Ogre"
controller = "carol"
power = 2
toughness = 2
[combat]
attacks = { giant = "bob", ogre = "dave" }
"""

#: A 1/3 with wither blocked by a 1/1 with a +1/+1 counter.
ANNIHILATE = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "witherer"
name = "Boggart Ram-Gang"
controller = "alice"
power = 1
toughness = 3
keywords = ["wither"]
[[permanents]]
id = "wolf"
name = "Young Wolf"
controller = "bob"
power = 1
toughness = 1
counters = { "+1/+1" = 1 }
[combat]
attacks = { witherer = "bob" }
blocks = { wolf = "witherer" }
"""


def _run(path: Path, *options: str) -> list[str]:
    result = CliRunner().invoke(cli, ["run", str(path), "--no-color", *options],
                                env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _lines(tmp_path: Path, text: str, *options: str) -> list[str]:
    path = tmp_path / "combat.toml"
    path.write_text(text)
    return _run(path, *options)


def _after(lines: list[str], title: str) -> str:
    """The line after the step title ``title``."""
    return lines[lines.index(title) + 1]


def test_307_311_302_314_a_later_combat_s_and_turn_s_steps_cite_the_1999_2009_rules(
        tmp_path: Path) -> None:
    """307-311 of 1999-2009 number the combat steps, 302-305 and 313-314 the
    other steps of a turn (untap, upkeep, draw, main, end of turn, cleanup):
    a second combat's and a second turn's steps are those steps too."""
    lines = _lines(tmp_path, TWO_COMBATS)
    titles = [line for line in lines if line.endswith("]") and not line.startswith(" ")]
    assert titles[8:] == [
        "Beginning of combat step (combat 2)  [307]",
        "Declare attackers step (combat 2)  [308]",
        "Declare blockers step (combat 2)  [309]",
        "First combat damage step (creatures with first strike or double strike): damage "
        "assigned, on the stack (combat 2)  [310.1 (1999-2009)]",
        "First combat damage step (creatures with first strike or double strike) "
        "(combat 2)  [310.5]",
        "Combat damage step: damage assigned, on the stack (combat 2)  [310.1 (1999-2009)]",
        "Combat damage step (combat 2)  [310]",
        "End of combat step (combat 2)  [311]",
        "End step  [313]",
        "Cleanup step  [314]",
        "Untap step (turn 2)  [302]",
        "Upkeep step (turn 2)  [303]",
        "Draw step (turn 2)  [304]",
    ]


def test_310_2a_d_a_second_combat_s_empty_damage_steps_say_no_creature_assigns(
        tmp_path: Path) -> None:
    """310.2a-d (1999-2009): the creatures that assign combat damage in a
    step; in the second combat's regular damage step no creature does (the
    knight struck first, the bear is dead), and the account says so, as it
    does for the first combat."""
    lines = _lines(tmp_path, TWO_COMBATS)
    empty = "  no creature assigns combat damage in this step  [310.2a-d]"
    assert _after(lines, "Combat damage step: damage assigned, on the stack (combat 2)  "
                         "[310.1 (1999-2009)]") == empty
    assert _after(lines, "Combat damage step (combat 2)  [310]") == empty


def test_102_3c_102_2a_drawing_from_an_empty_library_cites_the_2009_rules(
        tmp_path: Path) -> None:
    """102.3c (2009): a player required to draw from an empty library loses
    the next time a player would receive priority; 102.2a: a player wins
    when all their opponents have lost. The sentence itself names no rule:
    the bracket gives the edition's."""
    lines = _lines(tmp_path, TWO_COMBATS)
    draw = lines.index("Draw step (turn 2)  [304]")
    assert lines[draw + 1:draw + 4] == [
        "  • bob attempts to draw from an empty library and loses at the next check of "
        "state-based actions  [102.3c]",
        "  • state-based action: bob loses the game (drew from an empty library)  [420.5g]",
        "  • the game is over: alice wins  [102.2a]",
    ]


def test_615_1a_prevented_damage_is_a_prevention_not_a_replacement() -> None:
    """615.1a: effects that use the word "prevent" are prevention effects;
    the 2 of the 3 damage assigned that a shield prevented is said to be
    prevented, and no replacement effect (614.1a) is named."""
    lines = _run(EXAMPLES / "boon-reflection.toml")
    assert "  • 3/3 with wither and lifelink deals 1 combat damage to Grizzly Bears "\
           "(assigned 3: 2 prevented [615.1a])  [510.2]" in lines
    assert not [line for line in lines if "replacement" in line]


def test_615_1a_614_1a_prevention_then_doubling_says_both(tmp_path: Path) -> None:
    """615.1a and 614.1a: of the ape's 3 damage, 2 is prevented and the 1
    left is doubled by a replacement effect; the life floor (a replacement
    effect) makes bob lose 1 life instead of 6. Under the 1999-2009 rules
    the note cites their numbers: 419.1d for a prevention, 419.1a for a
    replacement."""
    for rules, loss in (("foundations", "120.3a"), ("sixth", "215.2")):
        prevent, replace = ("615.1a", "614.1a") if rules == "foundations" else (
            "419.1d", "419.1a")
        lines = _lines(tmp_path, WORSHIP_FURNACE, "--rules", rules)
        damage = [line for line in lines if "deals 2 combat damage to Wall of Stone" in line]
        assert damage == [
            f"  • Silverback Ape deals 2 combat damage to Wall of Stone (assigned 3: 2 "
            f"prevented [{prevent}]; a replacement effect applies: damage dealt by "
            f"Silverback Ape is doubled [{replace}])  "
            f"[{'510.2' if rules == 'foundations' else '310.4'}]"]
        assert "  • bob loses 1 life (not 6: a replacement effect applies: damage can't "\
               "reduce bob's life total below 1 while they control a creature "\
               f"[{replace}])  [{loss}]" in lines


def test_704_5q_annihilating_counters_are_counted_each(tmp_path: Path) -> None:
    """704.5q: N +1/+1 and N -1/-1 counters are removed from a permanent
    that has both; the line counts each kind."""
    lines = _lines(tmp_path, ANNIHILATE)
    assert "  • state-based action: 1 +1/+1 counter and 1 -1/-1 counter are removed from "\
           "Young Wolf (+1/+1 and -1/-1 counters annihilate)  [704.5q]" in lines


def test_603_3b_a_choice_names_the_objects_it_chooses() -> None:
    """603.3b: a player puts their triggered abilities on the stack in the
    order they choose; the answers read as the abilities of the named
    objects (the choice's key stays as a scenario writes it)."""
    lines = _run(EXAMPLES / "exalted.toml")
    assert "  • alice chooses Noble Hierarch's exalted and Akrasan Squire's exalted for "\
           "order@alice (the default)  [603.3b]" in lines


def test_215_2_215_3_410_3_life_and_triggers_cite_the_2009_rules() -> None:
    """215.2 (2009): damage dealt to a player causes that player to lose that
    much life; 215.3: a player gains or loses life as an effect says; 410.3:
    triggered abilities go on the stack in APNAP order, as their controller
    chooses."""
    lines = _run(EXAMPLES / "double-strike-trample-lifelink.toml", "--rules", "sixth")
    assert "  • bob loses 1 life  [215.2]" in lines
    assert "  • alice gains 3 life (from 3/3 with double strike, trample and lifelink)  "\
           "[215.3]" in lines
    assert "  • 3/3 with double strike, trample and lifelink's lifelink ability triggers "\
           "and goes on the stack: 3/3 with double strike, trample and lifelink dealt 3 "\
           "damage: gain 3 life  [410.3]" in lines


def test_302_2_501_6a_418_3_untapping_sacrifice_and_effects_cite_the_2009_rules() -> None:
    """302.2 (2009): the active player untaps their permanents in the untap
    step; 501.6a: to sacrifice a permanent is to move it to its owner's
    graveyard; 418.3: a continuous effect from a spell or ability."""
    exert = _run(EXAMPLES / "exert.toml", "--rules", "sixth")
    assert "Untap step (turn 3)  [302]" in exert
    assert "  • bear untaps  [302.2]" in exert
    assert [line[-7:] for line in exert if "a continuous effect starts" in line] == [
        "[418.3]"]
    annihilator = _run(EXAMPLES / "annihilator.toml", "--rules", "sixth")
    assert "  • bob sacrifices Grizzly Bears  [501.6a]" in annihilator


def test_606_4a_606_8a_102_2c_two_headed_giant_cites_the_2009_rules(tmp_path: Path) -> None:
    """606.4a (2009): each team has a shared life total; 606.8a: a team with
    0 or less life loses; 102.2c: a team wins when all other teams have
    lost."""
    lines = _lines(tmp_path, TWO_HEADED, "--rules", "sixth")
    assert lines[3] == "  team red (alice, carol): 30 life, shared  [606.4a]"
    assert "  • bob loses the game (the team's shared life is 0 or less)  [606.8a]" in lines
    assert "  • the game is over: team red wins  [102.2c]" in lines
    assert "  bob: -1 life  LOST THE GAME (the team's shared life is 0 or less)  [606.8a]" \
        in lines


def test_the_json_outcome_keeps_today_s_numbers(tmp_path: Path) -> None:
    """The JSON outcome's events keep the numbers the engine reports (121.4,
    104.2a, 502 of today), whatever the edition."""
    path = tmp_path / "combat.toml"
    path.write_text(TWO_COMBATS)
    result = CliRunner().invoke(cli, ["run", str(path), "--json"])
    rules = {e["kind"]: e["rule"] for e in json.loads(result.output)["events"]}
    assert (rules["draw_from_empty"], rules["game_over"]) == ("121.4", "104.2a")


def test_300_1_a_turn_beginning_cites_the_2009_rule_of_turns(tmp_path: Path) -> None:
    """300.1 (2009): a turn consists of its phases and steps; today's 500.1
    says it. Under sixth the line of a new turn cites 300.1."""
    lines = _lines(tmp_path, TWO_COMBATS)
    assert "  • turn 2: bob's turn begins  [300.1]" in lines


def test_502_3_the_kernels_doesnt_untap_effect_is_said_in_words(tmp_path: Path) -> None:
    """502.3, 701.43a: the kernel's ``doesnt_untap`` effect (exert's) reads as
    what it does, not as its kind and fields ("doesnt untap (for alice, on
    tiger, from tiger)")."""
    lines = _lines(tmp_path, (EXAMPLES / "exert.toml").read_text())
    assert any(line.endswith("an effect ends: Stone Tiger doesn't untap during its "
                             "controller's untap step  [502.3]") or
               line.endswith("an effect ends: tiger doesn't untap during its controller's "
                             "untap step  [502.3]") for line in lines)
    assert not any("doesnt untap" in line for line in lines)


def test_810_8a_a_team_that_lost_says_so_without_a_rule_in_its_words(tmp_path: Path) -> None:
    """810.8a: the players of a team lose together; the board's team line
    says the team lost, the rule in its bracket only (it read "lost
    (810.8a)  [810.4]", today's number under every edition)."""
    lines = _lines(tmp_path, TWO_HEADED)
    team = [line for line in lines if line.startswith("  team blue")][-1]  # (the final board)
    assert team.endswith("; lost  [810.4]") and "810.8a" not in team


def test_310_2b_an_unblocked_creatures_illegal_assignment_cites_the_2009_rule(
        tmp_path: Path) -> None:
    """310.2b (2009): "An unblocked attacking creature that's attacking a
    player will assign all its combat damage to the defending player": under
    the 1999-2009 rules, the account of an unblocked goblin assigning to a
    blocker cites 310.2b, not today's 510.1b (the JSON keeps 510.1b)."""
    text = """rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "gob"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "ogre"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "elf"
controller = "bob"
power = 1
toughness = 1
[combat]
attacks = { gob = "bob", ogre = "bob" }
blocks = { elf = ["ogre"] }
assign = { gob = { elf = 1 } }
"""
    path = tmp_path / "combat.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["run", str(path), "--no-color"], env={"COLUMNS": "2000"})
    lines = result.output.splitlines()
    refused = [line for line in lines if "can't assign damage to" in line]
    assert refused and all(line.endswith("[310.2b]") for line in refused), refused
    assert not [line for line in lines if "[510.1b]" in line]
