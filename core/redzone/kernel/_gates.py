"""Gates: which implementations of a hook are asked about which state.

No plugin sets a gate; the kernel infers each from what it knows already:

* a plugin's **keyword gate** is the keywords it declares
  (``redzone_keywords``): its hooks are not asked about a state where no
  object (in any zone, or as last known information) has one of them. A
  plugin that declares no keyword, or one of whose
  :class:`~redzone.KeywordSpec`\\ s says ``asked_always=True``, has none;
* for a hook about objects (:data:`ABOUT`: a creature, a pair of creatures,
  a damage, a source's assignment), a keyword-gated implementation also has
  an **object gate**, the same keywords: it is not asked about objects on
  the battlefield none of which has one of them (a player asked about has
  none; an object not on the battlefield, or not there at all, lets every
  implementation the state gate lets through be asked). An implementation
  that answers about objects without its keyword (banding's damage division:
  a creature blocked by a band with banding) says so with
  :func:`whole_board`; a plugin not imported yet is gated by the state alone
  until it is;
* the kernel's own plugin modules have a **state gate**, from
  :data:`_KERNEL_STATE_GATES`: their hooks read some fields of the state
  alone and are not asked while all of those are empty. No other plugin
  gets one (it would need one only to be faster, never to be correct).

What each gate lets through is worked out once per set of keywords present
and of non-empty gated fields, and kept with the last state asked about.
Verify mode asks every implementation whatever its gates (:meth:`Gates.checked`
wraps the call loop) and fails a plugin its gates kept out that answers; the
answers it uses are those of the implementations the gates let through. A
plugin not imported yet answers nothing where its gate keeps it out (its
stand-in imports nothing): it is asked from its import on.

The module constants that used to set gates by hand (:data:`RETIRED_FLAGS`)
are ignored, with a :class:`DeprecationWarning` naming the plugin.
"""

from __future__ import annotations

import importlib
import inspect
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from redzone.kernel._calling import Calls, Impl, Loop, mark, marked
from redzone.kernel._loading import KeywordInfo, PluginInfo
from redzone.kernel.answers import shown
from redzone.kernel.model import GameState

#: Hooks never gated: loading, and resolving a trigger (an ability on the
#: stack resolves whatever its source has become, 113.7a).
_UNGATED: Final = frozenset({"redzone_keywords", "redzone_resolve_trigger",
                             "redzone_trigger_choices", "redzone_actions",
                             "redzone_condition_holds", "redzone_damage_steps",
                             "redzone_event_kinds", "redzone_activated_abilities"})

#: The state gates of the kernel's own plugin modules, by module name: each
#: of the module's hooks reads only these fields of the state (a collection
#: of the state, or ``objects.<field>`` for a permanent's restriction or
#: requirement field, :data:`~redzone.kernel.model.FLAG_FIELDS`) and answers
#: nothing while all are empty. A module matches only when it is the module
#: of that name redzone imported (a plugin named alike isn't it).
_KERNEL_STATE_GATES: Final[Mapping[str, tuple[str, ...]]] = {
    # Restrictions and requirements on permanents, and provoke's requirement,
    # which lives in the state's effects.
    "redzone.kernel.restrictions": (
        "objects.cant_attack", "objects.cant_block", "objects.cant_be_blocked",
        "objects.min_blockers", "objects.attacks_if_able", "objects.blocks_if_able",
        "objects.must_be_blocked", "objects.lure", "effects"),
    # Prevention, doubling, redirection and life floors: the state's effects.
    "redzone.kernel.effects": ("effects",),
    # Regeneration, the kernel's actions plugin's one hook: the state's shields.
    "redzone.kernel.action_kinds": ("shields",),
}

#: The module constants by which plugins once set their gates, and what
#: replaced each: a plugin module that still sets one gets a
#: :class:`DeprecationWarning` and the constant is ignored.
RETIRED_FLAGS: Final[Mapping[str, str]] = {
    "REDZONE_NEEDS_KEYWORD": "a plugin's keyword gate is now the keywords it declares",
    "REDZONE_NEEDS_STATE": "only the kernel's own modules have a state gate",
    "REDZONE_TRUSTS_DEFAULT_POLICY": "the default assignment is checked by every "
                                     "redzone_assignment_violations its gates let through",
}

F = TypeVar("F", bound=Callable[..., Any])


def _first(n: int) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """The objects of a hook asked about its first ``n`` arguments after the state."""
    return lambda args: args[1:1 + n]


def _damage(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (args[1].source, args[1].target)


def _source(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (args[1].source,)


def _group(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(args[1])


def _attacker_and_blockers(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (args[1], *args[2])


#: The hooks about objects, each with how the ids of the objects it is asked
#: about are read from its arguments (the state first): a creature or a
#: pair of them, a band's members, a damage's source and target, the source
#: of an assignment, an ability's source and the object it would target. A
#: keyword-gated implementation of one of them is asked only when one of
#: those objects has one of its keywords (its object gate).
ABOUT: Final[Mapping[str, Callable[[tuple[Any, ...]], tuple[Any, ...]]]] = {
    "redzone_keeps_tapped": _first(1),
    "redzone_attack_violations": _first(2),
    "redzone_attack_exemption": _first(2),
    "redzone_can_band": _group,
    "redzone_attacks_without_tapping": _first(1),
    "redzone_additional_blocks": _first(1),
    "redzone_block_violations": _first(2),
    "redzone_block_exemption": _first(2),
    "redzone_blocked_by_violations": _attacker_and_blockers,
    "redzone_deals_combat_damage": _first(1),
    "redzone_combat_damage_amount": _first(1),
    "redzone_assigns_past_blockers": _first(1),
    "redzone_may_assign_as_though_unblocked": _first(1),
    "redzone_additional_recipients": _first(1),
    "redzone_damage_divider": _first(1),
    "redzone_lethal_damage": _first(2),
    "redzone_assignment_violations": _source,
    "redzone_redirect_damage": _damage,
    "redzone_prevent_damage": _damage,
    "redzone_modify_damage": _damage,
    "redzone_damage_results": _damage,
    "redzone_cannot_be_destroyed": _first(1),
    "redzone_destruction_replacements": _first(1),
    "redzone_target_violations": _first(2),
}

#: The attribute :func:`whole_board` sets on an implementation.
WHOLE_BOARD: Final = "__redzone_whole_board__"


def whole_board(fn: F) -> F:
    """Declare that a hook implementation may answer about objects none of
    which has one of its plugin's keywords: it is asked whenever one of them
    is present on the board, not only about the objects that have one.

    A hook about objects (a creature, a pair of creatures, a damage, a
    source's assignment: the hook's documentation says "gated on the objects
    it is asked about") asks a plugin that declares keywords only about
    objects one of which has one of them: trample's check of an assignment
    is asked about a trampler's, deathtouch's lethal damage about a
    deathtouch source. Put ``@whole_board`` under ``@hookimpl`` on an
    implementation whose keyword matters on another object: banding's
    division of combat damage, asked about a creature blocked by a band
    that has banding. On a hook not about objects it changes nothing. Verify
    mode asks every implementation whatever its gates and fails one that
    answers where its object gate kept it out, naming the plugin, the hook
    and the objects.

    :returns: ``fn`` itself, marked.
    :raises TypeError: for anything but a function or a method.

    .. versionadded:: 0.1.0
    """
    return mark(fn, WHOLE_BOARD, "whole_board")


def object_keywords(state: GameState, ids: tuple[Any, ...]) -> tuple[frozenset[str], ...] | None:
    """The keyword names of each object among ``ids`` (a player's id gives
    none), or ``None`` when one is not a permanent on the battlefield (its
    last known information may have other keywords: every implementation
    the state gate lets through is asked)."""
    objects = state.objects._items
    found: list[frozenset[str]] = []
    for obj in ids:
        perm = objects.get(obj)
        if perm is None:
            if type(obj) is str and obj in state.players._items:
                continue
            return None
        if perm.zone != "battlefield":
            return None
        found.append(perm.keyword_names)
    return tuple(found)


#: A gate key: the keywords present, and bits of the non-empty gated fields.
_Key = tuple[frozenset[str], int]

_MISSING: Final = object()


def warn_retired(info: PluginInfo) -> None:
    """Warn that ``info``'s module sets a retired gate constant (read
    statically: no attribute code of the plugin runs)."""
    for name, why in RETIRED_FLAGS.items():
        if inspect.getattr_static(info.module, name, _MISSING) is not _MISSING:
            warnings.warn(
                f"plugin {info.name!r} ({info.distribution or 'unknown distribution'}) sets "
                f"{name}, which redzone no longer reads ({why}); the constant is ignored: "
                "delete it (a plugin that must be asked whatever keywords are present "
                "declares KeywordSpec(..., asked_always=True))",
                DeprecationWarning, stacklevel=5)


def _kernel_gate(info: PluginInfo) -> tuple[str, ...]:
    """The state fields ``info`` is gated on: some only for a kernel module."""
    for name, fields in _KERNEL_STATE_GATES.items():
        if importlib.import_module(name) is info.module:  # imported already: a lookup
            return fields
    return ()


#: The collections an empty answer of which says nothing (as ``False`` does).
_COLLECTIONS: Final = frozenset({tuple, list, set, frozenset, dict})


class Gates:
    """The gates of one engine's implementations.

    :param cache: each hook's implementations (their gates are set here).
    :param keywords: the keywords the plugins declare.
    :param everyone: ask every implementation whatever its gate (verify
        mode, which then checks the gates with :meth:`checked`).
    :param loaded: told of each plugin imported after the engine is built
        (:attr:`redzone.kernel._lazy.Pending.loaded`): its object gates are
        set then.
    """

    def __init__(self, cache: Mapping[str, tuple[Impl, ...]],
                 keywords: Mapping[str, KeywordInfo], everyone: bool = False,
                 loaded: list[Callable[[PluginInfo], None]] | None = None) -> None:
        self._cache = cache
        declared: dict[str, set[str]] = {}
        always: set[str] = set()
        for name, kinfo in keywords.items():
            declared.setdefault(kinfo.plugin, set()).add(name)
            if kinfo.spec.asked_always is True:
                always.add(kinfo.plugin)
        infos = sorted({impl.plugin.name: impl.plugin for impls in cache.values()
                        for impl in impls}.values(), key=lambda info: info.name)
        fields: dict[str, None] = {}
        kernel: dict[str, tuple[str, ...]] = {}
        for info in infos:
            kernel[info.name] = ()
            if not info.imported:  # warned as it is imported (redzone.kernel._lazy)
                continue
            warn_retired(info)
            kernel[info.name] = _kernel_gate(info)
            fields.update(dict.fromkeys(kernel[info.name]))
        self._state_fields = tuple(fields)
        bits = [(name, 1 << i) for i, name in enumerate(self._state_fields)]
        self._field_bits = tuple((n, b) for n, b in bits if not n.startswith("objects."))
        self._flag_bits = tuple((n[len("objects."):], b) for n, b in bits
                                if n.startswith("objects."))
        for hook, impls in cache.items():
            if hook in _UNGATED:
                continue
            for impl in impls:
                name = impl.plugin.name
                if name in declared and name not in always:
                    impl.gate = frozenset(declared[name])
                for field in kernel[name]:
                    impl.state_gate |= 1 << self._state_fields.index(field)
        self._declared = {name: frozenset(kws) for name, kws in declared.items()
                          if name not in always}
        self._everyone = everyone
        #: Per hook about objects, active implementations and their objects'
        #: keywords: the implementations their object gates let through.
        self._about: dict[tuple[Any, ...], tuple[Impl, ...]] = {}
        #: Outside verify mode, the hooks about objects with an implementation
        #: that has an object gate: those the object gates filter.
        self.object_filtered = frozenset[str]()
        self._object_gates({info.name for info in infos if info.imported})
        if loaded is not None:
            loaded.append(self.refresh)  # a plugin imported later: its object gates
        #: Hooks with a gated implementation.
        self.gated_hooks = frozenset(h for h, impls in cache.items()
                                     if any(i.gate is not None or i.state_gate for i in impls))
        #: The hooks whose implementations are filtered by their gates before
        #: a call: :attr:`gated_hooks`, or none when every one is asked.
        self.filtered = frozenset[str]() if everyone else self.gated_hooks
        #: Per gate key, the implementations of each hook the gates let through.
        self._gated: dict[_Key, dict[str, tuple[Impl, ...]]] = {}
        self._silent: dict[_Key, frozenset[str]] = {}
        self._entry: tuple[Any, _Key, dict[str, tuple[Impl, ...]],
                           frozenset[str] | None] = (None, (frozenset(), 0), {}, None)
        #: Verify mode: whether a kept-out implementation answers nothing
        #: without being asked (:meth:`checked`).
        self._quiet: Callable[[Impl], bool] | None = None

    def refresh(self, info: PluginInfo) -> None:
        """Set the object gates of ``info``'s implementations, once its
        module is imported (as the engine is built, or later:
        :attr:`redzone.kernel._lazy.Pending.loaded`; until then a stand-in
        is gated by the state alone, since whether its implementation is
        :func:`whole_board` is not known without importing it)."""
        self._object_gates({info.name})

    def _object_gates(self, plugins: set[str]) -> None:
        """Set the object gates of the implementations of ``plugins``."""
        for hook in ABOUT:
            for impl in self._cache.get(hook, ()):
                if impl.plugin.name in plugins:
                    keywords = self._declared.get(impl.plugin.name)
                    impl.object_gate = None if keywords is None or \
                        marked(impl.fn, WHOLE_BOARD) else keywords
        self._about.clear()
        if not self._everyone:  # (verify mode asks every implementation: none filtered)
            self.object_filtered = frozenset(
                h for h in ABOUT
                if any(i.object_gate is not None for i in self._cache.get(h, ())))

    def asks_about(self, hook: str, impls: tuple[Impl, ...], args: tuple[Any, ...]) -> bool:
        """Whether one of ``impls`` (a hook's) would be asked with ``args``:
        its gates let it through for the state and the objects."""
        state = args[0]
        if hook in self.silent(state):
            return False
        return hook not in self.object_filtered or bool(
            self.about(hook, self.active(hook, impls, state), args))

    def through(self, hook: str, impls: tuple[Impl, ...],
                args: tuple[Any, ...]) -> tuple[Impl, ...]:
        """Of ``impls`` (a gated hook's), those its gates let through for
        ``args`` (the state first): :meth:`active`, then :meth:`about`."""
        active = self.active(hook, impls, args[0])
        if active and hook in self.object_filtered:
            return self.about(hook, active, args)
        return active

    def about(self, hook: str, impls: tuple[Impl, ...],
              args: tuple[Any, ...]) -> tuple[Impl, ...]:
        """Of ``impls`` (those the state gate lets through), the ones the
        object gates let through for the objects ``args`` asks about."""
        kws = object_keywords(args[0], ABOUT[hook](args))
        if kws is None:
            return impls
        key = (impls, *kws)
        found = self._about.get(key)
        if found is None:
            found = tuple(i for i in impls if i.object_gate is None
                          or any(not i.object_gate.isdisjoint(k) for k in kws))
            if len(self._about) > 4096:
                self._about.clear()
            self._about[key] = found
        return found

    def silent(self, state: Any) -> frozenset[str]:
        """The hooks no implementation would be asked about ``state`` (none
        is implemented, or the gates keep every one out; in verify mode,
        which asks the ones kept out too, every one is kept out and answers
        nothing unasked: the stand-in of a plugin not imported yet): a
        caller about to ask one hook for each of many creatures asks this
        once instead. Worked out once per set of keywords present and of
        non-empty gated fields (and kept with the last state asked about)."""
        entry = self._entry
        if entry[0] is state:
            known = entry[3]
            if known is not None:
                return known
        else:
            entry = self._gate_entry(state)
        key = entry[1]
        found = self._silent.get(key)
        if found is None:
            quiet = self._quiet
            found = frozenset(h for h, impls in self._cache.items() if not impls or (
                h in self.gated_hooks and not self.active(h, impls, state) and (
                    h in self.filtered or (quiet is not None and all(map(quiet, impls))))))
            if len(self._silent) > 1024:
                self._silent.clear()
            self._silent[key] = found
        self._entry = (state, key, entry[2], found)
        return found

    def _gate_entry(self, state: Any) -> tuple[Any, _Key, dict[str, tuple[Impl, ...]],
                                               frozenset[str] | None]:
        """``(state, gate key, table of active implementations, silent
        hooks or None)`` for the last state asked about (one tuple, replaced
        at once: threads that share an engine never see one state's key with
        another's table)."""
        entry = self._entry
        if entry[0] is state:
            return entry
        # Bits of the gated fields: which of the state's are non-empty.
        filled = 0
        for name, bit in self._field_bits:
            if getattr(state, name):
                filled |= bit
        if self._flag_bits:
            flags = state.object_flags
            if flags:
                for name, bit in self._flag_bits:
                    if name in flags:
                        filled |= bit
        key = (state.keyword_names_present, filled)
        table = self._gated.get(key)
        if table is None:
            if len(self._gated) > 1024:
                self._gated.clear()
            table = self._gated[key] = {}
        entry = (state, key, table, None)
        self._entry = entry
        return entry

    def active(self, hook: str, impls: tuple[Impl, ...], state: Any) -> tuple[Impl, ...]:
        """The implementations of ``hook`` worth asking about ``state``: the
        keyword gate applied once per hook and set of keywords present (a
        state's set is shared by the states built from it), and the state
        gate once per hook and set of non-empty gated fields."""
        entry = self._entry
        if entry[0] is not state:
            entry = self._gate_entry(state)
        table = entry[2]
        active = table.get(hook)
        if active is None:
            present, filled = entry[1]
            active = tuple(i for i in impls
                           if (i.gate is None or not i.gate.isdisjoint(present))
                           and (not i.state_gate or i.state_gate & filled))
            table[hook] = active
        return active

    def describe(self, impl: Impl) -> str:
        """What ``impl``'s gate is, for a message: ``"declares keywords
        'zap', none present"``."""
        said = []
        if impl.gate is not None:
            said.append(f"declares keywords {', '.join(map(repr, sorted(impl.gate)))}, "
                        "none present")
        if impl.state_gate:
            names = [n for i, n in enumerate(self._state_fields) if impl.state_gate >> i & 1]
            said.append(f"is asked only when one of the state's {', '.join(names)} is "
                        "non-empty, none is")
        return "; ".join(said)

    def checked(self, inner: Loop, unwatched: Loop, calls: Calls,
                silent: Callable[[Impl], bool] | None = None,
                loaded: list[Callable[[PluginInfo], None]] | None = None) -> Loop:
        """``inner``, asked with the implementations the gates let through,
        and ``unwatched`` (the loop without verify mode's watch of the
        state: they answer nothing, or fail) with the ones they keep out:
        one of those that answers something (not ``None``, ``False`` or
        empty) fails, since outside verify mode that answer would be lost.
        What the caller gets is what the gates let through answered, as
        outside verify mode. A kept-out implementation ``silent`` says
        answers ``None`` (the stand-in of a plugin not imported yet:
        :meth:`redzone.kernel._lazy.Pending.kept_silent`) is not asked,
        until a plugin is imported (``loaded``: told of each)."""
        cache, gated = self._cache, self.gated_hooks
        #: Per gate key and hook: the implementations let through and those kept out.
        splits: dict[tuple[_Key, str], tuple[tuple[Impl, ...], tuple[Impl, ...]]] = {}
        self._quiet = silent

        def forget(info: PluginInfo) -> None:
            # a plugin imported: its implementations are asked from now on
            splits.clear()
            self._silent.clear()
            self._entry = (None, (frozenset(), 0), {}, None)

        if loaded is not None:
            loaded.append(forget)

        def answers(hook: str, impls: tuple[Impl, ...],
                    args: tuple[Any, ...]) -> list[tuple[Impl, Any]]:
            if hook not in gated or not args or impls is not cache[hook]:
                return inner(hook, impls, args)
            state = args[0]
            if not isinstance(state, GameState):
                return inner(hook, impls, args)
            entry = self._entry  # read once: another thread may replace it
            if entry[0] is not state:
                entry = self._gate_entry(state)
            split = splits.get((entry[1], hook))
            if split is None:
                asked = self.active(hook, impls, state)
                split = (asked, tuple(i for i in impls if i not in asked
                                      and (silent is None or not silent(i))))
                if len(splits) > 4096:
                    splits.clear()
                splits[entry[1], hook] = split
            asked, kept = split
            objects: tuple[Impl, ...] = ()
            if hook in ABOUT and asked:
                through = self.about(hook, asked, args)
                if len(through) != len(asked):
                    objects = tuple(i for i in asked if i not in through)
                    asked = through
            out = inner(hook, asked, args)
            if not kept and not objects:
                return out
            for impl, res in unwatched(hook, (*kept, *objects), args):
                if res is False or (type(res) in _COLLECTIONS and not res):
                    continue  # silent (a None answer isn't kept by the loop)
                if impl in objects:
                    ids = ", ".join(map(str, ABOUT[hook](args)))
                    kws = ", ".join(map(repr, sorted(impl.object_gate or ())))
                    raise calls.fail(impl, hook, state, None,
                                     f"declares keywords {kws}, "
                                     f"none on the objects asked about ({ids}), yet answered "
                                     f"{shown(res)} (its object gate keeps it out of this call "
                                     "outside verify mode, so the answer would be lost: an "
                                     "implementation that answers about objects without its "
                                     "keyword is marked @redzone.whole_board)")
                raise calls.fail(impl, hook, state, None,
                                 f"{self.describe(impl)}, yet answered {shown(res)} (its "
                                 "gate keeps it out of this call outside verify mode, so "
                                 "the answer would be lost: a plugin that must be asked "
                                 "whatever keywords are present declares "
                                 "KeywordSpec(..., asked_always=True))")
            return out

        return answers
