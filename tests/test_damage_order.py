"""The order of prevention and replacement effects on one damage event:
"If two or more replacement and/or prevention effects are attempting to modify
the way an event affects an object or player, the affected object's controller
(or its owner if it has no controller) or the affected player chooses one to
apply" (616.1, 616.1e), and "Once the chosen effect has been applied, this
process is repeated (taking into account only replacement or prevention
effects that would now be applicable)" (616.1f).

Prevention (615) and a replacement that changes the amount (614.1a: Furnace
of Rath doubles it) give different damage in different orders: 5 damage,
a shield of 3 and a doubling are (5 - 3) * 2 = 4 one way and 5 * 2 - 3 = 7
the other.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Damage,
    DamageModifier,
    DealDamage,
    Effect,
    Engine,
    GameState,
    IllegalActionError,
    Player,
    Prevent,
    hookimpl,
)

DOUBLE = "a continuous effect: double damage (#1)"
KEY = "damage_order@furnace:bob"

#: An engine with no keyword plugins: the kernel's own effects alone.
_BARE = Engine(discover=False)


def board(*effects: Effect, life: int = 20) -> GameState:
    """alice's 5/5 ``furnace`` and bob's 2/6 ``wall``; ``effects`` on the game."""
    return _BARE.game(["alice", Player("bob", life=life)], [
        _BARE.creature("furnace", "alice", 5, 5), _BARE.creature("wall", "bob", 2, 6)],
        effects=list(effects))


def shielded(state: GameState, amount: int, target: str = "bob") -> GameState:
    """``state`` with a shield preventing the next ``amount`` damage to ``target``."""
    return _BARE.perform(state, Prevent(target=target, amount=amount)).state


def test_616_1_the_affected_player_chooses_the_order() -> None:
    """616.1, 616.1e: a shield of 3 and a doubling on 5 damage to bob: bob
    chooses; without an answer prevention applies first: (5 - 3) * 2 = 4."""
    state = shielded(board(Effect("double_damage")), 3)
    shield = state.shields[0].id
    listed = [c for c in _BARE.choices_for(state, "perform", DealDamage("furnace", "bob", 5))
              if c.rule == "616.1"]
    assert [(c.key, c.player, c.kind, c.options, c.default, c.min, c.max) for c in listed] == [
        (KEY, "bob", "order", (shield, DOUBLE), (shield, DOUBLE), 2, 2)]
    out = _BARE.perform(state, DealDamage("furnace", "bob", 5))
    assert out.state.players["bob"].life == 16
    assert [(c.key, c.by_default) for c in out.choices] == [(KEY, True)]


def test_616_1_doubling_first_then_the_shield() -> None:
    """616.1e: any of them may be chosen first: the doubling, then the
    shield: 5 * 2 - 3 = 7, and the shield is used up."""
    state = shielded(board(Effect("double_damage")), 3)
    shield = state.shields[0].id
    out = _BARE.perform(state, DealDamage("furnace", "bob", 5),
                        choices={KEY: [DOUBLE, shield]})
    assert out.state.players["bob"].life == 13
    assert out.state.shields == ()
    modified = [e for e in out.events if e.kind == "modified"]
    prevented = [e for e in out.events if e.kind == "prevented"]
    assert [(e.get("original"), e.amount) for e in modified] == [(5, 10)]
    assert [e.amount for e in prevented] == [3]
    assert out.events.index(modified[0]) < out.events.index(prevented[0])


def test_616_1f_an_effect_applies_to_what_is_left_and_a_shield_keeps_the_rest() -> None:
    """616.1f: 2 damage against a shield of 3: prevention first prevents all
    2 (the shield keeps 1, the doubling has nothing left to apply to);
    doubling first makes 4, the shield prevents 3 and 1 is dealt."""
    state = shielded(board(Effect("double_damage")), 3)
    shield = state.shields[0].id
    first = _BARE.perform(state, DealDamage("furnace", "bob", 2))
    assert first.state.players["bob"].life == 20
    assert [s.amount for s in first.state.shields] == [1]
    assert not [e for e in first.events if e.kind == "modified"]
    second = _BARE.perform(state, DealDamage("furnace", "bob", 2),
                           choices={KEY: [DOUBLE, shield]})
    assert second.state.players["bob"].life == 19
    assert second.state.shields == ()


def test_616_1_a_creatures_controller_chooses_for_it() -> None:
    """616.1: damage to a creature: its controller (bob) chooses; a
    prevention effect of the game (prevent 2 of each damage to the wall)
    is one of the effects to order."""
    state = board(Effect("double_damage"), Effect("reduce_damage", to="wall", amount=2))
    key = "damage_order@furnace:wall"
    listed = [c for c in _BARE.choices_for(state, "perform", DealDamage("furnace", "wall", 3))
              if c.key == key]
    assert [(c.player, len(c.options)) for c in listed] == [("bob", 2)]
    reduce = next(o for o in listed[0].options if o != DOUBLE)
    assert _BARE.perform(state, DealDamage("furnace", "wall", 3)).state.objects[
        "wall"].damage == 2  # (3 - 2) * 2
    assert _BARE.perform(state, DealDamage("furnace", "wall", 3),
                         choices={key: [DOUBLE, reduce]}).state.objects["wall"].damage == 4


@pytest.mark.parametrize("effects", [
    (Effect("double_damage"),),                          # one effect
    (Effect("double_damage"), Effect("prevent_all_combat_damage")),  # not combat: one applies
])
def test_616_1_one_effect_asks_nothing(effects: tuple[Effect, ...]) -> None:
    """616.1 applies when two or more effects would modify the event."""
    out = _BARE.perform(board(*effects), DealDamage("furnace", "bob", 3))
    assert out.state.players["bob"].life == 14
    assert not out.choices


def test_616_1_an_order_that_cant_change_the_damage_asks_nothing() -> None:
    """616.1: with a shield that prevents all the damage, whichever applies
    first nothing is dealt, so nobody is asked (the default stands)."""
    state = _BARE.perform(board(Effect("double_damage")), Prevent(target="bob")).state
    out = _BARE.perform(state, DealDamage("furnace", "bob", 3))
    assert out.state.players["bob"].life == 20
    assert not out.choices


@pytest.mark.parametrize("answer", [["x", "y"], [DOUBLE], [DOUBLE, DOUBLE]])
def test_616_1_an_answer_that_isnt_an_order_of_them_is_refused(answer: list[str]) -> None:
    """616.1: the answer orders every one of the effects once; anything else
    is an illegal action citing 616.1, and nothing changes."""
    state = shielded(board(Effect("double_damage")), 3)
    with pytest.raises(IllegalActionError) as caught:
        _BARE.perform(state, DealDamage("furnace", "bob", 5), choices={KEY: answer})
    assert caught.value.rule == "616.1"
    assert state.players["bob"].life == 20 and len(state.shields) == 1


@settings(max_examples=60)
@given(damage=st.integers(1, 9), shield=st.integers(1, 9), reduce=st.integers(0, 4),
       doubling_first=st.booleans(), reduce_first=st.booleans())
def test_616_1f_the_damage_is_each_effect_applied_in_the_chosen_order(
        damage: int, shield: int, reduce: int, doubling_first: bool, reduce_first: bool) -> None:
    """616.1, 616.1f: whatever the order chosen, the damage dealt is what
    applying each effect in that order to what is left gives (a model of the
    rule: prevention takes up to its amount, a doubling doubles what is left,
    and nothing applies to damage already down to 0); the shield keeps what
    it didn't prevent."""
    effects = [Effect("double_damage")]
    if reduce:
        effects.append(Effect("reduce_damage", to="bob", amount=reduce))
    state = shielded(board(*effects), shield)
    key_shield = state.shields[0].id
    listed = [c for c in _BARE.choices_for(state, "perform", DealDamage("furnace", "bob", damage))
              if c.key == KEY]
    assert len(listed) == 1
    options = listed[0].options
    reduce_label = next((o for o in options if o not in (DOUBLE, key_shield)), None)
    order = [key_shield] if not reduce_label else (
        [reduce_label, key_shield] if reduce_first else [key_shield, reduce_label])
    order = [DOUBLE, *order] if doubling_first else [*order, DOUBLE]
    # The model.
    left, shield_left = damage, shield
    for label in order:
        if left <= 0:
            break
        if label == DOUBLE:
            left *= 2
        elif label == key_shield:
            used = min(left, shield_left)
            left, shield_left = left - used, shield_left - used
        else:
            left -= min(left, reduce)
    out = _BARE.perform(state, DealDamage("furnace", "bob", damage), choices={KEY: order})
    assert out.state.players["bob"].life == 20 - left
    assert [s.amount for s in out.state.shields] == ([shield_left] if shield_left else [])


def test_616_1_two_shields_the_player_chooses_which_is_used_first() -> None:
    """616.1: two shields (3 and 4) facing 2 damage: whichever applies first
    prevents it all and keeps the rest; bob chooses. By default the one
    created first."""
    state = shielded(shielded(board(), 3), 4)
    first, second = (s.id for s in state.shields)
    listed = [c for c in _BARE.choices_for(state, "perform", DealDamage("furnace", "bob", 2))
              if c.rule == "616.1"]
    assert [(c.options, c.default) for c in listed] == [((first, second), (first, second))]
    default = _BARE.perform(state, DealDamage("furnace", "bob", 2))
    assert [(s.id, s.amount) for s in default.state.shields] == [(first, 1), (second, 4)]
    chosen = _BARE.perform(state, DealDamage("furnace", "bob", 2),
                           choices={KEY: [second, first]})
    assert [(s.id, s.amount) for s in chosen.state.shields] == [(first, 3), (second, 2)]
    assert chosen.state.players["bob"].life == 20


def test_616_1_shields_used_up_whatever_the_order_ask_nothing() -> None:
    """616.1: two shields of 1 facing 5 damage are both used up in either
    order and 3 is dealt: the order changes nothing, so nothing is asked."""
    out = _BARE.perform(shielded(shielded(board(), 1), 1), DealDamage("furnace", "bob", 5))
    assert out.state.players["bob"].life == 17
    assert out.state.shields == ()
    assert not out.choices


def test_616_1_a_next_time_shield_first_spares_the_other() -> None:
    """616.1, 615.5: "prevent all damage the next time" (gaining its
    controller that much life, Awe Strike) and a shield of 2: applied first,
    the next-time shield prevents all 3 and alice gains 3, and the shield of
    2 is spared; the other way the shield of 2 is used and alice gains 1."""
    state = _BARE.perform(board(), Prevent(target="bob", amount="next", gain_life="alice")).state
    state = shielded(state, 2)
    awe, two = (s.id for s in state.shields)
    default = _BARE.perform(state, DealDamage("furnace", "bob", 3))
    assert (default.state.players["alice"].life, [s.id for s in default.state.shields]) == (
        23, [two])
    other = _BARE.perform(state, DealDamage("furnace", "bob", 3), choices={KEY: [two, awe]})
    assert (other.state.players["alice"].life, other.state.shields) == (21, ())
    assert other.state.players["bob"].life == 20


class _Modifiers:
    """Two replacements of the amount: minus 1 (Benevolent Unicorn) and plus 2
    (Torbran)."""

    @hookimpl
    def redzone_modify_damage(self, state: GameState, damage: Damage) -> list[DamageModifier]:
        return [DamageModifier("a unicorn: minus 1", "614.1a", add=-1),
                DamageModifier("b torbran: plus 2", "614.1a", add=2)]


def test_120_8_616_1f_nothing_applies_to_damage_reduced_to_0() -> None:
    """120.8, 616.1f: 1 damage made 0 by the minus 1 is no damage: the plus 2
    has no event left to replace. The other order deals 2, so bob chooses;
    by default (effect name order) the minus 1 applies first."""
    engine = Engine(discover=False, plugins=[_Modifiers()])
    state = engine.game(["alice", "bob"], [engine.creature("a", "alice", 1, 1)])
    key = "damage_order@a:bob"
    listed = [c.key for c in engine.choices_for(state, "perform", DealDamage("a", "bob", 1))]
    assert listed == [key]
    out = engine.perform(state, DealDamage("a", "bob", 1))
    assert out.state.players["bob"].life == 20
    assert not [e for e in out.events if e.kind == "damage"]
    other = engine.perform(state, DealDamage("a", "bob", 1),
                           choices={key: ["b torbran: plus 2", "a unicorn: minus 1"]})
    assert other.state.players["bob"].life == 18


def test_615_a_shield_that_prevents_nothing_says_nothing() -> None:
    """615: a shield of 0 prevents no damage: no ``prevented`` event of 0."""
    out = _BARE.perform(shielded(board(), 0), DealDamage("furnace", "bob", 3))
    assert out.state.players["bob"].life == 17
    assert not [e for e in out.events if e.kind == "prevented"]


def test_616_1_a_creatures_controller_not_its_owner_chooses_for_it() -> None:
    """616.1: "the affected object's controller (or its owner if it has no
    controller) ... chooses": bob's thief, owned by alice, blocks alice's
    5/5 with shields of 3 and 4 on it. Either shield first prevents
    different damage (3 then 2 of the 4, or 4 then 1 of the 3), so the order
    is asked, of bob, who controls the thief; alice, its owner, isn't asked.
    Bob's answer (the 4 first) is the one applied."""
    thief = _BARE.creature("thief", "bob", 0, 6, owner="alice")
    state = _BARE.game(["alice", "bob"], [_BARE.creature("furnace", "alice", 5, 5), thief])
    state = shielded(shielded(state, 3, "thief"), 4, "thief")
    three, four = (s.id for s in state.shields)
    state = _BARE.declare_attackers(state, {"furnace": "bob"}).state
    state = _BARE.declare_blockers(state, {"thief": ["furnace"]}).state
    key = "damage_order@furnace:thief"
    listed = [c for c in _BARE.choices_for(state, "combat_damage") if c.rule == "616.1"]
    assert [(c.key, c.player, c.options) for c in listed] == [(key, "bob", (three, four))]
    out = _BARE.combat_damage(state, choices={key: [four, three]})
    assert [(c.key, c.player, c.by_default) for c in out.choices if c.rule == "616.1"] == [
        (key, "bob", False)]
    assert [(s.id, s.amount) for s in out.state.shields] == [(three, 2)]
    assert out.state.objects["thief"].damage == 0
