"""What-if grids: a declaration of attackers legal in the cells, and
malformed grids named as such (508.1, 702.3b, 117.1).

A grid's attacks were declared on the bare board before any cell ran, so
an attack its cells make legal (an action in the beginning of combat step
removing defender, 702.3b) refused the whole grid; a grid's axes given in
the wrong shape were bare Python errors, where the docs promise a
``BadQueryError`` before any cell runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import BadQueryError, Engine, GameState, IllegalAttackError, Pump, Revoke
from redzone.execution import Grid, what_if, what_if_blocks

engine = Engine()


def _board() -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [c("wall", "alice", 2, 2, "defender"),
                                          c("bear", "alice", 2, 2), c("elf", "bob", 1, 1)])


def _kind(outcome: Any) -> str:
    return str(outcome.kind)


def test_702_3b_an_attack_the_cells_actions_make_legal_is_resolved() -> None:
    acts = [[("beginning_of_combat", Revoke("wall", ("defender",)))]]
    cells = what_if(_board(), Grid(attacks={"wall": "bob"}, actions=acts), score=_kind,
                    engine=engine)
    assert cells and {c.status for c in cells} == {0}
    assert {tuple(sorted(c.blocks)) for c in cells} == {(), ("elf",)}


def test_508_1_an_attack_illegal_in_every_cell_is_refused_before_any_cell_runs() -> None:
    with pytest.raises(IllegalAttackError) as refused:
        what_if(_board(), Grid(attacks={"wall": "bob"}), score=_kind, engine=engine)
    assert refused.value.rule == "702.3b"


@pytest.mark.parametrize(("grid", "named"), [
    ({"attacks": {"bear": "bob"}, "actions": [Pump("bear", 1, 1)]}, "actions"),
    ({"attacks": {"bear": "bob"}, "blocks": {"elf": "bear"}}, "blocks"),
    ({"attacks": {"bear": "bob"}, "variants": {"through": "cleanup"}}, "variants"),
    ({"attack": {"bear": "bob"}}, "attack"),
    ({"attacks": ["bear"]}, "attacks"),
])
def test_117_1_a_malformed_grid_is_a_bad_query_naming_its_field(grid: dict[str, Any],
                                                                named: str) -> None:
    with pytest.raises(BadQueryError, match=named):
        what_if(_board(), grid, score=_kind, engine=engine)


def test_117_1_what_if_blocks_names_attacks_that_are_no_declaration() -> None:
    with pytest.raises(BadQueryError, match="attacks"):
        what_if_blocks(_board(), None, _kind, engine=engine)  # type: ignore[arg-type]
