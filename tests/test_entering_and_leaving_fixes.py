"""A creature put onto the battlefield blocking before blockers are declared
stays blocking through the declaration (509.4, 509.1g-h), and a player who
leaves a multiplayer game takes every object they own with them (800.4a),
none of which comes back under their control (800.4b).

Found by an audit: the declaration of blockers replaced the blocks made
before it (the attacker was reported unblocked and dealt its damage to the
player), and a player who left kept the cards in their hand, library,
graveyard and exile, which could then be put onto the battlefield.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import (
    Cast,
    Engine,
    EnterBlocking,
    GameState,
    IllegalActionError,
    IllegalBlockError,
    Move,
    Permanent,
    Player,
)
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import loads
from redzone.formats.serialize import state_to_dict
from redzone.kernel import zones


def run(text: str) -> dict[str, Any]:
    return outcome_json(resolve(loads(text)))


def spirit(pid: str = "spirit", controller: str = "bob", power: int = 1,
           toughness: int = 1) -> Permanent:
    return Permanent(pid, controller, name="Spirit", base_power=power,
                     base_toughness=toughness, types=frozenset({"creature"}))


def entered(engine: Engine, attackers: list[Permanent], attacks: dict[str, str],
            blocking: dict[str, str], others: list[Permanent] = ()) -> GameState:
    """Attackers declared, then each of ``blocking`` (new creature ->
    attacker) put onto the battlefield blocking, in the declare attackers
    step (509.4)."""
    state = engine.game(["alice", "bob"], [*attackers, *others])
    state = engine.declare_attackers(state, attacks).state
    for new, attacker in blocking.items():
        state = engine.perform(state, EnterBlocking(spirit(new), attacker)).state
    return state


def _rules(info: pytest.ExceptionInfo[Any]) -> list[str]:
    return [v.rule for v in info.value.violations]


# -- 509.4: a creature that entered blocking stays blocking -----------------------------


def test_509_4_a_creature_entering_blocking_before_the_declaration_stays_blocking(
        engine: Engine) -> None:
    """509.4, 509.1g, 509.1h, glossary "Blocking Creature": a creature put onto
    the battlefield blocking in the declare attackers step is a blocking
    creature until it is removed from combat or combat ends; declaring no
    blockers keeps it blocking and its attacker blocked (no new ``blocked``
    event: it was blocked already, 509.3c), and the attacker's damage goes to
    it, not to the player."""
    c = engine.creature
    state = entered(engine, [c("bear", "alice", 2, 2)], {"bear": "bob"}, {"spirit": "bear"})
    out = engine.declare_blockers(state, {})
    combat = out.state.combat
    assert combat is not None
    assert dict(combat.blocks) == {"spirit": ("bear",)}
    assert combat.blocked == frozenset({"bear"})
    assert [(e.kind, e.rule, e.get("object")) for e in out.events] == [
        ("step", "509.1", None)]
    done = engine.combat_damage(out.state)
    assert done.state.players["bob"].life == 20
    assert [(e.kind, e.get("source"), e.get("target"), e.get("amount"))
            for e in done.events if e.kind == "damage"] == [
        ("damage", "bear", "spirit", 2), ("damage", "spirit", "bear", 1)]
    assert done.state.objects["spirit"].zone == "graveyard"
    assert done.state.objects["bear"].damage == 1


def test_509_4_the_scenario_of_the_audit_keeps_the_block(engine: Engine) -> None:
    """509.4, 510.1c: the audit's scenario: a Spirit enters blocking the bear
    after attackers are declared; bob stays at 20 and the bear's 2 damage
    goes to the Spirit (it dies, 704.5g)."""
    out = run("""
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[combat]
attacks = { bear = "bob" }
[[combat.actions]]
after = "declare_attackers"
do = "enter_blocking"
permanent = { id = "spirit", name = "Spirit", controller = "bob", power = 1, toughness = 1 }
attacker = "bear"
""")
    assert out["ok"] is True
    assert out["players"]["bob"]["life"] == 20
    assert out["permanents"]["spirit"]["zone"] == "graveyard"
    assert out["permanents"]["bear"]["damage"] == 1
    declared = [(e["kind"], e["rule"], e.get("object")) for e in out["events"]
                if e["step"] == "declare_blockers"]
    assert declared == [("step", "509.1", None)]
    entering = [(e["kind"], e["rule"]) for e in out["events"]
                if e["step"] == "declare_attackers"][-3:]
    assert entering == [("enters_battlefield", "509.4"), ("block", "509.4"),
                        ("blocked", "509.1h")]
    assert [(e["kind"], e["source"], e["target"], e["amount"]) for e in out["events"]
            if e["kind"] == "damage"] == [("damage", "bear", "spirit", 2),
                                         ("damage", "spirit", "bear", 1)]


def test_509_1a_declared_blockers_join_the_creature_already_blocking(engine: Engine) -> None:
    """509.1a, 509.1g-h, 509.4: the declaration adds its blockers to the
    creature already blocking: both block the bear (the one that entered
    first), the other attacker is unblocked, and each declared block is a
    509.1a block event; the bear, blocked already, doesn't become blocked
    again (509.3c)."""
    c = engine.creature
    state = entered(engine, [c("bear", "alice", 2, 2), c("elk", "alice", 2, 2)],
                    {"bear": "bob", "elk": "bob"}, {"spirit": "bear"},
                    [c("wall", "bob", 0, 4)])
    out = engine.declare_blockers(state, {"wall": "bear"})
    combat = out.state.combat
    assert combat is not None
    assert dict(combat.blocks) == {"spirit": ("bear",), "wall": ("bear",)}
    assert combat.blockers_of("bear") == ("spirit", "wall")
    assert combat.blocked == frozenset({"bear"})
    assert [(e.kind, e.rule, e.get("object") or e.get("blocker")) for e in out.events] == [
        ("step", "509.1", None), ("block", "509.1a", "wall"),
        ("unblocked", "509.1h", "elk")]


def test_509_1a_a_creature_already_blocking_cant_be_declared_as_a_blocker(
        engine: Engine) -> None:
    """509.1a, 509.4: the defending player chooses which of their creatures
    that aren't blocking yet block; a creature already blocking (it entered
    blocking) can't be declared again, for the same attacker or another:
    the declaration is refused, naming the creature, and nothing changes."""
    c = engine.creature
    state = entered(engine, [c("bear", "alice", 2, 2), c("elk", "alice", 2, 2)],
                    {"bear": "bob", "elk": "bob"}, {"spirit": "bear"})
    before = state_to_dict(state)
    for attacker in ("bear", "elk"):
        with pytest.raises(IllegalBlockError) as info:
            engine.declare_blockers(state, {"spirit": attacker})
        assert _rules(info) == ["509.1a"]
        violation = info.value.violations[0]
        assert "spirit" in violation.objects
        assert "already blocking" in violation.message
        assert "509.4" in violation.message
    assert state_to_dict(state) == before
    assert "spirit" not in engine.legal_blockers(state, "elk")
    assert engine.block_violations(state, {"spirit": "elk"})


def test_509_1h_an_attacker_blocked_by_a_creature_that_left_stays_blocked(
        engine: Engine) -> None:
    """509.1h: a creature remains blocked even if all the creatures blocking it
    are removed from combat: the Spirit entered blocking, then left; after the
    declaration the bear is still blocked, and deals no damage (510.1c)."""
    from redzone import RemoveFromCombat

    c = engine.creature
    state = entered(engine, [c("bear", "alice", 2, 2)], {"bear": "bob"}, {"spirit": "bear"})
    state = engine.perform(state, RemoveFromCombat("spirit")).state
    out = engine.declare_blockers(state, {})
    assert out.state.combat is not None and out.state.combat.blocked == frozenset({"bear"})
    assert [e.kind for e in out.events] == ["step"]
    assert engine.combat_damage(out.state).state.players["bob"].life == 20


def test_509_1b_menace_counts_the_creature_already_blocking(engine: Engine) -> None:
    """509.1b, 702.111b, 509.4b: menace is checked against the attacker's
    blockers after the declaration: one declared blocker joining the creature
    that entered blocking makes two, which is legal; the one that entered
    alone isn't subject to the declaration's restrictions (509.4b); one
    declared blocker alone on a menace attacker is still refused."""
    c = engine.creature
    state = entered(engine, [c("brute", "alice", 3, 3, "menace"), c("orc", "alice", 3, 3,
                                                                    "menace")],
                    {"brute": "bob", "orc": "bob"}, {"spirit": "brute"},
                    [c("wall", "bob", 0, 4)])
    out = engine.declare_blockers(state, {"wall": "brute"})
    assert out.state.combat is not None
    assert out.state.combat.blockers_of("brute") == ("spirit", "wall")
    alone = engine.declare_blockers(state, {})
    assert alone.state.combat is not None
    assert alone.state.combat.blockers_of("brute") == ("spirit",)
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"wall": "orc"})
    assert _rules(info) == ["702.111b"]


def test_509_1_the_legal_declarations_listed_count_the_creature_already_blocking(
        engine: Engine) -> None:
    """509.1b, 702.111b, 509.4: the declarations the engine lists as legal are
    those :meth:`Engine.declare_blockers` accepts when a creature entered
    blocking: the wall may join the Spirit on the menace brute (two blockers),
    not block the orc alone; and the Spirit, already blocking, is never
    declared."""
    c = engine.creature
    state = entered(engine, [c("brute", "alice", 3, 3, "menace"), c("orc", "alice", 3, 3,
                                                                    "menace")],
                    {"brute": "bob", "orc": "bob"}, {"spirit": "brute"},
                    [c("wall", "bob", 0, 4)])
    listed = {tuple(sorted((b, tuple(a)) for b, a in d.items()))
              for d in engine.legal_block_declarations(state)}
    assert listed == {(), (("wall", ("brute",)),)}
    for decl in listed:
        engine.declare_blockers(state, dict(decl))


def test_509_1c_requirements_count_the_blocks_already_made(engine: Engine) -> None:
    """509.1c: the troll must be blocked if able (a lure); the Spirit that
    entered blocking it already obeys that, so declaring no blockers obeys
    as many requirements as possible; a creature that must block if able
    still has to block."""
    c = engine.creature
    state = entered(engine, [c("troll", "alice", 3, 3, lure=True)], {"troll": "bob"},
                    {"spirit": "troll"})
    out = engine.declare_blockers(state, {})
    assert out.state.combat is not None and out.state.combat.blocked == frozenset({"troll"})
    guarded = entered(engine, [c("troll", "alice", 3, 3)], {"troll": "bob"},
                      {"spirit": "troll"}, [c("guard", "bob", 1, 1, blocks_if_able=True)])
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(guarded, {})
    assert _rules(info) == ["509.1c"]
    done = engine.declare_blockers(guarded, {"guard": "troll"})
    assert done.state.combat is not None
    assert done.state.combat.blockers_of("troll") == ("spirit", "guard")


# -- 800.4a-b: a player who leaves takes what they own ----------------------------------


LEAVING = """
active_player = "alice"
[players.alice]
[players.bob]
life = 2
[players.carol]
[[permanents]]
id = "fs"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike"]
[[permanents]]
id = "stolen"
controller = "bob"
owner = "alice"
power = 1
toughness = 1
[[permanents]]
id = "bhand"
controller = "bob"
power = 1
toughness = 1
zone = "hand"
[[permanents]]
id = "blib"
controller = "bob"
types = ["land"]
zone = "library"
[[permanents]]
id = "bgy"
controller = "bob"
power = 1
toughness = 1
zone = "graveyard"
[[permanents]]
id = "bexile"
controller = "bob"
power = 1
toughness = 1
zone = "exile"
[combat]
attacks = { fs = "bob" }
"""


def test_800_4a_a_player_who_leaves_takes_every_object_they_own_out_of_the_game() -> None:
    """800.4a: when bob leaves (he loses to first-strike damage, 704.5a), all
    objects he owns leave the game: those in his hand, library, graveyard and
    exile too, each with a ``moved`` event citing 800.4a; the creature he
    controls that alice owns is exiled."""
    out = run(LEAVING)
    assert out["ok"] is True and out["players"]["bob"]["lost"] is True
    for card in ("bhand", "blib", "bgy", "bexile"):
        assert out["permanents"][card]["zone"] == "left_game", card
    assert out["zones"]["bob"] == {"hand": [], "library": [], "graveyard": [], "exile": []}
    assert out["zones"]["alice"]["exile"] == ["stolen"]
    left = [(e["kind"], e["rule"], e.get("object"), e.get("origin")) for e in out["events"]
            if e["rule"] == "800.4a"]
    assert left == [("removed_from_combat", "800.4a", "fs", None),
                    ("moved", "800.4a", "bhand", "hand"), ("moved", "800.4a", "blib", "library"),
                    ("moved", "800.4a", "bgy", "graveyard"),
                    ("moved", "800.4a", "bexile", "exile"),
                    ("zone_change", "800.4a", "stolen", None),
                    ("left_game", "800.4a", None, None)]


def test_800_4a_a_card_that_left_with_its_owner_cant_be_moved_back() -> None:
    """800.4a, 800.4b: after bob left, moving his card from where it was to
    the battlefield is refused (it is no longer in the game), citing 800.4a."""
    out = run(LEAVING.replace('attacks = { fs = "bob" }', """attacks = { fs = "bob" }
[[combat.actions]]
after = "end_of_combat"
do = "move"
target = "bgy"
to = "battlefield"
"""))
    assert out["ok"] is False
    assert out["error"]["kind"] == "illegal_action"
    assert out["error"]["rule"] == "800.4a"
    assert "bgy" in out["error"]["objects"]


def test_800_4a_leave_the_game_moves_every_owned_object_in_every_zone() -> None:
    """800.4a, 400.7: :func:`zones.leave_the_game` moves each object bob owns
    off the battlefield (hand, library, graveyard, exile, stack) to the
    ``left_game`` zone as a new object, with a ``moved`` event citing 800.4a
    and the zone it left; the battlefield and others' objects are untouched
    (settle's own work), and a second call does nothing."""
    engine = Engine(discover=False)
    c = engine.creature
    state = engine.game([Player("alice"), Player("bob", lost=True), Player("carol")], [
        c("bear", "bob", 2, 2), c("elk", "alice", 2, 2),
        c("bhand", "bob", 1, 1).evolve(zone="hand"),
        c("bgy", "bob", 1, 1).evolve(zone="graveyard"),
        c("ahand", "alice", 1, 1).evolve(zone="hand")])
    new, events = zones.leave_the_game(state, "bob", "combat_damage")
    assert {o: new.objects[o].zone for o in ("bear", "elk", "bhand", "bgy", "ahand")} == {
        "bear": "battlefield", "elk": "battlefield", "bhand": "left_game",
        "bgy": "left_game", "ahand": "hand"}
    assert new.objects["bgy"].object == state.objects["bgy"].object + 1
    assert [(e.kind, e.rule, e.object, e.get("zone"), e.get("origin")) for e in events] == [
        ("moved", "800.4a", "bhand", "left_game", "hand"),
        ("moved", "800.4a", "bgy", "left_game", "graveyard")]
    assert new.zone("bob", "hand") == () and new.zone("bob", "graveyard") == ()
    again, more = zones.leave_the_game(new, "bob", "combat_damage")
    assert again is new and more == []


def test_800_4b_a_card_is_not_put_onto_the_battlefield_under_a_player_who_left() -> None:
    """800.4b: an object that would be put onto the battlefield under the
    control of a player who has left remains in its current zone: moving
    bob's card there is refused citing 800.4b, and the state is unchanged;
    a card whose owner is still in the game moves as before; casting a card
    of his is refused too (it would go onto the stack under his control)."""
    engine = Engine(discover=False)
    c = engine.creature
    state = engine.game([Player("alice"), Player("bob", lost=True), Player("carol")], [
        c("bgy", "bob", 1, 1).evolve(zone="graveyard"),
        c("cgy", "carol", 1, 1).evolve(zone="graveyard")])
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Move("bgy", "battlefield"))
    assert info.value.rule == "800.4b"
    assert "bob" in str(info.value) and "bgy" in info.value.objects
    assert state_to_dict(state) == before
    moved = engine.perform(state, Move("cgy", "battlefield")).state
    assert moved.objects["cgy"].zone == "battlefield"
    # The zone move itself leaves it where it is (what a cast would resolve to).
    assert zones.move_object(state, "bgy", "battlefield", "400.7", "main") == (state, [])
    hand = engine.game([Player("alice"), Player("bob", lost=True), Player("carol")], [
        c("bhand", "bob", 1, 1, "flash").evolve(zone="hand")])
    with pytest.raises(IllegalActionError) as cast:
        engine.perform(hand, Cast("bhand"))
    assert cast.value.rule == "800.4b"


def test_800_4a_a_card_in_left_game_is_no_longer_in_the_game() -> None:
    """800.4a, 400.1: a card that left the game with its owner can't be moved:
    the refusal says its owner left, citing 800.4a."""
    engine = Engine(discover=False)
    c = engine.creature
    state = engine.game([Player("alice"), Player("bob", lost=True), Player("carol")], [
        c("bgy", "bob", 1, 1).evolve(zone="graveyard")])
    gone, _events = zones.leave_the_game(state, "bob", "main")
    with pytest.raises(IllegalActionError) as info:
        engine.perform(gone, Move("bgy", "battlefield"))
    assert info.value.rule == "800.4a"
    assert "left the game" in str(info.value)


def test_506_4c_800_4a_a_battle_whose_protector_left_stays_attacked(engine: Engine) -> None:
    """800.4a removes nothing from combat but what leaves the game, and 506.4
    removes a battle from combat only if its protector changes: carol, the
    protector of bob's Siege, dies in the first-strike step, and the 3/3
    attacking the Siege still deals it 3 (defense 5 to 2). (Creatures attacking
    carol herself are removed from combat, as the scenario format's contract
    says.)"""
    c, p = engine.creature, engine.permanent
    state = engine.game(
        [Player("alice"), Player("bob"), Player("carol", life=1)],
        [c("striker", "alice", 1, 1, "first strike"), c("ogre", "alice", 3, 3),
         p("siege", "bob", types=["battle"], subtypes=["Siege"], counters={"defense": 5},
           protector="carol")], active_player="alice")
    out = engine.resolve(state, {"striker": "carol", "ogre": "siege"}, {})
    assert out.state.players["carol"].lost
    assert [e.object for e in out.events if e.kind == "removed_from_combat"] == ["striker"]
    assert [(e.source, e.target, e.amount) for e in out.events if e.kind == "damage"] == [
        ("striker", "carol", 1), ("ogre", "siege", 3)]
    assert out.state.objects["siege"].defense == 2


def test_506_4c_an_attacker_of_a_planeswalker_that_left_with_its_controller_attacks_on(
        engine: Engine) -> None:
    """506.4c: a creature attacking a planeswalker removed from combat (it left
    the game with carol, 800.4a) "continues to be an attacking creature,
    although it is not attacking any player, planeswalker, or battle", and
    deals no combat damage."""
    c, p = engine.creature, engine.permanent
    state = engine.game(
        [Player("alice"), Player("bob"), Player("carol", life=1)],
        [c("striker", "alice", 1, 1, "first strike"), c("ogre", "alice", 3, 3),
         p("jace", "carol", types=["planeswalker"], counters={"loyalty": 4})],
        active_player="alice")
    state = engine.declare_attackers(state, {"striker": "carol", "ogre": "jace"}).state
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    assert state.players["carol"].lost and state.objects["jace"].zone == "left_game"
    assert state.combat is not None
    assert "ogre" in state.combat.attacks and state.combat.attacks["ogre"] is None
    out = engine.combat_damage(state)
    assert [e for e in out.events if e.kind == "damage"] == []
