"""redzone: Magic: The Gathering combat, resolved exactly as the Comprehensive
Rules say.

A small core implements the combat phase (506-511), damage assignment (510.1),
the damage pipeline (120.4) and state-based actions (704); every keyword is a
pluggy plugin. Start with :class:`Engine`.
"""

from redzone._names import lazy_names
from redzone._version import __version__ as __version__

#: The public names, by the module that defines each: the one list of them.
#: ``import redzone`` imports none of these modules; a name's module is
#: imported when the name is first used (PEP 562), so that a program that
#: needs part of redzone pays for that part. ``__all__``, the lookup and
#: ``dir(redzone)`` are derived from this table, and type checkers and IDEs
#: read ``__init__.pyi``, generated from it by ``python -m redzone._stub``
#: (a test checks that the stub is the one the table generates).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "redzone.compilation": ("compiled",),
    "redzone.kernel.abilities": ("Activate",),
    "redzone.kernel.actions": (
        "AddContinuous", "AddCounters", "AddEffect", "AddTrigger", "BecomeBlocked", "Cast",
        "CreateDelayedTrigger", "CreateToken", "DealDamage", "Destroy", "Draw",
        "EnterAttacking", "EnterBlocking", "Exile", "GainControl", "GainLife", "Grant",
        "LeaveBattlefield", "LoseLife", "MakeBlock", "Move", "Play", "Prevent", "Pump",
        "Regenerate", "RemoveEffect", "RemoveFromCombat", "Revoke", "Sacrifice", "SetState",
        "Tap", "Untap",
    ),
    "redzone.kernel.combat": ("Duty",),
    "redzone.kernel.editions": ("Edition",),
    "redzone.kernel.engine": ("CombatResult", "Engine", "Outcome"),
    "redzone.kernel.errors": (
        "BadQueryError", "BoundError", "EngineMismatchError", "IllegalActionError",
        "IllegalAssignmentError", "IllegalAttackError", "IllegalBlockError", "PluginError",
        "PluginLoadError", "RulesError", "ScenarioError", "UnaskedChoiceError",
        "UnknownKeywordError", "UnknownObjectError", "Violation",
    ),
    "redzone.kernel.events": ("Event", "EventKind", "Namer"),
    "redzone.kernel.frozen": ("FrozenMap",),
    "redzone.kernel.hooktypes": (
        "REGULAR_DAMAGE_STEP", "Action", "ActionSpec", "ActivatedAbility", "Damage",
        "DamageModifier", "DamageStep", "DestructionReplacement", "KeywordSpec", "Prevention",
        "Redirection", "Result", "ResultReplacement", "SourceAssignment", "StateBasedAction",
    ),
    "redzone.kernel.layers": ("copiable_values",),
    "redzone.kernel.model": (
        "UNLIMITED", "Choice", "ChoiceMade", "Combat", "Condition", "ContinuousEffect",
        "DelayedTrigger", "Effect",
        "GameOver", "GameState", "Keyword", "Modification", "Permanent", "Player", "PluginState",
        "Printed",
        "Shield", "StackObject", "Trigger", "WrittenTrigger", "creature", "new_game",
    ),
    "redzone.kernel.plugins": ("dynamic", "hookimpl", "target_violations", "whole_board"),
    "redzone.kernel.references": ("EACH_PLAYER", "AnyId", "ObjectId", "PlayerId",
                                   "PlayerOrObjectId", "SourceId"),
    "redzone.kernel.requirements": ("Requirement",),
    "redzone.kernel.slots": ("Slot",),
    "redzone.kernel.tokens": ("token_ids",),
    "redzone.kernel.tx": ("Tx",),
    # In the execution layer: importing it imports the scenario loader.
    "redzone.execution.simulation": ("simulate",),
}

_WHERE, __all__, __getattr__, __dir__ = lazy_names('redzone', _EXPORTS, globals())
