"""Rules editions: m10 (damage assignment order, 2009-2024) and sixth (combat
damage on the stack, 1999-2009), against today's foundations rules.

Rule numbers of m10 are those of the 2024-07-30 rules; of sixth, those of the
2009-02-01 rules; of foundations, those of 2026-09-25.
"""

from __future__ import annotations

from typing import Any

import pytest
import redzone
from redzone import (
    DealDamage,
    Engine,
    EnterBlocking,
    GameState,
    IllegalAssignmentError,
    IllegalBlockError,
    LeaveBattlefield,
    MakeBlock,
    Prevent,
    Pump,
    Regenerate,
)
from redzone.kernel.editions import EDITIONS, UnknownEditionError, get_edition


@pytest.fixture(scope="module")
def engines() -> dict[str, Engine]:
    return {name: Engine(name) for name in ("foundations", "m10", "sixth")}


def _game(engine: Engine, *perms: Any) -> GameState:
    return engine.game(["alice", "bob"], list(perms))


def _wurm_board(engine: Engine) -> GameState:
    c = engine.creature
    return _game(engine, c("wurm", "alice", 6, 4, name="Craw Wurm"),
                 c("wall", "bob", 0, 3, name="Wall of Wood"),
                 c("cadet", "bob", 1, 1, name="Eager Cadet"))


def _blocked(engine: Engine, state: GameState, order: Any = None) -> GameState:
    out = engine.declare_attackers(state, {"wurm": "bob"})
    return engine.declare_blockers(out.state, {"wall": "wurm", "cadet": "wurm"},
                                   order or {"wurm": ["wall", "cadet"]}).state


# --- the editions exist and say what they are -----------------------------------


def test_three_editions_are_known_and_listed() -> None:
    assert {"foundations", "m10", "sixth"} <= set(EDITIONS)
    assert get_edition("m10").assignment_orders
    assert get_edition("sixth").damage_on_stack
    assert not get_edition("foundations").assignment_orders


def test_unknown_edition_names_the_known_ones() -> None:
    with pytest.raises(UnknownEditionError, match="known editions: foundations, m10, sixth"):
        Engine("fifth")


def test_sixth_replaces_deathtouch_and_lifelink_with_triggered_wordings(
        engines: dict[str, Engine]) -> None:
    rules = {k.spec.name: k.spec.rule for k in engines["sixth"].keywords()}
    assert rules["deathtouch"] == "502.63" and rules["lifelink"] == "502.68"
    modern = {k.spec.name: k.spec.rule for k in engines["foundations"].keywords()}
    assert modern["deathtouch"] == "702.2" and modern["lifelink"] == "702.15"


# --- m10: damage assignment order (509.2, 510.1c of 2024) ----------------------------

CRAW_WURM_LEGAL = [(3, 3), (4, 2), (5, 1), (6, 0)]
CRAW_WURM_ILLEGAL = [(2, 4), (0, 6), (1, 5)]


@pytest.mark.parametrize(("wall", "cadet"), CRAW_WURM_LEGAL)
def test_m10_510_1c_craw_wurm_legal_divisions(engines: dict[str, Engine], wall: int,
                                              cadet: int) -> None:
    """Seed 001, 510.1c: order Wall of Wood then Eager Cadet."""
    engine = engines["m10"]
    state = _blocked(engine, _wurm_board(engine))
    assert engine.assignment_violations(state, {"wurm": {"wall": wall, "cadet": cadet}}) == ()


@pytest.mark.parametrize(("wall", "cadet"), CRAW_WURM_ILLEGAL)
def test_m10_510_1c_craw_wurm_cadet_before_wall_is_lethal_is_illegal(
        engines: dict[str, Engine], wall: int, cadet: int) -> None:
    engine = engines["m10"]
    state = _blocked(engine, _wurm_board(engine))
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, {"wurm": {"wall": wall, "cadet": cadet}})
    assert info.value.rule == "510.1c"
    assert {"wurm", "wall", "cadet"} <= set(info.value.objects)
    # The same division is legal today: damage is divided freely (510.1c of 2026).
    today = engines["foundations"]
    assert today.assignment_violations(_blocked(today, _wurm_board(today)),
                                       {"wurm": {"wall": wall, "cadet": cadet}}) == ()


def test_510_1c_m10_every_creature_ahead_in_the_order_needs_lethal_damage(
        engines: dict[str, Engine]) -> None:
    """510.1c (2024): a blocked creature "can't assign combat damage to a
    creature that's blocking it unless ... each creature that precedes that
    blocking creature in its order is assigned lethal damage", not only the
    one just before it. Order Wall of Wood, golem, Eager Cadet; the
    indestructible golem already has 2 damage marked, so it needs 0 more.
    All 6 to the Cadet is illegal: the Wall, two places ahead of it, is
    assigned 0 of its 3. 3 to the Wall and 3 to the Cadet is legal."""
    engine = engines["m10"]
    c = engine.creature
    state = _game(engine, c("wurm", "alice", 6, 6, name="Craw Wurm"),
                  c("wall", "bob", 0, 3, name="Wall of Wood"),
                  c("golem", "bob", 2, 2, "indestructible", damage=2),
                  c("cadet", "bob", 1, 1, name="Eager Cadet"))
    state = engine.declare_attackers(state, {"wurm": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "wurm", "golem": "wurm", "cadet": "wurm"},
                                    {"wurm": ["wall", "golem", "cadet"]}).state
    assert engine.lethal_damage(state, "wurm", "golem") == 0
    bad = engine.assignment_violations(state, {"wurm": {"wall": 0, "golem": 0, "cadet": 6}})
    assert [(v.rule, v.objects) for v in bad] == [("510.1c", ("wurm", "wall", "cadet"))]
    assert engine.assignment_violations(
        state, {"wurm": {"wall": 3, "golem": 0, "cadet": 3}}) == ()


def test_510_1c_m10_each_creature_assigned_too_early_is_a_violation(
        engines: dict[str, Engine]) -> None:
    """510.1c (2024), and an illegal assignment lists every violation: Craw
    Wurm orders Wall of Wood (0/3), a bear (2/2), Eager Cadet (1/1) and
    assigns 1, 2, 3: the bear and the Cadet are each assigned damage before
    the Wall is assigned lethal damage; both are violations, each naming
    the creatures as the rest of the message does (name and id)."""
    engine = engines["m10"]
    c = engine.creature
    state = _game(engine, c("wurm", "alice", 6, 6, name="Craw Wurm"),
                  c("wall", "bob", 0, 3, name="Wall of Wood"), c("bear", "bob", 2, 2),
                  c("cadet", "bob", 1, 1, name="Eager Cadet"))
    state = engine.declare_attackers(state, {"wurm": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "wurm", "bear": "wurm", "cadet": "wurm"},
                                    {"wurm": ["wall", "bear", "cadet"]}).state
    bad = engine.assignment_violations(state, {"wurm": {"wall": 1, "bear": 2, "cadet": 3}})
    assert [(v.rule, v.objects) for v in bad] == [
        ("510.1c", ("wurm", "wall", "bear")), ("510.1c", ("wurm", "wall", "cadet"))]
    assert bad[1].message == (
        "Craw Wurm (wurm) can't assign damage to Eager Cadet (cadet) before Wall of Wood "
        "(wall), ahead of it in the damage assignment order Wall of Wood (wall), bear, "
        "Eager Cadet (cadet), is assigned lethal damage (3; it has 1)")


def test_m10_giant_growth_on_the_wall_forces_all_six_to_it(engines: dict[str, Engine]) -> None:
    """Seed 001, 510.1c second example: Wall of Wood becomes 3/6."""
    engine = engines["m10"]
    state = _blocked(engine, _wurm_board(engine))
    state = engine.perform(state, Pump("wall", 3, 3)).state
    assert engine.assignment_violations(state, {"wurm": {"wall": 6}}) == ()
    for wall, cadet in [(5, 1), (3, 3)]:
        assert engine.assignment_violations(state, {"wurm": {"wall": wall, "cadet": cadet}})
    assert engine.default_assignment(state)["wurm"] == {"wall": 6}


@pytest.mark.parametrize(("wall", "cadet"), CRAW_WURM_LEGAL)
def test_m10_mending_hands_prevention_does_not_change_lethal(
        engines: dict[str, Engine], wall: int, cadet: int) -> None:
    """Seed 001, 510.1c third example: a shield preventing the next 4 damage to
    the Wall leaves the legal divisions unchanged ("not any abilities or
    effects that might change the amount of damage that's actually dealt")."""
    engine = engines["m10"]
    state = _blocked(engine, _wurm_board(engine))
    state = engine.perform(state, Prevent(target="wall", amount=4)).state
    out = engine.combat_damage(state, {"wurm": {"wall": wall, "cadet": cadet}})
    prevented = sum(e.amount or 0 for e in out.events if e.kind == "prevented")
    assert prevented == min(wall, 4)


def _baloth_board(engine: Engine) -> GameState:
    c = engine.creature
    return _game(engine,
                 c("baloth", "alice", 7, 7, name="Enormous Baloth"),
                 c("boars", "alice", 4, 4, name="Durkwood Boars"),
                 c("armodon", "bob", 3, 3, name="Trained Armodon", damage=2),
                 c("brigade", "bob", 2, 4, name="Foriysian Brigade", can_block_additional=1),
                 c("ape", "bob", 5, 5, name="Silverback Ape"),
                 c("piker", "bob", 2, 1, name="Goblin Piker"))


def _baloth_blocked(engine: Engine) -> GameState:
    state = engine.declare_attackers(_baloth_board(engine),
                                     {"baloth": "bob", "boars": "bob"}).state
    return engine.declare_blockers(
        state, {"armodon": "baloth", "brigade": ["baloth", "boars"], "ape": "baloth",
                "piker": "boars"},
        {"baloth": ["armodon", "brigade", "ape"], "boars": ["brigade", "piker"]}).state


def test_m10_baloth_and_boars_count_each_others_damage_to_the_brigade(
        engines: dict[str, Engine]) -> None:
    """Seed 001 / 510.1c of 2024, fourth example: the Baloth assigns 1 to the
    Armodon (2 already marked), 1 to the Brigade and 5 to the Ape, because the
    Boars assign 3 to the Brigade at the same time."""
    engine = engines["m10"]
    state = _baloth_blocked(engine)
    legal = {"baloth": {"armodon": 1, "brigade": 1, "ape": 5},
             "boars": {"brigade": 3, "piker": 1}}
    assert engine.assignment_violations(state, legal) == ()
    # With the Boars' 4 on the Brigade, it needs nothing more from the Baloth.
    all_in = {"baloth": {"armodon": 1, "ape": 6}, "boars": {"brigade": 4}}
    assert engine.assignment_violations(state, all_in) == ()
    # With only 2 from the Boars, 1 is not lethal for the Brigade: both the
    # Baloth's 5 to the Ape and the Boars' 2 to the Piker come too early.
    short = {"baloth": {"armodon": 1, "brigade": 1, "ape": 5},
             "boars": {"brigade": 2, "piker": 2}}
    violations = engine.assignment_violations(state, short)
    assert [v.rule for v in violations] == ["510.1c", "510.1c"]
    assert {v.objects[0] for v in violations} == {"baloth", "boars"}


def test_m10_order_must_list_the_blockers_exactly(engines: dict[str, Engine]) -> None:
    """509.2 (2024): the order consists of the creatures blocking it."""
    engine = engines["m10"]
    state = engine.declare_attackers(_wurm_board(engine), {"wurm": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"wall": "wurm", "cadet": "wurm"},
                                {"wurm": ["wall", "wall"]})
    assert info.value.rule == "509.2"
    assert engine.declare_blockers(state, {"wall": "wurm"}).state is not state


def test_m10_missing_order_defaults_to_declaration_order(engines: dict[str, Engine]) -> None:
    engine = engines["m10"]
    state = engine.declare_attackers(_wurm_board(engine), {"wurm": "bob"}).state
    state = engine.declare_blockers(state, {"cadet": "wurm", "wall": "wurm"}).state
    assert state.combat is not None
    assert state.combat.order["wurm"] == ("cadet", "wall")
    # So the Cadet comes first: 1 to it, 5 to the Wall is the default and legal.
    assert engine.default_assignment(state)["wurm"] == {"cadet": 1, "wall": 5}


def test_m10_509_7_creature_put_onto_the_battlefield_blocking_is_placed_in_the_order(
        engines: dict[str, Engine]) -> None:
    """509.7 example (2024): Flash Foliage's Saproling blocks Giant Spider and
    the active player puts it first in the order."""
    engine = engines["m10"]
    c = engine.creature
    state = _game(engine, c("spider", "alice", 2, 4, name="Giant Spider"),
                  c("minotaur", "bob", 3, 3, name="Canyon Minotaur"))
    state = engine.declare_attackers(state, {"spider": "bob"}).state
    state = engine.declare_blockers(state, {"minotaur": "spider"}).state
    token = redzone.Permanent(id="saproling", controller="bob", name="Saproling",
                              base_power=1, base_toughness=1, token=True)
    state = engine.perform(state, EnterBlocking(token, "spider", position=0)).state
    assert state.combat is not None
    assert state.combat.order["spider"] == ("saproling", "minotaur")
    # The Saproling comes first: the Minotaur can't be dealt damage before 1 goes to it.
    assert engine.assignment_violations(state, {"spider": {"minotaur": 2}})
    assert engine.assignment_violations(state, {"spider": {"saproling": 1, "minotaur": 1}}) == ()


def test_509_6_made_to_block_is_added_last_by_default(engines: dict[str, Engine]) -> None:
    engine = engines["m10"]
    state = _blocked(engine, _wurm_board(engine).with_permanents(
        {"elf": engine.creature("elf", "bob", 1, 1)}))
    state = engine.perform(state, MakeBlock("elf", "wurm")).state
    assert state.combat is not None
    assert state.combat.order["wurm"] == ("wall", "cadet", "elf")
    assert state.combat.blockers_of("wurm") == ("wall", "cadet", "elf")


# --- sixth: combat damage on the stack (310 of 2009) ---------------------------------


def _fanatic_board(engine: Engine) -> GameState:
    c = engine.creature
    return _game(engine, c("hawk", "alice", 1, 1, "flying", name="Suntail Hawk"),
                 c("piker", "alice", 2, 1, name="Goblin Piker"),
                 c("fanatic", "bob", 1, 1, name="Mogg Fanatic"))


def test_sixth_mogg_fanatic_trick(engines: dict[str, Engine]) -> None:
    """310.4a/310.4c (2009): the Fanatic blocks the Piker; with combat damage on
    the stack it is sacrificed to deal 1 damage to the Hawk. Its combat damage
    to the Piker is still dealt; the Piker's damage to it isn't; the Hawk's
    combat damage to bob is still dealt although the Hawk is gone."""
    engine = engines["sixth"]
    sac = [("combat_damage_assigned", DealDamage("fanatic", "hawk", 1)),
           ("combat_damage_assigned", LeaveBattlefield("fanatic"))]
    result = engine.resolve(_fanatic_board(engine), {"hawk": "bob", "piker": "bob"},
                            {"fanatic": "piker"}, actions=sac)
    assert "combat_damage_assigned" in result.steps
    assert result.state.objects["piker"].zone == "graveyard"
    assert result.state.objects["hawk"].zone == "graveyard"
    assert result.state.players["bob"].life == 19
    dealt = [(e.source, e.target) for e in result.events
             if e.kind == "damage" and e.combat]
    assert ("fanatic", "piker") in dealt and ("piker", "fanatic") not in dealt


def test_foundations_mogg_fanatic_before_damage(engines: dict[str, Engine]) -> None:
    """510.2 (2026): no priority between assignment and damage. Sacrificed in the
    declare blockers step, the Fanatic kills the Hawk and the blocked Piker
    deals and is dealt no combat damage."""
    engine = engines["foundations"]
    sac = [("declare_blockers", DealDamage("fanatic", "hawk", 1)),
           ("declare_blockers", LeaveBattlefield("fanatic"))]
    result = engine.resolve(_fanatic_board(engine), {"hawk": "bob", "piker": "bob"},
                            {"fanatic": "piker"}, actions=sac)
    assert "combat_damage_assigned" not in result.steps
    assert result.state.objects["piker"].zone == "battlefield"
    assert result.state.players["bob"].life == 20


def test_sixth_pump_after_assignment_does_not_change_the_damage(
        engines: dict[str, Engine]) -> None:
    """310.4a (2009): damage is dealt as assigned even if power changed."""
    engine = engines["sixth"]
    state = _game(engine, engine.creature("bear", "alice", 2, 2))
    result = engine.resolve(state, {"bear": "bob"},
                            actions=[("combat_damage_assigned", Pump("bear", 3, 0))])
    assert result.state.players["bob"].life == 18


def test_sixth_damage_to_a_creature_that_left_is_not_dealt(engines: dict[str, Engine]) -> None:
    """310.4c (2009)."""
    engine = engines["sixth"]
    c = engine.creature
    state = _game(engine, c("ogre", "alice", 3, 3), c("bear", "bob", 2, 2))
    result = engine.resolve(state, {"ogre": "bob"}, {"bear": "ogre"},
                            actions=[("combat_damage_assigned", LeaveBattlefield("bear", "exile"))])
    assert not [e for e in result.events if e.kind == "damage" and e.target == "bear"]
    # The Bear's own damage, assigned before it left, is dealt (310.4a-b).
    assert result.state.objects["ogre"].damage == 2


def test_sixth_deathtouch_is_not_lethal_for_trample(engines: dict[str, Engine]) -> None:
    """502.63a (2009) is a trigger, not a lethal-damage rule: a 5/5 trample
    deathtouch creature must assign 3 to a 3/3 blocker before trampling over;
    today 1 is enough (702.2c, 702.19b)."""
    assign = {"crusher": {"bear": 1, "bob": 4}}
    results = {}
    for name in ("foundations", "sixth"):
        engine = engines[name]
        c = engine.creature
        state = _game(engine, c("crusher", "alice", 5, 5, "trample", "deathtouch"),
                      c("bear", "bob", 3, 3))
        state = engine.declare_attackers(state, {"crusher": "bob"}).state
        state = engine.declare_blockers(state, {"bear": "crusher"}).state
        results[name] = engine.assignment_violations(state, assign)
    assert results["foundations"] == ()
    assert [v.rule for v in results["sixth"]] == ["702.19b"]


def test_sixth_deathtouch_trigger_destroys_the_creature_it_damaged(
        engines: dict[str, Engine]) -> None:
    engine = engines["sixth"]
    c = engine.creature
    state = _game(engine, c("snake", "alice", 1, 1, "deathtouch"), c("giant", "bob", 4, 6))
    result = engine.resolve(state, {"snake": "bob"}, {"giant": "snake"})
    # (The trigger resolves by destroying it: the destroy action's rule.)
    destroyed = [e for e in result.events if e.kind == "destroyed" and e.object == "giant"]
    assert [e.rule for e in destroyed] == ["701.8a"]
    assert result.state.objects["giant"].zone == "graveyard"


def test_502_63a_sixth_deathtouch_destroys_a_creature_not_a_planeswalker(
        engines: dict[str, Engine]) -> None:
    """502.63a (2009): "Whenever this permanent deals damage to a creature,
    destroy that creature": the snake's combat damage to bob's planeswalker
    (it attacks the planeswalker) is damage to a noncreature: the ability
    doesn't trigger and the planeswalker stays, one loyalty counter fewer."""
    engine = engines["sixth"]
    state = _game(engine, engine.creature("snake", "alice", 1, 1, "deathtouch"),
                  engine.permanent("jace", "bob", types=("planeswalker",),
                                   counters={"loyalty": 5}))
    result = engine.resolve(state, {"snake": "jace"})
    jace = result.state.objects["jace"]
    assert (jace.zone, jace.counters.get("loyalty")) == ("battlefield", 4)
    assert not [e for e in result.events if e.kind in ("trigger", "destroyed")]


def test_sixth_lifelink_instances_trigger_separately(engines: dict[str, Engine]) -> None:
    """502.68b (2009): each instance triggers; today lifelink is one static
    ability however many instances (702.15f)."""
    gains = {}
    for name in ("foundations", "sixth"):
        engine = engines[name]
        state = _game(engine, engine.creature("cleric", "alice", 2, 2, "lifelink", "lifelink"))
        result = engine.resolve(state, {"cleric": "bob"})
        gains[name] = result.state.players["alice"].life - 20
    assert gains == {"foundations": 2, "sixth": 4}


def test_502_68a_sixth_lifelink_gains_its_controller_life_not_its_owner(
        engines: dict[str, Engine]) -> None:
    """502.68a (2009): "Whenever this permanent deals damage, you gain that
    much life": "you" is the ability's controller, the permanent's controller
    as it triggered. alice controls bob's lifelink priest; its 3 combat
    damage to bob gains alice 3 life, and bob none."""
    engine = engines["sixth"]
    state = _game(engine, engine.creature("priest", "alice", 3, 3, "lifelink", owner="bob"))
    result = engine.resolve(state, {"priest": "bob"})
    assert {p: result.state.players[p].life for p in ("alice", "bob")} == {
        "alice": 23, "bob": 17}
    assert [e.player for e in result.events if e.kind == "trigger"] == ["alice"]


def test_sixth_lifelink_triggers_after_state_based_actions(
        engines: dict[str, Engine]) -> None:
    """502.68a, 420.3, 420.5a (2009): lifelink is a triggered ability, put on the
    stack only once state-based effects are done, so a player at 2 dealt 3
    while their lifelink blocker deals 2 is at -1 and loses before it gains;
    today lifelink's gain is part of the damage event (702.15b, 120.3f) and
    the player survives at 1. The gain is one trigger for the damage event,
    whatever it was dealt to, and a source that died in that event still
    triggers (its last known lifelink)."""
    outcomes = {}
    for name in ("foundations", "sixth"):
        engine = engines[name]
        c = engine.creature
        state = engine.game(["alice", "bob"], [
            c("ogre", "alice", 3, 3), c("bear", "alice", 2, 2),
            c("priest", "bob", 2, 2, "lifelink")])
        state = state.with_players({"bob": state.players["bob"].evolve(life=2)})
        result = engine.resolve(state, {"ogre": "bob", "bear": "bob"}, {"priest": "bear"})
        bob = result.state.players["bob"]
        outcomes[name] = (bob.life, bob.lost)
    assert outcomes == {"foundations": (1, False), "sixth": (-1, True)}
    engine = engines["sixth"]
    c = engine.creature
    state = _game(engine, c("wurm", "alice", 6, 6, "lifelink", "trample"),
                  c("wall", "bob", 0, 2))
    result = engine.resolve(state, {"wurm": "bob"}, {"wall": "wurm"})
    assert result.state.players["alice"].life == 26
    assert [e.kind for e in result.events].count("trigger") == 1
    state = _game(engine, c("cleric", "alice", 2, 2, "lifelink"), c("giant", "bob", 4, 4))
    result = engine.resolve(state, {"cleric": "bob"}, {"giant": "cleric"})
    assert result.state.objects["cleric"].zone == "graveyard"
    assert result.state.players["alice"].life == 22


def test_sixth_second_step_takes_creatures_that_did_not_assign(
        engines: dict[str, Engine]) -> None:
    """310.5 (2009): a 0-power first striker assigns nothing in the first step,
    so, pumped, it deals damage in the second; today it had first strike as
    the first step began and deals none (510.4)."""
    life = {}
    for name in ("foundations", "sixth"):
        engine = engines[name]
        c = engine.creature
        state = _game(engine, c("squire", "alice", 0, 1, "first strike"),
                      c("knight", "alice", 2, 2, "first strike"))
        result = engine.resolve(state, {"squire": "bob", "knight": "bob"},
                                actions=[("first_strike_damage", Pump("squire", 2, 0))])
        life[name] = result.state.players["bob"].life
    assert life == {"foundations": 18, "sixth": 16}


@pytest.mark.parametrize("name", ["foundations", "m10", "sixth"])
def test_same_scenario_resolves_under_every_edition(engines: dict[str, Engine],
                                                    name: str) -> None:
    """One board, three editions: the differences are the ones the rules make."""
    engine = engines[name]
    state = _blocked(engine, _wurm_board(engine))
    division = {"wurm": {"wall": 2, "cadet": 4}}
    if name == "m10":
        with pytest.raises(IllegalAssignmentError):
            engine.combat_damage(state, division)
        return
    out = engine.combat_damage(state, division)
    if name == "sixth":
        assert out.state.step == "combat_damage_assigned"
        out = engine.combat_damage(out.state)
    assert out.state.objects["cadet"].zone == "graveyard"
    assert out.state.objects["wall"].damage == 2


# --- m10 with deathtouch: another creature's deathtouch damage is lethal --------
# 510.1c of 2024: a blocked creature "can't assign combat damage to a creature
# that's blocking it unless ... each creature that precedes that blocking
# creature in its order is assigned lethal damage", counting "damage from other
# creatures that's being assigned during the same combat damage step"; 702.2c of
# 2024: "Any nonzero amount of combat damage assigned to a creature by a source
# with deathtouch is considered to be lethal damage".


def _m10_shared(engine: Engine, touch: bool) -> GameState:
    c = engine.creature
    kws = ("deathtouch",) if touch else ()
    state = _game(engine, c("snake", "alice", 1, 1, *kws),
                  c("wurm", "alice", 6, 4, name="Craw Wurm"),
                  c("wall", "bob", 0, 3, can_block_additional=1, name="Wall of Wood"),
                  c("cadet", "bob", 1, 1, name="Eager Cadet"))
    state = engine.declare_attackers(state, {"snake": "bob", "wurm": "bob"}).state
    return engine.declare_blockers(state, {"wall": ["snake", "wurm"], "cadet": "wurm"},
                                   {"wurm": ["wall", "cadet"]}).state


def test_m10_510_1c_702_2c_another_deathtouch_creature_makes_the_wall_lethal(
        engines: dict[str, Engine]) -> None:
    engine = engines["m10"]
    state = _m10_shared(engine, touch=True)
    assign = {"snake": {"wall": 1}, "wurm": {"cadet": 6}}
    assert engine.assignment_violations(state, assign) == ()
    assert engine.default_assignment(state)["wurm"] == {"cadet": 6}


def test_m10_510_1c_without_deathtouch_the_wall_still_needs_2(
        engines: dict[str, Engine]) -> None:
    engine = engines["m10"]
    state = _m10_shared(engine, touch=False)
    bad = engine.assignment_violations(state, {"snake": {"wall": 1}, "wurm": {"cadet": 6}})
    assert [v.rule for v in bad] == ["510.1c"]
    assert engine.assignment_violations(
        state, {"snake": {"wall": 1}, "wurm": {"wall": 2, "cadet": 4}}) == ()


def test_m10_510_1d_a_blocker_may_pass_an_attacker_another_deathtouch_blocker_hit(
        engines: dict[str, Engine]) -> None:
    """510.1d of 2024 with 702.2c: a blocker blocking two attackers (order: x,
    then y) may assign all to y when another blocker with deathtouch assigns
    1 to x; without deathtouch, x must first be assigned lethal damage."""
    engine = engines["m10"]
    c = engine.creature
    for touch, legal in ((True, True), (False, False)):
        kws = ("deathtouch",) if touch else ()
        state = _game(engine, c("x", "alice", 1, 3), c("y", "alice", 1, 3),
                      c("giant", "bob", 4, 4, can_block_additional=1),
                      c("snake", "bob", 1, 1, *kws))
        state = engine.declare_attackers(state, {"x": "bob", "y": "bob"}).state
        state = engine.declare_blockers(state, {"giant": ["x", "y"], "snake": "x"},
                                        {"giant": ["x", "y"], "x": ["giant", "snake"]}).state
        bad = engine.assignment_violations(state, {"snake": {"x": 1}, "giant": {"y": 4}})
        assert (bad == ()) is legal
        if not legal:
            assert [v.rule for v in bad] == ["510.1d"]


def test_sixth_lifelink_of_a_creature_gone_before_its_damage_is_dealt_doesnt_trigger(
        engines: dict[str, Engine]) -> None:
    """310.4a, 502.68a (2009): damage on the stack is dealt even though its
    creature left play, but "whenever this permanent deals damage" is an
    ability of a permanent in play: the creature sacrificed with its damage
    on the stack deals it and its lifelink doesn't trigger."""
    engine = engines["sixth"]
    state = _game(engine, engine.creature("cleric", "alice", 2, 2, "lifelink"))
    result = engine.resolve(state, {"cleric": "bob"}, actions=[
        ("combat_damage_assigned", LeaveBattlefield("cleric"))])
    assert result.state.players["bob"].life == 18
    assert result.state.players["alice"].life == 20
    assert not [e for e in result.events if e.kind == "trigger"]


def test_sixth_deathtouch_of_a_creature_gone_before_its_damage_is_dealt_doesnt_trigger(
        engines: dict[str, Engine]) -> None:
    """310.4a, 502.63a (2009): the snake sacrificed with its damage on the
    stack deals its 1 damage to the giant, which isn't destroyed: the
    snake's "whenever this permanent deals damage to a creature" isn't in
    play to trigger."""
    engine = engines["sixth"]
    c = engine.creature
    state = _game(engine, c("snake", "alice", 1, 1, "deathtouch"), c("giant", "bob", 4, 6))
    result = engine.resolve(state, {"snake": "bob"}, {"giant": "snake"}, actions=[
        ("combat_damage_assigned", LeaveBattlefield("snake"))])
    assert result.state.objects["giant"].zone == "battlefield"
    assert result.state.objects["giant"].damage == 1


def test_sixth_deathtouch_of_a_creature_dying_from_the_same_damage_triggers(
        engines: dict[str, Engine]) -> None:
    """502.63a (2009): a snake that dies in the same damage it deals was in
    play as it dealt it: its trigger destroys the giant."""
    engine = engines["sixth"]
    c = engine.creature
    state = _game(engine, c("snake", "alice", 1, 1, "deathtouch"), c("giant", "bob", 4, 6))
    result = engine.resolve(state, {"snake": "bob"}, {"giant": "snake"})
    assert result.state.objects["snake"].zone == "graveyard"
    assert result.state.objects["giant"].zone == "graveyard"


def test_sixth_deathtouch_instances_trigger_separately(engines: dict[str, Engine]) -> None:
    """502.63b (2009): two instances are two triggers, two destructions: one
    regeneration shield replaces the first (419.6b) and the second destroys
    the giant; with one instance the shield saves it."""
    engine = engines["sixth"]
    c = engine.creature
    zones = {}
    for keywords in (("deathtouch",), ("deathtouch", "deathtouch")):
        state = _game(engine, c("snake", "alice", 1, 1, *keywords), c("giant", "bob", 4, 6))
        result = engine.resolve(state, {"snake": "bob"}, {"giant": "snake"},
                                actions=[("declare_blockers", Regenerate("giant"))])
        zones[len(keywords)] = result.state.objects["giant"].zone
    assert zones == {1: "battlefield", 2: "graveyard"}


def test_sixth_deathtouch_goes_on_the_stack_after_state_based_effects(
        engines: dict[str, Engine]) -> None:
    """502.63a, 420.3 (2009): deathtouch is a triggered ability: it triggers
    (an event naming it) and its destruction follows, citing 502.63a."""
    engine = engines["sixth"]
    c = engine.creature
    state = _game(engine, c("snake", "alice", 1, 1, "deathtouch"), c("giant", "bob", 4, 6))
    result = engine.resolve(state, {"snake": "bob"}, {"giant": "snake"})
    kinds = [(e.kind, e.get("ability"), e.object if e.kind != "trigger" else None)
             for e in result.events if e.kind in ("trigger", "destroyed")]
    assert kinds == [("destroyed", None, "snake"), ("trigger", "deathtouch", None),
                     ("destroyed", None, "giant")]
