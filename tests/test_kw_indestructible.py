"""Indestructible (CR 702.12): a permanent with indestructible can't be destroyed (702.12b).

Lethal damage (704.5g) and damage from a deathtouch source (704.5h) destroy, so they do
nothing to it; toughness 0 or less (704.5f) and 0 loyalty (704.5i) put it into the
graveyard without destroying it, so they still apply.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import AddCounters, DealDamage, Engine, Pump, Revoke
from redzone.testing import KeywordConformance
from redzone_keywords import indestructible as _indestructible_plugin


def zone_events(events: Any) -> list[tuple[str, str | None, str]]:
    return [(e.kind, e.object, e.rule) for e in events if e.kind in ("destroyed", "dies")]


@pytest.mark.parametrize(("keywords", "survives"), [(("indestructible",), True), ((), False)])
def test_702_12b_704_5g_lethal_damage_does_not_destroy_it_and_stays_marked(
        board: Any, keywords: tuple[str, ...], survives: bool) -> None:
    state = board(board.c("giant", "alice", 5, 5), board.c("guard", "bob", 2, 2, *keywords))
    result = board.engine.resolve(state, {"giant": "bob"}, {"guard": "giant"})
    guard = result.state.objects["guard"]
    if survives:
        assert guard.zone == "battlefield"
        assert guard.damage == 5  # 120.6: the damage stays marked
        assert zone_events(result.events) == []
    else:
        assert guard.zone == "graveyard"
        assert zone_events(result.events) == [("destroyed", "guard", "704.5g"),
                                              ("dies", "guard", "704.5g")]


@pytest.mark.parametrize(("keywords", "survives"), [(("indestructible",), True), ((), False)])
def test_702_12b_704_5h_deathtouch_damage_does_not_destroy_it(
        engine: Engine, keywords: tuple[str, ...], survives: bool) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("rat", "alice", 1, 1, "deathtouch"),
        engine.creature("golem", "bob", 5, 5, *keywords),
    ])
    result = engine.resolve(state, {"rat": "bob"}, {"golem": "rat"})
    golem = result.state.objects["golem"]
    assert (golem.zone == "battlefield") is survives
    if survives:
        assert golem.damage == 1
        assert ("destroyed", "golem", "704.5h") not in zone_events(result.events)
    else:
        assert ("destroyed", "golem", "704.5h") in zone_events(result.events)


def test_702_12b_noncombat_lethal_damage_does_not_destroy_it(board: Any) -> None:
    state = board(board.c("shock", "alice", 0, 1), board.c("guard", "bob", 2, 2,
                                                             "indestructible"))
    out = board.engine.perform(state, DealDamage("shock", "guard", 10))
    assert out.state.objects["guard"].zone == "battlefield"
    assert out.state.objects["guard"].damage == 10


def test_702_12b_a_permanent_with_counters_is_still_indestructible(board: Any) -> None:
    """702.12b: "A permanent with indestructible can't be destroyed. Such permanents
    aren't destroyed by lethal damage": an indestructible 2/2 with a +1/+1 counter (a
    3/3) dealt 5 damage stays on the battlefield with the damage marked; counters
    change nothing."""
    state = board(board.c("ogre", "bob", 5, 5),
                  board.c("guard", "alice", 2, 2, "indestructible", counters={"+1/+1": 1}))
    out = board.engine.perform(state, DealDamage("ogre", "guard", 5))
    guard = out.state.objects["guard"]
    assert (guard.zone, guard.toughness, guard.damage) == ("battlefield", 3, 5)
    assert zone_events(out.events) == []


@pytest.mark.parametrize("shrink", [Pump("guard", -2, -2), AddCounters("guard", {"-1/-1": 2})])
def test_704_5f_zero_toughness_still_puts_it_into_the_graveyard(board: Any,
                                                                shrink: Any) -> None:
    state = board(board.c("guard", "bob", 2, 2, "indestructible"))
    out = board.engine.perform(state, shrink)
    assert out.state.objects["guard"].zone == "graveyard"
    assert zone_events(out.events) == [("dies", "guard", "704.5f")]


def test_704_5f_lethal_damage_and_zero_toughness_together_put_it_into_the_graveyard(
        board: Any) -> None:
    state = board(board.c("giant", "alice", 5, 5), board.c("guard", "bob", 2, 2,
                                                             "indestructible"))
    result = board.engine.resolve(state, {"giant": "bob"}, {"guard": "giant"},
                                  actions=[("combat_damage", Pump("guard", -2, -2))])
    assert result.state.objects["guard"].zone == "graveyard"
    assert zone_events(result.events) == [("dies", "guard", "704.5f")]


def test_704_5g_the_marked_damage_destroys_it_once_indestructible_is_lost(board: Any) -> None:
    """The damage stayed marked (120.6), so losing indestructible later the same turn
    lets the next state-based action check destroy it."""
    state = board(board.c("giant", "alice", 5, 5), board.c("guard", "bob", 2, 2,
                                                             "indestructible"))
    result = board.engine.resolve(state, {"giant": "bob"}, {"guard": "giant"},
                                  actions=[("combat_damage", Revoke("guard", "indestructible"))])
    assert result.state.objects["guard"].zone == "graveyard"
    assert zone_events(result.events) == [("destroyed", "guard", "704.5g"),
                                          ("dies", "guard", "704.5g")]


def test_704_5i_an_indestructible_planeswalker_with_no_loyalty_is_put_into_the_graveyard(
        engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [
        engine.creature("giant", "alice", 5, 5),
        engine.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 3},
                         keywords=["indestructible"]),
    ])
    result = engine.resolve(state, {"giant": "jace"})
    assert result.state.objects["jace"].zone == "graveyard"
    assert zone_events(result.events) == [("dies", "jace", "704.5i")]


def test_702_12c_several_instances_of_indestructible_are_redundant(board: Any) -> None:
    state = board(board.c("giant", "alice", 5, 5),
                  board.c("guard", "bob", 2, 2, "indestructible", "indestructible"))
    result = board.engine.resolve(state, {"giant": "bob"}, {"guard": "giant"})
    assert result.state.objects["guard"].zone == "battlefield"


class TestIndestructibleConformance(KeywordConformance):
    """The conformance kit's invariants for indestructible (702.12), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _indestructible_plugin
    max_examples = 25
