"""redzone: Magic: The Gathering combat, resolved exactly as the Comprehensive
Rules say.

A small core implements the combat phase (506-511), damage assignment (510.1),
the damage pipeline (120.4) and state-based actions (704); every keyword is a
pluggy plugin. Start with :class:`Engine`.
"""

from typing import TYPE_CHECKING

from redzone._version import __version__ as __version__

if TYPE_CHECKING:
    from redzone.formats.batch import simulate
    from redzone.kernel.actions import (
        AddCounters,
        AddEffect,
        BecomeBlocked,
        CreateDelayedTrigger,
        CreateToken,
        DealDamage,
        Destroy,
        EnterBlocking,
        Exile,
        GainLife,
        Grant,
        LeaveBattlefield,
        LoseLife,
        MakeBlock,
        Prevent,
        Pump,
        Regenerate,
        RemoveEffect,
        RemoveFromCombat,
        Revoke,
        Sacrifice,
        SetState,
        Tap,
        Untap,
    )
    from redzone.kernel.combat import Duty
    from redzone.kernel.editions import Edition
    from redzone.kernel.engine import CombatResult, Engine, Outcome
    from redzone.kernel.errors import (
        IllegalActionError,
        IllegalAssignmentError,
        IllegalAttackError,
        IllegalBlockError,
        PluginError,
        PluginLoadError,
        RulesError,
        ScenarioError,
        UnknownKeywordError,
        Violation,
    )
    from redzone.kernel.events import Event
    from redzone.kernel.frozen import FrozenMap
    from redzone.kernel.hooktypes import (
        REGULAR_DAMAGE_STEP,
        Action,
        ActionSpec,
        Damage,
        DamageModifier,
        DamageStep,
        DestructionReplacement,
        KeywordSpec,
        Prevention,
        Redirection,
        Result,
        ResultReplacement,
        SourceAssignment,
        StateBasedAction,
    )
    from redzone.kernel.model import (
        UNLIMITED,
        Choice,
        ChoiceMade,
        Combat,
        Condition,
        DelayedTrigger,
        Effect,
        GameOver,
        GameState,
        Keyword,
        Modification,
        Permanent,
        Player,
        PluginState,
        Shield,
        StackObject,
        Trigger,
        creature,
        new_game,
    )
    from redzone.kernel.plugins import hookimpl
    from redzone.kernel.requirements import Requirement
    from redzone.kernel.tx import Tx

#: Where each public name is defined: ``import redzone`` imports none of the
#: kernel; each name's module is imported when the name is first used (PEP
#: 562), so that a program that needs part of redzone pays for that part.
_EXPORTS: dict[str, str] = {
    "AddCounters": "redzone.kernel.actions",
    "AddEffect": "redzone.kernel.actions",
    "BecomeBlocked": "redzone.kernel.actions",
    "CreateDelayedTrigger": "redzone.kernel.actions",
    "CreateToken": "redzone.kernel.actions",
    "DealDamage": "redzone.kernel.actions",
    "Destroy": "redzone.kernel.actions",
    "EnterBlocking": "redzone.kernel.actions",
    "Exile": "redzone.kernel.actions",
    "GainLife": "redzone.kernel.actions",
    "Grant": "redzone.kernel.actions",
    "LeaveBattlefield": "redzone.kernel.actions",
    "LoseLife": "redzone.kernel.actions",
    "MakeBlock": "redzone.kernel.actions",
    "Prevent": "redzone.kernel.actions",
    "Pump": "redzone.kernel.actions",
    "Regenerate": "redzone.kernel.actions",
    "RemoveEffect": "redzone.kernel.actions",
    "RemoveFromCombat": "redzone.kernel.actions",
    "Revoke": "redzone.kernel.actions",
    "Sacrifice": "redzone.kernel.actions",
    "SetState": "redzone.kernel.actions",
    "Tap": "redzone.kernel.actions",
    "Untap": "redzone.kernel.actions",
    "Duty": "redzone.kernel.combat",
    "Edition": "redzone.kernel.editions",
    "CombatResult": "redzone.kernel.engine",
    "Engine": "redzone.kernel.engine",
    "Outcome": "redzone.kernel.engine",
    "IllegalActionError": "redzone.kernel.errors",
    "IllegalAssignmentError": "redzone.kernel.errors",
    "IllegalAttackError": "redzone.kernel.errors",
    "IllegalBlockError": "redzone.kernel.errors",
    "PluginError": "redzone.kernel.errors",
    "PluginLoadError": "redzone.kernel.errors",
    "RulesError": "redzone.kernel.errors",
    "ScenarioError": "redzone.kernel.errors",
    "UnknownKeywordError": "redzone.kernel.errors",
    "Violation": "redzone.kernel.errors",
    "Event": "redzone.kernel.events",
    "FrozenMap": "redzone.kernel.frozen",
    "REGULAR_DAMAGE_STEP": "redzone.kernel.hooktypes",
    "Action": "redzone.kernel.hooktypes",
    "ActionSpec": "redzone.kernel.hooktypes",
    "Damage": "redzone.kernel.hooktypes",
    "DamageModifier": "redzone.kernel.hooktypes",
    "DamageStep": "redzone.kernel.hooktypes",
    "DestructionReplacement": "redzone.kernel.hooktypes",
    "KeywordSpec": "redzone.kernel.hooktypes",
    "Prevention": "redzone.kernel.hooktypes",
    "Redirection": "redzone.kernel.hooktypes",
    "Result": "redzone.kernel.hooktypes",
    "ResultReplacement": "redzone.kernel.hooktypes",
    "SourceAssignment": "redzone.kernel.hooktypes",
    "StateBasedAction": "redzone.kernel.hooktypes",
    "UNLIMITED": "redzone.kernel.model",
    "Choice": "redzone.kernel.model",
    "ChoiceMade": "redzone.kernel.model",
    "Combat": "redzone.kernel.model",
    "Condition": "redzone.kernel.model",
    "DelayedTrigger": "redzone.kernel.model",
    "Effect": "redzone.kernel.model",
    "GameOver": "redzone.kernel.model",
    "GameState": "redzone.kernel.model",
    "Keyword": "redzone.kernel.model",
    "Modification": "redzone.kernel.model",
    "Permanent": "redzone.kernel.model",
    "Player": "redzone.kernel.model",
    "PluginState": "redzone.kernel.model",
    "Shield": "redzone.kernel.model",
    "StackObject": "redzone.kernel.model",
    "Trigger": "redzone.kernel.model",
    "creature": "redzone.kernel.model",
    "new_game": "redzone.kernel.model",
    "hookimpl": "redzone.kernel.plugins",
    "Requirement": "redzone.kernel.requirements",
    "Tx": "redzone.kernel.tx",
    # In the formats layer: importing it imports the scenario loader.
    "simulate": "redzone.formats.batch",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'redzone' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once looked up, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "REGULAR_DAMAGE_STEP",
    "UNLIMITED",
    "Action",
    "ActionSpec",
    "AddCounters",
    "AddEffect",
    "BecomeBlocked",
    "Choice",
    "ChoiceMade",
    "Combat",
    "CombatResult",
    "Condition",
    "CreateDelayedTrigger",
    "CreateToken",
    "Damage",
    "DamageModifier",
    "DamageStep",
    "DealDamage",
    "DelayedTrigger",
    "Destroy",
    "DestructionReplacement",
    "Duty",
    "Edition",
    "Effect",
    "Engine",
    "EnterBlocking",
    "Event",
    "Exile",
    "FrozenMap",
    "GainLife",
    "GameOver",
    "GameState",
    "Grant",
    "IllegalActionError",
    "IllegalAssignmentError",
    "IllegalAttackError",
    "IllegalBlockError",
    "Keyword",
    "KeywordSpec",
    "LeaveBattlefield",
    "LoseLife",
    "MakeBlock",
    "Modification",
    "Outcome",
    "Permanent",
    "Player",
    "PluginError",
    "PluginLoadError",
    "PluginState",
    "Prevent",
    "Prevention",
    "Pump",
    "Redirection",
    "Regenerate",
    "RemoveEffect",
    "RemoveFromCombat",
    "Requirement",
    "Result",
    "ResultReplacement",
    "Revoke",
    "RulesError",
    "Sacrifice",
    "ScenarioError",
    "SetState",
    "Shield",
    "SourceAssignment",
    "StackObject",
    "StateBasedAction",
    "Tap",
    "Trigger",
    "Tx",
    "UnknownKeywordError",
    "Untap",
    "Violation",
    "creature",
    "hookimpl",
    "new_game",
    "simulate",
]
