"""Trample over planeswalkers (CR 702.19c).

A variant of trample, its own keyword (702.19c): an attacking creature with
trample over planeswalkers assigns its combat damage as a creature with
trample does (702.19b): once every creature blocking it is assigned lethal
damage (counting damage already marked and damage other creatures assign in
the same step), the excess may go to what it attacks; with no creature left
blocking it, as though all were assigned lethal damage (702.19d).

The exception: when it attacks a planeswalker, once lethal damage is
assigned to every blocker and damage at least equal to the planeswalker's
loyalty is assigned to the planeswalker (counting damage other creatures
assign to it in the same step, but not prevention or other effects on the
damage dealt), further excess may also go to that planeswalker's controller
(702.19c). Blocked or not. If that planeswalker was removed from combat, its
damage may go to the defending player once every blocker is assigned lethal
damage, or all of it when no creature blocks it (702.19e); this does not
make it attack that player. The extra recipient comes through
``redzone_additional_recipients``; the conditions are checked in
``redzone_assignment_violations``. A creature with trample alone never
assigns to the player (702.19f). The ability does nothing for a blocking
creature (702.19a). Several instances are redundant (702.19g).
"""

from __future__ import annotations

from typing import Final

from redzone import GameState, KeywordSpec, SourceAssignment, Violation, hookimpl

NAME: Final = "trample over planeswalkers"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(NAME, "702.19c", summary="excess combat damage goes past blockers, "
                        "and past an attacked planeswalker to its controller")]


@hookimpl
def redzone_assigns_past_blockers(state: GameState, attacker: str) -> bool:
    return state.objects[attacker].has(NAME)


@hookimpl
def redzone_additional_recipients(state: GameState, attacker: str) -> list[str]:
    combat = state.combat
    if combat is None or not state.objects[attacker].has(NAME):
        return []
    attacked = combat.attacks.get(attacker)
    target = state.on_battlefield(attacked) if attacked is not None else None
    if target is not None:
        # 702.19c: the controller of the planeswalker it attacks.
        return [target.controller] if "planeswalker" in target.types else []
    # 702.19e: the planeswalker it attacked was removed from combat (it left
    # the battlefield, an effect removed it, or it stopped being a planeswalker,
    # 506.4): not a player it attacked, nor a battle.
    declared = combat.declared.get(attacker)
    defender = combat.defending_players.get(attacker)
    if declared is None or declared not in state.objects or defender is None:
        return []
    return [] if "battle" in state.last_known(declared).types else [defender]


def _name(state: GameState, obj: str) -> str:
    perm = state.objects.get(obj)
    return perm.name if perm is not None else obj


@hookimpl
def redzone_assignment_violations(
    state: GameState, assignment: SourceAssignment
) -> list[Violation]:
    if not assignment.is_attacker:
        return []
    source = state.objects[assignment.source]
    if not source.has(NAME):
        return []
    attacked = assignment.attacked
    beyond = [r for r in ((attacked,) if attacked is not None else ()) + assignment.additional
              if assignment.to(r)]
    if not beyond:
        return []
    out: list[Violation] = []
    short = [b for b in assignment.blockers if assignment.to(b) < assignment.lethal.get(b, 0)]
    if short:
        detail = ", ".join(f"{_name(state, b)} is assigned {assignment.to(b)} of "
                           f"{assignment.lethal.get(b, 0)} lethal" for b in short)
        where = " and ".join(_name(state, r) for r in beyond)
        out.append(Violation(
            "702.19b" if attacked is not None else "702.19e",
            f"{source.name} ({NAME}) can't assign damage to {where} before every creature "
            f"blocking it is assigned lethal damage: {detail}",
            (assignment.source, *short, *beyond)))
    to_controller = [r for r in assignment.additional if assignment.to(r)]
    planeswalker = state.on_battlefield(attacked) if attacked is not None else None
    if to_controller and planeswalker is not None and planeswalker.loyalty is not None:
        mine = assignment.to(planeswalker.id)
        others = assignment.others.get(planeswalker.id, 0)
        if mine + others < planeswalker.loyalty:
            out.append(Violation(
                "702.19c",
                f"{source.name} ({NAME}) can't assign damage to "
                f"{' and '.join(_name(state, r) for r in to_controller)} before damage at "
                f"least equal to {planeswalker.name}'s loyalty ({planeswalker.loyalty}) is "
                f"assigned to {planeswalker.name}: it is assigned {mine} by {source.name} "
                f"and {others} by other creatures",
                (assignment.source, planeswalker.id, *to_controller)))
    return out

