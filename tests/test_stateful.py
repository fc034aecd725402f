"""Stateful property testing of the step API (hypothesis RuleBasedStateMachine).

Random sequences of declarations, priority-window actions and assignments,
legal and illegal, on random boards with every built-in keyword available.
After every step:

- an illegal command leaves the state equal to a snapshot taken before it
  (733, 510.1e);
- each source's combat damage to each recipient: what it assigned = what it
  dealt + what was prevented, with what replacement effects changed (120.4,
  510.2, 614, 615);
- life and poison change only through events that say so, by the amounts
  they say;
- no creature with lethal damage (unless something keeps it from being
  destroyed) or with 0 or less toughness is on the battlefield after
  state-based actions (704.5f-g);
- an engine that calls the plugins in the reverse order reaches the same
  state with the same events (the engine calls plugins in name order, so
  that one's are renamed with their position first).

Attacks, blocks and divisions of combat damage are drawn mostly among the
legal ones, so that most programs reach combat damage (and now and then
among any, so that rejections are exercised too); now and then a prevention
shield goes up just before combat damage, so that the prevented part of the
account is exercised.

The default run takes 20 programs of up to 12 steps; the long run
(``REDZONE_LONG=1``) 200; ``REDZONE_STATEFUL_EXAMPLES=100000 pytest
tests/test_stateful.py`` runs more.
"""

from __future__ import annotations

import os
import pickle
from collections import Counter
from typing import Any

import hypothesis.strategies as st
from _long import samples
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from redzone import (
    DealDamage,
    Duty,
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
from redzone.kernel.plugins import PluginInfo, discover
from redzone.testing.conformance import _unprefixed

KEYWORDS = ["flying", "reach", "first strike", "double strike", "trample", "deathtouch",
            "lifelink", "infect", "wither", "vigilance", "menace", "indestructible", "haste",
            "defender", "protection from red", "protection from green"]
COLORS = ["white", "blue", "black", "red", "green"]
EXAMPLES = int(os.environ.get("REDZONE_STATEFUL_EXAMPLES", samples(20, 200)))

_PLUGINS = [info for info in discover()]


def _reversed_engine() -> Engine:
    """An engine with every discovered plugin, each two called the other way
    round from :data:`ENGINE`: the engine calls plugins in name order
    whatever the registration order, so each is renamed with its position
    first."""
    ordered = sorted(_PLUGINS, key=lambda p: p.name)[::-1]
    return Engine(discover=False, plugins=[
        PluginInfo(f"{pos:03d}.{p.name}", p.module, p.distribution, p.version)
        for pos, p in enumerate(ordered)])


ENGINE = Engine()
REVERSED = _reversed_engine()

creature_st = st.fixed_dictionaries({
    "power": st.sampled_from([1, 2, 3, 4, 5, 0]),  # (0 now and then, 510.1a)
    "toughness": st.integers(1, 5),
    "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=3, unique=True),
    "colors": st.lists(st.sampled_from(COLORS), max_size=2, unique=True),
    "damage": st.integers(0, 1),
    "sick": st.sampled_from([False, False, False, True]),
})


def _mostly(data: st.DataObject) -> bool:
    """True three times in four, and what shrinking goes to."""
    return data.draw(st.sampled_from([True, True, True, False]))


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
                getattr(REVERSED, command)(self.other, *args)
            except IllegalActionError as again:
                assert again.violations == exc.violations
            else:
                raise AssertionError("the reversed engine accepted what the other rejected")
            return
        other = getattr(REVERSED, command)(self.other, *args)
        assert _unprefixed(other.state) == out.state, "plugin call order changed the outcome"
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
        unaccounted = {k: n for k, n in _combat_damage_ledger(events).items() if n}
        assert not unaccounted, unaccounted

    def _creatures(self, controller: str) -> list[str]:
        return [p.id for p in self.state.battlefield
                if p.controller == controller and "creature" in p.types]

    def _next(self) -> str | None:
        """What :meth:`advance` does in this state: the command for
        the next step of combat (506.1, 508.8), ``after_combat`` once the
        combat phase is over, ``None`` once the game is over (104.2a)."""
        if self.state.step in ("main", "postcombat_main"):
            return "declare_attackers" if self.state.step == "main" else "after_combat"
        return _COMMANDS.get(ENGINE.next_step(self.state) or "")

    # -- rules -----------------------------------------------------------------------

    @precondition(lambda self: self._next() is not None)
    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        """The next step of combat (506.1): declare attackers, declare blockers,
        each combat damage step, end of combat, the end of the phase. One rule
        for them all: hypothesis's swarm testing turns rules off for a whole
        program, and a program with one of those off never reaches combat
        damage. (Its name sorts first: hypothesis draws the first rule most.)"""
        command = self._next()
        if command == "declare_attackers":
            self._declare_attackers(data)
        elif command == "declare_blockers":
            self._declare_blockers(data)
        elif command == "combat_damage":
            self._combat_damage(data)
        elif command == "after_combat":
            # The combat phase is over: nothing more happens in it.
            assert self.state.combat is None and _unprefixed(self.other) == self.state
        else:
            assert command is not None
            self._apply(command)

    def _declare_attackers(self, data: st.DataObject) -> None:
        mine = self._creatures("alice")
        legal = ENGINE.legal_attackers(self.state)
        if legal and _mostly(data):
            # Mostly some of the creatures that can attack (508.1a).
            chosen = data.draw(st.lists(st.sampled_from(legal), min_size=1, unique=True))
        else:
            # Else any of alice's creatures, legal or not, now and then none (508.8).
            chosen = data.draw(st.lists(st.sampled_from(mine), unique=True,
                                        min_size=1 if _mostly(data) else 0)
                               if mine else st.just([]))
        self._apply("declare_attackers", dict.fromkeys(chosen, "bob"))

    def _declare_blockers(self, data: st.DataObject) -> None:
        combat = self.state.combat
        assert combat is not None
        # (Empty when every attacker left combat: the step still happens, 508.8.)
        attackers = list(combat.attacks)
        can_block = {a: ENGINE.legal_blockers(self.state, a) for a in attackers}
        blocks: dict[str, str] = {}
        for blocker in self._creatures("bob"):
            legal = [a for a in attackers if blocker in can_block[a]]
            # Mostly an attacker it can block (509.1a-b), now and then any.
            options = legal if legal and _mostly(data) else attackers
            if bool(options) and data.draw(st.booleans()):
                blocks[blocker] = data.draw(st.sampled_from(options))
        if _mostly(data):
            # Mostly: drop the blocks a violation names (a lone blocker of a
            # creature with menace, 702.111b), so that the declaration is legal.
            blocks = self._legal_part(blocks)
        self._apply("declare_blockers", blocks)

    def _legal_part(self, blocks: dict[str, str]) -> dict[str, str]:
        while blocks:
            named = {o for v in ENGINE.block_violations(self.state, blocks) for o in v.objects}
            kept = {b: a for b, a in blocks.items() if b not in named and a not in named}
            if kept == blocks:
                break
            blocks = kept
        return blocks

    def _combat_damage(self, data: st.DataObject) -> None:
        """Now and then a prevention shield first, on a creature that is to
        assign damage or on one of its recipients (615.1a); then each
        creature's damage divided among its legal recipients, or left to the
        default policy."""
        assign: dict[str, dict[str, int]] = {}
        _, duties = ENGINE.damage_duties(self.state)
        involved = sorted({d.source for d in duties} | {r for d in duties for r in d.recipients})
        if involved and not _mostly(data):
            who = data.draw(st.sampled_from(involved))
            amounts: list[int | str] = [1, 2, "next"]
            amount = data.draw(st.sampled_from(amounts))
            self._apply("perform", Prevent(target=who, amount=amount) if data.draw(st.booleans())
                        else Prevent(source=who, amount=amount))
            _, duties = ENGINE.damage_duties(self.state)
        for duty in duties:
            if bool(duty.recipients) and data.draw(st.booleans()):
                assign[duty.source] = self._division(data, duty)
        self._apply("combat_damage", assign)

    def _division(self, data: st.DataObject, duty: Duty) -> dict[str, int]:
        """A division of ``duty.power`` among ``duty.recipients`` (510.1a-d):
        for a blocked creature that may also assign to what it attacks
        (trample), mostly lethal damage to each blocker first and the excess
        anywhere (702.19b); else, and now and then for it too, any division."""
        amounts = dict.fromkeys(duty.recipients, 0)
        left = duty.power
        if duty.blocked and duty.attacked is not None and _mostly(data):
            for blocker in duty.creatures:
                lethal = min(left, ENGINE.lethal_damage(self.state, duty.source, blocker))
                amounts[blocker] += lethal
                left -= lethal
        cuts = sorted(data.draw(st.lists(st.integers(0, left), min_size=len(amounts) - 1,
                                         max_size=len(amounts) - 1)))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, left], strict=True)]
        for recipient, part in zip(amounts, parts, strict=True):
            amounts[recipient] += part
        return amounts

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


#: The command for each next step of combat (:meth:`CombatMachine._next`); every
#: combat damage step the engine knows is made with ``combat_damage`` (510).
_COMMANDS = {"declare_blockers": "declare_blockers", "end_of_combat": "end_of_combat",
             "postcombat_main": "finish",
             **{step.name: "combat_damage" for step in ENGINE.damage_steps}}


def _combat_damage_ledger(events: tuple[Event, ...]) -> Counter[tuple[str, str]]:
    """Per (source, recipient): combat damage assigned (510.1), with what
    replacement effects changed (614.1a "modified", 614.9 "redirected" to
    another recipient), less what was prevented (615) and what was dealt
    (510.2, 120.4); all zero when every assigned point is accounted for."""
    ledger: Counter[tuple[str, str]] = Counter()
    for e in events:
        if e.kind != "assign" and not e.combat:
            continue
        key = (e.source or "", e.target or "")
        amount = e.amount or 0
        if e.kind == "assign":
            ledger[key] += amount
        elif e.kind == "modified":
            ledger[key] += amount - e.get("original")
        elif e.kind == "redirected":
            ledger[(key[0], e.object or "")] -= amount
            ledger[key] += amount
        elif e.kind in ("prevented", "damage"):
            ledger[key] -= amount
    return ledger


TestCombatMachine = CombatMachine.TestCase
TestCombatMachine.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=12, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_the_reversed_engine_calls_every_plugin_the_other_way_round() -> None:
    """The order property above can fail: the reversed engine has every plugin
    and keyword of the usual one, and calls each hook's implementations in
    the reverse order (the usual engine calls them in name order)."""
    def plain(name: str) -> str:
        head, dot, rest = name.partition(".")
        return rest if dot and head.isdigit() else name

    assert sorted(map(plain, REVERSED.plugin_infos)) == sorted(ENGINE.plugin_infos)
    assert [k.spec for k in REVERSED.keywords()] == [k.spec for k in ENGINE.keywords()]
    hook = "redzone_block_violations"
    usual = [i.plugin.name for i in ENGINE.hooks.impls(hook)
             if i.plugin.name in {p.name for p in _PLUGINS}]
    other = [plain(i.plugin.name) for i in REVERSED.hooks.impls(hook)
             if plain(i.plugin.name) in usual]
    assert len(usual) > 1
    assert other == usual[::-1]
