"""Scenario files: read, validate and turn into engine inputs.

A scenario file (TOML, or JSON when its name ends in ``.json``) describes one
board and one combat; the format is a public contract, documented in the
scenario format specification and shipped as a JSON Schema
(``redzone/formats/schema.json``). This module:

1. reads the file (refusing files over :data:`MAX_BYTES`) and parses it;
2. checks it against the schema: types, required and unknown keys (with the
   closest valid key suggested), bounds on integers;
3. checks what the schema can't: which ids exist and what kind of object
   each names, duplicate ids, keywords no loaded plugin provides (with close
   matches), the rules edition;
4. builds a :class:`Scenario`: a :class:`~redzone.GameState` and the
   declarations, assignments and actions :meth:`redzone.Engine.resolve` takes.

Every problem found is collected, so one :class:`ScenarioProblems` error
lists them all, each with the file, the key path and, where one can be found,
the line.
"""

from __future__ import annotations

import contextvars
import difflib
import functools
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from attrs import field, frozen

from redzone.formats import cards as _cards
from redzone.kernel.actions import ACTIONS, Action
from redzone.kernel.editions import EDITIONS, get_edition
from redzone.kernel.engine import CombatPlan, Engine
from redzone.kernel.errors import ScenarioError, UnknownKeywordError
from redzone.kernel.frozen import EMPTY, FrozenMap, evolve
from redzone.kernel.model import (
    UNLIMITED,
    Effect,
    GameState,
    Keyword,
    Permanent,
    Player,
    StackObject,
    new_game,
    team_life,
)

#: Files larger than this are refused before they are parsed.
MAX_BYTES: Final = 1 << 20

#: Documents nested deeper than this are refused (a valid scenario nests
#: about 7 levels: combat.actions[0].permanent.counters."+1/+1").
MAX_DEPTH: Final = 32

#: Documents with more values than this (tables, lists, strings, numbers...)
#: are refused; strings (keys included) longer than :data:`MAX_BYTES` in all
#: are too.
MAX_NODES: Final = 250_000

#: The editions the scenario format names (the engine may implement fewer).
FORMAT_EDITIONS: Final = ("foundations", "m10", "sixth")

Path = tuple[str | int, ...]
EngineFactory = Callable[[str], Engine]


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
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            seg = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            out += ("." if out else "") + seg
    return out


def line_for(lines: Mapping[Path, int], path: Path) -> int | None:
    """The line of ``path``, or of its nearest enclosing key that has one."""
    for k in range(len(path), 0, -1):
        line = lines.get(path[:k])
        if line is not None:
            return line
    return None


class _Problems:
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


def _shown(value: Any) -> str:
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


#: How many "did you mean" suggestions one scenario gets; problems past it
#: are reported without one (each suggestion compares the word with the
#: candidates, so an unbounded number of them costs the square of the file).
MAX_SUGGESTIONS: Final = 50
#: The most candidates one suggestion compares the word with.
MAX_CANDIDATES: Final = 200
#: The most character pairs one suggestion compares: comparing a word with a
#: candidate walks up to the product of their lengths at each step of
#: difflib's matching, so 200 candidates of 10 characters fit, but only two
#: of 100 (50 suggestions over 100-character ids used to cost seconds).
MAX_SUGGEST_PAIRS: Final = 20_000
#: Longer words get no suggestion.
MAX_SUGGEST_WORD: Final = 100

_suggestions_left: contextvars.ContextVar[int] = contextvars.ContextVar(
    "redzone_suggestions_left", default=MAX_SUGGESTIONS)


@functools.lru_cache(maxsize=4096)
def _bigrams(word: str) -> frozenset[str]:
    """The pairs of adjacent characters of ``word``, its ends included."""
    padded = f"\0{word}\0"
    return frozenset(padded[i:i + 2] for i in range(len(padded) - 1))


def _suggest(word: str, options: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the option closest to ``word`` (difflib's
    ratio, at least 0.6), or ``""``.

    The options about as long as the word are compared, all of them when they
    fit :data:`MAX_CANDIDATES` and :data:`MAX_SUGGEST_PAIRS`; otherwise those
    sharing the most character pairs with the word come first (a misspelt id
    shares nearly all of its own), as many as fit."""
    left = _suggestions_left.get()
    if left <= 0 or len(word) > MAX_SUGGEST_WORD:
        return ""
    _suggestions_left.set(left - 1)
    size = max(len(word), 1)
    pool = [o for o in options if abs(len(o) - len(word)) <= max(3, len(word) // 2)]
    if len(pool) > MAX_CANDIDATES or size * sum(map(len, pool)) > MAX_SUGGEST_PAIRS:
        grams = _bigrams(word)
        ranked = sorted((-len(grams & _bigrams(o)), abs(len(o) - len(word)), o) for o in pool)
        pool, room = [], MAX_SUGGEST_PAIRS
        for _shared, _gap, option in ranked[:MAX_CANDIDATES]:
            room -= size * max(len(option), 1)
            if room < 0:
                break
            pool.append(option)
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


# ---------------------------------------------------------------------------
# The schema and a validator for the part of JSON Schema it uses
# ---------------------------------------------------------------------------


@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the scenario format (shipped as ``redzone/formats/schema.json``)."""
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


def schema_text() -> str:
    """The JSON Schema as shipped, as text."""
    # Beside this module when the package is files on disk (importlib.resources
    # is slow to import, and every scenario is checked against the schema);
    # through importlib.resources otherwise (a zip import).
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")
    if os.path.isfile(here):
        with open(here, encoding="utf-8") as fh:
            return fh.read()
    from importlib import resources

    return resources.files("redzone.formats").joinpath("schema.json").read_text(encoding="utf-8")


_TYPE_NAMES = {
    "object": "a table",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "null",
}


def _describe_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value!r}, which is not a whole number"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__} ({value!s})"


def _type_ok(value: Any, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    return False


_DISCRIMINATOR_NAMES = {"do": "action", "kind": "effect kind"}


class _Validator:
    """Validates a document against the shipped schema (the keywords it uses:
    ``type``, ``properties``, ``required``, ``additionalProperties``,
    ``propertyNames``, ``items``, ``enum``, ``const``, ``anyOf``, ``oneOf``
    with a ``const`` discriminator, ``$ref``, and the bounds)."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def deref(self, sch: Mapping[str, Any]) -> Mapping[str, Any]:
        seen = 0
        while "$ref" in sch:
            ref = sch["$ref"]
            if not isinstance(ref, str) or not ref.startswith("#/"):
                raise ValueError(f"unsupported $ref {ref!r}")
            node: Any = self.root
            for part in ref[2:].split("/"):
                node = node[part]
            sch = node
            seen += 1
            if seen > 50:  # pragma: no cover - a broken schema
                raise ValueError(f"$ref loop at {ref!r}")
        return sch

    def describe(self, sch: Mapping[str, Any]) -> str:
        sch = self.deref(sch)
        if "const" in sch:
            return repr(sch["const"])
        if "enum" in sch:
            return "one of " + ", ".join(repr(v) for v in sch["enum"])
        if "anyOf" in sch:
            return " or ".join(self.describe(s) for s in sch["anyOf"])
        kind = sch.get("type")
        if kind == "integer":
            lo, hi = sch.get("minimum"), sch.get("maximum")
            if lo is not None and hi is not None:
                return f"a whole number from {lo} to {hi}"
            return "a whole number"
        if kind == "array":
            items = sch.get("items")
            return f"a list of {self._plural(items)}" if items else "a list"
        if isinstance(kind, str):
            return _TYPE_NAMES.get(kind, kind)
        return "a value"

    def _plural(self, sch: Mapping[str, Any]) -> str:
        text = self.describe(sch)
        return {"a string": "strings", "a table": "tables"}.get(text, text)

    def validate(self, value: Any, sch: Mapping[str, Any], path: Path,
                 out: list[tuple[Path, str]]) -> bool:
        sch = self.deref(sch)
        if "oneOf" in sch:
            return self._one_of(value, sch["oneOf"], path, out)
        if "anyOf" in sch:
            return self._any_of(value, sch["anyOf"], path, out)
        if "const" in sch:
            const = sch["const"]
            if type(value) is not type(const) or value != const:
                out.append((path, f"expected {const!r}, got {_describe_value(value)}"))
                return False
            return True
        if "enum" in sch:
            options = sch["enum"]
            if not isinstance(value, str) or value not in options:
                hint = _suggest(value, options) if isinstance(value, str) else ""
                out.append((path, f"expected one of {', '.join(repr(o) for o in options)}, "
                                  f"got {_describe_value(value)}{hint}"))
                return False
            return True
        kind = sch.get("type")
        if isinstance(kind, str) and not _type_ok(value, kind):
            out.append((path, f"expected {self.describe(sch)}, got {_describe_value(value)}"))
            return False
        before = len(out)
        if isinstance(value, str):
            self._string(value, sch, path, out)
        elif isinstance(value, int) and not isinstance(value, bool):
            lo, hi = sch.get("minimum"), sch.get("maximum")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                out.append((path, f"{value} is out of bounds: expected {self.describe(sch)}"))
        elif isinstance(value, list):
            self._array(value, sch, path, out)
        elif isinstance(value, dict):
            self._object(value, sch, path, out)
        return len(out) == before

    def _string(self, value: str, sch: Mapping[str, Any], path: Path,
                out: list[tuple[Path, str]]) -> None:
        lo, hi = sch.get("minLength"), sch.get("maxLength")
        if lo is not None and len(value) < lo:
            out.append((path, "expected a non-empty string" if lo == 1 else
                        f"expected at least {lo} characters"))
        elif hi is not None and len(value) > hi:
            out.append((path, f"the string is {len(value)} characters long; at most {hi} "
                              "are allowed"))
        elif "pattern" in sch and not re.search(sch["pattern"], value):
            out.append((path, f"{value!r} is not a valid id: no spaces at either end"))

    def _array(self, value: list[Any], sch: Mapping[str, Any], path: Path,
               out: list[tuple[Path, str]]) -> None:
        lo, hi = sch.get("minItems"), sch.get("maxItems")
        if lo is not None and len(value) < lo:
            out.append((path, f"expected at least {lo} item{'s' if lo != 1 else ''}"))
        if hi is not None and len(value) > hi:
            out.append((path, f"{len(value)} items: at most {hi} are allowed"))
            return
        items = sch.get("items")
        if items is not None:
            for i, item in enumerate(value):
                self.validate(item, items, (*path, i), out)
        if sch.get("uniqueItems"):
            seen: list[Any] = []
            for i, item in enumerate(value):
                if any(type(item) is type(s) and item == s for s in seen):
                    shown = repr(item) if isinstance(item, str) else _describe_value(item)
                    out.append(((*path, i), f"{shown} is listed twice"))
                seen.append(item)

    def _object(self, value: dict[str, Any], sch: Mapping[str, Any], path: Path,
                out: list[tuple[Path, str]]) -> None:
        lo, hi = sch.get("minProperties"), sch.get("maxProperties")
        if lo is not None and len(value) < lo:
            out.append((path, f"expected at least {lo} entr{'ies' if lo != 1 else 'y'}"))
        if hi is not None and len(value) > hi:
            out.append((path, f"{len(value)} entries: at most {hi} are allowed"))
            return
        props: Mapping[str, Any] = sch.get("properties", {})
        additional = sch.get("additionalProperties", True)
        names = sch.get("propertyNames")
        for key in sch.get("required", ()):
            if key not in value:
                out.append(((*path, key), f"missing required key {key!r}"))
        for key, item in value.items():
            if names is not None:
                self.validate(key, names, (*path, key), out)
            if key in props:
                self.validate(item, props[key], (*path, key), out)
            elif additional is False:
                hint = _suggest(key, props) or (
                    f"; valid keys here: {', '.join(props)}" if props else "")
                out.append(((*path, key), f"unknown key {_shown(key)}{hint}"))
            elif isinstance(additional, dict):
                self.validate(item, additional, (*path, key), out)

    def _any_of(self, value: Any, branches: Sequence[Mapping[str, Any]], path: Path,
                out: list[tuple[Path, str]]) -> bool:
        attempts: list[list[tuple[Path, str]]] = []
        for branch in branches:
            found: list[tuple[Path, str]] = []
            if self.validate(value, branch, path, found):
                return True
            attempts.append(found)
        # Report the branch of the value's own type, if exactly one has it.
        typed = [a for b, a in zip(branches, attempts, strict=True)
                 if self._same_type(value, self.deref(b))]
        if len(typed) == 1:
            out.extend(typed[0])
        else:
            out.append((path, f"expected {' or '.join(self.describe(b) for b in branches)}, "
                              f"got {_describe_value(value)}"))
        return False

    def _same_type(self, value: Any, sch: Mapping[str, Any]) -> bool:
        if "const" in sch:
            return type(value) is type(sch["const"])
        if "enum" in sch:
            return any(type(value) is type(v) for v in sch["enum"])
        kind = sch.get("type")
        return isinstance(kind, str) and _type_ok(value, kind)

    def _one_of(self, value: Any, branches: Sequence[Mapping[str, Any]], path: Path,
                out: list[tuple[Path, str]]) -> bool:
        resolved = [self.deref(b) for b in branches]
        disc = self._discriminator(resolved)
        if disc is None:  # pragma: no cover - the shipped schema always has one
            return self._any_of(value, branches, path, out)
        if not isinstance(value, dict):
            out.append((path, f"expected a table, got {_describe_value(value)}"))
            return False
        options = {b["properties"][disc]["const"]: b for b in resolved}
        if disc not in value:
            out.append(((*path, disc), f"missing required key {disc!r} (one of "
                                       f"{', '.join(repr(o) for o in options)})"))
            return False
        chosen = value[disc]
        if not isinstance(chosen, str) or chosen not in options:
            hint = _suggest(chosen, options) if isinstance(chosen, str) else ""
            what = _DISCRIMINATOR_NAMES.get(disc, f"{disc!r} value")
            shown = _shown(chosen) if isinstance(chosen, str) else _describe_value(chosen)
            out.append(((*path, disc), f"unknown {what} {shown}; expected one of "
                                       f"{', '.join(repr(o) for o in options)}{hint}"))
            return False
        return self.validate(value, options[chosen], path, out)

    @staticmethod
    def _discriminator(branches: Sequence[Mapping[str, Any]]) -> str | None:
        if not branches:
            return None
        first = branches[0].get("properties", {})
        for key, sch in first.items():
            if "const" in sch and all("const" in b.get("properties", {}).get(key, {})
                                      for b in branches):
                return str(key)
        return None


def schema_problems(data: Any) -> list[tuple[Path, str]]:
    """Every way ``data`` breaks the schema, as (key path, message) pairs.

    A document too large to check (:func:`size_problem`) gives that one
    problem."""
    out: list[tuple[Path, str]] = []
    if not isinstance(data, dict):
        return [((), f"a scenario must be a table (a JSON object), not {_describe_value(data)}")]
    too_big = size_problem(data)
    if too_big is not None:
        return [((), too_big)]
    _Validator(schema()).validate(data, schema(), (), out)
    return out


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
        line = self.line
        key = (*table, *self.key())
        self.record(key, line)
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
                line = self.line
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
                    continue
                key = (*current, *self.key())
                self.record(key, line)
                self.expect("=")
                self.value(key)
        except _Stop:
            return


def toml_prescan(text: str) -> tuple[dict[Path, int], tuple[str, int] | None]:
    """Key path -> line for a TOML text, and the first limit it breaks (a
    line over :data:`MAX_LINE` characters, a key path deeper than
    :data:`MAX_DEPTH`) with its line, or ``None``. Linear in the text."""
    pos = 0
    lineno = 1
    while True:
        j = text.find("\n", pos)
        end = len(text) if j < 0 else j
        if end - pos > MAX_LINE:
            return {}, (f"line {lineno} is longer than {MAX_LINE} characters; the document "
                        "is refused", lineno)
        if j < 0:
            break
        pos = j + 1
        lineno += 1
    scan = _TomlScan(text)
    scan.run()
    return scan.out, scan.problem


def toml_lines(text: str) -> dict[Path, int]:
    """Key path -> line for a TOML text, following the TOML grammar (a
    multi-line string holding ``[[permanents]]`` is not a header; keys of
    inline tables and items of arrays get their own lines)."""
    return toml_prescan(text)[0]


def json_lines(text: str) -> dict[Path, int]:
    """Key path -> line for a JSON text (which must already parse)."""
    out: dict[Path, int] = {}
    # frames: [is_object, path, key or index]
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
            frames.append([c == "{", path, None if c == "{" else 0])
            i += 1
            continue
        if c in "}]":
            if frames:
                frames.pop()
            i += 1
            continue
        out.setdefault(here(), line)
        i += 1
    return out


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


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a scenario can use")


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


def permanent_problems(keys: Mapping[str, Any]) -> list[tuple[Path, str]]:
    """Every way keys given to a permanent from elsewhere (a card) break the
    schema's ``permanent`` table, by key: the same bounds and types as a
    scenario's own keys."""
    validator = _Validator(schema())
    props = validator.deref(schema()["$defs"]["permanent"])["properties"]
    out: list[tuple[Path, str]] = []
    for key, value in keys.items():
        if key in props:
            validator.validate(value, props[key], (key,), out)
    return out


def parse_text(text: str, *, file: str = "<scenario>", format: str = "toml") -> Document:
    """Parse a scenario text.

    :param format: ``"toml"`` or ``"json"``.
    :raises ScenarioProblems: for a syntax error (with its line) or a text
        over :data:`MAX_BYTES`.
    """
    def fail(message: str, line: int | None = None) -> ScenarioProblems:
        return ScenarioProblems([ScenarioError(message, file=file, line=line)])

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise fail(f"the scenario is larger than {MAX_BYTES} bytes (1 MiB); it is refused")
    toml_keys: dict[Path, int] | None = None
    if format != "json":
        toml_keys, limit = toml_prescan(text)
        if limit is not None:
            raise fail(limit[0], limit[1])
    try:
        if format == "json":
            data = json.loads(text, object_pairs_hook=_no_duplicates,
                              parse_constant=_no_constant)
        else:
            data = tomllib.loads(text)
    except _DuplicateKey as exc:
        found = [m.start() for m in re.finditer(re.escape(json.dumps(exc.key)) + r"\s*:", text)]
        line = text.count("\n", 0, found[1]) + 1 if len(found) > 1 else None
        raise fail(f"invalid JSON: duplicate key {exc.key!r}", line) from None
    except json.JSONDecodeError as exc:
        raise fail(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                   exc.lineno) from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        raise fail(f"invalid TOML: {exc}", int(m.group(1)) if m else None) from None
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


def read_document(path: str | os.PathLike[str]) -> Document:
    """Read and parse a scenario file: JSON if its name ends in ``.json``,
    otherwise TOML.

    :raises ScenarioProblems: for a missing or unreadable file, one over
        :data:`MAX_BYTES`, bad UTF-8 or a syntax error.
    """
    file = os.fspath(path)

    def fail(message: str, line: int | None = None) -> ScenarioProblems:
        return ScenarioProblems([ScenarioError(message, file=file, line=line)])

    try:
        size = os.stat(file).st_size
        if size > MAX_BYTES:
            raise fail(f"the file is {size} bytes; scenario files are limited to "
                       f"{MAX_BYTES} bytes (1 MiB)")
        with open(file, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise fail("no such file") from None
    except IsADirectoryError:
        raise fail("is a directory, not a scenario file") from None
    except OSError as exc:
        raise fail(f"can't read the file: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise fail(f"the file is larger than {MAX_BYTES} bytes (1 MiB); it is refused")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(f"the file is not valid UTF-8 text ({exc.reason} at byte {exc.start})",
                   raw.count(b"\n", 0, exc.start) + 1) from None
    fmt = "json" if file.lower().endswith(".json") else "toml"
    return parse_text(text, file=file, format=fmt)


# ---------------------------------------------------------------------------
# The scenario
# ---------------------------------------------------------------------------

Assign = FrozenMap[str, FrozenMap[str, int]]


@frozen
class Scenario:
    """A validated scenario: everything :meth:`redzone.Engine.resolve` needs.

    :param file: the file it came from.
    :param rules: the rules edition in force.
    :param state: the state before combat (effects included).
    :param attacks: attacking creature -> what it attacks, in file order.
    :param blocks: blocking creature -> the attackers it blocks, in file order.
    :param order: damage assignment orders as written (used by editions that
        have them; accepted and ignored by the others).
    :param assign: assignments for every damage step, or ``None``.
    :param assign_first_strike: assignments for the first-strike step only.
    :param actions: ``(after, action)`` pairs, in file order.
    :param engine: the engine that parsed its keywords and resolves it.
    :param lines: key path -> line in the file, where known.
    :param bands: attacking bands declared with the attackers (508.1e,
        702.22c), in file order.
    :param additional_combats: the turn's further combat phases (500.8).
    :param through: ``end_of_combat`` or ``cleanup`` (the end step and the
        cleanup step too, 513-514).
    :param choices: answers to the decisions the combat meets, by key
        (``[choices]``).
    """

    file: str
    rules: str
    state: GameState
    attacks: FrozenMap[str, str]
    blocks: FrozenMap[str, tuple[str, ...]]
    order: FrozenMap[str, tuple[str, ...]]
    assign: Assign | None
    assign_first_strike: Assign | None
    actions: tuple[tuple[str, Action], ...]
    engine: Engine = field(eq=False, repr=False)
    lines: FrozenMap[Path, int] = field(default=EMPTY, eq=False, repr=False)
    bands: tuple[tuple[str, ...], ...] = ()
    additional_combats: tuple[CombatPlan, ...] = ()
    through: str = "end_of_combat"
    choices: FrozenMap[str, tuple[str, ...]] = EMPTY
    #: Notes about the scenario that are not problems (card abilities that are
    #: inert because no plugin provides them); front ends show them.
    notes: tuple[str, ...] = ()

    @property
    def effects(self) -> tuple[Effect, ...]:
        """The game-wide effects."""
        return self.state.effects

    @property
    def uses_order(self) -> bool:
        """Whether the ``order`` key applies under this scenario's edition."""
        return get_edition(self.rules).assignment_orders

    def line_of(self, path: Path) -> int | None:
        """The line of a key path in the file, where known."""
        return line_for(self.lines, path)


def _edition_problem(name: str) -> str:
    known = ", ".join(repr(e) for e in EDITIONS)
    if name in FORMAT_EDITIONS:
        return (f"rules edition {name!r} is part of the scenario format but not implemented "
                f"in this version of redzone; known editions: {known}")
    return f"unknown rules edition {name!r}{_suggest(name, EDITIONS)}; known editions: {known}"


#: The steps an action's ``after`` may name without any plugin (the scenario
#: format's list); plugins' combat damage steps come on top.
BUILTIN_STEPS: Final = ("beginning_of_combat", "declare_attackers", "declare_blockers",
                        "first_strike_damage_assigned", "first_strike_damage",
                        "combat_damage_assigned", "combat_damage", "end_of_combat", "end_step")


class _Builder:
    """Turns a schema-checked document into engine inputs, collecting problems."""

    #: Longer keyword texts are left to the schema check (never parsed).
    KEYWORD_MAX: Final = 100

    def __init__(self, data: dict[str, Any], problems: _Problems, engine: Engine) -> None:
        self.data = data
        self.p = problems
        self.engine = engine
        self.kinds: dict[str, str] = {}
        self.players: dict[str, Player] = {}
        self.permanents: dict[str, Permanent] = {}
        #: id -> index of the ``enter_blocking`` or ``create_token`` action
        #: that brings it, the combat it enters in, and the action's path.
        self.entering_combat: dict[str, int] = {}
        self.entering_at: dict[str, Path] = {}
        #: the combat being built (0: [combat]).
        self.combat_index = 0

    # -- helpers ---------------------------------------------------------------

    def ref(self, path: Path, value: Any, kinds: Sequence[str], what: str) -> bool:
        """Check that ``value`` is the id of a player/permanent as ``kinds`` says."""
        if not isinstance(value, str):
            return False
        kind = self.kinds.get(value)
        if kind is None:
            pool = [i for i, k in self.kinds.items() if k in kinds]
            self.p.add(path, f"unknown {' or '.join(kinds)} id {_shown(value)} ({what})"
                             f"{_suggest(value, pool)}")
            return False
        if kind not in kinds:
            self.p.add(path, f"{value!r} is a {kind}, but {what} must be a "
                             f"{' or '.join(kinds)}")
            return False
        return True

    def keyword(self, path: Path, text: Any) -> Keyword | None:
        if not isinstance(text, str) or len(text) > self.KEYWORD_MAX:
            return None  # the schema check has reported it
        policy = self.data.get("unknown_keywords")
        try:
            return self.engine.hooks.parse_keyword(
                text, unknown=policy if policy in ("error", "inert") else None,
                suggest=_suggestions_left.get() > 0)
        except UnknownKeywordError as exc:
            if exc.suggestions:
                _suggestions_left.set(_suggestions_left.get() - 1)
            self.p.add(path, str(exc))
            return None

    @staticmethod
    def table(value: Any) -> dict[str, Any]:
        return value if isinstance(value, dict) else {}

    @staticmethod
    def items(value: Any) -> list[Any]:
        return value if isinstance(value, list) else []

    @staticmethod
    def integer(value: Any, default: int) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    # -- the parts -------------------------------------------------------------

    def build_players(self) -> None:
        teams = {m: len(ms) for ms in self.table(self.data.get("teams")).values()
                 if isinstance(ms, list) for m in ms if isinstance(m, str)}
        for pid, pdata in self.table(self.data.get("players")).items():
            pdata = self.table(pdata)
            self.kinds[pid] = "player"
            # 810.4, 810.11: a team's shared life starts at 30, 15 more per extra
            # player; a team of one starts at 20 (103.4).
            life = team_life(teams[pid]) if pid in teams else 20
            self.players[pid] = Player(pid, life=self.integer(pdata.get("life"), life),
                                       poison=self.integer(pdata.get("poison"), 0))

    def teams(self) -> dict[str, tuple[str, ...]]:
        """``teams``: team id -> its players (Two-Headed Giant, 810)."""
        out: dict[str, tuple[str, ...]] = {}
        seen: dict[str, str] = {}
        for team, members in self.table(self.data.get("teams")).items():
            ok = True
            for j, m in enumerate(self.items(members)):
                ok = self.ref(("teams", team, j), m, ("player",), "a member of a team") and ok
                if isinstance(m, str) and m in seen:
                    self.p.add(("teams", team, j), f"{m!r} is already on team {seen[m]!r}: a "
                                                   "player is on one team")
                    ok = False
                elif isinstance(m, str):
                    seen[m] = team
            names = [m for m in self.items(members) if isinstance(m, str)]
            if ok and len({(self.players[m].life, self.players[m].poison)
                           for m in names}) > 1:
                self.p.add(("teams", team), "teammates share one life total and one poison "
                                            "count (810.4, 810.10): give them the same "
                                            "life and poison")
                ok = False
            if ok:
                out[team] = tuple(names)
        return out

    def build_permanents(self) -> None:
        first: dict[str, int] = {}
        for i, pdata in enumerate(self.items(self.data.get("permanents"))):
            pid = self.table(pdata).get("id")
            if not isinstance(pid, str):
                continue
            if pid in self.players:
                self.p.add(("permanents", i, "id"), f"id {pid!r} is already a player's id; "
                                                    "every id must be unique")
            elif pid in first:
                self.p.add(("permanents", i, "id"), f"duplicate id {pid!r} (already used by "
                                                    f"permanents[{first[pid]}])")
            else:
                first[pid] = i
                self.kinds[pid] = "permanent"
        self._register_entering()
        for i, pdata in enumerate(self.items(self.data.get("permanents"))):
            pid = self.table(pdata).get("id")
            if not isinstance(pid, str):
                continue
            perm = self.permanent(("permanents", i), pdata, pid)  # duplicates are checked too
            if perm is not None and first.get(pid) == i:
                self.permanents[pid] = perm

    def combat_tables(self) -> list[tuple[Path, dict[str, Any]]]:
        """``[combat]`` and each ``[[additional_combats]]``, with their paths."""
        out: list[tuple[Path, dict[str, Any]]] = [(("combat",),
                                                   self.table(self.data.get("combat")))]
        for k, cdata in enumerate(self.items(self.data.get("additional_combats"))):
            out.append((("additional_combats", k), self.table(cdata)))
        return out

    def _register_entering(self) -> None:
        """The ids of permanents that enter the battlefield during a combat (an
        ``enter_blocking`` or ``create_token`` action): new, unique ids, usable
        by assignments and later actions, and by the declarations of later
        combats, but not by the declarations of the combat they enter in."""
        for c, (cat, combat) in enumerate(self.combat_tables()):
            for i, adata in enumerate(self.items(combat.get("actions"))):
                adata = self.table(adata)
                do = adata.get("do")
                # (A "do" that isn't a string is reported where actions are read.)
                key = {"enter_blocking": "permanent", "create_token": "token"}.get(
                    do) if isinstance(do, str) else None
                if key is None:
                    continue
                pid = self.table(adata.get(key)).get("id")
                if not isinstance(pid, str):
                    continue
                at: Path = (*cat, "actions", i, key, "id")
                if pid in self.kinds or pid in self.entering_at:
                    where = ("a player's id" if self.kinds.get(pid) == "player" else
                             f"already used by {format_path(self.entering_at[pid])}"
                             if pid in self.entering_at else "already a permanent's id")
                    self.p.add(at, f"id {pid!r} is {where}: a permanent entering the "
                                   "battlefield needs a new id")
                    continue
                self.entering_combat[pid] = c
                self.entering_at[pid] = (*cat, "actions", i)
                self.kinds[pid] = "permanent"

    def declared(self, path: Path, value: Any, kinds: Sequence[str], what: str) -> bool:
        """:meth:`ref` for the declarations: a permanent that only enters the
        battlefield during combat can't be named there."""
        if isinstance(value, str) and value in self.entering_combat and \
                self.entering_combat[value] >= self.combat_index:
            self.p.add(path, f"{value!r} enters the battlefield during combat "
                             f"({format_path(self.entering_at[value])}), so it can't be "
                             f"{what}")
            return False
        return self.ref(path, value, kinds, what)

    def permanent(self, at: Path, pdata: dict[str, Any], pid: str) -> Permanent | None:
        ok = self.ref((*at, "controller"), pdata.get("controller"), ("player",), "a controller")
        owner = pdata.get("owner", pdata.get("controller"))
        if "owner" in pdata:
            ok = self.ref((*at, "owner"), owner, ("player",), "an owner") and ok
        if "protector" in pdata:
            ok = self.ref((*at, "protector"), pdata["protector"], ("player",),
                          "a battle's protector") and ok
        types = self.items(pdata.get("types", ["creature"]))
        if "creature" in types:
            for key in ("power", "toughness"):
                if key not in pdata:
                    self.p.add((*at, key), f"missing required key {key!r}: a creature has "
                                           "power and toughness")
                    ok = False
        keywords = []
        for j, text in enumerate(self.items(pdata.get("keywords"))):
            kw = self.keyword((*at, "keywords", j), text)
            if kw is None:
                ok = False
            else:
                keywords.append(kw)
        counters = {k: v for k, v in self.table(pdata.get("counters")).items()
                    if isinstance(v, int) and not isinstance(v, bool)}
        for key in ("loyalty", "defense"):
            if key in pdata:
                value = self.integer(pdata[key], 0)
                if key in counters and counters[key] != value:
                    self.p.add((*at, key), f"{key} = {value} disagrees with counters."
                                           f"{key} = {counters[key]}")
                    ok = False
                counters[key] = value
        extra = pdata.get("can_block_additional", 0)
        can_block = UNLIMITED if extra == "any" else self.integer(extra, 0)
        if not ok:
            return None
        try:
            return self._make_permanent(pid, pdata, owner, types, keywords, counters, can_block)
        except (TypeError, ValueError):
            return None  # wrong types: the schema check has reported them

    def _make_permanent(self, pid: str, pdata: dict[str, Any], owner: Any, types: list[Any],
                        keywords: list[Keyword], counters: dict[str, int],
                        can_block: int) -> Permanent:
        def flag(key: str) -> bool:
            return pdata.get(key, False) is True

        return Permanent(
            id=pid,
            controller=pdata["controller"],
            name=pdata.get("name", pid),
            owner=owner,
            types=types,
            subtypes=self.items(pdata.get("subtypes")),
            supertypes=self.items(pdata.get("supertypes")),
            colors=self.items(pdata.get("colors")),
            base_power=pdata.get("power"),
            base_toughness=pdata.get("toughness"),
            printed_keywords=keywords,
            counters=counters,
            damage=self.integer(pdata.get("damage"), 0),
            tapped=bool(pdata.get("tapped", False)),
            summoning_sick=bool(pdata.get("summoning_sick", False)),
            protector=pdata.get("protector"),
            can_block_additional=can_block,
            min_blockers=self.integer(pdata.get("min_blockers"), 0),
            cant_attack=flag("cant_attack"),
            cant_block=flag("cant_block"),
            cant_be_blocked=flag("cant_be_blocked"),
            attacks_if_able=flag("attacks_if_able"),
            blocks_if_able=flag("blocks_if_able"),
            must_be_blocked=flag("must_be_blocked"),
            lure=flag("lure"),
        )

    def turn_order(self) -> tuple[str | None, tuple[str, ...] | None]:
        active = self.data.get("active_player")
        if not self.ref(("active_player",), active, ("player",), "the active player"):
            active = None
        order: tuple[str, ...] | None = None
        if "turn_order" in self.data:
            given = self.items(self.data["turn_order"])
            ok = True
            for j, pid in enumerate(given):
                ok = self.ref(("turn_order", j), pid, ("player",), "a player in turn order") and ok
            missing = [p for p in self.players if p not in given]
            if missing:
                self.p.add(("turn_order",), "turn_order must name every player once; missing: "
                                            + ", ".join(repr(m) for m in missing))
                ok = False
            if ok and all(isinstance(g, str) for g in given) and len(set(given)) == len(given):
                order = tuple(given)
        return active, order

    def combat(self, at: Path = ("combat",), index: int = 0) -> dict[str, Any]:
        combat = self.table(self.data.get("combat")) if index == 0 else self.table(
            self.items(self.data.get("additional_combats"))[index - 1])
        self.combat_index = index
        attacks: dict[str, str] = {}
        for attacker, target in self.table(combat.get("attacks")).items():
            path = (*at, "attacks", attacker)
            ok = self.declared(path, attacker, ("permanent",), "an attacking creature")
            ok = self.declared(path, target, ("player", "permanent"),
                               "what a creature attacks") and ok
            if ok:
                attacks[attacker] = target
        blocks: dict[str, tuple[str, ...]] = {}
        for blocker, blocked in self.table(combat.get("blocks")).items():
            path = (*at, "blocks", blocker)
            ok = self.declared(path, blocker, ("permanent",), "a blocking creature")
            targets = [blocked] if isinstance(blocked, str) else self.items(blocked)
            for j, attacker in enumerate(targets):
                where = path if isinstance(blocked, str) else (*path, j)
                ok = self.declared(where, attacker, ("permanent",), "a blocked creature") and ok
            if ok:
                blocks[blocker] = tuple(targets)
        order: dict[str, tuple[str, ...]] = {}
        for obj, listed in self.table(combat.get("order")).items():
            path = (*at, "order", obj)
            ok = self.declared(path, obj, ("permanent",), "an attacking or blocking creature")
            for j, other in enumerate(self.items(listed)):
                ok = self.declared((*path, j), other, ("permanent",),
                                   "a creature in a damage assignment order") and ok
            names = [n for n in self.items(listed) if isinstance(n, str)]
            if len(set(names)) != len(names):
                self.p.add(path, "a damage assignment order names a creature twice")
                ok = False
            if ok:
                order[obj] = tuple(names)
        bands: list[tuple[str, ...]] = []
        for i, band in enumerate(self.items(combat.get("bands"))):
            ok = True
            for j, member in enumerate(self.items(band)):
                ok = self.declared((*at, "bands", i, j), member, ("permanent",),
                                   "a member of an attacking band") and ok
            if ok and isinstance(band, list):
                bands.append(tuple(band))
        out: dict[str, Any] = {"attacks": attacks, "blocks": blocks, "order": order,
                               "bands": tuple(bands)}
        for key in ("assign", "assign_first_strike"):
            out[key] = self.assignment((*at, key), combat[key]) if key in combat else None
        out["actions"] = self.actions(combat.get("actions"), (*at, "actions"))
        return out

    def additional_combats(self) -> tuple[CombatPlan, ...]:
        plans = []
        for k in range(len(self.items(self.data.get("additional_combats")))):
            c = self.combat(("additional_combats", k), k + 1)
            plans.append(CombatPlan(FrozenMap(c["attacks"]), FrozenMap(c["blocks"]),
                                    assign=c["assign"],
                                    assign_first_strike=c["assign_first_strike"],
                                    actions=c["actions"], order=FrozenMap(c["order"]),
                                    bands=c["bands"]))
        self.combat_index = 0
        return tuple(plans)

    def assignment(self, at: Path, value: Any) -> Assign:
        result: dict[str, FrozenMap[str, int]] = {}
        for source, amounts in self.table(value).items():
            ok = self.ref((*at, source), source, ("permanent",), "a creature assigning damage")
            for recipient in self.table(amounts):
                ok = self.ref((*at, source, recipient), recipient, ("player", "permanent"),
                              "a damage recipient") and ok
            if ok and isinstance(amounts, dict):
                result[source] = FrozenMap(amounts)
        return FrozenMap(result)

    _PERMANENT_TARGET = frozenset({"pump", "grant", "revoke", "add_counters", "tap", "untap",
                                   "become_blocked", "remove_from_combat", "leave_battlefield",
                                   "destroy", "sacrifice", "exile", "regenerate"})

    @functools.cached_property
    def steps(self) -> tuple[str, ...]:
        """The step names an action's ``after`` may name: the format's own and
        the combat damage steps the engine's plugins declare (with their
        ``_assigned`` windows)."""
        names = list(BUILTIN_STEPS)
        for spec in self.engine.damage_steps:
            names.extend(n for n in (spec.name + "_assigned", spec.name) if n not in names)
        return tuple(names)

    def actions(self, value: Any, where: Path = ("combat", "actions")
                ) -> tuple[tuple[str, Action], ...]:
        out: list[tuple[str, Action]] = []
        for i, adata in enumerate(self.items(value)):
            adata = self.table(adata)
            at: Path = (*where, i)
            do = adata.get("do")
            after = adata.get("after")
            if isinstance(after, str) and after not in self.steps:
                close = difflib.get_close_matches(after, self.steps, n=3, cutoff=0.6)
                hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
                self.p.add((*at, "after"), f"unknown step {after!r}{hint}; the steps are: "
                           f"{', '.join(self.steps)} (a combat damage step of a plugin "
                           "needs that plugin loaded)")
                continue
            if not isinstance(do, str) or do not in ACTIONS or not isinstance(after, str):
                continue
            ok = True
            kwargs = {k: v for k, v in adata.items() if k not in ("after", "do")}
            if do in self._PERMANENT_TARGET:
                ok = self.ref((*at, "target"), adata.get("target"), ("permanent",),
                              f"the target of {do!r}")
            elif do == "prevent":
                if ("target" in adata) == ("source" in adata):
                    self.p.add(at, "a 'prevent' action needs exactly one of 'target' (damage "
                                   "dealt to it) and 'source' (damage dealt by it)")
                    ok = False
                if "target" in adata:
                    ok = self.ref((*at, "target"), adata["target"], ("player", "permanent"),
                                  "the target of 'prevent'") and ok
                if "source" in adata:
                    ok = self.ref((*at, "source"), adata["source"], ("permanent",),
                                  "the source of 'prevent'") and ok
                if "gain_life" in adata:
                    ok = self.ref((*at, "gain_life"), adata["gain_life"], ("player",),
                                  "the player gaining life") and ok
            elif do == "deal_damage":
                source = adata.get("source")
                if isinstance(source, dict):
                    spell = self.spell_source((*at, "source"), source)
                    ok = spell is not None
                    kwargs["source"] = spell
                else:
                    ok = self.ref((*at, "source"), source, ("permanent",),
                                  "the source of 'deal_damage'")
                ok = self.ref((*at, "target"), adata.get("target"), ("player", "permanent"),
                              "the target of 'deal_damage'") and ok
            elif do == "create_token":
                tdata = self.table(adata.get("token"))
                pid = tdata.get("id")
                perm = None
                if isinstance(pid, str) and self.entering_at.get(pid) == at:
                    perm = self.permanent((*at, "token"), tdata, pid)
                ok = perm is not None
                kwargs["token"] = perm.evolve(token=True) if perm is not None else None
                if "attacking" in adata:
                    ok = self.ref((*at, "attacking"), adata["attacking"], ("player", "permanent"),
                                  "what the token enters attacking") and ok
                if "blocking" in adata:
                    ok = self.ref((*at, "blocking"), adata["blocking"], ("permanent",),
                                  "the attacking creature the token enters blocking") and ok
            elif do in ("gain_life", "lose_life"):
                ok = self.ref((*at, "player"), adata.get("player"), ("player",),
                              f"the player of {do!r}")
            elif do == "block":
                ok = self.ref((*at, "blocker"), adata.get("blocker"), ("permanent",),
                              "the creature that blocks")
                ok = self.ref((*at, "attacker"), adata.get("attacker"), ("permanent",),
                              "the attacking creature it blocks") and ok
            elif do == "enter_blocking":
                ok = self.ref((*at, "attacker"), adata.get("attacker"), ("permanent",),
                              "the attacking creature it blocks")
                pdata = self.table(adata.get("permanent"))
                pid = pdata.get("id")
                perm = None
                if isinstance(pid, str) and self.entering_at.get(pid) == at:
                    perm = self.permanent((*at, "permanent"), pdata, pid)
                ok = perm is not None and ok
                kwargs["permanent"] = perm
            elif do == "add_effect":
                effect = self.effect((*at, "effect"), adata.get("effect"))
                ok = effect is not None
                kwargs["effect"] = effect
            if do in ("grant", "revoke"):
                for j, text in enumerate(self.items(adata.get("keywords"))):
                    ok = self.keyword((*at, "keywords", j), text) is not None and ok
            if not ok:
                continue
            try:
                action = ACTIONS[do](**kwargs)
            except (TypeError, ValueError):
                continue  # wrong keys or types: the schema check has reported them
            out.append((adata["after"], action))
        return tuple(out)

    def spell_source(self, at: Path, sdata: dict[str, Any]) -> StackObject | None:
        """A spell or ability that deals damage (120.3, 609.7): its id is its
        ``id``, else its ``name``."""
        ok = self.ref((*at, "controller"), sdata.get("controller"), ("player",),
                      "the controller of the spell or ability")
        sid = sdata.get("id", sdata.get("name"))
        if isinstance(sid, str) and sid in self.kinds:
            self.p.add((*at, "id" if "id" in sdata else "name"),
                       f"{sid!r} is already a {self.kinds[sid]}'s id: give the spell an 'id' "
                       "of its own")
            ok = False
        keywords = []
        for j, text in enumerate(self.items(sdata.get("keywords"))):
            kw = self.keyword((*at, "keywords", j), text)
            ok = kw is not None and ok
            if kw is not None:
                keywords.append(kw)
        if not ok or not isinstance(sid, str):
            return None
        try:
            return StackObject(sid, sdata["controller"], name=sdata.get("name", sid),
                               colors=self.items(sdata.get("colors")),
                               types=self.items(sdata.get("types")),
                               printed_keywords=keywords)
        except (TypeError, ValueError):
            return None  # wrong types: the schema check has reported them

    #: Effect kinds whose ``to`` must be a permanent (not a player).
    _TO_PERMANENT = frozenset({"blocks_if_able"})

    def effect(self, at: Path, value: Any) -> Effect | None:
        """One effect (of ``[[effects]]`` or an ``add_effect`` action)."""
        edata = self.table(value)
        kind = edata.get("kind")
        if not isinstance(kind, str):
            return None
        ok = True
        if "player" in edata:
            ok = self.ref((*at, "player"), edata["player"], ("player",),
                          f"the player of {kind!r}")
        if "to" in edata:
            to_kinds = ("permanent",) if kind in self._TO_PERMANENT else ("player", "permanent")
            what = "the creature that blocks" if kind == "blocks_if_able" else \
                "what the damage is dealt to instead" if kind == "redirect_damage" else \
                f"what {kind!r} protects"
            ok = self.ref((*at, "to"), edata["to"], to_kinds, what) and ok
        if "source" in edata:
            ok = self.ref((*at, "source"), edata["source"], ("permanent",),
                          f"the source of {kind!r}") and ok
        if not ok:
            return None
        amount = edata.get("amount")
        return Effect(kind, player=edata.get("player"), to=edata.get("to"),
                      source=edata.get("source"),
                      amount=amount if isinstance(amount, int) else None)

    def effects(self) -> tuple[Effect, ...]:
        out: list[Effect] = []
        for i, edata in enumerate(self.items(self.data.get("effects"))):
            effect = self.effect(("effects", i), edata)
            if effect is not None:
                out.append(effect)
        return tuple(out)


def build(document: Document, *, rules: str | None = None,
          engine_factory: EngineFactory | None = None) -> Scenario:
    """Validate a parsed document and build its :class:`Scenario`.

    :param rules: a rules edition overriding the file's ``rules`` key.
    :param engine_factory: makes the engine for an edition name (default:
        :class:`redzone.Engine` with every installed plugin).
    :raises ScenarioProblems: listing every problem found.
    """
    budget = _suggestions_left.set(MAX_SUGGESTIONS)
    try:
        return _build(document, rules, engine_factory)
    finally:
        _suggestions_left.reset(budget)


def _build(document: Document, rules: str | None,
           engine_factory: EngineFactory | None) -> Scenario:
    factory: EngineFactory = engine_factory or Engine
    problems = _Problems(document.file, document.lines)
    data = document.data
    problems.extend(schema_problems(data))
    if not isinstance(data, dict) or size_problem(data) is not None:
        raise problems.error()
    edition = "foundations"
    if rules is not None:
        if rules in EDITIONS:
            edition = rules
        else:
            problems.add((), _edition_problem(rules), key="--rules")
    elif isinstance(data.get("rules"), str):
        if data["rules"] in EDITIONS:
            edition = data["rules"]
        else:
            problems.add(("rules",), _edition_problem(data["rules"]))
    engine = factory(edition)
    # -- card data: `cards = "PATH"` and `card = "NAME"` (redzone.formats.cards) --
    data, notes = _cards.expand(data, document.file, problems.add, engine.keyword)
    # -- end of card data --
    b = _Builder(data, problems, engine)
    b.build_players()
    b.build_permanents()
    active, order = b.turn_order()
    teams = b.teams()
    combat = b.combat()
    additional = b.additional_combats()
    effects = b.effects()
    if problems or active is None:
        if not problems:  # pragma: no cover - the schema requires active_player
            problems.add(("active_player",), "missing required key 'active_player'")
        raise problems.error()
    try:
        state = new_game(list(b.players.values()), list(b.permanents.values()),
                         active_player=active, turn_order=order, effects=effects, rules=edition,
                         teams=teams)
        state = evolve(state, keyword_set=engine.hooks.keyword_infos)  # what it was made with
    except ValueError as exc:  # pragma: no cover - every case is checked above
        problems.add((), str(exc))
        raise problems.error() from None
    return Scenario(
        file=document.file,
        rules=edition,
        state=state,
        attacks=FrozenMap(combat["attacks"]),
        blocks=FrozenMap(combat["blocks"]),
        order=FrozenMap(combat["order"]),
        assign=combat["assign"],
        assign_first_strike=combat["assign_first_strike"],
        actions=combat["actions"],
        engine=engine,
        lines=document.lines,
        bands=combat["bands"],
        additional_combats=additional,
        through=data.get("through", "end_of_combat"),
        choices=FrozenMap((k, (v,) if isinstance(v, str) else tuple(v))
                          for k, v in b.table(data.get("choices")).items()),
        notes=notes,
    )


def load(path: str | os.PathLike[str], *, rules: str | None = None,
         engine_factory: EngineFactory | None = None) -> Scenario:
    """Read, validate and build the scenario in a file.

    :raises ScenarioProblems: listing every problem found.
    """
    return build(read_document(path), rules=rules, engine_factory=engine_factory)


def loads(text: str, *, file: str = "<scenario>", format: str = "toml",
          rules: str | None = None, engine_factory: EngineFactory | None = None) -> Scenario:
    """Validate and build a scenario from its text.

    :raises ScenarioProblems: listing every problem found.
    """
    return build(parse_text(text, file=file, format=format), rules=rules,
                 engine_factory=engine_factory)


def from_data(data: Any, *, file: str = "<scenario>", rules: str | None = None,
              engine_factory: EngineFactory | None = None) -> Scenario:
    """Validate and build a scenario from an already parsed document.

    :raises ScenarioProblems: listing every problem found.
    """
    return build(Document(file, "", data, "data", FrozenMap()), rules=rules,
                 engine_factory=engine_factory)


__all__ = [
    "FORMAT_EDITIONS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "Document",
    "Scenario",
    "ScenarioProblems",
    "build",
    "format_path",
    "from_data",
    "json_lines",
    "line_for",
    "load",
    "loads",
    "parse_text",
    "read_document",
    "schema",
    "schema_problems",
    "schema_text",
    "size_problem",
    "toml_lines",
]
