"""The visual combat report for front ends: :func:`render` and :func:`write`.

The page itself is made by :func:`redzone.formats.report.render_html`, a pure
function of a :class:`~redzone.formats.outcome.Resolution` (also reachable as
``Resolution.to_html()``); this module adds the file writing ``redzone run
--html FILE`` does. The layering stays downward: front ends call formats,
formats call the kernel, and the kernel never imports either.
"""

from __future__ import annotations

import os

from redzone.formats.outcome import Resolution
from redzone.formats.report import render_html


def render(resolution: Resolution) -> str:
    """The self-contained HTML page of a resolution (no network needed)."""
    return render_html(resolution)


def write(resolution: Resolution, path: str | os.PathLike[str]) -> None:
    """Write the page to ``path`` (UTF-8)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(render_html(resolution))


__all__ = ["render", "write"]
