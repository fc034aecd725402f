"""Cold start, interleaved: ``python -c pass``, ``import redzone``,
``import redzone; redzone.Engine()`` and ``redzone run --json`` on a 1 v 1
file, run one after the other round by round (medians of the wall time and
of the CPU time the child used, user and system), with each one's ratio to
``python -c pass`` (the issue's target: ``run`` within 6x). The CPU column is
the one to compare on a busy machine: other processes change the wall time,
not the CPU time a start takes.

Usage (from the repository root): ``python benchmarks/cold_start.py [--rounds N]``.
Byte-compiled modules are assumed (as an installer leaves them): run it once
first if the environment keeps none.
"""

from __future__ import annotations

import argparse
import resource
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
        cpu: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(args.rounds):
            for name, cmd in cmds.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                times[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime - before.ru_utime
                                 + after.ru_stime - before.ru_stime)
    base = statistics.median(times["python -c pass"])
    cpu_base = statistics.median(cpu["python -c pass"])
    print(f"{'':<20} {'wall':>11}  {'ratio':>6}   {'CPU':>11}  {'ratio':>6}")
    for name in cmds:
        t, c = statistics.median(times[name]), statistics.median(cpu[name])
        print(f"{name:<20} {t * 1e3:8.1f} ms  x{t / base:5.1f}   {c * 1e3:8.1f} ms  "
              f"x{c / cpu_base:5.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
