"""Cold start, interleaved: ``python -c pass``, ``import redzone``,
``import redzone; redzone.Engine()`` and ``redzone run --json`` on a 1 v 1
file, run one after the other round by round (wall time, medians), with each
one's ratio to ``python -c pass`` (the issue's target: ``run`` within 6x).

Usage (from the repository root): ``python benchmarks/cold_start.py [--rounds N]``.
Byte-compiled modules are assumed (as an installer leaves them): run it once
first if the environment keeps none.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bench_race import ONE_V_ONE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        scenario = Path(tmp) / "one.toml"
        scenario.write_text(ONE_V_ONE, encoding="utf-8")
        exe = shutil.which("redzone")
        run = [exe] if exe else [sys.executable, "-m", "redzone"]
        cmds = {"python -c pass": [sys.executable, "-c", "pass"],
                "import redzone": [sys.executable, "-c", "import redzone"],
                "Engine()": [sys.executable, "-c", "import redzone; redzone.Engine()"],
                "redzone run --json": [*run, "run", "--json", str(scenario)]}
        for cmd in cmds.values():  # warm the file cache and the byte code
            subprocess.run(cmd, check=True, capture_output=True)
        times: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(args.rounds):
            for name, cmd in cmds.items():
                start = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                times[name].append(time.perf_counter() - start)
    base = statistics.median(times["python -c pass"])
    for name, ts in times.items():
        t = statistics.median(ts)
        print(f"{name:<20} {t * 1e3:8.1f} ms   x{t / base:5.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
