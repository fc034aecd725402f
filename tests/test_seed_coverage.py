"""The seed examples test_seed_judge_examples.py leaves out or checks only in
part: one test each (or a few for one example), in its style.

Ids: ``q<N>`` is the N-th player question at the end of the judge class (seed
004), ``t<N>`` line N of that class, ``001``/``002`` the 510.1c examples of the
rulings (seed 001) and the combat damage step page (seed 002), ``000_<rule>``
the February 2009 rule 310 quoted by seed 000 (``rules = "sixth"``, combat damage
on the stack). Rule numbers are the September 2026 edition's
(comprehensive-rules-2026-09-25.txt), or the 2009 edition's (310.x) for
``sixth``. Where a card's ability is beyond the scenario format, a small test
plugin writes the ability; the engine's part (when the restriction is checked,
what assigns combat damage, how many life gain events) is what is asserted.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from _outcomes import events, hits, run, zones
from redzone import (
    Action,
    Activate,
    ActivatedAbility,
    DealDamage,
    Destroy,
    Engine,
    Event,
    GameState,
    Grant,
    IllegalActionError,
    IllegalAttackError,
    IllegalBlockError,
    KeywordSpec,
    Move,
    ObjectId,
    Pump,
    Regenerate,
    Tap,
    Trigger,
    Tx,
    Violation,
    hookimpl,
)
from redzone.testing import plugin_module as plugin


def life(out: dict[str, Any]) -> tuple[int, int]:
    """(alice's life, bob's life)."""
    return out["players"]["alice"]["life"], out["players"]["bob"]["life"]


# --- Seed 004, the declare blockers step: Neonate, Terror, Hinterland Scourge ---

WEREWOLVES = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "neonate"
name = "Bloodcrazed Neonate"
controller = "alice"
power = 2
toughness = 1
attacks_if_able = true
[[permanents]]
id = "terror"
name = "Terror of Kruin Pass"
controller = "alice"
power = 3
toughness = 3
subtypes = ["Werewolf"]
keywords = ["double strike", "menace"]
[[permanents]]
id = "scourge"
name = "Hinterland Scourge"
controller = "alice"
power = 3
toughness = 2
subtypes = ["Werewolf"]
keywords = ["menace"]
must_be_blocked = true
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
[[permanents]]
id = "b3"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { neonate = "bob", terror = "bob", scourge = "bob" }
"""


@pytest.mark.parametrize("blocks", [
    "{}",
    '{ b1 = "neonate" }',
    '{ b1 = "neonate", b2 = "neonate", b3 = "neonate" }',
    '{ b1 = "terror", b2 = "terror" }',
    '{ b1 = "terror", b2 = "terror", b3 = "neonate" }',
])
def test_seed_004_509_1c_the_scourge_must_be_blocked_no_block_of_it_is_illegal(
        blocks: str) -> None:
    """509.1c: "You must block Hinterland Scourge, that is a requirement ... you must
    block Hinterland Scourge with two creatures." Terror gives each Werewolf menace
    (702.111b), so the requirement can be obeyed with two of bob's three vanilla
    creatures: a declaration that leaves the Scourge unblocked (no block, a block of
    the Neonate only, two creatures on Terror) obeys 0 of 1 obeyable requirements
    and is illegal, naming the Scourge."""
    out = run(WEREWOLVES + f"blocks = {blocks}\n")
    assert out["ok"] is False
    assert out["error"]["kind"] == "illegal_block"
    assert out["error"]["rule"] == "509.1c"
    assert "scourge" in out["error"]["objects"]


@pytest.mark.parametrize(("blocks", "third"), [
    ('{ b1 = "scourge", b2 = "scourge" }', None),
    ('{ b1 = "scourge", b2 = "scourge", b3 = "neonate" }', "neonate"),
    ('{ b1 = "scourge", b2 = "scourge", b3 = "scourge" }', "scourge"),
])
def test_seed_004_509_1c_two_creatures_on_the_scourge_are_accepted(
        blocks: str, third: str | None) -> None:
    """509.1c, 702.111b: two creatures on the Scourge obey the requirement without
    breaking menace; "Your third creature may block either Bloodcrazed Neonate or
    Hinterland Scourge, or not block at all". The declaration is accepted: the
    Scourge is blocked, Terror unblocked."""
    out = run(WEREWOLVES + f"blocks = {blocks}\n")
    assert out["ok"] is True
    blocked = {e["object"] for e in events(out, "blocked")}
    assert blocked == {"scourge"} | ({third} if third else set())
    assert "terror" in {e["object"] for e in events(out, "unblocked")}
    assert out["permanents"]["scourge"]["zone"] == "graveyard"


def test_seed_004_702_111b_a_lone_third_creature_cant_block_terror() -> None:
    """702.111b, 509.1b: "it cannot block Terror of Kruin Pass as that would break a
    restriction": with the Scourge blocked by two, the third blocking Terror alone is
    illegal (menace), naming Terror and that creature."""
    out = run(WEREWOLVES + 'blocks = { b1 = "scourge", b2 = "scourge", b3 = "terror" }\n')
    assert out["ok"] is False
    assert out["error"]["rule"] == "702.111b"
    assert sorted(out["error"]["objects"]) == ["b3", "terror"]


# --- Seeds 001/002: rule 510.1c's examples, under today's rules (foundations) ---

WURM = """
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
id = "wall"
name = "Wall of Wood"
controller = "bob"
power = 0
toughness = 3
keywords = ["defender"]
[[permanents]]
id = "cadet"
name = "Eager Cadet"
controller = "bob"
power = 1
toughness = 1
[combat]
attacks = { wurm = "bob" }
blocks = { wall = "wurm", cadet = "wurm" }
order = { wurm = ["wall", "cadet"] }
[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "wall"
power = 3
toughness = 3
"""


def test_seed_001_510_1c_after_giant_growth_the_wurm_divides_as_it_chooses_today() -> None:
    """510.1c (today): "If two or more creatures are blocking it, it assigns its combat
    damage to those creatures divided as its controller chooses among them." Seed
    001's example ("Giant Growth targeting Wall of Wood ... Craw Wurm must assign its
    6 damage to the Wall") is the 2009 rule; with the Wall a 3/6 today, 3 to the Wall
    and 3 to the Cadet, or all 6 to the Cadet, are legal: the Cadet dies, the Wall
    lives. (Under ``m10`` both are illegal, 510.1c of 2009.)"""
    split = run(WURM + "[combat.assign]\nwurm = { wall = 3, cadet = 3 }\n")
    assert split["ok"] is True
    assert split["rules"] == "foundations"
    assert hits(split, "damage")[:2] == [("combat_damage", "wurm", "wall", 3),
                                         ("combat_damage", "wurm", "cadet", 3)]
    assert split["permanents"]["wall"]["toughness"] == 6
    assert zones(split, "wall", "cadet") == {"wall": "battlefield", "cadet": "graveyard"}
    assert split["permanents"]["wall"]["damage"] == 3

    cadet = run(WURM + "[combat.assign]\nwurm = { cadet = 6 }\n")
    assert cadet["ok"] is True
    assert [h for h in hits(cadet, "damage") if h[1] == "wurm"] == [
        ("combat_damage", "wurm", "cadet", 6)]
    assert cadet["permanents"]["wall"]["damage"] == 0
    assert zones(cadet, "wall", "cadet") == {"wall": "battlefield", "cadet": "graveyard"}

    for assign in ("{ wall = 3, cadet = 3 }", "{ cadet = 6 }"):
        m10 = run('rules = "m10"\n' + WURM + f"[combat.assign]\nwurm = {assign}\n")
        assert (m10["ok"], m10["error"]["rule"]) == (False, "510.1c")


BALOTH = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "baloth"
name = "Enormous Baloth"
controller = "alice"
power = 7
toughness = 7
[[permanents]]
id = "boars"
name = "Durkwood Boars"
controller = "alice"
power = 4
toughness = 4
[[permanents]]
id = "armodon"
name = "Trained Armodon"
controller = "bob"
power = 3
toughness = 3
damage = 2
[[permanents]]
id = "brigade"
name = "Foriysian Brigade"
controller = "bob"
power = 2
toughness = 4
can_block_additional = 1
[[permanents]]
id = "ape"
name = "Silverback Ape"
controller = "bob"
power = 5
toughness = 5
[[permanents]]
id = "piker"
name = "Goblin Piker"
controller = "bob"
power = 2
toughness = 1
[combat]
attacks = { baloth = "bob", boars = "bob" }
blocks = { armodon = "baloth", brigade = ["baloth", "boars"], ape = "baloth", piker = "boars" }
order = { baloth = ["armodon", "brigade", "ape"], boars = ["brigade", "piker"] }
[combat.assign]
baloth = { armodon = 1, brigade = 1, ape = 5 }
"""


def test_seed_001_510_1c_baloth_and_boars_today_the_boars_may_split_2_and_2() -> None:
    """510.1c (today, "divided as its controller chooses among them"): in seed 001's
    Enormous Baloth / Durkwood Boars example, the Baloth assigns 1 to the Armodon, 1
    to the Brigade and 5 to the Ape, and the Boars 2 to the Brigade and 2 to the
    Piker. The Brigade (2/4) is assigned 3 in all, not lethal: illegal under the 2009
    rule (``m10``, the Piker comes after it), legal today. The Armodon (2 marked),
    the Ape and the Piker die; the Brigade lives with 3 damage."""
    out = run(BALOTH + "boars = { brigade = 2, piker = 2 }\n")
    assert out["ok"] is True
    assert [h for h in hits(out, "damage") if h[1] in ("baloth", "boars")] == [
        ("combat_damage", "baloth", "armodon", 1), ("combat_damage", "baloth", "brigade", 1),
        ("combat_damage", "baloth", "ape", 5), ("combat_damage", "boars", "brigade", 2),
        ("combat_damage", "boars", "piker", 2)]
    assert zones(out, "armodon", "brigade", "ape", "piker") == {
        "armodon": "graveyard", "brigade": "battlefield", "ape": "graveyard",
        "piker": "graveyard"}
    assert out["permanents"]["brigade"]["damage"] == 3
    seeds_own = run(BALOTH + "boars = { brigade = 3, piker = 1 }\n")
    assert seeds_own["ok"] is True
    assert zones(seeds_own, "brigade")["brigade"] == "graveyard"
    m10 = run('rules = "m10"\n' + BALOTH + "boars = { brigade = 2, piker = 2 }\n")
    assert (m10["ok"], m10["error"]["rule"]) == (False, "510.1c")


# --- Seed 004, q7: Ensnaring Bridge ---

def _bridge_violations(state: GameState, attacker: str, attacked: str) -> list[Violation]:
    """Ensnaring Bridge: "Creatures with power greater than the number of cards in
    your hand can't attack." """
    out = []
    creature = state.objects[attacker]
    for bridge in state.objects.values():
        if (bridge.name != "Ensnaring Bridge" or bridge.zone != "battlefield"
                or bridge.controller == creature.controller):
            continue
        hand = sum(1 for p in state.objects.values()
                   if p.zone == "hand" and p.owner == bridge.controller)
        if creature.power > hand:
            out.append(Violation("508.1c", f"{attacker} has power {creature.power}, more "
                                 f"than {hand} cards", (attacker, bridge.id),
                                 restriction="ensnaring bridge"))
    return out


BRIDGE = plugin("ensnaring_bridge", redzone_attack_violations=_bridge_violations)


def test_seed_q7_ensnaring_bridge_is_checked_only_as_attackers_are_declared() -> None:
    """508.1c, 506.4a: "opponent has an Ensnaring Bridge on the field and 1 card in
    hand. I have a 1/1 creature and a 0/1 creature with exalted. I attack with the
    1/1 ... he drops an instant card from hand, he has 0 cards. Can I add my 0/1
    creature to attackers? Or ... Ensnaring Bridge will not prevent my attack?" The
    Bridge is a restriction checked as attackers are declared (508.1c): a 2/2 can't
    be declared with 1 card in bob's hand. The 1/1 attacks alone; exalted makes it
    2/2, and bob's hand empties; "spells or abilities that would have kept that
    creature from attacking ... don't remove the creature from combat" (506.4a): it
    stays attacking and deals 2. The 0/1 can't be added (506.1: attackers are
    declared once)."""
    engine = Engine(plugins=[BRIDGE])
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        engine.permanent("bridge", "bob", name="Ensnaring Bridge", types=["artifact"]),
        engine.permanent("instant", "bob", name="Shock", types=["instant"], zone="hand"),
        c("squire", "alice", 1, 1), c("sentinel", "alice", 0, 1, "exalted"),
        c("bear", "alice", 2, 2)])
    state = engine.begin_combat(state).state
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"bear": "bob"})
    assert (info.value.rule, sorted(info.value.objects)) == ("508.1c", ["bear", "bridge"])

    state = engine.declare_attackers(state, {"squire": "bob"}).state
    assert state.objects["squire"].power == 2
    state = engine.perform(state, Move("instant", "graveyard")).state
    assert not [p for p in state.objects.values() if p.zone == "hand"]
    with pytest.raises(IllegalActionError) as added:
        engine.declare_attackers(state, {"sentinel": "bob"})
    assert added.value.rule == "506.1"
    state = engine.declare_blockers(state, {}).state
    assert state.combat is not None and state.combat.in_combat("squire")
    result = engine.combat_damage(state)
    assert [(e.source, e.target, e.amount) for e in result.events if e.kind == "damage"] == [
        ("squire", "bob", 2)]
    assert result.state.players["bob"].life == 18


# --- Seed 004, q10: Ajani's Pridemate ---

PRIDEMATE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "steward"
name = "Steward of Valeron + Batterskull"
controller = "alice"
power = 6
toughness = 6
keywords = ["vigilance", "lifelink"]
[[permanents]]
id = "pridemate"
name = "Ajani's Pridemate"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "b1"
name = "Grizzly Bears"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "b2"
name = "Grizzly Bears"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { steward = "bob" }
blocks = { b1 = "steward", b2 = "steward" }
[combat.assign]
steward = { b1 = 3, b2 = 3 }
[[triggers]]
when = "life_gain"
source = "pridemate"
match = { player = "alice" }
text = "put a +1/+1 counter on Ajani's Pridemate"
[[triggers.actions]]
do = "add_counters"
target = "pridemate"
counters = { "+1/+1" = 1 }
"""


def test_seed_q10_ajanis_pridemate_gets_one_counter() -> None:
    """702.15b, 120.3f, 510.2: "He attacks with a Steward of Valeron equipped with a
    Batterskull. It is blocked by two Bears. How many counters will the Pridemate
    get?" One: the 6/6 lifelink creature's damage to both Bears is dealt at once, one
    life gain event of 6 for its controller, so "whenever you gain life" triggers
    once. Alice 26, the Pridemate 3/3 with one +1/+1 counter."""
    out = run(PRIDEMATE)
    assert out["ok"] is True
    assert [(e["source"], e["player"], e["amount"]) for e in events(out, "life_gain")] == [
        ("steward", "alice", 6)]
    assert [e["source"] for e in events(out, "trigger")] == ["pridemate"]
    assert out["permanents"]["pridemate"]["counters"] == {"+1/+1": 1}
    assert out["permanents"]["pridemate"]["power"] == 3
    assert life(out) == (26, 20)
    assert zones(out, "b1", "b2") == {"b1": "graveyard", "b2": "graveyard"}


# --- Seed 004, q12: Laccolith Grunt ---

QUIET = "assigns no combat damage this turn"


def _grunt_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """"Whenever Laccolith Grunt becomes blocked, you may have it deal damage equal to
    its power to target creature" (the target: its first blocker)."""
    out = []
    for event in events:
        if event.kind != "blocked" or event.object is None \
                or event.object not in state.objects:
            continue
        grunt = state.last_known(event.object)
        if not grunt.has("laccolith") or state.combat is None:
            continue
        blockers = [b for b, attackers in state.combat.blocks.items() if grunt.id in attackers]
        out.append(Trigger("laccolith", grunt.id, grunt.controller, "509.3c",
                           "deal damage equal to its power to target creature",
                           targets=(blockers[0],)))
    return out


def _grunt_resolves(state: GameState, trigger: Trigger) -> list[Action]:
    """"If you do, Laccolith Grunt assigns no combat damage this turn." """
    if trigger.kind != "laccolith":
        return []
    grunt = state.objects[trigger.source]
    return [DealDamage(grunt.id, trigger.targets[0], grunt.power), Grant(grunt.id, [QUIET])]


GRUNT = SimpleNamespace(
    __name__="laccolith_grunt",
    redzone_keywords=hookimpl(lambda: [KeywordSpec("laccolith", "509.3c"),
                                       KeywordSpec(QUIET, "510.1a")]),
    redzone_triggers=hookimpl(_grunt_triggers),
    redzone_resolve_trigger=hookimpl(_grunt_resolves),
    redzone_combat_damage_amount=hookimpl(
        lambda state, creature, step: 0 if state.objects[creature].has(QUIET) else None))


def test_seed_q12_laccolith_grunt_deals_its_power_then_no_combat_damage() -> None:
    """509.3c, 120.2b, 510.1a: "if Laccolith Grunt is blocked, he can deal damage
    equivalent to its power to the creature, but then it doesn't deal combat damage?"
    Right: blocked by a 1/3, its trigger (once, 509.3c) deals 2, noncombat, in the
    declare blockers step; in the combat damage step the Grunt assigns nothing (the
    1/3 lives with 2 damage, not 4), while the 1/3 still deals its 1 to the Grunt."""
    engine = Engine(plugins=[GRUNT])
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("grunt", "alice", 2, 2, "laccolith", name="Laccolith Grunt"),
        c("wall", "bob", 1, 3)])
    state = engine.declare_attackers(engine.begin_combat(state).state, {"grunt": "bob"}).state
    blocks = engine.declare_blockers(state, {"wall": "grunt"})
    assert [(e.source, e.target, e.amount, e.combat) for e in blocks.events
            if e.kind == "damage"] == [("grunt", "wall", 2, False)]
    assert len([e for e in blocks.events if e.kind == "trigger"]) == 1
    result = engine.combat_damage(blocks.state)
    assert not [e for e in result.events if e.kind == "assign" and e.source == "grunt"]
    assert [(e.source, e.target, e.amount, e.combat) for e in result.events
            if e.kind == "damage"] == [("wall", "grunt", 1, True)]
    assert result.state.objects["wall"].damage == 2
    assert result.state.objects["wall"].zone == "battlefield"
    assert result.state.objects["grunt"].damage == 1


# --- Seed 004, q9 and t25: Metallurgeon, regeneration shields ---

def test_seed_q9_t25_metallurgeon_taps_after_blocking_and_still_deals_damage() -> None:
    """506.4b, 510.1, 506.4: "I declare Metallurgeon as a blocker, which can regenerate
    for tap (my opponent states that I cannot tap while blocking). ... can I use this
    ability straight after declaring it a blocker?" Yes. "Creating a regeneration
    shield does not tap a creature!" (t25): the shield leaves it untapped; its {T}
    cost taps it, and "Tapping ... a creature that's already been declared as ... a
    blocker doesn't remove it from combat and doesn't prevent its combat damage": it
    deals its 1 to the 4/4, takes 4 and regenerates (damage removed, tapped, removed
    from combat). Without the shield it dies."""
    engine = Engine()
    c = engine.creature
    board = engine.game(["alice", "bob"], [
        c("ogre", "alice", 4, 4),
        c("met", "bob", 1, 3, name="Metallurgeon", types=["artifact", "creature"])])
    board = engine.declare_attackers(engine.begin_combat(board).state, {"ogre": "bob"}).state
    board = engine.declare_blockers(board, {"met": "ogre"}).state
    shielded = engine.perform(board, Regenerate("met")).state
    assert shielded.objects["met"].tapped is False
    tapped = engine.perform(shielded, Tap("met")).state
    assert tapped.objects["met"].tapped is True
    assert tapped.combat is not None and tapped.combat.blocks["met"] == ("ogre",)
    result = engine.combat_damage(tapped)
    assert sorted((e.source, e.target, e.amount) for e in result.events
                  if e.kind == "damage") == [("met", "ogre", 1), ("ogre", "met", 4)]
    met = result.state.objects["met"]
    assert (met.zone, met.damage, met.tapped) == ("battlefield", 0, True)
    assert result.state.objects["ogre"].damage == 1
    assert "regenerated" in [e.kind for e in result.events]
    unshielded = engine.combat_damage(engine.perform(board, Tap("met")).state)
    assert unshielded.state.objects["met"].zone == "graveyard"
    assert unshielded.state.objects["ogre"].damage == 1


def test_seed_q20_regeneration_taps_only_when_the_shield_is_used() -> None:
    """506.4, 509.1a (q20: "players often don't tap creatures when using regeneration
    ... has there been a time in Magic when regeneration did not require tapping?";
    t25: "Creating a regeneration shield does not tap a creature!"): bob's Troll gets
    its shield in the beginning of combat step and is still untapped, so it may be
    declared as a blocker (509.1a: untapped creatures only). It is tapped when the
    shield replaces its destruction: dealt 3, it regenerates, tapped, damage removed,
    removed from combat."""
    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("ogre", "alice", 3, 3),
                                           c("troll", "bob", 2, 2, name="Troll")])
    state = engine.perform(engine.begin_combat(state).state, Regenerate("troll")).state
    assert state.objects["troll"].tapped is False
    state = engine.declare_attackers(state, {"ogre": "bob"}).state
    state = engine.declare_blockers(state, {"troll": "ogre"}).state
    assert state.objects["troll"].tapped is False
    result = engine.combat_damage(state)
    troll = result.state.objects["troll"]
    assert (troll.zone, troll.tapped, troll.damage) == ("battlefield", True, 0)
    assert result.state.combat is not None and not result.state.combat.in_combat("troll")
    assert result.state.objects["ogre"].damage == 2


# --- Seed 004: q1, q23, q28, the homework ---

WALKER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "jace"
controller = "bob"
types = ["planeswalker"]
loyalty = 3
[combat]
attacks = { bear = "jace" }
"""


def test_seed_q1_what_a_creature_attacks_is_announced_as_it_is_declared() -> None:
    """508.1b, 510.1b: "Do I point out the objects of attack in the declare attackers
    phase, or do I announce whom I deal damage to, a player or a Planeswalker, in the
    damage assignment phase?" In the declare attackers step: "the active player
    announces which player, planeswalker, or battle each of the chosen creatures is
    attacking". The unblocked bear attacking Jace deals its 2 to Jace (loyalty 3 ->
    1); assigning it to bob in the combat damage step is illegal (510.1b)."""
    out = run(WALKER)
    assert out["ok"] is True
    assert [(e["attacker"], e["target"]) for e in events(out, "attack")] == [("bear", "jace")]
    assert hits(out, "damage") == [("combat_damage", "bear", "jace", 2)]
    assert out["permanents"]["jace"]["loyalty"] == 1
    assert life(out) == (20, 20)
    redirected = run(WALKER + "[combat.assign]\nbear = { bob = 2 }\n")
    assert redirected["ok"] is False
    assert redirected["error"]["rule"] == "510.1b"
    assert sorted(redirected["error"]["objects"]) == ["bear", "bob"]


def _arbiter_violations(state: GameState, attacker: str, attacked: str) -> list[Violation]:
    """Angelic Arbiter: "Each opponent who cast a spell this turn can't attack with
    creatures." (Alice, in the seed, cast the spell that destroys it.)"""
    player = state.objects[attacker].controller
    return [Violation("508.1c", f"{player} cast a spell this turn: {attacker} can't attack",
                      (attacker, p.id), restriction="angelic arbiter")
            for p in state.objects.values()
            if p.name == "Angelic Arbiter" and p.zone == "battlefield"
            and p.controller != player]


def test_seed_q23_once_angelic_arbiter_is_destroyed_its_opponent_may_attack() -> None:
    """508.1c: "the opponent destroys (kills etc.) the Angelic Arbiter with his
    treacherous spell ... can the opponent attack in that turn?" Yes: the restriction
    is the Arbiter's static ability, checked as attackers are declared; with the
    Arbiter gone nothing forbids the attack. While it is on the battlefield the same
    attack (alice has cast a spell) is illegal."""
    engine = Engine(plugins=[plugin("angelic_arbiter",
                                    redzone_attack_violations=_arbiter_violations)])
    state = engine.game(["alice", "bob"], [
        engine.creature("arbiter", "bob", 5, 6, "flying", name="Angelic Arbiter"),
        engine.creature("bear", "alice", 2, 2)])
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(engine.begin_combat(state).state, {"bear": "bob"})
    assert (info.value.rule, sorted(info.value.objects)) == ("508.1c", ["arbiter", "bear"])
    state = engine.perform(state, Destroy("arbiter")).state
    assert state.objects["arbiter"].zone == "graveyard"
    result = engine.resolve(state, {"bear": "bob"})
    assert result.state.players["bob"].life == 18


STEPS = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "knight"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike"]
[combat]
"""


def test_seed_homework_a_combat_phase_has_three_to_six_steps() -> None:
    """506.1, 508.8, 510.4 (homework: "How many steps can a combat phase have?"): five
    normally; three when no creature attacks ("the next two steps of the combat phase
    are skipped", 508.8); six with a first striker (510.4: a second combat damage
    step)."""
    none = run(STEPS + "attacks = {}\n")
    assert none["steps"] == ["beginning_of_combat", "declare_attackers", "end_of_combat"]
    five = run(STEPS + 'attacks = { bear = "bob" }\n')
    assert five["steps"] == ["beginning_of_combat", "declare_attackers", "declare_blockers",
                             "combat_damage", "end_of_combat"]
    six = run(STEPS + 'attacks = { bear = "bob", knight = "bob" }\n')
    assert six["steps"] == ["beginning_of_combat", "declare_attackers", "declare_blockers",
                            "first_strike_damage", "combat_damage", "end_of_combat"]
    assert (life(none), life(five), life(six)) == ((20, 20), (20, 18), (20, 16))


def test_seed_homework_bounce_this_one_tap_that_one_no_attacks() -> None:
    """507.2, 508.1a, 508.8 (homework: "- Declaring attackers! - Bounce this one, tap
    that one. - No attacks. What happens?"): "Declaring attackers" moves to the
    beginning of combat step; there bob bounces the knight and taps the bear. Alice
    can't attack with the tapped bear (508.1a); she declares no attackers, so the
    declare blockers and combat damage steps are skipped (508.8)."""
    actions = ('[[combat.actions]]\nafter = "beginning_of_combat"\ndo = "move"\n'
               'target = "knight"\nto = "hand"\n'
               '[[combat.actions]]\nafter = "beginning_of_combat"\ndo = "tap"\n'
               'target = "bear"\n')
    out = run(STEPS + "attacks = {}\n" + actions)
    assert out["ok"] is True
    assert out["steps"] == ["beginning_of_combat", "declare_attackers", "end_of_combat"]
    assert zones(out, "knight", "bear") == {"knight": "hand", "bear": "battlefield"}
    assert out["permanents"]["bear"]["tapped"] is True
    attacked = run(STEPS + 'attacks = { bear = "bob" }\n' + actions)
    assert attacked["ok"] is False
    assert (attacked["error"]["rule"], attacked["error"]["objects"]) == ("508.1a", ["bear"])


def _tunnel(tx: Tx, action: Action) -> None:
    """Goblin Tunneler: "{T}: Target creature with power 2 or less can't be blocked
    this turn." """
    assert isinstance(action, Activate)
    tunneler = tx.permanent(action.source, "tunneler")
    target = tx.permanent(action.cost["target"], "tunneler")
    tx.put(tunneler.evolve(tapped=True), target.evolve(cant_be_blocked=True))


def _power_two_or_less(state: GameState, action: Action) -> str | None:
    assert isinstance(action, Activate)
    target = state.objects[action.cost["target"]]
    if target.power > 2:
        return f"target creature must have power 2 or less ({target.id} has {target.power})"
    return None


TUNNELER = SimpleNamespace(
    __name__="goblin_tunneler",
    redzone_keywords=hookimpl(lambda: [KeywordSpec("tunneler", "601.2c")]),
    redzone_activated_abilities=hookimpl(lambda: [ActivatedAbility(
        "tunneler", "601.2c", _tunnel, {"target": ObjectId},
        restrictions=_power_two_or_less)]))


def test_seed_q28_the_tunneler_cant_target_a_unicorn_with_plus_1_plus_0() -> None:
    """601.2c, 613.4c (q28, second half: "is it correct that the Goblin's ability
    cannot be used on the Unicorn if it has +1/0?"): Correct: with +1/+0 the Unicorn
    has power 3, not a legal target for "target creature with power 2 or less"; the
    activation is refused and nothing changes (the Tunneler stays untapped). Without
    the +1/+0 it can be targeted: then a block of the Unicorn breaks a restriction
    (509.1b) and it is unblocked. The power check is this test's plugin's (redzone
    has no targets); what is tested is that the +1/+0 counts when it is checked and
    that the refused activation changes nothing."""
    engine = Engine(plugins=[TUNNELER])
    c = engine.creature
    board = engine.game(["alice", "bob"], [
        c("unicorn", "alice", 2, 2, name="Prized Unicorn"),
        c("tunneler", "bob", 1, 1, "tunneler", name="Goblin Tunneler"),
        c("bear", "bob", 2, 2)])
    board = engine.declare_attackers(engine.begin_combat(board).state,
                                     {"unicorn": "bob"}).state
    pumped = engine.perform(board, Pump("unicorn", 1, 0)).state
    assert pumped.objects["unicorn"].power == 3
    with pytest.raises(IllegalActionError) as info:
        engine.activate(pumped, "tunneler", "tunneler", {"target": "unicorn"})
    assert info.value.rule == "602.5"
    assert "power 2 or less (unicorn has 3) (601.2c)" in info.value.message
    assert pumped.objects["tunneler"].tapped is False
    done = engine.activate(board, "tunneler", "tunneler", {"target": "unicorn"}).state
    assert done.objects["tunneler"].tapped is True
    with pytest.raises(IllegalBlockError) as blocked:
        engine.declare_blockers(done, {"bear": "unicorn"})
    assert (blocked.value.rule, sorted(blocked.value.objects)) == ("509.1b", ["bear", "unicorn"])
    unblocked = engine.declare_blockers(done, {}).state
    assert engine.combat_damage(unblocked).state.players["bob"].life == 18


# --- Seed 000: rule 310 of February 2009 (combat damage uses the stack) ---

SIXTH = """
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
"""


def _bounce(target: str, after: str = "declare_blockers") -> str:
    return (f'[[combat.actions]]\nafter = "{after}"\ndo = "move"\ntarget = "{target}"\n'
            'to = "hand"\n')


def test_seed_000_310_2c_a_blocked_creature_with_its_blocker_gone_assigns_nothing() -> None:
    """310.2c (sixth): "If no creatures are currently blocking it (if, for example, they
    were destroyed or removed from combat), it will assign no combat damage." The
    bear is bounced before damage is assigned: the ogre stays blocked, assigns
    nothing, and bob takes nothing."""
    out = run(SIXTH + _bounce("bear"))
    assert out["ok"] is True
    assert [e["object"] for e in events(out, "blocked")] == ["ogre"]
    assert events(out, "unblocked") == []
    assert hits(out, "assign") == [] and hits(out, "damage") == []
    assert life(out) == (20, 20)
    assert "combat_damage_assigned" in out["steps"]


def test_seed_000_310_2d_a_blocker_whose_attacker_is_gone_assigns_nothing() -> None:
    """310.2d (sixth): a blocking creature "If it isn't currently blocking any creatures
    (if, for example, they were destroyed or removed from combat), it will assign no
    combat damage." The ogre is bounced before assignment: the bear assigns and is
    dealt nothing."""
    out = run(SIXTH + _bounce("ogre"))
    assert out["ok"] is True
    assert hits(out, "assign") == [] and hits(out, "damage") == []
    assert out["permanents"]["bear"]["damage"] == 0
    assert zones(out, "ogre", "bear") == {"ogre": "hand", "bear": "battlefield"}
    assert life(out) == (20, 20)


SIXTH_LAND = """
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
id = "land"
controller = "bob"
types = ["land"]
[combat]
attacks = { bear = "bob" }
blocks = { land = "bear" }
[[combat.actions]]
after = "beginning_of_combat"
do = "continuous"
affects = ["land"]
add_types = ["creature"]
set_power = 3
set_toughness = 1
[[combat.actions]]
after = "combat_damage_assigned"
do = "continuous"
affects = ["land"]
remove_types = ["creature"]
"""


def test_seed_000_310_4c_damage_assigned_to_a_noncreature_isnt_dealt() -> None:
    """310.4c (sixth): "If a creature or planeswalker that was assigned combat damage
    ... is neither a creature nor planeswalker, the damage assigned to it isn't
    dealt." An animated 3/1 land blocks the bear; with the damage on the stack it
    stops being a creature: the bear's 2 isn't dealt (the land is still on the
    battlefield with no damage), while the land's 3 is dealt as assigned (310.4a) and
    kills the bear."""
    out = run(SIXTH_LAND)
    assert out["ok"] is True
    assert hits(out, "assign") == [("combat_damage_assigned", "bear", "land", 2),
                                   ("combat_damage_assigned", "land", "bear", 3)]
    assert hits(out, "damage") == [("combat_damage", "land", "bear", 3)]
    assert out["permanents"]["land"]["damage"] == 0
    assert zones(out, "land", "bear") == {"land": "battlefield", "bear": "graveyard"}
