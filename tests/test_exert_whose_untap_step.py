"""701.43a: "To exert a permanent, you choose to have it not untap during
your next untap step": the exerting player's untap step, not the untap step
of whoever controls it then (502.3: the active player untaps the permanents
they control). Amonkhet release notes: a creature exerted while its control
was gained until end of turn untaps during its owner's untap step."""

from __future__ import annotations

from redzone import Engine
from redzone.kernel.actions import GainControl
from redzone.kernel.plans import CombatPlan, TurnPlan

engine = Engine()
c = engine.creature


def test_701_43a_an_exerted_creature_back_with_its_owner_untaps_in_the_owners_untap_step() -> None:
    """701.43a, 502.3: alice gains control of bob's hasty Ogre until end of
    turn and exerts it as it attacks; control returns in the cleanup step;
    in bob's untap step the Ogre untaps."""
    state = engine.game(["alice", "bob"], [
        c("ogre", "bob", 3, 3, "exert", "haste"),
        c("cub", "bob", 1, 1).evolve(zone="library"),
        c("kit", "alice", 1, 1).evolve(zone="library")])
    state = engine.perform(state, GainControl("ogre", "alice", duration="end_of_turn")).state
    res = engine.resolve(state, {"ogre": "bob"}, choices={"exert:ogre": "yes"},
                         turns=[TurnPlan(CombatPlan({}))])
    assert res.state.active_player == "bob"
    assert res.after_steps["untap@2"].objects["ogre"].controller == "bob"
    assert not res.after_steps["untap@2"].objects["ogre"].tapped


def test_701_43a_an_exerted_creature_stays_tapped_in_its_exerters_next_untap_step() -> None:
    """701.43a: the control case: alice exerts her own Ogre; it doesn't
    untap in alice's next untap step (turn 3), and untaps in the one after."""
    state = engine.game(["alice", "bob"], [
        c("ogre", "alice", 3, 3, "exert"),
        *(c(f"a{i}", "alice", 1, 1).evolve(zone="library") for i in range(3)),
        *(c(f"b{i}", "bob", 1, 1).evolve(zone="library") for i in range(3))])
    res = engine.resolve(state, {"ogre": "bob"}, choices={"exert:ogre": "yes"},
                         turns=[TurnPlan(CombatPlan({})), TurnPlan(CombatPlan({}))])
    assert res.after_steps["untap@3"].objects["ogre"].tapped
