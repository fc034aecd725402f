"""Infect (CR 702.90, 120.3b, 120.3d, 704.5c).

Each test names the rule it checks. Damage from a source with infect gives a
player poison counters instead of life loss (702.90b) and puts -1/-1 counters
on a creature instead of marking damage (702.90c); ten poison counters lose
the game (704.5c).
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
    Player,
)
from redzone.testing import KeywordConformance
from redzone_keywords import infect


def zone(result: CombatResult, obj: str) -> str:
    return result.state.objects[obj].zone


def minus(perm: Permanent) -> int:
    return perm.counters.get("-1/-1", 0)


def test_702_90b_damage_to_a_player_is_poison_not_life_loss(engine: Engine,
                                                            board: Any) -> None:
    state = board(board.c("mite", "alice", 3, 3, "infect"))
    result = engine.resolve(state, {"mite": "bob"})
    bob = result.state.players["bob"]
    assert (bob.life, bob.poison) == (20, 3)
    assert not any(e.kind == "life_loss" for e in result.events)
    assert [(e.kind, e.player, e.amount) for e in result.events if e.kind == "poison"] == [
        ("poison", "bob", 3)]


def test_702_90c_damage_to_a_creature_is_minus_counters_not_marked(engine: Engine,
                                                                   board: Any) -> None:
    state = board(board.c("mite", "alice", 2, 2, "infect"), board.c("ogre", "bob", 3, 3))
    result = engine.resolve(state, {"mite": "bob"}, {"ogre": "mite"})
    ogre = result.state.objects["ogre"]
    assert (minus(ogre), ogre.damage, ogre.power, ogre.toughness) == (2, 0, 1, 1)
    assert ogre.zone == "battlefield"
    # The ogre's own damage to the mite is ordinary marked damage.
    assert zone(result, "mite") == "graveyard"


def test_702_90c_blocking_infect_creature_puts_counters_on_the_attacker(engine: Engine,
                                                                        board: Any) -> None:
    state = board(board.c("ogre", "alice", 1, 4), board.c("mite", "bob", 2, 2, "infect"))
    result = engine.resolve(state, {"ogre": "bob"}, {"mite": "ogre"})
    assert minus(result.state.objects["ogre"]) == 2
    assert result.state.objects["ogre"].damage == 0


def test_704_5c_ten_poison_counters_lose_the_game(engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 3, 3, "infect"),
                  players=["alice", Player("bob", poison=7)])
    result = engine.resolve(state, {"mite": "bob"})
    bob = result.state.players["bob"]
    assert bob.poison == 10
    assert bob.lost and bob.loss_rule == "704.5c"
    assert bob.life == 20


def test_704_5c_nine_poison_counters_do_not_lose(engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 2, 2, "infect"),
                  players=["alice", Player("bob", poison=7)])
    result = engine.resolve(state, {"mite": "bob"})
    assert result.state.players["bob"].poison == 9
    assert not result.state.players["bob"].lost


def test_704_5f_minus_counters_kill_through_zero_toughness(engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 2, 2, "infect"), board.c("bear", "bob", 0, 2))
    result = engine.resolve(state, {"mite": "bob"}, {"bear": "mite"})
    assert zone(result, "bear") == "graveyard"
    assert [e.rule for e in result.events if e.kind == "dies" and e.object == "bear"] == [
        "704.5f"]
    assert not any(e.kind == "destroyed" for e in result.events)


def test_704_5f_minus_counters_kill_an_indestructible_creature(engine: Engine, board: Any) -> None:
    """Toughness 0 isn't destruction: indestructible doesn't help (704.5f,
    702.12b); the same damage as marked damage doesn't kill it (704.5g)."""
    state = engine.game(["alice", "bob"], [
        engine.creature("mite", "alice", 2, 2, "infect"), engine.creature("ox", "alice", 2, 2),
        engine.creature("golem", "bob", 0, 2, "indestructible"),
        engine.creature("statue", "bob", 0, 2, "indestructible")])
    result = engine.resolve(state, {"mite": "bob", "ox": "bob"},
                            {"golem": "mite", "statue": "ox"})
    assert zone(result, "golem") == "graveyard"
    assert zone(result, "statue") == "battlefield"
    assert result.state.objects["statue"].damage == 2


def test_120_3d_infect_and_wither_put_the_counters_on_once(engine: Engine,
                                                           board: Any) -> None:
    state = board(board.c("blight", "alice", 2, 2, "infect", "wither"),
                  board.c("ogre", "bob", 0, 3))
    result = engine.resolve(state, {"blight": "bob"}, {"ogre": "blight"})
    assert minus(result.state.objects["ogre"]) == 2
    assert zone(result, "ogre") == "battlefield"
    counter_events = [e for e in result.events if e.kind == "counters"]
    assert [(e.target, e.amount) for e in counter_events] == [("ogre", 2)]


def test_120_3c_infect_damage_to_a_planeswalker_removes_loyalty(engine: Engine,
                                                                board: Any) -> None:
    jace = Permanent(id="jace", controller="bob", types=["planeswalker"],
                     counters={"loyalty": 5})
    state = board(board.c("mite", "alice", 2, 2, "infect"), jace)
    result = engine.resolve(state, {"mite": "jace"})
    assert result.state.objects["jace"].counters == {"loyalty": 3}
    assert result.state.players["bob"].poison == 0


def test_702_90b_noncombat_damage_gives_poison(engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 1, 1, "infect"))
    out = engine.perform(state, DealDamage("mite", "bob", 2))
    assert (out.state.players["bob"].life, out.state.players["bob"].poison) == (20, 2)


def test_702_90d_source_that_left_the_battlefield_uses_last_known_information(
        engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 1, 1), board.c("ogre", "bob", 3, 3))
    state = engine.perform(state, Grant("mite", "infect")).state
    state = engine.perform(state, LeaveBattlefield("mite")).state
    assert not state.objects["mite"].has("infect")
    out = engine.perform(state, DealDamage("mite", "ogre", 1))
    assert minus(out.state.objects["ogre"]) == 1
    assert out.state.objects["ogre"].damage == 0


def test_704_5q_infect_counters_annihilate_with_plus_counters(engine: Engine,
                                                              board: Any) -> None:
    state = board(board.c("mite", "alice", 1, 1, "infect"),
                  board.c("ogre", "bob", 2, 2, counters={"+1/+1": 2}))
    result = engine.resolve(state, {"mite": "bob"}, {"ogre": "mite"})
    ogre = result.state.objects["ogre"]
    assert dict(ogre.counters) == {"+1/+1": 1}
    assert (ogre.power, ogre.toughness) == (3, 3)


def test_702_90c_702_19b_infect_trample(engine: Engine, board: Any) -> None:
    state = board(board.c("mite", "alice", 5, 5, "infect", "trample"), board.c("bear", "bob", 2, 2))
    result = engine.resolve(state, {"mite": "bob"}, {"bear": "mite"})
    assert zone(result, "bear") == "graveyard"
    assert result.state.players["bob"].poison == 3
    assert result.state.players["bob"].life == 20


def test_702_90f_multiple_instances_of_infect_are_redundant(engine: Engine,
                                                            board: Any) -> None:
    state = board(board.c("mite", "alice", 2, 2, "infect", "infect"))
    result = engine.resolve(state, {"mite": "bob"})
    assert result.state.players["bob"].poison == 2


# ---------------------------------------------------------------------------
# Property
# ---------------------------------------------------------------------------

_ENGINE = Engine(discover=False, plugins=[infect])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.lists(st.integers(1, 6), max_size=3), st.integers(0, 9))
def test_702_90b_c_results_account_for_all_infect_damage(power: int, toughnesses: list[int],
                                                         poison: int) -> None:
    """Every point of infect damage becomes one poison counter (players) or one
    -1/-1 counter (creatures); nothing is marked and no life is lost."""
    perms = [_ENGINE.creature("mite", "alice", power, 9, "infect")]
    perms += [_ENGINE.creature(f"b{i}", "bob", 0, t) for i, t in enumerate(toughnesses)]
    state = _ENGINE.game(["alice", Player("bob", poison=poison)], perms)
    result = _ENGINE.resolve(state, {"mite": "bob"}, {f"b{i}": "mite"
                                                      for i in range(len(toughnesses))})
    dealt: dict[str, int] = {}
    for e in result.events:
        if e.kind == "damage":
            dealt[e.target or ""] = dealt.get(e.target or "", 0) + (e.amount or 0)
    bob = result.state.players["bob"]
    assert bob.life == 20
    assert bob.poison == poison + dealt.get("bob", 0)
    assert bob.lost == (bob.poison >= 10)
    for i in range(len(toughnesses)):
        blocker = result.state.last_known(f"b{i}")
        assert minus(blocker) == dealt.get(f"b{i}", 0)
        assert blocker.damage == 0


class TestInfectConformance(KeywordConformance):
    """The conformance kit's invariants hold with infect on generated boards
    (mixed with every other loaded keyword)."""

    plugin = infect
    max_examples = 15
