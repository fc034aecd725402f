"""Deathtouch (CR 702.2).

Any nonzero amount of combat damage a source with deathtouch assigns to a
creature is lethal damage (702.2c): lethal is 1. The core asks the same of
every other creature assigning to that creature in the step, so a blocker
that a creature with deathtouch assigns 1 is already assigned lethal damage
for a trampler sharing it (702.19b) and for a damage assignment order
(510.1c-d of 2009-2024). A creature with toughness
greater than 0 dealt damage by a source with deathtouch since state-based
actions were last checked is destroyed (702.2b, 704.5h), whatever the damage's
results were (marked damage or -1/-1 counters), combat or noncombat, and from
any zone: a source that left the battlefield is read from its last known
information (702.2d-e).
"""

from __future__ import annotations

from redzone import Damage, GameState, KeywordSpec, Result, StateBasedAction, hookimpl

#: The mark a creature gets when it is dealt damage by a source with deathtouch.
MARK = "dealt damage by a source with deathtouch"

# Asked only while some object has deathtouch (its keyword gate, inferred
# from what it declares): a mark exists only after a source with deathtouch
# dealt damage, and that source (or its last known information) is still
# there when state-based actions read the mark. A mark changes the creature,
# so the state-based actions ask about it (only about what changed).


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("deathtouch", "702.2",
                        summary="any damage it deals to a creature is lethal")]


@hookimpl
def redzone_lethal_damage(state: GameState, source: str) -> int | None:
    if source in state.objects and state.last_known(source).has("deathtouch"):
        return 1
    return None


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    if not state.is_source(damage.source) or damage.target not in state.objects:
        return []
    if not state.source(damage.source).has("deathtouch"):
        return []
    return [Result("mark", "702.2b", damage.source, damage.amount, target=damage.target,
                   mark=MARK)]


@hookimpl
def redzone_permanent_state_based_actions(state: GameState,
                                          permanents: tuple[str, ...]) -> list[StateBasedAction]:
    # (The verdict reads the permanent alone: asked about those that changed.)
    objects = state.objects
    return [StateBasedAction("destroy", "704.5h", object=i) for i in permanents
            if MARK in (perm := objects[i]).marks and perm.is_creature and perm.toughness > 0]

