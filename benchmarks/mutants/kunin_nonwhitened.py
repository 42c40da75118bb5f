"""Mutants of the single neuron on inputs that are not whitened (seed 003, issue 31, item 3;
the sources as at ``3a1dd44``):

* ``solvable/models/kunin/aligned_data.py``: ``_alignment`` (the exact Gram of ``[X | y]``,
  the Rayleigh quotient ``s``, the two eigenvector defects against ``rtol``, the at-rest
  branch, ``beta* = X^T y / s``, ``w_E = X^T X w0 / s``, ``w_N = w0 - w_E``, the least loss)
  and ``_rel_defect``;
* ``solvable/models/kunin/nonwhitened.py``: ``closed_form``'s dispatch and default
  ``alignment_rtol``, ``_aligned_trajectory`` (the rescaled setup ``Setup(s eta_a, s eta_w,
  I, beta*)``, ``delta``, ``delta_reduced``), ``AlignedTrajectory`` (``w = w_E + w_N``,
  ``beta = beta_E + a w_N``, ``L = L_min + s L_reduced``, ``sample(out=)``, ``ntk``, the
  working precision ``dps + _EXTRA``);
* ``solvable/models/kunin/aligned_proofs.py`` (claim ``kunin.aligned_reduction``) and the
  aligned confirmation ``_aligned_oracle`` (claim ``kunin.aligned_closed_form_oracle``).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints (``tests``) are the two file names the maintainer gave, not read.  Each mutant is
one replacement at one place, the kind of slip a developer makes (``or`` for ``and``, ``/ 2``
left out, a wrong exponent, a check skipped in one branch, ``u`` for ``u / s``, a defect not
made relative, a rate not folded in, the loss not rescaled, ``w_N`` for ``a w_N``, two
keyword values swapped, the whole start for its range part, two rates swapped in a call,
the float64 branch's ``None`` for the working precision, a field left out of a loop, a
refusal inverted, ``<=`` for ``<``, a tolerance for an exact decision, the extra digits
dropped, a transposed matrix, a neighbouring attribute).  ``why`` is what the reviewer
observed with the mutant applied to the worktree at ``3a1dd44`` (each probe run on the
unmutated code first, where every probe gave the expected answer: the five aligned cases
of ``_aligned_cases`` against ``numerics.simulate(..., method='scipy', rtol=1e-12)`` to
<= 2.4e-13, ``ntk(2)`` against ``kunin.ntk`` of the simulated state to <= 3.4e-13,
``sample(out=)`` equal to ``sample``, ``_aligned_oracle()`` confirmed with worst 3.8e-7
tolerances).  The probes' data: ``RANK2 = ((1, 2, 2), (2, 1, -2), (0, 0, 0))`` (``X^T X = 9
P``, ``ker X = (2, -2, 1)``) and ``TWO = ((2, 4, 4), (2, 1, -2), (0, 0, 0))`` (eigenvalues
36, 9, 0) as in the confirmation; "rank2 upstream" is its first case ``Setup('0.2', '0.1',
RANK2, ('0.5', '-0.3', '0.4'))``, ``a0 = 0.8``, ``w0 = (0.2, -0.1, 0.3)`` (``s = 9``,
``delta = 0.036``, ``delta_reduced = 0.054``, ``w_N = (0.2, -0.2, 0.1)``, least loss 0.08).

Probed equivalent and left out: ``c2`` dropped from ``wv`` in ``_aligned_reduction``
(``Matrix([c[0], c[1], 0, c[3]])``: the claim still proves, and the off-condition call
``_aligned_reduction(c2=1)`` still fails, through ``wE``'s balance, so no status changes);
the confirmation's kernel part measured on the exact state ``e.w`` instead of the simulated
``s.w`` (``w - w_N`` lies in ``E`` by construction, so it compares the closed form with
itself, but the simulated ``w`` is compared in full under "state" anyway: the verdict and its
worst, 3.1e-7 tolerances at dps 20, unchanged).  Probed, not equivalent, and left out to keep
the table at 20: ``dev >= rtol`` for ``dev > rtol`` on the ``X^T y`` defect (every exactly
aligned start refused, ``rtol = 0``, but those with ``X^T y = 0``); ``_rel_defect(S, w, s)``
for ``u`` (w0 itself checked: every start with ``w_N != 0`` refused); ``delta`` with the rates
swapped in ``_balance`` (0.114 for 0.036 on rank2 upstream); ``isotropy_rtol`` not passed on
to the alignment test for float data (``Xp`` perturbed by 1e-9 with ``isotropy_rtol=1e-6``
refused).  No t = inf mutant: the new code has no branch of its own on ``t`` (the reduced
``Trajectory`` handles ``inf``).  Format: see ``benchmarks/mutation.py``."""

_AD = "solvable/models/kunin/aligned_data.py"
_NW = "solvable/models/kunin/nonwhitened.py"
# the test hints (by file name; the reviewer did not open them)
_T = [
    "tests/test_kunin_nonwhitened.py",
    "tests/test_kunin_nonwhitened_edges.py",
    "tests/test_closed_form_helpers.py",
]
_ORACLE = ["kunin.aligned_closed_form_oracle"]

MUTANTS = [
    # ------------------------------------------------------------ aligned_data.py
    dict(
        name="kunin_nonwhitened.at_rest_or",
        seed="003",
        backend="numpy",
        file=_AD,
        old="    if q_zero and u_zero:  # a fixed point",
        new="    if q_zero or u_zero:  # a fixed point",
        why=(
            "the fixed-point test written with 'or': a start with X^T y = 0 or w0 in ker X "
            "is taken as at rest.  Observed: Setup('0.2', '0.1', RANK2, ('0.5', '-0.3', "
            "'0.4')), a0 = 0.8, w0 = (0.2, -0.2, 0.1) (in ker X, X^T y != 0): sample(0, 1, "
            "inf).a (0.8, 0.8, 0.8) instead of (0.8, 0.814, 0.861), loss (0.25, 0.25, 0.25) "
            "instead of (0.25, 0.132, 0.08), s = 6 (tr / d) and loss_floor 0.25 instead of 9 "
            "and 0.08; the confirmation's case 'rank 2 of 3, X^T y = 0' frozen: "
            "_aligned_oracle() failed, 8.8e24 tolerances (beta at t = 30)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.at_rest_floor_not_halved",
        seed="003",
        backend="numpy",
        file=_AD,
        old="return Alignment(s, zero, zero, tuple(w), yy / 2, True)",
        new="return Alignment(s, zero, zero, tuple(w), yy, True)",
        why=(
            "the at-rest least loss |y|^2 without the 1/2.  Observed: Setup('0.1', '0.2', TWO, "
            "('0', '0', '0.5')), a0 = 0.3, w0 = (0.2, -0.2, 0.1) (X^T y = 0, w0 in ker X): "
            "loss_floor and sample(0, 1, inf).loss 0.25 instead of 0.125 (the measured "
            "|X w0 a0 - y|^2 / 2), float64 and dps 25 alike; a, w and every moving start "
            "unchanged; the oracle unchanged (no at-rest case)"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.floor_s_squared",
        seed="003",
        backend="numpy",
        file=_AD,
        old="floor=(yy - q.dot(q) / s) / 2",
        new="floor=(yy - q.dot(q) / s**2) / 2",
        why=(
            "the least loss with |X^T y|^2 / s^2 (|beta*|^2, as if s were folded in twice).  "
            "Observed: rank2 upstream loss_floor 0.2311 instead of 0.08, loss at t = 0 0.2331 "
            "instead of 0.082 (the measured loss of w0), at inf 0.2311 instead of 0.08; "
            "against scipy simulate abs error 0.151 instead of 2.4e-13 (the loss); a, w, "
            "beta unchanged; _aligned_oracle() failed, 4.8e24 tolerances (loss)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.w0_checked_only_without_target",
        seed="003",
        backend="numpy",
        file=_AD,
        old="    if not u_zero:\n        dev = _rel_defect(S, U, s)",
        new="    if q_zero and not u_zero:\n        dev = _rel_defect(S, U, s)",
        why=(
            "the w0 condition checked only when X^T y = 0 (where it picks the eigenspace): "
            "a w0 with a part on a second eigenvalue is accepted.  Observed: Setup('0.1', "
            "'0.1', TWO, ('0.3', '0', '-0.2')) (X^T y on 36), a0 = 0.3, w0 = (1, 0, 0) (parts "
            "on 36 and 9): an AlignedTrajectory (s = 36, w_kernel (0.778, -0.278, -0.111), "
            "not in ker X) instead of ValueError 'w0 must lie in ker X plus the eigenspace "
            "of X^T y'; w0 = (1, 1e-4, 0) accepted at alignment_rtol 1e-6 too; X^T y = 0 "
            "starts and the five oracle cases unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.w_E_not_divided_by_s",
        seed="003",
        backend="numpy",
        file=_AD,
        old="    w_E = u / s\n",
        new="    w_E = u\n",
        why=(
            "w_E taken as X^T X w0 without dividing by s.  Observed: rank2 upstream "
            "w_kernel (0.2, -1, -1.5) instead of (0.2, -0.2, 0.1), delta_reduced -0.746 "
            "instead of 0.054, Omega 3.366 instead of 0.347, regime 'delayed rich' instead "
            "of 'intermediate', loss at t = 0 9.106 instead of 0.082 (w(0) still w0); "
            "against scipy simulate abs error 9.02; _aligned_oracle() failed, 1.6e273 "
            "tolerances"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.defect_absolute",
        seed="003",
        backend="numpy",
        file=_AD,
        old="return max(abs(x) for x in np.ravel(r)) / (s * max(abs(x) for x in np.ravel(V)))",
        new="return max(abs(x) for x in np.ravel(r)) / max(abs(x) for x in np.ravel(V))",
        why=(
            "the eigenvector defect not divided by s (absolute, while alignment_rtol is "
            "relative).  Observed: float X = 100 RANK2 with X[1][2] = -200 + 1e-7, y (0.5, "
            "-0.3, 0.4), alignment_rtol = 1e-6: refused ('max|X^T X q - s q| = 2.2e-5 s "
            "max|q|', s = 9e4) instead of accepted (relative defect 2.4e-10); the messages "
            "report defect * s ('9.26 s max|q|' for '0.278' on TWO); exact data (rtol 0) and "
            "the oracle unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ nonwhitened.py
    dict(
        name="kunin_nonwhitened.eta_a_not_rescaled",
        seed="003",
        backend="numpy",
        file=_NW,
        old="virtual = Setup(al.s * ea, al.s * ew, eye, al.beta_star)",
        new="virtual = Setup(ea, al.s * ew, eye, al.beta_star)",
        why=(
            "the rescaled setup folds s into eta_w only.  Observed: rank2 upstream Omega "
            "0.2948 instead of 0.3468, a(2) 0.80083 instead of 0.80695, loss(2) 0.080195 "
            "instead of 0.080162; against scipy simulate abs error 8.3e-3, ntk(2) off by "
            "8.7e-3; delta, delta_reduced, loss_floor, w_kernel unchanged; "
            "_aligned_oracle() failed, 1.5e25 tolerances (state)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.loss_not_rescaled",
        seed="003",
        backend="numpy",
        file=_NW,
        old='loss = red.loss * self._work["s"] + self._work["floor"]',
        new='loss = red.loss + self._work["floor"]',
        why=(
            "L = L_min + L_reduced without the factor s.  Observed: rank2 upstream loss at "
            "t = 0 0.0802222 instead of 0.082 (the measured loss of w0), at t = 2 0.080018 "
            "instead of 0.080162; at inf (0.08) and a, w, beta unchanged; against scipy "
            "simulate abs error 1.8e-3; _aligned_oracle() failed, 8.7e25 tolerances (loss)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.beta_kernel_part_without_a",
        seed="003",
        backend="numpy",
        file=_NW,
        old="beta = red.beta + a[:, None] * w_N",
        new="beta = red.beta + w_N",
        why=(
            "beta = a w_E + w_N (a not applied to the kernel part).  Observed: rank2 "
            "upstream beta(0) (0.2, -0.12, 0.26) instead of a0 w0 = (0.16, -0.08, 0.24), "
            "beta(inf) (0.189, -0.122, 0.278) instead of (0.151, -0.084, 0.259), so beta != "
            "a w; a, w, loss unchanged; against scipy simulate abs error 0.04; "
            "_aligned_oracle() failed, 1.1e25 tolerances (beta)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.delta_and_delta_reduced_swapped",
        seed="003",
        backend="numpy",
        file=_NW,
        old="delta=rnd(delta), delta_reduced=rnd(delta_E)",
        new="delta=rnd(delta_E), delta_reduced=rnd(delta)",
        why=(
            "the two balances swapped in the constructor.  Observed: rank2 upstream delta "
            "0.054 and delta_reduced 0.036 instead of 0.036 (eta_w a0^2 - eta_a |w0|^2) and "
            "0.054; sample(...).delta 0.054; the states unchanged; against scipy simulate "
            "(measured delta) abs error 0.018; _aligned_oracle() failed, 6.4e24 tolerances "
            "(delta at t = 0)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.reduced_from_whole_w0",
        seed="003",
        backend="numpy",
        file=_NW,
        old="reduced = _isotropic_closed_form(virtual, a0, al.w_range, dps=wd, isotropy_rtol=0)",
        new="reduced = _isotropic_closed_form(virtual, a0, w0c, dps=wd, isotropy_rtol=0)",
        why=(
            "the reduced trajectory started from the whole w0 instead of its part w_E in E "
            "(w_N then counted twice).  Observed: rank2 upstream w(0) (0.4, -0.3, 0.4) "
            "instead of w0 = (0.2, -0.1, 0.3), loss(0) 0.3412 instead of 0.082, Omega 0.2957 "
            "instead of 0.3468; against scipy simulate abs error 0.259; "
            "_aligned_oracle() failed, 2e25 tolerances (beta)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.ntk_rates_swapped",
        seed="003",
        backend="numpy",
        file=_NW,
        old="K = ntk(st.a, st.w, X, conv(self.setup.eta_a), conv(self.setup.eta_w))",
        new="K = ntk(st.a, st.w, X, conv(self.setup.eta_w), conv(self.setup.eta_a))",
        why=(
            "the NTK called with the two rates in the wrong order.  Observed: rank2 upstream "
            "(eta_a 0.2, eta_w 0.1) ntk(2)[0] (1.210, -0.0215, 0) instead of (0.662, "
            "-0.0430, 0): off by 0.574 from kunin.ntk of the simulated state (7e-14 "
            "unmutated); dps 30 ntk(2)[0, 0] 1.2099 instead of 0.6616; equal rates (the "
            "X^T y = 0 case) and every state unchanged; the oracle unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.floor_float_in_mpmath",
        seed="003",
        backend="mpmath",
        file=_NW,
        old="s, floor = _working_rational(al.s, wd), _working_rational(al.floor, wd)",
        new="s, floor = _working_rational(al.s, wd), _working_rational(al.floor, None)",
        why=(
            "the least loss taken at float64 (the float branch's None) in the mpmath path.  "
            "Observed: rank2 upstream dps 30 at(2).loss 0.08016180862437423265762415 instead "
            "of 0.08016180862437423099228961 (the float 0.08's 1.7e-18 error); float64 and "
            "a, w, beta unchanged; _aligned_oracle() failed, 1e8 tolerances (loss at t = 30)"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
    dict(
        name="kunin_nonwhitened.out_loss_not_filled",
        seed="003",
        backend="numpy",
        file=_NW,
        old='(("t", t), ("a", a), ("w", w), ("beta", beta), ("loss", loss)):',
        new='(("t", t), ("a", a), ("w", w), ("beta", beta)):',
        why=(
            "sample(out=) does not write the loss.  Observed: rank2 upstream float64 "
            "sample([0, 0.5, 2], out=sample([0, 1, 3])).loss (0.082, 0.08057, 0.08005) (the "
            "earlier times') instead of (0.082, 0.08107, 0.08016); t, a, w, beta filled; "
            "sample without out unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.out_refusal_inverted",
        seed="003",
        backend="numpy",
        file=_NW,
        old="if self.dps is not None and out is not None:",
        new="if self.dps is None and out is not None:",
        why=(
            "the out refusal inverted.  Observed: rank2 upstream float64 sample([0, 0.5, 2], "
            "out=States) raises ValueError 'out must be None for dps=None' instead of "
            "filling it; dps 30 sample(..., out=float64 States) accepted (the mpf values "
            "written into the float64 arrays, a new States with float64 a and loss "
            "returned) instead of ValueError; sample without out unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.alignment_rtol_one_accepted",
        seed="003",
        backend="numpy",
        file=_NW,
        old='        if not rtol < 1:\n            raise ValueError(f"alignment_rtol',
        new='        if not rtol <= 1:\n            raise ValueError(f"alignment_rtol',
        why=(
            "the bracket of alignment_rtol closed at 1.  Observed: closed_form(rank2 "
            "upstream, alignment_rtol=1) returns an AlignedTrajectory instead of ValueError "
            "'alignment_rtol must be in [0, 1), got 1'; 0.999 accepted and -1 refused as "
            "before"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.exact_data_to_unit",
        seed="003",
        backend="numpy",
        file=_NW,
        old="            rtol = 0.0\n",
        new="            rtol = unit\n",
        why=(
            "exact data decided to the working unit (2^-52) instead of exactly.  Observed: "
            "X = RANK2 with X[1][2] = '-2.00000000000000000001' (exact string; relative "
            "defect 2.4e-21), rank2 upstream's y, a0, w0: an AlignedTrajectory (s = 9) "
            "instead of ValueError '... (allowed: alignment_rtol = 0.0e+00)'; a defect 2.4e-7 "
            "still refused (its message now 'alignment_rtol = 2.2e-16'); float data and the "
            "oracle unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin_nonwhitened.no_extra_digits",
        seed="003",
        backend="mpmath",
        file=_NW,
        old="_EXTRA = 10\n",
        new="_EXTRA = 0\n",
        why=(
            "the reduced trajectory evaluated at dps instead of dps + 10 before w = w_E + "
            "w_N is formed.  Observed: Setup('0.2', '0.1', RANK2, ('0', '0', '0.7')), a0 = "
            "1, w0 = ('1e-25', '-4', '2'), dps 30 (w_E[0] = -w_N[0] = -2.22 cancel): at(0).w[0] "
            "1.00000017520240032857e-25 instead of 1.00000000000000005965e-25 (relative "
            "error 1.8e-7 instead of 6e-17); the other entries and t > 0 unchanged to 30 "
            "digits; _aligned_oracle() still confirmed, worst 1.7e-6 instead of 3.8e-7 "
            "tolerances"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ the claims
    dict(
        name="kunin_nonwhitened.proof_floor_transposed",
        seed="003",
        backend="sympy",
        file="solvable/models/kunin/aligned_proofs.py",
        old="q = Xv.T @ yv  # X^T y",
        new="q = Xv @ yv  # X^T y",
        why=(
            "the proof's least loss from X y instead of X^T y (a transposed matrix).  "
            "Observed: _aligned_reduction() 'failed' instead of 'proved' (the floor "
            "residual); _aligned_reduction(y2=1) and (c2=1) still 'failed'; the other two "
            "aligned claims and the closed form unchanged"
        ),
        tests=_T,
        claims=["kunin.aligned_reduction"],
    ),
    dict(
        name="kunin_nonwhitened.oracle_delta_reduced",
        seed="003",
        backend="mpmath",
        file="solvable/verification/confirmations/kunin.py",
        old='("delta", [s.delta], [traj.delta], scale),',
        new='("delta", [s.delta], [traj.delta_reduced], scale),',
        why=(
            "the confirmation compares the measured delta with the reduced flow's "
            "(neighbouring attribute).  Observed: _aligned_oracle() failed, 6.4e24 "
            "tolerances ('eigenvalues 36, 9, 0; X^T y on 36: delta at t=0') instead of "
            "confirmed (3.8e-7); the closed form itself unchanged"
        ),
        tests=_T,
        claims=_ORACLE,
    ),
]
