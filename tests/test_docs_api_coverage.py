"""The API reference documents every public name (issue 22, item 6).

Every name of ``redzone.__all__``, ``redzone.testing.__all__`` and
``redzone.execution.__all__`` is
rendered by a ``:::`` directive of a page in ``docs/``: one naming it, or one
naming its module whose ``members`` list holds it, or, with no ``members``
list, whose rendering shows it (mkdocstrings shows a module's public member
that has a docstring: an attribute documented by a ``#:`` comment alone is
not shown and needs its own directive).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Any

import pytest
import redzone
import redzone.execution
import redzone.testing

# What mkdocstrings would show is read with griffe, of the docs extra.
griffe = pytest.importorskip("griffe", reason="the docs extra is not installed "
                             "(pip install -e '.[docs]')")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: A directive and the indented lines of its options after it.
DIRECTIVE = re.compile(r"^::: (\S+)\n((?:[ \t]+\S.*\n?)*)", re.M)


#: A ``members`` option: a list (``[a, b]``, over lines) or ``false``.
MEMBERS = re.compile(r"^\s*members:\s*(\[[^\]]*\]|false)", re.M)


def directives() -> list[tuple[str, dict[str, Any]]]:
    """Every ``::: path`` directive of the hand-written pages, with its
    ``members`` option (the one option that decides what a module shows)."""
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        if page.relative_to(DOCS).parts[0] in ("_gen", "examples"):
            continue
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            options: dict[str, Any] = {}
            members = MEMBERS.search(match.group(2))
            if members is not None:
                text = members.group(1)
                options["members"] = (False if text == "false" else
                                      [m.strip() for m in text.strip("[]").split(",")
                                       if m.strip()])
            found.append((match.group(1), options))
    return found


def kit_exports() -> dict[str, str]:
    """``redzone.testing``'s public names -> the module that defines each, read
    from its imports (the conformance names are imported lazily)."""
    source = (ROOT / "core" / "redzone" / "testing" / "__init__.py").read_text(encoding="utf-8")
    where: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                where[alias.asname or alias.name] = node.module
    return {name: where[name] for name in redzone.testing.__all__}


_LOADER = griffe.GriffeLoader(search_paths=[str(ROOT / "core"), str(ROOT / "plugins")])


@functools.cache
def _package(name: str) -> griffe.Object:
    found = _LOADER.load(name)
    assert isinstance(found, griffe.Object)
    return found


def _module(path: str) -> griffe.Object:
    """The module (or class) at a dotted path, from its package loaded once."""
    root, _, rest = path.partition(".")
    found = _package(root)[rest] if rest else _package(root)
    assert isinstance(found, griffe.Object)
    return found


def defined_at(module: str, name: str) -> tuple[str, str]:
    """Where ``module.name`` is defined: a name a module imports from another
    (``hooktypes.Action`` is ``model.Action``) is documented there."""
    member = _module(module).members.get(name)
    while isinstance(member, griffe.Alias):
        module, _, name = member.target_path.rpartition(".")
        member = _module(module).members.get(name)
    return module, name


def _shown_by_module(module: str, name: str, options: dict[str, Any]) -> bool:
    members = options.get("members")
    if isinstance(members, list):
        return name in members
    if members is False:
        return False
    found = _module(module).members.get(name)
    return (found is not None and not found.is_alias and found.docstring is not None
            and not name.startswith("_"))


def documented(module: str, name: str, found: list[tuple[str, dict[str, Any]]]) -> bool:
    """Whether a directive renders ``module.name`` (where it is defined)."""
    module, name = defined_at(module, name)
    for path, options in found:
        if path == module and _shown_by_module(module, name, options):
            return True
        parent, _, last = path.rpartition(".")
        if parent and last == name and defined_at(parent, last) == (module, name):
            return True  # (engine.Outcome is tx.Outcome)
    return False


WHERE: dict[str, str] = vars(redzone)["_WHERE"]  # the package's table of its names
EXECUTION: dict[str, str] = vars(redzone.execution)["_WHERE"]  # the execution layer's
PUBLIC = sorted({**{n: WHERE[n] for n in redzone.__all__},
                 **{f"redzone.testing:{n}": m for n, m in kit_exports().items()},
                 **{f"redzone.execution:{n}": m for n, m in EXECUTION.items()}}.items())
FOUND = directives()


def test_the_directives_are_read() -> None:
    """The parse finds the reference's directives and their options."""
    paths = dict(FOUND)
    assert "redzone.kernel.engine.Engine" in paths
    assert paths["redzone.kernel.references"]["members"]


@pytest.mark.parametrize(("name", "module"), PUBLIC, ids=[n for n, _ in PUBLIC])
def test_every_public_name_is_in_the_api_reference(name: str, module: str) -> None:
    bare = name.partition(":")[2] or name
    assert documented(module, bare, FOUND), (
        f"{bare} (defined in {module}) is rendered by no '::: ' directive of docs/: add "
        f"'::: {module}.{bare}' to docs/api.md")


def test_a_module_directive_without_members_hides_an_undocumented_attribute() -> None:
    """The check follows mkdocstrings: ``UNLIMITED`` (a ``#:`` comment, no
    docstring) is not shown by ``::: redzone.kernel.model`` alone."""
    assert not documented("redzone.kernel.model", "UNLIMITED", [("redzone.kernel.model", {})])
    assert documented("redzone.kernel.model", "Permanent", [("redzone.kernel.model", {})])
