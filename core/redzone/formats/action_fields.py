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
from typing import Any, Final

import attrs

from redzone.kernel.action_kinds import ActionTable
from redzone.kernel.hooktypes import Action
from redzone.kernel.shapes import Shape, fields_of, shape_of

#: A schema that stands for a field a file can't write (the reader reports it).
UNWRITABLE: Final[dict[str, Any]] = {"description": "not writable in a scenario file"}


#: The mappings a file writes as a table (its values converted by nothing
#: else: a ``FrozenMap`` field is not writable).
_TABLES: Final = (dict, collections.abc.Mapping)


def field_schema(tp: Any) -> dict[str, Any] | None:
    """The schema of a value of the annotation ``tp``, or ``None`` when a
    scenario file can't write one.

    :param tp: an annotation, as :func:`typing.get_type_hints` resolves it
        with ``include_extras`` (read as :func:`~redzone.kernel.shapes.shape_of`
        reads it).
    """
    return _schema(shape_of(tp))


def _schema(shape: Shape) -> dict[str, Any] | None:
    kind, args = shape.kind, shape.args
    if shape.ref is not None:
        return {"$ref": "#/$defs/id"}
    if kind == "union":
        branches = [_schema(a) for a in args if a.kind != "none"]
        if not branches or any(b is None for b in branches):
            return None
        return branches[0] if len(branches) == 1 else {"anyOf": branches}
    if kind == "literal":
        return {"enum": list(shape.values)} if all(
            isinstance(v, str) for v in shape.values) else None
    if kind == "items":
        item = _schema(args[0])
        return None if item is None else {"type": "array", "maxItems": 500, "items": item}
    if kind == "map" and shape.origin in _TABLES:
        value = _schema(args[1]) if args[0].kind == "str" else None
        return None if value is None else {"type": "object", "maxProperties": 500,
                                           "additionalProperties": value}
    scalars: dict[str, dict[str, Any]] = {
        "bool": {"type": "boolean"}, "int": {"$ref": "#/$defs/integer"},
        "str": {"type": "string", "maxLength": 1000}}
    return scalars.get(kind)


def type_text(tp: Any) -> str:
    """How a listing words the annotation ``tp`` (``"object id"``,
    ``"whole number"``, ``"list of player id"``)."""
    return _text(shape_of(tp))


def _text(shape: Shape) -> str:
    kind, args = shape.kind, shape.args
    if shape.ref is not None:
        return f"{shape.ref} id"
    if kind == "union":
        return " or ".join(_text(a) for a in args if a.kind != "none")
    if kind == "literal":
        return " | ".join(repr(v) for v in shape.values)
    if kind == "items":
        return f"list of {_text(args[0])}"
    if kind == "map" and shape.origin in _TABLES:
        return f"table of {_text(args[1])}"
    if kind == "fixed":
        return "list"
    return {"bool": "true or false", "int": "whole number", "str": "text", "none": "None"}.get(
        kind, getattr(shape.origin or shape.hint, "__name__", None) or str(shape.hint))


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
    return tuple(FieldInfo(f.alias, f.shape.hint, f.required, _schema(f.shape))
                 for f in fields_of(cls))


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
    for f in fields_of(cls):
        value = out.get(f.alias)
        if isinstance(value, list):
            origin = _origin(f.shape)
            if origin is frozenset or origin is collections.abc.Set:
                out[f.alias] = frozenset(value)
            elif origin is not list:
                out[f.alias] = tuple(value)
    return out


def _origin(shape: Shape) -> Any:
    """The container a field's value is, looking into ``X | None``."""
    if shape.kind == "union":
        return next((_origin(a) for a in shape.args if a.kind != "none"), None)
    return shape.origin


__all__ = ["FieldInfo", "action_fields", "action_schema", "convert", "field_schema",
           "plugin_kinds", "type_text"]
