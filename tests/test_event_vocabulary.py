"""The event vocabulary: each kind declared once, and every rendering reads it.

Issue items: a declared vocabulary (``redzone_event_kinds``), structured
fields instead of text in ``detail``, causal order, no ``key=value`` dump in
any rendering, and a plugin's own event worded as its author wrote it.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import redzone
from attrs import frozen
from redzone import (
    Action,
    ActionSpec,
    Engine,
    Event,
    EventKind,
    GameState,
    PluginError,
    PluginLoadError,
    Trigger,
    Tx,
    examples,
    hookimpl,
)
from redzone.formats import report
from redzone.formats.outcome import Resolution, resolve
from redzone.formats.scenario import load, loads
from redzone.frontends import account
from redzone.kernel import events as vocabulary
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
#: A ``key=value`` pair, as the old field dumps printed them.
DUMP = re.compile(r"\b[a-z_]+=\S")


def _literal_kinds() -> set[str]:
    """Every kind the kernel and the built-in plugins construct by name."""
    found: set[str] = set()
    for folder in (ROOT / "core" / "redzone", ROOT / "plugins"):
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            found.update(re.findall(r"Event(?:\.make)?\(\s*\"([a-z_]+)\"", text))
    return found


def test_every_kind_the_kernel_and_builtin_plugins_emit_is_declared() -> None:
    """Item 1: each event kind is declared once; an undeclared kind the code
    emits would be rendered by the fallback, so this fails on it."""
    Engine()  # loads the built-in plugins, whose kinds join the vocabulary
    literal = _literal_kinds()
    assert {"attack", "damage", "dies", "enlisted"} <= literal  # the scan works
    declared = vocabulary.kinds()
    assert sorted(literal - set(declared)) == []
    # The result kinds of damage (120.3) make events of their own name.
    assert {"life_loss", "life_gain", "poison", "counters", "loyalty", "defense"} <= set(declared)


def test_the_core_names_no_plugins_event() -> None:
    """Item 1: "Core names no plugin's event": enlist's event is declared by
    the enlist plugin, and no core module spells it."""
    Engine()
    assert vocabulary.declared_by("enlisted") == "plugin 'enlist'"
    for path in (ROOT / "core" / "redzone").rglob("*.py"):
        assert '"enlisted"' not in path.read_text(encoding="utf-8"), path


def _examples() -> Iterator[Path]:
    for name in examples.names():
        yield examples.path(name)


@pytest.fixture(scope="module")
def resolutions() -> list[Resolution]:
    return [resolve(load(path)) for path in _examples()]


def _account_text(res: Resolution) -> str:
    console = Console(file=io.StringIO(), width=10_000, color_system=None,
                      force_terminal=False, highlight=False, emoji=False)
    account.render_resolution(console, res)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_no_rendering_prints_a_field_dump_for_any_example_event(
        resolutions: list[Resolution]) -> None:
    """Done-when: no rendering prints a ``key=value`` dump for a kernel or
    built-in plugin event: ``str``, ``repr``, the account, the HTML report,
    the notebook display and ``print(result)``."""
    kinds_seen: set[str] = set()
    for res in resolutions:
        for event in res.events:
            kinds_seen.add(event.kind)
            for shown in (str(event), repr(event), vocabulary.phrase(event)):
                assert not DUMP.search(shown), (event, shown)
        assert not DUMP.search(_account_text(res)), res.scenario.file
        html = report.render_html(res)
        timeline = html[html.find("<ol"):]
        assert not DUMP.search(re.sub(r"<[^>]*>", "", timeline)), res.scenario.file
        if res.result is not None:
            for shown in (str(res.result), res.result._repr_html_()):
                assert not DUMP.search(re.sub(r"<[^>]*>", "", shown)), res.scenario.file
    # The examples reach a fair part of the vocabulary.
    assert len(kinds_seen) >= 20, sorted(kinds_seen)


def test_every_declared_kind_reads_without_a_dump_with_every_field_set() -> None:
    """Item 1: each declaration's phrase words all its fields (an event with
    every declared field set still reads as a sentence)."""
    Engine()
    for kind in vocabulary.kinds().values():
        own = {f: ("x1" if f in vocabulary.ID_FIELDS else 1 if f == "amount" else
                   True if f == "combat" else "text")
               for f in kind.fields if f in Event._fields}
        data = {f: ("a", "b") if f in kind.ids else "v" for f in kind.fields
                if f not in Event._fields}
        event = Event.make(kind.name, kind.rule, "combat_damage", **own, **data)
        text = vocabulary.phrase(event)
        assert text and not DUMP.search(text), (kind.name, text)
        assert "{" not in text, (kind.name, text)


def test_an_unknown_kind_is_rendered_readably() -> None:
    """Item 1: an undeclared kind reads as its name and values, never k=v."""
    event = Event.make("frobnicated", "999.1", "combat_damage", source="ogre", target="bob",
                       amount=3, loudness=11)
    text = str(event)
    assert text == "frobnicated: from ogre, to bob, 3, loudness 11 [999.1]"
    assert not DUMP.search(text) and not DUMP.search(repr(event))


def test_structured_fields_replace_the_text_detail_carried() -> None:
    """Item 1: the shield a prevention used (615.7), the effect that started
    (611.2) and the zone an object moved to (400.7) are fields, in the JSON
    too, and nothing is parsed out of ``detail``."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [engine.creature("ogre", "alice", 3, 3),
                                           engine.creature("wall", "bob", 0, 4)])
    out = engine.perform(state, redzone.Prevent("wall", amount=2, combat_only=True))
    shield = next(e for e in out.events if e.kind == "shield")
    sid = shield.get("shield")
    assert sid and shield.detail is None
    attacked = engine.declare_attackers(engine.begin_combat(out.state).state, {"ogre": "bob"})
    blocked = engine.declare_blockers(attacked.state, {"wall": "ogre"})
    dealt = engine.combat_damage(blocked.state)
    prevented = next(e for e in dealt.events if e.kind == "prevented")
    assert (prevented.rule, prevented.get("shield"), prevented.amount) == ("615.7", sid, 2)
    assert prevented.to_json()["shield"] == sid and "detail" not in prevented.to_json()
    assert "by a prevention shield" in str(prevented)

    effect = engine.perform(state, redzone.AddEffect(redzone.Effect("double_damage",
                                                                    source="ogre")))
    started = next(e for e in effect.events if e.kind == "effect")
    assert started.get("effect") == "double_damage" and started.detail is None
    assert str(started).startswith("a continuous effect starts: damage dealt by ogre is doubled")

    exiled = engine.perform(state, redzone.Exile("ogre"))
    moved = next(e for e in exiled.events if e.kind == "zone_change")
    assert moved.get("zone") == "exile" and moved.to_json()["zone"] == "exile"
    assert "ogre leaves the battlefield: it is exiled" in str(moved)
    assert "in the" not in str(moved)


def test_removed_from_combat_follows_the_event_that_caused_it() -> None:
    """Item 1, 506.4: a blocker that dies of lethal damage (704.5g) is put into
    the graveyard and then removed from combat: the kernel emits the events in
    that order (no renderer reorders them)."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [
        engine.creature("ogre", "alice", 3, 3, "first strike"),
        engine.creature("wall", "bob", 1, 2), engine.creature("bear", "alice", 2, 2)])
    attacked = engine.declare_attackers(engine.begin_combat(state).state,
                                        {"ogre": "bob", "bear": "bob"})
    blocked = engine.declare_blockers(attacked.state, {"wall": "ogre"})
    first = engine.combat_damage(blocked.state)
    kinds = [(e.kind, e.object) for e in first.events if e.object == "wall"]
    assert kinds.index(("dies", "wall")) < kinds.index(("removed_from_combat", "wall"))


def test_a_conflicting_declaration_is_a_load_error_naming_the_plugin() -> None:
    """Item 1: a plugin that declares a kernel kind differently fails to load,
    named (like two plugins declaring one keyword)."""
    class Clash:
        __name__ = "clash"

        @staticmethod
        @hookimpl
        def redzone_event_kinds() -> list[EventKind]:
            return [EventKind("damage", "120.3", "{source} hurts {target}")]

    with pytest.raises(PluginLoadError) as info:
        Engine(plugins=[Clash()])
    assert info.value.plugin == "clash" and "'damage'" in str(info.value)
    assert "already declared differently by redzone" in str(info.value)


def test_a_bad_declaration_names_the_problem() -> None:
    """Item 1: a declaration's name and tone are checked as it is made."""
    with pytest.raises(ValueError, match="not a lower-case name"):
        vocabulary.register([EventKind("Honked", "603.2", "x")], "plugin 'p'")
    with pytest.raises(ValueError, match="tone 'loud' is not one of"):
        vocabulary.register([EventKind("honked", "603.2", "x", tone="loud")], "plugin 'p'")
    with pytest.raises(ValueError, match="'amount' as a data field"):
        vocabulary.register([EventKind("honked", "603.2", "x", ids=("amount",))], "plugin 'p'")
    assert "honked" not in vocabulary.kinds() or vocabulary.declared_by("honked") != "plugin 'p'"


# -- a test plugin's own event, worded everywhere ------------------------------------------


@frozen
class Honk(Action):
    """A test action: ``source`` honks ``times`` times."""

    do: ClassVar[str] = "honk"
    source: str
    times: int


def _honk(tx: Tx, action: Action) -> None:
    assert isinstance(action, Honk)
    perm = tx.permanent(action.source, action.do)
    tx.emit(Event.make("honked", "603.2", source=action.source, player=perm.controller,
                       times=action.times))


class Goose:
    """A plugin whose creature named Goose honks when it attacks."""

    __name__ = "goose"

    @staticmethod
    @hookimpl
    def redzone_event_kinds() -> list[EventKind]:
        return [EventKind("honked", "603.2", "{source} honks {times} times at {player}'s foes",
                          ("source", "player", "times"), tone="harm")]

    @staticmethod
    @hookimpl
    def redzone_actions() -> list[ActionSpec]:
        return [ActionSpec(Honk, _honk, "603.2")]

    @staticmethod
    @hookimpl
    def redzone_triggers(state: GameState, events: tuple[Event, ...]) -> list[Trigger]:
        return [Trigger("honk", e.attacker, state.objects[e.attacker].controller, "603.2")
                for e in events if e.kind == "attack" and e.attacker is not None
                and state.objects[e.attacker].name == "Goose"]

    @staticmethod
    @hookimpl
    def redzone_resolve_trigger(state: GameState, trigger: Trigger) -> list[Action] | None:
        return [Honk(trigger.source, 3)] if trigger.kind == "honk" else None


GOOSE = """
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "g1"
name = "Goose"
controller = "alice"
power = 1
toughness = 1
[combat]
attacks = { g1 = "bob" }
"""


def test_a_plugins_declared_event_is_worded_in_the_account_the_report_and_str() -> None:
    """Done-when: a test plugin's declared event reads as its author wrote it
    in ``str()``, the terminal account, the HTML report and the JSON outcome's
    event (with its own field)."""
    res = resolve(loads(GOOSE, engine_factory=lambda rules: Engine(rules,
                                                                   plugins=[Goose()])))
    assert res.ok, res.error
    honked = [e for e in res.events if e.kind == "honked"]
    assert len(honked) == 1 and honked[0].get("times") == 3
    sentence = "Goose honks 3 times at alice's foes"
    assert str(honked[0]) == "g1 honks 3 times at alice's foes [603.2]"
    assert sentence in _account_text(res)
    assert sentence in html.unescape(report.render_html(res))
    assert honked[0].to_json()["times"] == 3


def _json_events(res: Resolution) -> list[dict[str, Any]]:
    return [e.to_json() for e in res.events]


def test_events_round_trip_through_their_json_fields(resolutions: list[Resolution]) -> None:
    """Item 1: an event's JSON holds every field it has, its data included,
    so a JSON reader sees what the renderings see."""
    for res in resolutions:
        for event, data in zip(res.events, _json_events(res), strict=True):
            for name in (event.data or {}):
                assert name in data, (event, name)
            back = Event.make(data.pop("kind"), data.pop("rule"), data.pop("step"), **data)
            assert back == event


def test_a_declaration_that_is_not_an_event_kind_is_a_load_error() -> None:
    """Item 1: ``redzone_event_kinds`` answers EventKinds; anything else
    fails the plugin's load, named."""
    class Wrong:
        __name__ = "wrong"

        @staticmethod
        @hookimpl
        def redzone_event_kinds() -> list[str]:
            return ["honked"]

    with pytest.raises(PluginError) as info:
        Engine(plugins=[Wrong()])
    assert info.value.plugin == "wrong" and "EventKind was expected" in str(info.value)
