"""Banding and "bands with other" under the rules of 1999-2009 (502.10-502.11
of February 2009, edition ``sixth``), against today's (702.22)."""

from __future__ import annotations

import pytest
from redzone import Engine, GameState, IllegalAttackError, Permanent


@pytest.fixture(scope="module")
def sixth() -> Engine:
    return Engine("sixth")


@pytest.fixture(scope="module")
def today() -> Engine:
    return Engine()


def _game(engine: Engine, *perms: Permanent) -> GameState:
    return engine.game(["alice", "bob"], list(perms))


def _dividers(engine: Engine, state: GameState, attacks: dict[str, str],
              blocks: dict[str, tuple[str, ...]]) -> dict[str, str | None]:
    state = engine.declare_attackers(state, attacks).state
    state = engine.declare_blockers(state, blocks).state
    _step, duties = engine.damage_duties(state)
    return {d.source: d.divider for d in duties}


def test_502_11b_creatures_with_the_same_bands_with_other_band_whatever_their_type(
        sixth: Engine, today: Engine) -> None:
    """502.11b (2009): "An attacking creature with 'bands with other [quality]' can
    form an attacking band with other creatures that have the same 'bands with
    other [quality]' ability ... The creatures in this band don't have to have the
    creature type specified." Two non-legendary creatures with "bands with other
    legends" band. Today's 702.22c asks for [quality] creatures: they can't."""
    def board(engine: Engine) -> GameState:
        c = engine.creature
        return _game(engine, c("x", "alice", 2, 2, "bands with other legends"),
                     c("y", "alice", 2, 2, "bands with other legends"))

    out = sixth.declare_attackers(board(sixth), {"x": "bob", "y": "bob"}, bands=[("x", "y")])
    assert out.state.combat is not None and out.state.combat.bands == (("x", "y"),)
    with pytest.raises(IllegalAttackError) as info:
        today.declare_attackers(board(today), {"x": "bob", "y": "bob"}, bands=[("x", "y")])
    assert info.value.rule == "702.22c"


def test_502_11b_creatures_with_banding_join_and_those_without_dont(sixth: Engine) -> None:
    """502.11b (2009): "Creatures with banding can also join this band, but
    creatures without banding can't": a plain Dinosaur can't join a Dinosaur with
    "bands with other Dinosaurs" (as today's 702.22c lets it), a creature with
    banding can."""
    c = sixth.creature
    state = _game(sixth, c("rex", "alice", 2, 2, "bands with other Dinosaurs",
                           subtypes=["Dinosaur"]),
                  c("raptor", "alice", 2, 2, "bands with other Dinosaurs"),
                  c("plain", "alice", 2, 2, subtypes=["Dinosaur"]),
                  c("knight", "alice", 2, 2, "banding"))
    with pytest.raises(IllegalAttackError):
        sixth.declare_attackers(state, {"rex": "bob", "raptor": "bob", "plain": "bob"},
                                bands=[("rex", "raptor", "plain")])
    out = sixth.declare_attackers(state, {"rex": "bob", "raptor": "bob", "knight": "bob"},
                                  bands=[("rex", "raptor", "knight")])
    assert out.state.combat is not None
    assert out.state.combat.bands == (("rex", "raptor", "knight"),)


def test_502_10b_banding_and_one_without_still_band(sixth: Engine) -> None:
    """502.10b (2009): "any number of those creatures with banding, and up to one
    of those creatures without banding" form a band; two without can't."""
    c = sixth.creature
    state = _game(sixth, c("k", "alice", 2, 2, "banding"), c("ogre", "alice", 3, 3),
                  c("elf", "alice", 1, 1))
    sixth.declare_attackers(state, {"k": "bob", "ogre": "bob"}, bands=[("k", "ogre")])
    with pytest.raises(IllegalAttackError):
        sixth.declare_attackers(state, {"k": "bob", "ogre": "bob", "elf": "bob"},
                                bands=[("k", "ogre", "elf")])


def test_502_11c_two_blockers_with_the_same_bands_with_other_let_the_defender_divide(
        sixth: Engine, today: Engine) -> None:
    """502.11c (2009): "If an attacking creature is blocked by at least two
    creatures with the same 'bands with other [quality]' ability, the defending
    player chooses how the attacking creature's damage is assigned", whatever
    their creature types. Today (702.22j) they must be [quality] creatures: the
    attacking player divides."""
    def board(engine: Engine) -> GameState:
        c = engine.creature
        return _game(engine, c("troll", "alice", 4, 4),
                     c("p", "bob", 1, 1, "bands with other Dinosaurs"),
                     c("q", "bob", 1, 1, "bands with other Dinosaurs"))

    blocks = {"p": ("troll",), "q": ("troll",)}
    assert _dividers(sixth, board(sixth), {"troll": "bob"}, blocks)["troll"] == "bob"
    assert _dividers(today, board(today), {"troll": "bob"}, blocks)["troll"] is None


def test_502_11c_one_with_bands_with_other_and_a_plain_one_divide_normally(
        sixth: Engine, today: Engine) -> None:
    """502.11c (2009) asks for two creatures with the ability: a Dinosaur with
    "bands with other Dinosaurs" and a plain Dinosaur blocking leave the division
    to the attacking player (510.1c). Today's 702.22j gives it to the defender."""
    def board(engine: Engine) -> GameState:
        c = engine.creature
        return _game(engine, c("troll", "alice", 4, 4),
                     c("p", "bob", 1, 1, "bands with other Dinosaurs", subtypes=["Dinosaur"]),
                     c("q", "bob", 1, 1, subtypes=["Dinosaur"]))

    blocks = {"p": ("troll",), "q": ("troll",)}
    assert _dividers(sixth, board(sixth), {"troll": "bob"}, blocks)["troll"] is None
    assert _dividers(today, board(today), {"troll": "bob"}, blocks)["troll"] == "bob"


def test_502_10h_a_blocker_with_banding_lets_the_defender_divide(sixth: Engine) -> None:
    """502.10h (2009): "A player who controls a blocking creature with banding
    chooses how combat damage is assigned by creatures it blocks"; and one who
    controls an attacking creature with banding chooses for the creatures
    blocking it."""
    c = sixth.creature
    state = _game(sixth, c("troll", "alice", 4, 4), c("k", "alice", 2, 2, "banding"),
                  c("wall", "bob", 0, 4, "banding"), c("bear", "bob", 2, 2),
                  c("guard", "bob", 1, 3))
    dividers = _dividers(sixth, state, {"troll": "bob", "k": "bob"},
                         {"wall": ("troll",), "bear": ("troll",), "guard": ("k",)})
    assert dividers["troll"] == "bob"
    assert dividers["guard"] == "alice"
