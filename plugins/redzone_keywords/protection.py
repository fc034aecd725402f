"""Protection (CR 702.16).

"Protection from [quality]" (702.16a), as it applies to combat: an attacking
creature with protection can't be blocked by creatures that have the quality
(702.16f), damage that sources with the quality would deal to the permanent
is prevented (702.16e), combat or noncombat, and the permanent can't be the
target of abilities from a source with the quality (702.16b): it answers
``redzone_target_violations``, which the triggered abilities that target in
combat ask (provoke's and mentor's) as they go on the stack (603.3d) and as
they resolve (608.2b). Enchanting and equipping (702.16c-d) don't happen in
combat and are not modelled.

A creature with protection from a quality can still block creatures with that
quality; the damage they would deal to it is prevented. Protection does not
change lethal damage for assignment (702.19b): a trampler still assigns lethal
damage to a protected blocker.

The qualities understood:

- a color (``red``); ``each color`` or ``all colors`` for all five (702.16h);
- ``multicolored``, ``monocolored``, ``colorless``;
- a card type or subtype, singular or plural (``creatures``, ``artifacts``,
  ``goblins``): a source that is a permanent or card of that type (702.16a);
- a supertype (``legendary``, ``snow``), and words of these kinds together
  (``legendary creatures``, ``snow artifacts``, ``red creatures``): a source
  that has each of them;
- ``everything`` (702.16j): no creature can block it, no ability can target
  it and all damage dealt to it is prevented;
- a player's id (702.16k): objects that player controls.

"Protection from A and from B" is two protection abilities (702.16g); several
instances each apply, and instances from the same quality are redundant
(702.16m). A quality that is none of the above (``the chosen color``) matches
nothing.
"""

from __future__ import annotations

import re
from typing import Final

from redzone import (
    Damage,
    FrozenMap,
    GameState,
    Keyword,
    KeywordSpec,
    Permanent,
    Prevention,
    StackObject,
    Violation,
    hookimpl,
)

COLORS: Final = ("white", "blue", "black", "red", "green")
#: The rule that makes a quality stop a blocker, by variant: a quality
#: (702.16f), everything (702.16j), a player (702.16k).
BLOCK_RULES: Final = FrozenMap(
    {"quality": "702.16f", "everything": "702.16j", "player": "702.16k"})
#: The rule that makes a quality prevent damage, by variant.
DAMAGE_RULES: Final = FrozenMap(
    {"quality": "702.16e", "everything": "702.16j", "player": "702.16k"})
#: The rule that makes a quality refuse a target, by variant.
TARGET_RULES: Final = FrozenMap(
    {"quality": "702.16b", "everything": "702.16j", "player": "702.16k"})
#: Separators of "protection from A, from B, and from C" (702.16g).
SPLIT: Final = re.compile(r",? and from |, from ")


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(
        "protection", "702.16", form="protection from {quality}",
        summary="can't be blocked by, and is dealt no damage by, what has the quality",
        examples=("protection from red", "protection from creatures",
                  "protection from everything", "protection from white and from blue"),
    )]


@hookimpl
def redzone_block_violations(state: GameState, blocker: str, attacker: str) -> list[Violation]:
    att = state.objects[attacker]
    if not att.has("protection"):
        return []
    blk = state.objects[blocker]
    return [
        Violation(BLOCK_RULES[variant], f"{att.label} (protection from {quality}) can't be "
                  f"blocked by {blk.label}: {reason}", (blocker, attacker))
        for quality, variant, reason in _matches(state, att, blk)
    ]


@hookimpl
def redzone_prevent_damage(state: GameState, damage: Damage) -> list[Prevention] | None:
    target = state.objects.get(damage.target)
    if target is None or target.zone != "battlefield" or not target.has("protection"):
        return None
    if not state.is_source(damage.source):
        return None
    source = state.source(damage.source)  # a permanent, or a spell (702.16e)
    return [Prevention(f"protection from {quality} ({target.id})", DAMAGE_RULES[variant])
            for quality, variant, _reason in _matches(state, target, source)]


@hookimpl
def redzone_target_violations(state: GameState, source: str, target: str) -> list[Violation]:
    holder = state.objects.get(target)
    if holder is None or holder.zone != "battlefield" or not holder.has("protection"):
        return []
    if not state.is_source(source):
        return []
    obj = state.source(source)  # its last known information if it left (608.2b)
    return [
        Violation(TARGET_RULES[variant], f"{holder.label} (protection from {quality}) can't "
                  f"be the target of an ability from {obj.label}: "
                  f"{'it protects from everything' if variant == 'everything' else reason}",
                  (source, target))
        for quality, variant, reason in _matches(state, holder, obj)
    ]


# -- qualities -------------------------------------------------------------------------


def _qualities(keyword: Keyword) -> list[str]:
    """The qualities of one protection instance; "each color" is five (702.16g-h)."""
    text = keyword.args[0] if keyword.args else keyword.text.removeprefix("protection from ")
    out: list[str] = []
    for part in SPLIT.split(text):
        quality = part.strip()
        if quality in ("each color", "all colors"):
            out.extend(COLORS)
        elif quality:
            out.append(quality)
    return out


def _matches(state: GameState, holder: Permanent,
             obj: Permanent | StackObject) -> list[tuple[str, str, str]]:
    """Each distinct quality of ``holder``'s protection that ``obj`` has, with its
    variant (a key of :data:`BLOCK_RULES`) and the reason, in printed order."""
    found: dict[str, tuple[str, str, str]] = {}
    for keyword in holder.instances("protection"):
        for quality in _qualities(keyword):
            if quality in found:
                continue  # 702.16m
            hit = _has_quality(state, obj, quality)
            if hit is not None:
                found[quality] = (quality, *hit)
    return list(found.values())


def _has_quality(state: GameState, obj: Permanent | StackObject,
                 quality: str) -> tuple[str, str] | None:
    """(variant, reason) when ``obj`` has ``quality``, else ``None``."""
    colors = sorted(obj.colors, key=lambda c: COLORS.index(c) if c in COLORS else len(COLORS))
    if quality == "everything":
        return "everything", "no creature can block it"
    if quality in COLORS:
        return ("quality", f"it is {quality}") if quality in obj.colors else None
    if quality == "multicolored":
        return ("quality", f"it is multicolored ({', '.join(map(repr, colors))})"
                ) if len(colors) >= 2 else None
    if quality == "monocolored":
        return ("quality", f"it is monocolored ({colors[0]!r})") if len(colors) == 1 else None
    if quality == "colorless":
        return ("quality", "it is colorless") if not colors else None
    players = {p.lower(): p for p in state.players}
    if quality in players:
        player = players[quality]
        return ("player", f"{player!r} controls it") if obj.controller == player else None
    words = quality.split()
    if len(words) > 1:  # "legendary creatures": it has each of them
        reasons = []
        for word in words:
            hit = _has_quality(state, obj, word)
            if hit is None or hit[0] != "quality":
                return None
            reasons.append(hit[1].removeprefix("it is "))
        return "quality", "it is " + " and ".join(reasons)
    names = _singulars(quality)
    for sup in sorted(obj.supertypes):
        if sup.lower() in names:
            return "quality", f"it is {sup}"
    for kind in sorted(obj.types):
        if kind.lower() in names:
            return "quality", f"it is {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    for sub in obj.subtypes:
        if sub.lower() in names:
            return "quality", f"it is a {sub}"
    return None


def _singulars(word: str) -> frozenset[str]:
    """``word`` and the singulars it may be the plural of (creatures, elves, faeries)."""
    out = {word}
    if word.endswith("ies"):
        out.add(word[:-3] + "y")
    if word.endswith("ves"):
        out.update((word[:-3] + "f", word[:-3] + "fe"))
    if word.endswith("es"):
        out.add(word[:-2])
    if word.endswith("s"):
        out.add(word[:-1])
    return frozenset(out)

