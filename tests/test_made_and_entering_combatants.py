"""Creatures made to block, or put onto the battlefield attacking or
blocking, by effects: who they may fight, bands, and creatures removed from
combat.

- 702.22h: "If an attacking creature becomes blocked by a creature, each
  other creature in the same band as the attacking creature becomes blocked
  by that same blocking creature", whether the blocker was declared, made
  to block by an effect, or put onto the battlefield blocking (509.3d lists
  all three ways of becoming blocked by a creature).
- 506.4 and the glossary's "Remove from Combat": a creature removed from
  combat "has no further involvement in that combat phase"; a new object
  (400.7) is another creature.
- 508.4, 508.4a: a creature put onto the battlefield attacking attacks a
  defending player, a planeswalker a defending player controls or a battle
  a defending player protects; in Two-Headed Giant the attacking player's
  teammate is none of those (805.10a), so it enters without attacking.
- 506.3a, 506.3f: a noncreature, or a creature that's also a battle, put
  onto the battlefield blocking is never a blocking creature.
"""

from __future__ import annotations

import pytest
from redzone import (
    CreateToken,
    Engine,
    EnterBlocking,
    GameState,
    MakeBlock,
    Move,
    RemoveFromCombat,
)

ENGINE = Engine()


def _band(engine: Engine = ENGINE) -> GameState:
    """k1 (banding) and k2 attack bob as a band; nobody blocks; bob has a
    0/4 wall that wasn't declared as a blocker."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("k1", "alice", 2, 2, "banding"),
                                           c("k2", "alice", 3, 3), c("wall", "bob", 0, 4)])
    state = engine.declare_attackers(state, {"k1": "bob", "k2": "bob"},
                                     bands=[("k1", "k2")]).state
    return engine.declare_blockers(state, {}).state


@pytest.mark.parametrize("how", ["made to block", "enters blocking"])
def test_702_22h_blocking_one_creature_of_a_band_blocks_the_band(how: str) -> None:
    """702.22h: the wall made to block k1 (or a 1/1 put onto the battlefield
    blocking it) blocks k2 too; both become blocked, so neither deals damage
    to bob."""
    state = _band()
    if how == "made to block":
        blocker, out = "wall", ENGINE.perform(state, MakeBlock("wall", "k1"))
    else:
        blocker = "saproling"
        out = ENGINE.perform(state, EnterBlocking(ENGINE.creature(blocker, "bob", 1, 1), "k1"))
    combat = out.state.combat
    assert combat is not None
    assert combat.blocks[blocker] == ("k1", "k2") and {"k1", "k2"} <= combat.blocked
    assert [(e.kind, e.get("attacker") or e.object, e.rule) for e in out.events
            if e.kind in ("block", "blocked")] == [
        ("block", "k1", "509.4" if how == "enters blocking" else "509.3b"),
        ("blocked", "k1", "509.1h"), ("block", "k2", "702.22h"), ("blocked", "k2", "509.1h")]
    after = ENGINE.combat_damage(out.state).state
    assert after.players["bob"].life == 20


def test_702_22h_under_m10_the_blocker_enters_each_creatures_order() -> None:
    """702.22h with 509.6 of 2009-2024: the blocker made to block one band
    member blocks both, and is in each one's damage assignment order."""
    m10 = Engine(rules="m10")
    out = m10.perform(_band(m10), MakeBlock("wall", "k1")).state
    assert out.combat is not None
    assert out.combat.order["k1"] == ("wall",) and out.combat.order["k2"] == ("wall",)
    assert out.combat.order["wall"] == ("k1", "k2")


def _blocked_by_ogre() -> GameState:
    c = ENGINE.creature
    state = ENGINE.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("ogre", "bob", 3, 3)])
    state = ENGINE.declare_attackers(state, {"bear": "bob"}).state
    return ENGINE.declare_blockers(state, {"ogre": ("bear",)}).state


def test_506_4_a_creature_removed_from_combat_isnt_made_to_block_again() -> None:
    """506.4: the ogre removed from combat has no further part in it: an
    effect making it block the bear does nothing, the bear stays blocked
    (509.1h) and nobody deals combat damage."""
    state = ENGINE.perform(_blocked_by_ogre(), RemoveFromCombat("ogre")).state
    out = ENGINE.perform(state, MakeBlock("ogre", "bear"))
    assert out.state.combat is not None and "ogre" not in out.state.combat.blocks
    assert not [e for e in out.events if e.kind == "block"]
    after = ENGINE.combat_damage(out.state).state
    assert after.objects["bear"].damage == 0 and after.objects["ogre"].damage == 0
    assert after.players["bob"].life == 20


def test_400_7_the_same_card_back_on_the_battlefield_may_be_made_to_block() -> None:
    """400.7: the ogre left the battlefield (removed from combat) and came
    back: a new object, which an effect may make block."""
    state = ENGINE.perform(_blocked_by_ogre(), Move("ogre", "graveyard")).state
    state = ENGINE.perform(state, Move("ogre", "battlefield")).state
    out = ENGINE.perform(state, MakeBlock("ogre", "bear")).state
    assert out.combat is not None and out.combat.blocks["ogre"] == ("bear",)
    after = ENGINE.combat_damage(out).state
    assert after.objects["bear"].zone == "graveyard"


def _team_board() -> GameState:
    """Two-Headed Giant: alice and carol against bob and dave, on alice's
    turn; alice has a planeswalker and protects bob's Siege."""
    e = ENGINE
    siege = e.permanent("siege", "bob", types=["battle"], subtypes=["Siege"],
                        counters={"defense": 5}, protector="alice")
    walker = e.permanent("apw", "alice", types=["planeswalker"], counters={"loyalty": 5})
    state = e.game(["alice", "bob", "carol", "dave"],
                   [e.creature("orc", "alice", 2, 2), siege, walker],
                   teams={"red": ["alice", "carol"], "blue": ["bob", "dave"]},
                   turn_order=["alice", "bob", "carol", "dave"])
    return e.declare_attackers(state, {"orc": "bob"}).state


@pytest.mark.parametrize("target", ["alice", "apw", "siege"])
def test_508_4a_a_creature_entering_attacking_its_own_team_isnt_attacking(target: str) -> None:
    """508.4, 508.4a, 805.10a: carol's token put onto the battlefield
    attacking her teammate alice, alice's planeswalker or the battle alice
    protects enters but isn't attacking, and deals no combat damage. Its
    event cites 508.4 for the player (what it attacks is a defending player
    it chooses) and 508.4a for the planeswalker a defending player doesn't
    control and the battle a defending player doesn't protect."""
    state = _team_board()
    out = ENGINE.perform(state, CreateToken(ENGINE.creature("tok", "carol", 3, 3),
                                            attacking=target))
    assert out.state.combat is not None and "tok" not in out.state.combat.attacks
    assert [(e.kind, e.rule) for e in out.events if e.kind.endswith("attacking")] == [
        ("not_attacking", "508.4" if target == "alice" else "508.4a")]
    after = ENGINE.declare_blockers(out.state, {}).state
    after = ENGINE.combat_damage(after).state
    assert after.objects["apw"].counters["loyalty"] == 5
    assert after.objects["siege"].counters["defense"] == 5


@pytest.mark.parametrize("types, rule", [(("creature", "battle"), "506.3f"),
                                         (("artifact",), "506.3a")])
def test_506_3_a_battle_or_noncreature_entering_blocking_isnt_blocking(
        types: tuple[str, ...], rule: str) -> None:
    """506.3a, 506.3f: a permanent that's a creature and a battle, or no
    creature, put onto the battlefield blocking enters but never blocks;
    the event cites that rule, not 509.4a (bob is the defending player)."""
    c = ENGINE.creature
    state = ENGINE.game(["alice", "bob"], [c("bear", "alice", 2, 2)])
    state = ENGINE.declare_attackers(state, {"bear": "bob"}).state
    entering = ENGINE.permanent("x", "bob", types=types, power=1, toughness=1,
                                counters={"defense": 3} if "battle" in types else {},
                                protector="alice" if "battle" in types else None)
    out = ENGINE.perform(state, EnterBlocking(entering, "bear"))
    assert out.state.combat is not None and "x" not in out.state.combat.blocks
    assert [(e.kind, e.rule) for e in out.events if e.kind.endswith("blocking")] == [
        ("not_blocking", rule)]
