"""Growth by work done, not by time: the Python opcodes one combat executes
per creature, at each board size, and their log-log slope.

``slope.py`` times combats in CPU time, which a shared machine's other work
still moves by a few percent from one run to the next: too much to tell a
slope of 1.03 from one of 1.07. The opcodes a combat executes (counted with
``sys.settrace``'s opcode events) are the same on every run and every
machine, so a part of the kernel or of a plugin whose work grows faster
than the board shows here as a rising count per creature, and a change that
removes it shows as a flat one. It leaves out what no opcode counts: C
code's own work (a dict copied whole counts as one opcode), memory and the
garbage collector, which ``slope.py`` sees.

``--keywords`` does the same for the unit of each built-in keyword (the
small combat of ``rzbench.KEYWORD_UNITS``), repeated at two sizes, and
marks each whose count per creature grows by more than ``--flag`` (a
keyword whose every trigger affects every other creature, such as battle
cry, grows by the rules).

Usage (from the repository root)::

    python benchmarks/growth_ops.py                       # mixed and vanilla, 10..400 a side
    python benchmarks/growth_ops.py --sizes 25,100 --max-slope 1.05
    python benchmarks/growth_ops.py --keywords --sizes 20,80
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rzbench
from redzone import Engine


def opcodes(engine: Engine, board: rzbench.Board) -> int:
    """The Python opcodes one combat on ``board`` executes (after two
    untraced combats, so that what a first combat works out once is left
    out, as a timed run leaves it out)."""
    rzbench.run(engine, board)
    rzbench.run(engine, board)
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        rzbench.run(engine, board)
    finally:
        sys.settrace(None)
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, rzbench.SIZES)),
                        help="creatures per side, comma-separated (default: %(default)s)")
    parser.add_argument("--keywords", action="store_true",
                        help="each built-in keyword's unit, at the first and last size")
    parser.add_argument("--flag", type=float, default=1.15,
                        help="with --keywords, mark a growth per creature above this")
    parser.add_argument("--max-slope", type=float, default=None,
                        help="exit with status 1 when a board's slope is above this")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    engine = Engine()
    if args.keywords:
        return _keywords(engine, sizes[0], sizes[-1], args.flag)
    print(f"Python opcodes of one combat per creature ({len(engine.plugin_infos)} plugins)")
    print(f"{'per side':>8}  {'mixed':>8}  {'vanilla':>8}")
    points: dict[str, list[tuple[float, float]]] = {"mixed": [], "vanilla": []}
    for n in sizes:
        row = []
        for name, build in (("mixed", rzbench.mixed), ("vanilla", rzbench.vanilla)):
            ops = opcodes(engine, build(engine, n))
            points[name].append((n, ops))
            row.append(f"{ops / (2 * n):>8.0f}")
        print(f"{n:>8}  {'  '.join(row)}")
    failed = False
    for name, pts in points.items():
        if len(pts) < 2:
            continue
        slope = rzbench.loglog_slope(pts)
        print(f"log-log slope of opcodes, {name} ({sizes[0]}..{sizes[-1]}): {slope:.3f}")
        if args.max_slope is not None and slope > args.max_slope:
            print(f"FAIL: {name} {slope:.3f} > {args.max_slope}")
            failed = True
    return 1 if failed else 0


def _keywords(engine: Engine, small: int, large: int, flag: float) -> int:
    print(f"Python opcodes of one combat per creature, each keyword's unit, "
          f"{small} and {large} a side")
    for name in rzbench.keyword_names(engine):
        unit = rzbench.unit_for(name, rzbench.keyword_text(engine, name))
        try:
            counts = [opcodes(engine, rzbench.from_units(engine, [unit], per_side=n)) / (2 * n)
                      for n in (small, large)]
        except Exception as exc:  # a unit that can't be repeated (its blockers sacrificed)
            print(f"{name:<28} not repeatable: {type(exc).__name__}")
            continue
        growth = counts[1] / counts[0]
        mark = "  grows faster than the board" if growth > flag else ""
        print(f"{name:<28} {counts[0]:>9.0f} {counts[1]:>9.0f}  x{growth:.2f}{mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
