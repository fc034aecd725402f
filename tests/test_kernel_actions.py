"""The open action vocabulary and the kernel's actions that make objects enter
and leave: tokens (111, 508.4, 509.4), destroy (701.8), regenerate (701.19),
sacrifice (701.21), exile, removing an effect, gaining control for a player
who left (800.4b), what "each player" does (101.4), and damage from a spell
or ability that is not a permanent (120.3, 609.7)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import pytest
from attrs import frozen
from redzone import (
    EACH_PLAYER,
    Action,
    ActionSpec,
    AddEffect,
    CreateToken,
    DealDamage,
    Destroy,
    Effect,
    Engine,
    Exile,
    GainControl,
    GainLife,
    GameState,
    IllegalActionError,
    LoseLife,
    Permanent,
    Player,
    PluginError,
    PluginLoadError,
    Pump,
    Regenerate,
    RemoveEffect,
    RemoveFromCombat,
    Result,
    ResultReplacement,
    Sacrifice,
    SetState,
    StackObject,
    Trigger,
    Tx,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.testing import plugin_module as plugin


def illegal(engine: Engine, state: GameState, action: Any) -> IllegalActionError:
    """The action is refused and the state is unchanged (733)."""
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, action)
    assert state_to_dict(state) == before
    return info.value


def token(id: str, controller: str, power: int = 1, toughness: int = 1, **kwargs: Any
          ) -> Permanent:
    return Permanent(id, controller, base_power=power, base_toughness=toughness, **kwargs)


# -- a plugin's own action kind ----------------------------------------------------------


@frozen
class Drain(Action):
    """A made-up action: the target player loses N life and the actor gains N."""

    do: ClassVar[str] = "drain"
    player: str
    gainer: str
    amount: int


def _drain(tx: Tx, action: Action) -> None:
    assert isinstance(action, Drain)
    tx.player(action.player, action.do)
    tx.player(action.gainer, action.do)
    tx.lose_life(action.player, action.amount, "", "119.3")
    tx.gain_life(action.gainer, action.amount, "", "119.3")
    tx.set_state({"drained": action.amount})


DRAINER = plugin("drainer", redzone_actions=lambda: [ActionSpec(Drain, _drain, "119.3")])


def test_117_1_a_plugin_declares_an_action_kind() -> None:
    """An action kind is a plugin's declaration (redzone_actions): the kernel
    performs it with the same tools as its own, runs state-based actions after
    it, and keeps what the plugin writes in that plugin's own slot."""
    engine = Engine(discover=False, plugins=[DRAINER])
    assert engine.action_kinds()["drain"] is Drain
    state = engine.game(["alice", "bob"])
    out = engine.perform(state, Drain("bob", "alice", 20))
    assert (out.state.players["alice"].life, out.state.players["bob"].life) == (40, 0)
    assert out.state.players["bob"].lost  # 704.5a after the action
    assert out.state.slot("drainer") == {"drained": 20}


def test_117_1_field_types_and_unknown_kinds_are_refused() -> None:
    """A field of the wrong type, a missing player and an action of no loaded
    kind are illegal actions; nothing changes."""
    engine = Engine(discover=False, plugins=[DRAINER])
    state = engine.game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    err = illegal(engine, state, Drain("bob", "alice", "3"))  # type: ignore[arg-type]
    assert "amount" in err.message and "whole number" in err.message
    err = illegal(engine, state, Pump("bear", "3", 3))  # type: ignore[arg-type]
    assert "power" in err.message and "bear" in err.objects
    assert illegal(engine, state, Drain("nobody", "alice", 1)).rule == "102.1"
    bare = Engine(discover=False)
    assert illegal(bare, state, Drain("bob", "alice", 1)).rule == "117.1"


def test_117_1_two_plugins_claiming_one_action_name_is_a_load_error() -> None:
    """Two plugins declaring the same ``do`` (or one the kernel declares) can't
    both be loaded; the error names the plugins."""
    twin = plugin("twin", redzone_actions=lambda: [ActionSpec(Drain, _drain, "119.3")])
    with pytest.raises(PluginLoadError) as info:
        Engine(discover=False, plugins=[DRAINER, twin])
    assert "'drainer'" in str(info.value) and "'twin'" in str(info.value)

    @frozen
    class FakeTap(Action):
        do: ClassVar[str] = "tap"
        target: str

    with pytest.raises(PluginLoadError, match=r"redzone\.actions"):
        Engine(discover=False, plugins=[plugin("faker", redzone_actions=lambda: [
            ActionSpec(FakeTap, _drain, "701.26a")])])


def test_a_failing_action_names_its_plugin_and_changes_nothing() -> None:
    def boom(tx: Tx, action: Action) -> None:
        tx.lose_life("bob", 5, "", "119.3")
        raise RuntimeError("kaboom")

    engine = Engine(discover=False, plugins=[plugin("boomer", redzone_actions=lambda: [
        ActionSpec(Drain, boom, "119.3")])])
    state = engine.game(["alice", "bob"])
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.perform(state, Drain("bob", "alice", 1))
    assert info.value.plugin == "boomer" and "kaboom" in str(info.value)
    assert state_to_dict(state) == before


def test_608_2_a_trigger_performs_a_plugin_action() -> None:
    """A plugin's trigger resolves into its own action kind (608.2)."""
    def triggers(state: GameState, events: Any) -> list[Trigger]:
        return [Trigger("drain", e.attacker, "alice", "608.2") for e in events
                if e.kind == "attack"]

    def resolve(trigger: Trigger) -> list[Action]:
        return [Drain("bob", "alice", 2), SetState(("seen", trigger.source), "turn")
                ] if trigger.kind == "drain" else []

    engine = Engine(discover=False, plugins=[DRAINER, plugin(
        "drain_on_attack", redzone_triggers=triggers, redzone_resolve_trigger=resolve)])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    out = engine.declare_attackers(state, {"orc": "bob"})
    assert (out.state.players["alice"].life, out.state.players["bob"].life) == (22, 18)
    # A plugin's own kind writes the declaring plugin's slot; the kernel's
    # SetState writes the slot of the plugin that returned it.
    assert out.state.slot("drainer") == {"drained": 2}
    assert out.state.slot("drain_on_attack") == ("seen", "orc")
    assert out.state.plugin_state["drain_on_attack"].scope == "turn"


@pytest.mark.parametrize("read_between", [False, True])
def test_608_2b_an_action_that_fails_after_creating_leaves_no_token(read_between: bool) -> None:
    """608.2b, 733: an action that creates tokens entering attacking and then
    fails is skipped without a trace: its tokens, their attacks and events
    are gone, whether or not the state was read between its creations; the
    actions of the trigger before and after it keep and create their own."""
    def half(tx: Tx, action: Action) -> None:
        tx.create(token("first", "alice"), attacking="bob")
        if read_between:
            assert "first" in tx.state.objects
        tx.create(token("second", "alice"), attacking="bob")
        raise IllegalActionError("half: refused after creating", rule="608.2b")

    def triggers(state: GameState, events: Any) -> list[Trigger]:
        return [Trigger("half", e.attacker, "alice", "608.2", actions=(
            CreateToken(token("zeroth", "alice"), attacking="bob"), Drain("bob", "alice", 0),
            CreateToken(token("third", "alice"), attacking="bob")))
            for e in events if e.kind == "attack"]

    engine = Engine(discover=False, plugins=[plugin("half", redzone_triggers=triggers,
                                                    redzone_actions=lambda: [
                                                        ActionSpec(Drain, half, "608.2b")])])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    out = engine.declare_attackers(state, {"orc": "bob"})
    assert "first" not in out.state.objects and "second" not in out.state.objects
    assert out.state.combat is not None
    kept = {"orc": "bob", "zeroth": "bob", "third": "bob"}
    assert dict(out.state.combat.attacks) == dict(out.state.combat.declared) == kept
    assert dict(out.state.combat.defending_players) == kept
    assert [i for i in out.state.objects if i != "orc"] == ["zeroth", "third"]
    assert [e.object or e.attacker for e in out.events
            if e.kind in ("enters_battlefield", "enters_attacking")] == [
                "zeroth", "zeroth", "third", "third"]
    assert any(e.kind == "skipped" and "refused after creating" in (e.detail or "")
               for e in out.events)


# -- tokens (111) --------------------------------------------------------------------------


def test_111_2_the_creator_owns_and_controls_the_token(engine: Engine) -> None:
    """111.2: the player who creates a token is its owner and it enters under
    that player's control; it entered this turn (302.6)."""
    state = engine.game(["alice", "bob"])
    out = engine.perform(state, CreateToken(token("sap", "alice", name="Saproling",
                                                  owner="bob"), tapped=True))
    sap = out.state.objects["sap"]
    assert (sap.owner, sap.controller, sap.token, sap.tapped, sap.summoning_sick) == (
        "alice", "alice", True, True, True)
    assert [(e.kind, e.rule) for e in out.events] == [("enters_battlefield", "111.2")]
    assert illegal(engine, out.state, CreateToken(token("sap", "alice"))).rule == "111.2"
    assert illegal(engine, state, CreateToken(token("x", "nobody"))).rule == "102.1"


def test_508_4_a_token_put_onto_the_battlefield_attacking_never_attacked(
        engine: Engine) -> None:
    """508.4: a token put onto the battlefield attacking is attacking but never
    "attacked": its own "whenever this creature attacks" trigger (battle cry,
    702.91a) doesn't trigger, so the other attacker isn't pumped; 508.4c:
    requirements and restrictions on declaring attackers don't apply (it has
    defender, and it is summoning sick)."""
    state = engine.game(["alice", "bob"], [engine.creature("orc", "alice", 2, 2, "battle cry")])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    assert state.objects["orc"].power == 2  # its own battle cry doesn't pump it
    wall = engine.permanent("wall", "alice", power=0, toughness=3,
                            keywords=["defender", "battle cry"])
    out = engine.perform(state, CreateToken(wall.evolve(base_power=1), attacking="bob"))
    assert out.state.combat is not None and out.state.combat.attacks["wall"] == "bob"
    assert [e.kind for e in out.events] == ["enters_battlefield", "enters_attacking"]
    assert not any(e.kind in ("attack", "trigger", "resolve") for e in out.events)
    assert out.state.stack == ()
    # The wall's battle cry never triggered: the orc has no +1/+0 from it.
    assert out.state.objects["orc"].power == 2
    # Nor did the orc's (already resolved) battle cry pump the wall.
    assert out.state.objects["wall"].power == 1


@pytest.mark.parametrize(("made", "attacking", "rule"), [
    (Permanent("land", "alice", types={"land"}, token=True), "bob", "506.3a"),
    (Permanent("siege", "alice", types={"creature", "battle"}, base_power=1,
               base_toughness=1, token=True), "bob", "506.3f"),
    (creature("bobs", "bob", 1, 1, token=True), "alice", "506.3b")])
def test_506_3_a_permanent_that_can_t_attack_enters_not_attacking_citing_its_rule(
        engine: Engine, made: Permanent, attacking: str, rule: str) -> None:
    """506.3a: a noncreature permanent put onto the battlefield attacking is
    never an attacking permanent; 506.3f: nor is a creature that's also a
    battle; 506.3b: nor a creature under the control of a player who isn't
    an attacking player. Its ``not_attacking`` event cites that rule, not
    508.4a (which is about what it would attack having gone)."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    out = engine.perform(state, CreateToken(made, attacking=attacking))
    assert out.state.combat is not None and made.id not in out.state.combat.attacks
    assert made.id not in [e.get("attacker") for e in out.events]
    assert [(e.kind, e.rule) for e in out.events if e.kind == "not_attacking"] == [
        ("not_attacking", rule)]


def test_508_4a_the_attacked_object_is_gone(engine: Engine) -> None:
    """508.4a: attacking a player who left the game, or a planeswalker no
    longer on the battlefield, the token enters but isn't attacking."""
    state = engine.game(["alice", "bob", "carol"], [
        creature("orc", "alice", 2, 2),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3})])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    gone = state.with_players({"carol": Player("carol", lost=True, loss_rule="104.3a")})
    out = engine.perform(gone, CreateToken(token("t1", "alice"), attacking="carol"))
    assert out.state.objects["t1"].zone == "battlefield"
    assert out.state.combat is not None and "t1" not in out.state.combat.attacks
    assert [(e.kind, e.rule) for e in out.events][-1] == ("not_attacking", "508.4a")
    out = engine.perform(state, CreateToken(token("t2", "alice"), attacking="wurm"))
    assert out.state.combat is not None and "t2" not in out.state.combat.attacks


def test_508_4d_entering_attacking_after_blockers_is_unblocked(engine: Engine) -> None:
    """508.4d: a creature put onto the battlefield attacking during the declare
    blockers step is unblocked, and deals its combat damage to the player."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2),
                                           creature("bear", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    state = engine.declare_blockers(state, {"bear": "orc"}).state
    out = engine.perform(state, CreateToken(token("warrior", "alice", 3, 1), attacking="bob",
                                            tapped=True))
    assert ("unblocked", "508.4d") in [(e.kind, e.rule) for e in out.events]
    after = engine.combat_damage(out.state)
    assert after.state.players["bob"].life == 17


def test_509_4_a_token_enters_blocking(engine: Engine) -> None:
    """509.4: put onto the battlefield blocking, it is blocking (and the
    attacker blocked) without having blocked; 509.4a: if the attacker isn't
    attacking its controller, it isn't blocking."""
    state = engine.game(["alice", "bob", "carol"], [creature("orc", "alice", 3, 3)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    out = engine.perform(state, CreateToken(token("wall", "bob", 0, 4), blocking="orc"))
    assert out.state.combat is not None and out.state.combat.blocks["wall"] == ("orc",)
    assert "orc" in out.state.combat.blocked
    out = engine.perform(state, CreateToken(token("elf", "carol", 1, 1), blocking="orc"))
    assert out.state.combat is not None and "elf" not in out.state.combat.blocks
    assert out.events[-1].kind == "not_blocking"
    assert out.events[-1].detail == "its controller isn't a defending player for that creature"
    # 509.4a: nor if the creature it would block is no longer attacking.
    gone = engine.perform(state, RemoveFromCombat("orc")).state
    out = engine.perform(gone, CreateToken(token("wall", "bob", 0, 4), blocking="orc"))
    assert out.events[-1].kind == "not_blocking"
    assert out.events[-1].detail == "'orc' is no longer attacking"


def test_509_4_enter_blocking_is_create_blocking(engine: Engine) -> None:
    """509.4, 111.2, 302.6: EnterBlocking (Flash Foliage) puts a permanent
    onto the battlefield as CreateToken(blocking=) does: under its
    controller, who owns it, entered this turn, announced with its
    controller; an id in use is refused (111.2), and an attacker that isn't
    attacking its controller leaves it not blocking (509.4a)."""
    from redzone import EnterBlocking

    state = engine.game(["alice", "bob", "carol"], [creature("orc", "alice", 3, 3)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    state = engine.declare_blockers(state, {}).state
    sap = token("sap", "bob", 1, 1, owner="carol")
    entered = engine.perform(state, EnterBlocking(sap, "orc"))
    made = engine.perform(state, CreateToken(sap, blocking="orc"))
    for out in (entered, made):
        perm = out.state.objects["sap"]
        assert (perm.owner, perm.controller, perm.summoning_sick) == ("bob", "bob", True)
        assert out.state.combat is not None and out.state.combat.blocks["sap"] == ("orc",)
    assert [(e.kind, e.object, e.player) for e in entered.events][:1] == [
        ("enters_battlefield", "sap", "bob")]
    assert illegal(engine, state, EnterBlocking(token("orc", "bob"), "orc")).rule == "111.2"
    aside = engine.perform(state, EnterBlocking(token("elf", "carol"), "orc"))
    assert aside.events[-1].kind == "not_blocking"


def test_111_7_a_token_that_left_ceases_to_exist(engine: Engine) -> None:
    """111.7, 704.5d: a token that dies goes to the graveyard (its "dies"
    triggers see that) and then ceases to exist."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3)])
    state = engine.perform(state, CreateToken(token("sap", "bob"))).state
    out = engine.perform(state, DealDamage("orc", "sap", 3))
    kinds = [(e.kind, e.rule) for e in out.events]
    assert kinds[-2:] == [("dies", "704.5g"), ("ceases_to_exist", "704.5d")]
    assert out.state.objects["sap"].zone == "ceased"
    # 111.8: it can't come back or move again.
    assert illegal(engine, out.state, Exile("sap")).rule == "400.1"


# -- destroy, regenerate, sacrifice, exile --------------------------------------------------


def test_701_8_destroy_and_indestructible(engine: Engine) -> None:
    """701.8a: destroy moves it to its owner's graveyard; 702.12b:
    indestructible permanents aren't destroyed."""
    state = engine.game(["alice", "bob"], [
        creature("bear", "bob", 2, 2),
        engine.creature("god", "bob", 5, 5, "indestructible")])
    out = engine.perform(state, Destroy("bear"))
    assert [(e.kind, e.rule) for e in out.events] == [("destroyed", "701.8a"), ("dies", "701.8a")]
    assert out.state.objects["bear"].zone == "graveyard"
    out = engine.perform(state, Destroy("god"))
    assert out.state.objects["god"].zone == "battlefield" and out.events == ()
    assert illegal(engine, state, Destroy("ghost")).rule == "400.1"


def test_701_19_regeneration_replaces_destruction(engine: Engine) -> None:
    """701.19a, 614.8: the next time it would be destroyed this turn, instead
    its damage is removed, it is tapped and it is removed from combat;
    701.19c: "can't be regenerated" ignores the shield; the shield is used
    up, and it ends in the cleanup step (514.2)."""
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3),
                                           creature("troll", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"orc": "bob"}).state
    state = engine.declare_blockers(state, {"troll": "orc"}).state
    shielded = engine.perform(state, Regenerate("troll")).state
    out = engine.combat_damage(shielded)  # 3 damage: 704.5g would destroy it
    troll = out.state.objects["troll"]
    assert (troll.zone, troll.damage, troll.tapped) == ("battlefield", 0, True)
    assert out.state.combat is not None and not out.state.combat.in_combat("troll")
    assert ("regenerated", "701.19a") in [(e.kind, e.rule) for e in out.events]
    assert not [s for s in out.state.shields if s.mode == "regenerate"]  # used up
    # Can't be regenerated:
    out = engine.perform(shielded, Destroy("troll", regenerate=False))
    assert out.state.objects["troll"].zone == "graveyard"
    # The shield lasts this turn only.
    rest = engine.finish(engine.end_of_combat(engine.combat_damage(
        engine.perform(state, Regenerate("orc")).state).state).state).state
    ended = engine.end_turn(rest)
    assert not [s for s in ended.state.shields if s.mode == "regenerate"]


def test_701_21_sacrifice(engine: Engine) -> None:
    """701.21a: its controller moves it straight to the graveyard:
    indestructible and regeneration don't apply; a player can't sacrifice what
    they don't control."""
    state = engine.game(["alice", "bob"], [
        engine.creature("god", "bob", 5, 5, "indestructible")])
    state = engine.perform(state, Regenerate("god")).state
    out = engine.perform(state, Sacrifice("god", player="bob"))
    assert out.state.objects["god"].zone == "graveyard"
    assert [(e.kind, e.rule) for e in out.events] == [("sacrificed", "701.21a"),
                                                      ("dies", "701.21a")]
    err = illegal(engine, state, Sacrifice("god", player="alice"))
    assert err.rule == "701.21a" and set(err.objects) == {"god", "alice"}


def test_701_21a_the_controller_sacrifices_a_permanent_not_its_owner(engine: Engine) -> None:
    """701.21a: "its controller moves it from the battlefield directly to its
    owner's graveyard. A player can't sacrifice ... a permanent they don't
    control": alice controls bob's bear: bob, who owns it, can't sacrifice
    it; alice sacrifices it, and it goes to bob's graveyard."""
    state = engine.game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    state = engine.perform(state, GainControl("bear", "alice")).state
    err = illegal(engine, state, Sacrifice("bear", player="bob"))
    assert err.rule == "701.21a" and set(err.objects) == {"bear", "bob"}
    out = engine.perform(state, Sacrifice("bear", player="alice"))
    assert [(e.kind, e.player) for e in out.events if e.kind == "sacrificed"] == [
        ("sacrificed", "alice")]
    assert "bear" in out.state.zone("bob", "graveyard")


def test_800_4b_nothing_changes_to_the_control_of_a_player_who_left(engine: Engine) -> None:
    """800.4b: "If an object would change to the control of a player who has
    left the game, it doesn't": carol lost and left the three-player game;
    giving her control of bob's bear is refused and changes nothing; alice,
    still in the game, can gain control of it."""
    state = engine.game(["alice", "bob", Player("carol", life=1)],
                        [creature("bear", "bob", 2, 2)])
    state = engine.perform(state, LoseLife("carol", 1)).state
    assert state.players["carol"].lost and state.game_over is None
    err = illegal(engine, state, GainControl("bear", "carol"))
    assert "bear" in err.objects and err.rule == "800.4b"
    taken = engine.perform(state, GainControl("bear", "alice")).state
    assert taken.objects["bear"].controller == "alice"


def test_406_exile(engine: Engine) -> None:
    """Exiled, it leaves the battlefield for exile and keeps last known information."""
    state = engine.game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    out = engine.perform(state, Exile("bear"))
    assert out.state.objects["bear"].zone == "exile"
    assert out.state.lki["bear"].zone == "battlefield"


def test_611_2_remove_effect(engine: Engine) -> None:
    """An effect that started applying (611.2) can be ended by its id."""
    state = engine.game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    out = engine.perform(state, AddEffect(Effect("double_damage")))
    effect_id = out.state.effects[0].id
    assert effect_id == "e1"
    gone = engine.perform(out.state, RemoveEffect(effect_id))
    assert gone.state.effects == ()
    assert [(e.kind, e.object) for e in gone.events] == [("effect_ends", "e1")]
    assert illegal(engine, out.state, RemoveEffect("e9")).rule == "611.2"


# -- each player (101.4) ------------------------------------------------------------------


def _plus_one(state: GameState, result: Result) -> list[ResultReplacement]:
    """A replacement effect: a player who would gain life gains that much
    plus 1 instead (with a doubling, the order the player chooses matters,
    616.1)."""
    if result.kind != "life_gain":
        return []
    return [ResultReplacement("plus one", "614.1a",
                              lambda _state, r: attrs.evolve(r, amount=r.amount + 1))]


def test_101_4_each_player_chooses_and_gains_life_in_apnap_order() -> None:
    """101.4: when players make choices and take actions at once, the active
    player makes theirs first, then the others in turn order (APNAP). On
    bob's turn "each player gains 1 life", each player's gain with two
    replacement effects whose order they choose (616.1): bob chooses first,
    then carol, then alice, and the gains are reported in that order
    (``GainLife``: "in APNAP order")."""
    engine = Engine(discover=False, plugins=[plugin("plus_one",
                                                    redzone_result_replacements=_plus_one)])
    state = engine.game(["alice", "bob", "carol"], [], active_player="bob", effects=[
        Effect("double_life_gain", player=p) for p in ("alice", "bob", "carol")])
    out = engine.perform(state, GainLife(EACH_PLAYER, 1))
    assert [(c.key, c.player) for c in out.choices] == [
        ("result_order@bob:life_gain", "bob"), ("result_order@carol:life_gain", "carol"),
        ("result_order@alice:life_gain", "alice")]
    assert [e.player for e in out.events if e.kind == "life_gain"] == ["bob", "carol", "alice"]
    assert {p.life for p in out.state.players.values()} == {23}


# -- a source that is not a permanent (120.3, 609.7) ---------------------------------------


def test_120_3_a_red_spell_is_prevented_by_protection_from_red(engine: Engine) -> None:
    """702.16e: damage from a red source (here a spell: Shock) to a creature
    with protection from red is prevented."""
    state = engine.game(["alice", "bob"], [
        engine.creature("knight", "alice", 2, 2, "protection from red")])
    shock = StackObject("Shock", "bob", colors={"red"}, types={"instant"})
    out = engine.perform(state, DealDamage(shock, "knight", 2))
    assert out.state.objects["knight"].damage == 0
    assert [(e.kind, e.source) for e in out.events] == [("prevented", "Shock")]
    # The event names the spell, which is not a permanent.
    assert "Shock" not in out.state.objects and out.state.sources["Shock"] == shock


def test_702_15b_a_spell_with_lifelink(engine: Engine) -> None:
    """702.15b: damage dealt by a source with lifelink (a spell) makes its
    controller gain that much life."""
    state = engine.game(["alice", "bob"])
    spell = StackObject("Drain Bolt", "alice", colors={"black"},
                        printed_keywords=["lifelink"])
    out = engine.perform(state, DealDamage(spell, "bob", 3))
    assert (out.state.players["alice"].life, out.state.players["bob"].life) == (23, 17)


def test_702_2b_and_702_90_deathtouch_and_infect_spells(engine: Engine) -> None:
    """702.2b: 1 damage from a source with deathtouch destroys a creature
    (704.5h); 702.90b-c: damage from a source with infect gives a player
    poison counters and a creature -1/-1 counters."""
    state = engine.game(["alice", "bob"], [creature("giant", "bob", 6, 6)])
    touch = StackObject("Touch", "alice", printed_keywords=["deathtouch"])
    out = engine.perform(state, DealDamage(touch, "giant", 1))
    assert out.state.objects["giant"].zone == "graveyard"
    blight = StackObject("Blight", "alice", printed_keywords=["infect"])
    out = engine.perform(state, DealDamage(blight, "bob", 2))
    assert (out.state.players["bob"].life, out.state.players["bob"].poison) == (20, 2)
    out = engine.perform(state, DealDamage(blight, "giant", 2))
    assert dict(out.state.objects["giant"].counters) == {"-1/-1": 2}


def test_120_3_a_spell_source_must_not_reuse_a_permanent_id(engine: Engine) -> None:
    state = engine.game(["alice", "bob"], [creature("bear", "bob", 2, 2)])
    assert illegal(engine, state, DealDamage(StackObject("bear", "alice"), "bob", 1)).rule \
        == "120.3"
