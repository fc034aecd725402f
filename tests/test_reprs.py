"""Readable reprs (python-chess style): a ``repr`` says what a thing is in
one short line, ``str`` of a state is its board, ``str`` of an event its
one-line account with its rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine, Player, examples, new_game
from redzone.formats.outcome import resolve
from redzone.formats.scenario import load

ENGINE = Engine()


def board():
    e = ENGINE
    return new_game(["alice", "bob"], [
        e.creature("wurm", "alice", 6, 4, "trample", name="Craw Wurm"),
        e.creature("ape", "alice", 5, 5, name="Silverback Ape"),
        e.creature("wall", "bob", 0, 3, name="Wall of Wood", damage=1),
        e.creature("cadet", "bob", 1, 1, name="Eager Cadet"),
    ])


def test_permanent_repr_says_what_it_is() -> None:
    wurm = ENGINE.creature("wurm", "alice", 6, 4, "trample", name="Craw Wurm")
    assert repr(wurm) == "<Permanent wurm: Craw Wurm 6/4 trample, alice>"
    hurt = ENGINE.creature("wall", "bob", 0, 3, name="Wall of Wood", damage=1, tapped=True)
    assert repr(hurt) == "<Permanent wall: Wall of Wood 0/3, bob, 1 damage, tapped>"


def test_player_and_state_reprs_are_short() -> None:
    """The issue's figure: a 4-creature state's repr was 2,735 characters."""
    state = board()
    assert repr(Player("bob", life=14)) == "<Player bob: 14 life>"
    text = repr(state)
    assert text == "<GameState main, foundations: alice (active) 20, bob 20; 4 permanents>"
    assert len(text) < 100


def test_str_of_a_state_is_its_board() -> None:
    lines = str(board()).splitlines()
    assert lines[1] == "alice: 20 life"
    assert "  wurm: Craw Wurm 6/4 trample" in lines
    assert "  wall: Wall of Wood 0/3 (1 damage)" in lines


def test_combat_result_repr_and_event_str() -> None:
    """A combat result (the issue: 17,946 characters) says its steps, events
    and what changed; an event's str is its account with the rule (510.2)."""
    res = resolve(load(examples.path("trample-blocker")))
    assert res.result is not None
    text = repr(res.result)
    assert text.startswith("<CombatResult 5 steps, ") and "left the battlefield: ape" in text
    assert len(text) < 200
    damage = next(e for e in res.result.events if e.kind == "damage")
    assert str(damage) == (f"{damage.source} deals {damage.amount} combat damage to "
                           f"{damage.target} [{damage.rule}]")
    assert repr(damage).startswith("<Event damage in combat_damage: ")
    assert repr(res).startswith("<Resolution ") and "resolved" in repr(res)


def test_notebook_html_of_a_state() -> None:
    html = board()._repr_html_()
    assert html.startswith("<div class='redzone-state'>") and "Craw Wurm 6/4 trample" in html


@settings(max_examples=50, deadline=None)
@given(power=st.integers(0, 20), toughness=st.integers(1, 20), damage=st.integers(0, 5),
       name=st.text(min_size=1, max_size=30).filter(lambda s: "\n" not in s))
def test_reprs_are_one_line_and_evaluate_nothing(power: int, toughness: int, damage: int,
                                                 name: str) -> None:
    """Invariant: a permanent's repr is one line starting with its id and
    holding its name and P/T."""
    perm = ENGINE.creature("x", "alice", power, toughness, name=name, damage=damage)
    text = repr(perm)
    assert "\n" not in text and text.startswith("<Permanent x: ") and text.endswith(">")
    assert f"{name} {power}/{toughness}" in text
