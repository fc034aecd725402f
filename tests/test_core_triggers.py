"""Triggered abilities in combat: the core mechanism (603.2, 603.3b, 608.2).

The abilities here are written as small test plugins, the way a keyword
author would write them.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import redzone
from redzone import (
    Engine,
    Event,
    GameState,
    IllegalActionError,
    LoseLife,
    Pump,
    Trigger,
    hookimpl,
)


def _plugin(name: str, **hooks: Any) -> SimpleNamespace:
    ns = SimpleNamespace(__name__=name, **{k: hookimpl(v) for k, v in hooks.items()})
    return ns


def _attack_pump(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """"Whenever this creature attacks, it gets +1/+1" for every creature
    whose name starts with 'Raging'."""
    return [Trigger("raging", e.attacker or "", state.objects[e.attacker or ""].controller,
                    "508.3a", "+1/+1 until end of turn")
            for e in events if e.kind == "attack"
            and state.objects[e.attacker or ""].name.startswith("Raging")]


def _resolve_pump(state: GameState, trigger: Trigger) -> list[Any]:
    if trigger.kind != "raging":
        return []
    return [Pump(trigger.source, 1, 1)]


def _blocked_drain(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """"Whenever a creature blocks, its controller's opponent loses 1 life" —
    controlled by the blocker's controller (the non-active player)."""
    out = []
    for e in events:
        if e.kind == "block":
            blocker = state.objects[e.blocker or ""]
            out.append(Trigger("drain", blocker.id, blocker.controller, "509.3a", "drain 1",
                               targets=(state.active_player,)))
    return out


def _resolve_drain(state: GameState, trigger: Trigger) -> list[Any]:
    if trigger.kind != "drain":
        return []
    return [LoseLife(trigger.targets[0], 1)]


RAGING = _plugin("raging", redzone_triggers=_attack_pump, redzone_resolve_trigger=_resolve_pump)
DRAIN = _plugin("drain", redzone_triggers=_blocked_drain, redzone_resolve_trigger=_resolve_drain)


def _board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("ogre", "alice", 2, 2, name="Raging Ogre"),
        c("bear", "alice", 2, 2, name="Bear"),
        c("wall", "bob", 0, 4, name="Wall"),
    ])


def test_508_3a_attack_trigger_resolves_before_blockers() -> None:
    engine = Engine(plugins=[RAGING])
    out = engine.declare_attackers(_board(engine), {"ogre": "bob", "bear": "bob"})
    assert out.state.stack == ()
    assert out.state.objects["ogre"].power == 3
    assert out.state.objects["bear"].power == 2
    kinds = [e.kind for e in out.events]
    assert kinds.index("trigger") < kinds.index("resolve")
    assert [e.rule for e in out.events if e.kind == "trigger"] == ["603.3b"]


def test_triggers_wait_on_the_stack_for_an_embedding_engine() -> None:
    """With auto_triggers off the trigger is data on state.stack; the step
    can't end until the stack is empty (500.2)."""
    engine = Engine(plugins=[RAGING], auto_triggers=False)
    out = engine.declare_attackers(_board(engine), {"ogre": "bob"})
    (trigger,) = out.state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.id) == (
        "raging", "ogre", "alice", "t1")
    with pytest.raises(IllegalActionError) as info:
        engine.declare_blockers(out.state, {})
    assert info.value.rule == "500.2"
    resolved = engine.resolve_trigger(out.state)
    assert resolved.state.stack == () and resolved.state.objects["ogre"].power == 3
    # Or the embedding engine takes it and resolves it its own way.
    removed = engine.remove_trigger(out.state, "t1")
    assert removed.state.stack == () and removed.state.objects["ogre"].power == 2
    assert engine.declare_blockers(removed.state, {}).state.step == "declare_blockers"


def test_603_3b_apnap_order_nonactive_players_triggers_resolve_first() -> None:
    """603.3b: the active player's triggers go on the stack first, so the
    nonactive player's resolve first."""
    seen: list[str] = []

    def both(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("mark", e.blocker or "", state.objects[e.blocker or ""].controller,
                        "509.3a") for e in events if e.kind == "block"] + [
            Trigger("mark", e.attacker or "", "alice", "509.3c")
            for e in events if e.kind == "blocked"]

    def record(state: GameState, trigger: Trigger) -> list[Any]:
        seen.append(trigger.controller)
        return []

    engine = Engine(plugins=[_plugin("both", redzone_triggers=both,
                                     redzone_resolve_trigger=record)], auto_triggers=False)
    state = engine.declare_attackers(_board(engine), {"ogre": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "ogre"}).state
    assert [t.controller for t in state.stack] == ["alice", "bob"]
    while state.stack:
        state = engine.resolve_trigger(state).state
    assert seen == ["bob", "alice"]


def test_608_2b_an_impossible_action_is_skipped() -> None:
    def gone(state: GameState, trigger: Trigger) -> list[Any]:
        return [Pump("nothing-here", 1, 1), LoseLife("bob", 1)]

    engine = Engine(plugins=[_plugin("gone", redzone_triggers=_attack_pump,
                                     redzone_resolve_trigger=gone)])
    out = engine.declare_attackers(_board(engine), {"ogre": "bob"})
    assert [e.rule for e in out.events if e.kind == "skipped"] == ["608.2b"]
    assert out.state.players["bob"].life == 19


def test_block_trigger_in_the_one_shot_api() -> None:
    engine = Engine(plugins=[DRAIN])
    result = engine.resolve(_board(engine), {"ogre": "bob"}, {"wall": "ogre"})
    assert result.state.players["alice"].life == 19
    assert [e.kind for e in result.events].count("resolve") == 1


def test_511_2_end_of_combat_trigger() -> None:
    def eoc(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("eoc", "ogre", "alice", "511.2") for e in events
                if e.kind == "step" and e.step == "end_of_combat"]

    def res(state: GameState, trigger: Trigger) -> list[Any]:
        return [LoseLife("bob", 5)] if trigger.kind == "eoc" else []

    engine = Engine(plugins=[_plugin("eoc", redzone_triggers=eoc, redzone_resolve_trigger=res)])
    result = engine.resolve(_board(engine), {"bear": "bob"})
    assert result.state.players["bob"].life == 13


def test_combat_damage_to_a_player_trigger() -> None:
    """510.3a: abilities that trigger on combat damage dealt to a player."""
    def hit(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("hit", e.source or "", "alice", "510.3a", amount=e.amount)
                for e in events if e.kind == "damage" and e.combat and e.target in state.players]

    def res(state: GameState, trigger: Trigger) -> list[Any]:
        return [redzone.GainLife("alice", trigger.amount or 0)] if trigger.kind == "hit" else []

    engine = Engine(plugins=[_plugin("hit", redzone_triggers=hit, redzone_resolve_trigger=res)])
    result = engine.resolve(_board(engine), {"bear": "bob", "ogre": "bob"}, {"wall": "ogre"})
    assert result.state.players["alice"].life == 22
    assert result.state.players["bob"].life == 18


def test_a_plugin_returning_a_non_action_is_a_plugin_error() -> None:
    def bad(state: GameState, trigger: Trigger) -> list[Any]:
        return ["pump the ogre"]

    engine = Engine(plugins=[_plugin("bad", redzone_triggers=_attack_pump,
                                     redzone_resolve_trigger=bad)])
    state = _board(engine)
    with pytest.raises(redzone.PluginError, match=r"'bad'.*redzone_resolve_trigger"):
        engine.declare_attackers(state, {"ogre": "bob"})
