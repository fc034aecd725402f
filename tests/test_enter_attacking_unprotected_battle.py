"""508.4a: a creature put onto the battlefield attacking a battle no
longer protected by a defending player isn't attacking.

508.4a: "... The same is true if a creature would be put onto the
battlefield attacking a planeswalker or battle and that permanent ... is a
battle that is no longer protected by a defending player." A protector
who lost has left the game (800.4a): the battle keeps that protector until
the combat ends (704.5x), but it is no longer protected by a defending
player, so a creature entering attacking it enters not attacking.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from redzone.frontends.cli import cli

FILE = """\
active_player = "alice"
turn_order = ["alice", "bob", "carol", "dave"]
[players.alice]
[players.bob]
[players.carol]
[players.dave]
[[permanents]]
id = "a1"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "siege"
controller = "dave"
types = ["battle"]
subtypes = ["Siege"]
defense = 9
protector = "carol"
[combat]
attacks = { a1 = "siege" }
[[combat.actions]]
after = "declare_attackers"
do = "lose_life"
player = "carol"
amount = 20
[[combat.actions]]
after = "declare_attackers"
do = "enter_attacking"
attacking = "siege"
permanent = { id = "van", controller = "alice", power = 2, toughness = 1 }
"""


def test_508_4a_a_creature_entering_attacking_a_battle_whose_protector_left_isnt_attacking(
        tmp_path: Path) -> None:
    path = tmp_path / "battle.toml"
    path.write_text(FILE)
    result = CliRunner().invoke(cli, ["run", str(path), "--json"])
    out = json.loads(result.output)
    assert out["ok"] is True, out.get("error")
    events = out["events"]
    assert [e["kind"] for e in events if e.get("object") == "van" or e.get("attacker") == "van"
            ].count("not_attacking") == 1
    assert not [e for e in events if e["kind"] == "enters_attacking"]
    refused = next(e for e in events if e["kind"] == "not_attacking")
    assert refused["rule"] == "508.4a"
    # only a1's 2 damage reaches the battle (9 - 2), none from the van
    assert out["permanents"]["siege"]["defense"] == 7
