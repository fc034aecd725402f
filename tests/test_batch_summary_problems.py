"""The batch summary names the files it couldn't resolve, and why.

A summary that counts "bad file 1" without naming the file sends the user
through every JSON line to find it. The summary keeps the first few
unresolved files (a bad scenario file, status 2; a failing plugin, status
3) with their messages, in constant memory like the rest of it; an illegal
declaration (status 1) is a scenario's outcome, not a problem of the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from redzone.execution.jobs import JobOutcome
from redzone.execution.sinks import PROBLEMS, Summary
from redzone.frontends.cli import cli

_GOOD = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[combat]
attacks = { bear = "bob" }
"""


def _outcome(i: int, status: int, message: str) -> JobOutcome:
    body = ({"ok": True} if status == 0 else
            {"ok": False, "error": {"kind": "bad_scenario" if status == 2 else "plugin_error",
                                    "plugin": "frob" if status == 3 else None,
                                    "message": message, "rule": None, "objects": []}})
    return JobOutcome(i, f"f{i}", status, json.dumps(body), (), 0.001)


def test_the_summary_keeps_the_first_unresolved_files_with_their_messages() -> None:
    outcomes = [_outcome(i, (0, 1, 2, 3)[i % 4], f"f{i}: problem {i}\nsecond line")
                for i in range(400)]
    counted = Summary().extend(outcomes)
    # statuses 2 and 3 only, in input order, the message's first line
    assert counted.problems == [
        (f"f{i}", (0, 1, 2, 3)[i % 4], f"f{i}: problem {i}")
        for i in range(400) if i % 4 >= 2][:PROBLEMS]
    assert counted.unlisted == 200 - PROBLEMS


def test_batch_names_a_missing_and_a_bad_file_in_its_summary(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(_GOOD)
    bad = tmp_path / "bad.toml"
    bad.write_text(_GOOD.replace("power = 2", 'power = "two"', 1))
    missing = tmp_path / "missing.toml"
    result = CliRunner().invoke(cli, ["batch", str(good), str(bad), str(missing)],
                                env={"COLUMNS": "2000"})
    assert result.exit_code == 2, result.output
    line = next(ln for ln in result.output.splitlines() if ln.startswith("not resolved: "))
    told = line.removeprefix("not resolved: ").split("; ")
    # in input order; the reader's message names the file, its line and the key
    assert len(told) == 2
    assert told[0].startswith(f"{bad}:") and "power" in told[0]
    assert told[1] == f"{missing}: no such file"


def test_batch_json_prints_the_unresolved_files_in_its_summary_on_standard_error(
        tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    result = CliRunner().invoke(cli, ["batch", "--json", str(missing)],
                                env={"COLUMNS": "2000"})
    assert result.exit_code == 2
    rows = [json.loads(ln) for ln in result.stdout.splitlines() if ln.startswith("{")]
    assert [r["status"] for r in rows] == [2]
    assert f"not resolved: {missing}: no such file" in result.stderr
    assert "not resolved" not in result.stdout  # the summary isn't on standard output
