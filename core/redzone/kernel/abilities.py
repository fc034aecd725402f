"""Activated abilities (602): the ones keyword plugins declare, activated.

A plugin declares an ability with
:func:`~redzone.kernel.hookspecs.redzone_activated_abilities`
(:class:`~redzone.ActivatedAbility`: its cost's choices, timing, zones,
restrictions and what it does). Activating one is the kernel's action kind
:class:`Activate` (``do = "activate"`` in a scenario file), so an activation
is one command like any action: performed on a working copy, followed by
state-based actions and what triggers, and refused, changing nothing, with
the rule it breaks.

The checks, in order (each an :class:`~redzone.IllegalActionError`):

1. the ability is declared (602.1) and its source exists and has the
   keyword (602.1, 702.1: the keyword is the ability);
2. the source is in a zone the ability functions from (113.6);
3. the player is the source's controller, its owner off the battlefield
   (602.2);
4. a player has priority: not in the untap step (502.4), nor in a cleanup
   step with nothing on the stack (514.3, 514.3a); redzone has no mana
   abilities (605.3a), which could be activated then;
5. it is the ability's timing (602.5, the ability's rule): one of its
   steps, or as a sorcery (602.5d: its controller's main phase, with an
   empty stack, as :mod:`redzone.kernel.zones` casts a sorcery);
6. the cost's choices are exactly the declared keys, each of its type,
   each id naming what the state has (602.2b, 601.2h);
7. the ability's restrictions allow it (602.5, the ability's rule).

Then the ``activate`` event, and the ability's ``perform``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol

from redzone.kernel.answers import shown, type_name
from redzone.kernel.errors import IllegalActionError, PluginLoadError, did_you_mean
from redzone.kernel.events import Event
from redzone.kernel.hooktypes import SORCERY, Action, ActivatedAbility
from redzone.kernel.hooktypes import Activate as Activate
from redzone.kernel.model import GameState
from redzone.kernel.results import Outcome
from redzone.kernel.shapes import described, ref_kind, shape_of
from redzone.kernel.slots import owning
from redzone.kernel.zones import sorcery_timing_problem, without_priority

# The working copy (redzone.kernel.tx.Tx) and the engine are above this module
# (the engine's plugins load the abilities declared here): typed by what is used.


class _Performs(Protocol):
    def perform(self, state: GameState, action: Action, *, choices: Any = None) -> Outcome: ...

#: The rule an activation at the wrong time or with an unmet restriction breaks.
RULE = "602.5"
#: The rule an activation "only as a sorcery" at another time breaks.
SORCERY_RULE: Final = "602.5d"

#: The names an ability's ``timing`` may give (602.5), each with the steps
#: (``GameState.step``) it is: the state names the first main phase
#: ``"main"``. Besides these, a plugin's combat damage step (a name ending
#: in ``_damage``) and ``"sorcery"`` (602.5d).
TIMINGS: Final = {
    "untap": ("untap",), "upkeep": ("upkeep",), "draw": ("draw",),
    "precombat_main": ("main", "precombat_main"), "main": ("main", "precombat_main"),
    "beginning_of_combat": ("beginning_of_combat",),
    "declare_attackers": ("declare_attackers",), "declare_blockers": ("declare_blockers",),
    "combat_damage": ("combat_damage",), "end_of_combat": ("end_of_combat",),
    "postcombat_main": ("postcombat_main",), "end_step": ("end_step",),
    "cleanup": ("cleanup",),
}

#: Why no ability is activated in a step no player gets priority in.
_NO_PRIORITY_RULES: Final = {"untap": "502.4", "cleanup": "514.3"}


def _known_timing(name: str) -> bool:
    """Whether ``name`` is a timing :data:`TIMINGS` knows, ``"sorcery"`` or
    a combat damage step's (``first_strike_damage``; its damage on the
    stack, ``_assigned``)."""
    return name in TIMINGS or name == SORCERY or name.removesuffix("_assigned").endswith(
        "_damage")


def _in_step(step: str, name: str) -> bool:
    """Whether the state's ``step`` is the timing ``name``'s step."""
    return step in TIMINGS.get(name, (name,))


def load_abilities(declared: Iterable[tuple[Any, Sequence[ActivatedAbility]]]
                   ) -> dict[str, tuple[ActivatedAbility, str]]:
    """The abilities ``redzone_activated_abilities`` declared, by name, with
    their plugin.

    :param declared: each implementation (with its ``plugin``'s name and
        distribution) and the abilities it declares.
    :raises PluginLoadError: when two plugins declare one name.
    """
    found: dict[str, tuple[ActivatedAbility, str]] = {}
    for impl, abilities in declared:
        for ability in abilities:
            problem = _declaration_problem(ability)
            if problem is not None:
                raise PluginLoadError(
                    f"plugin {impl.plugin.name!r} declares the activated ability "
                    f"{ability.name!r} {problem}", plugin=impl.plugin.name,
                    distribution=impl.plugin.distribution)
            if ability.name in found:
                raise PluginLoadError(
                    f"the activated ability {ability.name!r} is declared by two plugins: "
                    f"{found[ability.name][1]!r} and {impl.plugin.name!r}; block one of them",
                    plugin=impl.plugin.name, distribution=impl.plugin.distribution)
            found[ability.name] = (ability, impl.plugin.name)
    return dict(sorted(found.items()))


def _declaration_problem(ability: ActivatedAbility) -> str | None:
    """What is wrong with a declared ability's values, or ``None``."""
    def words(values: Any) -> bool:
        return all(type(v) is str and v for v in values)

    if type(ability.name) is not str or not ability.name or type(ability.rule) is not str:
        return "with a name or rule that isn't a non-empty string"
    if not callable(ability.perform):
        return "without a callable 'perform'"
    if ability.restrictions is not None and not callable(ability.restrictions):
        return "with 'restrictions' that isn't callable"
    if not words(ability.cost):
        return "with a cost's choice key that isn't a non-empty string"
    if not words(ability.timing) or not words(ability.zones) or not ability.zones:
        return "with a step of 'timing' or a zone of 'zones' that isn't a non-empty string"
    for name in ability.timing:
        if not _known_timing(name):
            return (f"with the timing {name!r}, which is no step nor 'sorcery' (602.5)"
                    f"{did_you_mean(name, [*TIMINGS, SORCERY])}; the timings: "
                    f"{', '.join([*TIMINGS, SORCERY])}, or a combat damage step's name")
    return None


def _refuse(a: Activate, why: str, rule: str, *ids: str) -> IllegalActionError:
    return IllegalActionError(f"activate {a.ability!r} of {a.source!r}: {why}", rule=rule,
                              objects=(a.source, *ids))


def _fits(state: GameState, tp: Any, value: Any) -> str | None:
    """Why ``value`` doesn't fit the cost annotation ``tp`` (``None``: it
    fits): its type, by the one rule of :mod:`redzone.kernel.shapes` (a
    TOML or JSON list stands for a tuple or frozenset), then each id it
    names, which must be of the game as its reference kind says."""
    shape = shape_of(tp)
    kind = ref_kind(shape)
    if isinstance(value, (list, tuple, frozenset)):
        made = next((m.origin for m in (shape, *shape.args) if m.kind == "items"
                     and m.origin in (tuple, frozenset, list)), None)
        value = made(value) if made is not None else value
    if not shape.fits(value):
        return (f"{shown(value)} ({type_name(value)}), where {described(shape)} was "
                "expected")
    if kind is None:
        return None
    names = [value] if isinstance(value, str) else [
        v for v in value if isinstance(v, str)] if isinstance(value, (tuple, frozenset)) else []
    for name in names:
        known = (kind in ("player", "player or object", "any") and name in state.players) or (
            kind != "player" and name in state.objects)
        if not known:
            everything = list(state.objects) + list(state.players)
            return f"{name!r} is not in the game{did_you_mean(name, everything)}"
    return None


def check(state: GameState, ability: ActivatedAbility, a: Activate) -> None:
    """Every check of an activation before its cost is paid (the module's
    list, from 2).

    :raises IllegalActionError: naming the rule it breaks; nothing changes.
    """
    obj = state.objects.get(a.source)
    if obj is None:
        raise _refuse(a, "no such object" + did_you_mean(a.source, state.objects), "602.2")
    if not obj.has(ability.name):
        raise _refuse(a, f"{obj.name} doesn't have {ability.name}", "602.1")
    if obj.zone not in ability.zones:
        raise _refuse(a, f"it functions only from the {' or '.join(ability.zones)}, and "
                         f"{obj.name} is in the {obj.zone}", "113.6")
    who = obj.controller if obj.zone == "battlefield" else obj.owner
    if a.player is not None and a.player != who:
        raise _refuse(a, f"only {who!r}, who {'controls' if obj.zone == 'battlefield' else 'owns'}"
                         f" {obj.name}, can activate it", "602.2")
    if without_priority(state):
        raise _refuse(a, f"it can't be activated in the {state.step} step: no player gets "
                         "priority then", _NO_PRIORITY_RULES.get(state.step, "117.3a"))
    steps = [name for name in ability.timing if name != SORCERY]
    if ability.timing and not any(_in_step(state.step, name) for name in steps):
        now = "precombat_main" if state.step == "main" else state.step or "outside combat"
        if SORCERY in ability.timing:
            why = sorcery_timing_problem(state, who)
            if why is not None:
                also = f" or during the {' or '.join(steps)} step" if steps else ""
                raise _refuse(a, f"it may be activated only as a sorcery{also}, and {why} "
                                 f"({ability.rule})", SORCERY_RULE, who)
        else:
            raise _refuse(a, f"it may be activated only during the {' or '.join(steps)} "
                             f"step, not {now} ({ability.rule})", RULE)
    wanted = set(ability.cost)
    for key in a.cost:
        if key not in wanted:
            raise _refuse(a, f"its cost has no choice {key!r}{did_you_mean(key, wanted)}; "
                             f"its choices: {', '.join(ability.cost) or 'none'}", "602.2b")
    for key, tp in ability.cost.items():
        if key not in a.cost:
            raise _refuse(a, f"its cost needs the choice {key!r}", "602.2b")
        why = _fits(state, tp, a.cost[key])
        if why is not None:
            raise _refuse(a, f"its cost's {key!r}: {why}", "602.2b")
    if ability.restrictions is not None:
        why = ability.restrictions(state, a)
        if why is not None:
            raise _refuse(a, f"{why} ({ability.rule})", RULE,
                          *(v for v in a.cost.values() if isinstance(v, str)))


def activate_action(tx: Any, action: Action) -> None:
    """Perform an :class:`Activate`: the checks, the ``activate`` event, then
    the ability's ``perform`` (its cost, then its effect)."""
    assert isinstance(action, Activate)
    found = tx.hooks.activated_abilities.get(action.ability)
    if found is None:
        known = tx.hooks.activated_abilities
        raise _refuse(action, "no loaded plugin declares that ability"
                      + did_you_mean(action.ability, known)
                      + (f" (the abilities: {', '.join(known)})" if known else ""), "602.1")
    ability, owner = found
    # The ability's code runs for its plugin: it writes that plugin's slot,
    # and a fault in it names that plugin and this hook.
    saved = tx.plugin
    tx.plugin = owner
    tx.acting.add(owner)
    try:
        state = tx.state
        with owning(owner):  # its Slot handles read its own slot
            check(state, ability, action)
        obj = state.objects[action.source]
        player = obj.controller if obj.zone == "battlefield" else obj.owner
        tx.emit(Event.make("activate", "602.2", source=action.source, player=player,
                           ability=ability.name))
        with owning(owner):
            ability.perform(tx, action)
    except BaseException as exc:
        if isinstance(exc, IllegalActionError) or tx.hooks.triaged(exc):
            raise
        err = tx.hooks.triage(owner, "redzone_activated_abilities", state, exc,
                              doing=f"activating the ability {ability.name!r} ")
        if err is exc:
            raise
        raise err from exc
    finally:
        tx.plugin = saved


class Activations:
    """:class:`~redzone.Engine`'s activation command (a part of it)."""

    def activate(self: _Performs, state: GameState, source: str, ability: str,
                 cost: Mapping[str, Any] | None = None, *, player: str | None = None,
                 choices: Any = None) -> Outcome:
        """Activate the activated ability ``ability`` of ``source`` (602.2):
        pay its cost, with ``cost``'s choices, and resolve it, then
        state-based actions and what triggers.

        :param cost: the cost's choices, by the keys the ability documents.
        :param player: who activates it (default: the source's controller).
        :param choices: answers by key to the choices met on the way.
        :raises IllegalActionError: when its timing, zone, cost or
            restrictions aren't met (602.5), naming the rule; nothing changes.

        .. versionadded:: 0.1.0
        """
        return self.perform(state, Activate(source, ability, cost or {}, player),
                            choices=choices)


__all__ = ["RULE", "SORCERY_RULE", "TIMINGS", "Activate", "Activations", "activate_action",
           "check", "load_abilities"]
