"""The checks of plugins' answers that many hooks share.

Each hook's own combination and field checks are the facade's
(:class:`~redzone.kernel.plugins.Hooks`); these are the container checks
(an iterable of the right kind, at most
:data:`~redzone.kernel.answers.MAX_ITEMS` items, each field-checked by
:mod:`redzone.kernel.answers`) and the checks of the actions and choices an
answer carries. A failed check is a :class:`~redzone.PluginError` naming the
plugin that answered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeVar

from redzone.kernel import answers as _answers_check
from redzone.kernel import validate as _validate
from redzone.kernel._calling import Calls, Impl, Loop
from redzone.kernel.answers import shown
from redzone.kernel.answers import shown as _shown
from redzone.kernel.errors import IllegalActionError
from redzone.kernel.hooktypes import ActionSpec, Result, ResultReplacement
from redzone.kernel.model import CHOICE_KINDS, SCOPES, Choice, GameState, PluginState, Trigger
from redzone.kernel.references import EACH_PLAYER, named_ids, reference_fields
from redzone.kernel.slots import declares_slot, owned

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def _contained(method: F) -> F:
    """``method(self, impl, hook, state, ...)``, a check of ``impl``'s
    answer, run inside the call's triage (:meth:`Calls.checking`'s, with the
    ``try`` here: no closure made per check)."""
    @functools.wraps(method)
    def checked(self: Checks, impl: Impl, hook: str, state: Any, *args: Any) -> Any:
        try:
            return method(self, impl, hook, state, *args)
        except BaseException as exc:
            err = self._calls.contained(impl, hook, state if isinstance(state, GameState)
                                        else None, exc)
            if err is exc:
                raise
            raise err from exc
    return checked  # type: ignore[return-value]
_SEQUENCES: Final = frozenset({list, tuple})


def _unknown_ids(state: GameState, act: object) -> list[str]:
    """The ids the action ``act`` names in its reference fields
    (:func:`~redzone.kernel.references.reference_fields`: the core's kinds,
    and a plugin's that annotate theirs) that ``state`` doesn't know: no
    object, no last known information (608.2h), no player, no source, no
    trigger on the stack."""
    if not reference_fields(type(act)):
        return []
    stack = {t.id for t in state.stack}
    return [v for v in named_ids(act)
            if v != EACH_PLAYER and v not in state.objects and v not in state.lki
            and v not in state.players and v not in state.sources and v not in stack]


class Checks:
    """The shared answer checks of one engine.

    :param calls: the engine's triage, to name a plugin.
    :param cache: each hook's implementations.
    :param answers: asks a hook (:meth:`redzone.kernel.plugins.Hooks._answers`).
    """

    def __init__(self, calls: Calls, cache: Mapping[str, tuple[Impl, ...]],
                 answers: Callable[[str, tuple[Any, ...]], list[tuple[Impl, Any]]]) -> None:
        self._calls = calls
        self._cache = cache
        self._answers = answers
        #: The declared action kinds, by ``do`` name, with their plugin
        #: (filled as the plugins load).
        self.action_specs: Mapping[str, tuple[ActionSpec, str]] = {}

    def action_spec(self, action: object) -> tuple[ActionSpec, str] | None:
        """The declaration of ``action``'s kind and the plugin that declares
        it, or ``None`` when no loaded plugin declares that kind."""
        do = getattr(type(action), "do", None)
        found = self.action_specs.get(do) if isinstance(do, str) else None
        if found is None or not isinstance(action, found[0].cls):
            return None
        return found

    @_contained
    def expect(self, impl: Impl, hook: str, state: GameState | None, res: T, ok: bool,
               wanted: str) -> T:
        """``res``, an answer, when ``ok``; else the plugin is named for
        answering it where ``wanted`` was expected."""
        if not ok:
            raise self._calls.fail(impl, hook, state, None,
                                   f"returned {shown(res)} where {wanted} was expected")
        return res

    @_contained
    def whole(self, impl: Impl, hook: str, state: GameState | None, res: Any) -> int:
        """``res``, an answer that must be an ``int`` (not a ``bool``)."""
        ok = type(res) is int
        return self.expect(impl, hook, state, res, ok, "an int or None")  # type: ignore[no-any-return]

    def any(self, hook: str, *args: Any) -> bool:
        """Whether some implementation of ``hook`` answers ``True`` (each
        answers a bool or None)."""
        if not self._cache[hook]:
            return False
        for impl, res in self._answers(hook, args):
            if res is True:
                return True
            self.expect(impl, hook, args[0], res, res is False, "a bool or None")
        return False

    def collect(self, hook: str, kind: type[T], *args: Any) -> list[T]:
        """The items of ``kind`` every implementation of ``hook`` answers,
        concatenated, each checked (a list or tuple of plain items of a kind
        with no field check is taken as it is)."""
        items: list[T] = []
        if not self._cache[hook]:
            return items
        check = _answers_check.CHECKS.get(kind)
        for impl, res in self._answers(hook, args):
            if type(res) in _SEQUENCES:
                if not res:
                    continue
                if check is None and len(res) <= _answers_check.MAX_ITEMS and all(
                        type(item) is kind for item in res):
                    items.extend(res)
                    continue
            items.extend(self.items(impl, hook, args[0] if args else None, res, kind))
        return items

    def slots(self, hook: str, state: GameState, events: tuple[Any, ...]
              ) -> dict[str, PluginState]:
        """Each plugin's new slot by its name: what ``hook``
        (``redzone_record``) answers, each a :class:`PluginState` of a known
        scope, or ``None`` to keep the slot as it is."""
        out: dict[str, PluginState] = {}
        if not self._cache[hook]:
            return out
        for impl, res in self._answers(hook, (state, events)):
            out[impl.plugin.name] = self.expect(
                impl, hook, state, res, type(res) is PluginState and type(res.scope) is str
                and res.scope in SCOPES,
                f"a PluginState (scope one of {', '.join(SCOPES)}) or None")
        return out

    @_contained
    def items(self, impl: Impl, hook: str, state: GameState | None, res: Any,
               kind: type[T]) -> list[T]:
        if isinstance(res, (str, bytes)) or not isinstance(res, Iterable):
            raise self._calls.fail(impl, hook, state, None,
                             f"returned {shown(res)} where an iterable of "
                             f"{kind.__name__} was expected")
        if not isinstance(state, GameState):
            state = None
        check = _answers_check.CHECKS.get(kind)
        items: list[T] = []
        tokens = 0
        for item in res:
            if type(item) is not kind:
                raise self._calls.fail(impl, hook, state, None,
                                 f"returned {shown(item)} where a {kind.__name__} was expected")
            if len(items) >= _answers_check.MAX_ITEMS:
                raise self._calls.bound_fail(impl, hook, state, "answers",
                                             _answers_check.MAX_ITEMS,
                                             f"returned more than {_answers_check.MAX_ITEMS} "
                                             "answers to one call")
            if check is not None:
                problem = check(state, item)
                if problem is not None:
                    raise self._calls.fail(impl, hook, state, None,
                                     f"returned a {kind.__name__} whose {problem}")
                if kind is Result and item.kind == "create":  # type: ignore[attr-defined]
                    tokens += item.amount  # type: ignore[attr-defined]
                    if tokens > _answers_check.MAX_TOKENS:
                        raise self._calls.bound_fail(impl, hook, state, "tokens",
                                               _answers_check.MAX_TOKENS,
                                               f"would create more than "
                                               f"{_answers_check.MAX_TOKENS} tokens in one call")
                    if state is not None and (
                            len(state.objects) + tokens > _answers_check.MAX_OBJECTS):
                        raise self._calls.bound_fail(impl, hook, state, "objects",
                                               _answers_check.MAX_OBJECTS,
                                               f"would create {tokens} tokens in a state that "
                                               f"holds {len(state.objects)} objects, over the "
                                               f"limit of {_answers_check.MAX_OBJECTS}")
            items.append(item)
        return items

    @_contained
    def actions(self, impl: Impl, hook: str, state: GameState,
                actions: object, what: str) -> None:
        """Every action of an answer (a trigger's, a choice's ``then``, a
        replacement's) is of a declared kind with fields of the right types,
        or the plugin that answered is named."""
        if not isinstance(actions, tuple):
            raise self._calls.fail(impl, hook, state, None,
                                   f"returned {what} whose actions are {shown(actions)}, "
                                   "not a tuple")
        for item in actions:
            self.action(impl, hook, state, item, what)

    @_contained
    def action(self, impl: Impl, hook: str, state: GameState, item: object,
               what: str = "") -> None:
        """``item``, an action an answer holds (``what``: the answer, when it
        isn't the action itself), is of a declared kind with fields of the
        right types, or the plugin that answered is named."""
        if self.action_spec(item) is None:
            shown = f"{what} holding {_shown(item)}" if what else _shown(item)
            raise self._calls.fail(impl, hook, state, None, f"returned {shown} where an "
                                   "action of a declared kind was expected")
        try:
            _validate.action(state, item)
        except IllegalActionError as exc:
            problem = exc.message.removeprefix("perform: ")
            shown = f"{what} with an action" if what else "an action"
            raise self._calls.fail(impl, hook, state, exc,
                                   f"returned {shown} whose {problem}") from exc

    @_contained
    def choice(self, impl: Impl, hook: str, state: GameState, choice: object,
                      what: str) -> None:
        """A choice a plugin answered (a declaration's, a trigger's offer)
        can be made: its fields have their types, its player is in the game,
        its default is a legal answer (unless there is no legal option, and
        the ability is removed from the stack, 603.3d) and the actions of its
        ``then`` are of declared kinds; else the plugin is named."""
        shown = f"{what} a choice" if what else "a choice"
        if type(choice) is not Choice:
            raise self._calls.fail(impl, hook, state, None,
                             f"returned {shown} {_shown(choice)} that is not a Choice")
        problem = ""
        texts = ("name", "kind", "rule", "text", "key")
        bad = next((f for f in texts if type(getattr(choice, f)) is not str), None)
        if bad is not None:
            problem = _answers_check._field(bad, getattr(choice, bad), "a str")
        elif choice.kind not in CHOICE_KINDS:
            problem = (f"field 'kind' is {choice.kind!r}, not a choice kind "
                       f"({', '.join(CHOICE_KINDS)})")
        elif type(choice.player) is not str or choice.player not in state.players:
            problem = f"field 'player' is {_shown(choice.player)}, not a player of the state"
        elif not all(type(o) is str for o in (*choice.options, *choice.default)):
            problem = "options and default must be strs"
        elif not all(type(n) is int and 0 <= n <= _answers_check.MAX_ITEMS
                     for n in (choice.min, choice.max)) or choice.min > choice.max:
            problem = (f"fields 'min' and 'max' are {_shown(choice.min)} and "
                       f"{_shown(choice.max)}, where "
                       f"whole numbers from 0 to {_answers_check.MAX_ITEMS}, min <= max, "
                       "were expected")
        elif choice.options or choice.min == 0:
            try:
                _answers_check.check_answer(choice, choice.default)
            except IllegalActionError as exc:
                problem = f"default is illegal: {exc.message}"
        if problem:
            raise self._calls.fail(impl, hook, state, None,
                             f"returned {shown} {choice.name!r} whose {problem}")
        for option, actions in choice.then.items():
            self.actions(impl, hook, state, actions,
                                f"{shown} {choice.name!r} (option {option!r})")

    @_contained
    def triggers(self, impl: Impl, hook: str, state: GameState, res: Any) -> list[Trigger]:
        """The triggers an answer holds, each with actions of declared kinds
        and offers that are choices that can be made."""
        items = self.items(impl, hook, state, res, Trigger)
        for item in items:
            what = f"trigger {item.kind!r}"
            self.actions(impl, hook, state, item.actions, what)
            if not isinstance(item.offers, tuple):
                raise self._calls.fail(impl, hook, state, None, f"returned {what} whose offers "
                                       f"are {shown(item.offers)}, not a tuple of Choice")
            for offer in item.offers:
                self.choice(impl, hook, state, offer, f"{what} offering")
                if offer.then:
                    # 603.3c-d: an offer is a target or mode chosen as the
                    # ability is put on the stack; ``then`` is a declaration's
                    # (508.1g-h, 509.1d-f) and would never be performed.
                    raise self._calls.fail(impl, hook, state, None,
                                           f"returned {what} offering a choice "
                                           f"{offer.name!r} with 'then' actions, which only "
                                           "a declaration's choices perform")
            for act in item.actions:
                missing = _unknown_ids(state, act)
                if missing:
                    raise self._calls.fail(
                        impl, hook, state, None,
                        f"returned {what} whose action {_shown(act)} names "
                        f"{', '.join(map(repr, missing))}, which is no object, last known "
                        "information or player of the state (608.2b skips only objects "
                        "that left)")
        return items

    def guard_replace(self, impl: Impl, item: ResultReplacement, loop: Loop
                      ) -> Callable[[GameState, Result], Result | None]:
        """``item.replace``, called by the loop (so a fault names the plugin,
        and verify mode and the time limit watch it), failing as a
        :class:`PluginError` naming the plugin when it returns something
        other than a result."""
        hook = "redzone_result_replacements"
        replace = item.replace
        if declares_slot(impl.plugin.module):
            replace = owned(replace, impl.plugin.name)  # its Slot reads its own slot
        call = (Impl(replace, None, impl.plugin, doing=f"replacement {item.effect!r} "),)

        def guarded(state: GameState, result: Result) -> Result | None:
            answered = loop(hook, call, (state, result))
            out = answered[0][1] if answered else None
            return self._calls.checking(impl, hook, state, lambda: check(state, out))

        def check(state: GameState, out: Any) -> Result | None:
            if out is not None and type(out) is not Result:
                raise self._calls.fail(impl, hook, state, None,
                                 f"replacement {item.effect!r} returned {shown(out)} where a "
                                 "Result or None was expected")
            if out is not None:
                problem = _answers_check.check_result(state, out)
                if problem is not None:
                    raise self._calls.fail(impl, hook, state, None,
                                     f"replacement {item.effect!r} returned a Result whose "
                                     f"{problem}")
            return out

        return guarded
