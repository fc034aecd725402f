"""Double strike (CR 702.4).

Not implemented yet: this module only declares the keyword.
"""

from __future__ import annotations

from redzone import KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("double strike", "702.4")]
