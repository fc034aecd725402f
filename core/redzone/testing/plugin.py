"""redzone's pytest plugin under its older name: the plugin itself is
:mod:`redzone_pytest` (the ``pytest11`` entry point), which imports nothing of
redzone until a test uses it. ``-p redzone.testing.plugin`` still works (with
plugin autoloading off), and :func:`make_engine` is importable from here.
"""

from __future__ import annotations

from redzone_pytest import (
    EngineFactory,
    GoldenFile,
    GoldenItem,
    make_engine,
    pytest_addoption,
    pytest_collect_file,
    redzone_board,
    redzone_engine,
    redzone_make_engine,
    redzone_plugins,
    redzone_rules,
)

__all__ = ["EngineFactory", "GoldenFile", "GoldenItem", "make_engine", "pytest_addoption",
           "pytest_collect_file", "redzone_board", "redzone_engine", "redzone_make_engine",
           "redzone_plugins", "redzone_rules"]
