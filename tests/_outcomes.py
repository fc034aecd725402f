"""Reading a scenario's JSON outcome in tests: the scenario run from its text
as ``redzone run --json`` runs a file, and the parts of the outcome tests
compare."""

from __future__ import annotations

from typing import Any

from redzone.formats.outcome import outcome_json, resolve
from redzone.formats.scenario import loads


def run(text: str) -> dict[str, Any]:
    """The JSON outcome of the scenario ``text``."""
    return outcome_json(resolve(loads(text)))


def events(out: dict[str, Any], kind: str, step: str | None = None) -> list[dict[str, Any]]:
    """The outcome's events of ``kind`` (in ``step`` if given), in order."""
    return [e for e in out["events"]
            if e["kind"] == kind and (step is None or e["step"] == step)]


def hits(out: dict[str, Any], kind: str = "damage") -> list[tuple[str, str, str, int]]:
    """The ``assign`` or ``damage`` events as (step, source, target, amount)."""
    return [(e["step"], e["source"], e["target"], e["amount"]) for e in events(out, kind)]


def zones(out: dict[str, Any], *ids: str) -> dict[str, str]:
    """The zone of each of the permanents ``ids``."""
    return {i: out["permanents"][i]["zone"] for i in ids}


def lives(out: dict[str, Any]) -> dict[str, int]:
    """Each player's life total."""
    return {name: p["life"] for name, p in out["players"].items()}
