"""The cost of verify mode (``Engine(verify=True)``): the arguments of every
hook call are fingerprinted before and after it, so a plugin that changes the
state it is shown is caught and named. Compare each board with verify off
and on (same engine otherwise)::

    python -m pytest benchmarks/test_bench_verify.py --benchmark-only \\
        --benchmark-timer=time.process_time --benchmark-group-by=param:board
"""

from __future__ import annotations

from typing import Any

import pytest
import rzbench
from redzone import Engine

_ENGINES: dict[bool, Engine] = {}


def _engine(verify: bool) -> Engine:
    engine = _ENGINES.get(verify)
    if engine is None:
        engine = _ENGINES[verify] = Engine(verify=verify)
    return engine


BOARDS = {
    "simple": rzbench.simple,
    "vanilla-10": lambda engine: rzbench.vanilla(engine, 10),
    "mixed-10": lambda engine: rzbench.mixed(engine, 10),
    "mixed-50": lambda engine: rzbench.mixed(engine, 50),
}


@pytest.mark.benchmark(group="verify")
@pytest.mark.parametrize("verify", [False, True], ids=["off", "on"])
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_verify_cost(benchmark: Any, board: str, verify: bool) -> None:
    """A whole combat with verify mode off, then on."""
    engine = _engine(verify)
    assert engine.hooks.verify is verify
    built = BOARDS[board](engine)
    expected = rzbench.run(_engine(False), BOARDS[board](_engine(False)))
    assert rzbench.run(engine, built) == expected  # verify changes no result
    benchmark.extra_info.update(board=board, verify=verify)
    benchmark(rzbench.run, engine, built)
