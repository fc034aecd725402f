"""Exert (CR 701.43): "You may exert [this creature] as it attacks"; to exert
a permanent, you choose to have it not untap during your next untap step
(701.43a)."""

from __future__ import annotations

import redzone_keywords.exert as exert
from _long import samples
from redzone import Engine, GameState
from redzone.kernel.plans import CombatPlan, TurnPlan
from redzone.testing import KeywordConformance


def board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("tiger", "alice", 3, 3, "exert"), c("cat", "alice", 2, 2, "exert"),
        c("bear", "bob", 2, 2),
        c("cub", "bob", 1, 1).evolve(zone="library"),
        c("kit", "alice", 1, 1).evolve(zone="library")])


def _two_turns_on(engine: Engine, choices: dict[str, str]) -> GameState:
    """Alice attacks, bob's turn, then alice's next turn begins."""
    return engine.resolve(board(engine), {"tiger": "bob", "cat": "bob"}, choices=choices,
                          turns=[TurnPlan(CombatPlan({})), TurnPlan(CombatPlan({}))]).state


def test_701_43a_an_exerted_creature_does_not_untap_in_the_next_untap_step(
        engine: Engine) -> None:
    """701.43a: the exerted tiger stays tapped in alice's next untap step; the
    cat, attacking unexerted, untaps; the effect is gone after that step."""
    state = _two_turns_on(engine, {"exert:tiger": "yes"})
    assert state.objects["tiger"].tapped
    assert not state.objects["cat"].tapped
    assert not [e for e in state.effects if e.kind == "doesnt_untap"]


def test_701_43a_only_the_controllers_next_untap_step(engine: Engine) -> None:
    """701.43a: "your next untap step": bob's untap step in between doesn't
    end it; alice's turn after the next one untaps the tiger again."""
    after_bob = engine.resolve(board(engine), {"tiger": "bob"}, choices={"exert:tiger": "yes"},
                               turns=[TurnPlan(CombatPlan({}))]).state
    assert [e.to for e in after_bob.effects if e.kind == "doesnt_untap"] == ["tiger"]
    c = engine.creature
    more = (c("cub2", "bob", 1, 1).evolve(zone="library"),
            c("kit2", "alice", 1, 1).evolve(zone="library"))
    state = after_bob.with_permanents({p.id: p for p in more})
    state = engine.begin_turn(engine.end_turn(engine.begin_turn(state).state).state).state
    assert state.active_player == "bob"
    state = engine.begin_turn(engine.end_turn(state).state).state
    assert state.active_player == "alice" and not state.objects["tiger"].tapped


def test_701_43_the_default_is_not_to_exert(engine: Engine) -> None:
    """701.43: "you may": without an answer the creature isn't exerted."""
    out = engine.declare_attackers(engine.begin_combat(board(engine)).state, {"tiger": "bob"})
    made = {c.key: c for c in out.choices}["exert:tiger"]
    assert made.by_default and made.options == ("no", "yes")
    assert not out.state.effects


def test_701_43b_exerted_twice_stays_tapped_once(engine: Engine) -> None:
    """701.43b: a permanent exerted more than once still stays tapped during
    only the next untap step (two effects, both end as it ends)."""
    state = engine.resolve(board(engine), {"tiger": "bob"}, choices={"exert:tiger": "yes"},
                           additional_combats=[CombatPlan({})], through="cleanup").state
    from redzone import AddEffect, Effect
    state = engine.begin_turn(state).state
    state = engine.perform(state, AddEffect(Effect("doesnt_untap", player="alice", to="tiger",
                                                   duration="next_untap_step"))).state
    assert len([e for e in state.effects if e.kind == "doesnt_untap"]) == 2
    state = engine.begin_turn(engine.end_turn(state).state).state
    assert state.objects["tiger"].tapped and not state.effects


def test_701_43c_only_attackers_on_the_battlefield_are_offered(engine: Engine) -> None:
    """701.43c: only a permanent with exert on the battlefield is offered the
    choice; a creature without exert is not."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("tiger", "alice", 3, 3, "exert"),
                                           c("orc", "alice", 2, 2)])
    out = engine.declare_attackers(engine.begin_combat(state).state,
                                   {"tiger": "bob", "orc": "bob"})
    assert [c.key for c in out.choices] == ["exert:tiger"]


class TestExertConformance(KeywordConformance):
    plugin = exert
    max_examples = samples(15, 40)  # boards per invariant (40: the long run)
