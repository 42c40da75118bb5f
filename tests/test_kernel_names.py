"""Seed 002's kernel names match the field's (issue 30, item 4): ``"nngp"`` is K_GP (2.4),
``"rf"`` K_RF, ``"ntk_first_layer"`` the lecture's K_NTK (2.31) and ``"ntk"`` K_0 = K_RF +
K_NTK (2.30), neural-tangents' ``ntk``.  The old ``"gp"`` and ``"k0"`` are refused by every
entry point that takes a kernel name, naming the argument and what the name became; the old
``"ntk"`` (reused) is caught by the oracle's hint instead."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics import kernel_sampling as ks
from solvable import kernels as kn
from solvable import testing
from solvable.models.kernels.proofs import _polar_kernels

_X = np.random.default_rng(3).standard_normal((5, 3))
_INIT = kn.Initialisation(2, "0.5")  # E[a^2] != 1, s^2 != 1: no two kernels coincide


def _torch():
    return pytest.importorskip("torch")


# every public entry point that takes a kernel name: (the argument it names, the call)
_ENTRIES = {
    "kernel": ("name", lambda k: kn.kernel(k)),
    "kernel_theta": ("name", lambda k: kn.kernel_theta(k)),
    "kernel_of_vectors": ("name", lambda k: kn.kernel_of_vectors(k, None, [1, 0], [1, 1])),
    "kernel_of_vectors at 0": ("name", lambda k: kn.kernel_of_vectors(k, None, [0, 0], [1, 1])),
    "kernel_numeric": ("name", lambda k: kn.kernel_numeric(k, _INIT, 1.0, 1.0, 0.5)),
    "kernel_numeric dps": ("name", lambda k: kn.kernel_numeric(k, _INIT, 1.0, 1.0, 0.5, dps=20)),
    "kernel_torch": ("name", lambda k: kn.kernel_torch(k, _INIT, 1.0, 1.0, 0.5)),
    "gram": ("name", lambda k: kn.gram(k, _INIT, _X)),
    "gram_torch": ("name", lambda k: kn.gram_torch(k, _INIT, _X)),
    "testing.kernel": ("name", lambda k: testing.kernel(k, _INIT, _X)),
    "empirical_kernels(kernels=name)": (
        "kernels",
        lambda k: ks.empirical_kernels(_INIT, _X, 4, 2, kernels=k),
    ),
    "empirical_kernels(kernels=[..., name])": (
        r"kernels\[1\]",
        lambda k: ks.empirical_kernels(_INIT, _X, 4, 2, kernels=["rf", k]),
    ),
    "empirical_kernels(kernels=(name,))": (
        r"kernels\[0\]",
        lambda k: ks.empirical_kernels(_INIT, _X, 4, 2, kernels=(k,)),
    ),
    "width_convergence": (
        "kernel",
        lambda k: ks.width_convergence(_INIT, _X, [4, 8], replicates=2, batch=2, kernel=k),
    ),
}
_BECAME = {"gp": ["'nngp'"], "k0": ["'ntk'", "'ntk_first_layer'"]}


def test_renamed_is_the_one_map_and_the_old_names_are_gone():
    assert kn.KERNELS == ("nngp", "rf", "ntk_first_layer", "ntk")
    assert set(kn.RENAMED) == {"gp", "k0"}
    assert not set(kn.RENAMED) & set(kn.KERNELS)
    for old, became in _BECAME.items():
        assert all(name in kn.RENAMED[old] for name in became)


@pytest.mark.parametrize("old", sorted(_BECAME))
@pytest.mark.parametrize("entry", sorted(_ENTRIES))
def test_every_entry_point_refuses_an_old_name_and_says_what_it_became(entry, old):
    argument, call = _ENTRIES[entry]
    if "torch" in entry or "empirical" in entry or entry == "width_convergence":
        _torch()
    with pytest.raises(ValueError, match=rf"^{argument} '{old}' was renamed: ") as info:
        call(old)
    message = str(info.value)
    assert kn.RENAMED[old] in message
    assert all(name in message for name in _BECAME[old])
    assert str(kn.KERNELS) in message  # the valid names


@pytest.mark.parametrize("entry", sorted(_ENTRIES))
def test_an_unknown_name_still_lists_the_valid_names(entry):
    argument, call = _ENTRIES[entry]
    if "torch" in entry or "empirical" in entry or entry == "width_convergence":
        _torch()
    with pytest.raises(ValueError, match=rf"^{argument} must be one of") as info:
        call("NTK")
    assert str(kn.KERNELS) in str(info.value) and "renamed" not in str(info.value)


def test_ntk_is_rf_plus_the_first_layer_part_and_nngp_is_e_a2_rf():
    # symbolic, generic moments
    assert sp.simplify(kn.kernel("ntk") - kn.kernel("rf") - kn.kernel("ntk_first_layer")) == 0
    assert sp.simplify(kn.kernel("nngp") - kn.A2 * kn.kernel("rf")) == 0
    # float64 Gram matrices and float64 / mpmath kernel_numeric
    rf, first = kn.gram("rf", _INIT, _X), kn.gram("ntk_first_layer", _INIT, _X)
    np.testing.assert_allclose(kn.gram("ntk", _INIT, _X), rf + first, rtol=1e-13, atol=1e-15)
    m2 = float(_INIT.a_second_moment)
    np.testing.assert_allclose(kn.gram("nngp", _INIT, _X), m2 * rf, rtol=1e-13, atol=1e-15)
    for rho in ("-1", "-0.3", "0", "0.7", "1"):
        with mpmath.workdps(30):  # mpf in, mpf out at the caller's precision
            parts = [kn.kernel_numeric(k, _INIT, mpmath.mpf("1.5"), mpmath.mpf("0.5"),
                                       mpmath.mpf(rho), dps=30)
                     for k in ("ntk", "rf", "ntk_first_layer")]  # fmt: skip
            assert abs(parts[0] - parts[1] - parts[2]) <= mpmath.mpf("1e-28")


def test_each_name_is_the_definition_it_names():
    """Each closed form against its definition integrated in polar coordinates from the
    package's network (claim ``closed_forms_from_definitions``): ``"nngp"`` the output
    covariance ``f(x) f(x')``, ``"rf"`` the ``a`` block, ``"ntk_first_layer"`` the ``w``
    block, ``"ntk"`` both blocks."""
    polar = _polar_kernels()
    assert set(polar) == set(kn.KERNELS)
    for k in kn.KERNELS:
        assert sp.simplify(polar[k] - kn.kernel_theta(k)) == 0, k
    assert sp.simplify(polar["ntk"] - polar["rf"] - polar["ntk_first_layer"]) == 0


def test_the_empirical_kernels_carry_the_new_names():
    _torch()
    emp = ks.empirical_kernels(_INIT, _X, 8, 3, seed=5)
    assert tuple(emp) == kn.KERNELS
    np.testing.assert_allclose(emp["ntk"], emp["rf"] + emp["ntk_first_layer"], rtol=1e-13,
                               atol=1e-14)  # fmt: skip


@pytest.mark.parametrize("samples", [False, True])
def test_the_lectures_first_layer_kernel_passed_as_ntk_is_hinted_ntk_first_layer(samples):
    """A user who computes the lecture's K_NTK (the first layer's part, (2.31)) and checks it
    under the name "ntk" (now the NTK of both layers) is told which kernel the matrix is."""
    K = kn.gram("ntk_first_layer", _INIT, _X)
    oracle = testing.kernel("ntk", _INIT, _X)
    with pytest.raises(AssertionError) as info:
        oracle.check_samples(np.stack([K, K])) if samples else oracle.check(K)
    message = str(info.value)
    assert message.startswith("kernel 'ntk' (Loureiro 2025, eq. (2.30))")
    assert "hint: it matches kernel 'ntk_first_layer' (eq. (2.31), the lecture's K_NTK" in message
    assert "instead: 'ntk' is K_0 = K_RF + K_NTK" in message
    # and the right name passes
    testing.kernel("ntk_first_layer", _INIT, _X).check(K)


def test_the_docs_relation_to_neural_tangents_ntk():
    """docs/getting_started.md, *Kernel names*: with ``sigma_w^2 = d s^2``, ``sigma_a^2 =
    E[a^2]``, neural-tangents' NTK-parameterised ``ntk`` is ``K_GP + s^2 K_NTK``: the package's
    ``"ntk"`` exactly at ``E[a^2] = s^2 = 1`` (Exercise 1), ``c K_0`` at ``E[a^2] = s^2 = c``,
    not ``K_0`` under (2.28), and ``K_0(Initialisation(1, 1)) / d`` for ``W_std = 1``."""
    d = _X.shape[1]

    def nt_ntk(init):
        s2 = float(init.w_variance)
        return kn.gram("nngp", init, _X) + s2 * kn.gram("ntk_first_layer", init, _X)

    exercise = kn.exercise_initialisation()
    np.testing.assert_allclose(nt_ntk(exercise), kn.gram("ntk", exercise, _X), rtol=1e-13)
    same = kn.Initialisation("0.5", "0.5")
    np.testing.assert_allclose(nt_ntk(same), 0.5 * kn.gram("ntk", same, _X), rtol=1e-13)
    lecture = kn.lecture_initialisation(d)
    gap = np.max(np.abs(nt_ntk(lecture) - kn.gram("ntk", lecture, _X)))
    assert gap > 0.1 * np.max(np.abs(kn.gram("ntk", lecture, _X)))
    unit_std = kn.Initialisation(1, sp.Rational(1, d))
    np.testing.assert_allclose(nt_ntk(unit_std), kn.gram("ntk", kn.Initialisation(1, 1), _X) / d,
                               rtol=1e-13)  # fmt: skip
