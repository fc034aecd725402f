"""The conformance kit catches a plugin whose only effect is "double all combat
damage" (issue: one passed all seven checks).

A keyword is an ability of the object that has it (702.1, 113.1): what it
does to damage it does to damage its object deals or is dealt. A plugin that
changes combat damage between objects without its keywords (a Furnace of
Rath in a keyword's clothing) breaks "damage assigned = damage dealt + damage
prevented" (510.1a, 120.4) for damage its keyword has nothing to do with, and
the kit's ``damage-conserved`` check says so, naming the pair. Replacements
on the kit's boards from plugins not under test, and a keyword's own change
to damage its object is involved in, stay allowed.
"""

from __future__ import annotations

from typing import Any

import pytest
from redzone import DamageModifier, KeywordSpec, hookimpl
from redzone.testing import ConformanceError, check_conformance, plugin_module


def _double_all(state: Any, damage: Any) -> list[DamageModifier] | None:
    del state
    return [DamageModifier("doubled", "614.1a", multiply=2)] if damage.combat else None


DOUBLER = plugin_module("doubler", redzone_modify_damage=_double_all)
#: The same, declaring a keyword it never looks at.
DOUBLER_KEYWORD = plugin_module(
    "doubling", "doubling", redzone_modify_damage=_double_all)


def test_510_1a_a_plugin_that_doubles_all_combat_damage_fails_the_kit() -> None:
    """510.1a, 120.4, 614.1a, 702.1: declaring a keyword it never looks at, the
    doubler changes damage between objects without it: ``damage-conserved``
    says so."""
    with pytest.raises(ConformanceError) as info:
        check_conformance(DOUBLER_KEYWORD, invariants=["damage-conserved"], max_examples=30,
                          derandomize=True)
    assert info.value.invariant == "damage-conserved"
    assert "keyword" in str(info.value) and "614.1a" in str(info.value)


def test_702_1_a_doubler_declaring_no_keyword_fails_the_kit() -> None:
    """702.1: the kit checks keyword plugins: one that declares no keyword at
    all fails its first check, ``keyword-metadata``."""
    with pytest.raises(ConformanceError) as info:
        check_conformance(DOUBLER, max_examples=10)
    assert info.value.invariant == "keyword-metadata"


class _OwnDoubling:
    """"Damage this creature deals is doubled": a keyword changing its own
    object's damage, which the kit allows."""

    __name__ = "twice"

    @hookimpl
    def redzone_keywords(self) -> list[KeywordSpec]:
        return [KeywordSpec("twice", "702.999", summary="damage it deals is doubled")]

    @hookimpl
    def redzone_modify_damage(self, state: Any, damage: Any) -> list[DamageModifier] | None:
        perm = state.objects.get(damage.source)
        if perm is not None and state.last_known(damage.source).has("twice"):
            return [DamageModifier("twice", "614.1a", multiply=2)]
        return None


def test_614_1a_a_keyword_doubling_its_own_damage_passes() -> None:
    """614.1a, 702.1: a keyword that doubles the damage its own object deals
    changes only damage its object is involved in: the kit passes it."""
    check_conformance(_OwnDoubling(), invariants=["damage-conserved"], max_examples=30)


def test_310_8_generated_boards_attack_battles_and_planeswalkers_legally() -> None:
    """310.8, 506.2, 508.1b: the kit's boards include a Siege battle its
    controller attacks, protected by the defending player, and a planeswalker,
    each attacked in a legal declaration."""
    from hypothesis import Phase, find, settings
    from redzone import Engine
    from redzone.testing.conformance import cases, legalize

    engine = Engine()
    # The first board found will do: no shrinking (which costs more than finding it).
    quick = settings(max_examples=2000, database=None, phases=[Phase.generate])
    for target in ("siege", "pw"):
        def attacked(c: Any, t: str = target) -> bool:
            legal = legalize(engine, c)
            return legal is not None and t in legal.attacks.values()

        case = find(cases(engine, ["flying"]), attacked, settings=quick)
        legal = legalize(engine, case)
        assert legal is not None and target in legal.attacks.values()
        perm = legal.state.objects[target]
        assert ("battle" in perm.types and perm.protector == "bob") if target == "siege" \
            else "planeswalker" in perm.types
