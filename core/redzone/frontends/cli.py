"""The ``redzone`` command line.

- ``redzone run FILE``: resolve a scenario and print an account of the combat
  (``--json``: the JSON outcome of the scenario format; ``--board``: a compact
  board; ``--html OUT.html``: a self-contained visual report).
- ``redzone check FILE``: validate the file and the declarations without
  dealing damage; every problem at once.
- ``redzone explain FILE``: for an illegal declaration or assignment, the
  rule, the objects, and what would be legal instead.
- ``redzone keywords``: the loaded keyword plugins.
- ``redzone demo [NAME]``: run a bundled example (``--list`` lists them).
- ``redzone cards PATH NAME``: what redzone reads from a card in a card file.
- ``redzone schema``: the JSON Schema of the scenario format.

``FILE`` may be ``-``: the scenario is read from standard input (TOML, or JSON
when it starts with ``{``). Every command that prints an outcome, a list or an
explanation takes ``--json``.

Streams: what a command was asked for (the account, the outcome, the list, the
explanation, in text or JSON) goes to standard output; diagnostics (a bad
file's problems in text mode, notes, usage errors, failures) go to standard
error. With ``--json`` the error object of the format is the outcome and goes
to standard output.

Exit statuses (scenario format): 0 resolved (or valid), 1 an illegal
declaration, assignment or action, 2 a bad scenario file, 3 a failing plugin
(or redzone itself), 64 a command-line usage error (a bad option or value, an
unknown command or demo name).

Cold start: this module imports what parsing the arguments and resolving a
scenario take (click, the scenario loader, the kernel); rich, the account,
the board, the HTML report, the card reader and the bundled examples are
imported by the commands that print them, and ``redzone batch`` (its options
and the execution layer behind them) when it is asked for or listed
(:data:`LAZY_COMMANDS`), so ``redzone run --json FILE`` imports none of them.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import click

from redzone._version import __version__
from redzone.formats.outcome import (
    EXIT_BAD_SCENARIO,
    EXIT_FAILURE,
    EXIT_ILLEGAL,
    EXIT_OK,
    Resolution,
    check_report,
    command_engine,
    dumps,
    error_json,
    exit_status,
    outcome_json,
    resolve,
)
from redzone.formats.scenario import (
    MAX_BYTES,
    Document,
    Scenario,
    ScenarioProblems,
    build,
    parse_text,
    read_document,
    schema_text,
)
from redzone.frontends.options import rules_option
from redzone.kernel.display import visible
from redzone.kernel.engine import Engine
from redzone.kernel.errors import PluginError, RulesError, ScenarioError

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])

#: Exit status of a command-line usage error (BSD's EX_USAGE), so that 2 keeps
#: meaning "the scenario file is bad".
EXIT_USAGE = 64


#: The name a scenario read from standard input is reported under.
STDIN_NAME = "<stdin>"


def _console(color: bool | None, *, stderr: bool = False) -> Console:
    """The console text goes to (:func:`redzone.frontends.terminal.console`;
    rich is imported here, by the commands that print text)."""
    from redzone.frontends.terminal import console

    return console(color, stderr=stderr)


def _echo(message: str = "", *, err: bool = False) -> None:
    """A plain line, made visible (:func:`redzone.frontends.terminal.echo`)."""
    from redzone.frontends.terminal import echo

    echo(message, err=err)


def read_stdin_document(text: str) -> Document:
    """A scenario read from standard input: JSON when it starts with ``{``,
    otherwise TOML (scenario format, "The command line").

    :param text: what standard input held.
    """
    fmt = "json" if text.lstrip("\ufeff \t\r\n").startswith("{") else "toml"
    return parse_text(text.removeprefix("\ufeff"), file=STDIN_NAME, format=fmt)


def read_stdin_text() -> str:
    """What standard input holds, as text, read with a bound: at most
    :data:`~redzone.formats.scenario.MAX_BYTES` bytes and one more are read,
    so that an input over the limit is refused as a file over it is
    (guarantee 11), whatever follows (``redzone run - < /dev/zero``). The
    bytes are decoded as standard input's own text stream decodes them.

    :raises ScenarioProblems: naming :data:`STDIN_NAME`, when standard input
        is closed (``<&-``) or can't be read, holds more than the limit, or
        isn't text in its encoding.
    """
    def fail(message: str, line: int | None = None) -> ScenarioProblems:
        return ScenarioProblems([ScenarioError(message, file=STDIN_NAME, line=line)])

    stdin = sys.stdin
    if stdin is None or stdin.closed:
        raise fail("standard input is closed; give the scenario on it, or name its file")
    binary = getattr(stdin, "buffer", None)
    try:
        if binary is None:  # a text stream only (one put in standard input's place)
            text = stdin.read(MAX_BYTES + 1)
            size = len(text.encode("utf-8", "surrogatepass"))
        else:
            raw: bytes = binary.read(MAX_BYTES + 1)
            size = len(raw)
    except OSError as exc:
        raise fail(f"can't read standard input: {exc.strerror or exc}") from None
    if size > MAX_BYTES:  # (the message of a file over the limit)
        raise fail(f"the file is larger than {MAX_BYTES} bytes (1 MiB); it is refused")
    if binary is None:
        return text
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    try:
        return raw.decode(encoding, getattr(stdin, "errors", None) or "strict")
    except UnicodeDecodeError as exc:
        raise fail(f"standard input is not valid {encoding} text ({exc.reason} at byte "
                   f"{exc.start})", raw.count(b"\n", 0, exc.start) + 1) from None


def _load(path: str, rules: str | None, display: str | None = None) -> Scenario:
    """The scenario in ``path`` (``-``: standard input), built with the
    command line's engine (:func:`redzone.formats.outcome.command_engine`:
    verify mode on).

    :param path: the file.
    :param rules: the rules edition overriding the file's, if any.
    :param display: the name to report the file under, if not its path.
    :raises ScenarioError: for a bad file.
    :raises PluginError: when a plugin fails while the scenario is built.
    """
    document = read_stdin_document(read_stdin_text()) if path == "-" else read_document(path)
    if display is not None:
        document = attrs.evolve(document, file=display)
    return build(document, rules=rules, engine_factory=command_engine)


def _notes(scenario: Scenario, color: bool | None, more: Sequence[str] = ()) -> None:
    """Notes about the scenario (card abilities redzone doesn't provide...):
    diagnostics, on standard error.

    :param scenario: the scenario built.
    :param color: the colour option.
    :param more: the notes of resolving or checking it (assignment entries
        left unused...), after the scenario's own.
    """
    if scenario.notes or more:
        err = _console(color, stderr=True)
        for note in (*scenario.notes, *more):
            err.print(f"redzone: note: {note}", soft_wrap=True)


def debugging() -> bool:
    """Whether ``REDZONE_DEBUG`` is set (to anything but the empty string):
    a failure of status 3 then shows its traceback on standard error."""
    return bool(os.environ.get("REDZONE_DEBUG"))


def show_traceback(error: BaseException) -> None:
    """With ``REDZONE_DEBUG`` set, the traceback of ``error`` on standard
    error, for a failure that exits with status 3 (a failing plugin, or
    redzone itself). A :class:`~redzone.PluginError`'s cause is the plugin's
    own exception, so the plugin's frames come first, then the kernel's call
    of the hook.

    :param error: the error, as caught (its ``__traceback__`` set).
    """
    if debugging():
        import traceback  # (for a failure shown with REDZONE_DEBUG: not on the way of a run)

        traceback.print_exception(error, file=sys.stderr)
        sys.stderr.flush()


def _silence_stdout() -> None:
    """Point standard output at the null device once its reader went away
    (``redzone run x | head -1``), so that nothing more written to it
    (Python's last flush included) fails."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@contextlib.contextmanager
def _printing(status: int) -> Iterator[None]:
    """Printing what a command was asked for, the command's exit status
    being ``status``: when the reader goes away meanwhile, the printing
    stops quietly and the command exits with ``status`` all the same (a
    resolved combat 0, an illegal declaration 1), however much the reader
    had read.

    :param status: the command's exit status.
    :raises click.exceptions.Exit: with ``status``, when the reader went away.
    """
    try:
        yield
    except BrokenPipeError:
        _silence_stdout()
        raise click.exceptions.Exit(status) from None


def _guard(fn: F) -> F:
    """Never a traceback: an unexpected failure is reported in one line and
    exits with status 3 (``REDZONE_DEBUG=1`` shows the traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            # The reader went away (``redzone keywords | head``): stop quietly.
            _silence_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None
        except Exception as exc:
            show_traceback(exc)
            _echo(f"redzone: internal error: {type(exc).__name__}: {exc} (this is a bug; "
                  "set REDZONE_DEBUG=1 to see where)", err=True)
            raise click.exceptions.Exit(EXIT_FAILURE) from None

    return wrapper  # type: ignore[return-value]


#: The commands defined in a module of their own, imported only when the
#: command is asked for (its help, or running it) or the commands are listed
#: (``redzone --help``): name -> ``module:attribute``.
LAZY_COMMANDS: Mapping[str, str] = {"batch": "redzone.frontends.batch_cli:batch"}


class _Group(click.Group):
    """The command group: a usage error (bad option, bad value, unknown
    command) exits with :data:`EXIT_USAGE`, not click's 2; a reader that
    went away (``redzone schema | head -1``) ends a command quietly with
    status 0, not click's 1 (a command that knows its status says so first,
    :func:`_printing`); the commands of :data:`LAZY_COMMANDS` are imported
    when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            module, _, attr = LAZY_COMMANDS[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attr)
            if not isinstance(command, click.Command):  # pragma: no cover - the table's
                raise TypeError(f"{LAZY_COMMANDS[cmd_name]} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            exc.exit_code = EXIT_USAGE  # type: ignore[misc,unused-ignore]
            raise
        except BrokenPipeError:  # (--help, --version)
            _silence_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.exit_code = EXIT_USAGE  # type: ignore[misc,unused-ignore]
            raise
        except BrokenPipeError:
            _silence_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None


def _color_option(fn: F) -> F:
    return click.option("--color/--no-color", "color", default=None,
                        help="Colour the output (default: only on a terminal, and not "
                             "when NO_COLOR is set).")(fn)


_FILE_RULES = "Rules edition, overriding the scenario's `rules` key"


def _json_option(help_text: str) -> Callable[[F], F]:
    def deco(fn: F) -> F:
        return click.option("--json", "as_json", is_flag=True, help=help_text)(fn)

    return deco


def _fail(error: BaseException, *, as_json: bool, color: bool | None) -> int:
    """Report a bad scenario or a plugin failure (``REDZONE_DEBUG``: with the
    plugin's traceback, :func:`show_traceback`); the exit status."""
    if exit_status(error) == EXIT_FAILURE:
        show_traceback(error)
    if as_json:
        click.echo(dumps(error_json(error)), nl=False)
    else:
        from redzone.frontends.account import render_error, render_problems

        err = _console(color, stderr=True)
        if isinstance(error, ScenarioError):
            render_problems(err, error)
        else:
            render_error(err, error)
    return exit_status(error)


def _write_html(res: Resolution, out: str) -> None:
    from redzone.formats.report import render_html

    try:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(render_html(res))
    except OSError as exc:
        raise click.BadParameter(f"can't write {out!r}: {exc.strerror or exc}",
                                 param_hint="'--html'") from None
    # Where it went, on standard error (standard output is the account or JSON),
    # escaped as every name printed is.
    click.echo(f"redzone: wrote the visual report to {visible(os.path.abspath(out))}",
               err=True)


def _run(path: str, *, as_json: bool, rules: str | None, color: bool | None,
         display: str | None = None, html: str | None = None, board: bool = False) -> int:
    try:
        scenario = _load(path, rules, display)
        res = resolve(scenario)
    except (ScenarioError, PluginError) as exc:
        return _fail(exc, as_json=as_json, color=color)
    with _printing(res.exit_status):
        _notes(scenario, color, res.notes)
        if html is not None:
            _write_html(res, html)
        if as_json:
            click.echo(dumps(outcome_json(res)), nl=False)
        elif board:
            from redzone.frontends.board import render_compact_board

            render_compact_board(_console(color), res)
        else:
            from redzone.frontends.account import render_resolution

            render_resolution(_console(color), res)
    return res.exit_status


def _run_options(fn: F) -> F:
    fn = click.option("--board", is_flag=True,
                      help="Print a compact board (before, after, who attacked and "
                           "blocked what) instead of the step-by-step account.")(fn)
    fn = click.option("--html", "html", metavar="OUT.html", default=None,
                      help="Also write a self-contained visual report (one HTML page, "
                           "no network).")(fn)
    return fn


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="redzone")
def cli() -> None:
    """redzone: Magic: The Gathering combat, resolved by the Comprehensive Rules.

    FILE may be `-` to read the scenario from standard input.

    Exit status: 0 resolved, 1 illegal declaration, 2 bad scenario file,
    3 a plugin failed, 64 bad usage.

    \b
    Example:
      redzone demo
      redzone run combat.toml
    """


@cli.command()
@click.argument("file")
@_json_option("Print the JSON outcome of the scenario format.")
@_run_options
@rules_option(_FILE_RULES)
@_color_option
@click.pass_context
@_guard
def run(ctx: click.Context, file: str, as_json: bool, html: str | None, board: bool,
        rules: str | None, color: bool | None) -> None:
    """Resolve the combat in FILE and print an account of it.

    FILE is TOML, or JSON when its name ends in .json; `-` reads standard
    input (JSON when it starts with `{`).

    \b
    Examples:
      redzone run combat.toml
      redzone run --json combat.toml > outcome.json
      redzone run --html report.html combat.toml
      cat combat.toml | redzone run --board -
    """
    ctx.exit(_run(file, as_json=as_json, rules=rules, color=color, html=html, board=board))


@cli.command(name="check")
@click.argument("file")
@_json_option("Print the problems as JSON.")
@rules_option(_FILE_RULES)
@_color_option
@click.pass_context
@_guard
def check_command(ctx: click.Context, file: str, as_json: bool, rules: str | None,
                  color: bool | None) -> None:
    """Validate FILE and its declarations without dealing damage.

    Lists every problem at once: in the file (keys, types, ids, keywords), then
    in the attack, the blocks and the first combat damage step's assignments;
    when those are legal, the combat is resolved (nothing is shown) to check
    the later steps' assignments and actions as `run` does. FILE may be `-`
    (standard input).

    \b
    Example:
      redzone check combat.toml
    """
    try:
        scenario = _load(file, rules)
        report = check_report(scenario)
    except (ScenarioError, PluginError) as exc:
        ctx.exit(_fail(exc, as_json=as_json, color=color))
    findings = report.findings
    status = EXIT_ILLEGAL if findings else EXIT_OK
    with _printing(status):
        _notes(scenario, color, report.notes)
        if as_json:
            data = {"ok": not findings, "rules": scenario.rules, "problems": [
                {"stage": f.stage, **error_json(f.error)["error"]} for f in findings]}
            click.echo(dumps(data), nl=False)
        else:
            from redzone.frontends.account import render_check

            render_check(_console(color), scenario, findings)
    ctx.exit(status)


@cli.command()
@click.argument("file")
@_json_option("Print the explanation as JSON.")
@rules_option(_FILE_RULES)
@_color_option
@click.pass_context
@_guard
def explain(ctx: click.Context, file: str, as_json: bool, rules: str | None,
            color: bool | None) -> None:
    """Explain what is illegal in FILE and what would be legal instead.

    For an illegal declaration: the rule, the objects, and which creatures may
    legally attack or block what. For an illegal assignment: each wrongly
    assigning creature's legal recipients, the lethal damage it must consider,
    and a legal assignment. FILE may be `-` (standard input).

    \b
    Example:
      redzone explain combat.toml
    """
    from redzone.frontends.account import (
        Names,
        explanation_json,
        render_error,
        render_explanation,
    )

    try:
        scenario = _load(file, rules)
        res = resolve(scenario)
    except (ScenarioError, PluginError) as exc:
        ctx.exit(_fail(exc, as_json=as_json, color=color))
    status = EXIT_OK if res.error is None else EXIT_ILLEGAL
    with _printing(status):
        _notes(scenario, color, res.notes)
        if as_json:
            click.echo(dumps(explanation_json(res)), nl=False)
        elif res.error is None:
            render_explanation(_console(color), res)
        else:
            console = _console(color)
            name = Names([scenario.state, res.failed_state])
            render_error(console, res.error, name, scenario.rules)
            console.print()
            render_explanation(console, res, name)
    ctx.exit(status)


@cli.command()
@_json_option("Print the keywords as JSON.")
@rules_option("Rules edition whose keywords to list (default: foundations)")
@click.pass_context
@_guard
def keywords(ctx: click.Context, as_json: bool, rules: str | None) -> None:
    """List the loaded keyword plugins: keyword, rule, plugin, distribution, version.

    \b
    Examples:
      redzone keywords
      redzone keywords --rules m10 --json
    """
    try:
        engine = Engine(rules or "foundations")
    except PluginError as exc:
        show_traceback(exc)
        ctx.exit(_json_or_echo(exc, as_json=as_json))
    except RulesError as exc:  # a usage error: on standard error, --json or not
        _echo(f"redzone: {exc}", err=True)
        ctx.exit(EXIT_USAGE)
    rows = [{"keyword": k.spec.name, "rule": k.spec.rule, "plugin": k.plugin,
             "distribution": k.distribution, "version": k.version,
             "summary": k.spec.summary} for k in engine.keywords()]
    actions, abilities = _plugin_actions(engine)
    if as_json:
        click.echo(dumps({"rules": engine.rules, "keywords": rows, "actions": actions,
                          "abilities": abilities}), nl=False)
        ctx.exit(EXIT_OK)
    _echo(f"Rules edition in force: {engine.rules} ({engine.edition.title}); "
          f"rules cited: {'; '.join(engine.edition.rules)}")
    headers = ("keyword", "rule", "plugin", "distribution", "version")
    cells = [[visible(str(r[h])) for h in headers] for r in rows]  # escaped, then measured
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    _echo("  ".join(h.upper().ljust(w) for h, w in zip(headers, widths, strict=True)))
    for row in cells:
        _echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    if actions:
        _echo("\nAction kinds of plugins (a scenario file's `do = \"KIND\"`, with these keys):")
        for a in actions:
            keys = ", ".join(f"{f['name']}: {f['type']}" + ("" if f["required"] else " (optional)")
                             for f in a["fields"])
            _echo(visible(f"  {a['do']} ({a['rule']}, plugin {a['plugin']}): {keys or 'no keys'}"))
    if abilities:
        _echo("\nActivated abilities (`do = \"activate\"`, `ability = \"NAME\"`, `cost = {...}`):")
        for b in abilities:
            cost = ", ".join(f"{c['name']}: {c['type']}" for c in b["cost"])
            when = f"; only in {', '.join(b['timing'])}" if b["timing"] else ""
            _echo(visible(f"  {b['ability']} ({b['rule']}, plugin {b['plugin']}): cost "
                          f"{{{cost}}}; from the {' or '.join(b['zones'])}{when}"))
    ctx.exit(EXIT_OK)


def _plugin_actions(engine: Engine) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The action kinds plugins declare, with their keys, and the activated
    abilities, with their cost's choices, as ``redzone keywords`` lists them."""
    from redzone.formats.action_fields import action_fields, plugin_kinds, type_text

    actions = [{"do": do, "rule": engine.hooks.action_specs[do][0].rule, "plugin": plugin,
                "summary": engine.hooks.action_specs[do][0].summary
                or ((cls.__doc__ or "").strip().splitlines() or [""])[0],
                "fields": [{"name": f.name, "type": type_text(f.annotation),
                            "required": f.required, "writable": f.schema is not None}
                           for f in action_fields(cls)]}
               for do, (cls, plugin) in plugin_kinds(engine.hooks.action_specs).items()]
    abilities = [{"ability": name, "rule": a.rule, "plugin": plugin, "summary": a.summary,
                  "cost": [{"name": k, "type": type_text(tp)} for k, tp in a.cost.items()],
                  "timing": list(a.timing), "zones": list(a.zones)}
                 for name, (a, plugin) in engine.hooks.activated_abilities.items()]
    return actions, abilities


@cli.command()
@click.argument("name", required=False)
@click.option("--list", "list_", is_flag=True, help="List the bundled examples.")
@_json_option("Print the JSON outcome instead of the account (with --list: the list).")
@_run_options
@rules_option("Rules edition, overriding the example's `rules` key")
@_color_option
@click.pass_context
@_guard
def demo(ctx: click.Context, name: str | None, list_: bool, as_json: bool, html: str | None,
         board: bool, rules: str | None, color: bool | None) -> None:
    """Run a bundled example scenario (default: baloth-and-boars).

    NAME is one of `redzone demo --list`.

    \b
    Examples:
      redzone demo
      redzone demo banding-band-blocked --html banding.html
      redzone demo --list --json
    """
    import redzone.examples as examples

    if list_:
        names = examples.names()
        if as_json:
            click.echo(dumps({"default": examples.DEFAULT, "examples": [
                {"name": n, "title": examples.title(n), "file": str(examples.path(n))}
                for n in names]}), nl=False)
            ctx.exit(EXIT_OK)
        width = max(len(n) for n in names)
        for n in names:
            mark = "*" if n == examples.DEFAULT else " "
            _echo(f"{mark} {n.ljust(width)}  {examples.title(n)}")
        _echo(f"(* runs with no name; the files are in {examples.HERE})")
        ctx.exit(EXIT_OK)
    chosen = name or examples.DEFAULT
    try:
        path = examples.path(chosen)
    except examples.UnknownExampleError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param_hint="'NAME'") from None
    ctx.exit(_run(str(path), as_json=as_json, rules=rules, color=color, html=html, board=board,
                  display=f"{path.name} (bundled example)"))


@cli.command(name="cards")
@click.argument("path", metavar="CARDS_FILE")
@click.argument("names", metavar="NAME", nargs=-1, required=True)
@_json_option("Print the cards as JSON (the keys a scenario's permanent would get).")
@rules_option("Rules edition whose keyword plugins read the abilities (default: foundations)")
@click.pass_context
@_guard
def cards_command(ctx: click.Context, path: str, names: tuple[str, ...], as_json: bool,
                  rules: str | None) -> None:
    """Show what redzone reads from cards in a card file.

    CARDS_FILE is an MTGJSON AtomicCards.json or a Scryfall oracle-cards bulk
    file; each NAME is a card name (exact, or ignoring case).

    \b
    Example:
      redzone cards AtomicCards.json "Serra Angel" "Craw Wurm"
    """
    from redzone.formats import cards as card_data

    try:
        engine = Engine(rules or "foundations")
    except PluginError as exc:
        show_traceback(exc)
        ctx.exit(_json_or_echo(exc, as_json=as_json))
    try:
        found = card_data.lookup(path, names)
    except card_data.CardDataError as exc:
        ctx.exit(_json_or_echo(_card_problems(path, [str(exc)]), as_json=as_json))
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    for wanted in names:
        card = found.get(wanted)
        if card is None:
            problems.append(card_data.not_found(path, wanted))
            continue
        try:
            keys, notes = card_data.permanent_keys(card, engine.keyword)
        except card_data.CardDataError as exc:
            problems.append(str(exc))
            continue
        out.append({"name": card.name, "source": card.source, "keys": keys, "notes": notes,
                    "printed": card.printed_json()})
    if problems and as_json:  # the error object is the outcome (exit 2)
        ctx.exit(_json_or_echo(_card_problems(path, problems), as_json=True))
    if as_json:
        click.echo(dumps({"file": path, "cards": out}), nl=False)
        ctx.exit(EXIT_OK)
    for problem in problems:
        _echo(f"redzone: {problem}", err=True)
    for item in out:
        _echo(card_data.describe(item["printed"], item["keys"], item["notes"]))
    ctx.exit(EXIT_BAD_SCENARIO if problems else EXIT_OK)


def _card_problems(path: str, messages: Sequence[str]) -> ScenarioProblems:
    """The problems of ``redzone cards`` (a card file that can't be read, a
    card it lacks or can't be used) as a bad file's error, naming the card
    file: its ``--json`` error object is ``run --json``'s for a bad file.

    :param path: the card file.
    :param messages: each problem's message.
    """
    return ScenarioProblems([ScenarioError(m, file=path) for m in messages])


def _json_or_echo(error: BaseException, *, as_json: bool) -> int:
    """A command's error on its way out: with ``--json``, the error object
    of the format (:func:`~redzone.formats.outcome.error_json`, as ``run
    --json`` prints it) on standard output, standard error left empty;
    otherwise its message on standard error (each problem of a bad file on
    its own line). The exit status.

    :param error: the error.
    :param as_json: the ``--json`` option.
    """
    if as_json:
        click.echo(dumps(error_json(error)), nl=False)
    elif isinstance(error, ScenarioProblems):
        for problem in error.problems:
            _echo(f"redzone: {problem.detail}", err=True)
    else:
        _echo(f"redzone: {error}", err=True)
    return exit_status(error)


@cli.command()
@_json_option("Print it as JSON: the same output (the schema is JSON already), "
              "taken as every command that prints something takes --json.")
@click.pass_context
def schema(ctx: click.Context, as_json: bool) -> None:
    """Print the JSON Schema of the scenario format (it is JSON already).

    \b
    Example:
      redzone schema > scenario.schema.json
    """
    del as_json  # the output is JSON with it or without it
    click.echo(schema_text(), nl=False)
    ctx.exit(EXIT_OK)



def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, prog_name="redzone",
                      standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        _echo("Aborted!", err=True)
        return 1
    except BrokenPipeError:  # pragma: no cover - _Group.invoke takes it first
        # The reader went away: stop quietly.
        _silence_stdout()
        return EXIT_OK
    return rv if isinstance(rv, int) else 0


__all__ = ["EXIT_USAGE", "STDIN_NAME", "ScenarioProblems", "cli", "debugging", "main",
           "read_stdin_document", "read_stdin_text", "show_traceback"]
