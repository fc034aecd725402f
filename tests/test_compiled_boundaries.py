"""The compiled build (docs/performance.md, "Compiled build").

A build made with ``REDZONE_COMPILE=1`` compiles the kernel modules listed in
:data:`redzone.compilation.MODULES` with mypyc; any other build is pure. The
run says which build it tests: with ``REDZONE_COMPILE=1`` set, every listed
module must have been imported from its extension module (so that a source
tree shadowing the install fails here); without it, none may be.

Compiled code checks the types a function is annotated with, and raises a
bare ``TypeError`` where they don't hold. Where a compiled function receives
a caller's value before redzone has checked it, it reads it as ``object``;
the hostile inputs below go through the public API into those functions and
must raise redzone's typed error, the same pure and compiled (guarantee:
bad input gets a typed error naming the problem, and changes nothing).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest
import redzone
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Engine,
    GameState,
    IllegalActionError,
    IllegalAssignmentError,
    IllegalAttackError,
    IllegalBlockError,
    UnknownObjectError,
)
from redzone.compilation import MODULES

ROOT = Path(__file__).resolve().parent.parent

#: Values that are not object ids (a str), hashable so that they can be keys.
NOT_IDS = st.one_of(st.integers(), st.floats(allow_nan=False), st.none(), st.booleans(),
                    st.binary(max_size=3), st.tuples(st.text(max_size=3)))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


@pytest.fixture(scope="module")
def board(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [
        engine.creature("a0", "alice", 3, 3), engine.creature("a1", "alice", 2, 2),
        engine.creature("b0", "bob", 2, 2), engine.creature("b1", "bob", 1, 1)])


@pytest.fixture(scope="module")
def attacked(engine: Engine, board: GameState) -> GameState:
    return engine.declare_attackers(board, {"a0": "bob", "a1": "bob"}).state


@pytest.fixture(scope="module")
def blocked(engine: Engine, attacked: GameState) -> GameState:
    return engine.declare_blockers(attacked, {"b0": "a0", "b1": "a0"}).state


# -- the build ---------------------------------------------------------------------


def test_the_install_runs_compiled_exactly_when_built_so() -> None:
    """A compiled build runs every listed module from its extension module,
    and a pure one none (``redzone.compiled()`` says which); the run names
    the build it tests with ``REDZONE_COMPILE``."""
    if os.environ.get("REDZONE_COMPILE") == "1":
        assert redzone.compiled() == frozenset(MODULES)
        for name in MODULES:
            module = importlib.import_module(name)
            assert str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES)), (
                f"{name} was imported from {module.__file__}, not its extension module: "
                "is the source tree shadowing the compiled install?")
    else:
        assert redzone.compiled() == frozenset(), (
            "this install is compiled: run its tests with REDZONE_COMPILE=1")


def test_the_listed_modules_exist_and_hold_no_hooks_or_attrs_classes() -> None:
    """What is compiled is kernel code only: each listed module exists, and
    none is a module of hook specifications, hook implementations or attrs
    classes with converters, which stay pure (the issue's rule)."""
    assert MODULES and len(set(MODULES)) == len(MODULES)
    pure = {"redzone.kernel.hookspecs", "redzone.kernel.hooktypes", "redzone.kernel.model",
            "redzone.kernel.tx", "redzone.kernel.frozen", "redzone.kernel._calling",
            "redzone.kernel.plugins", "redzone.kernel.actions", "redzone.kernel.effects",
            "redzone.kernel.restrictions"}
    assert not pure & set(MODULES)
    for name in MODULES:
        assert name.startswith("redzone.kernel.") and importlib.util.find_spec(name), name


def _build_hook() -> types.ModuleType:
    """``hatch_build.py``, loaded as the build loads it (hatchling's hook
    interface stood in for when hatchling isn't installed)."""
    path = ROOT / "hatch_build.py"
    if importlib.util.find_spec("hatchling") is None:
        names = ["hatchling", "hatchling.builders", "hatchling.builders.hooks",
                 "hatchling.builders.hooks.plugin", "hatchling.builders.hooks.plugin.interface"]
        for name in names:
            sys.modules.setdefault(name, types.ModuleType(name))
        sys.modules[names[-1]].BuildHookInterface = type(  # type: ignore[attr-defined]
            "BuildHookInterface", (), {})
    spec = importlib.util.spec_from_file_location("redzone_hatch_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_reads_the_one_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build hook compiles exactly ``redzone.compilation.MODULES`` (read
    from the file, without importing redzone), and only when asked with
    ``REDZONE_COMPILE=1``; any other value is an error, not a pure build."""
    hook = _build_hook()
    assert hook.compiled_modules(ROOT) == MODULES
    for value, compiles in (("1", True), ("0", False), ("", False)):
        monkeypatch.setenv("REDZONE_COMPILE", value)
        assert hook.wants_compiled() is compiles
    monkeypatch.setenv("REDZONE_COMPILE", "yes")
    with pytest.raises(RuntimeError, match="REDZONE_COMPILE must be 1"):
        hook.wants_compiled()


# -- trust boundaries ----------------------------------------------------------------


def _rules(err: pytest.ExceptionInfo[Any]) -> set[str]:
    return {v.rule for v in err.value.violations}


@settings(max_examples=25, deadline=None)
@given(key=NOT_IDS)
def test_an_attacker_that_is_no_id_is_508_1a(engine: Engine, board: GameState,
                                              key: object) -> None:
    """508.1a: a declaration naming as attacker something that is no id is
    illegal (there is no such permanent), compiled as pure."""
    with pytest.raises(IllegalAttackError) as err:
        engine.declare_attackers(board, {key: "bob"})  # type: ignore[dict-item]
    assert _rules(err) == {"508.1a"}


@settings(max_examples=25, deadline=None)
@given(target=NOT_IDS)
def test_an_attack_target_that_is_no_id_is_508_1b(engine: Engine, board: GameState,
                                                   target: object) -> None:
    """508.1b: each attacker attacks a player, planeswalker or battle named
    by its id; anything else is a violation, compiled as pure."""
    with pytest.raises(IllegalAttackError) as err:
        engine.declare_attackers(board, {"a0": target})  # type: ignore[dict-item]
    assert _rules(err) == {"508.1b"}


@settings(max_examples=25, deadline=None)
@given(key=NOT_IDS)
def test_a_blocker_that_is_no_id_is_509_1a(engine: Engine, attacked: GameState,
                                           key: object) -> None:
    """509.1a: a declaration naming as blocker something that is no id is
    illegal, compiled as pure."""
    with pytest.raises(IllegalBlockError) as err:
        engine.declare_blockers(attacked, {key: "a0"})  # type: ignore[dict-item]
    assert _rules(err) == {"509.1a"}


@settings(max_examples=25, deadline=None)
@given(member=NOT_IDS)
def test_a_blocked_attacker_that_is_no_id_is_509_1a(engine: Engine, attacked: GameState,
                                                    member: object) -> None:
    """509.1a: each creature blocked is named by its id; a declaration with
    anything else among them is illegal, compiled as pure."""
    with pytest.raises(IllegalBlockError) as err:
        engine.declare_blockers(attacked, {"b0": ("a0", member)})  # type: ignore[dict-item]
    assert _rules(err) == {"509.1a"}


@settings(max_examples=25, deadline=None)
@given(key=NOT_IDS)
def test_an_assignment_from_no_id_is_510_1(engine: Engine, blocked: GameState,
                                           key: object) -> None:
    """510.1: combat damage is assigned by creatures in combat; an entry for
    something that is no id is an illegal assignment, as a command and as a
    query, compiled as pure."""
    assign: Any = {key: {"b0": 1}}
    with pytest.raises(IllegalAssignmentError) as err:
        engine.combat_damage(blocked, assign)
    assert _rules(err) == {"510.1"}
    assert "510.1" in {v.rule for v in engine.assignment_violations(blocked, assign)}


@pytest.mark.parametrize("amount", ["2", 2.5, None, True, -1, (1,)])
def test_a_malformed_amount_is_510_1a(engine: Engine, blocked: GameState,
                                      amount: object) -> None:
    """510.1a: an amount of damage is a whole number, 0 or more; anything else
    is an illegal assignment, compiled as pure (the amounts are read as
    ``object`` until checked)."""
    assign: Any = {"a0": {"b0": amount, "b1": 3}}
    with pytest.raises(IllegalAssignmentError) as err:
        engine.combat_damage(blocked, assign)
    assert "510.1a" in _rules(err)


@settings(max_examples=25, deadline=None)
@given(attacker=NOT_IDS)
def test_509_1a_what_is_no_id_is_an_unknown_object(engine: Engine, attacked: GameState,
                                               attacker: object) -> None:
    """509.1a: only an attacking creature can be blocked; what is no id is
    an ``UnknownObjectError`` naming the argument, as any query given an id
    the state doesn't have, compiled as pure (never a ``TypeError`` of
    compiled code)."""
    with pytest.raises(UnknownObjectError, match=r"legal_blockers: attacker .* is not an object"):
        engine.legal_blockers(attacked, attacker)  # type: ignore[arg-type]


@pytest.mark.parametrize("trigger_id", [5, None, ("t",), b"t"])
def test_resolving_a_trigger_named_by_no_id_is_405_1(trigger_id: object) -> None:
    """405.1: the trigger to resolve is one on the stack, named by its id;
    anything else is an illegal action, compiled as pure."""
    engine = Engine(auto_triggers=False)
    state = engine.game(["alice", "bob"], [engine.creature("x", "alice", 2, 2, "exalted"),
                                           engine.creature("b0", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"x": "bob"}).state
    assert state.stack, "exalted (702.83a) triggers: the stack holds its trigger"
    if trigger_id is None:
        assert engine.resolve_trigger(state).state.stack == ()
        return
    with pytest.raises(IllegalActionError, match="no trigger") as err:
        engine.resolve_trigger(state, trigger_id)  # type: ignore[arg-type]
    assert err.value.rule == "405.1"


@settings(max_examples=25, deadline=None)
@given(member=NOT_IDS)
def test_a_band_member_that_is_no_id_is_702_22c(engine: Engine, board: GameState,
                                                member: object) -> None:
    """702.22c: a band is of attacking creatures, each named by its id; a band
    with anything else in it is an illegal declaration, compiled as pure."""
    with pytest.raises(IllegalAttackError) as err:
        engine.declare_attackers(board, {"a0": "bob", "a1": "bob"},
                                 [("a0", member)])  # type: ignore[list-item]
    assert _rules(err) == {"702.22c"}
