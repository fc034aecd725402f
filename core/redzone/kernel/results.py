"""What commands return: an :class:`Outcome` per command, a
:class:`CombatResult` per combat resolved at once.

Frozen values, below the working copy that makes them (:mod:`redzone.kernel.tx`)
and the errors that carry one (an illegal command's ``partial`` result).
"""

from __future__ import annotations

from attrs import field, frozen

from redzone.kernel import display as _display
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap, as_map, as_tuple
from redzone.kernel.model import ChoiceMade, GameState


@frozen
class Outcome:
    """What a command did.

    :param state: the new state.
    :param events: what happened, in order.

    .. versionadded:: 0.1.0
    """

    state: GameState
    events: tuple[Event, ...] = field(converter=as_tuple)
    choices: tuple[ChoiceMade, ...] = field(default=(), converter=as_tuple)

    def __repr__(self) -> str:
        return _display.outcome_repr(self)


@frozen
class CombatResult:
    """A whole combat resolved by :meth:`Engine.resolve`.

    :param state: the state after the combat phase (511.3 done).
    :param events: every event of the combat, in order.
    :param steps: the steps the combat went through, in order.
    :param after_steps: the state at the end of each combat damage step,
        after state-based actions.
    :param before: the state the combat started from.
    :param choices: every choice made, in order, and whether by default.

    .. versionadded:: 0.1.0
    """

    state: GameState
    events: tuple[Event, ...] = field(converter=as_tuple)
    steps: tuple[str, ...] = field(converter=as_tuple)
    after_steps: FrozenMap[str, GameState] = field(converter=as_map)
    before: GameState | None = None
    choices: tuple[ChoiceMade, ...] = field(default=(), converter=as_tuple)

    def __repr__(self) -> str:
        return _display.result_repr(self)

    def __str__(self) -> str:
        return _display.result_text(self)

    def _repr_html_(self) -> str:
        return _display.result_html(self)


__all__ = ["CombatResult", "Outcome"]
