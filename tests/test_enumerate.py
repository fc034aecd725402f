"""Legal declarations, enumerated (508.1, 509.1): generators, counts, predicates.

Each test names the rule it checks. The oracle is brute force: every way each
creature could be declared (not attacking or attacking each attackable
player, planeswalker or battle; not blocking or blocking each nonempty group
of attackers), kept when the engine's own check finds no violation. The
generators must yield exactly those declarations, each once.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from redzone import (
    Engine,
    GameState,
    IllegalAttackError,
    IllegalBlockError,
    Permanent,
    Player,
    hookimpl,
)
from redzone.kernel import combat as _combat
from redzone.kernel import enumerate as en

KEYWORDS = ("flying", "reach", "menace", "defender", "shadow", "skulk", "first strike",
            "deathtouch", "trample", "vigilance", "haste", "intimidate", "fear")
#: Restriction and requirement fields of a permanent (kernel's restrictions module).
FLAGS = ("cant_attack", "cant_block", "cant_be_blocked", "attacks_if_able", "blocks_if_able",
         "must_be_blocked", "lure")


@pytest.fixture(scope="module")
def eng() -> Engine:
    return Engine()


_ENGINE = Engine()


def _subsets(items: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    for n in range(1, len(items) + 1):
        yield from itertools.combinations(items, n)


def brute_attacks(engine: Engine, state: GameState) -> set[frozenset[tuple[str, str]]]:
    """Every declaration of attackers with no violation (508.1), by brute force."""
    mine = [p.id for p in state.battlefield if p.controller == state.active_player]
    targets = engine.attackable(state)
    found = set()
    for combo in itertools.product(*[(None, *targets) for _ in mine]):
        decl = {c: t for c, t in zip(mine, combo, strict=True) if t is not None}
        if not engine.attack_violations(state, decl):
            found.add(frozenset(decl.items()))
    return found


def brute_blocks(engine: Engine, state: GameState) -> set[frozenset[tuple[str, tuple[str, ...]]]]:
    """Every declaration of blockers with no violation (509.1), by brute force."""
    assert state.combat is not None
    theirs = [p.id for p in state.battlefield if p.controller != state.active_player]
    attackers = tuple(state.combat.attacks)
    found = set()
    for combo in itertools.product(*[(None, *_subsets(attackers)) for _ in theirs]):
        decl = {b: g for b, g in zip(theirs, combo, strict=True) if g is not None}
        if not engine.block_violations(state, decl):
            found.add(frozenset(decl.items()))
    return found


@st.composite
def boards(draw: st.DrawFn, max_attackers: int = 3, max_blockers: int = 3,
           ready: bool = False) -> GameState:
    """Small boards: keywords, restrictions and requirements mixed in; some
    creatures tapped or summoning sick; sometimes a planeswalker to attack.
    With ``ready``, alice's first creature can attack (untapped, not
    summoning sick, no defender or "can't attack") and bob has a first
    creature that is untapped and without "can't block" (a possible blocker)."""
    engine = _ENGINE

    def creature(id: str, controller: str, can: str = "") -> Permanent:
        keywords = tuple(k for k in KEYWORDS if not (can == "attack" and k == "defender"))
        kws = draw(st.lists(st.sampled_from(keywords), max_size=2, unique=True))
        flags = {f: True for f in draw(st.lists(st.sampled_from(
            [f for f in FLAGS if f != f"cant_{can}"]), max_size=1))}
        extra: dict[str, Any] = {}
        if draw(st.integers(0, 5)) == 0:
            extra["can_block_additional"] = 1
        if draw(st.integers(0, 6)) == 0:
            extra["min_blockers"] = 2
        return engine.creature(id, controller, draw(st.integers(0, 4)), draw(st.integers(1, 4)),
                               *kws, tapped=not can and draw(st.integers(0, 7)) == 0,
                               summoning_sick=can != "attack" and draw(st.integers(0, 7)) == 0,
                               **flags, **extra)

    n_attackers = draw(st.integers(1, max_attackers))
    n_blockers = draw(st.integers(1 if ready else 0, max_blockers))
    perms = [creature(f"a{i + 1}", "alice", "attack" if ready and i == 0 else "")
             for i in range(n_attackers)]
    perms += [creature(f"b{i + 1}", "bob", "block" if ready and i == 0 else "")
              for i in range(n_blockers)]
    if draw(st.integers(0, 3)) == 0:
        perms.append(engine.permanent("pw", "bob", types=("planeswalker",),
                                      counters={"loyalty": 3}))
    return engine.game([Player("alice"), Player("bob")], perms)


def _keys(decls: Any) -> list[frozenset[Any]]:
    return [frozenset(d.items()) for d in decls]


# ---------------------------------------------------------------------------
# Against the brute-force oracle (508.1, 509.1)
# ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(boards())
def test_508_1_attack_declarations_are_exactly_the_legal_ones(state: GameState) -> None:
    """508.1a-d: the generator yields every declaration of attackers the
    engine accepts, each once, and nothing else; the count agrees."""
    engine = _ENGINE
    got = _keys(engine.legal_attack_declarations(state))
    assert len(got) == len(set(got))
    assert set(got) == brute_attacks(engine, state)
    assert engine.count_legal_attacks(state) == len(got)
    for decl in got:
        assert engine.is_legal_attack(state, dict(decl))
        assert _combat.attack_violations(engine.hooks, state, dict(decl)) == []


@settings(max_examples=60, deadline=None)
@given(boards(ready=True), st.data())
def test_509_1_block_declarations_are_exactly_the_legal_ones(state: GameState,
                                                             data: st.DataObject) -> None:
    """509.1a-c: the generator yields every declaration of blockers the
    engine accepts, each once, and nothing else; the count agrees (after a
    nonempty declaration of attackers, with a creature that could block)."""
    engine = _ENGINE
    attacks = [d for d in engine.legal_attack_declarations(state) if d]
    assert attacks  # a ready creature can always attack (508.1)
    decl = data.draw(st.sampled_from(attacks))
    after = engine.declare_attackers(state, decl).state
    assume(any(engine.legal_blockers(after, a) for a in decl))  # someone could block
    got = _keys(engine.legal_block_declarations(after))
    n = len(got)
    event(f"legal block declarations: {'1' if n == 1 else '2-4' if n <= 4 else '5+'}")
    assert len(got) == len(set(got))
    assert set(got) == brute_blocks(engine, after)
    assert engine.count_legal_blocks(after) == len(got)
    for blocks in got:
        assert engine.is_legal_block(after, dict(blocks))
        assert engine.block_violations(after, dict(blocks)) == ()


# ---------------------------------------------------------------------------
# Rules cases
# ---------------------------------------------------------------------------


def _after_attack(engine: Engine, state: GameState, attacks: dict[str, str]) -> GameState:
    return engine.declare_attackers(state, attacks).state


def test_702_111b_menace_needs_two_blockers(eng: Engine) -> None:
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("brute", "alice", 3, 2, "menace"),
                                         c("bear", "bob", 2, 2), c("elf", "bob", 1, 1)])
    after = _after_attack(eng, state, {"brute": "bob"})
    got = set(_keys(eng.legal_block_declarations(after)))
    assert got == {frozenset(), frozenset({("bear", ("brute",)), ("elf", ("brute",))})}
    assert not eng.is_legal_block(after, {"bear": "brute"})
    assert eng.is_legal_block(after, {"bear": "brute", "elf": "brute"})


def test_702_9b_702_17b_flying_blocked_only_by_flying_or_reach(eng: Engine) -> None:
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("drake", "alice", 2, 2, "flying"),
                                         c("bear", "bob", 2, 2), c("spider", "bob", 1, 4, "reach"),
                                         c("hawk", "bob", 1, 1, "flying")])
    after = _after_attack(eng, state, {"drake": "bob"})
    assert eng.count_legal_blocks(after) == 4  # {} and any of spider/hawk, alone or both
    for decl in eng.legal_block_declarations(after):
        assert "bear" not in decl
    assert not eng.is_legal_block(after, {"bear": "drake"})


def test_702_3b_defender_never_attacks(eng: Engine) -> None:
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("wall", "alice", 0, 4, "defender"),
                                         c("bear", "alice", 2, 2)])
    got = set(_keys(eng.legal_attack_declarations(state)))
    assert got == {frozenset(), frozenset({("bear", "bob")})}
    assert not eng.is_legal_attack(state, {"wall": "bob"})


def test_508_1b_each_attackable_target_is_an_option(eng: Engine) -> None:
    c = eng.creature
    pw = eng.permanent("jace", "bob", types=("planeswalker",), counters={"loyalty": 3})
    state = eng.game(["alice", "bob"], [c("bear", "alice", 2, 2), pw])
    got = set(_keys(eng.legal_attack_declarations(state)))
    assert got == {frozenset(), frozenset({("bear", "bob")}), frozenset({("bear", "jace")})}


def test_509_1a_a_creature_blocks_no_more_than_it_can(eng: Engine) -> None:
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("x", "alice", 1, 1), c("y", "alice", 1, 1),
                                         c("one", "bob", 1, 1),
                                         c("two", "bob", 1, 1, can_block_additional=1)])
    after = _after_attack(eng, state, {"x": "bob", "y": "bob"})
    got = _keys(eng.legal_block_declarations(after))
    # one: none, x, y (3); two: none, x, y, x+y (4)
    assert len(got) == 12
    assert frozenset({("two", ("x", "y"))}) in got
    assert not any(("one", ("x", "y")) in d for d in got)


def test_508_1d_attacks_if_able_leaves_only_declarations_with_it(eng: Engine) -> None:
    """508.1d: the creature that attacks each combat if able attacks in every
    legal declaration; with a restriction stopping it, it needn't."""
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("berserker", "alice", 2, 2, attacks_if_able=True),
                                         c("bear", "alice", 2, 2)])
    got = set(_keys(eng.legal_attack_declarations(state)))
    assert got == {frozenset({("berserker", "bob")}),
                   frozenset({("berserker", "bob"), ("bear", "bob")})}
    tapped = eng.game(["alice", "bob"], [
        c("berserker", "alice", 2, 2, attacks_if_able=True, tapped=True), c("bear", "alice", 2, 2)])
    assert set(_keys(eng.legal_attack_declarations(tapped))) == {
        frozenset(), frozenset({("bear", "bob")})}


def test_509_1c_lure_every_able_creature_blocks_it(eng: Engine) -> None:
    """509.1c: Lure ("all creatures able to block it do so"): the only legal
    declarations have each able creature blocking it; a tapped one is not able."""
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("wurm", "alice", 6, 4, lure=True),
                                         c("bear", "alice", 2, 2),
                                         c("b1", "bob", 2, 2), c("b2", "bob", 0, 3),
                                         c("elf", "bob", 1, 1, tapped=True)])
    after = _after_attack(eng, state, {"wurm": "bob", "bear": "bob"})
    got = set(_keys(eng.legal_block_declarations(after)))
    assert got == {frozenset({("b1", ("wurm",)), ("b2", ("wurm",))})}


def test_509_1c_menace_with_lure_maximum_is_obeyed_not_all(eng: Engine) -> None:
    """509.1c with 702.111b: a lone creature required to block a creature with
    menace can't, so the empty declaration obeys the most requirements possible."""
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("brute", "alice", 3, 2, "menace", lure=True),
                                         c("bear", "bob", 2, 2)])
    after = _after_attack(eng, state, {"brute": "bob"})
    assert set(_keys(eng.legal_block_declarations(after))) == {frozenset()}


def test_509_1c_provoke_style_requirement_to_block_one_attacker(eng: Engine) -> None:
    """509.1c: "blocks that creature if able" (a blocks_if_able effect): the
    creature must block that attacker, not another one."""
    c = eng.creature
    from redzone import Effect
    state = eng.game(["alice", "bob"], [c("x", "alice", 1, 1), c("y", "alice", 1, 1),
                                         c("b", "bob", 1, 1)])
    after = _after_attack(eng, state, {"x": "bob", "y": "bob"})
    after = after.evolve(effects=(Effect("blocks_if_able", to="b", source="y"),))
    got = set(_keys(eng.legal_block_declarations(after)))
    assert got == {frozenset({("b", ("y",))})}


def test_509_1a_block_options_are_the_pairwise_legal_groups(eng: Engine) -> None:
    """509.1a-b pair by pair: the groups each creature could block at once,
    before the restrictions on the whole declaration."""
    c = eng.creature
    state = eng.game(["alice", "bob"], [c("x", "alice", 1, 1, "flying"), c("y", "alice", 1, 1),
                                         c("wall", "bob", 0, 4, can_block_additional=1),
                                         c("hawk", "bob", 1, 1, "flying")])
    after = _after_attack(eng, state, {"x": "bob", "y": "bob"})
    assert en.block_options(eng.hooks, after) == {"wall": (("y",),),
                                                  "hawk": (("x",), ("y",))}
    assert en.attack_options(eng.hooks, eng.begin_combat(state).state) == {
        "x": ("bob",), "y": ("bob",)}


def test_509_1_no_combat_no_block_declarations(eng: Engine) -> None:
    state = eng.game(["alice", "bob"], [eng.creature("b", "bob", 1, 1)])
    assert list(eng.legal_block_declarations(state)) == []
    assert not eng.is_legal_block(state, {})


# ---------------------------------------------------------------------------
# The unchecked entry points: what the enumerator yields, declared unchecked
# ---------------------------------------------------------------------------


class _Spy:
    """A plugin counting the whole-declaration checks it is asked."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def redzone_block_declaration_violations(self, state: GameState, blocks: Any) -> list[Any]:
        self.calls += 1
        return []

    @hookimpl
    def redzone_attack_declaration_violations(self, state: GameState,
                                              attacks: Any) -> list[Any]:
        self.calls += 1
        return []


def test_508_1_509_1_a_declaration_is_checked_unless_declared_unchecked() -> None:
    """508.1, 509.1: a generated declaration declared the ordinary way is
    checked (there is no hidden cache of generated ones); with
    ``checked=False`` it is not, except from a main phase, where combat
    begins first on a new state; the checked entry point still refuses an
    illegal declaration (509.1a)."""
    spy = _Spy()
    engine = Engine(plugins=[spy])
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("x", "alice", 2, 2), c("b", "bob", 1, 1),
                                            c("d", "bob", 1, 1)])
    attacks = list(engine.legal_attack_declarations(state))
    before = spy.calls
    engine.declare_attackers(state, attacks[-1], checked=False)
    assert spy.calls == before + 1  # combat began first: a new state, checked
    begun = engine.begin_combat(state).state
    attacks = list(engine.legal_attack_declarations(begun))
    before = spy.calls
    engine.declare_attackers(begun, attacks[-1])
    assert spy.calls == before + 1  # the ordinary entry point checks (508.1)
    after = engine.declare_attackers(begun, attacks[-1], checked=False).state
    assert spy.calls == before + 1  # unchecked: 508.1 not checked
    decls = list(engine.legal_block_declarations(after))
    before = spy.calls
    for decl in decls:
        engine.declare_blockers(after, decl, checked=False)
    assert spy.calls == before
    for decl in decls:
        engine.declare_blockers(after, decl)
    assert spy.calls == before + len(decls)
    with pytest.raises(IllegalBlockError) as info:
        engine.declare_blockers(after, {"b": ["x", "x"]})
    assert info.value.rule == "509.1a"


def test_508_1a_the_checked_entry_point_refuses_an_illegal_attack(eng: Engine) -> None:
    """508.1a: a tapped creature can't attack; declared the ordinary way, the
    declaration is refused and nothing changes."""
    c = eng.creature
    begun = eng.begin_combat(eng.game(["alice", "bob"], [
        c("x", "alice", 2, 2, tapped=True), c("b", "bob", 1, 1)])).state
    assert list(eng.legal_attack_declarations(begun)) == [{}]
    with pytest.raises(IllegalAttackError) as info:
        eng.declare_attackers(begun, {"x": "bob"})
    assert info.value.rule == "508.1a"


def _outcome(out: Any) -> tuple[Any, ...]:
    return (out.state, tuple(out.events), tuple(out.choices))


@settings(max_examples=40, deadline=None)
@given(boards(ready=True), st.data())
def test_508_1_509_1_unchecked_and_checked_declarations_give_equal_outcomes(
        state: GameState, data: st.DataObject) -> None:
    """508.1, 509.1: on boards with restrictions and requirements, every
    legal declaration of attackers, then of blockers, declared through the
    unchecked entry point has the outcome the checked one gives it."""
    engine = _ENGINE
    begun = engine.begin_combat(state).state
    attacks = list(engine.legal_attack_declarations(begun))
    for decl in attacks:
        assert _outcome(engine.declare_attackers(begun, decl, checked=False)) == \
            _outcome(engine.declare_attackers(begun, decl))
    chosen = data.draw(st.sampled_from(attacks))
    after = engine.declare_attackers(begun, chosen).state
    if engine.next_step(after) != "declare_blockers":
        return
    for blocks in engine.legal_block_declarations(after):
        assert _outcome(engine.declare_blockers(after, blocks, checked=False)) == \
            _outcome(engine.declare_blockers(after, blocks))


def test_the_enumeration_page_code_runs_as_shown(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/enumeration.md: its code runs and prints what its comments show."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "enumeration.md").read_text()
    code = "\n".join(re.findall(r"```python\n(.*?)```", text, re.S))
    exec(compile(code, "enumeration.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    shown = re.findall(r"^# (.*)$", code, re.M)
    assert shown and [line for line in printed if line in shown] == shown


# ---------------------------------------------------------------------------
# Requirements prune the search (508.1d, 509.1c)
# ---------------------------------------------------------------------------


def _examined(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the combinations the enumerators examine."""
    seen = [0]
    real = en._obeying

    def counting(*args: Any) -> Iterator[tuple[object, ...]]:
        for combo in real(*args):
            seen[0] += 1
            yield combo

    monkeypatch.setattr(en, "_obeying", counting)
    return seen


def test_508_1d_requirements_leave_out_whole_branches(eng: Engine,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """508.1d: a declaration obeys as many requirements as possible. Thirty
    creatures that attack if able leave one legal declaration, every one
    attacking; the enumerator reaches it without examining the 2 to the 30
    declarations that leave one out (a branch that can't obey thirty is left
    out whole)."""
    state = eng.game(["alice", "bob"], [eng.creature(f"a{i}", "alice", 1, 1,
                                                    attacks_if_able=True) for i in range(30)])
    seen = _examined(monkeypatch)
    (only,) = list(eng.legal_attack_declarations(state))
    assert dict(only) == {f"a{i}": "bob" for i in range(30)}
    assert seen[0] == 1
    assert eng.count_legal_attacks(state) == 1


def test_509_1c_a_lure_leaves_out_the_blocks_that_ignore_it(eng: Engine,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """509.1c: every creature able to block a lure attacker must; with a lure
    and eight other attackers against nine blockers, the one legal
    declaration (each blocker on the lure) comes without the 10 to the 9
    others being examined."""
    perms = [eng.creature("lure", "alice", 1, 1, lure=True),
             *(eng.creature(f"a{i}", "alice", 1, 1) for i in range(8)),
             *(eng.creature(f"b{i}", "bob", 1, 1) for i in range(9))]
    state = eng.game(["alice", "bob"], perms)
    state = eng.declare_attackers(state, {p.id: "bob" for p in perms
                                          if p.controller == "alice"}).state
    seen = _examined(monkeypatch)
    (only,) = list(eng.legal_block_declarations(state))
    assert dict(only) == {f"b{i}": ("lure",) for i in range(9)}
    assert seen[0] == 1


@settings(max_examples=40, deadline=None)
@given(boards(ready=True), st.data())
def test_508_1_509_1_leaving_out_branches_keeps_the_order(state: GameState,
                                                        data: st.DataObject) -> None:
    """The enumerators yield in the module's order (itertools.product's over
    each creature's choices): leaving out branches that can't obey enough
    requirements changes which combinations are examined, never the
    declarations yielded nor their order."""
    engine = _ENGINE
    attacks = list(engine.legal_attack_declarations(state))
    decl = data.draw(st.sampled_from([d for d in attacks if d]))
    after = engine.declare_attackers(state, decl).state
    blocks = list(engine.legal_block_declarations(after))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(en, "_obeying", lambda _c, choices, _r, _b: itertools.product(*choices))
        assert list(engine.legal_attack_declarations(state)) == attacks
        assert list(engine.legal_block_declarations(after)) == blocks
