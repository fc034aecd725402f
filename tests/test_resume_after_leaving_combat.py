"""Resuming a combat with the declarations that were made, after a
combatant left it (506.4, 400.7, 508.1e, 509.1).

``Engine.resolve`` from a state in a combat accepts, for a step already
done, the declaration that was made (``redzone.kernel.resume``): what
effects did since counts as made. A blocker that died and came back
(undying, 702.93a) is a new object no longer in the combat; an attacker of
a band that left combat leaves the band smaller. The declarations made
were refused in both cases.
"""

from __future__ import annotations

import pytest
from redzone import BadQueryError, Engine, Exile
from redzone.execution import simulate
from redzone.execution.jobs import MidCombat

EDITIONS = ("foundations", "m10", "sixth")


@pytest.mark.parametrize("rules", EDITIONS)
def test_509_1_400_7_the_blocks_made_are_accepted_after_a_blocker_came_back(rules: str) -> None:
    eng = Engine(rules)
    c = eng.creature
    board = eng.game(["alice", "bob"], [c("knight", "alice", 3, 3, "first strike"),
                                        c("bear", "bob", 2, 2, "undying")])
    attacks, blocks = {"knight": "bob"}, {"bear": ["knight"]}
    whole = eng.resolve(board, attacks, blocks)
    state = eng.declare_attackers(eng.begin_combat(board).state, attacks).state
    state = eng.declare_blockers(state, blocks).state
    state = eng.combat_damage(state).state  # first strike: the bear dies, and comes back
    if state.step.endswith("_assigned"):
        state = eng.combat_damage(state).state  # (1999-2009: the damage on the stack dealt)
    assert state.objects["bear"].zone == "battlefield" and state.objects["bear"].object == 3
    assert eng.resolve(state, attacks, blocks).state == whole.state
    job = next(iter(simulate([MidCombat(state, {"blocks": blocks})], engine=eng)))
    assert job.status == 0, job.outcome


def test_509_1_a_block_never_made_is_still_refused_for_a_creature_in_combat() -> None:
    eng = Engine()
    c = eng.creature
    board = eng.game(["alice", "bob"], [c("knight", "alice", 3, 3, "first strike"),
                                        c("bear", "bob", 2, 2, "undying"),
                                        c("elf", "bob", 1, 1)])
    state = eng.declare_attackers(eng.begin_combat(board).state, {"knight": "bob"}).state
    state = eng.declare_blockers(state, {"bear": ["knight"]}).state
    with pytest.raises(BadQueryError, match="declared already"):
        eng.resolve(state, {"knight": "bob"}, {"elf": ["knight"]})


@pytest.mark.parametrize("rules", EDITIONS)
def test_508_1e_the_band_declared_is_accepted_after_a_member_left_combat(rules: str) -> None:
    eng = Engine(rules)
    c = eng.creature
    board = eng.game(["alice", "bob"], [c("a", "alice", 2, 2, "banding"),
                                        c("b", "alice", 2, 2, "banding"),
                                        c("d", "alice", 2, 2), c("ox", "bob", 2, 5)])
    attacks = {"a": "bob", "b": "bob", "d": "bob"}
    state = eng.declare_attackers(eng.begin_combat(board).state, attacks, [["a", "b", "d"]]).state
    state = eng.perform(state, Exile("b")).state
    assert state.combat is not None and state.combat.bands == (("a", "d"),)
    whole = eng.resolve(board, attacks, bands=[["a", "b", "d"]],
                        actions=[("declare_attackers", Exile("b"))])
    assert eng.resolve(state, attacks, bands=[["a", "b", "d"]]).state == whole.state
