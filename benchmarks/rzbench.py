"""Boards and combat drivers shared by the benchmark suites and ``slope.py``.

Everything here goes through the public API only (:class:`redzone.Engine`), so
the figures are what an embedding engine gets. "Combat only" means what the
reference figures of the performance issue measure: declare attackers (which
begins combat from the main phase), declare blockers, and every combat damage
step with the engine's default assignment policy, each step followed by its
state-based actions. The end of combat step is not included.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from redzone import Engine, GameState, Permanent, RulesError

ALICE = "alice"  # the attacking (active) player
BOB = "bob"  # the defending player

#: Board sizes of the scaling suites (creatures per side).
SIZES: tuple[int, ...] = (10, 25, 50, 100, 200, 400)


@dataclass(frozen=True)
class Board:
    """A combat to run: a state before combat and its declarations."""

    state: GameState
    attacks: dict[str, str]
    blocks: dict[str, tuple[str, ...]]
    per_side: int = 0
    label: str = ""
    notes: dict[str, Any] = field(default_factory=dict)


def fight(engine: Engine, state: GameState, attacks: Mapping[str, str],
          blocks: Mapping[str, Sequence[str]]) -> GameState:
    """Declare attackers, declare blockers, then every combat damage step.

    :returns: the state after the last combat damage step (and its
        state-based actions).
    """
    st = engine.declare_attackers(state, attacks).state
    if engine.next_step(st) != "declare_blockers":
        return st
    st = engine.declare_blockers(st, blocks).state
    damage_steps = ("first_strike_damage", "combat_damage")
    nxt = engine.next_step(st)
    while nxt is not None and nxt in damage_steps:
        st = engine.combat_damage(st).state
        nxt = engine.next_step(st)
    return st


def run(engine: Engine, board: Board) -> GameState:
    """:func:`fight` on a :class:`Board`."""
    return fight(engine, board.state, board.attacks, board.blocks)


def after_blocks(engine: Engine, board: Board) -> GameState:
    """The board's state right after blockers were declared (before damage)."""
    st = engine.declare_attackers(board.state, board.attacks).state
    return engine.declare_blockers(st, board.blocks).state


def after_attacks(engine: Engine, board: Board) -> GameState:
    """The board's state right after attackers were declared."""
    return engine.declare_attackers(board.state, board.attacks).state


def creature(engine: Engine, id: str, controller: str, power: int, toughness: int,
             *keywords: str, **kwargs: Any) -> Permanent:
    """A creature parsed by ``engine`` (keywords must be known to it)."""
    return engine.creature(id, controller, power, toughness, *keywords, **kwargs)


def game(engine: Engine, permanents: Iterable[Permanent]) -> GameState:
    """A two-player state before combat, ``alice`` active."""
    return engine.game([ALICE, BOB], list(permanents))


# ---------------------------------------------------------------------------
# Plain boards: N 2/2s attack, each blocked by one 2/2 (everything dies)
# ---------------------------------------------------------------------------


def vanilla(engine: Engine, n: int, *, power: int = 2, toughness: int = 2) -> Board:
    """``n`` vanilla 2/2 attackers, each blocked by its own vanilla 2/2."""
    perms = [creature(engine, f"a{i}", ALICE, power, toughness) for i in range(n)]
    perms += [creature(engine, f"b{i}", BOB, power, toughness) for i in range(n)]
    return Board(
        game(engine, perms),
        {f"a{i}": BOB for i in range(n)},
        {f"b{i}": (f"a{i}",) for i in range(n)},
        per_side=n,
        label=f"vanilla {n}v{n}",
    )


def simple(engine: Engine) -> Board:
    """The simple combat of the reference figures: a 2/2 blocked by a 2/2."""
    return vanilla(engine, 1)


# ---------------------------------------------------------------------------
# Keyword scenarios: one small legal combat per built-in keyword
# ---------------------------------------------------------------------------

Spec = tuple[int, int, tuple[str, ...], dict[str, Any]]
"""(power, toughness, keywords as printed, extra Permanent fields) of one creature."""


@dataclass(frozen=True)
class Unit:
    """A group of attackers and blockers and who blocks whom (by index);
    ``lands`` are land subtypes the defending player controls."""

    attackers: tuple[Spec, ...]
    blockers: tuple[Spec, ...]
    blocks: tuple[tuple[int, tuple[int, ...]], ...]  # blocker index -> attacker indexes
    lands: tuple[str, ...] = ()

    def keywords(self) -> set[str]:
        """Every keyword text the unit prints."""
        return {k for _p, _t, kws, _x in (*self.attackers, *self.blockers) for k in kws}


def _c(power: int, toughness: int, *keywords: str, **extra: Any) -> Spec:
    return (power, toughness, keywords, extra)


def _pair(att: Spec, blk: Spec) -> Unit:
    return Unit((att,), (blk,), ((0, (0,)),))


def _unblocked(att: Spec, *, lands: tuple[str, ...] = ()) -> Unit:
    """``att`` attacks alongside a 2/2 that its 2/2 blocker blocks; ``att``
    itself is unblocked."""
    return Unit((att, _c(2, 2)), (_c(2, 2),), ((0, (1,)),), lands)


_VANILLA = _c(2, 2)
_RED = {"colors": ("red",)}
_BLACK = {"colors": ("black",)}

#: A combat in which each built-in keyword does its work (and is legal under
#: the full rules, so it stays valid as the keyword plugins are completed).
#: Keywords not listed get a generic scenario (see :func:`unit_for`).
KEYWORD_UNITS: dict[str, Unit] = {
    "afflict": _pair(_c(3, 3, "afflict 2"), _c(2, 2)),
    "annihilator": Unit((_c(3, 3, "annihilator 1"),), (_c(2, 2), _c(2, 2)), ()),
    "battle cry": Unit((_c(2, 2, "battle cry"), _c(2, 2)), (_c(2, 2), _c(3, 3)),
                       ((0, (0,)), (1, (1,)))),
    "bushido": _pair(_c(2, 2, "bushido 1"), _c(3, 3)),
    "deathtouch": _pair(_c(1, 1, "deathtouch"), _c(4, 4)),
    "defender": _pair(_VANILLA, _c(0, 4, "defender")),
    "dethrone": _pair(_c(2, 2, "dethrone"), _c(3, 3)),
    "double strike": _pair(_c(2, 2, "double strike"), _c(3, 3)),
    "exalted": Unit((_c(2, 2, "exalted"),), (_c(2, 2),), ((0, (0,)),)),
    "fear": _pair(_c(2, 2, "fear"), _c(2, 2, **_BLACK)),
    "first strike": _pair(_c(2, 2, "first strike"), _VANILLA),
    "flanking": _pair(_c(2, 2, "flanking"), _c(2, 3)),
    "flying": _pair(_c(2, 2, "flying"), _c(2, 2, "flying")),
    "frenzy": _unblocked(_c(2, 2, "frenzy 2")),
    "haste": _pair(_c(2, 2, "haste", summoning_sick=True), _VANILLA),
    "horsemanship": _pair(_c(2, 2, "horsemanship"), _c(2, 2, "horsemanship")),
    "indestructible": _pair(_c(2, 2, "indestructible"), _c(4, 4)),
    "infect": _pair(_c(2, 2, "infect"), _c(2, 3)),
    "intimidate": _pair(_c(2, 2, "intimidate", **_RED), _c(2, 2, **_RED)),
    "landwalk": _unblocked(_c(2, 2, "swampwalk"), lands=("Swamp",)),
    "lifelink": _pair(_c(2, 2, "lifelink"), _VANILLA),
    "melee": _pair(_c(2, 2, "melee"), _c(3, 3)),
    "menace": Unit((_c(3, 3, "menace"),), (_VANILLA, _VANILLA), ((0, (0,)), (1, (0,)))),
    "protection": _pair(_c(2, 2, **_RED), _c(2, 2, "protection from red")),
    "rampage": Unit((_c(3, 3, "rampage 1"),), (_VANILLA, _VANILLA), ((0, (0,)), (1, (0,)))),
    "reach": _pair(_c(2, 2, "flying"), _c(2, 2, "reach")),
    "shadow": _pair(_c(2, 2, "shadow"), _c(2, 2, "shadow")),
    "skulk": _pair(_c(2, 2, "skulk"), _c(1, 1)),
    "toxic": _unblocked(_c(2, 2, "toxic 2")),
    "training": Unit((_c(1, 1, "training"), _c(3, 3)), (_VANILLA, _VANILLA),
                     ((0, (0,)), (1, (1,)))),
    "trample": _pair(_c(5, 5, "trample"), _VANILLA),
    "trample over planeswalkers": _pair(_c(5, 5, "trample over planeswalkers"), _VANILLA),
    "vigilance": _pair(_c(2, 2, "vigilance"), _VANILLA),
    "wither": _pair(_c(2, 2, "wither"), _c(3, 3)),
}

#: The units cycled through to build mixed-keyword boards of any size (units
#: whose keywords the engine doesn't know are left out); every declaration is
#: legal, and each unit keeps its meaning when repeated.
MIXED_UNITS: tuple[Unit, ...] = (
    _pair(_c(2, 2, "flying"), _c(2, 2, "reach")),
    _pair(_c(2, 2, "first strike"), _VANILLA),
    _pair(_c(1, 1, "deathtouch"), _c(3, 3, "first strike")),
    _pair(_c(4, 4, "trample"), _c(2, 2, "lifelink")),
    _pair(_c(2, 2, "double strike"), _c(2, 2, "deathtouch")),
    _pair(_c(2, 2, "lifelink", "vigilance"), _c(2, 3, "wither")),
    _pair(_c(2, 2, "infect"), _c(2, 2, "indestructible")),
    _pair(_c(2, 2, "haste", summoning_sick=True), _c(0, 4, "defender")),
    _pair(_c(2, 2, **_RED), _c(2, 2, "protection from red")),
    Unit((_c(3, 3, "menace"), _VANILLA), (_c(2, 2, "flying"), _VANILLA), ((0, (0,)), (1, (0,)))),
    _pair(_c(3, 3, "afflict 1"), _VANILLA),
    _pair(_c(2, 2, "bushido 1"), _c(3, 3)),
    _pair(_c(2, 2, "flanking"), _c(2, 3)),
    _pair(_c(2, 2, "fear"), _c(2, 2, **_BLACK)),
    _pair(_c(2, 2, "horsemanship"), _c(2, 2, "horsemanship")),
    _pair(_c(2, 2, "shadow"), _c(2, 2, "shadow")),
    _pair(_c(2, 2, "intimidate", **_RED), _c(2, 2, **_RED)),
    _pair(_c(2, 2, "skulk"), _c(1, 1)),
    _pair(_c(2, 2, "toxic 1"), _VANILLA),
    _pair(_c(2, 2, "melee"), _c(3, 3)),
    _pair(_c(3, 3), _VANILLA),
)

_FILLER = _pair(_VANILLA, _VANILLA)


def _known(engine: Engine) -> set[str]:
    return {k.spec.name for k in engine.keywords()}


def keyword_names(engine: Engine) -> list[str]:
    """Every keyword ``engine`` knows, sorted (scenario or not)."""
    return sorted(_known(engine))


def keyword_text(engine: Engine, name: str) -> str:
    """How keyword ``name`` is printed: its first example, else its name."""
    for info in engine.keywords():
        if info.spec.name == name and info.spec.examples:
            return info.spec.examples[0]
    return name


def unit_for(name: str, text: str | None = None) -> Unit:
    """The scenario for keyword ``name``; a generic one for a keyword this
    module does not know: a 3/3 with it (printed as ``text``) blocked by a 2/2."""
    return KEYWORD_UNITS.get(name) or _pair(_c(3, 3, text or name), _VANILLA)


def _parses(engine: Engine, unit: Unit) -> bool:
    try:
        for text in unit.keywords():
            engine.keyword(text)
    except RulesError:
        return False
    return True


def from_units(engine: Engine, units: Iterable[Unit], *, label: str = "",
               per_side: int | None = None) -> Board:
    """A board from units; with ``per_side``, units are cycled until each
    side has that many creatures (a unit that doesn't fit whole is replaced by
    vanilla 2/2s)."""
    perms: list[Permanent] = []
    attacks: dict[str, str] = {}
    blocks: dict[str, tuple[str, ...]] = {}
    lands: set[str] = set()
    source = list(units)
    cap = per_side if per_side is not None else 1 << 30
    na = nb = 0
    for i in itertools.count():
        if per_side is None and i >= len(source):
            break
        if na >= cap and nb >= cap:
            break
        unit = source[i % len(source)]
        if na + len(unit.attackers) > cap or nb + len(unit.blockers) > cap:
            unit = _FILLER  # a unit that doesn't fit whole would change its rules
        lands.update(unit.lands)
        aids: list[str] = []
        for p, t, kws, extra in unit.attackers:
            aid = f"a{na}"
            na += 1
            perms.append(creature(engine, aid, ALICE, p, t, *kws, **extra))
            attacks[aid] = BOB
            aids.append(aid)
        targets = dict(unit.blocks)
        for j, (p, t, kws, extra) in enumerate(unit.blockers):
            bid = f"b{nb}"
            nb += 1
            perms.append(creature(engine, bid, BOB, p, t, *kws, **extra))
            chosen = tuple(aids[k] for k in targets.get(j, ()))
            if chosen:
                blocks[bid] = chosen
    for subtype in sorted(lands):
        perms.append(engine.permanent(f"land-{subtype.lower()}", BOB, types=("land",),
                                      subtypes=(subtype,)))
    return Board(game(engine, perms), attacks, blocks, per_side=per_side or na,
                 label=label)


def keyword_board(engine: Engine, name: str) -> Board:
    """The small combat in which keyword ``name`` does its work."""
    return from_units(engine, [unit_for(name, keyword_text(engine, name))], label=name)


def mixed_units(engine: Engine) -> list[Unit]:
    """The mixed-keyword units whose keywords ``engine`` knows."""
    return [u for u in MIXED_UNITS if _parses(engine, u)]


def mixed(engine: Engine, n: int) -> Board:
    """``n`` creatures per side with every built-in keyword of
    :data:`MIXED_UNITS` the engine knows in the mix."""
    return from_units(engine, mixed_units(engine), label=f"mixed {n}v{n}", per_side=n)


def gang_block(engine: Engine, blockers: int, *, keywords: tuple[str, ...] = ()) -> Board:
    """One attacker with power ``3 * blockers`` blocked by ``blockers`` 2/2s,
    for the assignment policy and assignment checks."""
    perms = [creature(engine, "a0", ALICE, 3 * blockers, 3 * blockers, *keywords)]
    perms += [creature(engine, f"b{i}", BOB, 2, 2) for i in range(blockers)]
    return Board(game(engine, perms), {"a0": BOB},
                 {f"b{i}": ("a0",) for i in range(blockers)}, per_side=blockers,
                 label=f"{blockers} blockers on one attacker")


def illegal_blocks(engine: Engine, n: int) -> Board:
    """``n`` flying attackers, each "blocked" by a vanilla 2/2: every pair
    breaks 702.9b (the rejected-declaration path, every message built)."""
    perms = [creature(engine, f"a{i}", ALICE, 2, 2, "flying") for i in range(n)]
    perms += [creature(engine, f"b{i}", BOB, 2, 2) for i in range(n)]
    return Board(game(engine, perms), {f"a{i}": BOB for i in range(n)},
                 {f"b{i}": (f"a{i}",) for i in range(n)}, per_side=n,
                 label=f"illegal {n}v{n}")


# ---------------------------------------------------------------------------
# Plain timing (for slope.py and quick checks; pytest-benchmark does its own)
# ---------------------------------------------------------------------------


def median_seconds(fn: Callable[[], object], *, rounds: int = 15, min_time: float = 0.2,
                   warmup: int = 2) -> float:
    """Median CPU time of ``fn()`` (``time.process_time``: this process's
    CPU, not wall time, which other work on a shared machine inflates) over
    at least ``rounds`` rounds and at least ``min_time`` CPU seconds."""
    for _ in range(warmup):
        fn()
    clock = time.process_time
    times: list[float] = []
    start = clock()
    while len(times) < rounds or clock() - start < min_time:
        t0 = clock()
        fn()
        times.append(clock() - t0)
        if len(times) >= 10 * rounds and clock() - start >= min_time:
            break
    return statistics.median(times)


def loglog_slope(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of log(y) against log(x)."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx = sum(xs) / len(xs)
    my = sum(ys) / len(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    den = sum((x - mx) ** 2 for x in xs)
    return num / den
