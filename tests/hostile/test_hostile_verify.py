"""Verify mode's shortcuts still catch a plugin that changes what it is
given (guarantee 10): parts are compared by the field values recorded when
they were first seen, after each notification too (fingerprinted again only
when they hold what those values can't see); the arguments beside the state
are recorded once per hook call and compared in C after each
implementation."""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs
import pytest
from hostile_kit import board, combat, hostile
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Damage, Engine, GameState, PluginError, SourceAssignment
from redzone.kernel import fingerprint as fp
from redzone.kernel.frozen import FrozenMap


def _items(value: FrozenMap[Any, Any]) -> dict[Any, Any]:
    """A read-only map's private dict (what a hostile plugin reaches into)."""
    items: dict[Any, Any] = object.__getattribute__(value, "_items")
    return items


def test_a_change_deep_inside_a_permanent_in_a_notification_is_named() -> None:
    """Guarantee 10: a notification that writes into a permanent's counters
    (a map inside a part, never fingerprinted again after the notification:
    its recorded values are compared) fails naming the plugin and the hook."""
    def redzone_damage_event(state: GameState, damage: tuple[Damage, ...]) -> None:
        _items(state.objects["ogre"].counters)["+1/+1"] = 5

    engine = Engine(plugins=[hostile("counter-writer",
                                     redzone_damage_event=redzone_damage_event)], verify=True)
    start = engine.game(["alice", "bob"], [  # the ogre's own map (an empty one is shared)
        engine.creature("ogre", "alice", 6, 6, "trample", counters={"+1/+1": 1}),
        engine.creature("wall", "bob", 0, 2)])
    with pytest.raises(PluginError) as info:
        combat(engine, start)
    assert (info.value.plugin, info.value.hook) == ("counter-writer", "redzone_damage_event")
    assert "changed the state" in str(info.value)


def test_a_change_inside_an_argument_beside_the_state_is_named() -> None:
    """Guarantee 10: the assignment a query is given (recorded once for the
    hook call, compared in C after each implementation) rewritten fails
    naming the plugin and the hook."""
    def redzone_assignment_violations(state: GameState,
                                      assignment: SourceAssignment) -> None:
        object.__setattr__(assignment, "power", 0)

    plugin = hostile("amount-writer",
                     redzone_assignment_violations=redzone_assignment_violations)
    engine = Engine(plugins=[plugin], verify=True)
    with pytest.raises(PluginError) as info:
        combat(engine, board(engine))
    assert (info.value.plugin, info.value.hook) == ("amount-writer",
                                                    "redzone_assignment_violations")
    assert "changed the objects it was given" in str(info.value)


@attrs.frozen
class _Box:
    """A frozen record, as the model's are."""

    value: Any
    inner: Any = None


def test_a_part_holding_a_list_is_fingerprinted_again_and_others_compared_in_c() -> None:
    """Guarantee 10's shortcut: a part is fingerprinted again only when it
    holds what its recorded field values can't see change (a list, a dict
    that is no read-only map's, an object of a class that isn't attrs); a
    change inside it is found then, and one in any other part by the
    recorded values."""
    parts = fp.Parts()
    loose = _Box([1, 2])
    mapped = _Box(FrozenMap({"a": _Box(1)}))
    odd = _Box(type("Plain", (), {})())
    for part in (loose, mapped, odd, _Box({"k": 1}), _Box((1, [2]))):
        parts.add([part])
    flags = {key: entry[5] for key, entry in parts.table.items()}
    assert flags[id(loose)] and flags[id(odd)] and not flags[id(mapped)]
    assert not parts.print(_Box("]}\x8f", inner=(FrozenMap({}),)))[5]  # opcodes as data
    assert parts.changed(deep=True) is None
    loose.value.append(3)  # in place: the recorded value is the same list
    assert parts.changed(deep=False) is None
    assert parts.changed(deep=True) is loose
    loose.value.pop()
    object.__setattr__(_items(mapped.value)["a"], "value", 2)
    assert parts.changed(deep=False) is mapped


def test_arguments_holding_what_records_cant_see_are_snapped() -> None:
    """Guarantee 10's shortcut for arguments beside the state: frozen data
    (attrs records, read-only maps, tuples and named tuples) is recorded and
    compared in C; a list, a dict or an object of another class makes
    :func:`~redzone.kernel.fingerprint.record` refuse, and the arguments are
    snapped and compared whole instead."""
    box = _Box(FrozenMap({"a": _Box(1)}), inner=(_Box(2),))
    rec = fp.record((box, "id", 3))
    assert rec is not None and fp.unchanged(rec)
    object.__setattr__(box.inner[0], "value", 5)
    assert not fp.unchanged(rec)
    for holds in ([1], {"a": 1}, {1}, type("Plain", (), {})(), (1, [2])):
        assert fp.record((_Box(holds),)) is None


class _Pair(NamedTuple):
    """A named tuple, as events are."""

    first: Any
    second: Any


#: The containers a value can sit in inside a part, outermost first.
_WRAPS = {
    "record": lambda inner: _Box(inner),
    "map": lambda inner: FrozenMap({"k": inner}),
    "tuple": lambda inner: (1, inner),
    "named": lambda inner: _Pair("x", inner),
    "set": lambda inner: frozenset({inner}),
}


def _nest(path: list[str]) -> tuple[Any, list[Any]]:
    """A value wrapped in the containers of ``path`` around a record, and
    every container from the innermost record out."""
    value: Any = _Box(1)
    levels = [value]
    for kind in reversed(path):
        value = _WRAPS[kind](value)
        levels.append(value)
    return value, levels


def _mutate(level: Any) -> bool:
    """Change ``level`` in place as a hostile plugin would (a record's field,
    a map's private dict); ``False`` for what can't be changed (a tuple)."""
    if isinstance(level, _Box):
        object.__setattr__(level, "inner", "changed")
    elif isinstance(level, FrozenMap):
        _items(level)["new"] = 1
    else:
        return False
    return True


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(path=st.lists(st.sampled_from(sorted(_WRAPS)), max_size=5), depth=st.integers(0, 5),
       shared=st.booleans())
def test_a_change_at_any_depth_of_a_part_is_found(path: list[str], depth: int,
                                                  shared: bool) -> None:
    """Guarantee 10's shortcut: a part is recorded by walking it, a value
    shared with a part walked before taken from the memo; a change at any
    depth (a record's field, a map's dict, inside tuples, named tuples and
    frozensets) is found by the recorded values, and the part restored from
    them is the part as it was."""
    nested, levels = _nest(path)
    parts = fp.Parts()
    if shared:  # another part holds the same value first: this one reuses it
        parts.add([_Box(nested, inner="other")])
    part = _Box(nested)
    parts.add([part])
    before = fp.fingerprint(part)
    assert parts.changed(deep=True) is None
    assert fp.fingerprint(parts.pristine(part)) == before
    level = levels[min(depth, len(levels) - 1)]
    if not _mutate(level):
        return
    found = parts.changed(deep=False)  # this part, or the one sharing the value
    assert found is part or (shared and found is not None)
    assert fp.fingerprint(parts.pristine(part)) == before
    assert fp.fingerprint(part) != before


def test_a_value_changed_while_no_part_held_it_is_recorded_afresh() -> None:
    """A value met in a part dropped from the table, then changed (not by a
    hook call: nothing watched it), is recorded as it is now when a new part
    holds it: the memo of values already walked never reports a change it
    didn't see, nor hides one made after."""
    nested, levels = _nest(["map", "record"])
    parts = fp.Parts()
    parts.add([_Box(nested)])
    parts.prune(None)
    _mutate(levels[0])
    part = _Box(nested)
    parts.add([part])
    assert parts.changed(deep=False) is None
    assert fp.fingerprint(parts.pristine(part)) == fp.fingerprint(part)
    _mutate(levels[1])
    assert parts.changed(deep=False) is part


def test_an_argument_given_again_reuses_its_record_only_while_unchanged() -> None:
    """The batch of damage given beside each of its items is recorded once
    and reused: a change inside it after is still found; one made between
    two calls (nothing watched it then) is recorded afresh, not reported."""
    kept: dict[int, Any] = {}
    batch = (_Box(1), _Box(FrozenMap({"a": _Box(2)})))
    first = fp.record_reusing((batch[0], batch, "step"), kept)
    assert first is not None and fp.unchanged(first)
    second = fp.record_reusing((batch[1], batch, "step"), kept)
    assert second is not None and fp.unchanged(second)
    object.__setattr__(_items(batch[1].value)["a"], "value", 3)
    assert not fp.unchanged(second)
    again = fp.record_reusing((batch[0], batch, "step"), kept)
    assert again is not None and fp.unchanged(again)
    assert fp.record_reusing((batch[0], [1]), kept) is None


@attrs.frozen
class _State:
    """A state's shape as verify mode sees it: a map of parts."""

    objects: Any
    step: str = "declare_attackers"


def test_a_new_version_of_a_part_recorded_against_the_last_still_sees_changes() -> None:
    """Guarantee 10's shortcut for a new version of a part (a creature
    tapped or dealt damage: only ids and numbers differ): only its own
    fields are read, what is inside them was recorded with the version it
    replaced; a change inside made after either was recorded is found, and
    the part restored from the records is the part as it was."""
    old = _Box(FrozenMap({"+1/+1": _Box(1)}), inner=0)
    parts = fp.Parts()
    first = _State(FrozenMap({"ogre": old}))
    shallow = parts.watch(first, None)
    new = attrs.evolve(old, inner=3)  # an id or number changed: the shortcut
    second = _State(FrozenMap({"ogre": new}))
    shallow = parts.watch(second, shallow)
    entry = parts.table[id(new)]
    assert entry[3][-1] is new and entry[4][-1] == (old.value, 3)
    assert parts.changed(deep=True) is None
    before = fp.fingerprint(new)
    object.__setattr__(_items(new.value)["+1/+1"], "value", 2)
    assert parts.changed(deep=False) in (old, new)
    assert fp.fingerprint(parts.pristine(new)) == before
    object.__setattr__(_items(new.value)["+1/+1"], "value", 1)
    object.__setattr__(new, "inner", 4)  # the new version's own field
    assert parts.changed(deep=False) is new
    assert fp.fingerprint(parts.pristine(new)) == before
    other = attrs.evolve(new, value=FrozenMap())  # a held object replaced: walked whole
    parts.watch(_State(FrozenMap({"ogre": other})), shallow)
    assert len(parts.table[id(other)][3]) == 2  # itself and its map, none of new's


def test_a_plugin_changing_a_damaged_creatures_counters_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantee 10: a creature's next version (dealt damage, recorded
    against the version the plugin was asked about before) whose counters a
    notification writes into fails naming the plugin and the hook."""
    shortcut = fp.Parts.next_version
    versions: list[Any] = []

    def next_version(self: fp.Parts, part: Any, last: Any) -> Any:
        entry = shortcut(self, part, last)
        if entry[3][:-1] == last[3][:-1]:  # recorded against the last
            versions.append(part)
        return entry

    monkeypatch.setattr(fp.Parts, "next_version", next_version)

    def redzone_damage_event(state: GameState, damage: tuple[Damage, ...]) -> None:
        _items(state.objects["ogre"].counters)["+1/+1"] = 5

    def redzone_assignment_violations(state: GameState,
                                      assignment: SourceAssignment) -> None:
        return None  # asked about the state before damage: the ogre's last version

    engine = Engine(plugins=[hostile(
        "damaged-writer", redzone_damage_event=redzone_damage_event,
        redzone_assignment_violations=redzone_assignment_violations)], verify=True)
    start = engine.game(["alice", "bob"], [
        engine.creature("ogre", "alice", 6, 6, counters={"+1/+1": 1}),
        engine.creature("wall", "bob", 2, 2)])
    with pytest.raises(PluginError) as info:
        combat(engine, start)
    assert (info.value.plugin, info.value.hook) == ("damaged-writer", "redzone_damage_event")
    assert "changed the state" in str(info.value)
    assert any(getattr(part, "id", None) == "ogre" and part.damage == 2 for part in versions)


def test_a_container_shared_with_the_last_commands_state_is_still_compared() -> None:
    """Guarantee 10: the first state a command's hook calls get is watched
    against the last state the previous command's calls got (its parts
    are still recorded); a map the two share, taken as it was compared
    last, written into by a plugin fails naming the plugin and the hook."""
    def redzone_assignment_violations(state: GameState,
                                      assignment: SourceAssignment) -> None:
        _items(state.players)["mallory"] = state.players["bob"]

    def redzone_block_requirements(state: GameState) -> None:
        return None  # asked during declare blockers: that command's calls watch a state

    engine = Engine(plugins=[hostile(
        "players-writer", redzone_assignment_violations=redzone_assignment_violations,
        redzone_block_requirements=redzone_block_requirements)], verify=True)
    with pytest.raises(PluginError) as info:
        combat(engine, board(engine))
    assert (info.value.plugin, info.value.hook) == ("players-writer",
                                                    "redzone_assignment_violations")
    assert "changed the state" in str(info.value)


def test_arguments_passed_over_in_c_still_see_a_change() -> None:
    """Guarantee 10's shortcut for arguments beside the state: a record, a
    map or a tuple holding only ids and numbers is recorded without walking
    its items (checked in C); a change to any of them is still found, and a
    value nested too deep to walk is snapped instead (recorded as ``None``)."""
    amounts = FrozenMap({"wall": 2, "bob": 4})
    box = _Box(amounts, inner=("wall", 3))
    rec = fp.record((box, _Box(1), "step"))
    assert rec is not None and fp.unchanged(rec)
    assert rec[1][:2] == (box, amounts) and len(rec[1]) == 3  # the tuple has no record
    _items(amounts)["wall"] = 6
    assert not fp.unchanged(rec)
    deep: Any = _Box(1)
    for _ in range(5000):
        deep = _Box(deep)
    assert fp.record((deep,)) is None


def test_a_table_pruned_again_to_the_same_state_still_sees_changes() -> None:
    """Pruning the table to the state it was pruned to last, nothing added
    since (a command starting right after the last returned), keeps it as
    it is; a change made after is still found, and a part added since is
    pruned away as before."""
    part = _Box(FrozenMap({"a": _Box(1)}))
    parts = fp.Parts()
    shallow = parts.watch(_State(FrozenMap({"ogre": part})), None)
    parts.prune(shallow)
    table, kept = parts.table, set(parts.table)
    parts.prune(shallow)
    assert parts.table is table and parts.changed(deep=True) is None
    object.__setattr__(_items(part.value)["a"], "value", 2)
    assert parts.changed(deep=False) is part
    extra = _Box(3)
    parts.add([extra])
    parts.prune(shallow)
    assert set(parts.table) == kept
