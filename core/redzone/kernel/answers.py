"""Field-level checks of the values plugins answer with.

The facade (:class:`~redzone.kernel.plugins.Hooks`) checks every answer's
container type; this module checks each answer's fields, so that a wrong
field becomes a :class:`~redzone.PluginError` naming the plugin, the hook and
the field before the core acts on it, instead of a ``KeyError`` deep in the
damage pipeline or a float life total. Each check returns ``None`` for a good
value, or a sentence saying which field is wrong and why.

Bounds: amounts are whole numbers (``int``, not ``bool`` or a subclass) from 0
to :data:`MAX_AMOUNT`; one ``create`` result makes at most :data:`MAX_TOKENS`
tokens, one hook call creates at most :data:`MAX_TOKENS` in all, and never so
many that the state would hold more than :data:`MAX_OBJECTS` objects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from redzone.kernel.errors import IllegalActionError, Violation
from redzone.kernel.hooktypes import (
    RESULT_KINDS,
    DamageModifier,
    Prevention,
    Result,
    ResultReplacement,
    StateBasedAction,
)
from redzone.kernel.model import Choice, GameState, Permanent, Trigger
from redzone.kernel.requirements import Requirement

#: The largest amount a plugin's answer may carry (damage, life, counters).
MAX_AMOUNT: Final = 1_000_000
#: The most tokens one hook call may create (111.2, 701.7a).
MAX_TOKENS: Final = 1_000
#: The most items one hook call may answer with.
MAX_ITEMS: Final = 10_000
#: The most abilities that may trigger during one command (603.2).
MAX_TRIGGERS: Final = 10_000
#: (A command counts the abilities triggered in it on its own :class:`Spent`.)
#: The most objects a state may hold after tokens are created (a plugin
#: can't grow the state without bound, one call after another).
MAX_OBJECTS: Final = 10_000

#: State-based action kinds the core performs (704).
SBA_KINDS: Final = frozenset({"destroy", "graveyard", "lose", "annihilate_counters"})
_PLAYER_RESULTS: Final = frozenset({"life_loss", "life_gain", "poison"})
_OBJECT_RESULTS: Final = frozenset({"marked", "counters", "loyalty", "defense", "mark"})


def _text(value: Any) -> bool:
    return type(value) is str


def _whole(value: Any, low: int = 0, high: int = MAX_AMOUNT) -> bool:
    return type(value) is int and low <= value <= high


_SCALARS: Final = frozenset({str, int, bool, float, bytes, type(None)})

#: The most digits a message shows of a number; a longer one is shown by its
#: count of digits (:func:`shown_number`).
SHOWN_DIGITS: Final = 30


def shown_number(value: int, *, grouped: bool = True) -> str:
    """How a message shows the integer ``value`` (107.1: the game's numbers
    are integers, of any size a caller gives): as it is (with thousands
    separators, unless ``grouped`` is false), or, past :data:`SHOWN_DIGITS`
    digits, by its count of digits (``"a number of 5,001 digits"``), which
    never asks Python to print it (Python refuses to turn an int of more
    than 4,300 digits into text).

    :param value: an int (a bool is shown as an int).
    :param grouped: whether to separate thousands (``1,000,000``).
    :returns: the text.
    """
    n = int(value)
    size = abs(n)
    if size < 10 ** SHOWN_DIGITS:
        return f"{n:,}" if grouped else f"{n}"
    # (a lower estimate of the digits from the bits, then counted up exactly)
    digits = max(1, int((size.bit_length() - 1) * 0.30102999566398114) - 1)
    while size >= 10 ** digits:
        digits += 1
    return f"a {'negative ' if n < 0 else ''}number of {digits:,} digits"


def shown(value: Any, depth: int = 2) -> str:
    """``value``'s repr, at most 80 characters, that never runs plugin code:
    exact built-in scalars and the core's own attrs classes are shown as
    Python shows them; a tuple or list of them likewise; a subclass of
    ``str`` or ``int`` by its class's name and its value as the built-in
    type shows it (``Name('bear')``); anything else (a plugin's class) as
    ``object.__repr__`` shows it."""
    cls = type(value)
    if cls is int:
        text = shown_number(value, grouped=False)
    elif cls in _SCALARS:
        text = repr(value)  # (an exact built-in type: its own repr)
    elif issubclass(cls, str):  # (the built-in's own repr, in C: no code of the subclass)
        text = f"{type_name(value)}({str.__repr__(value)})"
    elif issubclass(cls, int):
        text = f"{type_name(value)}({shown_number(int.__index__(value), grouped=False)})"
    elif cls in (tuple, list) and depth > 0:
        inner = ", ".join(shown(v, depth - 1) for v in value[:8])
        more = ", ..." if len(value) > 8 else ("," if cls is tuple and len(value) == 1 else "")
        text = ("({}{})" if cls is tuple else "[{}{}]").format(inner, more)
    elif depth > 0 and _core_class(cls):
        parts = ", ".join(f"{f.name}={shown(object.__getattribute__(value, f.name), depth - 1)}"
                          for f in attrs.fields(cls))
        text = f"{cls.__name__}({parts})"
    else:
        text = object.__repr__(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _core_class(cls: type) -> bool:
    module = type.__dict__["__module__"].__get__(cls)
    return (type(module) is str and module.startswith("redzone.") and attrs.has(cls)
            and all(str(type.__dict__["__module__"].__get__(c)).startswith(
                ("redzone.", "builtins", "abc")) for c in type.__dict__["__mro__"].__get__(cls)))


def type_name(value: Any) -> str:
    """The name of ``value``'s type, read without running plugin code."""
    name = type.__dict__["__name__"].__get__(type(value))
    return name if type(name) is str else "?"


def _field(name: str, value: Any, want: str) -> str:
    return (f"field {name!r} is {shown(value)} ({type_name(value)}), "
            f"where {want} was expected")


def _common(item: Any, names: tuple[str, ...]) -> str | None:
    for name in names:
        value = getattr(item, name)
        if not _text(value):
            return _field(name, value, "a str")
    return None


def _player(state: GameState | None, name: str, value: Any, optional: bool) -> str | None:
    if value is None:
        return None if optional else _field(name, value, "a player id")
    if not _text(value):
        return _field(name, value, "a player id")
    if state is not None and value not in state.players:
        return (f"field {name!r} is {value!r}, not a player of the state "
                f"({', '.join(sorted(state.players))})")
    return None


def _object(state: GameState | None, name: str, value: Any, optional: bool) -> str | None:
    if value is None:
        return None if optional else _field(name, value, "an object id")
    if not _text(value):
        return _field(name, value, "an object id")
    if state is not None and value not in state.objects:
        return f"field {name!r} is {value!r}, not an object of the state"
    return None


def check_result(state: GameState | None, item: Result) -> str | None:
    """Why a :class:`~redzone.kernel.hooktypes.Result` can't be applied, or ``None``."""
    problem = _common(item, ("kind", "rule", "source"))
    if problem:
        return problem
    if item.kind not in RESULT_KINDS:
        return (f"field 'kind' is {item.kind!r}, not a result kind "
                f"({', '.join(sorted(RESULT_KINDS))})")
    if not _whole(item.amount, 0, MAX_TOKENS if item.kind == "create" else MAX_AMOUNT):
        high = MAX_TOKENS if item.kind == "create" else MAX_AMOUNT
        return _field("amount", item.amount, f"a whole number from 0 to {high}")
    if item.replaces is not None and item.replaces not in RESULT_KINDS:
        return _field("replaces", item.replaces, "a result kind or None")
    for name in ("counter", "mark"):
        value = getattr(item, name)
        if value is not None and not _text(value):
            return _field(name, value, "a str or None")
    if item.kind in _PLAYER_RESULTS:
        return _player(state, "player", item.player, optional=False)
    if item.kind in _OBJECT_RESULTS:
        if item.kind == "counters" and item.counter is None:
            return _field("counter", None, "a counter kind for a 'counters' result")
        if item.kind == "mark" and item.mark is None:
            return _field("mark", None, "a mark name for a 'mark' result")
        return _object(state, "target", item.target, optional=False)
    # create
    if not isinstance(item.token, Permanent):
        return _field("token", item.token, "a Permanent for a 'create' result")
    return _player(state, "player", item.player, optional=True)


def check_state_based_action(state: GameState | None, item: StateBasedAction) -> str | None:
    """Why a :class:`~redzone.kernel.hooktypes.StateBasedAction` can't be
    performed, or ``None``."""
    problem = _common(item, ("kind", "rule"))
    if problem:
        return problem
    if item.kind not in SBA_KINDS:
        return (f"field 'kind' is {item.kind!r}, not a state-based action kind "
                f"({', '.join(sorted(SBA_KINDS))})")
    keep = item.keep
    if keep is not None:
        return _keep(state, item, keep)
    if item.kind == "lose":
        return _player(state, "player", item.player, optional=False)
    return _object(state, "object", item.object, optional=False)


def _keep(state: GameState | None, item: StateBasedAction, keep: Any) -> str | None:
    """Why a state-based action's choice of what to keep can't be made."""
    if type(keep) is not Choice:
        return _field("keep", keep, "a Choice or None")
    if item.kind == "lose" or item.object is not None:
        return ("field 'keep' is set, so the action is performed on the options not "
                "chosen: its kind can't be 'lose' and its object must be None")
    problem = _player(state, "keep.player", keep.player, optional=False)
    if problem:
        return problem
    for option in keep.options:
        problem = _object(state, "keep.options", option, optional=False)
        if problem:
            return problem
    try:
        check_answer(keep, keep.default)
    except IllegalActionError as exc:
        return f"field 'keep' has a default that isn't a legal answer: {exc.message}"
    return None


def check_modifier(state: GameState | None, item: DamageModifier) -> str | None:
    """Why a :class:`~redzone.kernel.hooktypes.DamageModifier` can't apply, or ``None``."""
    problem = _common(item, ("effect", "rule"))
    if problem:
        return problem
    if not _whole(item.multiply, 0, 1_000):
        return _field("multiply", item.multiply, "a whole number from 0 to 1000")
    if not _whole(item.add, -MAX_AMOUNT, MAX_AMOUNT):
        return _field("add", item.add, f"a whole number from {-MAX_AMOUNT} to {MAX_AMOUNT}")
    return None


def check_prevention(state: GameState | None, item: Prevention) -> str | None:
    """Why a :class:`~redzone.kernel.hooktypes.Prevention` can't apply, or ``None``."""
    problem = _common(item, ("effect", "rule"))
    if problem:
        return problem
    if item.amount is not None and not _whole(item.amount):
        return _field("amount", item.amount,
                      f"a whole number from 0 to {MAX_AMOUNT}, or None for all")
    return None


def check_replacement(state: GameState | None, item: ResultReplacement) -> str | None:
    """Why a :class:`~redzone.kernel.hooktypes.ResultReplacement` can't apply."""
    problem = _common(item, ("effect", "rule"))
    if problem:
        return problem
    if not callable(item.replace):
        return _field("replace", item.replace, "a callable")
    return None


def check_violation(state: GameState | None, item: Violation) -> str | None:
    """Why a :class:`~redzone.Violation` can't be reported, or ``None``."""
    problem = _common(item, ("rule", "message", "restriction"))
    if problem:
        return problem
    if type(item.objects) is not tuple or not all(_text(o) for o in item.objects):
        return _field("objects", item.objects, "a tuple of ids")
    return None


def check_trigger(state: GameState | None, item: Trigger) -> str | None:
    """Why a :class:`~redzone.Trigger` can't be put on the stack, or ``None``."""
    problem = _common(item, ("kind", "source", "rule", "text"))
    if problem:
        return problem
    if item.amount is not None and not _whole(item.amount):
        return _field("amount", item.amount, f"a whole number from 0 to {MAX_AMOUNT} or None")
    if not all(_text(t) for t in item.targets):
        return _field("targets", item.targets, "a tuple of ids")
    return _player(state, "controller", item.controller, optional=False)


def check_requirement(state: GameState | None, item: Requirement) -> str | None:
    """Why a :class:`~redzone.kernel.requirements.Requirement` can't be checked."""
    problem = _common(item, ("kind", "creature", "rule", "source"))
    if problem:
        return problem
    if item.attacker is not None and not _text(item.attacker):
        return _field("attacker", item.attacker, "an id or None")
    return None


#: The check for each answer type that has one.
CHECKS: Final[dict[type, Callable[[GameState | None, Any], str | None]]] = {
    Result: check_result,
    StateBasedAction: check_state_based_action,
    DamageModifier: check_modifier,
    Prevention: check_prevention,
    ResultReplacement: check_replacement,
    Violation: check_violation,
    Trigger: check_trigger,
    Requirement: check_requirement,
}


def check_answer(choice: Choice, answer: Sequence[str]) -> None:
    """Check an answer against its choice.

    :raises IllegalActionError: for an option not offered, a repeated one, too
        few or too many (an order must name every option once).
    """
    key = choice.key or choice.name
    rule = choice.rule or "601.2c"
    wrong = [a for a in answer if a not in choice.options]
    if wrong:
        raise IllegalActionError(
            f"choice {key!r}: {', '.join(map(repr, wrong))} "
            f"{'is' if len(wrong) == 1 else 'are'} not among the options "
            f"({', '.join(choice.options) or 'none'})", rule=rule, objects=(key,))
    if len(set(answer)) != len(answer):
        raise IllegalActionError(f"choice {key!r}: an option is chosen twice", rule=rule,
                                 objects=(key,))
    if not choice.min <= len(answer) <= choice.max:
        how = (f"exactly {choice.min}" if choice.min == choice.max
               else f"{choice.min} to {choice.max}")
        raise IllegalActionError(f"choice {key!r}: choose {how}, not {len(answer)}",
                                 rule=rule, objects=(key,))


class Spent:
    """What one command has spent of its bounds: the abilities triggered in
    it (at most :data:`MAX_TRIGGERS`, 603.2) and the plugins whose abilities
    triggered in the last call of the triggers hook. Each command's working
    copy (:class:`~redzone.kernel.tx.Tx`) holds its own, never the engine, so
    that two commands on one engine, in two threads, never share a count, and
    a command's count never carries over to the next command."""

    __slots__ = ("triggered", "triggering")

    def __init__(self) -> None:
        #: Abilities triggered since the command started.
        self.triggered = 0
        #: The plugins whose abilities triggered in the last call of
        #: :meth:`~redzone.kernel.plugins.Hooks.triggers`.
        self.triggering: tuple[str, ...] = ()
