"""Issue item "the report shows the whole combat": tokens, teams, a board per
damage step, the explanation of an illegal combat, the end step and cleanup,
zones in words, a phone screen, dark mode, the notebook fragment; read back
with an HTML parser, and measured in headless Chromium at 1280 px and 390 px,
light and dark (one page load per colour scheme, each report in an iframe of
each width: the browser's own window can't be narrower than 500 px)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import _browser
import pytest
from redzone import examples
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.report import render_html
from redzone.formats.scenario import load, loads
from redzone.frontends.board import board_table
from rich.console import Console
from test_html_report import parse

DOCS = Path(__file__).resolve().parents[1] / "docs"

TEAMS = """
active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
teams = { red = ["alice", "carol"], blue = ["bob", "dave"] }
[players.alice]
[players.bob]
[players.carol]
[players.dave]

[[permanents]]
id = "orc"
name = "Hill Orc"
controller = "carol"
power = 5
toughness = 5
keywords = ["first strike"]

[[permanents]]
id = "bear"
name = "Grizzly Bears"
controller = "alice"
power = 2
toughness = 2

[[permanents]]
id = "wall"
name = "Wall of Wood"
controller = "dave"
power = 0
toughness = 3

[combat]
attacks = { orc = "dave", bear = "bob" }
blocks = { wall = "orc" }
"""

#: 702.19b: a trampler assigning past a blocker it hasn't assigned lethal damage.
BAD_ASSIGNMENT = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "ape"
name = "Silverback Ape"
controller = "alice"
power = 5
toughness = 5
keywords = ["trample"]

[[permanents]]
id = "wall"
name = "Wall of Stone"
controller = "bob"
power = 0
toughness = 4

[combat]
attacks = { ape = "bob" }
blocks = { wall = "ape" }
assign = { ape = { wall = 1, bob = 4 } }
"""

#: 513, 514: a combat that goes on to the end step and the cleanup.
THROUGH = 'through = "cleanup"\n' + """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "orc"
name = "Hill Orc"
controller = "alice"
power = 2
toughness = 2

[combat]
attacks = { orc = "bob" }
"""


def _reports() -> dict[str, str]:
    return {
        "myriad": render_html(resolve(load(examples.path("myriad")))),
        "mobilize": render_html(resolve(load(examples.path("mobilize")))),
        "teams": render_html(resolve(loads(TEAMS))),
        "menace": render_html(resolve(load(examples.path("menace-one-blocker")))),
        "assignment": render_html(resolve(loads(BAD_ASSIGNMENT))),
        "through": render_html(resolve(loads(THROUGH))),
    }


def test_tokens_entering_attacking_are_marked_and_a_copy_names_its_original() -> None:
    """111.1, 508.4, 702.116a (myriad), 702.181a (mobilize): the tokens that
    enter attacking are on a board with the attack they make, marked as
    tokens; the myriad copy says it copies the Banshee, the original doesn't."""
    page = parse(render_html(resolve(load(examples.path("myriad")))))
    tokens = [a for a in page.having("g", "token")]
    assert tokens and {a["data-id"] for a in tokens} == {"banshee.myriad.1"}
    assert all(a["data-origin"] == "copy of banshee" for a in tokens)
    assert not [a for a in page.having("g", "card") if a["data-id"] == "banshee"
                and "token" in (a["class"] or "")]
    attacks = {(a["data-from"], a["data-to"]) for a in page.having("line", "attack")}
    assert ("banshee.myriad.1", "carol") in attacks
    page = parse(render_html(resolve(load(examples.path("mobilize")))))
    warriors = {a["data-id"]: a["data-origin"] for a in page.having("g", "token")}
    assert warriors == {"voice.mobilize.1": "made by Voice of Victory",
                        "voice.mobilize.2": "made by Voice of Victory"}
    attacks = {(a["data-from"], a["data-to"]) for a in page.having("line", "attack")}
    assert {("voice.mobilize.1", "bob"), ("voice.mobilize.2", "bob")} <= attacks


def test_zones_read_as_english() -> None:
    """111.7, 704.5d: a token that left the battlefield "ceased to exist";
    nowhere "in the ceased" (report, --board)."""
    res = resolve(load(examples.path("myriad")))
    text = render_html(res)
    assert "ceased to exist" in text and "in the ceased" not in text
    console = Console(width=200, color_system=None, record=True)
    console.print(board_table(res))
    board = console.export_text()
    assert "ceased to exist" in board and "in the ceased" not in board
    assert "banshee.myriad.1 (token)" in board


def test_teams_share_one_life_total_in_json_board_and_report() -> None:
    """810.4, 810.9: the JSON outcome's ``teams`` gives each team's players and
    its one shared life total (also after each damage step); ``--board`` and
    the report show it."""
    res = resolve(loads(TEAMS))
    out = outcome_json(res)
    assert out["teams"] == {
        "red": {"players": ["alice", "carol"], "life": 30, "poison": 0, "lost": False},
        "blue": {"players": ["bob", "dave"], "life": 28, "poison": 0, "lost": False}}
    assert out["after_steps"]["first_strike_damage"]["teams"]["blue"]["life"] == 30
    assert "teams" not in outcome_json(resolve(load(examples.path("mobilize"))))
    console = Console(width=200, color_system=None, record=True)
    console.print(board_table(res))
    board = console.export_text()
    assert re.search(r"team blue\s*│\s*30 life, shared\s*│.*│\s*28 life, shared", board)
    page = parse(render_html(res))
    after = [a for a in page.having("span", "team") if a["data-team"] == "blue"]
    # before, after first strike, after the regular step, after combat
    assert [a["data-life"] for a in after] == ["30", "30", "28", "28"]


def test_a_board_after_each_damage_step_and_the_end_step_and_cleanup() -> None:
    """510.4: with a first-strike step, a board after each damage step; 513
    and 514 titled in the timeline, and boards after them."""
    page = parse(render_html(resolve(loads(TEAMS))))
    ids = [a["id"] for a in page.having("figure", "board")]
    assert ids == ["board-before", "board-first_strike_damage", "board-combat_damage",
                   "board-after"]
    text = render_html(resolve(loads(THROUGH)))
    assert "End step (513)" in text and "Cleanup step (514)" in text
    assert "After the cleanup step" in text
    steps = [a["data-step"] for a in parse(text).having("li", "step")]
    assert steps[-2:] == ["end_step", "cleanup"]


def test_an_illegal_assignment_shows_the_attempt_and_what_would_be_legal() -> None:
    """702.19b: the attempted assignment (1 to the wall, 4 to bob), the lethal
    damage (4) and a legal assignment, as the terminal account explains it."""
    res = resolve(loads(BAD_ASSIGNMENT))
    page = parse(render_html(res))
    text = "".join(page.text)
    assert page.having("section", "attempted") and page.having("section", "explanation")
    assert "1 to Wall of Stone, 4 to Silverback Ape" not in text
    assert "1 to Wall of Stone, 4 to bob" in text
    assert "a legal assignment: 4 to Wall of Stone, 1 to bob" in text
    assert "702.19b" in text


MEASURE = """
<script>
(function () {
  function box(e) { var r = e.getBoundingClientRect();
    return {l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height}; }
  function shown(e) { return getComputedStyle(e).display !== 'none'; }
  var out = {width: innerWidth, boards: [], flagged: [], tokens: [], names: [], texts: []};
  document.querySelectorAll('figure.board svg').forEach(function (s) {
    if (shown(s)) { out.boards.push({cls: s.getAttribute('class'), box: box(s)}); }
  });
  document.querySelectorAll('figure.board svg').forEach(function (s) {
    if (!shown(s)) { return; }
    s.querySelectorAll('g.violation').forEach(function (g) { out.flagged.push(box(g)); });
    s.querySelectorAll('g.token').forEach(function (g) {
      out.tokens.push({box: box(g), mark: g.querySelector('.tokenmark') ?
        g.querySelector('.tokenmark').textContent : ''}); });
    s.querySelectorAll('g.card .name').forEach(function (t) { out.names.push(box(t).h); });
  });
  var rz = document.querySelector('.rz');
  out.bg = getComputedStyle(rz).backgroundColor;
  out.fg = getComputedStyle(rz).color;
  out.rz = box(rz);
  out.last = box(rz.lastElementChild);
  out.text = rz.innerText;
  out.scroll = document.documentElement.scrollWidth;
  var slot = parent.document.getElementById(window.name);
  slot.textContent = JSON.stringify(out);
})();
</script>"""


def _page(reports: dict[str, str], widths: tuple[int, ...]) -> str:
    frames = []
    for key, text in reports.items():
        copy = text.replace("</body>", MEASURE + "</body>")
        for width in widths:
            slot = f"{key}-{width}"
            frames.append(f"<pre id='{slot}'></pre><iframe name='{slot}' width='{width}' "
                          f"height='3000' style='border:0' srcdoc=\"{html.escape(copy)}\">"
                          "</iframe>")
    return "<!DOCTYPE html><html><body style='margin:0'>" + "".join(frames) + "</body></html>"


def _luminance(css: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chromium_measures_every_report_point(scheme: str, tmp_path: Path) -> None:
    """At 1280 px and 390 px, light and dark: the board fits the width (no
    sideways scrolling; the narrow layout on a phone), the offending pair of
    an illegal block is inside the screen, tokens carry their mark, card names
    stay readable (at least 9 px high), the colours follow the scheme, the end
    step and cleanup are titled, no zone reads "in the ceased", and the page
    ends where its content does (no screen-tall tail)."""
    page = tmp_path / "reports.html"
    page.write_text(_page(_reports(), (1280, 390)), encoding="utf-8")
    flag = "--blink-settings=preferredColorScheme=" + ("0" if scheme == "dark" else "1")
    dom = _browser.dump_dom(page.as_uri(), budget_ms=8000, flags=(flag,))
    found = {m[0]: json.loads(html.unescape(m[1]))
             for m in re.findall(r"<pre id=\"([a-z]+-\d+)\">(.*?)</pre>", dom)}
    assert len(found) == 12, sorted(found)
    for slot, got in found.items():
        width = int(slot.rsplit("-", 1)[1])
        assert got["width"] == width, slot
        assert got["boards"], slot
        want = "narrow" if width < 640 else "wide"
        assert {b["cls"] for b in got["boards"]} == {want}, slot
        for b in got["boards"]:
            assert b["box"]["r"] <= width + 0.5 and b["box"]["w"] > 200, (slot, b)
        assert got["scroll"] <= width, (slot, "scrolls sideways")
        assert min(got["names"]) >= 9, (slot, "card names too small to read")
        dark = _luminance(got["bg"]) < 0.3
        assert dark == (scheme == "dark"), (slot, got["bg"])
        assert (_luminance(got["fg"]) > 0.6) == dark, (slot, got["fg"])
        assert "in the ceased" not in got["text"]
        # The fragment's own height is its content's: no min-height tail.
        assert got["rz"]["b"] - got["last"]["b"] < 60, (slot, got["rz"], got["last"])
    for width in (1280, 390):
        menace = found[f"menace-{width}"]
        assert len(menace["flagged"]) >= 4  # brute and bears, on both boards
        for b in menace["flagged"]:
            assert b["l"] >= 0 and b["r"] <= width and b["w"] > 50, (width, b)
        for key in ("myriad", "mobilize"):
            tokens = found[f"{key}-{width}"]["tokens"]
            assert tokens and all(t["mark"].startswith("token") for t in tokens), key
            assert all(t["box"]["r"] <= width for t in tokens), key
        assert "Cleanup step (514)" in found[f"through-{width}"]["text"]
        assert "team blue" in found[f"teams-{width}"]["text"]
        assert "What would be legal instead" in found[f"assignment-{width}"]["text"]


def test_docs_pictures_fit_a_phone_screen() -> None:
    """The docs' style sheet keeps the report pictures and the generated
    diagrams within the text column (max-width), so they scale on a phone."""
    css = (DOCS / "css" / "redzone.css").read_text(encoding="utf-8")
    rule = re.search(r"\.md-typeset \.rz-figure svg,\s*\.md-typeset img \{([^}]*)\}", css)
    assert rule and "max-width: 100%" in rule.group(1) and "height: auto" in rule.group(1)
