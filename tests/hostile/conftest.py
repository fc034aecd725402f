"""Fixtures of the hostile corpus: the command line with hostile plugins
discovered beside the installed ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redzone.kernel.engine as engine_module
from hostile_kit import CliResult
from redzone.frontends import cli
from redzone.kernel.plugins import PluginInfo


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
            ) -> Callable[..., CliResult]:
    """``run_cli(["run", "--json", file], plugin, ...)``: the command line,
    with ``plugin`` (hostile plugins) discovered beside the installed ones."""

    def run(args: list[str], *plugins: object) -> CliResult:
        if plugins:
            real = engine_module._discover

            def discover(**kwargs: Any) -> list[PluginInfo]:
                return [*real(**kwargs), *(PluginInfo(str(p.__name__), p)
                                           for p in plugins)]

            monkeypatch.setattr(engine_module, "_discover", discover)
        capsys.readouterr()
        status = cli.main(args)
        captured = capsys.readouterr()
        monkeypatch.undo()
        return CliResult(status, captured.out, captured.err)

    return run
