"""What would be legal instead of an illegal declaration, assignment or action.

:func:`explain` computes the explanation once, as lines of text parts each with
a role, so that every rendering shows the same facts: the terminal account
(``redzone run``, ``redzone explain``, its ``--json``) and the visual report
(:mod:`redzone.formats.report`). The lines name the rule they rest on.

Layering: a format (it reads formats and kernel values, draws nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from attrs import field, frozen

from redzone.kernel.engine import Engine
from redzone.kernel.errors import IllegalActionError
from redzone.kernel.frozen import as_tuple
from redzone.kernel.model import GameState

if TYPE_CHECKING:
    from redzone.formats.scenario import Scenario
    from redzone.kernel.actions import Action
    from redzone.kernel.results import AssignmentRecord


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

    :param res: the resolution.
    :param name: an object's readable name from its id.
    """
    error = res.error
    if error is None:
        return ()
    engine = res.scenario.engine
    state = res.failed_state
    if state is None or res.failed in (None, "resolve"):
        return (_point("every action must come after a step the combat goes through: "
                       "beginning_of_combat, declare_attackers, declare_blockers, the damage "
                       "steps that happen, end_of_combat", rule="506.1"),)
    if res.failed == "declare_attackers":
        return _attack(engine, state, name, error)
    if res.failed == "declare_blockers":
        return _block(engine, state, name, error, res.scenario.blocks)
    if res.failed == "combat_damage":
        return _assignment(engine, state, name, error, res)
    return _action(res, name)


def _attack(engine: Engine, state: GameState, name: Namer,
            error: IllegalActionError) -> tuple[Line, ...]:
    legal = engine.legal_attackers(state)
    targets = engine.attackable(state)
    out = [_point("creatures that may attack: ",
                  (", ".join(name(c) for c in legal) or "none", NAME), rule="508.1a"),
           _point("they may attack: ",
                  (", ".join(name(t) for t in targets) or "nothing", NAME), rule="508.1b")]
    out += [_point((name(obj), NAME), " can't attack at all this combat")
            for obj in error.objects if obj in state.objects and obj not in legal]
    return tuple(out)


def _block(engine: Engine, state: GameState, name: Namer, error: IllegalActionError,
           blocks: Mapping[str, Sequence[str]]) -> tuple[Line, ...]:
    combat = state.combat
    if combat is None or not combat.declared:
        return (_point("no creature attacks, so no creature can block", rule="508.8"),)
    if not combat.attacks:  # declared, then all removed from combat (506.4)
        return (_point("no creature is attacking any more (each one declared was removed "
                       "from combat), so no creature can block", rule="509.1a"),)
    out: list[Line] = []
    attackers = [o for o in error.objects if o in combat.attacks] or list(combat.attacks)
    for attacker in attackers:
        legal = engine.legal_blockers(state, attacker)
        out.append(_point("creatures that may legally block ", (name(attacker), NAME), ": ",
                          (", ".join(name(b) for b in legal) or "none", NAME), rule="509.1a"))
    for obj in error.objects:
        if obj in state.objects and obj not in combat.attacks:
            may = [a for a in combat.attacks if obj in engine.legal_blockers(state, a)]
            out.append(_point((name(obj), NAME), " may block: ",
                              (", ".join(name(a) for a in may) or "no attacking creature",
                               NAME)))
    out.append(_point(("(pair by pair; restrictions on the whole declaration are in the "
                       "violations above)", NOTE), bullet=False))
    suggested = engine.suggest_blocks(state)
    if suggested and not engine.block_violations(state, suggested):
        # 509.1c: a declaration obeying as many requirements as possible.
        shown = "; ".join(f"{name(b)} blocks {' and '.join(name(a) for a in atts)}"
                          for b, atts in suggested.items())
        out.append(_point("a declaration obeying the most requirements: ", (shown, GOOD),
                          rule="509.1c"))
    declared = {b: tuple(a) for b, a in blocks.items()}
    for attacker in attackers:
        texts = []
        for blockers in legal_blocks_for(engine, state, declared, attacker):
            texts.append(f"{' and '.join(name(b) for b in blockers)} block"
                         f"{'s' if len(blockers) == 1 else ''} {name(attacker)}" if blockers
                         else f"no creature blocks {name(attacker)}")
        if texts:
            out.append(_point("legal declarations include: ", ("; ".join(texts), GOOD),
                              " (the other blocks as declared)"))
    return tuple(out)


def legal_blocks_for(engine: Engine, state: GameState,
                     declared: Mapping[str, tuple[str, ...]],
                     attacker: str) -> list[tuple[str, ...]]:
    """Up to two sets of blockers for ``attacker`` that make the declaration
    legal, the other blocks unchanged: the declared ones that may block it,
    with every other creature of the same players that may; or none.

    :param declared: blocker -> the attackers it blocks, as declared.
    """
    others = {b: tuple(a for a in atts if a != attacker) for b, atts in declared.items()}
    others = {b: atts for b, atts in others.items() if atts}
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
        if not engine.block_violations(state, trial):
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
        others = {s: a for s, a in proposal.items() if s != rec.source}
        default = engine.policy(engine.hooks, state, step,
                                [d for d in engine.damage_duties(state)[1]
                                 if d.source == rec.source], others)
        alternative = default.get(rec.source)
        if alternative is not None:
            trial = dict(proposal)
            trial[rec.source] = alternative
            if not engine.assignment_violations(state, trial):
                shown = ", ".join(f"{n} to {name(r)}" for r, n in alternative.items())
                out.append(_point("a legal assignment: ", (shown, GOOD), depth=2,
                                  bullet=False))
    return tuple(out)


def _action(res: Resolution, name: Namer) -> tuple[Line, ...]:
    action = res.failed_action
    state = res.failed_state
    if action is None or state is None:
        return ()
    out = [_point(f"the action {action.do!r} was performed at step {state.step!r}; it "
                  "needs its objects on the battlefield (or in combat) at that moment")]
    on = [name(p.id) for p in state.battlefield]
    out.append(_point("on the battlefield then: ", (", ".join(on) or "nothing", NAME),
                      depth=2, bullet=False))
    if state.combat is not None:
        out.append(_point("attacking then: ", (", ".join(name(a) for a in state.combat.attacks)
                                               or "nothing", NAME), depth=2, bullet=False))
    return tuple(out)


__all__ = ["GOOD", "NAME", "NOTE", "PLAIN", "Line", "explain", "legal_blocks_for"]
