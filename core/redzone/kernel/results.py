"""What commands return: an :class:`Outcome` per command, a
:class:`CombatResult` per combat resolved at once, and the record of each
combat damage step's assignment as the step computed it
(:class:`DamageStepRecord`, :class:`AssignmentRecord`).

Frozen values, below the working copy that makes them (:mod:`redzone.kernel.tx`)
and the errors that carry one (an illegal command's ``partial`` result).
"""

from __future__ import annotations

from attrs import field, frozen

from redzone.kernel import display as _display
from redzone.kernel.events import Event
from redzone.kernel.frozen import Copyable, FrozenMap, as_map, as_tuple
from redzone.kernel.model import ChoiceMade, GameState


@frozen
class AssignmentRecord(Copyable):
    """One creature's combat damage assignment in one damage step, as the
    step computed it (510.1).

    :param step: the combat damage step (``first_strike_damage``,
        ``combat_damage``, or one a plugin declares).
    :param source: the assigning creature.
    :param power: how much it assigns (510.1a).
    :param amounts: recipient -> amount, as proposed.
    :param given: whether the caller gave it (else the default policy's).
    :param creatures: the creatures it may assign to, in order.
    :param attacked: what it attacks, when it may assign damage there.
    :param lethal: lethal damage to each creature in ``creatures``, counting
        damage already marked and what other creatures assign in the step
        (the view 702.19b and 510.1c-d are checked in).
    :param is_attacker: whether it is an attacking creature.
    :param blocked: whether it is a blocked attacking creature.
    :param additional: further recipients plugins allow it
        (:func:`~redzone.kernel.hookspecs.redzone_additional_recipients`).
    :param divider: the player who divides its damage when that is not its
        controller (702.22j-k), else ``None``.
    :param lethal_before: lethal damage to each creature in ``creatures``,
        counting damage already marked and what the creatures before this one
        assign in the step (the default assignment's view, 510.1c-d); unlike
        ``lethal`` it doesn't count this creature's damage against others'.
    """

    # (Built by the kernel alone, from its duties' tuples and frozen maps:
    # no converter runs.)
    step: str
    source: str
    power: int
    amounts: FrozenMap[str, int]
    given: bool
    creatures: tuple[str, ...]
    attacked: str | None
    lethal: FrozenMap[str, int]
    is_attacker: bool
    blocked: bool
    additional: tuple[str, ...] = ()
    divider: str | None = None
    lethal_before: FrozenMap[str, int] = field(factory=FrozenMap)


@frozen
class DamageStepRecord(Copyable):
    """What one combat damage step computed for its assignment (510.1;
    702.19, 702.4b: a first-strike step and the regular one are two
    records): each creature's duty, amounts and lethal damage, the given
    entries apart from the default policy's, and the given entries the step
    left unused.

    :param step: the step's name (``first_strike_damage``, ``combat_damage``...).
    :param label: the name its events carry (``combat_damage#2`` in a
        second combat, 505.1a; in a run of several turns, with the turn's
        suffix, ``combat_damage@2`` or ``combat_damage#2@3``, as
        :attr:`CombatResult.steps` names the step).
    :param assignments: every assigning creature's record, in duty order.
    :param unused: the given entries the step left unused, by creature, with
        why and the rule (a note): it was no longer in combat (506.4), or had
        nothing left to assign to (510.1b-d).
    """

    step: str
    label: str
    assignments: tuple[AssignmentRecord, ...] = field(converter=as_tuple)
    unused: FrozenMap[str, str] = field(factory=FrozenMap)

    def shows(self, step: str) -> bool:
        """Whether events of ``step`` (a step as events name it) are this
        step's: its :attr:`label`, or, with combat damage on the stack
        (310.1), the window its assignment is put on the stack in
        (``combat_damage_assigned#2`` for ``combat_damage#2``): a record
        belongs to one combat of one turn, not to every step of its name."""
        if step == self.label:
            return True
        cut = min((i for i in (step.find("#"), step.find("@")) if i >= 0), default=len(step))
        name = step[:cut]
        return name.endswith(_ON_STACK) and name[:-len(_ON_STACK)] + step[cut:] == self.label


#: The end of the name of the window in which a damage step's assignment is
#: on the stack (310.1), as :data:`redzone.kernel.steps.ASSIGNED`.
_ON_STACK = "_assigned"


@frozen
class Outcome(Copyable):
    """What a command did.

    :param state: the new state.
    :param events: what happened, in order.
    :param choices: every choice made, in order, and whether by default.
    :param damage_steps: for a command that assigned combat damage, the
        step's record (510.1); empty otherwise.

    .. versionadded:: 0.1.0
    """

    state: GameState
    events: tuple[Event, ...] = field(converter=as_tuple)
    choices: tuple[ChoiceMade, ...] = field(default=(), converter=as_tuple)
    damage_steps: tuple[DamageStepRecord, ...] = ()

    def __repr__(self) -> str:
        return _display.outcome_repr(self)


@frozen
class CombatResult(Copyable):
    """A whole combat resolved by :meth:`Engine.resolve`.

    :param state: the state after the combat phase (511.3 done).
    :param events: every event of the combat, in order.
    :param steps: the steps the combat went through, in order.
    :param after_steps: the state at the end of each combat damage step,
        after state-based actions.
    :param before: the state the combat started from.
    :param choices: every choice made, in order, and whether by default.
    :param damage_steps: each combat damage step's assignment as it was
        computed, in order (510.1; two with a first-strike step, 702.19).

    .. versionadded:: 0.1.0
    """

    state: GameState
    events: tuple[Event, ...] = field(converter=as_tuple)
    steps: tuple[str, ...] = field(converter=as_tuple)
    after_steps: FrozenMap[str, GameState] = field(converter=as_map)
    before: GameState | None = None
    choices: tuple[ChoiceMade, ...] = field(default=(), converter=as_tuple)
    damage_steps: tuple[DamageStepRecord, ...] = field(default=(), converter=as_tuple)

    def __repr__(self) -> str:
        return _display.result_repr(self)

    def __str__(self) -> str:
        return _display.result_text(self)

    def _repr_html_(self) -> str:
        return _display.result_notebook_html(self)


__all__ = ["AssignmentRecord", "CombatResult", "DamageStepRecord", "Outcome"]
