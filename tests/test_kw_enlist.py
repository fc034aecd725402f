"""Enlist (CR 702.154): "As this creature attacks, you may tap up to one
untapped creature you control that you didn't choose to attack with and that
either has haste or has been under your control continuously since this turn
began. When you do, this creature gets +X/+0 until end of turn, where X is the
tapped creature's power" (702.154a); an optional cost to attack (702.154b,
508.1g)."""

from __future__ import annotations

import pytest
import redzone_keywords.enlist as enlist
from _long import samples
from redzone import Engine, GameState, IllegalActionError
from redzone.testing import KeywordConformance


def board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("knight", "alice", 2, 2, "enlist"), c("ox", "alice", 3, 3),
        c("new", "alice", 4, 4, summoning_sick=True),
        c("hasty", "alice", 1, 1, "haste", summoning_sick=True),
        c("sleepy", "alice", 5, 5, tapped=True)])


def test_702_154a_enlisting_taps_and_gives_plus_x(engine: Engine) -> None:
    """702.154a: the options are untapped creatures that don't attack and have
    haste or were controlled since the turn began; enlisting taps one and the
    reflexive trigger gives +X/+0, X its power."""
    out = engine.declare_attackers(board(engine), {"knight": "bob"},
                                   choices={"enlist:knight": "ox"})
    made = {c.key: c for c in out.choices}["enlist:knight"]
    assert made.options == ("hasty", "ox") and not made.by_default
    assert out.state.objects["ox"].tapped
    assert out.state.objects["knight"].power == 5
    assert ("enlisted", "702.154c") in [(e.kind, e.rule) for e in out.events]


def test_702_154b_the_default_is_not_to_enlist(engine: Engine) -> None:
    """702.154b: an optional cost; without an answer none is paid."""
    out = engine.declare_attackers(board(engine), {"knight": "bob"})
    assert not out.state.objects["ox"].tapped and out.state.objects["knight"].power == 2
    assert {c.key: c.by_default for c in out.choices}["enlist:knight"] is True


def test_702_154c_illegal_enlists_are_refused(engine: Engine) -> None:
    """702.154a, 702.154c: a summoning-sick creature without haste, an
    attacking creature, or the creature itself can't be enlisted; nothing
    changes."""
    state = board(engine)
    for bad in ("new", "knight", "sleepy"):
        with pytest.raises(IllegalActionError):
            engine.declare_attackers(state, {"knight": "bob"}, choices={"enlist:knight": bad})
    with pytest.raises(IllegalActionError):
        engine.declare_attackers(state, {"knight": "bob", "ox": "bob"},
                                 choices={"enlist:knight": "ox"})


def test_702_154a_the_enlist_action_is_an_enlisting_creatures_cost(engine: Engine) -> None:
    """702.154a: the enlist cost is the enlisting creature's, paid by tapping a
    creature its controller controls: performed for a creature without
    enlist, or tapping a planeswalker or an opponent's creature, it is
    refused and nothing changes (no "enlisted" event, no trigger)."""
    state = engine.game(["alice", "bob"], [
        *board(engine).objects.values(), engine.creature("bear", "bob", 2, 2),
        engine.permanent("jace", "alice", types=("planeswalker",), counters={"loyalty": 3})])
    state = engine.declare_attackers(state, {"knight": "bob", "ox": "bob"}).state
    for creature, enlisted in (("ox", "hasty"), ("knight", "jace"), ("knight", "bear")):
        with pytest.raises(IllegalActionError) as err:
            engine.perform(state, enlist.Enlist(creature, enlisted))
        assert err.value.violations[0].rule == "702.154a"
    done = engine.perform(state, enlist.Enlist("knight", "hasty")).state
    assert done.objects["hasty"].tapped


def test_702_154a_an_untapped_attacker_with_vigilance_cant_be_enlisted(engine: Engine) -> None:
    """702.154a "tap up to one untapped creature you control that you didn't
    choose to attack with": the ox with vigilance attacks and stays untapped,
    but it was chosen to attack, so it is no option and the enlist action
    tapping it is refused (702.154a); the elk, which stayed home, can be
    enlisted."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 2, 2, "enlist"),
                                           c("ox", "alice", 3, 3, "vigilance"),
                                           c("elk", "alice", 2, 2)])
    out = engine.declare_attackers(state, {"knight": "bob", "ox": "bob"})
    assert not out.state.objects["ox"].tapped
    assert {c.key: c.options for c in out.choices}["enlist:knight"] == ("elk",)
    with pytest.raises(IllegalActionError) as err:
        engine.perform(out.state, enlist.Enlist("knight", "ox"))
    assert err.value.rule == "702.154a" and "chosen to attack" in str(err.value)
    assert engine.perform(out.state, enlist.Enlist("knight", "elk")).state.objects["elk"].tapped


def test_702_154_the_enlist_action_is_checked_as_the_declarations_choice_is(
        engine: Engine) -> None:
    """702.154a-d: the ``enlist`` action a scenario performs pays the same cost
    as the declaration's choice, with the same checks: not itself (702.154c),
    not a creature chosen to attack, not one summoning sick without haste,
    only while the enlisting creature attacks as attackers are declared
    (702.154b, 508.1g), and up to one creature for each instance (702.154d)."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("knight", "alice", 2, 2, "enlist", "vigilance"), c("ox", "alice", 3, 3),
        c("elk", "alice", 2, 2), c("new", "alice", 4, 4, summoning_sick=True)])
    cases = {("knight", "knight"): "702.154c", ("knight", "new"): "702.154a",
             ("knight", "ox"): "702.154a", ("ox", "elk"): "702.154a"}
    attacking = engine.declare_attackers(state, {"knight": "bob", "ox": "bob"}).state
    for (creature, enlisted), rule in cases.items():
        with pytest.raises(IllegalActionError) as err:
            engine.perform(attacking, enlist.Enlist(creature, enlisted))
        assert err.value.rule == rule, (creature, enlisted)
    with pytest.raises(IllegalActionError) as err:  # not attacking: no cost to pay
        engine.perform(engine.begin_combat(state).state, enlist.Enlist("knight", "ox"))
    assert err.value.rule == "702.154b"
    alone = engine.declare_attackers(state, {"knight": "bob"}).state
    once = engine.perform(alone, enlist.Enlist("knight", "ox")).state
    with pytest.raises(IllegalActionError) as err:  # one instance, one creature
        engine.perform(once, enlist.Enlist("knight", "elk"))
    assert err.value.rule == "702.154d"
    blocked = engine.declare_blockers(alone, {}).state
    with pytest.raises(IllegalActionError) as err:  # after the declaration
        engine.perform(blocked, enlist.Enlist("knight", "ox"))
    assert err.value.rule == "702.154b"


def test_702_154d_two_instances_are_two_costs(engine: Engine) -> None:
    """702.154d: each instance is its own cost and trigger; one creature can't
    pay both (it is tapped by the first)."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 1, 1, "enlist", "enlist"),
                                           c("ox", "alice", 3, 3), c("elk", "alice", 2, 2)])
    out = engine.declare_attackers(state, {"knight": "bob"},
                                   choices={"enlist:knight": "ox", "enlist:knight#2": "elk"})
    assert out.state.objects["knight"].power == 6
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(state, {"knight": "bob"},
                                 choices={"enlist:knight": "ox", "enlist:knight#2": "ox"})
    assert info.value.rule == "702.154a"


class TestEnlistConformance(KeywordConformance):
    plugin = enlist
    max_examples = samples(15, 40)  # boards per invariant (40: the long run)


def test_702_154a_107_1b_a_negative_power_gives_plus_zero(engine: Engine) -> None:
    """702.154a with 107.1b: X is the tapped creature's power, and a
    calculation that yields a negative number uses zero (the effect neither
    doubles nor sets power): enlisting a -2/3 gives +0/+0, not -2/+0."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("knight", "alice", 2, 2, "enlist"), c("weak", "alice", -2, 3)])
    out = engine.declare_attackers(state, {"knight": "bob"},
                                   choices={"enlist:knight": "weak"})
    assert out.state.objects["weak"].tapped
    assert out.state.objects["knight"].power == 2
