"""The wheel's build hook: pure Python by default; with ``REDZONE_COMPILE=1``,
the kernel modules listed in ``redzone.compilation.MODULES`` compiled with mypyc
as well.

A compiled wheel holds every source file as the pure one does, plus one
extension module beside each listed module's source and mypyc's shared
library at the top level; Python imports the extension module first. An
editable install is always pure. Compiling needs a C compiler and the Python
headers; the hook asks the build front end for mypy (mypyc comes with it),
setuptools (mypyc's C build) and redzone's own dependencies (mypyc checks the
types of the code it compiles against them).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The variable that asks for the compiled build.
FLAG = "REDZONE_COMPILE"

#: Where the list of compiled modules lives (the one list; see its docstring).
LIST_FILE = Path("core") / "redzone" / "compilation.py"

#: What compiling needs besides the C compiler: mypyc is part of mypy.
COMPILE_REQUIRES = ["mypy>=1.10", "setuptools>=70"]

#: Run in a subprocess, from ``core/``: mypyc's own setuptools build, its
#: outputs in the directory given as argv[1], its C sources in argv[2].
_BUILD = """
import sys
from setuptools import setup
from mypyc.build import mypycify

out, temp, *paths = sys.argv[1:]
setup(
    name="redzone-compiled",
    ext_modules=mypycify(paths, target_dir=temp),
    script_args=["build_ext", "--build-lib", out, "--build-temp", temp],
)
"""


def compiled_modules(root: Path) -> tuple[str, ...]:
    """The modules to compile, read from ``redzone/compilation.py`` without
    importing it (the build environment doesn't have redzone's dependencies
    unless it compiles).

    :param root: the project's root.
    :returns: the dotted names of ``MODULES``.
    :raises RuntimeError: if the file has no literal ``MODULES`` tuple.
    """
    tree = ast.parse((root / LIST_FILE).read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "MODULES" and node.value is not None):
            modules = ast.literal_eval(node.value)
            if isinstance(modules, tuple) and all(isinstance(m, str) for m in modules):
                return modules
    raise RuntimeError(f"{LIST_FILE}: no literal tuple MODULES of module names")


def wants_compiled() -> bool:
    """Whether this build compiles: ``REDZONE_COMPILE`` is ``1``."""
    value = os.environ.get(FLAG, "")
    if value not in ("", "0", "1"):
        raise RuntimeError(f"{FLAG} must be 1 (compile) or 0 or unset (pure), not {value!r}")
    return value == "1"


class CompileHook(BuildHookInterface):
    """Compiles the listed kernel modules into a standard (non-editable)
    wheel when ``REDZONE_COMPILE=1``; otherwise does nothing."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not wants_compiled():
            return []
        return [*COMPILE_REQUIRES, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._temp: str | None = None
        if version != "standard" or not wants_compiled():
            return
        root = Path(self.root)
        modules = compiled_modules(root)
        paths = [str(Path(*name.split(".")).with_suffix(".py")) for name in modules]
        self._temp = tempfile.mkdtemp(prefix="redzone-mypyc-")
        out, temp = Path(self._temp) / "lib", Path(self._temp) / "temp"
        done = subprocess.run(
            [sys.executable, "-c", _BUILD, str(out), str(temp), *paths],
            cwd=root / "core", capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed on {', '.join(modules)}:\n"
                               f"{done.stdout[-6000:]}\n{done.stderr[-6000:]}")
        built = sorted(p for p in out.rglob("*") if p.suffix in (".so", ".pyd"))
        names = {p.relative_to(out).parts[-1].split(".")[0] for p in built}
        missing = [m for m in modules if m.rsplit(".", 1)[-1] not in names]
        if missing:
            raise RuntimeError(f"mypyc built no extension module for {', '.join(missing)}")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_temp", None):
            shutil.rmtree(str(self._temp), ignore_errors=True)
