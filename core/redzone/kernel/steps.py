"""The steps of the combat phase (506-511) as commands.

Each command checks that the game stands where it may be given (104.2a: the
game isn't over; 500.2: the stack is empty; 506.1: it is the next step),
opens a working copy (:class:`~redzone.kernel.tx.Tx`), performs the step's
turn-based actions, and settles: state-based actions, the end of the game,
triggers. :class:`~redzone.Engine` delegates its step methods here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Final, cast, overload

from redzone.kernel import combat as _combat
from redzone.kernel import sba as _sba
from redzone.kernel import validate as _validate
from redzone.kernel.combat import Assignment, Duty
from redzone.kernel.context import Context
from redzone.kernel.errors import (
    IllegalActionError,
    IllegalAssignmentError,
    IllegalAttackError,
    IllegalBlockError,
    Violation,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import EMPTY, FrozenMap
from redzone.kernel.hooktypes import REGULAR_DAMAGE_STEP, Damage, DamageStep
from redzone.kernel.model import BEGAN_COMBAT, STEP_KIND, Choice, ChoiceMade, Combat, GameState
from redzone.kernel.results import AssignmentRecord, DamageStepRecord
from redzone.kernel.settle import (
    commit,
    end_effects,
    fire_delayed,
    outcome,
    resolve_stack,
    resolve_top,
    state_based_actions,
)
from redzone.kernel.tx import ASKED, Outcome, Tx, step_label

#: A combat with nothing declared yet (507: combat has begun).
_NO_COMBAT = Combat()

#: Answers to choices by their key (:class:`~redzone.Choice`).
Answers = Mapping[str, str | Sequence[str]] | None

#: The regular combat damage step (510), which every combat with attackers has;
#: plugins declare the others (:func:`~redzone.kernel.hookspecs.redzone_damage_steps`).
DAMAGE_STEP = REGULAR_DAMAGE_STEP.name
#: Suffix of the priority window in which combat damage waits on the stack
#: (editions with ``damage_on_stack``).
ASSIGNED = "_assigned"
#: Where a combat phase may begin: the first main phase, or after a combat
#: (an additional combat phase, 500.8, 505.1a).
COMBAT_MAY_BEGIN = frozenset({"main", "postcombat_main"})


def check_game_on(state: GameState, doing: str) -> None:
    """:raises IllegalActionError: (104.2a) when the game is over."""
    over = state.game_over
    if over is not None:
        how = "a draw" if over.draw else f"won by {', '.join(over.winners)}"
        raise IllegalActionError(f"can't {doing}: the game is over ({how}, rule {over.rule}, "
                                 f"in step {over.step!r})", rule="104.2a")


def check_stack_empty(state: GameState, doing: str) -> None:
    """:raises IllegalActionError: (500.2) while triggers wait on the stack."""
    if state.stack:
        raise IllegalActionError(
            f"can't {doing} now: the stack holds {len(state.stack)} triggered "
            f"abilit{'y' if len(state.stack) == 1 else 'ies'} "
            f"({', '.join(t.id for t in state.stack)}); a step ends only when the stack "
            "is empty", rule="500.2")


def expect(ctx: Context, state: GameState, step: str, doing: str, *,
           nxt: str | None = None) -> None:
    """Check that ``step`` may begin now (104.2a, 500.2, 506.1), under a
    context (an engine's) that honours the state.

    :param nxt: ``next_step(ctx, state)``, when the caller has it."""
    ctx.check(state)
    if state.game_over is not None or state.stack:
        check_game_on(state, doing)
        check_stack_empty(state, doing)
    if nxt is None:
        nxt = next_step(ctx, state)
    if nxt != step:
        raise IllegalActionError(
            f"can't {doing} now: the game is at {state.step!r}, and the next step is "
            f"{nxt!r}", rule="506.1")


#: The beginning phase's steps and what follows each (501.1, 500.1).
_BEGINNING_NEXT: Final[Mapping[str, str]] = {"untap": "upkeep", "upkeep": "draw", "draw": "main"}


def next_step(ctx: Context, state: GameState) -> str | None:
    """The step the combat goes to next (506.1, 508.8); ``None`` after the
    combat phase (from a main phase, :meth:`Engine.begin_combat` starts an
    additional combat and :meth:`Engine.end_step` the end of the turn), after
    the cleanup step (the turn is over: :meth:`Engine.begin_turn`) and once
    the game is over (104.1). From the end step, it is ``cleanup``."""
    if state.game_over is not None:
        return None
    step = state.step
    if step in _BEGINNING_NEXT:
        return _BEGINNING_NEXT[step]
    if step == "main":
        return "beginning_of_combat"
    if step == "beginning_of_combat":
        return "declare_attackers"
    if step == "declare_attackers":
        # Skipped only if no creature was declared as an attacker or put onto
        # the battlefield attacking (508.8): one declared and then removed
        # from combat still leaves both steps to happen. ``declared`` keeps
        # every one of them (``attacks`` loses those removed, 506.4).
        combat = state.combat
        return "declare_blockers" if combat is not None and combat.declared._items \
            else "end_of_combat"
    stack = ctx.edition.damage_on_stack
    if step.endswith(ASSIGNED) and is_damage_step(ctx, step):
        return step[: -len(ASSIGNED)]
    if step == "declare_blockers" or is_damage_step(ctx, step):
        upcoming = damage_step_kind(ctx, state, final=True)
        if upcoming is None:
            return "end_of_combat"
        return upcoming[0] + ASSIGNED if stack else upcoming[0]
    if step == "end_of_combat":
        return "postcombat_main"
    if step == "end_step":
        return "cleanup"
    return None


# -- 507 ------------------------------------------------------------------------------


def begin_combat(ctx: Context, state: GameState, *, choices: Answers = None) -> Outcome:
    """Enter the beginning of combat step (507) of a new combat phase; per-
    combat plugin state is cleared (fresh records for each combat).

    Beginning a combat on a state with no answers given is a function of
    the state and the engine (as every command is: plugins answer from the
    state): the state notes the outcome (:data:`~redzone.kernel.model.BEGAN_COMBAT`),
    so declaring attackers again and again from one main phase (a search
    trying its candidates) begins combat once. Verify mode, and
    :meth:`redzone.Engine.choices_for`, which records the choices met,
    begin it every time."""
    hooks = ctx.hooks
    noted = state.__dict__.get(BEGAN_COMBAT)
    if noted is not None and noted[0] is hooks.honour_mark and noted[1] == ctx.edition.name \
            and noted[2] == ctx.auto_triggers and not choices and not hooks.verify \
            and ASKED.get() is None:
        return noted[3]  # type: ignore[no-any-return]
    out = _begin_combat(ctx, state, choices)
    if not choices and not hooks.verify and ASKED.get() is None:
        # (One tuple, set at once; a copy of the state with any change drops it.)
        state.__dict__[BEGAN_COMBAT] = (hooks.honour_mark, ctx.edition.name,
                                        ctx.auto_triggers, out)
    return out


def _begin_combat(ctx: Context, state: GameState, choices: Answers) -> Outcome:
    ctx.check(state)
    if state.game_over is not None or state.stack:
        check_game_on(state, "begin combat")
        check_stack_empty(state, "begin combat")
    if state.step not in COMBAT_MAY_BEGIN:
        raise IllegalActionError(f"can't begin combat now: the game is at {state.step!r}; a "
                                 "combat phase begins after a main phase (505.1a, 500.8)",
                                 rule="506.1")
    slots = state.plugin_state
    for entry in slots._items.values():
        if entry.scope == "combat":
            slots = FrozenMap((k, v) for k, v in slots.items() if v.scope != "combat")
            break
    new = state.evolve(step="beginning_of_combat", combat=_NO_COMBAT, combats=state.combats + 1,
                       plugin_state=slots)
    tx = Tx(ctx, new, answers=choices)
    tx.emit(Event("step", "507.1", "beginning_of_combat"))
    return commit(tx)


# -- 508 ------------------------------------------------------------------------------


def declare_attackers(ctx: Context, state: GameState, attacks: Mapping[str, str],
                      bands: Iterable[Sequence[str]] = (), *, choices: Answers = None,
                      checked: bool = True) -> Outcome:
    """Declare attackers (508.1): check, tap, and record what each attacks.

    :param checked: ``False``: the caller vouches that ``attacks`` is one of
        :func:`~redzone.kernel.enumerate.legal_attacks` of ``state`` (see
        :meth:`redzone.Engine.declare_attackers`); 508.1a-d aren't checked,
        unless combat begins first (a new state)."""
    state = _validate.command(state, "declare_attackers", attacks=attacks)
    if attacks is None:  # (no default: none is {})
        _validate.given("declare_attackers", attacks=attacks)
    band_list = _validate.bands(bands, "declare_attackers")
    events: list[Event] = []
    made: list[ChoiceMade] = []
    if state.step in COMBAT_MAY_BEGIN:
        out = begin_combat(ctx, state, choices=choices)
        state = out.state
        events.extend(out.events)
        made.extend(out.choices)
        checked = True  # declared on another state than the one vouched for
    expect(ctx, state, "declare_attackers", "declare attackers")
    hooks = ctx.hooks
    attacks = dict(attacks)
    violations = _combat.attack_violations(hooks, state, attacks) if checked else []
    violations.extend(_combat.band_violations(hooks, state, attacks, band_list))
    if violations:
        raise IllegalAttackError(violations)
    step = "declare_attackers"
    declared = FrozenMap._wrap(attacks)  # (a copy of its own, never changed)
    defending = {a: state.defending_player_of(t) or t for a, t in attacks.items()}
    combat = _NO_COMBAT.evolve(attacks=declared, declared=declared,
                               defending_players=FrozenMap._wrap(defending),
                               bands=tuple(band_list))
    tx = Tx(ctx, state.evolve(step=step, combat=combat), answers=choices)
    tx.events = events
    settled = len(events)  # combat began in this call: its events were settled then
    tx.made = made
    label = tx.step
    emitted = [Event("step", "508.1", label)]
    emitted += [Event.make("band", "508.1e", label, band=tuple(band)) for band in band_list]
    emitted += [Event("attack", "508.1a", label, attacker=attacker, target=attacked)
                for attacker, attacked in attacks.items()]
    tapped = {}
    new = tx.state
    untapping = "redzone_attacks_without_tapping" not in hooks.silent(new)
    objects = new.objects._items
    for attacker in attacks:
        if not (untapping and hooks.attacks_without_tapping(new, attacker)):
            tapped[attacker] = objects[attacker].evolve(tapped=True)
            emitted.append(Event("tap", "508.1f", label, object=attacker))
    tx.events.extend(emitted)  # made with the step's label
    tx._put(tapped)
    # 508.1g-h: the options and costs of the declaration, chosen, then paid.
    declaration_choices(tx, hooks.attack_choices(tx.state, declared))
    return commit(tx, since=settled)


def declaration_choices(tx: Tx, offered: Sequence[tuple[str, Choice]]) -> None:
    """Make the choices of a declaration (508.1g, 509.1d) and perform the
    actions of each option chosen (508.1h, 509.1f: in any order): ordered by
    their keys, so that neither which plugins offer them nor their names
    changes the order."""
    keyed = [(plugin, choice if choice.key else choice.evolve(key=f"{plugin}:{choice.name}"))
             for plugin, choice in offered]
    if len(keyed) > 1:
        keyed.sort(key=lambda pair: (pair[1].player, pair[1].name, pair[1].key))
    for plugin, choice in keyed:
        for option in tx.choose(choice):
            for action in choice.then.get(option, ()):
                tx.perform(action, plugin=plugin)


# -- 509 ------------------------------------------------------------------------------


def declare_blockers(ctx: Context, state: GameState,
                     blocks: Mapping[str, str | Sequence[str]],
                     order: Mapping[str, Sequence[str]] | None = None, *,
                     choices: Answers = None, checked: bool = True) -> Outcome:
    """Declare blockers (509.1). The creatures already blocking (put onto the
    battlefield blocking before the declaration, 509.4) stay blocking and
    their attackers blocked (509.1g-h): the declared blocks join them
    (:func:`_with_blocks_made`).

    :param checked: ``False``: the caller vouches that ``blocks`` is one of
        :func:`~redzone.kernel.enumerate.legal_blocks` of ``state`` (see
        :meth:`redzone.Engine.declare_blockers`); 509.1a-c aren't checked."""
    state = _validate.command(state, "declare_blockers", blocks=blocks, order=order)
    if blocks is None:  # (no default: none is {})
        _validate.given("declare_blockers", blocks=blocks)
    expect(ctx, state, "declare_blockers", "declare blockers")
    assert state.combat is not None
    hooks = ctx.hooks
    norm = {b: a for b, a in _combat.normalise_blocks(blocks).items() if a}
    violations = _combat.block_violations(hooks, state, norm) if checked else []
    declared = norm
    if state.combat.bands and not violations:
        # 702.22h: a creature blocking one member of a band blocks the band.
        norm = {b: tuple(dict.fromkeys(m for a in atts for m in state.combat.band_of(a)
                                       if m in state.combat.attacks))
                for b, atts in norm.items()}
    orders: dict[str, tuple[str, ...]] = {}
    if ctx.edition.assignment_orders and not violations:
        orders, bad = _combat.damage_assignment_orders(state, norm, order or {})
        violations.extend(bad)
    if violations:
        raise IllegalBlockError(violations)
    step = "declare_blockers"
    combat = state.combat
    declared_blocks: FrozenMap[str, tuple[str, ...]] = FrozenMap._wrap(norm)  # (never changed)
    blocked = frozenset({a for atts in norm.values() for a in atts})
    if combat.blocks._items:  # (blocks made before the declaration: 509.4)
        ordered = _with_orders_made(combat, orders)
        made = _with_blocks_made(combat, norm)
    else:
        ordered = FrozenMap._wrap(orders) if orders else EMPTY
        made = declared_blocks
    tx = Tx(ctx, state.evolve(step=step, combat=combat.evolve(
        blocks=made, blocked=combat.blocked | blocked, order=ordered)), answers=choices)
    label = tx.step
    emitted = [Event("step", "509.1", label)]
    for blocker, attackers in norm.items():
        mine = declared.get(blocker, ())
        emitted += [Event("block", "509.1a" if attacker in mine else "702.22h", label,
                          blocker=blocker, attacker=attacker) for attacker in attackers]
    # 509.1h, 509.3c: an attacker blocked before the declaration stays blocked;
    # it doesn't become blocked again.
    emitted += [Event("blocked" if attacker in blocked else "unblocked", "509.1h", label,
                      object=attacker) for attacker in combat.attacks._items
                if attacker not in combat.blocked]
    emitted += [Event.make("order", "509.2" if obj in combat.attacks else "509.3", label,
                           object=obj, order=ordered[obj]) for obj in orders]
    tx.events.extend(emitted)  # made with the step's label
    # 509.1d-f: the options and costs of the declaration.
    declaration_choices(tx, hooks.block_choices(tx.state, declared_blocks))
    return commit(tx)


def _with_blocks_made(combat: Combat, declared: Mapping[str, tuple[str, ...]]
                      ) -> FrozenMap[str, tuple[str, ...]]:
    """The blocks after the declaration: those made before it (a creature put
    onto the battlefield blocking, 509.4), which stay (509.1g), then the
    declared ones; a creature in both (only when the declaration wasn't
    checked) blocks the attackers of both.

    Rules: 509.1g, 509.4
    """
    blocks = {b: tuple(a) for b, a in combat.blocks.items()}
    for blocker, attackers in declared.items():
        blocks[blocker] = tuple(dict.fromkeys((*blocks.get(blocker, ()), *attackers)))
    return FrozenMap._wrap(blocks)


def _with_orders_made(combat: Combat, orders: Mapping[str, tuple[str, ...]]
                      ) -> FrozenMap[str, tuple[str, ...]]:
    """The damage assignment orders after the declaration (509.2-509.3 of
    2009-2024): the announced ones (each lists the creatures that were
    blocking before the declaration too: 509.4, 509.7) replace those noted
    as such creatures were placed.

    Rules: 509.2, 509.4, 509.7
    """
    if not orders:
        return combat.order
    merged = dict(combat.order.items())
    merged.update(orders)
    return FrozenMap._wrap(merged)


# -- 510 ------------------------------------------------------------------------------


def step_names(ctx: Context) -> tuple[str, ...]:
    """Every step of the combat phase an engine can stand at, in order
    (506.1): see :meth:`redzone.Engine.step_names`."""
    damage: list[str] = []
    for spec in ctx.hooks.damage_step_specs.values():
        if ctx.edition.damage_on_stack:
            damage.append(spec.name + ASSIGNED)
        damage.append(spec.name)
    return ("beginning_of_combat", "declare_attackers", "declare_blockers", *damage,
            "end_of_combat")


def is_damage_step(ctx: Context, step: str) -> bool:
    """Whether ``step`` names a combat damage step of ``ctx``'s engine (the regular
    one or one a plugin declares), or its ``_assigned`` window."""
    return step.removesuffix(ASSIGNED) in ctx.hooks.damage_step_specs


def damage_step_spec(ctx: Context, step: str) -> DamageStep | None:
    """The declaration of the combat damage step ``step`` (or of the step
    whose ``_assigned`` window it is); ``None`` for other steps."""
    return ctx.hooks.damage_step_specs.get(step.removesuffix(ASSIGNED))


@overload
def damage_step_kind(ctx: Context, state: GameState) -> tuple[str, tuple[str, ...]]: ...


@overload
def damage_step_kind(ctx: Context, state: GameState, *,
                     final: bool) -> tuple[str, tuple[str, ...]] | None: ...


def damage_step_kind(ctx: Context, state: GameState, *,
                     final: bool = False) -> tuple[str, tuple[str, ...]] | None:
    """The next combat damage step and the creatures that deal damage in it
    (510.4, 702.7b, 702.4b); after the last one, ``None`` with ``final``,
    else the regular step with no creature."""
    # next_step() and combat_damage() ask this of the same state in turn; a
    # state never changes, so it notes the answer, with the plugin set and
    # edition it holds for (a copy with any change drops it: STEP_KIND; the
    # note stays plain values, so that a state pickles as it did).
    noted = state.__dict__.get(STEP_KIND)
    answer: tuple[str, tuple[str, ...]] | None
    mark, rules = ctx.hooks.honour_mark, ctx.edition.name
    if noted is not None and noted[0] is mark and noted[1] == rules:
        answer = noted[2]
    else:
        answer = _compute_damage_step_kind(ctx, state)
        state.__dict__[STEP_KIND] = (mark, rules, answer)  # (one tuple, set at once)
    if answer is None and not final:
        return DAMAGE_STEP, ()
    return answer


def _dealt_earlier(ctx: Context, combat: Combat) -> Collection[str]:
    """The creatures kept out of the regular step (510.4, 702.7c): those that
    dealt combat damage in an earlier step of this combat (under
    ``second_step_by_assignment``, that assigned it: 310.5 of 1999-2009)."""
    if ctx.edition.second_step_by_assignment:
        return combat.dealt
    return set().union(*combat.damage_steps._items.values())


def _compute_damage_step_kind(ctx: Context,
                              state: GameState) -> tuple[str, tuple[str, ...]] | None:
    combat = state.combat
    if combat is None:
        return DAMAGE_STEP, ()
    specs = ctx.hooks.damage_step_specs
    done = combat.damage_steps._items
    after = max((specs[s].order for s in done if s in specs), default=None) if done else None
    remaining = [spec for spec in specs.values()  # in order
                 if spec.name not in done and (after is None or spec.order > after)]
    if not remaining:
        return None
    objects = state.objects._items
    present = tuple([c for c in combat.combatants if c in objects
                     and objects[c].zone == "battlefield"])
    # Whether each remaining creature deals combat damage in a step: the
    # plugins' answers (any False -> no, else any True -> yes), else the
    # kernel's: in the regular step, a creature that dealt combat damage in no
    # earlier step of this combat (510.4, 702.7c; under
    # second_step_by_assignment, that assigned none: 310.5 of 1999-2009); in
    # any other step, no.
    # (When the gates let no implementation through, every answer is None.)
    ask = ctx.hooks.deals_combat_damage if ctx.hooks.asks(
        "redzone_deals_combat_damage", state) else None
    dealt = _dealt_earlier(ctx, combat)
    for spec in remaining:
        name = spec.name
        regular = name == DAMAGE_STEP
        who = tuple([c for c in present if (said := None if ask is None else ask(state, c, name))
                     or (said is None and regular and c not in dealt)])
        if who or regular:
            return name, who
    return None


def sort_entries(ctx: Context, state: GameState, step: str, dutied: Collection[str],
                 assign: Assignment, participants: Collection[str] = ()
                 ) -> tuple[dict[str, dict[str, int]], list[Violation], dict[str, Violation]]:
    """Decide the use of each entry of an assignment in the combat damage
    step ``step`` (510.1): the one rule that resolving and checking share.

    An entry is used in each damage step in which its creature assigns
    combat damage. It is *unused* in a step when its creature no longer is
    in combat (506.4: it left the battlefield or was removed from combat, so
    it assigns nothing, 510.1), or deals damage in the step but has nothing
    left to assign it to (510.1b-d). An entry for a creature that doesn't
    deal damage in this step (another step's) is neither: it is not for this
    step. Everything else about an entry that is not used is a problem: a
    creature that doesn't exist or never was in this combat (510.1), an
    amount for a creature that assigns none (510.1a), an entry that is not a
    mapping.

    :param dutied: the creatures that assign combat damage in ``step``.
    :param participants: the creatures that deal combat damage in ``step``.
    :returns: the entries used (source -> recipient -> amount), the
        problems, and the unused entries (source -> why, with its rule).
    """
    combat = state.combat
    assert combat is not None
    problems: list[Violation] = []
    unused: dict[str, Violation] = {}
    given: dict[str, dict[str, int]] = {}
    # (The caller's assignment, unchecked: ``object`` until checked here, so
    # that a compiled build reports a malformed entry as 510.1, as the pure
    # one does, not as a TypeError.)
    unchecked = cast("Mapping[Any, object]", assign)
    for source, amounts in unchecked.items():
        if not isinstance(source, str):
            problems.append(Violation("510.1", f"there is no creature {source!r} to assign "
                                      "damage from", cast(Any, (source,))))
            continue
        if source not in state.objects and source not in state.players:
            problems.append(Violation("510.1", f"there is no creature {source!r} to assign "
                                      "damage from", (source,)))
            continue
        if not combat.in_combat(source):
            if source in combat.removed:
                unused[source] = Violation(
                    "506.4", f"{_combat.label(state, source)} is no longer in combat, so it "
                    f"assigns no combat damage (510.1): its entry is unused in {step}",
                    (source,))
                continue
            problems.append(Violation("510.1", f"{_combat.label(state, source)} is not an "
                                      "attacking or blocking creature", (source,)))
            continue
        if source not in dutied:
            if source in participants and isinstance(amounts, Mapping):
                power = _combat.amount(ctx.hooks, state, source, step)
                if power <= 0 and any(n != 0 for n in amounts.values()):
                    problems.append(Violation(
                        "510.1a", f"{_combat.label(state, source)} assigns no combat damage "
                        f"in this step (it would assign {power}), so it can't be given an "
                        f"assignment of {dict(amounts)!r}", (source,)))
                elif power > 0:
                    rule = "510.1d" if combat.is_blocking(source) else (
                        "510.1c" if source in combat.blocked else "510.1b")
                    unused[source] = Violation(
                        rule, f"{_combat.label(state, source)} has nothing left to assign "
                        f"its combat damage to, so it assigns none: its entry is unused in "
                        f"{step}", (source,))
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
    return given, problems, unused


def full_assignment(ctx: Context, state: GameState, step: str, duties: Sequence[Duty],
                    assign: Assignment, participants: Sequence[str] = ()
                    ) -> tuple[dict[str, dict[str, int]], list[Violation]]:
    """The given assignments checked for what they name, completed by the
    engine's policy for the creatures not in them (510.1).

    :param participants: the creatures that deal combat damage in ``step``:
        an assignment that names an amount for one of them that assigns
        none (0 or less, 510.1a) is illegal; an entry for a creature that
        doesn't deal damage in this step is not for it, and is ignored, as
        is one for a creature no longer in combat (506.4; see
        :func:`sort_entries`)."""
    given, problems, _unused = sort_entries(ctx, state, step, {d.source for d in duties},
                                            assign, participants)
    full = dict(given)
    full.update(ctx.policy(ctx.hooks, state, step, duties, given))
    return full, problems


def combat_damage(ctx: Context, state: GameState, assign: Assignment | None = None, *,
                  choices: Answers = None) -> Outcome:
    """The next combat damage step (510)."""
    state = _validate.command(state, "combat_damage", assign=assign)
    nxt = next_step(ctx, state)
    expect(ctx, state, nxt if nxt is not None and is_damage_step(ctx, nxt)
           else DAMAGE_STEP, "deal combat damage", nxt=nxt)
    hooks = ctx.hooks
    combat = state.combat
    assert combat is not None and nxt is not None
    if state.step.endswith(ASSIGNED):
        # 310.4: the combat damage on the stack resolves, all at once, as
        # assigned; not to a permanent that has left and come back as a new
        # object since (310.4c, 400.7).
        step = nxt
        tx = Tx(ctx, state.evolve(step=step, combat=combat.evolve(
            on_stack=(), on_stack_objects=EMPTY)), answers=choices)
        tx.emit(Event("step", "310.4", step))
        noted, objects = combat.on_stack_objects._items, state.objects._items
        tx.deal_damage([d for d in combat.on_stack if d.target not in noted
                        or getattr(objects.get(d.target), "object", None) == noted[d.target]])
        return commit(tx)
    step, participants = damage_step_kind(ctx, state)
    duties = _combat.duties(hooks, state, participants, step)
    given, problems, unused = sort_entries(ctx, state, step, {d.source for d in duties},
                                           assign or {}, participants)
    full = dict(given)
    full.update(ctx.policy(hooks, state, step, duties, given))
    # The built-in policy's own assignment, with nothing given, is legal by
    # the core's rules by construction (510.1a-d): it is checked only when a
    # plugin that has a say (redzone_assignment_violations) is asked about
    # this state (its gates let it through), or when it isn't the built-in
    # policy's.
    trusted = not assign and ctx.policy is _combat.default_policy \
        and not hooks.asks("redzone_assignment_violations", state)
    violations = problems if trusted else problems + _combat.assignment_violations(
        hooks, state, step, duties, full, (assign or {}).keys())
    if violations:
        error = IllegalAssignmentError(violations)
        # The assignment attempted, for an account of what would be legal instead.
        error.damage_step = step_record(ctx, state, step, duties, full, given, unused)
        raise error
    record = step_record(ctx, state, step, duties, full, given, unused)
    combat = combat.evolve(damage_steps=combat.damage_steps.set(step, frozenset(participants)),
                           dealt=combat.dealt | {d.source for d in duties})
    events = [Event("step", "510.1", step)]
    proposed = []
    for duty in duties:
        for recipient, amount in full.get(duty.source, {}).items():
            if amount:
                events.append(Event("assign", "510.1", step, source=duty.source,
                                    target=recipient, amount=amount))
                proposed.append(Damage(duty.source, recipient, amount, True, step))
    if ctx.edition.damage_on_stack:
        # 310.1: the assignments go on the stack as one object; priority follows.
        window = step + ASSIGNED
        objects = state.objects._items
        noted = {obj: objects[obj].object for d in proposed for obj in (d.source, d.target)
                 if obj in objects}
        tx = Tx(ctx, state.evolve(step=window, combat=combat.evolve(
            on_stack=proposed, on_stack_objects=noted)), answers=choices)
        tx.emit(*(e._replace(step=window, rule="310.1") for e in events))
    else:
        tx = Tx(ctx, state.evolve(step=step, combat=combat), answers=choices)
        tx.emit(*events)
        tx.deal_damage(proposed)
    try:
        return commit(tx, damage_steps=(record,))
    except IllegalActionError as exc:
        if exc.damage_step is None:
            exc.damage_step = record  # (what triggered on the damage was rejected)
        raise


#: The lethal damage of a creature that assigns to no creature (510.1b).
_NO_LETHAL: FrozenMap[str, int] = FrozenMap()


def step_record(ctx: Context, state: GameState, step: str, duties: Sequence[Duty],
                full: Mapping[str, Mapping[str, int]], given: Collection[str],
                unused: Mapping[str, Violation]) -> DamageStepRecord:
    """The record of a combat damage step's assignment (510.1), from what the
    step computed: its duties, its whole assignment (given and the policy's)
    and its unused entries; plus the lethal damage each creature had to
    consider (702.19b, 510.1c-d, by :func:`~redzone.kernel.combat.lethal_views`,
    as the assignment is checked), only for creatures assigning to creatures.

    :param given: the creatures whose assignment the caller gave.
    """
    hooks = ctx.hooks
    asked = hooks.asks("redzone_lethal_damage", state)
    by: dict[str, list[tuple[str, int]]] | None = None
    earlier: dict[str, int] = {}
    records = []
    last = len(duties) - 1
    for i, duty in enumerate(duties):
        amounts = full.get(duty.source, {})
        if duty.creatures:
            if by is None:
                by = _combat.assigned_to(full)
            lethal, before = _combat.lethal_views(hooks, state, duty, earlier, by, asked)
        else:
            lethal = before = _NO_LETHAL
        if i < last:
            unchecked: Mapping[str, object] = amounts  # (malformed ones are violations)
            for r, n in unchecked.items():
                if isinstance(n, int) and n > 0:
                    earlier[r] = earlier.get(r, 0) + n
        records.append(AssignmentRecord(
            step, duty.source, duty.power, FrozenMap(amounts), duty.source in given,
            duty.creatures, duty.attacked, lethal, duty.is_attacker, duty.blocked,
            duty.additional, duty.divider, before))
    return DamageStepRecord(step, step_label(state, step), tuple(records), FrozenMap(
        (source, str(why)) for source, why in unused.items()) if unused else _NO_UNUSED)


_NO_UNUSED: FrozenMap[str, str] = FrozenMap()


# -- 511 ------------------------------------------------------------------------------


def end_of_combat(ctx: Context, state: GameState, *, choices: Answers = None) -> Outcome:
    """Enter the end of combat step (511.1); "at end of combat" delayed
    triggers trigger (511.2, 603.7)."""
    expect(ctx, state, "end_of_combat", "end combat")
    tx = Tx(ctx, state.evolve(step="end_of_combat"), answers=choices)
    tx.emit(Event("step", "511.1", "end_of_combat"))
    return commit(tx, extra=fire_delayed(tx, lambda d: d.when == "end_of_combat"))


def finish(ctx: Context, state: GameState, *, choices: Answers = None) -> Outcome:
    """End the combat phase: everything is removed from combat (511.3) and
    "until end of combat" effects end (511.2, 500.5a); then state-based
    actions."""
    expect(ctx, state, "postcombat_main", "end the combat phase")
    # As the end of combat step ends (its events say so), then the main phase.
    attacked = _sba.attacked_battles(state)
    tx = Tx(ctx, state.evolve(combat=None), answers=choices)
    if attacked:  # (704.5x waited for the creatures attacking them: looked at again)
        tx._put({b: tx.state.objects[b] for b in attacked})
    tx.emit(Event("end_of_combat", "511.3"))
    end_effects(tx, lambda duration, condition: duration in ("end_of_combat", "this_combat"),
                "511.2")
    tx.state = tx.state.evolve(step="postcombat_main")
    ctx.hooks.end_of_combat(tx.state)
    return commit(tx)


# -- actions and the stack ------------------------------------------------------------


def perform(ctx: Context, state: GameState, actions: Sequence[object], *,
            choices: Answers = None) -> Outcome:
    """Apply actions in order in one working copy (608.2c: a resolving
    spell's or ability's instructions), then state-based actions and
    triggers once (117.5, 704.3); the game ending on the way (104) stops
    the rest."""
    names = ", ".join(repr(getattr(a, "do", type(a).__name__)) for a in actions[:3])
    check_game_on(state, f"perform {names}{', ...' if len(actions) > 3 else ''}")
    tx = Tx(ctx, state, answers=choices)
    for action in actions:
        tx.perform(action)  # type: ignore[arg-type]
        if tx._field("game_over") is not None:
            break
    return commit(tx)


def check_state_based_actions(ctx: Context, state: GameState, *,
                              choices: Answers = None) -> Outcome:
    """Perform state-based actions until none applies (704.3), with the
    choices they ask (the legend rule's, 704.5j; a battle's protector,
    704.5x) answered by key."""
    tx = Tx(ctx, state, answers=choices)
    state_based_actions(tx)
    return outcome(tx)


def resolve_trigger(ctx: Context, state: GameState, trigger_id: object = None,
                    choices: Mapping[str, Sequence[str] | str] | None = None, *,
                    answers: Answers = None, before: Sequence[ChoiceMade] = ()) -> Outcome:
    """Resolve the triggered ability on top of the stack, or the one named (608.2).

    :param trigger_id: the caller's, unchecked (``object``): one that names
        no trigger on the stack is an :class:`IllegalActionError`.
    :param before: the choices the command made before (one that resolves
        what waits on the stack, ``end_turn``): a key asked again is
        numbered after them (``#2``); the outcome holds only the new ones."""
    ctx.check(state)
    check_game_on(state, "resolve a trigger")
    if not state.stack:
        raise IllegalActionError("the stack is empty: there is no trigger to resolve",
                                 rule="405.1")
    if choices is not None:
        target = trigger_id if trigger_id is not None else state.stack[-1].id
        chosen = {name: (value,) if isinstance(value, str) else tuple(value)
                  for name, value in choices.items()}
        state = state.evolve(stack=tuple(
            t.evolve(choices=chosen) if t.id == target else t for t in state.stack))
    tx = after(Tx(ctx, state, answers=answers), before)
    resolve_top(tx, trigger_id)
    resolve_stack(tx)
    return new_choices(outcome(tx), before)


def after(tx: Tx, before: Sequence[ChoiceMade]) -> Tx:
    """``tx``, a step of a command that made the choices ``before`` in its
    earlier steps: a key asked again is numbered after them (``#2``), as
    within one step (:func:`~redzone.kernel.tx.choose_numbered`)."""
    if before:
        tx.made = list(before)
    return tx


def new_choices(out: Outcome, before: Sequence[ChoiceMade]) -> Outcome:
    """``out`` with only the choices its step made (not ``before``)."""
    return Outcome(out.state, out.events, out.choices[len(before):],
                   out.damage_steps) if before else out


def remove_trigger(ctx: Context, state: GameState, trigger_id: str) -> Outcome:
    """Take a trigger off redzone's stack without resolving it."""
    if trigger_id not in {t.id for t in state.stack}:
        raise IllegalActionError(f"there is no trigger {trigger_id!r} on the stack",
                                 rule="405.1", objects=(trigger_id,))
    stack = tuple(t for t in state.stack if t.id != trigger_id)
    return Outcome(state.evolve(stack=stack),
                   [Event("removed_from_stack", "405.1", state.step, object=trigger_id)])


__all__ = [
    "ASSIGNED",
    "DAMAGE_STEP",
    "begin_combat",
    "combat_damage",
    "damage_step_spec",
    "declare_attackers",
    "declare_blockers",
    "end_of_combat",
    "expect",
    "finish",
    "is_damage_step",
    "next_step",
    "perform",
]
