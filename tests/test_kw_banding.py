"""Banding and "bands with other" (702.22): attacking bands, the band blocked
together, and the damage division that switches sides."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from redzone import (
    BecomeBlocked,
    Engine,
    GameState,
    IllegalAssignmentError,
    IllegalAttackError,
    Permanent,
    RemoveFromCombat,
)
from redzone.testing import KeywordConformance
from redzone_keywords import banding as _banding_plugin


def _state(engine: Engine, *perms: Permanent, more: Sequence[str] = ()) -> GameState:
    return engine.game(["alice", "bob", *more], list(perms))


def test_702_22c_banding_creatures_and_one_without_may_band(engine: Engine) -> None:
    c = engine.creature
    state = _state(engine, c("k1", "alice", 2, 2, "banding"), c("k2", "alice", 2, 2, "banding"),
                   c("ogre", "alice", 3, 3), c("elf", "alice", 1, 1))
    out = engine.declare_attackers(state, {"k1": "bob", "k2": "bob", "ogre": "bob"},
                                   bands=[("k1", "k2", "ogre")])
    assert out.state.combat is not None
    assert out.state.combat.bands == (("k1", "k2", "ogre"),)
    assert [e.rule for e in out.events if e.kind == "band"] == ["508.1e"]
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"k1": "bob", "ogre": "bob", "elf": "bob"},
                                 bands=[("k1", "ogre", "elf")])
    assert info.value.rule == "702.22c"


def test_702_22c_no_band_without_banding(engine: Engine) -> None:
    c = engine.creature
    state = _state(engine, c("ogre", "alice", 3, 3), c("elf", "alice", 1, 1))
    with pytest.raises(IllegalAttackError, match="can't form a band"):
        engine.declare_attackers(state, {"ogre": "bob", "elf": "bob"}, bands=[("ogre", "elf")])


def test_702_22c_bands_with_other_quality(engine: Engine) -> None:
    c = engine.creature
    state = _state(engine, c("rex", "alice", 4, 4, "bands with other Dinosaurs",
                             subtypes=["Dinosaur"]),
                   c("raptor", "alice", 2, 2, subtypes=["Dinosaur"]),
                   c("ogre", "alice", 3, 3, subtypes=["Ogre"]))
    engine.declare_attackers(state, {"rex": "bob", "raptor": "bob"}, bands=[("rex", "raptor")])
    with pytest.raises(IllegalAttackError):
        engine.declare_attackers(state, {"rex": "bob", "ogre": "bob"}, bands=[("rex", "ogre")])


@pytest.mark.parametrize(("quality", "subtype"), [
    ("Wolves", "Wolf"), ("Elves", "Elf"), ("Dwarves", "Dwarf"), ("Werewolves", "Werewolf"),
    ("Faeries", "Faerie"), ("Harpies", "Harpy"), ("Sphinxes", "Sphinx"),
    ("Cyclopes", "Cyclops"), ("Fungi", "Fungus"), ("Merfolk", "Merfolk"),
    ("Dinosaurs", "Dinosaur")])
def test_702_22c_a_quality_named_in_the_plural_is_the_creature_type(
        engine: Engine, quality: str, subtype: str) -> None:
    """702.22c: "attacking [quality] creatures with 'bands with other [quality]'
    and any number of other attacking [quality] creatures" band: the quality is
    written in the plural ("bands with other Wolves"), the creature type in the
    singular (Wolf). A creature of another type still can't join."""
    c = engine.creature
    state = _state(engine, c("lead", "alice", 2, 2, f"bands with other {quality}",
                             subtypes=[subtype]),
                   c("pack", "alice", 2, 2, subtypes=[subtype]),
                   c("ogre", "alice", 3, 3, subtypes=["Ogre"]))
    out = engine.declare_attackers(state, {"lead": "bob", "pack": "bob"},
                                   bands=[("lead", "pack")])
    assert out.state.combat is not None and out.state.combat.bands == (("lead", "pack"),)
    with pytest.raises(IllegalAttackError):
        engine.declare_attackers(state, {"lead": "bob", "ogre": "bob"}, bands=[("lead", "ogre")])


def test_702_22c_d_one_band_each_and_the_same_defender(engine: Engine) -> None:
    c = engine.creature
    state = _state(engine, c("k1", "alice", 2, 2, "banding"), c("k2", "alice", 2, 2, "banding"),
                   c("k3", "alice", 2, 2, "banding"), more=("carol",))
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"k1": "bob", "k2": "carol"}, bands=[("k1", "k2")])
    assert info.value.rule == "702.22d"
    with pytest.raises(IllegalAttackError, match="only one band"):
        engine.declare_attackers(state, {"k1": "bob", "k2": "bob", "k3": "bob"},
                                 bands=[("k1", "k2"), ("k2", "k3")])


def _flier_band(engine: Engine) -> GameState:
    c = engine.creature
    state = _state(engine, c("drake", "alice", 2, 2, "flying", "banding"),
                   c("shade", "alice", 2, 2, "swampwalk"),
                   c("bird", "bob", 1, 1, "flying"),
                   engine.permanent("swamp", "bob", types=["land"], subtypes=["Swamp"]))
    return engine.declare_attackers(state, {"drake": "bob", "shade": "bob"},
                                    bands=[("drake", "shade")]).state


def test_702_22h_example_blocking_the_flier_blocks_the_swampwalker_too(engine: Engine) -> None:
    """702.22h example: a band of a flier and a swampwalker; the defending
    player controls a Swamp and blocks the flier: the swampwalker is blocked
    by the same creature."""
    state = _flier_band(engine)
    out = engine.declare_blockers(state, {"bird": "drake"})
    combat = out.state.combat
    assert combat is not None
    assert combat.blockers_of("shade") == ("bird",)
    assert combat.blocked >= {"drake", "shade"}
    assert {(e.attacker, e.rule) for e in out.events if e.kind == "block"} == {
        ("drake", "509.1a"), ("shade", "702.22h")}


def test_702_22i_an_effect_that_blocks_one_member_blocks_the_band(engine: Engine) -> None:
    state = engine.declare_blockers(_flier_band(engine), {}).state
    state = engine.perform(state, BecomeBlocked("drake")).state
    assert state.combat is not None and state.combat.blocked == {"drake", "shade"}


def test_702_22f_removed_from_combat_leaves_the_band(engine: Engine) -> None:
    state = engine.perform(_flier_band(engine), RemoveFromCombat("drake")).state
    assert state.combat is not None and state.combat.bands == ()
    out = engine.declare_blockers(state, {})
    assert out.state.combat is not None and "shade" not in out.state.combat.blocked


def _banding_blockers(engine: Engine) -> GameState:
    c = engine.creature
    state = _state(engine, c("wurm", "alice", 6, 6, "trample"),
                   c("knight", "bob", 2, 2, "banding"), c("elf", "bob", 1, 1))
    state = engine.declare_attackers(state, {"wurm": "bob"}).state
    return engine.declare_blockers(state, {"knight": "wurm", "elf": "wurm"}).state


def test_702_22j_defending_player_divides_against_banding_blockers(engine: Engine) -> None:
    """702.22j: blocked by a creature with banding, the attacker's damage is
    divided by the defending player as they choose among the blockers, and
    only among them: no damage tramples over, lethal damage first is waived."""
    state = _banding_blockers(engine)
    duty = {d.source: d for d in engine.damage_duties(state)[1]}["wurm"]
    assert duty.divider == "bob" and duty.recipients == ("knight", "elf")
    assert engine.default_assignment(state)["wurm"] == {"knight": 6}
    assert engine.assignment_violations(state, {"wurm": {"knight": 1, "elf": 5}}) == ()
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, {"wurm": {"knight": 2, "elf": 1, "bob": 3}})
    assert info.value.rule == "510.1c"
    result = engine.combat_damage(state)
    assert result.state.players["bob"].life == 20
    assert result.state.objects["elf"].zone == "battlefield"


def test_without_banding_the_trampler_divides_and_tramples(engine: Engine) -> None:
    c = engine.creature
    state = _state(engine, c("wurm", "alice", 6, 6, "trample"),
                   c("knight", "bob", 2, 2), c("elf", "bob", 1, 1))
    state = engine.declare_attackers(state, {"wurm": "bob"}).state
    state = engine.declare_blockers(state, {"knight": "wurm", "elf": "wurm"}).state
    assert engine.default_assignment(state)["wurm"] == {"knight": 2, "elf": 1, "bob": 3}


def test_702_22k_active_player_divides_a_blocker_blocking_a_band(engine: Engine) -> None:
    c = engine.creature
    state = _state(engine, c("k1", "alice", 1, 1, "banding"), c("k2", "alice", 1, 4),
                   c("giant", "bob", 3, 3))
    state = engine.declare_attackers(state, {"k1": "bob", "k2": "bob"},
                                     bands=[("k1", "k2")]).state
    state = engine.declare_blockers(state, {"giant": "k2"}).state
    duty = {d.source: d for d in engine.damage_duties(state)[1]}["giant"]
    assert duty.divider == "alice" and set(duty.recipients) == {"k1", "k2"}
    # The active player puts all 3 on the 1/4 and saves the banding 1/1.
    out = engine.combat_damage(state, {"giant": {"k2": 3}})
    assert out.state.objects["k1"].zone == "battlefield"
    assert out.state.objects["k2"].damage == 3


def test_702_22j_bands_with_other_wolves_and_a_non_wolf_blocker_changes_nothing(
        engine: Engine) -> None:
    """702.22j: the defending player divides only if the attacker is blocked
    "by a creature with banding, or by both a [quality] creature with 'bands
    with other [quality]' and another [quality] creature". A Wolf with "bands
    with other Wolves" blocking with an Elf is no such pair, so 510.1c and
    702.19b apply as usual: the trampling attacker's controller assigns its
    damage, lethal to each blocker and the rest to the player. With a second
    Wolf instead of the Elf, the defending player divides and none tramples."""
    c = engine.creature

    def blocked_by(other: Permanent) -> GameState:
        state = _state(engine, c("wurm", "alice", 6, 6, "trample"),
                       c("wolf", "bob", 2, 2, "bands with other Wolves", subtypes=["Wolf"]),
                       other)
        state = engine.declare_attackers(state, {"wurm": "bob"}).state
        return engine.declare_blockers(state, {"wolf": "wurm", "cub": "wurm"}).state

    state = blocked_by(c("cub", "bob", 1, 1, subtypes=["Elf"]))
    duty = {d.source: d for d in engine.damage_duties(state)[1]}["wurm"]
    assert duty.divider is None and duty.recipients == ("wolf", "cub", "bob")
    assert engine.default_assignment(state)["wurm"] == {"wolf": 2, "cub": 1, "bob": 3}
    assert engine.combat_damage(state).state.players["bob"].life == 17
    state = blocked_by(c("cub", "bob", 1, 1, subtypes=["Wolf"]))
    duty = {d.source: d for d in engine.damage_duties(state)[1]}["wurm"]
    assert duty.divider == "bob" and duty.recipients == ("wolf", "cub")
    assert engine.combat_damage(state).state.players["bob"].life == 20


class TestBandingConformance(KeywordConformance):
    """The conformance kit's invariants for banding (702.22), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = _banding_plugin
    max_examples = 25
