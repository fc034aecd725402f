"""The kernel's action kinds, known by name; their classes imported when needed.

The kernel declares its own action kinds (:mod:`redzone.kernel.actions`: a
Giant Growth's pump, a Murder's destroy, ...) as plugins declare theirs
(:func:`~redzone.kernel.hookspecs.redzone_actions`), but an engine knows
them by their ``do`` names alone, from :data:`KINDS`: their 34 classes are
imported when a kind is first looked up in an engine's
:class:`ActionTable` (an action being performed, a scenario naming one, a
listing of every kind), not when the engine is built. A combat that
performs no action never imports them. They are reached by name
(:data:`SPECS`), as an entry point names a plugin: the module that defines
them is built on the whole kernel, this one on almost none of it.

This module is also the kernel's plugin ``redzone.actions``, the plugin
that declares those kinds, with the one hook about them: regeneration
shields replacing destruction (701.19).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Final

from redzone.kernel.hookspecs import hookimpl
from redzone.kernel.hooktypes import Action, ActionSpec, DestructionReplacement

if TYPE_CHECKING:
    from redzone.kernel.model import GameState

#: The name of the kernel's plugin that declares its action kinds.
PLUGIN: Final = "redzone.actions"

#: The kernel's action kinds by their ``do`` names, in the order of
#: :data:`redzone.kernel.actions.CORE_SPECS` (a test keeps the two in step).
KINDS: Final[tuple[str, ...]] = (
    "pump", "grant", "revoke", "gain_control", "continuous", "add_counters",
    "remove_from_combat", "leave_battlefield", "move", "draw", "cast", "play", "destroy",
    "sacrifice", "exile", "regenerate", "regenerated", "create_token", "deal_damage",
    "prevent", "tap", "untap", "become_blocked", "gain_life", "lose_life", "add_effect",
    "remove_effect", "create_delayed_trigger", "add_trigger", "set_state", "block",
    "enter_blocking", "enter_attacking", "activate",
)

_KERNEL: Final = frozenset(KINDS)

#: Where the kernel's action specs are: a module and its attribute, a tuple
#: of :class:`~redzone.ActionSpec` (imported when a kind is first looked up).
SPECS: Final = ("redzone.kernel.actions", "CORE_SPECS")


@functools.cache
def _kernel_specs() -> dict[str, tuple[ActionSpec, str]]:
    module, attr = SPECS
    specs: tuple[ActionSpec, ...] = getattr(importlib.import_module(module), attr)
    return {spec.cls.do: (spec, PLUGIN) for spec in specs}


def kernel_class(do: str) -> type[Action]:
    """The class of the kernel's action kind ``do`` (one of :data:`KINDS`)."""
    return _kernel_specs()[do][0].cls


class ActionTable(Mapping[str, tuple[ActionSpec, str]]):
    """Every action kind an engine knows, by ``do`` name, with the plugin
    that declares it: the kernel's (:data:`KINDS`, their specs read when one
    is first looked up) and those the engine's plugins declared.

    Membership, length and iteration read names only; looking a kernel kind
    up (``table[do]``, ``get``, ``items``, ``values``) imports the kernel's
    action classes.

    :param plugins: the kinds the plugins declared (none of :data:`KINDS`).
    """

    __slots__ = ("_plugins",)

    def __init__(self, plugins: Mapping[str, tuple[ActionSpec, str]]) -> None:
        self._plugins = dict(plugins)

    def __getitem__(self, do: str) -> tuple[ActionSpec, str]:
        if do in _KERNEL:
            return _kernel_specs()[do]
        return self._plugins[do]

    def __contains__(self, do: object) -> bool:
        return do in _KERNEL or do in self._plugins

    def __iter__(self) -> Iterator[str]:
        yield from KINDS
        yield from self._plugins

    def __len__(self) -> int:
        return len(KINDS) + len(self._plugins)

    def plugin_kinds(self) -> dict[str, tuple[ActionSpec, str]]:
        """The kinds the plugins declared (not the kernel's), sorted by name:
        read without importing the kernel's classes."""
        return dict(sorted(self._plugins.items()))


def is_kernel_kind(do: object) -> bool:
    """Whether ``do`` names one of the kernel's action kinds."""
    return do in _KERNEL


# What the replacement hook here reads decides its state gate: keep
# redzone.kernel._gates._KERNEL_STATE_GATES in step with it.


@hookimpl
def redzone_destruction_replacements(state: GameState,
                                     permanent: str) -> list[DestructionReplacement] | None:
    """Regeneration shields (701.19): the oldest one applies.

    Rules: 701.19, 701.19a.
    """
    if not state.shields:
        return None
    regenerated: Callable[..., Action] = kernel_class("regenerated")
    return [DestructionReplacement(f"regeneration {s.id}", "701.19a",
                                   (regenerated(permanent, s.id),), regeneration=True)
            for s in state.shields if s.mode == "regenerate" and s.to == permanent][:1]


__all__ = ["KINDS", "PLUGIN", "SPECS", "ActionTable", "is_kernel_kind", "kernel_class",
           "redzone_destruction_replacements"]
