"""The kernel's actions: things that happen to the game, as data.

An embedding engine resolves its own spells and abilities and hands redzone
their effects as these values; :meth:`redzone.Engine.perform` applies one and
runs state-based actions, as the game does before a player gets priority
again (117.5). Each value's ``do`` is its name in the scenario format.

The vocabulary is open, as keywords are: the kernel's own kinds
(:data:`CORE_SPECS`) are declared as a plugin declares its kinds through
:func:`~redzone.kernel.hookspecs.redzone_actions`, with the same tools
(:class:`~redzone.kernel.tx.Tx`). An engine knows them by name
(:mod:`redzone.kernel.action_kinds`, the kernel's plugin ``redzone.actions``)
and imports this module when it first looks one up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from attrs import field, frozen
from attrs import fields as attrs_fields

from redzone.kernel import combat as _combat
from redzone.kernel import events as _events
from redzone.kernel import layers as _layers
from redzone.kernel import zones as _zones
from redzone.kernel.abilities import Activate, activate_action
from redzone.kernel.answers import shown, type_name
from redzone.kernel.errors import BadQueryError, IllegalActionError, Violation, did_you_mean
from redzone.kernel.events import Event
from redzone.kernel.frozen import EMPTY, FrozenMap, as_map, as_tuple
from redzone.kernel.hooktypes import Action, ActionSpec, Damage
from redzone.kernel.model import (
    ZONES,
    Condition,
    ContinuousEffect,
    DelayedTrigger,
    Effect,
    Keyword,
    Modification,
    Permanent,
    Shield,
    StackObject,
    WrittenTrigger,
    optional_strs,
)
from redzone.kernel.references import (
    EACH_PLAYER,
    AnyId,
    ObjectId,
    PlayerId,
    PlayerOrObjectId,
    SourceId,
)
from redzone.kernel.settle import apply_layers, change_control, end_effects
from redzone.kernel.tx import Tx, numbered, starts
from redzone.kernel.tx import _enter_attacking as _attacks_on_entering
from redzone.kernel.validate import STATE_BOUNDS, effect_amount_past
from redzone.kernel.zones import POSITIONS


def _tuple(value: Iterable[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _actions(value: Iterable[Action]) -> tuple[Action, ...]:
    # A typed converter: with ``tuple`` itself mypy can't type the field's argument.
    return tuple(value)


def _counters(value: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    # A mapping, or the (kind, amount) pairs a made action holds (evolve).
    ok = isinstance(value, Mapping) or (
        not isinstance(value, str | bytes) and isinstance(value, Iterable))
    pairs = list(value.items() if isinstance(value, Mapping) else value) if ok else []
    if not ok or not all(isinstance(p, tuple | list) and len(p) == 2 for p in pairs):
        raise BadQueryError(f"AddCounters.counters is {shown(value)} ({type_name(value)}), "
                            "where a mapping of counter kinds to amounts was expected",
                            rule="122.1")
    return tuple(sorted(dict(pairs).items()))


# -- continuous effects on one permanent (611.2, 613) -------------------------------


@frozen
class Pump(Action):
    """+N/+N for a while (a Giant Growth: until end of turn).

    :param target: the permanent.
    :param power: added to its power.
    :param toughness: added to its toughness.
    :param duration: how long (611.2): ``end_of_turn`` (default),
        ``end_of_combat``, ``this_combat``, ``while`` or ``game``.
    :param condition: for ``while``, the condition (611.2b).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "pump"
    target: ObjectId
    power: int = 0
    toughness: int = 0
    duration: str = "end_of_turn"
    condition: Condition | None = None


@frozen
class AddContinuous(Action):
    """A continuous effect that modifies characteristics starts (611.2, 613):
    applied by the layer system (:mod:`redzone.kernel.layers`).

    Its keys are :class:`~redzone.ContinuousEffect`'s (what it
    applies to: ``affects`` ids or the ``affects_*`` filter; what it does in
    each layer: ``copy_of`` 1, ``text_from``/``text_to`` 3, ``set_types``
    ... 4, ``set_colors``/``add_colors`` 5, ``add_keywords``/
    ``remove_keywords``/``lose_all_abilities`` 6, ``set_power``/
    ``set_toughness`` 7b (7a with ``cda``), ``power``/``toughness`` 7c,
    ``switch`` 7d), with keywords as printed (``"protection from red"``):
    ``remove_keywords`` as :class:`Revoke`'s (every instance of each
    ability named, 113.10b). Colors are the five (105.1) or
    ``"colorless"`` (105.2c: no color; added, it adds none).

    :raises IllegalActionError: (105.1) for a color field holding another
        word; (613.1) for an effect that changes nothing.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "continuous"
    affects: tuple[ObjectId, ...] = field(default=(), converter=as_tuple)
    affects_types: tuple[str, ...] = field(default=(), converter=as_tuple)
    affects_subtypes: tuple[str, ...] = field(default=(), converter=as_tuple)
    affects_colors: tuple[str, ...] = field(default=(), converter=as_tuple)
    affects_controller: PlayerId | None = None
    affects_keyword: str | None = None
    copy_of: ObjectId | None = None
    text_from: str = ""
    text_to: str = ""
    set_types: tuple[str, ...] | None = field(default=None, converter=optional_strs)
    add_types: tuple[str, ...] = field(default=(), converter=as_tuple)
    remove_types: tuple[str, ...] = field(default=(), converter=as_tuple)
    set_subtypes: tuple[str, ...] | None = field(default=None, converter=optional_strs)
    add_subtypes: tuple[str, ...] = field(default=(), converter=as_tuple)
    remove_subtypes: tuple[str, ...] = field(default=(), converter=as_tuple)
    set_colors: tuple[str, ...] | None = field(default=None, converter=optional_strs)
    add_colors: tuple[str, ...] = field(default=(), converter=as_tuple)
    add_keywords: tuple[str, ...] = field(default=(), converter=as_tuple)
    remove_keywords: tuple[str, ...] = field(default=(), converter=as_tuple)
    lose_all_abilities: bool = False
    cda: bool = False
    set_power: int | None = None
    set_toughness: int | None = None
    power: int = 0
    toughness: int = 0
    switch: bool = False
    locked: bool = False
    source: SourceId | None = None
    duration: str = "end_of_turn"
    condition: Condition | None = None


@frozen
class Grant(Action):
    """The permanent gains keywords for a while.

    :param target: the permanent.
    :param keywords: keywords as printed (``"flying"``, ``"toxic 2"``).
    :param duration: how long (611.2).
    :param condition: for ``while``, the condition (611.2b).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "grant"
    target: ObjectId
    keywords: tuple[str, ...] = field(converter=_tuple)
    duration: str = "end_of_turn"
    condition: Condition | None = None


@frozen
class Revoke(Action):
    """The permanent loses keywords for a while.

    :param target: the permanent.
    :param keywords: keywords as printed; every instance of each is lost
        (113.10b): ``"protection from red"`` leaves ``"protection from
        white"``, ``"toxic 2"`` leaves ``"toxic 1"``; a keyword whose text
        is its family's name (``"flying"``, ``"hexproof"``) takes the
        whole family (``"hexproof from red"`` too, 702.11e).
    :param duration: how long (611.2).
    :param condition: for ``while``, the condition (611.2b).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "revoke"
    target: ObjectId
    keywords: tuple[str, ...] = field(converter=_tuple)
    duration: str = "end_of_turn"
    condition: Condition | None = None


@frozen
class GainControl(Action):
    """A player gains control of a permanent for a while (layer 2, 613.1b):
    a Threaten (``end_of_turn``) or a Control Magic (``game``, the default).

    The permanent is removed from combat (506.4: its controller changes) and
    hasn't been under its new controller's control continuously since their
    turn began (302.6). When the effect ends, control returns to the
    controller of the latest control-changing effect that still applies, or
    to the one before the first (611.2), with the same consequences.

    :param target: the permanent.
    :param player: who gains control of it.
    :param duration: how long (611.2): ``game`` (default), ``end_of_turn``,
        ``end_of_combat``, ``this_combat`` or ``while``.
    :param condition: for ``while``, the condition (611.2b).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "gain_control"
    target: ObjectId
    player: PlayerId
    duration: str = "game"
    condition: Condition | None = None


@frozen
class AddCounters(Action):
    """Put counters on a permanent (negative amounts remove them).

    :param target: the permanent.
    :param counters: counter kind -> how many.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "add_counters"
    target: ObjectId
    counters: tuple[tuple[str, int], ...] = field(converter=_counters)


@frozen
class RemoveFromCombat(Action):
    """An effect removes the permanent from combat (506.4).

    :param target: the permanent.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "remove_from_combat"
    target: ObjectId


@frozen
class LeaveBattlefield(Action):
    """The permanent leaves the battlefield (bounced, or put into a zone).

    :param target: the permanent.
    :param zone: where it goes: ``graveyard`` or ``exile`` (a bounced card is
        recorded as ``exile``: it has left the game's board either way).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "leave_battlefield"
    target: ObjectId
    zone: str = "graveyard"


@frozen
class Move(Action):
    """Move an object from its zone to any other (400.7): it becomes a new
    object (its id stays, its ``object`` number goes up), with none of its
    counters, damage, effects or combat status; from the battlefield its last
    known information is kept (603.10a); onto the battlefield it enters under
    its owner's control and summoning sick (302.6); a token that has left the
    battlefield stays where it is (111.8).

    :param target: the object, in any zone.
    :param to: the zone: ``hand``, ``library``, ``graveyard``, ``exile``,
        ``stack`` or ``battlefield``.
    :param position: in a library, ``top`` (drawn next, 401.1) or ``bottom``.
    :param counters: counter kind -> how many it enters the battlefield with
        ("return it to the battlefield with a -1/-1 counter on it",
        614.1c); only for a move onto the battlefield.
    :param tapped: onto the battlefield, it enters tapped (not "becomes
        tapped": nothing that triggers on tapping triggers).
    :param attacking: onto the battlefield, it enters attacking this player,
        planeswalker or battle (508.4, 702.49a "put onto the battlefield
        tapped and attacking"): it was never declared, so "whenever ...
        attacks" doesn't trigger (508.4c); after blockers are declared it is
        unblocked (508.4d); if it can't attack that, it enters but isn't
        attacking (508.4a).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "move"
    target: ObjectId
    to: str
    position: str = "top"
    counters: tuple[tuple[str, int], ...] = field(default=(), converter=_counters)
    tapped: bool = False
    attacking: PlayerOrObjectId | None = None


@frozen
class Draw(Action):
    """A player draws cards, one at a time: the top card of their library
    into their hand (121.1, 121.2). Drawing from an empty library, they lose
    at the next check of state-based actions (121.4, 704.5b).

    :param player: who draws.
    :param count: how many cards.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "draw"
    player: PlayerId
    count: int = 1


@frozen
class Cast(Action):
    """Cast a card from its owner's hand, and resolve it; it moves to the
    stack first (601.2a). Costs and targets are the embedding's to pay and
    check (601.2c, 601.2f-h, 608.2b).

    A permanent card then becomes a permanent and enters the battlefield
    under its caster's control (608.3a), summoning sick (302.6); without
    flash (702.8a) it is cast only in a main phase of the caster's turn with
    an empty stack (302.1, 301.1, 303.1, 306.1, 310.1).

    An instant or sorcery card resolves by its ``effects``, performed in
    order as its controller follows its instructions (608.2c), then it is
    put into its owner's graveyard (608.2n); its id names it as the source
    of what it does (a :class:`DealDamage` from it, 120.3). An instant is
    cast any time its owner has priority (117.1a, 304.1), a sorcery only in
    a main phase of its owner's turn with an empty stack (307.1). If any
    effect is illegal, the whole cast is refused.

    :param card: the card, in its owner's hand.
    :param effects: an instant's or sorcery's effects, as actions; a
        permanent card has none (608.3).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "cast"
    card: ObjectId
    effects: tuple[Action, ...] = field(default=(), converter=_actions)


@frozen
class Play(Action):
    """Play a land from its owner's hand (305.1, a special action): it enters
    the battlefield; in a main phase of its owner's turn with an empty stack,
    one land a turn (305.2).

    :param card: the land card, in its owner's hand.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "play"
    card: ObjectId


@frozen
class Destroy(Action):
    """Destroy a permanent (701.8): it goes to its owner's graveyard unless it
    is indestructible (702.12b) or a destruction replacement such as
    regeneration applies (701.19, 614.8).

    :param target: the permanent.
    :param regenerate: ``False`` for "it can't be regenerated" (701.19c).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "destroy"
    target: ObjectId
    regenerate: bool = True


@frozen
class Sacrifice(Action):
    """Its controller sacrifices a permanent (701.21a): straight to the
    graveyard; indestructible and regeneration don't apply.

    :param target: the permanent.
    :param player: the player who sacrifices it; it must be its controller
        (a player can't sacrifice what they don't control). Default: its
        controller.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "sacrifice"
    target: ObjectId
    player: PlayerId | None = None


@frozen
class Exile(Action):
    """Exile a permanent (406.3): it leaves the battlefield for exile.

    :param target: the permanent.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "exile"
    target: ObjectId


@frozen
class Regenerate(Action):
    """"Regenerate [permanent]": the next time it would be destroyed this
    turn, instead remove all damage marked on it and tap it; if it's in
    combat, remove it from combat (701.19, 614.8).

    :param target: the permanent.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "regenerate"
    target: ObjectId


@frozen
class Regenerated(Action):
    """The replacement a regeneration shield makes (701.19a): all damage is
    removed from the permanent, it is tapped and removed from combat, and the
    shield is used up. Performed by the kernel; not for scenario files.

    :param target: the permanent.
    :param shield: the regeneration shield used.
    """

    do: ClassVar[str] = "regenerated"
    target: ObjectId
    shield: str


@frozen
class CreateToken(Action):
    """Create a token (111.2): its creator owns and controls it.

    :param token: the token's characteristics, as a :class:`~redzone.Permanent`
        whose ``id`` is new and whose ``controller`` is the creating player.
    :param tapped: it enters tapped.
    :param attacking: it enters attacking this player, planeswalker or battle
        (508.4): it was never declared, so "whenever ... attacks" doesn't
        trigger and no requirement or restriction applies (508.4c). If its
        target is gone, it enters but isn't attacking (508.4a-b). Entering
        after blockers are declared, it is unblocked (508.4d).
    :param blocking: or it enters blocking this attacking creature (509.4).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "create_token"
    token: Permanent
    tapped: bool = False
    attacking: PlayerOrObjectId | None = None
    blocking: ObjectId | None = None


@frozen
class DealDamage(Action):
    """Noncombat damage, through the same pipeline as combat damage (120.2b).

    :param source: the permanent dealing it (its abilities apply), or a spell
        or ability that isn't a permanent (:class:`~redzone.StackObject`:
        its colors, controller and keywords apply, 120.3, 609.7).
    :param target: the player or permanent dealt damage; or
        :data:`~redzone.kernel.references.EACH_PLAYER` (``"each"``): each
        player still in the game, all dealt damage at once (one batch, then
        one check of state-based actions: players who all reach 0 life lose
        at once, a draw between two, 104.4a).
    :param amount: how much.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "deal_damage"
    source: SourceId | StackObject
    target: PlayerOrObjectId
    amount: int


@frozen
class Prevent(Action):
    """A prevention shield (615), this turn unless told otherwise.

    :param target: prevent damage dealt to this object or player...
    :param source: ...or damage dealt by this source.
    :param amount: the next N damage; ``"next"`` for all of the next time
        damage would be dealt; ``"all"`` for all such damage while it lasts.
    :param gain_life: a player who gains life equal to what it prevents.
    :param combat_only: prevent only combat damage.
    :param duration: how long (611.2; default ``end_of_turn``).
    :param condition: for ``while``, the condition (611.2b).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "prevent"
    target: PlayerOrObjectId | None = None
    source: SourceId | None = None
    amount: int | str = "all"
    gain_life: PlayerId | None = None
    combat_only: bool = False
    duration: str = "end_of_turn"
    condition: Condition | None = None


@frozen
class Tap(Action):
    """Tap a permanent; a combatant stays in combat (506.4b).

    :param target: the permanent.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "tap"
    target: ObjectId


@frozen
class Untap(Action):
    """Untap a permanent (506.4b).

    :param target: the permanent.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "untap"
    target: ObjectId


@frozen
class BecomeBlocked(Action):
    """An effect says an attacking creature becomes blocked (509.1h).

    :param target: the attacking creature.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "become_blocked"
    target: ObjectId


@frozen
class GainLife(Action):
    """A player gains life (119.3), as modified by replacement effects.

    :param player: the player; or
        :data:`~redzone.kernel.references.EACH_PLAYER` (``"each"``): each
        player still in the game, at once, in APNAP order (101.4).
    :param amount: how much.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "gain_life"
    player: PlayerId
    amount: int


@frozen
class LoseLife(Action):
    """A player loses life (119.3).

    :param player: the player; or
        :data:`~redzone.kernel.references.EACH_PLAYER` (``"each"``): each
        player still in the game, at once (one command, then one check of
        state-based actions: two players who both reach 0 life lose at
        once, a draw, 104.4a).
    :param amount: how much.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "lose_life"
    player: PlayerId
    amount: int


@frozen
class AddEffect(Action):
    """A continuous effect starts to apply (611.2): for instance provoke's
    "blocks this creature if able" (an :class:`~redzone.Effect` of kind
    ``blocks_if_able``). Its duration is the effect's own.

    :param effect: the effect.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "add_effect"
    effect: Effect


@frozen
class RemoveEffect(Action):
    """A continuous effect ends now (611.2).

    :param effect: the id of the effect (``state.effects``, or
        ``state.continuous``: the layers are applied again without it).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "remove_effect"
    effect: str


@frozen
class CreateDelayedTrigger(Action):
    """Create a delayed triggered ability (603.7a): "at end of combat,
    sacrifice it"; "at the beginning of the next end step, sacrifice them";
    "when that creature leaves the battlefield, ...".

    Its source and controller are those of the spell or ability creating it
    (603.7d-e), or those given here.

    :param when: ``end_of_combat``, ``end_step``, ``cleanup`` or ``leaves``.
    :param actions: what it does when it resolves.
    :param kind: its name, for the account.
    :param text: what it does, for the account.
    :param object: for ``leaves``: the permanent it watches.
    :param source: its source, when not created by a resolving ability.
    :param controller: its controller, likewise.
    :param rule: the rule behind it.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "create_delayed_trigger"
    when: str
    actions: tuple[Action, ...] = field(converter=_actions)
    kind: str = "delayed"
    text: str = ""
    object: ObjectId | None = None
    source: AnyId | None = None
    controller: PlayerId | None = None
    rule: str = "603.7"


@frozen
class AddTrigger(Action):
    """Give a permanent a triggered ability written as data (603.1):
    "whenever <event>, <actions>" (:class:`~redzone.kernel.model.WrittenTrigger`).
    It triggers each time an event of kind ``when`` with the ``match`` values
    happens (603.2), until the game ends or its source leaves the battlefield.

    :param when: the kind of event it triggers on (``"dies"``, ``"attack"``...).
    :param source: the permanent whose ability it is (on the battlefield).
    :param actions: what it does as it resolves (608.2).
    :param controller: its controller; default: the source's controller.
    :param match: event field -> the value it must have; ``"self"`` is the source.
    :param text: what it does, for the account.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "add_trigger"
    when: str
    source: ObjectId
    actions: tuple[Action, ...] = field(converter=_actions)
    controller: PlayerId | None = None
    match: FrozenMap[str, str] = field(default=EMPTY, converter=as_map)
    text: str = ""


@frozen
class SetState(Action):
    """Set the acting plugin's own slot of the state.

    :param value: frozen data (lists become tuples, mappings FrozenMaps).
    :param scope: ``game``, ``turn`` or ``combat`` (when the kernel clears it).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "set_state"
    value: Any
    scope: str = "game"


@frozen
class MakeBlock(Action):
    """An effect makes a creature block an attacking creature (509.3a-b;
    509.6 of 2009-2024): it becomes a blocking creature and the attacker
    becomes blocked, and so does each other creature of the attacker's band
    (702.22h). Requirements and restrictions on declaring blockers don't
    apply (509.4b). A creature removed from combat this combat isn't made
    to block again (506.4).

    :param blocker: the creature, controlled by a defending player of the
        attacker (else the effect does nothing: 506.3e, 509.4a).
    :param attacker: the attacking creature it blocks.
    :param position: where the active player places it in the attacker's
        damage assignment order, where there are orders (0 = first);
        ``None`` = last.
    :param attacker_position: where the defending player places the
        attacker in its damage assignment order, where there are orders
        (0 = first); ``None`` = last (509.6).

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.1.0 ``attacker_position``.
    """

    do: ClassVar[str] = "block"
    blocker: ObjectId
    attacker: ObjectId
    position: int | None = None
    attacker_position: int | None = None


@frozen
class EnterBlocking(Action):
    """A creature is put onto the battlefield blocking an attacking creature
    (509.4, 509.7): a Flash Foliage token.

    :param permanent: the new permanent (its id must be new).
    :param attacker: the attacking creature it blocks.
    :param position: its place in the attacker's damage assignment order.

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "enter_blocking"
    permanent: Permanent
    attacker: ObjectId
    position: int | None = None


@frozen
class EnterAttacking(Action):
    """A permanent (a card, not a token: a Preeminent Captain's soldier) is
    put onto the battlefield attacking (508.4): it was never declared, so
    "whenever ... attacks" doesn't trigger and no requirement or restriction
    on attacking applies (508.4c); its controller owns it and it entered this
    turn (302.6). If what it would attack is gone, or its controller isn't an
    attacking player, it enters but isn't attacking (506.3b, 508.4a).
    Entering after blockers are declared, it is unblocked (508.4d).

    :param permanent: the new permanent (its id must be new).
    :param attacking: the player, planeswalker or battle it attacks.
    :param tapped: it enters tapped ("tapped and attacking").

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "enter_attacking"
    permanent: Permanent
    attacking: PlayerOrObjectId
    tapped: bool = False


# -- how each is performed ------------------------------------------------------------


def _amount(value: object, action: str, what: str = "amount") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalActionError(f"{action}: {what} must be a whole number, 0 or more, "
                                 f"not {value!r}", rule="107.1")
    return value


def _modify(tx: Tx, target: str, mod: Modification, do: str) -> bool:
    """Give ``target`` the modification, unless its "for as long as" never
    starts (611.2b: it does nothing).

    :returns: whether it started.
    """
    tx.permanent(target, do)
    if not starts(tx, mod.duration, mod.condition, do):
        return False
    tx.modify(target, mod)
    return True


_UNTIL = {"end_of_turn": "until end of turn", "end_of_combat": "until end of combat",
          "this_combat": "this combat", "while": "for as long as", "game": ""}


def _until(duration: str, condition: Condition | None) -> str:
    words = _UNTIL.get(duration, duration)
    if duration == "while" and condition is not None:
        words = condition.text or f"for as long as {condition.kind}"
    return f" {words}" if words else ""


def _pump(tx: Tx, a: Pump) -> None:
    mod = Modification(power=a.power, toughness=a.toughness, source="pump",
                       duration=a.duration, condition=a.condition)
    if not _modify(tx, a.target, mod, a.do):
        return
    tx.emit(Event.make("pump", "611.2", target=a.target, power=a.power, toughness=a.toughness,
                       duration=a.duration,
                       until=_until(a.duration, a.condition).strip() if a.condition else None))


def _grant(tx: Tx, a: Grant) -> None:
    tx.permanent(a.target, a.do)
    kws = tuple(tx.hooks.parse_keyword(k) for k in a.keywords)
    if not _modify(tx, a.target, Modification(add_keywords=kws, duration=a.duration,
                                              condition=a.condition), a.do):
        return
    tx.emit(Event.make("grant", "613.1f", target=a.target, keywords=tuple(k.text for k in kws),
                       duration=a.duration))


def _revoke(tx: Tx, a: Revoke) -> None:
    tx.permanent(a.target, a.do)
    # each ability by its text: every instance of it is lost (113.10b)
    texts = tuple(tx.hooks.parse_keyword(k).text for k in a.keywords)
    if not _modify(tx, a.target, Modification(remove_keywords=texts, duration=a.duration,
                                              condition=a.condition), a.do):
        return
    tx.emit(Event.make("revoke", "613.1f", target=a.target, keywords=texts,
                       duration=a.duration))


def _add_continuous(tx: Tx, a: AddContinuous) -> None:
    values = {f.name: getattr(a, f.name) for f in attrs_fields(AddContinuous)}
    values["add_keywords"] = tuple(tx.hooks.parse_keyword(k) for k in a.add_keywords)
    values["remove_keywords"] = tuple(tx.hooks.parse_keyword(k).text  # 113.10b
                                      for k in a.remove_keywords)
    effect = ContinuousEffect(**values)
    _layers.check_colors(effect, a.do)
    if not effect.layers():
        raise IllegalActionError("continuous: the effect changes nothing: give what it "
                                 "does in some layer (613.1)", rule="613.1")
    for obj in (*a.affects, *((a.copy_of,) if a.copy_of else ())):
        tx.permanent(obj, a.do)
    if starts(tx, effect.duration, effect.condition, "continuous"):  # 611.2b: else nothing
        _start_continuous(tx, effect)


def _start_continuous(tx: Tx, effect: ContinuousEffect) -> str:
    """A continuous effect that modifies characteristics starts to apply
    (611.2, 613): it gets the next timestamp (613.7a) and an id; one from a
    resolving spell or ability (``locked``) has the set of objects it
    affects fixed now (611.2c), and the objects it affects by id are noted
    by their numbers (``numbers``, 400.7). The layers are applied at once,
    so that what the spell or ability does next sees it (608.2c; its
    duration checked by the caller)."""
    stamp = tx.state.timestamp + 1
    taken = {e.id for e in tx.state.continuous}
    if effect.id and effect.id in taken:
        raise IllegalActionError(f"continuous: an effect {effect.id!r} already applies",
                                 rule="611.2", objects=(effect.id,))
    ident = effect.id or next(f"c{n}" for n in range(stamp, stamp + len(taken) + 2)
                              if f"c{n}" not in taken)
    changes: dict[str, Any] = {"id": ident, "timestamp": stamp}
    if effect.condition is not None and effect.condition.number is None:
        changes["condition"] = numbered(tx, effect.condition)  # (400.7)
    affects = effect.affects
    if effect.locked and not affects:
        chars, _ = _layers.characteristics(tx.state)
        affects = changes["affects"] = tuple(sorted(_layers.affected(
            effect.evolve(locked=False), chars)))
    if affects and not effect.numbers:  # the objects they are now (400.7)
        now = [tx._now(obj) for obj in affects]
        changes["numbers"] = tuple(p.object if p is not None else 0 for p in now)
    effect = effect.evolve(**changes)
    tx._set(timestamp=stamp, continuous=(*tx._field("continuous"), effect))
    tx.emit(Event.make("continuous", "613.1", object=ident, source=effect.source,
                       layers=effect.layers(), affects=effect.affects or None))
    # 608.2c: the instructions after it see it (the layers applied now, not
    # only as the command settles)
    apply_layers(tx)
    return ident


def _gain_control(tx: Tx, a: GainControl) -> None:
    perm = tx.permanent(a.target, a.do)
    player = tx.state.players.get(a.player)
    if player is None:
        raise IllegalActionError(f"gain_control: {a.player!r} is not a player in the game",
                                 rule="800.4a", objects=(a.target,))
    if player.lost:
        raise IllegalActionError(f"gain_control: {a.player!r} has left the game: nothing "
                                 "changes to their control", rule="800.4b", objects=(a.target,))
    if not starts(tx, a.duration, a.condition, a.do):
        return  # 611.2b: it does nothing
    mod = Modification(source="control", duration=a.duration, condition=a.condition,
                       controller=a.player, control_from=perm.controller)
    tx.modify(a.target, mod)
    change_control(tx, a.target, a.player, "613.1b")


def _add_counters(tx: Tx, a: AddCounters) -> None:
    perm = tx.permanent(a.target, a.do)
    counters = perm.counters.thaw()
    events = []
    for kind, n in a.counters:
        if not isinstance(n, int) or isinstance(n, bool):
            raise IllegalActionError(f"add_counters: {n!r} {kind} counters is not a "
                                     "whole number", rule="122.1", objects=(perm.id,))
        had = counters.get(kind, 0)
        counters[kind] = max(0, had + n)
        # the change made: removing more than there are removes what there is
        events.append(Event("counters", "122.1", target=perm.id, counter=kind,
                            amount=counters[kind] - had))
    tx.put(perm.evolve(counters=counters))
    tx.emit(*events)


def _tap(tx: Tx, a: Tap) -> None:
    perm = tx.permanent(a.target, a.do)
    tx.put(perm.evolve(tapped=True))
    tx.emit(Event("tap", "701.26a", object=perm.id))


def _untap(tx: Tx, a: Untap) -> None:
    perm = tx.permanent(a.target, a.do)
    tx.put(perm.evolve(tapped=False))
    tx.emit(Event("untap", "701.26b", object=perm.id))


def _remove_from_combat(tx: Tx, a: RemoveFromCombat) -> None:
    tx.permanent(a.target, a.do)
    tx.remove_from_combat(a.target, "506.4")


def _leave(tx: Tx, a: LeaveBattlefield) -> None:
    tx.permanent(a.target, a.do)
    if a.zone not in ("graveyard", "exile"):
        raise IllegalActionError(f"leave_battlefield: zone must be 'graveyard' or 'exile', "
                                 f"not {a.zone!r}", rule="400.1")
    tx.move(a.target, a.zone, "400.7")


def _move(tx: Tx, a: Move) -> None:
    state = tx.state
    if not isinstance(a.target, str) or a.target not in state.objects:
        raise IllegalActionError(f"move: there is no object {a.target!r}"
                                 f"{did_you_mean(a.target, state.objects)}", rule="400.1",
                                 objects=(a.target if isinstance(a.target, str) else "",))
    if a.to not in ZONES:
        raise IllegalActionError(f"move: {a.to!r} is not a zone; the zones are "
                                 f"{', '.join(ZONES)}", rule="400.1", objects=(a.target,))
    if a.position not in POSITIONS:
        raise IllegalActionError(f"move: position must be 'top' or 'bottom', not "
                                 f"{a.position!r}", rule="401.1", objects=(a.target,))
    perm = state.objects[a.target]
    if perm.zone == "left_game":
        raise IllegalActionError(f"move: {a.target!r} is no longer in the game: it left the "
                                 f"game with its owner {perm.owner!r}", rule="800.4a",
                                 objects=(a.target, perm.owner))
    if perm.zone not in ZONES:  # ceased (111.7)
        raise IllegalActionError(f"move: {a.target!r} is no longer in the game "
                                 f"({perm.zone})", rule="400.1", objects=(a.target,))
    if a.to in _zones.ENTERS_UNDER_OWNER and a.to != perm.zone \
            and _zones.has_left(state, perm.owner):
        raise IllegalActionError(f"move: {a.target!r} can't be put onto the {a.to} under the "
                                 f"control of its owner {perm.owner!r}, who has left the "
                                 "game: it remains in its current zone", rule="800.4b",
                                 objects=(a.target, perm.owner))
    entering = [what for what, given in (("counters", a.counters), ("tapped", a.tapped),
                                         ("attacking", a.attacking is not None)) if given]
    if entering and a.to != "battlefield":
        raise IllegalActionError(f"move: only an object put onto the battlefield enters with "
                                 f"{' or '.join(entering)}, not one put into the {a.to}",
                                 rule="614.1c" if "counters" in entering else "508.4",
                                 objects=(a.target,))
    for kind, n in a.counters:
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise IllegalActionError(f"move: {n!r} {kind} counters is not a positive whole "
                                     "number", rule="122.1", objects=(a.target,))
    new, events = _zones.move_object(state, a.target, a.to, "400.7", state.step,
                                     top=a.position == "top")
    entered = new.objects[a.target]
    if a.counters and entered.zone == "battlefield" and entered is not state.objects[a.target]:
        # 614.1c: it enters with them (not put on it after it entered).
        counters = entered.counters.thaw()
        for kind, n in a.counters:
            counters[kind] = counters.get(kind, 0) + n
            events.append(Event("counters", "614.1c", target=a.target, counter=kind, amount=n))
        new = new.with_permanents({a.target: entered.evolve(counters=counters)})
    if a.tapped and entered.zone == "battlefield" and entered is not state.objects[a.target]:
        new = new.with_permanents({a.target: new.objects[a.target].evolve(tapped=True)})
    tx._take(new, events)
    if a.attacking is not None and new.objects[a.target].zone == "battlefield" \
            and entered is not state.objects[a.target]:
        _attacks_on_entering(tx, new.objects[a.target], a.attacking, False)


def _draw(tx: Tx, a: Draw) -> None:
    player = tx.player(a.player, a.do)
    count = _amount(a.count, a.do, "count")
    for _ in range(count):
        state = tx.state
        if state.players[player].drew_from_empty:
            break  # (it makes no difference: the player loses at the next check)
        new, events = _zones.draw(state, player, state.step)
        tx._take(new, events)


def _card(tx: Tx, card: object, doing: str) -> str:
    objects = tx.state.objects
    if not isinstance(card, str) or card not in objects:
        raise IllegalActionError(f"{doing}: there is no card {card!r}"
                                 f"{did_you_mean(card, objects)}", rule="400.1",
                                 objects=(card if isinstance(card, str) else "",))
    return card


def _cast(tx: Tx, a: Cast) -> None:
    card = _card(tx, a.card, a.do)
    state = tx.state
    perm = state.objects[card]
    flash = "flash" in perm.keyword_names  # 702.8a
    if not perm.types & _zones.SPELL_TYPES:
        if a.effects:
            raise IllegalActionError(f"cast: {card!r} is a permanent card: it resolves by "
                                     "entering the battlefield, with no effects of its own "
                                     "(give effects to an instant or sorcery)", rule="608.3",
                                     objects=(card,))
        new, events = _zones.cast(state, card, state.step, flash=flash)
        tx._take(new, events)
        return
    new, events = _zones.cast_spell(state, card, state.step, flash=flash)
    tx._take(new, events)
    source, controller = tx.source, tx.controller
    tx.source, tx.controller = card, perm.owner  # 603.7d-e: what it creates is its
    try:
        for effect in a.effects:  # 608.2c: in the order written
            tx.perform(effect)
    finally:
        tx.source, tx.controller = source, controller
    new, events = _zones.spell_resolved(tx.state, card, tx.state.step)
    tx._take(new, events)


def _play(tx: Tx, a: Play) -> None:
    card = _card(tx, a.card, a.do)
    state = tx.state
    new, events = _zones.play_land(state, card, state.step)
    tx._take(new, events)


def _destroy(tx: Tx, a: Destroy) -> None:
    tx.permanent(a.target, a.do)
    tx.destroy(a.target, "701.8a", regenerate=a.regenerate)


def _sacrifice(tx: Tx, a: Sacrifice) -> None:
    perm = tx.permanent(a.target, a.do)
    if a.player is not None and a.player != perm.controller:
        raise IllegalActionError(f"sacrifice: {a.player!r} can't sacrifice {a.target!r}, which "
                                 f"{perm.controller!r} controls", rule="701.21a",
                                 objects=(a.target, a.player))
    tx.emit(Event("sacrificed", "701.21a", object=a.target, player=perm.controller))
    tx.move(a.target, "graveyard", "701.21a")


def _exile(tx: Tx, a: Exile) -> None:
    tx.permanent(a.target, a.do)
    tx.move(a.target, "exile", "406.3")


def _regenerate(tx: Tx, a: Regenerate) -> None:
    tx.permanent(a.target, a.do)
    sid = tx.add_shield(Shield(id="", to=a.target, mode="regenerate"))
    tx.emit(Event.make("shield", "701.19a", target=a.target, mode="regenerate", shield=sid))


def _regenerated(tx: Tx, a: Regenerated) -> None:
    perm = tx.permanent(a.target, a.do)
    state = tx.state
    shields = tuple(s for s in state.shields if s.id != a.shield)
    tx._set(shields=shields)
    tx.put(perm.evolve(damage=0, tapped=True))
    tx.emit(Event.make("regenerated", "701.19a", object=a.target, shield=a.shield))
    if state.combat is not None and state.combat.in_combat(a.target):
        tx.remove_from_combat(a.target, "701.19a")


def _create_token(tx: Tx, a: CreateToken) -> None:
    if not isinstance(a.token, Permanent):
        raise IllegalActionError(f"create_token: {a.token!r} is not a Permanent", rule="111.2")
    tx.create(a.token.evolve(token=True), rule="111.2", tapped=a.tapped, attacking=a.attacking,
              blocking=a.blocking)


def _add_source(tx: Tx, source: StackObject) -> str:
    """Record the spell or ability a :class:`DealDamage` names as its source
    (120.3, 609.7).

    :raises IllegalActionError: when its id is a permanent's or a
        player's, or another source's with other characteristics.
    """
    state = tx.state
    if source.id in state.objects or source.id in state.players:
        raise IllegalActionError(f"deal_damage: the source id {source.id!r} is a "
                                 "permanent's or a player's", rule="120.3",
                                 objects=(source.id,))
    tx.player(source.controller, "deal_damage")
    keywords = tuple(tx.hooks.parse_keyword(k) for k in source.printed_keywords)
    source = source.evolve(printed_keywords=keywords)
    known = state.sources.get(source.id)
    if known is not None and known != source:
        raise IllegalActionError(f"deal_damage: the source id {source.id!r} already names "
                                 "another spell or ability", rule="120.3",
                                 objects=(source.id,))
    if known is None:
        tx._set(sources=state.sources.set(source.id, source))
    return source.id


def _deal_damage(tx: Tx, a: DealDamage) -> None:
    state = tx.state
    source: str
    if isinstance(a.source, StackObject):
        source = a.source.id
    else:
        source = a.source
        if source not in state.objects and source not in state.sources:
            raise IllegalActionError(f"deal_damage: there is no source {source!r}",
                                     rule="120.7", objects=(source,))
    targets = _each(tx, a.target, a.do)
    if targets is None:
        targets = (a.target,)
        if a.target not in state.players:
            tx.permanent(a.target, a.do)
    amount = _amount(a.amount, a.do)
    if isinstance(a.source, StackObject):
        _add_source(tx, a.source)
    step = tx.state.step
    tx.deal_damage([Damage(source, t, amount, False, step) for t in targets])


def _prevent(tx: Tx, a: Prevent) -> None:
    state = tx.state
    if (a.target is None) == (a.source is None):
        raise IllegalActionError("prevent: give exactly one of target and source", rule="615.1")
    for obj in (a.target, a.source):
        if obj is not None and obj not in state.players and obj not in state.objects \
                and obj not in state.sources:
            raise IllegalActionError(f"prevent: there is no object or player {obj!r}",
                                     rule="615.1", objects=(obj,))
    if a.gain_life is not None:
        tx.player(a.gain_life, a.do)
    amount: int | None
    if a.amount in ("next", "all"):
        mode, amount = str(a.amount), None
    else:
        mode, amount = "amount", _amount(a.amount, a.do)
    # The account names shields shield-1, shield-2 ... (ids stay unique).
    taken = {s.id for s in state.shields}
    n = len(state.shields) + 1
    while f"shield-{n}" in taken:
        n += 1
    shield = Shield(id=f"shield-{n}", to=a.target, source=a.source, amount=amount, mode=mode,
                    gain_life=a.gain_life, combat_only=a.combat_only, duration=a.duration,
                    condition=a.condition)
    if not starts(tx, a.duration, a.condition, a.do):
        return  # 611.2b: it does nothing
    tx.add_shield(shield)
    tx.emit(Event.make("shield", "615.1", target=a.target, source=a.source, amount=amount,
                       mode=mode, shield=shield.id))


def _become_blocked(tx: Tx, a: BecomeBlocked) -> None:
    tx.permanent(a.target, a.do)
    state = tx.state
    combat = state.combat
    if combat is None or a.target not in combat.attacks:
        raise IllegalActionError(f"become_blocked: {a.target!r} is not an attacking "
                                 "creature", rule="509.1h", objects=(a.target,))
    if not combat.blocks and state.step in ("beginning_of_combat", "declare_attackers"):
        raise IllegalActionError("become_blocked: blockers have not been declared yet",
                                 rule="509.1h", objects=(a.target,))
    # 702.22i: if one member of a band would become blocked, the band does.
    band = [m for m in combat.band_of(a.target) if m in combat.attacks]
    newly = [m for m in band if m not in combat.blocked]
    if not newly:
        return  # 509.1h: it stays blocked; it doesn't "become blocked" (509.3c)
    tx._set(combat=combat.evolve(blocked=combat.blocked | set(newly)))
    tx.emit(*(Event("blocked", "509.1h" if m == a.target else "702.22i", object=m)
              for m in newly))


def _each(tx: Tx, player: object, doing: str) -> tuple[str, ...] | None:
    """For :data:`EACH_PLAYER` (and no player of that id), the players still
    in the game in APNAP order from the active player (101.4); else ``None``.

    :raises IllegalActionError: (104.2a) when no player is left.
    """
    state = tx.state
    if player != EACH_PLAYER or player in state.players:
        return None
    found = tuple(p for p in state.apnap() if not state.players[p].lost)
    if not found:
        raise IllegalActionError(f"{doing}: no player is left in the game", rule="104.2a")
    return found


def _gain_life(tx: Tx, a: GainLife) -> None:
    players = _each(tx, a.player, a.do) or (tx.player(a.player, a.do),)
    amount = _amount(a.amount, a.do)
    for player in players:  # (from the resolving ability's source, if any: 119.3)
        tx.gain_life(player, amount, tx.source or "", "119.3")


def _lose_life(tx: Tx, a: LoseLife) -> None:
    players = _each(tx, a.player, a.do) or (tx.player(a.player, a.do),)
    amount = _amount(a.amount, a.do)
    for player in players:  # (from the resolving ability's source, if any: 119.3)
        tx.lose_life(player, amount, tx.source or "", "119.3")


def _add_effect(tx: Tx, a: AddEffect) -> None:
    if not isinstance(a.effect, Effect):
        raise IllegalActionError(f"add_effect: {a.effect!r} is not an Effect", rule="611.2")
    if effect_amount_past(a.effect):
        lo, hi = STATE_BOUNDS["Effect.amount"]
        raise IllegalActionError(f"add_effect: amount {a.effect.amount:,} is not a number of "
                                 f"things ({lo:,} to {hi:,})", rule="107.1")
    if not starts(tx, a.effect.duration, a.effect.condition, a.do):
        return  # 611.2b: it does nothing
    tx.add_effect(a.effect)


def _remove_effect(tx: Tx, a: RemoveEffect) -> None:
    if any(e.id == a.effect for e in tx.state.continuous):  # one of the layer system's
        end_effects(tx, lambda _duration, _condition: False, "611.2", removed=a.effect)
        return
    if not tx.remove_effect(a.effect):
        ids = ", ".join([*(e.id for e in tx.state.effects),
                         *(e.id for e in tx.state.continuous)]) or "none"
        raise IllegalActionError(f"remove_effect: there is no effect {a.effect!r} (effects: "
                                 f"{ids})", rule="611.2", objects=(a.effect,))


def _delayed(tx: Tx, a: CreateDelayedTrigger) -> None:
    source = a.source or tx.source
    controller = a.controller or tx.controller
    if source is None or controller is None:
        raise IllegalActionError("create_delayed_trigger: give its source and controller "
                                 "(603.7d-e: those of the spell or ability that creates it)",
                                 rule="603.7d")
    tx.player(controller, a.do)
    tx.add_delayed(DelayedTrigger(when=a.when, kind=a.kind, source=source,
                                  controller=controller, rule=a.rule, text=a.text,
                                  actions=a.actions, object=a.object))


def _add_trigger(tx: Tx, a: AddTrigger) -> None:
    perm = tx.permanent(a.source, a.do)
    if not isinstance(a.when, str) or a.when not in _events.kinds():
        raise IllegalActionError(f"add_trigger: {a.when!r} is not a kind of event"
                                 f"{did_you_mean(str(a.when), _events.kinds())}",
                                 rule="603.1", objects=(a.source,))
    if a.controller is not None:
        tx.player(a.controller, a.do)
    for action in a.actions:
        if tx.hooks.action_spec(action) is None:
            raise IllegalActionError(f"add_trigger: {action!r} is not an action of a declared "
                                     "kind", rule="603.1", objects=(a.source,))
    state = tx.state
    written = WrittenTrigger(a.when, a.source, a.actions, a.controller, a.match, a.text,
                             id=f"w{len(state.written) + 1}", object=perm.object)
    tx._set(written=(*state.written, written))
    tx.emit(Event.make("trigger_added", "603.1", source=a.source, object=written.id,
                       text=a.text or f"whenever {a.when}"))


def _set_state(tx: Tx, a: SetState) -> None:
    tx.set_state(a.value, a.scope)


def _make_block_action(tx: Tx, a: MakeBlock) -> None:
    tx.permanent(a.blocker, a.do)
    state = tx.state
    if state.combat is not None and state.step in ("beginning_of_combat", "declare_attackers"):
        raise IllegalActionError(  # there are no blockers before 509.1 declares them
            f"{a.blocker!r} can't be made to block in the {state.step} step: blockers are "
            "declared in the declare blockers step", rule="509.1",
            objects=(a.blocker, a.attacker))
    new, events = _combat.make_block(state, a.blocker, a.attacker, a.position, "509.3b",
                                     orders=tx.context.edition.assignment_orders,
                                     attacker_position=a.attacker_position)
    tx._take(new, events)  # (the events carry the plain step: emit labels them)


def _enter_blocking(tx: Tx, a: EnterBlocking) -> None:
    if not isinstance(a.permanent, Permanent):
        raise IllegalActionError(f"enter_blocking: {a.permanent!r} is not a Permanent",
                                 rule="509.4")
    tx.create(a.permanent, rule="509.4", blocking=a.attacker, position=a.position)


def _enter_attacking(tx: Tx, a: EnterAttacking) -> None:
    if not isinstance(a.permanent, Permanent):
        raise IllegalActionError(f"enter_attacking: {a.permanent!r} is not a Permanent",
                                 rule="508.4")
    tx.create(a.permanent, rule="508.4", tapped=a.tapped, attacking=a.attacking)


def _spec(cls: type[Action], apply: Any, rule: str) -> ActionSpec:
    doc = (cls.__doc__ or "").strip().splitlines()
    return ActionSpec(cls, apply, rule, doc[0] if doc else "")


#: The kernel's action kinds, by their scenario name.
CORE_SPECS: tuple[ActionSpec, ...] = (
    _spec(Pump, _pump, "611.2"),
    _spec(Grant, _grant, "613.1f"),
    _spec(Revoke, _revoke, "613.1f"),
    _spec(GainControl, _gain_control, "613.1b"),
    _spec(AddContinuous, _add_continuous, "613.1"),
    _spec(AddCounters, _add_counters, "122.1"),
    _spec(RemoveFromCombat, _remove_from_combat, "506.4"),
    _spec(LeaveBattlefield, _leave, "400.7"),
    _spec(Move, _move, "400.7"),
    _spec(Draw, _draw, "121.1"),
    _spec(Cast, _cast, "601.2a"),
    _spec(Play, _play, "305.1"),
    _spec(Destroy, _destroy, "701.8"),
    _spec(Sacrifice, _sacrifice, "701.21"),
    _spec(Exile, _exile, "406.3"),
    _spec(Regenerate, _regenerate, "701.19"),
    _spec(Regenerated, _regenerated, "701.19a"),
    _spec(CreateToken, _create_token, "111.2"),
    _spec(DealDamage, _deal_damage, "120.2b"),
    _spec(Prevent, _prevent, "615.1"),
    _spec(Tap, _tap, "701.26a"),
    _spec(Untap, _untap, "701.26b"),
    _spec(BecomeBlocked, _become_blocked, "509.1h"),
    _spec(GainLife, _gain_life, "119.3"),
    _spec(LoseLife, _lose_life, "119.3"),
    _spec(AddEffect, _add_effect, "611.2"),
    _spec(RemoveEffect, _remove_effect, "611.2"),
    _spec(CreateDelayedTrigger, _delayed, "603.7"),
    _spec(AddTrigger, _add_trigger, "603.1"),
    _spec(SetState, _set_state, "611.2"),
    _spec(MakeBlock, _make_block_action, "509.3b"),
    _spec(EnterBlocking, _enter_blocking, "509.4"),
    _spec(EnterAttacking, _enter_attacking, "508.4"),
    _spec(Activate, activate_action, "602.2"),
)

#: The kernel's action classes by their scenario name.
ACTIONS: dict[str, type[Action]] = {spec.cls.do: spec.cls for spec in CORE_SPECS}


__all__ = [
    "ACTIONS",
    "CORE_SPECS",
    "Action",
    "AddContinuous",
    "AddCounters",
    "AddEffect",
    "AddTrigger",
    "BecomeBlocked",
    "Cast",
    "CreateDelayedTrigger",
    "CreateToken",
    "DealDamage",
    "Destroy",
    "Draw",
    "EnterAttacking",
    "EnterBlocking",
    "Exile",
    "GainControl",
    "GainLife",
    "Grant",
    "Keyword",
    "LeaveBattlefield",
    "LoseLife",
    "MakeBlock",
    "Move",
    "Play",
    "Prevent",
    "Pump",
    "Regenerate",
    "Regenerated",
    "RemoveEffect",
    "RemoveFromCombat",
    "Revoke",
    "Sacrifice",
    "SetState",
    "Tap",
    "Untap",
    "Violation",
]
