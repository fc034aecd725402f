"""Batch simulation on real clusters: separate processes, not in-process ones.

A Dask scheduler and two ``dask worker`` processes, and a Ray head started
with ``ray start`` and reached as ``ray://127.0.0.1:PORT``, each started once
for this module, in a folder that is not the caller's. On them, through
``redzone.simulate``, ``redzone batch --executor`` and the bag and dataset
feeds, a small corpus (files named by paths relative to the caller's folder,
a bad file and a missing one, Scenario objects, ``(state, decisions)``
pairs) gives the same outcomes, byte for byte, as a serial run: a file
travels as its content, so a relative path means the caller's folder, and
every outcome and error names it as the caller gave it. Also here: the
``distribution`` of a ``worker_setup`` error, and files read by the caller
on a process pool giving what the serial run gives for each way a file can
be bad.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib.util
import json
import operator
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
import redzone.examples as examples
from _long import samples
from _ray import STARTS, ray_started
from attrs import evolve, frozen
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from redzone import Engine
from redzone.execution import (
    WORKER_SETUP,
    ExecutorUnavailable,
    JobOutcome,
    LightOutcome,
    RayExecutor,
    WorkerSetupError,
    jobs_dataset,
    outcome_of_row,
    run_bag,
    run_dataset,
    simulate,
)
from redzone.execution import jobs as rzjobs
from redzone.execution.engines import EngineSpec, _here, build_engine
from redzone.formats.document import (
    MAX_BYTES,
    ScenarioProblems,
    document_of_bytes,
    read_document,
    read_scenario_bytes,
)
from redzone.formats.outcome import command_engine
from redzone.formats.scenario import Scenario, load
from redzone.frontends.cli import cli
from redzone.kernel.errors import BadQueryError

HAS_DASK = importlib.util.find_spec("distributed") is not None
HAS_RAY = importlib.util.find_spec("ray") is not None
#: Ray's client needs grpc; Ray Data, pandas (both in ``redzone[ray]``).
HAS_RAY_CLIENT = HAS_RAY and all(importlib.util.find_spec(m) is not None
                                 for m in ("grpc", "pandas"))
#: CI sets ``REDZONE_REQUIRE_CLUSTERS=1``: there a missing Dask or Ray fails
#: these tests instead of skipping them.
REQUIRED = os.environ.get("REDZONE_REQUIRE_CLUSTERS", "") == "1"
DASK_MISSING = "Dask (redzone[dask]) is not installed"
RAY_MISSING = ("Ray with its client and Ray Data (pip install 'redzone[ray]': ray[client,data]) "
               "is not installed")
needs_dask = pytest.mark.skipif(not HAS_DASK and not REQUIRED, reason=DASK_MISSING)
needs_ray = pytest.mark.skipif(not HAS_RAY_CLIENT and not REQUIRED, reason=RAY_MISSING)

#: How long a cluster may take to start before the fixture gives up.
START_SECONDS = 120


def _texts(results: list[JobOutcome]) -> list[tuple[int, str, int, str]]:
    return [(r.index, r.source, r.status, r.text) for r in results]


# ---------------------------------------------------------------------------
# The corpus: relative paths from the caller's folder, Scenarios, pairs
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def caller_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The caller's folder, with ``boards/`` of scenario files in it: a dozen
    examples, a JSON file, a file with a TOML error and one of bad UTF-8."""
    root = tmp_path_factory.mktemp("caller")
    boards = root / "boards"
    boards.mkdir()
    folder = Path(examples.__file__).parent
    for src in sorted(folder.glob("*.toml"))[:12]:
        shutil.copy(src, boards / src.name)
    first = sorted(folder.glob("*.toml"))[0]
    scenario = read_document(first)
    (boards / "as-json.json").write_text(json.dumps(scenario.data), encoding="utf-8")
    (boards / "bad-toml.toml").write_text("active_player = \n", encoding="utf-8")
    (boards / "bad-utf8.toml").write_bytes(b'active_player = "\xff"\n')
    return root


@pytest.fixture(scope="module")
def files(caller_dir: Path) -> list[str]:
    """The files by paths relative to the caller's folder, and one missing."""
    names = sorted(p.name for p in (caller_dir / "boards").iterdir())
    return [f"boards/{n}" for n in names] + ["boards/no-such-file.toml"]


@pytest.fixture
def in_caller_dir(caller_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(caller_dir)
    return caller_dir


@pytest.fixture(scope="module")
def mixed(caller_dir: Path, files: list[str]) -> list[Any]:
    """Files, Scenario objects and ``(state, decisions)`` pairs, interleaved."""
    loaded: list[Scenario] = []
    for f in files:
        with contextlib.suppress(Exception):  # the bad files are jobs as files only
            loaded.append(load(caller_dir / f))
    loaded = loaded[:6]
    pairs = [(s.state, {"attacks": dict(s.attacks), "blocks": dict(s.blocks)})
             for s in loaded]
    jobs: list[Any] = []
    for f, s, p in zip(files, loaded, pairs, strict=False):
        jobs += [f, s, p]
    return jobs + files[6:]


@pytest.fixture(scope="module")
def serial_files(caller_dir: Path, files: list[str]) -> list[JobOutcome]:
    with contextlib.chdir(caller_dir):
        return list(simulate(files))


@pytest.fixture(scope="module")
def serial_mixed(caller_dir: Path, mixed: list[Any]) -> list[JobOutcome]:
    with contextlib.chdir(caller_dir):
        return list(simulate(mixed))


def test_the_corpus_has_every_kind_of_file_outcome(serial_files: list[JobOutcome],
                                                   files: list[str]) -> None:
    """The corpus is worth running: resolved files, bad files of three kinds
    (syntax, bad UTF-8, missing), each named as given."""
    assert [r.source for r in serial_files] == files
    assert sum(r.status == 0 for r in serial_files) >= 8
    bad = {r.source: r.outcome["error"] for r in serial_files if r.status == 2}
    assert set(bad) == {"boards/bad-toml.toml", "boards/bad-utf8.toml",
                        "boards/no-such-file.toml"}
    assert bad["boards/no-such-file.toml"]["message"] == "boards/no-such-file.toml: no such file"
    assert bad["boards/bad-utf8.toml"]["file"] == "boards/bad-utf8.toml"


# ---------------------------------------------------------------------------
# Files travel as their content (a process pool, no cluster needed)
# ---------------------------------------------------------------------------


def test_a_file_job_carries_the_bytes_the_caller_read(in_caller_dir: Path,
                                                      files: list[str]) -> None:
    """The payload of a file holds its name as given and its bytes (or why
    they couldn't be read): nothing a worker would resolve against its own
    folder."""
    planner = rzjobs._Planner(command_engine())
    ok = planner.payload(0, files[0])
    assert isinstance(ok, rzjobs._FileJob)
    assert ok.path == files[0] and ok.content == (in_caller_dir / files[0]).read_bytes()
    missing = planner.payload(1, "boards/no-such-file.toml")
    assert isinstance(missing, rzjobs._FileJob)
    assert missing.content is None and missing.unreadable == "no such file"


def test_bytes_read_here_parse_as_read_document_parses_the_file(
        caller_dir: Path, files: list[str]) -> None:
    for name in files[:-1]:
        path = caller_dir / name
        try:
            want: Any = read_document(path).data
        except Exception as exc:
            want = str(exc)
        try:
            got: Any = document_of_bytes(path.read_bytes(), file=str(path)).data
        except Exception as exc:
            got = str(exc)
        assert got == want, name


def test_an_oversized_file_is_refused_by_the_caller_as_by_read_document(
        tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    serial = list(simulate([str(big)]))
    with cf.ThreadPoolExecutor(1) as pool:
        parallel = list(simulate([str(big)], executor=pool))
    assert serial[0].status == 2 and "limited to" in serial[0].outcome["error"]["message"]
    assert _texts(parallel) == _texts(serial)


@settings(max_examples=samples(60, 400), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from([b'active_player = "alice"\n', b"\xef\xbb\xbf{}", b'{"a": 1, "a": 2}',
                     b"[players]\nalice = {}\n\xff", b"x = 1\n\n\x80\n"])),
       suffix=st.sampled_from([".toml", ".json", ".JSON", ""]))
def test_bytes_read_by_the_caller_parse_as_the_file_does(tmp_path: Path, raw: bytes,
                                                         suffix: str) -> None:
    """Any bytes: reading them here and parsing them elsewhere
    (``read_scenario_bytes`` then ``document_of_bytes``) gives what
    ``read_document`` gives for the file, the document or the same error."""
    path = tmp_path / f"s{suffix}"
    path.write_bytes(raw)

    def outcome(parse: Any) -> Any:
        try:
            doc = parse()
        except ScenarioProblems as exc:
            return ("error", str(exc), [(p.key, p.line, p.detail) for p in exc.problems])
        return ("ok", doc.file, doc.format, doc.data, dict(doc.lines))

    want = outcome(lambda: read_document(str(path)))
    got = outcome(lambda: document_of_bytes(read_scenario_bytes(str(path)), file=str(path)))
    assert got == want


def test_a_path_the_system_refuses_is_its_jobs_outcome_as_serially() -> None:
    """A path with a NUL in it names no file: serially that job's outcome is
    a ``bad_scenario`` saying so; read by the caller for a pool, the same, and
    nothing raises out of ``simulate``."""
    jobs = ["a\0b.toml", "boards/elsewhere.toml"]
    serial = list(simulate(jobs))
    with cf.ThreadPoolExecutor(1) as pool:
        got = list(simulate(jobs, executor=pool))
    assert serial[0].kind == "bad_scenario" and "NUL character" in serial[0].json
    assert _texts(got) == _texts(serial)


def test_a_pool_in_another_folder_gives_the_serial_bytes(
        in_caller_dir: Path, mixed: list[Any], serial_mixed: list[JobOutcome],
        tmp_path: Path) -> None:
    """Pool workers that start in another folder (a file read by the worker
    would be missing there) give every outcome of the serial run."""
    elsewhere = tmp_path / "worker-folder"
    elsewhere.mkdir()
    with cf.ProcessPoolExecutor(max_workers=2, initializer=os.chdir,
                                initargs=(str(elsewhere),)) as pool:
        got = list(simulate(mixed, executor=pool, chunksize=4))
    assert _texts(got) == _texts(serial_mixed)


# ---------------------------------------------------------------------------
# The distribution of a worker_setup error (issue 24, item 7)
# ---------------------------------------------------------------------------


def test_a_missing_entry_point_names_its_distribution_on_the_caller() -> None:
    spec = EngineSpec.of(Engine())
    gone = evolve(spec, allow=(*spec.allow, "no_such"),
                  expected=(*spec.expected, ("no_such", "redzone-no-such", "1.2")))
    with pytest.raises(WorkerSetupError) as info:
        build_engine(gone)
    assert info.value.plugin == "no_such"
    assert info.value.distribution == "redzone-no-such"


def test_a_differing_version_names_the_callers_distribution() -> None:
    spec = EngineSpec.of(Engine())
    name, dist, _version = spec.expected[0]
    other = evolve(spec, expected=((name, dist, "0.0.0-elsewhere"), *spec.expected[1:]))
    with pytest.raises(WorkerSetupError, match="for the caller") as info:
        build_engine(other)
    assert (info.value.plugin, info.value.distribution) == (name, dist)
    assert dist  # a built-in plugin comes from a distribution


def test_a_worker_setup_outcome_carries_the_distribution(caller_dir: Path,
                                                         files: list[str]) -> None:
    """The JSON outcome of a job whose worker can't rebuild the engine: kind
    ``worker_setup``, the plugin, and the distribution it comes from on the
    caller (``""`` only for a plugin that comes from none, as a
    ``plugin_error``'s)."""
    planner = rzjobs._Planner(command_engine())
    spec = planner.spec
    gone = evolve(spec, allow=(*spec.allow, "no_such"),
                  expected=(*spec.expected, ("no_such", "redzone-no-such", "1.2")))
    scenario = load(caller_dir / files[0])
    job = planner.payload(0, scenario)
    assert isinstance(job, rzjobs._ScenarioJob)
    out = rzjobs._run_payload(0, evolve(job, spec=gone))
    assert out.status == 3 and out.kind == WORKER_SETUP
    error = out.outcome["error"]
    assert (error["plugin"], error["distribution"]) == ("no_such", "redzone-no-such")
    files_job = rzjobs._FileJob.read(str(caller_dir / files[0]),
                                     tuple((r, gone) for r, _s in planner.family()), None)
    error = rzjobs._run_payload(0, files_job).outcome["error"]
    assert (error["kind"], error["distribution"]) == (WORKER_SETUP, "redzone-no-such")


# ---------------------------------------------------------------------------
# Separate processes: start, wait, tear down whatever happens
# ---------------------------------------------------------------------------


def _free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _env(**extra: str) -> dict[str, str]:
    """This process's environment for a cluster process started elsewhere:
    ``PYTHONPATH`` entries made absolute (the processes start in another
    folder, and must import the same redzone)."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(
            str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    env.update(extra)
    return env


def _start(cmd: list[str], cwd: Path, log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A process in its own session, so that it and every process it starts
    can be ended together."""
    with log.open("ab") as out:
        return subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def _end(procs: list[subprocess.Popen[bytes]], grace: float = 5.0) -> None:
    """End each process's session: SIGTERM, then SIGKILL after ``grace``."""
    for p in procs:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for p in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
    for p in procs:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(p.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=5)


def _tool(name: str) -> list[str]:
    """A command-line tool of this Python's environment."""
    found = Path(sys.executable).parent / name
    return [str(found)] if found.exists() else [name]


def start_dask_scheduler(procs: list[subprocess.Popen[bytes]], where: Path,
                         env: dict[str, str]) -> Path:
    """Start ``dask scheduler`` on 127.0.0.1 (no dashboard) in ``where``,
    appended to ``procs``, and wait for its scheduler file (failing the test
    with its log if it ends or takes over :data:`START_SECONDS`).

    :returns: the scheduler file."""
    sched_file = where / "scheduler.json"
    procs.append(_start([*_tool("dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
                         "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                         "--scheduler-file", str(sched_file)],
                        where, where / "scheduler.log", env))
    deadline = time.monotonic() + START_SECONDS
    while not sched_file.exists() or not sched_file.read_text().strip():
        if procs[-1].poll() is not None or time.monotonic() > deadline:
            pytest.fail("the Dask scheduler didn't start:\n"
                        + (where / "scheduler.log").read_text())
        time.sleep(0.2)
    return sched_file


def start_dask_worker(procs: list[subprocess.Popen[bytes]], where: Path, name: str,
                      env: dict[str, str]) -> None:
    """Start one ``dask worker`` process (one thread, no dashboard) of the
    scheduler :func:`start_dask_scheduler` started in ``where``, appended to
    ``procs``."""
    procs.append(_start([*_tool("dask"), "worker", "--scheduler-file",
                         str(where / "scheduler.json"), "--nworkers", "1", "--nthreads", "1",
                         "--host", "127.0.0.1", "--no-dashboard", "--dashboard-address",
                         "127.0.0.1:0", "--name", name,
                         "--local-directory", str(where / name)],
                        where, where / f"{name}.log", env))


@pytest.fixture(scope="module")
def dask_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Dask scheduler and two ``dask worker`` processes (one thread each),
    on 127.0.0.1 without a dashboard, started in a folder of their own."""
    if not HAS_DASK:
        (pytest.fail if REQUIRED else pytest.skip)(DASK_MISSING)
    from distributed import Client

    where = tmp_path_factory.mktemp("dask-cluster")
    sched_file = where / "scheduler.json"
    env = _env()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        start_dask_scheduler(procs, where, env)
        for n in range(2):
            start_dask_worker(procs, where, f"w{n}", env)
        with Client(scheduler_file=str(sched_file), timeout=START_SECONDS) as client:
            client.wait_for_workers(2, timeout=START_SECONDS)
            address: str = client.scheduler.address
        yield address
    finally:
        _end(procs)


@pytest.fixture
def dask_client(dask_address: str) -> Iterator[Any]:
    from distributed import Client

    with Client(dask_address) as client:
        yield client


@needs_dask
def test_simulate_on_a_dask_cluster_gives_the_serial_bytes(
        in_caller_dir: Path, dask_client: Any, mixed: list[Any],
        serial_mixed: list[JobOutcome]) -> None:
    got = list(simulate(mixed, executor=dask_client, chunksize=3))
    assert _texts(got) == _texts(serial_mixed)
    workers = {r.worker for r in got}
    assert len(workers) == 2 and all(w.split(":")[1] != str(os.getpid()) for w in workers)


@needs_dask
def test_redzone_batch_on_a_dask_cluster_prints_the_serial_lines(
        in_caller_dir: Path, dask_address: str, files: list[str]) -> None:
    runner = CliRunner()
    here = runner.invoke(cli, ["batch", "--json", *files])
    there = runner.invoke(cli, ["batch", "--json", "--chunksize", "2", "--executor",
                                "dask://" + dask_address.removeprefix("tcp://"), *files])
    assert there.exit_code == here.exit_code == 2, there.output
    lines = [ln for ln in here.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == len(files)
    assert [ln for ln in there.stdout.splitlines() if ln.startswith("{")] == lines


@needs_dask
def test_a_dask_bag_of_jobs_gives_simulates_outcomes(
        in_caller_dir: Path, dask_client: Any, files: list[str], mixed: list[Any],
        serial_mixed: list[JobOutcome]) -> None:
    """A bag of texts and pairs, resolved where the bag is: each outcome what
    ``simulate`` gives for the same job at the same index; a ``(name, text)``
    job is the file of that name."""
    import dask.bag as db

    def portable(job: Any) -> Any:  # a Scenario can't travel in a bag; its file can
        if isinstance(job, Scenario):
            return (job.file, (in_caller_dir / job.file).read_text(encoding="utf-8"))
        if isinstance(job, str) and (in_caller_dir / job).exists():
            return (job, (in_caller_dir / job).read_bytes())
        return job

    jobs = [portable(j) for j in mixed]
    want = [r for r in serial_mixed]
    for i, job in enumerate(mixed):  # a Scenario's file gives that Scenario's outcome
        if isinstance(job, Scenario):
            want[i] = next(iter(simulate([job.file])))
            want[i] = evolve(want[i], index=i)
    got = run_bag(db.from_sequence(jobs, npartitions=4)).compute()
    assert _texts(got) == _texts(want)
    assert {r.worker for r in got} - {_here()}  # resolved on the workers
    indexed = run_bag(db.from_sequence(list(enumerate(jobs))[::-1], npartitions=3),
                      indexed=True).compute()
    assert sorted(_texts(indexed)) == _texts(want)


def _portable(in_caller_dir: Path, mixed: list[Any]) -> tuple[list[Any], list[Any]]:
    """The jobs of ``mixed`` a bag or dataset can hold (files as ``(name,
    bytes)``, a missing file by its path, pairs as they are; Scenarios left
    out: they can't be pickled), and the same jobs as ``simulate`` takes them
    (the files by path, read here)."""
    plain = [j for j in mixed if not isinstance(j, Scenario)]
    return [(j, (in_caller_dir / j).read_bytes())
            if isinstance(j, str) and (in_caller_dir / j).exists() else j
            for j in plain], plain


#: A score and a reduction any worker can import: the job's kind, and the
#: kinds joined in input order (associative, not commutative: the order counts).
KIND, JOIN = operator.attrgetter("kind"), operator.add


@needs_dask
def test_a_dask_bag_gives_light_outcomes_scores_and_a_reduction_as_simulate(
        in_caller_dir: Path, dask_client: Any, mixed: list[Any]) -> None:
    """``run_bag``'s ``outcome``, ``score``, ``reduce`` and ``initial`` are
    ``simulate``'s: the same light outcomes, the same scores, and the same
    reduction in input order (with the bag's jobs indexed, in the bag's
    order)."""
    import dask.bag as db

    jobs, plain = _portable(in_caller_dir, mixed)
    bag = db.from_sequence(jobs, npartitions=4)
    light = run_bag(bag, outcome="light").compute()
    assert light == list(simulate(plain, outcome="light"))
    assert all(isinstance(r, LightOutcome) for r in light)
    scored = run_bag(bag, score=KIND).compute()
    assert scored == list(simulate(plain, score=KIND))
    assert {r.kind for r in scored} >= {"resolved", "bad_scenario"}
    want = simulate(plain, score=KIND, reduce=JOIN, initial="")
    got = run_bag(bag, score=KIND, reduce=JOIN, initial="").compute()
    assert got == want and got.jobs == len(plain)
    pairs = db.from_sequence(list(enumerate(jobs)), npartitions=3)
    assert run_bag(pairs, indexed=True, outcome="light", score=KIND, reduce=JOIN,
                   ).compute() == simulate(plain, outcome="light", score=KIND, reduce=JOIN)
    with pytest.raises(BadQueryError, match="run_bag: reduce needs score"):
        run_bag(bag, reduce=JOIN)


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayHead]:
    """A Ray head started with ``ray start`` in a folder of its own (2 CPUs,
    no dashboard, its own temporary folder and a token of its own), up when
    its client server takes connections. Ended by its process group (``ray
    stop`` would end every Ray of the machine)."""
    if not HAS_RAY_CLIENT:
        (pytest.fail if REQUIRED else pytest.skip)(RAY_MISSING)
    where = tmp_path_factory.mktemp("ray-cluster")
    token = where / "token"
    token.write_text(secrets.token_hex(32))
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
    client_port, gcs_port = _free_port(), _free_port("")
    # Ray's socket paths must be short: its temporary folder is not under pytest's.
    temp = Path(tempfile.gettempdir()) / f"rz-ray-{os.getpid()}"
    cmd = [*_tool("ray"), "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
           "--port", str(gcs_port), "--ray-client-server-port", str(client_port),
           "--include-dashboard=false", "--dashboard-port", str(_free_port()),
           "--num-cpus", "2", "--temp-dir", str(temp), "--disable-usage-stats"]
    proc = _start(cmd, where, where / "ray.log", _env(**auth))
    mp = pytest.MonkeyPatch()
    try:
        for key, value in auth.items():
            mp.setenv(key, value)
        # Ray reads the token once per process and keeps it: a Ray started
        # earlier in this process (the in-process cluster tests) left "no
        # token" cached, and every client call would then be refused until
        # it timed out. Read it anew from the variables just set.
        _forget_ray_token()
        deadline = time.monotonic() + START_SECONDS
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the Ray head didn't start:\n" + (where / "ray.log").read_text())
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", client_port)) == 0:
                    break
            time.sleep(0.5)
        yield RayHead(f"ray://127.0.0.1:{client_port}", gcs_port, proc, temp)
    finally:
        mp.undo()
        _forget_ray_token()  # a later in-process Ray must not send this head's token
        _end([proc])
        shutil.rmtree(temp, ignore_errors=True)


@frozen
class RayHead:
    """The Ray head of :func:`ray_head`: its client address, the port of its
    control store (GCS, for a driver of its own), its process and its
    temporary folder (where its logs are)."""

    address: str
    gcs_port: int
    proc: subprocess.Popen[bytes]
    temp: Path

    def logs(self, limit: int = 3000) -> str:
        """The end of each client server's log: the proxy's, and the one
        started for each client."""
        found = sorted((self.temp / "session_latest" / "logs").glob("ray_client_server*"))
        return "\n".join(f"--- {f.name}\n{f.read_text(errors='replace')[-limit:]}"
                         for f in found if f.stat().st_size)


def _forget_ray_token() -> None:
    """Make Ray read its authentication token from the environment again."""
    from ray._raylet import AuthenticationTokenLoader

    AuthenticationTokenLoader.instance().reset_cache()


def _connect(head: RayHead) -> RayExecutor:
    """A :class:`RayExecutor` connected through the head's client server.

    The client server takes connections before the head is ready for them,
    and starts a server process for each client: on a loaded machine a
    client can time out, or its server fail to start (Ray's, which this
    test doesn't test). :class:`RayExecutor` leaves this process as it was
    when it fails: connect again until one connects or
    :data:`START_SECONDS` pass, then fail with the client servers' logs."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            return RayExecutor(address=head.address, log_to_driver=False)
        except ExecutorUnavailable as exc:
            if head.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"no client could connect through {head.address}: "
                            f"{exc}\n{head.logs()}")
            time.sleep(1)


@pytest.fixture(scope="module")
def ray_address(ray_head: RayHead) -> str:
    """The head's ``ray://`` address, once a client has connected through it."""
    import ray

    _connect(ray_head)
    ray.shutdown()
    return ray_head.address


@needs_ray
def test_simulate_on_a_ray_cluster_gives_the_serial_bytes(
        in_caller_dir: Path, ray_head: RayHead, ray_address: str, mixed: list[Any],
        serial_mixed: list[JobOutcome]) -> None:
    import ray

    executor = _connect(ray_head)
    try:
        got = list(simulate(mixed, executor=executor, chunksize=3))
    finally:
        ray.shutdown()
    assert _texts(got) == _texts(serial_mixed)
    assert all(r.worker.split(":")[1] != str(os.getpid()) for r in got)


@needs_ray
def test_redzone_batch_on_a_ray_cluster_prints_the_serial_lines(
        in_caller_dir: Path, ray_address: str, files: list[str]) -> None:
    runner = CliRunner()
    here = runner.invoke(cli, ["batch", "--json", *files])
    for _ in range(STARTS):  # as _connect: a client's server that failed to start, Ray's
        there = runner.invoke(cli, ["batch", "--json", "--chunksize", "2", "--executor",
                                    ray_address, *files])
        if "can't connect to Ray" not in " ".join(there.output.split()):
            break
    assert there.exit_code == here.exit_code == 2, there.output
    lines = [ln for ln in here.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == len(files)
    assert [ln for ln in there.stdout.splitlines() if ln.startswith("{")] == lines


@needs_ray
def test_a_ray_dataset_of_jobs_gives_simulates_outcomes(
        in_caller_dir: Path, ray_head: RayHead, mixed: list[Any],
        serial_mixed: list[JobOutcome]) -> None:
    """A dataset of ``(name, text)`` files and ``(state, decisions)`` pairs,
    resolved by Ray Data's workers: each row the outcome ``simulate`` gives
    for the same job at the same index."""

    picked = [j for j in mixed if not isinstance(j, Scenario)][:12]
    jobs = [(j, (in_caller_dir / j).read_bytes())
            if isinstance(j, str) and (in_caller_dir / j).exists() else j for j in picked]
    # Ray Data needs a driver of the cluster (not a Ray client): this process is one.
    with ray_started(address=f"127.0.0.1:{ray_head.gcs_port}"):
        rows = run_dataset(jobs_dataset(jobs), batch_size=4).take_all()
    got = sorted((outcome_of_row(r) for r in rows), key=lambda r: r.index)
    want = list(simulate(picked))  # the files by name: the same jobs, read here
    assert [(r.index, r.source, r.status, r.text) for r in got] == [
        (r.index, r.source, r.status, r.text) for r in want]
    assert all(r.worker.split(":")[1] != str(os.getpid()) for r in got)


@needs_ray
def test_a_ray_dataset_gives_light_outcomes_scores_and_a_reduction_as_simulate(
        in_caller_dir: Path, ray_head: RayHead, mixed: list[Any]) -> None:
    """``run_dataset``'s ``outcome``, ``score``, ``reduce`` and ``initial``
    are ``simulate``'s: rows that make the same light outcomes and scores
    back (``outcome_of_row``), and the same reduction in input order."""

    both = _portable(in_caller_dir, mixed)
    jobs, plain = both[0][:12], both[1][:12]
    with ray_started(address=f"127.0.0.1:{ray_head.gcs_port}"):
        light = run_dataset(jobs_dataset(jobs), batch_size=4, outcome="light").take_all()
        scored = run_dataset(jobs_dataset(jobs), batch_size=4, score=KIND).take_all()
        got = run_dataset(jobs_dataset(jobs), batch_size=4, score=KIND, reduce=JOIN,
                          initial="")
    assert sorted((outcome_of_row(r) for r in light), key=lambda r: r.index) == list(
        simulate(plain, outcome="light"))
    assert sorted((outcome_of_row(r) for r in scored), key=lambda r: r.index) == list(
        simulate(plain, score=KIND))
    assert got == simulate(plain, score=KIND, reduce=JOIN, initial="")


# ---------------------------------------------------------------------------
# A cluster that isn't there
# ---------------------------------------------------------------------------


@needs_ray
def test_an_unreachable_ray_cluster_is_an_error_naming_it_and_leaves_ray_usable(
        caller_dir: Path, files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--executor ray://HOST:PORT`` with no cluster there: the batch can't
    run, the error names the address, exit 3, no traceback, no job. And this
    process can still start a Ray of its own: Ray turns its client mode on
    to connect and leaves it on when the connection fails, after which a
    local ``ray.init`` failed with a bare ``AssertionError`` (as each Ray
    test after a failed ``ray://`` connection did in one CI run);
    :class:`RayExecutor` turns it off again."""

    from ray.util.client import worker

    # Ray's client tries 3 times, waiting 5, 10 and 15 s (its module's
    # constants, read at each connection): 1 s each here.
    monkeypatch.setattr(worker, "INITIAL_TIMEOUT_SEC", 1)
    monkeypatch.setattr(worker, "backoff", lambda timeout: timeout)
    address = f"ray://127.0.0.1:{_free_port()}"
    boards = [str(caller_dir / f) for f in files[:3]]
    result = CliRunner().invoke(cli, ["batch", "--json", "--executor", address, *boards])
    assert result.exit_code == 3, result.output
    said = " ".join(result.output.split())  # as printed, wrapped to the terminal's width
    assert f"can't run the batch: can't connect to Ray at {address}: ConnectionError" in said
    assert "Traceback" not in result.output
    assert not [ln for ln in result.output.splitlines() if ln.startswith("{")]
    with ray_started(num_cpus=1, include_dashboard=False):
        got = list(simulate(boards, executor=RayExecutor()))
    assert _texts(got) == _texts(list(simulate(boards)))


@needs_ray
def test_a_local_ray_that_cant_start_is_executor_unavailable() -> None:
    """``RayExecutor`` of a local Ray that ``ray.init`` refuses: the error
    says a local Ray can't start and why, and leaves Ray uninitialised."""
    import ray

    with pytest.raises(ExecutorUnavailable,
                       match="can't start a local Ray: ValueError: Resource quantities"):
        RayExecutor(num_cpus=-1, include_dashboard=False)
    assert not ray.is_initialized()


@needs_dask
def test_an_unreachable_dask_scheduler_is_an_error_naming_it(
        caller_dir: Path, files: list[str]) -> None:
    """``--executor dask://HOST:PORT`` with no scheduler there: the batch
    can't run, the error names the address (Dask's connection timeout,
    shortened here), exit 3, no traceback, no job."""
    import dask

    address = f"dask://127.0.0.1:{_free_port()}"
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        result = CliRunner().invoke(cli, ["batch", "--json", "--executor", address,
                                          str(caller_dir / files[0])])
    assert result.exit_code == 3, result.output
    said = " ".join(result.output.split())  # as printed, wrapped to the terminal's width
    assert f"can't run the batch: can't connect to Dask at {address}: OSError" in said
    assert "Traceback" not in result.output
    assert not [ln for ln in result.output.splitlines() if ln.startswith("{")]
