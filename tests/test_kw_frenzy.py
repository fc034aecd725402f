"""Frenzy (CR 702.68, the same words as 502.66 of 2009): "Whenever this creature
attacks and isn't blocked, it gets +N/+0 until end of turn" (702.68a); each instance
triggers separately (702.68b). It triggers in the declare blockers step (508.3f) if no
creature is declared as a blocker for it (509.3g)."""

from __future__ import annotations

import pytest
import redzone_keywords.frenzy as frenzy
from redzone import (
    BecomeBlocked,
    Engine,
    EnterAttacking,
    GameState,
    MakeBlock,
    RemoveFromCombat,
)
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def attacked(engine: Engine, *keywords: str) -> GameState:
    """A 2/2 with ``keywords`` ("berserker") attacks bob, who has a 1/4 wall."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("berserker", "alice", 2, 2, *keywords),
                                           c("wall", "bob", 1, 4)])
    out = engine.declare_attackers(state, {"berserker": "bob"})
    assert not [e for e in out.events if e.kind == "trigger"]  # 508.3f: not yet
    return out.state


def test_702_68a_unblocked_it_gets_plus_n_plus_0(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "frenzy 2"), {})
    berserker = out.state.objects["berserker"]
    assert (berserker.power, berserker.toughness) == (4, 2)
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.68a"]
    assert engine.combat_damage(out.state).state.players["bob"].life == 16


def test_702_68a_blocked_it_does_not_trigger(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "frenzy 2"), {"wall": "berserker"})
    assert out.state.objects["berserker"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_68b_each_instance_triggers_separately(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine, "frenzy 1", "frenzy 2"), {})
    assert out.state.objects["berserker"].power == 5


def test_702_68a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_blockers(attacked(manual, "frenzy 3"), {}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.amount,
            trigger.rule) == ("frenzy", "berserker", "alice", 3, "702.68a")
    assert state.step == "declare_blockers"
    assert manual.resolve_trigger(state).state.objects["berserker"].power == 5
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.objects["berserker"].power == 2


def test_509_3g_blocked_then_its_blocker_removed_it_does_not_trigger(engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine, "frenzy 2"), {"wall": "berserker"}).state
    out = engine.perform(state, RemoveFromCombat("wall"))
    assert out.state.objects["berserker"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_509_3g_made_blocked_after_the_trigger_keeps_the_bonus(manual: Engine) -> None:
    """It triggered as no blocker was declared; becoming blocked later, before it
    resolves, doesn't undo that (the condition isn't checked again)."""
    state = manual.declare_blockers(attacked(manual, "frenzy 2"), {}).state
    state = manual.perform(state, BecomeBlocked("berserker")).state
    state = manual.perform(state, MakeBlock("wall", "berserker")).state
    assert manual.resolve_trigger(state).state.objects["berserker"].power == 4


def test_509_3g_it_triggers_for_a_creature_put_onto_the_battlefield_attacking(
        engine: Engine) -> None:
    """The berserker never attacked: it entered the battlefield attacking (508.4), put
    there by some other effect; unblocked, its frenzy still triggers (509.3g)."""
    state = attacked(engine)
    combat = state.combat
    assert combat is not None
    token = engine.creature("raider", "alice", 1, 1, "frenzy 2", tapped=True, token=True)
    state = state.with_permanents({"raider": token}).evolve(combat=combat.evolve(
        attacks=combat.attacks.set("raider", "bob"),
        defending_players=combat.defending_players.set("raider", "bob")))
    out = engine.declare_blockers(state, {})
    assert out.state.objects["raider"].power == 3
    assert engine.combat_damage(out.state).state.players["bob"].life == 20 - 2 - 3


def test_509_3g_603_2_a_creature_entering_attacking_after_blockers_does_not_trigger(
        engine: Engine) -> None:
    """509.3g, 509.1i, 603.2: frenzy triggers on blockers being declared with
    none for its creature. A creature put onto the battlefield attacking after
    that (ninjutsu, in the declare blockers step) is unblocked (508.4d) but
    wasn't there as blockers were declared: nothing triggers for it."""
    state = engine.declare_blockers(attacked(engine), {"wall": "berserker"}).state
    raider = engine.creature("raider", "alice", 2, 2, "frenzy 2", token=True)
    out = engine.perform(state, EnterAttacking(raider, "bob"))
    assert ("unblocked", "raider") in [(e.kind, e.object) for e in out.events]
    assert out.state.objects["raider"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


class TestFrenzyConformance(KeywordConformance):
    """The conformance kit's invariants hold with frenzy on generated boards."""

    plugin = frenzy
    max_examples = 10
