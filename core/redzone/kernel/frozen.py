"""An immutable mapping for the game state.

:class:`FrozenMap` is a read-only :class:`~collections.abc.Mapping` over a
private :class:`dict`. It is not a ``dict`` subclass, so ``dict.__setitem__``,
``dict.update`` and the other ``dict`` methods can't be applied to it, its
``__init__`` can't be run a second time, and its attributes can't be set.
Lookups cost one Python call more than a plain dict's; the kernel's hot
loops read a map's private ``_items`` directly (never writing to it). A
plugin that tries to change the state it was handed fails loudly instead of corrupting it; what
Python can't stop (``object.__setattr__`` on a frozen attrs instance, or
reaching into the private dict) the engine's verify mode detects.
"""

from __future__ import annotations

import linecache
import threading
from abc import ABCMeta
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from typing import TYPE_CHECKING, Any, Generic, NoReturn, Self, TypeVar, overload

K = TypeVar("K")
T = TypeVar("T")
V = TypeVar("V")

_new = object.__new__
_set = object.__setattr__


def _readonly(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError(
        "redzone state is immutable: build a new state (attrs.evolve, "
        "FrozenMap.set/merge) instead of changing this one"
    )


class _Build(ABCMeta):
    """Builds a :class:`FrozenMap` without running ``__init__``, which then
    can't be run on a built map (it raises, like every mutating method)."""

    def __call__(cls, items: Any = (), /, **kwargs: Any) -> Any:
        new: Any = _new(cls)  # type: ignore[arg-type]
        if type(items) is FrozenMap:  # (dict() of a mapping reads it key by key)
            items = object.__getattribute__(items, "_items")
        _set(new, "_items", dict(items, **kwargs))
        return new


class FrozenMap(Mapping[K, V], metaclass=_Build):
    """A read-only mapping: ``FrozenMap({"a": 1})``, ``FrozenMap(pairs)``,
    ``FrozenMap(a=1)``.

    Build a changed copy with :meth:`set`, :meth:`without` or :meth:`merge`;
    the original is never modified.

    .. versionadded:: 0.1.0
    """

    __slots__ = ("_hash", "_items")
    _items: dict[K, V]
    _hash: int

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = (), /,
                 **kwargs: V) -> None:
        _readonly()  # never runs as a map is built (see _Build)

    __setattr__ = _readonly
    __delattr__ = _readonly
    # dict's mutating methods, for a clear message to whoever tries them.
    __setitem__ = _readonly
    __delitem__ = _readonly
    __ior__ = _readonly
    clear = _readonly
    pop = _readonly
    popitem = _readonly
    setdefault = _readonly
    update = _readonly

    @classmethod
    def _wrap(cls, items: dict[K, V]) -> FrozenMap[K, V]:
        new: FrozenMap[K, V] = _new(cls)
        _set(new, "_items", items)
        return new

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, default: V | T, /) -> V | T: ...
    def get(self, key: Any, default: Any = None, /) -> Any:
        return self._items.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def keys(self) -> KeysView[K]:
        return self._items.keys()

    def values(self) -> ValuesView[V]:
        return self._items.values()

    def items(self) -> ItemsView[K, V]:
        return self._items.items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, dict):
            return self._items == other
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __or__(self, other: Mapping[K, V]) -> FrozenMap[K, V]:
        return self.merge(other)

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            value = hash(frozenset(self._items.items()))
            _set(self, "_hash", value)
            return value

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Its dict as it is (pickling copies it anyway), rebuilt without a
        # second copy: a batch pickles several maps for every job it sends.
        return (_unpickle_map, (self._items,))

    def __copy__(self) -> FrozenMap[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap[K, V]:
        return self

    def thaw(self) -> dict[K, V]:
        """A new plain ``dict`` with the same items, made at C speed
        (``dict(frozen_map)`` reads the map key by key)."""
        return dict(self._items)

    def set(self, key: K, value: V) -> FrozenMap[K, V]:
        """Return a copy with ``key`` bound to ``value``."""
        new = dict(self._items)
        new[key] = value
        return FrozenMap._wrap(new)

    def merge(self, changes: Mapping[K, V]) -> FrozenMap[K, V]:
        """Return a copy with every binding of ``changes`` applied (one copy)."""
        if not changes:
            return self
        new = dict(self._items)
        new.update(changes)
        return FrozenMap._wrap(new)

    def without(self, key: K) -> FrozenMap[K, V]:
        """Return a copy without ``key`` (no error when it is absent)."""
        if key not in self._items:
            return self
        new = dict(self._items)
        del new[key]
        return FrozenMap._wrap(new)


def _unpickle_map(items: dict[Any, Any]) -> FrozenMap[Any, Any]:
    """A :class:`FrozenMap` of the dict pickle just made (``FrozenMap.__reduce__``)."""
    return FrozenMap._wrap(items)


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


#: Converters that return a value of one exact type as it is, by that type:
#: :meth:`Copyable.evolve` doesn't call them on such a value (see :func:`unchanged`).
_UNCHANGED: dict[Callable[..., Any], type] = {}


def unchanged(converter: Callable[..., Any], kind: type) -> None:
    """Declare that an attrs converter returns a value whose type is exactly
    ``kind`` as it is, so that :meth:`Copyable.evolve` can skip the call. (A plain
    call, not a decorator: mypy's attrs plugin reads only undecorated
    converters.)"""
    _UNCHANGED[converter] = kind


def _field_of(value: object, converter: Callable[..., Any]) -> str:
    """``Class: field``, the field whose ``converter`` was given ``value``,
    read from the frame that called it: an attrs ``__init__`` (whose
    parameters are the fields) or :meth:`Copyable.evolve` (which loops on
    ``name`` and ``value``); ``""`` when neither called it. (Only an error's
    path reads frames: a converter's signature is its value alone.)"""
    import inspect

    import attrs

    frame = inspect.currentframe()
    for _ in range(5):  # (this, its helper, the converter, then its caller)
        frame = None if frame is None else frame.f_back
        if frame is None:
            break
        local, code = frame.f_locals, frame.f_code
        owner = local.get("self")
        if owner is None or not attrs.has(type(owner)):
            continue
        convs = {f.name: f.converter for f in attrs.fields(type(owner))}
        if code.co_name == "evolve" and local.get("value") is value:
            name = local.get("name")
            return f"{type(owner).__name__}: {name}" if convs.get(name) is converter else ""
        if code.co_name == "__init__":
            for name in code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]:
                if local.get(name) is value and convs.get(name) is converter:
                    return f"{type(owner).__name__}: {name}"
    return ""


def not_a_collection(value: object, converter: Callable[..., Any], key: object = None,
                     outer: object = None, *, where: str = "") -> NoReturn:
    """Refuse ``value``, given where a collection belongs (a converter's
    error): a ``str`` or ``bytes`` (an iterable of its characters) or a
    single value.

    :param converter: the converter refusing it, to find its field.
    :param key: for a value of a map (or an item of a collection), its key
        (or place), named with the field.
    :param outer: for a value of a map, the map the field was given.
    :param where: what to name instead of a field, for a function's
        argument (``"new_game: teams"``).
    :raises TypeError: naming the class, the field and the value, and
        saying to pass a list or tuple.
    """
    where = where or _field_of(value if key is None else outer, converter)
    if key is not None:
        where = f"{where or 'a map'}[{key!r}]"
    where = where or "a field"
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{where} is the {type(value).__name__} {value!r:.60}, where a "
                        f"collection of them belongs (a {type(value).__name__} would be read "
                        f"as its characters): pass a list or tuple ([{value!r:.60}])")
    raise TypeError(f"{where} is a {type(value).__name__}, where a collection belongs: pass "
                    "a list or tuple (of one item, for one)")


def as_tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    """attrs converter: any iterable but a ``str`` or ``bytes`` to a tuple.

    :raises TypeError: for a ``str``, ``bytes`` or what isn't iterable,
        naming the field (:func:`not_a_collection`).
    """
    if isinstance(value, tuple):
        return value
    if type(value) is str or type(value) is bytes:
        not_a_collection(value, as_tuple)
    try:
        return tuple(value)
    except TypeError:
        if hasattr(value, "__iter__"):
            raise  # (raised as it was iterated)
        not_a_collection(value, as_tuple)


def as_map(value: Any) -> FrozenMap[Any, Any]:
    """attrs converter: a mapping or pairs to a :class:`FrozenMap`.

    :raises TypeError: for a ``str`` or ``bytes``, naming the field.
    """
    # (FrozenMap's metaclass is an ABCMeta: its isinstance check is a Python call)
    if type(value) is FrozenMap or isinstance(value, FrozenMap):
        return value
    if type(value) is str or type(value) is bytes:
        not_a_collection(value, as_map)
    return FrozenMap(value)


unchanged(as_tuple, tuple)
unchanged(as_map, FrozenMap)


# ---------------------------------------------------------------------------
# Generated code
# ---------------------------------------------------------------------------


def _define(source: str, name: str, cls: type, ns: dict[str, Any]) -> Any:
    """Run the generated ``source`` in the namespace ``ns`` and return what
    it defines as ``name``. As attrs does, the source gets a pseudo-filename
    of its own (``<redzone generated NAME MODULE.CLASS>``, with ``-1``,
    ``-2`` ... when that class has more than one) and is put in
    :mod:`linecache`, so tracebacks, :func:`inspect.getsource` and debuggers
    show the generated lines.

    :param source: the code, which defines ``name``.
    :param name: what the code defines (``evolve``, ``build``).
    :param cls: the class it is for.
    :param ns: the globals the code runs with.
    """
    base = f"<redzone generated {name} {cls.__module__}.{cls.__qualname__}>"
    filename, count = base, 1
    while True:
        entry = (len(source), None, source.splitlines(True), filename)
        if linecache.cache.setdefault(filename, entry) == entry:
            break
        filename = f"{base[:-1]}-{count}>"
        count += 1
    exec(compile(source, filename, "exec"), ns)
    return ns[name]


# ---------------------------------------------------------------------------
# evolve: the kernel's copy with changes
# ---------------------------------------------------------------------------


class Copyable:
    """Base of the kernel's value classes: gives each its own ``evolve``,
    the one way the kernel copies a value with changes.

    A subclass's ``evolve`` is, from its first call on, code generated for
    that class alone and installed as its own method, so a copy is one
    Python call. Every class deriving from this one, however deep, gets its
    own (an inherited one would build its parent).

    .. versionadded:: 0.1.0
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.evolve = Copyable.evolve  # type: ignore[method-assign]

    def evolve(self, /, **changes: Any) -> Self:
        """A copy with ``changes``: what :func:`attrs.evolve` returns, without
        running ``__init__``. Fields that don't change are copied as they are
        (their converters already ran when this value was built), changed
        ones go through their converter, a hash cache is reset, and derived
        values (current power and toughness, keywords ...) are dropped from
        the copy unless ``__evolve_carry__`` says their inputs didn't change.

        :raises TypeError: for a field the class doesn't have; and for a
            class this can't copy so (one with validators,
            ``__attrs_pre_init__`` or ``__attrs_post_init__``, fields left
            out of ``__init__`` or with an alias, or ``attrs.Converter``
            objects), on each call: use :func:`attrs.evolve` for it. No value
            class of the kernel is such.
        """
        cls = self.__class__
        fn = _make_evolver(cls)
        fn.__doc__ = Copyable.evolve.__doc__
        fn.__qualname__ = f"{cls.__qualname__}.evolve"
        fn.__module__ = cls.__module__
        cls.evolve = fn  # type: ignore[method-assign]
        return fn(self, **changes)  # type: ignore[no-any-return]


def caches_hash(cls: type) -> bool:
    """Whether the attrs class ``cls`` caches its hash (``cache_hash=True``):
    a copy made without ``__init__`` must reset the cache."""
    if any("_attrs_cached_hash" in getattr(c, "__slots__", ()) for c in cls.__mro__):
        return True
    code = getattr(cls.__dict__.get("__hash__"), "__code__", None)
    return code is not None and "_attrs_cached_hash" in code.co_names


class derived(Generic[T]):
    """A value computed from an immutable instance on first use and kept in
    its ``__dict__`` (for frozen attrs classes without slots): what
    :func:`functools.cached_property` does, without its per-access lock and
    Python-level ``__get__`` on every first access's path. :meth:`Copyable.evolve`
    drops it from a copy unless ``__evolve_carry__`` says its inputs didn't
    change."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, inst: None, owner: type | None = None) -> derived[T]: ...
    @overload
    def __get__(self, inst: object, owner: type | None = None) -> T: ...
    def __get__(self, inst: object, owner: type | None = None) -> T | derived[T]:
        if inst is None:
            return self
        value = self.fn(inst)
        inst.__dict__[self.name] = value
        return value


def cached_properties(cls: type) -> tuple[str, ...]:
    """The names of the :class:`derived` (and
    :func:`functools.cached_property`) attributes of a class without slots
    (their values live in the instance's ``__dict__``)."""
    import functools

    return tuple(dict.fromkeys(name for c in reversed(cls.__mro__)
                               for name, value in vars(c).items()
                               if isinstance(value, (derived, functools.cached_property))))


def refusal(cls: type) -> str | None:
    """Why :meth:`Copyable.evolve` can't copy ``cls`` (what only ``__init__`` would
    do), or ``None`` when it can."""
    import attrs

    if not attrs.has(cls):
        return "it is not an attrs class"
    why = [f"it has {hook}" for hook in ("__attrs_pre_init__", "__attrs_post_init__")
           if hasattr(cls, hook)]
    for f in attrs.fields(cls):
        if f.validator is not None:
            why.append(f"field {f.name!r} has a validator")
        if not f.init:
            why.append(f"field {f.name!r} is left out of __init__")
        if f.alias != f.name:
            why.append(f"field {f.name!r} has the alias {f.alias!r}")
        if isinstance(f.converter, attrs.Converter):
            why.append(f"field {f.name!r} has an attrs.Converter")
    return "; ".join(why) or None


def _make_evolver(cls: type) -> Any:
    import attrs

    why = refusal(cls)
    if why is not None:
        raise TypeError(f"redzone's evolve can't copy {cls.__module__}.{cls.__qualname__}: "
                        f"{why} (only __init__ would honour that); use attrs.evolve")
    fields = attrs.fields(cls)
    if "__slots__" not in cls.__dict__:
        return _make_dict_evolver(cls, fields)
    names = [f.name for f in fields]
    converters = {f.name: f.converter for f in fields if f.converter is not None}
    ns: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": cls,
                          "_conv": converters, "_names": frozenset(names)}
    lines = ["def evolve(self, /, **changes):", "    new = _new(_cls)"]
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
    return _define("\n".join(lines) + "\n", "evolve", cls, ns)


def _make_dict_evolver(cls: type, fields: Any) -> Any:
    """:meth:`Copyable.evolve` of a frozen attrs class without slots: the instance's
    ``__dict__`` is copied at C speed, the hash cache is reset, the cached
    properties whose inputs change are dropped (the others are kept, see
    ``__evolve_carry__``), and the changed fields go through their
    converters."""
    names = frozenset(f.name for f in fields)
    converters = {f.name: f.converter for f in fields if f.converter is not None}
    carry: dict[str, tuple[str, ...]] = getattr(cls, "__evolve_carry__", {})
    cached = cached_properties(cls)
    always = tuple(c for c in cached if c not in carry)
    drops: dict[str, list[str]] = {}
    for prop, deps in carry.items():
        for dep in deps:
            drops.setdefault(dep, []).append(prop)
    drop_for = {dep: tuple(props) for dep, props in drops.items()}
    reset_hash = caches_hash(cls)
    # Per field: its converter (None: none), the type it returns as it is
    # (None: none) and what to drop when it changes, in one lookup.
    plan = {name: (converters.get(name), _UNCHANGED.get(converters.get(name)),  # type: ignore[arg-type]
                   drop_for.get(name, ())) for name in names}
    lines = ["def evolve(self, /, **changes):", "    d = self.__dict__.copy()"]
    if reset_hash:
        lines.append("    d['_attrs_cached_hash'] = None")
    lines += [f"    d.pop({name!r}, None)" for name in always]
    lines += [
        "    for name, value in changes.items():",
        "        entry = _plan.get(name)",
        "        if entry is None:",
        "            raise TypeError(f'{_cls.__name__}.evolve() got an unexpected argument "
        "{name!r}')",
        "        conv, same, drops = entry",
        "        d[name] = value if conv is None or type(value) is same else conv(value)",
        "        for prop in drops:",
        "            d.pop(prop, None)",
        "    new = _new(_cls)",
        "    _set(new, '__dict__', d)",
        "    return new",
    ]
    ns: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": cls,
                          "_plan": plan}
    return _define("\n".join(lines) + "\n", "evolve", cls, ns)


# ---------------------------------------------------------------------------
# Value classes built on first use
# ---------------------------------------------------------------------------

#: The methods attrs writes into a frozen class without slots: until the
#: class is built, each is a stand-in that builds it and calls attrs' own.
_BUILT_METHODS: tuple[str, ...] = ("__init__", "__repr__", "__eq__", "__ne__", "__hash__",
                                   "__setattr__", "__delattr__")
#: The class attributes attrs sets (read by :func:`attrs.fields`,
#: :func:`attrs.has`, pattern matching): until the class is built, reading
#: one builds it.
_BUILT_ATTRIBUTES: tuple[str, ...] = ("__attrs_attrs__", "__attrs_props__", "__match_args__")

#: The classes not built yet: their attrs options and the stand-ins they hold.
_UNBUILT: dict[type, tuple[dict[str, Any], tuple[str, ...]]] = {}
_BUILDING = threading.RLock()

_C = TypeVar("_C", bound=type)


class _OnUse:
    """A class attribute attrs sets, read before the class is built: reading
    it builds the class and answers attrs' value."""

    __slots__ = ("cls", "name")

    def __init__(self, cls: type, name: str) -> None:
        self.cls = cls
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        build(self.cls)
        return getattr(owner if owner is not None else self.cls, self.name)


def _stand_in(cls: type, name: str) -> Callable[..., Any]:
    def stand_in(self: Any, /, *args: Any, **kwargs: Any) -> Any:
        build(cls)
        return getattr(cls, name)(self, *args, **kwargs)

    stand_in.__name__ = name
    stand_in.__qualname__ = f"{cls.__qualname__}.{name}"
    return stand_in


def _install(cls: type, stand_ins: tuple[str, ...]) -> None:
    """Put the stand-ins named ``stand_ins`` on ``cls``, not built yet."""
    for name in stand_ins:
        setattr(cls, name, _OnUse(cls, name) if name in _BUILT_ATTRIBUTES
                else _stand_in(cls, name))


def _lazy_frozen(maybe_cls: Any = None, /, **options: Any) -> Any:
    """``attrs.frozen(slots=False, **options)``, applied when the class is
    first used rather than as it is defined: the first instance, the first
    comparison, hash or ``repr`` of one (an unpickled instance included),
    or the first read of what attrs sets on the class (:func:`attrs.fields`,
    :func:`attrs.has`, :func:`attrs.evolve`, a subclass built by attrs)
    builds it, once, under a lock. Building a class is most of the cost of
    defining it (attrs writes and compiles its methods), so the value
    classes a run never uses cost it nothing. The class object is the one
    defined (attrs builds a class without slots in place): ``isinstance``
    and references taken before it is built stay valid.

    For type checkers it is :func:`attrs.frozen`.

    :raises TypeError: when asked for slots (a class with slots is a new
        class, which references taken before it was built wouldn't be), or
        for a class deriving from one with slots (it would inherit that
        class's pickled form, which leaves out the fields it adds).
    """
    if options.pop("slots", False):
        raise TypeError("a class built on first use has no slots (slots=False)")

    def decorate(cls: _C) -> _C:
        slotted = [base.__name__ for base in cls.__mro__[1:] if base.__dict__.get("__slots__")]
        if slotted:
            raise TypeError(f"{cls.__name__} can't be built on first use: it derives from "
                            f"{', '.join(slotted)}, which has slots")
        stand_ins = tuple(n for n in (*_BUILT_METHODS, *_BUILT_ATTRIBUTES)
                          if n not in cls.__dict__)
        with _BUILDING:
            _UNBUILT[cls] = (options, stand_ins)
            _install(cls, stand_ins)
        return cls

    return decorate if maybe_cls is None else decorate(maybe_cls)


def build(cls: type) -> None:
    """Build a class defined with :func:`lazy_frozen` now, if it isn't yet
    (attrs writes its methods): what its first use does."""
    with _BUILDING:
        unbuilt = _UNBUILT.pop(cls, None)
        if unbuilt is None:
            return
        options, stand_ins = unbuilt
        # The stand-ins stay in place while attrs writes the class, so that
        # another thread using it meanwhile waits in one (on the lock)
        # instead of finding ``object``'s methods; attrs is told to write
        # what it would have written had they been absent (it takes a method
        # of the class's own for one not to write). It overwrites each in
        # turn. Those it would refuse or skip go first: its check of an own
        # ``__setattr__`` (a frozen class may have none), its match arguments
        # (written only where the class has none), and a ``__hash__`` it
        # wouldn't write (no equality).
        eq = options.get("eq", True if "__eq__" in stand_ins else None)
        wants = {"init": "__init__", "repr": "__repr__", "eq": "__eq__"}
        flags: dict[str, Any] = {flag: True for flag, name in wants.items()
                                 if name in stand_ins and options.get(flag) is None}
        hashed = "__hash__" in stand_ins and eq is True and not {
            "hash", "unsafe_hash"} & options.keys()
        if hashed:
            flags["unsafe_hash"] = True
        first = ("__setattr__", "__match_args__", *(() if hashed else ("__hash__",)))
        for name in first:
            if name in stand_ins:
                delattr(cls, name)
        import attrs

        try:
            attrs.frozen(slots=False, **options, **flags)(cls)
        except BaseException:
            _install(cls, stand_ins)  # (as it was: the next use fails the same way)
            _UNBUILT[cls] = unbuilt
            raise


def built(cls: type) -> bool:
    """Whether ``cls`` is built: not a class of :func:`lazy_frozen` still waiting."""
    return cls not in _UNBUILT


if TYPE_CHECKING:
    from attrs import frozen as lazy_frozen  # re-exported: attrs.frozen to type checkers
else:
    lazy_frozen = _lazy_frozen

__all__ = ["EMPTY", "Copyable", "FrozenMap", "as_map", "as_tuple", "build", "built",
           "cached_properties", "caches_hash", "derived", "freeze", "lazy_frozen",
           "not_a_collection", "refusal", "unchanged"]
