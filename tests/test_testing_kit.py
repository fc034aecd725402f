"""redzone.testing: the fixtures, boards, golden scenario files and the
conformance kit (which must catch each kind of broken plugin, say which
invariant broke and on which board, and pass every built-in keyword)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import redzone
from _long import samples
from hypothesis import given, settings
from redzone import (
    Damage,
    Engine,
    Event,
    GameState,
    KeywordSpec,
    Result,
    ResultReplacement,
    SourceAssignment,
    Violation,
)
from redzone.testing import (
    Board,
    GoldenMismatch,
    check_golden,
    differences,
    plugin_module,
    scenario_toml,
)
from redzone.testing.conformance import (
    INVARIANTS,
    ConformanceError,
    Subject,
    account,
    cases,
    check_invariant,
    printed_keywords,
)
from redzone.testing.plugin import make_engine

pytest_plugins = ["pytester"]


def plugin(name: str, keyword: str | None = None, **hooks: Callable[..., Any]) -> Any:
    """A plugin module named ``name`` providing ``keyword`` and ``hooks``
    (each function named after its hook, as the kit's messages quote it)."""
    for hook, fn in hooks.items():
        fn.__name__ = hook
    return plugin_module(name, keyword, **hooks)


def broken(name: str, invariant: str, *, shrink: bool = False,
           **kwargs: Any) -> ConformanceError:
    """The ConformanceError the kit raises for a plugin that breaks ``invariant``."""
    mod = plugin(name, name, **kwargs)
    with pytest.raises(ConformanceError) as err:
        check_invariant(Subject(mod, others=()), invariant, max_examples=60, derandomize=True,
                        shrink=shrink)
    assert err.value.invariant == invariant, str(err.value)
    assert err.value.plugin == name
    return err.value


# ---------------------------------------------------------------------------
# The conformance kit catches broken plugins
# ---------------------------------------------------------------------------


def test_catches_an_exception_escaping_the_pipeline_and_shows_the_board() -> None:
    """A plugin that raises on some boards breaks 'no-exception-escapes'; the
    error names the plugin, the board (shrunk), and gives it as a scenario file.

    It raises in the damage pipeline (510.1a: how much combat damage a
    creature assigns) for any fragile creature, so the smallest failing board
    is one fragile attacker: hypothesis shrinks to it in a few hundred calls
    (a hook that needs a block as well cost it six times as long).
    """

    def redzone_combat_damage_amount(state: GameState, creature: str, step: str) -> int | None:
        if state.objects[creature].has("fragile"):
            raise KeyError("oops")
        return None

    err = broken("fragile", "no-exception-escapes", shrink=True,
                 redzone_combat_damage_amount=redzone_combat_damage_amount)
    text = str(err)
    assert "invariant 'no-exception-escapes' broken by plugin 'fragile'" in text
    assert "PluginError" in text and "KeyError" in text
    assert "in hook redzone_combat_damage_amount" in text
    assert "on the generated board:" in text and "[fragile]" in text
    assert "[[permanents]]" in err.scenario and '"fragile"' in err.scenario


def test_catches_a_rejected_command_that_changed_the_state() -> None:
    """733: a plugin that changes the state it was handed and then rejects the
    declaration breaks 'illegal-command-leaves-state-unchanged'."""

    def redzone_attack_violations(state: GameState, attacker: str, attacked: str
                                  ) -> list[Violation]:
        if not state.objects[attacker].has("meddler"):
            return []
        object.__setattr__(state.players["bob"], "life", 99)
        return [Violation("702.999", "meddlers can't attack", (attacker,))]

    err = broken("meddler", "illegal-command-leaves-state-unchanged",
                 redzone_attack_violations=redzone_attack_violations)
    assert "changed the state it was given" in err.detail


def test_catches_a_plugin_that_keeps_state_between_calls() -> None:
    """A plugin whose answers depend on how often it was called breaks
    'order-independent': the same combat resolves differently twice, or
    (its answers about a damage being static) the kit's engine, in verify
    mode, finds its answer changed for the same characteristics first."""
    calls = [0]

    def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
        if not state.last_known(damage.source).has("moody"):
            return []
        calls[0] += 1
        return [Result("life_gain", "702.999", damage.source, calls[0] % 2 + 1,
                       player=state.last_known(damage.source).controller)]

    err = broken("moody", "order-independent", redzone_damage_results=redzone_damage_results)
    assert "twice" in err.detail or (
        "same characteristics in another state" in err.detail and "'moody'" in err.detail)


def test_catches_results_that_depend_on_plugin_order() -> None:
    """Two plugins giving one replacement effect the same name: the one called
    last wins, so the result depends on registration order."""

    def gain(state: GameState, damage: Damage) -> list[Result]:
        src = state.last_known(damage.source)
        if not src.has("gainer"):
            return []
        return [Result("life_gain", "702.999", damage.source, 1, player=src.controller)]

    def replacement(factor: int) -> Callable[..., Any]:
        def redzone_result_replacements(state: GameState, result: Result
                                        ) -> list[ResultReplacement]:
            if result.kind != "life_gain":
                return []
            return [ResultReplacement("boon", "614.1a",
                                      lambda _s, r: attrs.evolve(r, amount=r.amount * factor))]
        return redzone_result_replacements

    mine = plugin("gainer", "gainer", redzone_damage_results=gain,
                  redzone_result_replacements=replacement(2))
    other = plugin("other_boon", redzone_result_replacements=replacement(3))
    with pytest.raises(ConformanceError) as err:
        check_invariant(Subject(mine, extra_plugins=[other]), "order-independent",
                        max_examples=60, derandomize=True, shrink=False)
    assert "order" in err.value.detail and "the result differs" in err.value.detail


def test_catches_marked_damage_beyond_damage_dealt() -> None:
    """120.3e: a plugin that marks twice the damage dealt breaks 'damage-conserved'."""

    def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
        target = state.objects.get(damage.target)
        if target is None or not state.last_known(damage.source).has("doubler"):
            return []
        return [Result("marked", "120.3e", damage.source, damage.amount * 2,
                       target=damage.target, replaces="marked")]

    err = broken("doubler", "damage-conserved", redzone_damage_results=redzone_damage_results)
    assert "(120.3e)" in err.detail


def test_catches_an_assignment_rule_the_default_policy_breaks() -> None:
    """510.1e: a plugin that adds an assignment rule the default policy can't
    meet breaks 'default-assignment-legal' (scenarios without assign fail)."""

    def redzone_assignment_violations(state: GameState, assignment: SourceAssignment
                                      ) -> list[Violation]:
        if state.objects[assignment.source].has("picky") and assignment.power > 0:
            return [Violation("702.999", "picky creatures never like their assignment",
                              (assignment.source,))]
        return []

    err = broken("picky", "default-assignment-legal",
                 redzone_assignment_violations=redzone_assignment_violations)
    assert "picky creatures never like" in err.detail


def test_keyword_metadata_needs_a_keyword_and_parsable_examples() -> None:
    """702.1: a keyword plugin declares its keywords; examples must parse."""
    with pytest.raises(ConformanceError, match="declares no keyword"):
        check_invariant(Subject(plugin("nothing")), "keyword-metadata")

    def redzone_keywords() -> list[KeywordSpec]:
        return [KeywordSpec("toxicity", "702.999", form="toxicity {number}",
                            examples=("toxicity two",))]

    mod = plugin("toxicity", redzone_keywords=redzone_keywords)
    with pytest.raises(ConformanceError, match="'toxicity two' of keyword 'toxicity'"):
        check_invariant(Subject(mod), "keyword-metadata")


def test_events_accounting_finds_each_unexplained_change() -> None:
    """Each change the events don't explain is named: life, new objects,
    zone changes, counters, and ids that don't exist."""
    before = redzone.new_game(["alice", "bob"], [redzone.creature("bear", "bob", 2, 2)])
    assert account(before, before, []) == ""
    poorer = before.with_players({"bob": attrs.evolve(before.players["bob"], life=17)})
    assert "bob's life went from 20 to 17" in account(before, poorer, [])
    assert account(before, poorer, [Event("life_loss", "120.3a", player="bob", amount=3)]) == ""
    token = redzone.creature("squirrel-1", "alice", 1, 1, token=True)
    more = before.with_permanents({"squirrel-1": token})
    assert "appeared without a 'create' event" in account(before, more, [])
    dead = before.with_permanents({"bear": before.objects["bear"].evolve(zone="graveyard")})
    assert "moved from battlefield to graveyard" in account(before, dead, [])
    countered = before.with_permanents({"bear": before.objects["bear"].evolve(
        counters={"-1/-1": 2})})
    assert "'-1/-1' counters changed by +2" in account(before, countered, [])
    assert "names 'ghost'" in account(before, before, [Event("tap", "701.26a", object="ghost")])


def test_400_7_a_returned_object_has_only_the_counters_put_on_it_since_it_entered() -> None:
    """400.7, 122.2: a permanent that died and came back is a new object. Its
    old counters are gone without a counter event, and it has exactly those
    put on it since it entered; a kind an event put on it counts even when
    none is left."""
    bear = redzone.creature("bear", "bob", 2, 2)
    before = redzone.new_game(["alice", "bob"], [bear.evolve(counters={"+1/+1": 1})])
    back = before.with_permanents({"bear": before.objects["bear"].evolve(
        counters={"-1/-1": 1}, object=2)})
    died = [Event("dies", "704.5f", object="bear"),
            Event("enters_battlefield", "400.7", object="bear")]
    persisted = [*died, Event("counters", "614.1c", target="bear", counter="-1/-1", amount=1)]
    assert account(before, back, persisted) == ""
    # Counters put on it before it left don't count toward the new object's.
    early = [Event("counters", "614.1c", target="bear", counter="-1/-1", amount=1), *died]
    assert "'-1/-1' counters changed by +1, but its events add up to +0" in account(
        before, back, early)
    # The same object that lost its counter without an event is still caught.
    same = before.with_permanents({"bear": before.objects["bear"].evolve(counters={})})
    assert "'+1/+1' counters changed by -1" in account(before, same, [])
    # A counter an event put on it, gone without an event, is caught too.
    plain = redzone.new_game(["alice", "bob"], [bear])
    assert "'+1/+1' counters changed by +0, but its events add up to +1" in account(
        plain, plain, [Event("counters", "122.1", target="bear", counter="+1/+1", amount=1)])


def test_702_79a_persist_after_mentor_accounts_for_the_counters_in_either_order() -> None:
    """702.147a, 702.79a, 400.7: two decayed attackers, one with persist and a
    +1/+1 counter from mentor, sacrificed at end of combat in either order:
    the persisting one returns as a new object with a -1/-1 counter and
    without the +1/+1 counter, and the kit's accounting agrees (a generated
    board once found it didn't)."""
    import redzone_keywords.decayed as decayed
    from redzone.testing.conformance import Case, explore, legalize, play

    subject = Subject(decayed)
    c = subject.engine.creature
    state = subject.engine.game(["alice", "bob"], [c("a1", "alice", 1, 1, "decayed", "mentor"),
                                                  c("a2", "alice", 0, 2, "decayed", "persist")])
    legal = legalize(subject.engine, Case(state, {"a1": "bob", "a2": "bob"}, {}))
    assert legal is not None
    records = play(subject.engine, legal)
    after = records[-1].after
    assert after.objects["a2"].counters == {"-1/-1": 1}
    assert after.objects["a2"].object != legal.state.objects["a2"].object  # a new object
    assert account(legal.state, after, [e for r in records for e in r.events]) == ""
    orders = [v for v in explore(subject, legal)
              if v.label.startswith("end_of_combat with order@alice") and v.after]
    assert len(orders) >= 1
    for variant in orders:
        assert variant.after is not None
        assert variant.before.objects["a2"].counters == {"+1/+1": 1}  # mentor's (702.134a)
        assert variant.after.objects["a2"].counters == {"-1/-1": 1}
        assert account(variant.before, variant.after, variant.events) == "", variant.label


BUILTIN_SUBJECT = Subject(None)


@pytest.mark.parametrize("invariant", list(INVARIANTS))
def test_the_built_in_keywords_together_keep_every_invariant(invariant: str) -> None:
    """Every invariant holds on boards mixing all the discovered keywords
    (metadata: for each built-in keyword plugin)."""
    check_invariant(BUILTIN_SUBJECT, invariant, max_examples=samples(30, 60))


def test_the_invariants_are_all_named() -> None:
    """Each invariant has a test method in KeywordConformance."""
    from redzone.testing import KeywordConformance

    methods = {m for m in dir(KeywordConformance) if m.startswith("test_")}
    assert methods == {"test_" + name.replace("-", "_") for name in INVARIANTS}


# ---------------------------------------------------------------------------
# Boards and scenario files
# ---------------------------------------------------------------------------


@given(case=cases(Engine(), (), printed_keywords(Engine())))
@settings(max_examples=40, deadline=None)
def test_a_generated_board_written_as_a_scenario_file_loads_back_identically(case: Any) -> None:
    """scenario_toml writes a board (and its declaration) that the scenario
    layer loads back to the same state, so failures can be rerun."""
    from redzone.formats import scenario

    loaded = scenario.loads(case.scenario())
    assert loaded.state == case.state
    assert dict(loaded.attacks) == dict(case.attacks)
    assert {b: list(a) for b, a in loaded.blocks.items()} == {
        b: [a] for b, a in case.blocks.items()}


def test_board_builds_creatures_planeswalkers_and_battles() -> None:
    """A Board parses keywords with its engine (an unknown one fails at once)."""
    b = Board(make_engine())
    state = b(b.c("drake", "alice", 2, 2, "flying"), b.planeswalker("jace", "bob", 3),
              b.battle("siege", "alice", 5, protector="bob", subtypes=("Siege",)))
    assert state.objects["drake"].has("flying")
    assert state.objects["jace"].loyalty == 3 and state.objects["siege"].defense == 5
    with pytest.raises(redzone.UnknownKeywordError, match="flyng"):
        b.c("x", "alice", 1, 1, "flyng")
    assert 'keywords = ["flying"]' in scenario_toml(state)


def test_make_engine_closed_sets_and_sharing() -> None:
    """builtins=False gives a closed plugin set; equal requests share an engine."""
    assert make_engine() is make_engine()
    closed = make_engine(builtins=False)
    assert closed.keywords() == ()
    assert make_engine(block=["flying"]) is not make_engine()


# ---------------------------------------------------------------------------
# Golden scenario files
# ---------------------------------------------------------------------------


def test_differences_match_objects_as_subsets_and_lists_exactly() -> None:
    assert differences({"a": 1}, {"a": 1, "b": 2}) == []
    assert differences({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}}) == [
        "$.a.b[1]: expected 2, got 3"]
    assert differences([1], [1, 2]) == ["$: expected 1 items, got 2 (first unmatched: 2)"]
    assert differences({"x": 1}, {}) == ["$.x: missing (expected 1)"]
    assert differences({"ok": True}, {"ok": 1}) == ["$.ok: expected true, got 1"]


BOARD = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[combat]
attacks = { bear = "bob" }
"""


def test_check_golden_compares_writes_and_reports(tmp_path: Path) -> None:
    """120.3a: 2 damage to Bob is 2 life lost; the expected file may hold only
    part of the outcome; a difference is reported with its JSON path."""
    scenario = tmp_path / "bear.toml"
    scenario.write_text(BOARD, encoding="utf-8")
    with pytest.raises(GoldenMismatch, match=r"bear\.expected\.json does not exist"):
        check_golden(scenario)
    full = check_golden(scenario, update=True)
    assert json.loads((tmp_path / "bear.expected.json").read_text()) == full
    check_golden(scenario)
    (tmp_path / "bear.expected.json").write_text('{"players": {"bob": {"life": 17}}}')
    with pytest.raises(GoldenMismatch, match=r"\$\.players\.bob\.life: expected 17, got 18"):
        check_golden(scenario)


def test_pytest_plugin_collects_golden_files_and_provides_fixtures(
        pytester: pytest.Pytester) -> None:
    """The pytest11 plugin: golden files in the 'redzone_golden' folders are
    tests; --redzone-update-golden writes them; fixtures can be overridden and
    parametrized."""
    pytester.makeini("[pytest]\nredzone_golden = golden\n")
    golden = pytester.mkdir("golden")
    (golden / "bear.toml").write_text(BOARD, encoding="utf-8")
    (golden / "bear.expected.json").write_text('{"ok": true, "players": {"bob": {"life": 19}}}')
    pytester.makepyfile(test_fixtures="""
        import pytest

        @pytest.fixture
        def redzone_plugins():
            import types
            from redzone import KeywordSpec, hookimpl
            mod = types.ModuleType("shiny")
            mod.redzone_keywords = hookimpl(lambda: [KeywordSpec("shiny", "702.999")])
            mod.redzone_keywords.__name__ = "redzone_keywords"
            return [mod]

        @pytest.mark.parametrize("redzone_rules", ["foundations", "m10"])
        def test_engine(redzone_engine, redzone_board, redzone_rules):
            assert redzone_engine.rules == redzone_rules
            state = redzone_board(redzone_board.c("x", "alice", 1, 1, "shiny", "flying"))
            assert state.objects["x"].has("shiny")
    """)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*golden scenario*bear.toml*",
                                 "*$.players.bob.life: expected 19, got 18*"])
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--redzone-update-golden")
    result.assert_outcomes(passed=3)
    written = json.loads((golden / "bear.expected.json").read_text())
    assert written["players"]["bob"]["life"] == 18 and written["events"]


# ---------------------------------------------------------------------------
# One plugin alone; multiplayer boards (issue 13: keyword authors)
# ---------------------------------------------------------------------------


def test_a_plugin_can_be_checked_without_its_siblings() -> None:
    """With siblings=False the subject loads the plugin and the other
    distributions' plugins, not the rest of its own distribution: a
    built-in keyword alone (the built-ins are one distribution)."""
    import redzone_keywords.flying as flying

    alone = Subject(flying, siblings=False)
    assert [i.name for i in alone.infos] == ["flying"]
    assert alone.engine.keyword("flying").name == "flying"
    with pytest.raises(redzone.UnknownKeywordError):
        alone.engine.keyword("reach")
    together = Subject(flying)
    assert "reach" in {i.name for i in together.infos}
    check_invariant(alone, "damage-conserved", max_examples=10)


def test_multiplayer_boards() -> None:
    """players=4 seats alice, bob, carol and dave (802: each opponent may be
    attacked); attackers attack each opponent; each blocker blocks an
    attacker attacking its controller; the built-ins keep every invariant."""
    engine = make_engine()
    seen_targets: set[str] = set()

    @settings(max_examples=60, derandomize=True, deadline=None)
    @given(cases(engine, ("flying",), ("trample",), players=4))
    def run(case: Any) -> None:
        assert tuple(case.state.players) == ("alice", "bob", "carol", "dave")
        defending = {**{p: p for p in case.state.players},
                     **{o.id: o.controller for o in case.state.objects.values()}}
        seen_targets.update(case.attacks.values())
        for blocker, attacker in case.blocks.items():
            owner = case.state.objects[blocker].controller
            attacked_here = [a for a, t in case.attacks.items() if defending[t] == owner]
            assert attacker in attacked_here or not attacked_here

    run()
    assert {"bob", "carol", "dave"} <= seen_targets

    @settings(max_examples=1, database=None)
    @given(cases(engine, (), players=5))
    def five(case: Any) -> None:
        pass

    with pytest.raises(ValueError, match="players must be 2 to 4"):
        five()
    import redzone_keywords.trample as trample

    for invariant in ("damage-conserved", "events-accounted-for", "order-independent"):
        check_invariant(Subject(trample, players=3), invariant, max_examples=15)


def test_the_kit_engines_run_in_verify_mode() -> None:
    """The test kit's engines fingerprint every hook call (issue 14 item 2)."""
    assert make_engine().hooks.verify
    assert Subject(None).engine.hooks.verify


def test_plugin_module_is_a_plugin_the_engine_loads() -> None:
    """A module made in memory declares its keyword with the rule given and
    its hooks are asked: a wall that can't attack (508.1c) is refused."""
    from redzone import Engine, IllegalAttackError, Violation

    def redzone_attack_violations(state: Any, attacker: str, attacked: str) -> list[Violation]:
        if state.objects[attacker].has("wall"):
            return [Violation("508.1c", f"{attacker} is a wall", (attacker,))]
        return []

    wall = plugin_module("wall", "wall", rule="702.3b",
                         redzone_attack_violations=redzone_attack_violations)
    assert wall.__doc__ == "Wall (a test plugin)."
    engine = Engine(discover=False, plugins=[wall])
    assert engine.hooks.keyword_infos["wall"].spec.rule == "702.3b"
    state = engine.game(["alice", "bob"], [engine.creature("w", "alice", 0, 4, "wall"),
                                           engine.creature("c", "alice", 2, 2)])
    with pytest.raises(IllegalAttackError, match="w is a wall"):
        engine.declare_attackers(state, {"w": "bob"})
    assert engine.declare_attackers(state, {"c": "bob"}).state.combat is not None
