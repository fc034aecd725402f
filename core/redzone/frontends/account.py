"""The human account of a combat: what ``redzone run`` prints.

The board before, each step with what happened and the rule behind it
(attacks, blocks, every creature's damage assignment with the lethal damage
its controller had to consider, damage, prevention, results, state-based
actions), then the board after. Written with :mod:`rich`: in colour on a
terminal, plain text when piped. Everything here reads the events and states
the engine produced; it knows no keyword by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console

from redzone.formats import explanation
from redzone.formats.citations import CITATIONS, EQUIVALENTS, cite, era_rule
from redzone.formats.outcome import (
    AssignmentRecord,
    Finding,
    Resolution,
    error_json,
)
from redzone.formats.scenario import Scenario, ScenarioProblems
from redzone.frontends.terminal import Text
from redzone.kernel import display
from redzone.kernel import events as _events
from redzone.kernel.engine import ASSIGNED, Engine
from redzone.kernel.errors import IllegalActionError, IllegalAssignmentError, ScenarioError
from redzone.kernel.events import Event
from redzone.kernel.model import UNLIMITED, Effect, GameState, Permanent
from redzone.kernel.results import DamageStepRecord

RULE = "cyan"
DIM = "dim"
HEAD = "bold"
BAD = "bold red"
GOOD = "green"
HURT = "red"
SBA = "magenta"

#: A step's label: its first occurrence's, then its combat and turn (``#2@3``).
_STEP_SUFFIX = re.compile(r"(.*?)((?:[#@]\d+)*)")

#: The terminal's style for each tone of the event vocabulary.
TONE_STYLES: Mapping[str, str | None] = {"plain": None, "harm": HURT, "help": GOOD,
                                         "quiet": DIM, "rules": SBA, "loss": BAD}


def describe_effect(kind: str, name: Callable[[str | None], str], *,
                    player: str | None = None, to: str | None = None,
                    source: str | None = None, amount: int | None = None) -> str:
    """A continuous effect in words (:func:`redzone.kernel.events.effect_text`)."""
    return _events.effect_text(kind, name, player=player, to=to, source=source, amount=amount)


#: Readable names for ids, from every state of the combat (the vocabulary's).
Names = _events.Names


def _line(console: Console, *parts: str | tuple[str, str] | Text, indent: int = 0,
          rule: str | None = None) -> None:
    text = Text(" " * indent)
    for part in parts:
        if isinstance(part, Text):
            text.append_text(part)
        elif isinstance(part, tuple):
            text.append(part[0], style=part[1])
        else:
            text.append(part)
    if rule:
        text.append(f"  [{rule}]", style=RULE)
    console.print(text, soft_wrap=True)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------


#: Restrictions and requirements a permanent's own fields say, in words.
_FLAG_TEXTS: Sequence[tuple[str, str]] = (
    ("cant_attack", "can't attack"),
    ("cant_block", "can't block"),
    ("cant_be_blocked", "can't be blocked"),
    ("attacks_if_able", "attacks each combat if able"),
    ("blocks_if_able", "blocks each combat if able"),
    ("must_be_blocked", "must be blocked if able"),
    ("lure", "all creatures able to block it do so"),
)


def describe_permanent(perm: Permanent) -> Text:
    """One permanent: name, id, power/toughness, keywords, damage, counters."""
    text = Text(perm.name, style=HEAD)
    if perm.name != perm.id:
        text.append(f" ({perm.id})", style=DIM)
    bits: list[str] = []
    if perm.base_power is not None or perm.base_toughness is not None:
        bits.append(f"{perm.power}/{perm.toughness}")
    kinds = [t for t in ("artifact", "enchantment", "land", "creature", "planeswalker", "battle")
             if t in perm.types]
    if kinds != ["creature"]:
        bits.append(" ".join(kinds))
    if perm.loyalty is not None:
        bits.append(f"loyalty {perm.loyalty}")
    if perm.defense is not None:
        bits.append(f"defense {perm.defense}")
    if perm.keywords:
        bits.append(", ".join(k.text for k in perm.keywords))
    if perm.damage:
        bits.append(f"{perm.damage} damage marked")
    other = {k: v for k, v in perm.counters.items() if k not in ("loyalty", "defense")}
    if other:
        bits.append(", ".join(f"{v} {k} counter{'s' if v != 1 else ''}"
                              for k, v in sorted(other.items())))
    if perm.supertypes:
        bits.append(" ".join(sorted(perm.supertypes)))
    if perm.can_block_additional:
        bits.append("can block any number of creatures" if perm.can_block_additional >= UNLIMITED
                    else f"can block {perm.can_block_additional} additional")
    bits.extend(text for flag, text in _FLAG_TEXTS if getattr(perm, flag))
    if perm.min_blockers > 1:
        bits.append(f"can't be blocked except by {perm.min_blockers} or more creatures")
    if perm.tapped:
        bits.append("tapped")
    if perm.summoning_sick:
        bits.append("summoning sick")
    if bits:
        text.append(": " + "; ".join(bits))
    if perm.zone != "battlefield":
        text.append(f"  ({_events.zone_text(perm.zone)})", style=HURT)
    return text


def render_board(console: Console, state: GameState, title: str) -> None:
    """The players and their permanents; in team play, each team first with
    its shared life total (810.4, 810.9) and poison counters (810.10)."""
    _line(console, (title, "bold underline"))
    for team, members in state.teams.items():
        _line(console, "  team ", (team, HEAD),
              f" ({', '.join(members)}): {display.team_text(state, members)}",
              rule=era_rule(state.rules, "810.4"))
    for player in state.players.values():
        text = Text("  ")
        text.append(player.id, style=HEAD)
        text.append(f": {player.life} life")
        if player.poison:
            text.append(f", {_plural(player.poison, 'poison counter')}")
        if player.id == state.active_player:
            text.append("  (active player)", style=DIM)
        if player.lost:
            reason = _events.reason(player.loss_rule or "")
            text.append(f"  LOST THE GAME{f' ({reason})' if reason else ''}", style=BAD)
            if player.loss_rule:
                text.append(f"  [{era_rule(state.rules, player.loss_rule)}]", style=RULE)
        console.print(text, soft_wrap=True)
        mine = [p for p in state.objects.values()
                if (p.controller if p.zone == "battlefield" else p.owner) == player.id]
        for perm in mine:
            console.print(Text("    ") + describe_permanent(perm), soft_wrap=True)
        if not mine:
            _line(console, ("    no permanents", DIM))
    if state.effects:
        name = Names([state])
        _line(console, "  Continuous effects:")
        for effect in state.effects:
            _line(console, "    " + describe_effect(effect.kind, name, player=effect.player,
                                                    to=effect.to, source=effect.source,
                                                    amount=effect.amount))


# ---------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------


def describe_event(event: Event, name: Callable[[str | None], str]
                   ) -> tuple[str, str | None]:
    """A sentence for an event (its kind's phrase in the event vocabulary,
    :func:`redzone.kernel.events.phrase`), and the style of its tone."""
    return _events.phrase(event, name), TONE_STYLES.get(_events.tone(event))


def _record_lines(console: Console, records: Sequence[AssignmentRecord], name: Names,
                  rules: str = "foundations") -> None:
    _line(console, ("Combat damage assignment: each creature assigns damage equal to its "
                    "power; the lethal damage shown counts damage already marked and damage "
                    "assigned to that creature by those listed before it", DIM), indent=4,
          rule=cite(rules, "assignment"))
    for rec in records:
        if rec.is_attacker and not rec.blocked:
            role = f"unblocked, attacking {name(rec.attacked)}"
            rule = cite(rules, "unblocked")
        elif rec.is_attacker:
            role = "blocked by " + (", ".join(name(c) for c in rec.creatures) or "no creature")
            if rec.attacked is not None:
                role += f"; may assign the rest to {name(rec.attacked)}"
            rule = cite(rules, "blocked")
        else:
            role = "blocking " + ", ".join(name(c) for c in rec.creatures)
            rule = cite(rules, "blocking")
        if rec.additional:
            role += "; may also assign to " + ", ".join(name(r) for r in rec.additional)
        how = "as the scenario assigns" if rec.given else "default assignment"
        if rec.divider is not None:
            # 702.22j-k: the opposing player divides it, freely, among the creatures.
            how += f", divided by {name(rec.divider)} as they choose"
            rule = era_rule(rules, "702.22j" if rec.is_attacker else "702.22k")
        _line(console, "• ", (name(rec.source), HEAD), f" (power {rec.power}, {role}), {how}:",
              indent=4, rule=rule)
        for recipient, amount in rec.amounts.items():
            lethal = (rec.lethal_before or rec.lethal).get(recipient) \
                if rec.divider is None else None
            extra = f"  (lethal: {lethal})" if lethal is not None else ""
            _line(console, f"{amount} to {name(recipient)}", (extra, DIM), indent=8)
        if not rec.amounts:
            _line(console, ("nothing", DIM), indent=8)


def _show_record(console: Console, steps: Sequence[DamageStepRecord], step: str,
                 shown: set[str], name: Names, rules: str) -> None:
    """The assignment record of the damage step whose events are of ``step``
    (:meth:`~redzone.DamageStepRecord.shows`), once."""
    for record in steps:
        if record.label not in shown and record.shows(step):
            shown.add(record.label)
            _record_lines(console, record.assignments, name, rules)
            return


def _replacement_note(event: Event, dealt: Mapping[tuple[str, str], int],
                      effects: Sequence[Effect],
                      name: Names, assigned: Mapping[tuple[str, str], int] | None = None,
                      prevented: Mapping[tuple[str, str], int] | None = None,
                      rules: str = "foundations") -> str:
    """Why damage dealt differs from damage assigned, or a player's life loss
    from the damage dealt to them: the damage prevented (615.1a) and the
    replacement effects in force that apply (614.1a).

    :param prevented: the combat damage prevented in this step, by source
        and recipient (the ``prevented`` events before the damage).
    :param rules: the rules edition, whose numbers the note cites.
    """
    if event.kind == "damage" and assigned is not None and event.source and event.target:
        was = assigned.get((event.source, event.target))
        if was is None or was == event.amount or not event.combat:
            return ""
        stopped = (prevented or {}).get((event.source, event.target), 0)
        why = [f"{stopped} prevented [{era_rule(rules, '615.1a')}]"] if stopped else []
        if was - stopped != event.amount:
            found = [describe_effect(e.kind, name, source=e.source)
                     for e in effects if e.kind == "double_damage"
                     and e.source in (None, event.source)]
            why.append(_replaced(found, rules))
        return f" (assigned {was}: {'; '.join(why)})"
    if event.kind != "life_loss" or event.player is None or not event.rule.startswith("120."):
        return ""
    total = dealt.get((event.source or "", event.player))
    if total is None or total == event.amount:
        return ""
    found = [describe_effect(e.kind, name, player=e.player, to=e.to, source=e.source,
                             amount=e.amount)
             for e in effects if e.kind == "life_floor" and e.player == event.player]
    return f" (not {total}: {_replaced(found, rules)})"


def _replaced(found: Sequence[str], rules: str) -> str:
    """A replacement effect applying, with the effects found that do, and
    its rule as the edition ``rules`` numbers it (614.1a)."""
    what = "; ".join(found) if found else "a replacement effect"
    return f"a replacement effect applies: {what} [{era_rule(rules, '614.1a')}]"


def _step_label(step: str) -> tuple[str, str]:
    """A step's label as its first occurrence's and the combat and turn it
    is in: ``("combat_damage", "#2@3")`` for ``combat_damage#2@3``."""
    match = _STEP_SUFFIX.fullmatch(step)
    return (match.group(1), match.group(2)) if match else (step, "")


def _no_attack_shown(events: Sequence[Event], index: int, step: str) -> bool:
    """Whether the declare attackers step ``step`` (its step event at
    ``index``) is one with no attacker (508.8) as far as the events show:
    combat went on past it (to a step after it), or no creature was
    declared as an attacker or put onto the battlefield attacking in it."""
    if any(e.kind == "step" and e.step != step for e in events[index + 1:]):
        return True
    return not any(e.step == step and e.kind in ("attack", "enters_attacking") for e in events)


def render_events(console: Console, events: Sequence[Event],
                  records: Sequence[AssignmentRecord], name: Names, *,
                  rules: str = "foundations", engine: Engine | None = None,
                  effects: Sequence[Effect] = (),
                  steps: Sequence[DamageStepRecord] | None = None) -> None:
    """Each step, with what happened in it and the rule behind it.

    :param records: the damage steps' assignment records, shown in the first
        step of their name that assigns (without ``steps``).
    :param rules: the rules edition, whose numbers the account's own lines cite.
    :param engine: the engine, whose damage steps title the steps plugins declare.
    :param effects: the game's continuous effects, to name replacement effects.
    :param steps: the damage steps' records, each shown in the step its
        label names (its combat and turn: ``combat_damage#2@3``), instead of
        ``records``.
    """
    # Damage dealt by each source to each recipient in this step, to explain a
    # life loss that differs from it (a replacement effect, 614.1a); damage
    # assigned and prevented (615.1a), to explain damage dealt that differs
    # from what was assigned.
    dealt: dict[tuple[str, str], int] = {}
    assigned: dict[tuple[str, str], int] = {}
    prevented: dict[tuple[str, str], int] = {}
    current = None
    label, occurrence = "", ""
    shown: set[str] = set()
    destroyed: set[str] = set()
    for index, event in enumerate(events):
        if event.kind == "destroyed" and event.object is not None:
            destroyed.add(event.object)
        if event.kind == "dies" and event.object in destroyed:
            _line(console, "• ", (f"{name(event.object)} is put into its owner's graveyard",
                                  DIM), indent=2, rule=era_rule(rules, event.rule))
            continue
        if event.kind == "damage" and event.target is not None:
            key = (event.source or "", event.target)
            dealt[key] = dealt.get(key, 0) + (event.amount or 0)
        if event.kind == "step" or event.step != current:
            if event.step != current:
                previous, current = current, event.step
                # a second combat's or turn's step is its step: ``draw@3``
                label, occurrence = _step_label(current)
                # damage assigned on the stack (1999-2009) is dealt in the next step
                dealt, prevented = {}, {}
                if previous != label + ASSIGNED + occurrence:
                    assigned = {}
                title, step_rule = _events.step_title(
                    current, engine.damage_step if engine is not None else None)
                if label in CITATIONS["foundations"]:
                    step_rule = cite(rules, label)
                console.print()
                _line(console, (title, "bold yellow"), rule=step_rule or None)
            if event.kind == "step":
                # 508.8: skipped only when no creature was declared as an
                # attacker or put onto the battlefield attacking: the step the
                # events show next, not the attack events, says whether it was;
                # but events that end in this step (an illegal block rejected,
                # 733) say nothing of it, and its attacks then say it.
                suffix = current.removeprefix("declare_attackers")  # ("#2", "@3")
                if suffix != current and suffix[:1] in ("", "#", "@") and not any(
                        e.kind == "step" and e.step == "declare_blockers" + suffix
                        for e in events) and _no_attack_shown(events, index, current):
                    _line(console, ("no creature attacks: the declare blockers and combat "
                                    "damage steps are skipped", DIM), indent=2,
                          rule=cite(rules, "no_attackers"))
                damage_step = label.removesuffix(ASSIGNED)
                if damage_step.endswith("_damage") and \
                        not any(e.kind == "assign" and e.step in (
                            current, damage_step + ASSIGNED + occurrence)
                            for e in events):
                    _line(console, ("no creature assigns combat damage in this step", DIM),
                          indent=2, rule=cite(rules, "no_assignment"))
                continue
        if event.kind == "assign":
            if event.source is not None and event.target is not None:
                key = (event.source, event.target)
                assigned[key] = assigned.get(key, 0) + (event.amount or 0)
            if steps is not None:
                _show_record(console, steps, event.step, shown, name, rules)
                continue
            base = event.step.removesuffix(ASSIGNED)
            if base not in shown:
                shown.add(base)
                _record_lines(console, [r for r in records if r.step == base], name, rules)
            continue
        if event.kind == "removed_from_combat" and event.rule == "506.4" and (
                event.object in destroyed or event.step == "end_of_combat"):
            continue  # it left the battlefield: the next line says so
        if event.kind == "prevented" and event.combat and event.target is not None:
            key = (event.source or "", event.target)
            prevented[key] = prevented.get(key, 0) + (event.amount or 0)
        sentence, style = describe_event(event, name)
        sentence += _replacement_note(event, dealt, effects, name, assigned, prevented,
                                      rules)
        if event.kind == "life_loss" and event.player is not None:
            dealt.pop((event.source or "", event.player), None)
        marker = "state-based action: " if event.rule.startswith("704.") else ""
        _line(console, "• ", (marker, SBA) if marker else "", (sentence, style or ""),
              indent=2, rule=era_rule(rules, event.rule))


# ---------------------------------------------------------------------------
# Whole accounts
# ---------------------------------------------------------------------------


def _header(console: Console, scenario: Scenario) -> None:
    edition = scenario.engine.edition
    _line(console, ("redzone", "bold"), f" · {scenario.file} · rules: ",
          (edition.name, HEAD), (f" · {edition.title}", DIM))
    console.print()


def render_resolution(console: Console, res: Resolution) -> None:
    """The whole account of a resolved (or rejected) combat."""
    scenario = res.scenario
    final = res.result.state if res.result is not None else None
    name = Names([scenario.state, final, res.failed_state])
    _header(console, scenario)
    render_board(console, scenario.state, "Before combat")
    render_events(console, res.events, res.assignments, name, rules=scenario.rules,
                  engine=scenario.engine, effects=scenario.state.effects,
                  steps=res.damage_steps or None)
    console.print()
    if res.error is not None:
        render_error(console, res.error, name, scenario.rules)
        illegal = cite(scenario.rules, "illegal")
        _line(console, ("The state is left as it was before the illegal "
                        f"declaration, assignment or action ({illegal}).", DIM), rule=illegal)
        console.print()
        render_explanation(console, res, name)
        return
    assert final is not None
    render_board(console, final, "After combat")
    _summary(console, scenario.state, final)


def _summary(console: Console, before: GameState, after: GameState) -> None:
    bits = []
    for pid, player in after.players.items():
        was = before.players[pid]
        if player.life != was.life:
            bits.append(f"{pid} {was.life} -> {player.life} life")
        if player.poison != was.poison:
            bits.append(f"{pid} {was.poison} -> {player.poison} poison")
        if player.lost and not was.lost:
            bits.append(f"{pid} lost the game")
    gone = [p.name for p in after.objects.values()
            if p.zone != "battlefield" and before.objects.get(p.id) is not None
            and before.objects[p.id].zone == "battlefield"]
    if gone:
        bits.append("left the battlefield: " + ", ".join(gone))
    console.print()
    _line(console, ("Result: ", HEAD), "; ".join(bits) if bits else "nothing changed")


def render_error(console: Console, error: BaseException, name: Names | None = None,
                 rules: str = "") -> None:
    """An error: kind, rule, every violation or problem; the rules as the
    edition ``rules`` numbers them."""
    if isinstance(error, ScenarioProblems):
        _line(console, ("bad scenario: ", BAD), f"{len(error.problems)} problem"
              f"{'s' if len(error.problems) != 1 else ''} in {error.file or '<scenario>'}")
        for p in error.problems:
            where = f"line {p.line}: " if p.line else ""
            key = f"{p.key}: " if p.key else ""
            _line(console, "• ", (where, DIM), (key, HEAD), p.detail, indent=2)
        return
    if isinstance(error, ScenarioError):
        _line(console, ("bad scenario: ", BAD), str(error))
        return
    if isinstance(error, IllegalActionError):
        _line(console, (f"{error.kind.replace('_', ' ')}: ", BAD),
              "rejected as a whole", rule=era_rule(rules, error.rule) if error.rule else None)
        for v in error.violations:
            _line(console, "• ", v.message, indent=2,
                  rule=era_rule(rules, v.rule) if v.rule else None)
        return
    _line(console, ("error: ", BAD), str(error))


def render_problems(console: Console, error: ScenarioError) -> None:
    """A bad scenario file's problems."""
    render_error(console, error)


# ---------------------------------------------------------------------------
# Explanations: what would be legal instead
# ---------------------------------------------------------------------------


def render_explanation(console: Console, res: Resolution, name: Names | None = None) -> None:
    """For an illegal declaration, assignment or action: the rule, the objects,
    and what would be legal instead (:func:`redzone.formats.explanation.explain`)."""
    if res.error is None:
        _line(console, ("Nothing illegal: the combat resolves.", GOOD))
        return
    name = name or Names([res.scenario.state, res.failed_state])
    _line(console, ("What would be legal instead", "bold underline"))
    styles = {explanation.NAME: HEAD, explanation.GOOD: GOOD, explanation.NOTE: DIM}
    rules = res.scenario.rules
    for line in explanation.explain(res, name):
        parts = [(text, styles[role]) if role in styles else text for text, role in line.parts]
        _line(console, *(["• "] if line.bullet else []), *parts, indent=2 * line.depth,
              rule=era_rule(rules, line.rule) if line.rule else line.rule)


def explanation_json(res: Resolution) -> dict[str, Any]:
    """``redzone explain --json``: ``ok``, ``rules``, the error object of the
    format (or ``null``), and the explanation as ``lines``, each with its
    ``text``, its ``rule`` (or ``null``) and its ``depth`` (0 for a heading):
    the lines :func:`redzone.formats.explanation.explain` gives, with the
    objects' names as they are (a name is never read as a rule)."""
    if res.error is None:
        heading = "Nothing illegal: the combat resolves."
        found: tuple[explanation.Line, ...] = ()
    else:
        heading = "What would be legal instead"
        found = explanation.explain(res, Names([res.scenario.state, res.failed_state]))
    rules = res.scenario.rules
    lines: list[dict[str, Any]] = [{"text": heading, "rule": None, "depth": 0}]
    lines += [{"text": line.text, "rule": era_rule(rules, line.rule) if line.rule else None,
               "depth": line.depth} for line in found]
    return {"ok": res.error is None, "rules": res.scenario.rules,
            "error": None if res.error is None else error_json(res.error)["error"],
            "failed": res.failed, "lines": lines}


def render_check(console: Console, scenario: Scenario, findings: Sequence[Finding]) -> None:
    """The result of ``redzone check``."""
    _header(console, scenario)
    if not findings:
        _line(console, ("OK: ", GOOD), "the file is valid; the attack, the blocks, every "
              "combat damage step's assignments and the actions are legal")
        return
    name = Names([scenario.state])
    stages = {"attacks": "The declaration of attackers", "blocks": "The declaration of blockers",
              "assign": "A combat damage step's assignment",
              "actions": "An action in a priority window"}
    for finding in findings:
        _line(console, (stages.get(finding.stage, finding.stage), HEAD), " is illegal:")
        render_error(console, finding.error, name, scenario.rules)
    if any(isinstance(f.error, IllegalAssignmentError) for f in findings):
        _line(console, ("  (run `redzone explain` for the lethal amounts and a legal "
                        "assignment)", DIM))


__all__ = [
    "CITATIONS",
    "EQUIVALENTS",
    "Names",
    "cite",
    "describe_effect",
    "describe_event",
    "describe_permanent",
    "era_rule",
    "explanation_json",
    "render_board",
    "render_check",
    "render_error",
    "render_events",
    "render_explanation",
    "render_problems",
    "render_resolution",
]
