"""Myriad (CR 702.116): "Whenever this creature attacks, for each opponent other
than defending player, you may create a token that's a copy of this creature that's
tapped and attacking that player or a planeswalker they control. If one or more
tokens are created this way, exile the tokens at end of combat" (702.116a); each
instance triggers separately (702.116b)."""

from __future__ import annotations

import pickle

import pytest
import redzone_keywords.myriad as myriad
from redzone import (
    Engine,
    Exile,
    GainControl,
    GameState,
    IllegalActionError,
    Move,
    Player,
    Pump,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def table(engine: Engine, players: int = 4, *keywords: str, **kwargs: object) -> GameState:
    """alice attacks with a 3/2 myriad "Kitsune"; the others are her opponents."""
    names = ["alice", "bob", "carol", "dave"][:players]
    return engine.game(names, [engine.creature("kitsune", "alice", 3, 2, "myriad", *keywords,
                                               colors={"white"}, subtypes=("Fox",),
                                               **kwargs)])


def tokens(state: GameState) -> dict[str, str]:
    """Each token copy on the battlefield -> what it attacks."""
    combat = state.combat
    return {p.id: (combat.attacks.get(p.id, "") if combat is not None else "")
            for p in state.battlefield if p.token}


def test_702_116a_a_token_attacks_each_other_opponent_in_four_players(engine: Engine) -> None:
    """702.116a: attacking bob, alice creates a token copy attacking carol and one
    attacking dave, tapped (508.4), never one attacking bob."""
    out = engine.declare_attackers(table(engine), {"kitsune": "bob"})
    assert tokens(out.state) == {"kitsune.myriad.1": "carol",
                                 "kitsune.myriad.2": "dave"}
    for token in ("kitsune.myriad.1", "kitsune.myriad.2"):
        perm = out.state.objects[token]
        assert (perm.token, perm.tapped, perm.controller, perm.owner) == (
            True, True, "alice", "alice")
    assert out.state.combat is not None
    assert out.state.combat.defending_players["kitsune.myriad.2"] == "dave"


def test_702_116a_three_players(engine: Engine) -> None:
    """702.116a: with three players, one token, attacking the third player."""
    out = engine.declare_attackers(table(engine, 3), {"kitsune": "carol"})
    assert tokens(out.state) == {"kitsune.myriad.1": "bob"}


def test_506_2_attacking_a_planeswalker_its_controller_is_the_defending_player(
        engine: Engine) -> None:
    """506.2: attacking bob's planeswalker, bob is the defending player: the tokens
    attack carol and dave, none attacks bob."""
    jace = engine.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 3})
    state = engine.game(["alice", "bob", "carol", "dave"], [*table(engine).battlefield, jace])
    out = engine.declare_attackers(state, {"kitsune": "jace"})
    assert tokens(out.state) == {"kitsune.myriad.1": "carol",
                                 "kitsune.myriad.2": "dave"}


def test_702_116a_two_players_no_token(engine: Engine) -> None:
    """702.116a: in a two-player game the only opponent is the defending player,
    so no token is created and no delayed trigger waits."""
    out = engine.declare_attackers(table(engine, 2), {"kitsune": "bob"})
    assert tokens(out.state) == {}
    assert out.state.delayed == ()
    assert [e.kind for e in out.events].count("enters_battlefield") == 0


def test_800_4a_an_opponent_who_left_the_game_gets_no_token(manual: Engine) -> None:
    """800.4a: a player who lost has left the game: they are no longer an opponent
    as the trigger resolves (here carol lost while it waited on the stack)."""
    state = manual.declare_attackers(table(manual), {"kitsune": "bob"}).state
    state = state.with_players({"carol": Player("carol", life=0, lost=True,
                                                loss_rule="704.5a")})
    out = manual.resolve_trigger(state)
    assert tokens(out.state) == {"kitsune.myriad.1": "dave"}


def test_707_2_the_copy_has_copiable_values_not_damage_counters_or_effects(
        engine: Engine) -> None:
    """707.2: the token copies the creature's printed characteristics (name, colors,
    subtypes, power and toughness, keywords) and not its damage, counters or the
    effects on it."""
    state = table(engine, 3, "flying", damage=1, counters={"+1/+1": 2})
    state = engine.perform(state, Pump("kitsune", 3, 3)).state
    out = engine.declare_attackers(state, {"kitsune": "bob"})
    copy = out.state.objects["kitsune.myriad.1"]
    assert (copy.name, copy.colors, copy.subtypes, copy.power, copy.toughness) == (
        "kitsune", frozenset({"white"}), ("Fox",), 3, 2)
    assert [k.text for k in copy.keywords] == ["myriad", "flying"]
    assert (copy.damage, dict(copy.counters), copy.modifications) == (0, {}, ())
    assert out.state.objects["kitsune"].power == 8  # the original keeps them


def test_608_2h_the_creature_left_before_the_trigger_resolved(manual: Engine) -> None:
    """608.2h: the trigger still resolves; the copies use the creature's last known
    information (as it last existed on the battlefield)."""
    state = table(manual, 3, "flying")
    state = manual.declare_attackers(state, {"kitsune": "bob"}).state
    state = manual.perform(state, Exile("kitsune")).state
    assert state.objects["kitsune"].zone == "exile" and len(state.stack) == 1
    out = manual.resolve_trigger(state)
    copy = out.state.objects["kitsune.myriad.1"]
    assert (copy.name, copy.power, [k.text for k in copy.keywords]) == (
        "kitsune", 3, ["myriad", "flying"])
    assert tokens(out.state) == {"kitsune.myriad.1": "carol"}


def test_508_4_the_tokens_never_attacked_so_myriad_and_battle_cry_do_not_trigger(
        engine: Engine) -> None:
    """508.4: the copies entered attacking, they never "attacked": their own myriad
    and battle cry don't trigger (no more tokens, one battle cry trigger in all)."""
    state = table(engine, 4, "battle cry")
    out = engine.declare_attackers(state, {"kitsune": "bob"})
    triggered = [e.get("ability") for e in out.events if e.kind == "trigger"]
    assert sorted(triggered) == ["battle cry", "myriad"]
    assert len(tokens(out.state)) == 2


def test_508_3a_508_4_a_myriad_creature_put_onto_the_battlefield_attacking_does_not_trigger(
        manual: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the
    battlefield attacking" (508.4). The kitsune with myriad enters the
    battlefield attacking bob (a ``Move``, with its ``enters_battlefield``
    event) in a game of four: no trigger goes on the stack and no token is
    made."""
    state = table(manual, zone="hand")
    state = manual.perform(manual.declare_attackers(state, {}).state,
                           Move("kitsune", "battlefield", attacking="bob")).state
    assert state.combat is not None and state.combat.attacks["kitsune"] == "bob"
    assert state.stack == () and tokens(state) == {}


def test_603_3a_the_tokens_are_the_triggers_controllers(manual: Engine) -> None:
    """603.3a: the trigger is controlled by alice, who controlled the kitsune as
    it triggered; 702.116a "you may create a token": the tokens are alice's,
    although dave gained control of the kitsune before the trigger resolved.
    They attack carol and dave, the opponents of alice other than bob."""
    state = manual.declare_attackers(table(manual), {"kitsune": "bob"}).state
    state = manual.perform(state, GainControl("kitsune", "dave")).state
    assert state.stack[0].controller == "alice"
    out = manual.resolve_trigger(state)
    assert {p.id: p.controller for p in out.state.battlefield if p.token} == {
        "kitsune.myriad.1": "alice", "kitsune.myriad.2": "alice"}
    assert tokens(out.state) == {"kitsune.myriad.1": "carol", "kitsune.myriad.2": "dave"}


def test_702_116b_each_instance_triggers_separately(engine: Engine) -> None:
    """702.116b: two instances, two triggers, two tokens for each other opponent."""
    out = engine.declare_attackers(table(engine, 3, "myriad"), {"kitsune": "bob"})
    assert sorted(tokens(out.state)) == ["kitsune.myriad.1", "kitsune.myriad.2"]


def test_603_7_the_tokens_are_exiled_at_end_of_combat_and_cease_to_exist(
        engine: Engine) -> None:
    """702.116a, 603.7a: the delayed trigger created as it resolves exiles the tokens
    at end of combat (511.2); in exile a token ceases to exist (111.7, 704.5d)."""
    state = engine.declare_attackers(table(engine), {"kitsune": "bob"}).state
    assert [(d.when, d.kind) for d in state.delayed] == [("end_of_combat", "myriad exile")]
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    assert [state.players[p].life for p in ("bob", "carol", "dave")] == [17, 17, 17]
    out = engine.end_of_combat(state)
    for token in ("kitsune.myriad.1", "kitsune.myriad.2"):
        assert out.state.objects[token].zone == "ceased"
    assert ("ceases_to_exist", "704.5d") in [(e.kind, e.rule) for e in out.events]
    assert out.state.objects["kitsune"].zone == "battlefield"
    # The delayed trigger only exiles: it makes no new tokens and waits no more.
    assert "enters_battlefield" not in [e.kind for e in out.events]
    assert out.state.delayed == ()


def test_603_7c_a_token_that_already_left_is_not_found(engine: Engine) -> None:
    """603.7c: a token that died before end of combat isn't affected; the other
    token is still exiled."""
    c = engine.creature
    state = engine.game(["alice", "bob", "carol", "dave"], [
        c("kitsune", "alice", 3, 2, "myriad"), c("wall", "carol", 0, 4, "reach")])
    state = engine.declare_attackers(state, {"kitsune": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "kitsune.myriad.1"}).state
    state = state.with_permanents({"wall": state.objects["wall"].evolve(base_power=5)})
    state = engine.combat_damage(state).state
    assert state.objects["kitsune.myriad.1"].zone == "ceased"  # died, 704.5g
    out = engine.end_of_combat(state)
    assert out.state.objects["kitsune.myriad.2"].zone == "ceased"
    assert ("skipped", "603.7c") in [(e.kind, e.rule) for e in out.events]


def test_702_116a_you_may_decline_and_choose_a_planeswalker(manual: Engine) -> None:
    """702.116a "you may ... attacking that player or a planeswalker they control":
    the choice names dave's planeswalker and nothing of carol's, so carol gets no
    token and dave's token attacks the planeswalker."""
    state = table(manual)
    jace = manual.permanent("jace", "dave", types=["planeswalker"], counters={"loyalty": 3})
    state = manual.game(["alice", "bob", "carol", "dave"], [*state.battlefield, jace])
    state = manual.declare_attackers(state, {"kitsune": "bob"}).state
    out = manual.resolve_trigger(state, choices={"attack": ["jace"]})
    assert tokens(out.state) == {"kitsune.myriad.1": "jace"}
    assert out.state.combat is not None
    assert out.state.combat.defending_players["kitsune.myriad.1"] == "dave"
    declined = manual.resolve_trigger(state, choices={"attack": []})
    assert tokens(declined.state) == {} and declined.state.delayed == ()


@pytest.mark.parametrize("chosen", [
    ["bob"],            # the defending player
    ["gideon"],         # a planeswalker the defending player controls
    ["alice"],          # not an opponent
    ["carol", "carol"],  # two for the same opponent
    ["nobody"],         # no such player or planeswalker
])
def test_702_116a_an_illegal_choice_is_rejected_and_nothing_changes(
        manual: Engine, chosen: list[str]) -> None:
    gideon = manual.permanent("gideon", "bob", types=["planeswalker"],
                              counters={"loyalty": 3})
    state = manual.game(["alice", "bob", "carol", "dave"], [*table(manual).battlefield, gideon])
    state = manual.declare_attackers(state, {"kitsune": "bob"}).state
    # A deep copy: a hook or the kernel writing into the state's shared maps
    # before refusing would make the state differ from it.
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalActionError) as info:
        manual.resolve_trigger(state, choices={"attack": chosen})
    assert info.value.rule == "702.116a"
    assert state == snapshot


def test_702_116a_the_state_round_trips_with_tokens_and_the_delayed_trigger(
        engine: Engine) -> None:
    state = engine.declare_attackers(table(engine), {"kitsune": "bob"}).state
    assert state_from_dict(state_to_dict(state)) == state


class TestMyriadConformance(KeywordConformance):
    """The conformance kit's invariants hold with myriad on generated boards."""

    plugin = myriad
    max_examples = 10


def test_707_2_the_copy_takes_no_value_of_layers_3_to_6(manual: Engine) -> None:
    """707.2: a copy acquires the copiable values (what is printed, as modified by
    other copy effects), not those of other effects: the red Kitsune made blue, an
    artifact and a Ninja (layers 4-5), its "protection from red" worded "from blue"
    (layer 3), given flying (layer 6) and set to 5/5 (layer 7b) makes a red Fox
    creature token, 3/2 with myriad and protection from red only."""
    from redzone import AddContinuous

    state = manual.game(["alice", "bob", "carol"], [manual.creature(
        "kitsune", "alice", 3, 2, "myriad", "protection from red", colors={"red"},
        subtypes=("Fox",))])
    for effect in (AddContinuous(affects=("kitsune",), add_colors=("blue",),
                                 add_types=("artifact",), add_subtypes=("Ninja",)),
                   AddContinuous(affects=("kitsune",), text_from="red", text_to="blue"),
                   AddContinuous(affects=("kitsune",), add_keywords=("flying",),
                                 set_power=5, set_toughness=5)):
        state = manual.perform(state, effect).state
    kitsune = state.objects["kitsune"]
    assert (kitsune.colors, kitsune.types, kitsune.subtypes) == (
        frozenset({"red", "blue"}), frozenset({"creature", "artifact"}), ("Fox", "Ninja"))
    state = manual.declare_attackers(state, {"kitsune": "bob"}).state
    copy = manual.resolve_trigger(state).state.objects["kitsune.myriad.1"]
    assert (copy.name, copy.colors, copy.types, copy.subtypes, copy.supertypes) == (
        "kitsune", frozenset({"red"}), frozenset({"creature"}), ("Fox",), frozenset())
    assert (copy.power, copy.toughness) == (3, 2)
    assert [k.text for k in copy.keywords] == ["myriad", "protection from red"]


def test_707_3_a_copy_of_a_copy_takes_the_copied_values_only(manual: Engine) -> None:
    """707.3: the copiable values of an object that is copying another are those it
    copies (layer 1), so its token is a copy of what it copies: the white 1/1
    copying the green 3/3 "Nezumi" with myriad and flying makes a green 3/3 Nezumi
    token with myriad and flying, not blue (layer 5) nor a Rat (layer 4), even when
    the creature left the battlefield before the trigger resolved (608.2h)."""
    from redzone import AddContinuous

    state = manual.game(["alice", "bob", "carol"], [
        manual.creature("mimic", "alice", 1, 1, colors={"white"}),
        manual.creature("src", "carol", 3, 3, "myriad", "flying", name="Nezumi",
                        colors={"green"})])
    for effect in (AddContinuous(affects=("mimic",), copy_of="src"),
                   AddContinuous(affects=("mimic",), add_colors=("blue",),
                                 add_subtypes=("Rat",))):
        state = manual.perform(state, effect).state
    state = manual.declare_attackers(state, {"mimic": "bob"}).state
    gone = manual.perform(state, Exile("mimic")).state
    for board in (state, gone):
        copy = manual.resolve_trigger(board).state.objects["mimic.myriad.1"]
        assert (copy.name, copy.colors, copy.subtypes, copy.power, copy.toughness) == (
            "Nezumi", frozenset({"green"}), (), 3, 3)
        assert [k.text for k in copy.keywords] == ["myriad", "flying"]


def test_707_2_the_copy_has_the_printed_loyalty(engine: Engine) -> None:
    """707.2, 306.5b: a planeswalker creature's printed loyalty is a copiable
    value: its token copy has it and enters with that many loyalty counters."""
    state = engine.game(["alice", "bob", "carol"], [engine.creature(
        "gideon", "alice", 4, 4, "myriad", types=("creature", "planeswalker"),
        printed_loyalty=3, counters={"loyalty": 1})])
    copy = engine.declare_attackers(state, {"gideon": "bob"}).state.objects["gideon.myriad.1"]
    assert (copy.printed_loyalty, copy.loyalty) == (3, 3)
