"""Protection (CR 702.16), as it applies to combat: an attacking creature with protection
can't be blocked by creatures with the stated quality (702.16f), and damage that sources
with the quality would deal to the permanent is prevented (702.16e).

The module ends with two properties over random boards using all eight keywords of
this set (vigilance, menace, flying, reach, haste, defender, indestructible,
protection): verdicts and outcomes don't depend on the order the plugins are called
in (renamed with their position first: the engine calls plugins in name order), and an
illegal declaration of blockers leaves the state as it was.
"""

from __future__ import annotations

import functools
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    BecomeBlocked,
    DealDamage,
    Engine,
    GameState,
    Grant,
    IllegalActionError,
    IllegalAssignmentError,
    IllegalBlockError,
    LeaveBattlefield,
)
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone.testing.conformance import _unprefixed
from redzone_keywords import (
    defender,
    flying,
    haste,
    indestructible,
    menace,
    protection,
    reach,
    vigilance,
)


def attack(board: Any, keyword: str, *blockers: Any, **attacker: Any) -> GameState:
    """The state after "knight" (with ``keyword``) attacked bob, who has ``blockers``."""
    state = board(board.c("knight", "alice", 2, 2, keyword, name="White Knight", **attacker),
                  *blockers)
    out: GameState = board.engine.declare_attackers(state, {"knight": "bob"}).state
    return out


def block_rules(board: Any, state: GameState, blocker: str) -> list[str]:
    return [v.rule for v in board.engine.block_violations(state, {blocker: "knight"})]


# ---------------------------------------------------------------------------
# 702.16f: blocking
# ---------------------------------------------------------------------------


def test_702_16f_a_creature_with_the_quality_cannot_block_it(board: Any) -> None:
    state = attack(board, "protection from black",
                   board.c("knight2", "bob", 2, 2, colors=["black"], name="Black Knight"))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"knight2": "knight"})
    err = info.value
    assert err.rule == "702.16f"
    assert err.objects == ("knight", "knight2")
    assert str(err) == ("White Knight (knight) (protection from black) can't be blocked by "
                        "Black Knight (knight2): it is black (rule 702.16f)")
    assert state == snapshot
    assert board.engine.legal_blockers(state, "knight") == ()


@pytest.mark.parametrize("color", ["white", "blue", "black", "red", "green"])
def test_702_16f_each_color_stops_only_creatures_of_that_color(board: Any, color: str) -> None:
    others = [c for c in ("white", "blue", "black", "red", "green") if c != color]
    state = attack(board, f"protection from {color}",
                   board.c("same", "bob", 1, 1, colors=[color]),
                   *(board.c(c, "bob", 1, 1, colors=[c]) for c in others),
                   board.c("grey", "bob", 1, 1))
    assert board.engine.legal_blockers(state, "knight") == (*others, "grey")
    assert block_rules(board, state, "same") == ["702.16f"]


def test_702_16f_a_multicolored_creature_with_the_color_cannot_block_it(board: Any) -> None:
    state = attack(board, "protection from red",
                   board.c("boros", "bob", 2, 2, colors=["red", "white"]))
    assert block_rules(board, state, "boros") == ["702.16f"]


@pytest.mark.parametrize(("keyword", "blocker", "rule"), [
    ("protection from creatures", {}, "702.16f"),
    ("protection from artifacts", {"types": ["artifact", "creature"]}, "702.16f"),
    ("protection from artifacts", {}, None),
    ("protection from goblins", {"subtypes": ["Goblin"]}, "702.16f"),
    ("protection from goblins", {"subtypes": ["Elf"]}, None),
    ("protection from elves", {"subtypes": ["Elf"]}, "702.16f"),
    ("protection from multicolored", {"colors": ["red", "green"]}, "702.16f"),
    ("protection from multicolored", {"colors": ["red"]}, None),
    ("protection from monocolored", {"colors": ["red"]}, "702.16f"),
    ("protection from monocolored", {"colors": ["red", "green"]}, None),
    ("protection from monocolored", {}, None),
    ("protection from colorless", {}, "702.16f"),
    ("protection from colorless", {"colors": ["blue"]}, None),
    ("protection from everything", {"colors": ["blue"]}, "702.16j"),
    ("protection from everything", {}, "702.16j"),
    ("protection from bob", {}, "702.16k"),
    ("protection from alice", {}, None),
    ("protection from the chosen color", {"colors": ["red"]}, None),
])
def test_702_16f_j_k_qualities(board: Any, keyword: str, blocker: dict[str, Any],
                               rule: str | None) -> None:
    state = attack(board, keyword, board.c("guard", "bob", 1, 1, **blocker))
    assert block_rules(board, state, "guard") == ([rule] if rule else [])


def test_702_16f_509_1h_seed_spirit_mantle_and_curtain_of_light(board: Any) -> None:
    """Seed: "A creature equipped with Spirit Mantle may not be blocked by a creature, but
    you can make it blocked with an effect of a spell, such as Curtain of Light." No
    creature can block it (702.16f); made blocked by an effect (509.1h), with no creature
    blocking it, it assigns no combat damage (510.1c)."""
    state = attack(board, "protection from creatures", board.c("bear", "bob", 2, 2),
                   board.c("wall", "bob", 0, 4, "defender"))
    assert board.engine.legal_blockers(state, "knight") == ()
    assert block_rules(board, state, "wall") == ["702.16f"]
    out = board.engine.declare_blockers(state, {})
    out = board.engine.perform(out.state, BecomeBlocked("knight"))
    out = board.engine.combat_damage(out.state)
    assert [e for e in out.events if e.kind == "damage"] == []
    assert out.state.players["bob"].life == 20


def test_702_16g_protection_from_a_and_from_b_is_two_abilities(board: Any) -> None:
    state = attack(board, "protection from red and from blue",
                   board.c("red", "bob", 1, 1, colors=["red"]),
                   board.c("blue", "bob", 1, 1, colors=["blue"]),
                   board.c("green", "bob", 1, 1, colors=["green"]))
    assert board.engine.legal_blockers(state, "knight") == ("green",)
    message = board.engine.block_violations(state, {"blue": "knight"})[0].message
    assert "(protection from blue)" in message


def test_702_16g_separate_instances_each_apply(board: Any) -> None:
    state = attack(board, "protection from red", board.c("red", "bob", 1, 1, colors=["red"]),
                   board.c("blue", "bob", 1, 1, colors=["blue"]),
                   board.c("grey", "bob", 1, 1))
    state = board.engine.perform(state, Grant("knight", "protection from blue")).state
    assert board.engine.legal_blockers(state, "knight") == ("grey",)


def test_702_16h_protection_from_each_color(board: Any) -> None:
    state = attack(board, "protection from each color",
                   *(board.c(c, "bob", 1, 1, colors=[c])
                     for c in ("white", "blue", "black", "red", "green")),
                   board.c("grey", "bob", 1, 1))
    assert board.engine.legal_blockers(state, "knight") == ("grey",)


def test_702_16h_protection_from_all_colors_is_from_each_color(board: Any) -> None:
    """702.16h: "Protection from each [characteristic]" is shorthand for protection
    from each possible quality; "protection from all colors" is the same, from each
    color: a red creature can't block it (702.16f), a colorless one can."""
    state = attack(board, "protection from all colors",
                   board.c("goblin", "bob", 2, 2, colors=["red"]), board.c("grey", "bob", 1, 1))
    assert block_rules(board, state, "goblin") == ["702.16f"]
    assert block_rules(board, state, "grey") == []
    assert board.engine.legal_blockers(state, "knight") == ("grey",)


def test_702_16m_several_instances_of_one_quality_are_redundant(board: Any) -> None:
    state = attack(board, "protection from red", board.c("red", "bob", 1, 1, colors=["red"]))
    state = board.engine.perform(state, Grant("knight", "protection from red")).state
    assert len(board.engine.hooks.block_violations(state, "red", "knight")) == 1


def test_702_16f_protection_on_a_blocker_does_not_stop_it_blocking(board: Any) -> None:
    state = board(board.c("dragon", "alice", 4, 4, colors=["red"]),
                  board.c("guard", "bob", 2, 2, "protection from red"))
    state = board.engine.declare_attackers(state, {"dragon": "bob"}).state
    assert board.engine.legal_blockers(state, "dragon") == ("guard",)


def test_702_16f_keyword_text_is_case_insensitive(engine: Engine) -> None:
    kw = engine.keyword("Protection from Red")
    assert (kw.name, kw.text, kw.args) == ("protection", "protection from red", ("red",))


# ---------------------------------------------------------------------------
# 702.16e: damage
# ---------------------------------------------------------------------------


def prevented(events: Any) -> list[tuple[str | None, str | None, int | None, str]]:
    return [(e.source, e.target, e.amount, e.rule) for e in events if e.kind == "prevented"]


def test_702_16e_it_can_block_a_creature_with_the_quality_and_takes_no_damage(
        board: Any) -> None:
    state = board(board.c("dragon", "alice", 4, 4, colors=["red"]),
                  board.c("guard", "bob", 2, 2, "protection from red", colors=["white"]))
    result = board.engine.resolve(state, {"dragon": "bob"}, {"guard": "dragon"})
    assert prevented(result.events) == [("dragon", "guard", 4, "702.16e")]
    assert result.state.objects["guard"].damage == 0
    assert result.state.objects["guard"].zone == "battlefield"
    assert result.state.objects["dragon"].damage == 2  # its own damage is dealt


def test_702_16e_damage_from_a_source_without_the_quality_is_dealt(board: Any) -> None:
    state = board(board.c("ogre", "alice", 4, 4, colors=["green"]),
                  board.c("guard", "bob", 2, 2, "protection from red"))
    result = board.engine.resolve(state, {"ogre": "bob"}, {"guard": "ogre"})
    assert prevented(result.events) == []
    assert result.state.objects["guard"].zone == "graveyard"


@pytest.mark.parametrize(("colors", "amount_dealt"), [(["red"], 0), (["green"], 3)])
def test_702_16e_noncombat_damage_is_prevented_too(board: Any, colors: list[str],
                                                   amount_dealt: int) -> None:
    state = board(board.c("shaman", "alice", 1, 1, colors=colors),
                  board.c("guard", "bob", 2, 5, "protection from red"))
    out = board.engine.perform(state, DealDamage("shaman", "guard", 3))
    assert out.state.objects["guard"].damage == amount_dealt
    assert len(prevented(out.events)) == (1 if amount_dealt == 0 else 0)


def test_702_16e_a_source_that_left_the_battlefield_is_read_from_last_known_information(
        board: Any) -> None:
    state = board(board.c("shaman", "alice", 1, 1, colors=["red"]),
                  board.c("guard", "bob", 2, 5, "protection from red"))
    state = board.engine.perform(state, LeaveBattlefield("shaman")).state
    out = board.engine.perform(state, DealDamage("shaman", "guard", 3))
    assert out.state.objects["guard"].damage == 0
    assert prevented(out.events) == [("shaman", "guard", 3, "702.16e")]


def test_702_16k_a_source_that_left_is_judged_by_its_last_known_controller(
        board: Any) -> None:
    """Bob's golem, controlled by alice when it left the battlefield, was alice's
    (608.2h); the card in bob's graveyard is not."""
    state = board(board.c("golem", "alice", 1, 1, owner="bob"),
                  board.c("guard", "bob", 2, 5, "protection from alice"))
    state = board.engine.perform(state, LeaveBattlefield("golem")).state
    assert state.objects["golem"].controller == "bob"
    out = board.engine.perform(state, DealDamage("golem", "guard", 3))
    assert prevented(out.events) == [("golem", "guard", 3, "702.16k")]


def test_702_16e_702_16g_damage_from_a_source_with_both_qualities_is_prevented_once(
        board: Any) -> None:
    state = board(board.c("izzet", "alice", 1, 1, colors=["blue", "red"]),
                  board.c("guard", "bob", 2, 5, "protection from red", "protection from blue"))
    out = board.engine.perform(state, DealDamage("izzet", "guard", 3))
    assert out.state.objects["guard"].damage == 0
    assert [p[2] for p in prevented(out.events)] == [3]


@pytest.mark.parametrize(("types", "amount_dealt"), [(["artifact", "creature"], 0),
                                                     (["artifact"], 2)])
def test_702_16a_e_a_card_type_quality(engine: Engine, types: list[str],
                                       amount_dealt: int) -> None:
    state = engine.game(["alice", "bob"], [
        engine.permanent("rod", "alice", types=types, power=1, toughness=1),
        engine.creature("guard", "bob", 2, 5, "protection from creatures"),
    ])
    out = engine.perform(state, DealDamage("rod", "guard", 2))
    assert out.state.objects["guard"].damage == amount_dealt


@pytest.mark.parametrize(("protection", "amount_dealt"), [("protection from colorless", 0),
                                                          ("protection from red", 3)])
def test_702_16e_105_2c_damage_from_a_colorless_noncreature_source(
        engine: Engine, protection: str, amount_dealt: int) -> None:
    """702.16e: damage "dealt by sources that have the stated quality" is prevented:
    an artifact with no color is colorless (105.2c) whether or not it is a creature,
    so protection from colorless prevents the 3 damage the (noncreature) rock would
    deal; protection from red doesn't."""
    state = engine.game(["alice", "bob"], [
        engine.permanent("rock", "bob", types=["artifact"]),
        engine.creature("knight", "alice", 2, 5, protection)])
    out = engine.perform(state, DealDamage("rock", "knight", 3))
    assert out.state.objects["knight"].damage == amount_dealt
    assert prevented(out.events) == ([("rock", "knight", 3, "702.16e")] if amount_dealt == 0
                                     else [])


def test_702_16j_everything_prevents_all_damage(board: Any) -> None:
    state = board(board.c("golem", "alice", 1, 1),
                  board.c("guard", "bob", 2, 5, "protection from everything"))
    out = board.engine.perform(state, DealDamage("golem", "guard", 3))
    assert prevented(out.events) == [("golem", "guard", 3, "702.16j")]


def test_702_16k_damage_from_sources_the_player_controls_is_prevented(board: Any) -> None:
    state = board(board.c("golem", "alice", 4, 4),
                  board.c("guard", "bob", 2, 2, "protection from alice"))
    result = board.engine.resolve(state, {"golem": "bob"}, {"guard": "golem"})
    assert prevented(result.events) == [("golem", "guard", 4, "702.16k")]


def test_509_1b_702_16e_seed_protection_gained_after_blocks(board: Any) -> None:
    """Seed: restrictions count only while blockers are declared; "Protection still
    affects the way damage is dealt though". The block stands (509.1b) and the damage
    from the blocker is prevented (702.16e)."""
    state = board(board.c("knight", "alice", 2, 2, colors=["white"]),
                  board.c("ogre", "bob", 3, 3, colors=["red"]))
    result = board.engine.resolve(state, {"knight": "bob"}, {"ogre": "knight"}, actions=[
        ("declare_blockers", Grant("knight", "protection from red"))])
    assert prevented(result.events) == [("ogre", "knight", 3, "702.16e")]
    assert result.state.objects["knight"].zone == "battlefield"
    assert result.state.objects["ogre"].damage == 2
    assert result.state.players["bob"].life == 20


def test_702_19b_protection_does_not_change_lethal_damage(board: Any) -> None:
    """Seed: "Effects like Protection that could modify the number of damage that would
    actually be dealt are not taken to account" when figuring lethal damage."""
    state = board(board.c("wurm", "alice", 6, 6, colors=["green"]),
                  board.c("guard", "bob", 2, 2, "protection from green"))
    assert board.engine.lethal_damage(state, "wurm", "guard") == 2


def test_702_19b_example_trample_over_a_blocker_with_protection(engine: Engine) -> None:
    """702.19b example: a 6/6 green creature with trample blocked by a 2/2 creature with
    protection from green must assign at least 2 damage to the blocker, even though that
    damage will be prevented; the rest may go to the defending player. (Needs the
    trample plugin.)"""
    state = engine.game(["alice", "bob"], [
        engine.creature("wurm", "alice", 6, 6, "trample", colors=["green"]),
        engine.creature("guard", "bob", 2, 2, "protection from green", colors=["white"]),
    ])
    state = engine.declare_attackers(state, {"wurm": "bob"}).state
    state = engine.declare_blockers(state, {"guard": "wurm"}).state
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, {"wurm": {"guard": 1, "bob": 5}})
    assert "702.19b" in {v.rule for v in info.value.violations}
    assert state == snapshot
    assert engine.default_assignment(state)["wurm"] == {"guard": 2, "bob": 4}
    out = engine.combat_damage(state, {"wurm": {"guard": 3, "bob": 3}})
    assert prevented(out.events) == [("wurm", "guard", 3, "702.16e")]
    assert out.state.players["bob"].life == 17
    assert out.state.objects["guard"].damage == 0
    assert out.state.objects["wurm"].damage == 2


# ---------------------------------------------------------------------------
# Properties over all eight keywords of this set
# ---------------------------------------------------------------------------

MODULES = (defender, flying, haste, indestructible, menace, protection, reach, vigilance)
KEYWORDS = ("flying", "reach", "vigilance", "menace", "haste", "defender", "indestructible",
            "protection from red", "protection from green", "protection from creatures",
            "protection from multicolored", "protection from white and from red")
#: Call orders, as positions in MODULES: as listed (the reference), reversed and
#: three shuffles.
ORDERS = (tuple(range(len(MODULES))), tuple(reversed(range(len(MODULES)))),
          *(tuple(random.Random(seed).sample(range(len(MODULES)), len(MODULES)))
            for seed in (1, 2, 3)))


@functools.cache
def engine_for(order: int) -> Engine:
    """An engine with exactly the eight modules, called in order ``order``: the
    engine calls plugins in name order whatever the registration order, so each
    is renamed with its position first."""
    return Engine(discover=False, plugins=[
        PluginInfo(f"{pos:03d}.{MODULES[i].__name__}", MODULES[i])
        for pos, i in enumerate(ORDERS[order])])


creatures: st.SearchStrategy[dict[str, Any]] = st.fixed_dictionaries({
    "power": st.integers(0, 4),
    "toughness": st.integers(1, 4),
    "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=3, unique=True),
    "colors": st.lists(st.sampled_from(["white", "red", "green"]), max_size=2, unique=True),
    "sick": st.sampled_from((False, False, False, True)),
    "damage": st.integers(0, 2),
})


@st.composite
def combats(draw: st.DrawFn) -> tuple[GameState, dict[str, str], dict[str, list[str]]]:
    """A board, a declaration of attackers and one of blockers (often illegal)."""
    engine = engine_for(0)
    mine = draw(st.lists(creatures, min_size=1, max_size=3))
    theirs = draw(st.lists(creatures, min_size=1, max_size=4))
    perms = [
        engine.creature(f"{side}{i}", owner, c["power"], c["toughness"], *c["keywords"],
                        colors=c["colors"], summoning_sick=c["sick"],
                        damage=min(c["damage"], c["toughness"] - 1))
        for side, owner, group in (("a", "alice", mine), ("b", "bob", theirs))
        for i, c in enumerate(group)
    ]
    state = engine.game(["alice", "bob"], perms)
    attackers = [f"a{i}" for i in range(len(mine)) if draw(st.sampled_from((True, True,
                                                                              False)))]
    blocks: dict[str, list[str]] = {}
    for i in range(len(theirs)):
        chosen = draw(st.sampled_from(("", *attackers, *attackers)))
        if chosen:
            blocks[f"b{i}"] = [chosen]
    return state, dict.fromkeys(attackers, "bob"), blocks


def run(engine: Engine, state: GameState, attacks: dict[str, str],
        blocks: dict[str, list[str]]) -> tuple[Any, ...]:
    """Every verdict and the outcome of the combat, as comparable values (the
    plugin names a state records without the position prefix)."""
    verdicts: tuple[Any, ...] = (engine.attack_violations(state, attacks),
                                 engine.legal_attackers(state))
    if verdicts[0]:
        return verdicts
    declared = engine.declare_attackers(state, attacks)
    verdicts += (declared.evolve(state=_unprefixed(declared.state)),
                 engine.block_violations(declared.state, blocks),
                 tuple(engine.legal_blockers(declared.state, a) for a in attacks))
    try:
        result = engine.resolve(state, attacks, blocks)
    except IllegalActionError as exc:
        return (*verdicts, type(exc), exc.violations)
    return (*verdicts, _unprefixed(result.state), result.events, result.steps)


@given(combats(), st.integers(1, len(ORDERS) - 1))
@settings(max_examples=150, deadline=None)
def test_verdicts_and_outcomes_do_not_depend_on_plugin_registration_order(
        combat: tuple[GameState, dict[str, str], dict[str, list[str]]], order: int) -> None:
    """Design: answers combine regardless of order; 508.1, 509.1, 510, 702.16e, 704.5g:
    an engine calling the eight plugins in another order (the reverse or a shuffle)
    gives every verdict and the outcome of a random combat as one calling them as
    listed."""
    state, attacks, blocks = combat
    assert run(engine_for(order), state, attacks, blocks) == run(engine_for(0), state,
                                                                 attacks, blocks)


@given(combats())
@settings(max_examples=150, deadline=None)
def test_733_an_illegal_declaration_of_blockers_raises_and_leaves_the_state_as_it_was(
        combat: tuple[GameState, dict[str, str], dict[str, list[str]]]) -> None:
    """509.1, 733: an illegal declaration is rejected as a whole with every violation
    the query reports, and the state handed in is unchanged; a legal one is made."""
    engine = engine_for(0)
    state, attacks, blocks = combat
    if not attacks or engine.attack_violations(state, attacks):
        return  # 508.8: no declare blockers step
    state = engine.declare_attackers(state, attacks).state
    snapshot = pickle.loads(pickle.dumps(state))
    violations = engine.block_violations(state, blocks)
    if violations:
        with pytest.raises(IllegalBlockError) as info:
            engine.declare_blockers(state, blocks)
        assert info.value.violations == violations
        assert {v.rule for v in violations} <= {"702.9b", "702.111b", "702.16f", "702.16j"}
    else:
        made = engine.declare_blockers(state, blocks).state.combat
        assert made is not None
        assert {b: list(a) for b, a in made.blocks.items()} == blocks
    assert state == snapshot


class TestProtectionConformance(KeywordConformance):
    """The conformance kit's invariants for protection (702.16), beside every other
    built-in keyword: no exception escapes a legal combat (733), damage is
    conserved (510.1a, 120.4), every event is accounted for, and the
    outcome doesn't depend on the order the plugins were registered in."""

    plugin = protection
    max_examples = 25
