"""Sinks: where a batch's outcomes go as each job finishes.

A sink takes one :class:`~redzone.execution.jobs.JobOutcome` at a time and
keeps nothing of it in memory beyond a bounded buffer, so a batch of any
size runs in flat memory. Each row holds what the "Batch runs" part of the
scenario format names: ``file``, ``status``, ``kind``, ``message`` (the
error's message, ``null`` for a resolved job) and ``outcome`` (the JSON
outcome: an object in JSON lines, its compact JSON text in Parquet).

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
"""

from __future__ import annotations

import importlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from heapq import heappush, heappushpop
from pathlib import Path
from typing import Any, Final, Protocol

from redzone.execution.engines import BatchError
from redzone.execution.jobs import JobOutcome
from redzone.formats.outcome import EXIT_FAILURE

#: The file suffixes a sink is chosen by.
SUFFIXES: Final = (".jsonl", ".parquet")

#: Rows buffered before a Parquet row group is written.
ROW_GROUP: Final = 4096

#: How many of the slowest jobs a :class:`Summary` keeps.
SLOWEST: Final = 5


class Sink(Protocol):
    """What a batch writes its outcomes to.

    .. versionadded:: 0.1.0
    """

    def write(self, outcome: JobOutcome) -> None:
        """Write one job's row."""

    def close(self) -> None:
        """Write what is buffered and close the file."""


def row(outcome: JobOutcome) -> dict[str, Any]:
    """One job's row: ``file``, ``status``, ``kind``, ``message``, ``outcome``.

    :param outcome: the job's outcome.
    :returns: the row, with the outcome parsed.
    """
    parsed = outcome.outcome
    error = parsed.get("error")
    message = error.get("message") if isinstance(error, dict) and outcome.status else None
    return {"file": outcome.source, "status": outcome.status, "kind": outcome.kind,
            "message": message, "outcome": parsed}


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

    def write(self, outcome: JobOutcome) -> None:
        r = row(outcome)
        del r["outcome"]
        head = json.dumps(r, ensure_ascii=False)[:-1]
        self._file.write(f'{head}, "outcome": {outcome.json}}}\n')
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
                                  ("outcome", pa.string())])
        self._target = self.path.with_name(self.path.name + ".partial")
        self._writer = pq.ParquetWriter(str(self._target), self._schema)
        self._rows: list[dict[str, Any]] = []
        if resume and self.path.exists():
            try:
                old = pq.ParquetFile(str(self.path))
                for i in range(old.num_row_groups):
                    self._writer.write_table(old.read_row_group(i).cast(self._schema))
            except Exception as exc:
                self._writer.close()
                self._target.unlink(missing_ok=True)
                raise BatchError(f"{self.path}: can't resume from this Parquet file "
                                 f"({type(exc).__name__}: {exc})") from None

    def write(self, outcome: JobOutcome) -> None:
        r = row(outcome)
        r["outcome"] = outcome.json
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


def open_sink(path: str | os.PathLike[str], *, resume: bool = False) -> Sink:
    """The sink for ``path``, chosen by its suffix.

    :param path: a ``.jsonl`` or ``.parquet`` file.
    :param resume: keep the rows already there.
    :raises BatchError: for another suffix, or what the sink raises.

    .. versionadded:: 0.1.0
    """
    check_path(path)
    if Path(path).suffix == ".parquet":
        return ParquetSink(path, resume=resume)
    return JsonLinesSink(path, resume=resume)


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
    with p.open(encoding="utf-8") as f:
        for line in f:
            if not line.endswith("\n"):
                break  # torn by a killed run: its job runs again
            try:
                keys.add(str(json.loads(line)["file"]))
            except (ValueError, KeyError, TypeError):
                break
    return keys


class Summary:
    """A batch's summary, added to one outcome at a time in constant memory:
    counts by status and by keyword, what failed, jobs sent again, and the
    :data:`SLOWEST` slowest jobs.

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


__all__ = ["ROW_GROUP", "SUFFIXES", "JsonLinesSink", "ParquetSink", "Sink", "Summary",
           "check_path", "done_keys", "open_sink", "row"]
