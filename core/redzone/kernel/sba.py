"""Zone changes, removal from combat and state-based actions (704).

State-based actions are checked as a batch: every applicable one is performed
at the same time, then the check repeats until none applies (704.3). The core
checks the rules combat can trigger that no keyword owns; plugins add theirs
through ``redzone_state_based_actions`` (deathtouch's 704.5h). This module
finds the core's actions, moves objects and performs the actions on a
command's working copy (:func:`perform`, which the command's settling runs:
:mod:`redzone.kernel.settle`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from redzone.kernel.errors import PluginError
from redzone.kernel.events import Event, object_event
from redzone.kernel.frozen import FrozenMap, builder, cached_properties
from redzone.kernel.frozen import evolve as _evolve
from redzone.kernel.hooktypes import StateBasedAction
from redzone.kernel.model import SBA_DIRTY, Combat, GameState, Permanent

if TYPE_CHECKING:
    from redzone.kernel.tx import Tx

#: ``StateBasedAction(kind, rule, object)``, built as one dict.
_action = builder(StateBasedAction, "kind", "rule", "object")


def without(combat: Combat, objects: Collection[str]) -> tuple[Combat, set[str]]:
    """``combat`` with ``objects`` removed from it at the same time (506.4),
    and which of them were in it: attacking, blocking, or attacked by a
    creature that stays in combat.

    An attacker that leaves stops being blocked by its blockers, which stay
    blocking creatures (510.1d); a blocker that leaves leaves its attackers
    blocked (509.1h); creatures attacking a planeswalker or battle that is
    removed attack nothing (506.4c); an attacker that leaves stops being a
    blocked creature (506.4) and leaves its band (702.22f). One pass over
    the combat, however many leave."""
    attacks = combat.attacks._items
    blocks = combat.blocks._items
    direct = {o for o in objects if o in attacks or o in blocks}
    targets = {t for a, t in attacks.items() if a not in direct}
    hit = direct | {o for o in objects if o in targets}
    if not hit:
        return combat, hit
    new_attacks = {a: (None if t in hit else t) for a, t in attacks.items() if a not in hit}
    new_blocks = {b: (atts if hit.isdisjoint(atts) else tuple(a for a in atts if a not in hit))
                  for b, atts in blocks.items() if b not in hit}
    bands = combat.bands
    if bands:
        bands = tuple(kept for kept in (tuple(m for m in band if m not in hit)
                                        for band in bands) if len(kept) > 1)
    return _evolve(combat, attacks=FrozenMap._wrap(new_attacks),
                   blocks=FrozenMap._wrap(new_blocks), blocked=combat.blocked - hit,
                   bands=bands, removed=combat.removed | direct), hit


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
    after, hit = without(combat, (obj,))
    if not hit:
        return state, []
    return _evolve(state, combat=after), [
        Event("removed_from_combat", rule, step, object=obj)
    ]


#: The fields a card keeps when it leaves the battlefield (400.7); every other
#: field goes back to its default.
_KEPT = frozenset({"id", "controller", "name", "owner", "types", "subtypes", "supertypes",
                   "colors",
                   "base_power", "base_toughness", "printed_keywords", "protector", "zone",
                   "token"})
_RESET = {f.name: f.default for f in attrs.fields(Permanent)
          if f.name not in _KEPT and f.default is not attrs.NOTHING
          and not isinstance(f.default, attrs.Factory)}  # type: ignore[arg-type]
assert len(_RESET) + len(_KEPT) == len(attrs.fields(Permanent)), "a field has no default"


def _make_left() -> object:
    """A function ``left(perm, zone)``: the new object a permanent becomes
    in ``zone`` (400.7): a copy of its fields with every one it doesn't keep
    back at its default (already in converted form), its controller its
    owner, and none of its derived values (they depended on what it lost)."""
    reset = dict(_RESET)
    reset["_attrs_cached_hash"] = None
    derived = cached_properties(Permanent)

    def left(perm: Permanent, zone: str) -> Permanent:
        d = perm.__dict__.copy()
        d.update(reset)
        for name in derived:
            d.pop(name, None)
        d["zone"] = zone
        d["controller"] = d["owner"]
        d["own_state_based_actions"] = ()  # off the battlefield: none (704.5)
        new: Permanent = _new(Permanent)
        _set(new, "__dict__", d)
        return new

    return left


_new = object.__new__
_set = object.__setattr__
_left = _make_left()


def move_to_zone(state: GameState, obj: str, zone: str, rule: str, step: str
                 ) -> tuple[GameState, list[Event]]:
    """Move a permanent from the battlefield to ``zone`` (400.7: it becomes a
    new object; its last known information is kept in ``state.lki``)."""
    return move_many_to_zone(state, [(obj, rule)], zone, step)


def move_many_to_zone(state: GameState, moves: Iterable[tuple[str, str]], zone: str,
                      step: str) -> tuple[GameState, list[Event]]:
    """:func:`move_to_zone` for each ``(object, rule)`` in order, copying the
    state's maps once instead of once per object."""
    current = state.objects._items
    leaving: dict[str, str] = {}  # object -> rule, in order; each object once
    for obj, rule in moves:
        if obj not in leaving and current[obj].zone == "battlefield":
            leaving[obj] = rule
    if not leaving:
        return state, []
    combat = state.combat
    hit: set[str] = set()
    if combat is not None:
        combat, hit = without(combat, leaving)
    objects = state.objects.thaw()
    lki: dict[str, Permanent] = {}
    events: list[Event] = []
    for obj, rule in leaving.items():
        if obj in hit:
            events.append(object_event("removed_from_combat", "506.4", step, obj))
        perm = current[obj]
        objects[obj] = _left(perm, zone)  # type: ignore[operator]
        lki[obj] = perm
        if zone == "graveyard":
            events.append(object_event("dies", rule, step, obj))
        else:
            events.append(Event("zone_change", rule, step, object=obj, detail=zone))
    return state.with_objects_left(FrozenMap._wrap(objects), lki, lki=state.lki.merge(lki),
                                   combat=combat), events


def core_actions(state: GameState) -> list[StateBasedAction]:
    """The state-based actions the core checks (704.5a-d, f-g, i, q, v-w).

    A permanent's own verdicts depend on it alone, so when the state notes
    which permanents changed since its objects were last found clean
    (:data:`~redzone.kernel.model.SBA_DIRTY`), only those are looked at;
    the players always are."""
    found: list[StateBasedAction] = []
    teams = bool(state.teams)
    for player in state.players.values():
        if player.lost:
            continue
        mates = len(state.teammates(player.id)) if teams else 0
        if player.life <= 0:
            # 810.8c: a team whose shared life is 0 or less loses.
            found.append(StateBasedAction("lose", "810.8c" if mates else "704.5a",
                                          player=player.id))
        elif player.poison >= (10 if not mates else 15 + 5 * (mates - 1)):
            # 810.8d, 810.11: a team of two loses with fifteen poison counters,
            # five more for each further player.
            found.append(StateBasedAction("lose", "810.8d" if mates else "704.5c",
                                          player=player.id))
    objects = state.objects._items
    dirty = state.__dict__.get(SBA_DIRTY)
    perms = objects.values() if dirty is None else [
        objects[i] for i in sorted(dirty) if i in objects]
    for perm in perms:
        verdicts = perm.own_state_based_actions
        if verdicts:
            for kind, rule in verdicts:
                found.append(_action(kind, rule, perm.id))
        elif perm.token and perm.zone not in ("battlefield", "ceased"):
            found.append(StateBasedAction("cease", "704.5d", object=perm.id))  # 111.7
    return found


def _dedupe(actions: list[StateBasedAction]) -> list[StateBasedAction]:
    if len(actions) < 2:
        return actions
    seen: dict[tuple[str, str | None, str | None], StateBasedAction] = {}
    for a in actions:
        key = (a.kind, a.object, a.player)
        # One action per object and kind; the lowest rule number names it.
        if key not in seen or a.rule < seen[key].rule:
            seen[key] = a
    return sorted(seen.values(), key=lambda a: (a.object or "", a.player or "", a.kind, a.rule))


def _clear_marks(state: GameState) -> GameState:
    objects = state.objects._items
    dirty = state.__dict__.get(SBA_DIRTY)
    # (Marks are set by changing a permanent: only changed ones can have any.)
    perms = objects.values() if dirty is None else [objects[i] for i in dirty if i in objects]
    marked = {p.id: p.evolve(marks=frozenset()) for p in perms if p.marks}
    return state.with_permanents(marked) if marked else state


# -- performing them on a working copy ---------------------------------------------


def perform(tx: Tx, players_lost: Callable[[Tx, Sequence[str]], None]) -> None:
    """Perform state-based actions on a working copy until none applies
    (704.3).

    :param tx: the command's working copy.
    :param players_lost: what follows when players lose (the game ends, or
        they leave it: 104, 800.4a), called after the round in which they
        lost; the loop stops if it ended the game.
    """
    hooks = tx.hooks
    state = tx.state
    dirty = state.__dict__.get(SBA_DIRTY)
    if dirty is not None and not dirty \
            and "redzone_state_based_actions" in hooks.silent(state) \
            and not core_actions(state):
        # Objects clean since the last check, players fine, no plugin to
        # ask: nothing to perform, and no marks to clear (704.3).
        return
    for _ in range(1000):
        state = tx.state
        actions = core_actions(state)
        if "redzone_state_based_actions" not in hooks.silent(state):
            actions.extend(hooks.state_based_actions(state))
        actions = _dedupe(actions)
        state = _clear_marks(state)
        tx.state = state
        if not actions:
            # Clean: later changes are noted, and only they are checked (704.3).
            state.__dict__[SBA_DIRTY] = frozenset()
            break
        before = state
        to_graveyard = {a.object for a in actions if a.kind == "graveyard"}
        moves: list[tuple[str, str]] = []
        lost: list[str] = []
        ceased: list[str] = []
        silent = hooks.silent(state)
        # Whether destruction can be stopped or replaced (702.12b, 701.19, 614.8).
        replaceable = "redzone_cannot_be_destroyed" not in silent \
            or "redzone_destruction_replacements" not in silent
        label = tx.step
        for action in actions:
            if action.kind == "cease":
                ceased.append(action.object or "")
                continue
            if action.object is not None:
                perm = state.objects._items.get(action.object)
                if perm is None or perm.zone != "battlefield":
                    continue
            if action.kind == "destroy":
                assert action.object is not None
                if action.object in to_graveyard:
                    continue
                if replaceable:
                    tx.state = state
                    if destroy_replaced(tx, action.object):
                        state = tx.state
                        continue
                    state = tx.state
                tx.events.append(object_event("destroyed", action.rule, label,
                                              action.object))
                moves.append((action.object, action.rule))
            elif action.kind == "lose":
                player = state.players.get(action.player or "")
                if player is None:
                    raise PluginError(f"a state-based action names no player: {action!r}",
                                      hook="redzone_state_based_actions")
                if not player.lost:
                    state = state.with_players(
                        {player.id: _evolve(player, lost=True, loss_rule=action.rule)})
                    tx.emit(Event("lost", action.rule, player=player.id))
                    lost.append(player.id)
            elif action.kind == "annihilate_counters":
                assert action.object is not None
                perm = state.objects[action.object]
                n = min(perm.counters.get("+1/+1", 0), perm.counters.get("-1/-1", 0))
                counters = perm.counters.thaw()
                counters["+1/+1"] -= n
                counters["-1/-1"] -= n
                state = state.with_permanents({perm.id: perm.evolve(counters=counters)})
                tx.emit(Event("counters_removed", action.rule, target=perm.id,
                              amount=n, counter="+1/+1 and -1/-1"))
            elif action.kind == "graveyard":
                assert action.object is not None
                moves.append((action.object, action.rule))
            else:
                raise PluginError(f"unknown state-based action kind {action.kind!r}",
                                  hook="redzone_state_based_actions")
        tx.state = state
        if moves:
            new, moved = move_many_to_zone(tx.state, moves, "graveyard", label)
            tx._take(new, moved, labelled=True)
        if ceased:
            cease(tx, ceased)
        if lost:
            players_lost(tx, lost)
            if tx.state.game_over is not None:
                return
        if tx.state is before:
            break


def cease(tx: Tx, objects: Sequence[str]) -> None:
    """Tokens that left the battlefield cease to exist (111.7, 704.5d)."""
    state = tx.state
    changed = {}
    for obj in objects:
        perm = state.objects.get(obj)
        if perm is None or not perm.token or perm.zone in ("battlefield", "ceased"):
            continue
        changed[obj] = _evolve(perm, zone="ceased")
        tx.emit(Event("ceases_to_exist", "704.5d", object=obj, detail=perm.zone))
    if changed:
        tx.state = _evolve(state, objects=state.objects.merge(changed))


def destroy_replaced(tx: Tx, obj: str, *, regenerate: bool = True) -> bool:
    """Whether indestructible (702.12b) or a destruction replacement
    (701.19, 614.8) keeps ``obj`` from being destroyed; a replacement
    that applies is performed.

    :param regenerate: ``False`` for "can't be regenerated" (701.19c).
    """
    silent = tx.hooks.silent(tx.state)
    if "redzone_cannot_be_destroyed" not in silent and tx.hooks.cannot_be_destroyed(
            tx.state, obj):
        return True
    if "redzone_destruction_replacements" in silent:
        return False
    replacements = [(p, r) for p, r in tx.hooks.destruction_replacements(tx.state, obj)
                    if regenerate or not r.regeneration]
    if not replacements:
        return False
    plugin, chosen = replacements[0]
    tx.emit(Event("replaced", chosen.rule, object=obj,
                  detail=f"{chosen.effect}: instead of being destroyed"))
    for action in chosen.actions:
        # for the plugin that answered: what goes wrong (a replacement
        # that destroys again recurses) is that plugin's fault
        tx.perform(action, plugin="" if plugin.startswith("redzone.") else plugin,
                   hook="redzone_destruction_replacements")
    return True


__all__ = ["Combat", "cease", "core_actions", "destroy_replaced", "move_many_to_zone",
           "move_to_zone", "perform", "remove_from_combat", "without"]
