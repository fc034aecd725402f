"""Declaring attackers (508, 506.2-506.3, 302.6), with the core alone and with
tiny test plugins for the attack hooks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from redzone import (
    Engine,
    GameState,
    IllegalActionError,
    IllegalAttackError,
    Permanent,
    Player,
    Violation,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.testing import plugin_module as plugin


def walker(id: str, controller: str, loyalty: int = 3) -> Permanent:
    return Permanent(id, controller, types={"planeswalker"}, counters={"loyalty": loyalty})


def battle(id: str, controller: str, protector: str | None, defense: int = 3) -> Permanent:
    return Permanent(id, controller, types={"battle"}, subtypes=("Siege",),
                     counters={"defense": defense}, protector=protector)


@pytest.fixture
def duel(bare_engine: Engine) -> GameState:
    return bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 2, 2),
        creature("elf", "alice", 1, 1),
        creature("bear", "bob", 2, 2),
        walker("jace", "bob"),
        walker("ajani", "alice"),
    ])


def reject(engine: Engine, state: GameState, attacks: Mapping[str, Any]) -> IllegalAttackError:
    """Declare, expect rejection, and check that nothing changed (733)."""
    before = state_to_dict(state)
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, attacks)
    assert state_to_dict(state) == before
    assert state.combat is None
    return info.value


def test_508_1_legal_declaration_taps_and_records(bare_engine: Engine, duel: GameState) -> None:
    """508.1a-b, 508.1f, 508.1k: each chosen creature attacks what was
    announced, becomes tapped, and its defending player is recorded (506.2)."""
    out = bare_engine.declare_attackers(duel, {"orc": "bob", "elf": "jace"})
    combat = out.state.combat
    assert combat is not None
    assert dict(combat.attacks) == {"orc": "bob", "elf": "jace"}
    assert dict(combat.defending_players) == {"orc": "bob", "elf": "bob"}
    assert out.state.step == "declare_attackers"
    assert out.state.objects["orc"].tapped and out.state.objects["elf"].tapped
    kinds = [(e.kind, e.rule) for e in out.events]
    assert ("attack", "508.1a") in kinds
    assert kinds.count(("tap", "508.1f")) == 2
    # The input state was not touched.
    assert not duel.objects["orc"].tapped


def test_508_1a_nonexistent_attacker(bare_engine: Engine, duel: GameState) -> None:
    """508.1a: only creatures the active player controls can be chosen."""
    err = reject(bare_engine, duel, {"ghost": "bob"})
    assert err.rule == "508.1a"
    assert err.objects == ("ghost",)
    assert "ghost" in str(err)


def test_506_3_noncreature_cannot_attack(bare_engine: Engine, duel: GameState) -> None:
    """506.3: only a creature can attack."""
    err = reject(bare_engine, duel, {"ajani": "bob"})
    assert err.rule == "506.3"
    assert err.objects == ("ajani",)


def test_508_1a_wrong_controller(bare_engine: Engine, duel: GameState) -> None:
    """508.1a: the active player chooses creatures *they* control."""
    err = reject(bare_engine, duel, {"bear": "alice"})
    assert err.rule == "508.1a"
    assert "bear" in err.objects
    assert any("controlled by 'bob'" in v.message for v in err.violations)


def test_508_1a_tapped_creature(bare_engine: Engine) -> None:
    """508.1a: the chosen creatures must be untapped."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2, tapped=True)])
    err = reject(bare_engine, state, {"orc": "bob"})
    assert (err.rule, err.objects) == ("508.1a", ("orc",))
    assert "tapped" in err.message


def test_508_1a_battle_creature_cannot_attack(bare_engine: Engine) -> None:
    """508.1a: chosen creatures can't also be battles."""
    odd = Permanent("odd", "alice", types={"creature", "battle"}, base_power=1,
                    base_toughness=1, counters={"defense": 2}, protector="bob")
    state = bare_engine.game(["alice", "bob"], [odd])
    err = reject(bare_engine, state, {"odd": "bob"})
    assert err.rule == "508.1a"
    assert "battle" in err.message


def test_508_1a_not_on_battlefield(bare_engine: Engine) -> None:
    """508.1a: a card in the graveyard is not a creature on the battlefield."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2,
                                                         zone="graveyard")])
    err = reject(bare_engine, state, {"orc": "bob"})
    assert (err.rule, err.objects) == ("508.1a", ("orc",))


def test_302_6_summoning_sickness(bare_engine: Engine) -> None:
    """302.6: a creature that hasn't been controlled continuously since the turn
    began can't attack; the restriction is named so an ability can lift it."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2,
                                                         summoning_sick=True)])
    err = reject(bare_engine, state, {"orc": "bob"})
    assert err.rule == "302.6"
    assert err.violations[0].restriction == "summoning_sickness"
    assert bare_engine.legal_attackers(state) == ()


def test_302_6_exemption_hook_lifts_named_restriction() -> None:
    """702.10b via redzone_attack_exemption: an ability lifting the
    "summoning_sickness" restriction lets the creature attack."""
    seen: list[Violation] = []

    def redzone_attack_exemption(state: GameState, attacker: str,
                                 violation: Violation) -> bool:
        seen.append(violation)
        return attacker == "orc" and violation.restriction == "summoning_sickness"

    engine = Engine(discover=False, plugins=[plugin("hasty", redzone_attack_exemption=(
        redzone_attack_exemption))])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2, summoning_sick=True),
                                           creature("elf", "alice", 1, 1, summoning_sick=True)])
    assert engine.declare_attackers(state, {"orc": "bob"}).state.combat is not None
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"elf": "bob"})
    assert info.value.rule == "302.6"
    assert seen and all(v.restriction == "summoning_sickness" for v in seen)
    assert engine.legal_attackers(state) == ("orc",)


def test_508_1b_cannot_attack_own_planeswalker(bare_engine: Engine, duel: GameState) -> None:
    """508.1b / 506.2: only an opponent's planeswalkers may be attacked."""
    err = reject(bare_engine, duel, {"orc": "ajani"})
    assert err.rule == "508.1b"
    assert err.objects == ("ajani", "orc")


def test_508_1b_cannot_attack_self(bare_engine: Engine, duel: GameState) -> None:
    """508.1b: the attacking player is not a defending player."""
    err = reject(bare_engine, duel, {"orc": "alice"})
    assert (err.rule, err.objects) == ("508.1b", ("alice", "orc"))


def test_506_3_only_players_planeswalkers_battles_can_be_attacked(
        bare_engine: Engine, duel: GameState) -> None:
    """506.3: a creature can't be attacked."""
    err = reject(bare_engine, duel, {"orc": "bear"})
    assert (err.rule, err.objects) == ("506.3", ("bear", "orc"))
    err = reject(bare_engine, duel, {"orc": "nowhere"})
    assert (err.rule, err.objects) == ("508.1b", ("nowhere", "orc"))


def test_508_1b_player_who_left_cannot_be_attacked(bare_engine: Engine) -> None:
    """508.1b / 104.3: a player who lost has left the game."""
    state = bare_engine.game([Player("alice"), Player("bob", lost=True), Player("carol")],
                             [creature("orc", "alice", 2, 2)])
    err = reject(bare_engine, state, {"orc": "bob"})
    assert (err.rule, err.objects) == ("508.1b", ("bob", "orc"))


def test_310_8_battle_attackable_only_when_an_opponent_protects_it(bare_engine: Engine) -> None:
    """310.8 / 508.1b: a battle may be attacked if an opponent protects it; not
    one the attacking player protects, nor one with no protector."""
    state = bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 2, 2), battle("theirs", "alice", "bob"),
        battle("mine", "bob", "alice"), battle("nobody", "bob", None)])
    out = bare_engine.declare_attackers(state, {"orc": "theirs"})
    assert out.state.combat is not None
    assert out.state.combat.defending_players["orc"] == "bob"
    for target in ("mine", "nobody"):
        err = reject(bare_engine, state, {"orc": target})
        assert err.rule == "508.1b"
        assert target in err.objects


def test_508_1_every_violation_reported_at_once(bare_engine: Engine, duel: GameState) -> None:
    """733 / DESIGN: one rejected declaration reports every broken rule."""
    err = reject(bare_engine, duel, {"ghost": "bob", "ajani": "bob", "orc": "ajani"})
    rules = sorted(v.rule for v in err.violations)
    assert rules == ["506.3", "508.1a", "508.1b"]
    assert set(err.objects) == {"ghost", "ajani", "orc"}
    assert err.kind == "illegal_attack"
    assert isinstance(err, ValueError)


def test_508_1b_attacked_must_be_an_id(bare_engine: Engine, duel: GameState) -> None:
    """508.1b: each attacker attacks one player, planeswalker or battle."""
    err = reject(bare_engine, duel, {"orc": ["bob", "jace"]})
    assert (err.rule, err.objects) == ("508.1b", ("orc",))


def test_506_2a_multiplayer_attack_several_opponents(bare_engine: Engine) -> None:
    """506.2a, 508.1b: with several opponents, each attacker attacks one of
    them or one of their planeswalkers; each has its own defending player."""
    state = bare_engine.game(["alice", "bob", "carol"], [
        creature("a1", "alice", 1, 1), creature("a2", "alice", 1, 1),
        creature("a3", "alice", 1, 1), walker("jace", "carol")])
    out = bare_engine.declare_attackers(state, {"a1": "bob", "a2": "carol", "a3": "jace"})
    combat = out.state.combat
    assert combat is not None
    assert dict(combat.defending_players) == {"a1": "bob", "a2": "carol", "a3": "carol"}
    assert bare_engine.attackable(state) == ("bob", "carol", "jace")


def test_508_1c_restriction_hook() -> None:
    """508.1c via redzone_attack_violations: a "can't attack" effect makes the
    declaration illegal with the plugin's rule; a restriction nobody lifts stays."""
    def redzone_attack_violations(state: GameState, attacker: str,
                                  attacked: str) -> list[Violation]:
        if attacker == "wall":
            return [Violation("508.1c", "wall can't attack", (attacker,), restriction="wall")]
        return []

    engine = Engine(discover=False, plugins=[plugin("walls", redzone_attack_violations=(
        redzone_attack_violations))])
    state = engine.game(["alice", "bob"], [creature("wall", "alice", 0, 4),
                                           creature("orc", "alice", 2, 2)])
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"wall": "bob", "orc": "bob"})
    assert (info.value.rule, info.value.objects) == ("508.1c", ("wall",))
    assert engine.attack_violations(state, {"orc": "bob"}) == ()
    assert engine.attack_violations(state, {"wall": "bob"})[0].rule == "508.1c"
    assert engine.legal_attackers(state) == ("orc",)


def test_508_1d_declaration_hook_sees_the_whole_declaration() -> None:
    """508.1c-d / 506.5 via redzone_attack_declaration_violations: "can't attack
    alone" looks at the declaration as a whole, which is read-only."""
    seen: list[Mapping[str, str]] = []

    def redzone_attack_declaration_violations(state: GameState,
                                              attacks: Mapping[str, str]) -> list[Violation]:
        seen.append(attacks)
        if "loner" in attacks and len(attacks) == 1:
            return [Violation("506.5", "loner can't attack alone", ("loner",))]
        return []

    engine = Engine(discover=False, plugins=[plugin("alone", **{
        "redzone_attack_declaration_violations": redzone_attack_declaration_violations})])
    state = engine.game(["alice", "bob"], [creature("loner", "alice", 2, 2),
                                           creature("orc", "alice", 2, 2)])
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"loner": "bob"})
    assert info.value.rule == "506.5"
    assert engine.declare_attackers(state, {"loner": "bob", "orc": "bob"}).state.combat
    assert dict(seen[-1]) == {"loner": "bob", "orc": "bob"}
    with pytest.raises(TypeError):
        seen[-1]["orc"] = "alice"  # type: ignore[index]


def test_508_1f_attacks_without_tapping_hook() -> None:
    """508.1f / 702.20b via redzone_attacks_without_tapping: a creature some
    ability exempts does not become tapped; the others do."""
    engine = Engine(discover=False, plugins=[plugin("watchful", redzone_attacks_without_tapping=(
        lambda attacker: attacker == "guard"))])
    state = engine.game(["alice", "bob"], [creature("guard", "alice", 2, 2),
                                           creature("orc", "alice", 2, 2)])
    out = engine.declare_attackers(state, {"guard": "bob", "orc": "bob"})
    assert not out.state.objects["guard"].tapped
    assert out.state.objects["orc"].tapped
    assert [e.object for e in out.events if e.kind == "tap"] == ["orc"]


def test_508_8_no_attackers_skips_to_end_of_combat(bare_engine: Engine, duel: GameState) -> None:
    """508.8: with no attackers, the declare blockers and combat damage steps
    are skipped."""
    out = bare_engine.declare_attackers(duel, {})
    assert bare_engine.next_step(out.state) == "end_of_combat"
    with pytest.raises(IllegalActionError) as info:
        bare_engine.declare_blockers(out.state, {})
    assert info.value.rule == "506.1"


def test_declare_attackers_from_main_begins_combat(bare_engine: Engine,
                                                   duel: GameState) -> None:
    """507: declaring attackers from the main phase passes through the
    beginning of combat step."""
    begun = bare_engine.begin_combat(duel)
    assert begun.state.step == "beginning_of_combat"
    assert [e.rule for e in begun.events] == ["507.1"]
    one = bare_engine.declare_attackers(duel, {"orc": "bob"}).state
    two = bare_engine.declare_attackers(begun.state, {"orc": "bob"}).state
    assert one == two


def test_legal_attackers_query_never_raises(bare_engine: Engine, duel: GameState) -> None:
    """508.1a: the query lists creatures that could attack on their own."""
    assert bare_engine.legal_attackers(duel) == ("orc", "elf")
    assert bare_engine.attack_violations(duel, {"ghost": "bob"})[0].rule == "508.1a"


def test_310_attacking_a_battle_removes_defense(bare_engine: Engine) -> None:
    """310.8, 120.3h, 704.5v, 506.4c: combat damage to an attacked Siege removes
    defense counters; at 0 it is put into its owner's graveyard and leaves
    combat; its attackers attack nothing any more."""
    state = bare_engine.game(["alice", "bob", "carol"], [
        creature("orc", "alice", 3, 3), creature("elf", "alice", 1, 1),
        battle("siege", "carol", "bob", defense=3)])
    result = bare_engine.resolve(state, {"orc": "siege", "elf": "bob"}, {})
    after = result.after_steps["combat_damage"]
    assert [(e.kind, e.rule, e.amount) for e in result.events if e.kind == "defense"] == [
        ("defense", "120.3h", 3)]
    assert after.objects["siege"].zone == "graveyard"
    assert after.objects["siege"].controller == "carol"  # its owner's graveyard
    assert ("dies", "704.5v") in [(e.kind, e.rule) for e in result.events]
    assert after.combat is not None and after.combat.attacks["orc"] is None
    assert after.players["bob"].life == 19 and after.players["carol"].life == 20


def test_508_1a_508_1c_every_violation_of_an_attacker_is_listed() -> None:
    """508.1a-c: the active player's declaration is checked for every
    requirement and every restriction of each creature; the error lists
    each: a tapped wall with defender breaks 508.1a and 702.3b; one
    attacking its own controller breaks 508.1b and 702.3b."""
    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("wall", "alice", 0, 4, "defender", tapped=True), c("gate", "alice", 0, 4, "defender")])

    def rules(attacks: Mapping[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
        return sorted((v.rule, v.objects) for v in reject(engine, state, attacks).violations)

    assert rules({"wall": "bob"}) == [("508.1a", ("wall",)), ("702.3b", ("wall",))]
    assert rules({"gate": "alice"}) == [("508.1b", ("gate", "alice")), ("702.3b", ("gate",))]


def test_508_1b_an_unknown_target_lists_what_holds_whatever_the_creature_attacks() -> None:
    """508.1a-c, 702.3b, 702.10b, 302.6: a creature declared to attack an id
    that is no player or permanent breaks 508.1b, and the error also lists
    the restrictions it holds whatever it would attack (asked with each
    player, planeswalker and battle it could attack): a wall with defender
    can't attack (702.3b); a summoning-sick creature can't (302.6), unless it
    has haste (702.10b); a restriction that holds against one of them only
    (a plugin's "can't attack bob") isn't listed."""
    def not_bob(state: GameState, attacker: str, attacked: str) -> list[Violation]:
        if attacker == "grudge" and attacked == "bob":
            return [Violation("508.1b", "grudge can't attack bob", (attacker, attacked),
                              restriction="test")]
        return []

    engine = Engine(plugins=[plugin("grudge", redzone_attack_violations=not_bob)])
    c = engine.creature
    state = engine.game(["alice", "bob", "carol"], [
        c("wall", "alice", 0, 4, "defender"), c("sick", "alice", 2, 2, summoning_sick=True),
        c("gob", "alice", 2, 2, "haste", summoning_sick=True), c("grudge", "alice", 2, 2)])

    def rules(attacks: Mapping[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
        return sorted((v.rule, v.objects) for v in reject(engine, state, attacks).violations)

    assert rules({"wall": "bobby"}) == [("508.1b", ("wall", "bobby")), ("702.3b", ("wall",))]
    assert rules({"sick": "bobby"}) == [("302.6", ("sick",)), ("508.1b", ("sick", "bobby"))]
    assert rules({"gob": "bobby"}) == [("508.1b", ("gob", "bobby"))]
    assert rules({"grudge": "bobby"}) == [("508.1b", ("grudge", "bobby"))]
    assert rules({"grudge": "bob"}) == [("508.1b", ("grudge", "bob"))]
