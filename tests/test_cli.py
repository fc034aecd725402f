"""The ``redzone`` command line, as a user runs it: click's CliRunner for
every command and exit status, and real subprocess runs of the installed
``redzone`` console script.

Exit statuses (scenario format): 0 resolved, 1 an illegal declaration, 2 a
bad scenario file; 3 (beyond the format) a failing plugin.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result
from redzone import examples
from redzone.formats.scenario import schema
from redzone.frontends.cli import cli, main
from redzone.kernel.editions import EDITIONS

ANSI = "\x1b["

GOOD = examples.path("vastwood-gorger")
ILLEGAL = examples.path("menace-one-blocker")

TRAMPLE_ASSIGNMENT = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
name = "Craw Wurm"
controller = "alice"
power = 6
toughness = 4
keywords = ["trample"]
[[permanents]]
id = "wall"
name = "Wall of Wood"
controller = "bob"
power = 0
toughness = 3
damage = 1
[[permanents]]
id = "cadet"
name = "Eager Cadet"
controller = "bob"
power = 1
toughness = 1
[combat]
attacks = { wurm = "bob" }
blocks = { wall = ["wurm"], cadet = "wurm" }
[combat.assign]
wurm = { wall = 1, cadet = 1, bob = 4 }
"""

BAD = """\
active_player = "alice"
[players.alice]
[players.bob]
lif = 3
[[permanents]]
id = "wurm"
controller = "alice"
power = "six"
toughness = 4
keywords = ["trampel"]
"""


def all_commands() -> dict[str, click.Command]:
    """Every command of the CLI, by name, as ``redzone --help`` lists them
    (``batch`` is imported on first use, so ``cli.commands`` may lack it)."""
    ctx = click.Context(cli)
    found = {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(BAD)
    return path


@pytest.fixture
def trample_file(tmp_path: Path) -> Path:
    path = tmp_path / "wurm.toml"
    path.write_text(TRAMPLE_ASSIGNMENT)
    return path


def check_outcome_shape(out: dict[str, Any]) -> None:
    """The JSON outcome's shape, as the scenario format specifies it."""
    assert out["ok"] is True
    assert isinstance(out["rules"], str)
    for player in out["players"].values():
        assert set(player) == {"life", "poison", "lost"}
        assert isinstance(player["life"], int) and isinstance(player["lost"], bool)
    for perm in out["permanents"].values():
        assert set(perm) == {"zone", "object", "power", "toughness", "damage", "counters",
                             "tapped", "loyalty", "defense", "keywords"}
        assert perm["zone"] in ("battlefield", "hand", "library", "graveyard", "exile", "stack")
        assert isinstance(perm["object"], int) and perm["object"] >= 1  # 400.7
        assert isinstance(perm["keywords"], list) and isinstance(perm["counters"], dict)
    assert set(out["zones"]) == set(out["players"])  # the additions of January 2027
    for zones in out["zones"].values():
        assert list(zones) == ["hand", "library", "graveyard", "exile"]
    assert out["steps"][0] == "beginning_of_combat" and out["steps"][-1] == "end_of_combat"
    assert set(out["after_steps"]) <= {"first_strike_damage", "combat_damage"}
    for board in out["after_steps"].values():
        assert set(board) == {"players", "permanents", "zones"}
    for event in out["events"]:
        assert isinstance(event["step"], str) and isinstance(event["kind"], str)
        assert isinstance(event["rule"], str)
        if event["kind"] == "damage":
            assert {"source", "target", "amount", "combat"} <= set(event)


def check_error_shape(out: dict[str, Any], kind: str) -> dict[str, Any]:
    assert out["ok"] is False and set(out) == {"ok", "error"}
    err: dict[str, Any] = out["error"]
    assert {"kind", "rule", "message", "objects"} <= set(err)
    assert err["kind"] == kind and isinstance(err["objects"], list)
    return err


# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------


def test_run_prints_an_account_with_rules_and_exits_0() -> None:
    """``redzone run``: board before, each step with its rule, the
    assignments with lethal amounts, state-based actions, board after."""
    result = invoke("run", str(GOOD))
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("Before combat", "Declare attackers step", "[508.1a]", "[509.1a]",
                 "Vastwood Gorger (power 5, blocked by Pride Guardian, Llanowar Elves)",
                 "3 to Pride Guardian  (lethal: 3)", "[510.2]", "state-based action",
                 "[704.5g]", "After combat", "bob: 23 life", "bob gains 3 life"):
        assert text in out, text


def test_piped_output_has_no_colour_codes() -> None:
    """Plain text when not writing to a terminal (CliRunner is not one)."""
    assert ANSI not in invoke("run", str(GOOD)).output


def test_color_flag_forces_colour() -> None:
    """``--color`` colours the account even when piped; ``--no-color`` never."""
    assert ANSI in invoke("run", "--color", str(GOOD)).output
    assert ANSI not in invoke("run", "--no-color", str(GOOD)).output


def test_run_json_prints_exactly_the_outcome() -> None:
    """``redzone run --json``: the JSON outcome of the scenario format."""
    result = invoke("run", "--json", str(GOOD))
    assert result.exit_code == 0
    out = json.loads(result.output)
    check_outcome_shape(out)
    assert out["players"]["bob"]["life"] == 23
    assert result.output == invoke("run", "--json", str(GOOD)).output  # deterministic


def test_run_illegal_declaration_exits_1() -> None:
    """Exit status 1 and the error object when a declaration is illegal
    (702.111b); the account says the state was left as it was (733)."""
    result = invoke("run", "--json", str(ILLEGAL))
    assert result.exit_code == 1
    err = check_error_shape(json.loads(result.output), "illegal_block")
    assert err["rule"] == "702.111b" and "brute" in err["objects"]
    human = invoke("run", str(ILLEGAL))
    assert human.exit_code == 1
    assert "illegal block" in human.output and "[702.111b]" in human.output
    assert "(733)" in human.output


def test_run_bad_scenario_exits_2_and_lists_every_problem(bad_file: Path) -> None:
    """Exit status 2 for a bad file: every problem, with key and line; never
    a traceback."""
    result = invoke("run", str(bad_file))
    assert result.exit_code == 2
    text = result.output
    assert "Traceback" not in text
    for bit in ("line 4", "players.bob.lif", "did you mean 'life'", "line 8",
                "permanents[0].power", "line 10", "'trampel'", "'trample'"):
        assert bit in text, bit
    result = invoke("run", "--json", str(bad_file))
    assert result.exit_code == 2
    err = check_error_shape(json.loads(result.output), "bad_scenario")
    assert err["file"] == str(bad_file) and err["line"] == 4 and len(err["problems"]) == 3


def test_run_missing_and_oversized_files_exit_2(tmp_path: Path) -> None:
    """bad_scenario: a file that doesn't exist; one over 1 MiB."""
    result = invoke("run", "--json", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2
    assert "no such file" in check_error_shape(json.loads(result.output),
                                               "bad_scenario")["message"]
    big = tmp_path / "big.toml"
    big.write_text("#" * (1 << 20 + 1))
    result = invoke("run", str(big))
    assert result.exit_code == 2 and "1 MiB" in result.output


def test_run_rules_overrides_the_file(tmp_path: Path) -> None:
    """``--rules EDITION`` overrides the file; an unknown edition is a usage
    error blamed on the flag (exit 64, scenario format "The command line"),
    naming the known ones, not a bad scenario file."""
    result = invoke("run", "--json", "--rules", "bogus", str(GOOD))
    assert result.exit_code == 64
    assert result.stdout == ""
    assert "'--rules'" in result.stderr and "bad scenario" not in result.stderr
    assert all(repr(e) in result.stderr or e in result.stderr for e in EDITIONS)
    for edition in EDITIONS:
        out = json.loads(invoke("run", "--json", "--rules", edition, str(GOOD)).output)
        assert out["rules"] == edition


def test_run_json_file(tmp_path: Path) -> None:
    """A *.json scenario is read as JSON."""
    import tomllib

    path = tmp_path / "s.json"
    path.write_text(json.dumps(tomllib.loads(GOOD.read_text())))
    result = invoke("run", "--json", str(path))
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads(invoke("run", "--json", str(GOOD)).output)


def test_a_failure_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never a traceback: an unexpected failure is one line, exit 3."""
    import redzone.frontends.cli

    def boom(*_args: Any) -> Any:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(redzone.frontends.cli, "resolve", boom)
    monkeypatch.delenv("REDZONE_DEBUG", raising=False)
    result = invoke("run", str(GOOD))
    assert result.exit_code == 3
    assert "internal error: RuntimeError: kaboom" in result.output
    assert "Traceback" not in result.output


def test_a_plugin_failure_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing plugin is reported with its name (kind plugin_error), exit 3."""
    import redzone.frontends.cli
    from redzone.kernel.errors import PluginError

    def broken(*_args: Any) -> Any:
        raise PluginError("plugin 'x' (dist 1.0) raised ValueError", plugin="x",
                          distribution="dist", hook="redzone_lethal_damage")

    monkeypatch.setattr(redzone.frontends.cli, "resolve", broken)
    result = invoke("run", "--json", str(GOOD))
    assert result.exit_code == 3
    err = check_error_shape(json.loads(result.output), "plugin_error")
    assert err["plugin"] == "x" and err["hook"] == "redzone_lethal_damage"


# ---------------------------------------------------------------------------
# check, explain
# ---------------------------------------------------------------------------


def test_check_valid_file_exits_0() -> None:
    """``redzone check``: a valid file and legal declarations."""
    result = invoke("check", str(GOOD))
    assert result.exit_code == 0 and "OK" in result.output


def test_check_lists_every_file_problem(bad_file: Path) -> None:
    """``redzone check``: every problem of the file at once, exit 2."""
    result = invoke("check", "--json", str(bad_file))
    assert result.exit_code == 2
    err = check_error_shape(json.loads(result.output), "bad_scenario")
    assert [p["key"] for p in err["problems"]] == [
        "players.bob.lif", "permanents[0].power", "permanents[0].keywords[0]"]


def test_check_illegal_declarations_exit_1(trample_file: Path) -> None:
    """``redzone check``: an illegal block (702.111b) or assignment (702.19b)
    without resolving: exit 1."""
    result = invoke("check", str(ILLEGAL))
    assert result.exit_code == 1 and "702.111b" in result.output
    result = invoke("check", "--json", str(trample_file))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["ok"] is False
    assert [(p["stage"], p["kind"], p["rule"]) for p in data["problems"]] == [
        ("assign", "illegal_assignment", "702.19b")]


def test_explain_lists_the_creatures_that_may_block() -> None:
    """``redzone explain`` for an illegal block: the rule, the objects, the
    creatures that may legally block the attacker, and a legal declaration
    (702.111b: two or more blockers)."""
    result = invoke("explain", str(ILLEGAL))
    assert result.exit_code == 1
    out = result.output
    assert "[702.111b]" in out
    assert "creatures that may legally block Boggart Brute: Grizzly Bears, Llanowar Elves" in out
    assert "Grizzly Bears and Llanowar Elves block Boggart Brute" in out


#: The only attacker is declared, then removed from combat in the declare
#: attackers step (as Royal Assassin destroying it would), and a block of it is
#: declared all the same.
REMOVED_ATTACKER = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "orc"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 3
[combat]
attacks = { orc = "bob" }
blocks = { bear = "orc" }
[[combat.actions]]
after = "declare_attackers"
do = "remove_from_combat"
target = "orc"
"""


def test_explain_a_block_of_an_attacker_removed_from_combat(tmp_path: Path) -> None:
    """508.8, 509.1a: an attacker was declared, so the declare blockers step
    happens; removed from combat, it can't be blocked: ``explain`` says no
    creature is attacking any more (509.1a), not that none attacked (508.8);
    without the block the file resolves through every step, and the account
    doesn't say they are skipped, as it does when no creature attacks, in the
    first combat or in an additional one (505.1a)."""
    path = tmp_path / "removed.toml"
    path.write_text(REMOVED_ATTACKER, encoding="utf-8")
    result = invoke("explain", str(path))
    assert result.exit_code == 1
    assert "[509.1a]" in result.output and "no creature is attacking any more" in result.output
    assert "508.8" not in result.output
    path.write_text(REMOVED_ATTACKER.replace('blocks = { bear = "orc" }\n', ""),
                    encoding="utf-8")
    result = invoke("run", "--json", str(path))
    assert result.exit_code == 0
    assert json.loads(result.output)["steps"] == [
        "beginning_of_combat", "declare_attackers", "declare_blockers", "combat_damage",
        "end_of_combat"]
    account = invoke("run", str(path)).output
    assert "are skipped" not in account and "Declare blockers step" in account
    none = REMOVED_ATTACKER.replace('attacks = { orc = "bob" }\n', "").replace(
        'blocks = { bear = "orc" }\n', "").split("[[combat.actions]]")[0]
    path.write_text(none, encoding="utf-8")
    account = invoke("run", str(path)).output
    assert "the declare blockers and combat damage steps are skipped" in account
    # A second combat in which nothing attacks skips them too (505.1a, 508.8).
    second = REMOVED_ATTACKER.replace('blocks = { bear = "orc" }\n', "").split(
        "[[combat.actions]]")[0] + "[[additional_combats]]\nattacks = {}\n"
    path.write_text(second.replace('power = 2\ntoughness = 2', 'power = 2\n'
                                   'toughness = 2\nkeywords = ["vigilance"]'),
                    encoding="utf-8")
    account = invoke("run", str(path)).output
    assert account.count("combat damage steps are skipped") == 1
    assert account.index("(combat 2)") < account.index("combat damage steps are skipped")


def test_explain_wrong_defender() -> None:
    """``redzone explain`` for 509.1a in multiplayer: who may block what."""
    out = invoke("explain", str(examples.path("multiplayer-wrong-defender"))).output
    assert "creatures that may legally block Hill Giant: Wall of Wood" in out
    assert "Llanowar Elves may block: Grizzly Bears" in out


def test_explain_gives_the_minimum_lethal_amounts(trample_file: Path) -> None:
    """``redzone explain`` for an illegal assignment (702.19b): each blocker's
    lethal damage counting damage marked, the minimum before the player, and
    a legal assignment."""
    result = invoke("explain", str(trample_file))
    assert result.exit_code == 1
    out = result.output
    assert "must assign exactly 6 damage" in out
    assert "Wall of Wood 2, Eager Cadet 1" in out  # toughness 3 with 1 marked: 2
    assert "at least 3 in all" in out
    assert "a legal assignment: 2 to Wall of Wood, 1 to Eager Cadet, 3 to bob" in out


def test_explain_legal_and_bad_files(bad_file: Path) -> None:
    """``redzone explain``: nothing illegal (exit 0); a bad file (exit 2)."""
    result = invoke("explain", str(GOOD))
    assert result.exit_code == 0 and "Nothing illegal" in result.output
    assert invoke("explain", str(bad_file)).exit_code == 2


# ---------------------------------------------------------------------------
# keywords, demo, schema
# ---------------------------------------------------------------------------


def test_keywords_lists_each_plugin_with_rule_distribution_and_version() -> None:
    """``redzone keywords``: keyword, CR rule, plugin, distribution, version."""
    from redzone import Engine

    result = invoke("keywords")
    assert result.exit_code == 0
    edition_line, *lines = result.output.splitlines()
    assert edition_line.startswith("Rules edition in force: foundations (")
    assert lines[0].split() == ["KEYWORD", "RULE", "PLUGIN", "DISTRIBUTION", "VERSION"]
    infos = Engine().keywords()
    table = lines[:lines.index("")] if "" in lines else lines  # then the plugins' actions
    assert len(table) == 1 + len(infos)
    for info in infos:
        row = next(line for line in lines[1:] if line.startswith(info.spec.name + " "))
        assert info.spec.rule in row and info.distribution in row and info.version in row
    data = json.loads(invoke("keywords", "--json").output)
    assert {k["keyword"] for k in data["keywords"]} == {i.spec.name for i in infos}


def test_keywords_says_which_edition_is_in_force() -> None:
    """Issue 5: ``redzone keywords`` names the rules edition and its rules;
    under "sixth", deathtouch and lifelink are that era's triggers (502.63, 502.68)."""
    result = invoke("keywords", "--rules", "sixth")
    assert result.exit_code == 0
    assert result.output.startswith("Rules edition in force: sixth (")
    assert "310.1-310.5" in result.output.splitlines()[0]
    rows = {line.split()[0]: line.split()[1] for line in result.output.splitlines()[2:]
            if line.split()}
    assert rows["deathtouch"] == "502.63" and rows["lifelink"] == "502.68"


def test_keywords_piped_into_a_closed_reader_exits_quietly() -> None:
    """``redzone keywords | head -1``: a closed pipe is no internal error."""
    proc = subprocess.run(
        f"{shlex.quote(sys.executable)} -m redzone keywords | head -1", shell=True,
        capture_output=True, text=True, check=False, timeout=120)
    assert proc.stdout.startswith("Rules edition in force")
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


def test_demo_with_no_arguments_runs_the_default_example() -> None:
    """``redzone demo`` (the README's first command) runs a bundled example."""
    result = invoke("demo")
    assert result.exit_code == 0
    assert f"{examples.DEFAULT}.toml (bundled example)" in result.output
    assert "After combat" in result.output


def test_demo_list_and_names() -> None:
    """``redzone demo --list`` lists every example; ``redzone demo NAME``
    runs one; an unknown name is a usage error (exit 64) with suggestions."""
    listing = invoke("demo", "--list")
    assert listing.exit_code == 0
    for name in examples.names():
        assert name in listing.output
    result = invoke("demo", "--json", "infect-poison")
    assert result.exit_code == 0 and json.loads(result.output)["players"]["bob"]["lost"]
    assert invoke("demo", "menace-one-blocker").exit_code == 1
    result = invoke("demo", "infect-poisn")
    assert result.exit_code == 64 and "infect-poison" in result.stderr


def test_schema_prints_the_shipped_json_schema() -> None:
    """``redzone schema``: the JSON Schema of the scenario format."""
    result = invoke("schema")
    assert result.exit_code == 0
    assert json.loads(result.output) == schema()


def test_usage_errors_exit_64() -> None:
    """Bad usage (a missing argument, an unknown command or option) exits 64,
    so that 2 keeps meaning a bad scenario file (scenario format, "The command
    line")."""
    assert invoke("run").exit_code == 64
    assert invoke("frobnicate").exit_code == 64
    assert invoke("run", "--frobnicate", str(GOOD)).exit_code == 64
    assert invoke("keywords", "--rules", "nope").exit_code == 64


# ---------------------------------------------------------------------------
# main(argv) and the real console script
# ---------------------------------------------------------------------------


def test_main_returns_the_exit_status(capsys: pytest.CaptureFixture[str],
                                      bad_file: Path) -> None:
    """``main(argv)`` returns the status instead of exiting."""
    assert main(["run", "--json", str(GOOD)]) == 0
    assert main(["run", "--json", str(ILLEGAL)]) == 1
    assert main(["run", "--json", str(bad_file)]) == 2
    assert main(["--help"]) == 0
    assert main(["run"]) == 64
    assert main(["nope"]) == 64
    capsys.readouterr()


def _script() -> list[str]:
    found = shutil.which("redzone", path=str(Path(sys.executable).parent)) or shutil.which(
        "redzone")
    if found is None:  # pragma: no cover - the package is installed for the tests
        pytest.skip("the redzone console script is not installed")
    return [found]


def test_console_script_demo_piped() -> None:
    """The installed ``redzone`` script: ``redzone demo`` exits 0 and, piped,
    prints no colour codes."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "REDZONE_DEBUG")}
    done = subprocess.run([*_script(), "demo"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Before combat" in done.stdout and ANSI not in done.stdout


def test_console_script_exit_statuses(bad_file: Path) -> None:
    """The installed script's exit statuses: 0, 1, 2 (and JSON on stdout)."""
    runs = {
        0: [*_script(), "run", "--json", str(GOOD)],
        1: [*_script(), "run", "--json", str(ILLEGAL)],
        2: [*_script(), "run", "--json", str(bad_file)],
    }
    for status, cmd in runs.items():
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert done.returncode == status, (cmd, done.stderr)
        assert json.loads(done.stdout)["ok"] is (status == 0)
        assert "Traceback" not in done.stderr


def test_python_dash_m_redzone() -> None:
    """``python -m redzone`` is the same command line."""
    done = subprocess.run([sys.executable, "-m", "redzone", "schema"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout) == schema()


def test_the_readme_command_list_runs(tmp_path: Path) -> None:
    """README "Command line": each listed command's example runs (the
    scenario file ``combat.toml`` standing for a bundled example) with a
    documented exit status, and every command of the CLI is listed."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^- `redzone (\w+)", section, re.M)
    assert sorted(commands) == sorted(all_commands())
    runs = re.findall(r"Example: `redzone ([^`>]+?)\s*(?:>[^`]*)?`", section)
    assert len(runs) == len(commands)
    cards = tmp_path / "AtomicCards.json"
    cards.write_text(json.dumps({"meta": {}, "data": {"Serra Angel": [{
        "name": "Serra Angel", "power": "4", "toughness": "4", "colors": ["W"],
        "types": ["Creature"], "subtypes": ["Angel"], "keywords": ["Flying", "Vigilance"],
        "text": "Flying, vigilance"}]}}))
    stand_ins = {"combat.toml": str(ILLEGAL), "AtomicCards.json": str(cards)}
    for line in runs:
        args = [stand_ins.get(a, a) for a in shlex.split(line)]
        result = invoke(*args)
        assert result.exit_code in (0, 1), (line, result.output)
        assert result.output.strip(), line


# ---------------------------------------------------------------------------
# The command-line conventions (scenario format, "The command line")
# ---------------------------------------------------------------------------


def test_dash_reads_standard_input_toml_and_json() -> None:
    """``run -``, ``check -`` and ``explain -`` read the scenario from standard
    input: TOML, or JSON when it starts with ``{``; the outcome is the same as
    from the file."""
    import tomllib

    text = GOOD.read_text(encoding="utf-8")
    from_file = json.loads(invoke("run", "--json", str(GOOD)).stdout)
    runner = CliRunner()
    toml_run = runner.invoke(cli, ["run", "--json", "-"], input=text)
    assert toml_run.exit_code == 0 and json.loads(toml_run.stdout) == from_file
    as_json = "\n  " + json.dumps(tomllib.loads(text))
    json_run = runner.invoke(cli, ["run", "--json", "-"], input=as_json)
    assert json_run.exit_code == 0 and json.loads(json_run.stdout) == from_file
    assert runner.invoke(cli, ["check", "-"], input=text).exit_code == 0
    illegal = runner.invoke(cli, ["explain", "-"], input=ILLEGAL.read_text(encoding="utf-8"))
    assert illegal.exit_code == 1 and "702.111b" in illegal.stdout
    bad = runner.invoke(cli, ["run", "-"], input=BAD)
    assert bad.exit_code == 2 and "<stdin>" in bad.stderr and bad.stdout == ""


def test_every_printing_command_takes_json() -> None:
    """``--json`` on explain and demo --list too (keywords, check, run had it)."""
    explained = invoke("explain", "--json", str(ILLEGAL))
    data = json.loads(explained.stdout)
    assert explained.exit_code == 1 and data["ok"] is False
    assert data["error"]["rule"] == "702.111b" and data["failed"] == "declare_blockers"
    assert any(line["rule"] == "509.1a" for line in data["lines"])
    fine = json.loads(invoke("explain", "--json", str(GOOD)).stdout)
    assert fine["ok"] is True and fine["error"] is None
    listing = json.loads(invoke("demo", "--list", "--json").stdout)
    assert [e["name"] for e in listing["examples"]] == examples.names()
    assert listing["default"] == examples.DEFAULT
    for name, command in all_commands().items():
        prints_json_anyway = name == "schema"
        assert prints_json_anyway or any(
            "--json" in p.opts for p in command.params), name


def test_board_prints_a_compact_board() -> None:
    """``run --board``: one table, each permanent's combat role and end
    (Silverback Ape is blocked by the 7/7 and dies, 704.5g)."""
    result = invoke("run", "--board", str(examples.path("trample-blocker")))
    assert result.exit_code == 0
    out = result.stdout
    assert "attacks bob" in out and "blocks ape" in out and "in the graveyard" in out
    assert len(out.splitlines()) < 15


def test_streams_outcome_on_stdout_diagnostics_on_stderr(bad_file: Path) -> None:
    """A bad file in text mode: the problems on stderr, nothing on stdout;
    with --json the error object is the outcome, on stdout."""
    text = invoke("run", str(bad_file))
    assert text.exit_code == 2 and text.stdout == "" and "bad scenario" in text.stderr
    as_json = invoke("run", "--json", str(bad_file))
    assert as_json.exit_code == 2 and as_json.stderr == ""
    assert json.loads(as_json.stdout)["error"]["kind"] == "bad_scenario"


def test_no_color_is_honoured() -> None:
    """NO_COLOR (no-color.org) turns colours off even with a terminal forced
    by FORCE_COLOR; --color wins over it."""
    colour = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|9[0-7])(?:;[0-9]+)*m")
    forced = CliRunner(env={"FORCE_COLOR": "1"}).invoke(cli, ["demo"])
    assert colour.search(forced.stdout)
    plain = CliRunner(env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).invoke(cli, ["demo"])
    assert plain.exit_code == 0 and not colour.search(plain.stdout)
    wins = CliRunner(env={"NO_COLOR": "1"}).invoke(cli, ["demo", "--color"])
    assert colour.search(wins.stdout)


def test_shell_completion_script() -> None:
    """Shell completion (click): ``_REDZONE_COMPLETE=bash_source redzone``
    prints a completion script naming the program."""
    env = {**os.environ, "_REDZONE_COMPLETE": "bash_source"}
    done = subprocess.run(_script(), capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and "_redzone_completion" in done.stdout


def test_help_texts_give_an_example_each() -> None:
    """Every command's help has an example, and --rules speaks of what the
    command reads (keywords has no file)."""
    for name in all_commands():
        result = invoke(name, "--help")
        assert result.exit_code == 0
        assert "Example" in result.stdout and f"redzone {name}" in result.stdout, name
    assert "file" not in invoke("keywords", "--help").stdout.split("--rules")[1].split("\n")[0]
    assert "README" not in invoke("demo", "--help").stdout


# ---------------------------------------------------------------------------
# The account, in the rules' words
# ---------------------------------------------------------------------------


def account(tmp_path: Path, text: str, *args: str) -> str:
    path = tmp_path / "combat.toml"
    path.write_text(text)
    result = invoke("run", *args, str(path))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


BOARD = """\
active_player = "alice"
{rules}
[players.alice]
[players.bob]
{life}
[[permanents]]
id = "wurm"
name = "Craw Wurm"
controller = "alice"
power = 6
toughness = 4
{wurm}
[[permanents]]
id = "rats"
name = "Typhoid Rats"
controller = "bob"
power = 1
toughness = 1
keywords = ["deathtouch"]
{extra}
[combat]
attacks = {{ wurm = "bob" }}
{blocks}
"""


def board(**kw: str) -> str:
    base = {"rules": "", "life": "", "wurm": "", "extra": "", "blocks": ""}
    return BOARD.format(**{**base, **kw})


@pytest.mark.parametrize(("rules", "titles"), [
    ("", ["First combat damage step (creatures with first strike or double strike) "
          "[510.4]"]),
    ('rules = "sixth"', [
        "First combat damage step (creatures with first strike or double strike): damage "
        "assigned, on the stack [310.1 (1999-2009)]",
        "First combat damage step (creatures with first strike or double strike) [310.5]"]),
])
def test_a_plugin_damage_step_is_titled_by_its_declaration(
        tmp_path: Path, rules: str, titles: list[str]) -> None:
    """510.4 (310.5 of 1999-2009): the first-strike step is a plugin's step;
    the account titles it with the words its declaration gives, and cites the
    edition's rule; under the 1999-2009 rules its assignments wait on the
    stack first (310.1)."""
    out = account(tmp_path, board(rules=rules, blocks='blocks = { rats = "wurm" }',
                                  wurm='keywords = ["first strike"]'))
    lines = [" ".join(ln.split()) for ln in out.splitlines()
             if ln.strip().startswith("First combat")]
    assert lines == titles


def test_a_death_by_deathtouch_says_deathtouch(tmp_path: Path) -> None:
    """704.5h: the Wurm dealt damage by the Rats is destroyed "dealt damage by a
    source with deathtouch" (the keyword's name comes from its plugin)."""
    out = account(tmp_path, board(blocks='blocks = { rats = "wurm" }'))
    line = next(ln for ln in out.splitlines() if "Craw Wurm is destroyed" in ln)
    assert "deathtouch" in line and "[704.5h]" in line
    assert "whose damage destroys" not in out


def test_lethal_notes_are_not_circular(tmp_path: Path) -> None:
    """510.1c: two attackers blocked by one 2/2 (it may block an additional
    creature): the first to assign sees lethal 2, the second lethal 0 (the
    first's 2 already assigned), not both 0."""
    text = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "a1"
name = "First Bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "a2"
name = "Second Bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "wall"
name = "Hundred-Handed Wall"
controller = "bob"
power = 0
toughness = 2
can_block_additional = 1
[combat]
attacks = { a1 = "bob", a2 = "bob" }
blocks = { wall = ["a1", "a2"] }
"""
    out = account(tmp_path, text)
    notes = re.findall(r"2 to Hundred-Handed Wall\s+\(lethal: (\d+)\)", out)
    assert notes == ["2", "0"], out


def test_removed_from_combat_comes_after_its_cause(tmp_path: Path) -> None:
    """506.4: a blocker that leaves the battlefield is removed from combat
    because it left: the account says so in that order."""
    text = board(extra="", blocks='blocks = { rats = "wurm" }') + """
[[combat.actions]]
after = "declare_blockers"
do = "leave_battlefield"
target = "rats"
"""
    out = account(tmp_path, text)
    left = out.index("Typhoid Rats is put into its owner's graveyard")
    removed = out.index("Typhoid Rats is removed from combat")
    assert left < removed


def test_replacement_effects_on_life_are_named(tmp_path: Path) -> None:
    """120.4 / 614.1a (Worship): bob at 2 life, with a creature, takes 6 and
    loses only 1; the account says which effect changed it."""
    text = board(life="life = 2") + """
[[effects]]
kind = "life_floor"
player = "bob"
"""
    out = account(tmp_path, text)
    line = next(ln for ln in out.splitlines() if "bob loses 1 life" in ln)
    assert "not 6" in line and "below 1" in line and "614.1a" in line


def test_no_internal_labels(tmp_path: Path) -> None:
    """No pipeline labels ("shield-1", "effect 0", "life_floor (player bob)")
    in the account: prevention by a shield (615.7) or an effect (615.1) is
    said in words."""
    fog = board(blocks='blocks = { rats = "wurm" }') + """
[[effects]]
kind = "prevent_all_combat_damage"
[[effects]]
kind = "life_floor"
player = "bob"
"""
    out = account(tmp_path, fog)
    assert "prevented by a continuous effect: prevent all combat damage" in out
    assert "effect 0" not in out and "life_floor" not in out and "(player bob)" not in out
    shield = account(tmp_path, board() + """
[[combat.actions]]
after = "declare_blockers"
do = "prevent"
target = "bob"
amount = 3
""")
    assert "prevented by a prevention shield" in shield and "shield-1" not in shield


def test_older_editions_cite_their_own_numbers(tmp_path: Path) -> None:
    """sixth (1999-2009): combat damage is 310 and dealt damage 310.4, not 510
    and 510.2; m10 cites 730 for an illegal declaration, not today's 733."""
    out = account(tmp_path, board(rules='rules = "sixth"'))
    assert "[310]" in out and "[310.4]" in out and "[308.2a]" in out
    assert "[510.2]" not in out and "[510]" not in out and "[508.1a]" not in out
    illegal = account(tmp_path, board(rules='rules = "m10"',
                                      wurm='keywords = ["defender"]'))
    assert "[730]" in illegal and "[733]" not in illegal


def test_older_editions_cite_their_own_numbers_in_rejections_and_explanations(
        tmp_path: Path) -> None:
    """308.2a (1999-2009): a tapped Wurm can't attack: the rejection, its
    violation and what would be legal instead cite the 1999-2009 rule, not
    today's 508.1a-b; 509.7 (2009-2024): a creature put onto the battlefield
    blocking is that era's 509.7, not today's 509.4."""
    out = account(tmp_path, board(rules='rules = "sixth"', wurm="tapped = true"))
    rejection = next(ln for ln in out.splitlines() if "rejected as a whole" in ln)
    assert rejection.endswith("[308.2a]")
    legal = out[out.index("What would be legal instead"):]
    assert "[308.2a]" in legal
    assert "[508.1a]" not in out and "[508.1b]" not in out
    foliage = invoke("run", str(examples.path("m10-flash-foliage"))).stdout
    assert "[509.7]" in foliage and "[509.4]" not in foliage


def test_explain_lists_only_the_wrong_assignments(tmp_path: Path) -> None:
    """702.19b: the Wurm's assignment is wrong, the lifelink Cadet's is right:
    explain has a section for the Wurm and none for the Cadet."""
    text = TRAMPLE_ASSIGNMENT.replace('power = 1\ntoughness = 1\n',
                                      'power = 1\ntoughness = 1\nkeywords = ["lifelink"]\n')
    text += 'cadet = { wurm = 1 }\n'
    path = tmp_path / "wurm.toml"
    path.write_text(text)
    out = invoke("explain", str(path)).stdout
    assert "Craw Wurm must assign exactly 6" in out
    assert "Eager Cadet must assign" not in out


def test_replacement_effects_on_damage_are_named(tmp_path: Path) -> None:
    """614.1a (Furnace of Rath): the Wurm assigns 6 and deals 12; the account
    says which effect doubled it."""
    out = account(tmp_path, board() + """
[[effects]]
kind = "double_damage"
""")
    line = next(ln for ln in out.splitlines() if "deals 12 combat damage to bob" in ln)
    assert "assigned 6" in line and "doubled" in line and "614.1a" in line
