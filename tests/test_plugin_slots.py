"""A plugin's own slot of the state (611.2, 603.2), read through a
:class:`~redzone.Slot` handle whatever name the plugin was registered under:
by its entry point's name, by another name an embedding program gives it, or
by the conformance kit's renamed engines (a position prefix)."""

from __future__ import annotations

import types
from typing import Any

import pytest
from redzone import (
    Action,
    ActionSpec,
    Damage,
    Engine,
    Event,
    GameState,
    PluginState,
    Prevention,
    Slot,
)
from redzone.kernel.plugins import PluginInfo
from redzone.testing import plugin_module
from redzone.testing.conformance import ConformanceError, Subject, check_invariant


def sentry(name: str, *, handle: bool) -> types.ModuleType:
    """A test keyword: once a creature has attacked this combat (counted in
    the plugin's slot, scope ``combat``, from the ``attack`` events, 603.2),
    1 damage that would be dealt to a creature with sentry is prevented
    (615.1). With ``handle`` the plugin reads its slot through a
    :class:`Slot`; without, by the literal name ``"sentry"``."""
    seen = Slot("combat")

    def read(state: GameState) -> Any:
        return seen.get(state) if handle else state.slot("sentry")

    def redzone_record(state: GameState, events: tuple[Event, ...]) -> PluginState | None:
        attacks = sum(1 for e in events if e.kind == "attack")
        if not attacks:
            return None
        return seen.keep((read(state) or 0) + attacks)

    def redzone_prevent_damage(state: GameState, damage: Damage) -> list[Prevention] | None:
        target = state.objects.get(damage.target)
        if target is None or not target.has("sentry") or not read(state):
            return None
        return [Prevention("sentry", "615.1", 1)]

    module = plugin_module(name, "sentry", asked_always=True, redzone_record=redzone_record,
                           redzone_prevent_damage=redzone_prevent_damage)
    module.SEEN = seen  # type: ignore[attr-defined]
    return module


def _blocked_combat(engine: Engine) -> GameState:
    state = engine.game(["alice", "bob"], [engine.creature("orc", "alice", 3, 3),
                                           engine.creature("wall", "bob", 0, 4, "sentry")])
    return engine.resolve(state, {"orc": "bob"}, {"wall": "orc"}).state


@pytest.mark.parametrize("registered", ["sentry", "guard", "007.sentry"])
def test_611_2_a_slot_handle_reads_the_slot_of_the_name_it_was_registered_under(
        registered: str) -> None:
    """611.2/603.2: the slot the plugin kept from the declaration is read in
    the damage step whatever name it was registered under: 1 of the orc's 3
    damage to the wall is prevented (615.1), so 2 is marked."""
    module = sentry("sentry", handle=True)
    engine = Engine(discover=False, plugins=[PluginInfo(registered, module)])
    after = _blocked_combat(engine)
    assert after.objects["wall"].damage == 2
    # ... kept under the registered name, where state.slot(name) reads it.
    assert after.plugin_state[registered].scope == "combat"
    assert after.slot(registered) == 1


def test_611_2_the_registered_name_still_reads_the_slot() -> None:
    """``state.slot(name)`` keeps working for a plugin registered under the
    name it reads: the literal-name plugin prevents as the handle one does."""
    engine = Engine(discover=False, plugins=[sentry("sentry", handle=False)])
    assert _blocked_combat(engine).objects["wall"].damage == 2


def test_611_2_a_literal_name_misses_the_slot_under_another_name() -> None:
    """What the handle is for: registered as ``guard``, a plugin reading
    ``state.slot("sentry")`` finds nothing and prevents nothing (3 marked)."""
    engine = Engine(discover=False, plugins=[PluginInfo("guard", sentry("sentry", handle=False))])
    assert _blocked_combat(engine).objects["wall"].damage == 3


def test_the_kits_renamed_engines_read_a_handle_plugins_slot() -> None:
    """The kit's order-permuted engines rename each plugin with a position
    prefix: a plugin reading its slot by a literal name resolves differently
    there and breaks 'order-independent'; through a Slot it keeps it."""
    check_invariant(Subject(sentry("sentry", handle=True), others=()), "order-independent",
                    max_examples=40)
    with pytest.raises(ConformanceError) as err:
        check_invariant(Subject(sentry("sentry", handle=False), others=()),
                        "order-independent", max_examples=40, derandomize=True, shrink=False)
    assert "order" in err.value.detail


class Tally(Action):
    do = "tally"


def test_611_2_an_action_kinds_code_reads_its_plugins_slot() -> None:
    """117.1: an action kind's code runs as its plugin's: a Slot in it reads
    and (with ``SetState``'s tools) writes the slot of the plugin's
    registered name."""
    count = Slot()

    def apply(tx: Any, action: Action) -> None:
        tx.set_state((count.get(tx.state) or 0) + 1)

    module = plugin_module("tallier", redzone_actions=lambda: [ActionSpec(Tally, apply, "117.1")])
    module.COUNT = count  # type: ignore[attr-defined]
    engine = Engine(discover=False, plugins=[PluginInfo("counter", module)])
    state = engine.game(["alice", "bob"])
    state = engine.perform(engine.perform(state, Tally()).state, Tally()).state
    assert state.slot("counter") == 2


def test_a_slot_read_outside_its_plugins_code_says_so() -> None:
    """A handle read where no plugin's code runs names the problem."""
    engine = Engine(discover=False, plugins=[sentry("sentry", handle=True)])
    state = engine.game(["alice", "bob"])
    handle = Slot()
    with pytest.raises(LookupError, match="outside the code of a plugin"):
        handle.get(state)
    with pytest.raises(ValueError, match="unknown scope 'round'"):
        Slot("round")
