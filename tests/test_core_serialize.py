"""The game state as plain JSON-able data and back (core/redzone/serialize.py):
lossless, order-preserving, strict about what it reads."""

from __future__ import annotations

import functools
import json
import types
import typing
from typing import Any

import attrs
import pytest
import redzone
from _long import samples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from redzone import (
    Action,
    CreateDelayedTrigger,
    CreateToken,
    DealDamage,
    Draw,
    Effect,
    Engine,
    Exile,
    FrozenMap,
    GameState,
    Keyword,
    Modification,
    Move,
    Permanent,
    Player,
    Prevent,
    Pump,
    Sacrifice,
    Tap,
    creature,
)
from redzone.formats.serialize import (
    BOUNDS,
    FORMAT,
    StateFormatError,
    _decode_state,
    enumeration,
    reference_kind,
    state_from_dict,
    state_to_dict,
)
from redzone.kernel.model import (
    OBJECT_ZONES,
    Combat,
    Damage,
    DelayedTrigger,
    Shield,
    StackObject,
    Trigger,
)
from redzone.kernel.tx import is_combat_step
from redzone.testing.conformance import Case, cases, legalize, play, printed_keywords

IDS = st.text(alphabet="abcdefgxyz-_/+1 ", min_size=1, max_size=6)


FROZEN_DATA = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | IDS,
    lambda inner: st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(IDS, inner, max_size=3).map(FrozenMap), max_leaves=6)
ACTIONS = st.sampled_from([Tap("x"), Sacrifice("y", player="bob"), Pump("z", 1, -1),
                           CreateDelayedTrigger("end_step", (Exile("w"),)),
                           Move("v", "library", position="bottom"), Draw("bob", 2)])


def strategy_for(tp: Any) -> st.SearchStrategy[Any]:
    """A strategy for any value of a model annotation: built from the attrs
    fields, so a field added to the model is covered without editing this."""
    if tp is Any:
        return FROZEN_DATA  # a plugin's own state: frozen data
    if tp is Action:
        return ACTIONS
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return st.one_of(*(strategy_for(t) for t in typing.get_args(tp)))
    if tp is type(None):
        return st.none()
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(-50, 50)
    if tp is str:
        return IDS
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple and args and args[-1] is not Ellipsis:  # fixed length
        return st.tuples(*(strategy_for(a) for a in args))
    if origin is tuple:
        return st.lists(strategy_for(args[0]), max_size=3).map(tuple)
    if origin is frozenset:
        return st.frozensets(strategy_for(args[0]), max_size=3)
    if origin is FrozenMap:
        return st.dictionaries(IDS, strategy_for(args[1]), max_size=3).map(FrozenMap)
    if isinstance(tp, type) and attrs.has(tp):
        hints = typing.get_type_hints(tp)
        fields = {f.name: strategy_for(hints[f.name]) for f in attrs.fields(tp)}
        return st.fixed_dictionaries(fields).map(lambda kw: tp(**kw))
    raise TypeError(f"no strategy for {tp!r}")


STATES = strategy_for(GameState)


@settings(max_examples=samples(50, 150), suppress_health_check=[HealthCheck.too_slow])
@given(STATES)
def test_round_trip_of_any_state(state: GameState) -> None:
    """DESIGN quality bar: the state round-trips through its serialised form,
    through JSON text too, keeping the order of every mapping. A state drawn
    from the model's types alone has ids that don't resolve, so it is the
    structure that is checked here (decoded without the reference checks),
    and state_from_dict gives it back or refuses it naming a path; the
    public path on states it accepts is
    :func:`test_round_trip_of_any_consistent_state`'s."""
    data = state_to_dict(state)
    assert data["format"] == FORMAT
    text = json.dumps(data)
    back = _decode_state(json.loads(text), None)
    assert back == state
    try:
        assert state_from_dict(json.loads(text)) == state
    except StateFormatError as exc:
        assert exc.path
    assert list(back.objects) == list(state.objects)
    if state.combat is not None:
        assert back.combat is not None
        assert list(back.combat.attacks) == list(state.combat.attacks)
        assert list(back.combat.blocks) == list(state.combat.blocks)
    assert state_to_dict(back) == data


# -- states whose references resolve --------------------------------------------------

#: The ids of a consistent state: its players, objects and sources are the
#: first few of each (odd characters included: a path quotes them).
PLAYER_POOL = ("alice", "b ob", "c/1")
OBJECT_POOL = ("orc", "x-1", "y z", "w+2")
SOURCE_POOL = ("bolt", "s/1")
#: The steps a consistent state stands at: of the combat phase or not (506.1).
STEP_NAMES = ("untap", "upkeep", "draw", "main", "beginning_of_combat", "declare_attackers",
              "declare_blockers", "first_strike_damage", "combat_damage",
              "combat_damage_assigned", "end_of_combat", "postcombat_main", "end", "cleanup")
#: Every action kind the kernel declares (what a trigger, a delayed trigger or
#: a choice holds).
ACTION_KINDS: tuple[Any, ...] = tuple(sorted(
    (kind for kind in (getattr(redzone, name) for name in redzone.__all__)
     if isinstance(kind, type) and issubclass(kind, Action) and kind.do),
    key=lambda kind: kind.do))
#: The action kinds drawn inside another action (all of them: a token an
#: action inside another creates is one, 111.1).
NESTED_KINDS: tuple[Any, ...] = ACTION_KINDS

#: The ids a reference of each kind may name (:data:`redzone.kernel.references.KINDS`).
Pools = FrozenMap[str, tuple[str, ...]]


@functools.cache
def consistent_for(tp: Any, pools: Pools, cls: type | None = None, name: str = "",
                   ref: str | None = None, depth: int = 0) -> st.SearchStrategy[Any]:
    """A strategy for a value of the annotation ``tp`` of the field ``name``
    of ``cls`` that :func:`state_from_dict` accepts: an id it names (as the
    field's annotation says, :func:`reference_kind`) is one of ``pools``'
    of its kind, an enumerated string one of the enumeration's, a count
    within its bounds. ``depth``: how many actions the value is inside (an
    action holds actions, inside one action no more)."""
    if tp is Any:
        return FROZEN_DATA
    if tp is Action:
        return st.one_of(*(consistent_for(kind, pools, depth=depth + 1)
                           for kind in (NESTED_KINDS if depth else ACTION_KINDS)))
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return st.one_of(*(consistent_for(t, pools, cls, name, ref, depth)
                           for t in typing.get_args(tp)))
    if tp is type(None):
        return st.none()
    if tp is bool:
        return st.booleans()
    if tp is int:
        lo, hi = BOUNDS.get(f"{getattr(cls, '__name__', '')}.{name}", (-50, 50))
        return st.integers(max(lo, -50), min(hi, 50))
    if tp is str:
        if ref is not None:
            return st.sampled_from(pools[ref])
        values = enumeration(cls, name) if cls is not None else None
        return IDS if values is None else st.sampled_from(values)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    size = 2 if depth == 0 else 1  # (an action's values: small)
    if origin is tuple and args[-1] is Ellipsis:
        if args[0] is Action and depth >= 2:
            return st.just(())
        return st.lists(consistent_for(args[0], pools, cls, name, ref, depth),
                        max_size=size).map(tuple)
    if origin is tuple:
        return st.tuples(*(consistent_for(t, pools, cls, name, ref, depth) for t in args))
    if origin is frozenset:
        return st.frozensets(consistent_for(args[0], pools, cls, name, ref, depth),
                             max_size=size)
    if origin is FrozenMap:
        return st.dictionaries(IDS, consistent_for(args[1], pools, cls, name, ref, depth),
                               max_size=size).map(FrozenMap)
    if isinstance(tp, type) and attrs.has(tp):
        return fields_of(tp, pools, depth).map(lambda kw: tp(**kw))
    raise TypeError(f"no strategy for {tp!r}")


def fields_of(cls: type, pools: Pools, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    """The fields of the attrs class ``cls``, each drawn by
    :func:`consistent_for` (its references of the kind it names)."""
    hints = typing.get_type_hints(cls)
    return st.fixed_dictionaries({
        f.name: consistent_for(hints[f.name], pools, cls, f.name,
                               reference_kind(cls, f.name), depth)
        for f in attrs.fields(cls)})


@functools.cache
def _parts(players: int, objects: int, sources: int, full: bool
           ) -> dict[str, st.SearchStrategy[Any]]:
    """The strategies for the parts of a state with the first ``players``,
    ``objects`` and ``sources`` ids of the pools (made once for each);
    ``full``: each list of the state's holds one item at least."""
    p, o, s = PLAYER_POOL[:players], OBJECT_POOL[:objects], SOURCE_POOL[:sources]
    pools: Pools = FrozenMap({"player": p, "object": o, "source": o + s,
                              "player or object": p + o, "any": p + o + s})

    def with_ids(one: st.SearchStrategy[Any], ids: tuple[str, ...]) -> st.SearchStrategy[Any]:
        """A map of values of ``one``, by ``ids``: each value's id its key."""
        return st.tuples(*(one.map(functools.partial(attrs.evolve, id=i)) for i in ids)).map(
            lambda vs: FrozenMap((v.id, v) for v in vs))

    def unique(cls: type) -> st.SearchStrategy[Any]:  # (ids: 115.1, 603.3b, 611.2)
        return st.lists(consistent_for(cls, pools), min_size=full, max_size=2).map(
            lambda vs: tuple(v for i, v in enumerate(vs)
                             if v.id not in {w.id for w in vs[:i]}))  # (the first of each)

    zones = st.just("battlefield") | st.sampled_from(OBJECT_ZONES)  # (often there)
    permanent = st.tuples(consistent_for(Permanent, pools), zones).map(
        lambda pz: attrs.evolve(pz[0], zone=pz[1]))
    return {
        "pools": st.just(pools),
        "players": with_ids(consistent_for(Player, pools), p),
        "turn_order": st.permutations(p).map(tuple),
        "objects": with_ids(permanent, o),
        "lki": st.lists(st.sampled_from(o), min_size=full, unique=True).flatmap(
            lambda ids: with_ids(consistent_for(Permanent, pools), tuple(ids))),
        "sources": with_ids(consistent_for(StackObject, pools), s),
        "shields": unique(Shield), "effects": unique(Effect), "stack": unique(Trigger),
        "delayed": unique(DelayedTrigger),
        "held": st.lists(consistent_for(Trigger, pools), min_size=1, max_size=2).map(tuple),
        "actions": st.lists(consistent_for(Action, pools), min_size=1, max_size=2).map(
            tuple),
        "rest": fields_of(GameState, pools),
    }


def _teams(draw: st.DrawFn, players: FrozenMap[str, Player], full: bool
           ) -> tuple[FrozenMap[str, Player], FrozenMap[str, tuple[str, ...]]]:
    """Teams of some of ``players``, each on one, sharing the life and
    poison of its first (810.4, 810.10); ``full``: one team at least."""
    members = draw(st.permutations(list(players)))
    cuts = sorted(draw(st.sets(st.integers(1, len(members)), max_size=2)))
    teams: dict[str, tuple[str, ...]] = {}
    for n, (lo, hi) in enumerate(zip([0, *cuts], [*cuts, len(members)], strict=True)):
        if hi > lo and ((full and not teams) or draw(st.booleans())):
            teams[f"team {n}"] = tuple(members[lo:hi])
    shared = dict(players.items())
    for team in teams.values():
        first = shared[team[0]]
        for member in team[1:]:
            shared[member] = attrs.evolve(shared[member], life=first.life,
                                          poison=first.poison)
    return FrozenMap(shared), FrozenMap(teams)


def _combat(draw: st.DrawFn, state: GameState, pools: Pools, full: bool) -> Combat:
    """A combat of ``state`` (without one) that :func:`state_from_dict`
    accepts: creatures on the battlefield attack a player or a permanent
    on it, whose defending player they record (506.2), or nothing (a
    creature put onto the battlefield attacking); others block attacking
    creatures (509.1a); bands are of attacking creatures (702.22c); removed
    creatures neither attack nor block (506.4); the rest names objects.
    ``full`` (every object on the battlefield, four): two attack or more, in
    a band, one blocks and one is removed from combat."""
    players, objects = pools["player"], pools["object"]
    battlefield = [i for i in objects if state.objects[i].zone == "battlefield"]
    if full:
        order = draw(st.permutations(battlefield))
        attackers = order[:draw(st.integers(2, len(order) - 2))]
    else:
        attackers = draw(st.lists(st.sampled_from(battlefield), unique=True)) \
            if battlefield else []
    attacks: dict[str, str | None] = {}
    defending: dict[str, str] = {}
    for attacker in attackers:
        target = draw(st.none() | st.sampled_from([*players, *battlefield]))
        attacks[attacker] = target
        found = None if target is None else state.defending_player_of(target)
        defending[attacker] = found if found is not None else draw(st.sampled_from(players))
    some_objects = st.lists(st.sampled_from(objects), max_size=3)
    for other in draw(some_objects):
        defending.setdefault(other, draw(st.sampled_from(players)))
    declared = {a: draw(st.none() | st.sampled_from(pools["player or object"]))
                for a in [*attackers, *draw(some_objects)]}
    blocks: dict[str, tuple[str, ...]] = {}
    for i, blocker in enumerate(b for b in battlefield if b not in attacks and attackers):
        if i == 0 if full else draw(st.booleans()):  # (full: the others are idle)
            blocks[blocker] = tuple(draw(st.lists(st.sampled_from(attackers), min_size=full,
                                                  max_size=2, unique=True)))
    bands: list[tuple[str, ...]] = []
    rest = draw(st.permutations(attackers))
    while len(rest) > 1 and ((full and not bands) or draw(st.booleans())):
        size = draw(st.integers(2, len(rest)))
        bands.append(tuple(rest[:size]))
        rest = rest[size:]
    idle = [i for i in objects if i not in attacks and i not in blocks]
    removed = draw(st.lists(st.sampled_from(idle), min_size=full, unique=True)) if idle else []
    damage = consistent_for(Damage, pools)
    return Combat(
        attacks=FrozenMap(attacks), blocks=FrozenMap(blocks),
        defending_players=FrozenMap(defending),
        blocked=frozenset(draw(st.lists(st.sampled_from(attackers)))) if attackers else
        frozenset(),
        order=FrozenMap({i: tuple(draw(some_objects)) for i in draw(some_objects)}),
        damage_steps=FrozenMap({step: frozenset(draw(some_objects)) for step in draw(
            st.lists(st.sampled_from(("first_strike_damage", "combat_damage")),
                     unique=True))}),
        dealt=frozenset(draw(some_objects)),
        on_stack=tuple(draw(st.lists(damage, max_size=2))),
        declared=FrozenMap(declared), bands=tuple(bands), removed=frozenset(removed),
        on_stack_objects=draw(st.dictionaries(IDS, st.integers(0, 9), max_size=2).map(
            FrozenMap)),
        entered=frozenset(draw(some_objects)))


#: The ways :func:`consistent_states` draws a state: the steps it stands at,
#: and whether each of its lists holds an item at least ("full"). At any
#: step, whatever it holds; in the untap step, with abilities held (502.4),
#: and everything else; in a combat step, in a full combat (:func:`_combat`)
#: and everything else.
MODES: dict[str, tuple[tuple[str, ...], bool]] = {
    "any": (STEP_NAMES, False), "untap": (("untap",), True),
    "combat": (("declare_blockers", "first_strike_damage", "combat_damage",
                "combat_damage_assigned", "end_of_combat"), True)}


@st.composite
def consistent_states(draw: st.DrawFn, mode: str = "any") -> GameState:
    """A state whose every reference resolves and which is consistent as
    :func:`state_from_dict` checks (its docstring lists the checks): drawn
    field by field from the model, as :data:`STATES`, with its ids from the
    pools, its maps keyed by their values' ids, a turn order of its players,
    teams sharing life and poison, abilities held only in the untap step,
    and a combat in a combat step only; as ``mode`` of :data:`MODES` says."""
    steps, full = MODES[mode]
    combat = full and is_combat_step(steps[0])
    parts = _parts(draw(st.integers(1, len(PLAYER_POOL))),
                   len(OBJECT_POOL) if combat else draw(st.integers(1, len(OBJECT_POOL))),
                   draw(st.integers(int(full), len(SOURCE_POOL))), full)
    pools = draw(parts["pools"])
    players, teams = _teams(draw, draw(parts["players"]), full)
    step = draw(st.sampled_from(steps))
    objects = draw(parts["objects"])
    if combat:
        objects = FrozenMap((i, attrs.evolve(p, zone="battlefield")) for i, p in objects.items())
    stack = draw(parts["stack"])
    if full:  # (a trigger that holds its actions: 603.3, 608.2)
        stack = (attrs.evolve(stack[0], actions=draw(parts["actions"])), *stack[1:])
    state = GameState(**{
        **draw(parts["rest"]), "players": players, "teams": teams,
        "turn_order": draw(parts["turn_order"]), "objects": objects,
        "lki": draw(parts["lki"]), "sources": draw(parts["sources"]), "step": step,
        **{name: draw(parts[name]) for name in ("shields", "effects", "delayed")},
        "stack": stack, "held": draw(parts["held"]) if step == "untap" else (),
        "combat": None})
    if is_combat_step(step):
        state = attrs.evolve(state, combat=_combat(draw, state, pools, combat))
    return state


def _features(state: GameState) -> set[str]:
    """What a consistent state holds, of what a full one holds."""
    combat = state.combat
    found = {name for name in ("stack", "delayed", "lki", "sources", "teams", "held",
                               "shields", "effects") if getattr(state, name)}
    if combat is not None:
        found |= {"combat"} | {f"combat {name}" for name in ("attacks", "blocks", "bands",
                                                             "removed") if getattr(combat, name)}
    if any(t.actions for t in state.stack):
        found.add("actions")
    return found


#: What a full state of each mode holds (:func:`_features`).
FULL: dict[str, set[str]] = {
    "any": set(),
    "untap": {"stack", "actions", "delayed", "lki", "sources", "teams", "held", "shields",
              "effects"},
    "combat": {"stack", "actions", "delayed", "lki", "sources", "teams", "shields", "effects",
               "combat", "combat attacks", "combat blocks", "combat bands", "combat removed"}}


@pytest.mark.parametrize("mode", sorted(MODES))
@settings(max_examples=samples(20, 100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_round_trip_of_any_consistent_state(mode: str, data: st.DataObject) -> None:
    """DESIGN quality bar, through the public path: a state whose references
    resolve and which is consistent is accepted by :func:`state_from_dict`
    (the checks its docstring lists: ids, the turn order, teams 810.4, held
    abilities 502.4, the combat 506.1-4, 509.1a, 702.22c, enumerations and
    bounds) and given back equal, through JSON text, mappings in order. The
    untap and combat modes hold everything their features name (checked on
    each state: held abilities, a full combat with attacks, blocks, bands
    and a creature removed from combat, triggers with actions, delayed
    triggers, shields, effects, last known information, sources, teams),
    so the round trip is run on them."""
    state = data.draw(consistent_states(mode), label="state")
    assert FULL[mode] <= _features(state)
    text = json.dumps(state_to_dict(state))
    back = state_from_dict(json.loads(text))
    assert back == state
    assert list(back.objects) == list(state.objects)
    assert list(back.players) == list(state.players)
    assert list(back.teams) == list(state.teams)
    if state.combat is not None:
        assert back.combat is not None
        assert list(back.combat.attacks) == list(state.combat.attacks)
        assert list(back.combat.blocks) == list(state.combat.blocks)
    assert json.dumps(state_to_dict(back)) == text


#: The production engine, every built-in keyword loaded, and their printed forms.
KEYWORD_ENGINE = Engine()
KEYWORDS = printed_keywords(KEYWORD_ENGINE)


@settings(max_examples=samples(100, 500), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.integers(2, 4).flatmap(
    lambda players: cases(KEYWORD_ENGINE, KEYWORDS, players=players)))
def test_round_trip_of_every_state_of_a_combat_with_keywords(case: Case) -> None:
    """DESIGN quality bar, through the public path: every state a whole
    combat passes through (506-511), then the end step, cleanup and the next
    turn's beginning (513, 514, 500.1), on boards mixing every built-in
    keyword (their triggers, effects, shields, delayed triggers, plugin
    state, last known information), two to four players (802), is accepted
    by :func:`state_from_dict` and given back equal, through JSON text. The
    declaration is made legal (:func:`legalize`) and played with the
    default assignments, which are legal (510.1e): an illegal action there
    is a failure, not a board to skip."""
    legal = legalize(KEYWORD_ENGINE, case)
    assume(legal is not None)
    assert legal is not None
    records = play(KEYWORD_ENGINE, legal)
    assert records
    for record in records:
        for state in (record.before, record.after):
            text = json.dumps(state_to_dict(state))
            back = state_from_dict(json.loads(text))
            assert back == state, record.command
            assert json.dumps(state_to_dict(back)) == text


def test_an_actions_counters_round_trip(bare_engine: Engine) -> None:
    """DESIGN quality bar (the state round-trips), 603.7: a delayed trigger
    that returns a card with a counter (``Move`` with ``counters``, as a
    scenario's delayed action may) is loaded back as it was saved."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    state = state.evolve(delayed=(DelayedTrigger(
        "end_step", "return", "orc", "alice",
        actions=(Move("orc", "battlefield", counters={"+1/+1": 1}),)),))
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_a_spells_damage_held_by_a_trigger_round_trips(bare_engine: Engine) -> None:
    """DESIGN quality bar, 120.2: an action of a delayed trigger dealing
    damage from a spell (``DealDamage`` whose source is the spell, a
    :class:`~redzone.StackObject`) is loaded back as it was saved."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    state = state.evolve(delayed=(DelayedTrigger(
        "end_step", "shock", "orc", "alice",
        actions=(DealDamage(StackObject("shock", "alice", colors=frozenset({"red"})),
                            "bob", 2),)),))
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_a_token_a_delayed_trigger_creates_round_trips(bare_engine: Engine) -> None:
    """DESIGN quality bar, 603.7, 111.1: a delayed trigger holding an action
    that creates a delayed trigger that creates a token (its id new to the
    state, as the state says of a token an action creates) is loaded back
    as it was saved, as the same action held directly is."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    token = creature("goblin", "alice", 1, 1)

    def held(*actions: Action) -> GameState:
        return state.evolve(delayed=(DelayedTrigger("end_step", "k", "orc", "alice",
                                                    actions=actions),))

    direct = held(CreateToken(token))
    assert state_from_dict(json.loads(json.dumps(state_to_dict(direct)))) == direct
    nested = held(CreateDelayedTrigger("end_step", (CreateToken(token),)))
    assert state_from_dict(json.loads(json.dumps(state_to_dict(nested)))) == nested


CARD_ZONES = ("battlefield", "hand", "library", "graveyard", "exile")
MOVES = st.lists(st.tuples(st.integers(0, 5), st.sampled_from(CARD_ZONES),
                           st.sampled_from(("top", "bottom"))), max_size=8)


@settings(max_examples=samples(25, 100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(("alice", "bob")), st.sampled_from(CARD_ZONES)),
                min_size=1, max_size=6), MOVES, st.integers(0, 3))
def test_round_trip_keeps_every_zone_in_order(bare_engine: Engine,
                                              cards: list[tuple[str, str]],
                                              moves: list[tuple[int, str, str]],
                                              draws: int) -> None:
    """Issue item 1: a saved state round-trips with its zones: after any moves
    between zones (400.7) and draws (121.1), each player's hand, library (top
    first) and graveyard (oldest first) and each object's number come back
    as they were."""
    state = bare_engine.game(["alice", "bob"], [
        creature(f"c{i}", owner, 1, 1, zone=zone) for i, (owner, zone) in enumerate(cards)])
    for i, zone, position in moves:
        state = bare_engine.perform(state, Move(f"c{i % len(cards)}", zone,
                                                position=position)).state
    if draws:
        state = bare_engine.perform(state, Draw("alice", draws)).state
    back = state_from_dict(json.loads(json.dumps(state_to_dict(state))))
    assert back == state
    for player in ("alice", "bob"):
        for zone in CARD_ZONES:
            assert back.zone(player, zone) == state.zone(player, zone)
    assert {i: p.object for i, p in back.objects.items()} == \
        {i: p.object for i, p in state.objects.items()}


def test_round_trip_of_a_real_combat(bare_engine: Engine) -> None:
    """A state in the middle of a combat, with shields, effects, counters,
    modifications and last known information, survives the round trip."""
    state = bare_engine.game([Player("alice", life=17), Player("bob", poison=3)], [
        creature("orc", "alice", 2, 2, counters={"+1/+1": 1},
                 modifications=(Modification(power=1, add_keywords=(
                     Keyword("ward", "ward 2", ("2",)),)),)),
        creature("bear", "bob", 2, 2, damage=1),
        creature("wolf", "bob", 3, 3),
        Permanent("jace", "bob", types={"planeswalker"}, counters={"loyalty": 3})],
        effects=[Effect("reduce_damage", to="bear", amount=1)])
    state = bare_engine.declare_attackers(state, {"orc": "bob"}).state
    state = bare_engine.declare_blockers(state, {"bear": "orc", "wolf": "orc"}).state
    state = bare_engine.perform(state, Prevent(target="wolf", amount=2)).state
    state = bare_engine.combat_damage(state).state
    assert state.lki  # something died
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_plain_json_types_only(bare_engine: Engine) -> None:
    """Every value is a dict, list, str, int, bool or None."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    state = bare_engine.declare_attackers(state, {"orc": "bob"}).state

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            assert type(value) is dict
            for k, v in value.items():
                assert type(k) is str
                walk(v)
        elif isinstance(value, list):
            assert type(value) is list
            for v in value:
                walk(v)
        else:
            assert value is None or type(value) in (str, int, bool)

    walk(state_to_dict(state))


def test_frozensets_are_sorted_lists(bare_engine: Engine) -> None:
    """Serialising is deterministic: set-valued fields are sorted."""
    state = bare_engine.game(["alice", "bob"], [
        Permanent("x", "alice", types={"land", "creature", "artifact"}, base_power=1,
                  base_toughness=1)])
    assert state_to_dict(state)["objects"]["x"]["types"] == ["artifact", "creature", "land"]


@pytest.mark.parametrize("change,path", [
    (lambda d: d.update(bogus=1), "bogus"),
    (lambda d: d["objects"]["orc"].update(damage="1"), "objects.orc.damage"),
    (lambda d: d["objects"]["orc"].update(tapped=1), "objects.orc.tapped"),
    (lambda d: d["objects"]["orc"].update(base_power=True), "objects.orc.base_power"),
    (lambda d: d["objects"]["orc"].pop("controller"), "objects.orc.controller"),
    (lambda d: d["objects"]["orc"].update(types="creature"), "objects.orc.types"),
    (lambda d: d["players"]["bob"].update(extra=1), "players.bob.extra"),
    (lambda d: d.update(players=[]), "players"),
    (lambda d: d.update(format=99), "format"),
    (lambda d: d.pop("format"), "format"),
])
def test_strict_decoding_names_the_key(bare_engine: Engine, change: Any, path: str) -> None:
    """A malformed dict is a StateFormatError naming the key path (typos must
    not pass silently)."""
    state = bare_engine.game(["alice", "bob"], [creature("orc", "alice", 2, 2)])
    data = json.loads(json.dumps(state_to_dict(state)))
    change(data)
    with pytest.raises(StateFormatError) as info:
        state_from_dict(data)
    assert info.value.path == path
    assert str(info.value).startswith(path)
    assert isinstance(info.value, ValueError)


def test_defaults_may_be_left_out() -> None:
    """Fields with defaults may be missing from a hand-written dict."""
    state = state_from_dict({"format": FORMAT, "players": {"a": {"id": "a"}, "b": {"id": "b"}},
                             "turn_order": ["a", "b"], "active_player": "a"})
    assert state == GameState(players={"a": Player("a"), "b": Player("b")},
                              turn_order=("a", "b"), active_player="a")
    with pytest.raises(StateFormatError):
        state_from_dict([])  # type: ignore[arg-type]
