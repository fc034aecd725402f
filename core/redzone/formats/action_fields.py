"""What a scenario file may write for an action kind a plugin declares.

A plugin's action kind (:func:`redzone.kernel.hookspecs.redzone_actions`) is
usable in a scenario file as ``do = "<its kind>"`` with its fields as keys.
Its fields are read from its annotations, the ones the kernel checks when
the action is performed: each becomes a branch of the schema's ``action``
union (so a missing or unknown key, or a value of the wrong type, is a
``bad_scenario`` problem naming the file, the key and the line), and each
field is listed by ``redzone keywords``.

The annotations a file can write:

- ``str`` (and the reference aliases ``PlayerId``, ``ObjectId``, ...: an id
  of the board, checked as its kind says);
- ``int``, ``bool``, a ``Literal`` of strings;
- ``tuple[X, ...]``, ``frozenset[X]``, ``list[X]`` of those (a TOML list);
- ``Mapping[str, X]`` (a TOML table);
- ``X | None`` (the key left out: its default).

A field of another type (a ``Permanent``, a nested action) can't be written:
such a kind is refused in a file only when that field is required or given,
with a problem naming the field.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Annotated, Any, Final

import attrs

from redzone.kernel.action_kinds import ActionTable
from redzone.kernel.hooktypes import Action
from redzone.kernel.references import Ref

#: A schema that stands for a field a file can't write (the reader reports it).
UNWRITABLE: Final[dict[str, Any]] = {"description": "not writable in a scenario file"}

_SEQUENCES: Final = (tuple, frozenset, list, collections.abc.Sequence, collections.abc.Set)
_MAPPINGS: Final = (dict, collections.abc.Mapping)


def field_schema(tp: Any) -> dict[str, Any] | None:
    """The schema of a value of the annotation ``tp``, or ``None`` when a
    scenario file can't write one.

    :param tp: an annotation, as :func:`typing.get_type_hints` resolves it
        with ``include_extras``.
    """
    origin = typing.get_origin(tp)
    if origin is Annotated:
        if any(isinstance(m, Ref) for m in tp.__metadata__):
            return {"$ref": "#/$defs/id"}
        return field_schema(tp.__origin__)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        branches = [field_schema(a) for a in args]
        if not branches or any(b is None for b in branches):
            return None
        return branches[0] if len(branches) == 1 else {"anyOf": branches}
    if origin is typing.Literal:
        values = typing.get_args(tp)
        return {"enum": list(values)} if all(isinstance(v, str) for v in values) else None
    if origin in _SEQUENCES:
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        item = field_schema(args[0]) if len(args) == 1 else None
        return None if item is None else {"type": "array", "maxItems": 500, "items": item}
    if origin in _MAPPINGS:
        pair = typing.get_args(tp)
        value = field_schema(pair[1]) if len(pair) == 2 and pair[0] is str else None
        return None if value is None else {"type": "object", "maxProperties": 500,
                                           "additionalProperties": value}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"$ref": "#/$defs/integer"}
    if tp is str:
        return {"type": "string", "maxLength": 1000}
    return None


def ref_kind(tp: Any) -> str | None:
    """The reference kind (``"object"``, ``"player"``, ...) the annotation
    ``tp`` marks, looking into ``X | None`` and lists of ids; ``None`` for
    no reference."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        marks = [m.kind for m in tp.__metadata__ if isinstance(m, Ref)]
        return marks[0] if marks else ref_kind(tp.__origin__)
    if origin in (typing.Union, types.UnionType, *_SEQUENCES):
        for arg in typing.get_args(tp):
            if (kind := ref_kind(arg)) is not None:
                return kind
    return None


def type_text(tp: Any) -> str:
    """How a listing words the annotation ``tp`` (``"object id"``,
    ``"whole number"``, ``"list of player id"``)."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        marks = [m for m in tp.__metadata__ if isinstance(m, Ref)]
        return f"{marks[0].kind} id" if marks else type_text(tp.__origin__)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return " or ".join(type_text(a) for a in args)
    if origin is typing.Literal:
        return " | ".join(repr(v) for v in typing.get_args(tp))
    if origin in _SEQUENCES:
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return f"list of {type_text(args[0])}" if len(args) == 1 else "list"
    if origin in _MAPPINGS:
        pair = typing.get_args(tp)
        return f"table of {type_text(pair[1])}" if len(pair) == 2 else "table"
    return {bool: "true or false", int: "whole number", str: "text"}.get(
        tp, getattr(tp, "__name__", str(tp)))


@attrs.frozen
class FieldInfo:
    """One field of an action kind, as a scenario file writes it.

    :param name: the key.
    :param annotation: its annotation.
    :param required: whether the key must be given (no default).
    :param schema: its schema, ``None`` when a file can't write it.
    """

    name: str
    annotation: Any = attrs.field(eq=False)
    required: bool
    schema: dict[str, Any] | None = attrs.field(eq=False)

    @property
    def text(self) -> str:
        """``"name: type"``, with ``(optional)`` for a key that may be left out."""
        return f"{self.name}: {type_text(self.annotation)}" + (
            "" if self.required else " (optional)")


def action_fields(cls: type) -> tuple[FieldInfo, ...]:
    """The fields of the action kind ``cls`` in declaration order (an empty
    tuple when its annotations can't be resolved).

    :param cls: an attrs :class:`~redzone.Action` subclass.
    """
    if not attrs.has(cls):
        return ()
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except Exception:  # an unresolvable annotation of a plugin's
        return ()
    return tuple(FieldInfo(f.alias or f.name, hints.get(f.name, Any),
                           f.default is attrs.NOTHING, field_schema(hints.get(f.name, Any)))
                 for f in attrs.fields(cls))


def action_schema(cls: type) -> dict[str, Any]:
    """The schema branch of a ``[[combat.actions]]`` table of the kind
    ``cls``: ``after``, ``do`` and its fields (a field a file can't write
    accepts anything here: the reader reports it)."""
    fields = action_fields(cls)
    props: dict[str, Any] = {"after": {"$ref": "#/$defs/step"},
                             "do": {"const": getattr(cls, "do", "")}}
    for f in fields:
        props[f.name] = f.schema if f.schema is not None else UNWRITABLE
    first = (cls.__doc__ or "").strip().splitlines()
    return {"description": first[0] if first else "", "type": "object",
            "additionalProperties": False,
            "required": ["after", "do", *(f.name for f in fields if f.required)],
            "properties": props}


def plugin_kinds(specs: ActionTable) -> dict[str, tuple[type[Action], str]]:
    """The action kinds plugins declare (not the kernel's), by ``do`` name,
    with the plugin that declares each (the kernel's classes stay unimported).

    :param specs: an engine's ``hooks.action_specs``.
    """
    return {do: (spec.cls, plugin) for do, (spec, plugin) in specs.plugin_kinds().items()}


def convert(cls: type, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with each list given for a tuple or frozenset field made
    one (a file's lists are Python lists)."""
    out = dict(kwargs)
    for f in action_fields(cls):
        value = out.get(f.name)
        if isinstance(value, list):
            origin = _origin(f.annotation)
            if origin in (frozenset, collections.abc.Set):
                out[f.name] = frozenset(value)
            elif origin is not list:
                out[f.name] = tuple(value)
    return out


def _origin(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin is Annotated:
        return _origin(tp.__origin__)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            if arg is not type(None):
                return _origin(arg)
    return origin


__all__ = ["FieldInfo", "action_fields", "action_schema", "convert", "field_schema",
           "plugin_kinds", "ref_kind", "type_text"]
