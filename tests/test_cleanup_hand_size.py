"""514.1: "First, if the active player's hand contains more cards than their
maximum hand size (normally seven), they discard enough cards to reduce their
hand size to that number" (402.2; discarding is 701.9a)."""

from __future__ import annotations

import pytest
from redzone import Engine, GameState, IllegalActionError, Player, creature
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import loads


def hands(engine: Engine, alice: int, bob: int, **player: object) -> GameState:
    cards = [creature(f"a{i}", "alice", 1, 1, zone="hand") for i in range(alice)]
    cards += [creature(f"b{i}", "bob", 1, 1, zone="hand") for i in range(bob)]
    return engine.game([Player("alice", **player), Player("bob")], cards)  # type: ignore[arg-type]


def test_514_1_the_active_player_discards_down_to_seven(engine: Engine) -> None:
    """514.1, 701.9a, 404.1: nine cards: two go to alice's graveyard, by
    default the last two she got, in that order; bob (not active) keeps his
    nine."""
    out = engine.end_turn(hands(engine, 9, 9))
    state = out.state
    assert state.zone("alice", "hand") == tuple(f"a{i}" for i in range(7))
    assert state.zone("alice", "graveyard") == ("a7", "a8")
    assert len(state.zone("bob", "hand")) == 9
    assert [(e.kind, e.object) for e in out.events if e.kind == "discards"] == [
        ("discards", "a7"), ("discards", "a8")]
    made = [m for m in out.choices if m.key == "discard@alice:cleanup"]
    assert made and made[0].by_default and made[0].rule == "514.1"


def test_514_1_the_player_chooses_what_to_discard(engine: Engine) -> None:
    """514.1: the choice is the player's, listed in advance, and answered by key;
    a wrong number of cards is refused with the rule and nothing changes."""
    state = hands(engine, 8, 0)
    asked = engine.choices_for(state, "end_turn")
    assert [(c.key, c.min, c.max) for c in asked] == [("discard@alice:cleanup", 1, 1)]
    out = engine.end_turn(state, choices={"discard@alice:cleanup": ["a0"]})
    assert out.state.zone("alice", "graveyard") == ("a0",)
    with pytest.raises(IllegalActionError) as info:
        engine.end_turn(state, choices={"discard@alice:cleanup": ["a0", "a1"]})
    assert info.value.rule == "514.1"


@pytest.mark.parametrize(("cards", "most", "kept"), [(7, 7, 7), (3, 2, 2), (9, None, 9),
                                                      (5, 0, 0)])
def test_402_2_the_maximum_hand_size(engine: Engine, cards: int, most: int | None,
                                     kept: int) -> None:
    """402.2, 514.1: at or under the maximum nothing is discarded; an effect
    may change it (2, 0) or remove it (``None``: no maximum hand size)."""
    state = engine.end_turn(hands(engine, cards, 0, max_hand_size=most)).state
    assert len(state.zone("alice", "hand")) == kept
    assert len(state.zone("alice", "graveyard")) == cards - kept


def test_514_1_from_a_scenario_file() -> None:
    """514.1 through a file: ``max_hand_size`` and the discard choice."""
    text = """
active_player = "alice"
through = "cleanup"
[players.alice]
max_hand_size = 1
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "c1"
controller = "alice"
types = ["land"]
zone = "hand"
[[permanents]]
id = "c2"
controller = "alice"
types = ["land"]
zone = "hand"
[[permanents]]
id = "c3"
controller = "alice"
types = ["land"]
zone = "hand"
[choices]
"discard@alice:cleanup" = ["c1", "c3"]
[combat]
attacks = { bear = "bob" }
"""
    out = outcome_json(resolve(loads(text)))
    assert out["ok"] is True, out
    assert out["zones"]["alice"]["hand"] == ["c2"]
    assert out["zones"]["alice"]["graveyard"] == ["c1", "c3"]


def test_514_1_each_player_of_the_active_team_discards(engine: Engine) -> None:
    """514.1 with shared team turns (810.2, 805.4: each team takes turns, not
    each player): it is carol's turn as much as alice's, so both discard down
    to their maximum hand size, each choosing under their own key; the other
    team keeps its cards."""
    cards = [creature(f"{p[0]}{i}", p, 1, 1, zone="hand")
             for p in ("alice", "bob", "carol", "dave") for i in range(3)]
    state = engine.game([Player(p, max_hand_size=1) for p in ("alice", "bob", "carol", "dave")],
                        cards, teams={"red": ["alice", "carol"], "blue": ["bob", "dave"]})
    asked = engine.choices_for(state, "end_turn")
    assert [(c.key, c.min) for c in asked] == [("discard@alice:cleanup", 2),
                                               ("discard@carol:cleanup", 2)]
    out = engine.end_turn(state, choices={"discard@carol:cleanup": ["c0", "c1"]})
    hand = out.state.zone
    assert (hand("alice", "hand"), hand("carol", "hand")) == (("a0",), ("c2",))
    assert (len(hand("bob", "hand")), len(hand("dave", "hand"))) == (3, 3)
