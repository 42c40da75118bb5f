"""The verification layer: what compares the models with the raw flows of :mod:`numerics`
and reports on it.

* :mod:`~solvable.verification.theorems`, :mod:`~solvable.verification.errata`: the registry
  of claims and the errata, built from :data:`solvable.MODELS`;
* :mod:`~solvable.verification.confirmations`: simulation-backed claims, one module per model;
* :mod:`~solvable.verification.verify_runner`, :mod:`~solvable.verification.proof_cache`:
  running the registry (``solvable verify``) and the authenticated cache of proofs;
* :mod:`~solvable.verification.figures`: the papers' figures, reproduced;
* :mod:`~solvable.verification.cli`: the ``solvable`` command;
* :mod:`~solvable.verification.testing`, :mod:`~solvable.verification.pytest_plugin`: the
  pytest oracle and its fixtures.

Each is also reachable by its short path (``solvable.theorems``, ``solvable.testing``, ...).
"""
