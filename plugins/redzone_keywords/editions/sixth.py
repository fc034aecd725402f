"""Combat damage on the stack (CR 310 of February 2009; April 1999 to July 2009).

As each combat damage step begins, the players announce every assignment and
the assignments go on the stack as one object (310.1); the active player gets
priority (the ``first_strike_damage_assigned`` and ``combat_damage_assigned``
windows). When it resolves, all damage is dealt as originally assigned, even if
the source has left play or its power changed (last known information,
310.4a-b); damage assigned to a creature or planeswalker that is no longer in
play, or no longer a creature or planeswalker, isn't dealt (310.4c). A
creature's controller divides its damage among its blockers freely (310.2c-d).
The second combat damage step takes the creatures that did not assign combat
damage in the first, plus those with double strike (310.5); a creature that
left play and came back is a new object that assigned none. Deathtouch and
lifelink are that era's triggered abilities (502.63, 502.68), and "bands with
other" bands creatures with the same ability, whatever their types (502.11). The legend rule
puts every legendary permanent sharing a name with another into its owner's
graveyard, whoever controls them (420.5e), and the planeswalker uniqueness rule
every planeswalker sharing a planeswalker type with another (420.5q).
"""

from __future__ import annotations

from redzone import Edition

from redzone_keywords.editions import sixth_banding, sixth_deathtouch, sixth_lifelink

SIXTH = Edition(
    "sixth",
    "Sixth Edition to Magic 2010 (April 1999 to July 2009): combat damage on the stack",
    ("Comprehensive Rules 2009-02-01: 310.1-310.5, 420.5e, 420.5q, 502.10-502.11, 502.63, "
     "502.68",),
    plugins=(sixth_banding, sixth_deathtouch, sixth_lifelink),
    replaces=("banding", "deathtouch", "lifelink"),
    damage_on_stack=True,
    second_step_by_assignment=True,
    legend_rule_per_player=False,
    summary=(
        "Combat damage is assigned, put on the stack as one object, and dealt when it "
        "resolves, after a round of priority; deathtouch and lifelink trigger."
    ),
)
