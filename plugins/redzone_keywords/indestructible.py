"""Indestructible (CR 702.12).

A permanent with indestructible can't be destroyed (702.12b): the
state-based actions that destroy, lethal damage (704.5g) and damage from a
source with deathtouch (704.5h), do nothing to it, and the damage stays
marked. Actions that put it into the graveyard without destroying it still
do: toughness 0 or less (704.5f), a planeswalker with 0 loyalty (704.5i).
Several instances are redundant (702.12c).
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("indestructible", "702.12", summary="can't be destroyed")]


@hookimpl
def redzone_cannot_be_destroyed(state: GameState, permanent: str) -> bool:
    return state.objects[permanent].has("indestructible")

