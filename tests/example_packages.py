"""Installing an example third-party package (docs/examples/*) for one test
module, the way an editable install does it, without building anything: its
``src`` folder and a ``.dist-info`` folder (metadata and entry points read from
the package's own ``pyproject.toml``) go on ``sys.path``, and come off again
afterwards so no other test sees the plugin."""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def project(example: str) -> dict[str, Any]:
    """The ``[project]`` table of an example package's ``pyproject.toml``."""
    text = (EXAMPLES / example / "pyproject.toml").read_text(encoding="utf-8")
    table: dict[str, Any] = tomllib.loads(text)["project"]
    return table


def write_dist_info(example: str, module: str, site: Path) -> Path:
    """Write the .dist-info an installer would write for the example."""
    meta = project(example)
    name, version = meta["name"], meta["version"]
    dist = site / f"{name.replace('-', '_')}-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
        for group, eps in meta["entry-points"].items()), encoding="utf-8")
    (dist / "top_level.txt").write_text(module + "\n", encoding="utf-8")
    return dist


def installed(example: str, module: str, site: Path) -> Iterator[Any]:
    """Install the example into ``site`` and yield its module; uninstall after."""
    write_dist_info(example, module, site)
    paths = [str(EXAMPLES / example / "src"), str(site)]
    sys.path[:0] = paths
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(module)
    finally:
        for p in paths:
            sys.path.remove(p)
        sys.modules.pop(module, None)
        importlib.invalidate_caches()
