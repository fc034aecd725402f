"""Hostile plugins (issue 14, items 1-4; issue 13, item 12).

Each fault in :data:`FAULTS` is a plugin that misbehaves in one hook. The
combat it joins must fail with a :class:`~redzone.PluginError` that names
that plugin (never the one it tries to blame), the hook, and the field or
the problem; the state the caller holds must be unchanged. A fuzzer then
answers every hook with values drawn from a catalogue of wrong ones.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import redzone
from hostile_kit import FILES, LONG_FACTOR, CliResult, board, combat, hostile, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import (
    Damage,
    DamageModifier,
    Engine,
    GainLife,
    GameState,
    IllegalActionError,
    KeywordSpec,
    Permanent,
    PluginError,
    PluginLoadError,
    Prevention,
    Pump,
    Result,
    ResultReplacement,
    StateBasedAction,
    Trigger,
    Violation,
)
from redzone.kernel import answers, hookspecs


def _results(*items: Result) -> Callable[..., list[Result]]:
    def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
        return list(items) if damage.source == "ogre" else []
    return redzone_damage_results


def _exit(state: GameState, damage: tuple[Damage, ...], results: tuple[Result, ...]) -> None:
    sys.exit(0)


def _generator_exit(state: GameState, attacker: str, attacked: str) -> list[Violation]:
    raise GeneratorExit


def _blame(state: GameState, attacker: str, attacked: str) -> list[Violation]:
    raise PluginError("flying is broken", plugin="flying", hook="redzone_attack_violations")


def _set_life(state: GameState, damage: tuple[Damage, ...],
              results: tuple[Result, ...]) -> None:
    object.__setattr__(state.players["bob"], "life", 20)


def _poke_lethal(state: GameState, source: str, creature: str) -> int | None:
    object.__setattr__(state.objects["wall"], "damage", 1)
    return None


def _dict_write(state: GameState, attacker: str, attacked: str) -> list[Violation]:
    dict.__setitem__(state.objects, "x", None)  # type: ignore[arg-type]
    return []


def _reinit(state: GameState, attacker: str, attacked: str) -> list[Violation]:
    state.players.__init__({"mallory": None})  # type: ignore[misc]
    return []


class _Exploding:
    def __iter__(self) -> Iterator[Violation]:
        raise SystemExit(4)


def _lazy(state: GameState, attacker: str, attacked: str) -> Any:
    return _Exploding()


class _Str(str):
    pass


def _token(amount: int) -> Result:
    return Result("create", "111.2", "ogre", amount=amount,
                  token=Permanent("germ", "alice", base_power=0, base_toughness=0,
                                  types=frozenset({"creature"})))


def _replacement(replace: Callable[[GameState, Result], Any]) -> Callable[..., Any]:
    def redzone_result_replacements(state: GameState, result: Result
                                    ) -> list[ResultReplacement]:
        return [ResultReplacement("hostile", "614.1a", replace)]
    return redzone_result_replacements


def _trigger(**fields: Any) -> Callable[..., list[Trigger]]:
    def redzone_triggers(state: GameState, events: tuple[Any, ...]) -> list[Trigger]:
        if any(e.kind == "attack" for e in events):
            base = {"kind": "hostile", "source": "ogre", "controller": "alice",
                    "rule": "603.2"}
            base.update(fields)
            return [Trigger(**base)]
        return []
    return redzone_triggers


def _pump_strings(state: GameState, trigger: Trigger) -> list[Any]:
    return [Pump("ogre", "3", 3)]  # type: ignore[arg-type]


def _modifier(**fields: Any) -> Callable[..., list[DamageModifier]]:
    def redzone_modify_damage(state: GameState, damage: Damage) -> list[DamageModifier]:
        return [DamageModifier("hostile", "614.1a", **fields)]
    return redzone_modify_damage


def _sba(*items: StateBasedAction) -> Callable[..., list[StateBasedAction]]:
    def redzone_state_based_actions(state: GameState) -> list[StateBasedAction]:
        return list(items) if state.step == "combat_damage" else []
    return redzone_state_based_actions


def _prevention(amount: Any) -> Callable[..., list[Prevention]]:
    def redzone_prevent_damage(state: GameState, damage: Damage) -> list[Prevention]:
        return [Prevention("hostile", "615.1", amount)]
    return redzone_prevent_damage


def _violation(**fields: Any) -> Callable[..., list[Violation]]:
    def redzone_block_violations(state: GameState, blocker: str, attacker: str
                                 ) -> list[Violation]:
        base: dict[str, Any] = {"rule": "509.1", "message": "no"}
        base.update(fields)
        return [Violation(**base)]
    return redzone_block_violations


#: name -> (hooks of the plugin, the hook that must be named, a text the
#: error must hold: the field or the problem)
FAULTS: dict[str, tuple[dict[str, Callable[..., Any]], str, str]] = {
    # item 1: BaseException
    "sys-exit-in-notification": ({"redzone_damage_event": _exit}, "redzone_damage_event",
                                 "raised SystemExit"),
    "generator-exit": ({"redzone_attack_violations": _generator_exit},
                       "redzone_attack_violations", "raised GeneratorExit"),
    "system-exit-in-lazy-answer": ({"redzone_attack_violations": _lazy},
                                   "redzone_attack_violations", "raised SystemExit"),
    "replacement-raises-system-exit": (
        {"redzone_result_replacements": _replacement(lambda s, r: sys.exit(1))},
        "redzone_result_replacements", "raised SystemExit"),
    # item 3, last point: blaming another plugin
    "blames-flying": ({"redzone_attack_violations": _blame}, "redzone_attack_violations",
                      "naming plugin 'flying'"),
    # item 2: changing the state
    "sets-life-in-notification": ({"redzone_damage_event": _set_life},
                                  "redzone_damage_event", "changed the state"),
    "sets-damage-in-a-query": ({"redzone_lethal_damage": _poke_lethal},
                               "redzone_lethal_damage", "changed the state"),
    "dict-setitem-on-frozen-map": ({"redzone_attack_violations": _dict_write},
                                   "redzone_attack_violations", "raised TypeError"),
    "reruns-frozen-map-init": ({"redzone_attack_violations": _reinit},
                               "redzone_attack_violations", "raised TypeError"),
    # item 3: answers checked field by field
    "result-player-nobody": ({"redzone_damage_results": _results(
        Result("life_loss", "120.3a", "ogre", 1, player="nobody"))},
        "redzone_damage_results", "field 'player' is 'nobody'"),
    "result-amount-str": ({"redzone_damage_results": _results(
        Result("life_loss", "120.3a", "ogre", "5", player="bob"))},  # type: ignore[arg-type]
        "redzone_damage_results", "field 'amount' is '5'"),
    "result-amount-bool": ({"redzone_damage_results": _results(
        Result("life_loss", "120.3a", "ogre", True, player="bob"))},
        "redzone_damage_results", "field 'amount' is True"),
    "result-unknown-kind": ({"redzone_damage_results": _results(
        Result("explode", "120.3", "ogre", 1, player="bob"))},
        "redzone_damage_results", "field 'kind' is 'explode'"),
    "result-target-ghost": ({"redzone_damage_results": _results(
        Result("counters", "120.3d", "ogre", 1, target="ghost", counter="-1/-1"))},
        "redzone_damage_results", "field 'target' is 'ghost'"),
    "result-counters-without-counter": ({"redzone_damage_results": _results(
        Result("counters", "120.3d", "ogre", 1, target="wall"))},
        "redzone_damage_results", "field 'counter'"),
    "result-rule-str-subclass": ({"redzone_damage_results": _results(
        Result("life_loss", _Str("120.3a"), "ogre", 1, player="bob"))},
        "redzone_damage_results", "field 'rule'"),
    "sba-lose-nobody": ({"redzone_state_based_actions": _sba(
        StateBasedAction("lose", "704.5a", player="nobody"))},
        "redzone_state_based_actions", "field 'player' is 'nobody'"),
    "sba-unknown-kind": ({"redzone_state_based_actions": _sba(
        StateBasedAction("exile", "704.5", object="wall"))},
        "redzone_state_based_actions", "field 'kind' is 'exile'"),
    "modifier-multiply-half": ({"redzone_modify_damage": _modifier(multiply=0.5)},
                               "redzone_modify_damage", "field 'multiply' is 0.5"),
    "modifier-add-huge": ({"redzone_modify_damage": _modifier(add=10**12)},
                          "redzone_modify_damage", "field 'add'"),
    "prevention-negative": ({"redzone_prevent_damage": _prevention(-1)},
                            "redzone_prevent_damage", "field 'amount' is -1"),
    "prevention-float": ({"redzone_prevent_damage": _prevention(1.5)},
                         "redzone_prevent_damage", "field 'amount' is 1.5"),
    "violation-objects-ints": ({"redzone_block_violations": _violation(objects=(1, 2))},
                               "redzone_block_violations", "field 'objects'"),
    "trigger-controller-nobody": ({"redzone_triggers": _trigger(controller="nobody")},
                                  "redzone_triggers", "field 'controller' is 'nobody'"),
    "trigger-amount-float": ({"redzone_triggers": _trigger(amount=2.5)},
                             "redzone_triggers", "field 'amount' is 2.5"),
    "action-with-a-string-power": (
        {"redzone_triggers": _trigger(), "redzone_resolve_trigger": _pump_strings},
        "redzone_resolve_trigger", "Pump.power is '3'"),
    "replacement-returns-bad-kind": (
        {"redzone_result_replacements": _replacement(
            lambda s, r: Result("explode", "614.1a", r.source, 1, player="bob"))},
        "redzone_result_replacements", "field 'kind' is 'explode'"),
    # item 4: creating 10^5 tokens is bounded
    "creates-100000-tokens": ({"redzone_damage_results": _results(_token(100_000))},
                              "redzone_damage_results", "field 'amount' is 100000"),
    "creates-1200-tokens-in-one-call": ({"redzone_damage_results": _results(
        _token(600), _token(600))}, "redzone_damage_results", "more than 1000 tokens"),
}


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_a_hostile_plugin_fails_the_command_naming_itself(name: str) -> None:
    """Issue 14, items 1-4: the fault becomes a PluginError naming the real
    plugin, the hook and the field; the caller's state is unchanged."""
    hooks, hook, text = FAULTS[name]
    engine = Engine(plugins=[hostile(name, **hooks)], verify=True)
    state = board(engine)
    before = snapshot(state)
    with pytest.raises(PluginError) as info:
        combat(engine, state)
    error = info.value
    assert (error.plugin, error.hook) == (name, hook), str(error)
    assert text in str(error), str(error)
    if name != "sets-life-in-notification" and name != "sets-damage-in-a-query":
        assert snapshot(state) == before


def test_the_same_combat_without_a_hostile_plugin_resolves() -> None:
    """The board of the faults resolves cleanly on its own: 4 tramples over
    (702.19b), the wall dies."""
    engine = Engine(verify=True)
    out = combat(engine, board(engine))
    assert out.state.players["bob"].life == 16
    assert out.state.objects["wall"].zone == "graveyard"


def test_a_real_ctrl_c_still_stops_the_command() -> None:
    """Item 1: KeyboardInterrupt passes through. CPython raises a user's
    Ctrl-C in whatever frame is running, so it can't be told from a plugin
    raising KeyboardInterrupt itself; both stop the command (documented)."""
    def redzone_attack_violations(state: GameState) -> list[Violation]:
        raise KeyboardInterrupt

    engine = Engine(plugins=[hostile("ctrl-c", redzone_attack_violations=(
        redzone_attack_violations))])
    with pytest.raises(KeyboardInterrupt):
        combat(engine, board(engine))


def test_sys_exit_in_a_notification_is_exit_3_through_the_cli(
        run_cli: Callable[..., CliResult]) -> None:
    """Item 1, as reported: sys.exit(0) inside redzone_damage_event made
    ``redzone run --json`` exit 0 with empty output; now exit 3 and a
    plugin_error naming the plugin."""
    plugin = hostile("quitter", redzone_damage_event=_exit)
    result = run_cli(["run", "--json", str(FILES / "noncombat-keywords.toml")], plugin)
    assert result.status == 3
    error = result.json["error"]
    assert (error["kind"], error["plugin"], error["hook"]) == (
        "plugin_error", "quitter", "redzone_damage_event")


def test_rewriting_life_in_a_notification_is_exit_3_through_the_cli(
        run_cli: Callable[..., CliResult]) -> None:
    """Item 2, as reported: object.__setattr__(player, "life", 20) in a
    notification hook made ``redzone run`` report 20 instead of 17, exit 0.
    The command line runs in verify mode: exit 3 naming the plugin."""
    def redzone_damage_event(state: GameState, damage: tuple[Damage, ...]) -> None:
        object.__setattr__(state.players["bob"], "life", 20)

    plugin = hostile("rewriter", redzone_damage_event=redzone_damage_event)
    result = run_cli(["run", "--json", str(FILES / "noncombat-keywords.toml")], plugin)
    assert result.status == 3
    error = result.json["error"]
    assert (error["plugin"], error["hook"]) == ("rewriter", "redzone_damage_event")
    assert "changed the state" in error["message"]


def test_verify_mode_protects_earlier_snapshots() -> None:
    """Item 2: states share parts, so a plugin changing a permanent changes
    every earlier state holding it; verify mode names the plugin, and
    without verify the change is what it is (documented, not hidden)."""
    def redzone_lethal_damage(state: GameState, source: str, creature: str) -> None:
        # The wall is the same object in every state since the board was made.
        object.__setattr__(state.objects["wall"], "base_toughness", 5)

    for verify in (True, False):
        engine = Engine(plugins=[hostile("sneak", redzone_lethal_damage=(
            redzone_lethal_damage))], verify=verify)
        start = board(engine)
        if verify:
            with pytest.raises(PluginError) as info:
                combat(engine, start)
            assert info.value.plugin == "sneak"
        else:
            combat(engine, start)
            assert start.objects["wall"].base_toughness == 5


def test_verify_mode_is_off_by_default_and_on_with_redzone_verify(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Guarantee 10: verify mode is opt-in in Engine(...) and on when
    REDZONE_VERIFY=1 (CI's verify pass sets it); an explicit ``verify`` wins
    over the variable either way."""
    monkeypatch.delenv("REDZONE_VERIFY", raising=False)
    assert Engine().hooks.verify is False
    assert Engine(verify=True).hooks.verify is True
    monkeypatch.setenv("REDZONE_VERIFY", "1")
    assert Engine().hooks.verify is True
    assert Engine(verify=False).hooks.verify is False
    monkeypatch.setenv("REDZONE_VERIFY", "0")
    assert Engine().hooks.verify is False


# ---------------------------------------------------------------------------
# Loading: keyword declarations and registration (items 3-4; issue 13 item 12)
# ---------------------------------------------------------------------------


def _keywords(*specs: KeywordSpec) -> Callable[[], list[KeywordSpec]]:
    return lambda: list(specs)


def _marked(name: str, **options: bool) -> SimpleNamespace:
    def redzone_block_violations(state: GameState) -> Iterator[None]:
        yield None

    return SimpleNamespace(__name__=name, redzone_block_violations=redzone.hookimpl(
        **options)(redzone_block_violations))


LOAD_FAULTS: dict[str, tuple[object, str]] = {
    "regex-pattern": (hostile("regex", redzone_keywords=_keywords(
        KeywordSpec("venom", "702.1", pattern="(unclosed"))), "field 'pattern'"),
    "catastrophic-regex": (hostile("catastrophe", redzone_keywords=_keywords(
        KeywordSpec("slow", "702.1", pattern=r"(a+)+$"))), "field 'pattern'"),
    "form-with-a-regex": (hostile("paren", redzone_keywords=_keywords(
        KeywordSpec("venom", "702.1", form="(unclosed"))), "field 'form'"),
    "form-unknown-parameter": (hostile("param", redzone_keywords=_keywords(
        KeywordSpec("venom", "702.1", form="venom {amount}"))), "unknown parameter {amount}"),
    "form-two-qualities": (hostile("two", redzone_keywords=_keywords(
        KeywordSpec("venom", "702.1", form="{quality} and {quality}"))), "more than one"),
    "form-only-a-parameter": (hostile("bare", redzone_keywords=_keywords(
        KeywordSpec("venom", "702.1", form="{quality}"))), "no literal text"),
    "name-not-a-str": (hostile("numbered", redzone_keywords=_keywords(
        KeywordSpec(7, "702.1", form="seven"))), "field 'name'"),  # type: ignore[arg-type]
    "hookimpl-with-a-default": (
        hostile("defaults", redzone_block_violations=lambda state, blocker, attacker=None: []),
        "a default"),
    "tryfirst": (_marked("eager", tryfirst=True), "tryfirst"),
    "trylast": (_marked("late", trylast=True), "trylast"),
    "hookwrapper": (_marked("wrapping", wrapper=True), "wrapper"),
    "unknown-hook": (hostile("typo", redzone_block_violation=lambda state: []),
                     "did you mean 'redzone_block_violations'"),
    "overlapping-forms": (hostile("walker", redzone_keywords=_keywords(
        KeywordSpec("swampwalk2", "702.14", form="swamp{word}"))), "both match"),
    "duplicate-built-in-form": (hostile("copycat", redzone_keywords=_keywords(
        KeywordSpec("venom", "702.164", form="toxic {number}"))), "'toxic'"),
}


@pytest.mark.parametrize("name", sorted(LOAD_FAULTS))
def test_a_hostile_plugin_is_refused_at_load_naming_itself(name: str) -> None:
    """Item 4 and issue 13 item 12: declarations are structured forms parsed
    by redzone (no regex can run), and hookimpls the facade wouldn't honour
    are refused at registration, each with a PluginLoadError naming the
    plugin and what to change."""
    plugin, text = LOAD_FAULTS[name]
    with pytest.raises(PluginLoadError) as info:
        Engine(plugins=[plugin])
    assert text in str(info.value), str(info.value)
    assert str(plugin.__name__) in str(info.value)


def test_overlapping_forms_name_both_plugins() -> None:
    """Issue 13 item 12: two plugins whose forms both match a text are a load
    error naming both (instead of one package breaking another's keyword)."""
    with pytest.raises(PluginLoadError) as info:
        Engine(plugins=[LOAD_FAULTS["overlapping-forms"][0]])
    message = str(info.value)
    assert "'walker'" in message and "'landwalk'" in message and "'swampwalk'" in message


def test_functions_without_hookimpl_get_a_warning() -> None:
    """Issue 13 item 12: a module with redzone_* functions but no @hookimpl
    would be silently ignored by pluggy: it gets a warning."""
    plain = SimpleNamespace(__name__="unmarked", redzone_block_violations=lambda state: [])
    with pytest.warns(UserWarning, match="without @hookimpl"):
        Engine(discover=False, plugins=[plain])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Engine(discover=False, plugins=[hostile("marked", redzone_block_violations=(
            lambda state: []))])


def test_a_plugin_exiting_at_import_is_a_load_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 1 at discovery: SystemExit while importing a plugin is that
    plugin's PluginLoadError, not an exit."""
    from redzone.kernel import entrypoints

    class Exiting:
        name = "exiter"
        value = "exiter:module"
        dist = None

        def load(self) -> object:
            raise SystemExit(0)

    monkeypatch.setattr(entrypoints, "entry_points", lambda group, path=None: [Exiting()])
    from redzone.kernel.plugins import discover

    with pytest.raises(PluginLoadError, match=r"'exiter'.*SystemExit"):
        discover()


def test_a_form_can_t_be_catastrophic() -> None:
    """Item 4: the parser redzone builds for a form is bounded; the worst
    text of the worst form allowed parses in few steps (a regex such as
    (a+)+$ took over 5 s per parse)."""
    engine = Engine(discover=False, plugins=[hostile("wide", redzone_keywords=_keywords(
        KeywordSpec("wide", "702.1", form="wide {words} {number} {word}"),
        KeywordSpec("deep", "702.1", form="deep {quality} {number}")))])
    text = "wide " + "a" * 40 + " " + "a" * 40 + " 1 " + "a" * 40
    calls = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(profile)
    try:
        kw = engine.keyword(text)
    finally:
        sys.setprofile(None)
    assert kw.name == "wide" and kw.number == 1
    with pytest.raises(redzone.UnknownKeywordError):
        engine.keyword("deep " + "a " * 90 + "x")  # the worst case: no match at all
    assert calls < 2_000
    with pytest.raises(redzone.UnknownKeywordError, match="longer than 200"):
        engine.keyword("wide " + "a" * 300)


# ---------------------------------------------------------------------------
# The plugin fuzzer: every hook answered with wrong values
# ---------------------------------------------------------------------------

#: Drawn answers per hook: 2 (about 80 in all) by default; long mode
#: (REDZONE_LONG=1) 100 per hook; REDZONE_PLUGIN_FUZZ_EXAMPLES sets it.
EXAMPLES = int(os.environ.get("REDZONE_PLUGIN_FUZZ_EXAMPLES",
                              str(2 * LONG_FACTOR if os.environ.get("REDZONE_LONG") else 2)))

#: The load-time hooks take no state; a wrong declaration there is a load
#: error, tested with the other load-time faults above.
HOOKS = sorted(n for n in dir(hookspecs) if n.startswith("redzone_") and n not in (
    "redzone_keywords", "redzone_actions", "redzone_damage_steps", "redzone_event_kinds",
    "redzone_activated_abilities"))


def _wrong_values() -> st.SearchStrategy[Any]:
    ids = st.sampled_from(["ogre", "wall", "alice", "bob", "ghost", ""])
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(-1, 1),
                        st.text(max_size=3), st.just(10**30))
    results = st.builds(Result, kind=st.sampled_from([*sorted(answers.RESULT_KINDS), "x"]),
                        rule=st.just("120.3"), source=ids, amount=scalars, player=ids,
                        target=ids, counter=st.one_of(st.none(), st.just("+1/+1")))
    sbas = st.builds(StateBasedAction, kind=st.sampled_from([*sorted(answers.SBA_KINDS), "x"]),
                     rule=st.just("704.5"), object=ids, player=ids)
    mods = st.builds(DamageModifier, effect=st.just("m"), rule=st.just("614.1a"),
                     multiply=scalars, add=scalars)
    prevs = st.builds(Prevention, effect=st.just("p"), rule=st.just("615.1"), amount=scalars)
    viols = st.builds(Violation, rule=st.just("509.1"), message=st.just("no"),
                      objects=st.lists(st.one_of(ids, st.integers()), max_size=2))
    triggers = st.builds(Trigger, kind=st.just("t"), source=ids, controller=ids,
                         rule=st.just("603.2"), amount=scalars)
    item = st.one_of(scalars, results, sbas, mods, prevs, viols, triggers, ids)
    return st.one_of(scalars, item, st.lists(item, max_size=3),
                     st.lists(item, max_size=3).map(tuple), st.lists(item, max_size=3).map(iter))


@pytest.mark.parametrize("hook", HOOKS)
def test_fuzz_wrong_answers_never_escape_as_anything_but_plugin_errors(hook: str) -> None:
    """A plugin answering a hook with drawn (mostly wrong) values: the combat
    resolves, or is illegal (an IllegalActionError, when a well-formed answer
    restricts it), or fails with a PluginError naming the fuzzed plugin;
    never another exception, and the caller's state is unchanged. The engine
    holds the trample plugin (the board's keyword) and the fuzzed one."""

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(value=_wrong_values())
    def run(value: Any) -> None:
        _fuzz_one(hook, value)

    run()


def _fuzz_one(hook: str, value: Any) -> None:
    import redzone_keywords.trample as trample

    answer = list(value) if isinstance(value, Iterator) else value

    def impl(state: GameState) -> Any:
        return iter(answer) if isinstance(value, Iterator) else answer

    engine = Engine(discover=False, plugins=[trample, hostile("fuzzed", **{hook: impl})],
                    verify=True)
    state = board(engine)
    before = snapshot(state)
    try:
        combat(engine, state)
    except PluginError as exc:
        assert exc.plugin == "fuzzed", str(exc)
    except IllegalActionError:
        pass
    assert snapshot(state) == before


def test_a_plugin_object_whose_attributes_exit_runs_no_code_at_load() -> None:
    """Item 1 at registration: hookimpls are found statically (as pluggy
    does), so a plugin object whose attribute access raises SystemExit runs
    none of it: it loads, with no hooks."""
    class Exiting:
        __name__ = "exiting_object"

        def __getattr__(self, name: str) -> Any:
            raise SystemExit(2)

        def __dir__(self) -> list[str]:
            return ["redzone_block_violations"]

    engine = Engine(plugins=[Exiting()])
    assert "exiting_object" in engine.plugin_infos
    assert not any(i.plugin.name == "exiting_object"
                   for hook in HOOKS for i in engine.hooks.impls(hook))
    assert combat(engine, board(engine)).state.players["bob"].life == 16


def test_an_ability_that_triggers_on_its_own_resolution_is_bounded() -> None:
    """Item 4: a plugin whose ability triggers on every event (its own
    resolution included) and changes the game each time (alice gains 1
    life) would loop for ever; at most 10,000 abilities trigger in one
    command, then the plugin is named. Bounded by a count, not a clock.
    (One that changes nothing comes back to the same position: a loop of
    mandatory actions, a draw by 104.4b: ``test_mandatory_loop_draw.py``.)"""
    def redzone_triggers(state: GameState, events: tuple[Any, ...]) -> list[Trigger]:
        return [Trigger("echo", "ogre", "alice", "603.2", actions=(GainLife("alice", 1),))]

    engine = Engine(plugins=[hostile("echo", redzone_triggers=redzone_triggers)])
    state = board(engine)
    before = snapshot(state)
    with pytest.raises(PluginError) as info:
        combat(engine, state)
    assert (info.value.plugin, info.value.hook) == ("echo", "redzone_triggers")
    assert f"more than {answers.MAX_TRIGGERS} abilities" in str(info.value)
    assert snapshot(state) == before
