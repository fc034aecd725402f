"""Which modules of this install run compiled.

redzone is pure Python. A build made with ``REDZONE_COMPILE=1`` (for example
``REDZONE_COMPILE=1 pip install .``) also compiles the kernel modules listed
in :data:`MODULES` with mypyc, into extension modules installed beside their
sources; Python imports an extension module before a source file of the
same name, so those modules run compiled and every other module stays pure.
An editable install, and any build without the variable, is pure. Both
builds pass the same test suite.

Hook specifications, hook implementations, the attrs classes with converters
(``model``, ``hooktypes``, ``tx``), ``frozen``'s generated code and the
facade's plugin calls are never compiled: compiled code checks annotated
types itself, and the rules there depend on Python's own behaviour. Nor is
the working copy (``working``, the base of ``Tx``): it keeps its frozen state
in its instance dict, which a native class doesn't have, and its own
functions are a few per cent of a combat.

:data:`MODULES` is the one list: the build reads it from this file (without
importing redzone), and :func:`compiled` checks it against the install.
"""

from __future__ import annotations

from importlib.machinery import ExtensionFileLoader
from importlib.util import find_spec

#: The modules a compiled build compiles with mypyc, hot paths of a combat
#: that are typed throughout. A literal tuple of strings: the build reads it
#: with :func:`ast.literal_eval`.
MODULES: tuple[str, ...] = (
    "redzone.kernel.events",
    "redzone.kernel.combat",
    "redzone.kernel.damage",
    "redzone.kernel.sba",
    "redzone.kernel.settle",
    "redzone.kernel.steps",
)


def compiled() -> frozenset[str]:
    """The modules of :data:`MODULES` that this install runs compiled.

    Nothing is imported: each module is looked up as the next import would
    find it.

    :returns: the names of the listed modules found as extension modules;
        empty on a pure install (an editable one, or one built without
        ``REDZONE_COMPILE=1``), all of :data:`MODULES` on a compiled one.
    """
    found = set()
    for name in MODULES:
        spec = find_spec(name)
        if spec is not None and isinstance(spec.loader, ExtensionFileLoader):
            found.add(name)
    return frozenset(found)
