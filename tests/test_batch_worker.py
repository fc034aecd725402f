"""Work on the worker (issue 24, item 2): ``simulate(..., score=, reduce=,
outcome="light")``.

A score runs where the job is resolved and only its value comes back; a
reduction runs per chunk there and once more here; the light outcome is
built from the engine's result. Here: that all of them agree with what the
caller computes from the full JSON outcomes, serially and on other
processes, whatever the chunks; that a ``(state, decisions)`` job, resolved
by ``Engine.resolve`` itself, keeps the scenario resolver's bytes; and that
a bad score or reduce is a clear error, before any job runs when it can be.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import operator
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, GameState, Player
from redzone.examples import names
from redzone.examples import path as example_path
from redzone.execution import LightOutcome, Reduced, Scored, ScoreError, simulate
from redzone.execution.jobs import (
    JobOutcome,
    _compact,
    _PairJob,
    _Planner,
    _scenario_of,
    _ScenarioJob,
)
from redzone.formats.outcome import command_engine, outcome_json, resolve
from redzone.formats.scenario import load
from redzone.kernel.errors import BadQueryError

HAS_DASK = importlib.util.find_spec("distributed") is not None


# -- module-level functions: what a worker can be sent ------------------------------------


def bob_life(out: JobOutcome) -> tuple[int, str, int | None]:
    """A score of full outcomes: status, kind and bob's life (None unless resolved)."""
    life = out.outcome["players"]["bob"]["life"] if out.ok else None
    return (out.status, out.kind, life)


def light_summary(out: LightOutcome) -> tuple[int, str, int | None, tuple[str, ...]]:
    """A score of light outcomes: status, kind, bob's life and the deaths."""
    return (out.status, out.kind, out.lives.get("bob"), out.deaths)


def damage_to_bob(out: LightOutcome) -> int:
    return 20 - out.lives["bob"] if out.ok else 0


def one(out: Any) -> int:
    return 1


def index_of(out: Any) -> tuple[int, ...]:
    return (out.index,)


def kind_count(out: Any) -> Counter[str]:
    return Counter([out.kind])


def fails_on_third(out: Any) -> int:
    if out.index == 2:
        raise KeyError("no such player")
    return 0


def bad_reduce(a: int, b: int) -> int:
    raise ValueError("cannot combine")


def _missing_module() -> Any:
    raise ModuleNotFoundError("No module named 'only_on_the_caller'")


class ScoreOfAMissingModule:
    """A score whose function can't be loaded where it is unpickled: what a
    function of a module only the caller can import is on a worker."""

    def __call__(self, out: Any) -> int:
        return 1

    def __reduce__(self) -> tuple[Any, ...]:
        return (_missing_module, ())


# -- boards ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def eng() -> Engine:
    return Engine(verify=True)


def _jobs(engine: Engine) -> list[tuple[GameState, dict[str, Any]]]:
    """Resolved combats (first strike, trample, deaths, a lethal one) and
    illegal declarations, in a fixed order."""
    c = engine.creature
    board = engine.game(["alice", "bob"], [
        c("bear", "alice", 2, 2), c("knight", "alice", 2, 2, "first strike"),
        c("rhino", "alice", 4, 4, "trample"), c("elf", "bob", 1, 1), c("ox", "bob", 2, 4)])
    lethal = engine.game([Player("alice"), Player("bob", life=3)],
                         [c("giant", "alice", 5, 5), c("elf", "bob", 1, 1)])
    return [
        (board, {"attacks": {"bear": "bob"}}),
        (board, {"attacks": {"bear": "bob", "rhino": "bob"}, "blocks": {"ox": "rhino"}}),
        (board, {"attacks": {"knight": "bob"}, "blocks": {"elf": "knight"}}),
        (board, {"attacks": {"elf": "alice"}}),                               # illegal: 508.1
        (board, {"attacks": {"bear": "bob"}, "blocks": {"ox": "rhino"}}),     # illegal: 509.1
        (board, {"attacks": {"bear": "bob", "knight": "bob"},
                 "blocks": {"elf": "bear", "ox": "knight"}}),
        (lethal, {"attacks": {"giant": "bob"}}),                              # 104.3a, 704.5a
        (board, {"attacks": {"rhino": "bob"}, "blocks": {"elf": "rhino"}}),
    ]


@pytest.fixture(scope="module")
def jobs(eng: Engine) -> list[tuple[GameState, dict[str, Any]]]:
    return _jobs(eng)


@pytest.fixture(scope="module")
def pool() -> Any:
    with cf.ProcessPoolExecutor(max_workers=2) as p:
        yield p


# -- item 2: scores on the workers ----------------------------------------------------------


def test_item2_scores_on_the_worker_equal_scores_of_full_outcomes_serially(
        eng: Engine, jobs: list[Any]) -> None:
    full = list(simulate(jobs, engine=eng))
    scored = list(simulate(jobs, engine=eng, score=bob_life))
    assert all(isinstance(s, Scored) for s in scored)
    assert [s.value for s in scored] == [bob_life(o) for o in full]
    assert [(s.index, s.source, s.status, s.kind) for s in scored] == [
        (o.index, o.source, o.status, o.kind) for o in full]
    assert [s.kind for s in scored][3:5] == ["illegal_attack", "illegal_block"]
    assert all(s.message == "" for s in scored if s.ok)
    assert scored[3].message == full[3].outcome["error"]["message"]


def test_item2_scores_on_a_process_pool_equal_scores_of_full_outcomes(
        eng: Engine, jobs: list[Any], pool: Any) -> None:
    full = list(simulate(jobs, engine=eng))
    for chunksize in (1, 3):
        scored = list(simulate(jobs, engine=eng, executor=pool, chunksize=chunksize,
                               score=bob_life))
        assert [s.value for s in scored] == [bob_life(o) for o in full]
        light = list(simulate(jobs, engine=eng, executor=pool, chunksize=chunksize,
                              outcome="light", score=light_summary))
        assert [s.value for s in light] == [
            light_summary(o) for o in simulate(jobs, engine=eng, outcome="light")]


def test_item2_reduce_gives_one_value_and_every_jobs_kind(
        eng: Engine, jobs: list[Any], pool: Any) -> None:
    full = list(simulate(jobs, engine=eng, outcome="light"))
    want = sum(damage_to_bob(o) for o in full)
    kinds = Counter(o.kind for o in full)
    for executor in (None, pool):
        got = simulate(jobs, engine=eng, executor=executor, chunksize=3, outcome="light",
                       score=damage_to_bob, reduce=operator.add)
        assert isinstance(got, Reduced)
        assert got.value == want and got.jobs == len(jobs)
        assert dict(got.kinds) == dict(kinds) and got.failed == 2
        counted = simulate(jobs, engine=eng, executor=executor, chunksize=2,
                           score=kind_count, reduce=operator.add)
        assert counted.value == kinds


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(picks=st.lists(st.integers(0, 7), max_size=20), chunksize=st.integers(1, 8),
       start=st.sampled_from([None, (-1,)]))
def test_item2_reduce_is_the_same_whatever_the_chunk_size(
        eng: Engine, jobs: list[Any], picks: list[int], chunksize: int,
        start: tuple[int, ...] | None) -> None:
    """Tuple concatenation is associative but not commutative: the value
    shows that chunks are reduced in input order, whatever their size."""
    batch = [jobs[i] for i in picks]
    extra: dict[str, Any] = {} if start is None else {"initial": start}
    if not batch and start is None:
        with pytest.raises(BadQueryError, match="no job to reduce"):
            simulate(batch, engine=eng, score=index_of, reduce=operator.add)
        return
    want = (start or ()) + tuple(range(len(batch)))
    with cf.ThreadPoolExecutor(max_workers=2) as threads:
        got = simulate(batch, engine=eng, executor=threads, chunksize=chunksize,
                       outcome="light", score=index_of, reduce=operator.add, **extra)
    assert got.value == want and got.jobs == len(batch)
    serial = simulate(batch, engine=eng, outcome="light", score=index_of,
                      reduce=operator.add, **extra)
    assert serial.value == want


@pytest.mark.skipif(not HAS_DASK, reason="distributed is not installed")
def test_item2_scores_on_a_dask_cluster_equal_scores_of_full_outcomes(
        eng: Engine, jobs: list[Any]) -> None:
    from distributed import Client, LocalCluster

    full = list(simulate(jobs, engine=eng))
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        scored = list(simulate(jobs, engine=eng, executor=client, chunksize=3,
                               score=bob_life))
        total = simulate(jobs, engine=eng, executor=client, chunksize=3, outcome="light",
                         score=damage_to_bob, reduce=operator.add)
    assert [s.value for s in scored] == [bob_life(o) for o in full]
    assert total.value == sum(damage_to_bob(o) for o in
                              simulate(jobs, engine=eng, outcome="light"))


# -- item 2: the light outcome ----------------------------------------------------------------


def _deaths_of(before: GameState, outcome: dict[str, Any]) -> tuple[str, ...]:
    """The permanents on the battlefield before that the full outcome has
    elsewhere, or not at all (a token that ceased to exist, 704.5d), or back
    on it as a new object (400.7: undying, persist)."""
    perms = outcome["permanents"]
    return tuple(i for i, p in before.objects.items() if p.zone == "battlefield" and (
        i not in perms or perms[i]["zone"] != "battlefield"
        or perms[i]["object"] != p.object))


def test_item2_light_outcome_agrees_with_the_json_outcome_on_every_example() -> None:
    """Lives (119), poison (122.1f), deaths (704.5f-g, 704.5d), the end of
    the game (104) and status/kind, for every bundled example file."""
    files = [str(example_path(n)) for n in names()]
    full = list(simulate(files))
    light = list(simulate(files, outcome="light"))
    assert len(light) == len(full) == len(names())
    for f, li in zip(full, light, strict=True):
        assert isinstance(li, LightOutcome)
        assert (li.index, li.source, li.status, li.kind) == (f.index, f.source, f.status,
                                                             f.kind)
        out = f.outcome
        if not f.ok:
            assert li.message == out["error"]["message"] and not li.lives
            continue
        assert dict(li.lives) == {p: v["life"] for p, v in out["players"].items()}
        assert dict(li.poison) == {p: v["poison"] for p, v in out["players"].items()}
        before = load(f.source, engine_factory=command_engine).state
        assert li.deaths == _deaths_of(before, out), f.source
        over = out["game_over"]
        assert li.game_over == (over is not None)
        if over is not None:
            assert (list(li.winners), list(li.losers), li.draw) == (
                over["winners"], over["losers"], over["draw"])
    assert any(li.deaths for li in light) and any(li.game_over for li in light)


def test_item2_light_outcome_of_pairs_and_failures(eng: Engine, jobs: list[Any],
                                                   pool: Any) -> None:
    full = list(simulate(jobs, engine=eng))
    light = list(simulate(jobs, engine=eng, outcome="light"))
    assert list(simulate(jobs, engine=eng, outcome="light", executor=pool,
                         chunksize=3)) == light
    for f, li in zip(full, light, strict=True):
        assert (li.status, li.kind) == (f.status, f.kind)
        if f.ok:
            assert li.deaths == _deaths_of(jobs[f.index][0], f.outcome)
            assert dict(li.lives) == {p: v["life"] for p, v in f.outcome["players"].items()}
    assert light[6].game_over and light[6].winners == ("alice",)   # 104.3a
    assert light[3].kind == "illegal_attack" and light[3].message


# -- item 2: pair jobs skip the scenario resolver, same bytes --------------------------------


def test_item2_a_pair_jobs_json_is_the_scenario_resolvers_bytes(
        eng: Engine, jobs: list[Any], pool: Any) -> None:
    planner = _Planner(eng)
    want = []
    for i, job in enumerate(jobs):
        pair = planner.payload(i, job, spec=False)
        assert isinstance(pair, _PairJob)  # converted where it runs, not by the caller
        payload = pair.converted()
        assert isinstance(payload, _ScenarioJob)
        resolution = resolve(_scenario_of(payload, eng))
        want.append(_compact(outcome_json(resolution)))
    assert [o.json for o in simulate(jobs, engine=eng)] == want
    assert [o.json for o in simulate(jobs, engine=eng, executor=pool, chunksize=2)] == want


# -- bad inputs: clear errors, nothing run ---------------------------------------------------


def test_item2_a_score_that_is_not_a_function_is_refused(eng: Engine, jobs: list[Any]) -> None:
    with pytest.raises(BadQueryError, match="score is a int, not a function"):
        simulate(jobs, engine=eng, score=3)  # type: ignore[call-overload]
    with pytest.raises(BadQueryError, match="reduce needs score"):
        simulate(jobs, engine=eng, reduce=operator.add)  # type: ignore[call-overload]
    with pytest.raises(BadQueryError, match="initial is given without reduce"):
        simulate(jobs, engine=eng, score=one, initial=0)  # type: ignore[call-overload]
    with pytest.raises(BadQueryError, match="outcome is 'heavy'"):
        simulate(jobs, engine=eng, outcome="heavy")  # type: ignore[call-overload]


def test_item2_an_unpicklable_score_on_a_pool_is_refused_before_any_job(
        eng: Engine, jobs: list[Any], pool: Any) -> None:
    with pytest.raises(BadQueryError, match=r"can't be sent to a worker.*module-level"):
        simulate(jobs, engine=eng, executor=pool, score=lambda o: 1)
    with pytest.raises(BadQueryError, match="the reduce function"):
        simulate(jobs, engine=eng, executor=pool, score=one, reduce=lambda a, b: a + b)
    # serially, a lambda is fine: nothing travels
    assert simulate(jobs, engine=eng, score=lambda o: 1, reduce=lambda a, b: a + b).value == 8
    # and the pool still works
    assert [s.value for s in simulate(jobs, engine=eng, executor=pool, score=one)] == [1] * 8


@pytest.mark.parametrize("where", ["serial", "pool"])
def test_item2_a_score_that_raises_names_its_job(eng: Engine, jobs: list[Any], pool: Any,
                                                 where: str) -> None:
    executor = pool if where == "pool" else None
    with pytest.raises(ScoreError, match=r"fails_on_third raised on job 2 \(<job 2>\): "
                                         r"KeyError: 'no such player'") as info:
        list(simulate(jobs, engine=eng, executor=executor, chunksize=2,
                      score=fails_on_third))
    assert (info.value.index, info.value.source) == (2, "<job 2>")
    with pytest.raises(ScoreError, match="fails_on_third raised on job 2"):
        simulate(jobs, engine=eng, executor=executor, chunksize=4, score=fails_on_third,
                 reduce=operator.add)
    with pytest.raises(ScoreError, match="bad_reduce raised"):
        simulate(jobs, engine=eng, executor=executor, chunksize=3, score=one,
                 reduce=bad_reduce)


def test_item2_a_query_a_worker_cant_load_is_one_error_not_lost_workers(
        eng: Engine, jobs: list[Any], pool: Any) -> None:
    """A score the workers can't import fails the batch once, at its first
    chunk, as a ScoreError naming the import error: it is no job's fault,
    so no job is retried alone or reported as a lost worker."""
    with pytest.raises(ScoreError, match=r"can't be loaded on a worker: ModuleNotFoundError: "
                                         r"No module named 'only_on_the_caller'") as info:
        list(simulate(jobs, engine=eng, executor=pool, chunksize=4,
                      score=ScoreOfAMissingModule()))
    assert info.value.index in (0, 4)
    with pytest.raises(ScoreError, match="can't be loaded on a worker"):
        simulate(jobs, engine=eng, executor=pool, chunksize=4, score=ScoreOfAMissingModule(),
                 reduce=operator.add)
    # the pool is fine afterwards
    assert [s.value for s in simulate(jobs, engine=eng, executor=pool, score=one)] == [1] * 8


def test_item2_a_job_that_cant_travel_is_scored_on_the_caller(eng: Engine, jobs: list[Any],
                                                              pool: Any) -> None:
    """A job the pool can't pickle is the caller's bad_job outcome: scored
    here like any other, so it still counts in a reduction."""
    state = jobs[0][0]
    batch = [jobs[0], (state, {"attacks": {"bear": "bob"}, "choices": {"x": lambda: 1}}),
             jobs[1]]
    scored = list(simulate(batch, engine=eng, executor=pool, chunksize=3, score=bob_life))
    assert [s.kind for s in scored] == ["resolved", "bad_job", "resolved"]
    assert scored[1].value == (2, "bad_job", None)
    total = simulate(batch, engine=eng, executor=pool, chunksize=3, score=one,
                     reduce=operator.add)
    assert total.value == 3 and dict(total.kinds) == {"resolved": 2, "bad_job": 1}


def test_a_chunk_travels_in_parts_and_comes_back_whole_in_order(eng: Engine,
                                                                  jobs: list[Any]) -> None:
    """A chunk is pickled ``PACK_PART`` jobs at a time (the pickler forgets
    what it wrote after each part, so that a chunk's jobs are not all alive
    at once on the caller): reading it gives every job back, in order,
    whatever the chunk's length."""
    from redzone.execution.jobs import PACK_PART, Packer, pack, unpack_jobs

    planner = _Planner(eng)
    payloads = [(i, planner.payload(i, jobs[i % len(jobs)])) for i in range(2 * PACK_PART + 3)]
    for n in (0, 1, PACK_PART, PACK_PART + 1, len(payloads)):
        back = unpack_jobs(pack(payloads[:n]))
        assert [i for i, _ in back] == list(range(n))
        assert all(b.state == p.state and b.decisions == p.decisions
                   for (_, b), (_, p) in zip(back, payloads, strict=False))
    packer = Packer()
    for index, payload in payloads[:2 * PACK_PART - 1]:
        packer.add(index, payload)
    last = 2 * PACK_PART - 1  # completes the second part, which fails to pickle
    with pytest.raises(Exception, match="lambda"):
        packer.add(last, _PairJob(last, jobs[0][0], {"choices": {"x": lambda: 1}},
                                  "foundations", planner.spec))
    assert [i for i, _ in packer.unsent()] == list(range(2 * PACK_PART))
    # A part larger than a pickle frame (64 KiB) is written as it goes: a
    # job that fails late in it leaves none of it behind.
    c = eng.creature
    big = eng.game(["alice", "bob"], [c(f"c{i}", "alice", 2, 2) for i in range(200)])
    packer = Packer()
    packer.add(0, planner.payload(0, jobs[0]))
    for i in range(1, PACK_PART):  # a state of its own each (not pickled once, by reference)
        packer.add(i, planner.payload(i, (big.evolve(turn=i + 1), {})))
    assert [i for i, _ in unpack_jobs(packer.bytes())] == list(range(PACK_PART))
    packer = Packer()
    for i in range(PACK_PART - 1):
        packer.add(i, planner.payload(i, (big.evolve(turn=i + 1), {})))
    with pytest.raises(Exception, match="lambda"):
        packer.add(PACK_PART - 1, _PairJob(PACK_PART - 1, big, {"choices": {"x": lambda: 1}},
                                           "foundations", planner.spec))
    assert [i for i, _ in packer.unsent()] == list(range(PACK_PART))


def test_a_job_that_cant_travel_in_a_later_part_leaves_its_chunk_to_run_alone(
        eng: Engine, jobs: list[Any], pool: Any) -> None:
    """A job that can't be pickled, in the second part of a chunk: the jobs
    before it in the chunk (already pickled) and after it are sent one by
    one, with the same outcomes as here; it alone is a bad_job."""
    from redzone.execution.jobs import PACK_PART

    state = jobs[0][0]
    batch = [jobs[i % len(jobs)] for i in range(PACK_PART + 10)]
    batch[PACK_PART + 2] = (state, {"attacks": {"bear": "bob"}, "choices": {"x": lambda: 1}})
    there = list(simulate(batch, engine=eng, executor=pool, chunksize=len(batch)))
    here = list(simulate(batch, engine=eng))
    assert [o.kind for o in there] == [o.kind for o in here]
    assert there[PACK_PART + 2].kind == "bad_job"
    assert [o.json for i, o in enumerate(there) if i != PACK_PART + 2] == [
        o.json for i, o in enumerate(here) if i != PACK_PART + 2]
