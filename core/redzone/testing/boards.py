"""Building boards tersely, and writing them down so a person can rerun them.

:class:`Board` is the builder behind the ``redzone_board`` fixture;
:func:`describe_board` and :func:`scenario_toml` turn a state (and a
declaration) into text: a short description for failure messages, and a
scenario file that ``redzone run`` resolves again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from redzone.kernel.engine import Engine
from redzone.kernel.model import GameState, Permanent, Player

#: The players a :class:`Board` seats when none are named.
DEFAULT_PLAYERS = ("alice", "bob")


class Board:
    """Builds game states tersely::

        state = board(board.c("bear", "bob", 2, 2, "flying"),
                      board.c("hawk", "alice", 1, 1))

    Keywords are parsed by the board's engine, so a keyword no loaded plugin
    provides fails at once, naming the close matches.

    :param engine: the engine whose plugins parse the keywords.
    :param players: the players seated when a call names none; the first
        is the active player.

    .. versionadded:: 0.1.0
    """

    def __init__(self, engine: Engine, players: Sequence[str | Player] = DEFAULT_PLAYERS) -> None:
        self.engine = engine
        self.players = tuple(players)

    def c(self, id: str, controller: str, power: int, toughness: int, *keywords: str,
          **kwargs: Any) -> Permanent:
        """A creature: ``board.c("bear", "bob", 2, 2, "first strike", damage=1)``.

        :param kwargs: any other :class:`~redzone.Permanent` field.
        """
        return self.engine.creature(id, controller, power, toughness, *keywords, **kwargs)

    creature = c

    def planeswalker(self, id: str, controller: str, loyalty: int, **kwargs: Any) -> Permanent:
        """A planeswalker with ``loyalty`` loyalty counters (306.5b)."""
        counters = dict(kwargs.pop("counters", {}))
        counters["loyalty"] = loyalty
        kwargs.setdefault("printed_loyalty", loyalty)
        return self.engine.permanent(id, controller, types=("planeswalker",),
                                     counters=counters, **kwargs)

    def battle(self, id: str, controller: str, defense: int, protector: str,
               **kwargs: Any) -> Permanent:
        """A battle with ``defense`` defense counters, protected by ``protector`` (310)."""
        counters = dict(kwargs.pop("counters", {}))
        counters["defense"] = defense
        kwargs.setdefault("printed_defense", defense)
        return self.engine.permanent(id, controller, types=("battle",), counters=counters,
                                     protector=protector, **kwargs)

    def __call__(self, *permanents: Permanent, players: Iterable[str | Player] | None = None,
                 **kwargs: Any) -> GameState:
        """A :class:`~redzone.GameState` before combat with ``permanents``.

        :param players: the players (default: the board's); the first one is
            the active player unless ``active_player`` is given.
        :param kwargs: passed to :meth:`redzone.Engine.game`.
        """
        return self.engine.game(list(self.players if players is None else players),
                                permanents, **kwargs)


def _label(perm: Permanent) -> str:
    text = perm.id if perm.name == perm.id else f"{perm.id} ({perm.name})"
    parts = [text, perm.controller]
    if perm.is_creature:
        parts.append(f"{perm.power}/{perm.toughness}")
    for kind in ("planeswalker", "battle"):
        if kind in perm.types:
            parts.append(kind)
    if perm.keywords:
        parts.append("[" + ", ".join(k.text for k in perm.keywords) + "]")
    extras = []
    if perm.damage:
        extras.append(f"damage {perm.damage}")
    if perm.counters:
        extras.append("counters " + ", ".join(f"{k}={v}" for k, v in perm.counters.items()))
    if perm.tapped:
        extras.append("tapped")
    if perm.summoning_sick:
        extras.append("summoning sick")
    if perm.token:
        extras.append("token")
    if perm.zone != "battlefield":
        extras.append(f"in {perm.zone}")
    if extras:
        parts.append("(" + "; ".join(extras) + ")")
    return " ".join(parts)


def describe_board(state: GameState, attacks: Mapping[str, str] | None = None,
                   blocks: Mapping[str, Any] | None = None,
                   assign: Mapping[str, Mapping[str, int]] | None = None) -> str:
    """A few lines describing a board and a declaration, for failure messages.

    :param state: the board.
    :param attacks: attacking creature -> what it attacks.
    :param blocks: blocking creature -> the attacker(s) it blocks.
    :param assign: combat damage assignments.
    """
    lines = [f"rules {state.rules}, active player {state.active_player}, step {state.step}"]
    for player in state.players.values():
        extra = f", {player.poison} poison" if player.poison else ""
        lines.append(f"  player {player.id}: {player.life} life{extra}")
    for perm in state.objects.values():
        lines.append(f"  {_label(perm)}")
    if attacks is not None:
        lines.append(f"  attacks: {dict(attacks)!r}")
    if blocks is not None:
        lines.append(f"  blocks: {dict(blocks)!r}")
    if assign:
        lines.append(f"  assign: {dict((k, dict(v)) for k, v in assign.items())!r}")
    return "\n".join(lines)


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"can't write {value!r} as TOML")


def scenario_toml(state: GameState, attacks: Mapping[str, str] | None = None,
                  blocks: Mapping[str, Any] | None = None,
                  assign: Mapping[str, Mapping[str, int]] | None = None) -> str:
    """The board (before combat) and a declaration as a scenario file.

    Only what the scenario format can say is written: players, permanents on
    the battlefield with their printed values, counters, marked damage and
    keywords as printed, and the combat declarations. Paste it into a file
    and run ``redzone run FILE`` to watch the same combat.
    """
    out = [f"rules = {_value(state.rules)}",
           f"active_player = {_value(state.active_player)}",
           f"turn_order = {_value(list(state.turn_order))}", ""]
    for player in state.players.values():
        out.append(f"[players.{_key(player.id)}]")
        out.append(f"life = {player.life}")
        if player.poison:
            out.append(f"poison = {player.poison}")
        out.append("")
    for perm in state.objects.values():
        if perm.zone != "battlefield":
            continue
        out.append("[[permanents]]")
        fields: dict[str, Any] = {"id": perm.id}
        if perm.name != perm.id:
            fields["name"] = perm.name
        fields["controller"] = perm.controller
        if perm.owner != perm.controller:
            fields["owner"] = perm.owner
        if perm.types != frozenset({"creature"}):
            fields["types"] = sorted(perm.types)
        if perm.subtypes:
            fields["subtypes"] = list(perm.subtypes)
        if perm.colors:
            fields["colors"] = sorted(perm.colors)
        if perm.base_power is not None:
            fields["power"] = perm.base_power
        if perm.base_toughness is not None:
            fields["toughness"] = perm.base_toughness
        counters = dict(perm.counters)
        if "loyalty" in counters and "planeswalker" in perm.types:
            fields["loyalty"] = counters.pop("loyalty")
        if "defense" in counters and "battle" in perm.types:
            fields["defense"] = counters.pop("defense")
        # the printed numbers (306.5b, 310.4b): a file's default is the counters it gives
        for printed, now in (("printed_loyalty", "loyalty"), ("printed_defense", "defense")):
            value = getattr(perm, printed)
            if value is not None and value != fields.get(now):
                fields[printed] = value
        if perm.protector is not None:
            fields["protector"] = perm.protector
        if perm.printed_keywords:
            fields["keywords"] = [k.text for k in perm.printed_keywords]
        if perm.damage:
            fields["damage"] = perm.damage
        if counters:
            fields["counters"] = counters
        if perm.tapped:
            fields["tapped"] = True
        if perm.summoning_sick:
            fields["summoning_sick"] = True
        if perm.can_block_additional:
            fields["can_block_additional"] = perm.can_block_additional
        out.extend(f"{k} = {_value(v)}" for k, v in fields.items())
        out.append("")
    if attacks is not None:
        out.append("[combat]")
        out.append(f"attacks = {_value(dict(attacks))}")
        norm = {b: [a] if isinstance(a, str) else list(a) for b, a in (blocks or {}).items()}
        out.append(f"blocks = {_value(norm)}")
        if assign:
            out.append("")
            out.append("[combat.assign]")
            out.extend(f"{_key(k)} = {_value(dict(v))}" for k, v in assign.items())
        out.append("")
    return "\n".join(out)


__all__ = ["DEFAULT_PLAYERS", "Board", "describe_board", "scenario_toml"]
