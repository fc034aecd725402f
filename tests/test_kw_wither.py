"""Wither (CR 702.80, 120.3d).

Each test names the rule it checks. Damage from a source with wither puts
-1/-1 counters on a creature instead of marking damage (702.80a); damage it
deals to players, planeswalkers and battles is ordinary (120.3a, c, h).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    CombatResult,
    DealDamage,
    Engine,
    Grant,
    LeaveBattlefield,
    Permanent,
)
from redzone.testing import KeywordConformance
from redzone_keywords import wither


def zone(result: CombatResult, obj: str) -> str:
    return result.state.objects[obj].zone


def minus(perm: Permanent) -> int:
    return perm.counters.get("-1/-1", 0)


def test_702_80a_damage_to_a_creature_is_minus_counters_not_marked(engine: Engine,
                                                                   board: Any) -> None:
    state = board(board.c("thorn", "alice", 2, 2, "wither"), board.c("ogre", "bob", 1, 3))
    result = engine.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"})
    ogre = result.state.objects["ogre"]
    assert (minus(ogre), ogre.damage, ogre.power, ogre.toughness) == (2, 0, -1, 1)
    assert [(e.kind, e.rule, e.counter, e.amount) for e in result.events
            if e.kind == "counters"] == [("counters", "120.3d", "-1/-1", 2)]
    # The ogre's damage to the wither creature is ordinary marked damage.
    assert result.state.objects["thorn"].damage == 1


def test_120_3a_wither_damage_to_a_player_is_life_loss(engine: Engine, board: Any) -> None:
    state = board(board.c("thorn", "alice", 3, 3, "wither"))
    result = engine.resolve(state, {"thorn": "bob"})
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (17, 0)


def test_120_3c_wither_damage_to_a_planeswalker_removes_loyalty(engine: Engine,
                                                                board: Any) -> None:
    jace = Permanent(id="jace", controller="bob", types=["planeswalker"],
                     counters={"loyalty": 5})
    state = board(board.c("thorn", "alice", 2, 2, "wither"), jace)
    result = engine.resolve(state, {"thorn": "jace"})
    assert result.state.objects["jace"].counters == {"loyalty": 3}


def test_702_80a_blocking_wither_creature_shrinks_the_attacker(engine: Engine,
                                                               board: Any) -> None:
    state = board(board.c("ogre", "alice", 3, 4), board.c("thorn", "bob", 2, 4, "wither"))
    result = engine.resolve(state, {"ogre": "bob"}, {"thorn": "ogre"})
    ogre = result.state.objects["ogre"]
    assert (ogre.power, ogre.toughness, ogre.damage) == (1, 2, 0)


def test_702_80a_first_strike_wither_shrinks_a_blocker_before_it_deals_damage(
        engine: Engine, board: Any) -> None:
    """-1/-1 counters from first-strike damage lower the blocker's power
    before the regular step reads it: the 3/3 becomes 1/1 and deals 1."""
    state = board(board.c("thorn", "alice", 2, 2, "wither", "first strike"),
                  board.c("ogre", "bob", 3, 3))
    result = engine.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"})
    assert [e.amount for e in result.events if e.kind == "damage" and e.source == "ogre"] == [1]
    assert zone(result, "thorn") == "battlefield"
    assert result.state.objects["thorn"].damage == 1


def test_704_5f_wither_counters_kill_through_zero_toughness(engine: Engine,
                                                            board: Any) -> None:
    state = board(board.c("thorn", "alice", 2, 2, "wither"), board.c("bear", "bob", 0, 2))
    result = engine.resolve(state, {"thorn": "bob"}, {"bear": "thorn"})
    assert zone(result, "bear") == "graveyard"
    assert [e.rule for e in result.events if e.kind == "dies" and e.object == "bear"] == [
        "704.5f"]


def test_704_5f_wither_counters_kill_an_indestructible_creature(engine: Engine, board: Any) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("thorn", "alice", 3, 3, "wither"),
        engine.creature("golem", "bob", 0, 3, "indestructible")])
    result = engine.resolve(state, {"thorn": "bob"}, {"golem": "thorn"})
    assert zone(result, "golem") == "graveyard"
    # The same damage without wither is marked and doesn't destroy it (704.5g).
    state = engine.game(["alice", "bob"], [
        engine.creature("ox", "alice", 3, 3),
        engine.creature("golem", "bob", 0, 3, "indestructible")])
    result = engine.resolve(state, {"ox": "bob"}, {"golem": "ox"})
    assert zone(result, "golem") == "battlefield"


def test_702_80a_counters_stay_after_combat(engine: Engine, board: Any) -> None:
    """-1/-1 counters are not damage: they are still there after combat
    (unlike marked damage, which the cleanup step would remove)."""
    state = board(board.c("thorn", "alice", 1, 1, "wither"), board.c("ogre", "bob", 0, 4))
    result = engine.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"})
    assert result.state.step == "postcombat_main"
    assert minus(result.state.objects["ogre"]) == 1
    assert result.state.objects["ogre"].toughness == 3


def test_702_80a_wither_granted_during_combat_applies(engine: Engine, board: Any) -> None:
    state = board(board.c("ox", "alice", 2, 2), board.c("ogre", "bob", 0, 4))
    result = engine.resolve(state, {"ox": "bob"}, {"ogre": "ox"},
                            actions=[("declare_blockers", Grant("ox", "wither"))])
    assert minus(result.state.objects["ogre"]) == 2


def test_702_80b_source_that_left_the_battlefield_uses_last_known_information(
        engine: Engine, board: Any) -> None:
    state = board(board.c("thorn", "alice", 1, 1), board.c("ogre", "bob", 3, 3))
    state = engine.perform(state, Grant("thorn", "wither")).state
    state = engine.perform(state, LeaveBattlefield("thorn")).state
    assert not state.objects["thorn"].has("wither")
    out = engine.perform(state, DealDamage("thorn", "ogre", 2))
    assert minus(out.state.objects["ogre"]) == 2
    assert out.state.objects["ogre"].damage == 0


def test_702_80d_multiple_instances_of_wither_are_redundant(engine: Engine,
                                                            board: Any) -> None:
    state = board(board.c("thorn", "alice", 2, 2, "wither", "wither"), board.c("ogre", "bob", 0, 5))
    result = engine.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"})
    assert minus(result.state.objects["ogre"]) == 2


def test_120_3d_wither_and_granted_infect_put_the_counters_on_once(engine: Engine,
                                                                   board: Any) -> None:
    state = board(board.c("thorn", "alice", 3, 3, "wither"), board.c("ogre", "bob", 0, 5))
    result = engine.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"},
                            actions=[("declare_blockers", Grant("thorn", "infect"))])
    assert minus(result.state.objects["ogre"]) == 3


# ---------------------------------------------------------------------------
# Property
# ---------------------------------------------------------------------------

_ENGINE = Engine(discover=False, plugins=[wither])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.integers(1, 6), st.integers(0, 6), st.booleans())
def test_702_80a_toughness_lost_equals_wither_damage(power: int, toughness: int,
                                                     blocker_power: int,
                                                     blocked: bool) -> None:
    """A creature dealt wither damage ends with exactly that many -1/-1
    counters and no marked damage; a player dealt wither damage loses that
    much life."""
    state = _ENGINE.game(["alice", "bob"], [
        _ENGINE.creature("thorn", "alice", power, 9, "wither"),
        _ENGINE.creature("ogre", "bob", blocker_power, toughness)])
    result = _ENGINE.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"} if blocked else {})
    ogre = result.state.last_known("ogre")
    if blocked:
        assert minus(ogre) == power
        assert ogre.damage == 0
        assert (zone(result, "ogre") == "graveyard") == (power >= toughness)
        assert result.state.players["bob"].life == 20
    else:
        assert minus(ogre) == 0
        assert result.state.players["bob"].life == 20 - power


class TestWitherConformance(KeywordConformance):
    """The conformance kit's invariants hold with wither on generated boards
    (mixed with every other loaded keyword)."""

    plugin = wither
    max_examples = 15
