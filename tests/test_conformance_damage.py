"""The conformance kit's 'damage-conserved' by declared cause (510.1a,
120.4, 614.1a): what each source assigns is its power or what its keywords
say, and every difference between what it was assigned to deal and what it
dealt is an event naming its cause. A plugin whose only effect is "double
all combat damage" fails it; a keyword's own replacement passes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from redzone import Damage, DamageModifier, Engine, GameState, whole_board
from redzone.testing import plugin_module
from redzone.testing.conformance import ConformanceError, Subject, check_invariant


def _plugin(name: str, **hooks: Callable[..., Any]) -> Any:
    for hook, fn in hooks.items():
        fn.__name__ = hook
    return plugin_module(name, name, **hooks)


def _fails(module: Any) -> ConformanceError:
    with pytest.raises(ConformanceError) as err:
        check_invariant(Subject(module, others=()), "damage-conserved", max_examples=60,
                        derandomize=True, shrink=False)
    assert err.value.invariant == "damage-conserved"
    return err.value


@whole_board  # its keyword on one creature doubles every combat damage
def _double_every_combat_damage(state: GameState, damage: Damage) -> list[DamageModifier] | None:
    if not damage.combat:
        return None
    return [DamageModifier("double all combat damage", "614.1a", multiply=2)]


def test_614_1a_a_modified_amount_is_an_event_naming_its_effects() -> None:
    """614.1a: a replacement that changes the amount says so: a ``modified``
    event with the amount before and after and the effect, before the
    ``damage`` event of the new amount."""
    engine = Engine(discover=False, plugins=[
        _plugin("doubler", redzone_modify_damage=_double_every_combat_damage)])
    state = engine.game(["alice", "bob"], [engine.creature("orc", "alice", 3, 3),
                                           engine.creature("imp", "alice", 1, 1, "doubler")])
    out = engine.resolve(state, {"orc": "bob"})
    kinds = [e.kind for e in out.events if e.kind in ("modified", "damage")]
    assert kinds == ["modified", "damage"]
    modified = next(e for e in out.events if e.kind == "modified")
    assert (modified.source, modified.target, modified.get("original"), modified.amount) == (
        "orc", "bob", 3, 6)
    assert modified.rule == "614.1a"
    assert modified.get("effects") == ("double all combat damage",)
    assert out.state.players["bob"].life == 20 - 6


def test_510_1a_doubling_what_every_creature_assigns_breaks_damage_conserved() -> None:
    """510.1a: a creature assigns its power; a plugin answering twice the
    power for every creature, with or without its keyword, is caught: the
    doubled creature has none of the plugin's keywords (the implementation
    says it answers about creatures without them: ``@whole_board``)."""

    @whole_board
    def redzone_combat_damage_amount(state: GameState, creature: str, step: str) -> int:
        return 2 * state.objects[creature].power

    err = _fails(_plugin("twice", redzone_combat_damage_amount=redzone_combat_damage_amount))
    assert "redzone_combat_damage_amount" in err.detail and "(510.1a)" in err.detail
    assert "none of its keywords" in err.detail


def test_510_1a_a_keyword_that_changes_its_own_creatures_amount_passes() -> None:
    """510.1a: "assigns combat damage equal to its toughness" on the creature
    with the keyword is what its keyword says: no failure."""

    def redzone_combat_damage_amount(state: GameState, creature: str, step: str) -> int | None:
        perm = state.objects[creature]
        return perm.toughness if perm.has("toughfighter") else None

    check_invariant(Subject(_plugin("toughfighter", redzone_combat_damage_amount=(
        redzone_combat_damage_amount)), others=()), "damage-conserved", max_examples=40)


def test_614_1a_doubling_all_combat_damage_breaks_damage_conserved() -> None:
    """614.1a, 120.4: a keyword plugin whose only effect is "double all
    combat damage" doubles damage neither whose source nor whose recipient
    has its keyword: the kit names the plugin and the modification."""
    err = _fails(_plugin("doubler", redzone_modify_damage=_double_every_combat_damage))
    assert "plugin 'doubler' changed" in err.detail
    assert "double all combat damage" in err.detail and "(614.1a)" in err.detail


def test_614_1a_a_keywords_declared_replacement_on_its_own_damage_passes() -> None:
    """614.1a: the same replacement on damage dealt by a creature with the
    keyword is declared (its ``modified`` event) and the keyword's: every
    difference between assigned and dealt damage is explained."""

    def redzone_modify_damage(state: GameState, damage: Damage) -> list[DamageModifier] | None:
        if not damage.combat or not state.last_known(damage.source).has("furnace"):
            return None
        return [DamageModifier("furnace", "614.1a", multiply=2)]

    check_invariant(Subject(_plugin("furnace", redzone_modify_damage=redzone_modify_damage),
                            others=()), "damage-conserved", max_examples=40)
