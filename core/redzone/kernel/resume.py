"""The rest of a combat: :meth:`redzone.Engine.resolve` given a state in
the middle of one.

:meth:`~redzone.Engine.resolve` runs a combat phase from a main phase, or
the rest of one from a state in it (:func:`in_combat`): at its beginning of
combat step (507), after attackers are declared (508), after blockers are
declared (509), after a combat damage step (510) or, under an edition whose
combat damage uses the stack, in a step's ``_assigned`` window, the damage
on the stack (310.4 of 1999-2009). The run is the same one: it starts with
the priority window of the step the state is at (its actions, then what
waits on the stack) and goes on as from the start, with the turn's
additional combats, its rest and later turns as asked; its ``steps`` and
``events`` are the tail of the whole combat's, and its ``before`` is the
state given.

A decision for a step already done is refused before anything is done
(:class:`~redzone.BadQueryError` naming the step and its rule), unless it is
the one the state records (:func:`check`):

- ``attacks`` once attackers are declared (508.1): each creature it names
  must have attacked what it names (``Combat.declared``); ``bands``
  (508.1e) must be the bands declared (less the members that left combat
  since);
- ``blocks`` once blockers are declared (509.1): each creature it names
  must block the attackers it names (none: no block), but for a creature
  that left combat since, even one back as a new object (400.7,
  ``Combat.returned``); ``order``, under an
  edition with damage assignment orders (509.2 of 2009-2024), the orders
  the combat holds;
- ``assign`` once no combat damage step is left to assign (510.1), and
  ``assign_first_strike`` once no first-strike step is (510.4): the state
  does not record an assignment, so only an empty one is taken;
- ``actions`` after a step whose priority window is past (506.1), and
  ``first_turn`` (500.1).

A state neither at a main phase nor in a combat (the end of combat step
included: that combat is over, 511) is an :class:`~redzone.IllegalActionError`
(506.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from redzone.kernel import combat as _combat
from redzone.kernel import steps as _steps
from redzone.kernel.context import Context
from redzone.kernel.errors import BadQueryError, IllegalActionError, IllegalBlockError
from redzone.kernel.model import Combat, GameState
from redzone.kernel.plans import CombatPlan

#: The declaration steps a combat can be resolved on from; so can its combat
#: damage steps and their ``_assigned`` windows.
DECLARATION_STEPS: Final = ("beginning_of_combat", "declare_attackers", "declare_blockers")


def in_combat(ctx: Context, state: GameState) -> bool:
    """Whether :meth:`~redzone.Engine.resolve` resolves the rest of a combat
    from ``state``: it is at a combat's beginning, declare attackers or
    declare blockers step, at a combat damage step or in its ``_assigned``
    window (the end of combat step is not: that combat is over but for its
    end, 511).

    :param ctx: the engine's context (it names the combat damage steps).
    :param state: the state.
    :returns: ``True`` in the middle of a combat.

    .. versionadded:: 0.1.0
    """
    step = state.step
    # (its combat damage steps, and their ``_assigned`` windows under an edition
    # whose combat damage uses the stack, are those step_names lists before the
    # end of combat step)
    return step in DECLARATION_STEPS or (
        step != "end_of_combat" and step in _steps.step_names(ctx))


def check(ctx: Context, state: GameState, plan: CombatPlan, *, first_turn: bool) -> None:
    """Check that :meth:`~redzone.Engine.resolve` can run its first combat
    from ``state`` with ``plan``: ``state`` is at a main phase or in a combat
    (:func:`in_combat`), and no decision ``plan`` holds is for a step already
    done, unless it is the one the state records (the list above).

    :param ctx: the engine's context.
    :param state: the state resolve is given.
    :param plan: the first combat's plan.
    :param first_turn: resolve's ``first_turn``.
    :raises IllegalActionError: for a state neither at a main phase nor in a
        combat (506.1).
    :raises BadQueryError: for ``first_turn`` in a combat (500.1), or a
        decision for a step already done: naming the step and its rule.
    :raises IllegalBlockError: for an order that isn't one (509.2-509.3 of
        2009-2024: :func:`redzone.kernel.combat.malformed_orders`).

    .. versionadded:: 0.1.0
    """
    step = state.step
    if step in _steps.COMBAT_MAY_BEGIN:
        return
    if not in_combat(ctx, state):
        over = " (its combat is over: the end of combat step is done, 511)" \
            if step == "end_of_combat" else ""
        raise IllegalActionError(
            f"can't resolve a combat from a state at {step!r}{over}: give a state at a main "
            "phase, or in a combat (its beginning, declare attackers or declare blockers "
            "step, a combat damage step or its '_assigned' window)", rule="506.1")
    if first_turn:
        raise BadQueryError(f"first_turn: the state is in a combat (at {step!r}), not at the "
                            "start of the game's first turn", rule="500.1")
    combat = state.combat if state.combat is not None else Combat()
    past = _past_windows(ctx, step)
    if step != "beginning_of_combat":
        _declared(step, "attackers", "508.1", _differing_attacks(combat, plan.attacks))
        if plan.bands and _remaining_bands(combat, plan.bands) != {
                frozenset(b) for b in combat.bands}:
            _declared(step, "attacking bands", "508.1e", ["bands"])
    if "declare_blockers" in past or step == "declare_blockers":
        _declared(step, "blockers", "509.1", _differing_blocks(combat, plan.blocks or {}))
        if ctx.edition.assignment_orders:
            malformed = _combat.malformed_orders(state, plan.order or {})
            if malformed:
                raise IllegalBlockError(malformed)
            _declared(step, "damage assignment orders", "509.2",
                      _differing_orders(combat, plan.order or {}))
    spec = _steps.damage_step_spec(ctx, step)
    if spec is not None:
        later = [s.order for s in ctx.hooks.damage_step_specs.values() if s.order > spec.order]
        if plan.assign and not later:
            _assigned(step, "assign", "510.1")
        if plan.assign_first_strike and not any(o < 0 for o in later):
            _assigned(step, "assign_first_strike", "510.4")
    done = sorted({after for after, _ in plan.actions if after in past})
    if done:
        raise BadQueryError(
            f"actions after {', '.join(map(repr, done))}: those priority windows are past (the "
            f"state is at {step!r}); an action in the window of the step the state is at, or "
            "of a later one, is performed", rule="506.1")


def _past_windows(ctx: Context, step: str) -> frozenset[str]:
    """The priority windows of a turn's first combat phase before ``step``'s
    (the precombat main phase's is the first)."""
    windows = ("precombat_main", *_steps.step_names(ctx))
    return frozenset(windows[:windows.index(step)])


def _differing_attacks(combat: Combat, attacks: Mapping[str, str]) -> list[str]:
    declared = combat.declared
    return [a for a, t in attacks.items() if a not in declared or declared[a] != t]


def _left(combat: Combat) -> frozenset[str]:
    """The creatures that left the combat since it began (506.4), those that
    came back as new objects too (400.7): what was declared for them no
    longer shows in it."""
    return combat.removed | combat.returned


def _remaining_bands(combat: Combat, bands: Sequence[Sequence[str]]) -> set[frozenset[str]]:
    """The declared ``bands`` as the combat keeps them: without the members
    that left combat since, a band of one no band (702.22c)."""
    left = _left(combat)
    kept = (frozenset(m for m in band if m not in left) for band in bands)
    return {band for band in kept if len(band) > 1}


def _differing_blocks(combat: Combat, blocks: Mapping[str, Any]) -> list[str]:
    """The blockers ``blocks`` declares otherwise than the combat: each must
    still block the attackers given, but for those it or they left combat
    since (506.4, even as they came back as new objects, 400.7); effects may
    have made it block more (509.6)."""
    made = combat.blocks
    gone = _left(combat)
    return [b for b, attackers in _combat.normalise_blocks(blocks).items()
            if b not in gone and not (set(attackers) - gone) <= set(made.get(b, ()))]


def _differing_orders(combat: Combat, order: Mapping[str, Sequence[str]]) -> list[str]:
    """The damage assignment orders ``order`` gives otherwise than the
    combat: the creatures of each that are still in the combat's must be in
    the same relative order; a creature that left combat is out of it, and
    one an effect made block was placed in it (509.2a-509.3a, 509.6-509.7)."""
    out = []
    for obj, given in order.items():
        noted = combat.order.get(obj, ())
        reordered = [x for x in given if x in noted] != [x for x in noted if x in given]
        if reordered or any(x not in noted and x not in _left(combat) for x in given):
            out.append(obj)
    return out


def _declared(step: str, what: str, rule: str, differing: Sequence[str]) -> None:
    if differing:
        raise BadQueryError(
            f"{what} are declared already (the state is at {step!r}), and not as given for "
            f"{', '.join(map(repr, differing))}: give none, or the declaration made", rule=rule)


def _assigned(step: str, argument: str, rule: str) -> None:
    raise BadQueryError(
        f"{argument}: combat damage is assigned already in the steps it is for (the state "
        f"is at {step!r}): give none", rule=rule)


__all__ = ["DECLARATION_STEPS", "check", "in_combat"]
