"""Rules a mutation audit found no test for (the code was right): a
triggered ability whose controller has left the game isn't put on the
stack (800.4d)."""

from __future__ import annotations

from redzone import AddTrigger, Engine, LoseLife, Player


def test_800_4d_a_trigger_of_a_player_who_lost_in_the_same_check_is_not_put_on_the_stack(
        engine: Engine) -> None:
    """800.4d: "If a triggered ability that would be controlled by a player
    who has left the game would be put onto the stack, it isn't put on the
    stack." Carol's witch has "whenever a creature dies, bob loses 1 life".
    Combat damage brings carol to 0 and kills bob's elf; the same check of
    state-based actions makes carol lose (704.5a) and leave the game (800.4a)
    and puts the elf into the graveyard (704.5g). The witch's ability
    triggered on the elf's death, but carol has left by the time it would be
    put on the stack, so it never is and bob loses no life."""
    c = engine.creature
    state = engine.game(["alice", "bob", Player("carol", life=2)], [
        c("bear", "alice", 3, 3), c("ox", "alice", 2, 2),
        c("elf", "bob", 1, 1), c("witch", "carol", 0, 1)])
    state = engine.perform(state, AddTrigger("dies", "witch", (LoseLife("bob", 1),),
                                             text="bob loses 1 life")).state
    state = engine.declare_attackers(state, {"bear": "carol", "ox": "bob"}).state
    state = engine.declare_blockers(state, {"elf": "ox"}).state
    out = engine.combat_damage(state)
    assert [(e.kind, e.get("player")) for e in out.events
            if e.kind in ("lost", "left_game", "trigger", "resolve")] == [
        ("lost", "carol"), ("left_game", "carol")]
    assert out.state.objects["elf"].zone == "graveyard"
    assert out.state.stack == ()
    assert out.state.players["bob"].life == 20
