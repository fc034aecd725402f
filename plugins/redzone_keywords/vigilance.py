"""Vigilance (CR 702.20).

Not implemented yet: this module only declares the keyword.
"""

from __future__ import annotations

from redzone import KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("vigilance", "702.20")]
