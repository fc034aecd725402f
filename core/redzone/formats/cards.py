"""Card data: read permanents' characteristics from a card file by card name.

A scenario may name a card file with ``cards = "PATH"`` (relative to the
scenario file, in its folder or below; without the key, the ``REDZONE_CARDS``
environment variable is used), and a permanent may say
``card = "Serra Angel"`` instead of writing its power, toughness, colours,
types, subtypes, supertypes, keywords, loyalty and defense. Keys the
permanent writes itself override the card's.

Two shapes of card file are read, both as their publishers distribute them:

- MTGJSON's ``AtomicCards.json``: ``{"meta": ..., "data": {NAME: [face, ...]}}``
  with ``power``/``toughness`` as strings, ``colors`` as letters, ``types``,
  ``subtypes``, ``supertypes``, ``keywords`` and ``text``;
- Scryfall's ``oracle-cards`` bulk file: a list of card objects with
  ``name``, ``type_line``, ``power``, ``toughness``, ``colors``, ``keywords``
  and ``oracle_text`` (double-faced cards under ``card_faces``).

Files are streamed: one card object is decoded at a time, each at most the
scenario format's 1 MiB, and only the cards a scenario names are kept, so a
100 MB bulk file never sits in memory as one document. Card files are input
like scenario files: only regular files are opened, and the cards asked for
meet the scenario format's bounds and types, or are refused naming the file,
line and card. Each file is read once per process for each set of names asked
(:func:`lookup` caches by path, size and modification time).

Keyword abilities are read from the card's keyword list, with their
parameters taken from its rules text (``Bushido 2``, ``Protection from
red``); an ability no loaded plugin provides is inert, as the card's other
rules text is, and reported as a note: left out, or kept when the engine
knows it by name (``flash``, ``hexproof``: the inert keywords a scenario may
write too, which a plugin that provides them takes over). A provided one whose
number is over its form's bound (``Toxic 1001``: 107.1) is refused, as in a
scenario. A card whose power or
toughness is not a number (``*``, ``1+*``, ``X``: 208.2) is an error naming the
card unless the permanent writes its own; one no card prints (``٣``,
``1_000``, 21 digits) is refused.

This module reads files (it is a format); it never imports a front end.
"""

from __future__ import annotations

import codecs
import difflib
import functools
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any, Final

from attrs import field, frozen

from redzone.formats.document import MAX_BYTES, UnreadableFileError, data_problem, open_regular
from redzone.formats.validator import permanent_problems
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
    :param origin: where it was read (``FILE, line N``), for messages.

    .. versionadded:: 0.1.0
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
    origin: str = field(default="", eq=False)

    def error(self, message: str) -> CardDataError:
        """A problem of this card, naming where it was read and the card."""
        where = f"{self.origin}: " if self.origin else ""
        return CardDataError(f"{where}card {_shown(self.name)}: {message}")

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

#: Bytes that aren't UTF-8 are decoded as lone surrogates U+DC80-U+DCFF
#: (``surrogateescape``), so that the value holding them can be named; a
#: JSON escape like ``\udc80`` is ASCII in the text, so it is never mistaken
#: for one.
_NOT_UTF8 = re.compile("[\udc80-\udcff]")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Stream:
    """A JSON text read in chunks, decoded one value at a time.

    No value may be longer than ``limit`` characters: a longer one (or one
    broken so that it never ends) is refused once that much of it has been
    read, so the text held at once is at most ``limit`` plus a chunk, and the
    work is linear in the file (each value is decoded at most twice).

    :param fh: the file, opened for reading bytes.
    :param file: its name, for messages.
    :param limit: the most characters one value may hold.
    """

    def __init__(self, fh: IO[bytes], file: str, limit: int) -> None:
        self.fh = fh
        self.file = file
        self.limit = limit
        self.buf = ""
        self.pos = 0
        self.eof = False
        #: newlines before ``buf``
        self.lines_before = 0
        self.decoder = json.JSONDecoder()
        self.utf8 = codecs.getincrementaldecoder("utf-8-sig")(errors="surrogateescape")

    def _more(self) -> bool:
        if self.eof:
            return False
        raw = self.fh.read(CHUNK)
        chunk = self.utf8.decode(raw, final=not raw)
        if not raw and not chunk:
            self.eof = True
            return False
        self.lines_before += self.buf.count("\n", 0, self.pos)
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def line(self, pos: int | None = None) -> int:
        """The line of a position in the buffer (the current one by default)."""
        return self.lines_before + self.buf.count("\n", 0, self.pos if pos is None else pos) + 1

    def error(self, message: str, pos: int | None = None) -> CardDataError:
        """A problem of the file at a position of the buffer, with its line."""
        return CardDataError(f"{self.file}, line {self.line(pos)}: {message}")

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
        if ch and _NOT_UTF8.match(ch):
            raise self.error("the file is not valid UTF-8 text")
        if not ch or ch not in chars:
            raise self.error(f"not a card file MTGJSON or Scryfall publishes (expected "
                             f"{' or '.join(repr(c) for c in chars)}, found "
                             f"{_shown(ch) if ch else 'the end'})")
        self.pos += 1
        return ch

    def value(self, what: str) -> tuple[Any, int]:
        """Decode the next value whole; it and the line it starts on.

        :param what: what the value is, for messages (``card 'Serra Angel'``).
        """
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except RecursionError:
                raise self.error(f"{what} is nested too deeply to read; it is "
                                 "refused") from None
            except json.JSONDecodeError as exc:
                if len(self.buf) - self.pos <= self.limit and self._more():
                    continue
                if len(self.buf) - self.pos > self.limit:
                    raise self.error(f"{what} is longer than {self.limit} characters, or "
                                     "broken so that it never ends; it is refused") from None
                raise self.error(f"{what}: invalid JSON ({exc.msg})", exc.pos) from None
            except ValueError as exc:  # a number of more than 4,300 digits
                raise self.error(f"{what}: invalid JSON ({exc})") from None
            if end == len(self.buf) and not self.eof and self._more():
                continue  # a number may go on in the next chunk
            bad = _NOT_UTF8.search(self.buf, self.pos, end)
            if bad is not None:
                if isinstance(value, dict) and isinstance(value.get("name"), str):
                    what = f"card {_shown(value['name'].encode('utf-8', 'replace').decode())}"
                raise self.error(f"{what} is not valid UTF-8 text", bad.start())
            line = self.line()
            self.pos = end
            return value, line

    def items(self, what: str) -> Iterator[str]:
        """The keys of an object, the stream left before each value (which the
        caller must read with :meth:`value` or descend into)."""
        self.expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            key, _line = self.value(f"a key of {what}")
            if not isinstance(key, str):
                raise self.error("invalid JSON (a key that is not a string)")
            self.expect(":")
            yield key
            if self.expect(",}") == "}":
                return

    def elements(self) -> Iterator[int]:
        """The indexes of a list's elements, the stream left before each."""
        self.expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        index = 0
        while True:
            yield index
            index += 1
            if self.expect(",]") == "]":
                return


# ---------------------------------------------------------------------------
# The two shapes
# ---------------------------------------------------------------------------


class _Entry:
    """One card entry being read, for messages naming the file, line and card,
    and its fields checked for their types.

    :param file: the card file.
    :param line: the line the entry starts on.
    :param name: the card name.
    """

    def __init__(self, file: str, line: int, name: str) -> None:
        self.file = file
        self.line = line
        self.name = name

    @property
    def origin(self) -> str:
        return f"{self.file}, line {self.line}"

    def error(self, message: str) -> CardDataError:
        return CardDataError(f"{self.origin}: card {_shown(self.name)}: {message}")

    def text(self, face: Mapping[str, Any], key: str) -> str | None:
        """A string field, or ``None`` when it is absent or null."""
        value = face.get(key)
        if value is None or isinstance(value, str):
            return value
        raise self.error(f"{key} is {_kind(value)}; the file should hold a string")

    def texts(self, face: Mapping[str, Any], key: str) -> tuple[str, ...]:
        """A list-of-strings field (absent or null: empty)."""
        value = face.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(f"{key} is {_kind(value)}; the file should hold a list of "
                             "strings")
        return tuple(value)

    def faceless(self, faces: Any) -> CardDataError:
        return self.error(f"the file has the card but no face redzone can read (its entry "
                          f"is {_kind(faces)}, not a list of objects)")


def _kind(value: Any) -> str:
    if isinstance(value, list):
        if not value:
            return "an empty list"
        wrong = next((v for v in value if not isinstance(v, str)), None)
        return f"a list holding {_kind(wrong)}" if wrong is not None else "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {_shown(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - JSON has no other values


def _checked(entry: _Entry, value: Any) -> None:
    """The scenario format's document bounds, applied to a card entry: nesting,
    number of values, string sizes, and text that is valid Unicode."""

    problem = data_problem(value)
    if problem is not None:
        raise entry.error(problem)


def _mtgjson_card(entry: _Entry, faces: Any) -> Card:
    if not isinstance(faces, list) or not faces or not isinstance(faces[0], dict):
        raise entry.faceless(faces)
    _checked(entry, faces)
    face = faces[0]
    return Card(
        name=entry.name, source="mtgjson",
        power=entry.text(face, "power"), toughness=entry.text(face, "toughness"),
        colors=tuple(COLORS.get(c, c) for c in entry.texts(face, "colors")),
        types=tuple(t.lower() for t in entry.texts(face, "types")),
        subtypes=entry.texts(face, "subtypes"),
        supertypes=tuple(t.lower() for t in entry.texts(face, "supertypes")),
        keywords=entry.texts(face, "keywords"), text=entry.text(face, "text") or "",
        loyalty=entry.text(face, "loyalty"), defense=entry.text(face, "defense"),
        origin=entry.origin)


def _split_type_line(line: str) -> tuple[list[str], list[str], list[str]]:
    left, _, right = line.partition("—")
    words = left.split()
    supertypes = [w.lower() for w in words if w.lower() in SUPERTYPES]
    types = [w.lower() for w in words if w.lower() not in SUPERTYPES]
    return supertypes, types, right.split()


def _scryfall_card(entry: _Entry, obj: dict[str, Any]) -> Card:
    _checked(entry, obj)
    face = obj
    faces = obj.get("card_faces")
    if faces is not None and (not isinstance(faces, list)
                              or not all(isinstance(f, dict) for f in faces)):
        raise entry.error(f"card_faces is {_kind(faces)}; the file should hold a list of "
                          "objects")
    if faces and ("type_line" not in obj or "power" not in obj):
        face = {**obj, **faces[0]}
    supertypes, types, subtypes = _split_type_line(entry.text(face, "type_line") or "")
    colors = entry.texts(face, "colors") if "colors" in face else entry.texts(obj, "colors")
    return Card(
        name=entry.name, source="scryfall",
        power=entry.text(face, "power"), toughness=entry.text(face, "toughness"),
        colors=tuple(COLORS.get(c, c) for c in colors),
        types=tuple(types), subtypes=tuple(subtypes), supertypes=tuple(supertypes),
        keywords=entry.texts(obj, "keywords"), text=entry.text(face, "oracle_text") or "",
        loyalty=entry.text(face, "loyalty"), defense=entry.text(face, "defense"),
        origin=entry.origin)


def _open(file: str) -> IO[bytes]:
    """The card file, opened for reading bytes, if it is a regular file
    (:func:`~redzone.formats.document.open_regular`: a FIFO, a device or a
    directory is refused at once).

    :raises CardDataError: for a missing file or one that isn't regular.
    """
    try:
        return open_regular(file, "card file")
    except UnreadableFileError as exc:
        raise CardDataError(f"{file}: {exc}") from None


def scan(path: str | os.PathLike[str]) -> Iterator[tuple[str, Callable[[], Card]]]:
    """Every card in a card file, in file order: its name, and a function
    that decodes it (call it only for the cards you want; it raises
    :class:`CardDataError` naming the card for an entry that breaks the
    scenario format's bounds or has a field of the wrong type).

    The whole file is read as JSON, one value at a time, each at most
    :data:`redzone.formats.document.MAX_BYTES` characters.

    :raises CardDataError: for a missing file, one that isn't a regular file,
        isn't UTF-8 or isn't a card file of either shape, naming the file, the
        line and the card.
    """

    file = os.fspath(path)
    with _open(file) as fh:
        stream = _Stream(fh, file, MAX_BYTES)
        first = stream.peek()
        if first == "[":
            for index in stream.elements():
                obj, line = stream.value(f"card number {index + 1} of the list")
                name = obj.get("name") if isinstance(obj, dict) else None
                if isinstance(name, str):
                    yield name, functools.partial(_scryfall_card, _Entry(file, line, name), obj)
        elif first == "{":
            seen_data = False
            for key in stream.items("the file"):
                if key != "data":
                    stream.value(f"the value of {_shown(key)}")
                    continue
                seen_data = True
                for name in stream.items("'data'"):
                    faces, line = stream.value(f"card {_shown(name)}")
                    yield name, functools.partial(_mtgjson_card, _Entry(file, line, name),
                                                  faces)
            if not seen_data:
                raise CardDataError(f"{file}: an object without 'data': not MTGJSON's "
                                    "AtomicCards.json")
        else:
            stream.expect("[{")


_CACHE: dict[tuple[str, int, int, frozenset[str]], dict[str, Card]] = {}
_NAMES: dict[tuple[str, int, int], tuple[str, ...]] = {}
#: Cards asked for whose entry can't be used, with why, by file.
_BROKEN: dict[tuple[str, int, int], dict[str, str]] = {}


def lookup(path: str | os.PathLike[str], names: Iterable[str]) -> dict[str, Card]:
    """The cards called ``names`` in a card file (exact names, or the same
    ignoring case), by the name asked; names not found are missing, and so
    are cards whose entry can't be used (a field of the wrong type, no face,
    past the scenario format's bounds): :func:`not_found` says why.

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
    broken = _BROKEN.setdefault(key[:3], {})
    all_names: list[str] = []
    for name, decode in scan(file):
        all_names.append(name)
        asked = name if name in wanted else folded.get(name.casefold())
        if asked is None or asked in (found if asked == name else loose):
            continue
        try:
            (found if asked == name else loose)[asked] = decode()
        except CardDataError as exc:
            broken.setdefault(asked, str(exc))
    for asked, card in loose.items():
        found.setdefault(asked, card)
    _CACHE[key] = dict(found)
    _NAMES[key[:3]] = tuple(all_names)
    return found


def not_found(path: str | os.PathLike[str], name: str) -> str:
    """The message for a card name :func:`lookup` didn't give: why its entry
    can't be used, or that the file lacks it, with close names."""
    file = os.fspath(path)
    try:
        st = os.stat(file)
        where = (os.path.abspath(file), st.st_size, st.st_mtime_ns)
    except OSError:
        where = ("", 0, 0)
    broken = _BROKEN.get(where, {}).get(name)
    if broken is not None:
        return broken
    close = difflib.get_close_matches(name, _NAMES.get(where, ()), n=3, cutoff=0.75)
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


#: A printed number (107.1: whole numbers; 107.1b: negative ones too): ASCII
#: digits only, at most 20 of them (a longer one is out of bounds unread).
_PRINTED_NUMBER = re.compile(r"-?[0-9]{1,20}")

#: The longest printed value that isn't a number (``*``, ``1+*``, ``∞``).
_VARIABLE_MAX = 10


def _malformed(value: str) -> bool:
    """A printed value no card prints: digits of another script (``٣``),
    underscores (Python's ``1_000``), spaces or other non-printing characters,
    too many digits, empty or over-long."""
    if not value or len(value) > _VARIABLE_MAX or re.fullmatch(r"-?[0-9]+", value):
        return True
    return any((ch.isdecimal() and ch not in "0123456789") or ch == "_" or ch.isspace()
               or unicodedata.category(ch).startswith("C") for ch in value)


def _number(card: Card, key: str, value: str | None) -> int | None:
    """A printed power, toughness, loyalty or defense as a number, or ``None``
    when it isn't one: ``*`` and ``1+*`` (a characteristic-defining ability,
    208.2, 604.3), ``X``, ``?``, ``∞``, which the permanent must write.

    :raises CardDataError: for a value that is malformed (:func:`_malformed`).
    """
    if value is None:
        return None
    if _PRINTED_NUMBER.fullmatch(value):
        return int(value)
    if _malformed(value):
        raise card.error(f"{key} {_shown(value)} is not a number a card prints (107.1: "
                         "a whole number in ASCII digits, from -1000000 to 1000000); the "
                         "card file is refused")
    return None


def _over_bound(exc: UnknownKeywordError) -> bool:
    """Whether a keyword was refused for its number over the bound a loaded
    form declares (:attr:`~redzone.KeywordSpec.most`), rather than for being
    a keyword no plugin provides: only a provided form's numbers are checked."""
    return exc.reason.startswith("its number ") and (
        "over the bound" in exc.reason or "over the limit" in exc.reason)


def _inert_test(parse: Callable[[str], Keyword]) -> Callable[[str], bool]:
    """Whether a keyword name is one the engine knows by name and no plugin
    provides (:meth:`redzone.kernel.plugins.Hooks.is_inert_name`), for the
    engine whose :meth:`~redzone.Engine.keyword` ``parse`` is; never, for
    another parser."""
    engine = getattr(parse, "__self__", None)
    if isinstance(engine, Engine):
        return engine.hooks.is_inert_name
    return lambda name: False


def permanent_keys(card: Card, parse: Callable[[str], Keyword], *,
                   inert: Callable[[str], bool] | None = None,
                   ) -> tuple[dict[str, Any], list[str]]:
    """The scenario keys a card gives a permanent, and notes about the
    abilities that are inert: a keyword ability no loaded plugin provides is
    left out; one the engine knows by name but no plugin provides (flash,
    hexproof: :data:`~redzone.kernel.plugins.INERT_KEYWORDS`) is kept, as a
    scenario may write it, and noted.

    Power and toughness that are not numbers (``*``) are left out;
    :func:`expand` makes them an error unless the permanent writes its own.
    The keys meet the scenario format's schema, as a scenario's own would.

    :param parse: parses a keyword text, raising
        :class:`~redzone.UnknownKeywordError` for one no plugin provides
        (:meth:`redzone.Engine.keyword`).
    :param inert: whether a parsed keyword's name is inert (no plugin acts
        on it); by default the engine's, when ``parse`` is an engine's
        :meth:`~redzone.Engine.keyword`.
    :raises CardDataError: for a value that is malformed or out of the
        schema's bounds (a power of ``99999999999999999999`` or ``٣``, 21
        subtypes) or a provided keyword whose number is over its form's
        bound (``toxic 1001``), naming the file, the line and the card.
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
        number = _number(card, key, value)
        if number is not None:
            keys[key] = number
    notes: list[str] = []
    keywords: list[str] = []
    inert = inert if inert is not None else _inert_test(parse)
    for text in keyword_texts(card):
        try:
            keyword = parse(text)
        except UnknownKeywordError as exc:
            if _over_bound(exc):
                # A keyword redzone provides, with a number its form refuses:
                # refused as the same keyword written in a scenario is.
                raise card.error(f"keyword {_shown(text)}: {exc.reason}; the card file is "
                                 "refused") from None
            why = (f"it is a bad keyword ({exc.reason})" if exc.reason else
                   "it is not a keyword redzone provides")
            notes.append(f"card {card.name!r}: {text!r}: {why}; it is inert here, like the "
                         "card's other rules text")
        else:
            keywords.append(keyword.text)
            if inert(keyword.name):
                notes.append(f"card {card.name!r}: {keyword.text!r}: no loaded plugin provides "
                             "it; it is kept as a keyword redzone knows by name and is inert "
                             "here, like the card's other rules text")
    keys["keywords"] = list(dict.fromkeys(keywords))
    problems = permanent_problems(keys)
    if problems:
        raise card.error("; ".join(f"{path[0]}: {message}" for path, message in problems[:3])
                         + " (the scenario format's bounds); the card file is refused")
    return keys, notes


def permanent(engine: Engine, path: str | os.PathLike[str], name: str, id: str,
              controller: str, **overrides: Any) -> tuple[Permanent, tuple[str, ...]]:
    """A :class:`~redzone.Permanent` from a card, for programs that build
    states in Python: the card's characteristics, then ``overrides`` (any
    :meth:`redzone.Engine.permanent` keyword: ``power``, ``keywords``,
    ``damage``, ``tapped``...). A card's printed loyalty and defense are
    the permanent's ``printed_loyalty`` and ``printed_defense`` (306.5b,
    310.4b) and, on the battlefield, that many counters. Returns the
    permanent and the notes about abilities left out (inert).

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
            # its printed number (306.5b, 310.4b), and on the battlefield that
            # many counters; a card elsewhere has none (122.2)
            kwargs[f"printed_{key}"] = keys[key]
            if overrides.get("zone", "battlefield") == "battlefield":
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


class OutsideFolderError(CardDataError):
    """A scenario's ``cards`` path that leaves the scenario's folder."""


def card_file(data: Mapping[str, Any], scenario_file: str,
              environ: Mapping[str, str] | None = None) -> str | None:
    """The card file a scenario uses: ``cards`` relative to the scenario's
    folder (the working folder for standard input), else ``REDZONE_CARDS``.

    ``cards`` names a file in the scenario's folder or below it, so that a
    scenario from elsewhere can't make redzone read other files; a shared
    card file elsewhere is named by ``REDZONE_CARDS``, which is the user's
    own setting and may be any path. (The check is on the path as written: a
    link the user put in the folder is followed.)

    :raises OutsideFolderError: for an absolute ``cards`` path or one that
        goes up out of the folder (``../AtomicCards.json``).
    """
    env = os.environ if environ is None else environ
    value = data.get("cards")
    if isinstance(value, str):
        parts = re.split(r"[\\/]", value)
        if os.path.isabs(value) or os.path.splitdrive(value)[0] or value.startswith(("/", "\\")) \
                or os.path.normpath(value).split(os.sep)[0] == os.pardir or os.pardir in parts:
            raise OutsideFolderError(
                f"cards {_shown(value)} is not in the scenario's folder: a scenario's card "
                f"file must be beside it or below it; name a card file elsewhere with the "
                f"{ENV} environment variable")
        folder = "" if scenario_file.startswith("<") else os.path.dirname(scenario_file)
        return os.path.join(folder, value)
    return env.get(ENV) or None


AddProblem = Callable[[tuple[str | int, ...], str], None]


def expand(data: Any, scenario_file: str, add: AddProblem,
           parse: Callable[[str], Keyword]) -> tuple[Any, tuple[str, ...]]:
    """A scenario document with each ``card = "NAME"`` permanent completed
    from the card file: the card's keys, then the permanent's own over them.
    Problems (no card file, an unknown card, an entry that can't be used,
    ``*`` power) are added to ``add`` with their key path; the notes say which
    abilities are inert.

    The document is returned unchanged when no permanent names a card.
    """
    if not isinstance(data, dict) or not isinstance(data.get("permanents"), list):
        return data, ()
    named = [(i, p) for i, p in enumerate(data["permanents"])
             if isinstance(p, dict) and isinstance(p.get("card"), str)]
    if not named:
        return data, ()
    permanents = list(data["permanents"])

    def placeholder(i: int) -> None:
        # The card's problem is reported; the permanent's missing power and
        # toughness are not reported a second time.
        permanents[i] = {"power": 0, "toughness": 0, **permanents[i]}

    def refuse(path: tuple[str | int, ...], message: str) -> tuple[Any, tuple[str, ...]]:
        add(path, message)
        for i, _p in named:
            placeholder(i)
        return {**data, "permanents": permanents}, ()

    try:
        file = card_file(data, scenario_file)
    except OutsideFolderError as exc:
        return refuse(("cards",), str(exc))
    if file is None:
        for i, _p in named:
            add(("permanents", i, "card"), "a permanent names a card but the scenario has "
                f"no card file: set cards = \"PATH\" or the {ENV} environment variable")
            placeholder(i)
        return {**data, "permanents": permanents}, ()
    try:
        found = lookup(file, {p["card"] for _i, p in named})
    except CardDataError as exc:
        return refuse(("cards",) if "cards" in data else ("permanents", named[0][0], "card"),
                      str(exc))
    notes: list[str] = []
    for i, pdata in named:
        card = found.get(pdata["card"])
        if card is None:
            add(("permanents", i, "card"), not_found(file, pdata["card"]))
            placeholder(i)
            continue
        try:
            keys, card_notes = permanent_keys(card, parse)
        except CardDataError as exc:
            add(("permanents", i, "card"), str(exc))
            placeholder(i)
            continue
        for key, value in (("power", card.power), ("toughness", card.toughness)):
            if value is not None and key not in keys and key not in pdata:
                add(("permanents", i, "card"), card.error(
                    f"{key} {value!r} is not a number: write the permanent's {key} in the "
                    "scenario").args[0])
                keys[key] = 0
        notes += [] if "keywords" in pdata else card_notes
        merged = {**keys, **pdata}
        if merged.get("zone", "battlefield") == "battlefield":
            # (off it, ``loyalty`` and ``defense`` are the printed numbers already)
            for key in ("loyalty", "defense"):
                if key in keys:
                    merged.setdefault(f"printed_{key}", keys[key])  # 306.5b, 310.4b
        permanents[i] = merged
    return {**data, "permanents": permanents}, tuple(dict.fromkeys(notes))


__all__ = [
    "CARD_KEYS",
    "ENV",
    "Card",
    "CardDataError",
    "OutsideFolderError",
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
