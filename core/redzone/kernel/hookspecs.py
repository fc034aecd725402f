"""The hook specifications: every question the core asks its plugins.

Grouped by the rule they serve (keywords, 302/508 attacks, 509 blocks, 510
damage assignment, 120 the damage pipeline, 704 state-based actions, 511 end
of combat). Each hook is a question whose answers combine without regard to
the order plugins were registered in: "all must agree", "any says yes", "the
smallest wins", "concatenated and sorted". No hook is ``firstresult``.

Plugin implementations are module-level functions decorated with
:data:`redzone.hookimpl`; they may accept any subset of a hook's parameters, by
name, and must not give them defaults. Every ``state`` is a frozen
:class:`~redzone.GameState`: read it, never try to change it. Object
parameters are ids; look them up with ``state.objects[id]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import pluggy

from redzone.kernel.errors import Violation
from redzone.kernel.events import Event
from redzone.kernel.hooktypes import (
    Damage,
    DamageModifier,
    KeywordSpec,
    Prevention,
    Result,
    ResultReplacement,
    SourceAssignment,
    StateBasedAction,
)
from redzone.kernel.model import GameState, Trigger
from redzone.kernel.requirements import Requirement

if TYPE_CHECKING:
    from redzone.kernel.actions import Action

hookspec = pluggy.HookspecMarker("redzone")

# ---------------------------------------------------------------------------
# Keywords (702)
# ---------------------------------------------------------------------------


@hookspec
def redzone_keywords() -> Iterable[KeywordSpec]:
    """Declare the keywords this plugin provides.

    Rules: 702.1

    A keyword string on a permanent (``"toxic 2"``) is matched against every
    declared form (``"toxic {number}"``: typed parameters, parsed by redzone;
    never a regular expression); it must match exactly one keyword name.

    :returns: the :class:`~redzone.KeywordSpec` of each keyword.

    Combined: concatenated; two plugins declaring the same name, or forms
    that can match the same text, is a load error naming both.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Declare attackers step (508, 302.6)
# ---------------------------------------------------------------------------


@hookspec
def redzone_attack_violations(
    state: GameState, attacker: str, attacked: str
) -> Iterable[Violation] | None:
    """Restrictions on one creature attacking one player, planeswalker or battle.

    Rules: 508.1a, 508.1c, 702.3b

    Asked once per declared attacker, after the core's own checks.

    :param state: the state before the declaration.
    :param attacker: the id of the creature declared as an attacker.
    :param attacked: the id of the player, planeswalker or battle it attacks.
    :returns: the restrictions this declaration breaks (empty or ``None``
        when none).

    Combined: concatenated; the declaration is illegal if any remain after
    :func:`redzone_attack_exemption`.
    """
    raise NotImplementedError


@hookspec
def redzone_attack_exemption(
    state: GameState, attacker: str, attacked: str, violation: Violation
) -> bool | None:
    """Whether an ability lets the attacker ignore a restriction.

    Rules: 302.6, 702.10b, 508.1c

    Asked only for violations that name a ``restriction`` (the core's
    summoning-sickness check names ``"summoning_sickness"``; a haste plugin
    answers ``True`` to it).

    :param state: the state before the declaration.
    :param attacker: the attacking creature's id.
    :param attacked: what it attacks.
    :param violation: the restriction it would break.
    :returns: ``True`` to lift the restriction.

    Combined: any ``True`` lifts it.
    """
    raise NotImplementedError


@hookspec
def redzone_attack_declaration_violations(
    state: GameState, attacks: Mapping[str, str]
) -> Iterable[Violation] | None:
    """Restrictions and requirements on the whole declaration of attackers.

    Rules: 508.1c, 508.1d

    For rules that look at the declaration as a whole ("can't attack alone",
    "attacks each combat if able").

    :param state: the state before the declaration.
    :param attacks: every declared attacker -> what it attacks.
    :returns: the violations of the whole declaration.

    Combined: concatenated.
    """
    raise NotImplementedError


@hookspec
def redzone_attack_requirements(state: GameState) -> Iterable[Requirement] | None:
    """Requirements on the declaration of attackers ("attacks each combat if able").

    Rules: 508.1d

    The declaration must obey as many requirements as possible without
    breaking a restriction; costs to attack are never required to be paid.

    :param state: the state before the declaration.
    :returns: the requirements (kind ``"attack"``).

    Combined: concatenated; duplicates count once.
    """
    raise NotImplementedError


@hookspec
def redzone_can_band(state: GameState, band: tuple[str, ...]) -> bool | None:
    """Whether these attacking creatures may form an attacking band.

    Rules: 508.1e, 702.22c

    The core checks that they all attack and attack the same thing (702.22d)
    and that no creature is in two bands; a band needs a plugin's approval.

    :param state: the state before the declaration.
    :param band: the creatures of the proposed band, in the order given.
    :returns: ``True`` if their abilities let them band.

    Combined: any ``True``.
    """
    raise NotImplementedError


@hookspec
def redzone_attacks_without_tapping(state: GameState, attacker: str) -> bool | None:
    """Whether declaring this creature as an attacker does not tap it.

    Rules: 508.1f, 702.20b

    :param state: the state after the declaration was found legal.
    :param attacker: the attacking creature's id.
    :returns: ``True`` if it does not become tapped.

    Combined: any ``True``.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Declare blockers step (509)
# ---------------------------------------------------------------------------


@hookspec
def redzone_block_violations(
    state: GameState, blocker: str, attacker: str
) -> Iterable[Violation] | None:
    """Restrictions on one creature blocking one attacking creature.

    Rules: 509.1a, 509.1b, 702.9b, 702.16f

    Asked once per declared (blocker, attacker) pair.

    :param state: the state before the declaration.
    :param blocker: the id of the declared blocker.
    :param attacker: the id of the attacking creature it blocks.
    :returns: the restrictions this pair breaks; give a violation a
        ``restriction`` name when another ability may lift it.

    Combined: concatenated; the declaration is illegal if any remain after
    :func:`redzone_block_exemption`.
    """
    raise NotImplementedError


@hookspec
def redzone_block_exemption(
    state: GameState, blocker: str, attacker: str, violation: Violation
) -> bool | None:
    """Whether an ability lets the blocker ignore a named restriction.

    Rules: 509.1b, 702.17b

    A reach plugin answers ``True`` for the ``"flying"`` restriction.

    :param state: the state before the declaration.
    :param blocker: the blocker's id.
    :param attacker: the attacker's id.
    :param violation: a violation with a ``restriction`` name.
    :returns: ``True`` to lift it.

    Combined: any ``True`` lifts it.
    """
    raise NotImplementedError


@hookspec
def redzone_blocked_by_violations(
    state: GameState, attacker: str, blockers: tuple[str, ...]
) -> Iterable[Violation] | None:
    """Restrictions on how many or which creatures together block an attacker.

    Rules: 509.1b, 702.111b

    Asked once per blocked attacker with all of its declared blockers ("can't
    be blocked except by two or more creatures").

    :param state: the state before the declaration.
    :param attacker: the attacking creature's id.
    :param blockers: every creature declared to block it, in declaration order.
    :returns: the violations.

    Combined: concatenated.
    """
    raise NotImplementedError


@hookspec
def redzone_block_declaration_violations(
    state: GameState, blocks: Mapping[str, tuple[str, ...]]
) -> Iterable[Violation] | None:
    """Restrictions and requirements on the whole declaration of blockers.

    Rules: 509.1b, 509.1c

    :param state: the state before the declaration.
    :param blocks: every declared blocker -> the attackers it blocks.
    :returns: the violations of the whole declaration.

    Combined: concatenated.
    """
    raise NotImplementedError


@hookspec
def redzone_block_requirements(state: GameState) -> Iterable[Requirement] | None:
    """Requirements on the declaration of blockers ("blocks each combat if
    able", "must be blocked if able", "all creatures able to block it do so",
    provoke).

    Rules: 509.1c, 702.39a

    :param state: the state before the declaration (attackers declared).
    :returns: the requirements (kinds ``"block"``, ``"block_attacker"``,
        ``"be_blocked"``).

    Combined: concatenated; duplicates count once.
    """
    raise NotImplementedError


@hookspec
def redzone_additional_blocks(state: GameState, blocker: str) -> int | None:
    """How many creatures beyond one this creature can block.

    Rules: 509.1a, 702.22 (block capacity)

    :param state: the state before the declaration.
    :param blocker: the blocker's id.
    :returns: the number of additional attackers (``redzone.UNLIMITED`` for
        "any number").

    Combined: summed with the permanent's own ``can_block_additional``.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Combat damage step: who deals damage, and assignment (510)
# ---------------------------------------------------------------------------


@hookspec
def redzone_deals_damage_early(state: GameState, creature: str) -> bool | None:
    """Whether a combatant deals its combat damage in a first combat damage step.

    Rules: 510.4, 702.7b, 702.4b

    Asked of each attacking and blocking creature as the combat damage step
    begins. If any answer ``True``, the phase gets a first combat damage step
    in which only those creatures deal damage; the core records them.

    :param state: the state as the step begins.
    :param creature: an attacking or blocking creature's id.
    :returns: ``True`` if it deals damage in the first step.

    Combined: any ``True``.
    """
    raise NotImplementedError


@hookspec
def redzone_deals_damage_again(state: GameState, creature: str) -> bool | None:
    """Whether a creature that dealt damage in the first step deals damage in
    the second one too.

    Rules: 510.4, 702.4c, 702.4d

    Asked, as the second combat damage step begins, of each remaining
    combatant the core recorded as dealing damage in the first step; read
    from the creature's current abilities.

    :param state: the state as the second step begins.
    :param creature: the creature's id.
    :returns: ``True`` if it also deals damage now.

    Combined: any ``True``.
    """
    raise NotImplementedError


@hookspec
def redzone_assigns_past_blockers(state: GameState, attacker: str) -> bool | None:
    """Whether a blocked attacker may assign damage to what it attacks.

    Rules: 510.1c, 702.19b, 702.19d

    When ``True`` the player, planeswalker or battle it attacks is a legal
    recipient of its damage, also when no creature blocks it any more;
    :func:`redzone_assignment_violations` states what must come first.

    :param state: the state as damage is assigned.
    :param attacker: a blocked attacking creature's id.
    :returns: ``True`` to allow it.

    Combined: any ``True``.
    """
    raise NotImplementedError


@hookspec
def redzone_additional_recipients(state: GameState, attacker: str) -> Iterable[str] | None:
    """Further legal recipients of an attacking creature's combat damage.

    Rules: 510.1b, 510.1c, 702.19c, 702.19e

    Beyond the creatures blocking it and (unblocked, or when
    :func:`redzone_assigns_past_blockers` allows it) what it attacks: trample
    over planeswalkers adds the attacked planeswalker's controller, or the
    defending player once that planeswalker was removed from combat. Asked of
    each attacking creature that would assign combat damage, blocked or not,
    also when it attacks nothing any more (506.4c): an answer then gives it
    something to assign to. :func:`redzone_assignment_violations` states what
    must come first (``SourceAssignment.additional`` lists these recipients,
    ``SourceAssignment.others`` what other creatures assign to each).

    :param state: the state as damage is assigned.
    :param attacker: an attacking creature's id.
    :returns: ids of players, planeswalkers, battles or creatures.

    Combined: the union, in id order; ids that are already legal recipients,
    and players who left the game or permanents that can't be dealt damage,
    are dropped.
    """
    raise NotImplementedError


@hookspec
def redzone_damage_divider(state: GameState, creature: str) -> str | None:
    """The player who divides this combatant's combat damage, when it is not
    its controller.

    Rules: 702.22j, 702.22k, 510.1c, 510.1d

    When another player divides it, the damage is divided as that player
    chooses among the creatures it is blocking or blocked by, and only among
    them: the procedure of 510.1c-d is waived (lethal damage first, and
    assigning past the blockers), so assignment-validation hooks are not asked.

    :param state: the state as damage is assigned.
    :param creature: an attacking or blocking creature's id.
    :returns: the player's id, or ``None``.

    Combined: the answers other than ``None``; several different ones are an
    error.
    """
    raise NotImplementedError


@hookspec
def redzone_lethal_damage(state: GameState, source: str, creature: str) -> int | None:
    """Lethal damage from a source to a creature, for assignment.

    Rules: 702.2c, 702.19b, 510.1c

    The core's value is the creature's toughness minus damage already marked
    and minus damage other sources assign to it in the same step; a plugin
    may give a smaller one (deathtouch: 1).

    :param state: the state as damage is assigned.
    :param source: the assigning creature's id.
    :param creature: the creature receiving the assignment.
    :returns: a candidate lethal amount, or ``None``.

    Combined: the smallest of the core's value and every answer (never below 0).
    """
    raise NotImplementedError


@hookspec
def redzone_assignment_violations(
    state: GameState, assignment: SourceAssignment
) -> Iterable[Violation] | None:
    """Check one creature's proposed combat damage assignment.

    Rules: 510.1c, 510.1d, 510.1e, 702.19b

    The core has already checked the amounts add up to its power and go only
    to legal recipients; plugins add their own conditions (trample: lethal to
    every blocker before any to what it attacks).

    :param state: the state as damage is assigned.
    :param assignment: the creature's assignment and the lethal amounts.
    :returns: the violations.

    Combined: concatenated; the whole assignment is rejected if any exist.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# The damage pipeline (120.4)
# ---------------------------------------------------------------------------


@hookspec
def redzone_prevent_damage(state: GameState, damage: Damage) -> Iterable[Prevention] | None:
    """Prevention effects that apply to one damage about to be dealt.

    Rules: 120.4b, 615.1, 702.16e

    :param state: the state as damage is dealt (shields already used by
        earlier damage of the same batch are used up).
    :param damage: the damage as proposed.
    :returns: the preventions that apply.

    Combined: all apply; one that prevents all wins; amounts add up.
    """
    raise NotImplementedError


@hookspec
def redzone_modify_damage(state: GameState, damage: Damage) -> Iterable[DamageModifier] | None:
    """Replacement effects that change how much damage a source deals.

    Rules: 120.4b, 614.1a, 616.1

    :param state: the state as damage is dealt.
    :param damage: the damage after prevention (only asked when not 0).
    :returns: the modifiers that apply.

    Combined: applied in order of effect name, each once (614.5).
    """
    raise NotImplementedError


@hookspec
def redzone_damage_results(state: GameState, damage: Damage) -> Iterable[Result] | None:
    """Results of dealt damage beyond, or instead of, the usual ones.

    Rules: 120.3, 120.4c, 702.15b, 702.80c, 702.90b-c, 702.2b, 111.2, 701.7a

    The core's results are life loss (players), marked damage (creatures),
    loyalty and defense removal. A plugin adds results (lifelink's life gain)
    or replaces a usual one (infect's poison replaces ``life_loss``). A
    ``create`` result puts tokens onto the battlefield, as Squirrellink's
    Squirrels: ``Result("create", rule, damage.source, damage.amount,
    token=Permanent(...))``; result replacements see it like any other
    (a token doubler multiplies its ``amount``).

    :param state: the state before the batch's results are applied.
    :param damage: the damage dealt (never 0).
    :returns: results to add; a result with ``replaces`` removes the usual
        result of that kind.

    Combined: concatenated, identical results counted once; life gain from one
    source in one damage event is summed into one result (702.15b).
    """
    raise NotImplementedError


@hookspec
def redzone_result_replacements(
    state: GameState, result: Result
) -> Iterable[ResultReplacement] | None:
    """Replacement effects on one result of damage.

    Rules: 120.4c, 614.1a, 614.5

    Boon Reflection doubles life gain; Worship keeps damage from reducing life
    below 1.

    :param state: the state as the result is about to be applied.
    :param result: the result.
    :returns: the replacements that apply.

    Combined: applied in order of effect name, each once (614.5).
    """
    raise NotImplementedError


@hookspec
def redzone_damage_event(
    state: GameState, damage: tuple[Damage, ...], results: tuple[Result, ...]
) -> None:
    """Notification: a damage event occurred.

    Rules: 120.4d, 510.2, 603.2

    Called once per batch of simultaneous damage, after the state was
    committed; for triggered abilities and logging. Must not raise.

    :param state: the state after the event's results.
    :param damage: every damage dealt in the event.
    :param results: every result applied.

    Combined: every implementation is called; answers are ignored.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# State-based actions (704)
# ---------------------------------------------------------------------------


@hookspec
def redzone_state_based_actions(state: GameState) -> Iterable[StateBasedAction] | None:
    """State-based actions beyond the core's.

    Rules: 704.3, 704.5h

    The core checks 704.5a, 704.5c, 704.5f, 704.5g, 704.5i, 704.5q, 704.5v-w.

    :param state: the state being checked.
    :returns: the actions to perform, all at once.

    Combined: concatenated; duplicates count once.
    """
    raise NotImplementedError


@hookspec
def redzone_cannot_be_destroyed(state: GameState, permanent: str) -> bool | None:
    """Whether a permanent can't be destroyed right now.

    Rules: 702.12b, 701.8

    :param state: the state being checked.
    :param permanent: the permanent's id.
    :returns: ``True`` if destruction does nothing to it.

    Combined: any ``True``.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Triggered abilities (603)
# ---------------------------------------------------------------------------


@hookspec
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> Iterable[Trigger] | None:
    """Abilities that trigger on what just happened.

    Rules: 603.2, 603.3b, 508.3, 509.3, 510.3a, 511.2

    Asked once for each batch of events a command produces (a declaration, a
    combat damage step with its state-based actions, an action, the start of
    a step), with the events of the whole batch: "attacks alone" is one
    ``attack`` event in the declaration's batch; "becomes blocked by a
    creature" is each ``block`` event; "isn't blocked" is an ``unblocked``
    event; "deals combat damage to a player" a ``damage`` event with
    ``combat`` set and a player as ``target``; "at end of combat" the
    ``step`` event of step ``end_of_combat``.

    :param state: the state after the events (read the trigger's source from
        ``state.last_known`` if it may have left).
    :param events: the batch, in order.
    :returns: the abilities that triggered (leave ``id`` empty).

    Combined: concatenated; the core puts them on the stack in APNAP order
    (603.3b), each player's in the order they triggered.
    """
    raise NotImplementedError


@hookspec
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> Iterable[Action] | None:
    """What a triggered ability does as it resolves.

    Rules: 608.2, 603.3

    Only the plugin that created a trigger of that ``kind`` should answer.

    :param state: the state as it resolves.
    :param trigger: the trigger, with any ``choices`` the embedding engine made.
    :returns: the actions it performs, in order (e.g. :class:`redzone.Pump`);
        an action that has become impossible is skipped (608.2b).
    :raises IllegalActionError: when the trigger's ``choices`` are illegal
        (say, permanents its player doesn't control); it reaches the caller
        of :meth:`redzone.Engine.resolve_trigger` as it is, and nothing
        changes.

    Combined: concatenated in plugin-name order.
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# End of combat (511)
# ---------------------------------------------------------------------------


@hookspec
def redzone_end_of_combat(state: GameState) -> None:
    """Notification: the combat phase ended and everything left combat.

    Rules: 511.3

    :param state: the state after 511.3.

    Combined: every implementation is called; answers are ignored.
    """
    raise NotImplementedError
