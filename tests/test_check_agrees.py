"""``redzone check`` agrees with ``redzone run`` (issue item 4).

``check`` finds a problem exactly when ``run`` rejects the combat with an
``illegal_*`` error, and then the same one: the same kind, the same rule, the
same violations. Checked over every bundled example, every scenario file of
the test corpora, and constructed combats with a first-strike damage step
(702.19, 510.1), where each damage step's given assignment (both
``assign_first_strike`` and ``assign``) is checked as ``run`` checks it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from redzone.formats.outcome import check_report, command_engine, resolve, run_file
from redzone.formats.scenario import Scenario, load
from redzone.frontends.cli import main
from redzone.kernel.errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "core" / "redzone" / "examples").glob("*.toml"))
CORPUS = sorted((ROOT / "tests").rglob("*.toml"))
FILES = EXAMPLES + CORPUS


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _verdicts(scenario: Scenario) -> tuple[Any, Any]:
    """What ``run`` and ``check`` say: ``None`` (legal) or the error's kind,
    rule and violations."""
    res = resolve(scenario)
    run = None if res.error is None else (
        res.error.kind, res.error.rule, res.error.violations)
    report = check_report(scenario)
    assert len(report.findings) <= 1, report.findings  # run stops at its first error
    check = None if not report.findings else (
        report.findings[0].error.kind, report.findings[0].error.rule,
        report.findings[0].error.violations)
    assert report.notes == res.notes
    return run, check


def test_the_corpus_is_not_empty_and_has_illegal_and_first_strike_files() -> None:
    """Item 4: the agreement below is tested on files where it can fail: the
    examples, the scenario files under tests/, illegal ones and ones with a
    first-strike damage step among them."""
    assert len(EXAMPLES) >= 15 and CORPUS
    illegal = first_strike = 0
    for path in FILES:
        data = json.loads(json.dumps(run_file(path)))
        if not data["ok"] and data["error"]["kind"].startswith("illegal_"):
            illegal += 1
        steps = data.get("steps") or data.get("partial", {}).get("steps") or []
        first_strike += "first_strike_damage" in steps
    assert illegal >= 3 and first_strike >= 3, (illegal, first_strike)


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_check_finds_a_problem_iff_run_fails_with_the_same_rule(path: Path) -> None:
    """Item 4 (510.1, 702.19b, 508.1, 509.1): for every file of the corpus,
    ``check`` finds a problem iff ``run`` fails with an ``illegal_*`` error,
    of the same kind, rule and violations; a file that can't be loaded is a
    bad scenario for both."""
    try:
        scenario = load(path, engine_factory=command_engine)
    except ScenarioError:
        assert run_file(path)["error"]["kind"] == "bad_scenario"
        return
    run, check = _verdicts(scenario)
    assert run == check, (run, check)
    outcome = run_file(path)
    assert outcome["ok"] is (run is None)
    if run is not None:
        assert outcome["error"]["kind"].startswith("illegal_")
        assert (outcome["error"]["kind"], outcome["error"]["rule"]) == run[:2]


_BOARD = """
active_player = "alice"
[players.alice]
[players.bob]
"""

# 702.154a, 508.1g: the enlisted creature's power counts in the first-strike
# step, where the given assignment of all 4 to the blocker is legal (510.1a).
ENLISTED = _BOARD + """
[[permanents]]
id = "fs"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike", "enlist"]
[[permanents]]
id = "helper"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "ox"
controller = "bob"
power = 1
toughness = 5
[choices]
"enlist:fs" = "helper"
[combat]
attacks = { fs = "bob" }
blocks = { ox = "fs" }
[combat.assign_first_strike]
fs = { ox = 4 }
"""

# 702.4b, 702.19b: legal in the first-strike step (3 to the 1/5), illegal in
# the regular step: the ox has 3 damage marked, so lethal is 2, and 1 to it
# before 2 to bob breaks 702.19b.
REGULAR_STEP_TRAMPLE = _BOARD + """
[[permanents]]
id = "ds"
controller = "alice"
power = 3
toughness = 3
keywords = ["double strike", "trample"]
[[permanents]]
id = "ox"
controller = "bob"
power = 1
toughness = 5
[combat]
attacks = { ds = "bob" }
blocks = { ox = "ds" }
[combat.assign_first_strike]
ds = { ox = 3 }
[combat.assign]
ds = { ox = 1, bob = 2 }
"""

# 702.19b in the first-strike step (the given `assign` is used there too when
# there is no `assign_first_strike`): 1 of 5 lethal to the ox.
FIRST_STEP_TRAMPLE = REGULAR_STEP_TRAMPLE.replace(
    "[combat.assign_first_strike]\nds = { ox = 3 }\n", "")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "combat.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    capsys.readouterr()
    status = main(args)
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("rules", ["foundations", "m10"])
def test_check_passes_a_first_strike_step_run_resolves_with_the_choices_given(
        tmp_path: Path, rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4, 702.154a, 508.1g, 510.1a: the first-strike step's assignment is
    checked on the state ``run`` reaches, the file's choices made (the
    enlisted power counts): ``run`` resolves it, so ``check`` passes it."""
    path = _write(tmp_path, ENLISTED)
    status, ran = _cli(["run", "--json", "--rules", rules, str(path)], capsys)
    assert status == 0 and ran["ok"] is True
    assert ran["permanents"]["ox"]["damage"] == 4
    status, checked = _cli(["check", "--json", "--rules", rules, str(path)], capsys)
    assert (status, checked["ok"], checked["problems"]) == (0, True, [])


@pytest.mark.parametrize(("text", "step"), [(REGULAR_STEP_TRAMPLE, "combat_damage"),
                                            (FIRST_STEP_TRAMPLE, "first_strike_damage")],
                         ids=["regular-step", "first-strike-step"])
def test_check_rejects_each_damage_steps_assignment_as_run_does_702_19b(
        tmp_path: Path, text: str, step: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4, 702.4b, 702.19b: an assignment illegal in one damage step (the
    regular one after a first-strike step, or the first-strike one) is
    rejected by ``run`` with 702.19b, and ``check`` finds the same problem,
    as an assignment's."""
    path = _write(tmp_path, text)
    status, ran = _cli(["run", "--json", str(path)], capsys)
    assert status == 1 and ran["error"]["kind"] == "illegal_assignment"
    assert ran["error"]["rule"] == "702.19b"
    done = ran.get("partial", {}).get("steps", [])
    assert ("first_strike_damage" in done) is (step == "combat_damage")
    status, checked = _cli(["check", "--json", str(path)], capsys)
    assert status == 1 and len(checked["problems"]) == 1
    problem = checked["problems"][0]
    assert (problem["stage"], problem["kind"], problem["rule"]) == (
        "assign", "illegal_assignment", "702.19b")
    assert problem["violations"] == ran["error"]["violations"]
