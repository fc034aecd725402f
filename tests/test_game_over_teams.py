"""Who wins, and by which rule, when a team game ends (104.2a, 104.2c,
104.4a, 104.4d)."""

from __future__ import annotations

from redzone import EACH_PLAYER, Engine, LoseLife, Player

engine = Engine()
TEAMS = {"red": ("alice", "carol"), "blue": ("bob", "dave")}


def test_104_4d_every_remaining_team_losing_at_once_is_a_draw_by_104_4d() -> None:
    """104.4d: "In a multiplayer game between teams, the game is a draw if
    all remaining teams lose simultaneously" (104.4a says it of players)."""
    state = engine.game([Player(p, life=1) for p in ("alice", "bob", "carol", "dave")], [],
                        teams=TEAMS, turn_order=["alice", "bob", "carol", "dave"])
    out = engine.perform(state, LoseLife(EACH_PLAYER, 1))
    over = out.state.game_over
    assert over is not None and over.draw and over.winners == ()
    assert over.rule == "104.4d"
    assert [e.rule for e in out.events if e.kind == "game_over"] == ["104.4d"]


def test_104_2c_the_last_team_standing_wins_by_104_2c() -> None:
    """104.2c: a team with at least one player still in the game wins if
    all other teams have left the game (810.8a: a player losing takes the
    team with them in Two-Headed Giant)."""
    state = engine.game(["alice", "bob", "carol", "dave"], [], teams=TEAMS,
                        turn_order=["alice", "bob", "carol", "dave"])
    out = engine.perform(state, LoseLife("bob", 30))
    over = out.state.game_over
    assert over is not None and set(over.winners) == {"alice", "carol"}
    assert over.rule == "104.2c"


def test_104_2a_a_winner_on_no_team_wins_by_104_2a() -> None:
    """104.2c speaks of a team; a player on no team who is the last one
    left wins as any player does, by 104.2a ("a player still in the game
    wins the game if that player's opponents have all left the game")."""
    state = engine.game(["alice", "carol", "bob", "dave"], [],
                        teams={"red": ("alice", "carol")},
                        turn_order=["alice", "bob", "carol", "dave"])
    state = engine.perform(state, LoseLife("alice", 30)).state
    out = engine.perform(state, LoseLife("bob", 20))
    over = out.state.game_over
    assert over is not None and over.winners == ("dave",)
    assert over.rule == "104.2a"
    assert [e.rule for e in out.events if e.kind == "game_over"] == ["104.2a"]
