"""``redzone.testing`` as docs/testing.md uses it: every name is the one its
module defines (the package's stub), so a misspelt name is an error.

Checked by the project's ``mypy`` run (``[tool.mypy] files``), never run.
"""

from __future__ import annotations

from redzone import Engine, GameState
from redzone.testing import Board, KeywordConformance, check_conformance, plugin_module
from redzone_keywords import flying

wall = plugin_module("wall", "wall", redzone_attack_violations=lambda: [])
engine = Engine(discover=False, plugins=[wall])


class TestFlying(KeywordConformance):
    """The conformance kit on one plugin."""

    plugin = flying
    max_examples = 3


check_conformance(flying, max_examples=3)
b = Board(Engine())
s: GameState = b(b.c("a", "alice", 1, 1))
