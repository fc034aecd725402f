"""The docs say what the code does (issue 22, item 6): the entry-point groups
they name are the ones the package declares, the site has its address, the
guides come before the keyword pages, and a report image says which example
it shows.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from redzone.kernel import editions

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _texts() -> dict[str, str]:
    """The hand-written pages, the README and the Python sources."""
    files = [p for p in DOCS.rglob("*.md") if "_gen" not in p.parts]
    files += [ROOT / "README.md", *(ROOT / "core").rglob("*.py"), *(ROOT / "plugins").rglob("*.py")]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files}


def test_every_entry_point_group_named_is_one_the_package_declares() -> None:
    """'the `X` entry-point group' names a group of pyproject.toml (the
    editions' is ``redzone.editions``, the one :mod:`redzone.kernel.editions`
    reads)."""
    declared = set(PYPROJECT["project"]["entry-points"])
    assert editions.GROUP == "redzone.editions" and editions.GROUP in declared
    named = re.compile(r"`+([\w.]+)`+\s+entry[- ]point\s+group")
    wrong = {(file, group) for file, text in _texts().items()
             for group in named.findall(text) if group not in declared}
    assert not wrong, f"entry-point groups the package doesn't declare: {sorted(wrong)}"


def test_the_site_url_is_the_documentation_url() -> None:
    site = re.search(r"^site_url: (\S+)", MKDOCS, re.M)
    assert site is not None, "mkdocs.yml has no site_url"
    assert site.group(1) == PYPROJECT["project"]["urls"]["Documentation"]


def test_the_guides_come_before_the_keyword_pages() -> None:
    nav = re.findall(r"^  - ([^:]+): (\S+\.md)$", MKDOCS, re.M)
    pages = [page for _title, page in nav]
    keywords = pages.index("keywords/index.md")
    for guide in ("getting-started.md", "write-a-keyword.md", "testing.md", "embedding.md",
                  "command-line.md", "scenario-format.md", "batch.md", "editions.md"):
        assert pages.index(guide) < keywords, f"{guide} comes after the keyword pages"


#: The bundled example each report image was made from (``redzone demo NAME
#: --html``), as the report page says.
IMAGES = {"report-resolved.png": "baloth-and-boars", "report-illegal.png": "menace-one-blocker"}


def test_a_report_image_names_the_example_it_shows() -> None:
    """Each page showing a report image names its example next to it (the
    getting-started page's own example is another combat)."""
    examples = ROOT / "core" / "redzone" / "examples"
    for image, example in IMAGES.items():
        assert (examples / f"{example}.toml").exists(), example
        assert (DOCS / "img" / image).exists(), image
    shown = 0
    for page in DOCS.glob("*.md"):
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            for image, example in IMAGES.items():
                if f"img/{image}" in line:
                    shown += 1
                    near = "\n".join(lines[max(0, i - 4):i + 1])
                    assert example in near, (
                        f"{page.name}: the image {image} shows {example}, not named there")
    assert shown >= 3
