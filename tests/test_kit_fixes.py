"""Fixes to the conformance kit (redzone.testing.conformance): what it
checks on the legal line of a board, and the boards it draws."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Damage,
    Engine,
    Event,
    GameState,
    IllegalActionError,
    Player,
    Result,
    Trigger,
    Violation,
)
from redzone.testing import conformance, plugin_module
from redzone.testing.conformance import (
    Case,
    ConformanceError,
    Subject,
    check_damage_conserved,
    check_invariant,
)

#: Unique names for the profiles these tests register (hypothesis keeps them).
_NAMES = (f"redzone-conformance-kit-fixes-{n}" for n in itertools.count())


def _snag() -> Any:
    """A plugin of keyword "snag": a snag creature's combat damage triggers
    an ability whose resolution is refused (an ``IllegalActionError``, as
    ``redzone_resolve_trigger`` may raise: the line's combat damage command
    is refused there), and its block restrictions fail (a ``KeyError``)
    when asked about a state whose blockers are already declared: only the
    queries on the states the line reached before the refusal ask that."""

    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("snag", e.source, state.objects[e.source].controller, "702.999")
                for e in events if e.kind == "damage" and e.combat and e.source
                and e.source in state.objects and state.objects[e.source].has("snag")]

    def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Any]:
        if trigger.kind == "snag":
            raise IllegalActionError("snag refuses to resolve", rule="702.999")
        return []

    def redzone_block_violations(state: GameState, blocker: str,
                                 attacker: str) -> list[Violation]:
        if state.combat is not None and state.combat.blocks:
            raise KeyError("blockers already declared")
        return []

    return plugin_module("snag", "snag", redzone_triggers=redzone_triggers,
                         redzone_resolve_trigger=redzone_resolve_trigger,
                         redzone_block_violations=redzone_block_violations)


def test_a_query_failing_before_a_refused_command_of_the_legal_line_is_caught() -> None:
    """``no-exception-escapes`` (733, 509.1): a command may be refused
    (``IllegalActionError``), a query never raises. The legal line's combat
    damage is refused (a trigger's resolution refuses it), so the line ends
    there; the queries on the states it reached before (who could block, in
    the declare blockers step) still run, and the block restriction that
    fails there is caught, naming the query and the hook, instead of the
    refusal ending the check."""
    with pytest.raises(ConformanceError) as info:
        check_invariant(Subject(_snag(), others=()), "no-exception-escapes",
                        max_examples=100, derandomize=True, shrink=False)
    err = info.value
    assert (err.invariant, err.plugin) == ("no-exception-escapes", "snag")
    assert err.detail.startswith("the queries during combat raised PluginError")
    assert "redzone_block_violations" in err.detail and "KeyError" in err.detail


def _boards(derandomize: bool | None = None) -> list[GameState]:
    """The boards one run of the kit shows a plugin (each state its attack
    restrictions are asked about, in order)."""
    seen: list[GameState] = []

    def redzone_attack_violations(state: GameState, attacker: str,
                                  attacked: str) -> list[Violation]:
        seen.append(state)
        return []

    spy = plugin_module("spy", redzone_attack_violations=redzone_attack_violations)
    check_invariant(Subject(spy, others=()), "default-assignment-legal", max_examples=8,
                    derandomize=derandomize)
    assert seen
    return seen


def test_the_boards_are_the_same_on_every_run_by_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit's documented default (docs/testing.md): without a profile
    registered as ``PROFILE``, ``derandomize`` left unset draws the same
    boards on every run, as ``derandomize=True`` does."""
    monkeypatch.setattr(conformance, "PROFILE", next(_NAMES))  # (registered by none)
    first = _boards()
    assert _boards() == first
    assert _boards(derandomize=True) == first


def test_a_registered_profile_lets_a_suite_draw_new_boards_each_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A test suite that wants new boards on every run registers the
    hypothesis profile ``PROFILE`` with ``derandomize=False``: the kit's
    runs that leave ``derandomize`` unset then draw new boards each run
    (eight boards drawn twice at random are not the same eight); an
    explicit ``derandomize=True`` still draws the same ones."""
    name = next(_NAMES)
    settings.register_profile(name, derandomize=False, database=None)
    monkeypatch.setattr(conformance, "PROFILE", name)
    assert _boards() != _boards()
    assert _boards(derandomize=True) == _boards(derandomize=True)


def _snipe() -> Any:
    """A plugin that marks one more damage than is dealt (120.3e) on a
    creature blocking an attacker behind a first blocker the attacker's
    power can't destroy (whose lethal damage, 120.6, is more than that
    power): damage the default assignment never assigns there (it gives all
    of it to the first blocker), a division its controller may choose does
    (510.1c)."""

    def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
        combat = state.combat
        if not damage.combat or combat is None or damage.source not in combat.attacks:
            return []
        blockers = combat.blockers_of(damage.source)
        if damage.target not in blockers[1:]:
            return []
        first = state.objects[blockers[0]]
        if first.toughness - first.damage <= state.objects[damage.source].power:
            return []
        return [Result("marked", "120.3e", damage.source, damage.amount + 1,
                       target=damage.target, replaces="marked")]

    return plugin_module("snipe", redzone_damage_results=redzone_damage_results)


def test_damage_conserved_checks_a_drawn_legal_division_too() -> None:
    """``damage-conserved`` (510.1c, 120.3e): a blocked creature's controller
    divides its damage among its blockers as they choose, so the invariant
    is checked on a division the kit draws (where it is legal), not on the
    default assignment alone: a plugin that marks more damage than is dealt
    only where the default never assigns damage is caught, and the board is
    shown with the division it was given."""
    with pytest.raises(ConformanceError) as info:
        check_invariant(Subject(_snipe(), others=()), "damage-conserved", max_examples=300,
                        derandomize=True, shrink=False)  # (the boards that show it)
    err = info.value
    assert (err.invariant, err.plugin) == ("damage-conserved", "snipe")
    assert err.detail.endswith("(120.3e)")
    assert "assign" in err.scenario


def test_damage_conserved_doesnt_compare_a_creature_back_as_a_new_object() -> None:
    """120.3e, 400.7, 702.79a: a creature destroyed by combat damage that
    persist returns in the same step is a new object, with no damage marked:
    its damage isn't compared with what the old one had (a board random
    draws found: the kit reported "had 1 damage marked and now has 0")."""
    engine = Engine()
    c = engine.creature
    state = engine.game([Player("alice", life=1), Player("bob", life=1)], [
        c("a1", "alice", 0, 2, "persist", damage=1), c("b2", "bob", 1, 1)])
    case = Case(state, {"a1": "bob"}, {"b2": "a1"})
    out = engine.resolve(state, case.attacks, case.blocks)
    back = out.state.objects["a1"]
    assert (back.zone, back.damage, dict(back.counters)) == ("battlefield", 0, {"-1/-1": 1})
    assert back.object != state.objects["a1"].object
    subject = Subject(None)

    @settings(max_examples=1, database=None)
    @given(st.just(case))
    def check(case: Case) -> None:  # (the kit's checks run inside a property)
        check_damage_conserved(subject, case)

    check()


def test_the_events_check_knows_a_delayed_trigger_made_in_an_earlier_command() -> None:
    """603.7a, 603.7c: a delayed trigger made as a creature attacked (decayed's
    "sacrifice it at end of combat") fires in a later command; the event
    saying part of it does nothing names it by the id it got then, which the
    ``events-accounted-for`` check knows from the state before the command
    (a random board found the kit calling it an object that doesn't exist)."""
    from redzone import Engine, Move
    from redzone.testing.conformance import account

    engine = Engine()
    state = engine.game(["alice", "bob"], [engine.creature("a1", "alice", 0, 1, "decayed")])
    state = engine.declare_attackers(state, {"a1": "bob"}).state
    assert [d.id for d in state.delayed]
    state = engine.perform(state, [Move("a1", "exile"), Move("a1", "battlefield")]).state
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    out = engine.end_of_combat(state)
    skipped = [e for e in out.events if e.kind == "skipped"]
    assert skipped and skipped[0].object == state.delayed[0].id
    assert account(state, out.state, out.events) == ""
