"""A beginning-of-combat trigger triggers once, however combat begins.

507.1 / 603.2: an ability that triggers "at the beginning of combat"
triggers once, when the beginning of combat step begins. Declaring
attackers on a main-phase state begins combat first (506.1, 507) within the
same call: the events of that beginning were already settled (recorded,
and triggers put on the stack) by its own command, so the declaration's
settling must not show them to ``redzone_triggers`` or ``redzone_record``
again.
"""

from __future__ import annotations

from typing import Any

from redzone import Engine, Event, GameState, KeywordSpec, Pump, Trigger, hookimpl


class Rally:
    """At the beginning of combat, each creature with ``rally`` gets +1/+1
    until end of turn; every event recorded is counted by kind."""

    def __init__(self) -> None:
        self.recorded: list[str] = []

    @hookimpl
    def redzone_keywords(self) -> list[KeywordSpec]:
        return [KeywordSpec("rally", "702.999", summary="at the beginning of combat, +1/+1")]

    @hookimpl
    def redzone_triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        if not any(e.kind == "step" and e.step == "beginning_of_combat" for e in events):
            return []
        return [Trigger("rally", p.id, p.controller, "507.1", "rally: +1/+1", amount=1,
                        targets=(p.id,)) for p in state.battlefield if p.has("rally")]

    @hookimpl
    def redzone_resolve_trigger(self, state: GameState, trigger: Trigger) -> list[Pump]:
        if trigger.kind != "rally":
            return []
        return [Pump(t, 1, 1) for t in trigger.targets]

    @hookimpl
    def redzone_record(self, state: GameState, events: tuple[Event, ...]) -> Any:
        self.recorded.extend(e.step for e in events if e.kind == "step")
        return None


def _board(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature("a", "alice", 2, 2, "rally")])


def test_declaring_from_a_main_phase_triggers_beginning_of_combat_once() -> None:
    """507.1, 603.2: one trigger, one +1/+1, whether combat began in the
    declaration's call or in a command of its own."""
    plugin = Rally()
    engine = Engine(plugins=[plugin])
    state = _board(engine)
    direct = engine.declare_attackers(state, {"a": "bob"})
    assert [e.kind for e in direct.events].count("trigger") == 1
    assert direct.state.objects["a"].power == 3
    began = engine.begin_combat(state)
    stepwise = engine.declare_attackers(began.state, {"a": "bob"})
    assert stepwise.state.objects["a"].power == direct.state.objects["a"].power
    assert [e.kind for e in (*began.events, *stepwise.events)] == [e.kind for e in direct.events]


def test_the_beginning_of_combat_is_recorded_once() -> None:
    """603.2 (and what plugins remember): each step event is recorded once."""
    plugin = Rally()
    engine = Engine(plugins=[plugin])
    engine.declare_attackers(_board(engine), {"a": "bob"})
    assert plugin.recorded == ["beginning_of_combat", "declare_attackers"]
