"""Targeting restrictions (``redzone_target_violations``) and protection.

702.16b: "A permanent or player with protection can't be targeted by spells
with the stated quality and can't be targeted by abilities from a source with
the stated quality"; 702.16j: protection from everything can't be targeted by
spells or abilities; 702.16k: protection from a player, by those that player
controls. Provoke (702.39a) and mentor (702.134a) target as they go on the
stack during combat (603.3d): a creature their source can't target is not
offered and not taken by default, and with no legal target left a required
one removes the ability from the stack (603.3d). As the ability resolves its
target is checked again (608.2b): one that gained protection in response is
illegal, and an ability whose only target is illegal doesn't resolve.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from redzone import (
    Engine,
    Exile,
    GameState,
    Grant,
    IllegalActionError,
    Permanent,
    PluginError,
    Violation,
    target_violations,
)
from redzone.formats.outcome import run_file
from redzone.testing import plugin_module as plugin


@pytest.fixture(scope="module")
def manual() -> Engine:
    return Engine(auto_triggers=False)


def _provoke_board(engine: Engine, protection: str = "protection from red") -> GameState:
    """A red provoker; bob's greatest creature (a tapped 5/5) has ``protection``."""
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("goblin", "alice", 3, 3, "provoke", colors={"red"}),
        c("monk", "bob", 5, 5, protection, tapped=True),
        c("bear", "bob", 2, 2, tapped=True)])


def _choices(out: Any) -> dict[str, Any]:
    return {c.key: c for c in out.choices}


# -- the hook and the facade ------------------------------------------------------------


def test_702_16b_the_hook_says_why_a_source_cant_target(engine: Engine) -> None:
    """The facade concatenates the violations: protection from red refuses a
    red source (702.16b), naming both; a source without the quality is no
    violation."""
    state = _provoke_board(engine)
    assert engine.hooks.target_violations(state, "goblin", "monk") == [Violation(
        "702.16b", "monk (protection from red) can't be the target of an ability from "
        "goblin: it is red", ("goblin", "monk"))]
    assert engine.hooks.target_violations(state, "goblin", "bear") == []
    assert engine.hooks.target_violations(state, "bear", "monk") == []


@pytest.mark.parametrize(("protection", "rule"), [
    ("protection from everything", "702.16j"),
    ("protection from alice", "702.16k"),
    ("protection from creatures", "702.16b"),
    ("protection from goblins", "702.16b"),
    ("protection from monocolored", "702.16b"),
])
def test_702_16b_j_k_every_quality_protection_knows_refuses_a_target(
        engine: Engine, protection: str, rule: str) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("goblin", "alice", 3, 3, "provoke", colors={"red"}, subtypes=("Goblin",)),
        c("monk", "bob", 5, 5, protection)])
    assert [v.rule for v in engine.hooks.target_violations(state, "goblin", "monk")] == [rule]


@pytest.mark.parametrize("protection", ["protection from blue", "protection from bob",
                                        "protection from elves", "protection from colorless"])
def test_702_16b_protection_from_another_quality_is_no_violation(
        engine: Engine, protection: str) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("goblin", "alice", 3, 3, "provoke", colors={"red"}, subtypes=("Goblin",)),
        c("monk", "bob", 5, 5, protection)])
    assert engine.hooks.target_violations(state, "goblin", "monk") == []


def test_the_plugins_ask_through_the_engine_running_them_and_nowhere_else() -> None:
    """A plugin's code asks the engine that runs it; asked from anywhere else
    (here, after a command that asked it), there is no engine to answer."""
    engine = Engine()
    state = engine.declare_attackers(_provoke_board(engine), {"goblin": "bob"}).state
    with pytest.raises(LookupError, match="target_violations"):
        target_violations(state, "goblin", "monk")


# -- provoke (702.39a) ------------------------------------------------------------------


def test_702_16b_provoke_neither_offers_nor_defaults_to_a_protected_creature(
        engine: Engine) -> None:
    """The 5/5 with protection from red would be the default (the greatest
    power): it is not offered, the 2/2 is taken, and the 5/5 stays tapped."""
    out = engine.declare_attackers(_provoke_board(engine), {"goblin": "bob"})
    target = _choices(out)["provoke@goblin:target"]
    assert (target.options, target.answer, target.by_default) == (("bear",), ("bear",), True)
    assert out.state.objects["monk"].tapped is True
    assert out.state.objects["bear"].tapped is False
    engine.declare_blockers(out.state, {"bear": "goblin"})


def test_702_16b_provoke_refuses_a_protected_creature_given_as_its_target(
        engine: Engine) -> None:
    """702.16b: the monk with protection from red "can't be targeted by
    abilities from a source with the stated quality": the red provoker's
    ability doesn't offer it (only the bear), so an answer naming it is
    refused as no option of provoke's target (702.39a) and nothing happens.
    With protection from green (no quality of the provoker) the same answer
    is taken: the refusal is the protection's."""
    state = _provoke_board(engine)
    with pytest.raises(IllegalActionError) as info:
        engine.declare_attackers(state, {"goblin": "bob"},
                                 choices={"provoke@goblin:target": "monk"})
    assert info.value.violations == (Violation(
        "702.39a", "choice 'provoke@goblin:target': 'monk' is not among the options (bear)",
        ("provoke@goblin:target",)),)
    assert state.objects["monk"].tapped is True
    assert [v.rule for v in engine.hooks.target_violations(state, "goblin", "monk")] == [
        "702.16b"]
    green = engine.declare_attackers(_provoke_board(engine, "protection from green"),
                                     {"goblin": "bob"},
                                     choices={"provoke@goblin:target": "monk"}).state
    assert green.objects["monk"].tapped is False
    assert [(e.kind, e.to) for e in green.effects] == [("blocks_if_able", "monk")]


def test_702_16b_provoke_with_only_a_protected_creature_targets_nothing(
        engine: Engine) -> None:
    """603.3d: provoke's target is required as it goes on the stack (the "you
    may" is decided as it resolves, 603.5): with no legal target (702.16b)
    the ability is removed from the stack, no target is chosen, and the
    protected creature is neither untapped nor made to block."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("goblin", "alice", 3, 3, "provoke", colors={"red"}),
        c("monk", "bob", 5, 5, "protection from everything", tapped=True)])
    out = engine.declare_attackers(state, {"goblin": "bob"})
    assert "provoke@goblin:target" not in _choices(out)
    assert ("removed_from_stack", "603.3d") in [(e.kind, e.rule) for e in out.events]
    assert out.state.objects["monk"].tapped is True
    assert not out.state.effects
    engine.declare_blockers(out.state, {})


def test_702_16b_a_colourless_provoker_may_target_a_creature_with_protection_from_red(
        engine: Engine) -> None:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("rock", "alice", 3, 3, "provoke"),
                                           c("monk", "bob", 5, 5, "protection from red",
                                             tapped=True)])
    out = engine.declare_attackers(state, {"rock": "bob"})
    assert _choices(out)["provoke@rock:target"].answer == ("monk",)
    assert out.state.objects["monk"].tapped is False


def test_608_2b_provoke_whose_target_gained_protection_does_nothing(manual: Engine) -> None:
    """Protection from red granted with provoke on the stack: as it resolves
    its only target is illegal (608.2b), so the creature neither untaps nor
    must block."""
    out = manual.declare_attackers(_provoke_board(manual, "vigilance"), {"goblin": "bob"})
    assert out.state.stack[0].choices["target"] == ("monk",)
    shielded = manual.perform(out.state, Grant("monk", ("protection from red",))).state
    resolved = manual.resolve_trigger(shielded).state
    assert resolved.objects["monk"].tapped is True
    assert not resolved.effects or all(e.kind != "blocks_if_able" for e in resolved.effects)
    manual.declare_blockers(resolved, {})
    # Without the protection, the same trigger untaps it and makes it block.
    plain = manual.resolve_trigger(out.state).state
    assert plain.objects["monk"].tapped is False


def test_702_16b_608_2b_a_trigger_whose_source_left_is_still_from_that_source(
        manual: Engine) -> None:
    """702.16b: protection from red means the creature "can't be targeted by
    abilities from a source with the stated quality". The red provoker leaves
    the battlefield with its trigger on the stack: the ability is still from
    that source (its last known information, 608.2b), so the target that
    gained protection from red is illegal as it resolves and the creature
    neither untaps nor must block. Without the protection the same trigger
    untaps it: the refusal is the protection's."""
    out = manual.declare_attackers(_provoke_board(manual, "vigilance"), {"goblin": "bob"})
    assert out.state.stack[0].choices["target"] == ("monk",)
    gone = manual.perform(out.state, Exile("goblin")).state
    shielded = manual.perform(gone, Grant("monk", ("protection from red",))).state
    assert shielded.objects["goblin"].zone == "exile"
    assert [v.rule for v in manual.hooks.target_violations(shielded, "goblin", "monk")] == [
        "702.16b"]
    resolved = manual.resolve_trigger(shielded).state
    assert resolved.objects["monk"].tapped is True
    assert all(e.kind != "blocks_if_able" for e in resolved.effects)
    assert manual.resolve_trigger(gone).state.objects["monk"].tapped is False


def test_608_2b_provoke_refuses_an_embedders_protected_target(manual: Engine) -> None:
    """A target an embedding engine gives as it resolves that was never legal
    (it had protection from red all along) is refused, as any target never
    offered is."""
    out = manual.declare_attackers(_provoke_board(manual), {"goblin": "bob"})
    with pytest.raises(IllegalActionError) as info:
        manual.resolve_trigger(out.state, choices={"target": ["monk"]})
    assert info.value.rule == "702.16b"


# -- mentor (702.134a) ------------------------------------------------------------------


def _mentor_board(engine: Engine, protection: str = "protection from white") -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("sage", "alice", 3, 3, "mentor", colors={"white"}),
        c("knight", "alice", 2, 2, protection), c("cub", "alice", 1, 1)])


def test_702_16b_mentor_neither_offers_nor_defaults_to_a_protected_attacker(
        engine: Engine) -> None:
    out = engine.declare_attackers(_mentor_board(engine), {"sage": "bob", "knight": "bob",
                                                           "cub": "bob"})
    target = _choices(out)["mentor@sage:target"]
    assert (target.options, target.answer, target.by_default) == (("cub",), ("cub",), True)
    assert dict(out.state.objects["knight"].counters) == {}
    assert dict(out.state.objects["cub"].counters) == {"+1/+1": 1}


def test_603_3d_mentor_with_only_a_protected_attacker_is_removed_from_the_stack(
        engine: Engine) -> None:
    out = engine.declare_attackers(_mentor_board(engine), {"sage": "bob", "knight": "bob"})
    assert ("removed_from_stack", "603.3d") in [(e.kind, e.rule) for e in out.events]
    assert dict(out.state.objects["knight"].counters) == {}


def test_608_2b_mentor_whose_target_gained_protection_does_nothing(manual: Engine) -> None:
    out = manual.declare_attackers(_mentor_board(manual, "vigilance"),
                                   {"sage": "bob", "knight": "bob", "cub": "bob"})
    assert out.state.stack[0].choices["target"] == ("knight",)
    shielded = manual.perform(out.state, Grant("knight", ("protection from white",))).state
    resolved = manual.resolve_trigger(shielded).state
    assert dict(resolved.objects["knight"].counters) == {}
    plain = manual.resolve_trigger(out.state).state
    assert dict(plain.objects["knight"].counters) == {"+1/+1": 1}


# -- a scenario file ---------------------------------------------------------------------


SCENARIO = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "knight"
controller = "alice"
power = 2
toughness = 2
colors = ["white"]
keywords = ["Provoke", "Mentor"]
[[permanents]]
id = "squire"
controller = "alice"
power = 1
toughness = 1
keywords = ["Protection from White"]
[[permanents]]
id = "monk"
controller = "bob"
power = 1
toughness = 1
tapped = true
keywords = ["protection from white"]
[combat]
attacks = { knight = "bob", squire = "bob" }
"""


def test_702_16b_a_scenario_files_white_provoker_and_mentor_target_nothing_protected(
        tmp_path: Path) -> None:
    """The white knight's provoke can't target bob's monk (protection from
    white), its only candidate, and its mentor can't target the squire
    (protection from white), its only candidate: each ability is removed
    from the stack (603.3d), and the monk stays tapped."""
    path = tmp_path / "protected.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    out = run_file(path)
    assert out["ok"] is True
    made = {c["key"]: (c["options"], c["answer"]) for c in out["choices"]}
    assert "provoke@knight:target" not in made and "mentor@knight:target" not in made
    removed = [e for e in out["events"] if e["kind"] == "removed_from_stack"]
    assert sorted((e["rule"], e.get("ability")) for e in removed) == [
        ("603.3d", "mentor"), ("603.3d", "provoke")]
    permanents = out["permanents"]
    assert permanents["monk"]["tapped"] is True
    assert permanents["squire"]["counters"] == {}
    assert out["players"]["bob"]["life"] == 17  # knight 2 + squire 1, unblocked


# -- the hook is general ------------------------------------------------------------------


def _veiled() -> Any:
    """``veiled`` (a test keyword): can't be the target of abilities from a
    source with power 3 or greater."""

    def redzone_target_violations(state: GameState, source: str,
                                  target: str) -> list[Violation]:
        perm = state.objects.get(target)
        if not isinstance(perm, Permanent) or not perm.has("veiled"):
            return []
        if state.source(source).power < 3:
            return []
        return [Violation("702.999", f"{target} is veiled from {source}", (source, target))]

    return plugin("veiled", "veiled", redzone_target_violations=redzone_target_violations)


def test_a_plugins_targeting_restriction_binds_provoke_and_mentor() -> None:
    """Any plugin may refuse targets: provoke and mentor ask the hook, not
    protection."""
    engine = Engine(plugins=[_veiled()])
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("brute", "alice", 4, 4, "provoke", "mentor"), c("cub", "alice", 1, 1, "veiled"),
        c("pup", "alice", 1, 1), c("wall", "bob", 0, 5, "veiled", tapped=True),
        c("bear", "bob", 2, 2)])
    out = engine.declare_attackers(state, {"brute": "bob", "cub": "bob", "pup": "bob"})
    made = _choices(out)
    assert made["provoke@brute:target"].options == ("bear",)
    assert made["mentor@brute:target"].options == ("pup",)
    assert engine.hooks.target_violations(state, "brute", "wall") == [
        Violation("702.999", "wall is veiled from brute", ("brute", "wall"))]
    assert out.state.objects["wall"].tapped is True
    assert dict(out.state.objects["pup"].counters) == {"+1/+1": 1}


def test_a_targeting_restriction_that_fails_is_named_not_the_plugin_that_asked() -> None:
    """A plugin whose ``redzone_target_violations`` raises while provoke asks it
    is the one the error names: provoke asked through the engine, and the
    engine's own account of the failure passes through provoke's call."""

    def redzone_target_violations(state: GameState, source: str,
                                  target: str) -> list[Violation]:
        raise RuntimeError("broken veil")

    broken = plugin("brokenveil", "veiled", redzone_target_violations=redzone_target_violations)
    engine = Engine(plugins=[broken])
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("brute", "alice", 4, 4, "provoke"),
                                           c("wall", "bob", 0, 5, "veiled")])
    with pytest.raises(PluginError) as info:
        engine.declare_attackers(state, {"brute": "bob"})
    assert info.value.plugin == "brokenveil"
    assert "broken veil" in str(info.value)
