"""``redzone explain``'s audit: what it says is illegal is the rejection's
own error, and every "legal instead" it suggests is legal when fed back into
the combat that was rejected (``docs/command-line.md``)."""

from __future__ import annotations

import json
from pathlib import Path

from redzone.formats.explanation import GOOD, Line, explain
from redzone.formats.outcome import Resolution, resolve
from redzone.formats.scenario import load, loads
from redzone.frontends.account import explanation_json

HOSTILE = Path(__file__).resolve().parent / "hostile" / "files"

TWO = """
active_player = "alice"
[players.alice]
[players.bob]
"""


def _creature(pid: str, controller: str, power: int, toughness: int, extra: str = "") -> str:
    return (f'[[permanents]]\nid = "{pid}"\ncontroller = "{controller}"\npower = {power}\n'
            f"toughness = {toughness}\n{extra}\n")


def _resolve(text: str, rules: str | None = None) -> Resolution:
    return resolve(loads(text, rules=rules))


def _lines(res: Resolution) -> list[Line]:
    assert res.error is not None
    return list(explain(res, str))


def _good(lines: list[Line]) -> list[str]:
    """The suggestions: each line's text with a legal alternative, as shown."""
    return [line.text for line in lines if any(role == GOOD for _t, role in line.parts)]


ORDER = TWO + _creature("x", "alice", 4, 4) + _creature("a", "bob", 2, 2) + _creature(
    "b", "bob", 2, 2) + """
[combat]
attacks = { x = "bob" }
blocks = { a = ["x"], b = ["x"] }
"""


def test_order_suggestion_is_legal_with_the_order() -> None:
    """509.2 (2009-2024): the attacking player orders the creatures blocking
    each attacker; an order of x naming only a, when a and b block it, is
    illegal. The explanation says to list the blocking creatures, suggests no
    block that the order would make illegal, and its order is legal."""
    res = _resolve(ORDER + 'order = { x = ["a"] }\n', rules="m10")
    assert res.failed == "declare_blockers"
    lines = _lines(res)
    assert _good(lines) == ["a legal order: x: a, b"]
    assert [line.rule for line in lines if line.text.startswith("the damage")] == ["509.2"]
    assert _resolve(ORDER + 'order = { x = ["a", "b"] }\n', rules="m10").error is None


ADDITIONAL = TWO + _creature("brute", "alice", 3, 3, 'keywords = ["menace", "vigilance"]') + \
    _creature("a", "bob", 1, 5) + _creature("b", "bob", 1, 5) + _creature("c", "bob", 1, 5) + """
[combat]
attacks = { brute = "bob" }
blocks = { a = ["brute"], b = ["brute"] }

[[additional_combats]]
attacks = { brute = "bob" }
"""


def test_additional_combat_suggestion_uses_its_own_blocks() -> None:
    """702.111b (menace: can't be blocked except by two or more creatures),
    in the second combat (500.8): the suggestion starts from that combat's
    declaration (c blocks brute), not the first one's, and is legal there."""
    res = _resolve(ADDITIONAL + 'blocks = { c = ["brute"] }\n')
    assert res.failed == "declare_blockers"
    assert _good(_lines(res)) == [
        "legal declarations include: c and a and b block brute; no creature blocks brute "
        "(the other blocks as declared)"]
    assert _resolve(ADDITIONAL + 'blocks = { a = ["brute"], b = ["brute"], c = ["brute"] }\n'
                    ).error is None


LIBRARY = "".join(f'[[permanents]]\nid = "lib{p}{i}"\ncontroller = "{p}"\ntypes = ["land"]\n'
                  'zone = "library"\n' for p in ("alice", "bob") for i in range(3))

TURNS = TWO + _creature("bear", "alice", 2, 2, 'keywords = ["menace"]') + _creature(
    "wolf", "bob", 2, 2) + _creature("elf", "bob", 1, 1) + LIBRARY + """
[combat]
attacks = { }
[[turns]]
attacks = { }
[[turns]]
attacks = { bear = "bob" }
"""


def test_later_turn_suggestion_uses_its_own_blocks() -> None:
    """702.111b in the third turn (500.1): the suggestion starts from that
    turn's declaration (elf alone blocks the menace bear) and is legal there."""
    res = _resolve(TURNS + 'blocks = { elf = ["bear"] }\n')
    assert res.failed == "declare_blockers"
    assert _good(_lines(res)) == [
        "legal declarations include: elf and wolf block bear; no creature blocks bear "
        "(the other blocks as declared)"]
    assert _resolve(TURNS + 'blocks = { elf = ["bear"], wolf = ["bear"] }\n').error is None


def test_unasked_choice_is_explained_by_its_own_rule() -> None:
    """601.2: a key of a turn's ``choices`` that no decision asked for is
    refused; the explanation gives that rule and message, not 506.1's timing
    advice."""
    res = _resolve(TWO + _creature("bear", "alice", 2, 2) + LIBRARY + """
[combat]
attacks = { bear = "bob" }
[[turns]]
attacks = {}
choices = { "enlist:knigth" = "bear" }
""")
    lines = _lines(res)
    assert [line.rule for line in lines] == ["601.2"]
    assert "'enlist:knigth'" in lines[0].text


def test_step_that_never_comes_keeps_the_timing_advice() -> None:
    """506.1: an action after a step the combat doesn't go through (no
    creature attacks, so there is no declare blockers step) is refused, and
    the explanation lists the steps a combat goes through."""
    res = _resolve(TWO + _creature("bear", "alice", 2, 2) + """
[combat]
attacks = {}
[[combat.actions]]
after = "declare_blockers"
do = "deal_damage"
source = { id = "bolt", name = "Bolt", controller = "bob", types = ["instant"] }
target = "bear"
amount = 3
""")
    lines = _lines(res)
    assert [line.rule for line in lines] == ["506.1", "506.1"]
    assert lines[1].text.startswith("every action must come after a step")


ASSIGN = TWO + _creature("x", "alice", 4, 4) + _creature("y", "alice", 3, 3) + _creature(
    "a", "bob", 2, 2) + _creature("b", "bob", 2, 2) + """
[combat]
attacks = { x = "bob", y = "bob" }
blocks = { a = ["x"], b = ["y"] }
[combat.assign]
"""


def test_each_wrong_assignment_gets_a_legal_one() -> None:
    """510.1a: each creature assigns combat damage equal to its power. Two
    creatures assigning too little each get a legal assignment, and the two
    together are legal."""
    res = _resolve(ASSIGN + "x = { a = 3 }\ny = { b = 1 }\n")
    assert _good(_lines(res)) == ["a legal assignment: 4 to a (for combat_damage: assign)",
                                  "a legal assignment: 3 to b (for combat_damage: assign)"]
    assert _resolve(ASSIGN + "x = { a = 4 }\ny = { b = 3 }\n").error is None


BLOCKS = TWO + _creature("x", "alice", 2, 2, 'keywords = ["flying"]') + _creature(
    "y", "alice", 2, 2, 'keywords = ["flying"]') + _creature("a", "bob", 2, 2) + _creature(
    "b", "bob", 2, 2) + _creature("r", "bob", 2, 2, 'keywords = ["reach"]') + """
[combat]
attacks = { x = "bob", y = "bob" }
"""


def test_each_illegal_block_gets_a_legal_declaration() -> None:
    """702.9b: a creature with flying can't be blocked except by creatures
    with flying or reach. With a blocking x and b blocking y, each attacker
    gets legal declarations, the other illegal block left out."""
    res = _resolve(BLOCKS + 'blocks = { a = ["x"], b = ["y"] }\n')
    assert _good(_lines(res)) == [
        "legal declarations include: no creature blocks x; r blocks x "
        "(the other blocks as declared, without b blocking y)",
        "legal declarations include: no creature blocks y; r blocks y "
        "(the other blocks as declared, without a blocking x)"]
    assert _resolve(BLOCKS + 'blocks = { r = ["x"] }\n').error is None
    assert _resolve(BLOCKS + 'blocks = { r = ["y"] }\n').error is None


def test_json_keeps_a_name_ending_in_brackets() -> None:
    """702.111b: the explanation's JSON lines come from its structured lines,
    so a name ending in ``[...]`` stays in the text and is no rule."""
    res = _resolve(TWO + _creature("brute", "alice", 3, 2, 'name = "Boggart Brute [702.111b]"\n'
                                   'keywords = ["menace"]') + _creature(
        "bears", "bob", 2, 2, 'name = "Grizzly Bears"') + """
[combat]
attacks = { brute = "bob" }
blocks = { bears = "brute" }
""")
    lines = json.loads(json.dumps(explanation_json(res)))["lines"]
    assert {"text": "Grizzly Bears may block: Boggart Brute [702.111b]", "rule": None,
            "depth": 1} in lines
    assert lines[0] == {"text": "What would be legal instead", "rule": None, "depth": 0}


def test_timing_refusal_names_the_step_it_can_follow() -> None:
    """509.1: an effect can't make a creature block before blockers are
    declared; the explanation gives that rule and message, and the step the
    action can come after, where it is legal."""
    path = HOSTILE / "block-before-blockers.toml"
    res = resolve(load(path))
    lines = _lines(res)
    assert lines[0].rule == "509.1"
    assert "can't be made to block in the declare_attackers step" in lines[0].text
    assert _good(lines) == ["it can come after: declare_blockers"]
    text = path.read_text(encoding="utf-8").replace('after = "declare_attackers"',
                                                    'after = "declare_blockers"')
    assert _resolve(text).error is None


def test_attack_target_is_not_an_attacker() -> None:
    """508.1b: a creature can't attack its own controller's planeswalker;
    the explanation says what can be attacked, not that the planeswalker
    can't attack."""
    res = _resolve(TWO + _creature("bear", "alice", 2, 2) + """
[[permanents]]
id = "jace"
controller = "alice"
types = ["planeswalker"]
loyalty = 3
[combat]
attacks = { bear = "jace" }
""")
    texts = [line.text for line in _lines(res)]
    assert "jace can't attack at all this combat" not in texts
    assert "jace can't be attacked: attack one of bob" in texts


def test_zero_power_entry_is_to_be_removed() -> None:
    """510.1a: a creature with 0 power assigns no combat damage; the
    explanation says to remove its entry, and without it the combat
    resolves."""
    base = TWO + _creature("x", "alice", 0, 4) + _creature("a", "bob", 2, 2) + """
[combat]
attacks = { x = "bob" }
blocks = { a = ["x"] }
"""
    res = _resolve(base + "[combat.assign]\nx = { a = 1 }\n")
    lines = _lines(res)
    assert _good(lines) == ["remove the entry of x from assign: it assigns no combat damage"]
    assert lines[0].rule == "510.1a"
    assert _resolve(base).error is None


def test_double_strike_suggestion_names_its_step() -> None:
    """702.4b, 510.1c: a double striker's division naming a blocker the first
    step killed is illegal in the regular step; the legal assignment
    suggested names the step it is for, and ``assign`` with the first-strike
    step's entry moved to ``assign_first_strike`` (702.19) is legal."""
    path = HOSTILE / "division-double-strike.toml"
    res = resolve(load(path, rules="m10"))
    good = _good(_lines(res))
    assert good == ["a legal assignment: 4 to b2 (for combat_damage: assign, with the entry "
                    "for first_strike_damage moved to assign_first_strike)"]
    text = path.read_text(encoding="utf-8").replace(
        "ds = { b1 = 2, b2 = 2 }",
        "ds = { b2 = 4 }\n[combat.assign_first_strike]\nds = { b1 = 2, b2 = 2 }")
    assert _resolve(text, rules="m10").error is None


def test_each_attackers_legal_blockers_are_asked_once() -> None:
    """509.1a-b: explaining a refused declaration of blockers lists, for each
    attacker, the creatures that may legally block it, and for each blocker
    what it may block: one question per attacker, however many attackers and
    blockers the explanation speaks of (asked per pair, it grew with the
    cube of the board: 200 creatures took half a minute)."""
    n = 12
    text = TWO + "".join(_creature(f"a{i}", "alice", 2, 2, 'keywords = ["flying"]')
                         + _creature(f"d{i}", "bob", 2, 2) for i in range(n))
    text += "[combat]\nattacks = { " + ", ".join(f'a{i} = "bob"' for i in range(n)) + " }\n"
    text += "blocks = { " + ", ".join(f'd{i} = ["a{i}"]' for i in range(n)) + " }\n"
    res = _resolve(text)
    assert res.failed == "declare_blockers"
    engine = res.scenario.engine
    asked: list[str] = []
    real = engine.legal_blockers

    def counted(state: object, attacker: str) -> object:
        asked.append(attacker)
        return real(state, attacker)  # type: ignore[arg-type]

    engine.legal_blockers = counted  # type: ignore[method-assign]
    try:
        lines = _lines(res)
    finally:
        del engine.legal_blockers
    assert sorted(asked) == sorted(f"a{i}" for i in range(n))
    assert next(line.text for line in lines if line.text.startswith("creatures that may")) \
        == "creatures that may legally block a0: none"
