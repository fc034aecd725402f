"""Banding and "bands with other", 1999-2009 wording (CR 502.10-502.11 of
February 2009).

Banding is as today's (502.10b-c): attacking creatures with banding and up to
one attacking creature without banding may form a band. "Bands with other"
isn't. Creatures with the same "bands with other [quality]" ability form a
band together, with any creatures with banding, whatever their creature types;
a creature with neither can't join (502.11b).

Who divides combat damage (502.10h, 502.11c):
- an attacking creature blocked by a creature with banding, or by at least two
  creatures with the same "bands with other [quality]" ability, has its damage
  divided by the defending player;
- a creature blocking a creature with banding, or at least two attacking
  creatures with the same "bands with other [quality]" ability, has its damage
  divided by the active player.

Either way the damage is divided freely among the creatures it is blocked by
or blocking. The core keeps the bands and makes a creature blocking one
member block the whole band (502.10e), as today.
"""

from __future__ import annotations

from collections import Counter

from redzone import GameState, KeywordSpec, Permanent, hookimpl, whole_board


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [
        KeywordSpec("banding", "502.10", summary="may attack in a band; the banding side "
                    "divides combat damage (1999-2009 wording)"),
        KeywordSpec("bands with other", "502.11", form="bands with other {quality}",
                    summary="bands with creatures with the same ability (1999-2009 wording)",
                    examples=("bands with other legends", "bands with other Dinosaurs")),
    ]


def _qualities(perm: Permanent) -> set[str]:
    """The qualities of ``perm``'s "bands with other" abilities, in lower case:
    two abilities are the same when their qualities are (502.11d)."""
    return {k.args[0].strip().lower() for k in perm.instances("bands with other") if k.args}


@hookimpl
def redzone_can_band(state: GameState, band: tuple[str, ...]) -> bool:
    members = [state.objects[m] for m in band]
    without = [p for p in members if not p.has("banding")]
    if len(without) <= 1 and len(without) < len(members):
        return True  # 502.10b: creatures with banding and up to one without
    # 502.11b: those with one "bands with other [quality]" ability, and creatures
    # with banding; none with neither.
    shared = set.intersection(*(_qualities(p) for p in without))
    return bool(shared)


def _bands_against(state: GameState, opposing: tuple[str, ...]) -> bool:
    """502.10h, 502.11c: the opposing creatures include one with banding, or
    at least two with the same "bands with other [quality]" ability."""
    others = [state.objects[o] for o in opposing if o in state.objects]
    if any(o.has("banding") for o in others):
        return True
    counts = Counter(q for o in others for q in _qualities(o))
    return any(n >= 2 for n in counts.values())


@hookimpl
@whole_board  # asked about a creature blocked by, or blocking, a band with banding
def redzone_damage_divider(state: GameState, creature: str) -> str | None:
    combat = state.combat
    if combat is None:
        return None
    if creature in combat.attacks:
        if _bands_against(state, combat.blockers_of(creature)):
            return combat.defending_players.get(creature)  # 502.10h, 502.11c
    elif creature in combat.blocks and _bands_against(state, combat.blocks[creature]):
        return state.active_player  # 502.10h, 502.11c
    return None
