"""Undying (CR 702.93).

"Undying" means "When this permanent is put into a graveyard from the
battlefield, if it had no +1/+1 counters on it, return it to the
battlefield under its owner's control with a +1/+1 counter on it"
(702.93a).

It works as persist does (702.79, :mod:`redzone_keywords.persist`) with the
other counter: it looks back at the permanent's last known information
(603.10a), its "if" is checked as it triggers and as it resolves (603.4),
and the card returns only if it is still in its owner's graveyard as the
object that went there (400.7), entering with the counter (614.1c). A
creature with both persist and undying and no counters returns once (the
first to resolve moves it; the other finds a new object) with one counter;
the next time it dies only the ability whose counter it lacks triggers.

Trigger: kind ``"undying"``, source the card, controller the controller of
the permanent as it left; "it" is the card as it went to the graveyard (the
object number the kernel notes for the trigger's source, 400.7), as for
persist.
"""

from __future__ import annotations

from redzone import Event, GameState, KeywordSpec, Move, Trigger, hookimpl

from redzone_keywords.persist import comes_back, returning

KIND = "undying"
COUNTER = "+1/+1"
RULE = "702.93a"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.93", summary="when it dies without a +1/+1 counter, it "
                        "returns with one")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    return returning(state, events, KIND, COUNTER, RULE,
                     "return it to the battlefield with a +1/+1 counter")


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Move]:
    if trigger.kind != KIND or trigger.actions:
        return []
    return comes_back(state, trigger, COUNTER)
