"""Flying (CR 702.9): a creature with flying can't be blocked except by creatures with
flying and/or reach; it can block a creature with or without flying (702.9b)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from redzone import Engine, GameState, Grant, IllegalBlockError, Pump, Revoke
from redzone.testing import KeywordConformance
from redzone_keywords import flying as _flying_plugin


def flier_attacks(board: Any, *defenders: Any) -> GameState:
    state = board(board.c("hawk", "alice", 1, 1, "flying", name="Suntail Hawk"), *defenders)
    out: GameState = board.engine.declare_attackers(state, {"hawk": "bob"}).state
    return out


def test_702_9b_a_creature_without_flying_or_reach_cannot_block_a_flier(board: Any) -> None:
    state = flier_attacks(board, board.c("bear", "bob", 2, 2, name="Grizzly Bears"))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"bear": "hawk"})
    err = info.value
    assert err.rule == "702.9b"
    assert err.objects == ("bear", "hawk")
    assert str(err) == ("Suntail Hawk (flying) can't be blocked by Grizzly Bears: it has "
                        "neither flying nor reach (rule 702.9b)")
    assert err.violations[0].restriction == "flying"
    assert state == snapshot


@pytest.mark.parametrize("keyword", ["flying", "reach"])
def test_702_9b_a_creature_with_flying_or_reach_can_block_a_flier(board: Any,
                                                                  keyword: str) -> None:
    state = flier_attacks(board, board.c("guard", "bob", 1, 3, keyword))
    out = board.engine.declare_blockers(state, {"guard": "hawk"})
    assert out.state.combat.blockers_of("hawk") == ("guard",)


def test_702_9b_legal_blockers_of_a_flier_are_those_with_flying_or_reach(board: Any) -> None:
    state = flier_attacks(board, board.c("bear", "bob", 2, 2), board.c("owl", "bob", 1, 1,
                                                                       "flying"),
                          board.c("spider", "bob", 1, 3, "reach"))
    assert board.engine.legal_blockers(state, "hawk") == ("owl", "spider")


def test_702_9b_a_creature_with_flying_can_block_a_creature_without_flying(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("owl", "bob", 1, 1, "flying"))
    state = board.engine.declare_attackers(state, {"bear": "bob"}).state
    assert board.engine.block_violations(state, {"owl": "bear"}) == ()
    assert board.engine.legal_blockers(state, "bear") == ("owl",)


def test_702_9b_flying_on_the_blocker_is_what_counts_not_on_its_side(board: Any) -> None:
    """A flier of the attacking player's doesn't help a ground blocker."""
    state = board(board.c("hawk", "alice", 1, 1, "flying"), board.c("roc", "alice", 3, 3,
                                                                    "flying"),
                  board.c("bear", "bob", 2, 2))
    state = board.engine.declare_attackers(state, {"hawk": "bob", "roc": "bob"}).state
    assert board.engine.legal_blockers(state, "hawk") == ()


def test_702_9b_flying_gained_before_blocks_restricts_them(board: Any) -> None:
    state = board(board.c("hook", "alice", 2, 2), board.c("mite", "bob", 2, 2))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.resolve(state, {"hook": "bob"}, {"mite": "hook"},
                             actions=[("declare_attackers", Grant("hook", "flying"))])
    assert info.value.rule == "702.9b"


def test_509_1b_seed_flying_given_to_the_attacker_after_blockers_are_declared(
        board: Any) -> None:
    """Seed: "in the declare blockers step I cast an instant spell that gives my creature
    'Flying' ... The opponent's creature does not have flying nor any abilities to block
    creatures with flying. What happens?" The block stands (509.1b); they deal combat
    damage to each other and bob takes none."""
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 1, 4))
    result = board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                                  actions=[("declare_blockers", Grant("bear", "flying"))])
    assert result.state.objects["bear"].has("flying")
    assert result.state.objects["wall"].damage == 2
    assert result.state.objects["bear"].damage == 1
    assert result.state.players["bob"].life == 20


def test_509_1b_702_9b_seed_kor_hookmaster_given_flying_after_blocks(board: Any) -> None:
    """Seed: Kor Hookmaster (2/2) is blocked by Frogmite (2/2); after blockers are declared
    Mighty Leap gives it +2/+2 and flying. An evasion ability gained after a legal block
    doesn't affect the block (509.1b): they deal damage to each other. The 4/4 Hookmaster
    deals 4 and destroys Frogmite; Frogmite deals 2 and the Hookmaster survives."""
    state = board(board.c("hook", "alice", 2, 2, name="Kor Hookmaster", colors=["white"]),
                  board.c("mite", "bob", 2, 2, name="Frogmite", types=["artifact", "creature"]))
    result = board.engine.resolve(state, {"hook": "bob"}, {"mite": "hook"}, actions=[
        ("declare_blockers", Pump("hook", 2, 2)),
        ("declare_blockers", Grant("hook", "flying")),
    ])
    damage = {(e.source, e.target): e.amount for e in result.events if e.kind == "damage"}
    assert damage == {("hook", "mite"): 4, ("mite", "hook"): 2}
    assert result.state.objects["mite"].zone == "graveyard"
    assert result.state.objects["hook"].zone == "battlefield"
    assert result.state.objects["hook"].damage == 2
    assert result.state.players["bob"].life == 20


def test_509_1b_seed_a_blocker_that_loses_flying_after_blocking_a_flier_keeps_blocking(
        board: Any) -> None:
    state = board(board.c("hawk", "alice", 1, 1, "flying"), board.c("owl", "bob", 1, 2,
                                                                    "flying"))
    result = board.engine.resolve(state, {"hawk": "bob"}, {"owl": "hawk"},
                                  actions=[("declare_blockers", Revoke("owl", "flying"))])
    assert result.state.objects["hawk"].zone == "graveyard"
    assert result.state.players["bob"].life == 20


def test_702_9c_several_instances_of_flying_are_redundant(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("hawk", "alice", 1, 1, "flying", "flying"),
        engine.creature("bear", "bob", 2, 2),
        engine.creature("spider", "bob", 1, 3, "reach"),
    ])
    state = engine.declare_attackers(state, {"hawk": "bob"}).state
    assert len(engine.hooks.block_violations(state, "bear", "hawk")) == 1
    assert engine.block_violations(state, {"spider": "hawk"}) == ()


@pytest.mark.parametrize(("blocker", "rules"), [
    (("flying",), ["702.28b"]),
    (("flying", "shadow"), []),
    (("reach", "shadow"), []),
    (("shadow",), ["702.9b"]),
    ((), ["702.28b", "702.9b"]),
])
def test_509_1b_example_flying_and_shadow_are_cumulative(engine: Engine,
                                                         blocker: tuple[str, ...],
                                                         rules: list[str]) -> None:
    """509.1b example: an attacking creature with flying and shadow can't be blocked by a
    creature with flying but without shadow. Evasion abilities are cumulative."""
    state = engine.game(["alice", "bob"], [
        engine.creature("wraith", "alice", 2, 2, "flying", "shadow"),
        engine.creature("guard", "bob", 1, 1, *blocker),
    ])
    state = engine.declare_attackers(state, {"wraith": "bob"}).state
    found = engine.block_violations(state, {"guard": "wraith"})
    assert sorted(v.rule for v in found) == sorted(rules)


class TestFlyingConformance(KeywordConformance):
    """The conformance kit's invariants for flying (702.9), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _flying_plugin
    max_examples = 25
