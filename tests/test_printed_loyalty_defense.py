"""A planeswalker's printed loyalty and a battle's printed defense, and the
counters they enter the battlefield with.

306.5b: "A planeswalker has the intrinsic ability 'This permanent enters with
a number of loyalty counters on it equal to its printed loyalty number.' This
ability creates a replacement effect (see rule 614.1c)." 310.4b says the same
of a battle and its printed defense number. A card that changes zones is a
new object with none of its counters (400.7), so one put onto the
battlefield from any other zone (cast, moved) gets them from its printed
number, not from the counters it had before; and a battle that comes back
is a new object with no protector, which its controller chooses (704.5x)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from redzone import Cast, CreateToken, Engine, GameState, Move, Permanent, Player
from redzone.formats import cards
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.formats.serialize import state_from_dict, state_to_dict


def jace(engine: Engine, zone: str = "hand", **kwargs: Any) -> Permanent:
    return engine.permanent("jace", "alice", types=["planeswalker"], subtypes=["Jace"],
                            zone=zone, **kwargs)


def siege(engine: Engine, zone: str = "hand", **kwargs: Any) -> Permanent:
    return engine.permanent("siege", "alice", types=["battle"], subtypes=["Siege"],
                            zone=zone, **kwargs)


def main_phase(engine: Engine, *permanents: Permanent, players: int = 2) -> GameState:
    names = ["alice", "bob", "carol"][:players]
    return engine.game([Player(p) for p in names], permanents,
                       active_player="alice").evolve(step="main")


def counter_events(events: Any) -> list[tuple[str, str, Any, Any]]:
    return [(e.rule, e.target, e.counter, e.amount) for e in events if e.kind == "counters"]


def test_306_5b_a_cast_planeswalker_enters_with_its_printed_loyalty(engine: Engine) -> None:
    """306.5b, 614.1c: a planeswalker card with printed loyalty 3, cast from
    the hand, enters the battlefield with 3 loyalty counters (a ``counters``
    event citing 306.5b) and stays there: no 704.5i."""
    out = engine.perform(main_phase(engine, jace(engine, printed_loyalty=3)), Cast("jace"))
    perm = out.state.objects["jace"]
    assert (perm.zone, perm.loyalty, perm.printed_loyalty) == ("battlefield", 3, 3)
    assert counter_events(out.events) == [("306.5b", "jace", "loyalty", 3)]
    assert not [e for e in out.events if e.kind == "dies"]


def test_310_4b_a_cast_battle_enters_with_its_printed_defense(engine: Engine) -> None:
    """310.4b, 614.1c: a Siege with printed defense 4, cast, enters with 4
    defense counters (a ``counters`` event citing 310.4b), not 0 (704.5v);
    its controller then chooses its protector (704.5x)."""
    out = engine.perform(main_phase(engine, siege(engine, printed_defense=4)), Cast("siege"))
    perm = out.state.objects["siege"]
    assert (perm.zone, perm.defense, perm.protector) == ("battlefield", 4, "bob")
    assert counter_events(out.events) == [("310.4b", "siege", "defense", 4)]


def test_400_7_a_planeswalker_back_from_exile_has_its_printed_loyalty_again(
        engine: Engine) -> None:
    """400.7, 306.5b: a planeswalker with printed loyalty 3 and 5 loyalty
    counters is exiled and returned: a new object, with 3 loyalty counters
    (not 5, not 0)."""
    state = main_phase(engine, jace(engine, "battlefield", printed_loyalty=3,
                                    counters={"loyalty": 5}))
    out = engine.perform(state, Move("jace", "exile"))
    assert out.state.objects["jace"].printed_loyalty == 3
    out = engine.perform(out.state, Move("jace", "battlefield"))
    perm = out.state.objects["jace"]
    assert (perm.zone, perm.loyalty, perm.object) == ("battlefield", 3, 3)


def test_614_1c_counters_a_move_gives_add_to_the_printed_ones(engine: Engine) -> None:
    """614.1c, 306.5b: "return it with two additional loyalty counters": a
    planeswalker with printed loyalty 3 moved onto the battlefield with 2
    loyalty counters has 5."""
    out = engine.perform(main_phase(engine, jace(engine, "graveyard", printed_loyalty=3)),
                         Move("jace", "battlefield", counters={"loyalty": 2}))
    assert out.state.objects["jace"].loyalty == 5
    assert counter_events(out.events) == [("306.5b", "jace", "loyalty", 3),
                                          ("614.1c", "jace", "loyalty", 2)]


def test_306_5b_only_a_planeswalker_gets_loyalty_counters(engine: Engine) -> None:
    """306.5b: the intrinsic ability is a planeswalker's: a creature card
    that has a printed loyalty (it is no planeswalker) enters with no
    loyalty counters."""
    bear = engine.permanent("bear", "alice", base_power=2, base_toughness=2, zone="hand",
                            printed_loyalty=3)
    out = engine.perform(main_phase(engine, bear), Cast("bear"))
    assert out.state.objects["bear"].counters.get("loyalty", 0) == 0
    assert counter_events(out.events) == []


def test_400_7_a_battle_back_on_the_battlefield_has_no_old_protector(engine: Engine) -> None:
    """400.7, 704.5x: alice's Siege protected by carol is exiled and
    returned: the new object has no protector, so alice chooses one among
    her opponents (the default: bob, the first), and it has its printed
    defense 4 again (310.4b)."""
    state = main_phase(engine, siege(engine, "battlefield", printed_defense=4,
                                     counters={"defense": 2}, protector="carol"), players=3)
    out = engine.perform(state, Move("siege", "exile"))
    assert out.state.objects["siege"].protector is None
    out = engine.perform(out.state, Move("siege", "battlefield"))
    perm = out.state.objects["siege"]
    assert (perm.zone, perm.defense, perm.protector) == ("battlefield", 4, "bob")
    assert [(e.rule, e.player) for e in out.events if e.kind == "protector"] == [
        ("704.5x", "bob")]


def test_the_printed_numbers_round_trip_through_the_saved_form(engine: Engine) -> None:
    """The saved form keeps the printed loyalty and defense (and the state
    it gives back is the same)."""
    state = main_phase(engine, jace(engine, printed_loyalty=3),
                       siege(engine, "battlefield", printed_defense=5,
                             counters={"defense": 5}, protector="bob"))
    saved = json.loads(json.dumps(state_to_dict(state)))
    assert saved["objects"]["jace"]["printed_loyalty"] == 3
    assert saved["objects"]["siege"]["printed_defense"] == 5
    assert state_from_dict(saved) == state


SCENARIO = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "jace"
controller = "{jace_controller}"
types = ["planeswalker"]
subtypes = ["Jace"]
{jace}
[[permanents]]
id = "siege"
controller = "alice"
types = ["battle"]
subtypes = ["Siege"]
{siege}
{actions}
"""


def scenario(jace: str, siege: str, actions: str, jace_controller: str = "alice") -> str:
    return SCENARIO.format(jace=jace, siege=siege, actions=actions,
                           jace_controller=jace_controller)


def action(do: str, target: str, **keys: str) -> str:
    extra = "".join(f'{k} = "{v}"\n' for k, v in keys.items())
    key = "card" if do == "cast" else "target"
    after = "precombat_main" if do == "cast" else "beginning_of_combat"
    return f'[[combat.actions]]\nafter = "{after}"\ndo = "{do}"\n{key} = "{target}"\n{extra}'


def test_scenario_loyalty_and_defense_of_a_card_in_hand_are_printed() -> None:
    """306.5b, 310.4b: in a file, ``loyalty`` and ``defense`` of a card in a
    hand are its printed numbers (it has no counters, 122.2): cast, each
    enters with that many counters and stays on the battlefield."""
    text = scenario('loyalty = 3\nzone = "hand"', 'defense = 4\nzone = "hand"',
                    action("cast", "jace") + action("cast", "siege"))
    s = loads(text)
    assert s.state.objects["jace"].printed_loyalty == 3
    assert s.state.objects["jace"].counters.get("loyalty", 0) == 0
    assert s.state.objects["siege"].printed_defense == 4
    out = outcome_json(resolve(s))
    assert out["permanents"]["jace"]["zone"] == "battlefield"
    assert out["permanents"]["jace"]["loyalty"] == 3
    assert out["permanents"]["siege"]["zone"] == "battlefield"
    assert out["permanents"]["siege"]["defense"] == 4


def test_scenario_a_permanent_s_printed_number_defaults_to_its_counters() -> None:
    """400.7, 306.5b, 310.4b: a planeswalker on the battlefield with
    ``loyalty = 3`` (its loyalty counters) has printed loyalty 3 unless the
    file says otherwise: bounced to the hand and put back, it has 3 loyalty
    counters, not 0 (704.5i); a battle exiled and returned likewise has
    its 4 defense counters again."""
    text = scenario("loyalty = 3", 'defense = 4\nprotector = "bob"',
                    action("move", "jace", to="hand") + action("move", "jace", to="battlefield")
                    + action("move", "siege", to="exile")
                    + action("move", "siege", to="battlefield"), jace_controller="bob")
    out = outcome_json(resolve(loads(text)))
    assert out["permanents"]["jace"]["zone"] == "battlefield"
    assert out["permanents"]["jace"]["loyalty"] == 3
    assert out["permanents"]["siege"]["zone"] == "battlefield"
    assert out["permanents"]["siege"]["defense"] == 4


def test_scenario_printed_loyalty_key_differs_from_the_counters() -> None:
    """306.5b, 400.7: ``printed_loyalty = 3`` with ``loyalty = 5`` (it was
    activated twice for +1): back from exile it has 3 loyalty counters;
    ``printed_defense`` alike for a battle."""
    text = scenario("loyalty = 5\nprinted_loyalty = 3",
                    'defense = 1\nprinted_defense = 4\nprotector = "bob"',
                    action("move", "jace", to="exile") + action("move", "jace", to="battlefield")
                    + action("move", "siege", to="exile")
                    + action("move", "siege", to="battlefield"))
    s = loads(text)
    assert (s.state.objects["jace"].loyalty, s.state.objects["jace"].printed_loyalty) == (5, 3)
    out = outcome_json(resolve(s))
    assert out["permanents"]["jace"]["loyalty"] == 3
    assert out["permanents"]["siege"]["defense"] == 4


def test_scenario_printed_loyalty_of_a_card_in_hand_disagreeing_is_refused() -> None:
    """A card in a hand whose ``loyalty`` (its printed number there) and
    ``printed_loyalty`` disagree is a problem naming the key."""
    text = scenario('loyalty = 3\nprinted_loyalty = 4\nzone = "hand"', "defense = 4", "")
    with pytest.raises(ScenarioProblems, match="printed_loyalty"):
        loads(text)


MTGJSON: dict[str, Any] = {
    "meta": {"date": "2026-11-30", "version": "5.2.2+20261130"},
    "data": {
        "Jace Beleren": [{"name": "Jace Beleren", "loyalty": "3", "colors": ["U"],
                          "types": ["Planeswalker"], "subtypes": ["Jace"],
                          "supertypes": ["Legendary"], "text": "+2: Each player draws a card."}],
        "Invasion of Tarkir": [{"name": "Invasion of Tarkir", "defense": "5", "colors": ["R"],
                                "types": ["Battle"], "subtypes": ["Siege"],
                                "text": "When Invasion of Tarkir enters..."}],
    },
}


def test_cards_give_the_printed_loyalty_and_defense(tmp_path: Path) -> None:
    """306.5b, 310.4b: ``cards.permanent`` reads the card's printed loyalty
    and defense into the printed characteristic (and, on the battlefield,
    that many counters); a card in hand has only the printed number and,
    cast, enters with that many counters."""
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(MTGJSON), encoding="utf-8")
    engine = Engine()
    pw, _ = cards.permanent(engine, path, "Jace Beleren", "jace", "alice")
    assert (pw.printed_loyalty, pw.loyalty) == (3, 3)
    battle, _ = cards.permanent(engine, path, "Invasion of Tarkir", "siege", "alice",
                               zone="hand")
    assert (battle.printed_defense, battle.counters.get("defense", 0)) == (5, 0)
    out = engine.perform(main_phase(engine, pw.evolve(zone="hand", counters={}), battle),
                         Cast("siege"))
    assert out.state.objects["siege"].defense == 5


def test_a_scenario_card_gives_the_printed_loyalty(tmp_path: Path) -> None:
    """306.5b, 400.7: ``card = "Jace Beleren"`` (printed loyalty 3) on the
    battlefield with ``loyalty = 5`` has 5 loyalty counters and printed
    loyalty 3: exiled and returned, it has 3; the same card in a hand has
    printed loyalty 3 and no counters (122.2)."""
    (tmp_path / "AtomicCards.json").write_text(json.dumps(MTGJSON), encoding="utf-8")
    text = ('cards = "AtomicCards.json"\nactive_player = "alice"\n[players.alice]\n'
            '[players.bob]\n[[permanents]]\nid = "jace"\ncontroller = "alice"\n'
            'card = "Jace Beleren"\nloyalty = 5\n[[permanents]]\nid = "jace2"\n'
            'controller = "alice"\ncard = "Jace Beleren"\nzone = "hand"\n'
            + action("move", "jace", to="exile") + action("move", "jace", to="battlefield"))
    s = loads(text, file=str(tmp_path / "combat.toml"))
    assert (s.state.objects["jace"].loyalty, s.state.objects["jace"].printed_loyalty) == (5, 3)
    hand = s.state.objects["jace2"]
    assert (hand.printed_loyalty, hand.counters.get("loyalty", 0)) == (3, 0)
    assert outcome_json(resolve(s))["permanents"]["jace"]["loyalty"] == 3


def test_306_5b_310_4b_a_created_planeswalker_or_battle_token_enters_with_its_counters(
        engine: Engine) -> None:
    """306.5b, 310.4b: the "enters with" counters apply to a token put onto
    the battlefield too (a token copy of a planeswalker, a battle token):
    created with a printed loyalty or defense, it has that many counters."""
    state = engine.game(["alice", "bob"], [])
    walker = Permanent("jace", "alice", types=("planeswalker",), printed_loyalty=3)
    siege = Permanent("siege", "alice", types=("battle",), subtypes=("Siege",),
                      printed_defense=5, protector="bob")
    out = engine.perform(state, [CreateToken(walker), CreateToken(siege)])
    assert out.state.objects["jace"].loyalty == 3
    assert out.state.objects["siege"].defense == 5
    assert [(e.kind, e.rule, e.amount) for e in out.events if e.kind == "counters"] == [
        ("counters", "306.5b", 3), ("counters", "310.4b", 5)]
