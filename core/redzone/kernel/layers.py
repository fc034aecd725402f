"""The layer system (613): an object's characteristics from its copiable
values and the continuous effects that apply to it.

A :class:`ContinuousEffect` is data: what it applies to (a declarative
filter, or a set of objects fixed as it began, 611.2c) and what it does in
each layer it has a part in (613.1a-g, 613.4a-d; 613.6). The state keeps them
in ``GameState.continuous``, each with a timestamp from the state's one
counter (``GameState.timestamp``, 613.7), which per-permanent modifications
(:class:`~redzone.kernel.model.Modification`) take theirs from too.

What is computed when:

* a board with no continuous effect (the common case) never comes here: a
  permanent's keywords, power and toughness are derived from its own fields
  and modifications (:func:`finish`, its fast path);
* as a command settles while some continuous effect applies (or the last
  one just ended), :func:`bake` works out every object's characteristics
  layer by layer, in timestamp and dependency order (613.7-613.8), writes
  the results of layers 1 and 3-5 into the permanents' fields (keeping the
  copiable values in ``Permanent.layered.printed``) and the effects of
  layers 6 and 7 that apply to each into ``Permanent.layered.effects``, so
  that the permanent's own keyword and P/T derivation (:func:`finish`)
  stays one function, exact when its counters or modifications change
  before the next settle.

Layer 2 (control) is :class:`~redzone.GainControl`'s (a modification:
the latest wins, 613.1b, and the permanent is removed from combat, 506.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from attrs import field, frozen

from redzone.kernel.frozen import EMPTY, as_tuple
from redzone.kernel.references import ObjectId, PlayerId, SourceId

if TYPE_CHECKING:
    from redzone.kernel.model import Condition, GameState, Keyword, Modification, Permanent

#: The layers and sublayers in the order they apply (613.1, 613.4).
LAYERS: Final = ("1", "3", "4", "5", "6", "7a", "7b", "7c", "7d")


def _strs(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@frozen
class ContinuousEffect:
    """A continuous effect that modifies characteristics (611, 613).

    What it applies to: every permanent on the battlefield that matches all
    of the ``affects*`` criteria given (none given: every permanent); with
    ``locked`` (an effect from a resolving spell or ability, 611.2c) the set
    is fixed as it begins and only those objects (``affects``) are affected.

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
        replacing the old ones, and with them the subtypes that no longer
        fit are gone unless ``add_subtypes`` names them).
    :param add_types: layer 4: card types it gains ("in addition", 205.1b).
    :param remove_types: layer 4: card types it loses.
    :param set_subtypes: layer 4: its subtypes become these ("is a Forest").
    :param add_subtypes: layer 4: subtypes it gains.
    :param remove_subtypes: layer 4: subtypes it loses.
    :param set_colors: layer 5: its colors become these (``("colorless",)``
        -> none; 105.2).
    :param add_colors: layer 5: colors it gains.
    :param add_keywords: layer 6: keyword instances it gains.
    :param remove_keywords: layer 6: keyword names it loses.
    :param lose_all_abilities: layer 6: it loses all abilities.
    :param cda: its ``set_power``/``set_toughness`` come from a
        characteristic-defining ability (layer 7a, 604.3), not 7b.
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
    set_types: tuple[str, ...] | None = None
    add_types: tuple[str, ...] = field(default=(), converter=_strs)
    remove_types: tuple[str, ...] = field(default=(), converter=_strs)
    set_subtypes: tuple[str, ...] | None = None
    add_subtypes: tuple[str, ...] = field(default=(), converter=_strs)
    remove_subtypes: tuple[str, ...] = field(default=(), converter=_strs)
    set_colors: tuple[str, ...] | None = None
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

    def layers(self) -> tuple[str, ...]:
        """The layers it has a part in (613.6), in order."""
        return tuple(layer for layer in LAYERS if _has_part(self, layer))


def _has_part(e: ContinuousEffect | Modification, layer: str) -> bool:
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


@frozen
class Printed:
    """A permanent's own characteristics as its card (or token) gives them,
    kept while layered values stand in its fields (the copiable values
    before copy effects, 707.2).

    .. versionadded:: 0.1.0
    """

    name: str
    types: frozenset[str]
    subtypes: tuple[str, ...]
    supertypes: frozenset[str]
    colors: frozenset[str]
    base_power: int | None
    base_toughness: int | None
    printed_keywords: tuple[Keyword, ...]


@frozen
class Layered:
    """What the layer system found for one permanent as the last command
    settled (:func:`bake`).

    :param printed: its own characteristics, before any effect.
    :param effects: the continuous effects with a part in layer 6 or 7 that
        apply to it, in the order they apply.

    .. versionadded:: 0.1.0
    """

    printed: Printed
    effects: tuple[ContinuousEffect, ...] = field(default=(), converter=as_tuple)


def printed_of(perm: Permanent) -> Printed:
    """The permanent's own characteristics (before any continuous effect)."""
    if perm.layered is not None:
        return perm.layered.printed
    return Printed(perm.name, perm.types, perm.subtypes, perm.supertypes, perm.colors,
                   perm.base_power, perm.base_toughness, perm.printed_keywords)


# -- layers 6 and 7 of one permanent: the only derivation of keywords and P/T -----------


def finish(perm: Permanent) -> tuple[tuple[Keyword, ...], int | None, int | None]:
    """A permanent's keywords, power and toughness: layer 6 then 7a-7d
    (613.1f-g, 613.4) from its fields (layers 1-5 already applied), its
    modifications and its baked continuous effects, in timestamp order
    within each layer (613.7); counters in 7c (613.4c)."""
    mods = perm.modifications
    effects = perm.layered.effects if perm.layered is not None else ()
    kws = list(perm.printed_keywords)
    for item in _merged(mods, [e for e in effects if _has_part(e, "6")]):
        if isinstance(item, ContinuousEffect) and item.lose_all_abilities:
            kws = []
        if item.remove_keywords:
            gone = set(item.remove_keywords)
            kws = [k for k in kws if k.name not in gone]
        kws.extend(item.add_keywords)
    p, t = perm.base_power, perm.base_toughness
    for sub in ("7a", "7b"):
        for e in effects:
            if _has_part(e, sub):
                p = e.set_power if e.set_power is not None else p
                t = e.set_toughness if e.set_toughness is not None else t
    dp = dt = 0
    c = perm.counters
    if c is not EMPTY:
        dp = dt = c.get("+1/+1", 0) - c.get("-1/-1", 0)
    for mod in mods:
        dp += mod.power
        dt += mod.toughness
    for e in effects:
        dp += e.power
        dt += e.toughness
    if p is not None:
        p += dp
    if t is not None:
        t += dt
    for e in effects:
        if e.switch:
            p, t = t, p
    return tuple(kws), p, t


def _merged(mods: Sequence[Modification],
            effects: Sequence[ContinuousEffect]) -> list[Any]:
    """Modifications and effects merged by timestamp, each keeping its own
    order (the effects' is their dependency order, 613.8)."""
    out: list[Any] = []
    i = 0
    for e in effects:
        while i < len(mods) and mods[i].timestamp < e.timestamp:
            out.append(mods[i])
            i += 1
        out.append(e)
    out.extend(mods[i:])
    return out


# -- the whole board: layers, timestamps and dependencies (613.1, 613.7, 613.8) ----------


class _Chars:
    """One object's characteristics while the layers are applied."""

    __slots__ = ("base_power", "base_toughness", "colors", "controller", "id", "keywords",
                 "name", "subtypes", "supertypes", "types")

    def __init__(self, perm: Permanent, printed: Printed) -> None:
        self.id = perm.id
        self.controller = perm.controller
        self.name = printed.name
        self.types = set(printed.types)
        self.subtypes = list(printed.subtypes)
        self.supertypes = set(printed.supertypes)
        self.colors = set(printed.colors)
        self.base_power = printed.base_power
        self.base_toughness = printed.base_toughness
        self.keywords: list[Keyword] = list(printed.printed_keywords)

    def clone(self) -> _Chars:
        new = object.__new__(_Chars)
        for name in _Chars.__slots__:
            value = getattr(self, name)
            setattr(new, name, value.copy() if isinstance(value, (set, list)) else value)
        return new


Board = dict[str, _Chars]


def affected(effect: ContinuousEffect, chars: Board) -> frozenset[str]:
    """The objects ``effect`` applies to, read from the characteristics so
    far (a locked set, 611.2c, or given ids: those still there)."""
    if effect.affects or effect.locked:
        return frozenset(i for i in effect.affects if i in chars)
    return frozenset(i for i, c in chars.items() if _matches(effect, c))


def _matches(e: ContinuousEffect, c: _Chars) -> bool:
    if e.affects_types and not c.types.issuperset(e.affects_types):
        return False
    if e.affects_subtypes and not any(s in c.subtypes for s in e.affects_subtypes):
        return False
    if e.affects_colors and not c.colors.intersection(e.affects_colors):
        return False
    if e.affects_controller is not None and c.controller != e.affects_controller:
        return False
    return e.affects_keyword is None or any(k.name == e.affects_keyword for k in c.keywords)


def reword(k: Keyword, old: str, new: str) -> Keyword:
    """A keyword instance with the word ``old`` in its text changed to
    ``new`` (612.2: a color word or a basic land type word; ``swampwalk``
    becomes ``islandwalk``, ``protection from red`` ``protection from
    blue``)."""
    old, new = old.lower(), new.lower()
    if old not in k.text and not any(old in a for a in k.args):
        return k
    from redzone.kernel.model import Keyword as _Keyword

    return _Keyword(k.name, k.text.replace(old, new), tuple(a.replace(old, new) for a in k.args))


_COPIED: Final = ("name", "types", "subtypes", "supertypes", "colors", "base_power",
                  "base_toughness", "keywords")


def _apply(effect: ContinuousEffect, layer: str, chars: Board, copiable: Board) -> frozenset[str]:
    """Apply ``effect``'s part in ``layer`` to every object it applies to
    (changing ``chars``); returns those objects."""
    hit = affected(effect, chars)
    for i in hit:
        c = chars[i]
        if layer == "1":
            src = copiable.get(effect.copy_of or "")
            if src is not None:  # 707.2: the copiable values, not its controller
                for name in _COPIED:
                    value = getattr(src, name)
                    setattr(c, name, value.copy() if isinstance(value, (set, list)) else value)
        elif layer == "3":
            c.keywords = [reword(k, effect.text_from, effect.text_to) for k in c.keywords]
        elif layer == "4":
            if effect.set_types is not None:
                c.types = set(effect.set_types)
                if effect.set_subtypes is None:
                    c.subtypes = []
            c.types.update(effect.add_types)
            c.types.difference_update(effect.remove_types)
            if effect.set_subtypes is not None:
                c.subtypes = list(effect.set_subtypes)
            c.subtypes += [s for s in effect.add_subtypes if s not in c.subtypes]
            c.subtypes = [s for s in c.subtypes if s not in effect.remove_subtypes]
        elif layer == "5":
            if effect.set_colors is not None:
                c.colors = {x for x in effect.set_colors if x != "colorless"}
            c.colors.update(effect.add_colors)
        elif layer == "6":
            if effect.lose_all_abilities:
                c.keywords = []
            gone = set(effect.remove_keywords)
            c.keywords = [k for k in c.keywords if k.name not in gone]
            c.keywords.extend(effect.add_keywords)
    return hit


def _state(c: _Chars) -> tuple[Any, ...]:
    return (c.name, frozenset(c.types), tuple(c.subtypes), frozenset(c.supertypes),
            frozenset(c.colors), c.base_power, c.base_toughness, tuple(c.keywords))


def depends_on(a: ContinuousEffect, b: ContinuousEffect, layer: str, chars: Board,
               copiable: Board) -> bool:
    """Whether ``a`` depends on ``b`` in ``layer`` (613.8a): both apply in
    it, neither or both come from characteristic-defining abilities, and
    applying ``b`` would change what ``a`` applies to or what it does to
    the things it applies to (for a copy effect: the values it copies)."""
    if a is b or a.cda != b.cda:
        return False
    trial = {i: c.clone() for i, c in chars.items()}
    _apply(b, layer, trial, copiable)
    if affected(a, chars) != affected(a, trial):
        return True
    if layer == "1" and a.copy_of is not None and a.copy_of in chars:
        # what it does: the copiable values it copies (707.2, 613.2)
        return _state(trial[a.copy_of]) != _state(chars[a.copy_of])
    return False


def ordered(effects: Sequence[ContinuousEffect], layer: str, chars: Board,
            copiable: Board) -> list[tuple[ContinuousEffect, frozenset[str]]]:
    """Apply the effects of one layer, changing ``chars``: each time the one
    with the earliest timestamp among those that depend on no other still to
    apply (613.7, 613.8a), deciding again after each (613.8c); when every one
    left is in a dependency loop, the earliest timestamp (613.8b). Returns
    each effect as it applied, with the objects it applied to."""
    left = sorted(effects, key=lambda e: e.timestamp)
    done: list[tuple[ContinuousEffect, frozenset[str]]] = []
    while left:
        pick = left[0]
        if len(left) > 1:
            for a in left:
                if not any(depends_on(a, b, layer, chars, copiable) for b in left if b is not a):
                    pick = a
                    break
        done.append((pick, _apply(pick, layer, chars, copiable)))
        left.remove(pick)
    return done


#: The source a modification has as an effect of layer 6 here.
_MODIFICATION: Final = "\x00modification"


def _as_effect(obj: str, mod: Modification) -> ContinuousEffect:
    return ContinuousEffect(affects=(obj,), add_keywords=mod.add_keywords,
                            remove_keywords=mod.remove_keywords, source=_MODIFICATION,
                            timestamp=mod.timestamp)


def characteristics(state: GameState) -> tuple[Board, dict[str, list[ContinuousEffect]]]:
    """Every battlefield permanent's characteristics through layer 6
    (613.1a-f), and the continuous effects with a part in layer 6 or 7 that
    apply to each, in the order they apply (layer 7's affected sets are
    read after layer 6: 613.1g)."""
    perms = [p for p in state.objects.values() if p.zone == "battlefield"]
    chars: Board = {p.id: _Chars(p, printed_of(p)) for p in perms}
    late: dict[str, list[ContinuousEffect]] = {p.id: [] for p in perms}
    effects = state.continuous
    copiable = chars
    for layer in LAYERS:
        part = [e for e in effects if _has_part(e, layer)]
        if layer == "1":
            copiable = {i: c.clone() for i, c in chars.items()}
        if layer == "6" and part:
            part += [_as_effect(p.id, m) for p in perms for m in p.modifications
                     if _has_part(m, "6")]
        if not part:
            continue
        if layer in ("1", "3", "4", "5", "6"):
            for e, hit in ordered(part, layer, chars, copiable):
                if layer == "6" and e.source != _MODIFICATION:
                    for i in hit:
                        late[i].append(e)
        else:  # layer 7: nothing here changes what another applies to
            for e in sorted(part, key=lambda x: x.timestamp):
                for i in affected(e, chars):
                    if e not in late[i]:
                        late[i].append(e)
    return chars, late


def baked(state: GameState) -> dict[str, Permanent]:
    """The permanents whose layered values change: layers 1 and 3-5 written
    into their fields, their copiable values kept in ``layered.printed``,
    the layer 6-7 effects that apply to each in ``layered.effects``; a
    permanent no effect applies to any more gets its own values back."""
    chars, late = characteristics(state)
    changed: dict[str, Permanent] = {}
    for obj, c in chars.items():
        perm = state.objects[obj]
        printed = printed_of(perm)
        values = dict(zip(_COPIED, _state(c), strict=True))
        values["printed_keywords"] = values.pop("keywords")
        same = values == {"name": printed.name, "types": printed.types,
                          "subtypes": printed.subtypes, "supertypes": printed.supertypes,
                          "colors": printed.colors, "base_power": printed.base_power,
                          "base_toughness": printed.base_toughness,
                          "printed_keywords": printed.printed_keywords}
        layered = None if same and not late[obj] else Layered(printed, tuple(late[obj]))
        if layered == perm.layered and all(
                getattr(perm, k) == v for k, v in values.items()):
            continue
        changed[obj] = perm.evolve(layered=layered, **values)
    return changed
