"""Keyword interactions across rules, one test each, from two audits of redzone:
combinations of keywords that redzone resolves as the Comprehensive Rules say
and that no other test covered.

They cover keywords meeting

- multiplayer: Two-Headed Giant's shared team turns (805.10: one "defending
  player" per attacking creature, one combined block) and shared life and
  poison (810.4, 810.8d, 810.9, 810.10) with landwalk, infect, toxic, menace,
  myriad, melee and dethrone; battles, whose defending player is their
  protector (508.5), with landwalk, infect, wither and annihilator;
- blocking rules: menace with lure, with removed and forced blockers, with one
  creature blocking two attackers; banding passing blocks to band members
  (702.22h) and what then triggers;
- editions: the M10 damage assignment order with deathtouch (``rules = "m10"``);
- last known information: lifelink and protection with sources off the
  battlefield, leaves-the-battlefield triggers of tokens, and triggered
  abilities resolving after their source left (608.2b, 608.2h);
- counters: persist, undying and afterlife with -1/-1 and +1/+1 counters that
  annihilate (704.5q), wither counters, noncreature permanents.

Rule numbers are the September 2026 edition's (and the April 2026 edition's for
805, 810, 111, 603 and 608). Persist (702.79), undying (702.93), afterlife
(702.135) and ninjutsu (702.49) are cited as the plugins' docstrings cite them.
"""

from __future__ import annotations

from typing import Any

import pytest
from _outcomes import events, hits, lives, run, zones
from redzone import Engine, LeaveBattlefield, Pump


def poison(out: dict[str, Any]) -> dict[str, int]:
    return {name: p["poison"] for name, p in out["players"].items()}


def abilities(out: dict[str, Any], kind: str) -> list[tuple[str, str, str]]:
    """The ``trigger`` or ``resolve`` events as (step, source, ability), in order."""
    return [(e["step"], e["source"], e["ability"]) for e in events(out, kind)]


def illegal(out: dict[str, Any]) -> tuple[bool, str, str]:
    """(ok, error kind, error rule) of a rejected scenario."""
    return out["ok"], out["error"]["kind"], out["error"]["rule"]


TWO_HEADED_GIANT = """
active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
teams = { red = ["alice", "carol"], blue = ["bob", "dave"] }
[players.alice]
[players.bob]
[players.carol]
[players.dave]
"""


# --- Landwalk: whose lands? -------------------------------------------------

SWAMPWALK_2HG_DAVE_SWAMP = TWO_HEADED_GIANT + """
[[permanents]]
id = "walker"
controller = "alice"
power = 2
toughness = 2
keywords = ["swampwalk"]
[[permanents]]
id = "swamp"
controller = "dave"
types = ["land"]
subtypes = ["Swamp"]
[[permanents]]
id = "bear"
controller = "dave"
power = 2
toughness = 2
[combat]
attacks = { walker = "bob" }
blocks = { bear = ["walker"] }
"""


def test_805_10e_swampwalk_looks_at_the_attacked_player_not_at_his_teammate() -> None:
    """805.10e: in Two-Headed Giant "defending player" in an attacking creature's
    ability is the player that creature attacks; 702.14c: landwalk stops blocks only
    while that player controls a land of the type. The walker attacks bob; the Swamp
    is dave's, so dave's bear may block it (805.10d) and they trade."""
    out = run(SWAMPWALK_2HG_DAVE_SWAMP)
    assert out["ok"] is True
    assert [(e["attacker"], e["blocker"]) for e in events(out, "block")] == [("walker", "bear")]
    assert hits(out) == [("combat_damage", "walker", "bear", 2),
                         ("combat_damage", "bear", "walker", 2)]
    assert zones(out, "walker", "bear") == {"walker": "graveyard", "bear": "graveyard"}
    assert out["teams"]["blue"]["life"] == 30


SWAMPWALK_2HG_BOB_SWAMP = SWAMPWALK_2HG_DAVE_SWAMP.replace(
    'controller = "dave"\ntypes = ["land"]', 'controller = "bob"\ntypes = ["land"]')


def test_805_10e_702_14c_a_teammate_cannot_block_a_swampwalker_attacking_a_swamp_owner() -> None:
    """805.10e, 702.14c: the walker attacks bob, who controls a Swamp, so it can't be
    blocked at all, not even by his teammate dave's creature (805.10d: the defending
    team's one combined block must be legal as a whole): the block is illegal."""
    out = run(SWAMPWALK_2HG_BOB_SWAMP)
    assert illegal(out) == (False, "illegal_block", "702.14c")
    assert "'bob' controls swamp" in out["error"]["message"]
    assert sorted(out["error"]["objects"]) == ["bear", "swamp", "walker"]


SWAMPWALK_BATTLE = """
active_player = "alice"
[players.alice]
[players.bob]
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
[[permanents]]
id = "walker"
controller = "alice"
power = 2
toughness = 2
keywords = ["swampwalk"]
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { walker = "siege" }
blocks = { bear = ["walker"] }
"""


def test_508_5_702_14c_swampwalk_attacking_a_battle_looks_at_its_protector() -> None:
    """508.5: the defending player of a creature attacking a battle is the battle's
    protector (bob), not its controller (alice, who has no Swamp); 702.14c: bob
    controls a Swamp, so his bear can't block the swampwalker."""
    out = run(SWAMPWALK_BATTLE)
    assert illegal(out) == (False, "illegal_block", "702.14c")
    assert "the defending player 'bob' controls swamp" in out["error"]["message"]


# --- Infect and toxic: poison in Two-Headed Giant, on battles, redirected ----

INFECT_2HG = TWO_HEADED_GIANT + """
[[permanents]]
id = "phage"
controller = "alice"
power = 10
toughness = 10
keywords = ["infect"]
[combat]
attacks = { phage = "bob" }
"""


def test_810_10_704_5c_ten_infect_poison_is_the_teams_and_loses_nothing_in_2hg() -> None:
    """702.90b: infect damage to bob gives poison counters, not life loss; 810.10: the
    poison counters are shared by the team (bob and dave both have 10); 704.5c (ten
    poison loses) is ignored in Two-Headed Giant, where a team loses at fifteen
    (810.8d): nobody loses."""
    out = run(INFECT_2HG)
    assert hits(out) == [("combat_damage", "phage", "bob", 10)]
    assert [(e["rule"], e["player"], e["amount"]) for e in events(out, "poison")] == [
        ("702.90b", "bob", 10)]
    assert poison(out) == {"alice": 0, "bob": 10, "carol": 0, "dave": 10}
    assert out["teams"]["blue"] == {"players": ["bob", "dave"], "life": 30, "poison": 10,
                                    "lost": False}
    assert out["game_over"] is None
    assert not events(out, "lost")


TOXIC_2HG = TWO_HEADED_GIANT.replace("[players.bob]", "[players.bob]\npoison = 12").replace(
    "[players.dave]", "[players.dave]\npoison = 12") + """
[[permanents]]
id = "rat"
controller = "alice"
power = 1
toughness = 1
keywords = ["toxic 3"]
[combat]
attacks = { rat = "bob" }
"""


def test_810_8d_toxic_poison_brings_the_team_to_fifteen_and_the_team_loses() -> None:
    """702.164c: combat damage to a player by a creature with toxic 3 gives 3 poison
    counters besides the damage; 810.10: they are the team's (12 -> 15); 810.8d: a
    team with fifteen poison counters loses, both players together (810.8a)."""
    out = run(TOXIC_2HG)
    assert hits(out) == [("combat_damage", "rat", "bob", 1)]
    assert [(e["rule"], e["player"], e["amount"]) for e in events(out, "poison")] == [
        ("702.164c", "bob", 3)]
    assert out["teams"]["blue"] == {"players": ["bob", "dave"], "life": 29, "poison": 15,
                                    "lost": True}
    assert [(e["rule"], e["player"]) for e in events(out, "lost")] == [
        ("810.8d", "bob"), ("810.8d", "dave")]
    assert (out["game_over"]["winners"], out["game_over"]["losers"]) == (
        ["alice", "carol"], ["bob", "dave"])


TOXIC_REDIRECTED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "rat"
controller = "alice"
power = 1
toughness = 1
keywords = ["toxic 2"]
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 5
[[effects]]
kind = "redirect_damage"
player = "bob"
to = "wall"
[combat]
attacks = { rat = "bob" }
"""


def test_702_164c_614_9_toxic_gives_no_poison_when_the_damage_goes_to_a_creature() -> None:
    """702.164c, 120.3g: only combat damage dealt *to a player* by a creature with
    toxic gives poison counters. A redirection effect (614.9) makes the rat's damage
    to bob be dealt to bob's wall instead: the wall has 1 damage, bob has no poison
    and no life loss."""
    out = run(TOXIC_REDIRECTED)
    assert [(e["rule"], e["object"], e["target"]) for e in events(out, "redirected")] == [
        ("614.9", "bob", "wall")]
    assert hits(out) == [("combat_damage", "rat", "wall", 1)]
    assert out["permanents"]["wall"]["damage"] == 1
    assert not events(out, "poison")
    assert out["players"]["bob"] == {"life": 20, "poison": 0, "lost": False}


INFECT_WITHER_BATTLE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "siege"
controller = "alice"
types = ["battle"]
subtypes = ["Siege"]
defense = 5
protector = "bob"
[[permanents]]
id = "phage"
controller = "alice"
power = 2
toughness = 2
keywords = ["infect"]
[[permanents]]
id = "elf"
controller = "alice"
power = 1
toughness = 1
keywords = ["wither"]
[combat]
attacks = { phage = "siege", elf = "siege" }
"""


def test_120_3h_infect_and_wither_damage_to_a_battle_removes_defense_counters() -> None:
    """120.3h: damage dealt to a battle removes that many defense counters; infect
    (702.90b-c) and wither (702.80a) change only damage to players and creatures. The
    2 infect and 1 wither damage take the siege from 5 to 2 defense: no poison for its
    protector bob, no -1/-1 counters."""
    out = run(INFECT_WITHER_BATTLE)
    assert hits(out) == [("combat_damage", "phage", "siege", 2),
                         ("combat_damage", "elf", "siege", 1)]
    assert [(e["rule"], e["source"], e["amount"]) for e in events(out, "defense")] == [
        ("120.3h", "phage", 2), ("120.3h", "elf", 1)]
    assert out["permanents"]["siege"]["defense"] == 2
    assert out["permanents"]["siege"]["counters"] == {"defense": 2}
    assert not events(out, "poison") and not events(out, "counters")
    assert out["players"]["bob"] == {"life": 20, "poison": 0, "lost": False}


# --- Menace: with lure, removed and forced blockers, teams ------------------

MENACE_LURE_ONE_BLOCKER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "brute"
controller = "alice"
power = 3
toughness = 3
keywords = ["menace"]
lure = true
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { brute = "bob" }
blocks = {}
"""


def test_509_1c_702_111b_menace_and_lure_with_one_possible_blocker_need_no_block() -> None:
    """509.1c: a declaration must obey as many requirements as possible *without
    disobeying a restriction*; 702.111b (menace) is a restriction. Bob's only creature
    can't block the lure attacker alone, so declaring no blocker obeys the most
    requirements possible (0) and bob takes 3. Blocking alone breaks 702.111b; with a
    second creature, not blocking breaks 509.1c."""
    out = run(MENACE_LURE_ONE_BLOCKER)
    assert out["ok"] is True
    assert hits(out) == [("combat_damage", "brute", "bob", 3)]
    assert lives(out) == {"alice": 20, "bob": 17}
    alone = run(MENACE_LURE_ONE_BLOCKER.replace("blocks = {}", 'blocks = { bear = ["brute"] }'))
    assert illegal(alone) == (False, "illegal_block", "702.111b")
    second = MENACE_LURE_ONE_BLOCKER.replace(
        "[combat]", '[[permanents]]\nid = "elk"\ncontroller = "bob"\npower = 1\n'
        "toughness = 1\n[combat]")
    assert illegal(run(second)) == (False, "illegal_block", "509.1c")


MENACE_BLOCKER_REMOVED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "brute"
controller = "alice"
power = 3
toughness = 3
keywords = ["menace"]
[[permanents]]
id = "b1"
controller = "bob"
power = 1
toughness = 1
[[permanents]]
id = "b2"
controller = "bob"
power = 1
toughness = 4
[combat]
attacks = { brute = "bob" }
blocks = { b1 = ["brute"], b2 = ["brute"] }
[[combat.actions]]
after = "declare_blockers"
do = "remove_from_combat"
target = "b1"
"""


def test_506_4_702_111b_a_menace_attacker_left_with_one_blocker_stays_blocked() -> None:
    """702.111b restricts the declaration of blockers only (509.1b); 506.4, 509.1h,
    510.1c: when b1 is removed from combat the brute stays blocked, by b2 alone, and
    assigns all its 3 damage to b2; b1 deals and is dealt nothing, bob takes nothing."""
    out = run(MENACE_BLOCKER_REMOVED)
    assert [e["object"] for e in events(out, "removed_from_combat", "declare_blockers")] == ["b1"]
    assert hits(out) == [("combat_damage", "brute", "b2", 3),
                         ("combat_damage", "b2", "brute", 1)]
    assert (out["permanents"]["b1"]["damage"], out["permanents"]["b2"]["damage"]) == (0, 3)
    assert lives(out) == {"alice": 20, "bob": 20}


MENACE_2HG = TWO_HEADED_GIANT + """
[[permanents]]
id = "brute"
controller = "alice"
power = 3
toughness = 3
keywords = ["menace"]
[[permanents]]
id = "b1"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "d1"
controller = "dave"
power = 2
toughness = 2
[combat]
attacks = { brute = "bob" }
blocks = { b1 = ["brute"], d1 = ["brute"] }
[combat.assign]
brute = { b1 = 2, d1 = 1 }
"""


def test_805_10d_702_111b_two_teammates_creatures_together_satisfy_menace() -> None:
    """805.10d: the defending team has one combined block, and dave's creatures may
    block creatures attacking bob; 702.111b: bob's b1 and dave's d1 are two creatures
    blocking the brute. The block is legal: the brute divides 2 to b1 and 1 to d1 and
    dies to their 4."""
    out = run(MENACE_2HG)
    assert sorted(e["blocker"] for e in events(out, "block")) == ["b1", "d1"]
    assert hits(out) == [("combat_damage", "brute", "b1", 2),
                         ("combat_damage", "brute", "d1", 1),
                         ("combat_damage", "b1", "brute", 2),
                         ("combat_damage", "d1", "brute", 2)]
    assert zones(out, "brute", "b1", "d1") == {
        "brute": "graveyard", "b1": "graveyard", "d1": "battlefield"}
    assert out["teams"]["blue"]["life"] == 30


MENACE_MADE_TO_BLOCK = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "brute"
controller = "alice"
power = 3
toughness = 3
keywords = ["menace"]
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
[combat]
attacks = { brute = "bob" }
blocks = {}
[[combat.actions]]
after = "declare_blockers"
do = "block"
blocker = "wall"
attacker = "brute"
"""


def test_509_1b_702_111b_one_creature_made_to_block_later_blocks_a_menace_attacker() -> None:
    """509.1b: restrictions such as menace (702.111b) are checked on the declaration
    of blockers; an effect that later makes a creature block (509.1h "an effect says
    that it becomes blocked", 509.3d; compare 509.4b) isn't a declaration. The brute,
    unblocked at the declaration, becomes blocked by the wall alone and deals its 3 to
    the wall, none to bob."""
    out = run(MENACE_MADE_TO_BLOCK)
    assert [e["object"] for e in events(out, "unblocked")] == ["brute"]
    assert [e["object"] for e in events(out, "blocked")] == ["brute"]
    assert hits(out) == [("combat_damage", "brute", "wall", 3)]
    assert out["permanents"]["wall"]["damage"] == 3
    assert lives(out) == {"alice": 20, "bob": 20}


MENACE_ONE_BLOCKER_TWO_ATTACKERS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "brute"
controller = "alice"
power = 3
toughness = 3
keywords = ["menace"]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 8
can_block_additional = 1
[combat]
attacks = { brute = "bob", bear = "bob" }
blocks = { wall = ["brute", "bear"] }
"""


def test_702_111b_one_creature_blocking_two_attackers_does_not_satisfy_menace() -> None:
    """702.111b: a creature with menace can't be blocked except by two or more
    creatures. A wall that can block an additional creature blocks the brute and the
    bear: it is still one creature blocking the brute, so the declaration is illegal,
    and the error names the brute and its lone blocker."""
    out = run(MENACE_ONE_BLOCKER_TWO_ATTACKERS)
    assert illegal(out) == (False, "illegal_block", "702.111b")
    assert sorted(out["error"]["objects"]) == ["brute", "wall"]
    assert "only 1 creature blocks it: wall" in out["error"]["message"]


# --- Deathtouch with trample and double strike; with the M10 damage order ----

DOUBLE_STRIKE_TRAMPLE_DEATHTOUCH = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "ds"
controller = "alice"
power = 3
toughness = 3
keywords = ["double strike", "trample", "deathtouch"]
[[permanents]]
id = "giant"
controller = "bob"
power = 5
toughness = 5
[combat]
attacks = { ds = "bob" }
blocks = { giant = ["ds"] }
"""


def test_702_19b_702_2c_702_19d_double_strike_trample_deathtouch_kills_then_tramples_all() -> None:
    """702.4b: two combat damage steps. First: 702.2c makes 1 damage lethal for
    trample's assignment (702.19b): 1 to the 5/5 giant, 2 to bob; the giant is
    destroyed (704.5h) before it deals damage. Second: the ds is blocked with no
    blocker left, so all 3 go to bob (702.19d). Bob ends at 15, the ds unhurt."""
    out = run(DOUBLE_STRIKE_TRAMPLE_DEATHTOUCH)
    assert hits(out) == [("first_strike_damage", "ds", "giant", 1),
                         ("first_strike_damage", "ds", "bob", 2),
                         ("combat_damage", "ds", "bob", 3)]
    assert [(e["step"], e["rule"]) for e in events(out, "destroyed")] == [
        ("first_strike_damage", "704.5h")]
    assert zones(out, "ds", "giant") == {"ds": "battlefield", "giant": "graveyard"}
    assert out["permanents"]["ds"]["damage"] == 0
    assert lives(out) == {"alice": 20, "bob": 15}


M10_DEATHTOUCH_BLOCKER = """
rules = "m10"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "a1"
controller = "alice"
power = 5
toughness = 5
[[permanents]]
id = "a2"
controller = "alice"
power = 5
toughness = 5
[[permanents]]
id = "asp"
controller = "bob"
power = 2
toughness = 2
keywords = ["deathtouch"]
can_block_additional = 1
[combat]
attacks = { a1 = "bob", a2 = "bob" }
blocks = { asp = ["a1", "a2"] }
order = { asp = ["a1", "a2"] }
[combat.assign]
asp = { a1 = 1, a2 = 1 }
"""


def test_m10_510_1d_702_2c_a_deathtouch_blocker_splits_one_damage_to_each_attacker() -> None:
    """M10 rules (July 2024 text): 510.1d, a blocker can't assign damage to a creature
    later in its damage assignment order until each one ahead is assigned lethal
    damage; 702.2c, 1 damage from a deathtouch source counts as lethal for that check.
    The 2/2 asp assigns 1 to a1 and 1 to a2: both 5/5s are destroyed (704.5h). Without
    deathtouch the same assignment is illegal (510.1d)."""
    out = run(M10_DEATHTOUCH_BLOCKER)
    assert out["ok"] is True and out["rules"] == "m10"
    assert [h for h in hits(out) if h[1] == "asp"] == [("combat_damage", "asp", "a1", 1),
                                                       ("combat_damage", "asp", "a2", 1)]
    assert [(e["object"], e["rule"]) for e in events(out, "destroyed")] == [
        ("a1", "704.5h"), ("a2", "704.5h"), ("asp", "704.5g")]
    assert zones(out, "a1", "a2", "asp") == {
        "a1": "graveyard", "a2": "graveyard", "asp": "graveyard"}
    plain = run(M10_DEATHTOUCH_BLOCKER.replace('keywords = ["deathtouch"]\n', ""))
    assert illegal(plain) == (False, "illegal_assignment", "510.1d")


# --- Lifelink and protection with sources off the battlefield ---------------

LIFELINK_FROM_GRAVEYARD = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "spirit"
controller = "alice"
power = 2
toughness = 2
keywords = ["lifelink", "deathtouch"]
zone = "graveyard"
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 4
[combat]
attacks = {}
[[combat.actions]]
after = "declare_attackers"
do = "deal_damage"
source = "spirit"
target = "bear"
amount = 1
"""


def test_702_15b_702_15d_lifelink_in_a_graveyard_gains_life_for_its_owner() -> None:
    """702.15d: lifelink works from any zone; 702.15b: the life goes to the source's
    controller "or its owner if it has no controller" (a card in a graveyard has
    none): alice gains 1. 702.2d: its deathtouch works from the graveyard too, and
    the 2/4 bear is destroyed by 1 damage (704.5h)."""
    out = run(LIFELINK_FROM_GRAVEYARD)
    assert [(e["source"], e["target"], e["amount"], e["combat"])
            for e in events(out, "damage")] == [("spirit", "bear", 1, False)]
    assert [(e["rule"], e["player"], e["amount"]) for e in events(out, "life_gain")] == [
        ("702.15b", "alice", 1)]
    assert lives(out) == {"alice": 21, "bob": 20}
    assert [e["rule"] for e in events(out, "destroyed")] == ["704.5h"]
    assert zones(out, "spirit", "bear") == {"spirit": "graveyard", "bear": "graveyard"}


PROTECTION_FROM_INSTANTS_AND_CREATURES = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "monk"
controller = "bob"
power = 2
toughness = 2
keywords = ["protection from instants"]
[[permanents]]
id = "knight"
controller = "bob"
power = 2
toughness = 2
keywords = ["protection from creatures"]
[[permanents]]
id = "dead"
controller = "alice"
power = 3
toughness = 3
zone = "graveyard"
[combat]
attacks = {}
[[combat.actions]]
after = "beginning_of_combat"
do = "deal_damage"
source = { name = "Shock", controller = "alice", colors = ["red"], types = ["instant"] }
target = "monk"
amount = 2
[[combat.actions]]
after = "beginning_of_combat"
do = "deal_damage"
source = "dead"
target = "knight"
amount = 2
"""


def test_702_16a_702_16e_protection_from_a_card_type_prevents_noncombat_damage() -> None:
    """702.16a: the quality can be a card type; 702.16e: damage from sources with it
    is prevented. An instant's 2 damage to the monk (protection from instants) and a
    creature card's 2 damage from the graveyard to the knight (protection from
    creatures) are both prevented: no damage marked, both survive."""
    out = run(PROTECTION_FROM_INSTANTS_AND_CREATURES)
    assert [(e["rule"], e["source"], e["target"], e["amount"])
            for e in events(out, "prevented")] == [("702.16e", "Shock", "monk", 2),
                                                   ("702.16e", "dead", "knight", 2)]
    assert not events(out, "damage")
    assert (out["permanents"]["monk"]["damage"], out["permanents"]["knight"]["damage"]) == (0, 0)
    assert zones(out, "monk", "knight") == {"monk": "battlefield", "knight": "battlefield"}


# --- Flanking, bushido, banding, rampage, afflict ---------------------------

FLANKING_VS_BUSHIDO = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "knight"
controller = "alice"
power = 1
toughness = 1
keywords = ["flanking"]
[[permanents]]
id = "samurai"
controller = "bob"
power = 1
toughness = 1
keywords = ["bushido 1"]
[combat]
attacks = { knight = "bob" }
blocks = { samurai = "knight" }
"""


def test_603_3b_apnap_bushido_resolves_before_flanking_so_the_blocker_survives_it() -> None:
    """603.3b: triggers go on the stack in APNAP order, alice's flanking (702.25a)
    first, bob's bushido (702.45a) on top, so bushido resolves first: the 1/1 samurai
    is 2/2, then 1/1 after flanking, and never 0/0 (704.5f). It blocks, and the two
    1/1s kill each other in the combat damage step."""
    out = run(FLANKING_VS_BUSHIDO)
    assert [(e["player"], e["ability"]) for e in events(out, "trigger")] == [
        ("alice", "flanking"), ("bob", "bushido")]
    assert [e["ability"] for e in events(out, "resolve")] == ["bushido", "flanking"]
    assert [(e["target"], e["power"], e["toughness"]) for e in events(out, "pump")] == [
        ("samurai", 1, 1), ("samurai", -1, -1)]
    assert hits(out) == [("combat_damage", "knight", "samurai", 1),
                         ("combat_damage", "samurai", "knight", 1)]
    assert {e["object"]: e["step"] for e in events(out, "dies")} == {
        "knight": "combat_damage", "samurai": "combat_damage"}
    assert zones(out, "knight", "samurai") == {"knight": "graveyard", "samurai": "graveyard"}


FLANKING_TWO_ATTACKERS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "k1"
controller = "alice"
power = 1
toughness = 1
keywords = ["flanking"]
[[permanents]]
id = "k2"
controller = "alice"
power = 1
toughness = 1
keywords = ["flanking"]
[[permanents]]
id = "ogre"
controller = "bob"
power = 3
toughness = 3
can_block_additional = 1
[combat]
attacks = { k1 = "bob", k2 = "bob" }
blocks = { ogre = ["k1", "k2"] }
"""


def test_702_25a_509_3d_a_blocker_of_two_flanking_attackers_gets_minus_2_minus_2() -> None:
    """702.25a, 509.3d: each flanking attacker's ability triggers once for the ogre
    blocking it: the 3/3 ogre gets -1/-1 twice (1/1). It deals its 1 to k1 and dies to
    the knights' 2 (704.5g); k2 survives."""
    out = run(FLANKING_TWO_ATTACKERS)
    assert sorted(e["source"] for e in events(out, "trigger")) == ["k1", "k2"]
    assert [(e["target"], e["power"], e["toughness"]) for e in events(out, "pump")] == [
        ("ogre", -1, -1), ("ogre", -1, -1)]
    assert hits(out) == [("combat_damage", "k1", "ogre", 1),
                         ("combat_damage", "k2", "ogre", 1),
                         ("combat_damage", "ogre", "k1", 1)]
    assert zones(out, "k1", "k2", "ogre") == {
        "k1": "graveyard", "k2": "battlefield", "ogre": "graveyard"}


BAND_MEMBER_TRIGGERS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "hero"
controller = "alice"
power = 1
toughness = 1
keywords = ["banding"]
[[permanents]]
id = "brute"
controller = "alice"
power = 2
toughness = 2
keywords = ["afflict 2", "flanking", "bushido 1"]
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 5
[combat]
attacks = { hero = "bob", brute = "bob" }
bands = [["hero", "brute"]]
blocks = { wall = ["hero"] }
"""


def test_702_22h_509_3c_a_band_member_blocked_through_its_band_triggers_its_abilities() -> None:
    """702.22h: the wall blocks the hero, so the brute in its band becomes blocked by
    the wall too; that is "becomes blocked" (509.3c) and "becomes blocked by a
    creature" (509.3d): afflict 2 (702.130a) makes bob lose 2, flanking (702.25a)
    gives the wall -1/-1 (toughness 4), bushido 1 (702.45a) makes the brute 3/3. The
    hero's 1 and the brute's 3 kill the wall."""
    out = run(BAND_MEMBER_TRIGGERS)
    assert [(e["rule"], e["attacker"]) for e in events(out, "block")] == [
        ("509.1a", "hero"), ("702.22h", "brute")]
    assert sorted(e["ability"] for e in events(out, "trigger")) == [
        "afflict", "bushido", "flanking"]
    assert [(e["player"], e["amount"]) for e in events(out, "life_loss")] == [("bob", 2)]
    assert [(e["target"], e["power"], e["toughness"]) for e in events(out, "pump")] == [
        ("wall", -1, -1), ("brute", 1, 1)]
    assert hits(out) == [("combat_damage", "hero", "wall", 1),
                         ("combat_damage", "brute", "wall", 3)]
    assert zones(out, "wall") == {"wall": "graveyard"}
    assert lives(out) == {"alice": 20, "bob": 18}


BAND_RAMPAGE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "hero"
controller = "alice"
power = 1
toughness = 1
keywords = ["banding"]
[[permanents]]
id = "brute"
controller = "alice"
power = 2
toughness = 2
keywords = ["rampage 2"]
[[permanents]]
id = "w1"
controller = "bob"
power = 0
toughness = 9
[[permanents]]
id = "w2"
controller = "bob"
power = 0
toughness = 9
[combat]
attacks = { hero = "bob", brute = "bob" }
bands = [["hero", "brute"]]
blocks = { w1 = ["hero"], w2 = ["hero"] }
"""


def test_702_22h_702_23a_rampage_counts_the_blockers_its_band_passed_to_it() -> None:
    """702.22h: both walls block the hero, so both block the brute in its band too;
    702.23a, 509.3c: rampage 2 triggers once and gives +2/+2 for each blocker beyond
    the first: one, so the brute is 4/4 and deals 4."""
    out = run(BAND_RAMPAGE)
    assert [(e["attacker"], e["blocker"]) for e in events(out, "block")
            if e["rule"] == "702.22h"] == [("brute", "w1"), ("brute", "w2")]
    assert [e["ability"] for e in events(out, "trigger")] == ["rampage"]
    assert [(e["target"], e["power"], e["toughness"]) for e in events(out, "pump")] == [
        ("brute", 2, 2)]
    assert (out["permanents"]["brute"]["power"], out["permanents"]["brute"]["toughness"]) == (4, 4)
    assert hits(out) == [("combat_damage", "hero", "w1", 1),
                         ("combat_damage", "brute", "w1", 4)]
    assert out["permanents"]["w1"]["damage"] == 5


# --- Afterlife, persist, undying: tokens, noncreatures, counters -------------

AFTERLIFE_TOKEN = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "tok"
controller = "alice"
power = 2
toughness = 2
token = true
keywords = ["afterlife 1"]
[[permanents]]
id = "giant"
controller = "bob"
power = 3
toughness = 3
[combat]
attacks = { tok = "bob" }
blocks = { giant = "tok" }
"""


def test_702_135a_603_10a_a_token_with_afterlife_dies_and_still_makes_its_spirit() -> None:
    """603.10a: a leaves-the-battlefield ability looks back in time, so the token's
    afterlife 1 (702.135a) triggers though the token ceases to exist (704.5d, 111.7)
    first: alice gets a 1/1 Spirit with flying, untapped and not in combat."""
    out = run(AFTERLIFE_TOKEN)
    assert [e["object"] for e in events(out, "dies")] == ["tok"]
    assert [(e["rule"], e["zone"]) for e in events(out, "ceases_to_exist")] == [
        ("704.5d", "graveyard")]
    assert [(e["source"], e["player"], e["ability"]) for e in events(out, "resolve")] == [
        ("tok", "alice", "afterlife")]
    spirit = out["permanents"]["tok.afterlife.1"]
    assert (spirit["zone"], spirit["power"], spirit["toughness"], spirit["keywords"],
            spirit["tapped"]) == ("battlefield", 1, 1, ["flying"], False)
    assert out["permanents"]["tok"]["zone"] == "ceased"
    assert [e["player"] for e in events(out, "enters_battlefield")] == ["alice"]


PERSIST_AFTERLIFE_NONCREATURE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "relic"
controller = "alice"
types = ["artifact"]
keywords = ["persist", "afterlife 1"]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[combat]
attacks = { bear = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "sacrifice"
target = "relic"
"""


def test_702_79a_702_135a_persist_and_afterlife_work_on_a_noncreature_permanent() -> None:
    """702.79a and 702.135a trigger "when this permanent is put into a graveyard from
    the battlefield", not only for creatures: the sacrificed artifact (701.21a)
    returns as a new object (400.7) with a -1/-1 counter (614.1c), and afterlife 1
    makes a 1/1 flying Spirit."""
    out = run(PERSIST_AFTERLIFE_NONCREATURE)
    assert [(e["rule"], e["object"]) for e in events(out, "dies")] == [("701.21a", "relic")]
    assert sorted(e["ability"] for e in events(out, "resolve")) == ["afterlife", "persist"]
    relic = out["permanents"]["relic"]
    assert (relic["zone"], relic["counters"], relic["power"]) == (
        "battlefield", {"-1/-1": 1}, None)
    assert ("400.7", "relic") in [(e["rule"], e["object"])
                                  for e in events(out, "enters_battlefield")]
    spirit = out["permanents"]["relic.afterlife.1"]
    assert (spirit["zone"], spirit["power"], spirit["toughness"], spirit["keywords"]) == (
        "battlefield", 1, 1, ["flying"])
    assert out["zones"]["alice"]["graveyard"] == []


PERSIST_ANNIHILATED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "finks"
controller = "alice"
power = 3
toughness = 2
counters = { "-1/-1" = 1 }
keywords = ["persist"]
[[permanents]]
id = "giant"
controller = "bob"
power = 3
toughness = 3
[combat]
attacks = { finks = "bob" }
blocks = { giant = "finks" }
[[combat.actions]]
after = "declare_blockers"
do = "add_counters"
target = "finks"
counters = { "+1/+1" = 1 }
"""


def test_704_5q_702_79a_counters_that_annihilated_let_persist_return_the_creature() -> None:
    """704.5q: a +1/+1 and a -1/-1 counter on the same permanent are removed as a
    state-based action. Finks (3/2 with a -1/-1 counter) gets a +1/+1 counter, both
    go, and it dies in combat with no -1/-1 counter: persist (702.79a) returns it as
    a 2/1 with a new -1/-1 counter."""
    out = run(PERSIST_ANNIHILATED)
    assert [(e["rule"], e["target"], e["amount"]) for e in events(out, "counters_removed")] == [
        ("704.5q", "finks", 1)]
    assert hits(out) == [("combat_damage", "finks", "giant", 3),
                         ("combat_damage", "giant", "finks", 3)]
    assert [e["ability"] for e in events(out, "resolve")] == ["persist"]
    finks = out["permanents"]["finks"]
    assert (finks["zone"], finks["counters"], finks["power"], finks["toughness"]) == (
        "battlefield", {"-1/-1": 1}, 2, 1)
    assert zones(out, "giant") == {"giant": "graveyard"}


UNDYING_ANNIHILATED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "geist"
controller = "alice"
power = 2
toughness = 2
counters = { "+1/+1" = 1 }
keywords = ["undying"]
[[permanents]]
id = "giant"
controller = "bob"
power = 4
toughness = 4
[combat]
attacks = { geist = "bob" }
blocks = { giant = "geist" }
[[combat.actions]]
after = "declare_blockers"
do = "add_counters"
target = "geist"
counters = { "-1/-1" = 1 }
"""


def test_704_5q_702_93a_counters_that_annihilated_let_undying_return_the_creature() -> None:
    """704.5q: the geist's +1/+1 counter and the new -1/-1 counter are both removed;
    it deals 2 (a 2/2) and dies with no +1/+1 counter, so undying (702.93a) returns it
    as a 3/3 with a +1/+1 counter."""
    out = run(UNDYING_ANNIHILATED)
    assert [(e["rule"], e["target"]) for e in events(out, "counters_removed")] == [
        ("704.5q", "geist")]
    assert hits(out) == [("combat_damage", "geist", "giant", 2),
                         ("combat_damage", "giant", "geist", 4)]
    assert [e["ability"] for e in events(out, "resolve")] == ["undying"]
    geist = out["permanents"]["geist"]
    assert (geist["zone"], geist["counters"], geist["power"], geist["toughness"]) == (
        "battlefield", {"+1/+1": 1}, 3, 3)
    assert out["permanents"]["giant"]["damage"] == 2


PERSIST_WITHERED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "finks"
controller = "alice"
power = 3
toughness = 2
keywords = ["persist"]
[[permanents]]
id = "witherer"
controller = "bob"
power = 2
toughness = 2
keywords = ["wither"]
[combat]
attacks = { finks = "bob" }
blocks = { witherer = "finks" }
"""


def test_702_80a_702_79a_a_creature_killed_by_wither_counters_does_not_persist() -> None:
    """702.80a: the witherer's 2 damage to finks are two -1/-1 counters (120.3d); the
    3/2 is 1/0 and goes to the graveyard (704.5f) *with* -1/-1 counters, so persist's
    "if it had no -1/-1 counters" (702.79a, 603.10a) is false: it doesn't trigger and
    finks stays in the graveyard."""
    out = run(PERSIST_WITHERED)
    assert [(e["rule"], e["target"], e["amount"], e["counter"])
            for e in events(out, "counters")] == [("120.3d", "finks", 2, "-1/-1")]
    assert [(e["object"], e["rule"]) for e in events(out, "dies")] == [
        ("finks", "704.5f"), ("witherer", "704.5g")]
    assert not events(out, "trigger") and not events(out, "enters_battlefield")
    assert out["zones"]["alice"]["graveyard"] == ["finks"]
    assert zones(out, "finks") == {"finks": "graveyard"}


UNDYING_WITH_COUNTER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "geist"
controller = "alice"
power = 2
toughness = 2
counters = { "+1/+1" = 1 }
keywords = ["undying"]
[[permanents]]
id = "giant"
controller = "bob"
power = 4
toughness = 4
[combat]
attacks = { geist = "bob" }
blocks = { giant = "geist" }
"""


def test_702_93a_undying_does_not_return_a_creature_that_had_a_plus_1_counter() -> None:
    """702.93a: "if it had no +1/+1 counters on it". The 3/3 geist (a 2/2 with a +1/+1
    counter) deals 3, dies to the giant's 4, and stays in the graveyard: no undying
    trigger."""
    out = run(UNDYING_WITH_COUNTER)
    assert hits(out) == [("combat_damage", "geist", "giant", 3),
                         ("combat_damage", "giant", "geist", 4)]
    assert [e["object"] for e in events(out, "dies")] == ["geist"]
    assert not events(out, "trigger") and not events(out, "enters_battlefield")
    assert out["zones"]["alice"]["graveyard"] == ["geist"]
    assert out["permanents"]["giant"]["damage"] == 3


# --- Myriad, melee, dethrone in Two-Headed Giant; annihilator on a battle -----

MYRIAD_2HG = TWO_HEADED_GIANT + """
[[permanents]]
id = "envoy"
controller = "alice"
power = 2
toughness = 2
keywords = ["myriad"]
[combat]
attacks = { envoy = "bob" }
"""


def test_805_10e_702_116a_myriad_in_2hg_makes_one_token_attacking_the_other_head() -> None:
    """702.116a: a token copy attacking "each opponent other than defending player";
    805.10e: the defending player is the one the envoy attacks, bob, so the only
    other opponent is dave (not alice's teammate carol): one token attacks dave. Each
    deals 2 (team life 26, 810.9), and the token is exiled at end of combat and
    ceases to exist (704.5d)."""
    out = run(MYRIAD_2HG)
    assert [(e["attacker"], e["target"]) for e in events(out, "enters_attacking")] == [
        ("envoy.myriad.1", "dave")]
    assert hits(out) == [("combat_damage", "envoy", "bob", 2),
                         ("combat_damage", "envoy.myriad.1", "dave", 2)]
    assert out["teams"]["blue"]["life"] == 26 and out["teams"]["red"]["life"] == 30
    assert [(e["step"], e["zone"]) for e in events(out, "zone_change")] == [
        ("end_of_combat", "exile")]
    assert out["permanents"]["envoy.myriad.1"]["zone"] == "ceased"


MELEE_DETHRONE_2HG = TWO_HEADED_GIANT + """
[[permanents]]
id = "knight"
controller = "alice"
power = 2
toughness = 2
keywords = ["melee"]
[[permanents]]
id = "elf"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "bear"
controller = "carol"
power = 2
toughness = 2
keywords = ["melee", "dethrone"]
[combat]
attacks = { knight = "bob", elf = "dave", bear = "dave" }
"""


def test_702_121a_702_105a_melee_counts_your_own_attacks_and_dethrone_sees_team_life() -> None:
    """702.121a: melee counts each opponent *you* attacked: alice attacked bob and
    dave (her knight +2/+2, 4/4), carol only dave (her bear +1/+1). 702.105a with
    810.9a: every player's life is their team's, all tied at 30, so dave has the most
    life and the bear gets a +1/+1 counter (4/4). The team takes 4 + 1 + 4."""
    out = run(MELEE_DETHRONE_2HG)
    assert [(e["target"], e["power"], e["toughness"]) for e in events(out, "pump")] == [
        ("bear", 1, 1), ("knight", 2, 2)]
    assert [(e["target"], e["counter"]) for e in events(out, "counters")] == [("bear", "+1/+1")]
    assert out["permanents"]["bear"]["counters"] == {"+1/+1": 1}
    assert hits(out) == [("combat_damage", "knight", "bob", 4),
                         ("combat_damage", "elf", "dave", 1),
                         ("combat_damage", "bear", "dave", 4)]
    assert out["teams"]["blue"]["life"] == 21


ANNIHILATOR_BATTLE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "eldrazi"
controller = "alice"
power = 4
toughness = 4
keywords = ["annihilator 1"]
[[permanents]]
id = "siege"
controller = "alice"
types = ["battle"]
subtypes = ["Siege"]
defense = 5
protector = "bob"
[[permanents]]
id = "forest"
controller = "bob"
types = ["land"]
[[permanents]]
id = "aland"
controller = "alice"
types = ["land"]
[combat]
attacks = { eldrazi = "siege" }
"""


def test_508_5_702_86a_annihilator_attacking_a_battle_makes_its_protector_sacrifice() -> None:
    """702.86a: "defending player sacrifices N permanents"; 508.5: for a creature
    attacking a battle that is the battle's protector, bob, not its controller alice:
    bob sacrifices his forest, alice's land and her siege stay. The siege then takes
    4 (120.3h: 5 -> 1 defense)."""
    out = run(ANNIHILATOR_BATTLE)
    assert [(e["player"], e["object"]) for e in events(out, "sacrificed")] == [("bob", "forest")]
    assert zones(out, "forest", "aland", "siege") == {
        "forest": "graveyard", "aland": "battlefield", "siege": "battlefield"}
    assert out["zones"]["bob"]["graveyard"] == ["forest"]
    assert hits(out) == [("combat_damage", "eldrazi", "siege", 4)]
    assert out["permanents"]["siege"]["defense"] == 1


NINJUTSU_STOLEN = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
owner = "bob"
power = 2
toughness = 2
[[permanents]]
id = "ninja"
controller = "alice"
power = 3
toughness = 2
zone = "hand"
keywords = ["ninjutsu {1}{u}"]
[combat]
attacks = { bear = "bob" }
blocks = {}
[[combat.actions]]
after = "declare_blockers"
do = "activate"
source = "ninja"
ability = "ninjutsu"
cost = { return = "bear" }
"""


def test_702_49a_ninjutsu_returns_a_stolen_attacker_to_its_owners_hand() -> None:
    """702.49a: the cost returns "an unblocked attacking creature you control to its
    owner's hand": alice's stolen bear goes to bob's hand, not alice's. 702.49c: the
    ninja enters tapped, attacking bob and unblocked (508.4d), and deals its 3."""
    out = run(NINJUTSU_STOLEN)
    assert out["zones"]["bob"]["hand"] == ["bear"]
    assert out["zones"]["alice"]["hand"] == []
    assert [(e["attacker"], e["target"]) for e in events(out, "enters_attacking")] == [
        ("ninja", "bob")]
    assert (out["permanents"]["ninja"]["zone"], out["permanents"]["ninja"]["tapped"]) == (
        "battlefield", True)
    assert hits(out) == [("combat_damage", "ninja", "bob", 3)]
    assert lives(out) == {"alice": 20, "bob": 17}


# --- Last known information: triggers resolving after their source left ------


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on the stack (603.3)."""
    return Engine(auto_triggers=False)


def test_608_2b_702_134a_mentor_uses_its_last_known_power_after_leaving(manual: Engine) -> None:
    """702.134a: mentor targets an attacking creature "with power less than this
    creature's power". The 3/3 mentor leaves before its trigger resolves; the target
    check (608.2b) uses its last known power (608.2h), 3, so the 1/1 cub is still a
    legal target and gets a +1/+1 counter."""
    c = manual.creature
    s = manual.game(["alice", "bob"], [c("sage", "alice", 3, 3, "mentor"),
                                       c("cub", "alice", 1, 1)])
    s = manual.declare_attackers(s, {"sage": "bob", "cub": "bob"}).state
    assert [t.kind for t in s.stack] == ["mentor"]
    s = manual.perform(s, LeaveBattlefield("sage")).state
    assert s.objects["sage"].zone == "graveyard"
    s = manual.resolve_trigger(s).state
    assert dict(s.objects["cub"].counters) == {"+1/+1": 1}
    assert (s.objects["cub"].power, s.objects["cub"].toughness) == (2, 2)
    assert not s.stack


def test_608_2h_702_91a_battle_cry_resolves_after_its_source_left(manual: Engine) -> None:
    """702.91a, 608.2h: once triggered, battle cry resolves without its source (its
    source's information is last known information): the elf, another attacking
    creature, still gets +1/+0 though the hero has left the battlefield."""
    c = manual.creature
    s = manual.game(["alice", "bob"], [c("hero", "alice", 2, 2, "battle cry"),
                                       c("elf", "alice", 1, 1)])
    s = manual.declare_attackers(s, {"hero": "bob", "elf": "bob"}).state
    s = manual.perform(s, LeaveBattlefield("hero")).state
    assert s.objects["elf"].power == 1
    s = manual.resolve_trigger(s).state
    assert (s.objects["elf"].power, s.objects["elf"].toughness) == (2, 1)


def test_508_5_702_86a_annihilator_resolves_after_its_source_left(manual: Engine) -> None:
    """702.86a, 508.5: if the attacking creature is no longer attacking, "defending
    player" is the player it was attacking before it left combat: with the eldrazi
    gone, bob still sacrifices a permanent, his bear."""
    c = manual.creature
    s = manual.game(["alice", "bob"], [c("eld", "alice", 4, 4, "annihilator 1"),
                                       c("bear", "bob", 2, 2)])
    s = manual.declare_attackers(s, {"eld": "bob"}).state
    s = manual.perform(s, LeaveBattlefield("eld")).state
    assert s.objects["bear"].zone == "battlefield"
    s = manual.resolve_trigger(s).state
    assert s.objects["bear"].zone == "graveyard"


def test_608_2h_702_154a_enlist_uses_the_enlisted_creatures_last_known_power(
        manual: Engine) -> None:
    """702.154a: the knight gets +X/+0, "where X is the tapped creature's power";
    608.2h: that creature has left the battlefield, so its last known power is used:
    the ox was pumped to 5 (+2/+0) before it left, so the 2/2 knight becomes 7/2."""
    c = manual.creature
    s = manual.game(["alice", "bob"], [c("knight", "alice", 2, 2, "enlist"),
                                       c("ox", "alice", 3, 3)])
    s = manual.declare_attackers(s, {"knight": "bob"}, choices={"enlist:knight": "ox"}).state
    assert s.objects["ox"].tapped
    s = manual.perform(s, Pump("ox", 2, 0)).state
    s = manual.perform(s, LeaveBattlefield("ox")).state
    s = manual.resolve_trigger(s).state
    assert (s.objects["knight"].power, s.objects["knight"].toughness) == (7, 2)
