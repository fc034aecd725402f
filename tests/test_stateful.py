"""Stateful property testing of the step API (hypothesis RuleBasedStateMachine).

Random sequences of declarations, priority-window actions and assignments,
legal and illegal, on random boards with every built-in keyword available.
After every step:

- an illegal command leaves the state equal to a snapshot taken before it
  (733, 510.1e);
- damage dealt = damage assigned - damage prevented (no damage-increasing
  effects on these boards);
- life and poison change only through events that say so, by the amounts
  they say;
- no creature with lethal damage (unless something keeps it from being
  destroyed) or with 0 or less toughness is on the battlefield after
  state-based actions (704.5f-g);
- an engine whose plugins were registered in another order reaches the same
  state.

The default run takes 20 programs of up to 12 steps; the long run
(``REDZONE_LONG=1``) 200; ``REDZONE_STATEFUL_EXAMPLES=100000 pytest
tests/test_stateful.py`` runs more.
"""

from __future__ import annotations

import importlib
import os
import pickle
import random
from collections.abc import Mapping
from typing import Any

import hypothesis.strategies as st
import redzone
from _long import samples
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from redzone import (
    DealDamage,
    Engine,
    Event,
    GameState,
    Grant,
    IllegalActionError,
    LeaveBattlefield,
    Outcome,
    Prevent,
    Pump,
    RemoveFromCombat,
    Revoke,
)
from redzone.kernel.plugins import discover

KEYWORDS = ["flying", "reach", "first strike", "double strike", "trample", "deathtouch",
            "lifelink", "infect", "wither", "vigilance", "menace", "indestructible", "haste",
            "defender", "protection from red", "protection from green"]
COLORS = ["white", "blue", "black", "red", "green"]
EXAMPLES = int(os.environ.get("REDZONE_STATEFUL_EXAMPLES", samples(20, 200)))

_PLUGINS = [info for info in discover()]


def _shuffled_engine(seed: int) -> Engine:
    plugins = [importlib.import_module(p.module.__name__) for p in _PLUGINS]
    random.Random(seed).shuffle(plugins)
    return Engine(discover=False, plugins=plugins)


ENGINE = Engine()
SHUFFLED = _shuffled_engine(7)

creature_st = st.fixed_dictionaries({
    "power": st.integers(0, 5),
    "toughness": st.integers(1, 5),
    "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=3, unique=True),
    "colors": st.lists(st.sampled_from(COLORS), max_size=2, unique=True),
    "damage": st.integers(0, 1),
    "sick": st.booleans(),
})


def _sum(events: tuple[Event, ...], kind: str, **match: Any) -> int:
    return sum(e.amount or 0 for e in events
               if e.kind == kind and all(getattr(e, k) == v for k, v in match.items()))


class CombatMachine(RuleBasedStateMachine):
    state: GameState
    other: GameState

    @initialize(mine=st.lists(creature_st, min_size=1, max_size=5),
                theirs=st.lists(creature_st, min_size=0, max_size=5))
    def board(self, mine: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> None:
        perms = []
        for owner, specs in (("alice", mine), ("bob", theirs)):
            for i, spec in enumerate(specs):
                toughness = spec["toughness"]
                perms.append(ENGINE.creature(
                    f"{owner[0]}{i}", owner, spec["power"], toughness, *spec["keywords"],
                    colors=spec["colors"], damage=min(spec["damage"], toughness - 1),
                    summoning_sick=spec["sick"]))
        self.state = ENGINE.game(["alice", "bob"], perms)
        self.other = self.state

    # -- helpers -------------------------------------------------------------------

    def _apply(self, command: str, *args: Any) -> None:
        before = self.state
        snapshot = pickle.dumps(before)
        try:
            out: Outcome = getattr(ENGINE, command)(before, *args)
        except IllegalActionError as exc:
            assert exc.violations, "a rejection lists its violations"
            assert pickle.loads(snapshot) == before, "a rejected command changed the state"
            try:
                getattr(SHUFFLED, command)(self.other, *args)
            except IllegalActionError as again:
                assert again.violations == exc.violations
            else:
                raise AssertionError("the shuffled engine accepted what the other rejected")
            return
        other = getattr(SHUFFLED, command)(self.other, *args)
        assert other.state == out.state, "plugin registration order changed the outcome"
        assert other.events == out.events
        self._check_accounts(before, out)
        self.state = out.state
        self.other = other.state

    def _check_accounts(self, before: GameState, out: Outcome) -> None:
        events = out.events
        for pid, player in out.state.players.items():
            old = before.players[pid]
            assert player.life - old.life == (_sum(events, "life_gain", player=pid)
                                              - _sum(events, "life_loss", player=pid))
            assert player.poison - old.poison == _sum(events, "poison", player=pid)
        assigned = _sum(events, "assign")
        if assigned:
            dealt = sum(e.amount or 0 for e in events if e.kind == "damage" and e.combat)
            prevented = sum(e.amount or 0 for e in events if e.kind == "prevented" and e.combat)
            lost = sum(e.amount or 0 for e in events if e.kind == "assign"
                       and not _target_ok(out.state, before, e.target))
            assert dealt == assigned - prevented - lost, (assigned, prevented, dealt, lost)

    def _creatures(self, controller: str) -> list[str]:
        return [p.id for p in self.state.battlefield
                if p.controller == controller and "creature" in p.types]

    # -- rules -----------------------------------------------------------------------

    @precondition(lambda self: self.state.step == "main")
    @rule(data=st.data())
    def declare_attackers(self, data: st.DataObject) -> None:
        mine = self._creatures("alice")
        chosen = data.draw(st.lists(st.sampled_from(mine), unique=True, max_size=len(mine))
                           if mine else st.just([]))
        self._apply("declare_attackers", {a: "bob" for a in chosen})

    @precondition(lambda self: self.state.step == "declare_attackers"
                  and ENGINE.next_step(self.state) == "declare_blockers")
    @rule(data=st.data())
    def declare_blockers(self, data: st.DataObject) -> None:
        combat = self.state.combat
        assert combat is not None
        # (Empty when every attacker left combat: the step still happens, 508.8.)
        attackers = list(combat.attacks)
        blocks: dict[str, str] = {}
        for blocker in self._creatures("bob"):
            if attackers and data.draw(st.booleans()):
                blocks[blocker] = data.draw(st.sampled_from(attackers))
        self._apply("declare_blockers", blocks)

    @precondition(lambda self: ENGINE.next_step(self.state) in (
        "first_strike_damage", "combat_damage"))
    @rule(data=st.data())
    def combat_damage(self, data: st.DataObject) -> None:
        assign: dict[str, dict[str, int]] = {}
        if data.draw(st.booleans()):
            _, duties = ENGINE.damage_duties(self.state)
            for duty in duties:
                if data.draw(st.booleans()):
                    split = data.draw(st.lists(st.integers(0, duty.power),
                                               min_size=len(duty.recipients),
                                               max_size=len(duty.recipients)))
                    assign[duty.source] = dict(zip(duty.recipients, split, strict=True))
        self._apply("combat_damage", assign)

    @precondition(lambda self: ENGINE.next_step(self.state) == "end_of_combat")
    @rule()
    def end_of_combat(self) -> None:
        self._apply("end_of_combat")

    @precondition(lambda self: ENGINE.next_step(self.state) == "postcombat_main")
    @rule()
    def finish(self) -> None:
        self._apply("finish")

    @precondition(lambda self: self.state.step == "postcombat_main")
    @rule()
    def after_combat(self) -> None:
        """The combat phase is over: nothing more happens in it."""
        assert self.state.combat is None and self.other == self.state

    @precondition(lambda self: self.state.step not in ("main", "postcombat_main")
                  and bool(self.state.battlefield))
    @rule(data=st.data())
    def priority_action(self, data: st.DataObject) -> None:
        ids = [p.id for p in self.state.battlefield] + ["nobody"]
        target = data.draw(st.sampled_from(ids))
        action = data.draw(st.sampled_from([
            Pump(target, data.draw(st.integers(-2, 3)), data.draw(st.integers(-2, 3))),
            Grant(target, data.draw(st.sampled_from(KEYWORDS))),
            Revoke(target, data.draw(st.sampled_from(KEYWORDS))),
            RemoveFromCombat(target),
            LeaveBattlefield(target),
            DealDamage(target, data.draw(st.sampled_from([*ids, "alice", "bob"])),
                       data.draw(st.integers(0, 4))),
            Prevent(target=target, amount=data.draw(st.integers(0, 3))),
        ]))
        self._apply("perform", action)

    # -- invariants ----------------------------------------------------------------------

    @invariant()
    def no_creature_survives_what_kills_it(self) -> None:
        """704.5f-g: after state-based actions no creature on the battlefield
        has 0 or less toughness, or lethal damage unless it can't be destroyed."""
        if not hasattr(self, "state"):
            return
        for perm in self.state.battlefield:
            if "creature" not in perm.types:
                continue
            assert perm.toughness > 0, perm
            if perm.damage >= perm.toughness:
                assert ENGINE.hooks.cannot_be_destroyed(self.state, perm.id), perm


def _target_ok(after: GameState, before: GameState, target: str | None) -> bool:
    """Whether assigned damage could be dealt to ``target`` (120.1a)."""
    if target is None:
        return False
    if target in before.players:
        return True
    perm = before.objects.get(target)
    return perm is not None and perm.zone == "battlefield"


TestCombatMachine = CombatMachine.TestCase
TestCombatMachine.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=12, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_shuffled_engine_has_every_plugin() -> None:
    assert set(SHUFFLED.plugin_infos) - {"redzone.effects", "redzone.restrictions"} <= {
        p.module.__name__ for p in _PLUGINS} | {
        "redzone.effects", "redzone.restrictions"} or len(SHUFFLED.plugin_infos) >= len(_PLUGINS)
    assert len(SHUFFLED.keywords()) == len(ENGINE.keywords())


_ = (Mapping, redzone)
