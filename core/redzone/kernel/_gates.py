"""Gates: which implementations of a hook are asked about which state.

A plugin may say, by a module constant, that its hooks answer nothing unless
the state holds one of the keywords it declares (:data:`GATE_FLAG`) or one of
some fields of the state is non-empty (:data:`STATE_GATE_FLAG`); the kernel
then doesn't ask it about other states. What each gate lets through is worked
out once per set of keywords present and of non-empty gated fields, and kept
with the last state asked about.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, Final

from redzone.kernel._calling import Impl
from redzone.kernel._loading import KeywordInfo, PluginInfo
from redzone.kernel.errors import PluginLoadError
from redzone.kernel.model import FLAG_FIELDS

#: The module constant by which a plugin says that every one of its hooks
#: answers nothing (``None``, ``False`` or empty) unless some object of the
#: state (in any zone, or as last known information) has one of the keywords
#: the plugin declares; the core then doesn't ask it about other states.
GATE_FLAG: Final = "REDZONE_NEEDS_KEYWORD"
#: The module constant by which a plugin says that every one of its hooks
#: answers nothing unless one of the named fields of the state is non-empty
#: (a tuple of :class:`~redzone.GameState` field names, such as
#: ``("effects",)``); the core then doesn't ask it about other states. With
#: :data:`GATE_FLAG` too, both must let a state through.
STATE_GATE_FLAG: Final = "REDZONE_NEEDS_STATE"
#: Hooks never skipped that way: loading, and resolving a trigger (an ability
#: on the stack resolves whatever its source has become, 113.7a).
_UNGATED: Final = frozenset({"redzone_keywords", "redzone_resolve_trigger", "redzone_actions",
                             "redzone_condition_holds", "redzone_damage_steps"})

#: The module constant by which a plugin says that its
#: ``redzone_assignment_violations`` never finds a violation in an assignment
#: the built-in default policy made (lethal damage to each creature in order
#: first, with the lethal amounts plugins give, 510.1c-d): the engine then
#: doesn't check its own default assignments against it (verify mode still
#: does, so a wrong claim fails the test suite).
TRUST_FLAG: Final = "REDZONE_TRUSTS_DEFAULT_POLICY"

#: The state fields a plugin may gate on (:data:`STATE_GATE_FLAG`): the
#: collections of the state that effects and what waits live in.
_GATEABLE_FIELDS: Final = frozenset({"effects", "shields", "delayed", "stack", "plugin_state",
                                     "sources", "teams"})

#: A gate key: the keywords present, and bits of the non-empty gated fields.
_Key = tuple[frozenset[str], int]


def flag(module: object, name: str, default: Any) -> Any:
    """A plugin's module constant (:data:`GATE_FLAG` ...), read statically:
    no attribute code of the plugin runs."""
    return inspect.getattr_static(module, name, default)


def _state_gates(cache: Mapping[str, tuple[Impl, ...]]) -> tuple[str, ...]:
    """The state fields plugins gate on (:data:`STATE_GATE_FLAG`), in
    order of first mention.

    :raises PluginLoadError: when a plugin names what isn't a field of
        :class:`~redzone.GameState` holding a collection, nor
        ``objects.<field>`` for a field of
        :data:`~redzone.kernel.model.FLAG_FIELDS`.
    """
    gated = _GATEABLE_FIELDS | {f"objects.{f}" for f in FLAG_FIELDS}
    fields: dict[str, None] = {}
    infos: list[PluginInfo] = sorted({impl.plugin.name: impl.plugin for impls in cache.values()
                                      for impl in impls}.values(), key=lambda info: info.name)
    for info in infos:
        names = flag(info.module, STATE_GATE_FLAG, ())
        if isinstance(names, str) or not isinstance(names, tuple) or not all(
                isinstance(n, str) and n in gated for n in names):
            raise PluginLoadError(
                f"plugin {info.name!r} sets {STATE_GATE_FLAG} = {names!r}: it must be a "
                f"tuple of state fields that hold collections or permanent flags "
                f"(some of {', '.join(sorted(gated))})", plugin=info.name,
                distribution=info.distribution, hook="")
        for name in names:
            fields[name] = None
    return tuple(fields)


class Gates:
    """The gates of one engine's implementations.

    :param cache: each hook's implementations (their gates are set here).
    :param keywords: the keywords the plugins declare.
    :raises PluginLoadError: when a plugin's :data:`STATE_GATE_FLAG` names
        what can't be gated on.
    """

    def __init__(self, cache: Mapping[str, tuple[Impl, ...]],
                 keywords: Mapping[str, KeywordInfo]) -> None:
        self._cache = cache
        declared: dict[str, set[str]] = {}
        for name, kinfo in keywords.items():
            declared.setdefault(kinfo.plugin, set()).add(name)
        self._state_fields = _state_gates(cache)
        bits = [(name, 1 << i) for i, name in enumerate(self._state_fields)]
        self._field_bits = tuple((n, b) for n, b in bits if not n.startswith("objects."))
        self._flag_bits = tuple((n[len("objects."):], b) for n, b in bits
                                if n.startswith("objects."))
        for hook, impls in cache.items():
            if hook in _UNGATED:
                continue
            for impl in impls:
                if flag(impl.plugin.module, GATE_FLAG, False) is True:
                    impl.gate = frozenset(declared.get(impl.plugin.name, ()))
                for name in flag(impl.plugin.module, STATE_GATE_FLAG, ()):
                    impl.state_gate |= 1 << self._state_fields.index(name)
        #: Hooks with a gated implementation.
        self.gated_hooks = frozenset(h for h, impls in cache.items()
                                     if any(i.gate is not None or i.state_gate for i in impls))
        #: Per gate key, the implementations of each hook the gates let through.
        self._gated: dict[_Key, dict[str, tuple[Impl, ...]]] = {}
        self._silent: dict[_Key, frozenset[str]] = {}
        self._entry: tuple[Any, _Key, dict[str, tuple[Impl, ...]],
                           frozenset[str] | None] = (None, (frozenset(), 0), {}, None)

    def silent(self, state: Any) -> frozenset[str]:
        """The hooks no implementation would be asked about ``state`` (none
        is implemented, or the gates keep every one out): a caller about to
        ask one hook for each of many creatures asks this once instead.
        Worked out once per set of keywords present and of non-empty gated
        fields (and kept with the last state asked about)."""
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
            found = frozenset(h for h, impls in self._cache.items()
                              if not impls or (h in self.gated_hooks
                                               and not self.active(h, impls, state)))
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
        key = (state.keyword_names_present, self._filled(state) if self._state_fields else 0)
        table = self._gated.get(key)
        if table is None:
            if len(self._gated) > 1024:
                self._gated.clear()
            table = self._gated[key] = {}
        entry = (state, key, table, None)
        self._entry = entry
        return entry

    def _filled(self, state: Any) -> int:
        """Bits of the gated fields: which of ``state``'s are non-empty."""
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
        return filled

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

    def asked(self, hook: str, state: Any) -> tuple[Impl, ...]:
        """The implementations of ``hook`` the gates let through for ``state``."""
        impls = self._cache[hook]
        return self.active(hook, impls, state) if hook in self.gated_hooks else impls

    def trusted(self, state: Any) -> bool:
        """Whether every implementation of ``redzone_assignment_violations``
        asked about ``state`` sets :data:`TRUST_FLAG`."""
        return all(flag(i.plugin.module, TRUST_FLAG, False) is True
                   for i in self.asked("redzone_assignment_violations", state))
