"""Fear (CR 702.36): a creature with fear can't be blocked except by artifact creatures
and/or black creatures (702.36b)."""

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
from redzone_keywords import fear, flying, reach


def attack(board: Any, *blockers: Any, keywords: tuple[str, ...] = ("fear",)) -> GameState:
    state = board(board.c("shade", "alice", 2, 2, *keywords, name="Dread Shade",
                          colors=["black"]), *blockers)
    out: GameState = board.engine.declare_attackers(state, {"shade": "bob"}).state
    return out


def test_702_36b_a_nonartifact_nonblack_creature_cannot_block_it(board: Any) -> None:
    state = attack(board, board.c("knight", "bob", 2, 2, name="White Knight",
                                  colors=["white"]))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"knight": "shade"})
    err = info.value
    assert err.rule == "702.36b"
    assert err.objects == ("knight", "shade")
    assert str(err) == ("Dread Shade (fear) can't be blocked by White Knight: it is neither an "
                        "artifact creature nor black (rule 702.36b)")
    assert err.violations[0].restriction == "fear"
    assert state == snapshot


@pytest.mark.parametrize(("colors", "types"), [
    (["black"], ["creature"]),                      # black
    (["white", "black"], ["creature"]),             # multicolored, one of them black
    ([], ["artifact", "creature"]),                 # colorless artifact creature
    (["red"], ["artifact", "creature"]),            # red artifact creature
    (["black"], ["artifact", "creature"]),          # both
])
def test_702_36b_artifact_creatures_and_black_creatures_can_block_it(
        board: Any, colors: list[str], types: list[str]) -> None:
    state = attack(board, board.c("guard", "bob", 1, 3, colors=colors, types=types))
    out = board.engine.declare_blockers(state, {"guard": "shade"})
    assert out.state.combat.blockers_of("shade") == ("guard",)


@pytest.mark.parametrize("colors", [[], ["white"], ["blue", "red"], ["green"]])
def test_702_36b_other_nonartifact_creatures_cannot_block_it(board: Any,
                                                              colors: list[str]) -> None:
    """Colorless and any non-black colors are not enough; fear on the blocker doesn't
    help either."""
    state = attack(board, board.c("guard", "bob", 1, 3, "fear", colors=colors))
    assert [v.rule for v in board.engine.block_violations(state, {"guard": "shade"})] == [
        "702.36b"]


def test_702_36b_fear_restricts_only_the_creature_that_has_it(board: Any) -> None:
    state = attack(board, board.c("knight", "bob", 2, 2, "fear", colors=["white"]),
                   keywords=())
    assert board.engine.block_violations(state, {"knight": "shade"}) == ()


def test_702_36b_legal_blockers(board: Any) -> None:
    state = attack(board, board.c("knight", "bob", 2, 2, colors=["white"]),
                   board.c("zombie", "bob", 2, 2, colors=["black"]),
                   board.c("golem", "bob", 3, 3, types=["artifact", "creature"]))
    assert board.engine.legal_blockers(state, "shade") == ("zombie", "golem")


def test_509_1b_fear_and_flying_are_cumulative(board: Any) -> None:
    state = attack(board, board.c("bat", "bob", 1, 1, "flying", colors=["black"]),
                   board.c("zombie", "bob", 2, 2, colors=["black"]),
                   board.c("thopter", "bob", 1, 1, "flying", types=["artifact", "creature"]),
                   board.c("bird", "bob", 1, 1, "flying", colors=["white"]),
                   keywords=("fear", "flying"))
    assert board.engine.legal_blockers(state, "shade") == ("bat", "thopter")
    assert [v.rule for v in board.engine.block_violations(state, {"zombie": "shade"})] == [
        "702.9b"]


def test_702_36c_multiple_instances_of_fear_are_redundant(board: Any) -> None:
    state = attack(board, board.c("knight", "bob", 2, 2, colors=["white"]),
                   keywords=("fear", "fear"))
    assert len(board.engine.block_violations(state, {"knight": "shade"})) == 1


def test_509_1b_fear_gained_after_blocks_does_not_undo_them(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4,
                                                          colors=["white"]))
    result = board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                                  actions=[("declare_blockers", Grant("bear", "fear"))])
    assert result.state.objects["wall"].damage == 2
    assert result.state.players["bob"].life == 20


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (fear, flying, reach)


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


COLORS = ("white", "blue", "black", "red", "green")


@given(st.booleans(), st.lists(st.sampled_from(COLORS), unique=True, max_size=3),
       st.booleans())
@settings(max_examples=40, deadline=None)
def test_702_36b_verdict_and_registration_order(has_fear: bool, colors: list[str],
                                                artifact: bool) -> None:
    """702.36b: a block of a creature with fear is legal exactly when the blocker is an
    artifact creature or black; whatever the registration order (design)."""
    verdicts = []
    for engine in engines():
        state = engine.game(["alice", "bob"], [
            engine.creature("a", "alice", 2, 2, *(["fear"] if has_fear else [])),
            engine.creature("b", "bob", 2, 2, colors=colors,
                            types=["artifact", "creature"] if artifact else ["creature"]),
        ])
        state = engine.declare_attackers(state, {"a": "bob"}).state
        verdicts.append(engine.block_violations(state, {"b": "a"}))
    assert verdicts[0] == verdicts[1]
    assert bool(verdicts[0]) == (has_fear and not artifact and "black" not in colors)


class TestFearConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, order independence), with
    the evasion keywords it combines with."""

    plugin = fear
    builtins = False
    extra_plugins = (flying, reach)
    max_examples = 25
