"""509.1c counts requirements one per effect: two provoke triggers (702.39b:
each instance triggers separately) that target the same creature are two
requirements "block this creature if able", and outnumber one Lure."""

from __future__ import annotations

import pytest
from _outcomes import run
from redzone import Engine, IllegalBlockError

engine = Engine()
c = engine.creature

FILE = '''active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "taunter"
controller = "alice"
power = 1
toughness = 1
keywords = ["provoke", "provoke"]
[[permanents]]
id = "lurer"
controller = "alice"
power = 1
toughness = 1
lure = true
[[permanents]]
id = "bear"
controller = "bob"
power = 2
toughness = 2
[combat]
attacks = { taunter = "bob", lurer = "bob" }
blocks = { bear = "%s" }
'''


def test_509_1c_two_provoke_effects_outnumber_one_lure() -> None:
    """509.1c, 702.39b: blocking the taunter obeys two requirements, the
    Lurer one: the Bear must block the taunter."""
    out = run(FILE % "lurer")
    assert not out["ok"] and out["error"]["rule"] == "509.1c"
    assert run(FILE % "taunter")["ok"]


def test_509_1c_the_enumerator_lists_only_the_declaration_obeying_most() -> None:
    """509.1c: the legal declarations are those obeying the most requirements:
    the Bear blocking the taunter alone."""
    from redzone.kernel.model import Effect

    state = engine.game(["alice", "bob"], [
        c("taunter", "alice", 1, 1), c("lurer", "alice", 1, 1, lure=True),
        c("bear", "bob", 2, 2)],
        effects=[Effect("blocks_if_able", to="bear", source="taunter"),
                 Effect("blocks_if_able", to="bear", source="taunter")])
    state = engine.declare_attackers(state, {"taunter": "bob", "lurer": "bob"}).state
    assert [dict(d) for d in engine.legal_block_declarations(state)] == [{"bear": ("taunter",)}]
    with pytest.raises(IllegalBlockError):
        engine.declare_blockers(state, {"bear": "lurer"})
