"""Hostile scenario files, through the real command line (issue 14, items 6-11;
issue 13, item 9).

Every file of ``files/`` is listed in :data:`FILES` with what ``redzone run
--json`` must do: its exit status, and for a refused file the key and line
of the one problem (so nothing else went wrong), or for a resolved one the
life totals. Large inputs (bombs) are generated here rather than stored.
Work is bounded by a count of Python function calls, never by a clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_kit import FILES, CliResult, counting_calls, special_file
from redzone.formats import document, validator

#: The most Python function calls one hostile file may cost to refuse or
#: resolve through the command line (a bundled example costs about 100,000
#: with verify mode on).
CALL_BUDGET = 1_500_000


class Expect:
    """What ``redzone run --json FILE`` must do with a file.

    :param status: the exit status (0 ok, 1 illegal, 2 bad scenario, 3 plugin).
    :param key: the key of the one problem (bad scenarios).
    :param line: its line.
    :param rule: the rule of an illegal declaration or action.
    :param life: the life totals after a resolved combat.
    """

    def __init__(self, status: int, *, key: str | None = None, line: int | None = None,
                 rule: str | None = None, life: dict[str, int] | None = None,
                 message: str = "") -> None:
        self.status = status
        self.key = key
        self.line = line
        self.rule = rule
        self.life = life
        self.message = message


KEYWORD = "permanents[0].keywords[0]"

FILES_EXPECTED: dict[str, Expect] = {
    # item 10: lines follow the TOML grammar
    "multiline-string-header.toml": Expect(2, key="permanents[1].keywords[0]", line=25,
                                           message="unknown keyword 'flyingg'"),
    # item 11: 509.1
    "block-before-blockers.toml": Expect(1, rule="509.1", message="can't be made to block"),
    # item 9: one bounded number grammar
    "toxic-huge.toml": Expect(2, key=KEYWORD, line=13, message="over the bound of 1,000"),
    "toxic-over-bound.toml": Expect(2, key=KEYWORD, line=13, message="over the bound of 1,000"),
    # Containment II item 1: a keyword form declares the bound of its number
    "bounds-mobilize-over-bound.toml": Expect(2, key=KEYWORD, line=14,
                                              message="over the bound of 100"),
    "toxic-arabic-digit.toml": Expect(2, key=KEYWORD, line=13, message="unknown keyword"),
    "toxic-fullwidth-digit.toml": Expect(2, key=KEYWORD, line=13, message="unknown keyword"),
    # item 8: ids (and every string) must be text
    "lone-surrogate-id.json": Expect(2, key="permanents[0].id", message="lone surrogate"),
    "lone-surrogate-name.json": Expect(2, key="permanents[0].name", message="lone surrogate"),
    # issue 13 item 9: unknown keywords
    "noncombat-keywords.toml": Expect(0, life={"alice": 20, "bob": 17}),
    "unknown-keyword-error.toml": Expect(2, key=KEYWORD, line=12,
                                         message="unknown keyword 'moonwalking'"),
    "unknown-keyword-inert.toml": Expect(0, life={"alice": 20, "bob": 17}),
    # Containment II item 7: names that would drive a terminal (test_hostile_terminal.py)
    "terminal-names.toml": Expect(0, life={"alice\x1b]0;pwned\x07": 20, "bob\x9b2J": 20}),
}


def test_every_file_of_the_corpus_has_its_expectation() -> None:
    """The corpus and its table stay in step: no file is left unchecked (a
    file ``<prefix>-*`` is checked by its own module ``test_hostile_<prefix>.py``)."""
    here = Path(__file__).resolve().parent
    on_disk = {p.name for p in FILES.iterdir() if p.suffix in (".toml", ".json")}
    own_module = {name for name in on_disk
                  if (here / f"test_hostile_{name.split('-')[0]}.py").exists()}
    assert on_disk - own_module <= set(FILES_EXPECTED)
    assert set(FILES_EXPECTED) <= on_disk


def check(result: CliResult, expect: Expect) -> None:
    assert result.status == expect.status, (result.out, result.err)
    data = result.json
    if expect.status == 0:
        assert data["ok"] is True
        assert {p: v["life"] for p, v in data["players"].items()} == expect.life
        return
    error = data["error"]
    assert expect.message in error["message"], error["message"]
    if expect.status == 1:
        assert error["kind"] == "illegal_action" and error["rule"] == expect.rule
        return
    assert error["kind"] == "bad_scenario"
    # Exactly one problem: nothing else went wrong.
    assert [(p["key"], p["line"]) for p in error["problems"]] == [(expect.key, expect.line)]


@pytest.mark.parametrize("name", sorted(FILES_EXPECTED))
def test_hostile_file(name: str, run_cli: Callable[..., CliResult]) -> None:
    """Each hostile file gets its exit status and its one problem, naming the
    key and line, within bounded work; ``check`` agrees with ``run``."""
    path = str(FILES / name)
    with counting_calls() as calls:
        result = run_cli(["run", "--json", path])
    check(result, FILES_EXPECTED[name])
    assert calls.count < CALL_BUDGET
    checked = run_cli(["check", "--json", path])
    assert (checked.status == 2) == (FILES_EXPECTED[name].status == 2), checked.out


# ---------------------------------------------------------------------------
# Generated bombs
# ---------------------------------------------------------------------------

HEAD = 'active_player = "alice"\n[players.alice]\n[players.bob]\n'


def _dotted(parts: int) -> str:
    return ".".join(["x"] * parts) + " = 1\n"


BOMBS: dict[str, tuple[Callable[[], str], str, int]] = {
    # item 6: a 40 KB dotted key (tomllib alone spends seconds of CPU on it)
    "dotted-key-40k": (lambda: _dotted(20_000), "longer than 20000 characters", 1),
    # the same, under the line limit: refused by key depth
    "dotted-key-9k": (lambda: _dotted(9_000) + HEAD, "more than 32 dotted parts", 1),
    "table-header-9k": (lambda: HEAD + "[" + ".".join(["t"] * 9_000) + "]\n",
                         "more than 32 dotted parts", 4),
    "inline-tables-deep": (lambda: "a = " + "{ b = " * 2_000 + "1" + " }" * 2_000 + "\n" + HEAD,
                           "nested more than 32 levels deep", 1),
    "arrays-deep": (lambda: "a = " + "[" * 5_000 + "]" * 5_000 + "\n" + HEAD,
                    "nested more than 32 levels deep", 1),
    "dotted-key-33": (lambda: _dotted(33) + HEAD, "more than 32 dotted parts", 1),
    "nested-in-a-table": (lambda: HEAD + _dotted(31), "nested more than 32 levels deep", 4),
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_toml_bombs_are_refused_before_parsing(name: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               run_cli: Callable[..., CliResult]) -> None:
    """Item 6: key depth, line length and nesting are checked by a linear
    pre-scan before the TOML parser sees the text: exit 2 at once, naming the
    line, in a few thousand calls."""
    make, message, line = BOMBS[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(make(), encoding="utf-8")
    parsed: list[int] = []
    real = document.tomllib.loads
    monkeypatch.setattr(document.tomllib, "loads", lambda text: parsed.append(1) or real(text))
    with counting_calls() as calls:
        result = run_cli(["run", "--json", str(path)])
    assert not parsed  # the TOML parser never saw it
    assert result.status == 2, result.out
    error = result.json["error"]
    assert message in error["message"] and error["line"] == line
    assert calls.count < 200_000, calls.count


def test_a_dotted_key_of_32_parts_is_still_accepted() -> None:
    """The depth limit is 32: a key of 32 parts reaches the parser (and the
    schema, which refuses the unknown key ``x``)."""
    lines, limit = document.toml_prescan(_dotted(32) + HEAD)
    assert limit is None and (*["x"] * 32,) in lines


def test_did_you_mean_is_bounded(tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """Item 7: 500 attackers no permanent is, on a board of 500 permanents (a
    file within every limit): each is reported, but only the first 50 get a
    "did you mean", each among at most 200 candidates; the work stays a small
    multiple of loading the board (without the bound it is 500 x 500
    comparisons)."""
    perms = [{"id": f"knight-of-the-realm-{i:03d}", "controller": "alice", "power": 1,
              "toughness": 1} for i in range(500)]
    attacks = {f"knight-of-the-reaim-{i:03d}": "bob" for i in range(500)}
    doc = {"active_player": "alice", "players": {"alice": {}, "bob": {}},
           "permanents": perms, "combat": {"attacks": attacks}}
    path = tmp_path / "many-unknown-ids.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with counting_calls() as calls:
        result = run_cli(["run", "--json", str(path)])
    assert result.status == 2
    problems = result.json["error"]["problems"]
    assert len(problems) == 500
    hinted = [p for p in problems if "did you mean" in p["message"]]
    assert len(hinted) == validator.MAX_SUGGESTIONS
    assert "did you mean 'knight-of-the-realm-000'" in problems[0]["message"]
    # about 570,000 calls; a suggestion for each of the 500 costs 3.9 million
    assert calls.count < 2_000_000, calls.count


def test_unknown_keywords_get_bounded_suggestions(tmp_path: Path,
                                                  run_cli: Callable[..., CliResult]) -> None:
    """Item 7 for keywords: 500 unknown keywords are each reported; only the
    first ones get close matches."""
    perms: list[dict[str, Any]] = [
        {"id": f"c{i}", "controller": "alice", "power": 1, "toughness": 1,
         "keywords": [f"flyng {i}"]} for i in range(500)]
    doc = {"active_player": "alice", "players": {"alice": {}, "bob": {}}, "permanents": perms}
    path = tmp_path / "many-unknown-keywords.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with counting_calls() as calls:
        result = run_cli(["run", "--json", str(path)])
    assert result.status == 2
    problems = result.json["error"]["problems"]
    assert len(problems) == 500
    assert sum("did you mean" in p["message"] for p in problems) <= validator.MAX_SUGGESTIONS
    assert calls.count < 6_000_000, calls.count


# ---------------------------------------------------------------------------
# Only regular files are read as scenarios: a FIFO, a device or a directory
# is refused at once, never waited on
# ---------------------------------------------------------------------------


def _child(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a child process. The timeout only keeps a regression
    (a FIFO opened for reading blocks for ever) from hanging the suite; the
    assertion is the exit status and the message."""
    return subprocess.run([sys.executable, *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=30, check=False)


def _special(kind: str, tmp_path: Path) -> Path:
    """A FIFO, a device (a link to ``/dev/zero``) or a directory called
    ``combat.toml``."""
    return special_file(kind, tmp_path / "combat.toml")


SPECIAL_KINDS = ["fifo", "device", "directory"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", SPECIAL_KINDS)
def test_a_scenario_path_that_is_not_a_regular_file_is_refused_at_once(
        kind: str, tmp_path: Path) -> None:
    """``redzone run PATH`` naming a FIFO, a device or a directory is a
    bad scenario naming the file (exit 2) at once: only regular files are
    opened (a FIFO would wait for a writer, ``/dev/zero`` never ends), by
    the same code that opens card files."""
    path = _special(kind, tmp_path)
    ran = _child("-m", "redzone", "run", "--json", str(path), cwd=tmp_path)
    assert ran.returncode == 2, ran.stdout + ran.stderr
    error = json.loads(ran.stdout)["error"]
    assert error["kind"] == "bad_scenario", error
    assert error["file"] == str(path), error
    assert "not a regular file" in error["message"], error


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_named_to_batch_or_simulate_is_that_jobs_error(tmp_path: Path) -> None:
    """A FIFO named explicitly to ``redzone batch`` or to
    ``redzone.simulate`` is that job's bad-scenario outcome, at once; the
    other jobs run."""
    fifo = _special("fifo", tmp_path)
    good = tmp_path / "good.toml"
    good.write_text(_GOOD, encoding="utf-8")
    ran = _child("-m", "redzone", "batch", "--json", str(fifo), str(good), cwd=tmp_path)
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert "not a regular file" in ran.stdout + ran.stderr
    code = ("import sys, redzone\n"
            "for o in redzone.simulate(sys.argv[1:]):\n"
            "    print(o.source, o.status, o.kind, 'not a regular file' in o.json)\n")
    ran = _child("-c", code, str(fifo), str(good), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [f"{fifo} 2 bad_scenario True", f"{good} 0 resolved False"]


_GOOD = """active_player = "alice"
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


def test_a_scenario_from_standard_input_is_still_read(tmp_path: Path) -> None:
    """``redzone run -`` reads the scenario from standard input (a pipe, not
    a regular file) as before."""
    ran = _child("-m", "redzone", "run", "--json", "-", cwd=tmp_path, stdin=_GOOD)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert json.loads(ran.stdout)["players"]["bob"]["life"] == 18
