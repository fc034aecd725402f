"""``redzone batch PATH...``: resolve many scenario files at once.

Files and folders (searched for ``*.toml`` and ``*.json``) are resolved with
:func:`redzone.execution.simulation.simulate`: here one after another, on ``--jobs
N`` local processes, or on a Dask or Ray cluster (``--executor``). A progress
bar shows on a terminal; ``--json`` writes one JSON line per file, in input
order. A summary follows: resolved, illegal, bad files and failing plugins,
by keyword, the first files not resolved with why, and the slowest files.
The exit status is the worst of the files' statuses (0 resolved, 1 illegal,
2 bad scenario file, 3 a plugin or a worker failed). Each file is resolved
with the engine of ``redzone run``
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
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

import click

from redzone.formats.outcome import EXIT_BAD_SCENARIO, EXIT_FAILURE, command_engine
from redzone.frontends.options import check_seconds, no_limit, rules_option, seconds_type
from redzone.kernel.display import json_visible, visible
from redzone.kernel.errors import RulesError

if TYPE_CHECKING:
    from rich.console import Console

    from redzone.execution.jobs import JobOutcome
    from redzone.execution.sinks import Summary

#: The summary's columns: status -> heading.
COLUMNS = {0: "resolved", 1: "illegal", 2: "bad file", 3: "failing"}

#: The exit status of a batch stopped by Ctrl-C (128 + SIGINT, as shells say).
EXIT_INTERRUPTED = 130

#: The most characters of one line of a ``--files-from`` list (its line feed
#: not counted): more than any path a system opens (4,096 bytes on Linux,
#: 32,767 characters on Windows), so that a list's memory stays bounded
#: however long a line it holds (a list read from ``/dev/zero`` never ends
#: its first line).
MAX_LIST_LINE: Final = 1 << 16


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
    ``--jobs`` CPUs). Dask and Ray are imported only here.

    :raises ExecutorUnavailable: when a Dask scheduler or a Ray cluster
        can't be reached, or a local Ray can't start (the address named).
    :raises click.UsageError: for an executor of an unknown form, or one
        whose package isn't installed."""
    if spec is None:
        if jobs <= 1:
            yield None
            return
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint) as pool:
            yield pool
        return
    if spec.startswith("dask:"):
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError as exc:
            raise click.UsageError(f"--executor {visible(spec)}: Dask is not installed "
                                   f"(pip install 'redzone[dask]'): {exc}") from None
        if spec == "dask:local":
            from redzone.execution.localdask import local_dask

            with local_dask(max(1, jobs)) as client:
                yield client
            return
        from redzone.execution.executors import ExecutorUnavailable

        address = "tcp://" + spec.removeprefix("dask://")
        try:
            client = distributed.Client(address)
        except (OSError, TimeoutError, ValueError) as exc:  # (ValueError: a bad address)
            raise ExecutorUnavailable(f"can't connect to Dask at {spec}: "
                                      f"{type(exc).__name__}: {exc}") from exc
        with client:
            yield client
        return
    if spec.startswith("ray:"):
        try:
            ray: Any = importlib.import_module("ray")
        except ImportError as exc:
            raise click.UsageError(f"--executor {visible(spec)}: Ray is not installed "
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


def summary(console: Console, results: Summary | Iterable[JobOutcome]) -> None:
    """The end-of-batch summary: totals, by keyword, failing plugins, the
    first files not resolved with why, slowest.

    :param console: where it is printed.
    :param results: a :class:`~redzone.execution.sinks.Summary` counted as the
        batch ran, or the outcomes themselves.
    """
    from rich.table import Table

    from redzone.execution.sinks import Summary

    counted = results if isinstance(results, Summary) else Summary().extend(results)
    table = Table(title=f"{counted.total} scenario files", title_justify="left")
    table.add_column("keyword")
    for heading in COLUMNS.values():
        table.add_column(heading, justify="right")
    table.add_row("all files", *(str(counted.by_status.get(s, 0)) for s in COLUMNS),
                  end_section=True)
    for kw in sorted(counted.by_keyword):
        table.add_row(kw, *(str(counted.by_keyword[kw].get(s, 0)) for s in COLUMNS))
    console.print(table)
    if counted.failing:
        console.print("failing: " + ", ".join(f"{k} ({n})"
                                              for k, n in counted.failing.most_common()))
    if counted.problems:
        told = [message if message.startswith(f"{source}:") else f"{source}: {message}"
                for source, _, message in counted.problems]
        more = f" (and {counted.unlisted} more)" if counted.unlisted else ""
        console.print("not resolved: " + "; ".join(map(visible, told)) + more,
                      markup=False, highlight=False)
    if counted.retried:
        console.print(f"{counted.retried} file(s) sent again after their worker was lost")
    if counted.slowest:
        console.print("slowest: " + ", ".join(f"{source} ({seconds * 1000:.1f} ms)"
                                             for source, seconds in counted.slowest))


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
        click.echo(f"redzone: {visible(result.source)} failed ({result.kind}); "
                   "resolved again here to show where:", err=True)
        try:
            resolve(build(read_document(result.source), rules=rules, engine_factory=engine))
        except Exception as exc:
            show_traceback(exc)
        else:
            click.echo(f"redzone: {visible(result.source)} resolved here without failing: its "
                       "failure was its worker's", err=True)


def _ignore_sigint() -> None:
    """A pool worker's initializer: Ctrl-C is the caller's to handle (the
    workers are shut down by it), never a traceback from each worker; and
    the pool's terminate ends it
    (:func:`redzone.execution.executors.worker_start`)."""
    import signal

    from redzone.execution.executors import worker_start

    worker_start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def listed_files(list_path: str) -> Iterator[str]:
    """The paths of a ``--files-from`` list, one a line (``-``: standard
    input), read lazily; blank lines are skipped. A list is UTF-8; a byte
    that isn't is kept as a file name keeps it (``surrogateescape``, as
    Python reads file names), from a file and from standard input alike, so
    that such a line is its own job. A line is read up to
    :data:`MAX_LIST_LINE` characters and one more, so the memory a list
    takes stays bounded.

    :raises click.BadParameter: when the list can't be read (standard input
        closed included), or a line of it is over :data:`MAX_LIST_LINE`
        characters (naming the list and the line).
    """
    import io
    import sys

    shown = "standard input" if list_path == "-" else visible(list_path)
    if list_path == "-" and (sys.stdin is None or sys.stdin.closed):
        raise click.BadParameter("can't read standard input: it is closed",
                                 param_hint="--files-from")
    wrapped: io.TextIOWrapper | None = None
    stream: Any
    try:
        if list_path != "-":
            stream = open(list_path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115
        elif getattr(sys.stdin, "errors", None) == "strict" and hasattr(sys.stdin, "buffer"):
            stream = wrapped = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8",
                                                errors="surrogateescape")
        else:
            stream = sys.stdin
    except OSError as exc:
        raise click.BadParameter(f"can't read {shown}: {exc.strerror}",
                                 param_hint="--files-from") from None
    try:
        number = 0
        while line := stream.readline(MAX_LIST_LINE + 1):
            number += 1
            if len(line) > MAX_LIST_LINE and not line.endswith("\n"):
                raise click.BadParameter(
                    f"line {number} of {shown} is longer than {MAX_LIST_LINE} characters; "
                    "each line names one file", param_hint="--files-from")
            path = line.rstrip("\r\n")
            if path.strip():
                yield path
    finally:
        if wrapped is not None:
            wrapped.detach()  # standard input stays open
        elif stream is not sys.stdin:
            stream.close()


@click.command(name="batch")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--files-from", "files_from", metavar="LIST", default=None,
              help="Also resolve the files listed in LIST, one path a line (- for standard "
              "input), read as the batch goes.")
@click.option("--out", "out", metavar="PATH", type=click.Path(dir_okay=False), default=None,
              help="Stream each outcome to PATH as it is done: JSON lines (.jsonl) or Apache "
              "Parquet (.parquet, extra [parquet]).")
@click.option("--resume", is_flag=True,
              help="With --out: keep the rows already in PATH and skip their files.")
@click.option("--jobs", "-j", "jobs", type=click.IntRange(min=1), default=1,
              help="Local worker processes (default 1: resolve here, one after another).")
@click.option("--executor", "executor_spec", metavar="URL", default=None,
              help="dask://HOST:PORT, dask:local, ray://HOST:PORT, ray:auto or ray:local.")
@click.option("--json", "as_json", is_flag=True,
              help="Write JSON lines (file, status, outcome), one per file, in input order.")
@click.option("--chunksize", type=click.IntRange(min=1), default=None,
              help="Files per chunk sent to a worker (default: about four chunks per worker).")
@rules_option("Rules edition, overriding each file's `rules`")
@click.option("--timeout", "timeout", type=seconds_type(), callback=check_seconds,
              default=None, metavar="SECONDS",
              help="The most seconds one file may take; a file past it is reported with "
              "kind timeout and the batch goes on (inf: no limit, the default).")
@click.option("--lost-after", "lost_after", type=seconds_type(), callback=check_seconds,
              default=None, metavar="SECONDS",
              help="On Dask or Ray: end the batch when the cluster has had no worker at all "
              "for SECONDS while files wait (default 60; inf: wait for ever).")
@click.option("--hook-timeout", "hook_timeout", type=seconds_type(), callback=check_seconds,
              default=None, metavar="SECONDS",
              help="The most seconds one plugin may take to answer one hook call (inf: no "
              "limit, the default).")
@click.option("--color/--no-color", "color", default=None,
              help="Colour the output (default: only on a terminal).")
@click.pass_context
def batch(ctx: click.Context, paths: tuple[str, ...], files_from: str | None,
          out: str | None, resume: bool, jobs: int, executor_spec: str | None,
          as_json: bool, chunksize: int | None, rules: str | None, timeout: float | None,
          lost_after: float | None, hook_timeout: float | None, color: bool | None) -> None:
    """Resolve every scenario file in PATHS (files and folders) and in --files-from.

    The exit status is the worst of the files' statuses; 130 when Ctrl-C
    stopped the batch (after the summary of what was done); 3 when the
    --executor can't be reached or started, or lost every worker.

    \b
    Example:
      redzone batch --jobs 2 --out outcomes.jsonl scenarios/
    """
    import itertools

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from redzone.execution.executors import ExecutorUnavailable
    from redzone.execution.faults import LOST_AFTER, WorkersLost
    from redzone.execution.jobs import scenario_files
    from redzone.execution.simulation import simulate
    from redzone.execution.sinks import Summary, check_path, check_resumable, check_writable
    from redzone.frontends.cli import debugging, show_traceback
    from redzone.frontends.terminal import console

    if not paths and files_from is None:
        raise click.UsageError("give scenario files or folders (PATHS), or --files-from LIST")
    if resume and out is None:
        raise click.UsageError("--resume needs --out PATH: it skips the files whose rows "
                               "are already in PATH")
    if out is not None:
        try:  # before any executor starts
            check_resumable(out) if resume else check_path(out)
            check_writable(out)
        except RulesError as exc:
            raise click.BadParameter(visible(str(exc)), param_hint="--out") from None
    hook_timeout = no_limit(hook_timeout)
    timeout = no_limit(timeout)
    named = scenario_files(paths)
    listed = listed_files(files_from) if files_from is not None else iter(())
    err = console(color, stderr=True)
    first = list(itertools.islice(listed, 1))
    if not named and not first:
        where = ", ".join(paths) if paths else f"the list {files_from}"
        err.print("no scenario files (*.toml, *.json) found in: " + where)
        ctx.exit(EXIT_BAD_SCENARIO)
    # A list has a length: simulate gives the bar its total (files done left out).
    files = named if files_from is None else itertools.chain(named, first, listed)
    try:
        engine = command_engine(hook_timeout=hook_timeout)
    except RulesError as exc:
        show_traceback(exc)
        err.print(f"can't start: {exc}")
        ctx.exit(EXIT_FAILURE)
    counted = Summary()
    failed: list[JobOutcome] = []  # status 3 only, for REDZONE_DEBUG
    debug = debugging()
    progress = Progress(TextColumn("resolving"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err, disable=not err.is_terminal,
                        transient=True)
    interrupted = False
    lost: WorkersLost | None = None
    try:
        with open_executor(executor_spec, jobs) as executor, progress:
            task = progress.add_task("files", total=None)
            outcomes: Iterator[JobOutcome] = iter(())

            def done(count: int, total: int | None, outcome: object) -> None:
                # Each file's row written (by the sink, just before), its JSON
                # line printed and its count taken as one step: the sink holds
                # a Ctrl-C that comes meanwhile until this returns, so the
                # summary counts exactly the rows written and the lines printed.
                result = cast("JobOutcome", outcome)  # (full outcomes: no score given)
                if as_json:
                    click.echo(json_visible(json_line(result)))
                counted.add(result)
                if debug and result.status == EXIT_FAILURE:
                    failed.append(result)
                progress.update(task, total=total, completed=count)

            try:
                outcomes = simulate(
                    files, executor=executor, engine=engine, chunksize=chunksize, rules=rules,
                    timeout=timeout, sink=out, resume=resume,
                    lost_after=LOST_AFTER if lost_after is None else no_limit(lost_after),
                    progress=done)
                for _ in outcomes:  # (each outcome is taken in done, above)
                    pass
            except KeyboardInterrupt:
                interrupted = True
            except WorkersLost as exc:
                lost = exc
            except RulesError as exc:
                show_traceback(exc)
                err.print(f"can't run the batch: {exc}")
                ctx.exit(EXIT_FAILURE)
            finally:
                close = getattr(outcomes, "close", None)
                if callable(close):
                    close()  # the sink's last rows written and the file closed
    except KeyboardInterrupt:  # while the executor starts or shuts down
        interrupted = True
    except ExecutorUnavailable as exc:  # no job was run
        show_traceback(exc)
        err.print(f"can't run the batch: {exc}")
        ctx.exit(EXIT_FAILURE)
    if debug:
        show_failures(failed, rules=rules, hook_timeout=hook_timeout)
    summary(err if as_json else console(color), counted)
    if lost is not None:
        err.print(f"can't finish the batch: {lost}")
        err.print(f"{counted.total} file(s) done"
                  + (f", their rows in {out} (--resume goes on from there)" if out else ""))
        ctx.exit(EXIT_FAILURE)
    if interrupted:
        err.print(f"interrupted: {counted.total} file(s) done"
                  + (f", their rows in {out} (--resume goes on from there)" if out else ""))
        ctx.exit(EXIT_INTERRUPTED)
    ctx.exit(counted.worst)


__all__ = ["EXIT_INTERRUPTED", "MAX_LIST_LINE", "batch", "json_line", "listed_files",
           "open_executor", "show_failures", "summary"]
