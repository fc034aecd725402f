"""400.7: an object that leaves the battlefield and comes back is a new object,
with no memory of the old one. What waits on the stack for the old one (combat
damage assigned to it under combat damage on the stack, 1999-2009; a triggered
ability that targets it) doesn't find it in the new one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redzone
from redzone import Destroy, Engine, Event, GameState, LeaveBattlefield, Move, Trigger


def _blink(obj: str) -> list[tuple[str, redzone.Action]]:
    """Exile ``obj`` and return it to the battlefield, with combat damage on the stack."""
    return [("combat_damage_assigned", LeaveBattlefield(obj, "exile")),
            ("combat_damage_assigned", Move(obj, "battlefield"))]


def test_310_4c_400_7_damage_on_the_stack_isnt_dealt_to_a_creature_that_came_back() -> None:
    """310.4c (2009): "If a creature ... that was assigned combat damage is no
    longer in play ... the damage assigned to it isn't dealt"; 400.7: the bear that
    comes back is a new object, not the one the ogre's 3 was assigned to. The new
    bear survives with no damage; the old bear's own 2 to the ogre is still dealt
    (310.4a: a source that left play deals its damage as assigned)."""
    engine = Engine("sixth")
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3),
                                           engine.creature("bear", "bob", 2, 2)])
    before = state.objects["bear"].object
    out = engine.resolve(state, {"ogre": "bob"}, {"bear": ("ogre",)}, actions=_blink("bear"))
    bear, ogre = out.state.objects["bear"], out.state.objects["ogre"]
    assert bear.object != before  # (a new object: the blink happened)
    assert (bear.zone, bear.damage) == ("battlefield", 0)
    assert ogre.damage == 2
    dealt = [(e.source, e.target, e.amount) for e in out.events if e.kind == "damage"]
    assert dealt == [("bear", "ogre", 2)]


def test_310_4c_the_damage_is_still_dealt_to_a_creature_that_stayed() -> None:
    """310.4a (2009): damage on the stack is dealt as assigned to a creature that
    is still the object it was assigned to, even if it moved within combat; the
    object number is what tells the two apart (400.7), not the id."""
    engine = Engine("sixth")
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3),
                                           engine.creature("bear", "bob", 2, 2)])
    out = engine.resolve(state, {"ogre": "bob"}, {"bear": ("ogre",)},
                         actions=[("combat_damage_assigned",
                                   redzone.RemoveFromCombat("bear"))])
    assert out.state.objects["bear"].zone == "graveyard"
    assert [(e.source, e.target, e.amount) for e in out.events if e.kind == "damage"] == [
        ("ogre", "bear", 3), ("bear", "ogre", 2)]


def test_310_4c_the_numbers_noted_round_trip_with_the_state() -> None:
    """The object numbers noted as combat damage goes on the stack (310.1) are
    part of the state: a state saved in the window and loaded again still knows
    the bear that came back is a new object (400.7)."""
    from redzone.formats.serialize import state_from_dict, state_to_dict

    engine = Engine("sixth")
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3),
                                           engine.creature("bear", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"ogre": "bob"}).state
    state = engine.declare_blockers(state, {"bear": ("ogre",)}).state
    state = engine.combat_damage(state).state
    assert state.step == "combat_damage_assigned"
    assert state.combat is not None
    assert dict(state.combat.on_stack_objects) == {"ogre": state.objects["ogre"].object,
                                                   "bear": state.objects["bear"].object}
    loaded = state_from_dict(state_to_dict(state))
    assert loaded == state
    loaded = engine.perform(loaded, [LeaveBattlefield("bear", "exile"),
                                     Move("bear", "battlefield")]).state
    after = engine.combat_damage(loaded).state
    assert after.objects["bear"].damage == 0


def _sixth_deathtouch_on_the_stack() -> tuple[Engine, GameState]:
    """A 1/1 deathtouch elf blocked by a 0/5 giant under the 2009 rules, its
    deathtouch trigger (502.63a) on the stack, targeting the giant."""
    engine = Engine("sixth", auto_triggers=False)
    state = engine.game(["alice", "bob"], [engine.creature("elf", "alice", 1, 1, "deathtouch"),
                                           engine.creature("giant", "bob", 0, 5)])
    state = engine.declare_attackers(state, {"elf": "bob"}).state
    state = engine.declare_blockers(state, {"giant": ("elf",)}).state
    state = engine.combat_damage(state).state
    state = engine.combat_damage(state).state
    assert [(t.kind, t.targets) for t in state.stack] == [("deathtouch", ("giant",))]
    return engine, state


def test_400_7_a_trigger_targeting_a_creature_that_came_back_doesnt_destroy_it() -> None:
    """502.63a (2009): deathtouch means "whenever this permanent deals damage to a
    creature, destroy that creature"; 400.7: the giant that left and came back
    before the trigger resolved is a new object, not "that creature". It isn't
    destroyed; a ``skipped`` event says why."""
    engine, state = _sixth_deathtouch_on_the_stack()
    state = engine.perform(state, [LeaveBattlefield("giant", "exile"),
                                   Move("giant", "battlefield")]).state
    out = engine.resolve_trigger(state)
    assert out.state.objects["giant"].zone == "battlefield"
    assert not [e for e in out.events if e.kind == "destroyed"]
    skipped = [e for e in out.events if e.kind == "skipped"]
    assert len(skipped) == 1 and skipped[0].rule == "400.7" and "giant" in skipped[0].detail


def test_502_63a_the_trigger_destroys_the_creature_that_stayed() -> None:
    """502.63a (2009): the trigger destroys the giant it dealt damage to when the
    giant is still that object: the number noted doesn't stop it."""
    engine, state = _sixth_deathtouch_on_the_stack()
    out = engine.resolve_trigger(state)
    assert out.state.objects["giant"].zone == "graveyard"
    assert [e.object for e in out.events if e.kind == "destroyed"] == ["giant"]


class _Zap:
    """A plugin of today's rules: whenever a creature attacks, an ability
    targeting the defending player's creature ``wall``; as it resolves, the
    plugin destroys its target (its actions come from ``redzone_resolve_trigger``,
    not from the trigger's own ``actions``)."""

    @redzone.hookimpl
    def redzone_triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("zap", e.object or "", "alice", "603.2", "destroy the wall",
                        targets=("wall",))
                for e in events if e.kind == "attack"]

    @redzone.hookimpl
    def redzone_resolve_trigger(self, state: GameState, trigger: Trigger) -> list[Destroy]:
        if trigger.kind != "zap":
            return []
        return [Destroy(t) for t in trigger.targets if t in state.objects]


@pytest.fixture
def zap_engine() -> Iterator[Engine]:
    yield Engine(plugins=[_Zap()], auto_triggers=False)


def test_400_7_608_2b_any_plugins_targeted_trigger_leaves_a_new_object_alone(
        zap_engine: Engine) -> None:
    """400.7 under today's rules, for any plugin: a trigger's targets are noted
    by object number as it goes on the stack, and what the plugin does as it
    resolves (``redzone_resolve_trigger``) to a target that has since come back
    as a new object is left out (608.2b); the target that stayed is destroyed."""
    engine = zap_engine
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3),
                                           engine.creature("wall", "bob", 0, 4)])
    state = engine.declare_attackers(state, {"ogre": "bob"}).state
    assert [t.objects.get("wall") for t in state.stack] == [state.objects["wall"].object]
    blinked = engine.perform(state, [LeaveBattlefield("wall", "exile"),
                                     Move("wall", "battlefield")]).state
    out = engine.resolve_trigger(blinked)
    assert out.state.objects["wall"].zone == "battlefield"
    assert [e.rule for e in out.events if e.kind == "skipped"] == ["400.7"]
    stayed = engine.resolve_trigger(state)
    assert stayed.state.objects["wall"].zone == "graveyard"
