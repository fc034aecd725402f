"""Banding (CR 702.22).

Attacking creatures with banding, plus up to one attacking creature without
banding, may form an attacking band (702.22c); so may attacking [quality]
creatures when one of them has "bands with other [quality]". The core keeps
the bands and makes a creature blocking one member block the whole band
(702.22h-i). This plugin says which bands are allowed and who divides combat
damage: an attacking creature blocked by a creature with banding has its
damage divided by the defending player (702.22j), a creature blocking a
creature with banding by the active player (702.22k); either way freely among
the creatures it is blocked by or blocking. "Bands with other" qualities are
read as a creature type ("bands with other Dinosaurs"), "legends" (the
legendary supertype), or "creatures named N".
"""

from __future__ import annotations

from redzone import GameState, KeywordSpec, Permanent, hookimpl, whole_board


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [
        KeywordSpec("banding", "702.22", summary="may attack in a band; the banding side "
                    "divides combat damage"),
        KeywordSpec("bands with other", "702.22b", form="bands with other {quality}",
                    summary="bands with other creatures of a quality",
                    examples=("bands with other legends", "bands with other Dinosaurs")),
    ]


#: Creature types whose plural isn't made by a rule of :func:`_plurals`.
_IRREGULAR_PLURALS: dict[str, tuple[str, ...]] = {
    "cyclops": ("cyclopes",), "fungus": ("fungi",), "homunculus": ("homunculi",),
    "mouse": ("mice",), "ox": ("oxen",), "octopus": ("octopi",),
}


def _plurals(subtype: str) -> set[str]:
    """The ways a creature type (lower case) is written in the plural, itself
    included (Merfolk, Sheep): Wolf, Wolves; Harpy, Harpies; Sphinx, Sphinxes."""
    forms = {subtype, subtype + "s", subtype + "es", *_IRREGULAR_PLURALS.get(subtype, ())}
    if subtype.endswith("f"):
        forms.add(subtype[:-1] + "ves")
    elif subtype.endswith("fe"):
        forms.add(subtype[:-2] + "ves")
    elif subtype.endswith("y"):
        forms.add(subtype[:-1] + "ies")
    return forms


def _has_quality(perm: Permanent, quality: str) -> bool:
    """Whether ``perm`` is a [quality] creature: "legends" are legendary,
    "creatures named N" are named N, and otherwise the quality is a creature
    type in the plural ("Wolves": a Wolf, 702.22c)."""
    q = quality.strip().lower()
    if q == "legends":
        return "legendary" in perm.supertypes
    if q.startswith("creatures named "):
        return perm.name.lower() == q[len("creatures named "):]
    return any(q in _plurals(t.lower()) for t in perm.subtypes)


def _bands_with_other(perm: Permanent) -> tuple[str, ...]:
    return tuple(k.args[0] for k in perm.instances("bands with other") if k.args)


@hookimpl
def redzone_can_band(state: GameState, band: tuple[str, ...]) -> bool:
    members = [state.objects[m] for m in band]
    without = [p for p in members if not p.has("banding")]
    if len(without) <= 1 and len(without) < len(members):
        return True  # 702.22c: creatures with banding and up to one without
    for perm in members:
        for quality in _bands_with_other(perm):
            if all(_has_quality(p, quality) for p in members):
                return True  # 702.22c: [quality] creatures, one with "bands with other"
    return False


def _bands_against(state: GameState, creature: Permanent, opposing: tuple[str, ...]) -> bool:
    """702.22j-k: the opposing creatures include one with banding, or a
    [quality] creature with "bands with other [quality]" and another [quality]
    creature."""
    others = [state.objects[o] for o in opposing if o in state.objects]
    if any(o.has("banding") for o in others):
        return True
    for o in others:
        for quality in _bands_with_other(o):
            if _has_quality(o, quality) and any(
                    p.id != o.id and _has_quality(p, quality) for p in others):
                return True
    return False


@hookimpl
@whole_board  # asked about a creature blocked by, or blocking, a band with banding
def redzone_damage_divider(state: GameState, creature: str) -> str | None:
    combat = state.combat
    if combat is None:
        return None
    perm = state.objects[creature]
    if creature in combat.attacks:
        if _bands_against(state, perm, combat.blockers_of(creature)):
            return combat.defending_players.get(creature)  # 702.22j
    elif creature in combat.blocks and _bands_against(state, perm, combat.blocks[creature]):
        return state.active_player  # 702.22k
    return None

