"""The rules editions redzone ships besides today's: ``m10`` and ``sixth``.

Each is an :class:`redzone.Edition` registered in the ``redzone.editions``
entry-point group; their plugins live in this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from redzone.kernel.events import leaves_battlefield

if TYPE_CHECKING:
    from redzone import Event, GameState


def damage_in_play(state: GameState, events: tuple[Event, ...]) -> list[Event]:
    """The ``damage`` events of ``events`` whose source, if a permanent, was
    in play as it dealt the damage: its ability "whenever this permanent
    deals damage" triggers (1999-2009: 502.63a, 502.68a). A creature gone
    before its damage on the stack was dealt (310.4a) deals it, but has no
    ability in play to trigger; one that dies in that damage, or in the
    state-based effects after it, was in play as it dealt it. Damage from a
    source that isn't a permanent (a spell) is kept."""
    left = {e.object: i for i, e in enumerate(events) if e.object and leaves_battlefield(e)}
    found = []
    for i, event in enumerate(events):
        source = event.source
        if event.kind != "damage" or not source or not event.amount:
            continue
        perm = state.objects.get(source)
        if perm is not None and perm.zone != "battlefield" and left.get(source, -1) < i:
            continue  # gone before this damage was dealt (310.4a)
        found.append(event)
    return found
