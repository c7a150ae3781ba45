"""``python -m rules``: the JSON command-line adjudicator (see ``docs/rules-json.md``)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
