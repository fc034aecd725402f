"""The pytest plugin of redzone's test kit (entry point ``pytest11: redzone``).

Loaded automatically in every pytest session where redzone is installed
(with plugin autoloading off: ``-p redzone_pytest``; ``redzone.testing.plugin``
is the same plugin under its older name). It adds:

- fixtures ``redzone_make_engine``, ``redzone_engine``, ``redzone_board``,
  ``redzone_plugins`` and ``redzone_rules``;
- golden scenario files: every scenario (``*.toml``, ``*.json``) in the
  folders named by the ``redzone_golden`` ini option is a test comparing its
  JSON outcome with ``<name>.expected.json`` beside it;
- the option ``--redzone-update-golden`` to (re)write those expected files.

It lives outside the ``redzone`` package and imports nothing but pytest and
the standard library until a test uses one of its fixtures or a golden folder
is configured: importing ``redzone`` (the kernel, the plugin discovery) would
cost every pytest run in the environment, redzone's users or not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from redzone.kernel.engine import Engine
    from redzone.testing.boards import Board

#: A ``redzone_make_engine`` function.
EngineFactory = Callable[..., "Engine"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("redzone", "redzone test kit")
    group.addoption("--redzone-update-golden", action="store_true", default=False,
                    help="write each golden scenario's outcome to its <name>.expected.json "
                         "instead of comparing")
    parser.addini("redzone_golden", type="linelist", default=[],
                  help="folders (relative to the ini file) whose scenario files are golden "
                       "tests checked against <name>.expected.json")


_ENGINES: dict[tuple[Any, ...], Engine] = {}


def _installed() -> tuple[tuple[str, str], ...]:
    """The installed plugins' entry points: an engine made by discovery is
    reused only while they are the same."""
    from redzone.kernel.plugins import GROUP, entry_points

    return tuple(sorted((ep.name, ep.value) for ep in entry_points(GROUP)))


def make_engine(*plugins: object, rules: str = "foundations", builtins: bool = True,
                block: Iterable[str] = (), allow: Iterable[str] | None = None) -> Engine:
    """An engine with a chosen plugin set, shared by every test that asks for
    the same set (engines hold no game state, so sharing is safe). It runs in
    verify mode: a plugin that changes what a hook gives it fails the test
    with a :class:`~redzone.PluginError` naming it.

    :param plugins: plugins to add (modules with hookimpls); a plugin that
        discovery already found is not added twice.
    :param rules: the rules edition.
    :param builtins: discover the installed plugins (the built-in keywords and
        third-party packages); ``False`` gives a closed set of ``plugins`` only.
    :param block: discovered plugin names not to load.
    :param allow: if given, the only discovered plugin names to load.
    """
    from redzone.kernel.engine import Engine

    key = (tuple(id(p) for p in plugins), rules, builtins, tuple(sorted(block)),
           None if allow is None else tuple(sorted(allow)), _installed() if builtins else ())
    engine = _ENGINES.get(key)
    if engine is None:
        if builtins:
            found = Engine(rules, block=block, allow=allow, verify=True)
            known = {id(info.module) for info in found.plugin_infos.values()}
            extra = [p for p in plugins if id(p) not in known]
            engine = Engine(rules, plugins=extra, block=block, allow=allow,
                            verify=True) if extra else found
        else:
            engine = Engine(rules, discover=False, plugins=plugins, verify=True)
        _ENGINES[key] = engine
    return engine


@pytest.fixture(scope="session")
def redzone_make_engine() -> EngineFactory:
    """:func:`make_engine`: ``redzone_make_engine(my_plugin, rules="m10")``."""
    return make_engine


@pytest.fixture
def redzone_plugins() -> Sequence[object]:
    """Plugins added to ``redzone_engine`` beyond the discovered ones.

    Override it in a ``conftest.py`` to test a plugin that is not installed::

        @pytest.fixture
        def redzone_plugins():
            return [my_keyword]
    """
    return ()


@pytest.fixture
def redzone_rules() -> str:
    """The rules edition of ``redzone_engine``; override it, or parametrize it
    (``@pytest.mark.parametrize("redzone_rules", ["foundations", "m10"])``)."""
    return "foundations"


@pytest.fixture
def redzone_engine(redzone_plugins: Sequence[object], redzone_rules: str) -> Engine:
    """An engine with the discovered plugins plus ``redzone_plugins``, under
    ``redzone_rules``."""
    return make_engine(*redzone_plugins, rules=redzone_rules)


@pytest.fixture
def redzone_board(redzone_engine: Engine) -> Board:
    """A :class:`~redzone.testing.Board` on ``redzone_engine``::

        def test_reach_blocks_flyer(redzone_engine, redzone_board):
            b = redzone_board
            state = b(b.c("drake", "alice", 2, 2, "flying"), b.c("spider", "bob", 1, 3, "reach"))
    """
    from redzone.testing.boards import Board

    return Board(redzone_engine)


# ---------------------------------------------------------------------------
# Golden scenario files
# ---------------------------------------------------------------------------


def _golden_dirs(config: pytest.Config) -> list[Path]:
    base = config.inipath.parent if config.inipath is not None else config.rootpath
    return [(base / entry).resolve() for entry in config.getini("redzone_golden")]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    dirs = _golden_dirs(parent.config)
    if not dirs:
        return None  # no golden folder: nothing of redzone is imported
    from redzone.testing.golden import is_golden_scenario

    if not is_golden_scenario(file_path):
        return None
    resolved = file_path.resolve()
    if not any(resolved.is_relative_to(d) for d in dirs):
        return None
    return GoldenFile.from_parent(parent, path=file_path)


class GoldenFile(pytest.File):
    """A golden scenario file: one test."""

    def collect(self) -> Iterator[GoldenItem]:
        yield GoldenItem.from_parent(self, name=self.path.name)


class GoldenItem(pytest.Item):
    """Resolve the scenario and compare its outcome with the expected one."""

    def runtest(self) -> None:
        from redzone.testing.golden import check_golden

        update = bool(self.config.getoption("redzone_update_golden"))
        check_golden(self.path, update=update)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        from redzone.testing.golden import GoldenMismatch

        if isinstance(excinfo.value, GoldenMismatch):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"golden scenario {self.path.name}"


__all__ = ["EngineFactory", "GoldenFile", "GoldenItem", "make_engine"]
