"""Exalted (CR 702.83): "Whenever a creature you control attacks alone, that creature
gets +1/+1 until end of turn" (702.83a); it attacks alone if it is the only creature
declared as an attacker (702.83b, 506.5). Each instance among the permanents you
control triggers separately."""

from __future__ import annotations

import pytest
import redzone_keywords.exalted as exalted
from redzone import Engine, GameState, IllegalActionError, LeaveBattlefield, Move, Permanent
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def game(engine: Engine, *perms: Permanent, players: tuple[str, ...] = ("alice", "bob")
         ) -> GameState:
    return engine.game(list(players), perms)


def test_seed_q7_the_creature_attacking_alone_gets_plus_1_plus_1(engine: Engine) -> None:
    """Seed question (Ensnaring Bridge): a 1/1 and a 0/1 with exalted; the 1/1 attacks
    alone, so exalted triggers and it is 2/2 (702.83a-b); attackers are declared once
    (508.1): the 0/1 can't be added later (506.1)."""
    c = engine.creature
    state = game(engine, c("squire", "alice", 1, 1), c("sentinel", "alice", 0, 1, "exalted"))
    out = engine.declare_attackers(state, {"squire": "bob"})
    squire = out.state.objects["squire"]
    assert (squire.power, squire.toughness) == (2, 2)
    assert out.state.objects["sentinel"].power == 0
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.83a"]
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(out.state, {"sentinel": "bob"})
    assert info.value.rule == "506.1"
    result = engine.resolve(state, {"squire": "bob"})
    assert result.state.players["bob"].life == 18


def test_702_83b_two_attackers_do_not_attack_alone(engine: Engine) -> None:
    c = engine.creature
    state = game(engine, c("squire", "alice", 1, 1, "exalted"), c("bear", "alice", 2, 2))
    out = engine.declare_attackers(state, {"squire": "bob", "bear": "bob"})
    assert out.state.objects["squire"].power == 1 and out.state.objects["bear"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_83a_every_instance_on_every_permanent_you_control_triggers(
        manual: Engine) -> None:
    """The attacker's own exalted, a noncreature permanent's, and two instances on one
    creature: four triggers, +4/+4 (each instance triggers separately)."""
    c = manual.creature
    state = game(manual, c("bear", "alice", 2, 2, "exalted"),
                 c("angel", "alice", 3, 3, "exalted", "exalted"),
                 manual.permanent("banner", "alice", types=["enchantment"],
                                  keywords=["exalted"]))
    state = manual.declare_attackers(state, {"bear": "bob"}).state
    assert sorted((t.kind, t.source, t.controller, t.targets, t.amount, t.rule)
                  for t in state.stack) == sorted(
        [("exalted", "bear", "alice", ("bear",), 1, "702.83a")]
        + [("exalted", "angel", "alice", ("bear",), 1, "702.83a")] * 2
        + [("exalted", "banner", "alice", ("bear",), 1, "702.83a")])
    while state.stack:
        state = manual.resolve_trigger(state).state
    assert (state.objects["bear"].power, state.objects["bear"].toughness) == (6, 6)
    assert state.objects["angel"].power == 3


def test_702_83b_508_3a_a_creature_put_onto_the_battlefield_attacking_was_not_declared(
        engine: Engine) -> None:
    """702.83b: a creature "attacks alone" if it's the only creature declared as an
    attacker (506.5). The bear is declared alone and gets exalted's +1/+1; the knight,
    put onto the battlefield attacking afterwards, was never declared (508.3a, 508.4):
    it doesn't attack alone, and the bear still did."""
    c = engine.creature
    start = game(engine, c("bear", "alice", 2, 2), c("knight", "alice", 3, 3, zone="hand"),
                 engine.permanent("banner", "alice", types=["enchantment"],
                                  keywords=["exalted"]))
    enters = Move("knight", "battlefield", attacking="bob")
    state = engine.declare_attackers(start, {"bear": "bob"}).state
    assert state.objects["bear"].power == 3
    out = engine.perform(state, enters)
    assert out.state.combat is not None and out.state.combat.attacks["knight"] == "bob"
    assert [e for e in out.events if e.kind == "trigger"] == []
    assert (out.state.objects["bear"].power, out.state.objects["bear"].toughness) == (3, 3)
    assert (out.state.objects["knight"].power, out.state.objects["knight"].toughness) == (3, 3)
    result = engine.resolve(start, {"bear": "bob"}, {},
                            actions=[("declare_attackers", enters)])
    assert result.state.players["bob"].life == 20 - 3 - 3


def test_702_83a_an_opponents_exalted_does_not_trigger(engine: Engine) -> None:
    c = engine.creature
    state = game(engine, c("bear", "alice", 2, 2), c("angel", "bob", 3, 3, "exalted"))
    out = engine.declare_attackers(state, {"bear": "bob"})
    assert out.state.objects["bear"].power == 2
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_83a_only_the_creature_that_attacked_alone_gets_the_bonus(engine: Engine) -> None:
    c = engine.creature
    state = game(engine, c("bear", "alice", 2, 2), c("elf", "alice", 1, 1, "exalted"))
    out = engine.declare_attackers(state, {"elf": "bob"})
    assert out.state.objects["elf"].power == 2 and out.state.objects["bear"].power == 2


def test_702_83a_the_trigger_can_be_removed_or_resolved(manual: Engine) -> None:
    c = manual.creature
    state = game(manual, c("bear", "alice", 2, 2), c("elf", "alice", 1, 1, "exalted"))
    state = manual.declare_attackers(state, {"bear": "bob"}).state
    (trigger,) = state.stack
    assert manual.resolve_trigger(state, trigger.id).state.objects["bear"].power == 3
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and removed.objects["bear"].power == 2


def test_608_2b_the_attacker_left_before_it_resolved(manual: Engine) -> None:
    """The creature that attacked alone is gone: the pump can't happen (608.2b)."""
    c = manual.creature
    state = game(manual, c("bear", "alice", 2, 2), c("elf", "alice", 1, 1, "exalted"))
    state = manual.declare_attackers(state, {"bear": "bob"}).state
    state = manual.perform(state, LeaveBattlefield("bear")).state
    out = manual.resolve_trigger(state)
    assert [e.rule for e in out.events if e.kind == "skipped"] == ["608.2b"]
    assert out.state.objects["elf"].power == 1


def test_506_5_attacking_a_planeswalker_alone_is_attacking_alone(engine: Engine) -> None:
    c = engine.creature
    state = game(engine, c("bear", "alice", 2, 2, "exalted"),
                 engine.permanent("jace", "bob", types=["planeswalker"],
                                  counters={"loyalty": 5}))
    assert engine.declare_attackers(state, {"bear": "jace"}).state.objects["bear"].power == 3


def test_506_5_in_multiplayer_one_attacker_in_all_is_alone(engine: Engine) -> None:
    """"Attacks alone" counts every creature declared, whichever player it attacks
    (506.5, unlike 506.6's "attacks a player alone")."""
    c = engine.creature
    state = game(engine, c("bear", "alice", 2, 2, "exalted"), c("elf", "alice", 1, 1),
                 players=("alice", "bob", "carol"))
    out = engine.declare_attackers(state, {"bear": "bob", "elf": "carol"})
    assert out.state.objects["bear"].power == 2
    alone = engine.declare_attackers(state, {"bear": "carol"})
    assert alone.state.objects["bear"].power == 3


class TestExaltedConformance(KeywordConformance):
    """The conformance kit's invariants hold with exalted on generated boards."""

    plugin = exalted
    max_examples = 10
