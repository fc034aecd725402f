"""Landwalk (CR 702.14).

"[type]walk" (702.14a): a creature with landwalk can't be blocked as long as
the defending player controls at least one land with the specified land type
("swampwalk": a land with the subtype Swamp), with a specified card type or
supertype ("legendary landwalk"), without one ("nonbasic landwalk": a land
without the supertype basic, 205.4c), or with both a type or supertype and
the subtype ("snow swampwalk": a snow Swamp) (702.14c).

The printed text is read word by word: the last word is ``land`` (any land)
or a land type; each word before it is a card type, subtype or supertype the
land must have or, prefixed ``non``, must not have. Types are compared
without regard to case (``Swamp`` on the land, ``swampwalk`` on the creature).
The defending player is the attacker's, fixed as it was declared (506.2).

Landwalk abilities don't cancel one another (702.14d): a blocker's own
landwalk changes nothing. Several instances of the same kind are redundant
(702.14e): one violation per kind; different kinds apply each on its own.
The restriction is named ``landwalk``.
"""

from __future__ import annotations

from redzone import GameState, Keyword, KeywordSpec, Permanent, Violation, hookimpl


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(
        "landwalk", "702.14", form="{words}walk",
        summary="can't be blocked while the defending player controls a land of that kind",
        examples=("swampwalk", "islandwalk", "forestwalk", "mountainwalk", "plainswalk",
                  "nonbasic landwalk", "snow swampwalk", "legendary landwalk", "desertwalk"))]


def _kind(keyword: Keyword) -> str:
    return keyword.args[0] if keyword.args else keyword.text.removesuffix("walk")


def _has_trait(land: Permanent, word: str) -> bool:
    traits = {t.lower() for t in (*land.types, *land.subtypes, *land.supertypes)}
    return word in traits


def _matches(kind: str, land: Permanent) -> bool:
    """Whether ``land`` is a land of the kind a landwalk names (702.14c)."""
    *qualifiers, last = kind.split()
    if last != "land" and last not in {s.lower() for s in land.subtypes}:
        return False
    for word in qualifiers:
        if word.startswith("non") and len(word) > 3:
            if _has_trait(land, word[3:].lstrip("-")):
                return False
        elif not _has_trait(land, word):
            return False
    return True


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    walks = att.instances("landwalk")
    if not walks:
        return []
    combat = state.combat
    defender = (combat.defending_players.get(attacker) if combat is not None else None) or (
        state.objects[blocker].controller)
    lands = [p for p in state.battlefield if "land" in p.types and p.controller == defender]
    out: list[Violation] = []
    seen: set[str] = set()
    for walk in walks:
        kind = _kind(walk)
        if kind in seen:
            continue  # 702.14e
        seen.add(kind)
        land = next((p for p in lands if _matches(kind, p)), None)
        if land is None:
            continue
        out.append(Violation(
            "702.14c", f"{att.name} ({walk.text}) can't be blocked: the defending player "
            f"{defender!r} controls {land.name}", (blocker, attacker, land.id),
            restriction="landwalk"))
    return out

