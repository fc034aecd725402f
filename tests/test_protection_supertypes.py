"""Protection from a quality that is a supertype, alone or with a card type
(702.16a): Tsabo Tavoc's "protection from legendary creatures", "protection
from snow". A creature with the quality can't block the protected creature
(702.16f), and damage it would deal to it is prevented (702.16e)."""

from __future__ import annotations

import pytest
from redzone import Engine, IllegalBlockError
from redzone.kernel.model import GameState

engine = Engine()
c = engine.creature


def _attacked(keyword: str, *blockers: object) -> GameState:
    state = engine.game(["alice", "bob"], [c("tsabo", "alice", 7, 4, keyword), *blockers])
    return engine.declare_attackers(state, {"tsabo": "bob"}).state


@pytest.mark.parametrize(("keyword", "supertypes"), [
    ("protection from legendary creatures", ("legendary",)),
    ("protection from legendary", ("legendary",)),
    ("protection from snow", ("snow",)),
])
def test_702_16f_a_creature_with_the_supertype_cannot_block_it(
        keyword: str, supertypes: tuple[str, ...]) -> None:
    """702.16a, 702.16f: the quality names a supertype (with a card type):
    a creature that has it can't block; one that hasn't can."""
    state = _attacked(keyword, c("hero", "bob", 2, 2, supertypes=supertypes),
                      c("grunt", "bob", 2, 2))
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(state, {"hero": "tsabo"})
    assert info.value.violations[0].rule == "702.16f"
    engine.declare_blockers(state, {"grunt": "tsabo"})
    assert engine.is_legal_block(state, {"grunt": "tsabo"})
    assert not engine.is_legal_block(state, {"hero": "tsabo"})


def test_702_16a_legendary_creatures_needs_both_words() -> None:
    """702.16a: "legendary creatures" is legendary and a creature: a
    nonlegendary creature may block, and so may nothing else be stopped."""
    state = _attacked("protection from legendary creatures", c("grunt", "bob", 2, 2,
                                                               supertypes=("snow",)))
    engine.declare_blockers(state, {"grunt": "tsabo"})


def test_702_16e_damage_from_a_legendary_creature_is_prevented() -> None:
    """702.16e: a legendary creature made to block (it can't be declared)
    deals it no damage; the prevention is an event."""
    from redzone import MakeBlock

    state = _attacked("protection from legendary creatures",
                      c("hero", "bob", 5, 5, supertypes=("legendary",)))
    state = engine.declare_blockers(state, {}).state
    state = engine.perform(state, MakeBlock("hero", "tsabo")).state
    out = engine.combat_damage(state)
    assert out.state.objects["tsabo"].damage == 0
    assert [e.amount for e in out.events if e.kind == "prevented"] == [5]
