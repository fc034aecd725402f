"""Every legal declaration of attackers and of blockers, enumerated (508.1, 509.1).

For search (an AI choosing attacks or blocks, a what-if study), the legal
declarations are generated rather than guessed and checked one by one:

- :func:`legal_attacks` yields every declaration of attackers that breaks no
  restriction (508.1a-c) and obeys as many requirements as possible (508.1d);
- :func:`legal_blocks` yields every declaration of blockers that breaks no
  restriction (509.1a-b) and obeys as many requirements as possible (509.1c);
- :func:`count_legal_attacks`, :func:`count_legal_blocks` count them;
- :func:`is_legal_attack`, :func:`is_legal_block` are boolean predicates.

A declaration is legal exactly when the engine's own check
(:func:`~redzone.kernel.combat.attack_violations`,
:func:`~redzone.kernel.combat.block_violations`) finds no violation: the
generators use the same pair-by-pair checks, the same whole-declaration hooks
(``redzone_blocked_by_violations``, ``redzone_block_declaration_violations``,
``redzone_attack_declaration_violations``) and the same maximum of obeyed
requirements (:mod:`redzone.kernel.requirements`), computed once per board
instead of once per declaration.

A declaration a generator yields for a state may be declared on that very
state without its check, by the unchecked entry points
(:meth:`redzone.Engine.declare_attackers` and
:meth:`~redzone.Engine.declare_blockers` with ``checked=False``): the caller
vouches for it, as python-chess's ``push`` trusts a move that ``push_san``
would parse and check. Enumerate attacks on the state of the beginning of
combat step (:meth:`~redzone.Engine.begin_combat`): from a main phase state,
declaring attackers begins combat first, which makes a new state (and a
beginning-of-combat trigger could change what is legal), so the declaration
is checked as usual even then.

Bands (508.1e) are not enumerated: each declaration of attackers is yielded
without bands. Damage assignment orders (509.2-509.3 of 2009-2024) are not
enumerated either: the default order is declaration order.

Order: creatures in the order of ``state.objects``; for each, first "does not
attack / block", then each single choice in order (what it attacks in the
order of :func:`~redzone.kernel.combat.attackable`; the attackers in
declaration order), then pairs, triples... for creatures that can block
several attackers. The first declaration yielded is the empty one whenever it
is legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeVar

from redzone.kernel import combat as _combat
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.model import GameState
from redzone.kernel.plugins import Hooks
from redzone.kernel.requirements import Requirement

AttackDeclaration = FrozenMap[str, str]
"""A declaration of attackers: attacking creature -> what it attacks."""

#: One creature's choice in a declaration (what it attacks, what it blocks, or ``None``).
_O = TypeVar("_O")

BlockDeclaration = FrozenMap[str, tuple[str, ...]]
"""A declaration of blockers: blocking creature -> the attackers it blocks
(only creatures that block appear)."""


# ---------------------------------------------------------------------------
# 508.1: attacks
# ---------------------------------------------------------------------------


def attack_options(hooks: Hooks, state: GameState) -> dict[str, tuple[str, ...]]:
    """Each creature that could attack on its own -> what it could attack,
    pair by pair (508.1a-c, restrictions on the whole declaration aside)."""
    return {c: tuple(ts) for c, ts in _combat.attack_candidates(hooks, state).items()}


#: The steps a declaration of attackers may be made from: a main phase
#: (the combat begins: 506.1) and the beginning of combat step.
_BEFORE_ATTACKS = frozenset({"main", "postcombat_main", "beginning_of_combat"})


def attacks_now(state: GameState) -> bool:
    """Whether attackers can be declared from ``state`` (506.1, 508.1): it is
    at a main phase or the beginning of combat step, the game goes on and no
    ability waits on the stack (500.2).

    Rules: 500.2, 506.1, 508.1"""
    return state.step in _BEFORE_ATTACKS and state.game_over is None and not state.stack


def blocks_now(state: GameState) -> bool:
    """Whether blockers can be declared from ``state`` (506.1, 509.1): it is
    at the declare attackers step and a creature was declared as an attacker
    or put onto the battlefield attacking (508.8: one removed from combat
    since still leaves the step to happen), the game goes on and no ability
    waits on the stack (500.2).

    Rules: 500.2, 506.1, 508.8, 509.1"""
    combat = state.combat
    return (state.step == "declare_attackers" and combat is not None
            and bool(combat.declared._items) and state.game_over is None and not state.stack)


def legal_attacks(hooks: Hooks, state: GameState) -> Iterator[AttackDeclaration]:
    """Every legal declaration of attackers (508.1a-d), each once, in the
    module's order (see the module); none when attackers can't be declared
    now (:func:`attacks_now`)."""
    if not attacks_now(state):
        return
    candidates = _combat.attack_candidates(hooks, state)
    options = {c: tuple(ts) for c, ts in candidates.items()}
    creatures = list(options)
    whole = hooks.implemented("redzone_attack_declaration_violations")
    check = _combat.attack_requirement_check(hooks, state, {}, candidates)
    reqs = check.requirements if check is not None else ()
    best = check.best if check is not None else 0
    choices: list[Sequence[str | None]] = [(None, *options[c]) for c in creatures]
    for combo in _obeying(creatures, choices, reqs, best):
        decl = FrozenMap((c, t) for c, t in zip(creatures, combo, strict=True) if t is not None)
        if whole and hooks.attack_declaration_violations(state, decl):
            continue
        if reqs and sum(1 for r in reqs if r.obeyed_by(decl, None)) < best:
            continue
        yield decl


def count_legal_attacks(hooks: Hooks, state: GameState) -> int:
    """How many legal declarations of attackers there are (508.1)."""
    return sum(1 for _ in legal_attacks(hooks, state))


def is_legal_attack(hooks: Hooks, state: GameState, attacks: Mapping[str, str]) -> bool:
    """Whether a declaration of attackers is legal (508.1a-d); ``False`` when
    attackers can't be declared now (:func:`attacks_now`)."""
    return attacks_now(state) and not _combat.attack_violations(hooks, state, dict(attacks))


# ---------------------------------------------------------------------------
# 509.1: blocks
# ---------------------------------------------------------------------------


def block_options(hooks: Hooks, state: GameState,
                  candidates: dict[str, list[str]] | None = None
                  ) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each creature that could block -> every nonempty group of attackers it
    could block at once: each pair legal on its own (509.1a-b) and no more
    than it can block (509.1a); restrictions on the whole declaration aside.

    :param candidates: :func:`~redzone.kernel.combat.block_candidates`, when
        the caller has them."""
    if candidates is None:
        candidates = _combat.block_candidates(hooks, state)
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for blocker, ok in candidates.items():
        cap = min(_combat.capacity(hooks, state, blocker), len(ok))
        out[blocker] = tuple(g for n in range(1, cap + 1) for g in itertools.combinations(ok, n))
    return out


def legal_blocks(hooks: Hooks, state: GameState) -> Iterator[BlockDeclaration]:
    """Every legal declaration of blockers (509.1a-c), each once, in the
    module's order (see the module); none when blockers can't be declared
    now (:func:`blocks_now`)."""
    if not blocks_now(state):
        return
    candidates = _combat.block_candidates(hooks, state)
    options = block_options(hooks, state, candidates)
    creatures = list(options)
    by_attacker = hooks.implemented("redzone_blocked_by_violations")
    whole = hooks.implemented("redzone_block_declaration_violations")
    check = _combat.block_requirement_check(hooks, state, {}, candidates)
    reqs = check.requirements if check is not None else ()
    best = check.best if check is not None else 0
    # The restrictions on an attacker's blockers together (702.111b) depend only
    # on the attacker and its blockers: asked once per group, not per declaration.
    groups: dict[tuple[str, tuple[str, ...]], bool] = {}
    choices: list[Sequence[tuple[str, ...] | None]] = [(None, *options[c]) for c in creatures]
    for combo in _obeying(creatures, choices, reqs, best):
        pairs = [(c, g) for c, g in zip(creatures, combo, strict=True) if g is not None]
        if by_attacker:
            ok = True
            for a, bs in _combat.blockers_by_attacker(pairs).items():
                key = (a, tuple(bs))
                good = groups.get(key)
                if good is None:
                    # (with the creatures blocking it before the declaration, 509.4)
                    good = groups[key] = not hooks.blocked_by_violations(
                        state, a, (*_combat.existing_blockers(state, a), *key[1]))
                if not good:
                    ok = False
                    break
            if not ok:
                continue
        decl = FrozenMap(pairs)
        if whole and hooks.block_declaration_violations(state, decl):
            continue
        if reqs and sum(1 for r in reqs if r.obeyed_by(None, decl)) < best:
            continue
        yield decl


def _own(req: Requirement, creature: str, option: object) -> bool:
    """Whether ``creature`` taking ``option`` (what it attacks, the attackers
    it blocks, ``None``) obeys ``req``, a requirement of its own."""
    if option is None:
        return False
    if req.kind == "block_attacker":
        return isinstance(option, tuple) and req.attacker in option
    return True  # ("attack" and "block": it attacks, it blocks)


def _obeying(creatures: Sequence[str], choices: Sequence[Sequence[_O]],
             reqs: Sequence[Requirement], best: int) -> Iterator[tuple[_O, ...]]:
    """The combinations of ``choices`` (one per creature, in
    :func:`itertools.product`'s order) that may obey ``best`` of ``reqs``
    (508.1d, 509.1c): a branch in which even every creature still to choose
    taking its most obedient choice, and every attacker that may still be
    blocked being blocked, obeys fewer is left out whole. Without that, a
    board whose requirements leave one legal declaration yields it after
    every other combination (n creatures that attack if able: 2 to the n).
    The caller still counts each combination's requirements exactly."""
    if not reqs or best <= 0:
        yield from itertools.product(*choices)
        return
    n = len(creatures)
    index = {c: i for i, c in enumerate(creatures)}
    owned: list[list[Requirement]] = [[] for _ in range(n)]
    wanted: dict[str, int] = {}  # be_blocked: how many requirements on each attacker
    for r in reqs:
        if r.kind == "be_blocked":
            wanted[r.creature] = wanted.get(r.creature, 0) + 1
        elif r.creature in index:
            owned[index[r.creature]].append(r)
    # what each choice obeys of its creature's own, and the most it can obey
    gain = [[sum(1 for r in owned[i] if _own(r, creatures[i], o)) for o in choices[i]]
            for i in range(n)]
    most = [0] * (n + 1)
    cover: list[frozenset[str]] = [frozenset()] * (n + 1)
    for i in range(n - 1, -1, -1):
        most[i] = most[i + 1] + max(gain[i], default=0)
        cover[i] = cover[i + 1] | {a for o in choices[i] if isinstance(o, tuple) for a in o}
    blocked = dict.fromkeys(wanted, 0)

    def attainable(i: int, score: int) -> bool:
        more = sum(w for a, w in wanted.items() if not blocked[a] and a in cover[i])
        return score + sum(w for a, w in wanted.items() if blocked[a]) + most[i] + more >= best

    picked = [0] * n
    scores = [0] * (n + 1)
    i = 0
    if not attainable(0, 0):
        return
    while i >= 0:
        if i == n:
            yield tuple(choices[k][picked[k]] for k in range(n))
            i -= 1
            if i >= 0:
                _unblock(blocked, choices[i][picked[i]])
                picked[i] += 1
            continue
        k = picked[i]
        if k == len(choices[i]):
            picked[i] = 0
            i -= 1
            if i >= 0:
                _unblock(blocked, choices[i][picked[i]])
                picked[i] += 1
            continue
        option = choices[i][k]
        if isinstance(option, tuple):
            for a in option:
                if a in blocked:
                    blocked[a] += 1
        scores[i + 1] = scores[i] + gain[i][k]
        if attainable(i + 1, scores[i + 1]):
            i += 1
        else:
            _unblock(blocked, option)
            picked[i] += 1


def _unblock(blocked: dict[str, int], option: object) -> None:
    """Take back what ``option`` (a group of attackers blocked) added to ``blocked``."""
    if isinstance(option, tuple):
        for a in option:
            if a in blocked:
                blocked[a] -= 1


def count_legal_blocks(hooks: Hooks, state: GameState) -> int:
    """How many legal declarations of blockers there are (509.1)."""
    return sum(1 for _ in legal_blocks(hooks, state))


def is_legal_block(hooks: Hooks, state: GameState,
                   blocks: Mapping[str, str | Sequence[str]]) -> bool:
    """Whether a declaration of blockers is legal (509.1a-c); ``False`` when
    blockers can't be declared now (:func:`blocks_now`)."""
    if not blocks_now(state):
        return False
    norm = {b: a for b, a in _combat.normalise_blocks(blocks).items() if a}
    return not _combat.block_violations(hooks, state, norm)


__all__ = [
    "AttackDeclaration",
    "BlockDeclaration",
    "attack_options",
    "attacks_now",
    "block_options",
    "blocks_now",
    "count_legal_attacks",
    "count_legal_blocks",
    "is_legal_attack",
    "is_legal_block",
    "legal_attacks",
    "legal_blocks",
]
