"""Double strike (CR 702.4).

A creature with double strike as the combat damage step begins deals combat
damage in the first combat damage step, ``first_strike_damage`` (510.4,
702.4b; this module declares that step as first strike does), and again in
the regular step if it still has double strike as that step begins: removing
double strike during the first step stops the second hit (702.4c); giving
double strike to a creature that dealt first-strike damage allows it (702.4d).
"""

from __future__ import annotations

from redzone import REGULAR_DAMAGE_STEP, DamageStep, GameState, KeywordSpec, hookimpl

#: The first combat damage step (510.4), as first strike declares it.
STEP = DamageStep("first_strike_damage", -1, "510.4",
                  "First combat damage step (creatures with first strike or double strike)")
#: The regular combat damage step (510), the kernel's.
REGULAR = REGULAR_DAMAGE_STEP.name


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("double strike", "702.4",
                        summary="deals combat damage in both combat damage steps")]


@hookimpl
def redzone_damage_steps() -> list[DamageStep]:
    return [STEP]


@hookimpl
def redzone_deals_combat_damage(state: GameState, creature: str, step: str) -> bool | None:
    if step in (STEP.name, REGULAR) and state.objects[creature].has("double strike"):
        return True
    return None

