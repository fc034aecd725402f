"""Objects that entered before a declaration can be declared (scenario format,
"Additions of January 2027"), keyword tokens' ids ``<source>.<keyword>.<n>``,
tokens on the battlefield at the start, and a card put onto the battlefield
attacking.

A declaration names creatures on the battlefield as it is made (508.1a,
509.1a); a creature that entered earlier in the combat is one of them, with
the rules of any creature (302.6: summoning sickness keeps it from attacking
unless it has haste, never from blocking).
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import CreateToken, Engine, EnterAttacking, Permanent, token_ids
from redzone.formats import scenario as sc
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import loads

HEAD = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "bear"
name = "Grizzly Bears"
controller = "alice"
power = 2
toughness = 2
"""


def run(text: str) -> dict[str, Any]:
    return outcome_json(resolve(loads(text)))


def problems(text: str) -> dict[str, str]:
    with pytest.raises(sc.ScenarioProblems) as info:
        loads(text)
    return {p.key: p.detail for p in info.value.problems}


def token(tid: str, controller: str, after: str, keywords: str = "[]", extra: str = "") -> str:
    return f"""
[[combat.actions]]
after = "{after}"
do = "create_token"
token = {{ id = "{tid}", name = "Soldier", controller = "{controller}", power = 1, \
toughness = 1, keywords = {keywords} }}
{extra}"""


# -- 509.1a: a token created after attackers are declared blocks -----------------------


def test_509_1a_a_token_made_after_attackers_are_declared_may_block() -> None:
    """509.1a, 302.6: Raise the Alarm after attackers: the Soldier, on the
    battlefield when blockers are declared, is declared as a blocker (being
    new doesn't keep a creature from blocking) and deals its damage."""
    out = run(HEAD + '[combat]\nattacks = { bear = "bob" }\nblocks = { soldier = "bear" }\n'
              + token("soldier", "bob", "declare_attackers"))
    assert out["ok"] is True, out.get("error")
    blocks = [(e["blocker"], e["attacker"], e["rule"]) for e in out["events"]
              if e["kind"] == "block"]
    assert blocks == [("soldier", "bear", "509.1a")]
    assert out["players"]["bob"]["life"] == 20
    assert out["permanents"]["bear"]["damage"] == 1
    assert out["permanents"]["soldier"]["zone"] == "ceased"  # 111.7, 704.5d


def test_509_1a_a_token_made_after_blockers_are_declared_is_refused_naming_the_step() -> None:
    """509.1a: a token created after blockers are declared wasn't on the
    battlefield when they were: naming it there is a problem saying when it
    enters and what would bring it in time."""
    found = problems(HEAD + '[combat]\nattacks = { bear = "bob" }\nblocks = { soldier = "bear" }\n'
                     + token("soldier", "bob", "declare_blockers"))
    detail = found["combat.blocks.soldier"]
    assert "after = 'declare_blockers'" in detail and "after blockers are declared" in detail
    assert "'beginning_of_combat' or 'declare_attackers'" in detail


def test_509_1a_an_attacker_entering_after_attackers_are_declared_may_be_blocked() -> None:
    """508.4, 509.1a: a token put onto the battlefield attacking after
    attackers are declared is an attacking creature when blockers are
    declared: a block may name it."""
    bob_bear = HEAD.replace('id = "bear"', 'id = "wall"').replace('"alice"', '"bob"') \
        .replace("[players.alice]", "").replace('active_player = "bob"',
                                                 'active_player = "alice"\n[players.alice]')
    text = bob_bear + '[combat]\nattacks = {}\nblocks = { wall = "soldier" }\n' + token(
        "soldier", "alice", "declare_attackers", extra='attacking = "bob"\ntapped = true\n')
    out = run(text)
    assert out["ok"] is True, out.get("error")
    assert ("wall", "soldier") in [(e["blocker"], e["attacker"]) for e in out["events"]
                                   if e["kind"] == "block"]


# -- 508.1a, 302.6: a token created in the beginning of combat step attacks ------------


def test_508_1a_302_6_a_hasty_token_made_at_beginning_of_combat_attacks() -> None:
    """508.1a, 702.10b: a token with haste created in the beginning of combat
    step is declared as an attacker and deals its damage."""
    out = run(HEAD + '[combat]\nattacks = { goblin = "bob" }\n'
              + token("goblin", "alice", "beginning_of_combat", '["haste"]'))
    assert out["ok"] is True, out.get("error")
    assert [e["attacker"] for e in out["events"] if e["kind"] == "attack"] == ["goblin"]
    assert out["players"]["bob"]["life"] == 19


def test_302_6_without_haste_the_new_token_can_t_attack() -> None:
    """302.6: the same token without haste came under alice's control this
    turn: the file is read, and the declaration is refused with rule 302.6."""
    out = run(HEAD + '[combat]\nattacks = { goblin = "bob" }\n'
              + token("goblin", "alice", "beginning_of_combat"))
    assert out["ok"] is False and out["error"]["rule"] == "302.6"


def test_508_1a_a_token_made_after_attackers_are_declared_can_t_attack() -> None:
    """508.1a: attackers are declared before it enters: naming it is refused."""
    found = problems(HEAD + '[combat]\nattacks = { goblin = "bob" }\n'
                     + token("goblin", "alice", "declare_attackers", '["haste"]'))
    assert "after attackers are declared" in found["combat.attacks.goblin"]


def test_an_end_step_token_can_be_declared_in_no_combat_of_the_turn() -> None:
    """513: the end step comes after every combat phase of the turn, so a
    token made then can't be declared in an additional combat (500.8)."""
    text = 'through = "cleanup"\n' + HEAD + '[combat]\nattacks = { bear = "bob" }\n' + token(
        "goblin", "alice", "end_step", '["haste"]') \
        + '\n[[additional_combats]]\nattacks = { goblin = "bob" }\n'
    found = problems(text)
    assert list(found) == ["additional_combats[0].attacks.goblin"]
    assert "after every combat" in found["additional_combats[0].attacks.goblin"]


def test_the_api_declares_a_token_made_after_attackers() -> None:
    """509.1a through :meth:`Engine.resolve`: the token an action made after
    attackers are declared blocks."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [engine.creature("bear", "alice", 2, 2)],
                        active_player="alice")
    soldier = Permanent("soldier", "bob", name="Soldier", types={"creature"}, base_power=1,
                        base_toughness=1)
    out = engine.resolve(state, {"bear": "bob"}, {"soldier": "bear"},
                         actions=[("declare_attackers", CreateToken(soldier))])
    assert out.state.objects["bear"].damage == 1
    assert out.state.objects["soldier"].zone == "ceased"


# -- 111.1: tokens on the battlefield at the start -------------------------------------


def test_111_1_a_token_at_the_start_is_a_token_and_ceases_to_exist() -> None:
    """111.1, 111.7, 704.5d: ``token = true`` on a permanent: it is a token
    from the start; destroyed, it ceases to exist (a card would stay in the
    graveyard)."""
    text = HEAD + """
[[permanents]]
id = "germ"
name = "Phyrexian Germ"
controller = "bob"
power = 0
toughness = 0
counters = { "+1/+1" = 1 }
token = TOKEN

[combat]
attacks = { bear = "bob" }
blocks = { germ = "bear" }
"""
    s = loads(text.replace("TOKEN", "true"))
    assert s.state.objects["germ"].token is True
    assert loads(text.replace("TOKEN", "false")).state.objects["germ"].token is False
    assert run(text.replace("TOKEN", "true"))["permanents"]["germ"]["zone"] == "ceased"
    assert run(text.replace("TOKEN", "false"))["permanents"]["germ"]["zone"] == "graveyard"


# -- 508.4: a card put onto the battlefield attacking ----------------------------------

ENTER_ATTACKING = HEAD + """
[combat]
attacks = { bear = "bob" }

[[combat.actions]]
after = "declare_attackers"
do = "enter_attacking"
attacking = "bob"
tapped = true
[combat.actions.permanent]
id = "captain_soldier"
name = "Elite Vanguard"
controller = "alice"
power = 2
toughness = 1
"""


def test_508_4_a_card_put_onto_the_battlefield_attacking() -> None:
    """508.4, 508.4c: a nontoken creature card is put onto the battlefield
    tapped and attacking: it was never declared (no "attack" event), it is
    no token, and its damage is dealt."""
    s = loads(ENTER_ATTACKING)
    (_after, action), = s.actions
    assert isinstance(action, EnterAttacking) and action.attacking == "bob" and action.tapped
    out = run(ENTER_ATTACKING)
    assert out["ok"] is True, out.get("error")
    assert [e["attacker"] for e in out["events"] if e["kind"] == "attack"] == ["bear"]
    entered = [e for e in out["events"] if e["kind"] == "enters_attacking"]
    assert [(e["attacker"], e["target"], e["rule"]) for e in entered] == [
        ("captain_soldier", "bob", "508.4")]
    assert out["permanents"]["captain_soldier"]["tapped"] is True
    assert out["players"]["bob"]["life"] == 20 - 2 - 2
    assert resolve(s).result.state.objects["captain_soldier"].token is False


def test_508_4_enter_attacking_checks_its_ids() -> None:
    """Scenario format: the permanent's id must be new and what it attacks
    must exist, as for ``create_token``."""
    found = problems(ENTER_ATTACKING.replace('id = "captain_soldier"', 'id = "bear"'))
    assert "needs a new id" in found["combat.actions[0].permanent.id"]
    found = problems(ENTER_ATTACKING.replace('attacking = "bob"', 'attacking = "bobb"'))
    assert "what the permanent enters attacking" in found["combat.actions[0].attacking"]


# -- keyword tokens' ids ---------------------------------------------------------------


def test_111_1_token_ids_count_from_1_and_skip_ids_in_use() -> None:
    """111.1: ``<source>.<keyword>.<n>``, the lowest free numbers, in order."""
    engine = Engine()
    used = engine.creature("voice.mobilize.2", "alice", 1, 1)
    state = engine.game(["alice", "bob"], [engine.creature("voice", "alice", 2, 2), used],
                        active_player="alice")
    assert token_ids(state, "voice", "mobilize", 3) == (
        "voice.mobilize.1", "voice.mobilize.3", "voice.mobilize.4")
    assert token_ids(state, "voice", "myriad") == ("voice.myriad.1",)
    assert token_ids(state, "voice", "mobilize", 0) == ()
    with pytest.raises(ValueError, match="count"):
        token_ids(state, "voice", "mobilize", -1)


def test_702_181a_mobilize_tokens_can_be_named_by_a_file() -> None:
    """702.181a, 509.1a: mobilize's Warriors are ``voice.mobilize.1`` ...: a
    file's blocks name one (it entered attacking before blockers are
    declared), and the second combat's go on numbering."""
    text = """
active_player = "alice"
[players.alice]
[players.bob]

[[permanents]]
id = "voice"
name = "Voice of Victory"
controller = "alice"
power = 1
toughness = 3
keywords = ["mobilize 2"]

[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4

[combat]
attacks = { voice = "bob" }
blocks = { wall = "voice.mobilize.2" }
"""
    out = run(text)
    assert out["ok"] is True, out.get("error")
    assert ("wall", "voice.mobilize.2") in [(e["blocker"], e["attacker"]) for e in out["events"]
                                            if e["kind"] == "block"]
    assert out["players"]["bob"]["life"] == 20 - 1 - 1
    engine = Engine()
    state = engine.game(["alice", "bob"], [engine.creature("voice", "alice", 1, 3,
                                                           "mobilize 1", "vigilance")],
                        active_player="alice")
    first = engine.resolve(state, {"voice": "bob"}, {})
    second = engine.resolve(first.state, {"voice": "bob"}, {})
    made = [e.object for e in (*first.events, *second.events) if e.kind == "enters_battlefield"]
    assert made == ["voice.mobilize.1", "voice.mobilize.2"]


def test_111_1_702_181a_token_ids_go_on_numbering_in_a_later_turn() -> None:
    """111.1 and the contract's token ids (``<source>.<keyword>.<n>``, n from
    1 for that source and keyword over the game): mobilize's Warriors of
    turn 3 are ``.3`` and ``.4``, although those of turn 1 ceased to exist
    and left the state as turn 2 began; a file names them, and the outcome
    lists all four, each its own object."""
    text = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "warriors"
controller = "alice"
power = 2
toughness = 2
keywords = ["mobilize 2"]
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
[[permanents]]
id = "c1"
controller = "bob"
zone = "library"
power = 0
toughness = 4
[[permanents]]
id = "c2"
controller = "alice"
zone = "library"
power = 0
toughness = 4
[combat]
attacks = { warriors = "bob" }
blocks = { wall = ["warriors.mobilize.1"] }
[[turns]]
attacks = {}
[[turns]]
attacks = { warriors = "bob" }
blocks = { wall = ["warriors.mobilize.3"] }
"""
    out = run(text)
    assert out["ok"] is True, out.get("error")
    made = [e["object"] for e in out["events"] if e["kind"] == "enters_battlefield"
            and e["object"].startswith("warriors.mobilize.")]
    assert made == [f"warriors.mobilize.{n}" for n in (1, 2, 3, 4)]
    assert ("wall", "warriors.mobilize.3") in [(e["blocker"], e["attacker"])
                                               for e in out["events"] if e["kind"] == "block"]
    assert out["players"]["bob"]["life"] == 20 - 3 - 3  # the unblocked ones and the creature
    tokens = {k: v for k, v in out["permanents"].items() if k.startswith("warriors.mobilize.")}
    assert sorted(tokens) == [f"warriors.mobilize.{n}" for n in (1, 2, 3, 4)]


def test_111_1_token_ids_skip_the_numbers_of_tokens_gone_from_the_state() -> None:
    """111.1: a state remembers, per source and keyword, the highest number
    of the tokens it let go of, and ``token_ids`` counts on from there."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [engine.creature("voice", "alice", 2, 2)],
                        active_player="alice")
    state = state.evolve(token_numbers={"voice.mobilize": 2})
    assert token_ids(state, "voice", "mobilize", 2) == ("voice.mobilize.3", "voice.mobilize.4")
    assert token_ids(state, "voice", "myriad") == ("voice.myriad.1",)
