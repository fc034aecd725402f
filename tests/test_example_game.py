"""The game example (docs/examples/game/duel.py): a two-player game of at most 20
turns played on redzone alone, from begin_turn to end_turn, until a player wins."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import GameState, IllegalActionError
from redzone.formats.serialize import state_from_dict, state_to_dict

PATH = Path(__file__).resolve().parent.parent / "docs" / "examples" / "game" / "duel.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("duel", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["duel"] = module  # attrs classes look their module up
    spec.loader.exec_module(module)
    return module


duel = _load()


@pytest.fixture(scope="module")
def game() -> duel.Game:
    return duel.play(duel.SEED)


def names_cast(game: duel.Game) -> Counter[str]:
    return Counter(duel.card_of(e.object).name for e in game.events if e.kind == "cast")


def check_invariants(game: duel.Game) -> None:
    """Along the whole game: every state round-trips through its serialised form;
    no "until end of turn" effect and no marked damage survives a cleanup step
    (514.2); each life total is 20 plus the life gained less the life lost, as the
    events say (119.3, 120.3a)."""
    for label, state, seen in game.snapshots:
        assert state_from_dict(state_to_dict(state)) == state, label
        if label.endswith(" end"):
            assert state.step == "cleanup", label
            for perm in state.battlefield:
                assert perm.damage == 0, (label, perm.id)
                assert not [m for m in perm.modifications if m.duration == "end_of_turn"], (
                    label, perm.id)
            assert not [e for e in state.effects if e.duration == "end_of_turn"], label
            assert not [s for s in state.shields if s.duration == "end_of_turn"], label
        for player in duel.PLAYERS:
            changes = [(e.kind, e.amount or 0) for e in game.events[:seen]
                       if e.player == player and e.kind in ("life_gain", "life_loss")]
            life = 20 + sum(n if kind == "life_gain" else -n for kind, n in changes)
            assert state.players[player].life == life, (label, player)


def test_104_2a_the_game_ends_within_20_turns(game: duel.Game) -> None:
    """104.2a: a player wins when their opponent has lost (here at 0 or less life,
    704.5a); the game ends then, within 20 turns; redzone refuses what follows."""
    over = game.state.game_over
    assert over is not None and over.rule == "104.2a" and not over.draw
    assert game.state.turn <= duel.MAX_TURNS
    (winner,), (loser,) = over.winners, over.losers
    assert {winner, loser} == set(duel.PLAYERS)
    assert game.state.players[loser].lost and game.state.players[loser].life <= 0
    assert game.state.players[loser].loss_rule == "704.5a"
    with pytest.raises(IllegalActionError) as info:
        game.engine.end_turn(game.state)
    assert info.value.rule == "104.2a"


def test_the_game_invariants_hold(game: duel.Game) -> None:
    check_invariants(game)


def test_every_card_kind_is_played(game: duel.Game) -> None:
    """The shown game uses each kind of card: creatures, Giant Growth (611.2),
    Lightning Bolt as a spell source of damage (120.3, 609.7), Fog (615.1),
    Murder (701.8), Raise the Alarm tokens (111.2), mobilize (702.181) and
    decayed (702.147)."""
    cast = names_cast(game)
    for name in ("Giant Growth", "Lightning Bolt", "Fog", "Murder", "Raise the Alarm",
                 "Voice of Victory", "Rotting Zombie"):
        assert cast[name], name
    bolts = {e.source for e in game.events if e.kind == "damage" and e.source
             and "Lightning Bolt" in e.source}
    assert bolts and all(s in game.state.sources for s in bolts)
    assert any(e.kind == "prevented" for e in game.events)  # the Fog
    assert any(e.kind == "destroyed" and e.rule == "701.8a" for e in game.events)
    warriors = [e.object for e in game.events if e.kind == "enters_battlefield"
                and ".mobilize." in (e.object or "")]
    sacrificed = {e.object for e in game.events if e.kind == "sacrificed"}
    assert warriors and set(warriors) <= sacrificed | {
        p.id for p in game.state.battlefield}
    assert any("Rotting Zombie" in o for o in sacrificed)


def test_513_mobilize_warriors_do_not_survive_a_turn(game: duel.Game) -> None:
    """702.181a: "Sacrifice them at the beginning of the next end step": after each
    cleanup no Warrior token remains."""
    for label, state, _ in game.snapshots:
        if label.endswith(" end"):
            assert not [p for p in state.battlefield if ".mobilize." in p.id], label


def test_the_same_seed_plays_the_same_game(game: duel.Game) -> None:
    again = duel.play(duel.SEED)
    assert again.events == game.events and again.log == game.log
    assert state_to_dict(again.state) == state_to_dict(game.state)
    other = duel.play(duel.SEED + 1)
    assert other.events != game.events


def test_the_game_keeps_no_state_outside_redzone(game: duel.Game) -> None:
    """Played on from a serialised state at the beginning of a turn, the game goes
    on exactly as it did: all it needs is redzone's state (hands and libraries in
    the plugin's own slot)."""
    starts = [(s, n) for label, s, n in game.snapshots if label.endswith(" begin")]
    state, seen = starts[len(starts) // 2]
    restored: GameState = state_from_dict(state_to_dict(state))
    resumed = duel.Game(duel.SEED, start=restored).play()
    assert resumed.events == game.events[seen:]
    assert state_to_dict(resumed.state) == state_to_dict(game.state)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_any_seed_keeps_the_invariants(seed: int) -> None:
    """Whatever the seed: the invariants hold, the game lasts at most 20 turns, and
    if it ended, it ended by 104.2a with a loser at 0 or less life (704.5a)."""
    game = duel.play(seed)
    check_invariants(game)
    assert game.state.turn <= duel.MAX_TURNS
    over = game.state.game_over
    if over is not None:
        assert over.rule == "104.2a"
        assert all(game.state.players[p].life <= 0 for p in over.losers)


def test_the_readme_tells_the_game_of_the_default_seed(game: duel.Game) -> None:
    """The README says who wins the default seed's game, and when: it must agree."""
    over = game.state.game_over
    assert over is not None
    readme = (PATH.parent / "README.md").read_text(encoding="utf-8")
    assert f"{over.winners[0]} wins on turn {game.state.turn}" in readme
