"""Lifelink (CR 702.15, 120.3f).

Each test names the rule it checks. Damage dealt by a source with lifelink
makes its controller gain that much life, in addition to its other results
(702.15b): all of the damage dealt, in one life gain event per source per
damage event (702.15b, 702.15e).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    CombatResult,
    DealDamage,
    Effect,
    Engine,
    Grant,
    LeaveBattlefield,
    Modification,
    Prevent,
)
from redzone.testing import KeywordConformance
from redzone_keywords import lifelink


def life(result: CombatResult, player: str) -> int:
    return result.state.players[player].life


def gains(result: CombatResult) -> list[tuple[str | None, str | None, int | None]]:
    """Every life gain event as (source, player, amount)."""
    return [(e.source, e.player, e.amount) for e in result.events if e.kind == "life_gain"]


def test_702_15b_gain_equal_to_the_damage_dealt(engine: Engine, board: Any) -> None:
    state = board(board.c("cleric", "alice", 3, 3, "lifelink"))
    result = engine.resolve(state, {"cleric": "bob"})
    assert life(result, "alice") == 23
    assert life(result, "bob") == 17
    assert [e.rule for e in result.events if e.kind == "life_gain"] == ["702.15b"]


def test_702_15b_gain_includes_damage_beyond_toughness(engine: Engine, board: Any) -> None:
    """The seed's Batterskull question: a 0/0 Germ equipped to 4/4 with
    lifelink and vigilance, blocked by a 2/2, gains 4, not 2."""
    germ = board.c("germ", "alice", 0, 0, token=True, modifications=[Modification(
        4, 4, add_keywords=[engine.keyword("lifelink"), engine.keyword("vigilance")])])
    state = board(germ, board.c("bear", "bob", 2, 2))
    result = engine.resolve(state, {"germ": "bob"}, {"bear": "germ"})
    assert life(result, "alice") == 24
    assert result.state.objects["bear"].zone == "graveyard"


def test_702_15b_one_life_gain_event_per_source_however_many_recipients(
        engine: Engine, board: Any) -> None:
    """The seed's Steward of Valeron question: a 6/6 lifelink creature blocked
    by two Bears gains 6 life in one life gain event (one Ajani's Pridemate
    trigger)."""
    state = board(board.c("steward", "alice", 6, 6, "lifelink"), board.c("b1", "bob", 2, 2),
                  board.c("b2", "bob", 2, 2))
    result = engine.resolve(state, {"steward": "bob"}, {"b1": "steward", "b2": "steward"})
    assert gains(result) == [("steward", "alice", 6)]


def test_702_15b_trample_damage_to_blocker_and_player_is_one_gain(engine: Engine,
                                                                  board: Any) -> None:
    state = board(board.c("wurm", "alice", 5, 5, "lifelink", "trample"),
                  board.c("bear", "bob", 2, 2))
    result = engine.resolve(state, {"wurm": "bob"}, {"bear": "wurm"})
    assert gains(result) == [("wurm", "alice", 5)]
    assert life(result, "bob") == 17


def test_702_15e_separate_sources_gain_life_separately(engine: Engine, board: Any) -> None:
    state = board(board.c("c1", "alice", 2, 2, "lifelink"), board.c("c2", "alice", 3, 3,
                                                                    "lifelink"))
    result = engine.resolve(state, {"c1": "bob", "c2": "bob"})
    assert sorted(gains(result)) == [("c1", "alice", 2), ("c2", "alice", 3)]
    assert life(result, "alice") == 25


def test_702_15b_double_strike_gains_in_each_damage_event(engine: Engine, board: Any) -> None:
    state = board(board.c("duelist", "alice", 2, 2, "lifelink", "double strike"))
    result = engine.resolve(state, {"duelist": "bob"})
    assert [(e.step, e.amount) for e in result.events if e.kind == "life_gain"] == [
        ("first_strike_damage", 2), ("combat_damage", 2)]
    assert life(result, "alice") == 24


def test_702_15b_prevented_damage_gains_nothing(engine: Engine, board: Any) -> None:
    state = board(board.c("cleric", "alice", 5, 5, "lifelink"))
    result = engine.resolve(state, {"cleric": "bob"},
                            actions=[("declare_blockers", Prevent(source="cleric"))])
    assert gains(result) == []
    assert life(result, "alice") == 20
    partly = engine.resolve(state, {"cleric": "bob"},
                            actions=[("declare_blockers", Prevent(target="bob", amount=2))])
    assert gains(partly) == [("cleric", "alice", 3)]


def test_702_15b_blocking_lifelink_creature_gains_its_controller_life(engine: Engine,
                                                                      board: Any) -> None:
    state = board(board.c("ogre", "alice", 3, 3), board.c("priest", "bob", 2, 4, "lifelink"))
    result = engine.resolve(state, {"ogre": "bob"}, {"priest": "ogre"})
    assert gains(result) == [("priest", "bob", 2)]
    assert life(result, "bob") == 22


def test_702_15b_controller_not_owner_gains(engine: Engine, board: Any) -> None:
    state = board(board.c("cleric", "alice", 3, 3, "lifelink", owner="bob"))
    result = engine.resolve(state, {"cleric": "bob"})
    assert life(result, "alice") == 23
    assert life(result, "bob") == 17


def test_702_15b_gain_when_the_source_dies_in_the_same_damage(engine: Engine,
                                                              board: Any) -> None:
    state = board(board.c("cleric", "alice", 2, 2, "lifelink"), board.c("bear", "bob", 2, 2))
    result = engine.resolve(state, {"cleric": "bob"}, {"bear": "cleric"})
    assert result.state.objects["cleric"].zone == "graveyard"
    assert life(result, "alice") == 22


def test_702_15c_source_that_left_the_battlefield_uses_last_known_information(
        engine: Engine, board: Any) -> None:
    """Lifelink granted until end of turn to a creature alice controls and bob
    owns: the card in the graveyard has neither; its last known information
    has lifelink and alice as controller."""
    state = board(board.c("fanatic", "alice", 1, 1, owner="bob"))
    state = engine.perform(state, Grant("fanatic", "lifelink")).state
    state = engine.perform(state, LeaveBattlefield("fanatic")).state
    assert not state.objects["fanatic"].has("lifelink")
    out = engine.perform(state, DealDamage("fanatic", "bob", 1))
    assert out.state.players["alice"].life == 21
    assert out.state.players["bob"].life == 19


def test_702_15b_noncombat_damage_gains_too(engine: Engine, board: Any) -> None:
    state = board(board.c("cleric", "alice", 1, 1, "lifelink"), board.c("bear", "bob", 2, 2))
    out = engine.perform(state, DealDamage("cleric", "bear", 3))
    assert out.state.players["alice"].life == 23


def test_702_15b_702_90b_lifelink_with_infect(engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 2, 2, "lifelink", "infect"))
    result = engine.resolve(state, {"mite": "bob"})
    assert life(result, "alice") == 22
    assert life(result, "bob") == 20
    assert result.state.players["bob"].poison == 2


def test_702_15b_702_80a_lifelink_with_wither(engine: Engine, board: Any) -> None:
    state = board(board.c("thorn", "alice", 2, 2, "lifelink", "wither"),
                  board.c("ogre", "bob", 1, 3))
    result = engine.resolve(state, {"thorn": "bob"}, {"ogre": "thorn"})
    assert life(result, "alice") == 22
    assert result.state.objects["ogre"].counters.get("-1/-1") == 2


def test_120_4_boon_reflection_example(engine: Engine, board: Any) -> None:
    """120.4's first example: Boon Reflection; a 3/3 with wither and lifelink
    blocked by a 2/2; the next 2 damage to the 2/2 prevented. Results: one
    -1/-1 counter on the 2/2, the active player gains 2 life (1 doubled), 2
    damage marked on the 3/3."""
    state = board(board.c("attacker", "alice", 3, 3, "wither", "lifelink"),
                  board.c("blocker", "bob", 2, 2),
                  effects=[Effect("double_life_gain", player="alice")])
    result = engine.resolve(state, {"attacker": "bob"}, {"blocker": "attacker"},
                            actions=[("declare_blockers", Prevent(target="blocker", amount=2))])
    assert life(result, "alice") == 22
    assert gains(result) == [("attacker", "alice", 2)]
    blocker = result.state.objects["blocker"]
    assert blocker.zone == "battlefield"
    assert blocker.counters.get("-1/-1") == 1
    assert blocker.damage == 0
    assert (blocker.power, blocker.toughness) == (1, 1)
    assert result.state.objects["attacker"].damage == 2


# ---------------------------------------------------------------------------
# Property
# ---------------------------------------------------------------------------

_ENGINE = Engine(discover=False, plugins=[lifelink])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=3),
       st.lists(st.tuples(st.integers(0, 4), st.integers(1, 4), st.integers(-1, 2)),
                max_size=3))
def test_702_15b_life_gained_equals_damage_dealt_by_lifelink_sources(
        attackers: list[tuple[int, bool]], blockers: list[tuple[int, int, int]]) -> None:
    """Each player's life gain equals the damage their lifelink sources dealt,
    one life gain event per lifelink source per damage event."""
    perms = [_ENGINE.creature(f"a{i}", "alice", p, 3, *(("lifelink",) if ll else ()))
             for i, (p, ll) in enumerate(attackers)]
    blocks = {}
    for i, (p, t, target) in enumerate(blockers):
        perms.append(_ENGINE.creature(f"b{i}", "bob", p, t, *(("lifelink",) if i % 2 else ())))
        if 0 <= target < len(attackers):
            blocks[f"b{i}"] = f"a{target}"
    state = _ENGINE.game(["alice", "bob"], perms)
    result = _ENGINE.resolve(state, {f"a{i}": "bob" for i in range(len(attackers))}, blocks)
    dealt: dict[str, int] = {}
    for e in result.events:
        if e.kind == "damage" and state.objects[e.source or ""].has("lifelink"):
            dealt[e.source or ""] = dealt.get(e.source or "", 0) + (e.amount or 0)
    events = [e for e in result.events if e.kind == "life_gain"]
    gained = {e.source: e.amount for e in events}
    assert len(gained) == len(events)
    assert gained == {s: n for s, n in dealt.items() if n}
    for player in ("alice", "bob"):
        own = sum(n for s, n in dealt.items() if state.objects[s].controller == player)
        lost = sum(e.amount or 0 for e in result.events
                   if e.kind == "life_loss" and e.player == player)
        assert life(result, player) == 20 + own - lost


class TestLifelinkConformance(KeywordConformance):
    """The conformance kit's invariants hold with lifelink on generated boards
    (mixed with every other loaded keyword)."""

    plugin = lifelink
    max_examples = 15
