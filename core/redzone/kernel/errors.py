"""Typed errors that cite the rules.

``RulesError`` is the root. An illegal declaration, assignment or action is
also a :class:`ValueError`, carries the rule it breaks, the ids of the objects
involved and every :class:`Violation` found, so one rejected command reports
every broken rule at once. The state the caller holds is never changed by a
rejected command (733: the game returns to the moment before).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, cast

from attrs import field

from redzone.kernel.frozen import as_tuple, lazy_frozen

if TYPE_CHECKING:
    from redzone.kernel.model import GameState
    from redzone.kernel.results import CombatResult, DamageStepRecord


def _objects(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@lazy_frozen
class Violation:
    """One broken rule.

    :param rule: the rule number, e.g. ``"702.9b"``.
    :param message: a sentence naming the objects and quoting values.
    :param objects: the ids of the objects (and players) involved.
    :param restriction: a name for the restriction that was broken (e.g.
        ``"flying"``), so an exemption hook can lift it; empty for plain rules.

    .. versionadded:: 0.1.0
    """

    rule: str
    message: str
    objects: tuple[str, ...] = field(default=(), converter=as_tuple)
    restriction: str = ""

    def __str__(self) -> str:
        return f"{self.message} (rule {self.rule})"


#: The most candidates one suggestion compares the word with.
MAX_CANDIDATES: Final = 200
#: The most character pairs one suggestion compares: comparing a word with a
#: candidate walks up to the product of their lengths at each step of
#: difflib's matching, so 200 candidates of 10 characters fit, but only two
#: of 100 (50 suggestions over 100-character ids used to cost seconds).
MAX_SUGGEST_PAIRS: Final = 20_000
#: Longer words get no suggestion.
MAX_SUGGEST_WORD: Final = 100


@functools.lru_cache(maxsize=4096)
def _bigrams(word: str) -> frozenset[str]:
    """The pairs of adjacent characters of ``word``, its ends included."""
    padded = f"\0{word}\0"
    return frozenset(padded[i:i + 2] for i in range(len(padded) - 1))


def did_you_mean(word: object, options: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the option closest to ``word`` (difflib's
    ratio, at least 0.6), or ``""``: the one suggestion of close names that
    the scenario loader's problems and the API's errors give (an unknown id).

    The options about as long as the word are compared, all of them when they
    fit :data:`MAX_CANDIDATES` and :data:`MAX_SUGGEST_PAIRS`; otherwise those
    sharing the most character pairs with the word come first (a misspelt id
    shares nearly all of its own), as many as fit. A word that isn't a str,
    or is longer than :data:`MAX_SUGGEST_WORD`, gets none.

    :param word: the name as given.
    :param options: the names it could have meant.
    """
    if not isinstance(word, str) or len(word) > MAX_SUGGEST_WORD:
        return ""
    size = max(len(word), 1)
    pool = [o for o in options if abs(len(o) - len(word)) <= max(3, len(word) // 2)]
    if len(pool) > MAX_CANDIDATES or size * sum(map(len, pool)) > MAX_SUGGEST_PAIRS:
        grams = _bigrams(word)
        ranked = sorted((-len(grams & _bigrams(o)), abs(len(o) - len(word)), o) for o in pool)
        pool, room = [], MAX_SUGGEST_PAIRS
        for _shared, _gap, option in ranked[:MAX_CANDIDATES]:
            room -= size * max(len(option), 1)
            if room < 0:
                break
            pool.append(option)
    close = close_matches(word, pool, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def close_matches(word: str, options: Iterable[str], n: int = 3,
                  cutoff: float = 0.6) -> list[str]:
    """The at most ``n`` options closest to ``word``, closest first, whose
    :class:`difflib.SequenceMatcher` ratio is at least ``cutoff``.

    :param word: the name as given.
    :param options: the names it could have meant.
    """
    import difflib  # only for a name that names nothing: a run that names none never needs it

    return difflib.get_close_matches(word, list(options), n=n, cutoff=cutoff)


def sort_violations(violations: Iterable[Violation]) -> tuple[Violation, ...]:
    """Violations in a stable order, whatever order the plugins gave them in
    (ids that aren't all strings, a caller's mistake the violations name,
    are ordered by their text after the strings)."""
    found = set(violations)
    try:
        return tuple(sorted(found, key=lambda v: (v.objects, v.rule, v.message)))
    except TypeError:
        return tuple(sorted(found, key=lambda v: (tuple(map(_id_key, v.objects)), v.rule,
                                                  v.message)))


def _id_key(obj: object) -> tuple[bool, str]:
    """An id's place among ids of any type: strings first, in their order."""
    return (type(obj) is not str, obj if type(obj) is str else repr(obj))


class PicklesByFields:
    """Mixin of an exception that pickles as it is: its ``args`` and its own
    fields, never through its ``__init__``.

    Errors cross process pools (the batch runner's workers, an embedder's
    :class:`~concurrent.futures.ProcessPoolExecutor`). Pickle's default for
    an exception calls ``cls(*args)`` with the formatted message, which an
    ``__init__`` of its own (one that takes fields, or formats its message)
    refuses or formats again. Instead the class's ``__new__`` makes the
    instance with the same ``args``, and the instance's ``__dict__`` (every
    field, an :meth:`~BaseException.add_note` note too) is set back: the
    copy has the same type, ``str()``, ``args`` and fields. Its cause and
    traceback are not kept, as pickle never keeps them.

    .. versionadded:: 0.1.0
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        exc = cast(BaseException, self)
        return type(exc).__new__, (type(exc), *exc.args), vars(exc)


class RulesError(PicklesByFields, Exception):
    """Root of every error redzone raises on purpose. Every one pickles with
    its fields (:class:`PicklesByFields`).

    .. versionadded:: 0.1.0
    """


class IllegalActionError(RulesError, ValueError):
    """A command broke the rules; nothing was changed.

    :ivar kind: the error kind of the JSON outcome (``illegal_attack`` ...).
    :ivar rule: the first broken rule.
    :ivar objects: ids of every object involved, sorted.
    :ivar violations: every violation found.
    :ivar partial: when :meth:`redzone.Engine.resolve` rejected a command
        after other commands of the combat were done, what they did: a
        :class:`~redzone.CombatResult` up to the moment before the rejected
        command (510.1e, 733: the game returns to that moment, not to before
        combat); ``None`` otherwise.
    :ivar command: when :meth:`redzone.Engine.resolve` rejected a command,
        which: ``declare_attackers``, ``declare_blockers`` (508.8 too: blocks
        for a skipped step), ``combat_damage``, ``action``, ``trigger``,
        ``begin_combat``, ``end_of_combat``, ``finish``, ``end_step`` or
        ``cleanup``; ``None`` otherwise.
    :ivar state: the state that command was given (``None`` with no ``command``).
    :ivar action: the rejected action, for ``command == "action"``.
    :ivar damage_step: for an error of a combat damage step (an illegal
        assignment, 510.1), the step's record of the assignment attempted:
        each creature's amounts, the given entries apart from the default
        policy's, and the lethal damage it had to consider; else ``None``.

    .. versionadded:: 0.1.0
    """

    kind = "illegal_action"
    partial: CombatResult | None = None
    command: str | None = None
    state: GameState | None = None
    action: object | None = None
    damage_step: DamageStepRecord | None = None

    def __init__(self, violations: Iterable[Violation] | str, *, rule: str = "",
                 objects: Iterable[str] = ()) -> None:
        if isinstance(violations, str):
            found: tuple[Violation, ...] = (Violation(rule, violations, tuple(objects)),)
        else:
            found = sort_violations(violations)
        if not found:
            raise ValueError("an illegal-action error needs at least one violation")
        self.violations = found
        self.rule = found[0].rule
        self.objects = tuple(sorted({o for v in found for o in v.objects}, key=_id_key))
        super().__init__("; ".join(str(v) for v in found))

    @property
    def message(self) -> str:
        """Every violation's message, joined."""
        return "; ".join(v.message for v in self.violations)


class IllegalAttackError(IllegalActionError):
    """An illegal declaration of attackers (508.1).

    .. versionadded:: 0.1.0
    """

    kind = "illegal_attack"


class IllegalBlockError(IllegalActionError):
    """An illegal declaration of blockers (509.1).

    .. versionadded:: 0.1.0
    """

    kind = "illegal_block"


class IllegalAssignmentError(IllegalActionError):
    """An illegal combat damage assignment (510.1, 510.1e).

    .. versionadded:: 0.1.0
    """

    kind = "illegal_assignment"


class UnknownKeywordError(RulesError, ValueError):
    """A keyword no loaded plugin provides.

    :ivar text: the keyword as written.
    :ivar suggestions: close matches among the known keywords.

    .. versionadded:: 0.1.0
    """

    def __init__(self, text: str, suggestions: Iterable[str] = (), reason: str = "") -> None:
        self.text = text
        self.suggestions = tuple(suggestions)
        self.reason = reason
        hint = f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?" if (
            self.suggestions) else ""
        if reason:
            super().__init__(f"bad keyword {text!r}: {reason}{hint}")
        else:
            super().__init__(f"unknown keyword {text!r}: no loaded plugin provides it{hint}")


class EngineMismatchError(RulesError, ValueError):
    """A state made under another rules edition or another keyword set than
    the engine given the command has; nothing was changed.

    :ivar kind: the error kind of the JSON outcome.

    .. versionadded:: 0.1.0
    """

    kind = "engine_mismatch"


class BadQueryError(IllegalActionError):
    """A query or command was given something that isn't what it takes (an
    id that isn't in the state, a field of the wrong type, a question asked
    in a step where it has no answer); nothing was changed. An
    :class:`IllegalActionError`, so also a :class:`ValueError`.

    .. versionadded:: 0.1.0
    """

    def __init__(self, message: str, *, rule: str = "117.1",
                 objects: Iterable[str] = ()) -> None:
        super().__init__(message, rule=rule, objects=objects)


class UnaskedChoiceError(IllegalActionError):
    """A command was given answers to choices that no decision of it asked
    for (601.2: a player makes the choices the game asks, no others): a
    misspelt key, or a choice of another command. Nothing was changed.

    :ivar unasked: the keys given that no decision asked for, sorted.
    :ivar asked: the keys the command's decisions asked for, in order.

    .. versionadded:: 0.1.0
    """

    def __init__(self, unasked: Iterable[str], asked: Iterable[str]) -> None:
        self.unasked = tuple(sorted(unasked))
        self.asked = tuple(dict.fromkeys(asked))
        super().__init__(
            f"choices that no decision asked for: {', '.join(map(repr, self.unasked))} "
            f"(asked: {', '.join(self.asked) or 'none'})", rule="601.2", objects=self.unasked)


class UnknownObjectError(BadQueryError, KeyError):
    """A query named an object or player that isn't in the state.

    .. versionadded:: 0.1.0
    """

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message


class PluginError(RulesError):
    """A plugin failed. Names the plugin, its distribution, the hook and the step.

    The state is unchanged; the plugin's own exception is the ``__cause__``.

    .. versionadded:: 0.1.0
    """

    def __init__(self, message: str, *, plugin: str = "", distribution: str = "",
                 hook: str = "") -> None:
        self.plugin = plugin
        self.distribution = distribution
        self.hook = hook
        super().__init__(message)


class BoundError(PluginError):
    """A command reached one of redzone's run-time bounds (objects in a
    state, objects created, actions performed, abilities triggered, cleanup
    steps repeated): the command fails instead of running for minutes or
    finishing with a different result. A :class:`PluginError` naming the
    plugin that was acting when the bound was reached (``""`` for the
    kernel's own or a scenario file's actions); nothing was changed.

    :ivar bound: the bound's name (``"objects"``, ``"created"``,
        ``"actions"``, ``"triggers"``, ``"cleanups"``).
    :ivar limit: its value.

    .. versionadded:: 0.1.0
    """

    def __init__(self, message: str, *, bound: str, limit: int, plugin: str = "",
                 distribution: str = "", hook: str = "") -> None:
        self.bound = bound
        self.limit = limit
        super().__init__(message, plugin=plugin, distribution=distribution, hook=hook)


class PluginLoadError(PluginError):
    """A plugin could not be found, imported or registered.

    .. versionadded:: 0.1.0
    """


class ScenarioError(RulesError, ValueError):
    """A malformed scenario file (error kind ``bad_scenario``).

    :ivar file: the file name.
    :ivar key: the key path, e.g. ``permanents[2].power``.
    :ivar line: the line, where the parser gives one.

    .. versionadded:: 0.1.0
    """

    kind = "bad_scenario"

    def __init__(self, message: str, *, file: str = "", key: str = "",
                 line: int | None = None) -> None:
        self.file = file
        self.key = key
        self.line = line
        self.detail = message
        where = file or "<scenario>"
        if line is not None:
            where += f":{line}"
        if key:
            where += f": {key}"
        super().__init__(f"{where}: {message}")
