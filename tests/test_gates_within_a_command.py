"""Guarantee 22: the gates change no result. A keyword that was present
earlier in a command keeps its plugin asked until the command ends: what it
left in the command (deathtouch's mark, 702.2b / 704.5h; enlist's
reflexive trigger on the paid cost, 702.154a / 603.2) is answered for even
if the keyword is gone when state-based actions are checked or triggers
are put on the stack, whatever else the same resolution does."""

from __future__ import annotations

import pytest
from redzone import DealDamage, Engine, Revoke, StackObject
from redzone_keywords.enlist import Enlist

SHOCK = DealDamage(StackObject("shock", "alice", colors={"red"}), "bob", 1)


@pytest.mark.parametrize("verify", [False, True])
@pytest.mark.parametrize("spell", [False, True])
def test_704_5h_deathtouch_damage_destroys_after_the_source_loses_deathtouch(
        verify: bool, spell: bool) -> None:
    """702.2b, 704.5h, 608.2c: a deathtouch 1/1 deals 1 to a 2/5, loses
    deathtouch, and a spell deals 1 to bob, all in one resolution: at the
    check that follows, the 2/5 is destroyed, in production as in verify
    mode, with or without the unrelated spell."""
    engine = Engine(verify=verify)
    state = engine.game(["alice", "bob"], [engine.creature("dt", "alice", 1, 1, "deathtouch"),
                                           engine.creature("bear", "bob", 2, 5)])
    actions = [DealDamage("dt", "bear", 1), Revoke("dt", ("deathtouch",))]
    out = engine.perform(state, [*actions, *([SHOCK] if spell else [])])
    assert out.state.objects["bear"].zone == "graveyard"
    assert [e.rule for e in out.events if e.kind == "destroyed"] == ["704.5h"]


@pytest.mark.parametrize("verify", [False, True])
@pytest.mark.parametrize("spell", [False, True])
def test_603_2_enlists_reflexive_trigger_after_the_creature_loses_enlist(
        verify: bool, spell: bool) -> None:
    """702.154a, 603.2-603.3: the enlist cost is paid (the ability triggers
    then), the knight loses enlist and a spell deals 1 to bob in the same
    resolution: the trigger still goes on the stack and the knight gets
    +3/+0."""
    engine = Engine(verify=verify)
    state = engine.game(["alice", "bob"], [engine.creature("knight", "alice", 2, 2, "enlist"),
                                           engine.creature("squire", "alice", 3, 3)])
    state = engine.declare_attackers(engine.begin_combat(state).state, {"knight": "bob"}).state
    actions = [Enlist("knight", "squire"), Revoke("knight", ("enlist",))]
    out = engine.perform(state, [*actions, *([SHOCK] if spell else [])])
    assert out.state.objects["knight"].power == 5
