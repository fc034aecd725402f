"""Events: everything that happens produces one, with its rule number.

A caller can print a full account from the events alone, and an embedding
engine can fire its own triggers from them. Events are announced only after the
command that made them has committed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

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

    .. versionadded:: 0.1.0
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
        return event_repr(self)

    def __str__(self) -> str:
        return event_text(self)


# -- the one line each event shows (its phrase) ---------------------------------

#: Events about one object, as a verb.
_VERBS = {"destroyed": "is destroyed", "dies": "dies", "tap": "becomes tapped",
          "untap": "untaps", "removed_from_combat": "is removed from combat",
          "blocked": "is blocked", "unblocked": "is unblocked",
          "put_into_graveyard": "is put into its owner's graveyard"}


def _same(obj: str | None) -> str:
    return str(obj)


def event_text(event: Event, name: Callable[[str | None], str] = _same, *,
               rule: bool = True) -> str:
    """One line for an event and its rule:
    ``wurm deals 6 combat damage to bob [510.2]``.

    :param name: shows an id (default: the id itself).
    :param rule: end with the rule in brackets.
    """
    k, n = event.kind, event.amount
    named: dict[str, Any] = {f: name(getattr(event, f)) for f in
                             ("attacker", "blocker", "source", "target", "player", "object")
                             if getattr(event, f) is not None}
    event = event._replace(**named)
    if k == "attack":
        s = f"{event.attacker} attacks {event.target}"
    elif k == "block":
        s = f"{event.blocker} blocks {event.attacker}"
    elif k == "damage":
        s = (f"{event.source} deals {n} {'combat ' if event.combat else ''}damage to "
             f"{event.target}")
    elif k == "assign":
        s = f"{event.source} assigns {n} damage to {event.target}"
    elif k == "prevented":
        s = f"{n} damage from {event.source} to {event.target} is prevented"
    elif k == "redirected":
        s = f"{n} damage from {event.source} to {event.object} is redirected to {event.target}"
    elif k == "life_loss":
        s = f"{event.player} loses {n} life"
    elif k == "life_gain":
        s = f"{event.player} gains {n} life"
    elif k == "poison":
        s = f"{event.player} gets {n} poison counter{'' if n == 1 else 's'}"
    elif k in _VERBS:
        s = f"{event.object} {_VERBS[k]}"
    elif k == "lost":
        s = f"{event.player} loses the game"
    elif k == "step":
        s = f"step: {event.step}"
    else:
        fields = {f: v for f, v in event.to_json().items() if f not in ("step", "kind", "rule")}
        s = f"{k}: {', '.join(f'{f}={v}' for f, v in fields.items())}"
    if event.detail and k not in ("step",) and "detail=" not in s:
        s += f" ({event.detail})"
    return f"{s} [{event.rule}]" if rule else s


def event_repr(event: Event) -> str:
    """``<Event damage in combat_damage: wurm deals 6 combat damage to bob [510.2]>``."""
    return f"<Event {event.kind} in {event.step or '?'}: {event_text(event)}>"
