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
    line is 'Name (CR 702.N).' and which says more than that."""
    plugin = next(p for p in gen.builtin_plugins() if p.name == name)
    doc = inspect.getdoc(plugin.module) or ""
    first = doc.splitlines()[0] if doc else ""
    assert re.fullmatch(r"[A-Z][^()]* \(CR 702\.\d+[a-z]?\)\.", first), (
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
