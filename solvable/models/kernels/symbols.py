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

KERNELS = ("nngp", "rf", "ntk_first_layer", "ntk")
"""Kernel names, as the field (neural-tangents) uses them:

* ``"nngp"``: ``K_GP`` (2.4), ``E[a^2 relu(<w,x>) relu(<w,x'>)] = E[a^2] K_RF``, the output
  covariance at initialisation (neural-tangents' ``nngp``);
* ``"rf"``: ``K_RF`` (2.31), ``E_w[relu(<w,x>) relu(<w,x'>)]``, the random-features kernel
  (the gradient in the output weights ``a``: the second layer's part of the NTK);
* ``"ntk_first_layer"``: the lecture's ``K_NTK`` (2.31), ``<x,x'> E[a^2 relu'(<w,x>)
  relu'(<w,x'>)]`` (the gradient in the first layer's ``w``: that layer's part only);
* ``"ntk"``: ``K_0 = K_RF + K_NTK`` (2.30), the tangent kernel of both layers (what
  neural-tangents calls ``ntk``; equal to its value only under the conditions of
  the documentation's *Getting started* page, *Kernel names*).

The names before issue 30 (``"gp"``, ``"k0"``) are refused (:data:`RENAMED`); ``"ntk"``
was the first-layer part and is now the full kernel."""

RENAMED = {
    "gp": "K_GP (eq. (2.4), E[a^2] K_RF, the output covariance at initialisation) is now 'nngp'",
    "k0": "the full NTK (K_RF + K_NTK, eq. (2.30)) is now 'ntk'; the lecture's first-layer "
    "part K_NTK (eq. (2.31)) is 'ntk_first_layer'",
}
"""The kernel names that were renamed (issue 30), each with what it became: refused with
this message by every function that takes a kernel name (:func:`check_kernel_name`)."""


def check_kernel_name(argument: str, value: object) -> str:
    """``value`` if it is one of :data:`KERNELS`; else a ``ValueError`` naming ``argument``,
    the valid names and, for an old name (:data:`RENAMED`), what it became."""
    if isinstance(value, str) and value in KERNELS:
        return value
    if isinstance(value, str) and value in RENAMED:
        raise ValueError(f"{argument} {value!r} was renamed: {RENAMED[value]} (valid names: "
                         f"{KERNELS})")  # fmt: skip
    raise ValueError(f"{argument} must be one of {KERNELS}, got {value!r}")


A_LAWS = ("uniform", "rademacher", "gaussian")
"""Laws of the output weights a (for sampling; the kernels only need ``E[a^2]``)."""
