"""Annihilator (CR 702.86).

"Annihilator N" means "Whenever this creature attacks, defending player
sacrifices N permanents" (702.86a). It triggers when the creature is
declared as an attacker (508.2a, 508.3a). The defending player is the
creature's, fixed as it was declared (506.2, 508.5); they sacrifice as the
trigger resolves, all at once, N of the permanents they control then (all of
them if they control fewer). Sacrifice is not destruction: indestructible
doesn't stop it. Each instance triggers separately (702.86b).

The defending player chooses what to sacrifice, as the trigger resolves
(608.2d): the trigger offers a :class:`~redzone.Choice` named
``"sacrifice"`` (kind ``option``, the player the defending player, its
options the permanents they control, exactly N of them or all when they
control fewer), so its key is ``"annihilator@<source>:sacrifice"``
(``#2`` after the source for a second instance, 702.86b). It is listed in
advance by ``engine.choices_for(state, "declare_attackers", attacks)``, or
by ``engine.pending_choices(state)`` while the trigger waits; answer it by
key (``choices`` of ``resolve``, ``answers`` of a command) or by name
(``engine.resolve_trigger(state, choices={"sacrifice": ["land", "bear"]})``).
An answer that isn't exactly N distinct permanents that player controls as
it resolves is an :class:`~redzone.IllegalActionError` (rule 702.86a) and
nothing changes. Without an answer the default is deterministic: tokens
first, then the other permanents, each group in id order. The choice is made
as the trigger resolves (608.2d): its options and default are worked out
again then from what the player controls (``redzone_trigger_choices``), and
``engine.pending_choices(state)`` lists them as they are in the state it is
given.

Trigger: kind ``"annihilator"``, source the creature, controller its
controller, ``targets`` the defending player, ``amount`` the N of the
instance.
"""

from __future__ import annotations

from redzone import (
    Choice,
    Event,
    GameState,
    IllegalActionError,
    KeywordSpec,
    Sacrifice,
    Trigger,
    hookimpl,
)

KIND = "annihilator"
CHOICE = "sacrifice"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.86", form="annihilator {number}",
                        summary="when it attacks, defending player sacrifices N permanents",
                        examples=("annihilator 1", "annihilator 2"))]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    combat = state.combat
    out = []
    for event in events:
        if event.kind != "attack" or not event.attacker or event.attacker not in state.objects:
            continue
        defender = combat.defending_players.get(event.attacker) if combat is not None else None
        if defender is None and event.target is not None:
            defender = state.defending_player_of(event.target)
        if defender is None or defender not in state.players:
            continue
        perm = state.last_known(event.attacker)
        for keyword in perm.instances(KIND):
            n = keyword.number
            out.append(Trigger(KIND, perm.id, perm.controller, "702.86a",
                               f"{defender} sacrifices {n} permanent{'s' if n != 1 else ''}",
                               amount=n, targets=(defender,),
                               offers=(_offer(state, defender, n),)))
    return out


def _default(state: GameState, player: str, n: int) -> tuple[str, ...]:
    """What ``player`` sacrifices without an answer: tokens first, then the
    other permanents they control, each group in id order (701.21a)."""
    controlled = sorted((p for p in state.battlefield if p.controller == player),
                        key=lambda p: (not p.token, p.id))
    return tuple(p.id for p in controlled[:n])


def _offer(state: GameState, player: str, n: int) -> Choice:
    """The defending player's choice of what to sacrifice (702.86a, 608.2d)."""
    options = tuple(sorted(p.id for p in state.battlefield if p.controller == player))
    need = min(n, len(options))
    return Choice(CHOICE, player, "option", options, default=_default(state, player, n),
                  min=need, max=need, rule="702.86a",
                  text=f"the {need} permanent{'s' if need != 1 else ''} {player} sacrifices")


@hookimpl
def redzone_trigger_choices(state: GameState, trigger: Trigger) -> list[Choice]:
    """The choice of what to sacrifice, of the permanents the player controls
    as it resolves (608.2d)."""
    if trigger.kind != KIND or not trigger.targets:
        return []
    return [_offer(state, trigger.targets[0], trigger.amount or 0)]


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Sacrifice]:
    if trigger.kind != KIND or not trigger.targets:
        return []
    player = trigger.targets[0]
    controlled = [p for p in state.battlefield if p.controller == player]
    need = min(trigger.amount or 0, len(controlled))
    chosen = trigger.choices.get(CHOICE)
    ids = {p.id for p in controlled}
    if chosen is None:  # (a trigger resolved by an engine that asked no choice)
        return [Sacrifice(obj, player) for obj in _default(state, player, need)]
    wrong = [c for c in chosen if c not in ids]
    if wrong or len(set(chosen)) != len(chosen) or len(chosen) != need:
        problem = (f"{', '.join(repr(w) for w in wrong)} {'is' if len(wrong) == 1 else 'are'} "
                   f"not a permanent {player} controls") if wrong else (
            f"{len(chosen)} permanent(s) chosen ({', '.join(chosen) or 'none'})"
            if len(set(chosen)) == len(chosen) else
            f"the same permanent chosen twice ({', '.join(chosen)})")
        raise IllegalActionError(
            f"annihilator {trigger.amount}: {player} must sacrifice exactly {need} "
            f"distinct permanent{'s' if need != 1 else ''} they control; {problem}",
            rule="702.86a", objects=(trigger.source, player, *chosen))
    return [Sacrifice(obj, player) for obj in chosen]

