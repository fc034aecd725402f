"""Wording nits of issue 22, item 6: a list of marks is separated by ", "
(``1 damage, tapped``), a quoted name is never made possessive
(``'alice''s``), and an error no rule is broken by has ``"rule": null`` in the
JSON outcome, not ``""``.
"""

from __future__ import annotations

import json

import pytest
from redzone import Engine, IllegalAttackError, PluginError, ScenarioError
from redzone.formats.outcome import dumps, error_json
from redzone.kernel import display
from redzone.testing import Board, plugin_module


def test_a_permanents_marks_are_separated_by_a_comma_and_a_space() -> None:
    engine = Engine()
    b = Board(engine)
    state = b(b.c("boars", "alice", 4, 4, damage=1, tapped=True, name="Durkwood Boars"))
    text = display.state_text(state)
    assert "boars: Durkwood Boars 4/4 (1 damage, tapped)" in text, text
    assert "damage,tapped" not in text


def test_302_6_summoning_sickness_names_the_controller_without_a_quoted_possessive() -> None:
    """302.6: the violation says whose control, as "the control of 'alice'"."""
    engine = Engine()
    b = Board(engine)
    state = b(b.c("ogre", "alice", 3, 3, summoning_sick=True, name="Hill Ogre"))
    with pytest.raises(IllegalAttackError) as info:
        engine.declare_attackers(state, {"ogre": "bob"})
    message = info.value.violations[0].message
    assert "''s" not in message and "'s control" not in message
    assert "under the control of 'alice' continuously" in message


def test_702_22j_plugins_disagreeing_on_the_divider_name_the_creature_plainly() -> None:
    """702.22j-k: two plugins naming different dividers is a plugin error
    that names the creature without a quoted possessive."""
    one = plugin_module("one", redzone_damage_divider=lambda state, creature: "alice")
    two = plugin_module("two", redzone_damage_divider=lambda state, creature: "bob")
    engine = Engine(plugins=[one, two])
    b = Board(engine)
    state = b(b.c("wurm", "alice", 6, 4), b.c("wall", "bob", 0, 4))
    with pytest.raises(PluginError) as info:
        engine.resolve(state, {"wurm": "bob"}, {"wall": "wurm"})
    message = str(info.value)
    assert "''s" not in message, message
    assert "who divides the combat damage of 'wurm'" in message, message


@pytest.mark.parametrize("error", [
    ScenarioError("players: no players", file="combat.toml", key="players"),
    PluginError("plugin 'x' raised", plugin="x", distribution="", hook="redzone_triggers"),
    RuntimeError("boom"),
], ids=["bad_scenario", "plugin_error", "internal_error"])
def test_an_error_that_breaks_no_rule_has_rule_null(error: BaseException) -> None:
    """No rule is broken by a bad file or a failing plugin: ``"rule": null``."""
    body = error_json(error)["error"]
    assert body["rule"] is None
    assert json.loads(dumps(error_json(error)))["error"]["rule"] is None
    assert '"rule": ""' not in dumps(error_json(error))


def test_a_bad_job_has_rule_null() -> None:
    """A batch job that isn't one (a bad_job outcome) breaks no rule either."""
    from redzone import simulate
    from redzone.execution import BAD_JOB

    (got,) = simulate([3], engine=Engine())
    assert got.kind == BAD_JOB and got.outcome["error"]["rule"] is None
    assert '"rule": ""' not in got.text
