"""A scenario's actions and effects: read, checked against the board, built.

The ids an action names are checked as its kind's fields say
(:func:`redzone.kernel.references.reference_fields`, the annotations the
kernel's checks read too): each reference field the action gives must name a
player or a permanent of the scenario, as the field's kind allows. What an
action builds (a token, a blocking permanent, a spell source, an effect) is
built with the board's checks; the rest of an action's keys are the schema's
and the action class's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final, Protocol

from redzone.formats.action_fields import action_fields, convert, field_schema, type_text
from redzone.formats.document import Path, Problems, quoted
from redzone.formats.validator import suggest, value_problems
from redzone.kernel.action_kinds import ActionTable, is_kernel_kind
from redzone.kernel.engine import Engine
from redzone.kernel.errors import close_matches
from redzone.kernel.events import ID_FIELDS, EventKind
from redzone.kernel.events import kinds as _event_kinds
from redzone.kernel.hooktypes import Action
from redzone.kernel.model import Effect, Keyword, Permanent, StackObject, WrittenTrigger
from redzone.kernel.references import EACH_PLAYER, reference_fields
from redzone.kernel.shapes import ref_kind, shape_of

#: The steps an action's ``after`` may name without any plugin (the scenario
#: format's list); plugins' combat damage steps come on top.
BUILTIN_STEPS: Final = ("untap", "upkeep", "draw", "precombat_main",
                        "beginning_of_combat", "declare_attackers", "declare_blockers",
                        "first_strike_damage_assigned", "first_strike_damage",
                        "combat_damage_assigned", "combat_damage", "end_of_combat",
                        "postcombat_main", "end_step")

#: What a reference kind of an action's field may name on a scenario's board:
#: its players and permanents (a spell or ability that deals damage is
#: written in the action itself, so a ``source`` is a permanent there).
BOARD_KINDS: Final[dict[str, tuple[str, ...]]] = {
    "player": ("player",), "object": ("permanent",), "source": ("permanent",),
    "player or object": ("player", "permanent"), "any": ("player", "permanent"),
}

#: How a problem names an action's field, where "the FIELD of 'DO'" wouldn't say it.
FIELD_WHAT: Final[dict[tuple[str, str], str]] = {
    ("prevent", "gain_life"): "the player gaining life",
    ("create_token", "attacking"): "what the token enters attacking",
    ("create_token", "blocking"): "the attacking creature the token enters blocking",
    ("block", "blocker"): "the creature that blocks",
    ("block", "attacker"): "the attacking creature it blocks",
    ("enter_blocking", "attacker"): "the attacking creature it blocks",
    ("enter_attacking", "attacking"): "what the permanent enters attacking",
}

#: The action fields that may say ``"each"`` (each player at once, 104.4a).
EACH_FIELDS: Final = frozenset({("lose_life", "player"), ("gain_life", "player"),
                                ("deal_damage", "target")})

#: The rule by which each action that puts a new permanent onto the
#: battlefield puts it there.
ENTERS_RULE: Final = {"create_token": "111.2", "enter_attacking": "508.4",
                      "enter_blocking": "509.4"}

#: The fields of every event, whatever its kind, that a written trigger's
#: ``match`` may name (:class:`~redzone.kernel.events.Event`'s own).
EVERY_EVENT: Final = ("step", "rule")

#: Effect kinds whose ``to`` must be a permanent (not a player).
_TO_PERMANENT: Final = frozenset({"blocks_if_able"})


def _shown(value: Any) -> str:
    """A TOML value as a problem quotes it (``true``, ``1``, ``'hand'``)."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


def table(value: Any) -> dict[str, Any]:
    """``value`` when it is a table, else an empty one (the schema check has
    reported it)."""
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[Any]:
    """``value`` when it is a list, else an empty one (likewise)."""
    return value if isinstance(value, list) else []


class Board(Protocol):
    """What the actions' reader needs of the scenario's board."""

    p: Problems
    engine: Engine
    #: id -> ``player`` or ``permanent``
    kinds: dict[str, str]
    #: id of a permanent that enters during combat -> the action's path
    entering_at: dict[str, Path]
    #: the scenario's permanents (in any zone), by id
    permanents: dict[str, Permanent]

    def ref(self, path: Path, value: Any, kinds: Sequence[str], what: str) -> bool:
        """Whether ``value`` names one of ``kinds``; else a problem at ``path``."""

    def keyword(self, path: Path, text: Any) -> Keyword | None:
        """The keyword ``text`` parses to; else a problem at ``path``."""

    def permanent(self, at: Path, pdata: dict[str, Any], pid: str) -> Permanent | None:
        """The permanent the table ``pdata`` describes; else problems under ``at``."""


class ActionReader:
    """Reads the actions and effects of a scenario against its ``board``,
    adding the problems found to the board's."""

    def __init__(self, board: Board) -> None:
        self.board = board
        #: The ids given to inline spells and abilities so far, in file order.
        self.spell_ids: list[str] = []

    @functools.cached_property
    def steps(self) -> tuple[str, ...]:
        """The step names an action's ``after`` may name: the format's own and
        the combat damage steps the engine's plugins declare (with their
        ``_assigned`` windows)."""
        names = list(BUILTIN_STEPS)
        for spec in self.board.engine.damage_steps:
            names.extend(n for n in (spec.name + "_assigned", spec.name) if n not in names)
        return tuple(names)

    def actions(self, value: Any, where: Path) -> tuple[tuple[str, Action], ...]:
        """The ``(after, action)`` pairs of the action tables ``value`` (at
        ``where``), each checked; an action with a problem is left out."""
        out: list[tuple[str, Action]] = []
        for i, adata in enumerate(items(value)):
            adata = table(adata)
            at: Path = (*where, i)
            do = adata.get("do")
            after = adata.get("after")
            if isinstance(after, str) and after not in self.steps:
                close = close_matches(after, self.steps)
                hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
                self.board.p.add((*at, "after"), f"unknown step {after!r}{hint}; the steps are: "
                                 f"{', '.join(self.steps)} (a combat damage step of a plugin "
                                 "needs that plugin loaded)")
                continue
            if not isinstance(do, str) or do not in self.kinds or not isinstance(after, str):
                continue
            action = self.action(at, do, adata)
            if action is not None:
                out.append((after, action))
        return tuple(out)

    def action(self, at: Path, do: str, adata: dict[str, Any]) -> Action | None:
        """The action ``do`` of the table ``adata`` (at ``at``), checked; else
        ``None`` (its problems added)."""
        kwargs = {k: v for k, v in adata.items() if k not in ("after", "do")}
        if not self.fields(at, do, adata, kwargs):
            return None
        if not is_kernel_kind(do):
            if not self.writable(at, do, adata):
                return None
            kwargs = convert(self.kind(do), kwargs)
        try:
            return self.kind(do)(**kwargs)
        except (TypeError, ValueError):
            return None  # wrong keys or types: the schema check has reported them

    def nested(self, at: Path, adata: dict[str, Any], whose: str, rule: str
               ) -> tuple[Action, ...] | None:
        """The ``actions`` of the table ``adata`` (at ``at``), each an action
        table without ``after``, checked as ``combat.actions`` are (the same
        keys, the same problems); ``None`` when one has a problem."""
        board = self.board
        ok = True
        acts: list[Action] = []
        for j, item in enumerate(items(adata.get("actions"))):
            path: Path = (*at, "actions", j)
            item = table(item)
            if "after" in item:
                board.p.add((*path, "after"), f"{whose} action has no 'after': it happens "
                            f"when the trigger resolves ({rule})")
                ok = False
                continue
            problems = value_problems({**item, "after": adata.get("after", "end_of_combat")},
                                      {"$ref": "#/$defs/action"}, path)
            if problems:
                board.p.extend(problems)
                ok = False
                continue
            do = item.get("do")
            act = self.action(path, do, item) if isinstance(do, str) and do in self.kinds \
                else None
            if act is None:
                ok = False
                continue
            acts.append(act)
        return tuple(acts) if ok else None

    def triggers(self, value: Any) -> tuple[WrittenTrigger, ...]:
        """The triggered abilities written at the top level, ``[[triggers]]``
        (603.1): each ``when`` (a kind of event), ``source`` (a permanent),
        optional ``controller``, ``match`` (event field -> value, ``"self"``
        for the source) and ``text``, and its ``actions``."""
        board = self.board
        declared = _event_kinds()
        kinds = set(declared)
        out: list[WrittenTrigger] = []
        for i, tdata in enumerate(items(value)):
            at: Path = ("triggers", i)
            tdata = table(tdata)
            when, source = tdata.get("when"), tdata.get("source")
            ok = True
            if isinstance(when, str) and when not in kinds:
                close = close_matches(when, sorted(kinds))
                hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
                board.p.add((*at, "when"), f"unknown kind of event {when!r}{hint} (603.1: a "
                            "triggered ability triggers on an event)")
                ok = False
            elif isinstance(when, str) and not self.match(at, declared[when],
                                                          table(tdata.get("match"))):
                ok = False
            if not board.ref((*at, "source"), source, ("permanent",), "a permanent"):
                ok = False
            controller = tdata.get("controller")
            if controller is not None and not board.ref((*at, "controller"), controller,
                                                        ("player",), "a player"):
                ok = False
            acts = self.nested(at, tdata, "a triggered ability's", "603.2, 608.2")
            if not ok or acts is None or not isinstance(when, str) \
                    or not isinstance(source, str):
                continue
            out.append(WrittenTrigger(when, source, acts, controller,
                                      {str(k): str(v) for k, v in table(
                                          tdata.get("match")).items()},
                                      str(tdata.get("text", "")), id=f"w{len(out) + 1}"))
        return tuple(out)

    def match(self, at: Path, kind: EventKind, match: dict[str, Any]) -> bool:
        """Check a written trigger's ``match`` (at ``at``) against the kind of
        event it triggers on (603.2: it triggers on an event whose fields
        have those values): each key a field of ``kind`` (or the ``step`` or
        ``rule`` every event has), each value of a field that holds ids
        (:data:`~redzone.kernel.events.ID_FIELDS` and the kind's ``ids``)
        ``"self"`` or the id of an object or player of the file, so that a
        typo is refused, not a trigger that never fires.

        :returns: whether every key and id is one the event can have.
        """
        board = self.board
        fields = (*kind.fields, *EVERY_EVENT)
        ids = {*ID_FIELDS, *kind.ids}
        ok = True
        for key, value in match.items():
            if not isinstance(key, str):
                ok = False  # the schema check has reported it
                continue
            path: Path = (*at, "match", key)
            if key not in fields:
                hint = suggest(key, fields) or f"; its fields: {', '.join(fields)}"
                board.p.add(path, f"unknown field {quoted(key)} of a {kind.name!r} event"
                                  f"{hint} (603.2: a trigger matches the fields of its "
                                  "event)")
                ok = False
            elif key in ids and isinstance(value, str) and value != "self" \
                    and value not in self.spell_ids:
                ok = board.ref(path, value, ("player", "permanent"),
                               f"the {key} of a {kind.name!r} event") and ok
        return ok

    def delayed(self, at: Path, adata: dict[str, Any], kwargs: dict[str, Any]) -> bool:
        """A delayed trigger written in the file (603.7a): its ``controller``
        (default: its source's controller, 603.7d-e) and its ``actions``,
        each an action table without ``after``, checked as ``combat.actions``
        are (the same keys, the same problems)."""
        board = self.board
        ok = True
        if adata.get("when") == "leaves" and "object" not in adata:
            board.p.add(at, "a delayed trigger 'when = \"leaves\"' needs 'object', the "
                            "permanent whose leaving the battlefield it waits for (603.7c)")
            ok = False
        if "controller" not in adata:
            source = adata.get("source")
            perm = board.permanents.get(source) if isinstance(source, str) else None
            if perm is not None:
                kwargs["controller"] = perm.controller
            elif isinstance(source, str) and board.kinds.get(source) == "player":
                kwargs["controller"] = source
        acts = self.nested(at, adata, "a delayed trigger's", "603.7b, 608.2")
        ok = acts is not None and ok
        kwargs["actions"] = acts or ()
        kwargs.setdefault("kind", "delayed")
        return ok

    @property
    def kinds(self) -> ActionTable:
        """The action kinds a file may name: the kernel's that the format
        lists, and every kind the engine's plugins declare (a kind's class
        is :meth:`kind`)."""
        return self.board.engine.hooks.action_specs

    def kind(self, do: str) -> type[Action]:
        """The class of the action kind ``do`` (one of :attr:`kinds`)."""
        return self.kinds[do][0].cls

    def writable(self, at: Path, do: str, adata: dict[str, Any]) -> bool:
        """Whether every field of the plugin's kind ``do`` that is required or
        given can be written in a file; else a problem naming the field."""
        ok = True
        plugin = self.board.engine.hooks.action_specs[do][1]
        for f in action_fields(self.kind(do)):
            if f.schema is None and (f.required or f.name in adata):
                self.board.p.add((*at, f.name) if f.name in adata else (*at, "do"),
                                 f"the action {do!r} (plugin {plugin!r}) can't be written in a "
                                 f"scenario file: its field {f.name!r} holds "
                                 f"{type_text(f.annotation)}, which a file can't write")
                ok = False
        return ok

    def fields(self, at: Path, do: str, adata: dict[str, Any], kwargs: dict[str, Any]) -> bool:
        """Check the action ``do`` at ``at``: each reference field it gives
        names what its kind allows; build what it builds into ``kwargs``."""
        board = self.board
        ok = True
        if do == "prevent" and ("target" in adata) == ("source" in adata):
            board.p.add(at, "a 'prevent' action needs exactly one of 'target' (damage "
                            "dealt to it) and 'source' (damage dealt by it)")
            ok = False
        if do in ("create_token", "enter_blocking", "enter_attacking"):
            key = "token" if do == "create_token" else "permanent"
            pdata = table(adata.get(key))
            pid = pdata.get("id")
            perm = None
            if isinstance(pid, str) and board.entering_at.get(pid) == at:
                perm = board.permanent((*at, key), pdata, pid)
                ok = self.entering((*at, key), do, adata, pdata, kwargs) and ok
            ok = perm is not None and ok
            kwargs[key] = perm.evolve(token=True) if perm is not None and key == "token" \
                else perm
        elif do == "activate":
            ok = self.activation(at, adata, kwargs) and ok
        elif do == "create_delayed_trigger":
            ok = self.delayed(at, adata, kwargs) and ok
        elif do == "add_effect":
            effect = self.effect((*at, "effect"), adata.get("effect"))
            ok = effect is not None and ok
            kwargs["effect"] = effect
        elif do == "move":
            ok = self.position(at, adata) and ok
        for name, kind in reference_fields(self.kind(do)).items():
            if name not in adata:
                continue  # a required one: the schema check has reported it
            value = adata[name]
            if name == "source" and do == "deal_damage" and isinstance(value, dict):
                spell = self.spell_source((*at, name), value)
                ok = spell is not None and ok
                kwargs[name] = spell
                continue
            if value == EACH_PLAYER and (do, name) in EACH_FIELDS \
                    and EACH_PLAYER not in board.kinds:
                continue  # each player in the game, at once
            what = FIELD_WHAT.get((do, name), f"the {name} of {do!r}")
            if isinstance(value, list):  # a list of ids (a tuple or frozenset field)
                for j, item in enumerate(value):
                    ok = board.ref((*at, name, j), item, BOARD_KINDS[kind], what) and ok
                continue
            ok = board.ref((*at, name), value, BOARD_KINDS[kind], what) and ok
        if do in ("grant", "revoke"):
            for j, text in enumerate(items(adata.get("keywords"))):
                ok = board.keyword((*at, "keywords", j), text) is not None and ok
        return ok

    def entering(self, at: Path, do: str, adata: dict[str, Any], pdata: dict[str, Any],
                 kwargs: dict[str, Any]) -> bool:
        """Check the keys of the permanent table ``pdata`` (at ``at``) that
        an action putting it onto the battlefield (``do``: ``create_token``,
        ``enter_attacking``, ``enter_blocking``) decides itself: each is
        honoured or refused with its rule, never ignored. ``tapped`` is
        honoured where the action can enter tapped (made the action's
        ``tapped`` in ``kwargs``; the two must agree). The permanent enters
        the battlefield (111.2, 508.4, 509.4), under its controller's control
        and owned by them (111.2), summoning sick (302.6), with no damage
        marked (a new object, 400.7); a token is a token (111.1). Card data
        completes ``[[permanents]]`` entries only.

        :returns: whether every such key is one it can have.
        """
        board = self.board
        rule = ENTERS_RULE[do]
        what = "a token" if do == "create_token" else "the permanent it puts onto the battlefield"
        ok = True

        def refuse(key: str, why: str) -> None:
            nonlocal ok
            board.p.add((*at, key), f"{key} = {_shown(pdata[key])}: {why}")
            ok = False

        zone = pdata.get("zone", "battlefield")
        if isinstance(zone, str) and zone != "battlefield":
            refuse("zone", f"{do!r} puts {what} onto the battlefield ({rule}); leave 'zone' "
                           "out (a card of the scenario in another zone enters the "
                           "battlefield with do = \"move\")")
        damage = pdata.get("damage", 0)
        if isinstance(damage, int) and not isinstance(damage, bool) and damage != 0:
            refuse("damage", f"{what} enters the battlefield with no damage marked (a new "
                             "object, 400.7; damage is marked as it is dealt, 120.3); a "
                             "later action may deal it damage (do = \"deal_damage\")")
        if pdata.get("summoning_sick") is False:
            refuse("summoning_sick", f"{what} comes under its controller's control as it "
                                     "enters, so it is summoning sick this turn (302.6); "
                                     "a keyword that lets it attack anyway may")
        owner, controller = pdata.get("owner"), pdata.get("controller")
        if "owner" in pdata and isinstance(controller, str) and owner != controller \
                and isinstance(owner, str) and board.kinds.get(owner) == "player":
            refuse("owner", f"{what} is owned by its controller {controller!r} (111.2: the "
                            "player who puts a token onto the battlefield owns it; redzone "
                            "does the same for a card); leave 'owner' out")
        if do == "create_token" and pdata.get("token") is False:
            refuse("token", "'create_token' makes a token (111.1); a card enters the "
                            "battlefield with do = \"enter_attacking\", \"enter_blocking\" "
                            "or \"move\"")
        if "card" in pdata:
            refuse("card", "card data completes [[permanents]] entries only; write the "
                           "permanent's characteristics in this table")
        tapped = pdata.get("tapped")
        if isinstance(tapped, bool):
            if do == "enter_blocking":
                if tapped:
                    refuse("tapped", "'enter_blocking' puts the permanent onto the "
                                     "battlefield untapped (509.4); it can't enter tapped")
            elif isinstance(adata.get("tapped"), bool) and adata["tapped"] != tapped:
                refuse("tapped", f"disagrees with the action's tapped = "
                                 f"{_shown(adata['tapped'])}; give one of them")
            else:
                kwargs["tapped"] = tapped  # (the action's field: it enters tapped, or not)
        return ok

    def position(self, at: Path, adata: dict[str, Any]) -> bool:
        """Check a ``move`` action's ``position``: a place in a library, top
        or bottom (401.1), given only for a move to a library; else a
        problem naming it (never ignored).

        :returns: whether it is given only there.
        """
        to = adata.get("to")
        if "position" not in adata or not isinstance(to, str) or to == "library":
            return True
        into = "onto" if to == "battlefield" else "into"
        self.board.p.add((*at, "position"), f"position = {_shown(adata['position'])}: a "
                         "position is a card's place in a library, on top or at the bottom "
                         f"(401.1), and this move puts it {into} the {to}, not into a "
                         "library; leave 'position' out")
        return False

    def activation(self, at: Path, adata: dict[str, Any], kwargs: dict[str, Any]) -> bool:
        """Check an ``activate`` action's ``ability`` (a declared one) and its
        ``cost``: the keys the ability documents, each of its type, each id
        naming what its kind allows (602.2b); its ``cost`` made ready in
        ``kwargs``. When it may be activated is the rules' to say, as it runs."""
        board = self.board
        name = adata.get("ability")
        declared = board.engine.hooks.activated_abilities
        if not isinstance(name, str):
            return False  # the schema check has reported it
        if name not in declared:
            board.p.add((*at, "ability"), f"unknown activated ability {name!r}"
                        f"{suggest(name, declared)}; the loaded plugins' abilities: "
                        f"{', '.join(declared) or 'none'}")
            return False
        ability, plugin = declared[name]
        cost = table(adata.get("cost"))
        ok = True
        for key in cost:
            if key not in ability.cost:
                board.p.add((*at, "cost", key),
                            f"unknown choice {key!r} of the cost of {name!r} (plugin {plugin!r})"
                            f"{suggest(key, ability.cost)}; its choices: "
                            f"{', '.join(ability.cost) or 'none'}")
                ok = False
        ready: dict[str, Any] = {}
        for key, tp in ability.cost.items():
            path: Path = (*at, "cost", key)
            if key not in cost:
                board.p.add((*at, "cost"), f"the cost of {name!r} needs the choice {key!r} "
                            f"({type_text(tp)}), 602.2b")
                ok = False
                continue
            sch = field_schema(tp)
            problems = value_problems(cost[key], sch, path) if sch is not None else []
            board.p.extend(problems)
            if problems:
                ok = False
                continue
            kind = ref_kind(shape_of(tp))
            value = cost[key]
            values = value if isinstance(value, list) else [value]
            if kind is not None:
                for j, v in enumerate(values):
                    where = (*path, j) if isinstance(value, list) else path
                    ok = board.ref(where, v, BOARD_KINDS[kind],
                                   f"the {key!r} of the cost of {name!r}") and ok
            ready[key] = tuple(value) if isinstance(value, list) else value
        kwargs["cost"] = ready
        return ok

    def spell_id(self, sdata: dict[str, Any]) -> Any:
        """An inline spell's or ability's id: its ``id``; else its ``name``
        for the first without an ``id`` of that name in the file, then
        ``NAME.2``, ``NAME.3`` ... (each another object, 109.1)."""
        if "id" in sdata:
            sid = sdata["id"]
        else:
            name = sdata.get("name")
            if not isinstance(name, str):
                return name
            sid, n = name, 1
            while sid in self.spell_ids:
                n += 1
                sid = f"{name}.{n}"
        if isinstance(sid, str):
            self.spell_ids.append(sid)
        return sid

    def spell_source(self, at: Path, sdata: dict[str, Any]) -> StackObject | None:
        """A spell or ability that deals damage (120.3, 609.7): its id is its
        ``id``, else its ``name`` (made distinct: :meth:`spell_id`)."""
        board = self.board
        ok = board.ref((*at, "controller"), sdata.get("controller"), ("player",),
                       "the controller of the spell or ability")
        sid = self.spell_id(sdata)
        if isinstance(sid, str) and sid in board.kinds:
            board.p.add((*at, "id" if "id" in sdata else "name"),
                        f"{sid!r} is already a {board.kinds[sid]}'s id: give the spell an 'id' "
                        "of its own")
            ok = False
        keywords = []
        for j, text in enumerate(items(sdata.get("keywords"))):
            kw = board.keyword((*at, "keywords", j), text)
            ok = kw is not None and ok
            if kw is not None:
                keywords.append(kw)
        if not ok or not isinstance(sid, str):
            return None
        try:
            return StackObject(sid, sdata["controller"], name=sdata.get("name", sid),
                               colors=items(sdata.get("colors")),
                               types=items(sdata.get("types")),
                               printed_keywords=keywords)
        except (TypeError, ValueError):
            return None  # wrong types: the schema check has reported them

    def effect(self, at: Path, value: Any) -> Effect | None:
        """One effect (of ``[[effects]]`` or an ``add_effect`` action)."""
        board = self.board
        edata = table(value)
        kind = edata.get("kind")
        if not isinstance(kind, str):
            return None
        ok = True
        if "player" in edata:
            ok = board.ref((*at, "player"), edata["player"], ("player",),
                           f"the player of {kind!r}")
        if "to" in edata:
            to_kinds = ("permanent",) if kind in _TO_PERMANENT else ("player", "permanent")
            what = "the creature that blocks" if kind == "blocks_if_able" else \
                "what the damage is dealt to instead" if kind == "redirect_damage" else \
                f"what {kind!r} protects"
            ok = board.ref((*at, "to"), edata["to"], to_kinds, what) and ok
        if "source" in edata:
            ok = board.ref((*at, "source"), edata["source"], ("permanent",),
                           f"the source of {kind!r}") and ok
        if not ok:
            return None
        amount = edata.get("amount")
        return Effect(kind, player=edata.get("player"), to=edata.get("to"),
                      source=edata.get("source"),
                      amount=amount if isinstance(amount, int) else None)

    def effects(self, value: Any) -> tuple[Effect, ...]:
        """The game-wide effects of ``[[effects]]``."""
        out: list[Effect] = []
        for i, edata in enumerate(items(value)):
            effect = self.effect(("effects", i), edata)
            if effect is not None:
                out.append(effect)
        return tuple(out)
