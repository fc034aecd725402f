"""First strike (CR 702.7).

If at least one attacking or blocking creature has first strike or double
strike as the combat damage step begins, the phase gets a first combat damage
step, ``first_strike_damage``, in which only those creatures assign combat
damage (510.4, 702.7b). This module declares that step and says who deals
damage in it; the kernel records who did. In the regular step that follows,
the kernel's own answer applies: the creatures that dealt no combat damage in
the first step (those that had neither ability as it began; one that left the
battlefield and came back is a new object that dealt none, 400.7), plus those
that currently have double strike (its own module says so). Gaining first strike
after the first step doesn't keep a creature out of the second, and losing it
doesn't let a creature deal damage twice (702.7c).
"""

from __future__ import annotations

from redzone import DamageStep, GameState, KeywordSpec, hookimpl

#: The first combat damage step (510.4); double strike declares the same one.
STEP = DamageStep("first_strike_damage", -1, "510.4",
                  "First combat damage step (creatures with first strike or double strike)")


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("first strike", "702.7",
                        summary="deals combat damage in a first combat damage step")]


@hookimpl
def redzone_damage_steps() -> list[DamageStep]:
    return [STEP]


@hookimpl
def redzone_deals_combat_damage(state: GameState, creature: str, step: str) -> bool | None:
    if step == STEP.name and state.objects[creature].has("first strike"):
        return True
    return None

