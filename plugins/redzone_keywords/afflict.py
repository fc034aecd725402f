"""Afflict (CR 702.130).

"Afflict N" means "Whenever this creature becomes blocked, defending player
loses N life" (702.130a). It triggers once as the creature goes from
unblocked to blocked, however many creatures block it (509.3c), if it has
afflict at that moment (509.3f). The defending player is the creature's,
fixed as it was declared (506.2, 508.5); the life loss happens even if the
creature has left the battlefield by then. Each instance triggers
separately (702.130b).

Trigger: kind ``"afflict"``, source the creature, controller its controller,
``targets`` the defending player, ``amount`` the N of the instance.

N is at most 1,000 (declared with the form, refused as the keyword is
parsed; no printed card goes past single digits): the numbers of all the
instances a permanent can hold then add up well below the kernel's bound
on amounts (1,000,000), so a sum over it is a plugin fault only on a board
past any printed one.
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, LoseLife, Trigger, hookimpl

KIND = "afflict"


#: The largest N (see the module docstring).
MOST = 1_000


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.130", form="afflict {number}",
                        summary="when it becomes blocked, defending player loses N life",
                        examples=("afflict 1", "afflict 3"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    combat = state.combat
    if combat is None:
        return []
    out = []
    for event in events:
        if event.kind != "blocked" or not event.object or event.object not in state.objects:
            continue
        defender = combat.defending_players.get(event.object)
        if defender is None or defender not in state.players:
            continue
        perm = state.last_known(event.object)
        for keyword in perm.instances(KIND):
            n = keyword.number
            out.append(Trigger(KIND, perm.id, perm.controller, "702.130a",
                               f"{defender} loses {n} life", amount=n, targets=(defender,)))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[LoseLife]:
    if trigger.kind != KIND:
        return []
    return [LoseLife(player, trigger.amount or 0) for player in trigger.targets]

