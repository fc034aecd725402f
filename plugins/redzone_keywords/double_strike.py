"""Double strike (CR 702.4).

A creature with double strike as the combat damage step begins deals combat
damage in the first combat damage step (510.4, 702.4b), and again in the
second one if it still has double strike as that step begins: removing double
strike during the first step stops the second hit (702.4c); giving double
strike to a creature that dealt first-strike damage allows it (702.4d).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("double strike", "702.4",
                        summary="deals combat damage in both combat damage steps")]


@hookimpl
def redzone_deals_damage_early(state: GameState, creature: str) -> bool:
    return state.objects[creature].has("double strike")


@hookimpl
def redzone_deals_damage_again(state: GameState, creature: str) -> bool:
    return state.objects[creature].has("double strike")


#: Every hook here answers nothing unless an object has one of this module's keywords.
REDZONE_NEEDS_KEYWORD = True
