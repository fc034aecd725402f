"""The conformance kit: properties every keyword plugin must keep.

A keyword author runs it against their plugin; hypothesis generates boards
(two players, a few creatures with the plugin's keywords mixed with every
other loaded keyword, marked damage, a planeswalker and a battle now and
then) and declarations. The kit plays each combat, then the end step,
cleanup and the beginning of the next turn; beside each command it tries
each option of each choice, and in the declare blockers step and after
combat each action kind and activated ability of the plugin
(:mod:`redzone.testing.turns`). Each invariant is checked on all of it:

``keyword-metadata``
    The plugin declares its keywords; every printed example parses back to
    its keyword; hookimpls take no parameter defaults; the module docstring's
    first line names the keyword.
``no-exception-escapes``
    Whatever the board and the declaration, a command either works or
    raises an :class:`~redzone.IllegalActionError`; queries never raise.
``illegal-command-leaves-state-unchanged``
    A rejected declaration or assignment leaves the state exactly as it
    was (733), cites a rule, and the matching query reported the same
    violations the command raised.
``order-independent``
    Results do not depend on the order plugins are registered and called
    in, nor on how often the combat is resolved.
``damage-conserved``
    Each creature assigns exactly its power, or what a keyword it has says
    (510.1a); every difference between what a source was assigned to deal
    to a recipient and what it dealt is explained by an event: ``redirected``
    (614.9), ``prevented`` (615) or ``modified`` (614.1a; a keyword's
    modification is of damage its source or recipient deals or is dealt); a
    creature gets no more damage marked than it was dealt (120.3e). Checked
    with the default assignments, and again with the division the board's
    drawn assignment weighs, wherever that division is legal (510.1c-e).
``events-accounted-for``
    Life, poison, counters, zones and new objects all changed by exactly what
    the events say; every id an event names exists.
``default-assignment-legal``
    For legal declarations, the engine's default assignment breaks none of
    the plugin's assignment rules (so a scenario without ``assign`` works).

Every failure is a :class:`ConformanceError` (an :class:`AssertionError`)
that names the invariant, the plugin, what broke, the generated board
(shrunk by hypothesis to a small one) and the same board as a scenario file
to rerun with ``redzone run``.

With pytest, subclass :class:`KeywordConformance`; elsewhere call
:func:`check_conformance`.

The boards are the same on every run (``derandomize``), unless they are
asked for new ones each run: by ``derandomize=False``, or, when
``derandomize`` is left unset, by a hypothesis settings profile registered
under the name :data:`PROFILE` (a project's test suite that wants new boards
on every run registers it, ``derandomize=False``, beside its own profiles).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import pickle
import random
import traceback
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cached_property
from types import ModuleType
from typing import Any, ClassVar, Final

from attrs import field, frozen
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import FlakyFailure, InvalidArgument

from redzone.kernel.combat import Duty
from redzone.kernel.editions import get_edition
from redzone.kernel.engine import Engine
from redzone.kernel.errors import (
    IllegalActionError,
    PicklesByFields,
    PluginError,
    UnknownKeywordError,
)
from redzone.kernel.events import Event, leaves_battlefield
from redzone.kernel.frozen import as_map
from redzone.kernel.hooktypes import Damage
from redzone.kernel.model import GameState, Player
from redzone.kernel.plugins import PluginInfo, _distribution_of, discover
from redzone.testing.boards import describe_board, scenario_toml
from redzone.testing.turns import Variant, choice_variants, plugin_variants, rest_of_turn

#: Every invariant the kit checks, with the sentence a failure quotes.
INVARIANTS: Final[Mapping[str, str]] = {
    "keyword-metadata": "the plugin declares its keywords and documents them (702.1)",
    "no-exception-escapes":
        "commands raise only IllegalActionError and queries never raise, through the combat, "
        "the end step, cleanup and the next turn, with every option of every choice, the "
        "plugin's actions and its activated abilities (733, 601.2, 117.1, 602.2)",
    "illegal-command-leaves-state-unchanged":
        "a rejected command leaves the state unchanged, cites a rule and agrees with its "
        "query; an ability is activated only from what has it (733, 602.1)",
    "order-independent": "results don't depend on plugin registration order (616.1, 733)",
    "damage-conserved":
        "each creature assigns its power or what its keywords say (510.1a); every "
        "difference between assigned and dealt damage has its event: redirected (614.9), "
        "prevented (615), modified (614.1a, by its keyword's objects); marked damage is at "
        "most the damage dealt (120.3e)",
    "events-accounted-for":
        "every change to the state is accounted for by an event, on the played line and "
        "on every variant of it (603.2)",
    "default-assignment-legal": "the default damage assignment is legal (510.1e)",
}

_ASSIGNED: Final = "_assigned"
_MAX_STEPS: Final = 16

#: The name of the hypothesis settings profile the kit reads, when one is
#: registered (``settings.register_profile``), for what ``derandomize`` left
#: unset means: its ``derandomize``, and its ``database`` for random boards.
#: Unregistered, the boards are the same on every run.
#:
#: .. versionadded:: 0.1.0
PROFILE: Final = "redzone-conformance"


class ConformanceError(PicklesByFields, AssertionError):
    """A plugin broke an invariant of the conformance kit.

    :ivar invariant: the invariant's name (a key of :data:`INVARIANTS`).
    :ivar plugin: the plugin's name.
    :ivar detail: what broke.
    :ivar board: the generated board and declaration, described.
    :ivar scenario: the same board as a scenario file (TOML).

    .. versionadded:: 0.1.0
    """

    def __init__(self, invariant: str, plugin: str, detail: str, *, board: str = "",
                 scenario: str = "") -> None:
        self.invariant = invariant
        self.plugin = plugin
        self.detail = detail
        self.board = board
        self.scenario = scenario
        lines = [f"invariant {invariant!r} broken by plugin {plugin!r}: "
                 f"{INVARIANTS.get(invariant, invariant)}", f"  {detail}"]
        if board:
            lines += ["on the generated board:", _indent(board)]
        if scenario:
            lines += ["as a scenario file (rerun with `redzone run FILE`):", _indent(scenario)]
        super().__init__("\n".join(lines))


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.splitlines())


# ---------------------------------------------------------------------------
# Generated combats
# ---------------------------------------------------------------------------


@frozen(repr=False)
class Case:
    """A generated board and declaration.

    :param state: the board before combat.
    :param attacks: attacking creature -> what it attacks.
    :param blocks: blocking creature -> the attacker it blocks.
    :param assign: combat damage assignments (``None``: the default policy).
    """

    state: GameState
    attacks: Mapping[str, str] = field(converter=as_map)
    blocks: Mapping[str, str] = field(converter=as_map)
    assign: Mapping[str, Mapping[str, int]] | None = None

    def describe(self) -> str:
        """The board and declaration, a few lines."""
        return describe_board(self.state, self.attacks, self.blocks, self.assign)

    def scenario(self) -> str:
        """The board and declaration as a scenario file."""
        return scenario_toml(self.state, self.attacks, self.blocks, self.assign)

    def __repr__(self) -> str:
        return "Case(\n" + _indent(self.describe()) + "\n)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """How hypothesis shows a falsifying case: as :meth:`__repr__` (the
        board, described in a few lines), not field by field (every field of
        the state, the keyword set included)."""
        printer.text(repr(self))


#: The players of generated boards, in turn order (the first attacks).
PLAYER_IDS = ("alice", "bob", "carol", "dave")


@st.composite
def cases(draw: st.DrawFn, engine: Engine, keywords: Sequence[str],
          others: Sequence[str] = (), *, max_attackers: int = 3,
          max_blockers: int = 3, players: int = 2) -> Case:
    """A hypothesis strategy for boards and declarations.

    Alice attacks Bob, Bob's planeswalker (306) or a battle Bob protects
    (310: a Siege of Alice's, 310.11a); with ``players`` above 2 (up to 4: a
    multiplayer game, 802), each attacker attacks one of the opponents,
    their planeswalkers or a battle one of them protects, and each
    opponent's creatures block the attackers attacking that player or what
    that player defends (506.2, 508.1b). Creatures often carry one of
    ``keywords`` and sometimes one of ``others``; some have damage marked,
    some are tapped or summoning sick, so declarations are sometimes illegal.
    Assignments, when drawn, are arbitrary (mostly illegal).

    :param engine: the engine whose plugins parse the keywords.
    :param keywords: printed keywords of the plugin under test.
    :param others: printed keywords to mix in.
    :param players: how many players (2 to 4).
    """
    if not 2 <= players <= len(PLAYER_IDS):
        raise ValueError(f"players must be 2 to {len(PLAYER_IDS)}, not {players!r}")
    seated = PLAYER_IDS[:players]
    opponents = seated[1:]

    def keyword_list() -> list[str]:
        chosen: list[str] = []
        if keywords and draw(st.integers(0, 2)) > 0:
            chosen.append(draw(st.sampled_from(keywords)))
        if others and draw(st.integers(0, 2)) == 0:
            chosen.append(draw(st.sampled_from(others)))
        return list(dict.fromkeys(chosen))

    def creature(id: str, controller: str) -> Any:
        power = draw(st.integers(0, 6))
        toughness = draw(st.integers(1, 6))
        damage = draw(st.integers(0, toughness - 1)) if draw(st.integers(0, 4)) == 0 else 0
        tapped = draw(st.integers(0, 9)) == 0
        sick = draw(st.integers(0, 9)) == 0
        return engine.creature(id, controller, power, toughness, *keyword_list(),
                               damage=damage, tapped=tapped, summoning_sick=sick)

    n_att = draw(st.integers(1, max_attackers))
    n_blk = draw(st.integers(0, max_blockers))
    perms = [creature(f"a{i + 1}", "alice") for i in range(n_att)]
    targets = list(opponents)
    defending = {p: p for p in opponents}
    if draw(st.integers(0, 3)) == 0:  # 306: a planeswalker, attacked (508.1b)
        owner = draw(st.sampled_from(opponents))
        loyalty = draw(st.integers(1, 5))
        perms.append(engine.permanent("pw", owner, types=("planeswalker",),
                                      counters={"loyalty": loyalty}, printed_loyalty=loyalty))
        targets.append("pw")
        defending["pw"] = owner
    if draw(st.integers(0, 3)) == 0:
        # 310: a Siege the active player controls, protected by an opponent
        # (310.11a), attacked like a planeswalker; its protector defends it
        # (506.2, 508.1b) and its protector's creatures block for it (310.8).
        protector = draw(st.sampled_from(opponents))
        defense = draw(st.integers(1, 5))
        perms.append(engine.permanent("siege", "alice", types=("battle",), subtypes=("Siege",),
                                      counters={"defense": defense}, printed_defense=defense,
                                      protector=protector))
        targets.append("siege")
        defending["siege"] = protector
    blockers = []
    for i in range(n_blk):
        # Two players: b1, b2 ... as before; more: each opponent's own.
        controller = "bob" if players == 2 else draw(st.sampled_from(opponents))
        blockers.append(creature(f"b{i + 1}", controller))
    perms += blockers
    seats = [Player(pid, life=draw(st.integers(1, 20))) for pid in seated]
    state = engine.game(seats, perms)
    attackers = [p.id for p in perms if p.id.startswith("a")]
    attacks = {a: draw(st.sampled_from(targets)) for a in attackers
               if draw(st.integers(0, 4)) > 0}
    blocks = {}
    if attacks:
        for blocker in blockers:
            mine = sorted(a for a, t in attacks.items()
                          if defending[t] == blocker.controller) or sorted(attacks)
            if draw(st.booleans()):
                blocks[blocker.id] = draw(st.sampled_from(mine))
    assign = None
    if draw(st.integers(0, 2)) == 0 and attacks:
        ids = sorted([*attacks, *blocks, *targets])
        assign = {src: {dst: draw(st.integers(0, 6))
                        for dst in draw(st.lists(st.sampled_from(ids), max_size=3, unique=True))}
                  for src in draw(st.lists(st.sampled_from(sorted([*attacks, *blocks])),
                                           max_size=2, unique=True))}
    return Case(state, attacks, blocks, assign)


# ---------------------------------------------------------------------------
# The subject: a plugin and the engines it is checked in
# ---------------------------------------------------------------------------


class Subject:
    """A plugin under test, with the engines the invariants run it in.

    :param plugin: the plugin (a module with hookimpls, usually); ``None``
        puts every discovered plugin under test at once (boards then mix all
        their keywords).
    :param builtins: also load every discovered plugin (the built-in keywords
        and other installed packages), as users will.
    :param rules: the rules edition.
    :param others: printed keywords to mix into boards; default: every other
        keyword the engine knows (its name, or its documented examples).
    :param extra_plugins: more plugins to load alongside (a companion plugin
        of the same package, say).
    :param siblings: with ``builtins``, also load the other plugins of the
        plugin's own distribution; ``False`` checks the plugin alone against
        the built-in keywords (and other distributions' plugins).
    :param players: the players of generated boards (2 to 4).

    Its engines run in verify mode: a plugin that changes what it is given
    fails with a :class:`~redzone.PluginError` naming it.
    """

    def __init__(self, plugin: object | None, *, builtins: bool = True,
                 rules: str = "foundations", others: Sequence[str] | None = None,
                 extra_plugins: Sequence[object] = (), siblings: bool = True,
                 players: int = 2) -> None:
        self.plugin = plugin
        self.rules = rules
        self.builtins = builtins
        self.players = players
        edition = get_edition(rules)
        infos = list(discover(block=edition.replaces)) if builtins else []
        mine = [i for i in infos if i.module is plugin]
        if not siblings and plugin is not None:
            dist = mine[0].distribution if mine else _distribution_of(plugin)[0]
            if dist:
                infos = [i for i in infos if i.module is plugin or i.distribution != dist]
        if plugin is None:
            self.under_test = list(infos)
        elif mine:
            self.under_test = mine[:1]
        else:
            name = getattr(plugin, "__name__", None) or type(plugin).__name__
            infos.append(PluginInfo(str(name), plugin))
            self.under_test = infos[-1:]
        for extra in extra_plugins:
            if not any(i.module is extra for i in infos):
                name = getattr(extra, "__name__", None) or type(extra).__name__
                infos.append(PluginInfo(str(name), extra))
        self.infos = sorted(infos, key=lambda i: i.name)
        self._others = None if others is None else tuple(others)
        #: The variants :func:`explore` found, by case.
        self.explored: dict[tuple[Any, ...], tuple[Variant, ...]] = {}

    @property
    def name(self) -> str:
        """The plugin's name (or a description of the plugins under test)."""
        if self.plugin is None:
            return "every discovered plugin"
        return self.under_test[0].name

    @property
    def names(self) -> frozenset[str]:
        """The names of the plugins under test."""
        return frozenset(i.name for i in self.under_test)

    def engine_in_order(self, order: Sequence[int]) -> Engine:
        """An engine whose plugins are called in ``order`` (indexes into
        :attr:`infos`): registration and call order follow the names, so each
        plugin is renamed with its position as a prefix."""
        renamed = [PluginInfo(f"{pos:03d}.{self.infos[i].name}", self.infos[i].module,
                              self.infos[i].distribution, self.infos[i].version)
                   for pos, i in enumerate(order)]
        return Engine(self.rules, discover=False, plugins=renamed, verify=True)

    @cached_property
    def engine(self) -> Engine:
        """The engine, plugins in their usual (name) order."""
        return Engine(self.rules, discover=False, plugins=self.infos, verify=True)

    @cached_property
    def other_orders(self) -> tuple[Engine, ...]:
        """Engines with the plugins in reversed and in shuffled order."""
        n = len(self.infos)
        shuffled = list(range(n))
        random.Random(n).shuffle(shuffled)
        return (self.engine_in_order(range(n - 1, -1, -1)), self.engine_in_order(shuffled))

    @cached_property
    def keywords(self) -> tuple[str, ...]:
        """The plugin's keywords as printed, for boards."""
        return printed_keywords(self.engine, plugins=self.names)

    @cached_property
    def others(self) -> tuple[str, ...]:
        """The keywords mixed in with the plugin's."""
        if self._others is not None:
            return self._others
        return printed_keywords(self.engine, exclude=self.names, first_only=True)

    def fail(self, invariant: str, detail: str, case: Case | None = None) -> ConformanceError:
        """A :class:`ConformanceError` for this plugin."""
        if case is None:
            return ConformanceError(invariant, self.name, detail)
        return ConformanceError(invariant, self.name, detail, board=case.describe(),
                                scenario=case.scenario())


def printed_keywords(engine: Engine, *, plugins: Collection[str] | None = None,
                     exclude: Collection[str] = (), first_only: bool = False
                     ) -> tuple[str, ...]:
    """Keywords as printed, for boards: each keyword's documented examples
    (or its name) that parse back to it.

    :param plugins: only the keywords of these plugins.
    :param exclude: leave out the keywords of these plugins.
    :param first_only: one printed form per keyword.
    """
    out: list[str] = []
    for info in engine.keywords():
        if (plugins is not None and info.plugin not in plugins) or info.plugin in exclude:
            continue
        forms = _printed(engine, info.spec.name, info.spec.examples)
        out.extend(forms[:1] if first_only else forms)
    return tuple(out)


def _printed(engine: Engine, name: str, examples: Iterable[str]) -> list[str]:
    out = []
    for text in (*examples, name):
        try:
            if engine.keyword(text).name == name:
                out.append(text)
        except UnknownKeywordError:
            continue
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------
# Playing a combat step by step
# ---------------------------------------------------------------------------


@frozen
class StepRecord:
    """One command of a combat: the state before, after, and its events."""

    command: str
    before: GameState
    after: GameState
    events: tuple[Event, ...]


def play(engine: Engine, case: Case, assign: Mapping[str, Mapping[str, int]] | None = None,
         *, turn: bool = True) -> list[StepRecord]:
    """Play ``case`` through the step API, one command per step, and then
    (with ``turn``) the rest of the turn and the beginning of the next
    (:func:`redzone.testing.turns.rest_of_turn`: 513, 514, 500.1).

    :raises IllegalActionError: when a declaration or assignment is illegal.
    """
    records: list[StepRecord] = []
    _play_into(records, engine, case, assign, turn=turn)
    return records


def _play_into(records: list[StepRecord], engine: Engine, case: Case,
               assign: Mapping[str, Mapping[str, int]] | None = None, *,
               turn: bool = True) -> None:
    """:func:`play`, its records appended to ``records`` as each command is
    played: a command that raises leaves those of the commands before it.

    :raises IllegalActionError: when a declaration or assignment is illegal.
    """
    state = case.state
    for _ in range(_MAX_STEPS):
        nxt = engine.next_step(state)
        if nxt is None:
            if turn and state.game_over is None:
                records += [StepRecord(p.command, p.before, p.after, p.events)
                            for p in rest_of_turn(engine, state)]
            return
        command = {"beginning_of_combat": "begin_combat",
                   "declare_attackers": "declare_attackers",
                   "declare_blockers": "declare_blockers",
                   "end_of_combat": "end_of_combat",
                   "postcombat_main": "finish"}.get(nxt, "combat_damage")
        if command == "declare_attackers":
            out = engine.declare_attackers(state, case.attacks)
        elif command == "declare_blockers":
            out = engine.declare_blockers(state, case.blocks)
        elif command == "combat_damage":
            out = engine.combat_damage(state, assign)
        else:
            out = getattr(engine, command)(state)
        records.append(StepRecord(command, state, out.state, out.events))
        state = out.state
    raise AssertionError(f"the combat did not end after {_MAX_STEPS} steps")


def legalize(engine: Engine, case: Case) -> Case | None:
    """The case with the attackers and blockers that break a rule left out,
    and no assignment; ``None`` when no legal declaration is left."""
    state = case.state
    attacks = {a: t for a, t in case.attacks.items()
               if not engine.attack_violations(state, {a: t})}
    if engine.attack_violations(state, attacks):
        return None
    after = engine.declare_attackers(state, attacks).state
    blocks: dict[str, str] = {}
    if engine.next_step(after) == "declare_blockers":
        blocks = {b: a for b, a in case.blocks.items()
                  if a in attacks and not engine.block_violations(after, {b: a})}
        if engine.block_violations(after, blocks):
            blocks = {}
            if engine.block_violations(after, blocks):
                return None
    return Case(state, attacks, blocks, None)


#: What each command of the played line is given after the state.
_ARGS: Final[Mapping[str, Callable[[Case], tuple[Any, ...]]]] = {
    "declare_attackers": lambda c: (c.attacks,), "declare_blockers": lambda c: (c.blocks,)}

#: The steps where plugin actions and activated abilities are tried.
_PRIORITY_STEPS: Final = ("declare_blockers", "postcombat_main")


def explore(subject: Subject, case: Case) -> tuple[Variant, ...]:
    """The variants of the legal part of ``case`` (:func:`legalize`): beside
    each command of its combat and of the rest of the turn, the command
    with each option of each choice it asks; after blockers are declared and
    after combat, each action kind and activated ability of the plugins
    under test (:mod:`redzone.testing.turns`). Worked out once per case."""
    key = (case.state, case.attacks, case.blocks)  # (legalize drops the assignment)
    known = subject.explored.get(key)
    if known is not None:
        return known
    engine = subject.engine
    out: list[Variant] = []
    try:
        legal = legalize(engine, case)
        records = play(engine, legal) if legal is not None else []
    except Exception:  # the played line's own faults: no-exception-escapes reports them
        records = []
        legal = None
    for record in records:
        if record.command in ("combat_damage", "resolve_trigger") or legal is None:
            continue  # (an assignment's choices are its own; a trigger's are offered)
        make = _ARGS.get(record.command)
        args = make(legal) if make is not None else ()
        out += choice_variants(engine, record.before, record.command,
                               getattr(engine, record.command), args)
        if record.after.step in _PRIORITY_STEPS and not record.after.stack \
                and record.after.game_over is None:
            out += plugin_variants(engine, record.after, subject.names, record.after.step)
    subject.explored[key] = found = tuple(out)
    return found


def _outcome(engine: Engine, case: Case) -> tuple[Any, ...]:
    try:
        records = play(engine, case, case.assign)
    except IllegalActionError as err:
        return ("illegal", type(err).__name__, err.violations)
    events = tuple(e for r in records for e in r.events)
    return ("ok", _unprefixed(records[-1].after if records else case.state), events)


def _plain(name: str) -> str:
    """A plugin's name without the position prefix of :meth:`Subject.engine_in_order`."""
    head, dot, rest = name.partition(".")
    return rest if dot and head.isdigit() else name


def _unprefixed(state: GameState) -> GameState:
    """``state`` with the plugin names it records (delayed triggers and
    triggers, 603.7; plugin slots) stripped of the position prefix, so engines
    with renamed plugins can be compared."""
    if not (state.delayed or state.stack or state.held or state.plugin_state):
        return state
    return state.evolve(
        delayed=tuple(d.evolve(plugin=_plain(d.plugin)) for d in state.delayed),
        stack=tuple(t.evolve(plugin=_plain(t.plugin)) for t in state.stack),
        held=tuple(t.evolve(plugin=_plain(t.plugin)) for t in state.held),
        plugin_state=as_map({_plain(k): v for k, v in state.plugin_state.items()}))


# ---------------------------------------------------------------------------
# The invariants
# ---------------------------------------------------------------------------


def check_keyword_metadata(subject: Subject) -> None:
    """``keyword-metadata``: declared keywords, parsable examples, no
    hookimpl parameter defaults, a docstring naming the keyword."""
    for info in subject.under_test:
        _check_metadata(subject, info, required=subject.plugin is not None)


def _check_metadata(subject: Subject, plugin: PluginInfo, *, required: bool) -> None:
    fail = "keyword-metadata"
    engine = subject.engine

    def problem(detail: str) -> ConformanceError:
        return ConformanceError(fail, plugin.name, detail)

    specs = [i.spec for i in engine.keywords() if i.plugin == plugin.name]
    if not specs:
        if not required:
            return
        raise problem("the plugin declares no keyword: implement redzone_keywords() "
                      "returning a KeywordSpec for each keyword it provides")
    for spec in specs:
        if not spec.rule:
            raise problem(f"keyword {spec.name!r} gives no rule: set KeywordSpec.rule "
                          "(e.g. '702.15' or the set it comes from)")
        if not spec.examples:
            try:
                engine.keyword(spec.name)
            except UnknownKeywordError:
                raise problem(f"keyword {spec.name!r} gives no examples and its bare name "
                              "doesn't match its form: add KeywordSpec(examples=...) with "
                              f"printed forms (e.g. '{spec.name} 2'), for the docs and "
                              "generated boards") from None
        for text in (*spec.examples, *(() if spec.examples else (spec.name,))):
            try:
                parsed = engine.keyword(text)
            except UnknownKeywordError as err:
                raise problem(f"example {text!r} of keyword {spec.name!r} does not parse: "
                              f"{err}") from None
            if parsed.name != spec.name:
                raise problem(f"example {text!r} of keyword {spec.name!r} parses as keyword "
                              f"{parsed.name!r}")
    module = plugin.module
    for attr in sorted(dir(module)):
        fn = getattr(module, attr, None)
        if not callable(fn) or getattr(fn, "redzone_impl", None) is None:
            continue
        defaults = [p.name for p in inspect.signature(fn).parameters.values()
                    if p.default is not inspect.Parameter.empty]
        if defaults:
            raise problem(f"hookimpl {attr} gives parameters defaults ({', '.join(defaults)}); "
                          "pluggy versions treat those differently: remove the defaults")
    doc = inspect.getdoc(module) or ""
    first = doc.splitlines()[0] if doc else ""
    if not any(first.lower().startswith(s.name.lower()) for s in specs):
        raise problem(f"the module docstring's first line should name the keyword "
                      f"('{specs[0].name.capitalize()} (CR 702.N).'), not {first!r}")


def check_no_exception_escapes(subject: Subject, case: Case) -> None:
    """``no-exception-escapes``: commands raise only IllegalActionError, and
    queries never raise, on any board and declaration.

    Only the commands are let raise an :class:`~redzone.IllegalActionError`
    (the case's own declaration and assignment may be illegal); one that a
    command of the legal line raises (its default assignment refused is
    ``default-assignment-legal``'s to report) ends the line there, and the
    queries are still asked on every state it reached. A query that raises
    anything, an ``IllegalActionError`` too, breaks the invariant."""
    engine = subject.engine
    state = case.state
    where = "the queries before combat"
    records: list[StepRecord] = []
    try:
        engine.attack_violations(state, case.attacks)
        engine.legal_attackers(state)
        where = "the combat and the rest of the turn (as declared)"
        _outcome(engine, case)  # (an IllegalActionError is its outcome)
        where = "making the declaration legal (queries, and the attackers declared)"
        try:
            legal = legalize(engine, case)
        except IllegalActionError:
            legal = None  # (a command refused: allowed here; no legal line to play)
        if legal is not None:
            where = ("the combat and the rest of the turn (illegal attackers and blockers left "
                     "out)")
            # (a command of the line refused: the states before it are queried)
            with contextlib.suppress(IllegalActionError):
                _play_into(records, engine, legal)
        where = "the queries during combat"
        for record in records:
            st_ = record.after
            if st_.combat is None:
                continue
            for attacker in st_.combat.attacks:
                engine.legal_blockers(st_, attacker)
            nxt_ = engine.next_step(st_)
            if nxt_ is not None and not nxt_.endswith(_ASSIGNED) and engine.damage_step(
                    nxt_) is not None:
                engine.damage_duties(st_)
                engine.default_assignment(st_)
                engine.assignment_violations(st_, case.assign)
    except Exception as exc:  # a query's IllegalActionError too: queries never raise
        raise _escaped(subject, case, where, exc) from exc
    for variant in explore(subject, case):
        if variant.error is not None and not isinstance(variant.error, IllegalActionError):
            raise _escaped(subject, case, variant.label, variant.error) from variant.error


def _escaped(subject: Subject, case: Case, where: str, exc: BaseException
             ) -> ConformanceError:
    """The ``no-exception-escapes`` failure for ``exc``, raised by ``where``."""
    frames = traceback.extract_tb(exc.__traceback__)
    cause = exc.__cause__
    if cause is not None and cause.__traceback__ is not None:
        frames = traceback.extract_tb(cause.__traceback__)
    at = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return subject.fail("no-exception-escapes", f"{where} raised "
                        f"{type(exc).__name__}: {exc}{at}", case)


def _snapshot(state: GameState) -> bytes:
    return pickle.dumps(state)


def check_illegal_command(subject: Subject, case: Case) -> None:
    """``illegal-command-leaves-state-unchanged``: each rejected command
    leaves its state as it was, cites a rule, and agrees with its query."""
    name = "illegal-command-leaves-state-unchanged"
    engine = subject.engine

    def attempt(command: str, state: GameState, ask: Callable[[GameState], Sequence[Any]],
                run: Callable[[GameState], Any]) -> Any:
        before = _snapshot(state)
        query = ask(state)
        if pickle.loads(before) != state:
            raise subject.fail(name, f"the query for {command} changed the state it was given",
                               case)
        try:
            out = run(state)
        except IllegalActionError as err:
            if pickle.loads(before) != state:
                raise subject.fail(name, f"{command} was rejected ({err}) but changed the "
                                   "state it was given", case) from None
            if any(not v.rule or not v.message for v in err.violations):
                raise subject.fail(name, f"{command} was rejected with a violation that "
                                   f"cites no rule or has no message: {err.violations!r}",
                                   case) from None
            if not query:
                raise subject.fail(name, f"{command} was rejected ({err}) but its query "
                                   "reported no violation", case) from None
            return None
        if query:
            raise subject.fail(name, f"{command} was accepted but its query reported "
                               f"{'; '.join(str(v) for v in query)}", case)
        return out

    _declared_commands(case, attempt, engine)
    # (after: exploring asks the plugins about the case's own state)
    _variants_refused_cleanly(subject, case)


def _declared_commands(case: Case, attempt: Callable[..., Any], engine: Engine) -> None:
    """The case's declarations and assignment, each through ``attempt``."""
    state = case.state
    out = attempt("declare_attackers", state, lambda s: engine.attack_violations(s, case.attacks),
                  lambda s: engine.declare_attackers(s, case.attacks))
    if out is None:
        return
    state = out.state
    if engine.next_step(state) == "declare_blockers":
        out = attempt("declare_blockers", state,
                      lambda s: engine.block_violations(s, case.blocks),
                      lambda s: engine.declare_blockers(s, case.blocks))
        if out is None:
            return
        state = out.state
    for _ in range(_MAX_STEPS):
        nxt = engine.next_step(state)
        if nxt in (None, "end_of_combat", "postcombat_main"):
            return
        if state.step.endswith(_ASSIGNED):
            out = engine.combat_damage(state)
        else:
            out = attempt("combat_damage", state,
                          lambda s: engine.assignment_violations(s, case.assign),
                          lambda s: engine.combat_damage(s, case.assign))
        if out is None:
            return
        state = out.state


def _variants_refused_cleanly(subject: Subject, case: Case) -> None:
    """Each variant of :func:`explore` that was refused left its state as it
    was and cites a rule (733); an ability activated from an object that
    doesn't have it is refused (602.1)."""
    name = "illegal-command-leaves-state-unchanged"
    for variant in explore(subject, case):
        err = variant.error
        if err is None:
            if variant.must_refuse:
                raise subject.fail(name, f"{variant.label} was accepted: an object activates "
                                   "only the abilities it has (602.1)", case)
            continue
        if not isinstance(err, IllegalActionError):
            continue  # no-exception-escapes reports it
        if pickle.loads(variant.snapshot) != variant.before:
            raise subject.fail(name, f"{variant.label} was rejected ({err}) but changed the "
                               "state it was given", case)
        if not err.violations or any(not v.rule or not v.message for v in err.violations):
            raise subject.fail(name, f"{variant.label} was rejected with a violation that "
                               f"cites no rule or has no message: {err.violations!r}", case)


def check_order_independent(subject: Subject, case: Case) -> None:
    """``order-independent``: the same result (final state and events, or
    the same rejection) whatever order plugins are registered in, and when
    resolved twice."""
    first = _outcome(subject.engine, case)
    again = _outcome(subject.engine, case)
    if again != first:
        raise subject.fail("order-independent", "resolving the same combat twice in the same "
                           "engine gave different results: does the plugin keep state between "
                           f"calls?\n  first:  {_short(first)}\n  second: {_short(again)}", case)
    for label, engine in zip(("reversed", "shuffled"), subject.other_orders, strict=True):
        other = _outcome(engine, case)
        if other != first:
            order = ", ".join(sorted(engine.plugin_infos))
            raise subject.fail("order-independent", f"with the plugins in {label} order "
                               f"({order}) the result differs:\n  usual order: {_short(first)}"
                               f"\n  {label}:    {_short(other)}", case)


def _short(outcome: tuple[Any, ...]) -> str:
    if outcome[0] == "illegal":
        return f"rejected, {outcome[1]}: " + "; ".join(str(v) for v in outcome[2])
    state, events = outcome[1], outcome[2]
    lives = ", ".join(f"{p.id} {p.life} life" for p in state.players.values())
    zones = ", ".join(f"{p.id} in {p.zone}" for p in state.objects.values()
                      if p.zone != "battlefield")
    return (f"{lives}; {zones or 'all on the battlefield'}; {len(events)} events: "
            + ", ".join(f"{e.kind}" for e in events if e.kind not in ("step",)))


def _valid_recipient(state: GameState, target: str) -> bool:
    if target in state.players:
        return not state.players[target].lost
    perm = state.objects.get(target)
    return perm is not None and perm.zone == "battlefield"


def _answerers(engine: Engine, hook: str, args: tuple[Any, ...],
               wanted: Callable[[Any], bool]) -> list[str]:
    """The plugins whose own implementation of ``hook``, asked alone with
    ``args``, answers what ``wanted`` accepts: who is responsible for a
    combined answer."""
    out = []
    for impl in engine.hooks.impls(hook):
        picked = args if impl.picks is None else tuple(args[i] for i in impl.picks)
        try:
            res = impl.fn(*picked)
            if res is not None and not isinstance(res, (int, str)):
                res = tuple(res)
        except Exception:  # a fault is no-exception-escapes' to report
            continue
        if res is not None and wanted(res):
            out.append(impl.plugin.name)
    return out


def _uncaused(engine: Engine, state: GameState, plugins: Iterable[str],
              objects: Iterable[str]) -> list[str]:
    """The keyword plugins among ``plugins`` none of whose keywords any of
    ``objects`` has (as it is, or as it last was: 608.2h). The kernel's own
    effects (a scenario's continuous effects) and plugins that declare no
    keyword are no keyword's, and are not held to their keywords."""
    keywords: dict[str, set[str]] = {}
    for info in engine.keywords():
        keywords.setdefault(info.plugin, set()).add(info.spec.name)
    out = []
    for plugin in plugins:
        mine = keywords.get(plugin)
        if plugin.startswith("redzone.") or not mine:
            continue
        if not any(oid in state.objects and any(state.last_known(oid).has(k) for k in mine)
                   for oid in objects):
            out.append(plugin)
    return out


def check_damage_conserved(subject: Subject, case: Case) -> None:
    """``damage-conserved``: each creature assigns exactly its power, or what
    its keywords say (510.1a); every difference between what a source was
    assigned to deal and what it dealt is explained by an event (120.4):
    ``redirected`` (614.9), ``prevented`` (615) or ``modified`` (614.1a), a
    keyword's modification made by the keyword of the source or the
    recipient; no combat damage is dealt that wasn't assigned; marked damage
    grows by no more than the damage dealt (120.3e). The legal part of the
    case (:func:`legalize`) is played with the default assignments, and,
    when the case draws an assignment, again with each creature's damage
    divided among its recipients as that assignment weighs them
    (:func:`_division`; the kit draws weights for the blockers of each
    attacker that several creatures block), in each step where that
    division is legal (510.1c-e: a choice the default policy may never
    make)."""
    legal = legalize(subject.engine, case)
    assume(legal is not None)
    assert legal is not None

    def advance(state: GameState) -> Any:
        return _advance(subject.engine, legal, state)

    _damage_conserved(subject, legal, legal.state, advance)
    if case.assign:
        _damage_conserved(subject, legal, legal.state, advance, case.assign)


def _weighed(case: Case) -> st.SearchStrategy[Case]:
    """``case`` with weights drawn as its assignment, for
    :func:`check_damage_conserved` to divide by: for each attacker two
    creatures or more block, a weight (0 to 6) for each of them (510.1c: a
    division its controller may choose); ``case`` as it is without one."""
    blockers: dict[str, list[str]] = {}
    for blocker, attacker in case.blocks.items():
        blockers.setdefault(attacker, []).append(blocker)
    shared = {a: b for a, b in blockers.items() if len(b) > 1 and a in case.attacks}
    if not shared:
        return st.just(case)
    return st.fixed_dictionaries({
        a: st.fixed_dictionaries({b: st.integers(0, 6) for b in bs})
        for a, bs in sorted(shared.items())}).map(
        lambda weights: Case(case.state, case.attacks, case.blocks, weights))


def _division(duties: Iterable[Duty], weights: Mapping[str, Mapping[str, int]]
              ) -> dict[str, dict[str, int]]:
    """Each creature's combat damage divided among its recipients in the
    proportions ``weights`` gives them (what is left over, one each to
    those it weighs most): for the creatures it weighs a recipient of."""
    out: dict[str, dict[str, int]] = {}
    for duty in duties:
        mine = weights.get(duty.source, {})
        shares = {r: mine[r] for r in dict.fromkeys(duty.recipients) if mine.get(r, 0) > 0}
        total = sum(shares.values())
        if duty.power <= 0 or not total:
            continue
        amounts = {r: duty.power * w // total for r, w in shares.items()}
        left = duty.power - sum(amounts.values())
        for r in sorted(shares, key=lambda r: -shares[r])[:left]:
            amounts[r] += 1
        out[duty.source] = amounts
    return out


def _advance(engine: Engine, case: Case, state: GameState) -> Any:
    """The command that plays the next step of ``case``'s combat (not a
    combat damage step)."""
    nxt = engine.next_step(state)
    if nxt == "declare_attackers":
        return engine.declare_attackers(state, case.attacks)
    if nxt == "declare_blockers":
        return engine.declare_blockers(state, case.blocks)
    return getattr(engine, _COMMANDS[nxt or ""])(state)


#: The command that plays each step of the combat phase (but its damage steps).
_COMMANDS: Final[Mapping[str, str]] = {
    "beginning_of_combat": "begin_combat", "declare_attackers": "declare_attackers",
    "declare_blockers": "declare_blockers", "end_of_combat": "end_of_combat",
    "postcombat_main": "finish"}


def _damage_conserved(subject: Subject, legal: Case, state: GameState,
                      advance: Callable[[GameState], Any],
                      weights: Mapping[str, Mapping[str, int]] | None = None) -> None:
    """Play the combat from ``state`` and check each combat damage step;
    with ``weights``, each step's damage is assigned as :func:`_division`
    divides it, where that is legal, else by default."""
    name = "damage-conserved"
    engine = subject.engine
    pending: Counter[tuple[str, str]] = Counter()
    for _ in range(_MAX_STEPS):
        nxt = engine.next_step(state)
        if nxt is None:
            return
        if nxt in _COMMANDS:
            state = advance(state).state
            continue
        duties: tuple[Duty, ...] = ()
        if not state.step.endswith(_ASSIGNED):
            duties = engine.damage_duties(state)[1]
        division = _division(duties, weights) if weights else {}
        if division and engine.assignment_violations(state, division):
            division = {}  # (an illegal division: 510.1e; the default instead)
        out = engine.combat_damage(state, division or None)
        # (a failure shows the board with the division this step was given)
        shown = Case(legal.state, legal.attacks, legal.blocks, division) if division else legal
        assigned: Counter[str] = Counter()
        for e in out.events:
            if e.kind == "assign":
                assigned[e.source or ""] += e.amount or 0
                pending[(e.source or "", e.target or "")] += e.amount or 0
        for duty in duties:
            expected = duty.power if duty.power > 0 and (
                duty.recipients or duty.unblocked) else 0
            if assigned[duty.source] != expected:
                raise subject.fail(name, f"{duty.source} assigned {assigned[duty.source]} "
                                   f"combat damage in {nxt}, but its power is {duty.power} "
                                   f"and it may assign to {list(duty.recipients)} (510.1a)",
                                   shown)
            power = state.objects[duty.source].power
            if duty.power != power and duty.power > 0:
                # 510.1a: its power, unless what it has says otherwise.
                who = _answerers(engine, "redzone_combat_damage_amount",
                                 (state, duty.source, nxt), duty.power.__eq__)
                stray_ = _uncaused(engine, state, who, (duty.source,))
                if stray_:
                    raise subject.fail(name, f"{duty.source} (power {power}) assigns "
                                       f"{duty.power} combat damage in {nxt} because plugin "
                                       f"{stray_[0]!r} says so (redzone_combat_damage_amount), "
                                       f"but {duty.source} has none of its keywords: a "
                                       "creature assigns its power, or what its abilities "
                                       "say (510.1a)", shown)
        stray = set(assigned) - {d.source for d in duties}
        if duties and stray:
            raise subject.fail(name, f"{sorted(stray)} assigned combat damage in {nxt} "
                               "without dealing combat damage in that step (510.4)", shown)
        if not out.state.step.endswith(_ASSIGNED):
            _dealt_as_assigned(subject, shown, state, out, pending)
            pending.clear()
        state = out.state


def _dealt_as_assigned(subject: Subject, legal: Case, state: GameState, out: Any,
                       pending: Counter[tuple[str, str]]) -> None:
    """Each damage dealt is what was assigned, as the events say it was
    redirected, prevented and modified (120.4)."""
    name = "damage-conserved"
    engine = subject.engine
    step = out.state.step
    expected = Counter(pending)
    dealt: Counter[tuple[str, str]] = Counter()
    to_target: Counter[str] = Counter()
    said: dict[tuple[str, str], list[str]] = {}
    for e in out.events:
        key = (e.source or "", e.target or "")
        if e.kind == "redirected" and e.combat:  # 614.9: to another recipient
            moved = min(expected[(key[0], e.object or "")], e.amount or 0)
            expected[(key[0], e.object or "")] -= moved
            expected[key] += moved
            said.setdefault(key, []).append(f"redirected from {e.object}")
        elif e.kind == "prevented" and e.combat:  # 615
            expected[key] -= e.amount or 0
            said.setdefault(key, []).append(f"{e.amount} prevented")
        elif e.kind == "modified" and e.combat:  # 614.1a
            expected[key] += (e.amount or 0) - (e.get("original") or 0)
            effects = tuple(e.get("effects") or ())
            said.setdefault(key, []).append(
                f"{e.get('original')} made {e.amount} by {', '.join(effects)}")

            def names_effect(mods: Any, fx: tuple[str, ...] = effects) -> bool:
                return any(getattr(m, "effect", None) in fx for m in mods)

            who = _answerers(engine, "redzone_modify_damage",
                             (state, Damage(key[0], key[1], e.get("original") or 0, True,
                                            step)), names_effect)
            stray = _uncaused(engine, state, who, key)
            if stray:
                raise subject.fail(name, f"plugin {stray[0]!r} changed the {e.get('original')} "
                                   f"combat damage {key[0]} would deal to {key[1]} in {step} to "
                                   f"{e.amount} ({', '.join(effects)}), but neither has any "
                                   "of its keywords: a keyword's replacement effect applies "
                                   "to its objects' damage (614.1a)", legal)
        elif e.kind == "damage" and e.combat:
            dealt[key] += e.amount or 0
            to_target[e.target or ""] += e.amount or 0
    for key in sorted(set(expected) | set(dealt)):
        src, dst = key
        if not _valid_recipient(state, dst) and not dealt[key]:
            continue  # 120.1a, 506.4: it left, or left combat
        want = max(expected[key], 0)
        if dealt[key] != want:
            how = "; ".join(said.get(key, ())) or "no redirection, prevention or modification"
            raise subject.fail(name, f"{src} was assigned to deal {pending[key]} combat damage "
                               f"to {dst} in {step} ({how}), so {want} should be dealt, but "
                               f"{dealt[key]} was: every difference needs its event (120.4)",
                               legal)
    for perm in state.objects.values():
        if perm.zone != "battlefield" or "creature" not in perm.types:
            continue
        # a creature destroyed by this step's damage: as it last was (608.2h);
        # one back on the battlefield is a new object (400.7: persist, undying)
        after = out.state.last_known(perm.id)
        if after.zone != "battlefield" or after.object != perm.object:
            continue
        grown = after.damage - perm.damage
        if grown < 0 or grown > to_target[perm.id]:
            raise subject.fail(name, f"{perm.id} had {perm.damage} damage marked and "
                               f"now has {after.damage}, but was dealt "
                               f"{to_target[perm.id]} damage in {step} (120.3e)", legal)


def check_events_accounted_for(subject: Subject, case: Case) -> None:
    """``events-accounted-for``: life, poison, losses, counters, zones and new
    objects changed exactly as the events say; events name existing ids."""
    name = "events-accounted-for"
    engine = subject.engine
    legal = legalize(engine, case)
    assume(legal is not None)
    assert legal is not None
    records = play(engine, legal)
    before = legal.state
    after = records[-1].after
    events = [e for r in records for e in r.events]
    problem = account(before, after, events)
    if problem:
        raise subject.fail(name, problem, legal)
    for variant in explore(subject, case):
        if variant.after is not None:
            problem = account(variant.before, variant.after, variant.events)
            if problem:
                raise subject.fail(name, f"{variant.label}: {problem}", legal)


def account(before: GameState, after: GameState, events: Sequence[Event]) -> str:
    """What the events fail to account for between ``before`` and ``after``,
    or ``""`` when they account for everything."""
    for pid, player in after.players.items():
        was = before.players.get(pid)
        if was is None:
            return f"player {pid!r} appeared without an event"
        life = sum((e.amount or 0) if e.kind == "life_gain" else -(e.amount or 0)
                   for e in events if e.player == pid and e.kind in ("life_gain", "life_loss"))
        if player.life - was.life != life:
            return (f"{pid}'s life went from {was.life} to {player.life}, but the life_gain "
                    f"and life_loss events add up to {life:+d}")
        poison = sum(e.amount or 0 for e in events if e.player == pid and e.kind == "poison")
        if player.poison - was.poison != poison:
            return (f"{pid}'s poison counters went from {was.poison} to {player.poison}, but "
                    f"the poison events add up to {poison:+d}")
        lost = any(e.kind == "lost" and e.player == pid for e in events)
        if player.lost and not was.lost and not lost:
            return f"{pid} lost the game without a 'lost' event"
        if lost and not player.lost:
            return f"a 'lost' event names {pid}, who has not lost"
    for oid, perm in after.objects.items():
        was_perm = before.objects.get(oid)
        if was_perm is None:
            if not any(e.kind in ("create", "enters_battlefield") and e.object == oid
                       for e in events):  # 111.2: a token is created as it enters
                return f"object {oid!r} appeared without a 'create' event"
            continue
        if was_perm.zone != perm.zone and not any(
                e.object == oid and leaves_battlefield(e) for e in events):
            return (f"{oid} moved from {was_perm.zone} to {perm.zone} without a 'dies' or "
                    "'zone_change' event")
        if was_perm.zone != "battlefield" or perm.zone != "battlefield":
            continue
        # 400.7, 122.2: one that left and came back is a new object; it has the
        # counters put on it since it last entered, none of the old one's.
        base: Mapping[str, int] = was_perm.counters
        since = events
        if perm.object != was_perm.object:
            base = {}
            entered = [i for i, e in enumerate(events)
                       if e.kind == "enters_battlefield" and e.object == oid]
            since = events[entered[-1] + 1:] if entered else ()
        named = {e.counter for e in since
                 if e.kind == "counters" and e.target == oid and e.counter}
        for kind in sorted(set(perm.counters) | set(base) | named):
            delta = perm.counters.get(kind, 0) - base.get(kind, 0)
            said = 0
            for e in since:
                if e.target != oid:
                    continue
                if e.kind == "counters" and e.counter == kind:
                    said += e.amount or 0
                elif (e.kind == kind and kind in ("loyalty", "defense")) or (
                        e.kind == "counters_removed" and kind in (e.counter or "")):
                    said -= e.amount or 0
            if delta != said:
                return (f"{oid}'s {kind!r} counters changed by {delta:+d}, but its events add "
                        f"up to {said:+d}")
    # Tokens that ceased to exist (111.7, 704.5d) leave the state as a turn begins.
    ceased = {e.object for e in events if e.kind == "ceases_to_exist" and e.object}
    for oid in before.objects:
        if oid not in after.objects and oid not in ceased:
            return f"object {oid!r} vanished from the state"
    known = set(after.objects) | set(after.players) | ceased
    # Triggered abilities are named by the id the core gave them on the stack (603.3b).
    known |= {e.object for e in events if e.kind == "trigger" and e.object}
    # ... and delayed triggered abilities by the id the kernel gave them (603.7a),
    # in this command or before it (one made as a creature attacked fires at
    # end of combat).
    known |= {e.object for e in events if e.kind == "delayed_trigger" and e.object}
    known |= {d.id for d in before.delayed}
    # ... and the triggers waiting on the stack before it (603.3).
    known |= {t.id for t in before.stack}
    # Effects, continuous effects and shields the kernel numbered (611.2, 613.1,
    # 615), and spells that dealt damage.
    known |= {e.object for e in events
              if e.kind in ("effect", "continuous", "effect_ends", "shield") and e.object}
    known |= set(after.sources) | set(before.sources)
    for e in events:
        for attr in ("attacker", "blocker", "source", "target", "player", "object"):
            value = getattr(e, attr)
            if value and value not in known:
                return f"event \"{e}\" names {value!r} as its {attr}, which does not exist"
    return ""


def check_default_assignment_legal(subject: Subject, case: Case) -> None:
    """``default-assignment-legal``: for legal declarations, the default
    assignment of every combat damage step is legal."""
    name = "default-assignment-legal"
    engine = subject.engine
    legal = legalize(engine, case)
    assume(legal is not None)
    assert legal is not None
    state = legal.state
    for _ in range(_MAX_STEPS):
        nxt = engine.next_step(state)
        if nxt is None:
            return
        if engine.damage_step(nxt) is not None:  # a combat damage step or its window
            if not state.step.endswith(_ASSIGNED):
                violations = engine.assignment_violations(state)
                if violations:
                    default = engine.default_assignment(state)
                    raise subject.fail(name, f"the default assignment {default!r} for {nxt} "
                                       "breaks: " + "; ".join(str(v) for v in violations)
                                       + " (teach the default policy, e.g. through "
                                       "redzone_lethal_damage or redzone_assigns_past_blockers)",
                                       legal)
            state = engine.combat_damage(state).state
            continue
        out = {"beginning_of_combat": lambda s: engine.begin_combat(s),
               "declare_attackers": lambda s: engine.declare_attackers(s, legal.attacks),
               "declare_blockers": lambda s: engine.declare_blockers(s, legal.blocks),
               "end_of_combat": lambda s: engine.end_of_combat(s),
               "postcombat_main": lambda s: engine.finish(s)}[nxt](state)
        state = out.state


#: The invariants checked on generated boards, by name.
BOARD_CHECKS: Final[Mapping[str, Callable[[Subject, Case], None]]] = {
    "no-exception-escapes": check_no_exception_escapes,
    "illegal-command-leaves-state-unchanged": check_illegal_command,
    "order-independent": check_order_independent,
    "damage-conserved": check_damage_conserved,
    "events-accounted-for": check_events_accounted_for,
    "default-assignment-legal": check_default_assignment_legal,
}


def _profile() -> settings | None:
    """The hypothesis profile registered as :data:`PROFILE`, if one is."""
    try:
        return settings.get_profile(PROFILE)
    except InvalidArgument:
        return None


def _settings(max_examples: int, derandomize: bool | None, shrink: bool = True) -> settings:
    """The kit's hypothesis settings: ``derandomize`` unset (``None``) is
    the :data:`PROFILE` profile's, or ``True`` without one; new boards
    each run are kept in that profile's database, if it gives one."""
    profile = _profile()
    if derandomize is None:
        derandomize = profile.derandomize if profile is not None else True
    database = None if derandomize or profile is None else profile.database
    # One failure reported (the smallest board), not a group of them; no
    # explain phase (it lists lines of the kit's own code the failing boards ran).
    phases = [p for p in Phase if (shrink or p is not Phase.shrink) and p is not Phase.explain]
    return settings(max_examples=max_examples, deadline=None, derandomize=derandomize,
                    database=database, print_blob=False, phases=phases,
                    report_multiple_bugs=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.differing_executors])


def check_invariant(subject: Subject, invariant: str, *, max_examples: int = 40,
                    derandomize: bool | None = None, shrink: bool = True) -> None:
    """Check one invariant of :data:`INVARIANTS` on generated boards.

    :param max_examples: boards to draw.
    :param derandomize: ``True``: the same boards on every run; ``False``:
        new boards each run; ``None`` (the default): as the hypothesis
        profile :data:`PROFILE` says, when one is registered, else the same
        boards.
    :param shrink: let hypothesis shrink a failing board to a small one
        (slower to fail, much easier to read).

    :raises ConformanceError: on the smallest board hypothesis finds that
        breaks it, raised from here with its readable summary first
        (:func:`summary_first`).
    :raises KeyError: for an unknown invariant name.
    """
    __tracebackhide__ = True  # pytest shows the test's line, then the summary
    try:
        _check_invariant(subject, invariant, max_examples, derandomize, shrink)
    except ConformanceError as exc:
        raise summary_first(exc) from None


def _check_invariant(subject: Subject, invariant: str, max_examples: int,
                     derandomize: bool | None, shrink: bool) -> None:
    if invariant == "keyword-metadata":
        check_keyword_metadata(subject)
        return
    check = BOARD_CHECKS[invariant]
    strategy = cases(subject.engine, subject.keywords, subject.others,
                     players=subject.players)
    if invariant == "damage-conserved":
        strategy = strategy.flatmap(_weighed)

    kept = [_module_state(subject)]  # (the plugin's globals as the last board left them)

    @_settings(max_examples, derandomize, shrink)
    @given(case=strategy)
    def run(case: Case) -> None:
        try:
            check(subject, case)
            for engine in (subject.engine, *subject.other_orders):
                engine.hooks.verify_pending()  # what the last command's plugins did
        except PluginError as exc:
            if "verify mode" not in str(exc):
                raise
            # The engines run in verify mode: a plugin that changed what it
            # was given is named at the hook call that did it.
            raise subject.fail(invariant, str(exc), case) from exc
        now = _module_state(subject)
        changed = sorted(k for k in now.keys() | kept[0].keys()
                         if now.get(k, _GONE) != kept[0].get(k, _GONE))
        kept[0] = now
        if changed:
            raise subject.fail(invariant, "resolving this board changed the plugin module's "
                               f"global {', '.join(changed)}: a plugin keeps no state between "
                               "calls (house style: no module state beyond constants; what a "
                               "game must remember belongs in its state, a plugin slot), or "
                               "the next game would see what this one left", case)

    try:
        run()
    except FlakyFailure as flaky:
        # hypothesis tried the failing board again and it passed: report the
        # plugin's failure, not hypothesis's group around it.
        found = [e for e in flaky.exceptions if isinstance(e, ConformanceError)]
        if not found:
            raise
        found[0].add_note("the same board passed when tried again: the plugin answers "
                          "differently for the same board (state kept between calls?)")
        raise found[0] from None


#: A global a module no longer has.
_GONE: Final = object()

#: The mutable builtin containers whose contents :func:`_module_state` copies.
_CONTAINERS: Final = (list, dict, set, bytearray, deque)


def _module_state(subject: Subject) -> dict[str, Any]:
    """Copies of the mutable containers the plugin modules under test hold
    as globals, by ``module.name``: what a plugin that keeps state between
    calls changes (modules only; the built-in plugins beside it aren't
    under test)."""
    modules = [subject.plugin] if subject.plugin is not None else [
        i.module for i in subject.engine.plugin_infos.values()]
    found: dict[str, Any] = {}
    for module in modules:
        if not isinstance(module, ModuleType):
            continue
        for name, value in vars(module).items():
            if isinstance(value, _CONTAINERS) and not name.startswith("__"):
                try:
                    found[f"{module.__name__}.{name}"] = copy.deepcopy(value)
                except Exception:  # (what can't be copied isn't compared)
                    continue
    return found


def summary_first(error: ConformanceError) -> ConformanceError:
    """``error`` made to show its readable summary first: without the frames
    of the kit and of hypothesis it was raised through, and without its
    chained cause, whose traceback (a plugin's exception, the kernel's call
    of the hook) follows the summary, the board and hypothesis's note
    instead of coming before them.

    :param error: the error hypothesis re-raised for the smallest board.
    :returns: the same error, changed in place.
    """
    cause = error.__cause__
    error.__cause__ = None
    if cause is not None:
        error.add_note("caused by:\n" + _indent("".join(traceback.format_exception(cause))))
    return error.with_traceback(None)


def check_conformance(plugin: object | None, *, invariants: Iterable[str] | None = None,
                      builtins: bool = True, rules: str | Sequence[str] = "foundations",
                      others: Sequence[str] | None = None,
                      extra_plugins: Sequence[object] = (), max_examples: int = 40,
                      derandomize: bool | None = None, siblings: bool = True,
                      players: int = 2) -> None:
    """Check a keyword plugin against every invariant (or the named ones).

    :param plugin: the plugin module; ``None`` checks every discovered plugin
        together (an embedding program's whole plugin set).
    :param invariants: names from :data:`INVARIANTS` (default: all).
    :param builtins: load the discovered plugins alongside it.
    :param rules: the rules edition, or several.
    :param others: printed keywords to mix into the boards (default: every
        other keyword the engine knows).
    :param extra_plugins: more plugins to load alongside it.
    :param max_examples: boards per invariant.
    :param derandomize: ``True``: the same boards on every run (stable CI);
        ``False``: new boards each run; ``None`` (the default): as the
        hypothesis profile :data:`PROFILE` says, when one is registered, else
        the same boards.
    :param siblings: load the other plugins of the plugin's distribution too.
    :param players: the players of generated boards (2 to 4: multiplayer).
    :raises ConformanceError: for the first invariant broken.
    """
    names = list(INVARIANTS) if invariants is None else list(invariants)
    for edition in ([rules] if isinstance(rules, str) else list(rules)):
        subject = Subject(plugin, builtins=builtins, rules=edition, others=others,
                          extra_plugins=extra_plugins, siblings=siblings, players=players)
        for invariant in names:
            check_invariant(subject, invariant, max_examples=max_examples,
                            derandomize=derandomize)


class KeywordConformance:
    """The conformance kit as a pytest test class: subclass it, set
    ``plugin``, and pytest runs one test per invariant::

        import redzone_squirrellink
        from redzone.testing import KeywordConformance

        class TestSquirrellinkConformance(KeywordConformance):
            plugin = redzone_squirrellink

    Class attributes to tune it: ``builtins`` (load the discovered plugins
    too, default ``True``), ``rules`` (an edition name, default
    ``"foundations"``), ``others`` (printed keywords to mix in),
    ``extra_plugins`` (more plugins to load alongside), ``max_examples``
    (boards per invariant, default 40), ``derandomize`` (``True``: the same
    boards every run; ``False``: new boards each run; default ``None``: as
    the hypothesis profile :data:`PROFILE` says when one is registered, else
    the same boards), ``siblings`` (default ``True``:
    load the other plugins of the plugin's distribution too) and ``players``
    (default 2; up to 4 for multiplayer boards).

    .. versionadded:: 0.1.0
    """

    plugin: Any
    builtins: ClassVar[bool] = True
    rules: ClassVar[str] = "foundations"
    others: ClassVar[Sequence[str] | None] = None
    extra_plugins: ClassVar[Sequence[object]] = ()
    max_examples: ClassVar[int] = 40
    derandomize: ClassVar[bool | None] = None
    siblings: ClassVar[bool] = True
    players: ClassVar[int] = 2
    _subjects: ClassVar[dict[tuple[Any, ...], Subject]] = {}

    def _check(self, invariant: str) -> None:
        __tracebackhide__ = True
        cls = type(self)
        key = (cls, id(cls.plugin), cls.builtins, cls.rules,
               None if cls.others is None else tuple(cls.others),
               tuple(id(p) for p in cls.extra_plugins), cls.siblings, cls.players)
        subject = KeywordConformance._subjects.get(key)
        if subject is None:
            subject = Subject(cls.plugin, builtins=cls.builtins, rules=cls.rules,
                              others=cls.others, extra_plugins=cls.extra_plugins,
                              siblings=cls.siblings, players=cls.players)
            KeywordConformance._subjects[key] = subject
        check_invariant(subject, invariant, max_examples=cls.max_examples,
                        derandomize=cls.derandomize)

    def test_keyword_metadata(self) -> None:
        """The plugin declares and documents its keywords."""
        self._check("keyword-metadata")

    def test_no_exception_escapes(self) -> None:
        """Commands raise only IllegalActionError; queries never raise."""
        self._check("no-exception-escapes")

    def test_illegal_command_leaves_state_unchanged(self) -> None:
        """A rejected command changes nothing and agrees with its query (733)."""
        self._check("illegal-command-leaves-state-unchanged")

    def test_order_independent(self) -> None:
        """Results don't depend on plugin registration order."""
        self._check("order-independent")

    def test_damage_conserved(self) -> None:
        """Damage assigned = dealt + prevented; power is assigned in full (510.1a, 120.4)."""
        self._check("damage-conserved")

    def test_events_accounted_for(self) -> None:
        """Every change to the state has its event."""
        self._check("events-accounted-for")

    def test_default_assignment_legal(self) -> None:
        """The default assignment is legal (510.1e)."""
        self._check("default-assignment-legal")


__all__ = ["BOARD_CHECKS", "INVARIANTS", "PROFILE", "Case", "ConformanceError",
           "KeywordConformance", "StepRecord", "Subject", "account", "cases",
           "check_conformance", "check_invariant", "legalize", "play", "printed_keywords",
           "summary_first"]
