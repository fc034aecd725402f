"""Landwalk (CR 702.14): a creature with landwalk can't be blocked as long as the
defending player controls at least one land of the specified kind: with the land type
("swampwalk"), without the supertype ("nonbasic landwalk"), with the supertype and the
subtype ("snow swampwalk") (702.14c). Lands carry their supertypes in
``Permanent.supertypes`` (205.4a, 205.4c)."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, Grant, IllegalBlockError, LeaveBattlefield, Permanent
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone_keywords import flying, landwalk, reach


def land(id: str, controller: str, *subtypes: str, supertypes: tuple[str, ...] = (),
         types: tuple[str, ...] = ("land",), name: str | None = None) -> Permanent:
    return Permanent(id=id, controller=controller, name=name or id, types=types,
                     subtypes=subtypes, supertypes=supertypes)


def walker_attacks(board: Any, keyword: str, *others: Any,
                   players: tuple[str, ...] = ("alice", "bob")) -> GameState:
    state = board(board.c("walker", "alice", 2, 2, keyword, name="Bog Wraith"),
                  board.c("guard", "bob", 2, 4, name="Guard"), *others, players=players)
    out: GameState = board.engine.declare_attackers(state, {"walker": "bob"}).state
    return out


def rules(board: Any, state: GameState, blocks: dict[str, str]) -> list[str]:
    return [v.rule for v in board.engine.block_violations(state, blocks)]


def test_702_14c_swampwalk_with_a_swamp_on_the_defending_side_it_cannot_be_blocked(
        board: Any) -> None:
    state = walker_attacks(board, "swampwalk",
                           land("swamp", "bob", "Swamp", supertypes=("basic",), name="Swamp"))
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"guard": "walker"})
    err = info.value
    assert err.rule == "702.14c"
    assert err.objects == ("guard", "swamp", "walker")
    assert str(err) == ("Bog Wraith (swampwalk) can't be blocked: the defending player 'bob' "
                        "controls Swamp (rule 702.14c)")
    assert err.violations[0].restriction == "landwalk"
    assert state == snapshot
    assert board.engine.legal_blockers(state, "walker") == ()


def test_702_14c_swampwalk_without_a_swamp_it_can_be_blocked(board: Any) -> None:
    state = walker_attacks(board, "swampwalk", land("island", "bob", "Island",
                                                    supertypes=("basic",)))
    out = board.engine.declare_blockers(state, {"guard": "walker"})
    assert out.state.combat.blockers_of("walker") == ("guard",)


def test_702_14c_only_the_defending_players_lands_count(board: Any) -> None:
    """The attacking player's Swamp, or another opponent's, doesn't matter."""
    state = walker_attacks(board, "swampwalk", land("mine", "alice", "Swamp"),
                           land("carols", "carol", "Swamp"), players=("alice", "bob", "carol"))
    assert rules(board, state, {"guard": "walker"}) == []


def test_702_14c_a_land_that_left_the_battlefield_no_longer_counts(board: Any) -> None:
    state = board(board.c("walker", "alice", 2, 2, "swampwalk"), board.c("guard", "bob", 2, 4),
                  land("swamp", "bob", "Swamp"))
    result = board.engine.resolve(state, {"walker": "bob"}, {"guard": "walker"},
                                  actions=[("declare_attackers", LeaveBattlefield("swamp"))])
    assert result.state.objects["guard"].damage == 2
    with pytest.raises(IllegalBlockError):
        board.engine.resolve(state, {"walker": "bob"}, {"guard": "walker"})


@pytest.mark.parametrize(("keyword", "subtype"), [
    ("islandwalk", "Island"), ("forestwalk", "Forest"), ("mountainwalk", "Mountain"),
    ("plainswalk", "Plains"), ("swampwalk", "Swamp"), ("desertwalk", "Desert")])
def test_702_14c_each_land_type(board: Any, keyword: str, subtype: str) -> None:
    others = ["Island", "Forest", "Mountain", "Plains", "Swamp", "Desert"]
    others.remove(subtype)
    state = walker_attacks(board, keyword, *(land(s.lower(), "bob", s) for s in others))
    assert rules(board, state, {"guard": "walker"}) == []
    state = walker_attacks(board, keyword, land("it", "bob", subtype))
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]


def test_702_14c_a_nonbasic_land_with_the_land_type_counts(board: Any) -> None:
    """A dual land with the subtypes Swamp and Forest has the land type Swamp."""
    state = walker_attacks(board, "swampwalk", land("bayou", "bob", "Swamp", "Forest",
                                                    name="Bayou"))
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]


def test_702_14c_nonbasic_landwalk(board: Any) -> None:
    """"Nonbasic landwalk": a land without the supertype basic (205.4c)."""
    basic = land("swamp", "bob", "Swamp", supertypes=("basic",))
    state = walker_attacks(board, "nonbasic landwalk", basic)
    assert rules(board, state, {"guard": "walker"}) == []
    state = walker_attacks(board, "nonbasic landwalk", basic,
                           land("tower", "bob", name="Tower of the Magistrate"))
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]
    # A basic snow land is still basic.
    state = walker_attacks(board, "nonbasic landwalk",
                           land("snowy", "bob", "Swamp", supertypes=("basic", "snow")))
    assert rules(board, state, {"guard": "walker"}) == []


def test_702_14c_snow_swampwalk_needs_both_the_supertype_and_the_subtype(board: Any) -> None:
    for lands, expected in [
        ((land("swamp", "bob", "Swamp", supertypes=("basic",)),), []),
        ((land("forest", "bob", "Forest", supertypes=("basic", "snow")),), []),
        ((land("swamp", "bob", "Swamp", supertypes=("basic",)),
          land("forest", "bob", "Forest", supertypes=("basic", "snow"))), []),
        ((land("swamp", "bob", "Swamp", supertypes=("basic", "snow")),), ["702.14c"]),
    ]:
        state = walker_attacks(board, "snow swampwalk", *lands)
        assert rules(board, state, {"guard": "walker"}) == expected, lands


def test_702_14c_a_type_or_supertype_with_land_legendary_landwalk(board: Any) -> None:
    state = walker_attacks(board, "legendary landwalk", land("swamp", "bob", "Swamp",
                                                             supertypes=("basic",)))
    assert rules(board, state, {"guard": "walker"}) == []
    state = walker_attacks(board, "legendary landwalk",
                           land("tomb", "bob", supertypes=("legendary",), name="Urborg"))
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]


def test_702_14c_artifact_landwalk(board: Any) -> None:
    state = walker_attacks(board, "artifact landwalk", land("vault", "bob",
                                                            types=("artifact", "land")))
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]
    state = walker_attacks(board, "artifact landwalk", land("swamp", "bob", "Swamp"))
    assert rules(board, state, {"guard": "walker"}) == []


def test_702_14c_a_nonland_permanent_with_the_subtype_does_not_count(board: Any) -> None:
    state = walker_attacks(board, "swampwalk", land("totem", "bob", "Swamp",
                                                    types=("enchantment",)))
    assert rules(board, state, {"guard": "walker"}) == []


def test_702_14d_example_snow_forestwalk_does_not_cancel_snow_forestwalk(board: Any) -> None:
    """702.14d example: "If a player controls a snow Forest, that player can't block an
    attacking creature with snow forestwalk even if they also control a creature with
    snow forestwalk." """
    state = board(board.c("walker", "alice", 2, 2, "snow forestwalk"),
                  board.c("twin", "bob", 2, 2, "snow forestwalk"),
                  land("forest", "bob", "Forest", supertypes=("basic", "snow")))
    state = board.engine.declare_attackers(state, {"walker": "bob"}).state
    with pytest.raises(IllegalBlockError) as info:
        board.engine.declare_blockers(state, {"twin": "walker"})
    assert info.value.rule == "702.14c"


def test_702_14e_multiple_instances_of_the_same_landwalk_are_redundant(board: Any) -> None:
    state = board(board.c("walker", "alice", 2, 2, "swampwalk", "swampwalk"),
                  board.c("guard", "bob", 2, 4), land("swamp", "bob", "Swamp"))
    state = board.engine.declare_attackers(state, {"walker": "bob"}).state
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]


def test_702_14e_different_landwalks_each_apply(board: Any) -> None:
    state = board(board.c("walker", "alice", 2, 2, "swampwalk", "islandwalk"),
                  board.c("guard", "bob", 2, 4), land("swamp", "bob", "Swamp"),
                  land("island", "bob", "Island"))
    state = board.engine.declare_attackers(state, {"walker": "bob"}).state
    assert rules(board, state, {"guard": "walker"}) == ["702.14c", "702.14c"]
    state = board(board.c("walker", "alice", 2, 2, "swampwalk", "islandwalk"),
                  board.c("guard", "bob", 2, 4), land("island", "bob", "Island"))
    state = board.engine.declare_attackers(state, {"walker": "bob"}).state
    assert rules(board, state, {"guard": "walker"}) == ["702.14c"]


def test_509_1b_landwalk_gained_after_blocks_does_not_undo_them(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4),
                  land("swamp", "bob", "Swamp"))
    result = board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                                  actions=[("declare_blockers", Grant("bear", "swampwalk"))])
    assert result.state.objects["wall"].damage == 2
    assert result.state.players["bob"].life == 20


def test_702_14c_landwalk_gained_before_blocks_restricts_them(board: Any) -> None:
    state = board(board.c("bear", "alice", 2, 2), board.c("wall", "bob", 0, 4),
                  land("swamp", "bob", "Swamp"))
    with pytest.raises(IllegalBlockError):
        board.engine.resolve(state, {"bear": "bob"}, {"wall": "bear"},
                             actions=[("declare_attackers", Grant("bear", "swampwalk"))])
    result = board.engine.resolve(state, {"bear": "bob"}, {},
                                  actions=[("declare_attackers", Grant("bear", "swampwalk"))])
    assert result.state.players["bob"].life == 18


def test_509_1b_landwalk_and_flying_are_cumulative(board: Any) -> None:
    state = board(board.c("walker", "alice", 2, 2, "islandwalk", "flying"),
                  board.c("owl", "bob", 1, 1, "flying"), land("island", "bob", "Island"))
    state = board.engine.declare_attackers(state, {"walker": "bob"}).state
    assert rules(board, state, {"owl": "walker"}) == ["702.14c"]


@pytest.mark.parametrize(("text", "args"), [
    ("swampwalk", ("swamp",)), ("Islandwalk", ("island",)),
    ("nonbasic landwalk", ("nonbasic land",)), ("snow swampwalk", ("snow swamp",)),
    ("legendary landwalk", ("legendary land",))])
def test_702_14a_landwalk_is_a_generic_term_parsed_as_one_keyword(engine: Engine, text: str,
                                                                   args: tuple[str, ...]) -> None:
    """702.14a: "[type]walk" is one keyword, landwalk, whose parameter is the type."""
    keyword = engine.keyword(text)
    assert (keyword.name, keyword.args) == ("landwalk", args)


def test_205_4a_supertypes_are_kept_by_the_state_and_by_the_card_that_left(
        engine: Engine) -> None:
    """Supertypes are part of the model: they survive serialisation and the move of a
    permanent to another zone (400.7: the card keeps its characteristics)."""
    state = engine.game(["alice", "bob"], [land("swamp", "bob", "Swamp",
                                                supertypes=("basic", "snow"))])
    assert state.objects["swamp"].supertypes == frozenset({"basic", "snow"})
    assert state_from_dict(state_to_dict(state)) == state
    gone = engine.perform(state, LeaveBattlefield("swamp")).state
    assert gone.objects["swamp"].zone == "graveyard"
    assert gone.objects["swamp"].supertypes == frozenset({"basic", "snow"})


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

MODULES = (flying, landwalk, reach)
SUBTYPES = ("Swamp", "Island", "Forest")
SUPERTYPES = ("basic", "snow", "legendary")
KINDS = ("swampwalk", "islandwalk", "nonbasic landwalk", "snow swampwalk",
         "legendary landwalk")


@functools.cache
def engines() -> tuple[Engine, Engine]:
    """The plugins as listed, and called in reverse order (plugins are called in name
    order, so the reversed ones are renamed with their position first)."""
    return (Engine(discover=False, plugins=list(MODULES)),
            Engine(discover=False, plugins=[PluginInfo(f"{i:03d}.{m.__name__}", m)
                                            for i, m in enumerate(MODULES[::-1])]))


def kind_matches(kind: str, lands: list[tuple[str, str, frozenset[str]]]) -> bool:
    """702.14c written out for the kinds the property uses."""
    for controller, subtype, supers in lands:
        if controller != "bob":
            continue
        if ((kind == "swampwalk" and subtype == "Swamp")
                or (kind == "islandwalk" and subtype == "Island")
                or (kind == "nonbasic landwalk" and "basic" not in supers)
                or (kind == "snow swampwalk" and subtype == "Swamp" and "snow" in supers)
                or (kind == "legendary landwalk" and "legendary" in supers)):
            return True
    return False


lands_strategy = st.lists(st.tuples(st.sampled_from(("alice", "bob")),
                                    st.sampled_from(SUBTYPES),
                                    st.frozensets(st.sampled_from(SUPERTYPES))), max_size=3)


@given(st.lists(st.sampled_from(KINDS), min_size=1, max_size=2, unique=True), lands_strategy)
@settings(max_examples=50, deadline=None)
def test_702_14c_verdict_and_registration_order(
        kinds: list[str], lands: list[tuple[str, str, frozenset[str]]]) -> None:
    """702.14c: one violation for each kind of landwalk the defending player has a land
    for, and none otherwise; whatever the plugins' call order (design)."""
    verdicts = []
    for engine in engines():
        state = engine.game(["alice", "bob"], [
            engine.creature("a", "alice", 2, 2, *kinds), engine.creature("b", "bob", 2, 2),
            *(land(f"l{i}", c, s, supertypes=tuple(sup)) for i, (c, s, sup) in
              enumerate(lands))])
        state = engine.declare_attackers(state, {"a": "bob"}).state
        verdicts.append(engine.block_violations(state, {"b": "a"}))
    assert verdicts[0] == verdicts[1]
    assert len(verdicts[0]) == sum(kind_matches(k, lands) for k in kinds)


class TestLandwalkConformance(KeywordConformance):
    """The conformance kit's invariants (733, 510.1a, 120.4, order independence), with
    the evasion keywords it combines with."""

    plugin = landwalk
    builtins = False
    extra_plugins = (flying, reach)
    max_examples = 25
