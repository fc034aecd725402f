"""Docs meta-tests: every hook and every built-in keyword has its documentation
entry, the generated pages are complete and deterministic, and the code on
the hand-written pages runs.

The reference pages are generated from the code by ``docs/_gen/redzone_docs.py``
(an mkdocs hook); these tests import it and check what it generates, and what
it generates from: a hookspec without its ``Rules:`` line or a parameter
without its ``:param:``, a keyword module without its docstring, fail here.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from redzone.kernel import hookspecs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _load_generator() -> ModuleType:
    path = DOCS / "_gen" / "redzone_docs.py"
    spec = importlib.util.spec_from_file_location("redzone_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["redzone_docs"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
PAGES: dict[str, str] = gen.pages()
HOOKS = sorted(n for n in dir(hookspecs) if n.startswith("redzone_"))
BUILTINS = sorted(ep.name for ep in importlib.metadata.entry_points(group="redzone")
                  if ep.dist is not None and ep.dist.name == "redzone")
RULE = re.compile(r"\b\d{3}(?:\.\d+[a-z]*(?:-[a-z0-9.]+)?)?\b")


def _signature(name: str) -> str:
    sig = str(inspect.signature(getattr(hookspecs, name))).replace("'", "")
    return f"def {name}{sig}"


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_has_its_reference_entry_with_its_exact_signature(name: str) -> None:
    """The hook reference has a section per hook with the signature as declared."""
    page = PAGES["hooks.md"]
    assert f"### `{name}`" in page, f"{name} has no entry in the hook reference"
    assert _signature(name) in page, f"the reference gives {name} another signature"


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_docstring_has_summary_rules_params_and_combination(name: str) -> None:
    """Each hookspec says what it asks, which CR rules it serves, every
    parameter, and how several plugins' answers combine."""
    fn = getattr(hookspecs, name)
    doc = gen.parse_docstring(fn.__doc__ or "")
    assert doc.summary, f"{name}: no summary line"
    assert RULE.search(doc.rules), f"{name}: no 'Rules:' line citing CR rule numbers"
    missing = [p for p in inspect.signature(fn).parameters if not doc.params.get(p)]
    assert not missing, f"{name}: parameters without ':param:' entries: {missing}"
    assert doc.combined, f"{name}: no 'Combined:' paragraph"


def test_hooks_appear_in_groups_of_the_step_they_serve() -> None:
    """Every hook sits under a banner comment of hookspecs.py (its CR step)."""
    groups = gen.hook_groups(inspect.getsource(hookspecs))
    assert sorted(groups) == HOOKS
    assert all(groups.values()), [h for h, g in groups.items() if not g]


@pytest.mark.parametrize("name", BUILTINS)
def test_every_builtin_keyword_has_its_generated_page(name: str) -> None:
    """A page per built-in keyword plugin, from a module docstring whose first
    line is 'Name (CR 702.N).' ('Name (CR 701.N).' for a keyword action such
    as exert, 'Name (CR 207.2c).' for an ability word such as battalion) and
    which says more than that."""
    plugin = next(p for p in gen.builtin_plugins() if p.name == name)
    doc = inspect.getdoc(plugin.module) or ""
    first = doc.splitlines()[0] if doc else ""
    assert re.fullmatch(r"[A-Z][^()]* \(CR (70[12]\.\d+[a-z]?|207\.2c)\)\.", first), (
        f"{name}: the module docstring's first line should be 'Name (CR 702.N).', "
        f"not {first!r}")
    assert plugin.body, f"{name}: the module docstring has nothing after its first line"
    page = PAGES.get(f"keywords/{name}.md")
    assert page is not None, f"{name}: no keyword page"
    assert page.startswith(f"# {plugin.title}\n")
    for spec in plugin.specs:
        assert f"| {spec.name} | {spec.rule} |" in page
    assert f"]({name}.md)" in PAGES["keywords/index.md"]
    assert {plugin.title: f"keywords/{name}.md"} in gen.keyword_nav()


def test_generated_pages_are_deterministic() -> None:
    assert gen.pages() == PAGES


def _nav_files(nav: list[Any]) -> list[str]:
    out: list[str] = []
    for entry in nav:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        out.extend(_nav_files(value) if isinstance(value, list) else [value])
    return out


def test_every_page_is_in_the_nav_and_every_nav_entry_exists() -> None:
    """mkdocs.yml's nav and the pages (hand-written or generated) agree."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = re.findall(r"^  - [^:]+: (\S+\.md)$", text, re.M)
    hand_written = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
                          if p.parts[len(DOCS.parts)] not in ("_gen", "examples"))
    for page in nav:
        assert page in hand_written or page in PAGES, f"nav entry {page} has no page"
    for page in hand_written:
        assert page in nav, f"{page} is not in the nav of mkdocs.yml"


def test_every_generated_marker_is_known_and_replaced() -> None:
    for path in DOCS.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        out = gen.substitute(text)
        assert "<!-- generated:" not in out, path
    order = gen.discovery_order()
    assert order.startswith("1. ") and "\n6. " in order


@pytest.mark.parametrize("page", ["index.md", "embedding.md", "kernel.md"])
def test_the_code_on_the_page_runs(page: str) -> None:
    """Every python block of the page runs, in order, in one namespace."""
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "--8<--" not in b]
    assert blocks
    namespace: dict[str, Any] = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{page} block {i + 1}", "exec"), namespace)


# ---------------------------------------------------------------------------
# Keyword pages, diagrams, the API reference, and the built site in a browser
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTINS)
def test_every_keyword_page_has_an_example_and_its_account(name: str) -> None:
    """Each keyword page shows one scenario using the keyword and the account
    ``redzone run`` prints for it (the rules cited in brackets), not the
    plugin's source."""
    page = PAGES[f"keywords/{name}.md"]
    assert "## An example" in page and "```toml" in page
    account = page.split("```text", 1)[1].split("```", 1)[0]
    assert "Before combat" in account and re.search(r"\[\d{3}\.\d+[a-z]?\]", account)
    toml_block = page.split("```toml", 1)[1].split("```", 1)[0]
    plugin = next(p for p in gen.builtin_plugins() if p.name == name)
    printed = {t.split()[0].lower() for spec in plugin.specs
               for t in (spec.name, *spec.examples)}
    assert any(t in toml_block.lower() for t in printed), name
    assert "## Source" not in page and "```python\n\"\"\"" not in page


def test_the_combat_diagram_names_every_hook() -> None:
    """The combat phase diagram is drawn from hookspecs.py: every hook is in it,
    under the step it serves (506.1, 508-511)."""
    svg = gen.diagram_combat()
    for hook in HOOKS:
        assert f"data-hook='{hook}'" in svg, hook
    for rule in ("507", "508", "509", "510", "511"):
        assert f"data-step='{rule}'" in svg


def test_the_pipeline_diagram_follows_rule_120_4() -> None:
    svg = gen.diagram_pipeline()
    assert [r for r in ("120.4a", "120.4b", "120.4c", "120.4d", "704")
            if f"data-rule='{r}'" in svg] == ["120.4a", "120.4b", "120.4c", "120.4d", "704"]
    diagrams = gen._sibling("diagrams")
    with pytest.raises(LookupError, match="redzone_prevent_damage"):
        diagrams.damage_pipeline(["redzone_modify_damage"])


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        if os_environ_requires_browser():
            pytest.fail(f"{module} is not installed (pip install -e '.[docs]')")
        pytest.skip(f"{module} is not installed (pip install -e '.[docs]')")


def os_environ_requires_browser() -> bool:
    import os

    return bool(os.environ.get("REDZONE_REQUIRE_BROWSER"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with ``mkdocs build --strict``."""
    import os
    import subprocess

    _require("mkdocs")
    _require("mkdocstrings")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_the_api_reference_documents_every_engine_method(site: Path) -> None:
    """Every public method of Engine has its entry (the issue: four were on no
    page), and the actions, errors and events are there."""
    import redzone
    from redzone import Engine

    page = (site / "api" / "index.html").read_text(encoding="utf-8")
    methods = [n for n, v in vars(Engine).items()
               if not n.startswith("_") and (callable(v) or isinstance(v, property))]
    missing = [m for m in methods if f'id="redzone.kernel.engine.Engine.{m}"' not in page]
    assert not missing, missing
    for name in ("DealDamage", "Pump", "IllegalBlockError", "Event", "GameState",
                 "Permanent", "Player", "Combat"):
        obj = getattr(redzone, name)
        assert f'id="{obj.__module__}.{name}"' in page, name
    assert ":meth:" not in page and ":class:" not in page


def test_the_site_has_a_repository_link_the_version_and_dark_mode(site: Path) -> None:
    from redzone._version import __version__

    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="md-source"' in home and "github.com" in home
    assert f"redzone {__version__}" in home
    assert 'data-md-color-scheme="slate"' in home  # the dark palette's toggle
    assert "fonts.googleapis" not in home  # no web fonts: the site works offline


#: The pages the browser check opens, and what each must show.
BROWSER_PAGES = {
    "index.html": "report-resolved.png",
    "getting-started/index.html": "Getting started",
    "scenario-format/index.html": "scenario",
    "keywords/trample/index.html": "An example",
    "api/index.html": "redzone.kernel.engine.Engine.declare_attackers",
    "hooks/index.html": "rz-diagram",
    "how-it-works/index.html": "rz-diagram",
}


@pytest.mark.parametrize("page", sorted(BROWSER_PAGES))
def test_chromium_renders_the_page(page: str, site: Path) -> None:
    """Headless Chromium opens the page: its article is there, and every
    diagram is an SVG with its text (a diagram that failed to render, or a
    mermaid block left as text, fails)."""
    import _browser

    dom = _browser.dump_dom((site / page).as_uri())
    assert '<article class="md-content__inner' in dom, page
    assert BROWSER_PAGES[page] in dom, page
    assert 'class="mermaid"' not in dom
    for svg in re.findall(r'<svg class="rz-diagram".*?</svg>', dom, re.S):
        assert svg.count("<text") >= 5 and "</g>" in svg


def test_chromium_draws_the_diagrams(site: Path, tmp_path: Path) -> None:
    """A screenshot of 'How combat runs' shows the diagrams' colours (the
    step boxes and the priority marks): they were drawn, not left blank."""
    import _browser

    shot = _browser.screenshot((site / "how-it-works" / "index.html").as_uri(),
                               tmp_path / "how.png", width=1100, height=1300)
    counts = _browser.colours(shot)
    assert _browser.near(counts, (0xFD, 0xE3, 0xCF), 6) > 200, "no step boxes drawn"
    assert _browser.near(counts, (0xFF, 0xF8, 0xE6), 6) > 200, "no hook boxes drawn"


#: Measures, in a copy of a built page, each generated diagram's smallest
#: text as drawn (its font size scaled by the drawn width over the viewBox's)
#: and whether the page itself scrolls sideways; the numbers go to the
#: parent page's slot named like the frame.
_DIAGRAM_MEASURE = """
<script>
window.addEventListener('load', function () {
  var out = {width: innerWidth, scroll: document.documentElement.scrollWidth, diagrams: []};
  document.querySelectorAll('svg.rz-diagram').forEach(function (s) {
    var vb = s.viewBox.baseVal, drawn = s.getBoundingClientRect().width, least = 1e9;
    s.querySelectorAll('text').forEach(function (t) {
      least = Math.min(least, parseFloat(getComputedStyle(t).fontSize)); });
    out.diagrams.push({drawn: drawn, font: least * drawn / vb.width,
                       figure: s.closest('.rz-figure').getBoundingClientRect().right});
  });
  parent.document.getElementById(window.name).textContent = JSON.stringify(out);
});
</script>"""


def test_chromium_keeps_the_diagrams_readable_on_a_phone(site: Path, tmp_path: Path) -> None:
    """Issue item (390 px): on a phone screen the generated diagrams keep
    text at least 9 px high (the figure scrolls sideways, the page doesn't);
    on a wide screen they fit the text column."""
    import html
    import json

    import _browser

    folder = site / "how-it-works"
    copy = (folder / "index.html").read_text(encoding="utf-8")
    copy = copy.replace("<head>", f"<head><base href='{folder.as_uri()}/'>", 1)
    copy = copy.replace("</body>", _DIAGRAM_MEASURE + "</body>")
    frames = "".join(
        f"<pre id='w{w}'></pre><iframe name='w{w}' width='{w}' height='2000' "
        f"style='border:0' srcdoc=\"{html.escape(copy)}\"></iframe>" for w in (390, 1280))
    page = tmp_path / "diagrams.html"
    page.write_text(f"<!DOCTYPE html><html><body style='margin:0'>{frames}</body></html>",
                    encoding="utf-8")
    dom = _browser.dump_dom(page.as_uri(), budget_ms=8000)
    found = {int(m[0]): json.loads(html.unescape(m[1]))
             for m in re.findall(r'<pre id="w(\d+)">(.*?)</pre>', dom)}
    assert sorted(found) == [390, 1280], found
    for width, got in found.items():
        assert got["width"] == width and len(got["diagrams"]) == 3, (width, got)
        assert got["scroll"] <= width, (width, "the page scrolls sideways")
        for d in got["diagrams"]:
            assert d["font"] >= 9, (width, d, "diagram text too small to read")
            assert d["figure"] <= width, (width, d)


def test_code_blocks_wrap_instead_of_clipping() -> None:
    """The scenario format's comments are its explanations: code blocks wrap."""
    css = (DOCS / "css" / "redzone.css").read_text(encoding="utf-8")
    assert "white-space: pre-wrap" in css
    assert "css/redzone.css" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_packaging_metadata() -> None:
    """LICENSE (MIT, as the metadata says), project URLs, classifiers, the
    version written once, mkdocs.yml in the sdist."""
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    assert project["license"] == "MIT" and "MIT License" in (ROOT / "LICENSE").read_text()
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])
    assert "Framework :: Pytest" in project["classifiers"]
    assert any(c.startswith("Development Status ::") for c in project["classifiers"])
    assert project["dynamic"] == ["version"] and "version" not in project
    sdist = meta["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"mkdocs.yml", "LICENSE", "docs"} <= set(sdist)
    assert any("mkdocstrings-python" in d for d in project["optional-dependencies"]["docs"])


def test_107_1_the_keyword_bounds_the_guarantees_list_are_the_plugins() -> None:
    """107.1 (no rule caps a number, so each keyword form declares its own
    bound, ``KeywordSpec.most``): guarantee 15 lists each built-in keyword's
    bound; the list is the built-in plugins' declared bounds, every keyword
    with a number named under its bound, the rest under "others"."""
    from redzone import Engine

    text = (DOCS / "guarantees.md").read_text(encoding="utf-8")
    listed = re.search(r"\(`KeywordSpec\.most`: [^;]*; ([^)]*)\)", text)
    assert listed is not None, "guarantee 15 lists the keywords' bounds"
    bounds: dict[str, int] = {}
    others = None
    for part in re.finditer(r"([a-z ,]+?) (\d[\d,]*)(?:,|$)", listed.group(1)):
        names, bound = part.group(1).strip(), int(part.group(2).replace(",", ""))
        if names == "others":
            others = bound
            continue
        for name in re.split(r", | and ", names):
            bounds[name] = bound
    declared = {info.spec.name: info.spec.most for info in Engine().keywords()
                if "{number}" in info.spec.form}
    assert others is not None
    assert {name: bounds.get(name, others) for name in declared} == declared
    assert set(bounds) <= set(declared), "the page names a keyword without a number"
