"""The public names of redzone.testing, for type checkers and IDEs: generated from
the table ``_EXPORTS`` in ``__init__.py`` by ``python -m redzone._stub``;
don't edit."""

from redzone.testing.boards import Board, describe_board, scenario_toml
from redzone.testing.conformance import (
    INVARIANTS,
    ConformanceError,
    KeywordConformance,
    check_conformance,
    check_invariant,
)
from redzone.testing.golden import GoldenMismatch, check_golden, differences, expected_path
from redzone.testing.index import check_index
from redzone.testing.modules import plugin_module

__all__ = [
    "INVARIANTS",
    "Board",
    "ConformanceError",
    "GoldenMismatch",
    "KeywordConformance",
    "check_conformance",
    "check_golden",
    "check_index",
    "check_invariant",
    "describe_board",
    "differences",
    "expected_path",
    "plugin_module",
    "scenario_toml",
]
