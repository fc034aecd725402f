"""Decayed (CR 702.147): "Decayed" means "This creature can't block" and "When this
creature attacks, sacrifice it at end of combat" (702.147a)."""

from __future__ import annotations

import pytest
import redzone_keywords.decayed as decayed
from redzone import (
    CombatResult,
    CreateToken,
    Engine,
    GainControl,
    GameState,
    IllegalActionError,
    IllegalBlockError,
    Permanent,
    Regenerate,
    Violation,
    hookimpl,
)
from redzone.kernel.engine import CombatPlan
from redzone.testing import KeywordConformance


def board(engine: Engine, *extra: Permanent) -> GameState:
    """alice: a 2/2 decayed Zombie; bob: a 2/2 decayed Zombie and a bear."""
    c = engine.creature
    return engine.game(["alice", "bob"], [c("zombie", "alice", 2, 2, "decayed"),
                                          c("rotter", "bob", 2, 2, "decayed"),
                                          c("bear", "bob", 2, 2), *extra])


def test_509_1b_a_decayed_creature_cant_block(engine: Engine) -> None:
    """702.147a "can't block": a restriction on declaring blockers (509.1b); the
    declaration is illegal and names the creature and the rule."""
    state = engine.declare_attackers(board(engine), {"zombie": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"rotter": "zombie"})
    err = info.value
    assert err.rule == "702.147a" and err.objects == ("rotter",)
    assert err.violations[0].restriction == "decayed"
    assert engine.legal_blockers(state, "zombie") == ("bear",)
    engine.declare_blockers(state, {"bear": "zombie"})  # another creature may


class Unrestricted:
    """Test double for "can block as though it didn't have decayed"."""

    __name__ = "test-unrestricted"

    @hookimpl
    def redzone_block_exemption(self, violation: Violation) -> bool:
        return violation.restriction == "decayed"


def test_509_1b_the_restriction_is_named_so_an_effect_can_lift_it() -> None:
    engine = Engine(plugins=[Unrestricted()])
    state = engine.declare_attackers(board(engine), {"zombie": "bob"}).state
    assert engine.block_violations(state, {"rotter": "zombie"}) == ()


def test_702_147a_a_decayed_creature_can_attack(engine: Engine) -> None:
    """Decayed restricts blocking only: it attacks and deals its damage."""
    result = engine.resolve(board(engine), {"zombie": "bob"}, {})
    assert result.state.players["bob"].life == 18


def test_702_147a_when_it_attacks_it_is_sacrificed_at_end_of_combat(engine: Engine) -> None:
    """702.147a, 603.7a: the attack trigger creates a delayed trigger; it deals its
    combat damage and is sacrificed as the end of combat step begins (511.2)."""
    state = engine.declare_attackers(board(engine), {"zombie": "bob"}).state
    assert [(d.when, d.kind, d.source) for d in state.delayed] == [
        ("end_of_combat", "decayed sacrifice", "zombie")]
    state = engine.combat_damage(engine.declare_blockers(state, {}).state).state
    assert state.objects["zombie"].zone == "battlefield"
    assert state.players["bob"].life == 18
    out = engine.end_of_combat(state)
    assert out.state.objects["zombie"].zone == "graveyard"
    assert [(e.kind, e.object) for e in out.events if e.kind in ("sacrificed", "dies")] == [
        ("sacrificed", "zombie"), ("dies", "zombie")]
    assert out.state.delayed == ()


def test_702_147a_a_decayed_creature_that_doesnt_attack_stays(engine: Engine) -> None:
    result = engine.resolve(board(engine), {}, {})
    assert result.state.objects["zombie"].zone == "battlefield"
    assert result.state.delayed == ()


def test_701_21a_sacrifice_ignores_indestructible_and_regeneration(engine: Engine) -> None:
    """701.21a: sacrifice isn't destruction; neither indestructible (702.12b) nor a
    regeneration shield (701.19) saves it."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("zombie", "alice", 2, 2, "decayed",
                                             "indestructible")])
    state = engine.perform(state, Regenerate("zombie")).state
    result = engine.resolve(state, {"zombie": "bob"}, {})
    assert result.state.objects["zombie"].zone == "graveyard"


def test_508_4_put_onto_the_battlefield_attacking_it_never_attacked(engine: Engine) -> None:
    """508.4: a decayed token put onto the battlefield attacking never "attacked": no
    trigger, so it survives end of combat (it still can't block)."""
    state = engine.declare_attackers(board(engine), {}).state
    token = engine.creature("tok", "alice", 2, 2, "decayed")
    out = engine.perform(state, CreateToken(token, tapped=True, attacking="bob"))
    assert out.state.delayed == ()
    after = engine.end_of_combat(engine.combat_damage(
        engine.declare_blockers(out.state, {}).state).state)
    assert after.state.objects["tok"].zone == "battlefield"
    assert after.state.players["bob"].life == 18


def test_603_7c_it_left_before_end_of_combat(engine: Engine) -> None:
    """603.7c: if it already died, the delayed trigger finds nothing to sacrifice."""
    state = engine.declare_attackers(board(engine), {"zombie": "bob"}).state
    state = engine.combat_damage(engine.declare_blockers(state, {"bear": "zombie"}).state).state
    assert state.objects["zombie"].zone == "graveyard"
    out = engine.end_of_combat(state)
    assert "sacrificed" not in [e.kind for e in out.events]
    assert ("skipped", "603.7c") in [(e.kind, e.rule) for e in out.events]


def test_701_21a_603_7e_a_player_cant_sacrifice_what_another_player_controls(
        engine: Engine) -> None:
    """603.7e: the delayed trigger "sacrifice it at end of combat" is alice's,
    who controlled the ability that made it; 701.21a: "A player can't
    sacrifice ... a permanent they don't control". bob gains control of
    alice's attacking zombie before end of combat: the delayed trigger
    sacrifices nothing, and the zombie stays on the battlefield under bob's
    control."""
    state = engine.declare_attackers(board(engine), {"zombie": "bob"}).state
    state = engine.perform(state, GainControl("zombie", "bob")).state
    state = engine.combat_damage(engine.declare_blockers(state, {}).state).state
    out = engine.end_of_combat(state)
    zombie = out.state.objects["zombie"]
    assert (zombie.zone, zombie.controller) == ("battlefield", "bob")
    assert not [e for e in out.events if e.kind in ("sacrificed", "dies")]
    assert out.state.delayed == ()


def test_500_8_it_is_sacrificed_at_the_end_of_the_combat_it_attacked_in(
        engine: Engine) -> None:
    """The delayed trigger triggers at the next end of combat (603.7b): the one of
    the combat in which it attacked, before an additional combat (500.8). One
    that attacks in the first combat (vigilance: still untapped) is sacrificed
    as the first ends and isn't there to attack again; one that attacks only in
    the additional combat is sacrificed as that one ends (``end_of_combat#2``)."""
    c = engine.creature

    def sacrifices(result: CombatResult) -> list[tuple[str, str | None, str]]:
        return [(e.kind, e.object, e.step) for e in result.events
                if e.kind in ("sacrificed", "dies")]

    state = engine.game(["alice", "bob"], [c("zombie", "alice", 2, 2, "decayed", "vigilance"),
                                           c("ghoul", "alice", 2, 2, "decayed", "vigilance")])
    first = engine.resolve(state, {"zombie": "bob"}, {})
    assert first.state.objects["zombie"].zone == "graveyard"
    assert first.state.players["bob"].life == 18
    assert sacrifices(first) == [("sacrificed", "zombie", "end_of_combat"),
                                 ("dies", "zombie", "end_of_combat")]
    both = engine.resolve(state, {"zombie": "bob"}, {},
                          additional_combats=[CombatPlan({"ghoul": "bob"})])
    assert "end_of_combat#2" in both.steps
    assert sacrifices(both) == [("sacrificed", "zombie", "end_of_combat"),
                                ("dies", "zombie", "end_of_combat"),
                                ("sacrificed", "ghoul", "end_of_combat#2"),
                                ("dies", "ghoul", "end_of_combat#2")]
    assert both.state.players["bob"].life == 16 and both.state.delayed == ()
    assert both.after_steps["combat_damage#2"].objects["ghoul"].zone == "battlefield"
    with pytest.raises(IllegalActionError):  # 508.1a: it is gone before the second combat
        engine.resolve(state, {"zombie": "bob"}, {},
                       additional_combats=[CombatPlan({"zombie": "bob"})])


def test_702_147a_two_instances_trigger_twice_and_it_is_sacrificed_once(
        engine: Engine) -> None:
    """Each instance of the triggered ability triggers; the second delayed trigger
    finds the creature gone (603.7c) and does nothing."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("zombie", "alice", 2, 2, "decayed", "decayed")])
    state = engine.declare_attackers(state, {"zombie": "bob"}).state
    assert len(state.delayed) == 2
    out = engine.end_of_combat(engine.combat_damage(engine.declare_blockers(
        state, {}).state).state)
    assert [e.kind for e in out.events].count("sacrificed") == 1
    assert out.state.objects["zombie"].zone == "graveyard" and out.state.delayed == ()


class TestDecayedConformance(KeywordConformance):
    """The conformance kit's invariants hold with decayed on generated boards."""

    plugin = decayed
    max_examples = 10
