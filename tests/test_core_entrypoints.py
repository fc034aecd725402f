"""Reading the installed entry points without importlib.metadata
(core/redzone/kernel/entrypoints.py): the same entry points, distributions
and versions as importlib.metadata on this machine's environment and on
folders built here (an egg-info folder, an egg, one distribution twice on the
path, comments and blank lines), and a clear error for a malformed file."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redzone import PluginLoadError
from redzone.kernel import entrypoints
from redzone.kernel.plugins import discover

GROUPS = ("redzone", "redzone.editions")


def _rows(eps: Any) -> list[tuple[str, str, str, str, str]]:
    """Each entry point's group, name, value, distribution and version (a
    header the metadata lacks: importlib.metadata's ``None``, redzone's "")."""
    return [(e.group, e.name, e.value, e.dist.name or "", e.dist.version or "") for e in eps]


def _theirs(group: str) -> list[tuple[str, str, str, str, str]]:
    return _rows(importlib.metadata.entry_points(group=group))


def _mine(group: str) -> list[tuple[str, str, str, str, str]]:
    return _rows(entrypoints.entry_points(group))


@pytest.mark.parametrize("group", GROUPS)
def test_redzone_s_groups_are_importlib_metadata_s(group: str) -> None:
    """On this environment, each of redzone's groups: the same entry points
    (name, value), of the same distributions (name, version), in the same
    order as importlib.metadata gives them; the built-ins are among them."""
    mine = _mine(group)
    assert mine == _theirs(group)
    assert any(row[3] == "redzone" for row in mine)


def test_every_group_of_the_environment_is_importlib_metadata_s() -> None:
    """The parser on every entry_points.txt installed here (console scripts,
    pytest plugins...): each group importlib.metadata knows reads the same."""
    groups = {ep.group for dist in importlib.metadata.distributions()
              for ep in dist.entry_points}
    assert len(groups) > len(GROUPS)
    different = [g for g in sorted(groups) if _mine(g) != _theirs(g)]
    assert different == []


def _write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def _meta(name: str, version: str) -> str:
    return f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nName: not-a-header\n"


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """sys.path made of three folders built here (first, second, an egg)."""
    first, second = tmp_path / "first", tmp_path / "second"
    egg = tmp_path / "Eggy-0.9-py3.11.egg"
    # One distribution twice on the path, spelt differently: the first wins.
    _write(first / "Glimmer_Plugin-2.0.dist-info", {
        "METADATA": _meta("Glimmer-Plugin", "2.0"),
        "entry_points.txt": ("# a comment\n\n[console_scripts]\nglimmer = glimmer:main\n"
                             "  [ redzone ]  \n[redzone]\n  glimmerwing=glimmer_plugin  \n"
                             "shimmer = glimmer_plugin : spec.module [extra]\n")})
    _write(second / "glimmer.plugin-1.0.dist-info", {
        "METADATA": _meta("Glimmer-Plugin", "1.0"),
        "entry_points.txt": "[redzone]\nold = glimmer_old\n"})
    # An egg-info folder: the metadata is PKG-INFO.
    _write(second / "Sparkle-3.1-py3.11.egg-info", {
        "PKG-INFO": _meta("Sparkle", "3.1"),
        "entry_points.txt": "[redzone]\nsparkle = sparkle.kw\n[redzone.editions]\n"
                            "sparkle-rules = sparkle.rules:EDITION\n"})
    # A distribution without entry points.
    _write(second / "quiet-1.0.dist-info", {"METADATA": _meta("quiet", "1.0")})
    # An egg: its EGG-INFO folder, named by its metadata.
    _write(egg / "EGG-INFO", {"PKG-INFO": _meta("Eggy", "0.9"),
                              "entry_points.txt": "[redzone]\neggy = eggy\n"})
    entries = [str(first), str(second), str(egg), str(tmp_path / "missing")]
    monkeypatch.setattr(sys, "path", entries)
    importlib.invalidate_caches()
    return entries


@pytest.mark.parametrize("group", GROUPS)
def test_built_folders_read_as_importlib_metadata_reads_them(path: list[str],
                                                             group: str) -> None:
    """The folders built here: the same rows as importlib.metadata with
    sys.path set to them."""
    assert _mine(group) == _theirs(group)


def test_the_first_of_a_distribution_on_the_path_wins(path: list[str]) -> None:
    """Glimmer-Plugin 2.0 (first folder) hides glimmer.plugin 1.0 (second:
    the same name once normalised, PEP 503); comments, blank lines, other
    groups and blanks around names and values are skipped; an egg-info
    folder, an egg and a distribution without metadata are read."""
    rows = _mine("redzone")
    assert rows[:2] == [
        ("redzone", "glimmerwing", "glimmer_plugin", "Glimmer-Plugin", "2.0"),
        ("redzone", "shimmer", "glimmer_plugin : spec.module [extra]", "Glimmer-Plugin", "2.0")]
    assert rows[2:] == [("redzone", "sparkle", "sparkle.kw", "Sparkle", "3.1"),
                        ("redzone", "eggy", "eggy", "Eggy", "0.9")]
    assert _mine("redzone.editions") == [
        ("redzone.editions", "sparkle-rules", "sparkle.rules:EDITION", "Sparkle", "3.1")]


def test_a_distribution_without_metadata_is_unnamed(tmp_path: Path) -> None:
    """A metadata folder with entry points but no METADATA: its entry points,
    of distribution "" version "" (redzone's "unknown"; importlib.metadata
    gives None, or its backport fails)."""
    _write(tmp_path / "bare-1.0.dist-info", {"entry_points.txt": "[redzone]\nbare = bare\n"})
    assert _rows(entrypoints.entry_points("redzone", [str(tmp_path)])) == [
        ("redzone", "bare", "bare", "", "")]


def test_a_malformed_line_of_a_redzone_group_is_a_load_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line of the redzone group that is not ``name = value`` is an error
    naming the file and the line (discovery: a PluginLoadError); a bad line
    in another program's group is not redzone's to read."""
    _write(tmp_path / "broken-1.0.dist-info", {
        "METADATA": _meta("broken", "1.0"),
        "entry_points.txt": "[other]\nnot an entry point\n[redzone]\nfine = fine\noops\n"})
    with pytest.raises(entrypoints.MetadataError, match=r"entry_points.txt, line 5: 'oops'"):
        entrypoints.entry_points("redzone", [str(tmp_path)])
    assert _rows(entrypoints.entry_points("redzone.editions", [str(tmp_path)])) == []
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    with pytest.raises(PluginLoadError, match=r"broken-1.0.dist-info.*line 5"):
        discover()


def test_metadata_that_is_not_utf8_is_an_error(tmp_path: Path) -> None:
    """A METADATA file that is not UTF-8 is an error naming the file."""
    folder = tmp_path / "latin-1.0.dist-info"
    _write(folder, {"entry_points.txt": "[redzone]\nlatin = latin\n"})
    (folder / "METADATA").write_bytes(b"Name: caf\xe9\nVersion: 1\n")
    with pytest.raises(entrypoints.MetadataError, match="METADATA is not UTF-8"):
        entrypoints.entry_points("redzone", [str(tmp_path)])


def test_headers_are_the_first_of_the_header_block() -> None:
    """Name and Version: the first of each, before the first blank line,
    leading blanks dropped (as the email parser reads them)."""
    text = "Name:  Foo\nname: Bar\nSummary: x\nVersion:\t1.2\n\nVersion: 9\n"
    assert entrypoints.headers(text) == {"name": "Foo", "version": "1.2"}
    assert entrypoints.headers("Summary: x\n\nName: late\n") == {}


def test_an_entry_point_loads_its_module_or_attribute() -> None:
    """``module`` is the module; ``module:a.b`` walks the attributes; a value
    that is neither is a ValueError (discovery reports it as the plugin's
    load error)."""
    dist = entrypoints.Distribution("d", "1", "")
    assert entrypoints.EntryPoint("m", "os.path", "g", dist).load() is sys.modules["os.path"]
    assert entrypoints.EntryPoint("m", "os : path.join", "g", dist).load() is \
        sys.modules["os.path"].join
    with pytest.raises(ValueError, match="not 'module' or 'module:attribute'"):
        entrypoints.EntryPoint("m", "os:path:join", "g", dist).load()


# ---------------------------------------------------------------------------
# What is read is kept under each folder's and file's stamp
# ---------------------------------------------------------------------------


def _age(*paths: Path, seconds: float = 60.0) -> None:
    """Set each path's modification time ``seconds`` in the past (a folder
    or file that has been still that long)."""
    for p in paths:
        when = time.time() - seconds
        os.utime(p, (when, when))


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Every listing and file read from the file system, counted by what it
    was (nothing kept from before the test)."""
    entrypoints.forget()
    reads = {"listing": 0, "text": 0}
    listing, text = entrypoints._metadata_paths, entrypoints._read_file

    def count_listing(entry: str) -> tuple[str, ...]:
        reads["listing"] += 1
        return listing(entry)

    def count_text(file: str) -> str | None:
        reads["text"] += 1
        return text(file)

    monkeypatch.setattr(entrypoints, "_metadata_paths", count_listing)
    monkeypatch.setattr(entrypoints, "_read_file", count_text)
    yield reads
    entrypoints.forget()


def test_a_still_folder_is_read_once_and_read_again_when_it_changes(
        tmp_path: Path, counted: dict[str, int]) -> None:
    """A folder and files unchanged for longer than RACY seconds are read
    once: the next question stats them and reads nothing. A file rewritten
    (same size, another time) is read again, and its new entry points are
    the answer; so is a folder given a new distribution."""
    folder = tmp_path / "glow-1.0.dist-info"
    _write(folder, {"METADATA": _meta("glow", "1.0"),
                    "entry_points.txt": "[redzone]\nglow = aaa\n"})
    _age(folder / "METADATA", folder / "entry_points.txt", folder, tmp_path)
    first = _rows(entrypoints.entry_points("redzone", [str(tmp_path)]))
    assert first == [("redzone", "glow", "aaa", "glow", "1.0")]
    reads = dict(counted)
    assert _rows(entrypoints.entry_points("redzone", [str(tmp_path)])) == first
    assert counted == reads  # (stats only)
    (folder / "entry_points.txt").write_text("[redzone]\nglow = bbb\n", encoding="utf-8")
    _age(folder / "entry_points.txt", seconds=30.0)
    assert _rows(entrypoints.entry_points("redzone", [str(tmp_path)])) == [
        ("redzone", "glow", "bbb", "glow", "1.0")]
    assert counted["text"] == reads["text"] + 1 and counted["listing"] == reads["listing"]
    _write(tmp_path / "dim-2.0.dist-info", {"METADATA": _meta("dim", "2.0"),
                                            "entry_points.txt": "[redzone]\ndim = dim\n"})
    names = sorted(r[1] for r in _rows(entrypoints.entry_points("redzone", [str(tmp_path)])))
    assert names == ["dim", "glow"]  # (in the order the folder lists them)
    assert counted["listing"] == reads["listing"] + 1


def test_what_changed_lately_is_read_every_time(tmp_path: Path,
                                                counted: dict[str, int]) -> None:
    """A folder or file changed within the last RACY seconds is not kept: a
    second change within the file system's timestamp granularity could leave
    its stamp the same. So a rewrite of the same size, at once, is seen."""
    folder = tmp_path / "quick-1.0.dist-info"
    _write(folder, {"METADATA": _meta("quick", "1.0"),
                    "entry_points.txt": "[redzone]\nquick = aaa\n"})
    assert _rows(entrypoints.entry_points("redzone", [str(tmp_path)]))[0][2] == "aaa"
    reads = dict(counted)
    (folder / "entry_points.txt").write_text("[redzone]\nquick = bbb\n", encoding="utf-8")
    assert _rows(entrypoints.entry_points("redzone", [str(tmp_path)]))[0][2] == "bbb"
    assert counted["listing"] == reads["listing"] + 1
    assert counted["text"] >= reads["text"] + 2  # (entry_points.txt and METADATA again)


def test_an_unreadable_file_is_an_error_every_time(tmp_path: Path,
                                                    counted: dict[str, int]) -> None:
    """A METADATA that is not UTF-8 is not kept as anything: the error is
    raised again on the next question, naming the file."""
    folder = tmp_path / "latin-1.0.dist-info"
    _write(folder, {"entry_points.txt": "[redzone]\nlatin = latin\n"})
    (folder / "METADATA").write_bytes(b"Name: caf\xe9\nVersion: 1\n")
    _age(folder / "METADATA", folder / "entry_points.txt", folder, tmp_path)
    for _ in range(2):
        with pytest.raises(entrypoints.MetadataError, match="METADATA is not UTF-8"):
            entrypoints.entry_points("redzone", [str(tmp_path)])


def test_a_folder_that_goes_away_has_no_distributions(tmp_path: Path,
                                                       counted: dict[str, int]) -> None:
    """A path entry kept, then removed: no distributions (its stamp can't be
    read), not what was kept of it."""
    entry = tmp_path / "site"
    _write(entry / "gone-1.0.dist-info", {"METADATA": _meta("gone", "1.0"),
                                          "entry_points.txt": "[redzone]\ngone = gone\n"})
    _age(entry / "gone-1.0.dist-info" / "METADATA",
         entry / "gone-1.0.dist-info" / "entry_points.txt", entry / "gone-1.0.dist-info", entry)
    assert len(entrypoints.entry_points("redzone", [str(entry)])) == 1
    shutil.rmtree(entry)
    assert entrypoints.entry_points("redzone", [str(entry)]) == ()
