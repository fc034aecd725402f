"""Indestructible (CR 702.12).

Not implemented yet: this module only declares the keyword.
"""

from __future__ import annotations

from redzone import KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("indestructible", "702.12")]
