"""The one-shot API, ``Engine.resolve``: blocks declared for a combat with no
attacking creature are rejected, never silently dropped (the anchors' bug: an
illegal declaration vanishing), citing 508.8 when no creature was declared as
an attacker (the declare blockers step is skipped) and 509.1a when the
attackers declared were removed from combat (the step happens); and the
scenario layer reports exactly the same error.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Engine, IllegalBlockError, RemoveFromCombat
from redzone.formats import scenario as sc
from redzone.formats.outcome import check, outcome_json, resolve


def _board(board: Any) -> Any:
    return board(board.c("wurm", "alice", 6, 4), board.c("wall", "bob", 0, 4))


def test_blocks_with_no_attackers_raise_508_8(engine: Engine, board: Any) -> None:
    """508.8: no creature is declared as an attacker, so the declare blockers
    step is skipped; a declared block can't happen and is an error naming
    the blocker."""
    state = _board(board)
    with pytest.raises(IllegalBlockError) as info:
        engine.resolve(state, {}, {"wall": "wurm"})
    err = info.value
    assert err.rule == "508.8" and err.objects == ("wall",)
    assert [v.rule for v in err.violations] == ["508.8"]
    assert "declare blockers step is skipped" in err.violations[0].message


def test_no_attackers_and_no_blocks_resolve(engine: Engine, board: Any) -> None:
    """508.8: with no attackers and no blocks the combat goes straight to the
    end of combat step; an empty list of attackers for a blocker is no
    block, so it doesn't count as one."""
    state = _board(board)
    for blocks in (None, {}, {"wall": []}, {"wall": ()}):
        result = engine.resolve(state, {}, blocks)
        assert result.steps == ("beginning_of_combat", "declare_attackers", "end_of_combat")


def test_blocks_after_every_attacker_left_combat_raise_509_1a(engine: Engine,
                                                              board: Any) -> None:
    """508.8, 509.1a: the only attacker was declared, so the declare blockers
    step happens even though it is removed from combat before blockers; a
    block of it is rejected (it is not an attacking creature), not dropped."""
    state = _board(board)
    with pytest.raises(IllegalBlockError) as info:
        engine.resolve(state, {"wurm": "bob"}, {"wall": "wurm"},
                       actions=[("declare_attackers", RemoveFromCombat("wurm"))])
    assert info.value.rule == "509.1a"
    assert "not an attacking creature" in info.value.message


def test_blocks_with_attackers_are_still_declared(engine: Engine, board: Any) -> None:
    """Control: the same block with the wurm attacking is legal (509.1a)."""
    result = engine.resolve(_board(board), {"wurm": "bob"}, {"wall": "wurm"})
    assert result.state.objects["wall"].zone == "graveyard"


SCENARIO = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "wurm"
controller = "alice"
power = 6
toughness = 4
[[permanents]]
id = "wall"
controller = "bob"
power = 0
toughness = 4
[combat]
attacks = ATTACKS
blocks = { wall = "wurm" }
ACTIONS
"""


@pytest.mark.parametrize(("attacks", "actions", "rule"), [
    ("{}", "", "508.8"),
    ('{ wurm = "bob" }',
     '[[combat.actions]]\nafter = "declare_attackers"\ndo = "remove_from_combat"\n'
     'target = "wurm"', "509.1a"),
])
def test_the_scenario_layer_reports_the_engines_error(engine: Engine, attacks: str,
                                                      actions: str, rule: str) -> None:
    """508.8 (no creature attacks: no declare blockers step) and 509.1a (the
    only attacker was removed from combat: the step happens, and the wurm is
    not an attacking creature): ``redzone run`` (resolve) and ``redzone
    check`` give the error the engine raises: same kind, rule, objects and
    message."""
    text = SCENARIO.replace("ATTACKS", attacks).replace("ACTIONS", actions)
    scenario = sc.loads(text, engine_factory=lambda _rules: engine)
    res = resolve(scenario)
    assert isinstance(res.error, IllegalBlockError)
    assert res.failed == "declare_blockers" and res.failed_state is not None
    with pytest.raises(IllegalBlockError) as info:
        engine.resolve(scenario.state, scenario.attacks, scenario.blocks,
                       actions=scenario.actions)
    assert (res.error.rule, res.error.objects, str(res.error)) == (
        info.value.rule, info.value.objects, str(info.value))
    (finding,) = check(scenario)
    assert finding.stage == "blocks"
    assert (finding.error.rule, finding.error.objects, str(finding.error)) == (
        info.value.rule, info.value.objects, str(info.value))
    out = outcome_json(res)
    assert (out["error"]["kind"], out["error"]["rule"]) == ("illegal_block", rule)
