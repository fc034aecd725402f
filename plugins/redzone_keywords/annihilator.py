"""Annihilator (CR 702.86).

"Annihilator N" means "Whenever this creature attacks, defending player
sacrifices N permanents" (702.86a). It triggers when the creature is
declared as an attacker (508.2a, 508.3a). The defending player is the
creature's, fixed as it was declared (506.2, 508.5); they sacrifice as the
trigger resolves, all at once, N of the permanents they control then (all of
them if they control fewer). Sacrifice is not destruction: indestructible
doesn't stop it. Each instance triggers separately (702.86b).

The defending player chooses what to sacrifice. An embedding engine passes
the choice as the trigger's ``choices["sacrifice"]`` (for example
``engine.resolve_trigger(state, choices={"sacrifice": ["land", "bear"]})``):
exactly N distinct permanents that player controls on the battlefield (or
all of them when they control fewer), else
:class:`~redzone.IllegalActionError` (rule 702.86a) and nothing changes.
Without a choice the default is deterministic: tokens first, then the other
permanents, each group in id order.

Trigger: kind ``"annihilator"``, source the creature, controller its
controller, ``targets`` the defending player, ``amount`` the N of the
instance.
"""

from __future__ import annotations

from redzone import (
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
                               amount=n, targets=(defender,)))
    return out


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Sacrifice]:
    if trigger.kind != KIND or not trigger.targets:
        return []
    player = trigger.targets[0]
    controlled = [p for p in state.battlefield if p.controller == player]
    need = min(trigger.amount or 0, len(controlled))
    chosen = trigger.choices.get(CHOICE)
    if chosen is None:
        ranked = sorted(controlled, key=lambda p: (not p.token, p.id))
        return [Sacrifice(p.id, player) for p in ranked[:need]]  # 701.21a
    ids = {p.id for p in controlled}
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

