"""Deathtouch (CR 702.2, 704.5h).

Each test names the rule it checks. Any nonzero damage a deathtouch source
assigns to a creature is lethal (702.2c); a creature with toughness greater
than 0 dealt damage by a deathtouch source since state-based actions were last
checked is destroyed (702.2b, 704.5h), whatever the damage's results were.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    CombatResult,
    DealDamage,
    Engine,
    Grant,
    LeaveBattlefield,
    Prevent,
    Revoke,
)
from redzone.testing import KeywordConformance
from redzone_keywords import deathtouch


def zone(result: CombatResult, obj: str) -> str:
    return result.state.objects[obj].zone


def destroyed_by(events: Any, obj: str) -> list[str]:
    """The rules under which ``obj`` was destroyed."""
    return [e.rule for e in events if e.kind == "destroyed" and e.object == obj]


# ---------------------------------------------------------------------------
# 702.2c: lethal damage for assignment
# ---------------------------------------------------------------------------


def test_702_2c_lethal_damage_from_a_deathtouch_source_is_1(engine: Engine,
                                                            board: Any) -> None:
    state = board(board.c("asp", "alice", 2, 2, "deathtouch"), board.c("bear", "alice", 2, 2),
                  board.c("wurm", "bob", 6, 6), board.c("ogre", "bob", 3, 3, damage=3))
    assert engine.lethal_damage(state, "asp", "wurm") == 1
    assert engine.lethal_damage(state, "bear", "wurm") == 6
    # Never more than the creature's own lethal damage (none left to deal here).
    assert engine.lethal_damage(state, "asp", "ogre") == 0


def test_702_2c_deathtouch_attacker_blocked_by_three_kills_all_three(engine: Engine,
                                                                     board: Any) -> None:
    """The seed's Gorgon Flail question: a deathtouch attacker blocked by
    several creatures divides its damage 1 to each, and each dies."""
    state = board(board.c("unicorn", "alice", 3, 3, "deathtouch"),
                  *(board.c(f"g{i}", "bob", 0, 4) for i in range(3)))
    blocks = {f"g{i}": "unicorn" for i in range(3)}
    st_ = engine.declare_blockers(engine.declare_attackers(state, {"unicorn": "bob"}).state,
                                  blocks).state
    assert engine.default_assignment(st_)["unicorn"] == {"g0": 1, "g1": 1, "g2": 1}
    result = engine.resolve(state, {"unicorn": "bob"}, blocks)
    for i in range(3):
        assert zone(result, f"g{i}") == "graveyard"
        assert destroyed_by(result.events, f"g{i}") == ["704.5h"]


# ---------------------------------------------------------------------------
# 702.2b / 704.5h: destruction
# ---------------------------------------------------------------------------


def test_702_2b_704_5h_any_damage_from_deathtouch_destroys(engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6), board.c("asp", "bob", 1, 1, "deathtouch"))
    result = engine.resolve(state, {"wurm": "bob"}, {"asp": "wurm"})
    assert zone(result, "wurm") == "graveyard"
    assert destroyed_by(result.events, "wurm") == ["704.5h"]
    assert result.after_steps["combat_damage"].objects["wurm"].zone == "graveyard"


def test_702_2b_without_deathtouch_one_damage_doesnt_destroy(engine: Engine,
                                                             board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6), board.c("elf", "bob", 1, 1))
    result = engine.resolve(state, {"wurm": "bob"}, {"elf": "wurm"})
    assert zone(result, "wurm") == "battlefield"


def test_510_1a_zero_power_deathtouch_deals_nothing_and_destroys_nothing(
        engine: Engine, board: Any) -> None:
    """The seed's question: a deathtouch creature with 0 power deals no
    damage (510.1a), so nothing is destroyed."""
    state = board(board.c("bear", "alice", 3, 3), board.c("asp", "bob", 0, 4, "deathtouch"))
    result = engine.resolve(state, {"bear": "bob"}, {"asp": "bear"})
    assert zone(result, "bear") == "battlefield"
    assert not any(e.kind == "damage" and e.source == "asp" for e in result.events)


def test_702_2b_damage_prevented_destroys_nothing(engine: Engine, board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6), board.c("asp", "bob", 1, 1, "deathtouch"))
    result = engine.resolve(state, {"wurm": "bob"}, {"asp": "wurm"},
                            actions=[("declare_blockers", Prevent(target="wurm"))])
    assert zone(result, "wurm") == "battlefield"


def test_702_2b_first_strike_deathtouch_blocker_kills_before_damage(engine: Engine,
                                                                    board: Any) -> None:
    state = board(board.c("wurm", "alice", 6, 6), board.c("asp", "bob", 1, 1, "deathtouch",
                                                          "first strike"))
    result = engine.resolve(state, {"wurm": "bob"}, {"asp": "wurm"})
    assert zone(result, "wurm") == "graveyard"
    assert zone(result, "asp") == "battlefield"
    assert result.after_steps["first_strike_damage"].objects["wurm"].zone == "graveyard"


def test_702_2b_120_3d_wither_deathtouch_one_counter_destroys(engine: Engine,
                                                              board: Any) -> None:
    state = board(board.c("wurm", "alice", 4, 4), board.c("asp", "bob", 1, 1, "deathtouch",
                                                          "wither"))
    result = engine.resolve(state, {"wurm": "bob"}, {"asp": "wurm"})
    assert zone(result, "wurm") == "graveyard"
    assert destroyed_by(result.events, "wurm") == ["704.5h"]
    counters = [e for e in result.events if e.kind == "counters" and e.target == "wurm"]
    assert [(e.counter, e.amount) for e in counters] == [("-1/-1", 1)]


def test_702_2b_120_3d_infect_deathtouch_one_counter_destroys(engine: Engine,
                                                              board: Any) -> None:
    state = board(board.c("wurm", "alice", 4, 4), board.c("asp", "bob", 1, 1, "deathtouch",
                                                          "infect"))
    result = engine.resolve(state, {"wurm": "bob"}, {"asp": "wurm"})
    assert zone(result, "wurm") == "graveyard"
    assert destroyed_by(result.events, "wurm") == ["704.5h"]


def test_702_2b_noncombat_damage_from_deathtouch_source_destroys(engine: Engine,
                                                                 board: Any) -> None:
    state = board(board.c("asp", "alice", 1, 1, "deathtouch"), board.c("wurm", "bob", 6, 6))
    out = engine.perform(state, DealDamage("asp", "wurm", 1))
    assert out.state.objects["wurm"].zone == "graveyard"
    assert destroyed_by(out.events, "wurm") == ["704.5h"]


def test_702_2e_source_that_left_the_battlefield_uses_last_known_information(
        engine: Engine, board: Any) -> None:
    """A Mogg Fanatic with deathtouch sacrificed to deal 1 damage: its last
    known information has deathtouch (702.2d-e)."""
    state = board(board.c("fanatic", "alice", 1, 1), board.c("wurm", "bob", 6, 6))
    # Granted, so only the last known information has it (the card doesn't).
    state = engine.perform(state, Grant("fanatic", "deathtouch")).state
    state = engine.perform(state, LeaveBattlefield("fanatic")).state
    assert not state.objects["fanatic"].has("deathtouch")
    out = engine.perform(state, DealDamage("fanatic", "wurm", 1))
    assert out.state.objects["wurm"].zone == "graveyard"


def test_702_2b_702_12b_indestructible_survives_deathtouch(engine: Engine, board: Any) -> None:
    """704.5h destroys; destruction does nothing to an indestructible creature
    (702.12b)."""
    state = engine.game(["alice", "bob"], [
        engine.creature("golem", "alice", 4, 4, "indestructible"),
        engine.creature("asp", "bob", 1, 1, "deathtouch")])
    result = engine.resolve(state, {"golem": "bob"}, {"asp": "golem"})
    assert zone(result, "golem") == "battlefield"
    assert zone(result, "asp") == "graveyard"


def test_704_5h_only_since_state_based_actions_were_last_checked(engine: Engine,
                                                                 board: Any) -> None:
    """The fact "dealt damage by a deathtouch source" lasts only until the
    next check: an indestructible creature that survived it and later loses
    indestructible isn't destroyed by that old damage."""
    state = engine.game(["alice", "bob"], [
        engine.creature("golem", "alice", 4, 4, "indestructible"),
        engine.creature("asp", "bob", 1, 1, "deathtouch")])
    state = engine.perform(state, DealDamage("asp", "golem", 1)).state
    assert state.objects["golem"].zone == "battlefield"
    state = engine.perform(state, Revoke("golem", "indestructible")).state
    assert state.objects["golem"].zone == "battlefield"
    assert state.objects["golem"].damage == 1


def test_704_5h_applies_only_to_creatures_with_toughness_above_0(engine: Engine,
                                                                 board: Any) -> None:
    """A deathtouch wither source that takes a creature to toughness 0 puts it
    into the graveyard under 704.5f; it isn't "destroyed"."""
    state = board(board.c("bear", "alice", 1, 1), board.c("asp", "bob", 1, 1, "deathtouch",
                                                          "wither"))
    result = engine.resolve(state, {"bear": "bob"}, {"asp": "bear"})
    assert zone(result, "bear") == "graveyard"
    assert destroyed_by(result.events, "bear") == []
    assert [e.rule for e in result.events if e.kind == "dies" and e.object == "bear"] == [
        "704.5f"]


def test_704_5h_the_plugin_asks_to_destroy_only_creatures_with_toughness_above_0(
        engine: Engine, board: Any) -> None:
    """The state-based action itself, as the plugin answers it: a 0-toughness
    creature dealt deathtouch damage is not destroyed under 704.5h."""
    mark = deathtouch.MARK
    state = board(board.c("zero", "alice", 1, 0, marks=[mark]),
                  board.c("one", "alice", 1, 1, marks=[mark]), board.c("other", "alice", 1, 1),
                  board.c("asp", "bob", 1, 1, "deathtouch"))
    actions = [(a.kind, a.rule, a.object) for a in engine.hooks.permanent_state_based_actions(
        state, ("asp", "one", "other", "zero"))]
    assert ("destroy", "704.5h", "one") in actions
    assert not any(obj in ("zero", "other") and rule == "704.5h" for _, rule, obj in actions)


# ---------------------------------------------------------------------------
# Property
# ---------------------------------------------------------------------------

_ENGINE = Engine(discover=False, plugins=[deathtouch])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.lists(st.integers(1, 9), min_size=1, max_size=4))
def test_702_2b_every_creature_dealt_damage_by_deathtouch_is_destroyed(
        power: int, toughnesses: list[int]) -> None:
    """A deathtouch attacker with any power blocked by 0-power creatures of any
    toughness: exactly the blockers it dealt damage to are destroyed."""
    perms = [_ENGINE.creature("asp", "alice", power, 1, "deathtouch")]
    perms += [_ENGINE.creature(f"b{i}", "bob", 0, t) for i, t in enumerate(toughnesses)]
    blocks = {f"b{i}": "asp" for i in range(len(toughnesses))}
    result = _ENGINE.resolve(_ENGINE.game(["alice", "bob"], perms), {"asp": "bob"}, blocks)
    hit = {e.target for e in result.events if e.kind == "damage" and e.source == "asp"}
    assert len(hit) == min(power, len(toughnesses))
    for blocker in blocks:
        assert (zone(result, blocker) == "graveyard") == (blocker in hit)


class TestDeathtouchConformance(KeywordConformance):
    """The conformance kit's invariants hold with deathtouch on generated boards
    (mixed with every other loaded keyword)."""

    plugin = deathtouch
    max_examples = 15


# ---------------------------------------------------------------------------
# 702.2c with 702.19b: another creature's deathtouch damage, in `explain`
# ---------------------------------------------------------------------------

SHARED_WALL = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "snake"
name = "Deathtouch Snake"
controller = "alice"
power = 1
toughness = 1
keywords = ["deathtouch"]
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
can_block_additional = 1
[combat]
attacks = { snake = "bob", wurm = "bob" }
blocks = { wall = ["snake", "wurm"] }
[combat.assign]
snake = { wall = 1 }
wurm = { bob = 5 }
"""


def test_702_2c_702_19b_explain_shows_lethal_0_after_another_deathtouch_source(
        tmp_path: Any) -> None:
    """``redzone explain``: the snake (deathtouch) assigns 1 to the wall, so the
    wall is assigned lethal damage (702.2c) and the wurm's lethal figure for it
    is 0; its legal assignment is all 6 to the player (702.19b). The file is
    illegal only because the wurm assigns 5 of its 6 (510.1a)."""
    from click.testing import CliRunner
    from redzone.frontends.cli import cli

    path = tmp_path / "shared.toml"
    path.write_text(SHARED_WALL)
    result = CliRunner().invoke(cli, ["explain", str(path)])
    assert result.exit_code == 1, result.output
    out = result.output
    assert "[510.1a]" in out
    assert "Wall of Wood 0" in out
    assert "at least 0 in all" in out
    assert "a legal assignment: 6 to bob" in out
    fixed = SHARED_WALL.replace("wurm = { bob = 5 }", "wurm = { bob = 6 }")
    path.write_text(fixed)
    assert CliRunner().invoke(cli, ["run", str(path)]).exit_code == 0
