"""Events: everything that happens produces one, with its rule number.

A caller can print a full account from the events alone, and an embedding
engine can fire its own triggers from them. Events are announced only after the
command that made them has committed.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from redzone.kernel import display as _display

#: The JSON keys of :class:`Event`, in the order they are written.
_FIELDS = ("attacker", "blocker", "source", "target", "player", "object", "amount",
           "combat", "counter", "detail")


class Event(NamedTuple):
    """One thing that happened.

    :param kind: ``attack``, ``block``, ``tap``, ``damage``, ``prevented``,
        ``life_loss``, ``life_gain``, ``poison``, ``counters``, ``loyalty``,
        ``defense``, ``destroyed``, ``dies``, ``put_into_graveyard``, ``lost``,
        ``removed_from_combat``, ``blocked``, ``step``, ``assignment``,
        ``create`` (a token entered the battlefield: object, player, source) ...
    :param rule: the rule that made it happen.
    :param step: the step it happened in.
    :param attacker: the attacking creature (``attack``, ``block``).
    :param blocker: the blocking creature (``block``).
    :param source: the source (damage, prevention, results).
    :param target: the object or player affected.
    :param player: the player affected (life, poison, loss).
    :param object: the object affected (zone changes, taps).
    :param amount: how much.
    :param combat: whether damage is combat damage.
    :param counter: the kind of counter (``counters`` events).
    :param detail: free text for the account.
    """

    kind: str
    rule: str
    step: str = ""
    attacker: str | None = None
    blocker: str | None = None
    source: str | None = None
    target: str | None = None
    player: str | None = None
    object: str | None = None
    amount: int | None = None
    combat: bool | None = None
    counter: str | None = None
    detail: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The event as the JSON outcome writes it: ``step``, ``kind``, ``rule``
        and every field that is set."""
        out: dict[str, Any] = {"step": self.step, "kind": self.kind, "rule": self.rule}
        for name in _FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def __repr__(self) -> str:
        return _display.event_repr(self)

    def __str__(self) -> str:
        return _display.event_text(self)


# Positional builders for the events a combat makes by the hundred: a
# NamedTuple built with keywords runs a Python-level __new__; these build the
# same tuples at C speed. Field order: kind, rule, step, attacker, blocker,
# source, target, player, object, amount, combat, counter, detail.
_tuple_new = tuple.__new__


def object_event(kind: str, rule: str, step: str, obj: str) -> Event:
    """``Event(kind, rule, step, object=obj)``."""
    return _tuple_new(Event, (kind, rule, step, None, None, None, None, None, obj, None, None,
                              None, None))


def attack_event(rule: str, step: str, attacker: str, target: str | None) -> Event:
    """``Event("attack", rule, step, attacker=attacker, target=target)``."""
    return _tuple_new(Event, ("attack", rule, step, attacker, None, None, target, None, None,
                              None, None, None, None))


def block_event(rule: str, step: str, blocker: str, attacker: str) -> Event:
    """``Event("block", rule, step, blocker=blocker, attacker=attacker)``."""
    return _tuple_new(Event, ("block", rule, step, attacker, blocker, None, None, None, None,
                              None, None, None, None))


def damage_event(kind: str, rule: str, step: str, source: str, target: str, amount: int,
                 combat: bool | None = None) -> Event:
    """``Event(kind, rule, step, source=source, target=target, amount=amount,
    combat=combat)`` (``damage``, ``assign``)."""
    return _tuple_new(Event, (kind, rule, step, None, None, source, target, None, None, amount,
                              combat, None, None))
