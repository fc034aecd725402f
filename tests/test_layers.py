"""The layer system (613): layers 1-7 in order, timestamps within a layer
(613.7), dependencies (613.8), and what combat reads from it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, GainControl, Pump, new_game
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.actions import AddContinuous, DealDamage
from redzone.kernel.layers import ContinuousEffect, baked
from redzone.kernel.model import GameState

engine = Engine()


def _do(state: GameState, *actions: object) -> GameState:
    for action in actions:
        state = engine.perform(state, action).state  # type: ignore[arg-type]
    return state


def _board(*perms: object) -> GameState:
    return new_game(["alice", "bob"], perms)  # type: ignore[arg-type]


def test_613_4_example_set_base_after_pump_and_counter_keeps_both() -> None:
    """613.4c example: a 1/1 with a +1/+1 counter and +3/+3 until end of
    turn that then "becomes 0/1" (7b, later timestamp) is 4/5: 7b applies
    before 7c whatever the timestamps, counters in 7c."""
    state = _board(engine.creature("bear", "alice", 1, 1, counters={"+1/+1": 1}))
    state = _do(state, Pump("bear", 3, 3), AddContinuous(affects=("bear",), set_power=0,
                                                         set_toughness=1))
    bear = state.objects["bear"]
    assert (bear.power, bear.toughness) == (4, 5)


def test_613_4d_switch_applies_after_every_modification() -> None:
    """613.4d: switching (7d) comes after 7c even when the +N/+N is later:
    a 1/3 switched, then given +0/+2, is 5/1 (1/5 switched), not 3/3."""
    state = _board(engine.creature("bear", "alice", 1, 3))
    state = _do(state, AddContinuous(affects=("bear",), switch=True), Pump("bear", 0, 2))
    bear = state.objects["bear"]
    assert (bear.power, bear.toughness) == (5, 1)


def test_613_4a_cda_applies_before_set_base() -> None:
    """613.4a-b: a characteristic-defining P/T (7a) is overridden by a later
    layer 7b effect even with a later timestamp of its own."""
    state = _board(engine.creature("goyf", "alice", 0, 1))
    state = _do(state, AddContinuous(affects=("goyf",), set_power=1, set_toughness=1),
                AddContinuous(affects=("goyf",), set_power=4, set_toughness=5, cda=True))
    goyf = state.objects["goyf"]
    assert (goyf.power, goyf.toughness) == (1, 1)


def test_613_7_timestamp_order_within_layer_6() -> None:
    """613.7: within layer 6 the later effect wins: "all creatures lose
    flying" then "the bird gains flying" leaves it flying; the other way
    round it doesn't fly."""
    bird = engine.creature("bird", "alice", 1, 1, "flying")
    lose = AddContinuous(affects_types=("creature",), remove_keywords=("flying",))
    gain = AddContinuous(affects=("bird",), add_keywords=("flying",))
    assert _do(_board(bird), lose, gain).objects["bird"].has("flying")
    assert not _do(_board(bird), gain, lose).objects["bird"].has("flying")


def test_613_7_loses_all_abilities_then_grant_by_timestamp() -> None:
    """613.1f, 613.7: "loses all abilities" removes abilities granted
    earlier, not ones granted later."""
    bear = engine.creature("bear", "alice", 2, 2, "trample")
    state = _do(_board(bear), AddContinuous(affects=("bear",), add_keywords=("flying",)),
                AddContinuous(affects_types=("creature",), lose_all_abilities=True),
                AddContinuous(affects=("bear",), add_keywords=("vigilance",)))
    assert state.objects["bear"].keyword_names == frozenset({"vigilance"})


def test_613_8a_forests_are_creatures_depends_on_all_lands_are_forests() -> None:
    """613.8a example: "each Forest is a 1/1 creature" (layer 4 part)
    depends on "all lands are Forests" (applying it changes what the first
    applies to), so it applies after it whatever the timestamps: a Plains
    becomes a creature."""
    plains = engine.permanent("plains", "alice", types=("land",), subtypes=("Plains",))
    creatures = AddContinuous(affects_subtypes=("Forest",), add_types=("creature",),
                              set_power=1, set_toughness=1, duration="game")
    forests = AddContinuous(affects_types=("land",), set_subtypes=("Forest",),
                            duration="game")
    for order in ((creatures, forests), (forests, creatures)):
        land = _do(_board(plains), *order).objects["plains"]
        assert land.is_creature and land.subtypes == ("Forest",)
        assert (land.power, land.toughness) == (1, 1)


def test_613_8a_one_way_dependency_overrides_timestamp() -> None:
    """613.8a: "each Island is a Forest" depends on "each Forest is an
    Island" (applying that changes what it applies to) and not the other
    way round on a lone Forest: it applies last whatever the timestamps."""
    land = engine.permanent("land", "alice", types=("land",), subtypes=("Forest",))
    to_island = AddContinuous(affects_subtypes=("Forest",), set_subtypes=("Island",))
    to_forest = AddContinuous(affects_subtypes=("Island",), set_subtypes=("Forest",))
    assert _do(_board(land), to_island, to_forest).objects["land"].subtypes == ("Forest",)
    assert _do(_board(land), to_forest, to_island).objects["land"].subtypes == ("Forest",)


def test_613_8b_dependency_loop_goes_by_timestamp() -> None:
    """613.8b: with a Forest and an Island, "each Forest is an Island" and
    "each Island is a Forest" each change what the other applies to: a
    loop, so they apply in timestamp order (the later one decides)."""
    forest = engine.permanent("x", "alice", types=("land",), subtypes=("Forest",))
    island = engine.permanent("y", "alice", types=("land",), subtypes=("Island",))
    to_island = AddContinuous(affects_subtypes=("Forest",), set_subtypes=("Island",))
    to_forest = AddContinuous(affects_subtypes=("Island",), set_subtypes=("Forest",))
    state = _do(_board(forest, island), to_island, to_forest)
    assert [state.objects[i].subtypes for i in "xy"] == [("Forest",), ("Forest",)]
    state = _do(_board(forest, island), to_forest, to_island)
    assert [state.objects[i].subtypes for i in "xy"] == [("Island",), ("Island",)]


def test_613_1a_copy_then_later_layers() -> None:
    """613.1a, 707.2: a copy takes the copiable values (name, P/T,
    keywords), not the pump on the original; later layers still apply."""
    angel = engine.creature("angel", "bob", 4, 4, "flying")
    bear = engine.creature("bear", "alice", 2, 2)
    state = _do(_board(angel, bear), Pump("angel", 2, 2),
                AddContinuous(affects=("bear",), copy_of="angel"),
                AddContinuous(affects=("bear",), power=1, toughness=1))
    copy = state.objects["bear"]
    assert (copy.name, copy.power, copy.toughness) == ("angel", 5, 5)
    assert copy.has("flying") and copy.controller == "alice"


def test_613_1c_text_change_turns_protection_color_in_a_block() -> None:
    """612.2, 613.1c, 702.16b: changing "red" to "blue" in a knight's text
    makes its protection from red protection from blue: a red creature can
    then block it, a blue one can't."""
    knight = engine.creature("knight", "alice", 2, 2, "protection from red")
    red = engine.creature("red", "bob", 1, 1, colors=("red",))
    blue = engine.creature("blue", "bob", 1, 1, colors=("blue",))
    state = _board(knight, red, blue)
    state = _do(state, AddContinuous(affects=("knight",), text_from="red", text_to="blue"))
    state = engine.begin_combat(state).state
    state = engine.declare_attackers(state, {"knight": "bob"}).state
    assert not engine.block_violations(state, {"red": "knight"})
    assert engine.block_violations(state, {"blue": "knight"})


def test_613_1e_color_change_matters_for_protection() -> None:
    """613.1e, 702.16b: a blocker made red (layer 5) can't block a creature
    with protection from red."""
    knight = engine.creature("knight", "alice", 2, 2, "protection from red")
    wall = engine.creature("wall", "bob", 0, 4, colors=("green",))
    state = engine.begin_combat(_board(knight, wall)).state
    state = engine.declare_attackers(state, {"knight": "bob"}).state
    assert not engine.block_violations(state, {"wall": "knight"})
    state = _do(state, AddContinuous(affects=("wall",), set_colors=("red",)))
    assert state.objects["wall"].colors == frozenset({"red"})
    assert engine.block_violations(state, {"wall": "knight"})


def test_506_4_creature_that_stops_being_a_creature_leaves_combat() -> None:
    """613.1d, 506.4: an attacking creature that stops being a creature
    (layer 4) is removed from combat."""
    bear = engine.creature("bear", "alice", 2, 2)
    state = engine.begin_combat(_board(bear)).state
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = _do(state, AddContinuous(affects=("bear",), set_types=("artifact",)))
    assert not state.objects["bear"].is_creature
    assert state.combat is not None and not state.combat.in_combat("bear")


@pytest.mark.parametrize("kind", ["planeswalker", "battle"])
def test_506_4_an_attacked_planeswalker_or_battle_that_stops_being_one_leaves_combat(
        kind: str) -> None:
    """506.4, 506.4c: a planeswalker or battle being attacked that stops being
    one is removed from combat, and the creature attacking it attacks nothing;
    one that stays what it was (here it also becomes an artifact) stays."""
    target = engine.permanent("it", "bob", types=(kind,),
                              counters={"loyalty" if kind == "planeswalker" else "defense": 3},
                              protector="bob" if kind == "battle" else None)
    bear = engine.creature("bear", "alice", 2, 2)
    state = engine.begin_combat(_board(bear, target)).state
    state = engine.declare_attackers(state, {"bear": "it"}).state
    kept = _do(state, AddContinuous(affects=("it",), set_types=(kind, "artifact")))
    assert kept.combat is not None and kept.combat.attacks["bear"] == "it"
    gone = engine.perform(state, AddContinuous(affects=("it",), set_types=("artifact",)))
    assert gone.state.combat is not None and gone.state.combat.attacks["bear"] is None
    assert [(e.kind, e.object, e.rule) for e in gone.events
            if e.kind == "removed_from_combat"] == [("removed_from_combat", "it", "506.4")]


def test_506_4_an_attacking_creature_that_becomes_a_battle_leaves_combat() -> None:
    """506.4: an attacking creature that becomes a battle is removed from
    combat, though it is still a creature (with defense counters, so that
    704.5v doesn't put it into the graveyard)."""
    bear = engine.creature("bear", "alice", 2, 2, counters={"defense": 2})
    state = engine.begin_combat(_board(bear)).state
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = _do(state, AddContinuous(affects=("bear",), add_types=("battle",)))
    assert state.objects["bear"].is_creature and "battle" in state.objects["bear"].types
    assert state.combat is not None and not state.combat.in_combat("bear")


def test_506_4_gain_control_of_attacker_removes_it_from_combat() -> None:
    """613.1b, 506.4: gaining control of an attacking creature removes it
    from combat; the filter "creatures you control" then follows the new
    controller (layer 2 before 7c)."""
    bear = engine.creature("bear", "alice", 2, 2)
    state = engine.begin_combat(_board(bear)).state
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = _do(state, AddContinuous(affects_types=("creature",), affects_controller="bob",
                                     power=1, toughness=1, duration="game"),
                GainControl("bear", "bob"))
    assert state.combat is not None and not state.combat.in_combat("bear")
    assert state.objects["bear"].controller == "bob"
    assert state.objects["bear"].power == 3


def test_611_2c_locked_set_doesnt_grow() -> None:
    """611.2c: an effect from a resolved spell affects the objects it
    affected as it began; a creature entering later isn't pumped."""
    state = _do(_board(engine.creature("bear", "alice", 2, 2)),
                AddContinuous(affects_types=("creature",), power=1, toughness=1, locked=True))
    effect = state.continuous[0]
    assert effect.affects == ("bear",)
    late = engine.creature("elf", "alice", 1, 1)
    state = state.with_permanents({"elf": late})
    state = _do(state, Pump("elf", 0, 0))
    assert state.objects["elf"].power == 1 and state.objects["bear"].power == 3


def test_704_5f_set_base_toughness_zero_dies() -> None:
    """613.4b, 704.5f: a creature whose base toughness becomes 0 is put into
    its owner's graveyard."""
    state = _do(_board(engine.creature("bear", "alice", 2, 2)),
                AddContinuous(affects=("bear",), set_toughness=0))
    assert state.objects["bear"].zone == "graveyard"


def test_611_2_effect_ends_and_own_values_return() -> None:
    """611.2, 514.2: an "until end of turn" type change ends in cleanup
    and the permanent has its own characteristics back."""
    state = _do(_board(engine.permanent("rock", "alice", types=("artifact",))),
                AddContinuous(affects=("rock",), add_types=("creature",), set_power=3,
                              set_toughness=3))
    assert state.objects["rock"].is_creature and state.objects["rock"].power == 3
    state = engine.end_turn(state).state
    rock = state.objects["rock"]
    assert rock.types == frozenset({"artifact"}) and rock.layered is None


_EFFECTS = (
    ContinuousEffect(affects_subtypes=("Forest",), add_types=("creature",), set_power=1,
                     set_toughness=1, timestamp=1, id="c1"),
    ContinuousEffect(affects_types=("land",), set_subtypes=("Forest",), timestamp=2, id="c2"),
    ContinuousEffect(affects_types=("creature",), power=2, toughness=0, timestamp=3, id="c3"),
    ContinuousEffect(affects_types=("creature",), switch=True, timestamp=4, id="c4"),
    ContinuousEffect(affects_types=("creature",), set_colors=("green",), timestamp=5, id="c5"),
)


def _layered(effects: tuple[ContinuousEffect, ...]) -> GameState:
    state = _board(engine.permanent("plains", "alice", types=("land",), subtypes=("Plains",)),
                   engine.creature("bear", "bob", 2, 3))
    state = state.evolve(continuous=effects, timestamp=5)
    return state.with_permanents(baked(state))


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(len(_EFFECTS)))))
def test_613_7_order_listed_doesnt_matter(order: list[int]) -> None:
    """613.7, 613.8: with timestamps given, the characteristics don't
    depend on the order the effects are listed in."""
    want = _layered(_EFFECTS)
    got = _layered(tuple(_EFFECTS[i] for i in order))
    for obj in ("plains", "bear"):
        a, b = want.objects[obj], got.objects[obj]
        assert (a.types, a.subtypes, a.colors, a.power, a.toughness) == \
            (b.types, b.subtypes, b.colors, b.power, b.toughness)
    plains = want.objects["plains"]
    assert (plains.power, plains.toughness) == (1, 3)  # 1/1, +2/+0, switched


def test_continuous_effects_round_trip_through_serialize() -> None:
    """611.2, 613: a state with continuous effects and layered permanents
    round-trips through the state encoding."""
    state = _layered(_EFFECTS)
    again = state_from_dict(state_to_dict(state))
    assert again.continuous == state.continuous
    for obj in state.objects:
        assert again.objects[obj] == state.objects[obj]
        assert again.objects[obj].power == state.objects[obj].power


def test_613_7_modifications_and_effects_share_one_timestamp_order() -> None:
    """613.7a, 613.1f: a granted keyword (a modification) and a "loses all
    abilities" effect apply in the order they began: flying granted before
    is lost, vigilance granted after stays."""
    from redzone import Grant

    bear = engine.creature("bear", "alice", 2, 2)
    state = _do(_board(bear), Grant("bear", ("flying",)),
                AddContinuous(affects_types=("creature",), lose_all_abilities=True),
                Grant("bear", ("vigilance",)))
    assert state.objects["bear"].keyword_names == frozenset({"vigilance"})
    stamps = [m.timestamp for m in state.objects["bear"].modifications]
    assert stamps == [0, 1] and state.continuous[0].timestamp == 1


def test_400_7_card_leaving_has_its_own_characteristics() -> None:
    """400.7, 613.1d: a land made a creature that dies is a land card in the
    graveyard (a new object: no effect applies to it); its last known
    information is the creature it was."""
    land = engine.permanent("land", "alice", types=("land",), subtypes=("Forest",))
    state = _do(_board(land), AddContinuous(affects_subtypes=("Forest",),
                                            add_types=("creature",), set_power=1,
                                            set_toughness=1),
                AddContinuous(affects=("land",), toughness=-1))
    card = state.objects["land"]
    assert card.zone == "graveyard" and card.types == frozenset({"land"})
    assert card.layered is None and state.lki["land"].is_creature


def test_613_outcome_json_shows_layered_types() -> None:
    """613.1d: the JSON outcome shows the types a continuous effect gave,
    and the power of a land that became a creature (613.4b)."""
    from redzone.formats.outcome import board_json

    land = engine.permanent("land", "alice", types=("land",), subtypes=("Forest",))
    state = _do(_board(land), AddContinuous(affects=("land",), add_types=("creature",),
                                            set_power=3, set_toughness=3))
    entry = board_json(state)["permanents"]["land"]
    assert entry["types"] == ["creature", "land"] and entry["power"] == 3
    plain = board_json(_board(land))["permanents"]["land"]
    assert "types" not in plain and plain["power"] is None


def test_612_2_text_change_turns_swampwalk_into_islandwalk() -> None:
    """612.2, 613.1c, 702.14c: changing "Swamp" to "Island" in a creature's
    text turns its swampwalk into islandwalk: it can't be blocked by a
    player who controls an Island."""
    walker = engine.creature("walker", "alice", 2, 2, "swampwalk")
    island = engine.permanent("island", "bob", types=("land",), subtypes=("Island",))
    wall = engine.creature("wall", "bob", 0, 4)
    state = engine.begin_combat(_board(walker, island, wall)).state
    state = engine.declare_attackers(state, {"walker": "bob"}).state
    assert not engine.block_violations(state, {"wall": "walker"})
    state = _do(state, AddContinuous(affects=("walker",), text_from="Swamp",
                                     text_to="Island"))
    assert [k.text for k in state.objects["walker"].keywords] == ["islandwalk"]
    assert engine.block_violations(state, {"wall": "walker"})


def test_611_2_removing_a_continuous_effect_relayers() -> None:
    """611.2, 613.1: when a continuous effect ends (``remove_effect``), the
    layers are applied again without it: the Forest is no creature again,
    the other effect still applies."""
    from redzone import RemoveEffect

    land = engine.permanent("land", "alice", types=("land",), subtypes=("Forest",))
    state = _do(_board(land), AddContinuous(affects=("land",), add_types=("creature",),
                                            set_power=2, set_toughness=2),
                AddContinuous(affects=("land",), add_colors=("green",)))
    first, second = (e.id for e in state.continuous)
    state = _do(state, RemoveEffect(first))
    assert not state.objects["land"].is_creature
    assert state.objects["land"].colors == frozenset({"green"})
    state = _do(state, RemoveEffect(second))
    assert state.objects["land"].layered is None and not state.continuous


def test_707_3_copy_of_a_copy_depends_on_the_first_copy() -> None:
    """707.3, 613.8a: a copy of an object that is itself a copy takes the
    values the first copy effect gave it; the second copy effect depends on
    the first (applying it changes what the second copies), so it applies
    after it even with an earlier timestamp."""
    angel = engine.creature("angel", "bob", 4, 4, "flying")
    bear = engine.creature("bear", "alice", 2, 2)
    clone = engine.creature("clone", "alice", 0, 0)
    state = _do(_board(angel, bear, clone), AddContinuous(affects=("clone",), copy_of="bear"),
                AddContinuous(affects=("bear",), copy_of="angel"))
    for obj in ("bear", "clone"):
        copy = state.objects[obj]
        assert (copy.name, copy.power, copy.toughness) == ("angel", 4, 4)
        assert copy.has("flying")


def test_613_1_layer_6_decides_what_a_layer_7c_effect_applies_to() -> None:
    """613.1f-g: abilities (layer 6) are settled before power and toughness
    (layer 7): "creatures with flying get +1/+1" doesn't apply to a bird
    that lost flying, even when the pump began later; it applies to a bear
    that gained flying."""
    bird = engine.creature("bird", "alice", 1, 1, "flying")
    bear = engine.creature("bear", "alice", 2, 2)
    state = _do(_board(bird, bear),
                AddContinuous(affects=("bird",), remove_keywords=("flying",)),
                AddContinuous(affects=("bear",), add_keywords=("flying",)),
                AddContinuous(affects_keyword="flying", power=1, toughness=1))
    assert state.objects["bird"].power == 1 and state.objects["bear"].power == 3


def _blocking_planeswalker(*removed: str) -> tuple[GameState, object]:
    """506.4d's board: gid, a 4/4 creature planeswalker with loyalty 6, is
    attacked by b1 and blocks b2; then it loses the types ``removed``."""
    gid = engine.permanent("gid", "bob", types=("creature", "planeswalker"), power=4,
                           toughness=4, counters={"loyalty": 6})
    b1, b2 = engine.creature("b1", "alice", 2, 2), engine.creature("b2", "alice", 2, 2)
    state = engine.game(["alice", "bob"], [b1, b2, gid])
    state = engine.declare_attackers(state, {"b1": "gid", "b2": "bob"}).state
    state = engine.declare_blockers(state, {"gid": ("b2",)}).state
    result = engine.perform(state, AddContinuous(affects=("gid",), remove_types=removed))
    return result.state, result.events


def _left(events: object) -> list[tuple[str, str, str]]:
    return [(e.kind, e.object, e.rule) for e in events  # type: ignore[attr-defined]
            if e.kind in ("removed_from_combat", "no_longer_blocking", "no_longer_attacked")]


def test_506_4d_a_blocking_planeswalker_that_stops_being_a_creature_is_still_attacked() -> None:
    """506.4d: "If it stops being one of those card types but continues to
    be the other, it continues to be either a blocking creature or a
    planeswalker that's being attacked": gid stops blocking (b2 stays
    blocked, 509.1h) and b1, unblocked, deals its damage to it."""
    state, events = _blocking_planeswalker("creature")
    assert state.combat is not None
    assert "gid" not in state.combat.blocks and state.combat.attacks["b1"] == "gid"
    assert "b2" in state.combat.blocked
    assert _left(events) == [("no_longer_blocking", "gid", "506.4d")]
    state = engine.combat_damage(state).state
    assert state.objects["gid"].counters["loyalty"] == 4
    assert state.players["bob"].life == 20 and state.objects["b2"].damage == 0


def test_506_4d_a_blocking_planeswalker_that_stops_being_one_still_blocks() -> None:
    """506.4d: a blocking creature planeswalker that stops being a
    planeswalker keeps blocking; it is no longer attacked, so b1 attacks
    nothing (506.4c) and deals no damage, while gid deals 4 to b2."""
    state, events = _blocking_planeswalker("planeswalker")
    assert state.combat is not None
    assert state.combat.blocks["gid"] == ("b2",) and state.combat.attacks["b1"] is None
    assert _left(events) == [("no_longer_attacked", "gid", "506.4d")]
    state = engine.combat_damage(state).state
    assert state.objects["b2"].zone == "graveyard" and state.objects["gid"].damage == 2


def test_506_4d_one_that_stops_being_both_is_removed_from_combat() -> None:
    """506.4d: "removed from combat if it stops being both a creature and a
    planeswalker"."""
    state, events = _blocking_planeswalker("creature", "planeswalker")
    assert state.combat is not None
    assert "gid" not in state.combat.blocks and state.combat.attacks["b1"] is None
    assert _left(events) == [("removed_from_combat", "gid", "506.4d")]


@pytest.mark.parametrize("lost, protector, stays", [
    ("planeswalker", "bob", True),    # still a battle: not removed
    ("planeswalker", "carol", True),
    ("battle", "bob", True),          # still a planeswalker its protector controls
    ("battle", "carol", False),       # still a planeswalker, not its protector's
])
def test_506_4e_an_attacked_planeswalker_battle_that_loses_one_type(
        lost: str, protector: str, stays: bool) -> None:
    """506.4e: a planeswalker battle being attacked that "stops being a
    battle but is still a planeswalker ... is removed from combat only if it
    is not controlled by its protector. If it stops being a planeswalker but
    is still a battle, it is not removed from combat"; one that stays is
    dealt the damage of the creature attacking it."""
    x = engine.permanent("x", "bob", types=("planeswalker", "battle"), protector=protector,
                         subtypes=("Siege",) if protector != "bob" else (),  # 310.12a
                         counters={"loyalty": 6, "defense": 5})
    bear = engine.creature("bear", "alice", 2, 2)
    state = engine.game(["alice", "bob", "carol"], [bear, x])
    state = engine.declare_attackers(state, {"bear": "x"}).state
    result = engine.perform(state, AddContinuous(affects=("x",), remove_types=(lost,)))
    state = result.state
    assert state.combat is not None
    assert (state.combat.attacks["bear"] == "x") is stays
    assert _left(result.events) == ([] if stays else [("removed_from_combat", "x", "506.4e")])
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    kept = "defense" if lost == "planeswalker" else "loyalty"
    before = {"defense": 5, "loyalty": 6}[kept]
    assert state.objects["x"].counters.get(kept) == (before - 2 if stays else before)


@pytest.mark.parametrize("text, changed", [
    ("protection from multicolored", "protection from multicolored"),
    ("protection from monocolored", "protection from monocolored"),
    ("protection from red", "protection from blue"),
    ("protection from nonred", "protection from nonblue"),
])
def test_612_2_a_text_change_changes_a_color_word_not_letters_inside_a_word(
        text: str, changed: str) -> None:
    """612.2, 613.1c: a text-changing effect changes a color word used as a
    color word; "red" → "blue" leaves "protection from multicolored" as it
    is (it isn't the word "red"), so a multicolored creature still can't
    block the knight (702.16f)."""
    knight = engine.creature("knight", "alice", 2, 2, text)
    gold = engine.creature("gold", "bob", 2, 2, colors=("white", "blue"))
    state = _do(_board(knight, gold),
                AddContinuous(affects=("knight",), text_from="red", text_to="blue"))
    assert [k.text for k in state.objects["knight"].keywords] == [changed]
    if "multicolored" in text:
        state = engine.declare_attackers(state, {"knight": "bob"}).state
        assert [v.rule for v in engine.block_violations(state, {"gold": "knight"})] == ["702.16f"]


def test_608_2c_a_later_instruction_sees_what_an_earlier_one_changed() -> None:
    """608.2c, 613: a resolving spell's instructions are followed in order,
    and each sees the game as the ones before it left it: "the bear becomes
    red; it deals 2 damage to the knight" is prevented by the knight's
    protection from red (702.16e), as it is when the two come one after
    the other; a deathtouch the bear gains first destroys what it then
    deals damage to (702.2b)."""
    bear = engine.creature("bear", "alice", 2, 2, colors=("green",))
    knight = engine.creature("knight", "bob", 2, 4, "protection from red")
    out = engine.perform(_board(bear, knight), [
        AddContinuous(affects=("bear",), set_colors=("red",)),
        DealDamage("bear", "knight", 2)])
    assert out.state.objects["knight"].damage == 0
    assert [e.kind for e in out.events if e.kind in ("prevented", "damage")] == ["prevented"]
    x = engine.creature("x", "bob", 2, 2)
    out = engine.perform(_board(engine.creature("bear", "alice", 2, 2), x), [
        AddContinuous(affects=("bear",), add_keywords=("deathtouch",)),
        DealDamage("bear", "x", 1)])
    assert out.state.objects["x"].zone == "graveyard"


def test_613_8a_an_effect_that_applies_to_nothing_is_one_nothing_depends_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """613.8a: an effect depends on another when applying the other would
    change what it applies to or what it does. Applying an effect changes
    only the objects it applies to: one that applies to no object changes
    nothing, so the ordering tries none of its consequences (no copy of any
    object's characteristics), and one that applies to one object is tried
    on a copy of that object, not of the board. Sixty layer-4 effects whose
    subtype filters match nothing on twenty creatures copy nothing; thirty
    that each give the one Bear another subtype copy only the Bear, for each
    of the other effects they are tried against, and all apply."""
    from redzone.kernel import layers

    clones: list[str] = []
    real = layers._Chars.clone

    def counted(self: layers._Chars) -> layers._Chars:
        clones.append(self.id)
        return real(self)

    monkeypatch.setattr(layers._Chars, "clone", counted)
    state = _board(engine.creature("bear", "alice", 1, 1, subtypes=("Bear",)),
                   *(engine.creature(f"c{i}", "alice", 1, 1) for i in range(19)))
    idle = [AddContinuous(affects_subtypes=(f"U{i}",), add_subtypes=(f"V{i}",))
            for i in range(60)]
    state = _do(state, *idle)
    assert clones == []
    named = [AddContinuous(affects_subtypes=("Bear",), add_subtypes=(f"T{i}",))
             for i in range(30)]
    state = _do(state, *named)
    assert set(state.objects["bear"].subtypes) == {"Bear", *(f"T{i}" for i in range(30))}
    assert clones and set(clones) == {"bear"}
