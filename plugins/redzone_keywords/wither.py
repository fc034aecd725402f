"""Wither (CR 702.80).

Not implemented yet: this module only declares the keyword.
"""

from __future__ import annotations

from redzone import KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("wither", "702.80")]
