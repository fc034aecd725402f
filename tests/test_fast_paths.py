"""The engine's shortcuts give the results of the long way round.

Outside verify mode, the engine skips work it can prove changes nothing: it
doesn't ask hooks no implementation would answer (the keyword and state
gates, ``Hooks.silent``), runs plugin answers without verify mode's
bookkeeping, and doesn't check its own default assignment where no plugin's
assignment check is asked. Verify mode asks every implementation whatever
its gate (the rest of the suite runs the shortcuts; CI's verify pass runs
its plugin-facing tests in verify mode): here the bundled examples and
generated boards are resolved both ways, and the outcomes must be the same
(733: the same game, the same result).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, IllegalActionError, examples
from redzone.formats.outcome import dumps, outcome_json, resolve
from redzone.formats.scenario import load
from redzone.kernel import sba as _sba
from redzone.kernel.frozen import _UNCHANGED, Copyable, FrozenMap, cached_properties, unchanged
from redzone.kernel.model import (
    SBA_DIRTY,
    Condition,
    Keyword,
    Modification,
    Permanent,
    Player,
    creature,
)
from redzone.testing.conformance import Case, cases, legalize, play, printed_keywords

NAMES = examples.names()
FAST = Engine(verify=False)
SLOW = Engine(verify=True)
KEYWORDS = printed_keywords(SLOW)


def _run(name: str, verify: bool) -> str:
    scenario = load(examples.path(name),
                    engine_factory=lambda rules: Engine(rules, verify=verify))
    return dumps(outcome_json(resolve(scenario)))


@pytest.mark.parametrize("name", NAMES)
def test_example_resolves_the_same_with_and_without_verify_mode(name: str) -> None:
    """733, 510.1: the shortcuts outside verify mode (gates, plain answers,
    the trusted default assignment) change no example's outcome."""
    assert _run(name, verify=False) == _run(name, verify=True)


def _played(engine: Engine, case: Case) -> tuple[Any, ...]:
    try:
        records = play(engine, case)
    except IllegalActionError as err:
        return ("illegal", type(err).__name__, str(err))
    return ("ok", records[-1].after if records else case.state,
            tuple(e for r in records for e in r.events))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(SLOW, KEYWORDS, max_attackers=3, max_blockers=3))
def test_generated_boards_resolve_the_same_with_and_without_verify_mode(case: Case) -> None:
    """733, 510.1, 702.19b: on boards mixing every loaded keyword, a whole
    combat played step by step with the default assignments ends in the same
    state, with the same events, with or without the shortcuts."""
    legal = legalize(SLOW, case)
    if legal is None:
        return
    assert _played(FAST, legal) == _played(SLOW, legal)


def test_the_gates_are_taken_only_outside_verify_mode() -> None:
    """The comparisons above compare two paths: on a plain board no
    assignment check is asked outside verify mode (trample's is gated on
    trample), while verify mode asks every one whose plugin is imported (a
    plugin not imported yet answers nothing: its stand-in imports nothing
    while its gate keeps it out); on a trample board both modes ask it about
    the default assignment (702.19b)."""
    eager = Engine(verify=True)
    eager.hooks.pending.load_all()
    lazy = Engine(verify=True)
    for engine, plain_asked in ((FAST, False), (eager, True), (lazy, False)):
        for keywords, expected in (((), plain_asked), (("trample",), True)):
            state = engine.game(["alice", "bob"], [
                engine.creature("wurm", "alice", 6, 4, *keywords),
                engine.creature("bear", "bob", 2, 2)])
            state = engine.declare_attackers(state, {"wurm": "bob"}).state
            state = engine.declare_blockers(state, {"bear": "wurm"}).state
            assert engine.hooks.asks("redzone_assignment_violations", state) is expected


def _full_scan(state: GameState) -> list[Any]:
    """The core's state-based actions found by scanning every permanent (a
    copy of the state with the same objects, which carries no note), in the
    order the kernel performs them (it sorts them, 704.3: all at once)."""
    return _sba._dedupe(_sba.core_actions(state.evolve(objects=state.objects)))


def _noted(state: GameState) -> list[Any]:
    """The same, as the kernel checks: only the permanents the state's note
    names, and nothing when it names no player or permanent."""
    if state.__dict__.get(SBA_DIRTY) == frozenset():
        return []
    return _sba._dedupe(_sba.core_actions(state))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(SLOW, KEYWORDS, max_attackers=3, max_blockers=3), st.data())
def test_704_3_only_changed_permanents_are_checked_and_nothing_is_missed(
        case: Case, data: st.DataObject) -> None:
    """704.3: a state notes which players and permanents changed since they
    were last found clean, and the core checks only those. At every state of
    a combat mixing every keyword, and after then dealing lethal damage to,
    or removing, some of its permanents, or a player's life dropping to 0,
    that finds exactly what scanning every permanent finds."""
    legal = legalize(FAST, case)
    if legal is None:
        return
    assert _noted(legal.state) == _full_scan(legal.state)  # as built
    try:
        records = play(FAST, legal)
    except IllegalActionError:
        return
    for record in records:
        after = record.after
        # (Not always none: an indestructible creature keeps its lethal damage.)
        assert _noted(after) == _full_scan(after)
        on_field = sorted(p for p, perm in after.objects.items() if perm.zone == "battlefield")
        if not on_field:
            continue
        hurt_ids = data.draw(st.lists(st.sampled_from(on_field), unique=True, max_size=3))
        hurt = after.with_permanents({
            i: after.objects[i].evolve(damage=after.objects[i].toughness) for i in hurt_ids})
        assert _noted(hurt) == _full_scan(hurt)
        assert {a.object for a in _noted(hurt) if a.kind == "destroy"} >= {
            i for i in hurt_ids if "creature" in after.objects[i].types
            and after.objects[i].toughness > 0}
        gone = data.draw(st.lists(st.sampled_from(on_field), unique=True, max_size=2))
        moved, _events = _sba.move_many_to_zone(hurt, [(i, "701.8") for i in gone],
                                                "graveyard", after.step)
        assert _noted(moved) == _full_scan(moved)
        player = data.draw(st.sampled_from(sorted(after.players)))
        poorer = after.with_life(player, 0)
        assert _noted(poorer) == _full_scan(poorer)


def test_704_3_a_new_game_notes_the_permanents_that_call_for_actions() -> None:
    """704.3, 704.5d, 704.5f, 704.5g: a game is built noting the permanents
    a first check must look at (a 0-toughness creature, one with lethal
    damage, a token off the battlefield) and none other; the first check
    finds what a scan of every permanent finds."""
    state = FAST.game(["alice", "bob"], [
        FAST.creature("bear", "alice", 2, 2),
        FAST.creature("husk", "alice", 1, 0),
        FAST.creature("ogre", "bob", 3, 3, damage=3),
        FAST.creature("spirit", "bob", 1, 1, token=True, zone="graveyard")])
    assert state.__dict__.get(SBA_DIRTY) == {"husk", "ogre", "spirit"}
    assert _noted(state) == _full_scan(state)
    assert {(a.kind, a.object) for a in _noted(state)} == {
        ("graveyard", "husk"), ("destroy", "ogre"), ("cease", "spirit")}


def test_704_3_a_new_game_notes_the_players_who_may_lose() -> None:
    """704.3, 704.5a-c, 810.8c-d: a game is built noting the players a first
    check must look at (no life, ten poison counters or more, a draw from an
    empty library: on a team of two fifteen counters lose, so ten is only
    looked at), and the first check finds what a full check finds."""
    players = [Player("alice"), Player("bob", life=0), Player("carol", poison=10),
               Player("dave", drew_from_empty=True), Player("erin", poison=9)]
    state = FAST.game(players)
    assert state.__dict__.get(SBA_DIRTY) == {"bob", "carol", "dave"}
    assert _noted(state) == _full_scan(state) != []
    team = [Player("alice", poison=10), Player("bob", poison=10), Player("carol", life=0),
            Player("dave", life=0), Player("erin")]
    state = FAST.game(team, teams={"ab": ("alice", "bob"), "cd": ("carol", "dave"),
                                   "e": ("erin",)})
    assert state.__dict__.get(SBA_DIRTY) == {"alice", "bob", "carol", "dave"}
    assert _noted(state) == _full_scan(state) != []


def test_704_3_a_change_after_a_clean_check_is_noted_and_found() -> None:
    """704.3, 704.5g: a creature dealt lethal damage after a clean check is
    in the note, and the check that reads only the note destroys it."""
    state = FAST.game(["alice", "bob"], [FAST.creature("bear", "alice", 2, 2),
                                         FAST.creature("ogre", "bob", 3, 3)])
    state = FAST.check_state_based_actions(state).state
    assert state.__dict__.get(SBA_DIRTY) == frozenset()
    hurt = state.with_permanents({"bear": state.objects["bear"].evolve(damage=2)})
    assert hurt.__dict__.get(SBA_DIRTY) == {"bear"}
    assert _noted(hurt) == _full_scan(hurt) != []
    out = FAST.check_state_based_actions(hurt)
    assert out.state.objects["bear"].zone == "graveyard"


@pytest.mark.parametrize("how", ["with_life", "with_players", "evolve"])
def test_704_3_a_player_changed_after_a_clean_check_is_checked(how: str) -> None:
    """704.3, 704.5a-b: a state found clean checks nothing until a player or
    permanent changes; a player changed after the clean check (by the
    state's methods, which note it, or by a plain copy, which drops the
    note) is checked, and loses."""
    state = FAST.game(["alice", "bob"], [FAST.creature("bear", "alice", 2, 2)])
    state = FAST.check_state_based_actions(state).state
    assert state.__dict__.get(SBA_DIRTY) == frozenset()
    bob = state.players["bob"]
    if how == "with_life":
        changed = state.with_life("bob", 0)
    elif how == "with_players":
        changed = state.with_players({"bob": bob.evolve(drew_from_empty=True)})
    else:
        changed = state.evolve(players=state.players.set("bob", bob.evolve(life=-1)))
    assert changed.__dict__.get(SBA_DIRTY) == (None if how == "evolve" else {"bob"})
    out = FAST.check_state_based_actions(changed)
    assert out.state.players["bob"].lost
    assert out.state.game_over is not None


# ---------------------------------------------------------------------------
# The fast evolve keeps a permanent's derived values only when their inputs
# didn't change
# ---------------------------------------------------------------------------

_CHANGES = {
    "tapped": st.booleans(),
    "damage": st.integers(0, 5),
    "zone": st.sampled_from(["battlefield", "graveyard", "exile"]),
    "counters": st.dictionaries(st.sampled_from(["+1/+1", "-1/-1", "loyalty"]),
                                st.integers(1, 3), max_size=2),
    "modifications": st.lists(st.builds(
        Modification, power=st.integers(-2, 2), toughness=st.integers(-2, 2),
        add_keywords=st.lists(st.sampled_from([Keyword("flying"), Keyword("reach")]),
                              max_size=1),
        duration=st.just("while"),
        condition=st.one_of(st.none(), st.just(Condition("on_battlefield", "x")))),
        max_size=2).map(tuple),
    "cant_block": st.booleans(),
    "lure": st.booleans(),
    "min_blockers": st.integers(0, 2),
    "base_toughness": st.integers(0, 3),
    "types": st.sampled_from([frozenset({"creature"}), frozenset({"planeswalker"})]),
}


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({}, optional=_CHANGES), st.fixed_dictionaries({}, optional=_CHANGES))
def test_fast_evolve_keeps_derived_values_only_while_their_inputs_hold(
        first: dict[str, Any], then: dict[str, Any]) -> None:
    """613.4, 704.5f-g, 611.2b: a copy made by the fast evolve (which keeps
    the derived values whose inputs didn't change: keywords, power,
    toughness, own state-based actions, flags, "for as long as"
    modifications) reads exactly what a copy built from scratch reads."""
    perm = creature("x", "p", 2, 2, "flying")
    for changes in (first, then):
        for name in cached_properties(Permanent):
            getattr(perm, name)  # every derived value computed, so each can be carried
        perm = perm.evolve(**changes)
        fresh = attrs.evolve(perm)
        for name in cached_properties(Permanent):
            assert getattr(perm, name) == getattr(fresh, name), name


def test_the_fast_evolve_skips_only_converters_that_would_change_nothing() -> None:
    """A converter declared to return values of one type as they are is not
    called on such a value (the copy holds the very object), and is called
    on anything else; every declared converter does return its type's
    values as they are."""
    samples: dict[type, object] = {FrozenMap: FrozenMap({"a": 1}), tuple: ("a",),
                                   frozenset: frozenset({"a"})}
    for converter, kind in _UNCHANGED.items():
        value = samples[kind]
        assert converter(value) is value, converter
    calls: list[object] = []

    def counted(value: Any) -> tuple[Any, ...]:
        calls.append(value)
        return value if type(value) is tuple else tuple(value)

    @attrs.frozen(slots=False)
    class Thing(Copyable):
        items: tuple[Any, ...] = attrs.field(default=(), converter=counted)

    unchanged(counted, tuple)
    try:
        thing = Thing()
        calls.clear()
        assert thing.evolve(items=("a",)).items == ("a",) and calls == []
        assert thing.evolve(items=["b"]).items == ("b",) and calls == [["b"]]
    finally:
        del _UNCHANGED[counted]
    perm = creature("x", "p", 2, 2)
    converted = perm.evolve(marks=["m"], counters={"+1/+1": 1})
    assert type(converted.marks) is frozenset and type(converted.counters) is FrozenMap
    assert converted.toughness == 3
