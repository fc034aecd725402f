"""A command's context and its own counts (the lean kernel's layering).

The kernel's steps are given a frozen :class:`~redzone.kernel.context.Context`
(the engine's hooks, edition and settings), never the engine; what a command
spends of its bounds is the command's own (603.2: at most
:data:`~redzone.kernel.answers.MAX_TRIGGERS` abilities trigger in one
command), so two commands on one engine never share a count, in two threads
or one after the other. And the kernel's modules import one another in one
direction only: no import circle, not even for types.
"""

from __future__ import annotations

import ast
import pickle
import threading
from pathlib import Path

import attrs
import pytest
from redzone import BoundError, Engine, Event, GameState, Outcome, Trigger, hookimpl
from redzone.kernel import answers
from redzone.kernel.context import Context
from redzone.kernel.tx import Tx

#: The abilities the test plugin makes trigger on each attack: more than half
#: the (lowered) trigger bound, so two commands' counts added are over it.
SIX = 6
BOUND = 10

KERNEL = Path(__file__).resolve().parent.parent / "core" / "redzone" / "kernel"


class _Sixfold:
    """Six abilities trigger on each attack (603.2); with ``barrier``, each
    command's first triggers call waits there for the other command's, so
    that both commands are under way on one engine at once."""

    __name__ = "sixfold"

    def __init__(self, barrier: threading.Barrier | None = None) -> None:
        self.barrier = barrier

    @hookimpl
    def redzone_triggers(self, state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        attacks = [e for e in events if e.kind == "attack"]
        if not attacks:
            return []
        if self.barrier is not None:
            self.barrier.wait(timeout=30)  # a deadlock guard, not a timing
        return [Trigger("six", attacks[0].attacker or "", "alice", "603.2", text=f"#{i}")
                for i in range(SIX)]


def _board(engine: Engine) -> GameState:
    return engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 2, 2),
                                          engine.creature("troll", "alice", 2, 2)])


def test_603_2_two_threads_sharing_one_engine_each_have_their_own_trigger_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """603.2 and the bound of guarantee 15: two commands run at once on one
    engine, in two threads, each making six abilities trigger under a bound
    of ten; neither gets a BoundError (alone, neither would), because the
    count is each command's, not the engine's."""
    monkeypatch.setattr(answers, "MAX_TRIGGERS", BOUND)
    barrier = threading.Barrier(2)
    engine = Engine(verify=False, plugins=[_Sixfold(barrier)])
    state = _board(engine)
    results: dict[int, Outcome | BaseException] = {}

    def run(n: int) -> None:
        try:
            results[n] = engine.declare_attackers(state, {"ogre": "bob"})
        except BaseException as exc:  # reported below, with the thread's number
            results[n] = exc
            barrier.abort()

    threads = [threading.Thread(target=run, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n in (1, 2):
        out = results[n]
        assert isinstance(out, Outcome), f"thread {n}: {out!r}"
        assert sum(e.kind == "trigger" for e in out.events) == SIX
        assert sum(e.kind == "resolve" for e in out.events) == SIX  # auto_triggers
        assert not out.state.stack


def test_603_2_a_commands_trigger_count_does_not_carry_over_to_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """603.2: the bound is per command. Six abilities trigger in one
    command and six in the next (an additional combat), under a bound of ten:
    both commands succeed; the second starts its count afresh."""
    monkeypatch.setattr(answers, "MAX_TRIGGERS", BOUND)
    engine = Engine(verify=False, plugins=[_Sixfold()])
    first = engine.resolve(_board(engine), {"ogre": "bob"}, {})
    assert sum(e.kind == "trigger" for e in first.events) == SIX
    state = first.state
    second = engine.declare_attackers(state, {"troll": "bob"})  # a second combat (500.8)
    assert second.state.combats == 2
    assert sum(e.kind == "trigger" for e in second.events) == SIX


def test_603_2_the_count_adds_up_within_one_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """603.2: within one command the count adds up across the triggers
    hook's calls: six on the attack and six on each resolution of the six
    go over a bound of ten, and the command fails with a BoundError naming
    the plugin; the state given is untouched (733)."""
    monkeypatch.setattr(answers, "MAX_TRIGGERS", BOUND)

    class Again(_Sixfold):
        __name__ = "again"

        @hookimpl
        def redzone_triggers(self, state: GameState,
                             events: tuple[Event, ...]) -> list[Trigger]:
            if not any(e.kind in ("attack", "resolve") for e in events):
                return []
            return [Trigger("six", "ogre", "alice", "603.2", text=f"#{i}") for i in range(SIX)]

    engine = Engine(verify=False, plugins=[Again()])
    state = _board(engine)
    with pytest.raises(BoundError) as info:
        engine.declare_attackers(state, {"ogre": "bob"})
    assert (info.value.plugin, info.value.bound) == ("again", "triggers")
    assert state.step == "main" and not state.stack


def test_the_context_is_frozen_and_counts_nothing() -> None:
    """The lean kernel: an engine's context is a frozen value (its hooks,
    edition and settings); a working copy opened on the engine or on its
    context reads the same context and holds its own count."""
    engine = Engine()
    ctx = engine.context
    assert isinstance(ctx, Context)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ctx.auto_triggers = False  # type: ignore[misc]
    state = _board(engine)
    a, b = Tx(engine, state), Tx(ctx, state)
    assert a.context is b.context is ctx
    assert a.spent is not b.spent and a.spent.triggered == b.spent.triggered == 0
    engine.auto_triggers = False  # a setting changed makes a new context
    assert engine.context is not ctx and not engine.context.auto_triggers
    assert ctx.auto_triggers


def _kernel_imports(path: Path) -> set[str]:
    """The kernel modules ``path`` imports: at module level, inside functions
    and under ``TYPE_CHECKING`` alike."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "redzone.kernel":
                out.update(a.name for a in node.names)
            elif node.module.startswith("redzone.kernel."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names
                       if a.name.startswith("redzone.kernel."))
    return out


def test_the_kernel_modules_import_one_another_in_one_direction() -> None:
    """The lean kernel: the kernel's modules form no import circle, counting
    imports made for types and inside functions (a deferred import hides a
    circle, it doesn't remove one); nothing below the engine imports it."""
    graph = {p.stem: _kernel_imports(p) for p in KERNEL.glob("*.py") if p.stem != "__init__"}
    assert not [m for m, deps in graph.items() if "engine" in deps]
    order: list[str] = []
    seen: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in seen:
            return
        for dep in sorted(graph.get(module, ())):
            visit(dep, (*path, module))
        seen.add(module)
        order.append(module)

    for module in sorted(graph):
        visit(module, ())
    assert order.index("context") < order.index("engine")


def test_a_state_found_honoured_is_noted_per_plugin_set_and_rechecked_when_its_keywords_change(
        ) -> None:
    """The engine/edition check runs once per state (noted on the state, for
    its plugin set) and its note follows copies whose keywords are the same,
    yet another plugin set checks for itself (a keyword it lacks is an
    EngineMismatchError), and a copy whose keyword records change is
    checked again (107.1: ``mobilize 5000`` claiming to be ``mobilize 2``)."""
    from redzone.kernel.errors import EngineMismatchError, UnknownKeywordError
    from redzone.kernel.model import HONOURED, Keyword

    engine = Engine()
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("voice", "alice", 2, 2, "mobilize 2"),
                                            c("b", "bob", 1, 1)])
    begun = engine.begin_combat(state).state
    assert begun.__dict__.get(HONOURED) is not None
    tapped = begun.with_permanents({"b": begun.objects["b"].evolve(tapped=True)})
    assert tapped.__dict__.get(HONOURED) is begun.__dict__[HONOURED]  # same keywords
    bare = Engine(plugins=[], allow=())
    with pytest.raises(EngineMismatchError, match="mobilize"):
        bare.declare_attackers(tapped, {"voice": "bob"})
    voice = begun.objects["voice"]
    forged = Keyword("mobilize", "mobilize 2", ("5000",))
    lying = begun.with_permanents({"voice": voice.evolve(printed_keywords=(forged,))})
    assert HONOURED not in lying.__dict__
    with pytest.raises(UnknownKeywordError):
        engine.declare_attackers(lying, {"voice": "bob"})


class _Pacifist:
    """The ogre deals no combat damage (a plugin's say, 510.1)."""

    __name__ = "pacifist"

    @hookimpl
    def redzone_deals_combat_damage(self, state: GameState, creature: str,
                                    step: str) -> bool | None:
        return False if creature == "ogre" else None


def test_510_4_the_next_damage_step_is_noted_on_the_state_per_plugin_set() -> None:
    """510.4, 702.7b: which combat damage step comes next and who deals
    damage in it is noted on the state (the context holds no cache), for the
    plugin set that found it: another engine's plugins decide for themselves
    on the same state, and a copy with a change is asked again."""
    from redzone.kernel.editions import EDITIONS
    from redzone.kernel.model import STEP_KIND
    from redzone.kernel.steps import damage_step_kind

    engine = Engine()
    assert not [f.name for f in attrs.fields(Context) if f.name not in
                ("hooks", "edition", "policy", "auto_triggers")]
    c = engine.creature
    state = engine.game(["alice", "bob"], [c("ogre", "alice", 2, 2), c("troll", "bob", 2, 2)])
    blocked = engine.declare_blockers(engine.declare_attackers(state, {"ogre": "bob"}).state,
                                      {"troll": ("ogre",)}).state
    assert damage_step_kind(engine.context, blocked) == ("combat_damage", ("ogre", "troll"))
    assert blocked.__dict__[STEP_KIND][0] is engine.hooks.honour_mark
    for rules in EDITIONS:  # the note pickles (plain values), under every edition
        ruled = Engine(rules=rules)
        fresh = ruled.game(["alice", "bob"], [c("ogre", "alice", 2, 2)])
        damage_step_kind(ruled.context, fresh)
        assert STEP_KIND in fresh.__dict__ and pickle.loads(pickle.dumps(fresh)) == fresh
    other = Engine(plugins=[_Pacifist()])
    assert damage_step_kind(other.context, blocked) == ("combat_damage", ("troll",))
    dealt = other.combat_damage(blocked).state
    assert dealt.objects["ogre"].zone == "graveyard" and dealt.objects["troll"].damage == 0
    assert engine.combat_damage(blocked).state.objects["troll"].zone == "graveyard"
    tapped = blocked.with_permanents({"troll": blocked.objects["troll"].evolve(tapped=True)})
    assert STEP_KIND not in tapped.__dict__
