"""The turn around combat: the end step, the cleanup step and the next
turn's beginning phase (302.6, 500-504, 513, 514).

:class:`~redzone.Engine` delegates :meth:`~redzone.Engine.end_step`,
:meth:`~redzone.Engine.cleanup`, :meth:`~redzone.Engine.end_turn` and
:meth:`~redzone.Engine.begin_turn` here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Protocol

from redzone.kernel import zones as _zones
from redzone.kernel.answers import shown, type_name
from redzone.kernel.context import Context
from redzone.kernel.decisions import Shared
from redzone.kernel.decisions import only_asked as _asked
from redzone.kernel.errors import BadQueryError, BoundError, IllegalActionError
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import Choice, ChoiceMade, Effect, GameState, Shield
from redzone.kernel.settle import commit, end_effects, fire_delayed, outcome, settle
from redzone.kernel.shapes import MAX_INT
from redzone.kernel.steps import (
    Answers,
    after,
    check_game_on,
    check_stack_empty,
    expect,
    new_choices,
    resolve_trigger,
)
from redzone.kernel.tx import Outcome, Tx, choose_numbered
from redzone.kernel.validate import choices as _validate_choices

#: How many cleanup steps one turn may have (514.3a repeats the step while
#: something happens in it); a board that loops past this is refused.
MAX_CLEANUPS = 100
#: Where the end step may begin: a main phase with the combat phase over.
END_STEP_MAY_BEGIN = frozenset({"main", "postcombat_main"})


#: Resolves the trigger on top of the stack in a command that made the
#: choices given so far (:func:`resolve_after`).
Resolver = Callable[[GameState, Sequence[ChoiceMade]], Outcome]


def resolve_after(ctx: Context, state: GameState, before: Sequence[ChoiceMade] = (), *,
                  answers: Answers = None, trigger_id: str | None = None,
                  choices: Mapping[str, Sequence[str] | str] | None = None) -> Outcome:
    """Resolve the trigger on top of the stack (or the one named) as part of
    a command that made the choices ``before`` (608.2); in a cleanup step
    whose stack it empties, another cleanup step begins (514.3a), in the
    same command."""
    out = resolve_trigger(ctx, state, trigger_id, choices, answers=answers, before=before)
    done = out.state
    if state.step == "cleanup" and not done.stack and done.game_over is None:
        more = cleanup(ctx, done, choices=Shared(answers or {}),
                       before=(*before, *out.choices))
        out = Outcome(more.state, (*out.events, *more.events), (*out.choices, *more.choices))
    return out


def end_step(ctx: Context, state: GameState, *, choices: Answers = None,
             before: Sequence[ChoiceMade] = ()) -> Outcome:
    """The end step (513): "at the beginning of the end step" abilities and
    delayed triggers ("at the beginning of the next end step") trigger; with
    ``auto_triggers`` they resolve.

    :param before: the choices the command made before this step
        (:func:`~redzone.kernel.steps.after`)."""
    ctx.check(state)
    check_game_on(state, "begin the end step")
    check_stack_empty(state, "begin the end step")
    if state.step not in END_STEP_MAY_BEGIN:
        raise IllegalActionError(f"can't begin the end step now: the game is at "
                                 f"{state.step!r}; it follows the last main phase (513)",
                                 rule="500.1")
    tx = after(Tx(ctx, state.evolve(step="end_step", combat=None), answers=choices), before)
    tx.emit(Event("step", "513.1", "end_step"))
    # 513.2: a delayed trigger created during this end step waits for the next
    # one; those that wait now were all created before it began.
    return new_choices(commit(tx, extra=fire_delayed(tx, lambda d: d.when == "end_step")),
                       before)


def cleanup(ctx: Context, state: GameState, *, choices: Answers = None,
            before: Sequence[ChoiceMade] = ()) -> Outcome:
    """The cleanup step (514): damage is removed and "until end of turn" and
    "this turn" effects end, at once (514.2); then state-based actions and
    triggers (514.3a). If anything happened, another cleanup step follows:
    at once, unless abilities wait on the stack (``auto_triggers`` off),
    when it begins once they have resolved and the stack is empty (the
    engine's ``resolve_trigger`` begins it then; a state in the cleanup
    step with an empty stack may begin one).

    The choices of the command's cleanup steps are keyed as one command's
    are: each step makes its own discard (514.1) and orders its own
    triggers (603.3b), the second of a key ``#2`` after it, and so on.

    :param before: the choices the command made before its cleanup steps
        (``end_turn``'s end step): their keys count too.
    """
    if state.step == "cleanup":  # another cleanup step (514.3a)
        ctx.check(state)
        check_game_on(state, "begin another cleanup step")
        check_stack_empty(state, "begin another cleanup step")
    else:
        expect(ctx, state, "cleanup", "begin the cleanup step")
    events: list[Event] = []
    made: list[ChoiceMade] = list(before)
    acting: set[str] = set()
    spent = None  # one command: its cleanup steps share its bounds
    for _ in range(MAX_CLEANUPS):
        tx = Tx(ctx, state.evolve(step="cleanup"), answers=choices, spent=spent)
        spent = tx.spent
        tx.made = made  # ... and its choices: a repeated key is numbered (#2)
        tx.emit(Event("step", "514.1", "cleanup"))
        _discard_to_hand_size(tx)
        damaged = {p.id: p.evolve(damage=0) for p in tx.state.objects.values()
                   if p.damage and p.zone == "battlefield"}
        tx._put(damaged)
        for obj in damaged:
            tx.emit(Event("damage_removed", "514.2", object=obj))
        end_effects(tx, lambda duration, condition: duration in (
            "end_of_turn", "end_of_combat", "this_combat"), "514.2")
        marker = len(tx.events)
        settle(tx, extra=fire_delayed(tx, lambda d: d.when == "cleanup"))
        events.extend(tx.events)
        state = tx.state
        happened = len(tx.events) > marker
        if not happened or state.game_over is not None or state.stack:
            # (abilities waiting on the stack: another step follows once
            # they resolved, 514.3a)
            return Outcome(state, events, made[len(before):])
        acting = tx.acting
    # 514.3a: what happened in the last cleanup step made another one follow;
    # the plugins whose abilities triggered or whose actions were performed
    # in it kept the cleanup steps going.
    names = sorted(acting)
    who = (f"plugin {names[0]!r}" if len(names) == 1 else
           f"plugins {', '.join(repr(n) for n in names)}" if names else
           "the kernel's state-based actions")
    raise BoundError(f"{who} kept the cleanup step going: it repeated {MAX_CLEANUPS} times, "
                     "something happening in every one (rule 514.3a; the bound cleanups = "
                     f"{MAX_CLEANUPS})", bound="cleanups", limit=MAX_CLEANUPS,
                     plugin=", ".join(names), hook="redzone_triggers")


def _discard_to_hand_size(tx: Tx) -> None:
    """514.1: the active player discards down to their maximum hand size
    (normally seven, 402.2), choosing the cards: a :class:`Choice` of the
    cards in hand, by default the last ones they got (the end of the hand's
    order). With shared team turns each player of the active team does
    (805.4, 810.2), in turn order. Its key is ``discard@<player>:cleanup``,
    ``#2`` after it in the command's second cleanup step, and so on."""
    for player in active_team(tx.state):
        state = tx.state
        over = _zones.over_hand_size(state, player)
        if not over:
            continue
        hand = state.zone(player, "hand")
        most = state.players[player].max_hand_size
        chosen = choose_numbered(tx, Choice(
            "discard", player, "option", hand, hand[-over:], min=over, max=over, rule="514.1",
            text=f"discard {over} card{'s' if over != 1 else ''} down to {most} in hand",
            key=f"discard@{player}:cleanup"))
        new, events = _zones.discard_to_hand_size(state, player, tx.step, tuple(chosen))
        tx._take(new, events, labelled=True)


def end_turn(ctx: Context, state: GameState, *, choices: Answers = None,
             resolve: Resolver) -> Outcome:
    """The rest of the turn after its last main phase: the end step (513)
    and the cleanup step (514), one command: a key asked again is numbered
    (``#2``) across its steps.

    :param resolve: resolves the trigger on top of the stack (:func:`resolve_after`,
        with ``choices`` as answers), for what is left on it after the end
        step with ``auto_triggers`` off."""
    first = end_step(ctx, state, choices=choices)
    if first.state.game_over is not None:
        return first
    state = first.state
    events = list(first.events)
    made = list(first.choices)
    while state.stack:  # with auto_triggers off: what is left resolves (608)
        out = resolve(state, made)
        state = out.state
        events.extend(out.events)
        made.extend(out.choices)
        if state.game_over is not None:
            return Outcome(state, events, made)
    second = cleanup(ctx, state, choices=choices, before=made)
    state = second.state
    events.extend(second.events)
    made.extend(second.choices)
    while state.stack and state.game_over is None:
        # what triggered in a cleanup step resolves, and another step follows (514.3a)
        out = resolve(state, made)
        state = out.state
        events.extend(out.events)
        made.extend(out.choices)
    return Outcome(state, events, made)


def _without_ceased(state: GameState) -> GameState:
    """``state`` without the tokens that ceased to exist (111.7-111.8,
    704.5d) and their last known information, so that a long game's state
    doesn't grow with every token it ever made; the highest number of each
    id prefix they had is kept (``token_numbers``), so that their ids aren't
    given again (111.1).

    Done as a turn begins: last known information (608.2h) serves what looks
    back at them during the turn they left the battlefield (its outcome
    reports them with zone ``"ceased"``), and the stack is empty then. A
    token an effect, shield or delayed trigger still names (as its
    recipient, source or the object of its condition) is kept until nothing
    does; a delayed trigger's action on a token that is gone does nothing
    (603.7c, 608.2b)."""
    ceased = [i for i, p in state.objects.items() if p.zone == "ceased"]
    if not ceased:
        return state
    named: set[str | None] = set()
    held: list[Effect | Shield] = [*state.effects, *state.shields]
    for item in held:
        named.update((item.to, item.source))
        if item.condition is not None:
            named.add(item.condition.object)
    for delayed in state.delayed:  # (and what it is bound to: 603.7c, an id isn't reused)
        named.update((delayed.source, delayed.object, *delayed.objects))
    gone = [i for i in ceased if i not in named]
    if not gone:
        return state
    objects = state.objects.thaw()
    lki = state.lki.thaw()
    numbers = state.token_numbers.thaw()
    for obj in gone:
        del objects[obj]
        lki.pop(obj, None)
        prefix, _, n = obj.rpartition(".")
        if prefix and n.isascii() and n.isdigit() and len(n) <= len(str(MAX_INT)) \
                and numbers.get(prefix, 0) < int(n) <= MAX_INT:
            numbers[prefix] = int(n)  # (111.1: token_ids never gives it again)
    return state.evolve(objects=FrozenMap(objects), lki=FrozenMap(lki),
                        token_numbers=FrozenMap(numbers))


def _next_active(state: GameState, active_player: str | None) -> str:
    """Whose turn begins: ``active_player``, checked, or the next player in
    turn order still in the game who isn't the active one's teammate (800.4k;
    in shared team turns, the next team: 805.4, 810.2).

    :raises BadQueryError: when ``active_player`` is neither ``None`` nor a
        str (a player's id).
    :raises IllegalActionError: when no player of the game has that id, or
        they have left the game."""
    if active_player is not None and not isinstance(active_player, str):
        raise BadQueryError(f"begin_turn: active_player is {shown(active_player)} "
                            f"({type_name(active_player)}), where a player's id (a str) "
                            "was expected", rule="102.1")
    if active_player is None:
        order = state.turn_order
        i = order.index(state.active_player)
        mates = state.teammates(state.active_player)
        return next((p for p in (*order[i + 1:], *order[:i + 1])
                     if not state.players[p].lost and p not in mates), state.active_player)
    if active_player not in state.players:
        raise IllegalActionError(f"begin_turn: there is no player {active_player!r}",
                                 rule="102.1", objects=(active_player,))
    if state.players[active_player].lost:
        raise IllegalActionError(f"begin_turn: {active_player!r} has left the game, so their "
                                 "turn doesn't begin", rule="800.4k", objects=(active_player,))
    return active_player


def active_team(state: GameState) -> tuple[str, ...]:
    """The active player and, in shared team turns, their teammates (805.4),
    in turn order, those still in the game."""
    team = {state.active_player, *state.teammates(state.active_player)}
    return tuple(p for p in state.turn_order if p in team and not state.players[p].lost)


def untap_step(ctx: Context, state: GameState, active_player: str | None = None, *,
               untap: bool = True, choices: Answers = None,
               before: Sequence[ChoiceMade] = ()) -> Outcome:
    """Begin the next turn (500.1) with its untap step (502).

    As the turn begins, effects that last "until your next turn" of the new
    active player (team) end (500.4, 611.2a). The active team's permanents
    are no longer summoning sick (302.6). Then its tapped permanents untap
    at once, but those a plugin keeps tapped
    (:func:`~redzone.kernel.hookspecs.redzone_keeps_tapped`, 502.3); as the
    step ends, effects lasting during the team's "next untap step" end.
    No player gets priority (502.4): no state-based actions are performed
    (704.3), and what triggers is held (:attr:`~redzone.GameState.held`)
    for the upkeep. Per-turn and per-combat plugin state is cleared.

    :param active_player: whose turn it is; default: the next player in turn
        order still in the game who isn't a teammate of the last one (800.4k).
    :param untap: untap the permanents (502.3); ``False`` skips it.
    :raises IllegalActionError: when the turn isn't over (the cleanup step
        hasn't happened), the game is over, or the player has left the game.
    :raises BadQueryError: when ``active_player`` isn't a player's id (a str).
    """
    ctx.check(state)
    check_game_on(state, "begin a turn")
    check_stack_empty(state, "begin a turn")
    if state.step != "cleanup":
        raise IllegalActionError(f"can't begin a turn now: the game is at {state.step!r}; a "
                                 "turn begins after the last one's cleanup step (514)",
                                 rule="500.1")
    active_player = _next_active(state, active_player)
    passed_over = _passed_over(state, active_player)
    slots = state.plugin_state
    if any(entry.scope != "game" for entry in slots.values()):
        slots = FrozenMap((k, v) for k, v in slots.items() if v.scope == "game")
    if any(p.lands_played for p in state.players.values()):  # 305.2: "each turn"
        state = state.with_players({i: p.evolve(lands_played=0)
                                    for i, p in state.players.items() if p.lands_played})
    turn = state.turn + 1
    new_state = _without_ceased(state).evolve(
        turn=turn, active_player=active_player, step="untap", combat=None, combats=0,
        plugin_state=slots)
    return _untap(ctx, new_state, untap=untap, choices=choices, passed_over=passed_over,
                  before=before)


def _passed_over(state: GameState, new_active: str) -> frozenset[str]:
    """800.4m: the players who left the game whose turns would have begun
    before ``new_active``'s: after the last active player and before the new
    one in turn order. Their effects lasting until their next turn, or until
    a point in it, end as this turn begins."""
    order = state.turn_order
    if state.active_player not in order or new_active not in order:
        return frozenset()
    start = order.index(state.active_player)
    out = []
    for k in range(1, len(order)):
        player = order[(start + k) % len(order)]
        if player == new_active:
            break
        if state.players[player].lost:
            out.append(player)
    return frozenset(out)


def first_untap_step(ctx: Context, state: GameState, *, choices: Answers = None) -> Outcome:
    """The untap step of the turn ``state`` stands in, from its beginning: a
    board set up as the game's first turn (103.8a) runs its beginning phase
    before its first combat, as :func:`untap_step` does for the next turn.

    :raises IllegalActionError: unless ``state`` is in a precombat main
        phase before any combat, with an empty stack.
    """
    ctx.check(state)
    check_game_on(state, "begin the turn")
    check_stack_empty(state, "begin the turn")
    if state.step != "main" or state.combats or state.combat is not None:
        raise IllegalActionError(f"can't run this turn's beginning phase: the game is at "
                                 f"{state.step!r}, past it (500.1)", rule="500.1")
    return _untap(ctx, state.evolve(step="untap"), untap=True, choices=choices)


def first_turn_draws(state: GameState) -> bool:
    """Whether the player (team) who plays first draws in their first turn:
    not in a two-player game (103.8a) nor a Two-Headed Giant game (two teams,
    810.6); yes in a game of more sides (103.8c)."""
    sides = {frozenset({p, *state.teammates(p)}) for p in state.turn_order}
    return len(sides) > 2


def _untap(ctx: Context, new_state: GameState, *, untap: bool, choices: Answers,
           passed_over: frozenset[str] = frozenset(),
           before: Sequence[ChoiceMade] = ()) -> Outcome:
    """The untap step of the turn ``new_state`` has begun (502); the turns of
    the players ``passed_over`` (who left the game) would have begun before
    it (800.4m)."""
    active_player = new_state.active_player
    team = frozenset(active_team(new_state))  # shared team turns (805.4)
    tx = after(Tx(ctx, new_state, answers=choices), before)
    tx.emit(Event("turn", "500.1", "untap", player=active_player, amount=new_state.turn))
    end_effects(tx, lambda duration, condition: False, "500.4",
                owned=lambda duration, player: duration == "until_your_next_turn"
                and player in team)
    if passed_over:  # until that turn, or a point in it, would have begun (800.4m)
        end_effects(tx, lambda duration, condition: False, "800.4m",
                    owned=lambda duration, player: player in passed_over)
    tx.emit(Event("step", "502.1", "untap"))
    now = tx.state
    silent = "redzone_keeps_tapped" in tx.hooks.silent(now)
    changed = {}
    untapped = []
    for perm in now.objects.values():
        if perm.zone != "battlefield" or perm.controller not in team:
            continue
        new = perm
        if perm.summoning_sick:
            new = new.evolve(summoning_sick=False)
        if untap and perm.tapped and (silent or not tx.hooks.keeps_tapped(now, perm.id)):
            new = new.evolve(tapped=False)
            untapped.append(perm.id)
        if new is not perm:
            changed[perm.id] = new
    tx._put(changed)
    for obj in untapped:
        tx.emit(Event("untap", "502.3", "untap", object=obj))
    end_effects(tx, lambda duration, condition: False, "502.3",
                owned=lambda duration, player: duration == "next_untap_step" and player in team)
    settle(tx)  # 502.4: no state-based actions; what triggers is held
    return new_choices(outcome(tx), before)


def upkeep(ctx: Context, state: GameState, *, choices: Answers = None,
           before: Sequence[ChoiceMade] = ()) -> Outcome:
    """The upkeep step (503): "at the beginning of upkeep" abilities and
    delayed triggers trigger; they, and what triggered in the untap step
    (held there: 502.4), go on the stack together, in the order each
    player chooses (503.1a, 603.3b), after the state-based actions the
    untap step didn't perform (704.3), and, with ``auto_triggers``,
    resolve."""
    ctx.check(state)
    check_game_on(state, "begin the upkeep step")
    check_stack_empty(state, "begin the upkeep step")
    if state.step != "untap":
        raise IllegalActionError(f"can't begin the upkeep step now: the game is at "
                                 f"{state.step!r}; it follows the untap step (501.1)",
                                 rule="501.1")
    tx = after(Tx(ctx, state.evolve(step="upkeep", held=()), answers=choices), before)
    tx.emit(Event("step", "503.1", "upkeep"))
    return new_choices(commit(tx, extra=(*state.held,
                                         *fire_delayed(tx, lambda d: d.when == "upkeep"))),
                       before)


def draw_step(ctx: Context, state: GameState, *, draw: bool = True,
              choices: Answers = None, before: Sequence[ChoiceMade] = ()) -> Outcome:
    """The draw step (504): the active player draws a card (504.1); in
    shared team turns each player of the active team does (805.4). One who
    draws from an empty library loses at the state-based check that follows
    (704.5b).

    :param draw: ``False`` skips the step, as the player (team) who plays
        first does in the first turn of a two-player (Two-Headed Giant) game
        (103.8a, 810.6): the game proceeds past it as though it didn't exist
        (500.11): no event, nothing triggers at its beginning, nobody draws.
    """
    ctx.check(state)
    check_game_on(state, "begin the draw step")
    check_stack_empty(state, "begin the draw step")
    if state.step != "upkeep":
        raise IllegalActionError(f"can't begin the draw step now: the game is at "
                                 f"{state.step!r}; it follows the upkeep step (501.1)",
                                 rule="501.1")
    tx = after(Tx(ctx, state.evolve(step="draw"), answers=choices), before)
    if not draw:
        return new_choices(commit(tx), before)  # (past it: the precombat main phase follows)
    tx.emit(Event("step", "504.1", "draw"))
    from redzone.kernel.actions import Draw  # the kernel's action classes, when first needed

    for player in active_team(tx.state):
        tx.perform(Draw(player))
    return new_choices(commit(tx), before)


def precombat_main(ctx: Context, state: GameState, *, choices: Answers = None,
                   before: Sequence[ChoiceMade] = ()) -> Outcome:
    """The precombat main phase begins (505.1), after the draw step."""
    ctx.check(state)
    check_game_on(state, "begin the precombat main phase")
    check_stack_empty(state, "begin the precombat main phase")
    if state.step != "draw":
        raise IllegalActionError(f"can't begin the precombat main phase now: the game is "
                                 f"at {state.step!r}; it follows the draw step (500.1)",
                                 rule="500.1")
    tx = after(Tx(ctx, state.evolve(step="main"), answers=choices), before)
    tx.emit(Event("step", "505.1", "main"))
    return new_choices(commit(tx), before)


#: The beginning phase's steps and the precombat main phase, in order, as
#: :func:`begin_turn` runs them (``through`` names where it stops).
BEGINNING: tuple[str, ...] = ("untap", "upkeep", "draw", "precombat_main")


def begin_turn(ctx: Context, state: GameState, active_player: str | None = None, *,
               untap: bool = True, draw: bool = True, through: str = "precombat_main",
               choices: Answers = None, resolve: Resolver | None = None) -> Outcome:
    """Begin the next turn (500.1): the untap step (502), the upkeep (503)
    and the draw step (504), to the precombat main phase (505), or only
    ``through`` one of them; one command: a key asked again is numbered
    (``#2``) across its steps.

    :param active_player: whose turn it is; default: the next player (team)
        in turn order still in the game (800.4k, 805.4).
    :param untap: untap permanents in the untap step (502.3).
    :param draw: ``False``: the draw step is skipped (103.8a, 500.11).
    :param through: the last of :data:`BEGINNING` to run.
    :param resolve: resolves the trigger on top of the stack, for what is
        left on it after the upkeep with ``auto_triggers`` off.
    :raises IllegalActionError: when the turn isn't over (the cleanup step
        hasn't happened), the game is over, the player has left the game, or
        ``through`` is none of :data:`BEGINNING`.
    :raises BadQueryError: when ``active_player`` isn't a player's id (a str).
    """
    if through not in BEGINNING:
        raise IllegalActionError(f"begin_turn: through must be one of "
                                 f"{', '.join(BEGINNING)}, not {through!r}", rule="500.1")
    out = untap_step(ctx, state, active_player, untap=untap, choices=choices)
    events = list(out.events)
    made = list(out.choices)
    commands: list[Callable[[GameState], Outcome]] = [
        lambda s: upkeep(ctx, s, choices=choices, before=made),
        lambda s: draw_step(ctx, s, draw=draw, choices=choices, before=made),
        lambda s: precombat_main(ctx, s, choices=choices, before=made)]
    for command in commands[:BEGINNING.index(through)]:
        state = out.state
        while state.stack and state.step != "untap" and resolve is not None:
            more = resolve(state, made)
            state = more.state
            events.extend(more.events)
            made.extend(more.choices)
        if state.game_over is not None:
            return Outcome(state, events, made)
        out = command(state)
        events.extend(out.events)
        made.extend(out.choices)
    return Outcome(out.state, events, made)


class _Engine(Protocol):
    @property
    def context(self) -> Context: ...

    def resolve_trigger(self, state: GameState, trigger_id: str | None = None, *,
                        answers: Answers = None) -> Outcome: ...


class TurnCommands:
    """:class:`~redzone.Engine`'s commands of the turn outside combat (a
    part of it): the beginning phase (500-504) and the ending phase (513,
    514)."""

    def untap_step(self: _Engine, state: GameState, active_player: str | None = None, *,
                   untap: bool = True, choices: Answers = None) -> Outcome:
        """Begin the next turn with its untap step (500.1, 502): see
        :func:`redzone.kernel.turn.untap_step`.

        .. versionadded:: 0.1.0
        """
        return _asked(untap_step(self.context, state, active_player, untap=untap,
                                 choices=choices), choices)

    def upkeep(self: _Engine, state: GameState, *, choices: Answers = None) -> Outcome:
        """The upkeep step (503): "at the beginning of upkeep" abilities and
        delayed triggers trigger.

        .. versionadded:: 0.1.0
        """
        return _asked(upkeep(self.context, state, choices=choices), choices)

    def draw_step(self: _Engine, state: GameState, *, draw: bool = True,
                  choices: Answers = None) -> Outcome:
        """The draw step (504.1): the active player (each player of the
        active team) draws; ``draw=False`` skips the step (103.8a, 500.11).

        .. versionadded:: 0.1.0
        """
        return _asked(draw_step(self.context, state, draw=draw, choices=choices), choices)

    def precombat_main(self: _Engine, state: GameState, *,
                       choices: Answers = None) -> Outcome:
        """The precombat main phase begins (505.1), after the draw step.

        .. versionadded:: 0.1.0
        """
        return _asked(precombat_main(self.context, state, choices=choices), choices)

    def begin_turn(self: _Engine, state: GameState, active_player: str | None = None, *,
                   untap: bool = True, draw: bool = True, through: str = "precombat_main",
                   choices: Answers = None) -> Outcome:
        """Begin the next turn: its beginning phase (untap, upkeep, draw:
        502-504) to the precombat main phase, or ``through`` one of
        :data:`~redzone.kernel.turn.BEGINNING`: see
        :func:`redzone.kernel.turn.begin_turn`.

        :param active_player: whose turn; default: the next player (team)
            in turn order.
        :param untap: untap in the untap step (502.3).
        :param draw: ``False``: the draw step is skipped (103.8a, 500.11).
        :param through: where to stop: ``"untap"``, ``"upkeep"``, ``"draw"``
            or ``"precombat_main"``.
        :raises IllegalActionError: when the turn isn't over, the game is
            over (104.2a) or the player has left the game (800.4k).
        """
        _validate_choices(choices)
        shared = Shared(choices or {})
        return _asked(begin_turn(self.context, state, active_player, untap=untap, draw=draw,
                                 through=through, choices=shared,
                                 resolve=partial(resolve_after, self.context, answers=shared)),
                      choices)

    def end_step(self: _Engine, state: GameState, *, choices: Answers = None) -> Outcome:
        """The end step (513): "at the beginning of the end step" abilities
        and delayed triggers trigger."""
        return _asked(end_step(self.context, state, choices=choices), choices)

    def cleanup(self: _Engine, state: GameState, *, choices: Answers = None) -> Outcome:
        """The cleanup step (514): damage is removed, "until end of turn" and
        "this turn" effects end (514.2), then state-based actions; another
        cleanup step follows while something happens (514.3a)."""
        return _asked(cleanup(self.context, state, choices=choices), choices)

    def end_turn(self: _Engine, state: GameState, *, choices: Answers = None) -> Outcome:
        """The end step and the cleanup step (513, 514), from the last main
        phase of the turn."""
        _validate_choices(choices)
        shared = Shared(choices or {})
        return _asked(end_turn(self.context, state, choices=shared,
                               resolve=partial(resolve_after, self.context, answers=shared)),
                      choices)


__all__ = ["BEGINNING", "TurnCommands", "active_team", "begin_turn", "cleanup", "draw_step",
           "end_step", "end_turn", "first_turn_draws", "first_untap_step", "precombat_main",
           "untap_step", "upkeep"]
