"""The issue's targets, one benchmark each, on the boards the cross-engine
race uses (a 2/2 blocked by a 2/2; a 6/4 trampler blocked by a 2/2; 50 v 50
2/2s), plus the cold start (``redzone run --json`` on a 1 v 1 file against
``python -c pass``; ``cold_start.py`` gives the interleaved ratio).

"Combat only", every built-in plugin loaded: declare attackers from the main
phase, declare blockers, every combat damage step with the default
assignment. Each benchmark first checks its combat turns out as the rules say.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rzbench
from redzone import Engine
from rzbench import Board

#: The 1 v 1 file of the cold-start figures: a 2/2 attacks, a 2/2 blocks it.
ONE_V_ONE = (Path(__file__).parent / "one-v-one.toml").read_text(encoding="utf-8")


def _board(engine: Engine, attacker: tuple[int, int, tuple[str, ...]], n: int = 1) -> Board:
    p, t, kws = attacker
    c = engine.creature
    perms = [c(f"a{i}", "alice", p, t, *kws) for i in range(n)]
    perms += [c(f"b{i}", "bob", 2, 2) for i in range(n)]
    return Board(engine.game(["alice", "bob"], perms), {f"a{i}": "bob" for i in range(n)},
                 {f"b{i}": (f"a{i}",) for i in range(n)}, per_side=n)


@pytest.mark.benchmark(group="race")
def test_race_simple(benchmark: Any, engine: Engine) -> None:
    """2/2 blocked by 2/2: both are destroyed (704.5g)."""
    board = _board(engine, (2, 2, ()))
    st = rzbench.run(engine, board)
    assert st.objects["a0"].zone == st.objects["b0"].zone == "graveyard"
    benchmark(rzbench.run, engine, board)


@pytest.mark.benchmark(group="race")
def test_race_keyword(benchmark: Any, engine: Engine) -> None:
    """6/4 trample blocked by 2/2: lethal 2 to the blocker, 4 tramples over (702.19b)."""
    board = _board(engine, (6, 4, ("trample",)))
    st = rzbench.run(engine, board)
    assert st.players["bob"].life == 16 and st.objects["b0"].zone == "graveyard"
    assert st.objects["a0"].zone == "battlefield"
    benchmark(rzbench.run, engine, board)


@pytest.mark.benchmark(group="race")
def test_race_big(benchmark: Any, engine: Engine) -> None:
    """50 2/2s each blocked by a 2/2: all 100 are destroyed (704.5g)."""
    board = _board(engine, (2, 2, ()), 50)
    st = rzbench.run(engine, board)
    assert sum(p.zone == "graveyard" for p in st.objects.values()) == 100
    benchmark(rzbench.run, engine, board)


def _command(kind: str, scenario: Path) -> list[str]:
    if kind == "pass":
        return [sys.executable, "-c", "pass"]
    if kind == "import":
        return [sys.executable, "-c", "import redzone"]
    exe = shutil.which("redzone")
    base = [exe] if exe else [sys.executable, "-m", "redzone"]
    return [*base, "run", "--json", str(scenario)]


@pytest.mark.benchmark(group="cold-start")
@pytest.mark.parametrize("kind", ["pass", "import", "run"])
def test_cold_start(benchmark: Any, kind: str, tmp_path: Path) -> None:
    """A fresh process: nothing, ``import redzone``, ``redzone run --json``
    on a 1 v 1 file (whose outcome is checked)."""
    scenario = tmp_path / "one.toml"
    scenario.write_text(ONE_V_ONE, encoding="utf-8")
    cmd = _command(kind, scenario)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    if kind == "run":
        assert '"ok": true' in out
    benchmark.pedantic(subprocess.run, (cmd,), {"check": True, "capture_output": True},
                       rounds=5, iterations=1)
