"""The layer system (613), rules an audit found it got wrong: timestamp
order in layer 7 (613.7), keywords granted to one permanent in layer 6
(613.1f), one set of objects across an effect's layers (613.6), the
objects an effect applies to fixed as it starts (611.2c, 400.7),
dependency loops (613.8b-c) and subtypes as types change (205.1a)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import AddCounters, Engine, Grant, Move, Pump, Revoke, new_game
from redzone.kernel.actions import AddContinuous
from redzone.kernel.model import GameState

engine = Engine()


def _do(state: GameState, *actions: object) -> GameState:
    for action in actions:
        state = engine.perform(state, action).state  # type: ignore[arg-type]
    return state


def _board(*perms: object) -> GameState:
    return new_game(["alice", "bob"], perms)  # type: ignore[arg-type]


def _fight(state: GameState, attacker: str, blocker: str) -> GameState:
    """``attacker`` (alice's) attacks bob and ``blocker`` blocks it; the
    combat resolved with no further decision."""
    state = engine.begin_combat(state).state
    state = engine.declare_attackers(state, {attacker: "bob"}).state
    state = engine.declare_blockers(state, {blocker: [attacker]}).state
    return engine.resolve(state, {}).state


# -- 613.7, 613.4a-b: layer 7a/7b by timestamp ---------------------------------------


def test_613_7_layer_7b_effects_apply_in_timestamp_order_whatever_their_other_layers() -> None:
    """613.4b, 613.7: "becomes 4/4" then, later, "loses all abilities and
    is 1/1" (layers 6 and 7b): the later 7b effect wins, whatever other
    layer it also has a part in: a 1/1 with no abilities, and a 4/4 the
    other way round."""
    bear = engine.creature("bear", "alice", 2, 2, "flying")
    big = AddContinuous(affects=("bear",), set_power=4, set_toughness=4)
    frog = AddContinuous(affects=("bear",), lose_all_abilities=True, set_power=1,
                         set_toughness=1)
    state = _do(_board(bear), big, frog)
    b = state.objects["bear"]
    assert (b.power, b.toughness, b.keyword_names) == (1, 1, frozenset())
    b = _do(_board(bear), frog, big).objects["bear"]
    assert (b.power, b.toughness, b.keyword_names) == (4, 4, frozenset())


def test_613_7_layer_7a_effects_apply_in_timestamp_order_whatever_their_other_layers() -> None:
    """613.4a, 613.7: two characteristic-defining P/T effects (7a), the
    later one with a layer-6 part: the later one's values stand."""
    bear = engine.creature("bear", "alice", 2, 2)
    state = _do(_board(bear), AddContinuous(affects=("bear",), set_power=5, set_toughness=5,
                                            cda=True),
                AddContinuous(affects=("bear",), add_keywords=("flying",), set_power=3,
                              set_toughness=3, cda=True))
    b = state.objects["bear"]
    assert (b.power, b.toughness, b.keyword_names) == (3, 3, frozenset({"flying"}))


def test_613_7_a_later_turn_to_frog_makes_a_blocker_die_in_combat() -> None:
    """613.4b, 613.7 in combat: bob's 0/1 wall became 4/4; blocking, it is
    turned into a 1/1 with no abilities (later, layers 6 and 7b): alice's
    2/2 bear kills it and survives."""
    state = _board(engine.creature("bear", "alice", 2, 2),
                   engine.creature("wall", "bob", 0, 1, "defender"))
    state = _do(state, AddContinuous(affects=("wall",), set_power=4, set_toughness=4,
                                     duration="game"))
    state = engine.begin_combat(state).state
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = engine.declare_blockers(state, {"wall": ["bear"]}).state
    state = _do(state, AddContinuous(affects=("wall",), lose_all_abilities=True, set_power=1,
                                     set_toughness=1))
    wall = state.objects["wall"]
    assert (wall.power, wall.toughness, wall.keyword_names) == (1, 1, frozenset())
    after = engine.resolve(state, {}).state
    assert after.objects["wall"].zone == "graveyard"
    assert after.objects["bear"].zone == "battlefield"


# -- 613.1f: Grant and Revoke are layer 6 ------------------------------------------------


def test_613_1f_granted_and_revoked_keywords_decide_what_a_layer_7_effect_applies_to() -> None:
    """613.1f-g: a keyword one permanent gains or loses (Grant, Revoke) is
    settled in layer 6, before layer 7 reads "creatures with flying get
    +1/+1", with no other layer-6 effect on the board: the bird that lost
    flying is 1/1, the bear that gained it 3/3."""
    state = _board(engine.creature("bird", "alice", 1, 1, "flying"),
                   engine.creature("bear", "alice", 2, 2))
    state = _do(state, AddContinuous(affects_keyword="flying", power=1, toughness=1,
                                     duration="game"),
                [Grant("bear", ("flying",)), Revoke("bird", ("flying",))],
                Grant("bear", ("vigilance",)))
    bird, bear = state.objects["bird"], state.objects["bear"]
    assert (bird.power, bird.toughness, bird.keyword_names) == (1, 1, frozenset())
    assert (bear.power, bear.toughness) == (3, 3)
    assert bear.keyword_names == frozenset({"flying", "vigilance"})


def test_613_1f_a_granted_flying_pumps_an_attacker_that_kills_its_blocker() -> None:
    """613.1f-g in combat: "creatures you control with flying get +1/+1";
    alice's 2/2 bear is given flying and attacks as a 3/3: bob's 1/3 bat
    blocking it dies."""
    state = _board(engine.creature("bear", "alice", 2, 2),
                   engine.creature("bat", "bob", 1, 3, "flying"))
    state = _do(state, AddContinuous(affects_keyword="flying", affects_controller="alice",
                                     power=1, toughness=1, duration="game"),
                Grant("bear", ("flying",)))
    bear = state.objects["bear"]
    assert (bear.power, bear.toughness) == (3, 3)
    after = _fight(state, "bear", "bat")
    assert after.objects["bat"].zone == "graveyard"
    assert after.objects["bear"].zone == "battlefield"


def test_613_1f_an_effect_that_removes_all_abilities_keeps_the_keywords_it_gives() -> None:
    """613.1f, 613.7: one effect "the bear loses all abilities and has
    flying" removes the bear's trample and gives it flying, which it keeps
    (the effect's own keyword isn't lost with the others); so a later
    "creatures with flying get +1/+1" (layer 7c) applies to it: a 3/3
    flier."""
    state = _do(_board(engine.creature("bear", "alice", 2, 2, "trample")),
                AddContinuous(affects=("bear",), lose_all_abilities=True,
                              add_keywords=("flying",), duration="game"),
                AddContinuous(affects_keyword="flying", power=1, toughness=1,
                              duration="game"))
    bear = state.objects["bear"]
    assert (bear.power, bear.toughness, bear.keyword_names) == (3, 3, frozenset({"flying"}))


# -- 613.6: one set of objects through an effect's layers -------------------------------


def test_613_6_an_effect_keeps_applying_to_the_objects_it_applied_to_in_its_first_layer() -> None:
    """613.6: "green creatures become black and get +1/+1" applies to the
    green bear in layer 5 and so in layer 7c, though it is black by then:
    a black 3/3, which blocks a 2/2 and survives."""
    bear = engine.creature("bear", "bob", 2, 2).evolve(colors=frozenset({"green"}))
    state = _board(engine.creature("ogre", "alice", 2, 2), bear)
    state = _do(state, AddContinuous(affects_colors=("green",), set_colors=("black",),
                                     power=1, toughness=1))
    b = state.objects["bear"]
    assert (b.colors, b.power, b.toughness) == (frozenset({"black"}), 3, 3)
    after = _fight(state, "ogre", "bear")
    assert after.objects["bear"].zone == "battlefield"
    assert after.objects["ogre"].zone == "graveyard"


def test_613_6_a_later_layer_doesnt_change_the_set_an_earlier_layer_fixed() -> None:
    """613.6: "green creatures become artifacts and get +1/+1" (layers 4
    and 7c) applies to the green bear in layer 4; a later "the bear is
    blue" (layer 5) doesn't take the +1/+1 away. A red ogre made green in
    layer 5 wasn't affected in layer 4: no artifact, no +1/+1."""
    bear = engine.creature("bear", "alice", 2, 2).evolve(colors=frozenset({"green"}))
    ogre = engine.creature("ogre", "alice", 3, 3).evolve(colors=frozenset({"red"}))
    state = _do(_board(bear, ogre),
                AddContinuous(affects_colors=("green",), add_types=("artifact",), power=1,
                              toughness=1, duration="game"),
                AddContinuous(affects=("bear",), set_colors=("blue",), duration="game"),
                AddContinuous(affects=("ogre",), set_colors=("green",), duration="game"))
    b, o = state.objects["bear"], state.objects["ogre"]
    assert (b.types, b.colors, b.power, b.toughness) == (
        frozenset({"artifact", "creature"}), frozenset({"blue"}), 3, 3)
    assert (o.types, o.colors, o.power, o.toughness) == (
        frozenset({"creature"}), frozenset({"green"}), 3, 3)


# -- 611.2c, 400.7: the objects fixed as the effect starts -----------------------------


def test_611_2c_400_7_an_effect_doesnt_follow_a_permanent_that_left_and_came_back() -> None:
    """611.2c, 400.7: a +2/+2 given to the bear (by id, or locked on "each
    creature" as it resolved) applies to that object; the bear that
    leaves and comes back is a new object it doesn't apply to: a 2/2."""
    for kw in ({"affects": ("bear",)}, {"affects_types": ("creature",), "locked": True}):
        state = _do(_board(engine.creature("bear", "alice", 2, 2)),
                    AddContinuous(power=2, toughness=2, **kw))  # type: ignore[arg-type]
        assert state.objects["bear"].power == 4
        back = _do(state, [Move("bear", "graveyard"), Move("bear", "battlefield")])
        assert (back.objects["bear"].power, back.objects["bear"].toughness) == (2, 2)
        back = _do(state, Move("bear", "exile"), Move("bear", "battlefield"))
        assert (back.objects["bear"].power, back.objects["bear"].toughness) == (2, 2)


def test_611_2c_400_7_a_flickered_wall_blocks_without_its_minus_three() -> None:
    """611.2c, 400.7 in combat: bob's 0/4 wall got -3/-3 until end of turn
    (a resolved spell), then was exiled and returned: the new object is a
    0/4, blocks alice's 3/3 and survives."""
    state = _board(engine.creature("bear", "alice", 3, 3), engine.creature("wall", "bob", 0, 4))
    state = _do(state, AddContinuous(affects=("wall",), power=-3, toughness=-3, locked=True),
                AddCounters("wall", {"+1/+1": 1}),
                [Move("wall", "exile"), Move("wall", "battlefield")])
    wall = state.objects["wall"]
    assert (wall.power, wall.toughness) == (0, 4)
    after = _fight(state, "bear", "wall")
    assert after.objects["wall"].zone == "battlefield"


def test_611_2c_a_filter_effect_applies_to_the_new_object() -> None:
    """611.2c: an effect of a static ability ("creatures get +1/+1", not
    locked) applies to whatever matches, the returned bear included."""
    state = _do(_board(engine.creature("bear", "alice", 2, 2)),
                AddContinuous(affects_types=("creature",), power=1, toughness=1,
                              duration="game"),
                [Move("bear", "exile"), Move("bear", "battlefield")])
    assert state.objects["bear"].power == 3


# -- 205.2b, 205.3m: what a filter on types and subtypes matches -------------------------


def test_205_2b_artifact_creatures_get_plus_one_needs_both_card_types() -> None:
    """205.2b, 613.1: "artifact creatures get +1/+1" (``affects_types``:
    every one of these card types) applies to an object that is both, the
    artifact creature golem (a 4/4), not to the bear, a creature only (a
    2/2)."""
    golem = engine.permanent("golem", "alice", types=("artifact", "creature"),
                             base_power=3, base_toughness=3)
    state = _do(_board(engine.creature("bear", "alice", 2, 2), golem),
                AddContinuous(affects_types=("artifact", "creature"), power=1, toughness=1,
                              duration="game"))
    assert [(state.objects[i].power, state.objects[i].toughness) for i in ("bear", "golem")] \
        == [(2, 2), (4, 4)]


def test_205_3m_elves_and_warriors_get_plus_one_pumps_each_that_has_one() -> None:
    """205.3m: "Elves and Warriors get +1/+1" (``affects_subtypes``: has one
    of these subtypes) applies to an Elf, a Warrior and an Elf Warrior (each
    a 2/2), not to a Goblin (a 1/1)."""
    kinds = {"elf": ("Elf",), "warrior": ("Warrior",), "both": ("Elf", "Warrior"),
             "goblin": ("Goblin",)}
    state = _do(_board(*(engine.creature(i, "alice", 1, 1).evolve(subtypes=sub)
                         for i, sub in kinds.items())),
                AddContinuous(affects_subtypes=("Elf", "Warrior"), power=1, toughness=1,
                              duration="game"))
    assert {i: state.objects[i].power for i in kinds} == {
        "elf": 2, "warrior": 2, "both": 2, "goblin": 1}


# -- 613.8b-c: a dependency loop -----------------------------------------------------------


def test_613_8b_only_the_effects_in_a_loop_go_by_timestamp() -> None:
    """613.8a-c: A (ts 1) "creatures with flying gain vigilance" depends on
    B (ts 2) "creatures with first strike gain flying"; B and C (ts 3)
    "creatures with flying gain first strike" are a loop. Only the loop
    goes by timestamp: B, then A (waiting no more, 613.8c), then C: y,
    with first strike, gains flying from B and vigilance from A."""
    state = _board(engine.creature("x", "alice", 1, 1, "flying"),
                   engine.creature("y", "alice", 1, 1, "first strike"))
    state = _do(state, [
        AddContinuous(affects_keyword="flying", add_keywords=("vigilance",), duration="game"),
        AddContinuous(affects_keyword="first strike", add_keywords=("flying",),
                      duration="game"),
        AddContinuous(affects_keyword="flying", add_keywords=("first strike",),
                      duration="game")])
    assert state.objects["x"].keyword_names == frozenset({"flying", "vigilance",
                                                          "first strike"})
    assert state.objects["y"].keyword_names == frozenset({"flying", "vigilance",
                                                          "first strike"})


# -- 205.1a: subtypes as types change (layer 4) ----------------------------------------------


def test_205_1a_setting_card_types_keeps_the_subtypes_of_the_types_it_keeps() -> None:
    """205.1a, 205.3d: an Elf creature that becomes an artifact creature
    stays an Elf (a creature type of a creature): "Elves get +1/+1" still
    applies: a 2/2 Elf."""
    elf = engine.creature("elf", "alice", 1, 1).evolve(subtypes=("Elf",))
    state = _do(_board(elf), [
        AddContinuous(affects_subtypes=("Elf",), power=1, toughness=1, duration="game"),
        AddContinuous(affects=("elf",), set_types=("artifact", "creature"), duration="game")])
    e = state.objects["elf"]
    assert (e.types, e.subtypes, e.power, e.toughness) == (
        frozenset({"artifact", "creature"}), ("Elf",), 2, 2)


def test_205_1a_setting_card_types_drops_the_subtypes_no_type_it_has_takes() -> None:
    """205.1a, 205.3d: a Forest Dryad land creature that becomes an
    artifact creature loses Forest (a land type) and keeps Dryad."""
    arbor = engine.permanent("arbor", "alice", types=("land", "creature"),
                             subtypes=("Forest", "Dryad"), base_power=1, base_toughness=1)
    state = _do(_board(arbor), AddContinuous(affects=("arbor",),
                                             set_types=("artifact", "creature"),
                                             duration="game"))
    a = state.objects["arbor"]
    assert (a.types, a.subtypes) == (frozenset({"artifact", "creature"}), ("Dryad",))


def test_205_1a_setting_subtypes_replaces_only_those_of_their_own_type() -> None:
    """205.1a: "is a Mountain" replaces a land's land types only: a Forest
    Dryad (land creature) becomes a Mountain Dryad."""
    arbor = engine.permanent("arbor", "alice", types=("land", "creature"),
                             subtypes=("Forest", "Dryad"), base_power=1, base_toughness=1)
    state = _do(_board(arbor), AddContinuous(affects=("arbor",), set_subtypes=("Mountain",),
                                             duration="game"))
    assert sorted(state.objects["arbor"].subtypes) == ["Dryad", "Mountain"]


def test_205_1a_a_removed_card_type_takes_its_subtypes() -> None:
    """205.1a, 205.3d: an artifact creature Golem that stops being a
    creature stops being a Golem; a kindred artifact keeps it."""
    golem = engine.permanent("golem", "alice", types=("artifact", "creature"),
                             subtypes=("Golem",), base_power=3, base_toughness=3)
    state = _do(_board(golem), AddContinuous(affects=("golem",), remove_types=("creature",),
                                             duration="game"))
    g = state.objects["golem"]
    assert (g.types, g.subtypes) == (frozenset({"artifact"}), ())
    kindred = golem.evolve(types=frozenset({"kindred", "artifact", "creature"}))
    state = _do(_board(kindred), AddContinuous(affects=("golem",), remove_types=("creature",),
                                               duration="game"))
    g = state.objects["golem"]
    assert (g.types, g.subtypes) == (frozenset({"kindred", "artifact"}), ("Golem",))


# -- 613.4, 613.7: layer 7 arithmetic against an oracle ----------------------------------


_EFFECT = st.fixed_dictionaries({}, optional={
    "set": st.tuples(st.integers(0, 6), st.integers(1, 6), st.booleans()),
    "pump": st.tuples(st.integers(-2, 3), st.integers(-2, 3)),
    "switch": st.just(True),
    "lose_all_abilities": st.just(True),
    "flying": st.just(True)}).filter(lambda e: any(v != (0, 0) for v in e.values()))
_OP = st.one_of(st.tuples(st.just("cont"), _EFFECT),
                st.tuples(st.just("pump"), st.integers(-1, 3), st.integers(-1, 3)),
                st.tuples(st.just("ctr"), st.integers(0, 2), st.integers(0, 2)),
                st.tuples(st.just("grant")))


def _oracle(base: tuple[int, int], ops: list[tuple[Any, ...]]
            ) -> tuple[int, int, frozenset[str]]:
    """613.1f-g, 613.3, 613.4, 613.7: layer 6 characteristic-defining
    effects first, then by timestamp, then 7a and 7b each by timestamp, 7c
    summed (counters too), 7d switched."""
    p, t = base
    kws = {"trample"}
    cdas = [op for op in ops if op[0] == "cont" and op[1].get("set", (0, 0, False))[2]]
    for op in cdas + [op for op in ops if not any(op is c for c in cdas)]:
        if op[0] == "cont":
            if op[1].get("lose_all_abilities"):
                kws = set()
            if op[1].get("flying"):
                kws.add("flying")
        elif op[0] == "grant":
            kws.add("vigilance")
    for cda in (True, False):
        for op in ops:
            if op[0] == "cont" and "set" in op[1] and op[1]["set"][2] == cda:
                p, t = op[1]["set"][:2]
    for op in ops:
        if op[0] == "cont" and "pump" in op[1]:
            p, t = p + op[1]["pump"][0], t + op[1]["pump"][1]
        elif op[0] == "pump":
            p, t = p + op[1], t + op[2]
        elif op[0] == "ctr":
            p, t = p + op[1] - op[2], t + op[1] - op[2]
    for op in ops:
        if op[0] == "cont" and op[1].get("switch"):
            p, t = t, p
    return p, t, frozenset(kws)


def _action(op: tuple[Any, ...]) -> object:
    if op[0] == "pump":
        return Pump("x", op[1], op[2], duration="game")
    if op[0] == "ctr":
        return AddCounters("x", {"+1/+1": op[1], "-1/-1": op[2]})
    if op[0] == "grant":
        return Grant("x", ("vigilance",), duration="game")
    e = op[1]
    kw: dict[str, Any] = {"switch": "switch" in e, "lose_all_abilities":
                          "lose_all_abilities" in e,
                          "add_keywords": ("flying",) if "flying" in e else ()}
    if "set" in e:
        kw.update(set_power=e["set"][0], set_toughness=e["set"][1], cda=e["set"][2])
    if "pump" in e:
        kw.update(power=e["pump"][0], toughness=e["pump"][1])
    return AddContinuous(affects=("x",), duration="game", **kw)


@settings(max_examples=150, deadline=None)
@given(base=st.tuples(st.integers(0, 4), st.integers(1, 5)),
       ops=st.lists(_OP, min_size=1, max_size=6))
def test_613_4_613_7_layer_7_arithmetic_matches_an_oracle(
        base: tuple[int, int], ops: list[tuple[Any, ...]]) -> None:
    """613.1f-g, 613.4a-d, 613.7: one creature, effects on it by id (no
    dependency), some with a layer-6 part, with pumps, counters and grants
    mixed in, performed in one command: its keywords, power and toughness
    are those of the layers applied by hand (dead if its toughness is 0 or
    less, 704.5f)."""
    actions = [_action(op) for op in ops]
    state = _board(engine.creature("x", "alice", base[0], base[1], "trample"))
    x = engine.perform(state, actions).state.objects["x"]  # type: ignore[arg-type]
    p, t, kws = _oracle(base, ops)
    if t <= 0:
        assert x.zone != "battlefield"
    else:
        assert (x.zone, x.power, x.toughness, x.keyword_names) == ("battlefield", p, t, kws)
