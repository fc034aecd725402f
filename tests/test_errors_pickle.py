"""Typed errors survive pickling: they cross process pools (the batch
runner's workers, an embedder's :class:`~concurrent.futures.ProcessPoolExecutor`),
so every exception class redzone defines comes back from
``pickle.loads(pickle.dumps(exc))`` with its type, ``str()``, ``args`` and
every public field equal (chained causes aside). An illegal-action error
still cites its rule (733: a rejected command, whose error names the rule it
broke, leaves the caller's state untouched) on the other side. An engine is
never pickled: its :class:`~redzone.execution.engines.EngineSpec` travels
instead, and pickling one says so.

The classes are found by walking the package, so a new one is covered
automatically; one whose ``__init__`` hypothesis can't fill from its
annotations gets a strategy in :data:`STRATEGIES`.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import inspect
import multiprocessing
import pickle
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redzone
from hypothesis import given
from hypothesis import strategies as st
from redzone import Engine
from redzone.formats.document import ScenarioProblems
from redzone.kernel.errors import (
    BoundError,
    IllegalActionError,
    RulesError,
    ScenarioError,
    Violation,
)
from redzone.testing.golden import GoldenMismatch


def exception_classes() -> list[type[BaseException]]:
    """Every exception class a module of ``redzone`` defines (private ones
    too), each once, in a stable order."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(redzone.__path__, "redzone."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if (inspect.isclass(obj) and issubclass(obj, BaseException)
                    and obj.__module__ == info.name):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[name] for name in sorted(found)]


CLASSES = exception_classes()

_words = st.text(max_size=12)
_violations = st.builds(Violation, _words, _words, st.lists(_words, max_size=3), _words)
_scenario_errors = st.builds(ScenarioError, _words, file=_words, key=_words,
                             line=st.none() | st.integers(0, 10_000))


def _illegal(cls: type[BaseException]) -> st.SearchStrategy[BaseException]:
    return st.builds(cls, st.lists(_violations, min_size=1, max_size=4) | _words,
                     rule=_words, objects=st.lists(_words, max_size=3))


def _problems(cls: type[BaseException]) -> st.SearchStrategy[BaseException]:
    return st.builds(cls, st.lists(_scenario_errors, min_size=1, max_size=4))


def _golden(cls: type[BaseException]) -> st.SearchStrategy[BaseException]:
    files = st.from_regex(r"[a-z]{1,8}\.toml", fullmatch=True).map(Path)
    return st.builds(cls, files, st.lists(_words, max_size=25), _words)


def _plain(cls: type[BaseException]) -> st.SearchStrategy[BaseException]:
    return st.lists(_words, max_size=3).map(lambda args: cls(*args))


#: Strategies for the ``__init__`` methods hypothesis can't fill from their
#: annotations alone (at least one violation, one problem, a scenario file
#: with a name); a subclass that
#: keeps its base's ``__init__`` uses its base's strategy.
STRATEGIES: dict[object, Callable[[type[BaseException]], st.SearchStrategy[BaseException]]] = {
    IllegalActionError.__init__: _illegal,
    ScenarioProblems.__init__: _problems,
    GoldenMismatch.__init__: _golden,
    BaseException.__init__: _plain,
    Exception.__init__: _plain,
    OSError.__init__: _plain,
}


def instances(cls: type[BaseException]) -> st.SearchStrategy[BaseException]:
    """Instances of ``cls``, made by its own ``__init__``."""
    make = STRATEGIES.get(cls.__init__)
    return make(cls) if make is not None else st.builds(cls)


def public_fields(exc: BaseException) -> dict[str, Any]:
    """Every public non-method attribute of ``exc`` (its ``args``, its own
    fields, its class's properties and class-level defaults)."""
    out: dict[str, Any] = {}
    for name in dir(exc):
        if name.startswith("_"):
            continue
        try:
            value = getattr(exc, name)
        except AttributeError:  # an OSError's unset characters_written
            continue
        if not callable(value) or isinstance(value, type):
            out[name] = value
    return out


def same(a: object, b: object) -> bool:
    """``a`` and ``b`` are equal, exceptions (which compare by identity)
    compared by type, ``str()`` and fields, within tuples and lists too."""
    if isinstance(a, BaseException) or isinstance(b, BaseException):
        return (type(a) is type(b) and str(a) == str(b)
                and same(public_fields(a), public_fields(b)))  # type: ignore[arg-type]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def assert_round_trip(exc: BaseException) -> None:
    """``exc`` comes back from pickle (every protocol) as itself."""
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(exc, protocol=protocol))
        assert type(back) is type(exc)
        assert str(back) == str(exc)
        assert back.args == exc.args
        mine, theirs = public_fields(exc), public_fields(back)
        assert mine.keys() == theirs.keys()
        for name in mine:
            assert same(theirs[name], mine[name]), name


def test_the_walk_finds_the_errors() -> None:
    """The walk finds the classes of every layer, so the test below can't
    pass by finding none."""
    names = {cls.__qualname__ for cls in CLASSES}
    assert {"RulesError", "BoundError", "UnaskedChoiceError", "ScenarioProblems",
            "StateFormatError", "ScoreError", "WorkersLost", "ConformanceError",
            "GoldenMismatch", "MetadataError", "UnknownExampleError"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__qualname__)
@given(data=st.data())
def test_every_error_survives_pickling(cls: type[BaseException], data: st.DataObject) -> None:
    """Every exception class redzone defines round-trips through pickle:
    type, ``str()``, ``args`` and every public field (an illegal action's
    rule and violations, 733; a bound's name and limit; a scenario's
    problems) equal, whatever its ``__init__`` takes."""
    assert_round_trip(data.draw(instances(cls)))


@pytest.mark.parametrize("make", [
    lambda: BoundError("the trigger bound", bound="triggers", limit=10_000, plugin="again",
                       distribution="d", hook="redzone_triggers"),
    lambda: redzone.UnaskedChoiceError(["bogus"], ["a.order", "b.block"]),
    lambda: ScenarioProblems([ScenarioError("power must be an int", file="f.toml",
                                            key="permanents[0].power", line=3),
                              ScenarioError("b", file="f.toml", key="k2", line=4)]),
    lambda: redzone.IllegalBlockError("b can't block a", rule="509.1b", objects=["b", "a"]),
    lambda: redzone.UnknownKeywordError("flyng", ["flying"]),
    lambda: ScenarioError("bad", file="", key=""),
], ids=["bound", "unasked", "problems", "block", "keyword", "scenario"])
def test_the_audited_errors(make: Callable[[], BaseException]) -> None:
    """The errors the audit found broken read the same after pickling: a
    block's citation of 509.1b and 601.2's unasked choices (a player makes
    the choices the game asks, no others) keep their rule and keys, a
    run-time bound its name and limit; no ``TypeError`` on loading, no
    `` (rule )`` or doubled prefix in ``str()``."""
    exc = make()
    back = pickle.loads(pickle.dumps(exc))
    assert str(back) == str(exc)
    assert back.args == exc.args
    assert_round_trip(exc)


def test_a_rejected_resolve_keeps_its_moment(engine: Engine) -> None:
    """733 (510.1e: the game returns to the moment before the illegal
    command): a command :meth:`Engine.resolve` rejected carries the partial
    result up to that moment, the command and its state; they survive
    pickling with the rule and the violations."""
    state = engine.game(["alice", "bob"], [engine.creature("a", "alice", 3, 3),
                                           engine.creature("b", "bob", 2, 2)])
    with pytest.raises(IllegalActionError) as caught:
        engine.resolve(state, {"a": "bob"}, {"b": ["zz"]})
    exc = caught.value
    assert exc.command == "declare_blockers" and exc.state is not None
    back = pickle.loads(pickle.dumps(exc))
    assert (back.command, back.state, back.partial) == (exc.command, exc.state, exc.partial)
    assert (back.rule, back.violations, str(back)) == (exc.rule, exc.violations, str(exc))
    assert_round_trip(exc)


def _raise_bound(limit: int) -> None:
    raise BoundError(f"more than {limit} abilities triggered", bound="triggers", limit=limit,
                     plugin="again", distribution="redzone-test", hook="redzone_triggers")


def test_a_bound_error_crosses_a_process_pool() -> None:
    """A run-time bound reached on a worker of a process pool reaches the
    caller as that :class:`BoundError`, its fields whole, and the pool goes
    on (it used to die: ``BrokenProcessPool``)."""
    with cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        with pytest.raises(BoundError) as caught:
            pool.submit(_raise_bound, 10).result(timeout=60)
        assert pool.submit(abs, -3).result(timeout=60) == 3
    exc = caught.value
    assert isinstance(exc, RulesError)
    assert (exc.bound, exc.limit, exc.plugin, exc.distribution, exc.hook) == (
        "triggers", 10, "again", "redzone-test", "redzone_triggers")
    assert str(exc) == "more than 10 abilities triggered"


def test_an_engine_refuses_pickling_naming_its_spec() -> None:
    """An engine is never pickled (docs/batch.md): pickling one is a
    ``TypeError`` (pickle's own protocol) that says to send its spec,
    naming ``spec_of``, instead of pickle's bare "cannot pickle 'module'"."""
    engine = Engine()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError, match=r"spec_of\(engine\)"):
            pickle.dumps(engine, protocol=protocol)
