"""``python -m redzone``: the command line."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    ``run --json FILE`` runs without importing the command-line toolkit
    (:mod:`redzone.frontends.fast`), with the same output and exit status;
    everything else goes to :func:`redzone.frontends.cli.main`.

    :param argv: the arguments after the program name (default: ``sys.argv[1:]``).
    """
    from redzone.frontends import fast

    path = fast.run_json_file(sys.argv[1:] if argv is None else list(argv))
    if path is not None:
        return fast.run_json(path)
    from redzone.frontends.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
