"""``progress=`` and a sink object typed for the kind of outcome a call hands
over (docs/batch.md, "Sink, resume and progress").

Checked by the project's ``mypy`` run (``[tool.mypy] files``), never run.
"""

from __future__ import annotations

import redzone
from redzone import GameState
from redzone.execution import JobOutcome, LightOutcome, Scored

engine = redzone.Engine()
c = engine.creature
state: GameState = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("elf", "bob", 1, 1)])
jobs = [(state, {"attacks": {"bear": "bob"}}), (state, {"attacks": {"elf": "alice"}})]


def show(done: int, total: int | None, outcome: JobOutcome) -> None:
    """Report one full outcome."""
    print(f"{done}/{total or '?'} {outcome.source}: {outcome.kind} {len(outcome.text)}")


def show_light(done: int, total: int | None, outcome: LightOutcome) -> None:
    """Report one light outcome."""
    print(done, total, dict(outcome.lives))


def show_score(done: int, total: int | None, outcome: Scored[int]) -> None:
    """Report one score."""
    print(done, total, outcome.value + 1)


class ListSink:
    """Keeps the JSON outcomes in memory."""

    def __init__(self) -> None:
        self.rows: list[str] = []

    def write(self, outcome: JobOutcome) -> None:
        """Keep one outcome's JSON."""
        self.rows.append(outcome.json)

    def close(self) -> None:
        """Nothing to close."""


def lives(out: LightOutcome) -> int:
    """Bob's life."""
    return out.lives["bob"]


sink = ListSink()
for _out in redzone.simulate(jobs, engine=engine, progress=show, sink=sink):
    pass
for _lo in redzone.simulate(jobs, engine=engine, outcome="light", progress=show_light):
    pass
for _s in redzone.simulate(jobs, engine=engine, outcome="light", score=lives,
                          progress=show_score, key=lambda i, job: f"k{i}"):
    pass
