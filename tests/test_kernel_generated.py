"""The code the kernel generates (each value class's own evolve) is registered
with :mod:`linecache`, as attrs registers its own: a traceback through it
shows the generated line, :func:`inspect.getsource` reads it, and each
generated function has a pseudo-filename of its own."""

from __future__ import annotations

import inspect
import linecache
import traceback
from typing import Any

import attrs
import pytest
from redzone import examples
from redzone.formats.outcome import resolve
from redzone.formats.scenario import load
from redzone.kernel.frozen import Copyable


def _strict_int(value: Any) -> int:
    if not isinstance(value, int):
        raise ValueError(f"not a whole number: {value!r}")
    return value


@attrs.frozen
class Slotted(Copyable):
    amount: int = attrs.field(converter=_strict_int)


@attrs.frozen(slots=False)
class Plain(Copyable):
    amount: int = attrs.field(converter=_strict_int)
    label: str = "x"


def _subclasses(cls: type) -> list[type]:
    return [cls, *(c for sub in cls.__subclasses__() for c in _subclasses(sub))]


def _traceback(fn: Any) -> str:
    try:
        fn()
    except (TypeError, ValueError):
        return traceback.format_exc()
    pytest.fail("no error")


@pytest.mark.parametrize(("cls", "line"), [
    (Slotted, "_set(new, name, value if conv is None else conv(value))"),
    (Plain, "d[name] = value if conv is None or type(value) is same else conv(value)"),
])
def test_a_converter_raising_in_the_fast_evolve_shows_the_generated_line(
        cls: type, line: str) -> None:
    """The traceback names the generated evolve of that class and prints the
    line that called the converter (not a bare ``File "<string>"``)."""
    text = _traceback(lambda: cls(1).evolve(amount="two"))
    assert f'File "<redzone generated evolve {__name__}.{cls.__qualname__}>"' in text
    assert line in text
    assert "not a whole number: 'two'" in text


@pytest.mark.parametrize("cls", [Slotted, Plain])
def test_an_unknown_field_given_to_the_fast_evolve_shows_the_generated_raise(cls: type) -> None:
    """The ``TypeError`` for a field the class doesn't have points at the
    generated line that raises it."""
    text = _traceback(lambda: cls(1).evolve(colour="red"))
    assert "raise TypeError(f'{_cls.__name__}.evolve() got an unexpected argument" in text
    assert f"{cls.__name__}.evolve() got an unexpected argument 'colour'" in text


def test_every_function_the_kernel_generated_for_a_combat_is_in_linecache() -> None:
    """After a combat, each evolve the kernel made (for its own classes, each
    installed as that class's method) reads back from linecache as the code
    it runs."""
    resolve(load(examples.path("vastwood-gorger")))
    made = [fn for cls in _subclasses(Copyable) if cls.__module__.startswith("redzone.")
            and (fn := cls.__dict__.get("evolve")) is not Copyable.evolve]
    assert made
    for fn in made:
        filename = fn.__code__.co_filename
        assert filename.startswith("<redzone generated evolve redzone.")
        assert linecache.getline(filename, 1) == "def evolve(self, /, **changes):\n"
        assert inspect.getsource(fn) == "".join(linecache.getlines(filename))
