"""A command's context: what the kernel's steps read of the engine that runs them.

An :class:`~redzone.Engine` makes one :class:`Context` (its hooks, its rules
edition, its assignment policy, whether triggers resolve on their own) and
hands it to the steps (:mod:`~redzone.kernel.steps`, :mod:`~redzone.kernel.turn`)
and to each command's working copy (:class:`~redzone.kernel.tx.Tx`). The
modules below the engine take the context, never the engine, so that nothing
imports the engine but what stands above it.

The context is frozen: it holds no count of a command, and no cache (what a
query found of a state is noted on the state). What one command
spends of its bounds (the abilities that triggered in it) is the command's
own (:class:`~redzone.kernel.answers.Spent`, on its working copy), so that
two commands run at once on one engine, in two threads, never share one.
"""

from __future__ import annotations

from typing import Protocol

from attrs import frozen

from redzone.kernel.combat import AssignmentPolicy
from redzone.kernel.editions import Edition
from redzone.kernel.errors import BadQueryError, EngineMismatchError, UnknownKeywordError
from redzone.kernel.frozen import Copyable
from redzone.kernel.model import HONOURED, GameState
from redzone.kernel.plugins import Hooks


@frozen
class Context(Copyable):
    """What the kernel's steps and a command's working copy read of the engine.

    :param hooks: the engine's typed hook facade.
    :param edition: its rules edition.
    :param policy: its default assignment policy (510.1).
    :param auto_triggers: whether triggered abilities resolve as soon as
        they are put on the stack (603.3b, 608).
    """

    hooks: Hooks
    edition: Edition
    policy: AssignmentPolicy
    auto_triggers: bool = True

    @property
    def rules(self) -> str:
        """The name of the rules edition in force."""
        return self.edition.name

    def check(self, state: GameState) -> None:
        """A command starts on ``state``: the engine can honour it (see
        :func:`engine_honours`).

        :raises EngineMismatchError: naming the difference.
        """
        hooks = self.hooks
        hooks.command_started()  # verify mode's pending check
        # (A state notes the plugin set found to honour it: every later
        # command on it, or on a state copied from it with its keywords
        # alike, reads that note.)
        if not (isinstance(state, GameState) and state.__dict__.get(HONOURED) is
                hooks.honour_mark and state.rules == self.edition.name):
            engine_honours(self.edition.name, hooks, state)


def honoured(ctx: Context, state: object, method: str) -> GameState:
    """``state``, given to the engine's ``method`` (a query, or a command
    before it reads anything of it), when the engine can honour it: as
    :meth:`Context.check` checks it for a command (one lookup on a state
    found to honour it before), without starting a command.

    :raises BadQueryError: naming ``method``, for what isn't a
        :class:`~redzone.GameState`.
    :raises EngineMismatchError: naming the difference (see :func:`engine_honours`).
    """
    if isinstance(state, GameState):
        if state.__dict__.get(HONOURED) is not ctx.hooks.honour_mark \
                or state.rules != ctx.edition.name:
            engine_honours(ctx.edition.name, ctx.hooks, state)
        return state
    raise BadQueryError(f"{method}: state is {type(state).__name__}, not a GameState")


class HasContext(Protocol):
    """What holds a :class:`Context`: an engine, for the few functions that an
    engine's callers (the formats above the kernel) hand the engine itself."""

    @property
    def context(self) -> Context: ...


def context_of(holder: Context | HasContext) -> Context:
    """``holder`` if it is a context, else its context (an engine's)."""
    return holder if isinstance(holder, Context) else holder.context


def engine_honours(rules: str, hooks: Hooks, state: GameState) -> None:
    """The engine (rules edition ``rules``, keywords of ``hooks``) can honour
    ``state``: it was made under the same rules edition, the engine knows
    every keyword the state's maker knew, and every keyword the state holds
    (unless inert).

    :raises EngineMismatchError: naming the difference.
    """
    if not isinstance(state, GameState):
        raise BadQueryError(f"the state is {type(state).__name__}, not a GameState")
    if state.__dict__.get(HONOURED) is hooks.honour_mark and state.rules == rules:
        return  # this state (or one it was copied from, keywords alike) honoured
    if state.rules != rules:
        raise EngineMismatchError(
            f"the state was made under the rules edition {state.rules!r}, but this engine "
            f"plays {rules!r}: use an engine of {state.rules!r}")
    known = hooks.keyword_names
    recorded = state.keyword_set
    missing: list[str] = []
    if not recorded.issubset(known):  # C speed (two frozensets): every command asks
        missing = sorted(k for k in recorded if k not in known)
    if not missing and hooks.unknown_keywords != "inert":
        present = state.keyword_names_present
        if not present.issubset(known):
            missing = sorted(k for k in present if k not in known and (
                k in recorded or not recorded) and not hooks.is_inert_name(k))
    if missing:
        raise EngineMismatchError(
            f"the state was made with the keyword{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(repr, missing))}, which this engine doesn't load (blocked, not "
            "allowed, or not installed): resolving it here would treat "
            f"{'them' if len(missing) > 1 else 'it'} as absent")
    _keywords_parse(hooks, state)
    state.__dict__[HONOURED] = hooks.honour_mark  # (states never change: the answer holds)


def _keywords_parse(hooks: Hooks, state: GameState) -> None:
    """Every keyword the state's objects hold (printed or granted, in any
    zone, as last known information) that a plugin of the engine declares is
    what its text parses to: its args are its text's, and its number within
    the bound its form declares (107.1), so a saved state's keyword can't
    claim ``mobilize 2`` and act as ``mobilize 5000``. Each distinct record
    is parsed once per engine.

    :raises UnknownKeywordError: naming the keyword and the object.
    """
    verified = hooks.keywords_verified
    known = hooks.keyword_names
    for perms in (state.objects, state.lki):
        for perm in perms.values():
            if not (perm.printed_keywords or perm.modifications):
                continue
            for keyword in perm.keywords:
                if keyword in verified or keyword.name not in known:
                    continue
                try:
                    hooks.parse_keyword(keyword, suggest=False)
                except UnknownKeywordError as exc:
                    raise UnknownKeywordError(
                        str(keyword.text), reason=f"{exc.reason} ({perm.id!r} holds it)",
                    ) from exc
                verified.add(keyword)


__all__ = ["Context", "HasContext", "context_of", "engine_honours", "honoured"]
