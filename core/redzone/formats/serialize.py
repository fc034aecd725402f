"""The game state as plain data, and back.

:func:`state_to_dict` turns a :class:`~redzone.GameState` into a dict of
strings, numbers, booleans, ``None``, lists and dicts (ready for
:func:`json.dumps`); :func:`state_from_dict` builds the identical state from
it. The round trip is lossless: ``state_from_dict(state_to_dict(s)) == s``,
and the order of every mapping (declaration order of attackers and blockers,
the order of permanents) is kept.

The encoding follows the attrs fields of the model and their annotations, so
a field added to the model is serialised without changing this module:

- an attrs class is a dict of its fields (every field, by name);
- a :class:`~redzone.FrozenMap` is a dict (its keys are ids: strings);
- a tuple is a list; a frozenset is a sorted list;
- strings, integers, booleans and ``None`` are themselves;
- an action (a trigger's or a delayed trigger's) is a dict of its fields
  plus ``do``, its kind, so that it decodes to the right class (the kernel's
  kinds and every imported plugin's);
- a plugin's own state is frozen data: lists decode to tuples, mappings to
  :class:`~redzone.FrozenMap`.

Decoding is strict: an unknown key, a missing required field or a value of
the wrong type raises :class:`StateFormatError` naming the key path.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Final

import attrs

from redzone.kernel.errors import RulesError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.hooktypes import Action
from redzone.kernel.model import GameState

#: The version of the encoding, written as ``format`` in every dict.
FORMAT: Final = 1


class StateFormatError(RulesError, ValueError):
    """A dict that is not a serialised :class:`~redzone.GameState`.

    :ivar path: where the problem is, e.g. ``objects.bear.damage``.
    """

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(f"{path or '<state>'}: {message}")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fields(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    return tuple(attrs.fields(cls))


def _union_args(tp: Any) -> tuple[Any, ...] | None:
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return typing.get_args(tp)
    return None


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Action):
        return {"do": type(value).do,
                **{f.name: _encode(getattr(value, f.name)) for f in _fields(type(value))}}
    if attrs.has(type(value)):
        return {f.name: _encode(getattr(value, f.name)) for f in _fields(type(value))}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return sorted(_encode(v) for v in value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    raise TypeError(f"can't serialise {type(value).__name__} value {value!r}")


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state as plain, JSON-able data.

    :param state: any game state.
    :returns: a dict with ``format`` (:data:`FORMAT`) and one key per field of
        :class:`~redzone.GameState`.
    """
    out: dict[str, Any] = {"format": FORMAT}
    out.update(_encode(state))
    return out


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _action_classes() -> dict[str, type[Action]]:
    """Every imported action class by its ``do`` name."""
    found: dict[str, type[Action]] = {}
    todo = list(Action.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.do:
            found.setdefault(cls.do, cls)
    return found


def _frozen_data(value: Any, path: str) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, list):
        return tuple(_frozen_data(v, f"{path}[{i}]") for i, v in enumerate(value))
    if isinstance(value, Mapping):
        return FrozenMap((str(k), _frozen_data(v, f"{path}.{k}")) for k, v in value.items())
    raise StateFormatError(f"expected frozen data, got {_kind(value)}", path)


def _decode(tp: Any, value: Any, path: str) -> Any:
    if tp is Any:
        return _frozen_data(value, path)
    if tp is Action:
        if not isinstance(value, Mapping) or not isinstance(value.get("do"), str):
            raise StateFormatError("expected an action: a mapping with 'do'", path)
        cls = _action_classes().get(value["do"])
        if cls is None:
            raise StateFormatError(f"unknown action kind {value['do']!r} (import the plugin "
                                   "that declares it)", f"{path}.do")
        return _decode_attrs(cls, {k: v for k, v in value.items() if k != "do"}, path)
    union = _union_args(tp)
    if union is not None:
        if value is None and type(None) in union:
            return None
        options = [t for t in union if t is not type(None)]
        errors: list[StateFormatError] = []
        for option in options:
            try:
                return _decode(option, value, path)
            except StateFormatError as exc:
                errors.append(exc)
        raise errors[0] if len(errors) == 1 else StateFormatError(
            f"expected one of {', '.join(_name(t) for t in union)}, got {_kind(value)}", path)
    if tp is type(None):
        if value is not None:
            raise StateFormatError(f"expected null, got {_kind(value)}", path)
        return None
    if tp is bool:
        if not isinstance(value, bool):
            raise StateFormatError(f"expected a boolean, got {_kind(value)}", path)
        return value
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateFormatError(f"expected an integer, got {_kind(value)}", path)
        return value
    if tp is str:
        if not isinstance(value, str):
            raise StateFormatError(f"expected a string, got {_kind(value)}", path)
        return value
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is tuple:
        if not isinstance(value, list):
            raise StateFormatError(f"expected a list, got {_kind(value)}", path)
        item = args[0] if args else Any
        return tuple(_decode(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is frozenset:
        if not isinstance(value, list):
            raise StateFormatError(f"expected a list, got {_kind(value)}", path)
        item = args[0] if args else Any
        return frozenset(_decode(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is FrozenMap or tp is FrozenMap:
        if not isinstance(value, Mapping):
            raise StateFormatError(f"expected a mapping, got {_kind(value)}", path)
        item = args[1] if len(args) == 2 else Any
        return FrozenMap((str(k), _decode(item, v, f"{path}.{k}")) for k, v in value.items())
    if isinstance(tp, type) and attrs.has(tp):
        return _decode_attrs(tp, value, path)
    raise StateFormatError(f"can't decode a value of type {_name(tp)}", path)


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp)


def _decode_attrs(cls: type, value: Any, path: str) -> Any:
    if not isinstance(value, Mapping):
        raise StateFormatError(f"expected a mapping for {cls.__name__}, got {_kind(value)}",
                               path)
    fields = _fields(cls)
    names = {f.name for f in fields}
    unknown = sorted(set(value) - names)
    if unknown:
        where = f"{path}." if path else ""
        raise StateFormatError(
            f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
            f"for {cls.__name__} (known: {', '.join(f.name for f in fields)})",
            f"{where}{unknown[0]}")
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for f in fields:
        sub = f"{path}.{f.name}" if path else f.name
        if f.name not in value:
            if f.default is attrs.NOTHING:
                raise StateFormatError(f"missing required key for {cls.__name__}", sub)
            continue
        kwargs[f.name] = _decode(hints[f.name], value[f.name], sub)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:  # pragma: no cover - converters reject it
        raise StateFormatError(str(exc), path) from exc


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    """The :class:`~redzone.GameState` that :func:`state_to_dict` encoded.

    :param data: a dict as :func:`state_to_dict` returns it (or as
        :func:`json.loads` reads it back).
    :raises StateFormatError: naming the key path of an unknown key, a missing
        field or a value of the wrong type, or an unsupported ``format``.
    """
    if not isinstance(data, Mapping):
        raise StateFormatError(f"expected a mapping, got {_kind(data)}")
    version = data.get("format")
    if version != FORMAT:
        raise StateFormatError(f"unsupported format {version!r}; this version reads "
                               f"format {FORMAT}", "format")
    body = {k: v for k, v in data.items() if k != "format"}
    state: GameState = _decode_attrs(GameState, body, "")
    return state


__all__ = ["FORMAT", "StateFormatError", "state_from_dict", "state_to_dict"]
