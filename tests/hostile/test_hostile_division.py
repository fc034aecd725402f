"""Divisions of combat damage for creatures that left combat (Containment II,
item 9), under every rules edition, through the API and the command line
(``run``, ``run --json``, ``check``).

- A creature no longer in combat assigns nothing (506.4, 510.1): its entry in
  ``[combat.assign]`` is unused in that step, and a note says so; however it
  left (it died in the first-strike step, or a flanking trigger killed it in
  the declare blockers step).
- A double striker's division that names a blocker killed in the first step
  is used in the second step too (702.4b: it deals damage there) and is
  illegal there (510.1c: it can assign only to the creatures still blocking
  it); ``check`` and ``run`` agree.
- An illegal division in a later step never discards the steps already
  done: the error outcome carries them (``partial``), and so does the API's
  error (:attr:`~redzone.IllegalActionError.partial`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_kit import FILES, CliResult
from redzone import Engine, IllegalAssignmentError
from redzone.formats.outcome import check, check_report, outcome_json, resolve
from redzone.formats.scenario import load

EDITIONS = ("foundations", "m10", "sixth")

DIED = str(FILES / "division-died-first-strike.toml")
FLANKED = str(FILES / "division-flanking.toml")
DOUBLE = str(FILES / "division-double-strike.toml")


def _note_about_b1(text: str) -> bool:
    return "note:" in text and "(b1)" in text and "506.4" in text and "unused" in text


@pytest.mark.parametrize("rules", EDITIONS)
@pytest.mark.parametrize("path", [DIED, FLANKED], ids=["first-strike", "flanking"])
def test_an_entry_for_a_creature_that_left_combat_is_unused_with_a_note_506_4(
        path: str, rules: str, run_cli: Callable[..., CliResult]) -> None:
    """506.4, 510.1: the blocker b1 left combat (it died in the first-strike
    step, or to flanking's -1/-1 in the declare blockers step, 702.25a), so it
    assigns no combat damage and its ``[combat.assign]`` entry is unused: the
    combat resolves, the damage already dealt stands, a note names b1."""
    scenario = load(path, rules=rules)
    res = resolve(scenario)
    assert res.error is None, res.error
    assert res.result is not None
    assert res.result.state.objects["b1"].zone == "graveyard"
    assert res.result.state.objects["knight"].damage == 0  # b1 dealt nothing
    assert len(res.notes) == 1 and _note_about_b1("note: " + res.notes[0]), res.notes
    report = check_report(scenario)
    assert report.findings == () and report.notes == res.notes

    result = run_cli(["run", "--json", "--rules", rules, path])
    assert result.status == 0, (result.out, result.err)
    data = result.json
    assert data["ok"] is True and data["permanents"]["b1"]["zone"] == "graveyard"
    assert _note_about_b1(result.err), result.err
    text = run_cli(["run", "--rules", rules, path])
    assert text.status == 0 and _note_about_b1(text.err), text.err
    checked = run_cli(["check", "--json", "--rules", rules, path])
    assert checked.status == 0 and checked.json["ok"] is True, checked.out
    assert _note_about_b1(checked.err), checked.err


@pytest.mark.parametrize("verify", [True, False], ids=["verify", "production"])
@pytest.mark.parametrize("rules", EDITIONS)
def test_an_entry_for_a_creature_never_in_combat_is_still_illegal_510_1(
        rules: str, verify: bool) -> None:
    """510.1: only attacking and blocking creatures assign combat damage; an
    entry for a creature that never was one (a typo, a creature left home)
    stays an error naming it, and only the leaving of combat (506.4) makes an
    entry unused."""
    engine = Engine(rules=rules, verify=verify)
    state = engine.game(["alice", "bob"], [
        engine.creature("knight", "alice", 3, 3, "first strike"),
        engine.creature("b1", "bob", 2, 2),
        engine.creature("home", "bob", 2, 2)])
    with pytest.raises(IllegalAssignmentError, match=r"home is not an attacking or blocking"):
        engine.resolve(state, {"knight": "bob"}, {"b1": "knight"},
                       assign={"home": {"knight": 2}})
    died = engine.resolve(state, {"knight": "bob"}, {"b1": "knight"},
                          assign={"b1": {"knight": 2}})
    assert died.state.objects["b1"].zone == "graveyard"
    assert died.state.objects["knight"].damage == 0


@pytest.mark.parametrize("rules", EDITIONS)
def test_a_double_strikers_division_naming_a_dead_blocker_is_illegal_in_step_two_510_1c(
        rules: str, run_cli: Callable[..., CliResult]) -> None:
    """702.4b, 510.1c: the double striker deals damage in both steps, so its
    entry ``{b1 = 2, b2 = 2}`` is used in both; in the second only b2 blocks
    it and it must assign all its damage to b2, so the division is illegal
    there. The first-strike step stays done: the error carries it, in the
    API (``partial``) and in the JSON error outcome (``partial``); ``check``
    reports the same error as ``run``."""
    scenario = load(DOUBLE, rules=rules)
    res = resolve(scenario)
    assert isinstance(res.error, IllegalAssignmentError), res.error
    assert res.error.rule == "510.1c"
    assert "(b1), which is no longer in combat (506.4)" in res.error.message
    partial = res.error.partial
    assert partial is not None
    assert partial.state.objects["b1"].zone == "graveyard"
    assert partial.state.objects["b2"].damage == 2
    assert "first_strike_damage" in partial.after_steps
    dealt = [(e.source, e.target, e.amount) for e in partial.events if e.kind == "damage"]
    assert dealt == [("ds", "b1", 2), ("ds", "b2", 2)]
    assert res.partial is partial

    data = outcome_json(res)
    assert data["ok"] is False and data["error"]["rule"] == "510.1c"
    assert data["partial"]["permanents"]["b1"]["zone"] == "graveyard"
    assert data["partial"]["after_steps"]["first_strike_damage"]["permanents"]["b2"][
        "damage"] == 2
    assert data["partial"]["steps"][-1].startswith("first_strike_damage")

    findings = check(scenario)
    assert [(f.stage, f.error.rule, f.error.message) for f in findings] == [
        ("assign", "510.1c", res.error.message)]

    result = run_cli(["run", "--json", "--rules", rules, DOUBLE])
    assert result.status == 1, (result.out, result.err)
    assert result.json == data
    text = run_cli(["run", "--rules", rules, DOUBLE])
    # the account cites the edition's number (310.2c of 1999-2009); JSON today's
    assert text.status == 1 and (
        "310.2c" if rules == "sixth" else "510.1c") in text.out + text.err
    checked = run_cli(["check", "--json", "--rules", rules, DOUBLE])
    assert checked.status == 1, checked.out
    assert [(p["stage"], p["rule"]) for p in checked.json["problems"]] == [("assign", "510.1c")]


@pytest.mark.parametrize("verify", [True, False], ids=["verify", "production"])
@pytest.mark.parametrize("rules", EDITIONS)
def test_the_api_error_of_a_later_step_carries_the_steps_done_510_1e(
        rules: str, verify: bool) -> None:
    """510.1e, 733: an illegal assignment returns the game to the moment
    before it was made, not to before combat: ``Engine.resolve``'s error
    carries the combat so far (after the first-strike step), and dividing
    each step on its own (``assign_first_strike``, then ``assign``) is legal."""
    engine = Engine(rules=rules, verify=verify)
    state = engine.game(["alice", "bob"], [
        engine.creature("ds", "alice", 4, 4, "double strike"),
        engine.creature("b1", "bob", 2, 2),
        engine.creature("b2", "bob", 3, 5)])
    attacks, blocks = {"ds": "bob"}, {"b1": "ds", "b2": "ds"}
    with pytest.raises(IllegalAssignmentError) as info:
        engine.resolve(state, attacks, blocks, assign={"ds": {"b1": 2, "b2": 2}})
    partial = info.value.partial
    assert partial is not None and partial.before is state
    assert partial.state.objects["b1"].zone == "graveyard"
    assert partial.state.objects["b2"].damage == 2
    assert partial.steps[-1].startswith("first_strike_damage")
    split = engine.resolve(state, attacks, blocks,
                           assign_first_strike={"ds": {"b1": 2, "b2": 2}},
                           assign={"ds": {"b2": 4}})
    assert split.state.objects["b2"].zone == "graveyard"
    assert split.state.players["bob"].life == 20


@pytest.mark.parametrize("rules", EDITIONS)
def test_an_entry_with_nothing_left_to_assign_to_is_unused_with_a_note_510_1c(
        rules: str, run_cli: Callable[..., CliResult], tmp_path: Path) -> None:
    """510.1c: a blocked double striker whose only blocker died in the first
    step is still attacking but assigns no combat damage in the second step
    (no trample: no creature is blocking it); its entry is unused there and a
    note says so, citing 510.1c. With trample the same division is illegal
    there (702.19d: all of its damage goes to the player)."""
    text = (FILES / "division-double-strike.toml").read_text(encoding="utf-8")
    text = text.replace('blocks = { b1 = ["ds"], b2 = ["ds"] }', 'blocks = { b1 = ["ds"] }')
    text = text.replace("ds = { b1 = 2, b2 = 2 }", "ds = { b1 = 4 }")
    path = tmp_path / "alone.toml"
    path.write_text(text, encoding="utf-8")
    res = resolve(load(path, rules=rules))
    assert res.error is None and res.result is not None
    assert res.result.state.players["bob"].life == 20
    assert len(res.notes) == 1 and "(ds)" in res.notes[0] and "510.1c" in res.notes[0]
    result = run_cli(["run", "--json", "--rules", rules, str(path)])
    assert result.status == 0 and "note:" in result.err and "510.1c" in result.err

    path.write_text(text.replace('keywords = ["double strike"]',
                                 'keywords = ["double strike", "trample"]'), encoding="utf-8")
    res = resolve(load(path, rules=rules))
    assert isinstance(res.error, IllegalAssignmentError) and res.error.rule == "510.1c"
    assert res.partial is not None and res.partial.state.objects["b1"].zone == "graveyard"
    checked = run_cli(["check", "--json", "--rules", rules, str(path)])
    assert checked.status == 1 and checked.json["problems"][0]["rule"] == "510.1c"
