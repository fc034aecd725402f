"""Toxic (CR 702.164).

"Toxic N" (702.164a). Combat damage dealt to a player by a creature with
toxic also gives that player poison counters equal to the creature's total
toxic value, the sum of the N of all its toxic abilities (702.164b-c,
120.3g): toxic 2 and toxic 1 give 3. The counters come in addition to the
damage's other results (the life loss, or infect's poison counters), once
per damage dealt, whatever its amount; damage that was prevented is not dealt
and gives none. Noncombat damage, and combat damage to creatures,
planeswalkers and battles, give none. A player with ten or more poison
counters loses the game (704.5c, checked by the core). A source that left
the battlefield is read from its last known information.

N is at most 1,000 (declared with the form, refused as the keyword is
parsed; no printed card goes past single digits): the numbers of all the
instances a permanent can hold then add up well below the kernel's bound
on amounts (1,000,000), so a sum over it is a plugin fault only on a board
past any printed one.
"""

from __future__ import annotations

from redzone import Damage, GameState, KeywordSpec, Permanent, Result, StackObject, hookimpl

#: The largest N (see the module docstring).
MOST = 1_000


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("toxic", "702.164", form="toxic {number}",
                        summary="combat damage to a player also gives poison counters",
                        examples=("toxic 1", "toxic 2", "toxic 3"), most=MOST)]


def _total_toxic(creature: Permanent | StackObject) -> int:
    """The creature's total toxic value (702.164b)."""
    return sum(k.number for k in creature.instances("toxic"))


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    if not damage.combat or damage.target not in state.players:
        return []
    if not state.is_source(damage.source):
        return []
    source = state.source(damage.source)
    total = _total_toxic(source) if source.is_creature else 0
    if total <= 0:
        return []
    return [Result("poison", "702.164c", damage.source, total, player=damage.target)]

