"""Cold start: ``import redzone`` leaves the slow and the front-end modules
for later (the performance issue's cold-start target). Not a timed test:
it checks which modules a fresh interpreter has imported."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from redzone import examples
from redzone.frontends import fast
from redzone.kernel import discovery

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


def test_engine_discovers_without_importlib_metadata() -> None:
    """Building an engine in a fresh interpreter on an ordinary layout reads
    the entry points itself: importlib.metadata (slow to import) stays out,
    and so do the front ends and the scenario loader."""
    seen = _imported("import redzone\nredzone.Engine()")
    assert seen == dict.fromkeys(seen, False)


# ---------------------------------------------------------------------------
# Entry points read without importlib.metadata: the same as importlib.metadata
# ---------------------------------------------------------------------------

THIRD_PARTY = '''\
from redzone import KeywordSpec, hookimpl


@hookimpl
def redzone_keywords():
    return [KeywordSpec("glimmerwing", "702.999", summary="A test keyword.")]
'''


def _dist(root: Path, folder: str, metadata: str, entry_points: str | None) -> None:
    dist = root / folder
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(metadata, encoding="utf-8")
    if entry_points is not None:
        (dist / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def _described(eps: Any) -> list[tuple[str, str, str, str, str]]:
    return [(e.name, e.value, e.group, e.dist.name, e.dist.version) for e in eps]


def test_scan_finds_what_importlib_metadata_finds(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The same distributions (the first of one normalised name on sys.path
    wins), the same entry points in the same order, names and versions from
    the metadata headers, comments and blank lines skipped."""
    one, two = tmp_path / "one", tmp_path / "two"
    _dist(one, "Zeta_Plug-1.0.dist-info", "Metadata-Version: 2.1\nName: Zeta_Plug\n"
          "Version: 1.0\n\nA long description.\nName: not this\n",
          "# a comment\n[redzone]\nzeta = zeta_plug.kw\n\n[console_scripts]\nz = zeta_plug:main\n"
          "[redzone]\n  alpha =  zeta_plug.alpha : thing  \n")
    _dist(one, "aaa-2.dist-info", "Name: aaa\nVersion: 2\n\n", "[redzone.editions]\nx = aaa:X\n")
    _dist(two, "zeta.plug-3.0.dist-info", "Name: zeta.plug\nVersion: 3.0\n\n",
          "[redzone]\nshadowed = zeta_plug.other\n")  # same normalised name: one/ wins
    _dist(two, "other-0.1.dist-info", "Name: Other\nversion: 0.1\n\n",
          "[redzone]\nother = other_pkg\n")
    _dist(two, "noeps-1.dist-info", "Name: noeps\nVersion: 1\n\n", None)
    monkeypatch.setattr(sys, "path", [str(one), str(tmp_path / "absent"), str(two)])
    importlib.invalidate_caches()
    for group in ("redzone", "redzone.editions", "console_scripts"):
        found = discovery.scan(group)
        assert found is not None
        assert _described(found) == _described(importlib.metadata.entry_points(group=group))
    assert [e.name for e in discovery.scan("redzone") or ()] == ["zeta", "alpha", "other"]


@pytest.mark.parametrize(("folder", "metadata", "entry_points"), [
    ("old.egg-info", "Name: old\nVersion: 1\n\n", "[redzone]\nold = old\n"),
    ("folded-1.dist-info", "Name: folded\nVersion: 1\n  .0\n\n", "[redzone]\nf = f\n"),
    ("broken-1.dist-info", "Name: broken\nVersion: 1\n\n", "[redzone]\nno equals sign\n"),
    ("Upper-1.DIST-INFO", "Name: upper\nVersion: 1\n\n", "[redzone]\nu = u\n"),
])
def test_scan_leaves_what_it_cannot_read_exactly_to_importlib_metadata(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, metadata: str,
        entry_points: str) -> None:
    """Egg metadata, a folded header, a line importlib.metadata refuses, a
    folder named in capitals: no answer, so the caller asks the library."""
    _dist(tmp_path, folder, metadata, entry_points)
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert discovery.scan("redzone") is None


def test_a_third_party_plugin_is_discovered_on_a_cold_start(tmp_path: Path) -> None:
    """A plugin distribution installed beside redzone is found by a fresh
    interpreter's Engine() (without importlib.metadata), with its
    distribution's name and version, as importlib.metadata reports them."""
    (tmp_path / "glimmer_plugin.py").write_text(THIRD_PARTY, encoding="utf-8")
    _dist(tmp_path, "glimmer_plugin-0.3.dist-info",
          "Metadata-Version: 2.1\nName: Glimmer-Plugin\nVersion: 0.3\n\n",
          "[redzone]\nglimmerwing = glimmer_plugin\n")
    probe = ("import json, sys, redzone\n"
             "kws = {k.spec.name: [k.plugin, k.distribution, k.version]\n"
             "       for k in redzone.Engine().keywords()}\n"
             "cold = 'importlib.metadata' not in sys.modules\n"
             "import importlib.metadata\n"
             "ep = [e for e in importlib.metadata.entry_points(group='redzone')\n"
             "      if e.name == 'glimmerwing'][0]\n"
             "print(json.dumps([kws['glimmerwing'], cold, [ep.dist.name, ep.dist.version],\n"
             "                  'flying' in kws]))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True, env=env).stdout
    found, cold, library, builtin = json.loads(out)
    assert found == ["glimmerwing", "Glimmer-Plugin", "0.3"]
    assert cold is True and library == found[1:] and builtin is True


# ---------------------------------------------------------------------------
# run --json without click: the same bytes and exit status as the full CLI
# ---------------------------------------------------------------------------

BAD_TOML = 'active_player = "alice"\n[players.alice\n'


def _both(args: list[str], stdin: str = "") -> tuple[Any, Any]:
    """The console entry (which takes the fast path for run --json) and the
    full click command line, each in a fresh interpreter."""
    fast = subprocess.run([sys.executable, "-m", "redzone", *args], input=stdin,
                          capture_output=True, text=True)
    full = subprocess.run(
        [sys.executable, "-c", "import sys\nfrom redzone.frontends.cli import main\n"
         f"sys.exit(main({args!r}))"], input=stdin, capture_output=True, text=True)
    return fast, full


@pytest.mark.parametrize("case", ["resolved", "illegal", "bad file", "missing file", "stdin",
                                  "flag last"])
def test_run_json_fast_path_matches_the_full_command_line(case: str, tmp_path: Path) -> None:
    """Same standard output, standard error and exit status, for a scenario
    that resolves, an illegal one, a bad file, a missing file and standard
    input."""
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_TOML, encoding="utf-8")
    args, stdin = {
        "resolved": (["run", "--json", str(examples.path("vastwood-gorger"))], ""),
        "illegal": (["run", "--json", str(examples.path("menace-one-blocker"))], ""),
        "bad file": (["run", "--json", str(bad)], ""),
        "missing file": (["run", "--json", str(tmp_path / "nope.toml")], ""),
        "stdin": (["run", "--json", "-"],
                  examples.path("vastwood-gorger").read_text(encoding="utf-8")),
        "flag last": (["run", str(examples.path("vastwood-gorger")), "--json"], ""),
    }[case]
    assert fast.run_json_file(args) is not None
    quick, full = _both(args, stdin)
    assert (quick.returncode, quick.stdout, quick.stderr) == (
        full.returncode, full.stdout, full.stderr)
    expected = {"resolved": 0, "illegal": 1, "bad file": 2, "missing file": 2, "stdin": 0,
                "flag last": 0}[case]
    assert quick.returncode == expected


@pytest.mark.parametrize("args", [
    ["run", "x.toml"], ["run", "--json"], ["run", "--json", "--board", "x.toml"],
    ["run", "--json", "--no-color"], ["check", "--json", "x.toml"], ["run", "--json", "-h"],
    ["run", "--json", "x.toml", "y.toml"], ["run", "--", "--json"],
])
def test_anything_but_run_json_file_goes_to_click(args: list[str]) -> None:
    """Other arguments (options, other commands, help, usage errors) are the
    full command line's to parse."""
    assert fast.run_json_file(args) is None
