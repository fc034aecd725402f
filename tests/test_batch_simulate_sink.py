"""``simulate(sink=, resume=, key=, progress=)``: what ``redzone batch`` has,
for callers of the library (issue 24, items 1 and 6).

The "Batch runs" part of the scenario format: one row per job (``file``,
``status``, ``kind``, ``message``, the outcome), written as each job is done;
a resumed batch runs each job once in all, a job being known by its key (a
file's path as given, a Scenario's ``file``, ``<job N>`` for a pair, or the
caller's ``key=``).
"""

from __future__ import annotations

import itertools
import json
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
import redzone.examples as examples
from _terminal import ctrl_c, drained, python_handles_ctrl_c
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from redzone import Engine
from redzone.execution import JobOutcome, simulate
from redzone.execution.engines import BatchError
from redzone.execution.faults import WorkersLost
from redzone.execution.sinks import done_keys, job_key
from redzone.formats.scenario import load
from redzone.frontends.cli import cli
from redzone.kernel.errors import BadQueryError

EXAMPLES = Path(examples.__file__).parent
NAMES = ["lure", "menace-one-blocker", "afterlife", "annihilator", "ball-lightning-delayed",
         "two-player-draw", "written-trigger", "layers-forests-and-anthem"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Eight example files (resolved ones and an illegal one, 702.111b), and
    a bad one (status 2)."""
    out = tmp_path / "boards"
    out.mkdir()
    for name in NAMES:
        shutil.copy(EXAMPLES / f"{name}.toml", out / f"{name}.toml")
    (out / "zz-bad.toml").write_text("this is = = not toml", encoding="utf-8")
    return out


def _files(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.glob("*.toml"))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _pairs(n: int) -> list[Any]:
    """``n`` small ``(state, decisions)`` jobs, alike but for their powers."""
    engine = Engine()
    c = engine.creature
    return [(engine.game(["a", "b"], [c("x", "a", 1 + i % 5, 2), c("y", "b", 2, 1 + i % 3)]),
             {"attacks": {"x": "b"}, "blocks": {"y": "x"} if i % 2 else {}}) for i in range(n)]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_simulates_sink_writes_the_rows_redzone_batch_writes(folder: Path, tmp_path: Path,
                                                             suffix: str) -> None:
    """Item 1: the same files through ``simulate(sink=PATH)`` and through
    ``redzone batch --out PATH`` give the same rows, byte for byte, and the
    outcomes are still yielded."""
    files = _files(folder)
    mine, cli_out = tmp_path / f"mine{suffix}", tmp_path / f"cli{suffix}"
    got = list(simulate(files, sink=mine))
    assert [r.source for r in got] == files
    result = CliRunner().invoke(cli, ["batch", "--out", str(cli_out), *files])
    assert result.exit_code == 2, result.output  # the bad file's status
    if suffix == ".jsonl":
        assert mine.read_bytes() == cli_out.read_bytes()
        assert [r["file"] for r in _lines(mine)] == files
        assert [r["status"] for r in _lines(mine)] == [r.status for r in got]
    else:
        import pyarrow.parquet as pq

        assert pq.read_table(mine).to_pylist() == pq.read_table(cli_out).to_pylist()
        assert pq.read_table(mine).column("outcome").to_pylist() == [r.json for r in got]


def test_a_sink_object_is_written_and_left_open(folder: Path) -> None:
    class Collect:
        def __init__(self) -> None:
            self.rows: list[JobOutcome] = []
            self.closed = False

        def write(self, outcome: JobOutcome) -> None:
            self.rows.append(outcome)

        def close(self) -> None:
            self.closed = True

    sink = Collect()
    got = list(simulate(_files(folder), sink=sink))
    assert sink.rows == got and not sink.closed


def test_the_job_key_is_the_source_of_the_outcome(folder: Path) -> None:
    """The key a resumed batch skips by is the ``file`` of the job's row:
    the path as given, a Scenario's ``file``, ``<job N>`` otherwise."""
    path = _files(folder)[0]
    scenario = load(path)
    jobs: list[Any] = [path, Path(path), scenario, *_pairs(1), 42]
    got = list(simulate(jobs))
    assert [job_key(i, j) for i, j in enumerate(jobs)] == [r.source for r in got] == [
        path, path, scenario.file, "<job 3>", "<job 4>"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 14), cut=st.data(), suffix=st.sampled_from([".jsonl", ".parquet"]),
       named=st.booleans())
def test_resume_after_a_partial_run_resolves_exactly_the_missing_jobs(
        n: int, cut: st.DataObject, suffix: str, named: bool) -> None:
    """Item 1: a run stopped after ``k`` outcomes, then resumed, resolves
    jobs ``k..n-1`` and no other, keeps each job's index (and ``<job N>``),
    and leaves one row per job, the rows of an uninterrupted run."""
    k = cut.draw(st.integers(0, n), label="cut")
    jobs = _pairs(n)
    key = (lambda i, job: f"seed-{i}") if named else None
    with tempfile.TemporaryDirectory() as where:
        out, whole = Path(where) / f"out{suffix}", Path(where) / f"whole{suffix}"
        stream = simulate(jobs, sink=out, key=key)
        first = list(itertools.islice(stream, k))
        stream.close()  # type: ignore[attr-defined]  # what a caller's break does
        assert len(first) == k
        assert done_keys(out) == {r.source for r in first}
        rest = list(simulate(jobs, sink=out, resume=True, key=key))
        assert [r.index for r in rest] == list(range(k, n))
        expected = [f"seed-{i}" if named else f"<job {i}>" for i in range(n)]
        assert [r.source for r in first + rest] == expected
        list(simulate(jobs, sink=whole, key=key))
        if suffix == ".jsonl":
            assert out.read_bytes() == whole.read_bytes()
        else:
            import pyarrow.parquet as pq

            assert pq.read_table(out).to_pylist() == pq.read_table(whole).to_pylist()
        assert list(simulate(jobs, sink=out, resume=True, key=key)) == []


def test_resume_goes_on_after_a_torn_line(tmp_path: Path) -> None:
    """A JSON-lines file cut mid-line by a killed run: that job runs again."""
    jobs = _pairs(5)
    out = tmp_path / "out.jsonl"
    list(simulate(jobs[:3], sink=out))
    text = out.read_text(encoding="utf-8")
    out.write_text(text[: text.rindex("\n", 0, len(text) - 1) + 10], encoding="utf-8")
    rest = list(simulate(jobs, sink=out, resume=True))
    assert [r.index for r in rest] == [2, 3, 4]
    assert [r["file"] for r in _lines(out)] == [f"<job {i}>" for i in range(5)]


@pytest.mark.parametrize("as_list", [True, False])
def test_progress_is_called_once_per_job_in_input_order(tmp_path: Path, as_list: bool) -> None:
    """Item 6: ``progress(done, total, outcome)`` once per outcome, ``done``
    from 1, ``total`` the jobs of this run when the input has a length (the
    skipped ones left out), ``None`` for a generator."""
    jobs = _pairs(7)
    out = tmp_path / "out.jsonl"
    list(simulate(jobs[:3], sink=out))
    seen: list[tuple[int, int | None, int]] = []
    given_jobs: Any = jobs if as_list else iter(jobs)
    got = list(simulate(given_jobs, sink=out, resume=True,
                        progress=lambda done, total, o: seen.append((done, total, o.index))))
    total = 4 if as_list else None
    assert seen == [(d + 1, total, r.index) for d, r in enumerate(got)]
    assert [i for _, _, i in seen] == [3, 4, 5, 6]


class _CtrlCSink:
    """A sink that records the rows written, and sends ``times`` Ctrl-Cs as
    it writes the row of job ``at``."""

    def __init__(self, at: int, times: int) -> None:
        self.at, self.times = at, times
        self.rows: list[int] = []

    def write(self, outcome: JobOutcome) -> None:
        self.rows.append(outcome.index)
        if outcome.index == self.at:
            for _ in range(self.times):
                ctrl_c()
            if self.times > 1:
                raise AssertionError("a second Ctrl-C was held too")

    def close(self) -> None:
        pass


def _stopped(sink: _CtrlCSink, jobs: int) -> list[int]:
    """The jobs whose progress was reported in a batch the sink's Ctrl-C
    stops (it must stop it), Python's own handler in place again after."""
    reported: list[int] = []
    with python_handles_ctrl_c():
        with pytest.raises(KeyboardInterrupt):
            for _ in simulate(_pairs(jobs), sink=sink,
                              progress=lambda done, total, o: reported.append(o.index)):
                pass
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    return reported


def test_a_ctrl_c_while_a_row_is_written_is_raised_once_it_is_reported() -> None:
    """A SIGINT that comes while the sink writes a row is held until that
    row's progress is reported, then raised: a stopped batch reports exactly
    the rows it wrote (``redzone batch`` counts its summary from progress)."""
    sink = _CtrlCSink(at=2, times=1)
    reported = _stopped(sink, 5)
    assert sink.rows == reported == [0, 1, 2]


def test_a_second_ctrl_c_while_one_is_held_stops_the_batch_at_once() -> None:
    """A write that blocks (a full pipe) can't keep a batch from stopping:
    a second SIGINT while the first is held raises at once, in the write."""
    sink = _CtrlCSink(at=1, times=2)
    reported = _stopped(sink, 4)
    assert sink.rows == [0, 1] and reported == [0]


def test_progress_on_a_process_pool(folder: Path) -> None:
    import concurrent.futures as cf

    files = _files(folder)
    seen: list[int] = []
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        got = list(simulate(files, executor=pool, chunksize=2,
                            progress=lambda done, total, o: seen.append(done)))
    assert seen == list(range(1, len(files) + 1)) and len(got) == len(files)


def test_bad_sink_resume_key_and_progress_arguments_fail_before_any_job(tmp_path: Path) -> None:
    jobs = _pairs(1)
    with pytest.raises(BatchError, match=r"out\.csv: .*\.jsonl"):
        simulate(jobs, sink=tmp_path / "out.csv")
    with pytest.raises(BadQueryError, match="resume=True needs a sink path"):
        simulate(jobs, resume=True)
    with pytest.raises(BadQueryError, match="sink is a int"):
        simulate(jobs, sink=3)  # type: ignore[arg-type]
    with pytest.raises(BadQueryError, match="progress is a str"):
        simulate(jobs, progress="bar")  # type: ignore[arg-type]
    with pytest.raises(BadQueryError, match="lost_after"):
        simulate(jobs, lost_after=0)
    bad = tmp_path / "killed.parquet"
    bad.write_bytes(b"PAR1 no footer")
    with pytest.raises(BatchError, match="can't resume from this Parquet file"):
        simulate(jobs, sink=bad, resume=True)
    with pytest.raises(BadQueryError, match="key gave 3"):
        list(simulate(jobs, sink=tmp_path / "o.jsonl", key=lambda i, j: 3))  # type: ignore[arg-type,return-value]
    assert not (tmp_path / "out.csv").exists()


def test_the_sink_is_closed_when_the_consumer_stops(tmp_path: Path) -> None:
    """A Parquet sink is put in place when the caller stops early (a break,
    an exception in its loop): the rows written so far are readable."""
    import pyarrow.parquet as pq

    out = tmp_path / "out.parquet"
    with pytest.raises(RuntimeError):
        for outcome in simulate(_pairs(6), sink=out):
            if outcome.index == 2:
                raise RuntimeError("the caller's own failure")
    assert pq.read_table(out).column("file").to_pylist() == ["<job 0>", "<job 1>", "<job 2>"]
    assert not (tmp_path / "out.parquet.partial").exists()


def test_redzone_batch_ends_with_the_summary_when_the_workers_are_lost(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 4 at the command: a batch whose workers are all lost prints what
    was done and how to go on, and exits 3 (never waits for ever)."""
    import redzone.execution.simulation as simulation

    real = simulation.simulate

    def losing(*args: Any, **kwargs: Any) -> Any:
        assert kwargs["lost_after"] == 7.5
        outcomes = real(*args, **kwargs)
        yield next(outcomes)
        outcomes.close()
        raise WorkersLost("every worker of the Dask cluster of the scheduler tcp://x was lost")

    monkeypatch.setattr(simulation, "simulate", losing)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["batch", "--lost-after", "7.5", "--out", str(out),
                                      *_files(folder)])
    assert result.exit_code == 3, result.output
    assert "every worker of the Dask cluster" in result.output
    assert "1 file(s) done" in result.output and "--resume" in result.output
    assert len(_lines(out)) == 1


@pytest.mark.parametrize("args", [[], ["--json"], ["--out", "OUT"], ["--files-from", "LIST"]],
                         ids=["table", "json", "out", "files-from"])
def test_the_bar_shows_on_a_terminal_whatever_the_output(folder: Path, tmp_path: Path,
                                                         args: list[str]) -> None:
    """Item 6: ``redzone batch`` draws its progress bar on a terminal's
    standard error (a pseudo-terminal here) whatever the output format, and
    counts to the total when the files are known up front."""
    import os
    import pty
    import subprocess
    import sys

    files = _files(folder)
    (tmp_path / "list.txt").write_text("\n".join(files) + "\n", encoding="utf-8")
    args = [str(tmp_path / "out.jsonl") if a == "OUT" else str(tmp_path / "list.txt")
            if a == "LIST" else a for a in args]
    paths = [] if "--files-from" in args else [str(folder)]
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "redzone", "batch", *args, *paths],
                            stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    seen = drained(leader)
    proc.communicate(timeout=120)
    assert proc.returncode == 2  # the bad file
    assert b"resolving" in seen
    if "--files-from" not in args:
        assert f"{len(files)}/{len(files)}".encode() in seen


def _damage(out: Any) -> int:
    """A score: the damage dealt to player b (0 for a failed job)."""
    return 20 - out.lives["b"] if out.ok else 0


def _not_json(out: Any) -> object:
    return object()


def test_a_light_batchs_rows_hold_the_light_outcome(tmp_path: Path) -> None:
    """Items 1 and 2: a batch asked for light outcomes writes each row's
    ``outcome`` as the light outcome's fields, which agree with the outcome
    yielded (119: life totals; 704.5g: a creature with lethal damage dies)."""
    jobs = _pairs(6)
    path = tmp_path / "light.jsonl"
    got = list(simulate(jobs, engine=Engine(), outcome="light", sink=path))
    rows = _lines(path)
    assert [r["file"] for r in rows] == [o.source for o in got]
    for r, o in zip(rows, got, strict=True):
        assert (r["status"], r["kind"]) == (o.status, o.kind)
        assert r["outcome"]["lives"] == dict(o.lives)
        assert r["outcome"]["deaths"] == list(o.deaths)
        assert r["outcome"]["game_over"] is o.game_over
    assert any(r["outcome"]["deaths"] for r in rows)  # a blocked job killed someone


def test_a_scored_batchs_rows_hold_the_score_and_resume_by_key(tmp_path: Path) -> None:
    """Items 1 and 2: scores computed on the workers are the rows'
    ``{"score": value}``, and a resumed scored batch runs only the jobs
    missing from the file."""
    jobs = _pairs(6)
    path = tmp_path / "scores.jsonl"
    first = list(itertools.islice(simulate(jobs, engine=Engine(), outcome="light",
                                           score=_damage, sink=path), 3))
    assert [r["outcome"] for r in _lines(path)] == [{"score": s.value} for s in first]
    rest = list(simulate(jobs, engine=Engine(), outcome="light", score=_damage, sink=path,
                         resume=True))
    assert [s.index for s in rest] == [3, 4, 5]
    assert [r["outcome"]["score"] for r in _lines(path)] == [
        s.value for s in list(simulate(jobs, engine=Engine(), outcome="light", score=_damage))]


def test_a_score_that_is_not_json_data_cant_be_written(tmp_path: Path) -> None:
    """A sink row is JSON: a score that isn't JSON data is a BatchError
    naming the job, not a half-written line."""
    path = tmp_path / "bad.jsonl"
    with pytest.raises(BatchError, match=r"job 0 \(<job 0>\).*not JSON"):
        list(simulate(_pairs(2), engine=Engine(), score=_not_json, sink=path))
    assert path.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("extra", [{"sink": "x.jsonl"}, {"progress": print},
                                   {"key": lambda i, j: str(i)}])
def test_reduce_takes_no_per_job_recording(extra: dict[str, Any], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A reduction hands over one value, not one outcome per job: sink,
    progress and key are refused with it before any job runs."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BadQueryError, match="with reduce there is one value"):
        simulate(_pairs(2), engine=Engine(), score=_damage, reduce=max, **extra)
    assert not (tmp_path / "x.jsonl").exists()
