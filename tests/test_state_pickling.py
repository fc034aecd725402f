"""A state pickled and unpickled is the same state (a batch sends one with
each job): its fields and its permanents' fields, in tuples; what is
derived from them is recomputed where used, and the notes an engine keeps
for itself (keyed by its own objects) are left out, since they mean nothing
in another process. The note of what changed since state-based actions
were last checked travels.
"""

from __future__ import annotations

import pickle
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from redzone import Engine, GameState, Permanent
from redzone.execution import simulate
from redzone.kernel.model import BEGAN_COMBAT, HONOURED, SBA_DIRTY, STEP_KIND
from redzone.testing.conformance import Case, cases, printed_keywords

ENGINE = Engine()


def _round_trip(state: GameState) -> GameState:
    back = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert isinstance(back, GameState)
    return back


def _same(state: GameState, back: GameState) -> None:
    assert type(back) is type(state) and back == state and hash(back) == hash(state)
    assert list(back.objects) == list(state.objects)  # the map's order too
    for key, perm in state.objects.items():
        other = back.objects[key]
        assert type(other) is type(perm) and other == perm and hash(other) == hash(perm)
        assert attrs.astuple(other, recurse=False) == attrs.astuple(perm, recurse=False)
        # derived values, recomputed: the same
        assert (other.power, other.toughness, other.keywords) == (
            perm.power, perm.toughness, perm.keywords)
    assert back.keyword_set == state.keyword_set
    assert back.keyword_names_present == state.keyword_names_present


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(ENGINE, printed_keywords(ENGINE, first_only=True)))
def test_a_pickled_board_is_the_same_state_and_resolves_the_same(case: Case) -> None:
    state = case.state
    _ = [p.toughness for p in state.objects.values()]  # derived values cached
    back = _round_trip(state)
    _same(state, back)
    decisions: dict[str, Any] = {"attacks": case.attacks, "blocks": case.blocks,
                                 "assign": case.assign}
    here = [o.json for o in simulate([(state, decisions)], engine=ENGINE)]
    there = [o.json for o in simulate([(back, decisions)], engine=ENGINE)]
    assert there == here


def test_a_state_in_combat_keeps_its_notes_but_not_an_engines() -> None:
    """506.1, 704.3: a state after attackers are declared carries the
    kernel's notes; the ones keyed by the engine's own objects are left
    out (the engine works them out again), the note of what changed since
    state-based actions were checked travels, and the combat goes on to the
    same end."""
    c = ENGINE.creature
    state = ENGINE.game(["alice", "bob"], [c("bear", "alice", 2, 2),
                                          c("ox", "alice", 1, 4, "trample"),
                                          c("wall", "bob", 0, 3)])
    attacked = ENGINE.declare_attackers(state, {"bear": "bob", "ox": "bob"}).state
    ENGINE.next_step(attacked)  # notes the next step's kind on the state
    noted = attacked.__dict__
    back = _round_trip(attacked)
    _same(attacked, back)
    for note in (HONOURED, STEP_KIND, BEGAN_COMBAT):
        assert note not in back.__dict__
    if SBA_DIRTY in noted:
        assert back.__dict__[SBA_DIRTY] == noted[SBA_DIRTY]

    def finish(st: GameState) -> GameState:
        st = ENGINE.declare_blockers(st, {"wall": ("ox",)}).state
        while ENGINE.next_step(st) in ("first_strike_damage", "combat_damage"):
            st = ENGINE.combat_damage(st).state
        return st

    assert finish(back) == finish(attacked)


@attrs.frozen(cache_hash=True, slots=False)
class MarkedPermanent(Permanent):
    """A permanent of a class of its own: pickled whole, as before."""

    mark: str = "x"


def test_a_permanent_of_another_class_travels_whole_and_one_travels_as_its_fields() -> None:
    """A permanent of a subclass is pickled whole; a Permanent as its fields
    only: what else its ``__dict__`` holds is no part of its value."""
    c = ENGINE.creature
    bear = c("bear", "alice", 2, 2)
    other = MarkedPermanent(**{f.name: getattr(bear, f.name)
                               for f in attrs.fields(Permanent)}, mark="y")
    other = other.evolve(id="other", name="other")
    state = ENGINE.game(["alice", "bob"], [bear, c("wall", "bob", 0, 3)])
    state = state.evolve(objects=state.objects.set("other", other))
    noted = state.objects["wall"]
    noted.__dict__["_a_plugins_note"] = (1, 2)  # what no field names
    back = _round_trip(state)
    _same(state, back)
    assert type(back.objects["other"]) is MarkedPermanent
    assert back.objects["other"].mark == "y"
    assert "_a_plugins_note" not in back.objects["wall"].__dict__


def test_a_pickle_of_another_shape_is_refused_not_misread() -> None:
    """A state pickled by a version whose fields differ does not load as a
    state with its values under the wrong names."""
    import pytest
    from redzone.kernel.model import _unpickled_state

    state = ENGINE.game(["alice", "bob"], [ENGINE.creature("bear", "alice", 2, 2)])
    _fn, (cls, count, values, whole, dirty, _never_checked) = state.__reduce__()
    assert count == 1 and whole is None
    assert _unpickled_state(cls, count, values, whole, dirty) == state  # as written: loads
    with pytest.raises(ValueError):  # one field fewer in a permanent
        _unpickled_state(cls, count, values[:-1], whole, dirty)
    with pytest.raises(ValueError):  # one field more
        _unpickled_state(cls, count, (*values, 0), whole, dirty)
    with pytest.raises(ValueError):  # a permanent fewer than it says
        _unpickled_state(cls, 2, values, whole, dirty)
