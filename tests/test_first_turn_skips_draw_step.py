"""103.8a, 810.6, 500.11: the player (team) who plays first skips the draw
step of their first turn: the game proceeds past it as though it didn't
exist, so nothing triggers "at the beginning of the draw step", no player
gets priority in it, and it is not among the outcome's steps."""

from __future__ import annotations

import pytest
from _outcomes import events, run
from redzone.formats.scenario import ScenarioProblems, loads

FILE = '''active_player = "alice"
first_turn = true
[players.alice]
[players.bob]
{more}
[[permanents]]
id = "mine"
controller = "alice"
types = ["artifact"]
[[permanents]]
id = "l1"
controller = "alice"
power = 1
toughness = 1
zone = "library"
[[permanents]]
id = "l2"
controller = "alice"
power = 1
toughness = 1
zone = "library"
[[triggers]]
when = "step"
source = "mine"
match = {{ step = "draw" }}
text = "at the beginning of the draw step, alice draws a card"
actions = [ {{ do = "draw", player = "alice" }} ]
[combat]
attacks = {{}}
'''


def test_103_8a_500_11_the_skipped_draw_step_doesnt_begin() -> None:
    """103.8a, 500.11: no draw step: no step event, no trigger, no draw."""
    out = run(FILE.format(more=""))
    assert out["ok"], out.get("error")
    assert out["steps"][:3] == ["untap", "upkeep", "beginning_of_combat"]
    assert "draw" not in out["after_steps"]
    assert not [e for e in out["events"] if e["step"] == "draw"]
    assert out["zones"]["alice"]["hand"] == []


def test_103_8c_with_more_players_the_first_player_draws_and_the_step_triggers() -> None:
    """103.8c: in a game of more than two players, the first player doesn't
    skip the draw step: it begins, the trigger draws one more."""
    out = run(FILE.format(more="[players.carol]"))
    assert out["ok"], out.get("error")
    assert out["steps"][:3] == ["untap", "upkeep", "draw"]
    assert len(out["zones"]["alice"]["hand"]) == 2
    assert [e["kind"] for e in events(out, "trigger", "draw")] == ["trigger"]


def test_500_11_an_action_in_the_skipped_draw_step_is_refused() -> None:
    """500.11, 117.1, 103.8a: no player gets priority in a skipped step: a
    file's action after the first player's skipped draw step is a problem of
    the file, naming its key and the rule, found as the file is read."""
    text = FILE.format(more="").replace(
        "attacks = {}\n",
        'attacks = {}\n[[combat.actions]]\nafter = "draw"\ndo = "lose_life"\n'
        'player = "bob"\namount = 1\n')
    with pytest.raises(ScenarioProblems) as info:
        loads(text)
    (problem,) = info.value.problems
    assert problem.key == "combat.actions[0].after" and "103.8a" in problem.detail
