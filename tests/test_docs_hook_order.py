"""The hooks are listed in the order the kernel asks them (issue 22, item 6).

``redzone/kernel/hookspecs.py`` declares them in that order, the hook
reference and the combat diagram are generated from it in the same order,
and a trace of the hooks the kernel asks while resolving example combats
(one command at a time) finds them asked in that order: attacks (508),
blocks (509), damage assignment (510), the damage pipeline (120.4:
redirection, prevention, replacement, results), then, after every action,
state-based actions (704) and the events and triggered abilities (603),
and the end of combat (511).
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from redzone.formats.outcome import run_file
from redzone.kernel import hookspecs, plugins

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "core" / "redzone" / "examples"
SOURCE_ORDER = re.findall(r"^def (redzone_\w+)\(", inspect.getsource(hookspecs), re.M)


def _generator() -> ModuleType:
    path = ROOT / "docs" / "_gen" / "redzone_docs.py"
    spec = importlib.util.spec_from_file_location("redzone_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["redzone_docs"] = module
    spec.loader.exec_module(module)
    return module


gen = _generator()


def test_every_hookspec_is_listed_once() -> None:
    assert len(SOURCE_ORDER) == len(set(SOURCE_ORDER))
    assert sorted(SOURCE_ORDER) == sorted(n for n in dir(hookspecs) if n.startswith("redzone_"))


def test_the_hook_reference_lists_the_hooks_in_hookspecs_order() -> None:
    """The reference's sections come in the order of hookspecs.py."""
    page = gen.hooks_page()
    assert re.findall(r"^### `(redzone_\w+)`$", page, re.M) == SOURCE_ORDER


def test_the_combat_diagram_lists_the_hooks_in_hookspecs_order() -> None:
    """Within each step of the combat diagram (506.1), hooks come in source order."""
    svg = gen.diagram_combat()
    for step in re.findall(r"<g data-step='\d+'>.*?</g>", svg):
        drawn = re.findall(r"data-hook='(redzone_\w+)'", step)
        assert drawn == sorted(drawn, key=SOURCE_ORDER.index), drawn


def test_the_reference_groups_follow_a_combats_course() -> None:
    """The banners of hookspecs.py, in order: declarations as the engine is
    made, then the untap step (502), 508, 509, 510, 120.4, 704 and 603 after every action, 511."""
    groups = list(dict.fromkeys(gen.hook_groups(inspect.getsource(hookspecs)).values()))
    rules = [m.group(1) if (m := re.search(r"\((\d{3})", g)) else g for g in groups]
    assert rules == ["702", "502", "508", "509", "510", "120", "611", "120", "511"], groups


#: Examples whose combats have one damage step and deal no noncombat damage
#: while a declaration is checked, so the first time each hook is asked in a
#: command is the order of the rules (a first strike step asks the damage
#: step's hooks again after the first step's pipeline; an unblocked attacker
#: before a blocked one is asked for extra recipients before the blocked one
#: is asked about assigning past its blockers).
TRACED = ("annihilator", "baloth-and-boars", "banding-band-blocked", "boon-reflection",
          "lure", "multiplayer", "trample-blocker", "vastwood-gorger-giant-growth",
          "worship-awe-strike", "menace-one-blocker", "kor-hookmaster-flying")

#: Asked as the engine is made, or after every action (611, 704, 603):
#: their place in a command is not the combat's course.
_RECURRING = {"redzone_keywords", "redzone_actions", "redzone_damage_steps"} | set(
    SOURCE_ORDER[SOURCE_ORDER.index("redzone_condition_holds"):
                 SOURCE_ORDER.index("redzone_end_of_combat")])


@pytest.mark.parametrize("name", TRACED)
def test_the_kernel_asks_the_hooks_in_hookspecs_order(name: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command of a combat asks its hooks first in the order they are
    declared (508 before 509 before 510, and 614.9 redirection before 615
    prevention before 614.1a replacement before 120.4c results)."""
    commands: list[list[str]] = []
    answers, started = plugins.Hooks._answers, plugins.Hooks.command_started

    def traced_answers(self: plugins.Hooks, hook: str, args: tuple[object, ...]) -> object:
        if commands:
            commands[-1].append(hook)
        return answers(self, hook, args)

    def traced_start(self: plugins.Hooks) -> None:
        commands.append([])
        started(self)

    monkeypatch.setattr(plugins.Hooks, "_answers", traced_answers)
    monkeypatch.setattr(plugins.Hooks, "command_started", traced_start)
    run_file(EXAMPLES / f"{name}.toml")
    asked = {h for c in commands for h in c}
    assert len(asked - _RECURRING) >= 5, f"{name}: too few hooks asked to tell an order"
    position = SOURCE_ORDER.index
    for command in commands:
        first = [h for h in dict.fromkeys(command) if h not in _RECURRING]
        inverted = [(a, b) for a, b in itertools.combinations(first, 2)
                    if position(a) > position(b)]
        assert not inverted, f"{name}: the kernel asks these before hookspecs.py says: {inverted}"
