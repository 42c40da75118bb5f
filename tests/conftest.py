"""Shared pytest configuration: hypothesis profiles.

``default``: 60 examples per property (the suite stays well under 10 minutes on
2 cores), derandomized: the same examples on every run, so the default suite (and CI) is
reproducible and a landing is never decided by a random draw; exploring is the job of
``thorough`` (``--hypothesis-profile=thorough``, used with ``-m slow`` runs: 1000 random
examples) and of the explicit ``slow`` property tests (5000-10^4 random examples), which found
every edge failure so far.

``SOLVABLE_CACHE_DIR`` and ``SOLVABLE_CONFIG_DIR``: ``solvable verify``'s proof cache and
the secret that authenticates its entries (``solvable.verification.proof_cache``) point at a fresh
temporary directory for the whole session (mode 0700, from ``mkdtemp``), so no test reads a
cache it did not write, nor the user's secret.
"""

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings
from slow_by_cost import SLOW_BY_COST, stale

_CACHE = tempfile.mkdtemp(prefix="solvable-test-cache-")
os.environ["SOLVABLE_CACHE_DIR"] = os.path.join(_CACHE, "cache")
os.environ["SOLVABLE_CONFIG_DIR"] = os.path.join(_CACHE, "config")
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

settings.register_profile(
    "default",
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


@pytest.hookimpl(tryfirst=True)  # before the ``-m`` deselection reads the markers
def pytest_collection_modifyitems(config, items):
    """Mark the tests of ``slow_by_cost.SLOW_BY_COST`` ``slow``; refuse a stale entry when
    whole files were collected (a run of chosen node ids collects only those)."""
    ids = [item.nodeid for item in items]
    if not any("::" in str(arg) for arg in config.args):
        gone = stale(SLOW_BY_COST, ids)
        if gone:
            raise pytest.UsageError(f"tests/slow_by_cost.py names tests that are not "
                                    f"collected (renamed or removed?): {gone}")  # fmt: skip
    for item in items:
        if item.nodeid in SLOW_BY_COST:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def fusable_verdicts(monkeypatch):
    """The per-time verdicts of ``linear_node_scaling.Trajectory._fusable`` (whether the
    fused assembly of W is taken), one bool array per call, recorded by a spy."""
    # imported here: this file sets solvable's cache directories before solvable loads
    from solvable.models import linear_node_scaling as lns

    seen = []
    fusable = lns.Trajectory._fusable

    def spy(self, *args):
        ok = fusable(self, *args)
        seen.append(ok)
        return ok

    monkeypatch.setattr(lns.Trajectory, "_fusable", spy)
    return seen
