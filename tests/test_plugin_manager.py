"""redzone's plugin manager finds exactly the hooks pluggy's own would.

For a plain module it reads its functions' marks from the namespace itself
and passes over what is no function or method, instead of pluggy's static
lookup (``inspect.getattr_static``) of every name, which was most of the
cost of registering a plugin module. Whatever a plugin is, the hook
implementations and specifications found, and their options, must be
pluggy's.
"""

from __future__ import annotations

import importlib
import types
from typing import Any

import pluggy
import pytest
from redzone import hookimpl
from redzone.kernel import entrypoints, hookspecs
from redzone.kernel._loading import GROUP, new_manager


def _found(pm: pluggy.PluginManager, plugin: object, spec: bool = False
           ) -> dict[str, Any]:
    parse = pm.parse_hookspec_opts if spec else pm.parse_hookimpl_opts
    out = {}
    for name in dir(plugin):
        opts = parse(plugin, name)  # type: ignore[arg-type]
        if opts is not None:
            out[name] = opts
    return out


def _built_in_modules() -> list[types.ModuleType]:
    values = sorted({ep.value for ep in entrypoints.entry_points(GROUP)
                     if ep.value.startswith("redzone_keywords.")})
    return [importlib.import_module(v.partition(":")[0]) for v in values]


def test_every_built_in_plugin_module_has_the_hooks_pluggy_finds() -> None:
    modules = _built_in_modules()
    assert len(modules) > 40  # every built-in keyword's module
    ours, theirs = new_manager(), pluggy.PluginManager(GROUP)
    for module in modules:
        found = _found(ours, module)
        assert found, module.__name__
        assert found == _found(theirs, module), module.__name__


def test_the_hookspecs_are_the_ones_pluggy_finds() -> None:
    theirs = pluggy.PluginManager(GROUP)
    found = _found(new_manager(), hookspecs, spec=True)
    assert found and found == _found(theirs, hookspecs, spec=True)
    theirs.add_hookspecs(hookspecs)
    assert sorted(found) == sorted(n for n in vars(theirs.hook) if n.startswith("redzone_"))


class _ClassPlugin:
    @hookimpl
    def redzone_record(self, state: Any, events: Any) -> None:
        return None

    @staticmethod
    @hookimpl
    def redzone_triggers(state: Any, events: Any) -> list[Any]:
        return []

    @property
    def redzone_damage_results(self) -> Any:  # a descriptor: never run, never a hook
        raise AssertionError("pluggy's lookup is static: a property is not read")


def _module_plugin() -> types.ModuleType:
    module = types.ModuleType("zz_plugin")

    @hookimpl(tryfirst=True)
    def redzone_record(state: Any, events: Any) -> None:
        return None

    def redzone_damage_event(state: Any, dealt: Any, results: Any) -> None:
        return None

    redzone_damage_event.redzone_impl = "not a dict"  # type: ignore[attr-defined]
    marked_value = types.SimpleNamespace(redzone_impl={})  # not a function: not a hook
    module.redzone_damage_event = redzone_damage_event  # type: ignore[attr-defined]
    module.redzone_record = redzone_record  # type: ignore[attr-defined]
    module.redzone_triggers = marked_value  # type: ignore[attr-defined]
    module.helper = len  # type: ignore[attr-defined]
    module.bound = _ClassPlugin().redzone_record  # type: ignore[attr-defined]

    def __getattr__(name: str) -> Any:  # (PEP 562: no static lookup sees it)
        if name == "redzone_end_of_combat":
            return redzone_record
        raise AttributeError(name)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


@pytest.mark.parametrize("plugin", [_ClassPlugin, _ClassPlugin(), _module_plugin()],
                         ids=["class", "instance", "module"])
def test_any_plugin_object_has_the_hooks_pluggy_finds(plugin: object) -> None:
    found = _found(new_manager(), plugin)
    assert found == _found(pluggy.PluginManager(GROUP), plugin)
    assert "redzone_record" in found and "redzone_damage_results" not in found
    assert "redzone_end_of_combat" not in found  # only a module __getattr__ gives it
    assert "redzone_damage_event" not in found  # marked, but its options are no dict


def test_a_module_plugins_hooks_are_registered_with_their_options() -> None:
    pm = new_manager()
    module = _module_plugin()
    pm.register(module, name="zz")
    impls = pm.hook.redzone_record.get_hookimpls()
    assert [(i.plugin_name, i.tryfirst) for i in impls] == [("zz", True)]
    assert not pm.hook.redzone_triggers.get_hookimpls()
    # A method bound at module level is a hook implementation to pluggy too.
    pm2, theirs = new_manager(), pluggy.PluginManager(GROUP)
    theirs.add_hookspecs(hookspecs)
    holder = types.ModuleType("zz_bound")
    holder.redzone_record = _ClassPlugin().redzone_record  # type: ignore[attr-defined]
    pm2.register(holder, name="b")
    theirs.register(holder, name="b")
    assert len(pm2.hook.redzone_record.get_hookimpls()) == \
        len(theirs.hook.redzone_record.get_hookimpls()) == 1
