"""Afterlife (CR 702.135): "When this permanent is put into a graveyard from the
battlefield, create N 1/1 white and black Spirit creature tokens with flying"
(702.135a); battalion (ability word, 207.2c): "Whenever this creature and at
least two other creatures attack, it gets +N/+M until end of turn"."""

from __future__ import annotations

import redzone_keywords.afterlife as afterlife
import redzone_keywords.battalion as battalion
from redzone import CreateToken, Destroy, Engine, GameState, Grant, Move, Permanent
from redzone.testing import KeywordConformance


def soul(engine: Engine, *keywords: str) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature("soul", "alice", 2, 2, *keywords),
                                          engine.creature("ogre", "bob", 3, 3)])


def spirits(state: GameState) -> list[Permanent]:
    return sorted((p for p in state.battlefield if p.token), key=lambda p: p.id)


def test_702_135a_dying_in_combat_makes_n_flying_spirits(engine: Engine) -> None:
    """702.135a, 111.2: afterlife 2, killed by its blocker: two 1/1 white and
    black Spirit creature tokens with flying, alice's, untapped and not in
    combat, with the ids <card>.afterlife.<n>."""
    state = soul(engine, "afterlife 2")
    result = engine.resolve(state, {"soul": "bob"}, {"ogre": "soul"})
    made = spirits(result.state)
    assert [p.id for p in made] == ["soul.afterlife.1", "soul.afterlife.2"]
    for p in made:
        assert (p.power, p.toughness, p.controller, p.name) == (1, 1, "alice", "Spirit")
        assert set(p.colors) == {"white", "black"} and p.has("flying")
        assert "creature" in p.types and "Spirit" in p.subtypes and not p.tapped
        assert p.id not in (result.state.combat.attacks if result.state.combat else {})


def test_702_135b_each_instance_triggers(engine: Engine) -> None:
    """702.135b: afterlife 1 twice: two triggers, a Spirit each."""
    out = engine.perform(soul(engine, "afterlife 1", "afterlife 1"), Destroy("soul"))
    assert sum(1 for e in out.events if e.kind == "trigger") == 2
    assert len(spirits(out.state)) == 2


def test_603_10a_granted_afterlife_looks_back_and_not_on_exile(engine: Engine) -> None:
    """603.10a: afterlife granted until end of turn triggers as it dies;
    702.135a "put into a graveyard": exiled, nothing."""
    state = engine.perform(soul(engine), Grant("soul", ("afterlife 1",))).state
    assert len(spirits(engine.perform(state, Destroy("soul")).state)) == 1
    from redzone import Exile

    assert spirits(engine.perform(soul(engine, "afterlife 1"), Exile("soul")).state) == []


def test_603_3a_spirits_go_to_the_controller_as_it_died(engine: Engine) -> None:
    """603.3a, 111.2: bob controls the dying creature, so bob's ability makes
    bob's Spirits, although alice owns the card."""
    from redzone import GainControl

    state = engine.perform(soul(engine, "afterlife 1"), GainControl("soul", "bob")).state
    made = spirits(engine.perform(state, Destroy("soul")).state)
    assert [p.controller for p in made] == ["bob"]


def test_111_1_token_ids_skip_taken_ones(engine: Engine) -> None:
    """111.1: an id already used by another object isn't reused."""
    state = soul(engine, "afterlife 2")
    taken = Permanent("soul.afterlife.1", "bob", name="Other", base_power=1, base_toughness=1,
                      token=True)
    state = engine.perform(state, CreateToken(taken)).state
    made = [p.id for p in spirits(engine.perform(state, Destroy("soul")).state)
            if p.controller == "alice"]
    assert made == ["soul.afterlife.2", "soul.afterlife.3"]


def army(engine: Engine, *others: str) -> GameState:
    return engine.game(["alice", "bob"], [
        engine.creature("elite", "alice", 1, 1, "battalion +2/+2"),
        *(engine.creature(o, "alice", 1, 1) for o in others)])


def test_207_2c_battalion_with_two_others_gets_the_pump(engine: Engine) -> None:
    """207.2c (Boros Elite): it and two other creatures attack: +2/+2 until end
    of turn, after the trigger resolves in the declare attackers step."""
    state = army(engine, "a", "b")
    state = engine.begin_combat(state).state
    out = engine.declare_attackers(state, {"elite": "bob", "a": "bob", "b": "bob"})
    elite = out.state.objects["elite"]
    assert (elite.power, elite.toughness) == (3, 3)
    assert [e.kind for e in out.events].count("trigger") == 1


def test_207_2c_battalion_needs_two_others_and_itself(engine: Engine) -> None:
    """207.2c: with one other attacker, no trigger; with three others attacking
    and the battalion creature home, no trigger either."""
    state = engine.begin_combat(army(engine, "a", "b", "c")).state
    two = engine.declare_attackers(state, {"elite": "bob", "a": "bob"})
    assert not [e for e in two.events if e.kind == "trigger"]
    home = engine.declare_attackers(state, {"a": "bob", "b": "bob", "c": "bob"})
    assert not [e for e in home.events if e.kind == "trigger"]
    assert home.state.objects["elite"].power == 1


def test_207_2c_battalion_gives_its_own_plus_n_plus_m(engine: Engine) -> None:
    """207.2c, with the amounts it is written with: ``battalion +2/+1`` ("it
    gets +2/+1 until end of turn") makes the 1/1 a 3/2, not a 3/3."""
    state = engine.game(["alice", "bob"], [
        engine.creature("elite", "alice", 1, 1, "battalion +2/+1"),
        *(engine.creature(o, "alice", 1, 1) for o in ("a", "b"))])
    out = engine.declare_attackers(state, {"elite": "bob", "a": "bob", "b": "bob"})
    elite = out.state.objects["elite"]
    assert (elite.power, elite.toughness) == (3, 2)


def test_603_2_each_battalion_instance_triggers(engine: Engine) -> None:
    """603.2, 207.2c: each instance of the triggered ability triggers: two
    ``battalion +1/+1`` give two triggers, +2/+2 in all."""
    state = engine.game(["alice", "bob"], [
        engine.creature("elite", "alice", 1, 1, "battalion +1/+1", "battalion +1/+1"),
        *(engine.creature(o, "alice", 1, 1) for o in ("a", "b"))])
    out = engine.declare_attackers(state, {"elite": "bob", "a": "bob", "b": "bob"})
    elite = out.state.objects["elite"]
    assert (elite.power, elite.toughness) == (3, 3)
    assert [e.kind for e in out.events].count("trigger") == 2


def test_508_3a_508_4_creatures_put_onto_the_battlefield_attacking_do_not_trigger(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the
    battlefield attacking" (508.4). The battalion creature and two others
    enter the battlefield attacking bob together (``Move``s, with their
    ``enters_battlefield`` events): none of them was declared as an
    attacker, so battalion doesn't trigger and it stays 1/1."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("bear", "alice", 2, 2), c("elite", "alice", 1, 1, "battalion +2/+2", zone="hand"),
        *(c(o, "alice", 1, 1, zone="hand") for o in ("a", "b"))])
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    out = engine.perform(state, [Move(o, "battlefield", attacking="bob")
                                 for o in ("elite", "a", "b")])
    assert out.state.combat is not None
    assert [out.state.combat.attacks[o] for o in ("elite", "a", "b")] == ["bob"] * 3
    assert [e for e in out.events if e.kind == "trigger"] == []
    elite = out.state.objects["elite"]
    assert (elite.power, elite.toughness) == (1, 1)


def test_611_2a_the_battalion_pump_ends_with_the_turn(engine: Engine) -> None:
    """611.2a, 514.2: "until end of turn": gone after cleanup."""
    result = engine.resolve(army(engine, "a", "b"), {"elite": "bob", "a": "bob", "b": "bob"},
                            through="cleanup")
    assert result.state.objects["elite"].power == 1
    assert any(e.kind == "trigger" for e in result.events)


class TestAfterlifeConformance(KeywordConformance):
    """The conformance kit's invariants hold with afterlife on generated boards."""

    plugin = afterlife
    max_examples = 10


class TestBattalionConformance(KeywordConformance):
    """The conformance kit's invariants hold with battalion on generated boards."""

    plugin = battalion
    max_examples = 10
