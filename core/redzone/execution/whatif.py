"""What-if studies: one board under every legal declaration, resolved.

The enumerator (:mod:`redzone.kernel.enumerate`,
:meth:`redzone.Engine.legal_block_declarations`) says which declarations are
legal; a what-if study resolves the board under each of them through
:func:`~redzone.execution.simulation.simulate` (here or on any executor) and
ranks the outcomes by the caller's score. :func:`what_if_blocks` scores full
outcomes here; :func:`what_if` runs a whole :class:`Grid` (blocks x action
lists x variants), scored on the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, TypeVar, overload

import attrs
from attrs import field, frozen

from redzone.execution.jobs import (
    _DECISION_KEYS,
    _REST_KEYS,
    OUTCOMES,
    JobOutcome,
    LightOutcome,
    MidCombat,
    S,
    Scored,
)
from redzone.execution.simulation import simulate
from redzone.formats.outcome import command_engine
from redzone.kernel import validate as _validate
from redzone.kernel.actions import Action
from redzone.kernel.combat import normalise_blocks
from redzone.kernel.engine import Engine
from redzone.kernel.errors import BadQueryError, IllegalActionError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState
from redzone.kernel.resume import in_combat
from redzone.kernel.steps import COMBAT_MAY_BEGIN

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

#: What a what-if score function returns: a sortable value (best first).
Sortable = TypeVar("Sortable", bound="SupportsRichComparison")

@frozen
class WhatIf(Generic[S]):
    """One legal declaration of blockers and how it scored.

    :param blocks: the declaration.
    :param outcome: its outcome.
    :param score: what the caller's function gave it.

    .. versionadded:: 0.1.0
    """

    blocks: FrozenMap[str, tuple[str, ...]]
    outcome: JobOutcome
    score: S


def what_if_blocks(state: GameState, attacks: Mapping[str, str],
                   score: Callable[[JobOutcome], Sortable], *, engine: Engine | None = None,
                   executor: Any = None, chunksize: int | None = None,
                   **decisions: Any) -> list[WhatIf[Sortable]]:
    """Resolve one board under every legal declaration of blockers (509.1,
    enumerated by :meth:`redzone.Engine.legal_block_declarations` from the
    state the decisions reach as blockers are to be declared: their choices
    made, their actions in the steps before done, the triggers resolved) through
    :func:`~redzone.execution.simulation.simulate`, each outcome scored by
    ``score``; best score first (ties in enumeration order).

    :param state: the board before combat.
    :param attacks: the declaration of attackers.
    :param score: outcome -> a sortable score (higher is better).
    :param engine: the engine that enumerates the declarations and resolves
        them; default :func:`~redzone.formats.outcome.command_engine`, the
        engine of ``redzone run`` and of :func:`simulate`: verify mode on,
        whatever ``REDZONE_VERIFY`` says, so a plugin that changes the state
        it is given fails that declaration's outcome naming itself. A given
        engine keeps its own verify mode, here and on every worker.
    :param executor: where the declarations are resolved, as for
        :func:`simulate` (``None``: here, one after another).
    :param chunksize: declarations per chunk sent to a worker, as for
        :func:`simulate`.
    :param decisions: other keyword arguments of :meth:`redzone.Engine.resolve`
        (``assign``, ``actions``...), the same for every declaration.
    :raises IllegalAttackError: when ``attacks`` is not a legal declaration
        of attackers (508.1).
    :raises PluginError: when a plugin fails while combat begins or the
        attackers are declared (a plugin failing while a declaration is
        resolved is that declaration's outcome).
    """
    if not isinstance(attacks, Mapping):
        raise BadQueryError(f"what_if_blocks: attacks is {type(attacks).__name__}, not a "
                            "mapping of attacking creature to what it attacks", rule="508.1")
    engine = engine if engine is not None else command_engine()
    # The blocks are listed from the state the declarations are resolved
    # from: after the decisions' choices and actions, the triggers resolved.
    kept = {k: decisions[k] for k in _BEFORE_BLOCKS if k in decisions}
    at = engine.resolve(state, attacks, through="declare_attackers", **kept).state
    options = list(_blocks_at(engine, at))
    jobs = [(state, {**decisions, "attacks": dict(attacks), "blocks": dict(b)})
            for b in options]
    outs = simulate(jobs, executor=executor, engine=engine, chunksize=chunksize)
    scored = [WhatIf(b, o, score(o)) for b, o in zip(options, outs, strict=True)]
    order = sorted(range(len(scored)), key=lambda i: scored[i].score, reverse=True)
    return [scored[i] for i in order]


def _mapping(value: Any, name: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise BadQueryError(f"what_if: {name} is {type(value).__name__}, not a mapping",
                            rule="117.1")
    return value


def _axis(value: Any, name: str, each: str) -> list[Any]:
    """An axis: a list (or other sequence) of items, not one item alone."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise BadQueryError(f"what_if: grid.{name} is {type(value).__name__}: give a list "
                            f"of {each}", rule="117.1")
    return list(value)


def _attacks(value: Any) -> FrozenMap[str, str] | None:
    return None if value is None else FrozenMap(_mapping(value, "grid.attacks"))


def _block_axis(value: Any) -> tuple[FrozenMap[str, tuple[str, ...]], ...] | None:
    if value is None:
        return None
    return tuple(FrozenMap(normalise_blocks(_mapping(d, f"grid.blocks[{i}]")))
                 for i, d in enumerate(_axis(value, "blocks", "declarations of blockers")))


def _action_axis(value: Any) -> tuple[tuple[tuple[str, Action], ...], ...]:
    lists = _axis(value, "actions", "action lists, each of (step, action) pairs")
    return tuple(tuple(_axis(a, f"actions[{i}]", "(step, action) pairs"))
                 for i, a in enumerate(lists))


def _variant_axis(value: Any) -> tuple[FrozenMap[str, Any], ...]:
    return tuple(FrozenMap(_mapping(v, f"grid.variants[{i}]"))
                 for i, v in enumerate(_axis(value, "variants", "mappings of decisions")))


#: The decisions a variant may not hold: they are the grid's other axes.
_AXES: Final = frozenset({"attacks", "blocks", "actions"})


@frozen
class Grid:
    """The axes of a what-if grid: every cell is one declaration of blockers,
    one action list and one variant, and is resolved once.

    redzone is deterministic (no die, no coin, no shuffle is random: a
    choice a player or the game makes is a decision, ``choices``), so a grid
    has no axis of seeds: its third axis, :attr:`variants`, is an explicit
    list of the other decisions to try.

    :param attacks: the declaration of attackers (508.1), for a state before
        combat or at its beginning; ``None`` once attackers are declared.
    :param blocks: the declarations of blockers to try; ``None`` (the
        default): every legal one, as
        :meth:`redzone.Engine.legal_block_declarations` enumerates them from
        the state each action list and variant reaches as blockers are to
        be declared (509.1: their choices made, their actions done, the
        triggers resolved; :meth:`redzone.Engine.resolve` with
        ``through="declare_attackers"``): every declaration legal for some
        pair, in the order first listed. A cell whose own decisions make its
        declaration illegal says so (status 1). Must be ``None`` once
        blockers are declared: the axis is then that one declaration.
    :param actions: the action lists to try, each the ``actions`` of
        :meth:`redzone.Engine.resolve` (``(step, action)`` pairs: a pump
        after ``declare_blockers``, a trick after ``first_strike_damage``);
        default one empty list.
    :param variants: the other decisions to try, each a mapping of keyword
        arguments of :meth:`redzone.Engine.resolve` (``assign``,
        ``assign_first_strike``, ``order``, ``choices``...; not ``attacks``,
        ``blocks`` or ``actions``); default one empty mapping.

    .. versionadded:: 0.1.0
    """

    attacks: FrozenMap[str, str] | None = field(default=None, converter=_attacks)
    blocks: tuple[FrozenMap[str, tuple[str, ...]], ...] | None = field(
        default=None, converter=_block_axis)
    actions: tuple[tuple[tuple[str, Action], ...], ...] = field(
        default=((),), converter=_action_axis)
    variants: tuple[FrozenMap[str, Any], ...] = field(
        default=(FrozenMap(),), converter=_variant_axis)


@frozen
class Cell(Generic[S]):
    """One cell of a what-if grid, and how it scored.

    :param index: its place in the grid: ``(b * len(actions) + a) *
        len(variants) + v`` for the ``b``-th declaration of blockers, the
        ``a``-th action list and the ``v``-th variant.
    :param blocks: its declaration of blockers.
    :param actions: its action list.
    :param variant: its other decisions.
    :param score: what the score function returned for its outcome.
    :param status: its job's status (0 resolved, 1 illegal, 3 a plugin failed).
    :param kind: ``resolved``, or its error's kind.
    :param message: its error's message, ``""`` when resolved.

    .. versionadded:: 0.1.0
    """

    index: int
    blocks: FrozenMap[str, tuple[str, ...]]
    actions: tuple[tuple[str, Action], ...]
    variant: FrozenMap[str, Any]
    score: S
    status: int
    kind: str
    message: str = ""

    @property
    def ok(self) -> bool:
        """Whether the cell's combat resolved."""
        return self.status == 0


# The score function is typed for what ``outcome`` gives it: a LightOutcome
# (the default, "light"), a JobOutcome ("json"), either for a str chosen at
# run time; each with the cells returned, or streamed.
@overload
def what_if(state: GameState, grid: Grid | Mapping[str, Any], *,
            score: Callable[[LightOutcome], Sortable], engine: Engine | None = ...,
            executor: Any = ..., chunksize: int | None = ..., outcome: Literal["light"] = ...,
            timeout: float | None = ..., stream: Literal[False] = ...) -> list[Cell[Sortable]]: ...


@overload
def what_if(state: GameState, grid: Grid | Mapping[str, Any], *,
            score: Callable[[LightOutcome], Sortable], engine: Engine | None = ...,
            executor: Any = ..., chunksize: int | None = ..., outcome: Literal["light"] = ...,
            timeout: float | None = ..., stream: Literal[True]) -> Iterator[Cell[Sortable]]: ...


@overload
def what_if(state: GameState, grid: Grid | Mapping[str, Any], *,
            score: Callable[[JobOutcome], Sortable], engine: Engine | None = ...,
            executor: Any = ..., chunksize: int | None = ..., outcome: Literal["json"],
            timeout: float | None = ..., stream: Literal[False] = ...) -> list[Cell[Sortable]]: ...


@overload
def what_if(state: GameState, grid: Grid | Mapping[str, Any], *,
            score: Callable[[JobOutcome], Sortable], engine: Engine | None = ...,
            executor: Any = ..., chunksize: int | None = ..., outcome: Literal["json"],
            timeout: float | None = ..., stream: Literal[True]) -> Iterator[Cell[Sortable]]: ...


@overload
def what_if(state: GameState, grid: Grid | Mapping[str, Any], *,
            score: Callable[[JobOutcome | LightOutcome], Sortable], engine: Engine | None = ...,
            executor: Any = ..., chunksize: int | None = ..., outcome: str,
            timeout: float | None = ..., stream: bool = ...
            ) -> list[Cell[Sortable]] | Iterator[Cell[Sortable]]: ...


def what_if(state: GameState, grid: Grid | Mapping[str, Any], *,
            score: Callable[[Any], Sortable], engine: Engine | None = None, executor: Any = None,
            chunksize: int | None = None, outcome: str = "light",
            timeout: float | None = None, stream: bool = False
            ) -> list[Cell[Sortable]] | Iterator[Cell[Sortable]]:
    """Resolve one board under every cell of a grid (declarations of
    blockers x action lists x variants), scored on the workers, best first.

    Each cell is one job of :func:`~redzone.execution.simulation.simulate`
    (here, or on any executor), with ``score`` run where it is resolved:
    only the score travels back. Each cell is resolved with
    :meth:`redzone.Engine.resolve`: a state in the middle of a combat (its
    beginning, attackers declared, blockers declared, a combat damage step
    done) from where it is (:mod:`redzone.kernel.resume`).

    :param state: the board: before combat (a main phase), or in a combat.
    :param grid: a :class:`Grid`, or a mapping of its fields.
    :param score: outcome -> a sortable score (higher is better), given each
        cell's outcome as ``outcome`` says (a
        :class:`~redzone.execution.jobs.LightOutcome` by default), whatever
        its status: a cell whose combat is illegal (an action that can't be
        performed) is scored too. With an executor, a module-level function.
    :param engine: the engine that enumerates and resolves; default
        :func:`~redzone.formats.outcome.command_engine` (verify mode on).
    :param executor: where the cells are resolved, as for :func:`simulate`.
    :param chunksize: cells per chunk sent to a worker, as for :func:`simulate`.
    :param outcome: ``"light"`` (the default) or ``"json"``: what ``score``
        is given.
    :param timeout: the most seconds one cell may take, as for :func:`simulate`.
    :param stream: ``True``: yield the cells in grid order as they are
        resolved, instead of returning them all, best first.
    :returns: every cell, best score first (ties in grid order); or, with
        ``stream``, an iterator of the cells in grid order.
    :raises BadQueryError: before any cell runs, for an empty axis, an action
        list that is not ``(step, action)`` pairs, a variant with an unknown
        key (or ``attacks``, ``blocks``, ``actions``), ``attacks`` missing
        before attackers are declared or given after, ``blocks`` given after
        blockers are declared, a state no combat can be resolved from, or a
        ``score`` :func:`simulate` refuses.
    :raises IllegalAttackError: when ``grid.attacks`` is not a legal
        declaration of attackers (508.1) with any action list and variant
        (or :class:`~redzone.IllegalActionError` for an action before
        blockers that none can perform), as the blocks are listed; with
        ``grid.blocks`` given, each cell's outcome says so.
    :raises ScoreError: when ``score`` raises, naming the cell's job.
    :raises PluginError: when a plugin fails while combat begins or the
        attackers are declared here, to enumerate the blocks.

    .. versionadded:: 0.1.0
    """
    engine = engine if engine is not None else command_engine()
    if not isinstance(grid, Grid):
        if not isinstance(grid, Mapping):
            raise BadQueryError(f"what_if: grid is a {type(grid).__name__}: give a Grid or a "
                                "mapping of its fields")
        unknown = sorted(set(grid) - set(attrs.fields_dict(Grid)))
        if unknown:
            raise BadQueryError(f"what_if: the grid has no field {', '.join(map(repr, unknown))}"
                                f": give {', '.join(attrs.fields_dict(Grid))}", rule="117.1")
        grid = Grid(**grid)
    if outcome not in OUTCOMES:
        raise BadQueryError(f"what_if: outcome is {outcome!r}: give one of "
                            f"{', '.join(repr(o) for o in OUTCOMES)}")
    if not callable(score):
        raise BadQueryError(f"what_if: score is a {type(score).__name__}, not a function")
    mid, before_blocks = _where(engine, state, grid)
    keys = (frozenset(_REST_KEYS) if mid else _DECISION_KEYS) - _AXES
    _check_axes(grid, keys)
    if not before_blocks:
        if grid.blocks is not None:
            raise BadQueryError(f"what_if: blockers are declared already (the state is at "
                                f"{state.step!r}): give no grid.blocks", rule="509.1")
        combat = state.combat
        blocks: Iterable[FrozenMap[str, tuple[str, ...]]] = (
            combat.blocks if combat is not None else FrozenMap(),)
    elif grid.blocks is not None:
        blocks = grid.blocks
    else:
        blocks = _legal_in_some_cell(engine, state, grid)
    # The cells in grid order, made as they are needed (twice: the jobs sent,
    # and the cells handed back), never held: a grid of a million cells
    # keeps the caller's memory flat.
    # (Not itertools.product, which reads the whole blocks axis into memory first.)
    def cells() -> Iterator[tuple[FrozenMap[str, tuple[str, ...]], tuple[Any, ...],
                                  FrozenMap[str, Any]]]:
        for declared in blocks:
            for actions in grid.actions:
                for variant in grid.variants:
                    yield declared, actions, variant

    scored = simulate(_jobs(state, grid, cells(), mid, before_blocks), executor=executor,
                      engine=engine, chunksize=chunksize, timeout=timeout, outcome=outcome,
                      score=score)
    out = _cells(cells(), scored)
    if stream:
        return out
    return sorted(out, key=lambda c: c.score, reverse=True)  # stable: ties in grid order


#: The decisions that shape the board before blockers are declared: what
#: :meth:`redzone.Engine.resolve` takes with ``through="declare_attackers"``.
_BEFORE_BLOCKS: Final = ("actions", "bands", "choices", "first_turn")


def _blocks_at(engine: Engine, at: GameState) -> tuple[FrozenMap[str, tuple[str, ...]], ...]:
    """The legal declarations of blockers from ``at``, the state as they are
    to be declared (509.1); none but no blockers where no creature was
    declared as an attacker (508.8) or the game ended on the way."""
    if at.game_over is None and engine.next_step(at) == "declare_blockers":
        return tuple(engine.legal_block_declarations(at))
    return (FrozenMap(),)


def _legal_in_some_cell(engine: Engine, state: GameState,
                        grid: Grid) -> _LegalSomewhere:
    """Every declaration of blockers legal in some cell, in the order first
    listed: each action list and variant resolved to where blockers are to
    be declared (its choices made, its actions done, the triggers resolved),
    its legal declarations listed there. A pair whose own decisions are
    illegal before then lists nothing: its cells say why.

    :raises IllegalActionError: when every pair's decisions are illegal
        before blockers (the attacks, or an action), before any is listed.
    """
    ats: list[GameState] = []
    refused: IllegalActionError | None = None
    for actions in grid.actions:
        for variant in grid.variants:
            decisions = {k: variant[k] for k in _BEFORE_BLOCKS if k in variant}
            decisions["actions"] = actions
            try:
                ats.append(engine.resolve(state, grid.attacks, through="declare_attackers",
                                          **decisions).state)
            except IllegalActionError as exc:
                refused = refused or exc
    if not ats and refused is not None:
        raise refused  # (illegal in every cell: the attacks, or an action before blockers)
    return _LegalSomewhere(engine, ats)


class _LegalSomewhere:
    """The declarations of blockers legal in some of the states ``ats`` (one
    per action list and variant, as blockers are to be declared), in the
    order first listed, made each time they are iterated and never held: the
    grid is iterated twice (the jobs sent, the cells handed back), and a
    board of many blockers has more declarations than memory holds (2
    attackers and 13 blockers: 3 to the 13). One listed by an earlier state
    is left out by asking whether it is legal there, not by remembering it."""

    def __init__(self, engine: Engine, ats: Sequence[GameState]) -> None:
        self._engine = engine
        self._ats = tuple(ats)

    def __iter__(self) -> Iterator[FrozenMap[str, tuple[str, ...]]]:
        engine, ats = self._engine, self._ats
        blocking = [at.game_over is None and engine.next_step(at) == "declare_blockers"
                    for at in ats]
        for k, at in enumerate(ats):
            listed = engine.legal_block_declarations(at) if blocking[k] else iter(
                (FrozenMap(),))
            for decl in listed:
                if not any(engine.is_legal_block(ats[j], decl) if blocking[j] else not decl
                           for j in range(k)):
                    yield decl


def _where(engine: Engine, state: GameState, grid: Grid) -> tuple[bool, bool]:
    """Whether the state is in a combat, and whether its blockers are still
    to be declared (the attackers are declared in each cell, with its
    decisions: an action before them may make them legal)."""
    if not isinstance(state, GameState):
        raise BadQueryError(f"what_if: state is a {type(state).__name__}, not a GameState")
    if state.step in COMBAT_MAY_BEGIN or state.step == "beginning_of_combat":
        if grid.attacks is None:
            raise BadQueryError(f"what_if: the state is at {state.step!r}, before attackers "
                                "are declared: give grid.attacks", rule="508.1")
        return state.step == "beginning_of_combat", True
    if state.game_over is not None or not in_combat(engine.context, state):
        raise BadQueryError(f"what_if: can't resolve a combat from a state at "
                            f"{state.step!r}: give a state before combat, or in a combat's "
                            "beginning, declare attackers or declare blockers step (or at a "
                            "combat damage step), with the game on", rule="506.1")
    if grid.attacks is not None:
        raise BadQueryError(f"what_if: attackers are declared already (the state is at "
                            f"{state.step!r}): give no grid.attacks", rule="508.1")
    return True, state.step == "declare_attackers"


def _check_axes(grid: Grid, keys: frozenset[str]) -> None:
    for name in ("blocks", "actions", "variants"):
        axis = getattr(grid, name)
        if axis is not None and not axis:
            raise BadQueryError(f"what_if: the grid's {name} axis is empty: a grid of no cell "
                                f"(give one {'empty list' if name != 'variants' else '{}'} "
                                "for none)")
    for i, actions in enumerate(grid.actions):
        try:
            _validate.step_actions(actions, f"grid.actions[{i}]")
        except BadQueryError as exc:
            raise BadQueryError(f"what_if: {exc}", rule="117.1") from exc
    for i, variant in enumerate(grid.variants):
        unknown = sorted(set(variant) - keys)
        if unknown:
            raise BadQueryError(f"what_if: grid.variants[{i}] has {', '.join(map(repr, unknown))}"
                                f": a variant holds other decisions, among "
                                f"{', '.join(sorted(keys))}")


def _jobs(state: GameState, grid: Grid,
          cells: Iterable[tuple[FrozenMap[str, tuple[str, ...]], tuple[Any, ...],
                                FrozenMap[str, Any]]],
          mid: bool, before_blocks: bool) -> Iterator[Any]:
    for blocks, actions, variant in cells:
        decisions: dict[str, Any] = {**variant, "actions": actions}
        if grid.attacks is not None:
            decisions["attacks"] = grid.attacks
        if before_blocks:
            decisions["blocks"] = blocks
        yield MidCombat(state, decisions) if mid else (state, decisions)


def _cells(cells: Iterable[tuple[FrozenMap[str, tuple[str, ...]], tuple[Any, ...],
                                 FrozenMap[str, Any]]],
           scored: Iterable[Scored[S]]) -> Iterator[Cell[S]]:
    for (blocks, actions, variant), s in zip(cells, scored, strict=True):
        yield Cell(s.index, blocks, actions, variant, s.value, s.status, s.kind, s.message)


__all__ = ["Cell", "Grid", "WhatIf", "what_if", "what_if_blocks"]
