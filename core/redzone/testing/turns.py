"""The conformance kit beyond one combat with its defaults: the rest of the
turn and the next one, every option of every choice, plugin actions and
activated abilities.

:func:`rest_of_turn` plays from the end of combat through the end step and
the cleanup step (513, 514) into the next turn (500.1, 502), by the engine's
public commands, so that delayed triggers, "until end of turn" and "until
your next turn" effects and what a keyword does as a turn begins are played.

:func:`explore` walks a legal combat and that turn's rest and tries, beside
each command, the command with each option of each choice it asks (601.2,
:meth:`~redzone.Engine.choices_for`); in the main phase after combat and in
the declare blockers step, each action kind the plugins under test declare
(117.1, built from its fields' annotations) and each activated ability they
declare, from every object that has it and from one that doesn't (602.1-602.5:
that one must be refused). Each try is a :class:`Variant` the invariants
check: no exception but an :class:`~redzone.IllegalActionError` escapes, a
refused one changed nothing and cites a rule (733), an accepted one's events
account for every change.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, Final

from attrs import field, frozen

from redzone.formats.action_fields import plugin_kinds
from redzone.kernel.abilities import Activate
from redzone.kernel.engine import Engine
from redzone.kernel.errors import IllegalActionError
from redzone.kernel.events import Event
from redzone.kernel.model import Choice, GameState
from redzone.kernel.shapes import Shape, fields_of, shape_of

#: How many commands the rest of the turn may take (a trigger looping on itself).
MAX_TURN_COMMANDS: Final = 24
#: How many answers of one choice are tried (its options, one at a time).
MAX_ANSWERS: Final = 2
#: How many variants one command is tried with, at most.
MAX_VARIANTS: Final = 4


@frozen
class Played:
    """One command played: its name, the state before and after, its events."""

    command: str
    before: GameState
    after: GameState
    events: tuple[Event, ...]


def rest_of_turn(engine: Engine, state: GameState) -> list[Played]:
    """From after the combat phase (the last main phase): what is left on
    the stack resolves (608), the end step and the cleanup step (513, 514:
    :meth:`~redzone.Engine.end_turn`), then the next turn begins
    (:meth:`~redzone.Engine.begin_turn`) and its triggers resolve.

    Stops early when the game is over (104).

    :raises IllegalActionError: when a command is refused.
    """
    out: list[Played] = []

    def run(command: str, call: Callable[[GameState], Any]) -> None:
        nonlocal state
        done = call(state)
        out.append(Played(command, state, done.state, tuple(done.events)))
        state = done.state

    for command in ("end_turn", "begin_turn"):
        for _ in range(MAX_TURN_COMMANDS):
            if not state.stack or state.game_over is not None:
                break
            run("resolve_trigger", engine.resolve_trigger)
        if state.game_over is not None or state.stack:
            return out
        run(command, getattr(engine, command))
    for _ in range(MAX_TURN_COMMANDS):
        if not state.stack or state.game_over is not None:
            break
        run("resolve_trigger", engine.resolve_trigger)
    return out


@frozen(eq=False)
class Variant:
    """One command tried beside the played line.

    :param label: the command and what was tried (``"declare_blockers with
        enlist:b1 = 'b1'"``).
    :param before: the state it was given.
    :param snapshot: that state pickled before the command, to tell whether
        a refused command changed it.
    :param after: the state after (``None`` when refused or raised).
    :param events: its events.
    :param error: what it raised, if anything.
    :param must_refuse: whether the rules refuse it (an ability activated
        from an object that doesn't have it, 602.1).
    """

    label: str
    before: GameState
    snapshot: bytes
    after: GameState | None = None
    events: tuple[Event, ...] = ()
    error: BaseException | None = None
    must_refuse: bool = False
    frames: Sequence[Any] = field(default=())


def _try(label: str, state: GameState, call: Callable[..., Any], *args: Any,
         must_refuse: bool = False, **kwargs: Any) -> Variant:
    snapshot = pickle.dumps(state)
    try:
        done = call(state, *args, **kwargs)
    except Exception as exc:  # the invariants say which are allowed
        return Variant(label, state, snapshot, error=exc, must_refuse=must_refuse)
    return Variant(label, state, snapshot, done.state, tuple(done.events),
                   must_refuse=must_refuse)


def answers(choice: Choice) -> list[str | tuple[str, ...]]:
    """The answers the kit tries for ``choice`` besides its default: each
    option alone when one may be chosen (then ``str``), else each run of
    ``min`` options in turn; at most :data:`MAX_ANSWERS`."""
    opts = tuple(choice.options)
    if not opts:
        return []
    out: list[str | tuple[str, ...]] = []
    if choice.min <= 1 <= choice.max:
        for opt in opts:
            if (opt,) != tuple(choice.default):
                out.append(opt if choice.max == 1 else (opt,))
    elif choice.min <= len(opts):
        for i in range(len(opts)):
            run = tuple((opts[i:] + opts[:i])[:choice.min])
            if run != tuple(choice.default):
                out.append(run)
    if choice.min == 0 and choice.default:
        out.append(())
    return out[:MAX_ANSWERS]


def choice_variants(engine: Engine, state: GameState, command: str,
                    call: Callable[..., Any], args: Sequence[Any] = ()) -> list[Variant]:
    """``command`` given each answer of each choice it asks (601.2), one
    choice answered at a time (the others at their defaults)."""
    try:
        asked = engine.choices_for(state, command, *args)
    except IllegalActionError:
        return []
    except Exception as exc:
        return [Variant(f"choices_for({command!r})", state, pickle.dumps(state), error=exc)]
    key = "answers" if command == "resolve_trigger" else "choices"
    out: list[Variant] = []
    for choice in asked:
        for answer in answers(choice):
            given: dict[str, Any] = {key: {choice.key: answer}}
            out.append(_try(f"{command} with {choice.key} = {answer!r}", state, call, *args,
                            **given))
            if len(out) >= MAX_VARIANTS:
                return out
    return out


def _ids(state: GameState, kind: str | None) -> list[str]:
    players = list(state.turn_order)
    objects = [p.id for p in state.objects.values() if p.zone == "battlefield"]
    if kind == "player":
        return players
    if kind in ("object", "source", "permanent"):
        return objects
    return objects + players


def values(tp: Any, state: GameState, pick: int) -> Any:
    """A value of the annotation ``tp`` on ``state`` (ids of the board, small
    numbers), the ``pick``-th of a few; ``None`` for a type the kit can't
    make (the field is left out when it may be)."""
    return _value(shape_of(tp), state, pick)


def _value(shape: Shape, state: GameState, pick: int) -> Any:
    kind = shape.kind
    if kind == "union":
        for member in shape.args:
            if member.kind != "none":
                found = _value(member, state, pick)
                if found is not None:
                    return found
        return None
    if kind == "literal":
        return shape.values[pick % len(shape.values)]
    if kind == "items":
        item = _value(shape.args[0], state, pick)
        if item is None:
            return None
        made = (item,) if pick % 2 == 0 else ()
        return frozenset(made) if shape.origin is frozenset else list(made) \
            if shape.origin is list else made
    if kind == "map":
        return {}
    if kind == "bool":
        return pick % 2 == 1
    if kind == "int":
        return (1, 0, 2)[pick % 3]
    if kind == "str" or shape.hint is Any:
        ids = _ids(state, shape.ref)
        return ids[pick % len(ids)] if ids else ""
    return None


def _instances(cls: type, state: GameState) -> Iterator[Any]:
    fields = fields_of(cls)
    if not fields and getattr(cls, "__attrs_attrs__", None) is None:
        return
    for pick in range(2):
        kwargs: dict[str, Any] = {}
        for f in fields:
            value = _value(f.shape, state, pick)
            if value is None:
                if f.required:
                    break
                continue
            kwargs[f.alias] = value
        else:
            try:
                yield cls(**kwargs)
            except (TypeError, ValueError):
                continue


def plugin_variants(engine: Engine, state: GameState, plugins: Collection[str],
                    where: str) -> list[Variant]:
    """Each action kind of ``plugins`` performed (117.1), and each activated
    ability of theirs activated from each object with it and from one
    without it (602.1, which must be refused), on ``state``."""
    out: list[Variant] = []
    for _do, (cls, plugin) in plugin_kinds(engine.hooks.action_specs).items():
        if plugin not in plugins:
            continue
        for action in itertools.islice(_instances(cls, state), 2):
            out.append(_try(f"perform {action!r} ({where})", state, engine.perform, action))
    for name, (ability, plugin) in sorted(engine.hooks.activated_abilities.items()):
        if plugin not in plugins:
            continue
        having = [p for p in state.objects.values() if p.has(name)]
        lacking = [p for p in state.objects.values()
                   if p.zone == "battlefield" and not p.has(name)]
        for pick, perm in enumerate(having[:2]):
            cost = {k: values(tp, state, pick) for k, tp in ability.cost.items()}
            out.append(_try(f"activate {name} of {perm.id} with {cost!r} ({where})", state,
                            engine.perform, Activate(perm.id, name, cost, None)))
        if lacking:
            perm = lacking[0]
            out.append(_try(f"activate {name} of {perm.id}, which doesn't have it ({where})",
                            state, engine.perform, Activate(perm.id, name, {}, None),
                            must_refuse=True))
    return out


__all__ = ["MAX_ANSWERS", "MAX_TURN_COMMANDS", "MAX_VARIANTS", "Played", "Variant", "answers",
           "choice_variants", "plugin_variants", "rest_of_turn", "values"]
