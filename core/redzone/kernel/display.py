"""How the kernel's values show themselves: short ``repr``s, boards as text,
events as one line, and small HTML tables for notebooks (``_repr_html_``).

Pure functions of the values (no I/O, nothing drawn to a terminal): the model
classes call them from one-line ``__repr__``/``__str__``/``_repr_html_``
methods. A ``repr`` says what a thing is, in the manner of python-chess::

    <Permanent wurm: Craw Wurm 6/4 trample, alice>
    <Player bob: 14 life>
    <GameState declare_blockers, foundations: alice (active) 20, bob 20; 3 permanents>

``str`` of a state is its board, one line per player and permanent; ``str``
of an event is its one-line account with its rule.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redzone.kernel.events import Event
    from redzone.kernel.model import Combat, GameState, Permanent, Player
    from redzone.kernel.tx import CombatResult, Outcome

# ---------------------------------------------------------------------------
# Hidden characters: what text may not carry to a terminal or a page
# ---------------------------------------------------------------------------

#: Unicode categories whose characters don't show themselves but act: control
#: characters (C0, DEL, C1: escape sequences, bell, backspace, carriage
#: return), format characters (the bidi controls that reorder a line, and
#: invisible ones such as U+200B), surrogates, line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

#: Format characters ordinary text needs, shown as they are: the zero-width
#: non-joiner and joiner (Persian and Indic scripts, emoji sequences such as a
#: family) and the tag characters of emoji subdivision flags.
_SHOWN_FORMATS = frozenset({"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))})

#: Everything but printable ASCII: the characters worth a closer look.
_NOT_PLAIN = re.compile(r"[^\x20-\x7e]")


def hidden(char: str) -> bool:
    """Whether ``char`` acts instead of showing itself: a control, format
    (bidi and zero-width), surrogate or separator character, other than the
    joiners and emoji tags ordinary text needs.

    :param char: one character.
    """
    return unicodedata.category(char) in _HIDDEN_CATEGORIES and char not in _SHOWN_FORMATS


#: The short escapes of Python's own, for the commonest controls.
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    return (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000
            else f"\\U{code:08x}")


def visible(text: str, *, newlines: bool = False) -> str:
    """``text`` with every :func:`hidden` character written as its Python
    escape (``\\x1b``, ``\\r``, ``\\u202e``, ``\\U000e0001``): what the front ends
    print of names, ids and messages, so that no escape sequence reaches a
    terminal and no bidi control reorders a line. Other text is unchanged
    (accents, CJK, emoji, backslashes), so ``visible`` of its own result
    changes nothing.

    :param text: the text.
    :param newlines: keep line feeds (text made of lines) instead of escaping
        them (one name, one message).
    """
    if _NOT_PLAIN.search(text) is None:
        return text
    return _NOT_PLAIN.sub(lambda m: m[0] if not hidden(m[0]) or (newlines and m[0] == "\n")
                          else _escape(m[0]), text)


def json_visible(text: str) -> str:
    """JSON text with every :func:`hidden` character its JSON escape
    (``\\u202e``, a surrogate pair above U+FFFF): the same JSON value, with
    nothing in it that drives a terminal. :func:`json.dumps` escapes only
    C0 controls when it keeps other characters as they are.

    :param text: JSON text (hidden characters can only be in its strings).
    """
    if _NOT_PLAIN.search(text) is None:
        return text

    def escape(m: re.Match[str]) -> str:
        char = m[0]
        if not hidden(char) or char == "\n":
            return char
        code = ord(char)
        if code < 0x10000:
            return f"\\u{code:04x}"
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"

    return _NOT_PLAIN.sub(escape, text)


#: Card types shown beside a permanent's name when it is not only a creature.
_SHOWN_TYPES = ("artifact", "enchantment", "land", "creature", "planeswalker", "battle")


def _pt(perm: Permanent) -> str:
    if perm.base_power is None and perm.base_toughness is None:
        return ""
    return f"{perm.power}/{perm.toughness}"


def permanent_summary(perm: Permanent) -> str:
    """``Craw Wurm 6/4 trample``: name, types when not only a creature, P/T,
    loyalty or defense, keywords."""
    bits = [perm.name]
    kinds = [t for t in _SHOWN_TYPES if t in perm.types]
    if kinds != ["creature"]:
        bits.append(" ".join(kinds))
    pt = _pt(perm)
    if pt:
        bits.append(pt)
    if perm.loyalty is not None:
        bits.append(f"loyalty {perm.loyalty}")
    if perm.defense is not None:
        bits.append(f"defense {perm.defense}")
    if perm.keywords:
        bits.append(", ".join(k.text for k in perm.keywords))
    return " ".join(bits)


def permanent_status(perm: Permanent) -> list[str]:
    """What is marked on a permanent: damage, counters, tapped, its zone."""
    out = []
    if perm.damage:
        out.append(f"{perm.damage} damage")
    other = {k: v for k, v in perm.counters.items() if k not in ("loyalty", "defense")}
    out += [f"{v} {k}" for k, v in sorted(other.items())]
    if perm.tapped:
        out.append("tapped")
    if perm.zone != "battlefield":
        out.append(f"in the {perm.zone}")
    return out


def permanent_repr(perm: Permanent) -> str:
    """``<Permanent wurm: Craw Wurm 6/4 trample, alice>``."""
    return (f"<Permanent {perm.id}: "
            f"{', '.join([permanent_summary(perm), perm.controller, *permanent_status(perm)])}>")


def player_text(player: Player) -> str:
    """``bob: 14 life, 3 poison, lost (704.5a)``."""
    bits = [f"{player.life} life"]
    if player.poison:
        bits.append(f"{player.poison} poison")
    if player.lost:
        bits.append(f"lost ({player.loss_rule})" if player.loss_rule else "lost")
    return f"{player.id}: {', '.join(bits)}"


def player_repr(player: Player) -> str:
    """``<Player bob: 14 life>``."""
    return f"<Player {player_text(player)}>"


def combat_text(combat: Combat) -> str:
    """``wurm attacks bob; wall blocks wurm``, or ``no attackers``."""
    bits = [f"{a} attacks {t}" if t is not None else f"{a} attacks (removed)"
            for a, t in combat.attacks.items()]
    bits += [f"{b} blocks {' and '.join(atts)}" for b, atts in combat.blocks.items()]
    return "; ".join(bits) if bits else "no attackers"


def combat_repr(combat: Combat) -> str:
    """``<Combat wurm attacks bob; wall blocks wurm>``."""
    return f"<Combat {combat_text(combat)}>"


def state_repr(state: GameState) -> str:
    """``<GameState declare_blockers, foundations: alice (active) 20, bob 20;
    3 permanents>``."""
    players = ", ".join(
        f"{p.id}{' (active)' if p.id == state.active_player else ''} {p.life}"
        f"{f' +{p.poison}p' if p.poison else ''}{' lost' if p.lost else ''}"
        for p in state.players.values())
    n = len(state.battlefield)
    return (f"<GameState {state.step}, {state.rules}: {players}; "
            f"{n} permanent{'' if n == 1 else 's'}>")


def _by_player(state: GameState) -> Iterable[tuple[Player, list[Permanent]]]:
    for player in state.players.values():
        yield player, [p for p in state.objects.values()
                       if (p.controller if p.zone == "battlefield" else p.owner) == player.id]


def state_text(state: GameState) -> str:
    """The board: each player, then their permanents, then the combat."""
    lines = [f"{state.rules} rules, step {state.step}, {state.active_player} active"]
    for player, perms in _by_player(state):
        lines.append(player_text(player))
        for perm in perms:
            status = permanent_status(perm)
            lines.append(f"  {perm.id}: {permanent_summary(perm)}"
                         f"{f' ({chr(44).join(status)})' if status else ''}")
    if state.combat is not None:
        lines.append(f"combat: {combat_text(state.combat)}")
    return "\n".join(lines)


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


def _life_changes(before: GameState | None, after: GameState) -> list[str]:
    if before is None:
        return []
    out = []
    for pid, player in after.players.items():
        was = before.players.get(pid)
        if was is not None and was.life != player.life:
            out.append(f"{pid} {was.life} -> {player.life} life")
        if player.lost and (was is None or not was.lost):
            out.append(f"{pid} lost")
    gone = [p.id for p in after.objects.values() if p.zone != "battlefield"
            and p.id in before.objects and before.objects[p.id].zone == "battlefield"]
    if gone:
        out.append(f"left the battlefield: {', '.join(gone)}")
    return out


def result_repr(result: CombatResult) -> str:
    """``<CombatResult 5 steps, 14 events: bob 20 -> 14 life; left the
    battlefield: wall>``."""
    changes = _life_changes(result.before, result.state)
    return (f"<CombatResult {len(result.steps)} steps, {len(result.events)} events"
            f"{': ' + '; '.join(changes) if changes else ''}>")


def result_text(result: CombatResult) -> str:
    """The events, one line each, then the board after."""
    lines = [event_text(e) for e in result.events if e.kind != "step"]
    return "\n".join([*lines, "", state_text(result.state)])


def outcome_repr(outcome: Outcome) -> str:
    """``<Outcome declare_attackers: 3 events>``."""
    n = len(outcome.events)
    return f"<Outcome {outcome.state.step}: {n} event{'' if n == 1 else 's'}>"


# ---------------------------------------------------------------------------
# HTML for notebooks
# ---------------------------------------------------------------------------


def html_text(text: object) -> str:
    """``text`` for an HTML page, as text or an attribute's value: its
    characters ``<>&"'`` escaped, and its hidden characters :func:`visible`,
    so that a bidi control in a name can't reorder the page's line.

    :param text: the text (or a value, shown with ``str``).
    """
    return html.escape(visible(str(text)), quote=True)


_e = html_text


def state_html(state: GameState) -> str:
    """A small HTML table of the board, for a notebook's rich display."""
    rows = []
    for player, perms in _by_player(state):
        active = " (active)" if player.id == state.active_player else ""
        rows.append(f"<tr><th colspan='3' style='text-align:left'>{_e(player_text(player))}"
                    f"{_e(active)}</th></tr>")
        for perm in perms:
            rows.append(f"<tr><td><code>{_e(perm.id)}</code></td>"
                        f"<td>{_e(permanent_summary(perm))}</td>"
                        f"<td>{_e(', '.join(permanent_status(perm)))}</td></tr>")
    combat = ("" if state.combat is None else
              f"<p>combat: {_e(combat_text(state.combat))}</p>")
    return (f"<div class='redzone-state'><p><b>{_e(state.rules)}</b> rules, step "
            f"<code>{_e(state.step)}</code></p><table>{''.join(rows)}</table>{combat}</div>")


def result_html(result: CombatResult) -> str:
    """The events as a list and the board after, in HTML."""
    items = "".join(f"<li>{_e(event_text(e))}</li>" for e in result.events if e.kind != "step")
    return (f"<div class='redzone-result'><p>{_e(result_repr(result))}</p>"
            f"<ol>{items}</ol>{state_html(result.state)}</div>")


__all__ = [
    "combat_repr",
    "combat_text",
    "event_repr",
    "event_text",
    "hidden",
    "html_text",
    "json_visible",
    "outcome_repr",
    "permanent_repr",
    "permanent_status",
    "permanent_summary",
    "player_repr",
    "player_text",
    "result_html",
    "result_repr",
    "result_text",
    "state_html",
    "state_repr",
    "state_text",
    "visible",
]
