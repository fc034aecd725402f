"""A combat result shows the visual report in a notebook, directly.

Issue item: ``CombatResult`` displays the visual report (boards, steps, the
tokens and the vocabulary's phrases) as a notebook's rich display, with no
screen-tall blank tail; the kernel finds the renderer through the
``redzone.display`` entry-point group, so it imports no layer above it.
"""

from __future__ import annotations

import html
import re

import pytest
from redzone import Engine
from redzone.kernel import display


@pytest.fixture
def result(engine: Engine) -> object:
    state = engine.game(["alice", "bob"], [
        engine.creature("ogre", "alice", 3, 3, "first strike"),
        engine.creature("wall", "bob", 1, 2), engine.creature("bear", "alice", 2, 2)])
    return engine.resolve(state, {"ogre": "bob", "bear": "bob"}, {"wall": "ogre"})


def test_a_combat_result_shows_the_visual_report(result: object) -> None:
    """510.4 with first strike: the notebook display is the report's
    fragment: its boards (before, after each damage step, after), its steps
    titled with their rules, and the events in the vocabulary's words."""
    shown = result._repr_html_()  # type: ignore[attr-defined]
    assert shown.startswith("<div class='rz'>")
    assert shown.count("<svg") >= 4  # before, each damage step, after (wide and narrow)
    assert "Declare attackers step (508)" in shown and "Combat damage step (510)" in shown
    text = html.unescape(re.sub(r"<[^>]*>", " ", shown))
    assert "ogre deals 3 combat damage to wall" in text
    assert "wall is put into its owner's graveyard" in text
    assert "100vh" not in shown and "<!DOCTYPE" not in shown


def test_the_first_board_shows_the_declarations_read_off_the_events(result: object) -> None:
    """508.1, 509.1: the board before combat draws the attacks and blocks the
    result's events record (a result carries no scenario)."""
    shown = result._repr_html_()  # type: ignore[attr-defined]
    before = shown[shown.find("board-before"):]
    before = before[:before.find("</svg>")]
    assert "class='attack'" in before or "var(--attack)" in before
    assert "var(--block)" in before


def test_without_the_renderer_the_kernel_shows_its_own_table(
        result: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel stands alone: with no ``redzone.display`` renderer installed,
    a result shows the kernel's small table of events and board."""
    monkeypatch.setattr(display, "_renderer", [None])
    shown = result._repr_html_()  # type: ignore[attr-defined]
    assert shown.startswith("<div class='redzone-result'>")
    assert display.result_notebook_html(result) == display.result_html(result)  # type: ignore[arg-type]


def test_the_renderer_is_the_packages_report() -> None:
    """The entry point the package declares is the report's ``result_html``."""
    from redzone.formats import report

    assert display.notebook_renderer() is report.result_html
