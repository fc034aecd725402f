"""Things players do in the priority windows of combat, as data.

An embedding engine resolves its own spells and abilities and hands redzone
their effects as these values; :meth:`redzone.Engine.perform` applies one and
runs state-based actions, as the game does before a player gets priority
again (117.5). Each value's ``do`` is its name in the scenario format.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, ClassVar

from attrs import field, frozen

from redzone.kernel.damage import deal_damage, gain_life, lose_life
from redzone.kernel.errors import IllegalActionError, Violation
from redzone.kernel.events import Event
from redzone.kernel.frozen import evolve as _evolve
from redzone.kernel.hooktypes import Damage, Result
from redzone.kernel.model import Effect, GameState, Keyword, Modification, Permanent, Shield
from redzone.kernel.sba import move_to_zone, remove_from_combat

if TYPE_CHECKING:
    from redzone.kernel.plugins import Hooks


def _tuple(value: Iterable[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _counters(value: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(dict(value).items()))


@frozen
class Pump:
    """+N/+N until end of turn (a Giant Growth).

    :param target: the permanent.
    :param power: added to its power.
    :param toughness: added to its toughness.
    """

    do: ClassVar[str] = "pump"
    target: str
    power: int = 0
    toughness: int = 0


@frozen
class Grant:
    """The permanent gains keywords until end of turn.

    :param target: the permanent.
    :param keywords: keywords as printed (``"flying"``, ``"toxic 2"``).
    """

    do: ClassVar[str] = "grant"
    target: str
    keywords: tuple[str, ...] = field(converter=_tuple)


@frozen
class Revoke:
    """The permanent loses keywords until end of turn.

    :param target: the permanent.
    :param keywords: keywords as printed; every instance of each is lost.
    """

    do: ClassVar[str] = "revoke"
    target: str
    keywords: tuple[str, ...] = field(converter=_tuple)


@frozen
class AddCounters:
    """Put counters on a permanent (negative amounts remove them).

    :param target: the permanent.
    :param counters: counter kind -> how many.
    """

    do: ClassVar[str] = "add_counters"
    target: str
    counters: tuple[tuple[str, int], ...] = field(converter=_counters)


@frozen
class RemoveFromCombat:
    """An effect removes the permanent from combat (506.4).

    :param target: the permanent.
    """

    do: ClassVar[str] = "remove_from_combat"
    target: str


@frozen
class LeaveBattlefield:
    """The permanent leaves the battlefield (destroyed, sacrificed, bounced).

    :param target: the permanent.
    :param zone: where it goes: ``graveyard`` or ``exile`` (a bounced card is
        recorded as ``exile``: it has left the game's board either way).
    """

    do: ClassVar[str] = "leave_battlefield"
    target: str
    zone: str = "graveyard"


@frozen
class DealDamage:
    """Noncombat damage, through the same pipeline as combat damage (120.2b).

    :param source: the permanent dealing it (its abilities apply).
    :param target: the player or permanent dealt damage.
    :param amount: how much.
    """

    do: ClassVar[str] = "deal_damage"
    source: str
    target: str
    amount: int


@frozen
class Prevent:
    """A prevention shield for this turn (615).

    :param target: prevent damage dealt to this object or player...
    :param source: ...or damage dealt by this source.
    :param amount: the next N damage; ``"next"`` for all of the next time
        damage would be dealt; ``"all"`` for all such damage this turn.
    :param gain_life: a player who gains life equal to what it prevents.
    :param combat_only: prevent only combat damage.
    """

    do: ClassVar[str] = "prevent"
    target: str | None = None
    source: str | None = None
    amount: int | str = "all"
    gain_life: str | None = None
    combat_only: bool = False


@frozen
class Tap:
    """Tap a permanent; a combatant stays in combat (506.4b).

    :param target: the permanent.
    """

    do: ClassVar[str] = "tap"
    target: str


@frozen
class Untap:
    """Untap a permanent (506.4b).

    :param target: the permanent.
    """

    do: ClassVar[str] = "untap"
    target: str


@frozen
class BecomeBlocked:
    """An effect says an attacking creature becomes blocked (509.1h).

    :param target: the attacking creature.
    """

    do: ClassVar[str] = "become_blocked"
    target: str


@frozen
class GainLife:
    """A player gains life (119.3), as modified by replacement effects.

    :param player: the player.
    :param amount: how much.
    """

    do: ClassVar[str] = "gain_life"
    player: str
    amount: int


@frozen
class LoseLife:
    """A player loses life (119.3).

    :param player: the player.
    :param amount: how much.
    """

    do: ClassVar[str] = "lose_life"
    player: str
    amount: int


@frozen
class AddEffect:
    """A game-wide continuous effect starts to apply, until end of turn
    (611.2): for instance provoke's "blocks this creature if able" (an
    :class:`~redzone.Effect` of kind ``blocks_if_able``).

    :param effect: the effect.
    """

    do: ClassVar[str] = "add_effect"
    effect: Effect


@frozen
class MakeBlock:
    """An effect makes a creature block an attacking creature (509.6): it
    becomes a blocking creature and the attacker becomes blocked. Requirements
    and restrictions on declaring blockers don't apply (509.4b).

    :param blocker: the creature, controlled by a defending player of the
        attacker (else the effect does nothing: 506.3e, 509.4a).
    :param attacker: the attacking creature it blocks.
    :param position: where it goes in the attacker's damage assignment order,
        where there are orders (0 = first); ``None`` = last.
    """

    do: ClassVar[str] = "block"
    blocker: str
    attacker: str
    position: int | None = None


@frozen
class EnterBlocking:
    """A creature is put onto the battlefield blocking an attacking creature
    (509.4, 509.7): a Flash Foliage token.

    :param permanent: the new permanent (its id must be new).
    :param attacker: the attacking creature it blocks.
    :param position: its place in the attacker's damage assignment order.
    """

    do: ClassVar[str] = "enter_blocking"
    permanent: Permanent
    attacker: str
    position: int | None = None


Action = (Pump | Grant | Revoke | AddCounters | RemoveFromCombat | LeaveBattlefield
          | DealDamage | Prevent | Tap | Untap | BecomeBlocked | GainLife | LoseLife | MakeBlock
          | EnterBlocking | AddEffect)

#: Action classes by their scenario name.
ACTIONS: dict[str, type[Action]] = {
    cls.do: cls
    for cls in (Pump, Grant, Revoke, AddCounters, RemoveFromCombat, LeaveBattlefield,
                DealDamage, Prevent, Tap, Untap, BecomeBlocked, GainLife, LoseLife, MakeBlock,
                EnterBlocking, AddEffect)
}


def _need_permanent(state: GameState, obj: str | None, action: str) -> None:
    if obj is None or obj not in state.objects:
        raise IllegalActionError(f"{action}: there is no permanent {obj!r}", rule="400.1",
                                 objects=(obj or "",))
    if state.objects[obj].zone != "battlefield":
        raise IllegalActionError(f"{action}: {obj!r} is not on the battlefield", rule="400.1",
                                 objects=(obj,))


def _need_player(state: GameState, player: str, action: str) -> None:
    if player not in state.players:
        raise IllegalActionError(f"{action}: there is no player {player!r}", rule="102.1",
                                 objects=(player,))


def _need_amount(value: object, action: str, what: str = "amount") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalActionError(f"{action}: {what} must be a whole number, 0 or more, "
                                 f"not {value!r}", rule="107.1")
    return value


def deal_damage_action(
    hooks: Hooks, state: GameState, action: DealDamage
) -> tuple[GameState, list[Event], tuple[Damage, ...], tuple[Result, ...]]:
    """Apply a :class:`DealDamage` (no state-based actions), returning the
    damage dealt and its results too (for the damage event, 120.4d).

    :raises IllegalActionError: for a source or target that isn't there or a
        bad amount; the state is unchanged.
    """
    step = state.step
    if action.source not in state.objects:
        raise IllegalActionError(f"deal_damage: there is no source {action.source!r}",
                                 rule="120.7", objects=(action.source,))
    if action.target not in state.players:
        _need_permanent(state, action.target, action.do)
    dealt_amount = _need_amount(action.amount, action.do)
    return deal_damage(
        hooks, state, [Damage(action.source, action.target, dealt_amount, False, step)], step)


def apply_action(hooks: Hooks, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action (no state-based actions).

    :raises IllegalActionError: for an action naming objects that aren't there
        or amounts that make no sense; the state is unchanged.
    """
    step = state.step
    do = getattr(action, "do", type(action).__name__)  # an unknown action: 117.1 below
    if isinstance(action, (Pump, Grant, Revoke, AddCounters, Tap, Untap)):
        _need_permanent(state, action.target, do)
        perm = state.objects[action.target]
        new: Permanent
        if isinstance(action, Pump):
            mod = Modification(power=action.power, toughness=action.toughness, source="pump")
            new = perm.evolve(modifications=(*perm.modifications, mod))
            return state.with_permanents({perm.id: new}), [Event(
                "pump", "611.2", step, target=perm.id,
                detail=f"{action.power:+d}/{action.toughness:+d} until end of turn")]
        if isinstance(action, Grant):
            kws = tuple(hooks.parse_keyword(k) for k in action.keywords)
            new = perm.evolve(modifications=(*perm.modifications, Modification(add_keywords=kws)))
            return state.with_permanents({perm.id: new}), [Event(
                "grant", "613.1f", step, target=perm.id,
                detail=", ".join(k.text for k in kws))]
        if isinstance(action, Revoke):
            names = tuple(hooks.parse_keyword(k).name for k in action.keywords)
            new = perm.evolve(modifications=(*perm.modifications,
                                             Modification(remove_keywords=names)))
            return state.with_permanents({perm.id: new}), [Event(
                "revoke", "613.1f", step, target=perm.id, detail=", ".join(names))]
        if isinstance(action, AddCounters):
            counters = dict(perm.counters)
            events = []
            for kind, n in action.counters:
                if not isinstance(n, int) or isinstance(n, bool):
                    raise IllegalActionError(f"add_counters: {n!r} {kind} counters is not a "
                                             "whole number", rule="122.1", objects=(perm.id,))
                counters[kind] = max(0, counters.get(kind, 0) + n)
                events.append(Event("counters", "122.1", step, target=perm.id, counter=kind,
                                    amount=n))
            return state.with_permanents({perm.id: perm.evolve(counters=counters)}), events
        if isinstance(action, Tap):
            return state.with_permanents({perm.id: perm.evolve(tapped=True)}), [
                Event("tap", "701.26a", step, object=perm.id)]
        return state.with_permanents({perm.id: perm.evolve(tapped=False)}), [
            Event("untap", "701.26b", step, object=perm.id)]
    if isinstance(action, RemoveFromCombat):
        _need_permanent(state, action.target, do)
        return remove_from_combat(state, action.target, "506.4", step)
    if isinstance(action, LeaveBattlefield):
        _need_permanent(state, action.target, do)
        if action.zone not in ("graveyard", "exile"):
            raise IllegalActionError(f"leave_battlefield: zone must be 'graveyard' or 'exile', "
                                     f"not {action.zone!r}", rule="400.1")
        return move_to_zone(state, action.target, action.zone, "400.7", step)
    if isinstance(action, DealDamage):
        after, events, _dealt, _results = deal_damage_action(hooks, state, action)
        return after, events
    if isinstance(action, Prevent):
        if (action.target is None) == (action.source is None):
            raise IllegalActionError("prevent: give exactly one of target and source",
                                     rule="615.1")
        for obj in (action.target, action.source):
            if obj is not None and obj not in state.players and obj not in state.objects:
                raise IllegalActionError(f"prevent: there is no object or player {obj!r}",
                                         rule="615.1", objects=(obj,))
        if action.gain_life is not None:
            _need_player(state, action.gain_life, do)
        amount: int | None
        if action.amount in ("next", "all"):
            mode, amount = str(action.amount), None
        else:
            mode, amount = "amount", _need_amount(action.amount, do)
        # A new id, also when earlier shields were used up (ids stay unique).
        taken = {s.id for s in state.shields}
        n = len(state.shields) + 1
        while f"shield-{n}" in taken:
            n += 1
        shield = Shield(id=f"shield-{n}", to=action.target,
                        source=action.source, amount=amount, mode=mode,
                        gain_life=action.gain_life, combat_only=action.combat_only)
        return _evolve(state, shields=(*state.shields, shield)), [Event(
            "shield", "615.1", step, target=action.target, source=action.source, amount=amount,
            detail=mode)]
    if isinstance(action, BecomeBlocked):
        _need_permanent(state, action.target, do)
        combat = state.combat
        if combat is None or action.target not in combat.attacks:
            raise IllegalActionError(f"become_blocked: {action.target!r} is not an attacking "
                                     "creature", rule="509.1h", objects=(action.target,))
        if not combat.blocks and state.step in ("beginning_of_combat", "declare_attackers"):
            raise IllegalActionError("become_blocked: blockers have not been declared yet",
                                     rule="509.1h", objects=(action.target,))
        # 702.22i: if one member of a band would become blocked, the band does.
        band = [a for a in combat.band_of(action.target) if a in combat.attacks]
        newly = [a for a in band if a not in combat.blocked]
        if not newly:
            return state, []  # 509.1h: it stays blocked; it doesn't "become blocked" (509.3c)
        new_combat = combat.evolve(blocked=combat.blocked | set(newly))
        return _evolve(state, combat=new_combat), [
            Event("blocked", "509.1h" if a == action.target else "702.22i", step, object=a)
            for a in newly]
    if isinstance(action, GainLife):
        _need_player(state, action.player, do)
        return gain_life(hooks, state, action.player, _need_amount(action.amount, do), "",
                         "119.3", step)
    if isinstance(action, LoseLife):
        _need_player(state, action.player, do)
        return lose_life(state, action.player, _need_amount(action.amount, do), "", "119.3",
                         step)
    if isinstance(action, AddEffect):
        if not isinstance(action.effect, Effect):
            raise IllegalActionError(f"add_effect: {action.effect!r} is not an Effect",
                                     rule="611.2")
        return _evolve(state, effects=(*state.effects, action.effect)), [Event(
            "effect", "611.2", step, target=action.effect.to, source=action.effect.source,
            player=action.effect.player, detail=action.effect.kind)]
    if isinstance(action, EnterBlocking):
        perm = action.permanent
        if perm.id in state.objects or perm.id in state.players:
            raise IllegalActionError(f"enter_blocking: the id {perm.id!r} is already used",
                                     rule="509.4", objects=(perm.id,))
        if perm.controller not in state.players:
            raise IllegalActionError(f"enter_blocking: there is no player "
                                     f"{perm.controller!r}", rule="509.4", objects=(perm.id,))
        perm = perm.evolve(printed_keywords=tuple(
            hooks.parse_keyword(k) for k in perm.printed_keywords), zone="battlefield")
        entered = state.with_permanents({perm.id: perm})
        after, events = _make_block(entered, perm.id, action.attacker, action.position, "509.4")
        return after, [Event("enters_battlefield", "509.4", step, object=perm.id), *events]
    if isinstance(action, MakeBlock):
        _need_permanent(state, action.blocker, do)
        if state.step in ("beginning_of_combat", "declare_attackers"):
            raise IllegalActionError(  # there are no blockers before 509.1 declares them
                f"{action.blocker!r} can't be made to block in the {state.step} step: "
                "blockers are declared in the declare blockers step", rule="509.1",
                objects=(action.blocker, action.attacker))
        return _make_block(state, action.blocker, action.attacker, action.position, "509.6")
    raise IllegalActionError(f"unknown action {action!r}", rule="117.1")


def _make_block(state: GameState, blocker: str, attacker: str, position: int | None,
                rule: str) -> tuple[GameState, list[Event]]:
    step = state.step
    combat = state.combat
    if combat is None or attacker not in state.objects:
        raise IllegalActionError(f"{blocker!r} can't block {attacker!r}: there is no combat or "
                                 "no such creature", rule="509.4a", objects=(blocker, attacker))
    if attacker not in combat.attacks:
        return state, []  # 509.4a: it is never considered a blocking creature
    perm = state.objects[blocker]
    if "creature" not in perm.types or "battle" in perm.types:
        return state, []  # 506.3a, 506.3f: it is never a blocking creature
    if combat.defending_players.get(attacker) != perm.controller:
        return state, []  # 506.3e, 509.4a
    if attacker in combat.blocks.get(blocker, ()):
        return state, []
    blocks = combat.blocks.set(blocker, (*combat.blocks.get(blocker, ()), attacker))
    order = dict(combat.order)
    # 509.6-509.7 (2009-2024): the new blocker is placed in the attacker's
    # order, and the attacker in the blocker's; the others keep their places.
    if order:
        current = list(order.get(attacker, combat.blockers_of(attacker)))
        current.insert(len(current) if position is None else max(position, 0), blocker)
        order[attacker] = tuple(current)
        order[blocker] = (*order.get(blocker, ()), attacker)
    new_combat = combat.evolve(blocks=blocks, blocked=combat.blocked | {attacker}, order=order)
    events = [Event("block", rule, step, blocker=blocker, attacker=attacker)]
    if attacker not in combat.blocked:
        # 509.3c: an unblocked attacker becomes blocked (its "becomes blocked" triggers).
        events.append(Event("blocked", "509.1h", step, object=attacker))
    return _evolve(state, combat=new_combat), events


__all__ = [
    "ACTIONS",
    "Action",
    "AddCounters",
    "BecomeBlocked",
    "DealDamage",
    "EnterBlocking",
    "GainLife",
    "Grant",
    "Keyword",
    "LeaveBattlefield",
    "LoseLife",
    "MakeBlock",
    "Prevent",
    "Pump",
    "RemoveFromCombat",
    "Revoke",
    "Tap",
    "Untap",
    "Violation",
    "apply_action",
]
