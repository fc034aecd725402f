"""Hostile text on the terminal (issue "Containment II", items 7 and 10).

Names, ids and messages come from scenario files and plugins; whatever the
command line prints of them reaches a terminal, which obeys escape sequences:
a name could set the window title (``ESC ] 0 ; ... BEL``), clear the screen
(``ESC [ 2 J``, or the one-character C1 introducer U+009B), ring the bell,
back over what was printed (backspace, carriage return), or reverse the rest
of a line (U+202E). The guarantee: none of these characters reaches standard
output or standard error as it is, with or without ``--color`` (which makes
rich write as to a terminal); each is shown as a visible escape (``\\x1b``,
``\\u202e``), and rich markup in a name (``[bold]``) is shown as it is. The
HTML report shows the same escapes, so a bidi control can't reorder its line.
"""

from __future__ import annotations

import html.parser
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_kit import FILES, CliResult, hostile
from redzone.formats.outcome import resolve
from redzone.formats.report import render_html
from redzone.formats.scenario import load as load_scenario

NAMES = FILES / "terminal-names.toml"


@pytest.fixture(scope="module")
def illegal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The names of :data:`NAMES` in an illegal block (the ogre has menace,
    702.111b), so that ``check`` and ``explain`` print them in violations
    and suggestions."""
    path = tmp_path_factory.mktemp("terminal") / "terminal-illegal.toml"
    path.write_text(NAMES.read_text(encoding="utf-8").replace(
        "power = 3\n", 'power = 3\nkeywords = ["menace"]\n'), encoding="utf-8")
    return path


#: What must never be written as it is: escape, the C1 control sequence
#: introducer, bell, backspace, carriage return, and the bidi controls.
RAW = re.compile("[\x1b\x9b\x07\x08\r\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

#: rich's own escape sequences, the only ones ``--color`` output may hold:
#: colours (select graphic rendition) and, for the progress bar of ``batch``,
#: hiding the cursor, going back to the start of the line, up a line and
#: erasing it.
SGR = re.compile(r"\x1b\[(?:[0-9;]*[mAK]|\?25[hl])|\r(?=\x1b\[(?:2K|1A))")


def _process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -m redzone ARGS`` in a process of its own: what a terminal
    reading its standard output and error receives."""
    env = {**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"}
    env.pop("NO_COLOR", None)
    # Bytes, decoded here: text mode would read a carriage return as a line feed.
    done = subprocess.run([sys.executable, "-m", "redzone", *map(str, args)],
                          capture_output=True, env=env, timeout=120, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "surrogateescape"),
                                       done.stderr.decode("utf-8", "surrogateescape"))


Redzone = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def redzone_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Redzone:
    """The command line run here, as :func:`_process` runs it (200 columns,
    ``NO_COLOR`` unset): its console is made at each command on the standard
    output and error of the moment, which ``capsys`` holds; what a process of
    its own writes is checked by
    :func:`test_a_process_of_its_own_writes_no_control_character`."""
    from redzone.frontends import cli

    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        status = cli.main([str(a) for a in args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["redzone", *map(str, args)], status, out, err)

    return run


def _raw(text: str) -> list[str]:
    """The hostile characters in ``text`` once rich's own escape sequences
    are taken out."""
    return RAW.findall(SGR.sub("", text))


#: The commands, their arguments (``ILLEGAL``: the :func:`illegal` file) and
#: their exit statuses.
COMMANDS: dict[str, tuple[tuple[str | Path, ...], int]] = {
    "run": (("run", NAMES), 0),
    "run --board": (("run", "--board", NAMES), 0),
    "run (illegal)": (("run", "ILLEGAL"), 1),
    "run --board (illegal)": (("run", "--board", "ILLEGAL"), 1),
    "check": (("check", "ILLEGAL"), 1),
    "explain": (("explain", "ILLEGAL"), 1),
}


@pytest.mark.parametrize("color", [None, "--color"], ids=["piped", "color"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_control_character_from_a_file_reaches_the_terminal(name: str, color: str | None,
                                                                illegal: Path,
                                                                redzone_cli: Redzone) -> None:
    """Item 7: the account, the board, ``check`` and ``explain`` show a
    file's control characters, escape sequences and bidi controls escaped,
    piped or with ``--color``, on standard output and standard error."""
    args, status = COMMANDS[name]
    args = tuple(illegal if a == "ILLEGAL" else a for a in args)
    done = redzone_cli(*args, *((color,) if color else ()))
    assert done.returncode == status, done.stderr
    assert _raw(done.stdout) == [] and _raw(done.stderr) == []
    shown = SGR.sub("", done.stdout)
    assert "\\x1b]0;pwned\\x07" in shown  # the title-setting name, visibly escaped
    assert "\\u202e" in shown


@pytest.mark.parametrize("color", [None, "--color"], ids=["piped", "color"])
def test_a_process_of_its_own_writes_no_control_character(color: str | None,
                                                          illegal: Path) -> None:
    """Item 7, end to end: ``python -m redzone`` in a process of its own (its
    real standard output and error, ``PYTHONIOENCODING=utf-8``) writes the
    account, the violations and the suggestions with every control character
    escaped, piped or with ``--color``; the other commands run here."""
    for args, status in ((("run", NAMES), 0), (("explain", illegal), 1)):
        done = _process(*args, *((color,) if color else ()))
        assert done.returncode == status, done.stderr
        assert _raw(done.stdout) == [] and _raw(done.stderr) == []
        shown = SGR.sub("", done.stdout)
        assert "\\x1b]0;pwned\\x07" in shown and "\\u202e" in shown


def test_rich_markup_in_a_name_is_shown_as_it_is(redzone_cli: Redzone) -> None:
    """Item 7: ``[bold]`` in a name is text, not rich markup, on the board
    (a table) as in the account."""
    for args in (("run", NAMES), ("run", "--board", NAMES)):
        done = redzone_cli(*args)
        assert "[bold]loud[/bold]" in done.stdout, done.stdout


def test_the_escapes_say_which_character_was_there(redzone_cli: Redzone) -> None:
    """Item 7: each control character of the name is shown as its own escape
    (not dropped: rich alone drops bell, backspace and carriage return)."""
    done = redzone_cli("run", NAMES)
    assert "Ogre\\x1b]0;pwned\\x07 [bold]loud[/bold] \\x9b31m\\x07\\x08\\rback\\u202elive" \
        in done.stdout, done.stdout
    assert "ogre\\x1b[2J" in done.stdout and "bob\\x9b2J" in done.stdout


def test_batch_escapes_a_hostile_file_name(tmp_path: Path, redzone_cli: Redzone) -> None:
    """Item 7: ``redzone batch`` prints file names (they come from a folder's
    listing) escaped, with or without ``--color``."""
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(NAMES, folder / "x\x1b]0;pwned\x07\u202e[bold]y.toml")
    for color in ((), ("--color",)):
        done = redzone_cli("batch", *color, folder)
        assert done.returncode == 0, done.stderr
        assert _raw(done.stdout) == [] and _raw(done.stderr) == []
        assert "x\\x1b]0;pwned\\x07\\u202e[bold]y.toml" in SGR.sub("", done.stdout)


def test_a_plugin_failure_message_is_escaped_on_stderr(
        run_cli: Callable[..., CliResult]) -> None:
    """Item 7: the error output of a failing plugin (its message quotes what
    the plugin said) shows control characters escaped."""
    def boom(state: object, blocker: str, attacker: str) -> list[object]:
        raise RuntimeError("\x1b]0;pwned\x07\x1b[2J\u202eboom")

    result = run_cli(["run", "--color", str(NAMES)],
                     hostile("evil\x9b2J", redzone_block_violations=boom))
    assert result.status == 3
    assert _raw(result.err) == [] and _raw(result.out) == []
    assert "\\x1b]0;pwned\\x07\\x1b[2J\\u202eboom" in SGR.sub("", result.err)


def test_keywords_escapes_a_plugin_name(run_cli: Callable[..., CliResult]) -> None:
    """Item 7: ``redzone keywords`` shows a plugin's name escaped."""
    from redzone import KeywordSpec

    plugin = hostile("evil\x1b]0;pwned\x07\u202e",
                     redzone_keywords=lambda: [KeywordSpec("venom", "702.1")])
    result = run_cli(["keywords"], plugin)
    assert result.status == 0, result.err
    assert _raw(result.out) == [] and _raw(result.err) == []
    assert "evil\\x1b]0;pwned\\x07\\u202e" in result.out


def test_json_output_keeps_the_exact_names(redzone_cli: Redzone) -> None:
    """Item 7: ``--json`` is already safe (JSON escapes control characters)
    and stays exact: the names are the file's, not the terminal's escapes."""
    import json

    done = redzone_cli("run", "--json", NAMES)
    assert _raw(done.stdout) == []
    players = json.loads(done.stdout)["players"]
    assert "alice\x1b]0;pwned\x07" in players and "bob\x9b2J" in players


class _Text(html.parser.HTMLParser):
    """The text of each timeline event (``li.event``), and every element's
    name, attribute name and attribute value."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[str] = []
        self.tags: list[str] = []
        self.attributes: list[str] = []
        self.names: list[str] = []
        self._in_event = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend(v or "" for _k, v in attrs)
        self.names.extend(k for k, _v in attrs)
        if tag == "li" and ("class", "event") in attrs:
            self._in_event += 1
            self.events.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._in_event:
            self._in_event -= 1

    def handle_data(self, data: str) -> None:
        if self._in_event:
            self.events[-1] += data


def test_a_bidi_control_cannot_reorder_a_line_of_the_html_report() -> None:
    """Item 7: in the HTML report a right-to-left override in a name is shown
    escaped, so no text of the page (timeline lines, board, titles) nor any
    attribute holds a bidi or other control character that would reorder or
    drive what follows it."""
    page = render_html(resolve(load_scenario(NAMES)))
    parser = _Text()
    parser.feed(page)
    assert parser.events and any("\\u202e" in e for e in parser.events)
    assert all(_raw(e) == [] for e in parser.events)
    assert _raw(page) == []  # nowhere: text, titles, attributes


def test_html_special_characters_in_names_stay_escaped(tmp_path: Path) -> None:
    """Item 7: ``<``, ``>``, ``&`` and quotes in a name are text in the HTML
    report, never markup (no element or attribute comes from a name)."""
    text = NAMES.read_text(encoding="utf-8").replace(
        "[bold]loud[/bold]", "<script>alert(1)</script>&amp;'\\\"<b onclick=x>")
    path = tmp_path / "markup.toml"
    path.write_text(text, encoding="utf-8")
    page = render_html(resolve(load_scenario(path)))
    parser = _Text()
    parser.feed(page)
    assert "script" not in parser.tags and "onclick" not in parser.names
    assert any("<script>alert(1)</script>&amp;'\"<b onclick=x>" in e for e in parser.events)


@pytest.mark.parametrize("text", [
    "Æther Adept", "Jötun Grunt", "稲妻", "Nissa — Voice of Zendikar", "🐻‍❄️ 👨‍👩‍👧",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland's flag
    "می\u200cخواهم", "C:\\cards\\x1b"])
def test_ordinary_text_is_printed_as_it_is(text: str) -> None:
    """Item 7: accents, CJK, dashes, emoji (with their zero-width joiners and
    tag characters), the zero-width non-joiner of Persian and backslashes are
    not escaped."""
    from redzone.kernel.display import visible

    assert visible(text) == text


@pytest.mark.parametrize(("text", "shown"), [
    ("a\u200bb", "a\\u200bb"),  # zero-width space: two names would look the same
    ("a\u2060b\ufeff", "a\\u2060b\\ufeff"),  # word joiner, byte order mark
    ("a\u00adb", "a\\xadb"),  # soft hyphen
    ("a\u2028b\u2029", "a\\u2028b\\u2029"),  # line and paragraph separators
    ("\x85\x9b\x7f", "\\x85\\x9b\\x7f"),  # C1 controls and DEL
    ("a\nb\tc", "a\\nb\\tc"),
    ("\ud800", "\\ud800"),
])
def test_invisible_characters_are_escaped(text: str, shown: str) -> None:
    """Item 7: the other invisible characters (zero-width space, word joiner,
    soft hyphen, separators, C1 controls, surrogates) are escaped too, and
    escaping twice changes nothing."""
    from redzone.kernel.display import visible

    assert visible(text) == shown and visible(shown) == shown
