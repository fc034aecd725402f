"""Counters that change power and toughness (122.1a, 613.4c): every
+X/+Y and -X/-Y counter, not only +1/+1 and -1/-1, adds to power and
toughness in layer 7c; 704.5q annihilates only +1/+1 with -1/-1."""

from __future__ import annotations

import pytest
from _outcomes import run
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, new_game
from redzone.kernel.actions import AddContinuous

engine = Engine()


@pytest.mark.parametrize(("counters", "want"), [
    ({"+1/+0": 2}, (4, 2)),
    ({"+0/+1": 1, "-1/-0": 1}, (1, 3)),
    ({"+2/+2": 1, "-0/-1": 1}, (4, 3)),
    ({"+1/+1": 1, "+1/+0": 1}, (4, 3)),
    ({"-2/-2": 1}, (0, 0)),
])
def test_122_1a_every_plus_x_plus_y_counter_changes_power_and_toughness(
        counters: dict[str, int], want: tuple[int, int]) -> None:
    """122.1a, 613.4c: a +X/+Y counter adds X to power and Y to toughness,
    a -X/-Y counter subtracts them, whatever X and Y are."""
    state = new_game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2, counters=counters)])
    bear = state.objects["bear"]
    assert (bear.power, bear.toughness) == want


def test_613_4c_counters_apply_in_7c_after_a_set_base() -> None:
    """613.4b-c: "becomes 0/1" (7b) then a +1/+0 counter (7c): 1/1."""
    state = new_game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2,
                                                        counters={"+1/+0": 1})])
    state = engine.perform(state, AddContinuous(affects=("bear",), set_power=0,
                                                set_toughness=1)).state
    bear = state.objects["bear"]
    assert (bear.power, bear.toughness) == (1, 1)


def test_704_5f_minus_zero_minus_two_counters_kill_a_two_two() -> None:
    """122.1a, 704.5f: a 2/2 with a -0/-2 counter has toughness 0 and is put
    into its owner's graveyard as state-based actions are checked."""
    state = new_game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2,
                                                        counters={"-0/-2": 1})])
    state = engine.check_state_based_actions(state).state
    assert state.objects["bear"].zone == "graveyard"


def test_704_5q_only_plus_one_and_minus_one_counters_annihilate() -> None:
    """704.5q names +1/+1 and -1/-1 counters: a +2/+2 counter and a -1/-1
    counter both stay (the creature is 3/3)."""
    state = new_game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2,
                                                        counters={"+2/+2": 1, "-1/-1": 1})])
    state = engine.check_state_based_actions(state).state
    bear = state.objects["bear"]
    assert dict(bear.counters) == {"+2/+2": 1, "-1/-1": 1}
    assert (bear.power, bear.toughness) == (3, 3)


def test_122_1a_a_scenario_files_plus_one_plus_zero_counters_deal_damage() -> None:
    """122.1a, 510.1a: an unblocked 2/2 with two +1/+0 counters assigns 4
    combat damage (it is 4/2)."""
    out = run('active_player = "alice"\n[players.alice]\n[players.bob]\n'
              '[[permanents]]\nid = "bear"\ncontroller = "alice"\npower = 2\n'
              'toughness = 2\ncounters = { "+1/+0" = 2 }\n'
              '[combat]\nattacks = { bear = "bob" }\n')
    assert out["players"]["bob"]["life"] == 16
    assert (out["permanents"]["bear"]["power"], out["permanents"]["bear"]["toughness"]) == (4, 2)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(["+1/+1", "-1/-1", "+1/+0", "+0/+1", "-1/-0", "-0/-1",
                                        "+2/+2", "-2/-2", "+1/+2", "loyalty", "charge"]),
                       st.integers(1, 5), max_size=5))
def test_122_1a_power_and_toughness_sum_every_pt_counter(counters: dict[str, int]) -> None:
    """122.1a: power and toughness are the printed values plus X (and Y)
    times the number of each +X/+Y counter; other counters change neither."""
    state = new_game(["alice", "bob"], [engine.creature("bear", "alice", 3, 3, counters=counters)])
    bear = state.objects["bear"]
    dp = dt = 0
    for kind, n in counters.items():
        if "/" in kind:
            p, t = kind.split("/")
            dp += int(p) * n
            dt += int(t) * n
    assert (bear.power, bear.toughness) == (3 + dp, 3 + dt)
