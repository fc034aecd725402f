"""Checking a package's plugin index (:mod:`redzone.kernel.index`) in its
own tests, so that it never goes stale."""

from __future__ import annotations

from redzone.kernel import index as _index


def check_index(package: str) -> None:
    """``package``'s plugin index is the one its installed plugins generate:
    it says the hooks each plugin module implements and the keywords it
    declares (an engine imports a plugin only when it needs it, reading
    these without importing it).

    :param package: the package whose ``redzone_index`` module to check.
    :raises AssertionError: naming the index and the command that
        regenerates it, when it is missing or stale.

    .. versionadded:: 0.1.0
    """
    path = _index.index_path(package)
    text = _index.render(package, _index.package_plugins(package))
    found = path.read_text(encoding="utf-8") if path.exists() else None
    if found != text:
        raise AssertionError(
            f"the plugin index {path.name} of {package} is "
            f"{'missing' if found is None else 'stale'}: regenerate it with "
            f"python -m redzone.kernel.index {package}")


__all__ = ["check_index"]
