"""Rule numbers by rules edition, for what redzone says in words (the
account, the visual report).

The engine's events carry today's rule numbers (the JSON outcome keeps them);
an account of a run under an older edition cites that edition's own: the
1999-2009 rules number the combat steps 307-311, combat damage 310, banding
502.10-502.11 and illegal actions 422; the rules of 2009-2024 number illegal
actions 730, a creature put onto the battlefield blocking 509.7 and the
keyword actions from 701.7 (destroy).
"""

from __future__ import annotations

from collections.abc import Mapping

#: Rule numbers an account cites itself, by rules edition: the steps (by the
#: label of their first occurrence: ``combat_damage``, not ``combat_damage#2``),
#: the damage assignment rules, a skipped combat, illegal actions. The
#: 1999-2009 rules number the steps of a turn 302-314 (the combat steps
#: 307-311) and illegal actions 422; the rules of 2009-2024 number illegal
#: actions 730. Editions not listed use today's.
CITATIONS: Mapping[str, Mapping[str, str]] = {
    "foundations": {
        "untap": "502", "upkeep": "503", "draw": "504", "precombat_main": "505",
        "main": "505", "postcombat_main": "505", "end_step": "513", "end": "513",
        "cleanup": "514",
        "beginning_of_combat": "507", "declare_attackers": "508", "declare_blockers": "509",
        "first_strike_damage": "510.4", "combat_damage": "510", "end_of_combat": "511",
        "assignment": "510.1", "unblocked": "510.1b", "blocked": "510.1c",
        "blocking": "510.1d", "illegal": "733", "no_attackers": "508.8",
        "no_assignment": "510.1a-d",
    },
    "m10": {"illegal": "730"},
    "sixth": {
        "untap": "302", "upkeep": "303", "draw": "304", "precombat_main": "305",
        "main": "305", "postcombat_main": "305", "end_step": "313", "end": "313",
        "cleanup": "314",
        "beginning_of_combat": "307", "declare_attackers": "308", "declare_blockers": "309",
        "first_strike_damage": "310.5", "combat_damage": "310", "end_of_combat": "311",
        "assignment": "310.2", "unblocked": "310.2b", "blocked": "310.2c",
        "blocking": "310.2d", "illegal": "422", "no_attackers": "308.5",
        "no_assignment": "310.2a-d",
    },
}


#: The rules of an older edition that say what today's rule says, for the
#: events, errors and explanations the engine reports with today's numbers
#: (the JSON outcome keeps them). From the Comprehensive Rules of 2009-02-01
#: for ``sixth``, of 2024 for ``m10``.
EQUIVALENTS: Mapping[str, Mapping[str, str]] = {
    "sixth": {
        # A turn: its phases and steps (300.1 of 2009).
        "500.1": "300.1",
        "506.4": "306.4", "508.1a": "308.2a", "508.1b": "308.2a", "508.1e": "308.2b",
        "508.1f": "308.2c", "508.4": "308.4", "508.8": "308.5", "509.1a": "309.2a",
        "509.1h": "309.2f", "509.4": "309.5", "510.1a": "310.2a", "510.2": "310.4",
        # A permanent put into play attacking or blocking but never in combat;
        # partly removed from combat.
        "506.3": "306.3", "506.3a": "306.3a", "506.3b": "306.3b", "506.4d": "306.4d",
        "509.4a": "306.3c",
        # A creature put into play attacking after blockers are declared: 2009
        # has no rule of its own for it (today's 508.4d); 309.2f makes a creature
        # with no blockers unblocked.
        "508.4d": "309.2f",
        # An unblocked creature's assignment (310.2b), assigning to blockers
        # and to the blocked (310.2c-d), and protection's prevention (502.7e).
        "510.1b": "310.2b", "510.1c": "310.2c", "510.1d": "310.2d", "702.16e": "502.7e",
        "511.3": "311.2", "614.1a": "419.1a", "616.1": "419.9a",
        "615.1a": "419.1d", "701.19a": "419.6b", "702.19b": "502.9b", "704.5a": "420.5a",
        "704.5b": "420.5g", "704.5c": "420.5h", "704.5d": "420.5f", "704.5f": "420.5b",
        "704.5g": "420.5c", "704.5i": "420.5p", "704.5q": "420.5n",
        # Banding was 502.10 and "bands with other" 502.11: today's 702.22c (which
        # creatures may band, each in one band) and 702.22j-k (who divides) each
        # say what two or three rules of 2009 said.
        "702.22": "502.10", "702.22a": "502.10a", "702.22b": "502.11a",
        "702.22c": "502.10b-c, 502.11b", "702.22d": "502.10b", "702.22e": "502.10d",
        "702.22f": "502.10d", "702.22g": "502.10f", "702.22h": "502.10e",
        "702.22i": "502.10g", "702.22j": "502.10h, 502.11c", "702.22k": "502.10h, 502.11c",
        "702.22m": "502.10i, 502.11d",
        # The keywords of 2009 were 502.N, each rule the same as today's: defender,
        # double strike, first strike, flying, haste, landwalk, protection, reach,
        # trample, vigilance, rampage, flanking, shadow, horsemanship, fear,
        # provoke, bushido, frenzy, wither and exalted.
        "702.3": "502.41", "702.3b": "502.41b", "702.4": "502.28", "702.7": "502.2",
        "702.9": "502.4", "702.9b": "502.4b", "702.10": "502.5", "702.14": "502.6",
        "702.14c": "502.6b", "702.16": "502.7", "702.16b": "502.7b", "702.16f": "502.7f",
        "702.17": "502.70", "702.17b": "502.70b", "702.19": "502.9", "702.20": "502.14",
        "702.20b": "502.14b", "702.23": "502.12", "702.23a": "502.12a", "702.25": "502.3",
        "702.25a": "502.3a", "702.28": "502.8", "702.28b": "502.8b", "702.31": "502.17",
        "702.31b": "502.17b", "702.36": "502.25", "702.36b": "502.25b", "702.39": "502.29",
        "702.39a": "502.29a", "702.45": "502.38", "702.45a": "502.38a", "702.68": "502.66",
        "702.68a": "502.66a", "702.80": "502.80", "702.83": "502.83", "702.83a": "502.83a",
        # Life, damage to a player, drawing and winning: damage dealt to a
        # player causes that much life loss (215.2), an effect's life gain or
        # loss (215.3), drawing a card (423.1), drawing from an empty library
        # (102.3c), a player or team winning when all opponents have lost
        # (102.2a, 102.2c), a draw: every remaining player losing at once
        # (102.4a), a loop of mandatory actions (102.4b), every remaining team
        # losing at once (102.4c).
        "120.3a": "215.2", "119.3": "215.3", "121.1": "423.1", "121.4": "102.3c",
        "104.2a": "102.2a", "104.2c": "102.2c",
        "104.4a": "102.4a", "104.4b": "102.4b", "104.4d": "102.4c",
        # Two-Headed Giant: the team's shared life (606.4a), a team losing at 0
        # or less (606.8a).
        "810.4": "606.4a", "810.8c": "606.8a",
        # Untapping in the untap step (302.2); putting triggered abilities on
        # the stack in APNAP order (410.3); sacrifice (501.6a); a new object
        # after a zone change (217.1c).
        "502.3": "302.2", "603.3b": "410.3", "701.21a": "501.6a", "400.7": "217.1c",
        # Continuous effects from spells and abilities (418.3) and the layers,
        # six in 2009 with abilities and control among them (418.5a);
        # replacement and prevention effects, one rule then (419.1), prevention
        # shields (419.7b) and a prevention's additional effect (419.7e).
        "611.2": "418.3", "613.1": "418.5a", "613.1b": "418.5a", "613.1f": "418.5a",
        "614.1": "419.1", "615.1": "419.1", "615.5": "419.7e", "615.7": "419.7b",
    },
    # The rules of July 2024. Rule 509 then had the damage assignment orders as
    # 509.2-509.3 (the engine cites those numbers for them as they are) and the
    # creature put onto the battlefield blocking as 509.7, made to block by an
    # effect as 509.6; 506.3 had no rule of a creature entering attacking after
    # blockers are declared (today's 506.3d), and 508.4d wasn't written:
    # 509.1h makes a creature with no blockers unblocked.
    "m10": {
        "506.3f": "506.3e", "508.4d": "509.1h", "509.3b": "509.6", "509.4": "509.7",
        "509.4a": "509.7a",
        # Effects that last until a step or phase expire as it begins.
        "500.4": "500.5",
        # Keyword actions, numbered before later sets added new ones (destroy
        # 701.7, discard 701.8, regenerate 701.15, sacrifice 701.17, tap and
        # untap 701.21, exert 701.39).
        "701.8": "701.7", "701.8a": "701.7a", "701.9a": "701.8a", "701.19": "701.15",
        "701.19a": "701.15a", "701.21": "701.17", "701.21a": "701.17a",
        "701.26a": "701.21a", "701.26b": "701.21b", "701.43": "701.39", "701.43a": "701.39a",
        # Battles: 2024 had one rule for a battle with defense 0 (today's 704.5v
        # for a Siege, 704.5w for any other) and for a protector who can't be one
        # only the Siege controlled by its protector.
        "704.5w": "704.5v", "704.5x": "704.5w", "704.5y": "704.5x",
    },
}


def era_rule(rules: str, rule: str) -> str:
    """An event's rule as the edition in force numbers it."""
    return EQUIVALENTS.get(rules, {}).get(rule, rule)


def cite(rules: str, what: str) -> str:
    """The rule the account cites for ``what`` under an edition."""
    return CITATIONS.get(rules, {}).get(what) or CITATIONS["foundations"][what]


__all__ = ["CITATIONS", "EQUIVALENTS", "cite", "era_rule"]
