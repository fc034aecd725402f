"""Two-Headed Giant (810) with the shared team turns option (805): a shared
life total and poison count (810.4, 810.9, 810.10), the attacking and the
defending team (805.10), and winning and losing as a team (810.8, 104.2c)."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, GameState, IllegalAttackError, IllegalBlockError, Player, new_game
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads

TEAMS = {"red": ("alice", "carol"), "blue": ("bob", "dave")}


def giant(engine: Engine, *perms: Any) -> GameState:
    """alice and carol (red) against bob and dave (blue); alice is active."""
    return engine.game(["alice", "bob", "carol", "dave"], perms, teams=TEAMS,
                       turn_order=["alice", "bob", "carol", "dave"])


def test_810_4_a_team_shares_30_life(engine: Engine) -> None:
    """810.4: each team has a shared life total, which starts at 30; 810.11: 15
    more for each player beyond the second."""
    state = giant(engine)
    assert {p.life for p in state.players.values()} == {30}
    three = new_game(["a", "b", "c", "x", "y", "z"], teams={"t1": ("a", "b", "c"),
                                                            "t2": ("x", "y", "z")})
    assert three.players["a"].life == 45
    with pytest.raises(ValueError, match=r"810\.4"):
        new_game([Player("a", life=20), Player("b", life=25)], teams={"t": ("a", "b")})


def test_810_9_damage_to_each_player_happens_to_the_team(engine: Engine) -> None:
    """810.9: damage and life loss happen to each player individually and the
    result is applied to the team's life (Flame Rift: 4 to each player is 8
    to each team); both teammates show the team's life (810.9a)."""
    c = engine.creature
    state = giant(engine, c("orc", "alice", 4, 4), c("elf", "carol", 3, 3))
    result = engine.resolve(state, {"orc": "bob", "elf": "dave"})
    assert result.state.players["bob"].life == result.state.players["dave"].life == 23
    assert result.state.players["alice"].life == 30


def test_805_10_the_teams_attack_and_block_as_teams(engine: Engine) -> None:
    """805.10a-b: each player on the active team is an attacking player: the
    teammates' creatures attack together, each attacking one defending player;
    805.10d: the defending team's creatures block any creature attacking their
    team; a creature can't attack its controller's teammate."""
    c = engine.creature
    state = giant(engine, c("orc", "alice", 2, 2), c("elf", "carol", 2, 2),
                  c("bear", "bob", 2, 2), c("wolf", "dave", 2, 2))
    out = engine.declare_attackers(state, {"orc": "bob", "elf": "dave"})
    blocked = engine.declare_blockers(out.state, {"bear": "elf", "wolf": "orc"})
    assert blocked.state.combat is not None
    assert blocked.state.combat.blocks == {"bear": ("elf",), "wolf": ("orc",)}
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"orc": "carol"})
    assert info.value.violations[0].rule == "805.10a"
    with pytest.raises(IllegalAttackError):  # the defending team can't attack
        engine.declare_attackers(state, {"bear": "alice"})


def test_805_10a_a_teammates_planeswalker_is_not_attacked(engine: Engine) -> None:
    """805.10a: a team attacks the other team (and its planeswalkers and
    battles): alice's orc can't attack carol's planeswalker, carol being her
    teammate; the refusal cites 805.10a and says whose it is (not "its own
    controller's", which is alice's own); alice's own planeswalker is 508.1b."""
    c = engine.creature
    walker = engine.permanent("jace", "carol", types={"planeswalker"}, counters={"loyalty": 3})
    own = engine.permanent("gideon", "alice", types={"planeswalker"}, counters={"loyalty": 3})
    state = giant(engine, c("orc", "alice", 2, 2), walker, own)
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"orc": "jace"})
    (v,) = info.value.violations
    assert (v.rule, v.message) == (
        "805.10a", "orc can't attack jace: it is controlled by 'carol', a teammate of its "
        "controller: a team attacks the other team")
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"orc": "gideon"})
    (v,) = info.value.violations
    assert (v.rule, v.message) == (
        "508.1b", "orc can't attack gideon: its own controller's planeswalker")


def test_805_10a_509_1c_a_teammates_creatures_must_obey_the_blocking_requirements(
        engine: Engine) -> None:
    """805.10a, 805.10d, 509.1c: each player on the defending team is a
    defending player and the team makes one combined block, so the
    requirements apply to the teammate's creatures too: the orc with "all
    creatures able to block it do so" attacks bob, and dave's wolf must block
    it; a creature of dave's that "blocks each combat if able" must block,
    though only bob is attacked."""
    c = engine.creature
    lure = c("orc", "alice", 3, 3)
    lure = lure.evolve(lure=True)
    state = engine.declare_attackers(giant(engine, lure, c("bear", "bob", 2, 2),
                                           c("wolf", "dave", 2, 2)), {"orc": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"bear": "orc"})
    assert info.value.rule == "509.1c" and "wolf" in info.value.message
    engine.declare_blockers(state, {"bear": "orc", "wolf": "orc"})
    wolf = c("wolf", "dave", 2, 2).evolve(blocks_if_able=True)
    state = engine.declare_attackers(giant(engine, c("ogre", "alice", 3, 3), wolf),
                                     {"ogre": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {})
    assert info.value.rule == "509.1c"
    engine.declare_blockers(state, {"wolf": "ogre"})


def test_810_8c_and_104_2c_the_team_loses_and_the_other_wins(engine: Engine) -> None:
    """810.8c: a team with 0 or less life loses; 810.8a: both its players
    lose; 104.2c: the other team wins, both its players."""
    c = engine.creature
    state = giant(engine, c("orc", "alice", 20, 20), c("elf", "carol", 10, 10))
    result = engine.resolve(state, {"orc": "bob", "elf": "dave"})
    over = result.state.game_over
    assert over is not None and set(over.winners) == {"alice", "carol"}
    assert set(over.losers) == {"bob", "dave"} and over.rule == "104.2c"
    lost = [(e.player, e.rule) for e in result.events if e.kind == "lost"]
    assert lost[0][1] == "810.8c" and {p for p, _ in lost} == {"bob", "dave"}


def test_810_10_and_810_8d_fifteen_poison_counters(engine: Engine) -> None:
    """810.10: poison counters are shared by the team; 810.8d: a team with
    fifteen or more loses (not ten)."""
    c = engine.creature
    state = giant(engine, engine.creature("rat", "alice", 6, 6, "infect"),
                  engine.creature("mite", "carol", 6, 6, "infect"))
    result = engine.resolve(state, {"rat": "bob", "mite": "dave"})
    assert result.state.players["bob"].poison == result.state.players["dave"].poison == 12
    assert result.state.game_over is None  # 12 < 15 (810.8d), though each got 6
    state = giant(engine, engine.creature("rat", "alice", 15, 15, "infect"), c("x", "carol", 1, 1))
    over = engine.resolve(state, {"rat": "bob"}).state.game_over
    assert over is not None and over.rule == "104.2c"


def test_805_the_next_turn_is_the_other_teams(engine: Engine) -> None:
    """Shared team turns (805, 810.2): the next turn is the other team's; both
    of its players' permanents untap and are no longer summoning sick."""
    c = engine.creature
    state = giant(engine, c("bear", "bob", 2, 2, tapped=True), c("wolf", "dave", 2, 2,
                                                                   tapped=True,
                                                                   summoning_sick=True))
    state = engine.resolve(state, {}, through="cleanup").state
    after = engine.begin_turn(state, draw=False).state
    assert after.active_player == "bob"
    assert not after.objects["wolf"].tapped and not after.objects["wolf"].summoning_sick
    assert after.is_attacking_player("dave") and not after.is_attacking_player("alice")


def test_805_4_810_2_teammates_seated_together_the_next_turn_is_the_other_teams(
        engine: Engine) -> None:
    """805.4, 810.2: with shared team turns the teams take turns, not the
    players: seated alice, carol (red), bob, dave (blue), the turn after the
    red team's is the blue team's (bob, its first player in turn order, is
    the active player), not carol's; its permanents untap, the red team's
    don't. The turn after it is the red team's again."""
    c = engine.creature
    state = engine.game(["alice", "carol", "bob", "dave"], [
        c("elf", "carol", 1, 1, tapped=True), c("wolf", "dave", 2, 2, tapped=True)],
        teams=TEAMS, turn_order=["alice", "carol", "bob", "dave"])
    blue = engine.begin_turn(engine.end_turn(state).state, draw=False).state
    assert (blue.turn, blue.active_player) == (2, "bob")
    assert blue.is_attacking_player("dave") and not blue.is_attacking_player("carol")
    assert not blue.objects["wolf"].tapped and blue.objects["elf"].tapped
    red = engine.begin_turn(engine.end_turn(blue).state, draw=False).state
    assert (red.turn, red.active_player) == (3, "alice")
    assert not red.objects["elf"].tapped


def test_teams_from_a_scenario_file() -> None:
    """The ``teams`` key: team id -> players; teammates share life (30 by
    default); a player on two teams, or teammates with different lives, is a
    bad scenario naming the key."""
    base = """
active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
TEAMS
[players.alice]
[players.bob]
[players.carol]
[players.dave]

[[permanents]]
id = "orc"
controller = "carol"
power = 5
toughness = 5

[combat]
attacks = { orc = "dave" }
"""
    out = outcome_json(resolve(loads(base.replace(
        "TEAMS", 'teams = { red = ["alice", "carol"], blue = ["bob", "dave"] }'))))
    assert out["players"]["bob"]["life"] == out["players"]["dave"]["life"] == 25
    with pytest.raises(ScenarioProblems, match="already on team"):
        loads(base.replace("TEAMS", 'teams = { red = ["alice", "carol"], blue = ["bob", '
                                    '"alice"] }'))
    with pytest.raises(ScenarioProblems, match=r"810\.4"):
        loads(base.replace("TEAMS", 'teams = { red = ["alice", "carol"], blue = ["bob", '
                                    '"dave"] }').replace("[players.bob]",
                                                         "[players.bob]\nlife = 12"))


APNAP_TEAMS = """active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
teams = { red = ["alice", "carol"], blue = ["bob", "dave"] }
[players.alice]
[players.bob]
life = 2
[players.carol]
[players.dave]
life = 2
[[permanents]]
id = "victim"
controller = "alice"
power = 1
toughness = 1
[[permanents]]
id = "cwatch"
controller = "carol"
power = 1
toughness = 1
[[permanents]]
id = "bwatch"
controller = "bob"
power = 1
toughness = 1
[[triggers]]
when = "dies"
source = "cwatch"
match = { object = "victim" }
text = "bob loses 2 life"
actions = [ { do = "lose_life", player = "bob", amount = 2 } ]
[[triggers]]
when = "dies"
source = "bwatch"
match = { object = "victim" }
text = "bob gains 5 life"
actions = [ { do = "gain_life", player = "bob", amount = 5 } ]
[combat]
attacks = {}
[[combat.actions]]
after = "declare_attackers"
do = "destroy"
target = "victim"
"""


def test_101_4_603_3b_the_active_team_puts_its_triggers_on_the_stack_first() -> None:
    """101.4, 603.3b with shared team turns (810.2: the active team's players
    are the active ones): the players of the active team put their triggered
    abilities on the stack first, then the nonactive team's, whatever the
    seats' order. Carol (active team) and bob (nonactive) both have an ability
    that triggers as the victim dies: bob's goes on the stack last and
    resolves first, so the blue team gains 5, then bob loses 2: it ends at 5,
    not at 0 (which carol's resolving first would make: a loss, 810.8c)."""
    out = outcome_json(resolve(loads(APNAP_TEAMS)))
    assert out["ok"] is True
    resolved = [e["source"] for e in out["events"] if e["kind"] == "resolve"]
    assert resolved == ["bwatch", "cwatch"]
    assert out["players"]["bob"]["life"] == 5 and not out["players"]["bob"]["lost"]
