"""Which replacement of a destruction applies (616.1): "If two or more
replacement and/or prevention effects are attempting to modify the way an
event affects an object or player, the affected object's controller (or its
owner if it has no controller) ... chooses one to apply"; once it has been
applied, the others no longer apply to the event, which didn't happen
(616.1e-f, 614.6).

The board: bob's Bear has a regeneration shield (701.19a) and a test
keyword, "totem", whose plugin replaces the Bear's destruction by
sacrificing bob's Armor (an Aura-like protector, in the manner of umbra
armor). Regeneration taps the Bear and uses the shield (701.19a); the
totem's replacement sacrifices the Armor and leaves the Bear untapped.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redzone import (
    DestructionReplacement,
    Engine,
    GameState,
    IllegalActionError,
    UnaskedChoiceError,
)
from redzone.kernel.actions import Destroy, Regenerate, Sacrifice
from redzone.testing import plugin_module

KEY = "destruction@bear"


def _totem(state: GameState, permanent: str) -> list[DestructionReplacement]:
    perm = state.objects[permanent]
    if not perm.has("totem") or state.objects["armor"].zone != "battlefield":
        return []
    return [DestructionReplacement("totem armor", "614.8", (Sacrifice("armor"),))]


def _engine(*extra: Any) -> Engine:
    return Engine(discover=False, plugins=[
        plugin_module("totem", "totem", redzone_destruction_replacements=_totem), *extra])


ENGINE = _engine()


def board(engine: Engine = ENGINE, *, shield: bool = True, controller: str = "bob") -> GameState:
    """bob's Bear (a 2/2 with "totem") and Armor; with ``shield``, the Bear
    has a regeneration shield."""
    c = engine.creature
    state = engine.game(["alice", "bob"], [
        c("bear", controller, 2, 2, "totem"),
        engine.permanent("armor", controller, types={"enchantment"})])
    if shield:
        state = engine.perform(state, Regenerate("bear")).state
    return state


def _label(state: GameState) -> str:
    (shield,) = [s for s in state.shields if s.to == "bear"]
    return f"regeneration {shield.id}"


def test_616_1_the_controller_is_asked_which_replacement_applies() -> None:
    """616.1: two replacements would replace the Bear's destruction; its
    controller chooses one. The choice is listed before the command, with
    both effects as options and the first by effect name as its default."""
    state = board()
    listed = [c for c in ENGINE.choices_for(state, "perform", Destroy("bear"))
              if c.key == KEY]
    assert len(listed) == 1
    choice = listed[0]
    assert (choice.player, choice.kind, choice.min, choice.max, choice.rule) == (
        "bob", "option", 1, 1, "616.1")
    assert set(choice.options) == {"totem armor", _label(state)}
    assert choice.default == (min(choice.options),)


def test_616_1_by_default_the_first_by_effect_name_applies() -> None:
    """616.1: with no answer, the default (the regeneration, first by name)
    applies: the Bear is tapped and stays on the battlefield, and the Armor
    is not sacrificed; the choice is in the outcome, made by default."""
    state = board()
    out = ENGINE.perform(state, Destroy("bear"))
    objs = out.state.objects
    assert (objs["bear"].zone, objs["bear"].tapped, objs["armor"].zone) == (
        "battlefield", True, "battlefield")
    assert not out.state.shields
    made = [c for c in out.choices if c.key == KEY]
    assert [(c.answer, c.by_default, c.player) for c in made] == [
        ((_label(state),), True, "bob")]
    replaced = [e for e in out.events if e.kind == "replaced"]
    assert [(e.object, e.get("replacement")) for e in replaced] == [("bear", _label(state))]


def test_616_1_the_controller_chooses_the_other_one() -> None:
    """616.1e-f: bob chooses the totem's replacement: the Armor is sacrificed
    instead, the Bear stays untapped, and the regeneration shield, which no
    longer applies to an event that didn't happen, is still there (701.19a)."""
    state = board()
    out = ENGINE.perform(state, Destroy("bear"), choices={KEY: "totem armor"})
    objs = out.state.objects
    assert (objs["bear"].zone, objs["bear"].tapped, objs["armor"].zone) == (
        "battlefield", False, "graveyard")
    assert [s.to for s in out.state.shields] == ["bear"]
    replaced = [e for e in out.events if e.kind == "replaced"]
    assert [(e.object, e.get("replacement"), e.rule) for e in replaced] == [
        ("bear", "totem armor", "614.8")]
    assert [c.by_default for c in out.choices if c.key == KEY] == [False]


@pytest.mark.parametrize("answer", [["totem armor", "regeneration x"], [], ["destroy it"]])
def test_616_1_an_answer_that_is_not_one_replacement_is_refused(answer: list[str]) -> None:
    """616.1: exactly one of the replacements is chosen: two, none or an
    effect that doesn't apply is an illegal answer citing 616.1, and the
    state is left as it was."""
    state = board()
    with pytest.raises(IllegalActionError) as caught:
        ENGINE.perform(state, Destroy("bear"), choices={KEY: answer})
    assert caught.value.rule == "616.1"
    assert (state.objects["bear"].zone, state.objects["armor"].zone) == (
        "battlefield", "battlefield")


def test_616_1_one_replacement_is_no_choice() -> None:
    """616.1 applies to two or more effects: with no regeneration shield
    only the totem's applies, nobody is asked, and an answer is refused as
    asked for nothing (601.2)."""
    state = board(shield=False)
    out = ENGINE.perform(state, Destroy("bear"))
    assert out.state.objects["armor"].zone == "graveyard"
    assert not [c for c in out.choices if c.key.startswith("destruction@")]
    with pytest.raises(UnaskedChoiceError):
        ENGINE.perform(state, Destroy("bear"), choices={KEY: "totem armor"})


def test_701_19c_cant_be_regenerated_leaves_one_replacement() -> None:
    """701.19c: a destruction that can't be regenerated leaves the shield
    out of the choice: the totem's replacement applies, and nobody is asked."""
    state = board()
    out = ENGINE.perform(state, Destroy("bear", regenerate=False))
    assert out.state.objects["armor"].zone == "graveyard"
    assert not [c for c in out.choices if c.key.startswith("destruction@")]


def test_616_1_the_controller_chooses_not_the_owner() -> None:
    """616.1: "the affected object's controller (or its owner if it has no
    controller)": a permanent on the battlefield has a controller, and it is
    who is asked, not its owner."""
    state = board()
    bear = state.objects["bear"]
    state = state.with_changes(objects={"bear": bear.evolve(owner="alice")})
    (choice,) = [c for c in ENGINE.choices_for(state, "perform", Destroy("bear"))
                 if c.key == KEY]
    assert choice.player == "bob"


def test_616_1_a_second_destruction_in_one_command_has_its_own_key() -> None:
    """616.1, 601.2: the Bear regenerates from the first destruction and
    would be destroyed again in the same resolution (608.2c); the second
    choice is keyed ``#2`` and answered on its own."""
    state = board()
    state = ENGINE.perform(state, Regenerate("bear")).state  # a second shield
    out = ENGINE.perform(state, [Destroy("bear"), Destroy("bear")],
                         choices={f"{KEY}#2": "totem armor"})
    made = [(c.key, c.by_default) for c in out.choices if c.key.startswith(KEY)]
    assert made == [(KEY, True), (f"{KEY}#2", False)]
    objs = out.state.objects
    assert (objs["bear"].zone, objs["armor"].zone) == ("battlefield", "graveyard")
    assert len(out.state.shields) == 1


@given(st.booleans(), st.booleans(), st.sampled_from([None, "regeneration", "totem armor"]))
def test_616_1_whatever_is_chosen_exactly_one_replacement_applies(
        shield: bool, regenerate: bool, pick: str | None) -> None:
    """616.1e-f: whatever applies and whatever is answered, the Bear
    survives a destruction it had a replacement for, exactly one
    replacement is applied (one ``replaced`` event), and an answer is
    accepted only when there was a choice to make."""
    state = board(shield=shield)
    options = (["totem armor"] + ([_label(state)] if shield and regenerate else []))
    answer = None if pick is None else _label(state) if pick == "regeneration" and shield \
        else pick
    choices = {KEY: answer} if answer is not None else None
    action = Destroy("bear", regenerate=regenerate)
    if choices and (len(options) < 2 or answer not in options):
        with pytest.raises(IllegalActionError):
            ENGINE.perform(state, action, choices=choices)
        return
    out = ENGINE.perform(state, action, choices=choices)
    replaced = [e.get("replacement") for e in out.events if e.kind == "replaced"]
    assert len(replaced) == 1
    assert replaced[0] == (answer or min(options))
    assert out.state.objects["bear"].zone == "battlefield"


def test_419_9a_of_1999_2009_the_controller_chooses_too() -> None:
    """419.9a (February 2009) says what 616.1 says: under the ``sixth``
    edition the controller chooses which replacement applies as well, and
    an account cites that edition's number for the choice."""
    from redzone.formats.citations import era_rule

    sixth = Engine("sixth", discover=False, plugins=[
        plugin_module("totem", "totem", redzone_destruction_replacements=_totem)])
    state = board(sixth)
    out = sixth.perform(state, Destroy("bear"), choices={KEY: "totem armor"})
    assert out.state.objects["armor"].zone == "graveyard"
    (made,) = [c for c in out.choices if c.key == KEY]
    assert made.rule == "616.1"  # the outcome keeps today's numbers
    assert era_rule("sixth", made.rule) == "419.9a"
