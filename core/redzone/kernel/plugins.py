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
6. import each module and register it under its entry-point name, except
   those their package's plugin index declares (:mod:`redzone.kernel.index`):
   an engine imports and registers one of those when it first needs it
   (:mod:`redzone.kernel._lazy`), with the answers it would have had had it
   been imported at once.

Nothing is loaded at import time and nothing is global: each
:class:`~redzone.Engine` owns one :class:`pluggy.PluginManager`. Core code never
calls ``pm.hook`` directly; it calls :class:`Hooks`, which calls each
implementation itself, in order of plugin name, so that results never depend on
registration order and a failing plugin is named in the error.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final, TypeVar

import pluggy

from redzone.kernel import _calling, _checks, _gates, _lazy, _loading, _static
from redzone.kernel import abilities as _abilities
from redzone.kernel import answers as _answers_check
from redzone.kernel._calling import Impl
from redzone.kernel._gates import whole_board
from redzone.kernel._loading import (
    BUILTIN_DISTRIBUTION,
    GROUP,
    INERT_KEYWORDS,
    UNKNOWN_KEYWORD_POLICIES,
    KeywordInfo,
    PluginInfo,
    discover,
    entry_points,
    make_manager,
    plugin_name,
    suggest,
)
from redzone.kernel._loading import (
    _distribution_of as _distribution_of,
)
from redzone.kernel._static import dynamic
from redzone.kernel.errors import PluginError, Violation
from redzone.kernel.events import Event, EventKind
from redzone.kernel.hookspecs import hookimpl
from redzone.kernel.hooktypes import (
    Action,
    ActionSpec,
    ActivatedAbility,
    Damage,
    DamageModifier,
    DamageStep,
    DestructionReplacement,
    Prevention,
    Redirection,
    Result,
    ResultReplacement,
    SourceAssignment,
    StateBasedAction,
)
from redzone.kernel.model import Choice, Condition, GameState, Keyword, PluginState, Trigger
from redzone.kernel.requirements import Requirement

__all__ = [
    "BUILTIN_DISTRIBUTION", "GROUP", "INERT_KEYWORDS", "UNKNOWN_KEYWORD_POLICIES", "Hooks",
    "KeywordInfo", "PluginInfo", "discover", "dynamic", "entry_points", "hookimpl", "make_manager",
    "plugin_name", "suggest", "target_violations", "verify_default", "whole_board",
]


if TYPE_CHECKING:
    from redzone.kernel import _verify


def verify_default() -> bool:
    """Whether verify mode is on when an engine doesn't say: the
    ``REDZONE_VERIFY`` environment variable is ``"1"`` (CI's verify pass of
    the test suite sets it)."""
    return os.environ.get("REDZONE_VERIFY", "") == "1"


def _verifier(calls: _calling.Calls, plain: _calling.Loop) -> _verify.Verifier:
    """Verify mode's watch over the call loop ``plain``; its fingerprinting
    (pickle) is imported by an engine in verify mode only."""
    from redzone.kernel import _verify

    return _verify.Verifier(calls, plain)


T = TypeVar("T")
_E = TypeVar("_E", bound=PluginError)
_SEQUENCES: Final = frozenset({list, tuple})


class Hooks:
    """The typed facade over every hook.

    Each method asks every plugin that implements the hook, in order of plugin
    name, through the one call loop (:mod:`redzone.kernel._calling`), and
    combines and checks the answers as the hook's documentation says. A plugin
    that raises or answers with the wrong type becomes a :class:`PluginError`
    naming the plugin, its distribution, the hook and the step. Loading
    (:mod:`~redzone.kernel._loading`), verify mode (:mod:`~redzone.kernel._verify`),
    gates (:mod:`~redzone.kernel._gates`) and static answers
    (:mod:`~redzone.kernel._static`) live in their own modules.
    """

    def __init__(self, pm: pluggy.PluginManager, infos: Mapping[str, PluginInfo],
                 timeout: float | None = None, verify: bool | None = None,
                 unknown_keywords: str = "error") -> None:
        _loading.check_policy(unknown_keywords)
        self.timeout = timeout
        #: Fingerprint every hook call's arguments before and after it and
        #: fail the plugin that changed them (``None``: the ``REDZONE_VERIFY``
        #: environment variable decides, ``"1"`` turning it on).
        self.verify = verify_default() if verify is None else bool(verify)
        self.unknown_keywords = unknown_keywords
        #: The keyword records found equal to the parse of their text (see
        #: :func:`~redzone.kernel.context.engine_honours`).
        self.keywords_verified: set[Keyword] = set()
        #: What a state this plugin set honours notes (one object per plugin
        #: set: it pickles as another, so an unpickled state is checked again).
        self.honour_mark = object()
        self._calls = calls = _calling.Calls(infos)
        self._fail = calls.fail
        self._cache = _calling.implementations(pm, infos)
        self.pending = _lazy.Pending(pm, infos, self._cache)  # adds the stand-ins
        self._gated_hooks: frozenset[str] = frozenset()  # loading hooks are never gated
        self._check = _checks.Checks(calls, self._cache, self._answers)
        #: Whether some implementation answers ``True``; every one's items, concatenated.
        self._any, self._collect = self._check.any, self._check.collect
        # The one loop, wrapped (not branched) by what this engine adds to a call.
        self._plain = self._loop = calls.loop()
        if timeout is not None:
            self._loop = calls.timed(self._loop, timeout)
        unwatched = self._loop
        self._verifier = _verifier(calls, self._plain) if self.verify else None
        if self._verifier is not None:
            self._loop = self._verifier.wrap(self._loop)
        self.keyword_infos = _loading.load_keywords(self._answers("redzone_keywords", ()),
                                                    self._fail)
        self._keywords = _loading.Keywords(self.keyword_infos, unknown_keywords)
        self.action_specs = self._check.action_specs = _loading.load_actions(
            self._declared("redzone_actions", ActionSpec))
        self.activated_abilities = _abilities.load_abilities(
            self._declared("redzone_activated_abilities", ActivatedAbility))
        self.damage_step_specs = _loading.load_damage_steps(
            self._declared("redzone_damage_steps", DamageStep))
        self.event_kinds = _loading.load_event_kinds(
            self._declared("redzone_event_kinds", EventKind), self.keyword_infos)
        # Verify mode asks the implementations the gates keep out too, to fail one that answers.
        self._gates = _gates.Gates(self._cache, self.keyword_infos,
                                   everyone=self._verifier is not None,
                                   loaded=self.pending.loaded)
        self._gated_hooks = self._gates.filtered
        if self._verifier is not None:
            self._loop = self._gates.checked(self._loop, unwatched, calls,
                                             self.pending.kept_silent, self.pending.loaded)
        #: The hooks nobody would be asked about (:meth:`redzone.kernel._gates.Gates.silent`).
        self.silent = self._gates.silent
        self._through = self._gates.through
        self.static_answers = _static.StaticAnswers(self._cache, self._gates, calls,
                                                    self._plain, self.verify, self.pending)

    def _declared(self, hook: str, kind: type[T]) -> list[tuple[Impl, list[T]]]:
        """What each plugin declares as it loads, its container checked."""
        return [(impl, self._check.items(impl, hook, None, res, kind))
                for impl, res in self._answers(hook, ())]

    def _answers(self, hook: str, args: tuple[Any, ...]) -> list[tuple[Impl, Any]]:
        """The answers of the implementations the gates let through, by the loop."""
        impls = self._cache[hook]
        if hook in self._gated_hooks:
            impls = self._through(hook, impls, args)
        return self._loop(hook, impls, args)

    # -- plumbing -------------------------------------------------------------

    def impls(self, hook: str) -> tuple[Impl, ...]:
        """The implementations of ``hook``, sorted by plugin name."""
        return self._cache[hook]

    def implemented(self, hook: str) -> bool:
        """Whether any plugin implements ``hook``."""
        return bool(self._cache[hook])

    def asks(self, hook: str, state: GameState) -> bool:
        """Whether an implementation of ``hook`` would be asked about ``state`` (gates let it)."""
        return hook not in self._gates.silent(state)

    def asks_about(self, hook: str, args: tuple[Any, ...]) -> bool:
        """:meth:`asks`, for a hook about objects (:data:`redzone.kernel._gates.ABOUT`)."""
        return self._gates.asks_about(hook, self._cache[hook], args)

    @functools.cached_property
    def keyword_names(self) -> frozenset[str]:
        """The names of the keywords the loaded plugins declare."""
        return frozenset(self.keyword_infos)

    def info(self, plugin: str) -> PluginInfo:
        """The registered plugin named ``plugin`` (a bare record for another name)."""
        return self._calls.info(plugin)

    def fault(self, plugin: str | PluginInfo, hook: str, state: GameState | None,
              problem: str) -> PluginError:
        """The :class:`PluginError` for a fault of ``plugin`` found outside a hook call
        (in what its answer asked): naming it, its distribution, ``hook``, rules, step."""
        info = plugin if isinstance(plugin, PluginInfo) else self.info(plugin)
        return self._fail(info, hook, state, None, problem)

    #: :func:`redzone.kernel._calling.vouch` and :func:`~redzone.kernel._calling.triaged`.
    vouch, triaged = staticmethod(_calling.vouch), staticmethod(_calling.triaged)

    def triage(self, plugin: PluginInfo | str, hook: str, state: GameState | None,
               exc: BaseException, *, doing: str = "") -> BaseException:
        """What an exception raised by plugin code becomes, the one triage of
        every place plugin code runs (:meth:`redzone.kernel._calling.Calls.triage`)."""
        return self._calls.triage(plugin, hook, state, exc, doing=doing)

    # -- verify mode ------------------------------------------------------------

    def state_print(self, state: GameState) -> bytes | str | None:
        """In verify mode, ``state``'s fingerprint, to compare after plugin code
        that isn't a hook call ran with it (an action kind's); else ``None``."""
        return None if self._verifier is None else self._verifier.fingerprint(state)

    def check_unchanged(self, plugin: str, hook: str, state: GameState,
                        before: bytes | str | None, doing: str) -> None:
        """In verify mode, fail ``plugin`` when ``state`` no longer matches
        ``before`` (:meth:`state_print`).

        :raises PluginError: naming the plugin."""
        if before is not None and self._verifier is not None:
            self._verifier.unchanged(state, before, lambda: self.fault(
                plugin, hook, state, f"changed the state it was given {doing} (verify mode "
                "compares it before and after)"))

    def command_started(self) -> None:
        """A command of the engine starts: in verify mode, what the last command's
        plugins did is checked (its bounds are its own: :class:`~redzone.kernel.answers.Spent`)."""
        if self._verifier is not None:
            self._verifier.pending()

    def command_finished(self) -> None:
        """A command of the engine is about to return its outcome: in verify
        mode, the watched state's containers and every part fingerprinted
        since the parts were last compared are compared (in C)."""
        if self._verifier is not None:
            self._verifier.parts(deep=False)

    def verify_pending(self, keep: bool = False, deep: bool = True) -> None:
        """In verify mode, :meth:`redzone.kernel._verify.Verifier.pending`.

        :raises PluginError: naming the plugin that changed the state.
        """
        if self._verifier is not None:
            self._verifier.pending(keep, deep)

    # -- keywords -------------------------------------------------------------

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
        return self._keywords.parse(text, unknown, suggest)

    def is_inert_name(self, name: str) -> bool:
        """Whether ``name`` is a known non-combat keyword (:data:`INERT_KEYWORDS`)
        that no loaded plugin declares."""
        return self._keywords.is_inert_name(name)

    # -- 508-510: declarations and assigning combat damage -------------------

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

    def keeps_tapped(self, state: GameState, permanent: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_keeps_tapped`: any ``True``."""
        return self._any("redzone_keeps_tapped", state, permanent)

    def attacks_without_tapping(self, state: GameState, attacker: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_attacks_without_tapping`: any ``True``."""
        return self._any("redzone_attacks_without_tapping", state, attacker)

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
        return self._collect("redzone_blocked_by_violations", Violation, state, attacker, blockers)

    def block_declaration_violations(self, state: GameState,
                                     blocks: Mapping[str, tuple[str, ...]]) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_block_declaration_violations`."""
        return self._collect("redzone_block_declaration_violations", Violation, state, blocks)

    def additional_blocks(self, state: GameState, blocker: str) -> int:
        """:func:`~redzone.kernel.hookspecs.redzone_additional_blocks`: summed."""
        total = 0
        for impl, res in self._answers("redzone_additional_blocks", (state, blocker)):
            total += self._check.expect(impl, "redzone_additional_blocks", state, res,
                                        type(res) is int and res >= 0, "a non-negative int")
        return total

    @_static.static("redzone_assigns_past_blockers")
    def assigns_past_blockers(self, state: GameState, attacker: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_assigns_past_blockers`: any ``True``."""
        return self._any("redzone_assigns_past_blockers", state, attacker)

    def additional_recipients(self, state: GameState, attacker: str) -> tuple[str, ...]:
        """:func:`~redzone.kernel.hookspecs.redzone_additional_recipients`: the union,
        sorted (the caller drops ids that can't be dealt damage)."""
        hook = "redzone_additional_recipients"
        return tuple(sorted({item for impl, res in self._answers(hook, (state, attacker))
                             for item in self._check.items(impl, hook, state, res, str)}))

    def damage_divider(self, state: GameState, creature: str) -> str | None:
        """:func:`~redzone.kernel.hookspecs.redzone_damage_divider`: the one answer."""
        found: dict[str, Impl] = {}
        for impl, res in self._answers("redzone_damage_divider", (state, creature)):
            self._check.expect(impl, "redzone_damage_divider", state, res,
                               type(res) is str and res in state.players, "a player id or None")
            found.setdefault(res, impl)
        if len(found) > 1:
            names = ", ".join(f"{i.plugin.name!r} says {p!r}" for p, i in sorted(found.items()))
            raise PluginError(f"plugins disagree on who divides the combat damage of {creature!r}: "
                              f"{names}", hook="redzone_damage_divider")
        return next(iter(found), None)

    @_static.static("redzone_lethal_damage")
    def lethal_damage(self, state: GameState, source: str, creature: str, base: int) -> int:
        """:func:`~redzone.kernel.hookspecs.redzone_lethal_damage`: the smallest of
        ``base`` and every answer, never below 0; static."""
        hook, value = "redzone_lethal_damage", base
        if hook not in self.silent(state):
            for impl, res in self._answers(hook, (state, source, creature)):
                value = min(value, self._check.whole(impl, hook, state, res))
        return max(value, 0)

    def assignment_violations(self, state: GameState,
                              assignment: SourceAssignment) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_assignment_violations`, concatenated."""
        return self._collect("redzone_assignment_violations", Violation, state, assignment)

    @_static.static("redzone_deals_combat_damage")
    def deals_combat_damage(self, state: GameState, creature: str, step: str) -> bool | None:
        """:func:`~redzone.kernel.hookspecs.redzone_deals_combat_damage`: ``False``
        if any says so, else ``True`` if any does, else ``None`` (the kernel's
        answer; at once when the gates let no implementation through); static."""
        hook, answer = "redzone_deals_combat_damage", None
        for impl, res in () if hook in self.silent(state) else self._answers(
                hook, (state, creature, step)):
            if res is False:
                return False
            answer = self._check.expect(impl, hook, state, res, res is True, "a bool or None")
        return answer

    def combat_damage_amount(self, state: GameState, creature: str, step: str) -> int | None:
        """:func:`~redzone.kernel.hookspecs.redzone_combat_damage_amount`: the
        smallest answer, or ``None`` when there is none."""
        hook = "redzone_combat_damage_amount"
        value: int | None = None
        if not self._cache[hook]:
            return value
        for impl, res in self._answers(hook, (state, creature, step)):
            res = self._check.whole(impl, hook, state, res)
            value = res if value is None else min(value, res)
        return value

    def may_assign_as_though_unblocked(self, state: GameState, attacker: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_may_assign_as_though_unblocked`: any."""
        return self._any("redzone_may_assign_as_though_unblocked", state, attacker)

    # -- 120, 704: damage, its replacement and state-based actions -----------

    def prevent_damage(self, state: GameState, damage: Damage,
                       batch: tuple[Damage, ...] = (), step: str = "") -> list[Prevention]:
        """:func:`~redzone.kernel.hookspecs.redzone_prevent_damage`, concatenated; a
        negative amount (which would add damage) is the plugin's error.
        ``batch`` defaults to ``damage`` alone and ``step`` to its step."""
        return self._collect("redzone_prevent_damage", Prevention, state, damage,
                             batch or (damage,), step or damage.step)

    def modify_damage(self, state: GameState, damage: Damage) -> list[DamageModifier]:
        """:func:`~redzone.kernel.hookspecs.redzone_modify_damage`, sorted by effect name."""
        mods = self._collect("redzone_modify_damage", DamageModifier, state, damage)
        if len(mods) < 2:
            return mods
        return sorted(set(mods), key=lambda m: (m.effect, m.rule, m.multiply, m.add))

    @_static.static("redzone_damage_results")
    def damage_results(self, state: GameState, damage: Damage) -> list[Result]:
        """:func:`~redzone.kernel.hookspecs.redzone_damage_results`, concatenated."""
        return self._collect("redzone_damage_results", Result, state, damage)

    def result_replacements(self, state: GameState, result: Result) -> list[ResultReplacement]:
        """:func:`~redzone.kernel.hookspecs.redzone_result_replacements`, sorted by name."""
        hook = "redzone_result_replacements"
        unique: dict[tuple[str, str], ResultReplacement] = {}
        for impl, res in self._answers(hook, (state, result)) if self._cache[hook] else ():
            for item in self._check.items(impl, hook, state, res, ResultReplacement):
                unique[(item.effect, item.rule)] = item.evolve(
                    replace=self._check.guard_replace(impl, item, self._loop))
        return [unique[k] for k in sorted(unique)]

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
        found: dict[tuple[str, str, str], Redirection] = {}
        for impl, res in self._answers(hook, (state, damage)):
            for item in self._check.items(impl, hook, state, res, Redirection):
                if type(item.to) is not str or type(item.effect) is not str:
                    raise self._fail(impl, hook, state, None,
                                     f"returned {_answers_check.shown(item)}: 'effect' and "
                                     "'to' must be ids (strings)")
                found[(item.effect, item.rule, item.to)] = item
        return [found[k] for k in sorted(found)]

    def state_based_actions(self, state: GameState) -> list[StateBasedAction]:
        """:func:`~redzone.kernel.hookspecs.redzone_state_based_actions`, concatenated."""
        return self._collect("redzone_state_based_actions", StateBasedAction, state)

    def permanent_state_based_actions(self, state: GameState, permanents: Iterable[str]
                                      ) -> list[StateBasedAction]:
        """:func:`~redzone.kernel.hookspecs.redzone_permanent_state_based_actions`
        about ``permanents`` (those that changed), concatenated."""
        return self._collect("redzone_permanent_state_based_actions", StateBasedAction, state,
                             tuple(permanents))

    def cannot_be_destroyed(self, state: GameState, permanent: str) -> bool:
        """:func:`~redzone.kernel.hookspecs.redzone_cannot_be_destroyed`: any ``True``."""
        return self._any("redzone_cannot_be_destroyed", state, permanent)

    # -- 603, 511: triggers and the end of combat ----------------------------

    def triggers(self, state: GameState, events: tuple[Event, ...],
                 spent: _answers_check.Spent) -> list[Trigger]:
        """:func:`~redzone.kernel.hookspecs.redzone_triggers`, concatenated.

        At most :data:`~redzone.kernel.answers.MAX_TRIGGERS` abilities trigger
        during one command, else an ability triggering on its own resolution
        loops for ever (the plugin answering the most in the last call is named).

        :param spent: the command's own count, which this call adds to (and
            sets the plugins whose abilities triggered on).
        """
        hook, found, triggering = "redzone_triggers", list[Trigger](), list[str]()
        if not self._cache[hook]:
            return found
        most: tuple[int, Impl] | None = None
        for impl, res in _asking(self, hook, (state, events)):  # 603.3d: targets chosen
            items = self._check.triggers(impl, hook, state, res)
            if items:
                found.extend(items)
                triggering.append(impl.plugin.name)
                most = (len(items), impl) if most is None or len(items) > most[0] else most
        spent.triggering = tuple(triggering)
        spent.triggered += len(found)
        if most is not None and spent.triggered > _answers_check.MAX_TRIGGERS:
            raise self._calls.bound_fail(
                most[1], hook, state, "triggers", _answers_check.MAX_TRIGGERS,
                f"made more than {_answers_check.MAX_TRIGGERS} abilities trigger in one command "
                "(an ability that triggers on its own resolution loops for ever)")
        return found

    def resolve_trigger(self, state: GameState, trigger: Trigger) -> list[tuple[str, Action]]:
        """:func:`~redzone.kernel.hookspecs.redzone_resolve_trigger`, concatenated:
        ``(plugin name, action)`` pairs, so that each action writes only its own plugin's state."""
        hook = "redzone_resolve_trigger"
        out: list[tuple[str, Action]] = []
        for impl, res in _asking(self, hook, (state, trigger)):  # 608.2b: targets checked
            ok = not isinstance(res, (str, bytes)) and isinstance(res, Iterable)
            for item in self._check.expect(impl, hook, state, res, ok, "an iterable of actions"):
                self._check.action(impl, hook, state, item)
                out.append((impl.plugin.name, item))
        return out

    def trigger_choices(self, state: GameState, trigger: Trigger) -> list[tuple[str, Choice]]:
        """:func:`~redzone.kernel.hookspecs.redzone_trigger_choices`."""
        return self._choices("redzone_trigger_choices", state, trigger)

    def target_violations(self, state: GameState, source: str, target: str) -> list[Violation]:
        """:func:`~redzone.kernel.hookspecs.redzone_target_violations`, concatenated."""
        return self._collect("redzone_target_violations", Violation, state, source, target)

    def end_of_combat(self, state: GameState) -> None:
        """:func:`~redzone.kernel.hookspecs.redzone_end_of_combat`: notify every plugin."""
        self._answers("redzone_end_of_combat", (state,))

    # -- actions, durations, destruction, a plugin's own state ----------------

    def action_spec(self, action: object) -> tuple[ActionSpec, str] | None:
        """``action``'s kind's declaration and plugin (``None``: no plugin declares it)."""
        return self._check.action_spec(action)

    def condition_holds(self, state: GameState, condition: Condition) -> bool | None:
        """:func:`~redzone.kernel.hookspecs.redzone_condition_holds`: ``True`` if some plugin says
        so and none says ``False``; ``None`` when no plugin answers."""
        hook = "redzone_condition_holds"
        answers = [self._check.expect(impl, hook, state, res, type(res) is bool, "a bool or None")
                   for impl, res in self._answers(hook, (state, condition))]
        return all(answers) if answers else None

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
            for item in self._check.items(impl, hook, state, res, DestructionReplacement):
                self._check.actions(impl, hook, state, item.actions,
                                    f"destruction replacement {item.effect!r}")
                found.append((impl.plugin.name, item))
        return sorted(found, key=lambda r: (r[1].effect, r[1].rule))

    def record(self, state: GameState, events: tuple[Event, ...]) -> dict[str, PluginState]:
        """:func:`~redzone.kernel.hookspecs.redzone_record`: each plugin's new slot, by name."""
        return self._check.slots("redzone_record", state, events)

    def attack_choices(self, state: GameState,
                       attacks: Mapping[str, str]) -> list[tuple[str, Choice]]:
        """:func:`~redzone.kernel.hookspecs.redzone_attack_choices`: ``(plugin, choice)`` pairs."""
        return self._choices("redzone_attack_choices", state, attacks)

    def block_choices(self, state: GameState,
                      blocks: Mapping[str, tuple[str, ...]]) -> list[tuple[str, Choice]]:
        """:func:`~redzone.kernel.hookspecs.redzone_block_choices`."""
        return self._choices("redzone_block_choices", state, blocks)

    def _choices(self, hook: str, state: GameState, about: object) -> list[tuple[str, Choice]]:
        out: list[tuple[str, Choice]] = []
        if not self._cache[hook]:
            return out
        for impl, res in _asking(self, hook, (state, about)):  # options may be targets
            for item in self._check.items(impl, hook, state, res, Choice):
                self._check.choice(impl, hook, state, item, "")
                out.append((impl.plugin.name, item))
        return out


#: The hook facade of the engine asking the hooks in which plugins choose
#: and check targets (:func:`target_violations`), while it asks them.
_ASKING: Final[ContextVar[Hooks | None]] = ContextVar("redzone_asking", default=None)


def target_violations(state: GameState, source: str, target: str) -> list[Violation]:
    """Why an ability from ``source`` can't target ``target``, as the engine
    running this plugin code says: every
    :func:`~redzone.kernel.hookspecs.redzone_target_violations` answer of its
    plugins, concatenated (empty when it may; protection's 702.16b among them).

    For a plugin whose triggered abilities target: call it from its
    ``redzone_triggers`` to offer and default to legal targets only (603.3d),
    and from its ``redzone_resolve_trigger`` to leave a target that has become
    illegal unaffected (608.2b); ``redzone_attack_choices`` and
    ``redzone_block_choices`` may call it too. An action's perform function
    asks its engine's facade instead (``tx.hooks.target_violations``)::

        from redzone.kernel.plugins import target_violations

        options = [p.id for p in candidates
                   if not target_violations(state, source, p.id)]

    :param state: the state as the target is chosen, or as the ability resolves.
    :param source: the ability's source.
    :param target: the permanent or player it would target.
    :raises LookupError: outside those hooks (no engine is asking them).

    .. versionadded:: 0.1.0
    """
    hooks = _ASKING.get()
    if hooks is None:
        raise LookupError(
            "target_violations: no engine is asking (call it from a plugin's "
            "redzone_triggers, redzone_resolve_trigger, redzone_attack_choices or "
            "redzone_block_choices; an action's perform function asks "
            "tx.hooks.target_violations)")
    return hooks.target_violations(state, source, target)


def _asking(hooks: Hooks, hook: str, args: tuple[Any, ...]) -> list[tuple[Impl, Any]]:
    """``hooks``' answers to ``hook`` (:meth:`Hooks._answers`), asked with
    :func:`target_violations` asking ``hooks``: the hooks in which plugins
    choose targets (603.3d) and check them again (608.2b)."""
    token = _ASKING.set(hooks)
    try:
        return hooks._answers(hook, args)
    finally:
        _ASKING.reset(token)


def _requirement_key(r: Requirement) -> tuple[str, str, str, str, str]:
    return (r.creature, r.kind, r.attacker or "", r.rule, r.source)
