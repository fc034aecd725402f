"""Golden scenario files: a scenario, and the outcome it must have.

A golden test is a scenario file (``NAME.toml`` or ``NAME.json``, in the
scenario format) with ``NAME.expected.json`` beside it. The expected file
holds the JSON outcome that ``redzone run --json NAME.toml`` prints, or any
part of it: objects match when every key the expected one has matches
(keys it leaves out are not checked); lists match element by element and
must have the same length; other values must be equal. So a hand-written
expectation can be as small as::

    {"ok": true, "players": {"bob": {"life": 17}}}

and one written by ``pytest --redzone-update-golden`` is the whole outcome.

The runner is :func:`run_scenario`: :func:`redzone.formats.outcome.run_file`, the
function behind ``redzone run --json`` (scenario file in, JSON outcome dict
out; every installed plugin is loaded). Pass another ``runner`` to
:func:`check_golden` to check outcomes produced some other way (a closed
plugin set, another edition).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

#: Turns a scenario file into its JSON outcome (a dict).
Runner = Callable[[Path], Mapping[str, Any]]

SCENARIO_SUFFIXES = (".toml", ".json")
EXPECTED_SUFFIX = ".expected.json"


class GoldenMismatch(AssertionError):
    """A golden scenario's outcome differs from the expected one.

    :ivar path: the scenario file.
    :ivar differences: one line per difference, with its JSON path.

    .. versionadded:: 0.1.0
    """

    def __init__(self, path: Path, differences: list[str], note: str = "") -> None:
        self.path = path
        self.differences = differences
        shown = differences[:20]
        more = len(differences) - len(shown)
        lines = [f"golden scenario {path}: the outcome differs from {expected_path(path).name}"]
        lines += [f"  {d}" for d in shown]
        if more > 0:
            lines.append(f"  ... and {more} more")
        if note:
            lines.append(note)
        lines.append("(if the new outcome is right, rerun pytest with --redzone-update-golden)")
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled with its args and fields, not through __init__ (the kernel's
        # PicklesByFields; this module, a pytest plugin's, imports no kernel)
        return type(self).__new__, (type(self), *self.args), vars(self)


def is_golden_scenario(path: Path) -> bool:
    """Whether ``path`` names a scenario file (not an expected outcome)."""
    name = path.name
    return path.suffix in SCENARIO_SUFFIXES and not name.endswith(EXPECTED_SUFFIX) and (
        not name.startswith("."))


def expected_path(scenario: Path) -> Path:
    """``NAME.expected.json`` beside ``NAME.toml``."""
    return scenario.with_name(scenario.name[: -len(scenario.suffix)] + EXPECTED_SUFFIX)


def differences(expected: Any, actual: Any, where: str = "$") -> list[str]:
    """Where ``actual`` fails to match ``expected`` (subset match for
    objects, exact length for lists)."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{where}: expected an object, got {json.dumps(actual)}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{where}.{key}: missing (expected {json.dumps(value)})")
            else:
                out.extend(differences(value, actual[key], f"{where}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{where}: expected a list, got {json.dumps(actual)}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            out.extend(differences(e, a, f"{where}[{i}]"))
        if len(expected) != len(actual):
            extra = actual[len(expected):] or expected[len(actual):]
            out.append(f"{where}: expected {len(expected)} items, got {len(actual)} "
                       f"(first unmatched: {json.dumps(extra[0])})")
        return out
    if expected != actual or type(expected) is not type(actual):
        return [f"{where}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def run_scenario(path: Path) -> dict[str, Any]:
    """The JSON outcome of a scenario file, as ``redzone run --json`` prints it."""
    from redzone.formats import outcome

    return outcome.run_file(path)


def check_golden(path: Path | str, *, runner: Runner | None = None,
                 update: bool = False) -> dict[str, Any]:
    """Resolve a golden scenario and compare its outcome with the expected one.

    :param path: the scenario file.
    :param runner: turns a scenario file into its JSON outcome (default:
        :func:`run_scenario`).
    :param update: write the outcome to the expected file instead of comparing.
    :returns: the outcome.
    :raises GoldenMismatch: listing every difference (or saying the expected
        file is missing).
    """
    path = Path(path)
    # Round-trip through JSON so tuples and lists compare alike.
    text = json.dumps(dict((runner or run_scenario)(path)), indent=2, ensure_ascii=False)
    actual: dict[str, Any] = json.loads(text)
    target = expected_path(path)
    if update:
        target.write_text(text + "\n", encoding="utf-8")
        return actual
    if not target.exists():
        raise GoldenMismatch(path, [f"{target.name} does not exist"],
                             "the outcome is:\n" + json.dumps(actual, indent=2)[:2000])
    expected: Any = json.loads(target.read_text(encoding="utf-8"))
    found = differences(expected, actual)
    if found:
        raise GoldenMismatch(path, found)
    return actual


__all__ = ["EXPECTED_SUFFIX", "GoldenMismatch", "Runner", "check_golden", "differences",
           "expected_path", "is_golden_scenario", "run_scenario"]
