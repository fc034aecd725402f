"""The command line does what its docs say (issue 22, item 6):
``docs/command-line.md`` lists every command (``batch`` too), every command
that prints something takes ``--json`` as the README says (``schema``
included: its output is JSON either way), and ``--html`` says where it
wrote the report.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from click.testing import CliRunner
from redzone.formats.scenario import schema
from redzone.frontends.cli import cli

ROOT = Path(__file__).resolve().parent.parent
BALOTH = ROOT / "core" / "redzone" / "examples" / "baloth-and-boars.toml"
PAGE = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_command_line_page_lists_every_command() -> None:
    rows = set(re.findall(r"^\| `redzone (\w+)", PAGE, re.M))
    missing = sorted(set(cli.commands) - rows)
    assert not missing, f"docs/command-line.md's table lacks {missing}"


def test_every_command_takes_json_as_the_readme_says() -> None:
    assert "Every command that prints something takes `--json`" in README
    without = [name for name, command in cli.commands.items()
               if not any("--json" in p.opts for p in command.params)]
    assert not without, f"commands without --json: {without}"


def test_schema_json_prints_the_schema() -> None:
    """``redzone schema --json`` is the schema, as ``redzone schema`` prints it."""
    plain = CliRunner().invoke(cli, ["schema"])
    as_json = CliRunner().invoke(cli, ["schema", "--json"])
    assert plain.exit_code == as_json.exit_code == 0
    assert as_json.stdout == plain.stdout
    assert json.loads(as_json.stdout) == schema()


def test_html_says_where_it_wrote(tmp_path: Path) -> None:
    """The report's path on standard error; standard output stays the JSON."""
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["run", "--json", "--html", str(out), str(BALOTH)])
    assert result.exit_code == 0, result.output
    assert out.exists()
    assert f"wrote the visual report to {os.path.abspath(out)}" in result.stderr
    assert json.loads(result.stdout)["ok"] is True


def test_html_demo_says_where_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "demo.html"
    result = CliRunner().invoke(cli, ["demo", "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.stderr and "Before combat" in result.stdout
