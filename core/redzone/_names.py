"""A package's public names, imported when first used (PEP 562).

``redzone`` and ``redzone.execution`` each write their public names once,
in a table ``_EXPORTS`` (module -> names); this makes the rest from it:
each name's module (``_WHERE``), ``__all__``, the module ``__getattr__``
that imports a name's module on first use, and ``__dir__``. ``python -m
redzone._stub`` writes the type stubs from the same table.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # ``import typing`` alone would double the cost of ``import redzone``
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, MutableMapping
    from typing import Any


def lazy_names(package: str, exports: Mapping[str, tuple[str, ...]],
               namespace: MutableMapping[str, Any]
               ) -> tuple[dict[str, str], list[str], Callable[[str], object],
                          Callable[[], list[str]]]:
    """Each name's module, ``__all__``, ``__getattr__`` and ``__dir__`` for
    ``package``.

    :param package: the package's name, for the error of an unknown name.
    :param exports: its public names by the module that defines each.
    :param namespace: the package's ``globals()``: a name, once looked up,
        is put there and becomes an ordinary attribute.
    """
    where = {name: module for module, names in exports.items() for name in names}

    def getattr_(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *where})

    return where, sorted(where), getattr_, dir_
