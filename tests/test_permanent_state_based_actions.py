"""``redzone_permanent_state_based_actions``: a plugin's state-based actions
about one permanent, asked only about the permanents that changed (704.3).

The whole-state hook (``redzone_state_based_actions``) is asked at every
check and looks at every permanent each time; a command checks after each
trigger resolves (117.5), so a board with many triggers paid its size once
per trigger. The per-permanent hook is asked as the core checks its own
verdicts: about the permanents changed since the state was last found
clean, and about every permanent on the battlefield the first time a state
built by ``game`` is checked (the core knows its own verdicts as a
permanent is built, not the plugins').
"""

from __future__ import annotations

import pickle

from redzone import DealDamage, Engine, GameState, StateBasedAction
from redzone.testing import plugin_module as plugin

#: The test plugin's counter: a creature with one is destroyed (a verdict
#: that reads the permanent alone).
DOOM = "doom"


def doomed(asked: list[str]) -> Engine:
    """An engine whose one plugin destroys a creature with a doom counter,
    noting every permanent it is asked about in ``asked``."""

    def verdict(state: GameState, permanents: tuple[str, ...]) -> list[StateBasedAction]:
        assert permanents, "asked about no permanent"
        asked.extend(permanents)
        return [StateBasedAction("destroy", "704.5-test", object=i) for i in permanents
                if state.objects[i].counters.get(DOOM, 0)]

    return Engine(discover=False, plugins=[
        plugin("doom", redzone_permanent_state_based_actions=verdict)])


def board(engine: Engine, doom: str = "") -> GameState:
    """Ten bears on the battlefield (``doom`` with a doom counter) and one in
    a graveyard."""
    c = engine.creature
    return engine.game(["alice", "bob"], [
        *(c(f"bear{i}", "alice" if i % 2 else "bob", 2, 2,
            counters={DOOM: 1} if f"bear{i}" == doom else {}) for i in range(10)),
        c("gone", "bob", 2, 2, zone="graveyard")])


def test_704_3_a_built_state_is_asked_about_every_permanent_on_the_battlefield() -> None:
    """704.3: the first check of a state built by ``game`` asks about every
    permanent on the battlefield, in id order (what a plugin judges can't be
    known as the state is built), and never about one in another zone."""
    asked: list[str] = []
    engine = doomed(asked)
    engine.check_state_based_actions(board(engine))
    assert asked == sorted(f"bear{i}" for i in range(10))


def test_704_3_then_only_about_the_permanents_that_changed() -> None:
    """704.3: once a check found the state clean, the next one asks only about
    the permanent that changed since, and a check of a state in which no
    permanent changed (nothing did, or a player alone) doesn't ask."""
    asked: list[str] = []
    engine = doomed(asked)
    clean = engine.check_state_based_actions(board(engine)).state
    asked.clear()
    engine.check_state_based_actions(clean)
    engine.check_state_based_actions(clean.with_life("bob", 15))
    assert asked == []
    hurt = clean.with_permanents({"bear3": clean.objects["bear3"].evolve(damage=1)})
    engine.check_state_based_actions(hurt)
    assert asked == ["bear3"]


def test_704_3_a_command_asks_about_what_it_changed() -> None:
    """704.3: a command (damage dealt by an action) asks about the permanent
    it changed, not about the board."""
    asked: list[str] = []
    engine = doomed(asked)
    clean = engine.check_state_based_actions(board(engine)).state
    asked.clear()
    engine.perform(clean, DealDamage("bear1", "bear4", 1))
    assert asked == ["bear4"]


def test_704_3_a_verdict_about_a_permanent_as_built_is_found_at_the_first_check() -> None:
    """704.3: a creature built with what a plugin's verdict reads (a doom
    counter: nothing the core checks) is destroyed by the first check, also
    after the built state travels through pickle; later states are not asked
    about it again."""
    engine = doomed([])
    state = board(engine, doom="bear7")
    for given in (state, pickle.loads(pickle.dumps(state))):
        out = engine.check_state_based_actions(given)
        assert [(e.kind, e.rule, e.object) for e in out.events
                if e.kind == "destroyed"] == [("destroyed", "704.5-test", "bear7")]
        assert out.state.objects["bear7"].zone == "graveyard"


def test_704_3_a_copy_that_drops_the_note_asks_about_every_permanent() -> None:
    """704.3: a state copied without the kernel's note of what changed (a
    plain ``evolve`` of its objects) is asked about every permanent on the
    battlefield: what changed is then unknown."""
    asked: list[str] = []
    engine = doomed(asked)
    clean = engine.check_state_based_actions(board(engine)).state
    asked.clear()
    copied = clean.evolve(objects=clean.objects.set(
        "bear2", clean.objects["bear2"].evolve(counters={DOOM: 1})))
    out = engine.check_state_based_actions(copied)
    # (The check repeats after destroying bear2, 704.3: about the nine left.)
    assert asked[:10] == sorted(f"bear{i}" for i in range(10))
    assert out.state.objects["bear2"].zone == "graveyard"


def test_704_3_its_actions_are_performed_at_once_with_the_core_and_counted_once() -> None:
    """704.3: a plugin's verdict about one permanent is performed in the same
    check as the core's (a creature with lethal damage, 704.5g) and the
    whole-state hook's, and the same action found twice is performed once."""
    def whole(state: GameState) -> list[StateBasedAction]:
        return [StateBasedAction("destroy", "704.5-test", object="bear5")]

    def each(state: GameState, permanents: tuple[str, ...]) -> list[StateBasedAction]:
        return [StateBasedAction("destroy", "704.5-test", object=i) for i in permanents
                if i in ("bear1", "bear5")]

    engine = Engine(discover=False, plugins=[plugin(
        "both", redzone_state_based_actions=whole,
        redzone_permanent_state_based_actions=each)])
    state = board(engine)
    state = state.with_permanents({"bear3": state.objects["bear3"].evolve(damage=2)})
    out = engine.check_state_based_actions(state)
    destroyed = sorted((e.object, e.rule) for e in out.events if e.kind == "destroyed")
    assert destroyed == [("bear1", "704.5-test"), ("bear3", "704.5g"), ("bear5", "704.5-test")]
    dies = [e for e in out.events if e.kind == "dies"]
    assert len(dies) == 3 and {e.object for e in dies} == {"bear1", "bear3", "bear5"}


def test_704_5h_deathtouch_destroys_through_the_per_permanent_hook(engine: Engine) -> None:
    """704.5h, 702.2b: deathtouch's verdict is about the creature it damaged,
    which lacks deathtouch: it is asked about it (the state has deathtouch)
    and destroys it, once the mark is set by the damage."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("asp", "alice", 1, 1, "deathtouch"),
                                           c("ox", "bob", 1, 8)])
    state = engine.check_state_based_actions(state).state
    out = engine.perform(state, DealDamage("asp", "ox", 1))
    assert [(e.kind, e.rule, e.object) for e in out.events if e.kind == "destroyed"] == [
        ("destroyed", "704.5h", "ox")]
