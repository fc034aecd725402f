"""The layer system (613), rules a second audit found it got wrong: losing
one keyword ability removed every keyword of its family (113.10b), a
creature with no power or toughness value lost its counters and pumps
(208.5, 613.4c), "colorless" added as a color (105.2c), characteristic-
defining abilities first within layers 2-6 (613.3), and a permanent's
keywords in the dependency order the layer system found (613.8a)."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, Grant, IllegalActionError, Pump, Revoke, new_game
from redzone.kernel.actions import AddContinuous
from redzone.kernel.layers import characteristics
from redzone.kernel.model import GameState, Permanent

engine = Engine()


def _do(state: GameState, *actions: object) -> GameState:
    for action in actions:
        state = engine.perform(state, action).state  # type: ignore[arg-type]
    return state


def _board(*perms: Permanent) -> GameState:
    return new_game(["alice", "bob"], perms)


def _texts(state: GameState, obj: str) -> list[str]:
    return [k.text for k in state.objects[obj].keywords]


def _can_block(state: GameState, attacker: str, blocker: str) -> bool:
    """Whether bob's ``blocker`` may block alice's ``attacker`` attacking bob."""
    state = engine.begin_combat(state).state
    state = engine.declare_attackers(state, {attacker: "bob"}).state
    try:
        engine.declare_blockers(state, {blocker: [attacker]})
    except IllegalActionError:
        return False
    return True


# -- 113.10b, 702.16, 702.14: losing one keyword ability -----------------------------


def _knight_and_wall() -> GameState:
    return _board(engine.creature("knight", "alice", 2, 2, "protection from red",
                                  "protection from white"),
                  engine.creature("wall", "bob", 0, 4, colors=("white",)))


def test_113_10b_revoking_protection_from_red_keeps_protection_from_white() -> None:
    """113.10b: "Effects that remove an ability remove all instances of
    it": the ability "protection from red", not protection from white, a
    separate ability (702.16g): the knight keeps protection from white and
    the white wall can't block it (702.16f)."""
    state = _do(_knight_and_wall(), Revoke("knight", ("protection from red",)))
    assert _texts(state, "knight") == ["protection from white"]
    assert not _can_block(state, "knight", "wall")


def test_113_10b_a_continuous_effect_removing_protection_from_red_keeps_the_other() -> None:
    """113.10b, 613.1f: the same with a continuous effect of layer 6
    ("loses protection from red"): protection from white stays."""
    state = _do(_knight_and_wall(),
                AddContinuous(affects=("knight",), remove_keywords=("protection from red",)))
    assert _texts(state, "knight") == ["protection from white"]
    assert not _can_block(state, "knight", "wall")


def test_113_10b_all_creatures_lose_plainswalk_keeps_swampwalk() -> None:
    """113.10b, 702.14c-e: "All creatures lose plainswalk" removes the
    plainswalk of a cat with plainswalk and swampwalk, not its swampwalk
    (another landwalk ability)."""
    state = _do(_board(engine.creature("cat", "alice", 2, 2, "plainswalk", "swampwalk")),
                AddContinuous(affects_types=("creature",), remove_keywords=("plainswalk",),
                              duration="game"))
    assert _texts(state, "cat") == ["swampwalk"]


def test_113_10b_losing_toxic_2_keeps_toxic_1_and_removes_every_toxic_2() -> None:
    """113.10b: losing "toxic 2" removes every instance of toxic 2
    (printed and granted), and no other toxic ability."""
    snake = engine.creature("snake", "alice", 1, 1, "toxic 1", "toxic 2")
    state = _do(_board(snake), Grant("snake", ("toxic 2",)), Revoke("snake", ("toxic 2",)))
    assert _texts(state, "snake") == ["toxic 1"]


def test_113_10b_losing_flying_removes_every_instance_printed_and_granted() -> None:
    """113.10b: a keyword named as its family (``flying``) is lost in every
    instance, the printed one and one granted earlier."""
    bird = engine.creature("bird", "alice", 1, 1, "flying")
    state = _do(_board(bird), Grant("bird", ("flying",)), Revoke("bird", ("flying",)))
    assert _texts(state, "bird") == []
    state = _do(_board(bird), AddContinuous(affects=("bird",), add_keywords=("flying",)),
                AddContinuous(affects=("bird",), remove_keywords=("flying",)))
    assert _texts(state, "bird") == []


def test_702_11e_losing_hexproof_removes_every_hexproof_from() -> None:
    """702.11e: an effect that makes an object lose hexproof makes it lose
    every "hexproof from [quality]" ability too (a text equal to the
    family's name removes the whole family); "hexproof from red" lost
    alone leaves plain hexproof."""
    elf = engine.creature("elf", "alice", 1, 1, "hexproof", "hexproof from red")
    assert _texts(_do(_board(elf), Revoke("elf", ("hexproof",))), "elf") == []
    assert _texts(_do(_board(elf), Revoke("elf", ("hexproof from red",))), "elf") == [
        "hexproof"]


def test_613_1f_the_revoke_event_names_the_abilities_lost() -> None:
    """613.1f: the ``revoke`` event says which abilities the knight lost,
    as printed (``protection from red``), not their family."""
    out = engine.perform(_knight_and_wall(), Revoke("knight", ("Protection from Red",)))
    [event] = [e for e in out.events if e.kind == "revoke"]
    assert event.get("keywords") == ("protection from red",)


# -- 208.5, 613.4c: a creature with no power or toughness value ----------------------


def test_208_5_a_land_with_counters_that_becomes_a_creature_keeps_them() -> None:
    """208.5, 613.4c: a land with two +1/+1 counters becomes a creature (no
    power or toughness set: each is 0 for a creature) and gets +1/+1: a
    3/3 (counters and the pump in layer 7c), which survives."""
    land = engine.permanent("land", "alice", types=("land",), counters={"+1/+1": 2})
    state = _do(_board(land), AddContinuous(affects=("land",), add_types=("creature",)),
                Pump("land", 1, 1))
    p = state.objects["land"]
    assert (p.zone, p.power, p.toughness) == ("battlefield", 3, 3)


def test_208_5_613_4c_a_creature_with_no_values_counts_its_counters() -> None:
    """208.5, 613.4c: a creature permanent given no power or toughness with
    a +1/+1 counter is a 1/1 (0 plus the counter), with or without a
    continuous effect around."""
    golem = engine.permanent("golem", "alice", types=("artifact", "creature"),
                             counters={"+1/+1": 1})
    p = _board(golem).objects["golem"]
    assert (p.power, p.toughness) == (1, 1)
    state = _do(_board(golem), AddContinuous(affects=("golem",), add_keywords=("flying",)))
    p = state.objects["golem"]
    assert (p.zone, p.power, p.toughness) == ("battlefield", 1, 1)


# -- 105.2c, 702.13b: colorless is no color ------------------------------------------


def test_105_2c_adding_colorless_adds_no_color() -> None:
    """105.2c: colorless is not a color: an effect that "adds" colorless
    gives two colorless creatures no shared color, so the colorless 2/2
    can't block the colorless intimidate creature (702.13b)."""
    state = _board(engine.creature("x", "alice", 2, 2, "intimidate"),
                   engine.creature("y", "bob", 2, 2))
    state = _do(state, AddContinuous(affects_types=("creature",), add_colors=("colorless",),
                                     duration="game"))
    assert state.objects["x"].colors == frozenset()
    assert not _can_block(state, "x", "y")


def test_105_2c_an_effect_on_colorless_creatures_applies_to_those_with_no_color() -> None:
    """105.2c: an object with no color is colorless: an effect on
    "colorless creatures" (``affects_colors=("colorless",)``) gives the
    colorless golem +1/+1, not the red goblin."""
    state = _board(engine.creature("golem", "alice", 2, 2),
                   engine.creature("goblin", "alice", 2, 2, colors=("red",)))
    state = _do(state, AddContinuous(affects_types=("creature",),
                                     affects_colors=("colorless",), power=1, toughness=1))
    assert [(state.objects[i].power, state.objects[i].toughness)
            for i in ("golem", "goblin")] == [(3, 3), (2, 2)]


@pytest.mark.parametrize("field", ["set_colors", "add_colors", "affects_colors"])
def test_105_1_an_effect_with_a_color_that_is_none_of_the_five_is_refused(field: str) -> None:
    """105.1: the five colors are white, blue, black, red and green (and
    "colorless", 105.2c, for none): "purple" is refused with an error
    naming the field."""
    state = _board(engine.creature("x", "alice", 2, 2))
    fields: dict[str, Any] = {field: ("purple",)}
    with pytest.raises(IllegalActionError, match=rf"{field}.*'purple'"):
        engine.perform(state, AddContinuous(affects=("x",), add_types=("artifact",), **fields))


# -- 613.3: characteristic-defining abilities first within layers 2-6 ----------------


def test_613_3_a_cda_color_effect_applies_before_an_earlier_one() -> None:
    """613.3: within layers 2-6, effects from characteristic-defining
    abilities apply first, then the others by timestamp: "all creatures are
    black" (older) applied after the courier's CDA "is all colors" (newer):
    the courier is black only and may block a knight with protection from
    white (702.16f)."""
    state = _board(engine.creature("knight", "alice", 2, 2, "protection from white"),
                   engine.creature("courier", "bob", 3, 3))
    state = _do(state, AddContinuous(affects_types=("creature",), set_colors=("black",),
                                     duration="game"),
                AddContinuous(affects=("courier",), cda=True, duration="game",
                              set_colors=("white", "blue", "black", "red", "green")))
    assert state.objects["courier"].colors == frozenset({"black"})
    assert _can_block(state, "knight", "courier")


def test_613_3_a_cda_ability_effect_applies_before_an_earlier_one_in_layer_6() -> None:
    """613.3 in layer 6: "creatures lose flying" (older) applies after a
    newer characteristic-defining "has flying": no flying."""
    state = _do(_board(engine.creature("x", "alice", 2, 2)),
                AddContinuous(affects_types=("creature",), remove_keywords=("flying",),
                              duration="game"),
                AddContinuous(affects=("x",), add_keywords=("flying",), cda=True,
                              duration="game"))
    assert _texts(state, "x") == []


# -- 613.8a: a permanent's keywords in dependency order ------------------------------


def test_613_8a_a_granted_keyword_before_the_effect_that_depends_on_it() -> None:
    """613.8a: "creatures with flying lose flying" (older) depends on a later
    grant of flying to x (applying the grant changes what it applies to),
    so it applies after it: x has no flying, as the layer system says, and
    bob's bear may block it (702.9b)."""
    lose = AddContinuous(affects_keyword="flying", remove_keywords=("flying",), duration="game")
    state = _board(engine.creature("x", "alice", 2, 2), engine.creature("bear", "bob", 2, 2))
    state = _do(state, lose, Grant("x", ("flying",)))
    chars, _ = characteristics(state)
    assert [k.text for k in chars["x"].keywords] == []
    assert _texts(state, "x") == []
    assert _can_block(state, "x", "bear")


def test_613_3_a_granted_keyword_applies_after_a_newer_cda_effect() -> None:
    """613.3, 613.1f: the bird is granted flying (a modification), then a
    characteristic-defining "has no flying" starts: the CDA's effect
    applies first in layer 6, the grant after it: the bird flies, in its
    keywords as in the layer system's answer."""
    state = _do(_board(engine.creature("bird", "alice", 1, 1)),
                Grant("bird", ("flying",), duration="game"),
                AddContinuous(affects=("bird",), remove_keywords=("flying",), cda=True))
    chars, _ = characteristics(state)
    assert [k.text for k in chars["bird"].keywords] == ["flying"]
    assert _texts(state, "bird") == ["flying"]
