"""Batch simulation: ``redzone.simulate`` and ``redzone batch``.

The outcomes of a batch are the JSON outcomes of the scenario format (the
rules of each combat are checked by the other test modules): here, that a
batch gives the same outcome, byte for byte, for each job whatever runs it
(this process, a process pool, a local Dask cluster, a local Ray), in input
order, with every failure a value, and that an engine is rebuilt on each
worker by name and checked.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
import redzone
from _long import samples
from _ray import STARTS, ray_started
from attrs import evolve
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from redzone import Engine, GameState, hookimpl
from redzone.execution import (
    BAD_JOB,
    WORKER_SETUP,
    BatchError,
    EngineSpec,
    JobOutcome,
    RayExecutor,
    WorkerSetupError,
    simulate,
    what_if_blocks,
)
from redzone.execution import jobs as rzjobs
from redzone.execution.engines import build_engine, signature
from redzone.frontends.cli import cli
from redzone.testing import scenario_toml
from redzone.testing.conformance import Case, cases, printed_keywords

#: Boards in the byte-for-byte corpus (generating a board costs far more than
#: resolving it): 600, which every byte-for-byte test below takes in full;
#: 3,000 in the long run (REDZONE_LONG=1).
CORPUS = samples(600, 3000)

HAS_DASK = importlib.util.find_spec("distributed") is not None
HAS_RAY = importlib.util.find_spec("ray") is not None


@pytest.fixture(scope="module")
def eng() -> Engine:
    return Engine()


def _generate(engine: Engine, n: int) -> list[Case]:
    """``n`` boards and declarations from the test kit's generator, the same
    every run (resolved, and illegal declarations and assignments too)."""
    out: list[Case] = []
    keywords = printed_keywords(engine, first_only=True)

    @settings(max_examples=n, derandomize=True, database=None, phases=[Phase.generate],
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(cases(engine, keywords, max_attackers=3, max_blockers=3))
    def collect(case: Case) -> None:
        out.append(case)

    collect()
    return out


@pytest.fixture(scope="module")
def corpus(eng: Engine) -> list[tuple[GameState, dict[str, Any]]]:
    return [(c.state, {"attacks": c.attacks, "blocks": c.blocks, "assign": c.assign})
            for c in _generate(eng, CORPUS)]


@pytest.fixture(scope="module")
def serial(eng: Engine, corpus: list[Any]) -> list[JobOutcome]:
    return list(simulate(corpus, engine=eng))


def _texts(results: list[JobOutcome]) -> list[tuple[int, int, str]]:
    return [(r.index, r.status, r.text) for r in results]


# ---------------------------------------------------------------------------
# The serial batch: outcomes as `redzone run --json`, in order, errors as values
# ---------------------------------------------------------------------------


def test_serial_outcomes_are_engine_resolve_in_input_order(
        eng: Engine, corpus: list[Any], serial: list[JobOutcome]) -> None:
    assert [r.index for r in serial] == list(range(len(corpus)))
    kinds = {r.kind for r in serial}
    assert {"resolved", "illegal_attack", "illegal_block", "illegal_assignment"} <= kinds
    for (state, decisions), r in list(zip(corpus, serial, strict=True))[:300]:
        try:
            result = eng.resolve(state, decisions["attacks"], decisions["blocks"],
                                 assign=decisions["assign"])
        except redzone.IllegalActionError as exc:
            assert r.status == 1 and r.outcome["error"]["rule"] == exc.rule
            continue
        assert r.status == 0
        assert r.outcome["steps"] == list(result.steps)
        assert r.outcome["players"] == {p.id: {"life": p.life, "poison": p.poison,
                                               "lost": p.lost}
                                        for p in result.state.players.values()}


def test_files_give_what_redzone_run_json_prints(tmp_path: Path) -> None:
    """Each file's outcome is ``redzone run --json``'s, byte for byte; a bad
    file is an outcome too (status 2), and nothing else is lost."""
    import redzone.examples as examples

    folder = Path(examples.__file__).parent
    files = sorted(str(p) for p in folder.glob("*.toml"))[:8]
    bad = tmp_path / "bad.toml"
    bad.write_text("active_player = \n")
    jobs = [*files[:4], str(bad), *files[4:]]
    results = list(simulate(jobs))
    assert [r.source for r in results] == jobs
    for r in results:
        printed = CliRunner().invoke(cli, ["run", "--json", r.source])
        assert printed.output == r.text
        assert printed.exit_code == r.status
    assert results[4].status == 2 and results[4].kind == "bad_scenario"


def test_redzone_simulate_is_the_batch_function() -> None:
    assert redzone.simulate is simulate


@pytest.mark.parametrize("parallel", [False, True])
def test_a_bad_job_is_an_outcome_and_loses_nothing_else(
        eng: Engine, corpus: list[Any], serial: list[JobOutcome], parallel: bool) -> None:
    jobs = [corpus[0], (corpus[1][0], {"atacks": {}}), 3, corpus[3]]
    with cf.ThreadPoolExecutor(1) as pool:
        got = list(simulate(jobs, engine=eng, executor=pool if parallel else None))
    assert [r.status for r in got] == [serial[0].status, 2, 2, serial[3].status]
    assert got[0].text == serial[0].text and got[3].text == serial[3].text
    assert got[1].kind == got[2].kind == BAD_JOB
    assert "job 1: the decisions must be a mapping with keys among" in got[1].outcome[
        "error"]["message"] and "not ['atacks']" in got[1].outcome["error"]["message"]
    assert got[2].outcome["error"]["message"].startswith("job 2 is a int: a job is")


# ---------------------------------------------------------------------------
# Byte for byte: a process pool, Dask, Ray
# ---------------------------------------------------------------------------


def test_process_pool_of_2_gives_the_same_bytes(eng: Engine, corpus: list[Any],
                                                serial: list[JobOutcome]) -> None:
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        results = list(simulate(corpus, executor=pool, engine=eng))
    assert _texts(results) == _texts(serial)
    assert len({r.worker for r in results}) >= 2  # both workers did some


@pytest.mark.skipif(not HAS_DASK, reason="Dask (redzone[dask]) is not installed")
def test_local_dask_cluster_gives_the_same_bytes(eng: Engine, corpus: list[Any],
                                                 serial: list[JobOutcome]) -> None:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        results = list(simulate(corpus, executor=client, engine=eng))
    assert _texts(results) == _texts(serial)
    assert all(r.worker.split(":")[1] != str(os.getpid()) for r in results)


@pytest.mark.skipif(not HAS_RAY, reason="Ray (redzone[ray]) is not installed")
def test_local_ray_gives_the_same_bytes(eng: Engine, corpus: list[Any],
                                        serial: list[JobOutcome]) -> None:
    with ray_started(num_cpus=2, include_dashboard=False):
        results = list(simulate(corpus, executor=RayExecutor(), engine=eng))
    assert _texts(results) == _texts(serial)


def test_cli_json_lines_are_the_same_serially_and_with_jobs_2(tmp_path: Path, eng: Engine
                                                             ) -> None:
    """``redzone batch --json``: one JSON line per file, in input order; the
    same bytes with ``--jobs 2``; the exit status is the worst file's."""
    for i, case in enumerate(_generate(eng, 60)):
        (tmp_path / f"board{i:03}.toml").write_text(
            scenario_toml(case.state, case.attacks, case.blocks, case.assign))
    (tmp_path / "zz-bad.toml").write_text("this is not toml = = \n")
    one = CliRunner().invoke(cli, ["batch", "--json", str(tmp_path)])
    two = CliRunner().invoke(cli, ["batch", "--json", "--jobs", "2", "--chunksize", "7",
                                   str(tmp_path)])
    lines = [json.loads(x) for x in one.stdout.splitlines()]
    assert len(lines) == 61
    assert [x["file"] for x in lines] == sorted(str(p) for p in tmp_path.glob("*.toml"))
    assert one.stdout == two.stdout
    assert one.exit_code == two.exit_code == 2  # the bad file is the worst
    assert lines[-1]["outcome"]["error"]["kind"] == "bad_scenario"
    for x in lines[:5]:
        printed = CliRunner().invoke(cli, ["run", "--json", x["file"]])
        assert json.loads(printed.output) == x["outcome"] and printed.exit_code == x["status"]


def test_cli_summary_by_keyword_and_slowest(tmp_path: Path) -> None:
    import redzone.examples as examples

    folder = Path(examples.__file__).parent
    result = CliRunner().invoke(cli, ["batch", "--no-color", str(folder / "lure.toml"),
                                      str(folder / "menace-one-blocker.toml")])
    out = result.output
    assert result.exit_code == 1  # menace-one-blocker is illegal (702.111b)
    assert "2 scenario files" in out and "resolved" in out and "illegal" in out
    assert "menace" in out and "slowest:" in out
    empty = CliRunner().invoke(cli, ["batch", str(tmp_path)])
    assert empty.exit_code == 2 and "no scenario files" in empty.output


def test_the_old_formats_batch_path_is_a_deprecated_alias_of_the_same_objects() -> None:
    """docs/batch.md named ``redzone.formats.batch.what_if_blocks`` and
    ``.RayExecutor`` by path: every public name that module had is still
    there, the very object of :mod:`redzone.execution`, with a
    DeprecationWarning naming its new module; no other name appears."""
    import importlib

    from redzone.formats import batch as old

    assert len(old.MOVED) == 21
    for name, module in old.MOVED.items():
        with pytest.warns(DeprecationWarning, match=f"import {name} from {module}"):
            value = getattr(old, name)
        assert value is getattr(importlib.import_module(module), name), name
    with pytest.warns(DeprecationWarning, match="redzone.execution.whatif"):
        from redzone.formats.batch import what_if_blocks as documented
    assert documented is what_if_blocks
    with pytest.raises(AttributeError, match="_Planner"):
        old._Planner  # noqa: B018 - private names were never public
    assert set(old.MOVED) <= set(dir(old))


def test_dask_and_ray_are_not_imported_unless_asked() -> None:
    code = ("import sys, redzone, redzone.execution, redzone.frontends.cli\n"
            "print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('dask', 'distributed', 'ray')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------
# The engine, by name, on each worker
# ---------------------------------------------------------------------------


def test_engine_spec_rebuilds_an_equal_engine(eng: Engine) -> None:
    spec = EngineSpec.of(eng)
    assert "trample" in spec.allow and spec.modules == ()
    assert signature(build_engine(spec)) == signature(eng)
    m10 = spec.for_rules("m10")
    assert signature(build_engine(m10)) == signature(Engine("m10"))


def test_a_batch_after_another_reads_no_metadata_and_imports_no_plugin(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec of an engine is kept for the process by the engine's
    settings and plugins (``spec_of``): a second batch with the same engine,
    or an engine alike, neither reads the entry points again nor builds an
    engine; finding it imports no plugin the engine hasn't imported; a
    change of setting is another spec."""
    import redzone.execution.engines as rzengines

    rzengines._SPECS.clear()
    read: list[int] = []
    names = rzengines._entry_point_names
    monkeypatch.setattr(rzengines, "_entry_point_names", lambda: read.append(1) or names())
    first = Engine()
    pending = {n for n, i in first.plugin_infos.items() if not i.imported}
    assert pending, "the built-in keywords are imported when first needed"
    spec = rzengines.spec_of(first)
    assert {n for n, i in first.plugin_infos.items() if not i.imported} == pending
    assert rzengines.spec_of(first) is spec and rzengines.spec_of(Engine()) is spec
    assert read == [1]
    assert spec == EngineSpec.of(first) and "trample" in spec.allow
    other = Engine(auto_triggers=False)
    assert rzengines.spec_of(other) == EngineSpec.of(other) != spec
    assert rzengines.spec_of(Engine("m10")).rules == "m10"
    assert spec.for_rules("m10") is spec.for_rules("m10")


def test_a_plugin_of_another_version_on_a_worker_is_named(eng: Engine) -> None:
    spec = EngineSpec.of(eng)
    wrong = tuple((n, d, "9.9" if n == "trample" else v) for n, d, v in spec.expected)
    with pytest.raises(WorkerSetupError, match=r"plugin 'trample' is redzone \S+ here, "
                                               r"redzone 9.9 for the caller") as info:
        build_engine(evolve(spec, expected=wrong))
    assert info.value.plugin == "trample"
    with pytest.raises(WorkerSetupError, match=r"plugin 'no_such' .* is not installed here"):
        build_engine(evolve(spec, allow=(*spec.allow, "no_such")))


class _ObjectPlugin:
    @hookimpl
    def redzone_attack_violations(self, state: GameState, attacker: str) -> None:
        return None


def test_an_object_plugin_cant_travel_but_runs_here(corpus: list[Any]) -> None:
    engine = Engine(plugins=[_ObjectPlugin()])
    with pytest.raises(BatchError, match="is a _ObjectPlugin object, not a module"):
        list(simulate(corpus[:3], engine=engine, executor=cf.ThreadPoolExecutor(1)))
    assert [r.status for r in simulate(corpus[:3], engine=engine)] == [
        r.status for r in simulate(corpus[:3])]


def _memory_plugin(name: str) -> types.ModuleType:
    """A plugin module that exists only in this process (not on a spawned worker)."""
    module = types.ModuleType(name)

    def redzone_attack_violations(state: GameState, attacker: str) -> None:
        return None

    module.redzone_attack_violations = hookimpl(redzone_attack_violations)  # type: ignore[attr-defined]
    sys.modules[name] = module
    return module


def test_a_plugin_missing_on_a_worker_is_reported_for_each_job(corpus: list[Any]) -> None:
    name = "rz_batch_only_in_this_process"
    engine = Engine(plugins=[_memory_plugin(name)])
    try:
        jobs = corpus[:20]
        ctx = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            results = list(simulate(jobs, engine=engine, executor=pool, chunksize=8))
    finally:
        del sys.modules[name]
    assert [r.index for r in results] == list(range(20))
    for r in results:
        assert r.status == 3 and r.kind == WORKER_SETUP
        assert f"plugin module {name!r} can't be imported here" in r.outcome["error"]["message"]
        assert r.outcome["error"]["plugin"] == name


# ---------------------------------------------------------------------------
# Faults: a worker killed mid-batch, a plugin over its hook timeout
# ---------------------------------------------------------------------------


def test_a_worker_killed_mid_batch_loses_nothing(eng: Engine, corpus: list[Any],
                                                 serial: list[JobOutcome]) -> None:
    jobs, expected = corpus[:600], serial[:600]
    pool = cf.ProcessPoolExecutor(max_workers=2)
    try:
        got: list[JobOutcome] = []
        for r in simulate(jobs, executor=pool, engine=eng, chunksize=5):
            if not got:
                victim = next(iter(pool._processes))
                os.kill(victim, signal.SIGKILL)
            got.append(r)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    assert _texts(got) == _texts(expected)
    assert any(r.retried for r in got), "no job was in flight when the worker was killed"


SLOW_PLUGIN = '''
import time
from redzone import hookimpl

@hookimpl
def redzone_attack_violations(state, attacker):
    if state.objects[attacker].name == "Hang":
        time.sleep(0.6)
    return None
'''


def test_a_plugin_over_its_hook_timeout_fails_only_its_job(
        tmp_path: Path, eng: Engine, corpus: list[Any], serial: list[JobOutcome],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rz_batch_slow.py").write_text(SLOW_PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    import rz_batch_slow  # type: ignore[import-not-found]

    engine = Engine(plugins=[rz_batch_slow], hook_timeout=0.2)
    c = engine.creature
    hang = engine.game(["alice", "bob"], [c("x", "alice", 2, 2, name="Hang")])
    jobs = [*corpus[:30], (hang, {"attacks": {"x": "bob"}}), *corpus[30:60]]
    try:
        with cf.ProcessPoolExecutor(max_workers=2) as pool:
            results = list(simulate(jobs, executor=pool, engine=engine, chunksize=4))
    finally:
        sys.modules.pop("rz_batch_slow", None)
    bad = results[30]
    assert bad.status == 3 and bad.kind == "plugin_error"
    assert bad.outcome["error"]["plugin"] == "rz_batch_slow"
    assert "redzone_attack_violations" in bad.outcome["error"]["message"]
    others = results[:30] + results[31:]
    assert _texts([evolve(r, index=i) for i, r in enumerate(others)]) == _texts(serial[:60])


# ---------------------------------------------------------------------------
# What-if: every legal block of one board, scored
# ---------------------------------------------------------------------------


def test_509_1_what_if_resolves_every_legal_block_and_scores_it(eng: Engine) -> None:
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("brute", "alice", 3, 3, "menace"),
                                         c("drake", "alice", 2, 2, "flying"),
                                         c("bear", "bob", 2, 2), c("elf", "bob", 1, 1),
                                         c("spider", "bob", 1, 4, "reach")])
    attacks = {"brute": "bob", "drake": "bob"}

    def life_kept(out: JobOutcome) -> int:
        return int(out.outcome["players"]["bob"]["life"])

    ranked = what_if_blocks(state, attacks, life_kept, engine=eng)
    declared = eng.declare_attackers(eng.begin_combat(state).state, attacks).state
    assert len(ranked) == eng.count_legal_blocks(declared)
    assert all(w.outcome.ok for w in ranked)
    scores = [w.score for w in ranked]
    assert scores == sorted(scores, reverse=True)
    for w in ranked:
        result = eng.resolve(state, attacks, dict(w.blocks))
        assert w.score == result.state.players["bob"].life
    assert ranked[0].score == 20  # spider blocks the drake, two block the brute
    with cf.ThreadPoolExecutor(2) as pool:
        again = what_if_blocks(state, attacks, life_kept, engine=eng, executor=pool)
    assert [(dict(w.blocks), w.score) for w in again] == [
        (dict(w.blocks), w.score) for w in ranked]


def test_the_batch_page_code_runs_as_shown(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/batch.md: its code runs and prints what its comments show (in a
    folder of its own: the page writes and resumes ``outcomes.jsonl``)."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "batch.md").read_text()
    monkeypatch.chdir(tmp_path)
    code = "\n".join(re.findall(r"```python\n(.*?)```", text, re.S))
    exec(compile(code, "batch.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    shown = re.findall(r"^# (.*)$", code, re.M)
    assert shown and [line for line in printed if line in shown] == shown


def test_scenarios_of_every_edition_travel_without_their_engine() -> None:
    """Scenario objects (here of foundations, m10 and sixth) are resolved on a
    worker with an engine rebuilt for their edition; what travels holds no
    engine, plugin manager or plugin code."""
    import pickle

    import redzone.examples as examples
    from redzone.formats.scenario import load

    folder = Path(examples.__file__).parent
    scenarios = [load(p) for p in sorted(folder.glob("*.toml"))]
    assert {s.rules for s in scenarios} >= {"foundations", "m10", "sixth"}
    here = list(simulate(scenarios))
    with cf.ThreadPoolExecutor(2) as pool:  # run_chunk in this process: engines rebuilt
        there = list(simulate(scenarios, executor=pool, chunksize=3))
    assert _texts(there) == _texts(here)
    planner = rzjobs._Planner(Engine())
    blob = pickle.dumps([(i, planner.payload(i, s)) for i, s in enumerate(scenarios)])
    found: set[tuple[str, str]] = set()

    class Recording(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            found.add((module, name))
            return super().find_class(module, name)

    Recording(io.BytesIO(blob)).load()
    modules = {m for m, _ in found}
    assert {"redzone.execution.jobs", "redzone.execution.engines"} <= modules
    # a plugin's own action kind written in a file (enlist's) travels as its
    # class, data the worker's engine declares too: never the plugin's code
    plugin_kinds = {(m, n) for m, n in found if m.startswith("redzone_keywords.")}
    assert plugin_kinds <= {("redzone_keywords.enlist", "Enlist")}, plugin_kinds
    assert all(m.startswith(("redzone.kernel.", "redzone.execution.jobs",
                             "redzone.execution.engines", "builtins"))
               for m in modules - {m for m, _ in plugin_kinds}), modules
    assert not modules & {"redzone.kernel.engine", "redzone.kernel.plugins"}, modules


def test_a_job_travels_with_every_decision_of_its_scenario(eng: Engine) -> None:
    """513, 500.8, 601.2: a Scenario or a ``(state, decisions)`` job that
    runs through the cleanup step, fights an additional combat or answers a
    choice resolves the same on a worker as in this process: every field of
    the scenario, and every keyword of ``Engine.resolve``, travels."""
    from redzone import GainLife
    from redzone.formats.scenario import load
    from redzone.kernel.engine import CombatPlan

    state = eng.game(["alice", "bob"], [eng.creature("orc", "alice", 3, 3)])
    decisions = {"attacks": {"orc": "bob"}, "through": "cleanup",
                 "actions": [("end_step", GainLife("alice", 2))],
                 "additional_combats": [CombatPlan({})], "choices": {}}
    assert set(decisions) | {"blocks", "assign", "assign_first_strike", "order",
                             "bands", "turns", "first_turn"} == rzjobs._DECISION_KEYS
    import redzone.examples as examples

    scenario = evolve(load(Path(examples.__file__).parent / "trample-blocker.toml"),
                      through="cleanup")
    jobs: list[Any] = [(state, decisions), scenario]
    here = list(simulate(jobs, engine=eng))
    with cf.ThreadPoolExecutor(2) as pool:  # run_chunk here: what travels is rebuilt
        there = list(simulate(jobs, engine=eng, executor=pool, chunksize=1))
    assert _texts(there) == _texts(here)
    for result in here:
        outcome = json.loads(result.text)
        assert outcome["steps"][-2:] == ["end_step", "cleanup"], outcome["steps"]
    first = json.loads(here[0].text)
    assert "declare_attackers#2" in first["steps"]
    assert first["players"]["alice"]["life"] == 22


@pytest.fixture(scope="module")
def serial_examples() -> Any:
    """``redzone batch --json`` on the bundled examples, serially (the
    reference of both executor URLs; in this process: the serial command is
    tested on its own above)."""
    import redzone.examples as examples

    return CliRunner().invoke(cli, ["batch", "--json", str(Path(examples.__file__).parent)])


@pytest.mark.parametrize("url", [
    pytest.param("dask:local", marks=pytest.mark.skipif(not HAS_DASK, reason="no Dask")),
    pytest.param("ray:local", marks=pytest.mark.skipif(not HAS_RAY, reason="no Ray")),
])
def test_cli_executor_urls_give_the_same_json_lines(url: str, serial_examples: Any) -> None:
    """``redzone batch --executor dask:local|ray:local --jobs 2``, the
    command in a process of its own: the same JSON lines as the serial run,
    and the same exit status."""
    import redzone.examples as examples

    folder = str(Path(examples.__file__).parent)
    for _ in range(STARTS):  # a cluster whose own start failed is started again (tests/_ray.py)
        remote = subprocess.run([sys.executable, "-m", "redzone", "batch", "--json", "--jobs",
                                 "2", "--executor", url, folder],
                                capture_output=True, text=True, timeout=300)
        if "can't start a local Ray" not in " ".join(remote.stderr.split()):
            break
    serial = serial_examples
    assert remote.stdout == serial.stdout, remote.stderr[-3000:]
    assert serial.stdout.count("\n") > 20
    assert remote.returncode == serial.exit_code == 1, remote.stderr[-3000:]  # illegal examples
    assert "scenario files" in remote.stderr  # the summary: the batch finished


def test_cli_rejects_an_unknown_executor_url() -> None:
    """A bad --executor is a usage error: exit 64, blamed on the option."""
    import redzone.examples as examples

    result = CliRunner().invoke(cli, ["batch", "--executor", "spark://x", str(
        Path(examples.__file__).parent / "lure.toml")])
    assert result.exit_code == 64 and "give dask://HOST:PORT" in result.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_rules_overrides_each_file_as_redzone_run_does(jobs: str) -> None:
    """``redzone batch --rules m10``: each file's outcome is ``redzone run
    --rules m10 --json``'s (510.1c of 2024: damage assignment order)."""
    import redzone.examples as examples

    folder = Path(examples.__file__).parent
    files = [str(folder / f"{n}.toml") for n in ("vastwood-gorger", "baloth-and-boars",
                                                  "lure", "trample-blocker")]
    result = CliRunner().invoke(cli, ["batch", "--json", "--rules", "m10", "--jobs", jobs,
                                      *files])
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert [x["file"] for x in lines] == files
    for x in lines:
        printed = CliRunner().invoke(cli, ["run", "--json", "--rules", "m10", x["file"]])
        assert json.loads(printed.output) == x["outcome"]
        assert x["outcome"].get("rules", "m10") == "m10"
    # A bad --rules is the command line's usage error (64), as for redzone run,
    # not a bad_scenario of each file (2): the scenario format's "The command line".
    unknown = CliRunner().invoke(cli, ["batch", "--json", "--rules", "fifth", files[0]])
    assert unknown.exit_code == 64
    assert unknown.stdout == "" and "unknown rules edition 'fifth'" in unknown.output


@pytest.mark.skipif(not HAS_DASK, reason="Dask (redzone[dask]) is not installed")
def test_a_dask_worker_killed_mid_batch_loses_nothing(eng: Engine, corpus: list[Any],
                                                      serial: list[JobOutcome]) -> None:
    """Dask reschedules the tasks of a lost worker (its nanny starts a new
    one); the batch gives every outcome, the same bytes."""
    from distributed import Client, LocalCluster

    jobs, expected = corpus[:400], serial[:400]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)
        got: list[JobOutcome] = []
        for r in simulate(jobs, executor=client, engine=eng, chunksize=5):
            if not got:
                os.kill(next(iter(pids.values())), signal.SIGKILL)
            got.append(r)
    assert _texts(got) == _texts(expected)
    assert len({r.worker for r in got}) >= 2
