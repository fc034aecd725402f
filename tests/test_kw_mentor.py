"""Mentor (CR 702.134): "Whenever this creature attacks, put a +1/+1 counter on
target attacking creature with power less than this creature's power"
(702.134a); each instance triggers separately (702.134b). Its target is chosen
as it goes on the stack (603.3d) and checked again as it resolves (608.2b)."""

from __future__ import annotations

import pytest
import redzone_keywords.mentor as mentor
from _long import samples
from redzone import Engine, GameState, IllegalActionError, Move, Pump
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    return Engine(auto_triggers=False)


def board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [c("sage", "alice", 3, 3, "mentor"),
                                          c("cub", "alice", 1, 1), c("pup", "alice", 2, 2),
                                          c("ogre", "alice", 3, 3)])


def test_702_134a_default_target_the_greatest_lesser_power(engine: Engine) -> None:
    """702.134a: the target is an attacking creature with power less than the
    mentor's (the ogre, power 3, isn't); by default the greatest such."""
    out = engine.declare_attackers(board(engine), {"sage": "bob", "cub": "bob", "pup": "bob",
                                                   "ogre": "bob"})
    assert dict(out.state.objects["pup"].counters) == {"+1/+1": 1}
    made = {c.key: c for c in out.choices}
    target = made["mentor@sage:target"]
    assert (target.options, target.answer, target.by_default) == (("cub", "pup"), ("pup",),
                                                                 True)


def test_603_3d_the_target_is_chosen_as_it_goes_on_the_stack(manual: Engine) -> None:
    """603.3d: the answer is given with the declaration, and is on the trigger
    on the stack before anything resolves; an illegal answer is refused and
    nothing changes."""
    state = board(manual)
    attacks = {"sage": "bob", "cub": "bob", "pup": "bob"}
    out = manual.declare_attackers(state, attacks, choices={"mentor@sage:target": "cub"})
    assert out.state.stack[0].choices["target"] == ("cub",)
    resolved = manual.resolve_trigger(out.state)
    assert dict(resolved.state.objects["cub"].counters) == {"+1/+1": 1}
    with pytest.raises(IllegalActionError) as info:
        manual.declare_attackers(state, attacks, choices={"mentor@sage:target": "ogre"})
    assert info.value.rule == "702.134a"


def test_608_2b_the_target_grew_and_is_illegal(manual: Engine) -> None:
    """608.2b: if the target's power is no longer less than the mentor's when
    the ability resolves, it does nothing."""
    out = manual.declare_attackers(board(manual), {"sage": "bob", "pup": "bob"})
    grown = manual.perform(out.state, Pump("pup", 1, 0)).state
    resolved = manual.resolve_trigger(grown)
    assert dict(resolved.state.objects["pup"].counters) == {}


def test_603_3d_no_legal_target_removes_it(engine: Engine) -> None:
    """603.3d: with no legal target, the ability is removed from the stack."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("sage", "alice", 1, 1, "mentor"),
                                           c("ogre", "alice", 3, 3)])
    out = engine.declare_attackers(state, {"sage": "bob", "ogre": "bob"})
    assert ("removed_from_stack", "603.3d") in [(e.kind, e.rule) for e in out.events]
    assert not out.state.objects["ogre"].counters


def test_508_3a_508_4_a_mentor_put_onto_the_battlefield_attacking_does_not_trigger(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the
    battlefield attacking" (508.4). The sage with mentor ("Whenever this
    creature attacks", 702.134a) enters the battlefield attacking bob (a
    ``Move``, with its ``enters_battlefield`` event) beside the attacking 1/1
    cub: no trigger, and the cub gets no counter."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("sage", "alice", 3, 3, "mentor", zone="hand"),
                                           c("cub", "alice", 1, 1)])
    state = engine.declare_attackers(state, {"cub": "bob"}).state
    out = engine.perform(state, Move("sage", "battlefield", attacking="bob"))
    assert out.state.combat is not None and out.state.combat.attacks["sage"] == "bob"
    assert [e for e in out.events if e.kind == "trigger"] == []
    assert dict(out.state.objects["cub"].counters) == {}


def test_702_134b_two_instances_trigger_separately(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("sage", "alice", 4, 4, "mentor", "mentor"),
                                           c("cub", "alice", 1, 1)])
    out = engine.declare_attackers(state, {"sage": "bob", "cub": "bob"})
    assert dict(out.state.objects["cub"].counters) == {"+1/+1": 2}
    assert {c.key for c in out.choices} >= {"mentor@sage:target", "mentor@sage#2:target"}


class TestMentorConformance(KeywordConformance):
    plugin = mentor
    max_examples = samples(15, 40)  # boards per invariant (40: the long run)
