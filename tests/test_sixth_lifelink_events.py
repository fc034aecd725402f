"""Lifelink of 1999-2009 triggers once per damage event (502.68a).

502.68a (February 2009): "Lifelink is a triggered ability. 'Lifelink'
means 'Whenever this permanent deals damage, you gain that much life.'"
It triggers on each event in which the permanent deals damage: the
combat damage of one step is one event whatever it is dealt to (310.4),
while two instructions that each deal damage are two events. The plugin
added every damage of a batch into one trigger.
"""

from __future__ import annotations

from redzone import DealDamage, Engine, GameState

engine = Engine("sixth")


def _board() -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [c("ll", "alice", 3, 3, "lifelink"),
                                          c("bear", "bob", 2, 5), c("cub", "bob", 1, 5)])


def test_502_68a_two_damage_instructions_are_two_triggers() -> None:
    out = engine.perform(_board(), [DealDamage("ll", "bob", 1),
                                    DealDamage("ll", "bear", 2)])
    # two triggers (on the stack together, in the order their controller
    # chose: 603.3b), each for the damage of its own event
    assert sorted(e.amount or 0 for e in out.events if e.kind == "life_gain") == [1, 2]
    assert len([e for e in out.events if e.kind == "trigger"]) == 2
    assert out.state.players["alice"].life == 23


def test_502_68a_310_4_one_combat_damage_step_is_one_trigger() -> None:
    """The lifelinker blocked by two creatures deals its combat damage to
    both in one event: one trigger, for the total."""
    result = engine.resolve(_board(), {"ll": "bob"},
                            {"bear": ["ll"], "cub": ["ll"]}, assign={"ll": {"bear": 2, "cub": 1}})
    assert [e.amount for e in result.events if e.kind == "life_gain"] == [3]
    assert result.state.players["alice"].life == 23
