"""The decisions a command asks of the players, seen before it is given.

Every decision a player makes while a command runs is a
:class:`~redzone.Choice` (601.2): a declaration's costs and options (508.1g,
509.1d), the order of simultaneous triggers (603.3b), a trigger's targets
and modes (603.3c-d) and the choices made as it resolves (608.2d, such as
annihilator's sacrifice, 702.86a). This module lets an engine's caller (an
AI, a host engine) list them in advance (:meth:`Decisions.choices_for`) and
refuses, for every command, answers that no decision asked for
(:func:`only_asked`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from redzone.kernel import settle as _settle
from redzone.kernel.context import HasContext
from redzone.kernel.errors import BadQueryError, UnaskedChoiceError, did_you_mean
from redzone.kernel.model import Choice, ChoiceMade, GameState
from redzone.kernel.results import CombatResult, Outcome
from redzone.kernel.tx import ASKED
from redzone.kernel.validate import choices as _validate_choices

#: The engine's commands whose choices :meth:`Decisions.choices_for` lists:
#: the name of each :class:`~redzone.Engine` method.
COMMANDS: Final = ("begin_combat", "declare_attackers", "declare_blockers", "combat_damage",
                   "end_of_combat", "finish", "end_step", "cleanup", "end_turn", "begin_turn",
                   "untap_step", "upkeep", "draw_step", "precombat_main",
                   "perform", "activate", "check_state_based_actions", "resolve_trigger",
                   "remove_trigger", "resolve")


#: The commands that ask no choice, and so take no answers.
_ASK_NOTHING: Final = frozenset({"remove_trigger"})


class Shared(dict[str, Any]):
    """Answers shared by the commands of one run (:meth:`redzone.Engine.resolve`
    gives each command all of them): a command takes those its decisions ask
    for and leaves the others to the commands after it; the run checks at its
    end that every key was asked for."""


def only_asked(out: Outcome, choices: Mapping[str, str | Sequence[str]] | None) -> Outcome:
    """``out``, when every key of ``choices`` names a decision the command
    asked for (601.2).

    A game that ended during the command (104) never reached the decisions
    after that moment, so their keys are not refused then; nor are
    :class:`Shared` answers (the run checks them).

    :raises UnaskedChoiceError: naming the keys no decision asked for and the
        keys that were asked; the caller keeps its state.
    :raises BadQueryError: when ``choices`` isn't a mapping of answers (an
        empty list or ``0`` included, which the command took for none: 601.2).
    """
    if choices is not None and not isinstance(choices, Shared):
        _validate_choices(choices)
    if not choices or isinstance(choices, Shared) or out.state.game_over is not None:
        return out
    refuse_unasked(choices, out.choices)
    return out


def refuse_unasked(choices: Mapping[str, object], made: Sequence[ChoiceMade]) -> None:
    """601.2: every key of ``choices`` names one of the decisions ``made``
    (a misspelt key, or one of another command or turn, would otherwise pass
    silently).

    :raises UnaskedChoiceError: naming the keys no decision asked for and the
        keys that were asked.
    """
    asked = [m.key for m in made]
    unasked = set(choices) - set(asked)
    if unasked:
        raise UnaskedChoiceError(unasked, asked)


class Decisions:
    """The engine's queries about decisions (a part of :class:`~redzone.Engine`)."""

    def choices_for(self, state: GameState, command: str, *args: Any,
                    choices: Mapping[str, str | Sequence[str]] | None = None,
                    **kwargs: Any) -> tuple[Choice, ...]:
        """The choices the command would ask, in the order it would ask
        them, each with its key, player, options, bounds and default (601.2,
        508.1g, 603.3b-d, 608.2d), without giving the command: ``state`` is
        not changed (the command runs on the frozen state and its outcome is
        dropped).

        A later choice can depend on an earlier answer (what enlisting taps,
        which triggers there are to order): pass the answers decided so far
        as ``choices``; the others are taken at their defaults.

        :param command: the name of the :class:`~redzone.Engine` command
            (:data:`COMMANDS`: ``"declare_attackers"``, ``"perform"`` ...).
        :param args: its arguments after the state (the attacks, the action).
        :param choices: answers decided so far, by key (``answers`` of
            :meth:`~redzone.Engine.resolve_trigger`).
        :param kwargs: its other keyword arguments.
        :raises BadQueryError: for a name that is no command.
        :raises IllegalActionError: (or a subclass) when the command itself
            would be refused: it asks nothing then.

        .. versionadded:: 0.1.0
        """
        if command not in COMMANDS:
            raise BadQueryError(f"choices_for: {command!r} is not a command of the engine "
                                f"({', '.join(COMMANDS)}){did_you_mean(command, COMMANDS)}",
                                rule="601.2")
        method = getattr(self, command)
        key = "answers" if command == "resolve_trigger" else "choices"
        given = {} if command in _ASK_NOTHING else {key: choices}
        asked: list[Choice] = []
        token = ASKED.set(asked)
        try:
            done: Outcome | CombatResult = method(state, *args, **given, **kwargs)
        finally:
            ASKED.reset(token)
        del done
        unique: list[Choice] = []
        for choice in asked:  # (one met twice, as in 514.3a's second cleanup, once)
            if choice not in unique:
                unique.append(choice)
        return tuple(unique)

    def pending_choices(self: HasContext, state: GameState) -> tuple[Choice, ...]:
        """The choices of the triggers on the stack that are still to be
        made, as they resolve (608.2d): each with its key, options and
        default, as they are in ``state`` (a trigger's plugin works them out
        again from what exists now). Answer them with :meth:`~redzone.Engine.resolve_trigger`
        (``answers``).

        .. versionadded:: 0.1.0
        """
        hooks = self.context.hooks
        return tuple(offer for trigger in state.stack
                     for offer in _settle.offers_now(hooks, state, trigger))


__all__ = ["COMMANDS", "Decisions", "Shared", "only_asked"]
