"""Text on a terminal: what the command line prints goes through here.

Names, ids, keyword texts, notes and messages come from scenario files, card
files and plugins, and a terminal obeys what it is sent: an escape sequence
in a name could set the window title or clear the screen, a carriage return
or backspace write over what was printed, a right-to-left override reverse
the rest of the line. So every text is passed through
:func:`redzone.kernel.display.visible` on its way out, which writes such
characters as visible escapes (``\\x1b``, ``\\u202e``) and leaves ordinary
text (accents, CJK, emoji) as it is:

- :class:`Console` (made by :func:`console`) escapes
  every string it is given and, as a last net, every segment it writes
  (rich's own colour codes are added after, so they stay); it reads no rich
  markup, so ``[bold]`` in a name is text;
- :class:`Text`, the rich text the front ends build lines of, escapes what it
  is made of before rich sees it (rich alone would silently drop bell,
  backspace and carriage return, and break the line at a line feed);
- :func:`echo` is ``click.echo`` for plain lines (lists, messages).

JSON output needs none of this: JSON escapes control characters, and
:func:`redzone.kernel.display.json_visible` the other hidden ones.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable
from typing import Any

import click
from rich.console import Console as RichConsole
from rich.console import ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text as RichText

from redzone.kernel.display import visible


class Text(RichText):
    """A rich :class:`~rich.text.Text` whose contents are :func:`visible`:
    one name or message per piece, so a line feed in it is escaped too."""

    def __init__(self, text: str = "", *args: Any, **kwargs: Any) -> None:
        super().__init__(visible(text), *args, **kwargs)

    def append(self, text: str | RichText, style: str | Style | None = None) -> Text:
        """Append a piece (a string is made :func:`visible` first)."""
        super().append(visible(text) if isinstance(text, str) else text, style)
        return self


class Console(RichConsole):
    """A rich console that writes nothing hidden: strings are made
    :func:`visible` before they become text (no markup is read), and every
    segment written is made visible again (line feeds kept), whatever
    renderable it came from."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["markup"] = False
        super().__init__(*args, **kwargs)

    def render_str(self, text: str, **kwargs: Any) -> RichText:
        """A string as text, made :func:`visible` (lines kept)."""
        kwargs["markup"] = False
        return super().render_str(visible(text, newlines=True), **kwargs)

    def render(self, renderable: RenderableType,
               options: ConsoleOptions | None = None) -> Iterable[Segment]:
        """The segments of ``renderable``, their text made :func:`visible`
        (rich's control segments, such as cursor moves, are its own)."""
        for segment in super().render(renderable, options):
            if segment.control is None and segment.text:
                shown = visible(segment.text, newlines=True)
                if shown != segment.text:
                    segment = Segment(shown, segment.style)
            yield segment

    def on_broken_pipe(self) -> None:
        """The reader went away (``redzone run x | head -1``): print nothing
        more and raise :exc:`BrokenPipeError` for the command to stop
        quietly with its own exit status, where rich would exit with status
        1, which the command line keeps for an illegal declaration.

        :raises BrokenPipeError: always.
        """
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def console(color: bool | None, *, stderr: bool = False) -> Console:
    """A console: colour on a terminal (or with ``--color``), plain text when
    piped, with ``--no-color`` or when ``NO_COLOR`` is set (``--color`` wins
    over ``NO_COLOR``); it prints nothing hidden (:class:`Console`).

    :param color: ``--color`` (``True``), ``--no-color`` (``False``) or neither.
    :param stderr: write to standard error instead of standard output.
    """
    return Console(
        file=sys.stderr if stderr else sys.stdout,
        force_terminal=True if color else None,
        color_system=None if color is False else ("standard" if color else "auto"),
        no_color=False if color else None,
        highlight=False,
        emoji=False,
    )


def echo(message: str = "", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` of :func:`visible` text (lines kept).

    :param message: the text.
    :param err: write to standard error.
    :param nl: end with a line feed.
    """
    click.echo(visible(message, newlines=True), err=err, nl=nl)


__all__ = ["Console", "Text", "console", "echo"]
