"""Bad input to ``redzone batch``, ``run``, ``cards`` and ``keywords``: a
clear error naming the problem, the documented exit status, never a
traceback (found by an audit of the command line).

Exit statuses (scenario format, "The command line"): 0 resolved, 1 illegal,
2 bad scenario, 3 a plugin or redzone failed, 64 a usage error.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import redzone.frontends.cli
from click.testing import CliRunner, Result
from redzone.execution import simulate
from redzone.frontends.cli import cli
from redzone.kernel.errors import PluginError

EXIT_USAGE = 64

GOOD = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
controller = "alice"
power = 6
toughness = 4
keywords = ["trample"]
[combat]
attacks = { wurm = "bob" }
"""

#: A flyer blocked by a creature with neither flying nor reach (702.9b).
ILLEGAL_BLOCK = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "drake"
controller = "alice"
power = 2
toughness = 2
keywords = ["flying"]
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { drake = "bob" }
blocks = { bear = ["drake"] }
"""

NO_ATTACK = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
"""


def invoke(*args: str, **kwargs: Any) -> Result:
    return CliRunner().invoke(cli, list(args), **kwargs)


def no_traceback(result: Result) -> None:
    text = result.stdout + result.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "a.toml"
    path.write_text(GOOD, encoding="utf-8")
    return path


def _undecodable_name_folder(tmp_path: Path) -> Path:
    """A folder holding one good scenario whose name is not UTF-8."""
    folder = tmp_path / "odd"
    folder.mkdir()
    try:
        with open(os.path.join(os.fsencode(folder), b"x\xff.toml"), "wb") as fh:
            fh.write(GOOD.encode())
    except OSError:  # pragma: no cover - a file system that refuses the name
        pytest.skip("the file system refuses a name that is not UTF-8")
    return folder


# ---------------------------------------------------------------------------
# F1: --out in a folder that doesn't exist
# ---------------------------------------------------------------------------


def test_out_in_a_missing_folder_is_a_usage_error(good: Path, tmp_path: Path) -> None:
    """``--out PATH`` in a folder that doesn't exist is a usage error (64)
    naming the path, like ``--html`` ("can't write ..."), before any file
    runs; nothing is written."""
    out = tmp_path / "nodir" / "o.jsonl"
    result = invoke("batch", str(good), "--out", str(out))
    no_traceback(result)
    assert result.exit_code == EXIT_USAGE, result.stderr
    assert "--out" in result.stderr and "o.jsonl" in result.stderr
    assert "can't write" in result.stderr
    assert not (tmp_path / "nodir").exists()


def test_simulate_sink_in_a_missing_folder_fails_before_any_job(good: Path,
                                                                tmp_path: Path) -> None:
    """``simulate(sink=PATH)`` checks its arguments before any job runs: a
    sink in a folder that doesn't exist is a ``BatchError`` naming it, not a
    ``FileNotFoundError`` at the first outcome."""
    from redzone.execution import BatchError

    with pytest.raises(BatchError, match=r"o\.jsonl"):
        simulate([str(good)], sink=str(tmp_path / "nodir" / "o.jsonl"))


# ---------------------------------------------------------------------------
# F2: a file name that is not UTF-8, written to --out
# ---------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_a_file_name_not_utf8_is_written_to_jsonl(tmp_path: Path) -> None:
    """batch.md: "An error is a value, never an exception: one bad job loses
    nothing else". A file whose name is not UTF-8 gets its row in ``--out
    X.jsonl``, its name escaped as ``batch --json`` escapes it."""
    folder = _undecodable_name_folder(tmp_path)
    out = tmp_path / "o.jsonl"
    printed = invoke("batch", "--json", str(folder))
    result = invoke("batch", str(folder), "--out", str(out))
    no_traceback(result)
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 1 and rows[0]["status"] == 0
    line = json.loads(printed.stdout.splitlines()[0])
    assert rows[0]["file"] == line["file"]
    assert rows[0]["file"].endswith("x\udcff.toml")
    assert '\\udcff' in out.read_text(encoding="utf-8")
    # Resumed, the row is found and the file is not run again.
    again = invoke("batch", str(folder), "--out", str(out), "--resume")
    assert again.exit_code == 0, again.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_a_file_name_not_utf8_is_written_to_parquet(tmp_path: Path) -> None:
    """The same in ``--out X.parquet``: the row is written, no ``.partial``
    is left, and ``--resume`` finds it."""
    pq = pytest.importorskip("pyarrow.parquet")
    folder = _undecodable_name_folder(tmp_path)
    out = tmp_path / "o.parquet"
    result = invoke("batch", str(folder), "--out", str(out))
    no_traceback(result)
    assert result.exit_code == 0, result.stderr
    assert not (tmp_path / "o.parquet.partial").exists()
    rows = pq.read_table(str(out)).to_pylist()
    assert len(rows) == 1 and rows[0]["status"] == 0
    assert rows[0]["file"].endswith("x\\udcff.toml")
    again = invoke("batch", str(folder), "--out", str(out), "--resume")
    assert again.exit_code == 0, again.stderr
    assert len(pq.read_table(str(out)).to_pylist()) == 1


# ---------------------------------------------------------------------------
# F3, F4: --files-from lists with odd bytes
# ---------------------------------------------------------------------------


def test_files_from_a_list_not_utf8_is_read_as_standard_input_is(good: Path,
                                                                 tmp_path: Path) -> None:
    """``--files-from LIST`` "reads one path a line", from a file as from
    standard input: a line that is not UTF-8 is its own job (a missing
    file, status 2), and the other lines run."""
    listing = tmp_path / "list.txt"
    listing.write_bytes(os.fsencode(good) + b"\n" + b"missing\xff.toml\n")
    by_file = invoke("batch", "--json", "--files-from", str(listing))
    no_traceback(by_file)
    assert by_file.exit_code == 2, by_file.stderr
    lines = [json.loads(line) for line in by_file.stdout.splitlines()]
    assert [line["status"] for line in lines] == [0, 2]
    assert lines[1]["outcome"]["error"]["kind"] == "bad_scenario"
    assert lines[1]["file"] == "missing\udcff.toml"


def test_a_listed_path_with_a_nul_is_a_bad_scenario(good: Path, tmp_path: Path) -> None:
    """A ``--files-from`` line with a NUL character names no file: that
    job is ``bad_scenario`` (status 2) naming it, not an internal error."""
    listing = tmp_path / "list.txt"
    listing.write_bytes(os.fsencode(good) + b"\n" + b"a\x00b.toml\n")
    result = invoke("batch", "--json", "--files-from", str(listing))
    no_traceback(result)
    assert result.exit_code == 2, result.stdout
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["status"] for line in lines] == [0, 2]
    error = lines[1]["outcome"]["error"]
    assert error["kind"] == "bad_scenario" and error["file"] == "a\x00b.toml"
    assert "NUL" in error["message"]


def test_simulate_a_path_with_a_nul_is_a_bad_scenario_everywhere(good: Path) -> None:
    """The same from ``simulate``: serially and on an executor alike."""
    import concurrent.futures as cf

    jobs = [str(good), "a\0b.toml"]
    serial = list(simulate(jobs))
    with cf.ThreadPoolExecutor(1) as pool:
        pooled = list(simulate(jobs, executor=pool))
    assert [o.status for o in serial] == [0, 2]
    assert serial[1].kind == "bad_scenario"
    assert [o.json for o in pooled] == [o.json for o in serial]


# ---------------------------------------------------------------------------
# F5, F6: --timeout, --lost-after, --hook-timeout values
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["inf", "1e10", "1e300"])
def test_a_huge_timeout_is_no_practical_limit(good: Path, value: str) -> None:
    """``--timeout`` of more seconds than any run lasts (``inf``, ``1e10``)
    is no limit, not an ``OverflowError`` in every job."""
    result = invoke("batch", "--json", "--timeout", value, str(good))
    no_traceback(result)
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout.splitlines()[0])["status"] == 0


@pytest.mark.parametrize("value", [float("inf"), 1e10])
def test_simulate_a_huge_timeout_is_no_practical_limit(good: Path, value: float) -> None:
    """``simulate(timeout=inf)`` runs the jobs, with no limit."""
    (outcome,) = simulate([str(good)], timeout=value)
    assert outcome.status == 0, outcome.json


@pytest.mark.parametrize("option", ["--timeout", "--lost-after", "--hook-timeout"])
@pytest.mark.parametrize("value", ["nan", "0", "-1"])
def test_seconds_that_are_not_a_number_above_0_are_usage_errors(
        good: Path, option: str, value: str) -> None:
    """A number of seconds that is NaN, 0 or negative is a usage error (64)
    blamed on the option, with no game rule cited. (An engine's
    ``hook_timeout`` of 0 would fail every plugin's first answer; ``None``,
    the option left out, is no limit.)"""
    result = invoke("batch", option, value, str(good))
    no_traceback(result)
    assert result.exit_code == EXIT_USAGE, result.stdout + result.stderr
    assert option in result.stderr
    assert "rule" not in result.stderr.replace("--rules", "")


def test_an_infinite_hook_timeout_is_no_limit(good: Path) -> None:
    """``--hook-timeout inf`` checks nothing, as the engine's ``None``."""
    result = invoke("batch", "--hook-timeout", "inf", "--json", str(good))
    no_traceback(result)
    assert result.exit_code == 0, result.stdout + result.stderr


# ---------------------------------------------------------------------------
# F7: the account of an illegal block
# ---------------------------------------------------------------------------


def test_the_account_of_an_illegal_block_doesnt_say_nothing_attacked(tmp_path: Path) -> None:
    """508.8 skips the declare blockers and combat damage steps only when no
    creature attacks: the account of an attack whose block was rejected
    says the attack, never that no creature attacks."""
    path = tmp_path / "illegal.toml"
    path.write_text(ILLEGAL_BLOCK, encoding="utf-8")
    result = invoke("run", "--no-color", str(path))
    assert result.exit_code == 1, result.stdout
    assert "drake attacks bob" in result.stdout
    assert "no creature attacks" not in result.stdout


def test_the_account_of_no_attack_says_the_steps_are_skipped(tmp_path: Path) -> None:
    """With no attacker, the account still says so (508.8)."""
    path = tmp_path / "quiet.toml"
    path.write_text(NO_ATTACK, encoding="utf-8")
    result = invoke("run", "--no-color", str(path))
    assert result.exit_code == 0, result.stdout
    assert "no creature attacks" in result.stdout and "508.8" in result.stdout


# ---------------------------------------------------------------------------
# F8: a card's inert keywords get a note
# ---------------------------------------------------------------------------


def _card_file(tmp_path: Path) -> Path:
    face = {"name": "Ward Guy", "power": "2", "toughness": "3", "colors": ["U"],
            "types": ["Creature"], "subtypes": [], "supertypes": [],
            "keywords": ["Flash", "Flying", "Ward"],
            "text": "Flash\nFlying\nWard {2}"}
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps({"meta": {"version": "5.2.2"},
                                "data": {"Ward Guy": [face]}}), encoding="utf-8")
    return path


def test_a_cards_inert_keyword_is_kept_with_a_note(tmp_path: Path) -> None:
    """cards.md: abilities redzone doesn't provide are inert, "and `redzone
    run` prints a note on standard error naming the card and the ability".
    Flash, a keyword the engine knows by name and no plugin provides, is
    kept on the permanent (inert, as written in a scenario) with that note;
    ward {2} is left out with its note."""
    cards = _card_file(tmp_path)
    listed = invoke("cards", "--json", str(cards), "Ward Guy")
    assert listed.exit_code == 0, listed.stdout + listed.stderr
    card = json.loads(listed.stdout)["cards"][0]
    assert card["keys"]["keywords"] == ["flash", "flying"]
    notes = " ".join(card["notes"])
    assert "'flash'" in notes and "Ward Guy" in notes and "inert" in notes
    assert "ward {2}" in notes
    scenario = tmp_path / "s.toml"
    scenario.write_text('cards = "AtomicCards.json"\nactive_player = "alice"\n'
                        '[players.alice]\n[players.bob]\n[[permanents]]\nid = "guy"\n'
                        'card = "Ward Guy"\ncontroller = "alice"\n', encoding="utf-8")
    run = invoke("run", "--json", str(scenario))
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "'flash'" in run.stderr and "Ward Guy" in run.stderr


# ---------------------------------------------------------------------------
# F9: --json errors on standard output
# ---------------------------------------------------------------------------


def test_cards_json_unknown_card_is_the_error_object_on_stdout(tmp_path: Path) -> None:
    """command-line.md, "Streams": "With `--json` the error object of the
    format ... *is* the outcome, so it goes to standard output and standard
    error stays empty"."""
    cards = _card_file(tmp_path)
    result = invoke("cards", "--json", str(cards), "Ward Guy", "Serra Angle")
    no_traceback(result)
    assert result.exit_code == 2
    assert result.stderr == ""
    out = json.loads(result.stdout)
    assert out["ok"] is False and set(out) == {"ok", "error"}
    error = out["error"]
    assert error["kind"] == "bad_scenario" and error["rule"] is None
    assert error["file"] == str(cards) and "Serra Angle" in error["message"]
    assert {"kind", "rule", "message", "objects"} <= set(error)


def test_cards_json_unreadable_file_is_the_error_object_on_stdout(tmp_path: Path) -> None:
    """The same for a card file that can't be read."""
    result = invoke("cards", "--json", str(tmp_path / "none.json"), "Serra Angel")
    no_traceback(result)
    assert result.exit_code == 2 and result.stderr == ""
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["error"]["kind"] == "bad_scenario"
    assert "none.json" in out["error"]["message"]


@pytest.mark.parametrize("command", [["keywords", "--json"],
                                     ["cards", "--json", "x.json", "Serra Angel"]])
def test_json_plugin_failure_is_the_error_object_on_stdout(
        command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin that fails to load: with ``--json``, the ``plugin_error``
    object on standard output (exit 3), standard error empty."""
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise PluginError("plugin 'x' (dist 1.0) raised ValueError", plugin="x",
                          distribution="dist", hook="redzone_keywords")

    monkeypatch.setattr(redzone.frontends.cli, "Engine", broken)
    result = invoke(*command)
    no_traceback(result)
    assert result.exit_code == 3 and result.stderr == ""
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["error"]["kind"] == "plugin_error"
    assert out["error"]["plugin"] == "x"


def test_read_document_of_a_path_with_a_nul_is_the_missing_files_error() -> None:
    """The API reads a scenario file as the command line does: a name with a
    NUL names no file, an UnreadableFileError saying so (a RulesError), not a
    bare ValueError."""
    from redzone.formats.document import UnreadableFileError, open_regular

    with pytest.raises(UnreadableFileError, match="NUL character"):
        open_regular("a\0b.toml", "scenario file")
