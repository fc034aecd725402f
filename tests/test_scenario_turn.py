"""The scenario-format additions of December 2026, from files: the end of the
game, damage from a spell, objects entering and leaving, durations and the
rest of the turn, additional combats (scenario-format.md, "Additions")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.frontends.cli import cli

HEAD = """
active_player = "alice"
[players.alice]
[players.bob]
"""


def run(text: str) -> dict[str, Any]:
    return outcome_json(resolve(loads(text)))


def kinds(out: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(e["step"], e["kind"], e["rule"]) for e in out["events"]]


def test_104_2a_the_game_ends_and_nothing_after_it_happens(tmp_path: Path) -> None:
    """104.2a: the game ends the moment bob loses; the later action isn't
    performed; ``steps`` ends with the step it ended in; exit status 0."""
    text = HEAD.replace("[players.bob]", "[players.bob]\nlife = 3") + """
[[permanents]]
id = "orc"
controller = "alice"
power = 4
toughness = 4

[combat]
attacks = { orc = "bob" }

[[combat.actions]]
after = "end_of_combat"
do = "gain_life"
player = "bob"
amount = 10
"""
    out = run(text)
    assert out["game_over"] == {"winners": ["alice"], "losers": ["bob"], "draw": False,
                                "step": "combat_damage", "rule": "104.2a"}
    assert out["steps"][-1] == "combat_damage"
    assert out["players"]["bob"]["life"] == -1
    assert kinds(out)[-1] == ("combat_damage", "game_over", "104.2a")
    path = tmp_path / "over.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["game_over"]["winners"] == ["alice"]


def test_120_3_deal_damage_from_a_spell_source() -> None:
    """609.7, 120.3: a spell source; protection from red prevents Shock
    (702.16e); a source with lifelink gains its controller life (702.15b);
    the events name the source by its name."""
    out = run(HEAD + """
[[permanents]]
id = "knight"
controller = "alice"
power = 2
toughness = 2
keywords = ["protection from red"]

[combat]

[[combat.actions]]
after = "declare_attackers"
do = "deal_damage"
source = { name = "Shock", controller = "bob", colors = ["red"] }
target = "knight"
amount = 2

[[combat.actions]]
after = "declare_attackers"
do = "deal_damage"
source = { name = "Vampiric Bolt", controller = "bob", colors = ["black"], keywords = ["lifelink"] }
target = "alice"
amount = 3
""")
    events = [(e["kind"], e.get("source"), e.get("amount")) for e in out["events"]
              if e["kind"] in ("prevented", "damage", "life_gain")]
    assert events == [("prevented", "Shock", 2), ("damage", "Vampiric Bolt", 3),
                      ("life_gain", "Vampiric Bolt", 3)]
    assert out["permanents"]["knight"]["damage"] == 0
    assert (out["players"]["alice"]["life"], out["players"]["bob"]["life"]) == (17, 23)


def test_508_4_create_token_attacking_and_111_7_ceased() -> None:
    """508.4: a token created attacking was never declared: its own battle cry
    (702.91a, "whenever this creature attacks") doesn't trigger, so the chief
    gets no +1/+0; it deals combat damage; 701.8 destroy and 111.7: a token
    that dies ceases to exist and is reported with zone "ceased"."""
    out = run(HEAD + """
[[permanents]]
id = "chief"
controller = "alice"
power = 2
toughness = 2
keywords = ["battle cry"]

[combat]
attacks = { chief = "bob" }

[[combat.actions]]
after = "declare_attackers"
do = "create_token"
tapped = true
attacking = "bob"

[combat.actions.token]
id = "warrior1"
name = "Warrior"
controller = "alice"
power = 1
toughness = 1
colors = ["red"]
keywords = ["battle cry"]

[[combat.actions]]
after = "end_of_combat"
do = "destroy"
target = "warrior1"
""")
    assert out["players"]["bob"]["life"] == 17  # 2 + 1: nobody got +1/+0
    assert out["permanents"]["warrior1"]["zone"] == "ceased"
    assert ("end_of_combat", "ceases_to_exist", "704.5d") in kinds(out)
    assert not any(e["kind"] == "attack" and e.get("attacker") == "warrior1"
                   for e in out["events"])
    assert [e.get("source") for e in out["events"] if e["kind"] == "trigger"] == ["chief"]
    assert out["after_steps"]["combat_damage"]["permanents"]["chief"]["power"] == 2


def test_701_21_sacrifice_and_701_8_indestructible_from_a_file() -> None:
    out = run(HEAD + """
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
keywords = ["indestructible"]

[[permanents]]
id = "wall2"
controller = "bob"
power = 0
toughness = 4
keywords = ["indestructible"]

[combat]

[[combat.actions]]
after = "declare_attackers"
do = "destroy"
target = "wall"

[[combat.actions]]
after = "declare_attackers"
do = "sacrifice"
target = "wall2"
""")
    assert out["permanents"]["wall"]["zone"] == "battlefield"
    assert out["permanents"]["wall2"]["zone"] == "graveyard"


def test_514_durations_and_through_cleanup() -> None:
    """611.2 and 514.2: a pump until end of combat ends with the combat; one
    until end of turn ends in the cleanup step, with the marked damage;
    ``steps`` include end_step and cleanup, with their states."""
    out = run('through = "cleanup"\n' + HEAD + """
[[permanents]]
id = "orc"
controller = "alice"
power = 2
toughness = 2

[[permanents]]
id = "bear"
controller = "bob"
power = 1
toughness = 3

[combat]
attacks = { orc = "bob" }
blocks = { bear = "orc" }

[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "orc"
power = 1
duration = "end_of_combat"

[[combat.actions]]
after = "declare_blockers"
do = "pump"
target = "bear"
toughness = 2
""")
    assert out["steps"][-2:] == ["end_step", "cleanup"]
    assert set(out["after_steps"]) == {"combat_damage", "end_step", "cleanup"}
    assert out["after_steps"]["end_step"]["permanents"]["bear"]["toughness"] == 5
    assert out["after_steps"]["end_step"]["permanents"]["bear"]["damage"] == 3
    assert out["permanents"]["bear"]["toughness"] == 3
    assert out["permanents"]["bear"]["damage"] == 0
    assert out["after_steps"]["combat_damage"]["permanents"]["orc"]["power"] == 3
    assert ("end_of_combat", "effect_ends", "511.2") in kinds(out)


def test_505_1a_additional_combats_from_a_file() -> None:
    """500.8, 505.1a: a second combat phase; a creature that attacked and
    stayed tapped can't attack again, a vigilant one can; step names get
    the suffix #2."""
    base = HEAD + """
[[permanents]]
id = "orc"
controller = "alice"
power = 2
toughness = 2

[[permanents]]
id = "knight"
controller = "alice"
power = 3
toughness = 3
keywords = ["vigilance"]

[combat]
attacks = { orc = "bob", knight = "bob" }

[[additional_combats]]
attacks = ATTACKS
"""
    out = run(base.replace("ATTACKS", '{ knight = "bob" }'))
    assert out["players"]["bob"]["life"] == 12
    assert "declare_attackers#2" in out["steps"] and "combat_damage#2" in out["steps"]
    assert "combat_damage#2" in out["after_steps"]
    again = resolve(loads(base.replace("ATTACKS", '{ orc = "bob" }')))
    assert again.error is not None and again.error.kind == "illegal_attack"


def test_a_token_can_attack_in_a_later_combat_but_not_its_own() -> None:
    """508.4 / 302.6: a token that entered in the first combat may be named by
    the second combat's declarations (if it could attack); not by its own.
    302.6: without haste it is summoning sick, so that declaration is illegal;
    702.10b: with haste it attacks in the second combat and deals its damage."""
    text = HEAD + """
[[permanents]]
id = "orc"
controller = "alice"
power = 2
toughness = 2

[combat]
attacks = WHO

[[combat.actions]]
after = "declare_attackers"
do = "create_token"
token = { id = "sap", controller = "alice", power = 1, toughness = 1, keywords = KEYWORDS }
"""
    with pytest.raises(ScenarioProblems, match="after attackers are declared"):
        loads(text.replace("WHO", '{ sap = "bob" }').replace("KEYWORDS", '["haste"]'))
    second = """
[[additional_combats]]
attacks = { sap = "bob" }
"""
    later = loads(text.replace("WHO", '{ orc = "bob" }').replace("KEYWORDS", "[]") + second)
    out = outcome_json(resolve(later))
    # 302.6: it is summoning sick, so the second declaration is illegal.
    assert out["ok"] is False and out["error"]["rule"] == "302.6"
    hasty = loads(text.replace("WHO", '{ orc = "bob" }').replace("KEYWORDS", '["haste"]')
                  + second)
    out = outcome_json(resolve(hasty))
    assert out["ok"] is True, out.get("error")
    assert ("declare_attackers#2", "attack", "508.1a") in kinds(out)
    assert [e.get("attacker") for e in out["events"] if e["kind"] == "attack"] == ["orc", "sap"]
    assert out["players"]["bob"]["life"] == 20 - 2 - 1


def test_800_4a_multiplayer_from_a_file() -> None:
    """800.4a: with three players, bob loses and leaves; his permanents leave
    the game; the combat goes on for carol."""
    out = run("""
active_player = "alice"
[players.alice]
[players.bob]
life = 2
[players.carol]

[[permanents]]
id = "orc"
controller = "alice"
power = 3
toughness = 3

[[permanents]]
id = "elf"
controller = "alice"
power = 2
toughness = 2

[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2

[combat]
attacks = { orc = "carol", elf = "bob" }
""")
    assert out["game_over"] is None
    assert out["players"]["bob"]["lost"] and out["players"]["carol"]["life"] == 17
    assert out["permanents"]["bear"]["zone"] == "left_game"
    assert out["steps"][-1] == "end_of_combat"


def test_bad_additions_name_the_key() -> None:
    """Bad input names the key: an unknown duration, an unknown ``through``,
    a spell source whose controller is no player."""
    for text, key in [
        (HEAD + '[[permanents]]\nid = "o"\ncontroller = "alice"\npower = 1\ntoughness = 1\n'
         '[combat]\n[[combat.actions]]\nafter = "declare_attackers"\ndo = "pump"\n'
         'target = "o"\nduration = "forever"\n', "combat.actions[0].duration"),
        ('through = "next_turn"\n' + HEAD, "through"),
        (HEAD + '[combat]\n[[combat.actions]]\nafter = "declare_attackers"\ndo = "deal_damage"\n'
         'source = { name = "Shock", controller = "zed" }\ntarget = "bob"\namount = 2\n',
         "combat.actions[0].source.controller"),
    ]:
        with pytest.raises(ScenarioProblems) as info:
            loads(text)
        assert key in str(info.value), (key, str(info.value))


def test_the_account_names_no_replacement_where_none_applied(tmp_path: Path) -> None:
    """614.1a: the account explains a life loss that differs from the damage a
    source dealt; three sources each dealing damage to one player is no
    replacement (each loss equals its source's damage, 120.3a)."""
    path = tmp_path / "three.toml"
    path.write_text(HEAD + """
[[permanents]]
id = "a"
controller = "alice"
power = 3
toughness = 3

[[permanents]]
id = "b"
controller = "alice"
power = 1
toughness = 1

[combat]
attacks = { a = "bob", b = "bob" }
""", encoding="utf-8")
    result = CliRunner().invoke(cli, ["run", "--no-color", str(path)])
    assert result.exit_code == 0, result.output
    assert "bob loses 3 life" in result.output and "replacement" not in result.output
