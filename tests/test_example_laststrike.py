"""The example third-party package docs/examples/laststrike: a made-up
keyword that adds a combat damage step after the regular one, through
redzone_damage_steps and redzone_deals_combat_damage (510.4 generalised).

The package is "installed" for this module only, as tests/test_example_plugin.py
installs squirrellink: its ``src`` folder and a ``.dist-info`` folder written
from its own ``pyproject.toml`` go on ``sys.path``, and come off afterwards.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import example_packages
import pytest
from redzone import Engine, IllegalActionError, creature

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "laststrike"
PROJECT = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
MODULE = "redzone_laststrike"
SCENARIO = EXAMPLE / "scenarios" / "monk_and_bear.toml"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The example package, installed for this module; yields its module."""
    yield from example_packages.installed("laststrike", MODULE, tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def ls_engine(installed: Any) -> Engine:
    return Engine()


def test_the_step_is_declared_by_the_plugin(ls_engine: Engine) -> None:
    """510.4 generalised: the engine knows the steps plugins declare, in
    order, around the kernel's regular one (order 0)."""
    assert [(s.name, s.order) for s in ls_engine.damage_steps] == [
        ("first_strike_damage", -1), ("combat_damage", 0), ("last_strike_damage", 1)]
    assert "last_strike_damage" in ls_engine.step_names()
    assert "last_strike_damage" not in Engine(block=["laststrike"]).step_names()


def test_step_api_goes_through_the_new_step(ls_engine: Engine) -> None:
    """510.4 / 506.1: after the regular step, next_step names the plugin's
    step, then the end of combat; damage_duties lists only the last striker."""
    state = ls_engine.game(["alice", "bob"], [
        ls_engine.creature("monk", "alice", 3, 3, "last strike"), creature("orc", "alice", 2, 2)])
    state = ls_engine.declare_attackers(state, {"monk": "bob", "orc": "bob"}).state
    state = ls_engine.declare_blockers(state, {}).state
    assert ls_engine.next_step(state) == "combat_damage"
    assert [d.source for d in ls_engine.damage_duties(state)[1]] == ["orc"]
    state = ls_engine.combat_damage(state).state
    assert ls_engine.next_step(state) == "last_strike_damage"
    step, duties = ls_engine.damage_duties(state)
    assert (step, [d.source for d in duties]) == ("last_strike_damage", ["monk"])
    state = ls_engine.combat_damage(state).state
    assert state.combat is not None and dict(state.combat.damage_steps) == {
        "combat_damage": frozenset({"orc"}), "last_strike_damage": frozenset({"monk"})}
    assert ls_engine.next_step(state) == "end_of_combat"
    with pytest.raises(IllegalActionError) as info:
        ls_engine.combat_damage(state)
    assert info.value.rule == "506.1"


def test_damage_on_the_stack_edition_gets_its_window(installed: Any) -> None:
    """310.1 of 1999-2009: under "sixth" the plugin's step, like every combat
    damage step, assigns onto the stack first (last_strike_damage_assigned)."""
    engine = Engine("sixth")
    state = engine.game(["alice", "bob"], [engine.creature("monk", "alice", 3, 3,
                                                           "last strike")])
    result = engine.resolve(state, {"monk": "bob"})
    assert result.steps[-3:] == ("last_strike_damage_assigned", "last_strike_damage",
                                 "end_of_combat")
    assert result.state.players["bob"].life == 17


def test_second_combat_labels_the_step(ls_engine: Engine) -> None:
    """505.1a: in an additional combat the plugin's step is labelled #2 like
    the kernel's steps."""
    from redzone.kernel.engine import CombatPlan

    state = ls_engine.game(["alice", "bob"], [
        ls_engine.creature("monk", "alice", 3, 3, "last strike", "vigilance")])
    result = ls_engine.resolve(state, {"monk": "bob"},
                               additional_combats=[CombatPlan({"monk": "bob"})])
    assert "last_strike_damage" in result.steps and "last_strike_damage#2" in result.steps
    assert result.state.players["bob"].life == 14


def test_scenario_file_acts_after_the_new_step(installed: Any) -> None:
    """A scenario file names the plugin's step in a result and as ``after``:
    the bear deals 2 in the regular step; Giant Growth after it makes the
    monk's last-strike hit 6 (lifelink gains 6, 702.15b)."""
    from redzone.formats import outcome, scenario

    res = outcome.resolve(scenario.load(SCENARIO))
    assert res.result is not None
    assert res.result.state.players["alice"].life == 26
    assert res.result.state.objects["bear"].zone == "graveyard"


def test_scenario_rejects_an_unknown_after_step(installed: Any, tmp_path: Path) -> None:
    """A scenario action after a step no loaded plugin declares is a problem
    naming the key and the known steps (not an error after the combat)."""
    from redzone.formats import scenario

    text = SCENARIO.read_text(encoding="utf-8").replace(
        'after = "combat_damage"', 'after = "lastt_strike_damage"')
    path = tmp_path / "typo.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(scenario.ScenarioProblems) as info:
        scenario.load(path)
    message = str(info.value)
    assert "lastt_strike_damage" in message and "last_strike_damage" in message
    blocked = text.replace("lastt_strike_damage", "last_strike_damage")
    path.write_text(blocked, encoding="utf-8")
    with pytest.raises(scenario.ScenarioProblems):
        scenario.load(path, engine_factory=lambda rules: Engine(rules, block=["laststrike"]))


def test_cli_run_json(installed: Any) -> None:
    """``redzone run --json``: the JSON outcome's ``steps`` and
    ``after_steps`` carry the plugin's step."""
    from click.testing import CliRunner
    from redzone.frontends import cli

    result = CliRunner().invoke(cli.cli, ["run", "--json", str(SCENARIO)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["steps"][-2:] == ["last_strike_damage", "end_of_combat"]
    assert set(data["after_steps"]) == {"combat_damage", "last_strike_damage"}


def test_the_account_titles_the_step(installed: Any) -> None:
    """The account shows the plugin's step with its own summary."""
    from click.testing import CliRunner
    from redzone.frontends import cli

    result = CliRunner().invoke(cli.cli, ["run", str(SCENARIO)])
    assert result.exit_code == 0, result.output
    assert "Last combat damage step (creatures with last strike)" in result.output


def test_the_examples_own_test_suite_passes(installed: Any, pytester: pytest.Pytester) -> None:
    """The package's tests pass as its author runs them: unit tests, the
    conformance kit (KeywordConformance) and its golden scenario."""
    result = pytester.runpytest_inprocess(
        "-c", str(EXAMPLE / "pyproject.toml"), "--rootdir", str(EXAMPLE),
        "-p", "no:cacheprovider", "-q", str(EXAMPLE / "tests"), str(EXAMPLE / "scenarios"))
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("errors", 0) == 0, \
        "\n".join(result.outlines)
    # 7 conformance invariants + 7 unit tests + 1 golden scenario
    assert outcomes.get("passed") == 15, "\n".join(result.outlines)
