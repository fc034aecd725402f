"""Plugin discovery, the plugin manager and the typed hook facade.

Discovery order (what :func:`discover` does, in this order):

1. read every entry point of the ``redzone`` group from the installed
   distributions;
2. apply the block list, then the allow list, by plugin name;
3. drop duplicates (the same distribution and name seen twice, as happens
   with editable installs);
4. refuse two distributions that claim the same plugin name (blocking the
   name, or leaving it out of the allow list, resolves that);
5. sort by plugin name;
6. import each module and register it under its entry-point name.

Nothing is loaded at import time and nothing is global: each
:class:`~redzone.Engine` owns one :class:`pluggy.PluginManager`. Core code never
calls ``pm.hook`` directly; it calls :class:`Hooks`, which calls each
implementation itself, in order of plugin name, so that results never depend on
registration order and a failing plugin is named in the error.
"""

from __future__ import annotations

import difflib
import functools
import re
import time
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

import pluggy
from attrs import frozen

from redzone.kernel import hookspecs
from redzone.kernel.errors import (
    IllegalActionError,
    PluginError,
    PluginLoadError,
    UnknownKeywordError,
    Violation,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import evolve as _evolve
from redzone.kernel.hooktypes import (
    Action,
    ActionSpec,
    Damage,
    DamageModifier,
    DestructionReplacement,
    KeywordSpec,
    Prevention,
    Result,
    ResultReplacement,
    SourceAssignment,
    StateBasedAction,
)
from redzone.kernel.model import (
    SCOPES,
    Choice,
    Condition,
    GameState,
    Keyword,
    PluginState,
    Trigger,
)
from redzone.kernel.requirements import Requirement

if TYPE_CHECKING:
    import importlib.metadata

GROUP: Final = "redzone"
#: The distribution that ships the built-in keywords.
BUILTIN_DISTRIBUTION: Final = "redzone"

hookimpl = pluggy.HookimplMarker("redzone")

T = TypeVar("T")


@frozen
class PluginInfo:
    """A registered plugin.

    :param name: the name it is registered under (its entry-point name).
    :param module: the plugin object (usually a module).
    :param distribution: the distribution that provides it ("" if unknown).
    :param version: that distribution's version ("" if unknown).
    """

    name: str
    module: object
    distribution: str = ""
    version: str = ""


@frozen
class KeywordInfo:
    """A keyword an engine knows, and where it comes from.

    :param spec: the keyword's declaration.
    :param plugin: the plugin that declares it.
    :param distribution: that plugin's distribution.
    :param version: that distribution's version.
    """

    spec: KeywordSpec
    plugin: str
    distribution: str
    version: str


def discover(
    *, block: Iterable[str] = (), allow: Iterable[str] | None = None
) -> list[PluginInfo]:
    """Find and import the plugins of the ``redzone`` entry-point group.

    :param block: plugin names never to load.
    :param allow: if given, the only plugin names to load.
    :returns: the plugins, sorted by name.
    :raises PluginLoadError: when two distributions claim one name, or a
        plugin fails to import (naming the plugin and its distribution).
    """
    blocked = set(block)
    allowed = set(allow) if allow is not None else None
    found: dict[str, tuple[importlib.metadata.EntryPoint, str, str]] = {}
    installed: set[str] = set()
    for ep in entry_points(GROUP):
        installed.add(ep.name)
        if ep.name in blocked or (allowed is not None and ep.name not in allowed):
            continue  # a name that is not loaded can't conflict
        dist = ep.dist.name if ep.dist is not None else ""
        version = ep.dist.version if ep.dist is not None else ""
        seen = found.get(ep.name)
        if seen is not None:
            if seen[1] == dist or seen[0].value == ep.value:
                continue
            raise PluginLoadError(
                f"plugin name {ep.name!r} is claimed by two distributions: "
                f"{seen[1]!r} ({seen[0].value}) and {dist!r} ({ep.value}); "
                "uninstall one or block the name",
                plugin=ep.name,
                distribution=dist,
            )
        found[ep.name] = (ep, dist, version)
    plugins: list[PluginInfo] = []
    for name in sorted(found):
        ep, dist, version = found[name]
        try:
            module = ep.load()
        except Exception as exc:
            raise PluginLoadError(
                f"plugin {name!r} from distribution {dist!r} failed to load "
                f"({ep.value}): {type(exc).__name__}: {exc}",
                plugin=name,
                distribution=dist,
            ) from exc
        plugins.append(PluginInfo(name, module, dist, version))
    if allowed is not None:
        missing = sorted(allowed - installed)
        if missing:
            raise PluginLoadError(
                f"allowed plugins not installed: {', '.join(missing)} "
                f"(installed: {', '.join(sorted(installed)) or 'none'})"
            )
    return plugins


def entry_points(group: str) -> tuple[importlib.metadata.EntryPoint, ...]:
    """The installed entry points of ``group``; ``importlib.metadata`` (slow
    to import) is imported on the first call, not with redzone."""
    import importlib.metadata

    return tuple(importlib.metadata.entry_points(group=group))


@functools.cache
def _packages_distributions() -> Mapping[str, list[str]]:
    """Top-level import names -> distributions (scanning every installed
    distribution is slow: done once per process, not once per plugin)."""
    import importlib.metadata

    try:
        return importlib.metadata.packages_distributions()
    except Exception:  # pragma: no cover - metadata quirks
        return {}


def _distribution_of(obj: object) -> tuple[str, str]:
    module = obj.__name__ if isinstance(obj, types.ModuleType) else type(obj).__module__
    top = module.split(".")[0]
    dists = _packages_distributions().get(top, [])
    if not dists:
        return "", ""
    import importlib.metadata

    try:
        return dists[0], importlib.metadata.version(dists[0])
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover
        return dists[0], ""


#: Hooks whose implementations may raise :class:`IllegalActionError` to reject
#: choices an embedding engine supplied (a trigger's ``choices``); the error
#: reaches the caller unchanged instead of becoming a :class:`PluginError`.
_MAY_REJECT: Final = frozenset({"redzone_resolve_trigger"})

#: Answer types that are never lazy iterators (no ABC check needed).
_PLAIN: Final = frozenset({list, tuple, bool, int, set, frozenset, dict})
_SEQUENCES: Final = frozenset({list, tuple})


#: The module constant by which a plugin says that every one of its hooks
#: answers nothing (``None``, ``False`` or empty) unless some object of the
#: state (in any zone, or as last known information) has one of the keywords
#: the plugin declares; the core then doesn't ask it about other states.
GATE_FLAG: Final = "REDZONE_NEEDS_KEYWORD"
#: Hooks never skipped that way: loading, and resolving a trigger (an ability
#: on the stack resolves whatever its source has become, 113.7a).
_UNGATED: Final = frozenset({"redzone_keywords", "redzone_resolve_trigger", "redzone_actions",
                             "redzone_condition_holds"})


class _Impl:
    __slots__ = ("fn", "gate", "picks", "plugin")

    def __init__(self, fn: Callable[..., Any], picks: tuple[int, ...] | None,
                 plugin: PluginInfo) -> None:
        self.fn = fn
        self.picks = picks
        self.plugin = plugin
        self.gate: frozenset[str] | None = None


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


class Hooks:
    """The typed facade over every hook.

    Each method asks every plugin that implements the hook, in order of plugin
    name, and combines the answers as the hook's documentation says. A plugin
    that raises or answers with the wrong type becomes a :class:`PluginError`
    naming the plugin, its distribution, the hook and the step.
    """

    def __init__(self, pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo],
                 timeout: float | None = None) -> None:
        self._pm = pm
        self._infos = dict(infos)
        self.timeout = timeout
        self._cache: dict[str, tuple[_Impl, ...]] = {}
        self._gated_hooks: frozenset[str] = frozenset()
        self._gated: dict[tuple[str, frozenset[str]], tuple[_Impl, ...]] = {}
        self._spec_args: dict[str, tuple[str, ...]] = {}
        for name in dir(hookspecs):
            if name.startswith("redzone_"):
                caller = getattr(pm.hook, name)
                spec = caller.spec
                assert spec is not None
                self._spec_args[name] = tuple(spec.argnames)
        # Ask once per engine which plugins implement which hook (the plugin
        # set never changes after construction).
        for name in self._spec_args:
            self.impls(name)
        self.keyword_infos = self._load_keywords()
        self.action_specs = self._load_actions()
        declared: dict[str, set[str]] = {}
        for name, kinfo in self.keyword_infos.items():
            declared.setdefault(kinfo.plugin, set()).add(name)
        for hook, impls in self._cache.items():
            if hook in _UNGATED:
                continue
            for impl in impls:
                if getattr(impl.plugin.module, GATE_FLAG, False) is True:
                    impl.gate = frozenset(declared.get(impl.plugin.name, ()))
        self._keyword_cache: dict[str, Keyword] = {}
        #: Hooks with a gated implementation, and per hook and set of keywords
        #: present, the implementations the gate lets through.
        self._gated_hooks = frozenset(h for h, impls in self._cache.items()
                                      if any(i.gate is not None for i in impls))

    # -- plumbing -------------------------------------------------------------

    def impls(self, hook: str) -> tuple[_Impl, ...]:
        """The implementations of ``hook``, sorted by plugin name."""
        cached = self._cache.get(hook)
        if cached is not None:
            return cached
        spec_args = self._spec_args[hook]
        found: list[_Impl] = []
        for impl in getattr(self._pm.hook, hook).get_hookimpls():
            info = self._infos.get(impl.plugin_name) or PluginInfo(impl.plugin_name, impl.plugin)
            args = tuple(impl.argnames)
            picks = None if args == spec_args else tuple(spec_args.index(a) for a in args)
            found.append(_Impl(impl.function, picks, info))
        found.sort(key=lambda i: i.plugin.name)
        result = tuple(found)
        self._cache[hook] = result
        return result

    def implemented(self, hook: str) -> bool:
        """Whether any plugin implements ``hook``."""
        return bool(self.impls(hook))

    def asks(self, hook: str, state: GameState) -> bool:
        """Whether some implementation of ``hook`` would be asked about
        ``state`` (one is implemented and the keyword gate lets it through)."""
        impls = self._cache[hook]
        if impls and hook in self._gated_hooks:
            impls = self._active(hook, impls, state)
        return bool(impls)

    def _fail(self, impl: _Impl, hook: str, state: GameState | None, exc: BaseException | None,
              problem: str) -> PluginError:
        info = impl.plugin
        dist = f"{info.distribution} {info.version}".strip() or "unknown distribution"
        step = state.step if state is not None else "loading"
        rules = ""
        doc = getattr(hookspecs, hook).__doc__ or ""
        m = re.search(r"Rules:\s*(.+)", doc)
        if m:
            rules = f" (rules {m.group(1).strip()})"
        return PluginError(
            f"plugin {info.name!r} ({dist}) {problem} in hook {hook}{rules} during step "
            f"{step!r}",
            plugin=info.name,
            distribution=info.distribution,
            hook=hook,
        )

    def _active(self, hook: str, impls: tuple[_Impl, ...], state: Any) -> tuple[_Impl, ...]:
        """The implementations of ``hook`` worth asking about ``state``: the
        keyword gate applied once per hook and set of keywords present (a
        state's set is shared by the states built from it)."""
        present = state.keyword_names_present
        key = (hook, present)
        active = self._gated.get(key)
        if active is None:
            active = tuple(i for i in impls if i.gate is None or not i.gate.isdisjoint(present))
            if len(self._gated) > 4096:
                self._gated.clear()
            self._gated[key] = active
        return active

    def _answers(self, hook: str, args: tuple[Any, ...]) -> list[tuple[_Impl, Any]]:
        impls = self._cache[hook]
        out: list[tuple[_Impl, Any]] = []
        if not impls:
            return out
        if hook in self._gated_hooks:
            impls = self._active(hook, impls, args[0])
        for impl in impls:
            picks = impl.picks
            started = time.perf_counter() if self.timeout is not None else 0.0
            try:
                res = impl.fn(*args) if picks is None else impl.fn(*[args[i] for i in picks])
                if res is not None and type(res) not in _PLAIN and isinstance(res, Iterator):
                    # A generator runs (and may raise) only as it is consumed.
                    res = tuple(res)
            except PluginError:
                raise
            except Exception as exc:
                if isinstance(exc, IllegalActionError) and hook in _MAY_REJECT:
                    raise  # the embedding engine's choices were illegal: nothing changes
                state = args[0] if args and isinstance(args[0], GameState) else None
                raise self._fail(
                    impl, hook, state, exc, f"raised {type(exc).__name__}: {exc}"
                ) from exc
            if self.timeout is not None:
                self._check_time(impl, hook, args, started)
            if res is not None:
                out.append((impl, res))
        return out

    def _check_time(self, impl: _Impl, hook: str, args: tuple[Any, ...], started: float) -> None:
        elapsed = time.perf_counter() - started
        if self.timeout is not None and elapsed > self.timeout:
            state = args[0] if args and isinstance(args[0], GameState) else None
            raise self._fail(impl, hook, state, None,
                             f"took {elapsed:.3f} s, over the engine's limit of "
                             f"{self.timeout:g} s for one hook call,")

    def _any(self, hook: str, *args: Any) -> bool:
        if not self._cache[hook]:
            return False
        for impl, res in self._answers(hook, args):
            if res is True:
                return True
            if res is not False:
                raise self._fail(impl, hook, args[0], None,
                                 f"returned {res!r} where a bool or None was expected")
        return False

    def _collect(self, hook: str, kind: type[T], *args: Any) -> list[T]:
        items: list[T] = []
        if not self._cache[hook]:
            return items
        for impl, res in self._answers(hook, args):
            if type(res) in _SEQUENCES:
                if not res:
                    continue
                if all(type(item) is kind for item in res):
                    items.extend(res)
                    continue
            items.extend(self._items(impl, hook, args[0] if args else None, res, kind))
        return items

    def _items(self, impl: _Impl, hook: str, state: GameState | None, res: Any,
               kind: type[T]) -> list[T]:
        if isinstance(res, (str, bytes)) or not isinstance(res, Iterable):
            raise self._fail(impl, hook, state, None,
                             f"returned {res!r} where an iterable of "
                             f"{kind.__name__} was expected")
        items: list[T] = []
        for item in res:
            if not isinstance(item, kind):
                raise self._fail(impl, hook, state, None,
                                 f"returned {item!r} where a {kind.__name__} was expected")
            items.append(item)
        return items

    # -- keywords -------------------------------------------------------------

    def _load_keywords(self) -> dict[str, KeywordInfo]:
        infos: dict[str, KeywordInfo] = {}
        for impl, res in self._answers("redzone_keywords", ()):
            if isinstance(res, (str, bytes)) or not isinstance(res, Iterable):
                raise self._fail(impl, "redzone_keywords", None, None,
                                 f"returned {res!r} where an iterable of KeywordSpec "
                                 "was expected")
            for spec in res:
                if not isinstance(spec, KeywordSpec):
                    raise self._fail(impl, "redzone_keywords", None, None,
                                     f"returned {spec!r} where a KeywordSpec was expected")
                prior = infos.get(spec.name)
                if prior is not None:
                    raise PluginLoadError(
                        f"keyword {spec.name!r} is declared by two plugins: "
                        f"{prior.plugin!r} and {impl.plugin.name!r}",
                        plugin=impl.plugin.name,
                        distribution=impl.plugin.distribution,
                        hook="redzone_keywords",
                    )
                infos[spec.name] = KeywordInfo(
                    spec, impl.plugin.name, impl.plugin.distribution, impl.plugin.version
                )
        return dict(sorted(infos.items()))

    def parse_keyword(self, text: str | Keyword) -> Keyword:
        """The :class:`Keyword` for a printed keyword.

        :raises UnknownKeywordError: when no loaded plugin's pattern matches,
            with the close matches.
        """
        if isinstance(text, Keyword):
            if text.name in self.keyword_infos:
                return text
            text = text.text
        cached = self._keyword_cache.get(text)
        if cached is not None:
            return cached
        norm = _normalise(text)
        matches = []
        for info in self.keyword_infos.values():
            m = info.spec.regex.fullmatch(norm)
            if m:
                args = tuple(g for g in m.groups() if g is not None)
                matches.append(Keyword(info.spec.name, norm, args))
        if not matches:
            names = list(self.keyword_infos) + [
                e for i in self.keyword_infos.values() for e in i.spec.examples
            ]
            close = difflib.get_close_matches(norm, names, n=3, cutoff=0.6)
            raise UnknownKeywordError(text, close)
        if len(matches) > 1:
            raise UnknownKeywordError(
                f"{text} (ambiguous: {', '.join(m.name for m in matches)})"
            )
        self._keyword_cache[text] = matches[0]
        return matches[0]

    # -- 508 ----------------------------------------------------------------------

    def attack_violations(self, state: GameState, attacker: str, attacked: str) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_attack_violations`, concatenated."""
        return self._collect("redzone_attack_violations", Violation, state, attacker, attacked)

    def attack_exemption(self, state: GameState, attacker: str, attacked: str,
                         violation: Violation) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_attack_exemption`: any ``True``."""
        return self._any("redzone_attack_exemption", state, attacker, attacked, violation)

    def attack_declaration_violations(self, state: GameState,
                                      attacks: Mapping[str, str]) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_attack_declaration_violations`."""
        return self._collect("redzone_attack_declaration_violations", Violation, state, attacks)

    def attack_requirements(self, state: GameState) -> list[Requirement]:
        """:func:`~redzone.kernel.hookspecs.redzone_attack_requirements`, deduplicated."""
        return sorted(set(self._collect("redzone_attack_requirements", Requirement, state)),
                      key=_requirement_key)

    def block_requirements(self, state: GameState) -> list[Requirement]:
        """:func:`~redzone.kernel.hookspecs.redzone_block_requirements`, deduplicated."""
        return sorted(set(self._collect("redzone_block_requirements", Requirement, state)),
                      key=_requirement_key)

    def can_band(self, state: GameState, band: tuple[str, ...]) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_can_band`: any ``True``."""
        return self._any("redzone_can_band", state, band)

    def attacks_without_tapping(self, state: GameState, attacker: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_attacks_without_tapping`: any ``True``."""
        return self._any("redzone_attacks_without_tapping", state, attacker)

    # -- 509 ----------------------------------------------------------------------

    def block_violations(self, state: GameState, blocker: str, attacker: str) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_block_violations`, concatenated."""
        return self._collect("redzone_block_violations", Violation, state, blocker, attacker)

    def block_exemption(self, state: GameState, blocker: str, attacker: str,
                        violation: Violation) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_block_exemption`: any ``True``."""
        return self._any("redzone_block_exemption", state, blocker, attacker, violation)

    def blocked_by_violations(self, state: GameState, attacker: str,
                              blockers: tuple[str, ...]) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_blocked_by_violations`, concatenated."""
        return self._collect("redzone_blocked_by_violations", Violation, state, attacker,
                             blockers)

    def block_declaration_violations(self, state: GameState,
                                     blocks: Mapping[str, tuple[str, ...]]) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_block_declaration_violations`."""
        return self._collect("redzone_block_declaration_violations", Violation, state, blocks)

    def additional_blocks(self, state: GameState, blocker: str) -> int:
        """:func:`~redzone.kernel.hookspecs.redzone_additional_blocks`: summed."""
        total = 0
        for impl, res in self._answers("redzone_additional_blocks", (state, blocker)):
            if not isinstance(res, int) or isinstance(res, bool) or res < 0:
                raise self._fail(impl, "redzone_additional_blocks", state, None,
                                 f"returned {res!r} where a non-negative int was expected")
            total += res
        return total

    # -- 510 ----------------------------------------------------------------------

    def deals_damage_early(self, state: GameState, creature: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_deals_damage_early`: any ``True``."""
        return self._any("redzone_deals_damage_early", state, creature)

    def deals_damage_again(self, state: GameState, creature: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_deals_damage_again`: any ``True``."""
        return self._any("redzone_deals_damage_again", state, creature)

    def assigns_past_blockers(self, state: GameState, attacker: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_assigns_past_blockers`: any ``True``."""
        return self._any("redzone_assigns_past_blockers", state, attacker)

    def additional_recipients(self, state: GameState, attacker: str) -> tuple[str, ...]:
        """:func:`~redzone.kernel.hookspecs.redzone_additional_recipients`: the union,
        sorted (the caller drops ids that can't be dealt damage)."""
        hook = "redzone_additional_recipients"
        found: set[str] = set()
        for impl, res in self._answers(hook, (state, attacker)):
            for item in self._items(impl, hook, state, res, str):
                found.add(item)
        return tuple(sorted(found))

    def damage_divider(self, state: GameState, creature: str) -> str | None:
        """:func:`~redzone.kernel.hookspecs.redzone_damage_divider`: the one answer."""
        found: dict[str, _Impl] = {}
        for impl, res in self._answers("redzone_damage_divider", (state, creature)):
            if not isinstance(res, str) or res not in state.players:
                raise self._fail(impl, "redzone_damage_divider", state, None,
                                 f"returned {res!r} where a player id or None was expected")
            found.setdefault(res, impl)
        if len(found) > 1:
            names = ", ".join(f"{i.plugin.name!r} says {p!r}" for p, i in sorted(found.items()))
            raise PluginError(f"plugins disagree on who divides {creature!r}'s combat damage: "
                              f"{names}", hook="redzone_damage_divider")
        return next(iter(found), None)

    def lethal_damage(self, state: GameState, source: str, creature: str, base: int) -> int:
        """:func:`~redzone.kernel.hookspecs.redzone_lethal_damage`: the smallest of
        ``base`` and every answer, never below 0."""
        value = base
        for impl, res in self._answers("redzone_lethal_damage", (state, source, creature)):
            if not isinstance(res, int) or isinstance(res, bool):
                raise self._fail(impl, "redzone_lethal_damage", state, None,
                                 f"returned {res!r} where an int or None was expected")
            value = min(value, res)
        return max(value, 0)

    def assignment_violations(self, state: GameState,
                              assignment: SourceAssignment) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_assignment_violations`, concatenated."""
        return self._collect("redzone_assignment_violations", Violation, state, assignment)

    # -- 120 ----------------------------------------------------------------------

    def prevent_damage(self, state: GameState, damage: Damage) -> list[Prevention]:
        """:func:`~redzone.kernel.hookspecs.redzone_prevent_damage`, concatenated; a
        negative amount (which would add damage) is the plugin's error."""
        hook = "redzone_prevent_damage"
        found: list[Prevention] = []
        for impl, res in self._answers(hook, (state, damage)):
            for item in self._items(impl, hook, state, res, Prevention):
                if item.amount is not None and (
                        not isinstance(item.amount, int) or item.amount < 0):
                    raise self._fail(impl, hook, state, None,
                                     f"returned {item!r}: a prevention amount must be a "
                                     "whole number, 0 or more, or None for all")
                found.append(item)
        return found

    def modify_damage(self, state: GameState, damage: Damage) -> list[DamageModifier]:
        """:func:`~redzone.kernel.hookspecs.redzone_modify_damage`, sorted by effect name."""
        mods = self._collect("redzone_modify_damage", DamageModifier, state, damage)
        if len(mods) < 2:
            return mods
        return sorted(set(mods), key=lambda m: (m.effect, m.rule, m.multiply, m.add))

    def damage_results(self, state: GameState, damage: Damage) -> list[Result]:
        """:func:`~redzone.kernel.hookspecs.redzone_damage_results`, concatenated."""
        return self._collect("redzone_damage_results", Result, state, damage)

    def result_replacements(self, state: GameState, result: Result) -> list[ResultReplacement]:
        """:func:`~redzone.kernel.hookspecs.redzone_result_replacements`, sorted by name."""
        unique: dict[tuple[str, str], ResultReplacement] = {}
        if not self._cache["redzone_result_replacements"]:
            return []
        for impl, res in self._answers("redzone_result_replacements", (state, result)):
            for item in self._items(impl, "redzone_result_replacements", state, res,
                                    ResultReplacement):
                unique[(item.effect, item.rule)] = _evolve(
                    item, replace=self._guard_replace(impl, item))
        if not unique:
            return []
        return [unique[k] for k in sorted(unique)]

    def _guard_replace(self, impl: _Impl, item: ResultReplacement
                       ) -> Callable[[GameState, Result], Result | None]:
        """``item.replace``, failing as a :class:`PluginError` that names the
        plugin when it raises or returns something other than a result."""
        hook = "redzone_result_replacements"
        replace = item.replace

        def guarded(state: GameState, result: Result) -> Result | None:
            try:
                out = replace(state, result)
            except PluginError:
                raise
            except Exception as exc:
                raise self._fail(impl, hook, state, exc,
                                 f"replacement {item.effect!r} raised "
                                 f"{type(exc).__name__}: {exc}") from exc
            if out is not None and not isinstance(out, Result):
                raise self._fail(impl, hook, state, None,
                                 f"replacement {item.effect!r} returned {out!r} where a "
                                 "Result or None was expected")
            return out

        return guarded

    def damage_event(self, state: GameState, damage: tuple[Damage, ...],
                     results: tuple[Result, ...]) -> None:
        """:func:`~redzone.kernel.hookspecs.redzone_damage_event`: notify every plugin."""
        self._answers("redzone_damage_event", (state, damage, results))

    # -- 704 ----------------------------------------------------------------------

    def state_based_actions(self, state: GameState) -> list[StateBasedAction]:
        """:func:`~redzone.kernel.hookspecs.redzone_state_based_actions`, concatenated."""
        return self._collect("redzone_state_based_actions", StateBasedAction, state)

    def cannot_be_destroyed(self, state: GameState, permanent: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_cannot_be_destroyed`: any ``True``."""
        return self._any("redzone_cannot_be_destroyed", state, permanent)

    # -- 603 ----------------------------------------------------------------------

    def triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        """:func:`~redzone.kernel.hookspecs.redzone_triggers`, concatenated."""
        return self._collect("redzone_triggers", Trigger, state, events)

    def resolve_trigger(self, state: GameState, trigger: Trigger) -> list[tuple[str, Action]]:
        """:func:`~redzone.kernel.hookspecs.redzone_resolve_trigger`,
        concatenated: ``(plugin name, action)`` pairs, so that each action
        writes only its own plugin's state."""
        out: list[tuple[str, Action]] = []
        for impl, res in self._answers("redzone_resolve_trigger", (state, trigger)):
            if isinstance(res, (str, bytes)) or not isinstance(res, Iterable):
                raise self._fail(impl, "redzone_resolve_trigger", state, None,
                                 f"returned {res!r} where an iterable of actions was expected")
            for item in res:
                if not isinstance(item, Action) or type(item).do not in self.action_specs:
                    raise self._fail(impl, "redzone_resolve_trigger", state, None,
                                     f"returned {item!r} where an action of a declared kind "
                                     "was expected")
                out.append((impl.plugin.name, item))
        return out

    # -- 511 ----------------------------------------------------------------------

    def end_of_combat(self, state: GameState) -> None:
        """:func:`~redzone.kernel.hookspecs.redzone_end_of_combat`: notify every plugin."""
        self._answers("redzone_end_of_combat", (state,))

    # -- actions, durations, destruction, a plugin's own state ----------------

    def _load_actions(self) -> dict[str, tuple[ActionSpec, str]]:
        hook = "redzone_actions"
        found: dict[str, tuple[ActionSpec, str]] = {}
        for impl, res in self._answers(hook, ()):
            for spec in self._items(impl, hook, None, res, ActionSpec):
                cls = spec.cls
                do = getattr(cls, "do", "") if isinstance(cls, type) else ""
                if not isinstance(cls, type) or not issubclass(cls, Action) or not do \
                        or not isinstance(do, str):
                    raise PluginLoadError(
                        f"plugin {impl.plugin.name!r} declares the action {cls!r}, which is not "
                        "an Action subclass with a 'do' name", plugin=impl.plugin.name,
                        distribution=impl.plugin.distribution)
                if not callable(spec.apply):
                    raise PluginLoadError(
                        f"plugin {impl.plugin.name!r} declares the action {do!r} without a "
                        "callable 'apply'", plugin=impl.plugin.name,
                        distribution=impl.plugin.distribution)
                if do in found:
                    raise PluginLoadError(
                        f"the action {do!r} is declared by two plugins: {found[do][1]!r} and "
                        f"{impl.plugin.name!r}; block one of them", plugin=impl.plugin.name,
                        distribution=impl.plugin.distribution)
                found[do] = (spec, impl.plugin.name)
        return found

    def action_spec(self, action: object) -> tuple[ActionSpec, str] | None:
        """The declaration of ``action``'s kind and the plugin that declares
        it, or ``None`` when no loaded plugin declares that kind."""
        do = getattr(type(action), "do", None)
        found = self.action_specs.get(do) if isinstance(do, str) else None
        if found is None or not isinstance(action, found[0].cls):
            return None
        return found

    def condition_holds(self, state: GameState, condition: Condition) -> bool | None:
        """:func:`~redzone.kernel.hookspecs.redzone_condition_holds`: ``True``
        if some plugin says so and none says ``False``; ``None`` when no plugin
        answers."""
        answers = [res for impl, res in self._answers(
            "redzone_condition_holds", (state, condition)) if self._bool(impl, state, res)]
        if not answers:
            return None
        return all(answers)

    def _bool(self, impl: _Impl, state: GameState, res: object) -> bool:
        if not isinstance(res, bool):
            raise self._fail(impl, "redzone_condition_holds", state, None,
                             f"returned {res!r} where a bool or None was expected")
        return True

    def destruction_replacements(self, state: GameState,
                                 permanent: str) -> list[DestructionReplacement]:
        """:func:`~redzone.kernel.hookspecs.redzone_destruction_replacements`,
        sorted by effect name."""
        found = self._collect("redzone_destruction_replacements", DestructionReplacement,
                              state, permanent)
        for item in found:
            if not all(isinstance(a, Action) and type(a).do in self.action_specs
                       for a in item.actions):
                raise PluginError(f"destruction replacement {item.effect!r} holds something "
                                  f"that is not an action of a declared kind: {item.actions!r}",
                                  hook="redzone_destruction_replacements")
        return sorted(found, key=lambda r: (r.effect, r.rule))

    def record(self, state: GameState, events: tuple[Event, ...]) -> dict[str, PluginState]:
        """:func:`~redzone.kernel.hookspecs.redzone_record`: each plugin's new
        slot, by plugin name."""
        hook = "redzone_record"
        out: dict[str, PluginState] = {}
        if not self._cache[hook]:
            return out
        for impl, res in self._answers(hook, (state, events)):
            if not isinstance(res, PluginState) or res.scope not in SCOPES:
                raise self._fail(impl, hook, state, None,
                                 f"returned {res!r} where a PluginState (scope one of "
                                 f"{', '.join(SCOPES)}) or None was expected")
            out[impl.plugin.name] = res
        return out


    def attack_choices(self, state: GameState,
                       attacks: Mapping[str, str]) -> list[tuple[str, Choice]]:
        """:func:`~redzone.kernel.hookspecs.redzone_attack_choices`: ``(plugin,
        choice)`` pairs in plugin-name order."""
        return self._choices("redzone_attack_choices", state, attacks)

    def block_choices(self, state: GameState,
                      blocks: Mapping[str, tuple[str, ...]]) -> list[tuple[str, Choice]]:
        """:func:`~redzone.kernel.hookspecs.redzone_block_choices`."""
        return self._choices("redzone_block_choices", state, blocks)

    def _choices(self, hook: str, state: GameState, decl: object) -> list[tuple[str, Choice]]:
        out: list[tuple[str, Choice]] = []
        if not self._cache[hook]:
            return out
        for impl, res in self._answers(hook, (state, decl)):
            for item in self._items(impl, hook, state, res, Choice):
                out.append((impl.plugin.name, item))
        return out

def _requirement_key(r: Requirement) -> tuple[str, str, str, str, str]:
    return (r.creature, r.kind, r.attacker or "", r.rule, r.source)


def make_manager(
    plugins: Sequence[object | PluginInfo],
) -> tuple[pluggy.PluginManager, dict[str, PluginInfo]]:
    """A plugin manager with the hookspecs and ``plugins`` registered.

    :param plugins: modules or objects with hookimpls, or :class:`PluginInfo`.
    :raises PluginLoadError: when a plugin's hookimpls don't match the specs.
    """
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    infos: dict[str, PluginInfo] = {}
    for item in plugins:
        if isinstance(item, PluginInfo):
            info = item
        else:
            name = item.__name__ if isinstance(item, types.ModuleType) else (
                getattr(item, "__name__", None) or f"{type(item).__module__}.{type(item).__name__}"
            )
            dist, version = _distribution_of(item)
            info = PluginInfo(str(name), item, dist, version)
        if info.name in infos:
            if infos[info.name].module is info.module:
                continue
            raise PluginLoadError(f"two plugins are named {info.name!r}", plugin=info.name)
        try:
            pm.register(info.module, name=info.name)
        except Exception as exc:
            raise PluginLoadError(
                f"plugin {info.name!r} ({info.distribution or 'unknown distribution'}) "
                f"could not be registered: {exc}",
                plugin=info.name,
                distribution=info.distribution,
            ) from exc
        infos[info.name] = info
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginLoadError(f"a plugin implements a hook that does not exist: {exc}") from exc
    return pm, infos


def suggest(word: str, options: Iterable[str]) -> list[str]:
    """Close matches for ``word`` among ``options``."""
    return difflib.get_close_matches(word, list(options), n=3, cutoff=0.6)
