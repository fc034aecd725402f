"""Persist (CR 702.79).

"Persist" means "When this permanent is put into a graveyard from the
battlefield, if it had no -1/-1 counters on it, return it to the
battlefield under its owner's control with a -1/-1 counter on it"
(702.79a).

It triggers on the ``dies`` event of a permanent whose last known
information (603.10a) has persist and no -1/-1 counter: a leaves-the-
battlefield ability looks back in time, so what counts is the permanent as
it last existed on the battlefield, its counters and granted abilities
included. The "if" is an intervening "if" (603.4): it is checked as the
ability triggers and again as it resolves, against the same last known
information. The card that returns is a new object (400.7): it comes back
only if it is still in its owner's graveyard as the object that went there;
if it has left (exiled, or returned by another ability first), the ability
does nothing. It returns under its owner's control, summoning sick (302.6),
not in combat, and enters with its -1/-1 counter (614.1c). A token can't
return (111.8). Each instance triggers (603.2); the second to resolve finds
the card gone from the graveyard.

Trigger: kind ``"persist"``, source the card, controller the controller of
the permanent as it left. "It" is the card as it went to the graveyard: the
object number of its source the kernel notes as the trigger is put on the
stack (``Trigger.objects``, 400.7).
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Move, Trigger, hookimpl

KIND = "persist"
#: The counter it looks for, and returns the card with.
COUNTER = "-1/-1"
RULE = "702.79a"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.79", summary="when it dies without a -1/-1 counter, it "
                        "returns with one")]


def returning(state: GameState, events: tuple[Event, ...], kind: str, counter: str,
              rule: str, text: str) -> list[Trigger]:
    """The triggers of ``kind`` (persist, undying) for the permanents put
    into a graveyard from the battlefield among ``events``: each instance of
    one whose last known information has no ``counter`` counter (603.4,
    603.10a)."""
    out = []
    for event in events:
        if event.kind != "dies" or event.object is None or event.object not in state.objects:
            continue
        before = state.last_known(event.object)
        if before.counters.get(counter, 0) > 0:
            continue
        for _ in before.instances(kind):
            out.append(Trigger(kind, before.id, before.controller, rule, text))
    return out


def comes_back(state: GameState, trigger: Trigger, counter: str) -> list[Move]:
    """The return (400.7, 614.1c): only the card still in its graveyard as
    the object that went there, and not a token (111.8)."""
    card = state.objects.get(str(trigger.source))
    if card is None or card.zone != "graveyard" or card.token \
            or card.object != trigger.objects.get(card.id):
        return []
    return [Move(card.id, "battlefield", counters={counter: 1})]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    return returning(state, events, KIND, COUNTER, RULE,
                     "return it to the battlefield with a -1/-1 counter")


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Move]:
    if trigger.kind != KIND or trigger.actions:
        return []
    return comes_back(state, trigger, COUNTER)
