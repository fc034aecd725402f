"""Declaring blockers (509.1a-h), with the core alone and with tiny test
plugins for the block hooks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from redzone import (
    UNLIMITED,
    BecomeBlocked,
    Engine,
    GameState,
    IllegalActionError,
    IllegalBlockError,
    LeaveBattlefield,
    Permanent,
    RemoveFromCombat,
    UnknownObjectError,
    Violation,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.testing import plugin_module as plugin


def attacked(engine: Engine, state: GameState, attacks: Mapping[str, str]) -> GameState:
    return engine.declare_attackers(state, attacks).state


def reject(engine: Engine, state: GameState, blocks: Mapping[str, Any]) -> IllegalBlockError:
    """Declare, expect rejection, and check that nothing changed (733)."""
    before = state_to_dict(state)
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, blocks)
    assert state_to_dict(state) == before
    assert info.value.kind == "illegal_block"
    return info.value


@pytest.fixture
def attack(bare_engine: Engine) -> GameState:
    """alice's orc and elf attack bob."""
    state = bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 2, 2), creature("elf", "alice", 1, 1),
        creature("idle", "alice", 1, 1),
        creature("bear", "bob", 2, 2), creature("wolf", "bob", 3, 3),
        creature("sleepy", "bob", 2, 2, tapped=True),
        Permanent("rock", "bob", types={"artifact"}),
    ])
    return attacked(bare_engine, state, {"orc": "bob", "elf": "bob"})


def test_509_1_legal_declaration(bare_engine: Engine, attack: GameState) -> None:
    """509.1a, 509.1g-h: blockers block the chosen attackers; an attacker with
    blockers becomes blocked, one without stays unblocked."""
    out = bare_engine.declare_blockers(attack, {"bear": "orc", "wolf": ["orc"]})
    combat = out.state.combat
    assert combat is not None
    assert dict(combat.blocks) == {"bear": ("orc",), "wolf": ("orc",)}
    assert combat.blocked == frozenset({"orc"})
    assert combat.blockers_of("orc") == ("bear", "wolf")
    assert [(e.kind, e.blocker, e.attacker) for e in out.events if e.kind == "block"] == [
        ("block", "bear", "orc"), ("block", "wolf", "orc")]
    assert [e.object for e in out.events if e.kind == "blocked"] == ["orc"]
    assert out.state.step == "declare_blockers"
    # 509.1: blocking doesn't tap.
    assert not out.state.objects["bear"].tapped


def test_509_1a_no_blocks_is_legal(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: the defending player chooses which creatures, if any, block;
    an empty list of attackers is no block."""
    out = bare_engine.declare_blockers(attack, {"bear": []})
    assert out.state.combat is not None
    assert dict(out.state.combat.blocks) == {}
    assert out.state.combat.blocked == frozenset()


def test_509_1a_nonexistent_blocker(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: only creatures the defending player controls can block."""
    err = reject(bare_engine, attack, {"ghost": "orc"})
    assert (err.rule, err.objects) == ("509.1a", ("ghost",))


def test_506_3_noncreature_cannot_block(bare_engine: Engine, attack: GameState) -> None:
    """506.3: only a creature can block."""
    err = reject(bare_engine, attack, {"rock": "orc"})
    assert (err.rule, err.objects) == ("506.3", ("rock",))


def test_509_1a_tapped_creature_cannot_block(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: the chosen creatures must be untapped."""
    err = reject(bare_engine, attack, {"sleepy": "orc"})
    assert (err.rule, err.objects) == ("509.1a", ("sleepy",))
    assert "tapped" in err.message


def test_509_1a_attacking_player_cannot_block(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: the defending player chooses creatures *they* control."""
    err = reject(bare_engine, attack, {"idle": "orc"})
    assert (err.rule, err.objects) == ("509.1a", ("idle",))


def test_509_1a_battle_cannot_block(bare_engine: Engine) -> None:
    """509.1a: the chosen creatures can't also be battles."""
    odd = Permanent("odd", "bob", types={"creature", "battle"}, base_power=1,
                    base_toughness=1, counters={"defense": 2}, protector="alice")
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2), odd])
    err = reject(bare_engine, attacked(bare_engine, state, {"orc": "bob"}), {"odd": "orc"})
    assert err.rule == "509.1a"
    assert "battle" in err.message


def test_509_1a_can_only_block_attacking_creatures(bare_engine: Engine,
                                                   attack: GameState) -> None:
    """509.1a: a blocker blocks a creature that is attacking."""
    err = reject(bare_engine, attack, {"bear": "idle"})
    assert (err.rule, err.objects) == ("509.1a", ("bear", "idle"))
    err = reject(bare_engine, attack, {"bear": "nothing"})
    assert (err.rule, err.objects) == ("509.1a", ("bear", "nothing"))


def test_509_1a_declared_twice(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: one creature is chosen for each blocker to block, once."""
    err = reject(bare_engine, attack, {"bear": ["orc", "orc"]})
    assert err.rule == "509.1a"
    assert "twice" in err.message
    assert set(err.objects) == {"bear", "orc"}


def test_509_1a_attackers_named_by_id(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: a malformed declaration is an illegal block, not a crash."""
    err = reject(bare_engine, attack, {"bear": [["orc"]]})
    assert (err.rule, err.objects) == ("509.1a", ("bear",))
    err = reject(bare_engine, attack, {"bear": 7})
    assert err.rule == "509.1a"


def test_509_1a_one_attacker_per_blocker(bare_engine: Engine, attack: GameState) -> None:
    """509.1a: each blocker blocks one attacker unless an ability says more."""
    err = reject(bare_engine, attack, {"bear": ["orc", "elf"]})
    assert err.rule == "509.1a"
    assert "only 1 creature" in err.message


def test_509_1a_can_block_additional(bare_engine: Engine) -> None:
    """509.1a / 702.22-style capacity: "can block an additional creature" and
    "any number of creatures"."""
    state = bare_engine.game(["alice", "bob"], [
        creature("a", "alice", 1, 1), creature("b", "alice", 1, 1), creature("c", "alice", 1, 1),
        creature("brigade", "bob", 2, 4, can_block_additional=1),
        creature("hydra", "bob", 2, 4, can_block_additional=UNLIMITED)])
    state = attacked(bare_engine, state, {"a": "bob", "b": "bob", "c": "bob"})
    out = bare_engine.declare_blockers(state, {"brigade": ["a", "b"]})
    assert out.state.combat is not None
    assert out.state.combat.blocked == frozenset({"a", "b"})
    err = reject(bare_engine, state, {"brigade": ["a", "b", "c"]})
    assert "only 2 creatures" in err.message
    assert bare_engine.declare_blockers(state, {"hydra": ["a", "b", "c"]}).state.combat


def test_509_1a_additional_blocks_hook() -> None:
    """redzone_additional_blocks: answers are added to the permanent's own."""
    engine = Engine(discover=False, plugins=[
        plugin("extra_one", redzone_additional_blocks=lambda blocker: 1 if blocker == "w" else 0),
        plugin("extra_two", redzone_additional_blocks=lambda blocker: 1 if blocker == "w" else 0),
    ])
    state = engine.game(["alice", "bob"], [
        creature("a", "alice", 1, 1), creature("b", "alice", 1, 1), creature("c", "alice", 1, 1),
        creature("d", "alice", 1, 1), creature("w", "bob", 0, 4)])
    state = attacked(engine, state, {"a": "bob", "b": "bob", "c": "bob", "d": "bob"})
    assert engine.declare_blockers(state, {"w": ["a", "b", "c"]}).state.combat
    with pytest.raises(IllegalBlockError):
        engine.declare_blockers(state, {"w": ["a", "b", "c", "d"]})


def test_509_1a_multiplayer_block_only_attackers_of_your_own(bare_engine: Engine) -> None:
    """509.1a, 506.2a: alice attacks bob and carol; carol's creature can block
    only a creature attacking carol, her planeswalkers or battles she protects."""
    state = bare_engine.game(["alice", "bob", "carol"], [
        creature("at_bob", "alice", 2, 2), creature("at_carol", "alice", 2, 2),
        creature("at_walker", "alice", 2, 2),
        Permanent("jace", "carol", types={"planeswalker"}, counters={"loyalty": 4}),
        creature("carols", "carol", 1, 1), creature("carols2", "carol", 1, 1),
        creature("bobs", "bob", 1, 1)])
    state = attacked(bare_engine, state,
                     {"at_bob": "bob", "at_carol": "carol", "at_walker": "jace"})
    err = reject(bare_engine, state, {"carols": "at_bob"})
    assert (err.rule, err.objects) == ("509.1a", ("at_bob", "carols"))
    assert "'bob' defends" in err.message
    err = reject(bare_engine, state, {"bobs": "at_walker"})
    assert err.objects == ("at_walker", "bobs")
    out = bare_engine.declare_blockers(state, {"carols": "at_carol", "carols2": "at_walker",
                                               "bobs": "at_bob"})
    assert out.state.combat is not None
    assert out.state.combat.blocked == frozenset({"at_bob", "at_carol", "at_walker"})
    assert bare_engine.legal_blockers(state, "at_bob") == ("bobs",)
    assert bare_engine.legal_blockers(state, "at_walker") == ("carols", "carols2")


def test_310_8_protector_blocks_for_a_battle(bare_engine: Engine) -> None:
    """310.8 / 509.1a: creatures attacking a battle are blocked by its protector's
    creatures, not by its controller's."""
    state = bare_engine.game(["alice", "bob", "carol"], [
        creature("orc", "alice", 2, 2),
        Permanent("siege", "carol", types={"battle"}, subtypes=("Siege",),
                  counters={"defense": 3}, protector="bob"),
        creature("bobs", "bob", 1, 1), creature("carols", "carol", 1, 1)])
    state = attacked(bare_engine, state, {"orc": "siege"})
    assert bare_engine.legal_blockers(state, "orc") == ("bobs",)
    reject(bare_engine, state, {"carols": "orc"})
    assert bare_engine.declare_blockers(state, {"bobs": "orc"}).state.combat


def test_509_1b_restriction_and_exemption_hooks() -> None:
    """509.1b via redzone_block_violations / redzone_block_exemption: a named
    restriction makes the block illegal unless another ability lifts it."""
    def redzone_block_violations(state: GameState, blocker: str,
                                 attacker: str) -> list[Violation]:
        if attacker == "bird" and not state.objects[blocker].name.startswith("tall"):
            return [Violation("702.9b", f"bird can't be blocked by {blocker}",
                              (blocker, attacker), restriction="air")]
        return []

    def redzone_block_exemption(blocker: str, violation: Violation) -> bool:
        return blocker == "archer" and violation.restriction == "air"

    engine = Engine(discover=False, plugins=[
        plugin("air", redzone_block_violations=redzone_block_violations),
        plugin("bows", redzone_block_exemption=redzone_block_exemption)])
    state = engine.game(["alice", "bob"], [
        creature("bird", "alice", 1, 1), creature("bear", "bob", 2, 2),
        creature("archer", "bob", 1, 2), creature("tall", "bob", 1, 5, name="tall giant")])
    state = attacked(engine, state, {"bird": "bob"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"bear": "bird"})
    assert (info.value.rule, info.value.objects) == ("702.9b", ("bear", "bird"))
    assert engine.declare_blockers(state, {"archer": "bird", "tall": "bird"}).state.combat
    assert engine.legal_blockers(state, "bird") == ("archer", "tall")
    assert [v.rule for v in engine.block_violations(state, {"bear": "bird"})] == ["702.9b"]


def test_509_1b_blocked_by_hook_sees_all_blockers() -> None:
    """509.1b / 702.111b via redzone_blocked_by_violations: "can't be blocked
    except by two or more creatures" judges all of an attacker's blockers."""
    seen: list[tuple[str, tuple[str, ...]]] = []

    def redzone_blocked_by_violations(attacker: str,
                                      blockers: tuple[str, ...]) -> list[Violation]:
        seen.append((attacker, blockers))
        if attacker == "brute" and len(blockers) < 2:
            return [Violation("702.111b", "brute needs two blockers", (attacker, *blockers))]
        return []

    engine = Engine(discover=False, plugins=[plugin("pair", redzone_blocked_by_violations=(
        redzone_blocked_by_violations))])
    state = engine.game(["alice", "bob"], [
        creature("brute", "alice", 3, 3), creature("x", "bob", 1, 1), creature("y", "bob", 1, 1)])
    state = attacked(engine, state, {"brute": "bob"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"x": "brute"})
    assert info.value.rule == "702.111b"
    assert engine.declare_blockers(state, {"x": "brute", "y": "brute"}).state.combat
    assert seen[-1] == ("brute", ("x", "y"))
    # A pair-wise query does not apply whole-declaration restrictions.
    assert engine.legal_blockers(state, "brute") == ("x", "y")


def test_509_1c_requirement_hook_sees_the_whole_declaration() -> None:
    """509.1c via redzone_block_declaration_violations: "blocks each combat if
    able" is checked on the whole, read-only declaration."""
    seen: list[Mapping[str, tuple[str, ...]]] = []

    def redzone_block_declaration_violations(
            state: GameState, blocks: Mapping[str, tuple[str, ...]]) -> list[Violation]:
        seen.append(blocks)
        if "eager" not in blocks:
            return [Violation("509.1c", "eager blocks each combat if able", ("eager",))]
        return []

    engine = Engine(discover=False, plugins=[plugin("eager", **{
        "redzone_block_declaration_violations": redzone_block_declaration_violations})])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           creature("eager", "bob", 1, 1)])
    state = attacked(engine, state, {"orc": "bob"})
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {})
    assert info.value.rule == "509.1c"
    assert engine.declare_blockers(state, {"eager": "orc"}).state.combat
    assert dict(seen[-1]) == {"eager": ("orc",)}
    with pytest.raises(TypeError):
        seen[-1]["eager"] = ()  # type: ignore[index]


def test_509_1h_blocker_removed_attacker_stays_blocked(bare_engine: Engine,
                                                       attack: GameState) -> None:
    """509.1h, 510.1c: a creature remains blocked even if all the creatures
    blocking it are removed from combat, and then assigns no combat damage."""
    blocked = bare_engine.declare_blockers(attack, {"bear": "orc"}).state
    for action in (RemoveFromCombat("bear"), LeaveBattlefield("bear")):
        state = bare_engine.perform(blocked, action).state
        assert state.combat is not None
        assert "orc" in state.combat.blocked
        assert state.combat.blockers_of("orc") == ()
        out = bare_engine.combat_damage(state)
        assert not [e for e in out.events if e.kind == "damage" and e.source == "orc"]
        assert out.state.players["bob"].life == 19  # only the unblocked elf connects


def test_509_1h_blocked_attacker_may_assign_past_removed_blockers() -> None:
    """510.1c / 702.19e via redzone_assigns_past_blockers: a blocked creature
    allowed to assign to what it attacks does so when no blocker remains."""
    engine = Engine(discover=False, plugins=[plugin("past", redzone_assigns_past_blockers=(
        lambda attacker: attacker == "orc"))])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           creature("bear", "bob", 2, 2)])
    state = engine.declare_blockers(attacked(engine, state, {"orc": "bob"}), {"bear": "orc"}).state
    state = engine.perform(state, RemoveFromCombat("bear")).state
    out = engine.combat_damage(state)
    assert out.state.players["bob"].life == 18


def test_509_1h_become_blocked_action(bare_engine: Engine, attack: GameState) -> None:
    """509.1h: an effect says an unblocked attacker becomes blocked; with no
    creature blocking it, it assigns no combat damage (510.1c)."""
    state = bare_engine.declare_blockers(attack, {}).state
    out = bare_engine.perform(state, BecomeBlocked("orc"))
    assert out.state.combat is not None
    assert "orc" in out.state.combat.blocked
    assert [(e.kind, e.rule) for e in out.events] == [("blocked", "509.1h")]
    dealt = bare_engine.combat_damage(out.state)
    assert dealt.state.players["bob"].life == 19  # the elf only


def test_509_1h_become_blocked_needs_an_attacker_and_declared_blockers(
        bare_engine: Engine, attack: GameState) -> None:
    """509.1h: only an attacking creature can become blocked, and not before
    blockers are declared."""
    with pytest.raises(IllegalActionError) as info:
        bare_engine.perform(attack, BecomeBlocked("orc"))
    assert info.value.rule == "509.1h"
    state = bare_engine.declare_blockers(attack, {}).state
    for target in ("bear", "idle"):
        with pytest.raises(IllegalActionError) as info:
            bare_engine.perform(state, BecomeBlocked(target))
        assert (info.value.rule, info.value.objects) == ("509.1h", (target,))


def test_506_4c_attacker_of_a_removed_planeswalker_may_be_blocked(bare_engine: Engine) -> None:
    """506.4c: a creature attacking a planeswalker that left combat keeps
    attacking nothing; it may be blocked; unblocked it deals no damage."""
    state = bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 2, 2), creature("elf", "alice", 1, 1),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3}),
        creature("bear", "bob", 2, 2)])
    state = attacked(bare_engine, state, {"orc": "jace", "elf": "jace"})
    state = bare_engine.perform(state, LeaveBattlefield("jace")).state
    assert state.combat is not None
    assert dict(state.combat.attacks) == {"orc": None, "elf": None}
    state = bare_engine.declare_blockers(state, {"bear": "orc"}).state
    out = bare_engine.combat_damage(state)
    damage = [(e.source, e.target, e.amount) for e in out.events if e.kind == "damage"]
    assert sorted(damage) == [("bear", "orc", 2), ("orc", "bear", 2)]


def test_block_violations_query_without_combat(bare_engine: Engine) -> None:
    """509.1: blocks need a combat; the query says so instead of raising.
    ``legal_blockers`` of an object that isn't an attacking creature is
    none; of an id the state doesn't have (or what isn't an id), an
    ``UnknownObjectError`` naming it, as every query given an unknown id."""
    state = bare_engine.game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    assert bare_engine.block_violations(state, {"bear": "x"})[0].rule == "509.1"
    assert bare_engine.legal_blockers(state, "bear") == ()
    for unknown in ("x", None, 5):
        with pytest.raises(UnknownObjectError,
                           match=rf"legal_blockers: attacker {unknown!r} is not an object"):
            bare_engine.legal_blockers(state, unknown)  # type: ignore[arg-type]


def test_509_1a_a_tapped_blocker_is_a_named_restriction_an_ability_can_lift() -> None:
    """509.1a ("The chosen creatures must be untapped") is a restriction
    named ``"tapped"``, so an ability such as Masako the Humorless's
    ("tapped creatures you control can block as though they were
    untapped") lifts it through ``redzone_block_exemption``; the enumerator
    and the query agree with the command, and without the ability the
    tapped bear still can't block."""
    def redzone_block_exemption(state: GameState, blocker: str,
                                violation: Violation) -> bool:
        return violation.restriction == "tapped" and \
            state.objects[blocker].controller == "bob"

    def board(engine: Engine) -> GameState:
        state = engine.game(["alice", "bob"], [
            creature("bird", "alice", 1, 1), creature("bear", "bob", 2, 2, tapped=True)])
        return attacked(engine, state, {"bird": "bob"})

    masako = Engine(discover=False, plugins=[
        plugin("masako", redzone_block_exemption=redzone_block_exemption)])
    state = board(masako)
    assert masako.legal_blockers(state, "bird") == ("bear",)
    assert [dict(d) for d in masako.legal_block_declarations(state)] == [{}, {"bear": ("bird",)}]
    assert masako.block_violations(state, {"bear": "bird"}) == ()
    out = masako.declare_blockers(state, {"bear": "bird"}).state
    assert out.combat is not None and out.combat.blocks["bear"] == ("bird",)
    plain = Engine(discover=False)
    state = board(plain)
    assert plain.legal_blockers(state, "bird") == ()
    with pytest.raises(IllegalBlockError) as info:
        plain.declare_blockers(state, {"bear": "bird"})
    assert info.value.rule == "509.1a" and "tapped" in str(info.value)


def test_508_1a_a_tapped_attacker_is_a_named_restriction_an_ability_can_lift() -> None:
    """508.1a ("The chosen creatures must be untapped") is a restriction
    named ``"tapped"`` too, which ``redzone_attack_exemption`` can lift."""
    def redzone_attack_exemption(violation: Violation) -> bool:
        return violation.restriction == "tapped"

    engine = Engine(discover=False, plugins=[
        plugin("eager", redzone_attack_exemption=redzone_attack_exemption)])
    state = engine.game(["alice", "bob"], [creature("bear", "alice", 2, 2, tapped=True)])
    assert engine.legal_attackers(state) == ("bear",)
    out = engine.declare_attackers(state, {"bear": "bob"}).state
    assert out.combat is not None and out.combat.attacks["bear"] == "bob"
    assert Engine(discover=False).legal_attackers(state) == ()


def test_509_1a_509_1b_every_violation_of_a_blocker_is_listed() -> None:
    """509.1a-b: the defending player's declaration is checked for every
    requirement of 509.1a and every restriction of each creature (509.1b);
    the error lists each violation, not only the first kind found: a tapped
    bear blocking a flyer breaks 509.1a and 702.9b; an ogre that can block
    one creature blocking a flyer and a skulk creature breaks 509.1a,
    702.9b and 702.118b; a blocker naming a creature that isn't attacking
    still has its other blocks checked."""
    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("drake", "alice", 2, 2, "flying"), c("sk", "alice", 1, 1, "skulk"),
        c("bear", "bob", 2, 2, tapped=True), c("ogre", "bob", 3, 3)])
    state = engine.declare_attackers(state, {"drake": "bob", "sk": "bob"}).state

    def rules(blocks: Mapping[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
        return sorted((v.rule, v.objects) for v in reject(engine, state, blocks).violations)

    assert rules({"bear": "drake"}) == [("509.1a", ("bear",)), ("702.9b", ("bear", "drake"))]
    assert rules({"ogre": ["drake", "sk"]}) == [
        ("509.1a", ("ogre", "drake", "sk")), ("702.118b", ("ogre", "sk")),
        ("702.9b", ("ogre", "drake"))]
    assert rules({"ogre": ["drake", "zz"]}) == [
        ("509.1a", ("ogre", "drake", "zz")), ("509.1a", ("ogre", "zz")),
        ("702.9b", ("ogre", "drake"))]
