"""The execution layer: many combats run at once, here or on executors.

Between the front ends and the formats: it runs what the formats read (scenario
files, :class:`~redzone.formats.scenario.Scenario` objects) and what the
kernel builds (``(state, decisions)`` pairs), and gives the formats' JSON
outcomes back; ``redzone batch`` is its front end. One concern per module:

- :mod:`~redzone.execution.engines`: rebuilding the caller's engine by name
  on a worker, and checking it is the same;
- :mod:`~redzone.execution.jobs`: jobs, what travels for each, and
  :class:`~redzone.execution.jobs.JobOutcome`;
- :mod:`~redzone.execution.executors`: process pools, Dask, Ray;
- :mod:`~redzone.execution.simulation`: :func:`simulate`, chunking, lost
  workers sent again;
- :mod:`~redzone.execution.feeds`: jobs already on a cluster, in a Dask bag
  or a Ray dataset;
- :mod:`~redzone.execution.faults`: time limits, hung chunks and lost
  workers;
- :mod:`~redzone.execution.whatif`: what-if studies over the enumerator's
  legal declarations, and what-if grids (blocks x actions x variants), from
  before a combat or its middle.

Imports point down only: the front ends import this layer; it imports the
formats and the kernel, never the other way.
"""

from redzone._names import lazy_names

#: The public names, by the module that defines each: the one list of them,
#: as ``redzone._EXPORTS`` is redzone's. A name's module is imported when the
#: name is first used (PEP 562); ``__all__``, the lookup and ``dir()`` are
#: derived from this table, and type checkers read ``__init__.pyi``,
#: generated from it by ``python -m redzone._stub``.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "redzone.execution.engines": ("BatchError", "EngineSpec", "WorkerSetupError"),
    "redzone.execution.executors": ("DaskExecutor", "ExecutorUnavailable", "RayExecutor"),
    "redzone.execution.faults": ("WorkersLost",),
    "redzone.execution.feeds": ("jobs_dataset", "outcome_of_row", "run_bag", "run_dataset"),
    "redzone.execution.jobs": (
        "BAD_JOB", "WORKER_LOST", "WORKER_SETUP", "JobOutcome", "LightOutcome", "Reduced",
        "ScoreError", "Scored",
    ),
    "redzone.execution.localdask": ("local_dask",),
    "redzone.execution.simulation": ("simulate",),
    "redzone.execution.whatif": ("Cell", "Grid", "WhatIf", "what_if", "what_if_blocks"),
}

_WHERE, __all__, __getattr__, __dir__ = lazy_names('redzone.execution', _EXPORTS, globals())
