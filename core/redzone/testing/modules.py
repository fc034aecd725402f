"""Plugin modules built in memory, for tests of keywords and of the engine."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from redzone.kernel.hooktypes import KeywordSpec
from redzone.kernel.plugins import hookimpl


def plugin_module(name: str, keyword: str | None = None, *, rule: str = "702.999",
                  asked_always: bool = False,
                  **hooks: Callable[..., Any]) -> types.ModuleType:
    """A plugin module named ``name`` whose hook implementations are
    ``hooks`` (by hook name), for ``Engine(plugins=[...])``::

        lure = plugin_module("lure", redzone_block_requirements=lambda state: [...])

    :param keyword: a keyword the module declares (``redzone_keywords``),
        with rule ``rule``: its hooks are then asked only about states where
        an object has it, unless ``asked_always``
        (:attr:`~redzone.KeywordSpec.asked_always`).
    :returns: the module; its docstring names it, as a plugin's should.
    """
    module = types.ModuleType(name, f"{(keyword or name).capitalize()} (a test plugin).")
    if keyword is not None:
        spec = KeywordSpec(keyword, rule, asked_always=asked_always)

        def redzone_keywords() -> list[KeywordSpec]:
            return [spec]

        module.redzone_keywords = hookimpl(redzone_keywords)  # type: ignore[attr-defined]
    for hook, fn in hooks.items():
        setattr(module, hook, hookimpl(fn))
    return module


__all__ = ["plugin_module"]
