"""The turn around combat: the end step, the cleanup step and the next turn
(302.6, 502, 513, 514).

:class:`~redzone.Engine` delegates :meth:`~redzone.Engine.end_step`,
:meth:`~redzone.Engine.cleanup`, :meth:`~redzone.Engine.end_turn` and
:meth:`~redzone.Engine.begin_turn` here.
"""

from __future__ import annotations

from collections.abc import Callable

from redzone.kernel.context import Context
from redzone.kernel.errors import BoundError, IllegalActionError
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.frozen import evolve as _evolve
from redzone.kernel.model import ChoiceMade, Effect, GameState, Shield
from redzone.kernel.settle import commit, end_effects, fire_delayed, settle
from redzone.kernel.steps import Answers, check_game_on, check_stack_empty, expect
from redzone.kernel.tx import Outcome, Tx

#: How many cleanup steps one turn may have (514.3a repeats the step while
#: something happens in it); a board that loops past this is refused.
MAX_CLEANUPS = 100
#: Where the end step may begin: a main phase with the combat phase over.
END_STEP_MAY_BEGIN = frozenset({"main", "postcombat_main"})


def end_step(ctx: Context, state: GameState, *, choices: Answers = None) -> Outcome:
    """The end step (513): "at the beginning of the end step" abilities and
    delayed triggers ("at the beginning of the next end step") trigger; with
    ``auto_triggers`` they resolve."""
    ctx.check(state)
    check_game_on(state, "begin the end step")
    check_stack_empty(state, "begin the end step")
    if state.step not in END_STEP_MAY_BEGIN:
        raise IllegalActionError(f"can't begin the end step now: the game is at "
                                 f"{state.step!r}; it follows the last main phase (513)",
                                 rule="500.1")
    tx = Tx(ctx, _evolve(state, step="end_step", combat=None), answers=choices)
    tx.emit(Event("step", "513.1", "end_step"))
    # 513.2: a delayed trigger created during this end step waits for the next
    # one; those that wait now were all created before it began.
    return commit(tx, extra=fire_delayed(tx, lambda d: d.when == "end_step"))


def cleanup(ctx: Context, state: GameState, *, choices: Answers = None) -> Outcome:
    """The cleanup step (514): damage is removed and "until end of turn" and
    "this turn" effects end, at once (514.2); then state-based actions and
    triggers (514.3a). If anything happened, another cleanup step follows."""
    expect(ctx, state, "cleanup", "begin the cleanup step")
    events: list[Event] = []
    made: list[ChoiceMade] = []
    acting: set[str] = set()
    spent = None  # one command: its cleanup steps share its bounds
    for _ in range(MAX_CLEANUPS):
        tx = Tx(ctx, _evolve(state, step="cleanup"), answers=choices, spent=spent)
        spent = tx.spent
        tx.emit(Event("step", "514.1", "cleanup"))
        damaged = {p.id: p.evolve(damage=0) for p in tx.state.objects.values()
                   if p.damage and p.zone == "battlefield"}
        tx.state = tx.state.with_permanents(damaged)
        for obj in damaged:
            tx.emit(Event("damage_removed", "514.2", object=obj))
        end_effects(tx, lambda duration, condition: duration in (
            "end_of_turn", "end_of_combat", "this_combat"), "514.2")
        marker = len(tx.events)
        settle(tx, extra=fire_delayed(tx, lambda d: d.when == "cleanup"))
        events.extend(tx.events)
        made.extend(tx.made)
        state = tx.state
        happened = len(tx.events) > marker
        if not happened or state.game_over is not None:
            return Outcome(state, events, made)
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


def end_turn(ctx: Context, state: GameState, *, choices: Answers = None,
             resolve: Callable[[GameState], Outcome]) -> Outcome:
    """The rest of the turn after its last main phase: the end step (513)
    and the cleanup step (514).

    :param resolve: resolves the trigger on top of the stack (the engine's
        :meth:`~redzone.Engine.resolve_trigger`, with ``choices`` as answers),
        for what is left on it after the end step with ``auto_triggers`` off."""
    first = end_step(ctx, state, choices=choices)
    if first.state.game_over is not None:
        return first
    state = first.state
    events = list(first.events)
    made = list(first.choices)
    while state.stack:  # with auto_triggers off: what is left resolves (608)
        out = resolve(state)
        state = out.state
        events.extend(out.events)
        made.extend(out.choices)
        if state.game_over is not None:
            return Outcome(state, events, made)
    second = cleanup(ctx, state, choices=choices)
    return Outcome(second.state, (*events, *second.events), (*made, *second.choices))


def _without_ceased(state: GameState) -> GameState:
    """``state`` without the tokens that ceased to exist (111.7-111.8,
    704.5d) and their last known information, so that a long game's state
    doesn't grow with every token it ever made.

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
    for delayed in state.delayed:
        named.update((delayed.source, delayed.object))
    gone = [i for i in ceased if i not in named]
    if not gone:
        return state
    objects = state.objects.thaw()
    lki = state.lki.thaw()
    for obj in gone:
        del objects[obj]
        lki.pop(obj, None)
    return _evolve(state, objects=FrozenMap(objects), lki=FrozenMap(lki))


def begin_turn(ctx: Context, state: GameState, active_player: str | None = None, *,
               untap: bool = True, choices: Answers = None) -> Outcome:
    """Begin the next turn (500, 502, 302.6).

    The new active player's permanents are no longer summoning sick: that
    player has controlled them continuously since the turn began (302.6).
    The untap step untaps them (502.3) unless ``untap`` is false. Per-turn
    and per-combat plugin state is cleared.

    :param active_player: whose turn it is; default: the next player in turn
        order still in the game (800.4k).
    :raises IllegalActionError: when the turn isn't over (the cleanup step
        hasn't happened), the game is over, or the player has left the game.
    """
    ctx.check(state)
    check_game_on(state, "begin a turn")
    check_stack_empty(state, "begin a turn")
    if state.step != "cleanup":
        raise IllegalActionError(f"can't begin a turn now: the game is at {state.step!r}; a "
                                 "turn begins after the last one's cleanup step (514)",
                                 rule="500.1")
    order = state.turn_order
    if active_player is None:
        i = order.index(state.active_player)
        mates = state.teammates(state.active_player)
        active_player = next((p for p in (*order[i + 1:], *order[:i + 1])
                              if not state.players[p].lost and p not in mates),
                             state.active_player)
    elif active_player not in state.players:
        raise IllegalActionError(f"begin_turn: there is no player {active_player!r}",
                                 rule="102.1", objects=(active_player,))
    elif state.players[active_player].lost:
        raise IllegalActionError(f"begin_turn: {active_player!r} has left the game, so their "
                                 "turn doesn't begin", rule="800.4k", objects=(active_player,))
    slots = state.plugin_state
    if any(entry.scope != "game" for entry in slots.values()):
        slots = FrozenMap((k, v) for k, v in slots.items() if v.scope == "game")
    turn = state.turn + 1
    changed = {}
    team = {active_player, *state.teammates(active_player)}  # shared team turns (805)
    for perm in state.objects.values():
        if perm.zone != "battlefield" or perm.controller not in team:
            continue
        new = perm
        if perm.summoning_sick:
            new = new.evolve(summoning_sick=False)
        if untap and perm.tapped:
            new = new.evolve(tapped=False)
        if new is not perm:
            changed[perm.id] = new
    if any(p.lands_played for p in state.players.values()):  # 305.2: "each turn"
        state = state.with_players({i: _evolve(p, lands_played=0)
                                    for i, p in state.players.items() if p.lands_played})
    new_state = _evolve(_without_ceased(state), turn=turn, active_player=active_player,
                        step="main", combat=None, combats=0, plugin_state=slots)
    tx = Tx(ctx, new_state, answers=choices)
    tx.emit(Event("turn", "500.1", "main", player=active_player, amount=turn))
    if untap:
        tx.emit(Event("step", "502.1", "untap"))
        for obj, perm in changed.items():
            if state.objects[obj].tapped and not perm.tapped:
                tx.emit(Event("untap", "502.3", "untap", object=obj))
    tx.state = tx.state.with_permanents(changed)
    return commit(tx)


__all__ = ["begin_turn", "cleanup", "end_step", "end_turn"]
