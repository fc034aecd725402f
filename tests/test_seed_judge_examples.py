"""Seed examples from the judge class on the combat phase and from the rulings,
one test each, run from scenario files as the command line reads them (or
through the API where the file format has no such action).

Every example in the seeds is a test case. Ids: ``q<N>`` is the N-th player
question at the end of the judge class (seed 004; ``q4`` and ``q7`` are in
test_kw_flanking.py and test_kw_exalted.py), ``t<N>`` is line N of that class;
``000_<rule>`` is the February 2009 rule 310 quoted by seed 000 (``rules =
"sixth"``, combat damage on the stack); ``002_t<N>`` is line N of the damage
and combat damage step pages of seed 002. Where the class asks a question and
leaves the answer to the reader, the docstring gives the answer the rules cited
give. Rule numbers are the September 2026 edition's, or the 2009 edition's
(310.x) for ``sixth``.
"""

from __future__ import annotations

from typing import Any

from _outcomes import events, hits, run, zones
from redzone import Engine, GainControl, IllegalBlockError, creature


def life(out: dict[str, Any]) -> tuple[int, int]:
    """(alice's life, bob's life)."""
    return out["players"]["alice"]["life"], out["players"]["bob"]["life"]


# --- Seed 000: rule 310 of February 2009 (combat damage uses the stack) ---

SIXTH_REMOVED_FROM_COMBAT = """
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "ogre"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { ogre = "bob" }
blocks = { bear = "ogre" }
[[combat.actions]]
after = "combat_damage_assigned"
do = "remove_from_combat"
target = "bear"
[[combat.actions]]
after = "combat_damage_assigned"
do = "pump"
target = "ogre"
power = 5
toughness = 0
"""


def test_seed_000_310_4a_damage_is_dealt_as_originally_assigned() -> None:
    """310.4a (sixth), 310.4c: "Combat damage is dealt as it was originally assigned
    even if ... its power has changed, or the creature ... receiving damage has left
    combat." The ogre assigns 3 to the bear; with the damage on the stack the bear is
    removed from combat and the ogre gets +5/+0: the bear is still dealt 3 (not 8),
    dies, and deals its 2 to the ogre."""
    out = run(SIXTH_REMOVED_FROM_COMBAT)
    assert out["ok"] is True
    assert hits(out, "assign") == [("combat_damage_assigned", "ogre", "bear", 3),
                                   ("combat_damage_assigned", "bear", "ogre", 2)]
    assert hits(out, "damage") == [("combat_damage", "ogre", "bear", 3),
                                   ("combat_damage", "bear", "ogre", 2)]
    assert out["permanents"]["ogre"]["power"] == 8
    assert (out["permanents"]["ogre"]["damage"], zones(out, "bear")) == (2, {"bear": "graveyard"})


SIXTH_PLANESWALKER_LEFT = """
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "ogre"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "jace"
controller = "bob"
types = ["planeswalker"]
loyalty = 5
[[permanents]]
id = "ajani"
controller = "bob"
types = ["planeswalker"]
loyalty = 5
[combat]
attacks = { bear = "jace", ogre = "ajani" }
[[combat.actions]]
after = "declare_blockers"
do = "move"
target = "jace"
to = "hand"
[[combat.actions]]
after = "combat_damage_assigned"
do = "move"
target = "ajani"
to = "hand"
"""


def test_seed_000_310_2b_310_4c_a_planeswalker_gone_is_dealt_nothing() -> None:
    """310.2b (sixth): an unblocked creature attacking "a planeswalker that has left
    play ... will assign no combat damage"; 310.4c: "If a ... planeswalker that was
    assigned combat damage is no longer in play ... the damage assigned to it isn't
    dealt." Jace leaves before assignment (the bear assigns nothing); Ajani leaves
    with the ogre's 3 on the stack (assigned, never dealt)."""
    out = run(SIXTH_PLANESWALKER_LEFT)
    assert out["ok"] is True
    assert hits(out, "assign") == [("combat_damage_assigned", "ogre", "ajani", 3)]
    assert hits(out, "damage") == []
    assert zones(out, "jace", "ajani") == {"jace": "hand", "ajani": "hand"}
    assert life(out) == (20, 20)


SIXTH_FIRST_STRIKE = """
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "fs"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike"]
[[permanents]]
id = "ds"
controller = "alice"
power = 1
toughness = 1
keywords = ["double strike"]
[[permanents]]
id = "plain"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "zero"
controller = "alice"
power = 0
toughness = 3
[combat]
attacks = { fs = "bob", ds = "bob", plain = "bob", zero = "bob" }
"""


def test_seed_000_310_5_310_2a_a_second_combat_damage_step() -> None:
    """310.5 (sixth): with a first striker, "creatures without first strike or double
    strike don't assign combat damage" in the first step; "In the second combat damage
    step, any attackers and blockers that didn't assign combat damage in the first
    step, plus any creatures with double strike, assign". 310.2a: the 0-power creature
    assigns nothing. Bob: 20 - (2 + 1) - (1 + 3) = 13."""
    out = run(SIXTH_FIRST_STRIKE)
    assert out["ok"] is True
    assert out["steps"] == ["beginning_of_combat", "declare_attackers", "declare_blockers",
                            "first_strike_damage_assigned", "first_strike_damage",
                            "combat_damage_assigned", "combat_damage", "end_of_combat"]
    assert hits(out, "assign") == [("first_strike_damage_assigned", "fs", "bob", 2),
                                   ("first_strike_damage_assigned", "ds", "bob", 1),
                                   ("combat_damage_assigned", "ds", "bob", 1),
                                   ("combat_damage_assigned", "plain", "bob", 3)]
    assert life(out) == (20, 13)


# --- Seed 002: the damage and combat damage step pages ---

OUTRIGGER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "outrigger"
name = "Saprazzan Outrigger"
controller = "alice"
power = 5
toughness = 5
[combat]
attacks = { outrigger = "bob" }
[[triggers]]
when = "attack"
source = "outrigger"
match = { attacker = "self" }
text = "put it on top of its owner's library at end of combat"
[[triggers.actions]]
do = "create_delayed_trigger"
when = "end_of_combat"
source = "outrigger"
text = "put it on top of its owner's library"
[[triggers.actions.actions]]
do = "move"
target = "outrigger"
to = "library"
"""


def test_seed_002_t5_saprazzan_outrigger_goes_home_at_end_of_combat() -> None:
    """511.2, 603.7: "the End of Combat Step begins with any 'end of combat' triggers
    (like Saprazzan Outrigger: When this attacks or blocks, put it on top of its owner's
    library at end of combat) going on the stack." It deals its 5 first, then goes to
    the top of alice's library in the end of combat step."""
    out = run(OUTRIGGER)
    assert out["ok"] is True
    assert life(out) == (20, 15)
    (moved,) = events(out, "zone_change")
    assert (moved["step"], moved["object"], moved["zone"]) == (
        "end_of_combat", "outrigger", "library")
    assert [e["step"] for e in events(out, "trigger")] == ["declare_attackers", "end_of_combat"]
    assert out["zones"]["alice"]["library"] == ["outrigger"]


DAMAGE_STAYS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "land"
controller = "bob"
types = ["land"]
subtypes = ["Forest"]
[combat]
attacks = { bear = "bob" }
blocks = { land = "bear" }
[[combat.actions]]
after = "beginning_of_combat"
do = "continuous"
affects = ["land"]
add_types = ["creature"]
set_power = 1
set_toughness = 5
[[combat.actions]]
after = "combat_damage"
do = "continuous"
affects = ["land"]
remove_types = ["creature"]
[[combat.actions]]
after = "end_of_combat"
do = "continuous"
affects = ["land"]
add_types = ["creature"]
set_power = 2
set_toughness = 2
"""


def test_seed_002_t30_damage_stays_on_a_permanent_that_stops_being_a_creature() -> None:
    """120.6: "Damage marked on a creature remains until the cleanup step, even if that
    permanent stops being a creature." An animated 1/5 land blocks and is dealt 2; it
    stops being a creature (removed from combat, 506.4) and keeps the 2; made a 2/2
    again at end of combat, it has lethal damage and is destroyed (704.5g)."""
    out = run(DAMAGE_STAYS)
    assert out["ok"] is True
    assert hits(out, "damage") == [("combat_damage", "bear", "land", 2),
                                   ("combat_damage", "land", "bear", 1)]
    assert [(e["step"], e["object"]) for e in events(out, "removed_from_combat")] == [
        ("combat_damage", "land")]
    (destroyed,) = events(out, "destroyed")
    assert (destroyed["step"], destroyed["object"], destroyed["rule"]) == (
        "end_of_combat", "land", "704.5g")
    assert zones(out, "land", "bear") == {"land": "graveyard", "bear": "battlefield"}


BLOCKERS_REMOVED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "rhino"
controller = "alice"
power = 4
toughness = 4
keywords = ["trample"]
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "wolf"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "elder"
name = "Sakura-Tribe Elder"
controller = "bob"
power = 1
toughness = 1
[combat]
attacks = { rhino = "bob", wolf = "bob" }
blocks = { bear = "rhino", elder = "wolf" }
[[combat.actions]]
after = "declare_blockers"
do = "destroy"
target = "bear"
[[combat.actions]]
after = "declare_blockers"
do = "sacrifice"
target = "elder"
"""


def test_seed_002_t48_blocked_with_its_blocker_gone_only_trample_deals_damage() -> None:
    """509.1h, 510.1c, 702.19d: "Attacking creatures that are blocked but have the
    blocking creature removed from combat ... deal no combat damage. Attacking
    creatures with Trample may deal combat damage to the defending player in this
    case." Both blockers leave: the wolf deals nothing, the rhino tramples 4 to bob."""
    out = run(BLOCKERS_REMOVED)
    assert out["ok"] is True
    assert [e["object"] for e in events(out, "blocked")] == ["rhino", "wolf"]
    assert hits(out, "assign") == [("combat_damage", "rhino", "bob", 4)]
    assert life(out) == (20, 16)
    assert zones(out, "bear", "elder") == {"bear": "graveyard", "elder": "graveyard"}


# --- Seed 004: the judge class, its text ---

SILKBIND = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "faerie"
name = "Silkbind Faerie"
controller = "alice"
power = 1
toughness = 3
keywords = ["flying"]
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { faerie = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "untap"
target = "faerie"
[[combat.actions]]
after = "declare_attackers"
do = "tap"
target = "bear"
"""


def test_seed_t81_silkbind_faerie_untapped_still_attacks() -> None:
    """506.4b, 508.1f: "Untapping a creature after it has been declared attacking does
    not change its combat status. If you declare Silkbind Faerie an attacker, then ...
    activate her ability to tap a potential enemy blocker, she will still remain
    attacking." Untapped, she is unblocked and deals her 1 to bob."""
    out = run(SILKBIND)
    assert out["ok"] is True
    assert out["permanents"]["faerie"]["tapped"] is False
    assert out["permanents"]["bear"]["tapped"] is True
    assert [e["object"] for e in events(out, "unblocked")] == ["faerie"]
    assert hits(out, "damage") == [("combat_damage", "faerie", "bob", 1)]
    assert life(out) == (20, 19)


CAPTAIN = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "captain"
name = "Preeminent Captain"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike"]
[[permanents]]
id = "kazuul"
name = "Kazuul, Tyrant of the Cliffs"
controller = "bob"
power = 5
toughness = 4
[combat]
attacks = { captain = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "create_token"
token = { id = "soldier", name = "Soldier", controller = "alice", power = 1, toughness = 1 }
tapped = true
attacking = "bob"
[[triggers]]
when = "attack"
source = "kazuul"
text = "create a 3/3 Ogre unless its controller pays 3 (here: bob gains 1 as a marker)"
[[triggers.actions]]
do = "gain_life"
player = "bob"
amount = 1
"""


def test_seed_t93_a_soldier_put_onto_the_battlefield_attacking_never_attacked() -> None:
    """508.3a, 508.4: Preeminent Captain's Soldier is put onto the battlefield
    attacking; "When such a soldier appears on the battlefield, Kazuul, Tyrant of the
    Cliffs' ability doesn't trigger." Kazuul triggers once, for the Captain; the
    Soldier still attacks and deals 1. Bob: 20 + 1 - 2 - 1 = 18."""
    out = run(CAPTAIN)
    assert out["ok"] is True
    assert [(e["step"], e["source"]) for e in events(out, "trigger")] == [
        ("declare_attackers", "kazuul")]
    assert [(e["attacker"], e["target"]) for e in events(out, "enters_attacking")] == [
        ("soldier", "bob")]
    assert hits(out, "damage") == [("first_strike_damage", "captain", "bob", 2),
                                   ("combat_damage", "soldier", "bob", 1)]
    assert life(out) == (20, 18)


PALACE_GUARD = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "unicorn"
name = "Prized Unicorn"
controller = "alice"
power = 2
toughness = 2
lure = true
[[permanents]]
id = "bard"
name = "Elvish Bard"
controller = "alice"
power = 2
toughness = 4
lure = true
[[permanents]]
id = "guard"
name = "Palace Guard"
controller = "bob"
power = 1
toughness = 4
can_block_additional = "any"
[combat]
attacks = { unicorn = "bob", bard = "bob" }
blocks = { guard = ["unicorn", "bard"] }
"""


def test_seed_t141_palace_guard_must_block_the_unicorn_and_the_bard() -> None:
    """509.1c: "The cunning opponent attacks you with two creatures: Prized Unicorn and
    Elvish Bard. If you control Palace Guard, you will need to block both with it and
    lose it." Blocking only the Unicorn obeys 1 of 2 requirements: illegal. Blocking
    both, the Guard is dealt 2 + 2 and dies."""
    only_one = run(PALACE_GUARD.replace('["unicorn", "bard"]', '["unicorn"]'))
    assert only_one["ok"] is False
    assert only_one["error"]["rule"] == "509.1c"
    assert sorted(only_one["error"]["objects"]) == ["bard", "guard"]
    out = run(PALACE_GUARD)
    assert out["ok"] is True
    assert [e["object"] for e in events(out, "blocked")] == ["unicorn", "bard"]
    assert hits(out, "damage") == [("combat_damage", "unicorn", "guard", 2),
                                   ("combat_damage", "bard", "guard", 2),
                                   ("combat_damage", "guard", "unicorn", 1)]
    assert zones(out, "guard", "unicorn", "bard") == {
        "guard": "graveyard", "unicorn": "battlefield", "bard": "battlefield"}


SAPROLING_BLOCKS_FLIER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "drake"
controller = "alice"
power = 2
toughness = 2
keywords = ["flying"]
[combat]
attacks = { drake = "bob" }
[[combat.actions]]
after = "declare_blockers"
do = "enter_blocking"
attacker = "drake"
[combat.actions.permanent]
id = "saproling"
name = "Saproling"
controller = "bob"
power = 1
toughness = 1
token = true
"""


def test_seed_t149_a_saproling_put_onto_the_battlefield_blocking_ignores_flying() -> None:
    """509.4b, 702.9b: Flash Foliage's Saproling "was never declared as blocker ... It
    can completely ignore evasion abilities, you may easily target a creature with
    flying to be blocked with it." The flying drake becomes blocked, deals its 2 to
    the Saproling instead of bob, and takes 1."""
    out = run(SAPROLING_BLOCKS_FLIER)
    assert out["ok"] is True
    assert [(e["step"], e["object"]) for e in events(out, "blocked")] == [
        ("declare_blockers", "drake")]
    assert hits(out, "damage") == [("combat_damage", "drake", "saproling", 2),
                                   ("combat_damage", "saproling", "drake", 1)]
    assert life(out) == (20, 20)
    assert out["permanents"]["drake"]["damage"] == 1
    assert out["permanents"]["saproling"]["zone"] == "ceased"


GEIST = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "geist"
name = "Geist of Saint Traft"
controller = "alice"
power = 2
toughness = 2
[combat]
attacks = { geist = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "create_token"
tapped = true
attacking = "bob"
[combat.actions.token]
id = "angel"
name = "Angel"
controller = "alice"
power = 4
toughness = 4
keywords = ["flying"]
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "end_of_combat"
source = "geist"
text = "exile that token at end of combat"
[[combat.actions.actions]]
do = "exile"
target = "angel"
"""


def test_seed_t227_geists_angel_is_exiled_in_the_end_of_combat_step() -> None:
    """511.2, 603.7: "The Angel token generated by Geist of Saint Traft's ability is
    exiled precisely in the end of combat step." It deals its 4 first (bob: 20 - 2 - 4),
    then it is exiled as the end of combat step begins and ceases to exist (704.5d)."""
    out = run(GEIST)
    assert out["ok"] is True
    assert life(out) == (20, 14)
    (exiled,) = events(out, "zone_change")
    assert (exiled["step"], exiled["object"], exiled["zone"]) == ("end_of_combat", "angel", "exile")
    assert out["permanents"]["angel"]["zone"] == "ceased"
    assert out["permanents"]["geist"]["zone"] == "battlefield"


NINJUTSU = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "rogue"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "ninja"
name = "Ninja of the Deep Hours"
controller = "alice"
power = 2
toughness = 2
zone = "hand"
[combat]
attacks = { rogue = "bob" }
[[combat.actions]]
after = "declare_blockers"
do = "move"
target = "rogue"
to = "hand"
[[combat.actions]]
after = "declare_blockers"
do = "enter_blocking"
attacker = "rogue"
[combat.actions.permanent]
id = "saproling"
name = "Saproling"
controller = "bob"
power = 1
toughness = 1
token = true
[[combat.actions]]
after = "declare_blockers"
do = "move"
target = "ninja"
to = "battlefield"
tapped = true
attacking = "bob"
"""


def test_seed_t244_flash_foliage_in_response_to_ninjutsu_blocks_nothing() -> None:
    """509.4a, 506.3e, 508.4d (homework: "You activate Ninjutsu. In response, the
    cunning opponent casts Flash Foliage and blocks the creature. What happens?"): the
    unblocked rogue is already back in hand (ninjutsu's cost), so the Saproling enters
    but is never a blocking creature; the Ninja then enters tapped and attacking,
    unblocked, and deals its 2."""
    out = run(NINJUTSU)
    assert out["ok"] is True
    (not_blocking,) = events(out, "not_blocking")
    assert (not_blocking["object"], not_blocking["target"], not_blocking["rule"]) == (
        "saproling", "rogue", "509.4a")
    assert [(e["object"], e["rule"]) for e in events(out, "unblocked", "declare_blockers")] == [
        ("rogue", "509.1h"), ("ninja", "508.4d")]
    assert events(out, "blocked") == []
    assert hits(out, "damage") == [("combat_damage", "ninja", "bob", 2)]
    assert zones(out, "rogue", "ninja", "saproling") == {
        "rogue": "hand", "ninja": "battlefield", "saproling": "battlefield"}
    assert life(out) == (20, 18)


# --- Seed 004: the judge class, the players' questions ---

THREE_THREE_SPLIT = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "three"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "a"
controller = "bob"
power = 2
toughness = 3
[[permanents]]
id = "b"
controller = "bob"
power = 2
toughness = 4
[combat]
attacks = { three = "bob" }
blocks = { a = "three", b = "three" }
[combat.assign]
three = { a = 1, b = 2 }
"""


def test_seed_q5_a_3_3_may_split_1_and_2_between_its_two_blockers() -> None:
    """510.1c (current): "Can I assign damage in the following way: one damage to the
    2/3 dude and 2 damage to the 2/4?" Yes: "two or more creatures ... divided as its
    controller chooses among them" (seed 003), no lethal damage first. Neither blocker
    dies; the 3/3 is dealt 4 and does."""
    out = run(THREE_THREE_SPLIT)
    assert out["ok"] is True
    assert hits(out, "damage")[:2] == [("combat_damage", "three", "a", 1),
                                       ("combat_damage", "three", "b", 2)]
    assert [out["permanents"][i]["damage"] for i in ("a", "b")] == [1, 2]
    assert zones(out, "a", "b", "three") == {
        "a": "battlefield", "b": "battlefield", "three": "graveyard"}


ONE_LIFE = """
active_player = "alice"
[players.alice]
life = 1
[players.bob]
life = 1
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[combat]
attacks = { bear = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "deal_damage"
source = { name = "Shock", controller = "bob", colors = ["red"] }
target = "alice"
amount = 2
"""


def test_seed_q6_at_one_life_an_instant_after_attackers_wins_the_game() -> None:
    """704.5a, 104.2a: "Both I and my opponent are at 1 life ... After attackers are
    declared I respond with an instant spell that deals damage to my opponent ... he
    dies ... I win." Right: the attacker loses as a state-based action in the declare
    attackers step and the game ends; no combat damage is dealt."""
    out = run(ONE_LIFE)
    assert out["ok"] is True
    assert out["game_over"]["winners"] == ["bob"]
    assert out["game_over"]["losers"] == ["alice"]
    assert out["game_over"]["step"] == "declare_attackers"
    assert out["players"]["alice"]["lost"] is True
    assert out["steps"] == ["beginning_of_combat", "declare_attackers"]
    assert life(out) == (-1, 1)
    assert [e["combat"] for e in events(out, "damage")] == [False]


BEASTMASTER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "ascension"
name = "Beastmaster Ascension"
controller = "alice"
types = ["enchantment"]
[[permanents]]
id = "a"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "b"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "c"
controller = "alice"
power = 1
toughness = 1
[combat]
attacks = { a = "bob", b = "bob", c = "bob" }
[[triggers]]
when = "attack"
source = "ascension"
text = "put a quest counter on Beastmaster Ascension"
[[triggers.actions]]
do = "add_counters"
target = "ascension"
counters = { quest = 1 }
"""


def test_seed_q11_beastmaster_ascension_counts_each_attacking_creature() -> None:
    """508.3a, 603.2: "what happens if we attack with not one but multiple creatures
    ..., will counters be put for each attacking creature or just for one?" For each:
    "Whenever a creature you control attacks" triggers once per creature declared as
    an attacker. Three attackers, three quest counters."""
    out = run(BEASTMASTER)
    assert out["ok"] is True
    assert len(events(out, "trigger", "declare_attackers")) == 3
    assert out["permanents"]["ascension"]["counters"] == {"quest": 3}


INFILTRATION_LENS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "rogue"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "lens"
name = "Infiltration Lens"
controller = "alice"
types = ["artifact"]
[[permanents]]
id = "b1"
controller = "bob"
power = 1
toughness = 1
[[permanents]]
id = "b2"
controller = "bob"
power = 1
toughness = 1
[[permanents]]
id = "c1"
controller = "alice"
zone = "library"
types = ["land"]
[[permanents]]
id = "c2"
controller = "alice"
zone = "library"
types = ["land"]
[[permanents]]
id = "c3"
controller = "alice"
zone = "library"
types = ["land"]
[[permanents]]
id = "c4"
controller = "alice"
zone = "library"
types = ["land"]
[[permanents]]
id = "c5"
controller = "alice"
zone = "library"
types = ["land"]
[combat]
attacks = { rogue = "bob" }
blocks = { b1 = "rogue", b2 = "rogue" }
[[triggers]]
when = "block"
source = "lens"
match = { attacker = "rogue" }
text = "you may draw two cards"
[[triggers.actions]]
do = "draw"
player = "alice"
count = 2
"""


def test_seed_q14_infiltration_lens_draws_two_per_blocking_creature() -> None:
    """509.3d: "if multiple creatures block a creature with lens, do I draw 2 cards per
    blocking creature?" Yes: "Whenever [a creature] becomes blocked by a creature"
    triggers once for each creature that blocks it. Two blockers, four cards."""
    out = run(INFILTRATION_LENS)
    assert out["ok"] is True
    assert [e["source"] for e in events(out, "trigger", "declare_blockers")] == ["lens", "lens"]
    assert len(events(out, "draws")) == 4
    assert out["zones"]["alice"]["hand"] == ["c1", "c2", "c3", "c4"]
    assert out["zones"]["alice"]["library"] == ["c5"]


EULOGIST = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "blastoderm"
name = "Blastoderm"
controller = "alice"
power = 5
toughness = 5
[[permanents]]
id = "eulogist"
name = "Elvish Eulogist"
controller = "bob"
power = 1
toughness = 1
[combat]
attacks = { blastoderm = "bob" }
blocks = { eulogist = "blastoderm" }
[[combat.actions]]
after = "combat_damage"
do = "sacrifice"
target = "eulogist"
[[combat.actions]]
after = "combat_damage"
do = "gain_life"
player = "bob"
amount = 1
"""


def test_seed_q15_elvish_eulogist_cant_be_sacrificed_after_lethal_damage() -> None:
    """510.2, 510.3a, 704.5g: "Damage is dealt, Blastoderm takes 1 damage, Elvish
    Eulogist takes 5 damage. Can the player ... sacrifice it after damage and gain
    life?" No: state-based actions put it into the graveyard before anyone gets
    priority (the class: "After this, SBA are checked, and creatures with lethal damage
    are put into their owner's graveyards ..., and the active player finally receives
    priority"). The sacrifice is refused, the Eulogist is not on the battlefield."""
    out = run(EULOGIST)
    assert out["ok"] is False
    assert out["error"]["rule"] == "400.1"
    assert out["error"]["objects"] == ["eulogist"]
    partial = out["partial"]
    assert partial["steps"][-1] == "combat_damage"
    assert partial["permanents"]["eulogist"]["zone"] == "graveyard"
    assert partial["permanents"]["blastoderm"]["damage"] == 1
    assert partial["players"]["bob"]["life"] == 20
    unsacrificed = run(EULOGIST.split("[[combat.actions]]")[0])
    (destroyed,) = events(unsacrificed, "destroyed")
    assert (destroyed["step"], destroyed["object"], destroyed["rule"]) == (
        "combat_damage", "eulogist", "704.5g")


CYCLOPS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "cyclops"
name = "Cyclops Gladiator"
controller = "alice"
power = 4
toughness = 4
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { cyclops = "bob" }
[[triggers]]
when = "attack"
source = "cyclops"
match = { attacker = "self" }
text = "fight-like damage"
[[triggers.actions]]
do = "deal_damage"
source = "cyclops"
target = "bear"
amount = 4
[[triggers.actions]]
do = "deal_damage"
source = "bear"
target = "cyclops"
amount = 2
"""


def test_seed_q16_cyclops_gladiator_fights_and_keeps_attacking() -> None:
    """508.3a, 120.2b, 510.1b: "I believe that when the Cyclops attacks he can deal
    damage to an opponent's creature and continue attacking the same player. Please
    confirm." Confirmed: its attack trigger deals 4 to the bear (which dies) and takes
    2, noncombat; the Cyclops is still an unblocked attacker and deals 4 to bob."""
    out = run(CYCLOPS)
    assert out["ok"] is True
    assert [(e["step"], e["source"], e["target"], e["amount"], e["combat"])
            for e in events(out, "damage")] == [
        ("declare_attackers", "cyclops", "bear", 4, False),
        ("declare_attackers", "bear", "cyclops", 2, False),
        ("combat_damage", "cyclops", "bob", 4, True)]
    assert zones(out, "bear", "cyclops") == {"bear": "graveyard", "cyclops": "battlefield"}
    assert out["permanents"]["cyclops"]["damage"] == 2
    assert life(out) == (20, 16)


HEXMAGE_WURM = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
name = "Craw Wurm"
controller = "alice"
power = 6
toughness = 4
[[permanents]]
id = "hexmage"
name = "Vampire Hexmage"
controller = "bob"
power = 2
toughness = 1
keywords = ["first strike"]
[combat]
attacks = { wurm = "bob" }
blocks = { hexmage = "wurm" }
[[combat.actions]]
after = "declare_blockers"
do = "sacrifice"
target = "hexmage"
"""


def test_seed_q17_craw_wurm_stays_blocked_when_the_hexmage_is_sacrificed() -> None:
    """509.1h, 510.1c: "at the end of declare blockers step I sacrifice Vampire
    Hexmage, will Craw Wurm not be able to damage the player?" Right: it remains
    blocked ("A creature remains blocked even if all the creatures blocking it are
    removed from combat") and, with no blocker left and no trample, assigns nothing."""
    out = run(HEXMAGE_WURM)
    assert out["ok"] is True
    assert [e["object"] for e in events(out, "blocked")] == ["wurm"]
    assert events(out, "unblocked") == []
    assert hits(out, "assign") == [] and hits(out, "damage") == []
    assert zones(out, "hexmage", "wurm") == {"hexmage": "graveyard", "wurm": "battlefield"}
    assert life(out) == (20, 20)


SEIZE_THE_DAY = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "elephant"
controller = "alice"
power = 3
toughness = 3
[[permanents]]
id = "wall"
controller = "bob"
power = 1
toughness = 4
keywords = ["defender"]
[combat]
attacks = { elephant = "bob" }
blocks = { wall = "elephant" }
[[combat.actions]]
after = "end_of_combat"
do = "untap"
target = "elephant"
[[additional_combats]]
attacks = { elephant = "bob" }
blocks = { wall = "elephant" }
"""


def test_seed_q21_the_wall_blocks_the_elephant_again_in_the_second_combat() -> None:
    """509.1a, 500.8, 120.6: "the opponent plays the card Seize the Day, untaps his
    elephant and attacks me again. Question is, can I block the elephant with the wall
    again or not?" Yes: blocking doesn't tap the wall, so it is untapped and may block.
    The damage stays marked through the turn: 3 + 3 kills the 1/4 wall the second
    time."""
    out = run(SEIZE_THE_DAY)
    assert out["ok"] is True
    assert [(e["step"], e["object"]) for e in events(out, "blocked")] == [
        ("declare_blockers", "elephant"), ("declare_blockers#2", "elephant")]
    assert hits(out, "damage") == [("combat_damage", "elephant", "wall", 3),
                                   ("combat_damage", "wall", "elephant", 1),
                                   ("combat_damage#2", "elephant", "wall", 3),
                                   ("combat_damage#2", "wall", "elephant", 1)]
    (destroyed,) = events(out, "destroyed")
    assert (destroyed["step"], destroyed["object"]) == ("combat_damage#2", "wall")
    assert out["permanents"]["elephant"]["damage"] == 2
    assert life(out) == (20, 20)


HEXMAGE_WALL_MAGE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "hexmage"
name = "Vampire Hexmage"
controller = "alice"
power = 2
toughness = 1
keywords = ["first strike"]
[[permanents]]
id = "wall"
name = "Wall of Omens"
controller = "bob"
power = 0
toughness = 4
keywords = ["defender"]
[[permanents]]
id = "mage"
name = "Trinket Mage"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { hexmage = "bob" }
blocks = { wall = "hexmage", mage = "hexmage" }
order = { hexmage = ["wall", "mage"] }
[combat.assign]
hexmage = { mage = 2 }
"""


def test_seed_q24_hexmage_assigns_at_will_today_and_in_order_under_m10() -> None:
    """510.1c: blockers "in this order: 1. Wall of Omens 2. Trinket Mage ... assigns
    damage at his will: 2 to the mage and 0 to the wall ... or strictly according to
    the assignment order"? Today (seed 003's 510.1c, "divided as its controller chooses
    among them"): at will; the Mage dies to first-strike damage and deals none. Under the
    2009 rules (seed 001's 510.1c, ``rules = "m10"``) the Mage "can't" be assigned
    damage before the Wall is assigned lethal damage: illegal."""
    out = run(HEXMAGE_WALL_MAGE)
    assert out["ok"] is True
    assert hits(out, "damage") == [("first_strike_damage", "hexmage", "mage", 2)]
    assert zones(out, "mage", "wall", "hexmage") == {
        "mage": "graveyard", "wall": "battlefield", "hexmage": "battlefield"}
    assert out["permanents"]["wall"]["damage"] == 0
    m10 = run('rules = "m10"\n' + HEXMAGE_WALL_MAGE)
    assert m10["ok"] is False
    assert m10["error"]["rule"] == "510.1c"
    assert sorted(m10["error"]["objects"]) == ["hexmage", "mage", "wall"]


UNICORN_FLAIL = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "unicorn"
name = "Prized Unicorn + Gorgon Flail"
controller = "alice"
power = 3
toughness = 3
keywords = ["deathtouch"]
lure = true
[[permanents]]
id = "a"
controller = "bob"
power = 1
toughness = 5
[[permanents]]
id = "b"
controller = "bob"
power = 1
toughness = 5
[[permanents]]
id = "c"
controller = "bob"
power = 1
toughness = 5
[combat]
attacks = { unicorn = "bob" }
blocks = { a = "unicorn", b = "unicorn", c = "unicorn" }
"""


def test_seed_q25_every_able_creature_blocks_the_unicorn_and_deathtouch_kills_all() -> None:
    """509.1c, 702.2b: "my opponent has several untapped creatures, do they have to
    block my creature? ... will they all die, or do I apply this effect (deathtouch)
    to just one creature?" All that can must block (leaving one out is illegal), and
    the 3-power deathtouch Unicorn assigns 1 to each: all three 1/5s are destroyed
    (704.5h). Their 3 damage kills the 3/3 Unicorn too."""
    partial = run(UNICORN_FLAIL.replace(', c = "unicorn" }', " }"))
    assert partial["ok"] is False
    assert partial["error"]["rule"] == "509.1c"
    assert sorted(partial["error"]["objects"]) == ["c", "unicorn"]
    out = run(UNICORN_FLAIL)
    assert out["ok"] is True
    assert [(s, t, n) for _, s, t, n in hits(out, "damage") if s == "unicorn"] == [
        ("unicorn", "a", 1), ("unicorn", "b", 1), ("unicorn", "c", 1)]
    assert {e["object"]: e["rule"] for e in events(out, "destroyed")} == {
        "a": "704.5h", "b": "704.5h", "c": "704.5h", "unicorn": "704.5g"}
    assert set(zones(out, "a", "b", "c", "unicorn").values()) == {"graveyard"}


UNICORN_TUNNELER = """
active_player = "bob"
[players.alice]
[players.bob]
[[permanents]]
id = "unicorn"
name = "Prized Unicorn"
controller = "bob"
power = 2
toughness = 2
lure = true
cant_be_blocked = true
[[permanents]]
id = "wall"
controller = "alice"
power = 0
toughness = 4
[combat]
attacks = { unicorn = "alice" }
"""


def test_seed_q28_goblin_tunneler_escapes_the_unicorns_requirement() -> None:
    """509.1b, 509.1c: "can I escape the Unicorn's trigger by using Goblin Tunneler's
    effect on it?" Yes: made unblockable ("can't be blocked this turn"), no creature is
    able to block it, so not blocking obeys every requirement that can be obeyed. The
    Unicorn is unblocked and deals 2; without the Tunneler the same non-block is
    illegal."""
    out = run(UNICORN_TUNNELER)
    assert out["ok"] is True
    assert [e["object"] for e in events(out, "unblocked")] == ["unicorn"]
    assert events(out, "blocked") == []
    assert life(out) == (18, 20)
    lured = run(UNICORN_TUNNELER.replace("cant_be_blocked = true\n", ""))
    assert lured["ok"] is False
    assert lured["error"]["rule"] == "509.1c"


def test_seed_q2_a_vigilant_attacker_whose_control_changes_may_block() -> None:
    """506.4, 509.1a (question 2: "I attack with a creature and then the defending
    player gains control of it. If the attacking creature has vigilance, can that
    opponent block another attacking creature of mine with it?"). Yes: changing
    control removes it from combat, and as an untapped creature the defending
    player controls it may block; summoning sickness doesn't stop a blocker.
    Without vigilance it stays tapped from attacking and can't (509.1a)."""
    engine = Engine()
    for keywords in (("vigilance",), ()):
        state = engine.game(["alice", "bob"], [
            creature("knight", "alice", 2, 2, *keywords), creature("bear", "alice", 2, 2)])
        state = engine.declare_attackers(engine.begin_combat(state).state,
                                         {"knight": "bob", "bear": "bob"}).state
        state = engine.perform(state, GainControl("knight", "bob")).state
        knight = state.objects["knight"]
        assert state.combat is not None and not state.combat.in_combat("knight")
        assert knight.controller == "bob" and knight.tapped is not bool(keywords)
        if not keywords:
            try:
                engine.declare_blockers(state, {"knight": "bear"})
            except IllegalBlockError as error:
                assert error.rule == "509.1a"
            else:
                raise AssertionError("a tapped creature blocked")
            continue
        state = engine.declare_blockers(state, {"knight": "bear"}).state
        while engine.next_step(state) == "combat_damage":
            state = engine.combat_damage(state).state
        assert {p: state.objects[p].zone for p in ("knight", "bear")} == {
            "knight": "graveyard", "bear": "graveyard"}
        assert state.players["bob"].life == 20
