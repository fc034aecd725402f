"""Checks of what a caller hands the engine, before the engine acts on it.

Each check raises a typed error (:class:`~redzone.kernel.errors.BadQueryError`,
a :class:`ValueError`, or :class:`~redzone.kernel.errors.UnknownObjectError`,
also a :class:`KeyError`) naming the method, the argument and the problem, so
that a query or command given nonsense never fails with a bare ``KeyError``,
``TypeError`` or ``AssertionError`` from deep inside the engine. Nothing is
changed. (Whether the engine can honour a state at all is its context's
check: :meth:`redzone.kernel.context.Context.check`.) One check is of what the
engine makes: :func:`out_of_bounds`, the bounds of a state's counts, which a
command meets as it settles (:func:`redzone.kernel.settle.within_bounds`).
"""

from __future__ import annotations

import inspect
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Final, cast

import attrs

from redzone.kernel.answers import shown, shown_number, type_name
from redzone.kernel.errors import (
    BadQueryError,
    UnknownObjectError,
    did_you_mean,
)
from redzone.kernel.hooktypes import Action
from redzone.kernel.model import Effect, GameState, Permanent, Player, new_game, team_life
from redzone.kernel.references import named_ids
from redzone.kernel.shapes import MAX_INT, Shape, described, first_misfit, numeric

#: The bounds of the counts a state holds, by ``Class.field`` (a map's: of
#: its values): damage (120.3), poison (122.1f) and counters (122.1) from 0
#: to :data:`MAX_INT`, life (119) within ±:data:`MAX_INT`, turns from 1. No
#: rule caps them (107.1: the game's numbers are integers); redzone does, so
#: that every state can be saved and loaded back: they are the bounds of a
#: state's serialised form (``redzone.formats.serialize.BOUNDS``), and a
#: command that would go past one fails (:func:`out_of_bounds`).
STATE_BOUNDS: Final[Mapping[str, tuple[int, int]]] = {
    "Permanent.damage": (0, MAX_INT), "Permanent.counters": (0, MAX_INT),
    "Player.poison": (0, MAX_INT), "Player.life": (-MAX_INT, MAX_INT),
    "GameState.turn": (1, MAX_INT), "GameState.token_numbers": (1, MAX_INT),
    "Effect.amount": (0, MAX_INT),
    "Permanent.printed_loyalty": (0, MAX_INT), "Permanent.printed_defense": (0, MAX_INT),
}

def choices(value: object, argument: str = "choices") -> None:
    """``value`` is answers to choices by key: ``None`` or a mapping of
    str keys to a str or a sequence of strs (601.2, 603.3c-d, 608.2d).

    :raises BadQueryError: naming the argument, the key and the value.
    """
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise BadQueryError(f"{argument} is {type(value).__name__} {_r(value)}, where a "
                            "mapping of choice keys to answers was expected", rule="601.2")
    for key, answer in value.items():
        if type(key) is not str:
            raise BadQueryError(f"{argument}: the key {_r(key)} is not a str (a choice's "
                                "key)", rule="601.2")
        if isinstance(answer, str):
            continue
        if isinstance(answer, (bytes, Mapping)) or not isinstance(answer, (list, tuple)) \
                or not all(type(a) is str for a in answer):
            raise BadQueryError(f"{argument}[{key!r}] is {_r(answer)}, where an option (a "
                                "str) or a list of options was expected", rule="601.2",
                                objects=(key,))


def step_actions(value: object, argument: str = "actions") -> tuple[tuple[str, Action], ...]:
    """``value`` is ``(step, action)`` pairs: each a step name (a str) and an
    action of a kind (an :class:`~redzone.Action`; 117.1, 608.2).

    :returns: the pairs, as a tuple.
    :raises BadQueryError: naming the argument, the pair and the problem.
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise BadQueryError(f"{argument} is {type(value).__name__} {_r(value)}, where "
                            "(step, action) pairs were expected", rule="117.1")
    pairs = tuple(value)
    for i, pair in enumerate(pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise BadQueryError(f"{argument}[{i}] is {_r(pair)}, where a (step, action) "
                                "pair was expected", rule="117.1")
        step, act = pair
        if type(step) is not str:
            raise BadQueryError(f"{argument}[{i}]: the step {_r(step)} is not a str (a "
                                "step's name)", rule="117.1")
        if not isinstance(act, Action):
            raise BadQueryError(f"{argument}[{i}]: {_r(act)} is not an action (an "
                                "instance of an action kind)", rule="117.1")
    return pairs


def _state(state: object, method: str) -> GameState:
    if not isinstance(state, GameState):
        raise BadQueryError(f"{method}: state is {type(state).__name__}, not a GameState")
    return state


def command(state: object, method: str, **mappings: object) -> GameState:
    """What a command is given has the shape it takes, before anything is
    read of it: ``state`` is a :class:`~redzone.GameState`, and each keyword
    argument is a mapping (or ``None``, where the command's default applies).
    What the mappings hold is the rules' to check (508.1, 509.1, 510.1).

    :raises BadQueryError: naming the command, the argument and what it is.
    """
    if not isinstance(state, GameState):
        raise BadQueryError(f"{method}: state is {type(state).__name__}, not a GameState")
    shapes(method, **mappings)
    return state


def shapes(method: str, **mappings: object) -> None:
    """Each keyword argument is a mapping (or ``None``, where the command's
    default applies), as :func:`command` checks a command's.

    :raises BadQueryError: naming the method, the argument and what it is.
    """
    for name, value in mappings.items():
        # (a dict is a mapping: no abstract class's check for it)
        if value is not None and type(value) is not dict and not isinstance(value, Mapping):
            raise BadQueryError(f"{method}: {name} is a {type(value).__name__}, not a mapping "
                                "of creature ids (a dict)")


def given(method: str, **mappings: object) -> None:
    """Each keyword argument is given: ``None`` is no default for it (a
    declaration of no creatures is an empty mapping).

    :raises BadQueryError: naming the method and the argument.
    """
    for name, value in mappings.items():
        if value is None:
            raise BadQueryError(f"{method}: {name} is None, not a mapping of creature ids (a "
                                "dict); declare none with {}")


def bands(value: object, method: str) -> list[tuple[Any, ...]]:
    """``value`` is an iterable of bands, each an iterable of creature ids
    (which ids may band together is 702.22c's to check); read once, as a
    list of tuples.

    :raises BadQueryError: naming what isn't.
    """
    def bad(what: object, shown: str) -> BadQueryError:
        return BadQueryError(f"{method}: {shown} is a {type(what).__name__}, not a list of "
                             "bands (each a list of creature ids)")

    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise bad(value, "bands")
    out: list[tuple[Any, ...]] = []
    for i, band in enumerate(value):
        if isinstance(band, (str, bytes, Mapping)) or not isinstance(band, Iterable):
            raise bad(band, f"bands[{i}]")
        out.append(tuple(band))
    return out


def objects(state: GameState, method: str, **ids: object) -> None:
    """Each keyword argument is the id of an object of ``state``.

    :raises UnknownObjectError: naming the argument and the id.
    """
    _state(state, method)
    for name, value in ids.items():
        if type(value) is not str or value not in state.objects:
            raise UnknownObjectError(f"{method}: {name} {value!r} is not an object of the "
                                     f"state{did_you_mean(value, state.objects)}")


def ident(value: object, method: str, name: str, what: str, *, rule: str = "117.1") -> None:
    """``value`` (the argument ``name``) is an id: a str.

    :param what: what the id names, for the message (``"a trigger's id"``).
    :raises BadQueryError: naming the method, the argument and what it is.
    """
    if type(value) is not str:
        raise BadQueryError(f"{method}: {name} is {_a(value)}, not {what} (a str)", rule=rule)


#: What :meth:`redzone.Engine.permanent` takes beside the permanent's fields.
_PERMANENT_ARGS: Final = frozenset({"power", "toughness", "keywords"})


def permanent_args(kwargs: dict[str, Any]) -> Iterable[Any]:
    """Check :meth:`redzone.Engine.permanent`'s keyword arguments: each a
    field of :class:`Permanent` or ``power``, ``toughness``, ``keywords``,
    and ``keywords`` a list of keyword texts (or records); pops and returns
    ``keywords``.

    :raises BadQueryError: naming the argument.
    """
    unknown = sorted(set(kwargs) - _PERMANENT_ARGS - set(attrs.fields_dict(Permanent)))
    if unknown:
        raise BadQueryError(f"permanent: no argument {', '.join(map(repr, unknown))}: give "
                            "fields of Permanent, power, toughness or keywords")
    keywords = kwargs.pop("keywords", ())
    if isinstance(keywords, str | bytes | Mapping) or not isinstance(keywords, Iterable):
        raise BadQueryError(f"permanent: keywords is {_a(keywords)}, not a list of keyword "
                            "texts")
    return keywords


def _listed(value: object, method: str, name: str, want: str) -> list[Any]:
    """``value`` as a list, when it is a list-like of things (not a str, a
    mapping or a single thing)."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise BadQueryError(f"{method}: {name} is {_a(value)}, not a list of {want}")
    return list(value)


def _r(value: object) -> str:
    """``value``'s repr, at most 80 characters, for a message: an int too
    long to print (or a list holding one) as :func:`shown` shows it."""
    if type(value) is int:
        return shown_number(value, grouped=False)
    try:
        return f"{value!r:.80}"
    except ValueError:  # (Python's limit on printing an int: 4,300 digits)
        return shown(value)


def _a(value: object) -> str:
    """``a str 'alice'``, ``a dict``: a value's type, and the value when it is
    a str or a number (a container's repr says little and may be long)."""
    name = type_name(value)
    shown_value = f" {shown(value)}" if type(value) in (str, int, float, bool) else ""
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}{shown_value}"


def game(players: object, permanents: object, options: Mapping[str, Any],
         method: str = "game") -> tuple[list[Player | str], list[Permanent], dict[str, Any]]:
    """What :meth:`redzone.Engine.game` is given has the shape it takes, and
    every permanent's controller and owner is a player of the game (110.2: a
    permanent's controller and owner are players; 102.1: the players are the
    people in the game). Every field of each player, permanent and effect
    has the type its class declares (107.1: a number is an integer, within
    ±:data:`MAX_INT`: :mod:`redzone.kernel.shapes`), its counts within :data:`STATE_BOUNDS`;
    there is a player; each id names one player or one permanent; the turn
    order names each player once and the active player is one of them
    (102.1); a team names players, each on one team, who share life and
    poison (810.4).

    :param options: the other keyword arguments of :func:`redzone.new_game`
        (``teams``, ``effects``...).
    :returns: the players, the permanents and the options, each list read
        once (as lists, the teams as a dict of lists).
    :raises BadQueryError: naming the argument and what it is (for a field,
        the object, its id and the field); for a controller or owner who
        isn't a player, naming the permanent, the player id (and the closest
        player id) and every player.
    """
    plist: list[Player | str] = _listed(players, method, "players",
                                        "players (Player objects or player ids)")
    for i, pl in enumerate(plist):
        if not isinstance(pl, Player) and type(pl) is not str:
            raise BadQueryError(f"{method}: players[{i}] is {_a(pl)}, not a Player or a "
                                "player id (a str)")
    perms: list[Permanent] = _listed(permanents, method, "permanents", "Permanent objects")
    for i, perm in enumerate(perms):
        if not isinstance(perm, Permanent):
            raise BadQueryError(f"{method}: permanents[{i}] is {_a(perm)}, not a Permanent")
    for option in options:
        if option not in _GAME_OPTIONS:
            raise BadQueryError(f"{method}: {option!r} is not one of its keyword arguments"
                                f"{did_you_mean(option, _GAME_OPTIONS)} (they are: "
                                f"{', '.join(_GAME_OPTIONS)})")
    if not plist:
        raise BadQueryError(f"{method}: players is empty: a game has players",
                            rule="102.1")
    out = dict(options)
    if "effects" in out:
        out["effects"] = _listed(out["effects"], method, "effects", "effects")
        for i, effect in enumerate(out["effects"]):
            if not isinstance(effect, Effect):
                raise BadQueryError(f"{method}: effects[{i}] is {_a(effect)}, not an Effect",
                                    rule="611.1")
    # (the counts first, by their key paths; an id that isn't a str is the
    # next check's to refuse)
    for pl in plist:
        if isinstance(pl, Player) and type(pl.id) is str:
            for bound, value in (("Player.life", pl.life), ("Player.poison", pl.poison)):
                _game_count(method, bound, f"players.{pl.id}.{bound[7:]}", value)
    for i, effect in enumerate(out.get("effects") or ()):
        if effect_amount_past(effect):
            _game_count(method, "Effect.amount", f"effects[{i}].amount", effect.amount)
    for perm in perms:
        if type(perm.id) is not str:
            continue
        _game_count(method, "Permanent.damage", f"objects.{perm.id}.damage", perm.damage)
        for printed in ("printed_loyalty", "printed_defense"):
            if getattr(perm, printed) is not None:
                _game_count(method, f"Permanent.{printed}", f"objects.{perm.id}.{printed}",
                            getattr(perm, printed))
        for kind, n in perm.counters.items():
            _game_count(method, "Permanent.counters", f"objects.{perm.id}.counters[{kind!r}]", n)
    for what, items in (("players", plist), ("permanents", perms),
                        ("effects", out.get("effects") or ())):
        for i, item in enumerate(items):
            if not isinstance(item, str):
                _well_typed(item, f"{method}: {what}[{i}]")
    ids = [pl.id if isinstance(pl, Player) else pl for pl in plist]
    _game_ids(method, ids, [perm.id for perm in perms])
    _turn(method, ids, out)
    teams = out.get("teams")
    if teams is not None:
        if not isinstance(teams, Mapping):
            raise BadQueryError(f"{method}: teams is {_a(teams)}, not a mapping of team ids "
                                "to their players (a dict)", rule="810.1")
        out["teams"] = {team: _listed(members, method, f"teams[{_r(team)}]", "player ids")
                        for team, members in teams.items()}
    known = set(ids)
    _teams(method, plist, out.get("teams"))
    for perm in perms:
        for role in ("controller", "owner"):
            who = getattr(perm, role)
            if who not in known:
                raise BadQueryError(
                    f"{method}: permanent {perm.id!r} has {role} {who!r}, who is not a player "
                    f"of the game{did_you_mean(who, ids)} (players: "
                    f"{', '.join(map(repr, ids)) or 'none'})", rule="110.2",
                    objects=(perm.id, who) if type(who) is str else (perm.id,))
    return plist, perms, out


def _game_ids(method: str, players: list[str], permanents: list[str]) -> None:
    """Each id of a new game names one player or one permanent.

    :raises BadQueryError: naming the ids given twice.
    """
    seen: set[str] = set()
    twice: list[str] = []
    for ident in (*players, *permanents):
        if ident in seen and ident not in twice:
            twice.append(ident)
        seen.add(ident)
    if twice:
        raise BadQueryError(f"{method}: the ids {', '.join(map(repr, twice))} are each given "
                            "twice (each player and each permanent has its own id)",
                            objects=twice)


def _teams(method: str, players: list[Player | str],
           teams: Mapping[object, list[Any]] | None) -> None:
    """Each member of a team is a player, on that team only, and teammates
    have the same life and poison (810.4, 810.10: a team shares them; a
    player given by id has the team's life, :func:`~redzone.kernel.model.team_life`).

    :raises BadQueryError: naming the team and the player.
    """
    if not teams:
        return
    by_id = {p.id if isinstance(p, Player) else p: p for p in players}
    seen: dict[object, object] = {}
    for team, members in teams.items():
        shared = team_life(len(members))
        counts: set[tuple[object, object]] = set()
        for m in members:
            if type(m) is not str or m not in by_id:
                raise BadQueryError(f"{method}: teams[{_r(team)}] names {_a(m)}, who is not "
                                    f"a player of the game{did_you_mean(m, list(by_id))}",
                                    rule="810.1")
            if m in seen:
                raise BadQueryError(f"{method}: {m!r} is on two teams: {_r(seen[m])} and "
                                    f"{_r(team)}", rule="810.1", objects=(m,))
            seen[m] = team
            pl = by_id[m]
            counts.add((pl.life, pl.poison) if isinstance(pl, Player) else (shared, 0))
        if len(counts) > 1:
            raise BadQueryError(f"{method}: the players of team {_r(team)} have different "
                                "life or poison: a team shares them (810.4, 810.10)",
                                rule="810.4", objects=tuple(members))


def _turn(method: str, players: list[str], options: dict[str, Any]) -> None:
    """A new game's ``turn_order`` names each player once, and its
    ``active_player`` (the player whose turn it is: 102.1) is one of them;
    ``turn_order`` is read once, as a list.

    :raises BadQueryError: naming the argument, what it is and the players.
    """
    every = f"(players: {', '.join(map(repr, players))})"
    order = options.get("turn_order")
    if order is not None:
        order = options["turn_order"] = _listed(order, method, "turn_order", "player ids")
        if sorted(map(_r, order)) != sorted(map(_r, players)):
            raise BadQueryError(f"{method}: turn_order is {shown(order)}, which doesn't name "
                                f"each player once {every}", rule="102.1")
    active = options.get("active_player")
    if active is not None and (type(active) is not str or active not in players):
        raise BadQueryError(f"{method}: active_player is {_a(active)}, who is not a player of "
                            f"the game{did_you_mean(active, players)} {every}", rule="102.1")


def _well_typed(obj: object, where: str) -> None:
    """Every field of ``obj`` (an attrs instance of the model: a player, a
    permanent, an effect) has the type its class declares, and so has what
    it holds (a permanent's modifications): the one rule of
    :mod:`redzone.kernel.shapes`.

    :raises BadQueryError: naming ``where``, the object's id and the field
        (107.1 for a number that isn't an integer within ±:data:`MAX_INT`).
    """
    found = misfit_rule(obj)
    if found is None:
        return
    ident = getattr(obj, "id", None)
    named = f" {_r(ident)}" if type(ident) is str else ""
    raise BadQueryError(f"{where}{named}: {found[0]}", rule=found[1],
                        objects=(ident,) if type(ident) is str and ident else ())


def misfit(obj: object) -> str | None:
    """What :func:`game` refuses in a caller's permanent, for the kernel's
    other checks (what a plugin's action puts: :mod:`redzone.kernel.tx`):
    the first field of the attrs instance ``obj``, or of what it holds, whose
    value doesn't fit its type (:func:`~redzone.kernel.shapes.first_misfit`),
    as a clause (``tapped is 'no' (str), where a bool was expected``);
    ``None`` when every one fits."""
    found = misfit_rule(obj)
    return None if found is None else found[0]


def misfit_rule(obj: object) -> tuple[str, str] | None:
    """:func:`misfit`'s clause and the rule it breaks: 107.1 for a number
    that isn't an integer within ±:data:`MAX_INT`, else 117.1."""
    found = first_misfit(obj)
    if found is None:
        return None
    path, value, shape = found
    return _clause(path[1:], value, shape), _rule(shape)


def _rule(shape: Shape) -> str:
    """The rule a value that doesn't fit ``shape`` breaks: 107.1 for a
    number, else 117.1."""
    return "107.1" if numeric(shape) else "117.1"


def _clause(path: str, value: object, shape: Shape) -> str:
    """How an error says the value at ``path`` doesn't fit ``shape`` (the one wording)."""
    return (f"{path} is {shown(value)} ({type_name(value)}), where {described(shape)} was "
            "expected")


#: The keyword arguments :meth:`redzone.Engine.game` passes on to
#: :func:`~redzone.kernel.model.new_game`: its keyword-only parameters.
_GAME_OPTIONS: Final = tuple(name for name, p in inspect.signature(new_game).parameters.items()
                             if p.kind is inspect.Parameter.KEYWORD_ONLY)


def effect_amount_past(effect: object) -> bool:
    """Whether ``effect`` (an :class:`~redzone.kernel.model.Effect`, else
    ``False``) has an ``amount`` outside :data:`STATE_BOUNDS`: an effect's
    number counts something (damage to prevent or reduce), never below 0."""
    amount = getattr(effect, "amount", None)
    lo, hi = STATE_BOUNDS["Effect.amount"]
    return type(amount) is int and not lo <= amount <= hi


def _game_count(method: str, bound: str, path: str, value: object) -> None:
    """A count a new game is given is within its bound in
    :data:`STATE_BOUNDS` (a count that isn't an int is the model's to refuse)."""
    lo, hi = STATE_BOUNDS[bound]
    if type(value) is int and not lo <= value <= hi:
        raise BadQueryError(f"{method}: {path} is {shown_number(value)}, {_beyond((lo, hi))}",
                            rule="107.1")


def damage_step(engine: Any, state: GameState, method: str, **mappings: object) -> None:
    """``state`` stands where a combat damage step comes next (510), and each
    keyword argument (an assignment) is a mapping or ``None``, as a command's
    are (:func:`shapes`: what its entries hold is the rules' to check).

    :raises BadQueryError: naming the step it stands at, or the argument.
    """
    _state(state, method)
    shapes(method, **mappings)
    nxt = engine.next_step(state)
    if state.combat is None or nxt is None or engine.damage_step(nxt) is None:
        raise BadQueryError(f"{method}: the game is at {state.step!r} (next: {nxt!r}); combat "
                            "damage is assigned only after blockers are declared (510.1)")


def assignment(value: object, method: str, argument: str) -> Mapping[str, Mapping[str, int]]:
    """``value`` is an assignment of combat damage (510.1): ``None`` (none is
    given) or a mapping of creature ids (strs) to what each assigns, a
    mapping of recipients' ids (strs) to amounts, each a whole number, 0 or
    more (510.1a): for a query that has no violations to report, only an
    answer to give (:meth:`redzone.Engine.default_assignment`). Whether it
    is legal is the rules' to say (:meth:`redzone.Engine.assignment_violations`).

    :returns: the assignment (empty for ``None``).
    :raises BadQueryError: naming the method, the argument and the entry.
    """
    if value is None:
        return {}
    shapes(method, **{argument: value})
    for source, entry in cast("Mapping[object, object]", value).items():
        if type(source) is not str:
            raise BadQueryError(f"{method}: {argument}: the key {_r(source)} is not a "
                                "creature id (a str)", rule="510.1")
        where = f"{argument}[{source!r}]"
        if not isinstance(entry, Mapping):
            raise BadQueryError(f"{method}: {where} is {_a(entry)}, not a mapping of "
                                "recipients to amounts", rule="510.1", objects=(source,))
        for recipient, amount in entry.items():
            if type(recipient) is not str:
                raise BadQueryError(f"{method}: {where}: the key {_r(recipient)} is not "
                                    "the id of a recipient (a str)", rule="510.1",
                                    objects=(source,))
            if type(amount) is not int or amount < 0:
                raise BadQueryError(f"{method}: {where}[{recipient!r}] is {_a(amount)}, not "
                                    "an amount of damage (a whole number, 0 or more)",
                                    rule="510.1a", objects=(source, recipient))
    return cast("Mapping[str, Mapping[str, int]]", value)


def out_of_bounds(state: GameState, changed: Collection[str] | None
                  ) -> tuple[str, int, str] | None:
    """The first count of ``state`` outside :data:`STATE_BOUNDS` among the
    players and the permanents (objects and their last known information)
    whose ids are ``changed`` (``None``: all of them), or its turn; ``None``
    when there is none.

    :returns: the bound's name (``"life"``, ``"poison"``, ``"damage"``,
        ``"counters"``, ``"turn"``), its limit and what went past it, naming
        the count by its key path in the saved form (``players.alice.life``).
    """
    players = state.players._items
    objects = state.objects._items
    lki = state.lki._items
    ids: Iterable[str] = changed if changed is not None else {**players, **objects, **lki}
    # (Asked only where a count may be past its bound: the pass of
    # state-based actions watches them, :func:`redzone.kernel.sba.core_actions`.)
    for i in ids:
        player = players.get(i)
        if player is not None:
            if not _LIFE[0] <= player.life <= _LIFE[1]:
                return _past("life", _LIFE, f"players.{i}.life", player.life)
            if not _POISON[0] <= player.poison <= _POISON[1]:
                return _past("poison", _POISON, f"players.{i}.poison", player.poison)
        for where, perm in (("objects", objects.get(i)), ("lki", lki.get(i))):
            found = None if perm is None else _permanent_past(perm, f"{where}.{i}")
            if found is not None:
                return found
    if not _TURN[0] <= state.turn <= _TURN[1]:
        return _past("turn", _TURN, "turn", state.turn)
    return None


_LIFE: Final = STATE_BOUNDS["Player.life"]
_POISON: Final = STATE_BOUNDS["Player.poison"]
_DAMAGE: Final = STATE_BOUNDS["Permanent.damage"]
_COUNTERS: Final = STATE_BOUNDS["Permanent.counters"]
_TURN: Final = STATE_BOUNDS["GameState.turn"]


def _permanent_past(perm: Permanent, path: str) -> tuple[str, int, str] | None:
    """A permanent's damage or counter count outside its bounds (at ``path``)."""
    if not _DAMAGE[0] <= perm.damage <= _DAMAGE[1]:
        return _past("damage", _DAMAGE, f"{path}.damage", perm.damage)
    for kind, n in perm.counters._items.items():
        if not _COUNTERS[0] <= n <= _COUNTERS[1]:
            return _past("counters", _COUNTERS, f"{path}.counters[{kind!r}]", n)
    return None


def _past(bound: str, bounds: tuple[int, int], path: str, value: int) -> tuple[str, int, str]:
    return bound, bounds[1], f"took {path} to {shown_number(value)}, {_beyond(bounds)}"


def _beyond(bounds: tuple[int, int]) -> str:
    """How an error says a count is past its bounds (the one wording)."""
    lo, hi = bounds
    return (f"past what a state holds ({lo:,} to {hi:,}: the bounds of its saved form, which "
            "must load back)")


def declaration(state: GameState, method: str, value: object, *, single: bool) -> None:
    """``value`` is a mapping of creature ids to what they attack (``single``)
    or to the attacker(s) they block.

    :raises BadQueryError: naming the entry that isn't.
    """
    command(state, method)
    if not isinstance(value, Mapping):
        # a query has no default declaration to fall back on, so None is refused too
        raise BadQueryError(f"{method}: declaration is a {type(value).__name__}, not a mapping "
                            "of creature ids (a dict)")
    for key, target in value.items():
        if type(key) is not str:
            raise BadQueryError(f"{method}: key {_r(key)} is not a creature id (a str)")
        if single:
            ok = type(target) is str
        else:
            ok = type(target) is str or (isinstance(target, (list, tuple)) and all(
                type(t) is str for t in target))
        if not ok:
            raise BadQueryError(f"{method}: {key!r} -> {_r(target)} is not "
                                f"{'an id' if single else 'an id or a list of ids'}")


def action(state: GameState, act: object) -> None:
    """Every field of ``act`` has the type its action declares (ints within
    ±:data:`MAX_INT`), and so has every field of an instance of the model
    it holds (the permanent a ``CreateToken`` creates): ``Pump("wall", "3",
    3)`` is refused here, naming the field, instead of failing as it is
    applied.

    :raises BadQueryError: naming the action and the field.
    """
    _state(state, "perform")
    cls = type(act)
    if not attrs.has(cls):
        return  # apply_action reports an unknown action (117.1)
    found = first_misfit(act)
    if found is not None:
        path, value, shape = found
        raise BadQueryError(f"perform: {_clause(cls.__name__ + path, value, shape)}",
                            rule=_rule(shape), objects=list(named_ids(act)))


def actions(state: GameState, value: object) -> tuple[object, ...]:
    """``value`` is an action, or a non-empty list or tuple of them (a
    resolving spell's or ability's instructions, in order: 608.2c), each
    checked by :func:`action`.

    :returns: the actions, as a tuple.
    :raises BadQueryError: for an empty sequence, naming the action and the
        field of a wrong one (and its place in the sequence).
    """
    if not isinstance(value, (list, tuple)):
        action(state, value)
        return (value,)
    if not value:
        raise BadQueryError("perform: no action given (an empty sequence of actions)",
                            rule="608.2c")
    for n, act in enumerate(value, start=1):
        try:
            action(state, act)
        except BadQueryError as exc:
            raise BadQueryError(f"action {n} of {len(value)}: {exc.message}", rule=exc.rule,
                                objects=exc.objects) from None
    return tuple(value)
