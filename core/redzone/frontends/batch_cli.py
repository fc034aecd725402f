"""``redzone batch PATH...``: resolve many scenario files at once.

Files and folders (searched for ``*.toml`` and ``*.json``) are resolved with
:func:`redzone.execution.simulation.simulate`: here one after another, on ``--jobs
N`` local processes, or on a Dask or Ray cluster (``--executor``). A progress
bar shows on a terminal; ``--json`` writes one JSON line per file, in input
order. A summary follows: resolved, illegal, bad files and failing plugins,
by keyword, and the slowest files. The exit status is the worst of the
files' statuses (0 resolved, 1 illegal, 2 bad scenario file, 3 a plugin or a
worker failed). Each file is resolved with the engine of ``redzone run``
(:func:`redzone.formats.outcome.command_engine`: verify mode on), on every
worker, and its status is the one ``redzone run`` exits with for it.

The command line registers this command with the others, so this module
imports only what defining it takes; the execution layer and rich are
imported when a batch runs.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click

from redzone.formats.outcome import EXIT_BAD_SCENARIO, EXIT_FAILURE, command_engine
from redzone.kernel.display import json_visible
from redzone.kernel.editions import EDITIONS
from redzone.kernel.errors import RulesError

if TYPE_CHECKING:
    from rich.console import Console

    from redzone.execution.jobs import JobOutcome

#: The summary's columns: status -> heading.
COLUMNS = {0: "resolved", 1: "illegal", 2: "bad file", 3: "failing"}

#: How many of the slowest files the summary lists.
SLOWEST = 5


def json_line(result: JobOutcome) -> str:
    """One line of ``--json``: the file, its status and its JSON outcome."""
    return (f'{{"file": {json.dumps(result.source, ensure_ascii=False)}, '
            f'"status": {result.status}, "outcome": {result.json}}}')


@contextlib.contextmanager
def open_executor(spec: str | None, jobs: int) -> Iterator[Any]:
    """The executor for ``--executor`` / ``--jobs``: ``None`` (here) for one
    job; a local process pool; ``dask://HOST:PORT`` (a running scheduler),
    ``dask:local`` (a local cluster of ``--jobs`` workers); ``ray://HOST:PORT``,
    ``ray:auto`` (a running cluster) or ``ray:local`` (a local Ray with
    ``--jobs`` CPUs). Dask and Ray are imported only here."""
    if spec is None:
        if jobs <= 1:
            yield None
            return
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
            yield pool
        return
    if spec.startswith("dask:"):
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError as exc:
            raise click.UsageError(f"--executor {spec}: Dask is not installed "
                                   f"(pip install 'redzone[dask]'): {exc}") from None
        if spec == "dask:local":
            with distributed.LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                          host="127.0.0.1", dashboard_address=None) as cluster, \
                    distributed.Client(cluster) as client:
                yield client
            return
        address = "tcp://" + spec.removeprefix("dask://")
        with distributed.Client(address) as client:
            yield client
        return
    if spec.startswith("ray:"):
        try:
            ray: Any = importlib.import_module("ray")
        except ImportError as exc:
            raise click.UsageError(f"--executor {spec}: Ray is not installed "
                                   f"(pip install 'redzone[ray]'): {exc}") from None
        from redzone.execution.executors import RayExecutor

        if spec == "ray:local":
            executor = RayExecutor(num_cpus=max(1, jobs), include_dashboard=False,
                                   log_to_driver=False)
        else:
            executor = RayExecutor(address="auto" if spec == "ray:auto" else spec)
        try:
            yield executor
        finally:
            ray.shutdown()
        return
    raise click.UsageError(f"--executor {spec!r}: give dask://HOST:PORT, dask:local, "
                           "ray://HOST:PORT, ray:auto or ray:local")


def summary(console: Console, results: Sequence[JobOutcome]) -> None:
    """The end-of-batch summary: totals, by keyword, failing plugins, slowest."""
    from rich.table import Table

    totals = Counter(r.status for r in results)
    table = Table(title=f"{len(results)} scenario files", title_justify="left")
    table.add_column("keyword")
    for heading in COLUMNS.values():
        table.add_column(heading, justify="right")
    by_kw: dict[str, Counter[int]] = {}
    for r in results:
        for kw in r.keywords or ("(none)",):
            by_kw.setdefault(kw, Counter())[r.status] += 1
    table.add_row("all files", *(str(totals.get(s, 0)) for s in COLUMNS), end_section=True)
    for kw in sorted(by_kw):
        table.add_row(kw, *(str(by_kw[kw].get(s, 0)) for s in COLUMNS))
    console.print(table)
    failing: Counter[str] = Counter()
    for r in results:
        if r.status == EXIT_FAILURE:
            error = r.outcome.get("error", {})
            who = error.get("plugin") or ""
            failing[f"{error.get('kind', '?')}: {who}" if who else str(error.get("kind"))] += 1
    if failing:
        console.print("failing: " + ", ".join(f"{k} ({n})" for k, n in failing.most_common()))
    retried = sum(1 for r in results if r.retried)
    if retried:
        console.print(f"{retried} file(s) sent again after their worker was lost")
    slow = sorted(results, key=lambda r: r.seconds, reverse=True)[:SLOWEST]
    if slow:
        console.print("slowest: " + ", ".join(f"{r.source} ({r.seconds * 1000:.1f} ms)"
                                             for r in slow))


def show_failures(results: Sequence[JobOutcome], *, rules: str | None,
                  hook_timeout: float | None) -> None:
    """``REDZONE_DEBUG``: where each file that failed with status 3 failed.
    A worker's traceback doesn't travel back with its outcome, so each such
    file is resolved again here, with the engine of the batch, and the
    traceback of its failure shown on standard error (a failing plugin's own
    frames first, :func:`redzone.frontends.cli.show_traceback`).

    :param results: the batch's outcomes.
    :param rules: the ``--rules`` option.
    :param hook_timeout: the ``--hook-timeout`` option.
    """
    from redzone.formats.outcome import resolve
    from redzone.formats.scenario import build, read_document
    from redzone.frontends.cli import show_traceback

    def engine(name: str) -> Any:
        return command_engine(name, hook_timeout=hook_timeout)

    for result in results:
        if result.status != EXIT_FAILURE:
            continue
        click.echo(f"redzone: {result.source} failed ({result.kind}); "
                   "resolved again here to show where:", err=True)
        try:
            resolve(build(read_document(result.source), rules=rules, engine_factory=engine))
        except Exception as exc:
            show_traceback(exc)
        else:
            click.echo(f"redzone: {result.source} resolved here without failing: its "
                       "failure was its worker's", err=True)


@click.command(name="batch")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--jobs", "-j", "jobs", type=click.IntRange(min=1), default=1,
              help="Local worker processes (default 1: resolve here, one after another).")
@click.option("--executor", "executor_spec", metavar="URL", default=None,
              help="dask://HOST:PORT, dask:local, ray://HOST:PORT, ray:auto or ray:local.")
@click.option("--json", "as_json", is_flag=True,
              help="Write JSON lines (file, status, outcome), one per file, in input order.")
@click.option("--chunksize", type=click.IntRange(min=1), default=None,
              help="Files per chunk sent to a worker (default: about four chunks per worker).")
@click.option("--rules", "rules", metavar="EDITION", default=None,
              help=f"Rules edition, overriding each file's `rules` (known: {', '.join(EDITIONS)}).")
@click.option("--hook-timeout", "hook_timeout", type=click.FloatRange(min=0), default=None,
              help="The most seconds one plugin may take to answer one hook call.")
@click.option("--color/--no-color", "color", default=None,
              help="Colour the output (default: only on a terminal).")
@click.pass_context
def batch(ctx: click.Context, paths: tuple[str, ...], jobs: int, executor_spec: str | None,
          as_json: bool, chunksize: int | None, rules: str | None,
          hook_timeout: float | None, color: bool | None) -> None:
    """Resolve every scenario file in PATHS (files and folders).

    The exit status is the worst of the files' statuses.

    \b
    Example:
      redzone batch --jobs 2 --json scenarios/ > outcomes.jsonl
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from redzone.execution.jobs import scenario_files
    from redzone.execution.simulation import simulate
    from redzone.frontends.cli import debugging, show_traceback
    from redzone.frontends.terminal import console

    files = scenario_files(paths)
    err = console(color, stderr=True)
    if not files:
        err.print("no scenario files (*.toml, *.json) found in: " + ", ".join(paths))
        ctx.exit(EXIT_BAD_SCENARIO)
    try:
        engine = command_engine(hook_timeout=hook_timeout)
    except RulesError as exc:
        show_traceback(exc)
        err.print(f"can't start: {exc}")
        ctx.exit(EXIT_FAILURE)
    results: list[JobOutcome] = []
    bar = err.is_terminal and not as_json
    progress = Progress(TextColumn("resolving"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err, disable=not bar, transient=True)
    with open_executor(executor_spec, jobs) as executor, progress:
        task = progress.add_task("files", total=len(files))
        try:
            for result in simulate(files, executor=executor, engine=engine,
                                   chunksize=chunksize, rules=rules):
                results.append(result)
                if as_json:
                    click.echo(json_visible(json_line(result)))
                progress.advance(task)
        except RulesError as exc:
            show_traceback(exc)
            err.print(f"can't run the batch: {exc}")
            ctx.exit(EXIT_FAILURE)
    if debugging():
        show_failures(results, rules=rules, hook_timeout=hook_timeout)
    summary(err if as_json else console(color), results)
    ctx.exit(max(r.status for r in results))


__all__ = ["batch", "json_line", "open_executor", "show_failures", "summary"]
