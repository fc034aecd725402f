"""Scenario files can say more: an effect on each player at once (104.4a),
inline spells of the same name (109.1), a card from a hand entering attacking
(508.4), and delayed triggers written in the file (603.7)."""

from __future__ import annotations

import functools
from typing import Any

import pytest
import redzone
from redzone import EACH_PLAYER, Engine, GainLife, LoseLife, Player, new_game
from redzone.formats import scenario as sc
from redzone.formats.outcome import outcome_json, resolve
from redzone.kernel.errors import IllegalActionError

engine_for = functools.cache(Engine)


def run(text: str) -> dict[str, Any]:
    return outcome_json(resolve(sc.loads(text, engine_factory=engine_for)))


def problems(text: str) -> list[redzone.ScenarioError]:
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.loads(text, file="more.toml", engine_factory=engine_for)
    return list(info.value.problems)


def board(alice: int = 20, bob: int = 20, *, actions: str = "") -> str:
    return f"""\
active_player = "alice"
[players.alice]
life = {alice}
[players.bob]
life = {bob}

[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2

[combat]
attacks = {{ bear = "bob" }}
{actions}"""


def each(do: str, amount: int, key: str = "player", after: str = "declare_attackers") -> str:
    extra = 'source = "bear"\n' if do == "deal_damage" else ""
    return f"""
[[combat.actions]]
after = "{after}"
do = "{do}"
{extra}{key} = "each"
amount = {amount}
"""


# -- each player at once (104.4a) ---------------------------------------------------


@pytest.mark.parametrize(("do", "key"), [("lose_life", "player"), ("deal_damage", "target")])
def test_104_4a_both_players_reaching_zero_at_once_is_a_draw(do: str, key: str) -> None:
    """104.4a: two players at 1 life who both lose 1 at once (one action,
    one check of state-based actions, 704.3) both lose: a draw, and the game
    ends in that step (104.2a: no combat damage follows)."""
    out = run(board(1, 1, actions=each(do, 1, key)))
    over = out["game_over"]
    assert over["draw"] is True and over["rule"] == "104.4a"
    assert sorted(over["losers"]) == ["alice", "bob"] and over["winners"] == []
    assert over["step"] == "declare_attackers"
    assert out["steps"][-1] == "declare_attackers"
    assert out["players"]["alice"]["life"] == out["players"]["bob"]["life"] == 0


def test_104_4a_one_at_a_time_is_no_draw() -> None:
    """The contrast: two separate actions are two checks of state-based
    actions (704.3), so alice loses first and the game is over before bob
    loses life (104.2a): bob wins."""
    actions = "".join(f"""
[[combat.actions]]
after = "declare_attackers"
do = "lose_life"
player = "{p}"
amount = 1
""" for p in ("alice", "bob"))
    over = run(board(1, 1, actions=actions))["game_over"]
    assert over["draw"] is False and over["winners"] == ["bob"] and over["losers"] == ["alice"]


def test_119_3_each_player_gains_life() -> None:
    """119.3: ``gain_life`` with ``player = "each"`` gives each player the
    amount, in APNAP order (101.4), one event each."""
    out = run(board(5, 7, actions=each("gain_life", 3)))
    assert out["players"]["alice"]["life"] == 8
    assert out["players"]["bob"]["life"] == 10 - 2  # and the bear's 2 combat damage
    gains = [e["player"] for e in out["events"] if e["kind"] == "life_gain"]
    assert gains == ["alice", "bob"]


def test_120_3_each_player_is_dealt_damage_in_one_batch() -> None:
    """120.3: ``deal_damage`` to ``"each"`` deals each player damage
    simultaneously: one damage event per player, from the same source."""
    out = run(board(actions=each("deal_damage", 3, "target")))
    dealt = [(e["source"], e["target"], e["amount"]) for e in out["events"]
             if e["kind"] == "damage" and not e["combat"]]
    assert dealt == [("bear", "alice", 3), ("bear", "bob", 3)]


def test_each_player_leaves_out_players_who_left_the_game() -> None:
    """800.4a: a player who left the game is no longer a player to affect.
    Through the API: three players, carol has lost; each player loses 1."""
    engine = engine_for()
    state = new_game([Player("alice", 20), Player("bob", 20), Player("carol", 1)])
    state = engine.perform(state, LoseLife("carol", 1)).state  # carol loses (704.5a, 800.4a)
    assert state.players["carol"].lost
    after = engine.perform(state, LoseLife(EACH_PLAYER, 2)).state
    assert (after.players["alice"].life, after.players["bob"].life) == (18, 18)
    assert after.players["carol"].life == state.players["carol"].life


def test_a_player_called_each_is_that_player() -> None:
    """A state whose player's id is ``"each"`` keeps meaning that player."""
    engine = engine_for()
    state = new_game(["each", "bob"])
    after = engine.perform(state, GainLife("each", 1)).state
    assert (after.players["each"].life, after.players["bob"].life) == (21, 20)


def test_each_is_refused_where_it_means_nothing() -> None:
    """``"each"`` is a player word for the three life and damage actions
    only: a ``tap`` target ``"each"`` is an unknown id, named with its key."""
    errs = problems(board(actions="""
[[combat.actions]]
after = "declare_attackers"
do = "tap"
target = "each"
"""))
    assert [e.key for e in errs] == ["combat.actions[0].target"]
    assert "'each'" in str(errs[0]) and errs[0].line == 19


def test_each_player_damage_with_nothing_left_is_an_illegal_action() -> None:
    """104.2a: with no player left in the game there is nobody to affect."""
    engine = engine_for()
    state = new_game([Player("alice", 1), Player("bob", 1), Player("carol", 1)])
    state = engine.perform(state, LoseLife(EACH_PLAYER, 1)).state  # all three lose: a draw
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, GainLife(EACH_PLAYER, 1))
    assert info.value.rule == "104.2a"


# -- inline spells of the same name (109.1) -----------------------------------------


SHOCK = """
[[combat.actions]]
after = "declare_attackers"
do = "deal_damage"
source = {{ name = "Shock", controller = "{controller}", colors = ["red"]{extra} }}
target = "{target}"
amount = 2
"""


def test_two_inline_spells_of_one_name_get_their_own_ids() -> None:
    """109.1: two Shocks are two objects. The first without an ``id`` is
    named by its name, the next ``Shock.2``; before, the second (another
    controller) was refused as "another spell" with the first's id."""
    actions = SHOCK.format(controller="bob", target="alice", extra="") \
        + SHOCK.format(controller="alice", target="bob", extra="") \
        + SHOCK.format(controller="alice", target="bob", extra="")
    out = run(board(actions=actions))
    sources = [e["source"] for e in out["events"] if e["kind"] == "damage" and not e["combat"]]
    assert sources == ["Shock", "Shock.2", "Shock.3"]
    assert out["players"]["alice"]["life"] == 18 and out["players"]["bob"]["life"] == 14


def test_an_inline_spells_own_id_is_kept_and_not_counted() -> None:
    """An ``id`` given is the spell's id; the default ids count only the
    spells without one."""
    actions = SHOCK.format(controller="bob", target="alice", extra=', id = "mine"') \
        + SHOCK.format(controller="bob", target="alice", extra="") \
        + SHOCK.format(controller="alice", target="bob", extra="")
    out = run(board(actions=actions))
    sources = [e["source"] for e in out["events"] if e["kind"] == "damage" and not e["combat"]]
    assert sources == ["mine", "Shock", "Shock.2"]


# -- a card from a hand enters attacking (508.4) --------------------------------------


def test_508_4_a_card_from_a_hand_enters_tapped_and_attacking() -> None:
    """508.4: ``move`` with ``attacking`` puts a nontoken card from a hand
    onto the battlefield attacking, a new object (400.7: ``object`` 2),
    tapped, never declared (no ``attack`` event for it); unblocked, it deals
    its combat damage to the player it attacks."""
    text = board(actions="""
[[permanents]]
id = "ninja"
controller = "alice"
power = 3
toughness = 2
zone = "hand"

[[combat.actions]]
after = "declare_blockers"
do = "move"
target = "ninja"
to = "battlefield"
tapped = true
attacking = "bob"
""")
    out = run(text)
    ninja = out["permanents"]["ninja"]
    assert (ninja["zone"], ninja["object"], ninja["tapped"]) == ("battlefield", 2, True)
    assert "ninja" not in out["zones"]["alice"]["hand"]
    assert [e["attacker"] for e in out["events"] if e["kind"] == "attack"] == ["bear"]
    assert out["players"]["bob"]["life"] == 20 - 2 - 3


# -- delayed triggers written in the file (603.7) -------------------------------------


BALL = """\
active_player = "alice"
through = "cleanup"
[players.alice]
[players.bob]

[[permanents]]
id = "elemental"
name = "Ball Lightning"
controller = "alice"
power = 6
toughness = 1
keywords = ["trample", "haste"]

[combat]
attacks = {{ elemental = "bob" }}

[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
when = "{when}"
source = "elemental"
text = "sacrifice it"
actions = [ {action} ]
"""


def test_603_7_a_delayed_trigger_from_the_file_fires_at_its_moment() -> None:
    """603.7a-b: "at the beginning of the next end step, sacrifice it",
    created after attackers are declared, waits (the creature deals its
    combat damage) and triggers once in the end step: it goes on the stack
    (603.3b), its controller the source's (603.7d-e), and resolves."""
    out = run(BALL.format(when="end_step", action='{ do = "sacrifice", target = "elemental" }'))
    assert out["players"]["bob"]["life"] == 14
    assert out["permanents"]["elemental"]["zone"] == "graveyard"
    kinds = [(e["step"], e["kind"]) for e in out["events"]
             if e["kind"] in ("delayed_trigger", "trigger", "resolve", "sacrificed")]
    assert kinds == [("declare_attackers", "delayed_trigger"), ("end_step", "trigger"),
                     ("end_step", "resolve"), ("end_step", "sacrificed")]
    trigger = next(e for e in out["events"] if e["kind"] == "trigger")
    assert (trigger["player"], trigger["source"], trigger["rule"]) == \
        ("alice", "elemental", "603.3b")


def test_603_7_an_end_of_combat_trigger_fires_before_the_end_step() -> None:
    """603.7a: "at end of combat" fires in the end of combat step (511.1),
    not later: the life loss happens there."""
    out = run(BALL.format(when="end_of_combat",
                          action='{ do = "lose_life", player = "alice", amount = 2 }'))
    loss = [e["step"] for e in out["events"]
            if e["kind"] == "life_loss" and e["player"] == "alice"]
    assert loss == ["end_of_combat"] and out["players"]["alice"]["life"] == 18


@pytest.mark.parametrize(("action", "key", "words"), [
    ('{ do = "sacrifice", traget = "elemental" }', "combat.actions[0].actions[0].traget",
     "traget"),
    ('{ do = "sacrifice", target = "elephant" }', "combat.actions[0].actions[0].target",
     "elephant"),
    ('{ after = "end_step", do = "sacrifice", target = "elemental" }',
     "combat.actions[0].actions[0].after", "no 'after'"),
])
def test_a_delayed_triggers_actions_are_checked_as_combat_actions(action: str, key: str,
                                                                  words: str) -> None:
    """Bad input: a delayed trigger's action with an unknown key, an id that
    names nothing or an ``after`` is a problem naming the file, the key and
    the line, like any action's."""
    with pytest.raises(sc.ScenarioProblems) as info:
        sc.loads(BALL.format(when="end_step", action=action), file="more.toml",
                 engine_factory=engine_for)
    errs = list(info.value.problems)
    assert key in [e.key for e in errs]
    err = next(e for e in errs if e.key == key)
    assert words in str(err) and err.line == 23 and err.file == "more.toml"


def test_603_7c_a_leaves_trigger_needs_its_object() -> None:
    """603.7c: "when that creature leaves the battlefield" names the
    creature: ``when = "leaves"`` without ``object`` is a problem."""
    errs = problems(BALL.format(when="leaves", action='{ do = "draw", player = "alice" }'))
    assert [e.key for e in errs] == ["combat.actions[0]"] and "object" in str(errs[0])
