"""First strike (CR 702.7).

If at least one attacking or blocking creature has first strike or double
strike as the combat damage step begins, the phase gets a first combat damage
step in which only those creatures assign combat damage (510.4, 702.7b). The
core records who dealt damage in that step; the second step takes the
creatures that had neither ability as the first step began plus those that
currently have double strike (its own module answers that), so gaining first
strike after the first step doesn't keep a creature out of the second, and
losing it doesn't let a creature deal damage twice (702.7c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("first strike", "702.7",
                        summary="deals combat damage in a first combat damage step")]


@hookimpl
def redzone_deals_damage_early(state: GameState, creature: str) -> bool:
    return state.objects[creature].has("first strike")


#: Every hook here answers nothing unless an object has one of this module's keywords.
REDZONE_NEEDS_KEYWORD = True
