"""Game-wide continuous effects of the scenario format (614, 615).

This module is an ordinary plugin that every engine registers: it reads
``state.effects`` and answers the damage pipeline's hooks. It knows no keyword.

- ``prevent_all_combat_damage`` (Fog): prevent all combat damage (615.1).
- ``reduce_damage`` (``to``, ``amount``): prevent N of each damage a source
  would deal to ``to`` (615.1a).
- ``double_damage`` (Furnace of Rath): sources deal double damage (614.1a);
  with ``source`` set, only that source.
- ``double_life_gain`` (``player``; Boon Reflection): that player gains twice
  as much life (614.1a).
- ``life_floor`` (``player``; Worship): while that player controls a creature,
  damage can't reduce their life below 1 (614.1a).
- ``redirect_damage`` (``player``, ``to``; Pariah): damage that would be dealt
  to that player is dealt to ``to`` instead (614.9).
- ``doesnt_untap`` (``to``): that permanent doesn't untap during its
  controller's untap step (502.3); with a ``player``, only during that
  player's (team's) untap steps ("your next untap step": a creature exerted
  by a player who controlled it for a turn untaps in its owner's, 701.43a);
  with ``duration = "next_untap_step"``, during the next one only (exert).
"""

from __future__ import annotations

from collections.abc import Iterable

from redzone.kernel.hooktypes import (
    Damage,
    DamageModifier,
    Prevention,
    Redirection,
    Result,
    ResultReplacement,
)
from redzone.kernel.model import Effect, GameState
from redzone.kernel.plugins import hookimpl

# What these hooks read decides their state gate: keep
# redzone.kernel._gates._KERNEL_STATE_GATES in step with it.

KINDS = frozenset(
    {"prevent_all_combat_damage", "reduce_damage", "double_damage", "double_life_gain",
     "life_floor", "redirect_damage", "doesnt_untap"}
)


def _label(effect: Effect, i: int) -> str:
    """What tells an effect apart from another of its kind in its name (the
    names order the effects and are shown in the events)."""
    return effect.id or f"#{i + 1}"


@hookimpl
def redzone_keeps_tapped(state: GameState, permanent: str) -> bool | None:
    # An effect with a player ("your next untap step": exert, 701.43a) keeps
    # it tapped only during that player's (team's) untap step (502.3).
    active = state.active_player
    return any(e.kind == "doesnt_untap" and e.to == permanent
               and (e.player is None or state.same_team(e.player, active))
               for e in state.effects) or None


@hookimpl
def redzone_prevent_damage(state: GameState, damage: Damage) -> Iterable[Prevention] | None:
    if not state.effects:
        return None
    out = []
    for i, effect in enumerate(state.effects):
        if effect.kind == "prevent_all_combat_damage" and damage.combat:
            out.append(Prevention(
                f"a continuous effect: prevent all combat damage ({_label(effect, i)})", "615.1"))
        elif effect.kind == "reduce_damage" and effect.to == damage.target:
            out.append(Prevention(f"a continuous effect: prevent {effect.amount} of each damage "
                                  f"({_label(effect, i)})",
                                  "615.1a", effect.amount or 0))
    return out


@hookimpl
def redzone_modify_damage(state: GameState, damage: Damage) -> Iterable[DamageModifier] | None:
    if not state.effects:
        return None
    return [
        DamageModifier(f"a continuous effect: double damage ({_label(effect, i)})", "614.1a",
                       multiply=2)
        for i, effect in enumerate(state.effects)
        if effect.kind == "double_damage" and effect.source in (None, damage.source)
    ]


def _double(_state: GameState, result: Result) -> Result | None:
    return result.evolve(amount=result.amount * 2)


def _floor(state: GameState, result: Result) -> Result | None:
    assert result.player is not None
    life = state.players[result.player].life
    floor_loss = max(life - 1, 0)
    if life - result.amount >= 1:
        return result
    return result.evolve(amount=min(result.amount, floor_loss))


@hookimpl
def redzone_result_replacements(
    state: GameState, result: Result
) -> Iterable[ResultReplacement] | None:
    if not state.effects:
        return None
    out = []
    for i, effect in enumerate(state.effects):
        if effect.player != result.player:
            continue
        if effect.kind == "double_life_gain" and result.kind == "life_gain":
            out.append(ResultReplacement(
                f"a continuous effect: double life gain ({_label(effect, i)})", "614.1a", _double))
        elif (effect.kind == "life_floor" and result.kind == "life_loss"
              and result.rule.startswith("120.")
              and any(p.controller == effect.player and "creature" in p.types
                      for p in state.battlefield)):
            out.append(ResultReplacement(f"a continuous effect: life can't go below 1 "
                                         f"({_label(effect, i)})", "614.1a",
                                         _floor))
    return out


@hookimpl
def redzone_redirect_damage(state: GameState, damage: Damage) -> Iterable[Redirection] | None:
    if not state.effects:
        return None
    return [Redirection(f"a continuous effect: damage to {effect.player} is dealt to {effect.to} "
                        f"({_label(effect, i)})",
                        "614.9", effect.to)
            for i, effect in enumerate(state.effects)
            if effect.kind == "redirect_damage" and effect.player == damage.target
            and effect.to is not None]
