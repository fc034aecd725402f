"""The combat damage step reports what it computed (issue item 2).

Each combat damage step's record (510.1) rides on the command's outcome, on
:class:`~redzone.CombatResult` and, for a rejected assignment, on the error:
each creature's duty, its amounts (the given ones apart from the default
policy's), the lethal damage it had to consider (510.1c-d, 702.19b) and the
given entries the step left unused (506.4, 510.1b-d). A first-strike combat
has two steps, so two records (702.19, 702.4b). The format layer shows them
as they are, without computing an assignment a second time.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from redzone import Engine, IllegalAssignmentError, RemoveFromCombat
from redzone.formats import outcome
from redzone.formats.scenario import load
from redzone.kernel.model import GameState
from redzone.kernel.results import AssignmentRecord, DamageStepRecord


@pytest.fixture
def striker_board(engine: Engine) -> GameState:
    """A 3/3 double strike trample attacker blocked by a 1/5; a 2/2 attacker
    blocked by a 2/2; a 1/1 attacker unblocked."""
    state = engine.game(["alice", "bob"], [
        engine.creature("ds", "alice", 3, 3, "double strike", "trample"),
        engine.creature("bear", "alice", 2, 2),
        engine.creature("elf", "alice", 1, 1),
        engine.creature("ox", "bob", 1, 5),
        engine.creature("cub", "bob", 2, 2),
    ])
    return state


ATTACKS = {"ds": "bob", "bear": "bob", "elf": "bob"}
BLOCKS = {"ox": "ds", "cub": "bear"}


def _by_source(step: DamageStepRecord) -> dict[str, AssignmentRecord]:
    return {r.source: r for r in step.assignments}


def test_two_damage_steps_give_two_records_with_what_each_computed_702_19(
        engine: Engine, striker_board: GameState) -> None:
    """702.4b, 702.19b, 510.1c-d: the first-strike step and the regular one
    each report their duties and amounts; the lethal damage of the regular
    step counts the damage the first step marked (3 on the 1/5: lethal 2)."""
    result = engine.resolve(striker_board, ATTACKS, BLOCKS,
                            assign={"ds": {"ox": 2, "bob": 1}},
                            assign_first_strike={"ds": {"ox": 3}})
    first, regular = result.damage_steps
    assert (first.step, regular.step) == ("first_strike_damage", "combat_damage")
    assert [r.source for r in first.assignments] == ["ds"]
    ds1 = _by_source(first)["ds"]
    assert ds1.given and dict(ds1.amounts) == {"ox": 3} and ds1.power == 3
    assert dict(ds1.lethal) == {"ox": 5} and ds1.creatures == ("ox",)
    assert ds1.attacked == "bob" and ds1.is_attacker and ds1.blocked
    regular_by = _by_source(regular)
    assert set(regular_by) == {"ds", "bear", "elf", "ox", "cub"}
    ds2 = regular_by["ds"]
    assert ds2.given and dict(ds2.amounts) == {"ox": 2, "bob": 1}
    assert dict(ds2.lethal) == {"ox": 2}  # 5 toughness, 3 marked (510.1c)
    # The default policy's entries are marked apart from the given ones.
    assert not regular_by["bear"].given and dict(regular_by["bear"].amounts) == {"cub": 2}
    assert not regular_by["elf"].given and dict(regular_by["elf"].lethal) == {}
    assert regular_by["elf"].amounts == {"bob": 1} and not regular_by["elf"].blocked
    assert not regular_by["cub"].is_attacker and regular_by["cub"].creatures == ("bear",)
    # The record is the step's own: the one its command's outcome carries.
    assert result.state.players["bob"].life == 20 - 1 - 1


def test_the_damage_command_outcome_carries_its_step_record_510_1(
        engine: Engine, striker_board: GameState) -> None:
    """510.1: the combat damage command's outcome carries its step's record;
    the other commands' carry none."""
    state = engine.declare_attackers(striker_board, ATTACKS).state
    blocked = engine.declare_blockers(state, BLOCKS)
    assert blocked.damage_steps == ()
    out = engine.combat_damage(blocked.state)
    (record,) = out.damage_steps
    assert record.step == record.label == "first_strike_damage"
    ds = _by_source(record)["ds"]
    # The default policy: lethal (5) to the ox first, nothing left for bob.
    assert not ds.given and dict(ds.amounts) == {"ox": 3}
    assert dict(ds.lethal_before) == {"ox": 5}
    out2 = engine.combat_damage(out.state, {"bear": {"cub": 2}})
    (record2,) = out2.damage_steps
    assert _by_source(record2)["bear"].given and not _by_source(record2)["cub"].given


def test_lethal_before_counts_only_the_creatures_listed_before_510_1d(
        engine: Engine) -> None:
    """510.1d: two blockers of one 1/4: ``lethal_before`` of the second
    counts what the first assigns (4 - 2 = 2); ``lethal`` of each counts the
    other's damage (the view the assignment is checked in)."""
    state = engine.game(["alice", "bob"], [
        engine.creature("a1", "alice", 1, 4),
        engine.creature("b1", "bob", 2, 2), engine.creature("b2", "bob", 3, 3)])
    result = engine.resolve(state, {"a1": "bob"}, {"b1": "a1", "b2": "a1"},
                            assign={"b1": {"a1": 2}, "b2": {"a1": 3}})
    (step,) = result.damage_steps
    rec = _by_source(step)
    assert dict(rec["b1"].lethal_before) == {"a1": 4}
    assert dict(rec["b2"].lethal_before) == {"a1": 2}
    assert dict(rec["b1"].lethal) == {"a1": 1} and dict(rec["b2"].lethal) == {"a1": 2}
    assert rec["b1"].given and rec["b2"].given and not rec["a1"].given


def test_a_rejected_assignment_carries_the_attempt_and_what_came_before_702_19b(
        engine: Engine, striker_board: GameState) -> None:
    """702.19b, 510.1e: the regular step's illegal assignment is rejected;
    the error carries that step's attempted record (the given entry as given,
    the lethal amount it broke), the command that failed and the state it was
    given, and the first-strike step's record under ``partial``."""
    with pytest.raises(IllegalAssignmentError) as info:
        engine.resolve(striker_board, ATTACKS, BLOCKS, assign={"ds": {"ox": 1, "bob": 2}},
                       assign_first_strike={"ds": {"ox": 3}})
    error = info.value
    assert error.rule == "702.19b"
    attempt = error.damage_step
    assert attempt is not None and attempt.step == "combat_damage"
    ds = _by_source(attempt)["ds"]
    assert ds.given and dict(ds.amounts) == {"ox": 1, "bob": 2} and dict(ds.lethal) == {"ox": 2}
    assert error.command == "combat_damage"
    assert error.state is not None and error.state.objects["ox"].damage == 3
    assert error.partial is not None
    assert [s.step for s in error.partial.damage_steps] == ["first_strike_damage"]


NOTED = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "knight"
controller = "alice"
power = 3
toughness = 3
keywords = ["first strike"]
[[permanents]]
id = "b1"
controller = "bob"
power = 2
toughness = 2
[[permanents]]
id = "b2"
controller = "bob"
power = 1
toughness = 4
[combat]
attacks = { knight = "bob" }
blocks = { b1 = ["knight"], b2 = ["knight"] }
[combat.assign]
knight = { b1 = 2, b2 = 1 }
b1 = { knight = 2 }
"""


def test_the_resolution_reads_the_records_and_notes_from_the_steps_506_4(
        tmp_path: Path) -> None:
    """506.4, 510.1: the scenario's resolution shows the kernel's records as
    they are, in order, and notes the entry of a blocker killed in the first
    step as unused in the regular one, once, from that step's record."""
    path = tmp_path / "noted.toml"
    path.write_text(NOTED, encoding="utf-8")
    res = outcome.resolve(load(path, engine_factory=outcome.command_engine))
    assert res.error is None and res.result is not None
    steps = res.result.damage_steps
    assert [s.step for s in steps] == ["first_strike_damage", "combat_damage"]
    assert res.assignments == tuple(r for s in steps for r in s.assignments)
    assert [(r.step, r.source) for r in res.assignments] == [
        ("first_strike_damage", "knight"), ("combat_damage", "b2")]
    assert steps[0].unused == {}
    assert set(steps[1].unused) == {"b1"} and "(rule 506.4)" in steps[1].unused["b1"]
    assert res.notes == (steps[1].unused["b1"],)


def test_the_format_layer_has_no_engine_subclass_and_no_second_computation() -> None:
    """Item 2: the format layer no longer subclasses the engine to record
    commands, nor computes an assignment a second time to show it."""
    source = inspect.getsource(outcome)
    assert "class _Recorder" not in source and "(Engine)" not in source
    assert not hasattr(outcome, "assignment_records")
    for name in ("lethal_map", "damage_duties", "policy("):
        assert name not in source, name
    assert outcome.AssignmentRecord is AssignmentRecord


def test_lethal_amounts_are_the_plugins_when_one_answers_702_2c(engine: Engine) -> None:
    """702.2c, 702.19b: with deathtouch, 1 damage is lethal: the record's
    lethal amounts are the ones the plugin gives (the hook is asked), and
    the plain arithmetic for a creature without it (2 for a 2/2)."""
    state = engine.game(["alice", "bob"], [
        engine.creature("dt", "alice", 3, 3, "deathtouch", "trample"),
        engine.creature("bear", "alice", 2, 2),
        engine.creature("b1", "bob", 2, 2), engine.creature("b2", "bob", 2, 2)])
    result = engine.resolve(state, {"dt": "bob", "bear": "bob"}, {"b1": "dt", "b2": "bear"})
    rec = _by_source(result.damage_steps[0])
    assert dict(rec["dt"].lethal) == {"b1": 1} and dict(rec["dt"].amounts) == {"b1": 1, "bob": 2}
    assert dict(rec["bear"].lethal) == {"b2": 2}


def test_a_blocked_creature_whose_blocker_left_has_its_entry_unused_by_510_1c(
        engine: Engine) -> None:
    """510.1c: "a blocked creature assigns its combat damage to the creatures
    blocking it. If no creatures are currently blocking it (if, for example,
    they were ... removed from combat), it assigns no combat damage." The
    bear stays blocked (509.1h) after the wall is removed from combat, so
    the entry given for it is unused, and the record cites 510.1c (the rule
    for blocked creatures), not 510.1b (the one for unblocked creatures)."""
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2),
                                           engine.creature("wall", "bob", 0, 4)])
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "bear"}).state
    state = engine.perform(state, RemoveFromCombat("wall")).state
    result = engine.combat_damage(state, {"bear": {"wall": 2}})
    (step,) = result.damage_steps
    assert set(step.unused) == {"bear"}
    assert step.unused["bear"].endswith("(rule 510.1c)")
    assert result.state.objects["wall"].damage == 0
    assert result.state.players["bob"].life == 20
