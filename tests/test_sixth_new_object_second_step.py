"""310.5 of 1999-2009 with 400.7: in the second combat damage step, the
attackers and blockers that didn't assign combat damage in the first step
assign theirs; a first striker that assigned in the first step, then left
the battlefield and came back attacking, is a new object that didn't."""

from __future__ import annotations

from _outcomes import run

FILE = '''rules = "sixth"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "fs"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike"]
[combat]
attacks = { fs = "bob" }
'''

BLINK = '''[[combat.actions]]
after = "first_strike_damage"
do = "move"
target = "fs"
to = "hand"
[[combat.actions]]
after = "first_strike_damage"
do = "move"
target = "fs"
to = "battlefield"
tapped = true
attacking = "bob"
'''


def test_310_5_a_first_striker_back_as_a_new_object_assigns_in_the_second_step() -> None:
    """310.5 (2009), 400.7: bob takes 2 in each step: 16."""
    out = run(FILE + BLINK)
    assert out["ok"], out.get("error")
    assert out["players"]["bob"]["life"] == 16


def test_310_5_the_same_first_striker_that_stayed_assigns_once() -> None:
    """310.5 (2009): the control: without the zone change, it assigns in the
    first step only: 18."""
    out = run(FILE)
    assert out["players"]["bob"]["life"] == 18


PLANESWALKERS = '''rules = "{rules}"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "jace1"
name = "Jace Beleren"
controller = "alice"
types = ["planeswalker"]
subtypes = ["Jace"]
loyalty = 3
[[permanents]]
id = "jace2"
name = "Jace, the Mind Sculptor"
controller = "bob"
types = ["planeswalker"]
subtypes = ["Jace"]
loyalty = 3
[[permanents]]
id = "ajani"
name = "Ajani Goldmane"
controller = "bob"
types = ["planeswalker"]
subtypes = ["Ajani"]
loyalty = 3
'''


def test_420_5q_of_2009_planeswalkers_sharing_a_type_all_go() -> None:
    """420.5q (2009): "If two or more planeswalkers that share a planeswalker
    type are in play, all are put into their owners' graveyards", whoever
    controls them; a planeswalker of another type stays."""
    out = run(PLANESWALKERS.format(rules="sixth"))
    zones = {k: v["zone"] for k, v in out["permanents"].items()}
    assert zones == {"jace1": "graveyard", "jace2": "graveyard", "ajani": "battlefield"}
    rules = {e["object"]: e["rule"] for e in out["events"] if e["kind"] == "dies"}
    assert rules == {"jace1": "420.5q", "jace2": "420.5q"}


def test_today_two_planeswalkers_of_one_type_stay() -> None:
    """704.5j today names legendary permanents with the same name only: two
    Jaces with different names, not legendary here, both stay."""
    out = run(PLANESWALKERS.format(rules="foundations"))
    assert {v["zone"] for v in out["permanents"].values()} == {"battlefield"}


def test_510_4_today_a_first_striker_back_as_a_new_object_assigns_in_the_regular_step() -> None:
    """510.4, 400.7 (today's and 2009-2024 editions): the object back on the
    battlefield attacking didn't exist as the first combat damage step
    began, so it had neither first strike nor double strike then, and
    assigns combat damage in the regular step: bob takes 2 twice."""
    for rules in ("foundations", "m10"):
        out = run(FILE.replace('rules = "sixth"', f'rules = "{rules}"') + BLINK)
        assert out["ok"], out.get("error")
        assert out["players"]["bob"]["life"] == 16, rules
