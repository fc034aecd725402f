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

from typing import TYPE_CHECKING

from redzone._names import lazy_names

# Imported with the package (``X as X``: a re-export; ``__all__`` comes from
# the table below); the conformance names are imported on first use.
from redzone.testing.boards import Board as Board
from redzone.testing.boards import describe_board as describe_board
from redzone.testing.boards import scenario_toml as scenario_toml
from redzone.testing.golden import GoldenMismatch as GoldenMismatch
from redzone.testing.golden import check_golden as check_golden
from redzone.testing.golden import differences as differences
from redzone.testing.golden import expected_path as expected_path
from redzone.testing.index import check_index as check_index
from redzone.testing.modules import plugin_module as plugin_module

if TYPE_CHECKING:
    from redzone.testing.conformance import INVARIANTS as INVARIANTS
    from redzone.testing.conformance import ConformanceError as ConformanceError
    from redzone.testing.conformance import KeywordConformance as KeywordConformance
    from redzone.testing.conformance import check_conformance as check_conformance
    from redzone.testing.conformance import check_invariant as check_invariant

#: The public names, by the module that defines each, as ``redzone._EXPORTS``
#: is redzone's: ``__all__``, the lookup of the conformance names (imported on
#: first use, with hypothesis) and ``dir()`` are derived from it, and type
#: checkers read ``__init__.pyi``, generated from it by ``python -m
#: redzone._stub``. The other modules are imported with the package.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "redzone.testing.boards": ("Board", "describe_board", "scenario_toml"),
    "redzone.testing.conformance": ("INVARIANTS", "ConformanceError", "KeywordConformance",
                                    "check_conformance", "check_invariant"),
    "redzone.testing.golden": ("GoldenMismatch", "check_golden", "differences",
                               "expected_path"),
    "redzone.testing.index": ("check_index",),
    "redzone.testing.modules": ("plugin_module",),
}

_WHERE, __all__, __getattr__, __dir__ = lazy_names("redzone.testing", _EXPORTS, globals())
