"""Errors a developer can debug (issue 22, item 5): ``REDZONE_DEBUG=1`` shows
a failing plugin's traceback for exit status 3 on every command that can
exit with it; a broken invariant of the conformance kit shows its readable
summary first; :meth:`Engine.game` refuses a permanent controlled or owned
by no player of the game; a list or a str where a mapping is expected is a
typed error naming the argument; the API's "no such object" errors suggest
the closest id, as the scenario loader does."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner, Result
from redzone import (
    AddCounters,
    BadQueryError,
    Engine,
    GameState,
    IllegalActionError,
    Pump,
    UnknownObjectError,
    examples,
    simulate,
)
from redzone.formats.serialize import state_to_dict
from redzone.frontends.cli import cli
from redzone.kernel.engine import CombatPlan
from redzone.kernel.errors import did_you_mean

pytest_plugins = ["pytester"]

GOOD = examples.path("vastwood-gorger")

#: A plugin that raises from a function of its own whenever a creature's
#: attack is checked (508.1): every command that declares attackers calls it.
FAILING_PLUGIN = '''
"""A plugin that fails (a test plugin)."""
from redzone import hookimpl


def explode_in_the_plugin(attacker):
    raise RuntimeError(f"the plugin's own failure, checking {attacker}")


@hookimpl
def redzone_attack_violations(state, attacker):
    explode_in_the_plugin(attacker)
'''

#: A plugin that fails as it is imported (``redzone keywords`` loads plugins
#: and asks nothing else).
UNLOADABLE_PLUGIN = '''
"""A plugin that fails to import (a test plugin)."""


def explode_while_importing():
    raise RuntimeError("the plugin's own failure, importing")


explode_while_importing()
'''


def _install(site: Path, module: str, source: str, monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[str]:
    """Install ``source`` as the plugin module ``module`` of a distribution
    on ``sys.path`` (its .dist-info with a ``redzone`` entry point), for one
    test; the module's file name, which its frames cite."""
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    dist = site / f"{module}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[redzone]\n{module} = {module}\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    try:
        yield f"{module}.py"
    finally:
        sys.modules.pop(module, None)


@pytest.fixture
def failing_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield from _install(tmp_path, "rz_debug_failing", FAILING_PLUGIN, monkeypatch)


@pytest.fixture
def unloadable_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield from _install(tmp_path, "rz_debug_unloadable", UNLOADABLE_PLUGIN, monkeypatch)


def _invoke(monkeypatch: pytest.MonkeyPatch, debug: bool, *args: str) -> Result:
    if debug:
        monkeypatch.setenv("REDZONE_DEBUG", "1")
    else:
        monkeypatch.delenv("REDZONE_DEBUG", raising=False)
    return CliRunner().invoke(cli, list(args))


# ---------------------------------------------------------------------------
# REDZONE_DEBUG=1: the plugin's traceback for exit status 3
# ---------------------------------------------------------------------------

#: Every command that resolves or checks a scenario, and so calls the plugin.
COMMANDS = {
    "run": ["run", str(GOOD)],
    "run --json": ["run", "--json", str(GOOD)],
    "run --board": ["run", "--board", str(GOOD)],
    "check": ["check", str(GOOD)],
    "check --json": ["check", "--json", str(GOOD)],
    "explain": ["explain", str(GOOD)],
    "demo": ["demo"],
    "batch --json": ["batch", "--json", str(GOOD)],  # the summary's timings vary
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_redzone_debug_shows_the_failing_plugins_traceback(
        command: str, failing_plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 item 5 (docs/command-line.md, exit status 3): a plugin that
    raises fails the command with status 3 and one line naming it; with
    ``REDZONE_DEBUG=1`` the traceback follows on standard error, down to the
    plugin's own frame (the PluginError's cause), and standard output (the
    JSON outcome with ``--json``) is unchanged."""
    quiet = _invoke(monkeypatch, False, *COMMANDS[command])
    assert quiet.exit_code == 3, quiet.output
    assert "rz_debug_failing" in quiet.output
    assert "Traceback" not in quiet.output

    loud = _invoke(monkeypatch, True, *COMMANDS[command])
    assert loud.exit_code == 3, loud.output
    assert "Traceback (most recent call last)" in loud.stderr
    assert failing_plugin in loud.stderr and "in explode_in_the_plugin" in loud.stderr
    assert "RuntimeError: the plugin's own failure, checking" in loud.stderr
    assert "PluginError" in loud.stderr  # the kernel's error, caused by the plugin's
    assert loud.stdout == quiet.stdout


@pytest.mark.parametrize("command", [["keywords"], ["run", str(GOOD)],
                                     ["cards", "cards.json", "Grizzly Bears"]])
def test_redzone_debug_shows_a_plugins_import_failure(
        command: list[str], unloadable_plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 item 5: a plugin that fails to import fails ``keywords``
    (and any command that loads the plugins) with status 3, named as a
    plugin's failure (not as a bug of redzone); ``REDZONE_DEBUG=1`` shows the
    traceback through the plugin's module."""
    quiet = _invoke(monkeypatch, False, *command)
    assert quiet.exit_code == 3, quiet.output
    assert "rz_debug_unloadable" in quiet.output and "Traceback" not in quiet.output
    assert "internal error" not in quiet.output
    loud = _invoke(monkeypatch, True, *command)
    assert loud.exit_code == 3, loud.output
    assert unloadable_plugin in loud.stderr and "in explode_while_importing" in loud.stderr
    assert "PluginLoadError" in loud.stderr


# ---------------------------------------------------------------------------
# The conformance kit: a broken invariant's readable summary first
# ---------------------------------------------------------------------------

#: A keyword whose plugin raises as a creature with it deals combat damage
#: (510.1a): it breaks 'no-exception-escapes' on a board of one attacker.
BROKEN_KEYWORD_TEST = '''
from redzone.testing import KeywordConformance, plugin_module


def redzone_combat_damage_amount(state, creature, step):
    if state.objects[creature].has("fragile"):
        raise KeyError("oops, fragile")
    return None


class TestFragileConformance(KeywordConformance):
    plugin = plugin_module("fragile", "fragile",
                           redzone_combat_damage_amount=redzone_combat_damage_amount)
    others = ()
'''


def test_a_broken_invariant_shows_its_summary_first(pytester: pytest.Pytester) -> None:
    """Issue 22 item 5: a keyword that breaks an invariant fails its
    KeywordConformance test with the kit's summary (which invariant, which
    plugin, what broke) as the first thing of the failure after the test's
    own line: before the board, hypothesis's falsifying example and the
    plugin's traceback, with no source of the kit's checks in between and
    the falsifying example as the short board, not every field of the state."""
    pytester.makepyfile(test_fragile=BROKEN_KEYWORD_TEST)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-k",
                                          "no_exception_escapes")
    result.assert_outcomes(failed=1)
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if "TestFragileConformance" in line
                 and "test_no_exception_escapes" in line)
    failure = lines[start:]
    first = next(i for i, line in enumerate(failure) if line.startswith("E "))
    assert "invariant 'no-exception-escapes' broken by plugin 'fragile'" in failure[first]
    assert "raised PluginError" in failure[first + 1] and "oops, fragile" in failure[first + 1]
    before = "\n".join(failure[:first])
    assert "def check_no_exception_escapes" not in before and "Traceback" not in before
    assert "@given" not in before
    text = "\n".join(failure)
    # hypothesis names its minimal example "Falsifying example" (and, from
    # 6.16x on, "Failing test case")
    example = "Falsifying example:" if "Falsifying example:" in text else "Failing test case:"
    order = [text.index(s) for s in ("broken by plugin 'fragile'", "on the generated board:",
                                     example, "caused by:",
                                     ", in redzone_combat_damage_amount")]  # the plugin's frame
    assert order == sorted(order)
    assert "keyword_set=" not in text and "Explanation:" not in text


# ---------------------------------------------------------------------------
# Engine.game: a permanent's controller and owner are players of the game
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["controller", "owner"])
def test_110_2_game_refuses_a_permanent_of_no_player(engine: Engine, role: str) -> None:
    """110.2 (issue 22 item 5): a permanent's controller and owner are
    players; Engine.game refuses a permanent whose controller (or owner) is
    no player of the game with a BadQueryError naming the permanent and the
    player, suggesting the closest player id, and builds no state."""
    c = engine.creature
    wrong = c("bear", "alice", 2, 2, **{role: "bbo"}) if role == "owner" else c(
        "bear", "bbo", 2, 2)
    with pytest.raises(BadQueryError) as info:
        engine.game(["alice", "bob"], [c("elf", "alice", 1, 1), wrong])
    err = info.value
    message = str(err)
    assert f"permanent 'bear' has {role} 'bbo', who is not a player of the game" in message
    assert "did you mean 'bob'?" in message and "(players: 'alice', 'bob')" in message
    assert err.rule == "110.2" and err.objects == ("bbo", "bear")
    # the same permanents with a player's id are a game
    fixed = c("bear", "alice", 2, 2, owner="bob") if role == "owner" else c("bear", "bob", 2, 2)
    state = engine.game(["alice", "bob"], [c("elf", "alice", 1, 1), fixed])
    assert getattr(state.objects["bear"], role) == "bob"


# ---------------------------------------------------------------------------
# A list (or a str) where a mapping, or a list, is expected
# ---------------------------------------------------------------------------

BEAR_BOARD = [("bear", "alice", 2, 2), ("elf", "bob", 1, 1)]


@pytest.fixture
def board_state(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature(*p) for p in BEAR_BOARD])


def _game_case(engine: Engine, kwargs: dict[str, Any]) -> Callable[[], object]:
    perms = [engine.creature(*p) for p in BEAR_BOARD]
    args: dict[str, Any] = {"players": ["alice", "bob"], "permanents": perms, **kwargs}
    return lambda: engine.game(**args)


#: Engine.game's arguments of the wrong shape, and what the error names.
GAME_SHAPES = {
    "players str": ({"players": "alice"}, "game: players is a str 'alice', not a list"),
    "players dict": ({"players": {"alice": 20}}, "game: players is a dict, not a list"),
    "player int": ({"players": ["alice", 7]}, "game: players[1] is an int 7, not a Player"),
    "permanents dict": ({"permanents": {"bear": None}}, "game: permanents is a dict, not"),
    "permanent str": ({"permanents": ["bear"]}, "game: permanents[0] is a str 'bear', not a "
                                                "Permanent"),
    "teams list": ({"teams": ["alice", "bob"]}, "game: teams is a list, not a mapping"),
    "team str": ({"teams": {"t": "alice"}}, "game: teams['t'] is a str 'alice', not a list"),
    "effects str": ({"effects": "x"}, "game: effects is a str 'x', not a list"),
}


@pytest.mark.parametrize("case", sorted(GAME_SHAPES))
def test_game_refuses_an_argument_of_the_wrong_shape(engine: Engine, case: str) -> None:
    """Issue 22 item 5: Engine.game given a str, a dict or a single value
    where it takes a list (or a list where it takes a mapping) raises a
    BadQueryError naming the argument, instead of iterating a str's
    characters or a dict's keys, or failing with a bare AttributeError."""
    kwargs, expected = GAME_SHAPES[case]
    with pytest.raises(BadQueryError) as info:
        _game_case(engine, kwargs)()
    assert expected in str(info.value)


#: Engine.resolve's arguments of the wrong shape, and what the error names.
RESOLVE_SHAPES: dict[str, tuple[dict[str, Any], str]] = {
    "assign_first_strike list": ({"assign_first_strike": ["bear"]},
                                 "resolve: assign_first_strike is a list, not a mapping"),
    "order list": ({"order": ["bear"]}, "resolve: order is a list, not a mapping"),
    "bands str": ({"bands": "bear"}, "resolve: bands is a str, not a list of bands"),
    "additional_combats str": ({"additional_combats": "plan"},
                               "additional_combats[0] is str, where a CombatPlan"),
    "choices list": ({"choices": ["yes"]}, "choices is list ['yes'], where a mapping"),
}


@pytest.mark.parametrize("case", sorted(RESOLVE_SHAPES))
def test_resolve_refuses_an_argument_of_the_wrong_shape(
        engine: Engine, board_state: GameState, case: str) -> None:
    """Issue 22 item 5: resolve refuses a list or a str where it takes a
    mapping (an assignment, an order, choices) or a list of bands, naming the
    argument, before anything is done, even one no step would have read (a
    first-strike assignment without a first-strike step was ignored)."""
    kwargs, expected = RESOLVE_SHAPES[case]
    before = state_to_dict(board_state)
    with pytest.raises(BadQueryError) as info:
        engine.resolve(board_state, {"bear": "bob"}, {"elf": "bear"}, **kwargs)
    assert expected in str(info.value)
    assert state_to_dict(board_state) == before


def test_resolve_refuses_an_additional_combats_assignment_that_isnt_a_mapping(
        engine: Engine, board_state: GameState) -> None:
    """Issue 22 item 5, 500.8: an additional combat's assignment is checked as
    the first combat's, named by its place."""
    with pytest.raises(BadQueryError, match=r"resolve: additional_combats\[0\]\.assign is a "
                                            "list, not a mapping"):
        engine.resolve(board_state, {"bear": "bob"}, additional_combats=[
            CombatPlan({}, assign=["bear"])])  # type: ignore[arg-type]


@pytest.mark.parametrize("counters", [["+1/+1"], "+1/+1", 3])
def test_122_1_add_counters_refuses_counters_that_arent_a_mapping(counters: Any) -> None:
    """122.1 (issue 22 item 5): AddCounters' counters are a mapping of kinds
    to amounts; a list of kinds or a str is a BadQueryError naming the field
    (a bare ValueError from dict() before), while the pairs a made action
    holds still evolve."""
    with pytest.raises(BadQueryError, match=r"AddCounters\.counters is .* where a mapping of "
                                            "counter kinds to amounts was expected"):
        AddCounters("bear", counters)
    made = AddCounters("bear", {"+1/+1": 2})
    assert attrs.evolve(made, target="elf").counters == (("+1/+1", 2),)


@pytest.mark.parametrize("jobs", ["combat.toml", {"attacks": {}}, "pair"])
def test_simulate_refuses_one_job_where_the_jobs_are_expected(
        engine: Engine, board_state: GameState, jobs: Any) -> None:
    """Issue 22 item 5: simulate takes an iterable of jobs; a path (a job per
    character before), a mapping (a job per key) or one (state, decisions)
    pair is a BadQueryError naming ``jobs``, before any job runs."""
    given = (board_state, {"attacks": {"bear": "bob"}}) if jobs == "pair" else jobs
    with pytest.raises(BadQueryError, match=r"simulate: jobs is .*, not an iterable of jobs"):
        simulate(given, engine=engine)


# ---------------------------------------------------------------------------
# The API's "no such object" errors suggest the closest id
# ---------------------------------------------------------------------------


def test_an_unknown_id_in_the_api_gets_the_scenario_loaders_suggestion(
        engine: Engine, board_state: GameState) -> None:
    """Issue 22 item 5: a query naming no object of the state
    (UnknownObjectError) and an action naming no permanent (400.1) suggest
    the closest id, worded as the scenario loader words an unknown id; no
    suggestion when nothing is close."""
    with pytest.raises(UnknownObjectError) as info:
        engine.lethal_damage(board_state, "baer", "elf")
    assert str(info.value) == ("lethal_damage: source 'baer' is not an object of the state; "
                               "did you mean 'bear'?")
    with pytest.raises(IllegalActionError) as action:
        engine.perform(board_state, Pump("elff", 1, 1))
    assert str(action.value) == ("pump: there is no permanent 'elff'; did you mean 'elf'? "
                                 "(rule 400.1)")
    with pytest.raises(UnknownObjectError) as far:
        engine.lethal_damage(board_state, "bear", "zzzzzz")
    assert "did you mean" not in str(far.value)


def test_the_api_and_the_scenario_loader_share_one_suggestion() -> None:
    """Issue 22 item 5: the scenario loader's suggestion is the kernel's
    did_you_mean, counted against the file's budget: the same words for the
    same typo."""
    from redzone.formats import validator

    token = validator.suggestions_left.set(3)
    try:
        assert validator.suggest("baer", ["bear", "elf"]) == did_you_mean("baer", ["bear", "elf"])
        assert validator.suggestions_left.get() == 2
    finally:
        validator.suggestions_left.reset(token)
    assert did_you_mean("baer", ["bear", "elf"]) == "; did you mean 'bear'?"
    assert did_you_mean(3, ["bear"]) == "" and did_you_mean("x" * 101, ["x" * 100]) == ""


def test_508_1a_509_1a_a_declaration_naming_no_permanent_suggests_the_closest_id(
        engine: Engine, board_state: GameState) -> None:
    """508.1a, 508.1b, 509.1a (issue 22 item 5): a declaration naming an id
    the state doesn't have (the attacker, what it attacks, the blocker, the
    attacker blocked) suggests the closest id, in the command's error and in
    the matching query alike."""
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(board_state, {"baer": "bob"})
    assert str(info.value) == ("there is no permanent 'baer' to attack with; did you mean "
                               "'bear'? (rule 508.1a)")
    assert engine.attack_violations(board_state, {"baer": "bob"}) == info.value.violations
    with pytest.raises(IllegalActionError, match=r"'bbo', which is neither a player nor a "
                                                 r"permanent; did you mean 'bob'\?"):
        engine.declare_attackers(board_state, {"bear": "bbo"})
    attacking = engine.declare_attackers(engine.begin_combat(board_state).state,
                                         {"bear": "bob"}).state
    with pytest.raises(IllegalActionError, match=r"no permanent 'eelf' to block with; did you "
                                                 r"mean 'elf'\?"):
        engine.declare_blockers(attacking, {"eelf": "bear"})
    with pytest.raises(IllegalActionError, match=r"can't block baer.*; did you mean 'bear'\?"):
        engine.declare_blockers(attacking, {"elf": "baer"})


def test_a_declaration_of_many_unknown_ids_gets_a_bounded_number_of_suggestions(
        engine: Engine, board_state: GameState) -> None:
    """Issue 22 item 5: each suggestion compares an id with every id of the
    state, so a declaration of many unknown ids gets MAX_SUGGESTED of them,
    the rest their plain violation (a hostile declaration stays cheap)."""
    from redzone.kernel.combat import MAX_SUGGESTED

    found = engine.attack_violations(board_state, {f"bear{i}": "bob" for i in range(40)})
    hinted = [v for v in found if "did you mean 'bear'?" in v.message]
    assert len(found) == 40 and len(hinted) == MAX_SUGGESTED
