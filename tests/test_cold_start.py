"""Cold start: ``import redzone`` leaves the slow and the front-end modules
for later (the performance issue's cold-start target). Not a timed test:
it checks which modules a fresh interpreter has imported."""

from __future__ import annotations

import json
import subprocess
import sys

LATER = ("importlib.metadata", "click", "rich", "tomllib", "redzone.formats.scenario",
         "redzone.frontends.cli")


def _imported(code: str) -> dict[str, bool]:
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps({{m: m in sys.modules for m in {LATER!r}}}))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    return dict(json.loads(out.splitlines()[-1]))


def test_import_redzone_defers_metadata_front_ends_and_loader() -> None:
    """Importing redzone imports none of them; every public name still works."""
    assert _imported("import redzone") == dict.fromkeys(LATER, False)


def test_engine_reads_entry_points_when_built() -> None:
    """Building an engine discovers plugins (importlib.metadata), still without
    the front ends or the scenario loader."""
    seen = _imported("import redzone\nredzone.Engine()")
    assert seen.pop("importlib.metadata") is True
    assert seen == dict.fromkeys(seen, False)
