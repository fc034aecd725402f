"""Zone changes, removal from combat and state-based actions (704).

State-based actions are checked as a batch: every applicable one is performed
at the same time, then the check repeats until none applies (704.3). The core
checks the rules combat can trigger that no keyword owns; plugins add theirs
through ``redzone_state_based_actions`` and, about one permanent that changed,
``redzone_permanent_state_based_actions`` (deathtouch's 704.5h). This module
finds the core's actions and moves objects, as functions of the state; the
command's settling performs the actions on its working copy
(:func:`redzone.kernel.settle.perform_state_based_actions`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable

import attrs

from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap, cached_properties
from redzone.kernel.hooktypes import StateBasedAction
from redzone.kernel.model import (
    SBA_BUILT,
    SBA_DIRTY,
    Choice,
    Combat,
    GameState,
    Permanent,
    Player,
    Printed,
)
from redzone.kernel.validate import STATE_BOUNDS


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
    return combat.evolve(attacks=FrozenMap._wrap(new_attacks),
                         blocks=FrozenMap._wrap(new_blocks), blocked=combat.blocked - hit,
                         bands=bands, removed=combat.removed | direct), hit


def without_part(combat: Combat, obj: str, part: str) -> Combat:
    """``combat`` with ``obj``, a permanent that is both a blocking creature
    and a planeswalker being attacked, left with one of those parts (506.4d;
    a planeswalker battle, 506.4e): ``part`` ``"blocking"``, it stops
    blocking and the attackers it blocked stay blocked (509.1h); ``"attacked"``,
    it stops being attacked and the creatures attacking it attack nothing
    (506.4c)."""
    if part == "blocking":
        return combat.evolve(blocks=FrozenMap._wrap({b: atts for b, atts in combat.blocks.items()
                                                     if b != obj}),
                             removed=combat.removed | {obj})
    return combat.evolve(attacks=FrozenMap._wrap({a: (None if t == obj else t)
                                                  for a, t in combat.attacks.items()}))


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
    return state.evolve(combat=after), [
        Event("removed_from_combat", rule, step, object=obj)
    ]


#: The fields a card keeps when it leaves the battlefield (400.7); every other
#: field goes back to its default: a battle's protector too (the new object's
#: controller chooses one as it enters, 704.5x).
_KEPT = frozenset({"id", "controller", "name", "owner", "types", "subtypes", "supertypes",
                   "colors",
                   "base_power", "base_toughness", "printed_keywords", "printed_loyalty",
                   "printed_defense", "zone", "token", "object", "position"})
_RESET = {f.name: f.default for f in attrs.fields(Permanent)
          if f.name not in _KEPT and f.default is not attrs.NOTHING
          and not isinstance(f.default, attrs.Factory)}  # type: ignore[arg-type]
assert len(_RESET) + len(_KEPT) == len(attrs.fields(Permanent)), "a field has no default"


@functools.cache
def _printed_fields() -> tuple[str, ...]:
    """The fields a permanent's printed characteristics stand in
    (:class:`~redzone.kernel.model.Printed`, built when a permanent with
    layered values first leaves)."""
    return tuple(f.name for f in attrs.fields(Printed))


def _make_left() -> object:
    """A function ``left(perm, zone, position)``: the new object a card
    becomes in ``zone`` (400.7): a copy of its fields with every one it
    doesn't keep back at its default (already in converted form), its
    controller its owner, its object number one more, and none of its derived
    values (they depended on what it lost)."""
    reset = dict(_RESET)
    reset["_attrs_cached_hash"] = None
    derived = cached_properties(Permanent)

    def left(perm: Permanent, zone: str, position: int = 0) -> Permanent:
        d = perm.__dict__.copy()
        d.update(reset)
        layered = perm.layered
        if layered is not None:  # its own characteristics, not the layers' (400.7, 613)
            for name in _printed_fields():
                d[name] = getattr(layered.printed, name)
        for name in derived:
            d.pop(name, None)
        d["zone"] = zone
        d["controller"] = d["owner"]
        d["object"] = perm.object + 1
        d["position"] = position
        if zone != "battlefield":
            d["own_state_based_actions"] = ()  # off the battlefield: none (704.5)
        new: Permanent = _new(Permanent)
        _set(new, "__dict__", d)
        return new

    return left


_new = object.__new__
_set = object.__setattr__
_left = _make_left()


def move_to_zone(state: GameState, obj: str, zone: str, rule: str, step: str, *,
                 top: bool = False) -> tuple[GameState, list[Event]]:
    """Move a permanent from the battlefield to ``zone`` (400.7: it becomes a
    new object; its last known information is kept in ``state.lki``).

    :param top: put it on top of its owner's library (401.1), not at the
        bottom; in any other zone it is the newest object.
    """
    return move_many_to_zone(state, [(obj, rule)], zone, step, top=top)


def next_position(state: GameState, owner: str, zone: str, *, top: bool = False) -> int:
    """The position a card arriving in its ``owner``'s ``zone`` takes: after
    every card there (the bottom of a library, the newest of a graveyard), or
    with ``top`` before every one (the top of a library, 401.1; ``top`` means
    nothing in another zone, where a card arriving is the newest)."""
    top = top and zone == "library"
    here = None
    for p in state.objects._items.values():
        if p.zone == zone and p.owner == owner:
            position = p.position
            if here is None or (position < here if top else position > here):
                here = position
    if here is None:
        return 0
    return here - 1 if top else here + 1


def move_many_to_zone(state: GameState, moves: Iterable[tuple[str, str]], zone: str,
                      step: str, *, top: bool = False) -> tuple[GameState, list[Event]]:
    """:func:`move_to_zone` for each ``(object, rule)`` in order, copying the
    state's maps once instead of once per object; each arrives after those
    before it (or, with ``top``, on top of them)."""
    objects, lki, combat, events = leave(state, moves, zone, step, top=top)
    if not objects:
        return state, events
    return state.with_objects_left(state.objects.merge(objects), objects,
                                   lki=state.lki.merge(lki), combat=combat), events


def leave(state: GameState, moves: Iterable[tuple[str, str]], zone: str, step: str, *,
          top: bool = False) -> tuple[dict[str, Permanent], dict[str, Permanent],
                                      Combat | None, list[Event]]:
    """What :func:`move_many_to_zone` changes, without a new state: the new
    objects the cards become (400.7), their last known information, the
    combat they left (the state's own when none was in it) and the events."""
    current = state.objects._items
    leaving: dict[str, str] = {}  # object -> rule, in order; each object once
    for obj, rule in moves:
        if obj not in leaving and current[obj].zone == "battlefield":
            leaving[obj] = rule
    objects: dict[str, Permanent] = {}
    lki: dict[str, Permanent] = {}
    events: list[Event] = []
    combat = state.combat
    if not leaving:
        return objects, lki, combat, events
    hit: set[str] = set()
    if combat is not None:
        combat, hit = without(combat, leaving)
        if not combat.dealt.isdisjoint(leaving) or any(
                not dealt.isdisjoint(leaving) for dealt in combat.damage_steps._items.values()):
            # 400.7: the new object has dealt and assigned no combat damage
            # (510.4; 310.5 of 1999-2009).
            combat = combat.evolve(
                dealt=combat.dealt.difference(leaving),
                damage_steps=FrozenMap._wrap({step: dealt.difference(leaving) for step, dealt
                                              in combat.damage_steps._items.items()}))
    places: dict[str, int] = {}
    for obj, rule in leaving.items():
        perm = current[obj]
        owner = perm.owner
        if owner not in places:
            places[owner] = next_position(state, owner, zone, top=top)
        else:
            places[owner] += -1 if top and zone == "library" else 1
        objects[obj] = _left(perm, zone, places[owner])  # type: ignore[operator]
        lki[obj] = perm
        if zone == "graveyard":
            events.append(Event("dies", rule, step, object=obj))
        else:
            events.append(Event.make("zone_change", rule, step, object=obj, zone=zone))
        # 506.4: it leaves combat because it left the battlefield, so after
        if obj in hit:
            events.append(Event("removed_from_combat", "506.4", step, object=obj))
    return objects, lki, combat, events


def changed(state: GameState) -> list[str]:
    """The ids of the permanents on the battlefield that changed since
    ``state`` was last found clean of state-based actions (its note
    :data:`~redzone.kernel.model.SBA_DIRTY`), sorted; every permanent on
    the battlefield when it carries no note or was never checked
    (:data:`~redzone.kernel.model.SBA_BUILT`). What
    ``redzone_permanent_state_based_actions`` is asked about (704.3)."""
    objects = state.objects._items
    notes = state.__dict__
    dirty = notes.get(SBA_DIRTY)
    return [i for i in sorted(objects if dirty is None or SBA_BUILT in notes else dirty)
            if (perm := objects.get(i)) is not None and perm.zone == "battlefield"]


def core_actions(state: GameState, legend_per_player: bool = True) -> list[StateBasedAction]:
    """The state-based actions the core checks (704.5a-d, f-g, i, j, q, v-y).

    A permanent's own verdicts depend on it alone, so when the state notes
    which permanents changed since its objects were last found clean
    (:data:`~redzone.kernel.model.SBA_DIRTY`), only those are looked at;
    the players always are (the caller asks nothing of a state whose note
    is empty: no player or permanent changed). The legend rule looks at the
    whole battlefield, when one of those is a legendary permanent on it: a
    group forms only when one of its members changed (it entered, or its
    name, supertypes or controller changed). A battle's protector
    (704.5x-y) is looked at when the battle changed, and every battle's is
    when a player left the game (800.4a).

    :param legend_per_player: the legend rule is 704.5j's (each group one
        player controls, who chooses the one they keep); else 420.5e's of
        1999-2009 (every one of a group goes, whoever controls them), with
        that era's planeswalker uniqueness rule (420.5q).
    """
    found: list[StateBasedAction] = []
    past = False  # (a count of a changed player or permanent past its bound)
    teams = bool(state.teams._items)
    dirty = state.__dict__.get(SBA_DIRTY)
    left = False  # whether a player who changed has left the game (800.4a)
    for player in state.players._items.values():
        if player.lost:
            left = left or dirty is None or player.id in dirty
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
        if not _LIFE[0] <= player.life <= _LIFE[1] or player.poison > _POISON:
            past = True
        if player.drew_from_empty:
            # 704.5b: attempted to draw from an empty library since the last check.
            found.append(StateBasedAction("lose", "704.5b", player=player.id))
    objects = state.objects._items
    perms = objects.values() if dirty is None else [
        objects[i] for i in sorted(dirty) if i in objects] if dirty else ()
    legend = False
    battles: list[Permanent] = []
    for perm in perms:
        counts = perm.counters._items  # (a dict: its truth is C's)
        if perm.damage > _COUNT or (counts and max(counts.values()) > _COUNT):
            past = True
        verdicts = perm.own_state_based_actions
        if verdicts:
            for kind, rule in verdicts:
                found.append(StateBasedAction(kind, rule, perm.id))
        elif perm.token and perm.zone not in ("battlefield", "ceased"):
            found.append(StateBasedAction("cease", "704.5d", object=perm.id))  # 111.7
        if perm.zone == "battlefield" and (
                "legendary" in perm.supertypes
                or (not legend_per_player and "planeswalker" in perm.types)):
            legend = True
        if "battle" in perm.types and not left:
            battles.append(perm)
    if legend:
        found.extend(legend_rule(state, legend_per_player))
    if left:  # (rare: every battle's protector may be the player who left)
        battles = [p for p in objects.values() if "battle" in p.types]
    if battles:
        found.extend(battle_protectors(state, battles))
    lki = state.lki._items
    if lki and not past:  # (what left as it changed: its last known counts are saved too)
        for i in (lki.keys() if dirty is None else lki.keys() & dirty):
            gone = lki[i]
            counts = gone.counters._items
            if gone.damage > _COUNT or (counts and max(counts.values()) > _COUNT):
                past = True
                break
    if past:  # (first: the command fails, naming the count: the caller's check says which)
        found.insert(0, StateBasedAction("bound", "107.1"))
    return found


#: The bounds of a state's counts (:data:`~redzone.kernel.validate.STATE_BOUNDS`)
#: that :func:`core_actions` watches as it looks at what changed.
_LIFE = STATE_BOUNDS["Player.life"]
_POISON = STATE_BOUNDS["Player.poison"][1]
_COUNT = min(STATE_BOUNDS["Permanent.damage"][1], STATE_BOUNDS["Permanent.counters"][1])


def legend_rule(state: GameState, per_player: bool) -> list[StateBasedAction]:
    """The legend rule's actions (704.5j): for each group of two or more
    legendary permanents on the battlefield with the same name that one
    player controls, that player chooses one to keep (``keep``: a
    :class:`~redzone.Choice` keyed ``legend_rule@<player>:<name>``, by
    default the first that isn't a token, in the state's order) and the rest
    are put into their owners' graveyards. Without ``per_player`` (420.5e of
    1999-2009), every one of each group goes, whoever controls them, and
    nobody chooses; nor for planeswalkers that share a planeswalker type
    (420.5q of 1999-2009: every one goes)."""
    groups: dict[tuple[str, str], list[Permanent]] = {}
    walkers: dict[str, dict[str, Permanent]] = {}
    for perm in state.objects._items.values():
        if perm.zone != "battlefield":
            continue
        if "legendary" in perm.supertypes:
            groups.setdefault((perm.controller if per_player else "", perm.name),
                              []).append(perm)
        if not per_player and "planeswalker" in perm.types:
            for kind in perm.subtypes:
                walkers.setdefault(kind, {})[perm.id] = perm
    found: list[StateBasedAction] = []
    for sharing in walkers.values():
        if len(sharing) > 1:
            found.extend(StateBasedAction("graveyard", "420.5q", obj) for obj in sharing)
    for (player, name), group in groups.items():
        if len(group) < 2:
            continue
        if not per_player:
            found.extend(StateBasedAction("graveyard", "420.5e", p.id) for p in group)
            continue
        ids = tuple(p.id for p in group)
        keep = next((p.id for p in group if not p.token), ids[0])
        found.append(StateBasedAction("graveyard", "704.5j", player=player, keep=Choice(
            "legend_rule", player, "option", ids, default=(keep,), rule="704.5j",
            key=f"legend_rule@{player}:{name}",
            text=f"the legendary permanent named {name} {player} keeps")))
    return found


def protector_candidates(state: GameState, battle: Permanent) -> tuple[str, ...]:
    """The players who can be ``battle``'s protector, in the order its
    controller is offered them: for a Siege, its controller's opponents in
    the game (310.12a), from the next in turn order after its controller;
    for a battle with no battle type, its controller (310.9a). Siege is the
    one battle type (205.3q): a battle with another subtype has none.

    Rules: 310.9a, 310.12a

    :param state: the state.
    :param battle: a battle.
    :returns: the players, none when nobody can protect it.
    """
    controller = battle.controller
    player = state.players._items.get(controller)
    if player is None or player.lost:
        return ()
    if "Siege" not in battle.subtypes:
        return (controller,)
    opponents = state.opponents(controller)
    order = state.turn_order
    after = order.index(controller) + 1 if controller in order else 0
    return tuple(p for p in (*order[after:], *order[:after]) if p in opponents)


def battle_protectors(state: GameState, battles: Iterable[Permanent]
                      ) -> list[StateBasedAction]:
    """The actions that give battles a protector.

    A battle on the battlefield with no player in the game as its protector
    (none designated, or one who left the game), and that no attacking
    creature attacks, gets one (704.5x); so does one whose protector is a
    player who can't be its protector, attacked or not (704.5y): its
    controller chooses one of :func:`protector_candidates` (``protector``:
    ``player`` is the one, or with two or more, ``keep`` is a
    :class:`~redzone.Choice` keyed ``protector@<battle>`` of kind
    ``option``, by default the first). When nobody can be chosen, the
    battle is put into its owner's graveyard (``graveyard``).

    Rules: 704.5x, 704.5y, 310.9a, 310.11, 310.12a

    :param state: the state.
    :param battles: the permanents to look at (those that aren't battles on
        the battlefield are passed over).
    :returns: one action for each battle that calls for one.
    """
    found: list[StateBasedAction] = []
    players = state.players._items
    combat = state.combat
    for perm in battles:
        if perm.zone != "battlefield" or "battle" not in perm.types:
            continue
        protector = perm.protector
        candidates = protector_candidates(state, perm)
        holder = players.get(protector) if protector is not None else None
        if holder is None or holder.lost:
            if combat is not None and perm.id in combat.attacks._items.values():
                continue  # 704.5x waits while creatures attack it
            rule = "704.5x"
        elif protector in candidates:
            continue
        else:
            rule = "704.5y"
        if not candidates:
            found.append(StateBasedAction("graveyard", rule, perm.id))
        elif len(candidates) == 1:
            found.append(StateBasedAction("protector", rule, perm.id, candidates[0]))
        else:
            found.append(StateBasedAction("protector", rule, perm.id, keep=Choice(
                "protector", perm.controller, "option", candidates, default=candidates[:1],
                rule=rule, key=f"protector@{perm.id}", text=f"the protector of {perm.name}")))
    return found


def attacked_battles(state: GameState) -> tuple[str, ...]:
    """The battles on the battlefield that attacking creatures attack in the
    state's combat, in id order: as combat ends (511.3) the creatures stop
    attacking them, and one with no protector in the game, which waited for
    them, gets one (704.5x).

    Rules: 506.4c, 704.5x

    :param state: the state.
    """
    combat = state.combat
    if combat is None:
        return ()
    objects = state.objects._items
    return tuple(sorted({t for t in combat.attacks._items.values() if t in objects
                         and "battle" in objects[t].types
                         and objects[t].zone == "battlefield"}))


def _dedupe(actions: list[StateBasedAction]) -> list[StateBasedAction]:
    if len(actions) < 2:
        return actions
    seen: dict[tuple[str, str | None, str | None], StateBasedAction] = {}
    for a in actions:
        key = (a.kind, a.object, a.player)
        # One action per object and kind; the lowest rule number names it.
        if key not in seen or a.rule < seen[key].rule:
            seen[key] = a
    # (Sorted by key tuples built in one pass, not a key function called per
    # action; the position breaks ties, as a stable sort would.)
    keyed = [((a.object or "", a.player or "", a.kind, a.rule), i, a)
             for i, a in enumerate(seen.values())]
    keyed.sort()
    return [a for _, _, a in keyed]


def cleared_marks(state: GameState) -> tuple[dict[str, Player], dict[str, Permanent]]:
    """What checking state-based actions clears: the players' attempts to
    draw from an empty library (704.5b looks only since the last check) and
    the permanents' marks, as changed players and permanents (none when
    there is nothing to clear)."""
    drew: dict[str, Player] = {}
    for p in state.players._items.values():
        if p.drew_from_empty:
            drew[p.id] = p.evolve(drew_from_empty=False)
    marked: dict[str, Permanent] = {}
    dirty = state.__dict__.get(SBA_DIRTY)
    if dirty is not None and not dirty:
        return drew, marked  # (marks are set by changing a permanent: none changed)
    objects = state.objects._items
    # (Marks are set by changing a permanent: only changed ones can have any.)
    for i in objects if dirty is None else dirty:
        perm = objects.get(i)
        if perm is not None and perm.marks:
            marked[i] = perm.evolve(marks=frozenset())
    return drew, marked


__all__ = ["Combat", "attacked_battles", "battle_protectors", "changed", "cleared_marks",
           "core_actions", "leave", "legend_rule", "move_many_to_zone", "move_to_zone",
           "protector_candidates", "remove_from_combat", "without"]
