"""The CPU cost of one batch job against ``Engine.resolve`` itself.

Usage (from the repository root)::

    python benchmarks/job_cost.py                  # 3,000 jobs, verify mode off
    python benchmarks/job_cost.py --verify --jobs 2000

One small board (two attackers, two possible blockers, one block), the same
``(state, decisions)`` job again and again, run serially; for each way, the
best of ``--rounds`` runs of ``time.process_time`` per job:

- ``engine.resolve``: the engine alone;
- ``simulate``: the full JSON outcome (:class:`~redzone.execution.JobOutcome`);
- ``simulate light``: ``outcome="light"``
  (:class:`~redzone.execution.LightOutcome`);
- ``simulate light + score``: a score run on each light outcome.

Process time is steadier than wall time on a shared machine, but not
immune: compare figures of the same run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import redzone
from redzone.execution import LightOutcome


def damage(out: LightOutcome) -> int:
    return 20 - out.lives["bob"] if out.ok else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--verify", action="store_true", help="the engine's verify mode on")
    args = parser.parse_args()
    engine = redzone.Engine(verify=args.verify)
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("wolf", "alice", 3, 3),
                                           c("elf", "bob", 1, 1), c("ox", "bob", 2, 4)])
    decisions: dict[str, Any] = {"attacks": {"bear": "bob", "wolf": "bob"},
                                 "blocks": {"elf": "bear"}}
    jobs = [(state, decisions)] * args.jobs

    def plain() -> None:
        for s, d in jobs:
            engine.resolve(s, **d)

    ways: dict[str, Callable[[], object]] = {
        "engine.resolve": plain,
        "simulate": lambda: list(redzone.simulate(jobs, engine=engine)),
        "simulate light": lambda: list(redzone.simulate(jobs, engine=engine,
                                                        outcome="light")),
        "simulate light + score": lambda: list(redzone.simulate(
            jobs, engine=engine, outcome="light", score=damage)),
    }
    base = 0.0
    for name, run in ways.items():
        run()
        best = float("inf")
        for _ in range(args.rounds):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
        per_job = best / args.jobs * 1e6
        base = base or per_job
        print(f"{name:<24} {per_job:8.1f} us/job  {per_job / base:5.2f}x engine.resolve")


if __name__ == "__main__":
    main()
