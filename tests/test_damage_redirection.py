"""Damage redirection (614.9) and prevention that sees its batch, its step and
its plugin's own state (615, 120.4b), with in-test plugins."""

from __future__ import annotations

import types
from typing import Any

import pytest
from redzone import (
    Damage,
    DealDamage,
    Engine,
    Event,
    GameState,
    LeaveBattlefield,
    Player,
    PluginState,
    Prevent,
    Prevention,
    Redirection,
    creature,
)
from redzone.kernel.engine import CombatPlan
from redzone.testing import plugin_module as plugin


def redirects(*pairs: tuple[str, str, str]) -> types.ModuleType:
    """Effects ``(effect, from, to)``: damage that would be dealt to ``from``
    is dealt to ``to`` instead (Pariah: "all damage that would be dealt to
    you is dealt to enchanted creature instead")."""
    def redzone_redirect_damage(damage: Damage) -> list[Redirection]:
        return [Redirection(effect, "614.9", to) for effect, frm, to in pairs
                if damage.target == frm]

    return plugin("redirects", redzone_redirect_damage=redzone_redirect_damage)


def of(events: tuple[Event, ...], kind: str) -> list[tuple[Any, ...]]:
    return [(e.source, e.object, e.target, e.amount) if kind == "redirected"
            else (e.source, e.target, e.amount) for e in events if e.kind == kind]


def _board(engine: Engine, *extra: Any, players: Any = ("alice", "bob")) -> GameState:
    return engine.game(list(players), [engine.creature("orc", "alice", 3, 3, colors=("red",)),
                                       *extra])


# ---------------------------------------------------------------------------
# 614.9: redirection
# ---------------------------------------------------------------------------


def test_614_9_damage_to_the_player_is_dealt_to_the_creature() -> None:
    """614.9 (Pariah): combat damage that would be dealt to Bob is dealt to
    the creature instead; the damage event names the new recipient and a
    redirected event names both."""
    engine = Engine(plugins=[redirects(("pariah", "bob", "wall"))])
    result = engine.resolve(_board(engine, creature("wall", "bob", 0, 5)), {"orc": "bob"})
    assert of(result.events, "redirected") == [("orc", "bob", "wall", 3)]
    assert of(result.events, "damage") == [("orc", "wall", 3)]
    kinds = [e.kind for e in result.events]
    assert kinds.index("redirected") < kinds.index("damage")
    assert all(e.combat for e in result.events if e.kind in ("damage", "redirected"))
    assert result.state.players["bob"].life == 20
    assert result.state.objects["wall"].damage == 3


def test_614_9_the_new_recipients_protection_applies() -> None:
    """614.9 then 615 / 702.16e: redirection happens before prevention, so
    the new recipient's protection from red prevents the red orc's damage."""
    engine = Engine(plugins=[redirects(("pariah", "bob", "wall"))])
    wall = engine.creature("wall", "bob", 0, 5, "protection from red")
    result = engine.resolve(_board(engine, wall), {"orc": "bob"})
    assert of(result.events, "prevented") == [("orc", "wall", 3)]
    assert of(result.events, "damage") == []
    assert result.state.players["bob"].life == 20


def test_614_9_the_new_recipients_shield_applies_not_the_old_ones() -> None:
    """615.7 after 614.9: a shield on the new recipient prevents; one on the
    original recipient doesn't apply and isn't used up."""
    engine = Engine(plugins=[redirects(("pariah", "bob", "wall"))])
    state = _board(engine, creature("wall", "bob", 0, 5))
    state = engine.perform(state, Prevent(target="wall", amount=2)).state
    state = engine.perform(state, Prevent(target="bob", amount=2)).state
    result = engine.resolve(state, {"orc": "bob"})
    assert result.state.objects["wall"].damage == 1
    assert [(s.to, s.amount) for s in result.state.shields] == [("bob", 2)]


def test_614_9_new_recipients_results_apply() -> None:
    """120.3 after 614.9: the source's results follow the damage to its new
    recipient: lifelink still gains (702.15b), deathtouch destroys the new
    recipient (704.5h)."""
    engine = Engine(plugins=[redirects(("pariah", "bob", "wall"))])
    orc = engine.creature("orc", "alice", 1, 1, "lifelink", "deathtouch")
    state = engine.game(["alice", "bob"], [orc, creature("wall", "bob", 0, 5)])
    result = engine.resolve(state, {"orc": "bob"})
    assert result.state.players["alice"].life == 21
    assert result.state.objects["wall"].zone == "graveyard"


@pytest.mark.parametrize("case", ["left the battlefield", "not a creature", "player left"])
def test_614_9_the_effect_does_nothing(case: str) -> None:
    """614.9: if the new recipient is no longer on the battlefield, is no
    longer a battle, creature or planeswalker, or is a player who has left
    the game, the effect does nothing: the damage is dealt as it would be."""
    to = "carol" if case == "player left" else "wall"
    engine = Engine(plugins=[redirects(("pariah", "bob", to))])
    wall = creature("wall", "bob", 0, 5)
    if case == "not a creature":
        wall = wall.evolve(types=frozenset({"artifact"}))
    state = _board(engine, wall, players=("alice", "bob", Player("carol", lost=True)))
    if case == "left the battlefield":
        state = engine.perform(state, LeaveBattlefield("wall")).state
    result = engine.resolve(state, {"orc": "bob"})
    assert of(result.events, "redirected") == []
    assert of(result.events, "damage") == [("orc", "bob", 3)]
    assert result.state.players["bob"].life == 17


def test_614_9_from_a_player_who_left_does_nothing() -> None:
    """614.9: damage to a player who has left the game isn't dealt (800.4a),
    redirected or not."""
    engine = Engine(plugins=[redirects(("pariah", "carol", "wall"))])
    state = _board(engine, creature("wall", "bob", 0, 5),
                   players=("alice", "bob", Player("carol", lost=True)))
    out = engine.perform(state, DealDamage("orc", "carol", 2))
    assert of(tuple(out.events), "redirected") == []
    assert out.state.objects["wall"].damage == 0


def test_614_5_each_redirection_applies_at_most_once() -> None:
    """614.5 / 616.1: after one redirection the others are asked about the
    redirected damage; none applies twice, so a cycle ends (bob -> wall ->
    ogre -> bob, where bob's effect has already applied)."""
    engine = Engine(plugins=[redirects(("a pariah", "bob", "wall"), ("b", "wall", "ogre"),
                                       ("c", "ogre", "bob"))])
    state = _board(engine, creature("wall", "bob", 0, 5), creature("ogre", "bob", 0, 5))
    result = engine.resolve(state, {"orc": "bob"})
    assert of(result.events, "redirected") == [("orc", "bob", "wall", 3),
                                               ("orc", "wall", "ogre", 3),
                                               ("orc", "ogre", "bob", 3)]
    assert result.state.players["bob"].life == 17


def test_614_9_the_first_by_effect_name_applies() -> None:
    """616.1: of two redirections of one damage, the affected player chooses;
    the default is the first by effect name."""
    engine = Engine(plugins=[redirects(("z last", "bob", "ogre"), ("a first", "bob", "wall"))])
    state = _board(engine, creature("wall", "bob", 0, 5), creature("ogre", "bob", 0, 5))
    result = engine.resolve(state, {"orc": "bob"})
    assert of(result.events, "redirected")[0] == ("orc", "bob", "wall", 3)


def test_616_1_the_affected_player_chooses_which_redirection_applies() -> None:
    """616.1: two redirections would send the damage to bob elsewhere; bob,
    the affected player, chooses which applies (``redirect@<source>:<recipient>``,
    its options the effects' names, listed before the command); choosing
    the second sends the damage to the ogre."""
    engine = Engine(plugins=[redirects(("z last", "bob", "ogre"), ("a first", "bob", "wall"))])
    state = _board(engine, creature("wall", "bob", 0, 5), creature("ogre", "bob", 0, 5))
    state = engine.declare_blockers(engine.declare_attackers(state, {"orc": "bob"}).state,
                                    {}).state
    (listed,) = [c for c in engine.choices_for(state, "combat_damage")
                 if c.key == "redirect@orc:bob"]
    assert (listed.player, listed.kind, listed.options, listed.default, listed.rule) == (
        "bob", "option", ("a first", "z last"), ("a first",), "616.1")
    out = engine.combat_damage(state, choices={"redirect@orc:bob": "z last"})
    assert of(out.events, "redirected") == [("orc", "bob", "ogre", 3)]
    assert (out.state.objects["ogre"].damage, out.state.objects["wall"].damage) == (3, 0)
    assert [c.by_default for c in out.choices if c.key == "redirect@orc:bob"] == [False]


def test_616_1_the_controller_of_a_creature_chooses_its_redirection() -> None:
    """616.1: "the affected object's controller": damage to bob's wall with
    two redirections of it is ordered by bob, not by the damage's source's
    controller; a redirection that sends it where the other would is no
    choice (the order changes nothing)."""
    engine = Engine(plugins=[redirects(("a", "wall", "ogre"), ("b", "wall", "bob"))])
    state = _board(engine, creature("wall", "bob", 0, 5), creature("ogre", "bob", 0, 5))
    (choice,) = [c for c in engine.choices_for(state, "perform", DealDamage("orc", "wall", 2))
                 if c.key.startswith("redirect@")]
    assert (choice.key, choice.player) == ("redirect@orc:wall", "bob")
    same = Engine(plugins=[redirects(("a", "wall", "ogre"), ("b", "wall", "ogre"))])
    out = same.perform(_board(same, creature("wall", "bob", 0, 5),
                              creature("ogre", "bob", 0, 5)), DealDamage("orc", "wall", 2))
    assert not [c for c in out.choices if c.key.startswith("redirect@")]
    assert out.state.objects["ogre"].damage == 2


def test_616_1_an_answer_that_is_not_one_redirection_is_refused() -> None:
    """616.1: one redirection is chosen: another name is an illegal answer
    citing 616.1, and nothing changes."""
    from redzone import IllegalActionError

    engine = Engine(plugins=[redirects(("z last", "bob", "ogre"), ("a first", "bob", "wall"))])
    state = _board(engine, creature("wall", "bob", 0, 5), creature("ogre", "bob", 0, 5))
    with pytest.raises(IllegalActionError) as caught:
        engine.perform(state, DealDamage("orc", "bob", 2),
                       choices={"redirect@orc:bob": ["a first", "z last"]})
    assert caught.value.rule == "616.1"
    assert state.players["bob"].life == 20


def test_614_9_noncombat_damage_is_redirected_too() -> None:
    """614.9, 120.2b: a redirection applies to noncombat damage as well."""
    engine = Engine(plugins=[redirects(("pariah", "bob", "wall"))])
    out = engine.perform(_board(engine, creature("wall", "bob", 0, 5)),
                         DealDamage("orc", "bob", 2))
    assert of(tuple(out.events), "redirected") == [("orc", "bob", "wall", 2)]
    assert out.state.objects["wall"].damage == 2
    assert out.state.players["bob"].life == 20


# ---------------------------------------------------------------------------
# 615 with context: the batch, the step, the plugin's own state
# ---------------------------------------------------------------------------

FIRST = "first_three"
EFFECT = "the first 3 combat damage dealt to giant each combat"


def _prevent(state: GameState, damage: Damage, batch: tuple[Damage, ...],
             step: str) -> list[Prevention] | None:
    del step
    if damage.target != "giant" or not damage.combat:
        return None
    left = 3 - (state.slot(FIRST) or 0)
    position = next(i for i, d in enumerate(batch) if d is damage)
    for earlier in batch[:position]:
        if earlier.target == "giant" and earlier.combat:
            left -= min(max(left, 0), earlier.amount)
    return [Prevention(EFFECT, "615.1", min(left, damage.amount))] if left > 0 else None


def _record(state: GameState, events: tuple[Event, ...]) -> PluginState | None:
    prevented = sum(e.amount or 0 for e in events
                    if e.kind == "prevented" and e.target == "giant"
                    and EFFECT in e.get("effects", ()))
    if not prevented:
        return None
    return PluginState((state.slot(FIRST) or 0) + prevented, "combat")


FIRST_THREE = plugin(FIRST, redzone_prevent_damage=_prevent, redzone_record=_record)


@pytest.fixture
def shield_engine() -> Engine:
    return Engine(plugins=[FIRST_THREE])


def test_615_first_n_across_two_blockers_in_one_batch(shield_engine: Engine) -> None:
    """615.1, 120.4b with the batch: two blockers deal 2 each at once; the
    effect prevents 2 of the first and 1 of the second, 1 is dealt."""
    engine = shield_engine
    state = engine.game(["alice", "bob"], [creature("giant", "alice", 1, 8),
                                           creature("w1", "bob", 2, 10),
                                           creature("w2", "bob", 2, 10)])
    result = engine.resolve(state, {"giant": "bob"}, {"w1": "giant", "w2": "giant"})
    assert [(e.source, e.amount) for e in result.events if e.kind == "prevented"] == [
        ("w1", 2), ("w2", 1)]
    assert result.state.objects["giant"].damage == 1


def test_615_first_n_across_two_steps(shield_engine: Engine) -> None:
    """615.1 across 510.4's two steps: the first striker's 2 are prevented and
    recorded in the plugin's state; in the regular step only 1 more is."""
    engine = shield_engine
    state = engine.game(["alice", "bob"], [
        creature("giant", "alice", 1, 8), engine.creature("knight", "bob", 2, 10, "first strike"),
        creature("wall", "bob", 2, 10)])
    result = engine.resolve(state, {"giant": "bob"}, {"knight": "giant", "wall": "giant"})
    assert [(e.step, e.source, e.amount) for e in result.events if e.kind == "prevented"] == [
        ("first_strike_damage", "knight", 2), ("combat_damage", "wall", 1)]
    assert result.after_steps["first_strike_damage"].slot(FIRST) == 2
    assert result.state.objects["giant"].damage == 1


def test_615_first_n_each_combat(shield_engine: Engine) -> None:
    """"Each combat": the plugin's combat-scoped state is cleared as the
    next combat begins (505.1a), so the effect prevents 3 again."""
    engine = shield_engine
    state = engine.game(["alice", "bob"], [
        engine.creature("giant", "alice", 1, 20, "vigilance"), creature("w1", "bob", 2, 10),
        creature("w2", "bob", 2, 10)])
    blocks = {"w1": "giant", "w2": "giant"}
    result = engine.resolve(state, {"giant": "bob"}, blocks,
                            additional_combats=[CombatPlan({"giant": "bob"}, blocks)])
    assert result.state.objects["giant"].damage == 2


def test_615_prevention_sees_the_step() -> None:
    """120.4b: the hook is told the step: an effect that prevents only the
    first-strike step's damage."""
    only_first = plugin("only_first", redzone_prevent_damage=lambda damage, step: [
        Prevention("first step only", "615.1")] if step == "first_strike_damage" else None)
    engine = Engine(plugins=[only_first])
    state = engine.game(["alice", "bob"], [
        engine.creature("twin", "alice", 2, 2, "double strike")])
    result = engine.resolve(state, {"twin": "bob"})
    assert [e.step for e in result.events if e.kind == "prevented"] == ["first_strike_damage"]
    assert result.state.players["bob"].life == 18


def test_615_old_two_parameter_preventions_still_work(engine: Engine) -> None:
    """A plugin written for the hook's old parameters (state, damage) keeps
    working: protection (702.16e) is one."""
    impls = {i.plugin.name: i for i in engine.hooks.impls("redzone_prevent_damage")}
    assert impls["protection"].picks == (0, 1)
    state = engine.game(["alice", "bob"], [
        engine.creature("orc", "alice", 3, 3, colors=("red",)),
        engine.creature("knight", "bob", 2, 2, "protection from red")])
    result = engine.resolve(state, {"orc": "bob"}, {"knight": "orc"})
    assert result.state.objects["knight"].damage == 0


def test_614_9_the_redirected_event_reads_in_the_account_and_its_text() -> None:
    """614.9: the account and the event's text say where the damage went."""
    from redzone.frontends.account import describe_event

    engine = Engine(plugins=[redirects(("Pariah", "bob", "wall"))])
    result = engine.resolve(_board(engine, creature("wall", "bob", 0, 5)), {"orc": "bob"})
    (event,) = [e for e in result.events if e.kind == "redirected"]
    text, _style = describe_event(event, lambda x: x or "")
    assert text == "3 damage orc would deal to bob is dealt to wall instead (Pariah)"
    # one vocabulary: the event's own text is the account's sentence
    assert str(event) == f"{text} [614.9]"
    assert event.to_json() == {"step": "combat_damage", "kind": "redirected", "rule": "614.9",
                               "source": "orc", "target": "wall", "object": "bob",
                               "amount": 3, "combat": True, "replacement": "Pariah"}


PARIAH = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3

[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 5

[[effects]]
kind = "redirect_damage"   # Pariah on the wall
player = "bob"
to = "wall"

[combat]
attacks = { orc = "bob" }
"""


def test_614_9_a_scenario_file_states_a_redirection() -> None:
    """614.9 from a scenario file: ``kind = "redirect_damage"`` (Pariah)
    deals the damage that would be dealt to Bob to the wall; once the wall
    has left the battlefield, it does nothing."""
    from redzone.formats import outcome, scenario

    res = outcome.resolve(scenario.loads(PARIAH))
    assert res.result is not None
    assert (res.result.state.players["bob"].life, res.result.state.objects["wall"].damage) == (
        20, 3)
    gone = PARIAH + '\n[[combat.actions]]\nafter = "declare_blockers"\ndo = "destroy"\n' \
        'target = "wall"\n'
    res = outcome.resolve(scenario.loads(gone))
    assert res.result is not None and res.result.state.players["bob"].life == 17
    with pytest.raises(scenario.ScenarioProblems) as info:
        scenario.loads(PARIAH.replace('to = "wall"', 'to = "wal"'))
    assert "what the damage is dealt to instead" in str(info.value)


def test_616_1_the_controller_not_the_owner_chooses_the_redirection() -> None:
    """616.1: "the affected object's controller (or its owner if it has no
    controller) ... chooses one to apply": damage to the wall bob controls
    and alice owns, with two redirections of it (to the ogre, to bob) that
    send it to different places, is bob's choice, not alice's; bob's
    answer is the one applied."""
    engine = Engine(plugins=[redirects(("a", "wall", "ogre"), ("b", "wall", "bob"))])
    state = _board(engine, creature("wall", "bob", 0, 5, owner="alice"),
                   creature("ogre", "bob", 0, 5))
    (choice,) = [c for c in engine.choices_for(state, "perform", DealDamage("orc", "wall", 2))
                 if c.key.startswith("redirect@")]
    assert (choice.key, choice.player, choice.options) == ("redirect@orc:wall", "bob", ("a", "b"))
    out = engine.perform(state, DealDamage("orc", "wall", 2), choices={"redirect@orc:wall": "b"})
    assert [(c.key, c.player, c.by_default) for c in out.choices
            if c.key.startswith("redirect@")] == [("redirect@orc:wall", "bob", False)]
    assert of(tuple(out.events), "redirected") == [("orc", "wall", "bob", 2)]
    assert out.state.players["bob"].life == 18
