"""What a command is given has the shape it takes (117.1: a command is
refused as a whole; redzone's guarantee that bad input is a typed error
naming the problem and changes nothing).

A declaration, an order or an assignment that isn't a mapping, bands that
aren't a list of bands, or a state that isn't a :class:`~redzone.GameState`
is a :class:`~redzone.kernel.errors.BadQueryError` (an
:class:`~redzone.IllegalActionError`) naming the command and the argument,
before anything is read of it; what a well-shaped mapping holds stays the
rules' to check (508.1a, 509.1a, 510.1).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redzone import Engine, FrozenMap, GameState, IllegalAttackError
from redzone.kernel.errors import BadQueryError

ENGINE = Engine()


def _board() -> GameState:
    return ENGINE.game(["alice", "bob"], [ENGINE.creature("ogre", "alice", 3, 3),
                                          ENGINE.creature("wall", "bob", 0, 4)])


BOARD = _board()
ATTACKING = ENGINE.declare_attackers(BOARD, {"ogre": "bob"}).state
BLOCKING = ENGINE.declare_blockers(ATTACKING, {"wall": "ogre"}).state

#: Values that aren't mappings, as a caller might pass them by mistake.
NOT_MAPPINGS = st.one_of(st.lists(st.text(max_size=4), max_size=3),
                         st.tuples(st.text(max_size=4)), st.text(max_size=4),
                         st.integers(), st.sets(st.integers(), max_size=2))


def _refused(call: Any, *words: str) -> BadQueryError:
    with pytest.raises(BadQueryError) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return info.value


@given(NOT_MAPPINGS)
def test_117_1_attacks_that_are_not_a_mapping_are_refused_by_name(value: object) -> None:
    _refused(lambda: ENGINE.declare_attackers(BOARD, value), "declare_attackers", "attacks",
             type(value).__name__)
    assert _board() == BOARD  # the state given is as it was built


@given(NOT_MAPPINGS)
def test_117_1_blocks_and_orders_that_are_not_a_mapping_are_refused_by_name(
        value: object) -> None:
    _refused(lambda: ENGINE.declare_blockers(ATTACKING, value), "declare_blockers", "blocks")
    _refused(lambda: ENGINE.declare_blockers(ATTACKING, {"wall": "ogre"}, order=value),
             "declare_blockers", "order")


@given(NOT_MAPPINGS)
def test_117_1_an_assignment_that_is_not_a_mapping_is_refused_by_name(value: object) -> None:
    _refused(lambda: ENGINE.combat_damage(BLOCKING, assign=value), "combat_damage", "assign")


@pytest.mark.parametrize("bands", [5, "ogre", {"ogre": 1}, [5], ["ogre"], [{"ogre": 1}]])
def test_117_1_bands_that_are_not_a_list_of_bands_are_refused_by_name(bands: object) -> None:
    _refused(lambda: ENGINE.declare_attackers(BOARD, {"ogre": "bob"}, bands=bands),
             "declare_attackers", "bands")


@pytest.mark.parametrize("command", ["declare_attackers", "declare_blockers", "combat_damage"])
@pytest.mark.parametrize("state", [None, "a state", {"step": "main"}])
def test_117_1_a_state_that_is_not_a_game_state_is_refused_by_name(command: str,
                                                                    state: object) -> None:
    args: dict[str, tuple[Any, ...]] = {"declare_attackers": ({"ogre": "bob"},),
                                        "declare_blockers": ({"wall": "ogre"},),
                                        "combat_damage": ()}
    _refused(lambda: getattr(ENGINE, command)(state, *args[command]), command, "GameState")


def test_508_1a_what_a_well_shaped_declaration_holds_is_still_the_rules_to_check() -> None:
    # A mapping naming no creature is a declaration the rules refuse (508.1a),
    # not a malformed argument.
    with pytest.raises(IllegalAttackError) as info:
        ENGINE.declare_attackers(BOARD, {"nobody": "bob"})
    assert not isinstance(info.value, BadQueryError)
    assert info.value.violations[0].rule == "508.1a"


def test_the_shape_checks_accept_every_mapping_and_iterable_the_commands_took() -> None:
    # A FrozenMap declaration, a tuple of bands, a generator of no band, and
    # blocks by tuple still work.
    out = ENGINE.declare_attackers(BOARD, FrozenMap({"ogre": "bob"}), bands=(b for b in ()))
    assert out.state.combat is not None and dict(out.state.combat.attacks) == {"ogre": "bob"}
    again = ENGINE.declare_blockers(out.state, {"wall": ("ogre",)})
    assert again.state.combat is not None and dict(again.state.combat.blocks) == {
        "wall": ("ogre",)}
