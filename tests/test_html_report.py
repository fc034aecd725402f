"""The visual combat report (``redzone run --html``, ``Resolution.to_html()``):
its structure read back with an HTML parser, and the page as headless
Chromium draws it."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import _browser
import pytest
from click.testing import CliRunner
from redzone import examples
from redzone.formats.outcome import resolve
from redzone.formats.report import render_html
from redzone.formats.scenario import load
from redzone.frontends import html as html_frontend
from redzone.frontends.cli import cli

BALOTH = examples.path("baloth-and-boars")
MENACE = examples.path("menace-one-blocker")


class Collect(HTMLParser):
    """Every start tag with its attributes, and the text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def having(self, tag: str, cls: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and cls in (a.get("class") or "").split()]


def parse(page: str) -> Collect:
    c = Collect()
    c.feed(page)
    return c


def test_the_report_draws_every_creature_attack_block_and_event() -> None:
    """Baloth and Boars (510.1c): a card per permanent on each board, an
    attack line per attacker, a block line per blocker-attacker pair, and a
    timeline item per event, each with its rule."""
    res = resolve(load(BALOTH))
    page = parse(res.to_html())
    scenario = res.scenario
    before = [a for a in page.having("g", "card")
              if a["data-id"] in scenario.state.objects][: len(scenario.state.objects)]
    assert {a["data-id"] for a in before} == set(scenario.state.objects)
    # Two boards (before, after), each drawn wide and narrow (a phone screen).
    assert len(page.having("g", "card")) == 2 * 2 * len(scenario.state.objects)
    attacks = {(a["data-from"], a["data-to"]) for a in page.having("line", "attack")}
    assert attacks == {(k, v) for k, v in scenario.attacks.items()}
    blocks = {(a["data-from"], a["data-to"]) for a in page.having("line", "block")}
    assert blocks == {(b, a) for b, atts in scenario.blocks.items() for a in atts}
    events = [e for e in res.events if e.kind != "step"]
    items = page.having("li", "event")
    assert [i["data-rule"] for i in items] == [e.rule for e in events]
    assert not page.having("section", "violations")
    # A card says name, P/T and damage: the Armodon starts with 2 damage.
    armodon = next(a for a in page.having("g", "card") if a["data-id"] == "armodon")
    assert armodon["data-pt"] == "3/3" and armodon["data-damage"] == "2"
    # After combat, the creatures that died are drawn as gone (704.5g).
    gone = {a["data-id"] for a in page.having("g", "gone")}
    assert gone == {p.id for p in res.result.state.objects.values() if p.zone != "battlefield"}


def test_an_illegal_declaration_is_highlighted() -> None:
    """Menace (702.111b): one blocker is illegal; the violation is listed with
    its rule and both creatures are outlined; the illegal block is dashed."""
    res = resolve(load(MENACE))
    page = parse(render_html(res))
    assert page.having("section", "violations")
    assert "702.111b" in "".join(page.text)
    flagged = {a["data-id"] for a in page.having("g", "violation")}
    assert {"brute", "bears"} <= flagged
    dashed = page.having("line", "illegal")
    assert dashed and all("block" in (a["class"] or "") for a in dashed)


def test_the_page_is_self_contained() -> None:
    """No network: no script, style sheet, image or font from elsewhere."""
    for path in (BALOTH, MENACE):
        text = render_html(resolve(load(path)))
        page = parse(text)
        assert not [t for t, a in page.tags if t in ("script", "link", "img", "iframe")]
        assert not [a for _t, a in page.tags if "src" in a or "href" in a]
        assert "url(http" not in text and "@import" not in text


def test_run_html_writes_the_report(tmp_path: Path) -> None:
    """``redzone run --html FILE`` writes the same page as ``to_html()`` and
    still prints the account."""
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["run", "--html", str(out), str(BALOTH)])
    assert result.exit_code == 0 and "Before combat" in result.stdout
    assert out.read_text(encoding="utf-8") == html_frontend.render(resolve(load(BALOTH)))


def test_notebook_display_is_a_fragment() -> None:
    """``_repr_html_`` gives the report without a document around it, its
    styles scoped to the report."""
    res = resolve(load(BALOTH))
    frag = res._repr_html_()
    assert frag.startswith("<div class='rz'>") and "<html" not in frag and "body {" not in frag


@pytest.mark.parametrize("path", [BALOTH, MENACE], ids=["resolved", "illegal"])
def test_chromium_draws_the_report(path: Path, tmp_path: Path) -> None:
    """Headless Chromium: the DOM holds the boards, cards and lines, and the
    screenshot is not blank: it shows the attack (red) and block (blue)
    lines and, for the illegal block, the violation outline."""
    page = tmp_path / "report.html"
    page.write_text(render_html(resolve(load(path))), encoding="utf-8")
    dom = _browser.dump_dom(page.as_uri())
    assert dom.count("class=\"card") >= 3 and "<svg" in dom
    shot = _browser.screenshot(page.as_uri(), tmp_path / "report.png", width=1100, height=900)
    counts = _browser.colours(shot)
    assert len(counts) > 50, "the screenshot is (nearly) blank"
    assert _browser.near(counts, (0xC0, 0x39, 0x2B)) > 20, "no attack line drawn"
    assert _browser.near(counts, (0x1F, 0x6F, 0xB2)) > 20, "no block line drawn"
    if path == MENACE:
        assert _browser.near(counts, (0xD4, 0x14, 0x5A)) > 50, "no violation outline"


def test_the_timeline_cites_the_editions_numbers(tmp_path: Path) -> None:
    """Under the 1999-2009 rules the report's timeline cites 310.4 (combat
    damage dealt) and 308.2a, like the account, not today's 510.2 and 508.1a."""
    text = MENACE.read_text(encoding="utf-8")
    path = tmp_path / "sixth.toml"
    path.write_text('rules = "sixth"\n' + text.replace('blocks = { bears = "brute" }', ""))
    page = parse(render_html(resolve(load(path))))
    rules = [a["data-rule"] for a in page.having("li", "event")]
    assert "310.4" in rules and "308.2a" in rules
    assert "510.2" not in rules and "508.1a" not in rules


def test_a_rejection_and_its_explanation_cite_the_editions_numbers(tmp_path: Path) -> None:
    """308.2a (1999-2009): a tapped creature can't attack: the report's
    violations and what would be legal instead cite 308.2a, not 508.1a-b."""
    text = MENACE.read_text(encoding="utf-8").replace('blocks = { bears = "brute" }', "")
    path = tmp_path / "sixth.toml"
    tapped = text.replace('id = "brute"', 'id = "brute"\ntapped = true')
    path.write_text('rules = "sixth"\n' + tapped)
    html = render_html(resolve(load(path)))
    shown = [part.split("<")[0] for part in html.split("<span class='rule'>")[1:]]
    assert "308.2a" in shown
    assert "508.1a" not in shown and "508.1b" not in shown


def test_a_plugin_damage_step_is_titled_by_its_declaration() -> None:
    """510.4: the report titles the first-strike step, a plugin's step, with
    its declaration's words and rule, as it does the kernel's steps."""
    text = render_html(resolve(load(examples.path("first-strike-vs-deathtouch"))))
    assert ("First combat damage step (creatures with first strike or double strike) "
            "(510.4)") in text
    assert "Combat damage step (510)" in text
