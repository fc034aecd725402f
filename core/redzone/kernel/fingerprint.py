"""Fingerprints of what hook calls are given, for verify mode.

:func:`fingerprint` writes a value as pickle bytes, reading attrs instances
field by field with C attribute getters (several times faster than attrs'
own ``__getstate__``); ``pickle.loads`` of the bytes is a pristine copy, with
exactly the same field values. :func:`snap` makes a plain, comparable copy of
a small value (cheaper than pickling for the few objects a hook call gets
beside the state). Nothing here writes to a file: the kernel does no I/O.
"""

from __future__ import annotations

import enum
import itertools
import operator
import pickle
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs

from redzone.kernel.frozen import FrozenMap, caches_hash

_PLAIN_VALUES: Final = frozenset({str, int, bool, float, type(None)})


#: ``_NOT_PLAIN(type(value), True)``: whether ``value`` isn't of :data:`_PLAIN_VALUES`
#: (a lookup done in C, for :func:`itertools.compress`).
_NOT_PLAIN: Final = dict.fromkeys(_PLAIN_VALUES, False).get
_TRUE: Final = itertools.repeat(True)
_compress: Final = itertools.compress


def plain_values(values: tuple[Any, ...]) -> bool:
    """Whether ``values`` are immutable builtins (ids, numbers, tuples of
    ids): nothing a call could change, so nothing to fingerprint."""
    for value in values:
        if type(value) in _PLAIN_VALUES:
            continue
        if type(value) is tuple and _PLAIN_VALUES.issuperset(map(type, value)):
            continue
        return False
    return True


#: Builtin types whose instances nothing can change in place (a pickle's
#: memo holds them, and the globals it names: classes and functions).
_IMMUTABLE: Final = frozenset({str, bytes, tuple, frozenset, type, int, float, complex,
                               types.FunctionType, types.BuiltinFunctionType})
#: The kinds :func:`_covered` found covered so far.
_COVERED: set[type] = {FrozenMap, *_IMMUTABLE}


def _covered(kind: type) -> bool:
    """Whether the recorded values see every change of a ``kind`` inside a
    part: immutable builtins and enumeration members can't change, attrs
    instances and read-only maps are recorded field by field."""
    if issubclass(kind, enum.Enum) or _fields(kind) is not None:
        _COVERED.add(kind)
        return True
    return False


_GETTERS: dict[type, tuple[tuple[str, ...], Callable[[Any], Any]] | None] = {}


def _rebuild(cls: type, names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    """An attrs instance with exactly these field values (no converters)."""
    new: Any = object.__new__(cls)
    for name, value in zip(names, values, strict=True):
        object.__setattr__(new, name, value)
    if caches_hash(cls):
        object.__setattr__(new, "_attrs_cached_hash", None)
    return new


def _frozen_map(items: dict[Any, Any]) -> FrozenMap[Any, Any]:
    return FrozenMap(items)


class _Buffer:
    """Where a fingerprint is written (in memory: the kernel does no I/O)."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        return len(data)


class _Fingerprinter(pickle.Pickler):
    """A pickler that writes attrs instances field by field (read with C
    attribute getters: several times faster than attrs' ``__getstate__``)
    and read-only maps by their items."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if cls is FrozenMap:
            return (_frozen_map, (object.__getattribute__(obj, "_items"),))
        entry = _getter(cls)
        if entry is None:
            return NotImplemented
        # Field by field, with or without slots: what a class without slots
        # has cached in its __dict__ (derived values, the hash) is left out.
        return (_rebuild, (cls, entry[0], entry[1](obj)))


def _getter(cls: type) -> tuple[tuple[str, ...], Callable[[Any], Any]] | None:
    if cls in _GETTERS:
        return _GETTERS[cls]
    entry: tuple[tuple[str, ...], Callable[[Any], Any]] | None = None
    if attrs.has(cls):
        names = tuple(f.name for f in attrs.fields(cls))
        getter = operator.attrgetter(*names)
        entry = (names, getter if len(names) > 1 else (lambda o, g=getter: (g(o),)))
    _GETTERS[cls] = entry
    return entry


def snap(value: Any) -> Any:
    """A plain, comparable copy of a (small) value: attrs instances (read
    with C attribute getters), tuples, mappings and sets, field by field."""
    kind = type(value)
    if kind in _PLAIN_VALUES:
        return value
    if isinstance(value, tuple):
        for item in value:
            if type(item) not in _PLAIN_VALUES:
                return (kind, tuple(snap(v) for v in value))
        return (kind, value)
    if isinstance(value, Mapping):
        return (kind, tuple((k, snap(v)) for k, v in value.items()))
    if kind is frozenset or kind is set or kind is list:
        return (kind, tuple(snap(v) for v in value))
    entry = _getter(kind)
    if entry is None:
        return (kind, id(value), repr(value))
    return (kind, snap(entry[1](value)))


#: What :func:`record` and :class:`Parts` do with a value, by its kind
#: (:func:`_kind`): walk its items (a tuple, a frozenset, a named tuple),
#: record a read-only map's dict or an attrs instance's fields, pass over
#: what can't change, or give up (what recorded values can't see change).
_ITEMS_OF, _MAP, _ATTRS, _SAFE, _LOOSE = range(5)
_KINDS: dict[type, int] = {tuple: _ITEMS_OF, frozenset: _ITEMS_OF, FrozenMap: _MAP}


def _kind(kind: type) -> int:
    """What to do with a value of ``kind`` (worked out once per kind, then
    looked up in :data:`_KINDS`): a tuple subclass with no ``__dict__`` (a
    named tuple: events) is walked like a tuple."""
    found = _KINDS.get(kind)
    if found is not None:
        return found
    if issubclass(kind, tuple) and not kind.__dictoffset__:
        found = _ITEMS_OF
    elif _fields(kind) is not None:
        found = _ATTRS
    elif kind in _COVERED or _covered(kind):
        found = _SAFE
    else:
        found = _LOOSE
    _KINDS[kind] = found
    return found


#: What :func:`record` returns: getters, objects and the values they read.
Record = tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]


def record(values: Iterable[Any]) -> Record | None:
    """Every attrs instance and read-only map among ``values`` (and inside
    them, tuples and frozensets included), each with a getter and the
    values it reads, to compare in C (:func:`unchanged`); ``None`` when they
    hold what such values can't see change (a list, a dict, an object of a
    class that isn't attrs, or a value nested too deep to walk): then
    :func:`snap` them instead. A tuple, a map or a record holding only ids
    and numbers is passed over in C."""
    getters: list[Any] = []
    objects: list[Any] = []
    read: list[Any] = []
    try:
        if not _walk(values, getters, objects, read, set()):
            return None
    except RecursionError:
        return None
    return tuple(getters), tuple(objects), tuple(read)


_only_plain: Final = _PLAIN_VALUES.issuperset


def _walk(values: Iterable[Any], getters: list[Any], objects: list[Any], read: list[Any],
          seen: set[int]) -> bool:
    """:func:`record`'s walk of ``values``, appending to its lists; ``False``
    when one holds what recorded values can't see change."""
    for value in values:
        kind = type(value)
        what = _KINDS.get(kind, -1)
        if what < 0:
            what = _kind(kind)
        if what == _ITEMS_OF:
            if not _only_plain(map(type, value)) and not _walk(value, getters, objects,
                                                               read, seen):
                return False
            continue
        if what == _SAFE or kind in _PLAIN_VALUES:
            continue
        if what == _LOOSE:
            return False
        if id(value) in seen:
            continue
        seen.add(id(value))
        if what == _MAP:
            items = _ITEMS(value)
            getters.append(_ITEMS)
            objects.append(value)
            read.append(dict(items))
            vals = items.values()
            if not (_only_plain(map(type, items)) and _only_plain(map(type, vals))) and not (
                    _walk(items, getters, objects, read, seen)
                    and _walk(vals, getters, objects, read, seen)):
                return False
            continue
        names, getter = _FIELDS[kind]  # type: ignore[misc]
        if getter is None:
            continue
        got = getter(value)
        getters.append(getter)
        objects.append(value)
        read.append(got)
        if len(names) == 1:
            got = (got,)
        if not _only_plain(map(type, got)) and not _walk(got, getters, objects, read, seen):
            return False
    return True


#: Arguments :func:`record_reusing` keeps the records of, at most.
_ARGS_KEPT: Final = 64


def record_reusing(values: tuple[Any, ...],
                   kept: dict[int, tuple[Any, Record]]) -> Record | None:
    """:func:`record` of ``values``, value by value, reusing what ``kept``
    (the caller's, by id, values kept alive) recorded of a value given
    before when it still holds those values (compared in C): a batch of
    damage given beside each of its items is walked once, not once per item."""
    found: list[Record] = []
    for value in _compress(values, map(_NOT_PLAIN, map(type, values), _TRUE)):
        hit = kept.get(id(value))
        if hit is not None and unchanged(hit[1]):
            found.append(hit[1])
            continue
        rec = record((value,))
        if rec is None:
            return None
        if len(kept) >= _ARGS_KEPT:
            kept.clear()
        kept[id(value)] = (value, rec)
        found.append(rec)
    if len(found) == 1:
        return found[0]
    return (tuple(_chain_of(map(_FIRST, found))), tuple(_chain_of(map(_SECOND, found))),
            tuple(_chain_of(map(_THIRD, found))))


def unchanged(rec: Record) -> bool:
    """Whether the objects of ``rec`` (:func:`record`) still hold the values
    it read (compared in C)."""
    return tuple(map(operator.call, rec[0], rec[1])) == rec[2]


def fingerprint(value: Any) -> bytes | str:
    """Everything ``value`` holds, as bytes (its ``repr`` when something in
    it can't be pickled)."""
    out = _Buffer()
    try:
        _Fingerprinter(out, pickle.HIGHEST_PROTOCOL).dump(value)
    except Exception:  # something that can't be pickled: compare its repr
        return repr(value)
    return b"".join(out.parts)


# -- parts, recorded once --------------------------------------------------------
#
# A state is its containers (its own fields, the tuples and maps among them)
# and its parts (each value of a map, each item of a tuple, each other field
# value). Consecutive states share almost all their parts, so verify mode
# records a part once, when it is first seen: every attrs instance and map
# inside it with the values of its fields. Comparing those values again later
# is done in C (``map(operator.call, getters, objects)``) and costs no Python
# call. A part's next version (``attrs.evolve``) shares almost everything in
# it with the last, so what a value inside a part records is memoised by
# identity and only new values are walked; a part is pickled only when it
# holds what recorded values can't see change (a list, a dict that is no
# read-only map's, an object of a class that isn't attrs), to fingerprint it
# again later and to rebuild it.

_ITEMS: Final = operator.attrgetter("_items")
_FIRST: Final = operator.itemgetter(0)
_SECOND: Final = operator.itemgetter(1)
_FIELDS: dict[type, tuple[tuple[str, ...], Any] | None] = {}


def _fields(cls: type) -> tuple[tuple[str, ...], Any] | None:
    """``cls``'s field names and a C getter of their values (a value for one
    field, a tuple for several); ``None`` for a class that isn't attrs."""
    if cls in _FIELDS:
        return _FIELDS[cls]
    entry: tuple[tuple[str, ...], Any] | None = None
    if attrs.has(cls):
        names = tuple(f.name for f in attrs.fields(cls))
        entry = (names, operator.attrgetter(*names) if names else None)
    _FIELDS[cls] = entry
    return entry


class _Recorder(_Fingerprinter):
    """A :class:`_Fingerprinter` that also records, for each attrs instance
    and map it writes, a getter, the object and the values read; the ids of
    the maps' dicts; and whether it wrote an object of a kind whose changes
    those values don't cover (:func:`_covered`)."""

    records: list[tuple[Any, Any, Any]]
    maps: set[int]
    odd: bool

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if cls is FrozenMap:
            items = object.__getattribute__(obj, "_items")
            self.records.append((_ITEMS, obj, dict(items)))
            self.maps.add(id(items))
            return (_frozen_map, (items,))
        entry = _fields(cls)
        if entry is None:
            if cls not in _COVERED and not _covered(cls):
                self.odd = True
            return NotImplemented
        names, getter = entry
        if getter is None:
            return (_rebuild, (cls, names, ()))
        value = getter(obj)
        self.records.append((getter, obj, value))
        return (_rebuild, (cls, names, value if len(names) > 1 else (value,)))


#: A part's entry: the part (kept alive, so its id isn't reused), its
#: fingerprint, the getters, objects and values recorded in it, and whether
#: it holds something those values don't cover (:func:`_loose`).
Entry = tuple[Any, "bytes | str | None", tuple[Any, ...], tuple[Any, ...], tuple[Any, ...],
              bool]

#: What a value inside a part records, with everything in it: the value
#: (kept alive, so its id isn't reused), then getters, objects and values.
_Sub = tuple[Any, tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]
_NOTHING: Final[_Sub] = (None, (), (), ())
#: Values :attr:`Parts._memo` holds at most (then it starts again).
_MEMO_SIZE: Final = 4096
#: The containers whose items are walked without a record of their own.
_LEAVES: Final = frozenset({tuple, frozenset})
_THIRD: Final = operator.itemgetter(2)
_FOURTH: Final = operator.itemgetter(3)
_chain_of: Final = itertools.chain.from_iterable


def _remake(kind: type, items: tuple[Any, ...]) -> Any:
    """A tuple of subclass ``kind`` (a named tuple) holding ``items``."""
    make = getattr(kind, "_make", None)
    return make(items) if make is not None else kind.__new__(kind, *items)

def _loose(memo: Any, maps: set[int]) -> bool:
    """Whether a pickle whose memo is ``memo`` (a pickler's, before it is
    cleared), whose read-only maps have the dicts of ids ``maps``, wrote
    something the recorded field values can't see change: a list, set or
    other mutable builtin, an object of another class, or a dict that is no
    read-only map's (found in C but for the few kinds not met before)."""
    written = list(map(_SECOND, memo.copy().values()))
    kinds = set(map(type, written))
    kinds.discard(dict)  # counted below
    if not kinds <= _COVERED and not all(map(_covered, kinds - _COVERED)):
        return True
    return operator.countOf(map(type, written), dict) > len(maps)


_STATE_FIELDS: dict[type, tuple[tuple[str, ...], Any]] = {}


def state_fields(state: Any) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """A state's field names and values (read in C, as a tuple)."""
    cls = type(state)
    entry = _STATE_FIELDS.get(cls)
    if entry is None:
        names = tuple(f.name for f in attrs.fields(cls))
        entry = _STATE_FIELDS[cls] = (names, operator.attrgetter(*names))
    return entry[0], entry[1](state)


class Shallow:
    """A state's containers as they were: its field values (compared by
    identity), and a copy of each of its maps' dicts (compared with ``==``,
    by identity of the values); every part of it is in the table."""

    __slots__ = ("copies", "fields", "maps", "state", "watched")

    def __init__(self, state: Any, fields: tuple[Any, ...],
                 maps: tuple[tuple[int, dict[Any, Any]], ...]) -> None:
        self.state = state
        self.fields = fields
        self.maps = maps
        #: The maps among the fields, and the copies of their dicts.
        self.watched = tuple(fields[i] for i, _ in maps)
        self.copies = tuple(items for _, items in maps)

    def changed(self) -> bool:
        """Whether the state's containers differ from these (in C)."""
        now = state_fields(self.state)[1]
        if not all(map(operator.is_, now, self.fields)):
            return True
        return not all(map(operator.eq, map(_ITEMS, self.watched), self.copies))


class Parts:
    """The parts fingerprinted since the table was last pruned, by id."""

    def __init__(self) -> None:
        self.table: dict[int, Entry] = {}
        #: Parts fingerprinted since the last :meth:`prune`.
        self.new = 0
        self._flat: tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...],
                         tuple[Entry, ...]] | None = None
        #: The containers the table was last pruned to, while nothing was added.
        self._pruned: Shallow | None = None
        self._out: list[bytes] = []
        self._pickler = self._new_pickler()
        #: What each value met inside a part records (itself and everything
        #: in it), by id, kept alive: a value shared by several parts (a
        #: permanent's keywords, its counters, the next version of a part
        #: made by ``attrs.evolve``) is walked once (:meth:`_sub`).
        self._memo: dict[int, _Sub] = {}

    def _new_pickler(self) -> _Recorder:
        # list.append as the file's write: no Python call per write.
        pickler = _Recorder(types.SimpleNamespace(write=self._out.append),
                            pickle.HIGHEST_PROTOCOL)
        pickler.records = []
        pickler.maps = set()
        pickler.odd = False
        return pickler

    def print(self, part: Any) -> Entry:
        """``part``'s entry: what it records (each attrs instance and map in
        it, with its field values); and its fingerprint, when it holds what
        those values can't see change (:func:`_loose`), else ``None``: then
        :meth:`pristine` rebuilds it from the values recorded.

        The values shared with parts walked before are taken from
        :attr:`_memo` and compared, in C, with what they hold now: when one
        differs (something changed it since), the memo is dropped and the
        part walked afresh, so an entry always holds what the part holds
        now, as fingerprinting it whole would."""
        try:
            sub = self._sub(part)
            if sub is not None and sub[1] and tuple(map(operator.call, sub[1], sub[2])) != sub[3]:
                self._memo.clear()
                sub = self._sub(part)
        except RecursionError:  # a value holding itself: the pickler copes
            sub = None
        if sub is None:
            return self._pickled(part)
        return (part, None, sub[1], sub[2], sub[3], False)

    def _sub(self, value: Any) -> _Sub | None:
        """What ``value`` records, with everything in it (memoised by id in
        :attr:`_memo`); ``None`` when it holds what recorded values can't
        see change."""
        kind = type(value)
        what = _KINDS.get(kind)
        if what is None:
            what = _kind(kind)
        if what == _SAFE or kind in _PLAIN_VALUES:
            return _NOTHING
        if what == _LOOSE:
            return None
        own: tuple[Any, ...] = ()
        if what == _ITEMS_OF:
            kids = list(_compress(value, map(_NOT_PLAIN, map(type, value), _TRUE)))
        elif what == _MAP:
            items = _ITEMS(value)
            own = ((_ITEMS, value, dict(items)),)
            vals = items.values()
            kids = [*_compress(items, map(_NOT_PLAIN, map(type, items), _TRUE)),
                    *_compress(vals, map(_NOT_PLAIN, map(type, vals), _TRUE))]
        else:
            names, getter = _FIELDS[kind]  # type: ignore[misc]
            if getter is None:
                return _NOTHING
            got = getter(value)
            own = ((getter, value, got),)
            if len(names) == 1:
                got = (got,)
            kids = list(_compress(got, map(_NOT_PLAIN, map(type, got), _TRUE)))
        memo = self._memo
        subs: list[Any] = list(map(memo.get, map(id, kids)))
        if None in subs:
            missing = list(_compress(kids, map(operator.not_, subs)))
            if _LEAVES.issuperset(map(type, missing)) and _PLAIN_VALUES.issuperset(
                    map(type, _chain_of(missing))):
                # Tuples and sets of ids only (a map of blocks, a permanent's
                # types): nothing in them to record, found in C.
                subs = list(_compress(subs, subs))
            else:
                for i, found in enumerate(subs):
                    if found is None:
                        found = self._sub(kids[i])
                        if found is None:
                            return None
                        subs[i] = found
        if own:
            subs.append((None, (own[0][0],), (value,), (own[0][2],)))
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        sub = memo[id(value)] = (
            value,
            tuple(_chain_of(map(_SECOND, subs))),
            tuple(_chain_of(map(_THIRD, subs))),
            tuple(_chain_of(map(_FOURTH, subs))))
        return sub

    def restore(self, entry: Entry) -> Any:
        """A copy of the part of ``entry`` (one :meth:`print` made without a
        fingerprint) holding the values it records: each attrs instance and
        map in it rebuilt from them, tuples rebuilt around their rebuilt
        items, sharing kept."""
        read = dict(zip(map(id, entry[3]), entry[4], strict=True))
        done: dict[int, Any] = {}

        def build(value: Any) -> Any:
            kind = type(value)
            if kind in _PLAIN_VALUES:
                return value
            key = id(value)
            if key in done:
                return done[key]
            what = _KINDS.get(kind)
            new = value
            if what == _ITEMS_OF:
                items = tuple(map(build, value))
                new = items if kind is tuple else (
                    frozenset(items) if kind is frozenset else _remake(kind, items))
            elif what == _MAP and key in read:
                new = FrozenMap._wrap({build(k): build(v) for k, v in read[key].items()})
            elif what == _ATTRS and key in read:
                names = _FIELDS[kind][0]  # type: ignore[index]
                got = read[key]
                new = _rebuild(kind, names, tuple(map(build, got if len(names) > 1 else (got,))))
            done[key] = new
            return new

        return build(entry[0])

    def _pickled(self, part: Any) -> Entry:
        """``part``'s entry, with its fingerprint: what it records, read as
        it is pickled, and whether it holds what those values can't see
        change (:func:`_loose`)."""
        out = self._out
        out.clear()
        pickler = self._pickler
        records: list[tuple[Any, Any, Any]] = []
        pickler.records = records
        maps: set[int] = set()
        pickler.maps = maps
        pickler.odd = False
        getters: tuple[Any, ...] = ()
        objects: tuple[Any, ...] = ()
        values: tuple[Any, ...] = ()
        try:
            pickler.dump(part)
            data = b"".join(out)
            fingerprint: bytes | str = data
            if records:
                getters, objects, values = zip(*records, strict=True)
            # A mutable builtin writes its opcode (a list "]", a set "\x8f",
            # a bytearray "\x96", a dict "}"): without one, or with no more
            # dicts than maps, there is none; the bytes may also hold them as
            # data, and then the memo says.
            loose = pickler.odd or (
                (b"]" in data or b"\x8f" in data or b"\x96" in data
                 or data.count(b"}") > len(maps)) and _loose(pickler.memo, maps))
            pickler.clear_memo()
        except Exception:  # something that can't be pickled: compare its repr
            fingerprint = repr(part)
            loose = True
            self._pickler = self._new_pickler()
        out.clear()
        return (part, fingerprint, getters, objects, values, loose)

    def add(self, values: Any) -> None:
        """Fingerprint the parts among ``values`` (a sized iterable, read
        twice) not in the table yet; finding them is done in C."""
        table = self.table
        by_id = dict(zip(map(id, values), values, strict=True))
        fresh = by_id.keys() - table.keys()
        if not fresh:
            return
        for key in fresh:
            table[key] = self.print(by_id[key])
        self.new += len(fresh)
        self._flat = self._pruned = None

    def add_map(self, items: dict[Any, Any], before: dict[Any, Any] | None) -> None:
        """:meth:`add` of a map's values, each new one recorded against the
        value it replaced under the same key in ``before`` (the last watched
        state's copy of the map) when that one is in the table
        (:meth:`next_version`)."""
        table = self.table
        fresh = set(map(id, items.values())) - table.keys()
        if not fresh:
            return
        for key, part in items.items():
            if id(part) in fresh:
                last = table.get(id(before.get(key))) if before is not None else None
                table[id(part)] = (self.print(part) if last is None
                                   else self.next_version(part, last))
        self.new += len(fresh)
        self._flat = self._pruned = None

    def next_version(self, part: Any, last: Entry) -> Entry:
        """``part``'s entry, made from ``last``'s (the entry of the part it
        replaced, in the table) when ``part`` is an attrs instance of the
        same class whose fields not holding an id or a number are the very
        objects ``last``'s held (a creature tapped, dealt damage, moved):
        only ``part``'s own fields are read; what is inside them was
        recorded with ``last`` and is compared with it, so a change made to
        it since is found all the same. Else :meth:`print`.

        (An entry ends with its part's own record: :meth:`_sub` appends it
        after what is inside.)"""
        kind = type(part)
        known = _FIELDS.get(kind)
        getters, objects, values = last[2], last[3], last[4]
        if (known is None or last[1] is not None or not getters
                or len(known[0]) < 2 or objects[-1] is not last[0]
                or getters[-1] is not known[1]):
            return self.print(part)
        got = known[1](part)
        new = list(_compress(got, map(operator.is_not, got, values[-1])))
        if not _PLAIN_VALUES.issuperset(map(type, new)):
            return self.print(part)
        return (part, None, getters, (*objects[:-1], part), (*values[:-1], got), False)

    def watch(self, state: Any, last: Shallow | None) -> Shallow:
        """Add the parts of ``state`` (skipping the containers it shares with
        ``last``, whose parts are in the table) and return its containers.
        A new value in one of its maps is recorded against the value under
        the same key in ``last`` when that one's entry is in the table
        (:meth:`next_version`)."""
        fields = state_fields(state)[1]
        copies: dict[int, dict[Any, Any]] = {}
        maps: list[tuple[int, dict[Any, Any]]] = []
        changed: Iterable[int] = range(len(fields))
        if last is not None and type(last.state) is type(state):
            copies = dict(last.maps)
            same = last.fields
            # the fields that aren't the last state's (found in C); the maps
            # it shares are taken as they were copied
            changed = list(_compress(changed, map(operator.is_not, fields, same)))
            maps = [(i, items) for i, items in last.maps if fields[i] is same[i]]
        loose: list[Any] = []
        for i in changed:
            value = fields[i]
            kind = type(value)
            if kind is FrozenMap:
                items = _ITEMS(value)
                maps.append((i, dict(items)))
                self.add_map(items, copies.get(i))
            elif kind is tuple:
                self.add(value)
            else:
                loose.append(value)
        if loose:
            self.add(loose)
        return Shallow(state, fields, tuple(maps))

    def values_of(self, shallow: Shallow) -> list[Any]:
        """Every part of the state ``shallow`` describes (as it was)."""
        out: list[Any] = []
        maps = dict(shallow.maps)
        for i, value in enumerate(shallow.fields):
            if i in maps:
                out.extend(maps[i].values())
            elif type(value) is tuple:
                out.extend(value)
            else:
                out.append(value)
        return out

    def prune(self, keep: Shallow | None) -> None:
        """Keep only the parts of the state ``keep`` describes (nothing to do
        when the table was pruned to them last and nothing was added since)."""
        self.new = 0
        if keep is not None and keep is self._pruned:
            return
        if keep is None:
            self.table = {}
        else:
            ids = set(map(id, self.values_of(keep)))
            table = self.table
            self.table = dict(zip(ids, map(table.__getitem__, ids), strict=True))
        self._flat = None
        self._pruned = keep

    def changed(self, deep: bool = False, records: bool = True) -> Any:
        """A part whose content differs from its fingerprint, or ``None``.
        The recorded field values are compared, in C (``records``); ``deep``: the parts
        holding something those values don't cover (a list, an object of a
        class that isn't attrs: :func:`_loose`) are fingerprinted again too.
        A part recorded whole sees every change the fingerprint would: a
        field given a new object holds one unequal to the old, kept alive,
        unless the two are equal, and then the new one's later changes make
        it unequal."""
        table = self.table
        if not table or not (records or deep):
            return None
        flat = self._flat
        if flat is None:
            entries = table.values()
            flat = self._flat = (
                tuple(itertools.chain.from_iterable(map(operator.itemgetter(2), entries))),
                tuple(itertools.chain.from_iterable(map(operator.itemgetter(3), entries))),
                tuple(itertools.chain.from_iterable(map(operator.itemgetter(4), entries))),
                tuple(entry for entry in entries if entry[5]))
        if records and tuple(map(operator.call, flat[0], flat[1])) != flat[2]:
            for entry in table.values():
                if tuple(map(operator.call, entry[2], entry[3])) != entry[4]:
                    return entry[0]
        if deep:
            for entry in flat[3]:
                if self._pickled(entry[0])[1] != entry[1]:
                    return entry[0]
        return None

    def differing(self) -> list[Any]:
        """Every part whose recorded values differ from what it holds now
        (a change to a value several versions of a part share shows in each:
        the calls given any of them may have made it)."""
        return [entry[0] for entry in self.table.values()
                if entry[1] is None and tuple(map(operator.call, entry[2], entry[3])) != entry[4]]

    def pristine(self, part: Any) -> Any:
        """A copy of ``part`` as it was recorded (:meth:`restore`) or
        fingerprinted (``part`` itself when it was compared by its repr)."""
        entry = self.table[id(part)]
        fingerprint = entry[1]
        if fingerprint is None:
            return self.restore(entry)
        return pickle.loads(fingerprint) if isinstance(fingerprint, bytes) else part

    def rebuild(self, shallow: Shallow) -> Any:
        """A pristine copy of the state ``shallow`` describes: its containers
        as recorded, each part rebuilt from its fingerprint."""
        state = shallow.state
        names = state_fields(state)[0]
        maps = dict(shallow.maps)
        values: list[Any] = []
        for i, value in enumerate(shallow.fields):
            if i in maps:
                values.append(FrozenMap._wrap(
                    {k: self.pristine(v) for k, v in maps[i].items()}))
            elif type(value) is tuple:
                values.append(tuple(self.pristine(v) for v in value))
            else:
                values.append(self.pristine(value))
        return _rebuild(type(state), names, tuple(values))


def holds(state: Any, part: Any) -> bool:
    """Whether ``part`` is one of ``state``'s parts."""
    for value in state_fields(state)[1]:
        if value is part:
            return True
        if type(value) is FrozenMap:
            if any(v is part for v in _ITEMS(value).values()):
                return True
        elif type(value) is tuple and any(v is part for v in value):
            return True
    return False


def swap(state: Any, part: Any, new: Any) -> Any:
    """A copy of ``state`` with ``new`` where ``part`` was (containers
    rebuilt, every other part shared)."""
    names, fields = state_fields(state)
    values: list[Any] = []
    for value in fields:
        if value is part:
            value = new
        elif type(value) is FrozenMap:
            items = _ITEMS(value)
            if any(v is part for v in items.values()):
                value = FrozenMap._wrap({k: new if v is part else v for k, v in items.items()})
        elif type(value) is tuple and any(v is part for v in value):
            value = tuple(new if v is part else v for v in value)
        values.append(value)
    return _rebuild(type(state), names, tuple(values))
