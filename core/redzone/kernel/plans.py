"""The plans :meth:`redzone.Engine.resolve` is given: the declarations of a
combat phase (:class:`CombatPlan`) and of a whole turn after the first
(:class:`TurnPlan`). Plain data, light to import (a batch job carries them to
its worker)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from redzone.kernel.frozen import lazy_frozen

if TYPE_CHECKING:
    from redzone.kernel.combat import Assignment
    from redzone.kernel.hooktypes import Action


@frozen
class CombatPlan:
    """The declarations of one combat phase, for :meth:`Engine.resolve`.

    :param attacks: attacking creature -> what it attacks.
    :param blocks: blocking creature -> attacker(s) it blocks.
    :param assign: assignments used in each damage step.
    :param assign_first_strike: overrides ``assign`` entry by entry in the
        combat damage steps before the regular one.
    :param actions: ``(step, action)`` pairs for this combat's windows.
    :param order: damage assignment orders (2009-2024 editions).
    :param bands: attacking bands (508.1e).
    """

    attacks: Mapping[str, str]
    blocks: Mapping[str, str | Sequence[str]] | None = None
    assign: Assignment | None = None
    assign_first_strike: Assignment | None = None
    actions: tuple[tuple[str, Action], ...] = ()
    order: Mapping[str, Sequence[str]] | None = None
    bands: tuple[tuple[str, ...], ...] = ()


@lazy_frozen
class TurnPlan:
    """One whole turn after the first, for :meth:`Engine.resolve` (500.1).

    :param combat: its combat phase; its ``actions`` may also be after
        ``"untap"``, ``"upkeep"``, ``"draw"``, ``"precombat_main"``,
        ``"postcombat_main"`` and ``"end_step"``.
    :param additional_combats: further combat phases of that turn (500.8).
    :param active_player: whose turn; default: the next player (team) in
        turn order (805.4).
    :param choices: answers to this turn's decisions, by key (601.2), as
        :meth:`Engine.resolve`'s ``choices`` answer every turn's: for this
        turn, its own answer to a key wins over the run's; a key that no
        decision of this turn asks for is refused as the turn ends
        (:class:`~redzone.UnaskedChoiceError`), unless the game ended.

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.1.0 ``choices``.
    """

    combat: CombatPlan
    additional_combats: tuple[CombatPlan, ...] = ()
    active_player: str | None = None
    choices: Mapping[str, str | Sequence[str]] | None = None


__all__ = ["CombatPlan", "TurnPlan"]
