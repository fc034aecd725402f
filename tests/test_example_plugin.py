"""The example third-party plugin (docs/examples/squirrellink) and the core's
``create`` result kind it needs (111.2, 701.7a).

The example package is "installed" for this module only, the way an editable
install does it, without building anything: its ``src`` folder and a
``.dist-info`` folder (metadata and entry points read from the package's own
``pyproject.toml``) go on ``sys.path``, and come off again afterwards so no
other test sees the plugin.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import example_packages
import pytest
import redzone
from redzone import (
    DealDamage,
    Effect,
    Engine,
    GameState,
    Permanent,
    Result,
    ResultReplacement,
    UnknownKeywordError,
    hookimpl,
)
from redzone.kernel.damage import create_tokens

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "squirrellink"
PROJECT = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
MODULE = "redzone_squirrellink"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The example package, installed for this module; yields its module."""
    yield from example_packages.installed("squirrellink", MODULE, tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def sq_engine(installed: Any) -> Engine:
    """An engine with every discovered plugin, the example included."""
    return Engine()


def squirrels(state: GameState, player: str) -> list[Permanent]:
    return [p for p in state.battlefield if p.token and p.name == "Squirrel"
            and p.controller == player]


# ---------------------------------------------------------------------------
# Discovery, blocking, listing
# ---------------------------------------------------------------------------


def test_discovered_through_its_entry_point(sq_engine: Engine) -> None:
    """The plugin is found in the 'redzone' entry-point group and its keyword
    is credited to the example's distribution and version."""
    info = {k.spec.name: k for k in sq_engine.keywords()}["squirrellink"]
    assert (info.plugin, info.distribution, info.version) == (
        "squirrellink", PROJECT["name"], PROJECT["version"])
    assert getattr(sq_engine.plugin_infos["squirrellink"].module, "__name__", "") == MODULE


def test_block_list_keeps_it_out(installed: Any) -> None:
    """Engine(block=[...]) doesn't load a blocked plugin (plugins.py discovery
    step 4); its keyword is then unknown."""
    engine = Engine(block=["squirrellink"])
    assert "squirrellink" not in engine.plugin_infos
    with pytest.raises(UnknownKeywordError):
        engine.creature("earl", "alice", 4, 4, "squirrellink")


def test_listed_by_redzone_keywords(installed: Any) -> None:
    """``redzone keywords`` lists it with its distribution and version."""
    from click.testing import CliRunner
    from redzone.frontends import cli

    result = CliRunner().invoke(cli.cli, ["keywords"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("squirrellink "))
    assert PROJECT["name"] in line and PROJECT["version"] in line


# ---------------------------------------------------------------------------
# Scenario files and the command line
# ---------------------------------------------------------------------------

SCENARIO = EXAMPLE / "scenarios" / "earl_of_squirrel.toml"


def test_scenario_file_creates_squirrels(installed: Any) -> None:
    """A scenario file naming the keyword resolves: 702.19b trample assigns 2
    to the 2/2 and 2 to Bob; all 4 damage creates 4 Squirrels (701.7a)."""
    from redzone.formats import outcome, scenario

    res = outcome.resolve(scenario.load(SCENARIO))
    assert res.result is not None
    state = res.result.state
    assert [p.id for p in squirrels(state, "alice")] == [
        f"earl.squirrellink.{i}" for i in range(1, 5)]
    assert state.players["bob"].life == 18


def test_cli_run_json(installed: Any) -> None:
    """``redzone run --json`` prints the tokens in the JSON outcome."""
    from click.testing import CliRunner
    from redzone.frontends import cli

    result = CliRunner().invoke(cli.cli, ["run", "--json", str(SCENARIO)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["permanents"]["earl.squirrellink.4"]["zone"] == "battlefield"
    assert [e["object"] for e in data["events"] if e["kind"] == "create"] == [
        "earl.squirrellink.1", "earl.squirrellink.2", "earl.squirrellink.3",
        "earl.squirrellink.4"]


def test_the_examples_own_test_suite_passes(installed: Any, pytester: pytest.Pytester) -> None:
    """The package's tests pass as its author runs them: unit tests on the kit's
    fixtures, the conformance kit (KeywordConformance) and its golden scenario."""
    result = pytester.runpytest_inprocess(
        "-c", str(EXAMPLE / "pyproject.toml"), "--rootdir", str(EXAMPLE),
        "-p", "no:cacheprovider", "-q", str(EXAMPLE / "tests"), str(EXAMPLE / "scenarios"))
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("errors", 0) == 0, \
        "\n".join(result.outlines)
    # 7 conformance invariants + 4 unit tests + 1 golden scenario
    assert outcomes.get("passed") == 12, "\n".join(result.outlines)


# ---------------------------------------------------------------------------
# The core's general mechanism: the "create" result kind
# ---------------------------------------------------------------------------


def test_tokens_are_owned_and_controlled_by_the_creator_and_summoning_sick(
        sq_engine: Engine) -> None:
    """111.2: the player who creates a token owns it and it enters under their
    control; it has not been controlled since the turn began (302.6)."""
    state = sq_engine.game(["alice", "bob"], [
        sq_engine.creature("earl", "alice", 2, 2, "squirrellink", owner="bob")])
    result = sq_engine.resolve(state, {"earl": "bob"})
    made = squirrels(result.state, "alice")
    assert len(made) == 2
    assert all(p.owner == "alice" and p.summoning_sick and p.token for p in made)


def test_token_ids_are_deterministic_and_skip_ids_in_use(sq_engine: Engine) -> None:
    """701.7a, 111.1: each token is a new object, with the id every keyword's
    tokens have (``<source id>.<keyword>.<n>``, the form the scenario format
    promises so that a file can name them); ids never collide with existing
    ones."""
    state = sq_engine.game(["alice", "bob"], [
        sq_engine.creature("earl", "alice", 3, 3, "squirrellink"),
        sq_engine.creature("earl.squirrellink.2", "bob", 1, 1)])
    result = sq_engine.resolve(state, {"earl": "bob"})
    assert [p.id for p in squirrels(result.state, "alice")] == [
        "earl.squirrellink.1", "earl.squirrellink.3", "earl.squirrellink.4"]


def test_a_source_that_died_in_the_same_damage_still_creates(sq_engine: Engine) -> None:
    """Results of simultaneous damage are read from last known information
    (120.4, 608.2h): a 2/2 squirrellink blocker trading with a 3/3 makes 2."""
    state = sq_engine.game(["alice", "bob"], [
        sq_engine.creature("ogre", "alice", 3, 3),
        sq_engine.creature("earl", "bob", 2, 2, "squirrellink")])
    result = sq_engine.resolve(state, {"ogre": "bob"}, {"earl": "ogre"})
    assert result.state.objects["earl"].zone == "graveyard"
    assert len(squirrels(result.state, "bob")) == 2


def test_prevented_damage_creates_no_tokens(sq_engine: Engine) -> None:
    """615: prevented damage is never dealt, so it has no results (120.3)."""
    state = sq_engine.game(["alice", "bob"], [
        sq_engine.creature("earl", "alice", 3, 3, "squirrellink")],
        effects=[Effect("prevent_all_combat_damage")])
    assert squirrels(sq_engine.resolve(state, {"earl": "bob"}).state, "alice") == []


def test_noncombat_damage_creates_tokens(sq_engine: Engine) -> None:
    """120.2b: noncombat damage goes through the same pipeline."""
    state = sq_engine.game(["alice", "bob"], [
        sq_engine.creature("earl", "bob", 1, 1, "squirrellink"),
        sq_engine.creature("hawk", "alice", 1, 1)])
    out = sq_engine.perform(state, DealDamage("earl", "alice", 2))
    assert len(squirrels(out.state, "bob")) == 2
    assert [e.object for e in out.events if e.kind == "create"] == [
        "earl.squirrellink.1", "earl.squirrellink.2"]


class _TokenDoubler:
    """A Parallel Lives: "If an effect would create one or more tokens under your
    control, it creates twice that many of those tokens instead" (614.1a)."""

    __name__ = "token_doubler"

    @staticmethod
    @hookimpl
    def redzone_result_replacements(state: GameState, result: Result) -> list[ResultReplacement]:
        if result.kind != "create":
            return []
        return [ResultReplacement("token doubler", "614.1a",
                                  lambda _s, r: attrs.evolve(r, amount=r.amount * 2))]


def test_a_result_replacement_doubles_created_tokens(installed: Any) -> None:
    """120.4c, 614.1a: a 'create' result is modified by result replacement
    effects like any other: 2 damage, doubled, makes 4 Squirrels."""
    engine = Engine(plugins=[_TokenDoubler()])
    state = engine.game(["alice", "bob"], [engine.creature("earl", "alice", 2, 2, "squirrellink")])
    assert len(squirrels(engine.resolve(state, {"earl": "bob"}).state, "alice")) == 4


def test_a_create_result_without_a_token_is_an_error() -> None:
    """701.7a needs the token's characteristics; a plugin that forgets them is
    told so instead of getting a half-made object."""
    state = redzone.new_game(["alice"], [redzone.creature("earl", "alice", 1, 1)])
    with pytest.raises(ValueError, match="needs a token"):
        create_tokens(state, Result("create", "701.7a", "earl", 1), "main")
