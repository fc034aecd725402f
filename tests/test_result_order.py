"""The order of replacement effects on one result of damage or one life
gain (616.1, 120.4c, 614.1a): "If two or more replacement and/or prevention
effects are attempting to modify the way an event affects an object or
player, the affected object's controller (or its owner if it has no
controller) or the affected player chooses one to apply ... Once the chosen
effect has been applied, this process is repeated" (616.1, 616.1f).

The board: alice controls a permanent with the test keyword "vitality",
whose plugin gives two replacements of her life gain, in the manner of Boon
Reflection ("twice that much life instead") and Angel of Vitality ("that
much life plus 1 instead"). Gaining 2: angel first gives (2+1)x2 = 6, boon
first 2x2+1 = 5.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redzone import Engine, GameState, IllegalActionError, ResultReplacement, UnaskedChoiceError
from redzone.kernel.actions import GainLife
from redzone.testing import plugin_module

KEY = "result_order@alice:life_gain"
BOON, ANGEL = "boon reflection", "angel of vitality"


def _mine(state: GameState, player: str | None) -> bool:
    return any(p.has("vitality") and p.controller == player and p.zone == "battlefield"
               for p in state.objects.values())


def _replacements(state: GameState, result: object) -> list[ResultReplacement]:
    from redzone import Result

    assert isinstance(result, Result)
    if result.kind != "life_gain" or not _mine(state, result.player):
        return []
    return [
        ResultReplacement(BOON, "614.1a", lambda s, r: r.evolve(amount=r.amount * 2)),
        ResultReplacement(ANGEL, "614.1a", lambda s, r: r.evolve(amount=r.amount + 1)),
    ]


def _same(state: GameState, result: object) -> list[ResultReplacement]:
    """Two replacements whose order doesn't matter: both double."""
    from redzone import Result

    assert isinstance(result, Result)
    if result.kind != "life_gain" or not _mine(state, result.player):
        return []
    return [ResultReplacement(f"doubler {n}", "614.1a",
                              lambda s, r: r.evolve(amount=r.amount * 2)) for n in (1, 2)]


ENGINE = Engine(discover=False, plugins=[
    plugin_module("vitality", "vitality", redzone_result_replacements=_replacements)])
SAME = Engine(discover=False, plugins=[
    plugin_module("vitality", "vitality", redzone_result_replacements=_same)])
WITH_KEYWORDS = Engine(plugins=[
    plugin_module("vitality", "vitality", redzone_result_replacements=_replacements)])


def board(engine: Engine = ENGINE, *, lifelink: bool = False) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        engine.permanent("reflection", "alice", types={"enchantment"}, keywords=["vitality"]),
        c("link", "alice", 2, 2, *(["lifelink"] if lifelink else [])),
        c("bear", "bob", 2, 2)])


def life(state: GameState) -> int:
    return state.players["alice"].life


def test_616_1_the_affected_player_is_asked_the_order() -> None:
    """616.1: two replacements of alice's life gain whose order changes how
    much she gains: she is asked, with both effects as options, every one
    once, and their order by effect name as the default."""
    state = board()
    listed = [c for c in ENGINE.choices_for(state, "perform", GainLife("alice", 2))
              if c.key == KEY]
    assert len(listed) == 1
    choice = listed[0]
    assert (choice.player, choice.kind, choice.min, choice.max, choice.rule) == (
        "alice", "order", 2, 2, "616.1")
    assert sorted(choice.options) == sorted([BOON, ANGEL])
    assert choice.default == (ANGEL, BOON)


def test_616_1_the_default_applies_them_by_effect_name() -> None:
    """616.1: with no answer, angel (+1) then boon (x2): 2 becomes 6."""
    state = board()
    out = ENGINE.perform(state, GainLife("alice", 2))
    assert life(out.state) == life(state) + 6
    assert [(c.answer, c.by_default) for c in out.choices if c.key == KEY] == [
        ((ANGEL, BOON), True)]


def test_616_1_the_player_chooses_the_other_order() -> None:
    """616.1f: alice applies boon first: 2x2+1 = 5."""
    state = board()
    out = ENGINE.perform(state, GainLife("alice", 2), choices={KEY: [BOON, ANGEL]})
    assert life(out.state) == life(state) + 5
    assert [c.by_default for c in out.choices if c.key == KEY] == [False]


def test_616_1_the_order_of_lifelinks_gain_in_combat() -> None:
    """120.3f, 702.15b, 616.1: lifelink's life gain from combat damage is a
    result of the damage event; alice orders its replacements: 2 damage,
    boon first, gains 5."""
    state = WITH_KEYWORDS.declare_attackers(board(WITH_KEYWORDS, lifelink=True),
                                            {"link": "bob"}).state
    state = WITH_KEYWORDS.declare_blockers(state, {}).state
    listed = [c for c in WITH_KEYWORDS.choices_for(state, "combat_damage") if c.key == KEY]
    assert [c.options for c in listed] and listed[0].player == "alice"
    out = WITH_KEYWORDS.combat_damage(state, choices={KEY: [BOON, ANGEL]})
    assert life(out.state) == life(state) + 5
    default = WITH_KEYWORDS.combat_damage(state)
    assert life(default.state) == life(state) + 6


@pytest.mark.parametrize("answer", [[BOON], [BOON, BOON], [BOON, ANGEL, "worship"], []])
def test_616_1_an_answer_that_isnt_an_order_of_them_is_refused(answer: list[str]) -> None:
    """616.1: the answer orders every effect once: one left out, a repeat or
    an effect that doesn't apply is an illegal answer citing 616.1, and the
    state is left as it was."""
    state = board()
    with pytest.raises(IllegalActionError) as caught:
        ENGINE.perform(state, GainLife("alice", 2), choices={KEY: answer})
    assert caught.value.rule == "616.1"
    assert life(state) == 20


def test_616_1_no_choice_when_the_order_changes_nothing() -> None:
    """616.1: two doublings give 4x whatever their order: nobody is asked,
    and an answer is refused as asked for nothing (601.2)."""
    state = board(SAME)
    out = SAME.perform(state, GainLife("alice", 2))
    assert life(out.state) == life(state) + 8
    assert not [c for c in out.choices if c.key.startswith("result_order@")]
    with pytest.raises(UnaskedChoiceError):
        SAME.perform(state, GainLife("alice", 2), choices={KEY: ["doubler 2", "doubler 1"]})


def test_616_1_a_second_life_gain_in_one_command_has_its_own_key() -> None:
    """601.2, 616.1: two life gains in one resolution are two events, each
    ordered on its own: the second is keyed ``#2``."""
    state = board()
    out = ENGINE.perform(state, [GainLife("alice", 2), GainLife("alice", 2)],
                         choices={f"{KEY}#2": [BOON, ANGEL]})
    assert [(c.key, c.by_default) for c in out.choices if c.key.startswith(KEY)] == [
        (KEY, True), (f"{KEY}#2", False)]
    assert life(out.state) == life(state) + 6 + 5


@given(st.integers(min_value=1, max_value=6),
       st.sampled_from([None, *itertools.permutations([BOON, ANGEL])]))
def test_616_1_the_life_gained_is_the_chosen_orders(amount: int,
                                                   order: tuple[str, ...] | None) -> None:
    """616.1f, 119.3: whatever the amount and the answer, alice gains what
    applying the effects in the chosen order (by name when none is given)
    gives."""
    state = board()
    choices = {KEY: list(order)} if order is not None else None
    out = ENGINE.perform(state, GainLife("alice", amount), choices=choices)
    gained = amount
    for effect in order or (ANGEL, BOON):
        gained = gained * 2 if effect == BOON else gained + 1
    assert life(out.state) - life(state) == gained


# ---------------------------------------------------------------------------
# 616.1f: only what still applies; who chooses for tokens; orders not chosen
# ---------------------------------------------------------------------------


def _remedy(state: GameState, result: object) -> list[ResultReplacement]:
    """Tainted Remedy: "If an opponent would gain life, that player loses
    that much life instead" (bob is alice's opponent)."""
    from redzone import Result

    assert isinstance(result, Result)
    if result.kind != "life_gain" or result.player != "bob":
        return []
    return [ResultReplacement("tainted remedy", "614.1a",
                              lambda s, r: r.evolve(kind="life_loss"))]


def test_616_1f_an_effect_that_no_longer_applies_is_not_applied() -> None:
    """616.1f: "this process is repeated (taking into account only
    replacement or prevention effects that would now be applicable)": bob
    has Boon Reflection (double his life gain) and alice's Tainted Remedy
    turns his life gain into life loss. Remedy first: he loses 2, and Boon
    Reflection, which applies to life gain, no longer applies. Doubling
    first: he loses 4. So he is asked."""
    from redzone.kernel.model import Effect

    engine = Engine(discover=False, plugins=[
        plugin_module("remedy", redzone_result_replacements=_remedy)])
    state = engine.game(["alice", "bob"], [],
                        effects=[Effect("double_life_gain", id="boon", player="bob")])
    key = "result_order@bob:life_gain"
    (choice,) = [c for c in engine.choices_for(state, "perform", GainLife("bob", 2))
                 if c.key == key]
    assert choice.player == "bob"
    boon = next(o for o in choice.options if o != "tainted remedy")
    first = engine.perform(state, GainLife("bob", 2), choices={key: ["tainted remedy", boon]})
    assert first.state.players["bob"].life == 18
    doubled = engine.perform(state, GainLife("bob", 2), choices={key: [boon, "tainted remedy"]})
    assert doubled.state.players["bob"].life == 16


def test_616_1_the_player_who_creates_the_tokens_orders_their_replacements() -> None:
    """616.1, 111.2: a result that creates tokens affects the player who
    creates them (the source's controller unless it names one): that
    player is asked, by a key naming them."""
    from redzone import Result

    def results(state: GameState, damage: Any) -> list[Result]:
        source = state.objects.get(damage.source)
        if source is None or not source.has("vitality"):
            return []
        token = state.objects["bear"].evolve(id="squirrel", controller="alice", owner="alice")
        return [Result("create", "702.999", damage.source, damage.amount, token=token)]

    def more(state: GameState, result: Result) -> list[ResultReplacement]:
        if result.kind != "create":
            return []
        return [ResultReplacement("a twice that many", "614.1a",
                                  lambda s, r: r.evolve(amount=r.amount * 2)),
                ResultReplacement("b one more", "614.1a",
                                  lambda s, r: r.evolve(amount=r.amount + 1))]

    engine = Engine(discover=False, plugins=[plugin_module(
        "vitality", "vitality", redzone_damage_results=results,
        redzone_result_replacements=more)])
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("link", "alice", 2, 2, "vitality"),
                                           c("bear", "bob", 2, 2)])
    state = engine.declare_blockers(engine.declare_attackers(state, {"link": "bob"}).state,
                                    {}).state
    (choice,) = [c for c in engine.choices_for(state, "combat_damage")
                 if c.key.startswith("result_order@")]
    assert (choice.key, choice.player) == ("result_order@alice:create", "alice")
    out = engine.combat_damage(state, choices={choice.key: ["b one more", "a twice that many"]})
    assert sum(1 for o in out.state.objects if o.startswith("link.squirrel.")) == (2 + 1) * 2


def test_616_1_an_order_nobody_chose_doesnt_fail_the_command() -> None:
    """616.1: to find whether the order matters, redzone tries the others;
    one in which a replacement fails (here doubling 600,000 life past what
    redzone counts) isn't the one taken by default, which applies as it
    always did ("set to one" first: 2); the player is asked, and choosing
    the failing order is what fails."""
    from redzone import PluginError, Result

    def replacements(state: GameState, result: Result) -> list[ResultReplacement]:
        if result.kind != "life_gain":
            return []
        return [ResultReplacement("a set to one", "614.1a", lambda s, r: r.evolve(amount=1)),
                ResultReplacement("b double", "614.1a",
                                  lambda s, r: r.evolve(amount=r.amount * 2))]

    engine = Engine(discover=False, plugins=[
        plugin_module("p", redzone_result_replacements=replacements)])
    state = engine.game(["alice", "bob"], [])
    out = engine.perform(state, GainLife("alice", 600_000))
    assert life(out.state) == 22
    assert [c.by_default for c in out.choices if c.key == KEY] == [True]
    with pytest.raises(PluginError):
        engine.perform(state, GainLife("alice", 600_000),
                       choices={KEY: ["b double", "a set to one"]})


def _marked(state: GameState, result: object) -> list[ResultReplacement]:
    """Two replacements of the damage marked on a creature (614.1a): twice
    that much, and that much plus 1."""
    from redzone import Result

    assert isinstance(result, Result)
    if result.kind != "marked":
        return []
    return [ResultReplacement("a twice", "614.1a", lambda s, r: r.evolve(amount=r.amount * 2)),
            ResultReplacement("b plus one", "614.1a", lambda s, r: r.evolve(amount=r.amount + 1))]


def test_616_1_a_creatures_controller_not_its_owner_orders_its_results() -> None:
    """616.1: "the affected object's controller (or its owner if it has no
    controller) ... chooses": 2 damage to the thief bob controls and alice
    owns, with two replacements of the damage marked on it whose order
    matters (2x2+1 = 5 or (2+1)x2 = 6), is ordered by bob, not alice, by a
    key naming the thief; bob's order is the one applied."""
    from redzone import DealDamage

    engine = Engine(discover=False, plugins=[
        plugin_module("marks", redzone_result_replacements=_marked)])
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2),
                                           c("thief", "bob", 0, 9, owner="alice")])
    key = "result_order@thief:marked"
    (choice,) = [c for c in engine.choices_for(state, "perform", DealDamage("bear", "thief", 2))
                 if c.key.startswith("result_order@")]
    assert (choice.key, choice.player) == (key, "bob")
    out = engine.perform(state, DealDamage("bear", "thief", 2),
                         choices={key: ["b plus one", "a twice"]})
    assert [(c.key, c.player, c.by_default) for c in out.choices if c.key == key] == [
        (key, "bob", False)]
    assert out.state.objects["thief"].damage == 6


def test_614_5_a_replacement_applies_to_an_event_once() -> None:
    """614.5: "A replacement effect doesn't invoke itself repeatedly; it gets
    only one opportunity to affect an event or any modified events that may
    replace that event." A replacement "gain that much life plus 1 instead"
    that would still apply to what it made (it applies to any gain of less
    than 10) is asked about again (616.1f) but doesn't apply again: alice
    gains 2 + 1 = 3, not 10."""
    from redzone import Result

    def replacements(state: GameState, result: Result) -> list[ResultReplacement]:
        if result.kind != "life_gain" or result.amount >= 10:
            return []
        return [ResultReplacement("plus one", "614.1a",
                                  lambda s, r: r.evolve(amount=r.amount + 1))]

    engine = Engine(discover=False, plugins=[
        plugin_module("p", redzone_result_replacements=replacements)])
    state = engine.game(["alice", "bob"], [])
    out = engine.perform(state, GainLife("alice", 2))
    assert life(out.state) == life(state) + 3
    assert [(e.kind, e.player, e.amount) for e in out.events if e.kind == "life_gain"] == [
        ("life_gain", "alice", 3)]
