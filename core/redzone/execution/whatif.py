"""What-if studies: one board under every legal declaration, resolved.

The enumerator (:mod:`redzone.kernel.enumerate`,
:meth:`redzone.Engine.legal_block_declarations`) says which declarations are
legal; a what-if study resolves the board under each of them through
:func:`~redzone.execution.simulation.simulate` (here or on any executor) and
ranks the outcomes by the caller's score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from attrs import frozen

from redzone.execution.jobs import JobOutcome
from redzone.execution.simulation import simulate
from redzone.formats.outcome import command_engine
from redzone.kernel.engine import Engine
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState


@frozen
class WhatIf:
    """One legal declaration of blockers and how it scored.

    :param blocks: the declaration.
    :param outcome: its outcome.
    :param score: what the caller's function gave it.

    .. versionadded:: 0.1.0
    """

    blocks: FrozenMap[str, tuple[str, ...]]
    outcome: JobOutcome
    score: Any


def what_if_blocks(state: GameState, attacks: Mapping[str, str],
                   score: Callable[[JobOutcome], Any], *, engine: Engine | None = None,
                   executor: Any = None, chunksize: int | None = None,
                   **decisions: Any) -> list[WhatIf]:
    """Resolve one board under every legal declaration of blockers (509.1,
    enumerated by :meth:`redzone.Engine.legal_block_declarations`) through
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
    engine = engine if engine is not None else command_engine()
    begun = engine.begin_combat(state).state
    declared = engine.declare_attackers(begun, attacks).state
    if engine.next_step(declared) == "declare_blockers":
        options = list(engine.legal_block_declarations(declared))
    else:
        options = [FrozenMap()]
    jobs = [(state, {**decisions, "attacks": dict(attacks), "blocks": dict(b)})
            for b in options]
    outs = simulate(jobs, executor=executor, engine=engine, chunksize=chunksize)
    scored = [WhatIf(b, o, score(o)) for b, o in zip(options, outs, strict=True)]
    order = sorted(range(len(scored)), key=lambda i: scored[i].score, reverse=True)
    return [scored[i] for i in order]


__all__ = ["WhatIf", "what_if_blocks"]
