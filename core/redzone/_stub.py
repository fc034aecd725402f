"""Generates ``redzone/__init__.pyi``, the public names as type checkers and
IDEs read them, from the one table of them in ``redzone/__init__.py``.

``import redzone`` imports the modules of its names lazily (PEP 562), which
type checkers can't follow; the stub imports each name from its module, so
``from redzone import Engine`` is the real class to mypy and to an editor's
completion. The stub is generated, never edited: after changing the table,
run ``python -m redzone._stub`` (the test suite checks that the stub is
fresh).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

HEADER = ('"""The public names of redzone, for type checkers and IDEs: generated from\n'
          "the table ``_EXPORTS`` in ``__init__.py`` by ``python -m redzone._stub``;\n"
          'don\'t edit."""\n')


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


def render(exports: Mapping[str, Sequence[str]]) -> str:
    """The text of ``__init__.pyi`` for the table ``exports`` (each module
    with the public names it defines).

    :param exports: the table, as ``redzone._EXPORTS`` holds it.
    :returns: the stub: ``__version__``, one import per module (in module
        order) and ``__all__``, every name in it (a stub re-exports what
        ``__all__`` lists).
    """
    lines = [HEADER, "from redzone._version import __version__ as __version__"]
    for module in sorted(exports):
        lines += _import(module, exports[module])
    names = sorted((name for names in exports.values() for name in names), key=_order)
    lines += ["", "__all__ = [", *(f'    "{name}",' for name in names), "]"]
    return "\n".join(lines) + "\n"


def stub_path() -> Path:
    """Where the stub lives: beside ``redzone/__init__.py``."""
    return Path(__file__).with_name("__init__.pyi")


def main() -> int:
    """Write the stub generated from the table that ``redzone`` holds."""
    import redzone

    # vars(): the table is the module's, not one of the names the stub describes.
    stub_path().write_text(render(vars(redzone)["_EXPORTS"]), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
