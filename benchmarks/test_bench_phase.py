"""Side by side with phase-python (the phase.rs engine's Python bindings).

Skipped unless ``phase-python`` is installed (``pip install phase-python``).
The same two boards as the reference figures: a 2/2 blocked by a 2/2, and 50
2/2s each blocked by a 2/2. Each phase round starts from a game loaded at its
declare-attackers prompt (loading is set-up, not timed) and times what the
redzone round times: declare attackers, declare blockers, and passing priority
until combat damage has been dealt (phase's state-based actions included).

phase needs card data; the two cards are built in memory from MTGJSON-shaped
records with the package's own ``build_oracle_face``. The board is put in
place by editing the engine's exported state: the creatures move from the
libraries to the battlefield, having been there since before the turn.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
import rzbench
from redzone import Engine

phase = pytest.importorskip("phase", reason="phase-python is not installed")

SIZES = (1, 50)

_BEAR: dict[str, Any] = {
    "name": "Grizzly Bears", "manaCost": "{1}{G}", "manaValue": 2, "colors": ["G"],
    "colorIdentity": ["G"], "types": ["Creature"], "subtypes": ["Bear"], "supertypes": [],
    "type": "Creature — Bear", "text": "", "power": "2", "toughness": "2",
    "layout": "normal", "legalities": {"standard": "Legal"}, "keywords": [],
    "identifiers": {},
}
_FOREST: dict[str, Any] = {
    "name": "Forest", "manaValue": 0, "colors": [], "colorIdentity": ["G"],
    "types": ["Land"], "subtypes": ["Forest"], "supertypes": ["Basic"],
    "type": "Basic Land — Forest", "text": "({T}: Add {G}.)", "layout": "normal",
    "legalities": {"standard": "Legal"}, "identifiers": {},
}
_DECK = ["Grizzly Bears"] * 60 + ["Forest"] * 5


def _action(kind: str, data: Any = None) -> Any:
    value: dict[str, Any] = {"type": kind}
    if data is not None:
        value["data"] = data
    return phase.GameAction.from_dict(value)


class PhaseBoards:
    """Builds phase games whose next decision is the declaration of attackers."""

    def __init__(self) -> None:
        cards = {c["name"].lower(): phase.build_oracle_face(c, None) for c in (_BEAR, _FOREST)}
        self.engine = phase.Engine.from_json(json.dumps(cards))
        self.passing = _action("PassPriority")
        game = self.engine.new_game(player=_DECK, opponent=_DECK, seed=7, first_player=0)
        keep = _action("MulliganDecision", {"choice": {"type": "Keep"}})
        for _ in range(50):
            if game.phase == "PreCombatMain":
                break
            wf = game.waiting_for()
            if wf["type"] == "MulliganDecision":
                game.apply(wf["data"]["pending"][0]["player"], keep)
            else:
                game.apply(game.priority_player(), self.passing)
        assert game.phase == "PreCombatMain", game.phase
        self.main = game.state()

    def state(self, n: int) -> Any:
        """An exported state: ``n`` bears on each side's battlefield, player 0
        to declare attackers."""
        exported = copy.deepcopy(self.main)
        st = exported["state"]
        for player in st["players"]:
            library = player["library"]
            bears = [i for i in library if st["objects"][str(i)]["name"] == "Grizzly Bears"][:n]
            assert len(bears) == n
            for i in bears:
                library.remove(i)
                obj = st["objects"][str(i)]
                obj["zone"] = "Battlefield"
                obj["entered_battlefield_turn"] = 0
                st["battlefield"].append(i)
        game = self.engine.load_game(exported)
        for _ in range(20):
            if game.waiting_for()["type"] == "DeclareAttackers":
                break
            game.apply(game.priority_player(), self.passing)
        assert game.waiting_for()["type"] == "DeclareAttackers"
        return game.state()

    def combat(self, game: Any) -> Any:
        """Declare every creature as an attacker, block each with its own
        blocker, and pass priority until combat damage has been dealt."""
        wf = game.waiting_for()
        attackers = wf["data"]["valid_attacker_ids"]
        game.apply(0, _action("DeclareAttackers", {
            "attacks": [[a, {"type": "Player", "data": 1}] for a in attackers], "bands": []}),
            fast_forward=True)
        wf = game.waiting_for()
        blockers = wf["data"]["valid_blocker_ids"]
        game.apply(1, _action("DeclareBlockers", {
            "assignments": [[b, a] for b, a in zip(blockers, attackers, strict=True)]}))
        while game.phase not in ("EndCombat", "PostCombatMain"):
            game.apply(game.priority_player(), self.passing)
        return game


@pytest.fixture(scope="module")
def boards() -> PhaseBoards:
    try:
        return PhaseBoards()
    except Exception as exc:  # an API change in phase-python: not our failure
        pytest.skip(f"could not set up phase-python boards: {type(exc).__name__}: {exc}")


def _pedantic(benchmark: Any, fn: Callable[..., Any], setup: Callable[[], Any],
              rounds: int) -> None:
    benchmark.pedantic(fn, setup=lambda: ((setup(),), {}), rounds=rounds, warmup_rounds=1)


@pytest.mark.parametrize("n", SIZES)
def test_phase_combat(benchmark: Any, boards: PhaseBoards, n: int) -> None:
    benchmark.group = f"vs-phase-{n}v{n}"
    exported = boards.state(n)
    done = boards.combat(boards.engine.load_game(exported))
    assert len(done.graveyard(0)) == n and len(done.graveyard(1)) == n
    benchmark.extra_info.update(per_side=n, engine="phase-python",
                                version=getattr(phase, "__version__", "0.103.0"))
    _pedantic(benchmark, boards.combat, lambda: boards.engine.load_game(exported),
              rounds=40 if n == 1 else 15)


@pytest.mark.parametrize("n", SIZES)
def test_redzone_combat(benchmark: Any, engine: Engine, n: int) -> None:
    benchmark.group = f"vs-phase-{n}v{n}"
    board = rzbench.vanilla(engine, n)
    st = rzbench.run(engine, board)
    assert sum(p.zone == "graveyard" for p in st.objects.values()) == 2 * n
    benchmark.extra_info.update(per_side=n, engine="redzone")
    benchmark(rzbench.run, engine, board)


@pytest.mark.parametrize("n", SIZES)
def test_phase_snapshot_restore(benchmark: Any, boards: PhaseBoards, n: int) -> None:
    """phase's rollback: load a game from an exported state."""
    benchmark.group = "vs-phase-snapshot"
    exported = boards.state(n)
    benchmark.extra_info.update(per_side=n, engine="phase-python")
    benchmark.pedantic(boards.engine.load_game, args=(exported,), rounds=15, warmup_rounds=1)


@pytest.mark.parametrize("n", SIZES)
def test_phase_snapshot_take(benchmark: Any, boards: PhaseBoards, n: int) -> None:
    """phase's snapshot: export the game state."""
    benchmark.group = "vs-phase-snapshot"
    game = boards.engine.load_game(boards.state(n))
    benchmark.extra_info.update(per_side=n, engine="phase-python")
    benchmark.pedantic(game.state, rounds=15, warmup_rounds=1)
