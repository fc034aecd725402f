"""The ``redzone`` command line.

- ``redzone run FILE``: resolve a scenario and print an account of the combat
  (``--json``: the JSON outcome of the scenario format).
- ``redzone check FILE``: validate the file and the declarations without
  dealing damage; every problem at once.
- ``redzone explain FILE``: for an illegal declaration or assignment, the
  rule, the objects, and what would be legal instead.
- ``redzone keywords``: the loaded keyword plugins.
- ``redzone demo [NAME]``: run a bundled example (``--list`` lists them).
- ``redzone schema``: the JSON Schema of the scenario format.

Exit statuses (scenario format): 0 resolved (or valid), 1 an illegal
declaration, assignment or action, 2 a bad scenario file or bad usage; and 3
when a plugin (or redzone itself) fails.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs
import click
from rich.console import Console

import redzone.examples as examples
from redzone._version import __version__
from redzone.formats.outcome import (
    EXIT_BAD_SCENARIO,
    EXIT_FAILURE,
    EXIT_ILLEGAL,
    EXIT_OK,
    check,
    dumps,
    error_json,
    outcome_json,
    resolve,
)
from redzone.formats.scenario import Scenario, ScenarioProblems, build, read_document, schema_text
from redzone.frontends.account import (
    Names,
    render_check,
    render_error,
    render_explanation,
    render_problems,
    render_resolution,
)
from redzone.kernel.editions import EDITIONS
from redzone.kernel.engine import Engine
from redzone.kernel.errors import PluginError, RulesError, ScenarioError

F = TypeVar("F", bound=Callable[..., Any])


def _console(color: bool | None, *, stderr: bool = False) -> Console:
    """A console: colour on a terminal (or with ``--color``), plain text
    when piped (or with ``--no-color``)."""
    return Console(
        file=sys.stderr if stderr else sys.stdout,
        force_terminal=True if color else None,
        color_system=None if color is False else ("standard" if color else "auto"),
        highlight=False,
        emoji=False,
    )


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
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(EXIT_OK) from None
        except Exception as exc:
            if os.environ.get("REDZONE_DEBUG"):
                traceback.print_exc()
            click.echo(f"redzone: internal error: {type(exc).__name__}: {exc} (this is a bug; "
                       "set REDZONE_DEBUG=1 to see where)", err=True)
            raise click.exceptions.Exit(EXIT_FAILURE) from None

    return wrapper  # type: ignore[return-value]


def _color_option(fn: F) -> F:
    return click.option("--color/--no-color", "color", default=None,
                        help="Colour the output (default: only on a terminal).")(fn)


def _rules_option(fn: F) -> F:
    return click.option("--rules", "rules", metavar="EDITION", default=None,
                        help="Rules edition, overriding the file's `rules` "
                             f"(known: {', '.join(EDITIONS)}).")(fn)


def _json_option(help_text: str) -> Callable[[F], F]:
    def deco(fn: F) -> F:
        return click.option("--json", "as_json", is_flag=True, help=help_text)(fn)

    return deco


def _load(path: str, rules: str | None, display: str | None = None) -> Scenario:
    document = read_document(path)
    if display is not None:
        document = attrs.evolve(document, file=display)
    return build(document, rules=rules, engine_factory=functools.partial(Engine, verify=True))


def _fail(error: BaseException, *, as_json: bool, color: bool | None) -> int:
    """Report a bad scenario or a plugin failure; the exit status."""
    if as_json:
        click.echo(dumps(error_json(error)), nl=False)
    else:
        err = _console(color, stderr=True)
        if isinstance(error, ScenarioError):
            render_problems(err, error)
        else:
            render_error(err, error)
    if isinstance(error, ScenarioError):
        return EXIT_BAD_SCENARIO
    return EXIT_FAILURE


def _run(path: str, *, as_json: bool, rules: str | None, color: bool | None,
         display: str | None = None) -> int:
    try:
        scenario = _load(path, rules, display)
        res = resolve(scenario)
    except (ScenarioError, PluginError) as exc:
        return _fail(exc, as_json=as_json, color=color)
    if as_json:
        click.echo(dumps(outcome_json(res)), nl=False)
    else:
        render_resolution(_console(color), res)
    return res.exit_status


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="redzone")
def cli() -> None:
    """redzone: Magic: The Gathering combat, resolved by the Comprehensive Rules.

    Exit status: 0 resolved, 1 illegal declaration, 2 bad scenario file,
    3 a plugin failed.
    """


@cli.command()
@click.argument("file")
@_json_option("Print the JSON outcome of the scenario format.")
@_rules_option
@_color_option
@click.pass_context
@_guard
def run(ctx: click.Context, file: str, as_json: bool, rules: str | None,
        color: bool | None) -> None:
    """Resolve the combat in FILE (TOML, or JSON for *.json) and print an account."""
    ctx.exit(_run(file, as_json=as_json, rules=rules, color=color))


@cli.command(name="check")
@click.argument("file")
@_json_option("Print the problems as JSON.")
@_rules_option
@_color_option
@click.pass_context
@_guard
def check_command(ctx: click.Context, file: str, as_json: bool, rules: str | None,
                  color: bool | None) -> None:
    """Validate FILE and its declarations without dealing damage.

    Lists every problem at once: in the file (keys, types, ids, keywords), then
    in the attack, the blocks and the first combat damage step's assignments.
    """
    try:
        scenario = _load(file, rules)
        findings = check(scenario)
    except (ScenarioError, PluginError) as exc:
        ctx.exit(_fail(exc, as_json=as_json, color=color))
    if as_json:
        data = {"ok": not findings, "rules": scenario.rules, "problems": [
            {"stage": f.stage, **error_json(f.error)["error"]} for f in findings]}
        click.echo(dumps(data), nl=False)
    else:
        render_check(_console(color), scenario, findings)
    ctx.exit(EXIT_ILLEGAL if findings else EXIT_OK)


@cli.command()
@click.argument("file")
@_rules_option
@_color_option
@click.pass_context
@_guard
def explain(ctx: click.Context, file: str, rules: str | None, color: bool | None) -> None:
    """Explain what is illegal in FILE and what would be legal instead.

    For an illegal declaration: the rule, the objects, and which creatures may
    legally attack or block what. For an illegal assignment: each creature's
    legal recipients, the lethal damage it must consider, and a legal
    assignment.
    """
    try:
        scenario = _load(file, rules)
        res = resolve(scenario)
    except (ScenarioError, PluginError) as exc:
        ctx.exit(_fail(exc, as_json=False, color=color))
    console = _console(color)
    if res.error is None:
        render_explanation(console, res)
        ctx.exit(EXIT_OK)
    name = Names([scenario.state, res.failed_state])
    render_error(console, res.error, name)
    console.print()
    render_explanation(console, res, name)
    ctx.exit(EXIT_ILLEGAL)


@cli.command()
@_json_option("Print the keywords as JSON.")
@_rules_option
@click.pass_context
@_guard
def keywords(ctx: click.Context, as_json: bool, rules: str | None) -> None:
    """List the loaded keyword plugins: keyword, rule, plugin, distribution, version."""
    try:
        engine = Engine(rules or "foundations")
    except (RulesError, PluginError) as exc:
        click.echo(f"redzone: {exc}", err=True)
        ctx.exit(EXIT_BAD_SCENARIO if not isinstance(exc, PluginError) else EXIT_FAILURE)
    rows = [{"keyword": k.spec.name, "rule": k.spec.rule, "plugin": k.plugin,
             "distribution": k.distribution, "version": k.version,
             "summary": k.spec.summary} for k in engine.keywords()]
    if as_json:
        click.echo(dumps({"rules": engine.rules, "keywords": rows}), nl=False)
        ctx.exit(EXIT_OK)
    click.echo(f"Rules edition in force: {engine.rules} ({engine.edition.title}); "
               f"rules cited: {'; '.join(engine.edition.rules)}")
    headers = ("keyword", "rule", "plugin", "distribution", "version")
    widths = [max(len(h), *(len(str(r[h])) for r in rows)) if rows else len(h)
              for h in headers]
    click.echo("  ".join(h.upper().ljust(w) for h, w in zip(headers, widths, strict=True)))
    for row in rows:
        click.echo("  ".join(str(row[h]).ljust(w)
                             for h, w in zip(headers, widths, strict=True)).rstrip())
    ctx.exit(EXIT_OK)


@cli.command()
@click.argument("name", required=False)
@click.option("--list", "list_", is_flag=True, help="List the bundled examples.")
@_json_option("Print the JSON outcome instead of the account.")
@_rules_option
@_color_option
@click.pass_context
@_guard
def demo(ctx: click.Context, name: str | None, list_: bool, as_json: bool,
         rules: str | None, color: bool | None) -> None:
    """Run a bundled example (default: the one the README shows).

    NAME is one of `redzone demo --list`.
    """
    if list_:
        names = examples.names()
        width = max(len(n) for n in names)
        for n in names:
            mark = "*" if n == examples.DEFAULT else " "
            click.echo(f"{mark} {n.ljust(width)}  {examples.title(n)}")
        click.echo(f"(* runs with no name; the files are in {examples.HERE})")
        ctx.exit(EXIT_OK)
    chosen = name or examples.DEFAULT
    try:
        path = examples.path(chosen)
    except examples.UnknownExampleError as exc:
        click.echo(f"redzone: {exc}", err=True)
        ctx.exit(EXIT_BAD_SCENARIO)
    ctx.exit(_run(str(path), as_json=as_json, rules=rules, color=color,
                  display=f"{path.name} (bundled example)"))


@cli.command()
@click.pass_context
def schema(ctx: click.Context) -> None:
    """Print the JSON Schema of the scenario format."""
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
        click.echo("Aborted!", err=True)
        return 1
    except BrokenPipeError:
        # The reader went away (`redzone run x | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return rv if isinstance(rv, int) else 0


__all__ = ["ScenarioProblems", "cli", "main"]
