"""Measure how combat cost scales with board size and print the log-log slope.

Usage (from the repository root)::

    python benchmarks/slope.py                      # mixed keywords, 10..400 a side
    python benchmarks/slope.py --board vanilla --bare
    python benchmarks/slope.py --max-slope 1.1      # exit 1 when above the target

Each size is timed in CPU time (``time.process_time``: the CPU this process
used, not wall time, which other work on a shared machine inflates) as the
median of rounds of "combat only" (declare attackers, declare blockers, every
combat damage step), with every built-in plugin loaded unless ``--bare``. The slope is the
least-squares fit of log(time) on log(creatures per side); the issue's target
is at most 1.1 from 10 to 400 (linear cost).
"""

from __future__ import annotations

import argparse
import functools
import gc
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rzbench
from redzone import Engine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, rzbench.SIZES)),
                        help="creatures per side, comma-separated (default: %(default)s)")
    parser.add_argument("--board", choices=("mixed", "vanilla"), default="mixed",
                        help="mixed keywords (default) or vanilla 2/2s")
    parser.add_argument("--bare", action="store_true",
                        help="no keyword plugins (vanilla boards only)")
    parser.add_argument("--rounds", type=int, default=15, help="at least this many rounds")
    parser.add_argument("--min-time", type=float, default=0.5,
                        help="at least this many CPU seconds per size")
    parser.add_argument("--no-gc", action="store_true", help="disable the garbage collector")
    parser.add_argument("--max-slope", type=float, default=None,
                        help="exit with status 1 when the slope is above this")
    args = parser.parse_args(argv)
    if args.bare and args.board == "mixed":
        parser.error("--bare needs --board vanilla (the mixed board uses the keywords)")

    engine = Engine(discover=False) if args.bare else Engine()
    build = rzbench.mixed if args.board == "mixed" else rzbench.vanilla
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.no_gc:
        gc.disable()

    print(f"board: {args.board}, plugins: {'none' if args.bare else 'all'} "
          f"({len(engine.plugin_infos)} registered), python {sys.version.split()[0]}")
    print("timer: CPU time of this process (time.process_time), not wall time")
    print(f"{'per side':>8}  {'median CPU ms':>13}  {'CPU us/creature':>15}  "
          f"{'local slope':>11}")
    points: list[tuple[float, float]] = []
    for n in sizes:
        board = build(engine, n)
        rzbench.run(engine, board)  # legal and resolves
        t = rzbench.median_seconds(functools.partial(rzbench.run, engine, board),
                                   rounds=args.rounds, min_time=args.min_time)
        local = ""
        if points:
            n0, t0 = points[-1]
            local = f"{math.log(t / t0) / math.log(n / n0):.3f}"
        points.append((n, t))
        print(f"{n:>8}  {t * 1e3:>13.3f}  {t * 1e6 / (2 * n):>15.2f}  {local:>11}")
    slope = rzbench.loglog_slope(points)
    (n0, t0), (n1, t1) = points[0], points[-1]
    ends = math.log(t1 / t0) / math.log(n1 / n0)
    print(f"log-log slope (least squares, {sizes[0]}..{sizes[-1]}): {slope:.3f}")
    print(f"log-log slope (end points): {ends:.3f}")
    if args.max_slope is not None and slope > args.max_slope:
        print(f"FAIL: slope {slope:.3f} > {args.max_slope}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
