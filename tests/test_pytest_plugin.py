"""The pytest11 plugin (``redzone_pytest``) imports nothing of redzone until a
test uses it, and works under both names with plugin autoloading off."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

USES_ENGINE = '''
def test_engine(redzone_engine, redzone_board):
    b = redzone_board
    state = b(b.c("bear", "alice", 2, 2), b.c("wall", "bob", 0, 4))
    out = redzone_engine.resolve(state, {"bear": "bob"})
    assert out.state.players["bob"].life == 18   # 510.1b: unblocked, 2 to the player
'''

PLAIN = '''
def test_plain():
    import sys
    loaded = sorted(m for m in sys.modules if m == "redzone" or m.startswith("redzone."))
    assert loaded == [], loaded
'''


def run_pytest(tmp_path: Path, text: str, *args: str, autoload: bool = True
               ) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_it.py").write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args, "test_it.py"], cwd=tmp_path, capture_output=True, text=True,
                          env=env, timeout=120)


def test_importing_the_plugin_imports_no_redzone_module() -> None:
    done = subprocess.run([sys.executable, "-c", (
        "import sys, redzone_pytest; "
        "print(sorted(m for m in sys.modules if m == 'redzone' or m.startswith('redzone.')))")],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_project_that_does_not_use_redzone_loads_none_of_it(tmp_path: Path) -> None:
    """With the plugin active (autoloaded), a test session that uses no
    redzone fixture never imports redzone."""
    done = run_pytest(tmp_path, PLAIN)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_fixtures_work_when_used(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, USES_ENGINE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_both_names_load_with_autoloading_off(tmp_path: Path) -> None:
    for name in ("redzone_pytest", "redzone.testing.plugin"):
        done = run_pytest(tmp_path, USES_ENGINE, "-p", name, autoload=False)
        assert done.returncode == 0, (name, done.stdout + done.stderr)
    done = run_pytest(tmp_path, USES_ENGINE, autoload=False)
    assert done.returncode != 0 and "redzone_engine" in done.stdout  # no plugin: no fixture
