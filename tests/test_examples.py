"""The bundled examples: each a scenario from the rules text or a seed, with
its golden JSON outcome and hand-checked expectations (written in the file's
comments, with the rule behind them).

An example whose keywords still have stub plugins (a plugin that declares the
keyword and implements nothing else) can't be verified: when its outcome
differs, the test fails and says which plugin (a broken example is never
skipped). Regenerate the goldens with ``python -m redzone.examples --regen``:
it writes only goldens whose outcome meets every expectation.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import pytest
from redzone import examples
from redzone.formats.outcome import dumps
from redzone.kernel.editions import EDITIONS

NAMES = examples.names()


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict[str, Any]]:
    return {name: examples.outcome(name) for name in NAMES}


def _fail_if_stubbed(name: str, what: str) -> None:
    """Fail naming the stub plugins of ``name``'s keywords, if it has any:
    they are why its outcome differs (the caller's assertion fails it
    otherwise)."""
    stubs = examples.unimplemented_keywords(name)
    if stubs:
        pytest.fail(f"{name}: {what}; keyword plugins still stubs: {', '.join(stubs)}")


def test_at_least_fifteen_examples_are_bundled() -> None:
    """The issue's list: at least 15 examples ship in the package."""
    assert len(NAMES) >= 15
    assert examples.DEFAULT in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_example_states_its_rule_and_expectations(name: str) -> None:
    """Each example's title cites the rule it shows, and the file states at
    least one hand-checked expectation."""
    title = examples.title(name)
    assert re.search(r"CR \d{3}\.\d", title), title
    assert examples.expectations(name)


@pytest.mark.parametrize("name", NAMES)
def test_example_meets_its_hand_checked_expectations(
        name: str, outcomes: dict[str, dict[str, Any]]) -> None:
    """The outcome agrees with the expectation computed by hand from the
    rules (see the example's comments)."""
    problems = examples.unmet(name, outcomes[name])
    if problems:
        _fail_if_stubbed(name, "expectations unmet")
    assert not problems, "\n".join(problems)


def test_a_broken_example_whose_keywords_are_stubs_fails_naming_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An example whose outcome misses its hand-checked expectations fails,
    naming the stub plugins of its keywords when it has some, rather than
    being skipped: a broken example is reported, whatever the reason."""
    name = examples.DEFAULT
    monkeypatch.setattr(examples, "unmet", lambda n, out: ["players.bob.life is 7"])
    monkeypatch.setattr(examples, "unimplemented_keywords", lambda n: ["squirrellink"])
    with pytest.raises(pytest.fail.Exception, match="keyword plugins still stubs: "
                       "squirrellink"):
        test_example_meets_its_hand_checked_expectations(name, {name: {}})


@pytest.mark.parametrize("name", NAMES)
def test_example_matches_its_golden_outcome(
        name: str, outcomes: dict[str, dict[str, Any]]) -> None:
    """The golden file holds exactly the JSON outcome, byte for byte."""
    golden = examples.golden_path(name)
    if not golden.is_file():
        _fail_if_stubbed(name, "no golden yet")
    assert golden.is_file(), f"missing {golden.name}: run python -m redzone.examples --regen"
    text = golden.read_text(encoding="utf-8")
    if json.loads(text) != outcomes[name]:
        _fail_if_stubbed(name, "golden differs")
    assert json.loads(text) == outcomes[name], (
        f"{name}: outcome differs from {golden.name}; if the new outcome is right, run "
        "python -m redzone.examples --regen")
    assert text == dumps(outcomes[name])


def test_expectations_can_fail() -> None:
    """The expectation checker reports a wrong value, a missing path, a
    missing event and a forbidden event."""
    name = examples.DEFAULT
    out = json.loads(json.dumps(examples.outcome(name)))
    assert examples.unmet(name, out) == []
    out["players"]["bob"]["life"] = 7
    del out["permanents"]["boars"]
    out["events"] = [{"kind": "damage", "source": "x"}]
    problems = examples.unmet(name, out)
    assert any("players.bob.life is 7" in p for p in problems)
    assert any("permanents.boars.zone is missing" in p for p in problems)
    assert any("no event matches" in p for p in problems)
    wrong = examples.Expectation("expect-no-event", "", {"kind": "damage"}, 1)
    assert wrong.kind == "expect-no-event"


def test_regeneration_in_check_mode_reports_no_difference(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m redzone.examples --check`` compares without writing and
    exits 0 when every golden matches and every expectation holds (the
    reports are those of its one real run of every example, kept on the way)."""
    real = examples.regenerate
    calls: list[dict[str, Any]] = []
    reports: list[examples.Report] = []

    def regenerate(*args: Any, **kwargs: Any) -> list[examples.Report]:
        calls.append(kwargs)
        reports.extend(real(*args, **kwargs))
        return reports

    monkeypatch.setattr(examples, "regenerate", regenerate)
    status = examples.main(["--check"])
    assert calls == [{"write": False, "force": False}]  # compares, writes nothing
    assert len(reports) == len(examples.names())
    bad = [r for r in reports if r.unmet or r.golden != "same"]
    assert not bad, bad  # (each report names its stub keywords, if any)
    assert status == 0


def test_unknown_example_names_suggest_close_ones() -> None:
    """``redzone demo NAME``: an unknown name lists close matches."""
    with pytest.raises(examples.UnknownExampleError) as info:
        examples.path("vastwood-gorgr")
    assert "vastwood-gorger" in str(info.value)
    assert examples.path("vastwood_gorger") == examples.path("vastwood-gorger")


@pytest.mark.parametrize("name", ["baloth-and-boars", "vastwood-gorger-giant-growth"])
@pytest.mark.skipif("m10" not in EDITIONS, reason="the m10 edition is not installed")
def test_examples_legal_under_m10_resolve_the_same(name: str) -> None:
    """510.1c (2009-2024): these examples' assignments respect the damage
    assignment order (lethal damage in order), as their comments say, so
    they resolve the same under m10."""
    from redzone.formats.outcome import run_file

    now, then = examples.outcome(name), run_file(examples.path(name), rules="m10")
    assert then["ok"] is True
    assert then["players"] == now["players"] and then["permanents"] == now["permanents"]


def test_examples_are_package_data() -> None:
    """The examples ship inside the package (hatchling includes the folder)."""
    from importlib import resources

    folder = resources.files("redzone.examples")
    found = sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                   if p.name.endswith(".toml"))
    assert found == NAMES
    for name in NAMES:
        tomllib.loads(examples.path(name).read_text(encoding="utf-8"))
