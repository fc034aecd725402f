"""The public names of redzone.execution, for type checkers and IDEs: generated from
the table ``_EXPORTS`` in ``__init__.py`` by ``python -m redzone._stub``;
don't edit."""

from redzone.execution.engines import BatchError, EngineSpec, WorkerSetupError
from redzone.execution.executors import DaskExecutor, ExecutorUnavailable, RayExecutor
from redzone.execution.faults import WorkersLost
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
from redzone.execution.localdask import local_dask
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
    "ExecutorUnavailable",
    "Grid",
    "JobOutcome",
    "LightOutcome",
    "RayExecutor",
    "Reduced",
    "ScoreError",
    "Scored",
    "WhatIf",
    "WorkerSetupError",
    "WorkersLost",
    "jobs_dataset",
    "local_dask",
    "outcome_of_row",
    "run_bag",
    "run_dataset",
    "simulate",
    "what_if",
    "what_if_blocks",
]
