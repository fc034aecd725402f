"""Rampage (CR 702.23): "Whenever this creature becomes blocked, it gets +N/+N until
end of turn for each creature blocking it beyond the first" (702.23a); the bonus is
counted once, as the trigger resolves (702.23b); each instance triggers separately
(702.23c). It triggers as the creature goes from unblocked to blocked (509.3c)."""

from __future__ import annotations

import pytest
import redzone_keywords.rampage as rampage
from redzone import (
    BecomeBlocked,
    Engine,
    GameState,
    MakeBlock,
    Permanent,
    RemoveFromCombat,
)
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def attacked(engine: Engine, keywords: tuple[str, ...] = ("rampage 2",),
             blockers: int = 4) -> GameState:
    """A 3/3 with ``keywords`` ("wurm") attacks bob, who has ``blockers`` 1/1s."""
    perms: list[Permanent] = [engine.creature("wurm", "alice", 3, 3, *keywords)]
    perms += [engine.creature(f"b{i}", "bob", 1, 1) for i in range(blockers)]
    state = engine.game(["alice", "bob"], perms)
    return engine.declare_attackers(state, {"wurm": "bob"}).state


@pytest.mark.parametrize(("blockers", "bonus"), [(1, 0), (2, 2), (3, 4), (4, 6)])
def test_702_23a_n_for_each_blocker_beyond_the_first(engine: Engine, blockers: int,
                                                     bonus: int) -> None:
    state = attacked(engine)
    out = engine.declare_blockers(state, {f"b{i}": "wurm" for i in range(blockers)})
    wurm = out.state.objects["wurm"]
    assert (wurm.power, wurm.toughness) == (3 + bonus, 3 + bonus)
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.23a"]


def test_702_23a_an_unblocked_creature_does_not_trigger(engine: Engine) -> None:
    out = engine.declare_blockers(attacked(engine), {})
    assert out.state.objects["wurm"].power == 3
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_23a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_blockers(attacked(manual), {"b0": "wurm", "b1": "wurm"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.amount,
            trigger.rule) == ("rampage", "wurm", "alice", 2, "702.23a")
    assert manual.resolve_trigger(state).state.objects["wurm"].power == 5
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.objects["wurm"].power == 3


def test_702_23b_a_blocker_added_before_it_resolves_counts(manual: Engine) -> None:
    state = manual.declare_blockers(attacked(manual), {"b0": "wurm", "b1": "wurm"}).state
    state = manual.perform(state, MakeBlock("b2", "wurm")).state
    assert len(state.stack) == 1  # already blocked: no second trigger (509.3c)
    assert manual.resolve_trigger(state).state.objects["wurm"].power == 3 + 4


def test_702_23b_a_blocker_removed_before_it_resolves_does_not_count(manual: Engine) -> None:
    state = manual.declare_blockers(attacked(manual), {"b0": "wurm", "b1": "wurm"}).state
    state = manual.perform(state, RemoveFromCombat("b1")).state
    assert manual.resolve_trigger(state).state.objects["wurm"].power == 3


def test_702_23b_blockers_added_after_it_resolved_change_nothing(engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine), {"b0": "wurm", "b1": "wurm"}).state
    assert state.objects["wurm"].power == 5
    out = engine.perform(state, MakeBlock("b2", "wurm"))
    assert out.state.combat is not None and len(out.state.combat.blockers_of("wurm")) == 3
    assert out.state.objects["wurm"].power == 5
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_23b_blockers_removed_after_it_resolved_keep_the_bonus(engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine), {"b0": "wurm", "b1": "wurm"}).state
    state = engine.perform(state, RemoveFromCombat("b1")).state
    assert state.objects["wurm"].power == 5


def test_702_23c_each_instance_triggers_separately(manual: Engine) -> None:
    state = attacked(manual, ("rampage 1", "rampage 2"))
    state = manual.declare_blockers(state, {"b0": "wurm", "b1": "wurm", "b2": "wurm"}).state
    assert sorted(t.amount or 0 for t in state.stack) == [1, 2]
    while state.stack:
        state = manual.resolve_trigger(state).state
    assert state.objects["wurm"].power == 3 + 2 * 1 + 2 * 2


def test_509_3c_made_blocked_by_an_effect_it_triggers_and_counts_no_blocker(
        engine: Engine) -> None:
    """Blocked by an effect with no creature blocking it: the trigger resolves with
    no creature beyond the first, so no bonus."""
    state = engine.declare_blockers(attacked(engine), {}).state
    out = engine.perform(state, BecomeBlocked("wurm"))
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.23a"]
    assert out.state.objects["wurm"].power == 3


def test_509_3c_made_to_be_blocked_by_two_creatures_one_at_a_time(manual: Engine) -> None:
    """An unblocked attacker that an effect makes blocked by one creature triggers;
    the second creature made to block it doesn't trigger it again, but counts if the
    trigger is still waiting (702.23b)."""
    state = manual.declare_blockers(attacked(manual), {}).state
    state = manual.perform(state, MakeBlock("b0", "wurm")).state
    assert [t.kind for t in state.stack] == ["rampage"]
    state = manual.perform(state, MakeBlock("b1", "wurm")).state
    assert [t.kind for t in state.stack] == ["rampage"]
    assert manual.resolve_trigger(state).state.objects["wurm"].power == 5


def test_702_23a_bonus_wins_the_fight(engine: Engine) -> None:
    """A 3/3 with rampage 2 blocked by two 2/2s is 5/5 as damage is dealt: it assigns
    5 (510.1a), killing both, and survives their 4."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("wurm", "alice", 3, 3, "rampage 2"),
                                           c("x", "bob", 2, 2), c("y", "bob", 2, 2)])
    result = engine.resolve(state, {"wurm": "bob"}, {"x": "wurm", "y": "wurm"},
                            assign={"wurm": {"x": 2, "y": 3}})
    assert result.state.objects["wurm"].zone == "battlefield"
    assert result.state.objects["x"].zone == result.state.objects["y"].zone == "graveyard"


class TestRampageConformance(KeywordConformance):
    """The conformance kit's invariants hold with rampage on generated boards."""

    plugin = rampage
    max_examples = 10
