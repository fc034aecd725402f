"""Card data: read permanents' characteristics from a card file by card name.

A scenario may name a card file with ``cards = "PATH"`` (relative to the
scenario file; without the key, the ``REDZONE_CARDS`` environment variable is
used), and a permanent may say ``card = "Serra Angel"`` instead of writing its
power, toughness, colours, types, subtypes, supertypes, keywords, loyalty and
defense. Keys the permanent writes itself override the card's.

Two shapes of card file are read, both as their publishers distribute them:

- MTGJSON's ``AtomicCards.json``: ``{"meta": ..., "data": {NAME: [face, ...]}}``
  with ``power``/``toughness`` as strings, ``colors`` as letters, ``types``,
  ``subtypes``, ``supertypes``, ``keywords`` and ``text``;
- Scryfall's ``oracle-cards`` bulk file: a list of card objects with
  ``name``, ``type_line``, ``power``, ``toughness``, ``colors``, ``keywords``
  and ``oracle_text`` (double-faced cards under ``card_faces``).

Files are streamed: one card object is decoded at a time and only the cards a
scenario names are kept, so a 100 MB bulk file never sits in memory as one
document. Each file is read once per process for each set of names asked
(:func:`lookup` caches by path, size and modification time).

Keyword abilities are read from the card's keyword list, with their
parameters taken from its rules text (``Bushido 2``, ``Protection from
red``); an ability no loaded plugin provides is left out and reported as a
note: it is inert, as the card's other rules text is. A card whose power or
toughness is not a number (``*``, ``1+*``) is an error naming the card unless
the permanent writes its own.

This module reads files (it is a format); it never imports a front end.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any, Final

from attrs import frozen

from redzone.kernel.engine import Engine
from redzone.kernel.errors import UnknownKeywordError
from redzone.kernel.model import CARD_TYPES, Keyword, Permanent
from redzone.kernel.model import COLORS as MODEL_COLORS

#: The environment variable naming a card file for scenarios without ``cards``.
ENV: Final = "REDZONE_CARDS"

#: How much of the file is read at a time.
CHUNK: Final = 1 << 20

#: Card types redzone models on the battlefield (the scenario format's ``types``).
PERMANENT_TYPES: Final = tuple(sorted(CARD_TYPES))
SUPERTYPES: Final = ("basic", "legendary", "snow", "world", "ongoing", "elite", "host")
COLORS: Final = dict(zip("WUBRG", MODEL_COLORS, strict=True))

#: The keys a card gives a permanent.
CARD_KEYS: Final = ("name", "types", "subtypes", "supertypes", "colors", "power",
                    "toughness", "keywords", "loyalty", "defense")


class CardDataError(Exception):
    """A card file that can't be read, or a card that can't be used."""


@frozen
class Card:
    """A card as a card file prints it (one face).

    :param name: the card name.
    :param source: ``"mtgjson"`` or ``"scryfall"``.
    :param power: printed power as written (``"3"``, ``"*"``), or ``None``.
    :param toughness: printed toughness as written, or ``None``.
    :param colors: colour words.
    :param types: card types, lower case.
    :param subtypes: subtypes as printed.
    :param supertypes: supertypes, lower case.
    :param keywords: the keyword abilities the file lists, as it writes them.
    :param text: the rules text.
    :param loyalty: printed loyalty as written, or ``None``.
    :param defense: printed defense as written, or ``None``.
    """

    name: str
    source: str
    power: str | None
    toughness: str | None
    colors: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    keywords: tuple[str, ...]
    text: str
    loyalty: str | None = None
    defense: str | None = None

    def printed_json(self) -> dict[str, Any]:
        """The card's fields as read, for ``redzone cards --json``."""
        return {"name": self.name, "source": self.source, "power": self.power,
                "toughness": self.toughness, "colors": list(self.colors),
                "types": list(self.types), "subtypes": list(self.subtypes),
                "supertypes": list(self.supertypes), "keywords": list(self.keywords),
                "text": self.text, "loyalty": self.loyalty, "defense": self.defense}


# ---------------------------------------------------------------------------
# Streaming JSON: one value at a time
# ---------------------------------------------------------------------------


_WS = re.compile(r"[ \t\n\r]*")


class _Stream:
    """A JSON text read in chunks, decoded one value at a time."""

    def __init__(self, fh: IO[str], file: str) -> None:
        self.fh = fh
        self.file = file
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.decoder = json.JSONDecoder()

    def _more(self) -> bool:
        if self.eof:
            return False
        chunk = self.fh.read(CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def expect(self, chars: str) -> str:
        ch = self.peek()
        if not ch or ch not in chars:
            raise CardDataError(f"{self.file}: not a card file MTGJSON or Scryfall publishes "
                                f"(expected {' or '.join(repr(c) for c in chars)} near "
                                f"character {self.pos}, found {ch or 'the end'!r})")
        self.pos += 1
        return ch

    def value(self) -> Any:
        """Decode the next value whole."""
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self._more():
                    continue
                raise CardDataError(f"{self.file}: invalid JSON ({exc.msg})") from None
            if end == len(self.buf) and not self.eof and self._more():
                continue  # a number may go on in the next chunk
            self.pos = end
            return value

    def items(self) -> Iterator[tuple[str, None]]:
        """The keys of an object, the stream left before each value (which the
        caller must read with :meth:`value` or descend into)."""
        self.expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            key = self.value()
            if not isinstance(key, str):
                raise CardDataError(f"{self.file}: invalid JSON (a key that is not a string)")
            self.expect(":")
            yield key, None
            if self.expect(",}") == "}":
                return

    def elements(self) -> Iterator[None]:
        """The elements of a list, the stream left before each."""
        self.expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield None
            if self.expect(",]") == "]":
                return


# ---------------------------------------------------------------------------
# The two shapes
# ---------------------------------------------------------------------------


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _mtgjson_card(name: str, faces: Any) -> Card | None:
    if not isinstance(faces, list) or not faces or not isinstance(faces[0], dict):
        return None
    face = faces[0]
    return Card(
        name=name, source="mtgjson",
        power=_text(face.get("power")), toughness=_text(face.get("toughness")),
        colors=tuple(COLORS.get(c, c) for c in face.get("colors", ())),
        types=tuple(t.lower() for t in face.get("types", ())),
        subtypes=tuple(face.get("subtypes", ())),
        supertypes=tuple(t.lower() for t in face.get("supertypes", ())),
        keywords=tuple(face.get("keywords", ())), text=str(face.get("text", "")),
        loyalty=_text(face.get("loyalty")), defense=_text(face.get("defense")))


def _split_type_line(line: str) -> tuple[list[str], list[str], list[str]]:
    left, _, right = line.partition("—")
    words = left.split()
    supertypes = [w.lower() for w in words if w.lower() in SUPERTYPES]
    types = [w.lower() for w in words if w.lower() not in SUPERTYPES]
    return supertypes, types, right.split()


def _scryfall_card(obj: Any) -> Card | None:
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return None
    face = obj
    faces = obj.get("card_faces")
    if "type_line" not in obj or ("power" not in obj and isinstance(faces, list) and faces):
        face = {**obj, **faces[0]} if isinstance(faces, list) and faces else obj
    supertypes, types, subtypes = _split_type_line(str(face.get("type_line", "")))
    colors = face.get("colors", obj.get("colors", ()))
    return Card(
        name=obj["name"], source="scryfall",
        power=_text(face.get("power")), toughness=_text(face.get("toughness")),
        colors=tuple(COLORS.get(c, c) for c in colors or ()),
        types=tuple(types), subtypes=tuple(subtypes), supertypes=tuple(supertypes),
        keywords=tuple(obj.get("keywords", ())), text=str(face.get("oracle_text", "")),
        loyalty=_text(face.get("loyalty")), defense=_text(face.get("defense")))


def scan(path: str | os.PathLike[str]) -> Iterator[tuple[str, Callable[[], Card | None]]]:
    """Every card in a card file, in file order: its name, and a function
    that decodes it (call it only for the cards you want).

    :raises CardDataError: for a missing file, or one that is not a card file
        of either shape.
    """
    file = os.fspath(path)
    try:
        fh = open(file, encoding="utf-8")  # noqa: SIM115 - closed by the generator
    except FileNotFoundError:
        raise CardDataError(f"{file}: no such card file") from None
    except OSError as exc:
        raise CardDataError(f"{file}: can't read the card file: {exc.strerror or exc}") from None
    with fh:
        stream = _Stream(fh, file)
        first = stream.peek()
        if first == "[":
            for _ in stream.elements():
                obj = stream.value()
                name = obj.get("name") if isinstance(obj, dict) else None
                if isinstance(name, str):
                    yield name, functools.partial(_scryfall_card, obj)
        elif first == "{":
            seen_data = False
            for key, _ in stream.items():
                if key != "data":
                    stream.value()
                    continue
                seen_data = True
                for name, _ in stream.items():
                    faces = stream.value()
                    yield name, functools.partial(_mtgjson_card, name, faces)
            if not seen_data:
                raise CardDataError(f"{file}: an object without 'data': not MTGJSON's "
                                    "AtomicCards.json")
        else:
            stream.expect("[{")


_CACHE: dict[tuple[str, int, int, frozenset[str]], dict[str, Card]] = {}
_NAMES: dict[tuple[str, int, int], tuple[str, ...]] = {}


def lookup(path: str | os.PathLike[str], names: Iterable[str]) -> dict[str, Card]:
    """The cards called ``names`` in a card file (exact names, or the same
    ignoring case), by the name asked; names not found are missing.

    :raises CardDataError: for a file that can't be read.
    """
    file = os.fspath(path)
    wanted = frozenset(names)
    try:
        st = os.stat(file)
    except FileNotFoundError:
        raise CardDataError(f"{file}: no such card file") from None
    except OSError as exc:
        raise CardDataError(f"{file}: can't read the card file: {exc.strerror or exc}") from None
    key = (os.path.abspath(file), st.st_size, st.st_mtime_ns, wanted)
    if key in _CACHE:
        return dict(_CACHE[key])
    folded = {n.casefold(): n for n in wanted}
    found: dict[str, Card] = {}
    loose: dict[str, Card] = {}
    all_names: list[str] = []
    for name, decode in scan(file):
        all_names.append(name)
        if name in wanted and name not in found:
            card = decode()
            if card is not None:
                found[name] = card
        elif name.casefold() in folded and folded[name.casefold()] not in loose:
            card = decode()
            if card is not None:
                loose[folded[name.casefold()]] = card
    for asked, card in loose.items():
        found.setdefault(asked, card)
    _CACHE[key] = dict(found)
    _NAMES[key[:3]] = tuple(all_names)
    return found


def not_found(path: str | os.PathLike[str], name: str) -> str:
    """The message for a card name a file lacks, with close names."""
    file = os.fspath(path)
    try:
        st = os.stat(file)
        names = _NAMES.get((os.path.abspath(file), st.st_size, st.st_mtime_ns), ())
    except OSError:
        names = ()
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.75)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return f"no card named {name!r} in {file}{hint}"


# ---------------------------------------------------------------------------
# A card as a permanent's keys
# ---------------------------------------------------------------------------


_REMINDER = re.compile(r"\([^)]*\)")


def _ability_texts(card: Card) -> list[str]:
    """The rules text cut into its comma- and line-separated abilities,
    reminder text removed, lower case."""
    text = _REMINDER.sub("", card.text.replace(card.name, "CARDNAME"))
    parts = re.split(r"[\n,;]", text)
    return [" ".join(p.split()).lower().rstrip(".") for p in parts if p.strip()]


def keyword_texts(card: Card) -> list[str]:
    """Each keyword ability of a card as printed with its parameters: the
    file's keyword name, completed from the rules text (``bushido 2``)."""
    parts = _ability_texts(card)
    out: list[str] = []
    for kw in card.keywords:
        low = kw.lower()
        matches = [p for p in parts if p == low or p.startswith(low + " ")]
        out.extend(matches or [low])
    return list(dict.fromkeys(out))


def _number(card: Card, key: str, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise CardDataError(
            f"card {card.name!r} has {key} {value!r}, which is not a number (a "
            f"characteristic-defining ability): write the permanent's power and "
            f"toughness in the scenario") from None


def permanent_keys(card: Card,
                   parse: Callable[[str], Keyword]) -> tuple[dict[str, Any], list[str]]:
    """The scenario keys a card gives a permanent, and notes about what was
    left out (keyword abilities no loaded plugin provides: they are inert).

    Power and toughness that are not numbers are left out; :func:`expand`
    makes them an error unless the permanent writes its own.

    :param parse: parses a keyword text, raising
        :class:`~redzone.UnknownKeywordError` for one no plugin provides
        (:meth:`redzone.Engine.keyword`).
    """
    keys: dict[str, Any] = {"name": card.name}
    types = [t for t in card.types if t in PERMANENT_TYPES]
    if types:
        keys["types"] = types
    if card.subtypes:
        keys["subtypes"] = list(card.subtypes)
    supertypes = [s for s in card.supertypes if s in SUPERTYPES]
    if supertypes:
        keys["supertypes"] = supertypes
    keys["colors"] = [c for c in card.colors if c in COLORS.values()]
    for key, value in (("power", card.power), ("toughness", card.toughness),
                       ("loyalty", card.loyalty), ("defense", card.defense)):
        try:
            number = _number(card, key, value)
        except CardDataError:
            continue
        if number is not None:
            keys[key] = number
    notes: list[str] = []
    keywords: list[str] = []
    for text in keyword_texts(card):
        try:
            keywords.append(parse(text).text)
        except UnknownKeywordError:
            notes.append(f"card {card.name!r}: {text!r} is not a keyword redzone provides; "
                         "it is inert here, like the card's other rules text")
    keys["keywords"] = list(dict.fromkeys(keywords))
    return keys, notes


def permanent(engine: Engine, path: str | os.PathLike[str], name: str, id: str,
              controller: str, **overrides: Any) -> tuple[Permanent, tuple[str, ...]]:
    """A :class:`~redzone.Permanent` from a card, for programs that build
    states in Python: the card's characteristics, then ``overrides`` (any
    :meth:`redzone.Engine.permanent` keyword: ``power``, ``keywords``,
    ``damage``, ``tapped``...). Returns the permanent and the notes about
    abilities left out (inert).

    ``permanent(engine, "AtomicCards.json", "Serra Angel", "angel", "alice")``

    :raises CardDataError: for an unknown card, an unreadable file, or ``*``
        power or toughness the overrides don't replace.
    """
    card = lookup(path, [name]).get(name)
    if card is None:
        raise CardDataError(not_found(path, name))
    keys, notes = permanent_keys(card, engine.keyword)
    for key, value in (("power", card.power), ("toughness", card.toughness)):
        if value is not None and key not in keys and key not in overrides:
            raise CardDataError(f"card {card.name!r} has {key} {value!r}, which is not a "
                                f"number: give the permanent's {key}")
    kwargs: dict[str, Any] = {k: v for k, v in keys.items() if k not in ("loyalty", "defense")}
    counters = dict(overrides.pop("counters", {}))
    for key in ("loyalty", "defense"):
        if key in keys:
            counters.setdefault(key, keys[key])
    if counters:
        kwargs["counters"] = counters
    kwargs.update(overrides)
    return engine.permanent(id, controller, **kwargs), tuple(notes)


def describe(printed: Mapping[str, Any], keys: Mapping[str, Any], notes: Sequence[str]) -> str:
    """``redzone cards``'s text for one card."""
    lines = [f"{printed['name']} ({printed['source']})"]
    lines += [f"  {k} = {json.dumps(v, ensure_ascii=False)}" for k, v in keys.items()
              if k != "name"]
    if printed.get("power") is not None and "power" not in keys:
        lines.append(f"  power {printed['power']!r}, toughness {printed['toughness']!r}: "
                     "not numbers; a scenario must write them")
    lines += [f"  note: {n}" for n in notes]
    return "\n".join(lines)


def card_file(data: Mapping[str, Any], scenario_file: str,
              environ: Mapping[str, str] | None = None) -> str | None:
    """The card file a scenario uses: ``cards`` relative to the scenario's
    folder (the working folder for standard input), else ``REDZONE_CARDS``."""
    env = os.environ if environ is None else environ
    value = data.get("cards")
    if isinstance(value, str):
        if os.path.isabs(value) or scenario_file.startswith("<"):
            return value
        return os.path.join(os.path.dirname(scenario_file), value)
    return env.get(ENV) or None


AddProblem = Callable[[tuple[str | int, ...], str], None]


def expand(data: Any, scenario_file: str, add: AddProblem,
           parse: Callable[[str], Keyword]) -> tuple[Any, tuple[str, ...]]:
    """A scenario document with each ``card = "NAME"`` permanent completed
    from the card file: the card's keys, then the permanent's own over them.
    Problems (no card file, an unknown card, ``*`` power) are added to
    ``add`` with their key path; the notes say which abilities are inert.

    The document is returned unchanged when no permanent names a card.
    """
    if not isinstance(data, dict) or not isinstance(data.get("permanents"), list):
        return data, ()
    named = [(i, p) for i, p in enumerate(data["permanents"])
             if isinstance(p, dict) and isinstance(p.get("card"), str)]
    if not named:
        return data, ()
    file = card_file(data, scenario_file)
    permanents = list(data["permanents"])

    def placeholder(i: int) -> None:
        # The card's problem is reported; the permanent's missing power and
        # toughness are not reported a second time.
        permanents[i] = {"power": 0, "toughness": 0, **permanents[i]}

    if file is None:
        for i, _p in named:
            add(("permanents", i, "card"), "a permanent names a card but the scenario has "
                f"no card file: set cards = \"PATH\" or the {ENV} environment variable")
            placeholder(i)
        return {**data, "permanents": permanents}, ()
    try:
        found = lookup(file, {p["card"] for _i, p in named})
    except CardDataError as exc:
        add(("cards",) if "cards" in data else ("permanents", named[0][0], "card"), str(exc))
        for i, _p in named:
            placeholder(i)
        return {**data, "permanents": permanents}, ()
    notes: list[str] = []
    for i, pdata in named:
        card = found.get(pdata["card"])
        if card is None:
            add(("permanents", i, "card"), not_found(file, pdata["card"]))
            placeholder(i)
            continue
        keys, card_notes = permanent_keys(card, parse)
        for key, value in (("power", card.power), ("toughness", card.toughness)):
            if value is not None and key not in keys and key not in pdata:
                add(("permanents", i, "card"), f"card {card.name!r} has {key} {value!r}, "
                    f"which is not a number: write the permanent's {key} in the scenario")
                keys[key] = 0
        notes += [] if "keywords" in pdata else card_notes
        permanents[i] = {**keys, **pdata}
    return {**data, "permanents": permanents}, tuple(dict.fromkeys(notes))


__all__ = [
    "CARD_KEYS",
    "ENV",
    "Card",
    "CardDataError",
    "card_file",
    "describe",
    "expand",
    "keyword_texts",
    "lookup",
    "not_found",
    "permanent",
    "permanent_keys",
    "scan",
]
