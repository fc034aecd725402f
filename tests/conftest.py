"""Shared fixtures: an engine with every built-in plugin, and a board builder.

The suite runs the production path, the engines embedders get: verify mode
(guarantee 10) is off unless a test asks for it (``Engine(verify=True)``, the
test kit, the command line). CI runs the plugin-facing tests a second time in
verify mode, with ``REDZONE_VERIFY=1`` (see ``.ci/run``), so that a plugin
that changes the state it is given fails the test that shows it, named.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
import redzone
from redzone import Engine, GameState, Permanent
from redzone.kernel.plugins import verify_default


def pytest_report_header(config: pytest.Config) -> str:
    """Say which path the suite's engines run."""
    if verify_default():
        return "redzone: verify mode (REDZONE_VERIFY=1)"
    return "redzone: production path (verify mode only where a test asks for it)"


@pytest.fixture(scope="session")
def engine() -> Engine:
    """An engine with every discovered plugin (the built-in keywords)."""
    return Engine()


@pytest.fixture(scope="session")
def bare_engine() -> Engine:
    """An engine with no keyword plugins at all (core rules only)."""
    return Engine(discover=False)


class Board:
    """Builds game states tersely: ``board(c("bear", "bob", 2, 2, "flying"))``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def c(self, id: str, controller: str, power: int, toughness: int, *keywords: str,
          **kwargs: Any) -> Permanent:
        return self.engine.creature(id, controller, power, toughness, *keywords, **kwargs)

    def __call__(self, *permanents: Permanent, players: Iterable[str | redzone.Player] = (
            "alice", "bob"), **kwargs: Any) -> GameState:
        return self.engine.game(list(players), permanents, **kwargs)


@pytest.fixture
def board(engine: Engine) -> Board:
    """A :class:`Board` on the full engine."""
    return Board(engine)
