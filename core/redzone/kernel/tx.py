"""One command's working copy: the tools every action uses.

A command (a declaration, a damage step, an action, a step of the turn)
opens a :class:`Tx` on the state it was given. The kernel's steps, the
kernel's actions and plugins' actions change the working copy only through
its tools (:meth:`Tx.perform`, :meth:`Tx.create`, :meth:`Tx.destroy`,
:meth:`Tx.deal_damage` ...). The kernel then settles the command
(:mod:`redzone.kernel.settle`): state-based actions until none applies
(704.3), effects whose "for as long as" stopped holding end (611.2b), the
game ends if it is over (104), plugins record what they remember, and what
triggered goes on the stack (603.3b). The caller gets a new frozen state
and its events; the state it gave is untouched, whatever happened (733: an
illegal command changes nothing).

The tools are the public contract for plugin authors; how the working copy
keeps its data inside, and how a command settles, are the kernel's business.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from functools import partial
from typing import Any, TypeVar

from redzone.kernel import combat as _combat
from redzone.kernel import damage as _damage
from redzone.kernel import sba as _sba
from redzone.kernel import validate as _validate
from redzone.kernel import zones as _zones
from redzone.kernel.answers import MAX_OBJECTS, Spent, check_answer
from redzone.kernel.context import Context, HasContext, context_of
from redzone.kernel.errors import BoundError, IllegalActionError, PluginError, did_you_mean
from redzone.kernel.events import Event
from redzone.kernel.frozen import EMPTY, FrozenMap
from redzone.kernel.hooktypes import Action, Damage, DestructionReplacement, Result
from redzone.kernel.model import (
    DELAYED_WHEN,
    DURATIONS,
    SCOPES,
    Choice,
    ChoiceMade,
    Condition,
    DelayedTrigger,
    Effect,
    GameState,
    Modification,
    Permanent,
    PluginState,
    Shield,
)
from redzone.kernel.references import named_ids
from redzone.kernel.results import CombatResult, Outcome
from redzone.kernel.slots import owning
from redzone.kernel.working import Frozen, Mark, WorkingCopy

#: While :meth:`redzone.Engine.choices_for` runs a command on a copy: the
#: choices every working copy of it meets, in order (with their options,
#: bounds and defaults, which a :class:`~redzone.ChoiceMade` doesn't keep).
#: A context variable, so that a command in another thread records nothing.
ASKED: ContextVar[list[Choice] | None] = ContextVar("redzone_asked", default=None)

#: The steps of a combat phase: in a turn's second combat their events are
#: labelled ``declare_attackers#2`` (500.8, 505.1a).
#: (Combat damage steps, the kernel's and those plugins declare, end in
#: ``_damage``: :func:`step_label` knows them by that.)
COMBAT_STEPS = frozenset({"beginning_of_combat", "declare_attackers", "declare_blockers",
                          "combat_damage", "end_of_combat", "combat_damage_assigned"})
_new_tuple = tuple.__new__
#: Condition kinds the kernel answers itself (611.2b).
CORE_CONDITIONS = frozenset({"on_battlefield", "controls", "in_combat"})
#: How many objects one command may create: a plugin that would create more
#: fails the command instead of running for minutes.
MAX_CREATED = 10_000
#: How many actions one command may perform (a plugin looping on itself).
MAX_ACTIONS = 100_000
#: How many continuous effects one permanent may carry (613): each one is
#: read again for every characteristic, so a plugin adding thousands would
#: cost time quadratic in them; no board of cards comes near this.
MAX_MODIFICATIONS = 1_000


def is_combat_step(name: str) -> bool:
    """Whether ``name`` is a step of the combat phase: one of
    :data:`COMBAT_STEPS`, or a combat damage step (its name ends in
    ``_damage``, with ``_assigned`` for its window on the stack)."""
    return name in COMBAT_STEPS or name.removesuffix("_assigned").endswith("_damage")


def step_label(state: GameState, step: str | None = None) -> str:
    """The name events give ``step`` (the state's own by default): a combat
    step of the turn's second or later combat gets ``#N`` (505.1a); so does a
    combat damage step a plugin declares (its name ends in ``_damage``)."""
    name = state.step if step is None else step
    if state.combats > 1 and is_combat_step(name):
        return f"{name}#{state.combats}"
    return name


class Tx(WorkingCopy):
    """A command's working copy of the state, and the tools a plugin's
    actions change it with (an action kind's perform function is given it).

    Read :attr:`state` (and :attr:`step`, the step as events name it);
    change it with :meth:`perform`, :meth:`create`, :meth:`destroy`,
    :meth:`move`, :meth:`remove_from_combat`, :meth:`put`, :meth:`modify`,
    :meth:`deal_damage`, :meth:`gain_life`, :meth:`lose_life`,
    :meth:`add_effect`, :meth:`remove_effect`, :meth:`add_shield`,
    :meth:`add_delayed` and :meth:`set_state`; look objects up with
    :meth:`permanent` and :meth:`player`; make choices with :meth:`choose`
    and record events with :meth:`emit`. Settling the command is the
    kernel's (:mod:`redzone.kernel.settle`), not a tool. What a plugin hands
    a tool is type-checked: a mistyped field is a :class:`~redzone.PluginError`
    naming the plugin, the tool and the field.

    :param engine: the engine running the command, or its
        :class:`~redzone.kernel.context.Context` (what the kernel's steps pass).
    :param state: the state the command starts from (never changed).
    :param plugin: the plugin on whose behalf actions are performed ("" for
        the kernel and scenario files); its actions may write its own state.
    :param source: the source of what is being done, when there is one (a
        resolving trigger's source: the source of the delayed triggers it
        creates, 603.7e).
    :param controller: its controller (603.7d-e).
    :param answers: answers to the choices the command may meet, by key.
    :param spent: what the command has spent of its bounds so far, when it
        opens a second working copy (514.3a's cleanup steps); a fresh count
        by default.

    .. versionadded:: 0.1.0
    """

    def __init__(self, engine: Context | HasContext, state: GameState, *, plugin: str = "",
                 source: str | None = None, controller: str | None = None,
                 answers: Mapping[str, str | Sequence[str]] | None = None,
                 spent: Spent | None = None) -> None:
        context = engine if type(engine) is Context else context_of(engine)
        #: The command's context: the engine's hooks, edition and settings.
        self.context = context
        self.hooks = context.hooks
        #: What this command has spent of its bounds (its own, never the engine's).
        self.spent = Spent() if spent is None else spent
        # The current state, frozen, and nothing changed yet (see WorkingCopy).
        self.__dict__["state"] = self._base = state
        self.events: list[Event] = []
        self.dealt: list[Damage] = []
        self.results: list[Result] = []
        self.plugin = plugin
        self.source = source
        self.controller = controller
        self._performed = 0
        self._created = 0
        #: The plugins that acted in this working copy: whose abilities
        #: triggered, or whose actions were performed (a bound reached over
        #: several commands, such as 514.3a's cleanup steps, names them).
        self.acting: set[str] = set()
        self.answers: dict[str, tuple[str, ...]] = {}
        if answers:
            _validate.choices(answers)
            self.answers = {k: (v,) if isinstance(v, str) else tuple(v)
                            for k, v in answers.items()}
        self.made: list[ChoiceMade] = []
        #: The events of each set of zone changes made at once (603.10a looks back across one).
        self.together: list[tuple[Event, ...]] = []

    # -- reading ----------------------------------------------------------------

    state = Frozen()
    """The current state, frozen: what changed since it was last read is put
    into it when it is read (one copy of the state and of each map changed).
    Assigning it drops what is pending."""

    @property
    def step(self) -> str:
        """The label of the current step, as events carry it."""
        state = self.state
        return state.step if state.combats <= 1 else step_label(state)

    def emit(self, *events: Event) -> None:
        """Record events; an empty ``step``, or the current step's plain name,
        becomes the current step's label (``declare_attackers#2`` in a second
        combat)."""
        known = self.__dict__
        state = known["state"] if "state" in known else self._current()
        plain = state.step  # (a step or combat count is never left pending)
        label = plain if state.combats <= 1 else step_label(state)
        append = self.events.append
        for event in events:
            step = event[2]
            if step and (step != plain or label == plain):
                append(event)
            else:  # the step field relabelled (Event._replace, without its overhead)
                append(_new_tuple(Event, (*event[:2], label, *event[3:])))

    def _take(self, new: GameState, events: Iterable[Event], *, labelled: bool = False) -> None:
        """Adopt ``new`` and record ``events``; ``labelled``: they carry
        the current step's label already (made with :attr:`step`), so they
        are recorded as they are."""
        self.state = new
        if labelled:
            self.events.extend(events)
        else:
            self.emit(*events)

    # -- actions ----------------------------------------------------------------

    def perform(self, action: Action, *, plugin: str | None = None,
                hook: str = "redzone_actions") -> None:
        """Validate and perform one action (no state-based actions: those
        run when the command settles).

        :param action: an action of a declared kind.
        :param plugin: the plugin on whose behalf it is performed (default:
            this working copy's).
        :param hook: the hook whose answer holds it, named with that plugin
            when a kernel kind fails for it (a fault of a plugin's own kind
            is its ``redzone_actions``).
        :raises IllegalActionError: when the action is of no declared kind,
            a field has the wrong type, or it names what isn't there; the
            working copy is unchanged.
        :raises PluginError: when the plugin that declares the kind fails.
        """
        found = self.hooks.action_spec(action)
        if found is None:
            raise IllegalActionError(
                f"unknown action {action!r}: no loaded plugin declares the action kind "
                f"{getattr(type(action), 'do', type(action).__name__)!r}", rule="117.1")
        spec, owner = found
        check_fields(action)
        self._performed += 1
        if self._performed > MAX_ACTIONS:
            actor = owner if not owner.startswith("redzone.") else (
                self.plugin if plugin is None else plugin)
            raise _bound_error(self, "actions", MAX_ACTIONS,
                               f"performed more than {MAX_ACTIONS:,} actions in one "
                               f"command; the last was {action.do!r}", plugin=actor)
        saved = (self._mark(), len(self.events), len(self.dealt), len(self.results),
                 self.plugin)
        # A plugin's own kind writes its own slot; the kernel's kinds (SetState)
        # act for the plugin on whose behalf they are performed.
        kernel_kind = owner.startswith("redzone.")
        if not kernel_kind:
            self.plugin = owner
        elif plugin is not None:
            self.plugin = plugin
        if self.plugin:
            self.acting.add(self.plugin)
        # Who answers for what goes wrong: the plugin whose kind it is, or
        # the plugin on whose behalf a kernel kind is performed (none for
        # the caller's own actions: the kernel's errors reach the caller).
        responsible = self.plugin
        hooks = self.hooks
        # Verify mode compares the state a plugin's own kind is given with
        # itself after its perform function (reading it freezes the batch).
        given = None if kernel_kind or not hooks.verify else self.state
        before = None if given is None else hooks.state_print(given)
        try:
            if kernel_kind:
                spec.apply(self, action)
            else:
                with owning(owner):  # its Slot handles read its own slot
                    spec.apply(self, action)
        except BaseException as exc:
            self._rollback(saved)
            if not responsible or isinstance(exc, IllegalActionError) or hooks.triaged(exc):
                raise  # an illegal action, or a fault already named (in a nested call)
            err = hooks.triage(responsible, hook if kernel_kind else "redzone_actions",
                               self._current(), exc,
                               doing=f"performing the action {action.do!r} ")
            if err is exc:
                raise
            raise err from exc
        finally:
            self.plugin = saved[4]
            self._marks -= 1  # (the mark is released: with none held, nothing is logged)
            if not self._marks:
                self._log = None
        if given is not None:
            hooks.check_unchanged(owner, "redzone_actions", given, before,
                                  f"performing the action {action.do!r}")

    def _rollback(self, saved: tuple[Mark, int, int, int, str]) -> None:
        self._undo(saved[0])
        del self.events[saved[1]:]
        del self.dealt[saved[2]:]
        del self.results[saved[3]:]

    # -- choices ----------------------------------------------------------------------

    def choose(self, choice: Choice) -> tuple[str, ...]:
        """Make a choice: the answer given for its key, else its default.

        :raises IllegalActionError: when the answer isn't legal (an option not
            offered, too few or too many, an order that isn't a permutation);
            the rule is the choice's.
        """
        if self.plugin:
            _typed(self, [choice], "choose", Choice)
        key = choice.key or choice.name
        asked = ASKED.get()
        if asked is not None:
            asked.append(choice if choice.key else choice.evolve(key=key))
        given = self.answers.get(key)
        answer = given if given is not None else choice.default
        check_answer(choice, answer)
        self.made.append(ChoiceMade(key, choice.player, choice.kind, answer, given is None,
                                    choice.options, choice.rule, self.step))
        self.emit(Event.make("choice", choice.rule or "601.2", player=choice.player,
                             choice=key, answer=tuple(answer), default=given is None))
        return answer

    # -- permanents ---------------------------------------------------------------

    def permanent(self, obj: str | None, doing: str) -> Permanent:
        """The permanent ``obj`` on the battlefield.

        :raises IllegalActionError: (400.1) when there is none.
        """
        state = self.__dict__.get("state")  # (frozen: nothing pending, read it as it is)
        perm = None if not isinstance(obj, str) else state.objects._items.get(obj) \
            if state is not None else self._now(obj)
        if perm is None:
            raise IllegalActionError(f"{doing}: there is no permanent {obj!r}"
                                     f"{did_you_mean(obj, self.state.objects)}", rule="400.1",
                                     objects=(obj if isinstance(obj, str) else "",))
        if perm.zone != "battlefield":
            raise IllegalActionError(f"{doing}: {obj!r} is not on the battlefield",
                                     rule="400.1", objects=(perm.id,))
        return perm

    def player(self, player: object, doing: str) -> str:
        """The id of a player still in the game.

        :raises IllegalActionError: (102.1, 800.4) when there is none.
        """
        state = self.__dict__.get("state")  # (frozen: nothing pending, read it as it is)
        found = None if not isinstance(player, str) else state.players._items.get(player) \
            if state is not None else self._player_now(player)
        if found is None:
            raise IllegalActionError(f"{doing}: there is no player {player!r}", rule="102.1",
                                     objects=(player if isinstance(player, str) else "",))
        if found.lost:
            raise IllegalActionError(f"{doing}: {player!r} has left the game", rule="800.4a",
                                     objects=(found.id,))
        return found.id

    def put(self, *permanents: Permanent) -> None:
        """Replace permanents by changed copies (same ids)."""
        self._put({p.id: p for p in (_typed(self, permanents) if self.plugin else permanents)})

    def modify(self, obj: str, modification: Modification) -> None:
        """Add a continuous effect to a permanent, latest timestamp (613.7)."""
        state = self.__dict__.get("state")  # (frozen: nothing pending, read it as it is)
        perm = state.objects._items.get(obj) if state is not None else self._now(obj)
        if perm is None:
            raise KeyError(obj)
        if len(perm.modifications) >= MAX_MODIFICATIONS:
            raise _bound_error(self, "modifications", MAX_MODIFICATIONS,
                               f"gave {obj!r} more than {MAX_MODIFICATIONS:,} continuous "
                               "effects (613)")
        stamp = state.timestamp if state is not None else self._field("timestamp")
        modification = _yours(self, modification, "modify", Modification)
        if stamp:  # 613.7a: later than the latest continuous effect (none: 0, as made)
            modification = modification.evolve(timestamp=stamp)
        self._put({obj: perm.evolve(modifications=(*perm.modifications, modification))})

    def move(self, obj: str, zone: str, rule: str) -> bool:
        """Move a permanent from the battlefield to ``zone`` (400.7: it becomes
        a new object; its last known information is kept). A token that left
        can't move again (111.8).

        :returns: whether it moved.
        """
        perm = self._now(obj)
        if perm is None or perm.zone != "battlefield":
            return False
        self.events.extend(move_many(self, [(obj, rule)], zone))
        return True

    def destroy(self, obj: str, rule: str, *, regenerate: bool = True) -> bool:
        """Destroy a permanent (701.8): indestructible stops it (702.12b); a
        destruction replacement such as regeneration may apply instead
        (701.19, 614.8; the first by effect name is the default of 616.1).

        :param regenerate: ``False`` for "can't be regenerated" (701.19c).
        :returns: whether it went to the graveyard.
        """
        perm = self._now(obj)
        if perm is None or perm.zone != "battlefield":
            return False
        if destroy_replaced(self, obj, regenerate=regenerate):
            return False
        self.emit(Event("destroyed", rule, object=obj))
        return self.move(obj, "graveyard", rule)

    def create(self, permanent: Permanent, *, rule: str = "111.2", tapped: bool = False,
               attacking: str | None = None, blocking: str | None = None,
               declared: bool = False, position: int | None = None) -> str:
        """Put a token (or any new permanent) onto the battlefield (111.2).

        Its controller is its owner (111.2). It entered this turn (302.6), with its
        printed loyalty or defense as counters (306.5b, 310.4b). Put onto the battlefield
        attacking or blocking, it was never declared (508.4, 509.4): no "attacks"/"blocks"
        event: nothing triggers on it, no requirement or restriction applies (508.4c, 509.4b).

        :param permanent: its characteristics; its ``id`` must be new.
        :param rule: the rule that makes it enter.
        :param tapped: it enters tapped.
        :param attacking: it enters attacking this player, planeswalker or
            battle (508.4); if that is gone, or its controller isn't an
            attacking player, it enters but isn't attacking (506.3b-c, 508.4a).
        :param blocking: it enters blocking this attacking creature (509.4);
            if that isn't attacking its controller, it isn't blocking (509.4a).
        :param declared: it was declared ("as though declared"; rarely true).
        :param position: with ``blocking``, its place in the attacker's damage
            assignment order (509.7 of 2009-2024); last by default.
        :returns: its id.
        :raises IllegalActionError: for an id in use, a controller who isn't
            in the game (800.4b), or both ``attacking`` and ``blocking``.
        """
        state = self._current()  # (its sources never wait)
        pid = (_typed(self, [permanent], "create")[0] if self.plugin else permanent).id
        if not isinstance(pid, str) or not pid or self._now(pid) is not None \
                or pid in state.players or pid in state.sources:
            raise IllegalActionError(f"create: the id {pid!r} is already in use", rule="111.2",
                                     objects=(str(pid),))
        controller = self.player(permanent.controller, "create")
        if attacking is not None and blocking is not None:
            raise IllegalActionError("create: a permanent can't enter both attacking and "
                                     "blocking", rule="506.3", objects=(pid,))
        self._created += 1
        if self._created > MAX_CREATED:
            raise _bound_error(self, "created", MAX_CREATED,
                               f"created more than {MAX_CREATED:,} objects in one command "
                               f"(the last {pid!r})")
        held = len(state.objects) + self._new_objects()
        if held >= MAX_OBJECTS:
            raise _bound_error(self, "objects", MAX_OBJECTS,
                               f"created {pid!r} in a state that already holds "
                               f"{held:,} objects")
        keywords = tuple(self.hooks.parse_keyword(k) for k in permanent.printed_keywords)
        perm = permanent.evolve(owner=controller, controller=controller, zone="battlefield",
                                tapped=tapped, summoning_sick=True, damage=0,
                                marks=frozenset(), printed_keywords=keywords,
                                token=permanent.token)
        entering = [Event("enters_battlefield", rule, object=pid, player=controller)]
        self._put({pid: (perm := _zones.enters_with(perm, "", entering))})
        self._added += 1
        self.emit(*entering)
        if attacking is not None:
            _enter_attacking(self, perm, attacking, declared)
        if blocking is not None:
            _enter_blocking(self, perm, blocking, position, rule)
        return pid

    def remove_from_combat(self, obj: str, rule: str = "506.4") -> None:
        """Remove a permanent from combat (506.4)."""
        # (Read frozen while created creatures wait to enter attacking.)
        combat = self.state.combat if self._attacks else self._field("combat")
        if combat is None:
            return
        after, hit = _sba.without(combat, (obj,))
        if hit:
            self._set(combat=after)
            self.emit(Event("removed_from_combat", rule, object=obj))

    # -- damage and life ------------------------------------------------------------

    def deal_damage(self, damage: Sequence[Damage]) -> tuple[Damage, ...]:
        """Deal a batch of simultaneous damage through the 120.4 pipeline; the
        damage event (120.4d) is announced when the command settles.

        :returns: the damage dealt, after prevention and replacement.
        """
        if self.plugin:
            _typed(self, damage, "deal_damage", Damage)
        state = self.state
        new, objects, players, events, dealt, results = _damage.deal_damage(
            self.hooks, state, damage, state.step, self.step, partial(choose_numbered, self))
        if new is not state:
            self.state = new
        if objects:
            self._put(objects)
        if players:
            self._put_players(players)
        self.events.extend(events)  # (made with the step's label)
        self.dealt.extend(dealt)
        self.results.extend(results)
        return dealt

    def gain_life(self, player: str, amount: int, source: str, rule: str) -> None:
        """A player gains life (119.3), as modified by replacement effects."""
        state = self.state
        changed, objects, events = _damage.gain_life(
            self.hooks, state, player, amount, source, rule, state.step,
            partial(choose_numbered, self))
        self._put_players(changed)
        self._put(objects)
        self.emit(*events)

    def lose_life(self, player: str, amount: int, source: str, rule: str) -> None:
        """A player loses life (119.3)."""
        state = self.state
        changed, events = _damage.lose_life(state, player, amount, source, rule, state.step)
        self._put_players(changed)
        self.emit(*events)

    # -- effects, shields, delayed triggers, plugin state ------------------------------

    def _next_id(self, prefix: str) -> str:
        field = self._field
        n = field("created") + 1
        taken = {e.id for e in field("effects")} | {d.id for d in field("delayed")} \
            | {s.id for s in field("shields")}
        while f"{prefix}{n}" in taken:
            n += 1
        self._set(created=n)
        return f"{prefix}{n}"

    def add_effect(self, effect: Effect) -> str:
        """A continuous effect starts to apply (611.2).

        :returns: its id (given if empty).
        """
        effect = _yours(self, effect, "add_effect", Effect)
        check_duration(self, effect.duration, effect.condition, "add_effect")
        if not effect.id:
            effect = effect.evolve(id=self._next_id("e"))
        elif any(e.id == effect.id for e in self._field("effects")):
            raise IllegalActionError(f"add_effect: an effect {effect.id!r} already applies",
                                     rule="611.2", objects=(effect.id,))
        self._set(effects=(*self._field("effects"), effect))
        self.emit(Event.make("effect", "611.2", target=effect.to, source=effect.source,
                             player=effect.player, object=effect.id, amount=effect.amount,
                             effect=effect.kind))
        return effect.id

    def remove_effect(self, effect_id: str, rule: str = "611.2") -> bool:
        """End a continuous effect now.

        :returns: whether there was such an effect.
        """
        effects = self._field("effects")
        kept = tuple(e for e in effects if e.id != effect_id)
        if len(kept) == len(effects):
            return False
        ended = next(e for e in effects if e.id == effect_id)
        self._set(effects=kept)
        self.emit(Event.make("effect_ends", rule, object=effect_id, target=ended.to,
                             source=ended.source, player=ended.player, amount=ended.amount,
                             effect=ended.kind))
        return True

    def add_shield(self, shield: Shield) -> str:
        """A prevention (or regeneration) shield starts to apply (615, 701.19)."""
        shield = _yours(self, shield, "add_shield", Shield)
        check_duration(self, shield.duration, shield.condition, "prevent")
        if not shield.id:
            shield = shield.evolve(id=self._next_id("s"))
        self._set(shields=(*self._field("shields"), shield))
        return shield.id

    def add_delayed(self, delayed: DelayedTrigger) -> str:
        """Create a delayed triggered ability (603.7a).

        Its source and controller default to those of what is resolving
        (603.7d-e).

        :returns: its id.
        :raises IllegalActionError: for an unknown moment, or ``leaves``
            without an object on the battlefield.
        """
        _check_delayed(self, delayed)
        now = self._current()  # (its turn and step never wait)
        delayed = delayed.evolve(id=delayed.id or self._next_id("d"), turn=now.turn,
                                 step=now.step, plugin=delayed.plugin or self.plugin,
                                 objects=_objects_named(self, delayed.actions, delayed.object))
        self._set(delayed=(*self._field("delayed"), delayed))
        self.emit(Event.make("delayed_trigger", "603.7a", source=delayed.source,
                             player=delayed.controller, object=delayed.id,
                             ability=delayed.kind, text=delayed.text or None))
        return delayed.id

    def set_state(self, value: Any, scope: str = "game", *, plugin: str | None = None) -> None:
        """Set a plugin's own slot (this working copy's plugin by default).

        :raises IllegalActionError: when there is no plugin to write for, the
            scope is unknown or the value isn't frozen data.
        """
        name = self.plugin if plugin is None else plugin
        if not name:
            raise IllegalActionError("set_state: only a plugin has a slot of its own",
                                     rule="611.2")
        if scope not in SCOPES:
            raise IllegalActionError(f"set_state: unknown scope {scope!r} (one of "
                                     f"{', '.join(SCOPES)})", rule="611.2")
        entry = PluginState(freeze_value(value, f"the state of plugin {name!r}"), scope)
        slots = self._field("plugin_state")
        self._set(plugin_state=slots.set(name, entry))


def choose_numbered(tx: Tx, choice: Choice) -> tuple[str, ...]:
    """:meth:`Tx.choose` for a choice the kernel may ask more than once in a
    command (the legend rule's, 704.5j; the order of a damage's effects,
    616.1): keyed its ``key``, else ``"<name>@<player>"``, with ``#2``,
    ``#3`` ... after it for the second and later of the command."""
    key = choice.key or f"{choice.name}@{choice.player}"
    made = sum(1 for c in tx.made if c.key == key or c.key.startswith(f"{key}#"))
    return tx.choose(choice.evolve(key=key if not made else f"{key}#{made + 1}"))


def move_many(tx: Tx, moves: Iterable[tuple[str, str]], zone: str, *,
              top: bool = False, label: str | None = None) -> list[Event]:
    """Move permanents from the battlefield to ``zone`` at once, each
    ``(object, rule)`` after those before it (400.7: each becomes a new
    object; its last known information is kept), in the working copy.

    :param label: the current step's label (:attr:`Tx.step`), when the
        caller has it.
    :returns: the events (labelled with the current step), not recorded."""
    state = tx.state  # (where each arrives is read from every object)
    objects, lki, combat, events = _sba.leave(state, moves, zone,
                                              tx.step if label is None else label, top=top)
    if objects:
        tx._leave(objects, lki, combat)
    if len(objects) > 1:
        tx.together.append(tuple(events))  # (at once: 603.10a, see settle.written_triggers)
    return events


def _enter_attacking(tx: Tx, perm: Permanent, attacked: str, declared: bool) -> None:
    """:meth:`Tx.create`'s ``attacking`` (508.4): the new permanent attacks
    ``attacked``, or an event says why it doesn't (508.4a)."""
    # (Read through the working copy, not frozen: creating N attackers
    # freezes the state once, not N times; what it attacks may be just created.)
    work = tx
    state = work._current()  # (its step, teams and active player never wait)
    combat = work._field("combat")
    reason = None
    rule = "508.4a"  # (what it would attack is gone; else the rule of the reason)
    defending: str | None = attacked
    if combat is None or not is_combat_step(state.step) or state.step == \
            "beginning_of_combat":
        reason, rule = "there is no combat with attackers now (506.2, 506.3b)", "506.3b"
    elif "creature" not in perm.types:
        reason, rule = "only a creature can attack (506.3a)", "506.3a"
    elif "battle" in perm.types:
        reason, rule = "a creature that's also a battle never attacks (506.3f)", "506.3f"
    elif not state.is_attacking_player(perm.controller):
        reason, rule = "its controller is not an attacking player (506.3b)", "506.3b"
    elif attacked in state.players:
        player = work._player_now(attacked)
        if player is not None and player.lost:
            reason = f"{attacked!r} has left the game (508.4a)"
        elif state.same_team(attacked, perm.controller):
            rule = "508.4"  # (it attacks a defending player its controller chooses)
            reason = (f"{attacked!r} is not a defending player (506.2, 805.10a)"
                      if attacked != perm.controller
                      else "a player can't be attacked by their own creature (506.2)")
    else:
        target = work._now(attacked)
        if target is None or target.zone != "battlefield" \
                or not (target.types & {"planeswalker", "battle"}):
            reason = f"{attacked!r} is not a planeswalker or battle on the battlefield (508.4a)"
        else:
            # (its defending player: the battle's protector or its controller, 506.2)
            defending = target.protector if "battle" in target.types \
                and target.protector is not None else target.controller
            now = work._player_now(defending) if defending is not None else None
            if defending is None or (now is not None and now.lost) \
                    or state.same_team(defending, perm.controller):  # (a protector who left)
                reason = f"{attacked!r} is not controlled or protected by a defending player"
    if reason is not None:
        tx.emit(Event("not_attacking", rule, object=perm.id, target=attacked,
                      detail=reason))
        return
    assert defending is not None
    work._attack(perm.id, attacked, defending, entered=not declared)
    kind = "attack" if declared else "enters_attacking"
    tx.emit(Event(kind, "508.1a" if declared else "508.4", attacker=perm.id,
                  target=attacked))
    if state.step != "declare_attackers":
        # 508.4d: after blockers are declared, it enters unblocked (the
        # beginning of combat step has no attackers, refused above).
        tx.emit(Event("unblocked", "508.4d", object=perm.id))


def _enter_blocking(tx: Tx, perm: Permanent, attacker: str, position: int | None,
                    rule: str) -> None:
    """:meth:`Tx.create`'s ``blocking`` (509.4): the new permanent blocks
    ``attacker``, or an event says why it doesn't (509.4a)."""
    new, events = _combat.make_block(tx.state, perm.id, attacker, position, rule,
                                     orders=tx.context.edition.assignment_orders)
    if new is tx.state and not events:
        combat = tx.state.combat
        why, detail = "509.4a", f"{attacker!r} is no longer attacking"
        if combat is None or attacker not in combat.attacks:
            pass
        elif "creature" not in perm.types:
            why, detail = "506.3a", "only a creature can block"
        elif "battle" in perm.types:
            why, detail = "506.3f", "a creature that's also a battle never blocks"
        else:
            detail = "its controller isn't a defending player for that creature"
        tx.emit(Event("not_blocking", why, object=perm.id, target=attacker, detail=detail))
        return
    tx._take(new, events)


def _objects_named(tx: Tx, actions: Sequence[Action], watched: str | None = None
                   ) -> dict[str, int]:
    """The permanents on the battlefield ``actions`` name, and the one a
    "leaves" delayed trigger watches (``watched``), each with the number of
    the object it is (400.7), for a delayed trigger (603.7a, 603.7c).

    :raises IllegalActionError: (603.7) for an action of no declared kind.
    """
    out = {}
    here = None if watched is None else tx._now(watched)
    if here is not None and here.zone == "battlefield":
        out[here.id] = here.object
    for action in actions:
        if tx.hooks.action_spec(action) is None:
            raise IllegalActionError(f"delayed trigger: {action!r} is not an action of a "
                                     "declared kind", rule="603.7")
        for obj in named_ids(action):
            perm = tx._now(obj)
            if perm is not None and perm.zone == "battlefield":
                out[obj] = perm.object
    return out


_Owned = TypeVar("_Owned", Modification, Effect, Shield)
_Value = TypeVar("_Value")


def _yours(tx: Tx, item: _Owned, doing: str, kind: type[_Owned]) -> _Owned:
    """``item`` with its ``owner`` set to the controller of the spell or
    ability creating it, when its duration is "until your next turn" and
    something with a controller is resolving (611.2a); and the number of the
    object its condition is about noted (:func:`numbered`). A plugin's item
    is type-checked first, as what it hands the tool ``doing`` (a
    ``kind``: :func:`_typed`); a condition that isn't one is
    :func:`check_duration`'s to refuse.

    :raises PluginError: for a plugin's item that isn't a well-typed ``kind``.
    """
    if tx.plugin:
        _typed(tx, [item], doing, kind)
    if item.duration == "until_your_next_turn" and item.owner is None and tx.controller:
        return item.evolve(owner=tx.controller)
    condition = item.condition
    if isinstance(condition, Condition) and condition.number is None:
        noted = numbered(tx, condition)
        if noted is not condition:
            return item.evolve(condition=noted)
    return item


def _check_delayed(tx: Tx, delayed: DelayedTrigger) -> None:
    """Check a delayed trigger about to be created (:meth:`Tx.add_delayed`):
    a plugin's is a well-typed :class:`DelayedTrigger` (:func:`_typed`); its
    moment is one of :data:`DELAYED_WHEN` (603.7), and ``leaves`` watches
    an object on the battlefield (603.7c).

    :raises PluginError: for a plugin's delayed trigger that isn't well typed.
    :raises IllegalActionError: for an unknown moment, or ``leaves``
        without an object on the battlefield.
    """
    if tx.plugin:
        _typed(tx, [delayed], "add_delayed", DelayedTrigger)
    if delayed.when not in DELAYED_WHEN:
        raise IllegalActionError(f"delayed trigger: unknown moment {delayed.when!r} (one of "
                                 f"{', '.join(DELAYED_WHEN)})", rule="603.7")
    here = None if delayed.object is None else tx._now(delayed.object)
    if delayed.when == "leaves" and (here is None or here.zone != "battlefield"):
        raise IllegalActionError(f"delayed trigger: 'leaves' needs an object on the "
                                 f"battlefield, not {delayed.object!r}", rule="603.7c")


def numbered(tx: Tx, condition: Condition) -> Condition:
    """``condition`` with the number of the object it is about noted, as an
    effect lasting while it holds starts (400.7, 611.2b): a permanent that
    leaves and comes back is a new object, which the condition isn't about."""
    if condition.object is None or condition.kind not in CORE_CONDITIONS:
        return condition
    perm = tx._now(condition.object)
    return condition if perm is None else condition.evolve(number=perm.object)


def condition_holds(tx: Tx, condition: Condition) -> bool:
    """Whether ``condition`` holds in ``tx``'s state now (611.2b): the
    kernel's kinds, else the plugin that answers its kind.

    :raises PluginError: when no loaded plugin answers it.
    """
    state = tx.state
    kind = condition.kind
    if kind in CORE_CONDITIONS and condition.number is not None:
        now = state.objects._items.get(condition.object or "")
        if now is None or now.object != condition.number:
            return False  # 400.7: another object now has its id
    if kind == "on_battlefield":
        return condition.object is not None and state.on_battlefield(condition.object) \
            is not None
    if kind == "controls":
        perm = state.on_battlefield(condition.object or "")
        return perm is not None and perm.controller == condition.player
    if kind == "in_combat":
        return state.combat is not None and state.combat.in_combat(condition.object or "")
    answer = tx.hooks.condition_holds(state, condition)
    if answer is None:
        raise PluginError(f"no loaded plugin answers the condition kind {kind!r} any more",
                          hook="redzone_condition_holds")
    return answer


def starts(tx: Tx, duration: object, condition: object, doing: str) -> bool:
    """:func:`check_duration`, then whether the effect starts: a "for as
    long as" one whose condition doesn't hold as it would begin never does,
    and does nothing (611.2b: "It doesn't start and immediately stop
    again").

    :raises IllegalActionError: as :func:`check_duration`.
    """
    check_duration(tx, duration, condition, doing)
    return duration != "while" or (isinstance(condition, Condition)
                                   and condition_holds(tx, condition))


def check_duration(tx: Tx, duration: object, condition: object, doing: str) -> None:
    """Check a duration and its condition (611.2), for an effect ``tx``'s
    plugin makes (the fault is that plugin's when it names a condition
    kind nobody answers).

    :raises IllegalActionError: for an unknown duration, a ``while``
        without a condition, or a condition kind nobody answers.
    """
    if duration not in DURATIONS:
        raise IllegalActionError(f"{doing}: unknown duration {duration!r} (one of "
                                 f"{', '.join(DURATIONS)})", rule="611.2")
    if duration == "while":
        if not isinstance(condition, Condition):
            raise IllegalActionError(f"{doing}: a 'while' duration needs a Condition",
                                     rule="611.2b")
        if condition.kind not in CORE_CONDITIONS and tx.hooks.condition_holds(
                tx.state, condition) is None:
            problem = f"no loaded plugin answers the condition kind {condition.kind!r}"
            if tx.plugin and not tx.plugin.startswith("redzone."):
                # a plugin's effect that would silently never apply: its fault
                raise tx.hooks.fault(tx.plugin, "redzone_condition_holds", tx.state,
                                     f"made an effect ({doing}) lasting 'while' a "
                                     f"condition, but {problem}")
            raise IllegalActionError(f"{doing}: {problem}", rule="611.2b")
    elif condition is not None:
        raise IllegalActionError(f"{doing}: a condition goes with duration 'while' only",
                                 rule="611.2b")


def _typed(tx: Tx, values: Sequence[_Value], doing: str = "put",
           kind: type = Permanent) -> Sequence[_Value]:
    """``values``, which the code of ``tx``'s plugin hands to its tool
    ``doing`` (:meth:`Tx.put`, :meth:`Tx.create`, :meth:`Tx.modify`,
    :meth:`Tx.add_effect`, :meth:`Tx.add_shield`, :meth:`Tx.add_delayed`,
    :meth:`Tx.choose`, :meth:`Tx.deal_damage`), each checked as
    :meth:`redzone.Engine.game` checks a caller's permanents: a ``kind``
    whose fields have the types it declares
    (:func:`~redzone.kernel.validate.misfit`). A mistyped field
    (``perm.evolve(tapped="no")``, ``Shield(amount="2")``) is the plugin's
    fault, not a ``TypeError`` of the state-based actions or the damage
    pipeline after it, nor a state that can't be saved (guarantees 7, 9).
    Called only while a plugin acts (``tx.plugin``): the kernel's own
    values aren't checked.

    :raises PluginError: naming the plugin, the tool, the value (its id,
        when it has one) and the field; or what the tool was given, when
        ``values`` isn't a list or tuple.
    """
    what = _KIND_NAMES.get(kind) or kind.__name__.lower()
    if not isinstance(values, (list, tuple)):
        raise tx.hooks.fault(tx.plugin, "redzone_actions", tx.state,
                             f"{doing}: a {type(values).__name__}, where a list or tuple of "
                             f"{kind.__name__} belongs")
    for value in values:
        problem = _validate.misfit(value) if isinstance(value, kind) else \
            f"is {type(value).__name__}, not a {kind.__name__}"
        if problem is not None:
            ident = getattr(value, "id", "") if isinstance(value, kind) else ""
            named = "" if ident is None or ident == "" else f" {ident!r:.60}"
            raise tx.hooks.fault(tx.plugin, "redzone_actions", tx.state,
                                 f"{doing}: the {what}{named}: {problem}")
    return values


#: How :func:`_typed` names a value of each kind a tool takes (else its
#: class's name in lower case).
_KIND_NAMES: dict[type, str] = {DelayedTrigger: "delayed trigger"}


def _bound_error(tx: Tx, bound: str, limit: int, problem: str, *,
                 plugin: str | None = None) -> BoundError:
    """The error for reaching a run-time bound: it names the plugin
    acting now in ``tx`` (its working copy's, by default) and the bound.

    :param bound: the bound's name (``"objects"``, ``"created"`` ...).
    :param limit: its value.
    :param problem: what went over it, as a predicate of the plugin.
    """
    name = tx.plugin if plugin is None else plugin
    info = tx.hooks.info(name) if name else None
    dist = ""
    if info is not None and info.distribution:
        dist = f" ({info.distribution} {info.version})".replace(" )", ")")
    who = f"plugin {name!r}{dist}" if name else "the kernel's or the scenario's actions"
    err = BoundError(f"{who} {problem} (the bound {bound} = {limit:,}; redzone bounds "
                     f"its work) during step {tx._current().step!r}",
                     bound=bound, limit=limit, plugin=name,
                     distribution=info.distribution if info else "", hook="redzone_actions")
    tx.hooks.vouch(err)
    return err


def destroy_replaced(tx: Tx, obj: str, *, regenerate: bool = True) -> bool:
    """Whether indestructible (702.12b) or a destruction replacement
    (701.19, 614.8) keeps ``obj`` from being destroyed; a replacement
    that applies is performed (of two or more, the one its controller
    chooses: 616.1).

    :param regenerate: ``False`` for "can't be regenerated" (701.19c).
    """
    silent = tx.hooks.silent(tx.state)
    if "redzone_cannot_be_destroyed" not in silent and tx.hooks.cannot_be_destroyed(
            tx.state, obj):
        return True
    if "redzone_destruction_replacements" in silent:
        return False
    replacements = [(p, r) for p, r in tx.hooks.destruction_replacements(tx.state, obj)
                    if regenerate or not r.regeneration]
    if not replacements:
        return False
    plugin, chosen = replacements[0] if len(replacements) == 1 else \
        _chosen_replacement(tx, obj, replacements)
    tx.emit(Event.make("replaced", chosen.rule, object=obj, replacement=chosen.effect))
    for action in chosen.actions:
        # for the plugin that answered: what goes wrong (a replacement
        # that destroys again recurses) is that plugin's fault
        tx.perform(action, plugin="" if plugin.startswith("redzone.") else plugin,
                   hook="redzone_destruction_replacements")
    return True


def _chosen_replacement(tx: Tx, obj: str, replacements: list[tuple[str, DestructionReplacement]]
                        ) -> tuple[str, DestructionReplacement]:
    """The one of two or more replacements of ``obj``'s destruction that its
    controller (its owner if it has none) chooses to apply (616.1, 616.1e):
    named by effect (a repeated name ``#2`` ...), the first by effect name
    by default; keyed ``destruction@<object>``."""
    labels = _damage.labelled(replacements, lambda entry: entry[1].effect)
    perm = tx.state.objects[obj]
    names = tuple(labels)
    (label,) = choose_numbered(tx, Choice(
        "destruction", perm.controller or perm.owner, "option", names, default=names[:1],
        rule="616.1", key=f"destruction@{obj}",
        text=f"which effect replaces the destruction of {obj}"))
    return labels[label]


def freeze_value(value: Any, what: str) -> Any:
    """``value`` as frozen data: ``None``, bools, ints, strings, tuples (from
    lists) and :class:`FrozenMap` with string keys (from mappings).

    :raises IllegalActionError: for anything else (a float, a set, an object).
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(freeze_value(v, what) for v in value)
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise IllegalActionError(f"{what}: a key must be a string, not {k!r}",
                                         rule="611.2")
            out[k] = freeze_value(v, what)
        return FrozenMap(out) if out else EMPTY
    raise IllegalActionError(f"{what}: {value!r} is not frozen data (None, bool, int, str, "
                             "tuples and string-keyed maps of them)", rule="611.2")


def check_fields(action: Action) -> None:
    """Check each field of an action against its declared type, and what
    it holds (a token's permanent), by the one rule of
    :mod:`redzone.kernel.shapes`, as :meth:`redzone.Engine.perform` checks
    a caller's actions.

    :raises IllegalActionError: naming the action, the field and the value
        (107.1 for a number, else 117.1).
    """
    found = _validate.misfit_rule(action)
    if found is not None:
        raise IllegalActionError(f"{type(action).do}: {found[0]}", rule=found[1],
                                 objects=named_ids(action))


__all__ = ["COMBAT_STEPS", "CombatResult", "Outcome", "Tx", "check_answer", "check_fields",
           "choose_numbered", "condition_holds", "destroy_replaced", "freeze_value",
           "is_combat_step", "move_many", "starts", "step_label"]
