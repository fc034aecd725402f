"""Vigilance (CR 702.20): attacking doesn't cause a creature with vigilance to tap."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, Grant, IllegalAttackError, IllegalBlockError, RemoveFromCombat, Revoke
from redzone.testing import KeywordConformance
from redzone_keywords import vigilance as _vigilance_plugin


def tap_events(events: Any) -> list[str]:
    return [e.object for e in events if e.kind == "tap"]


def test_702_20b_attacking_does_not_tap_a_creature_with_vigilance(board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "vigilance"))
    out = board.engine.declare_attackers(state, {"knight": "bob"})
    assert out.state.objects["knight"].tapped is False
    assert out.state.combat.is_attacking("knight")
    assert tap_events(out.events) == []


def test_508_1f_702_20b_only_the_creature_with_vigilance_stays_untapped(board: Any) -> None:
    """The plugin must answer for its own creature only: the other attacker taps (508.1f)."""
    state = board(board.c("knight", "alice", 2, 2, "vigilance"), board.c("bear", "alice", 2, 2))
    out = board.engine.declare_attackers(state, {"knight": "bob", "bear": "bob"})
    assert out.state.objects["knight"].tapped is False
    assert out.state.objects["bear"].tapped is True
    assert [(e.object, e.rule) for e in out.events if e.kind == "tap"] == [("bear", "508.1f")]


def test_702_20b_vigilance_attacker_still_deals_its_damage(board: Any) -> None:
    state = board(board.c("knight", "alice", 3, 3, "vigilance"))
    result = board.engine.resolve(state, {"knight": "bob"})
    assert result.state.players["bob"].life == 17
    assert result.state.objects["knight"].tapped is False


def test_508_1a_a_tapped_creature_with_vigilance_cannot_attack(board: Any) -> None:
    """Seed: "a tapped creature, with or without vigilance, may not be declared attacking"."""
    state = board(board.c("knight", "alice", 2, 2, "vigilance", tapped=True))
    with pytest.raises(IllegalAttackError) as info:
        board.engine.declare_attackers(state, {"knight": "bob"})
    assert info.value.rule == "508.1a"
    assert "knight is tapped" in str(info.value)


@pytest.mark.parametrize(("change", "tapped"), [
    (Grant("bear", "vigilance"), False),
    (Revoke("knight", "vigilance"), True),
])
def test_702_20b_vigilance_is_read_as_the_creature_attacks(board: Any, change: Any,
                                                           tapped: bool) -> None:
    """Gained or lost in the beginning of combat step, it counts when attackers are declared."""
    state = board(board.c("knight", "alice", 2, 2, "vigilance"), board.c("bear", "alice", 2, 2))
    target = change.target
    result = board.engine.resolve(state, {target: "bob"},
                                  actions=[("beginning_of_combat", change)])
    tapped_now = [e.object for e in result.events if e.kind == "tap"]
    assert (target in tapped_now) is tapped
    assert result.state.objects[target].tapped is tapped


def test_702_20c_several_instances_of_vigilance_are_redundant(board: Any) -> None:
    state = board(board.c("knight", "alice", 2, 2, "vigilance", "vigilance"))
    out = board.engine.declare_attackers(state, {"knight": "bob"})
    assert out.state.objects["knight"].tapped is False
    state = board(board.c("knight", "alice", 2, 2, "vigilance"))
    result = board.engine.resolve(state, {"knight": "bob"},
                                  actions=[("beginning_of_combat", Grant("knight", "vigilance"))])
    assert result.state.objects["knight"].tapped is False


@pytest.mark.parametrize("keywords", [("vigilance",), ()])
def test_509_1a_seed_attacker_whose_control_changes_can_block_if_vigilance_left_it_untapped(
        engine: Engine, keywords: tuple[str, ...]) -> None:
    """Seed: "I attack with a creature and then the defending player gains control of
    it. If the attacking creature has vigilance, can that opponent block another
    attacking creature of mine with it?"

    The control change removes it from combat (506.4; the embedding game applies the
    change, here by hand). With vigilance it is untapped and its new controller may
    block with it (509.1a); without vigilance it was tapped by attacking and can't.
    """
    state = engine.game(["alice", "bob"], [
        engine.creature("knight", "alice", 2, 2, *keywords),
        engine.creature("bear", "alice", 2, 2),
    ])
    state = engine.declare_attackers(state, {"knight": "bob", "bear": "bob"}).state
    state = engine.perform(state, RemoveFromCombat("knight")).state
    stolen = state.objects["knight"].evolve(controller="bob", summoning_sick=True)
    state = state.with_permanents({"knight": stolen})
    assert state.combat is not None and not state.combat.is_attacking("knight")
    if keywords:
        out = engine.declare_blockers(state, {"knight": "bear"})
        assert out.state.combat is not None
        assert out.state.combat.blockers_of("bear") == ("knight",)
        result = engine.combat_damage(out.state)
        assert result.state.objects["bear"].zone == "graveyard"
        assert result.state.players["bob"].life == 20
    else:
        with pytest.raises(IllegalBlockError) as info:
            engine.declare_blockers(state, {"knight": "bear"})
        assert info.value.rule == "509.1a"
        assert "knight is tapped and can't block" in str(info.value)


class TestVigilanceConformance(KeywordConformance):
    """The conformance kit's invariants for vigilance (702.20), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _vigilance_plugin
    max_examples = 25
