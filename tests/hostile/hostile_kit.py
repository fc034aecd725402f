"""Helpers of the hostile corpus: hostile plugins, a standard board, and a
work bound measured by Python function calls (never by a clock)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import redzone
from redzone import Engine, GameState
from redzone.formats.serialize import state_to_dict
from redzone.kernel import frozen

FILES = Path(__file__).resolve().parent / "files"

#: Hostile fuzzing runs this many times more examples with REDZONE_LONG=1.
LONG_FACTOR = 50


class Calls:
    """How many Python function calls a block made."""

    count = 0


@contextmanager
def counting_calls() -> Iterator[Calls]:
    """Count the Python function calls made inside the block: a measure of
    work that doesn't depend on the machine's speed."""
    calls = Calls()

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            calls.count += 1

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(old)


class Copied:
    """How many items a block copied into new read-only maps."""

    count = 0


@contextmanager
def counting_copies() -> Iterator[Copied]:
    """Count the items copied into new :class:`~redzone.kernel.frozen.FrozenMap`
    dicts inside the block (a map built from items, ``set``, ``merge``,
    ``without``, ``thaw``): work done in C, which call counts don't see."""
    copied = Copied()
    made = frozen._Build.__call__
    methods = {name: getattr(frozen.FrozenMap, name)
               for name in ("set", "merge", "without", "thaw")}

    def build(cls: Any, items: Any = (), /, **kwargs: Any) -> Any:
        new = made(cls, items, **kwargs)
        copied.count += len(new)
        return new

    def counted(method: Callable[..., Any]) -> Callable[..., Any]:
        def copy(self: Any, *args: Any) -> Any:
            new = method(self, *args)
            if new is not self:
                copied.count += len(new)
            return new
        return copy

    frozen._Build.__call__ = build  # type: ignore[method-assign]
    for name, method in methods.items():
        setattr(frozen.FrozenMap, name, counted(method))
    try:
        yield copied
    finally:
        frozen._Build.__call__ = made  # type: ignore[method-assign]
        for name, method in methods.items():
            setattr(frozen.FrozenMap, name, method)


def hostile(name: str, **hooks: Callable[..., Any]) -> SimpleNamespace:
    """A plugin object named ``name`` whose ``redzone_*`` functions are the
    given hooks, each marked ``@hookimpl``."""
    return SimpleNamespace(__name__=name,
                           **{h: redzone.hookimpl(fn) for h, fn in hooks.items()})


def board(engine: Engine) -> GameState:
    """Alice's 6/6 trampler attacks Bob; Bob's 0/2 wall can block it."""
    return engine.game(["alice", "bob"], [
        engine.creature("ogre", "alice", 6, 6, "trample"),
        engine.creature("wall", "bob", 0, 2)])


def combat(engine: Engine, state: GameState) -> Any:
    """The whole combat on :func:`board`: the ogre attacks, the wall blocks."""
    return engine.resolve(state, {"ogre": "bob"}, {"wall": "ogre"})


def snapshot(state: GameState) -> dict[str, Any]:
    """The state as plain data, to compare before and after."""
    return state_to_dict(state)


class CliResult:
    """What ``redzone ...`` did: its exit status, output and error output."""

    def __init__(self, status: int, out: str, err: str) -> None:
        self.status = status
        self.out = out
        self.err = err

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def install_plugin(site: Path, distribution: str, module: str, source: str,
                   entry: str, *, top_level: bool = True) -> Path:
    """Write into ``site`` an installed distribution ``distribution`` (1.0)
    whose ``redzone`` entry point ``entry`` is the module ``module`` with
    ``source``: how the command line takes a third-party plugin (with
    ``top_level``, its ``top_level.txt`` names the module). Returns
    ``site``, to put on ``sys.path`` or ``PYTHONPATH``."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    dist = site / f"{distribution.replace('-', '_')}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[redzone]\n{entry} = {module}\n",
                                           encoding="utf-8")
    if top_level:
        (dist / "top_level.txt").write_text(f"{module}\n", encoding="utf-8")
    return site


def special_file(kind: str, path: Path) -> Path:
    """At ``path``, a FIFO (``"fifo"``), a device (``"device"``: a link to
    ``/dev/zero``) or a directory (anything else)."""
    import os

    import pytest

    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero here")
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return path
