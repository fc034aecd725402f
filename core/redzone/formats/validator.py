"""The scenario format's JSON Schema, and a validator for the part of JSON
Schema it uses: types, required and unknown keys (with the closest valid key
suggested), bounds, discriminated unions.

The second of the three parts of reading a scenario file (after
:mod:`redzone.formats.document`, before :mod:`redzone.formats.scenario`).
The bounded "did you mean" suggestions every part uses are counted here (the
matching is the kernel's, :func:`redzone.kernel.errors.did_you_mean`).
"""

from __future__ import annotations

import contextvars
import functools
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from redzone.formats.document import Path, quoted, size_problem
from redzone.kernel.errors import (  # noqa: F401 - the suggestions' bounds, as before
    MAX_CANDIDATES,
    MAX_SUGGEST_PAIRS,
    MAX_SUGGEST_WORD,
    did_you_mean,
)

#: How many "did you mean" suggestions one scenario gets; problems past it
#: are reported without one (each suggestion compares the word with the
#: candidates, so an unbounded number of them costs the square of the file).
MAX_SUGGESTIONS: Final = 50

suggestions_left: contextvars.ContextVar[int] = contextvars.ContextVar(
    "redzone_suggestions_left", default=MAX_SUGGESTIONS)


def suggest(word: str, options: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the option closest to ``word``, or
    ``""``: :func:`redzone.kernel.errors.did_you_mean` (the API's errors give
    the same suggestion), within the scenario's budget of
    :data:`MAX_SUGGESTIONS`."""
    left = suggestions_left.get()
    if left <= 0 or len(word) > MAX_SUGGEST_WORD:
        return ""
    suggestions_left.set(left - 1)
    # (a document made in Python may have ids that aren't strings: never offered)
    return did_you_mean(word, [o for o in options if isinstance(o, str)])


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
    return f"a {type(value).__name__} ({quoted(value)})"


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
        #: The pattern of an id (``$defs.id``): the one pattern reported here.
        self.id_pattern: str | None = root.get("$defs", {}).get("id", {}).get("pattern")

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
                hint = suggest(value, options) if isinstance(value, str) else ""
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
        elif "pattern" in sch and not re.search(sch["pattern"], value) \
                and sch["pattern"] == self.id_pattern:
            out.append((path, f"{value!r} is not a valid id: no spaces at either end"))
        # The other patterns are names' (a step, a kind of event): the reader
        # checks them against the names the engine knows, with close matches,
        # so a name that isn't one is one problem there, not a second here.

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
        # A table whose keys the schema leaves open (a trigger's action
        # tables) has them checked where it is read: reported once, there.
        keyed = bool(props) or additional is not True or names is not None
        for key, item in value.items():
            if not isinstance(key, str):
                # (a document made in Python: a TOML or JSON key is a string)
                if keyed:
                    out.append((path, f"expected a string key, got {_describe_value(key)}"))
                continue
            if names is not None:
                self.validate(key, names, (*path, key), out)
            if key in props:
                self.validate(item, props[key], (*path, key), out)
            elif additional is False:
                hint = suggest(key, props) or (
                    f"; valid keys here: {', '.join(props)}" if props else "")
                out.append(((*path, key), f"unknown key {quoted(key)}{hint}"))
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
            hint = suggest(chosen, options) if isinstance(chosen, str) else ""
            what = _DISCRIMINATOR_NAMES.get(disc, f"{disc!r} value")
            shown = quoted(chosen) if isinstance(chosen, str) else _describe_value(chosen)
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


def schema_problems(data: Any, actions: Sequence[Mapping[str, Any]] = ()
                    ) -> list[tuple[Path, str]]:
    """Every way ``data`` breaks the schema, as (key path, message) pairs.

    A document too large to check (:func:`size_problem`) gives that one
    problem.

    :param actions: more branches of the ``action`` union: the action kinds
        the engine's plugins declare
        (:func:`redzone.formats.action_fields.action_schema`).
    """
    out: list[tuple[Path, str]] = []
    if not isinstance(data, dict):
        return [((), f"a scenario must be a table (a JSON object), not {_describe_value(data)}")]
    too_big = size_problem(data)
    if too_big is not None:
        return [((), too_big)]
    root = with_actions(actions)
    _Validator(root).validate(data, root, (), out)
    return out


def with_actions(actions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The shipped schema with ``actions`` added to its ``action`` union
    (the schema itself when there are none)."""
    root = schema()
    if actions:
        defs = dict(root["$defs"])
        defs["action"] = {"oneOf": [*defs["action"]["oneOf"], *actions]}
        root = {**root, "$defs": defs}
    return root


def value_problems(value: Any, sch: Mapping[str, Any], path: Path) -> list[tuple[Path, str]]:
    """Every way ``value`` (at ``path``) breaks the schema ``sch``, whose
    ``$ref`` name the shipped schema's definitions (a cost's choice of an
    activated ability, :mod:`redzone.formats.action_fields`)."""
    out: list[tuple[Path, str]] = []
    _Validator(schema()).validate(value, sch, path, out)
    return out


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
