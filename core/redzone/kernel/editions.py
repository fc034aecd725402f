"""Rules editions: a named set of plugins and settings, selected per engine.

An edition never branches the core on its name. It is data: plugins it adds,
discovered plugins it replaces, and a few settings for the places where the
*flow* of the combat damage step itself differs between editions.

The core defines ``foundations`` (November 2024 on: the Comprehensive Rules of
2026-09-25): a creature's controller divides its combat damage among the
creatures blocking it, or blocked by it, as they choose (510.1c-d). Other
editions are found through the ``redzone.editions`` entry-point group, each
entry point naming an :class:`Edition` object; the built-in ``m10`` and
``sixth`` come that way from the ``redzone_keywords.editions`` package.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Final

from attrs import field, frozen

from redzone.kernel.errors import PluginLoadError, RulesError
from redzone.kernel.frozen import as_tuple

GROUP: Final = "redzone.editions"


@frozen
class Edition:
    """A rules edition.

    :param name: its name, as ``rules =`` in a scenario names it.
    :param title: a human title with its dates.
    :param rules: the rules documents and rule numbers it implements.
    :param plugins: plugin modules the edition adds to every engine.
    :param replaces: names of discovered plugins the edition's own plugins
        stand in for (an older wording of a keyword); they are not loaded.
    :param assignment_orders: blockers and attackers get a damage assignment
        order at declare blockers (509.2-509.3 of 2009-2024); orders are kept
        in ``Combat.order``.
    :param damage_on_stack: combat damage assignments go on the stack as one
        object, players get priority, and it resolves later as assigned (310.1,
        310.4 of 1999-2009). The windows are called ``<step>_assigned``.
    :param second_step_by_assignment: the second combat damage step takes the
        creatures that did not *assign* combat damage in the first (310.5 of
        1999-2009), instead of those that had neither first nor double strike
        as the first step began (510.4).
    :param legend_rule_per_player: the legend rule is 704.5j's: a player who
        controls two or more legendary permanents with the same name chooses
        one to keep, and the rest are put into their owners' graveyards.
        Off, it is 420.5e's of 1999-2009: two or more legendary permanents
        with the same name on the battlefield are all put into their owners'
        graveyards, whoever controls them, and nobody chooses; so are two or
        more planeswalkers that share a planeswalker type (420.5q of that era).
    :param summary: one paragraph for listings and docs.

    .. versionadded:: 0.1.0
    """

    name: str
    title: str
    rules: tuple[str, ...] = field(converter=as_tuple)
    plugins: tuple[object, ...] = field(default=(), converter=as_tuple)
    replaces: tuple[str, ...] = field(default=(), converter=as_tuple)
    assignment_orders: bool = False
    damage_on_stack: bool = False
    second_step_by_assignment: bool = False
    legend_rule_per_player: bool = True
    summary: str = ""


FOUNDATIONS: Final = Edition(
    "foundations",
    "Foundations (November 2024 on): combat damage divided as its controller chooses",
    ("Comprehensive Rules 2026-09-25: 120, 506-511, 615, 702, 704.5",),
    summary=(
        "Today's rules. A creature's controller divides its combat damage among the "
        "creatures blocking it (or blocked by it) as they choose (510.1c-d); only a "
        "creature assigning past its blockers still needs lethal damage to every blocker "
        "first (702.19b)."
    ),
)


class UnknownEditionError(RulesError, ValueError):
    """A rules edition that doesn't exist."""


@functools.cache
def _discovered() -> tuple[Edition, ...]:
    return tuple(_load())


def editions() -> dict[str, Edition]:
    """Every known edition: the core's, then those of the ``redzone.editions``
    entry-point group, by name (read once per process).

    :raises PluginLoadError: when an entry point fails to load or isn't an
        :class:`Edition`.
    """
    found = {FOUNDATIONS.name: FOUNDATIONS}
    for edition in _discovered():
        found.setdefault(edition.name, edition)
    return found


def _load() -> list[Edition]:
    """The editions of the ``redzone.editions`` entry-point group."""
    from redzone.kernel.plugins import entry_points

    found: dict[str, Edition] = {}
    for ep in sorted(entry_points(GROUP), key=lambda e: e.name):
        if ep.name in found:
            continue
        dist = ep.dist.name if ep.dist is not None else ""
        try:
            edition = ep.load()
        except Exception as exc:
            raise PluginLoadError(
                f"rules edition {ep.name!r} from distribution {dist!r} failed to load "
                f"({ep.value}): {type(exc).__name__}: {exc}", plugin=ep.name, distribution=dist
            ) from exc
        if not isinstance(edition, Edition):
            raise PluginLoadError(
                f"entry point {ep.name!r} of group {GROUP!r} ({ep.value}) is not an Edition",
                plugin=ep.name, distribution=dist)
        found[edition.name] = edition
    return list(found.values())


class _Editions(Mapping[str, Edition]):
    """The known editions, read from the entry points on first use (nothing
    is loaded at import time)."""

    def _all(self) -> dict[str, Edition]:
        return editions()

    def __getitem__(self, name: str) -> Edition:
        return self._all()[name]

    def __contains__(self, name: object) -> bool:
        # the core's own edition is known without loading the installed ones
        return name == FOUNDATIONS.name or name in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: Every known edition by name: the core's and the installed ones.
EDITIONS: Mapping[str, Edition] = _Editions()


def get_edition(name: str | Edition) -> Edition:
    """The edition called ``name`` (an :class:`Edition` is returned as it is).

    :raises UnknownEditionError: naming the editions there are.
    """
    if isinstance(name, Edition):
        return name
    if name == FOUNDATIONS.name:  # the core's own name is never an installed edition's
        return FOUNDATIONS
    known = editions()
    try:
        return known[name]
    except KeyError:
        raise UnknownEditionError(
            f"unknown rules edition {name!r}; known editions: {', '.join(sorted(known))}"
        ) from None
