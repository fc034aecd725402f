"""What the command line reads and where it writes, at their edges: standard
input read with a bound (``run -``, ``batch --files-from -``), a closed
standard input, a reader that goes away (``redzone run x | head -1``), and
command-line paths printed back with their control characters escaped
(found by an audit of the command line).

Exit statuses (``docs/command-line.md``, "Exit status"): 0 resolved, 1 an
illegal declaration, 2 a bad scenario file, 3 a plugin or redzone failed, 64
a usage error.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from redzone import examples
from redzone.execution.jobs import JobOutcome
from redzone.formats.document import MAX_BYTES, ScenarioProblems, document_of_bytes
from redzone.frontends.batch_cli import show_failures
from redzone.frontends.cli import cli

GOOD = examples.path("vastwood-gorger")
ILLEGAL = examples.path("menace-one-blocker")

#: An escape sequence that clears a terminal, and a right-to-left override.
HOSTILE = "\x1b[2J\u202e"
#: How ``visible`` shows them.
SHOWN = "\\x1b[2J\\u202e"


def _invoke(*args: str, stdin: io.BytesIO | str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def _child(*args: str, stdin: int | None = None, stdout: int | None = None,
           closed_stdin: bool = False) -> subprocess.CompletedProcess[str]:
    """``redzone ARGS`` in a child process (the timeout only keeps a
    regression from hanging the suite). ``closed_stdin``: its file
    descriptor 0 is closed, as by a shell's ``<&-``."""
    command = [sys.executable, "-m", "redzone", *args]
    if closed_stdin:
        command = ["sh", "-c", 'exec "$0" "$@" <&-', *command]
    return subprocess.run(command, stdin=stdin, stdout=stdout if stdout is not None
                          else subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120, check=False)


def _oversized_file_error() -> dict[str, object]:
    """The problem of a scenario file found one byte over the limit as it is
    read (the size of a pipe is known only by reading it), as a batch's
    worker reports it (the message standard input's must match)."""
    with pytest.raises(ScenarioProblems) as refused:
        document_of_bytes(b"#" * (MAX_BYTES + 1), file="big.toml")
    (problem,) = refused.value.problems
    return {"key": "", "line": None, "message": problem.detail}


# ---------------------------------------------------------------------------
# Standard input is read with a bound (guarantee 11)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "check", "explain"])
def test_standard_input_over_1_mib_is_refused_after_reading_1_mib_and_a_byte(
        command: str) -> None:
    """Guarantee 11 (``docs/guarantees.md``): bounded work, files over 1 MiB
    refused, "``run -`` reads standard input". Standard input one byte over
    the limit, with another MiB behind it, is refused with the bad-scenario
    problem (exit 2) of a file over the limit, after reading the limit and
    one byte: never the rest."""
    stream = io.BytesIO(b"#" * (2 * MAX_BYTES + 1))
    ran = _invoke(command, "--json", "-", stdin=stream)
    assert ran.exit_code == 2, ran.output
    error = json.loads(ran.stdout)["error"]
    assert error["kind"] == "bad_scenario" and error["file"] == "<stdin>"
    assert error["problems"] == [_oversized_file_error()]
    assert stream.tell() == MAX_BYTES + 1


def test_standard_input_of_exactly_1_mib_is_read() -> None:
    """Guarantee 11: the limit is "over 1 MiB"; a scenario of exactly 1 MiB
    on standard input (a good file padded with a comment) resolves."""
    text = GOOD.read_bytes()
    line = b"#" * 999 + b"\n"  # (lines under the pre-scan's 20,000 characters)
    room = MAX_BYTES - len(text)
    padded = text + line * (room // len(line)) + b"#" * (room % len(line))
    assert len(padded) == MAX_BYTES
    ran = _invoke("run", "--json", "-", stdin=io.BytesIO(padded))
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.stdout)["ok"] is True


def test_standard_input_that_is_not_text_in_its_encoding_is_a_bad_scenario() -> None:
    """Guarantee 11: every scenario gives a resolved combat, an illegal
    declaration or a ``bad_scenario`` naming the file and the line, never
    an internal error. Standard input whose stream decodes strictly (as
    UTF-8 here) holding a byte that isn't UTF-8 on its second line is such
    a bad scenario (exit 2), naming the byte and the line."""
    ran = _invoke("run", "--json", "-", stdin=io.BytesIO(b"# a\n\xff = 1\n"))
    assert ran.exit_code == 2, ran.output
    error = json.loads(ran.stdout)["error"]
    assert (error["kind"], error["file"], error["line"]) == ("bad_scenario", "<stdin>", 2)
    assert error["problems"][0]["message"] == (
        "standard input is not valid utf-8 text (invalid start byte at byte 4)")


def test_run_dash_in_a_process_stops_reading_past_the_limit(tmp_path: Path) -> None:
    """Guarantee 11, through the console script: ``redzone run - < FILE``
    with 3 MiB of input reads no more than the limit, a byte and one buffer
    (the offset it leaves in the shared file shows it), and exits 2 naming
    ``<stdin>``."""
    source = tmp_path / "huge.toml"
    source.write_bytes(b"#" * (3 * MAX_BYTES))
    with source.open("rb") as fh:
        ran = _child("run", "-", stdin=fh.fileno())
        offset = os.lseek(fh.fileno(), 0, os.SEEK_CUR)
    assert ran.returncode == 2, ran.stderr
    assert "<stdin>" in ran.stderr and f"larger than {MAX_BYTES} bytes" in ran.stderr
    assert MAX_BYTES + 1 <= offset <= MAX_BYTES + 1 + io.DEFAULT_BUFFER_SIZE


def test_a_files_from_line_over_the_limit_is_refused_naming_the_list_and_line(
        tmp_path: Path) -> None:
    """``docs/batch.md``: ``--files-from``'s memory stays flat whatever it
    reads. A line one character over the cap of a listed path, with a MiB
    behind it, is a usage error (exit 64) naming the list and the line,
    after reading at most the cap and a buffer of it."""
    from redzone.frontends.batch_cli import MAX_LIST_LINE

    stream = io.BytesIO(b"\n" + b"x" * (MAX_LIST_LINE + 1) + b"y" * MAX_BYTES + b"\n")
    ran = _invoke("batch", "--files-from", "-", stdin=stream)
    assert ran.exit_code == 64, ran.output
    assert (f"line 2 of standard input is longer than {MAX_LIST_LINE} characters"
            in ran.stderr), ran.stderr
    assert stream.tell() <= 2 * MAX_LIST_LINE + 4 * io.DEFAULT_BUFFER_SIZE
    listing = tmp_path / "list.txt"
    listing.write_bytes(b"x" * (MAX_LIST_LINE + 1))
    ran = _invoke("batch", "--files-from", str(listing))
    assert ran.exit_code == 64, ran.output
    assert (f"line 1 of {listing} is longer than {MAX_LIST_LINE} characters"
            in ran.stderr), ran.stderr


def test_a_files_from_line_at_the_limit_is_a_path(tmp_path: Path) -> None:
    """``docs/batch.md``: each line of the list names a file. A line of
    exactly the cap (then a line feed) is still a path: no such file, a bad
    scenario (exit 2), the good file after it resolved."""
    from redzone.frontends.batch_cli import MAX_LIST_LINE

    long_name = "x" * MAX_LIST_LINE
    ran = _invoke("batch", "--json", "--files-from", "-",
                  stdin=f"{long_name}\n{GOOD}\n")
    assert ran.exit_code == 2, ran.output
    rows = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [(row["file"], row["status"]) for row in rows] == [(long_name, 2), (str(GOOD), 0)]


def test_a_files_from_line_over_the_limit_after_a_file_stops_the_batch(tmp_path: Path) -> None:
    """``docs/batch.md``: the list is read as the batch goes. A line over the
    cap after a good file is the same usage error (exit 64), naming its
    line, once the files before it are done."""
    from redzone.frontends.batch_cli import MAX_LIST_LINE

    listing = tmp_path / "list.txt"
    listing.write_text(f"{GOOD}\n" + "x" * (MAX_LIST_LINE + 5) + "\n", encoding="utf-8")
    ran = _invoke("batch", "--json", "--files-from", str(listing))
    assert ran.exit_code == 64, ran.output
    assert f"line 2 of {listing} is longer than" in ran.stderr, ran.stderr


# ---------------------------------------------------------------------------
# A closed standard input is a bad scenario, never an internal error
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "check", "explain"])
def test_a_closed_standard_input_is_a_bad_scenario(command: str) -> None:
    """``docs/command-line.md`` ("Streams", "Exit status"): ``FILE`` ``-``
    reads standard input; a bad scenario exits 2 and, with ``--json``, its
    error object is the outcome on standard output (standard error empty).
    A closed standard input (``<&-``) is such a bad scenario, saying so."""
    ran = _child(command, "--json", "-", closed_stdin=True)
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert ran.stderr == ""
    error = json.loads(ran.stdout)["error"]
    assert error["kind"] == "bad_scenario" and error["file"] == "<stdin>"
    assert "standard input is closed" in error["message"]
    text = _child(command, "-", closed_stdin=True)
    assert text.returncode == 2 and text.stdout == ""
    assert "standard input is closed" in text.stderr and "internal error" not in text.stderr


def test_batch_files_from_a_closed_standard_input_is_a_usage_error() -> None:
    """``docs/batch.md``: ``--files-from -`` reads the list from standard
    input; a list that can't be read is a usage error (exit 64) naming it,
    as ``can't read LIST`` is for a file; never a traceback."""
    ran = _child("batch", "--files-from", "-", closed_stdin=True)
    assert ran.returncode == 64, ran.stdout + ran.stderr
    assert "can't read standard input: it is closed" in ran.stderr
    assert "Traceback" not in ran.stderr


# ---------------------------------------------------------------------------
# A reader that went away: a quiet exit with the command's own status
# ---------------------------------------------------------------------------


def _into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """``redzone ARGS`` writing into a pipe whose reader is gone before it
    writes (``redzone run x | head -1`` once ``head`` has its line)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return _child(*args, stdout=write_end)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [
    ("run", str(GOOD)), ("run", "--board", str(GOOD)), ("run", "--json", str(GOOD)),
    ("demo",), ("demo", "--list"), ("check", str(GOOD)), ("explain", str(GOOD)),
    ("keywords",), ("schema",), ("--help",), ("run", "--help"),
    ("batch", "--json", str(GOOD)),
], ids=lambda a: " ".join(Path(x).name for x in a))
def test_a_closed_reader_exits_quietly_with_status_0(args: tuple[str, ...]) -> None:
    """``docs/command-line.md`` ("Exit status"): 1 means an illegal
    declaration, never "the reader went away". A command whose standard
    output is a pipe closed early stops quietly (nothing on standard error)
    with the status of what it did: 0 for a resolved, valid or listed one."""
    ran = _into_a_closed_pipe(*args)
    assert (ran.returncode, ran.stderr) == (0, "")


@pytest.mark.parametrize("args", [
    ("run", str(ILLEGAL)), ("run", "--json", str(ILLEGAL)), ("explain", str(ILLEGAL)),
    ("check", str(ILLEGAL)), ("demo", "menace-one-blocker"),
], ids=lambda a: " ".join(Path(x).name for x in a))
def test_a_closed_reader_keeps_the_illegal_status(args: tuple[str, ...]) -> None:
    """``docs/command-line.md`` ("Exit status"): 1 an illegal declaration
    (702.111b: a creature with menace blocked by one creature). The status
    is the outcome's whether the reader read it all or went away."""
    ran = _into_a_closed_pipe(*args)
    assert (ran.returncode, ran.stderr) == (1, "")


# ---------------------------------------------------------------------------
# Paths from the command line are printed with control characters escaped
# ---------------------------------------------------------------------------


def test_the_html_report_path_is_printed_escaped(tmp_path: Path) -> None:
    """``docs/command-line.md`` ("Control characters in names"): whatever
    redzone prints shows the characters that would act as escapes. ``run
    --html PATH`` says where it wrote the report with the path's escape
    sequence and right-to-left override escaped."""
    out = tmp_path / f"r{HOSTILE}.html"
    for command in (["run", "--html", str(out), str(GOOD)],
                    ["demo", "--html", str(out)]):
        ran = _invoke(*command)
        assert ran.exit_code == 0, ran.output
        assert out.exists()
        assert f"wrote the visual report to {tmp_path}/r{SHOWN}.html" in ran.stderr
        assert "\x1b" not in ran.stderr and "\u202e" not in ran.stderr


def test_a_bad_out_suffix_is_printed_escaped(tmp_path: Path) -> None:
    """``docs/command-line.md`` ("Control characters in names"): ``batch
    --out PATH`` with a suffix that is no output format is a usage error
    (exit 64) showing the path escaped."""
    ran = _invoke("batch", "--out", str(tmp_path / f"o{HOSTILE}.csv"), str(GOOD))
    assert ran.exit_code == 64, ran.output
    assert f"o{SHOWN}.csv" in ran.stderr
    assert "\x1b" not in ran.stderr and "\u202e" not in ran.stderr


def test_an_unreadable_files_from_list_is_printed_escaped(tmp_path: Path) -> None:
    """``docs/command-line.md`` ("Control characters in names"): ``batch
    --files-from LIST`` naming no file is a usage error (exit 64) showing
    the list's name escaped."""
    ran = _invoke("batch", "--files-from", str(tmp_path / f"l{HOSTILE}.txt"))
    assert ran.exit_code == 64, ran.output
    assert f"can't read {tmp_path}/l{SHOWN}.txt: No such file or directory" in ran.stderr
    assert "\x1b" not in ran.stderr and "\u202e" not in ran.stderr


def test_a_failing_files_name_is_printed_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    """``docs/command-line.md`` ("Control characters in names"; "Exit
    status": ``batch`` resolves each failing file again to show where, with
    ``REDZONE_DEBUG``). The line naming the failing file shows its name
    escaped."""
    name = f"f{HOSTILE}.toml"
    show_failures([JobOutcome(0, name, 3, "{}")], rules=None, hook_timeout=None)
    err = capsys.readouterr().err
    assert f"redzone: f{SHOWN}.toml failed" in err
    assert "\x1b" not in err and "\u202e" not in err


def test_a_dask_address_with_a_bad_port_is_an_executor_that_cant_be_reached() -> None:
    """``docs/batch.md`` (``--executor``; exit 3 "when the --executor can't be
    reached or started"): ``dask://HOST:PORT`` whose port is no number is
    that error naming the address, as ``ray:x`` is, never a traceback."""
    pytest.importorskip("distributed")
    ran = _invoke("batch", "--executor", "dask://127.0.0.1:x", str(GOOD))
    assert ran.exit_code == 3, ran.output
    assert "can't run the batch: can't connect to Dask at dask://127.0.0.1:x" in ran.stderr
