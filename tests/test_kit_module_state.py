"""The conformance kit catches a plugin that keeps state in its module.

``docs/write-a-keyword.md``: "no module state beyond constants", which the
kit checks where it can. A plugin remembering, in a module-level set, the
creatures it already acted for (renown done the natural wrong way, 702.112)
answers differently in the next game. The kit's "resolved twice" check
couldn't see it once earlier boards had filled the set with the ids every
board reuses; and where hypothesis replayed the failing board and it passed,
the error was hypothesis's ``FlakyFailure`` group, not the documented
``ConformanceError``.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import Damage, GameState, Result
from redzone.testing import check_conformance, plugin_module
from redzone.testing.conformance import ConformanceError


def _memo_plugin() -> Any:
    """A keyword 'memo': the first damage its creature deals gains 1 life,
    remembered in a module-level set (wrongly: it outlives the game)."""

    def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
        src = state.last_known(damage.source)
        if not src.has("memo") or damage.source in mod.SEEN:
            return []
        mod.SEEN.add(damage.source)
        return [Result("life_gain", "702.999", damage.source, 1, player=src.controller)]

    redzone_damage_results.__name__ = "redzone_damage_results"
    mod = plugin_module("memo", "memo", redzone_damage_results=redzone_damage_results)
    mod.SEEN = set()
    return mod


@pytest.mark.parametrize("invariants", [["order-independent"],
                                        ["no-exception-escapes", "order-independent"]])
def test_the_kit_names_a_module_global_a_plugin_changes(invariants: list[str]) -> None:
    with pytest.raises(ConformanceError) as err:
        check_conformance(_memo_plugin(), invariants=invariants, max_examples=40,
                          derandomize=True)
    assert "memo.SEEN" in err.value.detail and "no module state" in err.value.detail
    assert err.value.invariant == invariants[0]


def test_a_plugin_whose_module_constants_stay_as_they_were_passes() -> None:
    """A global container the plugin only reads is a constant: no failure."""

    def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
        src = state.last_known(damage.source)
        if not src.has("memo") or damage.source in mod.SEEN:
            return []
        return [Result("life_gain", "702.999", damage.source, 1, player=src.controller)]

    redzone_damage_results.__name__ = "redzone_damage_results"
    mod = plugin_module("memo", "memo", redzone_damage_results=redzone_damage_results)
    mod.SEEN = {"nobody"}
    check_conformance(mod, invariants=["order-independent"], max_examples=20,
                      derandomize=True)
