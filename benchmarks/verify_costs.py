"""What verify mode's checks cost, each on its own: a combat resolved in
production, in verify mode, and in verify mode with one of its checks left
out, interleaved round by round (CPU time, medians), each as a ratio over
production.

The checks (see "Verify mode" in docs/performance.md and
``redzone.kernel._verify``):

- ``kept-out``: asking the implementations the gates keep out, to fail one
  that answers (``Gates.checked``);
- ``watch``: watching every state and argument hook calls are given, to
  name a plugin that changes one (``Verifier.wrap``);
- ``static``: recomputing each kept static answer once per state it is
  used in (``StaticAnswers.verified``).

What is left with all three out is what verify mode does beside them: the
hooks production skips as silent are called, beginning a combat isn't noted
on the state, every hook call goes through the gates' split.

The checks overlap (a kept-out implementation is asked through the watch's
loop), so the parts don't add up exactly. Leaving a check out reaches into
the kernel's private parts: this script measures, it is no way to run.

Usage (from the repository root)::

    python benchmarks/verify_costs.py [--board mixed|vanilla] [--per-side N] [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rzbench
from redzone import Engine
from redzone.kernel import _gates, _verify

#: The checks that can be left out, in the order printed.
CHECKS = ("kept-out", "watch", "static")


@contextmanager
def _without(left_out: frozenset[str]) -> Iterator[None]:
    """While an engine is built: its kept-out asks and its watch, if left
    out, are not wrapped around its call loop (they are wrapped once, as it
    is built)."""
    checked, wrap = _gates.Gates.checked, _verify.Verifier.wrap

    def no_kept_out(self: Any, inner: Any, unwatched: Any, *args: Any) -> Any:
        return checked(self, inner, lambda hook, impls, call: [], *args)

    def no_watch(self: Any, inner: Any) -> Any:
        return inner

    if "kept-out" in left_out:
        _gates.Gates.checked = no_kept_out  # type: ignore[method-assign]
    if "watch" in left_out:
        _verify.Verifier.wrap = no_watch  # type: ignore[method-assign]
    try:
        yield
    finally:
        _gates.Gates.checked = checked  # type: ignore[method-assign]
        _verify.Verifier.wrap = wrap  # type: ignore[method-assign]


def engine(verify: bool, left_out: frozenset[str] = frozenset()) -> Engine:
    """An engine with every built-in plugin, verify mode on or off, and the
    checks ``left_out`` left out."""
    with _without(left_out):
        built = Engine(verify=verify)
    if "static" in left_out:
        # Asked as the engine runs: the engine's own table of answers answers without it.
        built.hooks.static_answers.verified = lambda *args: None  # type: ignore[method-assign]
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", choices=("mixed", "vanilla"), default="mixed")
    parser.add_argument("--per-side", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--combats", type=int, default=100, help="combats per round and engine")
    args = parser.parse_args(argv)
    build = rzbench.mixed if args.board == "mixed" else rzbench.vanilla
    variants: dict[str, Engine] = {"production": engine(False), "verify": engine(True)}
    for check in CHECKS:
        variants[f"verify without {check}"] = engine(True, frozenset({check}))
    variants["verify without all three"] = engine(True, frozenset(CHECKS))
    runs: dict[str, Callable[[], Any]] = {}
    expected = None
    for name, eng in variants.items():
        board = build(eng, args.per_side)
        result = rzbench.run(eng, board)  # legal, resolves, and the same everywhere
        fingerprint = (tuple((p.id, p.zone, p.damage) for p in result.objects.values()),
                       tuple((p.id, p.life) for p in result.players.values()))
        if expected is None:
            expected = fingerprint
        assert fingerprint == expected, f"{name} resolves the combat differently"
        runs[name] = (lambda e=eng, b=board: rzbench.run(e, b))
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            start = time.process_time()
            for _ in range(args.combats):
                run()
            times[name].append((time.process_time() - start) / args.combats)
    base = statistics.median(times["production"])
    full = statistics.median(times["verify"])
    print(f"board: {args.board}, {args.per_side} a side, every built-in plugin; "
          f"CPU time, medians of {args.rounds} rounds of {args.combats} combats")
    print(f"{'':<28} {'ms a combat':>11} {'over production':>15} {'the check costs':>15}")
    for name, samples in times.items():
        median = statistics.median(samples)
        costs = f"x{(full - median) / base:.2f}" if name.startswith("verify without") else ""
        print(f"{name:<28} {median * 1e3:>11.3f} {median / base:>14.2f}x {costs:>15}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
