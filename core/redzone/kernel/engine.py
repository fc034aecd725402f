"""The engine: one plugin set, the step API and the one-shot API.

An :class:`Engine` owns one plugin manager and nothing else that changes; its
methods are functions of the state they are given. Commands return an
:class:`Outcome` (the new state and its events) or raise a typed error, in
which case the caller still holds its untouched state (733). Queries never
raise for illegal input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from redzone.kernel import combat as _combat
from redzone.kernel import effects as _effects
from redzone.kernel import restrictions as _restrictions
from redzone.kernel import validate as _validate
from redzone.kernel.actions import Action, DealDamage, apply_action, deal_damage_action
from redzone.kernel.combat import Assignment, AssignmentPolicy, Duty, default_policy
from redzone.kernel.damage import deal_damage
from redzone.kernel.editions import EDITIONS, Edition, get_edition
from redzone.kernel.errors import (
    IllegalActionError,
    IllegalAssignmentError,
    IllegalAttackError,
    IllegalBlockError,
    PluginLoadError,
    Violation,
    sort_violations,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap, as_map, as_tuple
from redzone.kernel.frozen import evolve as _evolve
from redzone.kernel.hooktypes import Damage, Result
from redzone.kernel.model import Combat, GameState, Keyword, Permanent, Player, new_game
from redzone.kernel.plugins import (
    BUILTIN_DISTRIBUTION,
    Hooks,
    KeywordInfo,
    PluginInfo,
    discover,
    make_manager,
)
from redzone.kernel.sba import check_state_based_actions, end_combat

FIRST_DAMAGE_STEP = "first_strike_damage"
DAMAGE_STEP = "combat_damage"
#: Suffix of the priority window in which combat damage waits on the stack
#: (editions with ``damage_on_stack``).
ASSIGNED = "_assigned"


@frozen
class Outcome:
    """What a command did.

    :param state: the new state.
    :param events: what happened, in order.
    """

    state: GameState
    events: tuple[Event, ...] = field(converter=as_tuple)


@frozen
class CombatResult:
    """A whole combat resolved by :meth:`Engine.resolve`.

    :param state: the state after the combat phase (511.3 done).
    :param events: every event of the combat, in order.
    :param steps: the steps the combat went through, in order.
    :param after_steps: the state at the end of each combat damage step,
        after state-based actions.
    :param before: the state the combat started from.
    """

    state: GameState
    events: tuple[Event, ...] = field(converter=as_tuple)
    steps: tuple[str, ...] = field(converter=as_tuple)
    after_steps: FrozenMap[str, GameState] = field(converter=as_map)
    before: GameState | None = None


Attacks = Mapping[str, str]
Blocks = Mapping[str, str | Sequence[str]]


class Engine:
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
        self.edition: Edition = get_edition(rules)
        found: list[object | PluginInfo] = []
        if discover:
            discovered = _discover(block=(*block, *self.edition.replaces), allow=allow)
            if allow is None and not any(
                p.distribution == BUILTIN_DISTRIBUTION for p in discovered
            ) and not set(block) - set(self.edition.replaces):
                raise PluginLoadError(
                    "no built-in keyword plugins were found in the 'redzone' entry-point "
                    "group: install the package (pip install redzone, or pip install -e . "
                    "in a checkout) or pass discover=False with an explicit plugin list"
                )
            found.extend(discovered)
        found.append(PluginInfo("redzone.effects", _effects, BUILTIN_DISTRIBUTION, ""))
        found.append(PluginInfo("redzone.restrictions", _restrictions, BUILTIN_DISTRIBUTION, ""))
        found.extend(self.edition.plugins)
        found.extend(plugins)
        self.pm, self.plugin_infos = make_manager(found)
        self.hooks = Hooks(self.pm, self.plugin_infos, timeout=hook_timeout, verify=verify,
                           unknown_keywords=unknown_keywords)
        self._step_kind_cache: tuple[GameState, tuple[str, tuple[str, ...]]] | None = None
        self.policy = policy
        self.auto_triggers = auto_triggers

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
        keywords = kwargs.pop("keywords", ())
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
        """A new :class:`GameState` under this engine's rules edition (see
        :func:`redzone.new_game`); every keyword is checked against the
        loaded plugins."""
        perms = [p.evolve(printed_keywords=tuple(self.keyword(k) for k in p.printed_keywords))
                 for p in permanents]
        kwargs.setdefault("rules", self.rules)
        return _evolve(new_game(players, perms, **kwargs), keyword_set=self.hooks.keyword_infos)

    # -- queries (never raise for illegal input) -----------------------------------

    def next_step(self, state: GameState) -> str | None:
        """The step the combat goes to next, or ``None`` after combat (506.1, 508.8)."""
        step = state.step
        if step == "main":
            return "beginning_of_combat"
        if step == "beginning_of_combat":
            return "declare_attackers"
        if step == "declare_attackers":
            combat = state.combat
            return "declare_blockers" if combat is not None and combat.attacks else "end_of_combat"
        stack = self.edition.damage_on_stack
        if step == "declare_blockers":
            kind = self._damage_step_kind(state)[0]
            return kind + ASSIGNED if stack else kind
        if step.endswith(ASSIGNED):
            return step[: -len(ASSIGNED)]
        if step == FIRST_DAMAGE_STEP:
            return DAMAGE_STEP + ASSIGNED if stack else DAMAGE_STEP
        if step == DAMAGE_STEP:
            return "end_of_combat"
        if step == "end_of_combat":
            return "postcombat_main"
        return None

    def attackable(self, state: GameState) -> tuple[str, ...]:
        """What the active player's creatures may attack (508.1b)."""
        return _combat.attackable(state, state.active_player)

    def attack_violations(self, state: GameState, attacks: Attacks) -> tuple[Violation, ...]:
        """Every rule a declaration of attackers would break (508.1)."""
        _validate.declaration(state, "attack_violations", attacks, single=True)
        return sort_violations(_combat.attack_violations(self.hooks, state, dict(attacks)))

    def legal_attackers(self, state: GameState) -> tuple[str, ...]:
        """Creatures that could attack on their own (508.1a-c)."""
        targets = self.attackable(state)
        out = []
        for perm in state.battlefield:
            if perm.controller == state.active_player and "creature" in perm.types and any(
                not _combat.attack_violations(self.hooks, state, {perm.id: t}) for t in targets
            ):
                out.append(perm.id)
        return tuple(out)

    def block_violations(self, state: GameState, blocks: Blocks) -> tuple[Violation, ...]:
        """Every rule a declaration of blockers would break (509.1)."""
        _validate.declaration(state, "block_violations", blocks, single=False)
        if state.combat is None:
            return (Violation("509.1", "there is no combat: no attackers were declared"),)
        return sort_violations(_combat.block_violations(
            self.hooks, state, _combat.normalise_blocks(blocks)))

    def suggest_attacks(self, state: GameState) -> dict[str, str]:
        """A declaration of attackers that breaks no restriction and obeys as
        many requirements as possible (508.1c-d); empty when nothing is
        required."""
        check = _combat.attack_requirement_check(self.hooks, state, {})
        return {k: str(v) for k, v in check.example.items()} if check is not None else {}

    def suggest_blocks(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """A declaration of blockers that breaks no restriction and obeys as
        many requirements as possible (509.1b-c); empty when nothing is
        required."""
        check = _combat.block_requirement_check(self.hooks, state, {})
        if check is None:
            return {}
        return {k: v for k, v in check.example.items() if isinstance(v, tuple)}

    def legal_blockers(self, state: GameState, attacker: str) -> tuple[str, ...]:
        """Creatures that could block ``attacker``, pair by pair (509.1a-b)."""
        return _combat.legal_blockers(self.hooks, state, attacker)

    def lethal_damage(self, state: GameState, source: str, creature: str) -> int:
        """Lethal damage from ``source`` to ``creature`` counting marked damage
        (702.19b, 702.2c), before anything else is assigned."""
        _validate.objects(state, "lethal_damage", source=source, creature=creature)
        perm = state.objects[creature]
        return self.hooks.lethal_damage(state, source, creature, perm.toughness - perm.damage)

    def damage_duties(self, state: GameState) -> tuple[str, tuple[Duty, ...]]:
        """The next combat damage step and what each creature must assign in it."""
        _validate.damage_step(self, state, "damage_duties")
        step, participants = self._damage_step_kind(state)
        return step, tuple(_combat.duties(self.hooks, state, participants))

    def default_assignment(self, state: GameState,
                           fixed: Assignment | None = None) -> dict[str, dict[str, int]]:
        """The assignment the policy makes for the next combat damage step,
        for every creature not in ``fixed``."""
        step, duties = self.damage_duties(state)
        return self.policy(self.hooks, state, step, duties, fixed or {})

    def assignment_violations(self, state: GameState,
                              assign: Assignment | None = None) -> tuple[Violation, ...]:
        """Every rule a combat damage assignment would break (510.1, 510.1e);
        creatures not in ``assign`` get the default policy's assignment."""
        step, duties = self.damage_duties(state)
        full, extra = self._full_assignment(state, step, duties, assign or {})
        return sort_violations(extra + _combat.assignment_violations(
            self.hooks, state, step, duties, full, (assign or {}).keys()))

    # -- commands -------------------------------------------------------------------

    def _check_engine(self, state: GameState) -> None:
        _validate.engine_honours(self.rules, self.hooks, state)

    def _expect(self, state: GameState, step: str, doing: str) -> None:
        self._check_engine(state)
        if state.stack:
            raise IllegalActionError(
                f"can't {doing} now: the stack holds {len(state.stack)} triggered "
                f"abilit{'y' if len(state.stack) == 1 else 'ies'} "
                f"({', '.join(t.id for t in state.stack)}); a step ends only when the stack "
                "is empty", rule="500.2")
        nxt = self.next_step(state)
        if nxt != step:
            raise IllegalActionError(
                f"can't {doing} now: the game is at {state.step!r}, and the next step is "
                f"{nxt!r}", rule="506.1")

    def begin_combat(self, state: GameState) -> Outcome:
        """Enter the beginning of combat step (507)."""
        self._expect(state, "beginning_of_combat", "begin combat")
        new = _evolve(state, step="beginning_of_combat", combat=Combat())
        return self._commit(new, [Event("step", "507.1", "beginning_of_combat")])

    def declare_attackers(self, state: GameState, attacks: Attacks,
                          bands: Iterable[Sequence[str]] = ()) -> Outcome:
        """Declare attackers (508.1): check, tap, and record what each attacks.

        :param attacks: attacking creature -> player, planeswalker or battle id.
        :param bands: attacking bands (508.1e, 702.22c): groups of attacking
            creatures whose abilities let them band.
        :raises IllegalAttackError: with every violation; nothing changes.
        """
        if state.step == "main":
            state = self.begin_combat(state).state
        self._expect(state, "declare_attackers", "declare attackers")
        attacks = dict(attacks)
        band_list = [tuple(b) for b in bands]
        violations = _combat.attack_violations(self.hooks, state, attacks)
        violations.extend(_combat.band_violations(self.hooks, state, attacks, band_list))
        if violations:
            raise IllegalAttackError(violations)
        step = "declare_attackers"
        events = [Event("step", "508.1", step)]
        combat = Combat(attacks=attacks, defending_players={
            a: state.defending_player_of(t) or t for a, t in attacks.items()},
            bands=band_list)
        for band in band_list:
            events.append(Event("band", "508.1e", step, detail=", ".join(band)))
        new = _evolve(state, step=step, combat=combat)
        tapped = {}
        for attacker, attacked in attacks.items():
            events.append(Event("attack", "508.1a", step, attacker=attacker, target=attacked))
        for attacker in attacks:
            if not self.hooks.attacks_without_tapping(new, attacker):
                perm = new.objects[attacker]
                tapped[attacker] = perm.evolve(tapped=True)
                events.append(Event("tap", "508.1f", step, object=attacker))
        new = new.with_permanents(tapped)
        return self._commit(new, events)

    def declare_blockers(self, state: GameState, blocks: Blocks,
                         order: Mapping[str, Sequence[str]] | None = None) -> Outcome:
        """Declare blockers (509.1).

        :param blocks: blocking creature -> the attacker (or attackers) it blocks.
        :param order: damage assignment orders (attacker -> its blockers;
            blocker -> the attackers it blocks), for editions that have them
            (509.2-509.3 of 2009-2024); a missing order is the declaration
            order. Ignored by editions without orders.
        :raises IllegalBlockError: with every violation (of the orders too);
            nothing changes.
        """
        self._expect(state, "declare_blockers", "declare blockers")
        assert state.combat is not None
        norm = {b: a for b, a in _combat.normalise_blocks(blocks).items() if a}
        violations = _combat.block_violations(self.hooks, state, norm)
        declared = norm
        if state.combat.bands and not violations:
            # 702.22h: a creature blocking one member of a band blocks the band.
            norm = {b: tuple(dict.fromkeys(m for a in atts for m in state.combat.band_of(a)
                                           if m in state.combat.attacks))
                    for b, atts in norm.items()}
        orders: dict[str, tuple[str, ...]] = {}
        if self.edition.assignment_orders and not violations:
            orders, bad = _combat.damage_assignment_orders(state, norm, order or {})
            violations.extend(bad)
        if violations:
            raise IllegalBlockError(violations)
        step = "declare_blockers"
        events = [Event("step", "509.1", step)]
        for blocker, attackers in norm.items():
            for attacker in attackers:
                rule = "509.1a" if attacker in declared.get(blocker, ()) else "702.22h"
                events.append(Event("block", rule, step, blocker=blocker, attacker=attacker))
        blocked = {a for atts in norm.values() for a in atts}
        for attacker in state.combat.attacks:
            kind = "blocked" if attacker in blocked else "unblocked"
            events.append(Event(kind, "509.1h", step, object=attacker))
        for obj, seq in orders.items():
            rule = "509.2" if obj in state.combat.attacks else "509.3"
            events.append(Event("order", rule, step, object=obj, detail=", ".join(seq)))
        combat = state.combat.evolve(blocks=norm, blocked=frozenset(blocked), order=orders)
        return self._commit(_evolve(state, step=step, combat=combat), events)

    def _damage_step_kind(self, state: GameState) -> tuple[str, tuple[str, ...]]:
        # next_step() and combat_damage() ask this of the same state in turn;
        # a state never changes, so the answer for the last one is kept.
        cached = self._step_kind_cache
        if cached is not None and cached[0] is state:
            return cached[1]
        answer = self._compute_damage_step_kind(state)
        self._step_kind_cache = (state, answer)
        return answer

    def _compute_damage_step_kind(self, state: GameState) -> tuple[str, tuple[str, ...]]:
        combat = state.combat
        if combat is None:
            return DAMAGE_STEP, ()
        present = tuple(c for c in combat.combatants if c in state.objects
                        and state.objects[c].zone == "battlefield")
        if state.step == FIRST_DAMAGE_STEP and combat.early is not None:
            done = combat.dealt if self.edition.second_step_by_assignment else combat.early
            again = tuple(c for c in present if c not in done
                          or self.hooks.deals_damage_again(state, c))
            return DAMAGE_STEP, again
        early = tuple(c for c in present if self.hooks.deals_damage_early(state, c))
        if early:
            return FIRST_DAMAGE_STEP, early
        return DAMAGE_STEP, present

    def _full_assignment(self, state: GameState, step: str, duties: Sequence[Duty],
                         assign: Assignment) -> tuple[dict[str, dict[str, int]], list[Violation]]:
        combat = state.combat
        assert combat is not None
        problems: list[Violation] = []
        dutied = {d.source for d in duties}
        given: dict[str, dict[str, int]] = {}
        for source, amounts in assign.items():
            if source not in state.objects and source not in state.players:
                problems.append(Violation("510.1", f"there is no creature {source!r} to assign "
                                          "damage from", (source,)))
                continue
            if not combat.in_combat(source):
                problems.append(Violation("510.1", f"{_combat.label(state, source)} is not an "
                                          "attacking or blocking creature", (source,)))
                continue
            if source not in dutied:
                continue  # not dealing damage in this step: the entry is not for it
            if not isinstance(amounts, Mapping):
                problems.append(Violation("510.1", f"the assignment of {source!r} must map "
                                          f"recipients to amounts, not {amounts!r}", (source,)))
                continue
            for recipient in amounts:
                if recipient not in state.objects and recipient not in state.players:
                    problems.append(Violation("510.1", f"{_combat.label(state, source)} assigns "
                                              f"damage to {recipient!r}, which does not exist",
                                              (source, recipient)))
            given[source] = dict(amounts)
        full = dict(given)
        full.update(self.policy(self.hooks, state, step, duties, given))
        return full, problems

    def combat_damage(self, state: GameState, assign: Assignment | None = None) -> Outcome:
        """The next combat damage step (510): assign, deal all damage at once,
        then state-based actions (704.3).

        Under an edition whose combat damage uses the stack (310.1 of
        1999-2009) this is done in two calls: the first assigns and puts the
        damage on the stack (the state's step becomes ``<step>_assigned``, a
        priority window); the second resolves it as assigned (310.4).

        :param assign: assignments by creature; creatures not in it use the
            engine's policy. Ignored when resolving damage already on the stack.
        :raises IllegalAssignmentError: with every violation; nothing changes.
        """
        nxt = self.next_step(state)
        if nxt not in (FIRST_DAMAGE_STEP, DAMAGE_STEP, FIRST_DAMAGE_STEP + ASSIGNED,
                       DAMAGE_STEP + ASSIGNED):
            self._expect(state, DAMAGE_STEP, "deal combat damage")
        combat = state.combat
        assert combat is not None and nxt is not None
        if state.step.endswith(ASSIGNED):
            # 310.4: the combat damage on the stack resolves, all at once, as assigned.
            step = nxt
            new = _evolve(state, step=step, combat=combat.evolve(on_stack=()))
            events = [Event("step", "310.4", step)]
            new, dmg_events, dealt, results = deal_damage(
                self.hooks, new, combat.on_stack, step)
            events.extend(dmg_events)
            return self._commit(new, events, damage=(dealt, results))
        step, participants = self._damage_step_kind(state)
        duties = _combat.duties(self.hooks, state, participants)
        full, problems = self._full_assignment(state, step, duties, assign or {})
        violations = problems + _combat.assignment_violations(
            self.hooks, state, step, duties, full, (assign or {}).keys())
        if violations:
            raise IllegalAssignmentError(violations)
        if step == FIRST_DAMAGE_STEP:
            combat = combat.evolve(early=frozenset(participants))
        elif combat.early is None:
            combat = combat.evolve(early=frozenset())
        combat = combat.evolve(dealt=combat.dealt | {d.source for d in duties})
        events = [Event("step", "510.1", step)]
        proposed = []
        for duty in duties:
            for recipient, amount in full.get(duty.source, {}).items():
                if amount:
                    events.append(Event("assign", "510.1", step, source=duty.source,
                                        target=recipient, amount=amount))
                    proposed.append(Damage(duty.source, recipient, amount, True, step))
        if self.edition.damage_on_stack:
            # 310.1: the assignments go on the stack as one object; priority follows.
            window = step + ASSIGNED
            events = [e._replace(step=window, rule="310.1") for e in events]
            new = _evolve(state, step=window, combat=combat.evolve(on_stack=proposed))
            return self._commit(new, events)
        new = _evolve(state, step=step, combat=combat)
        new, dmg_events, dealt, results = deal_damage(self.hooks, new, proposed, step)
        events.extend(dmg_events)
        return self._commit(new, events, damage=(dealt, results))

    def end_of_combat(self, state: GameState) -> Outcome:
        """Enter the end of combat step (511.1)."""
        self._expect(state, "end_of_combat", "end combat")
        new = _evolve(state, step="end_of_combat")
        return self._commit(new, [Event("step", "511.1", "end_of_combat")])

    def finish(self, state: GameState) -> Outcome:
        """End the combat phase: everything is removed from combat (511.3)."""
        self._expect(state, "postcombat_main", "end the combat phase")
        new = end_combat(state)
        self.hooks.end_of_combat(new)
        return Outcome(new, [Event("end_of_combat", "511.3", "end_of_combat")])

    def perform(self, state: GameState, action: Action) -> Outcome:
        """Apply an action in a priority window, then state-based actions.

        :raises IllegalActionError: for an action naming something that isn't
            there; nothing changes.
        """
        self._check_engine(state)
        _validate.action(state, action)
        damage = None
        if isinstance(action, DealDamage):
            new, events, dealt, results = deal_damage_action(self.hooks, state, action)
            damage = (dealt, results)
        else:
            new, events = apply_action(self.hooks, state, action)
        return self._commit(new, events, damage=damage)

    def check_state_based_actions(self, state: GameState) -> Outcome:
        """Perform state-based actions until none applies (704.3)."""
        new, events = check_state_based_actions(self.hooks, state, state.step)
        return Outcome(new, events)

    def _commit(self, state: GameState, events: list[Event],
                damage: tuple[tuple[Damage, ...], tuple[Result, ...]] | None = None) -> Outcome:
        state, sba_events = check_state_based_actions(self.hooks, state, state.step)
        events.extend(sba_events)
        if damage is not None and damage[0]:
            self.hooks.damage_event(state, damage[0], damage[1])
        state = self._put_triggers(state, events)
        if self.auto_triggers:
            while state.stack:
                state = self._resolve_top(state, None, events)
        return Outcome(state, events)

    # -- triggered abilities (603) ----------------------------------------------------

    def _put_triggers(self, state: GameState, events: list[Event]) -> GameState:
        """Put what triggered on ``events`` on the stack in APNAP order (603.3b)."""
        if not events or not self.hooks.implemented("redzone_triggers"):
            return state
        found = self.hooks.triggers(state, tuple(events))
        if not found:
            return state
        order = list(state.turn_order)
        start = order.index(state.active_player)
        apnap = {p: i for i, p in enumerate(order[start:] + order[:start])}
        found = sorted(found, key=lambda t: apnap.get(t.controller, len(apnap)))
        count = state.triggered
        stacked = []
        for trigger in found:
            count += 1
            trigger = _evolve(trigger, id=f"t{count}")
            stacked.append(trigger)
            events.append(Event("trigger", "603.3b", state.step, source=trigger.source,
                                player=trigger.controller, object=trigger.id,
                                detail=f"{trigger.kind}: {trigger.text}".rstrip(": ")))
        return _evolve(state, stack=(*state.stack, *stacked), triggered=count)

    def _resolve_top(self, state: GameState, trigger_id: str | None,
                     events: list[Event]) -> GameState:
        stack = list(state.stack)
        index = len(stack) - 1
        if trigger_id is not None:
            ids = [t.id for t in stack]
            if trigger_id not in ids:
                raise IllegalActionError(f"there is no trigger {trigger_id!r} on the stack "
                                         f"(it holds {', '.join(ids) or 'nothing'})",
                                         rule="405.1", objects=(trigger_id,))
            index = ids.index(trigger_id)
        trigger = stack.pop(index)
        state = _evolve(state, stack=tuple(stack))
        mine = [Event("resolve", trigger.rule, state.step, source=trigger.source,
                      player=trigger.controller, object=trigger.id, detail=trigger.kind)]
        damage: list[Damage] = []
        results: list[Result] = []
        for action in self.hooks.resolve_trigger(state, trigger):
            try:
                if isinstance(action, DealDamage):
                    state, evs, dealt, res = deal_damage_action(self.hooks, state, action)
                    damage.extend(dealt)
                    results.extend(res)
                else:
                    state, evs = apply_action(self.hooks, state, action)
            except IllegalActionError as exc:
                evs = [Event("skipped", "608.2b", state.step, object=trigger.id,
                             detail=str(exc))]
            mine.extend(evs)
        state, sba_events = check_state_based_actions(self.hooks, state, state.step)
        mine.extend(sba_events)
        if damage:
            self.hooks.damage_event(state, tuple(damage), tuple(results))
        state = self._put_triggers(state, mine)
        events.extend(mine)
        return state

    def resolve_trigger(self, state: GameState, trigger_id: str | None = None,
                        choices: Mapping[str, Sequence[str]] | None = None) -> Outcome:
        """Resolve the triggered ability on top of the stack, or the one named
        (608.2), then state-based actions and what that triggers.

        :param choices: choices a player makes as it resolves (608.2d), by
            name, e.g. ``{"sacrifice": ["land", "bear"]}``; they are set as
            the trigger's :attr:`~redzone.Trigger.choices`. Without them its
            plugin's documented default is used.
        :raises IllegalActionError: when the stack is empty or holds no such
            trigger, or the plugin rejects the choices; nothing changes.
        """
        if not state.stack:
            raise IllegalActionError("the stack is empty: there is no trigger to resolve",
                                     rule="405.1")
        if choices is not None:
            target = trigger_id if trigger_id is not None else state.stack[-1].id
            chosen = {name: (value,) if isinstance(value, str) else tuple(value)
                      for name, value in choices.items()}
            state = _evolve(state, stack=tuple(
                _evolve(t, choices=chosen) if t.id == target else t for t in state.stack))
        events: list[Event] = []
        state = self._resolve_top(state, trigger_id, events)
        if self.auto_triggers:
            while state.stack:
                state = self._resolve_top(state, None, events)
        return Outcome(state, events)

    def remove_trigger(self, state: GameState, trigger_id: str) -> Outcome:
        """Take a trigger off redzone's stack without resolving it: for an
        embedding engine that resolves it on its own stack.

        :raises IllegalActionError: when there is no such trigger.
        """
        if trigger_id not in {t.id for t in state.stack}:
            raise IllegalActionError(f"there is no trigger {trigger_id!r} on the stack",
                                     rule="405.1", objects=(trigger_id,))
        stack = tuple(t for t in state.stack if t.id != trigger_id)
        return Outcome(_evolve(state, stack=stack),
                       [Event("removed_from_stack", "405.1", state.step, object=trigger_id)])

    # -- one-shot ---------------------------------------------------------------------

    def resolve(
        self,
        state: GameState,
        attacks: Attacks,
        blocks: Blocks | None = None,
        *,
        assign: Assignment | None = None,
        assign_first_strike: Assignment | None = None,
        actions: Iterable[tuple[str, Action]] = (),
        order: Mapping[str, Sequence[str]] | None = None,
        bands: Iterable[Sequence[str]] = (),
    ) -> CombatResult:
        """Resolve a whole combat phase from its declarations.

        :param state: the state before combat.
        :param attacks: attacking creature -> what it attacks.
        :param blocks: blocking creature -> attacker(s) it blocks.
        :param assign: assignments used in each damage step a creature deals
            damage in.
        :param assign_first_strike: overrides ``assign`` in the first combat
            damage step.
        :param actions: ``(step, action)`` pairs, performed in order in the
            priority window after that step's turn-based action.
        :param order: damage assignment orders, for editions that have them.
        :param bands: attacking bands (508.1e).
        :raises IllegalActionError: (or a subclass) when a declaration,
            assignment or action is illegal; :class:`IllegalBlockError`
            (508.8) for blocks when no creature attacks, as the declare
            blockers step is skipped.
        """
        self._check_engine(state)
        pending: dict[str, list[Action]] = {}
        for after, action in actions:
            pending.setdefault(after, []).append(action)
        events: list[Event] = []
        steps: list[str] = []
        after_steps: dict[str, GameState] = {}
        before = state

        def window(st: GameState, step: str) -> GameState:
            for action in pending.pop(step, []):
                out = self.perform(st, action)
                st = out.state
                events.extend(out.events)
            while st.stack:  # with auto_triggers off: resolve what is left (608)
                out = self.resolve_trigger(st)
                st = out.state
                events.extend(out.events)
            return st

        out = self.begin_combat(state)
        events.extend(out.events)
        steps.append("beginning_of_combat")
        state = window(out.state, "beginning_of_combat")
        out = self.declare_attackers(state, attacks, bands)
        events.extend(out.events)
        steps.append("declare_attackers")
        state = window(out.state, "declare_attackers")
        if self.next_step(state) == "declare_blockers":
            out = self.declare_blockers(state, blocks or {}, order)
            events.extend(out.events)
            steps.append("declare_blockers")
            state = window(out.state, "declare_blockers")
            damage_steps = (FIRST_DAMAGE_STEP, DAMAGE_STEP, FIRST_DAMAGE_STEP + ASSIGNED,
                            DAMAGE_STEP + ASSIGNED)
            while (nxt := self.next_step(state)) in damage_steps:
                first = nxt.startswith(FIRST_DAMAGE_STEP)
                chosen = assign_first_strike if (
                    first and assign_first_strike is not None) else assign
                out = self.combat_damage(state, chosen)
                events.extend(out.events)
                steps.append(out.state.step)
                if not out.state.step.endswith(ASSIGNED):
                    after_steps[out.state.step] = out.state
                state = window(out.state, out.state.step)
        else:
            skipped = _skipped_blocks(state, blocks)
            if skipped:
                raise IllegalBlockError(skipped)
        out = self.end_of_combat(state)
        events.extend(out.events)
        steps.append("end_of_combat")
        state = window(out.state, "end_of_combat")
        if pending:
            raise IllegalActionError(
                f"actions after steps that did not happen: {', '.join(sorted(pending))} "
                f"(the combat went through {', '.join(steps)})", rule="506.1")
        out = self.finish(state)
        events.extend(out.events)
        return CombatResult(out.state, events, steps, after_steps, before)


def _skipped_blocks(state: GameState, blocks: Blocks | None) -> list[Violation]:
    """508.8: blocks declared for a combat whose declare blockers step is
    skipped (no creature attacks) can't be made; never drop them silently."""
    declared = [b for b, a in _combat.normalise_blocks(blocks or {}).items() if a]
    if not declared:
        return []
    return [Violation("508.8", f"{', '.join(_combat.label(state, b) for b in declared)} "
                      "can't block: no creatures attack, so the declare blockers step is "
                      "skipped", tuple(declared))]


def _discover(*, block: Iterable[str], allow: Iterable[str] | None) -> list[PluginInfo]:
    return discover(block=block, allow=allow)


__all__ = ["EDITIONS", "CombatResult", "Engine", "Outcome"]
