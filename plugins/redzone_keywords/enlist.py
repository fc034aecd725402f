"""Enlist (CR 702.154).

"As this creature attacks, you may tap up to one untapped creature you
control that you didn't choose to attack with and that either has haste or
has been under your control continuously since this turn began. When you do,
this creature gets +X/+0 until end of turn, where X is the tapped creature's
power" (702.154a).

- The static ability is an optional cost to attack (702.154b, 508.1g): a
  choice of kind ``cost`` made as attackers are declared, with the key
  ``"enlist:<attacker>"`` (``#2`` after it for a second instance, 702.154d).
  Its options are the creatures that could be enlisted; the default is to
  enlist none ("you may"), so a board without an answer plays as if enlist
  weren't there.
- Paying it is this plugin's own action kind, ``enlist``: it taps the other
  creature. The action a scenario performs (``do = "enlist"``) and the
  declaration's choice are checked alike: only while the enlisting creature
  attacks, in the declare attackers step (702.154b, 508.1g); not itself
  (702.154c); only an untapped creature its controller controls that wasn't
  chosen to attack and has haste or was controlled since the turn began;
  and up to one creature for each instance each combat (702.154d; kept in
  the plugin's combat slot).
- A creature put onto the battlefield attacking (a token copy made by
  myriad, a ninja) was never declared as an attacker: it never "attacked"
  (508.4), so it has no enlist cost to pay (the combat's ``entered``).
- "When you do" is a reflexive triggered ability (603.12): it triggers on the
  ``enlisted`` event and gives +X/+0 until end of turn, X being the tapped
  creature's power as the ability resolves (its last known power if it left),
  or zero if that power is negative (107.1b).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen
from redzone import (
    Action,
    ActionSpec,
    Choice,
    Event,
    EventKind,
    GameState,
    IllegalActionError,
    KeywordSpec,
    ObjectId,
    Slot,
    Trigger,
    Tx,
    hookimpl,
)

if TYPE_CHECKING:
    from redzone import Pump

KIND = "enlist"

#: The enlist costs paid this combat, as (enlisting creature, enlisted
#: creature) pairs: each instance taps up to one creature (702.154a, d).
PAID = Slot("combat")


@frozen
class Enlist(Action):
    """Pay an enlist cost: ``creature`` enlists ``enlisted`` by tapping it (702.154c).

    :param creature: the attacking creature with enlist.
    :param enlisted: the creature tapped.
    """

    do: ClassVar[str] = "enlist"
    creature: ObjectId
    enlisted: ObjectId


def _refuse(action: Enlist, why: str, rule: str = "702.154a") -> IllegalActionError:
    return IllegalActionError(f"enlist: {why}", rule=rule,
                              objects=(action.creature, action.enlisted))


def _pay(tx: Tx, action: Action) -> None:
    """Pay one enlist cost: the checks of 702.154a-d, whichever way it is
    paid (the declaration's choice, or the ``enlist`` action a scenario or a
    caller performs), then the tap."""
    assert isinstance(action, Enlist)
    enlisting = tx.permanent(action.creature, action.do)
    perm = tx.permanent(action.enlisted, action.do)
    if not enlisting.has(KIND):
        raise IllegalActionError(f"enlist: {action.creature!r} doesn't have enlist, so it has "
                                 "no enlist cost to pay", rule="702.154a",
                                 objects=(action.creature,))
    if action.enlisted == action.creature:
        raise _refuse(action, f"{action.creature!r} can't enlist itself", "702.154c")
    combat = tx.state.combat
    if combat is None or action.creature not in combat.declared \
            or action.creature not in combat.attacks:
        raise _refuse(action, f"{action.creature!r} isn't attacking: enlist is a cost to "
                              "attack, paid as it attacks (508.1g)", "702.154b")
    if tx.state.step != "declare_attackers":
        raise _refuse(action, f"enlist is a cost to attack, paid as {action.creature!r} "
                              "attacks (508.1g), and the game is past the declare attackers "
                              f"step (at {tx.state.step!r})", "702.154b")
    if action.creature in combat.entered:
        raise _refuse(action, f"{action.creature!r} was put onto the battlefield attacking: "
                              "it was never declared as an attacker and never \"attacked\" "
                              "(508.4), so it has no enlist cost to pay as it attacks")
    if not perm.is_creature or perm.controller != enlisting.controller:
        raise _refuse(action, f"{action.enlisted!r} isn't a creature "
                              f"{enlisting.controller} controls, so it can't be tapped "
                              "to enlist")
    if perm.tapped:
        raise _refuse(action, f"{action.enlisted!r} is already tapped, so it can't be tapped "
                              "to pay the cost")
    if action.enlisted in combat.declared:
        raise _refuse(action, f"{action.enlisted!r} was chosen to attack, so it can't be "
                              "enlisted")
    if perm.summoning_sick and not perm.has("haste"):
        raise _refuse(action, f"{action.enlisted!r} hasn't been under "
                              f"{perm.controller}'s control since the turn began and has no "
                              "haste")
    paid = PAID.get(tx.state) or ()
    instances = len(enlisting.instances(KIND))
    if sum(1 for creature, _ in paid if creature == action.creature) >= instances:
        raise _refuse(action, f"{action.creature!r} has paid the cost of each of its "
                              f"{instances} enlist abilit{'y' if instances == 1 else 'ies'} "
                              "this combat (each taps up to one creature)", "702.154d")
    tx.set_state((*paid, (action.creature, action.enlisted)), "combat", plugin=PAID.name)
    tx.put(perm.evolve(tapped=True))
    tx.emit(Event("enlisted", "702.154c", source=action.creature, object=action.enlisted,
                  player=perm.controller))


@hookimpl
def redzone_event_kinds() -> list[EventKind]:
    """The event enlisting makes, as the accounts word it (702.154c)."""
    return [EventKind("enlisted", "702.154c", "{source} enlists {object}, which becomes tapped",
                      ("source", "object", "player"),
                      summary="a creature is tapped to pay an attacker's enlist cost")]


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.154",
                        summary="may tap a creature that didn't attack: +X/+0, its power")]


@hookimpl
def redzone_actions() -> list[ActionSpec]:
    return [ActionSpec(Enlist, _pay, "702.154a")]


@hookimpl
def redzone_attack_choices(state: GameState, attacks: Mapping[str, str]) -> list[Choice]:
    out = []
    for attacker in attacks:
        perm = state.on_battlefield(attacker)
        if perm is None:
            continue
        able = tuple(sorted(
            p.id for p in state.battlefield
            if p.is_creature and p.controller == perm.controller and not p.tapped
            and p.id not in attacks and (p.has("haste") or not p.summoning_sick)))
        for n, _ in enumerate(perm.instances(KIND), start=1):
            name = attacker if n == 1 else f"{attacker}#{n}"
            out.append(Choice(name, perm.controller, "cost", able, default=(), min=0, max=1,
                              rule="702.154a", text=f"tap a creature for {perm.name} to enlist",
                              then={x: (Enlist(attacker, x),) for x in able},
                              key=f"{KIND}:{name}"))
    return out


@hookimpl
def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
    return [Trigger(KIND, e.source, state.source(e.source).controller, "702.154a",
                    f"gets +X/+0 until end of turn, X being {e.object}'s power",
                    targets=(e.object,))
            for e in events if e.kind == "enlisted" and e.source and e.object]


@hookimpl
def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Pump]:
    if trigger.kind != KIND or not trigger.targets:
        return []
    if state.on_battlefield(trigger.source) is None:
        return []
    # 107.1b: X is never below zero (the effect neither doubles nor sets power).
    power = max(0, state.source(trigger.targets[0]).power)
    # Imported here: an engine imports this plugin as it is built (it declares
    # an action kind), and the kernel's action classes only when needed.
    from redzone import Pump

    return [Pump(trigger.source, power, 0)]

