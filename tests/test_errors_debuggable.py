"""Errors a developer can debug (issue 22, item 5): ``REDZONE_DEBUG=1`` shows
a failing plugin's traceback for exit status 3 on every command that can
exit with it; a broken invariant of the conformance kit shows its readable
summary first; :meth:`Engine.game` refuses a permanent controlled or owned
by no player of the game; a list or a str where a mapping is expected is a
typed error naming the argument; the API's "no such object" errors suggest
the closest id, as the scenario loader does."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from redzone import examples
from redzone.frontends.cli import cli

pytest_plugins = ["pytester"]

GOOD = examples.path("vastwood-gorger")

#: A plugin that raises from a function of its own whenever a creature's
#: attack is checked (508.1): every command that declares attackers calls it.
FAILING_PLUGIN = '''
"""A plugin that fails (a test plugin)."""
from redzone import hookimpl


def explode_in_the_plugin(attacker):
    raise RuntimeError(f"the plugin's own failure, checking {attacker}")


@hookimpl
def redzone_attack_violations(state, attacker):
    explode_in_the_plugin(attacker)
'''

#: A plugin that fails as it is imported (``redzone keywords`` loads plugins
#: and asks nothing else).
UNLOADABLE_PLUGIN = '''
"""A plugin that fails to import (a test plugin)."""


def explode_while_importing():
    raise RuntimeError("the plugin's own failure, importing")


explode_while_importing()
'''


def _install(site: Path, module: str, source: str, monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[str]:
    """Install ``source`` as the plugin module ``module`` of a distribution
    on ``sys.path`` (its .dist-info with a ``redzone`` entry point), for one
    test; the module's file name, which its frames cite."""
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    dist = site / f"{module}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[redzone]\n{module} = {module}\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    try:
        yield f"{module}.py"
    finally:
        sys.modules.pop(module, None)


@pytest.fixture
def failing_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield from _install(tmp_path, "rz_debug_failing", FAILING_PLUGIN, monkeypatch)


@pytest.fixture
def unloadable_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield from _install(tmp_path, "rz_debug_unloadable", UNLOADABLE_PLUGIN, monkeypatch)


def _invoke(monkeypatch: pytest.MonkeyPatch, debug: bool, *args: str) -> Result:
    if debug:
        monkeypatch.setenv("REDZONE_DEBUG", "1")
    else:
        monkeypatch.delenv("REDZONE_DEBUG", raising=False)
    return CliRunner().invoke(cli, list(args))


# ---------------------------------------------------------------------------
# REDZONE_DEBUG=1: the plugin's traceback for exit status 3
# ---------------------------------------------------------------------------

#: Every command that resolves or checks a scenario, and so calls the plugin.
COMMANDS = {
    "run": ["run", str(GOOD)],
    "run --json": ["run", "--json", str(GOOD)],
    "run --board": ["run", "--board", str(GOOD)],
    "check": ["check", str(GOOD)],
    "check --json": ["check", "--json", str(GOOD)],
    "explain": ["explain", str(GOOD)],
    "demo": ["demo"],
    "batch --json": ["batch", "--json", str(GOOD)],  # the summary's timings vary
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_redzone_debug_shows_the_failing_plugins_traceback(
        command: str, failing_plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 item 5 (docs/command-line.md, exit status 3): a plugin that
    raises fails the command with status 3 and one line naming it; with
    ``REDZONE_DEBUG=1`` the traceback follows on standard error, down to the
    plugin's own frame (the PluginError's cause), and standard output (the
    JSON outcome with ``--json``) is unchanged."""
    quiet = _invoke(monkeypatch, False, *COMMANDS[command])
    assert quiet.exit_code == 3, quiet.output
    assert "rz_debug_failing" in quiet.output
    assert "Traceback" not in quiet.output

    loud = _invoke(monkeypatch, True, *COMMANDS[command])
    assert loud.exit_code == 3, loud.output
    assert "Traceback (most recent call last)" in loud.stderr
    assert failing_plugin in loud.stderr and "in explode_in_the_plugin" in loud.stderr
    assert "RuntimeError: the plugin's own failure, checking" in loud.stderr
    assert "PluginError" in loud.stderr  # the kernel's error, caused by the plugin's
    assert loud.stdout == quiet.stdout


@pytest.mark.parametrize("command", [["keywords"], ["run", str(GOOD)],
                                     ["cards", "cards.json", "Grizzly Bears"]])
def test_redzone_debug_shows_a_plugins_import_failure(
        command: list[str], unloadable_plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 item 5: a plugin that fails to import fails ``keywords``
    (and any command that loads the plugins) with status 3, named as a
    plugin's failure (not as a bug of redzone); ``REDZONE_DEBUG=1`` shows the
    traceback through the plugin's module."""
    quiet = _invoke(monkeypatch, False, *command)
    assert quiet.exit_code == 3, quiet.output
    assert "rz_debug_unloadable" in quiet.output and "Traceback" not in quiet.output
    assert "internal error" not in quiet.output
    loud = _invoke(monkeypatch, True, *command)
    assert loud.exit_code == 3, loud.output
    assert unloadable_plugin in loud.stderr and "in explode_while_importing" in loud.stderr
    assert "PluginLoadError" in loud.stderr


# ---------------------------------------------------------------------------
# The conformance kit: a broken invariant's readable summary first
# ---------------------------------------------------------------------------

#: A keyword whose plugin raises as a creature with it deals combat damage
#: (510.1a): it breaks 'no-exception-escapes' on a board of one attacker.
BROKEN_KEYWORD_TEST = '''
from redzone.testing import KeywordConformance, plugin_module


def redzone_combat_damage_amount(state, creature, step):
    if state.objects[creature].has("fragile"):
        raise KeyError("oops, fragile")
    return None


class TestFragileConformance(KeywordConformance):
    plugin = plugin_module("fragile", "fragile",
                           redzone_combat_damage_amount=redzone_combat_damage_amount)
    others = ()
'''


def test_a_broken_invariant_shows_its_summary_first(pytester: pytest.Pytester) -> None:
    """Issue 22 item 5: a keyword that breaks an invariant fails its
    KeywordConformance test with the kit's summary (which invariant, which
    plugin, what broke) as the first thing of the failure after the test's
    own line: before the board, hypothesis's falsifying example and the
    plugin's traceback, with no source of the kit's checks in between and
    the falsifying example as the short board, not every field of the state."""
    pytester.makepyfile(test_fragile=BROKEN_KEYWORD_TEST)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-k",
                                          "no_exception_escapes")
    result.assert_outcomes(failed=1)
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if "TestFragileConformance" in line
                 and "test_no_exception_escapes" in line)
    failure = lines[start:]
    first = next(i for i, line in enumerate(failure) if line.startswith("E "))
    assert "invariant 'no-exception-escapes' broken by plugin 'fragile'" in failure[first]
    assert "raised PluginError" in failure[first + 1] and "oops, fragile" in failure[first + 1]
    before = "\n".join(failure[:first])
    assert "def check_no_exception_escapes" not in before and "Traceback" not in before
    assert "@given" not in before
    text = "\n".join(failure)
    order = [text.index(s) for s in ("broken by plugin 'fragile'", "on the generated board:",
                                     "Falsifying example:", "caused by:",
                                     ", in redzone_combat_damage_amount")]  # the plugin's frame
    assert order == sorted(order)
    assert "keyword_set=" not in text and "Explanation:" not in text
