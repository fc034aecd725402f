"""Object gates (redzone.kernel._gates): a hook about objects asks a plugin
that declares keywords only about objects one of which has one of them; an
implementation marked ``@whole_board`` is asked whenever one is on the
board; an object not on the battlefield lets the state gate decide; verify
mode asks every implementation and names one whose object gate kept it out
yet answers. (Calls are counted outside verify mode, which asks everyone.)"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import (
    Engine,
    GameState,
    IllegalAssignmentError,
    IllegalBlockError,
    PluginError,
    SourceAssignment,
    Violation,
    whole_board,
)
from redzone.kernel import hookspecs
from redzone.kernel._gates import ABOUT, object_keywords
from redzone.testing import plugin_module as plugin


def _board(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [
        engine.creature("big", "alice", 4, 4, "stomp"),
        engine.creature("bear", "alice", 2, 2),
        engine.creature("w1", "bob", 1, 1),
        engine.creature("w2", "bob", 1, 1),
        engine.creature("w3", "bob", 1, 1)])


def _stomper(sources: list[str]) -> Any:
    """``stomp``: a blocked creature with stomp must assign all its damage
    to its first blocker (a test keyword checked like trample's 702.19b),
    recording the source of every assignment it is asked about."""

    def redzone_assignment_violations(state: GameState,
                                      assignment: SourceAssignment) -> list[Violation]:
        sources.append(assignment.source)
        if not state.objects[assignment.source].has("stomp") or not assignment.blockers:
            return []
        first = assignment.blockers[0]
        if assignment.amounts.get(first, 0) == assignment.power:
            return []
        return [Violation("702.999", f"{assignment.source} must assign all its damage "
                          f"to {first}", (assignment.source,))]

    return plugin("stomper", "stomp", redzone_assignment_violations=redzone_assignment_violations)


def _blocked(engine: Engine) -> GameState:
    return engine.declare_blockers(
        engine.declare_attackers(_board(engine), {"big": "bob", "bear": "bob"}).state,
        {"w1": ("big",), "w2": ("big",), "w3": ("bear",)}).state


def test_510_1_an_assignment_check_is_asked_about_its_keywords_sources_only() -> None:
    """510.1c-d, 702.19b: a plugin's check of a source's combat damage
    assignment is asked about the sources that have its keyword, not about
    the others' (two blocked attackers and three blockers assign; only the
    stomper's assignment is checked); its rule still applies there."""
    sources: list[str] = []
    engine = Engine(discover=False, plugins=[_stomper(sources)], verify=False)
    state = _blocked(engine)
    out = engine.combat_damage(state, {"big": {"w1": 4}}).state
    assert sources == ["big"]
    assert [out.objects[c].zone for c in ("w1", "w2", "w3")] == [
        "graveyard", "battlefield", "graveyard"]
    with pytest.raises(IllegalAssignmentError, match="must assign all its damage to w1"):
        engine.combat_damage(state, {"big": {"w1": 2, "w2": 2}})
    assert sources == ["big", "big"]


def test_results_are_those_of_asking_everyone() -> None:
    """Guarantee 22: the object gate changes no result: the same combat in
    verify mode (which asks every implementation about every object) ends
    in the same state and events."""
    def play(engine: Engine) -> Any:
        return engine.combat_damage(_blocked(engine), {"big": {"w1": 4}})

    fast = play(Engine(discover=False, plugins=[_stomper([])], verify=False))
    checked = play(Engine(discover=False, plugins=[_stomper([])], verify=True))
    assert fast.state == checked.state and fast.events == checked.events


def _lamp_rule(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    """``lamp``: while a creature with lamp is on the battlefield, creatures
    without it can't be blocked (its keyword matters on other objects)."""
    if state.objects[attacker].has("lamp"):
        return []
    if any(p.has("lamp") and p.zone == "battlefield" for p in state.objects.values()):
        return [Violation("702.999", f"{attacker} can't be blocked while a lamp shines",
                          (blocker, attacker))]
    return []


def _lamp_board(engine: Engine) -> GameState:
    state = engine.game(["alice", "bob"], [
        engine.creature("lamp", "alice", 0, 1, "lamp"),
        engine.creature("bear", "alice", 2, 2),
        engine.creature("wall", "bob", 0, 4)])
    return engine.declare_attackers(state, {"bear": "bob"}).state


def test_verify_mode_names_a_plugin_its_object_gate_kept_out_that_answers() -> None:
    """Contract: an implementation whose keyword matters on objects other
    than those it is asked about, and that doesn't say so, answers where its
    object gate keeps it out: verify mode fails it, naming the plugin, the
    hook, the objects and the cure."""
    engine = Engine(discover=False, plugins=[
        plugin("lamps", "lamp", redzone_block_violations=_lamp_rule)], verify=True)
    with pytest.raises(PluginError) as err:
        engine.declare_blockers(_lamp_board(engine), {"wall": ("bear",)})
    message = str(err.value)
    assert "'lamps'" in message and "redzone_block_violations" in message
    assert "none on the objects asked about (wall, bear)" in message
    assert "@redzone.whole_board" in message


@pytest.mark.parametrize("verify", [False, True])
def test_a_whole_board_implementation_is_asked_about_every_object(verify: bool) -> None:
    """509.1b: marked ``@whole_board``, the same implementation is asked
    about objects without its keyword, in production and in verify mode
    alike: the wall can't block the bear while the lamp is on the battlefield."""
    engine = Engine(discover=False, plugins=[plugin(
        "lamps", "lamp", redzone_block_violations=whole_board(_lamp_rule))], verify=verify)
    with pytest.raises(IllegalBlockError, match="can't be blocked while a lamp shines"):
        engine.declare_blockers(_lamp_board(engine), {"wall": ("bear",)})


def test_an_object_off_the_battlefield_is_asked_about_by_the_state_gate() -> None:
    """608.2h: an object that left the battlefield is known by its last
    known information, which may have other keywords than its card now: a
    hook about it asks every implementation the state gate lets through. A
    player asked about has no keywords."""
    asked: list[str] = []

    def redzone_cannot_be_destroyed(state: GameState, permanent: str) -> bool | None:
        asked.append(permanent)
        return None

    engine = Engine(discover=False, verify=False, plugins=[
        plugin("sturdy", "sturdy", redzone_cannot_be_destroyed=redzone_cannot_be_destroyed)])
    state = engine.game(["alice", "bob"], [
        engine.creature("rock", "alice", 1, 1, "sturdy"),
        engine.creature("bear", "alice", 2, 2),
        engine.creature("gone", "bob", 2, 2)])
    state = state.with_permanents({"gone": state.objects["gone"].evolve(zone="graveyard")})
    for obj in ("rock", "bear", "gone"):
        engine.hooks.cannot_be_destroyed(state, obj)
    assert asked == ["rock", "gone"]
    assert object_keywords(state, ("rock", "alice")) == (frozenset({"sturdy"}),)
    assert object_keywords(state, ("bear", "gone")) is None
    assert object_keywords(state, ("nobody",)) is None


def test_whole_board_marks_functions_only() -> None:
    """Contract: ``@whole_board`` marks a hook implementation (a function or
    a method) and returns it; anything else is a ``TypeError`` naming it."""
    def fn(state: GameState) -> None:
        return None

    assert whole_board(fn) is fn
    with pytest.raises(TypeError, match="marks a hook implementation"):
        whole_board(42)


def test_every_hook_about_objects_is_a_hook_and_says_so() -> None:
    """The table of hooks about objects names hooks that exist, each of whose
    reference says it is gated on the objects it is asked about."""
    for hook in ABOUT:
        spec = getattr(hookspecs, hook)
        assert "objects it is asked about" in " ".join((spec.__doc__ or "").split()), hook
