"""Provoke (702.39): a triggered ability that creates a block requirement."""

from __future__ import annotations

import pytest
from redzone import (
    Engine,
    GameState,
    IllegalActionError,
    IllegalBlockError,
    Move,
    Permanent,
    Revoke,
)
from redzone.testing import KeywordConformance
from redzone_keywords import provoke as _provoke_plugin


def _board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("taunter", "alice", 2, 2, "provoke"), c("ogre", "alice", 3, 3),
        c("giant", "bob", 4, 4, tapped=True), c("bear", "bob", 2, 2)])


def test_702_39a_provoke_untaps_the_target_which_must_block(engine: Engine) -> None:
    """The default target is the defending player's creature with the greatest
    power (the tapped 4/4): it untaps and must block the provoker if able."""
    state = engine.declare_attackers(_board(engine), {"taunter": "bob", "ogre": "bob"}).state
    assert state.objects["giant"].tapped is False
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"giant": "ogre"})
    assert info.value.rule == "509.1c" and "giant blocks taunter if able" in info.value.message
    engine.declare_blockers(state, {"giant": "taunter", "bear": "ogre"})


def test_702_39a_the_target_is_a_choice_as_data(engine: Engine) -> None:
    manual = Engine(auto_triggers=False)
    state = manual.declare_attackers(_board(manual), {"taunter": "bob"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.rule) == ("provoke", "702.39a")
    chosen = manual.resolve_trigger(state, choices={"target": ["bear"]}).state
    with pytest.raises(IllegalBlockError):
        manual.declare_blockers(chosen, {})
    manual.declare_blockers(chosen, {"bear": "taunter"})
    declined = manual.resolve_trigger(state, choices={"target": []}).state
    assert declined.objects["giant"].tapped is True
    manual.declare_blockers(declined, {})
    with pytest.raises(IllegalActionError) as info:
        manual.resolve_trigger(state, choices={"target": ["ogre"]})
    assert info.value.rule == "702.39a"


def test_702_39b_each_instance_triggers(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("taunter", "alice", 2, 2, "provoke", "provoke"),
                                            c("bear", "bob", 2, 2)])
    out = engine.declare_attackers(state, {"taunter": "bob"})
    assert [e.get("ability") for e in out.events if e.kind == "resolve"] == ["provoke", "provoke"]


def test_provoke_requirement_yields_to_a_restriction(engine: Engine) -> None:
    """702.39a, 509.1c: provoke resolves on its target (the tapped bear is
    untapped and must block the provoker this combat if able), but the number
    of requirements obeyed is maximized "without disobeying any
    restrictions": the bear has neither flying nor reach, so it can't block
    the flier (702.9b) and declaring no blockers is legal. The same bear with
    reach must block it."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("taunter", "alice", 2, 2, "provoke", "flying"),
                                            c("bear", "bob", 2, 2, tapped=True)])
    out = engine.declare_attackers(state, {"taunter": "bob"})
    assert [(e.kind, e.get("ability")) for e in out.events if e.kind == "resolve"] == [
        ("resolve", "provoke")]
    state = out.state
    assert state.objects["bear"].tapped is False
    assert [(e.kind, e.to, e.source, e.duration) for e in state.effects] == [
        ("blocks_if_able", "bear", "taunter", "this_combat")]
    assert engine.block_violations(state, {}) == ()
    combat = engine.declare_blockers(state, {}).state.combat
    assert combat is not None and combat.blocks == {}
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"bear": "taunter"})
    assert (info.value.rule, info.value.objects) == ("702.9b", ("bear", "taunter"))
    reaching = engine.game(["alice", "bob"], [c("taunter", "alice", 2, 2, "provoke", "flying"),
                                               c("bear", "bob", 2, 2, "reach", tapped=True)])
    reaching = engine.declare_attackers(reaching, {"taunter": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(reaching, {})
    assert info.value.rule == "509.1c"
    engine.declare_blockers(reaching, {"bear": "taunter"})


def test_603_3d_the_target_is_chosen_as_it_goes_on_the_stack() -> None:
    """603.3d: the target is chosen as provoke is put on the stack (by key, with
    the declaration); 608.2b: a default target that left before it resolves
    makes it do nothing."""
    from redzone import Exile

    manual = Engine(auto_triggers=False)
    state = manual.declare_attackers(_board(manual), {"taunter": "bob"},
                                     choices={"provoke@taunter:target": "bear"}).state
    assert state.stack[0].choices["target"] == ("bear",)
    default = manual.declare_attackers(_board(manual), {"taunter": "bob"}).state
    assert default.stack[0].choices["target"] == ("giant",)
    gone = manual.perform(default, Exile("giant")).state
    resolved = manual.resolve_trigger(gone)
    assert not [e for e in resolved.events if e.kind == "effect"]
    with pytest.raises(IllegalActionError):
        manual.declare_attackers(_board(manual), {"taunter": "bob"},
                                 choices={"provoke@taunter:target": "ogre"})


def test_608_2b_a_chosen_target_that_left_makes_it_do_nothing() -> None:
    """608.2b: a target chosen by an answer as provoke went on the stack (603.3d)
    that left the battlefield before it resolves is illegal: the ability does
    nothing (no untap, no block requirement, not the default target instead)
    and leaves the stack."""
    from redzone import Exile, Tap

    manual = Engine(auto_triggers=False)
    board = manual.perform(_board(manual), Tap("bear")).state
    state = manual.declare_attackers(board, {"taunter": "bob"},
                                     choices={"provoke@taunter:target": "bear"}).state
    (trigger,) = state.stack
    assert trigger.choices["target"] == ("bear",) != trigger.offers[0].default
    kept = manual.resolve_trigger(state)  # while it is there: untapped, must block
    assert kept.state.objects["bear"].tapped is False
    assert [(e.to, e.kind) for e in kept.state.effects] == [("bear", "blocks_if_able")]
    gone = manual.perform(state, Exile("bear")).state
    assert gone.stack == state.stack
    resolved = manual.resolve_trigger(gone)
    assert resolved.state.stack == () and resolved.state.effects == ()
    assert [e.kind for e in resolved.events] == ["resolve"]
    assert resolved.state.objects["giant"].tapped is True
    manual.declare_blockers(resolved.state, {})


def test_702_39a_the_requirement_lasts_this_combat_only(engine: Engine) -> None:
    """702.39a: "block this creature this combat if able": in an additional
    combat of the same turn (505.1a) the provoked creature need not block,
    once the provoker attacks without provoke; in the first it must."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("tracker", "alice", 2, 2, "provoke", "vigilance"),
                                           c("elves", "bob", 1, 3)])
    state = engine.declare_attackers(state, {"tracker": "bob"}).state
    with pytest.raises(IllegalBlockError):
        engine.declare_blockers(state, {})
    first = engine.resolve(state, blocks={"elves": "tracker"}, actions=[
        ("end_of_combat", Revoke("tracker", ("provoke",)))])
    assert not first.state.effects
    second = engine.resolve(first.state, {"tracker": "bob"}, {})
    assert second.state.players["bob"].life == 18


@pytest.mark.parametrize("theirs", [(), ("protection from red",)],
                         ids=["no creature", "protection"])
def test_603_3d_no_legal_target_removes_it_from_the_stack(theirs: tuple[str, ...]) -> None:
    """603.3d: a choice required as the ability goes on the stack with no legal
    choice: "the ability is simply removed from the stack". Provoke's target
    (702.39a: "target creature defending player controls") is required, the
    "you may" being decided as it resolves (603.5): with no creature the
    defending player controls, or only one the red provoker can't target
    (702.16b), it is removed from the stack and never resolves."""
    manual = Engine(auto_triggers=False)
    c = manual.creature
    board = [c("taunter", "alice", 2, 2, "provoke", colors={"red"})]
    if theirs:
        board.append(c("bear", "bob", 2, 2, *theirs, tapped=True))
    out = manual.declare_attackers(manual.game(["alice", "bob"], board), {"taunter": "bob"})
    assert out.state.stack == ()
    assert [(e.kind, e.rule, e.get("ability")) for e in out.events
            if e.get("ability") == "provoke"] == [("removed_from_stack", "603.3d", "provoke")]
    assert not [e for e in out.events if e.kind == "choice"]
    auto = Engine().declare_attackers(manual.game(["alice", "bob"], board), {"taunter": "bob"})
    assert not [e for e in auto.events if e.kind in ("resolve", "trigger")]
    assert auto.state.effects == ()


def test_702_39a_603_3d_a_planeswalker_is_no_legal_target() -> None:
    """702.39a "target creature defending player controls": bob controls only
    a tapped planeswalker, which isn't a creature, so provoke has no legal
    target and is removed from the stack (603.3d): nothing is untapped and
    no block requirement is made."""
    manual = Engine(auto_triggers=False)
    c = manual.creature
    state = manual.game(["alice", "bob"], [
        c("taunter", "alice", 2, 2, "provoke"),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3}, tapped=True)])
    out = manual.declare_attackers(state, {"taunter": "bob"})
    assert out.state.stack == ()
    assert [(e.kind, e.rule) for e in out.events if e.get("ability") == "provoke"] == [
        ("removed_from_stack", "603.3d")]
    assert out.state.objects["jace"].tapped and out.state.effects == ()


def test_508_3a_508_4_provoke_put_onto_the_battlefield_attacking_does_not_trigger(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the
    battlefield attacking" (508.4). The taunter with provoke ("Whenever this
    creature attacks", 702.39a) enters the battlefield attacking bob (a
    ``Move``, with its ``enters_battlefield`` event): no trigger; bob's tapped
    giant stays tapped and need not block it."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("ogre", "alice", 3, 3), c("taunter", "alice", 2, 2, "provoke", zone="hand"),
        c("giant", "bob", 4, 4, tapped=True)])
    state = engine.declare_attackers(state, {"ogre": "bob"}).state
    out = engine.perform(state, Move("taunter", "battlefield", attacking="bob"))
    assert out.state.combat is not None and out.state.combat.attacks["taunter"] == "bob"
    assert [e for e in out.events if e.kind == "trigger"] == []
    assert out.state.objects["giant"].tapped and out.state.effects == ()


def test_603_5_an_empty_answer_still_declines_when_there_is_a_target() -> None:
    """603.5, 702.39a "you may": with a creature to target, an empty answer for
    ``provoke@<source>:target`` declines: the ability goes on the stack and
    resolves doing nothing (no untap, no requirement)."""
    manual = Engine(auto_triggers=False)
    state = manual.declare_attackers(_board(manual), {"taunter": "bob"},
                                     choices={"provoke@taunter:target": []}).state
    (trigger,) = state.stack
    assert trigger.choices["target"] == ()
    resolved = manual.resolve_trigger(state).state
    assert resolved.stack == () and resolved.effects == ()
    assert resolved.objects["giant"].tapped is True


class TestProvokeConformance(KeywordConformance):
    """The conformance kit's invariants for provoke (702.39), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _provoke_plugin
    max_examples = 25
