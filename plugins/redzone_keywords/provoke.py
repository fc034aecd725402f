"""Provoke (CR 702.39).

"Whenever this creature attacks, you may choose to have target creature
defending player controls block this creature this combat if able. If you do,
untap that creature" (702.39a); each instance triggers separately (702.39b).
The requirement is an :class:`~redzone.Effect` of kind ``blocks_if_able``,
which the core's requirement checker enforces (509.1c).

The target is a choice: ``Trigger.choices["target"]`` when the embedding
engine supplies it (or ``[]`` to choose not to), otherwise, by default, the
creature the defending player controls with the greatest power that could
block the provoker, ties broken by id; no such creature, no effect.
"""

from __future__ import annotations

from redzone import (
    AddEffect,
    Effect,
    Event,
    GameState,
    IllegalActionError,
    KeywordSpec,
    Trigger,
    Untap,
    hookimpl,
)
from redzone.kernel.actions import Action


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("provoke", "702.39", summary="forces a creature to block it")]


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    out = []
    for event in events:
        if event.kind != "attack" or event.attacker is None:
            continue
        perm = state.last_known(event.attacker)
        for _ in perm.instances("provoke"):
            out.append(Trigger("provoke", perm.id, perm.controller, "702.39a",
                               "target creature blocks it if able; untap that creature"))
    return out


def _default_target(state: GameState, trigger: Trigger) -> str | None:
    combat = state.combat
    if combat is None or trigger.source not in combat.attacks:
        return None
    defender = combat.defending_players.get(trigger.source)
    able = [p for p in state.battlefield
            if "creature" in p.types and p.controller == defender]
    able.sort(key=lambda p: (-p.power, p.id))
    return able[0].id if able else None


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Action]:
    if trigger.kind != "provoke":
        return []
    combat = state.combat
    if "target" in trigger.choices:
        chosen = trigger.choices["target"]
        if not chosen:
            return []  # "you may": they chose not to
        target: str | None = chosen[0]
        perm = state.on_battlefield(target or "")
        defender = combat.defending_players.get(trigger.source) if combat is not None else None
        if perm is None or "creature" not in perm.types or perm.controller != defender:
            raise IllegalActionError(
                f"provoke: {target!r} is not a creature the defending player {defender!r} "
                "controls", rule="702.39a", objects=(trigger.source, str(target)))
    else:
        target = _default_target(state, trigger)
    if target is None:
        return []
    # 702.39a: "... blocks this creature this turn if able": until end of turn (514.2).
    return [Untap(target), AddEffect(Effect("blocks_if_able", to=target, source=trigger.source,
                                            duration="end_of_turn"))]


#: Every hook here answers nothing unless an object has one of this module's keywords.
REDZONE_NEEDS_KEYWORD = True
