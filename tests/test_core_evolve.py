"""The kernel copies its values one way, each value class's own ``evolve``
(:class:`redzone.kernel.frozen.Copyable`), and that copy is
:func:`attrs.evolve`'s: for every value class of the kernel, on instances
from the bundled examples and built from scratch, with any fields changed,
the two copies are equal, hold values of the same types (the changed fields
went through their converters), hash alike, and read the same derived
values (a cached property whose inputs changed is recomputed, not carried).
A class whose ``__init__`` does more than set fields is refused on its first
copy with a ``TypeError`` that says why, rather than copied wrong; no kernel
class is such. The kernel itself never copies through :func:`attrs.evolve`.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import redzone.kernel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, examples
from redzone.formats.outcome import resolve
from redzone.formats.scenario import load
from redzone.kernel.frozen import Copyable, FrozenMap, cached_properties, refusal
from redzone.kernel.model import GameState
from redzone.kernel.references import Ref

#: Not a value: the mark a field's annotation carries (never copied), whose
#: check of its kind runs in ``__attrs_post_init__``.
_NOT_VALUES = {Ref}


def _kernel_classes() -> list[type]:
    found: list[type] = []
    for info in pkgutil.iter_modules(redzone.kernel.__path__):
        module = importlib.import_module(f"redzone.kernel.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and attrs.has(value) \
                    and value.__module__ == module.__name__ and value not in found:
                found.append(value)
    return found


#: The modules whose attrs classes are values a state holds, a hook passes or
#: a command returns: each is :class:`Copyable`.
_VALUE_MODULES = ("model", "hooktypes", "results", "context", "actions", "abilities")

CLASSES = [c for c in _kernel_classes() if c not in _NOT_VALUES and issubclass(c, Copyable)]


def _guess(annotation: object) -> Any:
    """A value of a required field, by its annotation's text."""
    text = str(annotation)
    for start, value in (("Callable", lambda *_a: None), ("tuple", ()),
                         ("frozenset", frozenset()), ("FrozenMap", {}), ("Mapping", {}),
                         ("dict", {}), ("bool", True), ("int", 1), ("str", "x")):
        if text.startswith(start):
            return value
    return "x"  # the reference aliases (PlayerId, ObjectId ...) are strings


def _built(cls: type) -> Any:
    return cls(**{f.name: _guess(f.type) for f in attrs.fields(cls)
                  if f.init and f.default is attrs.NOTHING})


def _walk(value: Any, into: dict[type, list[Any]], seen: set[int]) -> None:
    if id(value) in seen:
        return
    seen.add(id(value))
    if attrs.has(type(value)):
        if type(value) in into:
            into[type(value)].append(value)
        for f in attrs.fields(type(value)):
            _walk(getattr(value, f.name), into, seen)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            _walk(item, into, seen)
    elif isinstance(value, (dict, FrozenMap)):
        for item in value.values():
            _walk(item, into, seen)


def _pool() -> dict[type, list[Any]]:
    """Instances of every kernel value class: one built from scratch, and
    every one the bundled examples hold or resolve to."""
    pool: dict[type, list[Any]] = {cls: [_built(cls)] for cls in CLASSES}
    seen: set[int] = set()
    for name in examples.names():
        scenario = load(examples.path(name))
        _walk(scenario, pool, seen)
        _walk(resolve(scenario), pool, seen)
    engine = Engine()
    _walk((engine.context, tuple(engine.hooks.keyword_infos.values())), pool, seen)
    return pool


POOL = _pool()


def _raw(value: Any) -> Any:
    """``value`` in a form a converter turns back (a list for a tuple, a
    dict for a map, a set for a frozenset), else itself."""
    if type(value) is tuple:
        return list(value)
    if type(value) is FrozenMap:
        return dict(value)
    if type(value) is frozenset:
        return set(value)
    return value


@st.composite
def _copies(draw: Callable[..., Any]) -> tuple[Any, dict[str, Any]]:
    cls = draw(st.sampled_from(CLASSES))
    instances = POOL[cls]
    inst = draw(st.sampled_from(instances))
    names = [f.name for f in attrs.fields(cls)]
    changed = draw(st.lists(st.sampled_from(names), unique=True,
                            max_size=len(names))) if names else []
    changes = {}
    for name in changed:
        value = getattr(draw(st.sampled_from(instances)), name)
        changes[name] = _raw(value) if draw(st.booleans()) else value
    return inst, changes


def _compute_derived(inst: Any) -> None:
    for name in cached_properties(type(inst)):
        with contextlib.suppress(Exception):  # a value built from scratch may not have it
            getattr(inst, name)


#: Derived values of the state documented as supersets of what a fresh
#: computation gives (``GameState.object_flags``, ``keyword_names_present``:
#: the gates read them, and asking a plugin too often is still correct).
SUPERSETS = ("object_flags", "keyword_names_present")


def _derived(inst: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in cached_properties(type(inst)):
        try:
            out[name] = getattr(inst, name)
        except Exception as exc:  # compared as an outcome
            out[name] = type(exc)
    return out


def test_every_kernel_value_class_is_copied_by_evolve() -> None:
    """Every value class of the kernel has its own evolve, none is one
    evolve refuses, and each one has instances to copy below."""
    values = [c for c in _kernel_classes()
              if c.__module__.rsplit(".", 1)[-1] in _VALUE_MODULES and c not in _NOT_VALUES]
    assert values and [c for c in values if not issubclass(c, Copyable)] == []
    assert {cls: refusal(cls) for cls in CLASSES if refusal(cls)} == {}
    for cls in CLASSES:
        assert POOL[cls], cls


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_copies())
def test_evolve_copies_what_attrs_evolve_copies(copy: tuple[Any, dict[str, Any]]) -> None:
    """evolve is attrs.evolve: equal copies, each field of the type
    attrs.evolve's converters give it, the same hash, and the same derived
    values (the ones computed on the original before the copy are carried
    only where their inputs didn't change)."""
    inst, changes = copy
    _compute_derived(inst)  # every derived value computed, so each one could be carried
    ours = inst.evolve(**changes)
    theirs = attrs.evolve(inst, **changes)
    assert type(ours) is type(theirs)
    for f in attrs.fields(type(inst)):
        assert type(getattr(ours, f.name)) is type(getattr(theirs, f.name)), f.name
        assert getattr(ours, f.name) == getattr(theirs, f.name), f.name
    assert ours == theirs
    try:
        expected: object = hash(theirs)
    except TypeError:
        expected = TypeError
    try:
        got: object = hash(ours)
    except TypeError:
        got = TypeError
    assert got == expected
    mine, fresh = _derived(ours), _derived(theirs)
    for name in SUPERSETS:
        # (documented as correct supersets: a state built from one whose
        # objects since left or lost a flag may keep it; never fewer)
        if name in mine and isinstance(fresh[name], frozenset):
            assert mine.pop(name) >= fresh.pop(name), name
    assert mine == fresh


def _positive(_inst: object, _attribute: object, value: int) -> None:
    if value <= 0:
        raise ValueError("not positive")


@attrs.frozen
class _Validated(Copyable):
    amount: int = attrs.field(validator=_positive)


@attrs.frozen(slots=False)
class _PostInit(Copyable):
    amount: int

    def __attrs_post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError("not positive")


@pytest.mark.parametrize(("inst", "why"), [
    (_Validated(1), "field 'amount' has a validator"),
    (_PostInit(1), "it has __attrs_post_init__"),
])
def test_a_class_evolve_cant_copy_is_refused_with_why(inst: Any, why: str) -> None:
    """A copy without ``__init__`` would skip the class's check, so evolve
    refuses the class on its first copy, naming it and what it has, and
    makes no copy (the caller uses attrs.evolve, which runs the check)."""
    for _ in range(2):  # refused each time, never cached as copyable
        with pytest.raises(TypeError, match=why) as err:
            inst.evolve(amount=-1)
        assert type(inst).__qualname__ in str(err.value)
    assert type(inst).__dict__["evolve"] is Copyable.evolve  # no copy installed
    with pytest.raises(ValueError, match="not positive"):
        attrs.evolve(inst, amount=-1)


def test_a_copy_is_one_call_to_the_class_own_method() -> None:
    """After its first copy, a class's ``evolve`` is the code generated for
    it, installed on it; a subclass doesn't inherit it but gets its own,
    which builds the subclass."""
    state = Engine().game(["alice", "bob"])
    assert state.evolve(turn=2).turn == 2
    made = GameState.__dict__["evolve"]
    assert made is not Copyable.evolve
    assert made.__code__.co_filename == \
        "<redzone generated evolve redzone.kernel.model.GameState>"

    @attrs.frozen(slots=False)
    class Base(Copyable):
        amount: int

    @attrs.frozen(slots=False)
    class Later(Base):
        note: str = ""

    assert Base(1).evolve(amount=2) == Base(2)
    copied = Later(1).evolve(note="x", amount=3)
    assert type(copied) is Later and copied == Later(3, "x")
    assert Later.__dict__["evolve"] is not Base.__dict__["evolve"]


def test_the_kernel_never_copies_through_attrs_evolve() -> None:
    """The kernel's modules copy by the values' own ``evolve``, one
    mechanism (attrs.evolve stays valid for users: the tests above)."""
    kernel = Path(redzone.kernel.__file__).parent
    users = [p.name for p in sorted(kernel.glob("*.py"))
             if "attrs.evolve(" in p.read_text() or "import evolve" in p.read_text()]
    assert users == []
