"""Options that more than one command takes, written once: ``--rules``, and
the numbers of seconds of ``redzone batch``'s time limits.

A bad value is a usage error blamed on the option (exit status 64), never a
problem of the scenario files a command reads (2).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

from redzone.kernel.editions import EDITIONS

F = TypeVar("F", bound=Callable[..., Any])


def check_rules(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--rules``: a known edition, or a usage error blamed on the flag.

    :raises click.BadParameter: naming the editions known.
    """
    if value is None or value in EDITIONS:
        return value
    raise click.BadParameter(f"unknown rules edition {value!r}; known editions: "
                             f"{', '.join(EDITIONS)}", ctx=ctx, param=param)


class RulesOption(click.Option):
    """``--rules``, whose help lists the known editions when it is shown:
    the installed ones are found (imported) then, not as the command line
    is built."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        base = (self.help or "").split(" (known: ")[0]
        self.help = f"{base} (known: {', '.join(EDITIONS)})."
        return super().get_help_record(ctx)


def rules_option(help_text: str) -> Callable[[F], F]:
    """The ``--rules EDITION`` option of a command, checked as it is read.

    :param help_text: what it does for that command.
    """
    def deco(fn: F) -> F:
        return click.option("--rules", "rules", cls=RulesOption, metavar="EDITION",
                            default=None, callback=check_rules, help=help_text)(fn)

    return deco


def check_seconds(ctx: click.Context, param: click.Parameter,
                  value: float | None) -> float | None:
    """A number of seconds (``--timeout``, ``--lost-after``,
    ``--hook-timeout``, read as :func:`seconds_type`): NaN, which the range
    lets by, is a usage error blamed on the option; ``inf`` is kept (the
    command reads it as no limit, :func:`no_limit`).

    :raises click.BadParameter: for NaN.
    """
    if value is not None and math.isnan(value):
        raise click.BadParameter("nan is not a number of seconds: give one above 0 (inf: "
                                 "no limit)", ctx=ctx, param=param)
    return value


def seconds_type() -> click.FloatRange:
    """The type of a number of seconds: above 0 (0 or less is a usage
    error; :func:`check_seconds` refuses NaN)."""
    return click.FloatRange(min=0, min_open=True)


def no_limit(seconds: float | None) -> float | None:
    """``None`` (no limit) for ``inf`` or no value, else the seconds.

    :param seconds: what a number-of-seconds option read.
    """
    return None if seconds is None or math.isinf(seconds) else seconds


__all__ = ["RulesOption", "check_rules", "check_seconds", "no_limit", "rules_option",
           "seconds_type"]
