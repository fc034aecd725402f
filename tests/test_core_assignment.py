"""Combat damage assignment (510.1a-e) and the default assignment policy."""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from redzone import (
    Duty,
    Engine,
    GameState,
    IllegalAssignmentError,
    LeaveBattlefield,
    Permanent,
    Prevent,
    Pump,
    RemoveFromCombat,
    SourceAssignment,
    Violation,
    creature,
)
from redzone.formats.serialize import state_to_dict
from redzone.kernel.plugins import Hooks
from redzone.testing import plugin_module as plugin


def declared(engine: Engine, state: GameState, attacks: Mapping[str, str],
             blocks: Mapping[str, Any]) -> GameState:
    state = engine.declare_attackers(state, attacks).state
    return engine.declare_blockers(state, blocks).state


def reject(engine: Engine, state: GameState,
           assign: Mapping[str, Mapping[str, Any]]) -> IllegalAssignmentError:
    """Assign, expect rejection, and check that nothing changed (510.1e, 733)."""
    before = state_to_dict(state)
    with pytest.raises(IllegalAssignmentError) as info:
        engine.combat_damage(state, assign)  # type: ignore[arg-type]
    assert state_to_dict(state) == before
    assert info.value.kind == "illegal_assignment"
    # The query reports the same violations without raising.
    assert engine.assignment_violations(state, assign) == info.value.violations  # type: ignore[arg-type]
    return info.value


def damage_of(events: Sequence[Any]) -> dict[tuple[str, str], int]:
    return {(e.source, e.target): e.amount for e in events if e.kind == "damage"}


@pytest.fixture
def regrower(bare_engine: Engine) -> GameState:
    """An attacking Elvish Regrower (4/3) blocked by Vampire Spawn (2/3) and
    Helpful Hunter (1/1) (the 510.1c example of the seeds)."""
    state = bare_engine.game(["alice", "bob"], [
        creature("regrower", "alice", 4, 3, name="Elvish Regrower"),
        creature("spawn", "bob", 2, 3, name="Vampire Spawn"),
        creature("hunter", "bob", 1, 1, name="Helpful Hunter")])
    return declared(bare_engine, state, {"regrower": "bob"},
                    {"spawn": "regrower", "hunter": "regrower"})


@pytest.mark.parametrize("spawn,hunter", [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)])
def test_510_1c_elvish_regrower_divides_as_its_controller_chooses(
        bare_engine: Engine, regrower: GameState, spawn: int, hunter: int) -> None:
    """510.1c (Foundations): all 4 to the Hunter, 1 and 3, 2 and 2, 3 and 1, or
    all 4 to the Spawn are all legal, with no damage assignment order."""
    out = bare_engine.combat_damage(regrower, {"regrower": {"spawn": spawn, "hunter": hunter}})
    dealt = damage_of(out.events)
    assert dealt.get(("regrower", "spawn"), 0) == spawn
    assert dealt.get(("regrower", "hunter"), 0) == hunter
    assert bare_engine.assignment_violations(
        regrower, {"regrower": {"spawn": spawn, "hunter": hunter}}) == ()


def test_510_1c_elvish_regrower_illegal_divisions(bare_engine: Engine,
                                                  regrower: GameState) -> None:
    """510.1a, 510.1c: the Regrower can't assign 3 of its 4 damage, nor any
    to the defending player (it is blocked and can't assign past blockers)."""
    err = reject(bare_engine, regrower, {"regrower": {"spawn": 1, "hunter": 2}})
    assert (err.rule, err.objects) == ("510.1a", ("regrower",))
    assert "must assign exactly 4" in err.message
    err = reject(bare_engine, regrower, {"regrower": {"spawn": 2, "bob": 2}})
    assert (err.rule, err.objects) == ("510.1c", ("bob", "regrower"))
    assert "legal recipients" in err.message


def test_510_1a_power_p_assigns_exactly_p(bare_engine: Engine) -> None:
    """510.1a: each creature assigns combat damage equal to its power, no more."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3),
                                                creature("bear", "bob", 2, 2)])
    state = declared(bare_engine, state, {"orc": "bob"}, {"bear": "orc"})
    err = reject(bare_engine, state, {"orc": {"bear": 4}})
    assert (err.rule, err.objects) == ("510.1a", ("orc",))
    err = reject(bare_engine, state, {"bear": {"orc": 1}})
    assert (err.rule, err.objects) == ("510.1a", ("bear",))


def test_510_1a_zero_or_less_power_assigns_nothing(bare_engine: Engine) -> None:
    """510.1a: creatures that would assign 0 or less damage don't assign."""
    state = bare_engine.game(["alice", "bob"], [
        creature("wall", "alice", 0, 4), creature("shrunk", "alice", 1, 4, counters={"-1/-1": 2}),
        creature("bear", "bob", 2, 2)])
    state = declared(bare_engine, state, {"wall": "bob", "shrunk": "bob"}, {"bear": "wall"})
    step, duties = bare_engine.damage_duties(state)
    assert step == "combat_damage"
    assert [d.source for d in duties] == ["bear"]
    out = bare_engine.combat_damage(state)
    assert damage_of(out.events) == {("bear", "wall"): 2}


def test_510_1a_negative_and_non_integer_amounts(bare_engine: Engine,
                                                 regrower: GameState) -> None:
    """510.1a: amounts are whole numbers, 0 or more."""
    err = reject(bare_engine, regrower, {"regrower": {"spawn": 5, "hunter": -1}})
    assert err.rule == "510.1a"
    assert set(err.objects) == {"hunter", "regrower"}
    for bad in ("2", 2.0, True, None):
        err = reject(bare_engine, regrower, {"regrower": {"spawn": bad, "hunter": 2}})
        assert (err.rule, err.objects) == ("510.1a", ("regrower", "spawn"))


def test_510_1b_unblocked_assigns_to_what_it_attacks(bare_engine: Engine) -> None:
    """510.1b: an unblocked creature assigns all its damage to the player,
    planeswalker or battle it attacks, and to nothing else."""
    state = bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 3, 3), creature("elf", "alice", 2, 2),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 5}),
        creature("bear", "bob", 2, 2)])
    state = declared(bare_engine, state, {"orc": "bob", "elf": "jace"}, {})
    _step, duties = bare_engine.damage_duties(state)
    assert [(d.source, d.recipients) for d in duties] == [("orc", ("bob",)),
                                                          ("elf", ("jace",))]
    err = reject(bare_engine, state, {"orc": {"jace": 3}})
    assert (err.rule, err.objects) == ("510.1b", ("jace", "orc"))
    err = reject(bare_engine, state, {"elf": {"bear": 2}})
    assert (err.rule, err.objects) == ("510.1b", ("bear", "elf"))
    out = bare_engine.combat_damage(state)
    assert out.state.players["bob"].life == 17
    assert out.state.objects["jace"].loyalty == 3


def test_510_1b_attacking_nothing_assigns_nothing(bare_engine: Engine) -> None:
    """510.1b / 506.4c: an unblocked creature attacking a planeswalker that has
    left the battlefield assigns no combat damage."""
    state = bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 3, 3),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 5})])
    state = bare_engine.declare_attackers(state, {"orc": "jace"}).state
    state = bare_engine.perform(state, LeaveBattlefield("jace", zone="exile")).state
    state = bare_engine.declare_blockers(state, {}).state
    assert bare_engine.damage_duties(state)[1] == ()
    out = bare_engine.combat_damage(state)
    assert damage_of(out.events) == {}
    assert out.state.players["bob"].life == 20


def test_510_1c_one_blocker_gets_everything(bare_engine: Engine) -> None:
    """510.1c: if exactly one creature is blocking it, it assigns all its
    combat damage to that creature, regardless of its toughness."""
    state = bare_engine.game(["alice", "bob"], [creature("giant", "alice", 10, 10),
                                                creature("bear", "bob", 1, 1)])
    state = declared(bare_engine, state, {"giant": "bob"}, {"bear": "giant"})
    assert bare_engine.default_assignment(state)["giant"] == {"bear": 10}
    err = reject(bare_engine, state, {"giant": {"bear": 1, "bob": 9}})
    assert (err.rule, err.objects) == ("510.1c", ("bob", "giant"))
    out = bare_engine.combat_damage(state)
    assert out.state.players["bob"].life == 20


def test_510_1c_no_blockers_left_assigns_nothing(bare_engine: Engine,
                                                 regrower: GameState) -> None:
    """510.1c: if no creatures are currently blocking it, it assigns no damage."""
    state = bare_engine.perform(regrower, RemoveFromCombat("spawn")).state
    state = bare_engine.perform(state, LeaveBattlefield("hunter")).state
    _step, duties = bare_engine.damage_duties(state)
    assert [d.source for d in duties] == []
    assert damage_of(bare_engine.combat_damage(state).events) == {}


def test_510_1d_blocker_divides_among_attackers(bare_engine: Engine) -> None:
    """510.1d: a blocker blocking two or more creatures divides its damage as
    its controller chooses among them; not to the attacking player."""
    state = bare_engine.game(["alice", "bob"], [
        creature("a", "alice", 1, 1), creature("b", "alice", 1, 1),
        creature("brigade", "bob", 3, 4, can_block_additional=1)])
    state = declared(bare_engine, state, {"a": "bob", "b": "bob"}, {"brigade": ["a", "b"]})
    for split in ({"a": 3}, {"a": 1, "b": 2}, {"b": 3}):
        out = bare_engine.combat_damage(state, {"brigade": split})
        assert {t: n for (s, t), n in damage_of(out.events).items() if s == "brigade"} == split
    err = reject(bare_engine, state, {"brigade": {"a": 1, "alice": 2}})
    assert (err.rule, err.objects) == ("510.1d", ("alice", "brigade"))


def test_510_1d_blocker_whose_attacker_left_assigns_nothing(bare_engine: Engine,
                                                            regrower: GameState) -> None:
    """510.1d: a blocker that isn't currently blocking any creature (the
    attacker was removed from combat) assigns no combat damage; it is still a
    blocking creature."""
    state = bare_engine.perform(regrower, RemoveFromCombat("regrower")).state
    assert state.combat is not None
    assert state.combat.is_blocking("spawn")
    assert bare_engine.damage_duties(state)[1] == ()


def test_510_1e_whole_assignment_checked_and_every_violation_reported(
        bare_engine: Engine) -> None:
    """510.1e: the total assignment is checked; an illegal one is rejected as a
    whole with every broken rule, and the game returns to the moment before."""
    state = bare_engine.game(["alice", "bob"], [
        creature("orc", "alice", 3, 3), creature("elf", "alice", 2, 2),
        creature("bear", "bob", 2, 2)])
    state = declared(bare_engine, state, {"orc": "bob", "elf": "bob"}, {"bear": "orc"})
    err = reject(bare_engine, state, {"orc": {"bear": 2}, "elf": {"bear": 2}})
    assert {(v.rule, v.objects) for v in err.violations} == {
        ("510.1a", ("orc",)), ("510.1b", ("elf", "bear"))}


def test_510_1_sources_and_recipients_must_exist(bare_engine: Engine,
                                                 regrower: GameState) -> None:
    """510.1: only attacking and blocking creatures assign combat damage, to
    objects that exist."""
    err = reject(bare_engine, regrower, {"ghost": {"bob": 1}})
    assert (err.rule, err.objects) == ("510.1", ("ghost",))
    err = reject(bare_engine, regrower, {"alice": {"bob": 1}})
    assert (err.rule, err.objects) == ("510.1", ("alice",))
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3),
                                                creature("idle", "alice", 1, 1)])
    state = declared(bare_engine, state, {"orc": "bob"}, {})
    err = reject(bare_engine, state, {"idle": {"bob": 1}})
    assert (err.rule, err.objects) == ("510.1", ("idle",))
    err = reject(bare_engine, regrower, {"regrower": {"spawn": 2, "nobody": 2}})
    assert ("510.1", ("regrower", "nobody")) in {(v.rule, v.objects) for v in err.violations}
    assert err.objects == ("nobody", "regrower")
    err = reject(bare_engine, regrower, {"regrower": [("spawn", 4)]})
    assert err.rule == "510.1"


def test_default_policy_lethal_in_order_rest_to_last(bare_engine: Engine,
                                                     regrower: GameState) -> None:
    """Scenario default (510.1c): lethal damage to each blocker in declaration
    order, the rest to the last one."""
    assert bare_engine.default_assignment(regrower)["regrower"] == {"spawn": 3, "hunter": 1}
    big = regrower.with_permanents({"regrower": regrower.objects["regrower"].evolve(
        base_power=6)})
    assert bare_engine.default_assignment(big)["regrower"] == {"spawn": 3, "hunter": 3}


def test_default_policy_counts_marked_damage(bare_engine: Engine, regrower: GameState) -> None:
    """510.1c / 120.6: lethal damage takes damage already marked into account."""
    hurt = regrower.with_permanents({"spawn": regrower.objects["spawn"].evolve(damage=2)})
    assert bare_engine.default_assignment(hurt)["regrower"] == {"spawn": 1, "hunter": 3}
    assert bare_engine.lethal_damage(hurt, "regrower", "spawn") == 1


def test_default_policy_counts_damage_other_creatures_assign(bare_engine: Engine) -> None:
    """510.1c (XMage #11567): lethal damage counts damage other creatures assign
    to the same creature in the same step."""
    state = bare_engine.game(["alice", "bob"], [
        creature("baloth", "alice", 7, 7), creature("boars", "alice", 4, 4),
        creature("armodon", "bob", 3, 3, damage=2),
        creature("brigade", "bob", 2, 4, can_block_additional=1),
        creature("ape", "bob", 5, 5), creature("piker", "bob", 2, 1)])
    state = declared(bare_engine, state, {"baloth": "bob", "boars": "bob"}, {
        "armodon": "baloth", "brigade": ["baloth", "boars"], "ape": "baloth",
        "piker": "boars"})
    policy = bare_engine.default_assignment(state)
    assert policy["baloth"] == {"armodon": 1, "brigade": 4, "ape": 2}
    # The brigade already gets lethal damage from the Baloth: the Boars' lethal
    # for it is 0, so all of its 4 go to the Piker.
    assert policy["boars"] == {"piker": 4}
    fixed = bare_engine.default_assignment(state, {"baloth": {"armodon": 1, "ape": 6}})
    assert "baloth" not in fixed
    assert fixed["boars"] == {"brigade": 4}


def test_510_1c_lethal_map_counts_other_assignments() -> None:
    """702.19b / 510.1c via redzone_assignment_violations: the SourceAssignment
    a plugin checks carries lethal damage counting marked damage and what other
    creatures assign in the same step."""
    seen: dict[str, SourceAssignment] = {}

    def redzone_assignment_violations(assignment: SourceAssignment) -> list[Violation]:
        seen[assignment.source] = assignment
        return []

    engine = Engine(discover=False, plugins=[plugin("spy", redzone_assignment_violations=(
        redzone_assignment_violations))])
    state = engine.game(["alice", "bob"], [
        creature("baloth", "alice", 7, 7), creature("boars", "alice", 4, 4),
        creature("armodon", "bob", 3, 3, damage=2),
        creature("brigade", "bob", 2, 4, can_block_additional=1)])
    state = declared(engine, state, {"baloth": "bob", "boars": "bob"},
                     {"armodon": "baloth", "brigade": ["baloth", "boars"]})
    engine.combat_damage(state, {"baloth": {"armodon": 1, "brigade": 6},
                                 "boars": {"brigade": 4}})
    baloth = seen["baloth"]
    assert (baloth.power, baloth.step, baloth.is_attacker) == (7, "combat_damage", True)
    assert baloth.blockers == ("armodon", "brigade")
    assert baloth.attacked is None
    assert dict(baloth.lethal) == {"armodon": 1, "brigade": 0}
    assert baloth.to("brigade") == 6 and baloth.to("bob") == 0
    assert dict(seen["boars"].lethal) == {"brigade": 0}
    assert dict(seen["brigade"].amounts) == {"baloth": 2}
    assert not seen["brigade"].is_attacker


def test_510_1e_assignment_violations_hook_rejects() -> None:
    """510.1e via redzone_assignment_violations: a plugin's condition makes the
    whole assignment illegal."""
    def redzone_assignment_violations(assignment: SourceAssignment) -> list[Violation]:
        if assignment.source == "orc" and assignment.to("bear") < 2:
            return [Violation("510.1c", "orc must assign 2 to the bear", ("orc", "bear"))]
        return []

    engine = Engine(discover=False, plugins=[plugin("picky", redzone_assignment_violations=(
        redzone_assignment_violations))])
    state = engine.game(["alice", "bob"], [creature("orc", "alice", 3, 3),
                                           creature("bear", "bob", 2, 2),
                                           creature("wolf", "bob", 2, 2)])
    state = declared(engine, state, {"orc": "bob"}, {"bear": "orc", "wolf": "orc"})
    err = reject(engine, state, {"orc": {"bear": 1, "wolf": 2}})
    assert (err.rule, err.objects) == ("510.1c", ("bear", "orc"))
    assert engine.combat_damage(state, {"orc": {"bear": 2, "wolf": 1}}).state


def test_702_2c_lethal_damage_hook_smallest_wins() -> None:
    """702.2c via redzone_lethal_damage: the smallest answer is lethal damage
    (deathtouch: 1), and the default policy uses it."""
    engine = Engine(discover=False, plugins=[
        plugin("one", redzone_lethal_damage=lambda source: 1 if source == "viper" else None),
        plugin("two", redzone_lethal_damage=lambda source: 2 if source == "viper" else None)])
    state = engine.game(["alice", "bob"], [
        creature("viper", "alice", 3, 3), creature("x", "bob", 4, 4),
        creature("y", "bob", 4, 4), creature("z", "bob", 4, 4)])
    state = declared(engine, state, {"viper": "bob"}, {"x": "viper", "y": "viper", "z": "viper"})
    assert engine.lethal_damage(state, "viper", "x") == 1
    assert engine.lethal_damage(state, "x", "viper") == 3
    assert engine.default_assignment(state)["viper"] == {"x": 1, "y": 1, "z": 1}


def test_default_policy_rest_to_attacked_when_allowed() -> None:
    """702.19b default: lethal to each blocker, then the rest to what it attacks
    when it may assign there."""
    engine = Engine(discover=False, plugins=[plugin("past", redzone_assigns_past_blockers=(
        lambda attacker: True))])
    state = engine.game(["alice", "bob"], [creature("wurm", "alice", 6, 6),
                                           creature("bear", "bob", 2, 2, damage=1)])
    state = declared(engine, state, {"wurm": "bob"}, {"bear": "wurm"})
    _step, duties = engine.damage_duties(state)
    assert duties[0].recipients == ("bear", "bob")
    assert engine.default_assignment(state)["wurm"] == {"bear": 1, "bob": 5}
    assert engine.combat_damage(state).state.players["bob"].life == 15


def test_custom_policy_is_used_for_unassigned_creatures() -> None:
    """510.1: the engine's policy chooses for creatures the caller left out."""
    calls: list[tuple[str, tuple[str, ...]]] = []

    def everything_to_first(hooks: Hooks, state: GameState, step: str,
                            duties: Sequence[Duty], fixed: Mapping[str, Mapping[str, int]]
                            ) -> dict[str, dict[str, int]]:
        calls.append((step, tuple(d.source for d in duties)))
        return {d.source: {d.recipients[0]: d.power} for d in duties if d.source not in fixed}

    engine = Engine(discover=False, policy=everything_to_first)
    state = engine.game(["alice", "bob"], [
        creature("regrower", "alice", 4, 3), creature("spawn", "bob", 2, 3),
        creature("hunter", "bob", 1, 1)])
    state = declared(engine, state, {"regrower": "bob"},
                     {"spawn": "regrower", "hunter": "regrower"})
    out = engine.combat_damage(state)
    assert damage_of(out.events)[("regrower", "spawn")] == 4
    assert calls[-1] == ("combat_damage", ("regrower", "spawn", "hunter"))
    assert repr(engine.damage_duties(state)[1][0]).startswith("Duty('regrower'")


@pytest.fixture
def gorger(bare_engine: Engine) -> GameState:
    """An attacking Vastwood Gorger (5/6) blocked by Pride Guardian (0/3) then
    Llanowar Elves (1/1) (the 510.1c examples of the seeds)."""
    state = bare_engine.game(["alice", "bob"], [
        creature("gorger", "alice", 5, 6, name="Vastwood Gorger"),
        creature("guardian", "bob", 0, 3, name="Pride Guardian"),
        creature("elves", "bob", 1, 1, name="Llanowar Elves")])
    return declared(bare_engine, state, {"gorger": "bob"},
                    {"guardian": "gorger", "elves": "gorger"})


def test_510_1c_lethal_uses_current_toughness(bare_engine: Engine, gorger: GameState) -> None:
    """510.1c example (Giant Growth): lethal damage is judged on the creature as
    it is when damage is assigned: after +3/+3 the Guardian needs 6, so the
    default gives it all 5."""
    assert bare_engine.default_assignment(gorger)["gorger"] == {"guardian": 3, "elves": 2}
    grown = bare_engine.perform(gorger, Pump("guardian", 3, 3)).state
    assert bare_engine.lethal_damage(grown, "gorger", "guardian") == 6
    assert bare_engine.default_assignment(grown)["gorger"] == {"guardian": 5}


def test_510_1c_lethal_ignores_prevention(gorger: GameState) -> None:
    """510.1c example (Mending Hands): lethal damage doesn't take into account
    effects that change how much damage is actually dealt (a prevention
    shield on the Guardian)."""
    seen: dict[str, SourceAssignment] = {}
    engine = Engine(discover=False, plugins=[plugin("spy", redzone_assignment_violations=(
        lambda assignment: seen.setdefault(assignment.source, assignment) and None))])
    shielded = engine.perform(gorger, Prevent(target="guardian", amount=4)).state
    assert engine.lethal_damage(shielded, "gorger", "guardian") == 3
    assert engine.default_assignment(shielded)["gorger"] == {"guardian": 3, "elves": 2}
    out = engine.combat_damage(shielded)
    assert dict(seen["gorger"].lethal) == {"guardian": 3, "elves": 1}
    assert out.state.objects["guardian"].damage == 0  # all 3 prevented
    assert out.state.objects["elves"].zone == "graveyard"


# ---------------------------------------------------------------------------
# The engine's own default assignment is checked by every check the gates let through
# ---------------------------------------------------------------------------


def _picky(keyword: str | None = None) -> types.ModuleType:
    """A plugin whose assignment check rejects any damage to a player (a
    made-up rule, so that the default policy's assignment breaks it); with
    ``keyword``, it declares that keyword (its gate)."""

    def no_player_damage(state: GameState, assignment: SourceAssignment) -> list[Violation]:
        if any(n and r in state.players for r, n in assignment.amounts.items()):
            return [Violation("510.1", "picky: no damage to players", (assignment.source,))]
        return []

    return plugin("picky", keyword, redzone_assignment_violations=no_player_damage)


def _orc_attacks(engine: Engine, *keywords: str) -> GameState:
    return declared(engine, engine.game(["alice", "bob"], [
        engine.creature("orc", "alice", 2, 2, *keywords)]), {"orc": "bob"}, {})


def test_510_1e_a_check_without_a_keyword_runs_on_the_default_assignment() -> None:
    """510.1e: the default assignment is checked like any other by a plugin
    that declares no keyword (it is asked about every state), and an
    assignment the plugin's rule forbids is rejected."""
    engine = Engine(discover=False, plugins=[_picky()], verify=False)
    reject(engine, _orc_attacks(engine), {})


def test_510_1e_a_keyword_gated_check_runs_on_the_default_assignment_where_asked() -> None:
    """510.1e: a check gated on its keyword checks the default assignment
    of a combat where the keyword is present (and rejects it here), and is
    not asked where it isn't (a plain combat pays nothing for it)."""
    engine = Engine(discover=False, plugins=[_picky("picky")], verify=False)
    reject(engine, _orc_attacks(engine, "picky"), {})
    plain = _orc_attacks(engine)
    assert not engine.hooks.asks("redzone_assignment_violations", plain)
    assert engine.combat_damage(plain).state.players["bob"].life == 18


def test_510_1_a_given_assignment_is_checked_by_every_check_asked() -> None:
    """510.1: an assignment the caller gives is checked by the same checks."""
    engine = Engine(discover=False, plugins=[_picky()], verify=False)
    err = reject(engine, _orc_attacks(engine), {"orc": {"bob": 2}})
    assert "picky" in str(err)


def test_510_1_the_retired_trust_constant_is_ignored() -> None:
    """510.1: a plugin that still sets REDZONE_TRUSTS_DEFAULT_POLICY gets a
    DeprecationWarning, and its check runs on the default assignment anyway
    (a wrong claim, as here, can no longer give a wrong result)."""
    module = _picky()
    module.REDZONE_TRUSTS_DEFAULT_POLICY = True  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning, match="REDZONE_TRUSTS_DEFAULT_POLICY"):
        engine = Engine(discover=False, plugins=[module], verify=False)
    reject(engine, _orc_attacks(engine), {})
