"""The engine: one plugin set, the step API and the one-shot API.

An :class:`Engine` owns one plugin manager and nothing else that changes; its
methods are functions of the state they are given. Commands return an
:class:`Outcome` (the new state and its events) or raise a typed error, in
which case the caller still holds its untouched state (733). Queries never
raise for illegal input, but :meth:`~Engine.choices_for`, which runs the
command on a copy and raises what it raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, NoReturn

from redzone.kernel import action_kinds as _action_kinds
from redzone.kernel import combat as _combat
from redzone.kernel import decisions as _decisions
from redzone.kernel import effects as _effects
from redzone.kernel import enumerate as _enumerate
from redzone.kernel import restrictions as _restrictions
from redzone.kernel import resume as _resume
from redzone.kernel import steps as _steps
from redzone.kernel import turn as _turn
from redzone.kernel import validate as _validate
from redzone.kernel.abilities import Activations
from redzone.kernel.combat import Assignment, AssignmentPolicy, Duty, default_policy
from redzone.kernel.context import Context, HasContext, honoured
from redzone.kernel.editions import EDITIONS, Edition, get_edition
from redzone.kernel.errors import (
    BadQueryError,
    IllegalActionError,
    IllegalBlockError,
    PluginLoadError,
    UnaskedChoiceError,
    Violation,
    sort_violations,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.hooktypes import Action, DamageStep
from redzone.kernel.model import (
    HONOURED,
    Choice,
    ChoiceMade,
    GameState,
    Keyword,
    Permanent,
    Player,
    new_game,
)
from redzone.kernel.plans import CombatPlan, TurnPlan
from redzone.kernel.plugins import (
    BUILTIN_DISTRIBUTION,
    Hooks,
    KeywordInfo,
    PluginInfo,
    discover,
    make_manager,
)
from redzone.kernel.results import DamageStepRecord
from redzone.kernel.steps import ASSIGNED, DAMAGE_STEP, Answers
from redzone.kernel.tx import CombatResult, Outcome, step_label

_asked = _decisions.only_asked

Attacks = Mapping[str, str]
Blocks = Mapping[str, str | Sequence[str]]


class _CheckedParts(_decisions.Decisions, _turn.TurnCommands):
    """The parts of :class:`Engine` whose methods read their state before a
    command checks it: here they check it first, as the engine's own do
    (what isn't a state, a state the engine can't honour)."""

    context: Context

    def pending_choices(self, state: GameState) -> tuple[Choice, ...]:
        """The choices of the triggers on the stack that are still to be
        made, as they resolve (608.2d): each with its key, options and
        default. Answer them with :meth:`~redzone.Engine.resolve_trigger`
        (``answers``).

        .. versionadded:: 0.1.0
        """
        return super().pending_choices(_honoured(self, state, "pending_choices"))

    def cleanup(self, state: GameState, *, choices: Answers = None) -> Outcome:
        """The cleanup step (514): damage is removed, "until end of turn" and
        "this turn" effects end (514.2), then state-based actions; another
        cleanup step follows while something happens (514.3a)."""
        checked = _honoured(self, state, "cleanup")
        return _asked(_turn.cleanup(self.context, checked, choices=choices), choices)


class Engine(_CheckedParts, Activations):
    """A combat rules engine with one set of plugins.

    :param rules: the rules edition: ``"foundations"`` (default) or another
        name in :data:`redzone.kernel.editions.EDITIONS`.
    :param plugins: an explicit list of plugins (modules or objects with
        hookimpls); with ``discover=False`` they are the whole set.
    :param discover: load the plugins of the ``redzone`` entry-point group
        (the built-in keywords and any installed third-party package).
    :param block: plugin names not to load.
    :param allow: if given, the only discovered plugin names to load.
    :param policy: the default assignment policy for creatures whose
        controller gave no assignment.
    :param auto_triggers: resolve triggered abilities as soon as they are put
        on the stack (603.3b, 608); turn it off to find them in
        ``state.stack`` and resolve them with your own stack
        (:meth:`resolve_trigger`, :meth:`remove_trigger`).
    :param hook_timeout: the most seconds one plugin may take to answer one
        hook call; a slower answer fails the command with a
        :class:`PluginError` naming the plugin, its distribution, the hook and
        the step, and the state is unchanged. Python can't interrupt a plugin,
        so the limit is checked when the call returns. ``None`` (the default)
        checks nothing and costs nothing.
    :param verify: fingerprint what each hook call is given before and after
        it, and fail the command with a :class:`PluginError` naming the plugin
        that changed it; ``None`` (the default) turns it on when the
        ``REDZONE_VERIFY`` environment variable is ``"1"``.
    :param unknown_keywords: ``"error"`` (the default) refuses a keyword no
        plugin provides, except the known non-combat ones, which are inert;
        ``"inert"`` accepts any keyword, an unknown one as inert.
    :raises PluginLoadError: when a plugin can't be loaded, or discovery finds
        no built-in keywords (the package is not installed).

    .. versionadded:: 0.1.0
    """

    def __init__(
        self,
        rules: str = "foundations",
        *,
        plugins: Iterable[object] = (),
        discover: bool = True,
        block: Iterable[str] = (),
        allow: Iterable[str] | None = None,
        policy: AssignmentPolicy = default_policy,
        auto_triggers: bool = True,
        hook_timeout: float | None = None,
        verify: bool | None = None,
        unknown_keywords: str = "error",
    ) -> None:
        edition = get_edition(rules)
        self.pm, self.plugin_infos = make_manager(
            _plugin_set(edition, plugins, discover=discover, block=block, allow=allow))
        hooks = Hooks(self.pm, self.plugin_infos, timeout=hook_timeout, verify=verify,
                      unknown_keywords=unknown_keywords)
        #: What the kernel's steps and each command's working copy read of this
        #: engine (:class:`~redzone.kernel.context.Context`): they are given it,
        #: never the engine.
        self.context = Context(hooks, edition, policy, auto_triggers)

    @property
    def hooks(self) -> Hooks:
        """The typed facade over this engine's plugins."""
        return self.context.hooks

    @property
    def edition(self) -> Edition:
        """The rules edition in force."""
        return self.context.edition

    @property
    def policy(self) -> AssignmentPolicy:
        """The default assignment policy for creatures whose controller gave
        no assignment (510.1)."""
        return self.context.policy

    @policy.setter
    def policy(self, policy: AssignmentPolicy) -> None:
        self.context = self.context.evolve(policy=policy)

    @property
    def auto_triggers(self) -> bool:
        """Whether triggered abilities resolve as soon as they are put on the
        stack (603.3b, 608)."""
        return self.context.auto_triggers

    @auto_triggers.setter
    def auto_triggers(self, auto: bool) -> None:
        self.context = self.context.evolve(auto_triggers=auto)

    @property
    def rules(self) -> str:
        """The name of the rules edition in force."""
        return self.edition.name

    def __repr__(self) -> str:
        return f"<Engine rules={self.rules!r} plugins={len(self.plugin_infos)}>"

    # -- keywords and building ---------------------------------------------------

    def keywords(self) -> tuple[KeywordInfo, ...]:
        """Every keyword this engine knows: its rule, plugin and distribution."""
        return tuple(self.hooks.keyword_infos.values())

    def keyword(self, text: str | Keyword) -> Keyword:
        """Parse a keyword as printed (``"toxic 2"``).

        :raises UnknownKeywordError: when no loaded plugin provides it.
        """
        return self.hooks.parse_keyword(text)

    def permanent(self, id: str, controller: str, **kwargs: Any) -> Permanent:
        """A :class:`Permanent` whose ``keywords`` strings are parsed by this engine.

        Accepts the :class:`Permanent` fields, plus ``power``/``toughness`` for
        the printed values and ``keywords`` for the printed keywords.
        """
        keywords = _validate.permanent_args(kwargs)
        if "power" in kwargs:
            kwargs["base_power"] = kwargs.pop("power")
        if "toughness" in kwargs:
            kwargs["base_toughness"] = kwargs.pop("toughness")
        return Permanent(id=id, controller=controller,
                         printed_keywords=tuple(self.keyword(k) for k in keywords), **kwargs)

    def creature(self, id: str, controller: str, power: int, toughness: int,
                 *keywords: str | Keyword, **kwargs: Any) -> Permanent:
        """A creature: ``engine.creature("bear", "bob", 2, 2, "first strike")``."""
        return self.permanent(id, controller, power=power, toughness=toughness,
                              keywords=keywords, **kwargs)

    def game(self, players: Iterable[Player | str], permanents: Iterable[Permanent] = (),
             **kwargs: Any) -> GameState:
        """A new :class:`GameState` under this engine's rules edition (:func:`new_game`),
        its keywords checked against the loaded plugins. A :class:`BadQueryError` names
        a malformed argument, or a permanent whose controller or owner isn't a player (110.2)."""
        plist, given, kwargs = _validate.game(players, permanents, kwargs)
        perms = [p.evolve(printed_keywords=tuple(self.keyword(k) for k in p.printed_keywords))
                 for p in given]
        kwargs.setdefault("rules", self.rules)
        return new_game(plist, perms, **kwargs).evolve(keyword_set=self.hooks.keyword_infos)

    # -- queries (never raise for illegal input) -----------------------------------

    def next_step(self, state: GameState) -> str | None:
        """The step the combat goes to next (506.1, 508.8), ``cleanup`` from
        the end step (514), and ``None`` after the combat phase, after the
        cleanup step and once the game is over; see
        :func:`redzone.kernel.steps.next_step`."""
        return _steps.next_step(self.context, _honoured(self, state, "next_step"))

    @property
    def damage_steps(self) -> tuple[DamageStep, ...]:
        """Every combat damage step this engine knows, in order: the regular
        one (``combat_damage``, order 0) and those plugins declare
        (:func:`~redzone.kernel.hookspecs.redzone_damage_steps`). A combat
        has the regular one and those in which some creature deals combat
        damage as they would begin (510.4)."""
        return tuple(self.hooks.damage_step_specs.values())

    def damage_step(self, step: str) -> DamageStep | None:
        """The declaration of the combat damage step ``step`` (or of the step
        whose ``_assigned`` window it is), ``None`` for any other step."""
        return _steps.damage_step_spec(self.context, step)

    def step_names(self) -> tuple[str, ...]:
        """Every step of the combat phase this engine can stand at, in order
        (506.1), with the combat damage steps plugins declare and, under an
        edition whose combat damage uses the stack, their ``_assigned``
        windows."""
        return _steps.step_names(self.context)

    def attackable(self, state: GameState) -> tuple[str, ...]:
        """What the active player's creatures may attack (508.1b)."""
        return _combat.attackable(state, _honoured(self, state, "attackable").active_player)

    def attack_violations(self, state: GameState, attacks: Attacks) -> tuple[Violation, ...]:
        """Every rule a declaration of attackers would break (508.1)."""
        _validate.declaration(_honoured(self, state), "attack_violations", attacks, single=True)
        return sort_violations(_combat.attack_violations(self.hooks, state, dict(attacks)))

    def legal_attackers(self, state: GameState) -> tuple[str, ...]:
        """Creatures that could attack on their own (508.1a-c)."""
        return _combat.legal_attackers(_hooks(self, state, "legal_attackers"), state)

    def block_violations(self, state: GameState, blocks: Blocks) -> tuple[Violation, ...]:
        """Every rule a declaration of blockers would break (509.1)."""
        _validate.declaration(_honoured(self, state), "block_violations", blocks, single=False)
        if state.combat is None:
            return (Violation("509.1", "there is no combat: no attackers were declared"),)
        return sort_violations(_combat.block_violations(
            self.hooks, state, _combat.normalise_blocks(blocks)))

    def suggest_attacks(self, state: GameState) -> dict[str, str]:
        """A declaration of attackers that breaks no restriction and obeys as
        many requirements as possible (508.1c-d); empty when nothing is
        required."""
        return _combat.suggest_attacks(_hooks(self, state, "suggest_attacks"), state)

    def suggest_blocks(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """A declaration of blockers that breaks no restriction and obeys as many
        requirements as possible (509.1b-c); empty when nothing is required."""
        return _combat.suggest_blocks(_hooks(self, state, "suggest_blocks"), state)

    def legal_blockers(self, state: GameState, attacker: str) -> tuple[str, ...]:
        """Creatures that could block ``attacker``, pair by pair (509.1a-b): none for
        a non-attacker, :class:`UnknownObjectError` for an id the state lacks."""
        return _combat.legal_blockers(_hooks(self, state, "legal_blockers", attacker=attacker),
                                      state, attacker)

    def lethal_damage(self, state: GameState, source: str, creature: str) -> int:
        """Lethal damage from ``source`` to ``creature`` counting marked damage
        (702.19b, 702.2c), before anything else is assigned."""
        _validate.objects(_honoured(self, state), "lethal_damage", source=source, creature=creature)
        perm = state.objects[creature]
        return self.hooks.lethal_damage(state, source, creature, perm.toughness - perm.damage)

    def damage_duties(self, state: GameState) -> tuple[str, tuple[Duty, ...]]:
        """The next combat damage step and what each creature must assign in it."""
        _validate.damage_step(self, _honoured(self, state), "damage_duties")
        step, participants = _steps.damage_step_kind(self.context, state)
        return step, tuple(_combat.duties(self.hooks, state, participants, step))

    def default_assignment(self, state: GameState,
                           fixed: Assignment | None = None) -> dict[str, dict[str, int]]:
        """The assignment the policy makes for the next combat damage step,
        for every creature not in ``fixed``."""
        step, duties = self.damage_duties(_honoured(self, state, "default_assignment"))
        return self.policy(self.hooks, state, step, duties, _fixed(fixed))

    def assignment_violations(self, state: GameState,
                              assign: Assignment | None = None) -> tuple[Violation, ...]:
        """Every rule a combat damage assignment would break (510.1, 510.1e);
        creatures not in ``assign`` get the default policy's assignment."""
        _validate.damage_step(self, _honoured(self, state), "assignment_violations", assign=assign)
        step, participants = _steps.damage_step_kind(self.context, state)
        duties = tuple(_combat.duties(self.hooks, state, participants, step))
        full, extra = _steps.full_assignment(self.context, state, step, duties, assign or {},
                                             participants)
        return sort_violations(extra + _combat.assignment_violations(
            self.hooks, state, step, duties, full, (assign or {}).keys()))

    # -- commands (each delegates to its step module) ---------------------------------

    def begin_combat(self, state: GameState, *, choices: Answers = None) -> Outcome:
        """Enter the beginning of combat step (507) of a combat phase: the
        turn's first, or an additional one after a combat (500.8, 505.1a).

        :raises IllegalActionError: when the game is over (104.2a), the stack
            isn't empty (500.2) or the game isn't at a main phase (506.1).
        """
        return _begin_combat(self, state, choices)

    def declare_attackers(self, state: GameState, attacks: Attacks,
                          bands: Iterable[Sequence[str]] = (), *,
                          choices: Answers = None, checked: bool = True) -> Outcome:
        """Declare attackers (508.1): check, tap, and record what each attacks.

        :param attacks: attacking creature -> player, planeswalker or battle id.
        :param bands: attacking bands (508.1e, 702.22c): groups of attacking
            creatures whose abilities let them band.
        :param choices: answers to the choices the command meets, by key: the
            declaration's options and costs (508.1g), the order and targets
            of what triggers (603.3b-d). Without one, the default stands.
        :param checked: ``False`` is the unchecked entry point, for search:
            the caller vouches that ``attacks`` came from
            :meth:`legal_attack_declarations` of this very ``state`` and this
            engine, and 508.1a-d are not checked (from a main phase, combat
            begins first, on a new state, so it is checked). An illegal
            declaration declared so gives undefined results.
        :raises IllegalAttackError: with every violation; nothing changes.
        """
        return _asked(_steps.declare_attackers(self.context, state, attacks, bands,
                                               choices=choices, checked=checked), choices)

    def declare_blockers(self, state: GameState, blocks: Blocks,
                         order: Mapping[str, Sequence[str]] | None = None, *,
                         choices: Answers = None, checked: bool = True) -> Outcome:
        """Declare blockers (509.1).

        :param blocks: blocking creature -> the attacker (or attackers) it blocks.
        :param order: damage assignment orders (attacker -> its blockers;
            blocker -> the attackers it blocks), for editions that have them
            (509.2-509.3 of 2009-2024); a missing order is the declaration
            order. Ignored by editions without orders.
        :param checked: ``False``: unchecked, as for :meth:`declare_attackers`
            (``blocks`` from :meth:`legal_block_declarations` of this very
            ``state``; 509.1a-c not checked, the orders still are).
        :raises IllegalBlockError: with every violation (of the orders too);
            nothing changes.
        """
        return _asked(_steps.declare_blockers(self.context, state, blocks, order,
                                              choices=choices, checked=checked), choices)

    def combat_damage(self, state: GameState, assign: Assignment | None = None, *,
                      choices: Answers = None) -> Outcome:
        """The next combat damage step (510): assign, deal all damage at once,
        then state-based actions (704.3).

        Under an edition whose combat damage uses the stack (310.1 of
        1999-2009) this is done in two calls: the first assigns and puts the
        damage on the stack (the state's step becomes ``<step>_assigned``, a
        priority window); the second resolves it as assigned (310.4).

        :param assign: assignments by creature; creatures not in it use the
            engine's policy. Ignored when resolving damage already on the stack.
        :raises IllegalAssignmentError: with every violation; nothing changes.
        :raises IllegalActionError: while triggers wait on the stack (500.2),
            or when no combat damage step comes next (506.1).
        """
        return _asked(_steps.combat_damage(self.context, state, assign, choices=choices),
                      choices)

    def end_of_combat(self, state: GameState, *, choices: Answers = None) -> Outcome:
        """Enter the end of combat step (511.1): "at end of combat" abilities
        and delayed triggers trigger (511.2, 603.7)."""
        return _asked(_steps.end_of_combat(self.context, state, choices=choices), choices)

    def finish(self, state: GameState, *, choices: Answers = None) -> Outcome:
        """End the combat phase: everything is removed from combat and "until
        end of combat" effects end (511.3)."""
        return _asked(_steps.finish(self.context, state, choices=choices), choices)

    def perform(self, state: GameState, action: Action | Sequence[Action], *,
                choices: Answers = None) -> Outcome:
        """Apply an action in a priority window, or a spell's or ability's
        actions in order as it resolves (608.2c), then state-based actions
        and what triggers, once (117.5, 704.3: none between the actions).

        :raises IllegalActionError: for an action of no loaded kind, with a
            field of the wrong type, or naming something that isn't there;
            and after the end of the game (104.2a). Nothing changes.
        """
        self.context.check(state)
        performed = _validate.actions(state, action)
        return _asked(_steps.perform(self.context, state, performed, choices=choices), choices)

    def check_state_based_actions(self, state: GameState, *,
                                  choices: Answers = None) -> Outcome:
        """Perform state-based actions until none applies (704.3).

        :param choices: answers by key to the choices they ask (which
            legendary permanent a player keeps, 704.5j ...).
        :raises IllegalActionError: after the end of the game (104.2a).
        """
        self.context.check(state)
        _steps.check_game_on(state, "check state-based actions")
        return _asked(_steps.check_state_based_actions(self.context, state, choices=choices),
                      choices)

    def resolve_trigger(self, state: GameState, trigger_id: str | None = None,
                        choices: Mapping[str, Sequence[str]] | None = None, *,
                        answers: Answers = None) -> Outcome:
        """Resolve the triggered ability on top of the stack, or the one named
        (608.2), then state-based actions and what that triggers.

        :param choices: choices a player makes as it resolves (608.2d), by
            name, e.g. ``{"sacrifice": ["land", "bear"]}``; they are set as
            the trigger's :attr:`~redzone.Trigger.choices`. Without them its
            plugin's documented default is used.
        :param answers: answers by key to the choices met on the way (what
            the resolution triggers, 603.3b-d; the trigger's own offers).
        :raises IllegalActionError: when the stack is empty or holds no such
            trigger, or the plugin rejects the choices; nothing changes.
        """
        _validate.choices(choices)
        _validate.choices(answers, "answers")
        # (The stack emptied in a cleanup step: another one begins, 514.3a.)
        return _asked(_turn.resolve_after(self.context, state, answers=answers,
                                          trigger_id=trigger_id, choices=choices), answers)

    def remove_trigger(self, state: GameState, trigger_id: str) -> Outcome:
        """Take a trigger off redzone's stack without resolving it: for an
        embedding engine that resolves it on its own stack.

        :raises IllegalActionError: when there is no such trigger, or after
            the end of the game (104.2a).
        :raises BadQueryError: when ``trigger_id`` isn't a trigger's id (a str).
        """
        self.context.check(state)
        _validate.ident(trigger_id, "remove_trigger", "trigger_id", "a trigger's id",
                        rule="405.1")
        _steps.check_game_on(state, "remove a trigger")
        return _steps.remove_trigger(self.context, state, trigger_id)

    def action_kinds(self) -> dict[str, type[Action]]:
        """Every action kind this engine knows, by its ``do`` name: the
        kernel's and the plugins' (:func:`~redzone.kernel.hookspecs.redzone_actions`)."""
        return {do: spec.cls for do, (spec, _plugin) in sorted(self.hooks.action_specs.items())}

    # -- one-shot ---------------------------------------------------------------------

    def resolve(
        self,
        state: GameState,
        attacks: Attacks | None = None,
        blocks: Blocks | None = None,
        *,
        assign: Assignment | None = None,
        assign_first_strike: Assignment | None = None,
        actions: Iterable[tuple[str, Action]] = (),
        order: Mapping[str, Sequence[str]] | None = None,
        bands: Iterable[Sequence[str]] = (),
        additional_combats: Iterable[CombatPlan] = (),
        through: str = "end_of_combat",
        choices: Answers = None,
        turns: Iterable[TurnPlan] = (),
        first_turn: bool = False,
    ) -> CombatResult:
        """Resolve a whole combat phase from its declarations (or the rest of
        one, from a state in it: :mod:`redzone.kernel.resume`), and optionally
        the turn's additional combats and the rest of the turn.

        The game may end on the way (104): then nothing after that moment is
        performed, and ``steps`` ends with the step it ended in.

        :param state: the state before combat, or in one.
        :param attacks: attacking creature -> what it attacks (``None``: none).
        :param blocks: blocking creature -> attacker(s) it blocks.
        :param assign: assignments used in each damage step a creature deals
            damage in.
        :param assign_first_strike: overrides ``assign`` entry by entry in
            the combat damage steps before the regular one (the first-strike
            step).
        :param actions: ``(step, action)`` pairs, performed in order in the
            priority window after that step's turn-based action (``end_step``
            too, with ``through="cleanup"``).
        :param order: damage assignment orders, for editions that have them.
        :param bands: attacking bands (508.1e).
        :param additional_combats: further combat phases this turn, in order
            (500.8, 505.1a); their steps are named ``declare_attackers#2`` ...
        :param through: ``"end_of_combat"`` (after the combat phase),
            ``"cleanup"`` (the end and cleanup steps too, 513-514) or
            ``"declare_attackers"`` (as blockers are to be declared; what later
            steps would take is left unused; no more combats or turns).
        :param turns: whole turns after this one, in turn order (500.1):
            each its beginning phase (502-504), main phases, combats, end step
            and cleanup; their steps are named ``declare_attackers@2`` ...
            (``declare_attackers#2@3`` for a third turn's second combat).
            With turns, this turn runs through its cleanup step.
        :param first_turn: ``state`` is the game's first turn, at its start:
            its beginning phase runs first (steps ``untap``, ``upkeep``,
            ``draw``); its player doesn't draw in a two-player or two-team
            game (103.8a, 810.6).
        :param choices: answers to every choice met on the way, by key
            (:class:`~redzone.Choice`); a key no choice asked for is an error
            (a misspelt key would otherwise be silently ignored).
        :raises IllegalActionError: (or a subclass) when a declaration,
            assignment or action is illegal, or the game is over (104.2a),
            with what was done before it as its ``partial`` (510.1e: a later
            step's illegal assignment keeps the earlier steps);
            :class:`IllegalBlockError` (508.8) for blocks when no creature
            attacks, as the declare blockers step is skipped.
        """
        self.context.check(state)
        _validate.choices(choices)
        _steps.check_game_on(state, "resolve a combat")
        plans = _plans(CombatPlan({} if attacks is None else attacks, blocks, assign=assign,
                                  assign_first_strike=assign_first_strike,
                                  actions=_validate.step_actions(actions), order=order,
                                  bands=tuple(_validate.bands(bands, "resolve"))),
                       additional_combats, through)
        more = _turn_plans(turns)
        _run_options(through, state, more, first_turn)
        _resume.check(self.context, state, plans[0], first_turn=first_turn is True)
        return _Run(self, state, choices).run(plans, "cleanup" if more else through, more,
                                              first_turn=first_turn is True)

    # -- legal declarations, enumerated (redzone.kernel.enumerate) ---------------------

    def legal_attack_declarations(self, state: GameState) -> Iterable[FrozenMap[str, str]]:
        """Every legal declaration of attackers (508.1a-d), each of which
        ``declare_attackers(state, decl, checked=False)`` may declare unchecked."""
        return _enumerate.legal_attacks(_hooks(self, state, "legal_attack_declarations"), state)

    def legal_block_declarations(
            self, state: GameState) -> Iterable[FrozenMap[str, tuple[str, ...]]]:
        """Every legal declaration of blockers (509.1a-c), each of which
        ``declare_blockers(state, decl, checked=False)`` may declare unchecked."""
        return _enumerate.legal_blocks(_hooks(self, state, "legal_block_declarations"), state)

    def count_legal_attacks(self, state: GameState) -> int:
        """How many legal declarations of attackers there are (508.1)."""
        return _enumerate.count_legal_attacks(_hooks(self, state, "count_legal_attacks"), state)

    def count_legal_blocks(self, state: GameState) -> int:
        """How many legal declarations of blockers there are (509.1)."""
        return _enumerate.count_legal_blocks(_hooks(self, state, "count_legal_blocks"), state)

    def is_legal_attack(self, state: GameState, attacks: Attacks) -> bool:
        """Whether a declaration of attackers is legal (508.1a-d); one that isn't
        a declaration is refused as :meth:`attack_violations` refuses it."""
        _validate.declaration(_honoured(self, state), "is_legal_attack", attacks, single=True)
        return _enumerate.is_legal_attack(self.hooks, state, attacks)

    def is_legal_block(self, state: GameState, blocks: Blocks) -> bool:
        """Whether a declaration of blockers is legal (509.1a-c); one that isn't
        a declaration is refused as :meth:`block_violations` refuses it."""
        _validate.declaration(_honoured(self, state), "is_legal_block", blocks, single=False)
        return _enumerate.is_legal_block(self.hooks, state, blocks)


def _never_pickled(engine: Engine, protocol: object = None) -> NoReturn:
    """``Engine.__reduce_ex__``: an engine is never pickled (it holds its
    plugin manager and its plugins, modules among them); its spec travels
    instead, and the other side builds the engine from it.

    :raises TypeError: always, as pickle's protocol has it, saying what to
        send instead.
    """
    raise TypeError(f"an Engine ({engine.rules!r} rules) is never pickled: send its spec, "
                    "redzone.execution.engines.spec_of(engine), and build the engine "
                    "from it on the other side with redzone.execution.engines."
                    "build_engine(spec)")


Engine.__reduce_ex__ = _never_pickled  # type: ignore[assignment,method-assign]


class _Run:
    """One :meth:`Engine.resolve`: the commands in order, their windows, and
    the end of the game."""

    def __init__(self, engine: Engine, state: GameState, choices: Answers) -> None:
        self.engine = engine
        self.state = state
        #: Given to each command: it takes what it asks for (601.2); the
        #: run checks at its end that every key was asked for.
        self.choices = _decisions.Shared(choices or {})
        self.given = choices
        self.made: list[ChoiceMade] = []
        self.events: list[Event] = []
        self.steps: list[str] = []
        self.after_steps: dict[str, GameState] = {}
        self.pending: dict[str, list[Action]] = {}
        #: Actions for the steps after the combat phases (``end_step``), kept
        #: until the end of the turn is run.
        self.later: dict[str, list[Action]] = {}
        self.unperformed: list[str] = []
        #: Each combat damage step's record (510.1), in order.
        self.damage: list[DamageStepRecord] = []
        #: The command being given (its name, its state, the action), until
        #: its outcome is taken: what a rejected command's error says.
        self.doing: tuple[str, GameState, Action | None] | None = None
        #: The suffix of this turn's step labels: ``@2`` for the second.
        self.suffix = ""
        #: Whether the run stops as blockers are to be declared.
        self.stop = False

    @property
    def over(self) -> bool:
        return self.state.game_over is not None

    def run(self, plans: Sequence[CombatPlan], through: str,
            turns: Sequence[TurnPlan] = (), *, first_turn: bool = False) -> CombatResult:
        """Run the combat phases of ``plans`` and, ``through="cleanup"``, the
        rest of the turn; what the run did.

        :raises IllegalActionError: with what was done before it as its
            ``partial``.
        """
        before = self.state
        try:
            self.pending = {}
            self.sort(plans[0].actions if plans else ())
            if first_turn and not self.beginning(None, first=True):
                self.leftover()
                return self.result(before)
            self.stop = through == "declare_attackers"
            try:
                self.turn(plans, through)
            except _Stopped:
                return self.result(before)  # (what later steps would take is left unused)
            for n, plan in enumerate(turns, start=2):
                if self.over:
                    break
                self.suffix = f"@{n}"
                self.pending = {}
                self.choices = _turn_answers(self.given, plan.choices)
                start = len(self.made)
                self.sort(plan.combat.actions)
                if not self.beginning(plan.active_player):
                    self.leftover()
                    break
                self.turn((plan.combat, *plan.additional_combats), "cleanup")
                if plan.choices and not self.over:  # (104.2a: a game over asks no more)
                    _decisions.refuse_unasked(plan.choices, self.made[start:])
            self.check_pending()
        except IllegalActionError as exc:
            # 510.1e, 733: the game returns to the moment before the rejected
            # command, not to before combat; what was done stays with the error.
            exc.partial = self.result(before)
            if exc.damage_step is not None:  # (the attempt, labelled as its events are)
                exc.damage_step = _labelled(exc.damage_step, self.suffix)
            if self.doing is not None and exc.command is None:
                exc.command, exc.state, exc.action = self.doing
            raise
        return self.result(before)

    def turn(self, plans: Sequence[CombatPlan], through: str) -> None:
        """A turn's combats (its precombat main phase's window first, unless
        the state is in the first combat) and, ``through="cleanup"``, the
        rest of it."""
        if self.state.step in _steps.COMBAT_MAY_BEGIN and not self.window("precombat_main"):
            return self.leftover()
        for i, plan in enumerate(plans):
            if self.over:
                break
            self.combat(plan, sorted_=i == 0)
        if through == "cleanup" and not self.over:
            self.rest_of_turn()
        return None

    def sort(self, actions: Iterable[tuple[str, Action]]) -> None:
        """Keep a turn's actions for their windows (those after the combat
        phases until the end of the turn is run)."""
        for after, action in actions:
            wanted = self.later if after in _AFTER_COMBAT else self.pending
            wanted.setdefault(after, []).append(action)

    def beginning(self, active: str | None, *, first: bool = False) -> bool:
        """The next turn's beginning phase (502-504), or with ``first`` this
        one's, a window after each step, to the precombat main phase;
        ``False`` once the game is over."""
        engine = self.engine
        draw = not first or _turn.first_turn_draws(self.state)
        untap: Callable[[GameState], Outcome] = (
            (lambda s: _turn.first_untap_step(engine.context, s, choices=self.choices))
            if first else (lambda s: engine.untap_step(s, active, choices=self.choices)))
        commands: tuple[tuple[str, Callable[[GameState], Outcome]], ...] = (
            ("untap", untap),
            ("upkeep", lambda s: engine.upkeep(s, choices=self.choices)),
            ("draw", lambda s: engine.draw_step(s, draw=draw, choices=self.choices)),
            ("precombat_main", lambda s: engine.precombat_main(s, choices=self.choices)))
        for step, command in commands:
            self.doing = (step, self.state, None)
            out = command(self.state)
            skipped = step == "precombat_main" or (step == "draw" and not draw)  # (500.11)
            going = self.take(out, None if skipped else step)
            if not skipped:  # (the state as the step ended: the game may have too)
                self.after_steps[step + self.suffix] = self.state
            if not going or (not skipped and not self.window(step)):
                return False
        return True

    def result(self, before: GameState) -> CombatResult:
        """What the run did so far. A game that ended in a later turn ended
        in that turn's step, labelled as :attr:`steps` labels it
        (``draw@2``)."""
        state = self.state
        over = state.game_over
        if over is not None and self.suffix and not over.step.endswith(self.suffix):
            state = state.evolve(game_over=over.evolve(step=over.step + self.suffix))
        return CombatResult(state, tuple(self.events), tuple(self.steps),
                            dict(self.after_steps), before, tuple(self.made),
                            tuple(self.damage))

    def take(self, out: Outcome, step: str | None = None) -> bool:
        """Take a command's outcome; ``False`` once the game is over. In a
        later turn, its events, choices and damage step records name their
        steps as :attr:`steps` does, with the turn's suffix
        (``declare_attackers@2``)."""
        self.doing = None
        self.state = out.state
        suffix = self.suffix
        if suffix:
            self.events.extend(e._replace(step=e.step + suffix) if e.step else e
                               for e in out.events)
            self.made.extend(c.evolve(step=c.step + suffix) if c.step else c
                             for c in out.choices)
        else:
            self.events.extend(out.events)
            self.made.extend(out.choices)
        if out.damage_steps:
            self.damage.extend(_labelled(d, suffix) for d in out.damage_steps)
        if step is not None:
            self.steps.append(step + self.suffix)
        return not self.over

    def window(self, step: str) -> bool:
        engine = self.engine
        for action in self.pending.pop(step, []):
            self.doing = ("action", self.state, action)
            if not self.take(engine.perform(self.state, action, choices=self.choices)):
                return False
        while self.state.stack:  # with auto_triggers off: resolve what is left (608)
            self.doing = ("trigger", self.state, None)
            if not self.take(engine.resolve_trigger(self.state, answers=self.choices)):
                return False
        return True

    def combat(self, plan: CombatPlan, *, sorted_: bool = False) -> None:
        """A combat phase, from a main phase or from the step of it the state
        is at (its window first): what is done already isn't done again."""
        engine = self.engine
        if not sorted_:
            self.pending = {}
            self.sort(plan.actions)
        at = self.state.step
        if at in _steps.COMBAT_MAY_BEGIN:
            self.doing = ("begin_combat", self.state, None)
            out = engine.begin_combat(self.state, choices=self.choices)
            at = "beginning_of_combat"
            if not self.take(out, step_label(out.state, at)) or not self.window(at):
                return self.leftover()
        elif not self.window(at):
            return self.leftover()
        if at == "beginning_of_combat":
            self.doing = ("declare_attackers", self.state, None)
            out = engine.declare_attackers(self.state, plan.attacks, plan.bands,
                                           choices=self.choices)
            if not self.take(out, step_label(out.state)) or not self.window("declare_attackers"):
                return self.leftover()
            at = "declare_attackers"
        if at == "declare_attackers":
            if self.stop:
                raise _Stopped
            if engine.next_step(self.state) == "declare_blockers":
                self.doing = ("declare_blockers", self.state, None)
                out = engine.declare_blockers(self.state, plan.blocks or {}, plan.order,
                                              choices=self.choices)
                if not self.take(out, step_label(out.state)) or not self.window(
                        "declare_blockers"):
                    return self.leftover()
            else:
                skipped = _skipped_blocks(self.state, plan.blocks)
                if skipped:  # (as the declare blockers step would have been given)
                    self.doing = ("declare_blockers", self.state, None)
                    raise IllegalBlockError(skipped)
        while (nxt := engine.next_step(self.state)) is not None and (
                spec := engine.damage_step(nxt)) is not None:
            first = spec.order < 0
            chosen = {**(plan.assign or {}), **plan.assign_first_strike} if (
                first and plan.assign_first_strike is not None) else plan.assign  # by entry
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
        if self.pending:
            raise IllegalActionError(
                f"actions after steps that did not happen: "
                f"{', '.join(sorted(k + self.suffix for k in self.pending))} "
                f"(the combat went through {', '.join(self.steps)})", rule="506.1")
        self.doing = ("finish", self.state, None)
        self.take(engine.finish(self.state, choices=self.choices))
        return None

    def leftover(self) -> None:
        """The game ended: what was declared for later isn't performed."""
        self.pending = {}
        self.later = {}

    def rest_of_turn(self) -> None:
        engine = self.engine
        self.pending, self.later = self.later, {}
        if not self.window("postcombat_main"):
            self.leftover()
            return
        self.doing = ("end_step", self.state, None)
        out = engine.end_step(self.state, choices=self.choices)
        going = self.take(out, "end_step")
        self.after_steps["end_step" + self.suffix] = self.state
        if not going or not self.window("end_step"):
            self.leftover()
            return
        self.doing = ("cleanup", self.state, None)
        out = engine.cleanup(self.state, choices=self.choices)
        self.take(out, "cleanup")
        self.after_steps["cleanup" + self.suffix] = self.state

    def check_pending(self) -> None:
        asked = {m.key for m in self.made}
        unused = set(self.given or {}) - asked
        if unused and not self.over:
            raise UnaskedChoiceError(unused, sorted(asked))
        waiting = {**self.pending, **self.later}
        if waiting:
            raise IllegalActionError(
                f"actions after steps that did not happen: {', '.join(sorted(waiting))} "
                f"(the combat went through {', '.join(self.steps)})", rule="506.1")


def _honoured(engine: HasContext, state: GameState, method: str = "") -> GameState:
    """``state``, when ``engine`` can honour it (its rules edition, its
    keywords), checked as a command checks it: the state notes the engine
    that honours it, so that every later check is one lookup. Each query
    asks it first, so that an engine without flying never says a bear may
    block a flyer (702.9b).

    :param method: the engine's method given ``state`` (a query, or a
        command before it reads it), named in the error for what isn't a
        :class:`GameState`; without it, what isn't one is passed on, for the
        method's own check of its arguments (:mod:`~redzone.kernel.validate`)
        to name.
    :raises BadQueryError: naming ``method``, for what isn't a GameState.
    :raises EngineMismatchError: naming the difference.
    """
    if isinstance(state, GameState):
        ctx = engine.context
        if state.__dict__.get(HONOURED) is not ctx.hooks.honour_mark \
                or state.rules != ctx.edition.name:
            honoured(ctx, state, method)  # (else found before: one lookup)
        return state
    if method:
        raise BadQueryError(f"{method}: state is {type(state).__name__}, not a GameState")
    return state


def _hooks(engine: Engine, state: GameState, method: str, **ids: object) -> Hooks:
    """``engine``'s hooks, to answer its query ``method`` about ``state``,
    once :func:`_honoured` found that it can, and that each of ``ids`` (an
    argument of the query: its name and value) is an object of ``state``.

    :raises UnknownObjectError: naming the argument, for an id ``state``
        doesn't have (or what isn't an id).
    """
    _honoured(engine, state, method)
    if ids:
        _validate.objects(state, method, **ids)
    return engine.hooks


def _begin_combat(engine: Engine, state: GameState, choices: Answers) -> Outcome:
    """:meth:`Engine.begin_combat`, its state checked (:func:`_honoured`)
    before the step reads what the state notes."""
    _honoured(engine, state, "begin_combat")
    return _asked(_steps.begin_combat(engine.context, state, choices=choices), choices)


def _fixed(fixed: Assignment | None) -> Assignment:
    """The assignments :meth:`Engine.default_assignment` is given, checked:
    each a mapping of recipients to amounts (510.1, 510.1a)."""
    return _validate.assignment(fixed, "default_assignment", "fixed")


#: The steps after the combat phases that ``resolve(..., through="cleanup")``
#: has a window in.
_AFTER_COMBAT: Final = frozenset({"postcombat_main", "end_step"})


def _labelled(record: DamageStepRecord, suffix: str) -> DamageStepRecord:
    """A damage step's record with the label its events carry in the run:
    in a later turn, with the turn's suffix (``combat_damage#2@3``)."""
    if not suffix or record.label.endswith(suffix):
        return record
    return record.evolve(label=record.label + suffix)


def _turn_plans(turns: Iterable[TurnPlan]) -> list[TurnPlan]:
    """The turns :meth:`Engine.resolve` is given, checked like its combats,
    and their answers (:attr:`TurnPlan.choices`) as its ``choices``.

    :raises BadQueryError: for a turn that is no :class:`TurnPlan`, or
        answers that aren't a mapping of choice keys to answers."""
    plans = list(turns)
    for i, plan in enumerate(plans):
        if not isinstance(plan, TurnPlan):
            raise BadQueryError(f"turns[{i}] is {type(plan).__name__}, where a TurnPlan "
                                "was expected", rule="500.1")
        _plans(plan.combat, plan.additional_combats, "cleanup")
        _validate.choices(plan.choices, f"turns[{i}].choices")
    return plans


def _turn_answers(given: Answers, own: Answers) -> _decisions.Shared:
    """The answers a later turn's commands are given (601.2): the run's
    (:meth:`Engine.resolve`'s ``choices``, which answer every turn's
    decisions) and the turn's own (:attr:`TurnPlan.choices`), whose answer
    to a key wins for that turn. Keys aren't labelled by turn: a turn's
    table is what scopes its answers."""
    return _decisions.Shared({**(given or {}), **(own or {})})


def _skipped_blocks(state: GameState, blocks: Blocks | None) -> list[Violation]:
    """508.8: blocks declared for a combat whose declare blockers step is
    skipped (no creature attacks) can't be made; never drop them silently."""
    declared = [b for b, a in _combat.normalise_blocks(blocks or {}).items() if a]
    if not declared:
        return []
    return [Violation("508.8", f"{', '.join(_combat.label(state, b) for b in declared)} "
                      "can't block: no creatures attack, so the declare blockers step is "
                      "skipped", tuple(declared))]


def _plans(first: CombatPlan, additional: Iterable[CombatPlan], through: str
           ) -> list[CombatPlan]:
    """The combat phases :meth:`Engine.resolve` is given (the first, from its
    own arguments, and the additional ones), checked, after its ``through``:
    each declaration, assignment and order is a mapping (or ``None``).

    :raises IllegalActionError: for a ``through`` that is no end (500.1).
    :raises BadQueryError: for an additional combat that is no
        :class:`CombatPlan`, or whose actions aren't ``(step, action)`` pairs;
        for a declaration, assignment or order that isn't a mapping, naming it.
    """
    if through not in _THROUGH:
        raise IllegalActionError(f"through must be one of {', '.join(map(repr, _THROUGH))}, "
                                 f"not {through!r}", rule="500.1")
    plans = [first, *additional]
    if through == "declare_attackers" and len(plans) > 1:
        raise BadQueryError("through='declare_attackers' stops in the first combat: give no "
                            "additional_combats", rule="506.1")
    for i, plan in enumerate(plans):
        where = f"additional_combats[{i - 1}]" if i else ""
        if not isinstance(plan, CombatPlan):
            raise BadQueryError(f"{where} is {type(plan).__name__}, where a "
                                "CombatPlan was expected", rule="500.8")
        if i:
            _validate.step_actions(plan.actions, f"{where}.actions")
        _validate.shapes("resolve", **{f"{where}.{name}" if i else name: getattr(plan, name)
                                       for name in _PLAN_MAPPINGS})
    return plans


#: Where :meth:`Engine.resolve` may stop: as blockers are to be declared,
#: after the combat phase, after the cleanup step.
_THROUGH: Final = ("declare_attackers", "end_of_combat", "cleanup")


class _Stopped(Exception):
    """The run reached where ``through="declare_attackers"`` stops it."""


def _run_options(through: str, state: GameState, turns: Sequence[TurnPlan],
                 first_turn: object) -> None:
    """:meth:`Engine.resolve`'s options: ``first_turn`` a bool; and
    ``through="declare_attackers"`` stops the combat ``state`` is before or
    in: refused with whole turns to play, and once blockers are declared.

    :raises BadQueryError: naming the option (506.1 for where it stops).
    """
    if type(first_turn) is not bool:
        raise BadQueryError(f"resolve: first_turn is {type(first_turn).__name__} "
                            f"{first_turn!r}, not True or False")
    if through != "declare_attackers":
        return
    if turns:
        raise BadQueryError("through='declare_attackers' stops in this turn's first combat: "
                            "give no turns", rule="506.1")
    if state.step not in _steps.COMBAT_MAY_BEGIN and state.step not in (
            "beginning_of_combat", "declare_attackers"):
        raise BadQueryError(f"through='declare_attackers': the state is at {state.step!r}, "
                            "past the declaration of blockers it would stop at", rule="506.1")


#: The fields of a :class:`CombatPlan` that are mappings (or ``None``).
_PLAN_MAPPINGS: Final = ("attacks", "blocks", "assign", "assign_first_strike", "order")


def _plugin_set(edition: Edition, plugins: Iterable[object], *, discover: bool,
                block: Iterable[str], allow: Iterable[str] | None) -> list[object | PluginInfo]:
    """The plugins an engine registers: the discovered ones (without those
    blocked or the edition replaces; only those allowed), the kernel's own
    (actions, effects, restrictions), the edition's and ``plugins``.

    :raises PluginLoadError: when discovery finds no built-in keywords (the
        package is not installed).
    :raises TypeError: for a ``block`` or ``allow`` that is a ``str`` or
        ``bytes`` (an iterable of its characters), not a collection of names.
    """
    for argument, names in (("block", block), ("allow", allow)):
        if isinstance(names, (str, bytes)):
            raise TypeError(f"Engine: {argument} is the {type(names).__name__} {names!r:.60}, "
                            "where a collection of plugin names belongs (it would be read as "
                            f"its characters): pass a list or tuple ([{names!r:.60}])")
    block = tuple(block)
    found: list[object | PluginInfo] = []
    if discover:
        discovered = _discover(block=(*block, *edition.replaces), allow=allow)
        if allow is None and not any(
            p.distribution == BUILTIN_DISTRIBUTION for p in discovered
        ) and not set(block) - set(edition.replaces):
            raise PluginLoadError(
                "no built-in keyword plugins were found in the 'redzone' entry-point "
                "group: install the package (pip install redzone, or pip install -e . "
                "in a checkout) or pass discover=False with an explicit plugin list"
            )
        found.extend(discovered)
    found.append(PluginInfo(_action_kinds.PLUGIN, _action_kinds, BUILTIN_DISTRIBUTION, ""))
    found.append(PluginInfo("redzone.effects", _effects, BUILTIN_DISTRIBUTION, ""))
    found.append(PluginInfo("redzone.restrictions", _restrictions, BUILTIN_DISTRIBUTION, ""))
    found.extend(edition.plugins)
    found.extend(plugins)
    return found


def _discover(*, block: Iterable[str], allow: Iterable[str] | None) -> list[PluginInfo]:
    return discover(block=block, allow=allow)


__all__ = ["ASSIGNED", "DAMAGE_STEP", "EDITIONS", "CombatPlan", "CombatResult", "Engine",
           "Outcome"]
