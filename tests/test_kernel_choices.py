"""Choices as data: who chooses, what kind, the legal options, how many, the
default; triggers' targets as they go on the stack (603.3c-d), the order of a
player's simultaneous triggers (603.3b), choices as they resolve (608.2d),
and the options and costs of declarations (508.1g-h, 509.1d-f)."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from redzone import (
    Choice,
    CreateToken,
    Engine,
    Event,
    GainLife,
    GameState,
    IllegalActionError,
    LoseLife,
    PluginError,
    Tap,
    Trigger,
    creature,
)
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import loads
from redzone.formats.serialize import state_to_dict
from redzone.testing import plugin_module as plugin


def _on_attack(kind: str, text: str) -> types.ModuleType:
    """A plugin whose ability triggers on each attack and makes its
    controller lose 1 life, named ``kind``."""
    def triggers(events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger(kind, e.attacker or "", "alice", "603.2", text) for e in events
                if e.kind == "attack"]

    def resolve_trigger(trigger: Trigger) -> list[Any]:
        return [GainLife("alice", 1)] if trigger.kind == kind else []

    return plugin(kind, redzone_triggers=triggers, redzone_resolve_trigger=resolve_trigger)


# -- 603.3b: the order of simultaneous triggers ---------------------------------------


#: Kinds and their texts, in the default order (by kind).
KINDS = {"a_kind": "one", "b_kind": "two", "c_kind": "three"}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 1000), names=st.permutations(["n1", "n2", "n3"]))
@example(seed=0, names=["n3", "n2", "n1"])
@example(seed=0, names=["n2", "n3", "n1"])
def test_603_3b_default_order_does_not_depend_on_registration(seed: int,
                                                              names: list[str]) -> None:
    """603.3b: a player's simultaneous triggers go on the stack in the order
    they choose; redzone's default (by source, then the ability's kind)
    doesn't depend on the order plugins were registered in, nor on the order
    they are asked in (by plugin name, here drawn to differ from the kinds')."""
    from redzone.kernel.plugins import PluginInfo

    # Plugins are asked in the order of their names: kind i is named names[i].
    plugins = [PluginInfo(name, _on_attack(kind, text))
               for name, (kind, text) in zip(names, KINDS.items(), strict=True)]
    shuffled = list(plugins)
    random.Random(seed).shuffle(shuffled)
    stacks = []
    for order in (plugins, shuffled):
        engine = Engine(discover=False, plugins=order, auto_triggers=False)
        state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1)])
        out = engine.declare_attackers(state, {"orc": "bob"})
        stacks.append([t.kind for t in out.state.stack])
    assert stacks[0] == stacks[1] == list(KINDS)


def test_603_3b_the_player_orders_their_triggers() -> None:
    """603.3b: the answer to ``order@alice`` is the order they go on the stack
    (the first put there resolves last); a partial order is refused."""
    engine = Engine(discover=False, auto_triggers=False,
                    plugins=[_on_attack("a_kind", "one"), _on_attack("b_kind", "two")])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1)])
    out = engine.declare_attackers(state, {"orc": "bob"},
                                   choices={"order@alice": ["b_kind@orc", "a_kind@orc"]})
    assert [t.kind for t in out.state.stack] == ["b_kind", "a_kind"]
    made = out.choices[0]
    assert (made.key, made.kind, made.by_default, made.options) == (
        "order@alice", "order", False, ("a_kind@orc", "b_kind@orc"))
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(state, {"orc": "bob"}, choices={"order@alice": ["a_kind@orc"]})
    assert info.value.rule == "603.3b" and state_to_dict(state) == before


# -- 603.3d: targets as the ability goes on the stack -------------------------------------


def _targeting() -> types.ModuleType:
    """A plugin: "whenever a creature attacks, target player loses 1 life"."""
    def triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        out = []
        for e in events:
            if e.kind == "attack":
                players = tuple(p for p in state.in_game)
                out.append(Trigger("zap", e.attacker or "", "alice", "603.2",
                                   "target player loses 1 life",
                                   offers=(Choice("target", "alice", "target", players,
                                                  default=("bob",), rule="115.1"),
                                           Choice("amount", "alice", "number", ("1", "2"),
                                                  default=("1",), rule="608.2d"))))
        return out

    def resolve_trigger(trigger: Trigger) -> list[Any]:
        if trigger.kind != "zap":
            return []
        return [LoseLife(trigger.choices["target"][0], int(trigger.choices["amount"][0]))]

    return plugin("zapper", redzone_triggers=triggers, redzone_resolve_trigger=resolve_trigger)


def test_603_3d_targets_are_chosen_as_it_goes_on_the_stack() -> None:
    """603.3d: the target is chosen as the ability is put on the stack (it is
    on the trigger before it resolves); 608.2d: the other choices as it
    resolves, and ``pending_choices`` lists them with their options."""
    engine = Engine(discover=False, auto_triggers=False, plugins=[_targeting()])
    state = engine.game(["alice", "bob", "carol"], [creature("orc", "alice", 1, 1)])
    out = engine.declare_attackers(state, {"orc": "bob"}, choices={"zap@orc:target": "carol"})
    (trigger,) = out.state.stack
    assert trigger.choices == {"target": ("carol",)}
    (pending,) = engine.pending_choices(out.state)
    assert (pending.key, pending.kind, pending.options, pending.default) == (
        "zap@orc:amount", "number", ("1", "2"), ("1",))
    done = engine.resolve_trigger(out.state, answers={"zap@orc:amount": "2"})
    assert done.state.players["carol"].life == 18
    assert [(c.key, c.by_default) for c in done.choices] == [("zap@orc:amount", False)]


def test_603_3d_an_illegal_target_is_refused_and_nothing_changes() -> None:
    engine = Engine(discover=False, plugins=[_targeting()])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1)])
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(state, {"orc": "bob"}, choices={"zap@orc:target": "zed"})
    assert info.value.rule == "115.1" and "'zed'" in info.value.message
    assert state_to_dict(state) == before


# -- 508.1g-h, 509.1d-f: the options and costs of declarations ---------------------------


def _tithe() -> types.ModuleType:
    """A made-up optional cost: "as a creature attacks, you may tap an
    untapped land you control" (508.1g); one for blockers too (509.1d)."""
    def attack_choices(state: GameState, attacks: Any) -> list[Choice]:
        lands = tuple(p.id for p in state.battlefield if "land" in p.types and not p.tapped)
        return [Choice("land", state.active_player, "cost", lands, default=(), min=0, max=1,
                       rule="508.1g", then={x: (Tap(x),) for x in lands}, key="tithe:attack")]

    def block_choices(state: GameState, blocks: Any) -> list[Choice]:
        return [Choice("yes", "bob", "yes_no", ("yes", "no"), default=("no",), rule="509.1d",
                       then={"yes": (GainLife("bob", 2),)}, key="tithe:block")]

    return plugin("tithe", redzone_attack_choices=attack_choices,
                  redzone_block_choices=block_choices)


def test_508_1g_and_509_1d_declaration_costs_are_choices() -> None:
    """508.1g-h: the active player chooses which optional costs to pay, then
    pays them; 509.1d-f likewise for the defending player. Defaults stand
    without answers, and the outcome says so."""
    engine = Engine(discover=False, plugins=[_tithe()])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1),
                                           creature("bear", "bob", 2, 2),
                                           creature("swamp", "alice", 0, 0, types={"land"})])
    out = engine.declare_attackers(state, {"orc": "bob"}, choices={"tithe:attack": "swamp"})
    assert out.state.objects["swamp"].tapped
    default = engine.declare_attackers(state, {"orc": "bob"})
    assert not default.state.objects["swamp"].tapped
    assert [(c.key, c.answer, c.by_default) for c in default.choices] == [
        ("tithe:attack", (), True)]
    blocked = engine.declare_blockers(out.state, {"bear": "orc"}, choices={"tithe:block": "yes"})
    assert blocked.state.players["bob"].life == 22


def test_resolve_refuses_an_answer_no_choice_asked_for() -> None:
    """A misspelt key would otherwise be ignored silently: ``resolve`` names it."""
    engine = Engine(discover=False, plugins=[_tithe()])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1)])
    with pytest.raises(IllegalActionError) as info:
        engine.resolve(state, {"orc": "bob"}, choices={"tith:attack": []})
    assert "'tith:attack'" in info.value.message


def test_scenario_choices_and_the_outcome_lists_defaults() -> None:
    """Scenario files carry answers in ``[choices]``; the JSON outcome lists
    every choice made, and which were made by default."""
    text = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "sage"
controller = "alice"
power = 3
toughness = 3
keywords = ["mentor"]

[[permanents]]
id = "cub"
controller = "alice"
power = 1
toughness = 1

[[permanents]]
id = "pup"
controller = "alice"
power = 2
toughness = 2

[combat]
attacks = { sage = "bob", cub = "bob", pup = "bob" }
"""
    out = outcome_json(resolve(loads(text)))
    assert out["choices"] == [{"key": "mentor@sage:target", "player": "alice", "kind": "target",
                               "answer": ["pup"], "default": True, "options": ["cub", "pup"],
                               "rule": "702.134a", "step": "declare_attackers"}]
    chosen = outcome_json(resolve(loads(text + '\n[choices]\n"mentor@sage:target" = "cub"\n')))
    assert chosen["choices"][0]["default"] is False
    assert chosen["permanents"]["cub"]["counters"] == {"+1/+1": 1}


def test_603_3b_each_batch_of_a_players_triggers_has_its_own_key(engine: Engine) -> None:
    """603.3b: whenever a player would receive priority, they put the abilities
    that triggered since on the stack in the order they choose; one command can
    ask it more than once (the attack triggers, then the life-gain triggers
    their resolution set off): the second is ``order@alice#2``, then ``#3``, so
    each can be answered, as ``choices_for`` lists them."""
    from redzone import GainLife, LoseLife
    from redzone.kernel.actions import AddTrigger

    c = engine.creature
    state = engine.game(["alice", "bob"], [c("a1", "alice", 1, 1), c("a2", "alice", 1, 1),
                                           c("w1", "alice", 0, 1), c("w2", "alice", 0, 1)])
    state = engine.perform(state, [
        AddTrigger("attack", "a1", (GainLife("alice", 1),), match={"attacker": "self"}),
        AddTrigger("attack", "a2", (GainLife("alice", 1),), match={"attacker": "self"}),
        AddTrigger("life_gain", "w1", (LoseLife("bob", 1),)),
        AddTrigger("life_gain", "w2", (LoseLife("bob", 1),))]).state
    state = engine.begin_combat(state).state
    attacks = {"a1": "bob", "a2": "bob"}
    asked = engine.choices_for(state, "declare_attackers", attacks)
    keys = [ch.key for ch in asked]
    assert keys[0] == "order@alice" and len(set(keys)) == len(keys) >= 2
    assert keys[1] == "order@alice#2"
    answers = {ch.key: list(reversed(ch.options)) for ch in asked}
    out = engine.declare_attackers(state, attacks, choices=answers)
    made = {m.key: m.answer for m in out.choices}
    assert all(made[k] == tuple(v) for k, v in answers.items())


def test_704_5j_check_state_based_actions_takes_the_legend_rules_answer(
        engine: Engine) -> None:
    """704.5j through :meth:`Engine.check_state_based_actions`: the player
    chooses which legendary permanent to keep, answered by key like every
    command's choices, and :meth:`Engine.choices_for` lists the choice; a key
    it doesn't ask is refused."""
    from redzone import UnaskedChoiceError

    p = engine.permanent
    state = engine.game(["alice", "bob"], [
        p("k1", "alice", name="Kiki", supertypes=["legendary"], power=1, toughness=1),
        p("k2", "alice", name="Kiki", supertypes=["legendary"], power=1, toughness=1)])
    asked = engine.choices_for(state, "check_state_based_actions")
    assert [c.key for c in asked] == ["legend_rule@alice:Kiki"]
    out = engine.check_state_based_actions(state, choices={"legend_rule@alice:Kiki": ["k2"]})
    assert (out.state.objects["k1"].zone, out.state.objects["k2"].zone) == (
        "graveyard", "battlefield")
    with pytest.raises(UnaskedChoiceError):
        engine.check_state_based_actions(state, choices={"legend_rule@bob:Kiki": ["k2"]})


@pytest.mark.parametrize("command", ["activate", "remove_trigger",
                                     "check_state_based_actions"])
def test_601_2_choices_for_knows_every_command(engine: Engine, command: str) -> None:
    """601.2: :meth:`Engine.choices_for` answers for every command that takes
    ``choices`` (or asks none); a name that is no command is refused."""
    from redzone import BadQueryError, RulesError

    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3)])
    if command == "check_state_based_actions":
        assert engine.choices_for(state, command) == ()
        return
    args = ("ogre", "ghost") if command == "activate" else ("ghost",)
    with pytest.raises(RulesError) as info:  # (refused as the command itself would be)
        engine.choices_for(state, command, *args)
    assert not isinstance(info.value, BadQueryError)


def test_508_1h_costs_to_attack_are_asked_in_an_order_no_plugin_name_changes() -> None:
    """508.1g-h: the attacking player determines the costs to attack and
    pays them in any order; redzone asks them in one order (by player, then
    the choice's name), which doesn't change when the plugins offering them
    are named so that they are asked the other way round (enlist's and
    exert's choices of one creature)."""
    from redzone.kernel.plugins import PluginInfo, discover

    builtins = sorted(discover(), key=lambda p: p.name)
    asked = []
    for order in (builtins, builtins[::-1]):
        renamed = [PluginInfo(f"{i:03d}.{p.name}", p.module, p.distribution, p.version)
                   for i, p in enumerate(order)]
        engine = Engine(discover=False, plugins=renamed)
        c = engine.creature
        state = engine.game(["alice", "bob"], [c("k", "alice", 2, 2, "enlist", "exert"),
                                               c("squire", "alice", 1, 1, "haste")])
        out = engine.declare_attackers(state, {"k": "bob"})
        asked.append([(m.key, m.player) for m in out.choices])
    assert asked[0] == asked[1] == [("enlist:k", "alice"), ("exert:k", "alice")]


# -- 608.2d: the choices made as a trigger resolves, of what exists then -----------------


def _counting(answer: str = "amount", kind: str = "number") -> types.ModuleType:
    """A made-up trigger: "whenever a creature attacks, you lose N life, N a
    number up to the creatures you control as it resolves" (its choice
    worked out again then, ``redzone_trigger_choices``)."""
    def offer(state: GameState) -> Choice:
        n = sum(1 for p in state.battlefield if p.controller == "alice")
        return Choice("amount", "alice", "number", tuple(str(i) for i in range(n + 1)),
                      default=(str(n),), rule="608.2d")

    def triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("count", e.attacker or "", "alice", "603.2", "lose N life",
                        offers=(offer(state),)) for e in events if e.kind == "attack"]

    def trigger_choices(state: GameState, trigger: Trigger) -> list[Choice]:
        if trigger.kind != "count":
            return []
        return [offer(state).evolve(name=answer, kind=kind)]

    def resolve_trigger(trigger: Trigger) -> list[Any]:
        if trigger.kind != "count":
            return []
        return [LoseLife("alice", int(trigger.choices["amount"][0]))]

    return plugin("counting", redzone_triggers=triggers, redzone_trigger_choices=trigger_choices,
                  redzone_resolve_trigger=resolve_trigger)


def _one_more(engine: Engine) -> GameState:
    """The trigger waits on the stack; then alice gets a second creature."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 1, 1)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    return engine.perform(state, CreateToken(creature("imp", "alice", 1, 1, token=True))).state


def test_608_2d_a_choice_made_as_it_resolves_is_of_what_exists_then() -> None:
    """608.2d: a choice made as the ability resolves is of what exists then:
    the plugin's ``redzone_trigger_choices`` replaces the offer made as it
    triggered (key kept), ``pending_choices`` lists it as it is in the state
    given, an answer by key is checked against it, and its default is the
    one of now."""
    engine = Engine(discover=False, auto_triggers=False, plugins=[_counting()])
    state = _one_more(engine)
    (offered,) = state.stack[0].offers
    assert offered.options == ("0", "1")
    (pending,) = engine.pending_choices(state)
    assert (pending.key, pending.options, pending.default) == (
        "count@orc:amount", ("0", "1", "2"), ("2",))
    assert engine.resolve_trigger(state, answers={"count@orc:amount": "2"}
                                  ).state.players["alice"].life == 18
    assert engine.resolve_trigger(state).state.players["alice"].life == 18
    with pytest.raises(IllegalActionError):
        engine.resolve_trigger(state, answers={"count@orc:amount": "3"})


@pytest.mark.parametrize(("name", "kind", "why"), [
    ("other", "number", "not a choice the trigger offered"),
    ("amount", "option", "not of the offer's kind 'number'")])
def test_608_2d_a_choice_the_trigger_did_not_offer_fails_the_plugin(name: str, kind: str,
                                                                    why: str) -> None:
    """608.2d: the hook works out again the choices the trigger offered; one
    it didn't offer, or of another kind, is the plugin's error, named."""
    engine = Engine(discover=False, auto_triggers=False, plugins=[_counting(name, kind)])
    state = _one_more(engine)
    for ask in (engine.pending_choices, engine.resolve_trigger):
        with pytest.raises(PluginError) as info:
            ask(state)
        assert info.value.plugin == "counting" and why in str(info.value)


def test_603_3d_an_up_to_one_target_with_none_to_target_still_goes_on_the_stack() -> None:
    """603.3d: an ability is removed from the stack only "if a choice is
    required when the triggered ability goes on the stack but no legal
    choices can be made for it". "Whenever this creature attacks, you gain 1
    life and up to one target creature defending player controls gets -1/-1"
    with no creature to target: choosing no target is a legal choice, so the
    ability goes on the stack and resolves (alice gains 1)."""
    def triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        targets = tuple(p.id for p in state.objects.values() if p.controller == "bob")
        return [Trigger("rally", e.attacker or "", "alice", "603.2",
                        "gain 1 life; up to one target creature gets -1/-1",
                        actions=(GainLife("alice", 1),),
                        offers=(Choice("target", "alice", "target", targets, default=(),
                                       min=0, max=1),))
                for e in events if e.kind == "attack"]

    engine = Engine(discover=False, plugins=[plugin("rally", redzone_triggers=triggers)])
    state = engine.game(["alice", "bob"], [creature("hero", "alice", 2, 2)])
    out = engine.declare_attackers(state, {"hero": "bob"})
    assert [(e.kind, e.rule) for e in out.events
            if e.kind in ("trigger", "resolve", "removed_from_stack")] == [
        ("trigger", "603.3b"), ("resolve", "603.2")]
    assert out.state.players["alice"].life == 21
