"""Training (CR 702.149): "Whenever this creature and at least one other creature
with power greater than this creature's power attack, put a +1/+1 counter on this
creature" (702.149a); each instance triggers separately (702.149b)."""

from __future__ import annotations

import pytest
import redzone_keywords.training as training
from redzone import Engine, GameState, LeaveBattlefield, Move
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


def test_508_3a_508_4_creatures_put_onto_the_battlefield_attacking_do_not_train(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the
    battlefield attacking" (508.4: it is attacking but never "attacked"). The
    recruit with training and a 5/3 ally both enter the battlefield attacking
    bob together (``Move``s, with their ``enters_battlefield`` events): no
    trigger, no counter."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("bear", "alice", 2, 2), c("recruit", "alice", 1, 1, "training", zone="hand"),
        c("ally", "alice", 5, 3, zone="hand")])
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    out = engine.perform(state, [Move("recruit", "battlefield", attacking="bob"),
                                 Move("ally", "battlefield", attacking="bob")])
    assert out.state.combat is not None
    assert (out.state.combat.attacks["recruit"], out.state.combat.attacks["ally"]) == (
        "bob", "bob")
    assert [e for e in out.events if e.kind == "trigger"] == []
    assert out.state.objects["recruit"].counters == {}


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


def test_603_3a_the_trigger_is_controlled_by_the_creatures_controller(manual: Engine) -> None:
    """603.3a: "A triggered ability is controlled by the player who controlled
    its source at the time it triggered": alice controls the recruit, which
    bob owns; its training trigger is alice's, not bob's."""
    c = manual.creature
    state = manual.game(["alice", "bob"], [c("recruit", "alice", 1, 1, "training", owner="bob"),
                                           c("ally", "alice", 2, 3)])
    out = manual.declare_attackers(state, {"recruit": "bob", "ally": "bob"})
    (trigger,) = out.state.stack
    assert (trigger.kind, trigger.source, trigger.controller) == ("training", "recruit", "alice")
    assert [e.player for e in out.events if e.kind == "trigger"] == ["alice"]
    resolved = manual.resolve_trigger(out.state).state
    assert resolved.objects["recruit"].counters == {"+1/+1": 1}


def test_702_149a_it_resolves_even_if_the_bigger_creature_left(manual: Engine) -> None:
    state = manual.declare_attackers(squad(manual, "training"),
                                     {"recruit": "bob", "ally": "bob"}).state
    state = manual.perform(state, LeaveBattlefield("ally")).state
    assert manual.resolve_trigger(state).state.objects["recruit"].counters == {"+1/+1": 1}


class TestTrainingConformance(KeywordConformance):
    """The conformance kit's invariants hold with training on generated boards."""

    plugin = training
    max_examples = 10
