"""Typed errors that cite the rules (core/redzone/errors.py)."""

from __future__ import annotations

import pytest
from redzone import (
    Engine,
    IllegalActionError,
    IllegalAssignmentError,
    IllegalAttackError,
    IllegalBlockError,
    PluginError,
    PluginLoadError,
    RulesError,
    ScenarioError,
    UnknownKeywordError,
    Violation,
    creature,
)
from redzone.kernel.editions import UnknownEditionError, get_edition


def test_hierarchy() -> None:
    """DESIGN: one root; illegal actions are also ValueErrors; plugin load
    problems are their own branch."""
    for cls in (IllegalActionError, IllegalAttackError, IllegalBlockError,
                IllegalAssignmentError, UnknownKeywordError, ScenarioError, UnknownEditionError):
        assert issubclass(cls, RulesError) and issubclass(cls, ValueError)
    for cls in (IllegalAttackError, IllegalBlockError, IllegalAssignmentError):
        assert issubclass(cls, IllegalActionError)
    assert issubclass(PluginLoadError, PluginError) and issubclass(PluginError, RulesError)
    assert not issubclass(PluginError, ValueError)


def test_error_kinds_of_the_json_outcome() -> None:
    """The scenario contract's error kinds."""
    assert IllegalAttackError("x", rule="508.1a").kind == "illegal_attack"
    assert IllegalBlockError("x", rule="509.1a").kind == "illegal_block"
    assert IllegalAssignmentError("x", rule="510.1a").kind == "illegal_assignment"
    assert IllegalActionError("x", rule="506.1").kind == "illegal_action"
    assert ScenarioError("x").kind == "bad_scenario"


def test_violations_sorted_deduplicated_and_joined() -> None:
    """733 / DESIGN: one error carries every violation, in a stable order
    whatever order they were found in; the first names the rule; objects are
    every object involved, sorted."""
    a = Violation("702.9b", "drake can't be blocked by bear", ("bear", "drake"), "flying")
    b = Violation("509.1a", "wall is tapped", ("wall",))
    one = IllegalBlockError([a, b, a])
    two = IllegalBlockError([b, a])
    assert one.violations == two.violations == (a, b)
    assert one.rule == "702.9b"
    assert one.objects == ("bear", "drake", "wall")
    assert str(one) == ("drake can't be blocked by bear (rule 702.9b); wall is tapped "
                        "(rule 509.1a)")
    assert one.message == "drake can't be blocked by bear; wall is tapped"
    assert str(a) == "drake can't be blocked by bear (rule 702.9b)"


def test_single_message_form() -> None:
    """An error built from a message carries one violation with its rule."""
    err = IllegalActionError("no such thing", rule="400.1", objects=["z", "a"])
    assert (err.rule, err.objects, err.message) == ("400.1", ("a", "z"), "no such thing")
    assert err.violations == (Violation("400.1", "no such thing", ("z", "a")),)


def test_an_error_needs_a_violation() -> None:
    """An illegal-action error without a broken rule would explain nothing."""
    with pytest.raises(ValueError, match="at least one violation"):
        IllegalActionError([])


def test_unknown_keyword_suggests() -> None:
    """702.1: an unknown keyword names itself and lists close matches."""
    err = UnknownKeywordError("flyng", ["flying"])
    assert (err.text, err.suggestions) == ("flyng", ("flying",))
    assert str(err) == "unknown keyword 'flyng': no loaded plugin provides it; did you mean " \
        "'flying'?"
    assert str(UnknownKeywordError("zzz")) == "unknown keyword 'zzz': no loaded plugin provides it"


def test_plugin_error_fields() -> None:
    """Plugin errors name the plugin, its distribution and the hook."""
    err = PluginError("boom", plugin="p", distribution="d", hook="redzone_x")
    assert (err.plugin, err.distribution, err.hook, str(err)) == ("p", "d", "redzone_x", "boom")


def test_scenario_error_location() -> None:
    """bad_scenario: the message names the file, the line and the key."""
    err = ScenarioError("must be an integer", file="combat.toml", key="permanents[2].power",
                        line=12)
    assert str(err) == "combat.toml:12: permanents[2].power: must be an integer"
    assert (err.file, err.key, err.line, err.detail) == (
        "combat.toml", "permanents[2].power", 12, "must be an integer")
    assert str(ScenarioError("empty")) == "<scenario>: empty"


def test_unknown_edition() -> None:
    """Rules editions are data; an unknown one names the known ones."""
    with pytest.raises(UnknownEditionError, match="foundations"):
        get_edition("alpha")
    with pytest.raises(UnknownEditionError):
        Engine("alpha", discover=False)


def test_errors_from_commands_quote_values(bare_engine: Engine) -> None:
    """DESIGN (python-chess): messages quote the values involved."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2, tapped=True,
                                                         name="Goblin Piker")])
    with pytest.raises(IllegalAttackError) as info:
        bare_engine.declare_attackers(state, {"orc": "bob"})
    assert "Goblin Piker (orc) is tapped" in str(info.value)
