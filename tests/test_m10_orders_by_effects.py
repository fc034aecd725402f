"""Damage assignment orders changed by effects under the 2009-2024 rules
(``m10``): 509.2-509.3 announce them for every creature blocking or blocked
when blockers are declared, creatures put onto the battlefield blocking
before then included; 509.2a-509.3a take a creature that left combat out of
every order; 509.6-509.7 place a creature an effect makes block (the active
player its place in the attacker's order, the defending player the
attacker's place in the blocker's) among the creatures still in it."""

from __future__ import annotations

import pytest
from redzone import (
    Engine,
    EnterBlocking,
    IllegalBlockError,
    MakeBlock,
    Move,
    Permanent,
    RemoveFromCombat,
)
from redzone.kernel.model import GameState

engine = Engine("m10")
c = engine.creature


def _token(pid: str) -> Permanent:
    return Permanent(id=pid, controller="bob", name=f"Saproling {pid}", base_power=1,
                     base_toughness=1, token=True)


def _attacked(*perms: Permanent) -> GameState:
    state = engine.game(["alice", "bob"], [c("wurm", "alice", 3, 9, name="Wurm"), *perms])
    return engine.declare_attackers(state, {"wurm": "bob"}).state


def _legal(state: GameState, assignment: dict[str, dict[str, int]]) -> bool:
    return not engine.assignment_violations(state, assignment)


def test_509_2a_509_6_a_creature_removed_then_made_to_block_again_is_in_each_order_once() -> None:
    """509.2a-509.3a, 509.6, 400.7: A leaves the battlefield (and combat, and
    the Wurm's order) and comes back, a new object; an effect makes it block
    the Wurm, placed first: the Wurm's order is A, B and A's is the Wurm
    alone, so the combat resolves and each deals its damage (510.1c-d). (A
    creature removed from combat and still there isn't made to block again:
    it has no further involvement in that combat, 506.4.)"""
    state = _attacked(c("a", "bob", 1, 2, name="A"), c("b", "bob", 1, 2, name="B"))
    state = engine.declare_blockers(state, {"a": "wurm", "b": "wurm"}, {"wurm": ["b", "a"]}).state
    state = engine.perform(state, [Move("a", "exile"), Move("a", "battlefield")]).state
    state = engine.perform(state, MakeBlock("a", "wurm", position=0)).state
    assert _legal(state, {"wurm": {"a": 2, "b": 1}})
    assert not _legal(state, {"wurm": {"b": 2, "a": 1}})  # A is first: lethal to it first
    out = engine.combat_damage(state)  # the default assignment is legal
    dealt = {(e.source, e.target): e.amount for e in out.events if e.kind == "damage"}
    assert dealt[("a", "wurm")] == 1 and sum(v for (s, _), v in dealt.items() if s == "wurm") == 3


def test_509_6_position_counts_only_the_creatures_still_blocking() -> None:
    """509.2a, 509.6: the order D, A, B loses A; the Elf made to block at
    position 2 is last of D, B, Elf, so D then B then the Elf get lethal
    damage in that order."""
    state = _attacked(c("d", "bob", 1, 2, name="D"), c("a", "bob", 1, 2, name="A"),
                      c("b", "bob", 1, 1, name="B"), c("elf", "bob", 1, 1, name="Elf"))
    state = engine.declare_blockers(state, {"d": "wurm", "a": "wurm", "b": "wurm"},
                                    {"wurm": ["d", "a", "b"]}).state
    state = engine.perform(state, RemoveFromCombat("a")).state
    state = engine.perform(state, MakeBlock("elf", "wurm", position=2)).state
    assert _legal(state, {"wurm": {"d": 2, "b": 1}})
    assert not _legal(state, {"wurm": {"d": 2, "elf": 1}})  # B comes before the Elf


def test_509_6_7_position_is_honoured_when_no_blocker_was_declared() -> None:
    """509.6, 509.7: nobody was declared blocking the Wurm; an effect makes
    the Elf block it, then a Saproling enters blocking it at position 0: the
    Saproling is first, whether or not some other creature blocks."""
    state = _attacked(c("elf", "bob", 1, 1, name="Elf"))
    state = engine.declare_blockers(state, {}).state
    state = engine.perform(state, MakeBlock("elf", "wurm")).state
    state = engine.perform(state, EnterBlocking(_token("sap"), "wurm", position=0)).state
    assert _legal(state, {"wurm": {"sap": 3}})
    assert not _legal(state, {"wurm": {"elf": 3}})


def test_509_6_the_defending_player_places_the_attacker_in_the_blockers_order() -> None:
    """509.6: the Giant blocks X; an effect makes it block Y too, and the
    defending player puts Y first in the Giant's order: the Giant may assign
    all its damage to Y, not to X alone first. Without a placement Y is last."""
    state = engine.game(["alice", "bob"], [c("x", "alice", 1, 3, name="X"),
                                           c("y", "alice", 1, 3, name="Y"),
                                           c("giant", "bob", 3, 4, name="Giant",
                                             can_block_additional=1)])
    state = engine.declare_attackers(state, {"x": "bob", "y": "bob"}).state
    state = engine.declare_blockers(state, {"giant": "x"}).state
    first = engine.perform(state, MakeBlock("giant", "y", attacker_position=0)).state
    assert _legal(first, {"giant": {"y": 3}})
    assert not _legal(first, {"giant": {"x": 3}})
    last = engine.perform(state, MakeBlock("giant", "y")).state
    assert _legal(last, {"giant": {"x": 3}}) and not _legal(last, {"giant": {"y": 3}})


def test_509_2_the_order_lists_creatures_that_entered_blocking_before_the_declaration() -> None:
    """509.2, 509.4, 509.7: a Saproling put onto the battlefield blocking
    the Wurm in the declare attackers step is one of the creatures blocking
    it when its order is announced: the order Elf, Saproling is legal and
    is the order the Wurm assigns in."""
    state = _attacked(c("elf", "bob", 1, 1, name="Elf"))
    state = engine.perform(state, EnterBlocking(_token("sap"), "wurm")).state
    state = engine.declare_blockers(state, {"elf": "wurm"}, {"wurm": ["elf", "sap"]}).state
    assert _legal(state, {"wurm": {"elf": 3}})
    assert not _legal(state, {"wurm": {"sap": 3}})
    with pytest.raises(IllegalBlockError) as info:  # both must be listed
        engine.declare_blockers(_blocked_before(), {"elf": "wurm"}, {"wurm": ["elf"]})
    assert info.value.violations[0].rule == "509.2"


def _blocked_before() -> GameState:
    state = _attacked(c("elf", "bob", 1, 1, name="Elf"))
    return engine.perform(state, EnterBlocking(_token("sap"), "wurm")).state


def test_509_2_an_attacker_blocked_only_before_the_declaration_gets_an_order() -> None:
    """509.2: two Saprolings entered blocking the Wurm and nobody is
    declared: the Wurm is a blocked attacker whose order the active player
    announces, either way round."""
    state = _attacked()
    for pid in ("s1", "s2"):
        state = engine.perform(state, EnterBlocking(_token(pid), "wurm")).state
    for order in (["s2", "s1"], ["s1", "s2"]):
        after = engine.declare_blockers(state, {}, {"wurm": order}).state
        assert _legal(after, {"wurm": {order[0]: 3}})
        assert not _legal(after, {"wurm": {order[1]: 3}})


def test_509_6_a_scenario_files_block_action_takes_attacker_position() -> None:
    """509.6 in a scenario file: `attacker_position = 0` puts Y first in the
    Giant's order, so the Giant's 3 damage may all go to Y (and X, 1/3,
    survives)."""
    from _outcomes import run

    out = run('rules = "m10"\nactive_player = "alice"\n[players.alice]\n[players.bob]\n'
              '[[permanents]]\nid = "x"\ncontroller = "alice"\npower = 1\ntoughness = 3\n'
              '[[permanents]]\nid = "y"\ncontroller = "alice"\npower = 1\ntoughness = 3\n'
              '[[permanents]]\nid = "giant"\ncontroller = "bob"\npower = 3\ntoughness = 4\n'
              'can_block_additional = 1\n'
              '[combat]\nattacks = { x = "bob", y = "bob" }\nblocks = { giant = ["x"] }\n'
              'assign = { giant = { y = 3 } }\n'
              '[[combat.actions]]\nafter = "declare_blockers"\ndo = "block"\n'
              'blocker = "giant"\nattacker = "y"\nattacker_position = 0\n')
    assert out["ok"], out.get("error")
    assert out["permanents"]["y"]["zone"] == "graveyard"
    assert out["permanents"]["x"]["zone"] == "battlefield"


def test_509_6_a_state_after_an_effect_made_a_block_resumes_with_the_files_declaration() -> None:
    """509.2a, 509.6: the file's declaration (A and B block the Wurm, in the
    order B, A) is what was declared; an effect then made the Elf block too,
    first in the order, and A left combat. Resolving the rest of the combat
    from that state with the file's declaration is accepted (the relative
    order of the declared creatures is unchanged), and a different order is
    refused."""
    from redzone import BadQueryError

    state = engine.game(["alice", "bob"], [c("w", "alice", 3, 9), c("a", "bob", 1, 2),
                                           c("b", "bob", 1, 2), c("elf", "bob", 1, 1)])
    state = engine.declare_attackers(state, {"w": "bob"}).state
    state = engine.declare_blockers(state, {"a": "w", "b": "w"}, {"w": ["b", "a"]}).state
    state = engine.perform(state, MakeBlock("elf", "w", position=0)).state
    state = engine.perform(state, RemoveFromCombat("a")).state
    done = engine.resolve(state, attacks={"w": "bob"}, blocks={"a": "w", "b": "w"},
                          order={"w": ["b", "a"]}).state
    assert done.objects["elf"].zone == "graveyard"  # first in the order: lethal first
    with pytest.raises(BadQueryError):
        engine.resolve(state, attacks={"w": "bob"}, blocks={"a": "w", "b": "w"},
                       order={"w": ["a", "b"]})


@pytest.mark.parametrize("field", ["position", "attacker_position"])
def test_509_6_a_negative_place_in_an_order_is_refused(field: str) -> None:
    """509.6: a place in a damage assignment order is 0 (first) or more: a
    negative one is an illegal action naming it, and the state is unchanged
    (a scenario file's schema refuses it too)."""
    from redzone import IllegalActionError

    state = _attacked(c("a", "bob", 1, 2, name="A"), c("elf", "bob", 1, 1, name="Elf"))
    state = engine.declare_blockers(state, {"a": "wurm"}).state
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, MakeBlock("elf", "wurm", **{field: -1}))
    assert field in str(info.value) and info.value.rule == "509.6"
