"""Hostile card files, through the real command line (guarantee 11: card
files are input like scenario files).

A card file (MTGJSON's ``AtomicCards.json`` or Scryfall's ``oracle-cards``)
read by ``cards = "PATH"`` in a scenario or by ``redzone cards FILE NAME``
gives a result or an error naming the file and the card, with exit status 2:
never a traceback or "internal error", never a hang, never a number the card
doesn't print. Files are written here in each publisher's shape; large and
special ones (FIFOs, devices, deep arrays) are made at test time. Work is
measured by counts and sizes, never by a clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hostile_kit import CliResult, counting_calls, special_file
from redzone.formats import cards

#: The most Python function calls one hostile card file may cost through the
#: command line (a small valid one costs about 60,000 in verify mode).
CALL_BUDGET = 1_500_000

EXIT_BAD = 2


def face(**fields: Any) -> dict[str, Any]:
    """An MTGJSON face of a 2/2 green Bear creature, with ``fields`` over it."""
    return {"name": "Test Bear", "power": "2", "toughness": "2", "colors": ["G"],
            "types": ["Creature"], "subtypes": ["Bear"], "supertypes": [],
            "keywords": [], "text": "", **fields}


def atomic(tmp_path: Path, entries: dict[str, Any], *, raw: bool = False) -> Path:
    """``AtomicCards.json`` in ``tmp_path`` holding ``entries`` (name -> faces),
    beside Grizzly Bears; ``raw`` entries are JSON text already."""
    path = tmp_path / "AtomicCards.json"
    body = {"Grizzly Bears": [face(name="Grizzly Bears")]}
    parts = [f"{json.dumps(k)}: {v if raw else json.dumps(v)}"
             for k, v in entries.items()]
    parts += [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in body.items()]
    path.write_text('{"meta": {"version": "5.2.2"}, "data": {' + ", ".join(parts) + "}}",
                    encoding="utf-8")
    return path


def scenario(folder: Path, card: str, cards_key: str | None = "AtomicCards.json",
             extra: str = "") -> Path:
    """A scenario in ``folder`` whose first permanent is ``card = CARD``."""
    path = folder / "combat.toml"
    head = f"cards = {json.dumps(cards_key)}\n" if cards_key is not None else ""
    path.write_text(head + f"""active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "it"
controller = "alice"
card = {json.dumps(card)}
{extra}
[[permanents]]
id = "bears"
controller = "bob"
card = "Grizzly Bears"
""", encoding="utf-8")
    return path


def refused(result: CliResult, *words: str) -> str:
    """Assert a bad-input refusal (exit 2, no internal error); the error text."""
    text = result.out + result.err
    assert result.status == EXIT_BAD, text
    assert "internal error" not in text and "Traceback" not in text, text
    for word in words:
        assert word in text, (word, text)
    return text


def run_scenario(run_cli: Callable[..., CliResult], path: Path) -> CliResult:
    with counting_calls() as calls:
        result = run_cli(["run", "--json", str(path)])
    assert calls.count < CALL_BUDGET
    return result


def problem(result: CliResult) -> dict[str, Any]:
    """The one problem of a ``run --json`` refusal."""
    problems = result.json["error"]["problems"]
    assert len(problems) == 1, problems
    found: dict[str, Any] = problems[0]
    return found


# ---------------------------------------------------------------------------
# The schema's bounds and types apply to card data (107.1, 208.1, 208.2)
# ---------------------------------------------------------------------------


OUT_OF_BOUNDS = {
    "huge": "99999999999999999999",
    "underscores": "1_000_000_000",
    "arabic-indic": "\u0663",
    "fullwidth": "\uff13",
    "spaces": " 3",
    "long-digits": "9" * 5000,
    "over-bound": "1000001",
}


@pytest.mark.parametrize("name", sorted(OUT_OF_BOUNDS))
def test_107_1_card_power_out_of_bounds_or_malformed_is_refused(
        name: str, tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """A printed power is a whole number of ASCII digits within the scenario
    format's bounds (107.1, 208.1; the schema's ``integer``): a huge number,
    Python's ``1_000_000_000`` or another script's digits is refused at
    ``permanents[0].card``, naming the card file, the card and the key, even
    where ``int()`` would read it."""
    atomic(tmp_path, {"Odd Bear": [face(name="Odd Bear", power=OUT_OF_BOUNDS[name])]})
    path = scenario(tmp_path, "Odd Bear")
    result = run_scenario(run_cli, path)
    refused(result, "Odd Bear", "power", "AtomicCards.json")
    assert problem(result)["key"] == "permanents[0].card"
    # The permanent writing its own power doesn't make the card entry good.
    path = scenario(tmp_path, "Odd Bear", extra="power = 3")
    refused(run_scenario(run_cli, path), "Odd Bear", "power")
    listed = run_cli(["cards", "--json", str(tmp_path / "AtomicCards.json"), "Odd Bear"])
    refused(listed, "Odd Bear", "power", "AtomicCards.json")


VARIABLE = ["*", "1+*", "*+1", "7-*", "\u221e", "?", "X", ".5", "+1"]


@pytest.mark.parametrize("printed", VARIABLE)
def test_208_2_variable_power_still_needs_the_permanents_own(
        printed: str, tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """Real cards print ``*``, ``1+*``, ``∞``, ``?``, ``X``, an augment's ``+1``:
    a characteristic-defining ability (208.2, 604.3) or no number at all. As before, the card
    is an error unless the permanent writes its own power, and then it runs."""
    atomic(tmp_path, {"Goyf": [face(name="Goyf", power=printed)]})
    refused(run_scenario(run_cli, scenario(tmp_path, "Goyf")), "Goyf", "not a number")
    result = run_scenario(run_cli, scenario(tmp_path, "Goyf", extra="power = 3"))
    assert result.status == 0, result.out + result.err


def test_208_1_negative_and_zero_power_are_read(tmp_path: Path,
                                               run_cli: Callable[..., CliResult]) -> None:
    """``-1`` and ``0`` are printed numbers (107.1b allows negative power)."""
    atomic(tmp_path, {"Parasite": [face(name="Parasite", power="-1", toughness="0")]})
    result = run_cli(["cards", "--json", str(tmp_path / "AtomicCards.json"), "Parasite"])
    assert result.status == 0, result.err
    keys = result.json["cards"][0]["keys"]
    assert (keys["power"], keys["toughness"]) == (-1, 0)


def test_card_values_go_through_the_schema_bounds(tmp_path: Path,
                                                  run_cli: Callable[..., CliResult]) -> None:
    """Every key a card gives a permanent meets the schema as a scenario's
    would: 21 subtypes (the schema allows 20) or a 50-character subtype (40) are
    refused, naming the card; so is a lone surrogate (invalid Unicode)."""
    atomic(tmp_path, {"Many": [face(name="Many", subtypes=[f"T{i}" for i in range(21)])],
                      "Long": [face(name="Long", subtypes=["S" * 50])],
                      "Lone": [face(name="Lone", subtypes=["\ud800"])]})
    for name in ("Many", "Long", "Lone"):
        result = run_scenario(run_cli, scenario(tmp_path, name))
        refused(result, name, "AtomicCards.json")
        assert problem(result)["key"] == "permanents[0].card"


# ---------------------------------------------------------------------------
# Wrong types, deep arrays, invalid UTF-8
# ---------------------------------------------------------------------------


WRONG_TYPES: dict[str, dict[str, Any]] = {
    "types-string": {"types": "Creature"},
    "types-number": {"types": 5},
    "types-of-numbers": {"types": [1]},
    "supertypes-number": {"supertypes": 3},
    "subtypes-table": {"subtypes": {"a": 1}},
    "keywords-string": {"keywords": "Flying"},
    "keywords-of-null": {"keywords": [None]},
    "colors-string": {"colors": "W"},
    "text-number": {"text": 5},
    "power-list": {"power": [4]},
    "power-bool": {"power": True},
}


@pytest.mark.parametrize("name", sorted(WRONG_TYPES))
def test_wrong_typed_card_fields_name_the_file_and_card(
        name: str, tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """A field of the wrong type (``types = "Creature"``, ``keywords = [null]``)
    is exit 2 naming the file, the card and the field: never "internal error",
    never the letters of a string read as types."""
    fields = WRONG_TYPES[name]
    atomic(tmp_path, {"Warped": [face(name="Warped", **fields)]})
    field = next(iter(fields))
    refused(run_scenario(run_cli, scenario(tmp_path, "Warped")),
            "Warped", field, "AtomicCards.json")
    listed = run_cli(["cards", str(tmp_path / "AtomicCards.json"), "Warped"])
    refused(listed, "Warped", field, "AtomicCards.json")


def test_scryfall_wrong_types_name_the_card(tmp_path: Path,
                                            run_cli: Callable[..., CliResult]) -> None:
    """The same in Scryfall's shape: ``card_faces`` of numbers, a numeric type line."""
    path = tmp_path / "oracle-cards.json"
    for bad in ({"card_faces": [5]}, {"type_line": 5}, {"keywords": "Flying"}):
        path.write_text(json.dumps([{"object": "card", "name": "Warped",
                                     "type_line": "Creature — Bear", "power": "2",
                                     "toughness": "2", "colors": ["G"], "keywords": [],
                                     "oracle_text": "", **bad}]), encoding="utf-8")
        refused(run_cli(["cards", str(path), "Warped"]), "Warped", "oracle-cards.json")


@pytest.mark.parametrize("where", ["asked", "other"])
def test_a_100000_deep_array_names_the_file_and_card(
        where: str, tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """A card whose entry is an array nested 100,000 deep (the decoder would
    recurse past Python's limit) is exit 2 naming the file and the card,
    whether that card is asked for or only passed on the way."""
    deep = "[" * 100_000 + "]" * 100_000
    atomic(tmp_path, {"Deep": deep}, raw=True)
    asked = "Deep" if where == "asked" else "Grizzly Bears"
    refused(run_scenario(run_cli, scenario(tmp_path, asked)), "Deep", "AtomicCards.json",
            "nested")
    refused(run_cli(["cards", str(tmp_path / "AtomicCards.json"), asked]), "Deep", "nested")


def test_invalid_utf8_names_the_file_and_card(tmp_path: Path,
                                              run_cli: Callable[..., CliResult]) -> None:
    """A byte that isn't UTF-8 inside a card is exit 2 naming the file, the
    card and the line, never a decoding traceback."""
    path = atomic(tmp_path, {"Bad Bytes": [face(name="Bad Bytes", text="MARK")]})
    path.write_bytes(path.read_bytes().replace(b"MARK", b"\xff\xfe"))
    refused(run_scenario(run_cli, scenario(tmp_path, "Grizzly Bears")),
            "Bad Bytes", "UTF-8", "AtomicCards.json")
    refused(run_cli(["cards", str(path), "Bad Bytes"]), "Bad Bytes", "UTF-8", "line 1")


# ---------------------------------------------------------------------------
# Only regular files; the scenario's folder
# ---------------------------------------------------------------------------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m redzone ARGS`` in a child process. The timeout only keeps a
    regression (a FIFO opened for reading blocks for ever) from hanging the
    suite; the assertion is the exit status and the message."""
    return subprocess.run([sys.executable, "-m", "redzone", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False)


@contextmanager
def special(kind: str, tmp_path: Path) -> Iterator[Path]:
    """A FIFO, a device (a link to ``/dev/zero``) or a directory called
    ``AtomicCards.json``."""
    yield special_file(kind, tmp_path / "AtomicCards.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_only_regular_files_are_opened(kind: str, tmp_path: Path) -> None:
    """``cards`` (and ``redzone cards FILE``) naming a FIFO, a device or a
    directory is refused at once with exit 2: only regular files are opened
    (a FIFO would block, ``/dev/zero`` never ends)."""
    with special(kind, tmp_path) as path:
        scenario(tmp_path, "Grizzly Bears")
        ran = _cli("run", "--json", "combat.toml", cwd=tmp_path)
        assert ran.returncode == EXIT_BAD, ran.stdout + ran.stderr
        problems = json.loads(ran.stdout)["error"]["problems"]
        assert [p["key"] for p in problems] == ["cards"]
        assert "not a regular file" in problems[0]["message"]
        listed = _cli("cards", str(path), "Grizzly Bears", cwd=tmp_path)
        assert listed.returncode == EXIT_BAD, listed.stderr
        assert "not a regular file" in listed.stderr and str(path) in listed.stderr


@pytest.mark.parametrize("where", ["parent", "absolute"])
def test_a_cards_key_stays_in_the_scenarios_folder(
        where: str, tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """``cards`` names a file in the scenario's folder or below it: ``../``
    and absolute paths are refused at the ``cards`` key (a scenario from
    elsewhere can't make redzone read other files); ``REDZONE_CARDS``, the
    user's own setting, may point anywhere."""
    atomic(tmp_path, {})
    folder = tmp_path / "scenarios"
    folder.mkdir()
    key = "../AtomicCards.json" if where == "parent" else str(tmp_path / "AtomicCards.json")
    result = run_scenario(run_cli, scenario(folder, "Grizzly Bears", key))
    refused(result, "scenario's folder", "REDZONE_CARDS")
    assert problem(result)["key"] == "cards"


def test_cards_below_the_folder_and_the_environment_are_read(
        tmp_path: Path, run_cli: Callable[..., CliResult],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The accepted side of the same choice: a sub-folder, and the variable."""
    sub = tmp_path / "data"
    sub.mkdir()
    atomic(sub, {})
    result = run_scenario(run_cli, scenario(tmp_path, "Grizzly Bears", "data/AtomicCards.json"))
    assert result.status == 0, result.out + result.err
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.setenv(cards.ENV, str(sub / "AtomicCards.json"))
    result = run_scenario(run_cli, scenario(folder, "Grizzly Bears", None))
    assert result.status == 0, result.out + result.err


# ---------------------------------------------------------------------------
# A file broken inside a value: linear work, bounded memory
# ---------------------------------------------------------------------------


class DecoderSpy:
    """How many characters the JSON decoder was handed, and the longest text."""

    def __init__(self) -> None:
        self.chars = 0
        self.longest = 0


def _broken(tmp_path: Path, mib: int) -> Path:
    """An AtomicCards.json whose first card's text never ends: ``mib`` MiB
    of an unterminated string."""
    path = tmp_path / f"broken-{mib}.json"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('{"meta": {}, "data": {"Endless": [{"name": "Endless", "text": "')
        fh.write("a" * (mib << 20))
    return path


def test_a_file_broken_inside_a_value_costs_linear_work_and_bounded_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A value that never ends is refused after reading at most a bounded
    part of it: the characters given to the decoder don't grow with the file
    (on a 2 MiB and an 8 MiB file), nor does the text held at once, where
    retrying the whole value after each chunk costs the square of its size."""
    spy = DecoderSpy()
    real = json.JSONDecoder.raw_decode

    def raw_decode(self: json.JSONDecoder, s: str, idx: int = 0) -> tuple[Any, int]:
        spy.chars += len(s) - idx
        spy.longest = max(spy.longest, len(s))
        return real(self, s, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", raw_decode)
    work = {}
    for mib in (2, 8):
        spy.chars = spy.longest = 0
        path = _broken(tmp_path, mib)
        with pytest.raises(cards.CardDataError, match="Endless"):
            cards.lookup(path, ["Endless"])
        work[mib] = spy.chars
        assert spy.longest <= 3 << 20, spy.longest
    assert work[8] <= 4 * work[2] + (1 << 20), work


def test_a_large_valid_file_is_read_with_bounded_text_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same bound on a valid file of many cards: memory follows the chunk
    and the largest card, not the file."""
    spy = DecoderSpy()
    real = json.JSONDecoder.raw_decode

    def raw_decode(self: json.JSONDecoder, s: str, idx: int = 0) -> tuple[Any, int]:
        spy.longest = max(spy.longest, len(s))
        return real(self, s, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", raw_decode)
    # 1,500 cards of 3,600 characters: the file is over 5 MiB as with 12,000
    # short cards, at an eighth of the reading time (the time goes by card).
    entries = {f"Card {i}": [face(name=f"Card {i}", text="x" * 3_600)] for i in range(1_500)}
    atomic(tmp_path, entries)
    assert (tmp_path / "AtomicCards.json").stat().st_size > 5 << 20
    found = cards.lookup(tmp_path / "AtomicCards.json", ["Card 1499"])
    assert found["Card 1499"].power == "2"
    assert spy.longest <= 3 << 20, spy.longest


# ---------------------------------------------------------------------------
# Item 8: an entry with no usable face
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("faces", ["[]", "[5]", "{}", "null"])
def test_an_entry_with_no_usable_face_says_so(faces: str, tmp_path: Path,
                                              run_cli: Callable[..., CliResult]) -> None:
    """``"Faceless": []`` is a card the file has but can't be used: the error
    says so, instead of "no card named 'Faceless'; did you mean 'Faceless'?"."""
    atomic(tmp_path, {"Faceless": faces}, raw=True)
    result = run_scenario(run_cli, scenario(tmp_path, "Faceless"))
    text = refused(result, "Faceless", "no face", "AtomicCards.json")
    assert "did you mean" not in text
    listed = run_cli(["cards", str(tmp_path / "AtomicCards.json"), "Faceless"])
    assert "did you mean" not in refused(listed, "Faceless", "no face")


# ---------------------------------------------------------------------------
# A keyword's number over its declared bound (107.1) is refused from a card
# as from a scenario
# ---------------------------------------------------------------------------


OVER_BOUND = {"Toxic": ("Toxic 1001", "1,000"), "Mobilize": ("Mobilize 101", "100"),
              "Bushido": ("Bushido 99999999", "1,000")}


@pytest.mark.parametrize("keyword", sorted(OVER_BOUND))
def test_107_1_card_keyword_number_over_its_bound_is_refused(
        keyword: str, tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """A keyword redzone provides whose number is over the bound its form
    declares (``KeywordSpec.most``; 107.1) is refused from a card as the same
    keyword written in the scenario is: exit 2 at ``permanents[0].card``,
    naming the card file, the card, the keyword and the bound. It is never
    left out as if it were an inert ability."""
    text, bound = OVER_BOUND[keyword]
    atomic(tmp_path, {"Big Bear": [face(name="Big Bear", keywords=[keyword], text=text)]})
    result = run_scenario(run_cli, scenario(tmp_path, "Big Bear"))
    refused(result, "Big Bear", "AtomicCards.json", text.lower(), f"bound of {bound}")
    assert problem(result)["key"] == "permanents[0].card"
    written = run_scenario(run_cli, scenario(tmp_path, "Grizzly Bears",
                                             extra=f"keywords = [{json.dumps(text)}]"))
    refused(written, text, f"bound of {bound}")
    listed = run_cli(["cards", "--json", str(tmp_path / "AtomicCards.json"), "Big Bear"])
    refused(listed, "Big Bear", "AtomicCards.json", f"bound of {bound}")


def test_card_keywords_redzone_does_not_provide_stay_inert(
        tmp_path: Path, run_cli: Callable[..., CliResult]) -> None:
    """A keyword no loaded plugin provides (``Fabricate 99999999``) is inert
    like the card's other rules text: the card runs, with a note saying so,
    while a provided one within its bound (``Toxic 1000``) is read."""
    atomic(tmp_path, {"Odd Servo": [face(name="Odd Servo", keywords=["Fabricate", "Toxic"],
                                         text="Fabricate 99999999\nToxic 1000")]})
    result = run_scenario(run_cli, scenario(tmp_path, "Odd Servo"))
    assert result.status == 0, result.out + result.err
    assert "fabricate 99999999" in result.err and "inert" in result.err
    listed = run_cli(["cards", "--json", str(tmp_path / "AtomicCards.json"), "Odd Servo"])
    assert listed.status == 0, listed.err
    assert listed.json["cards"][0]["keys"]["keywords"] == ["toxic 1000"]
