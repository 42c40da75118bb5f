"""``python -m solvable``: the ``solvable`` command line
(:func:`solvable.verification.cli.main`)."""

import sys

from solvable.verification.cli import main

if __name__ == "__main__":
    sys.exit(main())
