"""The game example (docs/examples/game/duel.py): a two-player game of at most 20
turns played on redzone alone, from begin_turn to end_turn, until a player wins:
its cards in kernel zones (400.1), drawn with the kernel's Draw (121.1) and cast
with the kernel's Cast (601.2a, 608.2c, 608.2n, 608.3a), with no action kind
of its own."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Action, Cast, GameState, IllegalActionError
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.events import declared_by

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
    # 120.3: the source is the spell itself, a card now in its owner's graveyard
    assert bolts and all(game.state.objects[s].zone == "graveyard" for s in bolts)
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
    cleanup no Warrior token remains; the game made some, so this can fail."""
    made = {e.object for e in game.events if e.kind == "enters_battlefield"
            and ".mobilize." in (e.object or "")}
    assert made, "the game made no mobilize Warriors: the check below would be vacuous"
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
    on exactly as it did: all it needs is redzone's state (hands and libraries are
    kernel zones)."""
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


def test_the_game_uses_only_redzones_actions_and_events(game: duel.Game) -> None:
    """The game declares no plugin and no action kind: its engine loads the
    built-in plugins only, the module defines no action, and every event of the
    game is of a kind the kernel or a keyword plugin declares."""
    assert not hasattr(duel, "DuelPlugin") and not hasattr(duel, "PLUGIN")
    mine = [v for v in vars(duel).values() if isinstance(v, type)
            and v.__module__ == "duel" and issubclass(v, Action)]
    assert mine == []
    assert game.engine.plugin_infos == duel.new_engine().plugin_infos == \
        duel.Engine().plugin_infos
    keywords = {f"plugin {name!r}" for name, info in game.engine.plugin_infos.items()
                if info.module.__name__.startswith("redzone_keywords.")}
    owners = {e.kind: declared_by(e.kind) for e in game.events}
    assert all(owner == "redzone" or owner in keywords for owner in owners.values()), owners
    assert "plugin 'enlist'" in owners.values()  # a keyword's own kind is there too
    assert game.state.plugin_state == duel.Engine().game(list(duel.PLAYERS)).plugin_state


def test_400_1_libraries_and_hands_are_kernel_zones(game: duel.Game) -> None:
    """400.1, 401.1: the game starts with every card in its owner's library, in
    the seed's shuffled order, top first; 103.5, 121.1: the opening hands are the
    top five cards, drawn; 504.1, 103.8a: each turn's active player draws one
    card, except the starting player on turn 1."""
    _, start, _ = game.snapshots[0]
    for player in duel.PLAYERS:
        assert start.zone(player, "library") == duel.library(player, duel.SEED)
        assert start.zone(player, "hand") == ()
    label, opened, _ = game.snapshots[1]
    assert label == "turn 1 opening hands"
    for player in duel.PLAYERS:
        assert opened.zone(player, "hand") == duel.library(player, duel.SEED)[:duel.HAND]
    draws = [e for e in game.events if e.kind == "draws"]
    assert len(draws) == 2 * duel.HAND + game.state.turn - 1
    assert all(e.rule == "121.1" for e in draws)
    # the opening hands in the first turn's main phase; then one a turn, in the
    # draw step begin_turn runs (504.1), none in turn 1 (103.8a)
    assert [e.step for e in draws] == ["main"] * 2 * duel.HAND + ["draw"] * (
        game.state.turn - 1)


def test_400_7_cards_move_hand_to_battlefield_or_graveyard(game: duel.Game) -> None:
    """601.2a, 608.3a, 400.7: a cast creature card goes hand -> stack ->
    battlefield: two zone changes, its object number two more than in the hand
    (object 2 after its draw: object 4); 608.2n: a resolved instant is then in
    its owner's graveyard, likewise two zone changes later; every cast takes
    one card out of its caster's hand."""
    cast = [e.object for e in game.events if e.kind == "cast"]
    assert cast
    for i, (label, state, _) in enumerate(game.snapshots):
        if " cast " not in label:
            continue
        previous = game.snapshots[i - 1][1]
        (card,) = [c for c in previous.objects if previous.objects[c].zone == "hand"
                   and state.objects[c].zone != "hand"]
        owner = previous.objects[card].owner
        assert card in previous.zone(owner, "hand")
        obj = state.objects[card]
        was = previous.objects[card].object
        if duel.card_of(card).creature:
            assert (obj.zone, obj.object) == ("battlefield", was + 2), (label, card)
        else:
            assert (obj.zone, obj.object) == ("graveyard", was + 2), (label, card)
    instants = [c for c in cast if not duel.card_of(c).creature]
    assert instants and all(game.state.objects[c].zone == "graveyard" for c in instants)
    assert all(game.state.objects[c].zone != "hand" for c in cast)


def test_an_illegal_cast_changes_nothing(game: duel.Game) -> None:
    """601.2a, 608.2c: casting a card that isn't in its owner's hand, or an
    instant one of whose effects names a permanent that isn't there, is
    refused, and the game's state is unchanged."""
    state = game.snapshots[1][1]
    hand = state.zone("alice", "hand")
    library = state.zone("alice", "library")
    with pytest.raises(IllegalActionError) as info:
        game.engine.perform(state, Cast(library[0]))
    assert info.value.rule == "601.2a"
    instant = next(c for c in hand + library if not duel.card_of(c).creature)
    moved = state.with_permanents({instant: state.objects[instant].evolve(zone="hand")})
    with pytest.raises(IllegalActionError):
        game.engine.perform(moved, Cast(instant, effects=(duel.Destroy("nobody"),)))
    assert moved.objects[instant].zone == "hand"


def test_702_154a_enlist_is_listed_in_advance_and_answered_by_key(game: duel.Game) -> None:
    """702.154a, 508.1g: enlist's optional cost is found with
    Engine.choices_for before the declaration and answered by its key: the
    game enlists a creature that didn't attack, which becomes tapped, and the
    enlisting creature gets +X/+0 (702.154c)."""
    enlisted = [e for e in game.events if e.kind == "enlisted"]
    assert enlisted
    (state,) = [s for label, s, seen in game.snapshots if label.endswith("declare attackers")
                and any(e.kind == "enlisted" for e in game.events[:seen])][:1]
    event = enlisted[0]
    assert state.objects[event.object].tapped
    assert state.combat is not None and not state.combat.in_combat(event.object)
    assert state.combat.is_attacking(event.source)
    helper = game.snapshots[0][1].objects[event.object]
    assert state.objects[event.source].power == \
        state.objects[event.source].base_power + helper.power  # X: its power (702.154c)


def test_702_86a_a_sacrifice_is_answered_from_the_offered_choice() -> None:
    """702.86a, 608.2d: annihilator's sacrifice is a Choice listed before the
    attack; the game answers it by the offered key, with as many of the
    offered permanents as it asks, the least valuable first (the land)."""
    engine = duel.new_engine()
    c = engine.creature
    state = engine.game(list(duel.PLAYERS), [
        c("eldrazi", "alice", 10, 10, "annihilator 1"), c("bear", "bob", 2, 2),
        engine.permanent("land", "bob", types=["land"])])
    game = duel.Game(start=state)
    answers = game.answers("declare_attackers", {"eldrazi": "bob"})
    (choice,) = [c for c in engine.choices_for(state, "declare_attackers", {"eldrazi": "bob"})
                 if c.rule == "702.86a"]
    assert answers == {choice.key: ("land",)}
    out = engine.declare_attackers(state, {"eldrazi": "bob"}, choices=answers)
    assert out.state.objects["land"].zone == "graveyard"
    assert out.state.objects["bear"].zone == "battlefield"
