"""Shadow (CR 702.28): a creature with shadow can't be blocked by creatures without
shadow, and a creature without shadow can't be blocked by creatures with shadow
(702.28b); evasion abilities are cumulative (509.1b)."""

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
from redzone_keywords import flying, reach, shadow


def attack(board: Any, attacker: Any, *blockers: Any) -> GameState:
    state = board(attacker, *blockers)
    out: GameState = board.engine.declare_attackers(state, {attacker.id: "bob"}).state
    return out


def test_702_28b_a_creature_without_shadow_cannot_block_a_creature_with_shadow(
        board: Any) -> None:
    state = attack(board, board.c("knight", "alice", 2, 2, "shadow", name="Dauthi Knight"),
                   board.c("bear", "bob", 2, 2, name="Grizzly Bears"))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"bear": "knight"})
    err = info.value
    assert err.rule == "702.28b"
    assert err.objects == ("bear", "knight")
    assert str(err) == ("Dauthi Knight (shadow) can't be blocked by Grizzly Bears: it doesn't "
                        "have shadow (rule 702.28b)")
    assert err.violations[0].restriction == "shadow"
    assert state == snapshot


def test_702_28b_a_creature_with_shadow_can_block_a_creature_with_shadow(board: Any) -> None:
    state = attack(board, board.c("knight", "alice", 2, 2, "shadow"),
                   board.c("soltari", "bob", 1, 3, "shadow"))
    out = board.engine.declare_blockers(state, {"soltari": "knight"})
    assert out.state.combat.blockers_of("knight") == ("soltari",)


def test_702_28b_a_creature_with_shadow_cannot_block_a_creature_without_shadow(
        board: Any) -> None:
    """The second half of 702.28b: unlike flying (702.9c), shadow restricts the blocker
    that has it too."""
    state = attack(board, board.c("bear", "alice", 2, 2, name="Grizzly Bears"),
                   board.c("soltari", "bob", 1, 3, "shadow", name="Soltari Monk"))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"soltari": "bear"})
    err = info.value
    assert err.rule == "702.28b"
    assert err.objects == ("bear", "soltari")
    assert "Soltari Monk (shadow) can't block Grizzly Bears" in str(err)
    assert err.violations[0].restriction == "shadow_blocker"


def test_702_28b_legal_blockers_in_both_directions(board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "shadow"), board.c("bear", "alice", 2, 2),
                  board.c("soltari", "bob", 1, 3, "shadow"), board.c("wall", "bob", 0, 4))
    state = board.engine.declare_attackers(state, {"knight": "bob", "bear": "bob"}).state
    assert board.engine.legal_blockers(state, "knight") == ("soltari",)
    assert board.engine.legal_blockers(state, "bear") == ("wall",)


def test_509_1b_example_flying_and_shadow_not_blockable_by_a_flier_without_shadow(
        board: Any) -> None:
    """509.1b example: "An attacking creature with flying and shadow can't be blocked by a
    creature with flying but without shadow." """
    state = attack(board, board.c("spirit", "alice", 2, 2, "flying", "shadow"),
                   board.c("owl", "bob", 1, 1, "flying"))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"owl": "spirit"})
    assert [v.rule for v in info.value.violations] == ["702.28b"]


@pytest.mark.parametrize(("keywords", "rules"), [
    (("shadow",), ["702.9b"]),               # shadow but neither flying nor reach
    (("shadow", "flying"), []),
    (("shadow", "reach"), []),
    (("reach",), ["702.28b"]),
    ((), ["702.28b", "702.9b"]),
])
def test_509_1b_evasion_abilities_are_cumulative_flying_and_shadow(
        board: Any, keywords: tuple[str, ...], rules: list[str]) -> None:
    """509.1b (derived from its example): against flying and shadow a blocker needs
    shadow and flying or reach; each missing ability is its own violation."""
    state = attack(board, board.c("spirit", "alice", 2, 2, "flying", "shadow"),
                   board.c("guard", "bob", 1, 3, *keywords))
    assert sorted(v.rule for v in board.engine.block_violations(state, {"guard": "spirit"})
                  ) == rules


def test_702_28c_multiple_instances_of_shadow_are_redundant(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [engine.creature("k", "alice", 2, 2, "shadow",
                                                           "shadow"),
                                           engine.creature("bear", "bob", 2, 2),
                                           engine.creature("s", "bob", 1, 1, "shadow")])
    state = engine.declare_attackers(state, {"k": "bob"}).state
    assert len(engine.block_violations(state, {"bear": "k"})) == 1
    assert engine.block_violations(state, {"s": "k"}) == ()


def test_509_1b_shadow_gained_after_blockers_are_declared_does_not_undo_the_block(
        board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4))
    result = board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                                  actions=[("declare_blockers", Grant("bear", "shadow"))])
    assert result.state.objects["wall"].damage == 2
    assert result.state.players["bob"].life == 20


def test_702_28b_shadow_gained_before_blocks_restricts_them(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                             actions=[("declare_attackers", Grant("bear", "shadow"))])
    assert info.value.rule == "702.28b"


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (flying, reach, shadow)
EXTRAS = ("flying", "reach")


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


@given(st.booleans(), st.booleans(), st.lists(st.sampled_from(EXTRAS), unique=True),
       st.lists(st.sampled_from(EXTRAS), unique=True))
@settings(max_examples=40, deadline=None)
def test_702_28b_verdict_is_shadow_equality_and_does_not_depend_on_registration_order(
        att_shadow: bool, blk_shadow: bool, att_extra: list[str], blk_extra: list[str]) -> None:
    """702.28b: a block breaks the shadow rule exactly when one of the two has shadow and
    the other doesn't; 509.1b: flying adds its own restriction; the answers are the same
    whatever order the plugins were registered in (design)."""
    verdicts = []
    for engine in engines():
        state = engine.game(["alice", "bob"], [
            engine.creature("a", "alice", 2, 2, *att_extra, *(["shadow"] if att_shadow else [])),
            engine.creature("b", "bob", 2, 2, *blk_extra, *(["shadow"] if blk_shadow else [])),
        ])
        state = engine.declare_attackers(state, {"a": "bob"}).state
        verdicts.append(engine.block_violations(state, {"b": "a"}))
    assert verdicts[0] == verdicts[1]
    rules = [v.rule for v in verdicts[0]]
    assert ("702.28b" in rules) == (att_shadow != blk_shadow)
    flier_blocked = "flying" in att_extra and not ({"flying", "reach"} & set(blk_extra))
    assert ("702.9b" in rules) == flier_blocked


class TestShadowConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, order independence), with
    the evasion keywords it combines with."""

    plugin = shadow
    builtins = False
    extra_plugins = (flying, reach)
    max_examples = 25
