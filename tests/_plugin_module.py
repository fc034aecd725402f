"""A plugin module written by a test, importable in this process and in
every worker process started while it is in use (a process pool, a Dask or
Ray worker): the batch fault tests' way to give workers a misbehaving plugin;
and the jobs those tests run, one creature a job named for what the plugin
does to it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from redzone import Engine


@contextmanager
def plugin_module(folder: Path, name: str, source: str) -> Iterator[ModuleType]:
    """Write ``source`` as module ``name`` in ``folder``, put the folder on
    ``sys.path`` and ``PYTHONPATH`` (inherited by processes started later),
    import the module and yield it; undo all three afterwards."""
    (folder / f"{name}.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    old = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), old) if p)
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
        os.environ["PYTHONPATH"] = old
        sys.modules.pop(name, None)


def named_jobs(engine: Engine, names: list[str]) -> list[Any]:
    """One ``(state, decisions)`` job per name: an attacker named ``name``
    (a misbehaving plugin acts on the name), blocked in every other job."""
    c = engine.creature
    out = []
    for i, name in enumerate(names):
        state = engine.game(["alice", "bob"], [c("x", "alice", 1 + i % 4, 2, name=name),
                                                c("y", "bob", 2, 1 + i % 3)])
        out.append((state, {"attacks": {"x": "bob"}, "blocks": {"y": "x"} if i % 2 else {}}))
    return out
