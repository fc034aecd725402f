"""``python -m redzone``: the command line."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from redzone.frontends.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
