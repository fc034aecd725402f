"""The account of a run under the 1999-2009 rules cites their numbers for
protection's prevention (502.7e), a blocked or blocking creature's
assignment (310.2c-d) and a player's loss on the final board (420.5a), as
``docs/command-line.md`` promises ("Under ``--rules sixth`` the account
cites the rules of 1999-2009"). It cited today's 702.16e, 510.1c and, on
the board after combat, 704.5a while the event line above said 420.5a."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from redzone.frontends.cli import cli

_BOARD = """\
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
life = 2
[[permanents]]
id = "ogre"
controller = "alice"
power = 3
toughness = 3
colors = ["red"]
[[permanents]]
id = "bear"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "knight"
controller = "bob"
power = 2
toughness = 2
keywords = ["protection from red"]
[combat]
attacks = { ogre = "bob", bear = "bob" }
blocks = { knight = ["ogre"] }
"""

_ILLEGAL = """\
rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
controller = "alice"
power = 5
toughness = 5
[[permanents]]
id = "b1"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { wurm = "bob" }
blocks = { b1 = ["wurm"] }
[combat.assign]
wurm = { b1 = 2, bob = 3 }
"""


def _account(tmp_path: Path, text: str) -> str:
    path = tmp_path / "combat.toml"
    path.write_text(text)
    return CliRunner().invoke(cli, ["run", str(path), "--no-color"],
                              env={"COLUMNS": "2000"}).output


def test_502_7e_420_5a_prevention_and_the_loss_on_the_board_cite_the_2009_rules(
        tmp_path: Path) -> None:
    said = _account(tmp_path, _BOARD)
    prevented = [ln for ln in said.splitlines() if "prevented by protection" in ln]
    assert prevented and all("[502.7e]" in ln for ln in prevented), said
    lost = [ln for ln in said.splitlines() if "LOST THE GAME" in ln]
    assert lost and all("[420.5a]" in ln and "704.5a" not in ln for ln in lost), said


def test_310_2c_an_illegal_assignment_cites_the_2009_rule(tmp_path: Path) -> None:
    """310.2c (2009): a blocked creature assigns its combat damage to the
    creatures blocking it: 3 of a non-trampler's 5 to the player is illegal."""
    said = _account(tmp_path, _ILLEGAL)
    assert "[310.2c]" in said and "[510.1c]" not in said, said
