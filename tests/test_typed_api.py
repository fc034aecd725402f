"""The public API as a ``mypy --strict`` user sees it (docs/api.md, docs/batch.md,
docs/enumeration.md are the contract of what a call takes and returns).

The typed programs of ``tests/typing/`` are checked by the project's
``mypy`` run (``[tool.mypy] files``); these tests check what a run-time look
can show, and run ``mypy --strict`` once on a small program for what only a
type checker sees: a score function typed for the other kind of outcome, a
score's type, a progress or sink callback typed for the one kind a call
hands over.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import redzone
import redzone.testing
from redzone.execution import Cell, JobOutcome, LightOutcome, Reduced, Scored, WhatIf
from redzone.execution.sinks import Progress, Sink

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_names_are_importable_from_redzone() -> None:
    """docs/api.md: "Every public name is importable from ``redzone``
    itself". ``EngineMismatchError`` (raised by commands, docs/embedding.md),
    ``Printed`` (what :func:`redzone.copiable_values` returns, 707.2) and
    ``Namer`` (what :meth:`redzone.EventKind.phrase` takes) are among them,
    each the object its module defines."""
    from redzone.kernel.errors import EngineMismatchError
    from redzone.kernel.events import Namer
    from redzone.kernel.model import Printed

    assert redzone.EngineMismatchError is EngineMismatchError
    assert redzone.Printed is Printed
    assert redzone.Namer is Namer
    assert {"EngineMismatchError", "Namer", "Printed"} <= set(redzone.__all__)


def test_the_test_kit_has_a_stub_of_exactly_its_names() -> None:
    """``redzone.testing`` finds its conformance names lazily (a module
    ``__getattr__``, which lets a type checker take any misspelt name as
    ``Any``); its stub ``__init__.pyi`` imports each public name from its
    module and lists exactly ``redzone.testing.__all__``, with no
    ``__getattr__``."""
    stub = ROOT / "core" / "redzone" / "testing" / "__init__.pyi"
    assert stub.is_file()
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    (listed,) = [ast.literal_eval(node.value) for node in tree.body
                 if isinstance(node, ast.Assign)
                 and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__all__"]]
    assert sorted(listed) == sorted(redzone.testing.__all__)
    imported = {alias.asname or alias.name for node in tree.body
                if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert imported == set(redzone.testing.__all__)
    assert not [node for node in tree.body if isinstance(node, ast.FunctionDef)]


@pytest.mark.parametrize("generic", [Scored, Reduced, Cell, WhatIf])
def test_what_carries_a_score_is_generic_in_it(generic: type) -> None:
    """A :class:`Scored`, :class:`Reduced`, :class:`Cell` or :class:`WhatIf`
    carries what the caller's score function returned: each is generic in
    that type (``Scored[int]``), so the score is not ``Any`` to a type
    checker."""
    assert generic[int].__origin__ is generic  # type: ignore[index]


def test_progress_and_sink_are_generic_in_what_is_handed_over() -> None:
    """A ``progress=`` callback and a ``sink=`` object are typed for the
    kind of outcome the call hands over (docs/batch.md, "Sink, resume and
    progress"): ``Progress[JobOutcome]``, ``Sink[LightOutcome]``."""
    assert Progress[JobOutcome].__args__[-2] is JobOutcome  # type: ignore[misc]
    assert Sink[LightOutcome].__origin__ is Sink  # type: ignore[misc]


PROGRAM = '''\
from __future__ import annotations

import redzone
from redzone.execution import JobOutcome, LightOutcome, what_if

engine = redzone.Engine()
state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)])
jobs = [(state, {"attacks": {"bear": "bob"}})]


def light(out: LightOutcome) -> int:
    return out.lives["bob"]


def full(out: JobOutcome) -> str:
    return out.kind


def add(a: int, b: int) -> int:
    return a + b


def show(done: int, total: int | None, outcome: JobOutcome) -> None:
    pass


class Rows:
    def write(self, outcome: LightOutcome) -> None:
        pass

    def close(self) -> None:
        pass


mode: str = "light"
reveal_type([s.value for s in redzone.simulate(jobs, engine=engine, outcome="light",
                                               score=light)])
reveal_type([s.value for s in redzone.simulate(jobs, engine=engine, score=full)])
reveal_type(redzone.simulate(jobs, engine=engine, outcome="light", score=light,
                             reduce=add).value)
reveal_type([c.score for c in what_if(state, {"attacks": {"bear": "bob"}}, score=light)])
reveal_type(redzone.simulate(jobs, engine=engine, outcome=mode))
redzone.simulate(jobs, engine=engine, progress=show)
redzone.simulate(jobs, engine=engine, outcome="light", sink=Rows())
redzone.simulate(jobs, engine=engine, score=light)  # E: a LightOutcome score, full outcomes
what_if(state, {"attacks": {"bear": "bob"}}, score=light, outcome="json")  # E: likewise
redzone.simulate(jobs, engine=engine, sink=Rows())  # E: a LightOutcome sink, full outcomes
'''


def test_mypy_ties_the_score_progress_and_sink_to_the_outcome_asked_for(
        tmp_path: Path) -> None:
    """docs/batch.md: ``score=f`` is given each job's outcome as ``outcome``
    says (a :class:`JobOutcome` by default, a :class:`LightOutcome` with
    ``outcome="light"``; :func:`what_if`'s default is light), and what it
    returns is each :class:`Scored`'s value; ``progress`` and ``sink`` get
    what is handed over. Under ``mypy --strict``: the scores have the score
    function's type, a callback typed for the kind handed over is accepted,
    one typed for the other kind is an error, and ``outcome=`` a ``str``
    chosen at run time gives the union."""
    pytest.importorskip("mypy", reason="mypy (the dev extra) is not installed")
    program = tmp_path / "program.py"
    program.write_text(PROGRAM, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(ROOT / "core"),
                                                      str(ROOT / "plugins")])}
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                          "--hide-error-context", "--no-pretty", "--cache-dir",
                          str(tmp_path / "cache"), "--config-file", os.devnull, program.name],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    lines = PROGRAM.splitlines()
    seen: dict[int, list[str]] = {}
    for line in run.stdout.splitlines():
        if line.startswith(f"{program.name}:"):
            _, number, what = line.split(":", 2)
            seen.setdefault(int(number), []).append(what.strip())
    revealed = [" ".join(w) for n, w in sorted(seen.items())
                if all(x.startswith("note: Revealed type is") for x in w)]
    assert [text.removeprefix("note: Revealed type is ").replace("builtins.", "")
            for text in revealed] == [
        '"list[int]"', '"list[str]"', '"int"', '"list[int]"',
        '"typing.Iterator[redzone.execution.jobs.JobOutcome | '
        'redzone.execution.jobs.LightOutcome]"',
    ], run.stdout
    errors = sorted(n for n, w in seen.items()
                    if any(x.startswith("error:") for x in w))
    expected = [n for n, text in enumerate(lines, 1) if text.endswith(
        ("full outcomes", "# E: likewise"))]
    assert errors == expected, textwrap.indent(run.stdout, "  ")
