"""Deprecated: the old path of the execution layer, :mod:`redzone.execution`.

Batch simulation is not a format: running many combats on executors moved to
:mod:`redzone.execution`. The documentation named two of its functions by this
path (``redzone.formats.batch.what_if_blocks``,
``redzone.formats.batch.RayExecutor``), so every public name this module had
is still found here, the same object as at its new path, with a
:class:`DeprecationWarning` naming that path. Nothing in redzone imports this
module; it will be removed.
"""

from __future__ import annotations

import warnings
from typing import Final

#: Each public name this module had -> the module that holds it now.
MOVED: Final = {
    **dict.fromkeys(("BatchError", "EngineSpec", "WorkerSetupError", "build_engine",
                     "signature", "worker_engine"), "redzone.execution.engines"),
    **dict.fromkeys(("BAD_JOB", "SCENARIO_SUFFIXES", "WORKER_LOST", "WORKER_SETUP",
                     "JobOutcome", "from_wire", "run_chunk", "scenario_files", "to_wire"),
                    "redzone.execution.jobs"),
    **dict.fromkeys(("RayExecutor", "as_executor"), "redzone.execution.executors"),
    **dict.fromkeys(("MAX_CHUNK", "simulate"), "redzone.execution.simulation"),
    **dict.fromkeys(("WhatIf", "what_if_blocks"), "redzone.execution.whatif"),
}


def __getattr__(name: str) -> object:
    """A moved name, from its new module, with a :class:`DeprecationWarning`.

    :raises AttributeError: for a name this module never had.
    """
    module = MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"redzone.formats.batch is deprecated: import {name} from {module} "
                  "(or redzone.execution)", DeprecationWarning, stacklevel=2)
    import importlib  # (the layer above: a deprecated alias only points up)

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *MOVED})
