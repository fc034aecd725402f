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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from attrs import field, frozen

from redzone.formats.scenario import Scenario, ScenarioProblems, load
from redzone.kernel.display import json_visible
from redzone.kernel.engine import CombatResult, Engine
from redzone.kernel.errors import (
    IllegalActionError,
    PluginError,
    ScenarioError,
    Violation,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import as_tuple, lazy_frozen
from redzone.kernel.hooktypes import Action
from redzone.kernel.model import PLAYER_ZONES, ChoiceMade, GameState, Permanent
from redzone.kernel.results import AssignmentRecord, DamageStepRecord

#: Exit statuses of ``redzone run`` (scenario format): resolved, illegal
#: declaration (or assignment, or action), bad scenario file; and, beyond the
#: format, a plugin or internal failure.
EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_SCENARIO, EXIT_FAILURE = 0, 1, 2, 3


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
    :param damage_steps: each damage step's record, in order (the last one
        the rejected attempt, if an assignment was illegal), each labelled
        as its events are (:attr:`~redzone.DamageStepRecord.label`): what
        :attr:`assignments` lists, by the combat and turn each belongs to.

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
    damage_steps: tuple[DamageStepRecord, ...] = field(default=(), converter=as_tuple)

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

    Everything shown comes from what the engine reports: the events, each
    combat damage step's record (:attr:`~redzone.CombatResult.damage_steps`,
    and for an illegal assignment the attempt the error carries,
    :attr:`~redzone.IllegalActionError.damage_step`), the rejected command
    and the state it was given (:attr:`~redzone.IllegalActionError.command`,
    :attr:`~redzone.IllegalActionError.state`).

    Illegal declarations, assignments and actions give a :class:`Resolution`
    with ``error`` set; a failing plugin raises :class:`~redzone.PluginError`.
    """
    try:
        result = scenario.engine.resolve(
            scenario.state, scenario.attacks, scenario.blocks,
            assign=scenario.assign, assign_first_strike=scenario.assign_first_strike,
            actions=scenario.actions, order=scenario.order, bands=scenario.bands,
            additional_combats=scenario.additional_combats, through=scenario.through,
            choices=scenario.choices, turns=scenario.turns, first_turn=scenario.first_turn)
    except IllegalActionError as exc:
        partial = exc.partial
        steps = partial.damage_steps if partial is not None else ()
        if exc.damage_step is not None:
            steps += (exc.damage_step,)
        return Resolution(scenario, None, exc, partial.events if partial is not None else (),
                          _assignments(steps), exc.command or "resolve", exc.state,
                          cast("Action | None", exc.action), notes=_notes(scenario, steps),
                          partial=partial, damage_steps=steps)
    steps = result.damage_steps
    return Resolution(scenario, result, None, result.events, _assignments(steps),
                      notes=_notes(scenario, steps), damage_steps=steps)


def _assignments(steps: Sequence[DamageStepRecord]) -> tuple[AssignmentRecord, ...]:
    return tuple(record for step in steps for record in step.assignments)


def _notes(scenario: Scenario, steps: Sequence[DamageStepRecord]) -> tuple[str, ...]:
    """The notes on the entries the damage steps left unused (506.4,
    510.1b-d): each entry of each given assignment once, the first time;
    a step is known by its label (its combat, ``#N``, and its turn, ``@N``),
    which a later combat's or turn's note names."""
    if not any(step.unused for step in steps):
        return ()
    engine = scenario.engine
    noted: set[tuple[int, int, bool, str]] = set()
    out = []
    for step in steps:
        # Which of the scenario's assignments the step used (505.1a: its
        # combat's, in its turn's; 702.19: the first-strike one, before the
        # regular step).
        turn, number = _combat_of(step.label)
        plan = _plan(scenario, turn, number)
        spec = engine.damage_step(step.step)
        early = spec is not None and spec.order < 0
        for source, why in step.unused.items():
            # (an entry of assign_first_strike, or of assign: 702.19, by entry)
            own = early and isinstance(plan[1], Mapping) and source in plan[1]
            key = (turn, number, own, source)
            if key not in noted:
                noted.add(key)
                out.append(why if step.label == step.step else why.replace(
                    f" unused in {step.step} (", f" unused in {step.label} (", 1))
    return tuple(out)


def _combat_of(label: str) -> tuple[int, int]:
    """The turn of the run (1, 2 ...) and the combat of that turn a step's
    label names (``combat_damage#2@3``: the third turn's second combat)."""
    rest, at, turn = label.rpartition("@")
    if not at or not turn.isdigit():
        rest, turn = label, "1"
    _name, hashed, number = rest.rpartition("#")
    return int(turn), int(number) if hashed and number.isdigit() else 1


def _plan(scenario: Scenario, turn: int, number: int) -> tuple[object, object]:
    """The ``assign`` and ``assign_first_strike`` of a turn's combat: in the
    first turn, the scenario's own combats, the first of which is the state's
    next (or current) one; in a later turn, that ``[[turns]]`` entry's."""
    plans: list[tuple[object, object]]
    if turn > 1 and turn - 2 < len(scenario.turns):
        entry = scenario.turns[turn - 2]
        plans = [(p.assign, p.assign_first_strike)
                 for p in (entry.combat, *entry.additional_combats)]
        first = 1
    else:
        plans = [(scenario.assign, scenario.assign_first_strike)]
        plans += [(p.assign, p.assign_first_strike) for p in scenario.additional_combats]
        first = scenario.state.combats + 1  # the number of the scenario's first combat
    return plans[min(max(number - first, 0), len(plans) - 1)]


@lazy_frozen
class Finding:
    """A problem :func:`check` found, with the declaration it concerns.

    :param stage: ``attacks``, ``blocks``, ``assign``, ``actions``.
    :param error: the error, with every violation.
    """

    stage: str
    error: IllegalActionError


@lazy_frozen
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
    """Validate the declarations, listing every problem of the first illegal one.

    The combat is resolved (nothing is shown) by the very path ``run`` takes
    (:func:`resolve`): every command on the state the commands before it
    made, with the file's choices and actions, so that each damage step's
    given assignment (``assign_first_strike`` and ``assign``, 702.19, 510.1)
    is checked by the rules ``run`` uses, on the state ``run`` reaches.
    ``check`` finds exactly the error ``run`` would give (every violation of
    the rejected declaration, assignment or action), and the same notes.
    """
    res = resolve(scenario)
    if res.error is None:
        return CheckReport((), res.notes)
    return CheckReport((Finding(_STAGES.get(res.failed or "", "actions"), res.error),),
                       res.notes)


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------


def _permanent_json(perm: Permanent) -> dict[str, Any]:
    # A permanent a continuous effect made a creature has power and toughness
    # (613.4b) though its card has none.
    layered = perm.layered is not None and perm.is_creature
    out = {
        "zone": perm.zone,
        "object": perm.object,
        "power": perm.power if perm.base_power is not None or layered else None,
        "toughness": perm.toughness if perm.base_toughness is not None or layered else None,
        "damage": perm.damage,
        "counters": dict(sorted(perm.counters.items())),
        "tapped": perm.tapped,
        "loyalty": perm.loyalty,
        "defense": perm.defense,
        "keywords": [k.text for k in perm.keywords],
    }
    if perm.layered is not None:  # characteristics continuous effects changed (613)
        out.update(name=perm.name, types=sorted(perm.types), subtypes=list(perm.subtypes),
                   colors=sorted(perm.colors))
    return out


def board_json(state: GameState, *,
               permanents: Iterable[Permanent] | None = None) -> dict[str, Any]:
    """The ``players``, ``permanents`` and ``zones`` of the JSON outcome for a
    state, in the scenario's order.

    :param permanents: the objects ``permanents`` lists, if not the state's
        (:func:`_listings`: with the tokens that ceased to exist in an
        earlier turn)."""
    listed = state.objects.values() if permanents is None else permanents
    board = {
        "players": {p.id: {"life": p.life, "poison": p.poison, "lost": p.lost}
                    for p in state.players.values()},
        "permanents": {p.id: _permanent_json(p) for p in listed},
        "zones": zones_json(state),
    }
    if state.teams:
        board["teams"] = teams_json(state)
    return board


def zones_json(state: GameState) -> dict[str, dict[str, list[str]]]:
    """The ``zones`` of the JSON outcome: each player's ``hand``, ``library``
    (top first, 401.1), ``graveyard`` (oldest first, 404.1) and ``exile`` (the
    cards they own there, in the order they were exiled), as ids."""
    found: dict[tuple[str, str], list[Permanent]] = {}
    for perm in state.objects.values():
        if perm.zone in PLAYER_ZONES:
            found.setdefault((perm.owner, perm.zone), []).append(perm)
    return {player: {zone: [p.id for p in sorted(found.get((player, zone), ()),
                                                 key=lambda p: p.position)]
                     for zone in PLAYER_ZONES} for player in state.players}


def teams_json(state: GameState) -> dict[str, Any]:
    """The ``teams`` of the JSON outcome, only in team play (Two-Headed Giant,
    810): team id -> its ``players``, its one shared ``life`` total (810.4,
    810.9) and ``poison`` count (810.10), and whether it ``lost`` (810.8a: a
    team loses when either player does)."""
    out: dict[str, Any] = {}
    for team, members in state.teams.items():
        first = state.players[members[0]]
        out[team] = {"players": list(members), "life": first.life, "poison": first.poison,
                     "lost": any(state.players[m].lost for m in members)}
    return out


def outcome_json(resolution: Resolution) -> dict[str, Any]:
    """The JSON outcome of the scenario format for a resolution."""
    return _outcome_json(resolution.scenario.rules, resolution.result, resolution.error,
                         resolution.partial)


def combat_outcome_json(rules: str, result: CombatResult | None,
                        error: IllegalActionError | None = None) -> dict[str, Any]:
    """The JSON outcome of the scenario format for what
    :meth:`redzone.Engine.resolve` gave, without a
    :class:`~redzone.formats.scenario.Scenario`: the same object
    :func:`outcome_json` gives for the :func:`resolve` of a scenario with
    the same state and declarations.

    :param rules: the rules edition (the outcome's ``rules``).
    :param result: the resolved combat, or ``None`` when it was rejected.
    :param error: why it was rejected (its ``partial`` is what was done
        before), or ``None``.
    :returns: the JSON outcome.

    .. versionadded:: 0.1.0
    """
    return _outcome_json(rules, result, error, error.partial if error is not None else None)


def _outcome_json(rules: str, result: CombatResult | None, error: IllegalActionError | None,
                  partial: CombatResult | None) -> dict[str, Any]:
    if error is not None or result is None:
        assert error is not None
        out = error_json(error)
        if partial is not None and partial.after_steps:
            # A combat damage step was done before the rejected command: it
            # stands (510.1e), and the outcome says what it did.
            out["partial"] = _result_json(rules, partial)
        return out
    return {"ok": True, **_result_json(rules, result)}


def _listings(states: Iterable[GameState]) -> Iterator[list[Permanent] | None]:
    """For each of a run's states in order (its ``after_steps``, then its
    last), the objects its board lists: ``None`` for the state's own, or
    those with the tokens that ceased to exist (111.7-111.8) which the state
    no longer holds because a later turn began (guarantee 15). The outcome
    keeps every object (scenario format: additions of January 2027), so each
    such token stays listed with ``"zone": "ceased"`` and its last known
    values, where it was listed before."""
    ceased: dict[str, Permanent] = {}  # (each, as last listed)
    order: list[str] = []  # the ids the last board listed, in order
    for state in states:
        objects = state.objects
        after: dict[str | None, list[str]] = {}  # gone tokens, by what they followed
        anchor: str | None = None
        for obj in order:
            if obj in objects:
                anchor = obj
            elif obj in ceased:
                after.setdefault(anchor, []).append(obj)
        listing: list[Permanent] | None = None
        if after:
            listing = [ceased[obj] for obj in after.get(None, ())]
            for obj, perm in objects.items():
                listing.append(perm)
                listing.extend(ceased[gone] for gone in after.get(obj, ()))
        for perm in objects.values():
            if perm.zone == "ceased":
                ceased[perm.id] = perm
        order = list(objects) if listing is None else [p.id for p in listing]
        yield listing


def _result_json(rules: str, result: CombatResult) -> dict[str, Any]:
    states = [*result.after_steps.values(), result.state]
    listings = list(_listings(states))
    board = board_json(result.state, permanents=listings[-1])
    return {
        "rules": rules,
        "players": board["players"],
        "permanents": board["permanents"],
        "zones": board["zones"],
        **({"teams": board["teams"]} if "teams" in board else {}),
        "steps": list(result.steps),
        "game_over": game_over_json(result.state),
        "choices": [choice_json(c) for c in result.choices],
        "after_steps": {step: board_json(state, permanents=listed) for (step, state), listed
                        in zip(result.after_steps.items(), listings[:-1], strict=True)},
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
    "board_json",
    "check",
    "check_report",
    "choice_json",
    "combat_outcome_json",
    "command_engine",
    "dumps",
    "error_json",
    "exit_status",
    "game_over_json",
    "outcome_json",
    "resolve",
    "run_file",
    "teams_json",
]
