"""Triggered abilities written as data (603.1): "whenever <event>, <actions>",
in a scenario file's ``[[triggers]]`` or added with ``AddTrigger``. They
trigger on each matching event (603.2) while their source is on the
battlefield (113.6), or on its own leaving as it last was (603.10a)."""

from __future__ import annotations

import pytest
from redzone import Destroy, Engine, Exile, GainLife, GameState, IllegalActionError, creature
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.actions import AddTrigger


def board(engine: Engine, **match: str) -> GameState:
    """bob's warden: "whenever <match> dies, bob gains 2 life"."""
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2),
                                           creature("elf", "alice", 1, 1),
                                           creature("warden", "bob", 1, 1)])
    return engine.perform(state, AddTrigger("dies", "warden", (GainLife("bob", 2),),
                                            match=match, text="bob gains 2 life")).state


def test_603_2_it_triggers_on_each_matching_event(engine: Engine) -> None:
    """603.2, 608.2: the bear dies: the ability triggers, resolves and bob
    gains 2; the elf dying doesn't match ``object = "bear"``."""
    state = board(engine, object="bear")
    out = engine.perform(state, Destroy("bear"))
    assert out.state.players["bob"].life == 22
    assert [e.source for e in out.events if e.kind == "trigger"] == ["warden"]
    assert engine.perform(state, Destroy("elf")).state.players["bob"].life == 20


def test_603_2_without_match_every_event_of_its_kind(engine: Engine) -> None:
    """603.2: no ``match``: two creatures dying at once trigger it twice."""
    out = engine.perform(board(engine), [Destroy("bear"), Destroy("elf")])
    assert out.state.players["bob"].life == 24


def test_113_6_it_does_not_trigger_once_its_source_is_gone(engine: Engine) -> None:
    """113.6: the warden exiled, its ability no longer triggers."""
    state = engine.perform(board(engine), Exile("warden")).state
    assert engine.perform(state, Destroy("bear")).state.players["bob"].life == 20


def test_603_10a_its_own_leaving_looks_back(engine: Engine) -> None:
    """603.10a: "when this dies": matched by ``object = "self"``, it triggers
    as its source dies."""
    state = board(engine, object="self")
    assert engine.perform(state, Destroy("warden")).state.players["bob"].life == 22
    assert engine.perform(state, Destroy("bear")).state.players["bob"].life == 20


def test_603_10_it_looks_back_to_just_before_each_event(engine: Engine) -> None:
    """603.10, 603.10a: "using the existence of those abilities ... immediately
    prior to the event": the warden dies first, then the bear, in one
    command: the warden triggers on its own death, and not on the bear's,
    which happened once it was gone; the other order triggers twice."""
    state = board(engine)
    warden_first = engine.perform(state, [Destroy("warden"), Destroy("bear")])
    assert warden_first.state.players["bob"].life == 22
    bear_first = engine.perform(state, [Destroy("bear"), Destroy("warden")])
    assert bear_first.state.players["bob"].life == 24


def test_603_1_a_when_that_names_no_event_is_refused(engine: Engine) -> None:
    """603.1: an ability triggers on an event: an unknown kind is refused with
    the rule, and nothing changes."""
    state = engine.game(["alice", "bob"], [creature("warden", "bob", 1, 1)])
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, AddTrigger("diez", "warden", (GainLife("bob", 2),)))
    assert info.value.rule == "603.1" and "dies" in str(info.value)


def test_the_state_round_trips_with_its_written_triggers(engine: Engine) -> None:
    """A saved state keeps its written triggers, which still trigger."""
    again = state_from_dict(state_to_dict(board(engine, object="bear")))
    assert again.written == board(engine, object="bear").written
    assert engine.perform(again, Destroy("bear")).state.players["bob"].life == 22


FILE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "warden"
controller = "bob"
power = 1
toughness = 1
[[triggers]]
when = "WHEN"
source = "warden"
match = { object = "bear" }
actions = [ { do = "gain_life", player = "bob", amount = 2 } ]
[combat]
attacks = { bear = "bob" }
blocks = { warden = "bear" }
"""


def test_603_2_from_a_file() -> None:
    """603.2 through ``[[triggers]]``: the bear kills the blocking warden and
    survives, so "whenever the bear dies" doesn't trigger; "whenever the bear
    is dealt damage" does, though the warden dies with the same damage (it
    was on the battlefield as the damage was dealt, 603.10a)."""
    out = outcome_json(resolve(loads(FILE.replace("WHEN", "dies"))))
    assert out["ok"] is True and out["players"]["bob"]["life"] == 20
    on_damage = FILE.replace("WHEN", "damage").replace('match = { object = "bear" }',
                                                       'match = { target = "bear" }')
    out = outcome_json(resolve(loads(on_damage)))
    assert out["ok"] is True and out["players"]["bob"]["life"] == 22


def test_603_1_a_bad_trigger_in_a_file_names_its_key() -> None:
    """603.1: an unknown ``when`` and an action with a problem are each
    reported at their key, with the closest kinds."""
    with pytest.raises(ScenarioProblems) as info:
        loads(FILE.replace("WHEN", "diez").replace("amount = 2", "amount = 2, colour = 1"))
    text = "\n".join(str(p) for p in info.value.problems)
    assert "triggers[0].when" in text and "'dies'" in text
    assert "triggers[0].actions[0]" in text


def test_104_4a_a_waiting_each_player_action_round_trips(engine: Engine) -> None:
    """104.4a: a delayed trigger's and a written trigger's action on each
    player ("each") is kept in a saved state and still means every player."""
    from redzone import EACH_PLAYER, CreateDelayedTrigger, DealDamage, LoseLife

    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2)])
    state = engine.perform(state, [
        CreateDelayedTrigger("end_step", (LoseLife(EACH_PLAYER, 1),), source="bear",
                             controller="alice"),
        AddTrigger("dies", "bear", (DealDamage("bear", EACH_PLAYER, 1),))]).state
    again = state_from_dict(state_to_dict(state))
    assert again == state
    out = engine.perform(again, Destroy("bear"))
    assert [out.state.players[p].life for p in ("alice", "bob")] == [19, 19]


HERO = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "hero"
name = "Hero of Bladehold"
controller = "alice"
power = 3
toughness = 4
keywords = ["battle cry"]
[combat]
attacks = { hero = "bob" }
[[triggers]]
when = "attack"
source = "hero"
match = { attacker = "self" }
text = "create two 1/1 Soldiers tapped and attacking"
[[triggers.actions]]
do = "create_token"
token = { id = "s1", name = "Soldier", controller = "alice", power = 1, toughness = 1 }
tapped = true
attacking = "bob"
[[triggers.actions]]
do = "create_token"
token = { id = "s2", name = "Soldier", controller = "alice", power = 1, toughness = 1 }
tapped = true
attacking = "bob"
"""


def test_702_91a_603_3b_a_written_trigger_creates_tokens_before_battle_cry_resolves() -> None:
    """702.91a, 603.3b, 508.4 (judge class seed, Hero of Bladehold): the
    token trigger written in the file goes on the stack above battle cry, so
    the Soldiers enter tapped and attacking first and battle cry gives each
    +1/+0: bob takes 3 + 2 + 2. A ``create_token`` among a written trigger's
    actions was once left out of the file without a word."""
    out = outcome_json(resolve(loads(HERO)))
    assert out["ok"] is True
    assert out["players"]["bob"]["life"] == 13
    assert {p: (out["permanents"][p]["power"], out["permanents"][p]["tapped"])
            for p in ("s1", "s2")} == {"s1": (2, True), "s2": (2, True)}


def test_603_7_a_delayed_trigger_written_in_a_file_creates_its_token() -> None:
    """603.7a-b: a delayed trigger created by an action of the file, whose
    own action creates a token, creates it when it triggers; the token's id
    may be named by what follows."""
    text = HERO.split("[[triggers]]")[0] + """
[[combat.actions]]
after = "declare_attackers"
do = "create_delayed_trigger"
source = "hero"
when = "end_of_combat"
[[combat.actions.actions]]
do = "create_token"
token = { id = "s1", name = "Soldier", controller = "alice", power = 1, toughness = 1 }
"""
    out = outcome_json(resolve(loads(text)))
    assert out["ok"] is True
    assert out["permanents"]["s1"]["zone"] == "battlefield"
    assert [e["kind"] for e in out["events"]].count("delayed_trigger") == 1


def test_a_token_id_a_trigger_reuses_is_reported_at_its_key() -> None:
    """A permanent entering the battlefield needs a new id: a written
    trigger's token named like a permanent of the file is a problem at the
    token's key, not a trigger silently left out."""
    with pytest.raises(ScenarioProblems) as info:
        loads(HERO.replace('id = "s2"', 'id = "hero"'))
    text = "\n".join(str(p) for p in info.value.problems)
    assert "triggers[0].actions[1].token.id" in text and "already a permanent's id" in text


@pytest.mark.parametrize("source", ["bear", "zbear", "abear"])
def test_603_10a_a_source_dying_with_the_creature_looks_back(engine: Engine, source: str) -> None:
    """603.10a: "whenever the elf dies" on a creature that dies at the same
    time (state-based actions, 704.3, put them into the graveyard at once)
    looks back in time: its source was on the battlefield as the elf died, so
    it triggers, whatever the order the events list them in (its id sorting
    before or after the elf's)."""
    state = engine.game(["alice", "bob"], [
        creature(source, "alice", 2, 2), creature("elf", "alice", 2, 2),
        creature("y", "bob", 2, 2), creature("z", "bob", 2, 2)])
    state = engine.perform(state, AddTrigger("dies", source, (GainLife("alice", 3),),
                                             match={"object": "elf"},
                                             text="alice gains 3 life")).state
    out = engine.resolve(state, {source: "bob", "elf": "bob"}, {"y": source, "z": "elf"})
    assert {out.state.objects[o].zone for o in (source, "elf")} == {"graveyard"}
    assert out.state.players["alice"].life == 23


def test_603_10a_a_source_that_died_before_doesnt_look_back_at_a_later_death(
        engine: Engine) -> None:
    """603.10a looks back across one event only: the warden died by an earlier
    action of the same command, so it isn't on the battlefield as the bear dies
    afterwards, and doesn't trigger."""
    state = board(engine, object="bear")
    out = engine.perform(state, [Destroy("warden"), Destroy("bear")])
    assert out.state.players["bob"].life == 20


def _end_of_combat_losses(engine: Engine, want: str) -> list[list[int]]:
    """Two combats in one turn with a written "at end of combat" ability
    matching the step ``want``: bob's life lost to it in each end of combat
    step."""
    from redzone import LoseLife

    state = engine.game(["alice", "bob"], [creature("wurm", "alice", 6, 4, "vigilance")])
    state = engine.perform(state, AddTrigger("step", "wurm", (LoseLife("bob", 1),),
                                             match={"step": want}, text="bob loses 1")).state
    lost = []
    for _ in range(2):
        state = engine.declare_attackers(state, {"wurm": "bob"}).state
        state = engine.combat_damage(engine.declare_blockers(state, {}).state).state
        out = engine.end_of_combat(state)
        lost.append([e.amount for e in out.events if e.kind == "life_loss" and e.source == "wurm"
                     and e.rule != "510.2" and e.amount == 1])
        state = engine.finish(out.state).state
    return lost


@pytest.mark.parametrize("want, expected", [("end_of_combat", [[1], [1]]),
                                            ("end_of_combat#2", [[], [1]])])
def test_511_2_a_written_end_of_combat_ability_triggers_in_every_combat(
        engine: Engine, want: str, expected: list[list[int]]) -> None:
    """511.2, 500.8: an ability that triggers "at end of combat" triggers as
    each end of combat step begins, the additional combat's included: a
    ``match`` on a step's name matches it in every combat (and turn); with
    a label (``end_of_combat#2``) only that combat's."""
    assert _end_of_combat_losses(engine, want) == expected
