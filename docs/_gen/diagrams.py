"""The docs' diagrams, drawn as inline SVG from the code (no script, no
network: they render in any browser and in the strict build as they are).

- :func:`combat_phase`: the steps of the combat phase (506.1), the priority
  window in each (117.3a, 506.5) and the hooks the core asks in each step,
  read from the banner comments of ``redzone/kernel/hookspecs.py``, so a new
  hook appears in the drawing by itself;
- :func:`damage_pipeline`: the four parts of rule 120.4 and the hooks asked in
  each;
- :func:`data_flow`: what a command does with a scenario file, from the file
  to the account, the JSON outcome and the visual report.

Each returns an ``<svg>`` element, deterministic byte for byte.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

FONT = "font-family='ui-sans-serif, system-ui, sans-serif'"
MONO = "font-family='ui-monospace, SFMono-Regular, Menlo, monospace'"

STYLE = """<style>
.rzd-box { fill: #fff8e6; stroke: #8a6d1f; stroke-width: 1.5; }
.rzd-step { fill: #fde3cf; stroke: #b3541e; stroke-width: 1.5; }
.rzd-prio { fill: #dcecff; stroke: #1f5fa8; stroke-width: 1.5; }
.rzd-hook { fill: #1d1d1f; font-size: 12px; }
.rzd-title { fill: #1d1d1f; font-size: 14px; font-weight: 700; }
.rzd-text { fill: #1d1d1f; font-size: 12.5px; }
.rzd-rule { fill: #6b4a00; font-size: 11.5px; }
.rzd-arrow { stroke: #5b5b5b; stroke-width: 1.8; fill: none; }
[data-md-color-scheme="slate"] .rzd-box { fill: #2b2a26; stroke: #c9a646; }
[data-md-color-scheme="slate"] .rzd-step { fill: #3a2a20; stroke: #e08a4f; }
[data-md-color-scheme="slate"] .rzd-prio { fill: #1f2c3d; stroke: #6aa7ff; }
[data-md-color-scheme="slate"] .rzd-hook, [data-md-color-scheme="slate"] .rzd-title,
[data-md-color-scheme="slate"] .rzd-text { fill: #ecebe8; }
[data-md-color-scheme="slate"] .rzd-rule { fill: #e6c86e; }
[data-md-color-scheme="slate"] .rzd-arrow { stroke: #b5b5b5; }
</style>""".replace("\n", " ")


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _svg(name: str, width: int, height: int, body: Sequence[str], label: str) -> str:
    marker = (f"<defs><marker id='rzd-arrow-{name}' viewBox='0 0 10 10' refX='9' refY='5' "
              "markerWidth='7' markerHeight='7' orient='auto-start-reverse'>"
              "<path d='M0,0 L10,5 L0,10 z' fill='#5b5b5b'/></marker></defs>")
    return (f"<svg class='rz-diagram' data-diagram='{name}' xmlns='http://www.w3.org/2000/svg' "
            f"viewBox='0 0 {width} {height}' width='100%' style='max-width:{width}px' "
            f"role='img' aria-label='{_e(label)}'>{STYLE}{marker}{''.join(body)}</svg>")


def _arrow(name: str, x1: float, y1: float, x2: float, y2: float) -> str:
    return (f"<line class='rzd-arrow' x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' "
            f"marker-end='url(#rzd-arrow-{name})'/>")


#: The steps of the combat phase (506.1), with the rule of each and the
#: banner of hookspecs.py whose hooks are asked in it.
STEPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Beginning of combat", "507", ()),
    ("Declare attackers", "508", ("Declare attackers step",)),
    ("Declare blockers", "509", ("Declare blockers step",)),
    ("Combat damage (first strike, then regular)", "510",
     ("Combat damage step", "The damage pipeline")),
    ("End of combat", "511", ("End of combat",)),
)


def combat_phase(groups: dict[str, list[str]]) -> str:
    """The combat phase: each step, its priority window and the hooks asked.

    :param groups: banner -> hook names, from hookspecs.py.
    """
    def asked(prefixes: Sequence[str]) -> list[str]:
        out: list[str] = []
        for banner, names in groups.items():
            if any(banner.startswith(p) for p in prefixes):
                out += names
        return out

    width, left, col = 900, 20, 250
    body: list[str] = []
    y = 20
    body.append(f"<text class='rzd-title' {FONT} x='{left}' y='{y + 4}'>The combat phase "
                "(506.1): each step, then a priority window (117.3a)</text>")
    y += 22
    rows = []
    for title, rule, banners in STEPS:
        hooks = asked(banners)
        lines = max(1, (len(hooks) + 1) // 2)
        rows.append((title, rule, hooks, max(64, 22 + lines * 17)))
    for i, (title, rule, hooks, h) in enumerate(rows):
        body.append(f"<g data-step='{rule}'>")
        body.append(f"<rect class='rzd-step' x='{left}' y='{y}' width='{col - 30}' "
                    f"height='{h}' rx='8'/>")
        body.append(f"<text class='rzd-title' {FONT} x='{left + 12}' y='{y + 22}'>"
                    f"{_e(title if len(title) < 24 else title.split(' (')[0])}</text>")
        body.append(f"<text class='rzd-rule' {MONO} x='{left + 12}' y='{y + 40}'>rule {rule}"
                    "</text>")
        if len(title) >= 24:
            body.append(f"<text class='rzd-rule' {FONT} x='{left + 12}' y='{y + 56}'>"
                        "first strike step, then regular</text>")
        px = left + col
        body.append(f"<rect class='rzd-prio' x='{px - 22}' y='{y + h / 2 - 11}' width='22' "
                    f"height='22' rx='11'/><text class='rzd-rule' {FONT} x='{px - 11}' "
                    f"y='{y + h / 2 + 4}' text-anchor='middle'>P</text>")
        hx = px + 16
        body.append(f"<rect class='rzd-box' x='{hx}' y='{y}' width='{width - hx - 10}' "
                    f"height='{h}' rx='8'/>")
        if hooks:
            for j, hook in enumerate(hooks):
                cx = hx + 12 + (j % 2) * 315
                cy = y + 20 + (j // 2) * 17
                body.append(f"<text class='rzd-hook' {MONO} x='{cx}' y='{cy}' "
                            f"data-hook='{hook}'>{hook}</text>")
        else:
            body.append(f"<text class='rzd-text' {FONT} x='{hx + 12}' y='{y + 24}'>no hook: "
                        "the state is checked, then players get priority</text>")
        body.append("</g>")
        y += h
        if i < len(rows) - 1:
            body.append(_arrow("combat", left + (col - 30) / 2, y + 2, left + (col - 30) / 2,
                               y + 20))
            y += 22
    y += 16
    body.append(f"<text class='rzd-text' {FONT} x='{left}' y='{y}'>P: a priority window: "
                "the scenario's actions (after = STEP) happen here, and triggered abilities "
                "go on the stack and resolve (603.3).</text>")
    placed = {h for _t, _r, banners in STEPS for h in asked(banners)}
    rest = [(banner, [h for h in names if h not in placed]) for banner, names in groups.items()]
    for banner, names in rest:
        if not names:
            continue
        y += 22
        body.append(f"<text class='rzd-title' {FONT} x='{left}' y='{y}'>{_e(banner)}</text>")
        for j, hook in enumerate(names):
            if j % 2 == 0:
                y += 17
            body.append(f"<text class='rzd-hook' {MONO} x='{left + 12 + (j % 2) * 315}' "
                        f"y='{y}' data-hook='{hook}'>{hook}</text>")
    return _svg("combat", width, y + 14, body, "The combat phase, its steps, priority "
                "windows and the hooks asked in each")


#: The four parts of rule 120.4, the hooks asked in each, and what happens.
PIPELINE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("120.4a", "Excess damage redirected, as the effect causing it says", ()),
    ("120.4b", "Damage is redirected (614.9), then dealt as modified by prevention (615) "
               "and replacement effects (614): 0 damage is no damage (120.8)",
     ("redzone_redirect_damage", "redzone_prevent_damage", "redzone_modify_damage")),
    ("120.4c", "Dealt damage becomes its results (120.3: life loss, marked damage, "
               "counters, poison), as modified by result replacements",
     ("redzone_damage_results", "redzone_result_replacements")),
    ("120.4d", "The damage event occurs; abilities that trigger on it wait to be put on "
               "the stack", ("redzone_damage_event", "redzone_triggers")),
    ("704", "State-based actions: lethal damage, 0 toughness, 0 life, poison...",
     ("redzone_state_based_actions", "redzone_permanent_state_based_actions",
      "redzone_cannot_be_destroyed")),
)


def damage_pipeline(known_hooks: Sequence[str]) -> str:
    """The 120.4 damage pipeline with the hooks asked in each part.

    :param known_hooks: every hookspec name; a hook drawn here that no longer
        exists is an error, so the drawing can't go stale.
    """
    missing = [h for _r, _t, hooks in PIPELINE for h in hooks if h not in known_hooks]
    if missing:
        raise LookupError(f"the damage pipeline diagram names hooks that don't exist: "
                          f"{missing}")
    width, left = 900, 20
    body: list[str] = [f"<text class='rzd-title' {FONT} x='{left}' y='24'>One damage event "
                       "(120.4), for combat and noncombat damage alike</text>"]
    y = 40
    for i, (rule, text, hooks) in enumerate(PIPELINE):
        h = 58
        body.append(f"<g data-rule='{rule}'><rect class='rzd-step' x='{left}' y='{y}' "
                    f"width='110' height='{h}' rx='8'/><text class='rzd-title' {MONO} "
                    f"x='{left + 55}' y='{y + 34}' text-anchor='middle'>{rule}</text>")
        body.append(f"<rect class='rzd-box' x='{left + 126}' y='{y}' width='{width - 166}' "
                    f"height='{h}' rx='8'/>")
        words, line, lines = text.split(), "", []
        for w in words:
            if len(line) + len(w) > 88:
                lines.append(line)
                line = w
            else:
                line = f"{line} {w}".strip()
        lines.append(line)
        for k, ln in enumerate(lines[:2]):
            body.append(f"<text class='rzd-text' {FONT} x='{left + 138}' y='{y + 19 + k * 16}'>"
                        f"{_e(ln)}</text>")
        if hooks:
            body.append(f"<text class='rzd-hook' {MONO} x='{left + 138}' y='{y + 51}'>"
                        f"{_e(' · '.join(hooks))}</text>")
        body.append("</g>")
        y += h
        if i < len(PIPELINE) - 1:
            body.append(_arrow("pipeline", left + 55, y + 2, left + 55, y + 18))
            y += 20
    return _svg("pipeline", width, y + 12, body, "The damage pipeline of rule 120.4")


def data_flow() -> str:
    """What ``redzone run FILE`` does, from the file to what it prints."""
    boxes = (
        ("scenario file", "TOML or JSON, or - for standard input", "file"),
        ("formats.scenario", "document, validator, builder: ids, keywords, cards", "fmt"),
        ("kernel.Engine", "plugins found by entry point; the combat resolved step by step, "
                          "no I/O", "kernel"),
        ("formats.outcome", "Resolution: states, events with rules, assignments", "fmt"),
    )
    outs = (("frontends.account", "the account (text)"),
            ("formats.outcome", "--json: the JSON outcome"),
            ("frontends.board", "--board: a compact board"),
            ("formats.report", "--html: the visual report"))
    width, left, w, h = 900, 20, 200, 70
    body: list[str] = [f"<text class='rzd-title' {FONT} x='{left}' y='22'>redzone run FILE: "
                       "imports point down, front ends to formats to the kernel</text>"]
    y = 40
    gap = (width - 2 * left - len(boxes) * w) / (len(boxes) - 1)
    for i, (title, text, kind) in enumerate(boxes):
        x = left + i * (w + gap)
        cls = "rzd-step" if kind == "kernel" else "rzd-box"
        body.append(f"<g data-box='{_e(title)}'><rect class='{cls}' x='{x}' y='{y}' "
                    f"width='{w}' height='{h + 20}' rx='8'/><text class='rzd-title' {MONO} "
                    f"x='{x + 10}' y='{y + 22}'>{_e(title)}</text>")
        words, line, lines = text.split(), "", []
        for wd in words:
            if len(line) + len(wd) > 28:
                lines.append(line)
                line = wd
            else:
                line = f"{line} {wd}".strip()
        lines.append(line)
        for k, ln in enumerate(lines[:3]):
            body.append(f"<text class='rzd-text' {FONT} x='{x + 10}' y='{y + 42 + k * 15}'>"
                        f"{_e(ln)}</text>")
        body.append("</g>")
        if i < len(boxes) - 1:
            body.append(_arrow("flow", x + w + 2, y + h / 2, x + w + gap - 4, y + h / 2))
    last_x = left + (len(boxes) - 1) * (w + gap) + w / 2
    y2 = y + h + 70
    ow = (width - 2 * left - 3 * 16) / 4
    for j, (title, text) in enumerate(outs):
        x = left + j * (ow + 16)
        body.append(f"<g data-box='{_e(title)}'><rect class='rzd-prio' x='{x}' y='{y2}' "
                    f"width='{ow}' height='58' rx='8'/><text class='rzd-title' {MONO} "
                    f"x='{x + 10}' y='{y2 + 22}'>{_e(title)}</text><text class='rzd-text' "
                    f"{FONT} x='{x + 10}' y='{y2 + 42}'>{_e(text)}</text></g>")
        body.append(_arrow("flow", last_x, y + h + 22, x + ow / 2, y2 - 4))
    y3 = y2 + 80
    body.append(f"<text class='rzd-text' {FONT} x='{left}' y='{y3}'>stdout: the outcome, "
                "account, list or explanation · stderr: diagnostics · exit 0 resolved, "
                "1 illegal, 2 bad file, 3 plugin failure, 64 usage</text>")
    return _svg("flow", width, y3 + 14, body, "The data flow of a redzone command")
