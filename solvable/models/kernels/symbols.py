"""Seed 002 (B. Loureiro, "Mathematics of Deep Learning, Lecture 3: Neural networks close
to initialisation"), Sections 2.1 and 2.3: the symbols of the kernels (the cosine ``rho``,
the angle ``theta``, the norms ``|x|``, ``|x'|``, the moments ``E[a^2]``, ``s^2``, the
dimension ``d``) and the names of the kernels and of the output-weight laws."""

from __future__ import annotations

import sympy as sp

SEED = "002_938675732d5dff93.txt"

RHO = sp.Symbol("rho", real=True)
"""Correlation ``cos(theta)`` of the two pre-activations, in ``[-1, 1]``."""
THETA = sp.Symbol("theta", nonnegative=True)
"""Angle between ``x`` and ``x'``, in ``[0, pi]``."""
N1 = sp.Symbol("n1", positive=True)
"""``|x|`` (the closed forms extend by 0 to ``|x| = 0``, see :func:`kernel`)."""
N2 = sp.Symbol("n2", positive=True)
"""``|x'|``."""
A2 = sp.Symbol("E_a2", positive=True)
"""Second moment ``E[a^2]`` of the output weights (generic initialisation)."""
S2 = sp.Symbol("s2", positive=True)
"""Variance ``s^2`` of each entry of ``w ~ N(0, s^2 I_d)`` (generic initialisation)."""
D = sp.Symbol("d", positive=True, integer=True)
"""The input dimension ``d``."""

KERNELS = ("gp", "rf", "ntk", "k0")
"""Kernel names: ``gp`` (2.4), ``rf`` and ``ntk`` (2.31), ``k0 = rf + ntk`` (2.30)."""
A_LAWS = ("uniform", "rademacher", "gaussian")
"""Laws of the output weights a (for sampling; the kernels only need ``E[a^2]``)."""
