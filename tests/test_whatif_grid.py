"""What-if grids (issue 24, item 3): ``redzone.execution.what_if``.

One board under every cell of a grid: every legal declaration of blockers
(509.1, enumerated) x action lists (pumps, tricks: 117.1) x variants (other
decisions), scored on the workers. Here: that the grid has exactly its
cells, each scored as the caller would score its full outcome; that a
process pool gives the same cells; that a board already in combat (after
508.1 or 509.1) is continued from where it is; and that bad grids are clear
errors raised before any cell runs.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
from typing import Any

import pytest
from redzone import Engine, GameState
from redzone.execution import Cell, Grid, JobOutcome, LightOutcome, ScoreError, simulate, what_if
from redzone.kernel.actions import Pump
from redzone.kernel.errors import BadQueryError, IllegalAttackError
from redzone.kernel.frozen import FrozenMap

ATTACKS = {"bear": "bob", "wolf": "bob"}
ACTIONS: list[list[tuple[str, Any]]] = [
    [],
    [("declare_blockers", Pump("bear", 2, 2))],
    [("declare_blockers", Pump("wolf", 1, 1)), ("declare_blockers", Pump("ox", 0, 2))],
]


def light_score(out: LightOutcome) -> tuple[int, int, int]:
    """Damage to bob, then bob's creatures that died minus alice's."""
    if not out.ok:
        return (-1, 0, 0)
    return (20 - out.lives["bob"], sum(d in ("elf", "ox") for d in out.deaths),
            -sum(d in ("bear", "wolf") for d in out.deaths))


def json_score(out: JobOutcome) -> tuple[int, int, int]:
    """:func:`light_score`, from the full JSON outcome."""
    if not out.ok:
        return (-1, 0, 0)
    o = out.outcome
    gone = {i for i, p in o["permanents"].items() if p["zone"] != "battlefield"}
    return (20 - o["players"]["bob"]["life"], len(gone & {"elf", "ox"}),
            -len(gone & {"bear", "wolf"}))


def raises(out: Any) -> int:
    raise RuntimeError("score bug")


@pytest.fixture(scope="module")
def eng() -> Engine:
    return Engine(verify=True)


@pytest.fixture(scope="module")
def board(eng: Engine) -> GameState:
    c = eng.creature
    return eng.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("wolf", "alice", 3, 3),
                                       c("elf", "bob", 1, 1), c("ox", "bob", 2, 4)])


@pytest.fixture(scope="module")
def declared(eng: Engine, board: GameState) -> GameState:
    return eng.declare_attackers(eng.begin_combat(board).state, ATTACKS).state


@pytest.fixture(scope="module")
def grid_cells(eng: Engine, board: GameState) -> list[Cell]:
    return what_if(board, Grid(attacks=ATTACKS, actions=ACTIONS,
                               variants=[{}, {"through": "cleanup"}]),
                   score=light_score, engine=eng)


def _key(cell: Cell) -> tuple[Any, ...]:
    return (cell.blocks, cell.actions, cell.variant)


def test_509_1_the_grid_is_every_legal_block_x_every_action_list_x_every_variant(
        eng: Engine, declared: GameState, grid_cells: list[Cell]) -> None:
    blocks = list(eng.legal_block_declarations(declared))
    assert len(blocks) == 9                       # elf, ox: each none, bear or wolf
    assert len(grid_cells) == len(blocks) * len(ACTIONS) * 2
    assert sorted(c.index for c in grid_cells) == list(range(len(grid_cells)))
    want = list(itertools.product(blocks, [tuple(a) for a in ACTIONS],
                                  [FrozenMap(), FrozenMap(through="cleanup")]))
    by_index = sorted(grid_cells, key=lambda c: c.index)
    assert [_key(c) for c in by_index] == want   # index = (b * A + a) * V + v
    assert all(c.ok and c.kind == "resolved" for c in grid_cells)


def test_item3_cells_are_best_first_and_scored_as_the_caller_scores_full_outcomes(
        eng: Engine, board: GameState, grid_cells: list[Cell]) -> None:
    scores = [c.score for c in grid_cells]
    assert scores == sorted(scores, reverse=True)
    ties = [[c.index for c in grid_cells if c.score == s] for s in dict.fromkeys(scores)]
    assert all(t == sorted(t) for t in ties)     # ties in grid order
    by_index = sorted(grid_cells, key=lambda c: c.index)
    jobs = [(board, {**c.variant, "attacks": ATTACKS, "blocks": c.blocks,
                     "actions": c.actions}) for c in by_index]
    assert [c.score for c in by_index] == [json_score(o) for o in simulate(jobs, engine=eng)]
    best = grid_cells[0]                         # no block, the bear pumped: 4 + 3 damage
    assert (best.score, dict(best.blocks), best.actions, best.variant) == (
        (7, 0, 0), {}, tuple(ACTIONS[1]), FrozenMap())


def test_item3_a_process_pool_gives_the_same_cells(eng: Engine, board: GameState,
                                                   grid_cells: list[Cell]) -> None:
    grid = Grid(attacks=ATTACKS, actions=ACTIONS, variants=[{}, {"through": "cleanup"}])
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        got = what_if(board, grid, score=light_score, engine=eng, executor=pool, chunksize=5)
        streamed = list(what_if(board, grid, score=json_score, outcome="json", engine=eng,
                                executor=pool, stream=True))
    assert got == grid_cells
    assert [c.index for c in streamed] == list(range(len(grid_cells)))   # grid order
    assert [c.score for c in streamed] == [c.score for c in
                                           sorted(grid_cells, key=lambda c: c.index)]


def test_item3_seeds_are_variants_and_a_given_block_axis_is_used_as_is(
        eng: Engine, board: GameState) -> None:
    """The engine is deterministic: the third axis is explicit decisions
    (here damage assignment, 510.1c), and a block axis may be given."""
    cells = what_if(board, {"attacks": ATTACKS, "blocks": [{"elf": "wolf", "ox": "wolf"}],
                            "variants": [{}, {"assign": {"wolf": {"elf": 1, "ox": 2}}}]},
                    score=light_score, engine=eng, stream=True)
    got = list(cells)
    assert [c.variant for c in got] == [FrozenMap(), FrozenMap(assign={"wolf": {"elf": 1,
                                                                                 "ox": 2}})]
    assert [c.score[1] for c in got] == [1, 1]   # elf dies either way (1 damage is lethal)


@pytest.mark.parametrize("start", ["beginning_of_combat", "declare_attackers"])
def test_508_1_509_1_a_grid_from_a_state_in_combat_enumerates_blocks_from_there(
        eng: Engine, board: GameState, grid_cells: list[Cell], start: str) -> None:
    begun = eng.begin_combat(board).state
    if start == "beginning_of_combat":
        state, grid = begun, Grid(attacks=ATTACKS, actions=ACTIONS)
    else:
        state, grid = eng.declare_attackers(begun, ATTACKS).state, Grid(actions=ACTIONS)
    cells = what_if(state, grid, score=light_score, engine=eng)
    want = {_key(c)[:2]: c.score for c in grid_cells if not c.variant}
    assert len(cells) == 9 * len(ACTIONS)
    assert {_key(c)[:2]: c.score for c in cells} == want


def test_509_1_after_blockers_are_declared_only_the_action_axis_is_left(
        eng: Engine, declared: GameState, grid_cells: list[Cell]) -> None:
    blocked = eng.declare_blockers(declared, {"elf": "bear", "ox": "wolf"}).state
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        cells = what_if(blocked, Grid(actions=ACTIONS), score=light_score, engine=eng,
                        executor=pool)
    assert len(cells) == len(ACTIONS)
    assert {c.blocks for c in cells} == {blocked.combat.blocks}
    want = {c.actions: c.score for c in grid_cells
            if not c.variant and dict(c.blocks) == {"elf": ("bear",), "ox": ("wolf",)}}
    assert {c.actions: c.score for c in cells} == want


def test_117_1_an_action_that_cant_be_performed_is_its_cells_outcome(
        eng: Engine, board: GameState) -> None:
    cells = what_if(board, Grid(attacks={"bear": "bob"}, blocks=[{}],
                                actions=[[], [("declare_blockers", Pump("ghost", 1, 1))]]),
                    score=light_score, engine=eng, stream=True)
    ok, bad = list(cells)
    assert ok.ok and ok.score == (2, 0, 0)
    assert bad.status == 1 and bad.score == (-1, 0, 0) and "ghost" in bad.message


# -- bad grids: clear errors before any cell runs ----------------------------------------------


@pytest.mark.parametrize("grid, match", [
    ({"attacks": ATTACKS, "actions": []}, "actions axis is empty"),
    ({"attacks": ATTACKS, "variants": []}, "variants axis is empty"),
    ({"attacks": ATTACKS, "blocks": []}, "blocks axis is empty"),
    ({}, "give grid.attacks"),
    ({"attacks": ATTACKS, "variants": [{"blocks": {}}]}, "grid.variants.0. has 'blocks'"),
    ({"attacks": ATTACKS, "actions": [[("declare_blockers", "pump")]]},
     r"grid.actions\[0\]\[0\]"),
])
def test_item3_a_bad_grid_is_refused(eng: Engine, board: GameState, grid: dict[str, Any],
                                     match: str) -> None:
    before = board
    with pytest.raises(BadQueryError, match=match):
        what_if(board, grid, score=light_score, engine=eng)
    assert board == before


def test_508_1_illegal_attacks_are_refused(eng: Engine, board: GameState) -> None:
    with pytest.raises(IllegalAttackError):
        what_if(board, Grid(attacks={"elf": "alice"}), score=light_score, engine=eng)


def test_item3_declarations_for_steps_already_past_are_refused(
        eng: Engine, declared: GameState) -> None:
    with pytest.raises(BadQueryError, match="attackers are declared already"):
        what_if(declared, Grid(attacks=ATTACKS), score=light_score, engine=eng)
    blocked = eng.declare_blockers(declared, {}).state
    with pytest.raises(BadQueryError, match="blockers are declared already"):
        what_if(blocked, Grid(blocks=[{}]), score=light_score, engine=eng)
    with pytest.raises(BadQueryError, match=r"grid.variants.0. has 'first_turn'"):
        what_if(blocked, Grid(variants=[{"first_turn": True}]), score=light_score,
                engine=eng)


def last_steps(out: JobOutcome) -> tuple[str, ...]:
    """The steps after combat damage and bob's life: where the cell ended."""
    if not out.ok:
        return ("error", out.kind)
    o = out.outcome
    return (*o["steps"][-3:], str(o["players"]["bob"]["life"]))


def test_513_500_8_a_grid_in_combat_goes_on_past_the_combat_as_resolve_does(
        eng: Engine, declared: GameState) -> None:
    """From a state in combat, a variant may hold what resolves past the
    combat, as a whole combat's may: the end step and cleanup (513, 514:
    ``through``), an additional combat (500.8, 505.1a) and later turns
    (500.1); each cell is :meth:`Engine.resolve` from there, its error
    included (a creature that attacked is tapped, 508.1a)."""
    from redzone.kernel.plans import CombatPlan, TurnPlan

    blocked = eng.declare_blockers(declared, {"elf": "bear"}).state
    variants: list[dict[str, Any]] = [
        {}, {"through": "cleanup"},
        {"additional_combats": [CombatPlan({"wolf": "bob"})]},
        {"additional_combats": [CombatPlan({})], "turns": [TurnPlan(CombatPlan({}))]}]
    cells = list(what_if(blocked, Grid(variants=variants), score=last_steps, engine=eng,
                         outcome="json", stream=True))
    got = [c.score for c in cells]
    for variant, score in zip(variants, got, strict=True):
        try:
            result = eng.resolve(blocked, ATTACKS, {"elf": ("bear",)}, **variant)
        except IllegalAttackError as exc:
            want: tuple[str, ...] = ("error", exc.kind)
        else:
            want = (*result.steps[-3:], str(result.state.players["bob"].life))
        assert score == want, variant
    assert got[1][:3] == ("end_of_combat", "end_step", "cleanup")
    assert got[2][0] == "error"
    # bob's turn runs until he draws from his empty library and loses (704.5b)
    assert got[3][:3] == ("untap@2", "upkeep@2", "draw@2")


def test_item3_a_bad_score_is_a_clear_error(eng: Engine, board: GameState) -> None:
    grid = Grid(attacks=ATTACKS, blocks=[{}, {"elf": "bear"}])
    with pytest.raises(ScoreError, match=r"raises raised on job 0 \(<job 0>\): RuntimeError"):
        what_if(board, grid, score=raises, engine=eng)
    with pytest.raises(BadQueryError, match="not a function"):
        what_if(board, grid, score=None, engine=eng)  # type: ignore[arg-type]
    with cf.ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(BadQueryError, match="can't be sent to a worker"):
            what_if(board, grid, score=lambda o: 0, engine=eng, executor=pool)
        with pytest.raises(ScoreError, match="raises raised on job 0"):
            what_if(board, grid, score=raises, engine=eng, executor=pool)


def bob_score(out: LightOutcome) -> tuple[int, tuple[str, ...]]:
    """Bob's life and what died."""
    return (out.lives["bob"], tuple(sorted(out.deaths))) if out.ok else (-1, ())


def test_506_1_a_grid_from_the_middle_of_a_combat_is_resolved_from_there(
        eng: Engine) -> None:
    """From each step a combat can be resolved on from (507, 508, 509, after
    the first-strike damage step, 702.7b), each cell is
    :meth:`Engine.resolve` from there: the outcome of the whole combat. From
    the end of combat step (the combat is over, 511) the grid is refused."""
    c = eng.creature
    board = eng.game(["alice", "bob"], [c("knight", "alice", 2, 2, "first strike"),
                                        c("rhino", "alice", 4, 4, "trample"),
                                        c("elf", "bob", 1, 1), c("ox", "bob", 2, 4)])
    attacks, blocks = {"knight": "bob", "rhino": "bob"}, {"elf": "rhino", "ox": "knight"}
    [whole] = what_if(board, Grid(attacks=attacks, blocks=[blocks]), score=bob_score,
                      engine=eng)
    assert whole.score == (17, ("elf", "knight"))
    begun = eng.begin_combat(board).state
    declared = eng.declare_attackers(begun, attacks).state
    blocked = eng.declare_blockers(declared, blocks).state
    struck = eng.combat_damage(blocked).state
    assert struck.step == "first_strike_damage"
    for state, grid in ((begun, Grid(attacks=attacks, blocks=[blocks])),
                        (declared, Grid(blocks=[blocks])), (blocked, Grid()), (struck, Grid())):
        [cell] = what_if(state, grid, score=bob_score, engine=eng)
        assert cell.score == whole.score, state.step
    over = eng.end_of_combat(eng.combat_damage(struck).state).state
    with pytest.raises(BadQueryError, match="can't resolve a combat from a state at "
                                            "'end_of_combat'"):
        what_if(over, Grid(), score=bob_score, engine=eng)
