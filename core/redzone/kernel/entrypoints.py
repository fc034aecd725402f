"""The installed entry points, read from the distributions' metadata folders.

Plugin discovery (:func:`redzone.kernel.plugins.discover`) and the rules
editions (:data:`redzone.kernel.editions.EDITIONS`) read the ``redzone`` and
``redzone.editions`` entry-point groups. :mod:`importlib.metadata` answers
that, but importing it (email, zipfile, csv, pathlib) is a good part of a cold
start, and what it reads for these questions is small. So this module reads
the same files itself and gives the same answers (a test compares the two on
the installed distributions):

- each entry of ``sys.path`` that is a folder is listed; its ``*.dist-info``
  and ``*.egg-info`` entries (and ``EGG-INFO`` in a folder named ``*.egg``)
  are the distributions there, those of one name together, in the order the
  folder lists them;
- a distribution is known by its folder's name up to the first ``-``,
  normalised (PEP 503, with ``_`` for ``-``); the first one of a name on
  ``sys.path`` wins, and later ones of that name are not read;
- ``entry_points.txt`` is a small INI format: ``[group]`` lines, then
  ``name = value`` lines; blank lines and lines starting with ``#`` are
  skipped;
- the distribution's name and version are the first ``Name`` and ``Version``
  headers of its ``METADATA`` (``PKG-INFO`` for an egg-info folder; an old
  egg-info file is itself the headers), read up to the first blank line.

Not read: distributions inside zip files on ``sys.path``, and those only a
finder of ``sys.meta_path`` other than the path finder knows.

What is read is kept for the process, each listing and file under what the
file system says of it (its modification time in nanoseconds, size, inode
and link count, from one ``os.stat``): an engine built later stats the
folders and files again and reads only those that changed. What was changed
within the last :data:`RACY` seconds as it was read is not kept (git's rule
for "racily clean" files): a second change within the file system's
timestamp granularity could leave the same stamp, so a folder or file that
changes while a program runs is read again until it has been still that long.

A line of a group asked for that is not ``name = value``, or a file that is
not UTF-8, is a :class:`MetadataError` naming the file and the line (plugin
discovery reports it as a :class:`~redzone.PluginLoadError`); the lines of
other groups belong to other programs and are not read.

Functions only, importing no other module of the kernel.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Final, TypeVar

T = TypeVar("T")

#: The endings of a distribution's metadata folder.
SUFFIXES = (".dist-info", ".egg-info")

#: An entry point's value: ``module``, ``module:attr.attr``, extras allowed
#: (the pattern of :class:`importlib.metadata.EntryPoint`).
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class MetadataError(ValueError):
    """A distribution's metadata file that can't be read: a line of a group
    asked for that is not ``name = value``, or text that is not UTF-8.

    :ivar file: the file.
    """

    def __init__(self, message: str, *, file: str) -> None:
        super().__init__(message)
        self.file = file

    def __reduce__(self) -> tuple[object, ...]:
        # pickled with its args and fields, not through __init__ (``file`` is
        # keyword-only): the kernel's PicklesByFields, which this module,
        # importing no other module of the kernel, doesn't import
        return type(self).__new__, (type(self), *self.args), vars(self)


class _Record:
    """A small immutable record: its fields are its ``__slots__`` (a plain
    class: this module is on every cold start's path, where building attrs
    classes is a good part of the time)."""

    __slots__: tuple[str, ...] = ()
    #: The fields, in order.
    FIELDS: tuple[str, ...] = ()

    def __init__(self, *values: object) -> None:
        for name, value in zip(self.FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.FIELDS)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[object, ...]:
        return type(self), self._fields()


class Distribution(_Record):
    """An installed distribution, as its metadata names it.

    :param name: its ``Name`` header ("" if it has none).
    :param version: its ``Version`` header ("" if it has none).
    :param path: its metadata folder (or egg-info file).
    """

    __slots__ = ("name", "path", "version")
    FIELDS = ("name", "version", "path")
    name: str
    version: str
    path: str

    def __init__(self, name: str, version: str, path: str) -> None:
        super().__init__(name, version, path)


class EntryPoint(_Record):
    """An entry point of an installed distribution.

    :param name: the name before ``=``.
    :param value: what it points to, ``module`` or ``module:attr``.
    :param group: its group.
    :param dist: the distribution that declares it.
    """

    __slots__ = ("dist", "group", "name", "value")
    FIELDS = ("name", "value", "group", "dist")
    name: str
    value: str
    group: str
    dist: Distribution

    def __init__(self, name: str, value: str, group: str, dist: Distribution) -> None:
        super().__init__(name, value, group, dist)

    def load(self) -> object:
        """Import the module the value names and return it, or the attribute
        after ``:`` (dotted names walked).

        :raises ValueError: when the value is not ``module`` or ``module:attr``.
        :raises ImportError: when the module can't be imported.
        """
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name!r} = {self.value!r} is not "
                             "'module' or 'module:attribute'")
        found: object = importlib.import_module(match.group("module"))
        for attr in filter(None, (match.group("attr") or "").split(".")):
            found = getattr(found, attr)
        return found


def normalize(name: str) -> str:
    """A distribution name as distributions are told apart: lower case, each
    run of ``-``, ``_`` and ``.`` one ``_`` (PEP 503).

    :param name: the name.
    """
    return re.sub(r"[-_.]+", "_", name).lower()


#: Seconds after its last change within which a folder or file read is not
#: kept (see the module's docstring).
RACY: Final = 2.0
#: The most listings and files kept; past it, the oldest half is dropped.
KEPT_MAX: Final = 4096

#: What was read, by (what, path): (the stamp it was read under, the value).
_kept: dict[tuple[str, str], tuple[tuple[int, int, int, int], object]] = {}


def _stamp(path: str) -> tuple[int, int, int, int] | None:
    """What one ``os.stat`` says of ``path`` that changes with its content or
    listing, or ``None`` when it can't be read."""
    try:
        st = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_nlink)


def _kept_or(what: str, path: str, stamp: tuple[int, int, int, int],
             read: Callable[[], T]) -> T:
    """What ``read()`` gives for ``path`` under ``stamp``: kept from an
    earlier read under the same stamp, or read now (and kept, unless
    ``path`` changed within the last :data:`RACY` seconds)."""
    key = (what, path)
    hit = _kept.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]  # type: ignore[return-value]
    value = read()
    if time.time_ns() - stamp[0] > RACY * 1e9:
        if len(_kept) >= KEPT_MAX:
            for old in list(_kept)[:KEPT_MAX // 2]:
                _kept.pop(old, None)
        _kept[key] = (stamp, value)
    return value


def forget() -> None:
    """Forget every listing and file kept: the next question reads them all."""
    _kept.clear()


def metadata_paths(entry: str) -> list[str]:
    """The metadata folders (and egg-info files) in one ``sys.path`` entry:
    those of one name together, in the order the folder lists them, then an
    egg's ``EGG-INFO``; none if ``entry`` is not a folder that can be listed.

    :param entry: the entry ("" is the current folder).
    """
    folder = entry or "."
    stamp = _stamp(folder)
    if stamp is None:
        return []
    return list(_kept_or("listing", folder, stamp, lambda: _metadata_paths(entry)))


def _metadata_paths(entry: str) -> tuple[str, ...]:
    """:func:`metadata_paths`, read from the folder."""
    try:
        children = os.listdir(entry or ".")
    except (OSError, TypeError, ValueError):
        return ()
    by_name: dict[str, list[str]] = {}
    eggs: list[str] = []
    in_egg = os.path.basename(entry).lower().endswith(".egg")
    for child in children:
        low = child.lower()
        if low.endswith(SUFFIXES):
            key = normalize(low.rpartition(".")[0].partition("-")[0])
            by_name.setdefault(key, []).append(os.path.join(entry, child))
        elif in_egg and low == "egg-info":
            eggs.append(os.path.join(entry, child))
    return (*(path for paths in by_name.values() for path in paths), *eggs)


def _read(path: str, name: str) -> str | None:
    """The text of file ``name`` of a metadata folder (``""``: ``path``
    itself), ``None`` when there is none (kept while its stamp holds)."""
    file = os.path.join(path, name) if name else path
    stamp = _stamp(file)
    if stamp is None:
        return None
    return _kept_or("text", file, stamp, lambda: _read_file(file))


def _read_file(file: str) -> str | None:
    """The text of ``file``, ``None`` when there is none."""
    try:
        with open(file, encoding="utf-8") as fh:
            return fh.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None
    except UnicodeDecodeError as exc:
        raise MetadataError(f"{file} is not UTF-8 text: {exc}", file=file) from None


def headers(text: str, wanted: Collection[str] = ("name", "version")) -> dict[str, str]:
    """The first value of each header of ``wanted`` (lower case) in the
    header block of a metadata text (up to its first blank line), as the
    email parser gives them: leading blanks dropped.

    :param text: the text of ``METADATA`` or ``PKG-INFO``.
    :param wanted: the header names, in lower case.
    """
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line:
            break
        key, colon, value = line.partition(":")
        key = key.lower()
        if colon and key in wanted and key not in found:
            found[key] = value.lstrip(" \t")
            if len(found) == len(wanted):
                break
    return found


def distribution(path: str) -> Distribution:
    """The distribution whose metadata folder (or egg-info file) is ``path``.

    :param path: the folder.
    :raises MetadataError: when its metadata is not UTF-8.
    """
    text = _read(path, "METADATA") or _read(path, "PKG-INFO") or _read(path, "") or ""
    found = headers(text)
    return Distribution(found.get("name", ""), found.get("version", ""), path)


def parse(text: str, groups: Collection[str], *, file: str = "entry_points.txt"
          ) -> Iterator[tuple[str, str, str]]:
    """The ``(group, name, value)`` entries of ``groups`` in the text of an
    ``entry_points.txt``, in order.

    :param text: the text.
    :param groups: the groups to read; others' lines are skipped unread.
    :param file: the file's name, for the error.
    :raises MetadataError: for a line of one of ``groups`` that is not
        ``name = value``.
    """
    group: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
            continue
        if group is None or group not in groups:
            continue
        name, eq, value = line.partition("=")
        if not eq:
            raise MetadataError(f"{file}, line {number}: {line!r} in group {group!r} is "
                                "not 'name = value'", file=file)
        yield group, name.strip(), value.strip()


@functools.lru_cache(maxsize=KEPT_MAX)
def _key(path: str) -> str | None:
    """The name a metadata folder tells its distribution apart by, when its
    own name gives it (``foo-1.0.dist-info``: ``foo``); of the path's text
    alone, so kept by it."""
    stem, ext = os.path.splitext(os.path.basename(path))
    return normalize(stem.partition("-")[0]) if ext in SUFFIXES else None


def distributions(path: Iterable[str]) -> Iterator[str]:
    """The metadata folders of the distributions on ``path``, the first of
    each name only (as :func:`importlib.metadata.distributions` after its
    removal of duplicates).

    :param path: the folders to search, in order (``sys.path``).
    :raises MetadataError: when a folder's name doesn't give its
        distribution's name and its metadata is not UTF-8.
    """
    seen: set[str] = set()
    for entry in path:
        for folder in metadata_paths(entry):
            key = _key(folder)
            if key is None:
                key = normalize(distribution(folder).name)
            if key not in seen:
                seen.add(key)
                yield folder


def _entries(file: str, group: str) -> tuple[tuple[str, str, str], ...]:
    """The entries of ``group`` in the ``entry_points.txt`` ``file`` (kept
    by the caller under the file's stamp, so its text isn't kept too)."""
    text = _read_file(file)
    return tuple(parse(text, (group,), file=file)) if text else ()


def entry_points(group: str, path: Sequence[str] | None = None) -> tuple[EntryPoint, ...]:
    """The entry points of ``group`` of the distributions on ``path``: those
    of each distribution in the order of its file, distributions in the order
    of :func:`distributions`.

    :param group: the group, such as ``redzone``.
    :param path: the folders to search (default: ``sys.path``).
    :raises MetadataError: for a malformed line of ``group`` or a metadata
        file that is not UTF-8.
    """
    found: list[EntryPoint] = []
    for folder in distributions(sys.path if path is None else path):
        file = os.path.join(folder, "entry_points.txt")
        stamp = _stamp(file)
        if stamp is None:
            continue
        entries = _kept_or(f"group {group}", file, stamp, functools.partial(_entries, file, group))
        if entries:
            dist = distribution(folder)  # its name and version: read only when needed
            found.extend(EntryPoint(name, value, group, dist) for _group, name, value in entries)
    return tuple(found)


__all__ = ["KEPT_MAX", "RACY", "SUFFIXES", "Distribution", "EntryPoint", "MetadataError",
           "distribution", "distributions", "entry_points", "forget", "headers", "metadata_paths",
           "normalize", "parse"]
