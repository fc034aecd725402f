"""A batch run with ``redzone.simulate`` and score functions, typed as a
``mypy --strict`` user writes it from docs/batch.md and docs/enumeration.md:
each score has its function's type, for what ``outcome=`` hands over.

Checked by the project's ``mypy`` run (``[tool.mypy] files``), never run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_type

import redzone
from redzone import GameState, Pump
from redzone.execution import (
    Cell,
    Grid,
    JobOutcome,
    LightOutcome,
    Reduced,
    Scored,
    WhatIf,
    what_if,
    what_if_blocks,
)

engine = redzone.Engine()
c = engine.creature
state: GameState = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("elf", "bob", 1, 1)])
jobs = [
    (state, {"attacks": {"bear": "bob"}}),
    (state, {"attacks": {"bear": "bob"}, "blocks": {"elf": "bear"}}),
    (state, {"attacks": {"elf": "alice"}}),
]

full: list[JobOutcome] = list(redzone.simulate(jobs, engine=engine))
for o in full:
    life: int = o.outcome["players"]["bob"]["life"] if o.status == 0 else 0


def damage_to_bob(out: LightOutcome) -> int:
    """What bob lost."""
    return 20 - out.lives["bob"] if out.ok else 0


def add(a: int, b: int) -> int:
    """Two scores combined."""
    return a + b


light: Iterator[LightOutcome] = redzone.simulate(jobs, engine=engine, outcome="light")

scored = redzone.simulate(jobs, engine=engine, outcome="light", score=damage_to_bob)
assert_type(scored, Iterator[Scored[int]])
values: list[int] = [s.value for s in scored]

total = redzone.simulate(jobs, engine=engine, outcome="light", score=damage_to_bob, reduce=add)
assert_type(total, Reduced[int])
assert_type(total.value, int)
started = redzone.simulate(jobs, engine=engine, outcome="light", score=damage_to_bob,
                           reduce=add, initial=0)
assert_type(started.value, int)

# A mode chosen at run time, as a str: either kind of outcome.
mode: str = "light"
for x in redzone.simulate(jobs, engine=engine, outcome=mode):
    assert_type(x, JobOutcome | LightOutcome)
    print("mode", x.index, x.kind)

board = engine.game(["alice", "bob"], [
    c("brute", "alice", 3, 3, "menace"), c("bear", "bob", 2, 2), c("elf", "bob", 1, 1)])


def bob_life(out: JobOutcome) -> int:
    """Bob's life after the combat."""
    life: int = out.outcome["players"]["bob"]["life"]
    return life


by_bob = redzone.simulate(jobs, engine=engine, score=bob_life)
assert_type(by_bob, Iterator[Scored[int]])

ranked: list[WhatIf[int]] = what_if_blocks(board, {"brute": "bob"}, bob_life, engine=engine)
assert_type(ranked[0].score, int)


def for_bob(out: LightOutcome) -> int:
    """Bob's life, less 3 for each of his creatures that died, plus 3 if the brute did."""
    lost = sum(d in ("bear", "elf") for d in out.deaths)
    return out.lives["bob"] - 3 * lost + 3 * ("brute" in out.deaths) if out.ok else -100


grid = Grid(attacks={"brute": "bob"}, actions=[[], [("declare_blockers", Pump("brute", 2, 2))]])
cells: list[Cell[int]] = what_if(board, grid, score=for_bob, engine=engine)
for cell in cells:
    assert_type(cell.score, int)
streamed = what_if(board, grid, score=for_bob, engine=engine, stream=True)
assert_type(streamed, Iterator[Cell[int]])
as_json = what_if(board, grid, score=bob_life, engine=engine, outcome="json")
assert_type(as_json, list[Cell[int]])
# An annotation without the score's type still reads (the score is Any).
loose: list[Cell] = cells
