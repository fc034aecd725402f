"""Cold start: ``import redzone`` leaves the slow and the front-end modules
for later (the performance issue's cold-start target). Not a timed test:
it checks which modules a fresh interpreter has imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from redzone import examples

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


def test_import_redzone_imports_no_typing() -> None:
    """``import redzone`` costs about what the interpreter's start does: it
    imports the version and the table of lazy names, not ``typing`` (which
    alone would double it)."""
    probe = "import redzone, sys\nprint('typing' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    assert out.split() == ["False"]


#: The packages whose public names are one table, ``_EXPORTS``.
PACKAGES = ("redzone", "redzone.execution", "redzone.testing")


@pytest.mark.parametrize("package", PACKAGES)
def test_each_public_name_is_written_once_and_is_what_its_module_defines(package: str) -> None:
    """The table of public names is the one list of them: no name appears
    twice in it, ``__all__``, ``dir()`` and ``from <package> import *``
    give every name in it, and each is the object the module the table names
    defines."""
    import importlib

    pkg = importlib.import_module(package)
    exports = vars(pkg)["_EXPORTS"]
    written = [name for names in exports.values() for name in names]
    assert len(written) == len(set(written)) == len(vars(pkg)["_WHERE"])
    assert sorted(written) == pkg.__all__
    assert set(written) <= set(dir(pkg))
    star: dict[str, Any] = {}
    exec(f"from {package} import *", star)
    assert set(star) - {"__builtins__"} == set(written)
    for module, names in exports.items():
        for name in names:
            assert getattr(pkg, name) is getattr(importlib.import_module(module), name), name
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'Nope'"):
        pkg.Nope  # noqa: B018


def test_workers_lost_is_a_public_name_of_the_execution_layer() -> None:
    """:class:`~redzone.execution.faults.WorkersLost`, which ends a batch whose
    workers are all gone, is caught as ``redzone.execution.WorkersLost``."""
    from redzone.execution import BatchError, WorkersLost
    from redzone.execution.faults import WorkersLost as defined

    assert WorkersLost is defined and issubclass(WorkersLost, BatchError)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_type_stub_is_the_one_the_table_generates(package: str) -> None:
    """``__init__.pyi`` (what type checkers and IDEs read) is generated from
    the table and never edited: after a change to the table, run
    ``python -m redzone._stub``."""
    import importlib

    from redzone import _stub

    exports = vars(importlib.import_module(package))["_EXPORTS"]
    assert package in _stub.PACKAGES
    assert _stub.stub_path(package).read_text(encoding="utf-8") == _stub.render(exports,
                                                                                package)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_type_stub_imports_each_name_from_its_module_and_exports_it(package: str) -> None:
    """Read as a type checker reads it, the stub imports every public name
    from the module that defines it (so ``from redzone import Engine`` is the
    real class under ``mypy --strict``), re-exports exactly those names
    through ``__all__`` and declares no ``__getattr__`` (which would let any
    misspelt name through)."""
    import ast
    import importlib

    from redzone import _stub

    pkg = importlib.import_module(package)
    tree = ast.parse(_stub.render(vars(pkg)["_EXPORTS"], package))
    imported = {alias.asname or alias.name: node.module
                for node in tree.body if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    if package == "redzone":
        assert imported.pop("__version__") == "redzone._version"
    assert imported == vars(pkg)["_WHERE"]
    (listed,) = [ast.literal_eval(node.value) for node in tree.body
                 if isinstance(node, ast.Assign)
                 and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__all__"]]
    assert sorted(listed) == pkg.__all__
    assert not [node for node in tree.body if isinstance(node, ast.FunctionDef)]


def test_engine_reads_entry_points_without_metadata() -> None:
    """Building an engine discovers plugins (the entry points read from the
    metadata folders, :mod:`redzone.kernel.entrypoints`) without importing
    importlib.metadata, the front ends or the scenario loader."""
    assert _imported("import redzone\nredzone.Engine()") == dict.fromkeys(LATER, False)
    seen = _imported("import redzone\nredzone.Engine()\nimport importlib.metadata")
    assert seen.pop("importlib.metadata") is True  # the probe sees an import
    assert seen == dict.fromkeys(seen, False)


# ---------------------------------------------------------------------------
# Discovery of a third-party plugin distribution
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


def test_a_third_party_plugin_is_discovered_on_a_cold_start(tmp_path: Path) -> None:
    """A plugin distribution installed beside redzone is found by a fresh
    interpreter's Engine(), with its distribution's name and version, as
    importlib.metadata reports them."""
    (tmp_path / "glimmer_plugin.py").write_text(THIRD_PARTY, encoding="utf-8")
    _dist(tmp_path, "glimmer_plugin-0.3.dist-info",
          "Metadata-Version: 2.1\nName: Glimmer-Plugin\nVersion: 0.3\n\n",
          "[redzone]\nglimmerwing = glimmer_plugin\n")
    probe = ("import json, sys, redzone\n"
             "kws = {k.spec.name: [k.plugin, k.distribution, k.version]\n"
             "       for k in redzone.Engine().keywords()}\n"
             "import importlib.metadata\n"
             "ep = [e for e in importlib.metadata.entry_points(group='redzone')\n"
             "      if e.name == 'glimmerwing'][0]\n"
             "print(json.dumps([kws['glimmerwing'], [ep.dist.name, ep.dist.version],\n"
             "                  'flying' in kws]))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True, env=env).stdout
    found, library, builtin = json.loads(out)
    assert found == ["glimmerwing", "Glimmer-Plugin", "0.3"]
    assert library == found[1:] and builtin is True


# ---------------------------------------------------------------------------
# redzone run --json: one command line, importing only what resolving takes
# ---------------------------------------------------------------------------

BAD_TOML = 'active_player = "alice"\n[players.alice\n'

#: What ``redzone run --json FILE`` never imports: the entry points are read
#: without importlib.metadata; rich, the account, the board, the HTML report,
#: the batch's execution layer and the bundled examples belong to other
#: commands and options (``redzone batch``'s own module too); the card reader
#: to a scenario whose permanents name cards (``card = "NAME"``), which none of
#: these does.
RUN_LATER = ("importlib.metadata", "rich", "redzone.frontends.account",
             "redzone.frontends.board", "redzone.formats.report", "redzone.execution",
             "redzone.examples", "redzone.formats.cards", "redzone.frontends.batch_cli")


def _console_script(args: list[str], stdin: str, report: Path) -> subprocess.CompletedProcess[str]:
    """The console script's function (``redzone.__main__:main``) in a fresh
    interpreter; which of :data:`RUN_LATER` it imported is written to ``report``."""
    probe = ("import json, sys\nfrom redzone.__main__ import main\n"
             f"status = main({args!r})\n"
             f"with open({str(report)!r}, 'w') as fh:\n"
             f"    json.dump({{m: m in sys.modules for m in {RUN_LATER!r}}}, fh)\n"
             "sys.exit(status)\n")
    return subprocess.run([sys.executable, "-c", probe], input=stdin, capture_output=True,
                          text=True)


@pytest.mark.parametrize("case", ["resolved", "illegal", "bad file", "missing file", "stdin",
                                  "flag last"])
def test_run_json_imports_neither_metadata_nor_text_output(case: str, tmp_path: Path) -> None:
    """``redzone run --json FILE`` (the console script, in a fresh
    interpreter) prints the JSON outcome, or the error object, on standard
    output with nothing on standard error and the status of the scenario
    format, having imported none of :data:`RUN_LATER`: for a scenario that
    resolves, an illegal one, a bad file, a missing file, standard input and
    the flag after the file."""
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_TOML, encoding="utf-8")
    good = str(examples.path("vastwood-gorger"))
    args, stdin = {
        "resolved": (["run", "--json", good], ""),
        "illegal": (["run", "--json", str(examples.path("menace-one-blocker"))], ""),
        "bad file": (["run", "--json", str(bad)], ""),
        "missing file": (["run", "--json", str(tmp_path / "nope.toml")], ""),
        "stdin": (["run", "--json", "-"], examples.path("vastwood-gorger").read_text(
            encoding="utf-8")),
        "flag last": (["run", good, "--json"], ""),
    }[case]
    report = tmp_path / "imported.json"
    done = _console_script(args, stdin, report)
    expected = {"resolved": 0, "illegal": 1, "bad file": 2, "missing file": 2, "stdin": 0,
                "flag last": 0}[case]
    assert (done.returncode, done.stderr) == (expected, "")
    outcome = json.loads(done.stdout)
    assert outcome["ok"] is (expected == 0)
    assert json.loads(report.read_text(encoding="utf-8")) == dict.fromkeys(RUN_LATER, False)


def test_run_json_imports_rich_for_text_output(tmp_path: Path) -> None:
    """The check above can fail: ``redzone run FILE`` (the account) imports
    rich and the account module."""
    report = tmp_path / "imported.json"
    done = _console_script(["run", str(examples.path("vastwood-gorger"))], "", report)
    assert done.returncode == 0 and done.stdout
    seen = json.loads(report.read_text(encoding="utf-8"))
    assert seen["rich"] is True and seen["redzone.frontends.account"] is True


@pytest.mark.parametrize("args", [["--help"], ["batch", "--help"]])
def test_the_batch_command_is_imported_when_listed_or_asked_for(
        args: list[str], tmp_path: Path) -> None:
    """``redzone batch`` lives in a module ``run`` never imports (above); the
    command is still there: ``redzone --help`` lists it and ``redzone batch
    --help`` shows its options, each importing that module."""
    report = tmp_path / "imported.json"
    done = _console_script(args, "", report)
    assert done.returncode == 0, done.stderr
    assert "batch" in done.stdout and (args[0] == "--help" or "--jobs" in done.stdout)
    assert json.loads(report.read_text(encoding="utf-8"))["redzone.frontends.batch_cli"] is True


# ---------------------------------------------------------------------------
# The 1 v 1 combat: the kernel's action classes and what else it never uses
# ---------------------------------------------------------------------------

#: The benchmarks' 1 v 1 file (``benchmarks/cold_start.py`` times it): two
#: 2/2s trade in combat, no action, no keyword.
ONE_V_ONE = (Path(__file__).resolve().parents[1] / "benchmarks" / "one-v-one.toml").read_text(
    encoding="utf-8")

#: What ``redzone run --json`` on :data:`ONE_V_ONE` never imports, beyond
#: :data:`RUN_LATER`: the kernel's 34 action classes (an engine knows their
#: kinds by name, :mod:`redzone.kernel.action_kinds`; the built-in plugins it
#: imports as it is built, declaring an action kind or an activated ability,
#: import them where they perform one), and the standard modules only a
#: failure shown (``traceback``), a misspelt name (``difflib``) or a page
#: (``html``) needs.
ONE_V_ONE_LATER = ("redzone.kernel.actions", "traceback", "difflib", "html")


def test_one_v_one_run_imports_no_action_class_and_no_failure_tool(tmp_path: Path) -> None:
    """``redzone run --json`` on a combat without actions resolves it (both
    2/2s die, 704.5g) without importing the modules of
    :data:`ONE_V_ONE_LATER` or :data:`RUN_LATER`."""
    scenario = tmp_path / "one.toml"
    scenario.write_text(ONE_V_ONE, encoding="utf-8")
    report = tmp_path / "imported.json"
    later = ONE_V_ONE_LATER + RUN_LATER
    probe = ("import json, sys\nfrom redzone.__main__ import main\n"
             f"status = main(['run', '--json', {str(scenario)!r}])\n"
             f"with open({str(report)!r}, 'w') as fh:\n"
             f"    json.dump([m for m in {later!r} if m in sys.modules], fh)\n"
             "sys.exit(status)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert {k: v["zone"] for k, v in json.loads(done.stdout)["permanents"].items()} == {
        "a": "graveyard", "b": "graveyard"}
    assert json.loads(report.read_text(encoding="utf-8")) == []


def test_the_kernel_action_kinds_are_known_by_name_and_imported_when_looked_up() -> None:
    """An engine knows every kernel action kind (117.1) by name without
    importing its class; looking one up imports them, and the table of names
    is the list :data:`redzone.kernel.actions.CORE_SPECS` declares, in order."""
    probe = ("import json, sys, redzone\n"
             "engine = redzone.Engine()\n"
             "specs = engine.hooks.action_specs\n"
             "before = 'redzone.kernel.actions' in sys.modules\n"
             "named = 'pump' in specs and 'enlist' in specs and 'nope' not in specs\n"
             "cls = specs['pump'][0].cls\n"
             "from redzone.kernel.actions import CORE_SPECS, Pump\n"
             "print(json.dumps([before, named, cls is Pump, list(specs)[:len(CORE_SPECS)],\n"
             "                  [s.cls.do for s in CORE_SPECS], specs['pump'][1]]))\n")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    before, named, same, listed, declared, plugin = json.loads(out)
    assert (before, named, same, plugin) == (False, True, True, "redzone.actions")
    assert listed == declared


@pytest.mark.parametrize("verify", [False, True])
def test_verify_modes_fingerprinting_is_imported_by_an_engine_that_verifies(
        verify: bool) -> None:
    """Verify mode's fingerprinting (``pickle`` underneath) is imported by an
    engine in verify mode only (``redzone run``'s engine is one, guarantee
    10); an engine that doesn't verify never imports it."""
    probe = (f"import json, sys, redzone\nredzone.Engine(verify={verify})\n"
             "print(json.dumps([m in sys.modules for m in\n"
             "    ('redzone.kernel._verify', 'redzone.kernel.fingerprint', 'pickle')]))\n")
    env = {k: v for k, v in os.environ.items() if k != "REDZONE_VERIFY"}
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True, env=env).stdout
    assert json.loads(out) == [verify] * 3
