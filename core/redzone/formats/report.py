"""The visual combat report: one self-contained HTML page for a resolution.

:func:`render_html` is a pure function (a :class:`~redzone.formats.outcome.Resolution`
in, text out; no I/O): ``redzone run --html FILE`` writes what it returns, and
``Resolution.to_html()`` and a notebook's rich display call it. The page needs
nothing from the network (no script, font or style sheet from elsewhere; the
drawings are inline SVG), so it can be mailed or archived as it is. It shows:

- the board as declared (before combat) with the attacks and blocks drawn
  between the creatures, and the board after combat; each creature is a card
  with its name, power/toughness, keywords, damage and counters;
- the steps as a timeline, each event with its rule;
- for an illegal declaration, assignment or action, the violations listed with
  their rules, and the creatures they name outlined on the board.

Layering: this module is a format (it reads formats and kernel values); the
front ends call it, the kernel never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from attrs import frozen

from redzone.formats import explanation
from redzone.formats.citations import cite, era_rule
from redzone.kernel import display
from redzone.kernel import events as _events
from redzone.kernel.events import Event
from redzone.kernel.model import GameState, Permanent

if TYPE_CHECKING:
    from redzone.formats.scenario import Scenario
    from redzone.kernel.actions import Action
    from redzone.kernel.engine import Engine
    from redzone.kernel.errors import IllegalActionError
    from redzone.kernel.results import AssignmentRecord, DamageStepRecord
    from redzone.kernel.tx import CombatResult


class Shown(Protocol):
    """What a report shows: a :class:`~redzone.formats.outcome.Resolution`
    provides it (the report reads these and nothing else, so the renderer
    depends on no format above it)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def result(self) -> CombatResult | None: ...
    @property
    def error(self) -> IllegalActionError | None: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    @property
    def failed(self) -> str | None: ...
    @property
    def failed_state(self) -> GameState | None: ...
    @property
    def failed_action(self) -> Action | None: ...
    @property
    def partial(self) -> CombatResult | None: ...
    @property
    def assignments(self) -> Sequence[AssignmentRecord]: ...
    @property
    def damage_steps(self) -> Sequence[DamageStepRecord]: ...

CARD_W = 168
CARD_H = 118
GAP = 22
PLAYER_W = 120
ROW_GAP = 96
MARGIN = 16
#: The narrow (phone) layout: cards per line, the player's band, the gap
#: between two players.
NARROW_COLUMNS = 2
BAND_H = 34
NARROW_ROW_GAP = 56


CSS = """
:root { --bg: #f7f5f0; --fg: #1d1d1f; --card: #fffdf7; --edge: #8a7f6a; --muted: #6b6b6b;
  --attack: #c0392b; --block: #1f6fb2; --bad: #d4145a; --dead: #b9b3a6; --panel: #ece8df; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181d; --fg: #e8e6e1; --card: #23262e; --edge: #7d8696; --muted: #a0a4ad;
    --attack: #ff6b5a; --block: #5aa9ff; --bad: #ff4f8b; --dead: #4a4d55; --panel: #1f2228; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  overflow-wrap: anywhere; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.status { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; }
.status.ok { background: #2e7d32; color: #fff; }
.status.illegal { background: var(--bad); color: #fff; }
.boards { display: flex; flex-wrap: wrap; gap: 24px; }
figure.board { margin: 0; background: var(--panel); border-radius: 10px; padding: 8px;
  max-width: 100%; }
figure.board svg { display: block; max-width: 100%; height: auto; }
figure.board svg.narrow { display: none; }
@media (max-width: 640px) {
  body { padding: 10px; }
  figure.board svg.wide { display: none; }
  figure.board svg.narrow { display: block; }
}
.teams { margin: 0 0 4px 6px; font-size: 13px; }
figure.board figcaption { font-weight: 600; margin: 0 0 4px 6px; }
svg text { fill: var(--fg); font-family: system-ui, sans-serif; }
svg .card rect.frame { fill: var(--card); stroke: var(--edge); stroke-width: 1.5; }
svg .card.gone rect.frame { fill: var(--dead); stroke-dasharray: 5 4; }
svg .card.violation rect.frame { stroke: var(--bad); stroke-width: 4; }
svg .card .name { font-weight: 700; font-size: 13px; }
svg .card .pt { font-weight: 700; font-size: 16px; }
svg .card .kw { font-size: 11.5px; font-style: italic; }
svg .card .marks { font-size: 11.5px; fill: var(--attack); }
svg .card.token rect.frame { stroke-dasharray: 2 3; }
svg .card .tokenmark { font-size: 10.5px; font-weight: 700; letter-spacing: 0.06em; }
svg .player rect { fill: none; stroke: var(--edge); stroke-width: 1.5; rx: 8; }
svg .player.violation rect { stroke: var(--bad); stroke-width: 4; }
svg .player .name { font-weight: 700; font-size: 14px; }
svg line.attack { stroke: var(--attack); stroke-width: 3; }
svg line.block { stroke: var(--block); stroke-width: 3; }
svg line.illegal { stroke-dasharray: 7 5; }
.violations { border-left: 4px solid var(--bad); padding: 4px 12px; background: var(--panel); }
.violations li { margin: 4px 0; }
ol.timeline { list-style: none; padding: 0; margin: 0; }
ol.timeline > li.step { margin: 10px 0; }
ol.timeline .step-title { font-weight: 700; }
ol.timeline ul { margin: 4px 0 0; padding-left: 20px; }
ol.timeline li.event { margin: 2px 0; }
.rule { font-family: ui-monospace, monospace; font-size: 12px; color: var(--muted);
  margin-left: 6px; }
.legend { color: var(--muted); font-size: 13px; }
.legend b.attack { color: var(--attack); }
.legend b.block { color: var(--block); }
table.assignment { border-collapse: collapse; margin: 4px 0 8px; }
table.assignment th, table.assignment td { border-bottom: 1px solid var(--edge);
  padding: 3px 8px; text-align: left; vertical-align: top; }
ul.explanation { margin: 4px 0; padding-left: 20px; }
ul.explanation li.detail { list-style: none; margin-left: 14px; }
.explanation .good { color: #2e7d32; font-weight: 600; }
@media (prefers-color-scheme: dark) {
  .explanation .good { color: #7bd88f; }
}
"""


def _scoped(css: str) -> str:
    """The style sheet with every rule scoped to the report's root element
    (``.rz``), so that the report can sit inside another page (a notebook)."""
    out = []
    for line in css.splitlines():
        head, brace, rest = line.partition("{")
        if not brace or head.lstrip().startswith("@"):
            out.append(line)
            continue
        selectors = []
        for sel in head.split(","):
            sel = sel.strip()
            selectors.append(".rz" if sel in (":root", "body") else
                             ".rz, .rz *" if sel == "*" else f".rz {sel}")
        indent = line[:len(line) - len(line.lstrip())]
        out.append(f"{indent}{', '.join(selectors)} {{{rest}")
    return "\n".join(out)


_e = display.html_text


_Names = _events.Names


def _fit(text: str, width: int, size: float) -> str:
    """``text`` cut to fit ``width`` pixels at a font ``size`` (a rough
    average character width)."""
    most = max(4, int(width / (size * 0.56)))
    return text if len(text) <= most else text[:most - 1] + "…"


def _origins(events: Sequence[Event], name: _Names) -> dict[str, str]:
    """Each token created during the combat -> where it came from, in words:
    ``copy of banshee`` for a token that copies the creature whose
    ability made it (707.2, myriad), ``made by Voice of Victory`` otherwise
    (111.2, mobilize). The maker is the source of the ability that was
    resolving as the token entered."""
    out: dict[str, str] = {}
    maker: str | None = None
    for event in events:
        if event.kind in ("resolve", "trigger") and event.source is not None:
            maker = event.source
        elif event.kind == "enters_battlefield" and event.object is not None:
            source = event.source or maker
            if source is None or source == event.object:
                continue
            copy = name(event.object) == name(source)
            out[event.object] = (f"copy of {source}" if copy
                                 else f"made by {name(source)}")
        elif event.kind == "step":
            maker = None
    return out


class _Layout:
    """Where a board's players and cards go: ``wide`` puts a player's box and
    cards on one row; ``narrow`` (a phone) puts the player's name on a band
    and their cards two by two below it."""

    def __init__(self, rows: Sequence[tuple[str, Sequence[Permanent]]], *, narrow: bool) -> None:
        self.narrow = narrow
        self.boxes: dict[str, tuple[int, int, int, int]] = {}  # id -> x, y, width, height
        if narrow:
            self.width = MARGIN * 2 + NARROW_COLUMNS * CARD_W + (NARROW_COLUMNS - 1) * GAP
            y = MARGIN
            for r, (pid, perms) in enumerate(rows):
                if r:
                    y += NARROW_ROW_GAP
                self.boxes[pid] = (MARGIN, y, self.width - 2 * MARGIN, BAND_H)
                y += BAND_H + GAP
                for c, perm in enumerate(perms):
                    if c and c % NARROW_COLUMNS == 0:
                        y += CARD_H + GAP
                    x = MARGIN + (c % NARROW_COLUMNS) * (CARD_W + GAP)
                    self.boxes[perm.id] = (x, y, CARD_W, CARD_H)
                y += CARD_H if perms else 0
            self.height = y + MARGIN
        else:
            widest = max((len(perms) for _pid, perms in rows), default=0)
            self.width = MARGIN * 2 + PLAYER_W + GAP + max(1, widest) * (CARD_W + GAP)
            self.height = MARGIN * 2 + len(rows) * CARD_H + max(0, len(rows) - 1) * ROW_GAP
            for r, (pid, perms) in enumerate(rows):
                y = MARGIN + r * (CARD_H + ROW_GAP)
                self.boxes[pid] = (MARGIN, y, PLAYER_W, CARD_H)
                for c, perm in enumerate(perms):
                    x = MARGIN + PLAYER_W + GAP + c * (CARD_W + GAP)
                    self.boxes[perm.id] = (x, y, CARD_W, CARD_H)


def _card(perm: Permanent, x: int, y: int, *, flagged: bool, origin: str | None) -> str:
    classes = ["card"]
    if perm.zone != "battlefield":
        classes.append("gone")
    if flagged:
        classes.append("violation")
    if perm.token:
        classes.append("token")
    keywords = ", ".join(k.text for k in perm.keywords)
    marks = [m for m in display.permanent_status(perm)]
    kinds: list[str] = [t for t in ("artifact", "enchantment", "land", "planeswalker",
                                    "battle") if t in perm.types]
    if perm.token:  # 111.1: a token is marked as one, with where it came from
        kinds.insert(0, "token" + (f", {origin}" if origin else ""))
    pt = ("" if perm.base_power is None and perm.base_toughness is None
          else f"{perm.power}/{perm.toughness}")
    if perm.loyalty is not None:
        pt = f"loyalty {perm.loyalty}"
    elif perm.defense is not None:
        pt = f"defense {perm.defense}"
    title = f"{perm.id}: {display.permanent_summary(perm)}"
    if perm.token:
        title += f" (token{f', {origin}' if origin else ''})"
    if marks:
        title += f" ({', '.join(marks)})"
    rotate = f" transform='rotate(6 {x + CARD_W // 2} {y + CARD_H // 2})'" if perm.tapped else ""
    token = (f" data-token='1' data-origin='{_e(origin or '')}'" if perm.token else "")
    parts = [
        f"<g class='{' '.join(classes)}' data-id='{_e(perm.id)}' data-name='{_e(perm.name)}' "
        f"data-pt='{_e(pt)}' data-damage='{perm.damage}' data-zone='{_e(perm.zone)}'"
        f"{token}{rotate}>",
        f"<title>{_e(title)}</title>",
        f"<rect class='frame' x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='9'/>",
        f"<text class='name' x='{x + 9}' y='{y + 20}'>{_e(_fit(perm.name, CARD_W - 16, 13))}"
        "</text>",
    ]
    line_y = y + 38
    if kinds:
        parts.append(f"<text class='kw{' tokenmark' if perm.token else ''}' x='{x + 9}' "
                     f"y='{line_y}'>{_e(_fit(' '.join(kinds), CARD_W - 16, 11.5))}</text>")
        line_y += 16
    if keywords:
        parts.append(f"<text class='kw' x='{x + 9}' y='{line_y}'>"
                     f"{_e(_fit(keywords, CARD_W - 16, 11.5))}</text>")
        line_y += 16
    if marks:
        parts.append(f"<text class='marks' x='{x + 9}' y='{min(line_y, y + CARD_H - 30)}'>"
                     f"{_e(_fit(', '.join(marks), CARD_W - 16, 11.5))}</text>")
    parts.append(f"<text class='kw' x='{x + 9}' y='{y + CARD_H - 11}'>"
                 f"{_e(_fit(perm.id, CARD_W - 70, 11.5))}</text>")
    if pt:
        parts.append(f"<text class='pt' x='{x + CARD_W - 10}' y='{y + CARD_H - 11}' "
                     f"text-anchor='end'>{_e(pt)}</text>")
    parts.append("</g>")
    return "".join(parts)


def _player(state: GameState, pid: str, box: tuple[int, int, int, int], *, flagged: bool,
            narrow: bool) -> str:
    x, y, w, h = box
    player = state.players[pid]
    team = state.team_of(pid)
    life = f"{player.life} life" + (f", {player.poison} poison" if player.poison else "")
    notes = [f"team {team}" if team is not None else "",
             "lost the game" if player.lost else "",
             "active player" if pid == state.active_player else ""]
    pclass = "player violation" if flagged else "player"
    out = [f"<g class='{pclass}' data-id='{_e(pid)}' data-team='{_e(team or '')}'><title>"
           f"{_e(display.player_text(player))}"
           f"{_e(f' (team {team}: shared life, 810.4)' if team else '')}</title>"
           f"<rect x='{x}' y='{y}' width='{w}' height='{h}'/>"]
    if narrow:  # one band: name, life, the notes
        line = " · ".join([life, *(n for n in notes if n)])
        out.append(f"<text class='name' x='{x + 10}' y='{y + 23}'>{_e(_fit(pid, 90, 14))}"
                   f"</text><text x='{x + 110}' y='{y + 23}'>{_e(_fit(line, w - 120, 13))}"
                   "</text>")
    else:
        out.append(f"<text class='name' x='{x + 10}' y='{y + 24}'>{_e(_fit(pid, w - 16, 14))}"
                   f"</text><text x='{x + 10}' y='{y + 46}'>{_e(life)}</text>")
        for i, note in enumerate(n for n in notes if n):
            cls = "marks" if note == "lost the game" else "kw"
            out.append(f"<text x='{x + 10}' y='{y + 68 + 20 * i}' class='{cls}'>{_e(note)}"
                       "</text>")
    out.append("</g>")
    return "".join(out)


def _board_svg(state: GameState, caption: str, *, attacks: Mapping[str, str | None],
               blocks: Mapping[str, Sequence[str]], flagged: set[str], illegal: str | None,
               board_id: str, origins: Mapping[str, str]) -> str:
    """One board, drawn twice: wide (a row per player, the attacking player at
    the bottom) and narrow (for a phone screen; the page shows one of the two),
    a card per permanent, lines for the attacks and blocks."""
    players = list(state.players.values())
    active = [p for p in players if p.id == state.active_player]
    order = [p for p in players if p.id != state.active_player] + active
    rows: list[tuple[str, list[Permanent]]] = []
    for player in order:
        rows.append((player.id, [p for p in state.objects.values()
                                 if (p.controller if p.zone == "battlefield" else p.owner)
                                 == player.id]))
    svgs = [_svg(state, rows, _Layout(rows, narrow=narrow), caption, attacks=attacks,
                 blocks=blocks, flagged=flagged, illegal=illegal, origins=origins,
                 svg_id=f"{board_id}-{'narrow' if narrow else 'wide'}")
            for narrow in (False, True)]
    teams = ""
    if state.teams:  # 810.4, 810.9: one shared life total per team
        teams = "<p class='teams'>" + " · ".join(
            f"<span class='team' data-team='{_e(team)}' "
            f"data-life='{state.players[members[0]].life}'>team <b>{_e(team)}</b> "
            f"({_e(', '.join(members))}): {_e(display.team_text(state, members))}</span>"
            for team, members in state.teams.items()) + (
            " <span class='rule'>810.4</span></p>")
    return (f"<figure class='board' id='{board_id}'><figcaption>{_e(caption)}</figcaption>"
            f"{teams}{''.join(svgs)}</figure>")


def _svg(state: GameState, rows: Sequence[tuple[str, Sequence[Permanent]]], layout: _Layout,
         caption: str, *, attacks: Mapping[str, str | None],
         blocks: Mapping[str, Sequence[str]], flagged: set[str], illegal: str | None,
         origins: Mapping[str, str], svg_id: str) -> str:
    body: list[str] = []
    for pid, perms in rows:
        body.append(_player(state, pid, layout.boxes[pid], flagged=pid in flagged,
                            narrow=layout.narrow))
        for perm in perms:
            x, y, _w, _h = layout.boxes[perm.id]
            body.append(_card(perm, x, y, flagged=perm.id in flagged,
                              origin=origins.get(perm.id)))
    lines: list[str] = []

    def link(kind: str, a: str, b: str) -> None:
        if a not in layout.boxes or b not in layout.boxes:
            return
        ax0, atop, aw, ah = layout.boxes[a]
        bx0, btop, bw, bh = layout.boxes[b]
        ax, bx, abot, bbot = ax0 + aw // 2, bx0 + bw // 2, atop + ah, btop + bh
        y1, y2 = (atop, bbot) if atop > btop else (abot, btop) if atop < btop else (atop, btop)
        extra = (" illegal" if illegal in (kind, "any") and (a in flagged or b in flagged)
                 else "")
        lines.append(f"<line class='{kind}{extra}' data-from='{_e(a)}' data-to='{_e(b)}' "
                     f"x1='{ax}' y1='{y1}' x2='{bx}' y2='{y2}' "
                     f"marker-end='url(#{svg_id}-{kind})'/>")

    for attacker, target in attacks.items():
        if target is not None:
            link("attack", attacker, target)
    for blocker, attackers in blocks.items():
        for attacker in attackers:
            link("block", blocker, attacker)
    defs = "".join(
        f"<marker id='{svg_id}-{k}' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' "
        f"markerHeight='6' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' "
        f"fill='var(--{k})'/></marker>" for k in ("attack", "block"))
    cls = "narrow" if layout.narrow else "wide"
    return (f"<svg class='{cls}' xmlns='http://www.w3.org/2000/svg' width='{layout.width}' "
            f"height='{layout.height}' viewBox='0 0 {layout.width} {layout.height}' role='img' "
            f"aria-label='{_e(caption)}'><defs>{defs}</defs>{''.join(body)}{''.join(lines)}"
            "</svg>")


def step_title(step: str, engine: Engine) -> str:
    """A step's title with its rule: ``Declare blockers step (509)``, a damage
    step a plugin declares in its own words, ``End step (513)``; a later
    combat's step (``declare_attackers#2``) with which combat it is (505.1a).
    The titles are the event vocabulary's
    (:func:`redzone.kernel.events.step_title`)."""
    title, rule = _events.step_title(step, engine.damage_step)
    return f"{title} ({rule})" if rule else title


def _phrase(event: Event, name: _Names) -> str:
    """An event's phrase, without its rule (the one place the report words
    an event)."""
    return display.event_text(event, name, rule=False)


def _timeline(events: Sequence[Event], name: _Names, rules: str, engine: Engine) -> str:
    out: list[str] = []
    current: str | None = None
    items: list[str] = []

    def close() -> None:
        if current is not None:
            out.append(f"<li class='step' data-step='{_e(current)}'><span class='step-title'>"
                       f"{_e(step_title(current, engine))}</span><ul>{''.join(items)}</ul></li>")

    for event in events:
        if event.step != current:
            close()
            current, items = event.step, []
        if event.kind == "step":
            continue
        rule = era_rule(rules, event.rule)
        items.append(f"<li class='event' data-kind='{_e(event.kind)}' "
                     f"data-rule='{_e(rule)}'>{_e(_phrase(event, name))}"
                     f"<span class='rule'>{_e(rule)}</span></li>")
    close()
    return f"<ol class='timeline'>{''.join(out)}</ol>"


def resolution_repr(res: Shown) -> str:
    """``<Resolution combat.toml: resolved, 17 events>``."""
    what = "resolved" if res.error is None else f"{res.error.kind} ({res.error.rule})"
    return f"<Resolution {res.scenario.file}: {what}, {len(res.events)} events>"


def _attempted(res: Shown, name: _Names) -> str:
    """For an illegal assignment: every creature's assignment in the step
    that was rejected, as proposed (given or the default), with the lethal
    damage its controller had to consider (510.1c-d)."""
    # (the rejected step's own record, by its combat and turn: not every
    # record of a step of its name, 505.1a)
    attempt = res.error.damage_step if res.error is not None else None
    if res.failed != "combat_damage" or attempt is None or not attempt.assignments:
        return ""
    flagged = _flagged(res)
    rows = []
    for rec in attempt.assignments:
        amounts = ", ".join(f"{n} to {name(r)}" for r, n in rec.amounts.items()) or "nothing"
        lethal = ", ".join(f"{name(c)} {rec.lethal[c]}" for c in rec.creatures
                           if c in rec.lethal) or "-"
        cls = " class='violation'" if rec.source in flagged else ""
        rows.append(f"<tr{cls} data-source='{_e(rec.source)}'><td><b>{_e(name(rec.source))}"
                    f"</b></td><td>{rec.power}</td><td>{_e(amounts)}</td><td>{_e(lethal)}</td>"
                    f"<td>{'as given' if rec.given else 'default'}</td></tr>")
    return (f"<section class='attempted' id='attempted'><h2>The attempted assignment "
            f"<span class='rule'>510.1</span></h2><table class='assignment'><tr>"
            "<th>creature</th><th>power</th><th>assigns</th><th>lethal damage</th>"
            f"<th></th></tr>{''.join(rows)}</table></section>")


def _explanation(res: Shown, name: _Names) -> str:
    """What would be legal instead (:func:`redzone.formats.explanation.explain`)."""
    if res.error is None:
        return ""
    items = []
    era = res.scenario.rules
    for line in explanation.explain(res, name):
        text = "".join(
            f"<b>{_e(t)}</b>" if role == explanation.NAME else
            f"<span class='good'>{_e(t)}</span>" if role == explanation.GOOD else
            f"<span class='note'>{_e(t)}</span>" if role == explanation.NOTE else _e(t)
            for t, role in line.parts)
        rule = f"<span class='rule'>{_e(era_rule(era, line.rule))}</span>" if line.rule else ""
        cls = "point" if line.bullet and line.depth == 1 else "detail"
        items.append(f"<li class='{cls}'>{text}{rule}</li>")
    if not items:
        return ""
    return (f"<section class='explanation' id='explanation'><h2>What would be legal "
            f"instead</h2><ul class='explanation'>{''.join(items)}</ul></section>")


def _flagged(res: Shown) -> set[str]:
    flagged: set[str] = set()
    if res.error is not None:
        flagged.update(res.error.objects)
        for v in res.error.violations:
            flagged.update(v.objects)
    return flagged


def _step_boards(result: CombatResult | None, before: GameState, engine: Engine,
                 origins: Mapping[str, str], prefix: str) -> list[str]:
    """A board after each combat damage step (510.1-510.4), with the combat as
    it then stands, when there are several or when creatures entered the
    combat (tokens entering attacking or blocking, 508.4, 509.4); and after
    the end step and the cleanup (513, 514) when the combat went on to them."""
    if result is None:
        return []
    damage = [s for s in result.after_steps if s not in ("end_step", "cleanup")]
    entered = any(o not in before.objects for st in result.after_steps.values()
                  for o in st.objects)
    out = []
    for step, state in result.after_steps.items():
        if step in damage and not (len(damage) > 1 or entered):
            continue
        combat = state.combat
        out.append(_board_svg(
            state, f"After the step: {step_title(step, engine)}",
            attacks=dict(combat.attacks) if combat is not None else {},
            blocks={b: tuple(a) for b, a in combat.blocks.items()} if combat else {},
            flagged=set(), illegal=None, origins=origins,
            board_id=f"board-{prefix}{step.replace('#', '-')}"))
    return out


def render_html(res: Shown, *, fragment: bool = False) -> str:
    """The visual report of a resolution, as one self-contained HTML page.

    :param res: the resolution (or what provides the same, :class:`Shown`).
    :param fragment: only the report's element with its scoped styles, for
        embedding in another page (a notebook's rich display); it takes no
        more height than its content.
    """
    scenario = res.scenario
    final = res.result.state if res.result is not None else None
    partial = res.partial.state if res.partial is not None else None
    name = _Names([scenario.state, final, res.failed_state, partial,
                   *(res.result.after_steps.values() if res.result is not None else ())])
    origins = _origins(res.events, name)
    flagged = _flagged(res)
    violations = ""
    if res.error is not None:
        era = scenario.rules
        items = "".join(f"<li><span class='rule'>{_e(era_rule(era, v.rule))}</span> "
                        f"{_e(v.message)}</li>" for v in res.error.violations) or (
            f"<li><span class='rule'>{_e(era_rule(era, res.error.rule))}</span> "
            f"{_e(res.error.message)}</li>")
        violations = (f"<section class='violations' id='violations'><h2>"
                      f"{_e(res.error.kind.replace('_', ' '))} "
                      f"<span class='rule'>{_e(era_rule(era, res.error.rule))}</span></h2>"
                      f"<p>Rejected as a whole; the state is left as it was "
                      f"({cite(scenario.rules, 'illegal')}).</p>"
                      f"<ul>{items}</ul></section>")
    attacks = dict(scenario.attacks)
    blocks = {b: tuple(a) for b, a in scenario.blocks.items()}
    shown_before = res.failed_state if res.failed in ("declare_blockers", "combat_damage",
                                                      "action") and res.failed_state else None
    # Which lines are dashed: the declaration that was illegal (an illegal
    # assignment or action leaves the declarations legal: only outlines).
    illegal = {"declare_attackers": "attack", "declare_blockers": "block"}.get(
        res.failed or "") if res.error is not None else None
    engine = scenario.engine
    boards = [_board_svg(scenario.state, "Before combat, with the attacks and blocks declared",
                         attacks=attacks, blocks=blocks, flagged=flagged,
                         illegal=illegal, board_id="board-before", origins=origins)]
    boards += _step_boards(res.result, scenario.state, engine, origins, "")
    boards += _step_boards(res.partial, scenario.state, engine, origins, "partial-")
    if final is not None:
        steps = res.result.steps if res.result is not None else ()
        last = "After the cleanup step" if "cleanup" in steps else "After combat"
        boards.append(_board_svg(final, last, attacks={}, blocks={}, flagged=set(),
                                 illegal=None, board_id="board-after", origins=origins))
    elif shown_before is not None:
        combat = shown_before.combat
        shown_attacks = dict(combat.attacks) if combat is not None and not illegal else attacks
        shown_blocks = ({b: tuple(a) for b, a in combat.blocks.items()}
                        if combat is not None and combat.blocks and illegal != "block"
                        else blocks)
        boards.append(_board_svg(shown_before, f"When it was rejected ({res.failed})",
                                 attacks=shown_attacks, blocks=shown_blocks, flagged=flagged,
                                 illegal=illegal, board_id="board-rejected", origins=origins))
    status = ("<span class='status ok'>resolved</span>" if res.error is None else
              "<span class='status illegal'>illegal</span>")
    edition = engine.edition
    report = (
        f"<div class='rz'><style>{_scoped(CSS)}</style>"
        f"<h1>{_e(scenario.file)} {status}</h1>"
        f"<p class='meta'>rules: <b>{_e(edition.name)}</b> · {_e(edition.title)}</p>"
        f"{violations}{_attempted(res, name)}{_explanation(res, name)}"
        "<h2>The board</h2><p class='legend'><b class='attack'>red</b>: attacks · "
        "<b class='block'>blue</b>: blocks · dashed: part of an illegal declaration · "
        "dotted frame: a token · tilted: tapped</p>"
        f"<div class='boards'>{''.join(boards)}</div>"
        f"<h2>The steps</h2>{_timeline(res.events, name, scenario.rules, engine)}</div>")
    if fragment:
        return report
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>redzone: {_e(scenario.file)}</title>"
            "<style>html, body { margin: 0; padding: 0; }</style></head>"
            f"<body>{report}</body></html>\n")


# -- a combat result alone (a notebook's rich display) ----------------------------------


class _EngineOfRules:
    """What the report reads of an engine, for a result that has none: its
    rules edition, and no damage step of a plugin's (titled by its name)."""

    def __init__(self, rules: str) -> None:
        from redzone.kernel.editions import get_edition

        self.edition = get_edition(rules)

    def damage_step(self, step: str) -> None:
        return None


@frozen
class _ResultScenario:
    file: str
    state: GameState
    rules: str
    attacks: Mapping[str, str | None]
    blocks: Mapping[str, tuple[str, ...]]
    engine: Any


@frozen
class _ResultShown:
    """A :class:`Shown` of a :class:`~redzone.CombatResult` alone: the
    combat from its starting state, its declarations read off its events."""

    scenario: _ResultScenario
    result: CombatResult
    error: None = None
    failed: None = None
    failed_state: None = None
    failed_action: None = None
    partial: None = None

    @property
    def events(self) -> tuple[Event, ...]:
        return self.result.events

    @property
    def assignments(self) -> tuple[AssignmentRecord, ...]:
        return tuple(a for step in self.result.damage_steps for a in step.assignments)

    @property
    def damage_steps(self) -> tuple[DamageStepRecord, ...]:
        return self.result.damage_steps


def result_html(result: CombatResult) -> str:
    """The visual report of a :class:`~redzone.CombatResult` as a notebook
    shows it (``CombatResult._repr_html_``): the fragment of
    :func:`render_html`, the combat's first declarations read off its
    ``attack`` and ``block`` events (508.1, 509.1), its rules edition off
    its state. The package declares it in the ``redzone.display`` entry-point
    group, where the kernel finds it.

    .. versionadded:: 0.1.0
    """
    first = [e for e in result.events if "#" not in e.step and "@" not in e.step]
    attacks = {e.attacker: e.target for e in first if e.kind == "attack" and e.attacker}
    blocks: dict[str, tuple[str, ...]] = {}
    for e in first:
        if e.kind == "block" and e.blocker and e.attacker:
            blocks[e.blocker] = (*blocks.get(e.blocker, ()), e.attacker)
    before = result.before or result.state
    shown = _ResultShown(_ResultScenario("combat", before, before.rules, attacks, blocks,
                                         _EngineOfRules(before.rules)), result)
    return render_html(shown, fragment=True)  # type: ignore[arg-type]


__all__ = ["Shown", "render_html", "resolution_repr", "result_html", "step_title"]
