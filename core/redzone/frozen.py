"""An immutable mapping for the game state.

:class:`FrozenMap` is a :class:`dict` whose mutating methods raise
:class:`TypeError`. Lookups stay as fast as a plain dict's, and a plugin that
tries to change the state it was handed fails loudly instead of corrupting it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(dict[K, V]):
    """A read-only :class:`dict`.

    Build a changed copy with :meth:`set`, :meth:`without` or :meth:`merge`;
    the original is never modified.
    """

    __slots__ = ()

    def _readonly(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        raise TypeError(
            "redzone state is immutable: build a new state (attrs.evolve, "
            "FrozenMap.set/merge) instead of changing this one"
        )

    __setitem__ = _readonly
    __delitem__ = _readonly
    __ior__ = _readonly
    clear = _readonly
    pop = _readonly
    popitem = _readonly
    setdefault = _readonly
    update = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __copy__(self) -> FrozenMap[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap[K, V]:
        return self

    def set(self, key: K, value: V) -> FrozenMap[K, V]:
        """Return a copy with ``key`` bound to ``value``."""
        new = dict(self)
        new[key] = value
        return FrozenMap(new)

    def merge(self, changes: Mapping[K, V]) -> FrozenMap[K, V]:
        """Return a copy with every binding of ``changes`` applied (one copy)."""
        if not changes:
            return self
        new = dict(self)
        new.update(changes)
        return FrozenMap(new)

    def without(self, key: K) -> FrozenMap[K, V]:
        """Return a copy without ``key`` (no error when it is absent)."""
        if key not in self:
            return self
        new = dict(self)
        del new[key]
        return FrozenMap(new)


@overload
def freeze(items: Mapping[K, V]) -> FrozenMap[K, V]: ...
@overload
def freeze(items: Iterable[tuple[K, V]]) -> FrozenMap[K, V]: ...
def freeze(items: Any) -> Any:
    """Build a :class:`FrozenMap`; an existing one is returned as it is."""
    if isinstance(items, FrozenMap):
        return items
    return FrozenMap(items)


EMPTY: FrozenMap[Any, Any] = FrozenMap()


def as_tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    """attrs converter: any iterable to a tuple."""
    return value if isinstance(value, tuple) else tuple(value)


def as_map(value: Any) -> FrozenMap[Any, Any]:
    """attrs converter: a mapping or pairs to a :class:`FrozenMap`."""
    return value if isinstance(value, FrozenMap) else FrozenMap(value)
