"""Scenario documents: reading a scenario text, with its bounds and line maps.

The first of the three parts of reading a scenario file (then
:mod:`redzone.formats.validator` checks the document against the schema,
and :mod:`redzone.formats.scenario` builds the engine's inputs):

1. refuse texts over :data:`MAX_BYTES` and, before the TOML parser sees a
   text, lines over :data:`MAX_LINE` characters and keys nested deeper than
   :data:`MAX_DEPTH` (a linear pre-scan that follows the TOML grammar);
2. parse TOML or JSON, refusing duplicate keys, non-finite numbers and
   strings that aren't valid Unicode;
3. map each key path to its line, so every problem can name its line;
4. refuse documents over the size bounds (:func:`size_problem`).

Every problem is a :class:`ScenarioProblems` naming the file, the key and
the line.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any, Final

from attrs import field, frozen

from redzone.kernel.errors import ScenarioError
from redzone.kernel.frozen import FrozenMap

#: Files larger than this are refused before they are parsed.
MAX_BYTES: Final = 1 << 20

#: Documents nested deeper than this are refused (a valid scenario nests
#: about 7 levels: combat.actions[0].permanent.counters."+1/+1").
MAX_DEPTH: Final = 32

#: Documents with more values than this (tables, lists, strings, numbers...)
#: are refused; strings (keys included) longer than :data:`MAX_BYTES` in all
#: are too.
MAX_NODES: Final = 250_000


Path = tuple[str | int, ...]



# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class ScenarioProblems(ScenarioError):
    """Every problem found in one scenario file (error kind ``bad_scenario``).

    Its own ``file``, ``key`` and ``line`` are those of the first problem.

    :ivar problems: each problem, as a :class:`~redzone.ScenarioError`, in
        the order of the file.
    """

    def __init__(self, problems: Sequence[ScenarioError]) -> None:
        if not problems:
            raise ValueError("ScenarioProblems needs at least one problem")
        self.problems = tuple(problems)
        first = self.problems[0]
        more = len(self.problems) - 1
        extra = f" (and {more} more problem{'s' if more != 1 else ''})" if more else ""
        super().__init__(first.detail + extra, file=first.file, key=first.key, line=first.line)


def format_path(path: Path) -> str:
    """A key path as the error messages write it: ``permanents[2].power``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        elif isinstance(part, str):
            seg = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            out += ("." if out else "") + seg
        else:  # a key that isn't a string (a document made in Python): as Python writes it
            out += f"[{quoted(part)}]"
    return out


def line_for(lines: Mapping[Path, int], path: Path) -> int | None:
    """The line of ``path``, or of its nearest enclosing key that has one."""
    for k in range(len(path), 0, -1):
        line = lines.get(path[:k])
        if line is not None:
            return line
    return None


class Problems:
    def __init__(self, file: str, lines: Mapping[Path, int]) -> None:
        self.file = file
        self.lines = lines
        self.found: list[tuple[int, int, ScenarioError]] = []

    def add(self, path: Path, message: str, *, key: str | None = None) -> None:
        line = line_for(self.lines, path)
        err = ScenarioError(message, file=self.file,
                            key=format_path(path) if key is None else key, line=line)
        self.found.append((line if line is not None else 0 if key else 1 << 30,
                           len(self.found), err))

    def extend(self, other: Iterable[tuple[Path, str]]) -> None:
        for path, message in other:
            self.add(path, message)

    def __bool__(self) -> bool:
        return bool(self.found)

    def error(self) -> ScenarioProblems:
        return ScenarioProblems([e for _line, _i, e in sorted(self.found, key=lambda t: t[:2])])


def quoted(value: Any) -> str:
    """``repr`` of a value for a message, long strings cut short."""
    if isinstance(value, str) and len(value) > 60:
        return repr(value[:57] + "...")
    return repr(value)


def size_problem(data: Any) -> str | None:
    """Why a parsed document is too large to validate (nested deeper than
    :data:`MAX_DEPTH`, more than :data:`MAX_NODES` values, or more than
    :data:`MAX_BYTES` characters of strings), or ``None``. Iterative, so it
    never recurses itself."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    nodes = chars = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return f"the document has more than {MAX_NODES} values; it is refused"
        if depth > MAX_DEPTH:
            return f"the document is nested more than {MAX_DEPTH} levels deep; it is refused"
        if isinstance(node, str):
            chars += len(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                chars += len(key) if isinstance(key, str) else 0
                stack.append((value, depth + 1))
        elif isinstance(node, list | tuple):
            for value in node:
                stack.append((value, depth + 1))
        if chars > MAX_BYTES:
            return (f"the document's strings hold more than {MAX_BYTES} characters (1 MiB); "
                    "it is refused")
    return None


# ---------------------------------------------------------------------------
# Reading and parsing, with lines for key paths
# ---------------------------------------------------------------------------


@frozen
class Document:
    """A parsed scenario file.

    :param file: the file name as given.
    :param text: its text.
    :param data: the parsed document.
    :param format: ``"toml"`` or ``"json"``.
    :param lines: key path -> line, from a light scan of the text.
    """

    file: str
    text: str
    data: Any
    format: str
    lines: FrozenMap[Path, int] = field(eq=False, repr=False)


def _unquote(part: str) -> str:
    part = part.strip()
    if len(part) >= 2 and part[0] == part[-1] == '"':
        try:
            value = json.loads(part)
        except ValueError:
            return part[1:-1]
        return str(value)
    if len(part) >= 2 and part[0] == part[-1] == "'":
        return part[1:-1]
    return part


_BARE_KEY: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SCALAR_END: Final = frozenset(",]}\n#")
_ML_BASIC: Final = '"' * 3
_ML_LITERAL: Final = "'" * 3

#: Physical lines longer than this are refused before parsing.
MAX_LINE: Final = 20_000


class _Stop(Exception):
    """The scan stops (a syntax error, or a limit)."""


class _TomlScan:
    """One linear pass over a TOML text that follows its grammar (strings,
    multi-line strings, comments, arrays, inline tables, table headers), to
    find the line of every key and array item, and to refuse key paths
    deeper than :data:`MAX_DEPTH` *before* the text reaches the TOML parser
    (whose cost grows with the square of a dotted key's length). On a syntax
    error it stops: the parser reports the error."""

    def __init__(self, text: str) -> None:
        self.t = text
        self.n = len(text)
        self.i = 0
        self.line = 1
        self.out: dict[Path, int] = {}
        #: (line, offset, path) of each key and table header, in text order.
        self.keys: list[tuple[int, int, Path]] = []
        self.problem: tuple[str, int] | None = None
        self.aot: dict[tuple[str, ...], int] = {}
        self.kids: dict[tuple[str, ...], set[tuple[str, ...]]] = {}

    # -- low level ---------------------------------------------------------------

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.t[j] if j < self.n else ""

    def skip_ws(self, newlines: bool) -> None:
        t, n = self.t, self.n
        while self.i < n:
            c = t[self.i]
            if c in " \t\r":
                self.i += 1
            elif c == "\n" and newlines:
                self.i += 1
                self.line += 1
            elif c == "#":
                j = t.find("\n", self.i)
                self.i = n if j < 0 else j
            else:
                return

    def string(self) -> str | None:
        """Skip the string at ``i`` (any of TOML's four kinds); the value of a
        one-line string (for keys), ``None`` for a multi-line one."""
        t = self.t
        if t.startswith(_ML_BASIC, self.i) or t.startswith(_ML_LITERAL, self.i):
            quote = t[self.i:self.i + 3]
            j = self.i + 3
            while True:
                k = t.find(quote, j)
                if k < 0:
                    raise _Stop
                if quote == _ML_BASIC:
                    back = 0
                    while k - 1 - back >= j and t[k - 1 - back] == "\\":
                        back += 1
                    if back % 2:  # an escaped quote: not the end
                        j = k + 1
                        continue
                end = k + 3
                while end < self.n and t[end] == quote[0] and end - k < 5:
                    end += 1  # up to two quotes may end the content (TOML 1.0)
                self.line += t.count("\n", self.i, end)
                self.i = end
                return None
        quote = t[self.i]
        j = self.i + 1
        while j < self.n:
            c = t[j]
            if c == "\n":
                raise _Stop
            if c == "\\" and quote == '"':
                j += 2
                continue
            if c == quote:
                raw = t[self.i:j + 1]
                self.i = j + 1
                return _unquote(raw)
            j += 1
        raise _Stop

    def key(self) -> tuple[str, ...]:
        parts: list[str] = []
        while True:
            self.skip_ws(False)
            c = self.peek()
            if c in ('"', "'") and c:
                value = self.string()
                if value is None:
                    raise _Stop  # a multi-line string is not a key
                parts.append(value)
            elif c and c in _BARE_KEY:
                j = self.i
                while j < self.n and self.t[j] in _BARE_KEY:
                    j += 1
                parts.append(self.t[self.i:j])
                self.i = j
            else:
                raise _Stop
            if len(parts) > MAX_DEPTH:
                self.problem = (f"a key has more than {MAX_DEPTH} dotted parts; the document "
                                "is refused", self.line)
                raise _Stop
            self.skip_ws(False)
            if self.peek() != ".":
                return tuple(parts)
            self.i += 1

    def record(self, path: Path, line: int) -> None:
        if len(path) > MAX_DEPTH:
            self.problem = (f"the key {format_path(path)[:60]} is nested more than "
                            f"{MAX_DEPTH} levels deep; the document is refused", line)
            raise _Stop
        self.out.setdefault(path, line)

    def expect(self, char: str) -> None:
        self.skip_ws(False)
        if self.peek() != char:
            raise _Stop
        self.i += 1

    # -- structure ---------------------------------------------------------------

    def header(self, parts: tuple[str, ...], new_array: bool) -> Path:
        path: list[str | int] = []
        for k in range(1, len(parts) + 1):
            path.append(parts[k - 1])
            prefix = parts[:k]
            if k == len(parts) and new_array:
                self.aot[prefix] = self.aot.get(prefix, -1) + 1
                self._forget(prefix)
                path.append(self.aot[prefix])
            elif prefix in self.aot:
                path.append(self.aot[prefix])
        for k in range(1, len(parts)):
            self.kids.setdefault(parts[:k], set()).add(parts)
        return tuple(path)

    def _forget(self, prefix: tuple[str, ...]) -> None:
        """A new item of an array of tables starts its sub-arrays afresh."""
        todo = list(self.kids.pop(prefix, ()))
        while todo:
            stale = todo.pop()
            self.aot.pop(stale, None)
            todo.extend(self.kids.pop(stale, ()))

    def scalar_or_open(self, path: Path, frames: list[list[Any]]) -> bool:
        """Read the value at ``i``: a scalar (``False``), or the opening of an
        array or inline table pushed on ``frames`` (``True``)."""
        c = self.peek()
        if c == "[":
            self.i += 1
            frames.append(["[", path, 0])
            return True
        if c == "{":
            self.i += 1
            frames.append(["{", path, 0])
            return True
        if c in ('"', "'") and c:
            self.string()
            return False
        j = self.i
        while j < self.n and self.t[j] not in _SCALAR_END and self.t[j] not in " \t\r":
            j += 1
        if j == self.i:
            raise _Stop
        self.i = j
        return False

    def pair(self, table: Path, frames: list[list[Any]]) -> None:
        """``key = value`` inside an inline table."""
        self.skip_ws(False)
        line, start = self.line, self.i
        key = (*table, *self.key())
        self.record(key, line)
        self.keys.append((line, start, key))
        self.expect("=")
        self.skip_ws(False)
        self.scalar_or_open(key, frames)

    def value(self, path: Path) -> None:
        """The value of ``path`` at ``i``; arrays and inline tables nest on an
        explicit stack (never recursion)."""
        frames: list[list[Any]] = []
        self.skip_ws(False)
        if not self.scalar_or_open(path, frames):
            return
        opened = True
        while frames:
            top = frames[-1]
            if top[0] == "[":
                self.skip_ws(True)
                if self.peek() == "]":
                    self.i += 1
                    frames.pop()
                    opened = False
                    continue
                if not opened:
                    if self.peek() != ",":
                        raise _Stop
                    self.i += 1
                    top[2] += 1
                    self.skip_ws(True)
                    if self.peek() == "]":  # a trailing comma
                        self.i += 1
                        frames.pop()
                        continue
                item = (*top[1], top[2])
                self.record(item, self.line)
                opened = self.scalar_or_open(item, frames)
                continue
            self.skip_ws(False)
            if self.peek() == "}":
                self.i += 1
                frames.pop()
                opened = False
                continue
            if not opened:
                if self.peek() != ",":
                    raise _Stop
                self.i += 1
            depth = len(frames)
            self.pair(top[1], frames)
            opened = len(frames) > depth

    def run(self) -> None:
        current: Path = ()
        try:
            while True:
                self.skip_ws(True)
                if self.i >= self.n:
                    return
                line, start = self.line, self.i
                if self.peek() == "[":
                    new_array = self.peek(1) == "["
                    self.i += 2 if new_array else 1
                    parts = self.key()
                    close = "]]" if new_array else "]"
                    self.skip_ws(False)
                    if not self.t.startswith(close, self.i):
                        raise _Stop
                    self.i += len(close)
                    current = self.header(parts, new_array)
                    self.record(current, line)
                    self.keys.append((line, start, current))
                    continue
                key = (*current, *self.key())
                self.record(key, line)
                self.keys.append((line, start, key))
                self.expect("=")
                self.value(key)
        except _Stop:
            return


def toml_prescan(text: str) -> tuple[dict[Path, int], tuple[str, int] | None]:
    """Key path -> line for a TOML text, and the first limit it breaks (a
    line over :data:`MAX_LINE` characters, a key path deeper than
    :data:`MAX_DEPTH`) with its line, or ``None``. Linear in the text."""
    scan, limit = _toml_scan(text)
    return (scan.out if scan is not None else {}), limit


def _toml_scan(text: str) -> tuple[_TomlScan | None, tuple[str, int] | None]:
    """:func:`toml_prescan`'s scan (``None`` when a line is too long), and
    the first limit the text breaks."""
    pos = 0
    lineno = 1
    while True:
        j = text.find("\n", pos)
        end = len(text) if j < 0 else j
        if end - pos > MAX_LINE:
            return None, (f"line {lineno} is longer than {MAX_LINE} characters; the document "
                        "is refused", lineno)
        if j < 0:
            break
        pos = j + 1
        lineno += 1
    scan = _TomlScan(text)
    scan.run()
    return scan, scan.problem


def _key_at(scan: _TomlScan, text: str, line: int, column: int) -> Path | None:
    """The key a TOML parser's error at ``line`` and ``column`` is in: the
    last key or table header of that line that starts before the column."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    found: Path | None = None
    for key_line, offset, path in scan.keys:
        if key_line > line:
            break
        if key_line == line and offset < start + column:
            found = path
    return found


def toml_lines(text: str) -> dict[Path, int]:
    """Key path -> line for a TOML text, following the TOML grammar (a
    multi-line string holding ``[[permanents]]`` is not a header; keys of
    inline tables and items of arrays get their own lines)."""
    return toml_prescan(text)[0]


def json_lines(text: str) -> dict[Path, int]:
    """Key path -> line for a JSON text (which must already parse)."""
    return _JsonScan(text).lines


class _JsonScan:
    """One pass over a JSON text: the line of each key path (:attr:`lines`),
    the path and line of the first key given twice in one object
    (:attr:`duplicates`, by key) and of the first ``NaN``, ``Infinity`` or
    ``-Infinity`` (:attr:`constant`), for the parser's errors, which name
    neither."""

    _CONSTANTS: Final = ("NaN", "Infinity", "-Infinity")

    def __init__(self, text: str) -> None:
        self.lines: dict[Path, int] = {}
        self.duplicates: dict[str, tuple[Path, int]] = {}
        self.constant: tuple[Path, int] | None = None
        self._run(text)

    def _run(self, text: str) -> None:
        out = self.lines
        # frames: [is_object, path, key or index, keys seen (objects)]
        frames: list[list[Any]] = []
        line = 1
        i, n = 0, len(text)

        def here() -> Path:
            if not frames:
                return ()
            top = frames[-1]
            return (*top[1], top[2]) if top[2] is not None else tuple(top[1])

        while i < n:
            c = text[i]
            if c == "\n":
                line += 1
                i += 1
                continue
            if c in " \t\r:":
                i += 1
                continue
            if c == '"':
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                k = j + 1
                while k < n and text[k] in " \t\r\n":
                    k += 1
                if frames and frames[-1][0] and k < n and text[k] == ":":
                    try:
                        key = json.loads(text[i:j + 1])
                    except ValueError:
                        key = text[i + 1:j]
                    frames[-1][2] = key
                    if key in frames[-1][3]:
                        self.duplicates.setdefault(str(key), (here(), line))
                    frames[-1][3].add(key)
                    out.setdefault(here(), line)
                else:
                    out.setdefault(here(), line)
                i = j + 1
                continue
            if c == ",":
                if frames and not frames[-1][0]:
                    frames[-1][2] += 1
                i += 1
                continue
            if c in "{[":
                path = here()
                out.setdefault(path, line)
                frames.append([c == "{", path, None if c == "{" else 0, set()])
                i += 1
                continue
            if c in "}]":
                if frames:
                    frames.pop()
                i += 1
                continue
            if self.constant is None and text.startswith(self._CONSTANTS, i):
                self.constant = (here(), line)
            out.setdefault(here(), line)
            i += 1


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(key)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _Constant(ValueError):
    """JSON's ``NaN``, ``Infinity`` or ``-Infinity``, which no scenario uses."""


def _no_constant(name: str) -> Any:
    raise _Constant(f"{name} is not a number a scenario can use")


def _valid_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_text(data: Any) -> tuple[Path, str] | None:
    """The path of the first key or string of ``data`` that isn't valid text
    (a lone surrogate, which JSON's ``\\ud800`` escapes can make), and which
    of the two it is. Iterative."""
    stack: list[tuple[Path, Any]] = [((), data)]
    seen = 0
    while stack and seen <= MAX_NODES:
        path, node = stack.pop()
        seen += 1
        if isinstance(node, str):
            if not _valid_text(node):
                return path, "the value"
        elif isinstance(node, dict):
            for key in node:
                if isinstance(key, str) and not _valid_text(key):
                    return path, f"a key of {format_path(path) or 'the document'}"
            # In document order: the stack pops the last pushed first.
            stack.extend(((*path, k), v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(node))))
    return None


def data_problem(data: Any) -> str | None:
    """The document bounds, for a value read from elsewhere (a card file's
    entry): :func:`size_problem`, then a key or string that isn't valid text;
    the problem, or ``None``."""
    too_big = size_problem(data)
    if too_big is not None:
        return too_big
    bad_text = _not_text(data)
    if bad_text is None:
        return None
    path, what = bad_text
    where = f" ({format_path(path)})" if path and what == "the value" else ""
    return (f"{what}{where} is not valid Unicode text (it holds a lone surrogate, which "
            "can't be written as UTF-8)")





def parse_text(text: str, *, file: str = "<scenario>", format: str = "toml") -> Document:
    """Parse a scenario text.

    :param format: ``"toml"`` or ``"json"``.
    :raises ScenarioProblems: for a syntax error (with its line) or a text
        over :data:`MAX_BYTES`.
    """
    def fail(message: str, line: int | None = None, key: Path | None = None
             ) -> ScenarioProblems:
        return ScenarioProblems([ScenarioError(message, file=file, line=line,
                                               key="" if key is None else format_path(key))])

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise fail(f"the scenario is larger than {MAX_BYTES} bytes (1 MiB); it is refused")
    toml_keys: dict[Path, int] | None = None
    scan: _TomlScan | None = None
    if format != "json":
        scan, limit = _toml_scan(text)
        if limit is not None:
            raise fail(limit[0], limit[1])
        toml_keys = scan.out if scan is not None else {}
    try:
        if format == "json":
            data = json.loads(text, object_pairs_hook=_no_duplicates,
                              parse_constant=_no_constant)
        else:
            data = tomllib.loads(text)
    except _DuplicateKey as exc:
        # (the parser names the key, not where it is: a scan of the text says)
        dups = _JsonScan(text).duplicates
        at = dups.get(exc.key) or next(iter(dups.values()), None)
        raise fail(f"invalid JSON: duplicate key {exc.key!r}", *(at[::-1] if at else ())
                   ) from None
    except _Constant as exc:
        at = _JsonScan(text).constant
        raise fail(f"invalid JSON: {exc}", *(at[::-1] if at else ())) from None
    except json.JSONDecodeError as exc:
        raise fail(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                   exc.lineno) from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+), column (\d+)", str(exc))
        if m is None:
            raise fail(f"invalid TOML: {exc}") from None
        line, column = int(m.group(1)), int(m.group(2))
        key = _key_at(scan, text, line, column) if scan is not None else None
        raise fail(f"invalid TOML: {exc}", line, key) from None
    except RecursionError:
        raise fail(f"invalid {format.upper()}: the document is nested too deeply") from None
    except ValueError as exc:  # huge integers, NaN, surrogates...
        raise fail(f"invalid {format.upper()}: {exc}") from None
    bad_text = _not_text(data)
    if bad_text is not None:
        path, what = bad_text
        raise ScenarioProblems([ScenarioError(
            f"{what} is not valid Unicode text (it holds a lone surrogate, which can't be "
            "written as UTF-8)", file=file, key=format_path(path))])
    if toml_keys is not None:
        lines = toml_keys
    else:
        try:
            lines = json_lines(text)
        except (RecursionError, ValueError):  # pragma: no cover - lines are best effort
            lines = {}
    return Document(file, text, data, format, FrozenMap(lines))


class UnreadableFileError(OSError):
    """A file that can't be opened for reading, or isn't a regular file; its
    message says why without naming the file (the caller names it).

    :ivar missing: whether there is no such file.
    """

    def __init__(self, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


def open_regular(file: str, what: str) -> IO[bytes]:
    """``file``, opened for reading bytes, if it is a regular file.

    It is opened without blocking and checked on the open descriptor, so a
    FIFO (which would wait for a writer), a device (``/dev/zero`` never ends)
    or a directory is refused at once, even one put in the file's place after
    a check. Scenario files and card files are opened by it.

    :param what: what the file is, for the messages (``"scenario file"``).
    :raises UnreadableFileError: for a missing file, one that can't be read,
        or one that isn't regular.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(file, flags)
    except FileNotFoundError:
        raise UnreadableFileError(f"no such {what}", missing=True) from None
    except IsADirectoryError:  # pragma: no cover - POSIX opens a directory
        raise UnreadableFileError(f"not a regular file (a directory); a {what} must be a "
                                  "regular file") from None
    except OSError as exc:
        raise UnreadableFileError(f"can't read the {what}: {exc.strerror or exc}") from None
    except ValueError:  # (a NUL in the name: no file can have it)
        raise UnreadableFileError(f"no such {what}: its name has a NUL character, which no "
                                  "file name can hold", missing=True) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a file")
            raise UnreadableFileError(f"not a regular file ({kind}); a {what} must be a "
                                      "regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_document(path: str | os.PathLike[str]) -> Document:
    """Read and parse a scenario file: JSON if its name ends in ``.json``,
    otherwise TOML.

    :raises ScenarioProblems: for a missing or unreadable file, one that is
        not a regular file (a FIFO, a device, a directory: refused at once,
        by :func:`open_regular`), one over :data:`MAX_BYTES`, bad UTF-8 or a
        syntax error.
    """
    file = os.fspath(path)
    return document_of_bytes(read_scenario_bytes(file), file=file)


def read_scenario_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a scenario file, as :func:`read_document` reads them
    (the first half of it: :func:`document_of_bytes` is the second).

    :raises ScenarioProblems: for a missing or unreadable file, one that is
        not a regular file, or one over :data:`MAX_BYTES`.

    .. versionadded:: 0.1.0
    """
    file = os.fspath(path)

    def fail(message: str) -> ScenarioProblems:
        return ScenarioProblems([ScenarioError(message, file=file)])

    try:
        with open_regular(file, "scenario file") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_BYTES:
                raise fail(f"the file is {size} bytes; scenario files are limited to "
                           f"{MAX_BYTES} bytes (1 MiB)")
            raw = fh.read(MAX_BYTES + 1)
    except UnreadableFileError as exc:
        raise fail("no such file" if exc.missing else str(exc)) from None
    except OSError as exc:
        raise fail(f"can't read the file: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise fail(f"the file is larger than {MAX_BYTES} bytes (1 MiB); it is refused")
    return raw


def document_of_bytes(raw: bytes, *, file: str) -> Document:
    """Parse the bytes of a scenario file named ``file`` exactly as
    :func:`read_document` parses what it reads: UTF-8 (a byte-order mark
    allowed), JSON if the name ends in ``.json``, otherwise TOML; every
    error names ``file``. A file read in one process can be parsed in
    another (a batch's worker) with the same outcome.

    :raises ScenarioProblems: for bad UTF-8 or a syntax error.

    .. versionadded:: 0.1.0
    """
    if len(raw) > MAX_BYTES:
        raise ScenarioProblems([ScenarioError(
            f"the file is larger than {MAX_BYTES} bytes (1 MiB); it is refused", file=file)])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioProblems([ScenarioError(
            f"the file is not valid UTF-8 text ({exc.reason} at byte {exc.start})", file=file,
            line=raw.count(b"\n", 0, exc.start) + 1)]) from None
    fmt = "json" if file.lower().endswith(".json") else "toml"
    return parse_text(text, file=file, format=fmt)
