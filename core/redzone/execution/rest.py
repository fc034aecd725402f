"""The rest of a combat, from a state in the middle of it.

:meth:`redzone.Engine.resolve` resolves a combat phase from the state before
it. A what-if study (:func:`~redzone.execution.whatif.what_if`) may start
later: after the beginning of combat step (507), after attackers are declared
(508) or after blockers are declared (509). :func:`rest_of_combat` runs what
is left of that combat with the same commands, priority windows and errors as
:meth:`~redzone.Engine.resolve` (it is the engine's own run, started where
the state is), and gives the same :class:`~redzone.CombatResult`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from redzone.kernel import validate as _validate
from redzone.kernel.engine import Engine, _Run, _skipped_blocks
from redzone.kernel.errors import BadQueryError, IllegalActionError, IllegalBlockError
from redzone.kernel.model import GameState
from redzone.kernel.plans import CombatPlan
from redzone.kernel.steps import ASSIGNED
from redzone.kernel.tx import CombatResult, step_label

#: The steps a combat may be continued from, as ``state.step`` names them
#: (a combat damage step too, once its damage is dealt).
RESUMABLE: Final = ("beginning_of_combat", "declare_attackers", "declare_blockers")


def resumable(engine: Engine, state: GameState) -> bool:
    """Whether :func:`rest_of_combat` can go on from ``state``: a combat's
    beginning, declare attackers or declare blockers step, or a combat damage
    step whose damage is dealt, with nothing on the stack and the game on.

    :param engine: the engine (it names the combat damage steps).
    :param state: the state.
    :returns: ``True`` when the combat can be continued from ``state``.

    .. versionadded:: 0.1.0
    """
    step = state.step
    if state.stack or state.game_over is not None:
        return False
    if step in RESUMABLE:
        return True
    return engine.damage_step(step) is not None and not step.endswith(ASSIGNED)


class _Rest(_Run):
    """:class:`~redzone.kernel.engine._Run`, started in the middle of a combat."""

    def rest(self, plan: CombatPlan) -> None:
        engine = self.engine
        at = self.state.step
        if at == "beginning_of_combat":
            if not self.window(at):
                return self.leftover()
            self.doing = ("declare_attackers", self.state, None)
            out = engine.declare_attackers(self.state, plan.attacks, plan.bands,
                                           choices=self.choices)
            if not self.take(out, step_label(out.state)) or not self.window(
                    "declare_attackers"):
                return self.leftover()
        elif not self.window(at):
            return self.leftover()
        if at in ("beginning_of_combat", "declare_attackers"):
            if engine.next_step(self.state) == "declare_blockers":
                self.doing = ("declare_blockers", self.state, None)
                out = engine.declare_blockers(self.state, plan.blocks or {}, plan.order,
                                              choices=self.choices)
                if not self.take(out, step_label(out.state)) or not self.window(
                        "declare_blockers"):
                    return self.leftover()
            else:
                skipped = _skipped_blocks(self.state, plan.blocks)
                if skipped:
                    self.doing = ("declare_blockers", self.state, None)
                    raise IllegalBlockError(skipped)
        while (nxt := engine.next_step(self.state)) is not None and (
                spec := engine.damage_step(nxt)) is not None:
            first = spec.order < 0
            chosen = plan.assign_first_strike if (
                first and plan.assign_first_strike is not None) else plan.assign
            self.doing = ("combat_damage", self.state, None)
            out = engine.combat_damage(self.state, chosen, choices=self.choices)
            label = step_label(out.state)
            going = self.take(out, label)
            if not out.state.step.endswith(ASSIGNED):
                self.after_steps[label + self.suffix] = out.state
            if not going or not self.window(out.state.step):
                return self.leftover()
        self.doing = ("end_of_combat", self.state, None)
        out = engine.end_of_combat(self.state, choices=self.choices)
        if not self.take(out, step_label(out.state)) or not self.window("end_of_combat"):
            return self.leftover()
        self.doing = ("finish", self.state, None)
        self.take(engine.finish(self.state, choices=self.choices))
        return None


def rest_of_combat(engine: Engine, state: GameState, attacks: Mapping[str, str] | None = None,
                   blocks: Mapping[str, Any] | None = None, *,
                   actions: Iterable[tuple[str, Any]] = (),
                   assign: Any = None, assign_first_strike: Any = None,
                   order: Mapping[str, Sequence[str]] | None = None,
                   bands: Iterable[Sequence[str]] = (),
                   choices: Mapping[str, Sequence[str]] | None = None) -> CombatResult:
    """Resolve the rest of the combat ``state`` is in, as
    :meth:`redzone.Engine.resolve` resolves a whole one.

    :param engine: the engine.
    :param state: a state :func:`resumable` accepts.
    :param attacks: the declaration of attackers, from the beginning of combat
        step only (508.1).
    :param blocks: the declaration of blockers, before blockers are declared
        (509.1).
    :param actions: ``(step, action)`` pairs, each performed in the priority
        window after its step (the window of the step ``state`` is in comes
        first).
    :param assign: assignments for every combat damage step.
    :param assign_first_strike: assignments for the first-strike step only.
    :param order: damage assignment orders, for editions that have them.
    :param bands: attacking bands (508.1e), with ``attacks``.
    :param choices: answers to the choices met on the way, by key.
    :returns: what :meth:`~redzone.Engine.resolve` returns; its ``before`` is
        ``state``.
    :raises BadQueryError: when ``state`` is not in a combat step that can be
        continued, or a declaration is given for a step already past.
    :raises IllegalActionError: as :meth:`~redzone.Engine.resolve` raises it,
        with what was done before as its ``partial``.

    .. versionadded:: 0.1.0
    """
    engine.context.check(state)
    _validate.choices(choices)
    if not resumable(engine, state):
        raise BadQueryError(f"can't continue a combat from a state at {state.step!r}: give "
                            "a state in the beginning of combat, declare attackers or "
                            "declare blockers step, or after a combat damage step, with an "
                            "empty stack and the game on", rule="506.1")
    if attacks and state.step != "beginning_of_combat":
        raise BadQueryError(f"attackers are declared already (the state is at "
                            f"{state.step!r}): give no attacks", rule="508.1")
    if blocks and state.step not in ("beginning_of_combat", "declare_attackers"):
        raise BadQueryError(f"blockers are declared already (the state is at "
                            f"{state.step!r}): give no blocks", rule="509.1")
    plan = CombatPlan(attacks or {}, blocks, assign=assign,
                      assign_first_strike=assign_first_strike,
                      actions=_validate.step_actions(actions), order=order,
                      bands=tuple(_validate.bands(bands, "resolve")))
    run = _Rest(engine, state, choices)
    before = state
    try:
        run.pending = {}
        run.sort(plan.actions)
        run.rest(plan)
        run.check_pending()
    except IllegalActionError as exc:
        exc.partial = run.result(before)
        if run.doing is not None and exc.command is None:
            exc.command, exc.state, exc.action = run.doing
        raise
    return run.result(before)


__all__ = ["RESUMABLE", "rest_of_combat", "resumable"]
