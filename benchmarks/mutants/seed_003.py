"""Mutants of seed 003 (Kunin et al.): the conserved delta, the preconditioner M (weight and
(beta, delta) forms), the exact solution (Omega, the eigenvector branches, the stable phi,
the primed rates, beta*), an erratum, Theorem 4.2's wide preconditioner (its mpmath SVD), the
wide and ReLU losses, the ReLU derivative convention of the sympy and torch flows, the
mpmath isotropy check and the torch data.  Format: see ``benchmarks/mutation.py``."""

_K = "solvable/models/kunin/"
_TESTS = ["tests/test_kunin.py", "tests/test_kunin_systems.py", "tests/test_kunin_edges.py"]
_CLAIMS = "kunin.*"

MUTANTS = [
    dict(
        name="kunin.eigenvector_branch_sign",
        seed="003",
        backend="sympy",
        file=_K + "expressions.py",
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
        file=_K + "losses.py",
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
        file=_K + "expressions.py",
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
        file=_K + "expressions.py",
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
        file=_K + "expressions.py",
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
        file=_K + "single_neuron.py",
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
        file=_K + "losses.py",
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
        file=_K + "proofs.py",
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
        file=_K + "preconditioners.py",
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
        file=_K + "preconditioners.py",
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
        file=_K + "isotropic_data.py",
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
        file=_K + "losses.py",
        old="    return ((_wide_output(A, W, X) - Y) ** 2).sum((-1, -2)) / 2",
        new="    return ((_wide_output(A, W, X) - Y) ** 2).sum((-1, -2))",
        why="the wide linear net's loss without its 1/2 (the flow runs twice as fast)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
    dict(
        name="kunin.relu_derivative_half_at_zero",
        seed="003",
        backend="scipy",
        file=_K + "flows.py",
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
        file=_K + "systems.py",
        old="    return (torch.as_tensor(X, dtype=like.dtype, device=like.device),",
        new="    return (torch.as_tensor(X, dtype=torch.float32, device=like.device)"
        ".to(like.dtype),",
        why="the inputs X rounded to float32 on their way to the device (torch path only)",
        tests=_TESTS,
        claims=_CLAIMS,
    ),
]

# --- issue 15: the new code of seed 003 (exact wide net, mirror flow, delayed rich, alpha
# scaling, piecewise-linear networks) ------------------------------------------------------
_WIDE_TESTS = ["tests/test_kunin_wide.py"]
_WIDE_CLAIMS = "kunin.wide_*"
_MF, _MF_TESTS, _MF_CLAIMS = (
    "solvable/models/mirror_flow.py",
    ["tests/test_mirror_flow.py"],
    "mirror_flow.*",
)
_DR, _DR_TESTS, _DR_CLAIMS = (
    "solvable/models/delayed_rich.py",
    ["tests/test_delayed_rich.py"],
    "delayed_rich.*",
)
_AL, _AL_TESTS, _AL_CLAIMS = (
    "numerics/alpha_scaling.py",
    ["tests/test_alpha_scaling.py"],
    "kunin.alpha_scaling",
)

MUTANTS += [
    dict(
        name="kunin.wide_generator_w_block_sign",
        seed="003",
        backend="sympy",
        file=_K + "reduction.py",
        old="[kappa * B[i, j] for j in range(c)] + [-delta_p / 2 if i == j else zero "
        "for j in range(d)]",
        new="[kappa * B[i, j] for j in range(c)] + [delta_p / 2 if i == j else zero "
        "for j in range(d)]",
        why="K = [[delta'/2 I, kappa B*^T], [kappa B*, +delta'/2 I]]: the sign of the W "
        "block of the wide generator dropped",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.wide_ntk_swapped_rates",
        seed="003",
        backend="numpy",
        file=_K + "reduction.py",
        old="    return (eta_a * xwx[..., :, None, :, None] * eye[None, :, None, :]\n"
        "            + eta_w * xx[:, None, :, None] * gram_A[..., None, :, None, :])",
        new="    return (eta_w * xwx[..., :, None, :, None] * eye[None, :, None, :]\n"
        "            + eta_a * xx[:, None, :, None] * gram_A[..., None, :, None, :])",
        why="the wide NTK with the rates swapped: eta_w x^T W^T W x' I + eta_a (A^T A) x^T x'",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.riccati_factor_missing_kappa",
        seed="003",
        backend="numpy",
        file=_K + "reduction.py",
        old="    return np.concatenate([eZ, eH, kappa * _diag(r_plus)], axis=-1)",
        new="    return np.concatenate([eZ, eH, _diag(r_plus)], axis=-1)",
        why="the stable form's factor L = [e_+ Z, kappa e_+ H r_-, r_+]: kappa dropped from "
        "the + block, so L L^T is not core (wrong at every t past the textbook switch)",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.riccati_direct_kappa_not_squared",
        seed="003",
        backend="numpy",
        file=_K + "reduction.py",
        old="    return C * lam[..., None, :], eye + kappa**2 * (Cr @ Cr.swapaxes(-1, -2))",
        new="    return C * lam[..., None, :], eye + kappa * (Cr @ Cr.swapaxes(-1, -2))",
        why="the textbook form N = I + kappa C diag(r^2) C^T (kappa for kappa^2), used at "
        "small t only",
        tests=_WIDE_TESTS,
        # the oracle first: kunin.wide_stable_form fails too, but takes ~170 s (sympy cancels
        # against a mismatched N^-1), past the hinted stage's share of the budget
        claims=["kunin.wide_closed_form_oracle", _WIDE_CLAIMS],
    ),
    dict(
        name="kunin.wide_eigenbasis_null_rate_sign",
        seed="003",
        backend="numpy",
        file=_K + "wide.py",
        old="            w_null.append((-delta_p / 2, np.concatenate([zc, U[:, i]])))",
        new="            w_null.append((delta_p / 2, np.concatenate([zc, U[:, i]])))",
        why="the modes [0; u] off the range of B* (d > c) given the rate +delta'/2 instead "
        "of -delta'/2 (a wrong rate in the eigenbasis of K)",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.wide_eigenbasis_stable_vector_sign",
        seed="003",
        backend="numpy",
        file=_K + "wide.py",
        old="            minus.append((-Om, np.concatenate([-vy * V[:, i], vx * U[:, i]])))",
        new="            minus.append((-Om, np.concatenate([vy * V[:, i], vx * U[:, i]])))",
        why="the stable eigenvector of a singular plane as (v_y, v_x) instead of (-v_y, v_x): "
        "not orthogonal to v_+, R no longer orthogonal",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.wide_start_delta_sign",
        seed="003",
        backend="mpmath",
        file=_K + "wide.py",
        old="            target = (ew * G * G.T - dl * mpmath.eye(h)) / ea",
        new="            target = (ew * G * G.T + dl * mpmath.eye(h)) / ea",
        why="wide_start from A: W W^T = (eta_w A A^T + delta I)/eta_a, the sign of delta "
        "flipped (the start has Delta = -delta I)",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.wide_switch_at_condition_squared",
        seed="003",
        backend="numpy",
        file=_K + "wide.py",
        old='            direct = not inf and 2 * max(k["rates"]) * ti <= math.log(self.condition)',
        new='            direct = not inf and max(k["rates"]) * ti <= math.log(self.condition)',
        why="the textbook/stable switch at e^{2 k_max t} = condition^2 instead of condition "
        "(the choice the riccati_direct docstring measured as losing 2.2 tolerances)",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.wide_h1_row_sign_dropped",
        seed="003",
        backend="numpy",
        file=_K + "wide.py",
        old='np.concatenate([np.array([1 + 0 * scale]), M[0]]) * (k["sign"] * scale)',
        new="np.concatenate([np.array([1 + 0 * scale]), M[0]]) * scale",
        why="h = 1: Q = core^{-1/2} [1, M] R^T without sign(c_+): A and W flipped for a "
        "start with c_+ < 0 (beta, P unchanged)",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="kunin.wide_primed_rates_swapped",
        seed="003",
        backend="numpy",
        file=_K + "wide.py",
        old='"mpmath")["primed"](\n            eta_a, eta_w, s_int, delta)',
        new='"mpmath")["primed"](\n            eta_w, eta_a, s_int, delta)',
        why="wide_closed_form's primed constants with eta_a and eta_w swapped: Q0 = [A / "
        "sqrt(eta_w'), W / sqrt(eta_a')] (kappa and delta' unchanged)",
        tests=_WIDE_TESTS,
        claims=_WIDE_CLAIMS,
    ),
    dict(
        name="mirror_flow.phi_log_missing_2",
        seed="003",
        backend="sympy",
        file=_MF,
        old="(s / k * sp.log((k * s + m) / (2 * k)) - s**2 / (m + D), True)",
        new="(s / k * sp.log((k * s + m) / k) - s**2 / (m + D), True)",
        why="the potential phi with log((k s + m)/k) for log((k s + m)/(2k)): off by (s/k) "
        "log 2 (phi' no longer its derivative, the balanced form wrong)",
        tests=_MF_TESTS,
        claims=_MF_CLAIMS,
    ),
    dict(
        name="mirror_flow.dphi_origin_sign",
        seed="003",
        backend="numpy",
        file=_MF,
        old='"dphi": sp.Piecewise((-sp.oo, at_origin),',
        new='"dphi": sp.Piecewise((sp.oo, at_origin),',
        why="phi'(0) at delta = 0 as +inf instead of the limit -inf of log(s)/k",
        tests=_MF_TESTS,
        claims=_MF_CLAIMS,
    ),
    dict(
        name="mirror_flow.m_beta_k_not_squared",
        seed="003",
        backend="mpmath",
        file=_MF,
        old='"m_beta": sp.sqrt(delta**2 + k**2 * beta**2),',
        new='"m_beta": sp.sqrt(delta**2 + k * beta**2),',
        why="the metric m(beta) = sqrt(delta^2 + k beta^2) (k for k^2)",
        tests=_MF_TESTS,
        claims=_MF_CLAIMS,
    ),
    dict(
        name="mirror_flow.bregman_deltas_swapped_rates",
        seed="003",
        backend="mpmath",
        file=_MF,
        old="        deltas = diagonal_balance(a, w, ea, ew)",
        new="        deltas = diagonal_balance(a, w, ew, ea)",
        why="bregman_interpolant's delta_j = eta_a a_j^2 - eta_w w_j^2 (rates swapped): the "
        "potential of the wrong delta",
        tests=_MF_TESTS,
        claims=_MF_CLAIMS,
    ),
    dict(
        name="delayed_rich.plateau_time_D_not_halved",
        seed="003",
        backend="mpmath",
        file=_DR,
        old="    T_p_form = (omega + D / 2) / ky2",
        new="    T_p_form = (omega + D) / ky2",
        why="T_p = (Omega + D)/(kappa^2 Y^2) for (Omega + D/2)/(kappa^2 Y^2): a wrong factor",
        tests=_DR_TESTS,
        claims=_DR_CLAIMS,
    ),
    dict(
        name="delayed_rich.theta_half_parenthesis",
        seed="003",
        backend="mpmath",
        file=_DR,
        old="    theta_half = theta0 - sp.asin(sp.sin(theta0) / 2)",
        new="    theta_half = theta0 - sp.asin(sp.sin(theta0)) / 2",
        why="theta_half = theta0 - asin(sin(theta0))/2 = theta0/2: the halving moved outside "
        "asin (the leading-order T_half wrong)",
        tests=_DR_TESTS,
        claims=_DR_CLAIMS,
    ),
    dict(
        name="delayed_rich.profile_missing_sqrt2",
        seed="003",
        backend="numpy",
        file=_DR,
        old='        "profile": sp.sqrt(2) * sp.sin(theta0 - theta_tau),',
        new='        "profile": sp.sin(theta0 - theta_tau),',
        why="the NTK profile g(tau) without its amplitude sqrt(2) (|u u^T - u0 u0^T|_F = "
        "sqrt(2) |sin|)",
        tests=_DR_TESTS,
        claims=_DR_CLAIMS,
    ),
    dict(
        name="delayed_rich.ntk_change_total_without_start",
        seed="003",
        backend="numpy",
        file=_DR,
        old="    scale = _frobenius(K0 if end is None else ntk(end) - K0)",
        new="    scale = _frobenius(K0 if end is None else ntk(end))",
        why="the fraction of the NTK change divided by |K(oo)| instead of |K(oo) - K(0)| "
        "(a dropped term): T_half is no longer the half-way time",
        tests=_DR_TESTS,
        claims=_DR_CLAIMS,
    ),
    dict(
        name="alpha_scaling.first_layer_times_alpha",
        seed="003",
        backend="torch",
        file=_AL,
        old="    W = torch.cat([W, W], 1) / alpha",
        new="    W = torch.cat([W, W], 1) * alpha",
        why="Part III's initialisation W * alpha instead of W / alpha: up- and downstream swapped",
        tests=_AL_TESTS,
        claims=_AL_CLAIMS,
    ),
    dict(
        name="alpha_scaling.kernel_distance_missing_half",
        seed="003",
        backend="torch",
        file=_AL,
        old="    return ((units[0] - units[1]) ** 2).sum((-2, -1)) / 2",
        new="    return ((units[0] - units[1]) ** 2).sum((-2, -1))",
        why="the kernel distance |K0/|K0| - K/|K||^2 without the 1/2: twice Fort et al.'s 1 - cos",
        tests=_AL_TESTS,
        claims=_AL_CLAIMS,
    ),
    dict(
        name="alpha_scaling.activation_change_same_weights",
        seed="003",
        backend="torch",
        file=_AL,
        old="    before = Xt @ W0.transpose(1, 2) > 0",
        new="    before = Xt @ W.transpose(1, 2) > 0",
        why="a copy-paste bug: the activation patterns before training taken from the final "
        "W (no pattern ever changes)",
        tests=_AL_TESTS,
        claims=_AL_CLAIMS,
    ),
    dict(
        name="alpha_scaling.step_without_n",
        seed="003",
        backend="torch",
        file=_AL,
        old="            lr = lr_factor * n_train / float(lam0.max())",
        new="            lr = lr_factor / float(lam0.max())",
        why="the GD step lr_factor / lambda_max(K_0) without the n of the 1/(2n) risk: n "
        "times too small, the rich nets do not train in the budget",
        tests=_AL_TESTS,
        claims=_AL_CLAIMS,
    ),
]

# piecewise_linear.py is being reworked (issue 15): these mutate lines that the rework keeps
_PL, _PL_CLAIMS = "solvable/models/piecewise_linear.py", "piecewise_linear.*"
_PL_TESTS = ["tests/test_piecewise_linear.py"]

MUTANTS += [
    dict(
        name="piecewise_linear.pattern_without_sign",
        seed="003",
        backend="numpy",
        file=_PL,
        old="    return np.asarray(Z * sign > 0, dtype=bool)",
        new="    return np.asarray(Z > 0, dtype=bool)",
        why="the activation pattern read off the direction of beta_k alone (the poster's "
        "statement, see the erratum): wrong for every neuron with a_k < 0",
        tests=_PL_TESTS,
        claims=_PL_CLAIMS,
    ),
    dict(
        name="piecewise_linear.ntk_swapped_rates",
        seed="003",
        backend="numpy",
        file=_PL,
        old="    return eta_a * (features @ features.T) + eta_w * (((c * a * a) @ c.T) * gram)",
        new="    return eta_w * (features @ features.T) + eta_a * (((c * a * a) @ c.T) * gram)",
        why="the piecewise-linear NTK with eta_a and eta_w swapped between the two layers' terms",
        tests=_PL_TESTS,
        claims=_PL_CLAIMS,
    ),
    dict(
        name="piecewise_linear.lambda_1_downstream_sign",
        seed="003",
        backend="sympy",
        file=_PL,
        old="((sigma + delta) / 2, delta >= 0), (2 * kappa2 * b**2 / (sigma - delta), True)",
        new="((sigma + delta) / 2, delta >= 0), (2 * kappa2 * b**2 / (sigma + delta), True)",
        why="the cancellation-free lambda_1 = 2 kappa^2 b^2/(sigma + delta) on its delta < 0 "
        "branch (that is lambda_2): the self-consistent field wrong downstream",
        tests=_PL_TESTS,
        claims=_PL_CLAIMS,
    ),
    dict(
        name="piecewise_linear.angular_rate_balanced_limit",
        seed="003",
        backend="numpy",
        file=_PL,
        old="        (sp.sqrt(kappa2), sp.And(sp.Eq(b, 0), sp.Eq(delta, 0))),",
        new="        (kappa2, sp.And(sp.Eq(b, 0), sp.Eq(delta, 0))),",
        why="the angular rate's limit at |beta| = 0, delta = 0 as eta_a eta_w instead of "
        "sqrt(eta_a eta_w)",
        tests=_PL_TESTS,
        claims=_PL_CLAIMS,
    ),
]
