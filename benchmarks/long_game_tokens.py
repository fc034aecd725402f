"""CPU time per turn over a long game that makes tokens every turn.

Tokens that ceased to exist (111.7, 704.5d) leave the state as the next turn
begins, so the cost of a turn stays flat however long the game: this prints
the CPU seconds of each block of turns, and the state's size (objects and
last known information) at the end of each block. Run it by hand::

    python benchmarks/long_game_tokens.py [turns] [block]

(1,000 turns in blocks of 100 by default.) A flat column is the expected
result; a rising one means something accumulates.
"""

from __future__ import annotations

import sys
import time

from redzone import Engine, Player


def main(turns: int = 1_000, block: int = 100) -> None:
    engine = Engine(verify=False)
    state = engine.game(["alice", Player("bob", life=1_000_000)],
                        [engine.creature("captain", "alice", 1, 1, "mobilize 3")])
    start = time.process_time()
    for turn in range(1, turns + 1):
        if state.active_player == "alice":
            state = engine.resolve(state, {"captain": "bob"}, {}, through="cleanup").state
        else:
            state = engine.end_turn(state).state
        state = engine.begin_turn(state).state
        if turn % block == 0:
            now = time.process_time()
            print(f"turns {turn - block + 1:>5}-{turn:<5} {now - start:8.3f} s CPU  "
                  f"state: {len(state.objects)} objects, {len(state.lki)} last known")
            start = now


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
