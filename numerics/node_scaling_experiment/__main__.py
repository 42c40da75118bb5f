"""``python -m numerics.node_scaling_experiment``: runs
:func:`numerics.node_scaling_experiment.cli.main`.
"""

from __future__ import annotations

import sys

from numerics.node_scaling_experiment.cli import _cli

if __name__ == "__main__":  # pragma: no cover
    sys.exit(_cli())
