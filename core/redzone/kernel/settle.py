"""How a command settles: what the kernel does between a command's actions
and the state the caller gets back.

A command changes its working copy (:class:`~redzone.kernel.tx.Tx`) with the
author's tools; then :func:`settle` performs state-based actions until none
applies (704.3, the loop is :func:`perform_state_based_actions`), ends the
effects whose "for as long as" stopped holding (611.2b), ends the game if it
is over (104) or takes the players who lost out of it (800.4a), lets plugins
record what they remember, puts what triggered on the stack in APNAP order
(603.3b) and, with ``auto_triggers``, resolves it (608). :func:`commit` settles
and freezes the working copy into an :class:`~redzone.kernel.tx.Outcome`.

These are the kernel's: a plugin's actions and resolutions use the tools of
:class:`~redzone.kernel.tx.Tx`, never these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from redzone.kernel import layers as _layers
from redzone.kernel import sba as _sba
from redzone.kernel import validate as _validate
from redzone.kernel import zones as _zones
from redzone.kernel.answers import MAX_TRIGGERS
from redzone.kernel.errors import IllegalActionError, PluginError
from redzone.kernel.events import Event, leaves_battlefield
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.hooktypes import Action, StateBasedAction
from redzone.kernel.loops import LOOP_AFTER, Positions
from redzone.kernel.model import (
    CHOICE_KINDS,
    PLAYER_DURATIONS,
    SBA_BUILT,
    SBA_DIRTY,
    Choice,
    Condition,
    DelayedTrigger,
    Effect,
    GameOver,
    GameState,
    Modification,
    Permanent,
    PluginState,
    Trigger,
)
from redzone.kernel.references import affected_ids
from redzone.kernel.results import DamageStepRecord
from redzone.kernel.tx import (
    Outcome,
    Tx,
    _bound_error,
    choose_numbered,
    condition_holds,
    destroy_replaced,
    freeze_value,
    move_many,
)

#: Which effects, shields and modifications end: ``ends(duration, condition)``.
Ends = Callable[[str, Condition | None], bool]
#: Which effects of a player's duration (:data:`~redzone.kernel.model.PLAYER_DURATIONS`)
#: end: ``owned(duration, player)``, ``player`` being :func:`whose` they are.
Owned = Callable[[str, "str | None"], bool]


def commit(tx: Tx, *, extra: Sequence[Trigger] = (),
           damage_steps: tuple[DamageStepRecord, ...] = (), since: int = 0) -> Outcome:
    """Settle a working copy and freeze it into an :class:`Outcome`.

    :param extra: triggers to put on the stack with those that triggered.
    :param damage_steps: the outcome's records of combat damage steps.
    :param since: how many of the working copy's first events an earlier
        command already settled (they were recorded and triggered then: an
        ability triggers once per event, 603.2).
    """
    settle(tx, extra=extra, since=since)
    return outcome(tx, damage_steps)


def outcome(tx: Tx, damage_steps: tuple[DamageStepRecord, ...] = ()) -> Outcome:
    """The frozen result of a working copy, as it is now (the command ends:
    verify mode compares what plugins were given)."""
    if tx.hooks.verify:
        tx.hooks.command_finished()
    return Outcome(tx.state, tx.events, tx.made, damage_steps)


def settle(tx: Tx, *, extra: Sequence[Trigger] = (), since: int = 0,
           resolve: bool = True) -> None:
    """Finish the command: state-based actions until none applies (704.3),
    effects whose condition stopped holding end (611.2b), the game ends if
    it is over (104), plugins record, delayed and ordinary triggers go on
    the stack (603.3b) and, with ``auto_triggers``, resolve.

    :param tx: the command's working copy.
    :param extra: triggers to put on the stack with those that triggered.
    :param since: the events to record and trigger on start at this index
        (the ones before it were settled already).
    :param resolve: whether to resolve the stack (with ``auto_triggers``).

    In the untap step no player receives priority (502.4): no state-based
    actions are performed (704.3), and what triggers is held
    (:attr:`GameState.held`) for the upkeep (503.1a); nothing resolves."""
    hooks = tx.hooks
    while True:
        state = tx.state
        priority = state.step != "untap"
        if state.conditions:
            _end_conditional(tx)
            state = tx.state
        if state.continuous:  # the layer system (613), only when effects apply
            apply_layers(tx)
        found = perform_state_based_actions(tx, _players_lost) if priority else None
        if tx.state.game_over is not None:
            break
        if not (tx.state.conditions and _conditional_pending(tx)):
            break
    if found is None:  # (no round found it clean: the game ended, or the untap step)
        within_bounds(tx, tx.state)
    # (A hook nobody would be asked about isn't called; verify mode calls
    # the ones it checks the state after. Which hooks are silent depends on
    # the keywords present and the gated fields, which neither the damage
    # event nor what plugins record changes: found once, by the last round
    # of state-based actions unless the game ended.)
    verify = hooks.verify
    state = tx.state
    silent = found if found is not None else hooks.silent(state)
    if tx.dealt:
        if verify or "redzone_damage_event" not in silent:
            hooks.damage_event(state, tuple(tx.dealt), tuple(tx.results))
        tx.dealt, tx.results = [], []
    events = tx.events[since:] if since else tx.events
    if events and "redzone_record" not in silent:
        _record(tx, events)
        state = tx.state
    if state.game_over is not None:
        return
    if extra or state.delayed or state.written or verify \
            or "redzone_triggers" not in silent:
        _put_triggers(tx, events, extra=extra, hold=not priority)
    if resolve and priority and tx.state.stack:
        resolve_stack(tx)


# -- state-based actions on the working copy (704) ---------------------------------


def perform_state_based_actions(
        tx: Tx, players_lost: Callable[[Tx, Sequence[str]], None]) -> frozenset[str] | None:
    """Perform state-based actions on a working copy until none applies
    (704.3).

    :param tx: the command's working copy.
    :param players_lost: what follows when players lose (the game ends, or
        they leave it: 104, 800.4a), called after the round in which they
        lost; the loop stops if it ended the game.
    :returns: the hooks silent for the working copy's state as it is left
        (``hooks.silent``: the last round found them), or ``None`` when the
        game ended.
    """
    hooks = tx.hooks
    work = tx
    silent: frozenset[str] = frozenset()
    for _ in range(1000):
        # (A state notes the players and permanents changed since it was
        # last found clean: the core checks only those, and when none
        # changed it checks nothing and there are no marks to clear.
        # Clearing marks changes neither the keywords present nor a gated
        # field, so the hooks silent for the state stay so. A state never
        # checked is clean for the core when its note is empty, not for the
        # plugins' verdicts about one permanent, unless none would be asked.)
        state = tx.state
        notes = state.__dict__
        silent = hooks.silent(state)
        clean = notes.get(SBA_DIRTY) == _NOTHING and (
            SBA_BUILT not in notes or "redzone_permanent_state_based_actions" in silent)
        actions = [] if clean else _sba.core_actions(
            state, tx.context.edition.legend_rule_per_player)
        if actions and actions[0].kind == "bound":  # (a count past what a state holds)
            within_bounds(tx, state)
        if "redzone_state_based_actions" not in silent:
            actions.extend(hooks.state_based_actions(state))
        if not clean and "redzone_permanent_state_based_actions" not in silent:
            # (About the permanents that changed alone, as the core's own verdicts.)
            changed = _sba.changed(state)
            if changed:
                actions.extend(hooks.permanent_state_based_actions(state, changed))
        if not clean:
            drew, marked = _sba.cleared_marks(state)
            if drew or marked:
                work._put_players(drew)
                work._put(marked)
                state = tx.state
        if not actions:
            # Clean: later changes are noted, and only they are checked (704.3).
            state.__dict__[SBA_DIRTY] = _NOTHING
            state.__dict__.pop(SBA_BUILT, None)
            break
        for action in actions:
            if action.keep is not None:  # a choice of what to keep (704.5j), a protector (704.5x-y)
                actions = _kept(tx, actions)
                break
        actions = _sba._dedupe(actions)
        before = state
        to_graveyard = {a.object for a in actions if a.kind == "graveyard"}
        moves: list[tuple[str, str]] = []
        lost: list[str] = []
        ceased: list[str] = []
        annihilating: list[StateBasedAction] = []
        # Whether destruction can be stopped or replaced (702.12b, 701.19, 614.8).
        replaceable = "redzone_cannot_be_destroyed" not in silent \
            or "redzone_destruction_replacements" not in silent
        label = tx.step
        for action in actions:
            if action.kind == "cease":
                ceased.append(action.object or "")
                continue
            if action.object is not None:
                # (Only a replacement of destruction changes zones before the
                # moves: without one, the state read above is current there.)
                perm = work._now(action.object) if replaceable \
                    else state.objects._items.get(action.object)
                if perm is None or perm.zone != "battlefield":
                    continue
            if action.kind == "destroy":
                assert action.object is not None
                if action.object in to_graveyard:
                    continue
                if replaceable and destroy_replaced(tx, action.object):
                    continue
                tx.events.append(Event("destroyed", action.rule, label,
                                        object=action.object))
                moves.append((action.object, action.rule))
            elif action.kind == "lose":
                player = work._player_now(action.player or "")
                if player is None:
                    raise PluginError(f"a state-based action names no player: {action!r}",
                                      hook="redzone_state_based_actions")
                if not player.lost:
                    work._put_players(
                        {player.id: player.evolve(lost=True, loss_rule=action.rule)})
                    tx.emit(Event("lost", action.rule, player=player.id))
                    lost.append(player.id)
            elif action.kind == "annihilate_counters":
                # After the moves: one event (704.3), so a creature leaving in
                # it leaves with both kinds of counters (603.10a: persist and
                # undying read them), and its counters go with it (400.7).
                annihilating.append(action)
            elif action.kind == "graveyard":
                assert action.object is not None
                moves.append((action.object, action.rule))
            elif action.kind == "protector":
                assert perm is not None
                if perm.id not in to_graveyard:
                    protect(tx, perm, action.player or "", action.rule)
            else:
                raise PluginError(f"unknown state-based action kind {action.kind!r}",
                                  hook="redzone_state_based_actions")
        if moves:
            tx.events.extend(move_many(tx, moves, "graveyard", label=label))
        for action in annihilating:
            perm = work._now(action.object or "")
            if perm is None or perm.zone != "battlefield":
                continue
            n = min(perm.counters.get("+1/+1", 0), perm.counters.get("-1/-1", 0))
            counters = perm.counters.thaw()
            counters["+1/+1"] -= n
            counters["-1/-1"] -= n
            work._put({perm.id: perm.evolve(counters=counters)})
            tx.emit(Event("counters_removed", action.rule, target=perm.id,
                          amount=n, counter="+1/+1 and -1/-1"))
        if ceased:
            cease(tx, ceased)
        if lost:
            players_lost(tx, lost)
            if tx.state.game_over is not None:
                return None
        if tx.state is before:
            break
    return silent


_NOTHING: frozenset[str] = frozenset()


def within_bounds(tx: Tx, state: GameState, plugin: str | None = None) -> None:
    """The counts of the players and permanents changed since ``state``, the
    working copy's, was last found clean of state-based actions (it notes
    them) are within the bounds of a state's counts
    (:data:`~redzone.kernel.validate.STATE_BOUNDS`), so that the state a
    command returns can be saved and loaded back: no rule caps life,
    poison, counters or damage (107.1), but a state past those bounds would
    be one its saved form refuses.

    :param plugin: the plugin acting (default: the working copy's).
    :raises BoundError: naming the plugin (or the kernel's or the
        scenario's actions), the bound and the count.
    """
    found = _validate.out_of_bounds(state, state.__dict__.get(SBA_DIRTY))
    if found is not None:
        bound, limit, problem = found
        raise _bound_error(tx, bound, limit, problem, plugin=plugin)


def _kept(tx: Tx, actions: list[StateBasedAction]) -> list[StateBasedAction]:
    """``actions`` with each that carries a choice of what to keep (704.5j)
    made and replaced by its action on every option not chosen."""
    out: list[StateBasedAction] = []
    for action in actions:
        choice = action.keep
        if choice is None:
            out.append(action)
            continue
        chosen = choose_numbered(tx, choice)
        if action.kind == "protector":  # the one chosen protects it (704.5x-y)
            out.append(StateBasedAction("protector", action.rule, action.object, chosen[0]))
            continue
        out.extend(StateBasedAction(action.kind, action.rule, option)
                   for option in choice.options if option not in chosen)
    return out


def protect(tx: Tx, battle: Permanent, player: str, rule: str) -> None:
    """``player`` becomes the protector of ``battle`` (310.9f, 704.5x-y); a
    battle being attacked is removed from combat as its protector changes
    (506.4), and the creatures attacking it attack nothing (506.4c)."""
    tx.remove_from_combat(battle.id, "506.4")
    tx._put({battle.id: battle.evolve(protector=player)})
    tx.emit(Event.make("protector", rule, object=battle.id, player=player,
                       previous=battle.protector))


def cease(tx: Tx, objects: Sequence[str]) -> None:
    """Tokens that left the battlefield cease to exist (111.7, 704.5d)."""
    state = tx.state
    changed = {}
    for obj in objects:
        perm = state.objects.get(obj)
        if perm is None or not perm.token or perm.zone in ("battlefield", "ceased"):
            continue
        changed[obj] = perm.evolve(zone="ceased")
        tx.emit(Event.make("ceases_to_exist", "704.5d", object=obj, zone=perm.zone))
    tx._put(changed, left=True)



def state_based_actions(tx: Tx) -> None:
    """Perform state-based actions until none applies (704.3); end the game
    or take the players who lost out of it (104, 800.4a)."""
    perform_state_based_actions(tx, _players_lost)


def resolve_stack(tx: Tx) -> None:
    """With ``auto_triggers``, resolve the stack until it is empty or the
    game is over (608).

    Past :data:`~redzone.kernel.loops.LOOP_AFTER` resolutions, the position
    before each further one is noted (:class:`~redzone.kernel.loops.Positions`):
    one the game comes back to with no choice made since (none asked,
    answered or taken by default) is a loop of mandatory actions, and the
    game is a draw (104.4b); what waits on the stack stays there. A loop
    with a choice in it, or a chain that never repeats a position, goes on
    until it ends or reaches the trigger bound."""
    if not tx.context.auto_triggers:
        return
    resolved = 0
    positions: Positions | None = None
    while tx.state.stack and tx.state.game_over is None:
        resolved += 1
        if resolved > LOOP_AFTER:
            if positions is None:
                positions = Positions()
            if positions.repeated(tx.state, len(tx.made)):
                end_game(tx, "104.4b", draw=True)
                return
        resolve_top(tx, None)


def _record(tx: Tx, events: Sequence[Event]) -> None:
    """Let plugins update their own slots (``redzone_record``)."""
    if not events:
        return
    changed = tx.hooks.record(tx.state, tuple(events))
    if not changed:
        return
    slots = tx.state.plugin_state.thaw()
    for name, entry in changed.items():
        try:
            value = freeze_value(entry.value, f"the state of plugin {name!r}")
        except (IllegalActionError, RecursionError) as exc:
            # (a value nested deeper than Python recurses is the plugin's too)
            problem = exc.message if isinstance(exc, IllegalActionError) else (
                "a value nested too deep to freeze")
            raise tx.hooks.fault(name, "redzone_record", tx.state,
                                 f"returned a slot value that can't be kept: {problem}"
                                 ) from exc
        slots[name] = PluginState(value, entry.scope)
    tx._set(plugin_state=FrozenMap(slots))


# -- durations (611.2, 514.2, 511.3) -------------------------------------------------


def _conditional_pending(tx: Tx) -> bool:
    return any(not condition_holds(tx, c) for c in tx.state.conditions)


def _end_conditional(tx: Tx) -> None:
    """End every effect whose "for as long as" stopped holding (611.2b)."""
    if not tx.state.conditions:
        return
    end_effects(tx, lambda duration, condition: duration == "while"
                and condition is not None and not condition_holds(tx, condition), "611.2b")


def whose(state: Any, item: Any, permanent: Permanent | None = None) -> str | None:
    """The player a duration of :data:`~redzone.kernel.model.PLAYER_DURATIONS`
    belongs to ("until *your* next turn", "during *its controller's* next
    untap step"): its ``owner`` (the controller of the spell or ability
    that created an "until your next turn" effect, 611.2a), else the
    player its condition names, else an effect's
    ``player``, else the player it protects or the controller of the object
    it applies to (``to``), else the controller of its ``source``; for a
    modification, the controller of its source, else the permanent's
    controller."""
    owner = getattr(item, "owner", None)
    if owner is not None:  # the controller of what created it (611.2a)
        return str(owner)
    condition = getattr(item, "condition", None)
    if condition is not None and condition.player is not None:
        return str(condition.player)
    if isinstance(item, Effect) and item.player is not None:
        return item.player
    objects = state.objects
    source = getattr(item, "source", None)
    if permanent is not None:  # a modification
        if source is not None and source in objects:
            return str(objects[source].controller)
        return permanent.controller
    to = getattr(item, "to", None)
    if to is not None and to in state.players:
        return str(to)
    for ref in (to, source):
        if ref is not None and ref in objects:
            return str(objects[ref].controller)
    return None


def _controller_after(perm: Permanent, kept: tuple[Modification, ...]) -> str | None:
    """Who controls ``perm`` once only its modifications ``kept`` still apply
    (layer 2, 613.1b): the controller of the latest control effect still
    applying, else the controller before the first one; ``None`` when no
    control effect ever applied to it."""
    controls = [m for m in perm.modifications if m.controller is not None]
    if not controls:
        return None
    still = [m.controller for m in kept if m.controller is not None]
    return still[-1] if still else (controls[0].control_from or perm.controller)


def end_effects(tx: Tx, ends: Ends, rule: str, *, owned: Owned | None = None,
                removed: str | None = None) -> None:
    """End every effect, shield and modification for which
    ``ends(duration, condition)`` is true, with an ``effect_ends`` event
    for each (611.2, 514.2, 511.3); and the continuous effect with the id
    ``removed``, if given.

    :param owned: for those whose duration belongs to a player
        (:data:`~redzone.kernel.model.PLAYER_DURATIONS`), whether it ends
        now: ``owned(duration, whose(...))``; without it they go on."""
    state = tx.state

    def ends_now(item: Any, perm: Permanent | None = None) -> bool:
        if item.duration in PLAYER_DURATIONS:
            return owned is not None and owned(item.duration, whose(state, item, perm))
        return ends(item.duration, item.condition)

    events: list[Event] = []
    effects = []
    for effect in state.effects:
        if ends_now(effect):
            events.append(Event.make("effect_ends", rule, object=effect.id or None,
                                     target=effect.to, source=effect.source,
                                     player=effect.player, amount=effect.amount,
                                     effect=effect.kind))
        else:
            effects.append(effect)
    shields = []
    for shield in state.shields:
        if ends_now(shield):
            events.append(Event.make("effect_ends", rule, object=shield.id,
                                     target=shield.to, effect="shield", mode=shield.mode))
        else:
            shields.append(shield)
    continuous = []
    for ce in state.continuous:
        if ce.id == removed or ends_now(ce):
            events.append(Event.make("effect_ends", rule, object=ce.id, source=ce.source,
                                     effect="continuous"))
        else:
            continuous.append(ce)
    changed: dict[str, Permanent] = {}
    control: dict[str, str] = {}
    for perm in state.objects.values():
        if not perm.modifications:
            continue
        kept = tuple(m for m in perm.modifications if not ends_now(m, perm))
        if len(kept) != len(perm.modifications):
            changed[perm.id] = perm.evolve(modifications=kept)
            back = _controller_after(perm, kept)
            if back is not None and perm.zone == "battlefield":
                control[perm.id] = back
            for mod in perm.modifications:
                if mod not in kept:
                    events.append(Event.make("effect_ends", rule, target=perm.id,
                                             effect="modification",
                                             change=_describe_modification(mod)))
    if not events:
        return
    new = state.with_permanents(changed)
    if len(effects) != len(state.effects) or len(shields) != len(state.shields):
        new = new.evolve(effects=tuple(effects), shields=tuple(shields))
    if len(continuous) != len(state.continuous):
        new = new.evolve(continuous=tuple(continuous))
    tx._take(new, events)
    if len(continuous) != len(state.continuous):
        apply_layers(tx)  # (the last one may have ended: the own values come back)
    for obj, player in control.items():
        change_control(tx, obj, player, "611.2")


def apply_layers(tx: Tx) -> None:
    """Apply the layer system (613) to the board: each permanent's layered
    characteristics are written into it (:func:`redzone.kernel.layers.baked`).
    A permanent whose new types leave it out of combat is removed from it
    (506.4): an attacking or blocking creature that stopped being a creature
    or became a battle, and a planeswalker or battle being attacked that
    stopped being one."""
    changed = _layers.baked(tx.state)
    if not changed:
        return
    before = tx.state.objects
    tx.put(*changed.values())
    combat = tx.state.combat
    if combat is None:
        return
    for obj in changed:
        perm, old = tx.state.objects[obj], before[obj].types
        types = perm.types
        fights, attacked = combat.in_combat(obj), obj in combat.attacks.values()
        fights_out = fights and ("creature" not in types
                                 or ("battle" in types and "battle" not in old))
        attacked_out = attacked and _stops_being_attacked(perm, old)
        both = fights and attacked  # a blocking creature planeswalker (506.4d)
        if (fights_out or attacked_out) and (not both or (fights_out and attacked_out)):
            dual = "planeswalker" in old and "battle" in old
            tx.remove_from_combat(obj, "506.4d" if both else "506.4e" if dual else "506.4")
        elif fights_out or attacked_out:
            part = "blocking" if fights_out else "attacked"
            tx._set(combat=_sba.without_part(combat, obj, part))
            tx.emit(Event(f"no_longer_{part}", "506.4d", object=obj))
        else:
            continue
        combat = tx.state.combat
        if combat is None:
            return


def _stops_being_attacked(perm: Permanent, old: frozenset[str] | tuple[str, ...]) -> bool:
    """Whether ``perm``, attacked with the types ``old``, stops being attacked
    now (506.4): it stopped being a planeswalker or a battle, unless it is
    still a battle (506.4e), or still a planeswalker its protector controls
    (506.4e)."""
    types = perm.types
    lost_walker = "planeswalker" in old and "planeswalker" not in types
    lost_battle = "battle" in old and "battle" not in types
    if lost_walker and lost_battle:
        return True
    if lost_walker:
        return not ("battle" in old and "battle" in types)
    if lost_battle:
        return not ("planeswalker" in old and "planeswalker" in types
                    and perm.controller == perm.protector)
    return False


def change_control(tx: Tx, target: str, player: str, rule: str) -> None:
    """``player`` controls ``target`` from now (layer 2, 613.1b): when its
    controller changes it is removed from combat (506.4) and hasn't been
    under its new controller's control since their turn began (302.6); a
    ``control`` event says so, before the removal it causes (events are in
    causal order)."""
    perm = tx.state.objects[target]
    if perm.controller == player:
        return
    tx.put(perm.evolve(controller=player, summoning_sick=True))
    tx.emit(Event.make("control", rule, object=target, player=player,
                       previous=perm.controller))
    tx.remove_from_combat(target, "506.4")


def _describe_modification(mod: Modification) -> str:
    parts = []
    if mod.power or mod.toughness:
        parts.append(f"{mod.power:+d}/{mod.toughness:+d}")
    if mod.add_keywords:
        parts.append("gains " + ", ".join(k.text for k in mod.add_keywords))
    if mod.remove_keywords:
        parts.append("loses " + ", ".join(mod.remove_keywords))
    if mod.controller is not None:
        parts.append(f"controlled by {mod.controller}")
    return "; ".join(parts) or "effect"


# -- the end of the game (104, 800.4) ------------------------------------------------


def _players_lost(tx: Tx, lost: Sequence[str]) -> None:
    """Players who just lost leave the game (104.5). If at most one player
    or team is left, the game is over (104.2a, 104.2c; a draw if none is,
    104.4a, 104.4d between teams);
    otherwise each leaves as 800.4a says and the game goes on."""
    state = tx.state
    if state.teams:
        # 810.8a: if either player on a team loses, the team loses.
        more = [m for p in lost for m in state.teammates(p) if not state.players[m].lost]
        for mate in dict.fromkeys(more):
            state = state.with_players(
                {mate: state.players[mate].evolve(lost=True, loss_rule="810.8a")})
            tx.emit(Event("lost", "810.8a", player=mate))
        tx.state = state  # (read whole below)
        lost = [*lost, *dict.fromkeys(more)]
    remaining = state.in_game
    sides = {state.team_of(p) or p for p in remaining}
    if len(sides) <= 1 and remaining and state.team_of(remaining[0]) is not None:
        # 104.2c: a team with a player still in the game wins when every
        # other team has left it (a player on no team wins by 104.2a, below).
        end_game(tx, "104.2c", remaining, team=state.team_of(remaining[0]))
        return
    if len(remaining) <= 1:
        draw = not remaining
        # a draw: every remaining player (104.4a) or team (104.4d) lost at once
        rule = ("104.4d" if state.teams else "104.4a") if draw else "104.2a"
        end_game(tx, rule, remaining, draw=draw)
        return
    for player in lost:
        _leave_game(tx, player)


def end_game(tx: Tx, rule: str, winners: Sequence[str] = (), *, draw: bool = False,
             team: str | None = None) -> None:
    """The game is over (104.1): ``winners`` won (104.2), or it is a draw
    (104.4); the players who lost so far are its losers. The state's
    :class:`GameOver` and a ``game_over`` event say how, citing ``rule``.

    :param rule: the rule that ends it (``"104.2a"``, ``"104.4a"``,
        ``"104.4b"`` ...).
    :param winners: the players who won, in turn order (none for a draw).
    :param draw: whether the game is a draw.
    :param team: the winning team, when a team won (104.2c).
    """
    state = tx.state
    losers = tuple(p for p in state.turn_order if state.players[p].lost)
    tx._set(game_over=GameOver(winners=tuple(winners), losers=losers, draw=draw,
                               step=tx.step, rule=rule))
    tx.emit(Event.make("game_over", rule, winners=tuple(winners), team=team, draw=draw))


def _leave_game(tx: Tx, player: str) -> None:
    """800.4a: the objects the player owns leave the game and the effects
    that give them control of objects end (control goes back as when such
    an effect ends, 611.2); then the ones they still control that others own
    are exiled, their abilities on the stack and delayed triggers cease to
    exist (800.4a, 800.4d), and creatures attacking them are removed from
    combat (the scenario format's contract; 800.4e). A creature attacking
    their planeswalker or a battle they protect keeps attacking: the
    planeswalker is removed from combat as it leaves or changes control
    (506.4, 506.4c), the battle stays attacked until it has a new protector
    (704.5x)."""
    state = tx.state
    combat = state.combat
    if combat is not None:
        for attacker, attacked in list(combat.attacks.items()):
            if attacked == player and tx.state.combat is not None \
                    and attacker in tx.state.combat.attacks:
                tx.remove_from_combat(attacker, "800.4a")
    _end_control_of(tx, player)
    owned = [p.id for p in tx.state.objects.values()
             if p.zone == "battlefield" and p.owner == player]
    controlled = [p.id for p in tx.state.objects.values()
                  if p.zone == "battlefield" and p.controller == player and p.owner != player]
    if owned:
        tx.events.extend(move_many(tx, [(o, "800.4a") for o in owned], "left_game"))
    elsewhere, events = _zones.leave_the_game(tx.state, player, tx.step)
    if events:
        tx._take(elsewhere, events, labelled=True)
    if controlled:
        tx.events.extend(move_many(tx, [(o, "800.4a") for o in controlled], "exile"))
    work = tx
    stack = tuple(t for t in work._field("stack") if t.controller != player)
    delayed = tuple(d for d in work._field("delayed") if d.controller != player)
    work._set(stack=stack, delayed=delayed)
    tx.emit(Event("left_game", "800.4a", player=player))


def _end_control_of(tx: Tx, player: str) -> None:
    """800.4a: the control-changing effects (layer 2, 613.1b) that give
    ``player`` control of another's permanent end; each such permanent goes
    back to the controller of the latest control effect still applying to
    it, else to the one before the first (:func:`_controller_after`)."""
    for perm in list(tx.state.objects.values()):
        if perm.zone != "battlefield" or perm.owner == player or not any(
                m.controller == player for m in perm.modifications):
            continue
        kept = tuple(m for m in perm.modifications if m.controller != player)
        back = _controller_after(perm, kept)
        tx.put(perm.evolve(modifications=kept))
        for mod in perm.modifications:
            if mod.controller == player:
                tx.emit(Event.make("effect_ends", "800.4a", target=perm.id,
                                   effect="modification", change=_describe_modification(mod)))
        if back is not None and back != player:
            change_control(tx, perm.id, back, "800.4a")


# -- triggered abilities (603, 608) --------------------------------------------------


def _put_triggers(tx: Tx, events: Sequence[Event], *, extra: Sequence[Trigger] = (),
                  hold: bool = False) -> None:
    """Put what triggered on ``events`` on the stack in APNAP order
    (603.3b): the plugins' triggers, the delayed triggers whose moment
    came ("leaves", 603.7), and ``extra``; with ``hold`` (no player would
    receive priority: 502.4), keep them in :attr:`GameState.held` instead."""
    state = tx.state
    found = list(extra)
    if events and tx.hooks.implemented("redzone_triggers"):
        found.extend(tx.hooks.triggers(state, tuple(events), tx.spent))
        tx.acting.update(tx.spent.triggering)
    own = 0  # (the abilities triggering here that the plugins' count doesn't hold)
    if state.delayed:
        left = {e.object for e in events if leaves_battlefield(e)}
        if left:
            now = state.objects._items

            def gone(d: DelayedTrigger) -> bool:
                # 603.7a: the object it watches left since it was created
                # (the number noted then is no longer the object's).
                obj = d.object
                return (obj in left and obj in now
                        and (obj not in d.objects or now[obj].object != d.objects[obj]))

            fired = fire_delayed(tx, lambda d: d.when == "leaves" and gone(d))
            found.extend(fired)
            own += len(fired)
            state = tx.state
    if state.written and events:
        written = written_triggers(state, events, tx.together)
        found.extend(written)
        own += len(written)
    if own:
        tx.spent.triggered += own
        if tx.spent.triggered > MAX_TRIGGERS:
            raise _bound_error(tx, "triggers", MAX_TRIGGERS,
                               f"made more than {MAX_TRIGGERS:,} abilities trigger in one "
                               "command (an ability that triggers on its own resolution "
                               "loops for ever)")
    found = [t for t in found if t.controller in state.players
             and not state.players[t.controller].lost]  # 800.4d
    if not found:
        return
    tx.acting.update(t.plugin for t in found if t.plugin)
    if hold:
        tx._set(held=(*tx._field("held"), *found))
        return
    apnap = state.apnap()
    stacked: list[Trigger] = []
    count = state.triggered
    labels_used: dict[str, int] = {}
    for player in apnap:
        mine = sorted((t for t in found if t.controller == player), key=_trigger_key)
        if not mine:
            continue
        labelled = []
        for trigger in mine:
            base = f"{trigger.kind}@{trigger.source}"
            n = labels_used.get(base, 0) + 1
            labels_used[base] = n
            labelled.append((base if n == 1 else f"{base}#{n}", trigger))
        if len(labelled) > 1:
            # 603.3b: the player puts theirs on the stack in the order they
            # choose; the default doesn't depend on plugin registration.
            names = tuple(label for label, _ in labelled)
            chosen = choose_numbered(tx, Choice(
                player, player, "order", names, default=names, min=len(names),
                max=len(names), rule="603.3b", key=f"order@{player}",
                text="the order in which their triggered abilities go on the stack "
                     "(the first put there resolves last)"))
            by_label = dict(labelled)
            labelled = [(label, by_label[label]) for label in chosen]
        for label, waiting in labelled:
            ready = _stacking_choices(tx, label, waiting)
            if ready is None:
                continue
            count += 1
            ready = _bound(state, ready).evolve(id=f"t{count}")
            stacked.append(ready)
            tx.emit(Event.make("trigger", "603.3b", source=ready.source,
                               player=ready.controller, object=ready.id,
                               ability=ready.kind, text=ready.text or None))
    tx._set(stack=(*tx._field("stack"), *stacked), triggered=count)


def _trigger_key(trigger: Trigger) -> tuple[Any, ...]:
    """The default order of one player's simultaneous triggers: by source,
    then kind and text, never by which plugin answered first."""
    return (trigger.source, trigger.kind, trigger.text, trigger.rule, trigger.amount or 0,
            trigger.targets)


def _stacking_choices(tx: Tx, label: str, trigger: Trigger) -> Trigger | None:
    """Qualify a trigger's offers and make its targets and modes now
    (603.3c-d); ``None`` when a required target has no legal option (the
    ability is removed from the stack)."""
    if not trigger.offers:
        return trigger
    offers = []
    chosen = dict(trigger.choices)
    for offer in trigger.offers:
        if offer.kind not in CHOICE_KINDS:
            raise PluginError(f"trigger {trigger.kind!r} offers a choice of unknown kind "
                              f"{offer.kind!r} (one of {', '.join(CHOICE_KINDS)})",
                              plugin=trigger.plugin, hook="redzone_triggers")
        offer = offer if offer.key else offer.evolve(key=f"{label}:{offer.name}")
        offers.append(offer)
        if offer.kind in ("target", "mode") and offer.name not in chosen:
            if not offer.options and offer.min > 0:
                tx.emit(Event.make("removed_from_stack", "603.3d", source=trigger.source,
                                   player=trigger.controller, ability=trigger.kind,
                                   detail=f"no legal {offer.kind} ({offer.key})"))
                return None
            chosen[offer.name] = tx.choose(offer)
    return trigger.evolve(offers=tuple(offers), choices=chosen)


def offers_now(hooks: Any, state: GameState, trigger: Trigger) -> tuple[Choice, ...]:
    """``trigger``'s choices still to be made as it resolves (608.2d), as
    they are in ``state``: an offer its plugin works out again
    (:func:`~redzone.kernel.hookspecs.redzone_trigger_choices`) replaces the
    one of its name made as it triggered, keeping its key.

    :param hooks: the engine's :class:`~redzone.kernel.plugins.Hooks`.
    :raises PluginError: for an answer that is no such offer of the trigger.
    """
    open_ = {offer.name: offer for offer in trigger.offers if offer.name not in trigger.choices}
    if not open_ or not hooks.implemented("redzone_trigger_choices"):
        return tuple(open_.values())
    for plugin, choice in hooks.trigger_choices(state, trigger):
        was = open_.get(choice.name)
        if was is None or was.kind in ("target", "mode") or choice.kind != was.kind:
            why = ("a target or mode, chosen as it was put on the stack (603.3c-d)"
                   if was is not None and was.kind in ("target", "mode") else
                   f"not of the offer's kind {was.kind!r}" if was is not None else
                   "not a choice the trigger offered and has still to make")
            raise hooks.fault(plugin, "redzone_trigger_choices", state,
                              f"answered choice {choice.name!r} for trigger {trigger.id!r} "
                              f"({trigger.kind}): {why}")
        open_[choice.name] = choice.evolve(key=was.key)
    return tuple(open_.values())


def fire_delayed(tx: Tx, matches: Callable[[DelayedTrigger], bool]) -> list[Trigger]:
    """Take the delayed triggers for which ``matches(delayed)`` is true out
    of waiting and return them as triggers (603.7b: each triggers once)."""
    state = tx.state
    fired = [d for d in state.delayed if matches(d)]
    if not fired:
        return []
    tx._set(delayed=tuple(d for d in state.delayed if d not in fired))
    out = []
    now = tx.state.objects._items
    for d in fired:
        bound = d.objects
        if d.when == "leaves" and d.object in now:
            # 603.6c, 603.7c: it finds the object where it went (the card in
            # the graveyard), as that is now.
            bound = FrozenMap({**bound, d.object: now[d.object].object})
        out.append(Trigger(kind=d.kind, source=d.source, controller=d.controller, rule=d.rule,
                           text=d.text, actions=_still_there(tx, d.actions, bound, d.id,
                                                             "603.7c",
                                                             "as the ability was created",
                                                             "603.7c"),
                           plugin=d.plugin, targets=(d.object,) if d.object else (),
                           objects=bound))
    return out


def _still_there(tx: Tx, actions: tuple[Action, ...], bound: Mapping[str, int], ability: str,
                 rule: str, since: str, elsewhere: str = "608.2b") -> tuple[Action, ...]:
    """``actions`` but those on an object that has changed zones since the
    numbers ``bound`` were noted, in whatever zone it is now (back on the
    battlefield, or a card gone on from the graveyard): a new object, which
    the ability won't affect (400.7, 608.2b; a delayed trigger's, 603.7c);
    each left out is said: citing ``rule`` for one back on the battlefield,
    ``elsewhere`` for one in another zone (608.2b: a target no longer in the
    zone it was in)."""
    if not bound:
        return actions
    objects = tx.state.objects
    kept = []
    for action in actions:
        gone = [obj for obj in _affected(action) if obj in bound and obj in objects
                and objects[obj].object != bound[obj]]
        if gone:
            back = all(objects[obj].zone == "battlefield" for obj in gone)
            tx.emit(Event("skipped", rule if back else elsewhere, object=ability,
                          detail=f"{', '.join(gone)} left the zone it was in {since}: a new "
                                 f"object, which it doesn't affect (400.7)"))
        else:
            kept.append(action)
    return tuple(kept)


def _bound(state: GameState, trigger: Trigger) -> Trigger:
    """``trigger`` with the object numbers of its source, its targets (those
    it names and those chosen through its offers: 603.3d) and the objects its
    actions affect noted, in whatever zone they are, as it is put on the
    stack (400.7), unless it has them (a delayed trigger's, noted as it was
    created: 603.7c)."""
    if trigger.objects:
        return trigger
    objects = state.objects._items
    chosen = [obj for offer in trigger.offers if offer.kind == "target"
              for obj in trigger.choices.get(offer.name, ())]
    named = [trigger.source, *trigger.targets, *chosen,
             *(obj for action in trigger.actions for obj in affected_ids(action))]
    bound = {obj: perm.object for obj in named if (perm := objects.get(obj)) is not None}
    return trigger.evolve(objects=bound) if bound else trigger


def _affected(action: Action) -> tuple[str, ...]:
    """What ``action`` affects, and what the actions it holds would (a delayed
    trigger it creates: "sacrifice it at end of combat" refers to the object
    as it was when the ability creating it resolved, 603.7c)."""
    out = list(affected_ids(action))
    for f in getattr(type(action), "__attrs_attrs__", ()):
        held = getattr(action, f.name)
        if isinstance(held, tuple):
            out.extend(obj for inner in held if getattr(type(inner), "do", None) is not None
                       for obj in _affected(inner))
    return tuple(out)


def written_triggers(state: GameState, events: Sequence[Event],
                     together: Sequence[tuple[Event, ...]] = ()) -> list[Trigger]:
    """The triggered abilities written as data (:class:`WrittenTrigger`,
    603.1) that ``events`` trigger (603.2): each event of its kind whose
    fields have the values it names, while its source is on the battlefield
    (113.6); a source that left with these same events was there as those
    up to its leaving happened, and those of the zone changes it was part
    of (``together``: the events of each set made at once), and triggers on
    them as it last was (603.10, 603.10a for its own leaving)."""
    out: list[Trigger] = []
    # (the event each object left the battlefield with, by index: the last)
    left = {e.object: i for i, e in enumerate(events) if leaves_battlefield(e)}
    if left and together:
        # 603.10a: a source that left at once with others looks back across
        # that whole set of zone changes: it was there as each of them happened.
        at = {id(e): i for i, e in enumerate(events)}
        for changes in together:
            found = [at[id(e)] for e in changes if id(e) in at]
            if len(found) > 1:
                last = max(found)
                for e in changes:
                    if id(e) in at and left.get(e.object) == at[id(e)]:
                        left[e.object] = last
    for written in state.written:
        source = written.source
        for i, event in enumerate(events):
            if event.kind != written.when:
                continue
            if any(not _matched(name, source if want == "self" else want, _field(event, name))
                   for name, want in written.match.items()):
                continue
            perm = state.objects.get(source)
            if perm is None:
                continue
            if perm.zone != "battlefield" or (written.object is not None
                                              and perm.object != written.object):
                # it left with these events (and may be back as a new
                # object): it was there as those up to its leaving happened
                # (603.10, 603.10a for its own leaving), as it last was
                if left.get(source, -1) < i:
                    continue
                perm = state.lki.get(source, perm)
            if written.object is not None and perm.object != written.object:
                continue  # the ability was another object's (400.7)
            out.append(Trigger(kind="written", source=source,
                               controller=written.controller or perm.controller,
                               rule="603.2", text=written.text, actions=written.actions,
                               amount=None, targets=()))
    return out


def _matched(name: str, want: object, value: object) -> bool:
    """Whether an event's field ``name`` has the value a written trigger's
    ``match`` wants. A step is matched by its name in every combat and turn
    (511.2, 500.8: "at end of combat" triggers in each end of combat step),
    by ``name#N`` in the Nth combat of each turn, and by its whole label
    (``name#N@T``) only there."""
    if name == "step" and isinstance(want, str) and isinstance(value, str) \
            and "@" not in want:
        value = value.split("@", 1)[0]
        if "#" not in want:
            value = value.split("#", 1)[0]
    return want == value


def _field(event: Event, name: str) -> object:
    """An event's field or data value by name (``None`` if it has none)."""
    value = getattr(event, name, None) if name in Event._fields else None
    return value if value is not None else event.get(name)


def resolve_top(tx: Tx, trigger_id: object) -> None:
    """Resolve the trigger on top of the stack, or the one named (608.2):
    its actions, then state-based actions and what that triggers.

    :param trigger_id: ``None`` for the top, or the caller's id, unchecked
        (``object``): one not on the stack is an :class:`IllegalActionError`."""
    state = tx.state
    stack = list(state.stack)
    index = len(stack) - 1
    if trigger_id is not None:
        ids = [t.id for t in stack]
        if trigger_id not in ids:
            raise IllegalActionError(f"there is no trigger {trigger_id!r} on the stack "
                                     f"(it holds {', '.join(ids) or 'nothing'})",
                                     rule="405.1", objects=cast(Any, (trigger_id,)))
        index = ids.index(trigger_id)
    trigger = stack.pop(index)
    tx._set(stack=tuple(stack))
    start = len(tx.events)
    if trigger.offers:
        # 608.2d: the choices made as it resolves, of what exists now.
        chosen = dict(trigger.choices)
        now = {offer.name: offer for offer in offers_now(tx.hooks, tx.state, trigger)}
        offers = tuple(now.get(offer.name, offer) for offer in trigger.offers)
        for offer in offers:
            if offer.name not in chosen:
                chosen[offer.name] = tx.choose(offer)
        trigger = trigger.evolve(offers=offers, choices=chosen)
    tx.emit(Event.make("resolve", trigger.rule, source=trigger.source,
                       player=trigger.controller, object=trigger.id, ability=trigger.kind))
    # 400.7: what it does to a permanent that has left and come back as a new
    # object since its numbers were noted is left out, whether its own
    # actions or the ones a plugin gives as it resolves (on a target) say it.
    rule = "603.7c" if trigger.rule.startswith("603.7") else "400.7"
    since = "as the ability was put on the stack"
    planned: list[tuple[str, Action, str]] = [
        (trigger.plugin, a, "redzone_triggers")
        for a in _still_there(tx, trigger.actions, trigger.objects, trigger.id, rule, since)]
    for plugin, action in tx.hooks.resolve_trigger(tx.state, trigger):
        planned.extend((plugin, a, "redzone_resolve_trigger") for a in _still_there(
            tx, (action,), trigger.objects, trigger.id, rule, since))
    saved = (tx.plugin, tx.source, tx.controller)
    tx.source, tx.controller = trigger.source, trigger.controller
    try:
        for plugin, action, hook in planned:
            try:
                tx.perform(action, plugin=plugin, hook=hook)
            except IllegalActionError as exc:
                tx.emit(Event("skipped", "608.2b", object=trigger.id, detail=str(exc)))
            if tx._field("game_over") is not None:
                break
        acting = {plugin for plugin, _action, _hook in planned}
        if acting:  # (what its actions did answers to its plugin, if one acted)
            within_bounds(tx, tx.state, next(iter(acting)) if len(acting) == 1 else None)
    finally:
        tx.plugin, tx.source, tx.controller = saved
    # (The stack is resolved by whoever resolves this one: settle, or
    # resolve_trigger.)
    settle(tx, since=start, resolve=False)


__all__ = ["cease", "change_control", "commit", "end_effects", "end_game", "fire_delayed",
           "offers_now", "outcome", "perform_state_based_actions", "resolve_stack",
           "resolve_top", "settle", "state_based_actions", "whose", "within_bounds"]
