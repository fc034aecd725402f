"""Fingerprints of what hook calls are given, for verify mode.

:func:`fingerprint` writes a value as pickle bytes, reading attrs instances
field by field with C attribute getters (several times faster than attrs'
own ``__getstate__``); ``pickle.loads`` of the bytes is a pristine copy, with
exactly the same field values. :func:`snap` makes a plain, comparable copy of
a small value (cheaper than pickling for the few objects a hook call gets
beside the state). Nothing here writes to a file: the kernel does no I/O.
"""

from __future__ import annotations

import operator
import pickle
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from redzone.kernel.frozen import FrozenMap, caches_hash

_PLAIN_VALUES: Final = frozenset({str, int, bool, type(None)})


def plain_values(values: tuple[Any, ...]) -> bool:
    """Whether ``values`` are immutable builtins (ids, numbers, tuples of
    ids): nothing a call could change, so nothing to fingerprint."""
    for value in values:
        if type(value) in _PLAIN_VALUES:
            continue
        if type(value) is tuple and all(type(v) in _PLAIN_VALUES for v in value):
            continue
        return False
    return True


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


def fingerprint(value: Any) -> bytes | str:
    """Everything ``value`` holds, as bytes (its ``repr`` when something in
    it can't be pickled)."""
    out = _Buffer()
    try:
        _Fingerprinter(out, pickle.HIGHEST_PROTOCOL).dump(value)
    except Exception:  # something that can't be pickled: compare its repr
        return repr(value)
    return b"".join(out.parts)
