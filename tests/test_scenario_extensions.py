"""Scenario format extensions: attacking bands, supertypes, the restriction
and requirement fields of a permanent, the ``blocks_if_able`` effect and the
``block``, ``enter_blocking`` and ``add_effect`` actions (documented on the
extensions page). Each test states the rule the key lets a file express, and
fails if the key were dropped or misread.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from redzone import AddEffect, Effect, Engine, EnterBlocking, MakeBlock
from redzone.formats import scenario as sc
from redzone.formats.outcome import check, outcome_json, resolve
from redzone.kernel.editions import EDITIONS

engine_for = functools.cache(Engine)

HEAD = """\
active_player = "alice"

[players.alice]
[players.bob]
"""


def perm(pid: str, controller: str, power: int = 2, toughness: int = 2, **extra: str) -> str:
    lines = [f'\n[[permanents]]\nid = "{pid}"\ncontroller = "{controller}"',
             f"power = {power}\ntoughness = {toughness}"]
    lines.extend(f"{k} = {v}" for k, v in extra.items())
    return "\n".join(lines) + "\n"


def loads(text: str, **kwargs: Any) -> sc.Scenario:
    return sc.loads(text, engine_factory=engine_for, **kwargs)


def run(text: str, **kwargs: Any) -> dict[str, Any]:
    return outcome_json(resolve(loads(text, **kwargs)))


def problems(text: str) -> dict[str, str]:
    with pytest.raises(sc.ScenarioProblems) as info:
        loads(text)
    return {p.key: p.detail for p in info.value.problems}


# ---------------------------------------------------------------------------
# [combat] bands
# ---------------------------------------------------------------------------

BAND = HEAD + perm("hero", "alice", 1, 1, keywords='["banding"]') + perm("wurm", "alice", 6, 4) \
    + perm("wall", "bob", 0, 5) + """
[combat]
attacks = { hero = "bob", wurm = "bob" }
bands = [["hero", "wurm"]]
blocks = { wall = "hero" }
"""


def test_bands_make_a_blocker_of_one_member_block_the_band_702_22h() -> None:
    """702.22h: the wall blocks the Hero, so it blocks the Wurm too; the Wurm
    deals its 6 to the wall and nothing to bob. Without ``bands`` the Wurm
    would be unblocked and bob would lose 6."""
    s = loads(BAND)
    assert s.bands == (("hero", "wurm"),)
    out = run(BAND)
    assert out["ok"] is True
    assert {"kind": "block", "blocker": "wall", "attacker": "wurm", "rule": "702.22h",
            "step": "declare_blockers"} in out["events"]
    assert out["players"]["bob"]["life"] == 20
    assert out["permanents"]["wall"]["zone"] == "graveyard"
    no_band = run(BAND.replace('bands = [["hero", "wurm"]]\n', ""))
    assert no_band["players"]["bob"]["life"] == 14


def test_an_illegal_band_is_an_illegal_attack_702_22c() -> None:
    """702.22c: two creatures without banding can't form a band; resolve and
    check both reject the declaration of attackers."""
    text = BAND.replace('keywords = ["banding"]\n', "")
    out = run(text)
    assert out["ok"] is False
    assert (out["error"]["kind"], out["error"]["rule"]) == ("illegal_attack", "702.22c")
    findings = check(loads(text))
    assert [(f.stage, f.error.rule) for f in findings] == [("attacks", "702.22c")]


def test_band_members_must_be_permanents_of_the_file() -> None:
    """Scenario format ``bands``: each member is a permanent id; a list of
    lists of ids."""
    found = problems(BAND.replace('bands = [["hero", "wurm"]]', 'bands = [["hero", "wurn"], "x"]'))
    assert "did you mean 'wurm'" in found["combat.bands[0][1]"]
    assert "expected a list" in found["combat.bands[1]"]


# ---------------------------------------------------------------------------
# Permanents: supertypes, restrictions, requirements
# ---------------------------------------------------------------------------

LAND_WALK = HEAD + perm("rider", "alice", 2, 2, keywords='["nonbasic landwalk"]') \
    + perm("bear", "bob") + """
[[permanents]]
id = "land"
controller = "bob"
types = ["land"]
subtypes = ["Swamp"]
SUPERTYPES

[combat]
attacks = { rider = "bob" }
blocks = { bear = "rider" }
"""


def test_supertypes_make_a_land_basic_702_14c() -> None:
    """702.14c, 205.4a: "nonbasic landwalk" makes the rider unblockable while
    bob controls a land without the supertype basic; with ``supertypes =
    ["basic"]`` the land is basic and the bear may block."""
    basic = LAND_WALK.replace("SUPERTYPES", 'supertypes = ["basic", "snow"]')
    assert loads(basic).state.objects["land"].supertypes == frozenset({"basic", "snow"})
    assert run(basic)["ok"] is True
    nonbasic = run(LAND_WALK.replace("SUPERTYPES", ""))
    assert nonbasic["ok"] is False and nonbasic["error"]["rule"] == "702.14c"


def test_supertypes_are_checked_against_the_known_ones() -> None:
    found = problems(LAND_WALK.replace("SUPERTYPES", 'supertypes = ["basik"]'))
    assert "did you mean 'basic'" in found["permanents[2].supertypes[0]"]


def one_on_one(wurm: str = "", bear: str = "", attacks: str = '{ wurm = "bob" }',
               blocks: str = '{ bear = "wurm" }') -> str:
    """A 6/4 wurm attacks bob; his 2/2 bear blocks it; extra lines for each."""
    return (HEAD + perm("wurm", "alice", 6, 4) + wurm + "\n" + perm("bear", "bob") + bear
            + f"\n\n[combat]\nattacks = {attacks}\nblocks = {blocks}\n")


@pytest.mark.parametrize(("wurm", "bear", "kind", "rule"), [
    ("cant_attack = true", "", "illegal_attack", "508.1c"),
    ("", "cant_block = true", "illegal_block", "509.1b"),
    ("cant_be_blocked = true", "", "illegal_block", "509.1b"),
    ("min_blockers = 2", "", "illegal_block", "509.1b"),
])
def test_restriction_fields_make_the_declaration_illegal(wurm: str, bear: str, kind: str,
                                                         rule: str) -> None:
    """508.1c, 509.1b: "can't attack", "can't block", "can't be blocked" and
    "can't be blocked except by N or more creatures" restrict declarations."""
    assert run(one_on_one())["ok"] is True  # the same board without the field
    out = run(one_on_one(wurm, bear))
    assert out["ok"] is False
    assert (out["error"]["kind"], out["error"]["rule"]) == (kind, rule)


def test_min_blockers_is_met_by_enough_blockers_509_1b() -> None:
    """509.1b: "can't be blocked except by two or more creatures" allows two."""
    text = one_on_one("min_blockers = 2", blocks='{ bear = "wurm", cub = "wurm" }') \
        + perm("cub", "bob", 1, 1)
    assert loads(text).state.objects["wurm"].min_blockers == 2
    assert run(text)["ok"] is True


def test_attacks_if_able_is_a_requirement_508_1d() -> None:
    """508.1d: a creature that attacks each combat if able, left home, makes
    the declaration of attackers illegal."""
    out = run(one_on_one("attacks_if_able = true", attacks="{}", blocks="{}"))
    assert (out["ok"], out["error"]["kind"], out["error"]["rule"]) == (
        False, "illegal_attack", "508.1d")


@pytest.mark.parametrize(("wurm", "bear"), [
    ("", "blocks_if_able = true"),
    ("must_be_blocked = true", ""),
    ("lure = true", ""),
])
def test_block_requirement_fields_make_no_block_illegal_509_1c(wurm: str, bear: str) -> None:
    """509.1c: "blocks each combat if able", "must be blocked if able" and
    Lure are requirements: declaring no blockers, when the bear could block,
    is illegal; blocking obeys them."""
    assert run(one_on_one(blocks="{}"))["ok"] is True  # the same board without the field
    out = run(one_on_one(wurm, bear, blocks="{}"))
    assert out["ok"] is False
    assert (out["error"]["kind"], out["error"]["rule"]) == ("illegal_block", "509.1c")
    assert run(one_on_one(wurm, bear))["ok"] is True


def test_requirements_yield_to_restrictions_509_1c() -> None:
    """509.1c: a tapped creature isn't able to block, so Lure doesn't
    require it to."""
    text = one_on_one("lure = true", "tapped = true", blocks="{}")
    assert run(text)["ok"] is True


def test_lure_requires_every_able_creature_509_1c() -> None:
    """509.1c (the Lure example): with two untapped creatures able to block
    the Lure creature, one blocking it alone obeys fewer requirements than
    possible."""
    text = one_on_one("lure = true") + perm("cub", "bob", 1, 1)
    out = run(text)
    assert out["ok"] is False and out["error"]["rule"] == "509.1c"
    assert out["error"]["objects"] == ["cub", "wurm"]
    both = text.replace('blocks = { bear = "wurm" }', 'blocks = { bear = "wurm", cub = "wurm" }')
    assert run(both)["ok"] is True


def test_flags_default_to_false_and_must_be_booleans() -> None:
    """Scenario format extensions: the fields are optional booleans (and
    ``min_blockers`` a whole number)."""
    wurm = loads(one_on_one()).state.objects["wurm"]
    assert not (wurm.cant_attack or wurm.cant_block or wurm.cant_be_blocked or wurm.lure
                or wurm.attacks_if_able or wurm.blocks_if_able or wurm.must_be_blocked)
    assert wurm.min_blockers == 0 and wurm.supertypes == frozenset()
    found = problems(one_on_one('lure = "yes"\nmin_blockers = -1'))
    assert "expected true or false" in found["permanents[0].lure"]
    assert "out of bounds" in found["permanents[0].min_blockers"]


# ---------------------------------------------------------------------------
# The blocks_if_able effect
# ---------------------------------------------------------------------------


def test_blocks_if_able_effect_is_a_requirement_509_1c() -> None:
    """509.1c, 702.39a: an effect "the bear blocks the wurm if able" makes a
    declaration without that block illegal."""
    effect = '\n[[effects]]\nkind = "blocks_if_able"\nto = "bear"\nsource = "wurm"\n'
    s = loads(one_on_one(blocks="{}") + effect)
    assert s.state.effects == (Effect("blocks_if_able", to="bear", source="wurm"),)
    out = run(one_on_one(blocks="{}") + effect)
    assert out["ok"] is False and out["error"]["rule"] == "509.1c"
    assert run(one_on_one() + effect)["ok"] is True


def test_blocks_if_able_effect_needs_a_creature_and_an_attacker() -> None:
    """Scenario format ``blocks_if_able``: ``to`` is a permanent (a player
    can't block), and both keys are required."""
    found = problems(one_on_one() + '\n[[effects]]\nkind = "blocks_if_able"\nto = "bob"\n')
    assert "'bob' is a player" in found["effects[0].to"]
    assert "missing required key 'source'" in found["effects[0].source"]


# ---------------------------------------------------------------------------
# Actions: block, enter_blocking, add_effect
# ---------------------------------------------------------------------------


def test_block_action_makes_a_creature_block_509_3b() -> None:
    """509.3a-b: an effect makes the cub block the wurm after blockers are
    declared: it becomes a blocking creature, is dealt combat damage and
    deals its own; requirements and restrictions don't apply (509.4b)."""
    text = one_on_one() + perm("cub", "bob", 1, 1, cant_block="true") + """
[[combat.actions]]
after = "declare_blockers"
do = "block"
blocker = "cub"
attacker = "wurm"
"""
    s = loads(text)
    assert s.actions == (("declare_blockers", MakeBlock("cub", "wurm")),)
    out = run(text)
    assert out["ok"] is True
    assert {"step": "declare_blockers", "kind": "block", "rule": "509.3b", "blocker": "cub",
            "attacker": "wurm"} in out["events"]
    assert out["permanents"]["cub"]["zone"] == "graveyard"
    assert out["permanents"]["wurm"]["damage"] == 3  # 2 from the bear, 1 from the cub


def test_block_action_checks_its_ids() -> None:
    text = one_on_one() + '\n[[combat.actions]]\nafter = "declare_blockers"\ndo = "block"\n' \
        'blocker = "bob"\nattacker = "wurn"\nposition = -1\n'
    found = problems(text)
    assert "'bob' is a player" in found["combat.actions[0].blocker"]
    assert "did you mean 'wurm'" in found["combat.actions[0].attacker"]
    assert "out of bounds" in found["combat.actions[0].position"]


ENTER = one_on_one() + """
[[combat.actions]]
after = "declare_blockers"
do = "enter_blocking"
attacker = "wurm"
permanent = { id = "token", name = "Saproling", controller = "bob", power = 1, toughness = 1, \
keywords = ["first strike"] }
"""


def test_enter_blocking_puts_a_blocker_onto_the_battlefield_509_4() -> None:
    """509.4, 509.7: the token enters the battlefield blocking the wurm (its
    keywords parsed like any permanent's), is dealt damage and deals its
    first-strike damage; the outcome lists it."""
    s = loads(ENTER)
    (_after, action), = s.actions
    assert isinstance(action, EnterBlocking) and action.attacker == "wurm"
    assert action.permanent.name == "Saproling" and action.permanent.has("first strike")
    out = run(ENTER)
    assert out["ok"] is True
    assert out["permanents"]["token"]["zone"] == "graveyard"
    assert {"step": "first_strike_damage", "kind": "damage", "rule": "510.2",
            "source": "token", "target": "wurm", "amount": 1, "combat": True} in out["events"]


def test_entering_permanents_may_be_assigned_damage_but_not_declared() -> None:
    """Scenario format ``enter_blocking``: assignments may name the new
    permanent (the wurm assigns 5 to it); declarations may not; its id must
    be new."""
    assigned = ENTER + "\n[combat.assign]\nwurm = { bear = 1, token = 5 }\n"
    out = run(assigned)
    dealt = {(e["source"], e["target"]): e["amount"] for e in out["events"]
             if e["kind"] == "damage"}
    assert dealt[("wurm", "token")] == 5 and dealt[("wurm", "bear")] == 1
    found = problems(ENTER.replace('blocks = { bear = "wurm" }', 'blocks = { token = "wurm" }'))
    assert "after blockers are declared, so it can't be a blocking creature" \
        in found["combat.blocks.token"]
    found = problems(ENTER.replace('id = "token"', 'id = "bear"'))
    assert "needs a new id" in found["combat.actions[0].permanent.id"]
    found = problems(ENTER.replace('keywords = ["first strike"]', 'keywords = ["frist strike"]'))
    assert "'first strike'" in found["combat.actions[0].permanent.keywords[0]"]
    found = problems(ENTER.replace("power = 1, ", ""))
    assert "power" in found["combat.actions[0].permanent.power"]


@pytest.mark.skipif("m10" not in EDITIONS, reason="the m10 edition is not installed")
def test_enter_blocking_position_places_it_in_the_order_509_7_m10() -> None:
    """509.7 of 2009-2024: with ``position = 0`` the token comes first in the
    wurm's damage assignment order, so the default assignment gives it
    lethal damage first; without it, it comes last."""
    first = run(ENTER.replace('attacker = "wurm"\n', 'attacker = "wurm"\nposition = 0\n'),
                rules="m10")
    last = run(ENTER, rules="m10")
    dealt = [(e["target"], e["amount"]) for e in first["events"]
             if e["kind"] == "damage" and e["source"] == "wurm"]
    assert dealt == [("token", 1), ("bear", 5)]
    dealt = [(e["target"], e["amount"]) for e in last["events"]
             if e["kind"] == "damage" and e["source"] == "wurm"]
    assert dealt == [("bear", 2), ("token", 4)]


def test_add_effect_adds_a_requirement_during_combat_611_2() -> None:
    """611.2, 509.1c: a ``blocks_if_able`` effect added after attackers are
    declared (what provoke does) makes a declaration without that block
    illegal; the effect is announced as an event."""
    text = one_on_one(blocks="{}") + """
[[combat.actions]]
after = "declare_attackers"
do = "add_effect"
effect = { kind = "blocks_if_able", to = "bear", source = "wurm" }
"""
    (_after, action), = loads(text).actions
    assert action == AddEffect(Effect("blocks_if_able", to="bear", source="wurm"))
    res = resolve(loads(text))
    assert res.error is not None and res.error.rule == "509.1c"
    assert any(e.kind == "effect" and e.get("effect") == "blocks_if_able" for e in res.events)
    assert run(text.replace("blocks = {}", 'blocks = { bear = "wurm" }'))["ok"] is True


def test_add_effect_checks_the_inline_effect() -> None:
    text = one_on_one() + """
[[combat.actions]]
after = "declare_attackers"
do = "add_effect"
effect = { kind = "fogg", to = "bear" }
"""
    found = problems(text)
    assert "unknown effect kind 'fogg'" in found["combat.actions[0].effect.kind"]
    found = problems(text.replace('kind = "fogg", to = "bear"',
                                  'kind = "reduce_damage", to = "nobody", amount = 1'))
    assert "unknown" in found["combat.actions[0].effect.to"]


# ---------------------------------------------------------------------------
# Keywords: every keyword the engine knows is accepted
# ---------------------------------------------------------------------------


def _printed_forms() -> list[str]:
    forms = []
    for info in Engine().keywords():
        forms.extend(info.spec.examples or (info.spec.name,))
    return sorted(set(forms))


@pytest.mark.parametrize("text", _printed_forms())
def test_every_keyword_the_engine_knows_is_accepted(text: str) -> None:
    """Scenario format, Keywords: a keyword is accepted when a loaded plugin
    provides it; the schema lists no closed set of keywords."""
    s = loads(HEAD + perm("c", "alice", keywords=f'["{text}"]'))
    assert [k.text for k in s.state.objects["c"].keywords] == [text.lower()]


def test_the_schema_has_no_closed_list_of_keywords() -> None:
    keyword = sc.schema()["$defs"]["keyword"]
    assert "enum" not in keyword and "const" not in keyword and keyword["type"] == "string"
