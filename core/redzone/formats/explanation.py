"""What would be legal instead of an illegal declaration, assignment or action.

:func:`explain` computes the explanation once, as lines of text parts each with
a role, so that every rendering shows the same facts: the terminal account
(``redzone run``, ``redzone explain``, its ``--json``) and the visual report
(:mod:`redzone.formats.report`). The lines name the rule they rest on.

Layering: a format (it reads formats and kernel values, draws nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from attrs import field, frozen

from redzone.formats.citations import CITATIONS
from redzone.kernel.combat import normalise_blocks
from redzone.kernel.engine import Engine
from redzone.kernel.errors import IllegalActionError
from redzone.kernel.frozen import as_tuple
from redzone.kernel.model import GameState
from redzone.kernel.plans import CombatPlan

if TYPE_CHECKING:
    from redzone.formats.scenario import Scenario
    from redzone.kernel.actions import Action
    from redzone.kernel.results import AssignmentRecord, DamageStepRecord


class Resolution(Protocol):
    """What an explanation reads of a resolution
    (:class:`~redzone.formats.outcome.Resolution` fits)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def error(self) -> IllegalActionError | None: ...
    @property
    def failed(self) -> str | None: ...
    @property
    def failed_state(self) -> GameState | None: ...
    @property
    def failed_action(self) -> Action | None: ...
    @property
    def assignments(self) -> Sequence[AssignmentRecord]: ...
    @property
    def damage_steps(self) -> Sequence[DamageStepRecord]: ...

#: A part's role: plain text, an object's name, a legal alternative, an aside.
PLAIN, NAME, GOOD, NOTE = "plain", "name", "good", "note"

Namer = Callable[[str | None], str]


@frozen
class Line:
    """One line of an explanation.

    :param depth: 1 for a point, 2 for a detail of the point above.
    :param parts: ``(text, role)`` pairs, the role one of :data:`PLAIN`,
        :data:`NAME`, :data:`GOOD`, :data:`NOTE`.
    :param bullet: whether it is a point of its own (a detail is not).
    :param rule: the rule it rests on, if any.
    """

    depth: int
    parts: tuple[tuple[str, str], ...] = field(converter=as_tuple)
    bullet: bool = True
    rule: str | None = None

    @property
    def text(self) -> str:
        """The line's text, without its roles."""
        return "".join(text for text, _role in self.parts)


def _point(*parts: str | tuple[str, str], rule: str | None = None, depth: int = 1,
           bullet: bool = True) -> Line:
    return Line(depth, tuple(p if isinstance(p, tuple) else (p, PLAIN) for p in parts),
                bullet, rule)


def explain(res: Resolution, name: Namer) -> tuple[Line, ...]:
    """What would be legal instead of what ``res`` rejected; nothing when the
    combat resolved.

    Each suggestion is tested on the rejected combat's own declaration (the
    first combat's, an additional combat's or a later turn's, 500.1, 500.8),
    with its damage assignment orders (509.2-509.3 of 2009-2024).

    :param res: the resolution.
    :param name: an object's readable name from its id.
    """
    error = res.error
    if error is None:
        return ()
    engine = res.scenario.engine
    state = res.failed_state
    if state is not None and res.failed == "declare_attackers":
        return _attack(engine, state, name, error, _plan_of(res.scenario, state))
    if state is not None and res.failed == "declare_blockers":
        plan = _plan_of(res.scenario, state)
        return _block(engine, state, name, error, normalise_blocks(plan.blocks or {}),
                      dict(plan.order or {}))
    if state is not None and res.failed == "combat_damage":
        return _assignment(engine, state, name, error, res)
    if state is not None and res.failed == "action":
        return _action(res, name, error)
    return _rejected(error)


def _plan_of(scenario: Scenario, state: GameState) -> CombatPlan:
    """The declarations of the combat ``state`` is in: in the scenario's first
    turn, its ``[combat]`` (the state's next or current combat) or one of its
    ``[[additional_combats]]``; in a later turn, that ``[[turns]]`` entry's
    combat or additional combats (500.1, 500.8)."""
    later = state.turn - scenario.state.turn
    plans: list[CombatPlan]
    if 0 < later <= len(scenario.turns):
        entry = scenario.turns[later - 1]
        plans, first = [entry.combat, *entry.additional_combats], 1
    else:
        plans = [CombatPlan(scenario.attacks, scenario.blocks, order=scenario.order,
                            bands=scenario.bands), *scenario.additional_combats]
        first = scenario.state.combats + 1
    return plans[min(max(state.combats - first, 0), len(plans) - 1)]


def _rejected(error: IllegalActionError) -> tuple[Line, ...]:
    """A rejection with no declaration or action to explain (a choice no
    decision asked for, 601.2; an action after a step that never comes,
    506.1): its own rule and message, and for the latter the steps a combat
    goes through."""
    out = [_point(v.message, rule=v.rule or None) for v in error.violations]
    if error.rule == "506.1":
        out.append(_point("every action must come after a step the combat goes through: "
                          "beginning_of_combat, declare_attackers, declare_blockers, the "
                          "damage steps that happen, end_of_combat", rule="506.1"))
    return tuple(out)


def _attack(engine: Engine, state: GameState, name: Namer, error: IllegalActionError,
            plan: CombatPlan) -> tuple[Line, ...]:
    legal = engine.legal_attackers(state)
    targets = engine.attackable(state)
    may = ", ".join(name(t) for t in targets) or "nothing"
    out = [_point("creatures that may attack: ",
                  (", ".join(name(c) for c in legal) or "none", NAME), rule="508.1a"),
           _point("they may attack: ", (may, NAME), rule="508.1b")]
    # Only the creatures of the declaration are attackers (508.1a); what they
    # attack is a target, which may be one that can't be attacked (508.1b).
    attackers, attacked = set(plan.attacks), set(plan.attacks.values())
    for obj in error.objects:
        if obj in attackers and obj in state.objects and obj not in legal:
            out.append(_point((name(obj), NAME), " can't attack at all this combat"))
        elif obj in attacked and obj not in attackers and obj not in targets:
            out.append(_point((name(obj), NAME), " can't be attacked: attack one of ",
                              (may, GOOD), rule="508.1b"))
    return tuple(out)


def _block(engine: Engine, state: GameState, name: Namer, error: IllegalActionError,
           blocks: Mapping[str, Sequence[str]],
           order: Mapping[str, Sequence[str]]) -> tuple[Line, ...]:
    combat = state.combat
    if combat is None or not combat.declared:
        return (_point("no creature attacks, so no creature can block", rule="508.8"),)
    if not combat.attacks:  # declared, then all removed from combat (506.4)
        return (_point("no creature is attacking any more (each one declared was removed "
                       "from combat), so no creature can block", rule="509.1a"),)
    out: list[Line] = []
    attackers = [o for o in error.objects if o in combat.attacks] or list(combat.attacks)
    legal_of = _LegalBlockers(engine, state)
    for attacker in attackers:
        legal = legal_of(attacker)
        out.append(_point("creatures that may legally block ", (name(attacker), NAME), ": ",
                          (", ".join(name(b) for b in legal) or "none", NAME), rule="509.1a"))
    for obj in error.objects:
        if obj in state.objects and obj not in combat.attacks:
            may = [a for a in combat.attacks if obj in legal_of(a)]
            out.append(_point((name(obj), NAME), " may block: ",
                              (", ".join(name(a) for a in may) or "no attacking creature",
                               NAME)))
    out.append(_point(("(pair by pair; restrictions on the whole declaration are in the "
                       "violations above)", NOTE), bullet=False))
    declared = {b: tuple(a) for b, a in blocks.items()}
    out += _order_lines(engine, state, name, error, declared, order)
    suggested = engine.suggest_blocks(state)
    if suggested and _blocks_legal(engine, state, suggested, order):
        # 509.1c: a declaration obeying as many requirements as possible.
        shown = "; ".join(f"{name(b)} blocks {' and '.join(name(a) for a in atts)}"
                          for b, atts in suggested.items())
        out.append(_point("a declaration obeying the most requirements: ", (shown, GOOD),
                          rule="509.1c"))
    for attacker in attackers:
        found, dropped = _legal_blocks_somehow(engine, state, declared, attacker, attackers,
                                               order, legal_of)
        texts = [f"{' and '.join(name(b) for b in blockers)} block"
                 f"{'s' if len(blockers) == 1 else ''} {name(attacker)}" if blockers
                 else f"no creature blocks {name(attacker)}" for blockers in found]
        if texts:
            without = "; ".join(f"{name(b)} blocking {name(a)}" for b, a in dropped)
            out.append(_point("legal declarations include: ", ("; ".join(texts), GOOD),
                              " (the other blocks as declared"
                              + (f", without {without})" if without else ")")))
    return tuple(out)


def _order_lines(engine: Engine, state: GameState, name: Namer, error: IllegalActionError,
                 declared: Mapping[str, tuple[str, ...]],
                 order: Mapping[str, Sequence[str]]) -> list[Line]:
    """How to mend the damage assignment orders the declaration was refused
    for (509.2 of 2009-2024: an attacker's order lists each creature blocking
    it; 509.3: a blocker's, each attacker it blocks); and the mended orders,
    when the blocks as declared are legal with them."""
    out: list[Line] = []
    mended = {obj: tuple(seq) for obj, seq in order.items()}
    for v in error.violations:
        if v.rule not in ("509.2", "509.3") or not v.objects:
            continue
        obj, members = v.objects[0], v.objects[1:]
        if members:
            given = [m for m in mended.get(obj, ()) if m in members]
            mended[obj] = tuple(dict.fromkeys((*given, *members)))
            what = "creature blocking it" if v.rule == "509.2" else "attacker it blocks"
            out.append(_point(f"the damage assignment order of {name(obj)} lists each {what} "
                              "once: ", (", ".join(name(m) for m in members), NAME),
                              rule=v.rule))
        else:
            mended.pop(obj, None)
            out.append(_point(f"the damage assignment order of {name(obj)} is to be removed: "
                              "it orders nothing this declaration blocks", rule=v.rule))
    if out and _blocks_legal(engine, state, declared, mended):
        changed = [(obj, seq) for obj, seq in mended.items() if tuple(order.get(obj, ())) != seq]
        if changed:
            shown = "; ".join(f"{name(obj)}: {', '.join(name(m) for m in seq)}"
                              for obj, seq in changed)
            out.append(_point("a legal order: ", (shown, GOOD)))
    return out


def _blocks_legal(engine: Engine, state: GameState, blocks: Mapping[str, Sequence[str]],
                 order: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Whether a declaration of blockers is legal on ``state``, with its
    damage assignment orders under an edition that has them (509.1, 509.2-509.3
    of 2009-2024), as :meth:`~redzone.Engine.declare_blockers` judges it.

    :param order: the damage assignment orders given with it.
    """
    if engine.block_violations(state, blocks):
        return False
    if not order or not engine.edition.assignment_orders:
        return True
    try:
        engine.declare_blockers(state, blocks, order, checked=False)
    except IllegalActionError:
        return False
    return True


class _LegalBlockers:
    """The creatures that may legally block each attacker on one state
    (:meth:`~redzone.Engine.legal_blockers`), asked once per attacker: an
    explanation asks again and again, for each attacker and each object."""

    def __init__(self, engine: Engine, state: GameState) -> None:
        self._engine, self._state = engine, state
        self._known: dict[str, tuple[str, ...]] = {}

    def __call__(self, attacker: str) -> tuple[str, ...]:
        known = self._known.get(attacker)
        if known is None:
            known = self._known[attacker] = tuple(
                self._engine.legal_blockers(self._state, attacker))
        return known


def _legal_blocks_somehow(engine: Engine, state: GameState,
                          declared: Mapping[str, tuple[str, ...]], attacker: str,
                          attackers: Sequence[str], order: Mapping[str, Sequence[str]],
                          legal_of: _LegalBlockers
                          ) -> tuple[list[tuple[str, ...]], list[tuple[str, str]]]:
    """:func:`legal_blocks_for` ``attacker``, the other blocks as declared; or,
    when none is legal so, without the other blocks of the refused attackers
    that are illegal pair by pair (509.1a-b).

    :returns: the sets of blockers found, and the ``(blocker, attacker)``
        pairs left out for them.
    """
    found = legal_blocks_for(engine, state, declared, attacker, order, legal_of(attacker))
    if found:
        return found, []
    dropped = [(b, a) for b, atts in declared.items() for a in atts
               if a != attacker and a in attackers and b not in legal_of(a)]
    if not dropped:
        return [], []
    kept = {b: tuple(a for a in atts if (b, a) not in dropped) for b, atts in declared.items()}
    kept = {b: atts for b, atts in kept.items() if atts}
    return legal_blocks_for(engine, state, kept, attacker, order, legal_of(attacker)), dropped


def legal_blocks_for(engine: Engine, state: GameState,
                     declared: Mapping[str, tuple[str, ...]],
                     attacker: str, order: Mapping[str, Sequence[str]] | None = None,
                     legal: Sequence[str] | None = None) -> list[tuple[str, ...]]:
    """Up to two sets of blockers for ``attacker`` that make the declaration
    legal, the other blocks unchanged: the declared ones that may block it,
    with every other creature of the same players that may; or none.

    :param declared: blocker -> the attackers it blocks, as declared.
    :param order: the damage assignment orders declared with it (509.2-509.3
        of 2009-2024), which each declaration found must keep legal.
    :param legal: the creatures that may legally block ``attacker`` (when
        the caller knows them: :meth:`~redzone.Engine.legal_blockers`).
    """
    others = {b: tuple(a for a in atts if a != attacker) for b, atts in declared.items()}
    others = {b: atts for b, atts in others.items() if atts}
    if legal is None:
        legal = engine.legal_blockers(state, attacker)
    mine = [b for b, atts in declared.items() if attacker in atts]
    players = {state.objects[b].controller for b in mine if b in state.objects}
    keep = [b for b in mine if b in legal]
    more = [b for b in legal if b not in mine and b not in others
            and state.objects[b].controller in players]
    found: list[tuple[str, ...]] = []
    for choice in (tuple(keep), tuple(keep + more), ()):
        if choice in found or choice == tuple(mine):
            continue
        trial = dict(others)
        for b in choice:
            trial[b] = (*trial.get(b, ()), attacker)
        if _blocks_legal(engine, state, trial, order):
            found.append(choice)
        if len(found) == 2:
            break
    return found


def _assignment(engine: Engine, state: GameState, name: Namer, error: IllegalActionError,
                res: Resolution) -> tuple[Line, ...]:
    # The rejected step's assignments as the step computed them (the given
    # ones and the engine's default for the rest), carried by the error.
    attempt = error.damage_step
    if attempt is None or not attempt.assignments:
        return ()
    step, records = attempt.step, list(attempt.assignments)
    # The creatures whose own assignment is wrong: each violation names the
    # assigning creature first (510.1), then the recipients it concerns.
    involved = {v.objects[0] for v in error.violations if v.objects} or set(error.objects)
    proposal = {r.source: dict(r.amounts) for r in records}
    spec = engine.damage_step(step)
    key = _EARLIER_KEY if spec is not None and spec.order < 0 else "assign"
    # Each wrong creature's alternative: the default policy's, with the
    # other wrong creatures' entries left out until their own alternative is
    # made (510.1c-d: the lethal damage counts what others assign); tested
    # all together, so that each alternative holds with the others'.
    alternatives: dict[str, dict[str, int]] = {}
    duties = engine.damage_duties(state)[1]
    for rec in records:
        if rec.source not in involved:
            continue
        others = {s: a for s, a in proposal.items()
                  if s != rec.source and (s not in involved or s in alternatives)}
        others.update({s: a for s, a in alternatives.items() if s != rec.source})
        default = engine.policy(engine.hooks, state, step,
                                [d for d in duties if d.source == rec.source], others)
        if rec.source in default:
            alternatives[rec.source] = dict(default[rec.source])
    mended = {**proposal, **alternatives}
    mended_legal = not engine.assignment_violations(state, mended)
    # The earlier damage steps of the same combat (702.19: first strike), in
    # which ``assign`` applied too unless ``assign_first_strike`` overrode it.
    suffix = attempt.label[len(step):]
    earlier = {d.step: {r.source for r in d.assignments} for d in res.damage_steps
               if d is not attempt and d.label == d.step + suffix and d.step != step}
    out: list[Line] = []
    for rec in records:
        if rec.source not in involved:
            continue
        out.append(_point((name(rec.source), NAME), f" must assign exactly {rec.power} "
                          "damage (its power)", rule="510.1a"))
        legal = ", ".join(name(r) for r in (*rec.creatures, *(
            (rec.attacked,) if rec.attacked is not None else ()), *rec.additional)) or "nothing"
        out.append(_point("legal recipients: ", (legal, NAME), depth=2, bullet=False))
        if rec.creatures:
            lethal = ", ".join(f"{name(c)} {rec.lethal[c]}" for c in rec.creatures)
            out.append(_point("lethal damage to each (counting damage marked and what other "
                              "creatures assign in this step): ", (lethal, NAME), depth=2,
                              bullet=False))
            if rec.attacked is not None:
                total = sum(rec.lethal[c] for c in rec.creatures)
                out.append(_point(f"before any damage may be assigned to {name(rec.attacked)}, "
                                  "each blocking creature must be assigned lethal damage: at "
                                  "least ", (str(total), NAME), " in all", depth=2,
                                  bullet=False, rule="702.19b"))
        alternative = alternatives.get(rec.source)
        if alternative is not None and mended_legal:
            shown = ", ".join(f"{n} to {name(r)}" for r, n in alternative.items())
            where = key + "".join(
                f", with the entry for {s} moved to {_EARLIER_KEY}" for s in earlier
                if key == "assign" and rec.source in earlier[s])
            out.append(_point("a legal assignment: ", (shown, GOOD), f" (for {step}: {where})",
                              depth=2, bullet=False))
    for source in sorted(involved - set(proposal)) if mended_legal else ():
        # (a given entry of a creature that assigns no combat damage: 510.1a)
        rule = next((v.rule for v in error.violations if v.objects[:1] == (source,)), "510.1a")
        out.append(_point(f"remove the entry of {name(source)} from {key}: ",
                          ("it assigns no combat damage", GOOD), rule=rule or None))
    return tuple(out)


#: The scenario key of the assignments of the steps before the regular one.
_EARLIER_KEY: Final = "assign_first_strike"

#: The combat step each section of the combat rules is about (506.1, 507-511),
#: as the account cites the steps: an action refused under a later step's
#: rule is one done too early.
_STEP_OF_SECTION: Final = {rule: step for step, rule in CITATIONS["foundations"].items()
                           if rule.isdigit() and rule.startswith("5")}


def _action(res: Resolution, name: Namer, error: IllegalActionError) -> tuple[Line, ...]:
    action = res.failed_action
    state = res.failed_state
    if action is None or state is None:
        return _rejected(error)
    out = [_point(f"the action {action.do!r} after {state.step!r} was refused: ",
                  v.message, rule=v.rule or None) for v in error.violations]
    steps = res.scenario.engine.step_names()
    later = _STEP_OF_SECTION.get(error.rule.partition(".")[0], "")
    if later in steps and state.step in steps and steps.index(later) > steps.index(state.step):
        out.append(_point("it can come after: ", (later, GOOD), rule=error.rule))
    on = [name(p.id) for p in state.battlefield]
    out.append(_point("on the battlefield then: ", (", ".join(on) or "nothing", NAME),
                      depth=2, bullet=False))
    if state.combat is not None:
        out.append(_point("attacking then: ", (", ".join(name(a) for a in state.combat.attacks)
                                               or "nothing", NAME), depth=2, bullet=False))
    return tuple(out)


__all__ = ["GOOD", "NAME", "NOTE", "PLAIN", "Line", "explain", "legal_blocks_for"]
