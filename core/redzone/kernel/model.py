"""The game state: frozen value objects referred to by id.

Every class here is an attrs ``@frozen`` value. Collections are tuples,
frozensets or :class:`~redzone.kernel.frozen.FrozenMap`, so a state handed to a plugin
or kept as a snapshot can never change under anyone's feet. A command returns a
new state; the old one is still valid (that is rule 733's "the game returns to
the moment before", and free snapshots for an embedding engine).

Current power, toughness and keywords are computed in one place,
:class:`Permanent`'s cached properties, from the printed values, counters and
"until end of turn" modifications applied in timestamp order (613 simplified to
layers 6 and 7c-d, which is all combat needs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final

from attrs import field, frozen
from attrs import fields as attrs_fields

from redzone.kernel import display as _display
from redzone.kernel.frozen import (
    EMPTY,
    Copyable,
    FrozenMap,
    as_map,
    as_tuple,
    derived,
    lazy_frozen,
    not_a_collection,
    unchanged,
)
from redzone.kernel.references import AnyId, ObjectId, PlayerId, PlayerOrObjectId, SourceId

# ---------------------------------------------------------------------------
# Values the state holds that hooks pass too (named in redzone.kernel.hooktypes)
# ---------------------------------------------------------------------------


@frozen(slots=False)  # built by the thousand: dict-based builds are faster
class Damage(Copyable):
    """Damage about to be dealt or dealt (120).

    :param source: the id of the object dealing it; read from last known
        information when it has left the battlefield (120.7, 608.2h).
    :param target: the id of the player, creature, planeswalker or battle.
    :param amount: how much.
    :param combat: whether it is combat damage (510.2).
    :param step: the step it is dealt in.

    .. versionadded:: 0.1.0
    """

    source: SourceId
    target: PlayerOrObjectId
    amount: int
    combat: bool = False
    step: str = ""



@lazy_frozen
class Action(Copyable):
    """The base of every action: a thing that happens to the game, as data.

    The kernel's own actions (:class:`~redzone.Pump`, :class:`~redzone.CreateToken`
    ...) and a plugin's are alike: a frozen attrs subclass with a class-level
    ``do`` (its name in scenario files and errors), declared through
    :func:`~redzone.kernel.hookspecs.redzone_actions` with the function that
    performs it.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = ""



#: "can block any number of creatures" (509.1a, 702.22 capacity); a blocker's
#: ``can_block_additional`` at or above this value means unlimited.
UNLIMITED: Final = 1_000_000

#: The zones an object can be in (400.1): the battlefield, the stack and
#: exile, which the players share, and each player's own hand, library and
#: graveyard.
ZONES: Final = ("battlefield", "graveyard", "exile", "hand", "library", "stack")
#: The zones the outcome lists by player (each object under its owner, 400.3),
#: each in order (:meth:`GameState.zone`).
PLAYER_ZONES: Final = ("hand", "library", "graveyard", "exile")
#: What an object's record can show as its zone: one of :data:`ZONES`, a
#: token that ceased to exist (``"ceased"``, 111.7, 704.5d) or a card whose
#: owner left the game (``"left_game"``, 800.4a).
OBJECT_ZONES: Final = (*ZONES, "ceased", "left_game")

CARD_TYPES: Final = frozenset(
    {"creature", "planeswalker", "battle", "artifact", "land", "enchantment"}
)
COLORS: Final = ("white", "blue", "black", "red", "green")

#: How long a continuous effect, shield or modification lasts (611.2, 514.2):
#: ``end_of_turn`` ("until end of turn", "this turn": ends in the cleanup step,
#: 514.2), ``end_of_combat`` ("until end of combat") and ``this_combat`` (both
#: end as the end of combat step ends, 511.3), ``while`` ("for as long as": ends
#: the moment its :class:`Condition` stops holding, 611.2b) and ``game`` (no
#: stated duration: the rest of the game, 611.2a); and two that belong to a
#: player (:func:`redzone.kernel.settle.whose`): ``until_your_next_turn``
#: (ends as that player's next turn begins, before its untap step: 500.4,
#: 611.2a) and ``next_untap_step`` ("during your next untap step": ends as
#: that player's next untap step ends, 502.3, 701.43a).
DURATIONS: Final = ("end_of_turn", "end_of_combat", "this_combat", "while", "game",
                    "until_your_next_turn", "next_untap_step")
#: The durations that end at a moment of one player's turn (whose:
#: :func:`redzone.kernel.settle.whose`).
PLAYER_DURATIONS: Final = frozenset({"until_your_next_turn", "next_untap_step"})
#: The lifetimes of a plugin's own state (:class:`PluginState`).
SCOPES: Final = ("game", "turn", "combat")


@lazy_frozen
class Condition(Copyable):
    """A "for as long as" condition (611.2b).

    The kernel answers three kinds itself: ``on_battlefield`` (``object`` is on
    the battlefield), ``controls`` (``player`` controls ``object``) and
    ``in_combat`` (``object`` is an attacking or blocking creature). Any other
    kind is a plugin's: the plugin answers it through
    :func:`~redzone.kernel.hookspecs.redzone_condition_holds`.

    :param kind: the condition's kind.
    :param object: the object it is about, if any.
    :param player: the player it is about, if any.
    :param text: how the account words it (``"as long as you control Thief"``).
    :param number: the number of the object (:attr:`Permanent.object`)
        ``object`` was as the effect started, noted by the kernel: the
        kernel's kinds don't hold of a new object with its id (400.7: a
        permanent that left and came back isn't the one the effect is about).

    .. versionadded:: 0.1.0
    """

    kind: str
    object: ObjectId | None = None
    player: PlayerId | None = None
    text: str = ""
    number: int | None = None


def _tuple_of_str(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)):
        not_a_collection(value, _tuple_of_str)
    return tuple(value)


def _frozenset_of_str(value: Iterable[str]) -> frozenset[str]:
    if type(value) is frozenset:
        return value
    if isinstance(value, (str, bytes)):
        not_a_collection(value, _frozenset_of_str)
    return frozenset(value)


unchanged(_frozenset_of_str, frozenset)


def _counters(value: Mapping[str, int] | Iterable[tuple[str, int]]) -> FrozenMap[str, int]:
    if value is EMPTY or (isinstance(value, Mapping) and not value):
        return EMPTY
    if isinstance(value, (str, bytes)):
        not_a_collection(value, _counters)
    items = value.items() if isinstance(value, Mapping) else value
    return FrozenMap(sorted((k, v) for k, v in items if v))


#: What one counter of each kind seen so far adds to power and toughness
#: (122.1a): ``(X, Y)`` for a +X/+Y or -X/-Y counter, ``None`` for any other
#: kind. Kinds are few, so each is parsed once.
_PT_KINDS: dict[str, tuple[int, int] | None] = {}


def _pt_kind(kind: str) -> tuple[int, int] | None:
    parts = kind.split("/")
    if len(parts) != 2:
        return None
    values = []
    for part in parts:
        sign, digits = part[:1], part[1:]
        if sign not in ("+", "-") or not digits.isascii() or not digits.isdigit():
            return None
        values.append(int(digits) if sign == "+" else -int(digits))
    return values[0], values[1]


def counters_pt(counters: Mapping[str, int]) -> tuple[int, int]:
    """What a permanent's counters add to its power and toughness (layer 7c):
    X and Y for each +X/+Y counter, minus them for each -X/-Y counter
    (``"+1/+0"``, ``"-0/-2"``, ``"+2/+2"``); other kinds add nothing.

    :param counters: counters by kind, as :attr:`Permanent.counters`.
    :returns: ``(power, toughness)`` to add.

    Rules: 122.1a, 613.4c
    """
    dp = dt = 0
    for kind, n in counters.items():
        try:
            pt = _PT_KINDS[kind]
        except KeyError:
            pt = _PT_KINDS[kind] = _pt_kind(kind)
        if pt is not None:
            dp += pt[0] * n
            dt += pt[1] * n
    return dp, dt


@frozen
class Keyword(Copyable):
    """One keyword instance on a permanent.

    :param name: the keyword's family name as a plugin registered it
        (``"flying"``, ``"toxic"``, ``"protection"``, ``"landwalk"``).
    :param text: the instance as printed, normalised to lower case with single
        spaces (``"toxic 2"``, ``"protection from red"``, ``"swampwalk"``).
    :param args: the parameters the keyword's pattern captured (``("2",)``,
        ``("red",)``, ``("swamp",)``).

    .. versionadded:: 0.1.0
    """

    name: str
    text: str = field()
    args: tuple[str, ...] = field(default=(), converter=as_tuple)

    @text.default
    def _text_default(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.text

    @property
    def number(self) -> int:
        """The first parameter as an integer (``toxic 2`` -> 2); 1 when there is none."""
        for arg in self.args:
            if arg.isdigit():
                return int(arg)
        return 1


def loses(k: Keyword, gone: Collection[str]) -> bool:
    """Whether an effect that removes the keywords ``gone`` (layer 6,
    613.1f) removes the instance ``k``: every instance of each ability it
    names (113.10b), one named by its text (``"protection from red"``
    leaves ``"protection from white"``), or by its family's name
    (``"flying"``; a text that is its family's name, as ``"hexproof"``,
    removes the family: ``"hexproof from red"`` too, 702.11e).

    :param k: the keyword instance.
    :param gone: the texts and family names the effect removes.
    """
    return k.text in gone or k.name in gone


def _keywords(value: Iterable[Keyword | str]) -> tuple[Keyword, ...]:
    if isinstance(value, (str, bytes)):
        not_a_collection(value, _keywords)
    return tuple(k if isinstance(k, Keyword) else Keyword(k) for k in value)


def _map_of(value: Any, kind: type[tuple[Any, ...]] | type[frozenset[Any]],
            converter: Any) -> FrozenMap[str, Any]:
    """A map whose values are collections of ``kind`` (``tuple`` or
    ``frozenset``), for the converter ``converter`` (which keeps a
    :class:`FrozenMap` whose values all are as it is): any other collection
    of values becomes one; a ``str`` or a single value, as the map or as one
    of its values, is refused naming the field (and the key)."""
    if type(value) is FrozenMap:
        items: dict[str, Any] = dict(value._items)
    else:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            not_a_collection(value, converter)
        items = dict(value)
    for key, item in items.items():
        if type(item) is not kind:
            if isinstance(item, (str, bytes)) or not hasattr(item, "__iter__"):
                not_a_collection(item, converter, key, value)
            items[key] = kind(item)
    return FrozenMap._wrap(items) if items else EMPTY


#: The one type of a map's values that :func:`_tuples_map` and
#: :func:`_sets_map` keep as they are (checked in C, without a Python call).
_ONLY_TUPLES: Final = frozenset({tuple})
_ONLY_FROZENSETS: Final = frozenset({frozenset})


def _tuples_map(value: Any) -> FrozenMap[str, tuple[Any, ...]]:
    """attrs converter: a map whose values are tuples (a choice's actions by
    option, a trigger's answers by choice, a blocker's attackers, a team's
    players): a list becomes a tuple; a ``str`` or a single value is
    refused, naming the field and the key (:func:`_map_of`)."""
    if type(value) is FrozenMap and _ONLY_TUPLES.issuperset(map(type, value._items.values())):
        return value
    return _map_of(value, tuple, _tuples_map)


def _sets_map(value: Any) -> FrozenMap[str, frozenset[Any]]:
    """attrs converter: a map whose values are frozensets (the creatures
    that dealt combat damage in each step): a list or set becomes a
    frozenset; a ``str`` or a single value is refused, naming the field and
    the key (:func:`_map_of`)."""
    if type(value) is FrozenMap and _ONLY_FROZENSETS.issuperset(
            map(type, value._items.values())):
        return value
    return _map_of(value, frozenset, _sets_map)


def _tuples(value: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    """attrs converter: a collection of collections (attacking bands) to a
    tuple of tuples; a ``str`` or a single value, as the whole or as one of
    its items, is refused naming the field (and the item's place)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        not_a_collection(value, _tuples)
    out: tuple[Any, ...] = tuple(value)
    for i, item in enumerate(out):
        if type(item) is not tuple:
            if isinstance(item, (str, bytes)) or not hasattr(item, "__iter__"):
                not_a_collection(item, _tuples, i, value)
            out = (*out[:i], tuple(item), *out[i + 1:])
    return out


def optional_strs(value: Iterable[str] | None) -> tuple[str, ...] | None:
    """attrs converter: ``None`` (no such effect), or a collection of names
    to a tuple; a ``str`` is refused naming the field."""
    if value is None or type(value) is tuple:
        return value
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        not_a_collection(value, optional_strs)
    return tuple(value)


@lazy_frozen
class Modification(Copyable):
    """A continuous effect on one permanent (a pump, a granted or lost keyword).

    Applied in timestamp order (the order of :attr:`Permanent.modifications`).

    :param power: added to power (layer 7c).
    :param toughness: added to toughness (layer 7c).
    :param add_keywords: keyword instances the permanent gains (layer 6).
    :param remove_keywords: the keywords the permanent loses (layer 6), every
        instance of each, including ones granted earlier (113.10b): a
        keyword's text (``"protection from red"``, ``"toxic 2"``) names
        that ability alone; a family's name (``"flying"``, ``"toxic"``)
        every keyword of that family (so losing ``"hexproof"`` loses
        ``"hexproof from red"`` too, 702.11e); see :func:`loses`.
    :param source: what created the effect, for the account (optional).
    :param duration: how long it lasts (:data:`DURATIONS`; 611.2).
    :param condition: for ``duration="while"``, the condition (611.2b).
    :param controller: a control-changing effect (layer 2, 613.1b): the
        player who controls the permanent while it applies
        (:class:`~redzone.GainControl`); the latest one that applies wins.
    :param control_from: for a control-changing effect, the player who
        controlled the permanent before it: when the last of them ends, the
        permanent returns to the first one's.
    :param timestamp: given by the kernel as it starts (613.7a): the
        state's counter (``GameState.timestamp``) as it stands, the timestamp
        of the latest continuous effect; it is later than that one and earlier
        than the next (which takes one more), its place among them in layer 6.
    :param owner: for ``duration="until_your_next_turn"``, the player whose
        next turn ends it: the controller of the spell or ability that created
        it (611.2a), set by the kernel as it starts; without one, the player
        :func:`~redzone.kernel.settle.whose` works out from what it applies to.

    .. versionadded:: 0.1.0
    """

    power: int = 0
    toughness: int = 0
    add_keywords: tuple[Keyword, ...] = field(default=(), converter=_keywords)
    remove_keywords: tuple[str, ...] = field(default=(), converter=as_tuple)
    source: str | None = None
    duration: str = "end_of_turn"
    condition: Condition | None = None
    controller: PlayerId | None = None
    control_from: PlayerId | None = None
    timestamp: int = 0
    owner: PlayerId | None = None


# ---------------------------------------------------------------------------
# Continuous effects that modify characteristics (613): the board-wide
# application is redzone.kernel.layers'; one permanent's layers 6-7 are here
# ---------------------------------------------------------------------------


#: The layers and sublayers in the order they apply (613.1, 613.4).
LAYERS: Final = ("1", "3", "4", "5", "6", "7a", "7b", "7c", "7d")


def _strs(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)):
        not_a_collection(value, _strs)
    return tuple(value)


@lazy_frozen
class ContinuousEffect(Copyable):
    """A continuous effect that modifies characteristics (611, 613).

    What it applies to: every permanent on the battlefield that matches all
    of the ``affects*`` criteria given (none given: every permanent); with
    ``locked`` (an effect from a resolving spell or ability, 611.2c) the set
    is fixed as it begins and only those objects (``affects``) are affected.
    Given ids (``affects``, locked or not) name the objects the permanents
    were as it began (``numbers``): one that leaves the battlefield and
    comes back is a new object it doesn't apply to (400.7). Whatever it
    applies to in the first layer it has a part in, it applies to in its
    later layers (613.6), even if that object no longer matches.

    :param affects: these objects only (ids).
    :param affects_types: ... that have every one of these card types.
    :param affects_subtypes: ... that have one of these subtypes.
    :param affects_colors: ... that are one of these colors.
    :param affects_controller: ... that this player controls.
    :param affects_keyword: ... that have a keyword of this name.
    :param copy_of: layer 1: becomes a copy of this object (its copiable
        values, 707.2).
    :param text_from: layer 3: every instance of this word in its text
        (keyword abilities' words: colors, basic land types) ...
    :param text_to: ... becomes this word (612.2).
    :param set_types: layer 4: its card types become these (205.1a:
        replacing the old ones; its subtypes that belong to none of its
        types now are gone, 205.3d: an Elf that becomes an artifact
        creature stays an Elf, a Forest doesn't).
    :param add_types: layer 4: card types it gains ("in addition", 205.1b).
    :param remove_types: layer 4: card types it loses, and with them their
        subtypes unless they belong to a type it still has (205.1a).
    :param set_subtypes: layer 4: its subtypes of the kinds of these
        become these ("is a Mountain": its land types, 205.1a; its creature
        types stay).
    :param add_subtypes: layer 4: subtypes it gains (only those that belong
        to one of its types, 205.3d).
    :param remove_subtypes: layer 4: subtypes it loses.
    :param set_colors: layer 5: its colors become these (``("colorless",)``
        -> none; 105.2).
    :param add_colors: layer 5: colors it gains.
    :param add_keywords: layer 6: keyword instances it gains.
    :param remove_keywords: layer 6: keywords it loses, as
        :attr:`Modification.remove_keywords` (a keyword's text, or a
        family's name: every instance, 113.10b).
    :param lose_all_abilities: layer 6: it loses all abilities.
    :param cda: it comes from a characteristic-defining ability (604.3):
        in layers 2-6 it applies before the other effects (613.3); its
        ``set_power``/``set_toughness`` apply in layer 7a, not 7b.
    :param set_power: layer 7b (or 7a): base power becomes this.
    :param set_toughness: layer 7b (or 7a): base toughness becomes this.
    :param power: layer 7c: added to power.
    :param toughness: layer 7c: added to toughness.
    :param switch: layer 7d: power and toughness are switched (613.4d).
    :param locked: the affected set was fixed as it began (611.2c).
    :param source: what created it, for the account.
    :param duration: how long it lasts (611.2).
    :param condition: for ``duration="while"``, the condition (611.2b).
    :param id: given by the kernel as it starts (``"c1"`` ...).
    :param timestamp: given by the kernel as it starts (613.7a).
    :param numbers: set by the kernel as it starts: the number of the
        object (:attr:`Permanent.object`) each of ``affects`` was then, in
        order; it doesn't apply to a new object with that id (400.7).
        Empty (or shorter than ``affects``): whatever object has the id.

    .. versionadded:: 0.1.0
    """

    affects: tuple[ObjectId, ...] = field(default=(), converter=as_tuple)
    affects_types: tuple[str, ...] = field(default=(), converter=_strs)
    affects_subtypes: tuple[str, ...] = field(default=(), converter=_strs)
    affects_colors: tuple[str, ...] = field(default=(), converter=_strs)
    affects_controller: PlayerId | None = None
    affects_keyword: str | None = None
    copy_of: ObjectId | None = None
    text_from: str = ""
    text_to: str = ""
    set_types: tuple[str, ...] | None = field(default=None, converter=optional_strs)
    add_types: tuple[str, ...] = field(default=(), converter=_strs)
    remove_types: tuple[str, ...] = field(default=(), converter=_strs)
    set_subtypes: tuple[str, ...] | None = field(default=None, converter=optional_strs)
    add_subtypes: tuple[str, ...] = field(default=(), converter=_strs)
    remove_subtypes: tuple[str, ...] = field(default=(), converter=_strs)
    set_colors: tuple[str, ...] | None = field(default=None, converter=optional_strs)
    add_colors: tuple[str, ...] = field(default=(), converter=_strs)
    add_keywords: tuple[Keyword, ...] = field(default=(), converter=as_tuple)
    remove_keywords: tuple[str, ...] = field(default=(), converter=_strs)
    lose_all_abilities: bool = False
    cda: bool = False
    set_power: int | None = None
    set_toughness: int | None = None
    power: int = 0
    toughness: int = 0
    switch: bool = False
    locked: bool = False
    source: SourceId | None = None
    duration: str = "game"
    condition: Condition | None = None
    id: str = ""
    timestamp: int = 0
    numbers: tuple[int, ...] = field(default=(), converter=as_tuple)

    def layers(self) -> tuple[str, ...]:
        """The layers it has a part in (613.6), in order."""
        return tuple(layer for layer in LAYERS if has_part(self, layer))


def has_part(e: ContinuousEffect | Modification, layer: str) -> bool:
    """Whether a continuous effect (or a modification) has a part in
    ``layer`` (613.6)."""
    if not isinstance(e, ContinuousEffect):  # a modification: layers 6 and 7c
        return (layer == "6" and bool(e.add_keywords or e.remove_keywords)) or (
            layer == "7c" and bool(e.power or e.toughness))
    if layer == "1":
        return e.copy_of is not None
    if layer == "3":
        return bool(e.text_from and e.text_to)
    if layer == "4":
        return e.set_types is not None or e.set_subtypes is not None or bool(
            e.add_types or e.remove_types or e.add_subtypes or e.remove_subtypes)
    if layer == "5":
        return e.set_colors is not None or bool(e.add_colors)
    if layer == "6":
        return e.lose_all_abilities or bool(e.add_keywords or e.remove_keywords)
    if layer == "7a":
        return e.cda and (e.set_power is not None or e.set_toughness is not None)
    if layer == "7b":
        return not e.cda and (e.set_power is not None or e.set_toughness is not None)
    if layer == "7c":
        return bool(e.power or e.toughness)
    return layer == "7d" and e.switch


@lazy_frozen
class Printed(Copyable):
    """A permanent's own characteristics as its card (or token) gives them,
    kept while layered values stand in its fields (the copiable values
    before copy effects, 707.2).

    .. versionadded:: 0.1.0
    """

    name: str
    types: frozenset[str] = field(converter=_frozenset_of_str)
    subtypes: tuple[str, ...] = field(converter=as_tuple)
    supertypes: frozenset[str] = field(converter=_frozenset_of_str)
    colors: frozenset[str] = field(converter=_frozenset_of_str)
    base_power: int | None
    base_toughness: int | None
    printed_keywords: tuple[Keyword, ...] = field(converter=_keywords)


@lazy_frozen
class Layered(Copyable):
    """What the layer system found for one permanent as the last command
    settled (:func:`redzone.kernel.layers.baked`).

    :param printed: its own characteristics, before any effect.
    :param effects: the continuous effects with a part in layer 6 or 7 that
        apply to it: those with a part in layer 6 in the order they apply
        there, then the others by timestamp (:func:`layer_values` applies
        7a and 7b by timestamp).
    :param slots: where its modifications that grant or remove keywords
        applied among those effects in layer 6 (613.7-613.8: an effect
        that depends on one applies after it, 613.8a; an effect of a
        characteristic-defining ability before it, 613.3): for each, its
        timestamp and how many of the layer-6 ``effects`` applied before it.

    .. versionadded:: 0.1.0
    """

    printed: Printed
    effects: tuple[ContinuousEffect, ...] = field(default=(), converter=as_tuple)
    slots: tuple[tuple[int, int], ...] = field(default=(), converter=as_tuple)


# -- layers 6 and 7 of one permanent: the only derivation of keywords and P/T -----------


def layer_values(perm: Permanent) -> tuple[tuple[Keyword, ...], int | None, int | None]:
    """A permanent's keywords, power and toughness: layer 6 then 7a-7d
    (613.1f-g, 613.4) from its fields (layers 1-5 already applied), its
    modifications and its baked continuous effects: layer 6 in the order
    the layer system found (613.3, timestamps and dependencies, 613.7-613.8,
    its modifications among them too: :attr:`Layered.slots`), 7a
    and 7b each in timestamp order (613.7); counters in 7c (613.4c). A
    creature with no power or toughness value has 0 (208.5), which 7c and
    7d change: a land with +1/+1 counters that becomes a creature has
    them."""
    mods = perm.modifications
    layered = perm.layered
    effects = layered.effects if layered is not None else ()
    slots = layered.slots if layered is not None else ()
    kws = list(perm.printed_keywords)
    for item in _merged(mods, [e for e in effects if has_part(e, "6")], slots):
        if isinstance(item, ContinuousEffect) and item.lose_all_abilities:
            kws = []
        if item.remove_keywords:
            gone = set(item.remove_keywords)
            kws = [k for k in kws if not loses(k, gone)]
        kws.extend(item.add_keywords)
    p, t = perm.base_power, perm.base_toughness
    setting = [e for e in effects if e.set_power is not None or e.set_toughness is not None]
    if len(setting) > 1:  # 7a, then 7b, each in timestamp order (613.4a-b, 613.7)
        setting.sort(key=_sets_order)
    for e in setting:
        p = e.set_power if e.set_power is not None else p
        t = e.set_toughness if e.set_toughness is not None else t
    dp = dt = 0
    c = perm.counters
    if c is not EMPTY:
        dp, dt = counters_pt(c)
    for mod in mods:
        dp += mod.power
        dt += mod.toughness
    for e in effects:
        dp += e.power
        dt += e.toughness
    if "creature" in perm.types:  # a creature's missing value is 0 (208.5)
        p = (p or 0) + dp
        t = (t or 0) + dt
    else:
        if p is not None:
            p += dp
        if t is not None:
            t += dt
    for e in effects:
        if e.switch:
            p, t = t, p
    return tuple(kws), p, t


def _sets_order(e: ContinuousEffect) -> tuple[bool, int]:
    return not e.cda, e.timestamp


def _merged(mods: Sequence[Modification], effects: Sequence[ContinuousEffect],
            slots: Sequence[tuple[int, int]] = ()) -> list[Any]:
    """Modifications and layer-6 effects in the order they apply, each
    keeping its own (the effects' is the layer system's, 613.3 and
    613.7-613.8): a modification the layer system placed (``slots``: its
    timestamp, how many effects before it) where it did; one it didn't (it
    started since) by timestamp, after the effects of characteristic-
    defining abilities (613.3)."""
    if not mods:
        return list(effects)
    placed = dict(slots)
    out: list[Any] = []
    left = list(mods)
    for n, e in enumerate(effects):
        due = [m for m in left if _before(m, n, e, placed)]
        if due:
            out.extend(due)
            left = [m for m in left if not any(m is d for d in due)]
        out.append(e)
    out.extend(left)
    return out


def _before(mod: Modification, n: int, e: ContinuousEffect, placed: Mapping[int, int]) -> bool:
    """Whether ``mod`` applies before ``e``, the ``n``-th effect of layer 6."""
    at = placed.get(mod.timestamp)
    if at is not None:
        return at <= n
    return not e.cda and mod.timestamp < e.timestamp


@frozen(slots=False)
class Player(Copyable):
    """A player.

    :param id: the player's id.
    :param life: life total (119).
    :param poison: poison counters (122.1f).
    :param lost: whether the player has lost the game (104.3); a player who
        lost has left the game (104.5).
    :param loss_rule: the rule by which the player lost, e.g. ``"704.5a"``.
    :param drew_from_empty: the player attempted to draw a card from an empty
        library since state-based actions were last checked (121.4): they
        lose at the next check (704.5b).
    :param lands_played: how many lands the player has played this turn
        (305.2: one, normally).
    :param max_hand_size: the most cards the player may keep in hand at the
        cleanup step (402.2, 514.1: normally seven); ``None`` for no maximum
        hand size.

    .. versionadded:: 0.1.0
    """

    id: str
    life: int = 20
    poison: int = 0
    lost: bool = False
    loss_rule: str | None = None
    drew_from_empty: bool = False
    lands_played: int = 0
    max_hand_size: int | None = 7

    def __repr__(self) -> str:
        return _display.player_repr(self)


#: The fields of a permanent the kernel's own plugins are gated on
#: (``"objects.<field>"``, see :mod:`redzone.kernel._gates`): restrictions and
#: requirements no keyword owns.
FLAG_FIELDS: Final = ("cant_attack", "cant_block", "cant_be_blocked", "min_blockers",
                      "attacks_if_able", "blocks_if_able", "must_be_blocked", "lure",
                      "can_block_additional")


def object_label(name: str, id: str) -> str:
    """How a message names an object: its name, and its id in brackets when
    they differ (``Craw Wurm (wurm)``; ``wurm`` for one named by its id)."""
    return name if name == id else f"{name} ({id})"


@frozen(cache_hash=True, slots=False)
class Permanent(Copyable):
    """A permanent (or, after it left the battlefield, its card and last known
    information: ``zone`` says where it is).

    :param id: unique id, used everywhere a declaration or event names it.
    :param name: the card name; defaults to the id.
    :param controller: the controlling player's id.
    :param owner: the owning player's id; defaults to the controller.
    :param types: card types (``creature``, ``planeswalker``, ``battle`` ...).
    :param subtypes: subtypes, e.g. ``("Swamp",)`` or ``("Siege",)``.
    :param supertypes: supertypes, lower case: ``basic``, ``legendary``,
        ``snow`` ... (205.4a); a land without ``basic`` is nonbasic (205.4c).
    :param colors: colors; empty for colorless.
    :param base_power: printed power (creatures), before counters and effects.
    :param base_toughness: printed toughness (creatures).
    :param printed_keywords: keyword instances the permanent has on its own.
    :param printed_loyalty: a planeswalker's printed loyalty number, or
        ``None``; kept in every zone. A planeswalker enters the battlefield
        with that many loyalty counters (306.5b, 614.1c:
        :meth:`entering_counters`); its loyalty is its counters.
    :param printed_defense: a battle's printed defense number, or ``None``;
        kept in every zone. A battle enters the battlefield with that many
        defense counters (310.4b, 614.1c); its defense is its counters.
    :param counters: counters by kind (``"+1/+1"``, ``"-1/-1"``, ``"loyalty"``,
        ``"defense"`` ...).
    :param damage: damage marked on it this turn (120.6).
    :param tapped: whether it is tapped.
    :param summoning_sick: not controlled continuously since the turn began (302.6).
    :param modifications: "until end of turn" effects, in timestamp order.
    :param protector: for a battle, the player who protects it (310.9); one
        with none in the game, or one who can't be (a Siege's controller or
        teammate, 310.12a; another than its controller for a battle with no
        battle type, 310.9a), is given one by its controller as state-based
        actions are checked (704.5x-y).
    :param can_block_additional: how many more creatures than one it can block
        each combat (:data:`UNLIMITED` for "any number").
    :param cant_attack: "can't attack" (508.1c).
    :param cant_block: "can't block" (509.1b).
    :param cant_be_blocked: "can't be blocked" (509.1b).
    :param min_blockers: "can't be blocked except by N or more creatures"
        (509.1b); 0 or 1 for no such restriction.
    :param attacks_if_able: "attacks each combat if able" (508.1d).
    :param blocks_if_able: "blocks each combat if able" (509.1c).
    :param must_be_blocked: "must be blocked if able": at least one creature
        blocks it if able (509.1c).
    :param lure: "all creatures able to block it do so" (509.1c).
    :param marks: facts noted since state-based actions were last checked,
        named by the plugin that sets them (for example the deathtouch plugin's
        "dealt damage by a source with deathtouch"); cleared after each check.
    :param zone: where it is, one of :data:`ZONES` (or ``ceased``,
        ``left_game``: :data:`OBJECT_ZONES`); a card off the battlefield is
        controlled by its owner.
    :param token: whether it is a token.
    :param object: which object the card is (400.7): 1 until it first changes
        zones, one more each time it does; the id stays the card's.
    :param position: its place in its zone, lowest first: a library's top
        card has the lowest (401.1), a graveyard's oldest card too (404.1).
        Objects with equal positions keep the order they were given in.
    :param layered: set by the kernel while continuous effects of
        ``GameState.continuous`` apply to it (:mod:`redzone.kernel.layers`):
        its own characteristics (the fields then hold the values of layers
        1-5) and the effects of layers 6-7 that apply to it.

    .. versionadded:: 0.1.0
    """

    id: str
    controller: PlayerId
    name: str = field()
    owner: PlayerId = field()
    types: frozenset[str] = field(default=frozenset({"creature"}), converter=_frozenset_of_str)
    subtypes: tuple[str, ...] = field(default=(), converter=as_tuple)
    supertypes: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    colors: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    base_power: int | None = None
    base_toughness: int | None = None
    printed_keywords: tuple[Keyword, ...] = field(default=(), converter=_keywords)
    printed_loyalty: int | None = None
    printed_defense: int | None = None
    counters: FrozenMap[str, int] = field(default=EMPTY, converter=_counters)
    damage: int = 0
    tapped: bool = False
    summoning_sick: bool = False
    modifications: tuple[Modification, ...] = field(default=(), converter=as_tuple)
    protector: PlayerId | None = None
    can_block_additional: int = 0
    cant_attack: bool = False
    cant_block: bool = False
    cant_be_blocked: bool = False
    min_blockers: int = 0
    attacks_if_able: bool = False
    blocks_if_able: bool = False
    must_be_blocked: bool = False
    lure: bool = False
    marks: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    zone: str = "battlefield"
    token: bool = False
    object: int = 1
    position: int = 0
    layered: Layered | None = None

    #: Cached properties a fast evolve keeps when none of the fields they are
    #: computed from change (see :meth:`~redzone.kernel.frozen.Copyable.evolve`): a
    #: permanent tapped or dealt damage keeps its characteristics.
    __evolve_carry__: ClassVar[dict[str, tuple[str, ...]]] = {
        "keywords": ("printed_keywords", "modifications", "layered"),
        "keyword_names": ("printed_keywords", "modifications", "layered"),
        "power": ("base_power", "counters", "modifications", "layered", "types"),
        "toughness": ("base_toughness", "counters", "modifications", "layered", "types"),
        "own_state_based_actions": ("zone", "types", "subtypes", "base_toughness", "counters",
                                    "modifications", "damage", "layered"),
        "flags": FLAG_FIELDS,
        "has_conditional": ("modifications", "zone"),
        "characteristics": ("name", "types", "subtypes", "supertypes", "colors",
                            "printed_keywords", "modifications", "layered", "base_power",
                            "base_toughness", "counters", "controller", "owner", "token"),
    }

    @name.default
    def _name_default(self) -> str:
        return self.id

    @owner.default
    def _owner_default(self) -> str:
        return self.controller

    @property
    def label(self) -> str:
        """How a message names it: its name, and its id in brackets when
        they differ (``Craw Wurm (wurm)``; a permanent named by its id is
        just ``wurm``): :func:`object_label`."""
        return object_label(self.name, self.id)

    # -- current characteristics: computed here and nowhere else ---------------

    @derived
    def _layer_values(self) -> tuple[tuple[Keyword, ...], int | None, int | None]:
        return layer_values(self)

    @derived
    def keywords(self) -> tuple[Keyword, ...]:
        """Current keyword instances: printed, then each modification in order
        (layer 6, 613.1f; with continuous effects: :func:`layer_values`)."""
        if self.layered is not None:
            return self._layer_values[0]
        current = list(self.printed_keywords)
        for mod in self.modifications:
            if mod.remove_keywords:
                gone = set(mod.remove_keywords)
                current = [k for k in current if not loses(k, gone)]
            current.extend(mod.add_keywords)
        return tuple(current)

    @derived
    def keyword_names(self) -> frozenset[str]:
        """The names of the current keywords, for fast membership tests."""
        return frozenset(k.name for k in self.keywords)

    @derived
    def flags(self) -> tuple[str, ...]:
        """The restriction and requirement fields (:data:`FLAG_FIELDS`) set
        on this permanent, in that order."""
        return tuple(f for f in FLAG_FIELDS if getattr(self, f))

    @derived
    def has_conditional(self) -> bool:
        """Whether it is on the battlefield with a modification that lasts
        "for as long as" something (611.2b)."""
        return bool(self.modifications) and self.zone == "battlefield" and any(
            m.condition is not None for m in self.modifications)

    @derived
    def characteristics(self) -> tuple[Any, ...]:
        """Its current characteristics (109.3: name, colours, types,
        subtypes, supertypes, abilities as keywords, power and toughness, and
        its counters, which give loyalty and defense), with its controller,
        owner and whether it is a token, as one hashable tuple of plain
        values: the key the engine keeps static answers by
        (:mod:`redzone.kernel._static`). Its status (tapped, damage, marks,
        restriction flags) and everything outside it are not in it."""
        c = self.counters
        return (self.name, self.types, self.subtypes, self.supertypes, self.colors,
                tuple((k.name, k.text, k.args) for k in self.keywords), self.power,
                self.toughness, tuple(sorted(c.items())) if c else (), self.controller,
                self.owner, self.token)

    def has(self, name: str) -> bool:
        """Whether the permanent currently has a keyword of that name."""
        if not self.modifications and self.layered is None:  # the common case: no caches
            for k in self.printed_keywords:  # noqa: SIM110 - a loop is faster than any()
                if k.name == name:
                    return True
            return False
        return name in self.keyword_names

    def instances(self, name: str) -> tuple[Keyword, ...]:
        """Every current instance of the named keyword (``toxic 1`` and ``toxic 2``)."""
        return tuple(k for k in self.keywords if k.name == name)

    @derived
    def power(self) -> int:
        """Current power: printed, counters (613.4c), then effects (613.4b);
        with continuous effects, layers 7a-7d (:func:`layer_values`). A
        creature with no printed power has 0 before its counters and
        effects (208.5); a noncreature permanent has none (0 here)."""
        if self.layered is not None:
            return self._layer_values[1] or 0
        if self.base_power is None and "creature" not in self.types:
            return 0
        c = self.counters
        value = self.base_power or 0
        if c is not EMPTY:
            value += counters_pt(c)[0]
        for mod in self.modifications:
            value += mod.power
        return value

    @derived
    def toughness(self) -> int:
        """Current toughness: printed, counters, then effects (as :attr:`power`)."""
        if self.layered is not None:
            return self._layer_values[2] or 0
        if self.base_toughness is None and "creature" not in self.types:
            return 0
        c = self.counters
        value = self.base_toughness or 0
        if c is not EMPTY:
            value += counters_pt(c)[1]
        for mod in self.modifications:
            value += mod.toughness
        return value

    @derived
    def own_state_based_actions(self) -> tuple[tuple[str, str], ...]:
        """The core's state-based actions this permanent alone calls for, as
        ``(kind, rule)`` pairs (704.5f, 704.5g, 704.5i, 704.5q, 704.5v-w); they
        depend on nothing else, so each permanent works them out once."""
        if self.zone != "battlefield":
            return ()
        found: list[tuple[str, str]] = []
        types = self.types
        if "creature" in types:
            toughness = self.toughness
            if toughness <= 0:
                return (("graveyard", "704.5f"),)
            if self.damage > 0 and self.damage >= toughness:
                found.append(("destroy", "704.5g"))
        c = self.counters
        if "planeswalker" in types and c.get("loyalty", 0) <= 0:
            found.append(("graveyard", "704.5i"))
        if "battle" in types and c.get("defense", 0) <= 0:
            found.append(("graveyard", "704.5v" if "Siege" in self.subtypes else "704.5w"))
        if c is not EMPTY and c.get("+1/+1", 0) and c.get("-1/-1", 0):
            found.append(("annihilate_counters", "704.5q"))
        return tuple(found)

    def entering_counters(self) -> tuple[tuple[str, int, str], ...]:
        """The counters it enters the battlefield with by its own intrinsic
        abilities, as ``(kind, number, rule)``: a planeswalker's loyalty
        counters, as many as its printed loyalty (306.5b), and a battle's
        defense counters, as many as its printed defense (310.4b); each a
        replacement effect (614.1c). None for a printed number of ``None``
        or 0, or of a type it isn't.

        Rules: 306.5b, 310.4b, 614.1c
        """
        out: list[tuple[str, int, str]] = []
        loyalty, defense = self.printed_loyalty, self.printed_defense
        if type(loyalty) is int and loyalty > 0 and "planeswalker" in self.types:
            out.append(("loyalty", loyalty, "306.5b"))
        if type(defense) is int and defense > 0 and "battle" in self.types:
            out.append(("defense", defense, "310.4b"))
        return tuple(out)

    @property
    def loyalty(self) -> int | None:
        """Loyalty (planeswalkers only; 306.5b)."""
        return self.counters.get("loyalty", 0) if "planeswalker" in self.types else None

    @property
    def defense(self) -> int | None:
        """Defense (battles only; 310.4)."""
        return self.counters.get("defense", 0) if "battle" in self.types else None

    @property
    def is_creature(self) -> bool:
        """Whether it is a creature (302)."""
        return "creature" in self.types

    @property
    def on_battlefield(self) -> bool:
        """Whether it is on the battlefield."""
        return self.zone == "battlefield"

    def __copy__(self) -> Permanent:
        return self  # immutable: a copy is the object itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Permanent:
        return self

    def __repr__(self) -> str:
        return _display.permanent_repr(self)


@frozen(slots=False)
class Combat(Copyable):
    """Who attacks what and who blocks whom (506-509).

    :param attacks: attacking creature -> the player, planeswalker or battle it
        attacks (``None`` once that is gone or removed from combat: 506.4c).
        Insertion order is declaration order.
    :param blocks: blocking creature -> the attacking creatures it blocks, in
        declaration order (509.1a, 509.1g).
    :param defending_players: attacking creature -> its defending player, fixed when it
        was declared (506.2, 508.5).
    :param blocked: attacking creatures that are blocked (509.1h); they stay
        blocked when their blockers leave.
    :param order: damage assignment orders, for editions that have them
        (attacker -> its blockers; blocker -> the attackers it blocks).
    :param damage_steps: the combat damage steps of this combat so far, in
        order: step name -> the attacking and blocking creatures that dealt
        combat damage in it, recorded as it began (510.4, 702.7c, 702.4c-d).
    :param dealt: the combatants that have assigned combat damage this combat.
    :param on_stack: combat damage assigned and waiting on the stack, under
        editions where combat damage uses the stack (310.1 of 1999-2009).
    :param declared: attacking creature -> the player, planeswalker or battle
        it attacked as it became an attacking creature; unlike ``attacks``, kept
        when that is removed from combat (506.4c, 702.19e). Defaults to
        ``attacks``.
    :param bands: attacking bands declared with the attackers (508.1e,
        702.22c), each a tuple of attacking creatures.
    :param removed: the attacking and blocking creatures removed from this
        combat so far (506.4: they left the battlefield, or an effect removed
        them); they assign no combat damage (510.1), so an assignment's entry
        for one of them is unused rather than illegal.
    :param on_stack_objects: the number of the object (:attr:`Permanent.object`)
        each permanent ``on_stack`` names was as the damage went on the stack:
        damage assigned to one that has left and come back as a new object
        isn't dealt (310.4c of 1999-2009, 400.7).
    :param entered: the attacking creatures put onto the battlefield
        attacking (508.4): never declared as attackers, they never
        "attacked", so nothing they would do as they attack (an enlist cost,
        "whenever ... attacks") applies to them (508.4c).
    :param returned: the creatures removed from this combat that came back
        onto the battlefield as new objects (400.7): out of :attr:`removed`
        (the new object never was in this combat), kept here because what
        the declarations made for them no longer shows in the combat
        (:mod:`redzone.kernel.resume` accepts those declarations again).

    .. versionadded:: 0.1.0
    """

    attacks: FrozenMap[str, str | None] = field(default=EMPTY, converter=as_map)
    blocks: FrozenMap[str, tuple[str, ...]] = field(default=EMPTY, converter=_tuples_map)
    defending_players: FrozenMap[str, str] = field(default=EMPTY, converter=as_map)
    blocked: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    order: FrozenMap[str, tuple[str, ...]] = field(default=EMPTY, converter=_tuples_map)
    damage_steps: FrozenMap[str, frozenset[str]] = field(default=EMPTY, converter=_sets_map)
    dealt: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    on_stack: tuple[Damage, ...] = field(default=(), converter=as_tuple)
    declared: FrozenMap[str, str | None] = field(converter=as_map)
    bands: tuple[tuple[str, ...], ...] = field(default=(), converter=_tuples)
    removed: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    on_stack_objects: FrozenMap[str, int] = field(default=EMPTY, converter=as_map)
    entered: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    returned: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)

    @declared.default
    def _declared_default(self) -> FrozenMap[str, str | None]:
        return self.attacks

    @derived
    def _blockers_index(self) -> FrozenMap[str, tuple[str, ...]]:
        index: dict[str, list[str]] = {}
        for blocker, attackers in self.blocks.items():
            for attacker in attackers:
                index.setdefault(attacker, []).append(blocker)
        return FrozenMap._wrap({a: tuple(bs) for a, bs in index.items()})

    def blockers_of(self, attacker: str) -> tuple[str, ...]:
        """The creatures currently blocking ``attacker``, in declaration order."""
        return self._blockers_index._items.get(attacker, ())

    def band_of(self, attacker: str) -> tuple[str, ...]:
        """The attacking band ``attacker`` is in (itself alone if none)."""
        for band in self.bands:
            if attacker in band:
                return band
        return (attacker,)

    def is_attacking(self, obj: str) -> bool:
        """Whether ``obj`` is an attacking creature."""
        return obj in self.attacks

    def is_blocking(self, obj: str) -> bool:
        """Whether ``obj`` is a blocking creature."""
        return obj in self.blocks

    def in_combat(self, obj: str) -> bool:
        """Whether ``obj`` is an attacking or blocking creature."""
        return obj in self.attacks or obj in self.blocks

    @property
    def combatants(self) -> tuple[str, ...]:
        """Attackers in declaration order, then blockers in declaration order."""
        return (*self.attacks._items, *self.blocks._items)

    def __copy__(self) -> Combat:
        return self  # immutable: a copy is the object itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Combat:
        return self

    def __repr__(self) -> str:
        return _display.combat_repr(self)

    def __str__(self) -> str:
        return _display.combat_text(self)


#: What a :class:`Shield` prevents (its ``mode``): ``amount`` (the next N
#: damage, 615.7), ``next`` (all of the next time damage would be dealt),
#: ``all`` (all such damage this turn) and ``regenerate`` (a regeneration
#: shield, 701.19).
SHIELD_MODES: Final = ("amount", "next", "all", "regenerate")


@lazy_frozen
class Shield(Copyable):
    """A prevention effect from a resolved spell or ability (615).

    :param id: unique id (the order shields were created in).
    :param to: prevent damage that would be dealt to this object or player.
    :param source: or: prevent damage this source would deal.
    :param amount: how much is left to prevent; ``None`` for "all".
    :param mode: ``"amount"`` (the next N damage, 615.7), ``"next"`` (all of the
        next time damage would be dealt: Awe Strike) or ``"all"`` (all such
        damage this turn).
    :param gain_life: a player who gains life equal to the damage prevented
        this way (Awe Strike).
    :param combat_only: prevents only combat damage.
    :param duration: how long it lasts (:data:`DURATIONS`); "this turn" by
        default (514.2).
    :param condition: for ``duration="while"``, the condition (611.2b).
    :param owner: for ``duration="until_your_next_turn"``, the player whose
        next turn ends it: the controller of the spell or ability that created
        it (611.2a), set by the kernel as it starts; without one, the player
        :func:`~redzone.kernel.settle.whose` works out from what it applies to.

    .. versionadded:: 0.1.0
    """

    id: str
    to: PlayerOrObjectId | None = None
    source: AnyId | None = None
    amount: int | None = None
    mode: str = "amount"
    gain_life: PlayerId | None = None
    combat_only: bool = False
    duration: str = "end_of_turn"
    condition: Condition | None = None
    owner: PlayerId | None = None


@lazy_frozen
class Effect(Copyable):
    """A continuous effect that applies to the whole game (a Fog, a Worship).

    The core knows the effect kinds of the scenario format; plugins read their
    own kinds from ``state.effects``.

    :param kind: the effect kind, e.g. ``"prevent_all_combat_damage"``.
    :param player: the player it refers to, if any.
    :param to: the object or player it protects, if any.
    :param source: the object it refers to, if any.
    :param amount: its number, if any.
    :param duration: how long it lasts (:data:`DURATIONS`; 611.2); ``game``
        (the default) for an effect of the board as a scenario states it.
    :param condition: for ``duration="while"``, the condition (611.2b).
    :param id: given by the kernel as the effect starts (``"e1"``, ``"e2"``
        ...) unless set; :class:`~redzone.RemoveEffect` names it.
    :param owner: for ``duration="until_your_next_turn"``, the player whose
        next turn ends it: the controller of the spell or ability that created
        it (611.2a), set by the kernel as it starts; without one, the player
        :func:`~redzone.kernel.settle.whose` works out from what it applies to.

    .. versionadded:: 0.1.0
    """

    kind: str
    player: PlayerId | None = None
    to: PlayerOrObjectId | None = None
    source: AnyId | None = None
    amount: int | None = None
    duration: str = "game"
    condition: Condition | None = None
    id: str = ""
    owner: PlayerId | None = None


#: The kinds of decision a player makes (a :class:`Choice`'s ``kind``).
CHOICE_KINDS: Final = ("target", "mode", "number", "order", "cost", "yes_no", "option")


@lazy_frozen
class Choice(Copyable):
    """A decision a player makes, as data: who chooses, what kind, the legal
    options, how many, and the default redzone takes when none is given.

    Triggers carry theirs (:attr:`Trigger.offers`); declarations ask theirs
    through :func:`~redzone.kernel.hookspecs.redzone_attack_choices` and
    :func:`~redzone.kernel.hookspecs.redzone_block_choices`. An embedding
    engine (or a scenario file's ``[choices]``) answers a choice by its
    ``key``; the outcome lists every choice made and whether by default.

    :param name: the choice's name within what makes it (``"target"``); the
        kernel qualifies it into :attr:`key`.
    :param player: who chooses.
    :param kind: one of :data:`CHOICE_KINDS`.
    :param options: the legal options (object ids, mode names, numbers as
        text), in a deterministic order.
    :param default: what is chosen when no answer is given.
    :param min: the fewest options to choose.
    :param max: the most options to choose.
    :param rule: the rule that makes the choice (``"603.3d"``).
    :param text: how the account words it.
    :param then: for each option, actions performed when it is chosen (a cost
        paid, an option taken: 508.1g-h, 509.1d-f).
    :param key: the qualified key the answer is given by (set by the kernel:
        ``"<kind>@<source>:<name>"`` for a trigger's, ``"<plugin>:<name>"`` for
        a declaration's), unless set.

    .. versionadded:: 0.1.0
    """

    name: str
    player: PlayerId
    kind: str
    options: tuple[str, ...] = field(converter=as_tuple)
    default: tuple[str, ...] = field(default=(), converter=as_tuple)
    min: int = 1
    max: int = 1
    rule: str = ""
    text: str = ""
    then: FrozenMap[str, tuple[Action, ...]] = field(default=EMPTY, converter=_tuples_map)
    key: str = ""


@lazy_frozen
class ChoiceMade(Copyable):
    """A choice as it was made, for the outcome.

    :param key: the choice's key.
    :param player: who chose.
    :param kind: its kind.
    :param answer: what was chosen.
    :param by_default: whether redzone took the default (no answer given).
    :param options: the legal options.
    :param rule: the rule behind it.
    :param step: the step it was made in.

    .. versionadded:: 0.1.0
    """

    key: str
    player: str
    kind: str
    answer: tuple[str, ...] = field(converter=as_tuple)
    by_default: bool
    options: tuple[str, ...] = field(converter=as_tuple)
    rule: str = ""
    step: str = ""


@lazy_frozen
class Trigger(Copyable):
    """A triggered ability that has triggered (603.2) and waits on the stack.

    Plugins create triggers from events (``redzone_triggers``) and resolve
    their own (``redzone_resolve_trigger``). A trigger is plain data, so an
    embedding engine may take it off redzone's stack and resolve it itself.

    :param kind: the ability's name, as its plugin knows it (``"bushido"``).
    :param source: the object whose ability it is.
    :param controller: the player who controls it (603.3a).
    :param rule: the rule that defines it (``"702.45a"``).
    :param text: what it does, for the account.
    :param amount: its number, if any (``bushido 2``: 2).
    :param targets: the objects or players it refers to.
    :param choices: choices a player makes as it resolves, by name, when the
        embedding engine supplies them (otherwise the plugin's documented
        default is used).
    :param id: given by the core as the trigger is put on the stack.
    :param actions: what it does, as actions the kernel performs when it
        resolves (a delayed trigger's "sacrifice it", 603.7); a plugin may
        resolve its own kinds instead (``redzone_resolve_trigger``).
    :param plugin: the plugin whose ability it is ("" for the kernel's and a
        scenario's); its actions may write that plugin's own state.
    :param offers: the choices its controller makes: targets and modes as it
        is put on the stack (603.3c-d), the others as it resolves (608.2d);
        each answer lands in :attr:`choices` under the choice's ``name``.
    :param objects: the number of the object (:attr:`Permanent.object`) each
        permanent its ``targets`` and ``actions`` name was, noted by the
        kernel as it is put on the stack (a delayed trigger's: as that was
        created, 603.7c): an action on one that has left and come back as a
        new object is left out as it resolves (400.7), its own or one a
        plugin gives as it resolves it.

    .. versionadded:: 0.1.0
    """

    kind: str
    source: AnyId
    controller: PlayerId
    rule: str
    text: str = ""
    amount: int | None = None
    targets: tuple[PlayerOrObjectId, ...] = field(default=(), converter=as_tuple)
    choices: FrozenMap[str, tuple[str, ...]] = field(default=EMPTY, converter=_tuples_map)
    id: str = ""
    actions: tuple[Action, ...] = field(default=(), converter=as_tuple)
    plugin: str = ""
    offers: tuple[Choice, ...] = field(default=(), converter=as_tuple)
    objects: FrozenMap[str, int] = field(default=EMPTY, converter=as_map)


#: When a delayed triggered ability triggers (603.7): ``end_of_combat`` (at the
#: beginning of the next end of combat step, 511.2), ``end_step`` (at the
#: beginning of the next end step, 513.2), ``cleanup`` (at the beginning of the
#: next cleanup step, 514.3a), ``leaves`` (when ``object`` leaves the
#: battlefield, 603.6c), ``upkeep`` (at the beginning of the next upkeep,
#: 503.1a).
DELAYED_WHEN: Final = ("end_of_combat", "end_step", "cleanup", "leaves", "upkeep")


@lazy_frozen
class DelayedTrigger(Copyable):
    """A delayed triggered ability waiting for its moment (603.7).

    It triggers once, the next time its event happens (603.7b), and goes on
    the stack as a :class:`Trigger` like any other triggered ability.

    :param when: its trigger event (:data:`DELAYED_WHEN`).
    :param kind: the ability's name (``"decayed"``, ``"mobilize"``).
    :param source: its source (603.7d-e).
    :param controller: its controller (603.7d-f).
    :param rule: the rule that defines it.
    :param text: what it does, for the account.
    :param actions: the actions it performs when it resolves.
    :param object: for ``when="leaves"``, the permanent it watches.
    :param plugin: the plugin that created it ("" for the kernel or a scenario).
    :param id: given by the kernel as it is created (``"d1"`` ...).
    :param turn: the turn it was created in.
    :param step: the step it was created in: one created during an end step
        waits for the next turn's (513.2).
    :param objects: the number of the object (:attr:`Permanent.object`) each
        permanent its actions name was as it was created, set by the kernel:
        an action on a permanent that has since changed zones, even back, is
        left out as it triggers (603.7c, 400.7).

    .. versionadded:: 0.1.0
    """

    when: str
    kind: str
    source: AnyId
    controller: PlayerId
    rule: str = "603.7"
    text: str = ""
    actions: tuple[Action, ...] = field(default=(), converter=as_tuple)
    object: ObjectId | None = None
    plugin: str = ""
    id: str = ""
    turn: int = 0
    step: str = ""
    objects: FrozenMap[str, int] = field(default=EMPTY, converter=as_map)


@lazy_frozen
class WrittenTrigger(Copyable):
    """A triggered ability written as data, not by a plugin (603.1): "whenever
    <event>, <actions>" (a scenario file's ``[[triggers]]``,
    :class:`~redzone.AddTrigger`).

    It triggers each time an event of kind ``when`` happens whose fields have
    the values ``match`` gives (603.2), while its source is on the battlefield
    (113.6) or, for an event of its source leaving the battlefield, as it
    last was there (603.10a); then it goes on the stack as a
    :class:`Trigger` and, as it resolves, performs its ``actions`` (608.2).

    :param when: the kind of event it triggers on (``"dies"``, ``"attack"``,
        ``"damage"``: :data:`~redzone.kernel.events.KERNEL_KINDS` or a
        plugin's).
    :param source: the permanent whose ability it is.
    :param controller: its controller (603.3a); default: the source's
        controller as it triggers.
    :param actions: what it does as it resolves.
    :param match: event field -> the value it must have (``{"object":
        "bear"}``); the value ``"self"`` means the source.
    :param text: what it does, for the account.
    :param id: given by the kernel as it is added (``"w1"`` ...).
    :param object: the number of the object its source was as it was added
        (:attr:`Permanent.object`), set by the kernel: the ability is that
        object's, and a new object its source becomes by changing zones
        doesn't have it (400.7); ``None``: whatever object the source is.

    .. versionadded:: 0.1.0
    """

    when: str
    source: ObjectId
    actions: tuple[Action, ...] = field(converter=as_tuple)
    controller: PlayerId | None = None
    match: FrozenMap[str, str] = field(default=EMPTY, converter=as_map)
    text: str = ""
    id: str = ""
    object: int | None = None


@lazy_frozen
class PluginState(Copyable):
    """What one plugin remembers, in its own slot of the state.

    The value is frozen data (``None``, ``bool``, ``int``, ``str``, tuples and
    :class:`~redzone.FrozenMap` with string keys), so it is serialised,
    snapshotted and rolled back with the rest of the state.

    :param value: the value.
    :param scope: when the kernel clears it: ``combat`` (as each combat
        begins), ``turn`` (as each turn begins) or ``game`` (never).

    .. versionadded:: 0.1.0
    """

    value: Any
    scope: str = "game"


@lazy_frozen
class GameOver(Copyable):
    """How the game ended (104).

    :param winners: the players who won (104.2a), in turn order.
    :param losers: the players who lost, in turn order.
    :param draw: whether the game is a draw (104.4a).
    :param step: the step it ended in.
    :param rule: the rule that ended it.

    .. versionadded:: 0.1.0
    """

    winners: tuple[PlayerId, ...] = field(converter=as_tuple)
    losers: tuple[PlayerId, ...] = field(converter=as_tuple)
    draw: bool
    step: str
    rule: str


@lazy_frozen
class StackObject(Copyable):
    """A spell or ability on the stack that is a source of damage (120.3,
    609.7): not a permanent, but with the characteristics that matter to
    damage, readable where a permanent's are (``has``, ``colors``,
    ``controller``).

    :param id: its id; events name it by this (a scenario uses its name).
    :param name: its name.
    :param controller: the player who controls it.
    :param colors: its colors.
    :param types: its card types (``instant``, ``sorcery``; empty for an ability).
    :param printed_keywords: its keyword abilities (a spell with lifelink).

    .. versionadded:: 0.1.0
    """

    id: str
    controller: PlayerId
    name: str = field()
    colors: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    types: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    printed_keywords: tuple[Keyword, ...] = field(default=(), converter=_keywords)

    @name.default
    def _name_default(self) -> str:
        return self.id

    #: Read like a permanent's: a stack object has no subtypes, counters or damage.
    subtypes: ClassVar[tuple[str, ...]] = ()
    supertypes: ClassVar[frozenset[str]] = frozenset()
    zone: ClassVar[str] = "stack"
    token: ClassVar[bool] = False
    modifications: ClassVar[tuple[Modification, ...]] = ()
    power: ClassVar[int] = 0
    toughness: ClassVar[int] = 0
    is_creature: ClassVar[bool] = False
    on_battlefield: ClassVar[bool] = False

    @property
    def owner(self) -> str:
        """Its owner: for a spell or ability here, its controller."""
        return self.controller

    @property
    def label(self) -> str:
        """How a message names it, as a permanent's :attr:`~Permanent.label`."""
        return object_label(self.name, self.id)

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        """Its keyword instances."""
        return self.printed_keywords

    @property
    def keyword_names(self) -> frozenset[str]:
        """The names of its keywords."""
        return frozenset(k.name for k in self.printed_keywords)

    def has(self, name: str) -> bool:
        """Whether it has a keyword of that name."""
        return any(k.name == name for k in self.printed_keywords)

    def instances(self, name: str) -> tuple[Keyword, ...]:
        """Every instance of the named keyword."""
        return tuple(k for k in self.printed_keywords if k.name == name)


#: The kernel's steps of the combat phase (506.1) and where a state can stand;
#: plugins add combat damage steps around ``combat_damage`` (first strike's
#: ``first_strike_damage``): :meth:`redzone.Engine.step_names` lists them all.
STEPS: Final = (
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "combat_damage",
    "end_of_combat",
)


#: The key under which a state notes the permanents and players changed
#: (their ids) since its objects and players were last found clean of
#: state-based actions (704.3): empty, nothing the core checks changed.
SBA_DIRTY: Final = "_sba_dirty"
#: The key under which a state built by :func:`game` (or a copy of it with
#: the note :data:`SBA_DIRTY` kept) notes that it was never checked for
#: state-based actions: the note of what changed is the core's, which knows
#: its own verdicts as a permanent is built, but not the plugins' (their
#: verdicts about one permanent are asked about every permanent on the
#: battlefield at the first check, :func:`redzone.kernel.sba.changed`).
SBA_BUILT: Final = "_sba_built"
#: The key under which a state notes the plugin set (a ``Hooks``'
#: ``honour_mark``) found to honour it (:func:`redzone.kernel.context.engine_honours`): its rules
#: edition, the keywords it was made with and holds, and their records.
HONOURED: Final = "_honoured_by"
#: The key under which a state notes which combat damage step comes next and
#: who deals damage in it (:func:`redzone.kernel.steps.damage_step_kind`), with
#: the plugin set (a ``Hooks``' ``honour_mark``) and rules edition it was
#: found under; any change of the state drops it.
STEP_KIND: Final = "_step_kind"
#: The key under which a main-phase state notes the outcome of beginning a
#: combat on it (:func:`redzone.kernel.steps.begin_combat`) with no answers
#: given, with the plugin set, rules edition and ``auto_triggers`` it was
#: found under; any change of the state drops it.
BEGAN_COMBAT: Final = "_began_combat"


#: The fields of a state other than its objects that its conditions come from.
_CONDITION_FIELDS: Final = frozenset({"effects", "shields", "continuous"})
#: The fields of a state other than its objects that whether an engine
#: honours it depends on (:data:`HONOURED`).
_HONOUR_FIELDS: Final = frozenset({"rules", "keyword_set", "lki", "sources"})


@frozen(cache_hash=True, slots=False)
class GameState(Copyable):
    """The whole game state combat needs.

    :param players: players by id.
    :param turn_order: player ids in turn order.
    :param active_player: whose turn it is: the attacking player (506.2).
    :param objects: permanents by id (cards that left keep their last known
        information, with ``zone`` set).
    :param combat: the combat, from the beginning of combat step on.
    :param step: where the game stands: ``"main"`` before combat, a step name
        of :data:`STEPS`, or ``"postcombat_main"`` after it.
    :param shields: prevention shields in creation order.
    :param effects: game-wide continuous effects.
    :param rules: the rules edition the state is played under.
    :param lki: last known information (608.2h): each permanent that left the
        battlefield, as it last existed there.
    :param stack: triggered abilities on the stack, bottom first (405, 603.3).
    :param triggered: how many abilities have triggered so far (trigger ids).
    :param turn: the turn number, from 1.
    :param combats: how many combat phases have begun this turn (500.8,
        505.1a); the second combat's steps are labelled ``declare_attackers#2``.
    :param delayed: delayed triggered abilities waiting for their moment (603.7).
    :param plugin_state: each plugin's own slot, by plugin name.
    :param sources: spells and abilities that dealt damage (120.3, 609.7), by id.
    :param game_over: how the game ended; ``None`` while it goes on (104).
    :param created: how many effects and delayed triggers the kernel has
        numbered so far (their ids).
    :param teams: for team play (Two-Headed Giant, 810; shared team turns,
        805): team id -> its players. Teammates share one life total and one
        poison count (810.4, 810.9-810.10; each teammate's ``life`` and
        ``poison`` always show the team's), attack and block as a team
        (805.10) and win or lose together (810.8). Empty: every player on
        their own.
    :param keyword_set: the names of the keywords the engine that made the
        state knew (empty when it was built without an engine); an engine
        that lacks one of them refuses the state.
    :param continuous: continuous effects that modify characteristics,
        applied by the layer system (613; :mod:`redzone.kernel.layers`).
    :param timestamp: the timestamp of the latest continuous effect
        (613.7a): the kernel's one counter, which each modification reads as
        it starts (it comes after that effect).
    :param written: triggered abilities written as data (603.1), each
        triggering on its kind of event (:class:`WrittenTrigger`).
    :param held: abilities that triggered while no player could receive
        priority (the untap step, 502.4), waiting to be put on the stack the
        next time one would, with those that trigger then (503.1a).
    :param token_numbers: for the tokens that ceased to exist and are no
        longer kept (a turn after they ceased), the highest number ``n`` of
        each id prefix (``<source>.<keyword>`` of ``<source>.<keyword>.<n>``):
        :func:`~redzone.kernel.tokens.token_ids` counts on from it, so a
        token's id is never given again in the game (111.1).

    .. versionadded:: 0.1.0
    """

    players: FrozenMap[str, Player] = field(converter=as_map)
    turn_order: tuple[PlayerId, ...] = field(converter=as_tuple)
    active_player: PlayerId
    objects: FrozenMap[str, Permanent] = field(default=EMPTY, converter=as_map)
    combat: Combat | None = None
    step: str = "main"
    shields: tuple[Shield, ...] = field(default=(), converter=as_tuple)
    effects: tuple[Effect, ...] = field(default=(), converter=as_tuple)
    rules: str = "foundations"
    lki: FrozenMap[str, Permanent] = field(default=EMPTY, converter=as_map)
    stack: tuple[Trigger, ...] = field(default=(), converter=as_tuple)
    triggered: int = 0
    turn: int = 1
    combats: int = 0
    delayed: tuple[DelayedTrigger, ...] = field(default=(), converter=as_tuple)
    plugin_state: FrozenMap[str, PluginState] = field(default=EMPTY, converter=as_map)
    sources: FrozenMap[str, StackObject] = field(default=EMPTY, converter=as_map)
    game_over: GameOver | None = None
    created: int = 0
    teams: FrozenMap[str, tuple[str, ...]] = field(default=EMPTY, converter=_tuples_map)
    keyword_set: frozenset[str] = field(default=frozenset(), converter=_frozenset_of_str)
    continuous: tuple[ContinuousEffect, ...] = field(default=(), converter=as_tuple)
    timestamp: int = 0
    written: tuple[WrittenTrigger, ...] = field(default=(), converter=as_tuple)
    held: tuple[Trigger, ...] = field(default=(), converter=as_tuple)
    token_numbers: FrozenMap[str, int] = field(default=EMPTY, converter=as_map)

    #: Cached properties a fast evolve keeps when none of the fields they are
    #: computed from change (see :meth:`~redzone.kernel.frozen.Copyable.evolve`).
    __evolve_carry__: ClassVar[dict[str, tuple[str, ...]]] = {
        "keyword_names_present": ("objects", "lki", "sources"),
        "conditions": ("objects", "effects", "shields", "continuous"),
        "object_flags": ("objects",),
        "conditional": ("objects",),
        # Not a derived value but a note: the permanents and players changed
        # since they were last checked for state-based actions and found
        # clean (see redzone.kernel.sba.core_actions); dropped with any other
        # change of what the core checks, kept up to date by the three
        # methods below.
        SBA_DIRTY: ("objects", "players", "teams"),
        SBA_BUILT: ("objects", "players", "teams"),
        # A note too: what engine_honours reads (kept by with_permanents
        # when no changed permanent's keywords changed).
        HONOURED: ("rules", "keyword_set", "objects", "lki", "sources"),
        # And what damage_step_kind found: plugins answer from the whole state
        # (every field is its input: set below, once the fields are known).
        STEP_KIND: (),
        BEGAN_COMBAT: (),
    }

    @derived
    def object_flags(self) -> frozenset[str]:
        """The fields of :data:`FLAG_FIELDS` set (true, or non-zero) on some
        object of the state, in any zone, and possibly fields an earlier
        state had set (a superset is still a correct answer): the kernel's own
        plugins are gated on them (:mod:`redzone.kernel._gates`)."""
        found: set[str] = set()
        for perm in self.objects.values():
            found.update(perm.flags)
        return frozenset(found)

    @derived
    def conditions(self) -> tuple[Condition, ...]:
        """The conditions of every "for as long as" effect, shield and
        modification of a permanent on the battlefield (611.2b): what the
        kernel checks as each command settles."""
        found = [e.condition for e in self.effects if e.condition is not None]
        if self.continuous:
            found += [e.condition for e in self.continuous if e.condition is not None]
        found += [s.condition for s in self.shields if s.condition is not None]
        objects = self.objects
        for obj in sorted(self.conditional):
            found += [m.condition for m in objects[obj].modifications if m.condition is not None]
        return tuple(found)

    @derived
    def conditional(self) -> frozenset[str]:
        """The permanents on the battlefield with a modification that lasts
        "for as long as" something (611.2b): kept up to date by
        :meth:`with_permanents`, so that settling a command doesn't scan
        every object."""
        return frozenset(p.id for p in self.objects.values() if p.has_conditional)

    @derived
    def keyword_names_present(self) -> frozenset[str]:
        """Every keyword name some object has, in any zone or as last known
        information, and the names the states it was made from had (a state
        made from another carries its names on, so that a plugin whose
        keyword was present earlier in a command is still asked about what
        the keyword left: a mark, an event): gated plugins are asked only
        when one of their keywords is in it."""
        names: set[str] = set()
        for perm in self.objects.values():
            if perm.printed_keywords or perm.modifications or perm.layered:
                names.update(perm.keyword_names)
        for perm in self.lki.values():
            if perm.printed_keywords or perm.modifications or perm.layered:
                names.update(perm.keyword_names)
        for spell in self.sources.values():
            names.update(spell.keyword_names)
        return frozenset(names)

    # -- lookups --------------------------------------------------------------

    def permanent(self, obj: str) -> Permanent:
        """The permanent (or last known information) with id ``obj``.

        :raises KeyError: when there is no such object.
        """
        return self.objects[obj]

    def last_known(self, obj: str) -> Permanent:
        """The permanent ``obj`` as it is on the battlefield, or as it last
        existed there if it has left (608.2h); a source's abilities are read
        from this. For a source that may be a spell, use :meth:`source`.

        :raises KeyError: when there is no such permanent.
        """
        perm = self.objects[obj]
        if perm.zone == "battlefield":
            return perm
        return self.lki.get(obj, perm)

    def source(self, obj: str) -> Permanent | StackObject:
        """The source ``obj`` of damage or an ability: a permanent (or its last
        known information, 608.2h), or a spell or ability on the stack (120.3,
        609.7).

        :raises KeyError: when there is no such object.
        """
        if obj in self.objects:
            return self.last_known(obj)
        return self.sources[obj]

    def is_source(self, obj: str) -> bool:
        """Whether ``obj`` names a permanent (in any zone) or a spell or ability
        that dealt damage: something :meth:`source` can read."""
        return obj in self.objects or obj in self.sources

    def slot(self, plugin: Any) -> Any:
        """The value a plugin keeps in its own slot (``None`` if none).

        :param plugin: the plugin's registered name, or a
            :class:`~redzone.Slot` the running plugin declares (read by the
            name it was registered under, whatever that is).
        """
        if not isinstance(plugin, str):
            plugin = plugin.name
        entry = self.plugin_state.get(plugin)
        return entry.value if entry is not None else None

    @property
    def in_game(self) -> tuple[str, ...]:
        """The players still in the game, in turn order (104.5, 800.4a)."""
        return tuple(p for p in self.turn_order if not self.players[p].lost)

    def zone(self, player: str, zone: str) -> tuple[str, ...]:
        """The ids of the objects ``player`` owns in ``zone``, in order: a
        library top first (401.1), a graveyard oldest first (404.1), a hand or
        exile in the order they arrived.

        :param player: the owner (400.3: a card goes to its owner's zones).
        :param zone: one of :data:`ZONES`.
        """
        found = [p for p in self.objects.values() if p.zone == zone and p.owner == player]
        found.sort(key=_position)
        return tuple(p.id for p in found)

    def on_battlefield(self, obj: str) -> Permanent | None:
        """The permanent ``obj`` if it is on the battlefield, else ``None``."""
        perm = self.objects._items.get(obj)
        return perm if perm is not None and perm.zone == "battlefield" else None

    @property
    def battlefield(self) -> tuple[Permanent, ...]:
        """Every permanent on the battlefield, in id insertion order."""
        return tuple(p for p in self.objects.values() if p.zone == "battlefield")

    def opponents(self, player: str) -> tuple[str, ...]:
        """The players still in the game who aren't ``player`` or on their team
        (102.2, 810.1), in turn order."""
        mates = self.teammates(player)
        return tuple(
            p for p in self.turn_order if p != player and p not in mates
            and not self.players[p].lost
        )

    def apnap(self) -> tuple[str, ...]:
        """Every player, those who left included, in APNAP order (101.4): the
        active player, then the others in turn order; with teams, the active
        team's players first (their turn is the team's, 805.4, 810.2), then
        each other team's, the teams in turn order, each team's players in
        turn order from the active player."""
        order = self.turn_order
        start = order.index(self.active_player) if self.active_player in order else 0
        seats = order[start:] + order[:start]
        if not self.teams._items:
            return seats
        rank: dict[str | None, int] = {}
        for player in seats:
            rank.setdefault(self.team_of(player) or player, len(rank))
        return tuple(sorted(seats, key=lambda p: rank[self.team_of(p) or p]))

    def team_of(self, player: str) -> str | None:
        """The id of ``player``'s team, or ``None`` when they play alone."""
        for team, members in self.teams.items():
            if player in members:
                return team
        return None

    def teammates(self, player: str) -> tuple[str, ...]:
        """The other players on ``player``'s team (810), none without teams."""
        teams = self.teams._items
        if not teams:
            return ()
        for members in teams.values():
            if player in members:
                return tuple(p for p in members if p != player)
        return ()

    def same_team(self, one: str | None, other: str | None) -> bool:
        """Whether two players are the same player or teammates (805.10d)."""
        return one is not None and (one == other or (
            bool(self.teams._items) and other in self.teammates(one)))

    def is_attacking_player(self, player: str | None) -> bool:
        """Whether ``player`` is an attacking player: the active player, or with
        shared team turns each player on the active team (805.10a)."""
        return player is not None and (player == self.active_player or (
            bool(self.teams._items) and player in self.teammates(self.active_player)))

    def with_life(self, player: str, life: int | None = None,
                  poison: int | None = None) -> GameState:
        """A copy with ``player``'s life total or poison counters changed: on
        a team, the team's shared ones, shown by every teammate (810.9-810.10)."""
        changed = {}
        for pid in (player, *self.teammates(player)):
            current = self.players[pid]
            changed[pid] = current.evolve(life=current.life if life is None else life,
                                          poison=current.poison if poison is None else poison)
        return self.with_players(changed)

    def controller_of(self, obj: str) -> str | None:
        """The controller of an object, or the player itself for a player id."""
        if obj in self.players:
            return obj
        perm = self.objects.get(obj)
        if perm is None:
            spell = self.sources.get(obj)
            return spell.controller if spell is not None else None
        return perm.controller

    def defending_player_of(self, attacked: str) -> str | None:
        """The player defending against an attack on ``attacked``: the player,
        the planeswalker's controller or the battle's protector (506.2, 310.8).
        """
        if attacked in self.players._items:
            return attacked
        perm = self.objects._items.get(attacked)
        if perm is None:
            return None
        if "battle" in perm.types and perm.protector is not None:
            return perm.protector
        return perm.controller

    # -- building changed copies ----------------------------------------------

    def __copy__(self) -> GameState:
        return self  # immutable: a copy is the object itself

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    def with_permanents(self, changed: Mapping[str, Permanent]) -> GameState:
        """A copy with the given permanents replaced (one copy of the map)."""
        return self.with_changes(changed) if changed else self

    def with_changes(self, objects: Mapping[str, Permanent], players: Mapping[str, Player] = EMPTY,
                     fields: Mapping[str, Any] = EMPTY, left: Collection[str] = (),
                     lki: Mapping[str, Permanent] = EMPTY) -> GameState:
        """A copy with the given permanents and players replaced (or added,
        after the others) and ``fields`` set, in one copy of the state and
        one of each map: what a command's working copy freezes into.

        The notes a state keeps (its keywords present, flags, permanents
        with a "for as long as" modification, and those changed since they
        were last found clean of state-based actions) are carried up to date
        as far as the changes allow.

        :param left: ids among ``objects`` that only left the battlefield
            (400.7): no keyword or flag of theirs is new.
        :param lki: last known information added (608.2h): permanents as
            they were objects of this state, so no keyword of theirs is new.
        """
        if objects and (self.shields or self.effects or (
                fields and ("shields" in fields or "effects" in fields))):
            fields = _released(self, fields, objects, objects)
        changes = dict(fields) if fields else {}
        if lki:
            changes["lki"] = self.lki.merge(lki)
        if objects:
            changes["objects"] = self.objects.merge(objects)
        if players:
            changes["players"] = self.players.merge(players)
        new = self.evolve(**changes)
        known = self.__dict__
        notes = new.__dict__
        dirty = known.get(SBA_DIRTY)
        if dirty is not None and "teams" not in changes:
            notes[SBA_DIRTY] = dirty.union(objects, players)
            if SBA_BUILT in known:
                notes[SBA_BUILT] = True
        if fields and "sources" in fields:
            # A keyword once present stays in the superset whatever leaves
            # (a spell's): the gates still ask a plugin about what its
            # keyword left in the command (a mark, an event) once it is gone.
            base = known.get("keyword_names_present")
            notes["keyword_names_present"] = (
                self.keyword_names_present if base is None else base).union(
                *(spell.keyword_names for spell in new.sources.values()))
        if not objects:
            if lki:  # (what they were is what the state held: no keyword is new)
                for carried in (HONOURED, "keyword_names_present"):
                    value = known.get(carried)
                    if value is not None and not (fields and _HONOUR_FIELDS.intersection(
                            fields)):
                        notes[carried] = value
            return new  # (the notes on objects carry when their inputs don't change)
        honoured = known.get(HONOURED)
        if honoured is not None and fields and _HONOUR_FIELDS.intersection(fields):
            honoured = None
        conditional = known.get("conditional")
        flags = known.get("object_flags")
        present = notes.get("keyword_names_present") if fields and "sources" in fields \
            else known.get("keyword_names_present")
        # (One pass over the permanents that may bring something new: those
        # that only left bring no keyword, flag or "for as long as".)
        now: set[str] = set()
        more: list[str] = []
        added: list[frozenset[str]] = []
        if not left or len(left) != len(objects):
            old = self.objects._items
            for i, p in objects.items():
                if i in left:
                    continue
                if honoured is not None:
                    was = old.get(i)
                    if was is None or p.printed_keywords is not was.printed_keywords \
                            or p.modifications is not was.modifications \
                            or p.layered is not was.layered:
                        honoured = None  # (new keyword records: asked again)
                if conditional is not None and p.has_conditional:
                    now.add(i)
                if flags is not None:
                    for f in p.flags:
                        if f not in flags:
                            more.append(f)
                if present is not None and (p.printed_keywords or p.modifications
                                            or p.layered):
                    added.append(p.keyword_names)
        if honoured is not None:
            notes[HONOURED] = honoured  # the same keyword records
        if conditional is not None:  # exact: each changed permanent decides for itself
            if now or not conditional.isdisjoint(objects):
                conditional = conditional.union(now).difference(
                    [i for i in objects if i not in now])
            else:
                # No changed permanent has (or had) a "for as long as"
                # modification: the conditions are those found before.
                conditions = known.get("conditions")
                if conditions is not None and not (fields and _CONDITION_FIELDS.intersection(
                        fields)):
                    notes["conditions"] = conditions
            notes["conditional"] = conditional
        if flags is not None:
            notes["object_flags"] = flags.union(more) if more else flags
        if present is not None:
            # (Last known information holds what were objects: no new keyword.)
            notes["keyword_names_present"] = present.union(*added) if added else present
        return new

    def with_objects_left(self, objects: FrozenMap[str, Permanent], left: Iterable[str] = (),
                          **changes: Any) -> GameState:
        """A copy with ``objects`` (and ``changes``), where the permanents
        ``left`` only left the battlefield (400.7): no object gained a keyword
        or a flag, so the keywords present (which count last known
        information) and the flags set stay correct supersets and are kept;
        the shields and effects bound to one of them that is back on the
        battlefield as a new object end (:func:`_released`)."""
        if left and (self.shields or self.effects or "shields" in changes
                     or "effects" in changes):
            changes = dict(_released(self, changes, objects, left))
        new = self.evolve(objects=objects, **changes)
        known = self.__dict__
        dirty = known.get(SBA_DIRTY)
        if dirty is not None:
            new.__dict__[SBA_DIRTY] = dirty.union(left)
            if SBA_BUILT in known:
                new.__dict__[SBA_BUILT] = True
        for carried in ("keyword_names_present", "object_flags"):
            value = known.get(carried)
            if value is not None:
                new.__dict__[carried] = value
        conditional = known.get("conditional")
        if conditional:  # exact: those that left have none any more
            new.__dict__["conditional"] = frozenset(
                i for i in conditional if i in objects and objects[i].has_conditional)
        elif conditional is not None:
            new.__dict__["conditional"] = conditional
            conditions = known.get("conditions")
            if conditions is not None and not _CONDITION_FIELDS.intersection(changes):
                new.__dict__["conditions"] = conditions  # (none from a permanent, before or now)
        return new

    def with_players(self, changed: Mapping[str, Player]) -> GameState:
        """A copy with the given players replaced."""
        return self.with_changes(EMPTY, changed) if changed else self

    def __repr__(self) -> str:
        return _display.state_repr(self)

    def __str__(self) -> str:
        return _display.state_text(self)

    def _repr_html_(self) -> str:
        return _display.state_html(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a batch sends a state with each job) as its fields and its
        # permanents' fields, in one tuple: what is derived from them is
        # recomputed where it is used, and what an engine notes for itself
        # (keyed by its own objects) means nothing in another process.
        return _pickled_state(self)


GameState.__evolve_carry__[STEP_KIND] = GameState.__evolve_carry__[BEGAN_COMBAT] = tuple(
    f.name for f in attrs_fields(GameState))


class _Pickling:
    """What :func:`_pickled_state` and :func:`_unpickled_state` know of a
    value class: its field names and a C getter of their values."""

    def __init__(self, cls: type, leave: tuple[str, ...] = ()) -> None:
        import operator

        self.names = tuple(f.name for f in attrs_fields(cls) if f.name not in leave)
        self.get = operator.attrgetter(*self.names)


#: How each class of state pickles, but its permanents (a subclass's fields too).
_STATES: dict[type, _Pickling] = {}
#: What a state pickled without the note :data:`SBA_DIRTY` carries in its place.
_NO_NOTE: Final = None


def _state_pickling(cls: type) -> _Pickling:
    known = _STATES.get(cls)
    if known is None:
        known = _STATES[cls] = _Pickling(cls, ("objects",))
    return known


def _released(state: GameState, fields: Mapping[str, Any], objects: Mapping[str, Permanent],
              changed: Iterable[str]) -> Mapping[str, Any]:
    """``fields`` (changes of ``state``'s fields), with the shields and the
    effects that apply (their ``to``) to a permanent of ``changed`` that is
    on the battlefield in ``objects`` as another object than in ``state``,
    or that name it as their ``source`` (the damage it deals, 609.7a),
    gone: it came back a new object (400.7), which they don't apply to, and
    they apply to nothing else. (Until then they stay, and end with their
    duration: damage a source that left deals, as it last existed, is still
    its damage.)"""
    old = state.objects._items
    gone = set()
    for i in changed:
        now, was = objects.get(i), old.get(i)
        if now is not None and was is not None and now.zone == "battlefield" \
                and now.object != was.object:
            gone.add(i)
    if not gone:
        return fields
    out = fields
    for name in ("shields", "effects"):
        items = fields.get(name, getattr(state, name))
        if items and any(item.to in gone or item.source in gone for item in items):
            out = dict(out)
            out[name] = tuple(item for item in items
                              if item.to not in gone and item.source not in gone)
    return out


def _pickled_state(state: GameState) -> tuple[Any, ...]:
    """``GameState.__reduce__``: the state's fields, its permanents' ids and
    each permanent's fields, in one flat tuple (a permanent of a subclass
    whole, aside); of the notes, the one about state-based actions
    (:data:`SBA_DIRTY`) alone. The others are an engine's own (keyed by its
    objects) or derived values, worked out again where they are used.

    One tuple a state, not one a permanent: the pickler keeps every object
    it writes until the end, and a tuple a permanent made the garbage
    collector run and promote them, on a caller pickling a chunk of jobs."""
    get = _PERMANENT.get
    objects = state.objects._items
    cls = type(state)
    values = list(_state_pickling(cls).get(state))
    values += objects
    whole: dict[int, Permanent] | None = None
    for at, perm in enumerate(objects.values()):
        if type(perm) is Permanent:
            values += get(perm)
        else:
            if whole is None:
                whole = {}
            whole[at] = perm
    return (_unpickled_state, (cls, len(objects), tuple(values), whole,
                               state.__dict__.get(SBA_DIRTY, _NO_NOTE),
                               SBA_BUILT in state.__dict__))


def _unpickled_state(cls: type[GameState], count: int, values: tuple[Any, ...],
                     whole: dict[int, Permanent] | None, dirty: Any,
                     never_checked: bool = False) -> GameState:
    """A state :func:`_pickled_state` wrote (``GameState.__reduce__``).

    :raises ValueError: when ``values`` is not as long as the fields of this
        version make it (a state pickled by another version).
    """
    new = object.__new__(cls)
    d = new.__dict__
    names = _state_pickling(cls).names
    first = len(names)
    d.update(zip(names, values[:first], strict=True))
    fields = _PERMANENT.names
    size = len(fields)
    objects: dict[str, Permanent] = {}
    at = first + count
    for n, key in enumerate(values[first:at]):
        perm = whole.get(n) if whole else None
        if perm is None:
            perm = object.__new__(Permanent)
            built = perm.__dict__
            built.update(zip(fields, values[at:at + size], strict=True))
            built["_attrs_cached_hash"] = None
            at += size
        objects[key] = perm
    if at != len(values) or len(objects) != count:
        raise ValueError(f"a pickled {cls.__name__} of another shape: {len(values)} values "
                         f"for {count} permanents")
    d["objects"] = FrozenMap._wrap(objects)
    d["_attrs_cached_hash"] = None
    if dirty is not _NO_NOTE:
        d[SBA_DIRTY] = dirty
        if never_checked:
            d[SBA_BUILT] = True
    return new


#: How a permanent pickles: its fields.
_PERMANENT: Final = _Pickling(Permanent)


def _position(perm: Permanent) -> int:
    return perm.position


def team_life(players: int) -> int:
    """A team's starting life total: 30 for two players, 15 more for each
    further player (810.4, 810.11).

    A team of one shares its life with no one: Two-Headed Giant has no such
    team (810.1, 810.11), so its player starts as any player does, at 20
    (103.4), and loses at 10 poison counters (704.5c), not 15.

    :param players: how many players the team has.
    """
    if players < 2:
        return 20
    return 30 + 15 * (players - 2)


def _collections(**given: Any) -> None:
    """Refuse a ``str``, ``bytes`` or single value given to :func:`new_game`
    where a collection belongs (an argument, or a team's players), naming
    it, before it is read as its characters (:func:`not_a_collection`).
    ``None`` is an argument not given."""
    for name, value in given.items():
        if value is None:
            continue
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            not_a_collection(value, new_game, where=f"new_game: {name}")
        if name == "teams" and isinstance(value, Mapping):
            for team, members in value.items():
                if isinstance(members, (str, bytes)) or not hasattr(members, "__iter__"):
                    not_a_collection(members, new_game, team, value, where="new_game: teams")


def new_game(
    players: Iterable[Player | str],
    permanents: Iterable[Permanent] = (),
    *,
    active_player: str | None = None,
    turn_order: Iterable[str] | None = None,
    effects: Iterable[Effect] = (),
    rules: str = "foundations",
    teams: Mapping[str, Iterable[str]] | None = None,
) -> GameState:
    """Build a :class:`GameState` before combat.

    :param players: players (or bare ids: 20 life, no poison; on a team
        given by bare ids, the team's 30 life, 15 more for each player beyond
        the second: 810.4, 810.11; 20 on a team of one: :func:`team_life`).
    :param permanents: the permanents on the battlefield.
    :param active_player: whose turn it is; defaults to the first player.
    :param turn_order: defaults to the order of ``players``.
    :param effects: game-wide continuous effects.
    :param rules: the rules edition.
    :param teams: team id -> its players, for Two-Headed Giant (810).
    :raises ValueError: on duplicate ids or an unknown active player; a team
        naming an unknown player, a player on two teams, or teammates whose
        life or poison differ (they share them, 810.4, 810.10).
    :raises TypeError: for a ``str`` (or a single value) where a collection
        belongs: ``players``, ``permanents``, ``turn_order``, ``effects`` or
        a team's players, naming the argument.
    """
    _collections(players=players, permanents=permanents, turn_order=turn_order,
                 effects=effects, teams=teams)
    given = list(players)
    team_map = {str(k): tuple(v) for k, v in (teams or {}).items()}
    shared = {m: team_life(len(ms)) for ms in team_map.values() for m in ms}
    plist = [p if isinstance(p, Player) else Player(p, life=shared.get(p, 20))
             for p in given]
    ids = [p.id for p in plist]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate player ids in {ids!r}")
    perms = list(permanents)
    pids = [p.id for p in perms]
    counted = Counter(pids)
    dup = sorted({i for i, n in counted.items() if n > 1} | (set(pids) & set(ids)))
    if dup:
        raise ValueError(f"duplicate ids: {dup!r}")
    order = tuple(turn_order) if turn_order is not None else tuple(ids)
    if sorted(order) != sorted(ids):
        raise ValueError(f"turn order {order!r} must name each player once: {ids!r}")
    active = active_player if active_player is not None else order[0]
    if active not in ids:
        raise ValueError(f"active player {active!r} is not one of {ids!r}")
    seen: dict[str, str] = {}
    by_id = {p.id: p for p in plist}
    for team, members in team_map.items():
        for m in members:
            if m not in by_id:
                raise ValueError(f"team {team!r} names {m!r}, who is not a player")
            if m in seen:
                raise ValueError(f"{m!r} is on two teams: {seen[m]!r} and {team!r}")
            seen[m] = team
        if len({(by_id[m].life, by_id[m].poison) for m in members}) > 1:
            raise ValueError(f"the players of team {team!r} must have the same life and "
                             "poison: a team shares them (810.4, 810.10)")
    state = GameState(
        players=FrozenMap((p.id, p) for p in plist),
        turn_order=order,
        active_player=active,
        objects=FrozenMap((p.id, p) for p in perms),
        effects=tuple(effects),
        rules=rules,
        teams=FrozenMap(team_map),
    )
    # The first check of state-based actions needs to look only at the
    # players who may call for one (no life, ten poison counters or more:
    # the fewest that can lose, 704.5c, 810.8d; a draw from an empty
    # library) and at the permanents that call for one of their own, have
    # marks or are tokens off the battlefield, and at the legendary ones
    # that share a name with another (704.5j, 420.5e), and the planeswalkers
    # that share a type (420.5q of 1999-2009), and at the battles, whose
    # protector may be missing or one who can't be (704.5x-y): every other
    # one is clean as built, for the core: the plugins' verdicts about one
    # permanent are asked about every one at the first check (SBA_BUILT).
    legends = Counter(p.name for p in perms
                      if p.zone == "battlefield" and "legendary" in p.supertypes)
    walkers = Counter(kind for p in perms if p.zone == "battlefield"
                      and "planeswalker" in p.types for kind in set(p.subtypes))
    state.__dict__[SBA_DIRTY] = frozenset(
        [*(p.id for p in plist if p.life <= 0 or p.poison >= 10 or p.drew_from_empty
           or p.lost),
         *(p.id for p in perms if p.own_state_based_actions or p.marks
           or (p.token and p.zone not in ("battlefield", "ceased"))
           or (legends.get(p.name, 0) > 1 and p.zone == "battlefield"
               and "legendary" in p.supertypes)
           or ("planeswalker" in p.types and p.zone == "battlefield"
               and any(walkers[kind] > 1 for kind in p.subtypes))
           or ("battle" in p.types and p.zone == "battlefield"))])
    state.__dict__[SBA_BUILT] = True
    # What every command reads, worked out once: the states built from this
    # one keep it while their objects don't change (``__evolve_carry__``).
    for name in ("keyword_names_present", "object_flags", "conditions"):
        getattr(state, name)
    return state


def creature(
    id: str,
    controller: str,
    power: int,
    toughness: int,
    *keywords: Keyword | str,
    **kwargs: Any,
) -> Permanent:
    """Shorthand for a creature: ``creature("bear", "bob", 2, 2, "flying")``.

    Keyword strings become :class:`Keyword` instances named by the whole
    string; use :meth:`redzone.Engine.keyword` for parameterised keywords.
    """
    return Permanent(
        id=id,
        controller=controller,
        base_power=power,
        base_toughness=toughness,
        printed_keywords=keywords,
        **kwargs,
    )
