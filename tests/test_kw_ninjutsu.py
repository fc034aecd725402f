"""Ninjutsu (CR 702.49): "[Cost], Reveal this card from your hand, Return an
unblocked attacking creature you control to its owner's hand: Put this card
onto the battlefield from your hand tapped and attacking" (702.49a); only
while a creature is unblocked; the ninja attacks what the returned creature
attacked, unblocked (702.49c)."""

from __future__ import annotations

import pytest
import redzone_keywords.ninjutsu as ninjutsu
from redzone import Engine, GameState, IllegalActionError, Move, Permanent
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import loads
from redzone.testing import KeywordConformance


def board(engine: Engine, *extra: Permanent) -> GameState:
    """alice: a 1/1 rogue and an elf on the battlefield, a 2/2 ninja in hand;
    bob: a 3/3 ogre and a planeswalker."""
    return engine.game(["alice", "bob"], [
        engine.creature("rogue", "alice", 1, 1),
        engine.creature("elf", "alice", 1, 1),
        engine.creature("ninja", "alice", 2, 2, "ninjutsu {1}{U}").evolve(zone="hand"),
        engine.creature("ogre", "bob", 3, 3),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3}),
        *extra])


def blocked(engine: Engine, state: GameState, attacks: dict[str, str]) -> GameState:
    state = engine.begin_combat(state).state
    state = engine.declare_attackers(state, attacks).state
    return engine.declare_blockers(state, {"ogre": "elf"}).state


def refusal(engine: Engine, state: GameState, cost: dict[str, str],
            source: str = "ninja") -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        engine.activate(state, source, "ninjutsu", cost)
    return info.value


def test_702_49a_the_ninja_replaces_an_unblocked_attacker(engine: Engine) -> None:
    """702.49a, 702.49c, 508.4d, 400.7: the unblocked rogue goes to alice's hand
    as a new object; the ninja enters tapped, attacking bob, unblocked, and
    deals its 2 to bob."""
    state = blocked(engine, board(engine), {"rogue": "bob", "elf": "bob"})
    out = engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"})
    ninja, rogue = out.state.objects["ninja"], out.state.objects["rogue"]
    assert rogue.zone == "hand" and rogue.object == 2
    assert ninja.zone == "battlefield" and ninja.tapped and ninja.object == 2
    combat = out.state.combat
    assert combat is not None and combat.attacks.get("ninja") == "bob"
    assert "rogue" not in combat.attacks and "ninja" not in combat.blocked
    assert ("unblocked", "ninja") in [(e.kind, e.object) for e in out.events]
    assert engine.combat_damage(out.state).state.players["bob"].life == 18


def test_702_49c_it_attacks_what_the_returned_creature_attacked(engine: Engine) -> None:
    """702.49c: the rogue attacked the planeswalker, so the ninja does."""
    state = blocked(engine, board(engine), {"rogue": "jace", "elf": "bob"})
    out = engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"})
    assert out.state.combat is not None and out.state.combat.attacks["ninja"] == "jace"


def test_508_4c_the_ninja_never_attacked(engine: Engine) -> None:
    """508.4c, 702.49a: put onto the battlefield attacking, it was never
    declared: its own "whenever this attacks" ability (mobilize) doesn't
    trigger, and no "attack" event names it."""
    state = board(engine)
    state = state.with_permanents({"ninja": state.objects["ninja"].evolve(
        printed_keywords=(*state.objects["ninja"].printed_keywords,
                          engine.keyword("mobilize 1")))})
    state = blocked(engine, state, {"rogue": "bob", "elf": "bob"})
    out = engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"})
    assert not [e for e in out.events if e.kind in ("attack", "trigger")]


def test_702_49c_refused_before_blockers_are_declared(engine: Engine) -> None:
    """702.49c, 509.1h, 602.5: in the declare attackers step no creature is
    unblocked yet: refused, and nothing changes."""
    state = engine.begin_combat(board(engine)).state
    state = engine.declare_attackers(state, {"rogue": "bob"}).state
    err = refusal(engine, state, {"return": "rogue"})
    assert err.rule == "602.5" and "declare_attackers" in str(err)


def test_702_49a_509_1h_511_3_activated_in_the_end_of_combat_step(engine: Engine) -> None:
    """702.49a, 509.1h, 511.3: an unblocked attacker stays unblocked until the
    combat phase ends, and creatures are removed from combat only as the end
    of combat step ends: in the end of combat step the rogue is still an
    unblocked attacking creature, so ninjutsu can return it; the ninja enters
    tapped, attacking bob, unblocked (508.4d)."""
    state = blocked(engine, board(engine), {"rogue": "bob", "elf": "bob"})
    state = engine.end_of_combat(engine.combat_damage(state).state).state
    assert state.step == "end_of_combat"
    try:
        out = engine.activate(state, "ninja", "ninjutsu", {"return": "rogue"})
    except IllegalActionError as err:
        pytest.fail(f"ninjutsu refused in the end of combat step: {err}")
    assert out.state.objects["rogue"].zone == "hand"
    assert out.state.objects["ninja"].zone == "battlefield" and out.state.objects["ninja"].tapped
    combat = out.state.combat
    assert combat is not None and combat.attacks.get("ninja") == "bob"
    assert "ninja" not in combat.blocked


def test_702_49a_an_opponents_unblocked_attacker_cant_be_returned(engine: Engine) -> None:
    """702.49a "Return an unblocked attacking creature you control": bob's
    ninja can't return alice's unblocked rogue (602.5)."""
    shade = engine.creature("shade", "bob", 2, 2, "ninjutsu {1}{U}").evolve(zone="hand")
    state = blocked(engine, board(engine, shade), {"rogue": "bob", "elf": "bob"})
    with pytest.raises(IllegalActionError) as info:
        engine.activate(state, "shade", "ninjutsu", {"return": "rogue"}, player="bob")
    assert info.value.rule == "602.5" and "controlled by 'alice', not 'bob'" in str(info.value)


@pytest.mark.parametrize(("returned", "why"), [
    ("elf", "blocked"), ("ogre", "not an attacking creature")])
def test_702_49a_only_an_unblocked_attacker_you_control(engine: Engine, returned: str,
                                                         why: str) -> None:
    """702.49a: "an unblocked attacking creature you control": a blocked
    attacker or bob's creature can't be returned (602.5)."""
    state = blocked(engine, board(engine), {"rogue": "bob", "elf": "bob"})
    err = refusal(engine, state, {"return": returned})
    assert err.rule == "602.5" and why in str(err)


def test_113_6_it_functions_only_from_the_hand(engine: Engine) -> None:
    """702.49a, 113.6: a ninja on the battlefield can't use ninjutsu."""
    on_field = engine.creature("ninja2", "alice", 2, 2, "ninjutsu {U}")
    state = blocked(engine, board(engine, on_field), {"rogue": "bob", "elf": "bob"})
    assert refusal(engine, state, {"return": "rogue"}, source="ninja2").rule == "113.6"


def test_602_2b_the_cost_must_name_the_creature(engine: Engine) -> None:
    """602.2b: the cost's one choice is required and must name an object."""
    state = blocked(engine, board(engine), {"rogue": "bob", "elf": "bob"})
    assert refusal(engine, state, {}).rule == "602.2b"
    assert refusal(engine, state, {"return": "nobody"}).rule == "602.2b"


def test_508_4a_move_onto_the_battlefield_attacking_outside_combat(engine: Engine) -> None:
    """508.4a, 400.7: a card moved onto the battlefield "attacking" outside
    combat enters, tapped, and isn't attacking; the reason is an event."""
    out = engine.perform(board(engine), Move("ninja", "battlefield", tapped=True,
                                             attacking="bob"))
    assert out.state.objects["ninja"].zone == "battlefield" and out.state.objects["ninja"].tapped
    assert out.state.combat is None or "ninja" not in out.state.combat.attacks
    assert "not_attacking" in [e.kind for e in out.events]


def test_508_4_a_move_to_another_zone_refuses_entering_details(engine: Engine) -> None:
    """508.4: only what is put onto the battlefield enters tapped or attacking."""
    with pytest.raises(IllegalActionError) as info:
        engine.perform(board(engine), Move("ninja", "graveyard", tapped=True))
    assert info.value.rule == "508.4"


def test_107_4_the_mana_cost_form_parses_and_rejects_nonsense(engine: Engine) -> None:
    """107.4: ``ninjutsu {cost}`` reads mana symbols in braces."""
    assert engine.keyword("ninjutsu {2}{U}{B}").args == ("{2}{u}{b}",)
    assert engine.keyword("ninjutsu {W/U}").args == ("{w/u}",)
    from redzone import UnknownKeywordError

    with pytest.raises(UnknownKeywordError):
        engine.keyword("ninjutsu {banana}")


SCENARIO = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "rogue"
controller = "alice"
power = 1
toughness = 1

[[permanents]]
id = "ninja"
name = "Ninja of the Deep Hours"
controller = "alice"
power = 2
toughness = 2
keywords = ["ninjutsu {1}{U}"]
zone = "hand"

[combat]
attacks = { rogue = "bob" }

[[combat.actions]]
after = "declare_blockers"
do = "activate"
source = "ninja"
ability = "ninjutsu"
cost = { return = "rogue" }
"""


def test_702_49a_from_a_scenario_file_as_the_contract_writes_it() -> None:
    """702.49a: the contract's ``do = "activate"`` with ``cost = { return }``:
    the ninja deals 2 to bob, the rogue is in alice's hand (zones)."""
    out = outcome_json(resolve(loads(SCENARIO)))
    assert out["ok"] is True, out
    assert out["players"]["bob"]["life"] == 18
    assert out["permanents"]["rogue"]["zone"] == "hand"
    assert out["permanents"]["ninja"]["object"] == 2
    assert out["zones"]["alice"]["hand"] == ["rogue"]


class TestNinjutsuConformance(KeywordConformance):
    """The conformance kit's invariants hold with ninjutsu on generated boards."""

    plugin = ninjutsu
    max_examples = 10
