"""Training (CR 702.149): "Whenever this creature and at least one other creature
with power greater than this creature's power attack, put a +1/+1 counter on this
creature" (702.149a); each instance triggers separately (702.149b)."""

from __future__ import annotations

import pytest
import redzone_keywords.training as training
from redzone import Engine, GameState, LeaveBattlefield
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def squad(engine: Engine, *keywords: str, ally: int = 2, ally_keywords: tuple[str, ...] = ()
          ) -> GameState:
    """alice: a 1/1 with ``keywords`` ("recruit"), an ``ally``/3 ("ally"); bob: nothing."""
    c = engine.creature
    return engine.game(["alice", "bob"], [c("recruit", "alice", 1, 1, *keywords),
                                          c("ally", "alice", ally, 3, *ally_keywords)])


@pytest.mark.parametrize(("ally", "trains"), [(2, True), (5, True), (1, False), (0, False)])
def test_702_149a_attacking_with_a_creature_with_greater_power(engine: Engine, ally: int,
                                                               trains: bool) -> None:
    out = engine.declare_attackers(squad(engine, "training", ally=ally),
                                   {"recruit": "bob", "ally": "bob"})
    recruit = out.state.objects["recruit"]
    assert recruit.counters == ({"+1/+1": 1} if trains else {})
    assert recruit.power == (2 if trains else 1)
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.149a"] * trains


def test_702_149a_attacking_alone_it_does_not_train(engine: Engine) -> None:
    out = engine.declare_attackers(squad(engine, "training"), {"recruit": "bob"})
    assert out.state.objects["recruit"].counters == {}


def test_702_149a_the_other_creature_must_attack_too(engine: Engine) -> None:
    """A bigger creature that stays home doesn't count."""
    out = engine.declare_attackers(squad(engine, "training", ally=5), {"recruit": "bob"})
    assert out.state.objects["recruit"].counters == {}


def test_702_149a_it_doesnt_train_the_bigger_creature(engine: Engine) -> None:
    """Two creatures with training: only the one with less power trains."""
    out = engine.declare_attackers(squad(engine, "training", ally_keywords=("training",)),
                                   {"recruit": "bob", "ally": "bob"})
    assert out.state.objects["recruit"].counters == {"+1/+1": 1}
    assert out.state.objects["ally"].counters == {}


def test_702_149b_each_instance_triggers_separately(engine: Engine) -> None:
    out = engine.declare_attackers(squad(engine, "training", "training", ally=5),
                                   {"recruit": "bob", "ally": "bob"})
    assert out.state.objects["recruit"].counters == {"+1/+1": 2}


def test_508_2a_powers_are_compared_as_attackers_are_declared(engine: Engine) -> None:
    """The recruit with battle cry makes its 1/1 ally 2/1 as the cry resolves, after
    attackers were declared: at the declaration the ally's power (1) wasn't greater,
    so nothing trains (508.2a)."""
    out = engine.declare_attackers(squad(engine, "battle cry", ally=1,
                                         ally_keywords=("training",)),
                                   {"recruit": "bob", "ally": "bob"})
    assert out.state.objects["ally"].power == 2
    assert out.state.objects["ally"].counters == {}


def test_702_149a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_attackers(squad(manual, "training"),
                                     {"recruit": "bob", "ally": "bob"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.amount,
            trigger.rule) == ("training", "recruit", "alice", 1, "702.149a")
    assert manual.resolve_trigger(state).state.objects["recruit"].counters == {"+1/+1": 1}
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.objects["recruit"].counters == {}


def test_702_149a_it_resolves_even_if_the_bigger_creature_left(manual: Engine) -> None:
    state = manual.declare_attackers(squad(manual, "training"),
                                     {"recruit": "bob", "ally": "bob"}).state
    state = manual.perform(state, LeaveBattlefield("ally")).state
    assert manual.resolve_trigger(state).state.objects["recruit"].counters == {"+1/+1": 1}


class TestTrainingConformance(KeywordConformance):
    """The conformance kit's invariants hold with training on generated boards."""

    plugin = training
    max_examples = 10
