"""Snapshots: the state an engine keeps to roll back (target: O(1)).

A redzone state is immutable, so keeping a snapshot is keeping a reference
and rolling back is using it again; these benchmarks measure what an
embedder may do around that, at 10 and 400 creatures a side: copying the
state (``copy.copy``/``copy.deepcopy``, which an immutable state could answer
in O(1)), branching (the first change after a snapshot), hashing (a
transposition table), and pickling (persisting: O(N) by nature)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
import rzbench
from redzone import Engine, GameState, Tap

SIZES = (10, 400)


def _state(engine: Engine, n: int) -> GameState:
    return rzbench.after_blocks(engine, rzbench.mixed(engine, n))


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_copy(benchmark: Any, engine: Engine, n: int) -> None:
    benchmark.group = "snapshot-copy"
    st = _state(engine, n)
    benchmark.extra_info.update(per_side=n)
    benchmark(copy.copy, st)


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_deepcopy(benchmark: Any, engine: Engine, n: int) -> None:
    benchmark.group = "snapshot-deepcopy"
    st = _state(engine, n)
    assert copy.deepcopy(st) == st
    benchmark.extra_info.update(per_side=n)
    benchmark(copy.deepcopy, st)


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_branch_one_change(benchmark: Any, engine: Engine, n: int) -> None:
    """Change one permanent of a snapshot (the map of objects is copied)."""
    benchmark.group = "snapshot-branch"
    st = _state(engine, n)
    perm = st.objects["b0"]
    benchmark.extra_info.update(per_side=n)
    benchmark(st.with_permanents, {"b0": perm.evolve(tapped=True)})


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_branch_action(benchmark: Any, engine: Engine, n: int) -> None:
    """One priority-window action from a snapshot (action + 704 check)."""
    benchmark.group = "snapshot-action"
    st = _state(engine, n)
    benchmark.extra_info.update(per_side=n)
    benchmark(engine.perform, st, Tap("b0"))


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_hash(benchmark: Any, engine: Engine, n: int) -> None:
    """Hash a state again (a transposition-table lookup of a kept snapshot)."""
    benchmark.group = "snapshot-hash"
    st = _state(engine, n)
    benchmark.extra_info.update(per_side=n)
    benchmark(hash, st)


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_hash_after_change(benchmark: Any, engine: Engine, n: int) -> None:
    """Hash a state that differs from a hashed one by one permanent (the
    state after a command); building it is not timed."""
    benchmark.group = "snapshot-hash-after-change"
    st = _state(engine, n)
    hash(st)
    perm = st.objects["b0"]

    def changed() -> tuple[tuple[GameState], dict[str, Any]]:
        return (st.with_permanents({"b0": perm.evolve(tapped=not perm.tapped)}),), {}

    benchmark.extra_info.update(per_side=n)
    benchmark.pedantic(hash, setup=changed, rounds=200, warmup_rounds=5)


@pytest.mark.parametrize("n", SIZES)
def test_snapshot_pickle(benchmark: Any, engine: Engine, n: int) -> None:
    benchmark.group = "snapshot-pickle"
    st = _state(engine, n)
    assert pickle.loads(pickle.dumps(st)) == st
    benchmark.extra_info.update(per_side=n)
    benchmark(pickle.dumps, st)
