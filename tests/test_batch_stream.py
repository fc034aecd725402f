"""Streaming a batch: ``redzone batch --out``, ``--files-from``, ``--resume``,
Ctrl-C, and the summary counted in constant memory.

What the "Batch runs" part of the scenario format promises: one row per job
(``file``, ``status``, ``kind``, ``message``, the outcome; JSON text in
Parquet), written as each job is done; a resumed batch runs each file once
in all; Ctrl-C prints the summary of what was done and exits 130.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redzone.examples as examples
from _terminal import ctrl_c, drained, interruptible, python_handles_ctrl_c
from click.testing import CliRunner
from redzone.execution.jobs import JobOutcome
from redzone.execution.sinks import Summary, done_keys, open_sink
from redzone.frontends.cli import EXIT_USAGE, cli

EXAMPLES = Path(examples.__file__).parent
ROW_KEYS = {"file", "status", "kind", "message", "outcome", "retried"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Eight example files: resolved ones and an illegal one (702.111b)."""
    names = ["lure", "menace-one-blocker", "afterlife", "annihilator", "ball-lightning-delayed",
             "two-player-draw", "written-trigger", "layers-forests-and-anthem"]
    out = tmp_path / "boards"
    out.mkdir()
    for name in names:
        shutil.copy(EXAMPLES / f"{name}.toml", out / f"{name}.toml")
    return out


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_out_jsonl_rows_hold_the_spec_keys_and_the_json_outcome(folder: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    printed = CliRunner().invoke(cli, ["batch", "--json", "--out", str(out), str(folder)])
    assert printed.exit_code == 1, printed.output  # menace-one-blocker is illegal
    rows = _rows(out)
    assert [r["file"] for r in rows] == sorted(str(p) for p in folder.glob("*.toml"))
    assert all(set(r) == ROW_KEYS for r in rows)
    lines = [json.loads(x) for x in printed.stdout.splitlines()]
    assert [r["outcome"] for r in rows] == [x["outcome"] for x in lines]
    illegal = next(r for r in rows if str(r["file"]).endswith("menace-one-blocker.toml"))
    assert illegal["status"] == 1 and illegal["kind"] == "illegal_block"
    assert "two or more creatures" in str(illegal["message"])  # 702.111b
    assert all(r["message"] is None and r["kind"] == "resolved" for r in rows if not r["status"])


def test_out_parquet_holds_the_same_rows_with_the_outcome_as_json_text(
        folder: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    jsonl, parquet = tmp_path / "out.jsonl", tmp_path / "out.parquet"
    CliRunner().invoke(cli, ["batch", "--out", str(jsonl), str(folder)])
    CliRunner().invoke(cli, ["batch", "--out", str(parquet), str(folder)])
    table = pq.read_table(str(parquet)).to_pylist()
    assert set(table[0]) == ROW_KEYS
    assert all(isinstance(r["outcome"], str) for r in table)
    assert [{**r, "outcome": json.loads(r["outcome"])} for r in table] == _rows(jsonl)
    assert not (tmp_path / "out.parquet.partial").exists()


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_resume_runs_each_file_once_in_all(folder: Path, tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow.parquet")
    files = sorted(str(p) for p in folder.glob("*.toml"))
    whole, part = tmp_path / f"whole{suffix}", tmp_path / f"part{suffix}"
    CliRunner().invoke(cli, ["batch", "--out", str(whole), str(folder)])
    CliRunner().invoke(cli, ["batch", "--out", str(part), *files[:3]])
    assert done_keys(part) == set(files[:3])
    again = CliRunner().invoke(cli, ["batch", "--resume", "--out", str(part), str(folder)])
    assert "5 scenario files" in again.output  # only the five not done yet ran
    if suffix == ".jsonl":
        assert sorted(_rows(part), key=lambda r: str(r["file"])) == _rows(whole)
    else:
        import pyarrow.parquet as pq

        assert (sorted(pq.read_table(str(part)).to_pylist(), key=lambda r: r["file"])
                == pq.read_table(str(whole)).to_pylist())


def test_resume_drops_a_line_torn_by_a_killed_run(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    CliRunner().invoke(cli, ["batch", "--out", str(out), str(folder)])
    whole = out.read_text(encoding="utf-8")
    lines = whole.splitlines(keepends=True)
    out.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2], encoding="utf-8")
    assert len(done_keys(out)) == 4  # the torn fifth row is not done
    CliRunner().invoke(cli, ["batch", "--resume", "--out", str(out), str(folder)])
    assert out.read_text(encoding="utf-8") == whole


def test_files_from_a_list_and_from_standard_input(folder: Path, tmp_path: Path) -> None:
    files = sorted(str(p) for p in folder.glob("*.toml"))
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(files[:2]) + "\n\n" + files[2] + "\n", encoding="utf-8")
    by_list = CliRunner().invoke(cli, ["batch", "--json", "--files-from", str(listing)])
    by_stdin = CliRunner().invoke(cli, ["batch", "--json", "--files-from", "-"],
                                  input="\n".join(files[:3]) + "\n")
    assert [json.loads(x)["file"] for x in by_list.stdout.splitlines()] == files[:3]
    assert by_list.stdout == by_stdin.stdout
    both = CliRunner().invoke(cli, ["batch", "--json", "--files-from", str(listing), files[5]])
    assert [json.loads(x)["file"] for x in both.stdout.splitlines()] == [files[5], *files[:3]]


@pytest.mark.parametrize(("args", "needle"), [
    (["--out", "x.csv"], ".jsonl"),
    (["--resume"], "--resume needs --out"),
    (["--files-from", "no-such-list.txt"], "can't read no-such-list.txt"),
    ([], "--files-from"),
    (["--out", "x.csv", "--rules", "alpha"], "unknown rules edition 'alpha'"),
])
def test_bad_options_are_usage_errors_that_write_nothing(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
        needle: str) -> None:
    """Bad usage exits 64, so that 2 keeps meaning a bad scenario file (the
    scenario format's "The command line"): a bad ``--rules`` is the command
    line's fault, not each file's."""
    monkeypatch.chdir(tmp_path)
    paths = [str(folder)] if args and args[0] != "--files-from" else []
    result = CliRunner().invoke(cli, ["batch", *args, *paths])
    assert result.exit_code == EXIT_USAGE and needle in result.output, result.output
    assert not (tmp_path / "x.csv").exists()


def test_ctrl_c_prints_the_summary_of_what_was_done_and_exits_130(tmp_path: Path) -> None:
    """SIGINT mid-batch: exit 130, the summary of the files done, and an out
    file of whole rows only, from which --resume goes on."""
    boards = tmp_path / "boards"
    boards.mkdir()
    for i in range(400):
        shutil.copy(EXAMPLES / "layers-forests-and-anthem.toml", boards / f"b{i:03}.toml")
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = interruptible([sys.executable, "-m", "redzone", "batch", "--no-color",
                          "--out", str(out), str(boards)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or len(_rows(out)) < 3):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    rows = _rows(out)
    assert 3 <= len(rows) < 400
    assert f"{len(rows)} scenario files" in stdout
    assert "interrupted" in stderr and "Traceback" not in stderr
    again = CliRunner().invoke(cli, ["batch", "--resume", "--out", str(out), str(boards)])
    assert again.exit_code == 0
    assert sorted(str(r["file"]) for r in _rows(out)) == sorted(
        str(p) for p in boards.glob("*.toml"))


def test_the_bar_shows_on_a_terminal_with_json(folder: Path) -> None:
    """The progress bar goes to a terminal's standard error whatever the
    output format: --json on standard output no longer turns it off."""
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "redzone", "batch", "--json", str(folder)],
                            stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    stdout, _ = proc.communicate(timeout=120)
    seen = drained(leader)
    assert len(stdout.splitlines()) == 8
    assert b"resolving" in seen


def _outcome(i: int, status: int, seconds: float) -> JobOutcome:
    kind = {0: "resolved", 1: "illegal_block", 3: "plugin_error"}[status]
    body = ({"ok": True} if status == 0 else
            {"ok": False, "error": {"kind": kind, "plugin": "frob" if status == 3 else None,
                                    "message": "m", "rule": None, "objects": []}})
    return JobOutcome(i, f"f{i}", status, json.dumps(body), ("menace",) if i % 2 else (),
                      seconds)


def test_the_summary_keeps_counts_and_the_five_slowest_in_constant_memory() -> None:
    outcomes = [_outcome(i, (0, 1, 3)[i % 3], (i * 7919 % 1000) / 1000) for i in range(3000)]
    counted = Summary().extend(outcomes)
    assert counted.total == 3000 and counted.worst == 3
    assert counted.by_status == {0: 1000, 1: 1000, 3: 1000}
    assert counted.by_keyword["menace"][1] == sum(1 for i in range(3000) if i % 6 == 1)
    assert counted.failing == {"plugin_error: frob": 1000}
    top = sorted(outcomes, key=lambda o: o.seconds, reverse=True)[:5]
    assert counted.slowest == [(o.source, o.seconds) for o in top]
    assert len(counted._slow) == 5


def test_a_sink_is_chosen_by_suffix(tmp_path: Path) -> None:
    from redzone.execution.engines import BatchError

    with pytest.raises(BatchError, match=r"out\.txt: .*\.jsonl.*\.parquet"):
        open_sink(tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists()
    sink = open_sink(tmp_path / "out.jsonl")
    sink.write(_outcome(0, 0, 0.1))
    sink.close()
    assert _rows(tmp_path / "out.jsonl") == [{"file": "f0", "status": 0, "kind": "resolved",
                                              "message": None, "outcome": {"ok": True},
                                              "retried": 0}]


def test_ctrl_c_as_a_json_line_is_printed_counts_exactly_the_lines_printed(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--json``, the lines on standard output are the batch's rows: a
    Ctrl-C that comes as the third line is printed stops the batch with
    three lines printed and "3 scenario files" in the summary."""
    import redzone.frontends.batch_cli as batch_cli

    real = batch_cli.json_line
    made: list[str] = []

    def json_line(result: JobOutcome) -> str:
        made.append(real(result))
        if len(made) == 3:  # Ctrl-C as the third line is printed
            ctrl_c()
        return made[-1]

    monkeypatch.setattr(batch_cli, "json_line", json_line)
    with python_handles_ctrl_c():
        result = CliRunner().invoke(cli, ["batch", "--json", "--no-color", str(folder)])
    assert result.exit_code == 130, result.output
    assert len(result.stdout.splitlines()) == 3
    assert "3 scenario files" in result.stderr and "interrupted: 3 file(s) done" in result.stderr
