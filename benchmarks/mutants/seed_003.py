"""Mutants of seed 003 (Kunin et al.): the conserved delta, the preconditioner M (weight and
(beta, delta) forms), the exact solution (Omega, the eigenvector branches, the stable phi,
the primed rates, beta*), an erratum, Theorem 4.2's wide preconditioner (its mpmath SVD), the
wide and ReLU losses, the ReLU derivative convention of the sympy and torch flows, the
mpmath isotropy check and the torch data.  Format: see ``benchmarks/mutation.py``."""

_K = "solvable/kunin.py"
_TESTS = ["tests/test_kunin.py", "tests/test_kunin_systems.py", "tests/test_kunin_edges.py"]
_CLAIMS = "kunin.*"

MUTANTS = [
    dict(
        name="kunin.eigenvector_branch_sign",
        seed="003",
        backend="sympy",
        file=_K,
        old="        (sp.Matrix([kappa * Y, Omega - delta / 2]), True),",
        new="        (sp.Matrix([kappa * Y, Omega + delta / 2]), True),",
        why="the delta < 0 branch of the unstable eigenvector v_+ with the sign of delta/2 flipped",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.balance_swapped_rates",
        seed="003",
        backend="numpy",
        file=_K,
        old="    return eta_w * a**2 - eta_a * (w * w).sum(-1)",
        new="    return eta_a * a**2 - eta_w * (w * w).sum(-1)",
        why="delta = eta_a a^2 - eta_w |w|^2: the learning rates swapped in the conserved quantity",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.omega_factor",
        seed="003",
        backend="sympy",
        file=_K,
        old="    Om = sp.sqrt(delta**2 / 4 + kappa**2 * Y**2)",
        new="    Om = sp.sqrt(delta**2 / 2 + kappa**2 * Y**2)",
        why="Omega = sqrt(delta^2/2 + kappa^2 Y^2): a wrong factor in the reported rate",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.stable_phi_rate",
        seed="003",
        backend="numpy",
        file=_K,
        old="        (c_plus**2 + c_minus**2 * E**2) * t * exprel(-2 * Omega * t)",
        new="        (c_plus**2 + c_minus**2 * E**2) * t * exprel(-Omega * t)",
        why="the stable Bernoulli normaliser phi_hat with exprel(-Omega t) for exprel(-2 Omega t)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.kappa_missing_s",
        seed="003",
        backend="numpy",
        file=_K,
        old='        "kappa_of_rates": sp.sqrt((s * eta_a) * (s * eta_w)),',
        new='        "kappa_of_rates": sp.sqrt(s * eta_a * eta_w),',
        why="kappa = sqrt(s eta_a eta_w) instead of sqrt(eta_a' eta_w') = s sqrt(eta_a "
        "eta_w): wrong for non-whitened isotropic inputs (s != 1)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.beta_star_not_divided_by_s",
        seed="003",
        backend="mpmath",
        file=_K,
        old="        beta_star = X.T @ y / s",
        new="        beta_star = X.T @ y",
        why="beta* = X^T y, the whitened-data formula, for X^T X = s I with s != 1",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.weight_preconditioner_swapped_rates",
        seed="003",
        backend="numpy",
        file=_K,
        old="    return eta_w * a[..., None, None] ** 2 * eye + eta_a * w[..., :, None] * "
        "w[..., None, :]",
        new="    return eta_a * a[..., None, None] ** 2 * eye + eta_w * w[..., :, None] * "
        "w[..., None, :]",
        why="M = eta_a a^2 I + eta_w w w^T: the rates swapped in the self-consistent "
        "preconditioner",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.erratum_printed_side_corrected",
        seed="003",
        backend="sympy",
        file=_K,
        old="    printed = S.eta_a * S.eta_w * sp.sqrt(b2)",
        new="    printed = sp.sqrt(S.eta_a * S.eta_w) * sp.sqrt(b2)",
        why="a broken erratum: the 'printed' side of regime 2 typed with the corrected "
        "square root, so the erratum no longer shows the poster wrong",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.wide_preconditioner_lambda_1_left",
        seed="003",
        backend="numpy",
        file=_K,
        old="        f_left = functools.partial(lam2, delta, eta_a, eta_w)",
        new="        f_left = functools.partial(lam1, delta, eta_a, eta_w)",
        why="Theorem 4.2's left (d x d) preconditioner as lambda_1(beta beta^T) instead of "
        "lambda_2(beta beta^T)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.mpmath_svd_v_transposed",
        seed="003",
        backend="mpmath",
        file=_K,
        old="        V = np.array([[Vm[j, i] for j in range(c)] for i in range(c)], dtype=object)",
        new="        V = np.array([[Vm[i, j] for j in range(c)] for i in range(c)], dtype=object)",
        why="mpmath.svd_r returns V^T: taking it for V (mpmath path of Theorem 4.2 only)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.mpmath_isotropy_at_float64",
        seed="003",
        backend="mpmath",
        file=_K,
        old="    :func:`closed_form`), else ``ValueError`` pointing to "
        '``numerics.simulate``."""\n    unit = 2.0**-52 if dps is None else 10.0 ** (-dps)',
        new="    :func:`closed_form`), else ``ValueError`` pointing to "
        '``numerics.simulate``."""\n    unit = 2.0**-52',
        why="the isotropy condition X^T X = s I checked at float64 resolution at every "
        "precision: nearly isotropic data accepted for a 30-digit exact solution",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.wide_loss_missing_half",
        seed="003",
        backend="numpy",
        file=_K,
        old="    return ((wide_output(A, W, X) - Y) ** 2).sum((-1, -2)) / 2",
        new="    return ((wide_output(A, W, X) - Y) ** 2).sum((-1, -2))",
        why="the wide linear net's loss without its 1/2 (the flow runs twice as fast)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.relu_derivative_half_at_zero",
        seed="003",
        backend="scipy",
        file=_K,
        old='        sigma = elementwise("relu", "sympy")',
        new="        sigma = lambda z: np.vectorize(lambda v: sp.Max(0, v))(z)  # noqa: E731",
        why="the sympy ReLU flow built on max(0, z), whose sympy derivative is Heaviside(z) "
        "= 1/2 at 0, instead of the package's sigma'(0) = 0: a neuron on its kink receives "
        "half a gradient",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.torch_data_float32",
        seed="003",
        backend="torch",
        file=_K,
        old="    return (torch.as_tensor(X, dtype=like.dtype, device=like.device),",
        new="    return (torch.as_tensor(X, dtype=torch.float32, device=like.device)"
        ".to(like.dtype),",
        why="the inputs X rounded to float32 on their way to the device (torch path only)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
]
