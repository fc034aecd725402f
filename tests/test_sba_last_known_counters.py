"""704.3, 704.5q, 603.10a: a creature destroyed in the same check in which
its +1/+1 and -1/-1 counters would annihilate leaves with both.

State-based actions are performed simultaneously as a single event (704.3):
the creature's last known information is what it was just before that
event, with both counters. Persist (702.79a: "if it had no -1/-1 counters
on it") and undying (702.93a: "if it had no +1/+1 counters on it") read it
(603.10a), so neither returns it. The counters were removed first and the
last known information taken after, so both returned their creature.
"""

from __future__ import annotations

import pytest
from redzone import Engine

EDITIONS = ("foundations", "m10", "sixth")


@pytest.mark.parametrize("rules", EDITIONS)
def test_702_79a_persist_doesnt_return_a_creature_that_died_with_a_minus_counter(
        rules: str) -> None:
    """Kitchen Finks (3/2 persist) with a +1/+1 counter is dealt 1 wither
    damage (a -1/-1 counter, 120.3d) and 3 damage: lethal (704.5g), and its
    counters would annihilate (704.5q), in one check. It had a -1/-1 counter
    as it died: it stays in the graveyard."""
    eng = Engine(rules)
    finks = eng.creature("finks", "alice", 3, 2, "persist").evolve(counters={"+1/+1": 1})
    state = eng.game(["alice", "bob"], [finks, eng.creature("wog", "bob", 1, 1, "wither"),
                                        eng.creature("ogre", "bob", 3, 3)])
    result = eng.resolve(state, {"finks": "bob"}, {"wog": "finks", "ogre": "finks"},
                         assign={"finks": {"wog": 1, "ogre": 3}},
                         order={"finks": ["wog", "ogre"]})
    assert result.state.objects["finks"].zone == "graveyard"
    assert result.state.objects["finks"].object == 2  # (moved once: no return)
    assert not [e for e in result.events if e.kind == "trigger"]


@pytest.mark.parametrize("rules", EDITIONS)
def test_702_93a_undying_doesnt_return_a_creature_that_died_with_a_plus_counter(
        rules: str) -> None:
    eng = Engine(rules)
    zombie = eng.creature("zombie", "alice", 2, 2, "undying").evolve(counters={"+1/+1": 1})
    state = eng.game(["alice", "bob"], [zombie, eng.creature("wog", "bob", 1, 1, "wither"),
                                        eng.creature("bear", "bob", 2, 2)])
    result = eng.resolve(state, {"zombie": "bob"}, {"wog": "zombie", "bear": "zombie"},
                         assign={"zombie": {"wog": 1, "bear": 2}},
                         order={"zombie": ["wog", "bear"]})
    assert result.state.objects["zombie"].zone == "graveyard"
    assert not [e for e in result.events if e.kind == "trigger"]


def test_704_5q_a_surviving_creature_s_counters_still_annihilate() -> None:
    """The counters of a creature that stays are removed in the same check."""
    eng = Engine()
    troll = eng.creature("troll", "alice", 3, 5).evolve(counters={"+1/+1": 2})
    state = eng.game(["alice", "bob"], [troll, eng.creature("wog", "bob", 1, 1, "wither")])
    result = eng.resolve(state, {"troll": "bob"}, {"wog": "troll"})
    assert dict(result.state.objects["troll"].counters) == {"+1/+1": 1}
    assert [(e.kind, e.rule, e.amount) for e in result.events
            if e.kind == "counters_removed"] == [("counters_removed", "704.5q", 1)]


def test_122_1_removing_more_counters_than_there_are_reports_what_was_removed() -> None:
    """An ``add_counters`` of -5 -1/-1 counters on a creature with one
    removes one: the event says 1 removed (-1), not 5."""
    from redzone import AddCounters

    eng = Engine()
    finks = eng.creature("finks", "alice", 3, 2).evolve(counters={"-1/-1": 1})
    state = eng.game(["alice", "bob"], [finks])
    out = eng.perform(state, AddCounters("finks", {"-1/-1": -5}))
    assert out.state.objects["finks"].counters.get("-1/-1", 0) == 0
    assert [(e.kind, e.counter, e.amount) for e in out.events] == [("counters", "-1/-1", -1)]
