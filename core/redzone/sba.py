"""Zone changes, removal from combat and state-based actions (704).

State-based actions are checked as a batch: every applicable one is performed
at the same time, then the check repeats until none applies (704.3). The core
checks the rules combat can trigger that no keyword owns; plugins add theirs
through ``redzone_state_based_actions`` (deathtouch's 704.5h).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from redzone.events import Event
from redzone.hooktypes import StateBasedAction
from redzone.model import Combat, GameState, Permanent
from redzone.plugins import Hooks


def remove_from_combat(state: GameState, obj: str, rule: str, step: str
                       ) -> tuple[GameState, list[Event]]:
    """Remove a permanent from combat (506.4).

    An attacker that leaves stops being blocked by its blockers, which stay
    blocking creatures (510.1d); a blocker that leaves leaves its attackers
    blocked (509.1h); creatures attacking a planeswalker or battle that is
    removed from combat attack nothing (506.4c).
    """
    combat = state.combat
    if combat is None:
        return state, []
    changed = False
    attacks = combat.attacks
    blocks = combat.blocks
    if obj in attacks:
        attacks = attacks.without(obj)
        blocks = blocks.merge({b: tuple(a for a in atts if a != obj)
                               for b, atts in blocks.items() if obj in atts})
        changed = True
    if obj in blocks:
        blocks = blocks.without(obj)
        changed = True
    if obj in attacks.values():
        attacks = attacks.merge({a: None for a, t in attacks.items() if t == obj})
        changed = True
    if not changed:
        return state, []
    # 506.4: it stops being a blocked (or unblocked) creature too.
    # 702.22f: an attacking creature removed from combat leaves its band.
    bands = tuple(kept for kept in (tuple(m for m in band if m != obj) for band in combat.bands)
                  if len(kept) > 1)
    new_combat = attrs.evolve(combat, attacks=attacks, blocks=blocks,
                              blocked=combat.blocked - {obj}, bands=bands)
    return attrs.evolve(state, combat=new_combat), [
        Event("removed_from_combat", rule, step, object=obj)
    ]


def move_to_zone(state: GameState, obj: str, zone: str, rule: str, step: str
                 ) -> tuple[GameState, list[Event]]:
    """Move a permanent from the battlefield to ``zone`` (400.7: it becomes a
    new object; its last known information is kept in ``state.lki``)."""
    perm = state.objects[obj]
    if perm.zone != "battlefield":
        return state, []
    state, events = remove_from_combat(state, obj, "506.4", step)
    card = Permanent(
        id=perm.id, controller=perm.owner, name=perm.name, owner=perm.owner,
        types=perm.types, subtypes=perm.subtypes, supertypes=perm.supertypes,
        colors=perm.colors, base_power=perm.base_power, base_toughness=perm.base_toughness,
        printed_keywords=perm.printed_keywords, protector=perm.protector,
        zone=zone, token=perm.token,
    )
    state = attrs.evolve(state, objects=state.objects.set(obj, card),
                         lki=state.lki.set(obj, perm))
    if zone == "graveyard":
        events.append(Event("dies", rule, step, object=obj))
    else:
        events.append(Event("zone_change", rule, step, object=obj, detail=zone))
    return state, events


def core_actions(state: GameState) -> list[StateBasedAction]:
    """The state-based actions the core checks."""
    found: list[StateBasedAction] = []
    for player in state.players.values():
        if player.lost:
            continue
        if player.life <= 0:
            found.append(StateBasedAction("lose", "704.5a", player=player.id))
        elif player.poison >= 10:
            found.append(StateBasedAction("lose", "704.5c", player=player.id))
    for perm in state.objects.values():
        if perm.zone != "battlefield":
            continue
        types = perm.types
        if "creature" in types:
            toughness = perm.toughness
            if toughness <= 0:
                found.append(StateBasedAction("graveyard", "704.5f", object=perm.id))
                continue
            if perm.damage > 0 and perm.damage >= toughness:
                found.append(StateBasedAction("destroy", "704.5g", object=perm.id))
        if "planeswalker" in types and perm.counters.get("loyalty", 0) <= 0:
            found.append(StateBasedAction("graveyard", "704.5i", object=perm.id))
        if "battle" in types and perm.counters.get("defense", 0) <= 0:
            rule = "704.5v" if "Siege" in perm.subtypes else "704.5w"
            found.append(StateBasedAction("graveyard", rule, object=perm.id))
        c = perm.counters
        if c.get("+1/+1", 0) and c.get("-1/-1", 0):
            found.append(StateBasedAction("annihilate_counters", "704.5q", object=perm.id))
    return found


def _dedupe(actions: Iterable[StateBasedAction]) -> list[StateBasedAction]:
    seen: dict[tuple[str, str | None, str | None], StateBasedAction] = {}
    for a in actions:
        key = (a.kind, a.object, a.player)
        # One action per object and kind; the lowest rule number names it.
        if key not in seen or a.rule < seen[key].rule:
            seen[key] = a
    return sorted(seen.values(), key=lambda a: (a.object or "", a.player or "", a.kind, a.rule))


def check_state_based_actions(hooks: Hooks, state: GameState, step: str
                              ) -> tuple[GameState, list[Event]]:
    """Perform state-based actions until none applies (704.3)."""
    events: list[Event] = []
    for _ in range(1000):
        actions = _dedupe([*core_actions(state), *hooks.state_based_actions(state)])
        state = _clear_marks(state)
        if not actions:
            break
        before = state
        # An object put into a graveyard by one action isn't also destroyed.
        to_graveyard = {a.object for a in actions if a.kind == "graveyard"}
        moves: list[tuple[str, str]] = []
        for action in actions:
            if action.object is not None and state.on_battlefield(action.object) is None:
                continue  # it already left: there is nothing to act on
            if action.kind == "lose":
                assert action.player is not None
                player = state.players[action.player]
                if not player.lost:
                    state = state.with_players(
                        {player.id: attrs.evolve(player, lost=True, loss_rule=action.rule)})
                    events.append(Event("lost", action.rule, step, player=player.id))
            elif action.kind == "annihilate_counters":
                assert action.object is not None
                perm = state.objects[action.object]
                n = min(perm.counters.get("+1/+1", 0), perm.counters.get("-1/-1", 0))
                counters = dict(perm.counters)
                counters["+1/+1"] -= n
                counters["-1/-1"] -= n
                state = state.with_permanents({perm.id: perm.evolve(counters=counters)})
                events.append(Event("counters_removed", action.rule, step, target=perm.id,
                                    amount=n, counter="+1/+1 and -1/-1"))
            elif action.kind == "destroy":
                assert action.object is not None
                if action.object in to_graveyard:
                    continue
                if hooks.cannot_be_destroyed(state, action.object):
                    continue
                events.append(Event("destroyed", action.rule, step, object=action.object))
                moves.append((action.object, action.rule))
            elif action.kind == "graveyard":
                assert action.object is not None
                moves.append((action.object, action.rule))
            else:
                raise ValueError(f"unknown state-based action kind {action.kind!r}")
        for obj, rule in moves:
            state, moved = move_to_zone(state, obj, "graveyard", rule, step)
            events.extend(moved)
        if state == before:
            break
    return state, events


def _clear_marks(state: GameState) -> GameState:
    marked = {p.id: p.evolve(marks=frozenset()) for p in state.objects.values() if p.marks}
    return state.with_permanents(marked) if marked else state


def end_combat(state: GameState) -> GameState:
    """511.3: everything is removed from combat as the end of combat step ends."""
    return attrs.evolve(state, combat=None, step="postcombat_main")


__all__ = ["Combat", "check_state_based_actions", "end_combat", "move_to_zone",
           "remove_from_combat"]
