"""The conformance kit beyond one combat played with its defaults: the end
step, cleanup and the next turn (513, 514, 500.1), every option of every
choice (601.2), plugin action kinds (117.1) and activated abilities
(602.1-602.5). Each test plugin is broken only where the old kit never
looked, and the kit must catch it there, naming the invariant."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen
from redzone import (
    Action,
    ActionSpec,
    ActivatedAbility,
    Choice,
    Event,
    GameState,
    ObjectId,
)
from redzone.testing import plugin_module
from redzone.testing.conformance import ConformanceError, Subject, cases, check_invariant
from redzone.testing.turns import Variant, answers


def _plugin(name: str, **hooks: Callable[..., Any]) -> Any:
    for hook, fn in hooks.items():
        fn.__name__ = hook
    return plugin_module(name, name, **hooks)


def _breaks(module: Any, invariant: str) -> ConformanceError:
    with pytest.raises(ConformanceError) as err:
        check_invariant(Subject(module, others=()), invariant, max_examples=40,
                        derandomize=True, shrink=False)
    assert err.value.invariant == invariant, str(err.value)
    return err.value


def test_500_1_the_kit_plays_into_the_next_turn() -> None:
    """500.1, 502: a plugin that fails only as the next turn begins (its
    ``turn`` event) breaks 'no-exception-escapes': the kit plays the end
    step, cleanup and the next turn's beginning."""

    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Any]:
        if any(e.kind == "turn" for e in events):
            raise KeyError("the next turn")
        return []

    err = _breaks(_plugin("sleeper", redzone_triggers=redzone_triggers), "no-exception-escapes")
    assert "rest of the turn" in err.detail and "KeyError: 'the next turn'" in err.detail


def test_514_the_kit_plays_the_cleanup_step() -> None:
    """513, 514: a plugin that raises only in the cleanup step is caught too
    (the end step and the cleanup step are played)."""

    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Any]:
        if state.step == "cleanup":
            raise ValueError("cleanup")
        return []

    err = _breaks(_plugin("tidy", redzone_triggers=redzone_triggers), "no-exception-escapes")
    assert "rest of the turn" in err.detail and "during step 'cleanup'" in err.detail


def test_601_2_every_option_of_a_choice_is_played() -> None:
    """601.2, 508.1g: a declaration choice whose non-default option makes the
    plugin raise is caught, though the default works."""

    def redzone_attack_choices(state: GameState, attacks: Mapping[str, str]) -> list[Choice]:
        return [Choice(a, state.objects[a].controller, "mode", ("calm", "wild"),
                       default=("calm",), rule="702.999")
                for a in attacks if state.objects[a].has("wildcard")]

    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Any]:
        if any(e.kind == "choice" and tuple(e.get("answer") or ()) == ("wild",)
               for e in events):
            raise RuntimeError("wild")
        return []

    err = _breaks(_plugin("wildcard", redzone_attack_choices=redzone_attack_choices,
                          redzone_triggers=redzone_triggers), "no-exception-escapes")
    assert "declare_attackers with wildcard:" in err.detail and "'wild'" in err.detail


def test_601_2_answers_are_each_option_but_the_default() -> None:
    """601.2: the answers tried are the options other than the default, one
    at a time; choosing nothing too when that is allowed (min 0)."""
    pick = Choice("x", "alice", "cost", ("a", "b", "c"), default=("a",))
    assert answers(pick) == ["b", "c"]  # (at most MAX_ANSWERS: 2)
    optional = Choice("y", "alice", "cost", ("a", "b"), default=("a",), min=0, max=1)
    assert answers(optional) == ["b", ()]
    two = Choice("z", "alice", "target", ("a", "b", "c"), default=("a", "b"), min=2, max=2)
    assert answers(two) == [("b", "c"), ("c", "a")]


@frozen
class Charge(Action):
    """Put a charge counter on ``target`` (a test action kind)."""

    do: ClassVar[str] = "charge"
    target: ObjectId


def _charge_silently(tx: Any, action: Action) -> None:
    assert isinstance(action, Charge)
    perm = tx.permanent(action.target, action.do)
    tx.put(perm.evolve(counters={**perm.counters, "charge": perm.counters.get("charge", 0) + 1}))


def test_117_1_a_plugins_action_kind_is_performed_and_accounted_for() -> None:
    """117.1, 122.1: an action kind that adds a counter without its event
    breaks 'events-accounted-for' when the kit performs it."""
    err = _breaks(_plugin("charger", redzone_actions=lambda: [
        ActionSpec(Charge, _charge_silently, "122.1")]), "events-accounted-for")
    assert "perform Charge(" in err.detail and "'charge' counters" in err.detail


def test_602_2_an_activated_ability_is_activated_and_accounted_for() -> None:
    """602.2: an ability whose effect adds a counter without its event
    breaks 'events-accounted-for' when the kit activates it."""

    def perform(tx: Any, action: Any) -> None:
        _charge_silently(tx, Charge(action.source))

    err = _breaks(_plugin("battery", redzone_activated_abilities=lambda: [
        ActivatedAbility("battery", "702.999", perform)]), "events-accounted-for")
    assert "activate battery of" in err.detail


def test_602_1_an_ability_is_activated_only_from_what_has_it() -> None:
    """602.1, 733: the kit activates an ability from an object without it,
    expecting a refusal that changes nothing and cites a rule; a correct
    ability plugin keeps every invariant there."""

    def perform(tx: Any, action: Any) -> None:
        tx.perform(Charge(action.source))

    def charge(tx: Any, action: Action) -> None:
        assert isinstance(action, Charge)
        perm = tx.permanent(action.target, action.do)
        tx.put(perm.evolve(counters={**perm.counters, "charge": 1}))
        tx.emit(Event("counters", "122.1", target=perm.id, counter="charge", amount=1,
                      source=perm.id))

    module = _plugin("dynamo", redzone_activated_abilities=lambda: [
        ActivatedAbility("dynamo", "702.999", perform)],
        redzone_actions=lambda: [ActionSpec(Charge, charge, "122.1")])
    subject = Subject(module, others=())
    for invariant in ("no-exception-escapes", "illegal-command-leaves-state-unchanged",
                      "events-accounted-for"):
        check_invariant(subject, invariant, max_examples=20)
    refused = [v for variants in subject.explored.values() for v in variants
               if v.must_refuse]
    assert refused and all(v.error is not None and v.after is None for v in refused)
    assert all(isinstance(v, Variant) for v in refused)


def test_310_generated_boards_have_battles_and_planeswalkers_as_attack_targets() -> None:
    """306, 310, 506.2, 508.1b: generated boards attack planeswalkers and
    battles (Sieges the attacker controls, protected by an opponent)."""
    from hypothesis import HealthCheck, given, settings

    seen: dict[str, int] = {"pw": 0, "siege": 0}
    engine = Subject(None).engine

    @settings(max_examples=80, derandomize=True, database=None, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(case=cases(engine, ("flying",)))
    def run(case: Any) -> None:
        for target in case.attacks.values():
            if target in seen:
                seen[target] += 1
        siege = case.state.objects.get("siege")
        if siege is not None:
            assert "battle" in siege.types and siege.subtypes == ("Siege",)
            assert siege.protector == "bob" and siege.counters["defense"] >= 1

    run()
    assert seen["pw"] > 0 and seen["siege"] > 0
