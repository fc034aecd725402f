"""The one reading of annotations: what each field of a class may hold.

Everything that reads a field's annotation reads it here, once per
annotation and once per class:

- the checks of a value against its declared type (a caller's permanents
  and actions, :mod:`redzone.kernel.validate`; what a plugin's action is
  and puts, :mod:`redzone.kernel.tx`; an activation's cost,
  :mod:`redzone.kernel.abilities`), by one rule (:attr:`Shape.fits`);
- the reference kinds of the fields that name ids
  (:mod:`redzone.kernel.references`);
- a scenario file's schema of a plugin's action kind and the listing of its
  fields (:mod:`redzone.formats.action_fields`).

:func:`shape_of` turns an annotation into a :class:`Shape`;
:func:`fields_of` gives each field of an attrs class with its shape. The
readers above interpret shapes and never call typing's ``get_origin`` or
``get_args`` themselves.

What fits (:attr:`Shape.fits`), which is what a saved state holds and loads
back as it was:

- ``str``, ``bool`` and ``None``: a value of exactly that type (a ``str``
  subclass would load back as a ``str``, and ``True`` is no number);
- ``int``: exactly an ``int`` within ±:data:`MAX_INT` (107.1);
- a ``Literal``: one of its values, of the same type;
- a union (``X | None``): a value fitting one of its members;
- ``tuple[X, ...]``, ``frozenset[X]``, ``list[X]`` (and the abstract
  sequences, sets and collections): a container of that kind whose every item fits
  ``X``; ``tuple[X, Y]``: a tuple of two, each fitting its place;
- a mapping (``FrozenMap[K, V]``, ``Mapping[K, V]``): a mapping whose every
  key and value fit;
- a class: an instance of it; an attrs class of the kernel's
  (``redzone.kernel``) is looked into, each of its fields fitting by these
  rules (a permanent's modifications, a token's permanent);
- ``Any``, ``object`` and what this module can't read (a type variable, a
  callable): anything.

A field annotated ``Annotated[X, Ref(kind)]`` (the aliases of
:mod:`redzone.kernel.references`) has the shape of ``X`` with the
reference kind ``kind``.
"""

from __future__ import annotations

import collections.abc
import functools
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Final, Literal

import attrs

#: The largest magnitude of a number a state holds (107.1: the rules use
#: whole numbers; this bound keeps a saved state loadable).
MAX_INT: Final = 1_000_000

#: The reference kinds, from the narrowest.
KINDS: Final = ("player", "object", "source", "player or object", "any")


@attrs.frozen
class Ref:
    """The annotation's mark: the field names an id of ``kind``.

    :param kind: one of :data:`KINDS`.
    """

    kind: str

    def __attrs_post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown reference kind {self.kind!r} (known: "
                             f"{', '.join(KINDS)})")


#: What a :class:`Shape` is: see the module's list of what fits.
Kind = Literal["any", "none", "str", "int", "bool", "literal", "union", "items", "fixed",
               "map", "class"]


class Shape:
    """What an annotation lets a value be, read once (:func:`shape_of`).

    :ivar kind: which of the module's cases it is.
    :ivar args: the members of a ``union``, the item of ``items`` (one),
        the places of a ``fixed`` tuple, the key and the value of a ``map``.
    :ivar values: the values of a ``literal``.
    :ivar origin: the container's class (``tuple``, ``frozenset``, ``list``,
        an abstract sequence, set or mapping, ``FrozenMap``) or the
        ``class``; ``None`` otherwise.
    :ivar ref: the reference kind it is marked with (:data:`KINDS`), or
        ``None``.
    :ivar hint: the annotation it was read from.
    :ivar fits: whether a value fits it (the module's rules), one call.
    """

    __slots__ = ("args", "fits", "hint", "kind", "origin", "ref", "values")

    def __init__(self, kind: Kind, hint: Any, *, args: tuple[Shape, ...] = (),
                 values: tuple[Any, ...] = (), origin: type | None = None,
                 ref: str | None = None) -> None:
        self.kind: Kind = kind
        self.hint = hint
        self.args = args
        self.values = values
        self.origin = origin
        self.ref = ref
        self.fits: Callable[[Any], bool] = _check(self)

    def __repr__(self) -> str:
        return f"Shape({self.kind}: {spelled(self)})"


class Field:
    """One field of an attrs class, as :func:`fields_of` reads it (a plain
    class: nothing is generated for it as the kernel is imported).

    :ivar name: the attribute's name.
    :ivar alias: the name its class's ``__init__`` takes it by.
    :ivar shape: what it may hold.
    :ivar required: whether it has no default.
    """

    __slots__ = ("alias", "name", "required", "shape")

    def __init__(self, name: str, alias: str, shape: Shape, required: bool) -> None:
        self.name = name
        self.alias = alias
        self.shape = shape
        self.required = required

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.shape!r}{'' if self.required else ', optional'})"


def shape_of(hint: Any) -> Shape:
    """The shape of the annotation ``hint`` (as :func:`typing.get_type_hints`
    resolves it, with ``include_extras``), read once per annotation."""
    try:
        return _cached(hint)
    except TypeError:  # an annotation that can't be a key: read each time
        return _read(hint)


@functools.cache
def _cached(hint: Any) -> Shape:
    return _read(hint)


def _read(hint: Any) -> Shape:
    origin = typing.get_origin(hint)
    if origin is Annotated:
        inner = shape_of(hint.__origin__)
        marks = [m.kind for m in hint.__metadata__ if isinstance(m, Ref)]
        if not marks:
            return inner
        return Shape(inner.kind, hint, args=inner.args, values=inner.values,
                     origin=inner.origin, ref=marks[0])
    if hint is Any or hint is object:
        return Shape("any", hint)
    if hint is None or hint is type(None):
        return Shape("none", hint)
    if hint is str:
        return Shape("str", hint)
    if hint is int:
        return Shape("int", hint)
    if hint is bool:
        return Shape("bool", hint)
    if origin in (typing.Union, types.UnionType):
        return Shape("union", hint, args=tuple(shape_of(a) for a in typing.get_args(hint)))
    if origin is Literal:
        return Shape("literal", hint, values=typing.get_args(hint))
    args = typing.get_args(hint)
    if isinstance(origin, type):
        if issubclass(origin, collections.abc.Mapping):
            if len(args) != 2:
                return Shape("class", hint, origin=origin)
            return Shape("map", hint, args=(shape_of(args[0]), shape_of(args[1])),
                         origin=origin)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return Shape("fixed", hint, args=tuple(shape_of(a) for a in args), origin=tuple)
        if issubclass(origin, collections.abc.Collection):
            if len(args) != 1 and not (origin is tuple and len(args) == 2):
                return Shape("class", hint, origin=origin)
            return Shape("items", hint, args=(shape_of(args[0]),), origin=origin)
        return Shape("class", hint, origin=origin)
    if origin is None and isinstance(hint, type):
        return Shape("class", hint, origin=hint)
    return Shape("any", hint)


def _check(shape: Shape) -> Callable[[Any], bool]:
    """The one rule of what fits ``shape`` (the module's list), as a check
    worked out once."""
    kind, args = shape.kind, shape.args
    if kind == "str":
        return lambda value: type(value) is str
    if kind == "bool":
        return lambda value: type(value) is bool
    if kind == "int":
        return lambda value: type(value) is int and -MAX_INT <= value <= MAX_INT
    if kind == "none":
        return lambda value: value is None
    if kind == "literal":
        allowed = shape.values
        return lambda value: any(type(value) is type(v) and value == v for v in allowed)
    if kind == "union":
        return lambda value: any(member.fits(value) for member in args)
    if shape.origin is None:
        return lambda value: True
    origin: Any = shape.origin  # (Any: an isinstance with it leaves a value as it was typed)
    if kind == "items":
        item = args[0]
        return lambda value: (isinstance(value, origin) and not isinstance(value, str)
                              and all(item.fits(v) for v in value))
    if kind == "fixed":
        return lambda value: (isinstance(value, tuple) and len(value) == len(args)
                              and all(s.fits(v) for s, v in zip(args, value, strict=True)))
    if kind == "map":
        key, held = args
        return lambda value: isinstance(value, origin) and all(
            key.fits(k) and held.fits(v) for k, v in value.items())
    if kind == "class":
        return lambda value: isinstance(value, origin) and (
            not _kernel(type(value)) or first_misfit(value) is None)
    return lambda value: True


#: :func:`fields_of` of each class met.
_FIELDS: dict[type, tuple[Field, ...]] = {}


def fields_of(cls: type) -> tuple[Field, ...]:
    """The fields of the attrs class ``cls`` with their shapes, in
    declaration order, read once per class; empty when ``cls`` isn't an
    attrs class or an annotation of it can't be resolved (a plugin's class
    naming what isn't importable: nothing of it is checked)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = _fields(cls)
    return found


def _fields(cls: type) -> tuple[Field, ...]:
    if not attrs.has(cls):
        return ()
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except Exception:  # an unresolvable annotation (a plugin's): nothing read
        return ()
    return tuple(Field(f.name, f.alias or f.name, shape_of(hints.get(f.name, Any)),
                       f.default is attrs.NOTHING) for f in attrs.fields(cls))


#: :func:`_kernel` of each class met.
_KERNEL: dict[type, bool] = {}


def _kernel(cls: type) -> bool:
    """Whether ``cls`` is an attrs class of the kernel's, which a check
    looks into (a plugin's class is checked as it declares, not looked into)."""
    found = _KERNEL.get(cls)
    if found is None:
        found = _KERNEL[cls] = attrs.has(cls) and str(
            getattr(cls, "__module__", "")).startswith("redzone.kernel.")
    return found


def first_misfit(obj: object) -> tuple[str, Any, Shape] | None:
    """The first field of the attrs instance ``obj``, or of what it holds,
    whose value doesn't fit its shape: its path (``.tapped``,
    ``.modifications[1].power``, ``.counters['+1/+1']``, ``.types (an
    item)``), the value and the shape it doesn't fit; ``None`` when every
    one fits. No code of the value's class runs (its repr isn't read)."""
    for f in fields_of(type(obj)):
        value = getattr(obj, f.name)
        if not f.shape.fits(value):
            return _where(value, f.shape, f".{f.name}")
    return None


def _where(value: Any, shape: Shape, path: str) -> tuple[str, Any, Shape]:
    """Where inside ``value`` (at ``path``), which doesn't fit ``shape``,
    the first part that doesn't fit is."""
    kind = shape.kind
    box: Any = shape.origin or ()  # (as in _check)
    if kind == "union":
        for member in shape.args:
            if member.kind not in ("none", "any") and member.origin is not None and \
                    isinstance(value, member.origin) and not isinstance(value, str):
                return _where(value, member, path)
    elif kind == "items" and isinstance(value, box) and \
            not isinstance(value, str):
        item = shape.args[0]
        if isinstance(value, collections.abc.Set):  # (no place: the error shows the item)
            bad = next(v for v in value if not item.fits(v))
            return _where(bad, item, f"{path} (an item)")
        i, bad = next((i, v) for i, v in enumerate(value) if not item.fits(v))
        return _where(bad, item, f"{path}[{i}]")
    elif kind == "fixed" and isinstance(value, tuple) and len(value) == len(shape.args):
        i = next(i for i, (s, v) in enumerate(zip(shape.args, value, strict=True))
                 if not s.fits(v))
        return _where(value[i], shape.args[i], f"{path}[{i}]")
    elif kind == "map" and isinstance(value, box):
        key, held = shape.args
        for k, v in value.items():
            if not key.fits(k):
                return f"{path} (a key)", k, key
            if not held.fits(v):
                # (a key is shown in the path only as the built-in str it is: a
                # repr of anything else could run a plugin's code)
                return _where(v, held, f"{path}[{k!r}]" if type(k) is str else
                              f"{path} (a value)")
    elif kind == "class" and isinstance(value, box):
        inner = first_misfit(value)
        if inner is not None:
            return f"{path}{inner[0]}", inner[1], inner[2]
    return path, value, shape


def numeric(shape: Shape) -> bool:
    """Whether ``shape`` is a number's (``int``, or a union with one)."""
    return shape.kind == "int" or (shape.kind == "union" and any(
        a.kind == "int" for a in shape.args))


def ref_kind(shape: Shape) -> str | None:
    """The reference kind ``shape`` marks, looking into unions, tuples,
    sets and lists (not into mappings, nor into classes); ``None``: no
    reference."""
    if shape.ref is not None:
        return shape.ref
    if shape.kind in ("union", "items", "fixed"):
        for arg in shape.args:
            kind = ref_kind(arg)
            if kind is not None:
                return kind
    return None


def spelled(shape: Shape) -> str:
    """``shape`` as Python spells its annotation (``tuple[str, ...]``,
    ``int | None``, ``Literal['a', 'b']``)."""
    kind, args = shape.kind, shape.args
    if kind in ("str", "int", "bool"):
        return kind
    if kind == "none":
        return "None"
    if kind == "any":
        return getattr(shape.hint, "__name__", None) or str(shape.hint)
    if kind == "literal":
        return f"Literal[{', '.join(map(repr, shape.values))}]"
    if kind == "union":
        return " | ".join(spelled(a) for a in args)
    name = getattr(shape.origin, "__name__", str(shape.origin))
    if kind == "items":
        return f"{name}[{spelled(args[0])}{', ...' if shape.origin is tuple else ''}]"
    if kind in ("fixed", "map"):
        return f"{name}[{', '.join(spelled(a) for a in args)}]"
    return name


def described(shape: Shape) -> str:
    """How an error names what fits ``shape`` (the one wording): ``a str``,
    ``an id (a str)``, ``a whole number within ±1,000,000``, ``a bool``,
    ``None``, ``one of 'a', 'b'``, ``a Permanent``, ``a tuple[str, ...]``;
    a union's members joined by ``or``."""
    kind = shape.kind
    if kind == "str":
        return "an id (a str)" if shape.ref is not None else "a str"
    if kind == "int":
        return f"a whole number within ±{MAX_INT:,}"
    if kind == "bool":
        return "a bool"
    if kind == "none":
        return "None"
    if kind == "any":
        return "anything"
    if kind == "literal":
        return f"one of {', '.join(map(repr, shape.values))}"
    if kind == "union":
        return " or ".join(described(a) for a in shape.args)
    text = spelled(shape)
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


__all__ = ["KINDS", "MAX_INT", "Field", "Kind", "Ref", "Shape", "described", "fields_of",
           "first_misfit", "numeric", "ref_kind", "shape_of", "spelled"]
