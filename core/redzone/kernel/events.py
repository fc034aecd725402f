"""Events, and the one vocabulary every rendering of them reads.

Everything that happens produces an :class:`Event`, with its rule number. A
caller can print a full account from the events alone, and an embedding engine
can fire its own triggers from them. Events are announced only after the
command that made them has committed, in causal order (a creature's
``removed_from_combat`` follows the event that took it off the battlefield).

Each kind of event is declared once, as an :class:`EventKind`: its name, its
rule, its fields, the phrase that words it and its properties (whether it
takes an object off the battlefield, its tone). The kernel declares its own
kinds here (:data:`KERNEL_KINDS`); a plugin declares its own through the
``redzone_event_kinds`` hook. ``str(event)``, the terminal account, the HTML
report, the notebook tables and the conformance kit's messages all word an
event with :func:`phrase`, so an event reads the same everywhere and a
plugin's event reads as its author wrote it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, NamedTuple, Protocol

from attrs import field, frozen

from redzone.kernel.frozen import FrozenMap

#: The JSON keys of :class:`Event`'s own fields, in the order they are written
#: (an event's :attr:`~Event.data` follows them).
_FIELDS = ("attacker", "blocker", "source", "target", "player", "object", "amount",
           "combat", "counter", "detail")

#: The fields that hold ids of objects or players, which renderings name.
ID_FIELDS: Final = ("attacker", "blocker", "source", "target", "player", "object")

#: Every name an event's :attr:`~Event.data` may not use: the JSON outcome
#: writes data beside the event's own keys.
RESERVED: Final = frozenset({"step", "kind", "rule", *_FIELDS, "data"})

#: A function that shows an id (a name for it, or the id itself).
Namer = Callable[[str | None], str]


class Event(NamedTuple):
    """One thing that happened.

    :param kind: what happened: the name of an :class:`EventKind`
        (``attack``, ``damage``, ``dies``, ...; :data:`KERNEL_KINDS` lists the
        kernel's, :func:`kinds` every declared one).
    :param rule: the rule that made it happen.
    :param step: the step it happened in.
    :param attacker: the attacking creature (``attack``, ``block``).
    :param blocker: the blocking creature (``block``).
    :param source: the source (damage, prevention, results).
    :param target: the object or player affected.
    :param player: the player affected (life, poison, loss).
    :param object: the object affected (zone changes, taps).
    :param amount: how much.
    :param combat: whether damage is combat damage.
    :param counter: the kind of counter (``counters`` events).
    :param detail: why, in words, where the rules give a reason and no field
        says it (``not_attacking``, ``skipped``).
    :param data: the kind's further fields (the zone an object moved to, the
        effect that applied, the shield used), as its :class:`EventKind`
        declares them: a :class:`~redzone.kernel.frozen.FrozenMap` of names to
        strings, numbers, booleans or tuples of them. :meth:`make` builds it.

    .. versionadded:: 0.1.0
    """

    kind: str
    rule: str
    step: str = ""
    attacker: str | None = None
    blocker: str | None = None
    source: str | None = None
    target: str | None = None
    player: str | None = None
    object: str | None = None
    amount: int | None = None
    combat: bool | None = None
    counter: str | None = None
    detail: str | None = None
    data: FrozenMap[str, Any] | None = None

    @classmethod
    def make(cls, kind: str, rule: str, step: str = "", **fields: Any) -> Event:
        """An event whose fields beyond :class:`Event`'s own go to :attr:`data`:
        ``Event.make("effect", "611.2", object="e1", effect="double_damage")``.

        Tuples and lists are kept as tuples; a field given as ``None`` is left out.

        .. versionadded:: 0.1.0
        """
        own = {k: fields.pop(k) for k in _FIELDS if k in fields}
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()
                if v is not None}
        return cls(kind, rule, step, **own, data=FrozenMap(data) if data else None)

    def get(self, name: str, default: Any = None) -> Any:
        """A field by name: one of the event's own, else one of its data."""
        if name in _OWN:
            value = getattr(self, name)
            return default if value is None else value
        data = self.data
        return data.get(name, default) if data is not None else default

    def to_json(self) -> dict[str, Any]:
        """The event as the JSON outcome writes it: ``step``, ``kind``, ``rule``,
        every field that is set, then the kind's data (tuples as lists)."""
        out: dict[str, Any] = {"step": self.step, "kind": self.kind, "rule": self.rule}
        for name in _FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.data:
            for name, value in self.data.items():
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def __repr__(self) -> str:
        return f"<Event {self.kind} in {self.step or '?'}: {phrase(self)} [{self.rule}]>"

    def __str__(self) -> str:
        return event_text(self)


_OWN: Final = frozenset(_FIELDS)

#: Tones: how an account may colour an event (the terminal's styles and the
#: report's classes read them).
TONES: Final = ("plain", "harm", "help", "quiet", "rules", "loss")


def _check_name(value: object, what: str) -> None:
    if not isinstance(value, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", value):
        raise ValueError(f"{what} {value!r} is not a lower-case name (letters, digits, _)")


def check_kind(kind: object) -> None:
    """A declaration is well made: an :class:`EventKind` whose name and
    fields are lower-case names, whose phrase is a template or a function,
    whose tone is one of :data:`TONES` and whose data fields aren't named
    like an event's own.

    :raises ValueError: naming what is wrong.
    """
    if not isinstance(kind, EventKind):
        raise ValueError(f"{kind!r} is not an EventKind")
    _check_name(kind.name, "event kind")
    if not (isinstance(kind.phrase, str) or callable(kind.phrase)):
        raise ValueError(f"event kind {kind.name!r}: phrase must be a template or a "
                         "function of the event and a namer")
    if not isinstance(kind.fields, tuple) or not isinstance(kind.ids, tuple):
        raise ValueError(f"event kind {kind.name!r}: fields and ids are tuples of names")
    for name in (*kind.fields, *kind.ids):
        _check_name(name, f"event kind {kind.name!r}: field")
    clash = [f for f in kind.ids if f in RESERVED]
    if clash:
        raise ValueError(f"event kind {kind.name!r} declares {clash[0]!r} as a data field, "
                         "but an event's own field has that name")
    if kind.tone not in TONES:
        raise ValueError(f"event kind {kind.name!r}: tone {kind.tone!r} is not one of "
                         f"{', '.join(TONES)}")


@frozen
class EventKind:
    """A kind of event, declared once: what every rendering reads.

    :param name: the :attr:`Event.kind` it declares.
    :param rule: the rule that usually makes it (an event carries its own).
    :param phrase: how it reads: a template naming its fields
        (``"{source} deals {amount} damage to {target}"``; ids are shown
        by name, tuples as ``a, b and c``), or a function of the event and a
        :data:`Namer` that returns the sentence.
    :param fields: the fields it sets: :class:`Event`'s own and its data's.
    :param ids: which of its data fields hold ids (or tuples of ids), to be
        shown by name like the own id fields.
    :param tone: one of :data:`TONES`.
    :param leaves_battlefield: whether it takes its ``object`` off the
        battlefield (dies, is exiled, ceases to exist ...).
    :param summary: what it means, in one line, for the documentation.

    .. versionadded:: 0.1.0
    """

    name: str
    rule: str
    phrase: str | Callable[[Event, Namer], str] = field(eq=False)
    fields: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    tone: str = "plain"
    leaves_battlefield: bool = False
    summary: str = ""

    def same(self, other: EventKind) -> bool:
        """Whether ``other`` declares this kind the same way (a plugin loaded
        twice declares the same kinds)."""
        # (the fields compared one by one: compiled, this module's classes
        # don't see the equality attrs adds to them)
        if (self.name, self.rule, self.fields, self.ids, self.tone, self.leaves_battlefield,
                self.summary) != (other.name, other.rule, other.fields, other.ids, other.tone,
                                  other.leaves_battlefield, other.summary):
            return False
        mine, theirs = self.phrase, other.phrase
        if isinstance(mine, str) or isinstance(theirs, str):
            return mine == theirs
        # a function: the same one, or the same one of a module imported again
        return mine is theirs or (
            getattr(mine, "__module__", None) == getattr(theirs, "__module__", None)
            and getattr(mine, "__qualname__", None) == getattr(theirs, "__qualname__", None))


# -- wording helpers ------------------------------------------------------------------


def and_list(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    shown = list(items)
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def plural(n: int | None, word: str) -> str:
    """``1 poison counter``, ``3 poison counters``."""
    n = n or 0
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _same(obj: str | None) -> str:
    return str(obj)


def _values(kind: EventKind | None, event: Event, name: Namer) -> dict[str, str]:
    ids = kind.ids if kind is not None else ()
    out: dict[str, str] = {}
    for f in _FIELDS:
        value = getattr(event, f)
        if value is not None:
            out[f] = name(value) if f in ID_FIELDS else str(value)
    for f, value in (event.data or {}).items():
        if isinstance(value, tuple):
            out[f] = and_list(name(v) if f in ids else str(v) for v in value)
        else:
            out[f] = name(value) if f in ids and isinstance(value, str) else str(value)
    return out


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def _unknown(event: Event, name: Namer) -> str:
    """An undeclared kind, readably: ``frobnicated: Bear, to bob, 3``."""
    labels = {"attacker": "", "blocker": "blocker ", "source": "from ", "target": "to ",
              "player": "player ", "object": "", "amount": "", "combat": "",
              "counter": "counter ", "detail": ""}
    parts = []
    for f, value in _values(None, event, name).items():
        if f == "combat":
            if event.combat:
                parts.append("combat")
            continue
        label = labels.get(f, f.replace("_", " ") + " ")
        parts.append(f"{label}{value}")
    words = event.kind.replace("_", " ")
    return f"{words}: {', '.join(parts)}" if parts else words


# -- the vocabulary ------------------------------------------------------------------

_lock = threading.Lock()
#: Every declared kind, by name: the kernel's, then those of loaded plugins.
_KINDS: dict[str, EventKind] = {}
#: Who declared each kind (``"redzone"`` for the kernel).
_BY: dict[str, str] = {}
#: The name each loaded keyword gives its rule (``"702.2"`` -> ``"deathtouch"``),
#: for the reasons of the state-based actions.
_RULE_NAMES: dict[str, str] = {}


def kinds() -> Mapping[str, EventKind]:
    """Every declared event kind, by name (the kernel's and those of the
    plugins of every engine made in this process)."""
    return dict(_KINDS)


def kind_of(event: Event) -> EventKind | None:
    """The declaration of an event's kind, or ``None`` if none was declared."""
    return _KINDS.get(event.kind)


def declared_by(name: str) -> str | None:
    """Who declared the kind ``name``: ``"redzone"`` or a plugin's name."""
    return _BY.get(name)


def register(declared: Iterable[EventKind], by: str) -> None:
    """Declare event kinds (the engine does this for each plugin it loads).

    :raises ValueError: when a kind is declared differently from an
        earlier declaration of the same name (by the kernel or another
        plugin), or uses a reserved field name as data.
    """
    found = list(declared)
    for kind in found:
        try:
            check_kind(kind)
        except ValueError as exc:
            raise ValueError(f"{by}: {exc}") from None
    with _lock:
        for kind in found:
            earlier = _KINDS.get(kind.name)
            if earlier is not None and not earlier.same(kind):
                raise ValueError(f"{by}: event kind {kind.name!r} is already declared "
                                 f"differently by {_BY[kind.name]}")
        for kind in found:
            _KINDS.setdefault(kind.name, kind)
            _BY.setdefault(kind.name, by)


def name_rule(rule: str, name: str) -> None:
    """Say what a loaded keyword calls its rule, for the reasons that cite
    it (704.5h names the ability of rule 702.2)."""
    _RULE_NAMES.setdefault(rule, name)


#: What a state-based action or loss rule means: the reason an account gives.
RULE_REASONS: Final[Mapping[str, str]] = {
    "704.5a": "0 or less life",
    "704.5b": "drew from an empty library",
    "704.5c": "ten or more poison counters",
    "704.5f": "toughness 0 or less",
    "704.5g": "lethal damage",
    "704.5h": "dealt damage by a source with {rule_702_2}",
    "704.5i": "0 loyalty",
    "704.5j": "the legend rule: its controller kept another with the same name",
    "704.5q": "+1/+1 and -1/-1 counters annihilate",
    "704.5v": "0 defense",
    "704.5w": "0 defense",
    "810.8c": "the team's shared life is 0 or less",
    "420.5e": "the legend rule of 1999-2009: another legendary permanent has the same name",
    "810.8d": "the team has fifteen or more poison counters",
}


def reason(rule: str) -> str:
    """What the state-based action of ``rule`` means (``""`` if nothing is said)."""
    text = RULE_REASONS.get(rule, "")
    if "{" in text:
        text = text.format(rule_702_2=_RULE_NAMES.get("702.2", "the ability of rule 702.2"))
    return text


def phrase(event: Event, name: Namer = _same) -> str:
    """The sentence for an event, without its rule: what every rendering
    shows (``Wurm deals 6 combat damage to bob``).

    An undeclared kind reads as its name and its values, never as
    ``key=value`` pairs.

    :param name: shows an id (default: the id itself).
    """
    kind = _KINDS.get(event.kind)
    if kind is None:
        return _unknown(event, name)
    if isinstance(kind.phrase, str):
        text = kind.phrase.format_map(_Blank(_values(kind, event, name)))
    else:
        text = kind.phrase(event, name)
    if event.detail and "detail" not in kind.fields:
        text += f" ({event.detail})"
    why = reason(event.rule) if kind.tone in ("rules", "loss") else ""
    return f"{text} ({why})" if why else text


def event_text(event: Event, name: Namer = _same, *, rule: bool = True) -> str:
    """One line for an event and its rule:
    ``wurm deals 6 combat damage to bob [510.2]``.

    :param name: shows an id (default: the id itself).
    :param rule: end with the rule in brackets.
    """
    text = phrase(event, name)
    return f"{text} [{event.rule}]" if rule else text


def event_repr(event: Event) -> str:
    """``<Event damage in combat_damage: wurm deals 6 combat damage to bob [510.2]>``."""
    return repr(event)


def leaves_battlefield(event: Event) -> bool:
    """Whether the event takes its object off the battlefield (its kind says so)."""
    kind = _KINDS.get(event.kind)
    return kind is not None and kind.leaves_battlefield


def tone(event: Event) -> str:
    """The event's tone (:data:`TONES`; ``"plain"`` for an undeclared kind)."""
    kind = _KINDS.get(event.kind)
    return kind.tone if kind is not None else "plain"


# -- the kernel's kinds ----------------------------------------------------------------


def _damage(e: Event, n: Namer) -> str:
    return (f"{n(e.source)} deals {e.amount} {'combat damage' if e.combat else 'damage'} to "
            f"{n(e.target)}")


def _prevented(e: Event, n: Namer) -> str:
    how = ""
    if e.get("shield"):
        how = " by a prevention shield"
    elif e.get("effects"):
        how = f" by {and_list(e.get('effects'))}"
    return f"{e.amount} damage {n(e.source)} would deal to {n(e.target)} is prevented{how}"


def _modified(e: Event, n: Namer) -> str:
    how = f" by {and_list(e.get('effects'))}" if e.get("effects") else ""
    return (f"{e.get('original')} damage {n(e.source)} would deal to {n(e.target)} becomes "
            f"{e.amount}{how}")


def _life_gain(e: Event, n: Namer) -> str:
    source = f" (from {n(e.source)})" if e.source else ""
    return f"{n(e.player)} gains {e.amount} life{source}"


def _counters(e: Event, n: Namer) -> str:
    amount = e.amount or 0
    if amount < 0:
        return f"{plural(-amount, f'{e.counter} counter')} removed from {n(e.target)}"
    return f"{plural(amount, f'{e.counter} counter')} put on {n(e.target)}"


def _annihilated(e: Event, n: Namer) -> str:
    """``1 +1/+1 counter and 1 -1/-1 counter are removed from Wolf`` (704.5q):
    as many of each kind as ``amount`` (``counter`` names the kinds)."""
    kinds = str(e.counter or "counter").split(" and ")
    removed = and_list(plural(e.amount, f"{kind} counter") for kind in kinds)
    verb = "is" if len(kinds) == 1 and e.amount == 1 else "are"
    return f"{removed} {verb} removed from {n(e.target)}"


def _removed_counters(e: Event, n: Namer) -> str:
    return f"{plural(e.amount, f'{e.kind} counter')} removed from {n(e.target)}"


#: Each zone (400.1; ``ceased``: a token that ceased to exist, 111.7;
#: ``left_game``: a card that left the game with its owner, 800.4a) in words:
#: where an object is (``exiled``), and what moving there reads as
#: (``is exiled``).
ZONES: Final[Mapping[str, tuple[str, str]]] = {
    "battlefield": ("on the battlefield", "is put onto the battlefield"),
    "graveyard": ("in the graveyard", "is put into its owner's graveyard"),
    "exile": ("exiled", "is exiled"),
    "hand": ("in its owner's hand", "is put into its owner's hand"),
    "library": ("in its owner's library", "is put into its owner's library"),
    "stack": ("on the stack", "is put on the stack"),
    "ceased": ("ceased to exist", "ceases to exist"),
    "left_game": ("left the game with its owner", "leaves the game with its owner"),
}


def zone_text(zone: str) -> str:
    """Where an object in ``zone`` is, in words: ``exiled``, ``ceased to
    exist``, ``in the graveyard`` (an unknown zone as ``in the <zone>``)."""
    known = ZONES.get(zone)
    return known[0] if known else f"in the {zone.replace('_', ' ')}"


def zone_words(zone: str | None) -> str:
    """What moving to ``zone`` reads as: ``is exiled``, ``ceases to exist`` ..."""
    known = ZONES.get(zone or "")
    return known[1] if known else f"is put into the {str(zone).replace('_', ' ')}"


def _zone_change(e: Event, n: Namer) -> str:
    return f"{n(e.object)} leaves the battlefield: it {zone_words(e.get('zone'))}"


#: Where a card moves from, in words (the ``moved`` events).
_FROM: Final[Mapping[str, str]] = {"graveyard": "the graveyard", "hand": "its owner's hand",
                                   "library": "its owner's library", "exile": "exile",
                                   "stack": "the stack"}


def _moved(e: Event, n: Namer) -> str:
    origin = str(e.get("origin"))
    return (f"{n(e.object)} {zone_words(e.get('zone'))} from "
            f"{_FROM.get(origin, 'the ' + origin.replace('_', ' '))}")


_UNTIL: Final = {"end_of_turn": " until end of turn", "end_of_combat": " until end of combat",
                 "this_combat": " this combat", "game": "", "while": " for as long as it lasts"}


def until(duration: str | None) -> str:
    """How long an effect of ``duration`` lasts, with a leading space
    (``" until end of turn"``; nothing for ``game``)."""
    if duration is None:
        return ""
    return _UNTIL.get(duration, f" {duration.replace('_', ' ')}")


def _pump(e: Event, n: Namer) -> str:
    how = e.get("until") or until(e.get("duration")).strip()
    power, toughness = e.get("power", 0), e.get("toughness", 0)
    shown = (f"{power:+d}/{toughness:+d}" if isinstance(power, int) and isinstance(toughness, int)
             else f"{power}/{toughness}")
    return (f"{n(e.target)} gets {shown}"
            f"{' ' + how if how else ''}")


def _keywords(verb: str) -> Callable[[Event, Namer], str]:
    def text(e: Event, n: Namer) -> str:
        how = until(e.get("duration"))
        return f"{n(e.target)} {verb} {and_list(e.get('keywords', ()))}{how}"
    return text


def _shield(e: Event, n: Namer) -> str:
    mode = e.get("mode")
    if mode == "regenerate":
        return f"{n(e.target)} gets a regeneration shield"
    what = (f"damage that would be dealt to {n(e.target)}" if e.target
            else f"damage {n(e.source)} would deal")
    amount = {"next": "the next time", "all": "all such damage this turn"}.get(
        mode or "", f"the next {e.amount}")
    return f"a prevention shield: prevent {what}: {amount}"


def _continuous(e: Event, n: Namer) -> str:
    affects = e.get("affects")
    what = f" on {and_list(n(a) for a in affects)}" if affects else ""
    return (f"a continuous effect begins{what} (layer {', '.join(e.get('layers', ()))}: "
            "613.1)")


def _band(e: Event, n: Namer) -> str:
    return f"{and_list(n(m) for m in e.get('band', ()))} attack as a band"


def _order(e: Event, n: Namer) -> str:
    return (f"damage assignment order of {n(e.object)}: "
            f"{', '.join(n(m) for m in e.get('order', ()))}")


def _ability(e: Event) -> str:
    return str(e.get("ability") or "triggered")


def _trigger(e: Event, n: Namer) -> str:
    text = e.get("text")
    return (f"{n(e.source)}'s {_ability(e)} ability triggers and goes on the stack"
            f"{f': {text}' if text else ''}")


def _resolve(e: Event, n: Namer) -> str:
    return f"{n(e.source)}'s {_ability(e)} ability resolves"


def _removed_from_stack(e: Event, n: Namer) -> str:
    if e.object is None:  # 603.3d: no legal choice as it is put on the stack
        return f"{n(e.source)}'s {_ability(e)} ability is removed from the stack"
    return f"{n(e.object)} is taken off the stack"


def _delayed(e: Event, n: Namer) -> str:
    what = e.get("text") or _ability(e)
    return f"a delayed triggered ability of {n(e.source)} waits: {what}"


def _answer(answer: str, n: Namer) -> str:
    """An answer of a choice: an object by its name, a triggered ability
    (``exalted@hierarch``, ``exalted@hierarch#2``) as its source's."""
    named = n(answer)
    if named != answer:
        return named
    ability, at, rest = answer.partition("@")
    source, mark, number = rest.partition("#")
    if not at or not ability or n(source) == source:
        return answer
    return f"{n(source)}'s {ability.replace('_', ' ')}" + (f" (#{number})" if mark else "")


def _choice(e: Event, n: Namer) -> str:
    answer = e.get("answer", ())
    shown = and_list(_answer(str(a), n) for a in answer) if answer else "nothing"
    default = " (the default)" if e.get("default") else ""
    return f"{n(e.player)} chooses {shown} for {e.get('choice')}{default}"


def _effect(e: Event, n: Namer) -> str:
    return f"a continuous effect starts: {effect_words(e, n)}"


#: The kernel's continuous effects (:mod:`redzone.kernel.effects`), in words.
EFFECT_WORDS: Final[Mapping[str, str]] = {
    "prevent_all_combat_damage": "prevent all combat damage",
    "reduce_damage": "prevent {amount} of each damage dealt to {target}",
    "double_damage": "damage dealt by {source} is doubled",
    "double_life_gain": "{player} gains twice that much life instead",
    "life_floor": "damage can't reduce {player}'s life total below 1 while they control "
                  "a creature",
    "redirect_damage": "damage that would be dealt to {player} is dealt to {target} instead",
    "doesnt_untap": "{target} doesn't untap during its controller's untap step",
}


def effect_text(kind: str, name: Namer = _same, *, player: str | None = None,
                to: str | None = None, source: str | None = None,
                amount: int | None = None) -> str:
    """A continuous effect of ``kind`` in words (the board's effects, and
    the ``effect`` events)."""
    text = EFFECT_WORDS.get(kind)
    if text is None:
        bits = [f"{label} {name(v) if isinstance(v, str) else v}"
                for label, v in (("for", player), ("on", to), ("from", source),
                                 ("amount", amount)) if v is not None]
        return kind.replace("_", " ") + (f" ({', '.join(bits)})" if bits else "")
    return text.format_map(_Blank({
        "amount": "some" if amount is None else str(amount), "target": name(to),
        "player": name(player), "source": name(source) if source else "every source"}))


def effect_words(e: Event, n: Namer) -> str:
    """A continuous effect in words, from an ``effect``/``effect_ends``
    event's ``effect`` (its kind) and fields."""
    return effect_text(str(e.get("effect") or "effect"), n, player=e.player, to=e.target,
                       source=e.source, amount=e.amount)


def _effect_ends(e: Event, n: Namer) -> str:
    effect = e.get("effect")
    if effect == "shield":
        return f"a {e.get('mode')} prevention shield on {n(e.target)} ends"
    if effect == "modification":
        return f"an effect on {n(e.target)} ends: {e.get('change')}"
    return f"an effect ends: {effect_words(e, n)}"


def _game_over(e: Event, n: Namer) -> str:
    if e.get("draw"):
        return "the game is over: a draw"
    if e.get("team"):
        return f"the game is over: team {e.get('team')} wins"
    return f"the game is over: {and_list(n(w) for w in e.get('winners', ()))} wins"


def _step(e: Event, n: Namer) -> str:
    title, _rule = step_title(e.step)
    return title


def _k(name: str, rule: str, phrase: str | Callable[[Event, Namer], str], fields: str = "",
       *, ids: str = "", tone: str = "plain", leaves: bool = False,
       summary: str = "") -> EventKind:
    return EventKind(name, rule, phrase, tuple(fields.split()), tuple(ids.split()), tone,
                     leaves, summary)


#: The kernel's event kinds.
KERNEL_KINDS: Final[tuple[EventKind, ...]] = (
    _k("step", "500.1", _step, summary="a step begins"),
    _k("turn", "500.1", "turn {amount}: {player}'s turn begins", "player amount"),
    _k("attack", "508.1a", "{attacker} attacks {target}", "attacker target"),
    _k("enters_attacking", "508.4", "{attacker} is put onto the battlefield attacking "
       "{target} (it never attacked)", "attacker target"),
    _k("not_attacking", "508.4a", "{object} enters but isn't attacking: {detail}",
       "object target detail", tone="quiet"),
    _k("band", "508.1e", _band, "band", ids="band"),
    _k("tap", "508.1f", "{object} becomes tapped", "object", tone="quiet"),
    _k("untap", "502.3", "{object} untaps", "object", tone="quiet"),
    _k("block", "509.1a", "{blocker} blocks {attacker}", "blocker attacker"),
    _k("not_blocking", "509.4a", "{object} enters but isn't blocking: {detail}",
       "object target detail", tone="quiet"),
    _k("blocked", "509.1h", "{object} is blocked", "object", tone="quiet"),
    _k("unblocked", "509.1h", "{object} is unblocked", "object", tone="quiet"),
    _k("order", "509.2", _order, "object order", ids="order"),
    _k("assign", "510.1", "{source} assigns {amount} damage to {target}",
       "source target amount"),
    _k("damage", "120.3", _damage, "source target amount combat", tone="harm"),
    _k("prevented", "615.1", _prevented, "source target amount combat shield effects",
       tone="help"),
    _k("modified", "614.1a", _modified, "source target amount original combat effects"),
    _k("redirected", "614.9", "{amount} damage {source} would deal to {object} is dealt to "
       "{target} instead ({replacement})", "source object target amount combat replacement"),
    _k("life_loss", "120.3a", "{player} loses {amount} life", "player amount source",
       tone="harm"),
    _k("life_gain", "120.3f", _life_gain, "player amount source", tone="help"),
    _k("poison", "120.3b", lambda e, n: f"{n(e.player)} gets "
       f"{plural(e.amount, 'poison counter')}", "player amount source", tone="harm"),
    _k("counters", "122.1", _counters, "target counter amount source"),
    _k("counters_removed", "704.5q", _annihilated, "target counter amount", tone="rules"),
    _k("loyalty", "120.3c", _removed_counters, "target amount source", tone="harm"),
    _k("defense", "120.3h", _removed_counters, "target amount source", tone="harm"),
    _k("destroyed", "701.8a", "{object} is destroyed", "object", tone="rules"),
    _k("dies", "700.4", "{object} is put into its owner's graveyard", "object",
       tone="rules", leaves=True),
    _k("zone_change", "400.7", _zone_change, "object zone", tone="rules", leaves=True),
    _k("moved", "400.7", _moved, "object zone origin", tone="rules",
       summary="a card moves between two zones other than the battlefield: a new object"),
    _k("draws", "121.1", "{player} draws a card", "player object"),
    _k("discards", "701.9a", "{player} discards {object}", "player object",
       summary="a card goes from its owner's hand to their graveyard (514.1: down to "
       "the maximum hand size)"),
    _k("draw_from_empty", "121.4", "{player} attempts to draw from an empty library and "
       "loses at the next check of state-based actions", "player", tone="harm"),
    _k("ceases_to_exist", "704.5d", "{object}, a token, ceases to exist", "object zone",
       tone="rules"),
    _k("sacrificed", "701.21a", "{player} sacrifices {object}", "player object"),
    _k("removed_from_combat", "506.4", "{object} is removed from combat", "object detail",
       tone="quiet"),
    _k("no_longer_blocking", "506.4d", "{object} stops blocking; it is still a planeswalker "
       "being attacked", "object", tone="quiet",
       summary="a blocking creature that is also an attacked planeswalker stops being a "
       "creature"),
    _k("no_longer_attacked", "506.4d", "{object} is no longer attacked; it is still a "
       "blocking creature", "object", tone="quiet",
       summary="a blocking creature that is also an attacked planeswalker stops being a "
       "planeswalker"),
    _k("end_of_combat", "511.3", "every creature is removed from combat", tone="quiet"),
    _k("lost", "104.3", "{player} loses the game", "player", tone="loss"),
    _k("left_game", "800.4a", "{player} leaves the game", "player", tone="loss"),
    _k("game_over", "104.2a", _game_over, "winners draw team", ids="winners", tone="loss"),
    _k("protector", "310.9", "{player} becomes the protector of {object}",
       "object player previous", tone="rules",
       summary="a battle gets a new protector, chosen by its controller (704.5x-y)"),
    _k("control", "613.1b", "{player} gains control of {object}", "object player previous",
       summary="a permanent's controller changes (layer 2); it leaves combat (506.4)"),
    _k("continuous", "613.1", _continuous, "object source layers affects", ids="affects",
       summary="an effect that changes characteristics starts: the layer system applies it"),
    _k("pump", "611.2", _pump, "target power toughness duration until"),
    _k("grant", "613.1f", _keywords("gains"), "target keywords duration"),
    _k("revoke", "613.1f", _keywords("loses"), "target keywords duration"),
    _k("shield", "615.1", _shield, "target source amount mode shield", tone="help"),
    _k("regenerated", "701.19a", "{object} regenerates: its damage is removed and it is "
       "tapped instead of being destroyed", "object shield", tone="help"),
    _k("replaced", "614.1", "{object}: {replacement} applies instead of its being destroyed",
       "object replacement", tone="help"),
    _k("effect", "611.2", _effect, "object source target player amount effect"),
    _k("effect_ends", "611.2", _effect_ends, "object target effect mode change",
       tone="quiet"),
    _k("enters_battlefield", "110.2", "{object} enters the battlefield", "object player"),
    _k("cast", "601.2a", "{player} casts {object}", "object player"),
    _k("play_land", "305.1", "{player} plays {object}", "object player"),
    _k("create", "111.1", "{object}, a token, enters the battlefield", "object player source"),
    _k("trigger", "603.3", _trigger, "source player object ability text"),
    _k("resolve", "608.2", _resolve, "source object ability"),
    _k("activate", "602.2", "{player} activates the {ability} ability of {source}",
       "player source ability", summary="a player activates an ability and pays its cost"),
    _k("skipped", "608.2b", "part of a triggered ability does nothing: {detail}",
       "object detail", tone="quiet"),
    _k("removed_from_stack", "603.3d", _removed_from_stack,
       "source object ability detail", tone="quiet"),
    _k("choice", "601.2", _choice, "player choice answer default", tone="quiet"),
    _k("delayed_trigger", "603.7a", _delayed, "source player object ability text",
       tone="quiet"),
    _k("trigger_added", "603.1", "{source} has a triggered ability: {text}", "source object text",
       tone="quiet", summary="a triggered ability written as data is added (603.1)"),
    _k("damage_removed", "514.2", "the damage marked on {object} is removed", "object",
       tone="quiet"),
)

register(KERNEL_KINDS, "redzone")


# -- steps ------------------------------------------------------------------------------

#: Each step's title and rule, as the accounts head it.
STEP_TITLES: Final[Mapping[str, tuple[str, str]]] = {
    "untap": ("Untap step", "502"),
    "upkeep": ("Upkeep step", "503"),
    "draw": ("Draw step", "504"),
    "precombat_main": ("Precombat main phase", "505"),
    "main": ("Main phase", "505"),
    "beginning_of_combat": ("Beginning of combat step", "507"),
    "declare_attackers": ("Declare attackers step", "508"),
    "declare_blockers": ("Declare blockers step", "509"),
    "combat_damage_assigned": ("Combat damage step: damage assigned, on the stack",
                               "310.1 (1999-2009)"),
    "combat_damage": ("Combat damage step", "510"),
    "end_of_combat": ("End of combat step", "511"),
    "postcombat_main": ("Postcombat main phase", "505"),
    "end_step": ("End step", "513"),
    "end": ("End step", "513"),
    "cleanup": ("Cleanup step", "514"),
}

_SUFFIX = re.compile(r"^(?P<base>.*?)(?P<suffix>(?:[#@]\d+)*)$")
#: A combat damage step's window with its damage on the stack (310.1, 1999-2009).
_ON_STACK = "_assigned"


class DeclaredStep(Protocol):
    """What a step's title reads of a combat damage step a plugin declares
    (:class:`~redzone.DamageStep`)."""

    @property
    def summary(self) -> str: ...
    @property
    def rule(self) -> str: ...


def step_title(step: str, declared: Callable[[str], DeclaredStep | None] | None = None
               ) -> tuple[str, str]:
    """A step's title and rule: ``("Combat damage step", "510")``.

    A combat damage step a plugin declares is titled in its own words
    (``declared(step)``: its :class:`~redzone.DamageStep`, as
    :meth:`redzone.Engine.damage_step` gives it), and its window with the
    damage on the stack (1999-2009) says so (310.1). A second combat's or
    turn's step (``combat_damage#2``, ``draw@3``) is titled as its step, with
    the combat or turn said; an unknown step reads as its name.
    """
    m = _SUFFIX.match(step)
    assert m is not None
    base, suffix = m.group("base"), m.group("suffix")
    known = STEP_TITLES.get(base)
    if known is not None:
        title, rule = known
    else:
        spec = declared(base) if declared is not None else None
        core = base.removesuffix(_ON_STACK)
        title, rule = (spec.summary or core.replace("_", " ").capitalize(), spec.rule) \
            if spec is not None else (core.replace("_", " ").capitalize(), "")
        if spec is not None and base.endswith(_ON_STACK):
            title, rule = f"{title}: damage assigned, on the stack", "310.1 (1999-2009)"
    for part in re.findall(r"[#@]\d+", suffix):
        title += f" (combat {part[1:]})" if part[0] == "#" else f" (turn {part[1:]})"
    return title, rule


class Names:
    """Readable names for ids, from every state given (the first name an id
    has wins): the :data:`Namer` the accounts and the report use."""

    def __init__(self, states: Iterable[Any]) -> None:
        self.names: dict[str, str] = {}
        for state in states:
            if state is None:
                continue
            for perm in state.objects.values():
                self.names.setdefault(perm.id, perm.name)

    def __call__(self, obj: str | None) -> str:
        if obj is None:
            return "nothing"
        return self.names.get(obj, obj)


__all__ = [
    "ID_FIELDS",
    "KERNEL_KINDS",
    "RULE_REASONS",
    "STEP_TITLES",
    "TONES",
    "ZONES",
    "DeclaredStep",
    "Event",
    "EventKind",
    "Namer",
    "Names",
    "and_list",
    "check_kind",
    "declared_by",
    "effect_text",
    "effect_words",
    "event_repr",
    "event_text",
    "kind_of",
    "kinds",
    "leaves_battlefield",
    "name_rule",
    "phrase",
    "plural",
    "reason",
    "register",
    "step_title",
    "tone",
    "until",
    "zone_text",
    "zone_words",
]
