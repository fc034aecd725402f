"""Mobilize (CR 702.181): "Mobilize N" means "Whenever this creature attacks, create
N 1/1 red Warrior creature tokens. Those tokens enter tapped and attacking. Sacrifice
them at the beginning of the next end step" (702.181a)."""

from __future__ import annotations

import pytest
import redzone_keywords.mobilize as mobilize
from redzone import Engine, GameState, Permanent
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.testing import KeywordConformance


def board(engine: Engine, *keywords: str, extra: tuple[Permanent, ...] = (),
          players: tuple[str, ...] = ("alice", "bob")) -> GameState:
    """alice: a 2/2 "Voice" with ``keywords``; bob: nothing unless ``extra``."""
    return engine.game(list(players), [engine.creature("voice", "alice", 2, 2, *keywords),
                                       *extra])


@pytest.fixture(scope="module")
def manual() -> Engine:
    """An engine that leaves triggered abilities on ``state.stack`` (603.3)."""
    return Engine(auto_triggers=False)


def warriors(state: GameState) -> list[str]:
    return sorted(p.id for p in state.battlefield if p.token)


def to_main2(engine: Engine, state: GameState) -> GameState:
    state = engine.declare_blockers(state, {}).state
    state = engine.combat_damage(state).state
    state = engine.end_of_combat(state).state
    return engine.finish(state).state


def test_702_181a_n_red_warriors_enter_tapped_and_attacking(engine: Engine) -> None:
    """702.181a: mobilize 2 makes two 1/1 red Warrior creature tokens, tapped and
    attacking (508.4), owned and controlled by alice (111.2)."""
    out = engine.declare_attackers(board(engine, "mobilize 2"), {"voice": "bob"})
    assert warriors(out.state) == ["voice.mobilize.1", "voice.mobilize.2"]
    for token in warriors(out.state):
        w = out.state.objects[token]
        assert (w.name, w.subtypes, w.colors, w.power, w.toughness, w.tapped, w.token,
                w.controller) == ("Warrior", ("Warrior",), frozenset({"red"}), 1, 1, True,
                                  True, "alice")
    assert out.state.combat is not None
    assert {t: out.state.combat.attacks[t] for t in warriors(out.state)} == {
        "voice.mobilize.1": "bob", "voice.mobilize.2": "bob"}
    # They are attacking: they deal combat damage (2 + 1 + 1).
    after = engine.combat_damage(engine.declare_blockers(out.state, {}).state)
    assert after.state.players["bob"].life == 16


def test_508_4_the_warriors_attack_what_it_attacks_and_never_attacked(
        engine: Engine) -> None:
    """508.4: attacking a planeswalker, the tokens attack it too (the default
    choice); they never "attacked": exalted still sees the voice attack alone
    (702.83b): one "attack" event in all."""
    jace = engine.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 9})
    state = board(engine, "mobilize 1", "exalted", extra=(jace,))
    out = engine.declare_attackers(state, {"voice": "jace"})
    assert out.state.combat is not None
    assert {t: out.state.combat.attacks[t] for t in warriors(out.state)} == {
        "voice.mobilize.1": "jace"}
    assert out.state.combat.defending_players["voice.mobilize.1"] == "bob"
    assert out.state.objects["voice"].power == 3  # exalted: it attacked alone
    assert [e.kind for e in out.events].count("attack") == 1


def test_508_4a_the_attacked_planeswalker_is_gone_so_they_attack_its_controller(
        manual: Engine) -> None:
    """508.4: the controller chooses what they attack; when the planeswalker the
    creature attacked has left before the trigger resolves, the default is its
    defending player."""
    jace = manual.permanent("jace", "bob", types=["planeswalker"], counters={"loyalty": 1})
    state = manual.declare_attackers(board(manual, "mobilize 1", extra=(jace,)),
                                     {"voice": "jace"}).state
    state = state.with_permanents({"jace": state.objects["jace"].evolve(zone="graveyard")})
    out = manual.resolve_trigger(state)
    assert out.state.combat is not None
    assert out.state.combat.attacks["voice.mobilize.1"] == "bob"


def test_702_181a_each_instance_triggers_separately(engine: Engine) -> None:
    out = engine.declare_attackers(board(engine, "mobilize 1", "mobilize 2"), {"voice": "bob"})
    assert len(warriors(out.state)) == 3
    assert len(out.state.delayed) == 2


def test_513_sacrificed_at_the_beginning_of_the_next_end_step(engine: Engine) -> None:
    """702.181a, 603.7: the delayed trigger waits through combat and the
    postcombat main phase and makes alice sacrifice them as the end step begins
    (513.1); sacrificed tokens cease to exist (701.21a, 111.7)."""
    state = engine.declare_attackers(board(engine, "mobilize 2"), {"voice": "bob"}).state
    assert [(d.when, d.kind) for d in state.delayed] == [("end_step", "mobilize sacrifice")]
    state = to_main2(engine, state)
    assert len(warriors(state)) == 2  # still there after combat
    out = engine.end_step(state)
    assert warriors(out.state) == []
    assert [e.kind for e in out.events].count("sacrificed") == 2
    assert {out.state.objects[t].zone for t in ("voice.mobilize.1", "voice.mobilize.2")} \
        == {"ceased"}
    assert out.state.objects["voice"].zone == "battlefield"
    assert out.state.delayed == ()


def test_513_end_turn_sacrifices_them_too(engine: Engine) -> None:
    """The end step of ``end_turn`` (513, 514) sacrifices them."""
    state = engine.declare_attackers(board(engine, "mobilize 1"), {"voice": "bob"}).state
    out = engine.end_turn(to_main2(engine, state))
    assert warriors(out.state) == [] and out.state.step == "cleanup"


def test_513_through_cleanup_in_resolve(engine: Engine) -> None:
    """``resolve(..., through="cleanup")`` runs the end step: the tokens dealt their
    damage and were then sacrificed; with ``through="end_of_combat"`` they remain."""
    state = board(engine, "mobilize 3")
    result = engine.resolve(state, {"voice": "bob"}, {}, through="cleanup")
    assert result.state.players["bob"].life == 15
    assert warriors(result.state) == []
    assert "end_step" in result.steps
    kept = engine.resolve(state, {"voice": "bob"}, {})
    assert len(warriors(kept.state)) == 3


def test_513_2_created_in_an_additional_combat_waits_for_the_end_step(
        engine: Engine) -> None:
    """513.2, 603.7: the tokens from a first combat still wait for the end step
    during an additional combat (500.8): neither they nor the second combat's
    are sacrificed at end_of_combat#2; the end step sacrifices them all."""
    state = board(engine, "mobilize 1", "vigilance")
    first = engine.resolve(state, {"voice": "bob"}, {})
    assert len(warriors(first.state)) == 1
    # The second combat only (stops after end_of_combat#2): both tokens remain
    # and both delayed triggers still wait for the end step.
    kept = engine.resolve(first.state, {"voice": "bob"}, {})
    assert kept.steps[-1] == "end_of_combat#2" and "end_step" not in kept.steps
    assert warriors(kept.state) == ["voice.mobilize.1", "voice.mobilize.2"]
    assert [(d.when, d.kind, d.text) for d in kept.state.delayed] == [
        ("end_step", "mobilize sacrifice", "sacrifice voice.mobilize.1"),
        ("end_step", "mobilize sacrifice", "sacrifice voice.mobilize.2")]
    assert "sacrificed" not in [e.kind for e in kept.events]
    second = engine.resolve(first.state, {"voice": "bob"}, {}, through="cleanup")
    assert second.state.players["bob"].life == 20 - 3 - 3
    assert warriors(second.state) == []
    assert sorted(e.object or "" for e in second.events if e.kind == "sacrificed") == [
        "voice.mobilize.1", "voice.mobilize.2"]
    assert second.state.delayed == ()


def test_701_21a_a_warrior_that_died_is_not_sacrificed(engine: Engine) -> None:
    """603.7c: a token already gone isn't found; the other one is sacrificed."""
    state = board(engine, "mobilize 2", extra=(engine.creature("bear", "bob", 2, 2),))
    state = engine.declare_attackers(state, {"voice": "bob"}).state
    state = engine.declare_blockers(state, {"bear": "voice.mobilize.1"}).state
    state = engine.finish(engine.end_of_combat(engine.combat_damage(state).state).state).state
    assert warriors(state) == ["voice.mobilize.2"]
    out = engine.end_step(state)
    assert warriors(out.state) == []
    assert [e.object for e in out.events if e.kind == "sacrificed"] == ["voice.mobilize.2"]


@pytest.mark.parametrize("n", [0, 1, 4])
def test_702_181a_the_state_round_trips(engine: Engine, n: int) -> None:
    state = engine.declare_attackers(board(engine, f"mobilize {n}"), {"voice": "bob"}).state
    assert len(warriors(state)) == n and len(state.delayed) == (1 if n else 0)
    assert state_from_dict(state_to_dict(state)) == state


def test_603_3b_the_default_trigger_order_does_not_depend_on_registration_order() -> None:
    """603.3b: a player puts their simultaneous triggers on the stack in the order
    they choose; the default (by the ability's name) is the same whatever order
    the plugins are registered in, so the events are too (mobilize and annihilator
    on one creature)."""
    import redzone_keywords.annihilator as annihilator
    from redzone.kernel.plugins import PluginInfo

    def run(plugins: list[object]) -> list[tuple[str, str | None]]:
        # Plugins are called in the order of their names: name them so.
        engine = Engine(discover=False, plugins=[
            PluginInfo(f"{i}.{getattr(p, '__name__', '')}", p) for i, p in enumerate(plugins)])
        state = engine.game(["alice", "bob"], [
            engine.creature("voice", "alice", 2, 2, "mobilize 1", "annihilator 1"),
            engine.creature("bear", "bob", 2, 2)])
        out = engine.declare_attackers(state, {"voice": "bob"})
        return [(e.kind, e.object) for e in out.events]

    usual = run([annihilator, mobilize])
    assert usual == run([mobilize, annihilator])
    stacked = [o for k, o in usual if k == "trigger"]
    resolved = [o for k, o in usual if k == "resolve"]
    assert resolved == stacked[::-1]  # last in, first out (405.5)


class TestMobilizeConformance(KeywordConformance):
    """The conformance kit's invariants hold with mobilize on generated boards."""

    plugin = mobilize
    max_examples = 10


def test_the_token_keyword_on_the_write_a_keyword_page_works() -> None:
    """The page's "A token keyword and a delayed trigger" code, loaded as a plugin:
    its tokens enter tapped and attacking (508.4) without attacking again, and its
    delayed trigger (603.7) exiles them at end of combat; they cease to exist
    (111.7)."""
    import re
    import types
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "write-a-keyword.md").read_text(
        encoding="utf-8")
    section = page.split("## A token keyword and a delayed trigger", 1)[1]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    module = types.ModuleType("muster")
    exec(compile(code, "write-a-keyword.md", "exec"), module.__dict__)
    engine = Engine(discover=False, plugins=[module])
    state = engine.game(["alice", "bob"], [engine.creature("captain", "alice", 2, 2,
                                                           "muster 2")])
    out = engine.declare_attackers(state, {"captain": "bob"})
    assert out.state.combat is not None
    assert dict(out.state.combat.attacks) == {"captain": "bob", "captain-soldier-t1-1": "bob",
                                              "captain-soldier-t1-2": "bob"}
    assert [e.kind for e in out.events].count("trigger") == 1
    after = engine.end_of_combat(engine.combat_damage(
        engine.declare_blockers(out.state, {}).state).state)
    assert after.state.players["bob"].life == 16
    assert {after.state.objects[t].zone for t in ("captain-soldier-t1-1",
                                                  "captain-soldier-t1-2")} == {"ceased"}
    assert "enters_battlefield" not in [e.kind for e in after.events]
