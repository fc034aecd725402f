"""A whole two-player game on redzone: twenty turns at most, until one player wins.

Everything the game knows lives in redzone's :class:`~redzone.GameState`:
the cards in each zone (every card an object with its owner: the libraries,
top first, the hands, the battlefield, the graveyards, 400.1), life totals and
the turn. Between two commands nothing else is kept, so a state at the
beginning of a turn can be serialised, stored, and played on from
(``Game(seed, start=state)``). The game declares no action kind and no plugin
of its own: every command is redzone's.

The cards are data (:data:`CARDS`), put into their owners' libraries in the
order the seed shuffles them (:func:`new_game`); each player draws an opening
hand with the kernel's :class:`~redzone.Draw`. A card is cast from its owner's
hand with the kernel's :class:`~redzone.Cast`:

* a creature card goes to the stack and enters the battlefield (601.2a,
  608.3a), a new object each time it changes zones (400.7);
* an instant's effects are performed in order as it resolves, as one command
  (608.2c), then it goes to its owner's graveyard (608.2n):
* Giant Growth: :class:`~redzone.Pump` +3/+3 until end of turn (611.2);
* Lightning Bolt: :class:`~redzone.DealDamage` of 3 whose source is the
  spell, the card on the stack (120.3, 609.7);
* Fog: an :class:`~redzone.Effect` ``prevent_all_combat_damage`` until end
  of turn (615.1, 514.2);
* Murder: :class:`~redzone.Destroy` (701.8);
* Raise the Alarm: two :class:`~redzone.CreateToken` 1/1 Soldiers (111.2);
* Voice of Victory has mobilize 2 (702.181), Rotting Zombie decayed (702.147),
  Coalition Skyknight enlist (702.154).

What a command will ask the players (enlist's optional cost, 702.154a; a
sacrifice such as annihilator's, 702.86a; the order of triggers) is listed
before the command with :meth:`~redzone.Engine.choices_for` and answered by
each :class:`~redzone.Choice`'s key (:meth:`Game.answers`).

If a cast is illegal (an effect naming what is gone, a creature outside a main
phase), nothing happens. Mana is simplified: in every turn each player has one
mana per turn they have begun, at most five.

Each turn: ``begin_turn`` (the beginning phase: untap, 502.3; upkeep, 503;
the draw, 504.1; the game starts in the first turn's precombat main phase, so
the starting player doesn't draw then, 103.8a), the precombat main phase, a
combat phase with the step API (``begin_combat``, ``declare_attackers``, ``declare_blockers``,
``combat_damage``, ``end_of_combat``, ``finish``), the postcombat main phase
and ``end_turn`` (end step and cleanup, 513-514). The game ends when a player
loses (``state.game_over``, 104.2a); redzone refuses every command after it.

The policy is rules of thumb, with a random tie-break from
``random.Random(f"{seed}:{turn}:{player}:{moment}")``: the same seed plays
the same game.

Run it: ``python duel.py [seed]`` prints the game (seed :data:`SEED` by default).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from attrs import frozen
from redzone import (
    Action,
    AddEffect,
    Cast,
    Choice,
    CreateToken,
    DealDamage,
    Destroy,
    Draw,
    Effect,
    Engine,
    Event,
    GameState,
    IllegalActionError,
    Outcome,
    Permanent,
    Pump,
)

PLAYERS = ("alice", "bob")
#: The seed of the game the documentation shows (it uses every card kind).
SEED = 24
MAX_TURNS = 20
HAND = 5

# ---------------------------------------------------------------------------
# The cards
# ---------------------------------------------------------------------------


@frozen
class Card:
    """A card: a creature or an instant.

    :param name: its name.
    :param cost: how much mana it costs.
    :param power: a creature's power.
    :param toughness: a creature's toughness.
    :param keywords: a creature's keywords.
    :param colors: its colors.
    """

    name: str
    cost: int
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()

    @property
    def creature(self) -> bool:
        return self.power is not None


CARDS: dict[str, Card] = {c.name: c for c in (
    Card("Raging Goblin", 1, 1, 1, ("haste",), ("red",)),
    Card("Goblin Piker", 2, 2, 1, (), ("red",)),
    Card("Grizzly Bears", 2, 2, 2, (), ("green",)),
    Card("Voice of Victory", 2, 1, 3, ("mobilize 2",), ("white",)),
    Card("Trained Armodon", 3, 3, 3, (), ("green",)),
    Card("Craw Wurm", 5, 6, 4, (), ("green",)),
    Card("Savannah Lions", 1, 2, 1, (), ("white",)),
    Card("Rotting Zombie", 1, 2, 2, ("decayed",), ("black",)),
    Card("Youthful Knight", 2, 2, 1, ("first strike",), ("white",)),
    Card("Hill Giant", 4, 3, 3, (), ("red",)),
    Card("Serra Angel", 5, 4, 4, ("flying", "vigilance"), ("white",)),
    Card("Coalition Skyknight", 4, 2, 2, ("flying", "enlist"), ("white",)),
    Card("Giant Growth", 1, colors=("green",)),
    Card("Lightning Bolt", 1, colors=("red",)),
    Card("Fog", 1, colors=("green",)),
    Card("Murder", 3, colors=("black",)),
    Card("Raise the Alarm", 2, colors=("white",)),
)}

DECKS: dict[str, tuple[tuple[str, int], ...]] = {
    "alice": (("Raging Goblin", 2), ("Goblin Piker", 2), ("Grizzly Bears", 3),
              ("Voice of Victory", 2), ("Trained Armodon", 2), ("Craw Wurm", 2),
              ("Lightning Bolt", 4), ("Giant Growth", 3)),
    "bob": (("Savannah Lions", 3), ("Rotting Zombie", 2), ("Youthful Knight", 2),
            ("Coalition Skyknight", 1),
            ("Hill Giant", 2), ("Serra Angel", 2), ("Fog", 2), ("Murder", 3),
            ("Raise the Alarm", 3)),
}


def card_of(card_id: str) -> Card:
    """The card a card id names (``alice-07-Grizzly Bears``)."""
    return CARDS[card_id.split("-", 2)[2]]


def library(player: str, seed: int) -> tuple[str, ...]:
    """The player's deck as card ids, shuffled by the seed."""
    ids = [f"{player}-{n:02d}-{name}" for n, name in enumerate(
        name for name, count in DECKS[player] for _ in range(count))]
    random.Random(f"{seed}:{player}:shuffle").shuffle(ids)
    return tuple(ids)


# ---------------------------------------------------------------------------
# The game's start and its draws: kernel zones and the kernel's Draw
# ---------------------------------------------------------------------------


def card_object(card_id: str, player: str) -> Permanent:
    """The card as an object in its owner's library (400.1): a creature card
    with its power, toughness and keywords, or an instant."""
    c = card_of(card_id)
    if not c.creature:
        return Permanent(card_id, player, name=c.name, colors=set(c.colors),
                         types={"instant"}, zone="library")
    return Permanent(card_id, player, name=c.name, colors=set(c.colors), base_power=c.power,
                     base_toughness=c.toughness, printed_keywords=c.keywords,
                     zone="library")


def new_engine() -> Engine:
    """redzone's kernel and built-in keywords: the game declares nothing of its own."""
    return Engine()


def new_game(engine: Engine, seed: int) -> GameState:
    """A new game: each player's shuffled library, in order, top first (401.1)."""
    return engine.game(list(PLAYERS), [card_object(c, p) for p in PLAYERS
                                       for c in library(p, seed)])


def opening_hands(engine: Engine, state: GameState) -> Outcome:
    """Each player draws their opening hand (103.5), one command."""
    return engine.perform(state, [Draw(p, HAND) for p in PLAYERS])


# ---------------------------------------------------------------------------
# The policy: rules of thumb
# ---------------------------------------------------------------------------


def opponent(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


def mana(state: GameState, player: str) -> int:
    """One mana per turn the player has begun, at most five (a simplification)."""
    begun = (state.turn + 1) // 2 if player == PLAYERS[0] else state.turn // 2
    return min(max(begun, 1), 5)


def creatures(state: GameState, player: str) -> list[Permanent]:
    return [p for p in state.battlefield if p.controller == player and p.is_creature]


def in_hand(state: GameState, player: str, name: str) -> list[str]:
    """The ids of the cards named ``name`` in the player's hand, in order."""
    return [c for c in state.zone(player, "hand") if state.objects[c].name == name]


def cast(card: str, *effects: Action) -> Cast:
    """Cast a card from its owner's hand: a creature enters the battlefield
    (608.3a), an instant's effects are performed as it resolves (608.2c)."""
    return Cast(card, effects=effects)


class Game:
    """One game being played: the engine, the state, and what was recorded.

    Only :attr:`state` is read to decide; :attr:`snapshots`, :attr:`events` and
    :attr:`log` record what happened, for the reader and the tests.

    :param seed: the seed of the shuffles and the tie-breaks.
    :param engine: the engine (default: :func:`new_engine`).
    :param start: a state to play on from, at the beginning of a turn (as
        :meth:`play` leaves it after ``begin_turn``); default: a new game.
    """

    def __init__(self, seed: int = SEED, engine: Engine | None = None,
                 start: GameState | None = None) -> None:
        self.seed = seed
        self.engine = engine or new_engine()
        self.state = start if start is not None else new_game(self.engine, seed)
        #: (label, state, how many events had happened) after each command.
        self.snapshots: list[tuple[str, GameState, int]] = [("start", self.state, 0)]
        self.events: list[Event] = []
        self.log: list[str] = []
        if start is None:
            self.do("opening hands", lambda s: opening_hands(self.engine, s))

    # -- running commands ------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.game_over is not None

    def do(self, label: str, command: Callable[[GameState], Outcome]) -> bool:
        """Run one command on the state, unless the game is over."""
        if self.over:
            return False
        out = command(self.state)
        self.state = out.state
        self.events.extend(out.events)
        self.snapshots.append((f"turn {self.state.turn} {label}", self.state,
                               len(self.events)))
        return True

    def play_card(self, action: Cast) -> bool:
        """Cast a card if that is legal now; an illegal play is skipped."""
        if self.over:
            return False
        player = self.state.objects[action.card].owner
        try:
            self.do(f"cast {card_of(action.card).name}",
                    lambda s: self.engine.perform(s, action))
        except IllegalActionError as err:
            self.log.append(f"  ({player} can't cast {action.card}: {err})")
            return False
        self.log.append(f"  {player} casts {card_of(action.card).name}"
                        + (f" on {_target(action)}" if _target(action) else ""))
        return True

    def answers(self, command: str, *args: Any) -> dict[str, tuple[str, ...]]:
        """Every choice ``command`` will ask, listed in advance with
        :meth:`~redzone.Engine.choices_for` (601.2), answered by its key: one
        answer may bring up the next (what enlisting taps), so the listing is
        asked again with the answers so far until nothing new is asked."""
        answers: dict[str, tuple[str, ...]] = {}
        while True:
            asked = [c for c in self.engine.choices_for(self.state, command, *args,
                                                        choices=answers)
                     if c.key not in answers]
            if not asked:
                return answers
            for choice in asked:
                answers[choice.key] = self.choose(choice)

    def choose(self, choice: Choice) -> tuple[str, ...]:
        """The policy for a choice, from what it offers: an optional cost
        that taps a creature (enlist, 702.154a) is paid with the strongest one
        offered; a choice of permanents a player must make
        (annihilator's sacrifice, 702.86a) takes the least valuable ones; any
        other choice takes redzone's default."""
        state = self.state
        perms = [state.objects[o] for o in choice.options if o in state.objects]
        if choice.kind == "cost" and choice.min == 0 and perms and len(perms) == len(
                choice.options):
            best = max(perms, key=lambda p: (p.power, p.id))
            return (best.id,) if best.power > 0 else ()
        if choice.min > 0 and perms and len(perms) == len(choice.options):
            cheapest = sorted(perms, key=lambda p: (p.is_creature, p.power + p.toughness,
                                                    p.id))
            return tuple(p.id for p in cheapest[:choice.min])
        return tuple(choice.default)

    def rng(self, player: str, moment: str) -> random.Random:
        return random.Random(f"{self.seed}:{self.state.turn}:{player}:{moment}")

    # -- a turn ------------------------------------------------------------------

    def play(self, turns: int = MAX_TURNS) -> Game:
        """Play until the game ends or ``turns`` turns have been played."""
        while not self.over and self.state.turn <= turns:
            self.turn()
            if not self.over and self.state.turn < turns:
                self.do("begin", lambda s: self.engine.begin_turn(s))
            elif not self.over:
                break
        return self

    def turn(self) -> None:
        me = self.state.active_player
        pool = {p: mana(self.state, p) for p in PLAYERS}
        self.log.append(f"turn {self.state.turn}: {me} "
                        f"({', '.join(f'{p} {self.state.players[p].life}' for p in PLAYERS)})")
        self.main(me, pool, precombat=True)
        self.combat(me, pool)
        self.main(me, pool, precombat=False)
        self.do("end", lambda s: self.engine.end_turn(s))

    def main(self, me: str, pool: dict[str, int], *, precombat: bool) -> None:
        foe = opponent(me)
        state = self.state
        bolts = in_hand(state, me, "Lightning Bolt")
        if bolts and pool[me] and state.players[foe].life <= 3:  # burn them out
            pool[me] -= 1
            self.play_card(cast(bolts[0], DealDamage(bolts[0], foe, 3)))
            return
        if precombat:
            self.removal(me, pool)
        reserve = 1 if (in_hand(self.state, me, "Giant Growth") and precombat) else 0
        hand = sorted((c for c in self.state.zone(me, "hand") if card_of(c).creature),
                      key=lambda c: (-card_of(c).cost, c))
        for card in hand:
            if card_of(card).cost <= pool[me] - reserve and not self.over:
                pool[me] -= card_of(card).cost
                self.play_card(cast(card))
        for card in in_hand(self.state, me, "Lightning Bolt"):
            if not precombat and pool[me] and self.rng(me, "face").random() < 0.4:
                pool[me] -= 1
                self.play_card(cast(card, DealDamage(card, foe, 3)))
        for card in in_hand(self.state, me, "Raise the Alarm"):
            if not precombat and pool[me] >= 2:
                pool[me] -= 2
                self.play_card(cast(card, *(CreateToken(Permanent(
                    f"{card}-soldier-{n}", me, name="Soldier", subtypes=("Soldier",),
                    colors={"white"}, base_power=1, base_toughness=1)) for n in (1, 2))))

    def removal(self, me: str, pool: dict[str, int]) -> None:
        foe = opponent(me)
        theirs = sorted(creatures(self.state, foe), key=lambda p: (-p.power, p.id))
        murders = in_hand(self.state, me, "Murder")
        if murders and theirs and theirs[0].power >= 3 and pool[me] >= 3:
            pool[me] -= 3
            self.play_card(cast(murders[0], Destroy(theirs[0].id)))
        theirs = [p for p in sorted(creatures(self.state, foe), key=lambda p: (-p.power, p.id))
                  if p.toughness - p.damage <= 3 and p.power >= 2]
        bolts = in_hand(self.state, me, "Lightning Bolt")
        if bolts and theirs and pool[me] and (len(bolts) > 1
                                               or self.rng(me, "bolt").random() < 0.5):
            pool[me] -= 1
            self.play_card(cast(bolts[0], DealDamage(bolts[0], theirs[0].id, 3)))

    # -- combat --------------------------------------------------------------------

    def combat(self, me: str, pool: dict[str, int]) -> None:
        foe = opponent(me)
        engine = self.engine
        if not self.do("beginning of combat", lambda s: engine.begin_combat(s)):
            return
        state = self.state
        blockers = [p for p in creatures(state, foe) if not p.tapped]
        biggest = max((p.power for p in blockers), default=0)
        mine = [state.objects[a] for a in engine.legal_attackers(state)]
        total = sum(p.power for p in mine)
        ahead = total >= sum(p.power for p in blockers) or total >= state.players[foe].life
        rng = self.rng(me, "attack")
        attacks = {p.id: foe for p in mine if p.power > 0 and (
            ahead or p.toughness > biggest or rng.random() < 0.5)}
        for enlister in [p for p in mine if p.id in attacks and "enlist" in p.keyword_names]:
            # Enlist (702.154a) taps a creature that doesn't attack: sometimes
            # the strongest other attacker stays home to lend its power.
            others = [p for p in mine if p.id in attacks and p.id != enlister.id]
            if others and rng.random() < 0.5:
                del attacks[max(others, key=lambda p: (p.power, p.id)).id]
        self.log.append(f"  {me} attacks with {', '.join(sorted(attacks)) or 'nothing'}")
        chosen = self.answers("declare_attackers", attacks) if attacks else {}
        self.do("declare attackers", lambda s: engine.declare_attackers(s, attacks,
                                                                        choices=chosen))
        if engine.next_step(self.state) == "declare_blockers":
            blocks = self.blocks(foe)
            answered = self.answers("declare_blockers", blocks)
            self.do("declare blockers", lambda s: engine.declare_blockers(s, blocks,
                                                                          choices=answered))
            self.tricks(me, foe, pool)
            while not self.over and engine.next_step(self.state) in (
                    "first_strike_damage", "combat_damage"):
                self.do("combat damage", lambda s: engine.combat_damage(s))
        self.do("end of combat", lambda s: engine.end_of_combat(s))
        self.do("end of the combat phase", lambda s: engine.finish(s))

    def blocks(self, me: str) -> dict[str, str]:
        """The defender blocks where its blocker survives or trades, and chumps
        when the attack would be lethal."""
        state = self.state
        combat = state.combat
        assert combat is not None
        attackers = sorted((state.objects[a] for a in combat.attacks),
                           key=lambda p: (-p.power, p.id))
        incoming = sum(a.power for a in attackers)
        used: set[str] = set()
        blocks: dict[str, str] = {}
        for attacker in attackers:
            able = [state.objects[b] for b in self.engine.legal_blockers(state, attacker.id)
                    if b not in used]
            good = [b for b in able if b.toughness > attacker.power
                    or (b.power >= attacker.toughness and b.power <= attacker.power + 2)]
            if not good and incoming >= state.players[me].life:
                good = sorted(able, key=lambda b: (b.power, b.id))[:1]
            if good:
                blocker = min(good, key=lambda b: (b.power + b.toughness, b.id))
                blocks[blocker.id] = attacker.id
                used.add(blocker.id)
                incoming -= attacker.power
        if self.engine.block_violations(state, blocks):
            return {}
        return blocks

    def tricks(self, me: str, foe: str, pool: dict[str, int]) -> None:
        """After blockers: the defender Fogs a big or lethal attack, the
        attacker grows a blocked creature that would die or fail to kill."""
        state = self.state
        combat = state.combat
        if combat is None or self.over:
            return
        unblocked = sum(state.objects[a].power for a in combat.attacks
                        if a not in combat.blocked)
        fogs = in_hand(state, foe, "Fog")
        if fogs and pool[foe] and (unblocked >= state.players[foe].life or (
                unblocked >= 4 and self.rng(foe, "fog").random() < 0.6)):
            pool[foe] -= 1
            self.play_card(cast(fogs[0], AddEffect(Effect(
                "prevent_all_combat_damage", duration="end_of_turn"))))
            return
        for blocker_id, attacked in sorted(combat.blocks.items()):
            growth = in_hand(self.state, me, "Giant Growth")
            if not growth or not pool[me]:
                return
            attacker = self.state.objects[attacked[0]]
            blocker = self.state.objects[blocker_id]
            if blocker.power >= attacker.toughness or attacker.power < blocker.toughness:
                pool[me] -= 1
                self.play_card(cast(growth[0], Pump(attacker.id, 3, 3)))


def _target(action: Cast) -> str:
    for effect in action.effects:
        target = getattr(effect, "target", None)
        if isinstance(target, str):
            return target
    return ""


def play(seed: int = SEED, turns: int = MAX_TURNS, engine: Engine | None = None) -> Game:
    """Play one game with this seed (at most ``turns`` turns)."""
    return Game(seed, engine).play(turns)


def describe(game: Game) -> Iterable[str]:
    """The game's log and how it ended."""
    yield from game.log
    over = game.state.game_over
    if over is None:
        yield f"no winner after {game.state.turn} turns"
    else:
        yield (f"{', '.join(over.winners) or 'nobody'} won on turn {game.state.turn} "
               f"({over.step}, rule {over.rule})")


def main(argv: Sequence[str]) -> None:
    seed = int(argv[1]) if len(argv) > 1 else SEED
    for line in describe(play(seed)):
        print(line)


if __name__ == "__main__":
    main(sys.argv)

__all__: list[Any] = ["CARDS", "DECKS", "SEED", "Game", "new_engine", "new_game",
                     "play"]
