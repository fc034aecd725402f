"""Damage step records across combats and turns, and tokens that ceased to
exist in a file with more turns.

A combat damage step's record (510.1) carries the label its events carry
(``combat_damage#2`` in a second combat, 505.1a; ``combat_damage@3`` in a
third turn, scenario-format.md "More turns"), and what shows the records (the
terminal account, the HTML report, the notes) matches them by that label.
A token that ceased to exist (111.7-111.8) leaves the state as the next turn
begins (guarantee 15), but the JSON outcome keeps listing it with ``"zone":
"ceased"`` (scenario-format.md, additions of December 2026 and January 2027).
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from redzone.formats.outcome import Resolution, outcome_json, resolve
from redzone.formats.report import render_html
from redzone.formats.scenario import loads
from redzone.frontends import account
from rich.console import Console

HEAD = """
active_player = "alice"
[players.alice]
[players.bob]
"""

#: Cards in both libraries, so that two more turns draw without losing (704.5b).
LIBRARIES = """
[[permanents]]
id = "a_card1"
controller = "alice"
zone = "library"
power = 1
toughness = 1
[[permanents]]
id = "a_card2"
controller = "alice"
zone = "library"
power = 1
toughness = 1
[[permanents]]
id = "b_card1"
controller = "bob"
zone = "library"
power = 1
toughness = 1
[[permanents]]
id = "b_card2"
controller = "bob"
zone = "library"
power = 1
toughness = 1
"""

#: Two combats in turn 1, then two more turns, each with a first-strike step
#: (702.19): eight damage steps, each with its own record.
LABELS = HEAD + LIBRARIES + """
[[permanents]]
id = "fs"
controller = "alice"
power = 2
toughness = 2
keywords = ["first strike", "vigilance"]
[[permanents]]
id = "p"
controller = "alice"
power = 1
toughness = 4
keywords = ["vigilance"]
[[permanents]]
id = "bb"
controller = "bob"
power = 1
toughness = 5
keywords = ["double strike"]
[combat]
attacks = { fs = "bob", p = "bob" }
[combat.assign]
p = { bob = 1 }
[[additional_combats]]
attacks = { fs = "bob", p = "bob" }
blocks = { bb = "p" }
[additional_combats.assign]
p = { bb = 1 }
[[turns]]
attacks = { bb = "alice" }
[[turns]]
attacks = { fs = "bob", p = "bob" }
"""


def _with_rules(text: str, rules: str) -> str:
    return f'rules = "{rules}"\n' + text


def _account_text(res: Resolution) -> str:
    console = Console(file=io.StringIO(), width=10_000, color_system=None,
                      force_terminal=False, highlight=False, emoji=False)
    account.render_resolution(console, res)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def _damage_labels(steps: tuple[str, ...]) -> list[str]:
    return [s for s in steps if "_damage" in s and "_assigned" not in s]


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["foundations", "sixth"])
def test_each_record_carries_the_label_its_events_carry_in_every_combat_and_turn(
        rules: str) -> None:
    """Contract of ``DamageStepRecord.label`` ("the name its events carry",
    505.1a) with scenario-format.md "More turns" (events and ``steps`` carry
    ``@N``): each record's label is the step it records, as ``steps`` names
    it, and the assignments its events show are the record's (510.1)."""
    res = resolve(loads(_with_rules(LABELS, rules)))
    assert res.result is not None
    records = res.result.damage_steps
    assert [r.label for r in records] == _damage_labels(res.result.steps) == [
        "first_strike_damage", "combat_damage", "first_strike_damage#2", "combat_damage#2",
        "first_strike_damage@2", "combat_damage@2", "first_strike_damage@3",
        "combat_damage@3"]
    for record in records:
        # (with combat damage on the stack, 310.1, the assignment's events are
        # those of the window it goes on the stack in: combat_damage_assigned#2)
        window = record.step + "_assigned" + record.label.removeprefix(record.step)
        shown = {(e.source, e.target, e.amount) for e in res.result.events
                 if e.kind == "assign" and e.step in (record.label, window)}
        assert shown == {(a.source, r, n) for a in record.assignments
                         for r, n in a.amounts.items() if n}, record.label
        assert record.step == record.label.partition("#")[0].partition("@")[0]


#: A vigilant 2/2 attacks bob and a 0/9 wall blocks it; another wall waits.
VIGILANT_AND_WALLS = """\
[[permanents]]
id = "a"
controller = "alice"
power = 2
toughness = 2
keywords = ["vigilance"]
[[permanents]]
id = "w1"
controller = "bob"
power = 0
toughness = 9
[[permanents]]
id = "w2"
controller = "bob"
power = 0
toughness = 9
[combat]
attacks = { a = "bob" }
blocks = { w1 = "a" }
"""


def test_a_rejected_assignment_in_a_later_turn_carries_its_turns_label() -> None:
    """Contract of ``DamageStepRecord.label`` and 510.1c: the attempt an
    illegal assignment's error carries, in the second turn, is labelled as
    that step's events are (``combat_damage@2``)."""
    res = resolve(loads(HEAD + LIBRARIES + VIGILANT_AND_WALLS + """
[[turns]]
attacks = {}
[[turns]]
attacks = { a = "bob" }
blocks = { w2 = "a" }
[turns.assign]
a = { w1 = 2 }
"""))
    assert res.error is not None and res.error.rule == "510.1c"
    assert res.error.damage_step is not None
    assert res.error.damage_step.label == "combat_damage@3"
    assert res.partial is not None
    assert [r.label for r in res.partial.damage_steps] == ["combat_damage"]


# ---------------------------------------------------------------------------
# The account, the HTML report
# ---------------------------------------------------------------------------


def _sections(text: str) -> list[tuple[str, list[str]]]:
    """The account's steps: each title and its lines."""
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line and not line.startswith(" "):
            out.append((line, []))
        elif out and line.strip():
            out[-1][1].append(line.strip())
    return out


@pytest.mark.parametrize("rules", ["foundations", "sixth"])
def test_the_account_lists_each_steps_records_under_that_step(rules: str) -> None:
    """Contract of ``DamageStepRecord.label`` (records are matched by the
    combat and turn they belong to, 505.1a, 500.1): under each combat damage
    step, the account lists exactly the assignments of that step's record
    (510.1), not every combat's and turn's under the first combat's step."""
    res = resolve(loads(_with_rules(LABELS, rules)))
    assert res.result is not None
    listed = []
    for title, lines in _sections(_account_text(res)):
        if any(line.startswith("Combat damage assignment:") for line in lines):
            listed.append((title, sorted(line.split(" (power")[0].removeprefix("• ")
                                         for line in lines if " (power " in line)))
    expected = [sorted(a.source for a in r.assignments) for r in res.result.damage_steps]
    assert [sources for _title, sources in listed] == expected
    # the second combat's and later turns' steps say which they are
    assert sum("(combat 2)" in title for title, _ in listed) == 2


CARRY = HEAD + VIGILANT_AND_WALLS + """
[[additional_combats]]
attacks = { a = "bob" }
blocks = { w2 = "a" }
[additional_combats.assign]
a = { w1 = 2 }
"""


def test_the_report_shows_only_the_rejected_steps_assignment() -> None:
    """510.1c, 733 and the report's "attempted assignment" (510.1): when the
    second combat's assignment is illegal, the table lists that step's
    assignment alone, and flags only it; the first combat's legal default
    assignment isn't listed as a violation."""
    res = resolve(loads(CARRY))
    assert res.error is not None and res.error.rule == "510.1c"
    html = render_html(res)
    section = re.search(r"<section class='attempted'.*?</section>", html, re.S)
    assert section is not None
    rows = re.findall(r"<tr( class='violation')? data-source='([^']*)'>(.*?)</tr>",
                      section.group(0), re.S)
    assert [(bool(cls), source) for cls, source, _ in rows] == [(True, "a")]
    assert "as given" in rows[0][2] and "2 to w1" in rows[0][2]


def test_the_account_shows_a_rejected_later_combats_attempt_only_with_the_error() -> None:
    """510.1c, 733: the rejected second combat's attempt is not listed under
    the first combat's combat damage step, which lists its own (default)
    assignment (510.1)."""
    res = resolve(loads(CARRY))
    text = _account_text(res)
    first = [lines for title, lines in _sections(text) if title.startswith(
        "Combat damage step") and "(combat 2)" not in title]
    assert len(first) == 1
    records = [line for line in first[0] if " (power " in line]
    assert records == ["• a (power 2, blocked by w1), default assignment:  [510.1c]"]


# ---------------------------------------------------------------------------
# Notes
# ---------------------------------------------------------------------------


def test_an_entry_unused_in_two_turns_gets_a_note_for_each() -> None:
    """Guarantee 24 and 506.4: an entry unused in turn 1 (its creature was
    removed from combat) and again in turn 3 gets a note each time, the
    later one naming the step as its events do (``combat_damage@3``)."""
    res = resolve(loads(HEAD + LIBRARIES + """
[[permanents]]
id = "x"
controller = "alice"
power = 2
toughness = 2
[[permanents]]
id = "y"
controller = "alice"
power = 1
toughness = 1
[combat]
attacks = { x = "bob", y = "bob" }
[combat.assign]
x = { bob = 2 }
[[combat.actions]]
after = "declare_blockers"
do = "remove_from_combat"
target = "x"
[[turns]]
attacks = {}
[[turns]]
attacks = { x = "bob", y = "bob" }
[turns.assign]
x = { bob = 2 }
[[turns.actions]]
after = "declare_blockers"
do = "remove_from_combat"
target = "x"
"""))
    assert res.ok
    assert len(res.notes) == 2
    assert "unused in combat_damage (rule 506.4)" in res.notes[0]
    assert "unused in combat_damage@3 (rule 506.4)" in res.notes[1]


def test_a_later_turns_notes_follow_that_turns_own_assignments() -> None:
    """Guarantee 24, 702.19 (by entry): in the second turn, a first striker
    removed from combat leaves both its ``assign_first_strike`` entry and its
    ``assign`` entry unused: two entries, two notes, read from that turn's
    assignments (not the first turn's, which gave none)."""
    res = resolve(loads(HEAD + LIBRARIES + """
[[permanents]]
id = "x"
controller = "alice"
power = 2
toughness = 2
keywords = ["double strike"]
[[permanents]]
id = "y"
controller = "alice"
power = 1
toughness = 1
keywords = ["first strike"]
[combat]
attacks = {}
[[turns]]
attacks = {}
[[turns]]
attacks = { x = "bob", y = "bob" }
[turns.assign]
x = { bob = 2 }
[turns.assign_first_strike]
x = { bob = 2 }
[[turns.actions]]
after = "declare_blockers"
do = "remove_from_combat"
target = "x"
"""))
    assert res.ok
    assert [n.rpartition(" unused in ")[2] for n in res.notes] == [
        "first_strike_damage@3 (rule 506.4)", "combat_damage@3 (rule 506.4)"]


# ---------------------------------------------------------------------------
# Tokens that ceased to exist
# ---------------------------------------------------------------------------


CEASED = HEAD + """
[[permanents]]
id = "soldier"
controller = "alice"
power = 1
toughness = 1
token = true
[[permanents]]
id = "bl"
controller = "bob"
power = 1
toughness = 1
zone = "library"
[combat]
attacks = {}
[[combat.actions]]
after = "declare_attackers"
do = "sacrifice"
target = "soldier"
[[turns]]
attacks = {}
"""


def _zones(board: dict[str, Any]) -> dict[str, str]:
    return {i: p["zone"] for i, p in board["permanents"].items()}


def test_a_token_that_ceased_stays_in_the_outcome_of_a_file_with_more_turns() -> None:
    """Scenario format, additions of January 2027 ("The JSON outcome keeps
    every object in ``permanents`` with its ``zone``") and of December 2026
    (a token that left the battlefield is reported with ``"zone":
    "ceased"``, 111.7-111.8): after the next turn begins, the final
    ``permanents`` and every later ``after_steps`` entry still list it, in
    its place, with its last known values."""
    res = resolve(loads(CEASED))
    out = outcome_json(res)
    assert out["ok"], out
    cleanup = out["after_steps"]["cleanup"]
    assert _zones(cleanup) == {"soldier": "ceased", "bl": "library"}
    assert _zones(out) == {"soldier": "ceased", "bl": "hand"}  # (bob drew it, 504.1)
    assert list(out["permanents"]) == list(cleanup["permanents"])
    assert out["permanents"]["soldier"] == cleanup["permanents"]["soldier"]
    later = list(out["after_steps"])[list(out["after_steps"]).index("cleanup") + 1:]
    assert later and later[0] == "untap@2"
    for step in later:
        entry = out["after_steps"][step]
        assert list(entry["permanents"]) == ["soldier", "bl"], step
        assert entry["permanents"]["soldier"] == cleanup["permanents"]["soldier"], step


def test_the_state_still_drops_the_token_as_the_next_turn_begins() -> None:
    """Guarantee 15 (111.7, 704.5d): the state itself doesn't keep a ceased
    token past the turn it ceased in, so a long game's state doesn't grow;
    only the outcome lists it."""
    res = resolve(loads(CEASED))
    assert res.result is not None
    assert "soldier" not in res.result.state.objects
    assert "soldier" not in res.result.after_steps["untap@2"].objects
    assert res.result.after_steps["cleanup"].objects["soldier"].zone == "ceased"


def test_mobilizes_warriors_are_reported_ceased_after_the_next_turn() -> None:
    """702.181a, 111.7 with the scenario contract: mobilize's Warriors,
    sacrificed at the end step, are still in ``permanents`` after one more
    turn, each with ``"zone": "ceased"``, so an expectation on them finds
    them."""
    out = outcome_json(resolve(loads(HEAD + LIBRARIES + """
[[permanents]]
id = "voice"
controller = "alice"
power = 1
toughness = 3
keywords = ["mobilize 2"]
[[permanents]]
id = "bears"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { voice = "bob" }
blocks = { bears = "voice" }
[[turns]]
attacks = {}
""")))
    assert out["ok"], out
    for warrior in ("voice.mobilize.1", "voice.mobilize.2"):
        assert out["permanents"][warrior]["zone"] == "ceased"
        assert out["permanents"][warrior]["power"] == 1
        assert out["after_steps"]["draw@2"]["permanents"][warrior]["zone"] == "ceased"
    assert out["players"]["bob"]["life"] == 18


def test_a_rejected_later_turns_partial_outcome_keeps_the_ceased_token() -> None:
    """Scenario format (additions of January 2027) and 733: the ``partial``
    outcome of a file rejected in a later turn (an action on the token that
    no longer exists, 400.1) lists the token that ceased in an earlier turn
    too."""
    text = CEASED.replace("[[turns]]\nattacks = {}", """[[turns]]
attacks = {}
[[turns.actions]]
after = "upkeep"
do = "sacrifice"
target = "soldier"
""")
    out = outcome_json(resolve(loads(text)))
    assert not out["ok"] and out["error"]["rule"] == "400.1"
    assert out["partial"]["permanents"]["soldier"]["zone"] == "ceased"


def test_after_steps_holds_the_beginning_phase_step_the_game_ends_in() -> None:
    """Scenario format (more turns): `after_steps` holds `untap@N`,
    `upkeep@N`, `draw@N`, and the state as each step ended; 704.5b: bob,
    drawing from an empty library in his draw step, loses there, and that
    step's entry is the state as the game ended, as a combat damage step's
    is when the game ends in it."""
    from _outcomes import run as run_file

    out = run_file('active_player = "alice"\n[players.alice]\n[players.bob]\n'
                   '[combat]\nattacks = {}\n[[turns]]\nattacks = {}\n')
    assert out["steps"][-1] == "draw@2"
    assert out["game_over"]["losers"] == ["bob"]
    assert out["after_steps"]["draw@2"]["players"]["bob"]["lost"] is True
