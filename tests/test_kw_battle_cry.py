"""Battle cry (CR 702.91): "Whenever this creature attacks, each other attacking
creature gets +1/+0 until end of turn" (702.91a); each instance triggers separately
(702.91b). Also the property shared by every combat trigger plugin: results don't
depend on the order the plugins are called in (renamed with their position first:
the engine calls plugins in name order), nor on whether redzone resolves
the triggers itself or an embedding engine resolves them from ``state.stack``."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

import pytest
import redzone_keywords.battle_cry as battle_cry
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, Event, GameState, Move, Outcome, Permanent, Player
from redzone.kernel.plugins import PluginInfo
from redzone.testing import KeywordConformance
from redzone.testing.conformance import _unprefixed


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def army(engine: Engine, *keywords: str) -> GameState:
    """alice: a 3/4 with ``keywords`` ("hero"), a 2/2 and a 1/1 at home (elf); bob: none."""
    c = engine.creature
    return engine.game(["alice", "bob"], [c("hero", "alice", 3, 4, *keywords),
                                          c("bear", "alice", 2, 2), c("elf", "alice", 1, 1)])


def test_seed_t85_battle_cry_triggers_as_it_is_declared_an_attacker(manual: Engine) -> None:
    """Seed: "Annihilator, Battle cry and other triggers go off when the related
    creature is declared attacking. The abilities go onto the stack, then the active
    player gets priority" (508.2b, 508.3a)."""
    out = manual.declare_attackers(army(manual, "battle cry"), {"hero": "bob", "bear": "bob"})
    (trigger,) = out.state.stack
    assert out.state.step == "declare_attackers"
    assert (trigger.kind, trigger.source, trigger.controller, trigger.amount,
            trigger.rule) == ("battle cry", "hero", "alice", 1, "702.91a")
    assert [e.step for e in out.events if e.kind == "trigger"] == ["declare_attackers"]
    resolved = manual.resolve_trigger(out.state).state
    assert resolved.objects["bear"].power == 3
    removed = manual.remove_trigger(out.state, trigger.id).state
    assert removed.objects["bear"].power == 2


def test_702_91a_each_other_attacking_creature_gets_plus_1_plus_0(engine: Engine) -> None:
    out = engine.declare_attackers(army(engine, "battle cry"), {"hero": "bob", "bear": "bob"})
    objs = out.state.objects
    assert (objs["bear"].power, objs["bear"].toughness) == (3, 2)
    assert objs["hero"].power == 3  # not itself
    assert objs["elf"].power == 1  # not a creature that isn't attacking
    assert engine.resolve(army(engine, "battle cry"), {"hero": "bob", "bear": "bob"}
                          ).state.players["bob"].life == 20 - 3 - 3


def test_702_91a_it_does_not_trigger_when_blocking(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("elf", "alice", 1, 1),
                                           c("hero", "bob", 3, 4, "battle cry")])
    state = engine.declare_attackers(state, {"bear": "bob", "elf": "bob"}).state
    out = engine.declare_blockers(state, {"hero": "bear"})
    assert out.state.objects["elf"].power == 1
    assert not [e for e in out.events if e.kind == "trigger"]


def test_702_91b_each_instance_triggers_separately(engine: Engine) -> None:
    out = engine.declare_attackers(army(engine, "battle cry", "battle cry"),
                                   {"hero": "bob", "bear": "bob"})
    assert [e.kind for e in out.events].count("trigger") == 2
    assert out.state.objects["bear"].power == 4


def test_702_91a_two_creatures_with_battle_cry_pump_each_other(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("hero", "alice", 3, 4, "battle cry"),
                                           c("captain", "alice", 2, 2, "battle cry"),
                                           c("elf", "alice", 1, 1)])
    out = engine.declare_attackers(state, {"hero": "bob", "captain": "bob", "elf": "bob"})
    objs = out.state.objects
    assert (objs["hero"].power, objs["captain"].power, objs["elf"].power) == (4, 3, 3)


def _soldiers_enter_attacking(state: GameState) -> GameState:
    """What the embedding engine's own trigger of Hero of Bladehold does: two 1/1
    Soldier tokens enter the battlefield tapped and attacking bob (508.4)."""
    tokens = {f"soldier{i}": Permanent(id=f"soldier{i}", controller="alice", name="Soldier",
                                       base_power=1, base_toughness=1, tapped=True,
                                       token=True) for i in (1, 2)}
    combat = state.combat
    assert combat is not None
    defending = combat.defending_players.merge(dict.fromkeys(tokens, "bob"))
    combat = combat.evolve(attacks=combat.attacks.merge(dict.fromkeys(tokens, "bob")),
                           defending_players=defending)
    return state.with_permanents(tokens).evolve(combat=combat)


def test_seed_t87_hero_of_bladehold_tokens_first_then_battle_cry(manual: Engine) -> None:
    """Seed: Hero of Bladehold's two attack triggers; "The tokens will get the bonus
    from Battle cry only if they are already on the battlefield by the time it
    resolves" (702.91a: "each other attacking creature" is counted as it resolves).
    The token trigger is the embedding engine's; battle cry waits on redzone's stack."""
    state = manual.declare_attackers(army(manual, "battle cry"), {"hero": "bob"}).state
    assert [t.kind for t in state.stack] == ["battle cry"]
    # Battle cry first on the stack, the token trigger above it: tokens, then the cry.
    tokens_first = manual.resolve_trigger(_soldiers_enter_attacking(state)).state
    assert [tokens_first.objects[f"soldier{i}"].power for i in (1, 2)] == [2, 2]
    # The other order: the cry resolves while the Soldiers aren't there yet.
    cry_first = _soldiers_enter_attacking(manual.resolve_trigger(state).state)
    assert [cry_first.objects[f"soldier{i}"].power for i in (1, 2)] == [1, 1]


def test_508_3a_a_creature_put_onto_the_battlefield_attacking_does_not_trigger(
        manual: Engine) -> None:
    """Battle cry on a creature that enters attacking never triggers: it never
    attacked (508.3a); nothing is on the stack afterwards."""
    state = manual.declare_attackers(army(manual), {"bear": "bob"}).state
    state = _soldiers_enter_attacking(state)
    token = manual.keyword("battle cry")
    state = state.with_permanents({"soldier1": state.objects["soldier1"].evolve(
        printed_keywords=(token,))})
    assert state.stack == ()
    assert manual.declare_blockers(state, {}).state.objects["bear"].power == 2


def test_508_3a_508_4_a_creature_put_onto_the_battlefield_attacking_does_not_trigger(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the battlefield
    attacking" (508.4: it is attacking but never "attacked"). Here the creature with
    battle cry really enters the battlefield attacking bob (a ``Move``, with its
    ``enters_battlefield`` event, unlike the state edit above): no trigger, and the
    other attacking creature gets nothing."""
    c = engine.creature
    start = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2),
                                           c("hero", "alice", 3, 4, "battle cry", zone="hand")])
    enters = Move("hero", "battlefield", attacking="bob")
    state = engine.declare_attackers(start, {"bear": "bob"}).state
    out = engine.perform(state, enters)
    assert out.state.combat is not None and out.state.combat.attacks["hero"] == "bob"
    assert [e for e in out.events if e.kind == "trigger"] == []
    assert (out.state.objects["bear"].power, out.state.objects["hero"].power) == (2, 3)
    result = engine.resolve(start, {"bear": "bob"}, {},
                            actions=[("declare_attackers", enters)])
    assert result.state.players["bob"].life == 20 - 2 - 3


class TestBattleCryConformance(KeywordConformance):
    """The conformance kit's invariants hold with battle cry on generated boards."""

    plugin = battle_cry
    max_examples = 10


# --- every combat trigger plugin: order and data-path independence ---------------

MODULES = ("afflict", "annihilator", "battle_cry", "bushido", "dethrone", "exalted",
           "flanking", "frenzy", "melee", "rampage", "training")
PLUGINS: tuple[ModuleType, ...] = tuple(
    importlib.import_module(f"redzone_keywords.{m}") for m in MODULES)
KEYWORDS = ("afflict 1", "afflict 2", "annihilator 1", "battle cry", "bushido 1",
            "bushido 2", "dethrone", "exalted", "flanking", "frenzy 1", "frenzy 2", "melee",
            "rampage 1", "rampage 2", "training")
REFERENCE = Engine(discover=False, plugins=PLUGINS)
MANUAL = Engine(discover=False, plugins=PLUGINS, auto_triggers=False)


def in_order(plugins: Sequence[ModuleType]) -> Engine:
    """An engine that calls ``plugins`` in the order given: the engine calls
    plugins in name order whatever the registration order, so each is renamed
    with its position first."""
    return Engine(discover=False, plugins=[PluginInfo(f"{pos:03d}.{m.__name__}", m)
                                           for pos, m in enumerate(plugins)])


#: Every two plugins called the other way round.
REVERSED = in_order(PLUGINS[::-1])

creature_spec = st.tuples(st.integers(0, 4), st.integers(1, 4),
                          st.lists(st.sampled_from(KEYWORDS), max_size=3))


@st.composite
def boards(draw: st.DrawFn) -> tuple[GameState, dict[str, str], list[int]]:
    players = ["alice", "bob"] + (["carol"] if draw(st.booleans()) else [])
    lives = [draw(st.integers(1, 25)) for _ in players]
    perms = []
    for owner in players:
        least = 1 if owner == "alice" else 0  # (alice attacks: the triggers need it)
        for i, (p, t, kws) in enumerate(draw(st.lists(creature_spec, min_size=least,
                                                      max_size=3))):
            perms.append(REFERENCE.creature(f"{owner[0]}{i}", owner, p, t, *kws))
        if draw(st.booleans()):
            perms.append(REFERENCE.permanent(f"{owner[0]}land", owner, types=["land"]))
    state = REFERENCE.game([Player(p, life) for p, life in zip(players, lives, strict=True)],
                           perms)
    attacks = {}
    for perm in perms:
        if perm.controller == "alice" and perm.is_creature:
            choice = draw(st.sampled_from([*players[1:], None]))
            if choice is not None:
                attacks[perm.id] = choice
    picks = draw(st.lists(st.integers(-1, 3), min_size=9, max_size=9))
    return state, attacks, picks


def play(engine: Engine, state: GameState, attacks: dict[str, str], picks: list[int]
         ) -> tuple[GameState, list[Event]]:
    """A whole combat, step by step, resolving whatever waits on the stack after each
    step; each defender's creature blocks the attacker ``picks`` names, if it can."""
    events: list[Event] = []

    def settle(out: Outcome) -> GameState:
        st_ = out.state
        events.extend(out.events)
        while st_.stack and st_.game_over is None:
            res = engine.resolve_trigger(st_)
            st_ = res.state
            events.extend(res.events)
        return st_

    state = settle(engine.declare_attackers(state, attacks))
    if engine.next_step(state) == "declare_blockers":
        combat = state.combat
        assert combat is not None
        blocks: dict[str, str] = {}
        defenders = [p for p in state.battlefield if p.is_creature
                     and p.controller != state.active_player and not p.tapped]
        for perm, pick in zip(defenders, picks, strict=False):
            mine = [a for a in combat.attacks if combat.defending_players.get(a) == perm.controller]
            if mine and pick >= 0:
                blocks[perm.id] = mine[pick % len(mine)]
        state = settle(engine.declare_blockers(state, blocks))
        while engine.next_step(state) in ("first_strike_damage", "combat_damage"):
            state = settle(engine.combat_damage(state))
    if state.game_over is not None:  # 104.2a: nothing happens after the game ends
        return state, events
    state = settle(engine.end_of_combat(state))
    return settle(engine.finish(state)), events


@given(board=boards(), order=st.permutations(PLUGINS))
@settings(max_examples=50, deadline=None)
def test_results_do_not_depend_on_registration_order_or_the_stack_owner(
        board: tuple[GameState, dict[str, str], list[int]], order: list[ModuleType]) -> None:
    """DESIGN (hooks combine regardless of order), 603.3b, 608.2: with every combat
    trigger plugin called in reverse and in a random order, a random combat ends in
    the same state (the plugin names it records compared without the position
    prefix) with the same events; and an embedding engine resolving each trigger
    from ``state.stack`` (auto_triggers off) reaches that same state and events."""
    state, attacks, picks = board
    expected = play(REFERENCE, state, attacks, picks)
    for engine in (REVERSED, in_order(order)):
        end, events = play(engine, state, attacks, picks)
        assert (_unprefixed(end), events) == expected
    assert play(MANUAL, state, attacks, picks) == expected
