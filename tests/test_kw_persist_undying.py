"""Persist (CR 702.79) and undying (702.93): "When this permanent is put into a
graveyard from the battlefield, if it had no -1/-1 [+1/+1] counters on it,
return it to the battlefield under its owner's control with a -1/-1 [+1/+1]
counter on it" (702.79a, 702.93a)."""

from __future__ import annotations

import pytest
import redzone_keywords.persist as persist
import redzone_keywords.undying as undying
from redzone import (
    Destroy,
    Engine,
    Exile,
    GainControl,
    GameState,
    Grant,
    Move,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on the stack (603.3)."""
    return Engine(auto_triggers=False)


def duel(engine: Engine, *keywords: str, counters: dict[str, int] | None = None) -> GameState:
    """alice: a 3/2 "finks" with ``keywords``; bob: a 3/3 ogre."""
    finks = engine.creature("finks", "alice", 3, 2, *keywords)
    if counters:
        finks = finks.evolve(counters=counters)
    return engine.game(["alice", "bob"], [finks, engine.creature("ogre", "bob", 3, 3)])


def test_702_79a_dies_in_combat_and_returns_with_a_minus_counter_as_a_new_object(
        engine: Engine) -> None:
    """702.79a, 400.7, 506.4, 302.6: killed by the blocking ogre, finks returns as
    a new object (object 3: battlefield -> graveyard -> battlefield), 2/1 with a
    -1/-1 counter, not in combat, untapped, summoning sick, with no damage."""
    result = engine.resolve(duel(engine, "persist"), {"finks": "bob"}, {"ogre": "finks"})
    finks = result.state.objects["finks"]
    assert finks.zone == "battlefield" and finks.object == 3
    assert dict(finks.counters) == {"-1/-1": 1} and (finks.power, finks.toughness) == (2, 1)
    assert finks.damage == 0 and not finks.tapped and finks.summoning_sick
    assert "finks" not in result.state.combat.attacks if result.state.combat else True
    kinds = [e.kind for e in result.events]
    assert kinds.index("dies") < kinds.index("enters_battlefield")


def test_702_79a_a_permanent_with_a_minus_counter_does_not_return(engine: Engine) -> None:
    """702.79a, 603.4: the intervening "if": it had a -1/-1 counter as it died
    (its last known information, 603.10a), so persist doesn't trigger."""
    state = duel(engine, "persist", counters={"-1/-1": 1})
    out = engine.perform(state, Destroy("finks"))
    assert out.state.objects["finks"].zone == "graveyard"
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_79a_the_second_death_stays_dead(engine: Engine) -> None:
    """702.79a: returned with a -1/-1 counter, the next death doesn't return it."""
    first = engine.perform(duel(engine, "persist"), Destroy("finks")).state
    assert first.objects["finks"].zone == "battlefield"
    second = engine.perform(first, Destroy("finks")).state
    assert second.objects["finks"].zone == "graveyard"


@pytest.mark.parametrize(("keyword", "counter"), [("persist", "-1/-1"),
                                                  ("undying", "+1/+1")])
def test_702_79a_603_2_two_instances_trigger_twice_and_it_returns_once(
        manual: Engine, keyword: str, counter: str) -> None:
    """702.79a, 702.93a, 603.2: each instance of persist (undying) is its own
    triggered ability, so a creature with two instances that dies triggers twice;
    the first to resolve returns the card, the second finds it gone from the
    graveyard (400.7) and does nothing: it is back once, with one counter."""
    out = manual.perform(duel(manual, keyword, keyword), Destroy("finks"))
    assert [(e.kind, e.rule) for e in out.events if e.kind == "trigger"] == [
        ("trigger", "603.3b")] * 2
    assert [(t.kind, t.source) for t in out.state.stack] == [(keyword, "finks")] * 2
    state = manual.resolve_trigger(out.state).state
    state = manual.resolve_trigger(state).state
    assert state.stack == ()
    finks = state.objects["finks"]
    assert finks.zone == "battlefield" and dict(finks.counters) == {counter: 1}


def test_702_79a_returns_under_its_owners_control(engine: Engine) -> None:
    """702.79a, 603.3a: bob stole finks; it dies under bob's control (bob controls
    the trigger) and returns under alice's, its owner's."""
    state = engine.perform(duel(engine, "persist"), GainControl("finks", "bob")).state
    assert state.objects["finks"].controller == "bob"
    out = engine.perform(state, Destroy("finks"))
    assert out.state.objects["finks"].controller == "alice"
    trigger = next(e for e in out.events if e.kind == "trigger")
    assert trigger.player == "bob" or trigger.get("player") in (None, "bob")


def test_603_10a_granted_persist_looks_back(engine: Engine) -> None:
    """603.10a: persist granted until end of turn is on the last known
    information of the permanent that died, so it triggers; the card returns
    without it (400.7: effects don't come along)."""
    state = engine.perform(duel(engine), Grant("finks", ("persist",))).state
    out = engine.perform(state, Destroy("finks"))
    finks = out.state.objects["finks"]
    assert finks.zone == "battlefield" and not finks.has("persist")


def test_400_7_it_does_not_return_if_it_left_the_graveyard_first(manual: Engine) -> None:
    """400.7, 608.2b: with the trigger on the stack the card is exiled from the
    graveyard; a card back in the graveyard later would be another object, so
    the ability does nothing."""
    state = manual.perform(duel(manual, "persist"), Destroy("finks")).state
    assert len(state.stack) == 1
    state = manual.perform(state, Move("finks", "exile")).state
    state = manual.perform(state, Move("finks", "graveyard")).state
    out = manual.resolve_trigger(state)
    assert out.state.objects["finks"].zone == "graveyard"
    assert not [e for e in out.events if e.kind == "enters_battlefield"]


def test_111_8_a_token_with_persist_does_not_return(engine: Engine) -> None:
    """111.8, 111.7: a token that left the battlefield can't come back."""
    token = engine.creature("spirit", "alice", 1, 1, "persist").evolve(token=True)
    state = engine.game(["alice", "bob"], [token])
    out = engine.perform(state, Destroy("spirit"))
    assert out.state.objects["spirit"].zone != "battlefield"


def test_702_79a_exile_is_not_a_graveyard(engine: Engine) -> None:
    """702.79a: "put into a graveyard": exiled, it doesn't trigger."""
    out = engine.perform(duel(engine, "persist"), Exile("finks"))
    assert out.state.objects["finks"].zone == "exile"
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_93a_undying_returns_with_a_plus_counter(engine: Engine) -> None:
    """702.93a: undying returns it with a +1/+1 counter (4/3), once: with the
    counter it stays in the graveyard the next time."""
    first = engine.resolve(duel(engine, "undying"), {"finks": "bob"}, {"ogre": "finks"}).state
    finks = first.objects["finks"]
    assert finks.zone == "battlefield" and dict(finks.counters) == {"+1/+1": 1}
    assert (finks.power, finks.toughness) == (4, 3)
    assert engine.perform(first, Destroy("finks")).state.objects["finks"].zone == "graveyard"


def test_702_79a_702_93a_persist_and_undying_keep_a_creature_coming_back(engine: Engine) -> None:
    """702.79a, 702.93a, 400.7: with both and no counters, both trigger; the
    first to resolve returns it with its counter, the second finds a new object
    and does nothing. Each later death only the ability whose counter the
    creature lacks triggers, and the card returns with that counter alone (a
    new object keeps no counters), so it keeps coming back."""
    state = duel(engine, "persist", "undying")
    once = engine.perform(state, Destroy("finks"))
    finks = once.state.objects["finks"]
    assert finks.zone == "battlefield" and finks.object == 3
    assert sum(1 for e in once.events if e.kind == "enters_battlefield") == 1
    counter = next(iter(finks.counters))
    twice = engine.perform(once.state, Destroy("finks")).state.objects["finks"]
    assert twice.zone == "battlefield" and twice.object == 5
    assert next(iter(twice.counters)) != counter  # the other ability brought it back
    thrice = engine.perform(engine.perform(once.state, Destroy("finks")).state,
                            Destroy("finks")).state.objects["finks"]
    assert thrice.zone == "battlefield"  # it had only the one kind, so the other returns it


def test_the_returned_card_round_trips(engine: Engine) -> None:
    """400.7: the saved state keeps the new object's number and counter."""
    state = engine.perform(duel(engine, "persist"), Destroy("finks")).state
    again = state_from_dict(state_to_dict(state))
    assert again.objects["finks"] == state.objects["finks"]


def test_614_1c_move_refuses_counters_off_the_battlefield(engine: Engine) -> None:
    """614.1c: only a permanent enters with counters; the move names the rule."""
    from redzone import IllegalActionError

    state = engine.perform(duel(engine), Destroy("finks")).state
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Move("finks", "exile", counters={"-1/-1": 1}))
    assert info.value.rule == "614.1c"


class TestPersistConformance(KeywordConformance):
    """The conformance kit's invariants hold with persist on generated boards."""

    plugin = persist
    max_examples = 10


class TestUndyingConformance(KeywordConformance):
    """The conformance kit's invariants hold with undying on generated boards."""

    plugin = undying
    max_examples = 10
