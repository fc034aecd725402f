"""Which field of a class names what: the one description of references.

A field that holds the id of a player, an object or a source says so in its
annotation, with one of the aliases here (each a ``str`` to type checkers
and at run time)::

    @frozen
    class Enlist(Action):
        do: ClassVar[str] = "enlist"
        creature: ObjectId
        enlisted: ObjectId

The model (:mod:`redzone.kernel.model`), the damage record and the kernel's
action kinds are annotated this way, and so may a plugin's own action kinds
(declared through ``redzone_actions``). :func:`reference_fields` reads the
annotations, once per class; every check of references reads it: a saved
state's (:func:`redzone.formats.serialize.state_from_dict`), a scenario's
actions (:mod:`redzone.formats.scenario`), a trigger's actions as a plugin
answers them, and the objects an error about an action names.

The kinds, by what the id may name (the state's players, its objects in any
zone, and the spells and abilities of its ``sources``):

- ``player``: a player (:data:`PlayerId`);
- ``object``: an object (:data:`ObjectId`);
- ``source``: an object or a spell or ability (:data:`SourceId`, what
  :meth:`~redzone.GameState.source` reads);
- ``player or object``: a player or an object (:data:`PlayerOrObjectId`:
  what damage is dealt to, what is attacked);
- ``any``: a player, an object or a source (:data:`AnyId`: a shield's or an
  effect's source may be a player's id).

A tuple or frozenset of such ids (``tuple[PlayerId, ...]``) is a field of
that kind too; a ``None`` is no reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Final

import attrs

from redzone.kernel.shapes import KINDS, Ref, fields_of, ref_kind

#: The id of a player of the state.
PlayerId = Annotated[str, Ref("player")]
#: The id of an object of the state (a permanent, in any zone).
ObjectId = Annotated[str, Ref("object")]
#: The id of an object or of a spell or ability of the state's sources.
SourceId = Annotated[str, Ref("source")]
#: The id of a player or of an object.
PlayerOrObjectId = Annotated[str, Ref("player or object")]
#: The id of a player, an object or a source.
AnyId = Annotated[str, Ref("any")]

#: What a player field of :class:`~redzone.LoseLife` and
#: :class:`~redzone.GainLife`, or the target of :class:`~redzone.DealDamage`,
#: holds to mean each player still in the game, all at once (a state whose
#: players include one with this id means that player).
#:
#: .. versionadded:: 0.1.0
EACH_PLAYER: Final = "each"


#: :func:`reference_fields`' answers, by class.
_FIELDS: Final[dict[type, dict[str, str]]] = {}


def reference_fields(cls: type) -> Mapping[str, str]:
    """The fields of the attrs class ``cls`` that name ids, in declaration
    order, and their kinds (see :data:`KINDS`); empty for a class that
    declares none (or isn't an attrs class, or has an annotation that can't
    be resolved). Read once per class, from its fields' shapes
    (:func:`~redzone.kernel.shapes.ref_kind`: looking into unions, tuples
    and frozensets, not into maps nor into attrs classes).

    :param cls: an attrs class: of the model, an action kind, a plugin's.
    """
    found = _FIELDS.get(cls)
    if found is None:
        kinds = {f.name: ref_kind(f.shape) for f in fields_of(cls)}
        found = _FIELDS[cls] = {name: kind for name, kind in kinds.items() if kind is not None}
    return found


def named_ids(value: object) -> tuple[str, ...]:
    """The ids ``value`` (an instance of an attrs class) names in its
    reference fields, in field order: single ids, and each id of a tuple or
    frozenset (sorted) of them."""
    out: list[str] = []
    for name in reference_fields(type(value)):
        _collect(getattr(value, name), out)
    return tuple(out)


def _collect(held: object, out: list[str]) -> None:
    """Append the ids a reference field holds: one, or each of a tuple or
    frozenset (sorted) of them."""
    if type(held) is str:
        out.append(held)
    elif type(held) is tuple:
        out.extend(v for v in held if type(v) is str)
    elif type(held) is frozenset:
        out.extend(sorted(v for v in held if type(v) is str))


#: The reference kinds of what an action affects: a source it names (of
#: damage, of an effect: ``source`` and ``any`` fields) is not affected by
#: it (608.2h: its last known information serves).
_AFFECTED: Final = frozenset({"player", "object", "player or object"})


def affected_ids(value: object) -> tuple[str, ...]:
    """The ids of what ``value`` (an action) affects: those of its
    reference fields naming a player or an object (not a source), and
    those of a record it holds (an :class:`~redzone.Effect`'s), not of
    actions it holds (a delayed trigger's, bound as that is created)."""
    out: list[str] = []
    for name, kind in reference_fields(type(value)).items():
        if kind in _AFFECTED:
            _collect(getattr(value, name), out)
    for f in getattr(type(value), "__attrs_attrs__", ()):
        held = getattr(value, f.name)
        if attrs.has(type(held)) and getattr(type(held), "do", None) is None:
            out.extend(affected_ids(held))
    return tuple(out)


__all__ = ["EACH_PLAYER", "KINDS", "AnyId", "ObjectId", "PlayerId", "PlayerOrObjectId", "Ref",
           "SourceId", "affected_ids", "named_ids", "reference_fields"]
