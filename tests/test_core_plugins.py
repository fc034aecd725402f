"""Plugin discovery, the plugin manager and the typed hook facade
(core/redzone/plugins.py): entry points deduped and sorted, block and allow
lists, explicit plugin lists, load errors naming the plugin and its
distribution, and PluginError for a plugin that raises, answers with the wrong
type or tries to change the frozen state."""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import attrs
import pytest
from redzone import (
    Action,
    Choice,
    Condition,
    DealDamage,
    Destroy,
    DestructionReplacement,
    Effect,
    Engine,
    Event,
    GameState,
    KeywordSpec,
    PluginError,
    PluginLoadError,
    Prevention,
    Pump,
    Result,
    ResultReplacement,
    RulesError,
    Trigger,
    UnknownKeywordError,
    Violation,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.kernel import entrypoints
from redzone.kernel.plugins import BUILTIN_DISTRIBUTION, GROUP, PluginInfo, discover, make_manager
from redzone.testing import plugin_module as plugin

#: The plugins every engine registers (the core's own, e.g. the scenario
#: format's game-wide effects).
CORE_PLUGINS = frozenset(Engine(discover=False).plugin_infos)

# ---------------------------------------------------------------------------
# Discovery through entry points
# ---------------------------------------------------------------------------


class FakeDist:
    def __init__(self, name: str, version: str = "1.0") -> None:
        self.name = name
        self.version = version


class FakeEntryPoint:
    """Quacks like redzone.kernel.entrypoints.EntryPoint."""

    def __init__(self, name: str, module: object | Exception, dist: str,
                 value: str | None = None) -> None:
        self.name = name
        self.group = GROUP
        self.value = value or f"{dist}_pkg.{name}"
        self.dist = FakeDist(dist)
        self._module = module
        self.loads = 0

    def load(self) -> object:
        self.loads += 1
        if isinstance(self._module, Exception):
            raise self._module
        return self._module


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> list[FakeEntryPoint]:
    """Replace the installed ``redzone`` entry points by a list the test fills
    (other groups still read the real ones)."""
    eps: list[FakeEntryPoint] = []
    real = entrypoints.entry_points

    def fake(group: str, path: Any = None) -> Any:
        if group == GROUP:
            return tuple(eps)
        return real(group, path)

    monkeypatch.setattr(entrypoints, "entry_points", fake)
    return eps


def keyword_plugin(name: str) -> types.ModuleType:
    return plugin(name, redzone_keywords=lambda: [KeywordSpec(name, "702.999")])


def test_discover_sorts_by_name(entry_points: list[FakeEntryPoint]) -> None:
    """DESIGN: entry-point order is undefined; plugins are sorted by name."""
    entry_points += [FakeEntryPoint("zeta", keyword_plugin("zeta"), "third"),
                     FakeEntryPoint("alpha", keyword_plugin("alpha"), "other")]
    found = discover()
    assert [(p.name, p.distribution, p.version) for p in found] == [
        ("alpha", "other", "1.0"), ("zeta", "third", "1.0")]


def test_discover_dedupes_one_distribution(entry_points: list[FakeEntryPoint]) -> None:
    """DESIGN: the same distribution and name seen twice (an editable install)
    loads once."""
    mod = keyword_plugin("alpha")
    entry_points += [FakeEntryPoint("alpha", mod, "pkg"), FakeEntryPoint("alpha", mod, "pkg")]
    assert [p.name for p in discover()] == ["alpha"]
    assert entry_points[0].loads == 1 and entry_points[1].loads == 0


def test_discover_refuses_two_distributions_for_one_name(
        entry_points: list[FakeEntryPoint]) -> None:
    """DESIGN: two distributions claiming one plugin name is a load error naming
    both; blocking the name (or not allowing it) resolves it."""
    entry_points += [FakeEntryPoint("alpha", keyword_plugin("alpha"), "one"),
                     FakeEntryPoint("alpha", keyword_plugin("alpha"), "two"),
                     FakeEntryPoint("beta", keyword_plugin("beta"), "one")]
    with pytest.raises(PluginLoadError) as info:
        discover()
    assert info.value.plugin == "alpha"
    assert "'one'" in str(info.value) and "'two'" in str(info.value)
    assert [p.name for p in discover(block=["alpha"])] == ["beta"]
    assert [p.name for p in discover(allow=["beta"])] == ["beta"]


def test_discover_block_and_allow(entry_points: list[FakeEntryPoint]) -> None:
    """DESIGN: block list, then allow list, by plugin name; an allowed name
    that isn't installed is an error; blocked plugins are never imported."""
    entry_points += [FakeEntryPoint(n, keyword_plugin(n), "pkg") for n in ("a", "b", "c")]
    assert [p.name for p in discover(block=["b"])] == ["a", "c"]
    assert entry_points[1].loads == 0
    assert [p.name for p in discover(allow=["c", "b"])] == ["b", "c"]
    assert [p.name for p in discover(allow=["c", "b"], block=["c"])] == ["b"]
    with pytest.raises(PluginLoadError, match="not installed: d"):
        discover(allow=["a", "d"])


def test_discover_load_error_names_plugin_and_distribution(
        entry_points: list[FakeEntryPoint]) -> None:
    """DESIGN: a plugin that fails to import is a PluginLoadError naming the
    plugin and its distribution, with the import error as its cause."""
    boom = ImportError("no module named 'broken_pkg'")
    entry_points.append(FakeEntryPoint("broken", boom, "broken-dist"))
    with pytest.raises(PluginLoadError) as info:
        discover()
    err = info.value
    assert (err.plugin, err.distribution) == ("broken", "broken-dist")
    assert "'broken'" in str(err) and "'broken-dist'" in str(err)
    assert err.__cause__ is boom
    assert isinstance(err, PluginError) and isinstance(err, RulesError)
    assert discover(block=["broken"]) == []


def test_engine_without_builtins_says_install_the_package(
        entry_points: list[FakeEntryPoint]) -> None:
    """DESIGN: discovery that finds no built-in keywords fails loudly."""
    with pytest.raises(PluginLoadError, match="install the package"):
        Engine()
    entry_points.append(FakeEntryPoint("third", keyword_plugin("third"), "someone-else"))
    with pytest.raises(PluginLoadError, match="install the package"):
        Engine()
    assert [k.spec.name for k in Engine(allow=["third"]).keywords()] == ["third"]


def test_engine_discovers_the_builtin_keywords() -> None:
    """DESIGN: the built-in keywords load through the entry-point group."""
    engine = Engine()
    infos = [i for name, i in engine.plugin_infos.items() if name not in CORE_PLUGINS]
    assert infos and all(i.distribution == BUILTIN_DISTRIBUTION for i in infos)
    for info in engine.keywords():
        assert info.distribution == BUILTIN_DISTRIBUTION
        # keywords (702), keyword actions (701: exert), ability words (207.2c: battalion)
        assert info.spec.rule.startswith(("702.", "701.")) or info.spec.rule == "207.2c"
    names = [i.name for i in infos]
    assert Engine(block=[names[0]]).plugin_infos.keys() == set(engine.plugin_infos) - {names[0]}
    assert set(Engine(allow=[names[0]]).plugin_infos) == {names[0], *CORE_PLUGINS}


def test_explicit_plugin_list_with_discovery_off() -> None:
    """DESIGN: an embedder's explicit, closed plugin set: nothing else is loaded
    (the core's own effects plugin aside)."""
    mine = keyword_plugin("mine")
    engine = Engine(discover=False, plugins=[mine])
    assert set(engine.plugin_infos) == {"mine", *CORE_PLUGINS}
    assert all(name.startswith("redzone.") for name in CORE_PLUGINS)
    assert [k.spec.name for k in engine.keywords()] == ["mine"]
    assert [(k.plugin, k.spec.rule) for k in engine.keywords()] == [("mine", "702.999")]
    with pytest.raises(UnknownKeywordError):
        engine.keyword("flying")
    assert f"plugins={1 + len(CORE_PLUGINS)}" in repr(engine)


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def test_unknown_hook_is_a_load_error() -> None:
    """A hookimpl for a hook that doesn't exist (a typo) fails loudly."""
    with pytest.raises(PluginLoadError, match="does not exist"):
        Engine(discover=False, plugins=[plugin("typo", redzone_can_blok=lambda: None)])


def test_hookimpl_with_unknown_parameter_names_the_plugin() -> None:
    """pluggy validation: a parameter the hook doesn't have names the plugin."""
    def redzone_lethal_damage(state: GameState, victim: str) -> int:
        return 1

    with pytest.raises(PluginLoadError) as info:
        Engine(discover=False, plugins=[plugin("badargs", redzone_lethal_damage=(
            redzone_lethal_damage))])
    assert info.value.plugin == "badargs"


def test_plugin_names_are_unique() -> None:
    """Two different plugins can't share a name; one plugin listed twice loads once."""
    one = keyword_plugin("same")
    with pytest.raises(PluginLoadError, match="two plugins are named 'same'"):
        make_manager([one, keyword_plugin("same")])
    _pm, infos = make_manager([one, one, PluginInfo("other", keyword_plugin("other"), "d", "2")])
    assert set(infos) == {"same", "other"}
    assert infos["other"].version == "2"


def test_keyword_declared_twice_is_a_load_error() -> None:
    """702.1: one keyword name, one plugin."""
    with pytest.raises(PluginLoadError) as info:
        Engine(discover=False, plugins=[
            plugin("first", redzone_keywords=lambda: [KeywordSpec("dup", "702.1")]),
            plugin("second", redzone_keywords=lambda: [KeywordSpec("dup", "702.1")])])
    assert "'first'" in str(info.value) and "'second'" in str(info.value)
    assert info.value.hook == "redzone_keywords"


def test_keywords_hook_wrong_answers() -> None:
    """redzone_keywords must answer KeywordSpecs."""
    def answering(value: object) -> Callable[[], object]:
        return lambda: value

    for bad in ("flying", [1], 5):
        with pytest.raises(PluginError) as info:
            Engine(discover=False, plugins=[plugin("bad", redzone_keywords=answering(bad))])
        assert info.value.plugin == "bad"
        assert "loading" in str(info.value)


def test_keyword_forms() -> None:
    """702.1 via KeywordSpec forms: case and spacing are normalised, typed
    parameters are the arguments; two plugins whose forms match one text are
    a load error naming both (issue 13: keyword authors)."""
    walk = plugin("walk", redzone_keywords=lambda: [
        KeywordSpec("landwalk", "702.14", form="{word}walk")])
    engine = Engine(discover=False, plugins=[walk])
    kw = engine.keyword("  ForestWalk ")
    assert (kw.name, kw.text, kw.args) == ("landwalk", "forestwalk", ("forest",))
    assert engine.keyword(kw) == kw
    with pytest.raises(UnknownKeywordError):
        engine.creature("x", "alice", 1, 1, "nothing-like-it")
    greedy = plugin("greedy", redzone_keywords=lambda: [
        KeywordSpec("sw", "702.1", form="sw{word}", examples=("swampwalk",))])
    with pytest.raises(PluginLoadError) as info:
        Engine(discover=False, plugins=[walk, greedy])
    assert "'walk'" in str(info.value) and "'greedy'" in str(info.value)
    assert "'swampwalk'" in str(info.value)


# ---------------------------------------------------------------------------
# The facade: order, failures, wrong types, frozen state
# ---------------------------------------------------------------------------


def test_implementations_called_in_plugin_name_order() -> None:
    """DESIGN: the facade calls implementations in order of plugin name, not in
    pluggy's last-registered-first order."""
    calls: list[str] = []

    def recorder(name: str) -> types.ModuleType:
        return plugin(name, redzone_attack_violations=lambda: calls.append(name))

    for order in (["b", "a", "c"], ["c", "b", "a"]):
        calls.clear()
        engine = Engine(discover=False, plugins=[recorder(n) for n in order])
        state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1)])
        engine.attack_violations(state, {"orc": "bob"})
        assert calls == ["a", "b", "c"]
        assert [i.plugin.name for i in engine.hooks.impls("redzone_attack_violations")
                if i.plugin.name not in CORE_PLUGINS] == ["a", "b", "c"]
        assert engine.hooks.implemented("redzone_attack_violations")
        assert not engine.hooks.implemented("redzone_may_assign_as_though_unblocked")


def test_generators_and_parameter_subsets() -> None:
    """Hookimpls may take any subset of the hook's parameters, by name, and may
    answer with any iterable, a generator included."""
    def redzone_block_violations(attacker: str, blocker: str) -> Iterator[Violation]:
        if attacker == "orc":
            yield Violation("509.1b", f"{blocker} can't block orc", (blocker, attacker))

    engine = Engine(discover=False, plugins=[plugin("gen", redzone_block_violations=(
        redzone_block_violations))])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1),
                                           creature("bear", "bob", 1, 1)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    assert [v.objects for v in engine.block_violations(state, {"bear": "orc"})] == [
        ("bear", "orc")]


def _scenario(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                          creature("bear", "bob", 2, 2)])


def _to_blocks(engine: Engine, state: GameState) -> GameState:
    return engine.declare_attackers(state, {"orc": "bob"}).state


def _to_damage(engine: Engine, state: GameState) -> GameState:
    return engine.declare_blockers(_to_blocks(engine, state), {"bear": "orc"}).state


#: hook -> (how to reach the state before the command, the command, its step)
TRIGGERS: dict[str, tuple[Callable[[Engine, GameState], GameState],
                          Callable[[Engine, GameState], Any], str]] = {
    "redzone_attack_violations": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "beginning_of_combat"),
    "redzone_attack_exemption": (lambda e, s: s.with_permanents({"orc": s.objects[
        "orc"].evolve(summoning_sick=True)}), lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "beginning_of_combat"),
    "redzone_attack_declaration_violations": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "beginning_of_combat"),
    "redzone_attacks_without_tapping": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "declare_attackers"),
    "redzone_keeps_tapped": (lambda e, s: e.resolve(s, {"orc": "bob"}, through="cleanup").state,
                             lambda e, s: e.untap_step(s, "alice"), "untap"),
    "redzone_block_violations": (_to_blocks, lambda e, s: e.declare_blockers(
        s, {"bear": "orc"}), "declare_attackers"),
    "redzone_blocked_by_violations": (_to_blocks, lambda e, s: e.declare_blockers(
        s, {"bear": "orc"}), "declare_attackers"),
    "redzone_block_declaration_violations": (_to_blocks, lambda e, s: e.declare_blockers(
        s, {"bear": "orc"}), "declare_attackers"),
    "redzone_additional_blocks": (_to_blocks, lambda e, s: e.declare_blockers(
        s, {"bear": "orc"}), "declare_attackers"),
    "redzone_deals_combat_damage": (_to_damage, lambda e, s: e.combat_damage(s),
                                    "declare_blockers"),
    "redzone_assigns_past_blockers": (_to_damage, lambda e, s: e.combat_damage(s),
                                      "declare_blockers"),
    "redzone_lethal_damage": (_to_damage, lambda e, s: e.combat_damage(s), "declare_blockers"),
    "redzone_assignment_violations": (_to_damage, lambda e, s: e.combat_damage(s),
                                      "declare_blockers"),
    "redzone_prevent_damage": (_to_damage, lambda e, s: e.combat_damage(s), "combat_damage"),
    "redzone_modify_damage": (_to_damage, lambda e, s: e.combat_damage(s), "combat_damage"),
    "redzone_damage_results": (_to_damage, lambda e, s: e.combat_damage(s), "combat_damage"),
    "redzone_result_replacements": (_to_damage, lambda e, s: e.combat_damage(s),
                                    "combat_damage"),
    "redzone_damage_event": (_to_damage, lambda e, s: e.combat_damage(s), "combat_damage"),
    "redzone_state_based_actions": (lambda e, s: s, lambda e, s: e.perform(
        s, DealDamage("orc", "bear", 1)), "main"),
    "redzone_permanent_state_based_actions": (lambda e, s: s, lambda e, s: e.perform(
        s, DealDamage("orc", "bear", 1)), "main"),
    "redzone_cannot_be_destroyed": (lambda e, s: s, lambda e, s: e.perform(
        s, DealDamage("orc", "bear", 2)), "main"),
    "redzone_end_of_combat": (lambda e, s: e.end_of_combat(e.declare_attackers(
        s, {}).state).state, lambda e, s: e.finish(s), "postcombat_main"),
}


def _restricted(blocker: str, attacker: str) -> list[Violation]:
    return [Violation("509.1b", "restricted", (blocker, attacker), restriction="test")]


def _on_attack(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    return [Trigger("test", e.attacker or "", "alice", "603.2") for e in events
            if e.kind == "attack"]


def _on_attack_offering(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    """A trigger with a choice made as it resolves (608.2d)."""
    pick = Choice("pick", "alice", "option", ("a", "b"), default=("a",), rule="608.2d")
    return [Trigger("test", e.attacker or "", "alice", "603.2", offers=(pick,))
            for e in events if e.kind == "attack"]


TRIGGERS.update({
    # 702.16b: asked by a plugin as its trigger's targets are chosen (603.3d).
    "redzone_target_violations": (lambda e, s: s, lambda e, s: e.hooks.target_violations(
        s, "orc", "bear"), "main"),
    # 510.1a, 510.1c, 614.9: asked as damage is assigned and dealt.
    "redzone_combat_damage_amount": (_to_damage, lambda e, s: e.combat_damage(s),
                                     "declare_blockers"),
    "redzone_may_assign_as_though_unblocked": (_to_damage, lambda e, s: e.combat_damage(s),
                                               "declare_blockers"),
    "redzone_redirect_damage": (_to_damage, lambda e, s: e.combat_damage(s), "combat_damage"),
    "redzone_block_exemption": TRIGGERS["redzone_block_violations"],
    "redzone_triggers": (lambda e, s: s, lambda e, s: e.declare_attackers(s, {"orc": "bob"}),
                         "beginning_of_combat"),
    "redzone_resolve_trigger": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "declare_attackers"),
    "redzone_trigger_choices": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "declare_attackers"),
    "redzone_additional_recipients": (_to_damage, lambda e, s: e.combat_damage(s),
                                      "declare_blockers"),
    "redzone_damage_divider": (_to_damage, lambda e, s: e.combat_damage(s), "declare_blockers"),
    "redzone_attack_requirements": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "beginning_of_combat"),
    "redzone_block_requirements": (_to_blocks, lambda e, s: e.declare_blockers(
        s, {"bear": "orc"}), "declare_attackers"),
    "redzone_can_band": (
        lambda e, s: s.with_permanents({"elf": creature("elf", "alice", 1, 1)}),
        lambda e, s: e.declare_attackers(s, {"orc": "bob", "elf": "bob"},
                                         bands=[("orc", "elf")]), "beginning_of_combat"),
    # 603.2, 611.2: a plugin records what happened after every command.
    "redzone_record": (lambda e, s: s, lambda e, s: e.declare_attackers(s, {"orc": "bob"}),
                       "beginning_of_combat"),
    # 611.2b: a "for as long as" condition of a plugin's kind is asked as it starts.
    "redzone_condition_holds": (lambda e, s: s, lambda e, s: e.perform(s, Pump(
        "orc", 1, 1, duration="while", condition=Condition("exploding_kind"))), "main"),
    # 701.8c: destruction replacements are asked as a permanent would be destroyed.
    "redzone_destruction_replacements": (lambda e, s: s, lambda e, s: e.perform(
        s, Destroy("orc")), "main"),
    # 508.1g, 509.1d: the options and costs of a declaration are asked with it.
    "redzone_attack_choices": (lambda e, s: s, lambda e, s: e.declare_attackers(
        s, {"orc": "bob"}), "declare_attackers"),
    "redzone_block_choices": (_to_blocks, lambda e, s: e.declare_blockers(
        s, {"bear": "orc"}), "declare_blockers"),
})

#: Plugins a hook needs beside the one under test to be asked at all.
HELPERS: dict[str, list[types.ModuleType]] = {
    "redzone_block_exemption": [plugin("restricts", redzone_block_violations=_restricted)],
    "redzone_resolve_trigger": [plugin("trigger_on_attack", redzone_triggers=_on_attack)],
    "redzone_trigger_choices": [plugin("trigger_offering", redzone_triggers=_on_attack_offering)],
}


def test_every_hook_has_a_trigger() -> None:
    """Each hook but the load-time ones is exercised by the failure tests below."""
    from redzone.kernel import hookspecs

    hooks = {n for n in dir(hookspecs) if n.startswith("redzone_")}
    assert hooks - set(TRIGGERS) == {"redzone_keywords", "redzone_actions",
                                     "redzone_damage_steps", "redzone_event_kinds",
                                     "redzone_activated_abilities"}


@pytest.mark.parametrize("hook", sorted(TRIGGERS))
def test_raising_plugin_is_a_plugin_error(hook: str) -> None:
    """DESIGN: a plugin that raises becomes a PluginError naming the plugin,
    its distribution, the hook, its rules and the step; the cause is kept and
    the caller's state is unchanged."""
    boom = RuntimeError("kaboom")

    def fail(state: GameState) -> None:
        raise boom

    engine = Engine(discover=False, plugins=[
        PluginInfo("exploding", plugin("exploding", **{hook: fail}), "exploding-dist", "0.1"),
        *HELPERS.get(hook, [])])
    prepare, command, step = TRIGGERS[hook]
    state = prepare(engine, _scenario(engine))
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        command(engine, state)
    err = info.value
    assert (err.plugin, err.distribution, err.hook) == ("exploding", "exploding-dist", hook)
    assert err.__cause__ is boom
    message = str(err)
    assert "'exploding' (exploding-dist 0.1)" in message
    assert f"in hook {hook} (rules " in message
    assert f"during step {step!r}" in message
    assert "RuntimeError: kaboom" in message
    assert state_to_dict(state) == before


def _impostor_refused(hook: str) -> None:
    @attrs.frozen
    class Impostor(Action):
        """Not the kernel's Pump, though it calls itself ``pump``."""

        do: ClassVar[str] = "pump"
        permanent: str = "orc"

    answers: dict[str, Callable[..., Any]] = {
        "redzone_resolve_trigger": lambda state, trigger: [Impostor()],
        "redzone_destruction_replacements": lambda state, permanent: [
            DestructionReplacement("fake", "614.8", (Impostor(),))],
    }
    engine = Engine(discover=False, plugins=[
        PluginInfo("impostor", plugin("impostor", **{hook: answers[hook]})),
        *HELPERS.get(hook, [])])
    prepare, command, _step = TRIGGERS[hook]
    state = prepare(engine, _scenario(engine))
    with pytest.raises(PluginError, match="declared kind"):
        command(engine, state)


@pytest.mark.parametrize("hook", ["redzone_resolve_trigger", "redzone_destruction_replacements"])
def test_117_1_an_action_of_an_undeclared_class_is_refused_though_it_borrows_a_kind(
        hook: str) -> None:
    """117.1: an action a plugin hands the kernel must be of a declared kind:
    a class that reuses a declared kind's ``do`` name without being that
    kind's class is a PluginError, not performed as if it were one."""
    import gc

    from redzone.formats.serialize import _action_classes

    _impostor_refused(hook)
    gc.collect()  # (an Action subclass is found by its do name while it lives)
    assert _action_classes()["pump"] is Pump


def test_generator_raising_late_is_a_plugin_error() -> None:
    """A generator answer raises only as it is consumed: still a PluginError."""
    def redzone_block_violations() -> Iterator[Violation]:
        yield from ()
        raise KeyError("late")

    engine = Engine(discover=False, plugins=[plugin("lazy", redzone_block_violations=(
        redzone_block_violations))])
    state = _to_blocks(engine, _scenario(engine))
    with pytest.raises(PluginError) as info:
        engine.declare_blockers(state, {"bear": "orc"})
    assert (info.value.plugin, info.value.hook) == ("lazy", "redzone_block_violations")


WRONG: list[tuple[str, Any]] = [
    ("redzone_attack_exemption", "yes"),
    ("redzone_attacks_without_tapping", 1),
    ("redzone_deals_combat_damage", "no"),
    ("redzone_combat_damage_amount", "2"),
    ("redzone_combat_damage_amount", True),
    ("redzone_redirect_damage", ["bob"]),
    ("redzone_assigns_past_blockers", [True]),
    ("redzone_attack_violations", "not a list"),
    ("redzone_attack_violations", [("508.1c", "tuple, not a Violation")]),
    ("redzone_block_violations", 3),
    ("redzone_blocked_by_violations", [None]),
    ("redzone_block_declaration_violations", [1]),
    ("redzone_additional_blocks", -1),
    ("redzone_additional_blocks", True),
    ("redzone_lethal_damage", "1"),
    ("redzone_assignment_violations", [Result("marked", "x", "orc")]),
    ("redzone_prevent_damage", [Violation("615", "not a prevention")]),
    ("redzone_prevent_damage", [Prevention("minus", "615.1", -2)]),
    ("redzone_modify_damage", [1]),
    ("redzone_damage_results", [Violation("120.3", "not a result")]),
    ("redzone_result_replacements", [lambda s, r: r]),
    ("redzone_state_based_actions", ["destroy"]),
    ("redzone_permanent_state_based_actions", ["destroy"]),
    ("redzone_permanent_state_based_actions", "destroy"),
    ("redzone_additional_recipients", "bob"),
    ("redzone_additional_recipients", [7]),
    ("redzone_damage_divider", "nobody"),
    ("redzone_attack_requirements", ["attack"]),
    ("redzone_block_requirements", [None]),
    ("redzone_can_band", "yes"),
    ("redzone_triggers", ["trigger"]),
]


@pytest.mark.parametrize("hook,answer", WRONG, ids=[f"{h}-{i}" for i, (h, _) in enumerate(WRONG)])
def test_wrong_answer_type_is_a_plugin_error(hook: str, answer: Any) -> None:
    """DESIGN: an answer of the wrong type is a PluginError naming the plugin,
    the hook and the step, not a crash somewhere later; nothing changes."""
    prepare, command, _step = TRIGGERS[hook]
    engine = Engine(discover=False, plugins=[plugin("sloppy", **{hook: lambda: answer}),
                                             *HELPERS.get(hook, [])])
    state = prepare(engine, _scenario(engine))
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        command(engine, state)
    assert (info.value.plugin, info.value.hook) == ("sloppy", hook)
    assert "expected" in str(info.value) or "must be" in str(info.value)
    assert state_to_dict(state) == before


def test_result_replacement_callable_failures_name_the_plugin() -> None:
    """120.4c: a result replacement's function runs inside the core; if it
    raises or returns something other than a Result, the plugin is named."""
    def replacing(replace: Callable[..., Any]) -> Callable[[], list[ResultReplacement]]:
        return lambda: [ResultReplacement("bad", "614.1a", replace)]

    for replace in (lambda s, r: 1 / 0, lambda s, r: "more"):
        engine = Engine(discover=False, plugins=[plugin(
            "replacer", redzone_result_replacements=replacing(replace))])
        state = _to_damage(engine, _scenario(engine))
        with pytest.raises(PluginError) as info:
            engine.combat_damage(state)
        assert (info.value.plugin, info.value.hook) == ("replacer", "redzone_result_replacements")
        assert "replacement 'bad'" in str(info.value)


MUTATIONS: list[tuple[str, Callable[..., Any]]] = [
    ("redzone_attack_violations", lambda state: setattr(state, "step", "main")),
    ("redzone_attack_violations", lambda state: state.players.pop("bob")),
    ("redzone_attack_violations", lambda state: state.objects.__setitem__("x", None)),
    ("redzone_attack_violations", lambda state: setattr(state.objects["orc"], "tapped", True)),
    ("redzone_attack_violations", lambda state: state.objects["orc"].counters.update(a=1)),
    ("redzone_attack_violations", lambda state: state.turn_order.append("carol")),
    ("redzone_attack_declaration_violations", lambda attacks: attacks.clear()),
    ("redzone_block_declaration_violations", lambda blocks: blocks.update(bear=())),
    ("redzone_assignment_violations", lambda assignment: assignment.amounts.update(bob=2)),
    ("redzone_damage_results", lambda damage: setattr(damage, "amount", 99)),
    ("redzone_state_based_actions",
     lambda state: setattr(state.players["bob"], "life", 0)),
    ("redzone_permanent_state_based_actions",
     lambda state, permanents: setattr(state.objects[permanents[0]], "damage", 9)),
]


@pytest.mark.parametrize("hook,mutate", MUTATIONS,
                         ids=[f"{h}-{i}" for i, (h, _) in enumerate(MUTATIONS)])
def test_plugin_trying_to_change_the_state_fails_loudly(hook: str,
                                                        mutate: Callable[..., Any]) -> None:
    """DESIGN / 733: every value a hook receives is frozen; a plugin that tries
    to change one gets an error (a PluginError naming it) and the state is
    unchanged."""
    def attempt(**kwargs: Any) -> None:
        mutate(**kwargs)

    names = {"redzone_attack_declaration_violations": "attacks",
             "redzone_block_declaration_violations": "blocks",
             "redzone_assignment_violations": "assignment",
             "redzone_damage_results": "damage"}
    arg = names.get(hook, "state")
    impl = eval(f"lambda {arg}: attempt({arg}={arg})", {"attempt": attempt})
    engine = Engine(discover=False, plugins=[plugin("meddler", **{hook: impl})])
    prepare, command, _step = TRIGGERS[hook]
    state = prepare(engine, _scenario(engine))
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        command(engine, state)
    assert info.value.plugin == "meddler"
    assert isinstance(info.value.__cause__, (TypeError, AttributeError,
                                             attrs.exceptions.FrozenInstanceError))
    assert state_to_dict(state) == before


def test_the_documented_keyword_forms_parse_as_documented() -> None:
    """702.1: every row of the parameter table of docs/write-a-keyword.md
    ("Declaring the printed form") parses its example text to its args."""
    import ast
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "write-a-keyword.md").read_text(
        encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `{")]
    assert len(rows) == 6
    for row in rows:
        cells = [c.strip().strip("`") for c in row.strip("|").split("|")]
        form, text = cells[2], cells[3]
        args = cells[4].split("`")[0].strip("`")
        def declaring(f: str) -> Callable[[], list[KeywordSpec]]:
            return lambda: [KeywordSpec("documented", "702.1", form=f)]

        engine = Engine(discover=False, plugins=[plugin("doc", redzone_keywords=declaring(form))])
        kw = engine.keyword(text)
        assert kw.name == "documented"
        assert kw.args == ast.literal_eval(args), (row, kw.args)


# ---------------------------------------------------------------------------
# Gates, inferred: a plugin's keywords, the kernel's own state gates
# ---------------------------------------------------------------------------


def _spy(asked: list[str], name: str) -> Callable[..., None]:
    def prevent(state: GameState, damage: Any) -> None:
        asked.append(name)
    return prevent


def _zap_board(engine: Engine, *zapped: str) -> GameState:
    return engine.game(["alice", "bob"], [
        engine.creature("orc", "alice", 2, 2, *(("zap",) if "orc" in zapped else ())),
        engine.creature("elf", "bob", 1, 1)])


def test_a_plugins_declared_keywords_are_its_gate() -> None:
    """Gates (guarantee 22), 615.1: a plugin that declares keyword ``zap``
    is asked (here, about preventing damage) only about states where an
    object has zap; a plugin that declares no keyword is asked about every
    state, and one that declares ``asked_always=True`` too."""
    asked: list[str] = []
    engine = Engine(discover=False, verify=False, plugins=[
        plugin("zapper", "zap", redzone_prevent_damage=_spy(asked, "zapper")),
        plugin("plain", redzone_prevent_damage=_spy(asked, "plain")),
        plugin("always", "bolt", asked_always=True,
               redzone_prevent_damage=_spy(asked, "always"))])
    engine.perform(_zap_board(engine), DealDamage("orc", "elf", 1))
    assert asked == ["always", "plain"]
    asked.clear()
    engine.perform(_zap_board(engine, "orc"), DealDamage("orc", "elf", 1))
    assert asked == ["always", "plain", "zapper"]


def test_a_keyword_gate_silences_a_hook_nobody_else_answers() -> None:
    """``Hooks.silent`` names a hook whose every implementation the gates
    keep out, so per-creature callers skip it; with the keyword on the
    board it is asked."""
    engine = Engine(discover=False, verify=False, plugins=[
        plugin("zapper", "zap", redzone_lethal_damage=lambda state, source, creature: 0)])
    assert "redzone_lethal_damage" in engine.hooks.silent(_zap_board(engine))
    assert "redzone_lethal_damage" not in engine.hooks.silent(_zap_board(engine, "orc"))


def test_the_kernels_own_modules_are_gated_on_the_state_they_read() -> None:
    """615.1, 509.1b: the kernel's effects module is asked about damage only
    when the state holds an effect, and its restrictions module about blocks
    only when a permanent has a restriction field set (their state gates,
    from the kernel's table: no module constant)."""
    engine = Engine(discover=False, verify=False)
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           creature("elf", "bob", 1, 1)])
    assert {"redzone_prevent_damage", "redzone_block_violations"} <= engine.hooks.silent(state)
    with_effect = state.evolve(effects=(Effect("some_effect", id="e1"),))
    assert "redzone_prevent_damage" not in engine.hooks.silent(with_effect)
    walled = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                            creature("wall", "bob", 0, 4, cant_block=True)])
    assert "redzone_block_violations" not in engine.hooks.silent(walled)
    with pytest.raises(RulesError, match="can't block"):
        engine.declare_blockers(engine.declare_attackers(walled, {"orc": "bob"}).state,
                                {"wall": "orc"})


@pytest.mark.parametrize("constant,value", [("REDZONE_NEEDS_STATE", ("effects",)),
                                            ("REDZONE_NEEDS_KEYWORD", True),
                                            ("REDZONE_TRUSTS_DEFAULT_POLICY", True)])
def test_a_retired_gate_constant_is_ignored_with_a_deprecation_warning(
        constant: str, value: object) -> None:
    """Gates are inferred: a plugin module that still sets one of the
    constants that once set them gets a DeprecationWarning naming the plugin
    and the constant, and the constant changes nothing (a plugin declaring no
    keyword is still asked about a state without effects)."""
    asked: list[str] = []
    old = plugin("oldgate", redzone_prevent_damage=_spy(asked, "oldgate"))
    setattr(old, constant, value)
    with pytest.warns(DeprecationWarning, match=rf"'oldgate'.*{constant}.*ignored"):
        engine = Engine(discover=False, verify=False, plugins=[old])
    engine.perform(_zap_board(engine), DealDamage("orc", "elf", 1))
    assert asked == ["oldgate"]


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_asked_always_must_be_a_bool(value: object) -> None:
    """702.1: ``KeywordSpec.asked_always`` is a bool; anything else fails as
    the engine loads, naming the plugin and the field."""
    bad = plugin("badspec", redzone_keywords=lambda: [
        KeywordSpec("zap", "702.999", asked_always=value)])  # type: ignore[arg-type]
    with pytest.raises(PluginLoadError, match=r"badspec.*'asked_always'"):
        Engine(discover=False, plugins=[bad])


def _wrong_gate() -> types.ModuleType:
    """A plugin that declares ``zap`` but forbids blocks by creatures without
    it (its keyword gate is wrong: it answers about states without zap)."""
    def no_blocks(state: GameState, blocker: str) -> list[Violation]:
        if not state.objects[blocker].has("zap"):
            return [Violation("509.1b", "only zap creatures block", (blocker,))]
        return []
    return plugin("zapper", "zap", redzone_block_violations=no_blocks)


def test_a_wrong_keyword_gate_loses_the_answer_outside_verify_mode() -> None:
    """509.1b, the documented consequence of a wrong gate: on a board
    without zap the plugin isn't asked, so the block it would forbid is
    declared (verify mode, below, finds this)."""
    engine = Engine(discover=False, verify=False, plugins=[_wrong_gate()])
    state = engine.declare_attackers(_zap_board(engine), {"orc": "bob"}).state
    assert engine.declare_blockers(state, {"elf": "orc"}).state.combat is not None


def test_verify_mode_fails_a_plugin_that_answers_where_its_gate_keeps_it_out() -> None:
    """509.1b, guarantee 22: verify mode asks every plugin whatever its gate;
    one whose gate would have kept it out yet answers is a PluginError
    naming the plugin, its distribution, the hook and its gate, and the
    state is unchanged."""
    engine = Engine(discover=False, verify=True, plugins=[_wrong_gate()])
    state = engine.declare_attackers(_zap_board(engine), {"orc": "bob"}).state
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.declare_blockers(state, {"elf": "orc"})
    assert info.value.plugin == "zapper"
    assert info.value.hook == "redzone_block_violations"
    assert "unknown distribution" in str(info.value)
    assert "declares keywords 'zap', none present, yet answered" in str(info.value)
    assert state_to_dict(state) == before
    # With zap on the board the gate lets it through, and its answer counts.
    zapped = engine.declare_attackers(_zap_board(engine, "orc"), {"orc": "bob"}).state
    with pytest.raises(RulesError, match="only zap creatures block"):
        engine.declare_blockers(zapped, {"elf": "orc"})


def test_verify_mode_accepts_a_gated_plugin_that_answers_nothing_without_its_keyword(
        ) -> None:
    """Guarantee 22: asked where its gate keeps it out, a right plugin
    answers nothing, and verify mode gives the result outside it gives."""
    def zap_only(state: GameState, blocker: str) -> list[Violation]:
        if state.objects[blocker].has("zap"):
            return [Violation("509.1b", "zap creatures can't block", (blocker,))]
        return []
    outcomes = []
    for verify in (False, True):
        engine = Engine(discover=False, verify=verify, plugins=[
            plugin("zapper", "zap", redzone_block_violations=zap_only)])
        state = engine.declare_attackers(_zap_board(engine), {"orc": "bob"}).state
        outcomes.append(state_to_dict(engine.declare_blockers(state, {"elf": "orc"}).state))
    assert outcomes[0] == outcomes[1]
