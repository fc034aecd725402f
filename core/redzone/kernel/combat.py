"""Declarations and damage assignment (508, 509, 510.1).

Queries here never raise for illegal input: they return violations. The
engine's commands turn violations into typed errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, cast

from redzone.kernel.answers import shown, shown_number, type_name
from redzone.kernel.errors import BadQueryError, IllegalActionError, Violation, did_you_mean
from redzone.kernel.events import Event
from redzone.kernel.frozen import FrozenMap
from redzone.kernel.hooktypes import SourceAssignment
from redzone.kernel.model import UNLIMITED, Combat, GameState, Permanent
from redzone.kernel.plugins import Hooks
from redzone.kernel.requirements import RequirementCheck, check_attacks, check_blocks

Assignment = Mapping[str, Mapping[str, int]]
"""Combat damage assignments: assigning creature -> recipient -> amount."""


def label(state: GameState, obj: str | None) -> str:
    """A readable name for an object or player id."""
    if obj is None:
        return "nothing"
    perm = state.objects.get(obj)
    return perm.label if perm is not None else obj


# ---------------------------------------------------------------------------
# 508: declare attackers
# ---------------------------------------------------------------------------


def attackable(state: GameState, player: str) -> tuple[str, ...]:
    """What ``player``'s creatures may attack (508.1b, 506.2a): each opponent,
    each planeswalker an opponent controls, each battle an opponent protects."""
    opponents = state.opponents(player)
    out = list(opponents)
    for perm in state.objects.values():
        if perm.zone != "battlefield":
            continue
        if ("planeswalker" in perm.types and perm.controller in opponents) or (
                "battle" in perm.types and perm.protector in opponents):
            out.append(perm.id)
    return tuple(out)


def _attacker_core(state: GameState, attacker: str, attacked: object) -> list[Violation]:
    perm = state.objects._items.get(attacker)
    ap = state.active_player
    if perm is None:
        return [Violation("508.1a", f"there is no permanent {attacker!r} to attack with",
                          (attacker,))]
    out: list[Violation] = []
    if perm.zone != "battlefield":
        out.append(Violation("508.1a", f"{perm.label} is not on the battlefield", (attacker,)))
        return out
    if "creature" not in perm.types:
        out.append(Violation("506.3", f"{perm.label} is not a creature: only creatures attack",
                             (attacker,)))
    if "battle" in perm.types:
        out.append(Violation("508.1a", f"{perm.label} is a battle and can't attack", (attacker,)))
    if not state.is_attacking_player(perm.controller):
        out.append(Violation("508.1a", f"{perm.label} is controlled by {perm.controller!r}, "
                             f"not by the attacking player {ap!r}", (attacker,)))
    if perm.tapped:
        out.append(Violation("508.1a", f"{perm.label} is tapped and can't attack", (attacker,),
                             restriction="tapped"))
    if perm.summoning_sick:
        out.append(Violation("302.6", f"{perm.label} has not been under the control of "
                             f"{perm.controller!r} continuously since the turn began",
                             (attacker,), restriction="summoning_sickness"))
    out.extend(_attacked_core(state, attacker, attacked, perm.controller))
    return out


def _attacked_core(state: GameState, attacker: str, attacked: object,
                   controller: str) -> list[Violation]:
    if not isinstance(attacked, str):
        return [Violation("508.1b", f"{label(state, attacker)} attacks {attacked!r}: name one "
                          "player, planeswalker or battle by its id", (attacker,))]
    player = state.players._items.get(attacked)
    if player is not None:
        if attacked == controller:
            return [Violation("508.1b", f"{label(state, attacker)} can't attack its own "
                              f"controller {attacked!r}", (attacker, attacked))]
        if attacked in state.teammates(controller):
            return [Violation("805.10a", f"{label(state, attacker)} can't attack "
                              f"{attacked!r}, a teammate of its controller: a team attacks "
                              "the other team", (attacker, attacked))]
        if player.lost:
            return [Violation("508.1b", f"{attacked!r} has left the game",
                              (attacker, attacked))]
        return []
    target = state.objects.get(attacked)
    if target is None:
        return [Violation("508.1b", f"{label(state, attacker)} attacks {attacked!r}, which is "
                          "neither a player nor a permanent", (attacker, attacked))]
    tname = target.label
    if target.zone != "battlefield":
        return [Violation("508.1b", f"{tname} is not on the battlefield",
                          (attacker, attacked))]
    if "planeswalker" in target.types:
        if target.controller == controller:
            return [Violation("508.1b", f"{label(state, attacker)} can't attack {tname}: "
                              f"its own controller's planeswalker", (attacker, attacked))]
        if state.same_team(controller, target.controller):
            return [Violation("805.10a", f"{label(state, attacker)} can't attack {tname}: it "
                              f"is controlled by {target.controller!r}, a teammate of its "
                              "controller: a team attacks the other team",
                              (attacker, attacked))]
        return []
    if "battle" in target.types:
        if target.protector is None or state.same_team(controller, target.protector):
            return [Violation("508.1b", f"{label(state, attacker)} can't attack {tname}: "
                              "a battle can be attacked only if an opponent protects it "
                              "(310.8)", (attacker, attacked))]
        return []
    return [Violation("506.3", f"{tname} is not a player, planeswalker or battle and can't "
                      "be attacked", (attacker, attacked))]


def _pair_exists(state: GameState, attacker: str, attacked: str) -> bool:
    """Whether ``attacker`` is a permanent on the battlefield and ``attacked``
    a player or permanent of ``state``: a pair the plugins can be asked
    about even when the declaration is illegal for other reasons, so that
    its error lists every violation (508.1a-c)."""
    perm = state.objects._items.get(attacker)
    return perm is not None and perm.zone == "battlefield" and (
        attacked in state.players._items or attacked in state.objects._items)


def _attack_pair_violations(hooks: Hooks, state: GameState, attacker: str,
                            attacked: object, silent: frozenset[str] | None = None
                            ) -> list[Violation]:
    # (``attacked`` is the caller's, unchecked: typed ``object`` so that a
    # compiled build reports a malformed one as 508.1b, not as a TypeError.)
    core = _attacker_core(state, attacker, attacked)
    if silent is None:
        silent = hooks.silent(state)
    if not isinstance(attacked, str) or (core and any(not v.restriction for v in core)
                                         and not _pair_exists(state, attacker, attacked)):
        # (every violation is listed: the pair's too, when it names one)
        return _whatever_it_attacks(hooks, state, attacker, core, silent)
    return _asked(hooks, state, attacker, attacked, core, silent)


def _asked(hooks: Hooks, state: GameState, attacker: str, attacked: str,
           core: list[Violation], silent: frozenset[str]) -> list[Violation]:
    """``core`` and the plugins' violations of ``attacker`` attacking
    ``attacked``, less the restrictions an exemption lifts (702.10b)."""
    found = core if "redzone_attack_violations" in silent else core + hooks.attack_violations(
        state, attacker, attacked)
    if not found or "redzone_attack_exemption" in silent:
        return found
    return [v for v in found
            if not (v.restriction and hooks.attack_exemption(state, attacker, attacked, v))]


def _whatever_it_attacks(hooks: Hooks, state: GameState, attacker: str,
                         core: list[Violation], silent: frozenset[str]) -> list[Violation]:
    """``core``, the violations of an attack the plugins can't be asked about
    (what it attacks is no player or permanent), with the restrictions it
    holds (the core's and the plugins') kept where they hold whatever the
    creature attacks: asked with each player, planeswalker and battle it
    could attack (508.1b), those found for every one. A creature with
    defender attacking a misspelt player is told it can't attack (702.3b),
    one with haste isn't told it is summoning sick (702.10b): every
    violation is listed, and only those (508.1a-c)."""
    perm = state.objects._items.get(attacker)
    if perm is None or perm.zone != "battlefield":
        return core
    restrictions = [v for v in core if v.restriction]
    common: list[Violation] | None = None
    for target in attackable(state, perm.controller):
        found = _asked(hooks, state, attacker, target, restrictions, silent)
        common = found if common is None else [v for v in common if v in found]
        if not common:
            break
    if common is None:  # (nothing it could attack: the core's verdicts as they are)
        return core
    return [v for v in core if not v.restriction or v in common] + [
        v for v in common if v not in core]


def attack_restriction_violations(hooks: Hooks, state: GameState,
                                  attacks: Mapping[str, str]) -> list[Violation]:
    """The restrictions a declaration of attackers breaks (508.1a-c)."""
    found: list[Violation] = []
    silent = hooks.silent(state)
    # (The caller's declaration, unchecked: read as ``object`` so that a
    # compiled build reports a malformed key or value as 508.1a-b, as the
    # pure one does, not as a TypeError.)
    unchecked = cast("Mapping[Any, object]", attacks)
    for attacker, attacked in unchecked.items():
        if not isinstance(attacker, str):
            found.append(Violation("508.1a", f"there is no permanent {attacker!r} to attack "
                                   "with", cast(Any, (attacker,))))
            continue
        found.extend(_attack_pair_violations(hooks, state, attacker, attacked, silent))
    if not found and "redzone_attack_declaration_violations" not in silent:
        found.extend(hooks.attack_declaration_violations(state, FrozenMap(attacks)))
    return found


#: How many violations of one declaration naming an id the state doesn't
#: have get the closest id suggested (each compares the id with every id).
MAX_SUGGESTED: Final = 5

#: The rules whose violations can name an unknown id: no permanent to attack
#: or block with (508.1a, 509.1a), nothing to attack (508.1b).
_UNKNOWN_ID_RULES: Final = frozenset({"508.1a", "508.1b", "509.1a"})


def _suggested(state: GameState, found: list[Violation]) -> list[Violation]:
    """``found``, the first :data:`MAX_SUGGESTED` violations that name an id
    that is neither an object nor a player of ``state`` given the closest id
    (:func:`~redzone.kernel.errors.did_you_mean`, as the scenario loader
    suggests one)."""
    left = MAX_SUGGESTED
    out: list[Violation] = []
    for v in found:
        if left and v.rule in _UNKNOWN_ID_RULES:
            # (read as objects: a malformed declaration puts non-ids there,
            # which compiled code would refuse as the str the type says)
            named: tuple[object, ...] = v.objects
            unknown = [o for o in named
                       if isinstance(o, str) and o not in state.objects and o not in state.players]
            if unknown:
                left -= 1
                hint = did_you_mean(unknown[0], [*state.objects, *state.players])
                if hint:
                    v = Violation(v.rule, v.message + hint, v.objects, v.restriction)
        out.append(v)
    return out


def attack_violations(hooks: Hooks, state: GameState,
                      attacks: Mapping[str, str]) -> list[Violation]:
    """Every violation of a declaration of attackers: restrictions (508.1a-c),
    then requirements (508.1d)."""
    found = attack_restriction_violations(hooks, state, attacks)
    if found:
        return _suggested(state, found)
    check = attack_requirement_check(hooks, state, attacks)
    return check.violations("508.1d", attacks) if check is not None else []


def attack_candidates(hooks: Hooks, state: GameState) -> dict[str, list[str]]:
    """Each creature that could attack on its own -> what it could attack,
    pair by pair (508.1a-c; restrictions on the whole declaration aside)."""
    targets = attackable(state, state.active_player)
    candidates: dict[str, list[str]] = {}
    for perm in state.objects.values():
        if perm.zone != "battlefield" or not state.is_attacking_player(perm.controller):
            continue
        if "creature" not in perm.types:
            continue
        ok = [t for t in targets if not _attack_pair_violations(hooks, state, perm.id, t)]
        if ok:
            candidates[perm.id] = ok
    return candidates


def attack_requirement_check(hooks: Hooks, state: GameState, attacks: Mapping[str, str],
                             candidates: dict[str, list[str]] | None = None
                             ) -> RequirementCheck | None:
    """How a legal declaration of attackers fares against the requirements
    (508.1d); ``None`` when there are none.

    :param candidates: :func:`attack_candidates`, when the caller has them."""
    reqs = hooks.attack_requirements(state)
    if not reqs:
        return None
    if candidates is None:
        candidates = attack_candidates(hooks, state)

    def legal(decl: Mapping[str, str]) -> bool:
        return not hooks.attack_declaration_violations(state, FrozenMap(decl))

    return check_attacks(reqs, attacks, candidates, legal)


def band_violations(hooks: Hooks, state: GameState, attacks: Mapping[str, str],
                    bands: Sequence[tuple[str, ...]]) -> list[Violation]:
    """Violations of a declaration of attacking bands (508.1e, 702.22c-d)."""
    found: list[Violation] = []
    seen: dict[str, int] = {}
    for i, band in enumerate(bands):
        # (The caller's band, unchecked: its members are read as ``object``
        # until each is an id, so that a malformed one is a violation, compiled
        # as pure, not a TypeError.)
        members: tuple[object, ...] = band
        if not all(isinstance(m, str) for m in members):
            found.append(Violation("702.22c", "a band is of attacking creatures named by "
                                   f"their ids, not {list(members)!r}"))
            continue
        names = ", ".join(label(state, m) for m in band)
        if len(band) < 2 or len(set(band)) != len(band):
            found.append(Violation("702.22c", f"a band needs two or more different attacking "
                                   f"creatures, not: {names or 'nothing'}", band))
            continue
        bad = [m for m in band if m not in attacks]
        if bad:
            found.append(Violation("702.22c", f"{', '.join(label(state, m) for m in bad)} "
                                   f"can't be in a band: not declared as attacking", bad))
            continue
        twice = [m for m in band if m in seen]
        if twice:
            found.append(Violation("702.22c", f"{', '.join(label(state, m) for m in twice)} "
                                   "can be a member of only one band", twice))
            continue
        seen.update((m, i) for m in band)
        targets = {attacks[m] for m in band}
        if len(targets) > 1:
            found.append(Violation("702.22d", f"all creatures in a band must attack the same "
                                   f"player, planeswalker or battle: {names} attack "
                                   f"{', '.join(sorted(label(state, t) for t in targets))}",
                                   band))
            continue
        if not hooks.can_band(state, band):
            found.append(Violation("702.22c", f"{names} can't form a band: their abilities "
                                   "don't allow it", band))
    return found


# ---------------------------------------------------------------------------
# 509: declare blockers
# ---------------------------------------------------------------------------


def normalise_blocks(blocks: Mapping[str, str | Sequence[str]]) -> dict[Any, tuple[Any, ...]]:
    """Blocks as blocker -> tuple of attackers (a bare id means one attacker)."""
    # (A tuple, the common case, is taken as it is: no ABC check. The caller's
    # keys and values are unchecked here: ``Any`` and ``object``, so that a
    # compiled build leaves a malformed one to the checks, as 509.1a: so is
    # what it returns, which is as unchecked.)
    unchecked = cast("Mapping[Any, object]", blocks)
    return {b: (a if type(a) is tuple else (a,) if isinstance(a, str)
                or not isinstance(a, Iterable) else tuple(a))
            for b, a in unchecked.items()}


def capacity(hooks: Hooks, state: GameState, blocker: str,
             silent: frozenset[str] | None = None) -> int:
    """How many attackers ``blocker`` can block (509.1a).

    :param silent: ``hooks.silent(state)``, when the caller has it."""
    perm = state.objects._items[blocker]
    extra = perm.can_block_additional
    if "redzone_additional_blocks" not in (hooks.silent(state) if silent is None else silent):
        extra += hooks.additional_blocks(state, blocker)
    return UNLIMITED if extra >= UNLIMITED else 1 + extra


def _blocker_core(hooks: Hooks, state: GameState, given: object,
                  unchecked: tuple[object, ...], silent: frozenset[str] | None = None
                  ) -> list[Violation]:
    # (The blocker and its attackers are the caller's, unchecked: ``object``,
    # so that a compiled build reports a malformed one as 509.1a.)
    combat = state.combat
    assert combat is not None
    perm = state.objects._items.get(given) if isinstance(given, str) else None
    if perm is None:
        return [Violation("509.1a", f"there is no permanent {given!r} to block with",
                          cast(Any, (given,)))]
    blocker = perm.id
    if perm.zone != "battlefield":
        return [Violation("509.1a", f"{perm.label} is not on the battlefield", (blocker,))]
    if blocker in combat.blocks._items:
        return [_already_blocking(state, blocker)]
    out: list[Violation] = []
    if "creature" not in perm.types:
        out.append(Violation("506.3", f"{perm.label} is not a creature: only creatures block",
                             (blocker,)))
    if "battle" in perm.types:
        out.append(Violation("509.1a", f"{perm.label} is a battle and can't block", (blocker,)))
    if perm.tapped and not _tapped_lifted(hooks, state, perm, unchecked, silent):
        out.append(_tapped_blocker(perm))
    if state.is_attacking_player(perm.controller):
        out.append(Violation("509.1a", f"{perm.label} is controlled by the attacking player "
                             f"{perm.controller!r}", (blocker,)))
    single = len(unchecked) == 1  # (the common case, checked without a generator)
    named = isinstance(unchecked[0], str) if single else all(isinstance(a, str)
                                                             for a in unchecked)
    if not named:
        out.append(Violation("509.1a", f"{perm.label} blocks {list(unchecked)!r}: name each "
                             "attacking creature by its id", (blocker,)))
        return out
    attackers = cast("tuple[str, ...]", unchecked)  # (each a str: checked above)
    if not single and len(set(attackers)) != len(attackers):
        out.append(Violation("509.1a", f"{perm.label} is declared to block the same "
                             "creature twice", (blocker, *attackers)))
    if out:
        return out
    cap = capacity(hooks, state, blocker, silent)
    if len(attackers) > cap:
        out.append(Violation("509.1a", f"{perm.label} can block only {cap} creature"
                             f"{'s' if cap != 1 else ''}, not {len(attackers)}",
                             (blocker, *attackers)))
    attacks = combat.attacks._items
    defending_of = combat.defending_players._items
    for attacker in attackers:
        if attacker not in attacks:
            out.append(Violation("509.1a", f"{perm.label} can't block {label(state, attacker)}: "
                                 "it is not an attacking creature", (blocker, attacker)))
            continue
        defending = defending_of.get(attacker)
        # 805.10d: with teams, any defending player's creature blocks for the team.
        if not state.same_team(defending, perm.controller):
            out.append(Violation(
                "509.1a", f"{perm.label} can't block {label(state, attacker)}: it attacks "
                f"{label(state, combat.attacks[attacker])} ({defending!r} defends), not "
                f"{perm.controller!r} or their planeswalkers or battles", (blocker, attacker)))
    return out


def _tapped_blocker(perm: Permanent) -> Violation:
    """509.1a: "The chosen creatures must be untapped": a restriction named
    ``"tapped"``, which an ability letting a creature block as though it
    were untapped lifts (:func:`redzone.kernel.hookspecs.redzone_block_exemption`)."""
    return Violation("509.1a", f"{perm.label} is tapped and can't block", (perm.id,),
                     restriction="tapped")


def _tapped_lifted(hooks: Hooks, state: GameState, perm: Permanent,
                   unchecked: tuple[object, ...], silent: frozenset[str] | None) -> bool:
    """Whether an ability lets the tapped ``perm`` block each attacking
    creature of ``unchecked`` as though it were untapped (509.1a, 509.1b:
    a block exemption of the ``"tapped"`` restriction)."""
    if "redzone_block_exemption" in (hooks.silent(state) if silent is None else silent):
        return False
    combat = state.combat
    if not unchecked or combat is None or not all(
            isinstance(a, str) and a in combat.attacks._items for a in unchecked):
        return False
    violation = _tapped_blocker(perm)
    return all(hooks.block_exemption(state, perm.id, cast(str, a), violation)
               for a in unchecked)


def _already_blocking(state: GameState, blocker: str) -> Violation:
    """The violation of declaring ``blocker``, which is a blocking creature
    already (it was put onto the battlefield blocking, 509.4, or an effect
    made it block): the defending player declares which of their creatures
    block (509.1a); one that is blocking stays so (509.1g) and isn't
    declared again.

    Rules: 509.1a, 509.1g, 509.4
    """
    combat = state.combat
    assert combat is not None
    blocked = ", ".join(label(state, a) for a in combat.blocks[blocker]) or "nothing"
    return Violation("509.1a", f"{label(state, blocker)} is already blocking {blocked} (it "
                     "became a blocking creature before the declaration, 509.4): only "
                     "creatures that aren't blocking are declared as blockers", (blocker,))


def existing_blockers(state: GameState, attacker: str) -> tuple[str, ...]:
    """The creatures blocking ``attacker`` before blockers are declared (put
    onto the battlefield blocking, 509.4): they stay blocking through the
    declaration (509.1g), so the restrictions on an attacker's blockers
    together (509.1b, 702.111b) count them with the declared ones.

    Rules: 509.1b, 509.4
    """
    combat = state.combat
    return combat.blockers_of(attacker) if combat is not None else ()


def block_violations(hooks: Hooks, state: GameState,
                     blocks: Mapping[str, tuple[str, ...]]) -> list[Violation]:
    """Every violation of a declaration of blockers: restrictions (509.1a-b),
    then requirements (509.1c)."""
    found = block_restriction_violations(hooks, state, blocks)
    if found:
        return _suggested(state, found)
    check = block_requirement_check(hooks, state, blocks)
    return check.violations("509.1c", blocks) if check is not None else []


def _block_pair_ok(hooks: Hooks, state: GameState, blocker: str, attacker: str) -> bool:
    if _blocker_core(hooks, state, blocker, (attacker,)):
        return False
    return all(v.restriction and hooks.block_exemption(state, blocker, attacker, v)
               for v in hooks.block_violations(state, blocker, attacker))


def block_candidates(hooks: Hooks, state: GameState) -> dict[str, list[str]]:
    """Each creature that could block -> the attackers it could block, pair
    by pair (509.1a-b; restrictions on the whole declaration aside)."""
    combat = state.combat
    candidates: dict[str, list[str]] = {}
    if combat is None:
        return candidates
    for perm in state.objects.values():
        if perm.zone != "battlefield" or "creature" not in perm.types:
            continue
        if state.is_attacking_player(perm.controller):
            continue
        ok = [a for a in combat.attacks if _block_pair_ok(hooks, state, perm.id, a)]
        if ok:
            candidates[perm.id] = ok
    return candidates


def blockers_by_attacker(blocks: Iterable[tuple[str, Sequence[str]]]) -> dict[str, list[str]]:
    """Attacker -> its blockers, in declaration order, from ``(blocker,
    attackers)`` pairs."""
    by: dict[str, list[str]] = {}
    for blocker, attackers in blocks:
        for a in attackers:
            by.setdefault(a, []).append(blocker)
    return by


def block_requirement_check(hooks: Hooks, state: GameState,
                            blocks: Mapping[str, tuple[str, ...]],
                            candidates: dict[str, list[str]] | None = None
                            ) -> RequirementCheck | None:
    """How a declaration of blockers that breaks no restriction fares against
    the requirements (509.1c); ``None`` when there are none. The blocks made
    before the declaration (509.4) count: the requirements they obey are
    left out, and an attacker's blockers together are those and the
    declared ones.

    :param candidates: :func:`block_candidates`, when the caller has them."""
    reqs = hooks.block_requirements(state)
    if not reqs or state.combat is None:
        return None
    made = state.combat.blocks
    if made:
        # 509.4: the blocks made before the declaration stay; the requirements
        # they obey are obeyed whatever is declared, so only the others count.
        reqs = [r for r in reqs if not r.obeyed_by(None, made)]
        if not reqs:
            return None
    if candidates is None:
        candidates = block_candidates(hooks, state)
    caps = {b: capacity(hooks, state, b) for b in candidates}

    def legal(decl: Mapping[str, tuple[str, ...]]) -> bool:
        for a, bs in blockers_by_attacker(decl.items()).items():
            if hooks.blocked_by_violations(state, a, (*existing_blockers(state, a), *bs)):
                return False
        return not hooks.block_declaration_violations(state, FrozenMap(decl))

    return check_blocks(reqs, blocks, candidates, caps, legal)


def block_restriction_violations(hooks: Hooks, state: GameState,
                                 blocks: Mapping[str, tuple[str, ...]]) -> list[Violation]:
    """The restrictions a declaration of blockers breaks (509.1a-b); a
    creature already blocking can't be declared (509.1a), and the
    restrictions on an attacker's blockers together count those already
    blocking it (509.4)."""
    found: list[Violation] = []
    blocked_by: dict[str, list[str]] = {}
    combat = state.combat
    assert combat is not None
    silent = hooks.silent(state)
    asks_violations = "redzone_block_violations" not in silent
    objects = state.objects._items
    attacks = combat.attacks._items
    # (The caller's declaration, unchecked: ``object`` until _blocker_core
    # has checked it, so that a compiled build reports it as 509.1a.)
    given = cast("Mapping[Any, tuple[object, ...]]", blocks)
    for blocker, unchecked in given.items():
        core = _blocker_core(hooks, state, blocker, unchecked, silent)
        if not isinstance(blocker, str):
            found.extend(core)
            continue
        attackers = cast("tuple[str, ...]", unchecked)  # (checked by _blocker_core if used)
        perm = objects.get(blocker)
        if perm is not None and perm.zone == "battlefield":
            # Every creature declared to block an attacker counts for the
            # restrictions on its blockers together (702.111b), also one whose
            # own block is illegal: that one's violation is the one to report.
            for attacker in unchecked:
                if isinstance(attacker, str) and attacker in attacks:
                    group = blocked_by.setdefault(attacker, [])
                    if blocker not in group:
                        group.append(blocker)
        if core:
            # Every violation is listed (509.1b): the blocker's restrictions
            # too, for each creature it names that is attacking, unless it
            # can't block at all (it isn't on the battlefield, is blocking
            # already, or names no creatures).
            found.extend(core)
            if perm is None or perm.zone != "battlefield" or blocker in combat.blocks._items \
                    or not all(isinstance(a, str) for a in unchecked):
                continue
        if not asks_violations:
            continue
        for attacker in dict.fromkeys(attackers) if core else attackers:
            if core and attacker not in attacks:
                continue  # (not attacking: its own violation is in core)
            for v in hooks.block_violations(state, blocker, attacker):
                if v.restriction and hooks.block_exemption(state, blocker, attacker, v):
                    continue
                found.append(v)
    if "redzone_blocked_by_violations" not in silent:
        for attacker, blockers in blocked_by.items():
            # 509.1b: the attacker's blockers after the declaration, those
            # already blocking it (509.4) first.
            before = tuple(b for b in existing_blockers(state, attacker) if b not in blockers)
            found.extend(hooks.blocked_by_violations(state, attacker, (*before, *blockers)))
    if not found and "redzone_block_declaration_violations" not in silent:
        found.extend(hooks.block_declaration_violations(
            state, FrozenMap((b, tuple(a)) for b, a in blocks.items())))
    return found


def damage_assignment_orders(
    state: GameState, blocks: Mapping[str, tuple[str, ...]], given: Mapping[str, Sequence[str]]
) -> tuple[dict[str, tuple[str, ...]], list[Violation]]:
    """Damage assignment orders for a legal declaration of blockers (509.2 and
    509.3 of 2009-2024): each blocked attacker orders the creatures blocking
    it, those put onto the battlefield blocking before the declaration
    included (509.4, 509.7), and each declared blocker the attackers it
    blocks. A missing order is the creatures already blocking in the order
    they were placed in, then the declared ones in declaration order.

    :returns: the orders and the violations of the given ones.
    """
    combat = state.combat
    assert combat is not None
    declared = blockers_by_attacker(blocks.items())
    wanted: dict[str, tuple[str, ...]] = {}
    for attacker in dict.fromkeys((*(a for a in combat.blocked if a in combat.attacks),
                                   *declared)):
        before = _ordered(state, attacker, combat.blockers_of(attacker))
        wanted[attacker] = tuple(dict.fromkeys((*before, *declared.get(attacker, ()))))
    for blocker, attackers in blocks.items():
        before = _ordered(state, blocker, combat.blocks.get(blocker, ()))
        wanted[blocker] = tuple(dict.fromkeys((*before, *attackers)))
    orders: dict[str, tuple[str, ...]] = {}
    found = malformed_orders(state, given)
    raw = cast("Mapping[object, object]", given)
    formed: dict[str, Sequence[str]] = {
        obj: cast("Sequence[str]", seq) for obj, seq in raw.items()
        if type(obj) is str and _an_order(seq)}
    for obj in formed:
        if obj not in wanted:
            found.append(Violation("509.2", f"{label(state, obj)} has no damage assignment "
                                   "order: it is neither a blocked attacker nor a blocker",
                                   (obj,)))
    for obj, members in wanted.items():
        if obj in raw and obj not in formed:
            continue  # (a malformed order: found above)
        seq = tuple(formed.get(obj, members))
        if sorted(seq) != sorted(members):
            rule = "509.2" if obj in combat.attacks else "509.3"
            found.append(Violation(rule, f"the damage assignment order of {label(state, obj)} "
                                   f"must list exactly {', '.join(sorted(members))} once each, "
                                   f"not {', '.join(seq) or 'nothing'}", (obj, *members)))
            continue
        orders[obj] = seq
    return orders, found


def malformed_orders(state: GameState, given: Mapping[str, Sequence[str]]) -> list[Violation]:
    """The entries of ``given`` that aren't damage assignment orders (509.2
    of 2009-2024: the attacking player orders the creatures blocking each
    attacker; 509.3: the defending player the attackers each blocker
    blocks): a key that isn't a creature's id, or a value that isn't a list
    of creatures' ids (``None``, a number, a list holding one).

    :returns: a violation of 509.2 (509.3 for a blocker's order) for each.
    """
    combat = state.combat
    found: list[Violation] = []
    for obj, seq in cast("Mapping[object, object]", given).items():
        if type(obj) is str and _an_order(seq):
            continue
        named = type(obj) is str
        rule = "509.2" if not named or combat is None or obj in combat.attacks else "509.3"
        what = label(state, cast("str", obj)) if named else f"the key {shown(obj)}"
        found.append(Violation(rule, f"the damage assignment order of {what} is {shown(seq)} "
                               f"({type_name(seq)}), not a list of the creatures it orders "
                               "(their ids)", (cast("str", obj),) if named else ()))
    return found


def _an_order(seq: object) -> bool:
    """Whether ``seq`` is an order's shape: a list or tuple of ids (strs)."""
    return isinstance(seq, (list, tuple)) and all(type(x) is str for x in seq)


def legal_attackers(hooks: Hooks, state: GameState) -> tuple[str, ...]:
    """Creatures that could attack on their own (508.1a-c): see
    :meth:`redzone.Engine.legal_attackers`. Restrictions only: whether a
    declaration obeys as many requirements as it can (508.1d) depends on the
    whole of it, not on one creature."""
    targets = attackable(state, state.active_player)
    out = []
    for perm in state.battlefield:
        if state.is_attacking_player(perm.controller) and "creature" in perm.types and any(
            not attack_restriction_violations(hooks, state, {perm.id: t}) for t in targets
        ):
            out.append(perm.id)
    return tuple(out)


def suggest_attacks(hooks: Hooks, state: GameState) -> dict[str, str]:
    """A declaration of attackers that breaks no restriction and obeys as
    many requirements as possible (508.1c-d); empty when nothing is required."""
    check = attack_requirement_check(hooks, state, {})
    return {k: str(v) for k, v in check.example.items()} if check is not None else {}


def suggest_blocks(hooks: Hooks, state: GameState) -> dict[str, tuple[str, ...]]:
    """A declaration of blockers that breaks no restriction and obeys as
    many requirements as possible (509.1b-c); empty when nothing is required."""
    check = block_requirement_check(hooks, state, {})
    if check is None:
        return {}
    return {k: v for k, v in check.example.items() if isinstance(v, tuple)}


def legal_blockers(hooks: Hooks, state: GameState, attacker: object) -> tuple[str, ...]:
    """Creatures that could block ``attacker`` alone, pair by pair (509.1a-b);
    restrictions on the whole declaration, such as menace, are not applied."""
    # (``attacker`` is the caller's, unchecked: none is attacking unless a str.)
    combat = state.combat
    if combat is None or not isinstance(attacker, str) or attacker not in combat.attacks:
        return ()
    out = []
    for perm in state.objects.values():
        if perm.zone != "battlefield" or "creature" not in perm.types:
            continue
        if _blocker_core(hooks, state, perm.id, (attacker,)):
            continue
        if all(v.restriction and hooks.block_exemption(state, perm.id, attacker, v)
               for v in hooks.block_violations(state, perm.id, attacker)):
            out.append(perm.id)
    return tuple(out)


# ---------------------------------------------------------------------------
# 510.1: combat damage assignment
# ---------------------------------------------------------------------------



class Duty:
    """What one creature must assign in a combat damage step (510.1a-d).

    :ivar source: the assigning creature.
    :ivar power: the amount it assigns.
    :ivar creatures: the creatures it may assign to, in order.
    :ivar attacked: what it attacks, when that may receive damage.
    :ivar is_attacker: whether it is an attacking creature.
    :ivar blocked: whether it is a blocked attacker.
    :ivar additional: further recipients plugins allow
        (:func:`~redzone.kernel.hookspecs.redzone_additional_recipients`).
    :ivar divider: the player who divides its damage when that is not its
        controller (702.22j-k); the division is then free among ``creatures``.
    :ivar unblocked: what a blocked attacker attacks, when its controller may
        have it assign its combat damage as though it weren't blocked
        (:func:`~redzone.kernel.hookspecs.redzone_may_assign_as_though_unblocked`):
        an assignment of all of it there is that choice.

    .. versionadded:: 0.1.0
    """

    __slots__ = ("additional", "attacked", "blocked", "creatures", "divider", "is_attacker",
                 "power", "source", "unblocked")

    def __init__(self, source: str, power: int, creatures: tuple[str, ...],
                 attacked: str | None, is_attacker: bool, blocked: bool,
                 additional: tuple[str, ...] = (), divider: str | None = None,
                 unblocked: str | None = None) -> None:
        self.source = source
        self.power = power
        self.creatures = creatures
        self.attacked = attacked
        self.is_attacker = is_attacker
        self.blocked = blocked
        self.additional = additional
        self.divider = divider
        self.unblocked = unblocked

    def as_unblocked(self, amounts: Mapping[str, object]) -> bool:
        """Whether ``amounts`` is the "as though it weren't blocked" choice:
        all of its damage to what it attacks (510.1b)."""
        target = self.unblocked
        return target is not None and amounts.get(target, 0) == self.power and all(
            r == target or n == 0 for r, n in amounts.items())

    @property
    def recipients(self) -> tuple[str, ...]:
        """Every legal recipient."""
        return (self.creatures + ((self.attacked,) if self.attacked is not None else ())
                + self.additional)

    def __repr__(self) -> str:
        extra = f", additional={self.additional!r}" if self.additional else ""
        if self.unblocked is not None:
            extra += f", unblocked={self.unblocked!r}"
        return (f"Duty({self.source!r}, power={self.power}, creatures={self.creatures!r}, "
                f"attacked={self.attacked!r}{extra})")


AssignmentPolicy = Callable[
    [Hooks, GameState, str, Sequence["Duty"], Assignment], dict[str, dict[str, int]]
]
"""Chooses assignments for the creatures whose controller gave none:
``policy(hooks, state, step, duties, fixed) -> {source: {recipient: amount}}``
for every duty whose source is not in ``fixed``."""


def _attack_target_valid(state: GameState, attacked: str | None) -> bool:
    if attacked is None:
        return False
    player = state.players._items.get(attacked)
    if player is not None:
        return not player.lost
    perm = state.objects._items.get(attacked)
    return perm is not None and perm.zone == "battlefield" and bool(
        perm.types & {"planeswalker", "battle"})


def _additional(hooks: Hooks, state: GameState, attacker: str,
                already: tuple[str, ...]) -> tuple[str, ...]:
    """The recipients plugins add for ``attacker`` that are not ``already``
    legal and can be dealt damage (a player in the game; a creature,
    planeswalker or battle on the battlefield: 120.1a)."""
    out = []
    for r in hooks.additional_recipients(state, attacker):
        if r in already:
            continue
        player = state.players.get(r)
        perm = state.objects.get(r)
        if (player is not None and not player.lost) or (
                perm is not None and perm.zone == "battlefield"
                and perm.types & {"creature", "planeswalker", "battle"}):
            out.append(r)
    return tuple(out)


def amount(hooks: Hooks, state: GameState, creature: str, step: str,
           silent: frozenset[str] | None = None) -> int:
    """How much combat damage ``creature`` assigns in ``step`` (510.1a): its
    power, unless a plugin says otherwise
    (:func:`~redzone.kernel.hookspecs.redzone_combat_damage_amount`).

    :param silent: ``hooks.silent(state)``, when the caller has it."""
    if silent is not None and "redzone_combat_damage_amount" in silent:
        return state.objects[creature].power
    answer = hooks.combat_damage_amount(state, creature, step)
    return state.objects[creature].power if answer is None else answer


def duties(hooks: Hooks, state: GameState, participants: Iterable[str],
           step: str) -> list[Duty]:
    """The assignment each participant must make in ``step`` (510.1a-d), in order."""
    silent = hooks.silent(state)
    out = _duties(hooks, state, participants, step, silent)
    if "redzone_damage_divider" in silent:
        return out
    for i, duty in enumerate(out):
        if not duty.creatures:
            continue
        divider = hooks.damage_divider(state, duty.source)
        if divider is not None and divider != state.objects[duty.source].controller:
            # 702.22j-k: another player divides it, freely, among the creatures only.
            out[i] = Duty(duty.source, duty.power, duty.creatures, None, duty.is_attacker,
                          duty.blocked, (), divider)
    return out


def _duties(hooks: Hooks, state: GameState, participants: Iterable[str],
            step: str, silent: frozenset[str] = frozenset()) -> list[Duty]:
    combat = state.combat
    assert combat is not None
    out: list[Duty] = []
    extra_ok = "redzone_additional_recipients" not in silent
    past_ok = "redzone_assigns_past_blockers" not in silent
    option_ok = "redzone_may_assign_as_though_unblocked" not in silent
    powers_only = "redzone_combat_damage_amount" in silent
    objects = state.objects._items
    attacks = combat.attacks._items
    blocks = combat.blocks._items
    blocked = combat.blocked
    ordered = bool(combat.order._items)  # damage assignment orders (2009-2024 editions)
    for source in participants:
        perm = objects.get(source)
        if perm is None or perm.zone != "battlefield":
            continue
        power = perm.power if powers_only else amount(hooks, state, source, step, silent)
        if power <= 0:
            continue  # 510.1a
        if source in attacks:
            attacked = attacks[source]
            target_ok = _attack_target_valid(state, attacked)
            if source not in blocked:
                target = attacked if target_ok else None
                extra = _additional(hooks, state, source,
                                    (target,) if target else ()) if extra_ok else ()
                if target is not None or extra:  # 510.1b
                    out.append(Duty(source, power, (), target, True, False, extra))
                continue
            blockers = combat.blockers_of(source)
            if ordered:
                blockers = _ordered(state, source, blockers)
            past = target_ok and past_ok and hooks.assigns_past_blockers(state, source)
            target = attacked if past else None
            option = attacked if target_ok and option_ok and hooks.may_assign_as_though_unblocked(
                state, source) else None
            extra = _additional(hooks, state, source, blockers + (
                (target,) if target else ())) if extra_ok else ()
            if not blockers and target is None and not extra and option is None:
                continue  # 510.1c: no creatures blocking it
            out.append(Duty(source, power, blockers, target, True, True, extra,
                            unblocked=option))
        elif source in blocks:
            attackers = blocks[source]
            if ordered:
                attackers = _ordered(state, source, attackers)
            if not attackers:
                continue  # 510.1d
            out.append(Duty(source, power, attackers, None, False, False))
    return out


def make_block(state: GameState, blocker: str, attacker: str, position: int | None,
               rule: str, *, orders: bool, attacker_position: int | None = None
               ) -> tuple[GameState, list[Event]]:
    """Make ``blocker`` block ``attacker`` (509.4, 509.6), or nothing when
    the rules say it never becomes a blocking creature (506.3e-f, 509.4a).

    :param position: where the active player places ``blocker`` in the
        attacker's damage assignment order (0 = first; ``None`` = last).
    :param orders: the edition has damage assignment orders (2009-2024).
    :param attacker_position: where the defending player places
        ``attacker`` in the blocker's order (``None`` = last).
    :returns: the state with the block and its events (none when nothing
        happens).

    Rules: 509.2a, 509.3a, 509.4, 509.6, 509.7
    """
    for name, place in (("position", position), ("attacker_position", attacker_position)):
        if place is not None and place < 0:
            # (the rule placing it in an order: 509.6 of 2009-2024 for a creature an
            # effect makes block, 509.7 for one put onto the battlefield blocking;
            # with no orders, a position is ignored, and the rule is the block's own)
            placed = ("509.6" if rule == "509.3b" else "509.7") if orders else rule
            orders_are = ("" if orders else
                          ": these rules have no damage assignment orders (give none)")
            raise BadQueryError(f"{name} {shown_number(place, grouped=False)} is no place in "
                                f"a damage assignment order (0 = first){orders_are}",
                                rule=placed, objects=(blocker, attacker))
    step = state.step
    combat = state.combat
    if combat is None or attacker not in state.objects:
        raise IllegalActionError(f"{blocker!r} can't block {attacker!r}: there is no combat or "
                                 "no such creature", rule="509.4a", objects=(blocker, attacker))
    if attacker not in combat.attacks:
        return state, []  # 509.4a: it is never considered a blocking creature
    perm = state.objects[blocker]
    if "creature" not in perm.types or "battle" in perm.types:
        return state, []  # 506.3a, 506.3f: it is never a blocking creature
    if not state.same_team(combat.defending_players.get(attacker), perm.controller):
        return state, []  # 506.3e, 509.4a
    if attacker in combat.blocks.get(blocker, ()) or blocker in combat.removed:
        return state, []  # (506.4: one removed from combat has no further part in it)
    # 702.22h: blocking a creature of a band blocks each other creature of it.
    band = [m for m in combat.band_of(attacker)
            if m != attacker and m in combat.attacks and m not in combat.blocks.get(blocker, ())]
    events: list[Event] = []
    blocked = combat.blocked
    for made in (attacker, *band):
        first = made == attacker
        combat = _blocking(combat, blocker, made, position if first else None,
                           attacker_position if first else None, orders)
        events.append(Event("block", rule if first else "702.22h", step, blocker=blocker,
                            attacker=made))
        if made not in blocked:
            # 509.3c: an unblocked attacker becomes blocked ("becomes blocked" triggers).
            events.append(Event("blocked", "509.1h", step, object=made))
    return state.evolve(combat=combat), events


def _blocking(combat: Combat, blocker: str, attacker: str,
              position: int | None, attacker_position: int | None, orders: bool) -> Combat:
    """``combat`` with ``blocker`` blocking ``attacker`` too (509.1g)."""
    order = combat.order
    if orders:
        # 509.6-509.7 (2009-2024): the blocker is placed in the attacker's
        # order and the attacker in the blocker's, among the creatures still
        # in each (509.2a, 509.3a); the others keep their places.
        theirs = list(_in_order(combat, attacker, combat.blockers_of(attacker)))
        theirs.insert(len(theirs) if position is None else min(position, len(theirs)), blocker)
        mine = list(_in_order(combat, blocker, combat.blocks.get(blocker, ())))
        mine.insert(len(mine) if attacker_position is None
                    else min(attacker_position, len(mine)), attacker)
        order = order.set(attacker, tuple(theirs)).set(blocker, tuple(mine))
    blocks = combat.blocks.set(blocker, (*combat.blocks.get(blocker, ()), attacker))
    return combat.evolve(blocks=blocks, blocked=combat.blocked | {attacker}, order=order)


def _ordered(state: GameState, source: str, creatures: tuple[str, ...]) -> tuple[str, ...]:
    combat = state.combat
    assert combat is not None
    return _in_order(combat, source, creatures)


def _in_order(combat: Combat, source: str, creatures: tuple[str, ...]) -> tuple[str, ...]:
    """``creatures`` in ``source``'s damage assignment order, those it
    doesn't list last."""
    order = combat.order._items.get(source)
    if order:
        known = [c for c in order if c in creatures]
        return tuple(known + [c for c in creatures if c not in known])
    return creatures


def lethal_from(hooks: Hooks, state: GameState, source: str, creature: str,
                others: Sequence[tuple[str, int]], asked: bool | None = None) -> int:
    """Lethal damage from ``source`` to ``creature`` as damage is assigned
    (702.19b, 510.1c-d): its toughness minus damage already marked minus what
    other creatures assign it in the same step, lowered by the plugins'
    answers for ``source`` (:func:`~redzone.kernel.hookspecs.redzone_lethal_damage`).

    Each other creature's nonzero amount is also asked the same question from
    that creature's side: when its amount is at least the lethal damage from
    *it* (counting everything but ``source``), the creature is already
    assigned lethal damage and ``source`` owes it 0. A plugin that makes any
    nonzero amount lethal (702.2c) so counts for every other creature
    assigning to the same creature, not only for its own assignment.

    :param others: ``(creature, amount)`` for every other creature assigning
        to ``creature`` in this step (zero amounts are ignored).
    :param asked: whether the gates let an implementation of the hook through
        for ``state`` (``hooks.asks("redzone_lethal_damage", state)``), when
        the caller, asking about many creatures, has it; when none is, every
        answer is the base, never below 0 (what the hook's facade answers).
    """
    if asked is None:
        asked = hooks.asks("redzone_lethal_damage", state)
    perm = state.objects._items[creature]
    left = perm.toughness - perm.damage
    if not others:
        return hooks.lethal_damage(state, source, creature, left) if asked else max(left, 0)
    given = []
    total = 0
    for s, n in others:
        if n > 0 and s != source:
            given.append((s, n))
            total += n
    for other, n in given:
        base = left - (total - n)
        if n >= (hooks.lethal_damage(state, other, creature, base) if asked else max(base, 0)):
            return 0
    base = left - total
    return hooks.lethal_damage(state, source, creature, base) if asked else max(base, 0)


def assigned_to(full: Assignment) -> dict[str, list[tuple[str, int]]]:
    """Recipient -> ``(source, amount)`` for every positive whole amount of an
    assignment (malformed amounts are violations elsewhere)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for source, amounts in full.items():
        unchecked: Mapping[str, object] = amounts  # (malformed amounts pass through here)
        for r, n in unchecked.items():
            if isinstance(n, int) and not isinstance(n, bool) and n > 0:
                out.setdefault(r, []).append((source, n))
    return out


def lethal_map(hooks: Hooks, state: GameState, duty: Duty, totals: Mapping[str, int],
               own: Mapping[str, int], *, full: Assignment | None = None,
               by: Mapping[str, Sequence[tuple[str, int]]] | None = None,
               asked: bool | None = None) -> dict[str, int]:
    """Lethal damage from ``duty.source`` to each creature it may assign to,
    counting marked damage and what other creatures assign in the same step
    (see :func:`lethal_from`).

    :param totals: recipient -> what every creature assigns it in the step.
    :param own: what ``duty.source`` assigns.
    :param full: the whole assignment of the step; with it, another
        creature's amount that is lethal by itself (702.2c) makes the
        creature lethal for ``duty.source`` too. Without it, the others are
        folded in as one amount (``totals`` minus ``own``).
    :param by: ``assigned_to(full)``, when the caller has it already.
    :param asked: as for :func:`lethal_from`.
    """
    if by is None and full is not None:
        by = assigned_to(full)
    out = {}
    if asked is None:
        asked = hooks.asks("redzone_lethal_damage", state)
    objects = state.objects._items
    for c in duty.creatures:
        if by is not None:
            out[c] = lethal_from(hooks, state, duty.source, c, by.get(c, ()), asked)
        else:
            perm = objects[c]
            base = perm.toughness - perm.damage - (totals.get(c, 0) - own.get(c, 0))
            out[c] = hooks.lethal_damage(state, duty.source, c, base) if asked else max(base, 0)
    return out


def lethal_views(hooks: Hooks, state: GameState, duty: Duty, earlier: Mapping[str, int],
                 by: Mapping[str, Sequence[tuple[str, int]]],
                 asked: bool) -> tuple[FrozenMap[str, int], FrozenMap[str, int]]:
    """Lethal damage from ``duty.source`` to each creature it may assign to,
    the two ways a combat damage step's record shows it: counting what every
    other creature assigns in the step (:func:`lethal_map` with the whole
    assignment) and counting what the creatures before it assign
    (:func:`lethal_map` with ``earlier``), in that order.

    Where no creature before it assigned to a creature and no other creature
    assigns to it, the two are one question (its toughness minus its damage,
    asked of the plugins once); when that holds for every creature, the two
    views are one map.

    :param earlier: recipient -> what the creatures before it assign.
    :param by: ``assigned_to`` of the step's whole assignment.
    :param asked: whether the gates let an implementation of
        ``redzone_lethal_damage`` through for ``state``.
    :returns: ``(lethal, lethal_before)``.
    """
    source = duty.source
    objects = state.objects._items
    full: dict[str, int] = {}
    alone: list[str] = []
    for c in duty.creatures:
        others = by.get(c, ())
        shared = not earlier.get(c, 0)
        if shared:
            for s, n in others:
                if n > 0 and s != source:
                    shared = False
                    break
        if shared:
            perm = objects[c]
            left = perm.toughness - perm.damage
            full[c] = hooks.lethal_damage(state, source, c, left) if asked else max(left, 0)
            alone.append(c)
        else:
            full[c] = lethal_from(hooks, state, source, c, others, asked)
    lethal = FrozenMap._wrap(full)
    if len(alone) == len(full):
        return lethal, lethal
    before: dict[str, int] = {}
    for c in duty.creatures:
        if c in alone:
            before[c] = full[c]
            continue
        perm = objects[c]
        base = perm.toughness - perm.damage - earlier.get(c, 0)
        before[c] = hooks.lethal_damage(state, source, c, base) if asked else max(base, 0)
    return lethal, FrozenMap._wrap(before)


def default_policy(hooks: Hooks, state: GameState, step: str, duties_: Sequence[Duty],
                   fixed: Assignment) -> dict[str, dict[str, int]]:
    """The default assignment (scenario format): lethal damage to each creature
    in order, counting marked damage and damage assigned earlier in this step
    (:func:`lethal_from`: an earlier amount that is lethal by itself, 702.2c,
    leaves 0 to assign); the rest to what it attacks if it may assign there, else to its first
    additional recipient, else to the last creature in order."""
    by = assigned_to(fixed)
    out: dict[str, dict[str, int]] = {}
    asked = hooks.asks("redzone_lethal_damage", state)
    for duty in duties_:
        if duty.source in fixed:
            continue
        remaining = duty.power
        chosen: dict[str, int] = {}
        if duty.divider is not None:
            # Documented default for a division by the opposing player
            # (702.22j-k): all of it to the first creature in order, so that
            # at most one of their creatures is dealt damage.
            first = duty.creatures[0]
            out[duty.source] = {first: remaining}
            by.setdefault(first, []).append((duty.source, remaining))
            continue
        past = duty.attacked if duty.attacked is not None else (
            duty.additional[0] if duty.additional else None)
        if not duty.creatures and past is None and duty.unblocked is not None:
            past = duty.unblocked  # no blocker left: as though it weren't blocked
        if not duty.creatures and past is not None:
            chosen[past] = remaining
            remaining = 0
        for c in duty.creatures:
            if remaining <= 0:
                break
            give = min(remaining, lethal_from(hooks, state, duty.source, c, by.get(c, ()),
                                              asked))
            if give > 0:
                chosen[c] = give
                remaining -= give
        if remaining > 0:
            last = past if past is not None else duty.creatures[-1]
            chosen[last] = chosen.get(last, 0) + remaining
        for r, n in chosen.items():
            by.setdefault(r, []).append((duty.source, n))
        out[duty.source] = chosen
    return out


def _not_a_recipient(state: GameState, duty: Duty, recipient: str) -> str:
    """Why ``duty.source`` can't assign damage to ``recipient`` (510.1b-d),
    saying what it can: a creature that may assign as though it weren't
    blocked names that choice apart (all of it to what it attacks), since
    with other recipients it is an ordinary blocked assignment (510.1c)."""
    source = label(state, duty.source)
    legal = ", ".join(label(state, x) for x in duty.recipients) or "nothing"
    if duty.unblocked is not None and recipient == duty.unblocked:
        return (f"{source} can't assign damage to {label(state, recipient)} with other "
                f"recipients: it assigns all {shown_number(duty.power, grouped=False)} to "
                f"{label(state, recipient)} (as though it weren't blocked) or among its legal "
                f"recipients: {legal}")
    if duty.unblocked:
        legal = ", ".join(label(state, x) for x in (*duty.recipients, duty.unblocked))
    combat = state.combat
    gone = (", which is no longer in combat (506.4)"
            if combat is not None and recipient in combat.removed else "")
    return (f"{source} can't assign damage to {label(state, recipient)}{gone}; "
            f"its legal recipients are: {legal}")


def assignment_violations(hooks: Hooks, state: GameState, step: str,
                          duties_: Sequence[Duty], full: Assignment,
                          given: Iterable[str]) -> list[Violation]:
    """Every violation of a whole combat damage assignment (510.1, 510.1e).

    :param full: the assignment of every duty (given and default).
    :param given: the sources whose assignment the caller gave; defaults are
        checked too (a policy can be wrong), and reported the same way.
    """
    del given
    totals: dict[str, int] = {}
    for amounts in full.values():
        unchecked: Mapping[str, object] = amounts  # (malformed amounts are violations below)
        for r, n in unchecked.items():
            if isinstance(n, int) and not isinstance(n, bool) and n > 0:
                totals[r] = totals.get(r, 0) + n
    found: list[Violation] = []
    combat = state.combat
    assert combat is not None
    by = assigned_to(full)
    for duty in duties_:
        amounts = full.get(duty.source, {})
        bad = False
        unblocked = duty.as_unblocked(amounts)
        given_amounts: Mapping[str, object] = amounts
        for r, n in given_amounts.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                found.append(Violation("510.1a", f"{label(state, duty.source)} assigns {n!r} to "
                                       f"{label(state, r)}: "
                                       "an amount must be a whole number, 0 or more",
                                       (duty.source, r)))
                bad = True
            elif n and r not in duty.recipients and not unblocked:
                rule = "510.1b" if not duty.blocked and duty.is_attacker else (
                    "510.1c" if duty.is_attacker else "510.1d")
                found.append(Violation(rule, _not_a_recipient(state, duty, r),
                                       (duty.source, r)))
                bad = True
        if bad:
            continue
        total = sum(amounts.values())
        if total != duty.power:
            perm = state.objects[duty.source]
            power = shown_number(duty.power, grouped=False)
            what = (f"has power {power}" if perm.power == duty.power
                    else f"assigns {power} combat damage (not its power, "
                    f"{'none' if perm.power is None else shown_number(perm.power, grouped=False)})")
            found.append(Violation("510.1a", f"{label(state, duty.source)} {what} "
                                   "and must assign "
                                   f"exactly {power} damage, not "
                                   f"{shown_number(total, grouped=False)}", (duty.source,)))
            continue
        if duty.divider is not None:
            continue  # 702.22j-k: the procedure of 510.1c-d (lethal first) is waived
        if unblocked:
            continue  # 510.1b: assigned as though it weren't blocked
        if not hooks.asks_about("redzone_assignment_violations", (state, duty)):
            continue  # no plugin's check is about this source (its object gates)
        own = {r: n for r, n in amounts.items() if n}
        view = SourceAssignment(
            source=duty.source, step=step, power=duty.power, amounts=FrozenMap(amounts),
            blockers=duty.creatures, attacked=duty.attacked,
            lethal=lethal_map(hooks, state, duty, totals, own, full=full, by=by),
            is_attacker=duty.is_attacker, order=combat.order.get(duty.source, ()),
            additional=duty.additional,
            others=FrozenMap((r, totals.get(r, 0) - own.get(r, 0)) for r in duty.recipients),
        )
        found.extend(hooks.assignment_violations(state, view))
    return found
