"""Annihilator (CR 702.86): "Whenever this creature attacks, defending player
sacrifices N permanents" (702.86a); each instance triggers separately (702.86b). The
defending player's choice is data: ``choices["sacrifice"]``, checked; without it a
documented default (tokens first, then id order)."""

from __future__ import annotations

import pickle

import pytest
import redzone_keywords.annihilator as annihilator
from redzone import Engine, GameState, IllegalActionError, Move, Permanent
from redzone.testing import KeywordConformance


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def board(engine: Engine, keywords: tuple[str, ...] = ("annihilator 2",),
          extra: tuple[Permanent, ...] = ()) -> GameState:
    """alice: a 10/10 with ``keywords`` ("eldrazi"); bob: a bear, a land, a token."""
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("eldrazi", "alice", 10, 10, *keywords), c("bear", "bob", 2, 2),
        engine.permanent("land", "bob", types=["land"]),
        c("spirit", "bob", 1, 1, token=True), *extra])


def gone(state: GameState) -> list[str]:
    return sorted(o.id for o in state.objects.values() if o.zone != "battlefield")


def test_seed_t85_it_triggers_as_declared_and_resolves_before_blockers(
        engine: Engine) -> None:
    """Seed: annihilator triggers when the creature is declared attacking; it goes on
    the stack before the active player gets priority (508.2b, 508.3a), so bob has
    sacrificed before blockers are declared."""
    out = engine.declare_attackers(board(engine), {"eldrazi": "bob"})
    assert out.state.step == "declare_attackers"
    assert [e.rule for e in out.events if e.kind == "resolve"] == ["702.86a"]
    assert gone(out.state) == ["bear", "spirit"]  # the default: tokens first, then ids
    assert out.state.objects["land"].zone == "battlefield"
    assert engine.legal_blockers(out.state, "eldrazi") == ()


def test_702_86a_the_trigger_is_data_on_the_stack(manual: Engine) -> None:
    state = manual.declare_attackers(board(manual), {"eldrazi": "bob"}).state
    (trigger,) = state.stack
    assert (trigger.kind, trigger.source, trigger.controller, trigger.targets,
            trigger.amount, trigger.rule) == (
        "annihilator", "eldrazi", "alice", ("bob",), 2, "702.86a")
    assert trigger.choices == {}
    removed = manual.remove_trigger(state, trigger.id).state
    assert removed.stack == () and gone(removed) == []


def test_702_86a_the_defending_player_chooses_what_to_sacrifice(manual: Engine) -> None:
    state = manual.declare_attackers(board(manual), {"eldrazi": "bob"}).state
    out = manual.resolve_trigger(state, choices={"sacrifice": ["land", "spirit"]})
    assert gone(out.state) == ["land", "spirit"]
    assert [e.object for e in out.events if e.kind == "dies"] == ["land", "spirit"]
    assert out.state.stack == ()


def test_702_86a_the_choice_is_the_defending_players(manual: Engine) -> None:
    """702.86a: "defending player sacrifices N permanents": the defending player, not
    the attacking player who controls the trigger, makes the choice (701.21a: a player
    sacrifices a permanent they choose), in a game of three as in one of two."""
    for players in (["alice", "bob"], ["alice", "bob", "carol"]):
        state = manual.game(players, [
            manual.creature("eldrazi", "alice", 10, 10, "annihilator 1"),
            manual.creature("bear", "bob", 2, 2)])
        state = manual.declare_attackers(state, {"eldrazi": "bob"}).state
        assert state.stack[0].controller == "alice"
        assert [(p.name, p.player) for p in manual.pending_choices(state)] == [
            ("sacrifice", "bob")]


def test_702_86a_701_21a_the_defending_player_sacrifices_what_they_control_not_own(
        manual: Engine) -> None:
    """702.86a, 701.21a: a player sacrifices permanents they control: bob's options
    are his land and the creature he controls but alice owns, not the creature he owns
    but alice controls; he can sacrifice the one he controls, which goes to its
    owner's graveyard."""
    c = manual.creature
    state = manual.game(["alice", "bob"], [
        c("eldrazi", "alice", 10, 10, "annihilator 1"), c("lent", "alice", 1, 1, owner="bob"),
        c("stolen", "bob", 3, 3, owner="alice"),
        manual.permanent("land", "bob", types=["land"])])
    state = manual.declare_attackers(state, {"eldrazi": "bob"}).state
    (choice,) = manual.pending_choices(state)
    assert (choice.player, choice.options) == ("bob", ("land", "stolen"))
    out = manual.resolve_trigger(state, choices={"sacrifice": ["stolen"]})
    assert gone(out.state) == ["stolen"]
    assert out.state.objects["lent"].zone == "battlefield"
    assert [(e.object, e.player) for e in out.events if e.kind == "sacrificed"] == [
        ("stolen", "bob")]
    with pytest.raises(IllegalActionError):
        manual.resolve_trigger(state, choices={"sacrifice": ["lent"]})


@pytest.mark.parametrize("chosen", [
    ["land"],                      # too few
    ["land", "bear", "spirit"],    # too many
    ["land", "land"],              # the same permanent twice
    ["land", "eldrazi"],           # a permanent bob doesn't control
    ["land", "nothing"],           # no such permanent
])
def test_702_86a_an_illegal_choice_is_rejected_and_nothing_changes(
        manual: Engine, chosen: list[str]) -> None:
    state = manual.declare_attackers(board(manual), {"eldrazi": "bob"}).state
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(IllegalActionError) as info:
        manual.resolve_trigger(state, choices={"sacrifice": chosen})
    assert info.value.rule == "702.86a"
    assert "bob must sacrifice exactly 2 distinct permanents" in str(info.value)
    assert state == snapshot


def test_702_86a_a_player_with_fewer_permanents_sacrifices_all(manual: Engine) -> None:
    c = manual.creature
    state = manual.game(["alice", "bob"], [c("eldrazi", "alice", 10, 10, "annihilator 2"),
                                           c("bear", "bob", 2, 2)])
    state = manual.declare_attackers(state, {"eldrazi": "bob"}).state
    with pytest.raises(IllegalActionError):
        manual.resolve_trigger(state, choices={"sacrifice": []})
    out = manual.resolve_trigger(state, choices={"sacrifice": ["bear"]})
    assert gone(out.state) == ["bear"]
    assert gone(manual.resolve_trigger(state).state) == ["bear"]


def test_702_86a_only_the_defending_player_sacrifices(engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob", "carol"], [
        c("eldrazi", "alice", 10, 10, "annihilator 1"), c("bear", "bob", 2, 2),
        c("wolf", "carol", 2, 2), c("elf", "alice", 1, 1)])
    out = engine.declare_attackers(state, {"eldrazi": "carol"})
    assert gone(out.state) == ["wolf"]


def test_702_86a_attacking_a_planeswalker_its_controller_sacrifices(engine: Engine) -> None:
    jace = engine.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 3})
    state = board(engine, ("annihilator 1",), extra=(jace,))
    out = engine.declare_attackers(state, {"eldrazi": "jace"})
    assert gone(out.state) == ["spirit"]


def test_702_86b_each_instance_triggers_separately(manual: Engine) -> None:
    state = board(manual, ("annihilator 1", "annihilator 2"))
    state = manual.declare_attackers(state, {"eldrazi": "bob"}).state
    assert sorted(t.amount or 0 for t in state.stack) == [1, 2]
    while state.stack:
        state = manual.resolve_trigger(state).state
    assert gone(state) == ["bear", "land", "spirit"]


def test_508_3a_a_creature_put_onto_the_battlefield_attacking_does_not_trigger(
        engine: Engine) -> None:
    """508.3a: "Such abilities won't trigger if a creature is put onto the battlefield
    attacking": annihilator ("Whenever this creature attacks") on a creature put onto
    the battlefield attacking bob never triggers; bob sacrifices nothing."""
    spawn = engine.creature("spawn", "alice", 4, 4, "annihilator 1", zone="hand")
    state = board(engine, (), extra=(spawn,))
    state = engine.declare_attackers(state, {"eldrazi": "bob"}).state
    out = engine.perform(state, Move("spawn", "battlefield", attacking="bob"))
    assert out.state.combat is not None and out.state.combat.attacks["spawn"] == "bob"
    assert [e for e in out.events if e.kind in ("trigger", "sacrificed")] == []
    assert out.state.stack == () and gone(out.state) == []


def test_702_86a_sacrifice_is_not_destruction(engine: Engine) -> None:
    """Indestructible (702.12b) stops destruction, not sacrifice."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("eldrazi", "alice", 10, 10, "annihilator 1"),
                                           c("golem", "bob", 4, 4, "indestructible")])
    assert gone(engine.declare_attackers(state, {"eldrazi": "bob"}).state) == ["golem"]


class TestAnnihilatorConformance(KeywordConformance):
    """The conformance kit's invariants hold with annihilator on generated boards."""

    plugin = annihilator
    max_examples = 10


def _changed_before_it_resolves(manual: Engine) -> GameState:
    """Bob controls b1 as the trigger goes on the stack, then a token too."""
    from redzone import CreateToken

    c = manual.creature
    state = manual.game(["alice", "bob"], [c("e", "alice", 5, 5, "annihilator 1"),
                                           c("b1", "bob", 1, 1)])
    state = manual.declare_attackers(state, {"e": "bob"}).state
    return manual.perform(state, CreateToken(Permanent(
        "tok", "bob", base_power=1, base_toughness=1, token=True))).state


def test_702_86a_608_2d_the_choice_is_of_what_the_player_controls_as_it_resolves(
        manual: Engine) -> None:
    """702.86a, 608.2d: the defending player chooses what to sacrifice as the
    trigger resolves, among the permanents they control then: a permanent
    that came since it triggered is an option, listed as pending and
    accepted by key, and an explicit answer is honoured even when it equals
    the default worked out as it triggered."""
    state = _changed_before_it_resolves(manual)
    pending = manual.pending_choices(state)
    assert [(p.key, p.options, p.default) for p in pending] == [
        ("annihilator@e:sacrifice", ("b1", "tok"), ("tok",))]
    key = "annihilator@e:sacrifice"
    for answer in (["tok"], ["b1"]):
        out = manual.resolve_trigger(state, answers={key: answer})
        assert gone(out.state) == answer
        out = manual.resolve_trigger(state, choices={"sacrifice": answer})
        assert gone(out.state) == answer
    assert gone(manual.resolve_trigger(state).state) == ["tok"]  # the default of now
