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


def test_a_keyword_sub_rule_maps_under_the_rule_its_keyword_maps_to() -> None:
    """Each of today's keyword rules the sixth table maps goes to a rule of
    the 2009 keyword section (502), a sub-rule to a sub-rule of the rule its
    own keyword maps to (702.9b under 702.9's 502.4: 502.4b; the letters may
    differ, landwalk's 702.14c being 502.6b), so no sub-rule is sent to
    another keyword's section."""
    table = EQUIVALENTS["sixth"]
    keyword_rules = {t: v for t, v in table.items()
                     if t.startswith("702.") and not t.startswith("702.22")}
    assert keyword_rules
    for today, then in keyword_rules.items():
        assert re.fullmatch(r"502\.\d+[a-z]?", then), (today, then)
        assert today[-1].isalpha() == then[-1].isalpha(), (today, then)
        if today[-1].isalpha():
            parent = table.get(today[:-1])
            assert parent is not None and re.fullmatch(re.escape(parent) + "[a-z]", then), (
                today, then, parent)
