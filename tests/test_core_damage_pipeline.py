"""The damage pipeline (120.3, 120.4, 120.5, 120.8), prevention shields (615)
and the game-wide effects (Fog, reduce, double damage, double life gain, life
floor).

The keyword parts of the 120.4 examples (wither, lifelink) are tiny test
plugins here, so that the core pipeline is tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import pytest
from redzone import (
    Damage,
    DamageModifier,
    DealDamage,
    Effect,
    Engine,
    Event,
    GainLife,
    GameState,
    IllegalActionError,
    KeywordSpec,
    LeaveBattlefield,
    LoseLife,
    Permanent,
    Player,
    Prevent,
    Prevention,
    Result,
    ResultReplacement,
    StateBasedAction,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.kernel.tx import Tx
from redzone.testing import plugin_module as plugin


def _apply(engine: Engine, state: GameState, action: DealDamage) -> tuple[GameState, list[Any]]:
    """Perform an action on a working copy without settling it: no
    state-based actions yet."""
    tx = Tx(engine, state)
    tx.perform(action)
    return tx.state, tx.events




# -- test stand-ins for keyword plugins (the real ones live in redzone_keywords) --

def _wither_results(state: GameState, damage: Damage) -> list[Result]:
    source = state.last_known(damage.source)
    target = state.objects.get(damage.target)
    if not source.has("t-wither") or target is None or not target.is_creature:
        return []
    return [Result("counters", "120.3d", damage.source, damage.amount, target=damage.target,
                   counter="-1/-1", replaces="marked")]


def _lifelink_results(state: GameState, damage: Damage) -> list[Result]:
    source = state.last_known(damage.source)
    if not source.has("t-lifelink"):
        return []
    return [Result("life_gain", "120.3f", damage.source, damage.amount,
                   player=source.controller)]


def _poison_results(state: GameState, damage: Damage) -> list[Result]:
    if not state.last_known(damage.source).has("t-poison") or damage.target not in state.players:
        return []
    return [Result("poison", "120.3b", damage.source, damage.amount, player=damage.target,
                   replaces="life_loss")]


TEST_WITHER = plugin("t_wither", redzone_keywords=lambda: [KeywordSpec("t-wither", "702.80")],
                     redzone_damage_results=_wither_results)
TEST_LIFELINK = plugin("t_lifelink",
                       redzone_keywords=lambda: [KeywordSpec("t-lifelink", "702.15")],
                       redzone_damage_results=_lifelink_results)
TEST_POISON = plugin("t_poison", redzone_keywords=lambda: [KeywordSpec("t-poison", "702.90")],
                     redzone_damage_results=_poison_results)


def _doubled(_state: GameState, result: Result) -> Result | None:
    return attrs.evolve(result, amount=result.amount * 2)


def _boon_reflection(state: GameState, result: Result) -> list[ResultReplacement]:
    """Boon Reflection: "If you would gain life, you gain twice that much life
    instead." (its controller: whoever controls a permanent named so)."""
    return [ResultReplacement(f"Boon Reflection ({p.id})", "614.1a", _doubled)
            for p in state.battlefield
            if p.name == "Boon Reflection" and result.kind == "life_gain"
            and result.player == p.controller]


BOON_REFLECTION = plugin("boon_reflection", redzone_result_replacements=_boon_reflection)

WORSHIP_APPLIED: list[Result] = []


def _worship_floor(state: GameState, result: Result) -> Result | None:
    assert result.player is not None
    life = state.players[result.player].life
    if life - result.amount >= 1:
        return result
    WORSHIP_APPLIED.append(result)
    return attrs.evolve(result, amount=max(life - 1, 0))


def _worship(state: GameState, result: Result) -> list[ResultReplacement]:
    """Worship: "If you control a creature, damage that would reduce your life
    total to less than 1 reduces it to 1 instead." """
    out = []
    for p in state.battlefield:
        if (p.name == "Worship" and result.kind == "life_loss"
                and result.player == p.controller and result.rule == "120.3a"
                and any(c.is_creature and c.controller == p.controller
                        for c in state.battlefield)):
            out.append(ResultReplacement(f"Worship ({p.id})", "614.1a", _worship_floor))
    return out


WORSHIP = plugin("worship", redzone_result_replacements=_worship)


def enchantment(id: str, controller: str, name: str) -> Permanent:
    return Permanent(id, controller, name=name, types={"enchantment"})


def fight(engine: Engine, state: GameState, attacks: Mapping[str, str],
          blocks: Mapping[str, Any], actions: Sequence[Any] = (),
          assign: Mapping[str, Mapping[str, int]] | None = None) -> tuple[GameState, list[Event]]:
    """Declare, perform ``actions`` after blockers, deal combat damage."""
    state = engine.declare_attackers(state, attacks).state
    state = engine.declare_blockers(state, blocks).state
    for action in actions:
        state = engine.perform(state, action).state
    out = engine.combat_damage(state, assign)
    return out.state, list(out.events)


def kinds(events: Sequence[Event], *wanted: str) -> list[tuple[Any, ...]]:
    return [(e.kind, e.source, e.target or e.player, e.amount) for e in events
            if e.kind in wanted]


# ---------------------------------------------------------------------------
# 120.4: the two examples of the rules
# ---------------------------------------------------------------------------


def test_120_4_boon_reflection_example() -> None:
    """120.4 example: Boon Reflection; a 3/3 with wither and lifelink blocked by
    a 2/2; the next 2 damage to the blocker is prevented. Results: one -1/-1
    counter on the 2/2, the active player gains 2 life (doubled from 1), 2
    damage marked on the 3/3."""
    engine = Engine(discover=False, plugins=[TEST_WITHER, TEST_LIFELINK, BOON_REFLECTION])
    state = engine.game(["alice", "bob"], [
        enchantment("boon", "alice", "Boon Reflection"),
        engine.creature("knight", "alice", 3, 3, "t-wither", "t-lifelink"),
        creature("bear", "bob", 2, 2)])
    after, events = fight(engine, state, {"knight": "bob"}, {"bear": "knight"},
                          [Prevent(target="bear", amount=2)])
    assert kinds(events, "prevented") == [("prevented", "knight", "bear", 2)]
    assert kinds(events, "damage") == [("damage", "knight", "bear", 1),
                                       ("damage", "bear", "knight", 2)]
    assert kinds(events, "counters", "life_gain") == [
        ("life_gain", "knight", "alice", 2), ("counters", "knight", "bear", 1)]
    bear, knight = after.objects["bear"], after.objects["knight"]
    assert dict(bear.counters) == {"-1/-1": 1}
    assert (bear.damage, bear.power, bear.toughness) == (0, 1, 1)
    assert knight.damage == 2
    assert after.players["alice"].life == 22
    assert after.shields == ()


def test_120_4_boon_reflection_example_with_the_core_effect() -> None:
    """120.4 example, with Boon Reflection as the scenario effect
    ``double_life_gain``."""
    engine = Engine(discover=False, plugins=[TEST_WITHER, TEST_LIFELINK])
    state = engine.game(["alice", "bob"], [
        engine.creature("knight", "alice", 3, 3, "t-wither", "t-lifelink"),
        creature("bear", "bob", 2, 2)], effects=[Effect("double_life_gain", player="alice")])
    after, _ = fight(engine, state, {"knight": "bob"}, {"bear": "knight"},
                     [Prevent(target="bear", amount=2)])
    assert after.players["alice"].life == 22
    assert dict(after.objects["bear"].counters) == {"-1/-1": 1}


def _worship_board(engine: Engine, with_worship: bool = True) -> GameState:
    perms = [creature("x", "alice", 5, 5), creature("y", "alice", 5, 5),
             creature("pet", "bob", 1, 1)]
    if with_worship:
        perms.append(enchantment("worship", "bob", "Worship"))
    return engine.game([Player("alice"), Player("bob", life=2)], perms)


def test_120_4_worship_and_awe_strike_example() -> None:
    """120.4 example: the defending player at 2 life controls Worship and a
    creature; two unblocked 5/5s attack; Awe Strike on one attacker. The event
    becomes [loses 5 life, gains 5 life]: it would not reduce life below 1, so
    Worship does not apply; the player stays at 2."""
    engine = Engine(discover=False, plugins=[WORSHIP])
    WORSHIP_APPLIED.clear()
    after, events = fight(engine, _worship_board(engine), {"x": "bob", "y": "bob"}, {},
                          [Prevent(source="x", amount="next", gain_life="bob")])
    assert kinds(events, "prevented") == [("prevented", "x", "bob", 5)]
    assert kinds(events, "damage") == [("damage", "y", "bob", 5)]
    assert sorted(kinds(events, "life_loss", "life_gain")) == [
        ("life_gain", "x", "bob", 5), ("life_loss", "y", "bob", 5)]
    assert WORSHIP_APPLIED == []
    assert after.players["bob"].life == 2
    assert not after.players["bob"].lost
    assert after.shields == ()  # "the next time" is used up


def test_120_4_worship_without_awe_strike_applies() -> None:
    """614.1a Worship: without Awe Strike, 10 damage would reduce life below 1:
    the player goes to 1 instead, and does not lose (704.5a)."""
    engine = Engine(discover=False, plugins=[WORSHIP])
    WORSHIP_APPLIED.clear()
    after, _ = fight(engine, _worship_board(engine), {"x": "bob", "y": "bob"}, {})
    assert after.players["bob"].life == 1
    assert not after.players["bob"].lost
    assert WORSHIP_APPLIED


def test_120_4_worship_requires_a_creature() -> None:
    """Worship's condition ("if you control a creature") is read as the result
    is applied: with the creature gone, the player loses (704.5a)."""
    engine = Engine(discover=False, plugins=[WORSHIP])
    state = _worship_board(engine)
    state = engine.perform(state, LeaveBattlefield("pet")).state
    after, _ = fight(engine, state, {"x": "bob", "y": "bob"}, {})
    assert after.players["bob"].life == -8
    assert after.players["bob"].lost
    assert after.players["bob"].loss_rule == "704.5a"


def test_120_4_worship_and_awe_strike_with_the_core_effect() -> None:
    """The same example with Worship as the scenario effect ``life_floor``."""
    engine = Engine(discover=False)
    state = _worship_board(engine, with_worship=False)
    state = state.evolve(effects=(Effect("life_floor", player="bob"),))
    after, _ = fight(engine, state, {"x": "bob", "y": "bob"}, {},
                     [Prevent(source="x", amount="next", gain_life="bob")])
    assert after.players["bob"].life == 2
    after, _ = fight(engine, state, {"x": "bob", "y": "bob"}, {})
    assert after.players["bob"].life == 1


def test_120_4_worship_requires_a_creature_with_the_core_effect() -> None:
    """Worship as the scenario effect ``life_floor``: "If you control a
    creature, damage that would reduce your life total to less than 1
    reduces it to 1 instead" (614.1a). Bob's only creature is gone (alice's
    don't count): the two 5/5s take him from 2 to -8 life and he loses
    (704.5a)."""
    engine = Engine(discover=False)
    state = _worship_board(engine, with_worship=False)
    state = state.evolve(effects=(Effect("life_floor", player="bob"),))
    state = engine.perform(state, LeaveBattlefield("pet")).state
    after, _ = fight(engine, state, {"x": "bob", "y": "bob"}, {})
    assert after.players["bob"].life == -8
    assert after.players["bob"].lost
    assert after.players["bob"].loss_rule == "704.5a"


# ---------------------------------------------------------------------------
# 120.3: results, 120.5: damage doesn't destroy, 120.8: 0 damage
# ---------------------------------------------------------------------------


def test_120_5_lightning_bolt(bare_engine: Engine) -> None:
    """120.5 example: Lightning Bolt deals 3 damage to a 2/2; the damage only
    marks it (120.3e); the creature is destroyed as a state-based action
    (704.5g)."""
    state = bare_engine.game(["alice", "bob"], [
        Permanent("bolt", "alice", name="Lightning Bolt", types={"instant"}, zone="graveyard"),
        creature("bear", "bob", 2, 2)])
    action = DealDamage("bolt", "bear", 3)
    marked, events = _apply(bare_engine, state, action)
    assert marked.objects["bear"].zone == "battlefield"
    assert marked.objects["bear"].damage == 3
    assert [(e.kind, e.rule) for e in events] == [("damage", "120.2b")]
    out = bare_engine.perform(state, action)
    assert [(e.kind, e.rule) for e in out.events] == [
        ("damage", "120.2b"), ("destroyed", "704.5g"), ("dies", "704.5g")]
    assert out.state.objects["bear"].zone == "graveyard"
    assert out.state.last_known("bear").damage == 3


def test_120_3_results_by_recipient(bare_engine: Engine) -> None:
    """120.3a life loss, 120.3c loyalty removed, 120.3e damage marked, 120.3h
    defense removed; a creature planeswalker gets both 120.3c and 120.3e."""
    state = bare_engine.game(["alice", "bob"], [
        creature("src", "alice", 1, 1),
        creature("bear", "bob", 2, 5),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 5}),
        Permanent("siege", "alice", types={"battle"}, counters={"defense": 5},
                  protector="bob"),
        Permanent("gideon", "bob", types={"planeswalker", "creature"}, base_power=2,
                  base_toughness=5, counters={"loyalty": 5})])
    checks: list[tuple[str, Callable[[GameState], bool]]] = [
            ("bob", lambda s: s.players["bob"].life == 18),
            ("bear", lambda s: s.objects["bear"].damage == 2),
            ("jace", lambda s: s.objects["jace"].loyalty == 3),
            ("siege", lambda s: s.objects["siege"].defense == 3),
            ("gideon", lambda s: (s.objects["gideon"].loyalty, s.objects["gideon"].damage)
             == (3, 2))]
    for target, check in checks:
        out = bare_engine.perform(state, DealDamage("src", target, 2))
        assert check(out.state), target
    out = bare_engine.perform(state, DealDamage("src", "jace", 2))
    assert [(e.kind, e.rule, e.amount) for e in out.events if e.kind == "loyalty"] == [
        ("loyalty", "120.3c", 2)]


def test_120_3c_cannot_remove_more_loyalty_than_there_is(bare_engine: Engine) -> None:
    """120.3c / 704.5i: removing loyalty stops at 0; the planeswalker dies."""
    state = bare_engine.game(["alice", "bob"], [
        creature("src", "alice", 1, 1),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 2})])
    out = bare_engine.perform(state, DealDamage("src", "jace", 5))
    assert [(e.kind, e.amount) for e in out.events if e.kind == "loyalty"] == [("loyalty", 2)]
    assert out.state.objects["jace"].zone == "graveyard"


def test_120_1a_only_creatures_planeswalkers_battles_are_dealt_damage(
        bare_engine: Engine) -> None:
    """120.1a: damage can't be dealt to an object that's not a battle, a
    creature or a planeswalker."""
    state = bare_engine.game(["alice", "bob"], [
        creature("src", "alice", 1, 1), Permanent("rock", "bob", types={"artifact"})])
    out = bare_engine.perform(state, DealDamage("src", "rock", 3))
    assert out.events == ()
    assert out.state == state


def test_120_8_zero_damage_is_no_damage() -> None:
    """120.8: a source that would deal 0 damage deals none: no damage event,
    nothing triggers, damage-increasing effects have nothing to replace."""
    events_seen: list[tuple[Damage, ...]] = []
    engine = Engine(discover=False, plugins=[plugin(
        "watch", redzone_damage_event=lambda damage: events_seen.append(damage))])
    state = engine.game(["alice", "bob"], [creature("src", "alice", 1, 1)],
                        effects=[Effect("double_damage")])
    out = engine.perform(state, DealDamage("src", "bob", 0))
    assert out.events == ()
    assert out.state.players["bob"].life == 20
    assert events_seen == []
    out = engine.perform(state, DealDamage("src", "bob", 1))
    assert out.state.players["bob"].life == 18
    assert len(events_seen) == 1


def test_120_4d_damage_event_once_per_batch() -> None:
    """120.4d, 510.2: all combat damage of a step is one damage event; the
    hook sees every damage and every result, after the state committed."""
    calls: list[tuple[GameState, tuple[Damage, ...], tuple[Result, ...]]] = []

    def redzone_damage_event(state: GameState, damage: tuple[Damage, ...],
                             results: tuple[Result, ...]) -> None:
        calls.append((state, damage, results))

    engine = Engine(discover=False, plugins=[TEST_LIFELINK, plugin(
        "watch", redzone_damage_event=redzone_damage_event)])
    state = engine.game(["alice", "bob"], [
        engine.creature("a", "alice", 2, 2, "t-lifelink"), creature("b", "alice", 3, 3),
        creature("bear", "bob", 2, 2)])
    after, _ = fight(engine, state, {"a": "bob", "b": "bob"}, {"bear": "b"})
    assert len(calls) == 1
    seen_state, damage, results = calls[0]
    assert seen_state == after
    assert sorted((d.source, d.target, d.amount, d.combat) for d in damage) == [
        ("a", "bob", 2, True), ("b", "bear", 3, True), ("bear", "b", 2, True)]
    assert ("life_gain", "alice", 2) in {(r.kind, r.player, r.amount) for r in results}
    # Noncombat damage is one event too, and the hook gets its results.
    calls.clear()
    engine.perform(state, DealDamage("a", "bob", 1))
    assert len(calls) == 1
    assert [(d.amount, d.combat) for d in calls[0][1]] == [(1, False)]
    assert {(r.kind, r.amount) for r in calls[0][2]} == {("life_loss", 1), ("life_gain", 1)}


def test_702_15b_one_life_gain_per_source_per_event() -> None:
    """702.15b / 120.3f: damage dealt by one source to several recipients at
    once makes one life gain."""
    engine = Engine(discover=False, plugins=[TEST_LIFELINK])
    state = engine.game(["alice", "bob"], [
        creature("a", "alice", 1, 1), creature("b", "alice", 2, 2),
        engine.creature("wall", "bob", 3, 5, "t-lifelink", can_block_additional=1)])
    after, events = fight(engine, state, {"a": "bob", "b": "bob"}, {"wall": ["a", "b"]},
                          assign={"wall": {"a": 1, "b": 2}})
    assert kinds(events, "life_gain") == [("life_gain", "wall", "bob", 3)]
    assert after.players["bob"].life == 23


def test_120_3b_result_replacing_life_loss() -> None:
    """120.3b / 704.5c: a result with ``replaces`` stands in for the usual one
    (poison instead of life loss); ten poison counters lose the game."""
    engine = Engine(discover=False, plugins=[TEST_POISON])
    state = engine.game(["alice", Player("bob", poison=8)], [
        engine.creature("rat", "alice", 2, 2, "t-poison")])
    after, events = fight(engine, state, {"rat": "bob"}, {})
    assert kinds(events, "poison", "life_loss") == [("poison", "rat", "bob", 2)]
    assert after.players["bob"].life == 20
    assert (after.players["bob"].poison, after.players["bob"].loss_rule) == (10, "704.5c")


def test_608_2h_noncombat_damage_from_a_source_that_left() -> None:
    """510.2 example / 608.2h: Mogg Fanatic is sacrificed, then deals its
    damage; its abilities and controller are read from last known information."""
    engine = Engine(discover=False, plugins=[TEST_LIFELINK])
    state = engine.game(["alice", "bob"], [
        creature("hawk", "alice", 1, 1, name="Squadron Hawk"),
        engine.creature("fanatic", "bob", 1, 1, "t-lifelink", name="Mogg Fanatic")])
    state = engine.perform(state, LeaveBattlefield("fanatic")).state
    out = engine.perform(state, DealDamage("fanatic", "hawk", 1))
    assert out.state.objects["hawk"].zone == "graveyard"
    assert out.state.players["bob"].life == 21


def test_deal_damage_rejects_bad_input(bare_engine: Engine) -> None:
    """120.7 / 400.1: damage needs an existing source and a target on the
    battlefield (or a player), and a whole amount; nothing changes otherwise."""
    state = bare_engine.game(["alice", "bob"], [
        creature("src", "alice", 1, 1), creature("gone", "bob", 1, 1, zone="graveyard")])
    before = state_to_dict(state)
    for action, rule in [(DealDamage("nope", "bob", 1), "120.7"),
                         (DealDamage("src", "gone", 1), "400.1"),
                         (DealDamage("src", "nobody", 1), "400.1"),
                         (DealDamage("src", "bob", -1), "107.1")]:
        with pytest.raises(IllegalActionError) as info:
            bare_engine.perform(state, action)
        assert info.value.rule == rule
    assert state_to_dict(state) == before


# ---------------------------------------------------------------------------
# 615: prevention shields
# ---------------------------------------------------------------------------


def _two_on_one(engine: Engine) -> GameState:
    state = engine.game(["alice", "bob"], [
        creature("a", "alice", 2, 2), creature("b", "alice", 2, 2),
        creature("wall", "bob", 0, 10, can_block_additional=1)])
    state = engine.declare_attackers(state, {"a": "bob", "b": "bob"}).state
    return engine.declare_blockers(state, {"wall": ["a", "b"]}).state


def test_615_7_shield_prevents_the_next_n_damage(bare_engine: Engine) -> None:
    """615.7: a "prevent the next 3 damage" shield counts only damage, across
    sources dealing damage at the same time, and is used up at 0."""
    state = bare_engine.perform(_two_on_one(bare_engine), Prevent(target="wall", amount=3)).state
    assert [(s.to, s.amount, s.mode) for s in state.shields] == [("wall", 3, "amount")]
    out = bare_engine.combat_damage(state)
    assert kinds(out.events, "prevented") == [("prevented", "a", "wall", 2),
                                              ("prevented", "b", "wall", 1)]
    assert kinds(out.events, "damage") == [("damage", "b", "wall", 1)]
    assert out.state.objects["wall"].damage == 1
    assert out.state.shields == ()


def test_615_shield_partly_used_keeps_the_rest(bare_engine: Engine) -> None:
    """615.7: a shield reduced by 1 for each damage prevented keeps the rest."""
    state = bare_engine.perform(_two_on_one(bare_engine), Prevent(target="wall", amount=5)).state
    out = bare_engine.combat_damage(state)
    assert out.state.objects["wall"].damage == 0
    assert [(s.amount, s.mode) for s in out.state.shields] == [(1, "amount")]
    again = bare_engine.perform(out.state, DealDamage("a", "wall", 3))
    assert again.state.objects["wall"].damage == 2
    assert again.state.shields == ()


def test_615_all_shield_lasts(bare_engine: Engine) -> None:
    """615.1: "prevent all damage that would be dealt to X this turn" keeps
    applying."""
    state = bare_engine.perform(_two_on_one(bare_engine), Prevent(target="wall")).state
    out = bare_engine.combat_damage(state)
    assert out.state.objects["wall"].damage == 0
    assert len(out.state.shields) == 1
    assert bare_engine.perform(out.state, DealDamage("a", "wall", 3)).state.objects[
        "wall"].damage == 0


def test_615_source_shield_and_combat_only(bare_engine: Engine) -> None:
    """615.1: a shield on a source prevents the damage that source deals; a
    combat-only shield ignores noncombat damage."""
    state = bare_engine.perform(_two_on_one(bare_engine),
                                Prevent(source="a", combat_only=True)).state
    out = bare_engine.combat_damage(state)
    assert kinds(out.events, "damage") == [("damage", "b", "wall", 2)]
    noncombat = bare_engine.perform(out.state, DealDamage("a", "bob", 2))
    assert noncombat.state.players["bob"].life == 18


def test_615_next_time_covers_all_damage_dealt_at_once() -> None:
    """615 / 120.4 (Awe Strike): "the next time this creature would deal
    damage" prevents all the damage it deals at that time, to every recipient,
    and the life gained is the total prevented."""
    engine = Engine(discover=False, plugins=[plugin(
        "past", redzone_assigns_past_blockers=lambda attacker: True)])
    state = engine.game(["alice", "bob"], [creature("wurm", "alice", 5, 5),
                                           creature("bear", "bob", 2, 2)])
    after, events = fight(engine, state, {"wurm": "bob"}, {"bear": "wurm"},
                          [Prevent(source="wurm", amount="next", gain_life="bob")],
                          assign={"wurm": {"bear": 2, "bob": 3}})
    assert kinds(events, "prevented") == [("prevented", "wurm", "bear", 2),
                                          ("prevented", "wurm", "bob", 3)]
    assert kinds(events, "life_gain") == [("life_gain", "wurm", "bob", 5)]
    assert after.players["bob"].life == 25
    assert after.shields == ()
    later = engine.perform(after, DealDamage("wurm", "bob", 1))
    assert later.state.players["bob"].life == 24


def test_615_shield_ids_stay_unique(bare_engine: Engine) -> None:
    """615: each shield is its own effect; ids stay unique after one is used up."""
    state = bare_engine.game(["alice", "bob"], [creature("src", "alice", 5, 5)])
    state = bare_engine.perform(state, Prevent(target="bob", amount=1)).state
    state = bare_engine.perform(state, Prevent(target="bob", amount=1)).state
    state = bare_engine.perform(state, DealDamage("src", "bob", 1)).state
    state = bare_engine.perform(state, Prevent(target="bob", amount=1)).state
    ids = [s.id for s in state.shields]
    assert len(ids) == len(set(ids)) == 2


def test_615_prevention_hook_amounts_add_up() -> None:
    """615.1 via redzone_prevent_damage: amounts from several effects add up;
    one that prevents all wins."""
    engine = Engine(discover=False, plugins=[
        plugin("one", redzone_prevent_damage=lambda damage: [Prevention("one", "615.1a", 1)]),
        plugin("two", redzone_prevent_damage=lambda damage: [Prevention("two", "615.1a", 2)])])
    state = engine.game(["alice", "bob"], [creature("src", "alice", 5, 5)])
    out = engine.perform(state, DealDamage("src", "bob", 5))
    assert out.state.players["bob"].life == 18
    assert kinds(out.events, "prevented") == [("prevented", "src", "bob", 3)]
    everything = Engine(discover=False, plugins=[plugin(
        "all", redzone_prevent_damage=lambda damage: [Prevention("all", "615.1")])])
    out = everything.perform(state, DealDamage("src", "bob", 5))
    assert out.state.players["bob"].life == 20
    assert [(e.kind, e.rule, e.amount) for e in out.events] == [("prevented", "615.1", 5)]


# ---------------------------------------------------------------------------
# Game-wide effects (effects.py) and replacement ordering (614.5)
# ---------------------------------------------------------------------------


def test_615_fog_prevents_all_combat_damage_only(bare_engine: Engine) -> None:
    """615.1 (Fog): prevent all combat damage; noncombat damage is dealt."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3),
                                                creature("bear", "bob", 2, 2)],
                             effects=[Effect("prevent_all_combat_damage")])
    after, events = fight(bare_engine, state, {"orc": "bob"}, {"bear": "orc"})
    assert kinds(events, "damage") == []
    assert len(kinds(events, "prevented")) == 2
    assert (after.objects["bear"].damage, after.objects["orc"].damage) == (0, 0)
    assert bare_engine.perform(after, DealDamage("orc", "bob", 2)).state.players[
        "bob"].life == 18


def test_615_1a_reduce_damage_each_time(bare_engine: Engine) -> None:
    """615.1a: "if a source would deal damage to the cleric, prevent 1 of that
    damage" applies to each damage."""
    state = bare_engine.game(["alice", "bob"], [
        creature("a", "alice", 2, 2), creature("b", "alice", 2, 2),
        creature("cleric", "bob", 0, 10, can_block_additional=1)],
        effects=[Effect("reduce_damage", to="cleric", amount=1)])
    after, events = fight(bare_engine, state, {"a": "bob", "b": "bob"}, {"cleric": ["a", "b"]})
    assert after.objects["cleric"].damage == 2
    assert kinds(events, "prevented") == [("prevented", "a", "cleric", 1),
                                          ("prevented", "b", "cleric", 1)]
    tiny = bare_engine.perform(after, DealDamage("a", "cleric", 1))
    assert tiny.state.objects["cleric"].damage == 2
    assert kinds(tiny.events, "damage") == []


def test_614_1a_double_damage_after_prevention(bare_engine: Engine) -> None:
    """614.1a (Furnace of Rath): sources deal double damage; applied after
    prevention (the default order: 616.1 lets the affected player choose,
    tests/test_damage_order.py); with a source named, only that source."""
    state = bare_engine.game(["alice", "bob"], [creature("a", "alice", 3, 3),
                                                creature("b", "alice", 3, 3)],
                             effects=[Effect("double_damage", source="a")])
    assert bare_engine.perform(state, DealDamage("a", "bob", 3)).state.players[
        "bob"].life == 14
    assert bare_engine.perform(state, DealDamage("b", "bob", 3)).state.players[
        "bob"].life == 17
    shielded = bare_engine.perform(state, Prevent(target="bob", amount=1)).state
    assert bare_engine.perform(shielded, DealDamage("a", "bob", 3)).state.players[
        "bob"].life == 16
    everyone = state.evolve(effects=(Effect("double_damage"),))
    assert bare_engine.perform(everyone, DealDamage("b", "bob", 3)).state.players[
        "bob"].life == 14


def test_614_1a_double_life_gain_for_its_player_only(bare_engine: Engine) -> None:
    """614.1a (Boon Reflection): "if you would gain life" doubles that player's
    life gain, including life gain that isn't from damage (119.3)."""
    state = bare_engine.game(["alice", "bob"], [],
                             effects=[Effect("double_life_gain", player="alice")])
    out = bare_engine.perform(state, GainLife("alice", 3))
    assert out.state.players["alice"].life == 26
    assert [(e.kind, e.amount) for e in out.events] == [("life_gain", 6)]
    assert bare_engine.perform(state, GainLife("bob", 3)).state.players["bob"].life == 23


def test_614_1a_life_floor_applies_to_damage_only(bare_engine: Engine) -> None:
    """614.1a (Worship): "damage that would reduce your life" — life loss that
    isn't damage (119.3) is not affected."""
    state = bare_engine.game(["alice", Player("bob", life=3)], [
        creature("src", "alice", 5, 5), creature("pet", "bob", 1, 1)],
        effects=[Effect("life_floor", player="bob")])
    assert bare_engine.perform(state, DealDamage("src", "bob", 5)).state.players[
        "bob"].life == 1
    lost = bare_engine.perform(state, LoseLife("bob", 5)).state.players["bob"]
    assert (lost.life, lost.lost, lost.loss_rule) == (-2, True, "704.5a")


def test_614_5_result_replacements_apply_once_in_name_order() -> None:
    """614.5 / 616.1: each replacement applies once to a result; their order is
    fixed by effect name, whatever order the plugins were registered in."""
    def plus_one(state: GameState, result: Result) -> list[ResultReplacement]:
        if result.kind != "life_gain":
            return []
        return [ResultReplacement("a: plus one", "614.1a",
                                  lambda s, r: attrs.evolve(r, amount=r.amount + 1))]

    def double(state: GameState, result: Result) -> list[ResultReplacement]:
        if result.kind != "life_gain":
            return []
        return [ResultReplacement("b: double", "614.1a", _doubled),
                ResultReplacement("b: double", "614.1a", _doubled)]  # the same effect twice

    first = plugin("zz_plus", redzone_result_replacements=plus_one)
    second = plugin("aa_double", redzone_result_replacements=double)
    for plugins in ([first, second], [second, first]):
        engine = Engine(discover=False, plugins=plugins)
        state = engine.game(["alice", "bob"], [])
        assert engine.perform(state, GainLife("alice", 3)).state.players["alice"].life == 28


def test_614_replacement_may_cancel_a_result() -> None:
    """614.1: a replacement may replace a result with nothing."""
    engine = Engine(discover=False, plugins=[plugin(
        "nothing", redzone_result_replacements=lambda result: [
            ResultReplacement("nothing", "614.1a", lambda s, r: None)])])
    state = engine.game(["alice", "bob"], [creature("src", "alice", 2, 2)])
    out = engine.perform(state, DealDamage("src", "bob", 2))
    assert out.state.players["bob"].life == 20
    assert [e.kind for e in out.events] == ["damage"]


def test_614_1a_damage_modifiers_in_name_order() -> None:
    """614.1a / 616.1 via redzone_modify_damage: modifiers apply in order of
    effect name, whatever the registration order."""
    add = plugin("zz_add", redzone_modify_damage=lambda damage: [
        DamageModifier("a: plus one", "614.1a", add=1)])
    mul = plugin("aa_mul", redzone_modify_damage=lambda damage: [
        DamageModifier("b: double", "614.1a", multiply=2)])
    for plugins in ([add, mul], [mul, add]):
        engine = Engine(discover=False, plugins=plugins)
        state = engine.game(["alice", "bob"], [creature("src", "alice", 2, 2)])
        assert engine.perform(state, DealDamage("src", "bob", 2)).state.players[
            "bob"].life == 14  # (2 + 1) * 2


def test_704_5h_style_mark_result_and_plugin_state_based_action() -> None:
    """120.4c / 704.5h via a ``mark`` result and redzone_state_based_actions:
    a fact noted by damage is seen by the next check, then cleared."""
    def results(state: GameState, damage: Damage) -> list[Result]:
        if state.last_known(damage.source).name == "Toucher" and damage.target in state.objects:
            return [Result("mark", "702.2b", damage.source, target=damage.target, mark="touched")]
        return []

    def sbas(state: GameState) -> list[StateBasedAction]:
        return [StateBasedAction("destroy", "704.5h", object=p.id)
                for p in state.battlefield if "touched" in p.marks and p.toughness > 0]

    engine = Engine(discover=False, plugins=[plugin(
        "touch", redzone_damage_results=results, redzone_state_based_actions=sbas)])
    state = engine.game(["alice", "bob"], [creature("t", "alice", 1, 1, name="Toucher"),
                                           creature("giant", "bob", 1, 8)])
    marked, _ = _apply(engine, state, DealDamage("t", "giant", 1))
    assert marked.objects["giant"].marks == frozenset({"touched"})
    out = engine.perform(state, DealDamage("t", "giant", 1))
    assert out.state.objects["giant"].zone == "graveyard"
    assert [(e.kind, e.rule) for e in out.events if e.kind in ("destroyed", "dies")] == [
        ("destroyed", "704.5h"), ("dies", "704.5h")]
    assert all(not p.marks for p in out.state.objects.values())


def test_player_who_left_is_not_dealt_damage(bare_engine: Engine) -> None:
    """120.1 / 800.4a: a player who left the game can't be dealt damage."""
    state = bare_engine.game(["alice", Player("bob", lost=True)], [
        creature("src", "alice", 2, 2)])
    out = bare_engine.perform(state, DealDamage("src", "bob", 2))
    assert out.events == ()
    assert out.state.players["bob"].life == 20


def test_615_prevention_hook_sees_shields_used_earlier_in_the_batch() -> None:
    """615.7 / redzone_prevent_damage: within one batch, a plugin sees the
    shields as earlier damage of the batch left them."""
    seen: list[tuple[str, tuple[int | None, ...]]] = []

    def redzone_prevent_damage(state: GameState, damage: Damage) -> list[Prevention]:
        seen.append((damage.source, tuple(s.amount for s in state.shields)))
        return []

    engine = Engine(discover=False, plugins=[plugin("spy", redzone_prevent_damage=(
        redzone_prevent_damage))])
    state = engine.perform(_two_on_one(engine), Prevent(target="wall", amount=3)).state
    engine.combat_damage(state)
    assert seen == [("a", (3,)), ("b", (1,))]


def test_615_1_a_reduction_prevents_no_more_than_the_damage() -> None:
    """615.1: a prevention effect watches for a damage event and "completely
    or partially prevent[s] the damage that would be dealt": it can't prevent
    more than the event holds. "Prevent 3 of each damage to the cleric"
    facing the bear's 2 combat damage prevents 2: the ``prevented`` event
    says 2, and none is dealt."""
    engine = Engine(discover=False)
    state = engine.game(["alice", "bob"], [
        engine.creature("bear", "alice", 2, 2), engine.creature("cleric", "bob", 0, 4)],
        effects=[Effect("reduce_damage", to="cleric", amount=3)])
    out = engine.resolve(state, {"bear": "bob"}, {"cleric": ["bear"]})
    assert kinds(out.events, "prevented", "damage") == [("prevented", "bear", "cleric", 2)]
    assert out.state.objects["cleric"].damage == 0
