"""Guarantee 24 and the scenario format: an entry of `[combat.assign]` is
used in each combat damage step in which its creature assigns combat damage;
`[combat.assign_first_strike]` overrides it entry by entry in the
first-strike step (510.1c-d: the division is its controller's, never the
default in place of the one given)."""

from __future__ import annotations

from _outcomes import events, run

FILE = '''active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "fs"
controller = "alice"
power = 4
toughness = 4
keywords = ["first strike"]
[[permanents]]
id = "ds"
controller = "alice"
power = 1
toughness = 1
keywords = ["double strike"]
[[permanents]]
id = "b1"
controller = "bob"
power = 0
toughness = 2
[[permanents]]
id = "b2"
controller = "bob"
power = 0
toughness = 2
[combat]
attacks = { fs = "bob", ds = "bob" }
blocks = { b1 = "fs", b2 = "fs" }
[combat.assign]
fs = { b2 = 4 }
'''


def test_510_1c_an_assign_entry_is_used_in_the_first_strike_step_beside_another_override() -> None:
    """510.1c, 702.7b: the first striker's own `assign` entry (4 to b2) is
    its division in the first-strike step, though `assign_first_strike`
    gives another creature's: b1 survives, b2 dies, bob takes 1 twice."""
    out = run(FILE + "[combat.assign_first_strike]\nds = { bob = 1 }\n")
    assert out["ok"], out.get("error")
    assert out["permanents"]["b1"]["zone"] == "battlefield"
    assert out["permanents"]["b2"]["zone"] == "graveyard"
    assert out["players"]["bob"]["life"] == 18
    hits = [(e["step"], e["source"], e["target"], e["amount"]) for e in events(out, "damage")]
    assert ("first_strike_damage", "fs", "b2", 4) in hits


def test_702_4b_an_override_entry_wins_in_the_first_step_only() -> None:
    """702.4b: the double striker's `assign_first_strike` entry is used in
    the first step and its `assign` entry in the regular one."""
    text = FILE.replace("attacks = { fs = \"bob\", ds = \"bob\" }",
                        "attacks = { fs = \"bob\", ds = \"bob\" }") + \
        "ds = { bob = 1 }\n[combat.assign_first_strike]\nfs = { b1 = 4 }\n"
    out = run(text)
    assert out["ok"], out.get("error")
    assert out["permanents"]["b1"]["zone"] == "graveyard"
    assert out["permanents"]["b2"]["zone"] == "battlefield"
