"""Hostile batches (Containment II, item 3).

``redzone batch`` and :func:`redzone.simulate` check plugins as ``redzone
run`` does (guarantees 9 and 10): the same verify mode, here and on every
worker, and the same status for each file. A plugin that rewrites a
player's life with ``object.__setattr__`` inside a notification hook fails
its file with a ``plugin_error`` naming it, exit 3, serially, on a process
pool and on a Dask cluster; never life 20 and status 0. And one malformed
job (decisions of the wrong type) is that job's ``bad_job`` outcome, never
an exception that loses the batch.

The hostile plugin is installed as a third-party package would be (a module
and a ``.dist-info`` with a ``redzone`` entry point, on the path of this
process and of every process it starts), and ``REDZONE_VERIFY`` is unset:
the production path, where nothing but redzone itself turns verify mode on.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import pytest
import redzone
from _ray import ray_started
from hostile_kit import FILES, install_plugin
from redzone import Engine, GameState

HAS_DASK = importlib.util.find_spec("distributed") is not None
HAS_RAY = importlib.util.find_spec("ray") is not None

#: The hostile file: bob takes 2 (life 18), which the plugin rewrites to 20.
HIT = str(FILES / "batch-bear-hits-bob.toml")
#: A file the plugin leaves alone (no damage, no notification).
CALM = str(FILES / "batch-no-attack.toml")

MODULE = "rz_hostile_batch_rewriter"

REWRITER = '''
"""Rewrites bob's life to 20 after any damage: a state change Python can't stop."""
import redzone


@redzone.hookimpl
def redzone_damage_event(state, damage):
    object.__setattr__(state.players["bob"], "life", 20)
'''


@pytest.fixture(scope="module")
def rewriter_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The life-rewriting plugin (entry point ``rewriter``) installed in a
    folder, once for the module (the Dask cluster's worker imports it)."""
    return install_plugin(tmp_path_factory.mktemp("rewriter") / "site",
                          "rz-hostile-batch-rewriter", MODULE, REWRITER, "rewriter",
                          top_level=False)


@pytest.fixture
def rewriter(rewriter_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Install the life-rewriting plugin for this process and the processes
    it starts; unset ``REDZONE_VERIFY``."""
    site = rewriter_site
    monkeypatch.delenv("REDZONE_VERIFY", raising=False)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]))
    importlib.invalidate_caches()
    try:
        yield site
    finally:
        sys.modules.pop(MODULE, None)
        importlib.invalidate_caches()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "redzone", *args], capture_output=True,
                          text=True, timeout=300, env=os.environ.copy())


def _assert_plugin_fault(outcome: dict[str, Any]) -> None:
    error = outcome["error"]
    assert (error["kind"], error["plugin"], error["hook"]) == (
        "plugin_error", "rewriter", "redzone_damage_event"), error
    assert "changed the state" in error["message"]


# ---------------------------------------------------------------------------
# Guarantee 10 through `redzone batch`: the status `redzone run` gives
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_guarantee_10_batch_gives_each_file_the_status_and_outcome_of_redzone_run(
        rewriter: Path, jobs: str) -> None:
    """``redzone batch --json [--jobs 2]``: each JSON line holds what
    ``redzone run --json`` prints for that file and the status it exits
    with (the rewritten file: 3, a plugin_error naming the plugin; the other:
    0), the batch exits 3 and its summary names the failing plugin."""
    files = [HIT, CALM]
    ran = {f: _cli("run", "--json", f) for f in files}
    assert ran[HIT].returncode == 3 and ran[CALM].returncode == 0  # the reference itself
    _assert_plugin_fault(json.loads(ran[HIT].stdout))

    done = _cli("batch", "--json", "--jobs", jobs, *files)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [x["file"] for x in lines] == files, done.stderr[-3000:]
    for x in lines:
        assert x["status"] == ran[x["file"]].returncode, x
        assert x["outcome"] == json.loads(ran[x["file"]].stdout)
    assert done.returncode == 3
    assert "plugin_error: rewriter (1)" in done.stderr


# ---------------------------------------------------------------------------
# Guarantee 10 through `redzone.simulate`, on each executor installed here
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_client(rewriter_site: Path) -> Iterator[Any]:
    """A local Dask cluster of one worker process, shared by the module's
    Dask tests (none of them breaks it). It starts in the first of them,
    under its :func:`rewriter`: the worker gets the rewriter's folder on its
    path and ``REDZONE_VERIFY`` unset, as each test's own cluster did (set
    here, they would be put back when the module ends, after the test's own
    fixture had taken them away)."""
    from distributed import Client, LocalCluster

    assert str(rewriter_site) in sys.path and "REDZONE_VERIFY" not in os.environ
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def ray_executor(rewriter_site: Path) -> Iterator[Any]:
    """A local Ray of one CPU, shared by the module's Ray tests as the Dask
    cluster is (none of them breaks it; a Ray start costs seconds of CPU in
    its own processes): started in the first of them, under its
    :func:`rewriter`, so its workers get the rewriter's folder on their path
    and ``REDZONE_VERIFY`` unset."""
    from redzone.execution import RayExecutor

    assert str(rewriter_site) in sys.path and "REDZONE_VERIFY" not in os.environ
    with ray_started(num_cpus=1, include_dashboard=False):
        yield RayExecutor()


EXECUTORS: dict[str, Callable[[pytest.FixtureRequest], AbstractContextManager[Any]]] = {
    "serial": lambda request: nullcontext(None),
    "process-pool-2": lambda request: cf.ProcessPoolExecutor(max_workers=2),
    "dask": lambda request: nullcontext(request.getfixturevalue("dask_client")),
    "ray": lambda request: nullcontext(request.getfixturevalue("ray_executor")),
}

_EXECUTOR_PARAMS = [
    "serial", "process-pool-2",
    pytest.param("dask", marks=pytest.mark.skipif(not HAS_DASK, reason="Dask not installed")),
    pytest.param("ray", marks=pytest.mark.skipif(not HAS_RAY, reason="Ray not installed")),
]


@pytest.mark.parametrize("executor", _EXECUTOR_PARAMS)
def test_guarantee_10_simulate_checks_plugins_as_redzone_run_does(
        rewriter: Path, executor: str, request: pytest.FixtureRequest) -> None:
    """``redzone.simulate(files)`` (its default engine, as ``redzone run``
    builds it) finds the rewritten life and names the plugin, status 3, on
    every executor: the verify mode travels to the workers with the engine."""
    with EXECUTORS[executor](request) as ex:
        results = list(redzone.simulate([HIT, CALM, HIT], executor=ex, chunksize=1))
    assert [r.status for r in results] == [3, 0, 3]
    for r in (results[0], results[2]):
        _assert_plugin_fault(r.outcome)
    assert results[1].outcome["players"]["bob"]["life"] == 20  # no damage: untouched


@pytest.mark.parametrize("executor", _EXECUTOR_PARAMS)
@pytest.mark.parametrize("verify", [True, False])
def test_guarantee_10_an_engines_verify_mode_is_the_same_on_every_worker(
        rewriter: Path, executor: str, verify: bool, request: pytest.FixtureRequest) -> None:
    """An engine given to ``simulate`` keeps its own verify mode on every
    worker (rebuilt by name, it used to take the worker's
    ``REDZONE_VERIFY``): the same statuses as resolving here."""
    plugin = importlib.import_module(MODULE)
    engine = Engine(discover=True, block=["rewriter"], plugins=[plugin], verify=verify)
    with EXECUTORS[executor](request) as ex:
        results = list(redzone.simulate([HIT, CALM], executor=ex, engine=engine))
    assert [r.status for r in results] == ([3, 0] if verify else [0, 0])
    if not verify:  # documented: without verify mode the change is what it is
        assert results[0].outcome["players"]["bob"]["life"] == 20


def test_guarantee_10_what_if_blocks_checks_plugins_as_redzone_run_does(
        rewriter: Path) -> None:
    """509.1: ``what_if_blocks`` without ``engine=`` resolves every legal
    declaration of blockers with the engine of ``redzone run`` and
    ``simulate`` (verify mode on, ``REDZONE_VERIFY`` unset): the unblocked
    bear's damage to bob, rewritten back to 20 by the plugin, fails that
    declaration naming the plugin, status 3. (It defaulted to ``Engine()``,
    whose verify mode follows the environment: life 20, status 0.) A given
    engine keeps its own verify mode."""
    from redzone.execution import JobOutcome, what_if_blocks

    board = Engine()
    c = board.creature
    state = board.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("elf", "bob", 1, 1)])

    def status(out: JobOutcome) -> int:
        return out.status

    ranked = what_if_blocks(state, {"bear": "bob"}, status)
    by_blocks = {tuple(w.blocks): w.outcome for w in ranked}
    assert set(by_blocks) == {(), ("elf",)}
    assert by_blocks[()].status == 3
    _assert_plugin_fault(by_blocks[()].outcome)
    assert by_blocks[("elf",)].status == 0  # bob is dealt no damage: 20 stays 20

    unchecked = what_if_blocks(state, {"bear": "bob"}, status, engine=Engine(verify=False))
    assert [w.outcome.status for w in unchecked] == [0, 0]
    assert all(w.outcome.outcome["players"]["bob"]["life"] == 20 for w in unchecked)


# ---------------------------------------------------------------------------
# One malformed job is its own error value
# ---------------------------------------------------------------------------

MALFORMED: dict[str, Any] = {
    "attacks-not-a-mapping": {"attacks": 5},
    "attacks-a-function": {"attacks": len},
    "blocks-a-string": {"attacks": {"bear": "bob"}, "blocks": "elf"},
    "choices-not-a-mapping": {"choices": 3},
    "choice-not-a-sequence": {"choices": {"a": 5}},
    "actions-not-a-sequence": {"actions": 5},
    "assign-a-list": {"assign": [1]},
    "assign-of-numbers": {"assign": {"bear": 5}},
    "first-strike-assign-a-string": {"assign_first_strike": "x"},
    "order-not-a-mapping": {"order": 5},
    "order-of-numbers": {"order": {"bear": 5}},
    "bands-not-a-sequence": {"bands": 5},
    "bands-of-numbers": {"bands": [5]},
    "additional-combats-a-number": {"additional_combats": 5},
}


def _board() -> tuple[Engine, GameState]:
    engine = Engine()
    c = engine.creature
    return engine, engine.game(["alice", "bob"], [c("bear", "alice", 2, 2),
                                                  c("elf", "bob", 1, 1)])


@pytest.mark.parametrize("executor", ["serial", "process-pool-2"])
@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_job_is_a_bad_job_outcome_and_loses_nothing(
        name: str, executor: str, request: pytest.FixtureRequest) -> None:
    """Decisions of the wrong type: that job's ``bad_job`` outcome (status
    2, the error shape of the scenario format) naming the job and the key;
    the jobs around it resolve, in order. ``simulate`` never raises for it."""
    engine, state = _board()
    good = (state, {"attacks": {"bear": "bob"}})
    decisions = MALFORMED[name]
    with EXECUTORS[executor](request) as ex:
        results = list(redzone.simulate([good, (state, decisions), good], engine=engine,
                                        executor=ex))
    assert [(r.index, r.status) for r in results] == [(0, 0), (1, 2), (2, 0)]
    bad = results[1]
    assert bad.source == "<job 1>"
    error = bad.outcome["error"]
    assert set(error) == {"kind", "rule", "message", "objects"}
    assert error["kind"] == "bad_job" and bad.outcome["ok"] is False
    key = next(k for k in decisions if k != "attacks" or len(decisions) == 1)
    assert error["message"].startswith(f"job 1: decisions[{key!r}]"), error["message"]


def test_a_job_that_cant_be_pickled_is_a_bad_job_not_a_lost_worker() -> None:
    """A job a process pool can't send (a lambda among its decisions) is that
    job's ``bad_job`` saying why, not a ``worker_lost`` blaming a worker
    that never saw it; the jobs around it resolve."""
    engine, state = _board()
    good = (state, {"attacks": {"bear": "bob"}})
    unsendable = (state, {"attacks": {"bear": "bob"}, "through": lambda: "cleanup"})
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        results = list(redzone.simulate([good, unsendable, good], engine=engine,
                                        executor=pool, chunksize=1))
    assert [(r.status, r.kind) for r in results] == [(0, "resolved"), (2, "bad_job"),
                                                     (0, "resolved")]
    message = results[1].outcome["error"]["message"]
    assert message.startswith("job 1 can't be sent to a worker: "), message
    assert "pickle" in message and "lambda" in message, message


class _ObjectPlugin:
    """A plugin that is an object, not a module: no worker can rebuild it."""

    __name__ = "object_plugin"

    @redzone.hookimpl
    def redzone_attack_violations(self, state: GameState, attacker: str) -> None:
        return None


def test_a_scenario_whose_engine_cant_travel_is_its_own_bad_job() -> None:
    """A Scenario job whose own engine has an object plugin (it can't be
    rebuilt on a worker by name) is that job's ``bad_job`` naming the
    plugin; it used to raise BatchError in the middle of the batch, after
    the outcomes before it, losing the rest."""
    from redzone.formats.scenario import load

    scenario = load(CALM, engine_factory=lambda rules: Engine(rules,
                                                              plugins=[_ObjectPlugin()]))
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        results = list(redzone.simulate([CALM, scenario, CALM], executor=pool, chunksize=1))
    assert [(r.status, r.kind) for r in results] == [(0, "resolved"), (2, "bad_job"),
                                                     (0, "resolved")]
    assert results[1].source == CALM
    assert "plugin 'object_plugin' is a _ObjectPlugin object" in (
        results[1].outcome["error"]["message"])
