"""The layer system (613): an object's characteristics from its copiable
values and the continuous effects that apply to it.

A :class:`~redzone.kernel.model.ContinuousEffect` is data: what it applies
to (a declarative filter, or a set of objects fixed as it began, 611.2c, as
the objects they were then, 400.7) and what it does in each layer it has a
part in (613.1a-g, 613.4a-d), to the objects it applied to in the first
(613.6). The state keeps them in ``GameState.continuous``, each with the
next timestamp of the state's one counter (``GameState.timestamp``,
613.7a); a per-permanent modification
(:class:`~redzone.kernel.model.Modification`) takes the counter as it
stands (after the latest effect, before the next).

What is computed when:

* a board with no continuous effect (the common case) never comes here: a
  permanent's keywords, power and toughness are derived from its own fields
  and modifications (:func:`~redzone.kernel.model.layer_values` is not
  even asked);
* as a command settles while some continuous effect applies (or the last
  one just ended), :func:`baked` works out every object's characteristics
  layer by layer, in timestamp and dependency order (613.7-613.8), writes
  the results of layers 1 and 3-5 into the permanents' fields (keeping the
  copiable values in ``Permanent.layered.printed``) and the effects of
  layers 6 and 7 that apply to each into ``Permanent.layered.effects``, so
  that the permanent's own keyword and P/T derivation
  (:func:`~redzone.kernel.model.layer_values`) stays one function, exact
  when its counters or modifications change before the next settle.

Layer 2 (control) is :class:`~redzone.GainControl`'s (a modification:
the latest wins, 613.1b, and the permanent is removed from combat, 506.4).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from redzone.kernel.errors import IllegalActionError
from redzone.kernel.model import (
    COLORS,
    LAYERS,
    ContinuousEffect,
    GameState,
    Keyword,
    Layered,
    Modification,
    Permanent,
    Printed,
    has_part,
    loses,
)

#: The word for no color (105.2c) in an effect's color fields.
COLORLESS: Final = "colorless"

#: The words an effect's color fields may hold: the five colors (105.1)
#: and :data:`COLORLESS`.
COLOR_WORDS: Final = (*COLORS, COLORLESS)


def check_colors(effect: ContinuousEffect, doing: str = "continuous") -> None:
    """Refuse an effect whose color fields (``affects_colors``,
    ``set_colors``, ``add_colors``) hold a word that is no color.

    :param effect: the effect about to start.
    :param doing: the command, for the message.
    :raises IllegalActionError: (105.1) naming the field and the word.
    """
    for name in ("affects_colors", "set_colors", "add_colors"):
        for word in getattr(effect, name) or ():
            if word not in COLOR_WORDS:
                raise IllegalActionError(
                    f"{doing}: {name}: {word!r} is not a color: expected one of "
                    f"{', '.join(map(repr, COLOR_WORDS))} (105.1; colorless, none: 105.2c)",
                    rule="105.1")


def printed_of(perm: Permanent) -> Printed:
    """The permanent's own characteristics (before any continuous effect)."""
    if perm.layered is not None:
        return perm.layered.printed
    return Printed(perm.name, perm.types, perm.subtypes, perm.supertypes, perm.colors,
                   perm.base_power, perm.base_toughness, perm.printed_keywords)


# -- the whole board: layers, timestamps and dependencies (613.1, 613.7, 613.8) ----------


class _Chars:
    """One object's characteristics while the layers are applied."""

    __slots__ = ("base_power", "base_toughness", "before_6", "colors", "controller", "id",
                 "keywords", "name", "number", "subtypes", "supertypes", "types")

    def __init__(self, perm: Permanent, printed: Printed) -> None:
        self.id = perm.id
        self.number = perm.object
        self.controller = perm.controller
        self.name = printed.name
        self.types = set(printed.types)
        self.subtypes = list(printed.subtypes)
        self.supertypes = set(printed.supertypes)
        self.colors = set(printed.colors)
        self.base_power = printed.base_power
        self.base_toughness = printed.base_toughness
        self.keywords: list[Keyword] = list(printed.printed_keywords)
        #: Its keywords as layers 1-5 left them: what its fields keep (layer
        #: 6 is applied as they are read, :func:`~redzone.kernel.model.layer_values`).
        self.before_6: tuple[Keyword, ...] = printed.printed_keywords

    def clone(self) -> _Chars:
        new = object.__new__(_Chars)
        for name in _Chars.__slots__:
            value = getattr(self, name)
            setattr(new, name, value.copy() if isinstance(value, (set, list)) else value)
        return new


Board = dict[str, _Chars]

#: The objects each effect applied to in the first layer it has a part in,
#: by the effect's ``id()``: the set it applies to in its later layers
#: (613.6).
Fixed = dict[int, frozenset[str]]


def affected(effect: ContinuousEffect, chars: Board,
             fixed: Fixed | None = None) -> frozenset[str]:
    """The objects ``effect`` applies to, read from the characteristics so
    far.

    :param effect: the effect.
    :param chars: every object's characteristics so far.
    :param fixed: the sets effects applied to in an earlier layer (613.6):
        ``effect``'s, if there, is the answer.
    :returns: the set fixed in an earlier layer (613.6); else, for given ids
        or a locked set (611.2c), those still on the battlefield as the
        objects they were as the effect started (``numbers``, 400.7); else
        those matching its filter.
    """
    if fixed is not None:
        found = fixed.get(id(effect))
        if found is not None:
            return found
    if effect.affects or effect.locked:
        numbers = effect.numbers
        return frozenset(i for n, i in enumerate(effect.affects) if i in chars and (
            n >= len(numbers) or chars[i].number == numbers[n]))
    return frozenset(i for i, c in chars.items() if _matches(effect, c))


def _matches(e: ContinuousEffect, c: _Chars) -> bool:
    if e.affects_types and not c.types.issuperset(e.affects_types):
        return False
    if e.affects_subtypes and not any(s in c.subtypes for s in e.affects_subtypes):
        return False
    if e.affects_colors and not c.colors.intersection(e.affects_colors) and (
            c.colors or COLORLESS not in e.affects_colors):  # colorless: none (105.2c)
        return False
    if e.affects_controller is not None and c.controller != e.affects_controller:
        return False
    return e.affects_keyword is None or any(k.name == e.affects_keyword for k in c.keywords)


def reword(k: Keyword, old: str, new: str) -> Keyword:
    """A keyword instance with the word ``old`` in its text changed to
    ``new`` (612.2: a color word or a basic land type word; ``swampwalk``
    becomes ``islandwalk``, ``protection from red`` ``protection from
    blue``). Only the word changes, not the same letters inside another
    word: ``protection from multicolored`` stays as it is."""
    old, new = old.lower(), new.lower()
    if old not in k.text and not any(old in a for a in k.args):
        return k
    # the word alone, after "non" ("nonred") or before "walk" ("swampwalk"),
    # never letters inside another word ("multicolored" holds no "red")
    word = re.compile(rf"(?<![a-z])((?:non-?)?){re.escape(old)}(?![a-z])|"
                      rf"(?<![a-z]){re.escape(old)}(?=walk(?![a-z]))")

    def swap(text: str) -> str:
        return word.sub(lambda m: (m.group(1) or "") + new, text)

    return Keyword(k.name, swap(k.text), tuple(swap(a) for a in k.args))


_COPIED: Final = ("name", "types", "subtypes", "supertypes", "colors", "base_power",
                  "base_toughness", "keywords")


def _apply_to(effect: ContinuousEffect, layer: str, chars: Board, hit: frozenset[str]) -> None:
    """Apply ``effect``'s part in ``layer`` to the objects ``hit`` (changing
    their entries of ``chars``, and no other)."""
    for i in hit:
        c = chars[i]
        if layer == "1":
            # 707.2-707.3: its copiable values: as printed, with the copy
            # effects applied to it so far (not its controller, nor later layers)
            src = chars.get(effect.copy_of or "")
            if src is not None and src is not c:
                for name in _COPIED:
                    value = getattr(src, name)
                    setattr(c, name, value.copy() if isinstance(value, (set, list)) else value)
        elif layer == "3":
            c.keywords = [reword(k, effect.text_from, effect.text_to) for k in c.keywords]
        elif layer == "4":
            _retype(effect, c)
        elif layer == "5":
            # "colorless" is no color (105.2c): set, it leaves none; added, nothing
            if effect.set_colors is not None:
                c.colors = {x for x in effect.set_colors if x != COLORLESS}
            c.colors.update(x for x in effect.add_colors if x != COLORLESS)
        elif layer == "6":
            if effect.lose_all_abilities:
                c.keywords = []
            gone = set(effect.remove_keywords)
            c.keywords = [k for k in c.keywords if not loses(k, gone)]
            c.keywords.extend(effect.add_keywords)


#: Which card types a subtype belongs to, for the closed lists of 205.3g-k
#: and 205.3q (artifact, enchantment, land, spell and battle types); any
#: other subtype is taken for a creature type (205.3m: of a creature or a
#: kindred object, 205.3d) or a planeswalker type (205.3j), lists too long
#: and too often extended to keep here.
_SUBTYPE_OF: Final[dict[str, frozenset[str]]] = {
    name.lower(): frozenset(kinds.split()) for kinds, names in (
        ("artifact", "Attraction Blood Bobblehead Clue Contraption Equipment Food "
                     "Fortification Gold Incubator Junk Lander Map Powerstone Spacecraft "
                     "Treasure Vehicle"),
        ("enchantment", "Aura Background Cartouche Case Class Curse Role Room Rune Saga "
                        "Shard Shrine"),
        ("land", "Cave Desert Forest Gate Island Lair Locus Mine Mountain Plains Planet "
                 "Power-Plant Sphere Swamp Tower Town Urza's"),
        ("instant sorcery", "Adventure Arcane Chorus Lesson Omen Trap"),
        ("battle", "Siege"),
    ) for name in names.split()}
_OPEN_KINDS: Final = frozenset({"creature", "kindred", "tribal", "planeswalker"})


def _kinds(subtype: str) -> frozenset[str]:
    return _SUBTYPE_OF.get(subtype.lower(), _OPEN_KINDS)


def _retype(e: ContinuousEffect, c: _Chars) -> None:
    """Layer 4 (613.1d) on one object: its card types, then its subtypes.
    A card type it loses takes the subtypes that belong to no type it still
    has (205.1a, 205.3d); subtypes set replace those of the same kinds
    ("is a Mountain" replaces land types only, 205.1a); it gains no subtype
    that belongs to none of its types (205.3d)."""
    retyped = e.set_types is not None or bool(e.remove_types)
    if e.set_types is not None:
        c.types = set(e.set_types)
    c.types.update(e.add_types)
    c.types.difference_update(e.remove_types)
    subtypes = c.subtypes
    if retyped:
        subtypes = [s for s in subtypes if not c.types.isdisjoint(_kinds(s))]
    gained = list(e.add_subtypes)
    if e.set_subtypes is not None:
        replaced = {_kinds(s) for s in e.set_subtypes}
        subtypes = [s for s in subtypes if _kinds(s) not in replaced]
        gained[:0] = e.set_subtypes
    subtypes += [s for s in dict.fromkeys(gained)
                 if s not in subtypes and not c.types.isdisjoint(_kinds(s))]
    c.subtypes = [s for s in subtypes if s not in e.remove_subtypes]


def _state(c: _Chars) -> tuple[Any, ...]:
    return (c.name, frozenset(c.types), tuple(c.subtypes), frozenset(c.supertypes),
            frozenset(c.colors), c.base_power, c.base_toughness, tuple(c.keywords))


def _reads(a: ContinuousEffect, layer: str) -> bool:
    """Whether what ``layer`` changes can change what ``a``'s filter
    matches (layer 3 changes no keyword's name)."""
    if layer == "4":
        return bool(a.affects_types or a.affects_subtypes)
    if layer == "5":
        return bool(a.affects_colors)
    if layer == "6":
        return a.affects_keyword is not None
    return layer != "3"


#: The objects each effect would apply to now, by the effect's ``id()``,
#: while the characteristics don't change (an ordering's own, emptied as
#: an effect changes them).
Hits = dict[int, frozenset[str]]


def depends_on(a: ContinuousEffect, b: ContinuousEffect, layer: str, chars: Board,
               fixed: Fixed | None = None, hits: Hits | None = None) -> bool:
    """Whether ``a`` depends on ``b`` in ``layer`` (613.8a): both apply in
    it, neither or both come from characteristic-defining abilities, and
    applying ``b`` would change what ``a`` applies to or what it does to
    the things it applies to (for a copy effect: the values it copies).
    What ``a`` applies to can't change when it was fixed as ``a`` began
    (611.2c) or in an earlier layer (613.6: ``fixed``).

    Applying ``b`` changes only the objects it applies to, so only those
    are tried (a copy of each): an effect that applies to nothing now is
    one nothing depends on.

    :param hits: what each effect applies to in ``chars``, filled as found
        (valid while ``chars`` doesn't change).
    """
    if a is b or a.cda != b.cda:
        return False
    copied = a.copy_of if layer == "1" and a.copy_of in chars else None
    copies = copied is not None
    settled = bool(a.affects or a.locked) or (fixed is not None and id(a) in fixed)
    if not copies and (settled or not _reads(a, layer)):
        return False
    hit = hits.get(id(b)) if hits is not None else None
    if hit is None:
        hit = affected(b, chars, fixed)
        if hits is not None:
            hits[id(b)] = hit
    if not hit:
        return False
    trial = dict(chars)
    for i in hit:
        trial[i] = chars[i].clone()
    _apply_to(b, layer, trial, hit)
    if not settled and any(_matches(a, chars[i]) != _matches(a, trial[i]) for i in hit):
        return True  # (only the objects b changed can change what a matches)
    if copied is not None and copied in hit:
        # what it does: the copiable values it copies (707.2, 613.2)
        return _state(trial[copied]) != _state(chars[copied])
    return False


def _next(left: list[ContinuousEffect], layer: str, chars: Board,
          fixed: Fixed | None, hits: Hits | None = None) -> ContinuousEffect:
    """The effect to apply next of ``left`` (in timestamp order): the
    earliest that waits for no other (613.7, 613.8a), an effect in a
    dependency loop waiting for nothing outside it counting as waiting for
    none (613.8b); one that depends on a member of a loop waits for it."""
    first = left[0]
    if not any(depends_on(first, b, layer, chars, fixed, hits) for b in left[1:]):
        return first
    waits = {id(a): [b for b in left if depends_on(a, b, layer, chars, fixed, hits)]
             for a in left}

    def waits_for(a: ContinuousEffect) -> set[int]:
        seen: set[int] = set()
        todo = list(waits[id(a)])
        while todo:
            b = todo.pop()
            if id(b) not in seen:
                seen.add(id(b))
                todo.extend(waits[id(b)])
        return seen

    closure = {id(a): waits_for(a) for a in left}
    # all it waits for (if anything) wait for it: a loop waiting for nothing else
    return next(a for a in left if all(id(a) in closure[b] for b in closure[id(a)]))


#: The layers in which characteristic-defining abilities apply first (613.3).
_CDA_FIRST: Final = frozenset({"2", "3", "4", "5", "6"})


def ordered(effects: Sequence[ContinuousEffect], layer: str, chars: Board,
            fixed: Fixed | None = None) -> list[tuple[ContinuousEffect, frozenset[str]]]:
    """Apply the effects of one layer, changing ``chars``: in layers 2-6
    those from characteristic-defining abilities (``cda``) first (613.3),
    then the others; each time the one with the earliest timestamp among
    those that depend on no other still to apply (613.7, 613.8a), or, for
    effects in a dependency loop, on none outside it (613.8b), deciding
    again after each (613.8c).

    :param effects: the effects with a part in ``layer``.
    :param layer: the layer.
    :param chars: every object's characteristics so far.
    :param fixed: the set each effect applied to in the first layer it has
        a part in (613.6), read and noted here.
    :returns: each effect as it applied, with the objects it applied to.
    """
    # 613.3: within layers 2-6, characteristic-defining abilities' effects
    # first; no effect depends on one of the other kind (613.8a), so none
    # waits for a later one of the other kind here
    first = layer in _CDA_FIRST
    left = sorted(effects, key=lambda e: (first and not e.cda, e.timestamp))
    done: list[tuple[ContinuousEffect, frozenset[str]]] = []
    hits: Hits = {}
    while left:
        pick = _next(left, layer, chars, fixed, hits) if len(left) > 1 else left[0]
        hit = hits.pop(id(pick), None)
        if hit is None:
            hit = affected(pick, chars, fixed)
        _apply_to(pick, layer, chars, hit)
        if hit:
            hits.clear()  # (what it changed may change what the others apply to)
        if fixed is not None and pick.source != _MODIFICATION:
            fixed.setdefault(id(pick), hit)
        done.append((pick, hit))
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
    (613.1a-f, with the keywords its modifications grant or remove), and
    the continuous effects with a part in layer 6 or 7 that apply to each,
    in the order they apply in layer 6, then the others' by timestamp. An
    effect applies in each of its layers to the objects it applied to in
    the first (613.6); an effect with a part in layer 7 only, to those its
    filter matches after layer 6 (613.1g)."""
    chars, late, _ = _layered(state)
    return chars, late


#: Per permanent: where each of its layer-6 modifications applied among the
#: layer-6 effects, as ``(timestamp, effects applied before it)``.
Slots = dict[str, list[tuple[int, int]]]


def _layered(state: GameState) -> tuple[Board, dict[str, list[ContinuousEffect]], Slots]:
    """:func:`characteristics`, with where each permanent's modifications
    applied in layer 6 among the effects that apply to it there (613.8a:
    an effect that depends on one applies after it)."""
    perms = [p for p in state.objects.values() if p.zone == "battlefield"]
    chars: Board = {p.id: _Chars(p, printed_of(p)) for p in perms}
    late: dict[str, list[ContinuousEffect]] = {p.id: [] for p in perms}
    slots: Slots = {p.id: [] for p in perms}
    effects = state.continuous
    fixed: Fixed = {}
    for layer in LAYERS:
        part = [e for e in effects if has_part(e, layer)]
        if layer == "6":  # Grant, Revoke: layer 6 too (613.1f)
            for c in chars.values():
                c.before_6 = tuple(c.keywords)
            part += [_as_effect(p.id, m) for p in perms for m in p.modifications
                     if has_part(m, "6")]
        if not part:
            continue
        if layer in ("1", "3", "4", "5", "6"):
            for e, hit in ordered(part, layer, chars, fixed):
                if layer != "6":
                    continue
                for i in hit:
                    if e.source != _MODIFICATION:
                        late[i].append(e)
                    else:
                        slots[i].append((e.timestamp, len(late[i])))
        else:  # layer 7: nothing here changes what another applies to
            for e in sorted(part, key=lambda x: x.timestamp):
                for i in affected(e, chars, fixed):
                    if not any(x is e for x in late[i]):
                        late[i].append(e)
    return chars, late, slots


def copiable_values(state: GameState, perm: Permanent) -> Printed:
    """The copiable values of ``perm`` (707.2): what is printed on it, as
    modified by the copy effects that apply to it (layer 1, 613.1a, 707.3),
    and by no other effect (layers 2-7: its types, colors or keywords given
    or changed by other effects are not copied). What an effect copies is
    itself copiable values, so a copy of a copy is a copy of the original.

    :param state: the state whose continuous effects apply.
    :param perm: a permanent on the battlefield, or one's last known
        information (608.2h: ``state.last_known``), read as the object it
        was then.
    :returns: its copiable values; its keywords are those it has before
        layer 3 (text-changing) and layer 6 apply.
    """
    copies = [e for e in state.continuous if has_part(e, "1")]
    if perm.layered is None or not copies:
        return printed_of(perm)
    chars: Board = {p.id: _Chars(p, printed_of(p)) for p in state.objects.values()
                    if p.zone == "battlefield" and p.id != perm.id}
    chars[perm.id] = _Chars(perm, printed_of(perm))
    ordered(copies, "1", chars, {})
    c = chars[perm.id]
    return Printed(c.name, frozenset(c.types), tuple(c.subtypes), frozenset(c.supertypes),
                   frozenset(c.colors), c.base_power, c.base_toughness, tuple(c.keywords))


def baked(state: GameState) -> dict[str, Permanent]:
    """The permanents whose layered values change: layers 1 and 3-5 written
    into their fields, their copiable values kept in ``layered.printed``,
    the layer 6-7 effects that apply to each in ``layered.effects`` (and
    where its modifications applied among them in layer 6 in
    ``layered.slots``); a permanent no effect applies to any more gets its
    own values back."""
    chars, late, slots = _layered(state)
    changed: dict[str, Permanent] = {}
    for obj, c in chars.items():
        perm = state.objects[obj]
        printed = printed_of(perm)
        values = dict(zip(_COPIED, _state(c), strict=True))
        del values["keywords"]  # layer 6 is applied as they are read: not twice
        values["printed_keywords"] = c.before_6
        same = values == {"name": printed.name, "types": printed.types,
                          "subtypes": printed.subtypes, "supertypes": printed.supertypes,
                          "colors": printed.colors, "base_power": printed.base_power,
                          "base_toughness": printed.base_toughness,
                          "printed_keywords": printed.printed_keywords}
        layered = None if same and not late[obj] else Layered(
            printed, tuple(late[obj]), tuple(slots[obj]) if late[obj] else ())
        if layered == perm.layered and all(
                getattr(perm, k) == v for k, v in values.items()):
            continue
        changed[obj] = perm.evolve(layered=layered, **values)
    return changed
