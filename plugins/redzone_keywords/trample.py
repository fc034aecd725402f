"""Trample (CR 702.19).

A blocked attacking creature with trample may assign combat damage to the
player, planeswalker or battle it attacks, but only once every creature
blocking it is assigned lethal damage, counting damage already marked and
damage other creatures assign in the same step, but not prevention or other
effects on the damage actually dealt (702.19b); the core supplies those lethal
amounts, and a deathtouch plugin lowers them to 1 (702.2c). With no creatures
left blocking it, all its damage goes to what it attacks (702.19d). Trample
does nothing for a blocking creature (702.19a): only blocked attackers are
asked. A creature attacking a planeswalker that has left combat can't assign
to the player instead (702.19f): the core gives it nothing to assign to past
its blockers.
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, SourceAssignment, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec("trample", "702.19",
                        summary="excess combat damage goes past blockers")]


@hookimpl
def redzone_assigns_past_blockers(state: GameState, attacker: str) -> bool:
    return state.objects[attacker].has("trample")


@hookimpl
def redzone_assignment_violations(
    state: GameState, assignment: SourceAssignment
) -> list[Violation]:
    attacked = assignment.attacked
    if not assignment.is_attacker or attacked is None or not assignment.to(attacked):
        return []
    source = state.objects[assignment.source]
    if not source.has("trample"):
        return []
    short = [b for b in assignment.blockers if assignment.to(b) < assignment.lethal.get(b, 0)]
    if not short:
        return []
    target = state.objects[attacked].name if attacked in state.objects else attacked
    detail = ", ".join(
        f"{state.objects[b].name} is assigned {assignment.to(b)} of "
        f"{assignment.lethal.get(b, 0)} lethal" for b in short)
    return [Violation(
        "702.19b", f"{source.name} (trample) can't assign {assignment.to(attacked)} damage to "
        f"{target} before every creature blocking it is assigned lethal damage: {detail}",
        (assignment.source, *short, attacked))]
