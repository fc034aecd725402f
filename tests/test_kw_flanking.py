"""Flanking (CR 702.25): "Whenever this creature becomes blocked by a creature
without flanking, the blocking creature gets -1/-1 until end of turn" (702.25a); each
instance triggers separately (702.25b). It triggers once per creature blocking it
(509.3d), reading the blocker's characteristics as it blocks (509.3f)."""

from __future__ import annotations

import pytest
import redzone_keywords.flanking as flanking
from redzone import (
    BecomeBlocked,
    Engine,
    EnterBlocking,
    GameState,
    Grant,
    MakeBlock,
    Permanent,
    Revoke,
)
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def attacked(engine: Engine, *blockers: Permanent, keywords: tuple[str, ...] = ("flanking",)
             ) -> GameState:
    """A 2/2 with ``keywords`` ("knight") attacks bob, who has ``blockers``."""
    state = engine.game(["alice", "bob"], [engine.creature("knight", "alice", 2, 2, *keywords),
                                           *blockers])
    return engine.declare_attackers(state, {"knight": "bob"}).state


def test_seed_q4_two_vanilla_blockers_both_get_minus_1_minus_1(engine: Engine) -> None:
    """Seed question: "a creature with flanking is blocked by two simple creatures. Will
    -1/-1 be put on both?" Yes, both, as an until-end-of-turn effect, not counters
    (702.25a, 509.3d)."""
    c = engine.creature
    state = attacked(engine, c("bear", "bob", 2, 2), c("ogre", "bob", 3, 3))
    out = engine.declare_blockers(state, {"bear": "knight", "ogre": "knight"})
    bear, ogre = out.state.objects["bear"], out.state.objects["ogre"]
    assert (bear.power, bear.toughness, ogre.power, ogre.toughness) == (1, 1, 2, 2)
    assert bear.counters == {} and ogre.counters == {}
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.25a", "702.25a"]
    assert out.state.objects["knight"].power == 2


def test_702_25a_a_one_toughness_blocker_dies_before_combat_damage(engine: Engine) -> None:
    """(derived) The -1/-1 makes a 1/1 blocker a 0/0: it is put into the graveyard by
    state-based actions (704.5f) before damage; the knight stays blocked (509.1h) and,
    with no creature blocking it, deals no combat damage (510.1c)."""
    state = attacked(engine, engine.creature("elf", "bob", 1, 1))
    out = engine.declare_blockers(state, {"elf": "knight"})
    assert out.state.objects["elf"].zone == "graveyard"
    assert [e.rule for e in out.events if e.kind == "dies"] == ["704.5f"]
    dealt = engine.combat_damage(out.state).state
    assert dealt.players["bob"].life == 20
    assert dealt.objects["knight"].damage == 0


def test_702_25a_a_blocker_with_flanking_does_not_trigger_it(engine: Engine) -> None:
    state = attacked(engine, engine.creature("lancer", "bob", 2, 2, "flanking"))
    out = engine.declare_blockers(state, {"lancer": "knight"})
    assert out.state.objects["lancer"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_25a_flanking_on_a_blocker_does_nothing(engine: Engine) -> None:
    """Flanking triggers on the creature with it becoming blocked, not blocking."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2),
                                           c("lancer", "bob", 2, 2, "flanking")])
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    out = engine.declare_blockers(state, {"lancer": "bear"})
    assert out.state.objects["bear"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_25b_each_instance_triggers_separately(engine: Engine) -> None:
    state = attacked(engine, engine.creature("ogre", "bob", 3, 3),
                     keywords=("flanking", "flanking"))
    out = engine.declare_blockers(state, {"ogre": "knight"})
    assert [e.kind for e in out.events].count("trigger") == 2
    assert out.state.objects["ogre"].toughness == 1


def test_702_25a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    c = manual.creature
    state = attacked(manual, c("bear", "bob", 2, 2), c("ogre", "bob", 3, 3))
    state = manual.declare_blockers(state, {"bear": "knight", "ogre": "knight"}).state
    assert [(t.kind, t.source, t.controller, t.targets, t.amount, t.rule)
            for t in state.stack] == [
        ("flanking", "knight", "alice", ("bear",), 1, "702.25a"),
        ("flanking", "knight", "alice", ("ogre",), 1, "702.25a")]
    top = manual.resolve_trigger(state).state
    assert top.objects["ogre"].power == 2 and top.objects["bear"].power == 2
    removed = manual.remove_trigger(state, state.stack[-1].id).state
    removed = manual.resolve_trigger(removed).state
    assert removed.stack == ()
    assert removed.objects["ogre"].power == 3 and removed.objects["bear"].power == 1


def test_509_3f_a_blocker_gaining_flanking_after_it_blocked_still_shrinks(
        manual: Engine) -> None:
    """The trigger condition is read as the creature blocks (509.3f); the trigger then
    resolves whatever the blocker gains."""
    state = attacked(manual, manual.creature("ogre", "bob", 3, 3))
    state = manual.declare_blockers(state, {"ogre": "knight"}).state
    state = manual.perform(state, Grant("ogre", "flanking")).state
    assert manual.resolve_trigger(state).state.objects["ogre"].power == 2


def test_509_3f_a_blocker_losing_flanking_after_it_blocked_does_not_trigger(
        engine: Engine) -> None:
    state = attacked(engine, engine.creature("lancer", "bob", 2, 2, "flanking"))
    state = engine.declare_blockers(state, {"lancer": "knight"}).state
    out = engine.perform(state, Revoke("lancer", "flanking"))
    assert out.state.objects["lancer"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_509_3d_a_creature_made_to_block_it_triggers(engine: Engine) -> None:
    c = engine.creature
    state = attacked(engine, c("bear", "bob", 2, 2), c("ogre", "bob", 3, 3))
    state = engine.declare_blockers(state, {"bear": "knight"}).state
    out = engine.perform(state, MakeBlock("ogre", "knight"))
    assert out.state.objects["ogre"].power == 2
    assert out.state.objects["bear"].power == 1  # not again


def test_509_3d_a_creature_put_onto_the_battlefield_blocking_it_triggers(
        engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine), {}).state
    token = Permanent(id="soldier", controller="bob", base_power=2, base_toughness=2,
                      token=True)
    out = engine.perform(state, EnterBlocking(token, "knight"))
    assert out.state.objects["soldier"].power == 1


def test_509_3d_blocked_by_an_effect_without_a_creature_does_not_trigger(
        engine: Engine) -> None:
    state = engine.declare_blockers(attacked(engine), {}).state
    out = engine.perform(state, BecomeBlocked("knight"))
    assert not [e for e in out.events if e.kind == "trigger"]


class TestFlankingConformance(KeywordConformance):
    """The conformance kit's invariants hold with flanking on generated boards."""

    plugin = flanking
    max_examples = 10
