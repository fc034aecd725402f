"""The frozen game state (core/redzone/model.py, frozen.py).

Current characteristics are computed in one place (613, simplified to layers 6
and 7c-d); states are immutable values, so a state handed to a plugin or kept
as a snapshot can't change (733: the game returns to the moment before).
"""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest
from redzone import (
    Effect,
    Engine,
    FrozenMap,
    GameState,
    Keyword,
    LeaveBattlefield,
    Modification,
    Permanent,
    Player,
    creature,
    new_game,
)
from redzone.kernel.combat import attackable


def test_613_power_and_toughness_apply_counters_then_modifications() -> None:
    """613.4c counters and 613.4b effects both change power and toughness."""
    bear = creature("bear", "bob", 2, 2, counters={"+1/+1": 2, "-1/-1": 1})
    assert (bear.power, bear.toughness) == (3, 3)
    pumped = bear.evolve(modifications=(Modification(power=3, toughness=-1),))
    assert (pumped.power, pumped.toughness) == (6, 2)
    # The original value is untouched: evolve builds a copy.
    assert (bear.power, bear.toughness) == (3, 3)


def test_noncreature_has_no_power() -> None:
    """208.3: a noncreature permanent has no power or toughness (0 for combat)."""
    walker = Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3})
    assert (walker.power, walker.toughness) == (0, 0)
    assert walker.loyalty == 3
    assert walker.defense is None
    battle = Permanent("siege", "bob", types={"battle"}, counters={"defense": 5})
    assert battle.defense == 5
    assert battle.loyalty is None


def test_613_layer6_keywords_in_timestamp_order() -> None:
    """613.1f: ability-adding and -removing effects apply in timestamp order: a
    later "loses" removes earlier grants, a grant after it is kept."""
    bird = creature("bird", "bob", 1, 1, Keyword("soar"))
    gone = bird.evolve(modifications=(Modification(add_keywords=(Keyword("dash"),)),
                                      Modification(remove_keywords=("soar", "dash"))))
    assert gone.keywords == ()
    assert not gone.has("soar")
    back = gone.evolve(modifications=(*gone.modifications,
                                      Modification(add_keywords=(Keyword("soar"),))))
    assert back.has("soar")
    assert back.keyword_names == frozenset({"soar"})


def test_keyword_instances_and_number() -> None:
    """702.164b-style parameterised keywords: every instance is kept and the
    number is read from the arguments."""
    toxic = creature("rat", "bob", 1, 1, Keyword("venom", "venom 2", ("2",)),
                     Keyword("venom", "venom 1", ("1",)))
    assert [k.number for k in toxic.instances("venom")] == [2, 1]
    assert Keyword("plain").number == 1
    assert Keyword("plain").text == "plain"
    assert str(Keyword("venom", "venom 2", ("2",))) == "venom 2"


def test_permanent_defaults() -> None:
    """A permanent's name defaults to its id and its owner to its controller."""
    perm = Permanent("x", "bob")
    assert perm.name == "x"
    assert perm.owner == "bob"
    assert perm.is_creature
    assert perm.on_battlefield
    assert creature("y", "bob", 1, 1, owner="carol").owner == "carol"


def test_counters_drop_zero_entries() -> None:
    """Counters of a kind with none left are not kept (122.1: no such counter)."""
    perm = creature("x", "bob", 1, 1, counters={"+1/+1": 0, "-1/-1": 2})
    assert dict(perm.counters) == {"-1/-1": 2}


def test_608_2h_last_known_information(bare_engine: Engine) -> None:
    """608.2h / 400.7: a permanent that left the battlefield is a new object in
    its new zone; its last known information is what it was on the battlefield."""
    bear = creature("bear", "bob", 2, 2, damage=1, tapped=True, counters={"+1/+1": 1})
    state = bare_engine.game(["alice", "bob"], [bear])
    after = bare_engine.perform(state, LeaveBattlefield("bear")).state
    card = after.permanent("bear")
    assert card.zone == "graveyard"
    assert (card.damage, card.tapped, dict(card.counters)) == (0, False, {})
    lki = after.last_known("bear")
    assert lki.zone == "battlefield"
    assert (lki.damage, lki.tapped, lki.power) == (1, True, 3)
    assert after.on_battlefield("bear") is None
    assert state.last_known("bear") is state.objects["bear"]
    with pytest.raises(KeyError):
        state.last_known("nothing")


def test_new_game_validates_ids() -> None:
    """Ids name objects and players everywhere: they must be unique."""
    with pytest.raises(ValueError, match="duplicate player ids"):
        new_game(["alice", "alice"])
    with pytest.raises(ValueError, match="duplicate ids"):
        new_game(["alice", "bob"], [creature("x", "bob", 1, 1), creature("x", "bob", 1, 1)])
    with pytest.raises(ValueError, match="duplicate ids"):
        new_game(["alice", "bob"], [creature("bob", "bob", 1, 1)])
    with pytest.raises(ValueError, match="turn order"):
        new_game(["alice", "bob"], turn_order=["alice"])
    with pytest.raises(ValueError, match="active player"):
        new_game(["alice", "bob"], active_player="carol")


def test_new_game_defaults() -> None:
    """The first player is active (506.2: the attacking player) unless given."""
    state = new_game([Player("alice", life=7), "bob"], effects=[Effect("x")])
    assert state.active_player == "alice"
    assert state.turn_order == ("alice", "bob")
    assert state.players["alice"].life == 7
    assert state.players["bob"].life == 20
    assert state.step == "main"
    assert state.combat is None
    assert state.effects == (Effect("x"),)
    assert new_game(["a", "b"], turn_order=["b", "a"]).active_player == "b"


def test_506_2_defending_player_of() -> None:
    """506.2 / 310.8: the defending player of an attack on a player is that
    player, on a planeswalker its controller, on a battle its protector."""
    state = new_game(["alice", "bob", "carol"], [
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3}),
        Permanent("siege", "carol", types={"battle"}, counters={"defense": 3},
                  protector="bob"),
    ])
    assert state.defending_player_of("bob") == "bob"
    assert state.defending_player_of("jace") == "bob"
    assert state.defending_player_of("siege") == "bob"
    assert state.defending_player_of("nothing") is None
    assert state.controller_of("jace") == "bob"
    assert state.controller_of("carol") == "carol"
    assert state.controller_of("nothing") is None


def test_508_1b_attackable_lists_opponents_walkers_and_battles() -> None:
    """508.1b / 506.2: each opponent, their planeswalkers and the battles they
    protect may be attacked; not one's own, not a player who left."""
    state = new_game([Player("alice"), Player("bob"), Player("carol"), Player("dan", lost=True)], [
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3}),
        Permanent("mine", "alice", types={"planeswalker"}, counters={"loyalty": 3}),
        Permanent("siege", "alice", types={"battle"}, counters={"defense": 3},
                  protector="carol"),
        Permanent("own-siege", "bob", types={"battle"}, counters={"defense": 3},
                  protector="alice"),
    ])
    assert attackable(state, "alice") == ("bob", "carol", "jace", "siege")
    assert state.opponents("alice") == ("bob", "carol")


def test_state_is_immutable() -> None:
    """733: a rejected command leaves the caller's state as it was, which holds
    only if nobody can change a state in place."""
    state = new_game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.step = "combat_damage"  # type: ignore[misc]
    with pytest.raises(TypeError, match="immutable"):
        state.objects["bear"] = creature("bear", "bob", 5, 5)  # type: ignore[index]
    with pytest.raises(TypeError, match="immutable"):
        state.players.pop("bob")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.objects["bear"].damage = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.objects["bear"].counters.update({"+1/+1": 1})
    assert state.objects["bear"].damage == 0


def test_states_are_values() -> None:
    """Equal states compare equal and hash alike (free snapshots, caching)."""
    one = new_game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    two = new_game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    assert one == two
    assert hash(one) == hash(two)
    assert one != two.with_permanents({"bear": two.objects["bear"].evolve(damage=1)})
    assert one.with_permanents({}) is one
    assert one.with_players({}) is one
    assert pickle.loads(pickle.dumps(one)) == one
    assert copy.deepcopy(one) == one


def test_frozen_map() -> None:
    """FrozenMap: a read-only dict whose changes are copies."""
    fm: FrozenMap[str, int] = FrozenMap({"a": 1})
    for attempt in (lambda: fm.__setitem__("b", 2), lambda: fm.__delitem__("a"),
                    fm.clear, lambda: fm.pop("a"), fm.popitem,
                    lambda: fm.setdefault("b", 2), lambda: fm.update(b=2)):
        with pytest.raises(TypeError, match="immutable"):
            attempt()
    with pytest.raises(TypeError):
        fm |= {"b": 2}
    assert fm.set("b", 2) == {"a": 1, "b": 2}
    assert fm.merge({"a": 3}) == {"a": 3}
    assert fm.merge({}) is fm
    assert fm.without("a") == {}
    assert fm.without("zz") is fm
    assert fm == {"a": 1}
    assert hash(fm) == hash(FrozenMap({"a": 1}))
    assert copy.copy(fm) is fm
    assert repr(fm) == "FrozenMap({'a': 1})"
    assert isinstance(pickle.loads(pickle.dumps(fm)), FrozenMap)


def test_a_frozen_map_round_trips_through_pickle_as_its_own_copy() -> None:
    """States travel to batch workers pickled: a map comes back equal, with
    the same hash, as a map of its own (not sharing the original's dict),
    still immutable; and bytes written by the earlier form (the class
    called with a dict) still load."""
    fm = FrozenMap({"a": 1, "b": (2, 3)})
    back = pickle.loads(pickle.dumps(fm, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is FrozenMap and back == fm and hash(back) == hash(fm)
    assert back._items is not fm._items
    with pytest.raises(TypeError, match="immutable"):
        back["c"] = 4  # type: ignore[index]

    class Earlier:
        def __reduce__(self) -> tuple[object, ...]:
            return (FrozenMap, ({"a": 1},))

    old = pickle.loads(pickle.dumps(Earlier()))
    assert type(old) is FrozenMap and old == {"a": 1}


def test_combat_indexes_blockers_in_declaration_order() -> None:
    """509.1g: each blocker blocks the attackers chosen for it; blockers_of
    lists an attacker's blockers in declaration order."""
    from redzone import Combat

    combat = Combat(attacks={"a": "bob", "b": "bob"}, blocks={"x": ("a",), "y": ("a", "b")})
    assert combat.blockers_of("a") == ("x", "y")
    assert combat.blockers_of("b") == ("y",)
    assert combat.blockers_of("z") == ()
    assert combat.combatants == ("a", "b", "x", "y")
    assert combat.in_combat("x") and combat.is_blocking("x") and not combat.is_attacking("x")


def test_battlefield_lists_only_permanents_on_it(bare_engine: Engine) -> None:
    """400.7: a card that left the battlefield is no longer a permanent."""
    state = bare_engine.game(["alice", "bob"], [creature("a", "bob", 1, 1),
                                                creature("b", "bob", 1, 1)])
    after = bare_engine.perform(state, LeaveBattlefield("a", zone="exile")).state
    assert [p.id for p in after.battlefield] == ["b"]
    assert after.objects["a"].zone == "exile"
    assert isinstance(after, GameState)
