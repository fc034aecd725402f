"""An object that moves from one zone to another becomes a new object with no
memory of or relation to its previous existence (400.7); so a delayed
triggered ability "won't affect" an object that left the zone it expected,
even once it returned: "it's a new object and thus won't be affected"
(603.7c). A card keeps its id in redzone as it changes zones; what was bound
to the old object must not apply to the new one.

Each test flickers the bear: exiled, then returned to the battlefield.
"""

from __future__ import annotations

import pytest
from redzone import (
    AddEffect,
    AddTrigger,
    CreateDelayedTrigger,
    DealDamage,
    Destroy,
    Effect,
    Engine,
    Exile,
    GainLife,
    GameState,
    Move,
    Prevent,
    Regenerate,
    Sacrifice,
    Tap,
)


def flicker(engine: Engine, state: GameState, obj: str = "bear") -> GameState:
    state = engine.perform(state, Exile(obj)).state
    return engine.perform(state, Move(obj, "battlefield")).state


def bear_and_ogre(engine: Engine, **kwargs: object) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2),
                                          engine.creature("ogre", "bob", 3, 3)], **kwargs)


def test_603_7c_a_delayed_trigger_doesnt_affect_the_returned_object(engine: Engine) -> None:
    """603.7c: "sacrifice the bear at the beginning of the next end step";
    the bear flickered is a new object: the trigger still triggers, and
    doesn't sacrifice it."""
    state = engine.perform(bear_and_ogre(engine), CreateDelayedTrigger(
        "end_step", (Sacrifice("bear"),), source="bear", controller="alice")).state
    out = engine.end_step(flicker(engine, state))
    assert out.state.objects["bear"].zone == "battlefield"
    assert not [e for e in out.events if e.kind == "sacrificed"]
    assert [e.kind for e in out.events if e.kind == "trigger"] == ["trigger"]


def test_603_7c_it_still_affects_the_objects_that_stayed(engine: Engine) -> None:
    """603.7c: the same delayed trigger sacrifices the ogre, which stayed,
    and not the returned bear."""
    state = engine.perform(bear_and_ogre(engine), CreateDelayedTrigger(
        "end_step", (Sacrifice("bear"), Sacrifice("ogre", "bob")), source="bear",
        controller="alice")).state
    out = engine.end_step(flicker(engine, state))
    assert (out.state.objects["bear"].zone, out.state.objects["ogre"].zone) == (
        "battlefield", "graveyard")


def test_400_7_a_prevention_shield_doesnt_protect_the_returned_object(engine: Engine) -> None:
    """400.7, 615: "prevent all damage to the bear this turn": the returned
    bear is a new object, unprotected: 3 damage destroys it."""
    state = engine.perform(bear_and_ogre(engine), Prevent(target="bear", amount="all")).state
    out = engine.perform(flicker(engine, state), DealDamage("ogre", "bear", 3))
    assert out.state.objects["bear"].zone == "graveyard"
    assert not [e for e in out.events if e.kind == "prevented"]


def test_400_7_609_7a_a_shield_on_a_sources_damage_doesnt_stop_the_returned_object(
        engine: Engine) -> None:
    """400.7, 609.7a: "prevent all damage the ogre would deal this turn"
    applies to the ogre as it was; back from exile, a new object, it deals
    its 3 damage to the bear."""
    state = engine.perform(bear_and_ogre(engine), Prevent(source="ogre", amount="all")).state
    out = engine.perform(flicker(engine, state, "ogre"), DealDamage("ogre", "bear", 3))
    assert out.state.objects["bear"].zone == "graveyard"
    assert not [e for e in out.events if e.kind == "prevented"]


def test_400_7_an_effect_doubling_a_sources_damage_doesnt_double_the_new_object(
        engine: Engine) -> None:
    """400.7, 614.1a: "the ogre deals double damage this turn" was about the
    ogre as it was: the returned ogre deals 3, not 6."""
    state = engine.perform(bear_and_ogre(engine), AddEffect(
        Effect(kind="double_damage", source="ogre"))).state
    out = engine.perform(flicker(engine, state, "ogre"), DealDamage("ogre", "alice", 3))
    assert out.state.players["alice"].life == 17


def test_400_7_a_regeneration_shield_doesnt_save_the_returned_object(engine: Engine) -> None:
    """400.7, 701.19: the regeneration shield was the old bear's."""
    state = engine.perform(bear_and_ogre(engine), Regenerate("bear")).state
    out = engine.perform(flicker(engine, state), Destroy("bear"))
    assert out.state.objects["bear"].zone == "graveyard"
    assert not [e for e in out.events if e.kind == "regenerated"]


def test_400_7_an_effect_on_the_old_object_doesnt_apply_to_the_new(engine: Engine) -> None:
    """400.7, 502.3: "the bear doesn't untap during its controller's untap
    step": the returned bear untaps."""
    state = engine.perform(bear_and_ogre(engine, active_player="bob"), AddEffect(
        Effect(kind="doesnt_untap", to="bear", duration="game"))).state
    state = engine.perform(flicker(engine, state), Tap("bear")).state
    state = engine.begin_turn(engine.end_turn(state).state, draw=False).state
    assert state.active_player == "alice"
    assert not state.objects["bear"].tapped


def test_400_7_an_ability_given_to_the_old_object_is_gone(engine: Engine) -> None:
    """400.7, 113.6: the bear was given "whenever the ogre dies, gain 5
    life"; the returned bear has no such ability."""
    state = engine.perform(bear_and_ogre(engine), AddTrigger(
        "dies", "bear", (GainLife("alice", 5),), match={"object": "ogre"})).state
    out = engine.perform(flicker(engine, state), Destroy("ogre"))
    assert out.state.players["alice"].life == 20


def test_603_10a_the_ability_of_the_object_that_dies_still_looks_back(engine: Engine) -> None:
    """603.10a: the ability given to the bear still triggers on the bear's
    own death (it looks back), and on the ogre's while the bear is there."""
    state = engine.perform(bear_and_ogre(engine), AddTrigger(
        "dies", "bear", (GainLife("alice", 5),), match={"object": "self"})).state
    assert engine.perform(state, Destroy("bear")).state.players["alice"].life == 25


def test_603_7c_flickered_after_it_triggered_and_before_it_resolves() -> None:
    """603.7c, 400.7: the delayed trigger "sacrifice the bear" triggers at
    the end step and waits on the stack (auto_triggers off); the bear is
    flickered in response. As the ability resolves, the bear is a new
    object, which it doesn't affect: nothing is sacrificed, and a skipped
    event says why."""
    engine = Engine(auto_triggers=False)
    state = engine.perform(bear_and_ogre(engine), CreateDelayedTrigger(
        "end_step", (Sacrifice("bear"), Sacrifice("ogre", "bob")), source="bear",
        controller="alice")).state
    state = engine.end_step(state).state
    assert [t.kind for t in state.stack] and state.objects["bear"].zone == "battlefield"
    out = engine.resolve_trigger(flicker(engine, state))
    assert (out.state.objects["bear"].zone, out.state.objects["ogre"].zone) == (
        "battlefield", "graveyard")
    skipped = [e for e in out.events if e.kind == "skipped"]
    assert [e.rule for e in skipped] == ["603.7c"]


def test_400_7_a_triggered_ability_doesnt_affect_what_came_back_before_it_resolved() -> None:
    """400.7, 608.2b: a triggered ability waiting on the stack ("the bear
    gets +1/+1", here a written trigger on the ogre's attack) finds the bear
    a new object when it resolves after the bear was flickered: the new
    bear doesn't get the bonus; without the flicker it does."""
    from redzone import Pump, WrittenTrigger

    engine = Engine(auto_triggers=False)
    state = bear_and_ogre(engine, active_player="bob")
    state = state.evolve(written=(WrittenTrigger(
        "attack", "ogre", (Pump("bear", 1, 1),), "bob", match={"attacker": "self"},
        text="the bear gets +1/+1"),))
    state = engine.declare_attackers(state, {"ogre": "alice"}).state
    assert len(state.stack) == 1
    kept = engine.resolve_trigger(state)
    assert kept.state.objects["bear"].power == 3
    out = engine.resolve_trigger(flicker(engine, state))
    assert out.state.objects["bear"].power == 2
    assert [e.rule for e in out.events if e.kind == "skipped"] == ["400.7"]


def _on_attack(engine: Engine, *actions: object) -> GameState:
    """bob's ogre attacks alice; its written trigger with ``actions`` waits
    on the stack (auto_triggers off)."""
    from redzone import WrittenTrigger

    state = bear_and_ogre(engine, active_player="bob")
    state = state.evolve(written=(WrittenTrigger(
        "attack", "ogre", actions, "bob", match={"attacker": "self"}),))
    state = engine.declare_attackers(state, {"ogre": "alice"}).state
    assert len(state.stack) == 1
    return state


def test_608_2h_a_damage_source_that_came_back_still_deals_the_damage() -> None:
    """400.7, 608.2h: "the ogre deals 1 damage to the bear and 3 to alice":
    the ogre is the damage's source, not what the ability affects; flickered
    before the ability resolves, its damage is still dealt (as it is when
    it only left)."""
    engine = Engine(auto_triggers=False)
    state = _on_attack(engine, DealDamage("ogre", "bear", 1), DealDamage("ogre", "alice", 3))
    out = engine.resolve_trigger(flicker(engine, state, "ogre"))
    assert out.state.players["alice"].life == 17
    assert out.state.objects["bear"].damage == 1
    assert not [e for e in out.events if e.kind == "skipped"]


def test_400_7_an_effect_added_to_what_came_back_isnt_added() -> None:
    """400.7: "the bear can't block this turn" waiting on the stack doesn't
    apply to the bear flickered before it resolves (an effect's recipient
    is what the ability affects)."""
    engine = Engine(auto_triggers=False)
    state = _on_attack(engine, AddEffect(Effect("cant_block", to="bear")))
    assert [e.to for e in engine.resolve_trigger(state).state.effects] == ["bear"]
    out = engine.resolve_trigger(flicker(engine, state))
    assert not out.state.effects
    assert [e.rule for e in out.events if e.kind == "skipped"] == ["400.7"]


def test_400_7_a_dies_trigger_doesnt_exile_the_card_returned_to_the_battlefield() -> None:
    """400.7, 603.10a: "when the bear dies, exile it" waits on the stack; the
    bear is returned to the battlefield in response, a new object: the
    ability doesn't exile it. Left in the graveyard, it is exiled."""
    from redzone import WrittenTrigger

    engine = Engine(auto_triggers=False)
    state = bear_and_ogre(engine).evolve(written=(WrittenTrigger(
        "dies", "bear", (Move("bear", "exile"),), "alice", match={"object": "self"}),))
    state = engine.perform(state, Destroy("bear")).state
    assert state.objects["bear"].zone == "graveyard" and len(state.stack) == 1
    assert engine.resolve_trigger(state).state.objects["bear"].zone == "exile"
    back = engine.perform(state, Move("bear", "battlefield")).state
    out = engine.resolve_trigger(back)
    assert out.state.objects["bear"].zone == "battlefield"
    assert [e.rule for e in out.events if e.kind == "skipped"] == ["400.7"]


@pytest.mark.parametrize("kind", ["on_battlefield", "controls"])
def test_611_2b_400_7_a_for_as_long_as_effect_ends_when_its_object_comes_back_new(
        kind: str) -> None:
    """611.2b, 400.7: "+2/+2 for as long as the lord remains on the battlefield"
    (or "as long as alice controls it") is about that lord: exiled and
    returned within one resolution (a flicker), it is a new object, and the
    effect has ended, as it does when the two happen in two commands. An
    effect made about the new lord lasts."""
    from redzone import Condition, Exile, Move, Pump

    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("lord", "alice", 1, 1)])
    condition = Condition(kind, object="lord", player="alice" if kind == "controls" else None)
    state = engine.perform(state, Pump("bear", 2, 2, duration="while",
                                       condition=condition)).state
    assert state.objects["bear"].power == 4
    flickered = engine.perform(state, [Exile("lord"), Move("lord", "battlefield")]).state
    assert flickered.objects["bear"].power == 2
    again = engine.perform(flickered, Pump("bear", 2, 2, duration="while",
                                           condition=condition)).state
    assert again.objects["bear"].power == 4
