"""The 1999-2009 account cites the keywords' rules of 2009 (502.N).

``docs/command-line.md``: under ``--rules sixth`` the account cites the
rules of 1999-2009. A flyer blocked by a creature without flying or reach
was refused citing today's 702.9b; in 2009 it was 502.4b ("A creature with
flying can't be blocked except by creatures with flying and/or reach").
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from redzone.formats.citations import EQUIVALENTS
from redzone.frontends.cli import cli

FLYER = """\
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "drake"
controller = "alice"
power = 2
toughness = 2
keywords = ["flying"]
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { drake = "bob" }
blocks = { bear = ["drake"] }
"""


def test_502_4b_the_sixth_account_cites_flying_of_2009(tmp_path: Path) -> None:
    path = tmp_path / "flyer.toml"
    path.write_text(FLYER)
    said = CliRunner().invoke(cli, ["run", str(path), "--no-color"],
                              env={"COLUMNS": "2000"}).output
    assert "[502.4b]" in said and "[702.9b]" not in said, said


def test_the_keywords_of_2009_map_to_502_rules_of_the_same_keyword() -> None:
    """Each of today's keyword rules the sixth table maps goes to a 502 rule
    (the 2009 keyword section), a sub-rule to a sub-rule."""
    table = EQUIVALENTS["sixth"]
    for today, then in table.items():
        if today.startswith("702.") and not today.startswith("702.22"):
            assert re.fullmatch(r"502\.\d+[a-z]?", then), (today, then)
            assert today[-1].isalpha() == then[-1].isalpha(), (today, then)
