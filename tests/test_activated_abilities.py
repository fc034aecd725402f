"""Activated abilities (602; issue 23 item 2): a keyword plugin declares one
(``redzone_activated_abilities``: its cost's choices, timing, zones and
restrictions), an embedder activates it with ``Engine.activate``, a scenario
file with ``do = "activate"``; it is refused with its rule, changing
nothing, when its timing or cost can't be met (602.5).

The ability proved here is a test keyword's, "spur": "Tap an untapped
creature you control other than this creature: this creature gets +2/+0
until end of turn. Activate only during the declare blockers step and only
while this creature is attacking." (Ninjutsu, 702.49, needs a hand zone.)
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from redzone import (
    Activate,
    ActivatedAbility,
    Destroy,
    Engine,
    GameState,
    IllegalActionError,
    KeywordSpec,
    ObjectId,
    PluginError,
    PluginLoadError,
    Pump,
    Tx,
    hookimpl,
)
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.kernel.abilities import Activate as KernelActivate
from redzone.kernel.events import KERNEL_KINDS
from redzone.kernel.model import Action


def _spur(tx: Tx, action: Action) -> None:
    assert isinstance(action, Activate)
    tapped = tx.permanent(action.cost["tap"], "spur")
    if tapped.tapped or tapped.id == action.source or not tapped.is_creature \
            or tapped.controller != tx.state.objects[action.source].controller:
        raise IllegalActionError(f"spur: {tapped.id!r} isn't another untapped creature "
                                 "you control", rule="601.2h", objects=(tapped.id,))
    tx.put(tapped.evolve(tapped=True))
    tx.perform(Pump(action.source, 2, 0))


def _while_attacking(state: GameState, action: Action) -> str | None:
    assert isinstance(action, Activate)
    combat = state.combat
    if combat is not None and action.source in combat.attacks:
        return None
    return "only while this creature is attacking"


SPUR_ABILITY = ActivatedAbility("spur", "602.1", _spur, {"tap": ObjectId},
                                timing=("declare_blockers",), restrictions=_while_attacking,
                                summary="tap another creature: +2/+0")


@hookimpl
def redzone_activated_abilities() -> list[ActivatedAbility]:
    return [SPUR_ABILITY]


SPUR = SimpleNamespace(
    __name__="spur",
    redzone_keywords=hookimpl(lambda: [KeywordSpec("spur", "602.1")]),
    redzone_activated_abilities=redzone_activated_abilities)


def _engine(rules: str = "foundations") -> Engine:
    return Engine(rules, plugins=[SPUR])


def _blocking_step(engine: Engine, attack: bool = True) -> GameState:
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 2, 2, engine.keyword("spur")),
                                            c("squire", "alice", 3, 1),
                                            c("bear", "bob", 2, 2)])
    state = engine.declare_attackers(state, {"knight" if attack else "squire": "bob"}).state
    return engine.declare_blockers(state, {}).state


def test_an_activation_pays_its_cost_and_resolves() -> None:
    """602.2: activated by its controller in the declare blockers step, the
    cost is paid (the Squire taps) and the effect happens (+2/+0); the
    ``activate`` event is declared in the kernel's vocabulary."""
    engine = _engine()
    state = _blocking_step(engine)
    out = engine.activate(state, "knight", "spur", {"tap": "squire"})
    assert out.state.objects["squire"].tapped
    assert out.state.objects["knight"].power == 4
    event = out.events[0]
    assert (event.kind, event.rule, event.source, event.player, event.get("ability")) == \
        ("activate", "602.2", "knight", "alice", "spur")
    assert "activate" in {k.name for k in KERNEL_KINDS}


def _refused(engine: Engine, state: GameState, *args: object, **kwargs: object
             ) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        engine.activate(state, *args, **kwargs)  # type: ignore[arg-type]
    return info.value


def test_outside_its_timing_it_is_refused_with_602_5() -> None:
    """602.5: "Activate only during the declare blockers step": in the declare
    attackers step it is refused, naming 602.5 and the step; nothing changes."""
    engine = _engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("knight", "alice", 2, 2, engine.keyword("spur")),
                                            c("squire", "alice", 3, 1)])
    state = engine.declare_attackers(state, {"knight": "bob"}).state
    err = _refused(engine, state, "knight", "spur", {"tap": "squire"})
    assert err.rule == "602.5"
    assert "declare_blockers" in err.message and "declare_attackers" in err.message
    assert not state.objects["squire"].tapped


def test_an_unmet_restriction_is_refused_with_602_5() -> None:
    """602.5: "only while this creature is attacking": in the declare blockers
    step of a combat it doesn't attack in (the Squire does), refused with
    the plugin's reason."""
    engine = _engine()
    state = _blocking_step(engine, attack=False)
    err = _refused(engine, state, "knight", "spur", {"tap": "bear"})
    assert err.rule == "602.5" and "only while this creature is attacking" in err.message


def test_a_cost_that_cant_be_met_is_refused() -> None:
    """602.2b (601.2b-h apply): the cost's choices are the declared keys,
    of their type, naming what is there; a cost the plugin can't pay (an
    opponent's creature) is its refusal. Nothing is paid in any case."""
    engine = _engine()
    state = _blocking_step(engine)
    assert _refused(engine, state, "knight", "spur", {}).rule == "602.2b"
    assert "'tap'" in _refused(engine, state, "knight", "spur", {}).message
    unknown = _refused(engine, state, "knight", "spur", {"tap": "squire", "tapp": "x"})
    assert unknown.rule == "602.2b" and "'tapp'" in unknown.message
    assert _refused(engine, state, "knight", "spur", {"tap": 3}).rule == "602.2b"
    missing = _refused(engine, state, "knight", "spur", {"tap": "squirre"})
    assert missing.rule == "602.2b" and "did you mean 'squire'" in missing.message
    theirs = _refused(engine, state, "knight", "spur", {"tap": "bear"})
    assert theirs.rule == "601.2h"
    assert not state.objects["bear"].tapped and state.objects["knight"].power == 2


def test_who_activates_and_from_where() -> None:
    """602.2: only the source's controller activates it; 113.6: the ability
    functions only from the zones it says (here the battlefield); 602.1: an
    object without the keyword has no such ability, and an undeclared
    ability is named with the loaded ones."""
    engine = _engine()
    state = _blocking_step(engine)
    assert _refused(engine, state, "knight", "spur", {"tap": "squire"},
                    player="bob").rule == "602.2"
    assert _refused(engine, state, "squire", "spur", {"tap": "knight"}).rule == "602.1"
    unknown = _refused(engine, state, "knight", "spurr", {"tap": "squire"})
    assert unknown.rule == "602.1" and "did you mean 'spur'" in unknown.message
    gone = engine.perform(state, Destroy("knight")).state
    assert gone.objects["knight"].zone == "graveyard"
    assert _refused(engine, gone, "knight", "spur", {"tap": "squire"}).rule == "113.6"


def test_a_fault_in_the_abilitys_code_names_its_plugin_and_hook() -> None:
    """A plugin whose ability raises fails the command with a PluginError
    naming it and ``redzone_activated_abilities``; nothing changes."""
    def boom(tx: Tx, action: Action) -> None:
        tx.put(tx.permanent("squire", "boom").evolve(tapped=True))
        raise ZeroDivisionError("oops")

    broken = SimpleNamespace(
        __name__="broken",
        redzone_keywords=hookimpl(lambda: [KeywordSpec("spur", "602.1")]),
        redzone_activated_abilities=hookimpl(lambda: [ActivatedAbility("spur", "602.1", boom)]))
    engine = Engine(plugins=[broken])
    state = _blocking_step(engine)
    with pytest.raises(PluginError) as info:
        engine.activate(state, "knight", "spur")
    assert info.value.plugin == "broken" and info.value.hook == "redzone_activated_abilities"
    assert not state.objects["squire"].tapped


def test_two_plugins_declaring_one_ability_is_a_load_error_naming_both() -> None:
    """Like action kinds: one name, one plugin."""
    other = SimpleNamespace(__name__="other", redzone_activated_abilities=hookimpl(
        lambda: [ActivatedAbility("spur", "602.1", _spur)]))
    with pytest.raises(PluginLoadError) as info:
        Engine(plugins=[SPUR, other])
    assert "'spur'" in str(info.value) and "'other'" in str(info.value)


def test_activate_is_the_kernels_action_kind() -> None:
    """``Engine.activate`` is ``perform`` of the kernel's ``activate`` kind,
    the one a scenario file names."""
    engine = _engine()
    state = _blocking_step(engine)
    assert Activate is KernelActivate
    assert engine.action_kinds()["activate"] is Activate
    direct = engine.perform(state, Activate("knight", "spur", {"tap": "squire"}))
    assert direct.state.objects["knight"].power == 4


# -- in a scenario file ----------------------------------------------------------------

FILE = """
active_player = "alice"

[players.alice]
[players.bob]

[[permanents]]
id = "knight"
name = "Knight"
controller = "alice"
power = 2
toughness = 2
keywords = ["spur"]

[[permanents]]
id = "squire"
name = "Squire"
controller = "alice"
power = 3
toughness = 1

[combat]
attacks = { knight = "bob" }

[[combat.actions]]
after = "{after}"
do = "activate"
source = "knight"
ability = "{ability}"
cost = {cost}
"""


def _file(after: str = "declare_blockers", ability: str = "spur",
          cost: str = '{ tap = "squire" }') -> str:
    return FILE.replace("{after}", after).replace("{ability}", ability).replace("{cost}", cost)


def test_a_file_activates_an_ability() -> None:
    """The contract's ``do = "activate"``, ``source``, ``ability``, ``cost``:
    the Knight deals 4 after paying with the Squire."""
    out = outcome_json(resolve(loads(_file(), engine_factory=_engine)))
    assert out["ok"] is True
    assert out["players"]["bob"]["life"] == 16
    assert out["permanents"]["squire"]["tapped"] is True
    assert any(e["kind"] == "activate" and e["ability"] == "spur" for e in out["events"])


def test_a_file_activating_at_the_wrong_time_is_refused_with_602_5() -> None:
    """The outcome of a file whose activation breaks its timing is the
    refused action with 602.5 (not a bad file: it is the rules')."""
    out = outcome_json(resolve(loads(_file(after="declare_attackers"), engine_factory=_engine)))
    assert out["ok"] is False
    assert out["error"]["rule"] == "602.5" and "declare_blockers" in out["error"]["message"]


def test_a_files_unknown_ability_or_cost_choice_is_a_bad_scenario() -> None:
    """The file's own mistakes, named with their key and line: an ability no
    plugin declares, a cost choice the ability hasn't, a value of the wrong
    type, an id of no permanent, a choice left out."""
    cases = {
        _file(ability="spurr"): ("combat.actions[0].ability", "did you mean 'spur'"),
        _file(cost='{ tapp = "squire" }'): ("combat.actions[0].cost.tapp", "its choices: tap"),
        _file(cost="{ tap = 3 }"): ("combat.actions[0].cost.tap", "expected a string"),
        _file(cost='{ tap = "nobody" }'): ("combat.actions[0].cost.tap", "'nobody'"),
        _file(cost="{}"): ("combat.actions[0].cost", "needs the choice 'tap'"),
    }
    for text, (key, words) in cases.items():
        with pytest.raises(ScenarioProblems) as info:
            loads(text, file="spur.toml", engine_factory=_engine)
        found = [(p.key, p.line, p.detail) for p in info.value.problems]
        assert any(k == key and line is not None and words in m for k, line, m in found), found


@pytest.mark.parametrize("bad", [
    {"name": ""}, {"rule": 602}, {"perform": "pay"}, {"cost": {3: ObjectId}},
    {"timing": ("declare_blockers", "")}, {"zones": ()}, {"restrictions": "no"}])
def test_a_malformed_declaration_is_a_load_error_naming_the_plugin(bad: dict[str, object]
                                                                     ) -> None:
    """An ability whose values aren't what the hook documents fails the
    engine as it loads, naming the plugin, not at its first activation."""
    values: dict[str, object] = {"name": "spur", "rule": "602.1", "perform": _spur}
    values.update(bad)
    ability = ActivatedAbility(**values)  # type: ignore[arg-type]
    plugin = SimpleNamespace(__name__="sloppy", redzone_activated_abilities=hookimpl(
        lambda: [ability]))
    with pytest.raises(PluginLoadError) as info:
        Engine(plugins=[plugin])
    assert info.value.plugin == "sloppy"
