"""Tampered saved states (Containment II, item 6).

Guarantee 7 (docs/guarantees.md): a state round-trips through its serialised
form, and :func:`~redzone.formats.serialize.state_from_dict` refuses a dict
that is not one. It checks references as well as types: every id a state
names (a controller, an attacker, what a blocker blocks, a shield's source, a
trigger's target ...) is one the state has, and the state is consistent where
the kernel relies on it (an attacker is on the battlefield, a blocker blocks
an attacking creature, a player is on one team at most). A tampered state is
either refused with a :class:`~redzone.formats.serialize.StateFormatError`
naming the key path, or every command run on it raises only redzone's typed
errors (:class:`~redzone.RulesError`), never a raw ``KeyError``,
``ValueError`` or ``AssertionError``.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hostile_kit import LONG_FACTOR, counting_calls
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, FrozenMap, GameState, RulesError, examples
from redzone.formats import scenario as scenario_format
from redzone.formats import serialize
from redzone.formats.serialize import StateFormatError, state_from_dict, state_to_dict

#: Tampered states per run: 300 by default; long mode (REDZONE_LONG=1) 50
#: times more; REDZONE_STATE_FUZZ_EXAMPLES sets it.
EXAMPLES = int(os.environ.get("REDZONE_STATE_FUZZ_EXAMPLES",
                              str(300 * LONG_FACTOR if os.environ.get("REDZONE_LONG") else 300)))

#: An id no state has.
GHOST = "ghost"


@functools.cache
def engine(rules: str = "foundations") -> Engine:
    """One engine per rules edition, with every installed keyword."""
    return Engine(rules=rules)


# ---------------------------------------------------------------------------
# Real saved states: the bundled examples at each step, and generated boards
# ---------------------------------------------------------------------------


def _attack_everything(eng: Engine, state: GameState) -> dict[str, str]:
    targets = eng.attackable(state)
    return {a: targets[i % len(targets)] for i, a in enumerate(eng.legal_attackers(state))} if (
        targets) else {}


def _block_everything(eng: Engine, state: GameState) -> dict[str, tuple[str, ...]]:
    blocks: dict[str, tuple[str, ...]] = {}
    combat = state.combat
    for attacker in combat.attacks if combat is not None else ():
        for blocker in eng.legal_blockers(state, attacker):
            if blocker not in blocks:
                blocks[blocker] = (attacker,)
                break
    return blocks


def _next(eng: Engine, state: GameState) -> GameState | None:
    """The state after the next command a combat and a turn would run
    (``None`` once there is none): declarations attack and block with what
    may, falling back to the engine's suggestion."""
    if state.game_over is not None:
        return None
    if state.stack:
        return eng.resolve_trigger(state).state
    nxt = eng.next_step(state)
    if nxt == "beginning_of_combat" or (nxt is None and state.step == "main"):
        return eng.begin_combat(state).state
    if nxt == "declare_attackers":
        try:
            return eng.declare_attackers(state, _attack_everything(eng, state)).state
        except RulesError:
            return eng.declare_attackers(state, eng.suggest_attacks(state)).state
    if nxt == "declare_blockers":
        try:
            return eng.declare_blockers(state, _block_everything(eng, state)).state
        except RulesError:
            return eng.declare_blockers(state, eng.suggest_blocks(state)).state
    if nxt == "end_of_combat":
        return eng.end_of_combat(state).state
    if nxt is not None and eng.damage_step(nxt) is not None:
        return eng.combat_damage(state).state
    if state.step == "end_of_combat":
        return eng.finish(state).state
    if state.step in ("postcombat_main", "main"):
        return eng.end_step(state).state
    if nxt == "cleanup":
        return eng.cleanup(state).state
    if state.step == "cleanup":
        return eng.end_turn(state).state
    return None


def _walk(eng: Engine, state: GameState, limit: int = 10) -> list[GameState]:
    """The states a turn goes through from ``state``, at most ``limit``."""
    seen = [state]
    for _ in range(limit):
        try:
            after = _next(eng, seen[-1])
        except RulesError:
            break
        if after is None:
            break
        seen.append(after)
    return seen


def _example_states(name: str) -> list[GameState]:
    scenario = scenario_format.load(examples.path(name))
    eng = scenario.engine
    state = scenario.state
    found = [state]
    try:
        result = eng.resolve(state, scenario.attacks, scenario.blocks, assign=scenario.assign,
                             assign_first_strike=scenario.assign_first_strike,
                             actions=scenario.actions, order=scenario.order,
                             bands=scenario.bands, choices=scenario.choices,
                             through="cleanup")
    except RulesError:  # an example of an illegal declaration
        return _walk(engine(state.rules), state)
    found += [*result.after_steps.values(), result.state]
    # the declarations' own states too
    state = eng.begin_combat(state).state
    found.append(state)
    state = eng.declare_attackers(state, scenario.attacks, scenario.bands,
                                  choices=scenario.choices).state
    found.append(state)
    return found


#: Keywords for generated boards: one of each kind of plugin the kernel calls.
BOARD_KEYWORDS = ("flying", "first strike", "deathtouch", "trample", "lifelink", "banding",
                  "exalted", "bushido 1", "decayed", "menace", "indestructible", "infect",
                  "battle cry", "provoke", "mentor", "double strike", "wither", "vigilance")


def _board_states(seed: int) -> list[GameState]:
    """A generated board (three players, a planeswalker and a battle,
    creatures with drawn keywords, Two-Headed Giant every third seed),
    walked through a turn."""
    eng = engine()
    names = ["alice", "bob", "carol"] if seed % 3 else ["alice", "bob", "carol", "dave"]
    perms = []
    for i, owner in enumerate(names * 2):
        kws = [BOARD_KEYWORDS[(seed * 7 + i * 3 + j) % len(BOARD_KEYWORDS)]
               for j in range((seed + i) % 3)]
        perms.append(eng.creature(f"{owner[0]}{i}", owner, 1 + (seed + i) % 4,
                                  1 + (seed * i) % 3, *kws))
    perms.append(eng.permanent("jace", "bob", types=("planeswalker",),
                               counters={"loyalty": 3}))
    perms.append(eng.permanent("siege", "carol", types=("battle",), subtypes=("Siege",),
                               counters={"defense": 2}, protector="alice"))
    teams = {"t1": ("alice", "carol"), "t2": ("bob", "dave")} if len(names) == 4 else None
    state = eng.game(names, perms, teams=teams)
    return _walk(eng, state, limit=14)


@functools.cache
def real_states() -> tuple[dict[str, Any], ...]:
    """Every base state, serialised: the examples at each step, then the
    generated boards."""
    found: list[GameState] = []
    for name in examples.names():
        found += _example_states(name)
    for seed in range(6):
        found += _board_states(seed)
    return tuple(state_to_dict(s) for s in found)


# ---------------------------------------------------------------------------
# Tampering
# ---------------------------------------------------------------------------


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _nodes(v, (*path, i))


def _ids(data: dict[str, Any]) -> list[str]:
    """Every string of the state, as a value or a key: the ids a tamperer
    swaps in, and an unknown one."""
    found: set[str] = {GHOST}
    for _path, value in _nodes(data):
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            found.update(value)
    return sorted(found)


OTHER_VALUES: tuple[Any, ...] = (None, 0, -1, 7, "", True, [], {}, [GHOST], {GHOST: GHOST})


def _tamper(draw: st.DrawFn, data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``data`` with one drawn change: an id replaced by another or by an
    unknown one, a key renamed or deleted, a value of another type, or a
    value copied from elsewhere; and a description of it."""
    data = copy.deepcopy(data)
    nodes = [(p, v) for p, v in _nodes(data) if p]
    where, value = draw(st.sampled_from(nodes))
    parent = data
    for part in where[:-1]:
        parent = parent[part]
    key = where[-1]
    ids = _ids(data)
    kind = draw(st.sampled_from(["replace-id", "rename-key", "delete", "retype", "copy",
                                 "swap"]))
    if kind == "replace-id" and isinstance(value, str):
        parent[key] = draw(st.sampled_from(ids))
    elif kind == "rename-key" and isinstance(parent, dict):
        new = draw(st.sampled_from(ids))
        items = [(new if k == key else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    elif kind == "delete":
        del parent[key]
    elif kind in ("copy", "swap"):
        there, other = draw(st.sampled_from(nodes))
        parent[key] = copy.deepcopy(other)
        if kind == "swap" and there[:len(where)] != where and where[:len(there)] != there:
            holder = data
            for part in there[:-1]:
                holder = holder[part]
            holder[there[-1]] = copy.deepcopy(value)
    else:
        kind = "retype"
        parent[key] = copy.deepcopy(draw(st.sampled_from(OTHER_VALUES)))
    return data, f"{kind} at {'.'.join(map(str, where))}"


@st.composite
def tampered(draw: st.DrawFn) -> tuple[dict[str, Any], list[str]]:
    data = draw(st.sampled_from(real_states()))
    done = []
    for _ in range(draw(st.integers(1, 3))):
        data, what = _tamper(draw, data)
        done.append(what)
    return data, done


def _commands(eng: Engine) -> list[Callable[[GameState], Any]]:
    """Every command an embedding engine can drive, each on its own."""
    return [
        lambda s: eng.begin_combat(s),
        lambda s: eng.declare_attackers(s, _attack_everything(eng, s)),
        lambda s: eng.declare_attackers(s, eng.suggest_attacks(s)),
        lambda s: eng.declare_blockers(s, _block_everything(eng, s)),
        lambda s: eng.declare_blockers(s, eng.suggest_blocks(s)),
        lambda s: eng.damage_duties(s),
        lambda s: eng.combat_damage(s),
        lambda s: eng.end_of_combat(s),
        lambda s: eng.finish(s),
        lambda s: eng.end_step(s),
        lambda s: eng.cleanup(s),
        lambda s: eng.end_turn(s),
        lambda s: eng.resolve_trigger(s),
        lambda s: eng.pending_choices(s),
        lambda s: eng.check_state_based_actions(s),
    ]


def drive(state: GameState) -> None:
    """Run every command on ``state``, then a turn from it: each may raise
    a :class:`~redzone.RulesError`, and nothing else."""
    eng = engine(state.rules) if state.rules in ("foundations", "m10", "sixth") else engine()
    for command in _commands(eng):
        with contextlib.suppress(RulesError):
            command(state)
    _walk(eng, state, limit=12)


#: What the fuzzer saw, for the long run's report.
SEEN: Counter[str] = Counter()


def test_fuzz_tampered_states_are_refused_or_only_raise_rules_errors() -> None:
    """Guarantee 7: a tampered saved state is refused with a StateFormatError
    naming the key path, or every command on the state it gives raises only
    redzone's typed errors (RulesError), never a raw exception."""
    SEEN.clear()

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(tampered())
    def run(case: tuple[dict[str, Any], list[str]]) -> None:
        data, done = case
        SEEN["tampered"] += 1
        try:
            state = state_from_dict(json.loads(json.dumps(data)))
        except StateFormatError as exc:
            SEEN["refused"] += 1
            assert exc.path, f"{done}: refused without a path: {exc}"
            return
        SEEN["accepted"] += 1
        try:
            drive(state)
        except Exception as exc:  # the thing this test is for
            SEEN["raw exceptions"] += 1
            raise AssertionError(f"{done}: {type(exc).__name__}: {exc}") from exc

    run()
    print(f"tampered states: {SEEN['tampered']:,}; refused: {SEEN['refused']:,}; accepted: "
          f"{SEEN['accepted']:,}; raw exceptions: {SEEN['raw exceptions']:,}")
    assert SEEN["refused"] and SEEN["accepted"]


# ---------------------------------------------------------------------------
# Hostile cases: each a tampered state the kernel would crash on or answer
# wrongly, refused naming its path
# ---------------------------------------------------------------------------


def _in_combat() -> dict[str, Any]:
    """Alice's ogre attacks Bob and his wall blocks it; a shield on the
    wall, a game-wide effect, serialised at the declare blockers step."""
    eng = engine()
    state = eng.game(["alice", "bob"], [eng.creature("ogre", "alice", 6, 6, "trample"),
                                        eng.creature("wall", "bob", 0, 2),
                                        eng.creature("elf", "bob", 1, 1)])
    state = eng.declare_attackers(state, {"ogre": "bob"}).state
    state = eng.declare_blockers(state, {"wall": "ogre"}).state
    data: dict[str, Any] = json.loads(json.dumps(state_to_dict(state)))
    return data


def _trigger(**fields: Any) -> dict[str, Any]:
    return {"kind": "t", "source": "ogre", "controller": "alice", "rule": "603.2", "id": "t1",
            **fields}


#: name -> (the change to the serialised state, the path the error names)
TAMPERED: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "attacker-in-the-graveyard": (lambda d: d["objects"]["ogre"].update(zone="graveyard"),
                                  "combat.attacks.ogre"),
    "attacker-unknown": (lambda d: d["combat"].update(attacks={"ghost": "bob"}),
                         "combat.attacks.ghost"),
    "attacks-a-ghost": (lambda d: d["combat"]["attacks"].update(ogre=GHOST),
                        "combat.attacks.ogre"),
    "attacks-a-creature-that-left": (
        lambda d: (d["combat"]["attacks"].update(ogre="elf"),
                   d["objects"]["elf"].update(zone="exile")), "combat.attacks.ogre"),
    "wrong-defending-player": (lambda d: d["combat"]["defending_players"].update(ogre="alice"),
                               "combat.defending_players.ogre"),
    "no-defending-player": (lambda d: d["combat"].update(defending_players={}),
                            "combat.defending_players.ogre"),
    "blocks-a-non-attacker": (lambda d: d["combat"]["blocks"].update(wall=["elf"]),
                              "combat.blocks.wall[0]"),
    "blocker-in-exile": (lambda d: d["objects"]["wall"].update(zone="exile"),
                         "combat.blocks.wall"),
    "attacks-and-blocks": (lambda d: d["combat"]["blocks"].update(ogre=["ogre"]),
                           "combat.blocks.ogre"),
    "blocked-non-attacker": (lambda d: d["combat"].update(blocked=["ogre", "wall"]),
                             "combat.blocked[1]"),
    "band-of-a-non-attacker": (lambda d: d["combat"].update(bands=[["ogre", "elf"]]),
                               "combat.bands[0][1]"),
    "in-two-bands": (lambda d: d["combat"].update(bands=[["ogre"], ["ogre"]]),
                     "combat.bands[1][0]"),
    "order-of-a-ghost": (lambda d: d["combat"].update(order={"ogre": [GHOST]}),
                         "combat.order.ogre[0]"),
    "damage-on-the-stack-to-a-ghost": (
        lambda d: d["combat"].update(on_stack=[{"source": "ogre", "target": GHOST,
                                                "amount": 6}]), "combat.on_stack[0].target"),
    "combat-at-main": (lambda d: d.update(step="main"), "combat"),
    "no-combat-at-blockers": (lambda d: d.update(combat=None), "combat"),
    "controller-not-a-player": (lambda d: d["objects"]["wall"].update(controller=GHOST),
                                "objects.wall.controller"),
    "owner-not-a-player": (lambda d: d["objects"]["wall"].update(owner="elf"),
                           "objects.wall.owner"),
    "key-and-id-differ": (lambda d: d["objects"]["elf"].update(id="wall"), "objects.elf.id"),
    "object-named-like-a-player": (
        lambda d: d["objects"].update(bob={**d["objects"]["elf"], "id": "bob"}),
        "objects.bob"),
    "turn-order-misses-a-player": (lambda d: d.update(turn_order=["alice", "alice"]),
                                   "turn_order"),
    "active-player-unknown": (lambda d: d.update(active_player=GHOST), "active_player"),
    "shield-for-a-ghost": (lambda d: d.update(shields=[{"id": "s1", "to": GHOST}]),
                           "shields[0].to"),
    "two-shields-one-id": (lambda d: d.update(shields=[{"id": "s1", "to": "wall"},
                                                       {"id": "s1", "to": "ogre"}]),
                           "shields[1].id"),
    "effect-of-a-ghost": (lambda d: d.update(effects=[{"kind": "x", "player": GHOST}]),
                          "effects[0].player"),
    "condition-on-a-ghost": (
        lambda d: d.update(effects=[{"kind": "x", "duration": "while", "condition": {
            "kind": "on_battlefield", "object": GHOST}}]), "effects[0].condition.object"),
    "trigger-targets-a-ghost": (lambda d: d.update(stack=[_trigger(targets=["wall", GHOST])]),
                                "stack[0].targets[1]"),
    "trigger-of-nobody": (lambda d: d.update(stack=[_trigger(controller=GHOST)]),
                          "stack[0].controller"),
    "choice-of-a-ghost": (
        lambda d: d.update(stack=[_trigger(offers=[{"name": "n", "player": GHOST,
                                                    "kind": "target", "options": []}])]),
        "stack[0].offers[0].player"),
    "delayed-trigger-watching-a-ghost": (
        lambda d: d.update(delayed=[{"when": "leaves", "kind": "k", "source": "ogre",
                                     "controller": "alice", "object": GHOST}]),
        "delayed[0].object"),
    "source-controlled-by-a-ghost": (
        lambda d: d.update(sources={"bolt": {"id": "bolt", "controller": GHOST}}),
        "sources.bolt.controller"),
    "last-known-information-of-a-ghost": (
        lambda d: d.update(lki={GHOST: {**d["objects"]["elf"], "id": GHOST}}), "lki.ghost"),
    "team-of-a-ghost": (lambda d: d.update(teams={"t": ["alice", GHOST]}), "teams.t[1]"),
    "player-on-two-teams": (lambda d: d.update(teams={"t": ["alice"], "u": ["alice", "bob"]}),
                            "teams.u[0]"),
    "teammates-with-different-life": (
        lambda d: (d.update(teams={"t": ["alice", "bob"]}),
                   d["players"]["bob"].update(life=3)), "players.bob"),
    "winner-unknown": (lambda d: d.update(game_over={"winners": [GHOST], "losers": ["bob"],
                                                      "draw": False, "step": "main",
                                                      "rule": "104.2a"}),
                       "game_over.winners[0]"),
    # Found by the fuzzer: a key renamed to "" was refused with an empty path.
    "top-level-key-renamed-to-empty": (lambda d: d.update({"": d.pop("players")}), "['']"),
    "key-that-isnt-a-string": (lambda d: d.update({3: 1}), "[3]"),
    # An enumerated field holds one of the model's values (ZONES, DURATIONS,
    # DELAYED_WHEN, SHIELD_MODES): an unknown shield mode acted as "all".
    "shield-of-an-unknown-mode": (
        lambda d: d.update(shields=[{"id": "s1", "to": "bob", "mode": "zzz"}]),
        "shields[0].mode"),
    "delayed-trigger-that-never-comes": (
        lambda d: d.update(delayed=[{"when": "never", "kind": "k", "source": "ogre",
                                     "controller": "alice"}]), "delayed[0].when"),
    "permanent-in-an-unknown-zone": (lambda d: d["objects"]["elf"].update(zone="zzz"),
                                     "objects.elf.zone"),
    "modification-of-an-unknown-duration": (
        lambda d: d["objects"]["elf"].update(modifications=[{"power": 1, "duration": "zzz"}]),
        "objects.elf.modifications[0].duration"),
    # Counts within bounds (120.3, 122.1, 500.1).
    "negative-damage": (lambda d: d["objects"]["wall"].update(damage=-5),
                        "objects.wall.damage"),
    "negative-poison": (lambda d: d["players"]["bob"].update(poison=-100),
                        "players.bob.poison"),
    "negative-counters": (lambda d: d["objects"]["wall"].update(counters={"+1/+1": -3}),
                          "objects.wall.counters['+1/+1']"),
    "turn-zero": (lambda d: d.update(turn=0), "turn"),
    # Creatures removed from combat (506.4) are objects, and out of combat.
    "removed-ghost": (lambda d: d["combat"].update(removed=[GHOST]), "combat.removed[0]"),
    "removed-but-still-attacking": (lambda d: d["combat"].update(removed=["ogre"]),
                                    "combat.removed[0]"),
    # The ids an action names (a trigger's, a delayed trigger's) exist.
    "delayed-trigger-action-on-a-ghost": (
        lambda d: d.update(delayed=[{"when": "end_step", "kind": "k", "source": "ogre",
                                     "controller": "alice",
                                     "actions": [{"do": "destroy", "target": GHOST}]}]),
        "delayed[0].actions[0].target"),
    "trigger-action-on-a-ghost": (
        lambda d: d.update(stack=[_trigger(actions=[{"do": "pump", "target": GHOST,
                                                     "power": 1}])]),
        "stack[0].actions[0].target"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_tampered_state_is_refused_naming_the_path(name: str) -> None:
    """Guarantee 7: a saved state naming an id it doesn't have, or
    inconsistent where the kernel relies on it (506.2, 506.4, 509.1a,
    702.22c, 810.4), is refused with a StateFormatError naming the path; the
    dict given is unchanged."""
    change, path = TAMPERED[name]
    data = _in_combat()
    state_from_dict(data)  # the untampered state is accepted
    change(data)
    before = copy.deepcopy(data)
    with pytest.raises(StateFormatError) as info:
        state_from_dict(data)
    assert info.value.path == path, str(info.value)
    assert str(info.value).startswith(path)
    assert data == before


def _string_fields() -> Iterator[tuple[type, str]]:
    """Each field holding strings of each class a state holds, an action's
    (the kernel's and every installed plugin's) included."""
    import typing

    import attrs
    from redzone.kernel.hooktypes import Action

    engine()  # every installed plugin, and so its actions, imported

    def strings(tp: Any) -> bool:  # a map's keys are checked against its values' ids
        args = typing.get_args(tp)
        if typing.get_origin(tp) is FrozenMap:
            args = args[1:]
        return tp is str or any(strings(a) for a in args)

    # redzone's own action kinds and the built-in plugins': a third-party
    # plugin's (the example game's, imported by other tests) have open fields.
    ours = [c for c in serialize._action_classes().values()
            if c.__module__.split(".")[0] in ("redzone", "redzone_keywords")]

    def classes(tp: Any) -> Iterator[type]:
        if tp is Action:
            yield from ours
        elif isinstance(tp, type) and attrs.has(tp):
            yield tp
        for arg in typing.get_args(tp):
            yield from classes(arg)

    seen: set[type] = set()
    todo: list[type] = [GameState]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for f in attrs.fields(cls):
            todo.extend(classes(hints[f.name]))
            if strings(hints[f.name]):
                yield cls, f.name
    assert len(seen) >= 12 + len(ours)


def test_every_string_field_of_the_model_is_classified() -> None:
    """Guarantee 7: the reference checks follow the model: each field of
    each class a state holds (an action's too) that holds strings either
    names ids of the state (its annotation says which: PlayerId, ObjectId
    ..., read by redzone.kernel.references.reference_fields) or doesn't
    (NOT_REFERENCES), so a field added to the model without saying which
    fails here; and no field is both."""
    unclassified = [f"{cls.__name__}.{name}" for cls, name in _string_fields()
                    if serialize.reference_kind(cls, name) is None
                    and f"{cls.__name__}.{name}" not in serialize.NOT_REFERENCES]
    assert not unclassified
    both = [f"{cls.__name__}.{name}" for cls, name in _string_fields()
            if serialize.reference_kind(cls, name) is not None
            and f"{cls.__name__}.{name}" in serialize.NOT_REFERENCES]
    assert not both


def test_every_enumerated_string_field_of_the_model_is_checked() -> None:
    """Guarantee 7: each string field of the model (an action's too) names
    ids (its annotation), holds one of an enumeration of the model
    (ENUMERATIONS: ZONES, DURATIONS, DELAYED_WHEN, SHIELD_MODES, ...) or is
    open (OPEN_STRINGS), so an enumerated field added to the model without
    its check fails here."""
    open_ = serialize.OPEN_STRINGS
    unclassified = [f"{cls.__name__}.{name}" for cls, name in _string_fields()
                    if serialize.reference_kind(cls, name) is None
                    and serialize.enumeration(cls, name) is None
                    and name not in open_ and f"{cls.__name__}.{name}" not in open_]
    assert not unclassified
    # an open field is open: neither a reference nor enumerated
    for cls, name in _string_fields():
        qualified = f"{cls.__name__}.{name}"
        if qualified in open_:
            assert serialize.enumeration(cls, name) is None, qualified


def _big(n: int) -> dict[str, Any]:
    """A combat of ``n`` attackers, each blocked by its own blocker, with a
    shield on each blocker."""
    eng = engine()
    perms = [eng.creature(f"a{i}", "alice", 2, 2) for i in range(n)]
    perms += [eng.creature(f"b{i}", "bob", 1, 3) for i in range(n)]
    state = eng.game(["alice", "bob"], perms)
    state = eng.declare_attackers(state, {f"a{i}": "bob" for i in range(n)}).state
    state = eng.declare_blockers(state, {f"b{i}": f"a{i}" for i in range(n)}).state
    data = state_to_dict(state)
    data["shields"] = [{"id": f"s{i}", "to": f"b{i}", "source": f"a{i}"} for i in range(n)]
    return data


def test_reference_checks_are_linear_and_cheap() -> None:
    """Guarantee 7, bounded work: checking a state's references costs calls
    in proportion to its size (four times the state, at most 4.5 times the
    calls), and at most a tenth more than decoding its types, counted in
    Python calls, not by a clock."""
    costs = {}
    state_from_dict(_big(2))  # the per-class caches, filled once per process
    for n in (25, 100):
        data = _big(n)
        with counting_calls() as checked:
            state_from_dict(data)
        with counting_calls() as decoded:
            serialize._decode_state(data, None)
        costs[n] = checked.count
        assert checked.count <= 1.1 * decoded.count, (n, checked.count, decoded.count)
    assert costs[100] <= 4.5 * costs[25], costs


def _with_keyword(keyword: dict[str, Any]) -> GameState:
    """The combat state with the ogre's printed keywords tampered to ``keyword``."""
    data = _in_combat()
    data["objects"]["ogre"]["printed_keywords"] = [keyword]
    return state_from_dict(data)


@pytest.mark.parametrize("keyword", [
    {"name": "mobilize", "text": "mobilize 2", "args": ["5000"]},
    {"name": "mobilize", "text": "mobilize 1000000", "args": ["1000000"]},
    {"name": "flying", "text": "trample", "args": []},
], ids=["args-not-its-text", "number-over-its-bound", "name-not-its-text"])
def test_tampered_keyword_is_refused_by_every_command(keyword: dict[str, Any]) -> None:
    """Guarantee 7 (and 107.1, a keyword's number is bounded): a keyword of a
    saved state is what its text parses to under the engine, checked as a
    command starts (once per state), so a Keyword whose args aren't its
    text's, or whose number is over its bound, can't make 5,000 tokens or
    spend seconds before a BoundError: every command refuses the state."""
    state = _with_keyword(keyword)
    eng = engine()
    queries = {5, 13}  # damage_duties, pending_choices: they only read the state
    for command in [c for i, c in enumerate(_commands(eng)) if i not in queries]:
        with counting_calls() as calls, pytest.raises(RulesError) as info:
            command(state)
        assert "mobilize" in str(info.value) or "flying" in str(info.value), str(info.value)
        assert calls.count < 20_000, calls.count
