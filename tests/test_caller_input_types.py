"""What a caller hands the engine is checked field by field, and redzone's
own messages never fail on what they show (guarantees 7 and 13).

``Engine.game``, ``perform`` and ``state_from_dict`` refuse wrong-typed
fields, values that aren't the game's (107.1: the game's numbers are
integers), integers too long for Python to print and data nested past the
saved form's depth, each with a typed error naming the argument, the object
and the field, never a bare Python exception.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from redzone import (
    BadQueryError,
    CreateToken,
    Engine,
    EnterBlocking,
    GainLife,
    IllegalBlockError,
    MakeBlock,
    Permanent,
    Player,
    Pump,
)
from redzone.formats.serialize import MAX_DEPTH, StateFormatError, state_from_dict, state_to_dict
from redzone.kernel.answers import shown_number
from redzone.kernel.errors import RulesError

ENGINE = Engine()
HUGE = 10 ** 5000  # past Python's 4,300-digit limit on printing an int


def _two(*perms: Permanent) -> Any:
    return ENGINE.game(["alice", "bob"], list(perms))


# -- 1. Engine.game and perform check the fields they are given ------------------------


def test_game_refuses_a_fractional_power() -> None:
    """107.1: "The Magic game uses only integers": a creature given power
    1.5 is refused by ``Engine.game``, naming the permanent and the field,
    instead of dealing 1.5 damage and leaving a state that can't be saved."""
    with pytest.raises(BadQueryError) as info:
        _two(ENGINE.creature("ogre", "alice", 1.5, 1))  # type: ignore[arg-type]
    assert info.value.rule == "107.1"
    assert "permanents[0]" in info.value.message and "'ogre'" in info.value.message
    assert "base_power" in info.value.message and "1.5" in info.value.message


def test_game_refuses_a_power_given_as_text() -> None:
    """107.1: a power is an integer, not the text ``"3"`` (which failed as
    the creature attacked, with a bare ``TypeError``)."""
    with pytest.raises(BadQueryError) as info:
        _two(ENGINE.creature("ogre", "alice", "3", 1))  # type: ignore[arg-type]
    assert info.value.rule == "107.1" and "base_power" in info.value.message


def test_game_refuses_a_player_whose_life_is_text() -> None:
    """107.1 (and 119.1: a player's life total is a number): ``Player(life="20")``
    is refused, naming the player and the field."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game([Player("alice", life="20"), "bob"])  # type: ignore[arg-type]
    assert info.value.rule == "107.1"
    assert "players[0]" in info.value.message and "'alice'" in info.value.message
    assert "life" in info.value.message


def test_game_refuses_a_permanent_with_a_wrong_typed_flag() -> None:
    """117.1 as the action checks have it: a field of the wrong type (a
    ``tapped`` that is ``"yes"``) is refused naming the field."""
    with pytest.raises(BadQueryError) as info:
        _two(ENGINE.permanent("rock", "alice", tapped="yes"))
    assert "tapped" in info.value.message and "'rock'" in info.value.message


def test_game_refuses_an_active_player_who_is_not_a_player() -> None:
    """102.1 / 500.1: the active player is the player whose turn it is, a
    player of the game: ``active_player="carol"`` is refused naming it."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game(["alice", "bob"], active_player="carol")
    assert "active_player" in info.value.message and "'carol'" in info.value.message


def test_game_refuses_a_turn_order_missing_a_player() -> None:
    """101.4 / 103.1: the turn order names every player of the game once:
    ``turn_order=["bob"]`` is refused naming the argument."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game(["alice", "bob"], turn_order=["bob"])
    assert "turn_order" in info.value.message and "'alice'" in info.value.message


def test_game_refuses_no_players() -> None:
    """102.1: a game has players: ``game([])`` is refused naming ``players``
    (it was a bare ``IndexError``)."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game([])
    assert "players" in info.value.message


def test_game_refuses_an_effect_that_is_not_an_effect() -> None:
    """611.1: a game-wide continuous effect is an ``Effect``; ``effects=["x"]``
    is refused naming ``effects[0]``."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game(["alice", "bob"], effects=["x"])
    assert "effects[0]" in info.value.message


def test_game_refuses_a_permanent_sharing_a_players_id() -> None:
    """Every id names one thing: a permanent whose id is a player's (``bob``)
    is refused naming the id."""
    with pytest.raises(BadQueryError) as info:
        _two(ENGINE.creature("bob", "alice", 1, 1))
    assert "'bob'" in info.value.message and "id" in info.value.message


def test_game_refuses_two_permanents_with_one_id() -> None:
    """Every id names one thing: two permanents ``x`` are refused naming it."""
    with pytest.raises(BadQueryError) as info:
        _two(ENGINE.creature("x", "alice", 1, 1), ENGINE.creature("x", "bob", 1, 1))
    assert "'x'" in info.value.message


def test_create_token_refuses_a_fractional_power() -> None:
    """107.1: a token's power is an integer: ``CreateToken`` of a permanent
    with power 1.5 is refused by ``perform`` naming the field, and the
    state is unchanged (it was accepted, leaving a state that can't be saved)."""
    base = _two()
    token = Permanent("tok", "alice", name="tok",
                      base_power=1.5, base_toughness=1)  # type: ignore[arg-type]
    with pytest.raises(BadQueryError) as info:
        ENGINE.perform(base, CreateToken(token))
    assert info.value.rule == "107.1"
    assert "CreateToken.token" in info.value.message and "base_power" in info.value.message
    assert state_to_dict(base) == state_to_dict(_two())


# -- 2. numbers too long to print -----------------------------------------------------


def test_shown_number_past_python_s_limit() -> None:
    """107.1: numbers are integers, of any size a caller gives: a message
    shows a long one by its count of digits, a short one as it is."""
    assert shown_number(HUGE) == "a number of 5,001 digits"
    assert shown_number(-HUGE) == "a negative number of 5,001 digits"
    assert shown_number(1_234_567) == "1,234,567"
    assert shown_number(-5, grouped=False) == "-5"


def test_game_refuses_a_life_total_too_long_to_print() -> None:
    """119 / 107.1: a life total past the saved form's bounds is refused
    naming its key path, even one too long for Python to print."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.game([Player("alice", life=HUGE), "bob"])
    assert "players.alice.life" in info.value.message
    assert "5,001 digits" in info.value.message


@pytest.mark.parametrize("act", [Pump("x", HUGE, HUGE), GainLife("alice", HUGE)])
def test_perform_refuses_an_amount_too_long_to_print(act: Any) -> None:
    """107.1: an action's number is a whole number within ±1,000,000; one
    too long to print is refused, its message saying how long it is."""
    s = _two(ENGINE.creature("x", "alice", 2, 2))
    with pytest.raises(BadQueryError) as info:
        ENGINE.perform(s, act)
    assert "5,001 digits" in info.value.message


def test_assignment_violations_of_an_amount_too_long_to_print() -> None:
    """510.1a: a creature assigns combat damage equal to its power: an
    assignment of a number too long to print is a violation of 510.1a whose
    message says how long it is."""
    s = _two(ENGINE.creature("x", "alice", 2, 2), ENGINE.creature("y", "bob", 2, 2))
    s = ENGINE.declare_attackers(ENGINE.begin_combat(s).state, {"x": "bob"}).state
    s = ENGINE.declare_blockers(s, {"y": "x"}).state
    found = ENGINE.assignment_violations(s, {"x": {"y": HUGE}})
    assert [v.rule for v in found] == ["510.1a"]
    assert "5,001 digits" in found[0].message


def test_resolve_past_a_bound_by_a_number_too_long_to_print() -> None:
    """119.3 / 107.1: combat damage of a saved creature with a huge power
    takes a life total past the state's bounds: a ``RulesError`` naming the
    key path, not a bare ``ValueError`` from printing the life total."""
    d = state_to_dict(_two(ENGINE.creature("x", "alice", 2, 2)))
    d["objects"]["x"]["base_power"] = HUGE
    with pytest.raises(RulesError) as info:
        ENGINE.resolve(state_from_dict(d), {"x": "bob"})
    assert "players.bob.life" in str(info.value) and "digits" in str(info.value)


def test_state_from_dict_life_too_long_to_print() -> None:
    """119 / 107.1: a saved life total out of bounds is a ``StateFormatError``
    naming its key path, even one too long to print."""
    d = state_to_dict(_two())
    d["players"]["bob"]["life"] = HUGE
    with pytest.raises(StateFormatError) as info:
        state_from_dict(d)
    assert info.value.path == "players.bob.life"
    assert "5,001 digits" in str(info.value)


def test_state_from_dict_refuses_format_true() -> None:
    """Guarantee 7: a saved state names its format, the integer 1; ``true``
    (which Python takes as equal to 1) is a ``StateFormatError`` at ``format``."""
    d = state_to_dict(_two())
    d["format"] = True
    with pytest.raises(StateFormatError) as info:
        state_from_dict(d)
    assert info.value.path == "format"


# -- 3. nesting past the saved form's depth ---------------------------------------------


def test_state_from_dict_refuses_data_nested_too_deep() -> None:
    """Guarantee 7: ``state_from_dict`` refuses what isn't a state with a
    ``StateFormatError`` naming the key path: plugin state nested 500 lists
    deep (which JSON reads) is refused naming the path and the bound."""
    text = json.dumps(state_to_dict(_two()))
    nested = "[" * 500 + "]" * 500
    text = text.replace('"plugin_state": {}', '"plugin_state": {"flying": {"value": '
                        + nested + ', "scope": "game"}}', 1)
    with pytest.raises(StateFormatError) as info:
        state_from_dict(json.loads(text))
    assert info.value.path.startswith("plugin_state.flying.value[0]")
    assert f"{MAX_DEPTH}" in str(info.value)


def test_state_from_dict_refuses_actions_nested_too_deep() -> None:
    """Guarantee 7, for actions inside actions (a trigger's actions, each
    a mapping with ``do``): nesting past the bound is a ``StateFormatError``,
    not a ``RecursionError``."""
    d = state_to_dict(_two())
    inner: dict[str, Any] = {"do": "gain_life", "player": "alice", "amount": 1}
    for _ in range(400):
        inner = {"do": "gain_life", "player": "alice", "amount": 1, "x": [inner]}
    d["plugin_state"] = {"p": {"value": {"a": inner}, "scope": "game"}}
    with pytest.raises(StateFormatError) as info:
        state_from_dict(d)
    assert "deep" in str(info.value)


# -- 4. odd arguments -------------------------------------------------------------------


def test_remove_trigger_refuses_an_id_that_is_not_a_str() -> None:
    """405.1 (the stack's objects, named by id): ``remove_trigger`` given a
    list is a ``BadQueryError`` naming the argument, not ``unhashable type``."""
    with pytest.raises(BadQueryError) as info:
        ENGINE.remove_trigger(_two(), ["t1"])  # type: ignore[arg-type]
    assert "trigger_id" in info.value.message


@pytest.mark.parametrize("value", [[], 0, (), set(), "", False])
@pytest.mark.parametrize("command", ["begin_combat", "check_state_based_actions"])
def test_commands_refuse_falsy_choices_that_are_not_mappings(command: str, value: Any) -> None:
    """601.2: answers to choices are a mapping of keys to answers; an empty
    list (or 0, an empty tuple or set) isn't one, and every command refuses
    it as ``resolve`` does."""
    with pytest.raises(BadQueryError) as info:
        getattr(ENGINE, command)(_two(), choices=value)
    assert info.value.rule == "601.2" and "choices" in info.value.message


def test_perform_refuses_falsy_choices_that_are_not_mappings() -> None:
    """601.2, for ``perform``: ``choices=[]`` is refused."""
    s = _two(ENGINE.creature("x", "alice", 2, 2))
    with pytest.raises(BadQueryError):
        ENGINE.perform(s, Pump("x", 1, 1), choices=[])  # type: ignore[arg-type]


# -- 5-6. damage assignment orders (2009-2024) ------------------------------------------

M10 = Engine("m10")


def _m10_blocked() -> tuple[Any, Any]:
    c = M10.creature
    s0 = M10.game(["alice", "bob"], [c("w", "alice", 4, 9), c("a", "bob", 2, 2),
                                     c("b", "bob", 2, 2)])
    return s0, M10.declare_attackers(s0, {"w": "bob"}).state


@pytest.mark.parametrize("order", [{"w": None}, {"w": ["a", None]}, {"w": [1, 2]}, {"w": 5}])
def test_m10_order_with_a_bad_entry_is_an_illegal_block(order: Any) -> None:
    """509.2 (2009-2024): the attacking player orders the creatures blocking
    each attacker; an order holding what isn't one of them (``None``, a
    number) is refused as an order listing the wrong creatures is, by
    ``declare_blockers``, ``resolve`` (from the start and resumed) and
    ``choices_for``."""
    s0, s = _m10_blocked()
    blocks = {"a": "w", "b": "w"}
    resumed = M10.declare_blockers(s, blocks).state
    for call in (lambda: M10.declare_blockers(s, blocks, order),
                 lambda: M10.resolve(s0, {"w": "bob"}, blocks, order=order),
                 lambda: M10.resolve(resumed, {"w": "bob"}, blocks, order=order),
                 lambda: M10.choices_for(s, "declare_blockers", blocks, order)):
        with pytest.raises(IllegalBlockError) as info:
            call()
        assert info.value.rule == "509.2"


def test_m10_enter_blocking_position_cites_509_7() -> None:
    """509.7 (2009-2024): a creature put onto the battlefield blocking is
    placed in the attacker's damage assignment order by the attacking
    player; a position -1 is refused citing 509.7 (not 509.6, a creature an
    effect makes block)."""
    _, s = _m10_blocked()
    s = M10.declare_blockers(s, {"b": "w"}).state
    sap = Permanent(id="sap", controller="bob", name="Sap", base_power=1, base_toughness=1)
    with pytest.raises(BadQueryError) as info:
        M10.perform(s, EnterBlocking(sap, "w", position=-1))
    assert info.value.rule == "509.7"


def test_m10_make_block_position_cites_509_6() -> None:
    """509.6 (2009-2024): a creature an effect makes block is placed in the
    attacker's damage assignment order by the active player; a position -1
    is refused citing 509.6."""
    _, s = _m10_blocked()
    s = M10.declare_blockers(s, {"b": "w"}).state
    with pytest.raises(BadQueryError) as info:
        M10.perform(s, MakeBlock("a", "w", position=-1))
    assert info.value.rule == "509.6"


def test_position_under_rules_without_orders_cites_the_blocks_rule() -> None:
    """Today's rules have no damage assignment orders (509: a blocked
    creature's damage is divided as its controller chooses, 510.1c), so a
    position is ignored; -1 is still no place, refused citing a rule of
    today's edition: 509.4 for a creature put onto the battlefield blocking,
    509.3b for one an effect makes block (not 509.6, which today's rules
    don't have)."""
    c = ENGINE.creature
    s = ENGINE.game(["alice", "bob"], [c("w", "alice", 4, 9), c("a", "bob", 2, 2),
                                       c("b", "bob", 2, 2)])
    s = ENGINE.declare_attackers(s, {"w": "bob"}).state
    s = ENGINE.declare_blockers(s, {"b": "w"}).state
    sap = Permanent(id="sap", controller="bob", name="Sap", base_power=1, base_toughness=1)
    for act, rule in ((EnterBlocking(sap, "w", position=-1), "509.4"),
                      (MakeBlock("a", "w", position=-1), "509.3b")):
        with pytest.raises(BadQueryError) as info:
            ENGINE.perform(s, act)
        assert info.value.rule == rule and "no damage assignment orders" in info.value.message


def test_117_1_engine_permanent_names_a_bad_keywords_argument_or_an_unknown_one() -> None:
    """``Engine.permanent`` is a builder of caller input: ``keywords=None``
    or a lone string, and an argument that is no field of a permanent, are
    a ``BadQueryError`` naming it, not a bare ``TypeError``."""
    eng = Engine()
    with pytest.raises(BadQueryError, match="keywords is a NoneType"):
        eng.permanent("ogre", "alice", keywords=None)
    with pytest.raises(BadQueryError, match="keywords is a str 'flying'"):
        eng.permanent("ogre", "alice", keywords="flying")
    with pytest.raises(BadQueryError, match="no argument 'powr'"):
        eng.permanent("ogre", "alice", powr=3)
    assert eng.permanent("ogre", "alice", power=3, toughness=3,
                         keywords=["flying"]).keywords[0].name == "flying"


@pytest.mark.parametrize("value", ["no", 1, None])
def test_resolve_names_a_first_turn_that_isnt_a_bool(value: object) -> None:
    """``first_turn`` says whether the state is the game's first turn at its
    start (103.8a): ``"no"`` was read as False without a word."""
    eng = Engine()
    state = eng.game(["alice", "bob"], [eng.creature("bear", "alice", 2, 2)])
    with pytest.raises(BadQueryError, match="first_turn"):
        eng.resolve(state, {"bear": "bob"}, first_turn=value)  # type: ignore[arg-type]
