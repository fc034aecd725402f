"""Damage assignment order (CR 509.2-509.3, 510.1c-d of July 2009 to November 2024).

Right after blockers are declared, the attacking player announces each blocked
attacker's damage assignment order among its blockers, and the defending
player each blocker's order among the attackers it blocks (the engine records
them, from the ``order`` the caller gives, else declaration order). In the
combat damage step a creature can't assign combat damage to a creature in its
order unless each creature ahead of it is assigned lethal damage, counting
damage already marked and damage other creatures assign in the same step, but
not prevention (510.1c-d). Deathtouch's "any nonzero damage is lethal" applies
(702.2c of 2024), through the ordinary lethal-damage hook.
"""

from __future__ import annotations

import sys

from redzone import Edition, GameState, SourceAssignment, Violation, hookimpl


@hookimpl
def redzone_assignment_violations(
    state: GameState, assignment: SourceAssignment
) -> list[Violation]:
    """Each creature assigned damage before a creature ahead of it in the
    damage assignment order is assigned lethal damage (one violation for
    each, naming the first such creature ahead of it).

    Rules: 510.1c, 510.1d (2024)
    """
    order = assignment.blockers
    if len(order) < 2:
        return []
    rule = "510.1c" if assignment.is_attacker else "510.1d"
    found: list[Violation] = []
    for later_index, later in enumerate(order):
        if not assignment.to(later):
            continue
        for earlier in order[:later_index]:
            if assignment.to(earlier) < assignment.lethal.get(earlier, 0):
                found.append(_out_of_order(state, assignment, rule, earlier, later))
                break
    return found


def _out_of_order(state: GameState, assignment: SourceAssignment, rule: str, earlier: str,
                  later: str) -> Violation:
    """The violation of assigning damage to ``later`` before ``earlier``,
    ahead of it in the order, is assigned lethal damage (510.1c-d)."""
    label = {obj: state.objects[obj].label for obj in (assignment.source, *assignment.blockers)}
    order = ", ".join(label[b] for b in assignment.blockers)
    return Violation(
        rule,
        f"{label[assignment.source]} can't assign damage to {label[later]} before "
        f"{label[earlier]}, ahead of it in the damage assignment order {order}, is assigned "
        f"lethal damage ({assignment.lethal.get(earlier, 0)}; it has {assignment.to(earlier)})",
        (assignment.source, earlier, later),
    )


M10 = Edition(
    "m10",
    "Magic 2010 to Foundations (July 2009 to November 2024): damage assignment order",
    ("Comprehensive Rules 2024-07-30: 509.2, 509.2a, 509.3, 509.3a, 509.6, 509.7, 510.1c-e, "
     "702.2c",),
    plugins=(sys.modules[__name__],),
    assignment_orders=True,
    summary=(
        "Blocked attackers and blockers get a damage assignment order as blockers are "
        "declared; lethal damage must be assigned in that order before any creature later "
        "in it is assigned damage."
    ),
)
