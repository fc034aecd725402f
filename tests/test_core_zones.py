"""Zones (400.1): objects in hands, libraries, graveyards, exile and on the
stack, each with an owner; moving an object between any two zones makes a new
object (400.7) with last known information for what looks back (603.10a);
drawing (121.1) and losing after drawing from an empty library (121.4,
704.5b); tokens that left the battlefield stay put (111.8)."""

from __future__ import annotations

import json

import pytest
from redzone import (
    AddCounters,
    Cast,
    CreateToken,
    Destroy,
    Draw,
    Engine,
    GameState,
    IllegalActionError,
    IllegalAttackError,
    Move,
    Permanent,
    Play,
    Player,
    Pump,
    Tap,
    creature,
)
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.formats.serialize import state_from_dict, state_to_dict


def card(id: str, owner: str, zone: str, power: int = 1, toughness: int = 1) -> Permanent:
    return creature(id, owner, power, toughness, zone=zone)


def board(engine: Engine, *perms: Permanent) -> GameState:
    return engine.game(["alice", "bob"], perms)


# -- 400.7: a new object -----------------------------------------------------------------


def test_400_7_a_moved_permanent_is_a_new_object_and_keeps_nothing(engine: Engine) -> None:
    """400.7: a permanent returned to its owner's hand is a new object: same
    id, object number 2, under its owner's control, with none of its counters,
    damage, effects, tapped state or combat status."""
    stolen = creature("bear", "bob", 2, 2, owner="alice", damage=1)
    state = engine.game(["alice", "bob"], [stolen, creature("wall", "alice", 0, 4)],
                        active_player="bob")
    state = engine.perform(state, AddCounters("bear", {"+1/+1": 2})).state
    state = engine.perform(state, Pump("bear", 1, 1)).state
    state = engine.declare_attackers(state, {"bear": "alice"}).state
    assert state.combat is not None and state.combat.is_attacking("bear")
    state = engine.perform(state, Move("bear", "hand")).state
    bear = state.objects["bear"]
    assert (bear.zone, bear.object, bear.controller) == ("hand", 2, "alice")
    assert (bear.damage, dict(bear.counters), bear.modifications, bear.tapped) == (0, {}, (), False)
    assert bear.power == 2
    assert not state.combat.in_combat("bear")  # 506.4
    assert state.zone("alice", "hand") == ("bear",)


def test_603_10a_last_known_information_looks_back(engine: Engine) -> None:
    """603.10a: what looks back at a permanent that left sees it as it last
    existed on the battlefield: pumped, with its counters; the card itself
    has neither."""
    state = board(engine, creature("bear", "alice", 2, 2))
    state = engine.perform(state, AddCounters("bear", {"+1/+1": 1})).state
    state = engine.perform(state, Pump("bear", 2, 0)).state
    state = engine.perform(state, Move("bear", "exile")).state
    assert state.objects["bear"].power == 2
    known = state.last_known("bear")
    assert (known.power, known.zone, known.object) == (5, "battlefield", 1)


def test_400_7_back_onto_the_battlefield_summoning_sick(engine: Engine) -> None:
    """400.7, 302.6: a card put onto the battlefield from a graveyard is a new
    object under its owner's control that hasn't been controlled continuously
    since the turn began, so it can't attack; its enter event is there."""
    state = board(engine, card("bear", "alice", "graveyard", 2, 2))
    out = engine.perform(state, Move("bear", "battlefield"))
    bear = out.state.objects["bear"]
    assert (bear.zone, bear.object, bear.summoning_sick, bear.controller) == \
        ("battlefield", 2, True, "alice")
    assert [e.kind for e in out.events if e.object == "bear"] == ["enters_battlefield"]
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(out.state, {"bear": "bob"})
    assert info.value.rule == "302.6"


def test_400_7_every_change_of_zone_counts(engine: Engine) -> None:
    """400.7: each zone change is another object: battlefield -> graveyard ->
    exile -> hand is object 4; an object that dies is in its owner's
    graveyard (dies event), one moved between two other zones has a moved
    event naming both zones."""
    state = board(engine, creature("bear", "alice", 2, 2))
    out = engine.perform(state, Destroy("bear"))
    assert [e.kind for e in out.events].count("dies") == 1
    out = engine.perform(out.state, Move("bear", "exile"))
    moved = [e for e in out.events if e.kind == "moved"]
    assert [(e.get("origin"), e.get("zone")) for e in moved] == [("graveyard", "exile")]
    state = engine.perform(out.state, Move("bear", "hand")).state
    assert (state.objects["bear"].zone, state.objects["bear"].object) == ("hand", 4)


def test_111_8_a_token_that_left_doesnt_move(engine: Engine) -> None:
    """111.8: a token that has left the battlefield can't move to another
    zone; it stays and then ceases to exist (704.5d)."""
    state = board(engine)
    state = engine.perform(state, CreateToken(creature("spirit", "alice", 1, 1))).state
    out = engine.perform(state, Move("spirit", "exile"))
    assert out.state.objects["spirit"].zone == "ceased"
    with pytest.raises(IllegalActionError) as info:
        engine.perform(out.state, Move("spirit", "battlefield"))
    assert info.value.rule == "400.1"


def test_400_1_a_move_names_an_object_and_a_zone(engine: Engine) -> None:
    """400.1: a move to no zone, or of no object, is refused with its rule."""
    state = board(engine, creature("bear", "alice", 2, 2))
    for action, rule in ((Move("bear", "sideboard"), "400.1"), (Move("bea", "hand"), "400.1"),
                         (Move("bear", "library", position="middle"), "401.1")):
        with pytest.raises(IllegalActionError) as info:
            engine.perform(state, action)
        assert info.value.rule == rule


# -- ordered zones ----------------------------------------------------------------------


def test_401_1_library_top_and_bottom(engine: Engine) -> None:
    """401.1: a library is ordered, top first as given; a card put on top is
    drawn next, one put at the bottom last; 404.1: a graveyard is ordered,
    oldest first."""
    state = board(engine, card("a", "alice", "library"), card("b", "alice", "library"),
                  creature("x", "alice", 1, 1), creature("y", "alice", 1, 1))
    assert state.zone("alice", "library") == ("a", "b")
    state = engine.perform(state, Move("x", "library", position="top")).state
    state = engine.perform(state, Move("y", "library", position="bottom")).state
    assert state.zone("alice", "library") == ("x", "a", "b", "y")
    state = engine.perform(state, Move("b", "library", position="top")).state
    assert state.zone("alice", "library") == ("b", "x", "a", "y")
    assert state.objects["b"].object == 1  # reordering isn't a zone change
    for obj in ("a", "x", "y"):
        state = engine.perform(state, Move(obj, "graveyard")).state
    assert state.zone("alice", "graveyard") == ("a", "x", "y")
    assert state.zone("bob", "graveyard") == ()


def test_404_1_creatures_dying_together_keep_an_order(engine: Engine) -> None:
    """404.1, 704.3: creatures that die in one check of state-based actions
    are put into their owners' graveyards, after the cards already there."""
    state = board(engine, card("old", "bob", "graveyard"), creature("bear", "alice", 2, 2),
                  creature("wall", "bob", 0, 2), creature("elf", "bob", 1, 1))
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "bear"}).state
    state = engine.combat_damage(state).state
    assert state.zone("bob", "graveyard") == ("old", "wall")


# -- drawing -----------------------------------------------------------------------------


def test_121_1_drawing_takes_the_top_card(engine: Engine) -> None:
    """121.1: a player draws by putting the top card of their library into
    their hand; 121.2: several cards are drawn one at a time."""
    state = board(engine, card("a", "alice", "library"), card("b", "alice", "library"),
                  card("c", "alice", "library"), card("z", "bob", "library"))
    out = engine.perform(state, Draw("alice", 2))
    assert out.state.zone("alice", "hand") == ("a", "b")
    assert out.state.zone("alice", "library") == ("c",)
    assert out.state.zone("bob", "library") == ("z",)
    assert [(e.kind, e.object) for e in out.events if e.kind == "draws"] == \
        [("draws", "a"), ("draws", "b")]
    assert not out.state.players["alice"].lost


def test_704_5b_drawing_from_an_empty_library_loses_at_the_check(engine: Engine) -> None:
    """121.4, 704.5b: drawing more cards than the library holds draws those
    there, and the player loses at the next check of state-based actions."""
    state = board(engine, card("a", "alice", "library"))
    out = engine.perform(state, Draw("alice", 2))
    alice = out.state.players["alice"]
    assert (alice.lost, alice.loss_rule) == (True, "704.5b")
    assert out.state.zone("alice", "hand") == ("a",)
    kinds = [e.kind for e in out.events]
    assert kinds.index("draw_from_empty") < kinds.index("lost")
    assert out.state.game_over is not None


def test_704_5b_looks_only_since_the_last_check(engine: Engine) -> None:
    """704.5b: the attempt counts once: the check that makes the player lose
    clears it; a player who hasn't attempted to draw from an empty library
    doesn't lose for having an empty one."""
    state = engine.game([Player("alice"), Player("bob"), Player("carol")],
                        [creature("bear", "alice", 2, 2)])
    out = engine.perform(state, Tap("bear"))  # empty libraries, no draw
    assert not any(p.lost for p in out.state.players.values())
    out = engine.perform(out.state, Draw("carol"))
    assert out.state.players["carol"].loss_rule == "704.5b"
    assert not any(p.drew_from_empty for p in out.state.players.values())
    assert not out.state.players["alice"].lost and out.state.game_over is None


# -- casting and playing (608.3, 305.1, 302.6) ------------------------------------------------


def test_608_3a_a_cast_creature_enters_summoning_sick(engine: Engine) -> None:
    """601.2a, 608.3a, 302.6: a creature card cast from its owner's hand goes
    to the stack, then enters the battlefield under its caster's control as a
    new object (two zone changes: object 3), summoning sick: it can't attack."""
    state = board(engine, card("bear", "alice", "hand", 2, 2))
    out = engine.perform(state, Cast("bear"))
    bear = out.state.objects["bear"]
    assert (bear.zone, bear.object, bear.controller, bear.summoning_sick) == \
        ("battlefield", 3, "alice", True)
    assert [e.kind for e in out.events if e.object == "bear"] == ["cast", "enters_battlefield"]
    assert [e.rule for e in out.events if e.kind == "enters_battlefield"] == ["608.3a"]
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(out.state, {"bear": "bob"})
    assert info.value.rule == "302.6"


def test_302_1_creature_spells_at_sorcery_speed(engine: Engine) -> None:
    """302.1: a creature spell is cast in a main phase of its owner's turn
    with an empty stack; not in combat, not on another player's turn; 702.8a:
    one with flash may be; 305.1: a land isn't cast; 608.3: nor is a card of
    no permanent type."""
    state = board(engine, creature("wolf", "alice", 2, 2), card("bear", "bob", "hand"),
                  card("ambush", "alice", "hand"), Permanent("forest", "alice", types={"land"},
                                                             zone="hand"),
                  Permanent("shock", "alice", types=(), zone="hand"))
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Cast("bear"))  # alice's turn
    assert info.value.rule == "302.1"
    for obj, rule in (("forest", "305.1"), ("shock", "608.3"), ("wolf", "601.2a")):
        with pytest.raises(IllegalActionError) as info:
            engine.perform(state, Cast(obj))
        assert info.value.rule == rule, obj
    in_combat = engine.declare_attackers(state, {"wolf": "bob"}).state
    with pytest.raises(IllegalActionError) as info:
        engine.perform(in_combat, Cast("ambush"))
    assert info.value.rule == "302.1"
    flash = in_combat.with_permanents({"ambush": in_combat.objects["ambush"].evolve(
        printed_keywords=(engine.keyword("flash"),))})
    assert engine.perform(flash, Cast("ambush")).state.objects["ambush"].zone == "battlefield"


def test_305_2_one_land_a_turn(engine: Engine) -> None:
    """305.1: a land is played from its owner's hand in their main phase; it
    enters the battlefield; 305.2: one land a turn, again the next turn."""
    land = {"types": {"land"}, "zone": "hand"}
    state = board(engine, Permanent("forest", "alice", **land),
                  Permanent("island", "alice", **land), creature("bear", "alice", 2, 2))
    out = engine.perform(state, Play("forest"))
    assert out.state.objects["forest"].zone == "battlefield"
    assert [e.kind for e in out.events][:2] == ["play_land", "enters_battlefield"]
    with pytest.raises(IllegalActionError) as info:
        engine.perform(out.state, Play("island"))
    assert info.value.rule == "305.2"
    with pytest.raises(IllegalActionError) as info:
        engine.perform(out.state, Play("bear"))
    assert info.value.rule == "305.1"
    later = out.state
    for _ in range(2):  # bob's turn, then alice's again
        later = engine.begin_turn(engine.end_turn(later).state, draw=False).state
    assert later.active_player == "alice"
    assert engine.perform(later, Play("island")).state.objects["island"].zone == "battlefield"


# -- scenario files and the outcome --------------------------------------------------------


SCENARIO = """
active_player = "alice"
[players]
alice = {}
bob = {}

[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2

[[permanents]]
id = "top"
controller = "alice"
power = 1
toughness = 1
zone = "library"

[[permanents]]
id = "next"
controller = "alice"
power = 1
toughness = 1
zone = "library"

[[permanents]]
id = "ninja"
controller = "alice"
power = 2
toughness = 2
zone = "hand"

[[permanents]]
id = "old"
controller = "bob"
power = 1
toughness = 1
zone = "graveyard"

[combat]
attacks = { bear = "bob" }

[[combat.actions]]
after = "declare_attackers"
do = "move"
target = "bear"
to = "library"
position = "bottom"

[[combat.actions]]
after = "end_of_combat"
do = "draw"
player = "alice"
"""


def test_scenario_zones_and_outcome(engine: Engine) -> None:
    """The contract's "Cards in other zones": [[permanents]] take `zone`, a
    library is listed top first; `move` and `draw` actions; the outcome
    keeps every object in `permanents` with its `zone` and `object` (400.7),
    and `zones` lists each player's hand, library, graveyard and exile in
    order."""
    out = outcome_json(resolve(loads(SCENARIO)))
    assert out["ok"], out
    assert out["zones"] == {
        "alice": {"hand": ["ninja", "top"], "library": ["next", "bear"], "graveyard": [],
                  "exile": []},
        "bob": {"hand": [], "library": [], "graveyard": ["old"], "exile": []}}
    objects = {k: (v["zone"], v["object"]) for k, v in out["permanents"].items()}
    assert objects == {"bear": ("library", 2), "top": ("hand", 2), "next": ("library", 1),
                       "ninja": ("hand", 1), "old": ("graveyard", 1)}
    before = out["after_steps"] or {}
    assert all("zones" in b for b in before.values())
    json.dumps(out)


def test_scenario_card_in_hand_cant_attack(engine: Engine) -> None:
    """508.1a: a card in a hand isn't a creature on the battlefield: it can't
    be declared as an attacker."""
    text = SCENARIO.replace('attacks = { bear = "bob" }', 'attacks = { ninja = "bob" }')
    res = resolve(loads(text))
    assert res.error is not None and getattr(res.error, "rule", None) is not None
    assert "ninja" in str(res.error)


def test_scenario_off_battlefield_owner_is_controller(engine: Engine) -> None:
    """400.3: a card off the battlefield is its owner's: a file that gives it
    another owner than its controller is refused, naming the key."""
    text = SCENARIO.replace('id = "ninja"\ncontroller = "alice"',
                            'id = "ninja"\ncontroller = "alice"\nowner = "bob"')
    with pytest.raises(ScenarioProblems) as info:
        loads(text)
    assert "permanents[3].owner" in str(info.value)


def test_saved_state_round_trips_with_zones(engine: Engine) -> None:
    """A saved state keeps every zone's order and each object's number."""
    state = board(engine, card("a", "alice", "library"), card("b", "alice", "library"),
                  creature("bear", "alice", 2, 2))
    state = engine.perform(state, Move("bear", "library", position="top")).state
    state = engine.perform(state, Move("b", "graveyard")).state
    back = state_from_dict(json.loads(json.dumps(state_to_dict(state))))
    assert back == state
    assert back.zone("alice", "library") == ("bear", "a")
    assert back.zone("alice", "graveyard") == ("b",)
    assert back.objects["bear"].object == 2


# -- more of 400-406: where a card goes, and what comes back -------------------------


def test_400_3_a_card_goes_to_its_owners_zone(engine: Engine) -> None:
    """400.3, 404.1: bob controls alice's creature when it dies: it goes to
    alice's graveyard (its owner's), not bob's; moved to a hand, alice's."""
    from redzone import GainControl

    state = board(engine, creature("bear", "alice", 2, 2), creature("wolf", "alice", 2, 2))
    state = engine.perform(state, GainControl("bear", "bob")).state
    state = engine.perform(state, GainControl("wolf", "bob")).state
    state = engine.perform(state, Destroy("bear")).state
    assert state.zone("alice", "graveyard") == ("bear",) and state.zone("bob", "graveyard") == ()
    state = engine.perform(state, Move("wolf", "hand")).state
    assert state.zone("alice", "hand") == ("wolf",)
    assert state.objects["wolf"].controller == "alice"  # 400.7: no effect comes along


def test_704_5d_a_token_put_into_a_graveyard_ceases_to_exist(engine: Engine) -> None:
    """111.7, 704.5d: a destroyed token goes to the graveyard (its "dies"
    triggers see it, 700.4) and then ceases to exist: it is in no zone a player
    can see, and a move can't bring it back (111.8, 400.1)."""
    token = creature("soldier", "alice", 1, 1).evolve(token=True)
    out = engine.perform(board(engine, token), Destroy("soldier"))
    kinds = [e.kind for e in out.events if e.object == "soldier"]
    assert "dies" in kinds
    assert out.state.objects["soldier"].zone not in ("battlefield", "graveyard")
    assert "soldier" not in out.state.zone("alice", "graveyard")
    with pytest.raises(IllegalActionError, match="no longer in the game"):
        engine.perform(out.state, Move("soldier", "battlefield"))


def test_302_6_a_creature_whose_control_changed_this_turn_cant_attack(engine: Engine) -> None:
    """302.6, 508.1a: bob gains control of alice's bear during his turn: he
    hasn't controlled it continuously since his turn began, so it can't
    attack (no haste)."""
    from redzone import GainControl

    state = engine.game(["bob", "alice"], [creature("bear", "alice", 2, 2)])
    state = engine.perform(state, GainControl("bear", "bob")).state
    state = engine.begin_combat(state).state
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"bear": "alice"})
    assert "302.6" in {v.rule for v in info.value.violations}


def test_400_7_exiled_and_returned_it_is_a_third_object(engine: Engine) -> None:
    """400.7, 406.3: exiled, then returned, it is object 3: untapped, no
    counters, no damage, no effects, summoning sick (302.6); last known
    information (603.10a) is the permanent as it last was on the battlefield."""
    state = board(engine, creature("bear", "alice", 2, 2))
    state = engine.perform(state, [AddCounters("bear", {"+1/+1": 2}), Pump("bear", 1, 1),
                                   Tap("bear")]).state
    state = engine.perform(state, Move("bear", "exile")).state
    assert state.zone("alice", "exile") == ("bear",)
    assert state.last_known("bear").power == 5  # as it last was: 2 + 2 + 1
    state = engine.perform(state, Move("bear", "battlefield")).state
    bear = state.objects["bear"]
    assert bear.object == 3 and not bear.tapped and bear.summoning_sick
    assert not bear.counters and not bear.modifications and (bear.power, bear.toughness) == (2, 2)


def test_401_2_a_library_keeps_its_order_when_a_card_moves_out_of_it(engine: Engine) -> None:
    """401.1, 401.2: a card taken from the middle of a library leaves the
    others in their order; put on the bottom, it is drawn last."""
    state = board(engine, card("a", "alice", "library"), card("b", "alice", "library"),
                  card("c", "alice", "library"))
    state = engine.perform(state, Move("b", "exile")).state
    assert state.zone("alice", "library") == ("a", "c")
    state = engine.perform(state, Move("b", "library", position="bottom")).state
    assert state.zone("alice", "library") == ("a", "c", "b")
    state = engine.perform(state, Draw("alice", 3)).state
    assert state.zone("alice", "hand") == ("a", "c", "b")
