"""Hypothesis properties of the core (DESIGN.md quality bars):

- an illegal command leaves the state equal to what it was (733);
- results do not depend on plugin registration order;
- a creature with power P assigns exactly P (510.1a);
- damage dealt = damage assigned minus damage prevented (120.4b, 615);
- life, poison, marked damage, loyalty and zones account for every event;
- every state round-trips through its serialised form.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import (
    Damage,
    DamageModifier,
    Effect,
    Engine,
    Event,
    GameState,
    IllegalActionError,
    Permanent,
    Player,
    Prevent,
    Prevention,
    Result,
    ResultReplacement,
    creature,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.kernel.plugins import PluginInfo, discover
from redzone.testing import plugin_module as plugin
from redzone.testing.conformance import _unprefixed

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

BARE = Engine(discover=False)




# ---------------------------------------------------------------------------
# Strategies: random boards and random (mostly legal) combats
# ---------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn, keywords: Sequence[str] = ()) -> tuple[list[Player], list[Permanent],
                                                                  list[Effect]]:
    names = ["alice", "bob", "carol"][:draw(st.integers(2, 3))]
    players = [Player(p, life=draw(st.integers(1, 20)), poison=draw(st.integers(0, 9)))
               for p in names]
    perms: list[Permanent] = []
    for p in names:
        for i in range(draw(st.integers(1 if p == "alice" else 0, 4))):
            toughness = draw(st.integers(1, 5))
            kws = draw(st.lists(st.sampled_from(keywords), max_size=2, unique=True)) if (
                keywords) else []
            perms.append(creature(
                f"{p[0]}{i}", p, draw(st.integers(0, 6)), toughness, *kws,
                damage=draw(st.integers(0, toughness - 1)),
                can_block_additional=draw(st.sampled_from([0, 0, 1])),
                counters=draw(st.sampled_from([{}, {}, {"+1/+1": 1}, {"-1/-1": 1}]))))
        if p != "alice" and draw(st.booleans()):
            perms.append(Permanent(f"{p[0]}w", p, types={"planeswalker"},
                                   counters={"loyalty": draw(st.integers(1, 6))}))
    effects: list[Effect] = []
    if draw(st.integers(0, 4)) == 0:
        effects.append(Effect("prevent_all_combat_damage"))
    creatures = [c.id for c in perms if c.is_creature]
    if bool(creatures) and draw(st.booleans()):
        effects.append(Effect("reduce_damage", to=draw(st.sampled_from(creatures)),
                              amount=draw(st.integers(0, 3))))
    return players, perms, effects


def game(engine: Engine, board: tuple[list[Player], list[Permanent], list[Effect]]) -> GameState:
    players, perms, effects = board
    # A random board may start with state-based actions to perform (a 1/1 with
    # a -1/-1 counter): perform them first, as the game would have.
    return engine.check_state_based_actions(engine.game(players, perms, effects=effects)).state


def draw_attacks(data: st.DataObject, engine: Engine, state: GameState) -> dict[str, str]:
    targets = engine.attackable(state)
    attacks = {}
    for perm in state.battlefield:
        if perm.controller == state.active_player and perm.is_creature and data.draw(
                st.booleans()):
            attacks[perm.id] = data.draw(st.sampled_from(targets))
    return attacks


def draw_blocks(data: st.DataObject, state: GameState) -> dict[str, list[str]]:
    combat = state.combat
    assert combat is not None
    blocks: dict[str, list[str]] = {}
    for perm in state.battlefield:
        if perm.controller == state.active_player or not perm.is_creature or perm.tapped:
            continue
        mine = [a for a in combat.attacks if combat.defending_players[a] == perm.controller]
        if not mine or not data.draw(st.booleans()):
            continue
        n = 1 + min(perm.can_block_additional, len(mine) - 1)
        blocks[perm.id] = data.draw(st.lists(st.sampled_from(mine), min_size=1, max_size=n,
                                             unique=True))
    return blocks


def draw_declarations(data: st.DataObject, engine: Engine, state: GameState
                      ) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Attackers drawn for ``state`` and, when they lead to a declare
    blockers step, blocks drawn for the declared state (none when the
    attack is illegal or nothing can block)."""
    attacks = draw_attacks(data, engine, state)
    blocks: dict[str, list[str]] = {}
    try:
        declared = engine.declare_attackers(state, attacks).state
        if engine.next_step(declared) == "declare_blockers":
            blocks = draw_blocks(data, declared)
    except IllegalActionError:
        pass
    return attacks, blocks


def draw_assign(data: st.DataObject, engine: Engine, state: GameState
                ) -> dict[str, dict[str, int]]:
    """A random division of each creature's power among its legal recipients
    (legal under the core's rules alone)."""
    _step, duties = engine.damage_duties(state)
    assign: dict[str, dict[str, int]] = {}
    for duty in duties:
        if not data.draw(st.booleans()):
            continue  # leave it to the default policy
        cuts = sorted(data.draw(st.lists(st.integers(0, duty.power),
                                         min_size=len(duty.recipients) - 1,
                                         max_size=len(duty.recipients) - 1)))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, duty.power], strict=True)]
        assign[duty.source] = dict(zip(duty.recipients, parts, strict=True))
    return assign


def draw_shields(data: st.DataObject, engine: Engine, state: GameState) -> GameState:
    ids = [p.id for p in state.battlefield] + list(state.players)
    for _ in range(data.draw(st.integers(0, 2))):
        who = data.draw(st.sampled_from(ids))
        amounts: list[int | str] = [1, 2, 3, "next", "all"]
        amount = data.draw(st.sampled_from(amounts))
        action = Prevent(target=who, amount=amount) if data.draw(st.booleans()) else Prevent(
            source=who, amount=amount)
        state = engine.perform(state, action).state
    return state


# ---------------------------------------------------------------------------
# 733: an illegal command leaves the state as it was
# ---------------------------------------------------------------------------


ANY_ID = st.sampled_from(["alice", "bob", "carol", "a0", "a1", "b0", "b1", "c0", "bw", "cw",
                          "ghost"])


@SETTINGS
@given(board=boards(), data=st.data())
def test_733_illegal_commands_change_nothing(board: Any, data: st.DataObject) -> None:
    """733 / 508.1 / 509.1 / 510.1e: any declaration or assignment, legal or
    not, leaves the caller's state exactly as it was; an illegal one raises a
    typed error citing a rule and naming objects."""
    state = game(BARE, board)
    frozen = state_to_dict(state)
    attacks = data.draw(st.dictionaries(ANY_ID, ANY_ID, max_size=3))
    try:
        after = BARE.declare_attackers(state, attacks).state
    except IllegalActionError as err:
        assert err.rule and err.violations and err.objects
        assert state_to_dict(state) == frozen
        attacks = draw_attacks(data, BARE, state)
        after = BARE.declare_attackers(state, attacks).state
    assert state_to_dict(state) == frozen
    if BARE.next_step(after) != "declare_blockers":
        return
    frozen = state_to_dict(after)
    blocks = data.draw(st.dictionaries(ANY_ID, st.lists(ANY_ID, max_size=2), max_size=3))
    try:
        blocked = BARE.declare_blockers(after, blocks).state
    except IllegalActionError as err:
        assert err.rule and err.violations
        blocked = BARE.declare_blockers(after, draw_blocks(data, after)).state
    assert state_to_dict(after) == frozen
    frozen = state_to_dict(blocked)
    assign = data.draw(st.dictionaries(ANY_ID, st.dictionaries(
        ANY_ID, st.integers(-2, 7), max_size=3), max_size=3))
    try:
        BARE.combat_damage(blocked, assign)
    except IllegalActionError as err:
        assert err.rule.startswith("510.1")
        assert set(err.violations) == set(BARE.assignment_violations(blocked, assign))
    else:
        assert BARE.assignment_violations(blocked, assign) == ()
    assert state_to_dict(blocked) == frozen


# ---------------------------------------------------------------------------
# 510.1a: power P assigns exactly P; 120.4b: dealt = assigned - prevented
# ---------------------------------------------------------------------------


def _through_blocks(data: st.DataObject, engine: Engine, board: Any) -> GameState:
    state = game(engine, board)
    state = engine.declare_attackers(state, draw_attacks(data, engine, state)).state
    if engine.next_step(state) != "declare_blockers":
        return state
    return engine.declare_blockers(state, draw_blocks(data, state)).state


@SETTINGS
@given(board=boards(), data=st.data())
def test_510_1a_power_p_assigns_exactly_p(board: Any, data: st.DataObject) -> None:
    """510.1a: in every step, each creature that assigns combat damage assigns
    exactly its power, by the default policy and by a random legal division."""
    state = _through_blocks(data, BARE, board)
    if state.step != "declare_blockers":
        return
    _step, duties = BARE.damage_duties(state)
    power = {d.source: d.power for d in duties}
    policy = BARE.default_assignment(state)
    assert {s: sum(a.values()) for s, a in policy.items()} == power
    assert all(state.objects[s].power == p > 0 for s, p in power.items())
    out = BARE.combat_damage(state, draw_assign(data, BARE, state))
    assigned: Counter[str] = Counter()
    for e in out.events:
        if e.kind == "assign":
            assigned[e.source or ""] += e.amount or 0
    assert dict(assigned) == {s: p for s, p in power.items()}


@SETTINGS
@given(board=boards(), data=st.data())
def test_120_4_dealt_is_assigned_minus_prevented(board: Any, data: st.DataObject) -> None:
    """120.4b / 615: with no effect that changes amounts, each source deals
    each recipient what it was assigned minus what was prevented."""
    state = _through_blocks(data, BARE, board)
    if state.step != "declare_blockers":
        return
    state = draw_shields(data, BARE, state)
    out = BARE.combat_damage(state, draw_assign(data, BARE, state))
    ledger: Counter[tuple[str, str]] = Counter()
    for e in out.events:
        key = (e.source or "", e.target or "")
        if e.kind == "assign":
            ledger[key] += e.amount or 0
        elif e.kind == "prevented":
            ledger[key] -= e.amount or 0
        elif e.kind == "damage":
            ledger[key] -= e.amount or 0
            assert e.combat and (e.amount or 0) > 0  # 120.8
    assert all(v == 0 for v in ledger.values()), ledger


# ---------------------------------------------------------------------------
# Accounting: the events explain every change
# ---------------------------------------------------------------------------


def _account(before: GameState, after: GameState, events: Sequence[Event]) -> None:
    for pid, player in before.players.items():
        gained = sum(e.amount or 0 for e in events if e.kind == "life_gain" and e.player == pid)
        lost = sum(e.amount or 0 for e in events if e.kind == "life_loss" and e.player == pid)
        assert after.players[pid].life - player.life == gained - lost, pid
        poison = sum(e.amount or 0 for e in events if e.kind == "poison" and e.player == pid)
        assert after.players[pid].poison - player.poison == poison
        assert after.players[pid].lost == (player.lost or any(
            e.kind == "lost" and e.player == pid for e in events))
    # (a card off the battlefield moves with "moved": one of a player who
    # leaves the game, 800.4a)
    moved = {e.object for e in events if e.kind in ("dies", "zone_change", "moved")}
    changed = {o for o, p in after.objects.items()
               if p.zone != before.objects[o].zone}
    assert moved == changed
    for oid, perm in before.objects.items():
        now = after.objects[oid]
        if now.zone != "battlefield":
            continue
        dealt = sum(e.amount or 0 for e in events if e.kind == "damage" and e.target == oid)
        if perm.is_creature:
            assert now.damage - perm.damage == dealt, oid
        if perm.loyalty is not None:
            removed = sum(e.amount or 0 for e in events
                          if e.kind == "loyalty" and e.target == oid)
            assert perm.loyalty - (now.loyalty or 0) == removed


@SETTINGS
@given(board=boards(), data=st.data())
def test_events_account_for_every_change(board: Any, data: st.DataObject) -> None:
    """120.3, 704, 400.7: life, poison, losses, marked damage, loyalty and zone
    changes of a combat damage step are each explained by its events."""
    state = _through_blocks(data, BARE, board)
    if state.step != "declare_blockers":
        return
    state = draw_shields(data, BARE, state)
    out = BARE.combat_damage(state, draw_assign(data, BARE, state))
    _account(state, out.state, out.events)


# ---------------------------------------------------------------------------
# Results do not depend on plugin registration order
# ---------------------------------------------------------------------------


def _lethal_one(state: GameState, source: str) -> int | None:
    return 1 if state.objects[source].power == 1 else None


def _plus_one(damage: Damage) -> list[DamageModifier]:
    return [DamageModifier("a: +1 to players", "614.1a", add=1)] if damage.target in (
        "bob", "carol") else []


def _times_two(damage: Damage) -> list[DamageModifier]:
    return [DamageModifier("b: double", "614.1a", multiply=2)] if damage.amount == 1 else []


def _prevent_one(damage: Damage) -> list[Prevention]:
    return [Prevention("prevent one", "615.1a", 1)] if damage.source.startswith("b") else []


def _gain(state: GameState, damage: Damage) -> list[Result]:
    source = state.last_known(damage.source)
    return [Result("life_gain", "120.3f", damage.source, damage.amount,
                   player=source.controller)] if source.power >= 4 else []


def _halve_gain(state: GameState, result: Result) -> list[ResultReplacement]:
    if result.kind != "life_gain":
        return []
    return [ResultReplacement("a: halve", "614.1a",
                              lambda s, r: attrs.evolve(r, amount=r.amount // 2)),
            ResultReplacement("b: +3", "614.1a",
                              lambda s, r: attrs.evolve(r, amount=r.amount + 3))]


TEST_PLUGINS = [
    plugin("p_lethal", redzone_lethal_damage=_lethal_one),
    plugin("p_plus", redzone_modify_damage=_plus_one),
    plugin("p_times", redzone_modify_damage=_times_two),
    plugin("p_prevent", redzone_prevent_damage=_prevent_one),
    plugin("p_gain", redzone_damage_results=_gain),
    plugin("p_halve", redzone_result_replacements=_halve_gain),
]
BUILTINS = discover()
KEYWORDS = sorted({k.spec.name for k in Engine().keywords()} & {
    "first strike", "double strike", "deathtouch", "lifelink", "trample", "vigilance",
    "wither", "infect", "indestructible", "reach", "flying", "menace", "defender", "haste"})


def resolved(engine: Engine, board: Any, attacks: dict[str, str],
             blocks: dict[str, list[str]]) -> Any:
    """The whole combat of ``board`` as text to compare byte for byte: the
    final state (the plugin names it records without a position prefix) and
    every event as sorted JSON, and the steps; or the error an illegal
    declaration raised."""
    try:
        state = game(engine, board)
        result = engine.resolve(state, attacks, blocks)
    except IllegalActionError as err:
        return ("error", type(err).__name__, err.violations)
    return (json.dumps(state_to_dict(_unprefixed(result.state)), sort_keys=True),
            [json.dumps(e.to_json(), sort_keys=True) for e in result.events], result.steps)


def in_order(plugins: Sequence[PluginInfo]) -> list[PluginInfo]:
    """``plugins`` renamed with their position first, so that an engine
    calls them in this order: it calls implementations in plugin name order,
    whatever order the plugins were registered in."""
    return [PluginInfo(f"{pos:03d}.{p.name}", p.module, p.distribution, p.version)
            for pos, p in enumerate(plugins)]


def as_info(plugin: Any) -> PluginInfo:
    """A plugin module as the engine registers it, under its own name."""
    return plugin if isinstance(plugin, PluginInfo) else PluginInfo(plugin.__name__, plugin)


EVERYTHING = sorted([*BUILTINS, *map(as_info, TEST_PLUGINS)], key=lambda p: p.name)
IN_NAME_ORDER = Engine(discover=False, plugins=EVERYTHING)
#: Every two plugins called the other way round.
REVERSED = Engine(discover=False, plugins=in_order(EVERYTHING[::-1]))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(board=boards(keywords=KEYWORDS), data=st.data())
def test_results_do_not_depend_on_registration_order(board: Any, data: st.DataObject) -> None:
    """DESIGN: hooks are questions whose answers combine regardless of order:
    the built-in keywords and test plugins, called in name order, in reverse
    and in a random order, resolve a random combat identically (the plugin
    names the state records compared without the position prefix)."""
    shuffled = Engine(discover=False, plugins=in_order(data.draw(st.permutations(EVERYTHING))))
    state = game(IN_NAME_ORDER, board)
    attacks, blocks = draw_declarations(data, IN_NAME_ORDER, state)
    expected = resolved(IN_NAME_ORDER, board, attacks, blocks)
    assert resolved(REVERSED, board, attacks, blocks) == expected
    assert resolved(shuffled, board, attacks, blocks) == expected


def test_registration_order_changes_pluggy_order_but_not_ours() -> None:
    """Why the property above renames the plugins: pluggy calls the last
    registered implementation first, but the engine calls them in plugin name
    order, so registering the same plugins in another order calls them in the
    same order; renamed with their position first, they are called in the
    order given."""
    a, b = as_info(TEST_PLUGINS[1]), as_info(TEST_PLUGINS[2])

    def registered(engine: Engine) -> list[str]:
        return [i.plugin_name for i in engine.pm.hook.redzone_modify_damage.get_hookimpls()
                if "p_" in i.plugin_name]

    def called(engine: Engine) -> list[str]:
        return [i.plugin.name for i in engine.hooks.impls("redzone_modify_damage")
                if "p_" in i.plugin.name]

    one = Engine(discover=False, plugins=[a, b])
    two = Engine(discover=False, plugins=[b, a])
    assert (registered(one), registered(two)) == (["p_plus", "p_times"], ["p_times", "p_plus"])
    assert called(one) == called(two) == ["p_plus", "p_times"]
    assert called(Engine(discover=False, plugins=in_order([b, a]))) == [
        "000.p_times", "001.p_plus"]


# ---------------------------------------------------------------------------
# Serialisation round trip of every state a combat goes through
# ---------------------------------------------------------------------------


@SETTINGS
@given(board=boards(), data=st.data())
def test_every_state_of_a_combat_round_trips(board: Any, data: st.DataObject) -> None:
    """DESIGN: each state a combat passes through survives state_to_dict /
    state_from_dict through JSON unchanged."""
    engine = BARE
    state = game(engine, board)
    states = [state]
    state = engine.declare_attackers(state, draw_attacks(data, engine, state)).state
    states.append(state)
    if engine.next_step(state) == "declare_blockers":
        state = engine.declare_blockers(state, draw_blocks(data, state)).state
        state = draw_shields(data, engine, state)
        states.append(state)
        state = engine.combat_damage(state, draw_assign(data, engine, state)).state
        states.append(state)
    if state.game_over is None:  # 104.2a: once the game is over, nothing more happens
        state = engine.finish(engine.end_of_combat(state).state).state
        states.append(state)
    for s in states:
        assert state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s


@pytest.mark.parametrize("seed_board", [0])
def test_strategies_make_real_combats(seed_board: int) -> None:
    """The strategies above can produce blocked combats with damage (so the
    properties are not vacuous)."""
    seen = {"blocked": False, "damage": False}

    @settings(max_examples=80, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(board=boards(), data=st.data())
    def probe(board: Any, data: st.DataObject) -> None:
        state = _through_blocks(data, BARE, board)
        if state.step == "declare_blockers" and state.combat and state.combat.blocked:
            seen["blocked"] = True
            out = BARE.combat_damage(state)
            if any(e.kind == "damage" for e in out.events):
                seen["damage"] = True

    probe()
    assert seen == {"blocked": True, "damage": True}
