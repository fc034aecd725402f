"""The legend rule, a state-based action: "If two or more legendary
permanents with the same name are controlled by the same player, that player
chooses one of them, and the rest are put into their owners' graveyards"
(704.5j); under the rules of 1999-2009, "If two or more legendary permanents
with the same name are in play, all are put into their owners' graveyards"
(420.5e of February 2009)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import (
    Choice,
    Engine,
    GameState,
    IllegalActionError,
    KeywordSpec,
    Permanent,
    PluginError,
    StateBasedAction,
    hookimpl,
)

KEY = "legend_rule@alice:Isamaru"

#: An engine for the property test (hypothesis runs it many times in one test).
_ENGINE = Engine()


def isamaru(engine: Engine, obj: str, controller: str = "alice", *keywords: str,
            legendary: bool = True, name: str = "Isamaru", **kwargs: object) -> Permanent:
    return engine.creature(obj, controller, 2, 2, *keywords, name=name,
                           supertypes={"legendary"} if legendary else set(), **kwargs)


def two(engine: Engine, *, second: str = "alice", legendary: bool = True,
        name: str = "Isamaru", **kwargs: object) -> GameState:
    """alice controls a legendary 2/2 named Isamaru (``isa``); ``second``
    controls another permanent named ``name`` (``isb``)."""
    return engine.game(["alice", "bob"], [
        isamaru(engine, "isa"),
        isamaru(engine, "isb", second, legendary=legendary, name=name, **kwargs)])


def zones(state: GameState) -> dict[str, str]:
    return {p.id: p.zone for p in state.objects.values()}


def test_704_5j_the_player_keeps_one_and_the_rest_go_to_the_graveyard(engine: Engine) -> None:
    """704.5j: alice controls two legendary permanents named Isamaru; without
    an answer she keeps the first (the default), the other is put into her
    graveyard, citing 704.5j, and the choice is in the outcome."""
    out = engine.begin_combat(two(engine))
    assert zones(out.state) == {"isa": "battlefield", "isb": "graveyard"}
    dies = [e for e in out.events if e.kind == "dies"]
    assert [(e.object, e.rule) for e in dies] == [("isb", "704.5j")]
    made = [c for c in out.choices if c.key == KEY]
    assert len(made) == 1
    assert (made[0].player, made[0].answer, made[0].by_default, made[0].options,
            made[0].rule) == ("alice", ("isa",), True, ("isa", "isb"), "704.5j")


def test_704_5j_the_player_chooses_which_one_to_keep(engine: Engine) -> None:
    """704.5j: "that player chooses one of them": answering the second keeps it."""
    out = engine.begin_combat(two(engine), choices={KEY: ["isb"]})
    assert zones(out.state) == {"isa": "graveyard", "isb": "battlefield"}
    assert [c.by_default for c in out.choices if c.key == KEY] == [False]


def test_704_5j_the_choice_is_listed_before_the_command(engine: Engine) -> None:
    """601.2, 704.5j: the choice is listed in advance, with its player,
    options, bounds and default."""
    listed = [c for c in engine.choices_for(two(engine), "begin_combat") if c.key == KEY]
    assert len(listed) == 1
    choice = listed[0]
    assert (choice.player, choice.options, choice.default, choice.min, choice.max,
            choice.rule) == ("alice", ("isa", "isb"), ("isa",), 1, 1, "704.5j")


@pytest.mark.parametrize("answer", [["isa", "isb"], ["bear"], []])
def test_704_5j_an_answer_that_is_not_one_of_them_is_refused(
        engine: Engine, answer: list[str]) -> None:
    """704.5j: exactly one of them is kept: two, none or another object is an
    illegal answer, and the state is left as it was."""
    state = two(engine)
    before = zones(state)
    with pytest.raises(IllegalActionError) as caught:
        engine.begin_combat(state, choices={KEY: answer})
    assert caught.value.rule == "704.5j"
    assert zones(state) == before


def test_704_5j_is_not_destruction_indestructible_doesnt_stop_it(engine: Engine) -> None:
    """704.5j, 701.8b: the rest are put into the graveyard, not destroyed, so
    indestructible doesn't keep one."""
    state = engine.game(["alice", "bob"], [
        isamaru(engine, "isa"), isamaru(engine, "isb", "alice", "indestructible")])
    out = engine.begin_combat(state)
    assert zones(out.state)["isb"] == "graveyard"
    assert not [e for e in out.events if e.kind == "destroyed"]


@pytest.mark.parametrize(("second", "legendary", "name"), [
    ("bob", True, "Isamaru"),      # not controlled by the same player
    ("alice", False, "Isamaru"),   # only one of them legendary
    ("alice", True, "Kiki"),       # not the same name
])
def test_704_5j_doesnt_apply(engine: Engine, second: str, legendary: bool, name: str) -> None:
    """704.5j applies only to legendary permanents with the same name
    controlled by the same player: otherwise both stay and nothing is asked."""
    state = two(engine, second=second, legendary=legendary, name=name)
    out = engine.begin_combat(state)
    assert zones(out.state) == {"isa": "battlefield", "isb": "battlefield"}
    assert not [c for c in out.choices if c.rule == "704.5j"]


def test_704_5j_a_token_of_a_legendary_creature_and_704_5d(engine: Engine) -> None:
    """704.5j with 702.116a (myriad): alice attacks bob with a legendary
    myriad creature in a four-player game; its two token copies are legendary
    with the same name, so she keeps one of the three. Without an answer she
    keeps the creature itself; the tokens go to the graveyard, leave combat
    (506.4) and cease to exist (704.5d)."""
    state = engine.game(["alice", "bob", "carol", "dave"], [
        engine.creature("kitsune", "alice", 3, 2, "myriad", name="Kitsune",
                        supertypes={"legendary"})])
    out = engine.declare_attackers(state, {"kitsune": "bob"})
    assert {p.id: p.zone for p in out.state.objects.values()} == {
        "kitsune": "battlefield", "kitsune.myriad.1": "ceased", "kitsune.myriad.2": "ceased"}
    assert out.state.combat is not None
    assert dict(out.state.combat.attacks) == {"kitsune": "bob"}
    made = [c for c in out.choices if c.rule == "704.5j"]
    assert [(c.key, c.options, c.answer) for c in made] == [
        ("legend_rule@alice:Kitsune", ("kitsune", "kitsune.myriad.1", "kitsune.myriad.2"),
         ("kitsune",))]


def test_704_5j_keeping_a_token_puts_the_creature_itself_into_the_graveyard(
        engine: Engine) -> None:
    """704.5j: she may keep the token attacking dave; the creature that
    attacked bob is put into her graveyard and removed from combat (506.4)."""
    state = engine.game(["alice", "bob", "carol", "dave"], [
        engine.creature("kitsune", "alice", 3, 2, "myriad", name="Kitsune",
                        supertypes={"legendary"})])
    out = engine.declare_attackers(state, {"kitsune": "bob"},
                                   choices={"legend_rule@alice:Kitsune": ["kitsune.myriad.2"]})
    assert out.state.objects["kitsune"].zone == "graveyard"
    assert out.state.objects["kitsune.myriad.2"].zone == "battlefield"
    assert out.state.combat is not None
    assert dict(out.state.combat.attacks) == {"kitsune.myriad.2": "dave"}


def test_704_5j_the_default_keeps_a_card_before_a_token(engine: Engine) -> None:
    """704.5j: the default keeps a permanent that isn't a token, whatever the
    order of the state's objects."""
    state = engine.game(["alice", "bob"], [
        isamaru(engine, "isa", token=True), isamaru(engine, "isb")])
    out = engine.begin_combat(state)
    assert out.state.objects["isb"].zone == "battlefield"
    assert out.state.objects["isa"].zone == "ceased"


@pytest.mark.parametrize("second", ["alice", "bob"])
def test_420_5e_of_1999_2009_all_of_them_go_whoever_controls_them(second: str) -> None:
    """420.5e (February 2009): two legendary permanents with the same name in
    play are all put into their owners' graveyards, whoever controls them,
    and nobody chooses."""
    engine = Engine(rules="sixth")
    out = engine.begin_combat(two(engine, second=second))
    assert zones(out.state) == {"isa": "graveyard", "isb": "graveyard"}
    assert {(e.object, e.rule) for e in out.events if e.kind == "dies"} == {
        ("isa", "420.5e"), ("isb", "420.5e")}
    assert not out.choices


def test_420_5e_only_one_legendary_is_not_the_legend_rule() -> None:
    """420.5e: "If only one of those permanents is legendary, this rule
    doesn't apply"."""
    engine = Engine(rules="sixth")
    out = engine.begin_combat(two(engine, legendary=False))
    assert zones(out.state) == {"isa": "battlefield", "isb": "battlefield"}


def test_704_5j_in_the_2009_2024_edition() -> None:
    """704.5j is today's wording and the 2024 one alike: the m10 edition
    (damage assignment order) keeps one too."""
    engine = Engine(rules="m10")
    out = engine.begin_combat(two(engine))
    assert zones(out.state) == {"isa": "battlefield", "isb": "graveyard"}


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(["alice", "bob"]), st.sampled_from(["Ayli", "Brimaz"]),
                          st.booleans(), st.booleans()), min_size=1, max_size=7),
       st.randoms(use_true_random=False))
def test_704_5j_after_state_based_actions_no_player_controls_two_legends_of_a_name(
        board: list[tuple[str, str, bool, bool]], rnd: random.Random) -> None:
    """704.5j, 704.3: whatever the board and the answers, after state-based
    actions each player controls at most one legendary permanent of each
    name, it is the one they chose, and nothing else left the battlefield."""
    engine = _ENGINE
    perms = [engine.creature(f"p{i}", who, 1, 1, name=name, token=token,
                             supertypes={"legendary"} if legendary else set())
             for i, (who, name, legendary, token) in enumerate(board)]
    groups: dict[tuple[str, str], list[str]] = {}
    for p in perms:
        if "legendary" in p.supertypes:
            groups.setdefault((p.controller, p.name), []).append(p.id)
    groups = {k: v for k, v in groups.items() if len(v) > 1}
    answers = {f"legend_rule@{who}:{name}": rnd.choice(ids)
               for (who, name), ids in groups.items()}
    out = engine.begin_combat(engine.game(["alice", "bob"], perms), choices=answers)
    left = {p.id for p in out.state.objects.values() if p.zone != "battlefield"}
    for (who, name), ids in groups.items():
        kept = answers[f"legend_rule@{who}:{name}"]
        assert kept not in left
        assert left.issuperset(set(ids) - {kept})
    assert len(left) == sum(len(ids) - 1 for ids in groups.values())


def test_704_5j_a_second_choice_in_one_command_has_its_own_key(engine: Engine) -> None:
    """704.5j, 702.116b: two myriad instances trigger separately; each
    resolution makes two legendary tokens and the legend rule asks again, so
    the second choice is keyed ``#2`` and can be answered on its own."""
    state = engine.game(["alice", "bob", "carol", "dave"], [
        engine.creature("kitsune", "alice", 3, 2, "myriad", "myriad", name="Kitsune",
                        supertypes={"legendary"})])
    listed = [c.key for c in engine.choices_for(state, "declare_attackers", {"kitsune": "bob"})
              if c.rule == "704.5j"]
    assert listed == ["legend_rule@alice:Kitsune", "legend_rule@alice:Kitsune#2"]
    out = engine.declare_attackers(state, {"kitsune": "bob"}, choices={
        "legend_rule@alice:Kitsune#2": ["kitsune.myriad.4"]})
    on = [p.id for p in out.state.battlefield]
    assert on == ["kitsune.myriad.4"]
    assert [(c.key, c.by_default) for c in out.choices if c.rule == "704.5j"] == [
        ("legend_rule@alice:Kitsune", True), ("legend_rule@alice:Kitsune#2", False)]


def test_704_5j_a_plugins_state_based_action_can_ask_what_to_keep() -> None:
    """704.3, 704.5j's form for any plugin: a state-based action carrying a
    ``keep`` choice asks it of its player and is performed on each option
    not chosen; its key is ``<name>@<player>`` when it sets none."""

    class Solitary:
        """A custom rule: a player who controls two or more creatures with
        "solitary" keeps one of them; the rest go to the graveyard."""

        @hookimpl
        def redzone_keywords(self) -> list[KeywordSpec]:
            return [KeywordSpec("solitary", "", summary="a player keeps one of them")]

        @hookimpl
        def redzone_state_based_actions(self, state: GameState) -> list[StateBasedAction]:
            out = []
            for player in state.players:
                ids = tuple(p.id for p in state.battlefield
                            if p.controller == player and p.has("solitary"))
                if len(ids) > 1:
                    out.append(StateBasedAction("graveyard", "704.3", player=player, keep=Choice(
                        "solitary", player, "option", ids, default=ids[:1])))
            return out

    engine = Engine(plugins=[Solitary()])
    state = engine.game(["alice", "bob"], [
        engine.creature("x", "alice", 1, 1, "solitary"),
        engine.creature("y", "alice", 1, 1, "solitary"),
        engine.creature("z", "bob", 1, 1, "solitary")])
    out = engine.begin_combat(state, choices={"solitary@alice": ["y"]})
    assert zones(out.state) == {"x": "graveyard", "y": "battlefield", "z": "battlefield"}
    assert [(e.object, e.rule) for e in out.events if e.kind == "dies"] == [("x", "704.3")]


@pytest.mark.parametrize(("keep", "problem"), [
    ("not a choice", "field 'keep' is 'not a choice' (str), where a Choice or None was expected"),
    (Choice("solitary", "zed", "option", ("x",), default=("x",)),
     "field 'keep.player' is 'zed', not a player of the state"),
    (Choice("solitary", "alice", "option", ("x", "nowhere"), default=("x",)),
     "field 'keep.options' is 'nowhere', not an object of the state"),
    (Choice("solitary", "alice", "option", ("x", "y"), default=()),
     "field 'keep' has a default that isn't a legal answer"),
])
def test_704_3_a_malformed_keep_choice_names_the_plugin(keep: object, problem: str) -> None:
    """704.3: a state-based action whose ``keep`` can't be asked is the
    plugin's fault, named before anything is performed."""

    class Broken:
        @hookimpl
        def redzone_keywords(self) -> list[KeywordSpec]:
            return [KeywordSpec("solitary", "", summary="broken")]

        @hookimpl
        def redzone_state_based_actions(self, state: GameState) -> list[StateBasedAction]:
            return [StateBasedAction("graveyard", "704.3", player="alice",
                                     keep=keep)]  # type: ignore[arg-type]

    engine = Engine(plugins=[Broken()])
    state = engine.game(["alice", "bob"], [engine.creature("x", "alice", 1, 1, "solitary"),
                                           engine.creature("y", "alice", 1, 1)])
    with pytest.raises(PluginError) as caught:
        engine.begin_combat(state)
    assert "Broken" in str(caught.value)
    assert problem in str(caught.value)
