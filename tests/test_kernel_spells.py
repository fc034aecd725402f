"""Instant and sorcery spells cast with the kernel's ``Cast``: the card moves
from its owner's hand to the stack (601.2a), its effects are performed in the
order written (608.2c), and it is put into its owner's graveyard as the final
part of its resolution (608.2n); instants any time a player has priority
(117.1a, 304.1, 117.3a), sorceries in a main phase of their owner's turn with
an empty stack (307.1)."""

from __future__ import annotations

import pytest
from redzone import (
    Cast,
    CreateDelayedTrigger,
    DealDamage,
    Destroy,
    Engine,
    GameState,
    IllegalActionError,
    Move,
    Permanent,
    Pump,
    Sacrifice,
    creature,
)


def spell(id: str, owner: str, kind: str = "instant", **kwargs: object) -> Permanent:
    return Permanent(id, owner, name=id.title(), types={kind}, zone="hand",
                     **kwargs)  # type: ignore[arg-type]


def board(engine: Engine, *perms: Permanent, **kwargs: object) -> GameState:
    return engine.game(["alice", "bob"], perms, **kwargs)


def test_608_2n_an_instant_resolves_then_goes_to_its_owners_graveyard(engine: Engine) -> None:
    """601.2a, 608.2c, 608.2n: the card goes from the hand to the stack, its
    effects happen in order, then it is put into its owner's graveyard: two
    zone changes, object 3 (400.7); the hand no longer holds it."""
    state = board(engine, spell("bolt", "alice", colors={"red"}), creature("bear", "bob", 2, 2),
                  creature("elf", "alice", 1, 1))
    out = engine.perform(state, Cast("bolt", effects=(Pump("elf", 1, 1),
                                                      DealDamage("bolt", "bear", 3))))
    bolt = out.state.objects["bolt"]
    assert (bolt.zone, bolt.object) == ("graveyard", 3)
    assert out.state.zone("alice", "hand") == ()
    assert out.state.zone("alice", "graveyard") == ("bolt",)
    kinds = [e.kind for e in out.events]
    assert kinds.index("cast") < kinds.index("pump") < kinds.index("damage") \
        < kinds.index("moved")
    moved = [e for e in out.events if e.kind == "moved"]
    assert [(e.object, e.rule, e.get("origin"), e.get("zone")) for e in moved] == \
        [("bolt", "608.2n", "stack", "graveyard")]
    assert out.state.objects["bear"].zone == "graveyard"  # the one check, after it (704.3)


def test_120_3_the_spell_on_the_stack_is_the_source_of_its_damage(engine: Engine) -> None:
    """120.3, 609.7: the spell deals the damage with its own characteristics:
    a red spell's damage to a creature with protection from red is prevented
    (702.16e), a green one's isn't."""
    red = spell("bolt", "alice", colors={"red"})
    green = spell("zap", "alice", colors={"green"})
    knight = creature("knight", "bob", 2, 2, "protection from red")
    state = board(engine, red, green, knight)
    out = engine.perform(state, Cast("bolt", effects=(DealDamage("bolt", "knight", 3),)))
    assert out.state.objects["knight"].zone == "battlefield"
    assert out.state.objects["knight"].damage == 0
    out = engine.perform(state, Cast("zap", effects=(DealDamage("zap", "knight", 3),)))
    assert out.state.objects["knight"].zone == "graveyard"


def test_608_2c_an_illegal_effect_refuses_the_whole_spell(engine: Engine) -> None:
    """608.2c: the effects are one resolution: if one of them can't be
    performed (no such permanent), nothing happens: the card stays in hand,
    the earlier effect isn't applied."""
    state = board(engine, spell("bolt", "alice"), creature("bear", "bob", 2, 2))
    with pytest.raises(IllegalActionError):
        engine.perform(state, Cast("bolt", effects=(DealDamage("bolt", "bear", 3),
                                                    Destroy("nobody"))))
    assert state.objects["bolt"].zone == "hand" and state.objects["bear"].damage == 0


def test_608_2m_a_spell_that_left_the_stack_isnt_put_into_the_graveyard(engine: Engine) -> None:
    """608.2m, 608.2n: a spell that leaves the stack as it resolves (it
    exiles itself) resolves fully and stays where it went."""
    state = board(engine, spell("rite", "alice"), creature("bear", "bob", 2, 2))
    out = engine.perform(state, Cast("rite", effects=(Move("rite", "exile"), Destroy("bear"))))
    assert out.state.objects["rite"].zone == "exile"
    assert out.state.objects["bear"].zone == "graveyard"


def test_304_1_an_instant_on_another_players_turn_and_in_combat(engine: Engine) -> None:
    """117.1a, 304.1: an instant is cast any time its owner has priority: by
    the defending player during the declare blockers step of another
    player's turn; 117.3a, 514.3: not in the cleanup step."""
    state = board(engine, creature("bear", "alice", 2, 2), spell("growth", "bob"),
                  creature("wall", "bob", 0, 2))
    state = engine.declare_attackers(state, {"bear": "bob"}).state
    state = engine.declare_blockers(state, {"wall": "bear"}).state
    out = engine.perform(state, Cast("growth", effects=(Pump("wall", 3, 3),)))
    assert out.state.objects["wall"].power == 3
    assert out.state.objects["growth"].zone == "graveyard"
    cleanup = state.evolve(step="cleanup", combat=None)
    with pytest.raises(IllegalActionError) as info:
        engine.perform(cleanup, Cast("growth", effects=(Pump("wall", 3, 3),)))
    assert info.value.rule == "117.3a"


def test_307_1_a_sorcery_only_in_its_owners_main_phase(engine: Engine) -> None:
    """307.1: a sorcery is cast in a main phase of its owner's turn with an
    empty stack: not in combat, not on another player's turn; 702.8a: one
    with flash may be cast as an instant."""
    state = board(engine, creature("bear", "alice", 2, 2), spell("wrath", "alice", "sorcery"),
                  spell("raze", "bob", "sorcery"))
    out = engine.perform(state, Cast("wrath", effects=(Destroy("bear"),)))
    assert out.state.objects["wrath"].zone == "graveyard"
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Cast("raze", effects=(Destroy("bear"),)))
    assert info.value.rule == "307.1"
    in_combat = engine.declare_attackers(state, {"bear": "bob"}).state
    with pytest.raises(IllegalActionError) as info:
        engine.perform(in_combat, Cast("wrath", effects=(Destroy("bear"),)))
    assert info.value.rule == "307.1"
    flash = in_combat.with_permanents({"wrath": in_combat.objects["wrath"].evolve(
        printed_keywords=(engine.keyword("flash"),))})
    out = engine.perform(flash, Cast("wrath", effects=(Sacrifice("bear"),)))
    assert out.state.objects["bear"].zone == "graveyard"


def test_608_3_a_permanent_card_takes_no_effects(engine: Engine) -> None:
    """608.3: a permanent spell resolves by becoming a permanent: a creature
    card given effects is refused, and changes nothing; 601.2a: a spell is
    cast from its owner's hand."""
    state = board(engine, creature("bear", "alice", 2, 2, zone="hand"), spell("bolt", "alice"),
                  creature("wolf", "bob", 2, 2))
    with pytest.raises(IllegalActionError) as info:
        engine.perform(state, Cast("bear", effects=(Destroy("wolf"),)))
    assert info.value.rule == "608.3"
    spent = engine.perform(state, Cast("bolt", effects=(DealDamage("bolt", "bob", 3),))).state
    with pytest.raises(IllegalActionError) as info:
        engine.perform(spent, Cast("bolt", effects=(DealDamage("bolt", "bob", 3),)))
    assert info.value.rule == "601.2a"


def test_603_7d_what_a_spell_creates_is_its_own(engine: Engine) -> None:
    """603.7d-e: a delayed triggered ability a spell creates has the spell as
    its source and the spell's controller as its controller."""
    state = board(engine, spell("ritual", "alice"), creature("bear", "alice", 2, 2))
    out = engine.perform(state, Cast("ritual", effects=(CreateDelayedTrigger(
        "end_step", (Sacrifice("bear"),), text="sacrifice the bear"),)))
    (delayed,) = out.state.delayed
    assert (delayed.source, delayed.controller) == ("ritual", "alice")
