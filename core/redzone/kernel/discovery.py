"""Entry points read without ``importlib.metadata`` when that is exact.

Importing ``importlib.metadata`` (with the email, zip and CSV modules it
needs) costs a command-line run about as much as Python's own start. For the
common layout — plain folders on ``sys.path`` holding ``.dist-info``
folders, and only the standard path finder looking for distributions —
:func:`scan` reads the entry points of one group the way
``importlib.metadata.entry_points(group=...)`` does: the same distributions in
the same order (``sys.path`` order, one per normalised name, the first one
found), the same entry points in the same order, each distribution's name and
version from the headers of its ``METADATA``, and ``load()`` resolving the
object reference the same way. For anything else (a zip file or an egg on
``sys.path``, ``.egg-info`` metadata, another finder of distributions,
metadata it can't read exactly as the email parser would) it answers
``None`` and the caller asks ``importlib.metadata``.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from importlib import import_module
from typing import Final

#: ``importlib.metadata.EntryPoint.pattern``.
_REFERENCE: Final = re.compile(
    r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
#: A header line as the email parser knows one (``From `` lines aside).
_HEADER: Final = re.compile(r"[\041-\071\073-\176]+:")
#: The errors ``PathDistribution.read_text`` takes for "no such file".
_MISSING: Final = (FileNotFoundError, IsADirectoryError, KeyError, NotADirectoryError,
                   PermissionError)


class Inexact(Exception):
    """The layout is one :func:`scan` doesn't read exactly."""


class Dist:
    """A distribution's name and version (``EntryPoint.dist``).

    :param name: its ``Name`` header.
    :param version: its ``Version`` header.
    """

    __slots__ = ("name", "version")

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version


class EntryPoint:
    """One entry point, as ``importlib.metadata.EntryPoint`` has it.

    :param name: its name.
    :param value: its object reference (``module:attr``).
    :param group: its group.
    :param dist: the distribution that declares it.
    """

    __slots__ = ("dist", "group", "name", "value")

    def __init__(self, name: str, value: str, group: str, dist: Dist) -> None:
        self.name = name
        self.value = value
        self.group = group
        self.dist = dist

    def load(self) -> object:
        """Import the module and look up the attribute (as the standard
        library does, failures included)."""
        match = _REFERENCE.match(self.value)
        module = import_module(match.group("module"))  # type: ignore[union-attr]
        attrs = filter(None, (match.group("attr") or "").split("."))  # type: ignore[union-attr]
        return functools.reduce(getattr, attrs, module)


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except _MISSING:
        return None


def _headers(text: str) -> tuple[str, str]:
    """The ``Name`` and ``Version`` of a ``METADATA`` text.

    :raises Inexact: unless every header line is a plain one (no folded
        lines, nothing the email parser would read otherwise) and both are there.
    """
    found: dict[str, str] = {}
    for line in re.split(r"\r\n|\r|\n", text):
        if not line:
            break
        if line[0] in " \t" or line.startswith("From ") or not _HEADER.match(line):
            raise Inexact("a header the email parser reads its own way")
        key, _, value = line.partition(":")
        found.setdefault(key.lower(), value.lstrip(" \t"))
    else:
        raise Inexact("no end of the headers")
    if "name" not in found or "version" not in found:
        raise Inexact("no Name or no Version")
    return found["name"], found["version"]


def _entry_points(text: str, group: str, dist: Dist) -> list[EntryPoint]:
    out: list[EntryPoint] = []
    section: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        if "=" not in line:
            raise Inexact("an entry point line without '='")
        name, _, value = line.partition("=")
        if section == group:
            out.append(EntryPoint(name.strip(), value.strip(), group, dist))
    return out


def _finders_exact() -> bool:
    import _frozen_importlib_external

    finders = [f for f in sys.meta_path if getattr(f, "find_distributions", None)]
    return finders == [_frozen_importlib_external.PathFinder]


def scan(group: str) -> tuple[EntryPoint, ...] | None:
    """The entry points of ``group`` (as ``importlib.metadata`` would find
    them), or ``None`` when this layout needs ``importlib.metadata``.

    :param group: the entry-point group.
    """
    try:
        if not _finders_exact():
            return None
        seen: set[str] = set()
        found: list[EntryPoint] = []
        for root in sys.path:
            if not isinstance(root, str) or os.path.basename(root).lower().endswith(".egg"):
                return None
            try:
                children = os.listdir(root or ".")
            except OSError:
                if os.path.isfile(root):
                    return None  # a zip file's distributions
                continue
            infos: dict[str, list[str]] = {}
            for child in children:
                low = child.lower()
                if low.endswith(".egg-info"):
                    return None
                if low.endswith(".dist-info"):
                    if not child.endswith(".dist-info"):
                        return None  # named from its metadata, not its folder
                    name = _normalize(low.rpartition(".")[0].partition("-")[0])
                    infos.setdefault(name, []).append(child)
            for paths in infos.values():
                for child in paths:
                    stem = child.rpartition(".")[0]
                    key = _normalize(stem.partition("-")[0])
                    if key in seen:
                        continue
                    seen.add(key)
                    folder = os.path.join(root, child)
                    text = _read(os.path.join(folder, "entry_points.txt"))
                    if text is None:
                        continue
                    dist = Dist("", "")
                    eps = _entry_points(text, group, dist)  # every line, as the library
                    if eps:
                        meta = _read(os.path.join(folder, "METADATA"))
                        if not meta:
                            return None
                        dist.name, dist.version = _headers(meta)
                        found.extend(eps)
        return tuple(found)
    except (Inexact, OSError, UnicodeDecodeError):
        return None


__all__ = ["Dist", "EntryPoint", "scan"]
