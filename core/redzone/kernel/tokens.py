"""Ids for the tokens a keyword creates (111.1, 111.2).

A token a keyword plugin creates gets an id of the documented form
``<source id>.<keyword>.<n>``, for example ``warriors.mobilize.1``: the
object whose ability created it, the keyword's name, and a number counted
from 1 for that source and keyword over the whole game. The ids are
deterministic, so a scenario file can name the tokens in later actions,
assignments and declarations.
"""

from __future__ import annotations

from redzone.kernel.model import GameState

__all__ = ["token_ids"]


def token_ids(state: GameState, source: str, keyword: str, count: int = 1) -> tuple[str, ...]:
    """The ids of the next ``count`` tokens ``keyword`` of ``source``
    creates: ``<source>.<keyword>.<n>``, with the lowest numbers from 1 that
    no object (on the battlefield or not: 111.7, a token that left keeps its
    id), player or spell of ``state`` uses, in increasing order, and above
    those of the tokens that ceased to exist and are no longer kept
    (:attr:`~redzone.kernel.model.GameState.token_numbers`): an id is never
    given twice in a game.

    Rules: 111.1, 111.2 (a token is created by an effect; the id names it).

    :param state: the state the tokens are created in.
    :param source: the id of the object whose ability creates them.
    :param keyword: the keyword's name (``"mobilize"``).
    :param count: how many ids.
    :raises ValueError: for an empty ``source`` or ``keyword``, or a negative
        ``count``.

    .. versionadded:: 0.1.0
    """
    if not source or not keyword:
        raise ValueError(f"token_ids needs a source and a keyword, not {source!r} and "
                         f"{keyword!r}")
    if count < 0:
        raise ValueError(f"token_ids: count must be 0 or more, not {count}")
    out: list[str] = []
    n = state.token_numbers.get(f"{source}.{keyword}", 0)  # (those gone: never again)
    while len(out) < count:
        n += 1
        tid = f"{source}.{keyword}.{n}"
        if tid in state.objects or tid in state.players or tid in state.sources \
                or tid in state.lki:
            continue
        out.append(tid)
    return tuple(out)
