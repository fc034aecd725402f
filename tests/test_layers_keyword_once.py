"""A keyword an effect grants in layer 6 is granted once (613.1f).

The layer system writes layers 1 and 3-5 into a permanent's fields and
applies layer 6 when its keywords are read; it wrote the keywords as they
stood after layer 6 too, so every keyword an ``AddContinuous`` effect
granted was there twice. For most keywords a second instance is redundant
(702.2f, 702.7c...), so a check by name couldn't see it; for a keyword
whose instances add up it doubled the outcome: one effect granting
"toxic 2" gave 4 poison counters (702.164b-c).
"""

from __future__ import annotations

import pytest
from redzone import Engine, Revoke, new_game
from redzone.kernel.actions import AddContinuous
from redzone.kernel.model import GameState

engine = Engine()


def _ogre(*keywords: str) -> GameState:
    return new_game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3, *keywords)])


def _texts(state: GameState) -> list[str]:
    return [k.text for k in state.objects["ogre"].keywords]


@pytest.mark.parametrize("effect", [
    AddContinuous(affects=("ogre",), add_keywords=("toxic 2",)),
    AddContinuous(affects_types=("creature",), add_keywords=("toxic 2",)),
    AddContinuous(affects=("ogre",), add_keywords=("toxic 2",), locked=True),
], ids=["ids", "filter", "locked"])
def test_613_1f_702_164c_one_effect_granting_toxic_2_gives_2_poison(
        effect: AddContinuous) -> None:
    """702.164b-c: the defending player gets poison counters equal to the
    creature's total toxic value, the sum of the N of its toxic abilities;
    one effect granting "toxic 2" (613.1f) gives it one instance: 2."""
    state = engine.perform(engine.begin_combat(_ogre()).state, effect).state
    assert _texts(state) == ["toxic 2"]
    state = engine.declare_attackers(state, {"ogre": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    assert state.players["bob"].poison == 2
    assert state.players["bob"].life == 17


def test_613_1f_a_granted_keyword_beside_a_printed_one_is_one_more_instance() -> None:
    """A printed "toxic 1" and a granted "toxic 2": two instances, total 3."""
    state = engine.perform(_ogre("toxic 1"),
                           AddContinuous(affects=("ogre",), add_keywords=("toxic 2",))).state
    assert _texts(state) == ["toxic 1", "toxic 2"]


def test_613_1f_a_grant_after_the_effect_keeps_its_place_once() -> None:
    """An effect's grant and a later Revoke of it (113.10b) in timestamp
    order: the keyword is gone, and no copy of it stays behind."""
    state = engine.perform(_ogre(), AddContinuous(affects=("ogre",),
                                                  add_keywords=("flying",))).state
    assert _texts(state) == ["flying"]
    state = engine.perform(state, Revoke("ogre", ("flying",))).state
    assert _texts(state) == []
