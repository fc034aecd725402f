"""A combat damage step's record shows each creature's lethal damage two
ways (510.1c-d, 702.19b): counting what every other creature assigns in the
step, and counting what the creatures before it assign. The record asks
both in one pass (:func:`redzone.kernel.combat.lethal_views`), sharing the
question where the two are one; what it finds is what the two separate
computations (:func:`redzone.kernel.combat.lethal_map`) find, on boards
mixing every keyword, whether or not the plugins are asked."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from redzone import Engine
from redzone.kernel import combat as _combat
from redzone.kernel import steps as _steps
from redzone.testing.conformance import Case, cases, legalize, play, printed_keywords

ENGINE = Engine(verify=False)
KEYWORDS = printed_keywords(ENGINE)


def _views_match(state: Any) -> int:
    """Compare the two ways for every duty of the next damage step of
    ``state``, asking the plugins and not; the number of duties compared."""
    ctx, hooks = ENGINE.context, ENGINE.hooks
    step, participants = _steps.damage_step_kind(ctx, state)
    duties = _combat.duties(hooks, state, participants, step)
    full = ctx.policy(hooks, state, step, duties, {})
    by = _combat.assigned_to(full)
    compared = 0
    for asked in {hooks.asks("redzone_lethal_damage", state), True}:
        earlier: dict[str, int] = {}
        for duty in duties:
            if duty.creatures:
                lethal, before = _combat.lethal_views(hooks, state, duty, earlier, by, asked)
                assert dict(lethal) == _combat.lethal_map(hooks, state, duty, earlier, {},
                                                          full=full, asked=asked)
                assert dict(before) == _combat.lethal_map(hooks, state, duty, earlier, {},
                                                          asked=asked)
                compared += 1
            for r, n in full.get(duty.source, {}).items():
                if n > 0:
                    earlier[r] = earlier.get(r, 0) + n
    return compared


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(ENGINE, KEYWORDS, max_attackers=3, max_blockers=4))
def test_the_records_lethal_views_are_the_two_lethal_maps(case: Case) -> None:
    """510.1c-d, 702.19b: on any legal declaration (played with the default
    assignments, which are legal: 510.1e, so an IllegalActionError here is a
    bug, not a board to skip), each damage step's lethal views are the two
    lethal maps."""
    legal = legalize(ENGINE, case)
    if legal is None:
        return
    records = play(ENGINE, legal, turn=False)
    for record in records:
        state = record.before
        if ENGINE.next_step(state) in ("first_strike_damage", "combat_damage") \
                and state.combat is not None:
            _views_match(state)


def test_creatures_sharing_a_recipient_and_one_assigning_to_many_are_compared() -> None:
    """An attacker with deathtouch blocked by three creatures assigns among
    them, each of which assigns to it: the views differ from one creature
    to the next (the blockers before one have assigned to the attacker) and
    are still the two maps'."""
    state = ENGINE.game(["alice", "bob"], [
        ENGINE.creature("viper", "alice", 5, 9, "deathtouch"),
        ENGINE.creature("b1", "bob", 2, 2), ENGINE.creature("b2", "bob", 3, 3),
        ENGINE.creature("b3", "bob", 4, 4)])
    state = ENGINE.declare_attackers(state, {"viper": "bob"}).state
    state = ENGINE.declare_blockers(state, {"b1": ("viper",), "b2": ("viper",),
                                            "b3": ("viper",)}).state
    assert _views_match(state) >= 4
