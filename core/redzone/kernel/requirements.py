"""Requirements on declarations of attackers and blockers (508.1d, 509.1c).

A declaration is legal only if it obeys every restriction and, without
breaking one, as many requirements as possible. Restrictions are the
violation hooks; requirements come from ``redzone_attack_requirements`` and
``redzone_block_requirements`` as :class:`Requirement` values.

The maximum is found by a search over the declarations that obey every
restriction, the creatures with requirements first and the choices that obey
a creature's own requirements first (the most attackers first), in passes
that depart from those first choices for one creature, then two, and so on
(a limited discrepancy search), so that the best declaration is usually met
within the first few leaves even when it needs a creature without
requirements to help (a second blocker for a creature with menace). A
creature that can block several attackers is tried with every number of
them it can block. The search always terminates: it
visits at most :data:`SEARCH_BUDGET` complete declarations. On boards so large
that the budget runs out before the search is complete, the best declaration
found so far stands as the maximum (the proposed one included), so a
declaration is never rejected for missing a requirement that no declaration
found could meet; :class:`RequirementCheck` says whether the search was
complete.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from attrs import field

from redzone.kernel.errors import Violation
from redzone.kernel.frozen import as_tuple, lazy_frozen

#: The most complete declarations one check visits.
SEARCH_BUDGET: Final = 20_000



@lazy_frozen
class Requirement:
    """Something a creature must do in a declaration if able.

    :param kind: ``"attack"`` (the creature attacks, 508.1d), ``"block"`` (it
        blocks, 509.1c), ``"block_attacker"`` (it blocks ``attacker``: provoke,
        Lure) or ``"be_blocked"`` (the attacking ``creature`` is blocked by at
        least one creature).
    :param creature: the creature the requirement is about.
    :param rule: the rule or ability that imposes it.
    :param attacker: the attacker to block, for ``block_attacker``.
    :param source: what imposes it, for explanations.
    :param instance: what sets it apart from an equal requirement the rules
        count separately (the id of the effect imposing it): requirements
        equal in every field count once, so two provoke effects on one
        creature, each an ``instance`` of its own, count twice (509.1c).

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.1.0 ``instance``.
    """

    kind: str
    creature: str
    rule: str
    attacker: str | None = None
    source: str = ""
    instance: str = ""

    def obeyed_by(self, attacks: Mapping[str, str] | None,
                  blocks: Mapping[str, tuple[str, ...]] | None) -> bool:
        """Whether a declaration obeys it."""
        if self.kind == "attack":
            return attacks is not None and self.creature in attacks
        blocks = blocks or {}
        if self.kind == "block":
            return bool(blocks.get(self.creature))
        if self.kind == "block_attacker":
            return self.attacker in blocks.get(self.creature, ())
        if self.kind == "be_blocked":
            return any(self.creature in atts for atts in blocks.values())
        raise ValueError(f"unknown requirement kind {self.kind!r}")

    def describe(self) -> str:
        """The requirement in words."""
        by = f" ({self.source})" if self.source else ""
        if self.kind == "attack":
            return f"{self.creature} attacks if able{by}"
        if self.kind == "block":
            return f"{self.creature} blocks if able{by}"
        if self.kind == "block_attacker":
            return f"{self.creature} blocks {self.attacker} if able{by}"
        return f"{self.creature} is blocked if able{by}"


@lazy_frozen
class RequirementCheck:
    """The outcome of checking a declaration's requirements.

    :param requirements: every requirement that applies.
    :param obeyed: how many the declaration obeys.
    :param best: the most a legal declaration was found to obey.
    :param example: such a declaration.
    :param complete: whether the search saw every declaration.
    """

    requirements: tuple[Requirement, ...] = field(converter=as_tuple)
    obeyed: int
    best: int
    example: Mapping[str, object]
    complete: bool

    def violations(self, rule: str, declared: Mapping[str, object]) -> list[Violation]:
        """The violation, if the declaration obeys fewer than it could."""
        if self.obeyed >= self.best:
            return []
        missed = [r for r in self.requirements
                  if r.obeyed_by(*_as_decl(rule, self.example))
                  and not r.obeyed_by(*_as_decl(rule, declared))]
        example = ", ".join(f"{k} -> {_show(v)}" for k, v in self.example.items()) or "none"
        objects = sorted({r.creature for r in missed} | {r.attacker for r in missed
                                                          if r.attacker})
        return [Violation(
            rule,
            f"the declaration obeys {self.obeyed} of {len(self.requirements)} requirements, "
            f"but {self.best} can be obeyed without breaking a restriction; not obeyed: "
            f"{'; '.join(r.describe() for r in missed)}; for example: {example}",
            objects)]


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return "+".join(str(v) for v in value)
    return str(value)


def _as_decl(rule: str, decl: Mapping[str, object]
             ) -> tuple[Mapping[str, str] | None, Mapping[str, tuple[str, ...]] | None]:
    if rule.startswith("508"):
        return {k: str(v) for k, v in decl.items()}, None
    return None, {k: v if isinstance(v, tuple) else (str(v),) for k, v in decl.items()}


def _count(reqs: Sequence[Requirement], attacks: Mapping[str, str] | None,
           blocks: Mapping[str, tuple[str, ...]] | None) -> int:
    return sum(1 for r in reqs if r.obeyed_by(attacks, blocks))


def _search(
    creatures: Sequence[str],
    options: Mapping[str, Sequence[object]],
    score: Callable[[dict[str, object]], int | None],
    ceiling: int,
    start: tuple[int, dict[str, object]],
) -> tuple[int, dict[str, object], bool]:
    """Search for the declaration with the best score (``None``: illegal),
    stopping at ``ceiling`` or after :data:`SEARCH_BUDGET` leaves. Each
    creature's ``options`` come in order of preference; pass ``k`` visits
    the declarations that take another than the first for exactly ``k``
    creatures (a limited discrepancy search: every declaration once, those
    closest to the preferred one first)."""
    best, best_decl = start
    leaves = 0
    complete = True
    count = len(creatures)

    def walk(i: int, chosen: dict[str, object], left: int) -> None:
        nonlocal best, best_decl, leaves, complete
        if best >= ceiling or count - i < left:
            return
        if leaves >= SEARCH_BUDGET:
            complete = False
            return
        if i == count:
            leaves += 1
            value = score(chosen)
            if value is not None and value > best:
                best, best_decl = value, dict(chosen)
            return
        creature = creatures[i]
        for j, option in enumerate(options[creature]):
            spend = 1 if j else 0
            if spend > left:
                break
            if option is None:
                walk(i + 1, chosen, left - spend)
            else:
                chosen[creature] = option
                walk(i + 1, chosen, left - spend)
                del chosen[creature]

    for departures in range(count + 1):
        walk(0, {}, departures)
        if best >= ceiling or not complete:
            break
    return best, best_decl, complete


def check_attacks(
    reqs: Sequence[Requirement],
    attacks: Mapping[str, str],
    candidates: Mapping[str, Sequence[str]],
    legal: Callable[[Mapping[str, str]], bool],
) -> RequirementCheck:
    """Check a declaration of attackers against its requirements (508.1d).

    :param reqs: the requirements.
    :param attacks: the proposed declaration (already free of restriction
        violations).
    :param candidates: each creature that could attack -> what it could attack.
    :param legal: whether a whole declaration obeys every restriction.
    """
    obeyed = _count(reqs, attacks, None)
    required = {r.creature for r in reqs}
    creatures = sorted(candidates, key=lambda c: (c not in required, c))
    options: dict[str, list[object]] = {}
    for c in creatures:
        targets: list[object] = list(candidates[c])
        options[c] = [*targets, None] if c in required else [None, *targets]

    def score(chosen: dict[str, object]) -> int | None:
        decl = {k: str(v) for k, v in chosen.items()}
        if not legal(decl):
            return None
        return _count(reqs, decl, None)

    best, example, complete = _search(creatures, options, score, len(reqs),
                                      (obeyed, dict(attacks)))
    return RequirementCheck(reqs, obeyed, best, example, complete)


def check_blocks(
    reqs: Sequence[Requirement],
    blocks: Mapping[str, tuple[str, ...]],
    candidates: Mapping[str, Sequence[str]],
    capacity: Mapping[str, int],
    legal: Callable[[Mapping[str, tuple[str, ...]]], bool],
) -> RequirementCheck:
    """Check a declaration of blockers against its requirements (509.1c).

    :param reqs: the requirements.
    :param blocks: the proposed declaration (already free of restriction
        violations).
    :param candidates: each creature that could block -> the attackers it
        could block, pair by pair.
    :param capacity: how many attackers each can block at once.
    :param legal: whether a whole declaration obeys every restriction.
    """
    obeyed = _count(reqs, None, blocks)
    required = {r.creature for r in reqs} | {r.attacker for r in reqs if r.attacker}
    wanted = {r.attacker for r in reqs if r.attacker} | {
        r.creature for r in reqs if r.kind == "be_blocked"}
    creatures = sorted(candidates, key=lambda c: (c not in required, c))
    options: dict[str, list[object]] = {}
    for c in creatures:
        atts = sorted(candidates[c], key=lambda a: (a not in wanted, a))
        own = any(r.creature == c for r in reqs)
        # Every number of attackers it can block: the most first for a
        # creature with requirements of its own (it obeys more, blocking more
        # of the attackers it must block), the fewest first for the others;
        # no more combinations than the search could visit.
        sizes = range(1, min(capacity.get(c, 1), len(atts)) + 1)
        combos: list[object] = list(itertools.islice(itertools.chain.from_iterable(
            itertools.combinations(atts, n) for n in (reversed(sizes) if own else sizes)),
            SEARCH_BUDGET))
        options[c] = [*combos, None] if own else [None, *combos]

    def score(chosen: dict[str, object]) -> int | None:
        decl = {k: v for k, v in chosen.items() if isinstance(v, tuple)}
        if not legal(decl):
            return None
        return _count(reqs, None, decl)

    best, example, complete = _search(creatures, options, score,
                                      _block_ceiling(reqs, candidates, capacity),
                                      (obeyed, dict(blocks)))
    return RequirementCheck(reqs, obeyed, best, example, complete)


def _block_ceiling(reqs: Sequence[Requirement], candidates: Mapping[str, Sequence[str]],
                   capacity: Mapping[str, int]) -> int:
    """The most requirements any declaration the search tries can obey, so
    that it stops as soon as one does (a Lure on many attackers: each blocker
    obeys at most as many "block this attacker" requirements as the attackers
    it blocks at once). A creature obeys its ``block`` requirements only if it
    can block something, and a ``be_blocked`` requirement is obeyed only if
    some creature can block that attacker."""
    if any(r.kind not in ("block", "block_attacker", "be_blocked") for r in reqs):
        return len(reqs)
    blockable = {a for atts in candidates.values() for a in atts}
    bound = 0
    mine: dict[str, list[Requirement]] = {}
    for r in reqs:
        if r.kind == "be_blocked":
            bound += r.creature in blockable
        else:
            mine.setdefault(r.creature, []).append(r)
    for creature, own in mine.items():
        atts = set(candidates.get(creature, ()))
        if not atts:
            continue
        bound += sum(1 for r in own if r.kind == "block")
        per_attacker: dict[str, int] = {}
        for r in own:
            if r.kind == "block_attacker" and r.attacker in atts:
                per_attacker[r.attacker] = per_attacker.get(r.attacker, 0) + 1
        at_once = min(capacity.get(creature, 1), len(atts))
        bound += sum(sorted(per_attacker.values(), reverse=True)[:at_once])
    return min(bound, len(reqs))
