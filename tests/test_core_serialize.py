"""The game state as plain JSON-able data and back (core/redzone/serialize.py):
lossless, order-preserving, strict about what it reads."""

from __future__ import annotations

import json
import types
import typing
from typing import Any

import attrs
import pytest
from _long import samples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import (
    Action,
    CreateDelayedTrigger,
    Draw,
    Effect,
    Engine,
    Exile,
    FrozenMap,
    GameState,
    Keyword,
    Modification,
    Move,
    Permanent,
    Player,
    Prevent,
    Pump,
    Sacrifice,
    Tap,
    creature,
)
from redzone.formats.serialize import (
    FORMAT,
    StateFormatError,
    _decode_state,
    state_from_dict,
    state_to_dict,
)

IDS = st.text(alphabet="abcdefgxyz-_/+1 ", min_size=1, max_size=6)


FROZEN_DATA = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | IDS,
    lambda inner: st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(IDS, inner, max_size=3).map(FrozenMap), max_leaves=6)
ACTIONS = st.sampled_from([Tap("x"), Sacrifice("y", player="bob"), Pump("z", 1, -1),
                           CreateDelayedTrigger("end_step", (Exile("w"),)),
                           Move("v", "library", position="bottom"), Draw("bob", 2)])


def strategy_for(tp: Any) -> st.SearchStrategy[Any]:
    """A strategy for any value of a model annotation: built from the attrs
    fields, so a field added to the model is covered without editing this."""
    if tp is Any:
        return FROZEN_DATA  # a plugin's own state: frozen data
    if tp is Action:
        return ACTIONS
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return st.one_of(*(strategy_for(t) for t in typing.get_args(tp)))
    if tp is type(None):
        return st.none()
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(-50, 50)
    if tp is str:
        return IDS
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        return st.lists(strategy_for(args[0]), max_size=3).map(tuple)
    if origin is frozenset:
        return st.frozensets(strategy_for(args[0]), max_size=3)
    if origin is FrozenMap:
        return st.dictionaries(IDS, strategy_for(args[1]), max_size=3).map(FrozenMap)
    if isinstance(tp, type) and attrs.has(tp):
        hints = typing.get_type_hints(tp)
        fields = {f.name: strategy_for(hints[f.name]) for f in attrs.fields(tp)}
        return st.fixed_dictionaries(fields).map(lambda kw: tp(**kw))
    raise TypeError(f"no strategy for {tp!r}")


STATES = strategy_for(GameState)


@settings(max_examples=samples(50, 150), suppress_health_check=[HealthCheck.too_slow])
@given(STATES)
def test_round_trip_of_any_state(state: GameState) -> None:
    """DESIGN quality bar: the state round-trips through its serialised form,
    through JSON text too, keeping the order of every mapping. A drawn state's
    ids rarely resolve, so its structure is decoded without the reference
    checks, and state_from_dict gives it back or refuses it naming a path."""
    data = state_to_dict(state)
    assert data["format"] == FORMAT
    text = json.dumps(data)
    back = _decode_state(json.loads(text), None)
    assert back == state
    try:
        assert state_from_dict(json.loads(text)) == state
    except StateFormatError as exc:
        assert exc.path
    assert list(back.objects) == list(state.objects)
    if state.combat is not None:
        assert back.combat is not None
        assert list(back.combat.attacks) == list(state.combat.attacks)
        assert list(back.combat.blocks) == list(state.combat.blocks)
    assert state_to_dict(back) == data


CARD_ZONES = ("battlefield", "hand", "library", "graveyard", "exile")
MOVES = st.lists(st.tuples(st.integers(0, 5), st.sampled_from(CARD_ZONES),
                           st.sampled_from(("top", "bottom"))), max_size=8)


@settings(max_examples=samples(25, 100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(("alice", "bob")), st.sampled_from(CARD_ZONES)),
                min_size=1, max_size=6), MOVES, st.integers(0, 3))
def test_round_trip_keeps_every_zone_in_order(bare_engine: Engine,
                                              cards: list[tuple[str, str]],
                                              moves: list[tuple[int, str, str]],
                                              draws: int) -> None:
    """Issue item 1: a saved state round-trips with its zones: after any moves
    between zones (400.7) and draws (121.1), each player's hand, library (top
    first) and graveyard (oldest first) and each object's number come back
    as they were."""
    state = bare_engine.game(["alice", "bob"], [
        creature(f"c{i}", owner, 1, 1, zone=zone) for i, (owner, zone) in enumerate(cards)])
    for i, zone, position in moves:
        state = bare_engine.perform(state, Move(f"c{i % len(cards)}", zone,
                                                position=position)).state
    if draws:
        state = bare_engine.perform(state, Draw("alice", draws)).state
    back = state_from_dict(json.loads(json.dumps(state_to_dict(state))))
    assert back == state
    for player in ("alice", "bob"):
        for zone in CARD_ZONES:
            assert back.zone(player, zone) == state.zone(player, zone)
    assert {i: p.object for i, p in back.objects.items()} == \
        {i: p.object for i, p in state.objects.items()}


def test_round_trip_of_a_real_combat(bare_engine: Engine) -> None:
    """A state in the middle of a combat, with shields, effects, counters,
    modifications and last known information, survives the round trip."""
    state = bare_engine.game([Player("alice", life=17), Player("bob", poison=3)], [
        creature("orc", "alice", 2, 2, counters={"+1/+1": 1},
                 modifications=(Modification(power=1, add_keywords=(
                     Keyword("ward", "ward 2", ("2",)),)),)),
        creature("bear", "bob", 2, 2, damage=1),
        creature("wolf", "bob", 3, 3),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3})],
        effects=[Effect("reduce_damage", to="bear", amount=1)])
    state = bare_engine.declare_attackers(state, {"orc": "bob"}).state
    state = bare_engine.declare_blockers(state, {"bear": "orc", "wolf": "orc"}).state
    state = bare_engine.perform(state, Prevent(target="wolf", amount=2)).state
    state = bare_engine.combat_damage(state).state
    assert state.lki  # something died
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_plain_json_types_only(bare_engine: Engine) -> None:
    """Every value is a dict, list, str, int, bool or None."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    state = bare_engine.declare_attackers(state, {"orc": "bob"}).state

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            assert type(value) is dict
            for k, v in value.items():
                assert type(k) is str
                walk(v)
        elif isinstance(value, list):
            assert type(value) is list
            for v in value:
                walk(v)
        else:
            assert value is None or type(value) in (str, int, bool)

    walk(state_to_dict(state))


def test_frozensets_are_sorted_lists(bare_engine: Engine) -> None:
    """Serialising is deterministic: set-valued fields are sorted."""
    state = bare_engine.game(["alice", "bob"], [
        Permanent("x", "alice", types={"land", "creature", "artifact"}, base_power=1,
                  base_toughness=1)])
    assert state_to_dict(state)["objects"]["x"]["types"] == ["artifact", "creature", "land"]


@pytest.mark.parametrize("change,path", [
    (lambda d: d.update(bogus=1), "bogus"),
    (lambda d: d["objects"]["orc"].update(damage="1"), "objects.orc.damage"),
    (lambda d: d["objects"]["orc"].update(tapped=1), "objects.orc.tapped"),
    (lambda d: d["objects"]["orc"].update(base_power=True), "objects.orc.base_power"),
    (lambda d: d["objects"]["orc"].pop("controller"), "objects.orc.controller"),
    (lambda d: d["objects"]["orc"].update(types="creature"), "objects.orc.types"),
    (lambda d: d["players"]["bob"].update(extra=1), "players.bob.extra"),
    (lambda d: d.update(players=[]), "players"),
    (lambda d: d.update(format=99), "format"),
    (lambda d: d.pop("format"), "format"),
])
def test_strict_decoding_names_the_key(bare_engine: Engine, change: Any, path: str) -> None:
    """A malformed dict is a StateFormatError naming the key path (typos must
    not pass silently)."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    data = json.loads(json.dumps(state_to_dict(state)))
    change(data)
    with pytest.raises(StateFormatError) as info:
        state_from_dict(data)
    assert info.value.path == path
    assert str(info.value).startswith(path)
    assert isinstance(info.value, ValueError)


def test_defaults_may_be_left_out() -> None:
    """Fields with defaults may be missing from a hand-written dict."""
    state = state_from_dict({"format": FORMAT, "players": {"a": {"id": "a"}, "b": {"id": "b"}},
                             "turn_order": ["a", "b"], "active_player": "a"})
    assert state == GameState(players={"a": Player("a"), "b": Player("b")},
                              turn_order=("a", "b"), active_player="a")
    with pytest.raises(StateFormatError):
        state_from_dict([])  # type: ignore[arg-type]
