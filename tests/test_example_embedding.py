"""The embedding example (docs/examples/embedding/combat_loop.py): a host game
loop that drives the step API, runs its own stack in the priority windows,
keeps snapshots and takes decisions as data."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from redzone import Engine, IllegalAssignmentError

PATH = Path(__file__).resolve().parent.parent / "docs" / "examples" / "embedding" / "combat_loop.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("combat_loop", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["combat_loop"] = module  # attrs classes look their module up
    spec.loader.exec_module(module)
    return module


ex = _load()


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def test_510_2_mogg_fanatic_sacrificed_after_blocks(engine: Engine) -> None:
    """510.2 example: the Fanatic, sacrificed in the declare blockers step, deals
    1 damage to the Hawk, which is destroyed (704.5g); the Piker stays blocked
    (509.1h) and, with no creature blocking it, deals no combat damage (510.1c)."""
    loop = ex.play_combat(engine, ex.mogg_fanatic_board(engine), ex.MOGG_FANATIC)
    state = loop.state
    assert state.objects["hawk"].zone == "graveyard"
    assert state.objects["fanatic"].zone == "graveyard"
    assert state.objects["piker"].zone == "battlefield"
    assert state.objects["piker"].damage == 0
    assert state.players["bob"].life == 20
    assert not [e for e in loop.events if e.kind == "damage" and e.combat]
    # the cost is paid before the ability resolves (602.2b), then its damage (120.2b)
    kinds = [(e.kind, e.object or e.target) for e in loop.events
             if e.kind in ("dies", "damage")]
    assert kinds == [("dies", "fanatic"), ("damage", "hawk"), ("dies", "hawk")]


def test_510_2_without_the_sacrifice_what_if_from_a_snapshot(engine: Engine) -> None:
    """510.2 example, other branch: left on the battlefield, the Fanatic and the
    Piker deal lethal damage to each other and the Hawk hits Bob. Both branches
    are played from the same immutable snapshot."""
    start = ex.mogg_fanatic_board(engine)
    keep = attrs.evolve(ex.MOGG_FANATIC, plays={})
    results = ex.what_if(engine, start, {"sacrifice": ex.MOGG_FANATIC, "keep": keep})
    assert results["sacrifice"].players["bob"].life == 20
    kept = results["keep"]
    assert kept.players["bob"].life == 19
    assert kept.objects["piker"].zone == "graveyard"
    assert kept.objects["fanatic"].zone == "graveyard"
    assert kept.objects["hawk"].zone == "battlefield"
    assert start == ex.mogg_fanatic_board(engine)  # the snapshot is untouched


def test_510_1c_giant_growth_after_blocks_then_divided_as_chosen(engine: Engine) -> None:
    """510.1c (Foundations): after Giant Growth makes Pride Guardian 3/6, the
    Gorger's controller divides its 5 damage as they choose: 4 to the Guardian
    (which survives) and 1 to the Elves (which die)."""
    loop = ex.play_combat(engine, ex.giant_growth_board(engine), ex.GIANT_GROWTH)
    state = loop.state
    guardian = state.objects["guardian"]
    assert (guardian.power, guardian.toughness, guardian.damage) == (3, 6, 4)
    assert state.objects["elves"].zone == "graveyard"
    assert state.objects["gorger"].damage == 4  # 3 from the grown Guardian, 1 from the Elves
    assert loop.log[:2] == ["bob plays Giant Growth targeting guardian", "Giant Growth resolves"]


def test_m10_same_decision_is_illegal_and_the_loop_keeps_its_state() -> None:
    """510.1c of 2009-2024: with the order Guardian then Elves, the Gorger must
    assign lethal damage (6) to the grown Guardian first, so 4/1 is illegal;
    the game returns to the moment before (733) and the host re-decides."""
    engine = Engine("m10")
    loop = ex.CombatLoop(engine, ex.giant_growth_board(engine), ex.GIANT_GROWTH)
    with pytest.raises(IllegalAssignmentError) as err:
        loop.run()
    assert err.value.rule == "510.1c"
    before = loop.snapshot("declare_blockers: Giant Growth resolves")
    assert loop.state is before
    out = engine.combat_damage(before, {"gorger": {"guardian": 5}})
    assert out.state.objects["guardian"].damage == 5
    assert out.state.objects["elves"].zone == "battlefield"


def test_117_priority_and_405_stack_last_in_first_out(engine: Engine) -> None:
    """117.3b-c, 117.4, 405.5: the active player acts first, then the other;
    when both pass, the top object (the last played) resolves first."""
    decisions = attrs.evolve(ex.GIANT_GROWTH, plays={"declare_blockers": [
        ex.Play("Giant Growth", "bob", "guardian"), ex.Play("Giant Growth", "alice", "gorger")]},
        assign={"gorger": {"guardian": 6, "elves": 2}})
    loop = ex.play_combat(engine, ex.giant_growth_board(engine), decisions)
    assert loop.log == ["alice plays Giant Growth targeting gorger",
                        "bob plays Giant Growth targeting guardian",
                        "Giant Growth resolves", "Giant Growth resolves"]
    pumps = [e.target for e in loop.events if e.kind == "pump"]
    assert pumps == ["guardian", "gorger"]
    assert loop.state.objects["guardian"].zone == "graveyard"  # 6 damage on a 3/6


def test_608_2b_a_spell_whose_target_is_gone_does_not_resolve(engine: Engine) -> None:
    """608.2b: Alice's Giant Growth on the Fanatic is still on the stack when
    Bob sacrifices the Fanatic; Bob's ability resolves first, then the Giant
    Growth finds no target and does nothing."""
    decisions = attrs.evolve(ex.MOGG_FANATIC, plays={"declare_blockers": [
        ex.Play("Giant Growth", "alice", "fanatic"),
        ex.Play("Mogg Fanatic", "bob", "hawk", source="fanatic")]})
    loop = ex.play_combat(engine, ex.mogg_fanatic_board(engine), decisions)
    assert loop.log[-1] == "Giant Growth doesn't resolve: its target is gone (608.2b)"
    assert not [e for e in loop.events if e.kind == "pump"]


def test_snapshots_are_checkpoints_and_replays_are_deterministic(engine: Engine) -> None:
    """Every snapshot keeps the state it was taken with; replaying the same
    decisions from the start gives the same events and states."""
    first = ex.play_combat(engine, ex.mogg_fanatic_board(engine), ex.MOGG_FANATIC)
    second = ex.play_combat(engine, first.snapshot("start"), ex.MOGG_FANATIC)
    assert first.events == second.events
    assert [s.state for s in first.snapshots] == [s.state for s in second.snapshots]
    assert first.snapshot("declare_attackers").objects["hawk"].zone == "battlefield"
    assert first.snapshot("declare_attackers").objects["hawk"].tapped
