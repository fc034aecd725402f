"""Restrictions and requirements that are not keywords (508.1c-d, 509.1b-c).

This module is an ordinary plugin that every engine registers. It reads the
permanents' own fields and game-wide effects:

- ``cant_attack``, ``cant_block``, ``cant_be_blocked`` and ``min_blockers``
  ("can't be blocked except by N or more creatures") are restrictions;
- ``attacks_if_able``, ``blocks_if_able``, ``must_be_blocked`` (at least one
  creature blocks it if able) and ``lure`` (all creatures able to block it do
  so) are requirements;
- an :class:`~redzone.Effect` of kind ``blocks_if_able`` with ``to`` (the
  creature) and ``source`` (the attacker) is a requirement to block that
  attacker, as provoke creates (702.39a).
"""

from __future__ import annotations

from collections.abc import Iterable

from redzone.kernel.errors import Violation
from redzone.kernel.model import GameState
from redzone.kernel.plugins import hookimpl
from redzone.kernel.requirements import Requirement

# What these hooks read decides their state gate: keep
# redzone.kernel._gates._KERNEL_STATE_GATES in step with it.


@hookimpl
def redzone_attack_violations(state: GameState, attacker: str) -> Iterable[Violation] | None:
    perm = state.objects[attacker]
    if perm.cant_attack:
        return [Violation("508.1c", f"{perm.name} can't attack", (attacker,))]
    return None


@hookimpl
def redzone_block_violations(state: GameState, blocker: str,
                             attacker: str) -> Iterable[Violation] | None:
    out = []
    blk = state.objects[blocker]
    att = state.objects[attacker]
    if blk.cant_block:
        out.append(Violation("509.1b", f"{blk.name} can't block", (blocker,)))
    if att.cant_be_blocked:
        out.append(Violation("509.1b", f"{att.name} can't be blocked", (attacker, blocker)))
    return out


@hookimpl
def redzone_blocked_by_violations(state: GameState, attacker: str,
                                  blockers: tuple[str, ...]) -> Iterable[Violation] | None:
    att = state.objects[attacker]
    if att.min_blockers > 1 and len(blockers) < att.min_blockers:
        return [Violation(
            "509.1b", f"{att.name} can't be blocked except by {att.min_blockers} or more "
            f"creatures, not {len(blockers)}", (attacker, *blockers))]
    return None


@hookimpl
def redzone_attack_requirements(state: GameState) -> Iterable[Requirement] | None:
    return [Requirement("attack", p.id, "508.1d", source="attacks each combat if able")
            for p in state.objects.values()
            if p.attacks_if_able and p.zone == "battlefield"
            and state.is_attacking_player(p.controller)]


@hookimpl
def redzone_block_requirements(state: GameState) -> Iterable[Requirement] | None:
    combat = state.combat
    if combat is None:
        return None
    out: list[Requirement] = []
    # The defending players: those attacked, and with shared team turns each
    # player on their team (805.10a), whose creatures block for it (805.10d).
    defending = set(combat.defending_players.values())
    defending |= {mate for d in tuple(defending) for mate in state.teammates(d)}
    for perm in state.objects.values():
        if perm.zone != "battlefield":
            continue
        if perm.blocks_if_able and perm.controller in defending:
            out.append(Requirement("block", perm.id, "509.1c",
                                   source="blocks each combat if able"))
        if perm.id in combat.attacks:
            if perm.must_be_blocked:
                out.append(Requirement("be_blocked", perm.id, "509.1c",
                                       source="must be blocked if able"))
            if perm.lure:
                its_defending = combat.defending_players.get(perm.id)
                for other in state.objects.values():
                    if (other.zone == "battlefield" and "creature" in other.types
                            and state.same_team(its_defending, other.controller)):
                        out.append(Requirement("block_attacker", other.id, "509.1c",
                                               attacker=perm.id,
                                               source=f"all creatures able to block "
                                               f"{perm.name} do so"))
    for i, effect in enumerate(state.effects):
        if (effect.kind == "blocks_if_able" and effect.to is not None
                and effect.source in combat.attacks):
            out.append(Requirement("block_attacker", effect.to, "509.1c",
                                   attacker=effect.source,
                                   source=f"blocks {effect.source} if able",
                                   instance=effect.id or f"#{i}"))  # each counts (509.1c)
    return out
