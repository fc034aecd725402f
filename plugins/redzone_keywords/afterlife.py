"""Afterlife (CR 702.135).

"Afterlife N" means "When this permanent is put into a graveyard from the
battlefield, create N 1/1 white and black Spirit creature tokens with
flying" (702.135a). Each instance triggers separately (702.135b).

It triggers on the ``dies`` event of a permanent whose last known
information (603.10a) has afterlife: a leaves-the-battlefield ability looks
back in time, so a creature that had afterlife granted until end of turn
still triggers. The tokens are created under the control of the ability's
controller, the player who controlled the permanent as it left (603.3a,
111.2); they enter untapped and not in combat.

Token ids are ``<card>.afterlife.<n>`` (:func:`redzone.token_ids`: n
counts from 1, skipping ids already taken), so a scenario file can name
them.

Trigger: kind ``"afterlife"``, source the card, controller the permanent's
last controller, ``amount`` N.
"""

from __future__ import annotations

from redzone import (
    CreateToken,
    Event,
    GameState,
    KeywordSpec,
    Permanent,
    Trigger,
    hookimpl,
    token_ids,
)

KIND = "afterlife"
#: The most tokens one instance creates: the largest printed afterlife is 3.
MOST = 20


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.135", form="afterlife {number}",
                        summary="when it dies, N 1/1 white and black Spirits with flying",
                        examples=("afterlife 1", "afterlife 2"), most=MOST)]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "dies" or event.object is None or event.object not in state.objects:
            continue
        before = state.last_known(event.object)
        for keyword in before.instances(KIND):
            n = keyword.number
            out.append(Trigger(KIND, before.id, before.controller, "702.135a",
                               f"create {n} 1/1 white and black Spirit token"
                               f"{'s' if n != 1 else ''} with flying", amount=n))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[CreateToken]:
    if trigger.kind != KIND or trigger.actions:
        return []
    return [CreateToken(Permanent(t, trigger.controller, name="Spirit", types={"creature"},
                                  subtypes=("Spirit",), colors={"white", "black"},
                                  base_power=1, base_toughness=1, printed_keywords=("flying",),
                                  token=True))
            for t in token_ids(state, str(trigger.source), KIND, trigger.amount or 0)]
