"""A small game engine that embeds redzone as its combat oracle.

The game here owns what redzone leaves to its host: cards, the stack and
priority. redzone owns the combat rules. The loop:

1. drives redzone's step API (``begin_combat``, ``declare_attackers``,
   ``declare_blockers``, ``combat_damage``, ``end_of_combat``, ``finish``);
2. after each step's turn-based action, opens a priority window (117.3-117.4):
   players act in turn order starting with the active player; a spell or
   ability goes on the game's own stack; when all players pass in
   succession the top object resolves (608.1) and the active player gets
   priority again; when all pass with the stack empty, the step ends;
3. hands redzone the *effects* of what resolves, as data
   (:class:`redzone.Pump`, :class:`redzone.DealDamage`, ...), through
   :meth:`redzone.Engine.perform`, which also performs state-based actions
   (117.5);
4. keeps an immutable snapshot after every step and every resolution: a
   rollback is just picking an older one, and a "what if" search replays
   other decisions from it;
5. takes every decision (declarations, assignments, spells) as data, from a
   :class:`Decisions` value, so an AI can generate them and a log can replay
   them.

Run it: ``python combat_loop.py`` plays the two examples of rules 510.1c
and 510.2 (Giant Growth after blocks, a Mogg Fanatic sacrificed to deal 1
damage).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import redzone
from attrs import field, frozen
from redzone import DealDamage, Engine, Event, GameState, LeaveBattlefield, Pump
from redzone.kernel.actions import Action

# ---------------------------------------------------------------------------
# The game's own cards: what redzone does not know about
# ---------------------------------------------------------------------------


@frozen
class Play:
    """A decision to cast a spell or activate an ability, as data.

    :param card: the card's name (a key of :data:`CARDS`).
    :param player: who plays it.
    :param target: its target: a permanent or player id.
    :param source: the permanent whose ability it is, for abilities.
    """

    card: str
    player: str
    target: str
    source: str | None = None


@frozen
class Card:
    """How the game turns a :class:`Play` into redzone actions.

    :param costs: actions performed when it is played (costs are paid at
        once, 601.2h / 602.2b: a sacrifice happens before anyone can respond).
    :param effects: actions performed when it resolves.
    """

    costs: Callable[[Play], Sequence[Action]]
    effects: Callable[[Play], Sequence[Action]]


CARDS: Mapping[str, Card] = {
    # Giant Growth: target creature gets +3/+3 until end of turn.
    "Giant Growth": Card(costs=lambda p: (), effects=lambda p: (Pump(p.target, 3, 3),)),
    # Mogg Fanatic: "Sacrifice Mogg Fanatic: It deals 1 damage to any target."
    # The damage's source has left the battlefield when the ability resolves:
    # redzone reads it from last known information (608.2h).
    "Mogg Fanatic": Card(
        costs=lambda p: (LeaveBattlefield(p.source or "", "graveyard"),),
        effects=lambda p: (DealDamage(p.source or "", p.target, 1),)),
}


@frozen
class StackObject:
    """A spell or ability on the game's stack."""

    play: Play
    effects: tuple[Action, ...]


# ---------------------------------------------------------------------------
# Decisions as data
# ---------------------------------------------------------------------------


@frozen
class Decisions:
    """Everything the players decide in one combat.

    :param attacks: attacking creature -> player, planeswalker or battle.
    :param blocks: blocking creature -> attacker(s).
    :param assign: combat damage assignments (creature -> recipient ->
        amount); creatures left out use redzone's default.
    :param plays: step name -> the plays made in that step's priority
        window, in the order the players make them.
    :param order: damage assignment orders, for editions that have them.
    """

    attacks: Mapping[str, str]
    blocks: Mapping[str, str | Sequence[str]] = field(factory=dict)
    assign: Mapping[str, Mapping[str, int]] | None = None
    plays: Mapping[str, Sequence[Play]] = field(factory=dict)
    order: Mapping[str, Sequence[str]] | None = None


@frozen
class Snapshot:
    """The state at a point of the combat; holding it is a free checkpoint."""

    label: str
    state: GameState


# ---------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------


class CombatLoop:
    """Plays one combat phase: redzone's steps, and the game's priority windows.

    :param engine: the redzone engine (one plugin set, one rules edition).
    :param state: the state before combat.
    :param decisions: the players' decisions.
    """

    def __init__(self, engine: Engine, state: GameState, decisions: Decisions) -> None:
        self.engine = engine
        self.decisions = decisions
        self.state = state
        self.stack: list[StackObject] = []
        self.events: list[Event] = []
        self.snapshots: list[Snapshot] = [Snapshot("start", state)]
        self.log: list[str] = []

    # -- redzone's steps ----------------------------------------------------

    def run(self) -> GameState:
        """Play the combat to its end; returns the state after it.

        :raises redzone.IllegalActionError: when a decision is illegal (a
            declaration, an assignment); :attr:`state` is then still the
            state before it, as rule 733 says.
        """
        d = self.decisions
        engine = self.engine
        while (step := engine.next_step(self.state)) is not None:
            if step == "beginning_of_combat":
                out = engine.begin_combat(self.state)
            elif step == "declare_attackers":
                out = engine.declare_attackers(self.state, d.attacks)
            elif step == "declare_blockers":
                out = engine.declare_blockers(self.state, d.blocks, d.order)
            elif step == "end_of_combat":
                out = engine.end_of_combat(self.state)
            elif step == "postcombat_main":
                out = engine.finish(self.state)
            else:  # a combat damage step (and, under "sixth", damage on the stack)
                out = engine.combat_damage(self.state, d.assign)
            self._commit(out, step)
            if step != "postcombat_main":
                self.priority(step)
        return self.state

    def _commit(self, out: redzone.Outcome, label: str) -> None:
        self.state = out.state
        self.events.extend(out.events)
        self.snapshots.append(Snapshot(label, out.state))

    # -- the game's priority and stack ----------------------------------------

    def priority(self, step: str) -> None:
        """The priority window after ``step``'s turn-based action (117.3-117.4)."""
        pending = {p: [x for x in self.decisions.plays.get(step, ()) if x.player == p]
                   for p in self.state.turn_order}
        players = self.state.turn_order
        start = players.index(self.state.active_player)
        while True:
            passes, i = 0, start
            while passes < len(players):
                player = players[i % len(players)]
                if pending[player]:
                    self.play(pending[player].pop(0))
                    passes = 0  # 117.3c: after a player acts, they get priority again
                    continue
                passes += 1
                i += 1
            if not self.stack:
                return  # 117.4: all passed with the stack empty: the step ends
            self.resolve_top(step)  # 117.4, 608.1: then the active player gets priority

    def play(self, play: Play) -> None:
        """Put a spell or ability on the stack, paying its costs at once."""
        card = CARDS[play.card]
        for cost in card.costs(play):
            self._commit(self.engine.perform(self.state, cost), f"{play.card}: cost")
        self.stack.append(StackObject(play, tuple(card.effects(play))))
        self.log.append(f"{play.player} plays {play.card} targeting {play.target}")

    def resolve_top(self, step: str) -> None:
        """Resolve the top of the stack: its effects, as redzone actions."""
        top = self.stack.pop()
        if not self._target_legal(top.play.target):
            self.log.append(f"{top.play.card} doesn't resolve: its target is gone (608.2b)")
            return
        for effect in top.effects:
            self._commit(self.engine.perform(self.state, effect),
                         f"{step}: {top.play.card} resolves")
        self.log.append(f"{top.play.card} resolves")

    def _target_legal(self, target: str) -> bool:
        return target in self.state.players or self.state.on_battlefield(target) is not None

    # -- snapshots -------------------------------------------------------------

    def snapshot(self, label: str) -> GameState:
        """The last snapshot with ``label``.

        :raises KeyError: when there is none.
        """
        for snap in reversed(self.snapshots):
            if snap.label == label:
                return snap.state
        raise KeyError(label)


def play_combat(engine: Engine, state: GameState, decisions: Decisions) -> CombatLoop:
    """Play a combat; the loop keeps the final state, events and snapshots."""
    loop = CombatLoop(engine, state, decisions)
    loop.run()
    return loop


def what_if(engine: Engine, snapshot: GameState,
            options: Mapping[str, Decisions]) -> dict[str, GameState]:
    """Play several alternative decisions from the same snapshot (an AI's
    search): nothing is copied or undone, every state is immutable."""
    return {name: play_combat(engine, snapshot, d).state for name, d in options.items()}


# ---------------------------------------------------------------------------
# The two examples of the rules
# ---------------------------------------------------------------------------


def giant_growth_board(engine: Engine) -> GameState:
    """510.1c: Vastwood Gorger (5/6) attacks; Pride Guardian (0/3) and
    Llanowar Elves (1/1) will block it."""
    return engine.game(["alice", "bob"], [
        engine.creature("gorger", "alice", 5, 6, name="Vastwood Gorger"),
        engine.creature("guardian", "bob", 0, 3, name="Pride Guardian"),
        engine.creature("elves", "bob", 1, 1, name="Llanowar Elves"),
    ])


GIANT_GROWTH = Decisions(
    attacks={"gorger": "bob"},
    blocks={"guardian": "gorger", "elves": "gorger"},
    order={"gorger": ["guardian", "elves"]},
    plays={"declare_blockers": [Play("Giant Growth", "bob", "guardian")]},
    assign={"gorger": {"guardian": 4, "elves": 1}},
)


def mogg_fanatic_board(engine: Engine) -> GameState:
    """510.2: Squadron Hawk (1/1 flying) and Goblin Piker (2/1) attack; Mogg
    Fanatic (1/1) will block the Piker."""
    return engine.game(["alice", "bob"], [
        engine.creature("hawk", "alice", 1, 1, "flying", name="Squadron Hawk"),
        engine.creature("piker", "alice", 2, 1, name="Goblin Piker"),
        engine.creature("fanatic", "bob", 1, 1, name="Mogg Fanatic"),
    ])


MOGG_FANATIC = Decisions(
    attacks={"hawk": "bob", "piker": "bob"},
    blocks={"fanatic": "piker"},
    plays={"declare_blockers": [Play("Mogg Fanatic", "bob", "hawk", source="fanatic")]},
)


def main() -> None:
    """Play both examples and print what happened."""
    engine = Engine()
    for title, board, decisions in (
            ("Giant Growth after blocks (510.1c)", giant_growth_board, GIANT_GROWTH),
            ("Mogg Fanatic sacrificed (510.2)", mogg_fanatic_board, MOGG_FANATIC)):
        loop = play_combat(engine, board(engine), decisions)
        print(f"== {title}")
        for line in loop.log:
            print("  " + line)
        for event in loop.events:
            if event.kind in ("damage", "dies", "pump", "life_loss"):
                print(f"  {event.step:18} {event.kind:10} {event.to_json()}")
        print(f"  snapshots: {', '.join(s.label for s in loop.snapshots)}")


if __name__ == "__main__":
    main()
