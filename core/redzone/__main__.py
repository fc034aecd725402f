"""``python -m redzone``: the command line."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (:func:`redzone.frontends.cli.main`); returns the
    exit status.

    :param argv: the arguments after the program name (default: ``sys.argv[1:]``).
    """
    from redzone.frontends.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
