"""Shared fixtures: an engine with every built-in plugin, and a board builder."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest
import redzone
from redzone import Engine, GameState, Permanent

# Every engine of the test suite (and of CI) runs in verify mode: a plugin that
# changes the state it is shown fails the test that shows it, named.
os.environ.setdefault("REDZONE_VERIFY", "1")


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
