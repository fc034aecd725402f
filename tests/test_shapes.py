"""One reading of annotations, one rule of what fits (:mod:`redzone.kernel.shapes`).

Every check of a value against its declared type reads the annotation as a
shape and applies one rule: a caller's permanents (``game``) and actions
(``perform``), the actions a plugin performs and the values it hands a
tool, an activation's cost. The rule is what a saved state holds and loads
back as it was (107.1: the game's numbers are integers, within the bounds
of the saved form; 117.1: what an action is given is what it declares).
The reference kinds, a scenario file's schema of an action kind and the
listing of its fields are read from the same shapes.
"""

from __future__ import annotations

import collections.abc
from typing import Any, ClassVar, Literal

import pytest
from attrs import frozen
from hypothesis import given
from hypothesis import strategies as st
from redzone import (
    Action,
    ActionSpec,
    BadQueryError,
    Engine,
    IllegalActionError,
    Keyword,
    Modification,
    Pump,
    Tx,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel import validate
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.references import ObjectId, PlayerId, reference_fields
from redzone.kernel.shapes import (
    MAX_INT,
    described,
    fields_of,
    first_misfit,
    numeric,
    ref_kind,
    shape_of,
)
from redzone.testing import plugin_module


class Name(str):
    """A ``str`` subclass: a saved state would load it back as a plain ``str``."""


FITS: list[tuple[Any, object, bool]] = [
    (str, "bear", True), (str, Name("bear"), False), (str, 3, False),
    (int, 3, True), (int, True, False), (int, MAX_INT, True), (int, -MAX_INT, True),
    (int, MAX_INT + 1, False), (int, 2.0, False),
    (bool, False, True), (bool, 0, False),
    (type(None), None, True), (type(None), "", False),
    (Literal["a", "b"], "a", True), (Literal["a", "b"], "c", False),
    (Literal[1], True, False),
    (int | None, None, True), (int | None, 4, True), (int | None, "4", False),
    (tuple[str, ...], ("a", "b"), True), (tuple[str, ...], (), True),
    (tuple[str, ...], ("a", 2), False), (tuple[str, ...], ["a"], False),
    (tuple[str, ...], "ab", False),
    (tuple[int, int], (1, 2), True), (tuple[int, int], (1,), False),
    (tuple[int, int], (1, "2"), False),
    (frozenset[str], frozenset({"a"}), True), (frozenset[str], frozenset({1}), False),
    (frozenset[str], ("a",), False),
    (FrozenMap[str, int], FrozenMap({"a": 1}), True),
    (FrozenMap[str, int], FrozenMap({"a": "1"}), False),
    (FrozenMap[str, int], FrozenMap({1: 1}), False), (FrozenMap[str, int], {"a": 1}, False),
    (collections.abc.Mapping[str, int], {"a": 1}, True),
    (Keyword, Keyword("flying"), True), (Keyword, "flying", False),
    (Keyword, Keyword("flying", args=("x", 3)), False),  # type: ignore[arg-type]
    (Any, object(), True), (object, 3, True),
    (ObjectId, "bear", True), (ObjectId, 3, False),
]


@pytest.mark.parametrize(("hint", "value", "fits"), FITS)
def test_107_1_117_1_one_rule_of_what_fits(hint: Any, value: object, fits: bool) -> None:
    """107.1 (a number is an integer, here within the saved form's bounds)
    and 117.1 (what an action is given is what it declares): exact ``str``,
    ``bool`` and ``None``, no ``bool`` for a number, a container's every item
    and a mapping's every key and value, a kernel record's every field."""
    assert shape_of(hint).fits(value) is fits


@pytest.mark.parametrize(("change", "path"), [
    ({"subtypes": ("Bear", 3)}, ".subtypes[1]"),
    ({"types": frozenset({"creature", 7})}, ".types (an item)"),
    ({"modifications": (Modification(power=1), Modification(power="2"))}, ".modifications[1].power"),  # type: ignore[arg-type]  # noqa: E501
    ({"printed_keywords": (Keyword("flying", args=("x", 3)),)},  # type: ignore[arg-type]
     ".printed_keywords[0].args[1]"),
    ({"counters": FrozenMap({"+1/+1": "2"})}, ".counters['+1/+1']"),
    ({"counters": FrozenMap({3: 2})}, ".counters (a key)"),
    ({"controller": Name("alice")}, ".controller"),
])
def test_a_misfit_is_found_where_it_is(change: dict[str, Any], path: str) -> None:
    """117.1: the first value that doesn't fit is named by its path, inside
    containers and the kernel's records a field holds."""
    bear = Engine(discover=False).creature("bear", "alice", 2, 2)
    assert first_misfit(bear) is None
    found = first_misfit(bear.evolve(**change))
    assert found is not None and found[0] == path, found
    assert not found[2].fits(found[1])  # the value named is the one that doesn't fit


def test_a_misfit_is_named_without_running_its_classs_code() -> None:
    """117.1: a set or a map holding a plugin's value whose ``__repr__``
    raises is named by its path, and its value returned, not shown."""

    class Loud(str):
        def __repr__(self) -> str:
            raise RuntimeError("a plugin's repr ran")

    bear = Engine(discover=False).creature("bear", "alice", 2, 2)
    loud = Loud("m")
    assert first_misfit(bear.evolve(marks=frozenset({loud}))) == (
        ".marks (an item)", loud, shape_of(str))
    found = first_misfit(bear.evolve(counters=FrozenMap({loud: 1})))
    assert found is not None and found[:2] == (".counters (a key)", loud)


def test_107_1_a_callers_permanent_with_a_mistyped_item_is_refused() -> None:
    """107.1, 117.1: ``game`` refuses a permanent whose tuple of subtypes
    holds a number, naming the permanent and the item, and the same
    permanent well typed is taken (a state that saves and loads back)."""
    engine = Engine(discover=False)
    bear = engine.creature("bear", "alice", 2, 2)
    with pytest.raises(BadQueryError, match=r"'bear': subtypes\[1\] is 3 \(int\), where a str "
                                            r"was expected") as info:
        engine.game(["alice", "bob"], [bear.evolve(subtypes=("Bear", 3))])
    assert info.value.rule == "117.1"
    state = engine.game(["alice", "bob"], [bear.evolve(subtypes=("Bear", "Beast"))])
    assert state_from_dict(state_to_dict(state)) == state


@frozen
class Relay(Action):
    """A test action kind: its perform function performs a pump of
    ``power`` on ``target`` (what a plugin's trigger would do)."""

    do: ClassVar[str] = "relay"
    target: str
    power: object
    as_name: bool = False


def _relay(tx: Tx, action: Action) -> None:
    assert isinstance(action, Relay)
    target = Name(action.target) if action.as_name else action.target
    tx.perform(Pump(target, power=action.power))  # type: ignore[arg-type]


def _engine() -> Engine:
    relay = plugin_module("relay",
                          redzone_actions=lambda: [ActionSpec(Relay, _relay, "117.1")])
    return Engine(discover=False, plugins=[relay])


@pytest.mark.parametrize("power", ["2", True, MAX_INT + 1, 2.0])
def test_107_1_an_action_is_checked_by_one_rule_whoever_performs_it(power: object) -> None:
    """107.1, 117.1: a pump whose power isn't a whole number within the
    saved form's bounds is refused alike when a caller performs it and when
    a plugin's action performs it, naming the field and what was expected;
    the caller's state is unchanged. (A number past the bounds, performed by
    a plugin, was taken until the state's bounds were checked after it.)"""
    engine = _engine()
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
    before = state_to_dict(state)
    expected = f"where {described(shape_of(int))} was expected"
    with pytest.raises(BadQueryError, match=r"Pump\.power is") as caller:
        engine.perform(state, Pump("bear", power=power))  # type: ignore[arg-type]
    assert expected in caller.value.message and caller.value.rule == "107.1"
    with pytest.raises(IllegalActionError) as plugin:
        engine.perform(state, Relay("bear", power))
    assert f"pump: power is {power!r}" in str(plugin.value) and expected in str(plugin.value)
    assert plugin.value.rule == "107.1"
    assert state_to_dict(state) == before
    assert engine.perform(state, Relay("bear", 2)).state.objects["bear"].power == 4


def test_a_plugins_action_with_a_str_subclass_is_refused_as_a_callers_is() -> None:
    """117.1: an id that is a ``str`` subclass would load back from a saved
    state as another type, so a caller's action and a plugin's are refused
    alike (a plugin's was taken before the two checks were one)."""
    engine = _engine()
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
    with pytest.raises(BadQueryError, match=r"Pump.target is Name\('bear'\) \(Name\), where an id"):
        engine.perform(state, Pump(Name("bear"), power=1))
    with pytest.raises(IllegalActionError,
                       match=r"pump: target is Name\('bear'\) \(Name\), where an id"):
        engine.perform(state, Relay("bear", 1, as_name=True))


def test_reference_kinds_and_schemas_are_read_from_the_shapes() -> None:
    """The reference kinds (looking into unions, tuples and sets, not into
    maps) come from the same reading of the annotations as the checks."""
    assert ref_kind(shape_of(ObjectId)) == "object"
    assert ref_kind(shape_of(tuple[PlayerId, ...])) == "player"
    assert ref_kind(shape_of(PlayerId | None)) == "player"
    assert ref_kind(shape_of(FrozenMap[str, ObjectId])) is None
    assert reference_fields(Pump) == {"target": "object"}
    assert [f.name for f in fields_of(Pump)][:3] == ["target", "power", "toughness"]


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2 * MAX_INT, 2 * MAX_INT),
                     st.text(max_size=3), st.floats(allow_nan=False),
                     st.builds(Name, st.text(max_size=3)))


@given(power=_SCALARS, target=_SCALARS)
def test_an_illegal_action_leaves_the_state_as_it_was(power: object, target: object) -> None:
    """117.1: whatever a pump is given, performing it either is refused
    (the state as it was) or leaves a state that saves and loads back; it is
    refused exactly when the rule of what fits says a field doesn't."""
    engine = _engine()
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
    before = state_to_dict(state)
    fits = shape_of(int).fits(power) and shape_of(str).fits(target)
    try:
        out = engine.perform(state, Pump(target, power=power))  # type: ignore[arg-type]
    except (BadQueryError, IllegalActionError):
        assert state_to_dict(state) == before
        assert not fits or target != "bear"
    else:
        assert fits
        assert state_from_dict(state_to_dict(out.state)) == out.state


def test_validate_names_a_permanents_misfit_by_its_one_wording() -> None:
    """The clause an error says is the one wording (``described``)."""
    bear = Engine(discover=False).creature("bear", "alice", 2, 2)
    problem = validate.misfit(bear.evolve(tapped="no"))
    assert problem == "tapped is 'no' (str), where a bool was expected"


def test_a_subclass_of_str_or_int_is_shown_by_its_value_without_its_code() -> None:
    """An error names a ``str`` or ``int`` subclass by its class and its
    value as the built-in type shows it (``Name('bear')``), never by running
    the subclass's own ``__repr__`` (a plugin's code, which may fail)."""
    import enum

    from redzone.kernel.answers import shown

    class Loud(str):
        def __repr__(self) -> str:
            raise RuntimeError("a plugin's repr ran")

    class Level(enum.IntEnum):
        HIGH = 7

    assert shown(Name("bear")) == "Name('bear')"
    assert shown(Loud("wolf")) == "Loud('wolf')"
    assert shown(Level.HIGH) == "Level(7)"


#: Values a permanent's fields are given, fitting or not: the types a field
#: declares, their near misses (a ``str`` subclass, ``True`` for a number, a
#: number past the bounds) and containers holding one.
_FIELD_VALUES = {
    "name": st.one_of(st.just("Bear"), st.builds(Name, st.just("Bear")), st.just(3)),
    "damage": st.one_of(st.integers(0, 3), st.just(True), st.just(MAX_INT + 1), st.just("1")),
    "tapped": st.one_of(st.booleans(), st.just(0), st.just("no")),
    "subtypes": st.one_of(st.just(("Bear",)), st.just(("Bear", 3)), st.just(())),
    "types": st.one_of(st.just(frozenset({"creature"})), st.just(frozenset({"creature", 7}))),
    "marks": st.one_of(st.just(frozenset()), st.just(frozenset({Name("m")}))),
}


@given(st.fixed_dictionaries({}, optional=_FIELD_VALUES))
def test_107_1_game_takes_a_permanent_exactly_when_its_fields_fit(change: dict[str, Any]
                                                                  ) -> None:
    """107.1, 117.1: ``game`` refuses a permanent a field of which doesn't fit
    (the one rule), naming that field's path; a permanent whose fields all
    fit is taken, and its state saves and loads back equal (what the rule is
    for)."""
    engine = Engine(discover=False)
    try:
        bear = engine.creature("bear", "alice", 2, 2).evolve(**change)
    except (TypeError, ValueError):
        return  # refused as it is made (a converter's check), before game sees it
    found = first_misfit(bear)
    if found is not None:
        with pytest.raises(BadQueryError) as info:
            engine.game(["alice", "bob"], [bear])
        if "past what a state holds" in info.value.message:
            # (game checks its counts' bounds first: 107.1, whatever field fits less)
            assert info.value.rule == "107.1" and "damage" in change
        else:
            assert info.value.rule == ("107.1" if numeric(found[2]) else "117.1")
            assert found[0][1:] in info.value.message
        return
    state = engine.game(["alice", "bob"], [bear])
    assert state_from_dict(state_to_dict(state)) == state
