"""Bushido (CR 702.45): "Whenever this creature blocks or becomes blocked, it gets
+N/+N until end of turn" (702.45a); each instance triggers separately (702.45b).
Trigger timing and characteristics follow 509.3a, 509.3c and 509.3f."""

from __future__ import annotations

from typing import Any

import pytest
import redzone_keywords.bushido as bushido
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
    """An engine that leaves triggered abilities on ``state.stack`` (603.3), as an
    embedding engine with its own stack uses redzone."""
    return Engine(auto_triggers=False)


def attack(engine: Engine, *perms: Permanent, attacks: dict[str, str] | None = None
           ) -> GameState:
    state = engine.game(["alice", "bob"], perms)
    return engine.declare_attackers(state, attacks or {"samurai": "bob"}).state


def test_702_45a_an_attacker_that_becomes_blocked_gets_plus_n(board: Any) -> None:
    """Bushido 2 on a 2/2 blocked by a 3/3: it is 4/4 before damage, so it survives
    3 damage and kills the 3/3."""
    e = board.engine
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 2"),
                   e.creature("ogre", "bob", 3, 3))
    out = e.declare_blockers(state, {"ogre": "samurai"})
    samurai = out.state.objects["samurai"]
    assert (samurai.power, samurai.toughness) == (4, 4)
    assert [ev.rule for ev in out.events if ev.kind == "resolve"] == ["702.45a"]
    after = e.combat_damage(out.state).state
    assert after.objects["samurai"].zone == "battlefield"
    assert after.objects["ogre"].zone == "graveyard"


def test_702_45a_a_creature_that_blocks_gets_plus_n(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("bear", "alice", 2, 2),
                   e.creature("samurai", "bob", 1, 1, "bushido 1"), attacks={"bear": "bob"})
    out = e.declare_blockers(state, {"samurai": "bear"})
    samurai = out.state.objects["samurai"]
    assert (samurai.power, samurai.toughness) == (2, 2)
    assert out.state.objects["bear"].power == 2  # the attacker gets nothing
    after = e.combat_damage(out.state).state
    assert after.objects["bear"].zone == "graveyard"
    assert after.objects["samurai"].zone == "graveyard"


def test_702_45a_an_unblocked_attacker_does_not_trigger(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 2"),
                   e.creature("ogre", "bob", 3, 3))
    out = e.declare_blockers(state, {})
    assert out.state.objects["samurai"].power == 2
    assert not [ev for ev in out.events if ev.kind == "trigger"]
    assert e.combat_damage(out.state).state.players["bob"].life == 18


def test_509_3c_blocked_by_three_creatures_it_triggers_once(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 1"),
                   *(e.creature(f"b{i}", "bob", 1, 1) for i in range(3)))
    out = e.declare_blockers(state, {"b0": "samurai", "b1": "samurai", "b2": "samurai"})
    assert out.state.objects["samurai"].power == 3
    assert [ev.kind for ev in out.events].count("trigger") == 1


def test_509_3a_blocking_two_attackers_it_triggers_once(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("bear", "alice", 2, 2), e.creature("elf", "alice", 1, 1),
                   e.creature("samurai", "bob", 2, 2, "bushido 1", can_block_additional=1),
                   attacks={"bear": "bob", "elf": "bob"})
    out = e.declare_blockers(state, {"samurai": ["bear", "elf"]})
    assert out.state.objects["samurai"].power == 3
    assert [ev.kind for ev in out.events].count("trigger") == 1


def test_702_45b_each_instance_triggers_separately(manual: Engine) -> None:
    e = manual
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 1", "bushido 2"),
                   e.creature("ogre", "bob", 3, 3))
    state = e.declare_blockers(state, {"ogre": "samurai"}).state
    assert sorted(t.amount or 0 for t in state.stack) == [1, 2]
    while state.stack:
        state = e.resolve_trigger(state).state
    assert state.objects["samurai"].power == 5


def test_702_45a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    """With auto_triggers off, the attacker's and the blocker's bushido wait on the
    stack in APNAP order (603.3b): the active player's first, so the nonactive
    player's resolves first."""
    e = manual
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 2"),
                   e.creature("ronin", "bob", 1, 1, "bushido 1"))
    state = e.declare_blockers(state, {"ronin": "samurai"}).state
    assert [(t.kind, t.source, t.controller, t.amount, t.rule) for t in state.stack] == [
        ("bushido", "samurai", "alice", 2, "702.45a"),
        ("bushido", "ronin", "bob", 1, "702.45a")]
    assert state.objects["samurai"].power == 2  # nothing happened yet
    top = e.resolve_trigger(state)
    assert top.state.objects["ronin"].power == 2
    assert top.state.objects["samurai"].power == 2
    named = e.resolve_trigger(state, state.stack[0].id).state
    assert named.objects["samurai"].power == 4 and named.objects["ronin"].power == 1
    removed = e.remove_trigger(state, state.stack[0].id).state
    removed = e.resolve_trigger(removed).state
    assert removed.stack == ()
    assert removed.objects["samurai"].power == 2 and removed.objects["ronin"].power == 2


def test_702_45a_a_trigger_resolves_even_after_the_creature_loses_bushido(
        manual: Engine) -> None:
    """Once triggered, the ability is independent of its source (509.3f: nothing
    undoes a trigger); it resolves with its N."""
    e = manual
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 2"),
                   e.creature("ogre", "bob", 3, 3))
    state = e.declare_blockers(state, {"ogre": "samurai"}).state
    state = e.perform(state, Revoke("samurai", "bushido 2")).state
    state = e.resolve_trigger(state).state
    assert state.objects["samurai"].power == 4


def test_509_3f_bushido_gained_after_blocks_does_not_trigger(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("samurai", "alice", 2, 2),
                   e.creature("ogre", "bob", 3, 3))
    state = e.declare_blockers(state, {"ogre": "samurai"}).state
    out = e.perform(state, Grant("samurai", "bushido 2"))
    assert out.state.objects["samurai"].power == 2
    assert not [ev for ev in out.events if ev.kind == "trigger"]


def test_509_3c_made_blocked_by_an_effect_it_triggers(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 2"),
                   e.creature("ogre", "bob", 3, 3))
    state = e.declare_blockers(state, {}).state
    out = e.perform(state, BecomeBlocked("samurai"))
    assert out.state.objects["samurai"].power == 4
    again = e.perform(out.state, BecomeBlocked("samurai"))
    assert again.state.objects["samurai"].power == 4  # it was already blocked


def test_509_3c_an_effect_making_a_creature_block_it_triggers_only_if_unblocked(
        board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("samurai", "alice", 2, 2, "bushido 1"),
                   e.creature("ogre", "bob", 3, 3), e.creature("elf", "bob", 1, 1))
    unblocked = e.declare_blockers(state, {}).state
    assert e.perform(unblocked, MakeBlock("elf", "samurai")).state.objects[
        "samurai"].power == 3
    blocked = e.declare_blockers(state, {"ogre": "samurai"}).state
    assert blocked.objects["samurai"].power == 3
    assert e.perform(blocked, MakeBlock("elf", "samurai")).state.objects[
        "samurai"].power == 3


def test_509_3a_a_creature_made_to_block_triggers_unless_already_blocking(
        board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("bear", "alice", 2, 2), e.creature("elf", "alice", 1, 1),
                   e.creature("samurai", "bob", 2, 2, "bushido 1", can_block_additional=1),
                   attacks={"bear": "bob", "elf": "bob"})
    none = e.declare_blockers(state, {}).state
    made = e.perform(none, MakeBlock("samurai", "bear")).state
    assert made.objects["samurai"].power == 3
    already = e.declare_blockers(state, {"samurai": "bear"}).state
    assert already.objects["samurai"].power == 3
    more = e.perform(already, MakeBlock("samurai", "elf")).state
    assert more.combat is not None and more.combat.blockers_of("elf") == ("samurai",)
    assert more.objects["samurai"].power == 3


def test_509_3a_put_onto_the_battlefield_blocking_it_does_not_trigger(board: Any) -> None:
    e = board.engine
    state = attack(e, e.creature("bear", "alice", 2, 2), attacks={"bear": "bob"})
    state = e.declare_blockers(state, {}).state
    token = Permanent(id="ronin", controller="bob", base_power=1, base_toughness=1,
                      printed_keywords=("bushido 1",), token=True)
    out = e.perform(state, EnterBlocking(token, "bear"))
    assert out.state.combat is not None and out.state.combat.blockers_of("bear") == ("ronin",)
    assert out.state.objects["ronin"].has("bushido")
    assert out.state.objects["ronin"].power == 1
    assert not [ev for ev in out.events if ev.kind == "trigger"]


class TestBushidoConformance(KeywordConformance):
    """The conformance kit's invariants (order independence, events accounted for,
    damage conserved ...) hold with bushido on generated boards."""

    plugin = bushido
    max_examples = 10
