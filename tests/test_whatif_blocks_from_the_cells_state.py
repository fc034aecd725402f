"""A what-if lists the blocks from the state its cells reach (509.1, 509.1c).

The blocks a what-if tries must be the legal declarations of the board the
cells resolve: after their choices (provoke's target, 702.39a), their
actions in the beginning of combat and declare attackers steps, and the
triggers waiting then. They were listed from the state after the attackers
alone, so some cells tried an illegal declaration (status 1) while a legal
one was never tried; with ``auto_triggers`` off nothing was listed at all.
``Engine.resolve(..., through="declare_attackers")`` gives that state.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import BadQueryError, Engine, GameState, Tap
from redzone.execution import Grid, what_if, what_if_blocks

engine = Engine()
PROVOKE_BEAR = {"provoke@taunter:target": "bear"}


def _board(eng: Engine = engine) -> GameState:
    c = eng.creature
    return eng.game(["alice", "bob"], [c("taunter", "alice", 2, 2, "provoke"),
                                       c("ogre", "bob", 3, 3), c("bear", "bob", 2, 2)])


def _status(outcome: Any) -> int:
    return int(outcome.status)


def test_702_39a_resolve_through_declare_attackers_stops_where_blockers_are_declared() -> None:
    """The run stops after the declare attackers step's window: the provoke
    trigger resolved with its chosen target, the step still to come."""
    result = engine.resolve(_board(), {"taunter": "bob"}, through="declare_attackers",
                            choices=PROVOKE_BEAR)
    state = result.state
    assert state.step == "declare_attackers" and not state.stack
    assert engine.next_step(state) == "declare_blockers"
    assert result.steps == ("beginning_of_combat", "declare_attackers")
    # the bear must block the taunter if able (509.1c)
    assert not engine.is_legal_block(state, {"ogre": ["taunter"]})
    assert engine.is_legal_block(state, {"bear": ["taunter"]})


def test_509_1c_what_if_blocks_tries_the_blocks_legal_after_its_choices() -> None:
    ranked = what_if_blocks(_board(), {"taunter": "bob"}, _status, engine=engine,
                            choices=PROVOKE_BEAR)
    tried = sorted(tuple(sorted(w.blocks)) for w in ranked)
    legal = engine.resolve(_board(), {"taunter": "bob"}, through="declare_attackers",
                           choices=PROVOKE_BEAR).state
    assert tried == sorted(tuple(sorted(d)) for d in engine.legal_block_declarations(legal))
    assert ("bear",) in tried and ("ogre",) not in tried
    assert all(w.outcome.status == 0 for w in ranked)


def test_509_1a_what_if_blocks_tries_no_block_by_a_creature_its_actions_tapped() -> None:
    ranked = what_if_blocks(_board(), {"taunter": "bob"}, _status, engine=engine,
                            actions=[("declare_attackers", Tap("ogre"))],
                            choices=PROVOKE_BEAR)
    assert ranked and all("ogre" not in w.blocks for w in ranked)
    assert all(w.outcome.status == 0 for w in ranked)


def test_603_3b_with_auto_triggers_off_the_waiting_trigger_is_resolved_first() -> None:
    manual = Engine(auto_triggers=False)
    ranked = what_if_blocks(_board(manual), {"taunter": "bob"}, _status, engine=manual)
    assert ranked and all(w.outcome.status == 0 for w in ranked)


def test_509_1c_a_grid_tries_every_block_legal_for_some_variant() -> None:
    """The blocks axis is every declaration legal for some action list and
    variant, in the order first listed; a cell whose own decisions make its
    declaration illegal says so (status 1)."""
    cells = what_if(_board(), Grid(attacks={"taunter": "bob"},
                                   variants=[{}, {"choices": PROVOKE_BEAR}]),
                    score=_status, engine=engine)
    by_variant: dict[bool, dict[tuple[str, ...], int]] = {False: {}, True: {}}
    for cell in cells:
        by_variant[bool(cell.variant)][tuple(sorted(cell.blocks))] = cell.status
    assert by_variant[True][("bear",)] == 0       # legal once the bear is provoked
    assert by_variant[True][("ogre",)] == 1       # illegal then (509.1c)
    assert by_variant[False][("ogre",)] == 0      # provoke takes the ogre by default


def test_506_1_through_declare_attackers_is_refused_past_the_declaration_of_blockers() -> None:
    state = engine.resolve(_board(), {"taunter": "bob"}, through="declare_attackers").state
    blocked = engine.declare_blockers(state, {"ogre": ["taunter"]}).state
    with pytest.raises(BadQueryError, match="past the declaration of blockers") as refused:
        engine.resolve(blocked, through="declare_attackers")
    assert refused.value.rule == "506.1"


def test_a_streamed_grid_lists_its_blocks_as_its_cells_are_resolved() -> None:
    """docs/enumeration.md: ``stream=True`` yields the cells "as they are
    resolved ... for grids too large to keep". The blocks axis of two
    attackers against thirteen blockers has 3 to the 13 declarations: the
    first cell comes after a few of them are listed, not all (the grid was
    read whole first, by itertools.product)."""
    eng = Engine()
    c = eng.creature
    board = eng.game(["alice", "bob"], [c("x", "alice", 3, 3), c("y", "alice", 3, 3),
                                        *(c(f"b{i}", "bob", 1, 1) for i in range(13))])
    listed = [0]
    real = eng.legal_block_declarations

    def counting(state: GameState) -> Any:
        for decl in real(state):
            listed[0] += 1
            yield decl

    eng.legal_block_declarations = counting  # type: ignore[method-assign]
    cells = what_if(board, Grid(attacks={"x": "bob", "y": "bob"}),
                    score=lambda out: out.lives["bob"], engine=eng, stream=True)
    first = next(iter(cells))
    assert (dict(first.blocks), first.score) == ({}, 14)
    assert listed[0] < 10
