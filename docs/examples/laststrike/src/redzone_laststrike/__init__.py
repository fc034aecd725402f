"""Last strike (made up; not in the Comprehensive Rules).

A creature with last strike deals its combat damage in a combat damage step
of its own, ``last_strike_damage``, after the regular one, and not in the
regular step. The step happens when, as it would begin, at least one
remaining attacking or blocking creature has last strike, the way 510.4 gives
first strike its step. Its damage is combat damage like any other (510.2):
lifelink, toxic, deathtouch, trample and protection apply to it.

Mirroring 702.7c: a creature that had last strike as the regular step began
deals no damage in it, even if it loses last strike afterwards (so it deals
no combat damage this combat); a creature that gains last strike after
dealing damage in the regular step doesn't deal damage again. A creature
with last strike and double strike deals damage in the first-strike step and
in the last-strike step, not in the regular one ("doesn't deal damage" wins).
"""

from __future__ import annotations

from redzone import REGULAR_DAMAGE_STEP, DamageStep, GameState, KeywordSpec, dynamic, hookimpl

#: The step this keyword adds, after the regular one (order 0).
STEP = DamageStep("last_strike_damage", 1, "last strike (not in the Comprehensive Rules)",
                  "Last combat damage step (creatures with last strike)")


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("last strike", "not in the Comprehensive Rules",
                        summary="deals combat damage in a last combat damage step",
                        examples=("last strike",))]


@hookimpl
def redzone_damage_steps() -> list[DamageStep]:
    return [STEP]


@hookimpl
@dynamic  # in its own step, it reads who dealt damage in the regular one
def redzone_deals_combat_damage(state: GameState, creature: str, step: str) -> bool | None:
    if not state.objects[creature].has("last strike"):
        return None
    if step == REGULAR_DAMAGE_STEP.name:
        return False
    if step == STEP.name:
        combat = state.combat
        regular = combat.damage_steps.get(REGULAR_DAMAGE_STEP.name, frozenset()) if (
            combat is not None) else frozenset()
        return creature not in regular
    return None
