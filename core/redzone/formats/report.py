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

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from redzone.formats.citations import cite, era_rule
from redzone.kernel import display
from redzone.kernel.events import Event
from redzone.kernel.model import GameState, Permanent

if TYPE_CHECKING:
    from redzone.formats.scenario import Scenario
    from redzone.kernel.engine import Engine
    from redzone.kernel.errors import IllegalActionError
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

CARD_W = 168
CARD_H = 118
GAP = 22
PLAYER_W = 120
ROW_GAP = 96
MARGIN = 16

STEP_TITLES: Mapping[str, str] = {
    "beginning_of_combat": "Beginning of combat (507)",
    "declare_attackers": "Declare attackers (508)",
    "declare_blockers": "Declare blockers (509)",
    "combat_damage": "Combat damage (510)",
    "end_of_combat": "End of combat (511)",
}

CSS = """
:root { --bg: #f7f5f0; --fg: #1d1d1f; --card: #fffdf7; --edge: #8a7f6a; --muted: #6b6b6b;
  --attack: #c0392b; --block: #1f6fb2; --bad: #d4145a; --dead: #b9b3a6; --panel: #ece8df; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181d; --fg: #e8e6e1; --card: #23262e; --edge: #7d8696; --muted: #a0a4ad;
    --attack: #ff6b5a; --block: #5aa9ff; --bad: #ff4f8b; --dead: #4a4d55; --panel: #1f2228; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; min-height: 100vh; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.status { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; }
.status.ok { background: #2e7d32; color: #fff; }
.status.illegal { background: var(--bad); color: #fff; }
.boards { display: flex; flex-wrap: wrap; gap: 24px; }
figure.board { margin: 0; background: var(--panel); border-radius: 10px; padding: 8px;
  overflow-x: auto; max-width: 100%; }
figure.board figcaption { font-weight: 600; margin: 0 0 4px 6px; }
svg text { fill: var(--fg); font-family: system-ui, sans-serif; }
svg .card rect.frame { fill: var(--card); stroke: var(--edge); stroke-width: 1.5; }
svg .card.gone rect.frame { fill: var(--dead); stroke-dasharray: 5 4; }
svg .card.violation rect.frame { stroke: var(--bad); stroke-width: 4; }
svg .card .name { font-weight: 700; font-size: 13px; }
svg .card .pt { font-weight: 700; font-size: 16px; }
svg .card .kw { font-size: 11.5px; font-style: italic; }
svg .card .marks { font-size: 11.5px; fill: var(--attack); }
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


class _Names:
    def __init__(self, states: Iterable[GameState | None]) -> None:
        self.names: dict[str, str] = {}
        for state in states:
            for perm in (state.objects.values() if state is not None else ()):
                self.names.setdefault(perm.id, perm.name)

    def __call__(self, obj: str | None) -> str:
        return "nothing" if obj is None else self.names.get(obj, obj)


def _fit(text: str, width: int, size: float) -> str:
    """``text`` cut to fit ``width`` pixels at a font ``size`` (a rough
    average character width)."""
    most = max(4, int(width / (size * 0.56)))
    return text if len(text) <= most else text[:most - 1] + "…"


def _card(perm: Permanent, x: int, y: int, *, flagged: bool) -> str:
    classes = ["card"]
    if perm.zone != "battlefield":
        classes.append("gone")
    if flagged:
        classes.append("violation")
    keywords = ", ".join(k.text for k in perm.keywords)
    marks = [m for m in display.permanent_status(perm)]
    kinds = [t for t in ("artifact", "enchantment", "land", "planeswalker", "battle")
             if t in perm.types]
    pt = ("" if perm.base_power is None and perm.base_toughness is None
          else f"{perm.power}/{perm.toughness}")
    if perm.loyalty is not None:
        pt = f"loyalty {perm.loyalty}"
    elif perm.defense is not None:
        pt = f"defense {perm.defense}"
    title = f"{perm.id}: {display.permanent_summary(perm)}"
    if marks:
        title += f" ({', '.join(marks)})"
    rotate = f" transform='rotate(6 {x + CARD_W // 2} {y + CARD_H // 2})'" if perm.tapped else ""
    parts = [
        f"<g class='{' '.join(classes)}' data-id='{_e(perm.id)}' data-name='{_e(perm.name)}' "
        f"data-pt='{_e(pt)}' data-damage='{perm.damage}'{rotate}>",
        f"<title>{_e(title)}</title>",
        f"<rect class='frame' x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='9'/>",
        f"<text class='name' x='{x + 9}' y='{y + 20}'>{_e(_fit(perm.name, CARD_W - 16, 13))}"
        "</text>",
    ]
    line_y = y + 38
    if kinds:
        parts.append(f"<text class='kw' x='{x + 9}' y='{line_y}'>{_e(' '.join(kinds))}</text>")
        line_y += 16
    if keywords:
        parts.append(f"<text class='kw' x='{x + 9}' y='{line_y}'>"
                     f"{_e(_fit(keywords, CARD_W - 16, 11.5))}</text>")
        line_y += 16
    if marks:
        parts.append(f"<text class='marks' x='{x + 9}' y='{min(line_y, y + CARD_H - 30)}'>"
                     f"{_e(_fit(', '.join(marks), CARD_W - 16, 11.5))}</text>")
    if pt:
        parts.append(f"<text class='pt' x='{x + CARD_W - 10}' y='{y + CARD_H - 11}' "
                     f"text-anchor='end'>{_e(pt)}</text>")
    parts.append("</g>")
    return "".join(parts)


def _board_svg(state: GameState, caption: str, *, attacks: Mapping[str, str | None],
               blocks: Mapping[str, Sequence[str]], flagged: set[str], illegal: str | None,
               board_id: str) -> str:
    """One board: a row per player (the attacking player at the bottom), a
    card per permanent, lines for the attacks and blocks."""
    players = list(state.players.values())
    active = [p for p in players if p.id == state.active_player]
    order = [p for p in players if p.id != state.active_player] + active
    rows: list[tuple[str, list[Permanent]]] = []
    for player in order:
        rows.append((player.id, [p for p in state.objects.values()
                                 if (p.controller if p.zone == "battlefield" else p.owner)
                                 == player.id]))
    widest = max((len(perms) for _pid, perms in rows), default=0)
    width = MARGIN * 2 + PLAYER_W + GAP + max(1, widest) * (CARD_W + GAP)
    height = MARGIN * 2 + len(rows) * CARD_H + max(0, len(rows) - 1) * ROW_GAP
    centre: dict[str, tuple[int, int, int, int]] = {}  # id -> x, top, bottom, centre y
    body: list[str] = []
    for r, (pid, perms) in enumerate(rows):
        y = MARGIN + r * (CARD_H + ROW_GAP)
        player = state.players[pid]
        pclass = "player violation" if pid in flagged else "player"
        life = f"{player.life} life" + (f", {player.poison} poison" if player.poison else "")
        body.append(f"<g class='{pclass}' data-id='{_e(pid)}'><title>"
                    f"{_e(display.player_text(player))}</title>"
                    f"<rect x='{MARGIN}' y='{y}' width='{PLAYER_W}' height='{CARD_H}'/>"
                    f"<text class='name' x='{MARGIN + 10}' y='{y + 24}'>"
                    f"{_e(_fit(pid, PLAYER_W - 16, 14))}</text>"
                    f"<text x='{MARGIN + 10}' y='{y + 46}'>{_e(life)}</text>"
                    + (f"<text x='{MARGIN + 10}' y='{y + 68}' class='marks'>lost the game"
                       "</text>" if player.lost else "")
                    + (f"<text x='{MARGIN + 10}' y='{y + CARD_H - 12}' class='kw'>active "
                       "player</text>" if pid == state.active_player else "")
                    + "</g>")
        centre[pid] = (MARGIN + PLAYER_W // 2, y, y + CARD_H, y + CARD_H // 2)
        for c, perm in enumerate(perms):
            x = MARGIN + PLAYER_W + GAP + c * (CARD_W + GAP)
            body.append(_card(perm, x, y, flagged=perm.id in flagged))
            centre[perm.id] = (x + CARD_W // 2, y, y + CARD_H, y + CARD_H // 2)
    lines: list[str] = []

    def link(kind: str, a: str, b: str) -> None:
        if a not in centre or b not in centre:
            return
        ax, atop, abot, _ay = centre[a]
        bx, btop, bbot, _by = centre[b]
        y1, y2 = (atop, bbot) if atop > btop else (abot, btop) if atop < btop else (atop, btop)
        extra = (" illegal" if illegal in (kind, "any") and (a in flagged or b in flagged)
                 else "")
        lines.append(f"<line class='{kind}{extra}' data-from='{_e(a)}' data-to='{_e(b)}' "
                     f"x1='{ax}' y1='{y1}' x2='{bx}' y2='{y2}' "
                     f"marker-end='url(#{board_id}-{kind})'/>")

    for attacker, target in attacks.items():
        if target is not None:
            link("attack", attacker, target)
    for blocker, attackers in blocks.items():
        for attacker in attackers:
            link("block", blocker, attacker)
    defs = "".join(
        f"<marker id='{board_id}-{k}' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' "
        f"markerHeight='6' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' "
        f"fill='var(--{k})'/></marker>" for k in ("attack", "block"))
    return (f"<figure class='board' id='{board_id}'><figcaption>{_e(caption)}</figcaption>"
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}' role='img' aria-label='{_e(caption)}'>"
            f"<defs>{defs}</defs>{''.join(body)}{''.join(lines)}</svg></figure>")


def _timeline(events: Sequence[Event], name: _Names, rules: str, engine: Engine) -> str:
    out: list[str] = []
    current: str | None = None
    items: list[str] = []

    def close() -> None:
        if current is not None:
            title = STEP_TITLES.get(current)
            spec = engine.damage_step(current) if title is None else None
            if spec is not None:  # a combat damage step a plugin declares: its own words
                title = f"{spec.summary} ({spec.rule})" if spec.summary else None
            title = title or current.replace("_", " ")
            out.append(f"<li class='step' data-step='{_e(current)}'><span class='step-title'>"
                       f"{_e(title)}</span><ul>{''.join(items)}</ul></li>")

    for event in events:
        if event.step != current:
            close()
            current, items = event.step, []
        if event.kind == "step":
            continue
        rule = era_rule(rules, event.rule)
        items.append(f"<li class='event' data-kind='{_e(event.kind)}' "
                     f"data-rule='{_e(rule)}'>"
                     f"{_e(display.event_text(event, name, rule=False))}"
                     f"<span class='rule'>{_e(rule)}</span></li>")
    close()
    return f"<ol class='timeline'>{''.join(out)}</ol>"


def resolution_repr(res: Shown) -> str:
    """``<Resolution combat.toml: resolved, 17 events>``."""
    what = "resolved" if res.error is None else f"{res.error.kind} ({res.error.rule})"
    return f"<Resolution {res.scenario.file}: {what}, {len(res.events)} events>"


def render_html(res: Shown, *, fragment: bool = False) -> str:
    """The visual report of a resolution, as one self-contained HTML page.

    :param fragment: only the report's element with its scoped styles, for
        embedding in another page (a notebook's rich display).
    """
    scenario = res.scenario
    final = res.result.state if res.result is not None else None
    name = _Names([scenario.state, final, res.failed_state])
    flagged: set[str] = set()
    violations = ""
    if res.error is not None:
        flagged.update(res.error.objects)
        for v in res.error.violations:
            flagged.update(v.objects)
        items = "".join(f"<li><span class='rule'>{_e(v.rule)}</span> {_e(v.message)}</li>"
                        for v in res.error.violations) or (
            f"<li><span class='rule'>{_e(res.error.rule)}</span> {_e(res.error.message)}</li>")
        violations = (f"<section class='violations' id='violations'><h2>"
                      f"{_e(res.error.kind.replace('_', ' '))} "
                      f"<span class='rule'>{_e(res.error.rule)}</span></h2>"
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
    boards = [_board_svg(scenario.state, "Before combat, with the attacks and blocks declared",
                         attacks=attacks, blocks=blocks, flagged=flagged,
                         illegal=illegal, board_id="board-before")]
    if final is not None:
        boards.append(_board_svg(final, "After combat", attacks={}, blocks={}, flagged=set(),
                                 illegal=None, board_id="board-after"))
    elif shown_before is not None:
        boards.append(_board_svg(shown_before, f"When it was rejected ({res.failed})",
                                 attacks=attacks, blocks=blocks, flagged=flagged,
                                 illegal=illegal, board_id="board-rejected"))
    status = ("<span class='status ok'>resolved</span>" if res.error is None else
              "<span class='status illegal'>illegal</span>")
    edition = scenario.engine.edition
    report = (
        f"<div class='rz'><style>{_scoped(CSS)}</style>"
        f"<h1>{_e(scenario.file)} {status}</h1>"
        f"<p class='meta'>rules: <b>{_e(edition.name)}</b> · {_e(edition.title)}</p>"
        f"{violations}"
        "<h2>The board</h2><p class='legend'><b class='attack'>red</b>: attacks · "
        "<b class='block'>blue</b>: blocks · dashed: part of an illegal declaration · "
        "tilted: tapped</p>"
        f"<div class='boards'>{''.join(boards)}</div>"
        f"<h2>The steps</h2>{_timeline(res.events, name, scenario.rules, scenario.engine)}</div>")
    if fragment:
        return report
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>redzone: {_e(scenario.file)}</title>"
            "<style>html, body { margin: 0; padding: 0; }</style></head>"
            f"<body>{report}</body></html>\n")


__all__ = ["Shown", "render_html", "resolution_repr"]
