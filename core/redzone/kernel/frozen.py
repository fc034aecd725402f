"""An immutable mapping for the game state.

:class:`FrozenMap` is a :class:`dict` whose mutating methods raise
:class:`TypeError`. Lookups stay as fast as a plain dict's, and a plugin that
tries to change the state it was handed fails loudly instead of corrupting it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, TypeVar, overload

K = TypeVar("K")
T = TypeVar("T")
V = TypeVar("V")


class FrozenMap(dict[K, V]):
    """A read-only :class:`dict`.

    Build a changed copy with :meth:`set`, :meth:`without` or :meth:`merge`;
    the original is never modified.
    """

    __slots__ = ("_hash",)

    def _readonly(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        raise TypeError(
            "redzone state is immutable: build a new state (attrs.evolve, "
            "FrozenMap.set/merge) instead of changing this one"
        )

    __setitem__ = _readonly
    __setattr__ = _readonly
    __delitem__ = _readonly
    __ior__ = _readonly
    clear = _readonly
    pop = _readonly
    popitem = _readonly
    setdefault = _readonly
    update = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash  # type: ignore[attr-defined,no-any-return]
        except AttributeError:
            value = hash(frozenset(self.items()))
            object.__setattr__(self, "_hash", value)
            return value

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


# ---------------------------------------------------------------------------
# A fast attrs.evolve
# ---------------------------------------------------------------------------

_MISSING: Any = object()
_EVOLVERS: dict[type, Any] = {}


def evolve(inst: T, /, **changes: Any) -> T:
    """:func:`attrs.evolve`, fast: fields that don't change are copied as
    they are (their converters already ran when ``inst`` was built), changed
    ones go through their converter, and cached properties are left to be
    recomputed on the copy.

    Classes with validators, ``__attrs_post_init__``, non-``init`` fields or
    ``Converter`` objects fall back to :func:`attrs.evolve`.
    """
    cls = inst.__class__
    fn = _EVOLVERS.get(cls)
    if fn is None:
        fn = _EVOLVERS[cls] = _make_evolver(cls)
    return fn(inst, changes)  # type: ignore[no-any-return]


def _make_evolver(cls: type) -> Any:
    import attrs

    fields = attrs.fields(cls)
    if (hasattr(cls, "__attrs_post_init__") or hasattr(cls, "__attrs_pre_init__")
            or "__slots__" not in cls.__dict__
            or any(f.validator is not None or not f.init or f.alias != f.name
                   or isinstance(f.converter, attrs.Converter) for f in fields)):
        def slow(inst: Any, changes: dict[str, Any]) -> Any:
            return attrs.evolve(inst, **changes)
        return slow
    names = [f.name for f in fields]
    converters = {f.name: f.converter for f in fields if f.converter is not None}
    ns: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": cls,
                          "_conv": converters, "_names": frozenset(names)}
    lines = ["def evolve(self, changes):", "    new = _new(_cls)"]
    lines += [f"    _set(new, {n!r}, self.{n})" for n in names]
    if any("_attrs_cached_hash" in getattr(c, "__slots__", ()) for c in cls.__mro__):
        lines.append("    _set(new, '_attrs_cached_hash', None)")  # cache_hash=True
    carry = getattr(cls, "__evolve_carry__", {})
    for i, (cached, deps) in enumerate(carry.items()):
        # Keep a cached property whose inputs don't change (when computed).
        ns[f"_d{i}"] = cls.__dict__[cached]  # its slot's member descriptor
        cond = " and ".join(f"{d!r} not in changes" for d in deps) or "True"
        lines.append(f"    if {cond}:")
        lines.append("        try:")
        lines.append(f"            _set(new, {cached!r}, _d{i}.__get__(self, _cls))")
        lines.append("        except AttributeError:")
        lines.append("            pass")
    lines += [
        "    for name, value in changes.items():",
        "        if name not in _names:",
        "            raise TypeError(f'{_cls.__name__}.evolve() got an unexpected argument "
        "{name!r}')",
        "        conv = _conv.get(name)",
        "        _set(new, name, value if conv is None else conv(value))",
        "    return new",
    ]
    exec("\n".join(lines), ns)
    return ns["evolve"]
