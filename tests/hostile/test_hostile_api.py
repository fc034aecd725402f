"""API misuse (issue 14, items 5, 11 and 12; issue 13, item 9).

Each misuse in :data:`MISUSES` must raise a typed redzone error (a
:class:`~redzone.RulesError` that is also a ``ValueError``, or a
``KeyError`` for an unknown id) naming the problem, and leave the state it
was given unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hostile_kit import board, snapshot
from redzone import (
    AddCounters,
    Engine,
    GainLife,
    GameState,
    IllegalActionError,
    Keyword,
    MakeBlock,
    Pump,
    RulesError,
    UnknownKeywordError,
)
from redzone.kernel.errors import BadQueryError, EngineMismatchError, UnknownObjectError
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import new_game


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(verify=True)


def _attacked(engine: Engine, state: GameState) -> GameState:
    return engine.declare_attackers(state, {"ogre": "bob"}).state


#: name -> (the misuse, given the engine and the board; the error type; a
#: text the message must hold)
MISUSES: dict[str, tuple[Callable[[Engine, GameState], Any], type[Exception], str]] = {
    # item 12: queries raise typed errors
    "lethal-damage-of-a-ghost": (lambda e, s: e.lethal_damage(s, "ghost", "g2"),
                                 UnknownObjectError, "source 'ghost'"),
    "lethal-damage-to-a-ghost": (lambda e, s: e.lethal_damage(s, "ogre", "g2"),
                                 UnknownObjectError, "creature 'g2'"),
    "default-assignment-at-main": (lambda e, s: e.default_assignment(s), BadQueryError,
                                   "the game is at 'main'"),
    "damage-duties-after-attacks": (lambda e, s: e.damage_duties(_attacked(e, s)),
                                    BadQueryError, "'declare_attackers'"),
    "assignment-violations-at-main": (lambda e, s: e.assignment_violations(s, {}),
                                      BadQueryError, "510.1"),
    "attack-violations-of-none": (lambda e, s: e.attack_violations(s, None), BadQueryError,
                                  "NoneType, not a mapping"),
    "attack-violations-with-a-list": (lambda e, s: e.attack_violations(s, {"ogre": ["bob"]}),
                                      BadQueryError, "'ogre' -> ['bob']"),
    "block-violations-of-a-str": (lambda e, s: e.block_violations(_attacked(e, s), "wall"),
                                  BadQueryError, "not a mapping"),
    "block-violations-with-an-int": (
        lambda e, s: e.block_violations(_attacked(e, s), {"wall": 3}),
        BadQueryError, "'wall' -> 3"),
    "perform-pump-with-strings": (lambda e, s: e.perform(s, Pump("wall", "3", 3)),
                                  BadQueryError, "Pump.power is '3'"),
    "perform-pump-an-int-target": (lambda e, s: e.perform(s, Pump(3, 1, 1)),
                                   BadQueryError, "Pump.target is 3"),
    "perform-gain-too-much-life": (lambda e, s: e.perform(s, GainLife("bob", 10**12)),
                                   BadQueryError, "within ±1,000,000"),
    "perform-on-not-a-state": (lambda e, s: e.perform("state", Pump("wall", 1, 1)),
                               BadQueryError, "not a GameState"),
    # the queries and commands a host calls with what it has at hand: each
    # refusal typed, as attack_violations and block_violations refuse alike
    "is-legal-attack-of-none": (lambda e, s: e.is_legal_attack(s, None), BadQueryError,
                                "NoneType, not a mapping"),
    "is-legal-attack-of-a-list": (lambda e, s: e.is_legal_attack(s, ["ogre"]),
                                  BadQueryError, "list, not a mapping"),
    "is-legal-attack-with-an-int": (lambda e, s: e.is_legal_attack(s, {"ogre": 5}),
                                    BadQueryError, "'ogre' -> 5"),
    "is-legal-block-of-none": (lambda e, s: e.is_legal_block(_attacked(e, s), None),
                               BadQueryError, "NoneType, not a mapping"),
    "is-legal-block-with-an-int": (lambda e, s: e.is_legal_block(_attacked(e, s), {"wall": 5}),
                                   BadQueryError, "'wall' -> 5"),
    "declare-attackers-of-none": (lambda e, s: e.declare_attackers(s, None), BadQueryError,
                                  "attacks is None"),
    "declare-blockers-of-none": (lambda e, s: e.declare_blockers(_attacked(e, s), None),
                                 BadQueryError, "blocks is None"),
    "choices-for-declaring-none": (lambda e, s: e.choices_for(s, "declare_attackers", None),
                                   BadQueryError, "attacks is None"),
    # item 11: an action that makes no sense in its step
    "block-after-declare-attackers": (
        lambda e, s: e.perform(_attacked(e, s), MakeBlock("wall", "ogre")),
        IllegalActionError, "blockers are declared in the declare blockers step"),
    # item 5: a state records its rules edition and keyword set
    "another-edition": (lambda e, s: Engine("m10").begin_combat(s), EngineMismatchError,
                        "'foundations', but this engine plays 'm10'"),
    "a-keyword-the-engine-blocks": (
        lambda e, s: Engine(block=["trample"]).resolve(s, {"ogre": "bob"}),
        EngineMismatchError, "keyword 'trample'"),
    "a-keyword-the-engine-blocks-a-bare-state": (
        lambda e, s: Engine(block=["trample"]).perform(
            new_game(["alice", "bob"], [s.objects["ogre"]]), Pump("ogre", 1, 1)),
        EngineMismatchError, "keyword 'trample'"),
    # Engine.resolve's actions (117.1): an action of the wrong type was an
    # internal TypeError ("cannot unpack") blaming redzone.
    "resolve-action-not-a-pair": (lambda e, s: e.resolve(s, {"ogre": "bob"}, actions=[5]),
                                  BadQueryError, "actions[0] is 5, where a (step, action)"),
    "resolve-action-not-an-action": (
        lambda e, s: e.resolve(s, {"ogre": "bob"}, actions=[("declare_attackers", 5)]),
        BadQueryError, "actions[0]: 5 is not an action"),
    "resolve-actions-a-string": (lambda e, s: e.resolve(s, {"ogre": "bob"}, actions="x"),
                                 BadQueryError, "where (step, action) pairs were expected"),
    "resolve-additional-combat-not-a-plan": (
        lambda e, s: e.resolve(s, {"ogre": "bob"}, additional_combats=[{"ogre": "bob"}]),
        BadQueryError, "additional_combats[0] is dict, where a CombatPlan"),
    # keywords
    "keyword-number-over-the-bound": (lambda e, s: e.keyword("toxic 99999999999999999999"),
                                      UnknownKeywordError, "over the bound of 1,000"),
    "keyword-object-lying-about-its-args": (
        lambda e, s: e.game(["alice", "bob"], [e.creature("snake", "alice", 1, 1).evolve(
            printed_keywords=(Keyword("toxic", "toxic 1", ("99",)),))]),
        UnknownKeywordError, "doesn't parse to"),
    "keyword-not-text": (lambda e, s: e.keyword(3), UnknownKeywordError, "a keyword is a str"),
    "unknown-keyword-policy": (lambda e, s: Engine(unknown_keywords="maybe"), ValueError,
                               "'error', 'inert'"),
    # the state itself can't be written through dict methods
    "dict-setitem-on-the-state": (lambda e, s: dict.__setitem__(s.objects, "x", 1), TypeError,
                                  "'dict' object"),
    "frozen-map-init-again": (lambda e, s: s.objects.__init__({}), TypeError, "immutable"),
    "frozen-map-update": (lambda e, s: s.players.update({}), TypeError, "immutable"),
    "frozen-map-attribute": (lambda e, s: setattr(s.players, "_items", {}), TypeError,
                             "immutable"),
}


@pytest.mark.parametrize("name", sorted(MISUSES))
def test_api_misuse_raises_a_typed_error_and_changes_nothing(engine: Engine,
                                                            name: str) -> None:
    """Items 5, 11, 12: each misuse raises its typed error naming the
    problem; the state given is unchanged."""
    misuse, kind, text = MISUSES[name]
    state = board(engine)
    before = snapshot(state)
    with pytest.raises(kind) as info:
        misuse(engine, state)
    assert text in str(info.value), str(info.value)
    if kind not in (TypeError, ValueError) or isinstance(info.value, RulesError):
        assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)
    assert snapshot(state) == before


def test_unknown_ids_are_key_errors_too(engine: Engine) -> None:
    """Item 12: an unknown id is a KeyError (and a ValueError), so old
    ``except KeyError`` code keeps working."""
    with pytest.raises(KeyError):
        engine.lethal_damage(board(engine), "ghost", "wall")


def test_the_same_engine_and_state_still_work(engine: Engine) -> None:
    """The queries and commands the misuses abused work when used well."""
    state = board(engine)
    assert engine.lethal_damage(state, "ogre", "wall") == 2
    assert engine.attack_violations(state, {"ogre": "bob"}) == ()
    out = engine.perform(state, Pump("wall", 3, 3))
    assert out.state.objects["wall"].toughness == 5
    assert engine.perform(state, AddCounters("wall", {"+1/+1": 1})).state.objects[
        "wall"].toughness == 3
    assert Engine().rules == state.rules


def test_a_state_records_its_edition_and_keyword_set(engine: Engine) -> None:
    """Item 5: a state made by an engine records the names of the keywords it
    knew; an engine with more keywords can honour it, one with fewer can't."""
    state = board(engine)
    assert "trample" in state.keyword_set and set(state.keyword_set) == set(
        engine.hooks.keyword_infos)
    assert state.rules == "foundations"
    wider = Engine(plugins=[], verify=True)
    assert wider.begin_combat(state).state.step == "beginning_of_combat"
    fewer = Engine(block=["flying"])
    with pytest.raises(EngineMismatchError, match="'flying'"):
        fewer.begin_combat(state)


def test_inert_keywords(engine: Engine) -> None:
    """Issue 13 item 9: known non-combat keywords are accepted by name as
    inert; unknown ones under the "inert" policy too; neither changes the
    combat."""
    k = engine.keyword("Ward 2")
    assert (k.name, k.args, k.number) == ("ward", ("2",), 2)
    assert engine.keyword("hexproof from blue").name == "hexproof"
    with pytest.raises(UnknownKeywordError):
        engine.keyword("moonwalking")
    inert = Engine(unknown_keywords="inert", verify=True)
    assert inert.keyword("moonwalking").name == "moonwalking"
    for e in (engine, inert):
        plain = e.game(["alice", "bob"], [e.creature("drake", "alice", 3, 3, "flying")])
        decorated = e.game(["alice", "bob"], [e.creature(
            "drake", "alice", 3, 3, "flying", "flash", "ward 1",
            *(["moonwalking"] if e is inert else []))])
        a = e.resolve(plain, {"drake": "bob"}).state.players
        b = e.resolve(decorated, {"drake": "bob"}).state.players
        assert a == b and a["bob"].life == 17


def test_a_plugin_can_take_over_an_inert_keyword() -> None:
    """A plugin declaring a keyword of the inert list gets it (the list only
    covers keywords no plugin provides)."""
    import redzone
    from hostile_kit import hostile
    from redzone import KeywordSpec

    flash = hostile("flash_plugin", redzone_keywords=lambda: [KeywordSpec("flash", "702.8")])
    assert redzone.Engine(plugins=[flash]).keyword("flash").name == "flash"
    assert not redzone.Engine(plugins=[flash]).hooks.is_inert_name("flash")


def test_frozen_map_is_still_a_mapping() -> None:
    """The read-only map behaves as a mapping: equal to a dict with the same
    items, hashable, and its copies change only the copy."""
    m: FrozenMap[str, int] = FrozenMap({"a": 1})
    assert m == {"a": 1} and m == {"a": 1} and m != {"a": 2}
    assert m.set("b", 2) == {"a": 1, "b": 2} and m == {"a": 1}
    assert hash(m) == hash(FrozenMap(a=1)) and dict(m) == {"a": 1}
    assert m.get("z") is None and m.get("a") == 1 and "a" in m and len(m) == 1
    assert not isinstance(m, dict)
