"""Provoke (CR 702.39).

"Whenever this creature attacks, you may choose to have target creature
defending player controls block this creature this combat if able. If you do,
untap that creature" (702.39a); each instance triggers separately (702.39b).
The requirement is an :class:`~redzone.Effect` of kind ``blocks_if_able``,
which the core's requirement checker enforces (509.1c).

The target is a choice made as the ability is put on the stack (603.3d), key
``"provoke@<source>:target"``: a creature the defending player controls that
the provoker's ability can target (not one with protection from a quality
the provoker has, 702.16b: whatever ``redzone_target_violations`` refuses);
by default the one with the greatest power, ties broken by id. The target is
required: when there is no such creature the offer has no option and asks
for one (``min=1``), so the ability is removed from the stack (603.3d) and
never resolves. When there is one, the offer also takes an empty answer
(``min=0``): the player declines the "you may", which the rules decide as it
resolves (603.5) but which changes nothing here but the account, so the
ability goes on the stack with no target and does nothing as it resolves.
An embedding engine may still set ``Trigger.choices["target"]`` as it
resolves (an empty list: it declines). A target chosen from the choice's
options (by default or by an answer) that is no longer legal as it resolves
(it left the battlefield, the defending player no longer controls it, or it
gained protection from the provoker) makes it do nothing (608.2b); a target
the engine gave that was never among the options is refused.
"""

from __future__ import annotations

from redzone import (
    Action,
    AddEffect,
    Choice,
    Effect,
    Event,
    GameState,
    IllegalActionError,
    KeywordSpec,
    Trigger,
    Untap,
    hookimpl,
    target_violations,
)


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
            # 603.3d: the target is chosen as the ability is put on the stack.
            legal = _legal_targets(state, perm.id)
            options = tuple(sorted(legal))
            # The target is required (603.3d): with no legal one the offer asks
            # for one of none and the kernel removes the ability from the stack.
            # With one, "none" stands for declining ("you may", 603.5).
            target = Choice("target", perm.controller, "target", options,
                            default=legal[:1], min=1 if not options else 0, max=1,
                            rule="702.39a", text="target creature the defending player "
                                                 "controls (or none: \"you may\")")
            out.append(Trigger("provoke", perm.id, perm.controller, "702.39a",
                               "target creature blocks it if able; untap that creature",
                               offers=(target,)))
    return out


def _legal_targets(state: GameState, source: str) -> list[str]:
    """The creatures the defending player controls that ``source``'s ability
    can target (702.39a, 702.16b), the greatest power first (ties by id)."""
    combat = state.combat
    if combat is None or source not in combat.attacks:
        return []
    defender = combat.defending_players.get(source)
    able = [p for p in state.battlefield if "creature" in p.types and p.controller == defender
            and not target_violations(state, source, p.id)]
    able.sort(key=lambda p: (-p.power, p.id))
    return [p.id for p in able]


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
        kind = perm is not None and "creature" in perm.types and perm.controller == defender
        refused = target_violations(state, trigger.source, str(target)) if kind else []
        if not kind or refused:
            if any(o.name == "target" and target in o.options for o in trigger.offers):
                return []  # 608.2b: the target chosen as it went on the stack is illegal now
            if refused:
                raise IllegalActionError(f"provoke: {refused[0].message}", rule=refused[0].rule,
                                         objects=(trigger.source, str(target)))
            raise IllegalActionError(
                f"provoke: {target!r} is not a creature the defending player {defender!r} "
                "controls", rule="702.39a", objects=(trigger.source, str(target)))
    else:
        legal = _legal_targets(state, trigger.source)
        target = legal[0] if legal else None
    if target is None:
        return []
    # 702.39a: "... block this creature this combat if able": it ends with this
    # combat (511.3), so a later combat of the turn asks nothing of it.
    return [Untap(target), AddEffect(Effect("blocks_if_able", to=target, source=trigger.source,
                                            duration="this_combat"))]

