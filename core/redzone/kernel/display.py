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

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence, Sized
from typing import Any, Protocol

from redzone.kernel.events import Event, event_repr, event_text, zone_text

# ---------------------------------------------------------------------------
# What the functions read of a value (structural: the model's classes fit)
# ---------------------------------------------------------------------------
#
# The model's classes call these functions from their ``__repr__``, so this
# module can't import them: it names what it reads of them instead, and
# mypy checks that :class:`~redzone.Permanent` and the others fit.


class _Keyword(Protocol):
    @property
    def text(self) -> str: ...


class _Permanent(Protocol):
    """What a permanent shows (:class:`redzone.Permanent` fits)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def controller(self) -> str: ...
    @property
    def owner(self) -> str: ...
    @property
    def zone(self) -> str: ...
    @property
    def types(self) -> Collection[str]: ...
    @property
    def base_power(self) -> int | None: ...
    @property
    def base_toughness(self) -> int | None: ...
    @property
    def power(self) -> int: ...
    @property
    def toughness(self) -> int: ...
    @property
    def loyalty(self) -> int | None: ...
    @property
    def defense(self) -> int | None: ...
    @property
    def keywords(self) -> Sequence[_Keyword]: ...
    @property
    def damage(self) -> int: ...
    @property
    def counters(self) -> Mapping[str, int]: ...
    @property
    def tapped(self) -> bool: ...


class _Player(Protocol):
    """What a player shows (:class:`redzone.Player` fits)."""

    @property
    def id(self) -> str: ...
    @property
    def life(self) -> int: ...
    @property
    def poison(self) -> int: ...
    @property
    def lost(self) -> bool: ...
    @property
    def loss_rule(self) -> str | None: ...


class _Combat(Protocol):
    """What a combat shows (:class:`redzone.Combat` fits)."""

    @property
    def attacks(self) -> Mapping[str, str | None]: ...
    @property
    def blocks(self) -> Mapping[str, Sequence[str]]: ...


class _GameState(Protocol):
    """What a state shows (:class:`redzone.GameState` fits)."""

    @property
    def step(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def active_player(self) -> str: ...
    @property
    def players(self) -> Mapping[str, _Player]: ...
    @property
    def objects(self) -> Mapping[str, _Permanent]: ...
    @property
    def battlefield(self) -> Sized: ...
    @property
    def combat(self) -> _Combat | None: ...


class _Outcome(Protocol):
    """What a command's outcome shows (:class:`redzone.Outcome` fits)."""

    @property
    def state(self) -> _GameState: ...
    @property
    def events(self) -> Sequence[Event]: ...


class _CombatResult(_Outcome, Protocol):
    """What a resolved combat shows (:class:`redzone.CombatResult` fits)."""

    @property
    def steps(self) -> Sized: ...
    @property
    def before(self) -> _GameState | None: ...


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


def _pt(perm: _Permanent) -> str:
    if perm.base_power is None and perm.base_toughness is None:
        return ""
    return f"{perm.power}/{perm.toughness}"


def permanent_summary(perm: _Permanent) -> str:
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


def team_text(state: _GameState, members: Sequence[str]) -> str:
    """A team's shared life total and poison counters (810.4, 810.10), and
    whether it lost (810.8a: its players lose together):
    ``30 life, shared; 3 poison counters``."""
    first = state.players[members[0]]
    bits = [f"{first.life} life, shared"]
    if first.poison:
        bits.append(f"{first.poison} poison counter{'' if first.poison == 1 else 's'}")
    if any(state.players[m].lost for m in members):
        bits.append("lost")
    return "; ".join(bits)


def permanent_status(perm: _Permanent) -> list[str]:
    """What is marked on a permanent: damage, counters, tapped, its zone."""
    out = []
    if perm.damage:
        out.append(f"{perm.damage} damage")
    other = {k: v for k, v in perm.counters.items() if k not in ("loyalty", "defense")}
    out += [f"{v} {k}" for k, v in sorted(other.items())]
    if perm.tapped:
        out.append("tapped")
    if perm.zone != "battlefield":
        out.append(zone_text(perm.zone))
    return out


def permanent_repr(perm: _Permanent) -> str:
    """``<Permanent wurm: Craw Wurm 6/4 trample, alice>``."""
    return (f"<Permanent {perm.id}: "
            f"{', '.join([permanent_summary(perm), perm.controller, *permanent_status(perm)])}>")


def player_text(player: _Player) -> str:
    """``bob: 14 life, 3 poison, lost (704.5a)``."""
    bits = [f"{player.life} life"]
    if player.poison:
        bits.append(f"{player.poison} poison")
    if player.lost:
        bits.append(f"lost ({player.loss_rule})" if player.loss_rule else "lost")
    return f"{player.id}: {', '.join(bits)}"


def player_repr(player: _Player) -> str:
    """``<Player bob: 14 life>``."""
    return f"<Player {player_text(player)}>"


def combat_text(combat: _Combat) -> str:
    """``wurm attacks bob; wall blocks wurm``, or ``no attackers``."""
    bits = [f"{a} attacks {t}" if t is not None else f"{a} attacks (removed)"
            for a, t in combat.attacks.items()]
    bits += [f"{b} blocks {' and '.join(atts)}" for b, atts in combat.blocks.items()]
    return "; ".join(bits) if bits else "no attackers"


def combat_repr(combat: _Combat) -> str:
    """``<Combat wurm attacks bob; wall blocks wurm>``."""
    return f"<Combat {combat_text(combat)}>"


def state_repr(state: _GameState) -> str:
    """``<GameState declare_blockers, foundations: alice (active) 20, bob 20;
    3 permanents>``."""
    players = ", ".join(
        f"{p.id}{' (active)' if p.id == state.active_player else ''} {p.life}"
        f"{f' +{p.poison}p' if p.poison else ''}{' lost' if p.lost else ''}"
        for p in state.players.values())
    n = len(state.battlefield)
    return (f"<GameState {state.step}, {state.rules}: {players}; "
            f"{n} permanent{'' if n == 1 else 's'}>")


def _by_player(state: _GameState) -> Iterable[tuple[_Player, list[_Permanent]]]:
    for player in state.players.values():
        yield player, [p for p in state.objects.values()
                       if (p.controller if p.zone == "battlefield" else p.owner) == player.id]


def state_text(state: _GameState) -> str:
    """The board: each player, then their permanents, then the combat."""
    lines = [f"{state.rules} rules, step {state.step}, {state.active_player} active"]
    for player, perms in _by_player(state):
        lines.append(player_text(player))
        for perm in perms:
            status = permanent_status(perm)
            shown = f" ({', '.join(status)})" if status else ""
            lines.append(f"  {perm.id}: {permanent_summary(perm)}{shown}")
    if state.combat is not None:
        lines.append(f"combat: {combat_text(state.combat)}")
    return "\n".join(lines)


def _life_changes(before: _GameState | None, after: _GameState) -> list[str]:
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


def result_repr(result: _CombatResult) -> str:
    """``<CombatResult 5 steps, 14 events: bob 20 -> 14 life; left the
    battlefield: wall>``."""
    changes = _life_changes(result.before, result.state)
    return (f"<CombatResult {len(result.steps)} steps, {len(result.events)} events"
            f"{': ' + '; '.join(changes) if changes else ''}>")


def result_text(result: _CombatResult) -> str:
    """The events, one line each, then the board after."""
    lines = [event_text(e) for e in result.events if e.kind != "step"]
    return "\n".join([*lines, "", state_text(result.state)])


def outcome_repr(outcome: _Outcome) -> str:
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
    import html  # (for the HTML views: not on the way of a run)

    return html.escape(visible(str(text)), quote=True)


_e = html_text


def state_html(state: _GameState) -> str:
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


#: The entry-point group of what shows a combat result in a notebook: an entry
#: named ``html``, a function of the result that returns an HTML fragment (the
#: package declares its visual report there; the kernel imports no layer above
#: it, it finds the renderer by name).
DISPLAY_GROUP = "redzone.display"
_renderer: list[Callable[[Any], str] | None] = []


def notebook_renderer() -> Callable[[Any], str] | None:
    """The renderer of the ``redzone.display`` group's ``html`` entry point
    (looked up once per process), or ``None`` when none is installed."""
    if not _renderer:
        from redzone.kernel.entrypoints import entry_points

        found = next((ep for ep in entry_points(DISPLAY_GROUP) if ep.name == "html"), None)
        loaded = found.load() if found is not None else None
        _renderer.append(loaded if callable(loaded) else None)
    return _renderer[0]


def result_notebook_html(result: _CombatResult) -> str:
    """What a notebook shows of a combat result: the visual report, when the
    renderer of :data:`DISPLAY_GROUP` is installed, else :func:`result_html`."""
    render = notebook_renderer()
    return render(result) if render is not None else result_html(result)


def result_html(result: _CombatResult) -> str:
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
    "result_notebook_html",
    "result_repr",
    "result_text",
    "state_html",
    "state_repr",
    "state_text",
    "team_text",
    "visible",
    "zone_text",
]
