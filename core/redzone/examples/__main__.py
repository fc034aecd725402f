"""``python -m redzone.examples``: regenerate or check the golden outcomes."""

from __future__ import annotations

import sys

from redzone.examples import main

if __name__ == "__main__":
    sys.exit(main())
