"""Every hook and every public class says when it was added (issue 22, item 6).

Each carries a Sphinx ``.. versionadded:: X.Y`` line in its docstring, with a
version no later than the package's. redzone has had one version,
``0.1.0`` (no release before it), so that is every one's today; a hook or
class added later gets the version it comes with. The docs render the line:
the hook reference as "Added in", the API reference through the docs' griffe
extension.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path

import pytest
import redzone
import redzone.execution
import redzone.testing
from redzone.kernel import hookspecs

ROOT = Path(__file__).resolve().parent.parent
ADDED = re.compile(r"^\s*\.\. versionadded:: (\d+)\.(\d+)(?:\.(\d+))?\s*$", re.M)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


CURRENT = _version(redzone.__version__)


def public_classes() -> dict[str, type]:
    """The classes of the public name lists (``redzone``, ``redzone.testing``,
    ``redzone.execution``) and those the API reference names one by one."""
    found: dict[str, type] = {}
    for package in (redzone, redzone.testing, redzone.execution):
        for name in package.__all__:
            obj = getattr(package, name)
            if inspect.isclass(obj):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for path in re.findall(r"^::: (\S+)$", api, re.M):
        module, _, name = path.rpartition(".")
        if not module.startswith("redzone"):
            continue
        try:
            obj = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue  # a module directive
        if inspect.isclass(obj):
            found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


CLASSES = public_classes()
HOOKS = sorted(n for n in dir(hookspecs) if n.startswith("redzone_"))


def _check(what: str, doc: str | None) -> None:
    match = ADDED.search(inspect.cleandoc(doc or ""))
    assert match is not None, f"{what}: no '.. versionadded:: X.Y' line in its docstring"
    added = tuple(int(p) for p in match.groups() if p is not None)
    assert added <= CURRENT, f"{what}: added in {added}, after this version {CURRENT}"


def test_the_public_classes_are_found() -> None:
    assert {"redzone.kernel.engine.Engine", "redzone.testing.boards.Board",
            "redzone.execution.jobs.JobOutcome", "redzone.kernel.tx.Tx"} <= set(CLASSES)


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_says_when_it_was_added(name: str) -> None:
    _check(name, getattr(hookspecs, name).__doc__)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_public_class_says_when_it_was_added(name: str) -> None:
    _check(name, CLASSES[name].__doc__)


def _sibling(name: str) -> object:
    path = ROOT / "docs" / "_gen" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_docs_show_the_version() -> None:
    """The hook reference says "Added in"; the griffe extension turns the
    line into a sentence after the summary (griffe's Sphinx parser drops a
    directive after the field list)."""
    page = vars(_sibling("redzone_docs"))["hooks_page"]()
    section = page.split("### `redzone_lethal_damage`")[1].split("### ")[0]
    assert f"**Added in** redzone {redzone.__version__}." in section
    shown = vars(_sibling("griffe_attrs"))["version_added"](
        "Summary.\n\n:param x: an x.\n\n.. versionadded:: 0.1.0")
    assert shown == "Summary.\n\n*Added in redzone 0.1.0.*\n\n:param x: an x."
