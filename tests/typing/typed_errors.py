"""The errors and values docs/embedding.md and docs/api.md name, imported from
``redzone`` itself ("Every public name is importable from redzone").

Checked by the project's ``mypy`` run (``[tool.mypy] files``), never run.
"""

from __future__ import annotations

import redzone
from redzone import Engine, EngineMismatchError, Namer, Printed

state = Engine().game(["alice", "bob"], [Engine().creature("drake", "alice", 2, 2, "flying")])
try:
    Engine(block=["flying"]).legal_attackers(state)
except redzone.EngineMismatchError as err:
    mismatch: EngineMismatchError = err

printed: Printed = redzone.copiable_values(state, state.permanent("drake"))
name: Namer = lambda who: who or "nobody"  # noqa: E731
