"""Shared fixtures: an engine with every built-in plugin, and a board builder.

The suite runs the production path, the engines embedders get: verify mode
(guarantee 10) is off unless a test asks for it (``Engine(verify=True)``, the
test kit, the command line). CI runs the plugin-facing tests a second time in
verify mode, with ``REDZONE_VERIFY=1`` (see ``.ci/run``), so that a plugin
that changes the state it is given fails the test that shows it, named.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest
import redzone
from _long import LONG
from hypothesis import settings
from redzone import Engine, GameState, Permanent
from redzone.kernel.plugins import verify_default

# Hypothesis profiles, loaded before any test module is imported (a test's
# own ``@settings`` takes what it doesn't set from the profile loaded then).
# "redzone", the default run: no deadline (the suite is not a timing test,
# and CI runs it beside other work), examples drawn at random on every run
# (CI finds over time what one run doesn't), and for a test that sets no
# count, 25 examples. Every test that costs more sets its count with
# ``samples(default, long)`` (tests/_long.py). "redzone-long", the long run
# (``REDZONE_LONG=1``): hypothesis's own 100 for those, and ``samples``
# gives the long counts. ``HYPOTHESIS_PROFILE`` (or ``--hypothesis-profile``)
# picks another profile.
settings.register_profile("redzone", deadline=None, max_examples=25)
settings.register_profile("redzone-long", settings.get_profile("redzone"), max_examples=100)
# The conformance kit keeps its boards the same from run to run for keyword
# authors unless this profile is registered: the suite draws them at random
# too (what one run doesn't find, CI finds over time).
settings.register_profile("redzone-conformance", derandomize=False, database=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "redzone-long" if LONG else "redzone")
settings.load_profile(PROFILE)


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say which path the suite's engines run, and how many samples."""
    path = ("redzone: verify mode (REDZONE_VERIFY=1)" if verify_default() else
            "redzone: production path (verify mode only where a test asks for it)")
    return [path, f"redzone: {'long' if LONG else 'default'} sampling "
                  f"(hypothesis profile {PROFILE})"]


@pytest.fixture
def public_names_resolved() -> None:
    """Every public name of ``redzone`` and ``redzone.execution`` resolved
    (their modules imported)."""
    import redzone.execution

    for package in (redzone, redzone.execution):
        for name in package.__all__:
            getattr(package, name)


@pytest.fixture
def pytester(public_names_resolved: None, pytester: pytest.Pytester) -> pytest.Pytester:
    """pytest's ``pytester``, made after :func:`public_names_resolved`: an
    in-process run drops from ``sys.modules`` the modules first imported
    inside it, while the package, imported before, keeps the names it
    resolved from them (its public names are imported on first use), so a
    name first used inside such a run would be a second copy of the one its
    module gives afterwards."""
    return pytester


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
