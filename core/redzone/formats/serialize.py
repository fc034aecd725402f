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
the wrong type raises :class:`StateFormatError` naming the key path. So does
a reference the state can't resolve, and an inconsistency the kernel would
trip over (see :func:`state_from_dict`): the ids a field names are given by
its annotation (:mod:`redzone.kernel.references`: ``PlayerId``,
``ObjectId`` ...), and every other string field of the model is in
:data:`NOT_REFERENCES`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from typing import Any, Final

import attrs

from redzone.kernel.answers import shown_number, type_name
from redzone.kernel.errors import RulesError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.hooktypes import Action
from redzone.kernel.model import (
    CHOICE_KINDS,
    DELAYED_WHEN,
    DURATIONS,
    OBJECT_ZONES,
    SCOPES,
    SHIELD_MODES,
    ZONES,
    Combat,
    GameState,
)
from redzone.kernel.references import EACH_PLAYER, reference_fields
from redzone.kernel.shapes import Shape, fields_of, shape_of, spelled
from redzone.kernel.tx import is_combat_step
from redzone.kernel.validate import STATE_BOUNDS
from redzone.kernel.zones import POSITIONS

#: The version of the encoding, written as ``format`` in every dict.
FORMAT: Final = 1


#: The deepest a saved state's values nest (lists and mappings within one
#: another, the state's own mapping the first). A state redzone makes nests
#: far less (a trigger's action creating a token with a modification is
#: about ten deep); the bound keeps decoding within Python's recursion limit,
#: so data nested deeper (in a plugin's state, or actions within actions) is
#: a :class:`StateFormatError` naming the path where it passes the bound.
MAX_DEPTH: Final = 100


class StateFormatError(RulesError, ValueError):
    """A dict that is not a serialised :class:`~redzone.GameState`.

    :ivar path: where the problem is, e.g. ``objects.bear.damage``.
    """

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(f"{path or '<state>'}: {message}")


#: The string fields of a continuous effect (and the action that starts one)
#: that hold words of the layer system (613): types, subtypes, colors, keyword
#: names and text words; open strings, as a permanent's are.
_LAYER_WORDS: Final = ("affects_types", "affects_subtypes", "affects_colors",
                       "affects_keyword", "text_from", "text_to", "set_types", "add_types",
                       "remove_types", "set_subtypes", "add_subtypes", "remove_subtypes",
                       "set_colors", "add_colors")

#: The string fields of the model that name no id of the state (names,
#: texts, kinds, rules, steps, keys), and the fields whose ids are checked
#: elsewhere: the maps' own ids against their keys, the combat's with the
#: combat (:func:`_check_combat`), a choice's options as it is answered. The
#: fields that name ids say so in their annotations
#: (:mod:`redzone.kernel.references`); every other string field of the model
#: is here.
NOT_REFERENCES: Final = frozenset({
    "GameState.step", "GameState.rules", "GameState.keyword_set", "Player.id",
    "Player.loss_rule", "Permanent.id", "Permanent.name", "Permanent.types",
    "Permanent.subtypes", "Permanent.supertypes", "Permanent.colors", "Permanent.marks",
    "Permanent.zone", "Keyword.name", "Keyword.text", "Keyword.args",
    "Modification.remove_keywords", "Modification.source", "Modification.duration",
    "Condition.kind", "Condition.text", "Shield.id", "Shield.mode", "Shield.duration",
    "Effect.kind", "Effect.duration", "Effect.id", "Trigger.kind", "Trigger.rule",
    "Trigger.text", "Trigger.id", "Trigger.plugin", "Trigger.choices", "Choice.name", "Choice.kind",
    "Choice.options", "Choice.default", "Choice.rule", "Choice.text", "Choice.key",
    "DelayedTrigger.when", "DelayedTrigger.kind", "DelayedTrigger.rule",
    "DelayedTrigger.text", "DelayedTrigger.plugin", "DelayedTrigger.id",
    "DelayedTrigger.step", "PluginState.scope", "GameOver.step", "GameOver.rule",
    "StackObject.id", "StackObject.name", "StackObject.colors", "StackObject.types",
    "Damage.step", "GameState.teams", *(f"Combat.{f.name}" for f in attrs.fields(Combat)),
    # an action's: a shield's or an effect's id is checked as it is performed
    "AddCounters.counters", "Activate.ability", "CreateDelayedTrigger.kind",
    "CreateDelayedTrigger.rule", "CreateDelayedTrigger.text", "CreateDelayedTrigger.when",
    "GainControl.duration", "Grant.duration", "Grant.keywords", "LeaveBattlefield.zone",
    "Move.to", "Move.position", "Move.counters", "Prevent.amount",
    "WrittenTrigger.when", "WrittenTrigger.match", "WrittenTrigger.text", "WrittenTrigger.id",
    "AddTrigger.when", "AddTrigger.match", "AddTrigger.text", "Prevent.duration",
    "Pump.duration", "Regenerated.shield", "RemoveEffect.effect", "Revoke.duration",
    "Revoke.keywords", "SetState.scope",
    # the layer system's (613): words, types, colors and keyword names, not ids
    *(f"{cls}.{name}" for cls in ("ContinuousEffect", "AddContinuous")
      for name in _LAYER_WORDS), "ContinuousEffect.remove_keywords",
    "ContinuousEffect.duration", "ContinuousEffect.id", "AddContinuous.add_keywords",
    "AddContinuous.remove_keywords", "AddContinuous.duration",
    *(f"Printed.{name}" for name in ("name", "types", "subtypes", "supertypes", "colors"))})


#: The fields of the model whose values are an enumeration of the model, by
#: ``Class.field`` or, for every class (an action's too), by field name: a
#: value outside it is refused (an unknown shield mode would act as "all").
ENUMERATIONS: Final[dict[str, tuple[str, ...]]] = {
    "Permanent.zone": OBJECT_ZONES, "zone": ZONES, "Move.to": ZONES,
    "Move.position": POSITIONS, "duration": DURATIONS,
    "when": DELAYED_WHEN, "scope": SCOPES,
    "Shield.mode": SHIELD_MODES, "Choice.kind": CHOICE_KINDS,
}

#: The string fields of the model whose values are open: names, texts, ids,
#: rules, kinds a plugin may add, and steps (plugins add combat damage
#: steps). Every string field of the model is a reference (its annotation says so),
#: an enumeration (:data:`ENUMERATIONS`) or here.
OPEN_STRINGS: Final = frozenset({
    "rules", "keyword_set", "id", "loss_rule", "name", "types", "subtypes", "supertypes",
    "colors", "marks", "text", "args", "remove_keywords", "kind", "rule", "plugin", "choices",
    "options", "default", "key", "step", "teams", "keywords", "effect", "shield",
    "AddCounters.counters", "Move.counters", "Prevent.amount", "Activate.ability",
    "WrittenTrigger.when", "WrittenTrigger.match", "WrittenTrigger.id", "AddTrigger.when",
    "AddTrigger.match", "Modification.source", "Condition.kind", "Effect.kind", "Trigger.kind",
    *_LAYER_WORDS, "add_keywords",
    *(f"Combat.{f.name}" for f in attrs.fields(Combat))})

#: The bounds of the model's counts, by ``Class.field`` (a map's: of its
#: values): the schema's ``count`` (0 to a million: damage 120.3, poison
#: 122.1f, counters 122.1) and ``integer`` (life, 119), and turns from 1; the
#: kernel's own (:data:`redzone.kernel.validate.STATE_BOUNDS`), which no
#: command goes past, so that every state it makes can be loaded back.
BOUNDS: Final[dict[str, tuple[int, int]]] = dict(STATE_BOUNDS)


def enumeration(cls: type, name: str) -> tuple[str, ...] | None:
    """The values the field ``name`` of the model class ``cls`` may hold
    (see :data:`ENUMERATIONS`), or ``None`` when they are open (a field
    :data:`OPEN_STRINGS` names by class is, whatever its name)."""
    qualified = f"{cls.__name__}.{name}"
    if qualified in OPEN_STRINGS:
        return None
    return ENUMERATIONS.get(qualified, ENUMERATIONS.get(name))


def reference_kind(cls: type, name: str) -> str | None:
    """What the field ``name`` of the model class ``cls`` names, as its
    annotation says (:func:`redzone.kernel.references.reference_fields`), or
    ``None`` when it names no id of the state."""
    return reference_fields(cls).get(name)


#: A reference met while decoding: its kind, the decoded value, its path.
_Ref = tuple[str, Any, str]


def _fields(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    return tuple(attrs.fields(cls))


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


def _decode(shape: Shape, value: Any, path: str, refs: list[_Ref] | None) -> Any:
    """The value of ``shape`` (a field's, :mod:`redzone.kernel.shapes`) that
    the saved ``value`` at ``path`` stands for."""
    kind = shape.kind
    if kind == "any":
        if shape.hint is not Any:
            raise StateFormatError(f"can't decode a value of type {_name(shape.hint)}", path)
        return _frozen_data(value, path)
    if kind == "class" and shape.origin is Action:
        if not isinstance(value, Mapping) or not isinstance(value.get("do"), str):
            raise StateFormatError("expected an action: a mapping with 'do'", path)
        cls = _action_classes().get(value["do"])
        if cls is None:
            raise StateFormatError(f"unknown action kind {value['do']!r} (import the plugin "
                                   "that declares it)", f"{path}.do")
        # What an action names is an id of the state, or a token an action
        # creates (it may be gone by the time the action is performed: 608.2b).
        found: list[_Ref] | None = [] if refs is not None else None
        action = _decode_attrs(cls, {k: v for k, v in value.items() if k != "do"}, path, found)
        if refs is not None and found is not None:
            # (a token an action inside this one creates stays one: 111.1)
            refs.extend((kind if kind == "created" else "action", ident, sub)
                        for kind, ident, sub in found)
            for name in ("token", "permanent"):
                made = getattr(getattr(action, name, None), "id", None)
                if isinstance(made, str):
                    refs.append(("created", made, f"{path}.{name}.id"))
        return action
    if kind == "union":
        members = shape.args
        if value is None and any(m.kind == "none" for m in members):
            return None
        errors: list[StateFormatError] = []
        for member in members:
            if member.kind == "none":
                continue
            try:
                return _decode(member, value, path, refs)
            except StateFormatError as exc:
                errors.append(exc)
        raise errors[0] if len(errors) == 1 else StateFormatError(
            f"expected one of {', '.join(spelled(m) for m in members)}, got {_kind(value)}",
            path)
    if kind == "none":
        if value is not None:
            raise StateFormatError(f"expected null, got {_kind(value)}", path)
        return None
    if kind == "bool":
        if not isinstance(value, bool):
            raise StateFormatError(f"expected a boolean, got {_kind(value)}", path)
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateFormatError(f"expected an integer, got {_kind(value)}", path)
        return value
    if kind == "str":
        if not isinstance(value, str):
            raise StateFormatError(f"expected a string, got {_kind(value)}", path)
        return value
    origin = shape.origin
    if kind == "fixed":  # a fixed length: tuple[str, int]
        if not isinstance(value, list):
            raise StateFormatError(f"expected a list, got {_kind(value)}", path)
        if len(value) != len(shape.args):
            raise StateFormatError(f"expected a list of {len(shape.args)} items, got "
                                   f"{len(value)}", path)
        return tuple(_decode(item, v, f"{path}[{i}]", refs)
                     for i, (item, v) in enumerate(zip(shape.args, value, strict=True)))
    if kind == "items" and origin in (tuple, frozenset):
        if not isinstance(value, list):
            raise StateFormatError(f"expected a list, got {_kind(value)}", path)
        items = (_decode(shape.args[0], v, f"{path}[{i}]", refs) for i, v in enumerate(value))
        return tuple(items) if origin is tuple else frozenset(items)
    if origin is FrozenMap:
        if not isinstance(value, Mapping):
            raise StateFormatError(f"expected a mapping, got {_kind(value)}", path)
        item = shape.args[1] if kind == "map" else _ANY
        return FrozenMap((str(k), _decode(item, v, f"{path}.{k}", refs))
                         for k, v in value.items())
    if kind == "class" and origin is not None and attrs.has(origin):
        return _decode_attrs(origin, value, path, refs)
    raise StateFormatError(f"can't decode a value of type {_name(shape.hint)}", path)


#: The shape of a value a field doesn't say more of (a bare ``FrozenMap``'s).
_ANY: Final = shape_of(Any)


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp)


def _key_path(path: str, key: object) -> str:
    """The path of ``key`` below ``path``: dotted for a name, subscripted
    (``players[""]``, ``[3]``) for any other key, so that no path is empty."""
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{key!r}]"


_NO_BOUNDS: Final = (-(2**63), 2**63)


@functools.cache
def _checked_fields(cls: type) -> dict[str, tuple[tuple[str, ...] | None, tuple[int, int]]]:
    """The fields of ``cls`` with an enumeration or bounds, and them."""
    rules = {f.name: (enumeration(cls, f.name),
                      BOUNDS.get(f"{cls.__name__}.{f.name}", _NO_BOUNDS)) for f in _fields(cls)}
    return {name: rule for name, rule in rules.items()
            if rule[0] is not None or rule[1] is not _NO_BOUNDS}


def _check_value(cls: type, name: str, value: Any, path: str) -> None:
    """Refuse a value outside the field's enumeration or bounds."""
    values = enumeration(cls, name)
    if values is not None and isinstance(value, str) and value not in values:
        raise StateFormatError(f"{value!r} is not one of {', '.join(values)}", path)
    bounds = BOUNDS.get(f"{cls.__name__}.{name}")
    if bounds is None:
        return
    lo, hi = bounds
    items = value.items() if isinstance(value, FrozenMap) else [("", value)]
    for key, number in items:
        if isinstance(number, int) and not lo <= number <= hi:
            raise StateFormatError(f"{shown_number(number, grouped=False)} is out of bounds "
                                   f"({lo} to {hi})",
                                   _key_path(path, key) if key else path)


def _decode_attrs(cls: type, value: Any, path: str, refs: list[_Ref] | None) -> Any:
    if not isinstance(value, Mapping):
        raise StateFormatError(f"expected a mapping for {cls.__name__}, got {_kind(value)}",
                               path)
    known = _fields(cls)
    unknown = sorted(set(value) - {f.name for f in known}, key=repr)
    if unknown:
        raise StateFormatError(
            f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
            f"for {cls.__name__} (known: {', '.join(f.name for f in known)})",
            _key_path(path, unknown[0]))
    fields = fields_of(cls)
    if len(fields) != len(known):
        raise StateFormatError(f"can't decode {cls.__name__}: its annotations can't be "
                               "resolved", path)
    kinds = reference_fields(cls) if refs is not None else {}
    checked = _checked_fields(cls) if refs is not None else {}
    kwargs: dict[str, Any] = {}
    for f in fields:
        sub = f"{path}.{f.name}" if path else f.name
        if f.name not in value:
            if f.required:
                raise StateFormatError(f"missing required key for {cls.__name__}", sub)
            continue
        decoded = _decode(f.shape, value[f.name], sub, refs)
        kwargs[f.name] = decoded
        rule = checked.get(f.name)
        if rule is not None:
            values, (lo, hi) = rule
            if (values is not None and decoded not in values) or (
                    type(decoded) is int and not lo <= decoded <= hi) or (
                    type(decoded) is FrozenMap and decoded):
                _check_value(cls, f.name, decoded, sub)
        if refs is not None and f.name in kinds and isinstance(decoded, (str, tuple, frozenset)):
            # (ids; a spell as a damage source, a StackObject, names none)
            refs.append((kinds[f.name], decoded, sub))
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:  # pragma: no cover - converters reject it
        raise StateFormatError(str(exc), path) from exc


#: How an error names what a reference kind should be.
_WHAT: Final = {"player": "a player", "object": "an object", "source": "an object or a source",
                "player or object": "a player or an object",
                "any": "a player, an object or a source",
                "action": "a player, an object, a source or a token an action creates"}


def _some(ids: Mapping[str, Any]) -> str:
    shown = list(itertools.islice(ids, 6))
    more = ", ..." if len(ids) > len(shown) else ""
    return f" (the state's: {', '.join(shown)}{more})" if shown else " (the state has none)"


class _Checker:
    """The references and consistency of one decoded state; each check
    raises :class:`StateFormatError` naming the path."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.players = state.players._items
        self.objects = state.objects._items
        self.sources = state.sources._items
        self.created: set[str] = set()

    def resolves(self, kind: str, ident: Any) -> bool:
        if kind == "action":
            # (an action that waits, a trigger's: "each" is every player as it is
            # performed, 104.4a; performing it checks it again)
            return ident in self.created or ident == EACH_PLAYER or self.resolves("any", ident)
        if kind == "player":
            return ident in self.players
        if kind == "object":
            return ident in self.objects
        if kind == "source":
            return ident in self.objects or ident in self.sources
        if kind == "any":
            return ident in self.players or ident in self.objects or ident in self.sources
        return ident in self.players or ident in self.objects

    def ref(self, kind: str, ident: Any, path: str) -> None:
        if not self.resolves(kind, ident):
            where = self.players if kind == "player" else self.objects
            raise StateFormatError(f"{ident!r} is not {_WHAT[kind]} of the state"
                                   f"{_some(where)}", path)

    def refs(self, refs: list[_Ref]) -> None:
        self.created = {ident for kind, ident, _path in refs if kind == "created"}
        for kind, value, path in refs:
            if kind == "created":
                continue
            if isinstance(value, str):
                self.ref(kind, value, path)
            else:  # a tuple or frozenset of ids
                for i, ident in enumerate(value):
                    self.ref(kind, ident, f"{path}[{i}]")

    def ids(self) -> None:
        state = self.state
        for name in ("players", "objects", "lki", "sources"):
            for key, value in getattr(state, name)._items.items():
                if value.id != key:
                    raise StateFormatError(f"the id {value.id!r} differs from its key {key!r}",
                                           f"{name}.{key}.id")
        for key in self.objects:
            if key in self.players:
                raise StateFormatError(f"{key!r} is both a player and an object: ids are "
                                       "unique", f"objects.{key}")
        for key in self.sources:
            if key in self.players or key in self.objects:
                raise StateFormatError(f"{key!r} is both a source and a player or object: "
                                       "ids are unique", f"sources.{key}")
        for key in state.lki._items:
            if key not in self.objects:
                raise StateFormatError(f"last known information of {key!r}, which is not an "
                                       f"object of the state{_some(self.objects)}",
                                       f"lki.{key}")
        for name in ("shields", "effects", "stack", "delayed"):
            seen: set[str] = set()
            for i, item in enumerate(getattr(state, name)):
                if item.id and item.id in seen:
                    raise StateFormatError(f"the id {item.id!r} is used twice", f"{name}[{i}].id")
                seen.add(item.id)

    def players_and_teams(self) -> None:
        state = self.state
        order = state.turn_order
        if len(order) != len(self.players) or set(order) != set(self.players):
            raise StateFormatError(f"the turn order must name each player once: "
                                   f"{', '.join(self.players)}", "turn_order")
        team_of: dict[str, str] = {}
        for team, members in state.teams._items.items():
            for i, member in enumerate(members):
                path = f"teams.{team}[{i}]"
                self.ref("player", member, path)
                if member in team_of:
                    raise StateFormatError(f"{member!r} is on two teams: {team_of[member]!r} "
                                           f"and {team!r} (810.1)", path)
                team_of[member] = team
                first = self.players[members[0]]
                player = self.players[member]
                if (player.life, player.poison) != (first.life, first.poison):
                    raise StateFormatError(
                        f"{member!r} and {members[0]!r} are on team {team!r} but have "
                        "different life or poison: a team shares them (810.4, 810.10)",
                        f"players.{member}")

    def on_battlefield(self, ident: str, path: str, what: str) -> None:
        perm = self.objects.get(ident)
        if perm is None or perm.zone != "battlefield":
            where = "not an object of the state" if perm is None else f"in the {perm.zone}"
            raise StateFormatError(f"{what} {ident!r} is {where}: a creature that leaves "
                                   "the battlefield leaves combat (506.4)", path)

    def attacked(self, ident: str | None, path: str) -> None:
        if ident is None or ident in self.players:
            return
        self.on_battlefield(ident, path, "the attacked permanent")

    def combat(self) -> None:
        state = self.state
        combat = state.combat
        in_combat = is_combat_step(state.step)
        if state.held and state.step != "untap":
            raise StateFormatError(f"abilities held at {state.step!r}: they are held only in "
                                   "the untap step, and go on the stack at the upkeep "
                                   "(502.4, 503.1a)", "held")
        if combat is None:
            if in_combat:
                raise StateFormatError(f"the state is at {state.step!r}, a step of combat, "
                                       "but has no combat (506.1)", "combat")
            return
        if not in_combat:
            raise StateFormatError(f"a combat at {state.step!r}, outside the combat phase "
                                   "(506.1)", "combat")
        attacks = combat.attacks._items
        defending = combat.defending_players._items
        declared = combat.declared._items
        for attacker, target in attacks.items():
            path = f"combat.attacks.{attacker}"
            self.on_battlefield(attacker, path, "the attacking creature")
            self.attacked(target, path)
            if attacker not in defending:
                raise StateFormatError(f"attacking creature {attacker!r} has no defending "
                                       "player (506.2)", f"combat.defending_players.{attacker}")
            if attacker not in declared:
                raise StateFormatError(f"attacking creature {attacker!r} has no declared "
                                       "attack (508.1a)", f"combat.declared.{attacker}")
            if target is not None and defending[attacker] != state.defending_player_of(target):
                raise StateFormatError(
                    f"{defending[attacker]!r} is not the player defending against the attack "
                    f"on {target!r} ({state.defending_player_of(target)!r} is: 506.2)",
                    f"combat.defending_players.{attacker}")
        for attacker, player in defending.items():
            path = f"combat.defending_players.{attacker}"
            self.ref("object", attacker, path)
            self.ref("player", player, path)
        for attacker, target in declared.items():
            path = f"combat.declared.{attacker}"
            self.ref("object", attacker, path)
            if target is not None:
                self.ref("player or object", target, path)
        for blocker, blocked in combat.blocks._items.items():
            path = f"combat.blocks.{blocker}"
            self.on_battlefield(blocker, path, "the blocking creature")
            if blocker in attacks:
                raise StateFormatError(f"{blocker!r} is both attacking and blocking (509.1a)",
                                       path)
            for i, attacker in enumerate(blocked):
                if attacker not in attacks:
                    raise StateFormatError(f"{blocker!r} blocks {attacker!r}, which is not an "
                                           "attacking creature (509.1a)", f"{path}[{i}]")
        for i, attacker in enumerate(sorted(combat.blocked)):
            if attacker not in attacks:
                raise StateFormatError(f"{attacker!r} is blocked but is not an attacking "
                                       "creature (509.1h)", f"combat.blocked[{i}]")
        banded: set[str] = set()
        for i, band in enumerate(combat.bands):
            for j, member in enumerate(band):
                path = f"combat.bands[{i}][{j}]"
                if member not in attacks:
                    raise StateFormatError(f"{member!r} is in a band but is not an attacking "
                                           "creature (702.22c)", path)
                if member in banded:
                    raise StateFormatError(f"{member!r} is in two bands (702.22c)", path)
                banded.add(member)
        for ident, others in combat.order._items.items():
            self.ref("object", ident, f"combat.order.{ident}")
            for i, other in enumerate(others):
                self.ref("object", other, f"combat.order.{ident}[{i}]")
        for step, dealt in combat.damage_steps._items.items():
            for i, ident in enumerate(sorted(dealt)):
                self.ref("object", ident, f"combat.damage_steps.{step}[{i}]")
        for i, ident in enumerate(sorted(combat.dealt)):
            self.ref("object", ident, f"combat.dealt[{i}]")
        for i, ident in enumerate(sorted(combat.entered)):
            self.ref("object", ident, f"combat.entered[{i}]")
        for i, ident in enumerate(sorted(combat.returned)):
            self.ref("object", ident, f"combat.returned[{i}]")
        blocks = combat.blocks._items
        for i, ident in enumerate(sorted(combat.removed)):
            path = f"combat.removed[{i}]"
            self.ref("object", ident, path)
            if ident in attacks or ident in blocks:
                raise StateFormatError(f"{ident!r} is removed from combat but still attacks "
                                       "or blocks (506.4)", path)


def _decode_state(data: Mapping[str, Any], refs: list[_Ref] | None) -> GameState:
    """The state ``data`` encodes, its types checked but not its references
    (collected into ``refs``)."""
    if not isinstance(data, Mapping):
        raise StateFormatError(f"expected a mapping, got {_kind(data)}")
    version = data.get("format")
    if type(version) is not int or version != FORMAT:  # (``true`` is no format: 1 == True)
        shown = (shown_number(version, grouped=False) if type(version) is int
                 else f"{version!r:.80}")
        raise StateFormatError(f"unsupported format {shown}; this version reads "
                               f"format {FORMAT}", "format")
    _check_depth(data)
    body = {k: v for k, v in data.items() if k != "format"}
    state: GameState = _decode_attrs(GameState, body, "", refs)
    return state


def _check_depth(data: Mapping[str, Any]) -> None:
    """``data`` nests lists and mappings at most :data:`MAX_DEPTH` deep:
    walked without recursion before anything is decoded (decoding recurses),
    in work linear in its size.

    :raises StateFormatError: naming the path of the first list or mapping
        past the bound, and the bound.
    """
    todo: list[tuple[Any, str, int]] = [(data, "", 1)]
    while todo:
        value, path, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise StateFormatError(f"nested more than {MAX_DEPTH} deep (lists and mappings "
                                   "within one another: the bound of the saved form, "
                                   "serialize.MAX_DEPTH)", path)
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        for key, item in items:
            if isinstance(item, (Mapping, list, tuple)):
                sub = (f"{path}[{key}]" if type(value) in (list, tuple) else
                       _key_path(path, key if type(key) is str else type_name(key)))
                todo.append((item, sub, depth + 1))


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    """The :class:`~redzone.GameState` that :func:`state_to_dict` encoded.

    Besides the types, the state's references and consistency are checked, in
    one pass over it (linear in its size): every id a field names (as their
    annotations say: controllers, owners, protectors, the sources and recipients
    of shields, effects and damage on the stack, triggers' sources, controllers
    and targets, delayed triggers, choices, conditions, the game's winners and
    losers) is a player, an object or a source of the state; a map's key is its
    value's id, and players, objects and sources have distinct ids; last known
    information is of an object; the turn order names each player once; teams
    name players, each on one team, who share their life and poison (810.4);
    shields, effects, triggers and delayed triggers have distinct ids; abilities
    are held only in the untap step (502.4); a state in a combat step has a
    combat and only then (506.1); attacking and blocking creatures are on the
    battlefield (506.4); what an attacker attacks is a player or a permanent on
    the battlefield, whose defending player it records (506.2); a blocker blocks
    only attacking creatures and doesn't attack (509.1a); blocked creatures and
    bands are attacking creatures, each in one band (702.22c); damage assignment
    orders and the combatants that dealt damage are objects; creatures removed
    from combat are objects out of it (506.4); every enumerated field holds a
    value of its enumeration (:data:`ENUMERATIONS`) and every count is within
    :data:`BOUNDS`; the ids an action names (a trigger's, a delayed trigger's)
    are players, objects, sources or tokens an action creates (and are checked
    again as it is performed, 608.2b). A keyword's record is checked against its
    text by the engine, as a command starts (it has the parser).

    :param data: a dict as :func:`state_to_dict` returns it (or as
        :func:`json.loads` reads it back).
    :raises StateFormatError: naming the key path of an unknown key, a missing
        field, a value of the wrong type, an unsupported ``format``, an id
        the state doesn't have, or an inconsistency above.
    """
    refs: list[_Ref] = []
    state = _decode_state(data, refs)
    check = _Checker(state)
    check.ids()
    check.players_and_teams()
    check.refs(refs)
    check.combat()
    return state


__all__ = ["BOUNDS", "ENUMERATIONS", "FORMAT", "MAX_DEPTH", "NOT_REFERENCES", "OPEN_STRINGS",
           "StateFormatError", "enumeration", "reference_kind", "state_from_dict",
           "state_to_dict"]
