"""Triggered abilities and the objects they name (400.7, 603.6, 603.7a,
603.7c, 603.10, 608.2b), and the bound on abilities triggering in one
command (guarantee 15), for abilities written as data (`AddTrigger`,
`[[triggers]]`) and delayed triggers."""

from __future__ import annotations

import pytest
from redzone import (
    AddTrigger,
    BoundError,
    CreateDelayedTrigger,
    Destroy,
    Engine,
    Exile,
    GainLife,
    Move,
)

engine = Engine()
paused = Engine(auto_triggers=False)
c = engine.creature


def test_603_7c_a_delayed_return_doesnt_take_the_card_from_the_graveyard() -> None:
    """603.7c: "at end of combat, return the elemental to its owner's hand";
    the elemental was destroyed before then: the ability does nothing, the
    card stays in the graveyard."""
    state = engine.game(["alice", "bob"], [c("elemental", "alice", 3, 1, "haste")])
    result = engine.resolve(state, {"elemental": "bob"}, {}, actions=[
        ("declare_attackers", CreateDelayedTrigger(
            "end_of_combat", (Move("elemental", "hand"),), source="elemental",
            controller="alice", text="return it to hand")),
        ("declare_blockers", Destroy("elemental"))])
    assert result.state.objects["elemental"].zone == "graveyard"
    assert [e.rule for e in result.events if e.kind == "skipped"] == ["603.7c"]


def test_400_7_an_attack_trigger_doesnt_move_its_creature_from_the_graveyard() -> None:
    """400.7, 608.2b: "whenever the scout attacks, return it to its owner's
    hand": the scout was destroyed before the ability resolved: the card in
    the graveyard is a new object, which it doesn't move."""
    state = paused.game(["alice", "bob"], [c("scout", "alice", 2, 2)])
    state = paused.perform(state, AddTrigger("attack", "scout", (Move("scout", "hand"),),
                                             match={"attacker": "self"})).state
    state = paused.declare_attackers(paused.begin_combat(state).state, {"scout": "bob"}).state
    state = paused.perform(state, Destroy("scout")).state
    out = paused.resolve_trigger(state)
    assert out.state.objects["scout"].zone == "graveyard"


def test_603_6_a_dies_trigger_returns_its_card_only_if_it_stayed_in_the_graveyard() -> None:
    """603.6: "when the phoenix dies, return it to the battlefield" finds the
    card in the graveyard; exiled and put back before it resolves, it is a
    new object the ability doesn't find. Without that, it returns."""
    state = paused.game(["alice", "bob"], [c("phoenix", "alice", 2, 2)])
    state = paused.perform(state, AddTrigger("dies", "phoenix", (Move("phoenix", "battlefield"),),
                                             match={"object": "self"})).state
    state = paused.perform(state, Destroy("phoenix")).state
    assert paused.resolve_trigger(state).state.objects["phoenix"].zone == "battlefield"
    moved = paused.perform(state, [Move("phoenix", "exile"), Move("phoenix", "graveyard")]).state
    assert paused.resolve_trigger(moved).state.objects["phoenix"].zone == "graveyard"


def test_603_6c_a_leaves_delayed_trigger_finds_the_card_where_it_went() -> None:
    """603.6c, 603.7c: "when the bear leaves the battlefield, return it to
    its owner's hand": it finds the card in the graveyard it went to."""
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2)])
    state = engine.perform(state, CreateDelayedTrigger(
        "leaves", (Move("bear", "hand"),), object="bear", source="bear",
        controller="alice")).state
    out = engine.perform(state, Destroy("bear"))
    assert out.state.objects["bear"].zone == "hand"


def test_603_7a_a_leaves_delayed_trigger_waits_for_its_own_objects_leaving() -> None:
    """603.7a: a "when the bear leaves" ability created after the bear was
    exiled and returned in the same resolution doesn't trigger on that
    exile: it still waits."""
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2)])
    out = engine.perform(state, [
        Exile("bear"), Move("bear", "battlefield"),
        CreateDelayedTrigger("leaves", (GainLife("alice", 5),), object="bear", source="bear",
                             controller="alice")])
    assert out.state.players["alice"].life == 20
    assert len(out.state.delayed) == 1


def test_603_10_a_source_flickered_after_the_event_still_triggers_on_it() -> None:
    """603.2, 603.10: the warden was on the battlefield as the bear died; it
    was exiled and returned later in the same resolution: its "whenever a
    creature dies" ability triggered all the same."""
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("warden", "bob", 1, 1)])
    state = engine.perform(state, AddTrigger("dies", "warden", (GainLife("bob", 2),))).state
    out = engine.perform(state, [Destroy("bear"), Exile("warden"), Move("warden", "battlefield")])
    assert out.state.players["bob"].life == 22


def test_guarantee_15_written_triggers_count_toward_the_trigger_bound() -> None:
    """Guarantee 15, 603.2: an ability written as data that triggers on its
    own resolution loops for ever: the command fails with a BoundError once
    10,000 abilities triggered, naming the bound, and changes nothing."""
    state = engine.game(["alice", "bob"], [c("warden", "bob", 1, 1)])
    state = engine.perform(state, AddTrigger("life_gain", "warden", (GainLife("bob", 1),),
                                             match={"player": "bob"})).state
    with pytest.raises(BoundError) as info:
        engine.perform(state, GainLife("bob", 1))
    assert info.value.bound == "triggers"
    assert state.players["bob"].life == 20
