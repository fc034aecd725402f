"""A griffe extension for the docs build: the ``__init__`` of attrs classes
(and of ``typing.NamedTuple`` classes).

attrs writes ``__init__`` at import time, so static analysis sees no
signature for ``@frozen``/``@define`` classes and can't match their
``:param:`` fields. This extension adds one, like griffe's own extension for
dataclasses: a parameter per annotated class attribute, in order, with its
default (``field(default=...)`` or a plain value), leaving out ``ClassVar``
and ``init=False`` fields.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: Sphinx cross-reference roles (``:class:`~redzone.Engine```), which the
#: Markdown renderer doesn't know: shown as code, the last part only with ``~``.
ROLE = re.compile(r":(?:func|class|meth|data|attr|mod|exc|obj):`(~?)([^`]+)`")


#: A Sphinx ``.. versionadded:: X.Y`` line, which griffe's Sphinx parser drops.
ADDED = re.compile(r"^\s*\.\. versionadded::\s*(\S+)\s*$", re.M)


def version_added(text: str) -> str:
    """A docstring's ``.. versionadded::`` line as a sentence after its summary."""
    match = ADDED.search(text)
    if match is None:
        return text
    rest = (text[:match.start()] + text[match.end():]).strip("\n")
    summary, sep, body = rest.partition("\n\n")
    return f"{summary}\n\n*Added in redzone {match.group(1)}.*{sep}{body}"


def plain_roles(text: str) -> str:
    """Sphinx roles as Markdown code spans."""
    return ROLE.sub(lambda m: f"`{m.group(2).split('.')[-1] if m.group(1) else m.group(2)}`",
                    text)

#: The decorators that make an attrs class (redzone's ``lazy_frozen`` is
#: ``attrs.frozen`` applied on first use).
ATTRS_DECORATORS = {"attrs.frozen", "attrs.define", "attr.s", "attrs.mutable",
                    "attr.attrs", "attr.frozen", "attr.define",
                    "redzone.kernel.frozen.lazy_frozen", "redzone.kernel.frozen._lazy_frozen"}


def _is_attrs(cls: griffe.Class) -> bool:
    if any(str(base).split(".")[-1] == "NamedTuple" for base in cls.bases):
        return True  # typing.NamedTuple's __new__ is written the same way
    for decorator in cls.decorators:
        value = decorator.value
        path = getattr(value, "canonical_path", None)
        if path is None and isinstance(value, griffe.ExprCall):
            path = getattr(value.function, "canonical_path", None)
        if path in ATTRS_DECORATORS:
            return True
    return False


def _field_call(value: Any) -> griffe.ExprCall | None:
    if isinstance(value, griffe.ExprCall) and str(value.function).split(".")[-1] == "field":
        return value
    return None


def _parameters(cls: griffe.Class) -> list[griffe.Parameter]:
    params: list[griffe.Parameter] = []
    for member in cls.members.values():
        if not isinstance(member, griffe.Attribute) or member.annotation is None:
            continue
        if "ClassVar" in str(member.annotation):
            continue
        default: Any = member.value
        call = _field_call(member.value)
        if call is not None:
            args = {getattr(a, "name", None): getattr(a, "value", None) for a in call.arguments}
            if str(args.get("init")) == "False":
                continue
            default = args.get("default", args.get("factory"))
            if default is None and "factory" not in args and "default" not in args:
                default = None
        params.append(griffe.Parameter(member.name, annotation=member.annotation,
                                       kind=griffe.ParameterKind.positional_or_keyword,
                                       default=default))
    # attrs needs defaults last, as Python does; a field without one after one
    # with is an attrs error, so the order is already right.
    return params


class AttrsInit(griffe.Extension):
    """Give attrs classes the ``__init__`` attrs writes, and show Sphinx
    roles in docstrings as code."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = version_added(plain_roles(obj.docstring.value))

    def on_class_members(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        if not _is_attrs(cls) or "__init__" in cls.members:
            return
        init = griffe.Function("__init__", lineno=cls.lineno, endlineno=cls.endlineno,
                               parent=cls, returns="None")
        init.parameters = griffe.Parameters(
            griffe.Parameter("self", kind=griffe.ParameterKind.positional_or_keyword),
            *_parameters(cls))
        init.labels.add("attrs")
        cls.set_member("__init__", init)
