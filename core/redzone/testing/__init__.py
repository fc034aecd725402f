"""redzone's test kit, for keyword authors and for engines embedding redzone.

- **Fixtures** (a pytest plugin, loaded automatically when redzone is
  installed): ``redzone_engine``, ``redzone_board``, ``redzone_make_engine``,
  ``redzone_plugins``, ``redzone_rules``. See :mod:`redzone.testing.plugin`.
- **Plugins in memory**: :func:`plugin_module` makes a plugin module from
  hook implementations (and a keyword), for ``Engine(plugins=[...])``.
- **Boards**: :class:`Board` builds states tersely; :func:`describe_board`
  and :func:`scenario_toml` write them down.
- **Golden scenario files**: :func:`check_golden` compares a scenario's JSON
  outcome with ``NAME.expected.json``; the ``redzone_golden`` ini option
  makes pytest collect a folder of them.
- **Plugin indexes**: :func:`check_index` checks that a package's plugin
  index (what lets an engine import a plugin only when it needs it) is the
  one its plugins generate.
- **The conformance kit** (needs hypothesis): :class:`KeywordConformance`
  and :func:`check_conformance` check a keyword plugin against the
  invariants every plugin must keep (:data:`INVARIANTS`), and say which one
  broke on which generated board.

Importing this package does not import hypothesis; the conformance names
are loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from redzone.testing.boards import Board, describe_board, scenario_toml
from redzone.testing.golden import GoldenMismatch, check_golden, differences, expected_path
from redzone.testing.index import check_index
from redzone.testing.modules import plugin_module

if TYPE_CHECKING:
    from redzone.testing.conformance import (
        INVARIANTS,
        ConformanceError,
        KeywordConformance,
        check_conformance,
        check_invariant,
    )

_LAZY = frozenset({"INVARIANTS", "ConformanceError", "KeywordConformance", "check_conformance",
                   "check_invariant"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from redzone.testing import conformance

        return getattr(conformance, name)
    raise AttributeError(f"module 'redzone.testing' has no attribute {name!r}")


__all__ = ["INVARIANTS", "Board", "ConformanceError", "GoldenMismatch", "KeywordConformance",
           "check_conformance", "check_golden", "check_index", "check_invariant",
           "describe_board",
           "differences", "expected_path", "plugin_module", "scenario_toml"]
