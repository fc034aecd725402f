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
import inspect
import os
import re
import threading
import time
import types
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

import pluggy
from attrs import frozen

from redzone.kernel import answers as _answers_check
from redzone.kernel import entrypoints as _entrypoints
from redzone.kernel import fingerprint as _fp
from redzone.kernel import hookspecs
from redzone.kernel import validate as _validate
from redzone.kernel.errors import (
    BoundError,
    IllegalActionError,
    PluginError,
    PluginLoadError,
    UnknownKeywordError,
    Violation,
)
from redzone.kernel.events import Event
from redzone.kernel.frozen import evolve as _evolve
from redzone.kernel.hooktypes import (
    MAX_KEYWORD_NUMBER,
    MAX_KEYWORD_TEXT,
    REGULAR_DAMAGE_STEP,
    Action,
    ActionSpec,
    Damage,
    DamageModifier,
    DamageStep,
    DestructionReplacement,
    KeywordSpec,
    Prevention,
    Redirection,
    Result,
    ResultReplacement,
    SourceAssignment,
    StateBasedAction,
    compile_form,
)
from redzone.kernel.model import (
    CHOICE_KINDS,
    FLAG_FIELDS,
    SCOPES,
    Choice,
    Condition,
    GameState,
    Keyword,
    PluginState,
    Trigger,
)
from redzone.kernel.requirements import Requirement

GROUP: Final = "redzone"
#: The distribution that ships the built-in keywords.
BUILTIN_DISTRIBUTION: Final = "redzone"

hookimpl = pluggy.HookimplMarker("redzone")

T = TypeVar("T")
_E = TypeVar("_E", bound=PluginError)


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
    found: dict[str, tuple[_entrypoints.EntryPoint, str, str]] = {}
    installed: set[str] = set()
    # A distribution's name and version are read from its metadata file each
    # time they are asked for: ask once per distribution, not once per entry
    # point (the built-in distribution has dozens).
    dists: dict[int, tuple[object, str, str]] = {}
    for ep in entry_points(GROUP):
        installed.add(ep.name)
        if ep.name in blocked or (allowed is not None and ep.name not in allowed):
            continue  # a name that is not loaded can't conflict
        dist, version = _dist_name_version(ep.dist, dists)
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
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit at import is the plugin's fault too
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


def entry_points(group: str) -> tuple[_entrypoints.EntryPoint, ...]:
    """The installed entry points of ``group``, read from the distributions'
    metadata folders on ``sys.path`` (:func:`redzone.kernel.entrypoints.entry_points`:
    the answers of ``importlib.metadata``, without importing it).

    :raises PluginLoadError: when a distribution's metadata is malformed.
    """
    try:
        return _entrypoints.entry_points(group)
    except _entrypoints.MetadataError as exc:
        raise PluginLoadError(f"can't read the installed plugins: {exc}") from exc


def _dist_name_version(dist: _entrypoints.Distribution | None,
                       seen: dict[int, tuple[object, str, str]]) -> tuple[str, str]:
    """``dist``'s name and version ("" and "" for none), read once per
    distribution object of one discovery (``seen``, by identity; it holds the
    object so that its identity stays its own)."""
    if dist is None:
        return "", ""
    known = seen.get(id(dist))
    if known is None:
        known = seen[id(dist)] = (dist, dist.name, dist.version)
    return known[1], known[2]


@functools.cache
def _packages_distributions() -> Mapping[str, list[str]]:
    """Top-level import names -> distributions (scanning every installed
    distribution is slow: done once per process, not once per plugin)."""
    import importlib.metadata

    try:
        return importlib.metadata.packages_distributions()
    except Exception:  # pragma: no cover - metadata quirks
        return {}


def plugin_name(obj: object) -> str:
    """The name a plugin given as an object (not found by discovery) is
    registered and named by: a module's name; a class's or function's own
    name; the ``__name__`` an object sets (a namespace); else, for an
    instance, its class's name. Read statically: no attribute code of the
    plugin runs (a ``__getattr__`` that raises, a property)."""
    if isinstance(obj, (types.ModuleType, type, types.FunctionType)):
        name = type(obj).__dict__["__name__"].__get__(obj) if isinstance(obj, type) \
            else obj.__name__
        if type(name) is str and name:
            return name
    try:
        own = inspect.getattr_static(obj, "__name__")
    except AttributeError:
        own = None
    if type(own) is str and own:
        return own
    return type(obj).__name__


def _distribution_of(obj: object) -> tuple[str, str]:
    module = obj.__name__ if isinstance(obj, types.ModuleType) else (
        inspect.getattr_static(obj, "__module__", "") if isinstance(obj, type)
        else type(obj).__module__)
    if type(module) is not str:
        return "", ""
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

#: Hooks after whose calls verify mode checks the state at once: the
#: notifications, and the question about triggers that ends a command's work.
_VERIFY_NOW: Final = frozenset({"redzone_triggers", "redzone_damage_event",
                                "redzone_end_of_combat"})

#: Answer types that are never lazy iterators (no ABC check needed).
_PLAIN: Final = frozenset({list, tuple, bool, int, set, frozenset, dict})
_SEQUENCES: Final = frozenset({list, tuple})


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


#: The unknown-keyword policies an engine (and a scenario) may choose.
UNKNOWN_KEYWORD_POLICIES: Final = ("error", "inert")

#: Keywords with no effect on combat, accepted by name as inert (no plugin
#: acts on them) whatever the policy, so that real card text doesn't reject a
#: board. A plugin that declares one of them takes it over.
INERT_KEYWORDS: Final = (
    "flash", "hexproof", "hexproof from {quality}", "shroud", "ward {number}",
    "ward {quality}", "prowess", "cascade", "convoke", "delve", "storm", "split second",
    "flashback {quality}", "cycling {quality}", "kicker {quality}", "equip {quality}",
    "crew {number}", "enchant {quality}", "affinity for {quality}",
)
_INERT_FORMS: Final = tuple(
    # the family name: the text before the first parameter ("hexproof from
    # {quality}" is a hexproof)
    (form.split(" {")[0].removesuffix(" from").removesuffix(" for"), compile_form(form))
    for form in INERT_KEYWORDS)
_INERT_NAMES: Final = frozenset(family for family, _regex in _INERT_FORMS)


def verify_default() -> bool:
    """Whether verify mode is on when an engine doesn't say: the
    ``REDZONE_VERIFY`` environment variable is ``"1"`` (the test suite and CI
    set it)."""
    return os.environ.get("REDZONE_VERIFY", "") == "1"


def _inert(norm: str) -> Keyword | None:
    for family, regex in _INERT_FORMS:
        m = regex.fullmatch(norm)
        if m:
            return Keyword(family, norm, tuple(g for g in m.groups() if g is not None))
    return None


def _check_numbers(text: str, form: str, args: tuple[str, ...],
                   most: int = MAX_KEYWORD_NUMBER) -> None:
    """Refuse a keyword whose ``{number}`` is over the bound its form
    declares (:attr:`~redzone.KeywordSpec.most`)."""
    slots = re.findall(r"\{([a-z]+)\}", form)
    for slot, arg in zip(slots, args, strict=False):
        if slot == "number" and int(arg) > most:
            if most < MAX_KEYWORD_NUMBER:
                reason = (f"its number {arg} is over the bound of {most:,} that {form!r} "
                          "declares (rule 107.1: numbers are whole numbers; a keyword's "
                          "number is bounded by what the keyword can sensibly do)")
            else:
                reason = (f"its number {arg} is over the limit of {MAX_KEYWORD_NUMBER:,} "
                          "(rule 107.1: numbers are whole numbers; redzone bounds them)")
            raise UnknownKeywordError(text, reason=reason)


_FILLERS: Final = {"number": "1", "colour": "red", "word": "x", "words": "x", "quality": "x"}


def _fill(form: str, value: str | None) -> str:
    return re.sub(r"\{([a-z]+)\}",
                  lambda m: value if value is not None else _FILLERS[m.group(1)], form)


#: A parameter slot of a keyword form.
_SLOT_TEXT: Final = re.compile(r"\{[a-z]+\}")


@functools.cache
def _overlap(specs: tuple[tuple[str, str, tuple[str, ...]], ...]
             ) -> tuple[str, str, str] | None:
    """Two keyword forms that both match one text, and that text, or ``None``.

    Each form is tried on the other's examples, on its own form with every
    parameter filled with a plain value, and with each parameter filled with
    the other's literal text and examples (which finds ``{words}walk``
    against ``protection from {quality}``).

    What a form contributes to the tries is worked out once per form, and
    each form's answer for a text once per text: the same tries, in the same
    order, as trying every pair afresh."""
    compiled: list[tuple[str, Callable[[str], re.Match[str] | None], list[str], list[str],
                         list[str], str, dict[str, bool]]] = []
    for name, form, examples in specs:
        parts = _SLOT_TEXT.split(form)
        normal = [_normalise(e) for e in examples]
        own = {p.strip() for p in parts if p.strip()} | set(normal)
        compiled.append((name, compile_form(form).fullmatch, parts, normal, sorted(own),
                         _fill(form, None), {}))
    for i, (name_a, match_a, parts_a, ex_a, back, plain_a, seen_a) in enumerate(compiled):
        for name_b, match_b, parts_b, ex_b, pieces, plain_b, seen_b in compiled[i + 1:]:
            tries = [*ex_a, *ex_b, plain_a, plain_b]
            tries += [piece.join(parts_a) for piece in pieces]
            tries += [piece.join(parts_b) for piece in back]
            for text in tries:
                hit_a = seen_a.get(text)
                if hit_a is None:
                    hit_a = seen_a[text] = match_a(text) is not None
                if not hit_a:
                    continue
                hit_b = seen_b.get(text)
                if hit_b is None:
                    hit_b = seen_b[text] = match_b(text) is not None
                if hit_b:
                    return name_a, name_b, text
    return None


class _VerifyState(threading.local):
    """Verify mode's watch, per thread: the state hook calls are being made
    with and its containers as they were; the parts fingerprinted; and the
    calls made since the parts were last compared."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.shallow: _fp.Shallow | None = None
        self.parts = _fp.Parts()
        #: Parts in the table when it was last compared and pruned.
        self.kept = 0
        #: States watched since then.
        self.moves = 0
        self.log: list[tuple[_Impl, str, Callable[..., Any], tuple[Any, ...]]] = []
        #: Where the calls with the watched state start in :attr:`log`
        #: (since its containers were last compared).
        self.since = 0

    def reset(self) -> None:
        """Stop watching and forget every part (a change was reported)."""
        self.state = None
        self.shallow = None
        self.parts = _fp.Parts()
        self.kept = self.moves = self.since = 0
        self.log = []


class _Impl:
    __slots__ = ("fn", "gate", "picks", "plugin", "state_gate")

    def __init__(self, fn: Callable[..., Any], picks: tuple[int, ...] | None,
                 plugin: PluginInfo) -> None:
        self.fn = fn
        self.picks = picks
        self.plugin = plugin
        self.gate: frozenset[str] | None = None
        #: Bits of :attr:`Hooks._state_fields`: asked only when one is set.
        self.state_gate = 0


#: The :class:`PluginError`\ s the facade made (each names the plugin at
#: fault): one raised through a nested call (an action performed inside
#: another plugin's action) passes on as it is.
_TRIAGED: weakref.WeakSet[PluginError] = weakref.WeakSet()


def _flag(module: object, name: str, default: Any) -> Any:
    """A plugin's module constant (:data:`GATE_FLAG` ...), read statically:
    no attribute code of the plugin runs."""
    return inspect.getattr_static(module, name, default)


def _state_of(args: tuple[Any, ...]) -> GameState | None:
    return args[0] if args and isinstance(args[0], GameState) else None


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
                 timeout: float | None = None, verify: bool | None = None,
                 unknown_keywords: str = "error") -> None:
        self._pm = pm
        self._infos = dict(infos)
        self.timeout = timeout
        #: Fingerprint every hook call's arguments before and after it and
        #: fail the plugin that changed them (``None``: the ``REDZONE_VERIFY``
        #: environment variable decides, ``"1"`` turning it on).
        self.verify = verify_default() if verify is None else bool(verify)
        #: Verify mode: the state hook calls are being made with, its
        #: fingerprint from before the first of them, and those calls.
        # (Per thread: an engine may serve several threads at once, as the
        # batch runner's thread pools do.)
        self._vs = _VerifyState()
        #: Abilities triggered since the current command started.
        self.triggered_in_command = 0
        #: The plugins whose abilities triggered in the last call of
        #: :meth:`triggers`.
        self.triggering: tuple[str, ...] = ()
        if unknown_keywords not in UNKNOWN_KEYWORD_POLICIES:
            raise ValueError(f"unknown_keywords must be one of "
                             f"{', '.join(map(repr, UNKNOWN_KEYWORD_POLICIES))}, "
                             f"not {unknown_keywords!r}")
        self.unknown_keywords = unknown_keywords
        self._cache: dict[str, tuple[_Impl, ...]] = {}
        self._gated_hooks: frozenset[str] = frozenset()
        #: Per gate key (keywords present, non-empty gated fields), the
        #: implementations of each hook the gates let through.
        self._gated: dict[tuple[frozenset[str], int], dict[str, tuple[_Impl, ...]]] = {}
        self._state_fields: tuple[str, ...] = ()
        self._field_bits: tuple[tuple[str, int], ...] = ()
        self._flag_bits: tuple[tuple[str, int], ...] = ()
        self._silent: dict[tuple[frozenset[str], int], frozenset[str]] = {}
        self._gk_entry: tuple[Any, tuple[frozenset[str], int], dict[str, tuple[_Impl, ...]],
                              frozenset[str] | None] = (None, (frozenset(), 0), {}, None)
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
        self.damage_step_specs = self._load_damage_steps()
        declared: dict[str, set[str]] = {}
        for name, kinfo in self.keyword_infos.items():
            declared.setdefault(kinfo.plugin, set()).add(name)
        self._state_fields = self._load_state_gates()
        bits = [(name, 1 << i) for i, name in enumerate(self._state_fields)]
        self._field_bits = tuple((n, b) for n, b in bits if not n.startswith("objects."))
        self._flag_bits = tuple((n[len("objects."):], b) for n, b in bits
                                if n.startswith("objects."))
        for hook, impls in self._cache.items():
            if hook in _UNGATED:
                continue
            for impl in impls:
                if _flag(impl.plugin.module, GATE_FLAG, False) is True:
                    impl.gate = frozenset(declared.get(impl.plugin.name, ()))
                for name in _flag(impl.plugin.module, STATE_GATE_FLAG, ()):
                    impl.state_gate |= 1 << self._state_fields.index(name)
        self._keyword_cache: dict[str, Keyword] = {}
        #: Hooks with a gated implementation, and per hook and set of keywords
        #: present, the implementations the gate lets through.
        self._gated_hooks = frozenset(h for h, impls in self._cache.items()
                                      if any(i.gate is not None or i.state_gate for i in impls))

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
        ``state`` (one is implemented and the gates let it through)."""
        return hook not in self.silent(state)

    @functools.cached_property
    def keyword_names(self) -> frozenset[str]:
        """The names of the keywords the loaded plugins declare."""
        return frozenset(self.keyword_infos)

    def silent(self, state: GameState) -> frozenset[str]:
        """The hooks no implementation would be asked about ``state`` (none
        is implemented, or the gates keep every one out): a caller about to
        ask one hook for each of many creatures asks this once instead.
        Worked out once per set of keywords present and of non-empty gated
        fields (and kept with the last state asked about)."""
        entry = self._gk_entry
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
                              if not impls or (h in self._gated_hooks
                                               and not self._active(h, impls, state)))
            if len(self._silent) > 1024:
                self._silent.clear()
            self._silent[key] = found
        self._gk_entry = (state, key, entry[2], found)
        return found

    def _gate_entry(self, state: Any) -> tuple[Any, tuple[frozenset[str], int],
                                               dict[str, tuple[_Impl, ...]],
                                               frozenset[str] | None]:
        """``(state, gate key, table of active implementations, silent
        hooks or None)`` for the last state asked about (one tuple, replaced
        at once: threads that share an engine never see one state's key with
        another's table)."""
        entry = self._gk_entry
        if entry[0] is state:
            return entry
        key = (state.keyword_names_present, self._filled(state) if self._state_fields else 0)
        table = self._gated.get(key)
        if table is None:
            if len(self._gated) > 1024:
                self._gated.clear()
            table = self._gated[key] = {}
        entry = (state, key, table, None)
        self._gk_entry = entry
        return entry

    def _filled(self, state: Any) -> int:
        """Bits of :attr:`_state_fields`: which gated fields of ``state``
        are non-empty."""
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

    def _fail(self, impl: _Impl | PluginInfo, hook: str, state: GameState | None,
              exc: BaseException | None, problem: str) -> PluginError:
        info = impl.plugin if isinstance(impl, _Impl) else impl
        dist = f"{info.distribution} {info.version}".strip() or "unknown distribution"
        step = state.step if state is not None else "loading"
        rules = ""
        doc = getattr(hookspecs, hook).__doc__ or ""
        m = re.search(r"Rules:\s*(.+)", doc)
        if m:
            rules = f" (rules {m.group(1).strip()})"
        err = PluginError(
            f"plugin {info.name!r} ({dist}) {problem} in hook {hook}{rules} during step "
            f"{step!r}",
            plugin=info.name,
            distribution=info.distribution,
            hook=hook,
        )
        _TRIAGED.add(err)
        return err

    def info(self, plugin: str) -> PluginInfo:
        """The registered plugin named ``plugin`` (a bare record for a name
        that isn't registered)."""
        return self._infos.get(plugin) or PluginInfo(plugin, None)

    def fault(self, plugin: str | PluginInfo, hook: str, state: GameState | None,
              problem: str) -> PluginError:
        """The :class:`PluginError` for a fault of ``plugin`` found outside a
        hook call (in what its answer asked the kernel to do): it names the
        plugin, its distribution, ``hook``, the hook's rules and the step."""
        info = plugin if isinstance(plugin, PluginInfo) else self.info(plugin)
        return self._fail(info, hook, state, None, problem)

    @staticmethod
    def vouch(err: _E) -> _E:
        """Mark ``err``, made by the kernel and naming the plugin at fault
        (a :class:`BoundError` ...), as triaged: it passes through the calls
        it is raised in as it is.

        :returns: ``err``.
        """
        _TRIAGED.add(err)
        return err

    @staticmethod
    def triaged(exc: BaseException) -> bool:
        """Whether ``exc`` is a :class:`PluginError` this facade made (and
        so names the plugin at fault): one raised through a nested call
        passes on as it is."""
        return isinstance(exc, PluginError) and exc in _TRIAGED

    def triage(self, plugin: PluginInfo | str, hook: str, state: GameState | None,
               exc: BaseException, *, doing: str = "") -> BaseException:
        """What an exception raised by plugin code becomes: the one triage
        of every place plugin code runs (hook calls, result replacements,
        action kinds, the actions of answers).

        ``KeyboardInterrupt`` is returned as it is (CPython raises a user's
        Ctrl-C in whatever frame is running, so it can't be told from a
        plugin raising it itself: both stop the command and reach the
        caller); so is an :class:`IllegalActionError` from a hook that may
        reject the embedding engine's choices (``redzone_resolve_trigger``).
        Everything else (``SystemExit``, ``GeneratorExit``,
        ``RecursionError``, a :class:`PluginError` naming another plugin)
        becomes a :class:`PluginError` naming ``plugin``: a plugin can't
        blame another one.

        :param doing: what the plugin code was doing, as the message's
            start (``"replacement 'x' "``).
        :returns: the exception the caller raises (from ``exc`` when it is
            new).
        """
        if isinstance(exc, KeyboardInterrupt):
            return exc
        if isinstance(exc, IllegalActionError) and hook in _MAY_REJECT:
            return exc  # the embedding engine's choices were illegal: nothing changes
        what = type(exc).__name__
        if isinstance(exc, PluginError) and exc.plugin:
            what = f"PluginError (naming plugin {exc.plugin!r})"
        info = plugin if isinstance(plugin, PluginInfo) else self.info(plugin)
        return self._fail(info, hook, state, exc, f"{doing}raised {what}: {exc}")

    def _active(self, hook: str, impls: tuple[_Impl, ...], state: Any) -> tuple[_Impl, ...]:
        """The implementations of ``hook`` worth asking about ``state``: the
        keyword gate applied once per hook and set of keywords present (a
        state's set is shared by the states built from it), and the state
        gate once per hook and set of non-empty gated fields."""
        entry = self._gk_entry
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

    def _answers(self, hook: str, args: tuple[Any, ...]) -> list[tuple[_Impl, Any]]:
        impls = self._cache[hook]
        out: list[tuple[_Impl, Any]] = []
        verify = self.verify
        if not impls:
            if verify and hook in _VERIFY_NOW:
                self.verify_pending(keep=True, deep=hook != "redzone_triggers")
            return out
        if hook in self._gated_hooks:
            impls = self._active(hook, impls, args[0])
        if not verify and self.timeout is None:
            return self._answers_plain(hook, impls, args)
        for impl in impls:
            picks = impl.picks
            before = self._verify_before(args) if verify else ()
            started = time.perf_counter() if self.timeout is not None else 0.0
            try:
                res = impl.fn(*args) if picks is None else impl.fn(*[args[i] for i in picks])
                if res is not None and type(res) not in _PLAIN and not isinstance(
                        res, (str, bytes)) and isinstance(res, Iterable):
                    # A generator (or any lazy iterable) runs, and may raise,
                    # only as it is consumed: consume it here, inside the guard.
                    res = tuple(res)
            except BaseException as exc:
                err = self.triage(impl.plugin, hook, _state_of(args), exc)
                if err is exc:
                    raise
                raise err from exc
            if verify:
                self._verify_after(impl, hook, impl.fn, args, before)
            if self.timeout is not None:
                self._check_time(impl, hook, args, started)
            if res is not None:
                out.append((impl, res))
        if verify and hook in _VERIFY_NOW:
            self.verify_pending(keep=True, deep=hook != "redzone_triggers")
        return out

    def _answers_plain(self, hook: str, impls: tuple[_Impl, ...],
                       args: tuple[Any, ...]) -> list[tuple[_Impl, Any]]:
        """:meth:`_answers` with verify mode and the time limit off: the same
        guard (one ``try`` around the loop, which costs nothing until
        something raises), without their bookkeeping per call."""
        out: list[tuple[_Impl, Any]] = []
        impl = None
        try:
            for impl in impls:
                picks = impl.picks
                res = impl.fn(*args) if picks is None else impl.fn(*[args[i] for i in picks])
                if res is None:
                    continue
                if type(res) not in _PLAIN and not isinstance(res, (str, bytes)) \
                        and isinstance(res, Iterable):
                    res = tuple(res)  # a lazy iterable runs (and may raise) here
                out.append((impl, res))
        except BaseException as exc:
            assert impl is not None
            err = self.triage(impl.plugin, hook, _state_of(args), exc)
            if err is exc:
                raise
            raise err from exc
        return out

    # -- verify mode ------------------------------------------------------------
    #
    # Fingerprinting the whole state around every hook call costs the size of
    # the state times the number of calls, and so does fingerprinting each
    # new state whole: a state grows by a part at a time. Instead a state is
    # its containers (its fields, its maps and tuples) and its parts (each
    # value in them), and consecutive states share almost all their parts:
    #
    # * a part is fingerprinted once, when a state holding it is first given
    #   to a hook call (only new parts cost Python calls; finding them is done
    #   in C), and every attrs instance and map inside it is recorded with
    #   its field values;
    # * the containers of the state calls are made with are recorded as it is
    #   first given (field values by identity, a copy of each map's dict) and
    #   compared, in C, when the calls move on to another state, after each
    #   notification and ``redzone_triggers``, as a command returns its
    #   outcome and when the next one starts;
    # * the parts are compared with what was recorded, in C, as a command
    #   returns its outcome, and when the calls move on to another state and
    #   either the new parts since the last comparison outnumber the parts
    #   then kept or 32 states have been watched since; and fingerprinted
    #   again (which also sees inside lists) after each notification and when
    #   a command starts. Then the table is pruned to the watched state's
    #   parts: all linear in the work done.
    #
    # A container that changed is named as before: the calls made with that
    # state are replayed, in order, on a pristine copy, and the first one that
    # changes it is named. A part that changed: the calls since the parts
    # were last compared that were given a state holding it are replayed on
    # copies holding a pristine rebuild of it, and the first one that changes
    # the rebuild is named.

    #: States watched between two comparisons of the parts, at most.
    _VERIFY_MOVES: Final = 32

    @staticmethod
    def _fingerprint(args: Any) -> bytes | str:
        """Everything ``args`` hold, as bytes (states share parts, so this
        covers the caller's earlier snapshots too); ``pickle.loads`` of it
        is a pristine copy."""
        return _fp.fingerprint(args)

    def _verify_before(self, args: tuple[Any, ...]) -> Any:
        if args and isinstance(args[0], GameState):
            if args[0] is not self._vs.state:
                self._verify_move(args[0])
            rest = args[1:]
            return () if _fp.plain_values(rest) else _fp.snap(rest)
        return () if _fp.plain_values(args) else _fp.snap(args)

    def _verify_move(self, state: GameState) -> None:
        """The calls move on to ``state``: compare the last one's containers,
        watch this one, and compare the parts when it is their turn."""
        vs = self._vs
        last = vs.shallow if vs.state is not None else None
        if last is not None:
            self._verify_containers(last)
        vs.state = state
        vs.shallow = vs.parts.watch(state, last)
        vs.since = len(vs.log)
        vs.moves += 1
        if vs.parts.new > vs.kept or vs.moves >= self._VERIFY_MOVES:
            self._verify_parts(deep=False)

    def _verify_containers(self, shallow: _fp.Shallow) -> None:
        """Fail the plugin that changed the containers of the watched state.

        :raises PluginError: naming it.
        """
        vs = self._vs
        if not shallow.changed():
            vs.since = len(vs.log)
            return
        log = vs.log[vs.since:]
        copy = vs.parts.rebuild(shallow)
        culprit = self._replay([(impl, hook, fn, (copy, *args[1:]), copy)
                                for impl, hook, fn, args in log])
        state = shallow.state
        vs.reset()
        self._verify_blame(culprit, log, state)

    def _verify_parts(self, deep: bool) -> None:
        """Compare every part in the table with its fingerprint (``deep``:
        fingerprint it again), then keep only the watched state's.

        :raises PluginError: naming the plugin that changed one.
        """
        vs = self._vs
        if vs.state is None and not vs.parts.table:
            vs.log = []  # nothing watched, nothing recorded (the gates asked no plugin)
            vs.moves = vs.since = 0
            return
        if vs.shallow is not None and vs.state is not None:
            self._verify_containers(vs.shallow)
        part = vs.parts.changed(deep)
        if part is not None:
            log = [entry for entry in vs.log if _fp.holds(entry[3][0], part)]
            rebuilt = vs.parts.pristine(part)
            culprit = None
            if rebuilt is not part:
                culprit = self._replay([
                    (impl, hook, fn, (_fp.swap(args[0], part, rebuilt), *args[1:]), rebuilt)
                    for impl, hook, fn, args in log])
            state = vs.state or (log[-1][3][0] if log else None)
            everyone = vs.log
            vs.reset()
            self._verify_blame(culprit, log or everyone, state)
        vs.parts.prune(vs.shallow if vs.state is not None else None)
        vs.kept = len(vs.parts.table)
        vs.moves = 0
        vs.log = []
        vs.since = 0

    def _verify_blame(self, culprit: tuple[_Impl, str] | None,
                      log: Sequence[tuple[_Impl, str, Callable[..., Any], tuple[Any, ...]]],
                      state: GameState | None) -> None:
        """Raise the error for a change verify mode found.

        :raises PluginError: naming the plugin found by replaying ``log``
            (``culprit``), or the plugins called.
        """
        if culprit is not None:
            impl, hook = culprit
            raise self._fail(impl, hook, state, None,
                             "changed the state it was given (verify mode found the change "
                             "and replayed the hook calls on a pristine copy to find who "
                             "made it)")
        names = sorted({entry[0].plugin.name for entry in log})
        step = state.step if state is not None else "?"
        raise PluginError(
            f"a plugin changed the state it was given during step {step!r} (verify mode "
            f"found the change; replaying the calls didn't repeat it): one of "
            f"{', '.join(map(repr, names)) or 'the plugins'}",
            plugin=names[0] if len(names) == 1 else "",
            hook=log[-1][1] if log else "")

    def _verify_after(self, impl: _Impl, hook: str, fn: Callable[..., Any],
                      args: tuple[Any, ...], before: Any) -> None:
        has_state = bool(args) and isinstance(args[0], GameState)
        rest = args[1:] if has_state else args
        if before and _fp.snap(rest) != before:
            self._vs.reset()
            raise self._fail(impl, hook, args[0] if has_state else None, None,
                             "changed the objects it was given (verify mode compares them "
                             "before and after each hook call)")
        if has_state:
            self._vs.log.append((impl, hook, fn, args))

    def state_print(self, state: GameState) -> bytes | str | None:
        """In verify mode, ``state``'s fingerprint, to compare after plugin
        code that isn't a hook call ran with it (an action kind's perform
        function); ``None`` outside verify mode."""
        return self._fingerprint(state) if self.verify else None

    def check_unchanged(self, plugin: str, hook: str, state: GameState,
                        before: bytes | str | None, doing: str) -> None:
        """In verify mode, fail ``plugin`` when ``state`` no longer matches
        ``before`` (:meth:`state_print`).

        :raises PluginError: naming the plugin.
        """
        if before is None or self._fingerprint(state) == before:
            return
        self._vs.reset()  # reported here, not again by the next command
        raise self.fault(plugin, hook, state, f"changed the state it was given {doing} "
                         "(verify mode compares it before and after)")

    def command_started(self) -> None:
        """A command of the engine starts: per-command bounds start afresh,
        and (in verify mode) what the last command's plugins did is checked."""
        self.triggered_in_command = 0
        if self.verify:
            self.verify_pending()

    def command_finished(self) -> None:
        """A command of the engine is about to return its outcome: in verify
        mode, the watched state's containers and every part fingerprinted
        since the parts were last compared are compared (in C)."""
        if self.verify:
            self._verify_parts(deep=False)

    def verify_pending(self, keep: bool = False, deep: bool = True) -> None:
        """In verify mode: compare the state hook calls were last made with
        to what was recorded of it: its containers, and (``deep``) every part
        fingerprinted since the parts were last compared.

        :param keep: keep watching it (more calls with it may follow).
        :param deep: fingerprint the parts again too.
        :raises PluginError: naming the plugin that changed it.
        """
        vs = self._vs
        if deep:
            self._verify_parts(deep=True)
        elif vs.state is not None and vs.shallow is not None:
            self._verify_containers(vs.shallow)
        if not keep:
            vs.state = None
            vs.shallow = None

    def _replay(self, calls: Sequence[tuple[_Impl, str, Callable[..., Any], tuple[Any, ...],
                                            Any]]) -> tuple[_Impl, str] | None:
        """The first of ``calls`` (each with what it is watched on: a
        pristine copy in its arguments) that changes what it is watched on."""
        for impl, hook, fn, call, watched in calls:
            before = self._fingerprint(watched)
            if not isinstance(before, bytes):
                return None
            try:
                if fn is impl.fn and impl.picks is not None:
                    fn(*[call[i] for i in impl.picks])
                else:
                    fn(*call)
            except KeyboardInterrupt:
                raise  # a user's Ctrl-C (see triage)
            except BaseException:  # what it raises was reported already; only changes count
                pass
            if self._fingerprint(watched) != before:
                return impl, hook
        return None

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
        check = _answers_check.CHECKS.get(kind)
        for impl, res in self._answers(hook, args):
            if type(res) in _SEQUENCES:
                if not res:
                    continue
                if check is None and len(res) <= _answers_check.MAX_ITEMS and all(
                        type(item) is kind for item in res):
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
        if not isinstance(state, GameState):
            state = None
        check = _answers_check.CHECKS.get(kind)
        items: list[T] = []
        tokens = 0
        for item in res:
            if type(item) is not kind:
                raise self._fail(impl, hook, state, None,
                                 f"returned {item!r} where a {kind.__name__} was expected")
            if len(items) >= _answers_check.MAX_ITEMS:
                raise self._fail(impl, hook, state, None,
                                 f"returned more than {_answers_check.MAX_ITEMS} answers "
                                 "to one call")
            if check is not None:
                problem = check(state, item)
                if problem is not None:
                    raise self._fail(impl, hook, state, None,
                                     f"returned a {kind.__name__} whose {problem}")
                if kind is Result and item.kind == "create":  # type: ignore[attr-defined]
                    tokens += item.amount  # type: ignore[attr-defined]
                    if tokens > _answers_check.MAX_TOKENS:
                        raise self._bound_fail(impl, hook, state, "tokens",
                                               _answers_check.MAX_TOKENS,
                                               f"would create more than "
                                               f"{_answers_check.MAX_TOKENS} tokens in one call")
                    if state is not None and (
                            len(state.objects) + tokens > _answers_check.MAX_OBJECTS):
                        raise self._bound_fail(impl, hook, state, "objects",
                                               _answers_check.MAX_OBJECTS,
                                               f"would create {tokens} tokens in a state that "
                                               f"holds {len(state.objects)} objects, over the "
                                               f"limit of {_answers_check.MAX_OBJECTS}")
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
                if type(spec) is not KeywordSpec:
                    raise self._fail(impl, "redzone_keywords", None, None,
                                     f"returned {spec!r} where a KeywordSpec was expected")
                problem = spec.problem()
                if problem is not None:
                    raise self._load_fail(impl, f"declares keyword {spec.name!r} whose {problem}")
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
        clash = _overlap(tuple(sorted((i.spec.name, i.spec.form, i.spec.examples)
                                      for i in infos.values())))
        if clash is not None:
            first, second, text = clash
            a, b = infos[first], infos[second]
            raise PluginLoadError(
                f"the keyword forms of plugin {a.plugin!r} ({a.spec.name!r}: {a.spec.form!r}) "
                f"and plugin {b.plugin!r} ({b.spec.name!r}: {b.spec.form!r}) both match "
                f"{text!r}: a printed keyword must belong to one plugin; block one of them",
                plugin=b.plugin, distribution=b.distribution, hook="redzone_keywords")
        return dict(sorted(infos.items()))

    def _bound_fail(self, impl: _Impl, hook: str, state: GameState | None, bound: str,
                    limit: int, problem: str) -> BoundError:
        """:meth:`_fail` for a run-time bound reached: a :class:`BoundError`
        naming the plugin, the hook and the bound."""
        err = self._fail(impl, hook, state, None, problem)
        return self.vouch(BoundError(str(err), bound=bound, limit=limit, plugin=err.plugin,
                                     distribution=err.distribution, hook=err.hook))

    def _load_fail(self, impl: _Impl, problem: str) -> PluginLoadError:
        err = self._fail(impl, "redzone_keywords", None, None, problem)
        return PluginLoadError(str(err), plugin=err.plugin, distribution=err.distribution,
                               hook=err.hook)

    def parse_keyword(self, text: str | Keyword, unknown: str | None = None,
                      suggest: bool = True) -> Keyword:
        """The :class:`Keyword` for a printed keyword.

        :param unknown: the unknown-keyword policy for this call (default:
            the engine's): ``"error"`` accepts only the loaded plugins'
            keywords and the known non-combat keywords
            (:data:`INERT_KEYWORDS`), as inert; ``"inert"`` accepts any
            keyword, an unknown one as inert (no plugin acts on it).
        :param suggest: look for close matches when the keyword is unknown.
        :raises UnknownKeywordError: when no loaded plugin's form matches
            (with the close matches), a number is out of bounds, or the
            keyword is ambiguous.
        """
        policy = self.unknown_keywords if unknown is None else unknown
        if isinstance(text, Keyword):
            known = self.keyword_infos.get(text.name)
            if known is not None or policy == "inert":
                again = self.parse_keyword(text.text, policy, suggest) if type(
                    text.text) is str else None
                if again is not None and again.name == text.name and again.args == text.args:
                    return again
                if known is None and type(text.name) is str:
                    return text  # inert: no plugin acts on it
                raise UnknownKeywordError(str(text.text), reason=(
                    f"a Keyword named {text.name!r} with args {text.args!r}, which its text "
                    "doesn't parse to"))
            text = text.text
        if type(text) is not str:
            raise UnknownKeywordError(repr(text), reason="a keyword is a str")
        key = text if policy == self.unknown_keywords else f"{policy}\0{text}"
        cached = self._keyword_cache.get(key)
        if cached is not None:
            return cached
        if len(text) > MAX_KEYWORD_TEXT:
            raise UnknownKeywordError(text[:40] + "...", reason=f"longer than "
                                      f"{MAX_KEYWORD_TEXT} characters")
        norm = _normalise(text)
        matches = []
        for info in self.keyword_infos.values():
            m = info.spec.regex.fullmatch(norm)
            if m:
                args = tuple(g for g in m.groups() if g is not None)
                _check_numbers(text, info.spec.form, args, info.spec.most)
                matches.append(Keyword(info.spec.name, norm, args))
        if not matches:
            inert = _inert(norm)
            if inert is not None:
                matches.append(inert)
            elif policy == "inert":
                matches.append(Keyword(norm, norm))
        if not matches:
            close = []
            if suggest:
                names = list(self.keyword_infos) + [
                    e for i in self.keyword_infos.values() for e in i.spec.examples
                ]
                close = difflib.get_close_matches(norm, names, n=3, cutoff=0.6)
            raise UnknownKeywordError(text, close)
        if len(matches) > 1:  # pragma: no cover - forms are checked for overlap at load
            raise UnknownKeywordError(
                f"{text} (ambiguous: {', '.join(m.name for m in matches)})"
            )
        if len(self._keyword_cache) < 10_000:
            self._keyword_cache[key] = matches[0]
        return matches[0]

    def is_inert_name(self, name: str) -> bool:
        """Whether ``name`` is a known non-combat keyword (:data:`INERT_KEYWORDS`)
        that no loaded plugin declares."""
        return name not in self.keyword_infos and name in _INERT_NAMES

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

    def default_policy_trusted(self, state: GameState) -> bool:
        """Whether the built-in default policy's assignment for ``state``
        needs no check by plugins: none would be asked
        (``redzone_assignment_violations``), or, outside verify mode, every
        one that would be asked sets :data:`TRUST_FLAG`."""
        hook = "redzone_assignment_violations"
        if hook in self.silent(state):
            return True
        impls = self._cache[hook]
        if hook in self._gated_hooks:
            impls = self._active(hook, impls, state)
        if self.verify:
            return False
        return all(_flag(i.plugin.module, TRUST_FLAG, False) is True for i in impls)

    def assignment_violations(self, state: GameState,
                              assignment: SourceAssignment) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_assignment_violations`, concatenated."""
        return self._collect("redzone_assignment_violations", Violation, state, assignment)

    def _load_state_gates(self) -> tuple[str, ...]:
        """The state fields plugins gate on (:data:`STATE_GATE_FLAG`), in
        order of first mention.

        :raises PluginLoadError: when a plugin names what isn't a field of
            :class:`~redzone.GameState` holding a collection, nor
            ``objects.<field>`` for a field of
            :data:`~redzone.kernel.model.FLAG_FIELDS`.
        """
        gated = _GATEABLE_FIELDS | {f"objects.{f}" for f in FLAG_FIELDS}
        fields: dict[str, None] = {}
        infos = sorted({impl.plugin.name: impl.plugin for impls in self._cache.values()
                        for impl in impls}.values(), key=lambda info: info.name)
        for info in infos:
            names = _flag(info.module, STATE_GATE_FLAG, ())
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

    def _load_damage_steps(self) -> dict[str, DamageStep]:
        hook = "redzone_damage_steps"
        found: dict[str, tuple[DamageStep, str]] = {
            REGULAR_DAMAGE_STEP.name: (REGULAR_DAMAGE_STEP, "the kernel")}
        for impl, res in self._answers(hook, ()):
            for spec in self._items(impl, hook, None, res, DamageStep):
                name = impl.plugin.name
                problem = ""
                prior = found.get(spec.name) if isinstance(spec.name, str) else None
                same_order = [(s, p) for s, p in found.values()
                              if s.order == spec.order and s.name != spec.name]
                if not isinstance(spec.name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*_damage",
                                                                      spec.name):
                    problem = (f"declares the combat damage step {spec.name!r}: a step's name "
                               "is lower case and ends in '_damage'")
                elif not isinstance(spec.order, int) or isinstance(spec.order, bool):
                    problem = (f"declares the combat damage step {spec.name!r} with the order "
                               f"{spec.order!r}: an order is a whole number")
                elif prior is not None and prior[0] != spec:
                    problem = (f"declares the combat damage step {spec.name!r} as {spec!r}, "
                               f"but {prior[1]} declares it as {prior[0]!r}")
                elif same_order:
                    other, by = same_order[0]
                    problem = (f"declares the combat damage step {spec.name!r} with order "
                               f"{spec.order}, which {by} gives {other.name!r}; no two "
                               "steps share an order")
                if problem:
                    raise PluginLoadError(f"plugin {name!r} {problem}", plugin=name,
                                          distribution=impl.plugin.distribution, hook=hook)
                found.setdefault(spec.name, (spec, f"plugin {name!r}"))
        ordered = sorted(found.values(), key=lambda f: f[0].order)
        return {spec.name: spec for spec, _by in ordered}

    def deals_combat_damage(self, state: GameState, creature: str, step: str) -> bool | None:
        """:func:`~redzone.kernel.hookspecs.redzone_deals_combat_damage`: ``False``
        if any says so, else ``True`` if any says so, else ``None`` (the
        kernel's answer applies)."""
        hook = "redzone_deals_combat_damage"
        if not self._cache[hook]:
            return None
        answer: bool | None = None
        for impl, res in self._answers(hook, (state, creature, step)):
            if res is False:
                return False
            if res is not True:
                raise self._fail(impl, hook, state, None,
                                 f"returned {res!r} where a bool or None was expected")
            answer = True
        return answer

    def combat_damage_amount(self, state: GameState, creature: str, step: str) -> int | None:
        """:func:`~redzone.kernel.hookspecs.redzone_combat_damage_amount`: the
        smallest answer, or ``None`` when there is none."""
        hook = "redzone_combat_damage_amount"
        value: int | None = None
        if not self._cache[hook]:
            return value
        for impl, res in self._answers(hook, (state, creature, step)):
            if not isinstance(res, int) or isinstance(res, bool):
                raise self._fail(impl, hook, state, None,
                                 f"returned {res!r} where an int or None was expected")
            value = res if value is None else min(value, res)
        return value

    def may_assign_as_though_unblocked(self, state: GameState, attacker: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_may_assign_as_though_unblocked`:
        any ``True``."""
        return self._any("redzone_may_assign_as_though_unblocked", state, attacker)

    # -- 120 ----------------------------------------------------------------------

    def prevent_damage(self, state: GameState, damage: Damage,
                       batch: tuple[Damage, ...] = (), step: str = "") -> list[Prevention]:
        """:func:`~redzone.kernel.hookspecs.redzone_prevent_damage`, concatenated; a
        negative amount (which would add damage) is the plugin's error.
        ``batch`` defaults to ``damage`` alone and ``step`` to its step."""
        hook = "redzone_prevent_damage"
        found: list[Prevention] = []
        args = (state, damage, batch or (damage,), step or damage.step)
        for impl, res in self._answers(hook, args):
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
            before = self._verify_before((state, result)) if self.verify else ()
            try:
                out = replace(state, result)
            except BaseException as exc:
                err = self.triage(impl.plugin, hook, state, exc,
                                  doing=f"replacement {item.effect!r} ")
                if err is exc:
                    raise
                raise err from exc
            if self.verify:
                self._verify_after(impl, hook, replace, (state, result), before)
            if out is not None and type(out) is not Result:
                raise self._fail(impl, hook, state, None,
                                 f"replacement {item.effect!r} returned {out!r} where a "
                                 "Result or None was expected")
            if out is not None:
                problem = _answers_check.check_result(state, out)
                if problem is not None:
                    raise self._fail(impl, hook, state, None,
                                     f"replacement {item.effect!r} returned a Result whose "
                                     f"{problem}")
            return out

        return guarded

    def damage_event(self, state: GameState, damage: tuple[Damage, ...],
                     results: tuple[Result, ...]) -> None:
        """:func:`~redzone.kernel.hookspecs.redzone_damage_event`: notify every plugin."""
        self._answers("redzone_damage_event", (state, damage, results))

    def redirect_damage(self, state: GameState, damage: Damage) -> list[Redirection]:
        """:func:`~redzone.kernel.hookspecs.redzone_redirect_damage`,
        deduplicated and sorted by effect name."""
        hook = "redzone_redirect_damage"
        if not self._cache[hook]:
            return []
        answers = self._answers(hook, (state, damage))
        if not answers:
            return []
        found: dict[tuple[str, str, str], Redirection] = {}
        for impl, res in answers:
            for item in self._items(impl, hook, state, res, Redirection):
                if not isinstance(item.to, str) or not isinstance(item.effect, str):
                    raise self._fail(impl, hook, state, None,
                                     f"returned {item!r}: 'effect' and 'to' must be ids "
                                     "(strings)")
                found[(item.effect, item.rule, item.to)] = item
        return [found[k] for k in sorted(found)]

    # -- 704 ----------------------------------------------------------------------

    def state_based_actions(self, state: GameState) -> list[StateBasedAction]:
        """:func:`~redzone.kernel.hookspecs.redzone_state_based_actions`, concatenated."""
        return self._collect("redzone_state_based_actions", StateBasedAction, state)

    def cannot_be_destroyed(self, state: GameState, permanent: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_cannot_be_destroyed`: any ``True``."""
        return self._any("redzone_cannot_be_destroyed", state, permanent)

    # -- 603 ----------------------------------------------------------------------

    def triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        """:func:`~redzone.kernel.hookspecs.redzone_triggers`, concatenated.

        At most :data:`~redzone.kernel.answers.MAX_TRIGGERS` abilities
        trigger during one command: a plugin whose ability triggers on its
        own resolution would otherwise loop for ever (the plugin answering
        the most triggers in the call that goes over is named).
        """
        hook = "redzone_triggers"
        if not self._cache[hook]:
            return []
        found: list[Trigger] = []
        most: tuple[int, _Impl] | None = None
        triggering: list[str] = []
        for impl, res in self._answers(hook, (state, events)):
            items = self._items(impl, hook, state, res, Trigger)
            for item in items:
                what = f"trigger {item.kind!r}"
                self._check_actions(impl, hook, state, item.actions, what)
                if not isinstance(item.offers, tuple):
                    raise self._fail(impl, hook, state, None, f"returned {what} whose offers "
                                     f"are {item.offers!r}, not a tuple of Choice")
                for offer in item.offers:
                    self._check_choice(impl, hook, state, offer, f"{what} offering")
            found.extend(items)
            if items:
                triggering.append(impl.plugin.name)
            if items and (most is None or len(items) > most[0]):
                most = (len(items), impl)
        self.triggering = tuple(triggering)
        self.triggered_in_command += len(found)
        if most is not None and self.triggered_in_command > _answers_check.MAX_TRIGGERS:
            raise self._bound_fail(most[1], hook, state, "triggers",
                                   _answers_check.MAX_TRIGGERS,
                                   f"made more than {_answers_check.MAX_TRIGGERS} abilities "
                                   "trigger in one command (an ability that triggers on its "
                                   "own resolution loops for ever)")
        return found

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
                if self.action_spec(item) is None:
                    raise self._fail(impl, "redzone_resolve_trigger", state, None,
                                     f"returned {item!r} where an action of a declared kind "
                                     "was expected")
                try:
                    _validate.action(state, item)
                except IllegalActionError as exc:
                    what = exc.message.removeprefix("perform: ")
                    raise self._fail(impl, "redzone_resolve_trigger", state, exc,
                                     f"returned an action whose {what}") from exc
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
                                 permanent: str) -> list[tuple[str, DestructionReplacement]]:
        """:func:`~redzone.kernel.hookspecs.redzone_destruction_replacements`:
        ``(plugin name, replacement)`` pairs sorted by effect name, so that
        its actions are performed for the plugin that answered it."""
        hook = "redzone_destruction_replacements"
        found: list[tuple[str, DestructionReplacement]] = []
        if not self._cache[hook]:
            return found
        for impl, res in self._answers(hook, (state, permanent)):
            for item in self._items(impl, hook, state, res, DestructionReplacement):
                self._check_actions(impl, hook, state, item.actions,
                                    f"destruction replacement {item.effect!r}")
                found.append((impl.plugin.name, item))
        return sorted(found, key=lambda r: (r[1].effect, r[1].rule))

    def _check_actions(self, impl: _Impl, hook: str, state: GameState,
                       actions: object, what: str) -> None:
        """Every action of an answer (a trigger's, a choice's ``then``, a
        replacement's) is of a declared kind with fields of the right types,
        or the plugin that answered is named."""
        if not isinstance(actions, tuple):
            raise self._fail(impl, hook, state, None,
                             f"returned {what} whose actions are {actions!r}, not a tuple")
        for item in actions:
            if self.action_spec(item) is None:
                raise self._fail(impl, hook, state, None,
                                 f"returned {what} holding {item!r} where an action of a "
                                 "declared kind was expected")
            try:
                _validate.action(state, item)
            except IllegalActionError as exc:
                problem = exc.message.removeprefix("perform: ")
                raise self._fail(impl, hook, state, exc,
                                 f"returned {what} with an action whose {problem}") from exc

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
                self._check_choice(impl, hook, state, item, "")
                out.append((impl.plugin.name, item))
        return out

    def _check_choice(self, impl: _Impl, hook: str, state: GameState, choice: object,
                      what: str) -> None:
        """A choice a plugin answered (a declaration's, a trigger's offer)
        can be made: its fields have their types, its player is in the game,
        its default is a legal answer (unless there is no legal option, and
        the ability is removed from the stack, 603.3d) and the actions of its
        ``then`` are of declared kinds; else the plugin is named."""
        from redzone.kernel.tx import check_answer  # (tx needs the facade's types)

        shown = f"{what} a choice" if what else "a choice"
        if type(choice) is not Choice:
            raise self._fail(impl, hook, state, None,
                             f"returned {shown} {choice!r} that is not a Choice")
        problem = ""
        texts = ("name", "kind", "rule", "text", "key")
        bad = next((f for f in texts if type(getattr(choice, f)) is not str), None)
        if bad is not None:
            problem = f"field {bad!r} is {getattr(choice, bad)!r}, where a str was expected"
        elif choice.kind not in CHOICE_KINDS:
            problem = (f"field 'kind' is {choice.kind!r}, not a choice kind "
                       f"({', '.join(CHOICE_KINDS)})")
        elif type(choice.player) is not str or choice.player not in state.players:
            problem = f"field 'player' is {choice.player!r}, not a player of the state"
        elif not all(type(o) is str for o in (*choice.options, *choice.default)):
            problem = "options and default must be strs"
        elif not all(type(n) is int and 0 <= n <= _answers_check.MAX_ITEMS
                     for n in (choice.min, choice.max)) or choice.min > choice.max:
            problem = (f"fields 'min' and 'max' are {choice.min!r} and {choice.max!r}, where "
                       f"whole numbers from 0 to {_answers_check.MAX_ITEMS}, min <= max, "
                       "were expected")
        elif choice.options or choice.min == 0:
            try:
                check_answer(choice, choice.default)
            except IllegalActionError as exc:
                problem = f"default is illegal: {exc.message}"
        if problem:
            raise self._fail(impl, hook, state, None,
                             f"returned {shown} {choice.name!r} whose {problem}")
        for option, actions in choice.then.items():
            self._check_actions(impl, hook, state, actions,
                                f"{shown} {choice.name!r} (option {option!r})")

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
            dist, version = _distribution_of(item)
            info = PluginInfo(plugin_name(item), item, dist, version)
        if info.name in infos:
            if infos[info.name].module is info.module:
                continue
            raise PluginLoadError(f"two plugins are named {info.name!r}", plugin=info.name)
        _check_plugin_object(info)
        try:
            pm.register(info.module, name=info.name)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a hostile attribute may raise anything
            raise PluginLoadError(
                f"plugin {info.name!r} ({info.distribution or 'unknown distribution'}) "
                f"could not be registered: {exc}",
                plugin=info.name,
                distribution=info.distribution,
            ) from exc
        infos[info.name] = info
        _check_registered(pm, info)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginLoadError(f"a plugin implements a hook that does not exist: {exc}") from exc
    return pm, infos


_MARKER: Final = f"{GROUP}_impl"
_HOOK_NAMES: Final = tuple(sorted(n for n in dir(hookspecs) if n.startswith("redzone_")))


def _check_plugin_object(info: PluginInfo) -> None:
    """Before registration: every ``redzone_*`` attribute marked ``@hookimpl``
    names a hook (with a did-you-mean); a plugin with ``redzone_*``
    functions but no ``@hookimpl`` at all gets a warning (pluggy would
    ignore it silently)."""
    module = info.module
    marked: list[str] = []
    unmarked: list[str] = []
    for attr in dir(module):
        if not attr.startswith("redzone_"):
            continue
        try:  # statically, as pluggy looks: no attribute code of the plugin runs
            value = inspect.getattr_static(module, attr)
        except AttributeError:
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if not callable(value):
            continue
        (marked if getattr(value, _MARKER, None) is not None else unmarked).append(attr)
    for name in marked:
        if name not in _HOOK_NAMES:
            short = [h.removeprefix("redzone_") for h in _HOOK_NAMES]
            close = ["redzone_" + c for c in suggest(name.removeprefix("redzone_"), short)]
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise PluginLoadError(
                f"plugin {info.name!r} ({info.distribution or 'unknown distribution'}) "
                f"implements hook {name!r}, which does not exist{hint}",
                plugin=info.name, distribution=info.distribution, hook=name)
    if unmarked and not marked:
        warnings.warn(
            f"plugin {info.name!r} defines {', '.join(unmarked)} without @hookimpl, so "
            "redzone never calls them: decorate them with redzone.hookimpl",
            stacklevel=3)


def _check_registered(pm: pluggy.PluginManager, info: PluginInfo) -> None:
    """After registration: no hookimpl option the facade doesn't honour, and
    no parameter with a default (pluggy would never pass it)."""
    for caller in pm.get_hookcallers(info.module) or ():
        for impl in caller.get_hookimpls():
            if impl.plugin is not info.module:
                continue
            where = (f"plugin {info.name!r} ({info.distribution or 'unknown distribution'}) "
                     f"hook {caller.name}")
            opts = [o for o in ("tryfirst", "trylast", "hookwrapper", "wrapper")
                    if getattr(impl, o, False)]
            if opts:
                pm.unregister(info.module)
                raise PluginLoadError(
                    f"{where} is marked {', '.join(opts)}: redzone calls every plugin in "
                    "order of plugin name and doesn't honour call-order options or "
                    "wrappers; remove the option",
                    plugin=info.name, distribution=info.distribution, hook=caller.name)
            try:
                params = inspect.signature(impl.function).parameters.values()
            except (TypeError, ValueError):  # pragma: no cover - builtins
                continue
            defaults = [p.name for p in params if p.default is not inspect.Parameter.empty]
            if defaults:
                pm.unregister(info.module)
                raise PluginLoadError(
                    f"{where} gives its parameter{'s' if len(defaults) > 1 else ''} "
                    f"{', '.join(defaults)} a default: hook parameters never have "
                    "defaults (pluggy wouldn't pass them); remove the default",
                    plugin=info.name, distribution=info.distribution, hook=caller.name)


def suggest(word: str, options: Iterable[str]) -> list[str]:
    """Close matches for ``word`` among ``options``."""
    return difflib.get_close_matches(word, list(options), n=3, cutoff=0.6)
