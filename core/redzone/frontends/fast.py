"""``redzone run --json FILE`` without the command-line toolkit.

The console script starts here for the one command that scripts run most:
resolving a scenario file into its JSON outcome. That command needs neither
click (argument parsing), rich (text output) nor the report modules, and
importing them is most of a cold start's cost. So when the arguments are
exactly ``run --json FILE`` (in either order, ``FILE`` a path or ``-``), the
command runs here, with the same steps, output bytes, diagnostics and exit
statuses as the full command line (:mod:`redzone.frontends.cli`); any other
arguments go to the full command line, which also does the parsing, the help
and the usage errors.

What is rare stays exact by using the same tools as the full command line:
notes and failures on standard error are printed through the same functions
(which import rich or click then); output to a stream whose encoding click
would correct is written through click.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console

    from redzone.formats.scenario import Document, Scenario

#: Exit status of a resolved scenario, and of an unexpected failure
#: (:data:`redzone.formats.outcome.EXIT_OK`, ``EXIT_FAILURE``).
EXIT_OK = 0
EXIT_FAILURE = 3

#: The name a scenario read from standard input is reported under.
STDIN_NAME = "<stdin>"


def run_json_file(argv: Sequence[str]) -> str | None:
    """The ``FILE`` of ``argv`` when it is exactly ``run --json FILE`` or
    ``run FILE --json`` (``FILE`` not an option, or ``-``), else ``None``.

    :param argv: the arguments after the program name.
    """
    if len(argv) != 3 or argv[0] != "run":
        return None
    rest = [a for a in argv[1:] if a != "--json"]
    if len(rest) != 1:
        return None
    path = rest[0]
    if path.startswith("-") and path != "-":
        return None
    return path


def console(color: bool | None, *, stderr: bool = False) -> Console:
    """A console: colour on a terminal (or with ``--color``), plain text when
    piped, with ``--no-color`` or when ``NO_COLOR`` is set (``--color`` wins
    over ``NO_COLOR``); it prints nothing hidden
    (:class:`redzone.frontends.terminal.Console`).

    :param color: ``--color`` (``True``), ``--no-color`` (``False``) or neither.
    :param stderr: write to standard error instead of standard output.
    """
    from redzone.frontends.terminal import Console

    return Console(
        file=sys.stderr if stderr else sys.stdout,
        force_terminal=True if color else None,
        color_system=None if color is False else ("standard" if color else "auto"),
        no_color=False if color else None,
        highlight=False,
        emoji=False,
    )


def read_stdin_document(text: str) -> Document:
    """A scenario read from standard input: JSON when it starts with ``{``,
    otherwise TOML (scenario format, "The command line").

    :param text: what standard input held.
    """
    from redzone.formats.scenario import parse_text

    fmt = "json" if text.lstrip("\ufeff \t\r\n").startswith("{") else "toml"
    return parse_text(text.removeprefix("\ufeff"), file=STDIN_NAME, format=fmt)


def load(path: str, rules: str | None, display: str | None = None) -> Scenario:
    """The scenario in ``path`` (``-``: standard input), built with the
    command line's engine (:func:`redzone.formats.outcome.command_engine`:
    verify mode on).

    :param path: the file.
    :param rules: the rules edition overriding the file's, if any.
    :param display: the name to report the file under, if not its path.
    :raises ScenarioError: for a bad file.
    :raises PluginError: when a plugin fails while the scenario is built.
    """
    import attrs

    from redzone.formats.outcome import command_engine
    from redzone.formats.scenario import build, read_document

    document = read_stdin_document(sys.stdin.read()) if path == "-" else read_document(path)
    if display is not None:
        document = attrs.evolve(document, file=display)
    return build(document, rules=rules, engine_factory=command_engine)


def notes(scenario: Scenario, color: bool | None, more: Sequence[str] = ()) -> None:
    """Notes about the scenario (card abilities redzone doesn't provide...):
    diagnostics, on standard error.

    :param scenario: the scenario built.
    :param color: the colour option.
    :param more: the notes of resolving or checking it (assignment entries
        left unused...), after the scenario's own.
    """
    if scenario.notes or more:
        err = console(color, stderr=True)
        for note in (*scenario.notes, *more):
            err.print(f"redzone: note: {note}", soft_wrap=True)


def _plain(stream: TextIO | None) -> bool:
    """Whether click would write text to ``stream`` as it is: a stream whose
    encoding is not ASCII (click re-encodes those as UTF-8), on a system
    whose console click doesn't wrap."""
    if stream is None or sys.platform == "win32":
        return False
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name != "ascii"
    except LookupError:
        return False


def echo(text: str) -> None:
    """Print ``text`` on standard output as ``click.echo(text, nl=False)``
    does for JSON text (which has no escape sequences to strip).

    :param text: the text.
    """
    out = sys.stdout
    if not _plain(out):
        import click

        click.echo(text, nl=False)
        return
    if text:
        out.write(text)
    out.flush()


def run_json(path: str) -> int:
    """``redzone run --json FILE``: the JSON outcome on standard output; the
    exit status.

    :param path: the scenario file, or ``-`` for standard input.
    """
    try:
        try:
            return _run_json(path)
        except BrokenPipeError:
            # The reader went away (``redzone run --json x | head``): stop quietly.
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_OK
        except Exception as exc:
            if os.environ.get("REDZONE_DEBUG"):
                traceback.print_exc()
            from redzone.frontends.terminal import echo as echo_text

            echo_text(f"redzone: internal error: {type(exc).__name__}: {exc} (this is a bug; "
                      "set REDZONE_DEBUG=1 to see where)", err=True)
            return EXIT_FAILURE
    except KeyboardInterrupt:
        import click

        click.echo(file=sys.stderr)
        click.echo("Aborted!", err=True)
        return 1


def _run_json(path: str) -> int:
    from redzone.formats.outcome import dumps, error_json, exit_status, outcome_json, resolve
    from redzone.kernel.errors import PluginError, ScenarioError

    try:
        scenario = load(path, None)
        res = resolve(scenario)
    except (ScenarioError, PluginError) as exc:
        echo(dumps(error_json(exc)))
        return exit_status(exc)
    notes(scenario, None, res.notes)
    echo(dumps(outcome_json(res)))
    return res.exit_status


__all__ = ["STDIN_NAME", "console", "echo", "load", "notes", "read_stdin_document", "run_json",
           "run_json_file"]
