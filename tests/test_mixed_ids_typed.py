"""Guarantee 13: a command or query given an assignment whose ids mix
strings and other values (a host's bug) refuses it with the typed error
naming each violation (510.1), never a bare TypeError from ordering them."""

from __future__ import annotations

import pytest
from redzone import Engine, IllegalAssignmentError

engine = Engine()
c = engine.creature


def _blocked():  # type: ignore[no-untyped-def]
    state = engine.game(["alice", "bob"], [c("drake", "alice", 2, 2), c("spider", "bob", 1, 3)])
    state = engine.declare_attackers(state, {"drake": "bob"}).state
    return engine.declare_blockers(state, {"spider": "drake"}).state


def test_510_1_an_assignment_mixing_id_types_is_refused_with_its_violations() -> None:
    """510.1, 510.1a: an entry keyed 5 (no creature) beside the drake's
    illegal 5 damage to bob: both violations, in a stable order."""
    state = _blocked()
    bad = {5: {"x": 1}, "drake": {"bob": 5}}
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, bad)  # type: ignore[dict-item]
    rules = sorted(v.rule for v in info.value.violations)
    assert "510.1" in rules and len(rules) >= 2
    found = engine.assignment_violations(state, bad)  # type: ignore[arg-type]
    assert [v.rule for v in found] == [v.rule for v in engine.assignment_violations(state, bad)]  # type: ignore[arg-type]
    assert len(found) >= 2
