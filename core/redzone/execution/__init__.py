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
- :mod:`~redzone.execution.whatif`: what-if studies over the enumerator's
  legal declarations, and what-if grids (blocks x actions x variants);
- :mod:`~redzone.execution.rest`: the rest of a combat from a state in its
  middle.

Imports point down only: the front ends import this layer; it imports the
formats and the kernel, never the other way.
"""

from redzone.execution.engines import BatchError, EngineSpec, WorkerSetupError
from redzone.execution.executors import DaskExecutor, RayExecutor
from redzone.execution.feeds import jobs_dataset, outcome_of_row, run_bag, run_dataset
from redzone.execution.jobs import (
    BAD_JOB,
    WORKER_LOST,
    WORKER_SETUP,
    JobOutcome,
    LightOutcome,
    Reduced,
    Scored,
    ScoreError,
)
from redzone.execution.rest import rest_of_combat
from redzone.execution.simulation import simulate
from redzone.execution.whatif import Cell, Grid, WhatIf, what_if, what_if_blocks

__all__ = [
    "BAD_JOB",
    "WORKER_LOST",
    "WORKER_SETUP",
    "BatchError",
    "Cell",
    "DaskExecutor",
    "EngineSpec",
    "Grid",
    "JobOutcome",
    "LightOutcome",
    "RayExecutor",
    "Reduced",
    "ScoreError",
    "Scored",
    "WhatIf",
    "WorkerSetupError",
    "jobs_dataset",
    "outcome_of_row",
    "rest_of_combat",
    "run_bag",
    "run_dataset",
    "simulate",
    "what_if",
    "what_if_blocks",
]
