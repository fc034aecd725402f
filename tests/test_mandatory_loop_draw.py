"""A loop of mandatory actions makes the game a draw (104.4b).

104.4b (Comprehensive Rules of 2026, the same words and number in the
rules of 2009-2024): "If a game that's not using the limited range of
influence option (including a two-player game) somehow enters a "loop" of
mandatory actions, repeating a sequence of events with no way to stop, the
game is a draw. Loops that contain an optional action don't result in a
draw." The rules of February 2009 say it as 102.4b ("If the game somehow
enters a "loop," repeating a sequence of events with no way to stop, the
game is a draw. Loops that contain an optional action don't result in a
draw.") and 421.4 ("If the loop contains only mandatory actions, the game
ends in a draw"); the engine's events carry today's numbers under every
edition, as all its events do.

A command that resolves the triggered abilities it puts on the stack
(``auto_triggers``) notes each position once it has resolved more than
:data:`~redzone.kernel.loops.LOOP_AFTER` of them; a position that comes
back with no choice made in between is a loop of mandatory actions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from redzone import (
    Action,
    AddContinuous,
    AddCounters,
    BoundError,
    Choice,
    CreateToken,
    Engine,
    Event,
    GainLife,
    GameOver,
    GameState,
    IllegalActionError,
    Outcome,
    Permanent,
    Tap,
    Trigger,
    hookimpl,
    token_ids,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.loops import LOOP_AFTER

#: -3/-3 for alice's creatures: the 2/2 finks dies each time it returns,
#: whether with its +1/+1 counter (undying) or its -1/-1 counter (persist).
SHRINK = AddContinuous(affects_types=("creature",), affects_controller="alice",
                       power=-3, toughness=-3)

#: The same board as a scenario file: bob attacks, and after attackers are
#: declared the -3/-3 effect starts (``do = "continuous"``).
SCENARIO = """\
active_player = "bob"
[players.alice]
[players.bob]
[[permanents]]
id = "finks"
controller = "alice"
power = 2
toughness = 2
keywords = ["persist", "undying"]
[[permanents]]
id = "ogre"
controller = "bob"
power = 3
toughness = 3
[combat]
attacks = { ogre = "alice" }
[[combat.actions]]
after = "declare_attackers"
do = "continuous"
affects_controller = "alice"
affects_types = ["creature"]
power = -3
toughness = -3
"""


def _board(engine: Engine) -> GameState:
    """alice: a 2/2 "finks" with persist and undying; bob: a 3/3 ogre."""
    return engine.game(["alice", "bob"], [
        engine.creature("finks", "alice", 2, 2, "persist", "undying"),
        engine.creature("ogre", "bob", 3, 3)])


def _loop(rules: str = "foundations") -> tuple[Engine, Outcome]:
    """The -3/-3 effect starts: finks dies, returns with a counter, dies
    again, and so on (702.79a, 702.93a)."""
    engine = Engine(rules)
    return engine, engine.perform(_board(engine), SHRINK)


def _game_over_events(out: Outcome) -> list[Event]:
    return [e for e in out.events if e.kind == "game_over"]


@pytest.mark.parametrize("rules", ["foundations", "m10", "sixth"])
def test_104_4b_persist_and_undying_returning_into_minus_three_is_a_draw(rules: str) -> None:
    """104.4b (2026 and 2009-2024; 102.4b and 421.4 of February 2009): finks
    has persist and undying and alice's creatures get -3/-3. It dies, returns
    with a +1/+1 counter (undying), dies, returns with a -1/-1 counter
    (persist), dies...: each return makes the other ability trigger on the
    next death, and no player has a choice to make. The game is a draw: no
    winner, no loser, the ``game_over`` event cites 104.4b, and the command
    returns its outcome (no BoundError) soon after the threshold, leaving
    the abilities that wait on the stack where they are."""
    _engine, out = _loop(rules)
    assert out.state.game_over == GameOver(winners=(), losers=(), draw=True, step="main",
                                           rule="104.4b")
    (over,) = _game_over_events(out)
    assert (over.rule, over.get("draw"), over.get("winners")) == ("104.4b", True, ())
    assert out.events[-1] is over
    resolved = sum(e.kind == "resolve" for e in out.events)
    assert LOOP_AFTER < resolved <= LOOP_AFTER + 8
    # what waits on the stack stays: the first death's second ability (it
    # finds a new object, 400.7) and the ability about to resolve again
    assert [t.kind for t in out.state.stack][-1] in ("persist", "undying")
    assert len(out.state.stack) == 2
    assert out.state.objects["finks"].zone == "graveyard"


def test_104_4b_the_game_being_over_later_commands_are_refused() -> None:
    """104.1, 104.4b: a game that is a draw has ended; the next command is
    refused as after any end of the game (104.2a), naming the draw and its
    rule, and the state given is unchanged."""
    engine, out = _loop()
    with pytest.raises(IllegalActionError) as info:
        engine.perform(out.state, GainLife("alice", 1))
    assert info.value.rule == "104.2a"
    assert "a draw" in str(info.value) and "104.4b" in str(info.value)
    with pytest.raises(IllegalActionError):
        engine.resolve_trigger(out.state)


def test_104_4b_the_drawn_game_round_trips_through_its_serialised_form() -> None:
    """104.4b, and the state's serialised form: the drawn game's state,
    written as JSON and read back, is the same state, with its
    ``game_over`` (draw, rule 104.4b) and the abilities left on the stack."""
    _engine, out = _loop()
    data = json.loads(json.dumps(state_to_dict(out.state)))
    assert data["game_over"] == {"winners": [], "losers": [], "draw": True, "step": "main",
                                 "rule": "104.4b"}
    back = state_from_dict(data)
    assert back == out.state
    assert back.game_over == out.state.game_over and back.stack == out.state.stack


def test_104_4b_a_scenario_file_with_the_loop_is_a_draw_in_its_json_outcome(
        tmp_path: Path) -> None:
    """104.4b through ``python -m redzone run FILE --json``: the same board
    as a scenario file (bob attacks; after attackers are declared a
    ``continuous`` action gives alice's creatures -3/-3) ends the game in a
    draw in the declare attackers step; the outcome is ``ok`` (exit 0), its
    ``game_over`` and last event cite 104.4b."""
    path = tmp_path / "loop.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "redzone", "run", str(path), "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] is True
    over = out["game_over"]
    assert (over["draw"], over["rule"], over["winners"], over["step"]) == (
        True, "104.4b", [], "declare_attackers")
    last = out["events"][-1]
    assert (last["kind"], last["rule"], last["draw"]) == ("game_over", "104.4b", True)



@pytest.mark.parametrize(("rules", "cited"), [("foundations", "104.4b"), ("sixth", "102.4b")])
def test_104_4b_the_account_says_the_game_is_a_draw_with_the_editions_rule(
        tmp_path: Path, rules: str, cited: str) -> None:
    """104.4b, and 102.4b of the February 2009 rules ("If the game somehow
    enters a 'loop,' repeating a sequence of events with no way to stop, the
    game is a draw"): the text account of the scenario ends with the draw,
    citing the number of the edition the scenario is played under."""
    from click.testing import CliRunner
    from redzone.frontends.cli import cli

    path = tmp_path / "loop.toml"
    path.write_text(f'rules = "{rules}"\n' + SCENARIO, encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", str(path), "--no-color"],
                                env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output
    over = [line for line in result.output.splitlines() if "the game is over" in line]
    assert len(over) == 1 and over[0].endswith(f"[{cited}]"), over
    assert "draw" in over[0]

class _Echo:
    """A test plugin: "whenever this ability resolves, it triggers again"
    (603.2), set off by tapping the ogre.

    :param ask: it asks, as it resolves, whether to go on (608.2d: a "you
        may"), by default yes: an optional action.
    :param grow: it puts a +1/+1 counter on the ogre each time.
    :param until: it stops triggering once the ogre has this many counters.
    :param count: its number (``amount``) is how many abilities have
        triggered so far: one more each time.
    :param token: it creates a 0/0 token each time (which dies, 704.5f,
        and ceases to exist, 704.5d).
    """

    __name__ = "echo"

    def __init__(self, *, ask: bool = False, grow: bool = False, until: int | None = None,
                 count: bool = False, token: bool = False) -> None:
        self.ask, self.grow, self.until, self.count, self.token = ask, grow, until, count, token

    @hookimpl
    def redzone_triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        started = any(e.kind == "tap" and e.object == "ogre" for e in events)
        again = any(e.kind == "resolve" and e.get("ability") == "echo" for e in events)
        if again and self.ask:
            again = any(e.kind == "choice" and e.get("choice") == "echo@ogre:again"
                        and e.get("answer") == ("yes",) for e in events)
        counters = state.objects["ogre"].counters.get("+1/+1", 0)
        if not (started or again) or (self.until is not None and counters >= self.until):
            return []
        offers = (Choice("again", "alice", "yes_no", ("yes", "no"), default=("yes",),
                         rule="603.2", text="whether it goes on"),) if self.ask else ()
        actions: tuple[Action, ...] = (AddCounters("ogre", {"+1/+1": 1}),) if self.grow else ()
        if self.token:
            (made,) = token_ids(state, "ogre", "echo")
            actions = (CreateToken(Permanent(made, "alice", base_power=0, base_toughness=0,
                                             token=True)),)
        return [Trigger("echo", "ogre", "alice", "603.2", text="it triggers again",
                        actions=actions, offers=offers,
                        amount=state.triggered if self.count else None)]


def _echo_board(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3)])


def test_104_4b_an_ability_triggering_on_its_own_resolution_is_a_mandatory_loop() -> None:
    """104.4b: an ability that does nothing but trigger again as it resolves
    repeats the same position with no way to stop: the game is a draw (what
    changes, the ability's id on the stack, doesn't change the game)."""
    engine = Engine(plugins=[_Echo()])
    out = engine.perform(_echo_board(engine), Tap("ogre"))
    assert out.state.game_over is not None
    assert (out.state.game_over.draw, out.state.game_over.rule) == (True, "104.4b")
    assert [t.kind for t in out.state.stack] == ["echo"]


def test_104_4b_a_token_made_and_gone_each_time_is_a_mandatory_loop() -> None:
    """104.4b, 111.1, 704.5d: the ability creates a 0/0 token each time it
    resolves; the token dies (704.5f) and ceases to exist (704.5d). Each
    token's id (``ogre.echo.<n>``) is a new one, but only its number, a
    count, differs: the game comes back to the same position, and it is a
    draw."""
    engine = Engine(plugins=[_Echo(token=True)])
    out = engine.perform(_echo_board(engine), Tap("ogre"))
    assert out.state.game_over is not None
    assert (out.state.game_over.draw, out.state.game_over.rule) == (True, "104.4b")
    made = [e for e in out.events if e.kind == "enters_battlefield"]
    assert LOOP_AFTER < len(made) <= LOOP_AFTER + 8
    assert len({e.object for e in made}) == len(made)  # (a new id each time)


def test_104_4b_a_loop_with_an_optional_action_is_not_a_draw() -> None:
    """104.4b: "Loops that contain an optional action don't result in a
    draw." The ability asks each time whether it goes on (a "you may",
    answered yes by default): the same position comes back, but a choice was
    made in between, so the game isn't a draw; the trigger bound stops the
    command (guarantee 15), naming the plugin, and the state given is
    unchanged. Answered no, the loop stops after one resolution."""
    engine = Engine(plugins=[_Echo(ask=True)])
    state = _echo_board(engine)
    with pytest.raises(BoundError) as info:
        engine.perform(state, Tap("ogre"))
    assert (info.value.plugin, info.value.bound) == ("echo", "triggers")
    assert state.game_over is None and not state.objects["ogre"].tapped
    out = engine.perform(state, Tap("ogre"), choices={"echo@ogre:again": "no"})
    assert out.state.game_over is None and not out.state.stack
    assert sum(e.kind == "resolve" for e in out.events) == 1


@pytest.mark.parametrize("echo", [_Echo(grow=True), _Echo(count=True)],
                         ids=["a counter more each time", "a number one more each time"])
def test_104_4b_a_runaway_that_never_repeats_a_position_still_hits_the_bound(
        echo: _Echo) -> None:
    """104.4b needs a *repeated* sequence: an ability that triggers again as
    it resolves and puts a +1/+1 counter on the ogre each time, or whose
    number is one more each time, never comes back to a position. It is no
    draw: the trigger bound stops the command with a BoundError naming the
    plugin (guarantee 15), and the state given is unchanged."""
    engine = Engine(plugins=[echo])
    state = _echo_board(engine)
    with pytest.raises(BoundError) as info:
        engine.perform(state, Tap("ogre"))
    assert (info.value.plugin, info.value.bound) == ("echo", "triggers")
    assert state.objects["ogre"].counters.get("+1/+1", 0) == 0


def test_104_4b_a_long_chain_of_mandatory_triggers_that_ends_is_not_a_draw() -> None:
    """104.4b: 100 mandatory triggers in a row (past the threshold at which
    positions are noted), each putting a +1/+1 counter on the ogre, the last
    one triggering nothing: no position repeats, the chain ends by itself,
    and the game goes on."""
    engine = Engine(plugins=[_Echo(grow=True, until=100)])
    out = engine.perform(_echo_board(engine), Tap("ogre"))
    assert LOOP_AFTER < 100
    assert out.state.game_over is None and not out.state.stack
    assert sum(e.kind == "resolve" for e in out.events) == 100
    assert out.state.objects["ogre"].counters["+1/+1"] == 100
    assert not _game_over_events(out)


class _Volley:
    """A test plugin: "whenever the ogre becomes tapped", 100 abilities
    trigger at once (603.2), each resolving to a +1/+1 counter on it, none
    triggering anything."""

    __name__ = "volley"

    @hookimpl
    def redzone_triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        if not any(e.kind == "tap" and e.object == "ogre" for e in events):
            return []
        return [Trigger("volley", "ogre", "alice", "603.2", text="a +1/+1 counter",
                        actions=(AddCounters("ogre", {"+1/+1": 1}),)) for _ in range(100)]


def test_104_4b_a_stack_that_only_empties_notes_no_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """104.4b: a position can come back only with the stack as high as it
    was, so 100 abilities resolving one after another from one stack (past
    the threshold at which positions are noted) never make one worth
    comparing: none is keyed or digested, however big the board, and the
    game goes on."""
    from redzone.kernel import loops

    keyed: list[GameState] = []
    real_key = loops.key

    def counted(state: GameState) -> tuple[object, ...]:
        keyed.append(state)
        return real_key(state)

    monkeypatch.setattr(loops, "key", counted)
    engine = Engine(plugins=[_Volley()])
    out = engine.perform(_echo_board(engine), Tap("ogre"))
    assert LOOP_AFTER < 100
    assert sum(e.kind == "resolve" for e in out.events) == 100
    assert out.state.objects["ogre"].counters["+1/+1"] == 100
    assert out.state.game_over is None and keyed == []
    engine = Engine(plugins=[_Echo()])  # (a loop still keys its positions, and is found)
    out = engine.perform(_echo_board(engine), Tap("ogre"))
    assert out.state.game_over is not None and out.state.game_over.draw and keyed
