"""The hook specifications: every question the core asks its plugins.

Listed in the order the kernel asks them: the declarations read as an
engine is made (702 keywords, actions, 510.4 damage steps), then a
combat's course: 508 attacks, 509 blocks, 510 damage assignment, the 120.4
damage pipeline, after every action the 704 state-based actions and the
events and triggered abilities (120.4d, 603), and 511 the end of combat.

Each hook is a question whose answers combine without regard to the order
plugins were registered in: "all must agree", "any says yes", "the smallest
wins", "concatenated and sorted". No hook is ``firstresult``.

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
from redzone.kernel.events import Event, EventKind
from redzone.kernel.hooktypes import (
    ActionSpec,
    ActivatedAbility,
    Damage,
    DamageModifier,
    DamageStep,
    DestructionReplacement,
    KeywordSpec,
    Prevention,
    Redirection,
    Result,
    ResultReplacement,
    SourceAssignment,
    StateBasedAction,
)
from redzone.kernel.model import Choice, Condition, GameState, PluginState, Trigger
from redzone.kernel.requirements import Requirement

if TYPE_CHECKING:
    from redzone.kernel.hooktypes import Action

hookspec = pluggy.HookspecMarker("redzone")

#: Marks a plugin's function as the implementation of the hook it is named after.
hookimpl = pluggy.HookimplMarker("redzone")

# ---------------------------------------------------------------------------
# Declarations, asked as the engine is made (702.1, 117.1, 510.4)
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

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_actions() -> Iterable[ActionSpec]:
    """Declare the action kinds this plugin provides.

    Rules: 117.1, 608.2

    An action kind is a frozen :class:`~redzone.kernel.hooktypes.Action`
    subclass and the function that performs it on a command's working copy.
    The kernel validates it (the type of every field), performs it, runs
    state-based actions after it and names the plugin when it fails. Scenario
    files use it by its ``do`` name, with its fields as keys.

    :returns: the :class:`~redzone.kernel.hooktypes.ActionSpec` of each kind.

    Combined: concatenated; two plugins declaring the same ``do`` name, or
    one that the kernel declares, is a load error naming both.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_activated_abilities() -> Iterable[ActivatedAbility]:
    """Declare the activated abilities this plugin's keywords give.

    Rules: 602.1, 602.2, 602.5

    An ability is named after its keyword (ninjutsu's is ``"ninjutsu"``):
    every object with that keyword has it. The kernel activates it for
    :meth:`redzone.Engine.activate` and a scenario file's ``do = "activate"``
    (the :class:`~redzone.kernel.abilities.Activate` action): it refuses an
    activation from the wrong zone (113.6), by a player who doesn't control
    the source (602.2), outside the ability's steps, with a cost's choice
    missing, unknown, of the wrong type or naming what isn't there, or that
    the ability's ``restrictions`` refuse (602.5), each naming its rule and
    changing nothing; else it records the ``activate`` event and calls the
    ability's ``perform``, which pays the cost and does the effect.

    :returns: the :class:`~redzone.ActivatedAbility` of each ability.

    Combined: concatenated; two plugins declaring the same name is a load
    error naming both.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_damage_steps() -> Iterable[DamageStep]:
    """Declare the combat damage steps this plugin adds to the combat phase.

    Rules: 510.4, 702.7b, 702.4b

    The kernel knows one combat damage step, the regular one
    (``combat_damage``, order 0), which always happens. A declared step
    happens in a combat when, as it would begin, at least one remaining
    attacking or blocking creature deals combat damage in it
    (:func:`redzone_deals_combat_damage`); the steps come in order of their
    ``order``, each asked only once the previous one is over (510.4: "as the
    combat damage step begins"). First strike declares
    ``DamageStep("first_strike_damage", -1, "510.4")``.

    :returns: the :class:`~redzone.kernel.hooktypes.DamageStep` of each step.

    Combined: concatenated; identical declarations count once. A name that
    doesn't end in ``_damage``, the kernel's name or order (``combat_damage``,
    0), one name with two orders, or two names with one order is a load error
    naming the plugins.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_event_kinds() -> Iterable[EventKind]:
    """Declare the kinds of event this plugin emits, so that every rendering
    words them as the plugin does.

    Rules: 603.2, 702.1

    An event's kind is declared once, with its rule, its fields, its phrase
    (a template such as ``"{source} enlists {object}"``, or a function of
    the event and a namer) and its properties (``leaves_battlefield``,
    ``tone``). ``str(event)``, the terminal account, the HTML report, the
    notebook tables and the conformance kit read the declaration; an
    undeclared kind still reads as its name and values.

    :returns: the :class:`~redzone.EventKind` of each kind.

    Combined: concatenated; identical declarations count once. A kind the
    kernel or another plugin declares differently, or a data field named
    like one of :class:`~redzone.Event`'s own, is a load error naming the
    plugin.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Beginning phase (502, 503, 504)
# ---------------------------------------------------------------------------


@hookspec
def redzone_keeps_tapped(state: GameState, permanent: str) -> bool | None:
    """Whether this permanent doesn't untap during its controller's untap
    step ("doesn't untap during your untap step"; an exerted creature).

    Rules: 502.3, 701.43

    Asked in the untap step, for each tapped permanent the active player
    (in shared team turns, a player of the active team) controls, before
    they all untap at once. The kernel answers ``True`` itself for a
    permanent that a ``doesnt_untap`` :class:`~redzone.Effect` applies to
    (``to``), such as one lasting until ``next_untap_step``.

    :param state: the state in the untap step, before anything untaps.
    :param permanent: the tapped permanent's id.
    :returns: ``True`` if it stays tapped.

    Combined: any ``True``.

    Gated: on the objects it is asked about (``permanent``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Asked once per declared attacker, after the core's own checks. When
    what it is declared to attack is no player or permanent, it is asked
    with each player, planeswalker and battle the creature could attack,
    and the error lists the restrictions found for every one (those it
    holds whatever it attacks, such as defender's).

    :param state: the state before the declaration.
    :param attacker: the id of the creature declared as an attacker.
    :param attacked: the id of the player, planeswalker or battle it attacks.
    :returns: the restrictions this declaration breaks (empty or ``None``
        when none).

    Combined: concatenated; the declaration is illegal if any remain after
    :func:`redzone_attack_exemption`.

    Gated: on the objects it is asked about (``attacker`` and ``attacked``): a
    plugin that declares keywords is asked only when one of them has one (an object
    off the battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_attack_exemption(
    state: GameState, attacker: str, attacked: str, violation: Violation
) -> bool | None:
    """Whether an ability lets the attacker ignore a restriction.

    Rules: 302.6, 702.10b, 508.1c

    Asked only for violations that name a ``restriction`` (the core's
    summoning-sickness check names ``"summoning_sickness"``, and a haste
    plugin answers ``True`` to it; its check of a tapped creature names
    ``"tapped"``, 508.1a).

    :param state: the state before the declaration.
    :param attacker: the attacking creature's id.
    :param attacked: what it attacks.
    :param violation: the restriction it would break.
    :returns: ``True`` to lift the restriction.

    Combined: any ``True`` lifts it.

    Gated: on the objects it is asked about (``attacker`` and ``attacked``): a
    plugin that declares keywords is asked only when one of them has one (an object
    off the battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    .. versionadded:: 0.1.0
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

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (the band's members): a plugin that
    declares keywords is asked only when one of them has one (an object off the
    battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (``attacker``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_attack_choices(state: GameState,
                           attacks: Mapping[str, str]) -> Iterable[Choice] | None:
    """The options and costs the attacking player chooses as attackers are
    declared ("as this creature attacks, you may tap ...", enlist).

    Rules: 508.1g, 508.1h

    Asked once the declaration is legal and the attackers are tapped. Each
    choice's ``then`` maps an option to the actions that choosing it performs
    (the cost paid); its ``default`` is what redzone takes without an answer.
    Give each a stable ``key`` (``"enlist:knight"``); one left empty becomes
    ``"<plugin name>:<name>"``, which depends on the name the plugin is
    registered under.

    :param state: the state with the attackers declared.
    :param attacks: attacking creature -> what it attacks.
    :returns: the choices, each with its options and default.

    Combined: concatenated in plugin-name order; each is made in turn and the
    actions of the options chosen are performed for its plugin.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Declare blockers step (509)
# ---------------------------------------------------------------------------


@hookspec
def redzone_additional_blocks(state: GameState, blocker: str) -> int | None:
    """How many creatures beyond one this creature can block.

    Rules: 509.1a (each blocker blocks one creature, unless an effect lets
    it block more), 509.1b

    :param state: the state before the declaration.
    :param blocker: the blocker's id.
    :returns: the number of additional attackers (``redzone.UNLIMITED`` for
        "any number").

    Combined: summed with the permanent's own ``can_block_additional``.

    Gated: on the objects it is asked about (``blocker``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


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

    Gated: on the objects it is asked about (``blocker`` and ``attacker``): a plugin
    that declares keywords is asked only when one of them has one (an object off the
    battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_block_exemption(
    state: GameState, blocker: str, attacker: str, violation: Violation
) -> bool | None:
    """Whether an ability lets the blocker ignore a named restriction.

    Rules: 509.1a, 509.1b, 702.17b

    A reach plugin answers ``True`` for the ``"flying"`` restriction. The
    core's check of a tapped blocker names ``"tapped"`` (509.1a): an ability
    that lets a creature block as though it were untapped answers ``True``
    to it, and is asked about each attacking creature the blocker blocks.

    :param state: the state before the declaration.
    :param blocker: the blocker's id.
    :param attacker: the attacker's id.
    :param violation: a violation with a ``restriction`` name.
    :returns: ``True`` to lift it.

    Combined: any ``True`` lifts it.

    Gated: on the objects it is asked about (``blocker`` and ``attacker``): a plugin
    that declares keywords is asked only when one of them has one (an object off the
    battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (``attacker`` and ``blockers``): a
    plugin that declares keywords is asked only when one of them has one (an object
    off the battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    .. versionadded:: 0.1.0
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

    Combined: concatenated; requirements equal in every field count once
    (two plugins may answer the same one); give each effect's requirement
    its ``instance`` (the effect's id) so that two effects count twice.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_block_choices(state: GameState,
                          blocks: Mapping[str, tuple[str, ...]]) -> Iterable[Choice] | None:
    """The options and costs the defending player chooses as blockers are
    declared.

    Rules: 509.1d, 509.1e, 509.1f

    :param state: the state with the blockers declared.
    :param blocks: blocking creature -> the attackers it blocks.
    :returns: the choices, each with its options and default.

    Combined: concatenated in plugin-name order; each is made in turn and the
    actions of the options chosen are performed for its plugin.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Combat damage step: who deals damage, and assignment (510)
# ---------------------------------------------------------------------------


@hookspec
def redzone_deals_combat_damage(state: GameState, creature: str, step: str) -> bool | None:
    """Whether an attacking or blocking creature deals combat damage in a step.

    Rules: 510.4, 702.7b, 702.7c, 702.4b, 702.4c, 702.4d

    Asked of each remaining attacking and blocking creature as a combat
    damage step would begin (for a declared step, also to learn whether the
    step happens at all). The kernel records who dealt damage in each step
    (``Combat.damage_steps``). Its own answer, when no plugin has one: in the
    regular step (``combat_damage``), a creature that dealt combat damage in
    no earlier step of this combat (under an edition with
    ``second_step_by_assignment``: that assigned none, 310.5 of 1999-2009);
    in every other step, no. First strike answers ``True`` in
    ``first_strike_damage``; double strike also in ``combat_damage``, read
    from its current abilities (702.4c-d).

    :param state: the state as the step would begin.
    :param creature: an attacking or blocking creature's id.
    :param step: the step's name.
    :returns: ``True`` if it deals combat damage in that step, ``False`` if it
        doesn't whatever the kernel or other plugins say, ``None`` to leave
        it to them.

    Combined: any ``False`` -> no; else any ``True`` -> yes; else the
    kernel's answer.

    Static: the combined answer is kept by ``step`` and the creature's id and
    characteristics (:attr:`~redzone.Permanent.characteristics`), and asked
    again when they change. An implementation whose answer reads more (the
    combat, other objects, players, the creature's status) declares it with
    :func:`redzone.dynamic`.

    Gated: on the objects it is asked about (``creature``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_combat_damage_amount(state: GameState, creature: str, step: str) -> int | None:
    """How much combat damage a creature assigns, when it isn't its power.

    Rules: 510.1a

    "Assigns combat damage equal to its toughness rather than its power"
    (Doran, the Siege Tower) answers the toughness; "assigns no combat damage
    this turn" (Laccolith Grunt) and "can't deal combat damage" answer 0. A
    creature that would assign 0 or less assigns no combat damage at all,
    and an assignment given for it that names an amount is illegal (510.1a).

    :param state: the state as damage is assigned.
    :param creature: an attacking or blocking creature that deals combat
        damage in this step.
    :param step: the combat damage step's name.
    :returns: the amount it assigns, or ``None``.

    Combined: the smallest answer (so that "assigns no combat damage" wins
    over "equal to its toughness"); with no answer, its power.

    Gated: on the objects it is asked about (``creature``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Static: the combined answer is kept by the attacker's id and
    characteristics (:attr:`~redzone.Permanent.characteristics`), and asked
    again when they change. An implementation whose answer reads more (the
    combat, other objects, players, the attacker's status) declares it with
    :func:`redzone.dynamic`.

    Gated: on the objects it is asked about (``attacker``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_may_assign_as_though_unblocked(state: GameState, attacker: str) -> bool | None:
    """Whether a blocked attacker's controller may have it assign its combat
    damage as though it weren't blocked.

    Rules: 510.1c, 510.1b

    Thorn Elemental, Siege Behemoth. When ``True``, the attacking player
    chooses: an assignment that gives all of its damage to what it attacks is
    the "as though it weren't blocked" choice (510.1b applies, and
    assignment-validation hooks such as trample's are not asked); any other
    assignment is an ordinary blocked one (510.1c). The default policy
    assigns as blocked; with no creature blocking it any more, as though it
    weren't blocked (the only way it assigns damage).

    :param state: the state as damage is assigned.
    :param attacker: a blocked attacking creature's id.
    :returns: ``True`` if its controller may choose so.

    Combined: any ``True``.

    Gated: on the objects it is asked about (``attacker``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (``attacker``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (``creature``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_lethal_damage(state: GameState, source: str, creature: str) -> int | None:
    """Lethal damage from a source to a creature, for assignment.

    Rules: 702.2c, 702.19b, 510.1c

    The core's value is the creature's toughness minus damage already marked
    and minus damage other sources assign to it in the same step; a plugin
    may give a smaller one (deathtouch: 1). The core also asks it for each
    other creature assigning to the same creature in the step: when that
    creature's amount is at least its own lethal damage, the creature is
    already assigned lethal damage and needs 0 more from anyone.

    :param state: the state as damage is assigned.
    :param source: the assigning creature's id.
    :param creature: the creature receiving the assignment.
    :returns: a candidate lethal amount, or ``None``.

    Combined: the smallest of the core's value and every answer (never below 0).

    Static: the combined answer is kept by the core's value and the ids and
    characteristics (:attr:`~redzone.Permanent.characteristics`) of the
    source and the creature, and asked again when they change. An
    implementation whose answer reads more (the combat, other objects,
    players, damage marked) declares it with :func:`redzone.dynamic`.

    Gated: on the objects it is asked about (``source`` and ``creature``): a plugin
    that declares keywords is asked only when one of them has one (an object off the
    battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (the assignment's ``source``): a plugin
    that declares keywords is asked only when one of them has one (an object off the
    battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# The damage pipeline (120.4)
# ---------------------------------------------------------------------------


@hookspec
def redzone_redirect_damage(state: GameState, damage: Damage) -> Iterable[Redirection] | None:
    """Redirection effects: damage that would be dealt to one recipient is
    dealt to another instead.

    Rules: 614.9, 614.5, 616.1

    Asked for each damage of a batch before prevention, so that the new
    recipient's protection, prevention shields and results apply, and the
    ``damage`` event names it; a ``redirected`` event (``object``: the
    original recipient, ``target``: the new one) says what happened. Asked
    again of the redirected damage, without the effects that already
    applied to it. An effect whose new recipient is no longer on the
    battlefield, is no longer a battle, creature or planeswalker, or is a
    player who has left the game does nothing (614.9).

    :param state: the state as damage is dealt.
    :param damage: the damage as proposed.
    :returns: the redirections that apply.

    Combined: one applies at a time, each at most once to a damage (614.5),
    before prevention and the replacements of the amount. Of two or more
    that would send the damage to different recipients, the affected player
    (the recipient's controller) chooses which applies (616.1): a choice
    keyed ``redirect@<source>:<recipient>`` among the effects' names, the
    first by effect name by default. Where a redirection falls among the
    recipient's prevention effects and replacements of the amount, which
    616.1 would also let the player choose, isn't asked: redirections apply
    first.

    Gated: on the objects it is asked about (the damage's ``source`` and
    ``target``): a plugin that declares keywords is asked only when one of them has
    one (an object off the battlefield lets the state decide), unless its
    implementation is marked :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_prevent_damage(
    state: GameState, damage: Damage, batch: tuple[Damage, ...], step: str
) -> Iterable[Prevention] | None:
    """Prevention effects that apply to one damage about to be dealt.

    Rules: 120.4b, 615.1, 702.16e

    Asked for each damage of a batch, in the batch's order, after
    redirection (614.9). An effect that prevents "the first N damage" counts
    what it prevented in earlier commands in its own plugin state
    (a :class:`~redzone.Slot`, written by :func:`redzone_record` from the
    ``prevented`` events), and what it prevents earlier in this batch from
    ``batch``: ``damage`` is one of its items (the same object), so its
    position is ``next(i for i, d in enumerate(batch) if d is damage)``.
    Implementations may leave out ``batch`` and ``step``.

    :param state: the state as damage is dealt (shields already used by
        earlier damage of the same batch are used up).
    :param damage: the damage as proposed (after redirection).
    :param batch: every damage of the batch, as proposed (after
        redirection), in the order they are processed.
    :param step: the step the batch is dealt in.
    :returns: the preventions that apply.

    Combined: all apply; one that prevents all wins; amounts add up. They
    apply with the state's shields and the replacements of the amount in
    the order the affected player chooses (616.1), by default first.

    Gated: on the objects it is asked about (the damage's ``source`` and
    ``target``): a plugin that declares keywords is asked only when one of them has
    one (an object off the battlefield lets the state decide), unless its
    implementation is marked :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_modify_damage(state: GameState, damage: Damage) -> Iterable[DamageModifier] | None:
    """Replacement effects that change how much damage a source deals.

    Rules: 120.4b, 614.1a, 616.1

    :param state: the state as damage is dealt.
    :param damage: the damage as proposed, after redirection and before
        prevention: every effect that would modify it is known before any
        applies, so that the affected player can order them (616.1).
    :returns: the modifiers that apply.

    Combined: applied in order of effect name, each once (614.5), after
    prevention unless the affected player orders them otherwise (616.1),
    and only to damage prevention left (616.1f).

    Gated: on the objects it is asked about (the damage's ``source`` and
    ``target``): a plugin that declares keywords is asked only when one of them has
    one (an object off the battlefield lets the state decide), unless its
    implementation is marked :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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
    token=Permanent(id="squirrellink", ...))``, the template's id naming the
    keyword (the tokens are ``<source id>.<keyword>.<n>``); result
    replacements see it like any other (a token doubler multiplies its
    ``amount``).

    :param state: the state before the batch's results are applied.
    :param damage: the damage dealt (never 0).
    :returns: results to add; a result with ``replaces`` removes the usual
        result of that kind.

    Combined: concatenated, identical results counted once; life gain from one
    source in one damage event is summed into one result (702.15b).

    Static: the combined answer is kept by the damage's fields and the ids
    and characteristics (:attr:`~redzone.Permanent.characteristics`) of its
    source and its target (a player: by its id), and asked again when they
    change. An implementation whose answer reads more (the combat, other
    objects, a player's life or counters, the damage batch) declares it with
    :func:`redzone.dynamic`.

    Gated: on the objects it is asked about (the damage's ``source`` and
    ``target``): a plugin that declares keywords is asked only when one of them has
    one (an object off the battlefield lets the state decide), unless its
    implementation is marked :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    Asked again about the result each replacement makes: an effect applies
    only while it still would (616.1f), and one that comes to apply is
    added (616.2). To find whether their order matters, redzone also asks
    about (and calls the replacements on) the results of orders it doesn't
    take: answers and replacements must depend only on what they are given.

    Combined: each applied once (614.5), to what the ones before it made.
    When two or more apply and their order changes the result, the
    affected player (the affected permanent's controller; for tokens, the
    player who creates them) chooses it (616.1): a choice keyed
    ``result_order@<player or permanent>:<kind>`` among the effects' names,
    by effect name by default; an effect that comes to apply follows them.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Durations and state-based actions, after every action (611.2b, 704, 701.8)
# ---------------------------------------------------------------------------


@hookspec
def redzone_condition_holds(state: GameState, condition: Condition) -> bool | None:
    """Whether a "for as long as" condition still holds.

    Rules: 611.2b

    Asked after every command for each effect, shield and modification whose
    duration is ``while`` and whose condition's kind is not one the kernel
    answers itself (``on_battlefield``, ``controls``, ``in_combat``). The
    plugin that states the kind answers; the others answer ``None``.

    :param state: the state after the command.
    :param condition: the condition.
    :returns: ``True`` while it holds, ``False`` once it doesn't, ``None``
        when the kind isn't this plugin's.

    Combined: it holds only if some plugin says ``True`` and none says
    ``False``; a condition no plugin answers is an error naming its kind.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_state_based_actions(state: GameState) -> Iterable[StateBasedAction] | None:
    """State-based actions beyond the core's.

    Rules: 704.3, 704.5h, 704.5j

    The core checks 704.5a, 704.5c, 704.5f, 704.5g, 704.5i, 704.5j (the
    legend rule), 704.5q, 704.5v-w.

    An action that asks its player to choose what it spares, as the legend
    rule does, carries the choice as data (``keep``, a
    :class:`~redzone.Choice` among permanents): the kernel asks it and
    performs the action on each option not chosen.

    :param state: the state being checked.
    :returns: the actions to perform, all at once.

    Combined: concatenated; duplicates count once.

    Asked at every check, this looks at the whole state each time: an
    action about one permanent that depends on that permanent alone
    belongs in :func:`redzone_permanent_state_based_actions`, which is
    asked only about the permanents that changed.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_permanent_state_based_actions(
        state: GameState, permanents: tuple[str, ...]) -> Iterable[StateBasedAction] | None:
    """State-based actions about one permanent that depend on that permanent
    alone: its characteristics, status, counters, damage and marks (a
    creature dealt damage by a source with deathtouch, 704.5h).

    Rules: 704.3, 704.5h

    The kernel asks this about the permanents on the battlefield that
    changed since the state was last found clean of state-based actions
    (704.3: a permanent nothing changed has the verdict it had then, which
    was performed or came to nothing), as the core checks its own verdicts;
    about every permanent on the battlefield the first time a state built
    by :meth:`~redzone.Engine.game` is checked, or when a state carries no
    note of what changed (a plain copy of its objects); and not at all when
    none changed. A check therefore costs what changed, not the size of the
    board, however many times a command checks (after each trigger
    resolves, 117.5). An action whose verdict reads anything else (another
    permanent, a player, the combat) belongs in
    :func:`redzone_state_based_actions`, or it is missed when only that
    other thing changes. Like that hook, this one is asked while one of the
    plugin's keywords is present, about permanents that have none of them
    too (a creature deathtouch damaged lacks deathtouch).

    :param state: the state being checked.
    :param permanents: the ids of the permanents to judge, on the
        battlefield, sorted (at least one).
    :returns: the actions to perform, at once with every other found in
        the same check.

    Combined: concatenated, with :func:`redzone_state_based_actions`' and
    the core's; duplicates count once.

    .. versionadded:: 0.1.0
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

    Gated: on the objects it is asked about (``permanent``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_destruction_replacements(
    state: GameState, permanent: str
) -> Iterable[DestructionReplacement] | None:
    """Effects that would replace a permanent's destruction.

    Rules: 701.8c, 701.19, 614.8, 616.1

    Asked when a permanent would be destroyed, by a ``destroy`` effect
    (701.8) or by state-based actions (704.5g-h), after indestructible
    (702.12b) has been checked. Regeneration shields (701.19) are the
    kernel's own answer.

    :param state: the state before the destruction.
    :param permanent: the permanent that would be destroyed.
    :returns: the replacements that apply.

    Combined: concatenated; one applies. With two or more, the permanent's
    controller (its owner if it has none) chooses which (616.1): a choice
    keyed ``destruction@<permanent>`` among the effects' names, the first by
    effect name by default. The others don't apply to a destruction that
    didn't happen (616.1f).

    Gated: on the objects it is asked about (``permanent``): a plugin that declares
    keywords is asked only when one of them has one (an object off the battlefield
    lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


# ---------------------------------------------------------------------------
# Events and triggered abilities, after every action (120.4d, 603)
# ---------------------------------------------------------------------------
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

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_record(state: GameState, events: tuple[Event, ...]) -> PluginState | None:
    """Update this plugin's own state from what just happened.

    Rules: 603.2, 611.2

    Asked once at the end of every command with all its events ("the first
    N damage this combat", "attacked this turn"). Read the current value
    through a :class:`~redzone.Slot` the plugin declares at module level
    (``SLOT.get(state)``: the kernel resolves it to the name the plugin was
    registered under, whatever that is), or with ``state.slot(name)`` where
    ``name`` is the plugin's registered name.

    :param state: the state after the command.
    :param events: the command's events, in order.
    :returns: the plugin's new :class:`~redzone.PluginState`, or ``None`` to
        keep it as it is.

    Combined: each plugin's answer replaces that plugin's slot only.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


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

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_target_violations(
    state: GameState, source: str, target: str
) -> Iterable[Violation] | None:
    """Restrictions on an ability from one source targeting one object or player.

    Rules: 702.16b, 702.16j, 702.16k, 603.3d, 608.2b

    "Can't be the target of abilities from [a source with a quality]":
    protection answers for a permanent whose protection's quality the source
    has (702.16b). The kernel asks nothing itself: a plugin whose triggered
    abilities target asks it, through
    :func:`redzone.kernel.plugins.target_violations` (from its
    ``redzone_triggers``, ``redzone_resolve_trigger``,
    ``redzone_attack_choices`` and ``redzone_block_choices``; an action's
    perform function through ``tx.hooks.target_violations``): as the ability
    goes on the stack, to offer and default to legal targets only (603.3d),
    and as it resolves, to leave a target that has become illegal unaffected
    (608.2b). The source's characteristics are read as it is on the
    battlefield, or as it last existed there (608.2b: last known
    information).

    :param state: the state as the target is chosen, or as the ability resolves.
    :param source: the id of the ability's source (a permanent, in any zone).
    :param target: the id of the permanent or player it would target.
    :returns: the restrictions targeting it breaks (empty or ``None`` when
        none).

    Combined: concatenated; ``target`` is an illegal target if any remain.

    Gated: on the objects it is asked about (``source`` and ``target``): a plugin
    that declares keywords is asked only when one of them has one (an object off the
    battlefield lets the state decide), unless its implementation is marked
    :func:`redzone.whole_board`.

    .. versionadded:: 0.1.0
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

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


@hookspec
def redzone_trigger_choices(state: GameState, trigger: Trigger) -> Iterable[Choice] | None:
    """The choices a triggered ability makes as it resolves, worked out from
    the state then.

    Rules: 608.2d, 603.3c, 601.2

    A choice made as the ability resolves (608.2d: what a player sacrifices,
    a number, a yes or no) is of what exists then, not of what existed as it
    triggered. A trigger offers its choices as it triggers
    (:attr:`~redzone.Trigger.offers`), so that a caller can list them in
    advance; the kernel asks this hook for those still to be made as the
    trigger resolves, and as :meth:`redzone.Engine.pending_choices` lists
    them while it waits, and each choice answered replaces the offer of the
    same :attr:`~redzone.Choice.name` (its key kept): answers by key are
    checked against it and its default is taken. Only the plugin that
    created a trigger of that ``kind`` should answer.

    :param state: the state as the trigger resolves, or as it waits on the stack.
    :param trigger: the trigger, with the choices made so far.
    :returns: the trigger's choices as they are now (empty or ``None``:
        those it offered as it triggered stand).

    Combined: concatenated in plugin-name order; a choice whose name the
    trigger didn't offer, or whose offer was already answered, or of a
    target or mode (chosen as it was put on the stack, 603.3c-d), fails the
    plugin.

    .. versionadded:: 0.1.0
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

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError
