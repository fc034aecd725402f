"""The damage pipeline of rule 120.4, for combat and noncombat damage alike.

1. Each proposed damage is dealt to the recipient redirection effects give
   it (614.9), as modified by prevention (615: plugins' preventions, which
   see the whole batch, and the state's prevention shields) and by
   replacement effects that change its amount (614.1a), each applied in turn
   to what is left, in the order the affected player chooses when the order
   changes what happens (616.1, 616.1f): by default plugins' preventions,
   the shields in creation order, then the replacements. 0 damage is no
   damage (120.8).
2. Dealt damage is processed into results (120.3): life loss, marked damage,
   loyalty and defense counter removal, plus whatever result plugins add or
   replace (lifelink, infect, wither, toxic ...). Life gain from one source in
   one event is one result (702.15b).
3. Results are applied one by one, each as modified by result replacement
   effects (120.4c). Within one event, life gain is applied before everything
   else, so that a "can't reduce life below 1" effect sees the event's net
   change (the Worship and Awe Strike example of 120.4).
   A ``create`` result puts tokens onto the battlefield (111.2, 701.7a):
   the general way for a plugin to make damage create permanents
   (Squirrellink's Squirrels).
4. The damage event occurs once for the whole batch (120.4d); plugins are
   notified after the command commits.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from redzone.kernel.errors import PluginError
from redzone.kernel.events import Event
from redzone.kernel.hooktypes import (
    Damage,
    DamageModifier,
    Prevention,
    Redirection,
    Result,
    ResultReplacement,
)
from redzone.kernel.model import Choice, GameState, Permanent, Player, Shield
from redzone.kernel.tokens import token_ids
from redzone.kernel.zones import enters_with

if TYPE_CHECKING:
    from redzone.kernel.plugins import Hooks


#: What can be dealt damage (120.1a).
_DAMAGEABLE: Final = frozenset({"creature", "planeswalker", "battle"})

def _valid_target(state: GameState, target: str) -> bool:
    # (The maps' items: C-speed lookups.)
    return _can_be_dealt_damage(state.players._items, state.objects._items, target)


def _can_be_dealt_damage(players: Mapping[str, Player], objects: Mapping[str, Permanent],
                         target: str) -> bool:
    player = players.get(target)
    if player is not None:
        return not player.lost
    perm = objects.get(target)
    if perm is None or perm.zone != "battlefield":
        return False
    # 120.1a: only battles, creatures and planeswalkers can be dealt damage.
    return bool(perm.types & _DAMAGEABLE)


def _shield_applies(shield: Shield, damage: Damage) -> bool:
    if shield.mode == "regenerate":
        return False  # a regeneration shield replaces destruction, not damage (701.19)
    if shield.combat_only and not damage.combat:
        return False
    if shield.to is not None and shield.to != damage.target:
        return False
    return not (shield.source is not None and shield.source != damage.source)


#: Asks a player a choice and gives the answer (the command's working copy's).
Chooser = Callable[[Choice], tuple[str, ...]]

#: One effect on a damage's amount: ``("prevent", Prevention)`` (a plugin's),
#: ``("shield", Shield)`` or ``("modify", DamageModifier)``.
_Step = tuple[str, Any]


def _prevent_and_modify(
    damage: Damage, preventions: Sequence[Prevention], shields: list[Shield],
    mods: Sequence[DamageModifier], choose: Chooser | None,
    players: Mapping[str, Player], objects: Mapping[str, Permanent], step: str,
    events: list[Event], used_next: list[Shield], extra_results: list[Result],
) -> tuple[int, list[Shield]]:
    """The amount of ``damage`` dealt after the prevention effects (plugins'
    and the state's ``shields``) and the replacement effects on its amount
    (``mods``) that apply to it, each applied in turn, in the order the
    affected player chooses (616.1, 616.1e), to what is left (616.1f): by
    default plugins' preventions, the shields in the order they were
    created, then the replacements. The player is asked only when the order
    changes what happens (:func:`_order_matters`).

    :returns: the amount, and the shields as this damage leaves them.
    """
    applying = [sh for sh in shields if _shield_applies(sh, damage)] if shields else []
    order: list[_Step] = [*(("prevent", p) for p in preventions),
                          *(("shield", sh) for sh in applying),
                          *(("modify", m) for m in mods)]
    if choose is not None and len(order) > 1 and _order_matters(order, damage, step, used_next):
        order = _chosen_order(order, damage, choose, players, objects)
    amount, left, made, extra, used = _apply(order, damage, step, used_next)
    events.extend(made)
    extra_results.extend(extra)
    used_next.extend(used)
    if left:
        shields = [kept for kept in (left.get(id(sh), sh) for sh in shields) if kept is not None]
    return amount, shields


#: The most effects on one damage whose orders are compared to find whether
#: their order matters; with more, the affected player is always asked.
_MOST_COMPARED: Final = 5


def _order_matters(order: list[_Step], damage: Damage, step: str,
                   used_next: list[Shield]) -> bool:
    """Whether applying the effects of ``order`` in another order changes
    what happens (616.1): the damage dealt, what each shield has left or
    whether it is used up, the life its controller gains. A prevention of
    all of it applied first, say, leaves nothing for the others, and
    doubling 3 damage against a shield of 3 deals 3 one way and 0 the other."""
    if len(order) > _MOST_COMPARED:
        return True
    found = None
    for each in itertools.permutations(order):
        amount, left, _, extra, used = _apply(list(each), damage, step, used_next)
        outcome = (amount, sorted((k, v.amount if v is not None else 0) for k, v in left.items()),
                   sorted(map(id, used)), sorted((r.player or "", r.amount) for r in extra))
        if found is None:
            found = outcome
        elif outcome != found:
            return True
    return False


def _apply(order: Sequence[_Step], damage: Damage, step: str, used_next: list[Shield]
           ) -> tuple[int, dict[int, Shield | None], list[Event], list[Result], list[Shield]]:
    """Apply the effects of ``order`` to ``damage`` in turn, each to what is
    left (616.1f; nothing applies to no damage). Consecutive preventions of
    plugins, and consecutive replacements, apply together (their events are
    one).

    :returns: the amount dealt; each shield used (by identity) and what it
        becomes (``None``: used up); the events; the life gained by shields'
        controllers (615.5); the "next time" shields used, beyond ``used_next``.
    """
    amount = damage.amount
    left: dict[int, Shield | None] = {}
    events: list[Event] = []
    extra: list[Result] = []
    used: list[Shield] = []
    i = 0
    while i < len(order) and amount > 0:
        kind = order[i][0]
        j = i + 1
        if kind != "shield":
            while j < len(order) and order[j][0] == kind:
                j += 1
        run = [item for _, item in order[i:j]]
        i = j
        if kind == "prevent":
            amount = _prevent(damage, amount, run, step, events)
        elif kind == "shield":
            shield: Shield = run[0]
            if shield.mode == "amount":
                use = min(amount, shield.amount or 0)
                rest = (shield.amount or 0) - use
                left[id(shield)] = shield.evolve(amount=rest) if rest > 0 else None
            else:  # "next" (used up when the batch is done) or "all"
                use = amount
                if shield.mode == "next" and not any(shield is u for u in (*used_next, *used)):
                    used.append(shield)
            amount -= use
            if use:
                events.append(Event.make("prevented", "615.7", step, source=damage.source,
                                         target=damage.target, amount=use,
                                         combat=damage.combat, shield=shield.id))
                if shield.gain_life is not None:
                    extra.append(Result("life_gain", "615.5", damage.source, use,
                                        player=shield.gain_life))
        else:
            original = amount
            applied: list[DamageModifier] = []
            for mod in run:
                if amount <= 0:
                    break  # no damage left: nothing to replace (120.8, 616.1f)
                new_amount = max(amount * mod.multiply + mod.add, 0)
                if new_amount != amount:
                    applied.append(mod)
                amount = new_amount
            if applied and amount != original:
                # The amount's change is said, with the effects that made it (614.1a).
                events.append(Event.make("modified", applied[0].rule, step,
                                         source=damage.source, target=damage.target,
                                         amount=amount, original=original,
                                         combat=damage.combat,
                                         effects=tuple(m.effect for m in applied)))
    return amount, left, events, extra, used


def _prevent(damage: Damage, amount: int, preventions: Sequence[Prevention], step: str,
             events: list[Event]) -> int:
    """``amount`` after plugins' ``preventions`` (together: one that
    prevents all wins, amounts add up), with their event."""
    total_all = [p for p in preventions if p.amount is None]
    effects: tuple[str, ...]
    if total_all:
        first = min(total_all, key=lambda p: (p.effect, p.rule))
        prevented, rule, effects = amount, first.rule, (first.effect,)
    else:
        prevented = min(amount, sum(p.amount or 0 for p in preventions))
        ordered = sorted(preventions, key=lambda p: (p.effect, p.rule))
        rule, effects = ordered[0].rule, tuple(dict.fromkeys(p.effect for p in ordered))
    if prevented:
        events.append(Event.make("prevented", rule, step, source=damage.source,
                                 target=damage.target, amount=prevented,
                                 combat=damage.combat, effects=effects))
    return amount - prevented


_T = TypeVar("_T")


def labelled(items: Iterable[_T], name: Callable[[_T], str]) -> dict[str, _T]:
    """``items`` by the label a choice among them names each by (616.1):
    its name, with ``#2``, ``#3`` ... after a name already taken."""
    labels: dict[str, _T] = {}
    for item in items:
        base = label = name(item)
        n = 1
        while label in labels:
            n += 1
            label = f"{base}#{n}"
        labels[label] = item
    return labels


def _chosen_order(order: list[_Step], damage: Damage, choose: Chooser,
                  players: Mapping[str, Player], objects: Mapping[str, Permanent]
                  ) -> list[_Step]:
    """``order`` as the affected player orders it (616.1): the player dealt
    the damage, or the controller of the permanent (its owner if it has
    none). Each effect is named by its name (a shield by its id)."""
    labels = labelled(order, lambda entry: entry[1].id if entry[0] == "shield"
                      else entry[1].effect)
    target = damage.target
    perm = objects.get(target)
    player = target if target in players else (
        (perm.controller or perm.owner) if perm is not None else target)
    names = tuple(labels)
    chosen = choose(Choice(
        "damage_order", player, "order", names, default=names, min=len(names),
        max=len(names), rule="616.1", key=f"damage_order@{damage.source}:{target}",
        text=f"the order in which the effects on {damage.source}'s damage to {target} apply"))
    return [labels[label] for label in chosen]


def _default_results(players: Mapping[str, Player], objects: Mapping[str, Permanent],
                     damage: Damage) -> list[Result]:
    """The results rule 120.3 gives damage from a source with no abilities."""
    amount = damage.amount
    if damage.target in players:
        return [Result("life_loss", "120.3a", damage.source, amount, player=damage.target)]
    perm = objects[damage.target]
    types = perm.types
    out: list[Result] = []
    if "creature" in types:
        out.append(Result("marked", "120.3e", damage.source, amount, target=perm.id))
    if "planeswalker" in types:
        out.append(Result("loyalty", "120.3c", damage.source, amount, target=perm.id))
    if "battle" in types:
        out.append(Result("defense", "120.3h", damage.source, amount, target=perm.id))
    return out


def create_tokens(state: GameState, result: Result, step: str) -> tuple[GameState, list[Event]]:
    """Apply a ``create`` result: ``result.amount`` tokens copied from
    ``result.token`` enter the battlefield under the control of
    ``result.player`` (or, when that is ``None``, of the source's controller,
    read from last known information), who is also their owner (111.2,
    701.7a). The template's id names the keyword that creates them: the
    tokens get the ids every keyword's tokens have,
    ``<source id>.<token.id>.<n>`` (``earl.squirrellink.1``, from
    :func:`~redzone.kernel.tokens.token_ids`: the lowest numbers no object,
    player or spell uses), so they are deterministic and a file can name
    them. One ``create`` event per token.

    :raises ValueError: when the result has no ``token``.
    """
    template = result.token
    if template is None:
        raise ValueError(f"a 'create' result needs a token: {result!r}")
    player = result.player
    if player is None:
        player = state.source(result.source).controller
    created: dict[str, Permanent] = {}
    events: list[Event] = []
    for token_id in token_ids(state, result.source, template.id, result.amount):
        token = template.evolve(
            id=token_id, controller=player, owner=player, token=True, zone="battlefield",
            summoning_sick=True, damage=0, marks=frozenset())
        events.append(Event("create", result.rule, step, object=token_id, player=player,
                            source=result.source))
        created[token_id] = enters_with(token, step, events)  # (306.5b, 310.4b)
    return state.with_permanents(created), events


def player_result(state: GameState, changed: dict[str, Player], result: Result,
                  step: str) -> Event:
    """Apply a life loss, life gain or poison result (120.3a-b, 120.3d):
    the changed players go into ``changed`` (those already there are read
    from it), teammates alike (810.9-810.10); the event it makes."""
    assert result.player is not None
    kind = result.kind
    player = changed.get(result.player) or state.players._items[result.player]
    if kind == "life_loss":
        change_life(state, changed, player.id, life=player.life - result.amount)
    elif kind == "life_gain":
        change_life(state, changed, player.id, life=player.life + result.amount)
    else:
        change_life(state, changed, player.id, poison=player.poison + result.amount)
    return Event(kind, result.rule, step, player=result.player, amount=result.amount,
                 source=result.source)


def change_life(state: GameState, changed: dict[str, Player], player: str,
                life: int | None = None, poison: int | None = None) -> None:
    """Put into ``changed`` ``player``'s life total or poison counters
    changed: on a team, the team's shared ones, shown by every teammate
    (810.9-810.10); players already in ``changed`` are read from it."""
    players = state.players._items
    for pid in (player, *state.teammates(player)):
        current = changed.get(pid) or players[pid]
        changed[pid] = current.evolve(life=current.life if life is None else life,
                                      poison=current.poison if poison is None else poison)


def permanent_result(perm: Permanent, result: Result, step: str
                     ) -> tuple[Permanent | None, Event | None]:
    """Apply one result to a permanent: the changed permanent (``None`` when
    it is not on the battlefield) and the event it makes.

    :raises ValueError: for an unknown result kind.
    """
    if perm.zone != "battlefield":
        return None, None
    kind = result.kind
    if kind == "marked":
        return perm.evolve(damage=perm.damage + result.amount), None
    if kind == "counters":
        assert result.counter is not None
        counters = perm.counters.thaw()
        counters[result.counter] = counters.get(result.counter, 0) + result.amount
        event = Event("counters", result.rule, step, target=perm.id, counter=result.counter,
                      amount=result.amount, source=result.source)
        return perm.evolve(counters=counters), event
    if kind in ("loyalty", "defense"):
        counters = perm.counters.thaw()
        have = counters.get(kind, 0)
        removed = min(have, result.amount)
        counters[kind] = have - removed
        event = Event(kind, result.rule, step, target=perm.id, amount=removed,
                      source=result.source)
        return perm.evolve(counters=counters), event
    if kind == "mark":
        assert result.mark is not None
        return perm.evolve(marks=perm.marks | {result.mark}), None
    raise ValueError(f"unknown result kind {kind!r}")


_PLAYER_RESULTS = frozenset({"life_loss", "life_gain", "poison"})


def deal_damage(
    hooks: Hooks, state: GameState, proposed: Sequence[Damage], step: str,
    label: str | None = None, choose: Chooser | None = None,
) -> tuple[GameState, dict[str, Permanent], dict[str, Player], list[Event],
           tuple[Damage, ...], tuple[Result, ...]]:
    """Deal a batch of simultaneous damage through the 120.4 pipeline.

    :param hooks: the engine's hook facade.
    :param state: the state before the damage.
    :param proposed: every damage dealt at the same time.
    :param step: the current step (what prevention hooks are told).
    :param label: the step's label for events (``combat_damage#2`` in a
        second combat, 505.1a); ``step`` by default.
    :param choose: asks a player a :class:`~redzone.Choice` (the command's;
        616.1's order of a damage's effects); without it, the defaults.
    :returns: the state the results were applied to (``state`` itself
        unless shields were used up or tokens created), the permanents and
        players the results changed (not in it: for the caller's working
        copy), the events, the damage dealt and the results.
    """
    events: list[Event] = []
    hook_step = step
    if label is not None:
        step = label  # what events carry from here on
    work = state
    shields = list(state.shields)
    # "The next time ... would deal damage": all damage dealt at once is one
    # time, so such a shield prevents every damage of this batch it applies to
    # and is used up when the batch is done (615, the Awe Strike example of 120.4).
    used_next: list[Shield] = []
    extra_results: list[Result] = []
    dealt: list[Damage] = []
    rule_deal = "120.2b"
    for d in proposed:
        if d.combat:
            rule_deal = "510.2"
            break
    # -- redirection (614.9), before prevention: the new recipient's
    # protection and shields apply to it ----------------------------------------
    # Which hooks anyone answers is worked out once for the batch, not once
    # per damage: the keywords present and the state's effects are the same
    # for every damage of it (only the shields change as it goes).
    silent = hooks.silent(state)
    if "redzone_redirect_damage" not in silent:
        batch = tuple(redirect(hooks, state, d, step, events, choose) for d in proposed)
    else:
        batch = tuple(proposed)
    asks_prevent = "redzone_prevent_damage" not in silent
    asks_modify = "redzone_modify_damage" not in silent
    players = work.players._items  # (the batch changes neither: C-speed lookups)
    objects = work.objects._items
    for damage in batch:
        if damage.amount <= 0:
            continue  # 120.8
        if not _can_be_dealt_damage(players, objects, damage.target):
            continue  # 120.1a
        # -- prevention (615) and replacement of the amount (614.1a), in the
        # order the affected player chooses (616.1) -----------------------------
        if (shields or work.shields) and shields != list(work.shields):
            # Plugins see the shields earlier damage of this batch used up.
            work = work.evolve(shields=tuple(shields))
        preventions = hooks.prevent_damage(work, damage, batch, hook_step) \
            if asks_prevent else ()
        mods = hooks.modify_damage(work, damage) if asks_modify else ()
        if preventions or shields or mods:
            amount, shields = _prevent_and_modify(
                damage, preventions, shields, mods, choose, players, objects, step, events,
                used_next, extra_results)
        else:
            amount = damage.amount
        if amount <= 0:
            continue
        final = damage if amount == damage.amount else damage.evolve(amount=amount)
        dealt.append(final)
        events.append(Event("damage", rule_deal, step, source=final.source, target=final.target,
                            amount=amount, combat=final.combat))
    shields = [s for s in shields if not any(s is u for u in used_next)]
    work = work.evolve(shields=tuple(shields)) if shields != list(work.shields) else work

    # -- results (120.3, 120.4c) --------------------------------------------------
    results: list[Result] = list(extra_results)
    if work is not state:  # (its shields changed: a gated field)
        silent = hooks.silent(work)
    asks_results = bool(dealt) and "redzone_damage_results" not in silent
    for damage in dealt:
        base = _default_results(players, objects, damage)
        if not asks_results:
            results.extend(base)
            continue
        # In an order of their own, not the order plugins answered in.
        extra = sorted(hooks.damage_results(work, damage), key=_result_order)
        replaced = {r.replaces for r in extra if r.replaces}
        results.extend(r for r in base if r.kind not in replaced)
        seen: set[Result] = set()
        for r in extra:
            if r not in seen:
                seen.add(r)
                results.append(r)
    for r in results:
        if r.kind == "life_gain":
            results = _merge_life_gain(results)
            # Life gain first, so that floors see the event's net change (120.4 example).
            results.sort(key=lambda r: r.kind != "life_gain")
            break

    # Results are collected and handed back (the caller's working copy keeps
    # them, frozen once); replacement effects see the players as they change
    # and the permanents as the event began.
    applied: list[Result] = []
    changed: dict[str, Permanent] = {}
    changed_players: dict[str, Player] = {}
    # (Asked again after tokens are created: they may bring keywords.)
    asks_replace = bool(results) and "redzone_result_replacements" not in silent
    for result in results:
        current: Result | None = result
        if asks_replace:
            if changed_players:  # (they see the players as they change)
                work, changed_players = work.with_players(changed_players), {}
            current = replace_result(hooks, work, result, choose)
        if current is None or current.amount < 0:
            continue
        if current.amount == 0 and current.kind != "mark":
            continue
        if current.kind == "create":
            if changed or changed_players:
                work = work.with_changes(changed, changed_players)
                changed, changed_players = {}, {}
            work, created = create_tokens(work, current, step)
            applied.append(current)
            events.extend(created)
            asks_replace = hooks.asks("redzone_result_replacements", work)
            continue
        event: Event | None
        if current.kind in _PLAYER_RESULTS:
            event = player_result(work, changed_players, current, step)
        else:
            assert current.target is not None
            perm = changed.get(current.target) or work.objects._items[current.target]
            new, event = permanent_result(perm, current, step)
            if new is not None:
                changed[new.id] = new
        applied.append(current)
        if event is not None:
            events.append(event)
    return work, changed, changed_players, events, tuple(dealt), tuple(applied)


def redirect(hooks: Hooks, state: GameState, damage: Damage, step: str,
             events: list[Event], choose: Chooser | None = None) -> Damage:
    """``damage`` as redirection effects change its recipient (614.9): of
    two or more that would send it to different recipients, the one the
    affected player (the recipient's controller) chooses applies (616.1,
    ``redirect@<source>:<recipient>``; by default the first by effect name),
    then the effects that haven't applied yet are asked again about the
    redirected damage, each at most once (614.5).
    An effect does nothing when its new recipient is no longer on the
    battlefield or no longer a battle, creature or planeswalker, or is a
    player who has left the game, or when the damage would be redirected from
    such a recipient (614.9). Appends a ``redirected`` event to ``events``
    for each redirection that happens."""
    options = hooks.redirect_damage(state, damage)
    applied: set[str] = set()
    while options and damage.amount > 0 and _valid_target(state, damage.target):
        chosen = options[0]
        if choose is not None and len({r.to for r in options}) > 1:
            chosen = _chosen_redirection(state, damage, options, choose)
        applied.add(chosen.effect)
        if chosen.to != damage.target and _valid_target(state, chosen.to):
            events.append(Event.make("redirected", "614.9", step, source=damage.source,
                                     object=damage.target, target=chosen.to,
                                     amount=damage.amount, combat=damage.combat,
                                     replacement=chosen.effect))
            damage = damage.evolve(target=chosen.to)
        # (otherwise 614.9: the effect does nothing)
        options = [r for r in hooks.redirect_damage(state, damage) if r.effect not in applied]
    return damage


def _chosen_redirection(state: GameState, damage: Damage, options: list[Redirection],
                        choose: Chooser) -> Redirection:
    """The redirection of ``damage`` the affected player, or the controller
    (owner) of the permanent it would be dealt to, chooses to apply (616.1)."""
    labels = labelled(options, lambda r: r.effect)
    target = damage.target
    perm = state.objects._items.get(target)
    player = (perm.controller or perm.owner) if perm is not None else target
    names = tuple(labels)
    (label,) = choose(Choice(
        "redirect", player, "option", names, default=names[:1], rule="616.1",
        key=f"redirect@{damage.source}:{target}",
        text=f"which effect redirects {damage.source}'s damage to {target}"))
    return labels[label]


def _result_order(r: Result) -> tuple[str, ...]:
    return (r.kind, r.rule, r.player or "", r.target or "", r.counter or "", r.mark or "",
            r.replaces or "", f"{r.amount:012d}")


def _merge_life_gain(results: list[Result]) -> list[Result]:
    """One life gain per source and player in one damage event (702.15b)."""
    merged: dict[tuple[str, str | None, str], Result] = {}
    out: list[Result] = []
    for r in results:
        if r.kind != "life_gain":
            out.append(r)
            continue
        key = (r.source, r.player, r.rule)
        prior = merged.get(key)
        if prior is None:
            merged[key] = r
            out.append(r)
        else:
            combined = prior.evolve(amount=prior.amount + r.amount)
            merged[key] = combined
            out[out.index(prior)] = combined
    return out


def replace_result(hooks: Hooks, state: GameState, result: Result,
                   choose: Chooser | None) -> Result | None:
    """``result`` as its replacement effects change it (120.4c, 614.1a;
    ``None``: nothing happens). Each applies at most once (614.5); after one
    applies, the others apply only if they still would to what it made,
    and effects that now would are added (616.1f, 616.2: the hook is asked
    again). When two or more apply and their order changes what happens
    (or can't be told: an order a replacement fails in), the affected
    player chooses it (616.1; :func:`_affected`):
    ``result_order@<player or permanent>:<kind>``, the effects named by
    their ``effect``; by default by effect name. An effect that becomes
    applicable as another applies follows the chosen ones, by name."""
    replacements = hooks.result_replacements(state, result)
    if not replacements:
        return result
    order = list(replacements)
    if len(order) > 1 and choose is not None and _result_order_matters(hooks, state, result,
                                                                       order):
        order = _chosen_replacements(state, result, order, choose)
    return _replaced(hooks, state, result, order)


def _replaced(hooks: Hooks, state: GameState, result: Result,
              order: Sequence[ResultReplacement]) -> Result | None:
    """Apply the replacements of ``result`` one at a time: the first of
    ``order`` that still applies to what the ones before made, else the
    first by name of those that have come to apply (616.1f, 616.2), each
    at most once (614.5)."""
    current: Result | None = result
    applied: set[str] = set()
    now: Sequence[ResultReplacement] = order
    while current is not None:
        offered = {r.effect: r for r in now if r.effect not in applied}
        if not offered:
            break
        name = next((r.effect for r in order if r.effect in offered), None)
        if name is None:
            name = next(iter(offered))
        applied.add(name)
        current = offered[name].replace(state, current)
        if current is not None:
            now = hooks.result_replacements(state, current)
    return current


def _result_order_matters(hooks: Hooks, state: GameState, result: Result,
                          order: list[ResultReplacement]) -> bool:
    """Whether applying the replacements of ``order`` in another order
    changes what happens to ``result`` (616.1): nothing (no result, or an
    amount of 0) counts as the same whatever the result; an order in which a
    replacement fails counts as different (it may be the one not chosen)."""
    if len(order) > _MOST_COMPARED:
        return True
    found: object = _NOT_YET
    for each in itertools.permutations(order):
        try:
            current = _replaced(hooks, state, result, each)
        except PluginError:
            return True
        outcome = None if current is None or current.amount < 0 or (
            current.amount == 0 and current.kind != "mark") else (
            current.kind, current.source, current.amount, current.player, current.target,
            current.counter, current.mark, current.token)
        if found is _NOT_YET:
            found = outcome
        elif outcome != found:
            return True
    return False


_NOT_YET: Final = object()


def _affected(state: GameState, result: Result) -> tuple[str, str]:
    """Who a result affects, as its choices name it, and who chooses for it
    (616.1): the player whose life or poison it changes; the player who
    would create the tokens (the source's controller unless it names one);
    else the permanent, and its controller (its owner if it has none)."""
    objects = state.objects._items
    if result.kind in _PLAYER_RESULTS or result.kind == "create" or result.target is None:
        player = result.player
        if player is None:
            source = objects.get(result.source)
            player = (source.controller or source.owner) if source is not None else ""
        return player, player
    perm = objects.get(result.target)
    return result.target, (perm.controller or perm.owner) if perm is not None else ""


def _chosen_replacements(state: GameState, result: Result, order: list[ResultReplacement],
                         choose: Chooser) -> list[ResultReplacement]:
    labels = labelled(order, lambda r: r.effect)
    affected, player = _affected(state, result)
    names = tuple(labels)
    chosen = choose(Choice(
        "result_order", player, "order", names, default=names, min=len(names),
        max=len(names), rule="616.1", key=f"result_order@{affected}:{result.kind}",
        text=f"the order in which the effects on {result.source or 'the'} {result.kind} "
             f"of {affected} apply"))
    return [labels[label] for label in chosen]


def gain_life(hooks: Hooks, state: GameState, player: str, amount: int, source: str,
              rule: str, step: str, choose: Chooser | None = None
              ) -> tuple[dict[str, Player], dict[str, Permanent], list[Event]]:
    """Life gain outside damage, as modified by result replacements (Boon
    Reflection), in the order the player chooses (616.1): the players and
    permanents it changes and its events."""
    result = replace_result(hooks, state, Result("life_gain", rule, source, amount,
                                                 player=player), choose)
    changed: dict[str, Player] = {}
    objects: dict[str, Permanent] = {}
    if result is None or result.amount <= 0:
        return changed, objects, []
    if result.kind in _PLAYER_RESULTS:
        return changed, objects, [player_result(state, changed, result, step)]
    assert result.target is not None
    perm, event = permanent_result(state.objects[result.target], result, step)
    if perm is not None:
        objects[perm.id] = perm
    return changed, objects, [event] if event else []


def lose_life(state: GameState, player: str, amount: int, source: str, rule: str,
              step: str) -> tuple[dict[str, Player], list[Event]]:
    """Life loss that isn't damage (119.3): the players it changes and its event."""
    changed: dict[str, Player] = {}
    change_life(state, changed, player, life=state.players[player].life - amount)
    return changed, [Event("life_loss", rule, step, player=player, amount=amount,
                           source=source)]
