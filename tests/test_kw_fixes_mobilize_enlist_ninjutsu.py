"""Fixes to mobilize (702.181), enlist (702.154) and ninjutsu (702.49):

- mobilize's Warriors are created, attacking what is attackable as they enter
  (508.4), when the planeswalker the creature attacked left and came back
  before the trigger resolved (400.7);
- a creature put onto the battlefield attacking never "attacked" (508.4), so
  it has no enlist cost to pay (702.154a-b);
- ninjutsu may be activated in every step from the declare blockers step
  through the end of combat step: under the rules of 1999-2009 also while
  combat damage waits on the stack (310.1 of February 2009), and in a combat
  damage step a plugin declares (510.4).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from redzone import (
    CreateToken,
    DamageStep,
    Engine,
    GameState,
    IllegalActionError,
    Move,
    Permanent,
    hookimpl,
)
from redzone_keywords.enlist import Enlist

# -- mobilize (702.181a, 508.4, 400.7) --------------------------------------------------


def _walker_attacked(engine: Engine) -> GameState:
    """alice's 2/2 ``voice`` with mobilize 2 attacks bob's planeswalker
    ``jace``; the trigger waits on the stack."""
    state = engine.game(["alice", "bob"], [
        engine.creature("voice", "alice", 2, 2, "mobilize 2"),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 5})])
    return engine.declare_attackers(state, {"voice": "jace"}).state


def test_702_181a_508_4_the_warriors_enter_when_the_planeswalker_came_back() -> None:
    """702.181a: "create N 1/1 red Warrior creature tokens. Those tokens enter
    tapped and attacking"; 508.4: what they attack is chosen as they enter,
    so it isn't a target of the ability. jace is exiled and returned before
    the trigger resolves (a new object, 400.7): both Warriors are created,
    attacking jace (the default: what the creature was declared attacking,
    still attackable), nothing is skipped, and the delayed trigger sacrifices
    exactly the two tokens that exist."""
    engine = Engine(auto_triggers=False)
    state = _walker_attacked(engine)
    state = engine.perform(state, [Move("jace", "exile"),
                                   Move("jace", "battlefield", counters={"loyalty": 3})]).state
    assert state.objects["jace"].object == 3
    out = engine.resolve_trigger(state)
    tokens = ("voice.mobilize.1", "voice.mobilize.2")
    assert all(out.state.on_battlefield(t) is not None for t in tokens)
    assert out.state.combat is not None
    assert {t: out.state.combat.attacks[t] for t in tokens} == {t: "jace" for t in tokens}
    assert [e for e in out.events if e.kind == "skipped"] == []
    assert [(d.kind, d.text) for d in out.state.delayed] == [
        ("mobilize sacrifice", "sacrifice voice.mobilize.1, voice.mobilize.2")]


def test_508_4_a_planeswalker_no_defending_player_controls_isnt_attacked() -> None:
    """508.4: the tokens attack a defending player, a planeswalker a defending
    player controls or a battle one protects. jace came under alice's control
    before the trigger resolved: the Warrior attacks bob, the defending
    player, instead of entering not attacking (508.4a)."""
    engine = Engine(auto_triggers=False)
    state = _walker_attacked(engine)
    state = state.with_permanents({"jace": state.objects["jace"].evolve(controller="alice")})
    out = engine.resolve_trigger(state)
    assert out.state.combat is not None
    assert out.state.combat.attacks.get("voice.mobilize.1") == "bob"
    assert out.state.combat.attacks.get("voice.mobilize.2") == "bob"
    assert "not_attacking" not in [e.kind for e in out.events]


# -- enlist (702.154a-b, 508.4) ---------------------------------------------------------


def test_702_154a_508_4_a_token_put_onto_the_battlefield_attacking_cant_enlist(
        engine: Engine) -> None:
    """702.154a: "As this creature attacks, you may tap ..."; 702.154b: a cost
    to attack, paid as attackers are declared. The myriad copy of the knight
    is put onto the battlefield attacking (508.4): it never "attacked", so it
    has no enlist cost to pay: refused, citing 702.154a and 508.4, and
    nothing changes. The knight, declared, still may enlist the ox."""
    c = engine.creature
    state = engine.game(["alice", "bob", "carol"], [c("knight", "alice", 1, 1, "myriad",
                                                      "enlist"), c("ox", "alice", 3, 3)])
    state = engine.declare_attackers(state, {"knight": "bob"}).state
    assert state.combat is not None and state.combat.attacks["knight.myriad.1"] == "carol"
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Enlist("knight.myriad.1", "ox"))
    assert info.value.rule == "702.154a" and "508.4" in info.value.message
    assert not state.objects["ox"].tapped
    done = engine.perform(state, Enlist("knight", "ox")).state
    assert done.objects["ox"].tapped and done.objects["knight"].power == 4
    assert done.objects["knight.myriad.1"].power == 1


def test_702_154a_508_4_entering_attacking_in_the_same_command_cant_enlist(
        engine: Engine) -> None:
    """508.4, 702.154a: a token with enlist created attacking and told to
    enlist in the same command was never declared as an attacker either."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 2, 2),
                                           c("ox", "alice", 3, 3)])
    state = engine.declare_attackers(state, {"knight": "bob"}).state
    token = Permanent("squire", "alice", base_power=1, base_toughness=1, token=True,
                      printed_keywords=(engine.keyword("enlist"),))
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, [CreateToken(token, tapped=True, attacking="bob"),
                               Enlist("squire", "ox")])
    assert info.value.rule == "702.154a" and "508.4" in info.value.message


# -- ninjutsu (702.49a, 509.1h; 310.1 of February 2009) ---------------------------------


def _ninja_board(engine: Engine, *extra: Permanent) -> GameState:
    """alice: a 1/1 rogue, a 2/2 ninja in hand; bob: nothing."""
    return engine.game(["alice", "bob"], [
        engine.creature("rogue", "alice", 1, 1),
        engine.creature("ninja", "alice", 2, 2, "ninjutsu {1}{u}").evolve(zone="hand"),
        *extra])


def _ninja_in(out_state: GameState) -> None:
    ninja = out_state.objects["ninja"]
    assert ninja.zone == "battlefield" and ninja.tapped
    assert out_state.combat is not None and out_state.combat.attacks.get("ninja") == "bob"
    assert out_state.objects["rogue"].zone == "hand"


@pytest.mark.parametrize("window", ["first_strike_damage_assigned", "combat_damage_assigned"])
def test_702_49a_310_1_sixth_ninjutsu_while_combat_damage_is_on_the_stack(
        window: str) -> None:
    """310.1 (February 2009): after combat damage is put on the stack the
    active player gets priority; the rogue is still an unblocked attacking
    creature (702.49a, 509.1h), so ninjutsu may be activated in each combat
    damage step's window, the first strike one included."""
    engine = Engine(rules="sixth")
    state = _ninja_board(engine, engine.creature("fencer", "alice", 1, 1, "first strike"))
    state = engine.declare_attackers(state, {"rogue": "bob", "fencer": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    while state.step != window:
        state = engine.combat_damage(state).state
    _ninja_in(engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"}).state)


def test_702_49a_sixth_still_refused_in_the_declare_attackers_step() -> None:
    """509.1h, 702.49a: under the rules of 1999-2009 too, no creature is
    unblocked before blockers are declared: refused (602.5), naming the
    step."""
    engine = Engine(rules="sixth")
    state = engine.declare_attackers(_ninja_board(engine), {"rogue": "bob"}).state
    with pytest.raises(IllegalActionError) as info:
        engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"})
    assert info.value.rule == "602.5" and "declare_attackers" in info.value.message
    assert state.objects["ninja"].zone == "hand"


LAST = DamageStep("last_damage", 1, "510.4", "A combat damage step after the regular one")


@hookimpl
def redzone_damage_steps() -> list[DamageStep]:
    return [LAST]


@hookimpl
def redzone_deals_combat_damage(state: GameState, creature: str, step: str) -> bool | None:
    return True if step == LAST.name and creature == "rogue" else None


LATE = SimpleNamespace(__name__="late", redzone_damage_steps=redzone_damage_steps,
                       redzone_deals_combat_damage=redzone_deals_combat_damage)


def test_702_49a_510_4_ninjutsu_in_a_damage_step_a_plugin_declares() -> None:
    """510.4: a plugin declares a combat damage step after the regular one;
    it is a step of the combat phase between the declare blockers step and
    the end of combat step, with the rogue unblocked: ninjutsu may be
    activated in it (702.49a, 509.1h)."""
    engine = Engine(plugins=[LATE])
    state = engine.declare_attackers(_ninja_board(engine), {"rogue": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    state = engine.combat_damage(state).state
    assert state.step == "last_damage"
    _ninja_in(engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"}).state)
