"""Plugins imported when an engine first needs them (redzone.kernel._lazy,
redzone.kernel.index): the contract is that lazy import changes when a
plugin's module is imported, never what an engine answers."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redzone import Engine, IllegalActionError, PluginError, PluginLoadError, UnknownKeywordError
from redzone.kernel import index
from redzone.kernel.plugins import PluginInfo, discover
from redzone.testing import check_index
from test_core_properties import boards, draw_declarations, game, resolved

#: Each built-in keyword as printed (its first example, or its form).
PRINTED = sorted(k.spec.examples[0] if k.spec.examples else k.spec.form
                 for k in Engine().keywords() if "{" not in k.spec.form or k.spec.examples)

#: An engine with every discovered plugin imported as it was built.
EAGER = Engine()
EAGER.hooks.pending.load_all()


def _imported_plugins(code: str) -> list[str]:
    probe = (f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules "
             "if m.startswith('redzone_keywords.'))))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    return list(json.loads(out.splitlines()[-1]))


def test_the_built_in_index_is_the_one_the_plugins_generate() -> None:
    """The index says exactly the hooks each built-in plugin implements and
    the keywords it declares, so it can never go stale: after changing a
    plugin's hooks or keywords, run ``python -m redzone.kernel.index
    redzone_keywords``."""
    check_index("redzone_keywords")
    plugins = index.package_plugins("redzone_keywords")
    from redzone_keywords.redzone_index import INDEX

    for value, module in plugins.items():
        hooks, keywords = index.entry(module)
        assert INDEX[value] == (hooks, keywords), value


def test_engine_imports_only_the_plugins_that_declare_what_it_asks_for_at_once() -> None:
    """Engine() imports the plugins that declare action kinds, abilities,
    combat damage steps or event kinds (it asks for them as it is built),
    and no other keyword plugin."""
    found = _imported_plugins("import redzone; redzone.Engine()")
    assert [m for m in found if "editions" not in m] == [
        "redzone_keywords.double_strike", "redzone_keywords.enlist",
        "redzone_keywords.first_strike", "redzone_keywords.ninjutsu",
        "redzone_keywords.redzone_index"]


def test_run_json_imports_no_keyword_plugin_nor_metadata_nor_other_editions(
        tmp_path: Path) -> None:
    """The cold path: `redzone run --json` on a 1 v 1 file without keywords
    imports no keyword plugin it doesn't need at once, no installed edition
    (the file plays foundations, the core's own), and none of
    ``importlib.metadata``, the index generator's argparse and pathlib."""
    scenario = tmp_path / "one.toml"
    scenario.write_text('active_player = "alice"\n[players.alice]\n[players.bob]\n'
                        '[[permanents]]\nid = "a"\ncontroller = "alice"\npower = 2\n'
                        'toughness = 2\n[combat]\nattacks = { a = "bob" }\n', encoding="utf-8")
    code = (f"import sys\nsys.argv = ['redzone', 'run', '--json', {str(scenario)!r}]\n"
            "from redzone.__main__ import main\ntry:\n    main()\nexcept SystemExit:\n"
            "    pass\nfor m in ('importlib.metadata', 'argparse', 'pathlib'):\n"
            "    assert m not in sys.modules, m")
    assert _imported_plugins(code) == [
        "redzone_keywords.double_strike", "redzone_keywords.enlist",
        "redzone_keywords.first_strike", "redzone_keywords.ninjutsu",
        "redzone_keywords.redzone_index"]


def test_a_keyword_first_appearing_imports_its_plugin() -> None:
    """702.9b: a flyer can't be blocked by a creature without flying or
    reach. The flying plugin isn't imported until a state holding flying is
    asked about; then it is, and the block is refused as by an engine that
    imported it at once."""
    engine = Engine()
    assert "flying" in engine.hooks.pending.names
    assert not engine.hooks.info("flying").imported
    state = engine.game(["alice", "bob"], [engine.creature("bird", "alice", 1, 1, "flying"),
                                           engine.creature("bear", "bob", 2, 2)])
    assert "flying" in engine.hooks.pending.names  # parsing reads the index
    declared = engine.declare_attackers(state, {"bird": "bob"}).state
    with pytest.raises(IllegalActionError) as err:
        engine.declare_blockers(declared, {"bear": ["bird"]})
    assert "702.9b" in str(err.value)
    assert "flying" not in engine.hooks.pending.names
    assert engine.pm.get_plugin("flying") is sys.modules["redzone_keywords.flying"]


def test_an_unknown_keyword_suggests_from_every_declared_keyword() -> None:
    """Parsing and its did-you-mean read the index: every keyword is known
    (and suggested) before any plugin is imported."""
    engine = Engine()
    names = {k.spec.name for k in engine.keywords()}
    assert names == {k.spec.name for k in EAGER.keywords()}
    assert {"flying", "horsemanship", "trample over planeswalkers"} <= names
    with pytest.raises(UnknownKeywordError) as err:
        engine.keyword("horsemanshp")
    assert "horsemanship" in str(err.value)
    assert "horsemanship" in engine.hooks.pending.names


def test_stand_ins_sit_where_the_plugins_own_implementations_would() -> None:
    """Contract: before any plugin is imported, each hook's implementations
    are those of an engine given every plugin module at once, in the same
    order (by plugin name), each taking the same arguments; once imported,
    the loop calls the plugin's own function, not a stand-in."""
    eager = Engine(discover=False, plugins=[PluginInfo(i.name, i.module, i.distribution, i.version)
                                            for i in discover()])
    lazy = Engine()
    hooks = sorted(index.HOOKS)

    def shape(engine: Engine) -> list[Any]:
        return [(h, [(i.plugin.name, i.picks) for i in engine.hooks.impls(h)]) for h in hooks]

    assert shape(lazy) == shape(eager)
    lazy.hooks.pending.load_all()
    assert shape(lazy) == shape(eager)
    assert not [(h, i.plugin.name) for h in hooks for i in lazy.hooks.impls(h)
                if getattr(i.fn, "__name__", "") == "stand_in"]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(board=boards(keywords=PRINTED), data=st.data())
def test_a_lazy_engine_answers_as_an_eager_one(board: Any, data: st.DataObject) -> None:
    """Contract: a fresh engine, importing plugins as their keywords appear
    (triggers resolving, the combat's every step), gives byte-identical
    outcomes and events to one that imported every plugin as it was built."""
    lazy = Engine()
    state = game(EAGER, board)
    attacks, blocks = draw_declarations(data, EAGER, state)
    assert resolved(lazy, board, attacks, blocks) == resolved(EAGER, board, attacks, blocks)


def test_two_threads_resolving_on_one_fresh_engine_import_each_plugin_once() -> None:
    """Contract: lazy import is thread safe. Two threads resolving combats
    with the same keywords at once on one fresh engine each get the eager
    engine's outcome, and each plugin is registered once."""
    keywords = ("flying", "lifelink", "bushido 1", "exalted", "deathtouch", "trample")

    def combat(engine: Engine) -> Any:
        state = engine.game(["alice", "bob"], [
            engine.creature("a1", "alice", 3, 3, *keywords[:3]),
            engine.creature("a2", "alice", 2, 2, *keywords[3:]),
            engine.creature("b1", "bob", 2, 2, "reach")])
        return resolved(engine, (list(state.players.values()),
                                 list(state.objects.values()), []),
                        {"a1": "bob"}, {"b1": ["a1"]})

    expected = combat(EAGER)
    for _round in range(3):
        engine = Engine()
        start = threading.Barrier(2)
        results: list[Any] = []

        def run(engine: Engine = engine, start: threading.Barrier = start,
                results: list[Any] = results) -> None:
            start.wait()
            results.append(combat(engine))

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [expected, expected]
        names = [engine.pm.get_name(p) for p in engine.pm.get_plugins()]
        assert len(names) == len(set(names))
        assert {"flying", "lifelink", "bushido", "exalted"} <= set(names)


def _package(tmp_path: Path, hooks: str, prelude: str = "") -> None:
    """A package ``zapkw`` with the plugin ``zapkw.zap`` (its module starting
    with ``prelude``) and an index that says it implements ``hooks``,
    installed in ``tmp_path``."""
    pkg = tmp_path / "zapkw"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "zap.py").write_text(
        prelude + "from redzone import KeywordSpec, hookimpl\n\n"
        "@hookimpl\ndef redzone_keywords():\n"
        "    return [KeywordSpec('zap', '702.999', summary='zaps')]\n\n"
        "@hookimpl\ndef redzone_lethal_damage(state, source, creature):\n    return None\n",
        encoding="utf-8")
    (pkg / "redzone_index.py").write_text(
        "from redzone import KeywordSpec\n"
        f"INDEX = {{'zapkw.zap': ({hooks}, (KeywordSpec('zap', '702.999', "
        "summary='zaps'),))}\n", encoding="utf-8")
    dist = tmp_path / "zapkw-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: zapkw\nVersion: 1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text("[redzone]\nzap = zapkw.zap\n", encoding="utf-8")


@pytest.fixture
def zap_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m == "zapkw" or m.startswith("zapkw.")]:
        del sys.modules[name]


def test_a_third_party_index_defers_its_plugin(zap_site: Path) -> None:
    """A third-party package's index (its ``redzone_index`` module) defers
    its plugin like the built-in ones: discovered, known by its keywords,
    not imported until a state with ``zap`` is asked about."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage')")
    engine = Engine(allow=["zap", "flying"])
    assert engine.hooks.pending.names == {"zap", "flying"}
    assert "zapkw.zap" not in sys.modules
    state = engine.game(["alice", "bob"], [engine.creature("z", "alice", 2, 2, "zap"),
                                           engine.creature("b", "bob", 2, 2)])
    engine.resolve(state, {"z": "bob"}, {"b": ["z"]})
    assert "zapkw.zap" in sys.modules
    assert engine.hooks.pending.names == {"flying"}


def test_a_plugins_import_is_not_charged_to_its_first_hook_call(zap_site: Path) -> None:
    """Contract (docs/embedding.md): an engine that imports its plugins as
    it needs them gives the outcomes an engine that imported them first
    gives. ``hook_timeout`` limits a plugin's answer to one hook call: the
    time its module takes to import, on its first call, is not that answer's
    (here an import of 0.3 s under a limit of 0.15 s)."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage')",
             prelude="import time\ntime.sleep(0.3)\n")
    engine = Engine(allow=["zap"], hook_timeout=0.15)
    state = engine.game(["alice", "bob"], [engine.creature("z", "alice", 2, 2, "zap"),
                                           engine.creature("b", "bob", 2, 2)])
    out = engine.resolve(state, {"z": "bob"}, {"b": ["z"]})
    assert "zapkw.zap" in sys.modules
    assert {out.state.objects[i].zone for i in ("z", "b")} == {"graveyard"}


def test_a_stale_index_is_refused_when_the_plugin_is_imported(zap_site: Path) -> None:
    """Contract: an index entry that doesn't say the hooks the plugin
    implements (here one it no longer does) fails the first command that
    imports it, naming the plugin and how to regenerate the index."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage', 'redzone_modify_damage')")
    engine = Engine(allow=["zap"])
    state = engine.game(["alice", "bob"], [engine.creature("z", "alice", 2, 2, "zap"),
                                           engine.creature("b", "bob", 2, 2)])
    with pytest.raises(PluginError) as err:
        engine.resolve(state, {"z": "bob"}, {"b": ["z"]})
    assert "'zap'" in str(err.value) and "python -m redzone.kernel.index" in str(err.value)


def test_a_plugin_without_an_index_entry_is_imported_as_it_is_found(zap_site: Path) -> None:
    """Third-party plugins without an index keep working unchanged: they
    are imported by discovery, as before."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage')")
    (zap_site / "zapkw" / "redzone_index.py").write_text("INDEX = {}\n", encoding="utf-8")
    infos = discover(allow=["zap"])
    assert infos[0].imported and "zapkw.zap" in sys.modules


def test_the_kit_names_a_stale_index(zap_site: Path) -> None:
    """The kit's check of a third-party index fails naming the index and
    the command that regenerates it."""
    _package(zap_site, "('redzone_keywords',)")
    with pytest.raises(AssertionError, match=r"redzone_index.py of zapkw is stale.*"
                                             r"python -m redzone.kernel.index zapkw"):
        check_index("zapkw")


def test_the_kit_names_two_forms_of_one_index_that_match_one_text(zap_site: Path) -> None:
    """An engine doesn't try the forms of one index against each other as it
    starts; the index's check does: two plugins of one package whose forms
    both match "zap" fail it, naming both."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage')")
    (zap_site / "zapkw" / "zip.py").write_text(
        "from redzone import KeywordSpec, hookimpl\n\n@hookimpl\ndef redzone_keywords():\n"
        "    return [KeywordSpec('zap again', '702.998', form='zap')]\n", encoding="utf-8")
    entry_points = zap_site / "zapkw-1.0.dist-info" / "entry_points.txt"
    entry_points.write_text("[redzone]\nzap = zapkw.zap\nzip = zapkw.zip\n", encoding="utf-8")
    from redzone.kernel import index as kernel_index

    (zap_site / "zapkw" / "redzone_index.py").write_text(
        kernel_index.render("zapkw", kernel_index.package_plugins("zapkw")), encoding="utf-8")
    with pytest.raises(AssertionError, match=r"'zap'.*'zap again'.*both match 'zap'"):
        check_index("zapkw")


def test_a_malformed_index_names_itself(zap_site: Path) -> None:
    """Bad input gets a clear error: an index naming a hook that doesn't
    exist is a PluginLoadError naming the index module and entry."""
    _package(zap_site, "('redzone_keywords', 'redzone_zap')")
    with pytest.raises(PluginLoadError, match=r"zapkw.redzone_index.*'zapkw.zap'.*redzone_zap"):
        discover(allow=["zap"])


def test_a_lazy_plugin_record_imports_its_module_when_read() -> None:
    """A discovered record not imported yet imports its module when its
    ``module`` is read (what a batch reads to rebuild engines in workers),
    and compares equal to itself before and after."""
    info = next(i for i in discover(allow=["horsemanship"]))
    before = hash(info)
    assert info.module is sys.modules["redzone_keywords.horsemanship"]
    assert info.imported and hash(info) == before
    assert "not imported" not in repr(info)


def test_a_dynamic_implementation_imported_late_is_asked_every_time(zap_site: Path) -> None:
    """Static answers (702.19b, 510.1c-d): an implementation declared
    ``@dynamic`` in a plugin the engine imports only when its keyword
    appears is found dynamic as it is imported, so its answer is never
    reused from an earlier combat where it said otherwise. Here the lethal
    damage a ``zap`` trampler assigns is 1 while its controller is under 10
    life: at 20 life the 2/2 blocker takes 2 (2 trample over); at 5 life it
    takes 1 (3 trample over), with the same characteristics."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage')")
    (zap_site / "zapkw" / "zap.py").write_text(
        "from redzone import KeywordSpec, dynamic, hookimpl\n\n"
        "@hookimpl\ndef redzone_keywords():\n"
        "    return [KeywordSpec('zap', '702.999', summary='zaps')]\n\n"
        "@hookimpl\n@dynamic\ndef redzone_lethal_damage(state, source, creature):\n"
        "    perm = state.objects.get(source)\n"
        "    if perm is None or not perm.has('zap'):\n        return None\n"
        "    return 1 if state.players[perm.controller].life < 10 else None\n",
        encoding="utf-8")
    engine = Engine(allow=["zap", "trample"])
    assert "zapkw.zap" not in sys.modules

    def bob_after(life: int) -> int:
        state = engine.game(["alice", "bob"], [
            engine.creature("z", "alice", 4, 4, "zap", "trample"),
            engine.creature("b", "bob", 2, 2)])
        state = state.evolve(players={**state.players,
                                      "alice": state.players["alice"].evolve(life=life)})
        return engine.resolve(state, {"z": "bob"}, {"b": ["z"]}).state.players["bob"].life

    assert bob_after(20) == 18
    assert "redzone_lethal_damage" in engine.hooks.static_answers.dynamic
    assert bob_after(5) == 17


def test_verify_mode_asks_a_kept_out_plugin_once_it_is_imported(zap_site: Path) -> None:
    """Contract of verify mode's gate check: a plugin not imported yet whose
    keyword gate keeps it out answers nothing (its stand-in imports nothing),
    so it isn't asked, nor a hook it alone implements; once imported, its
    own implementation is, and one that answers about a state without its
    keyword fails, naming it."""
    _package(zap_site, "('redzone_keywords', 'redzone_lethal_damage')")
    (zap_site / "zapkw" / "zap.py").write_text(
        "from redzone import KeywordSpec, hookimpl\n\n"
        "@hookimpl\ndef redzone_keywords():\n"
        "    return [KeywordSpec('zap', '702.999', summary='zaps')]\n\n"
        "@hookimpl\ndef redzone_lethal_damage(state, source, creature):\n    return 0\n",
        encoding="utf-8")
    engine = Engine(allow=["zap"], verify=True)
    state = engine.game(["alice", "bob"], [engine.creature("a", "alice", 2, 2),
                                           engine.creature("b", "bob", 2, 2)])
    engine.resolve(state, {"a": "bob"}, {"b": ["a"]})
    assert "zapkw.zap" not in sys.modules
    assert not engine.hooks.asks("redzone_lethal_damage", state)  # its one implementation
    engine.hooks.pending.load(engine.hooks.info("zap"))
    assert engine.hooks.asks("redzone_lethal_damage", state)
    with pytest.raises(PluginError) as err:
        engine.resolve(state, {"a": "bob"}, {"b": ["a"]})
    assert (err.value.plugin, err.value.hook) == ("zap", "redzone_lethal_damage")
    assert "none present" in str(err.value)


def test_a_whole_board_implementation_imported_late_is_asked_about_every_object(
        zap_site: Path) -> None:
    """509.1b: a plugin imported when its keyword first appears is gated by
    the state alone until then (whether an implementation is
    ``@whole_board`` is not known without importing it), and by what it
    declares from its import on: a ``@whole_board`` one is asked about
    objects without its keyword in every later command too. Here no
    creature without zap can be blocked while one with zap is on the
    battlefield; its unmarked implementation (whether an attacker attacks
    without tapping) is asked about zap creatures only, once imported."""
    _package(zap_site, "('redzone_keywords', 'redzone_attacks_without_tapping', "
                       "'redzone_block_violations')")
    (zap_site / "zapkw" / "zap.py").write_text(
        "from redzone import KeywordSpec, Violation, hookimpl, whole_board\n\n"
        "ASKED = []\n\n"
        "@hookimpl\ndef redzone_attacks_without_tapping(state, attacker):\n"
        "    ASKED.append(attacker)\n\n"
        "@hookimpl\ndef redzone_keywords():\n"
        "    return [KeywordSpec('zap', '702.999', summary='zaps')]\n\n"
        "@hookimpl\n@whole_board\ndef redzone_block_violations(state, blocker, attacker):\n"
        "    if state.objects[attacker].has('zap'):\n        return None\n"
        "    if any(p.has('zap') for p in state.objects.values()):\n"
        "        return [Violation('702.999', 'zapped', (blocker, attacker))]\n"
        "    return None\n",
        encoding="utf-8")
    engine = Engine(allow=["zap"], verify=False)
    assert "zapkw.zap" not in sys.modules
    state = engine.game(["alice", "bob"], [
        engine.creature("z", "alice", 0, 1, "zap"),
        engine.creature("bear", "alice", 2, 2),
        engine.creature("wall", "bob", 0, 4)])
    declared = engine.declare_attackers(state, {"bear": "bob"}).state
    for _ in range(2):  # the first check imports the plugin; the second asks it imported
        assert [v.message for v in engine.block_violations(declared, {"wall": ("bear",)})] \
            == ["zapped"]
        assert "zapkw.zap" in sys.modules
    # Its implementations not marked are gated on the objects from its import on.
    asked = sys.modules["zapkw.zap"].ASKED
    asked.clear()
    engine.declare_attackers(state, {"bear": "bob", "z": "bob"})
    assert asked == ["z"]
