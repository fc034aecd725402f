"""Loading plugins: discovery, registration, keyword forms and load-time checks.

What :func:`discover` does is listed in :mod:`redzone.kernel.plugins`; this
module also registers plugins with a :class:`pluggy.PluginManager`
(:func:`make_manager`, refusing what redzone wouldn't honour), parses printed
keywords against the declared forms (:class:`Keywords`) and checks what
plugins declare as they load: keyword forms, action kinds and combat damage
steps.
"""

from __future__ import annotations

import functools
import inspect
import re
import types
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, cast

import pluggy
from attrs import frozen

from redzone.kernel import entrypoints as _entrypoints
from redzone.kernel import events as _events
from redzone.kernel import hookspecs
from redzone.kernel import index as _index
from redzone.kernel.action_kinds import PLUGIN as KERNEL_ACTIONS
from redzone.kernel.action_kinds import ActionTable, is_kernel_kind
from redzone.kernel.errors import (
    PluginError,
    PluginLoadError,
    UnknownKeywordError,
    close_matches,
)
from redzone.kernel.hooktypes import (
    MAX_KEYWORD_NUMBER,
    MAX_KEYWORD_TEXT,
    REGULAR_DAMAGE_STEP,
    Action,
    ActionSpec,
    DamageStep,
    KeywordSpec,
    compile_form,
)
from redzone.kernel.model import Keyword

#: The entry-point group plugins are found in.
GROUP: Final = "redzone"
#: The distribution that ships the built-in keywords.
BUILTIN_DISTRIBUTION: Final = "redzone"


#: A plugin's module before it is imported.
_UNLOADED: Final = object()


class PluginInfo:
    """A registered plugin.

    :param name: the name it is registered under (its entry-point name).
    :param module: the plugin object (usually a module).
    :param distribution: the distribution that provides it ("" if unknown).
    :param version: that distribution's version ("" if unknown).

    A plugin found by discovery that its package's index declares
    (:mod:`redzone.kernel.index`) is not imported yet: :attr:`module`
    imports it when first read (:attr:`declared` holds what the index says
    it implements and declares).
    """

    __slots__ = ("_module", "declared", "distribution", "entry", "name", "version")

    def __init__(self, name: str, module: object, distribution: str = "",
                 version: str = "") -> None:
        self.name = name
        self._module = module
        self.distribution = distribution
        self.version = version
        #: The entry point it is imported from, while it is not imported.
        self.entry: _entrypoints.EntryPoint | None = None
        #: What its package's index declares of it: its hooks and keywords
        #: (``None``: no index; it is imported as it is found).
        self.declared: Declared | None = None

    @classmethod
    def pending(cls, name: str, entry: _entrypoints.EntryPoint, distribution: str,
                version: str, declared: Declared) -> PluginInfo:
        """A plugin found through ``entry`` and declared by its package's
        index, not imported until its module is first read."""
        info = cls(name, _UNLOADED, distribution, version)
        info.entry = entry
        info.declared = declared
        return info

    @property
    def module(self) -> object:
        """The plugin object, imported (from :attr:`entry`) when first read.

        :raises PluginLoadError: when it fails to import.
        """
        module = self._module
        if module is _UNLOADED:
            assert self.entry is not None
            module = self._module = _load_entry(self.name, self.entry, self.distribution)
        return module

    @property
    def imported(self) -> bool:
        """Whether :attr:`module` has been imported (or was given)."""
        return self._module is not _UNLOADED

    def _key(self) -> tuple[object, ...]:
        """What tells two records apart: the name, distribution, version and
        the entry point's value (or, for a plugin given as an object, its
        identity); never changed by the import."""
        target = self.entry.value if self.entry is not None else id(self._module)
        return (self.name, target, self.distribution, self.version)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PluginInfo):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        module = repr(self._module) if self._module is not _UNLOADED else (
            f"<not imported: {self.entry.value if self.entry is not None else ''}>")
        return (f"PluginInfo(name={self.name!r}, module={module}, "
                f"distribution={self.distribution!r}, version={self.version!r})")


#: What a package's index declares of one plugin module
#: (:data:`redzone.kernel.index.Declared`).
Declared = _index.Declared


def _load_entry(name: str, ep: _entrypoints.EntryPoint, dist: str) -> object:
    """Import the plugin ``name`` from its entry point.

    :raises PluginLoadError: naming the plugin and its distribution.
    """
    try:
        return ep.load()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit at import is the plugin's fault too
        raise PluginLoadError(
            f"plugin {name!r} from distribution {dist!r} failed to load "
            f"({ep.value}): {type(exc).__name__}: {exc}",
            plugin=name,
            distribution=dist,
        ) from exc


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
    """Find the plugins of the ``redzone`` entry-point group, and import
    those their package's index doesn't declare (:mod:`redzone.kernel.index`;
    a declared one is imported when its :attr:`PluginInfo.module` is first
    read, which an engine does when one of its keywords first appears).

    :param block: plugin names never to load.
    :param allow: if given, the only plugin names to load.
    :returns: the plugins, sorted by name.
    :raises PluginLoadError: when two distributions claim one name, a
        plugin fails to import (naming the plugin and its distribution), or
        a package's index is malformed.
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
        declared = _index.declared(ep)
        if declared is not None:
            plugins.append(PluginInfo.pending(name, ep, dist, version, declared))
            continue
        plugins.append(PluginInfo(name, _load_entry(name, ep, dist), dist, version))
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
def _family(form: str) -> str:
    """An inert keyword's family name: the text before its first parameter
    ("hexproof from {quality}" is a hexproof)."""
    return form.split(" {")[0].removesuffix(" from").removesuffix(" for")


_INERT_NAMES: Final = frozenset(_family(form) for form in INERT_KEYWORDS)


@functools.cache
def _inert_forms() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each inert keyword's family and parser (compiled when a keyword no
    plugin declares is first parsed, not as every engine's start imports
    this module)."""
    return tuple((_family(form), compile_form(form)) for form in INERT_KEYWORDS)


def _inert(norm: str) -> Keyword | None:
    for family, regex in _inert_forms():
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


_FILLERS: Final = {"number": "1", "colour": "red", "word": "x", "words": "x", "quality": "x",
                   "cost": "{1}"}


def _fill(form: str, value: str | None) -> str:
    return re.sub(r"\{([a-z]+)\}",
                  lambda m: value if value is not None else _FILLERS[m.group(1)], form)


#: A parameter slot of a keyword form.
_SLOT_TEXT: Final = re.compile(r"\{[a-z]+\}")


@functools.cache
def _overlap(specs: tuple[tuple[str, str, tuple[str, ...], str], ...]
             ) -> tuple[str, str, str] | None:
    """Two keyword forms that both match one text, and that text, or ``None``.

    Each spec is ``(name, form, examples, package)``: two forms of one
    package's plugin index (``package`` not empty) are not tried against each
    other here, since that index's own check does it
    (:func:`redzone.testing.check_index`), so that an engine of indexed
    plugins compiles no form as it starts.

    Each form is tried on the other's examples, on its own form with every
    parameter filled with a plain value, and with each parameter filled with
    the other's literal text and examples (which finds ``{words}walk``
    against ``protection from {quality}``).

    What a form contributes to the tries is worked out once per form, and
    each form's answer for a text once per text: the same tries, in the same
    order, as trying every pair afresh."""
    compiled: dict[int, tuple[str, Callable[[str], re.Match[str] | None], list[str],
                              list[str], list[str], str, dict[str, bool]]] = {}

    def made(i: int) -> tuple[str, Callable[[str], re.Match[str] | None], list[str],
                              list[str], list[str], str, dict[str, bool]]:
        found = compiled.get(i)
        if found is None:
            name, form, examples, _package = specs[i]
            parts = _SLOT_TEXT.split(form)
            normal = [_normalise(e) for e in examples]
            own = {p.strip() for p in parts if p.strip()} | set(normal)
            found = compiled[i] = (name, compile_form(form).fullmatch, parts, normal,
                                   sorted(own), _fill(form, None), {})
        return found

    for i, first in enumerate(specs):
        for j in range(i + 1, len(specs)):
            if first[3] and first[3] == specs[j][3]:
                continue
            name_a, match_a, parts_a, ex_a, back, plain_a, seen_a = made(i)
            name_b, match_b, parts_b, ex_b, pieces, plain_b, seen_b = made(j)
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


def overlap(specs: Iterable[KeywordSpec]) -> tuple[str, str, str] | None:
    """Two of ``specs`` whose forms both match one text, and that text
    (their names first), or ``None``: every pair is tried."""
    return _overlap(tuple(sorted((s.name, s.form, s.examples, "") for s in specs)))


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())




def make_manager(
    plugins: Sequence[object | PluginInfo],
) -> tuple[pluggy.PluginManager, dict[str, PluginInfo]]:
    """A plugin manager with the hookspecs and ``plugins`` registered; a
    plugin its package's index declares and that isn't imported yet is
    recorded, not registered (:mod:`redzone.kernel._lazy` registers it when
    the engine first needs it).

    :param plugins: modules or objects with hookimpls, or :class:`PluginInfo`.
    :raises PluginLoadError: when a plugin's hookimpls don't match the specs.
    """
    pm = new_manager()
    infos: dict[str, PluginInfo] = {}
    for item in plugins:
        if isinstance(item, PluginInfo):
            info = item
        else:
            dist, version = _distribution_of(item)
            info = PluginInfo(plugin_name(item), item, dist, version)
        if info.name in infos:
            if infos[info.name] is info or infos[info.name].module is info.module:
                continue
            raise PluginLoadError(f"two plugins are named {info.name!r}", plugin=info.name)
        infos[info.name] = info
        if info.imported or info.declared is None:
            register(pm, info)
    check_pending(pm)
    return pm, infos


#: What a module attribute must be for pluggy to take it as a hook
#: implementation or specification (pluggy's own static lookup accepts these).
_HOOKABLE: Final = (types.FunctionType, types.MethodType, staticmethod, classmethod)


def _module_opts(module: object, name: str, marker: str) -> dict[str, Any] | bool | None:
    """The options ``marker`` gives the attribute ``name`` of a plain module,
    as pluggy's static lookup finds them: ``None`` for an attribute that is
    no hook, the options of a plain function, or ``True`` when pluggy must
    look (a method or a static or class method object at module level, or a
    module of a subclass of :class:`types.ModuleType`, whose type may hold
    descriptors)."""
    if type(module) is not types.ModuleType:
        return True
    value = module.__dict__.get(name)
    if type(value) is types.FunctionType:
        # (A module's type holds no descriptor of a name in its namespace:
        # the static lookup finds this function, unbound.)
        opts = getattr(value, marker, None)
        return opts if isinstance(opts, dict) else None
    return True if isinstance(value, _HOOKABLE) else None


class _Manager(pluggy.PluginManager):
    """pluggy's plugin manager, reading a plain module's functions itself.

    pluggy finds hooks statically (:func:`inspect.getattr_static`, so that no
    descriptor of a plugin runs), which walks the module's type for each name
    the module has: most of the cost of registering a plugin module, and of
    building an engine in a process that has built one before. A plain
    module's attribute is its namespace's value (its type holds no
    descriptor of a name in it), so a function there is what the static
    lookup finds, and an attribute that is no function or method is no hook;
    every other attribute, and every plugin that is not a plain module, is
    pluggy's to look at (``tests/test_plugin_manager.py`` checks that every
    built-in plugin, the hookspecs and plugins of each kind get pluggy's
    own answers).
    """

    def parse_hookimpl_opts(self, plugin: object, name: str
                            ) -> pluggy.HookimplOpts | None:
        opts = _module_opts(plugin, name, _MARKER)
        if opts is True:
            return super().parse_hookimpl_opts(plugin, name)
        return cast("pluggy.HookimplOpts | None", opts)

    def parse_hookspec_opts(self, module_or_class: types.ModuleType | type, name: str
                            ) -> pluggy.HookspecOpts | None:
        opts = _module_opts(module_or_class, name, _SPEC_MARKER)
        if opts is True:
            return super().parse_hookspec_opts(module_or_class, name)
        return cast("pluggy.HookspecOpts | None", opts)


def new_manager() -> pluggy.PluginManager:
    """An empty plugin manager with redzone's hookspecs."""
    pm = _Manager(GROUP)
    pm.add_hookspecs(hookspecs)
    return pm


def register(pm: pluggy.PluginManager, info: PluginInfo) -> None:
    """Register ``info``'s plugin with ``pm``, checked before and after.

    :raises PluginLoadError: when its hookimpls don't match the specs or use
        options redzone doesn't honour.
    """
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
    _check_registered(pm, info)


def check_pending(pm: pluggy.PluginManager) -> None:
    """Every implementation ``pm`` holds names a hook.

    :raises PluginLoadError: naming the one that doesn't.
    """
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginLoadError(f"a plugin implements a hook that does not exist: {exc}") from exc


_MARKER: Final = f"{GROUP}_impl"
_SPEC_MARKER: Final = f"{GROUP}_spec"
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
    return close_matches(word, options)


def check_policy(policy: str) -> None:
    """Refuse an unknown-keyword policy that isn't one of :data:`UNKNOWN_KEYWORD_POLICIES`.

    :raises ValueError: naming the policies.
    """
    if policy not in UNKNOWN_KEYWORD_POLICIES:
        raise ValueError(f"unknown_keywords must be one of "
                         f"{', '.join(map(repr, UNKNOWN_KEYWORD_POLICIES))}, not {policy!r}")


class _Answer(Protocol):
    """What the loaders need of an implementation that answered."""

    @property
    def plugin(self) -> PluginInfo: ...


#: Makes the error for a plugin's wrong answer (``Calls.fail``).
_Fail = Callable[[Any, str, Any, Any, str], PluginError]


class Keywords:
    """The printed keywords an engine accepts, and their parse.

    :param infos: the keywords the plugins declare, by name.
    :param policy: the engine's unknown-keyword policy (one of
        :data:`UNKNOWN_KEYWORD_POLICIES`).
    """

    def __init__(self, infos: Mapping[str, KeywordInfo], policy: str) -> None:
        check_policy(policy)
        self.infos = infos
        self.policy = policy
        self._cache: dict[str, Keyword] = {}

    def parse(self, text: str | Keyword, unknown: str | None = None,
              suggest: bool = True) -> Keyword:
        """See :meth:`redzone.kernel.plugins.Hooks.parse_keyword`."""
        policy = self.policy if unknown is None else unknown
        if isinstance(text, Keyword):
            known = self.infos.get(text.name)
            if known is not None or policy == "inert":
                again = self.parse(text.text, policy, suggest) if type(
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
        key = text if policy == self.policy else f"{policy}\0{text}"
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if len(text) > MAX_KEYWORD_TEXT:
            raise UnknownKeywordError(text[:40] + "...", reason=f"longer than "
                                      f"{MAX_KEYWORD_TEXT} characters")
        norm = _normalise(text)
        matches = []
        for info in self.infos.values():
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
                names = list(self.infos) + [
                    e for i in self.infos.values() for e in i.spec.examples
                ]
                close = close_matches(norm, names)
            raise UnknownKeywordError(text, close)
        if len(matches) > 1:  # pragma: no cover - forms are checked for overlap at load
            raise UnknownKeywordError(
                f"{text} (ambiguous: {', '.join(m.name for m in matches)})"
            )
        if len(self._cache) < 10_000:
            self._cache[key] = matches[0]
        return matches[0]

    def is_inert_name(self, name: str) -> bool:
        """Whether ``name`` is a known non-combat keyword (:data:`INERT_KEYWORDS`)
        that no loaded plugin declares."""
        return name not in self.infos and name in _INERT_NAMES


def load_keywords(answers: Iterable[tuple[_Answer, Any]], fail: _Fail) -> dict[str, KeywordInfo]:
    """The keywords ``redzone_keywords`` answered, by name.

    :raises PluginError: naming a plugin that answered what isn't keyword specs.
    :raises PluginLoadError: when a spec is wrong, two plugins declare one
        name, or two forms match one text.
    """
    infos: dict[str, KeywordInfo] = {}
    #: The package whose index declares each indexed plugin.
    packages: dict[str, str] = {}
    hook = "redzone_keywords"
    for impl, res in answers:
        if impl.plugin.declared is not None and impl.plugin.entry is not None:
            packages[impl.plugin.name] = _index.package_of(impl.plugin.entry.value)
        if isinstance(res, (str, bytes)) or not isinstance(res, Iterable):
            raise fail(impl, hook, None, None,
                       f"returned {res!r} where an iterable of KeywordSpec was expected")
        for spec in res:
            if type(spec) is not KeywordSpec:
                raise fail(impl, hook, None, None,
                           f"returned {spec!r} where a KeywordSpec was expected")
            problem = spec.problem()
            if problem is not None:
                err = fail(impl, hook, None, None,
                           f"declares keyword {spec.name!r} whose {problem}")
                raise PluginLoadError(str(err), plugin=err.plugin,
                                      distribution=err.distribution, hook=err.hook)
            prior = infos.get(spec.name)
            if prior is not None:
                raise PluginLoadError(
                    f"keyword {spec.name!r} is declared by two plugins: "
                    f"{prior.plugin!r} and {impl.plugin.name!r}",
                    plugin=impl.plugin.name,
                    distribution=impl.plugin.distribution,
                    hook=hook,
                )
            infos[spec.name] = KeywordInfo(
                spec, impl.plugin.name, impl.plugin.distribution, impl.plugin.version
            )
    clash = _overlap(tuple(sorted((i.spec.name, i.spec.form, i.spec.examples,
                                   packages.get(i.plugin, "")) for i in infos.values())))
    if clash is not None:
        first, second, text = clash
        a, b = infos[first], infos[second]
        raise PluginLoadError(
            f"the keyword forms of plugin {a.plugin!r} ({a.spec.name!r}: {a.spec.form!r}) "
            f"and plugin {b.plugin!r} ({b.spec.name!r}: {b.spec.form!r}) both match "
            f"{text!r}: a printed keyword must belong to one plugin; block one of them",
            plugin=b.plugin, distribution=b.distribution, hook=hook)
    return dict(sorted(infos.items()))


def load_actions(declared: Iterable[tuple[_Answer, Sequence[ActionSpec]]]) -> ActionTable:
    """The action kinds an engine knows: the kernel's (by name,
    :mod:`redzone.kernel.action_kinds`) and those ``redzone_actions``
    declared (each plugin's answer already checked to be action specs), by
    ``do`` name, with their plugin.

    :raises PluginLoadError: when a kind isn't an :class:`Action` subclass
        with a ``do`` name and a callable ``apply``, or two plugins (or a
        plugin and the kernel) declare it.
    """
    found: dict[str, tuple[ActionSpec, str]] = {}
    for impl, specs in declared:
        for spec in specs:
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
            if do in found or is_kernel_kind(do):
                first = found[do][1] if do in found else KERNEL_ACTIONS
                raise PluginLoadError(
                    f"the action {do!r} is declared by two plugins: {first!r} and "
                    f"{impl.plugin.name!r}; block one of them", plugin=impl.plugin.name,
                    distribution=impl.plugin.distribution)
            found[do] = (spec, impl.plugin.name)
    return ActionTable(found)


def load_damage_steps(declared: Iterable[tuple[_Answer, Sequence[DamageStep]]]
                      ) -> dict[str, DamageStep]:
    """The combat damage steps (the kernel's regular one and those
    ``redzone_damage_steps`` declared, each plugin's answer already checked
    to be steps), in order, by name.

    :raises PluginLoadError: when a step's name or order is wrong, or two
        declarations disagree or share an order.
    """
    hook = "redzone_damage_steps"
    found: dict[str, tuple[DamageStep, str]] = {
        REGULAR_DAMAGE_STEP.name: (REGULAR_DAMAGE_STEP, "the kernel")}
    for impl, specs in declared:
        for spec in specs:
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


def load_event_kinds(declared: Iterable[tuple[_Answer, Sequence[_events.EventKind]]],
                     keywords: Mapping[str, Any]) -> dict[str, _events.EventKind]:
    """Every event kind: the kernel's and those ``redzone_event_kinds``
    declared (each plugin's answer already checked to be kinds), by name;
    the plugins' are added to the vocabulary every rendering reads
    (:func:`redzone.kernel.events.register`), and each keyword's name is
    given to its rule for the reasons that cite it (704.5h).

    :raises PluginLoadError: when a plugin declares a kind differently from
        the kernel or another plugin.
    """
    hook = "redzone_event_kinds"
    for info in keywords.values():
        _events.name_rule(info.spec.rule, info.spec.name)
    found = {kind.name: kind for kind in _events.KERNEL_KINDS}
    for impl, kinds in declared:
        name = impl.plugin.name
        try:
            _events.register(kinds, f"plugin {name!r}")
        except ValueError as exc:
            raise PluginLoadError(str(exc), plugin=name,
                                  distribution=impl.plugin.distribution, hook=hook) from None
        for kind in kinds:
            found.setdefault(kind.name, kind)
    return found
