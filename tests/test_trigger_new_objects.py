"""400.7 for a triggered ability's own source and for a target chosen
through its offer: a permanent that left the battlefield and came back
while the ability waited on the stack is a new object, which the ability
doesn't affect (400.7, 603.7c, 608.2b), whichever plugin gives the actions
as it resolves."""

from __future__ import annotations

import pytest
from redzone import Engine, Move
from redzone.kernel.model import GameState

engine = Engine(auto_triggers=False)
c = engine.creature


def _blinked(state: GameState, obj: str, **back: object) -> GameState:
    state = engine.perform(state, Move(obj, "exile")).state
    return engine.perform(state, Move(obj, "battlefield", **back)).state  # type: ignore[arg-type]


def _skipped(events: tuple[object, ...]) -> list[str]:
    return [e.rule for e in events if e.kind == "skipped"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("keyword", ["dethrone", "melee", "training"])
def test_400_7_an_attack_trigger_skips_its_source_back_as_a_new_object(keyword: str) -> None:
    """702.105a, 702.121a, 702.149a with 400.7: "put a +1/+1 counter on this
    creature" / "it gets +1/+1": the creature was exiled and returned before
    the ability resolved, so the new object gets nothing."""
    state = engine.game(["alice", "bob"], [c("s", "alice", 1, 1, keyword),
                                           c("big", "alice", 3, 3)])
    state = engine.declare_attackers(state, {"s": "bob", "big": "bob"}).state
    assert len(state.stack) == 1
    out = engine.resolve_trigger(_blinked(state, "s"))
    s = out.state.objects["s"]
    assert (s.power, s.toughness, dict(s.counters)) == (1, 1, {})
    assert _skipped(out.events) == ["400.7"]


def test_400_7_the_same_trigger_affects_its_source_that_stayed() -> None:
    """702.105a: the control case: without the blink, dethrone's counter is
    put on the creature."""
    state = engine.game(["alice", "bob"], [c("s", "alice", 1, 1, "dethrone")])
    state = engine.declare_attackers(state, {"s": "bob"}).state
    out = engine.resolve_trigger(state)
    assert dict(out.state.objects["s"].counters) == {"+1/+1": 1}


@pytest.mark.parametrize("keyword", ["bushido 2"])
def test_400_7_a_block_trigger_doesnt_pump_its_source_back_as_a_new_object(keyword: str) -> None:
    """702.45a with 400.7: bushido's "it gets +N/+N" skips the new object."""
    state = engine.game(["alice", "bob"], [c("s", "alice", 1, 1, keyword), c("a", "bob", 1, 1)])
    state = engine.declare_attackers(state, {"s": "bob"}).state
    state = engine.declare_blockers(state, {"a": ["s"]}).state
    out = engine.resolve_trigger(_blinked(state, "s"))
    assert (out.state.objects["s"].power, out.state.objects["s"].toughness) == (1, 1)


def test_603_7c_decayed_doesnt_sacrifice_its_creature_back_as_a_new_object() -> None:
    """702.147a, 603.7c, 400.7: "when this creature attacks, sacrifice it at
    end of combat": exiled and returned before that trigger resolved, the new
    Zombie isn't the "it" of the delayed trigger, and survives combat."""
    state = engine.game(["alice", "bob"], [c("z", "alice", 2, 2, "decayed")])
    state = engine.declare_attackers(state, {"z": "bob"}).state
    out = engine.resolve_trigger(_blinked(state, "z"))
    state = engine.declare_blockers(out.state, {}).state
    state = engine.combat_damage(state).state
    state = engine.end_of_combat(state).state
    while state.stack:
        state = engine.resolve_trigger(state).state
    assert state.objects["z"].zone == "battlefield"


@pytest.mark.parametrize("tapped", [True, False])
def test_608_2b_provoke_does_nothing_to_its_target_back_as_a_new_object(tapped: bool) -> None:
    """702.39a, 608.2b, 400.7: provoke's target was exiled and returned
    before the ability resolved: it is a new object, no longer the target,
    so neither part of the ability does anything to it (each skipped,
    400.7): back tapped, it isn't untapped; back untapped (so that it could
    block), it gets no requirement to block (509.1c) and declaring no
    blockers is legal. The control: the target that stayed must block the
    provoker."""
    state = engine.game(["alice", "bob"], [c("p", "alice", 2, 2, "provoke"),
                                           c("w", "bob", 1, 4, tapped=True)])
    state = engine.declare_attackers(state, {"p": "bob"},
                                     choices={"provoke@p:target": ["w"]}).state
    out = engine.resolve_trigger(_blinked(state, "w", tapped=tapped))
    assert out.state.objects["w"].tapped is tapped
    assert out.state.effects == ()
    assert _skipped(out.events) == ["400.7", "400.7"]  # the untap and the requirement
    assert engine.block_violations(out.state, {}) == ()
    engine.declare_blockers(out.state, {})  # no requirement to block: legal
    stayed = engine.resolve_trigger(state).state
    assert stayed.objects["w"].tapped is False
    assert [v.rule for v in engine.block_violations(stayed, {})] == ["509.1c"]


def test_608_2b_mentor_puts_no_counter_on_its_target_back_as_a_new_object() -> None:
    """702.134a, 608.2b, 400.7: mentor's target was exiled and returned
    attacking before the ability resolved: the new object gets no counter."""
    state = engine.game(["alice", "bob"], [c("m", "alice", 3, 3, "mentor"),
                                           c("y", "alice", 2, 2)])
    state = engine.declare_attackers(state, {"m": "bob", "y": "bob"},
                                     choices={"mentor@m:target": ["y"]}).state
    out = engine.resolve_trigger(_blinked(state, "y", tapped=True, attacking="bob"))
    assert dict(out.state.objects["y"].counters) == {}
    assert _skipped(out.events) == ["400.7"]


def test_603_6_persist_still_returns_its_card_from_the_graveyard() -> None:
    """702.79a, 603.6a-c: a dies trigger's source is the card in the
    graveyard; noting its number doesn't stop persist returning it."""
    state = engine.game(["alice", "bob"], [c("p", "alice", 2, 2, "persist"),
                                           c("k", "bob", 3, 3)])
    state = engine.declare_attackers(state, {"p": "bob"}).state
    state = engine.declare_blockers(state, {"k": ["p"]}).state
    state = engine.combat_damage(state).state
    while state.stack:
        state = engine.resolve_trigger(state).state
    p = state.objects["p"]
    assert p.zone == "battlefield" and dict(p.counters) == {"-1/-1": 1}
