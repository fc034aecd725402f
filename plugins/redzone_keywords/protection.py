"""Protection (CR 702.16).

Not implemented yet: this module only declares the keyword.
"""

from __future__ import annotations

from redzone import KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("protection", "702.16", pattern=r"protection from (.+)")]
