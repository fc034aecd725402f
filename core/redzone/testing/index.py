"""Checking a package's plugin index (:mod:`redzone.kernel.index`) in its
own tests, so that it never goes stale."""

from __future__ import annotations

from redzone.kernel import index as _index
from redzone.kernel._loading import overlap


def check_index(package: str) -> None:
    """``package``'s plugin index is the one its installed plugins generate:
    it says the hooks each plugin module implements and the keywords it
    declares (an engine imports a plugin only when it needs it, reading
    these without importing it). And no two of its keyword forms match one
    text: an engine checks the forms of one index against each other only
    here, not as it starts.

    :param package: the package whose ``redzone_index`` module to check.
    :raises AssertionError: naming the index and the command that
        regenerates it, when it is missing or stale; naming two keywords
        whose forms match one text.

    .. versionadded:: 0.1.0
    """
    path = _index.index_path(package)
    plugins = _index.package_plugins(package)
    text = _index.render(package, plugins)
    found = path.read_text(encoding="utf-8") if path.exists() else None
    if found != text:
        raise AssertionError(
            f"the plugin index {path.name} of {package} is "
            f"{'missing' if found is None else 'stale'}: regenerate it with "
            f"python -m redzone.kernel.index {package}")
    specs = [spec for plugin in plugins.values() for spec in _index.entry(plugin)[1]]
    clash = overlap(specs)
    if clash is not None:
        first, second, text = clash
        raise AssertionError(f"the keywords {first!r} and {second!r} of {package} both match "
                             f"{text!r}: a printed keyword must belong to one plugin")


__all__ = ["check_index"]
