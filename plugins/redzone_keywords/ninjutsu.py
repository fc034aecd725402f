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

The activation is refused (602.5), changing nothing, when the card isn't in
its owner's hand (113.6), or the creature to return isn't an unblocked
attacking creature its player controls (702.49a, 702.49c), or it isn't a
step in which a creature can be unblocked (509.1h): it may be activated in
each step of the combat phase from the declare blockers step through the
end of combat step, as the engine has them: the combat damage steps plugins
declare (510.4, first strike's among them) and, under an edition whose
combat damage uses the stack, each one's window after its combat damage is
put on the stack (``combat_damage_assigned``: 310.1 of February 2009, "Then
the active player gets priority and players may play spells and
abilities"). The mana part of the cost isn't modelled: paying it is the
embedding's (as for casting).

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
    IllegalActionError,
    KeywordSpec,
    ObjectId,
    Tx,
    hookimpl,
)

KIND = "ninjutsu"
RULE = "702.49a"
#: The first step in which a creature can be unblocked and attacking (509.1h,
#: 702.49c); the last is the end of combat step.
FIRST_STEP = "declare_blockers"


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


def _timing(tx: Tx, a: Activate) -> None:
    """Refuse, changing nothing, an activation outside the steps in which a
    creature can be unblocked: the engine's combat steps from the declare
    blockers step through the end of combat step, with the combat damage
    steps plugins declare and, under an edition whose combat damage uses the
    stack, their windows while it waits there.

    Rules: 702.49a, 702.49c, 509.1h, 510.4, 602.5

    :raises IllegalActionError: (602.5) naming the steps and the step now.
    """
    # (The engine's steps are known only here, with its context: the
    # ability's ``timing`` is fixed as plugins load.)
    from redzone.kernel.steps import step_names

    names = step_names(tx.context)
    allowed = names[names.index(FIRST_STEP):]
    step = tx.state.step
    if step not in allowed:
        raise IllegalActionError(
            f"activate {a.ability!r} of {a.source!r}: it may be activated only during the "
            f"{' or '.join(allowed)} step, not {step or 'outside combat'} ({RULE})",
            rule="602.5", objects=(a.source,))


def _perform(tx: Tx, a: Action) -> None:
    # Imported here: an engine imports this plugin as it is built (it declares
    # an activated ability), and the kernel's action classes only when needed.
    from redzone import Move

    assert isinstance(a, Activate)
    _timing(tx, a)
    state = tx.state
    returned = str(a.cost["return"])
    assert state.combat is not None
    attacked = state.combat.attacks.get(returned)
    tx.perform(Move(returned, "hand"))
    tx.perform(Move(a.source, "battlefield", tapped=True, attacking=attacked))


@hookimpl
def redzone_activated_abilities() -> list[ActivatedAbility]:
    # (No fixed ``timing``: the steps are the engine's, checked as it is
    # activated, before anything is paid.)
    return [ActivatedAbility(KIND, RULE, _perform, {"return": ObjectId},
                             zones=("hand",), restrictions=_why_not,
                             summary="return an unblocked attacker you control to its "
                             "owner's hand: put this card onto the battlefield tapped and "
                             "attacking")]
