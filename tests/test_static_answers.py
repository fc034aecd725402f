"""Static answers (redzone.kernel._static): the answers to the hooks marked
static are asked once per characteristics of the objects they are about,
asked again when one of those changes, asked every time from an
implementation declared ``@dynamic``, and checked by verify mode, which
recomputes every answer it keeps (once per state it is used in) and names a
plugin whose answer depends on more than it declares. (The calls are
counted outside verify mode, which asks again about what it keeps.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Action,
    AddContinuous,
    AddCounters,
    Damage,
    Engine,
    GainControl,
    GameState,
    PluginError,
    Pump,
    dynamic,
)
from redzone.kernel import hookspecs
from redzone.kernel._static import MAX_KEPT, STATIC_HOOKS
from redzone.testing import plugin_module as plugin

Calls = list[tuple[str, ...]]


def _zap(calls: Calls, *, declared: bool = False) -> Any:
    """A plugin whose keyword ``zap`` makes a source's damage lethal at 1
    (as deathtouch, 702.2c), counting the calls."""

    def redzone_lethal_damage(state: GameState, source: str, creature: str) -> int | None:
        calls.append((source, creature))
        return 1 if state.objects[source].has("zap") else None

    fn = dynamic(redzone_lethal_damage) if declared else redzone_lethal_damage
    if declared:  # (declaring no keyword: asked about every state)
        return plugin("dynzap", redzone_lethal_damage=fn)
    return plugin("zapper", "zap", redzone_lethal_damage=fn)


def _board(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [
        engine.creature("imp", "alice", 2, 2, "zap"),
        engine.creature("bear", "bob", 3, 3)])


def _lethal(engine: Engine, state: GameState) -> int:
    return engine.hooks.lethal_damage(state, "imp", "bear", 3)


def _do(engine: Engine, state: GameState, action: Action) -> GameState:
    return engine.perform(state, action).state


def test_109_3_an_answer_is_asked_once_per_characteristics() -> None:
    """702.2c, 109.3: the lethal damage a source's assignment needs is asked
    once for the same characteristics of the source and the creature, in
    another state too and whatever their status (tapped, damage marked);
    another pair of objects is asked for itself."""
    calls: Calls = []
    engine = Engine(discover=False, plugins=[_zap(calls)], verify=False)
    state = _board(engine)
    assert _lethal(engine, state) == 1
    tapped = state.with_permanents({"imp": state.objects["imp"].evolve(tapped=True, damage=1)})
    assert _lethal(engine, tapped) == 1
    assert _lethal(engine, state) == 1
    assert calls == [("imp", "bear")]
    assert engine.hooks.lethal_damage(state, "bear", "imp", 2) == 2
    assert calls == [("imp", "bear"), ("bear", "imp")]


@pytest.mark.parametrize("change", [
    Pump("imp", 1, 1),                                              # 613.4c
    AddCounters("imp", {"+1/+1": 1}),                               # 613.4c, 122.1a
    AddContinuous(affects=("imp",), remove_keywords=("zap",)),      # 613.1f
    AddContinuous(affects=("imp",), set_colors=("red",)),           # 613.1e
    GainControl("imp", "bob"),                                      # 613.1b
    Pump("bear", 0, 1),                                             # the other object
], ids=["pump", "counter", "loses-keyword", "colour", "control", "other-object"])
def test_109_3_a_change_of_characteristics_asks_again(change: Action) -> None:
    """109.3, 613: a change of either object's characteristics (a pump, a
    counter, a keyword lost or a colour set through the layers, a change of
    control) asks the plugins again, and the answer follows the new
    characteristics (losing zap, the source's lethal damage is the
    creature's toughness again: the plugin, whose object gate is zap, is
    then not asked at all, since neither object has it)."""
    calls: Calls = []
    engine = Engine(discover=False, plugins=[_zap(calls)], verify=False)
    state = _board(engine)
    assert _lethal(engine, state) == 1
    changed = _do(engine, state, change)
    lost = isinstance(change, AddContinuous) and bool(change.remove_keywords)
    assert _lethal(engine, changed) == (3 if lost else 1)
    asked = 1 if lost else 2
    assert len(calls) == asked
    assert _lethal(engine, state) == 1 and len(calls) == asked  # the first answer is still kept


def test_a_step_is_part_of_what_an_answer_is_kept_by() -> None:
    """510.4, 702.7b: whether a creature deals combat damage is asked per
    step; a plain argument beside the objects is part of the key."""
    calls: Calls = []

    def redzone_deals_combat_damage(state: GameState, creature: str, step: str) -> bool | None:
        calls.append((creature, step))
        return True if step == "first_strike_damage" else None

    engine = Engine(discover=False, plugins=[plugin(
        "early", "early", redzone_deals_combat_damage=redzone_deals_combat_damage)],
        verify=False)
    state = engine.game(["alice", "bob"], [engine.creature("imp", "alice", 2, 2, "early")])
    for _ in range(2):
        assert engine.hooks.deals_combat_damage(state, "imp", "first_strike_damage") is True
        assert engine.hooks.deals_combat_damage(state, "imp", "combat_damage") is None
    assert calls == [("imp", "first_strike_damage"), ("imp", "combat_damage")]


def test_an_object_off_the_battlefield_is_asked_about_every_time() -> None:
    """608.2h: a source that left the battlefield is read from its last
    known information, which is not its own characteristics: nothing is kept."""
    calls: Calls = []
    engine = Engine(discover=False, plugins=[_zap(calls)], verify=False)
    state = _board(engine)
    gone = state.with_permanents({"imp": state.objects["imp"].evolve(zone="graveyard")})
    for _ in range(2):
        _lethal(engine, gone)
    assert len(calls) == 2


def test_a_dynamic_implementation_is_asked_every_time_with_the_others() -> None:
    """702.2c: an implementation declared ``@dynamic`` is asked every time,
    and while it would be asked, so is every other implementation of the
    hook (the combined answer is never part kept, part new)."""
    static: Calls = []
    moving: Calls = []
    engine = Engine(discover=False, plugins=[_zap(static), _zap(moving, declared=True)],
                    verify=False)
    state = _board(engine)
    for _ in range(3):
        assert _lethal(engine, state) == 1
    assert len(moving) == 3 and len(static) == 3


def test_a_dynamic_implementation_kept_out_by_its_gate_lets_answers_be_kept() -> None:
    """A dynamic implementation whose gate keeps it out of a state (no object
    has its keyword) asks nothing there, so the others' answers are kept."""
    static: Calls = []
    moving: Calls = []

    def redzone_lethal_damage(state: GameState, source: str) -> int | None:
        moving.append((source,))
        return None

    engine = Engine(discover=False, plugins=[
        _zap(static), plugin("late", "late", redzone_lethal_damage=dynamic(
            redzone_lethal_damage))], verify=False)
    state = _board(engine)
    for _ in range(3):
        assert _lethal(engine, state) == 1
    assert len(static) == 1 and moving == []


def _grudge(*, declared: bool) -> Any:
    """A plugin whose lethal damage reads a player's life: more than the
    objects' characteristics."""

    def redzone_lethal_damage(state: GameState, creature: str) -> int | None:
        owner = state.objects[creature].controller
        return 1 if state.players[owner].life < 20 else None

    return plugin("grudge", "zap", redzone_lethal_damage=(
        dynamic(redzone_lethal_damage) if declared else redzone_lethal_damage))


def test_verify_mode_names_a_plugin_whose_static_answer_depends_on_the_state() -> None:
    """Verify mode recomputes every answer it keeps about each state it is
    used in: a plugin whose answer
    changes while the objects' characteristics don't (it reads a player's
    life) and that doesn't declare ``@dynamic`` is a PluginError naming the
    plugin, the hook and the objects."""
    engine = Engine(discover=False, plugins=[_grudge(declared=False)], verify=True)
    state = _board(engine)
    assert _lethal(engine, state) == 3
    hurt = state.with_players({"bob": state.players["bob"].evolve(life=10)})
    with pytest.raises(PluginError) as info:
        _lethal(engine, hurt)
    err = info.value
    assert (err.plugin, err.hook) == ("grudge", "redzone_lethal_damage")
    assert "'imp'" in str(err) and "'bear'" in str(err) and "@redzone.dynamic" in str(err)


def test_verify_mode_recomputes_a_kept_answer_once_per_state_it_is_used_in() -> None:
    """Verify mode's recomputation compares the kept answer with the one
    about each state it is used in, once per state: asked again about the
    same state, the plugin isn't asked again (the answer found about that
    state was compared already); asked about another state with the same
    characteristics, it is."""
    calls: Calls = []
    engine = Engine(discover=False, plugins=[_zap(calls)], verify=True)
    state = _board(engine)
    other = state.with_players({"bob": state.players["bob"].evolve(life=10)})
    assert _lethal(engine, state) == 1 and len(calls) == 1  # found
    assert _lethal(engine, state) == 1 and len(calls) == 1  # found about this state
    assert _lethal(engine, other) == 1 and len(calls) == 2  # recomputed about another
    assert _lethal(engine, other) == 1 and len(calls) == 2  # compared once for it
    assert _lethal(engine, state) == 1 and len(calls) == 3  # the last state compared changed


@pytest.mark.parametrize("verify", [False, True])
def test_a_declared_dynamic_answer_follows_the_state(verify: bool) -> None:
    """The same plugin declared ``@dynamic`` is asked every time: right in
    both modes, and verify mode has nothing to say."""
    engine = Engine(discover=False, plugins=[_grudge(declared=True)], verify=verify)
    state = _board(engine)
    assert _lethal(engine, state) == 3
    assert _lethal(engine, state.with_players({"bob": state.players["bob"].evolve(life=10)})) == 1


def test_a_kept_list_of_results_is_the_callers_own() -> None:
    """702.15b, 120.3: the results of a damage come as a new list each time:
    a caller that changes the one it got changes nothing kept."""
    engine = Engine(verify=False)
    state = engine.game(["alice", "bob"], [engine.creature("cat", "alice", 2, 2, "lifelink")])
    damage = Damage("cat", "bob", 2, combat=True, step="combat_damage")
    first = engine.hooks.damage_results(state, damage)
    assert [r.kind for r in first] == ["life_gain"]
    first.clear()
    assert engine.hooks.damage_results(state, damage) == engine.hooks.damage_results(
        state, damage) != []


def test_the_answers_kept_are_bounded() -> None:
    """What an engine keeps is bounded: past :data:`MAX_KEPT` answers of a
    hook the table is emptied and filled again, and the answers stay right."""
    calls: Calls = []
    engine = Engine(discover=False, plugins=[_zap(calls)], verify=False)
    state = _board(engine)
    table = engine.hooks.static_answers.tables["redzone_lethal_damage"]
    for base in range(MAX_KEPT + 10):
        assert engine.hooks.lethal_damage(state, "imp", "bear", base) == min(base, 1)
        assert len(table) <= MAX_KEPT
    assert len(calls) == MAX_KEPT + 10


def test_threads_sharing_an_engine_get_the_answers_one_thread_gets() -> None:
    """An engine may serve several threads at once: its table is filled
    idempotently, so threads asking about the same states at once get what
    one thread alone gets."""
    from concurrent.futures import ThreadPoolExecutor

    states = [FAST.game(["alice", "bob"], [
        FAST.creature("a", "alice", p, 2, *kws), FAST.creature("b", "bob", 2, t, "deathtouch"),
        FAST.creature("c", "alice", 1, 1, "trample")])
        for p in (1, 2, 3) for t in (1, 2) for kws in ((), ("first strike",), ("lifelink",))]
    alone = [_answers(Engine(verify=False), s) for s in states]
    shared = Engine(verify=False)
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda s: _answers(shared, s), states)) == alone


def test_dynamic_marks_functions_only() -> None:
    """The declaration is about a hook implementation: anything else is a
    TypeError saying so."""
    with pytest.raises(TypeError, match="@dynamic marks a hook implementation"):
        dynamic(3)  # type: ignore[type-var]


@pytest.mark.parametrize("hook", sorted(STATIC_HOOKS))
def test_each_static_hook_says_so_in_its_documentation(hook: str) -> None:
    """A plugin author learns from a hook's documentation that its answers
    are static, and how to declare an implementation dynamic."""
    doc = getattr(hookspecs, hook).__doc__ or ""
    assert "Static:" in doc and "redzone.dynamic" in doc


# ---------------------------------------------------------------------------
# The kept answers are the ones the plugins give: generated changes, every
# built-in keyword of the static hooks, against verify mode's recomputation
# ---------------------------------------------------------------------------

FAST = Engine(verify=False)
SLOW = Engine(verify=True)
_IDS = ("a", "b", "c")
_KEYWORDS = ("deathtouch", "first strike", "double strike", "trample",
             "trample over planeswalkers", "lifelink", "infect", "wither")
_CHANGES: list[Callable[[str], Action]] = [
    lambda c: Pump(c, 1, 0),
    lambda c: Pump(c, -1, -1),
    lambda c: AddCounters(c, {"+1/+1": 1}),
    lambda c: AddCounters(c, {"-1/-1": 1}),
    lambda c: GainControl(c, "bob"),
    *[lambda c, k=k: AddContinuous(affects=(c,), add_keywords=(k,)) for k in _KEYWORDS],
    *[lambda c, k=k: AddContinuous(affects=(c,), remove_keywords=(k,)) for k in _KEYWORDS],
    lambda c: AddContinuous(affects=(c,), lose_all_abilities=True),
]


def _answers(engine: Engine, state: GameState) -> list[Any]:
    h = engine.hooks
    on = [c for c in _IDS if c in state.objects and state.objects[c].on_battlefield]
    return ([h.lethal_damage(state, s, t, 9) for s in on for t in on]
            + [h.deals_combat_damage(state, c, step) for c in on
               for step in ("first_strike_damage", "combat_damage")]
            + [h.assigns_past_blockers(state, c) for c in on]
            + [h.damage_results(state, Damage(s, t, 2, combat=True, step="combat_damage"))
               for s in on for t in (*on, "alice", "bob")])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_KEYWORDS), max_size=2), st.lists(st.sampled_from(_KEYWORDS),
                                                                  max_size=2),
       st.lists(st.tuples(st.sampled_from(range(len(_CHANGES))), st.sampled_from(_IDS)),
                max_size=6))
def test_kept_answers_are_those_recomputed_after_any_change(
        first: list[str], second: list[str], changes: list[tuple[int, str]]) -> None:
    """702.2b-c, 702.4b-c, 702.7b, 702.15b, 702.19b, 702.80c, 702.90b-c,
    702.164c, 109.3: on boards of the built-in keywords whose answers are
    static, after any sequence of pumps, counters,
    changes of control and keywords gained or lost through the layers, the
    answers one long-lived engine keeps are the ones verify mode recomputes
    (it fails on a difference) and the ones it answers."""
    perms = [FAST.creature("a", "alice", 2, 2, *first), FAST.creature("b", "bob", 2, 3, *second),
             FAST.creature("c", "alice", 1, 1, "toxic 1")]
    state = FAST.game(["alice", "bob"], perms)
    assert _answers(FAST, state) == _answers(SLOW, state)
    for change, target in changes:
        if target not in state.objects or not state.objects[target].on_battlefield:
            continue
        state = FAST.perform(state, _CHANGES[change](target)).state
        assert _answers(FAST, state) == _answers(SLOW, state)
