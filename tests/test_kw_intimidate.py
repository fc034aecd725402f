"""Intimidate (CR 702.13): a creature with intimidate can't be blocked except by artifact
creatures and/or creatures that share a color with it (702.13b)."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, Grant, IllegalBlockError
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone_keywords import flying, intimidate, reach


def immerwolf_attacks(board: Any, *blockers: Any) -> GameState:
    """Immerwolf: a red and green 2/2 with intimidate, attacking bob."""
    state = board(board.c("wolf", "alice", 2, 2, "intimidate", name="Immerwolf",
                          colors=["red", "green"]), *blockers)
    out: GameState = board.engine.declare_attackers(state, {"wolf": "bob"}).state
    return out


@pytest.mark.parametrize(("colors", "types"), [
    (["red"], ["creature"]),
    (["green"], ["creature"]),
    (["white", "green"], ["creature"]),        # shares one of its colors
    ([], ["artifact", "creature"]),            # a colorless artifact creature
    (["blue"], ["artifact", "creature"]),      # an artifact creature sharing no color
])
def test_702_13b_seed_immerwolf_blocked_by_artifacts_or_creatures_sharing_a_color(
        board: Any, colors: list[str], types: list[str]) -> None:
    """Seed: "Immerwolf may be blocked only by creatures that share a color with it or by
    artifact creatures." Each of these may block it."""
    state = immerwolf_attacks(board, board.c("guard", "bob", 1, 3, colors=colors,
                                             types=types))
    out = board.engine.declare_blockers(state, {"guard": "wolf"})
    assert out.state.combat.blockers_of("wolf") == ("guard",)


def test_702_13b_seed_immerwolf_cannot_be_blocked_by_a_mono_white_creature(
        board: Any) -> None:
    state = immerwolf_attacks(board, board.c("knight", "bob", 2, 2, name="White Knight",
                                             colors=["white"]))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"knight": "wolf"})
    err = info.value
    assert err.rule == "702.13b"
    assert err.objects == ("knight", "wolf")
    assert str(err) == ("Immerwolf (intimidate; green, red) can't be blocked by White Knight "
                        "(white): it is not an artifact creature and shares no color with it "
                        "(rule 702.13b)")
    assert err.violations[0].restriction == "intimidate"
    assert state == snapshot


@pytest.mark.parametrize("colors", [[], ["black"], ["white", "blue"]])
def test_702_13b_nonartifact_creatures_sharing_no_color_cannot_block_it(
        board: Any, colors: list[str]) -> None:
    state = immerwolf_attacks(board, board.c("guard", "bob", 1, 3, colors=colors))
    assert [v.rule for v in board.engine.block_violations(state, {"guard": "wolf"})] == [
        "702.13b"]


def test_702_13b_a_colorless_creature_with_intimidate_only_artifacts_block_it(
        board: Any) -> None:
    """A colorless creature shares a color with no creature, colorless ones included."""
    state = board(board.c("golem", "alice", 3, 3, "intimidate", types=["artifact", "creature"]),
                  board.c("eldrazi", "bob", 2, 2), board.c("elf", "bob", 1, 1, colors=["green"]),
                  board.c("myr", "bob", 1, 1, types=["artifact", "creature"]))
    state = board.engine.declare_attackers(state, {"golem": "bob"}).state
    assert board.engine.legal_blockers(state, "golem") == ("myr",)


def test_702_13b_legal_blockers_of_immerwolf(board: Any) -> None:
    state = immerwolf_attacks(board, board.c("elf", "bob", 1, 1, colors=["green"]),
                              board.c("knight", "bob", 2, 2, colors=["white"]),
                              board.c("goblin", "bob", 1, 1, colors=["red", "black"]),
                              board.c("myr", "bob", 1, 1, types=["artifact", "creature"]))
    assert board.engine.legal_blockers(state, "wolf") == ("elf", "goblin", "myr")


def test_509_1b_intimidate_and_flying_are_cumulative(board: Any) -> None:
    state = board(board.c("drake", "alice", 2, 2, "intimidate", "flying", colors=["red"]),
                  board.c("phoenix", "bob", 2, 2, "flying", colors=["red"]),
                  board.c("goblin", "bob", 1, 1, colors=["red"]),
                  board.c("bird", "bob", 1, 1, "flying", colors=["white"]))
    state = board.engine.declare_attackers(state, {"drake": "bob"}).state
    assert board.engine.legal_blockers(state, "drake") == ("phoenix",)


def test_702_13c_multiple_instances_of_intimidate_are_redundant(board: Any) -> None:
    state = board(board.c("wolf", "alice", 2, 2, "intimidate", "intimidate", colors=["red"]),
                  board.c("knight", "bob", 2, 2, colors=["white"]))
    state = board.engine.declare_attackers(state, {"wolf": "bob"}).state
    assert len(board.engine.block_violations(state, {"knight": "wolf"})) == 1


def test_509_1b_intimidate_gained_after_blocks_does_not_undo_them(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2, colors=["green"]),
                  board.c("wall", "bob", 0, 4, colors=["white"]))
    result = board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                                  actions=[("declare_blockers", Grant("bear", "intimidate"))])
    assert result.state.objects["wall"].damage == 2


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (flying, intimidate, reach)
COLORS = ("white", "blue", "black", "red", "green")
color_sets = st.lists(st.sampled_from(COLORS), unique=True, max_size=2)


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


@given(color_sets, color_sets, st.booleans())
@settings(max_examples=40, deadline=None)
def test_702_13b_verdict_and_registration_order(mine: list[str], theirs: list[str],
                                                artifact: bool) -> None:
    """702.13b: a block of a creature with intimidate is legal exactly when the blocker is
    an artifact creature or shares a color with it; whatever the registration order."""
    verdicts = []
    for engine in engines():
        state = engine.game(["alice", "bob"], [
            engine.creature("a", "alice", 2, 2, "intimidate", colors=mine),
            engine.creature("b", "bob", 2, 2, colors=theirs,
                            types=["artifact", "creature"] if artifact else ["creature"]),
        ])
        state = engine.declare_attackers(state, {"a": "bob"}).state
        verdicts.append(engine.block_violations(state, {"b": "a"}))
    assert verdicts[0] == verdicts[1]
    assert (verdicts[0] == ()) == (artifact or bool(set(mine) & set(theirs)))


class TestIntimidateConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, order independence), with
    the evasion keywords it combines with."""

    plugin = intimidate
    builtins = False
    extra_plugins = (flying, reach)
    max_examples = 25
