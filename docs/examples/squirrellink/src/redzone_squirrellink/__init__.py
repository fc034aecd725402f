"""Squirrellink (Unhinged; not in the Comprehensive Rules).

Damage dealt by a source with squirrellink causes that source's controller
to create that many 1/1 green Squirrel creature tokens, in addition to the
damage's other results. It is modelled on lifelink (702.15b): the tokens
are a result of the damage (120.3), applied as the damage is dealt (120.4c),
for combat and noncombat damage alike. Damage that was prevented creates
nothing; all the damage dealt counts, also beyond a creature's toughness. A
source that has left the battlefield is read from its last known
information (as 702.15c says for lifelink). Several instances are
redundant (as 702.15f says for lifelink).

The tokens are owned and controlled by the player who creates them (111.2)
and enter the battlefield with summoning sickness. The token template's id
names the keyword, so the tokens get the ids every keyword's tokens have,
``<source id>.squirrellink.<n>`` (``earl.squirrellink.1``), which a
scenario file can name. A "create" result is open to result replacement
effects, so a token doubler doubles them.
"""

from __future__ import annotations

from redzone import Damage, GameState, KeywordSpec, Permanent, Result, hookimpl

#: The rule cited for the tokens: to create a token is to put it onto the
#: battlefield (701.7a).
CREATE_RULE = "701.7a"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(
        "squirrellink", "Unhinged (not in the Comprehensive Rules)",
        summary="damage it deals also creates that many 1/1 green Squirrel tokens",
        examples=("squirrellink",),
    )]


@hookimpl
def redzone_damage_results(state: GameState, damage: Damage) -> list[Result]:
    if damage.source not in state.objects:
        return []
    source = state.last_known(damage.source)
    if not source.has("squirrellink"):
        return []
    player = source.controller or source.owner
    squirrel = Permanent(id="squirrellink", controller=player, name="Squirrel",
                         subtypes=("Squirrel",), colors=("green",),
                         base_power=1, base_toughness=1)
    return [Result("create", CREATE_RULE, damage.source, damage.amount, player=player,
                   token=squirrel)]
