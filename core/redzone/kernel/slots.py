"""A plugin's handle on its own slot of the state (611.2, 603.2).

Each plugin's slot is kept under the name it was registered under
(``state.plugin_state[name]``), and ``state.slot(name)`` reads it. A plugin
does not choose that name: an entry point names it, an embedding program
may register it under another (``PluginInfo("my_lifelink", module)``), and
the conformance kit registers it with a position prefix to change the order
plugins are called in. A plugin that declares a :class:`Slot` reads and
keeps its own slot whatever it is called::

    from redzone import Slot

    SEEN = Slot("combat")

    @hookimpl
    def redzone_record(state, events):
        return SEEN.keep((SEEN.get(state) or 0) + len(events))

The kernel knows which plugin's code it is running: while it runs the code
of a plugin whose module declares a :class:`Slot` (its hook
implementations, the ``replace`` of its result replacements, its action
kinds and activated abilities), the handle resolves to that plugin's
registered name. Plugins that declare none are called as they always were,
at no cost.
"""

from __future__ import annotations

import contextlib
import contextvars
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from redzone.kernel.model import SCOPES, PluginState

if TYPE_CHECKING:
    from redzone.kernel.model import GameState

#: The registered name of the plugin whose code the kernel is running, when
#: its module declares a :class:`Slot` (``None`` elsewhere).
_OWNER: Final[contextvars.ContextVar[str | None]] = contextvars.ContextVar(
    "redzone_slot_owner", default=None)

#: Answer types that are never lazy iterators.
_PLAIN: Final = frozenset({list, tuple, bool, int, set, frozenset, dict, str, bytes})


class Slot:
    """A plugin's own slot of the state, read without knowing the name the
    plugin was registered under.

    Declare one at module level in the plugin's module; the kernel resolves
    it, while it runs that plugin's code, to the plugin's registered name.

    :param scope: when the kernel clears the slot: ``game`` (never),
        ``turn`` (as each turn begins) or ``combat`` (as each combat begins);
        what :meth:`keep` writes.
    :raises ValueError: for an unknown scope.

    .. versionadded:: 0.1.0
    """

    __slots__ = ("scope",)

    def __init__(self, scope: str = "game") -> None:
        if scope not in SCOPES:
            raise ValueError(f"Slot: unknown scope {scope!r} (one of {', '.join(SCOPES)})")
        self.scope = scope

    @property
    def name(self) -> str:
        """The registered name of the plugin whose code is running.

        :raises LookupError: outside the code of a plugin whose module
            declares a :class:`Slot` (a slot read at import time, or from a
            module that doesn't declare the handle it uses).
        """
        owner = _OWNER.get()
        if owner is None:
            raise LookupError("Slot: read outside the code of a plugin that declares it; "
                              "declare the Slot at module level in the plugin's module and "
                              "read it from the plugin's hook implementations, actions or "
                              "abilities (or read state.slot(name) with the registered name)")
        return owner

    def get(self, state: GameState) -> Any:
        """The value the running plugin keeps in its slot of ``state``
        (``None`` if none)."""
        return state.slot(self.name)

    def keep(self, value: Any) -> PluginState:
        """The :class:`~redzone.PluginState` a ``redzone_record`` returns to
        keep ``value`` in the slot, with this handle's scope."""
        return PluginState(value, self.scope)

    def __repr__(self) -> str:
        return f"Slot({self.scope!r})"


#: What :func:`declares_slot` found, by plugin (weakly: a plugin that is
#: dropped is forgotten with what it holds).
_DECLARES: Final[weakref.WeakKeyDictionary[Any, bool]] = weakref.WeakKeyDictionary()


def declares_slot(plugin: object) -> bool:
    """Whether ``plugin`` (a module, usually) declares a :class:`Slot` (a
    module-level attribute that is one; looked at once per plugin)."""
    try:
        return _DECLARES[plugin]
    except (KeyError, TypeError):
        pass
    try:
        values = list(vars(plugin).values())
    except TypeError:
        values = []
    found = any(type(v) is Slot for v in values)
    # (not weakly referable, or unhashable: asked again next time)
    with contextlib.suppress(TypeError):
        _DECLARES[plugin] = found
    return found


def owned(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` run as the code of plugin ``name``: its :class:`Slot` handles
    resolve to ``name``. A lazy iterable it answers is consumed inside, so a
    generator reading its slot reads the right one."""

    def run(*args: Any) -> Any:
        token = _OWNER.set(name)
        try:
            res = fn(*args)
            if res is not None and type(res) not in _PLAIN and isinstance(res, Iterable):
                res = tuple(res)
            return res
        finally:
            _OWNER.reset(token)

    run.__name__ = getattr(fn, "__name__", "run")
    run.__qualname__ = getattr(fn, "__qualname__", "run")
    run.__wrapped__ = fn  # type: ignore[attr-defined]
    return run


class owning:
    """``with owning(name):`` runs its block as the code of plugin ``name``
    (an action kind's or activated ability's code, run by the kernel)."""

    __slots__ = ("_name", "_token")

    def __init__(self, name: str) -> None:
        self._name = name
        self._token: contextvars.Token[str | None] | None = None

    def __enter__(self) -> None:
        self._token = _OWNER.set(self._name)

    def __exit__(self, *exc: object) -> None:
        assert self._token is not None
        _OWNER.reset(self._token)


__all__ = ["Slot", "declares_slot", "owned", "owning"]
