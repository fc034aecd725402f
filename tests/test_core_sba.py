"""State-based actions (704.3, 704.5a, c, f, g, i, q, v, w) and zone changes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Engine,
    GameState,
    IllegalActionError,
    LeaveBattlefield,
    Permanent,
    Player,
    StateBasedAction,
    creature,
)
from redzone.kernel.model import Combat
from redzone.kernel.sba import without
from redzone.testing import plugin_module as plugin


def check(engine: Engine, state: GameState) -> tuple[GameState, list[tuple[str, str, str]]]:
    out = engine.check_state_based_actions(state)
    return out.state, [(e.kind, e.rule, e.object or e.player or e.target or "")
                       for e in out.events]


def test_704_5a_zero_or_less_life_loses(bare_engine: Engine) -> None:
    """704.5a: a player with 0 or less life loses the game."""
    state = bare_engine.game([Player("alice", life=0), Player("bob", life=-3),
                              Player("carol", life=1)])
    after, events = check(bare_engine, state)
    # 104.2a: carol, the only player left, wins: the game is over.
    assert events == [("lost", "704.5a", "alice"), ("lost", "704.5a", "bob"),
                      ("game_over", "104.2a", "")]
    assert after.game_over is not None and after.game_over.winners == ("carol",)
    assert after.players["alice"].lost and after.players["alice"].loss_rule == "704.5a"
    assert not after.players["carol"].lost
    assert after.opponents("carol") == ()
    # Already over: nothing more happens, and the command is refused (104.2a).
    with pytest.raises(IllegalActionError, match=r"104\.2a"):
        check(bare_engine, after)


def test_704_5c_ten_poison_counters_lose(bare_engine: Engine) -> None:
    """704.5c: a player with ten or more poison counters loses the game."""
    state = bare_engine.game([Player("alice", poison=9), Player("bob", poison=10)])
    after, events = check(bare_engine, state)
    assert events == [("lost", "704.5c", "bob"), ("game_over", "104.2a", "")]
    assert not after.players["alice"].lost


def test_704_5_one_loss_per_player(bare_engine: Engine) -> None:
    """704.5a and 704.5c at once: the player loses once (named by 704.5a)."""
    state = bare_engine.game([Player("alice"), Player("bob", life=0, poison=10)])
    assert check(bare_engine, state)[1] == [("lost", "704.5a", "bob"), ("game_over", "104.2a", "")]


def test_704_5f_zero_toughness_even_if_indestructible() -> None:
    """704.5f: a creature with toughness 0 or less is put into its owner's
    graveyard; it isn't destroyed, so "can't be destroyed" doesn't help."""
    engine = Engine(discover=False, plugins=[plugin(
        "sturdy", redzone_cannot_be_destroyed=lambda permanent: True)])
    state = engine.game(["alice", "bob"], [
        creature("shrunk", "bob", 2, 2, counters={"-1/-1": 2}, owner="alice"),
        creature("hurt", "bob", 2, 2, damage=5)])
    after, events = check(engine, state)
    assert events == [("dies", "704.5f", "shrunk")]
    card = after.objects["shrunk"]
    assert (card.zone, card.controller) == ("graveyard", "alice")  # its owner's graveyard
    assert after.objects["hurt"].zone == "battlefield"


def test_704_5g_lethal_damage_destroys(bare_engine: Engine) -> None:
    """704.5g: a creature with toughness greater than 0 and damage marked at
    least equal to it is destroyed; less damage does nothing."""
    state = bare_engine.game(["alice", "bob"], [
        creature("dead", "bob", 2, 2, damage=2), creature("alive", "bob", 2, 3, damage=2),
        creature("big", "bob", 2, 2, damage=2, counters={"+1/+1": 1})])
    after, events = check(bare_engine, state)
    assert events == [("destroyed", "704.5g", "dead"), ("dies", "704.5g", "dead")]
    assert after.objects["alive"].zone == after.objects["big"].zone == "battlefield"


def test_704_5g_cannot_be_destroyed_hook() -> None:
    """702.12b via redzone_cannot_be_destroyed: a permanent that can't be
    destroyed survives lethal damage (and the check ends: 704.3)."""
    engine = Engine(discover=False, plugins=[plugin(
        "sturdy", redzone_cannot_be_destroyed=lambda permanent: permanent == "god")])
    state = engine.game(["alice", "bob"], [creature("god", "bob", 2, 2, damage=9),
                                           creature("man", "bob", 2, 2, damage=9)])
    after, events = check(engine, state)
    assert after.objects["god"].zone == "battlefield"
    assert after.objects["man"].zone == "graveyard"
    assert ("destroyed", "704.5g", "god") not in events


def test_704_5i_planeswalker_with_no_loyalty(bare_engine: Engine) -> None:
    """704.5i: a planeswalker with loyalty 0 is put into its owner's graveyard."""
    state = bare_engine.game(["alice", "bob"], [
        Permanent("jace", "bob", types={"planeswalker"}),
        Permanent("ajani", "bob", types={"planeswalker"}, counters={"loyalty": 1})])
    after, events = check(bare_engine, state)
    assert events == [("dies", "704.5i", "jace")]
    assert after.objects["ajani"].zone == "battlefield"


@pytest.mark.parametrize("subtypes,rule", [(("Siege",), "704.5v"), ((), "704.5w")])
def test_704_5v_w_battle_with_no_defense(bare_engine: Engine, subtypes: tuple[str, ...],
                                         rule: str) -> None:
    """704.5v: a Siege with defense 0; 704.5w: a non-Siege battle with defense 0;
    either is put into its owner's graveyard."""
    protector = "alice" if subtypes else "bob"  # (310.12a; 310.9a: no battle type)
    state = bare_engine.game(["alice", "bob"], [
        Permanent("b", "bob", types={"battle"}, subtypes=subtypes, protector=protector),
        Permanent("ok", "bob", types={"battle"}, subtypes=subtypes, protector=protector,
                  counters={"defense": 1})])
    after, events = check(bare_engine, state)
    assert events == [("dies", rule, "b")]
    assert after.objects["ok"].zone == "battlefield"


def test_704_5q_counters_annihilate(bare_engine: Engine) -> None:
    """704.5q: N +1/+1 and N -1/-1 counters are removed, N the smaller count."""
    state = bare_engine.game(["alice", "bob"], [
        creature("c", "bob", 2, 2, counters={"+1/+1": 3, "-1/-1": 1}),
        Permanent("rock", "bob", types={"artifact"}, counters={"+1/+1": 1, "-1/-1": 2})])
    after, events = check(bare_engine, state)
    assert dict(after.objects["c"].counters) == {"+1/+1": 2}
    assert dict(after.objects["rock"].counters) == {"-1/-1": 1}
    assert sorted(events) == [("counters_removed", "704.5q", "c"),
                              ("counters_removed", "704.5q", "rock")]


def test_704_3_all_applicable_actions_at_once(bare_engine: Engine) -> None:
    """704.3: every applicable state-based action is performed simultaneously:
    two creatures with lethal damage and a player at 0 life, in one check."""
    state = bare_engine.game(["alice", Player("bob", life=0)], [
        creature("x", "alice", 1, 1, damage=1), creature("y", "bob", 1, 1, damage=1)])
    after, events = check(bare_engine, state)
    assert {e for e in events if e[0] != "dies"} == {
        ("destroyed", "704.5g", "x"), ("destroyed", "704.5g", "y"), ("lost", "704.5a", "bob"),
        ("game_over", "104.2a", "")}
    assert after.objects["x"].zone == after.objects["y"].zone == "graveyard"


def test_704_3_check_repeats_until_none_applies() -> None:
    """704.3: if any state-based actions were performed, the check repeats: a
    condition created by the first batch is acted on in the next."""
    def sbas(state: GameState) -> list[StateBasedAction]:
        # "When the leader is gone, the follower dies."
        leader = state.objects.get("leader")
        follower = state.on_battlefield("follower")
        if leader is not None and leader.zone != "battlefield" and follower is not None:
            return [StateBasedAction("graveyard", "704.5x-test", object="follower")]
        return []

    engine = Engine(discover=False, plugins=[plugin("chain", redzone_state_based_actions=sbas)])
    state = engine.game(["alice", "bob"], [creature("leader", "bob", 1, 1, damage=1),
                                           creature("follower", "bob", 1, 1)])
    after, events = check(engine, state)
    assert [e for e in events if e[0] == "dies"] == [("dies", "704.5g", "leader"),
                                                     ("dies", "704.5x-test", "follower")]
    assert after.objects["follower"].zone == "graveyard"


def test_704_plugin_actions_deduplicated(bare_engine: Engine) -> None:
    """704.3: one action per object and kind, also when a plugin repeats a core
    one; "put into the graveyard" (704.5f) wins over "destroy"."""
    engine = Engine(discover=False, plugins=[plugin("dup", redzone_state_based_actions=lambda: [
        StateBasedAction("destroy", "704.5h", object="x"),
        StateBasedAction("destroy", "704.5h", object="x"),
        StateBasedAction("destroy", "704.5h", object="y"),
        StateBasedAction("lose", "704.5b", player="bob")])])
    state = engine.game(["alice", "bob"], [
        creature("x", "bob", 1, 1, damage=1), creature("y", "bob", 1, 1, counters={"-1/-1": 1})])
    after, events = check(engine, state)
    assert sorted(e for e in events if e[0] != "dies") == [
        ("destroyed", "704.5g", "x"), ("game_over", "104.2a", ""), ("lost", "704.5b", "bob")]
    assert ("dies", "704.5f", "y") in events
    assert after.players["bob"].loss_rule == "704.5b"


def test_400_7_a_card_that_left_is_a_new_object(bare_engine: Engine) -> None:
    """400.7 / 506.4: a creature that dies is removed from combat; its card has
    no damage, counters or effects; last known information keeps them."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                                creature("bear", "bob", 2, 2)])
    state = bare_engine.declare_attackers(state, {"orc": "bob"}).state
    state = bare_engine.declare_blockers(state, {"bear": "orc"}).state
    out = bare_engine.combat_damage(state)
    assert out.state.combat is not None
    assert not out.state.combat.in_combat("orc") and not out.state.combat.in_combat("bear")
    # causal order: it leaves combat because it left the battlefield
    assert [e.kind for e in out.events if e.object == "orc"][-2:] == [
        "dies", "removed_from_combat"]
    assert out.state.objects["orc"].damage == 0
    assert out.state.last_known("orc").damage == 2
    assert out.state.last_known("orc").tapped


def test_leaving_is_idempotent(bare_engine: Engine) -> None:
    """400.7: a card that already left can't leave again."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2,
                                                         zone="graveyard")])
    with pytest.raises(IllegalActionError) as info:
        bare_engine.perform(state, LeaveBattlefield("orc"))
    assert info.value.rule == "400.1"


# ---------------------------------------------------------------------------
# 506.4: objects leaving at the same time leave combat at the same time
# ---------------------------------------------------------------------------


_ATTACKERS = ["a1", "a2", "a3", "a4"]
_BLOCKERS = ["b1", "b2", "b3"]
_ATTACKED = ["bob", "pw1", "pw2"]


@st.composite
def _combats(draw: st.DrawFn) -> Combat:
    attackers = draw(st.lists(st.sampled_from(_ATTACKERS), unique=True, min_size=1))
    attacks = {a: draw(st.sampled_from(_ATTACKED)) for a in attackers}
    blockers = draw(st.lists(st.sampled_from(_BLOCKERS), unique=True))
    blocks = {b: tuple(draw(st.lists(st.sampled_from(attackers), unique=True, max_size=2)))
              for b in blockers}
    blocked = {a for atts in blocks.values() for a in atts}
    band = tuple(attackers[:draw(st.integers(0, len(attackers)))])
    return Combat(attacks=attacks, blocks=blocks, blocked=blocked,
                  bands=(band,) if len(band) > 1 else ())


_LEAVERS = st.lists(st.sampled_from(_ATTACKERS + _BLOCKERS + ["pw1", "pw2", "x"]),
                    unique=True)


@settings(max_examples=200, deadline=None)
@given(_combats(), _LEAVERS, st.randoms())
def test_506_4_objects_leaving_together_leave_combat_together(
        combat: Combat, leaving: list[str], rnd: Any) -> None:
    """506.4, 506.4c, 509.1h, 510.1d, 702.22f: what leaves is no longer
    attacking, blocking, blocked or banded; blockers of a removed attacker
    stay blocking; attackers of a removed planeswalker attack nothing; the
    rest is untouched; the order in which simultaneous leavers are listed
    changes nothing."""
    after, hit = without(combat, leaving)
    gone = set(leaving)
    assert not gone & set(after.attacks) and not gone & set(after.blocks)
    assert not gone & after.blocked
    assert all(not gone & set(band) and len(band) > 1 for band in after.bands)
    for a, t in combat.attacks.items():
        if a not in gone:
            assert after.attacks[a] == (None if t in gone else t)
            assert (a in after.blocked) == (a in combat.blocked)
    for b, atts in combat.blocks.items():
        if b not in gone:
            assert after.blocks[b] == tuple(x for x in atts if x not in gone)  # 509.1h
    staying_targets = {t for a, t in combat.attacks.items() if a not in gone}
    assert hit == {o for o in gone if o in combat.attacks or o in combat.blocks
                   or o in staying_targets}
    shuffled = list(leaving)
    rnd.shuffle(shuffled)
    assert without(combat, shuffled) == (after, hit)
    if not hit:
        assert after is combat


@pytest.mark.parametrize("counters", [{"+1/+1": 2}, {"-1/-1": 1}])
def test_704_5q_counters_of_one_kind_only_are_not_annihilated(
        bare_engine: Engine, counters: dict[str, int]) -> None:
    """704.5q: "If a permanent has both a +1/+1 counter and a -1/-1 counter
    on it", N of each are removed: a creature with +1/+1 counters only, or
    -1/-1 counters only, calls for no such action and keeps its counters;
    one with both calls for it."""
    state = bare_engine.game(["alice", "bob"], [
        creature("c", "bob", 3, 3, counters=counters),
        creature("both", "bob", 3, 3, counters={"+1/+1": 1, "-1/-1": 1})])
    assert state.objects["c"].own_state_based_actions == ()
    assert state.objects["both"].own_state_based_actions == (
        ("annihilate_counters", "704.5q"),)
    after, events = check(bare_engine, state)
    assert events == [("counters_removed", "704.5q", "both")]
    assert dict(after.objects["c"].counters) == counters
