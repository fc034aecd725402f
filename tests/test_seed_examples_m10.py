"""Seed examples written for the damage-assignment-order rules, checked under
the edition they were written for (``m10``, 2009-2024) and in full.

Seed 001 quotes the rules of July 2009 (Craw Wurm, Suntail Hawk), seed 002
those of January 2020 (Vastwood Gorger). Rule numbers are those of the
2024-07-30 rules, which read the same for these examples: 510.1c (a blocked
creature assigns its damage in its damage assignment order, and can't assign
any to a blocker before every blocker ahead of it is assigned lethal damage,
"not any abilities or effects that might change the amount of damage that's
actually dealt"), 510.1e (an illegal assignment is undone) and 510.2 (no
player gets priority between assignment and damage).

Where an example lists the legal divisions, every division of the attacker's
power between its two blockers is tried, so that one wrong division accepted
or one right division refused fails the test.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from redzone import (
    Action,
    DealDamage,
    Engine,
    GameState,
    IllegalActionError,
    IllegalAssignmentError,
    LeaveBattlefield,
    Outcome,
    Prevent,
    Pump,
)
from redzone.formats.serialize import state_to_dict

Division = tuple[int, int]


@pytest.fixture(scope="module")
def m10() -> Engine:
    return Engine(rules="m10")


def _blocked(engine: Engine, attacker: tuple[str, str, int, int],
             first: tuple[str, str, int, int], second: tuple[str, str, int, int],
             *effects: Action) -> GameState:
    """``attacker`` (id, name, power, toughness) attacks bob and is blocked by
    ``first`` then ``second``, in that damage assignment order (509.2 of
    2024); then ``effects`` are performed in the declare blockers step."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c(attacker[0], "alice", attacker[2], attacker[3], name=attacker[1]),
        c(first[0], "bob", first[2], first[3], name=first[1]),
        c(second[0], "bob", second[2], second[3], name=second[1])])
    state = engine.declare_attackers(state, {attacker[0]: "bob"}).state
    state = engine.declare_blockers(state, {first[0]: attacker[0], second[0]: attacker[0]},
                                    {attacker[0]: [first[0], second[0]]}).state
    for effect in effects:
        state = engine.perform(state, effect).state
    return state


def _wurm(engine: Engine, *effects: Action) -> GameState:
    """Seed 001: Craw Wurm (6/4); its order Wall of Wood (0/3) then Eager Cadet (1/1)."""
    return _blocked(engine, ("wurm", "Craw Wurm", 6, 4), ("wall", "Wall of Wood", 0, 3),
                    ("cadet", "Eager Cadet", 1, 1), *effects)


def _gorger(engine: Engine, *effects: Action) -> GameState:
    """Seed 002: Vastwood Gorger (5/6); its order Pride Guardian (0/3) then
    Llanowar Elves (1/1)."""
    return _blocked(engine, ("gorger", "Vastwood Gorger", 5, 6),
                    ("guardian", "Pride Guardian", 0, 3), ("elves", "Llanowar Elves", 1, 1),
                    *effects)


def _divide(engine: Engine, state: GameState, attacker: str, first: str, second: str,
            power: int, check: Callable[[Division, Outcome], None]) -> set[Division]:
    """Try every division of ``power`` between ``first`` and ``second``; return
    the legal ones, each checked by ``check`` with its outcome.

    A refused one must be refused for 510.1c alone, naming the three
    creatures, leave the state as it was (510.1e), and be reported the same
    by :meth:`Engine.assignment_violations`.
    """
    legal: set[Division] = set()
    for amount in range(power + 1):
        division = (amount, power - amount)
        assign = {attacker: {first: division[0], second: division[1]}}
        before = state_to_dict(state)
        try:
            out = engine.combat_damage(state, assign)
        except IllegalAssignmentError as err:
            assert state_to_dict(state) == before, division
            assert err.rule == "510.1c", division
            assert [v.rule for v in err.violations] == ["510.1c"], division
            assert set(err.objects) == {attacker, first, second}, division
            assert engine.assignment_violations(state, assign) == err.violations, division
            continue
        assert engine.assignment_violations(state, assign) == (), division
        check(division, out)
        legal.add(division)
    return legal


def _dealt(out: Outcome, source: str) -> dict[str, int]:
    """The combat damage ``source`` dealt, by recipient."""
    return {e.target: e.amount or 0 for e in out.events
            if e.kind == "damage" and e.combat and e.source == source and e.target is not None}


def _prevented(out: Outcome, target: str) -> int:
    """The damage to ``target`` prevented (615)."""
    return sum(e.amount or 0 for e in out.events if e.kind == "prevented" and e.target == target)


# --- seed 001: Craw Wurm -----------------------------------------------------------


def test_seed_001_m10_craw_wurm_giant_growth_all_six_to_the_wall(m10: Engine) -> None:
    """Seed 001 (``001_9fcfe2babb9818ba.txt``), 510.1c of 2009-2024, second
    Craw Wurm example: "the defending player casts Giant Growth targeting
    Wall of Wood, which gives it +3/+3 until end of turn. Craw Wurm must
    assign its 6 damage to the Wall." The Wall (3/6) needs 6: 6/0 is the
    only legal division, and it dies."""
    state = _wurm(m10, Pump("wall", 3, 3))

    def check(division: Division, out: Outcome) -> None:
        assert _dealt(out, "wurm") == {"wall": 6}
        assert out.state.objects["wall"].zone == "graveyard"
        assert out.state.objects["cadet"].zone == "battlefield"

    assert _divide(m10, state, "wurm", "wall", "cadet", 6, check) == {(6, 0)}


def test_seed_001_m10_craw_wurm_mending_hands_refuses_the_same_divisions(
        m10: Engine) -> None:
    """Seed 001 (``001_9fcfe2babb9818ba.txt``), 510.1c of 2009-2024, third
    Craw Wurm example: "the defending player casts Mending Hands targeting
    Wall of Wood, which prevents the next 4 damage that would be dealt to it.
    Craw Wurm can assign 3 damage to the Wall and 3 damage to the Cadet, 4
    damage to the Wall and 2 damage to the Cadet, 5 damage to the Wall and 1
    damage to the Cadet, or 6 damage to the Wall." Lethal damage ignores the
    shield ("not any abilities or effects that might change the amount of
    damage that's actually dealt"), so 0/6, 1/5 and 2/4 are still refused,
    for 510.1c; in the legal ones the shield prevents up to 4 (615)."""
    state = _wurm(m10, Prevent(target="wall", amount=4))
    check = _shielded("wurm", "wall", "cadet")
    assert _divide(m10, state, "wurm", "wall", "cadet", 6, check) == {
        (3, 3), (4, 2), (5, 1), (6, 0)}


def _shielded(attacker: str, first: str, second: str) -> Callable[[Division, Outcome], None]:
    """The check of a legal division when Mending Hands shields ``first``
    (the next 4 damage, 615): up to 4 of its share is prevented, the rest
    dealt; ``first`` survives, ``second`` dies if it was dealt any."""
    def check(division: Division, out: Outcome) -> None:
        to_first, to_second = division
        assert _prevented(out, first) == min(to_first, 4)
        dealt = {first: to_first - 4, second: to_second}
        assert _dealt(out, attacker) == {k: v for k, v in dealt.items() if v > 0}
        assert out.state.objects[first].zone == "battlefield"
        assert out.state.objects[second].zone == ("graveyard" if to_second else "battlefield")
    return check


# --- seed 002: Vastwood Gorger -----------------------------------------------------


def test_seed_002_m10_vastwood_gorger_divisions(m10: Engine) -> None:
    """Seed 002 (``002_ef7de8f6fbf014a8.txt``, rules of January 2020), 510.1c
    of 2009-2024, first Vastwood Gorger example: "Vastwood Gorger can assign 3
    damage to the Guardian and 2 damage to the Elves, 4 damage to the
    Guardian and 1 damage to the Elves, or 5 damage to the Guardian." The
    Guardian needs 3 before the Elves get any: 0/5, 1/4 and 2/3 are refused."""
    state = _gorger(m10)

    def check(division: Division, out: Outcome) -> None:
        guardian, elves = division
        assert _dealt(out, "gorger") == {k: v for k, v in
                                         {"guardian": guardian, "elves": elves}.items() if v}
        assert out.state.objects["guardian"].zone == "graveyard"
        assert out.state.objects["elves"].zone == ("graveyard" if elves else "battlefield")

    assert _divide(m10, state, "gorger", "guardian", "elves", 5, check) == {
        (3, 2), (4, 1), (5, 0)}


def test_seed_002_m10_vastwood_gorger_giant_growth_all_five_to_the_guardian(
        m10: Engine) -> None:
    """Seed 002 (``002_ef7de8f6fbf014a8.txt``), 510.1c of 2009-2024, second
    Vastwood Gorger example: "the defending player casts Giant Growth
    targeting Pride Guardian, which gives it +3/+3 until end of turn.
    Vastwood Gorger must assign its 5 damage to the Guardian." The Guardian
    (3/6) needs 6, more than the Gorger's 5: 5/0 is the only legal division
    (3/2 and 4/1, legal before the Giant Growth, are refused)."""
    state = _gorger(m10, Pump("guardian", 3, 3))

    def check(division: Division, out: Outcome) -> None:
        assert _dealt(out, "gorger") == {"guardian": 5}
        assert out.state.objects["guardian"].zone == "battlefield"
        assert out.state.objects["guardian"].damage == 5
        assert out.state.objects["elves"].damage == 0

    assert _divide(m10, state, "gorger", "guardian", "elves", 5, check) == {(5, 0)}


def test_seed_002_m10_vastwood_gorger_mending_hands_same_divisions(m10: Engine) -> None:
    """Seed 002 (``002_ef7de8f6fbf014a8.txt``), 510.1c of 2009-2024, third
    Vastwood Gorger example: "the defending player casts Mending Hands
    targeting Pride Guardian, which prevents the next 4 damage that would be
    dealt to it. Vastwood Gorger can assign 3 damage to the Guardian and 2
    damage to the Elves, 4 damage to the Guardian and 1 damage to the Elves,
    or 5 damage to the Guardian." Lethal damage ignores the shield, so the
    legal set is the same as without it; the shield prevents up to 4 (615)."""
    state = _gorger(m10, Prevent(target="guardian", amount=4))
    check = _shielded("gorger", "guardian", "elves")
    assert _divide(m10, state, "gorger", "guardian", "elves", 5, check) == {
        (3, 2), (4, 1), (5, 0)}


# --- seed 001: Suntail Hawk and Mogg Fanatic ---------------------------------------


def _fanatic_board(engine: Engine) -> GameState:
    c = engine.creature
    return engine.game(["alice", "bob"], [
        c("hawk", "alice", 1, 1, "flying", name="Suntail Hawk"),
        c("piker", "alice", 2, 1, name="Goblin Piker"),
        c("fanatic", "bob", 1, 1, name="Mogg Fanatic")])


SACRIFICE = (DealDamage("fanatic", "hawk", 1), LeaveBattlefield("fanatic"))
ATTACKS = {"hawk": "bob", "piker": "bob"}


def test_seed_001_m10_mogg_fanatic_sacrificed_in_the_declare_blockers_step(
        m10: Engine) -> None:
    """Seed 001 (``001_9fcfe2babb9818ba.txt``, rules of July 2009), 510.2 of
    2009-2024: "Mogg Fanatic ... blocks the Goblin Piker. The defending
    player sacrifices Mogg Fanatic during the declare blockers step to deal 1
    damage to the Suntail Hawk. The Hawk is destroyed. The Piker deals and is
    dealt no combat damage this turn." (510.1c: a blocked creature no
    creature blocks any more assigns no combat damage.)"""
    result = m10.resolve(_fanatic_board(m10), ATTACKS, {"fanatic": "piker"},
                         actions=[("declare_blockers", a) for a in SACRIFICE])
    assert result.steps == ("beginning_of_combat", "declare_attackers", "declare_blockers",
                            "combat_damage", "end_of_combat")
    objects = result.state.objects
    assert (objects["hawk"].zone, objects["fanatic"].zone) == ("graveyard", "graveyard")
    assert (objects["piker"].zone, objects["piker"].damage) == ("battlefield", 0)
    assert [e for e in result.events if e.kind in ("assign", "damage") and e.combat] == []
    assert result.state.players["bob"].life == 20


def test_seed_001_m10_mogg_fanatic_left_on_the_battlefield(m10: Engine) -> None:
    """Seed 001 (``001_9fcfe2babb9818ba.txt``), 510.2 of 2009-2024: "If the
    defending player instead left Mogg Fanatic on the battlefield, the
    Fanatic and the Piker would have dealt lethal damage to one another, but
    the Suntail Hawk couldn't have been dealt damage." Combat damage is dealt
    as it is assigned, with no priority between (510.2): there is no window
    after assignment (unlike the ``sixth`` edition's), and once the damage is
    dealt the Fanatic is in the graveyard and can't be sacrificed."""
    result = m10.resolve(_fanatic_board(m10), ATTACKS, {"fanatic": "piker"})
    objects = result.state.objects
    assert (objects["piker"].zone, objects["fanatic"].zone) == ("graveyard", "graveyard")
    assert (objects["hawk"].zone, objects["hawk"].damage) == ("battlefield", 0)
    assert {(e.source, e.target, e.amount) for e in result.events
            if e.kind == "damage" and e.combat} == {
        ("hawk", "bob", 1), ("piker", "fanatic", 2), ("fanatic", "piker", 1)}
    assert result.state.players["bob"].life == 19
    assert "combat_damage_assigned" not in m10.step_names()
    with pytest.raises(IllegalActionError) as between:
        m10.resolve(_fanatic_board(m10), ATTACKS, {"fanatic": "piker"},
                    actions=[("combat_damage_assigned", a) for a in SACRIFICE])
    assert between.value.rule == "506.1"
    with pytest.raises(IllegalActionError, match="'fanatic' is not on the battlefield"):
        m10.resolve(_fanatic_board(m10), ATTACKS, {"fanatic": "piker"},
                    actions=[("combat_damage", LeaveBattlefield("fanatic"))])
