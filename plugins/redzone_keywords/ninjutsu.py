"""Ninjutsu (CR 702.49).

"Ninjutsu [cost]" means "[Cost], Reveal this card from your hand, Return an
unblocked attacking creature you control to its owner's hand: Put this card
onto the battlefield from your hand tapped and attacking" (702.49a). It
functions only while the card is in its owner's hand (702.49a, 113.6).

An activated ability (602), declared with ``redzone_activated_abilities``
and activated with :meth:`redzone.Engine.activate` or a scenario file's
``do = "activate"``, ``ability = "ninjutsu"``, with the cost's one choice:

``cost = { return = "<creature>" }``: the unblocked attacking creature its
player controls, returned to its owner's hand.

The kernel refuses the activation, changing nothing, when the card isn't in
its owner's hand (113.6), or it isn't a step with unblocked creatures (the
declare blockers step, a combat damage step or the end of combat step:
702.49c, 509.1h), or the creature to return isn't an unblocked attacking
creature its player controls (702.49a, 702.49c). The mana part of the cost
isn't modelled: paying it is the embedding's (as for casting).

It resolves as one command: the returned creature goes to its owner's hand
(a new object, 400.7), and the ninja is put onto the battlefield tapped and
attacking the player, planeswalker or battle that creature was attacking
(702.49c). It was never declared as an attacker, so "whenever ... attacks"
doesn't trigger (508.4c); it is unblocked (702.49c, 508.4d). If what the
returned creature attacked is gone (506.4c), the ninja enters tapped and
isn't attacking (508.4a).
"""

from __future__ import annotations

from redzone import (
    Action,
    Activate,
    ActivatedAbility,
    GameState,
    KeywordSpec,
    ObjectId,
    Tx,
    hookimpl,
)

KIND = "ninjutsu"
RULE = "702.49a"
#: The steps in which a creature can be unblocked and attacking (509.1h,
#: 702.49c): from the declare blockers step to the end of combat step.
TIMING = ("declare_blockers", "first_strike_damage", "combat_damage", "end_of_combat")


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "702.49", form="ninjutsu {cost}",
                        summary="from your hand: return an unblocked attacker to put this "
                        "onto the battlefield tapped and attacking",
                        examples=("ninjutsu {1}{u}", "ninjutsu {3}{b}"))]


def _why_not(state: GameState, a: Action) -> str | None:
    """Why the creature to return can't be returned (702.49a, 702.49c)."""
    assert isinstance(a, Activate)
    returned = a.cost.get("return")
    combat = state.combat
    perm = state.on_battlefield(str(returned))
    ninja = state.objects[a.source]
    if perm is None:
        return f"{returned!r} is not on the battlefield"
    if combat is None or returned not in combat.attacks:
        return f"{perm.name} is not an attacking creature"
    if returned in combat.blocked:
        return f"{perm.name} is blocked: only an unblocked attacking creature can be returned"
    if perm.controller != ninja.owner:
        return f"{perm.name} is controlled by {perm.controller!r}, not {ninja.owner!r}"
    return None


def _perform(tx: Tx, a: Action) -> None:
    # Imported here: an engine imports this plugin as it is built (it declares
    # an activated ability), and the kernel's action classes only when needed.
    from redzone import Move

    assert isinstance(a, Activate)
    state = tx.state
    returned = str(a.cost["return"])
    assert state.combat is not None
    attacked = state.combat.attacks.get(returned)
    tx.perform(Move(returned, "hand"))
    tx.perform(Move(a.source, "battlefield", tapped=True, attacking=attacked))


@hookimpl
def redzone_activated_abilities() -> list[ActivatedAbility]:
    return [ActivatedAbility(KIND, RULE, _perform, {"return": ObjectId}, timing=TIMING,
                             zones=("hand",), restrictions=_why_not,
                             summary="return an unblocked attacker you control to its "
                             "owner's hand: put this card onto the battlefield tapped and "
                             "attacking")]
