"""Bundled example scenarios, each with its golden JSON outcome.

Each example is a scenario file ``NAME.toml`` in this package, taken from the
rules text or a seed example, with ``NAME.expected.json`` beside it: the JSON
outcome ``redzone run --json NAME.toml`` prints (the golden). Each file also
states its hand-checked expectations in comments, one per line::

    # expect: players.bob.life = 16
    # expect-event: {"kind": "life_gain", "player": "alice", "amount": 6}
    # expect-no-event: {"kind": "damage", "source": "rats"}

``expect`` compares the value at a dotted path of the outcome with a JSON
value; ``expect-event`` requires an event having every given key and value;
``expect-no-event`` forbids one.

``python -m redzone.examples --regen`` regenerates the goldens of the examples
whose outcome meets every expectation, and reports the others (it never
writes a golden it knows to be wrong; ``--force`` does). ``--check`` only
compares.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import frozen

#: The example ``redzone demo`` runs with no name.
DEFAULT: Final = "baloth-and-boars"

HERE: Final = Path(__file__).resolve().parent
EXPECTED_SUFFIX: Final = ".expected.json"


def names() -> list[str]:
    """Every bundled example's name, sorted."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


class UnknownExampleError(KeyError):
    """No bundled example has that name."""

    def __init__(self, name: str) -> None:
        close = difflib.get_close_matches(name, names(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        self.message = f"no bundled example {name!r}{hint} (redzone demo --list lists them)"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled with its args and fields, not through __init__ (which would
        # take the message for a name): the kernel's PicklesByFields, which
        # this module, importing no kernel, doesn't import
        return type(self).__new__, (type(self), *self.args), vars(self)


def path(name: str) -> Path:
    """The scenario file of an example (``_`` and ``-`` are interchangeable).

    :raises UnknownExampleError: with close matches.
    """
    stem = name.removesuffix(".toml").replace("_", "-")
    found = HERE / f"{stem}.toml"
    if not found.is_file():
        raise UnknownExampleError(name)
    return found


def golden_path(name: str) -> Path:
    """The golden outcome file of an example."""
    return path(name).with_name(path(name).stem + EXPECTED_SUFFIX)


def title(name: str) -> str:
    """An example's first comment line (its title)."""
    for line in path(name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return name


# ---------------------------------------------------------------------------
# Expectations
# ---------------------------------------------------------------------------


@frozen
class Expectation:
    """One hand-checked expectation of an example.

    :param kind: ``expect``, ``expect-event`` or ``expect-no-event``.
    :param path: the dotted path into the outcome (``expect``).
    :param value: the expected value, or the event keys to match.
    :param line: its line in the scenario file.
    """

    kind: str
    path: str
    value: Any
    line: int


_EXPECT = re.compile(r"^#\s*(expect|expect-event|expect-no-event):\s*(.+?)\s*$")


def expectations(name: str) -> list[Expectation]:
    """The expectations written in an example's comments.

    :raises ValueError: for a malformed expectation line.
    """
    out = []
    for lineno, line in enumerate(path(name).read_text(encoding="utf-8").splitlines(), 1):
        m = _EXPECT.match(line.strip())
        if not m:
            continue
        kind, body = m.groups()
        try:
            if kind == "expect":
                where, _, value = body.partition("=")
                out.append(Expectation(kind, where.strip(), json.loads(value), lineno))
            else:
                out.append(Expectation(kind, "", json.loads(body), lineno))
        except ValueError as exc:
            raise ValueError(f"{path(name).name}:{lineno}: malformed expectation: {exc}") from exc
    return out


def _lookup(data: Any, dotted: str) -> Any:
    """The value at a dotted path; a key that itself has dots (a keyword's
    token, ``voice.mobilize.1``) is matched whole, the longest key first."""
    node = data
    parts = dotted.split(".")
    i = 0
    while i < len(parts):
        if isinstance(node, list):
            node = node[int(parts[i])]
            i += 1
            continue
        if not isinstance(node, dict):
            raise KeyError(dotted)
        for j in range(len(parts), i, -1):
            key = ".".join(parts[i:j])
            if key in node:
                node = node[key]
                i = j
                break
        else:
            raise KeyError(dotted)
    return node


def _matches(event: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in wanted.items())


def unmet(name: str, outcome: Mapping[str, Any]) -> list[str]:
    """The expectations of an example that ``outcome`` does not meet."""
    problems = []
    events = outcome.get("events", [])
    for e in expectations(name):
        where = f"line {e.line}"
        if e.kind == "expect":
            try:
                actual = _lookup(outcome, e.path)
            except (KeyError, IndexError, ValueError):
                problems.append(f"{where}: {e.path} is missing (expected {e.value!r})")
                continue
            if actual != e.value:
                problems.append(f"{where}: {e.path} is {actual!r}, expected {e.value!r}")
        elif e.kind == "expect-event":
            if not any(_matches(ev, e.value) for ev in events):
                problems.append(f"{where}: no event matches {json.dumps(e.value)}")
        elif any(_matches(ev, e.value) for ev in events):
            problems.append(f"{where}: an event matches {json.dumps(e.value)}, and none should")
    return problems


# ---------------------------------------------------------------------------
# Running and regenerating
# ---------------------------------------------------------------------------


def outcome(name: str) -> dict[str, Any]:
    """The JSON outcome of an example, as ``redzone run --json`` prints it."""
    from redzone.formats.outcome import run_file

    return run_file(path(name))


def unimplemented_keywords(name: str) -> list[str]:
    """Keywords an example uses whose plugin declares the keyword and
    implements no other hook yet (a stub): its outcome can't be verified."""
    from redzone.formats.scenario import load
    from redzone.kernel.engine import Engine
    from redzone.kernel.errors import ScenarioError
    from redzone.kernel.index import HOOKS

    engine = Engine()
    try:
        scenario = load(path(name))
    except ScenarioError:
        return []
    used = {k.name for p in scenario.state.objects.values() for k in p.printed_keywords}
    for _after, action in scenario.actions:
        for text in getattr(action, "keywords", ()):
            used.add(engine.keyword(text).name)
    stubs = []
    infos = {k.spec.name: k for k in engine.keywords()}
    for kw in sorted(used):
        info = infos.get(kw)
        if info is None:
            continue
        impls = [hook for hook in HOOKS
                 if any(i.plugin.name == info.plugin for i in engine.hooks.impls(hook))]
        if set(impls) <= {"redzone_keywords"}:
            stubs.append(kw)
    return stubs


def dumps(data: Mapping[str, Any]) -> str:
    """The golden file's text for an outcome."""
    from redzone.formats.outcome import dumps as _dumps

    return _dumps(data)


@frozen
class Report:
    """What regenerating or checking one example found.

    :param name: the example.
    :param unmet: expectations its outcome does not meet.
    :param stubs: keywords it uses that are still stubs.
    :param golden: ``"same"``, ``"written"``, ``"differs"``, ``"missing"``
        or ``"not written"``.
    """

    name: str
    unmet: tuple[str, ...]
    stubs: tuple[str, ...]
    golden: str


def regenerate(selected: Sequence[str] | None = None, *, write: bool = True,
               force: bool = False) -> list[Report]:
    """Run examples, check their expectations, and (re)write their goldens.

    :param selected: example names (default: all).
    :param write: write goldens (else only compare).
    :param force: write goldens even when expectations are unmet.
    """
    reports = []
    for name in selected or names():
        data = outcome(name)
        problems = tuple(unmet(name, data))
        stubs = tuple(unimplemented_keywords(name))
        text = dumps(data)
        gpath = golden_path(name)
        old = gpath.read_text(encoding="utf-8") if gpath.is_file() else None
        if old is not None and json.loads(old) == data:
            state = "same"
        elif not write:
            state = "missing" if old is None else "differs"
        elif problems and not force:
            state = "not written"
        else:
            gpath.write_text(text, encoding="utf-8")
            state = "written"
        reports.append(Report(name, problems, stubs, state))
    return reports


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m redzone.examples``: regenerate or check the goldens."""
    parser = argparse.ArgumentParser(prog="python -m redzone.examples",
                                     description="Regenerate or check the bundled examples' "
                                                 "golden outcomes.")
    parser.add_argument("names", nargs="*", help="examples (default: all)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--regen", action="store_true", help="rewrite the goldens")
    mode.add_argument("--check", action="store_true", help="only compare (the default)")
    parser.add_argument("--force", action="store_true",
                        help="write goldens even when expectations are unmet")
    args = parser.parse_args(argv)
    try:
        reports = regenerate(args.names or None, write=args.regen, force=args.force)
    except UnknownExampleError as exc:
        print(exc, file=sys.stderr)
        return 2
    bad = False
    for r in reports:
        status = "ok" if not r.unmet else "EXPECTATIONS UNMET"
        stub = f" (stub keyword plugins: {', '.join(r.stubs)})" if r.stubs else ""
        print(f"{r.name:40} golden {r.golden:12} {status}{stub}")
        for problem in r.unmet:
            print(f"    {problem}")
        bad = bad or bool(r.unmet) or r.golden in ("differs", "missing", "not written")
    return 1 if bad else 0


__all__ = ["DEFAULT", "Expectation", "Report", "UnknownExampleError", "expectations",
           "golden_path", "main", "names", "outcome", "path", "regenerate", "title",
           "unimplemented_keywords", "unmet"]
