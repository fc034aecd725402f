"""Rules editions: a named set of plugins and settings, selected per engine.

An edition never branches the core: it adds plugins (and, where the flow of
the combat damage step itself differs, a setting the engine reads).

- ``foundations`` (November 2024 on; the Comprehensive Rules of 2026-09-25):
  a creature's controller divides its combat damage among the creatures
  blocking it, or blocked by it, as they choose (510.1c-d).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from attrs import field, frozen

from redzone.errors import RulesError
from redzone.frozen import as_tuple


@frozen
class Edition:
    """A rules edition.

    :param name: its name, as ``rules =`` in a scenario names it.
    :param title: a human title with its dates.
    :param rules: the rules documents and rule numbers it implements.
    :param plugins: plugin modules the edition adds to every engine.
    """

    name: str
    title: str
    rules: tuple[str, ...] = field(converter=as_tuple)
    plugins: tuple[object, ...] = field(default=(), converter=as_tuple)


FOUNDATIONS: Final = Edition(
    "foundations",
    "Foundations (November 2024 on): combat damage divided as its controller chooses",
    ("Comprehensive Rules 2026-09-25: 120, 506-511, 702, 704.5",),
)

EDITIONS: Final[Mapping[str, Edition]] = {FOUNDATIONS.name: FOUNDATIONS}


class UnknownEditionError(RulesError, ValueError):
    """A rules edition that doesn't exist."""


def get_edition(name: str) -> Edition:
    """The edition called ``name``.

    :raises UnknownEditionError: naming the editions there are.
    """
    try:
        return EDITIONS[name]
    except KeyError:
        raise UnknownEditionError(
            f"unknown rules edition {name!r}; known editions: {', '.join(EDITIONS)}"
        ) from None
