"""Batch simulation, as ``docs/batch.md`` promises it: the findings of an
audit of ``simulate``, ``redzone batch`` and the sinks.

- a chunk size that is not a positive whole number is refused before any job
  runs, as ``redzone batch --chunksize`` refuses it;
- a light outcome's ``deaths`` holds a creature that died and came back as a
  new object (704.5g, 400.7);
- a JSON-lines file torn inside a multi-byte character is cut back and its
  job runs again (``--resume``);
- ``redzone batch`` keeps a file's path as given, as ``redzone run`` does;
- a decisions value of the wrong type, and a ``rules`` or ``engine`` of the
  wrong type, are refused as the docs say.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import operator
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redzone.examples as examples
from click.testing import CliRunner
from redzone import Engine
from redzone.execution import simulate
from redzone.execution.jobs import scenario_files
from redzone.execution.sinks import done_keys
from redzone.frontends.cli import cli
from redzone.kernel.errors import BadQueryError

EXAMPLES = Path(examples.__file__).parent


def _pairs(n: int = 3) -> list[Any]:
    """``n`` jobs of a 2/2 bear attacking a player who has a 1/1 elf."""
    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("bear", "alice", 2, 2), c("elf", "bob", 1, 1)])
    return [(state, {"attacks": {"bear": "bob"}})] * n


def _one(outcome: Any) -> int:
    return 1


@pytest.fixture
def threads() -> Iterator[cf.ThreadPoolExecutor]:
    with cf.ThreadPoolExecutor(2) as ex:
        yield ex


# ---------------------------------------------------------------------------
# 1. chunksize
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [-1, 0, "3", 1.5, True])
def test_a_chunk_size_not_a_positive_whole_number_is_refused_before_any_job_runs(
        threads: cf.ThreadPoolExecutor, size: Any) -> None:
    """docs/batch.md (jobs travel in chunks, ``chunksize=`` to choose; the
    command's ``--chunksize N`` is 1 or more): a chunk holds a positive
    number of jobs, and a bad argument fails before any job runs.
    ``chunksize=-1`` used to yield no outcome at all, silently; ``"3"`` was
    a bare ``TypeError``, ``1.5`` was taken."""
    ran: list[int] = []

    def progress(done: int, total: int | None, outcome: Any) -> None:
        ran.append(done)

    with pytest.raises(BadQueryError, match=r"chunksize is .*positive whole number"):
        simulate(_pairs(), executor=threads, chunksize=size, progress=progress)
    with pytest.raises(BadQueryError, match="chunksize"):
        simulate(_pairs(), executor=threads, chunksize=size, score=_one, reduce=operator.add,
                 initial=0)
    with pytest.raises(BadQueryError, match="chunksize"):
        simulate(_pairs(), chunksize=size)  # serially too, as the command refuses it
    assert ran == []


def test_a_positive_chunk_size_still_runs_every_job(threads: cf.ThreadPoolExecutor) -> None:
    """docs/batch.md: ``chunksize=`` chooses the chunk size; every job gets
    its outcome, in input order, whatever it is."""
    got = simulate(_pairs(5), executor=threads, chunksize=2, score=_one, reduce=operator.add,
                   initial=0)
    assert (got.value, got.jobs) == (5, 5)


# ---------------------------------------------------------------------------
# 2. LightOutcome.deaths and a new object (400.7)
# ---------------------------------------------------------------------------


def test_704_5g_a_creature_that_died_and_came_back_is_among_the_deaths() -> None:
    """704.5g: a creature dealt lethal damage is destroyed; 702.93a undying
    returns it to the battlefield, and 400.7 makes it a new object with no
    memory of the old one. The light outcome's ``deaths`` counts the
    permanent that died even though its id is on the battlefield again."""
    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("ogre", "alice", 3, 3),
                                           c("wolf", "bob", 2, 2, "undying")])
    job = (state, {"attacks": {"ogre": "bob"}, "blocks": {"wolf": "ogre"}})
    full, = simulate([job], engine=engine)
    wolf = full.outcome["permanents"]["wolf"]
    assert (wolf["zone"], wolf["counters"]) == ("battlefield", {"+1/+1": 1})  # it came back
    light, = simulate([job], engine=engine, outcome="light")
    assert light.deaths == ("wolf",)  # the ogre, dealt 2, survives


# ---------------------------------------------------------------------------
# 3. A JSON-lines row torn inside a multi-byte UTF-8 character
# ---------------------------------------------------------------------------


@pytest.fixture
def accents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two files, one of them named with a two-byte UTF-8 character."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "uni"
    folder.mkdir()
    shutil.copy(EXAMPLES / "undying.toml", folder / "a.toml")
    shutil.copy(EXAMPLES / "undying.toml", folder / "ééé.toml")
    return folder


def _torn_in_the_e(whole: bytes) -> bytes:
    """The first row, and the second cut after the first byte of its ``é``."""
    first, second = whole.split(b"\n")[:2]
    at = second.index("é".encode())
    return first + b"\n" + second[:at + 1]


def test_done_keys_leaves_out_a_row_torn_inside_a_character(accents: Path) -> None:
    """docs/batch.md (``resume=True``): a JSON-lines row torn by a killed run
    is cut off and its job runs again; only the whole rows are done."""
    files = scenario_files([accents])
    out = accents.parent / "o.jsonl"
    list(simulate(files, sink=out))
    out.write_bytes(_torn_in_the_e(out.read_bytes()))
    assert done_keys(out) == {files[0]}


def test_simulate_resumes_from_a_row_torn_inside_a_character(accents: Path) -> None:
    """docs/batch.md (``resume=True``): the torn row is cut off and its job
    runs again, once: the file is then the whole run's, byte for byte."""
    files = scenario_files([accents])
    out = accents.parent / "o.jsonl"
    list(simulate(files, sink=out))
    whole = out.read_bytes()
    out.write_bytes(_torn_in_the_e(whole))
    again = list(simulate(files, sink=out, resume=True))
    assert [o.source for o in again] == [files[1]]
    assert out.read_bytes() == whole


def test_redzone_batch_resumes_from_a_row_torn_inside_a_character(accents: Path) -> None:
    """docs/batch.md (``--resume``): a JSON-lines file cut mid-line by a
    killed run is cut back to its last whole row first, and that file runs
    again."""
    out = accents.parent / "o.jsonl"
    first = CliRunner().invoke(cli, ["batch", "--out", str(out), "uni"])
    assert first.exit_code == 0, first.output
    whole = out.read_bytes()
    out.write_bytes(_torn_in_the_e(whole))
    again = CliRunner().invoke(cli, ["batch", "--resume", "--out", str(out), "uni"])
    assert again.exit_code == 0, again.output
    assert out.read_bytes() == whole


# ---------------------------------------------------------------------------
# 4. A path as given
# ---------------------------------------------------------------------------


@pytest.fixture
def edge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder ``edge`` of one good file and one bad one, the current folder
    its parent."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "edge"
    folder.mkdir()
    shutil.copy(EXAMPLES / "undying.toml", folder / "good.toml")
    (folder / "bad.toml").write_text("this is = = not toml", encoding="utf-8")
    return folder


def test_scenario_files_keeps_a_file_path_as_given(edge: Path) -> None:
    """docs/batch.md (the job key): a scenario file's path as given
    (``boards/a.toml`` and ``./boards/a.toml`` are two keys); the files found
    in a folder are listed as before."""
    assert scenario_files(["./edge/good.toml", "edge//bad.toml", "edge/good.toml"]) == [
        "./edge/good.toml", "edge//bad.toml", "edge/good.toml"]
    assert scenario_files([Path("edge") / "good.toml"]) == ["edge/good.toml"]
    assert scenario_files(["./edge"]) == ["edge/bad.toml", "edge/good.toml"]


def test_redzone_batch_names_a_file_as_redzone_run_does(edge: Path) -> None:
    """docs/batch.md (``redzone batch``): each line's ``outcome`` is what
    ``redzone run --json`` prints for that file, its ``file`` the path as
    given."""
    batch = CliRunner().invoke(cli, ["batch", "./edge/bad.toml", "--json"])
    run = CliRunner().invoke(cli, ["run", "./edge/bad.toml", "--json"])
    line = json.loads(batch.stdout.splitlines()[0])
    assert line["file"] == "./edge/bad.toml"
    assert line["outcome"] == json.loads(run.stdout)
    assert line["outcome"]["error"]["message"].startswith("./edge/bad.toml:1: ")


def test_resume_knows_a_file_given_as_a_path_in_a_list_of_the_same_spelling(
        edge: Path) -> None:
    """docs/batch.md (``--resume``): the rows already there are kept and
    their files skipped, a file being known by its path as given: the same
    spelling given as a PATH and then in ``--files-from`` runs once."""
    out = edge.parent / "dot.jsonl"
    CliRunner().invoke(cli, ["batch", "./edge/good.toml", "--out", str(out)])
    (edge.parent / "list.txt").write_text("./edge/good.toml\n", encoding="utf-8")
    CliRunner().invoke(cli, ["batch", "--files-from", "list.txt", "--out", str(out),
                             "--resume"])
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["file"] for r in rows] == ["./edge/good.toml"]


# ---------------------------------------------------------------------------
# 5. Arguments of the wrong type
# ---------------------------------------------------------------------------


def test_a_through_of_the_wrong_type_is_a_bad_job() -> None:
    """docs/batch.md (``simulate``): decisions with a value of the wrong type
    are a ``bad_job`` outcome with status 2; a ``through`` that is a str but
    no end of the turn stays the engine's own refusal (500.1, status 1)."""
    jobs = [(state, {**d, "through": t}) for (state, d), t in zip(_pairs(2), [5, "bogus"],
                                                                    strict=True)]
    wrong, unknown = simulate(jobs)
    assert (wrong.status, wrong.kind) == (2, "bad_job")
    assert wrong.outcome["error"]["message"] == (
        "job 0: decisions['through'] = 5 is not what Engine.resolve takes (a str is wanted, "
        "got int)")
    assert (unknown.status, unknown.kind) == (1, "illegal_action")


@pytest.mark.parametrize("rules", [5, b"M10", ["M10"]])
def test_rules_not_a_str_is_refused_before_any_job_runs(rules: Any) -> None:
    """docs/batch.md: ``rules`` is a rules edition (as ``redzone run
    --rules``); one that is not a str is a bad query, not every job's
    ``internal_error``."""
    with pytest.raises(BadQueryError, match=r"simulate: rules is .*rules edition"):
        simulate([str(EXAMPLES / "undying.toml")], rules=rules)


@pytest.mark.parametrize("engine", ["x", 5, Engine])
def test_an_engine_that_is_no_engine_is_refused_before_any_job_runs(engine: Any) -> None:
    """docs/batch.md: ``engine=`` is the :class:`redzone.Engine` the jobs are
    resolved with; anything else is a bad query naming it, not a bare
    ``AttributeError``."""
    with pytest.raises(BadQueryError, match=r"simulate: engine is .*not an Engine"):
        simulate(_pairs(), engine=engine)
