"""Value classes built on first use (``redzone.kernel.frozen.lazy_frozen``):
a class is an ordinary attrs frozen class from its first use on, whatever
that use is, and the kernel's classes a plain combat never uses are never
built by a run."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import attrs
import pytest
from attrs.exceptions import FrozenInstanceError
from hypothesis import given
from hypothesis import strategies as st
from redzone.kernel import frozen
from redzone.kernel.frozen import Copyable, as_tuple, built, lazy_frozen


def _pair() -> tuple[type, type]:
    """The same class body, built lazily and by attrs at once."""

    def body() -> dict[str, Any]:
        return {"__annotations__": {"name": "str", "tags": "tuple[str, ...]", "n": "int"},
                "tags": attrs.field(default=(), converter=as_tuple), "n": 0}

    lazy = lazy_frozen(type("Lazy", (Copyable,), body()))
    eager = attrs.frozen(slots=False)(type("Eager", (Copyable,), body()))
    return lazy, eager


def test_a_class_is_built_by_its_first_use_whatever_it_is() -> None:
    """Each use builds the class: making an instance, reading its attrs
    fields, asking whether it is an attrs class, evolving one."""
    uses = [lambda cls: cls("x"), attrs.fields, attrs.has,
            lambda cls: attrs.evolve(cls("x"), n=2), lambda cls: cls.__match_args__]
    for use in uses:
        lazy, _ = _pair()
        assert not built(lazy)
        use(lazy)
        assert built(lazy) and attrs.has(lazy)


def test_a_lazily_built_class_is_the_class_attrs_builds() -> None:
    """Its fields, converters, defaults, equality, hash, ``repr``,
    immutability and copies are those of the same class built by attrs."""
    lazy, eager = _pair()
    a, b = lazy("x", ["t"]), eager("x", ["t"])
    assert [(f.name, f.default, f.converter) for f in attrs.fields(lazy)] == \
        [(f.name, f.default, f.converter) for f in attrs.fields(eager)]
    assert a.tags == ("t",) and a == lazy("x", ("t",)) and a != lazy("y")
    assert hash(a) == hash(lazy("x", ("t",)))
    assert repr(a) == repr(b).replace("Eager", "Lazy")
    with pytest.raises(FrozenInstanceError):
        a.n = 3  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del a.n  # type: ignore[misc]
    assert a.evolve(n=2) == attrs.evolve(a, n=2) == lazy("x", ("t",), 2)
    assert lazy.__match_args__ == eager.__match_args__ == ("name", "tags", "n")


@lazy_frozen
class Point(Copyable):
    """A class statement under the decorator, at module level (to pickle)."""

    name: str
    tags: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    n: int = 0


_TEXT = st.text(max_size=4)


@given(first=st.tuples(_TEXT, st.lists(_TEXT, max_size=3), st.integers()),
       second=st.tuples(_TEXT, st.lists(_TEXT, max_size=3), st.integers()),
       fresh=st.booleans())
def test_values_compare_hash_and_print_as_attrs_values_do(
        first: tuple[str, list[str], int], second: tuple[str, list[str], int],
        fresh: bool) -> None:
    """Property: for any field values, two values of a class built on first
    use are equal, hash alike and print alike exactly when two values of the
    same class built by attrs are, whether the class was built by this
    comparison or before it."""
    lazy, eager = _pair()
    if not fresh:
        frozen.build(lazy)
    a, b = lazy(*first), lazy(*second)
    x, y = eager(*first), eager(*second)
    assert (a == b) is (x == y) and (a != b) is (x != y)
    assert a != b or hash(a) == hash(b)  # (equal values hash alike, as attrs makes them)
    assert repr(a) == repr(x).replace("Eager", "Lazy", 1)
    assert a.evolve(n=first[2] + 1) == lazy(first[0], first[1], first[2] + 1)


def test_a_lazily_built_instance_pickles_and_copies() -> None:
    """A value of a class built on first use round-trips through pickle (a
    batch sends states to worker processes) and copies as it is."""
    import copy

    point = Point("x", ["t"], 2)
    assert pickle.loads(pickle.dumps(point)) == point
    assert copy.deepcopy(point) == point and copy.copy(point) == point
    assert Point.__dict__["__init__"].__code__.co_filename.startswith("<attrs generated")


def test_an_instance_made_without_init_compares_by_value() -> None:
    """An instance made before its class is built, without ``__init__`` (as
    unpickling makes one in a fresh process), compares, hashes and prints
    by its fields: its first comparison builds the class."""
    lazy, _ = _pair()
    ghost = object.__new__(lazy)
    ghost.__dict__.update(name="x", tags=(), n=0)
    assert not built(lazy)
    assert ghost == lazy("x") and hash(ghost) == hash(lazy("x"))
    assert repr(ghost).startswith("Lazy(name='x'")


def test_a_subclass_built_by_attrs_builds_its_base() -> None:
    """attrs reads a base's fields as it builds a subclass: the base is built
    then, and the subclass has its fields."""
    lazy, _ = _pair()

    @attrs.frozen(slots=False)
    class Sub(lazy):  # type: ignore[valid-type, misc]
        extra: int = 1

    assert built(lazy)
    assert [f.name for f in attrs.fields(Sub)] == ["name", "tags", "n", "extra"]
    assert Sub("x", extra=2) == Sub("x", (), 0, 2)


def test_threads_build_a_class_once() -> None:
    """Threads that first use a class together build it once, under a lock:
    every one gets a working instance."""
    lazy, _ = _pair()
    builds = []
    real = attrs.frozen

    def counting(*args: Any, **kwargs: Any) -> Any:
        builds.append(1)
        return real(*args, **kwargs)

    made: list[Any] = []
    barrier = threading.Barrier(8)

    def use() -> None:
        barrier.wait()
        made.append(lazy("x"))

    attrs.frozen = counting  # type: ignore[assignment]
    try:
        threads = [threading.Thread(target=use) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        attrs.frozen = real  # type: ignore[assignment]
    assert len(builds) == 1 and len(made) == 8 and all(m == lazy("x") for m in made)


def test_a_thread_using_a_class_while_another_builds_it_waits_for_the_build() -> None:
    """A thread that uses a class while another thread is building it (attrs
    writing its methods) waits for the build and gets a working instance: it
    never finds ``object``'s methods in place of the class's (an instance
    that took no arguments, then a ``TypeError``)."""
    lazy, plain = _pair()
    real = attrs.frozen
    trying = threading.Event()
    made: list[Any] = []
    failed: list[BaseException] = []
    others: list[threading.Thread] = []

    def use() -> None:
        trying.set()
        try:
            made.append(lazy("x", ("t",), 2))
        except BaseException as exc:  # (reported by the assertion below)
            failed.append(exc)

    def slow(*args: Any, **kwargs: Any) -> Any:
        def build(cls: type) -> Any:
            other = threading.Thread(target=use)
            others.append(other)
            other.start()
            trying.wait(5)
            other.join(0.2)  # it waits on the build (joining times out) or failed
            return real(*args, **kwargs)(cls)
        return build

    attrs.frozen = slow  # type: ignore[assignment]
    try:
        made.append(lazy("y"))
    finally:
        attrs.frozen = real  # type: ignore[assignment]
    for other in others:
        other.join(5)
    assert not failed, failed
    assert [attrs.asdict(m) for m in made] == [attrs.asdict(plain("y")),
                                               attrs.asdict(plain("x", ("t",), 2))]


def test_a_class_attrs_refuses_fails_at_each_use_and_stays_unbuilt() -> None:
    """A class attrs can't build (a field without a default after one with
    a default) raises attrs' error at its first use, and at the next: it
    isn't left half built."""
    broken = lazy_frozen(type("Broken", (), {"__annotations__": {"a": "int", "b": "int"},
                                             "a": 0}))
    for _ in range(2):
        with pytest.raises(ValueError, match="No mandatory attributes allowed after"):
            broken(1, 2)
        assert not built(broken)


def test_slots_are_refused() -> None:
    """A class with slots would be a new class object, which references
    taken before the build wouldn't be: asked for, it is a TypeError. So is
    a class deriving from a class with slots: it would pickle as its base
    does, without the fields it adds (a batch's worker would get values
    missing them)."""
    with pytest.raises(TypeError, match="no slots"):
        lazy_frozen(slots=True)

    @attrs.frozen
    class Base:
        a: int = 0

    with pytest.raises(TypeError, match="derives from Base, which has slots"):
        lazy_frozen(type("Derived", (Base,), {"__annotations__": {"b": "int"}, "b": 0}))


def test_a_plain_run_builds_none_of_the_value_classes_it_never_uses() -> None:
    """Cold start: ``redzone run --json`` on a 1 v 1 file builds no trigger,
    effect, choice, replacement or violation class, no layered values (no
    effect applies) and no activation (no action is taken); what it prints is what
    a run that built every class first prints."""
    code = (
        "import sys, json\n"
        "from redzone.frontends import cli\n"
        "from redzone.kernel import frozen\n"
        "if sys.argv[2] == 'all':\n"
        "    for cls in list(frozen._UNBUILT):\n"
        "        frozen.build(cls)\n"
        "cli.main(['run', '--json', sys.argv[1]])\n"
        "print(json.dumps(sorted(c.__name__ for c in frozen._UNBUILT)), file=sys.stderr)\n")
    scenario = str(Path(__file__).resolve().parent.parent / "benchmarks" / "one-v-one.toml")
    runs = {how: subprocess.run([sys.executable, "-c", code, scenario, how],
                                capture_output=True, text=True, check=True)
            for how in ("first-use", "all")}
    unbuilt = set(json.loads(runs["first-use"].stderr.strip().splitlines()[-1]))
    assert {"Trigger", "DelayedTrigger", "ContinuousEffect", "Shield", "Choice", "Prevention",
            "Redirection", "DamageModifier", "Violation", "SourceAssignment", "Printed",
            "Layered", "Activate"} <= unbuilt
    assert json.loads(runs["all"].stderr.strip().splitlines()[-1]) == []
    assert json.loads(runs["first-use"].stdout)["ok"] is True
    assert runs["first-use"].stdout == runs["all"].stdout
