"""Summarise a pytest-benchmark JSON file against the performance targets.

Usage (from the repository root)::

    python -m pytest benchmarks --benchmark-only --benchmark-json=benchmarks/results.json
    python benchmarks/report.py benchmarks/results.json

Every figure is the median of the benchmark's rounds. Ratios are "how many
times the target (or the other engine) this is": below 1.0 meets the target.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: The issue's reference figures (ms), measured on this kind of machine.
REFERENCES = {
    "phase-python 0.103.0": (5.0, 51.0),
    "pure-Python simulator": (0.10, 45.0),
    "ptg 0.9.13": (0.20, 9.3),
}
TARGET_SIMPLE_MS = 0.025
TARGET_50_MS = 2.0
TARGET_SLOPE = 1.1
TARGET_DISPATCH = 1.3


def _load(path: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text())
    return {b["fullname"].split("::", 1)[-1]: b for b in data["benchmarks"]}


def _median_ms(bench: dict[str, Any]) -> float:
    return float(bench["stats"]["median"]) * 1e3


def _fmt(ms: float) -> str:
    return f"{ms * 1e3:.1f} us" if ms < 1 else f"{ms:.2f} ms"


def _slope(points: Iterable[tuple[float, float]]) -> float:
    pts = [(math.log(x), math.log(y)) for x, y in points]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def report(benches: dict[str, dict[str, Any]]) -> list[str]:
    out: list[str] = []

    def get(name: str) -> float | None:
        b = benches.get(name)
        return _median_ms(b) if b is not None else None

    def line(label: str, ms: float | None, target: float | None = None) -> None:
        if ms is None:
            out.append(f"{label:<46} (not measured)")
            return
        extra = f"  target {_fmt(target)}  x{ms / target:.2f}" if target else ""
        out.append(f"{label:<46} {_fmt(ms):>10}{extra}")

    out.append("== targets (all built-in plugins, combat only, medians) ==")
    simple = get("test_simple_combat")
    v50 = get("test_vanilla_board[50]")
    line("simple: 2/2 blocked by 2/2", simple, TARGET_SIMPLE_MS)
    line("50 vs 50 2/2s", v50, TARGET_50_MS)
    line("50 vs 50 mixed keywords", get("test_mixed_board[50]"), TARGET_50_MS)
    for group in ("mixed", "vanilla"):
        pts = [(n, v) for n in (10, 25, 50, 100, 200, 400)
               if (v := get(f"test_{group}_board[{n}]")) is not None]
        if len(pts) >= 2:
            s = _slope(pts)
            ok = "ok" if s <= TARGET_SLOPE else "ABOVE TARGET"
            out.append(f"{'log-log slope ' + group + ' 10..400':<46} {s:>10.3f}  "
                       f"target {TARGET_SLOPE}  {ok}")
    for n in (1, 50, 400):
        a, z = get(f"test_dispatch_all_plugins[{n}]"), get(f"test_dispatch_no_plugins[{n}]")
        if a is not None and z is not None:
            ok = "ok" if a / z <= TARGET_DISPATCH else "ABOVE TARGET"
            out.append(f"{f'dispatch all/none, {n}v{n} no keywords':<46} {a / z:>10.2f}x "
                       f"target {TARGET_DISPATCH}x  {ok}  ({_fmt(a)} vs {_fmt(z)})")
    for group in ("copy", "deepcopy", "branch_one_change", "branch_action", "hash",
                  "hash_after_change", "pickle"):
        lo, hi = get(f"test_snapshot_{group}[10]"), get(f"test_snapshot_{group}[400]")
        if lo is not None and hi is not None:
            out.append(f"{f'snapshot {group} 10 -> 400 a side':<46} {_fmt(lo):>10} -> "
                       f"{_fmt(hi)}  (x{hi / lo:.1f}; O(1) means ~x1)")

    out.append("")
    out.append("== against the issue's reference figures (simple / 50v50) ==")
    if simple is not None and v50 is not None:
        for name, (ref_s, ref_50) in REFERENCES.items():
            out.append(f"{name:<26} {_fmt(ref_s):>9} / {_fmt(ref_50):>9}   redzone is "
                       f"{ref_s / simple:6.2f}x / {ref_50 / v50:6.2f}x as fast")

    out.append("")
    out.append("== side by side with phase-python, same run (skipped if absent) ==")
    for n in (1, 50):
        p, r = get(f"test_phase_combat[{n}]"), get(f"test_redzone_combat[{n}]")
        if p is None or r is None:
            out.append(f"{n}v{n}: not measured (pip install phase-python)")
            continue
        out.append(f"{f'{n}v{n}: phase {_fmt(p)}, redzone {_fmt(r)}':<46} "
                   f"redzone is {p / r:.2f}x as fast")
    for n in (1, 50):
        t, ld = get(f"test_phase_snapshot_take[{n}]"), get(f"test_phase_snapshot_restore[{n}]")
        if t is not None and ld is not None:
            out.append(f"{f'phase snapshot {n}v{n}: export / load':<46} {_fmt(t)} / {_fmt(ld)}")

    out.append("")
    out.append("== every benchmark (median) ==")
    for name, b in sorted(benches.items(), key=lambda kv: (kv[1].get("group") or "", kv[0])):
        out.append(f"{b.get('group') or '':<26} {name:<60} {_fmt(_median_ms(b)):>10}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, nargs="?",
                        default=Path(__file__).resolve().parent / "results.json")
    args = parser.parse_args(argv)
    if not args.results.exists():
        print(f"no results file {args.results}: run the benchmarks with "
              "--benchmark-json first", file=sys.stderr)
        return 2
    try:
        print("\n".join(report(_load(args.results))))
    except BrokenPipeError:  # piped into head
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
