"""Card data (scenario-format extension ``cards``/``card``): MTGJSON's
AtomicCards.json and Scryfall's oracle-cards, in small files written here in
each publisher's shape; the streaming reader against a whole-file parse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from redzone import Engine
from redzone.formats import cards
from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import ScenarioProblems, loads
from redzone.frontends.cli import cli

MTGJSON: dict[str, Any] = {
    "meta": {"date": "2026-11-30", "version": "5.2.2+20261130"},
    "data": {
        "Serra Angel": [{"name": "Serra Angel", "power": "4", "toughness": "4",
                         "colors": ["W"], "types": ["Creature"], "subtypes": ["Angel"],
                         "supertypes": [], "keywords": ["Flying", "Vigilance"],
                         "text": "Flying, vigilance"}],
        "Grizzly Bears": [{"name": "Grizzly Bears", "power": "2", "toughness": "2",
                           "colors": ["G"], "types": ["Creature"], "subtypes": ["Bear"],
                           "text": ""}],
        "Tarmogoyf": [{"name": "Tarmogoyf", "power": "*", "toughness": "1+*",
                       "colors": ["G"], "types": ["Creature"], "subtypes": ["Lhurgoyf"],
                       "text": "Tarmogoyf's power is equal to the number of card types..."}],
        "Konda's Hatamoto": [{"name": "Konda's Hatamoto", "power": "1", "toughness": "2",
                              "colors": ["W"], "types": ["Creature"],
                              "subtypes": ["Human", "Samurai"], "keywords": ["Bushido"],
                              "text": "Bushido 1 (Whenever this creature blocks or becomes "
                                      "blocked, it gets +1/+1 until end of turn.)\n"
                                      "As long as you control a legendary Samurai, Konda's "
                                      "Hatamoto gets +1/+2 and has vigilance."}],
        "Sower of Temptation": [{"name": "Sower of Temptation", "power": "2",
                                 "toughness": "2", "colors": ["U"], "types": ["Creature"],
                                 "subtypes": ["Faerie", "Wizard"],
                                 "keywords": ["Flying", "Ward"],
                                 "text": "Flying\nWard {2}\nWhen this creature enters..."}],
        "Isamaru, Hound of Konda": [{"name": "Isamaru, Hound of Konda", "power": "2",
                                     "toughness": "2", "colors": ["W"], "types": ["Creature"],
                                     "subtypes": ["Dog"], "supertypes": ["Legendary"],
                                     "text": ""}],
    },
}

SCRYFALL: list[dict[str, Any]] = [
    {"object": "card", "name": "Serra Angel", "type_line": "Creature — Angel",
     "power": "4", "toughness": "4", "colors": ["W"], "keywords": ["Flying", "Vigilance"],
     "oracle_text": "Flying, vigilance"},
    {"object": "card", "name": "Grizzly Bears", "type_line": "Creature — Bear",
     "power": "2", "toughness": "2", "colors": ["G"], "keywords": [], "oracle_text": ""},
    {"object": "card", "name": "Isamaru, Hound of Konda",
     "type_line": "Legendary Creature — Dog", "power": "2", "toughness": "2",
     "colors": ["W"], "keywords": [], "oracle_text": ""},
    {"object": "card", "name": "Delver of Secrets // Insectile Aberration",
     "type_line": "Creature — Human Wizard // Creature — Human Insect", "colors": ["U"],
     "keywords": ["Transform", "Flying"],
     "card_faces": [
         {"name": "Delver of Secrets", "type_line": "Creature — Human Wizard",
          "power": "1", "toughness": "1", "oracle_text": "At the beginning of your upkeep..."},
         {"name": "Insectile Aberration", "type_line": "Creature — Human Insect",
          "power": "3", "toughness": "2", "oracle_text": "Flying"}]},
]

ANGEL_VS_BEARS = """\
cards = "{file}"
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "angel"
controller = "alice"
card = "Serra Angel"
[[permanents]]
id = "bears"
controller = "bob"
card = "Grizzly Bears"
[combat]
attacks = {{ angel = "bob" }}
{blocks}
"""


@pytest.fixture(params=["mtgjson", "scryfall"])
def card_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / ("AtomicCards.json" if request.param == "mtgjson" else "oracle-cards.json")
    path.write_text(json.dumps(MTGJSON if request.param == "mtgjson" else SCRYFALL,
                               ensure_ascii=False), encoding="utf-8")
    return path


def scenario_text(card_file: Path, blocks: str = "") -> str:
    return ANGEL_VS_BEARS.format(file=card_file.name, blocks=blocks)


def test_a_card_gives_its_characteristics(card_file: Path) -> None:
    """``card = "Serra Angel"``: name, 4/4, white, Angel, flying and vigilance
    from the card file (relative to the scenario); vigilance means attacking
    doesn't tap it (702.20b)."""
    s = loads(scenario_text(card_file), file=str(card_file.parent / "combat.toml"))
    angel = s.state.objects["angel"]
    assert (angel.name, angel.power, angel.toughness) == ("Serra Angel", 4, 4)
    assert angel.colors == {"white"} and angel.subtypes == ("Angel",)
    assert angel.keyword_names == {"flying", "vigilance"}
    out = outcome_json(resolve(s))
    assert out["players"]["bob"]["life"] == 16
    assert out["permanents"]["angel"]["tapped"] is False


def test_card_keywords_work_in_combat(card_file: Path) -> None:
    """The card's flying makes a block by a creature without flying or reach
    illegal (702.9b)."""
    s = loads(scenario_text(card_file, 'blocks = { bears = "angel" }'),
              file=str(card_file.parent / "combat.toml"))
    res = resolve(s)
    assert res.error is not None and res.error.rule == "702.9b"


def test_explicit_keys_override_the_card(card_file: Path) -> None:
    """A permanent's own keys win over the card's."""
    text = scenario_text(card_file).replace('card = "Serra Angel"',
                                            'card = "Serra Angel"\npower = 1\nkeywords = []')
    s = loads(text, file=str(card_file.parent / "combat.toml"))
    angel = s.state.objects["angel"]
    assert (angel.power, angel.toughness, angel.keyword_names) == (1, 4, frozenset())


def test_supertypes_from_the_card(card_file: Path) -> None:
    """Legendary (205.4) is read from MTGJSON's supertypes and Scryfall's type line."""
    text = scenario_text(card_file).replace('card = "Grizzly Bears"',
                                            'card = "Isamaru, Hound of Konda"')
    s = loads(text, file=str(card_file.parent / "combat.toml"))
    assert s.state.objects["bears"].supertypes == {"legendary"}


def test_the_environment_variable_names_the_card_file(card_file: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``cards``, ``REDZONE_CARDS`` names the card file."""
    monkeypatch.setenv(cards.ENV, str(card_file))
    text = scenario_text(card_file).replace(f'cards = "{card_file.name}"\n', "")
    s = loads(text, file="elsewhere/combat.toml")
    assert s.state.objects["angel"].power == 4


def test_an_unknown_card_names_the_key_and_close_names(card_file: Path) -> None:
    text = scenario_text(card_file).replace("Serra Angel", "Sera Angel")
    with pytest.raises(ScenarioProblems) as info:
        loads(text, file=str(card_file.parent / "combat.toml"))
    [problem] = info.value.problems
    assert problem.key == "permanents[0].card"
    assert "'Sera Angel'" in problem.detail and "did you mean 'Serra Angel'" in problem.detail


def test_no_card_file_is_a_problem(card_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cards.ENV, raising=False)
    text = scenario_text(card_file).replace(f'cards = "{card_file.name}"\n', "")
    with pytest.raises(ScenarioProblems) as info:
        loads(text, file="combat.toml")
    assert all(cards.ENV in p.detail for p in info.value.problems)
    text = scenario_text(card_file).replace(card_file.name, "missing.json")
    with pytest.raises(ScenarioProblems) as info:
        loads(text, file=str(card_file.parent / "combat.toml"))
    assert "no such card file" in str(info.value) and info.value.problems[0].key == "cards"


def test_star_power_is_an_error_naming_the_card(tmp_path: Path) -> None:
    """A characteristic-defining ability (604.3) is not read: ``*`` power is
    an error naming the card, unless the permanent writes its own."""
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(MTGJSON))
    text = scenario_text(path).replace("Serra Angel", "Tarmogoyf")
    with pytest.raises(ScenarioProblems) as info:
        loads(text, file=str(tmp_path / "combat.toml"))
    assert "'Tarmogoyf'" in str(info.value) and "'*'" in str(info.value)
    fixed = text.replace('card = "Tarmogoyf"', 'card = "Tarmogoyf"\npower = 3\ntoughness = 4')
    goyf = loads(fixed, file=str(tmp_path / "combat.toml")).state.objects["angel"]
    assert (goyf.name, goyf.power, goyf.toughness) == ("Tarmogoyf", 3, 4)


def test_keyword_parameters_come_from_the_rules_text(tmp_path: Path) -> None:
    """MTGJSON lists "Bushido" alone; the rules text gives "Bushido 1"
    (702.45a), reminder text ignored; a conditional "has vigilance" in other
    text is not a keyword the card has."""
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(MTGJSON))
    card = cards.lookup(path, ["Konda's Hatamoto"])["Konda's Hatamoto"]
    keys, notes = cards.permanent_keys(card, Engine().keyword)
    assert keys["keywords"] == ["bushido 1"] and notes == []


def test_abilities_redzone_lacks_are_inert_with_a_note(tmp_path: Path) -> None:
    """Ward isn't a combat keyword redzone provides: the creature keeps
    flying, ward is left out, and a note says so."""
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(MTGJSON))
    text = scenario_text(path).replace("Serra Angel", "Sower of Temptation")
    s = loads(text, file=str(tmp_path / "combat.toml"))
    assert s.state.objects["angel"].keyword_names == {"flying"}
    assert len(s.notes) == 1 and "'ward {2}'" in s.notes[0] and "inert" in s.notes[0]


def test_a_double_faced_card_is_read_by_its_front_face(tmp_path: Path) -> None:
    path = tmp_path / "oracle-cards.json"
    path.write_text(json.dumps(SCRYFALL, ensure_ascii=False), encoding="utf-8")
    name = "Delver of Secrets // Insectile Aberration"
    card = cards.lookup(path, [name])[name]
    assert (card.power, card.toughness, card.subtypes) == ("1", "1", ("Human", "Wizard"))


def test_names_match_ignoring_case(card_file: Path) -> None:
    found = cards.lookup(card_file, ["serra angel"])
    assert found["serra angel"].name == "Serra Angel"


def test_not_a_card_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"meta": {}}')
    with pytest.raises(cards.CardDataError, match="without 'data'"):
        cards.lookup(path, ["Serra Angel"])
    path.write_text('"just a string"')
    with pytest.raises(cards.CardDataError, match="not a card file"):
        cards.lookup(path, ["Serra Angel"])


@settings(max_examples=40, deadline=None)
@given(chunk=st.integers(min_value=1, max_value=300), shape=st.sampled_from(["m", "s"]),
       indent=st.sampled_from([None, 0, 2]))
def test_streaming_reads_what_a_whole_parse_reads(chunk: int, shape: str,
                                                  indent: int | None,
                                                  tmp_path_factory: pytest.TempPathFactory
                                                  ) -> None:
    """Invariant: the streaming reader finds every card a whole-file
    ``json.load`` finds, whatever the chunk boundaries and the layout, and
    reads each one as the card parser reads the whole parse's value: every
    field (name, power, toughness, colours, types, keywords, text ...)."""
    data: Any = MTGJSON if shape == "m" else SCRYFALL
    path = tmp_path_factory.mktemp("cards") / "cards.json"
    path.write_text(json.dumps(data, indent=indent, ensure_ascii=False), encoding="utf-8")
    with path.open(encoding="utf-8") as fh:
        whole: Any = json.load(fh)
    if shape == "m":
        expected = [(name, cards._mtgjson_card(cards._Entry(str(path), 1, name), faces))
                    for name, faces in whole["data"].items()]
    else:
        expected = [(obj["name"], cards._scryfall_card(cards._Entry(str(path), 1, obj["name"]),
                                                       obj)) for obj in whole]
    names = list(data["data"]) if shape == "m" else [c["name"] for c in data]
    with mock.patch.object(cards, "CHUNK", chunk):
        streamed = [(name, decode()) for name, decode in cards.scan(path)]
    assert [n for n, _c in streamed] == names
    assert streamed == expected
    for (name, card), raw in zip(streamed, data["data"].values() if shape == "m" else data,
                                  strict=True):
        assert card is not None
        first = raw[0] if shape == "m" else raw
        assert card.name == name == first["name"]
        assert card.keywords == tuple(first.get("keywords", ()))
        if "power" in first:
            assert card.power == first["power"]


def test_redzone_cards_command(card_file: Path) -> None:
    """``redzone cards PATH NAME``: what redzone reads, text and JSON; an
    unknown name exits 2 with close names on standard error."""
    runner = CliRunner()
    result = runner.invoke(cli, ["cards", str(card_file), "Serra Angel"])
    assert result.exit_code == 0, result.output
    assert "power = 4" in result.stdout and '"flying"' in result.stdout
    result = runner.invoke(cli, ["cards", "--json", str(card_file), "Serra Angel"])
    data = json.loads(result.stdout)
    assert data["cards"][0]["keys"]["keywords"] == ["flying", "vigilance"]
    result = runner.invoke(cli, ["cards", str(card_file), "Sera Angel"])
    assert result.exit_code == 2 and "Serra Angel" in result.stderr


def test_run_prints_card_notes_on_stderr(tmp_path: Path) -> None:
    """Stream discipline: notes are diagnostics (standard error); the JSON
    outcome on standard output stays pure JSON."""
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(MTGJSON))
    scenario = tmp_path / "combat.toml"
    scenario.write_text(scenario_text(path).replace("Serra Angel", "Sower of Temptation"))
    result = CliRunner().invoke(cli, ["run", "--json", str(scenario)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["ok"] is True
    assert "note:" in result.stderr and "ward" in result.stderr


def test_a_permanent_from_a_card_in_python(card_file: Path) -> None:
    """The Python API: ``cards.permanent(engine, PATH, NAME, id, controller)``
    gives the card's permanent; overrides win; the angel's flying keeps the
    bears from blocking it (702.9b)."""
    engine = Engine()
    angel, notes = cards.permanent(engine, card_file, "Serra Angel", "angel", "alice")
    bears, _ = cards.permanent(engine, card_file, "Grizzly Bears", "bears", "bob", damage=1)
    assert (angel.power, angel.keyword_names, notes) == (
        4, frozenset({"flying", "vigilance"}), ())
    assert bears.damage == 1 and bears.name == "Grizzly Bears"
    state = engine.game(["alice", "bob"], [angel, bears])
    out = engine.declare_attackers(state, {"angel": "bob"})
    assert "bears" not in engine.legal_blockers(out.state, "angel")
    with pytest.raises(cards.CardDataError, match="Serra Angel"):
        cards.permanent(engine, card_file, "Sera Angel", "x", "alice")
