"""When an activated ability can be activated (602.5, 502.4, 514.3), the
names its ``timing`` takes, the kit's account of the kernel's ``continuous``
event, and the types ``ActivatedAbility`` takes its functions by.

The ability proved here is a test keyword's, "glow": "This creature gets
+1/+0 until end of turn." (no cost), declared with the timing each test
gives it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from redzone import (
    Activate,
    ActivatedAbility,
    Engine,
    GameState,
    IllegalActionError,
    KeywordSpec,
    PluginLoadError,
    Tx,
    hookimpl,
)
from redzone.testing.conformance import account


def _glow(tx: Tx, action: Activate) -> None:
    from redzone import Pump

    tx.perform(Pump(action.source, 1, 0))


def _glow_continuous(tx: Tx, action: Activate) -> None:
    from redzone import AddContinuous

    tx.perform(AddContinuous(affects=(action.source,), power=1, locked=True))


def _plugin(*timing: str, perform: object = _glow) -> SimpleNamespace:
    ability = ActivatedAbility("glow", "702.999", perform, timing=timing)  # type: ignore[arg-type]
    return SimpleNamespace(
        __name__="glow",
        redzone_keywords=hookimpl(lambda: [KeywordSpec("glow", "702.999")]),
        redzone_activated_abilities=hookimpl(lambda: [ability]))


def _game(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature("imp", "alice", 1, 1, "glow"),
                                          engine.creature("ox", "bob", 2, 2)])


def _refused(engine: Engine, state: GameState, rule: str, *words: str) -> None:
    with pytest.raises(IllegalActionError) as err:
        engine.activate(state, "imp", "glow", {})
    assert err.value.rule == rule
    for word in words:
        assert word in str(err.value)


# -- 502.4, 514.3: no player has priority ----------------------------------------------------


def test_no_ability_is_activated_in_the_untap_step() -> None:
    """502.4: "No player receives priority during the untap step, so no
    spells can be cast or resolve and no abilities can be activated": an
    ability with no timing (any time its controller has priority) is refused
    in the untap step, naming 502.4, and nothing changes."""
    engine = Engine(plugins=[_plugin()])
    ended = engine.end_turn(_game(engine)).state
    untap = engine.begin_turn(ended, draw=False, through="untap").state
    assert untap.step == "untap" and untap.active_player == "bob"
    _refused(engine, untap, "502.4", "untap step", "no player gets priority")


def test_no_ability_is_activated_in_the_cleanup_step() -> None:
    """514.3: "Normally, no player receives priority during the cleanup
    step, so no spells can be cast and no abilities can be activated": with
    nothing waiting on the stack (514.3a), an ability with no timing is
    refused in the cleanup step, naming 514.3."""
    engine = Engine(plugins=[_plugin()])
    cleanup = engine.cleanup(engine.end_step(_game(engine)).state).state
    assert cleanup.step == "cleanup" and not cleanup.stack
    _refused(engine, cleanup, "514.3", "cleanup step", "no player gets priority")


def test_an_ability_is_activated_in_the_cleanup_step_with_triggers_on_the_stack() -> None:
    """514.3a: when triggered abilities are put on the stack in the cleanup
    step, "the active player gets priority. Players may cast spells and
    activate abilities": with a trigger waiting on the stack, the ability
    with no timing is activated and resolves (+1/+0)."""
    from redzone import Trigger

    engine = Engine(plugins=[_plugin()])
    cleanup = engine.cleanup(engine.end_step(_game(engine)).state).state
    waiting = Trigger("test", "ox", "bob", "603.3", "a test trigger").evolve(id="t9")
    state = cleanup.evolve(stack=(waiting,))
    out = engine.activate(state, "imp", "glow", {})
    assert out.state.objects["imp"].power == 2


def test_no_priority_applies_to_an_ability_with_a_timing_of_its_steps() -> None:
    """502.4 overrides the ability's own timing: one declared for the
    untap step (a typo'd intent, but a known step) is still refused there,
    naming 502.4 rather than 602.5."""
    engine = Engine(plugins=[_plugin("untap")])
    ended = engine.end_turn(_game(engine)).state
    untap = engine.begin_turn(ended, draw=False, through="untap").state
    _refused(engine, untap, "502.4")


# -- timing names ------------------------------------------------------------------------------


def _first_main(engine: Engine) -> GameState:
    """Alice's next turn's precombat main phase (she is active again)."""
    state = _game(engine)
    bob = engine.begin_turn(engine.end_turn(state).state, draw=False).state
    return engine.begin_turn(engine.end_turn(bob).state, draw=False,
                             through="precombat_main").state


def _postcombat(engine: Engine, main: GameState) -> GameState:
    """The postcombat main phase after a combat with no attackers."""
    attacked = engine.declare_attackers(engine.begin_combat(main).state, {}).state
    return engine.finish(engine.end_of_combat(attacked).state).state


def test_precombat_main_timing_is_the_first_main_phase() -> None:
    """505.1: the first main phase is the precombat main phase; 602.5: an
    ability declared for ``precombat_main`` is activated in it (where the
    state's step is ``"main"``), and refused after combat (the postcombat
    main phase), naming 602.5 and the step names it may be activated in."""
    engine = Engine(plugins=[_plugin("precombat_main")])
    main = _first_main(engine)
    assert main.step == "main"
    assert engine.activate(main, "imp", "glow", {}).state.objects["imp"].power == 2
    after = _postcombat(engine, main)
    assert after.step == "postcombat_main"
    _refused(engine, after, "602.5", "precombat_main", "not postcombat_main")


def test_postcombat_main_timing_is_the_second_main_phase() -> None:
    """505.1: the main phase after combat is the postcombat main phase; an
    ability declared for ``postcombat_main`` is refused in the first main
    phase (602.5) and activated in the second."""
    engine = Engine(plugins=[_plugin("postcombat_main")])
    main = _first_main(engine)
    _refused(engine, main, "602.5", "postcombat_main", "not precombat_main")
    after = _postcombat(engine, main)
    assert engine.activate(after, "imp", "glow", {}).state.objects["imp"].power == 2


@pytest.mark.parametrize("typo", ["declare_blocker", "precombat-main", "Sorcery", "main phase"])
def test_an_unknown_timing_name_is_refused_at_load(typo: str) -> None:
    """602.5: the timing is an activation instruction the kernel checks by
    step name; a name no step has (a typo) would make the ability never
    activatable, so the engine refuses the plugin as it loads, naming the
    plugin, the ability and the name."""
    with pytest.raises(PluginLoadError) as err:
        Engine(plugins=[_plugin("declare_attackers", typo)])
    assert err.value.plugin == "glow"
    assert repr(typo) in str(err.value) and "'glow'" in str(err.value)


def test_every_documented_timing_name_loads() -> None:
    """Each step name the kernel documents for ``timing`` loads (a plugin's
    combat damage step too, as its name ends in ``_damage``)."""
    names = ("untap", "upkeep", "draw", "precombat_main", "main", "beginning_of_combat",
             "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
             "end_of_combat", "postcombat_main", "end_step", "cleanup", "sorcery")
    engine = Engine(plugins=[_plugin(*names)])
    assert engine.hooks.activated_abilities["glow"][0].timing == names


# -- sorcery timing (602.5d) -------------------------------------------------------------------


def test_sorcery_timing_in_the_controllers_main_phase() -> None:
    """602.5d: "activate only as a sorcery" means its controller may activate
    it only during their own main phase with an empty stack (307.1): in
    alice's precombat and postcombat main phases she activates it."""
    engine = Engine(plugins=[_plugin("sorcery")])
    main = _first_main(engine)
    assert engine.activate(main, "imp", "glow", {}).state.objects["imp"].power == 2
    after = _postcombat(engine, main)
    assert engine.activate(after, "imp", "glow", {}).state.objects["imp"].power == 2


def test_sorcery_timing_refused_in_combat() -> None:
    """602.5d: not in a combat step (not a main phase), naming 602.5d."""
    engine = Engine(plugins=[_plugin("sorcery")])
    combat = engine.begin_combat(_first_main(engine)).state
    _refused(engine, combat, "602.5d", "not a main phase")


def test_sorcery_timing_refused_in_the_opponents_turn() -> None:
    """602.5d: only during its controller's turn: in bob's main phase,
    alice's ability is refused, naming 602.5d."""
    engine = Engine(plugins=[_plugin("sorcery")])
    bobs = engine.begin_turn(engine.end_turn(_game(engine)).state, draw=False).state
    assert bobs.active_player == "bob" and bobs.step == "main"
    _refused(engine, bobs, "602.5d", "during 'bob'")


def test_sorcery_timing_refused_with_a_trigger_on_the_stack() -> None:
    """602.5d (307.1): only with an empty stack: with a trigger waiting on
    the stack in alice's main phase, it is refused, naming 602.5d."""
    from redzone import Trigger

    engine = Engine(plugins=[_plugin("sorcery")])
    main = _first_main(engine)
    waiting = Trigger("test", "ox", "bob", "603.3", "a test trigger").evolve(id="t9")
    _refused(engine, main.evolve(stack=(waiting,)), "602.5d", "the stack isn't empty")


def test_sorcery_timing_is_the_controllers_not_the_owners() -> None:
    """602.5d: "its controller" may activate it during their main phase: bob
    controls alice's imp, so in bob's main phase he activates it."""
    engine = Engine(plugins=[_plugin("sorcery")])
    bobs = engine.begin_turn(engine.end_turn(_game(engine)).state, draw=False).state
    stolen = bobs.with_permanents({"imp": bobs.objects["imp"].evolve(controller="bob")})
    out = engine.activate(stolen, "imp", "glow", {})
    assert out.state.objects["imp"].power == 2


# -- the conformance kit -----------------------------------------------------------------------


def test_kit_accounts_for_the_kernels_continuous_event() -> None:
    """613.1 / 611.2: the kernel's ``continuous`` event names the new
    continuous effect's id (``c1``) as its object; the kit's account knows
    that id as it knows an ``effect`` event's, so a plugin performing
    ``AddContinuous`` is not blamed for an object that doesn't exist."""
    engine = Engine(plugins=[_plugin(perform=_glow_continuous)])
    state = _game(engine)
    out = engine.activate(state, "imp", "glow", {})
    assert [e.object for e in out.events if e.kind == "continuous"] == ["c1"]
    assert account(state, out.state, out.events) == ""


# -- types -------------------------------------------------------------------------------------


def test_activated_ability_takes_functions_typed_on_tx_and_activate(tmp_path: Path) -> None:
    """602.2: the kernel gives ``perform`` the working copy and the
    :class:`Activate` action, and ``restrictions`` the state and the
    action: functions typed so are accepted by ``mypy --strict``, as are
    ones typed on the wider ``Action``."""
    pytest.importorskip("mypy")
    code = textwrap.dedent('''\
        from __future__ import annotations

        from redzone import Action, ActivatedAbility, Activate, GameState, ObjectId, Pump, Tx


        def _spur(tx: Tx, action: Activate) -> None:
            tx.perform(Pump(action.source, 2, 0))


        def _wide(tx: Tx, action: Action) -> None:
            pass


        def _while_attacking(state: GameState, action: Activate) -> str | None:
            combat = state.combat
            return None if combat is not None and action.source in combat.attacks else "no"


        ABILITIES = [ActivatedAbility("spur", "602.1", _spur, {"tap": ObjectId},
                                      timing=("declare_blockers",),
                                      restrictions=_while_attacking),
                     ActivatedAbility("wide", "602.1", _wide, timing="sorcery")]
        ''')
    (tmp_path / "typed_ability.py").write_text(code, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "MYPYPATH": str(root / "core")}
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--follow-imports=silent", "typed_ability.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert run.stdout.startswith("Success"), run.stdout


def test_514_3a_a_spell_is_cast_in_the_cleanup_step_with_triggers_on_the_stack() -> None:
    """514.3a: with triggered abilities put on the stack in the cleanup step,
    "the active player gets priority. Players may cast spells": an instant
    is cast then (it was refused as if no player had priority, 117.3a)."""
    from redzone import Cast, Permanent, Trigger

    engine = Engine(plugins=[_plugin()])
    cleanup = engine.cleanup(engine.end_step(_game(engine)).state).state
    waiting = Trigger("test", "ox", "bob", "603.3", "a test trigger").evolve(id="t9")
    bolt = Permanent("bolt", "alice", types={"instant"}, zone="hand")
    state = cleanup.with_permanents({"bolt": bolt}).evolve(stack=(waiting,))
    out = engine.perform(state, Cast("bolt"))
    assert [e.kind for e in out.events][:1] == ["cast"]
    with pytest.raises(IllegalActionError) as info:
        engine.perform(cleanup.with_permanents({"bolt": bolt}), Cast("bolt"))
    assert info.value.rule == "117.3a"
