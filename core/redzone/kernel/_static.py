"""Static answers: what plugins answer about an object, kept by its characteristics.

A few hooks ask a question about one or two objects whose answer, for every
built-in keyword, is read from those objects alone: whether a creature deals
combat damage in a step (first strike, double strike), the lethal damage a
source's assignment to a creature needs (deathtouch), whether a blocked
attacker may assign past its blockers (trample), the results of a damage
(deathtouch, lifelink, infect, wither, toxic). AI search asks them again
and again about the same creatures, in one candidate after another, and a
creature's answers don't change while its characteristics don't.

So the answers to these hooks (:data:`STATIC_HOOKS`) are **static**: the
facade's combined answer is kept, per engine, by the hook, its arguments and
each object's :attr:`~redzone.Permanent.characteristics` (109.3: name,
colours, types, abilities, power, toughness, counters; with controller,
owner and whether it is a token), and asked again only when one of those
changes (a pump, a counter, a keyword lost through the layers, a change of
control); a player by its id alone. An object that is not on the
battlefield, or not there at all, is asked about every time (its last known
information is not its own). A kept list is copied for each caller.

An implementation whose answer depends on more than that (another object,
the combat, a player, the object's status such as damage or being tapped)
says so once, with :func:`dynamic`: while one such implementation would be
asked (the gates let it through), the hook is asked every time, with every
implementation. Declaring it is about what the answer means, not speed:
verify mode recomputes every kept answer it would use, once for each state
it is used in (the answer about a state was compared with the kept one
already), and fails a plugin whose answer differs for the same
characteristics, naming the plugin, the hook and the objects
(:meth:`StaticAnswers.verified`).

The table of each engine is bounded (:data:`MAX_KEPT` answers per hook, then
emptied; fewer in verify mode) and filled idempotently: threads sharing an engine at most compute
an answer twice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

from redzone.kernel._calling import Calls, Impl, Loop, mark, marked
from redzone.kernel.answers import shown
from redzone.kernel.errors import PluginError
from redzone.kernel.model import GameState

if TYPE_CHECKING:
    from redzone.kernel._gates import Gates
    from redzone.kernel._lazy import Pending

F = TypeVar("F", bound=Callable[..., Any])

#: The attribute :func:`dynamic` sets on an implementation.
DYNAMIC: Final = "__redzone_dynamic__"

#: The hooks whose answers are static, each with how many of its arguments
#: after the state are object ids (the others are kept by their values), or
#: :data:`DAMAGE` for a hook asked about one damage (its fields are kept by
#: their values, its source and its target are the objects).
STATIC_HOOKS: Final[Mapping[str, int]] = {
    "redzone_deals_combat_damage": 1,
    "redzone_lethal_damage": 2,
    "redzone_assigns_past_blockers": 1,
    "redzone_damage_results": -1,
}
#: The shape of a hook asked about one :class:`~redzone.Damage`.
DAMAGE: Final = -1

#: A kept answer: its value, and (in verify mode) the state it was found in
#: and the last state it was recomputed about.
_Kept = tuple[Any, GameState | None, GameState | None]

#: The most answers kept per hook and engine (then the table is emptied);
#: verify mode, which keeps the state each was found in, keeps an eighth.
MAX_KEPT: Final = 8192


def dynamic(fn: F) -> F:
    """Declare that a hook implementation's answers are dynamic: they depend
    on more than the characteristics of the objects it is asked about (the
    combat, another object, a player, the object's damage or tapped status,
    the plugin's own slot).

    The answers of a few hooks are static by default (the hook's
    documentation says so): the engine asks them once per object's
    characteristics and keeps the answer. Put ``@dynamic`` under
    ``@hookimpl`` on an implementation of one of those whose answer reads
    more; it is then asked every time. On any other hook it changes nothing
    (every answer is asked for). Verify mode fails an implementation that
    answers differently for the same characteristics without declaring it.

    :returns: ``fn`` itself, marked.
    :raises TypeError: for anything but a function or a method.

    .. versionadded:: 0.1.0
    """
    return mark(fn, DYNAMIC, "dynamic")


def declares_dynamic(fn: object) -> bool:
    """Whether the implementation ``fn`` (a function, a bound method, or the
    kernel's wrapper of either) was marked with :func:`dynamic`, read
    without running plugin code."""
    return marked(fn, DYNAMIC)


def static(hook: str) -> Callable[[F], F]:
    """Make a facade method ``method(self, state, *args)`` of hook ``hook``
    answer from its engine's :class:`StaticAnswers`: asked once per
    arguments and characteristics of the objects among them (the first
    :data:`STATIC_HOOKS` ``[hook]`` arguments), while no dynamic
    implementation would be asked and some implementation would be."""
    objects = STATIC_HOOKS[hook]

    def decorate(method: F) -> F:
        @functools.wraps(method)
        def answer(self: Any, state: GameState, *args: Any) -> Any:
            kept: StaticAnswers = self.static_answers
            if hook in kept.dynamic and kept.asks_dynamic(hook, state):
                return method(self, state, *args)
            if objects == DAMAGE:
                damage = args[0]
                ids: tuple[str, ...] = (damage.source, damage.target)
                key: tuple[Any, ...] = (*ids, damage.amount, damage.combat, damage.step)
            else:
                ids = args[:objects]
                key = args
            found = state.objects._items
            for obj in ids:
                perm = found.get(obj)
                if perm is not None and perm.zone == "battlefield":
                    key += (perm.characteristics,)
                elif perm is None and obj in state.players._items:
                    key += (None,)  # a player: kept by its id
                else:  # not there, or its last known information, which isn't its own
                    return method(self, state, *args)
            table = kept.tables[hook]
            entry = table.get(key)
            if entry is None:
                value = method(self, state, *args)
                if len(table) >= kept.limit:
                    table.clear()
                then = state if kept.verify else None
                table[key] = (value[:] if type(value) is list else value, then, then)
                return value
            if entry[2] is not None and entry[2] is not state:
                # Verify mode: recomputed once per state it is used in.
                kept.verified(hook, entry, state, ids, args, method(self, state, *args))
                table[key] = (entry[0], entry[1], state)
            value = entry[0]
            return value[:] if type(value) is list else value

        return answer  # type: ignore[return-value]

    return decorate


class StaticAnswers:
    """The static answers of one engine's plugins.

    :param cache: each hook's implementations.
    :param gates: the engine's gates (which implementations a state asks).
    :param calls: the engine's triage, to name a plugin.
    :param plain: the call loop without verify mode, to find the plugin
        whose answer changed.
    :param verify: verify mode: each kept answer is recomputed as it is used
        about a state it wasn't recomputed about last.
    :param pending: the plugins the engine imports when first needed: told
        of each as it is imported, this finds its dynamic implementations.
    """

    def __init__(self, cache: Mapping[str, tuple[Impl, ...]], gates: Gates, calls: Calls,
                 plain: Loop, verify: bool, pending: Pending | None = None) -> None:
        self._cache = cache
        self._gates = gates
        self._calls = calls
        self._plain = plain
        self.verify = verify
        #: The most answers kept per hook.
        self.limit = MAX_KEPT // 8 if verify else MAX_KEPT
        #: Per static hook, the kept answers: ``(value, state it was found
        #: in, state it was last recomputed about)`` (the states in verify
        #: mode only) by arguments and characteristics.
        self.tables: dict[str, dict[tuple[Any, ...], _Kept]] = {
            hook: {} for hook in STATIC_HOOKS}
        #: Per static hook, its implementations declared :func:`dynamic` (a
        #: hook with none is left out).
        self.dynamic: dict[str, frozenset[Impl]] = {}
        self.refresh()
        if pending is not None:
            pending.loaded.append(self.refresh)

    def refresh(self, loaded: object = None) -> None:
        """Find again which implementations are :func:`dynamic`: as the
        engine is built, and when a plugin is imported after it
        (:attr:`redzone.kernel._lazy.Pending.loaded`: its stand-ins' functions
        are then its own). A hook that gains one forgets what it kept.

        :param loaded: the plugin just imported (unused: every hook is read)."""
        for hook in STATIC_HOOKS:
            marked = frozenset(i for i in self._cache.get(hook, ()) if declares_dynamic(i.fn))
            if marked != self.dynamic.get(hook, frozenset()):
                self.tables[hook].clear()
            if marked:
                self.dynamic[hook] = marked
            else:
                self.dynamic.pop(hook, None)

    def asks_dynamic(self, hook: str, state: GameState) -> bool:
        """Whether an implementation of ``hook`` declared :func:`dynamic`
        would be asked about ``state`` (its gate lets it through)."""
        impls = self._cache[hook]
        if hook in self._gates.gated_hooks:
            impls = self._gates.active(hook, impls, state)
        return not self.dynamic[hook].isdisjoint(impls)

    def verified(self, hook: str, entry: _Kept, state: GameState,
                 ids: tuple[str, ...], args: tuple[Any, ...], fresh: Any) -> None:
        """Verify mode: the answer kept in ``entry`` is the one recomputed
        about ``state`` (``fresh``), or the implementation that answers
        differently about the state the entry was found in is named.

        :raises PluginError: naming it, the hook and the objects.
        """
        value, then, _ = entry
        if type(fresh) is type(value) and fresh == value:
            return
        assert then is not None
        names = ", ".join(f"{o!r} ({state.objects[o].name})" if o in state.objects
                          else repr(o) for o in ids)
        for impl in self._cache[hook]:
            if impl in self.dynamic.get(hook, ()):
                continue
            before = self._plain(hook, (impl,), (then, *args))
            now = self._plain(hook, (impl,), (state, *args))
            if before != now:
                said = before[0][1] if before else None
                says = now[0][1] if now else None
                raise self._calls.fail(
                    impl, hook, state, None,
                    f"answered {shown(says)} about {names}, and {shown(said)} about the same "
                    "characteristics in another state; its answer depends on more than "
                    "their characteristics, so it must be declared with @redzone.dynamic "
                    "(verify mode recomputes every static answer it keeps)")
        raise PluginError(
            f"the answer of hook {hook} about {names} was {shown(value)} and is now "
            f"{shown(fresh)} for the same characteristics, and no one plugin answers "
            "differently alone (verify mode recomputes every static answer it keeps)",
            hook=hook)
