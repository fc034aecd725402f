"""Scenario files: read, validate and turn into engine inputs.

A scenario file (TOML, or JSON when its name ends in ``.json``) describes one
board and one combat; the format is a public contract, documented in the
scenario format specification and shipped as a JSON Schema
(``redzone/formats/schema.json``). This module:

1. reads the file (refusing files over :data:`MAX_BYTES`) and parses it;
2. checks it against the schema: types, required and unknown keys (with the
   closest valid key suggested), bounds on integers;
3. checks what the schema can't: which ids exist and what kind of object
   each names, duplicate ids, keywords no loaded plugin provides (with close
   matches), the rules edition;
4. builds a :class:`Scenario`: a :class:`~redzone.GameState` and the
   declarations, assignments and actions :meth:`redzone.Engine.resolve` takes
   (the actions and effects are read by :mod:`redzone.formats.scenario_actions`,
   each action's ids checked as its kind's fields declare).

Every problem found is collected, so one :class:`ScenarioProblems` error
lists them all, each with the file, the key path and, where one can be found,
the line.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import Any, Final

from attrs import field, frozen

from redzone.formats.action_fields import action_schema, plugin_kinds
from redzone.formats.document import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    Document,
    Path,
    Problems,
    ScenarioProblems,
    UnreadableFileError,
    format_path,
    json_lines,
    line_for,
    open_regular,
    parse_text,
    quoted,
    read_document,
    size_problem,
    toml_lines,
)
from redzone.formats.scenario_actions import ActionReader, items, table
from redzone.formats.validator import (
    MAX_SUGGESTIONS,
    schema,
    schema_problems,
    schema_text,
    suggest,
    suggestions_left,
    with_actions,
)
from redzone.kernel.editions import EDITIONS, Edition, get_edition
from redzone.kernel.engine import CombatPlan, Engine
from redzone.kernel.errors import UnknownKeywordError
from redzone.kernel.frozen import EMPTY, FrozenMap
from redzone.kernel.hooktypes import Action
from redzone.kernel.model import (
    UNLIMITED,
    ZONES,
    Effect,
    GameState,
    Keyword,
    Permanent,
    Player,
    new_game,
    team_life,
)
from redzone.kernel.plans import TurnPlan

#: The actions that put a new permanent onto the battlefield, and the key of
#: the permanent they describe.
ENTERING: Final = {"enter_blocking": "permanent", "enter_attacking": "permanent",
                   "create_token": "token"}
#: A declaration's step -> the windows of its own combat that come before it:
#: a permanent entering in one of them may be named in it (302.6, 508.1a, 509.1a).
DECLARED_AFTER: Final = {"declare_attackers": ("beginning_of_combat",),
                         "declare_blockers": ("beginning_of_combat", "declare_attackers")}
#: What a declaration's step declares, in words.
STEP_WORDS: Final = {"declare_attackers": "attackers", "declare_blockers": "blockers"}
#: The windows of a turn before its combat phases: its beginning phase and
#: its precombat main phase (501.1, 505.1), in order.
BEFORE_COMBATS: Final = ("untap", "upkeep", "draw", "precombat_main")
#: The windows after every combat phase of the turn: the postcombat main
#: phase and the end step (505.1, 513), as the engine runs them.
AFTER_COMBATS: Final = frozenset({"postcombat_main", "end_step"})

#: The suffix of a window after a combat damage step's damage is assigned,
#: on the stack (an edition with ``damage_on_stack``).
_ASSIGNED: Final = "_assigned"

#: The editions the scenario format names (the engine may implement fewer).
FORMAT_EDITIONS: Final = ("foundations", "m10", "sixth")

EngineFactory = Callable[[str], Engine]




# ---------------------------------------------------------------------------
# The scenario
# ---------------------------------------------------------------------------

Assign = FrozenMap[str, FrozenMap[str, int]]


@frozen
class Scenario:
    """A validated scenario: everything :meth:`redzone.Engine.resolve` needs.

    :param file: the file it came from.
    :param rules: the rules edition in force.
    :param state: the state before combat (effects included).
    :param attacks: attacking creature -> what it attacks, in file order.
    :param blocks: blocking creature -> the attackers it blocks, in file order.
    :param order: damage assignment orders as written (used by editions that
        have them; accepted and ignored by the others).
    :param assign: assignments for every damage step, or ``None``.
    :param assign_first_strike: assignments for the first-strike step only.
    :param actions: ``(after, action)`` pairs, in file order.
    :param engine: the engine that parsed its keywords and resolves it.
    :param lines: key path -> line in the file, where known.
    :param bands: attacking bands declared with the attackers (508.1e,
        702.22c), in file order.
    :param additional_combats: the turn's further combat phases (500.8).
    :param turns: whole turns after the first (``[[turns]]``, 500.1).
    :param first_turn: the board is the game's first turn, at its start
        (``first_turn = true``, 103.8a).
    :param through: ``end_of_combat`` or ``cleanup`` (the end step and the
        cleanup step too, 513-514).
    :param choices: answers to the decisions the combat meets, by key
        (``[choices]``).

    .. versionadded:: 0.1.0
    """

    file: str
    rules: str
    state: GameState
    attacks: FrozenMap[str, str]
    blocks: FrozenMap[str, tuple[str, ...]]
    order: FrozenMap[str, tuple[str, ...]]
    assign: Assign | None
    assign_first_strike: Assign | None
    actions: tuple[tuple[str, Action], ...]
    engine: Engine = field(eq=False, repr=False)
    lines: FrozenMap[Path, int] = field(default=EMPTY, eq=False, repr=False)
    bands: tuple[tuple[str, ...], ...] = ()
    additional_combats: tuple[CombatPlan, ...] = ()
    turns: tuple[TurnPlan, ...] = ()
    first_turn: bool = False
    through: str = "end_of_combat"
    choices: FrozenMap[str, tuple[str, ...]] = EMPTY
    #: Notes about the scenario that are not problems (card abilities that are
    #: inert because no plugin provides them); front ends show them.
    notes: tuple[str, ...] = ()

    @property
    def effects(self) -> tuple[Effect, ...]:
        """The game-wide effects."""
        return self.state.effects

    @property
    def uses_order(self) -> bool:
        """Whether the ``order`` key applies under this scenario's edition."""
        return get_edition(self.rules).assignment_orders

    def line_of(self, path: Path) -> int | None:
        """The line of a key path in the file, where known."""
        return line_for(self.lines, path)


def _edition_problem(name: str) -> str:
    known = ", ".join(repr(e) for e in EDITIONS)
    if name in FORMAT_EDITIONS:
        return (f"rules edition {name!r} is part of the scenario format but not implemented "
                f"in this version of redzone; known editions: {known}")
    return f"unknown rules edition {name!r}{suggest(name, EDITIONS)}; known editions: {known}"


class _Builder:
    """Turns a schema-checked document into engine inputs, collecting problems."""

    #: Longer keyword texts are left to the schema check (never parsed).
    KEYWORD_MAX: Final = 100

    def __init__(self, data: dict[str, Any], problems: Problems, engine: Engine) -> None:
        self.data = data
        self.p = problems
        self.engine = engine
        self.kinds: dict[str, str] = {}
        self.players: dict[str, Player] = {}
        self.permanents: dict[str, Permanent] = {}
        #: id -> the combat (index) that an action bringing it onto the
        #: battlefield (``enter_blocking``, ``enter_attacking``,
        #: ``create_token``) is in, the step it is performed after, and the
        #: action's path.
        self.entering_combat: dict[str, int] = {}
        self.entering_after: dict[str, str] = {}
        self.entering_at: dict[str, Path] = {}
        #: the combat being built (0: [combat]).
        self.combat_index = 0
        #: the actions and effects, read against this board.
        self.reader = ActionReader(self)

    # -- helpers ---------------------------------------------------------------

    def ref(self, path: Path, value: Any, kinds: Sequence[str], what: str) -> bool:
        """Check that ``value`` is the id of a player/permanent as ``kinds`` says."""
        if not isinstance(value, str):
            return False
        kind = self.kinds.get(value)
        if kind is None and self.keyword_token(value):
            kind = "permanent"  # made as the combat goes on; the engine checks it is there
        if kind is None:
            pool = [i for i, k in self.kinds.items() if k in kinds]
            self.p.add(path, f"unknown {' or '.join(kinds)} id {quoted(value)} ({what})"
                             f"{suggest(value, pool)}")
            return False
        if kind not in kinds:
            self.p.add(path, f"{value!r} is a {kind}, but {what} must be a "
                             f"{' or '.join(kinds)}")
            return False
        return True

    def keyword_token(self, value: str) -> bool:
        """Whether ``value`` has the form of the id of a token a keyword
        creates, ``<source>.<keyword>.<n>`` (:func:`redzone.token_ids`): a
        permanent of the file (or such a token), a keyword the engine knows,
        and a number from 1. Whether the token exists when it is named is
        the engine's check, as the combat is resolved (508.1a, 509.1a)."""
        source, _, rest = value.rpartition(".")
        if not rest.isdigit() or rest.startswith("0") or not source:
            return False
        source, _, keyword = source.rpartition(".")
        if keyword not in self.keyword_names:
            return False
        return self.kinds.get(source) == "permanent" or self.keyword_token(source)

    @functools.cached_property
    def keyword_names(self) -> frozenset[str]:
        """The names of the keywords the engine knows."""
        return frozenset(info.spec.name for info in self.engine.keywords())

    def keyword(self, path: Path, text: Any) -> Keyword | None:
        if not isinstance(text, str) or len(text) > self.KEYWORD_MAX:
            return None  # the schema check has reported it
        policy = self.data.get("unknown_keywords")
        try:
            return self.engine.hooks.parse_keyword(
                text, unknown=policy if policy in ("error", "inert") else None,
                suggest=suggestions_left.get() > 0)
        except UnknownKeywordError as exc:
            if exc.suggestions:
                suggestions_left.set(suggestions_left.get() - 1)
            self.p.add(path, str(exc))
            return None

    table = staticmethod(table)
    items = staticmethod(items)

    @staticmethod
    def integer(value: Any, default: int) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    # -- the parts -------------------------------------------------------------

    def build_players(self) -> None:
        teams = {m: len(ms) for ms in self.table(self.data.get("teams")).values()
                 if isinstance(ms, list) for m in ms if isinstance(m, str)}
        for pid, pdata in self.table(self.data.get("players")).items():
            if not isinstance(pid, str):
                continue  # (made in Python: the schema check has reported it)
            pdata = self.table(pdata)
            self.kinds[pid] = "player"
            # 810.4, 810.11: a team's shared life starts at 30, 15 more per extra
            # player; a team of one starts at 20 (103.4).
            life = team_life(teams[pid]) if pid in teams else 20
            self.players[pid] = Player(pid, life=self.integer(pdata.get("life"), life),
                                       poison=self.integer(pdata.get("poison"), 0),
                                       max_hand_size=self.integer(pdata.get("max_hand_size"),
                                                                  7))

    def teams(self) -> dict[str, tuple[str, ...]]:
        """``teams``: team id -> its players (Two-Headed Giant, 810)."""
        out: dict[str, tuple[str, ...]] = {}
        seen: dict[str, str] = {}
        for team, members in self.table(self.data.get("teams")).items():
            ok = True
            for j, m in enumerate(self.items(members)):
                ok = self.ref(("teams", team, j), m, ("player",), "a member of a team") and ok
                if isinstance(m, str) and m in seen:
                    self.p.add(("teams", team, j), f"{m!r} is already on team {seen[m]!r}: a "
                                                   "player is on one team")
                    ok = False
                elif isinstance(m, str):
                    seen[m] = team
            names = [m for m in self.items(members) if isinstance(m, str)]
            if ok and len({(self.players[m].life, self.players[m].poison)
                           for m in names}) > 1:
                self.p.add(("teams", team), "teammates share one life total and one poison "
                                            "count (810.4, 810.10): give them the same "
                                            "life and poison")
                ok = False
            if ok:
                out[team] = tuple(names)
        return out

    def build_permanents(self) -> None:
        first: dict[str, int] = {}
        for i, pdata in enumerate(self.items(self.data.get("permanents"))):
            pid = self.table(pdata).get("id")
            if not isinstance(pid, str):
                continue
            if pid in self.players:
                self.p.add(("permanents", i, "id"), f"id {pid!r} is already a player's id; "
                                                    "every id must be unique")
            elif pid in first:
                self.p.add(("permanents", i, "id"), f"duplicate id {pid!r} (already used by "
                                                    f"permanents[{first[pid]}])")
            else:
                first[pid] = i
                self.kinds[pid] = "permanent"
        self._register_entering()
        for i, pdata in enumerate(self.items(self.data.get("permanents"))):
            pid = self.table(pdata).get("id")
            if not isinstance(pid, str):
                continue
            perm = self.permanent(("permanents", i), pdata, pid)  # duplicates are checked too
            if perm is not None and first.get(pid) == i:
                self.permanents[pid] = perm

    def combat_tables(self) -> list[tuple[Path, dict[str, Any]]]:
        """``[combat]`` and each ``[[additional_combats]]``, with their paths."""
        out: list[tuple[Path, dict[str, Any]]] = [(("combat",),
                                                   self.table(self.data.get("combat")))]
        for k, cdata in enumerate(self.items(self.data.get("additional_combats"))):
            out.append((("additional_combats", k), self.table(cdata)))
        for k, cdata in enumerate(self.items(self.data.get("turns"))):
            out.append((("turns", k), self.table(cdata)))
        return out

    def _register_entering(self) -> None:
        """The ids of permanents that enter the battlefield (an
        ``enter_blocking``, ``enter_attacking`` or ``create_token`` action):
        new, unique ids, usable by assignments and later actions, and by the
        declarations made after they enter (see :meth:`declared`). Such an
        action may stand in a combat's ``actions``, or among the actions of a
        written triggered ability (``[[triggers]]``) or of a delayed trigger
        (``create_delayed_trigger``), at any depth; when one of those resolves
        is the game's to say, so the permanent it brings may be named anywhere
        and the engine checks, as the file runs, that it is there."""
        for c, (cat, combat) in enumerate(self.combat_tables()):
            self._register_actions((*cat, "actions"), combat.get("actions"), c)
        for i, tdata in enumerate(self.items(self.data.get("triggers"))):
            self._register_actions(("triggers", i, "actions"), self.table(tdata).get("actions"),
                                   None)

    def _register_actions(self, where: Path, value: Any, combat: int | None) -> None:
        """Register the permanents the action tables ``value`` (at ``where``)
        bring onto the battlefield, and those of the delayed triggers among
        them; ``combat`` is the index of the combat whose priority windows
        they happen in, ``None`` for a trigger's actions."""
        for i, adata in enumerate(self.items(value)):
            adata = self.table(adata)
            do = adata.get("do")
            at: Path = (*where, i)
            if do == "create_delayed_trigger":
                self._register_actions((*at, "actions"), adata.get("actions"), None)
                continue
            # (A "do" that isn't a string is reported where actions are read.)
            key = ENTERING.get(do) if isinstance(do, str) else None
            if key is None:
                continue
            pid = self.table(adata.get(key)).get("id")
            if not isinstance(pid, str):
                continue
            if pid in self.kinds or pid in self.entering_at:
                where_used = ("a player's id" if self.kinds.get(pid) == "player" else
                              f"already used by {format_path(self.entering_at[pid])}"
                              if pid in self.entering_at else "already a permanent's id")
                self.p.add((*at, key, "id"), f"id {pid!r} is {where_used}: a permanent "
                           "entering the battlefield needs a new id")
                continue
            if combat is not None:
                self.entering_combat[pid] = combat
                after = adata.get("after")
                self.entering_after[pid] = after if isinstance(after, str) else ""
            self.entering_at[pid] = at
            self.kinds[pid] = "permanent"

    def declared(self, path: Path, value: Any, kinds: Sequence[str], what: str,
                 step: str) -> bool:
        """:meth:`ref` for the declarations of ``step`` (``declare_attackers``:
        ``attacks`` and ``bands``; ``declare_blockers``: ``blocks`` and
        ``order``). A permanent an action puts onto the battlefield may be
        named by a declaration made after it entered, as any permanent may
        (302.6, 508.1a, 509.1a: a declaration names creatures on the
        battlefield as it is made): one entering in a window of an earlier
        turn, of this turn's beginning phase or precombat main phase, or of
        an earlier combat of this turn; one entering in the beginning of
        combat step in the attackers and blockers; one entering after
        attackers are declared in the blockers (see :meth:`moment`). Else it
        isn't on the battlefield yet when the declaration is made (or its
        window never comes, :meth:`missing_window`), and naming it is a
        problem."""
        if isinstance(value, str) and value in self.entering_combat:
            combat = self.entering_combat[value]
            after = self.entering_after[value]
            before = DECLARED_AFTER[step]
            entered, now = self.moment(combat, after), self.moment(self.combat_index, step)
            missing = self.missing_window(combat, after)
            hint = ("an action before the declaration, after = "
                    f"{' or '.join(map(repr, before))} (or an earlier step), may bring it "
                    "in time")
            where = format_path(self.entering_at[value])
            if missing is not None:
                self.p.add(path, f"{value!r} never enters the battlefield ({where}, after = "
                                 f"{after!r}: {missing}), so it can't be {what}; {hint}")
                return False
            if entered > now or (entered == now and after not in before):
                when = ("in a later turn" if entered[0] > now[0] else
                        "after every combat of its turn" if after in AFTER_COMBATS else
                        "in a later combat" if entered[2] > now[2] else
                        f"after = {after!r}")
                self.p.add(path, f"{value!r} enters the battlefield ({where}, {when}), after "
                                 f"{STEP_WORDS[step]} are declared, so it can't be {what}; "
                                 f"{hint}")
                return False
        return self.ref(path, value, kinds, what)

    def moment(self, combat: int, step: str) -> tuple[int, int, int]:
        """When the window ``step`` of the combat ``combat`` (an index of
        :meth:`combat_tables`) comes, as ``(turn, part, combat of the
        turn)`` ordered as the game runs: a turn's beginning phase and
        precombat main phase (part 0) come before its combats (part 1, each
        in order), the postcombat main phase and the end step after them all
        (part 2, 505.1, 513). ``[combat]`` and ``[[additional_combats]]`` are
        the first turn's combats (500.8); each ``[[turns]]`` is a turn
        (500.1). Windows of one combat compare equal: their order is
        :data:`DECLARED_AFTER`'s."""
        extra = len(self.items(self.data.get("additional_combats")))
        turn, nth = (1, combat) if combat <= extra else (combat - extra + 1, 0)
        part = 0 if step in BEFORE_COMBATS else 2 if step in AFTER_COMBATS else 1
        return turn, part, nth

    def missing_window(self, combat: int, step: str) -> str | None:
        """Why the window ``step`` of the combat ``combat`` never comes in
        this file, or ``None`` (:func:`stack_window`, :func:`missing_window`)."""
        return stack_window(self.engine.edition, self.reader.steps, step) \
            or missing_window(self.data, self.moment(combat, step), step)

    def permanent(self, at: Path, pdata: dict[str, Any], pid: str) -> Permanent | None:
        ok = self.ref((*at, "controller"), pdata.get("controller"), ("player",), "a controller")
        owner = pdata.get("owner", pdata.get("controller"))
        if "owner" in pdata:
            ok = self.ref((*at, "owner"), owner, ("player",), "an owner") and ok
        if "protector" in pdata:
            ok = self.ref((*at, "protector"), pdata["protector"], ("player",),
                          "a battle's protector") and ok
        types = self.items(pdata.get("types", ["creature"]))
        if "creature" in types:
            for key in ("power", "toughness"):
                if key not in pdata:
                    self.p.add((*at, key), f"missing required key {key!r}: a creature has "
                                           "power and toughness")
                    ok = False
        keywords = []
        for j, text in enumerate(self.items(pdata.get("keywords"))):
            kw = self.keyword((*at, "keywords", j), text)
            if kw is None:
                ok = False
            else:
                keywords.append(kw)
        counters = {k: v for k, v in self.table(pdata.get("counters")).items()
                    if isinstance(v, int) and not isinstance(v, bool)}
        zone = pdata.get("zone", "battlefield")
        zone = zone if zone in ZONES else "battlefield"  # (the schema check reports others)
        printed: dict[str, int | None] = {}
        for key in ("loyalty", "defense"):
            # On the battlefield, ``loyalty`` and ``defense`` are counters and
            # the printed number defaults to them; off it, a card has no
            # counters (122.2) and they are its printed number (306.5b, 310.4b).
            own = f"printed_{key}"
            given = self.integer(pdata[own], 0) if own in pdata else None
            if key in pdata and zone != "battlefield":
                value = self.integer(pdata[key], 0)
                if given is not None and given != value:
                    self.p.add((*at, own), f"{own} = {given} disagrees with {key} = "
                                           f"{value}, the printed {key} of a card in the "
                                           f"{zone}")
                    ok = False
                given = value
            elif key in pdata:
                value = self.integer(pdata[key], 0)
                if key in counters and counters[key] != value:
                    self.p.add((*at, key), f"{key} = {value} disagrees with counters."
                                           f"{key} = {counters[key]}")
                    ok = False
                counters[key] = value
            if given is None and zone == "battlefield" and key in counters \
                    and pid not in self.entering_at:  # (one entering: its action's counters)
                given = counters[key]
            printed[key] = given
        extra = pdata.get("can_block_additional", 0)
        can_block = UNLIMITED if extra == "any" else self.integer(extra, 0)
        if zone != "battlefield" and "owner" in pdata and owner != pdata.get("controller"):
            self.p.add((*at, "owner"), f"a card in the {zone} is controlled by its owner "
                                       f"(400.3): owner {owner!r} and controller "
                                       f"{pdata.get('controller')!r} must be the same")
            ok = False
        if zone != "battlefield" and pid not in self.entering_at:  # (entering: its action's)
            for key, message in off_battlefield(pdata, zone):
                self.p.add((*at, key), message)
                ok = False
        if not ok:
            return None
        try:
            return self._make_permanent(pid, pdata, owner, types, keywords, counters, can_block,
                                        printed)
        except (TypeError, ValueError):
            return None  # wrong types: the schema check has reported them

    def _make_permanent(self, pid: str, pdata: dict[str, Any], owner: Any, types: list[Any],
                        keywords: list[Keyword], counters: dict[str, int],
                        can_block: int, printed: dict[str, int | None]) -> Permanent:
        def flag(key: str) -> bool:
            return pdata.get(key, False) is True

        zone = pdata.get("zone", "battlefield")
        zone = zone if zone in ZONES else "battlefield"

        return Permanent(
            id=pid,
            controller=pdata["controller"],
            name=pdata.get("name", pid),
            owner=owner,
            types=types,
            subtypes=self.items(pdata.get("subtypes")),
            supertypes=self.items(pdata.get("supertypes")),
            colors=self.items(pdata.get("colors")),
            base_power=pdata.get("power"),
            base_toughness=pdata.get("toughness"),
            printed_keywords=keywords,
            printed_loyalty=printed["loyalty"],
            printed_defense=printed["defense"],
            counters=counters,
            damage=self.integer(pdata.get("damage"), 0),
            tapped=bool(pdata.get("tapped", False)),
            summoning_sick=bool(pdata.get("summoning_sick", False)),
            protector=pdata.get("protector"),
            can_block_additional=can_block,
            min_blockers=self.integer(pdata.get("min_blockers"), 0),
            cant_attack=flag("cant_attack"),
            cant_block=flag("cant_block"),
            cant_be_blocked=flag("cant_be_blocked"),
            attacks_if_able=flag("attacks_if_able"),
            blocks_if_able=flag("blocks_if_able"),
            must_be_blocked=flag("must_be_blocked"),
            lure=flag("lure"),
            token=flag("token"),
            zone=zone,  # (its place: as listed, library top first, 401.1)
        )

    def turn_order(self) -> tuple[str | None, tuple[str, ...] | None]:
        active = self.data.get("active_player")
        if not self.ref(("active_player",), active, ("player",), "the active player"):
            active = None
        order: tuple[str, ...] | None = None
        if "turn_order" in self.data:
            given = self.items(self.data["turn_order"])
            ok = True
            for j, pid in enumerate(given):
                ok = self.ref(("turn_order", j), pid, ("player",), "a player in turn order") and ok
            missing = [p for p in self.players if p not in given]
            if missing:
                self.p.add(("turn_order",), "turn_order must name every player once; missing: "
                                            + ", ".join(repr(m) for m in missing))
                ok = False
            if ok and all(isinstance(g, str) for g in given) and len(set(given)) == len(given):
                order = tuple(given)
        return active, order

    def combat(self, at: Path = ("combat",), index: int = 0) -> dict[str, Any]:
        combat = self.combat_tables()[index][1]
        self.combat_index = index
        A, B = "declare_attackers", "declare_blockers"
        attacks: dict[str, str] = {}
        for attacker, target in self.table(combat.get("attacks")).items():
            path = (*at, "attacks", attacker)
            ok = self.declared(path, attacker, ("permanent",), "an attacking creature", A)
            ok = self.declared(path, target, ("player", "permanent"),
                               "what a creature attacks", A) and ok
            if ok:
                attacks[attacker] = target
        blocks: dict[str, tuple[str, ...]] = {}
        for blocker, blocked in self.table(combat.get("blocks")).items():
            path = (*at, "blocks", blocker)
            ok = self.declared(path, blocker, ("permanent",), "a blocking creature", B)
            targets = [blocked] if isinstance(blocked, str) else self.items(blocked)
            for j, attacker in enumerate(targets):
                where = path if isinstance(blocked, str) else (*path, j)
                ok = self.declared(where, attacker, ("permanent",), "a blocked creature",
                                   B) and ok
            if ok:
                blocks[blocker] = tuple(targets)
        order: dict[str, tuple[str, ...]] = {}
        for obj, listed in self.table(combat.get("order")).items():
            path = (*at, "order", obj)
            ok = self.declared(path, obj, ("permanent",), "an attacking or blocking creature",
                               B)
            for j, other in enumerate(self.items(listed)):
                ok = self.declared((*path, j), other, ("permanent",),
                                   "a creature in a damage assignment order", B) and ok
            names = [n for n in self.items(listed) if isinstance(n, str)]
            if len(set(names)) != len(names):
                self.p.add(path, "a damage assignment order names a creature twice")
                ok = False
            if ok:
                order[obj] = tuple(names)
        bands: list[tuple[str, ...]] = []
        for i, band in enumerate(self.items(combat.get("bands"))):
            ok = True
            for j, member in enumerate(self.items(band)):
                ok = self.declared((*at, "bands", i, j), member, ("permanent",),
                                   "a member of an attacking band", A) and ok
            if ok and isinstance(band, list):
                bands.append(tuple(band))
        out: dict[str, Any] = {"attacks": attacks, "blocks": blocks, "order": order,
                               "bands": tuple(bands)}
        for key in ("assign", "assign_first_strike"):
            out[key] = self.assignment((*at, key), combat[key]) if key in combat else None
        out["actions"] = self.reader.actions(combat.get("actions"), (*at, "actions"))
        for i, adata in enumerate(self.items(combat.get("actions"))):
            after = self.table(adata).get("after")  # (a window this file never has: 500.1)
            missing = self.missing_window(index, after) if isinstance(after, str) else None
            if missing is not None:
                self.p.add((*at, "actions", i, "after"), f"the step {after!r} never comes in "
                                                         f"this file: {missing}")
        return out

    def additional_combats(self) -> tuple[CombatPlan, ...]:
        plans = []
        for k in range(len(self.items(self.data.get("additional_combats")))):
            c = self.combat(("additional_combats", k), k + 1)
            plans.append(CombatPlan(FrozenMap(c["attacks"]), FrozenMap(c["blocks"]),
                                    assign=c["assign"],
                                    assign_first_strike=c["assign_first_strike"],
                                    actions=c["actions"], order=FrozenMap(c["order"]),
                                    bands=c["bands"]))
        self.combat_index = 0
        return tuple(plans)

    def turns(self) -> tuple[TurnPlan, ...]:
        """Each ``[[turns]]``: a whole turn after the first (500.1), with its
        own ``choices``, the answers to that turn's decisions (601.2)."""
        plans = []
        first = 1 + len(self.items(self.data.get("additional_combats")))
        for k, tdata in enumerate(self.items(self.data.get("turns"))):
            c = self.combat(("turns", k), first + k)
            plans.append(TurnPlan(CombatPlan(
                FrozenMap(c["attacks"]), FrozenMap(c["blocks"]), assign=c["assign"],
                assign_first_strike=c["assign_first_strike"], actions=c["actions"],
                order=FrozenMap(c["order"]), bands=c["bands"]),
                choices=answers(self.table(tdata).get("choices"))))
        self.combat_index = 0
        return tuple(plans)

    def assignment(self, at: Path, value: Any) -> Assign:
        result: dict[str, FrozenMap[str, int]] = {}
        for source, amounts in self.table(value).items():
            ok = self.ref((*at, source), source, ("permanent",), "a creature assigning damage")
            for recipient in self.table(amounts):
                ok = self.ref((*at, source, recipient), recipient, ("player", "permanent"),
                              "a damage recipient") and ok
            if ok and isinstance(amounts, dict):
                result[source] = FrozenMap(amounts)
        return FrozenMap(result)


def stack_window(edition: Edition, steps: Sequence[str], step: str) -> str | None:
    """Why the window ``step`` (one of ``steps``, the names an ``after`` may
    give) never comes under ``edition``, or ``None``: a window after combat
    damage is assigned, on the stack (``<step>_assigned``), comes only under
    an edition whose combat damage uses the stack (310.4 of February 2009);
    today's combat damage is dealt as it is assigned, without using the
    stack (510.2). The edition is known before anything runs."""
    if not step.endswith(_ASSIGNED) or step not in steps or edition.damage_on_stack:
        return None
    having = " or ".join(f'rules = "{e.name}"' for e in EDITIONS.values()
                         if e.damage_on_stack) or "an edition with combat damage on the stack"
    return (f"it is the window after combat damage is assigned, on the stack, which comes "
            f"only under {having} (310.4 of February 2009); under rules = "
            f"\"{edition.name}\" combat damage is dealt as it is assigned, without using "
            "the stack (510.2)")


def missing_window(data: dict[str, Any], moment: tuple[int, int, int], step: str
                   ) -> str | None:
    """Why the window ``step``, at ``moment`` (:meth:`_Builder.moment`), never
    comes in the file ``data``, or ``None``. The first turn starts in its
    precombat main phase, its beginning phase past (500.1), so that phase
    runs only with ``first_turn = true``, and then without the draw step of
    the player who plays first in a game of two players or two teams (103.8a,
    810.6); an additional combat's actions come in its combat phase and
    after it (500.8); the first turn's postcombat main phase and end step
    come only when the file runs the turn on (``through = "cleanup"``, or
    ``[[turns]]``). A later turn runs whole. (What a file can't tell, such
    as a combat step skipped as the game runs, 508.8, the engine refuses as
    the file runs, 506.1.)"""
    turn, _part, nth = moment
    if turn != 1:
        return None
    if step in AFTER_COMBATS:
        if data.get("through") == "cleanup" or items(data.get("turns")):
            return None
        return ("the file's turn ends with its combat (through = \"end_of_combat\", the "
                "default), before its postcombat main phase and end step (500.1); they "
                "come with through = \"cleanup\" or [[turns]]")
    if step not in BEFORE_COMBATS:
        return None
    if nth > 0:
        return ("an additional combat's actions come in its combat phase or after it, "
                "not before the turn's first combat (500.8)")
    if step == "precombat_main":
        return None
    if data.get("first_turn") is not True:
        return ("the first turn starts in its precombat main phase, its beginning phase "
                "past (500.1); the beginning phase runs only with first_turn = true")
    if step == "draw" and not first_player_draws(data):
        return ("the player who plays first skips the draw step of their first turn in a "
                "game of two players or two teams (103.8a, 810.6)")
    return None


def first_player_draws(data: dict[str, Any]) -> bool:
    """Whether the player (team) who plays first draws in the first turn of
    the file ``data``: not in a game of two sides, players or teams (103.8a,
    810.6); yes with more (103.8c). As the engine decides it
    (:func:`redzone.kernel.turn.first_turn_draws`)."""
    team_of = {m: ("team", t) for t, ms in table(data.get("teams")).items()
               for m in items(ms) if isinstance(m, str)}
    return len({team_of.get(p, ("player", p)) for p in table(data.get("players"))}) > 2


def off_battlefield(pdata: dict[str, Any], zone: str) -> list[tuple[str, str]]:
    """The problems, as (key, message) pairs, of the ``[[permanents]]``
    table ``pdata`` of a card in ``zone``, not the battlefield, that gives it
    what only a permanent has: tapped (110.5: tapped and untapped is a
    permanent's status), damage marked (120.6: damage is marked on a
    permanent, and removed as it leaves the battlefield, 400.7), counters
    (122.2: counters aren't kept when an object moves from one zone to
    another, 400.7), except in exile, where a card may have counters
    (702.62a: suspend exiles it with time counters). A key saying what the
    card is (``tapped = false``, ``damage = 0``, no counter of a kind) is no
    problem; so are ``loyalty`` and ``defense``, which off the battlefield
    are the card's printed numbers (306.5b, 310.4b)."""
    out: list[tuple[str, str]] = []

    def refuse(key: str, shown: str, why: str) -> None:
        out.append((key, f"{key} = {shown}: a card in the {zone} {why}; only a permanent "
                         f"(an object on the battlefield) has it; leave {key!r} out"))

    def count(value: Any) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    if count(pdata.get("damage")):
        refuse("damage", str(pdata["damage"]), "has no damage marked (120.6: damage is "
                                               "marked on a permanent and removed as it "
                                               "leaves the battlefield, 400.7)")
    if pdata.get("tapped") is True:
        refuse("tapped", "true", "is neither tapped nor untapped (110.5: that is a "
                                 "permanent's status)")
    if zone == "exile":
        return out
    rule = ("122.2: counters aren't kept as an object moves from one zone to another, "
            "400.7; a card in exile may have counters, 702.62a")
    counters = {k: v for k, v in table(pdata.get("counters")).items() if count(v)}
    if counters:
        refuse("counters", "{ " + ", ".join(f'"{k}" = {v}' for k, v in counters.items())
               + " }", f"has no counters ({rule})")
    return out


def answers(value: Any) -> FrozenMap[str, tuple[str, ...]]:
    """The answers of a ``choices`` table (the top level's or a turn's), by
    key, each a tuple of options (the schema check has reported any other
    shape)."""
    return FrozenMap((k, (v,) if isinstance(v, str) else tuple(v))
                     for k, v in table(value).items()
                     if isinstance(v, str | list))


def _names_cards(data: dict[str, Any]) -> bool:
    """Whether a permanent of ``data`` names a card (``card = "NAME"``): else
    the card data, if any, completes nothing."""
    permanents = data.get("permanents")
    return isinstance(permanents, list) and any(
        isinstance(p, dict) and isinstance(p.get("card"), str) for p in permanents)


def _check_card_file(data: dict[str, Any], file: str, problems: Problems) -> None:
    """Check the ``cards`` key of a scenario in which no permanent names a
    card, as if one did, without reading the card file: it stays in the
    scenario's folder (an absolute or ``../`` path is refused) and names a
    regular file that can be opened (docs/cards.md). A typo must not pass
    silently because no card is asked for yet."""
    from redzone.formats import cards as _cards

    try:
        path = _cards.card_file(data, file)
    except _cards.OutsideFolderError as exc:
        problems.add(("cards",), str(exc))
        return
    if path is None:  # pragma: no cover - ``cards`` is a string here
        return
    try:
        open_regular(path, "card file").close()
    except UnreadableFileError as exc:
        problems.add(("cards",), f"{path}: {exc}")


def build(document: Document, *, rules: str | None = None,
          engine_factory: EngineFactory | None = None) -> Scenario:
    """Validate a parsed document and build its :class:`Scenario`.

    :param rules: a rules edition overriding the file's ``rules`` key.
    :param engine_factory: makes the engine for an edition name (default:
        :class:`redzone.Engine` with every installed plugin).
    :raises ScenarioProblems: listing every problem found.
    """
    budget = suggestions_left.set(MAX_SUGGESTIONS)
    try:
        return _build(document, rules, engine_factory)
    finally:
        suggestions_left.reset(budget)


def _build(document: Document, rules: str | None,
           engine_factory: EngineFactory | None) -> Scenario:
    factory: EngineFactory = engine_factory or Engine
    problems = Problems(document.file, document.lines)
    data = document.data
    if not isinstance(data, dict) or size_problem(data) is not None:
        problems.extend(schema_problems(data))
        raise problems.error()
    edition = "foundations"
    if rules is not None:
        if rules in EDITIONS:
            edition = rules
        else:
            problems.add((), _edition_problem(rules), key="--rules")
    elif isinstance(data.get("rules"), str):
        if data["rules"] in EDITIONS:
            edition = data["rules"]
        else:
            problems.add(("rules",), _edition_problem(data["rules"]))
    engine = factory(edition)
    # the plugins' action kinds are the schema's too (their fields by annotation)
    problems.extend(schema_problems(data, plugin_action_schemas(engine)))
    # -- card data: `cards = "PATH"` and `card = "NAME"` (redzone.formats.cards) --
    notes: tuple[str, ...] = ()
    if _names_cards(data):  # the card reader is imported only for a scenario that uses it
        from redzone.formats import cards as _cards

        data, notes = _cards.expand(data, document.file, problems.add, engine.keyword)
    elif isinstance(data.get("cards"), str):
        _check_card_file(data, document.file, problems)
    # -- end of card data --
    b = _Builder(data, problems, engine)
    b.build_players()
    b.build_permanents()
    active, order = b.turn_order()
    teams = b.teams()
    combat = b.combat()
    additional = b.additional_combats()
    turns = b.turns()
    effects = b.reader.effects(data.get("effects"))
    written = b.reader.triggers(data.get("triggers"))
    if problems or active is None:
        if not problems:  # pragma: no cover - the schema requires active_player
            problems.add(("active_player",), "missing required key 'active_player'")
        raise problems.error()
    try:
        state = new_game(list(b.players.values()), list(b.permanents.values()),
                         active_player=active, turn_order=order, effects=effects, rules=edition,
                         teams=teams)
        state = state.evolve(keyword_set=engine.hooks.keyword_infos,  # what it was made with
                             written=written)
    except ValueError as exc:  # pragma: no cover - every case is checked above
        problems.add((), str(exc))
        raise problems.error() from None
    return Scenario(
        file=document.file,
        rules=edition,
        state=state,
        attacks=FrozenMap(combat["attacks"]),
        blocks=FrozenMap(combat["blocks"]),
        order=FrozenMap(combat["order"]),
        assign=combat["assign"],
        assign_first_strike=combat["assign_first_strike"],
        actions=combat["actions"],
        engine=engine,
        lines=document.lines,
        bands=combat["bands"],
        additional_combats=additional,
        turns=turns,
        first_turn=data.get("first_turn", False) is True,
        through=data.get("through", "end_of_combat"),
        choices=answers(data.get("choices")),
        notes=notes,
    )


def plugin_action_schemas(engine: Engine) -> list[dict[str, Any]]:
    """The schema branches of the action kinds ``engine``'s plugins declare
    (:func:`redzone.formats.action_fields.action_schema`)."""
    return [action_schema(cls) for cls, _plugin in plugin_kinds(engine.hooks.action_specs).values()]


def scenario_schema(engine: Engine) -> dict[str, Any]:
    """The JSON Schema a file is checked against with ``engine``: the shipped
    one, its ``action`` union with the plugins' kinds added."""
    return with_actions(plugin_action_schemas(engine))


def load(path: str | os.PathLike[str], *, rules: str | None = None,
         engine_factory: EngineFactory | None = None) -> Scenario:
    """Read, validate and build the scenario in a file.

    :raises ScenarioProblems: listing every problem found.
    """
    return build(read_document(path), rules=rules, engine_factory=engine_factory)


def loads(text: str, *, file: str = "<scenario>", format: str = "toml",
          rules: str | None = None, engine_factory: EngineFactory | None = None) -> Scenario:
    """Validate and build a scenario from its text.

    :raises ScenarioProblems: listing every problem found.
    """
    return build(parse_text(text, file=file, format=format), rules=rules,
                 engine_factory=engine_factory)


def from_data(data: Any, *, file: str = "<scenario>", rules: str | None = None,
              engine_factory: EngineFactory | None = None) -> Scenario:
    """Validate and build a scenario from an already parsed document.

    :raises ScenarioProblems: listing every problem found.
    """
    return build(Document(file, "", data, "data", FrozenMap()), rules=rules,
                 engine_factory=engine_factory)


__all__ = [
    "FORMAT_EDITIONS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "Document",
    "Scenario",
    "ScenarioProblems",
    "build",
    "format_path",
    "from_data",
    "json_lines",
    "line_for",
    "load",
    "loads",
    "parse_text",
    "plugin_action_schemas",
    "read_document",
    "scenario_schema",
    "schema",
    "schema_problems",
    "schema_text",
    "size_problem",
    "toml_lines",
]
