"""Resolving a scenario, and its JSON outcome.

:func:`resolve` runs a :class:`~redzone.formats.scenario.Scenario` through
:meth:`redzone.Engine.resolve` and keeps, besides the result, what an account
or an explanation needs: every event up to a failure, the state the failing
command was given, and each creature's combat damage assignment with the
lethal damage its controller had to consider (510.1c-d, 702.19b).

:func:`outcome_json` and :func:`error_json` build the JSON outcome of the
scenario format (``redzone run --json``); :func:`dumps` writes it
byte-for-byte reproducibly.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from redzone.formats.scenario import Scenario, ScenarioProblems, load
from redzone.kernel.actions import Action
from redzone.kernel.combat import Assignment, band_violations, lethal_map
from redzone.kernel.display import json_visible
from redzone.kernel.engine import (
    ASSIGNED,
    CombatResult,
    Engine,
    Outcome,
    _skipped_blocks,
)
from redzone.kernel.errors import (
    IllegalActionError,
    IllegalAssignmentError,
    IllegalAttackError,
    IllegalBlockError,
    PluginError,
    ScenarioError,
    Violation,
    sort_violations,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap, as_tuple
from redzone.kernel.model import ChoiceMade, GameState, Permanent
from redzone.kernel.steps import unused_entries

#: Exit statuses of ``redzone run`` (scenario format): resolved, illegal
#: declaration (or assignment, or action), bad scenario file; and, beyond the
#: format, a plugin or internal failure.
EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_SCENARIO, EXIT_FAILURE = 0, 1, 2, 3


@frozen
class AssignmentRecord:
    """One creature's combat damage assignment in one damage step.

    :param step: the combat damage step (``first_strike_damage``,
        ``combat_damage``, or one a plugin declares).
    :param source: the assigning creature.
    :param power: how much it assigns (510.1a).
    :param amounts: recipient -> amount, as proposed.
    :param given: whether the scenario gave it (else the default strategy).
    :param creatures: the creatures it may assign to, in order.
    :param attacked: what it attacks, when it may assign damage there.
    :param lethal: lethal damage to each creature in ``creatures``, counting
        damage already marked and what other creatures assign in the step.
    :param is_attacker: whether it is an attacking creature.
    :param blocked: whether it is a blocked attacking creature.
    :param additional: further recipients plugins allow it
        (:func:`~redzone.kernel.hookspecs.redzone_additional_recipients`).
    :param divider: the player who divides its damage when that is not its
        controller (702.22j-k), else ``None``.
    :param lethal_before: lethal damage to each creature in ``creatures``,
        counting damage already marked and what the creatures before this one
        assign in the step (the default assignment's view, 510.1c-d); unlike
        ``lethal`` it doesn't count this creature's damage against others'.
    """

    step: str
    source: str
    power: int
    amounts: FrozenMap[str, int]
    given: bool
    creatures: tuple[str, ...] = field(converter=as_tuple)
    attacked: str | None
    lethal: FrozenMap[str, int]
    is_attacker: bool
    blocked: bool
    additional: tuple[str, ...] = field(default=(), converter=as_tuple)
    divider: str | None = None
    lethal_before: FrozenMap[str, int] = field(factory=FrozenMap)


def assignment_records(engine: Engine, state: GameState,
                       assign: Assignment | None) -> tuple[str, tuple[AssignmentRecord, ...]]:
    """The next damage step and every creature's proposed assignment in it:
    the given ones, and the engine's default for the rest."""
    step, duties = engine.damage_duties(state)
    dutied = {d.source for d in duties}
    given = {s: dict(a) for s, a in (assign or {}).items()
             if s in dutied and isinstance(a, Mapping)}
    full = dict(given)
    full.update(engine.policy(engine.hooks, state, step, duties, given))
    totals: dict[str, int] = {}
    for amounts in full.values():
        for r, n in amounts.items():
            if isinstance(n, int) and n > 0:
                totals[r] = totals.get(r, 0) + n
    out = []
    earlier: dict[str, int] = {}
    for duty in duties:
        amounts = full.get(duty.source, {})
        own = {r: n for r, n in amounts.items() if isinstance(n, int) and n > 0}
        before = lethal_map(engine.hooks, state, duty, earlier, {})
        for r, n in own.items():
            earlier[r] = earlier.get(r, 0) + n
        out.append(AssignmentRecord(
            step=step, source=duty.source, power=duty.power, amounts=FrozenMap(amounts),
            given=duty.source in given, creatures=duty.creatures, attacked=duty.attacked,
            lethal=FrozenMap(lethal_map(engine.hooks, state, duty, totals, own, full=full)),
            is_attacker=duty.is_attacker, blocked=duty.blocked, additional=duty.additional,
            divider=duty.divider, lethal_before=FrozenMap(before)))
    return step, tuple(out)


class _Recorder(Engine):
    """An engine sharing another's plugins that records, for each command it
    runs, the state it was given and the events it made, and the assignments
    of each damage step."""

    def __init__(self, base: Engine) -> None:
        # Share the base engine's plugin manager and settings: no rediscovery.
        self.__dict__.update(base.__dict__)
        self.log: list[Event] = []
        self.records: list[AssignmentRecord] = []
        self.attempt: tuple[str, GameState, Action | None] | None = None
        self.last: GameState | None = None
        #: Notes on the entries of the assignments left unused (506.4, 510.1b-d),
        #: each entry's first time only.
        self.notes: list[str] = []
        self._noted: set[tuple[int, str]] = set()

    def _done(self, out: Outcome) -> Outcome:
        self.log.extend(out.events)
        self.attempt = None
        self.last = out.state
        return out

    # The overrides take and pass on whatever else the engine's commands take,
    # so that new parameters of the engine need no change here.

    def begin_combat(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("begin_combat", state, None)
        return self._done(super().begin_combat(state, *args, **kwargs))

    def declare_attackers(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("declare_attackers", state, None)
        return self._done(super().declare_attackers(state, *args, **kwargs))

    def declare_blockers(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("declare_blockers", state, None)
        return self._done(super().declare_blockers(state, *args, **kwargs))

    def combat_damage(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("combat_damage", state, None)
        if not state.step.endswith(ASSIGNED):  # else: damage on the stack resolves (310.4)
            assign = kwargs.get("assign", args[0] if args else None)
            _step, records = assignment_records(self, state, assign)
            self.records.extend(records)
            for source, why in unused_entries(self, state, assign).items():
                if (id(assign), source) not in self._noted:
                    self._noted.add((id(assign), source))
                    self.notes.append(str(why))
        return self._done(super().combat_damage(state, *args, **kwargs))

    def end_of_combat(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("end_of_combat", state, None)
        return self._done(super().end_of_combat(state, *args, **kwargs))

    def finish(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("finish", state, None)
        return self._done(super().finish(state, *args, **kwargs))

    def end_step(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("end_step", state, None)
        return self._done(super().end_step(state, *args, **kwargs))

    def cleanup(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("cleanup", state, None)
        return self._done(super().cleanup(state, *args, **kwargs))

    def perform(self, state: GameState, action: Action, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("action", state, action)
        return self._done(super().perform(state, action, *args, **kwargs))

    def resolve_trigger(self, state: GameState, *args: Any, **kwargs: Any) -> Outcome:
        self.attempt = ("trigger", state, None)
        return self._done(super().resolve_trigger(state, *args, **kwargs))


@frozen
class Resolution:
    """A scenario, resolved or rejected.

    :param scenario: the scenario.
    :param result: the resolved combat, or ``None`` when it was rejected.
    :param error: why it was rejected, or ``None``.
    :param events: every event, in order (up to the failure, if any).
    :param assignments: each damage step's assignments, in order (the last
        step's are those rejected, if an assignment was illegal).
    :param failed: the command that was rejected: ``declare_attackers``,
        ``declare_blockers``, ``combat_damage``, ``action``, or ``resolve``
        (actions after steps that never happened).
    :param failed_state: the state the rejected command was given.
    :param failed_action: the rejected action, for ``action``.
    :param notes: what is worth knowing that is not a problem: the entries
        of the damage assignments left unused because their creature no
        longer was in combat (506.4) or had nothing to assign to (510.1b-d).
    :param partial: for a rejected combat, what was done before the rejected
        command (:attr:`~redzone.IllegalActionError.partial`), else ``None``.

    .. versionadded:: 0.1.0
    """

    scenario: Scenario
    result: CombatResult | None
    error: IllegalActionError | None
    events: tuple[Event, ...] = field(converter=as_tuple)
    assignments: tuple[AssignmentRecord, ...] = field(converter=as_tuple)
    failed: str | None = None
    failed_state: GameState | None = None
    failed_action: Action | None = None
    notes: tuple[str, ...] = field(default=(), converter=as_tuple)
    partial: CombatResult | None = None

    @property
    def ok(self) -> bool:
        """Whether the combat resolved."""
        return self.result is not None

    @property
    def exit_status(self) -> int:
        """0 when the combat resolved, 1 when something was illegal
        (:func:`exit_status` of :attr:`error`)."""
        return exit_status(self.error)

    def to_html(self) -> str:
        """The visual report: one self-contained HTML page (:mod:`redzone.formats.report`)."""
        from redzone.formats import report as _report

        return _report.render_html(self)

    def _repr_html_(self) -> str:
        from redzone.formats import report as _report

        return _report.render_html(self, fragment=True)

    def __repr__(self) -> str:
        from redzone.formats import report as _report

        return _report.resolution_repr(self)


def resolve(scenario: Scenario) -> Resolution:
    """Resolve a scenario's combat.

    Illegal declarations, assignments and actions give a :class:`Resolution`
    with ``error`` set; a failing plugin raises :class:`~redzone.PluginError`.
    """
    rec = _Recorder(scenario.engine)
    try:
        result = rec.resolve(
            scenario.state, scenario.attacks, scenario.blocks,
            assign=scenario.assign, assign_first_strike=scenario.assign_first_strike,
            actions=scenario.actions, order=scenario.order, bands=scenario.bands,
            additional_combats=scenario.additional_combats, through=scenario.through,
            choices=scenario.choices)
    except IllegalActionError as exc:
        failed, state, action = rec.attempt or ("resolve", None, None)
        if rec.attempt is None and isinstance(exc, IllegalBlockError):
            # 508.8: blocks for a declare blockers step that is skipped.
            failed, state = "declare_blockers", rec.last
        return Resolution(scenario, None, exc, rec.log, rec.records, failed, state, action,
                          notes=rec.notes, partial=exc.partial)
    return Resolution(scenario, result, None, result.events, rec.records, notes=rec.notes)


@frozen
class Finding:
    """A problem :func:`check` found, with the declaration it concerns.

    :param stage: ``attacks``, ``blocks``, ``assign``, ``actions``.
    :param error: the error, with every violation.
    """

    stage: str
    error: IllegalActionError


@frozen
class CheckReport:
    """What :func:`check_report` found.

    :param findings: the problems, each with its declaration.
    :param notes: what is worth knowing that is not a problem (as
        :attr:`Resolution.notes`).
    """

    findings: tuple[Finding, ...] = field(converter=as_tuple)
    notes: tuple[str, ...] = field(default=(), converter=as_tuple)


#: The stage of :class:`Finding` for each command :func:`resolve` may reject.
_STAGES = {"declare_attackers": "attacks", "declare_blockers": "blocks",
           "combat_damage": "assign"}


def check(scenario: Scenario) -> tuple[Finding, ...]:
    """Validate the declarations: :func:`check_report`'s findings."""
    return check_report(scenario).findings


def check_report(scenario: Scenario) -> CheckReport:
    """Validate the declarations, listing every problem of each at once.

    Checks the attack, then (if it is legal) the blocks, then (if they are
    legal) the assignments of the first combat damage step, performing the
    priority-window actions that come before each, without dealing damage.
    When all of that is legal, the combat is resolved (nothing is shown) so
    that the later steps' assignments and actions are checked by the same
    rules as ``run`` uses (:func:`~redzone.kernel.steps.sort_entries`):
    ``check`` finds exactly the error ``run`` would give, and the same notes.
    """
    found = _first_findings(scenario)
    if found:
        return CheckReport(found)
    res = resolve(scenario)
    if res.error is None:
        return CheckReport((), res.notes)
    return CheckReport((Finding(_STAGES.get(res.failed or "", "actions"), res.error),),
                       res.notes)


def _first_findings(scenario: Scenario) -> tuple[Finding, ...]:
    """The problems of the declarations up to the first combat damage step."""
    rec = _Recorder(scenario.engine)
    pending: dict[str, list[Action]] = {}
    for after, action in scenario.actions:
        pending.setdefault(after, []).append(action)
    found: list[Finding] = []
    stage = "actions"

    def window(state: GameState, step: str) -> GameState:
        for action in pending.pop(step, []):
            state = rec.perform(state, action).state
        return state

    try:
        state = window(rec.begin_combat(scenario.state).state, "beginning_of_combat")
        stage = "attacks"
        violations = rec.attack_violations(state, scenario.attacks) + sort_violations(
            band_violations(rec.hooks, state, scenario.attacks, scenario.bands))
        if violations:
            return (Finding("attacks", IllegalAttackError(violations)),)
        state = rec.declare_attackers(state, scenario.attacks, scenario.bands).state
        stage = "actions"
        state = window(state, "declare_attackers")
        if rec.next_step(state) != "declare_blockers":
            skipped = _skipped_blocks(state, scenario.blocks)
            return (Finding("blocks", IllegalBlockError(skipped)),) if skipped else ()
        stage = "blocks"
        blocks = {b: a for b, a in scenario.blocks.items() if a}
        violations = rec.block_violations(state, blocks)
        if violations:
            return (Finding("blocks", IllegalBlockError(violations)),)
        state = rec.declare_blockers(state, blocks, order=scenario.order).state
        stage = "actions"
        state = window(state, "declare_blockers")
        nxt = rec.next_step(state)
        spec = rec.damage_step(nxt) if nxt is not None and not nxt.endswith(ASSIGNED) else None
        if spec is not None:
            stage = "assign"
            assign = scenario.assign_first_strike if (
                spec.order < 0 and scenario.assign_first_strike is not None
            ) else scenario.assign
            violations = rec.assignment_violations(state, assign)
            if violations:
                found.append(Finding("assign", IllegalAssignmentError(violations)))
    except IllegalActionError as exc:
        found.append(Finding(stage, exc))
    return tuple(found)


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------


def _permanent_json(perm: Permanent) -> dict[str, Any]:
    return {
        "zone": perm.zone,
        "power": perm.power if perm.base_power is not None else None,
        "toughness": perm.toughness if perm.base_toughness is not None else None,
        "damage": perm.damage,
        "counters": dict(sorted(perm.counters.items())),
        "tapped": perm.tapped,
        "loyalty": perm.loyalty,
        "defense": perm.defense,
        "keywords": [k.text for k in perm.keywords],
    }


def board_json(state: GameState) -> dict[str, Any]:
    """The ``players`` and ``permanents`` of the JSON outcome for a state, in
    the scenario's order."""
    return {
        "players": {p.id: {"life": p.life, "poison": p.poison, "lost": p.lost}
                    for p in state.players.values()},
        "permanents": {p.id: _permanent_json(p) for p in state.objects.values()},
    }


def outcome_json(resolution: Resolution) -> dict[str, Any]:
    """The JSON outcome of the scenario format for a resolution."""
    if resolution.error is not None or resolution.result is None:
        assert resolution.error is not None
        out = error_json(resolution.error)
        partial = resolution.partial
        if partial is not None and partial.after_steps:
            # A combat damage step was done before the rejected command: it
            # stands (510.1e), and the outcome says what it did.
            out["partial"] = _result_json(resolution.scenario.rules, partial)
        return out
    return {"ok": True, **_result_json(resolution.scenario.rules, resolution.result)}


def _result_json(rules: str, result: CombatResult) -> dict[str, Any]:
    board = board_json(result.state)
    return {
        "rules": rules,
        "players": board["players"],
        "permanents": board["permanents"],
        "steps": list(result.steps),
        "game_over": game_over_json(result.state),
        "choices": [choice_json(c) for c in result.choices],
        "after_steps": {step: board_json(state) for step, state in result.after_steps.items()},
        "events": [event.to_json() for event in result.events],
    }


def choice_json(choice: ChoiceMade) -> dict[str, Any]:
    """One entry of the outcome's ``choices``: every decision made, with
    ``default`` true where redzone took the default because none was given."""
    return {"key": choice.key, "player": choice.player, "kind": choice.kind,
            "answer": list(choice.answer), "default": choice.by_default,
            "options": list(choice.options), "rule": choice.rule, "step": choice.step}


def game_over_json(state: GameState) -> dict[str, Any] | None:
    """The ``game_over`` of the JSON outcome: ``None`` while the game goes on
    (104, 800.4a)."""
    over = state.game_over
    if over is None:
        return None
    return {"winners": list(over.winners), "losers": list(over.losers), "draw": over.draw,
            "step": over.step, "rule": over.rule}


def _violation_json(v: Violation) -> dict[str, Any]:
    return {"rule": v.rule, "message": v.message, "objects": list(v.objects)}


def error_json(error: BaseException) -> dict[str, Any]:
    """The ``{"ok": false, "error": {...}}`` object for an error.

    Every error has ``kind``, ``rule``, ``message`` and ``objects``; ``rule``
    is ``None`` (``null``) for an error no rule is broken by (a bad file, a
    failing plugin, an internal error). Beyond the
    format: illegal declarations list every ``violations``; ``bad_scenario``
    adds ``file``, ``key``, ``line`` and every ``problems``; a failing plugin
    is ``plugin_error`` with ``plugin``, ``distribution`` and ``hook``.
    """
    body: dict[str, Any]
    if isinstance(error, IllegalActionError):
        body = {"kind": error.kind, "rule": error.rule, "message": error.message,
                "objects": list(error.objects),
                "violations": [_violation_json(v) for v in error.violations]}
    elif isinstance(error, ScenarioError):
        problems: Sequence[ScenarioError] = (
            error.problems if isinstance(error, ScenarioProblems) else (error,))
        body = {"kind": "bad_scenario", "rule": None, "message": str(error), "objects": [],
                "file": error.file, "key": error.key, "line": error.line,
                "problems": [{"key": p.key, "line": p.line, "message": p.detail}
                             for p in problems]}
    elif isinstance(error, PluginError):
        body = {"kind": "plugin_error", "rule": None, "message": str(error), "objects": [],
                "plugin": error.plugin, "distribution": error.distribution,
                "hook": error.hook}
    else:
        body = {"kind": "internal_error", "rule": None,
                "message": f"{type(error).__name__}: {error}", "objects": []}
    return {"ok": False, "error": body}


def run_file(path: str | os.PathLike[str], *, rules: str | None = None) -> dict[str, Any]:
    """The JSON outcome of a scenario file, exactly as ``redzone run --json``
    prints it, errors included.

    :raises PluginError: when a plugin fails.
    """
    try:
        scenario = load(path, rules=rules, engine_factory=command_engine)
    except ScenarioError as exc:
        return error_json(exc)
    return outcome_json(resolve(scenario))


def command_engine(rules: str = "foundations", **options: Any) -> Engine:
    """The engine ``redzone run``, ``redzone batch`` and, by default,
    :func:`redzone.simulate` resolve scenarios with: verify mode on, whatever
    ``REDZONE_VERIFY`` says, so that a plugin that changes the state it is
    given fails its scenario with a :class:`~redzone.PluginError` naming it
    (guarantee 10) instead of giving a wrong outcome.

    :param rules: the rules edition.
    :param options: other keyword arguments of :class:`~redzone.Engine`
        (``hook_timeout``...).
    :raises PluginLoadError: when a plugin can't be loaded.
    """
    return Engine(rules, verify=True, **options)


def exit_status(error: BaseException | None) -> int:
    """The exit status of ``redzone run`` (and the status ``redzone batch``
    reports for a file) for an error (``None``: resolved): 1 illegal, 2 bad
    scenario, 3 anything else (a failing plugin, redzone itself)."""
    if error is None:
        return EXIT_OK
    if isinstance(error, IllegalActionError):
        return EXIT_ILLEGAL
    if isinstance(error, ScenarioError):
        return EXIT_BAD_SCENARIO
    return EXIT_FAILURE


def dumps(data: Mapping[str, Any]) -> str:
    """JSON text for an outcome: two-space indents, a final newline, the
    same bytes for the same scenario; characters other than controls and
    bidi or zero-width marks as they are (:func:`~redzone.kernel.display.json_visible`)."""
    return json_visible(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


__all__ = [
    "EXIT_BAD_SCENARIO",
    "EXIT_FAILURE",
    "EXIT_ILLEGAL",
    "EXIT_OK",
    "AssignmentRecord",
    "CheckReport",
    "Finding",
    "Resolution",
    "assignment_records",
    "board_json",
    "check",
    "check_report",
    "choice_json",
    "command_engine",
    "dumps",
    "error_json",
    "exit_status",
    "game_over_json",
    "outcome_json",
    "resolve",
    "run_file",
]
