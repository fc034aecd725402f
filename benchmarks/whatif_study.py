"""A what-if study of about a million combats, end to end: one board, every
legal declaration of blockers times a list of pump spells, scored on the
workers, the best cells kept.

Usage (from the repository root)::

    python benchmarks/whatif_study.py                # 1,696 x 590 = 1,000,640 cells, 2 workers
    python benchmarks/whatif_study.py --actions 12 --workers 2   # 20,352 cells: a quick look
    python benchmarks/whatif_study.py --executor serial --actions 3

The board is the enumeration benchmark's AI board (four attackers against
five possible blockers, flying, reach, menace, trample, first strike,
deathtouch, defender and a creature that blocks two): 1,696 legal
declarations of blockers (509.1). The action axis is the empty list and
single or double Giant Growth-like pumps (``+N/+N`` until end of turn, 611.2)
cast by the defending player after blockers are declared, on its own
creatures; the grid is every declaration times every action list
(:class:`redzone.execution.Grid`). Each cell is scored on its worker from
the light outcome (the attacking player's damage to the defending player,
minus the attacker's creatures lost); :func:`redzone.execution.what_if`
streams the cells back in grid order and the caller keeps the ten best.

Printed: cells, wall seconds, the caller's CPU seconds and per cell, the
workers' CPU seconds and per cell (read from the worker processes'
``/proc`` times on Linux, or ``resource`` for the serial run), cells per
second, the caller's peak resident memory, and the best cells. The engine
is ``Engine()``: verify mode off, as a search would run it.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import heapq
import itertools
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from redzone import Engine, GameState, Pump
from redzone.execution import Cell, Grid, LightOutcome, what_if

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bench_enumerate import ATTACKS, board

#: The defending player's creatures a pump may target, and the pump sizes.
TARGETS = ("b1", "b2", "b3", "b4", "b5")
SIZES = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (0, 3), (3, 0), (1, 3))


def value(out: LightOutcome) -> int:
    """How good the cell is for the attacker: damage to bob, minus two for
    each of alice's creatures that died (an illegal cell scores lowest)."""
    if not out.ok:
        return -1_000
    lost = sum(1 for d in out.deaths if d.startswith("a"))
    return 20 - out.lives["bob"] - 2 * lost


def action_lists(n: int) -> list[tuple[tuple[str, Pump], ...]]:
    """``n`` action lists: none, then single pumps, then pairs of pumps on
    two different creatures, all after blockers are declared."""
    singles = [("declare_blockers", Pump(t, p, q)) for t in TARGETS for p, q in SIZES]
    lists: list[tuple[tuple[str, Pump], ...]] = [()]
    lists += [(s,) for s in singles]
    lists += [(s, u) for s, u in itertools.combinations(singles, 2)
              if s[1].target != u[1].target]
    if n > len(lists):
        raise SystemExit(f"--actions: at most {len(lists)} action lists")
    return lists[:n]


def _pid(_: int) -> int:
    time.sleep(0.05)  # long enough for every worker to take one
    return os.getpid()


def _cpu_of(pid: int) -> float:
    """A process's user + system CPU seconds, from ``/proc`` (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=590, help="action lists (the second axis)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--executor", choices=("pool", "serial"), default="pool")
    parser.add_argument("--chunksize", type=int, default=512)
    args = parser.parse_args()

    engine = Engine()
    state: GameState = board(engine)
    grid = Grid(attacks=ATTACKS, actions=action_lists(args.actions))
    pool = (cf.ProcessPoolExecutor(args.workers) if args.executor == "pool" else None)
    pids: list[int] = []
    if pool is not None:  # start the workers, and learn their ids, before the clock
        pids = sorted(set(pool.map(_pid, range(args.workers * 8))))
    before = {pid: _cpu_of(pid) for pid in pids}
    wall0, cpu0 = time.perf_counter(), time.process_time()
    best: list[tuple[Any, int, Cell]] = []
    cells = failed = 0
    for cell in what_if(state, grid, score=value, engine=engine, executor=pool,
                        chunksize=args.chunksize, stream=True):
        cells += 1
        failed += cell.status != 0
        item = (cell.score, -cell.index, cell)
        if len(best) < 10:
            heapq.heappush(best, item)
        else:
            heapq.heappushpop(best, item)
    wall, caller = time.perf_counter() - wall0, time.process_time() - cpu0
    workers = sum(_cpu_of(pid) - before[pid] for pid in pids) if pids else caller
    if pool is not None:
        pool.shutdown()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cells: {cells:,} ({failed:,} not resolved), executor {args.executor}"
          f"{f' x{args.workers}' if pool else ''}, chunks of {args.chunksize}")
    print(f"wall: {wall:.1f} s; {cells / wall:,.0f} cells/s")
    print(f"caller CPU: {caller:.1f} s, {caller / cells * 1e6:.1f} us per cell; "
          f"peak resident memory {rss_mb:.0f} MB")
    print(f"workers' CPU: {workers:.1f} s, {workers / cells * 1e6:.1f} us per cell")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    for score, _, cell in sorted(best, reverse=True)[:5]:
        print(f"  score {score}: blocks {dict(cell.blocks)}, "
              f"actions {[(s, a.target, a.power, a.toughness) for s, a in cell.actions]}")


if __name__ == "__main__":
    main()
