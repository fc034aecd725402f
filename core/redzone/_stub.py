"""Generates ``redzone/__init__.pyi``, ``redzone/execution/__init__.pyi`` and
``redzone/testing/__init__.pyi``, the public names as type checkers and IDEs
read them, from the one table of them in each package's ``__init__.py``
(``_EXPORTS``).

Each package imports the modules of its names lazily (PEP 562), which
type checkers can't follow; the stub imports each name from its module, so
``from redzone import Engine`` is the real class to mypy and to an editor's
completion. A stub is generated, never edited: after changing a table, run
``python -m redzone._stub`` (the test suite checks that the stubs are
fresh).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

#: The packages whose public names are a table, ``_EXPORTS``.
PACKAGES = ("redzone", "redzone.execution", "redzone.testing")


def header(package: str) -> str:
    """The docstring of ``package``'s stub.

    :param package: ``redzone`` or another of :data:`PACKAGES`.
    """
    return (f'"""The public names of {package}, for type checkers and IDEs: generated '
            "from\nthe table ``_EXPORTS`` in ``__init__.py`` by ``python -m redzone._stub``;"
            '\ndon\'t edit."""\n')


def _order(name: str) -> tuple[int, str, str]:
    """isort's and ruff's order of imported names and of ``__all__``:
    constants, then classes, then everything else, each alphabetically."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower(), name


def _import(module: str, names: Sequence[str], width: int = 100) -> list[str]:
    ordered = sorted(names, key=_order)
    line = f"from {module} import {', '.join(ordered)}"
    if len(line) <= width:
        return [line]
    return [f"from {module} import (", *(f"    {name}," for name in ordered), ")"]


def render(exports: Mapping[str, Sequence[str]], package: str = "redzone") -> str:
    """The text of ``__init__.pyi`` for the table ``exports`` (each module
    with the public names it defines).

    :param exports: the table, as ``redzone._EXPORTS`` holds it.
    :param package: the package whose table it is.
    :returns: the stub: (for redzone) ``__version__``, one import per module
        (in module order) and ``__all__``, every name in it (a stub
        re-exports what ``__all__`` lists).
    """
    lines = [header(package)]
    if package == "redzone":
        lines.append("from redzone._version import __version__ as __version__")
    for module in sorted(exports):
        lines += _import(module, exports[module])
    # (``__all__`` is ordered as ruff orders it: case-sensitively within a kind.)
    names = sorted((name for names in exports.values() for name in names),
                   key=lambda name: (_order(name)[0], name))
    lines += ["", "__all__ = [", *(f'    "{name}",' for name in names), "]"]
    return "\n".join(lines) + "\n"


def stub_path(package: str = "redzone") -> Path:
    """Where a package's stub lives: beside its ``__init__.py``."""
    return Path(__file__).parent.joinpath(*package.split(".")[1:], "__init__.pyi")


def main() -> int:
    """Write each package's stub, generated from the table it holds."""
    import importlib

    for package in PACKAGES:
        # vars(): the table is the module's, not one of the names the stub describes.
        table = vars(importlib.import_module(package))["_EXPORTS"]
        stub_path(package).write_text(render(table, package), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
