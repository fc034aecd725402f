"""What a user or a plugin hands the model and a command's tools is checked.

A collection of ids or names given as one ``str`` (a blocker blocking
``"Bear"``, a team ``"alice"``) is refused with a :class:`TypeError` naming the
class, the field (and the key), as every other collection field of the model
is (``frozen.not_a_collection``), instead of being read as its letters; a
list is taken as a tuple. A value a plugin hands :meth:`Tx.add_effect`,
:meth:`Tx.add_shield`, :meth:`Tx.add_delayed`, :meth:`Tx.choose` or
:meth:`Tx.deal_damage` is checked as :meth:`Tx.put`'s are: a mistyped field
fails the command with a :class:`~redzone.PluginError` naming the plugin,
the tool and the field, the caller's state unchanged, instead of a bare
``TypeError`` later or a state that can't be saved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from attrs import frozen
from redzone import (
    Action,
    ActionSpec,
    AddContinuous,
    Choice,
    Combat,
    ContinuousEffect,
    Damage,
    DelayedTrigger,
    Effect,
    Engine,
    GameState,
    Keyword,
    Modification,
    PluginError,
    Printed,
    Shield,
    Tx,
    new_game,
)
from redzone.formats.serialize import state_from_dict, state_to_dict
from redzone.testing import plugin_module

# ---------------------------------------------------------------------------
# The model: a str is not a collection of ids or names
# ---------------------------------------------------------------------------


def test_509_1g_a_blocker_blocks_a_collection_of_attackers() -> None:
    """509.1g: "Each one is blocking the attacking creatures chosen for it":
    ``Combat.blocks`` maps a blocker to a collection of attackers. The str
    ``"Bear"`` is refused naming the field and the blocker (not read as the
    attackers B, e, a, r), built or evolved; a list becomes a tuple."""
    assert Combat(blocks={"wall": ["bear"]}).blocks["wall"] == ("bear",)
    with pytest.raises(TypeError, match=r"Combat: blocks\['wall'\] is the str 'Bear'.*pass "
                                        r"a list or tuple"):
        Combat(blocks={"wall": "Bear"})
    with pytest.raises(TypeError, match=r"Combat: blocks\['wall'\] is the str 'Bear'"):
        Combat().evolve(blocks={"wall": "Bear"})


def test_509_2_a_damage_assignment_order_is_a_collection_of_creatures() -> None:
    """509.2 (2009-2024): an attacker's damage assignment order "consists of
    the creatures blocking it in an order": ``Combat.order`` maps a creature
    to a collection. ``{"bear": "wall"}`` is refused naming the field and
    the creature; a list becomes a tuple."""
    assert Combat(order={"bear": ["wall", "cub"]}).order["bear"] == ("wall", "cub")
    with pytest.raises(TypeError, match=r"Combat: order\['bear'\] is the str 'wall'.*pass "
                                        r"a list or tuple"):
        Combat(order={"bear": "wall"})


def test_510_4_a_damage_step_records_a_collection_of_creatures() -> None:
    """510.4: "the only creatures that assign combat damage in that step are
    those with first strike or double strike": ``Combat.damage_steps`` maps
    a step to the set of creatures that dealt damage in it. The str
    ``"knight"`` is refused naming the field and the step (not the
    creatures k, n, i ...); a list becomes a frozenset."""
    steps = Combat(damage_steps={"first_strike_damage": ["knight"]}).damage_steps
    assert steps["first_strike_damage"] == frozenset({"knight"})
    with pytest.raises(TypeError, match=r"Combat: damage_steps\['first_strike_damage'\] is "
                                        r"the str 'knight'.*pass a list or tuple"):
        Combat(damage_steps={"first_strike_damage": "knight"})


def test_702_22c_each_band_is_a_collection_of_attackers() -> None:
    """702.22c: a player may declare "as many attacking bands as they want,
    but each creature may be a member of only one of them": ``Combat.bands``
    is a collection of bands, each a collection of creatures. ``("k1",
    "k2")`` is refused naming the band's place (not the bands k, 1 and k,
    2); lists become tuples."""
    assert Combat(bands=[["k1", "k2"]]).bands == (("k1", "k2"),)
    with pytest.raises(TypeError, match=r"Combat: bands\[0\] is the str 'k1'.*pass a list "
                                        r"or tuple"):
        Combat(bands=("k1", "k2"))
    with pytest.raises(TypeError, match=r"Combat: bands\[1\] is the str 'k3'"):
        Combat().evolve(bands=(("k1", "k2"), "k3"))


def _players() -> dict[str, Any]:
    state = new_game(["alice", "bob", "carol", "dave"])
    return {"players": state.players, "turn_order": state.turn_order, "active_player": "alice"}


def test_810_1_a_team_is_a_collection_of_players() -> None:
    """810.1: "Two-Headed Giant games are played with two teams of two
    players each": ``GameState.teams`` maps a team to a collection of
    players. ``{"t1": "alice"}`` is refused naming the field and the team
    (not the players a, l, i, c, e), built or evolved, and by
    :func:`~redzone.new_game`; a list becomes a tuple."""
    state = GameState(**_players(), teams={"t1": ["alice", "bob"]})
    assert state.teams["t1"] == ("alice", "bob")
    with pytest.raises(TypeError, match=r"GameState: teams\['t1'\] is the str 'alice'.*pass "
                                        r"a list or tuple"):
        GameState(**_players(), teams={"t1": "alice"})
    with pytest.raises(TypeError, match=r"GameState: teams\['t1'\] is the str 'alice'"):
        state.evolve(teams={"t1": "alice"})
    with pytest.raises(TypeError, match=r"new_game: teams\['t1'\] is the str 'alice'.*pass "
                                        r"a list or tuple"):
        new_game(["alice", "bob"], teams={"t1": "alice"})


@pytest.mark.parametrize(("argument", "given"), [
    ("players", {"players": "ab"}), ("turn_order", {"turn_order": "ba"}),
    ("permanents", {"permanents": "bear"}), ("effects", {"effects": "fog"}),
])
def test_102_1_new_game_refuses_a_str_for_its_players_or_turn_order(
        argument: str, given: dict[str, Any]) -> None:
    """102.1 (the players are the people in the game; the turn order names
    each of them): :func:`~redzone.new_game` takes collections of players,
    of permanents and of effects, and a turn order: the str ``"ab"`` is
    refused naming the argument, not read as the players a and b (nor
    ``"ba"`` as the turn order b, a); a list is taken."""
    args: dict[str, Any] = {"players": ["a", "b"], **given}
    with pytest.raises(TypeError, match=rf"new_game: {argument} is the str .*pass a list or "
                                        r"tuple"):
        new_game(**args)
    assert new_game(["a", "b"], turn_order=["b", "a"]).turn_order == ("b", "a")


@pytest.mark.parametrize("kind", [ContinuousEffect, AddContinuous])
@pytest.mark.parametrize(("field", "value"), [
    ("set_types", "artifact"), ("set_subtypes", "Mountain"), ("set_colors", "red"),
])
def test_613_1_an_effect_sets_a_collection_of_types_subtypes_or_colors(
        field: str, value: str, kind: type[Any]) -> None:
    """613.1d-e (205.1a, 105.2): an effect that sets a permanent's card
    types, subtypes or colors sets a collection of them: ``set_colors="red"``
    is refused naming the field (not the colors r, e, d, which the layer
    system would then refuse as no colors), as the state's effect and as the
    action that starts one (``AddContinuous``); ``None`` is no such effect
    and a list becomes a tuple."""
    target: dict[str, Any] = {"affects": ["bear"]} if kind is AddContinuous else {}
    listed: dict[str, Any] = {field: [value], **target}
    assert getattr(kind(**listed), field) == (value,)
    assert getattr(kind(**target), field) is None
    bare: dict[str, Any] = {field: value, **target}
    with pytest.raises(TypeError, match=rf"{kind.__name__}: {field} is the str {value!r}.*"
                                        r"pass a list or tuple"):
        kind(**bare)


@pytest.mark.parametrize(("field", "value"), [
    ("types", "creature"), ("subtypes", "Bear"), ("supertypes", "legendary"),
    ("colors", "green"), ("printed_keywords", "reach"),
])
def test_707_2_printed_characteristics_are_collections(field: str, value: str) -> None:
    """707.2 (205.1a, 105.2): a permanent's copiable values are its card's
    characteristics, its types, subtypes, supertypes, colors and abilities
    each a collection; a :class:`~redzone.Printed` given one str for one is
    refused naming the field, as a :class:`~redzone.Permanent` is."""
    fields: dict[str, Any] = {"name": "Bear", "types": ["creature"], "subtypes": ["Bear"],
                              "supertypes": [], "colors": ["green"], "base_power": 2,
                              "base_toughness": 2, "printed_keywords": ["reach"]}
    printed = Printed(**fields)
    assert (printed.types, printed.subtypes, printed.printed_keywords) == (
        frozenset({"creature"}), ("Bear",), (Keyword("reach"),))
    with pytest.raises(TypeError, match=rf"Printed: {field} is the str {value!r}.*pass a "
                                        r"list or tuple"):
        Printed(**{**fields, field: value})


# ---------------------------------------------------------------------------
# A command's tools: what a plugin hands them is checked
# ---------------------------------------------------------------------------


@frozen
class Hand(Action):
    """A test action kind: its perform function hands a tool the value
    :data:`CASES` builds for ``case`` (the mistyped one when ``bad``)."""

    do: ClassVar[str] = "hand"
    case: str
    bad: bool


def _pick(bad: bool, mistyped: object, typed: object) -> Any:
    """``mistyped`` when ``bad``, else ``typed``."""
    return mistyped if bad else typed


#: For each case: the tool, and what a plugin hands it, well typed and
#: mistyped (a str where a whole number belongs, a tuple where an id or a
#: duration's name belongs, what isn't the tool's value at all).
CASES: dict[str, tuple[str, Callable[[bool], Any]]] = {
    "shield": ("add_shield", lambda bad: Shield("", to="bear", amount=_pick(bad, "2", 2))),
    "effect": ("add_effect", lambda bad: Effect("reduce_damage", to="bear",
                                                amount=_pick(bad, "2", 2))),
    "duration": ("add_effect", lambda bad: Effect("reduce_damage", to="bear", amount=1,
                                                  duration=_pick(bad, ("game",), "game"))),
    "delayed": ("add_delayed", lambda bad: DelayedTrigger("end_step", "reminder", "bear",
                                                          _pick(bad, ("bob",), "bob"))),
    "choice": ("choose", lambda bad: Choice("mode", "bob", "option", ("a", "b"),
                                            default=("a",), max=_pick(bad, "2", 2))),
    "damage": ("deal_damage", lambda bad: [Damage("bear", "alice", _pick(bad, "2", 2))]),
    "a dict": ("add_shield", lambda bad: _pick(bad, {"to": "bear", "amount": 2},
                                               Shield("", to="bear", amount=2))),
    "one damage": ("deal_damage", lambda bad: _pick(bad, Damage("bear", "alice", 2),
                                                    [Damage("bear", "alice", 2)])),
}


def _hand(tx: Tx, action: Action) -> None:
    assert isinstance(action, Hand)
    tool, value = CASES[action.case]
    getattr(tx, tool)(value(action.bad))


def _engine() -> tuple[Engine, GameState]:
    hand = plugin_module("hand", redzone_actions=lambda: [ActionSpec(Hand, _hand, "117.1")])
    engine = Engine(discover=False, plugins=[hand])
    return engine, engine.game(["alice", "bob"], [engine.creature("bear", "bob", 2, 2)])


@pytest.mark.parametrize(("case", "named"), [
    ("shield", "add_shield: the shield: amount is '2' (str)"),
    ("effect", "add_effect: the effect: amount is '2' (str)"),
    ("duration", "add_effect: the effect: duration is ('game',) (tuple)"),
    ("delayed", "add_delayed: the delayed trigger: controller is ('bob',) (tuple)"),
    ("choice", "choose: the choice: max is '2' (str)"),
    ("damage", "deal_damage: the damage: amount is '2' (str)"),
    ("a dict", "add_shield: the shield: is dict, not a Shield"),
    ("one damage", "deal_damage: a Damage, where a list or tuple of Damage belongs"),
])
def test_a_plugins_mistyped_value_to_a_tool_is_a_plugin_error(case: str, named: str) -> None:
    """615.7 (a shield prevents the next N damage), 611.2 (a continuous
    effect and its duration), 603.7a (a delayed trigger and its
    controller), 608.2d (a choice between its bounds), 120.1 (damage dealt:
    amounts, in a batch): each is a value of a declared type. A plugin's
    action handing one to its tool with a mistyped field, or handing it
    what isn't such a value, fails the command with a PluginError naming
    the plugin, the tool and the field, the caller's state unchanged (not a
    bare TypeError as damage is prevented or the choice is checked, nor a
    state that can't be saved); the same value well typed is taken, and the
    state round-trips."""
    engine, state = _engine()
    out = engine.perform(state, Hand(case, False))
    assert state_from_dict(state_to_dict(out.state)) == out.state
    before = state_to_dict(state)
    with pytest.raises(PluginError) as info:
        engine.perform(state, Hand(case, True))
    assert info.value.plugin == "hand"
    assert named in str(info.value)
    assert state_to_dict(state) == before


@pytest.mark.parametrize(("change", "named"), [
    ({"tapped": "no"}, "tapped is 'no' (str), where a bool was expected"),
    ({"base_power": "2"}, "base_power is '2' (str), where"),
    ({"damage": 10 ** 7}, "damage is 10000000 (int), where a whole number within"),
    ({"modifications": (Modification(power=1), Modification(power="2"))},  # type: ignore[arg-type]
     "modifications[1].power is '2' (str), where a whole number within"),
])
def test_107_1_117_1_a_mistyped_field_is_named_by_its_path(change: dict[str, Any],
                                                           named: str) -> None:
    """107.1, 117.1: the check of what a plugin puts names the first field
    whose value doesn't fit its annotation, by its path, inside the model's
    values a field holds too (the second modification of a tuple of them);
    a permanent whose fields all fit passes."""
    from redzone.kernel import validate

    bear = Engine(discover=False).creature("bear", "alice", 2, 2)
    assert validate.misfit(bear) is None
    problem = validate.misfit(bear.evolve(**change))
    assert problem is not None and problem.startswith(named), problem
