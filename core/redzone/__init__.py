"""redzone: Magic: The Gathering combat, resolved exactly as the Comprehensive
Rules say.

A small core implements the combat phase (506-511), damage assignment (510.1),
the damage pipeline (120.4) and state-based actions (704); every keyword is a
pluggy plugin. Start with :class:`Engine`.
"""

from redzone._version import __version__ as __version__
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


def __getattr__(name: str) -> object:
    # redzone.simulate lives in the formats layer; imported on first use only.
    if name == "simulate":
        from redzone.formats.batch import simulate

        return simulate
    raise AttributeError(f"module 'redzone' has no attribute {name!r}")


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
]
