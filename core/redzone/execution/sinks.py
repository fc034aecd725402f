"""Sinks: where a batch's outcomes go as each job finishes.

A sink takes one :class:`~redzone.execution.jobs.JobOutcome` (or the light
outcome or score a batch was asked for, :func:`outcome_text`) at a time and
keeps nothing of it in memory beyond a bounded buffer, so a batch of any
size runs in flat memory. Each row holds what the "Batch runs" part of the
scenario format names: ``file``, ``status``, ``kind``, ``message`` (the
error's message, ``null`` for a resolved job), ``outcome`` (the JSON
outcome: an object in JSON lines, its compact JSON text in Parquet) and
``retried`` (how many times the job was sent again after its worker was lost
or hung).

- ``.jsonl``: JSON lines, one row a line, flushed as written.
- ``.parquet``: Apache Parquet through pyarrow (``pip install
  'redzone[parquet]'``), written in row groups of :data:`ROW_GROUP` rows.

Resuming (:func:`open_sink` with ``resume=True``, ``redzone batch
--resume``) keeps the rows already in the file and skips their jobs
(:func:`done_keys`). A JSON-lines file cut in the middle of a line by a
killed run is cut back to its last whole line first. A Parquet file can't be
appended to: the sink writes a new file beside it, copies the old file's
row groups into it one at a time, writes the new rows after them and puts
the new file in the old one's place when it is closed. A Parquet file whose
run was killed has no footer and can't be read: resuming from it is an
error naming the file.

:class:`Recording` is what :func:`~redzone.execution.simulation.simulate`
(and so ``redzone batch``) does around its outcomes with ``sink=``,
``resume=``, ``key=`` and ``progress=``: skip the jobs whose key is already
in the sink's file, write each outcome's row, report progress.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import signal
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from heapq import heappush, heappushpop
from pathlib import Path
from typing import Any, Final, Protocol, TypeAlias, TypeVar

from attrs import evolve

from redzone.execution.engines import BatchError
from redzone.execution.jobs import JobOutcome, LightOutcome, Scored
from redzone.formats.outcome import EXIT_BAD_SCENARIO, EXIT_FAILURE
from redzone.formats.scenario import Scenario
from redzone.kernel.errors import BadQueryError

#: The file suffixes a sink is chosen by.
SUFFIXES: Final = (".jsonl", ".parquet")

#: Rows buffered before a Parquet row group is written.
ROW_GROUP: Final = 4096

#: How many of the slowest jobs a :class:`Summary` keeps.
SLOWEST: Final = 5

#: How many of the jobs not resolved (a bad scenario, a failing plugin) a
#: :class:`Summary` keeps with their messages: the first ones.
PROBLEMS: Final = 5

#: A lone surrogate: a byte of a file name that isn't UTF-8, as Python keeps
#: it (``surrogateescape``); no UTF-8 file can hold it as it is.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _json_escaped(text: str) -> str:
    """JSON text with each lone surrogate its JSON escape (``\\udcff``), as
    ``redzone batch --json`` prints it: the same JSON value, in UTF-8."""
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _escaped(text: str | None) -> str | None:
    """A string with each lone surrogate written as its escape (``x\\udcff.toml``),
    for a Parquet string, which must be UTF-8."""
    if text is None or _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


#: What a sink or a progress callback is given: what the call hands over.
H_contra = TypeVar("H_contra", contravariant=True)


class Sink(Protocol[H_contra]):
    """What a batch writes its outcomes to: ``Sink[JobOutcome]`` for a
    batch of full outcomes, ``Sink[LightOutcome]`` or ``Sink[Scored[int]]``
    for the others (a sink of any :data:`Handed` takes them all).

    .. versionadded:: 0.1.0
    """

    def write(self, outcome: H_contra) -> None:
        """Write one job's row (:func:`row`)."""

    def close(self) -> None:
        """Write what is buffered and close the file."""


#: What a batch hands over per job: a full outcome, a light one, or a score.
Handed = JobOutcome | LightOutcome | Scored


def outcome_text(outcome: Handed) -> str:
    """A row's ``outcome`` as compact JSON text: the JSON outcome of a
    :class:`JobOutcome`; the fields of a
    :class:`~redzone.execution.jobs.LightOutcome` (``lives``, ``poison``,
    ``deaths``, ``game_over``, ``winners``, ``losers``, ``draw``); ``{"score":
    value}`` for a :class:`~redzone.execution.jobs.Scored`.

    :param outcome: what the batch handed over for the job.
    :raises BatchError: for a score that is not JSON data, naming the job.
    """
    if isinstance(outcome, JobOutcome):
        return outcome.json
    if isinstance(outcome, LightOutcome):
        data: dict[str, Any] = {
            "lives": dict(outcome.lives), "poison": dict(outcome.poison),
            "deaths": list(outcome.deaths), "game_over": outcome.game_over,
            "winners": list(outcome.winners), "losers": list(outcome.losers),
            "draw": outcome.draw}
    else:
        data = {"score": outcome.value}
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise BatchError(f"job {outcome.index} ({outcome.source}): its score "
                         f"{data['score']!r} can't be written to a sink: it is not JSON "
                         f"data ({exc})") from None


def row(outcome: Handed) -> dict[str, Any]:
    """One job's row: ``file``, ``status``, ``kind``, ``message``, ``outcome``,
    ``retried`` (how many times the job was sent again after its worker was
    lost or hung; 0 for most), the same for a full outcome, a light one or a
    score.

    :param outcome: the job's outcome (full or light) or score.
    :returns: the row, with the outcome parsed (:func:`outcome_text`).
    """
    if isinstance(outcome, JobOutcome):
        parsed = outcome.outcome
        error = parsed.get("error")
        message = error.get("message") if isinstance(error, dict) and outcome.status else None
    else:
        parsed = json.loads(outcome_text(outcome))
        message = outcome.message if outcome.status else None
    return {"file": outcome.source, "status": outcome.status, "kind": outcome.kind,
            "message": message, "outcome": parsed, "retried": outcome.retried}


class JsonLinesSink:
    """Rows as JSON lines (``.jsonl``), each flushed as it is written.

    :param path: the file.
    :param resume: keep the rows already there (a torn last line is cut off).

    .. versionadded:: 0.1.0
    """

    def __init__(self, path: str | os.PathLike[str], *, resume: bool = False) -> None:
        self.path = Path(path)
        if resume and self.path.exists():
            _cut_torn_line(self.path)
        self._file = self.path.open("a" if resume else "w", encoding="utf-8")

    def write(self, outcome: Handed) -> None:
        text = outcome_text(outcome)
        r = row(outcome)
        del r["outcome"]
        head = json.dumps(r, ensure_ascii=False)[:-1]
        self._file.write(_json_escaped(f'{head}, "outcome": {text}}}\n'))
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class ParquetSink:
    """Rows in Apache Parquet (``.parquet``), the outcome as JSON text.

    :param path: the file.
    :param resume: keep the rows already there (copied row group by row
        group into a new file that replaces the old one at :meth:`close`).
    :raises BatchError: when pyarrow is not installed, or ``resume`` is asked
        of a file that can't be read.

    .. versionadded:: 0.1.0
    """

    def __init__(self, path: str | os.PathLike[str], *, resume: bool = False) -> None:
        pq = _parquet()
        pa: Any = importlib.import_module("pyarrow")
        self._pa = pa
        self.path = Path(path)
        self._schema = pa.schema([("file", pa.string()), ("status", pa.int64()),
                                  ("kind", pa.string()), ("message", pa.string()),
                                  ("outcome", pa.string()), ("retried", pa.int64())])
        self._target = self.path.with_name(self.path.name + ".partial")
        self._writer = pq.ParquetWriter(str(self._target), self._schema)
        self._rows: list[dict[str, Any]] = []
        if resume and self.path.exists():
            try:
                old = pq.ParquetFile(str(self.path))
                for i in range(old.num_row_groups):
                    group = old.read_row_group(i)
                    if "retried" not in group.column_names:  # written before the column was
                        group = group.append_column("retried", pa.array(
                            [0] * group.num_rows, pa.int64()))
                    self._writer.write_table(group.select(self._schema.names).cast(
                        self._schema))
            except Exception as exc:
                self._writer.close()
                self._target.unlink(missing_ok=True)
                raise BatchError(f"{self.path}: can't resume from this Parquet file "
                                 f"({type(exc).__name__}: {exc})") from None

    def write(self, outcome: Handed) -> None:
        r = row(outcome)
        for key in ("file", "kind", "message"):
            r[key] = _escaped(r[key])
        r["outcome"] = _json_escaped(outcome_text(outcome))
        self._rows.append(r)
        if len(self._rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._writer.write_table(self._pa.Table.from_pylist(self._rows, self._schema))
            self._rows = []

    def close(self) -> None:
        self._flush()
        self._writer.close()
        os.replace(self._target, self.path)


def _parquet() -> Any:
    try:
        return importlib.import_module("pyarrow.parquet")
    except ImportError as exc:
        raise BatchError("a .parquet sink needs pyarrow (pip install 'redzone[parquet]'): "
                         f"{exc}") from None


def _cut_torn_line(path: Path) -> None:
    """Cut a JSON-lines file back to its last whole, readable line."""
    with path.open("rb+") as f:
        data = f.read()
        end = len(data)
        if data and not data.endswith(b"\n"):
            end = data.rfind(b"\n") + 1
        f.truncate(end)


def check_path(path: str | os.PathLike[str]) -> None:
    """Refuse a sink path of an unknown suffix.

    :raises BatchError: naming the path and the suffixes known.
    """
    if Path(path).suffix not in SUFFIXES:
        raise BatchError(f"{os.fspath(path)}: a batch's output is JSON lines (.jsonl) or "
                         f"Apache Parquet (.parquet), chosen by the file's suffix")


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse a sink path that can't be written: in a folder that doesn't
    exist or can't be written to (a Parquet sink writes ``PATH.partial``
    beside it), or a file that can't be written to. Nothing is created.

    :raises BatchError: naming the path and why.

    .. versionadded:: 0.1.0
    """
    p = Path(path)
    folder = p.parent
    shown = os.fspath(path)
    if not folder.is_dir():
        raise BatchError(f"can't write {shown!r}: its folder {os.fspath(folder)!r} doesn't "
                         "exist" if not folder.exists() else
                         f"can't write {shown!r}: {os.fspath(folder)!r} is not a folder")
    if p.is_dir():
        raise BatchError(f"can't write {shown!r}: it is a folder")
    if not os.access(folder, os.W_OK | os.X_OK) and (
            p.suffix == ".parquet" or not p.exists()):
        raise BatchError(f"can't write {shown!r}: its folder can't be written to")
    if p.exists() and not os.access(p, os.W_OK):
        raise BatchError(f"can't write {shown!r}: permission denied")


def check_resumable(path: str | os.PathLike[str]) -> None:
    """Refuse a sink path a batch can't resume from: an unknown suffix, or a
    Parquet file that can't be read (a killed run's, with no footer). Reads
    a Parquet file's footer only.

    :raises BatchError: naming the path.

    .. versionadded:: 0.1.0
    """
    check_path(path)
    p = Path(path)
    if p.suffix == ".parquet" and p.exists():
        pq = _parquet()
        try:
            pq.ParquetFile(str(p)).close()
        except Exception as exc:
            raise BatchError(f"{p}: can't resume from this Parquet file "
                             f"({type(exc).__name__}: {exc})") from None


def open_sink(path: str | os.PathLike[str], *, resume: bool = False) -> Sink[Handed]:
    """The sink for ``path``, chosen by its suffix.

    :param path: a ``.jsonl`` or ``.parquet`` file.
    :param resume: keep the rows already there.
    :raises BatchError: for another suffix, or what the sink raises.

    .. versionadded:: 0.1.0
    """
    check_path(path)
    try:
        if Path(path).suffix == ".parquet":
            return ParquetSink(path, resume=resume)
        return JsonLinesSink(path, resume=resume)
    except OSError as exc:
        raise BatchError(f"can't write {os.fspath(path)!r}: {exc.strerror or exc}") from None


def done_keys(path: str | os.PathLike[str]) -> set[str]:
    """The ``file`` of every whole row already in a sink's file (none when
    it doesn't exist): the jobs a resumed batch skips.

    :raises BatchError: for an unknown suffix or an unreadable Parquet file.

    .. versionadded:: 0.1.0
    """
    check_path(path)
    p = Path(path)
    if not p.exists():
        return set()
    if p.suffix == ".parquet":
        pq = _parquet()
        try:
            table = pq.read_table(str(p), columns=["file"])
        except Exception as exc:
            raise BatchError(f"{p}: can't resume from this Parquet file "
                             f"({type(exc).__name__}: {exc})") from None
        return {str(f) for f in table.column("file").to_pylist()}
    keys: set[str] = set()
    # Read as bytes, a line at a time: a row torn by a killed run may end in
    # the middle of a character's UTF-8 bytes, which a text file can't
    # decode (the sink cuts that row off as it opens, _cut_torn_line).
    with p.open("rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                break  # torn by a killed run: its job runs again
            try:
                keys.add(str(json.loads(line.decode("utf-8"))["file"]))
            except (ValueError, KeyError, TypeError):  # UnicodeDecodeError too
                break
    return keys


class Summary:
    """A batch's summary, added to one outcome at a time in constant memory:
    counts by status and by keyword, what failed, jobs sent again, the
    :data:`SLOWEST` slowest jobs, and the first :data:`PROBLEMS` jobs not
    resolved (status 2 or 3) with why.

    .. versionadded:: 0.1.0
    """

    def __init__(self) -> None:
        self.total = 0
        self.by_status: Counter[int] = Counter()
        self.by_keyword: dict[str, Counter[int]] = {}
        self.failing: Counter[str] = Counter()
        self.retried = 0
        self.worst = 0
        self._slow: list[tuple[float, int, str]] = []
        #: ``(source, status, message)`` of the first :data:`PROBLEMS` jobs
        #: with status 2 (a bad scenario) or 3 (a failure), the message's
        #: first line. An illegal declaration (status 1) is an outcome of
        #: its scenario, not a problem of the job.
        self.problems: list[tuple[str, int, str]] = []
        #: How many more such jobs there were.
        self.unlisted = 0

    def add(self, outcome: JobOutcome) -> None:
        """Count one outcome in."""
        self.total += 1
        self.by_status[outcome.status] += 1
        self.worst = max(self.worst, outcome.status)
        for kw in outcome.keywords or ("(none)",):
            self.by_keyword.setdefault(kw, Counter())[outcome.status] += 1
        if outcome.status == EXIT_FAILURE:
            error = outcome.outcome.get("error", {})
            who = error.get("plugin") or ""
            self.failing[f"{error.get('kind', '?')}: {who}" if who
                         else str(error.get("kind"))] += 1
        if outcome.status >= EXIT_BAD_SCENARIO:
            if len(self.problems) < PROBLEMS:
                error = outcome.outcome.get("error", {})
                message = str(error.get("message") or error.get("kind") or "")
                self.problems.append((outcome.source, outcome.status,
                                      message.split("\n", 1)[0]))
            else:
                self.unlisted += 1
        if outcome.retried:
            self.retried += 1
        item = (outcome.seconds, -self.total, outcome.source)
        if len(self._slow) < SLOWEST:
            heappush(self._slow, item)
        else:
            heappushpop(self._slow, item)

    def extend(self, outcomes: Iterable[JobOutcome]) -> Summary:
        """Count each outcome in; returns this summary."""
        for outcome in outcomes:
            self.add(outcome)
        return self

    @property
    def slowest(self) -> list[tuple[str, float]]:
        """``(source, seconds)`` of the slowest jobs, slowest first."""
        return [(s, sec) for sec, _, s in sorted(self._slow, reverse=True)]


#: A progress callback: ``progress(done, total, outcome)``, ``outcome`` what
#: the call hands over (``Progress[JobOutcome]`` for a batch of full outcomes).
Progress: TypeAlias = Callable[[int, "int | None", H_contra], None]

#: A job's key: ``key(index, job)``, ``index`` its place in the input from 0.
KeyOf: TypeAlias = Callable[[int, Any], str]


def job_key(index: int, job: Any) -> str:
    """A job's key, the ``file`` of its row and the ``source`` of its outcome:
    a scenario file's path as given (``os.fspath``, not made absolute), a
    :class:`~redzone.formats.scenario.Scenario`'s ``file``, and ``<job N>``
    for any other job (``N`` its place in the input, from 0, counting the
    jobs a resumed batch skips).

    :param index: the job's place in the input.
    :param job: the job.
    :returns: the key.

    .. versionadded:: 0.1.0
    """
    if isinstance(job, str | os.PathLike):
        return os.fspath(job)
    if isinstance(job, Scenario):
        return job.file
    return f"<job {index}>"


class Numbered:
    """Jobs with their places in the input, the skipped ones left out: what
    :func:`numbered` gives the batch's runners, so that a job keeps its
    index (and its ``<job N>``) however many jobs before it were skipped.

    :param jobs: the jobs.
    :param keep: whether to run a job, given its index and the job.
    """

    def __init__(self, jobs: Iterable[Any], keep: Callable[[int, Any], bool]) -> None:
        self.jobs = jobs
        self.keep = keep

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        keep = self.keep
        return ((i, job) for i, job in enumerate(self.jobs) if keep(i, job))


def numbered(jobs: Iterable[Any]) -> Iterable[tuple[int, Any]]:
    """``(index, job)`` of each job to run: :class:`Numbered` jobs as they
    are, others ``enumerate``-d."""
    return jobs if isinstance(jobs, Numbered) else enumerate(jobs)


class InterruptGuard:
    """For the life of a ``with`` block, hold a Ctrl-C (``SIGINT``) that
    comes while :attr:`holding` is set, and raise its
    :class:`KeyboardInterrupt` from :meth:`release`: a batch stopped by
    Ctrl-C has reported progress for every row it wrote, and written every
    row it reported. Outside :attr:`holding`, a Ctrl-C raises at once, as
    Python's own handler does, and so does a second Ctrl-C while one is
    held: a write that blocks (a full pipe nobody reads) can't keep the
    batch from stopping.

    The handler is set once for the block (setting a signal handler is a
    system call: per row it would cost about 10 us), only on the main thread
    while Python's own ``SIGINT`` handler is set: a handler of the caller's
    is left alone, and other threads get no signals.
    """

    __slots__ = ("_installed", "held", "holding")

    def __init__(self) -> None:
        #: Whether a Ctrl-C comes now is held.
        self.holding = False
        #: Whether a Ctrl-C was held.
        self.held = False
        self._installed = False

    def __enter__(self) -> InterruptGuard:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            self._installed = False
            if signal.getsignal(signal.SIGINT) == self._handle:  # (not replaced since)
                signal.signal(signal.SIGINT, signal.default_int_handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self.holding and not self.held:
            self.held = True
            return
        raise KeyboardInterrupt

    def release(self) -> None:
        """Raise the Ctrl-C held while :attr:`holding` was set, if any (call
        it once :attr:`holding` is unset)."""
        if self.held:
            self.held = False
            raise KeyboardInterrupt


class Recording:
    """What a batch does around its outcomes: skip the jobs already done
    (``resume``), write each outcome's row to a sink, report progress.

    Checked when made, so that a bad argument fails before any job runs; the
    sink file is opened when the first outcome is asked for, and closed when
    the batch ends, however it ends (a sink object given is written, never
    closed: it is the caller's).

    :param jobs: the batch's jobs.
    :param sink: ``None``; a ``.jsonl`` or ``.parquet`` path; or a
        :class:`Sink` object.
    :param resume: skip each job whose key is already a row of the sink's
        file (a path only).
    :param key: ``key(index, job)``, each job's key (default :func:`job_key`);
        with it, the key is each outcome's ``source`` and its row's ``file``.
    :param progress: called once per outcome as :meth:`record` hands it over,
        in input order, as ``progress(done, total, outcome)``: ``done`` the
        outcomes handed over so far, this one included (from 1), ``total``
        the jobs this run resolves when ``jobs`` has a length (``None``
        otherwise), ``outcome`` what is handed over (a :class:`JobOutcome`,
        a light outcome or a score, as asked). An exception it
        raises ends the batch. A Ctrl-C while a row is written or its
        progress reported is held until both are done
        (:class:`InterruptGuard`).
    :raises BadQueryError: for a sink that is neither a path nor a
        :class:`Sink`, ``resume`` without a sink path, a ``key`` or
        ``progress`` that is not callable.
    :raises BatchError: for a path of an unknown suffix, a ``.parquet`` path
        without pyarrow, or a file to resume from that can't be read.

    .. versionadded:: 0.1.0
    """

    def __init__(self, jobs: Iterable[Any], *,
                 sink: str | os.PathLike[str] | Sink[Any] | None = None,
                 resume: bool = False, key: KeyOf | None = None,
                 progress: Progress[Any] | None = None) -> None:
        self.path: str | os.PathLike[str] | None = None
        self.sink: Sink[Any] | None = None
        if isinstance(sink, str | os.PathLike):
            check_path(sink)
            check_writable(sink)
            if Path(sink).suffix == ".parquet":
                _parquet()
            self.path = sink
        elif sink is not None:
            if not (callable(getattr(sink, "write", None))
                    and callable(getattr(sink, "close", None))):
                raise BadQueryError(f"simulate: sink is a {type(sink).__name__}: give a .jsonl "
                                    "or .parquet path, or an object with write(outcome) "
                                    "and close()")
            self.sink = sink
        if resume and self.path is None:
            raise BadQueryError("simulate: resume=True needs a sink path (.jsonl or "
                                ".parquet): it skips the jobs whose rows are in that file")
        for name, value in (("key", key), ("progress", progress)):
            if value is not None and not callable(value):
                raise BadQueryError(f"simulate: {name} is a {type(value).__name__}, not a "
                                    "function")
        self.resume = resume
        self.key = key
        self.progress = progress
        self._keys: dict[int, str] = {}
        self.done: set[str] = done_keys(self.path) if resume and self.path is not None else set()
        self.jobs: Iterable[Any] = jobs
        if self.done or key is not None:
            self.jobs = Numbered(jobs, self._keep)
        self.total: int | None = None
        if progress is not None and isinstance(jobs, Collection):
            self.total = (sum(1 for i, job in enumerate(jobs) if not self._is_done(
                self._key(i, job))) if self.done else len(jobs))

    @property
    def active(self) -> bool:
        """Whether there is anything to do around the outcomes."""
        return bool(self.path is not None or self.sink is not None or self.key is not None
                    or self.progress is not None)

    def _key(self, index: int, job: Any) -> str:
        if self.key is None:
            return job_key(index, job)
        named = self.key(index, job)
        if not isinstance(named, str):
            raise BadQueryError(f"simulate: key gave {named!r} for job {index}: a job's key "
                                "is a str")
        return named

    def _is_done(self, name: str) -> bool:
        # A Parquet row holds a name that isn't UTF-8 escaped (_escaped).
        return name in self.done or (_SURROGATE.search(name) is not None
                                     and _escaped(name) in self.done)

    def _keep(self, index: int, job: Any) -> bool:
        name = self._key(index, job)
        if self._is_done(name):
            return False
        if self.key is not None:
            self._keys[index] = name  # until its outcome comes: the jobs in flight
        return True

    def record(self, outcomes: Iterator[Any]) -> Iterator[Any]:
        """The outcomes, each written to the sink and reported before it is
        handed over.

        :param outcomes: the batch's outcomes, in input order.
        """
        if not self.active:
            return outcomes
        return self._record(outcomes)

    def _record(self, outcomes: Iterator[Any]) -> Iterator[Any]:
        sink = self.sink
        owned = None
        try:
            if self.path is not None:
                sink = owned = open_sink(self.path, resume=self.resume)
            with InterruptGuard() as guard:
                for done, outcome in enumerate(outcomes, 1):
                    if self.key is not None:
                        outcome = evolve(outcome, source=self._keys.pop(outcome.index))
                    guard.holding = True  # a row written is a row reported
                    try:
                        if sink is not None:
                            sink.write(outcome)
                        if self.progress is not None:
                            self.progress(done, self.total, outcome)
                    finally:
                        guard.holding = False
                    guard.release()
                    yield outcome
        finally:
            close = getattr(outcomes, "close", None)
            try:
                if callable(close):
                    close()  # the runner's own clean-up (its pools) first
            finally:
                if owned is not None:
                    owned.close()


__all__ = ["ROW_GROUP", "SUFFIXES", "InterruptGuard", "JsonLinesSink", "KeyOf", "Numbered",
           "ParquetSink", "Progress", "Recording", "Sink", "Summary", "check_path",
           "check_resumable", "check_writable", "done_keys", "job_key", "numbered", "open_sink",
           "outcome_text", "row"]
