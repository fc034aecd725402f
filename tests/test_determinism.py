"""Determinism across interpreter runs: ``redzone run --json`` prints the same
bytes for the same scenario whatever the string hash seed (``PYTHONHASHSEED``),
so no output depends on the iteration order of a set or of a dict built from
one (the design notes: embedders want deterministic results).

Each run is a fresh interpreter (a subprocess) under a different hash seed:
0 (no randomisation) and a random one, a new one at every test run (and 1 and
12345 as well in the long run, ``REDZONE_LONG=1``). One
process per seed runs the command line on every bundled example under every
rules edition (in process, through ``redzone.frontends.cli.main``, the code
behind the console script); the console script itself is run once per seed too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _long import LONG
from redzone import examples
from redzone.kernel.editions import EDITIONS

#: The hash seeds: 0 (no randomisation) and a random one (each process costs
#: about 4 CPU seconds); the long run (REDZONE_LONG=1) adds two fixed ones.
SEEDS = ("0", *(("1", "12345") if LONG else ()), "random")

#: Runs ``redzone run --json`` on each example and edition, printing a JSON
#: list of [name, edition, exit status, output].
DRIVER = """
import contextlib, io, json, sys
from redzone import examples
from redzone.frontends.cli import main
from redzone.kernel.editions import EDITIONS

out = []
for name in examples.names():
    for rules in (None, *EDITIONS):
        args = ["run", "--json", str(examples.path(name))]
        if rules is not None:
            args += ["--rules", rules]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            status = main(args)
        out.append([name, rules, status, buf.getvalue()])
sys.stdout.write(json.dumps(out))
"""


def _env(seed: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = seed
    env.pop("REDZONE_DEBUG", None)
    return env


@pytest.fixture(scope="module")
def runs() -> dict[str, list[list[object]]]:
    procs = {seed: subprocess.Popen([sys.executable, "-c", DRIVER], env=_env(seed),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in SEEDS}  # in parallel
    found = {}
    for seed, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
        found[seed] = json.loads(stdout)
    return found


def test_every_example_gives_the_same_bytes_under_every_hash_seed(
        runs: dict[str, list[list[object]]]) -> None:
    """``redzone run --json``, every bundled example, every edition: byte-
    identical output and the same exit status under each hash seed."""
    reference = runs[SEEDS[0]]
    assert len(reference) == len(examples.names()) * (1 + len(EDITIONS))
    for seed in SEEDS[1:]:
        for ref, other in zip(reference, runs[seed], strict=True):
            assert ref == other, f"{ref[0]} (rules {ref[1]}): output differs under " \
                                 f"PYTHONHASHSEED={seed}"


def test_the_runs_did_resolve_and_match_the_goldens(
        runs: dict[str, list[list[object]]]) -> None:
    """Control (the comparison above compares real outcomes): each example's
    output under its own edition is its golden file, byte for byte."""
    for name, rules, status, text in runs[SEEDS[-1]]:
        if rules is None:
            assert isinstance(name, str) and isinstance(text, str)
            golden = examples.golden_path(name).read_text(encoding="utf-8")
            assert text == golden, name
            assert status == (0 if json.loads(golden)["ok"] else 1)


def test_the_console_script_gives_the_same_bytes_under_every_hash_seed() -> None:
    """The installed ``redzone`` command itself, once per seed."""
    script = shutil.which("redzone", path=str(Path(sys.executable).parent)) or shutil.which(
        "redzone")
    if script is None:
        pytest.skip("the redzone console script is not installed")
    path = str(examples.path("banding-band-blocked"))
    procs = [subprocess.Popen([script, "run", "--json", path], env=_env(seed),
                              stdout=subprocess.PIPE) for seed in SEEDS]
    outputs = {proc.communicate(timeout=120)[0] for proc in procs}
    assert len(outputs) == 1
    assert outputs.pop() == examples.golden_path("banding-band-blocked").read_bytes()
