"""Core-rules interactions, one test each, from two audits of redzone: combat and
turn-structure rules that redzone resolves as the Comprehensive Rules say and that
no other test covered.

They cover

- combat damage assignment: a blocked creature dividing its damage freely among
  its blockers but never to the player (510.1c), a blocker dividing among the
  attackers it blocks (510.1d), blockers or attackers gone before damage (506.4,
  510.1c, 510.1d), a planeswalker gone before damage (506.4c), 0 or less power
  (510.1a), excess damage to a planeswalker (120.3c, 704.5i);
- blocking and attacking requirements (508.1d, 509.1c): two lures, a lure with an
  extra block, "must be blocked if able" against "blocks if able", a lure that
  needs two blockers, "attacks if able" on creatures that can't attack;
- damage and effects over the turn: damage staying until cleanup (120.6), the
  cleanup step's simultaneous removal (514.2) and its repeat (514.3a), -1/-1 and
  +1/+1 counters annihilating (704.5q), delayed triggers created during their own
  step (513.2, 511.2);
- multiplayer: a player leaving the game (800.4a, 800.4b), APNAP order in turn
  order (603.3b), simultaneous losses (104.2a, 104.4a), who may block in a
  free-for-all (509.1a) and in Two-Headed Giant (805.10d, 810.8a, 810.9), lure in a
  free-for-all, and leaves-the-battlefield triggers of a token (603.10a, 704.5d).

Rule numbers are the September 2026 edition's (and the April 2026 edition's for
513, 514.3a, 603, 800 and 805/810).
"""

from __future__ import annotations

from typing import Any

from _outcomes import events, hits, lives, run, zones


def damage(out: dict[str, Any], *ids: str) -> dict[str, int]:
    return {i: out["permanents"][i]["damage"] for i in ids}



def lost(out: dict[str, Any]) -> dict[str, bool]:
    return {name: p["lost"] for name, p in out["players"].items()}


def illegal(out: dict[str, Any]) -> tuple[bool, str, str, list[str]]:
    """(ok, error kind, error rule, sorted objects) of a rejected scenario."""
    err = out["error"]
    return out["ok"], err["kind"], err["rule"], sorted(err["objects"])


TWO_PLAYERS = """
active_player = "alice"
[players.alice]
[players.bob]
"""

THREE_PLAYERS = """
active_player = "alice"
turn_order = ["alice", "bob", "carol"]
[players.alice]
[players.bob]
[players.carol]
"""

TWO_HEADED_GIANT = """
active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
teams = { red = ["alice", "carol"], blue = ["bob", "dave"] }
[players.alice]
[players.bob]
[players.carol]
[players.dave]
"""


# --- Combat damage assignment (510.1) ---------------------------------------

FIVE_FIVE_DOUBLE_BLOCKED = TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 5
toughness = 5
[[permanents]]
id = "b1"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "b2"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { a = "bob" }
blocks = { b1 = ["a"], b2 = ["a"] }
"""

FREE_DIVISION = FIVE_FIVE_DOUBLE_BLOCKED + """
[combat.assign]
a = { b1 = 1, b2 = 4 }
"""


def test_510_1c_blocked_creature_divides_its_damage_as_its_controller_chooses() -> None:
    """510.1c: a creature blocked by two creatures divides its damage among them as
    its controller chooses; with no damage assignment order it may give the first
    blocker less than lethal (1 to b1) and the rest to b2 (4)."""
    out = run(FREE_DIVISION)
    assert out["ok"] is True
    assert hits(out) == [("combat_damage", "a", "b1", 1), ("combat_damage", "a", "b2", 4),
                         ("combat_damage", "b1", "a", 2), ("combat_damage", "b2", "a", 2)]
    assert zones(out, "a", "b1", "b2") == {"a": "battlefield", "b1": "battlefield",
                                           "b2": "graveyard"}
    assert damage(out, "a", "b1") == {"a": 4, "b1": 1}
    assert lives(out) == {"alice": 20, "bob": 20}


ALL_TO_ONE = FIVE_FIVE_DOUBLE_BLOCKED + """
[combat.assign]
a = { b1 = 5 }
"""


def test_510_1c_blocked_creature_may_assign_all_its_damage_to_one_blocker() -> None:
    """510.1c: the division may give one blocker everything (5 to b1) and the other
    nothing; b2 survives undamaged."""
    out = run(ALL_TO_ONE)
    assert out["ok"] is True
    assert hits(out, "assign")[0] == ("combat_damage", "a", "b1", 5)
    assert [h for h in hits(out) if h[1] == "a"] == [("combat_damage", "a", "b1", 5)]
    assert zones(out, "b1", "b2") == {"b1": "graveyard", "b2": "battlefield"}
    assert damage(out, "a", "b2") == {"a": 4, "b2": 0}


ASSIGN_TO_PLAYER = FIVE_FIVE_DOUBLE_BLOCKED + """
[combat.assign]
a = { b1 = 2, b2 = 2, bob = 1 }
"""


def test_510_1c_blocked_creature_without_trample_cannot_assign_to_the_player() -> None:
    """510.1c: a blocked creature assigns its damage to the creatures blocking it;
    without trample (702.19b) the excess 1 can't go to bob: the assignment is
    illegal."""
    out = run(ASSIGN_TO_PLAYER)
    assert illegal(out) == (False, "illegal_assignment", "510.1c", ["a", "bob"])
    assert "legal recipients are: b1, b2" in out["error"]["message"]


BLOCKER_DIVIDES = TWO_PLAYERS + """
[[permanents]]
id = "a1"
controller = "alice"
power = 1
toughness = 2
[[permanents]]
id = "a2"
controller = "alice"
power = 1
toughness = 2
[[permanents]]
id = "wall"
controller = "bob"
power = 4
toughness = 5
can_block_additional = 1
[combat]
attacks = { a1 = "bob", a2 = "bob" }
blocks = { wall = ["a1", "a2"] }
[combat.assign]
wall = { a1 = 1, a2 = 3 }
"""


def test_510_1d_blocker_of_two_attackers_divides_its_damage_as_its_controller_chooses() -> None:
    """510.1d: a creature blocking two attackers divides its damage among them as its
    controller chooses: 1 to a1 (survives), 3 to a2 (dies); each attacker deals its
    1 to the wall."""
    out = run(BLOCKER_DIVIDES)
    assert out["ok"] is True
    assert hits(out) == [("combat_damage", "a1", "wall", 1), ("combat_damage", "a2", "wall", 1),
                         ("combat_damage", "wall", "a1", 1), ("combat_damage", "wall", "a2", 3)]
    assert zones(out, "a1", "a2", "wall") == {"a1": "battlefield", "a2": "graveyard",
                                              "wall": "battlefield"}
    assert damage(out, "a1", "wall") == {"a1": 1, "wall": 2}


BLOCKER_REMOVED = TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 5
toughness = 5
[[permanents]]
id = "b1"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { a = "bob" }
blocks = { b1 = ["a"] }
[[combat.actions]]
after = "declare_blockers"
do = "remove_from_combat"
target = "b1"
"""


def test_510_1c_blocked_creature_whose_blocker_was_removed_assigns_no_damage() -> None:
    """506.4: the blocker is removed from combat; 509.1h: the attacker stays blocked;
    510.1c: with no creature blocking it, it assigns no combat damage, so bob takes
    nothing and nobody is damaged."""
    out = run(BLOCKER_REMOVED)
    assert out["ok"] is True
    assert [(e["step"], e["object"]) for e in events(out, "removed_from_combat")] == [
        ("declare_blockers", "b1")]
    assert hits(out, "assign") == []
    assert hits(out) == []
    assert lives(out) == {"alice": 20, "bob": 20}
    assert damage(out, "a", "b1") == {"a": 0, "b1": 0}


ASSIGN_TO_REMOVED_BLOCKER = FIVE_FIVE_DOUBLE_BLOCKED + """
[combat.assign]
a = { b1 = 2, b2 = 3 }
[[combat.actions]]
after = "declare_blockers"
do = "remove_from_combat"
target = "b1"
"""


def test_510_1c_blocked_creature_cannot_assign_to_a_blocker_removed_from_combat() -> None:
    """506.4, 510.1c: a blocked creature assigns damage only to the creatures
    *currently* blocking it; b1 was removed from combat, so assigning it 2 is
    illegal and b2 is the only legal recipient."""
    out = run(ASSIGN_TO_REMOVED_BLOCKER)
    assert illegal(out) == (False, "illegal_assignment", "510.1c", ["a", "b1"])
    assert "legal recipients are: b2" in out["error"]["message"]


BLOCKER_ASSIGNS_TO_GONE = BLOCKER_DIVIDES.replace(
    "wall = { a1 = 1, a2 = 3 }", "wall = { a1 = 2, a2 = 2 }") + """
[[combat.actions]]
after = "declare_blockers"
do = "leave_battlefield"
target = "a1"
"""


def test_510_1d_blocker_cannot_assign_to_an_attacker_that_left_the_battlefield() -> None:
    """506.4, 510.1d: a blocker assigns damage only to the creatures it's currently
    blocking; a1 left the battlefield, so 2 to a1 is illegal and a2 is the only
    legal recipient."""
    out = run(BLOCKER_ASSIGNS_TO_GONE)
    assert illegal(out) == (False, "illegal_assignment", "510.1d", ["a1", "wall"])
    assert "legal recipients are: a2" in out["error"]["message"]


PLANESWALKER_LEFT = TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "pw"
controller = "bob"
types = ["planeswalker"]
loyalty = 5
[combat]
attacks = { a = "pw" }
[[combat.actions]]
after = "declare_blockers"
do = "leave_battlefield"
target = "pw"
"""


def test_506_4c_attacker_of_a_departed_planeswalker_deals_no_combat_damage() -> None:
    """506.4c: the attacked planeswalker leaves, which removes it from combat but not
    its attacker; the unblocked attacker attacks nothing and deals no combat damage,
    not even to bob."""
    out = run(PLANESWALKER_LEFT)
    assert out["ok"] is True
    assert [e["object"] for e in events(out, "removed_from_combat")] == ["pw"]
    assert [e["object"] for e in events(out, "unblocked")] == ["a"]
    assert hits(out, "assign") == []
    assert hits(out) == []
    assert lives(out) == {"alice": 20, "bob": 20}
    assert zones(out, "a", "pw") == {"a": "battlefield", "pw": "graveyard"}


NEGATIVE_POWER = TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 1
toughness = 3
[[permanents]]
id = "b"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { a = "bob" }
blocks = { b = ["a"] }
[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "a"
power = -2
toughness = 0
"""


def test_510_1a_creature_with_negative_power_assigns_no_combat_damage() -> None:
    """510.1a: a creature that would assign 0 or less damage doesn't assign combat
    damage at all; the -1/3 attacker assigns nothing (and heals nothing), while its
    blocker's 2 is dealt to it."""
    out = run(NEGATIVE_POWER)
    assert out["ok"] is True
    assert out["permanents"]["a"]["power"] == -1
    assert hits(out, "assign") == [("combat_damage", "b", "a", 2)]
    assert hits(out) == [("combat_damage", "b", "a", 2)]
    assert damage(out, "a", "b") == {"a": 2, "b": 0}
    assert zones(out, "a", "b") == {"a": "battlefield", "b": "battlefield"}


PLANESWALKER_OVERKILL = TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 7
toughness = 7
[[permanents]]
id = "pw"
controller = "bob"
types = ["planeswalker"]
loyalty = 3
[combat]
attacks = { a = "pw" }
"""


def test_120_3c_704_5i_excess_damage_to_a_planeswalker_is_not_dealt_to_its_controller() -> None:
    """120.3c: 7 damage to a planeswalker with loyalty 3 removes its 3 loyalty
    counters; 704.5i: at loyalty 0 it goes to the graveyard. The excess isn't dealt
    to bob (no trample)."""
    out = run(PLANESWALKER_OVERKILL)
    assert out["ok"] is True
    assert hits(out) == [("combat_damage", "a", "pw", 7)]
    assert [(e["target"], e["amount"]) for e in events(out, "loyalty")] == [("pw", 3)]
    assert [(e["rule"], e["object"]) for e in events(out, "dies")] == [("704.5i", "pw")]
    assert out["permanents"]["pw"]["loyalty"] == 0
    assert zones(out, "pw") == {"pw": "graveyard"}
    assert lives(out) == {"alice": 20, "bob": 20}


# --- Requirements (508.1d, 509.1c) ------------------------------------------

TWO_LURES = TWO_PLAYERS + """
[[permanents]]
id = "l1"
controller = "alice"
power = 2
toughness = 2
lure = true
[[permanents]]
id = "l2"
controller = "alice"
power = 2
toughness = 2
lure = true
[[permanents]]
id = "c"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { l1 = "bob", l2 = "bob" }
"""


def test_509_1c_two_lures_and_no_block_obeys_fewer_requirements_than_possible() -> None:
    """509.1c: c is under two requirements (block l1, block l2) and can obey one;
    not blocking obeys none, fewer than the maximum, so it's illegal."""
    out = run(TWO_LURES + "blocks = {}\n")
    assert illegal(out) == (False, "illegal_block", "509.1c", ["c", "l1"])
    assert "obeys 0 of 2 requirements, but 1 can be obeyed" in out["error"]["message"]


def test_509_1c_two_lures_blocking_either_one_obeys_the_maximum() -> None:
    """509.1c: blocking l2 obeys one requirement, the most c can obey, so it's legal:
    c and l2 trade and l1 deals its 2 to bob."""
    out = run(TWO_LURES + 'blocks = { c = ["l2"] }\n')
    assert out["ok"] is True
    assert [(e["attacker"], e["blocker"]) for e in events(out, "block")] == [("l2", "c")]
    assert ("combat_damage", "l1", "bob", 2) in hits(out)
    assert lives(out) == {"alice": 20, "bob": 18}
    assert zones(out, "l1", "l2", "c") == {"l1": "battlefield", "l2": "graveyard",
                                           "c": "graveyard"}


TWO_LURES_EXTRA_BLOCK = TWO_LURES.replace(
    'id = "c"\ncontroller = "bob"\npower = 2\ntoughness = 2\n',
    'id = "c"\ncontroller = "bob"\npower = 2\ntoughness = 2\ncan_block_additional = 1\n',
) + 'blocks = { c = ["l1"] }\n'


def test_509_1c_two_lures_a_creature_that_can_block_two_must_block_both() -> None:
    """509.1c: c can block an additional creature, so both lure requirements can be
    obeyed at once; blocking only l1 obeys 1 of 2: illegal (l2 not obeyed)."""
    out = run(TWO_LURES_EXTRA_BLOCK)
    assert illegal(out) == (False, "illegal_block", "509.1c", ["c", "l2"])
    assert "obeys 1 of 2 requirements, but 2 can be obeyed" in out["error"]["message"]


MUST_BE_BLOCKED_VS_IF_ABLE = TWO_PLAYERS + """
[[permanents]]
id = "x"
controller = "alice"
power = 2
toughness = 2
must_be_blocked = true
[[permanents]]
id = "y"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "b1"
controller = "bob"
power = 2
toughness = 2
blocks_if_able = true
[combat]
attacks = { x = "bob", y = "bob" }
blocks = { b1 = ["y"] }
"""


def test_509_1c_must_be_blocked_and_blocks_if_able_are_both_obeyed_by_blocking_x() -> None:
    """509.1c: "x must be blocked if able" and "b1 blocks if able" can both be obeyed
    by b1 blocking x; b1 blocking y obeys only one, so it's illegal."""
    out = run(MUST_BE_BLOCKED_VS_IF_ABLE)
    assert illegal(out) == (False, "illegal_block", "509.1c", ["x"])
    assert "obeys 1 of 2 requirements, but 2 can be obeyed" in out["error"]["message"]
    assert "x is blocked if able" in out["error"]["message"]


LURE_NEEDS_TWO = TWO_PLAYERS + """
[[permanents]]
id = "x"
controller = "alice"
power = 2
toughness = 2
lure = true
min_blockers = 2
[[permanents]]
id = "c1"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { x = "bob" }
blocks = {}
"""


def test_509_1c_lure_that_needs_two_blockers_cannot_be_obeyed_by_one_creature() -> None:
    """509.1b, 509.1c: x can't be blocked except by two or more creatures (a
    restriction); bob's single creature can't block it without breaking that, so the
    lure requirement can't be obeyed and no block is legal: bob takes 2."""
    out = run(LURE_NEEDS_TWO)
    assert out["ok"] is True
    assert events(out, "block") == []
    assert [e["object"] for e in events(out, "unblocked")] == ["x"]
    assert hits(out) == [("combat_damage", "x", "bob", 2)]
    assert lives(out) == {"alice": 20, "bob": 18}


LURE_NEEDS_TWO_HAS_TWO = LURE_NEEDS_TWO.replace("[combat]", """[[permanents]]
id = "c2"
controller = "bob"
power = 2
toughness = 2
[combat]""")


def test_509_1c_lure_that_needs_two_blockers_must_be_blocked_by_both_of_two() -> None:
    """509.1c: with two creatures both can block x without breaking the two-blocker
    restriction, so both lure requirements can be obeyed; not blocking obeys 0 of 2:
    illegal."""
    out = run(LURE_NEEDS_TWO_HAS_TWO)
    assert illegal(out) == (False, "illegal_block", "509.1c", ["c1", "c2", "x"])
    assert "obeys 0 of 2 requirements, but 2 can be obeyed" in out["error"]["message"]


ATTACKS_IF_ABLE_BUT_UNABLE = TWO_PLAYERS + """
[[permanents]]
id = "x"
controller = "alice"
power = 2
toughness = 2
attacks_if_able = true
tapped = true
[[permanents]]
id = "y"
controller = "alice"
power = 2
toughness = 2
attacks_if_able = true
summoning_sick = true
[combat]
attacks = {}
"""


def test_508_1d_attacks_if_able_does_not_apply_to_creatures_that_cannot_attack() -> None:
    """508.1a, 508.1d: a tapped creature and a summoning-sick one can't attack, so
    their "attacks if able" requirements can't be obeyed and attacking with nothing
    is legal."""
    out = run(ATTACKS_IF_ABLE_BUT_UNABLE)
    assert out["ok"] is True
    assert events(out, "attack") == []
    assert hits(out) == []
    assert lives(out) == {"alice": 20, "bob": 20}
    assert zones(out, "x", "y") == {"x": "battlefield", "y": "battlefield"}


# --- Damage, counters and effects over the turn -----------------------------

DAMAGE_STAYS = TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "b"
controller = "bob"
power = 0
toughness = 3
[combat]
attacks = { a = "bob" }
blocks = { b = ["a"] }
[[combat.actions]]
after = "end_of_combat"
do = "pump"
target = "b"
power = 0
toughness = -1
"""


def test_120_6_damage_stays_marked_until_cleanup_and_kills_when_toughness_drops() -> None:
    """120.6: the 2 damage dealt to the 0/3 blocker stays marked after the combat
    damage step; when it becomes 0/2 in the end of combat step the marked damage is
    lethal and it's destroyed (704.5g) then."""
    out = run(DAMAGE_STAYS)
    assert out["ok"] is True
    assert hits(out) == [("combat_damage", "a", "b", 2)]
    assert [(e["step"], e["rule"], e["object"]) for e in events(out, "destroyed")] == [
        ("end_of_combat", "704.5g", "b")]
    assert zones(out, "b") == {"b": "graveyard"}


CLEANUP_SIMULTANEOUS = "through = \"cleanup\"\n" + TWO_PLAYERS + """
[[permanents]]
id = "a"
controller = "alice"
power = 4
toughness = 4
[[permanents]]
id = "b"
controller = "bob"
power = 0
toughness = 2
[combat]
attacks = { a = "bob" }
blocks = { b = ["a"] }
[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "b"
power = 0
toughness = 3
"""


def test_514_2_damage_removal_and_end_of_turn_effects_are_simultaneous() -> None:
    """514.2: in cleanup, damage is removed and "until end of turn" effects end
    simultaneously; the 0/5 blocker with 4 damage becomes an undamaged 0/2 and
    survives."""
    out = run(CLEANUP_SIMULTANEOUS)
    assert out["ok"] is True
    assert hits(out) == [("combat_damage", "a", "b", 4)]
    assert [(e["kind"], e["rule"]) for e in out["events"] if e["step"] == "cleanup"] == [
        ("step", "514.1"), ("damage_removed", "514.2"), ("effect_ends", "514.2")]
    assert events(out, "destroyed") == []
    b = out["permanents"]["b"]
    assert (b["zone"], b["toughness"], b["damage"]) == ("battlefield", 2, 0)


CLEANUP_TRIGGER = "through = \"cleanup\"\n" + TWO_PLAYERS + """
[[permanents]]
id = "big"
controller = "bob"
power = 3
toughness = 3
[[permanents]]
id = "small"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "a"
controller = "alice"
power = 1
toughness = 1
[combat]
attacks = { a = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "cleanup"
source = "a"
text = "deal damage"
actions = [
    { do = "deal_damage", source = "a", target = "big", amount = 1 },
    { do = "deal_damage", source = "a", target = "small", amount = 3 },
]
"""


def test_514_3a_trigger_in_cleanup_then_another_cleanup_removes_the_damage() -> None:
    """514.3a: a trigger at the beginning of the next cleanup step is put on the stack
    in cleanup; it deals 3 to small (destroyed, 704.5g) and 1 to big; then another
    cleanup step begins and removes big's damage (514.2)."""
    out = run(CLEANUP_TRIGGER)
    assert out["ok"] is True
    cleanup = [(e["kind"], e.get("object") or e.get("target"))
               for e in out["events"] if e["step"] == "cleanup"]
    assert cleanup == [("step", None), ("trigger", "t1"), ("resolve", "t1"),
                       ("damage", "big"), ("damage", "small"), ("destroyed", "small"),
                       ("dies", "small"), ("step", None), ("damage_removed", "big")]
    assert zones(out, "big", "small") == {"big": "battlefield", "small": "graveyard"}
    assert damage(out, "big") == {"big": 0}
    assert lives(out) == {"alice": 20, "bob": 19}


COUNTERS_ANNIHILATE = TWO_PLAYERS + """
[[permanents]]
id = "x"
controller = "bob"
power = 2
toughness = 2
counters = { "+1/+1" = 2 }
[[permanents]]
id = "a"
controller = "alice"
power = 1
toughness = 1
[combat]
attacks = { a = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "add_counters"
target = "x"
counters = { "-1/-1" = 3 }
"""


def test_704_5q_plus_and_minus_counters_annihilate_in_pairs() -> None:
    """704.5q: a 2/2 with two +1/+1 counters gets three -1/-1 counters; two of each
    are removed, leaving one -1/-1 counter: a 1/1 that survives."""
    out = run(COUNTERS_ANNIHILATE)
    assert out["ok"] is True
    assert [(e["rule"], e["target"], e["amount"]) for e in events(out, "counters_removed")] == [
        ("704.5q", "x", 2)]
    x = out["permanents"]["x"]
    assert (x["zone"], x["counters"], x["power"], x["toughness"]) == (
        "battlefield", {"-1/-1": 1}, 1, 1)
    assert lives(out) == {"alice": 20, "bob": 19}


DELAYED_TIMING = "through = \"cleanup\"\n" + TWO_PLAYERS + """
[[permanents]]
id = "orc"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "libb"
controller = "bob"
zone = "library"
types = ["land"]
[[permanents]]
id = "liba"
controller = "alice"
zone = "library"
types = ["land"]
[combat]
attacks = { orc = "bob" }
[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "orc"
toughness = 2
duration = "end_of_combat"
[[combat.actions]]
after = "end_of_combat"
do = "deal_damage"
source = { name = "Shock", controller = "bob" }
target = "orc"
amount = 3
[[combat.actions]]
after = "end_of_combat"
do = "create_delayed_trigger"
when = "end_of_combat"
source = "orc"
text = "EOC created in EOC"
actions = [ { do = "gain_life", player = "alice", amount = 1 } ]
[[combat.actions]]
after = "end_step"
do = "create_delayed_trigger"
when = "end_step"
source = "orc"
text = "end step created in end step"
actions = [ { do = "gain_life", player = "alice", amount = 10 } ]
[[combat.actions]]
after = "end_step"
do = "create_delayed_trigger"
when = "cleanup"
source = "orc"
text = "cleanup created in end step"
actions = [ { do = "gain_life", player = "alice", amount = 100 } ]
[[turns]]
attacks = {}
"""


def test_513_2_delayed_triggers_created_during_their_step_wait_for_the_next_one() -> None:
    """513.2 (and likewise for end of combat): delayed triggers for the end of combat
    and end step created during those steps trigger only in the next turn's; one for
    the next cleanup created in the end step triggers this turn (514.3a). 511.2: the
    "until end of combat" +0/+2 ends with the combat phase, so the orc with 3
    damage dies in the postcombat main phase."""
    out = run(DELAYED_TIMING)
    assert out["ok"] is True
    assert [(e["step"], e["text"]) for e in events(out, "trigger")] == [
        ("cleanup", "cleanup created in end step"),
        ("end_of_combat@2", "EOC created in EOC"),
        ("end_step@2", "end step created in end step")]
    assert [(e["step"], e["amount"]) for e in events(out, "life_gain")] == [
        ("cleanup", 100), ("end_of_combat@2", 1), ("end_step@2", 10)]
    assert [e["step"] for e in events(out, "destroyed")] == ["postcombat_main"]
    assert lives(out) == {"alice": 131, "bob": 18}
    assert zones(out, "orc") == {"orc": "graveyard"}


# --- Multiplayer: leaving the game, APNAP, simultaneous losses ---------------

LEAVE_OWNERSHIP = THREE_PLAYERS.replace("[players.bob]", "[players.bob]\nlife = 2") + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "elf"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "stolen"
controller = "alice"
owner = "bob"
power = 2
toughness = 2
[[permanents]]
id = "borrowed"
controller = "bob"
owner = "alice"
power = 1
toughness = 1
[combat]
attacks = { orc = "carol", elf = "bob", stolen = "carol" }
blocks = { borrowed = "elf" }
[[combat.actions]]
after = "declare_blockers"
do = "lose_life"
player = "bob"
amount = 2
"""


def test_800_4a_a_player_leaving_takes_what_they_own_and_exiles_what_they_control() -> None:
    """800.4a: bob loses (704.5a) and leaves; "stolen", which he owns, leaves the game
    (and combat, so carol takes only the orc's 3); "borrowed", which he controls but
    alice owns, is exiled; the elf attacking bob is removed from combat."""
    out = run(LEAVE_OWNERSHIP)
    assert out["ok"] is True
    assert lost(out) == {"alice": False, "bob": True, "carol": False}
    assert zones(out, "stolen", "borrowed", "elf") == {
        "stolen": "left_game", "borrowed": "exile", "elf": "battlefield"}
    assert sorted(e["object"] for e in events(out, "removed_from_combat")) == [
        "borrowed", "elf", "stolen"]
    assert hits(out) == [("combat_damage", "orc", "carol", 3)]
    assert lives(out) == {"alice": 20, "bob": 0, "carol": 17}
    assert out["game_over"] is None


APNAP_THREE = """
active_player = "alice"
turn_order = ["alice", "carol", "bob"]
[players.alice]
[players.bob]
[players.carol]
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "a_src"
controller = "alice"
types = ["enchantment"]
[[permanents]]
id = "b_src"
controller = "bob"
types = ["enchantment"]
[[permanents]]
id = "c_src"
controller = "carol"
types = ["enchantment"]
[[triggers]]
when = "attack"
source = "a_src"
actions = [ { do = "gain_life", player = "alice", amount = 1 } ]
[[triggers]]
when = "attack"
source = "b_src"
actions = [ { do = "gain_life", player = "bob", amount = 1 } ]
[[triggers]]
when = "attack"
source = "c_src"
actions = [ { do = "gain_life", player = "carol", amount = 1 } ]
[combat]
attacks = { orc = "bob" }
"""


def test_603_3b_apnap_order_follows_turn_order_not_player_listing() -> None:
    """603.3b, 101.4: triggers go on the stack in APNAP order, the active player then
    the others in turn order (alice, carol, bob), so bob's resolves first and
    alice's last."""
    out = run(APNAP_THREE)
    assert out["ok"] is True
    assert [e["player"] for e in events(out, "trigger")] == ["alice", "carol", "bob"]
    assert [e["player"] for e in events(out, "resolve")] == ["bob", "carol", "alice"]
    assert lives(out) == {"alice": 21, "bob": 18, "carol": 21}


LEAVE_PENDING = THREE_PLAYERS.replace("[players.bob]", "[players.bob]\nlife = 6") + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "a_src"
controller = "alice"
types = ["enchantment"]
[[permanents]]
id = "b_src"
controller = "bob"
types = ["enchantment"]
[[permanents]]
id = "c_src"
controller = "carol"
types = ["enchantment"]
[[triggers]]
when = "damage"
source = "a_src"
actions = [ { do = "gain_life", player = "alice", amount = 1 } ]
[[triggers]]
when = "damage"
source = "b_src"
actions = [ { do = "gain_life", player = "bob", amount = 10 } ]
[[triggers]]
when = "damage"
source = "c_src"
actions = [ { do = "lose_life", player = "bob", amount = 5 } ]
[combat]
attacks = { orc = "bob" }
"""


def test_800_4a_abilities_on_the_stack_of_a_player_who_left_cease_to_exist() -> None:
    """603.3b: the three triggers stack alice, bob, carol; carol's resolves first and
    bob drops to -2 and leaves; 800.4a: his trigger on the stack ceases to exist
    (he never gains 10) and his enchantment leaves the game; alice's still
    resolves."""
    out = run(LEAVE_PENDING)
    assert out["ok"] is True
    assert [e["player"] for e in events(out, "trigger")] == ["alice", "bob", "carol"]
    assert [e["player"] for e in events(out, "resolve")] == ["carol", "alice"]
    assert [e["player"] for e in events(out, "left_game")] == ["bob"]
    assert lives(out) == {"alice": 21, "bob": -2, "carol": 20}
    assert zones(out, "b_src") == {"b_src": "left_game"}


TWO_LOSE = "through = \"cleanup\"\n" + THREE_PLAYERS.replace(
    "[players.bob]\n[players.carol]",
    "[players.bob]\nlife = 2\n[players.carol]\nlife = 2") + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "elf"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "a_src"
controller = "alice"
types = ["enchantment"]
[[triggers]]
when = "damage"
source = "a_src"
actions = [ { do = "gain_life", player = "alice", amount = 1 } ]
[combat]
attacks = { orc = "bob", elf = "carol" }
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "end_of_combat"
source = "orc"
actions = [ { do = "gain_life", player = "alice", amount = 5 } ]
"""


def test_104_2a_both_opponents_losing_at_once_ends_the_game_immediately() -> None:
    """704.5a: bob and carol lose simultaneously; 104.2a: alice's opponents have all
    left, so she wins at once: the game ends in the combat damage step and no
    trigger resolves afterwards (alice stays at 20)."""
    out = run(TWO_LOSE)
    assert out["ok"] is True
    assert out["game_over"] == {"winners": ["alice"], "losers": ["bob", "carol"],
                                "draw": False, "step": "combat_damage", "rule": "104.2a"}
    assert [e["player"] for e in events(out, "lost")] == ["bob", "carol"]
    assert events(out, "resolve") == []
    assert lives(out) == {"alice": 20, "bob": -1, "carol": -1}


ALL_LOSE = """
active_player = "alice"
turn_order = ["alice", "bob", "carol"]
[players.alice]
life = 1
[players.bob]
life = 1
[players.carol]
life = 1
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[combat]
attacks = { orc = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "lose_life"
player = "each"
amount = 1
"""


def test_104_4a_all_remaining_players_losing_simultaneously_is_a_draw() -> None:
    """104.4a: all three players go to 0 at once and lose simultaneously (704.5a);
    the game is a draw, ending in the declare attackers step before any damage."""
    out = run(ALL_LOSE)
    assert out["ok"] is True
    assert out["game_over"] == {"winners": [], "losers": ["alice", "bob", "carol"],
                                "draw": True, "step": "declare_attackers", "rule": "104.4a"}
    assert lost(out) == {"alice": True, "bob": True, "carol": True}
    assert hits(out) == []


# --- Multiplayer: who blocks ------------------------------------------------

MP_PLANESWALKER = THREE_PLAYERS + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "jace"
controller = "carol"
types = ["planeswalker"]
loyalty = 5
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { orc = "jace" }
blocks = { bear = "orc" }
"""


def test_509_1a_only_the_attacked_planeswalkers_controller_may_block_in_free_for_all() -> None:
    """506.2a, 509.1a: a creature may block only a creature attacking its controller,
    a planeswalker they control or a battle they protect; the orc attacks carol's
    planeswalker, so bob's bear can't block it."""
    out = run(MP_PLANESWALKER)
    assert illegal(out) == (False, "illegal_block", "509.1a", ["bear", "orc"])
    assert "'carol' defends" in out["error"]["message"]


TWO_HG_PLANESWALKER = TWO_HEADED_GIANT + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "elf"
controller = "carol"
power = 2
toughness = 2
[[permanents]]
id = "jace"
controller = "dave"
types = ["planeswalker"]
loyalty = 5
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { orc = "jace", elf = "dave" }
blocks = { bear = "orc" }
"""


def test_805_10d_in_2hg_a_teammate_may_block_for_the_other_players_planeswalker() -> None:
    """805.10d: in Two-Headed Giant bob may block a creature attacking his teammate
    dave's planeswalker; jace keeps its 5 loyalty, the elf's 2 comes off the shared
    team life (810.4, 810.9: 30 - 2)."""
    out = run(TWO_HG_PLANESWALKER)
    assert out["ok"] is True
    assert [(e["attacker"], e["blocker"]) for e in events(out, "block")] == [("orc", "bear")]
    assert hits(out) == [("combat_damage", "orc", "bear", 3),
                         ("combat_damage", "elf", "dave", 2),
                         ("combat_damage", "bear", "orc", 2)]
    assert out["permanents"]["jace"]["loyalty"] == 5
    assert zones(out, "bear", "jace") == {"bear": "graveyard", "jace": "battlefield"}
    assert out["teams"]["blue"]["life"] == 28
    assert out["teams"]["red"]["life"] == 30


TWO_HG_MISC = TWO_HEADED_GIANT + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
keywords = ["lifelink"]
[[permanents]]
id = "elf"
controller = "carol"
power = 2
toughness = 2
keywords = ["lifelink"]
[[permanents]]
id = "lib"
controller = "bob"
zone = "library"
types = ["land"]
[combat]
attacks = { orc = "bob", elf = "dave" }
[[combat.actions]]
after = "declare_attackers"
do = "gain_life"
player = "each"
amount = 1
[[combat.actions]]
after = "combat_damage"
do = "draw"
player = "dave"
"""


def test_810_9_810_8a_2hg_life_is_gained_individually_and_a_team_loses_together() -> None:
    """810.9: each player gains 1 individually, so each team gains 2; lifelink gains
    3 and 2 for the red team (37), the blue team loses 5 (27). 704.5b: dave draws
    from an empty library and loses; 810.8a: so does his teammate bob, and the red
    team wins (104.2c)."""
    out = run(TWO_HG_MISC)
    assert out["ok"] is True
    assert out["teams"]["red"]["life"] == 37
    assert out["teams"]["blue"]["life"] == 27
    assert [(e["rule"], e["player"]) for e in events(out, "lost")] == [
        ("704.5b", "dave"), ("810.8a", "bob")]
    assert out["game_over"]["winners"] == ["alice", "carol"]
    assert sorted(out["game_over"]["losers"]) == ["bob", "dave"]
    assert out["game_over"]["rule"] == "104.2c"


LURE_MULTIPLAYER = THREE_PLAYERS + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
lure = true
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "wolf"
controller = "carol"
power = 2
toughness = 2
blocks_if_able = true
[combat]
attacks = { orc = "bob" }
blocks = { bear = "orc" }
"""


def test_509_1c_lure_binds_only_the_defending_players_creatures_in_free_for_all() -> None:
    """509.1a, 509.1c: carol isn't defending against the orc (it attacks bob), so her
    wolf can't block it and neither the lure nor its "blocks if able" requires it
    to; bob's bear blocking alone is legal."""
    out = run(LURE_MULTIPLAYER)
    assert out["ok"] is True
    assert [(e["attacker"], e["blocker"]) for e in events(out, "block")] == [("orc", "bear")]
    assert zones(out, "bear", "wolf") == {"bear": "graveyard", "wolf": "battlefield"}
    assert lives(out) == {"alice": 20, "bob": 20, "carol": 20}


# --- Tokens and a departed player -------------------------------------------

TOKEN_DIES = TWO_PLAYERS + """
[[permanents]]
id = "sol"
controller = "alice"
power = 1
toughness = 1
token = true
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[[triggers]]
when = "dies"
source = "sol"
match = { object = "self" }
actions = [ { do = "gain_life", player = "alice", amount = 2 } ]
[combat]
attacks = { sol = "bob" }
blocks = { bear = "sol" }
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "leaves"
object = "sol"
source = "sol"
actions = [ { do = "gain_life", player = "alice", amount = 3 } ]
"""


def test_603_10a_a_dying_tokens_leave_triggers_still_trigger_after_it_ceases_to_exist() -> None:
    """603.10a: leaves-the-battlefield abilities look back in time, so the token's own
    dies trigger and a delayed "when it leaves" trigger both trigger and resolve
    (alice gains 2 and 3) though the token has ceased to exist (704.5d)."""
    out = run(TOKEN_DIES)
    assert out["ok"] is True
    assert [(e["rule"], e["object"]) for e in events(out, "ceases_to_exist")] == [
        ("704.5d", "sol")]
    assert sorted(e["ability"] for e in events(out, "resolve")) == ["delayed", "written"]
    assert sorted(e["amount"] for e in events(out, "life_gain")) == [2, 3]
    assert zones(out, "sol") == {"sol": "ceased"}
    assert lives(out) == {"alice": 25, "bob": 20}


TOKEN_FOR_DEPARTED = THREE_PLAYERS.replace("[players.bob]", "[players.bob]\nlife = 1") + """
[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3
[combat]
attacks = { orc = "carol" }
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "end_of_combat"
source = "orc"
text = "bob creates a token, alice gains 1"
actions = [
    { do = "create_token", token = { id = "sp", controller = "bob", power = 1, toughness = 1 } },
    { do = "gain_life", player = "alice", amount = 1 },
]
[[combat.actions]]
after = "declare_blockers"
do = "lose_life"
player = "bob"
amount = 1
"""


def test_800_4b_no_token_is_created_for_a_player_who_left_the_game() -> None:
    """800.4b: bob has left the game (704.5a, 800.4a) when the delayed trigger tries
    to create a token under his control, so no token is created; the rest of the
    ability still happens (alice gains 1)."""
    out = run(TOKEN_FOR_DEPARTED)
    assert out["ok"] is True
    assert [e["player"] for e in events(out, "left_game")] == ["bob"]
    skipped = events(out, "skipped")
    assert [(e["step"], e["rule"]) for e in skipped] == [("end_of_combat", "608.2b")]
    assert "800.4a" in skipped[0]["detail"]
    assert "sp" not in out["permanents"]
    assert lives(out) == {"alice": 21, "bob": 0, "carol": 17}
