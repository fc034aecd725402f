"""Actions in priority windows (core/redzone/actions.py): values an embedding
game hands redzone; each applies its effect, then state-based actions run
(117.5). A bad action is an illegal action and changes nothing (733)."""

from __future__ import annotations

from typing import Any

import pytest
from redzone import (
    AddCounters,
    BecomeBlocked,
    DealDamage,
    Engine,
    GainLife,
    GameState,
    Grant,
    IllegalActionError,
    KeywordSpec,
    LeaveBattlefield,
    LoseLife,
    Permanent,
    Prevent,
    Pump,
    RemoveFromCombat,
    Revoke,
    Tap,
    UnknownKeywordError,
    Untap,
    creature,
    hookimpl,
)
from redzone.formats.serialize import state_to_dict
from redzone.kernel.actions import ACTIONS


class Keywords:
    """A test plugin (an object, not a module) declaring two keywords, one with
    a parameter."""

    __name__ = "test_keywords"

    @hookimpl
    def redzone_keywords(self) -> list[KeywordSpec]:
        return [KeywordSpec("soar", "702.9"),
                KeywordSpec("venom", "702.164", form="venom {number}", examples=("venom 1",))]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(discover=False, plugins=[Keywords()])


@pytest.fixture
def combat(engine: Engine) -> GameState:
    state = engine.game(["alice", "bob"], [
        creature("orc", "alice", 2, 2), creature("elf", "alice", 1, 1),
        creature("bear", "bob", 2, 2), creature("wolf", "bob", 3, 3),
        Permanent("rock", "bob", types={"artifact"})])
    state = engine.declare_attackers(state, {"orc": "bob", "elf": "bob"}).state
    return engine.declare_blockers(state, {"bear": "orc"}).state


def illegal(engine: Engine, state: GameState, action: Any) -> IllegalActionError:
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, action)
    assert state_to_dict(state) == before
    assert info.value.kind == "illegal_action"
    return info.value


def test_actions_by_scenario_name() -> None:
    """The scenario format names each action by ``do``."""
    for name in ("pump", "grant", "revoke", "add_counters", "remove_from_combat",
                 "leave_battlefield", "deal_damage", "prevent", "tap", "untap",
                 "become_blocked", "gain_life", "lose_life"):
        assert ACTIONS[name].do == name


def test_611_2_pump(engine: Engine, combat: GameState) -> None:
    """611.2 / 613.4c: +N/+N until end of turn changes power and toughness."""
    out = engine.perform(combat, Pump("bear", 3, 3))
    assert (out.state.objects["bear"].power, out.state.objects["bear"].toughness) == (5, 5)
    assert [(e.kind, e.get("power"), e.get("toughness"), e.get("duration")) for e in out.events
            ] == [("pump", 3, 3, "end_of_turn")]
    assert str(out.events[0]).endswith("gets +3/+3 until end of turn [611.2]")


def test_613_1f_grant_and_revoke_keywords(engine: Engine, combat: GameState) -> None:
    """613.1f: abilities gained and lost until end of turn, parsed by the
    engine's plugins (a parameter is kept); revoking an ability removes
    every instance of it, and only of it (113.10b: venom 2 isn't venom 1)."""
    out = engine.perform(combat, Grant("bear", ["soar", "Venom  2"]))
    bear = out.state.objects["bear"]
    assert bear.has("soar")
    assert [(k.text, k.args, k.number) for k in bear.instances("venom")] == [
        ("venom 2", ("2",), 2)]
    out = engine.perform(engine.perform(out.state, Grant("bear", "venom 1")).state,
                         Revoke("bear", "venom 2"))
    assert [k.text for k in out.state.objects["bear"].instances("venom")] == ["venom 1"]
    assert out.state.objects["bear"].has("soar")


def test_702_unknown_keyword_is_an_error(engine: Engine, combat: GameState) -> None:
    """702.1: a keyword no loaded plugin provides is an error naming it and
    the close matches; nothing changes."""
    with pytest.raises(UnknownKeywordError) as info:
        engine.perform(combat, Grant("bear", "soars"))
    assert info.value.text == "soars"
    assert "soar" in info.value.suggestions
    assert "did you mean 'soar'" in str(info.value)


def test_122_1_add_and_remove_counters(engine: Engine, combat: GameState) -> None:
    """122.1: counters are put on (negative amounts remove; never below 0); 704.5q
    then annihilates +1/+1 with -1/-1 counters. 107.1: an amount that isn't a
    whole number is refused, naming it by its path."""
    out = engine.perform(combat, AddCounters("wolf", {"+1/+1": 2, "-1/-1": 1}))
    assert dict(out.state.objects["wolf"].counters) == {"+1/+1": 1}
    assert [e.rule for e in out.events] == ["122.1", "122.1", "704.5q"]
    out = engine.perform(out.state, AddCounters("wolf", {"+1/+1": -5}))
    assert dict(out.state.objects["wolf"].counters) == {}
    err = illegal(engine, combat, AddCounters("wolf", {"+1/+1": "2"}))  # type: ignore[dict-item]
    assert (err.rule, err.objects) == ("107.1", ("wolf",))
    assert "counters[0][1] is '2' (str)" in err.message


def test_506_4_remove_from_combat(engine: Engine, combat: GameState) -> None:
    """506.4: a creature removed from combat stops being an attacking, blocked
    creature; its blocker keeps blocking (510.1d)."""
    out = engine.perform(combat, RemoveFromCombat("orc"))
    c = out.state.combat
    assert c is not None
    assert not c.in_combat("orc")
    assert "orc" not in c.blocked
    assert c.is_blocking("bear") and c.blocks["bear"] == ()
    assert [(e.kind, e.rule) for e in out.events] == [("removed_from_combat", "506.4")]
    assert out.state.objects["orc"].zone == "battlefield"
    # Not in combat: nothing to do.
    assert engine.perform(out.state, RemoveFromCombat("orc")).events == ()


def test_400_7_leave_battlefield(engine: Engine, combat: GameState) -> None:
    """400.7 / 506.4: leaving the battlefield removes it from combat; only
    'graveyard' and 'exile' are destinations."""
    out = engine.perform(combat, LeaveBattlefield("bear", zone="exile"))
    assert out.state.objects["bear"].zone == "exile"
    assert [(e.kind, e.get("zone")) for e in out.events] == [("zone_change", "exile"),
                                                            ("removed_from_combat", None)]
    assert out.state.combat is not None and "orc" in out.state.combat.blocked
    err = illegal(engine, combat, LeaveBattlefield("bear", zone="library"))
    assert err.rule == "400.1"


def test_506_4b_tapped_combatants_stay_in_combat(engine: Engine, combat: GameState) -> None:
    """506.4b: tapping or untapping a declared attacker or blocker doesn't
    remove it from combat and doesn't prevent its combat damage."""
    state = engine.perform(combat, Tap("bear")).state
    state = engine.perform(state, Untap("orc")).state
    assert state.objects["bear"].tapped and not state.objects["orc"].tapped
    out = engine.combat_damage(state)
    dealt = {(e.source, e.target) for e in out.events if e.kind == "damage"}
    assert ("bear", "orc") in dealt and ("orc", "bear") in dealt


def test_119_3_gain_and_lose_life(engine: Engine, combat: GameState) -> None:
    """119.3: players gain and lose life; 704.5a applies after."""
    out = engine.perform(combat, GainLife("alice", 3))
    assert out.state.players["alice"].life == 23
    out = engine.perform(combat, LoseLife("bob", 20))
    assert out.state.players["bob"].lost
    assert [(e.kind, e.rule) for e in out.events] == [
        ("life_loss", "119.3"), ("lost", "704.5a"), ("game_over", "104.2a")]  # 104.2a: alice wins


def test_615_prevent_creates_shields(engine: Engine, combat: GameState) -> None:
    """615: a prevention shield from a resolved spell, with its mode."""
    out = engine.perform(combat, Prevent(target="bob", amount=3, combat_only=True))
    shield = out.state.shields[0]
    assert (shield.to, shield.amount, shield.mode, shield.combat_only) == ("bob", 3, "amount",
                                                                          True)
    out = engine.perform(out.state, Prevent(source="orc", amount="next", gain_life="bob"))
    assert [(s.source, s.mode, s.gain_life) for s in out.state.shields[1:]] == [
        ("orc", "next", "bob")]
    assert engine.perform(combat, Prevent(target="bear")).state.shields[0].mode == "all"


@pytest.mark.parametrize("action,rule", [
    (Pump("ghost", 1, 1), "400.1"),
    (Grant("ghost", "soar"), "400.1"),
    (Tap("ghost"), "400.1"),
    (Untap("ghost"), "400.1"),
    (RemoveFromCombat("ghost"), "400.1"),
    (LeaveBattlefield("ghost"), "400.1"),
    (AddCounters("ghost", {"+1/+1": 1}), "400.1"),
    (BecomeBlocked("ghost"), "400.1"),
    (DealDamage("ghost", "bob", 1), "120.7"),
    (DealDamage("orc", "rock", -2), "107.1"),
    (GainLife("nobody", 1), "102.1"),
    (LoseLife("nobody", 1), "102.1"),
    (GainLife("bob", -1), "107.1"),
    (Prevent(target="bob", source="orc"), "615.1"),
    (Prevent(), "615.1"),
    (Prevent(target="ghost"), "615.1"),
    (Prevent(target="bob", amount="some"), "107.1"),
    (Prevent(target="bob", amount=-1), "107.1"),
    (Prevent(target="bob", gain_life="nobody"), "102.1"),
])
def test_bad_actions_are_illegal_and_change_nothing(engine: Engine, combat: GameState,
                                                    action: Any, rule: str) -> None:
    """733: an action naming what isn't there, or a nonsensical amount, is
    rejected with the rule it breaks, and the state is unchanged."""
    err = illegal(engine, combat, action)
    assert err.rule == rule
    assert isinstance(err, ValueError)


def test_unknown_action(engine: Engine, combat: GameState) -> None:
    """117.1: only the listed actions can be performed."""
    err = illegal(engine, combat, object())
    assert err.rule == "117.1"


def test_perform_runs_state_based_actions(engine: Engine, combat: GameState) -> None:
    """117.5 / 704.3: a permanent whose toughness drops to 0 is gone before the
    next player gets priority."""
    out = engine.perform(combat, Pump("wolf", 0, -3))
    assert out.state.objects["wolf"].zone == "graveyard"
    assert [(e.kind, e.rule) for e in out.events][-1] == ("dies", "704.5f")
