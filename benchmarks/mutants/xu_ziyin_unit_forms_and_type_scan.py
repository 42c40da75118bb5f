"""Mutants of three recently changed pieces of code:

* seed 001's closed form (``solvable/models/xu_ziyin/``): u_t, v_t written as coefficients
  of time times the units' initial values (``UnitForms``, ``unit_forms`` and the
  ``_sources`` entries ``unit_piece``, ``unit_coefficients``, ``unit_squares`` of
  ``evaluators.py``), the float64 fast path ``Trajectory._fill`` and its helpers
  ``_unit_conditions``, ``_piece_terms``, ``_two_terms``, ``_initial_sums``, ``_unit_sums``,
  ``_unit_value`` and ``_U_TERMS`` / ``_V_TERMS``, and the reference path
  ``Trajectory._evaluate`` (``trajectory.py``), the two engines documented to agree bit for
  bit;
* ``holds_mpf`` of ``solvable/_core/numbers.py`` (the entries' types in one pass, the rows of
  a matrix all at once);
* ``build_map`` of ``benchmarks/mutation_sample.py`` (every test of the junit report listed,
  also one that ran no measured line).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints are guesses by file name, not the tests known to kill each mutant.  Each is one
replacement at one place, the kind of slip a tired developer makes (a swapped index, a wrong
zero flag, a negated condition, a wrong variable of a similar name, a skipped branch, a wrong
set of types).  ``why`` is the wrong behaviour the reviewer observed with the mutant applied
to a copy of ``HEAD`` (small probes, no test run; the unmutated copy first).  The closed-form
probes sampled four starts at 43 times in ``[0, 50]`` with both engines and compared them
with each other and with the unmutated reference engine: (a) ``eta = (0.7, 1.3)``, ``gamma
= 1.1``, ``x = (0.6, -1.7, 0.9)``, ``y = 1.5``, d = 4 random; (b) the same with ``x =
(1.7,)``; (c) ``eta_u = eta_w = gamma = 1``, ``x = (1,)``, ``y = 6``, ``u0 = (0.5, 0.3,
-0.4)``, ``W0 = (0.5, 0.8, 0.1)`` (q0 = 0 on unit 0 only; ell runs from 0 to 2.35, so
both pieces are used); (d) as (c) with ``x = (1, 0)``.  ``holds_mpf`` was called on small
lists, matrices and object arrays; ``build_map`` ran on a fake workspace (a package
``solvable`` with a module constant and a function; four tests: the constant read, the
function called, each once passing and once failing).  The mutants already in
``seed_001_fast.py`` (the bound without its second term, the q-term's zero flag taken from
p, the W overflow bound taken for granted) are not repeated.  Format: see
``benchmarks/mutation.py``."""

_XZ = "solvable/models/xu_ziyin/"
_TRAJ = _XZ + "trajectory.py"
_EVAL = _XZ + "evaluators.py"
_NUMBERS = "solvable/_core/numbers.py"
_SAMPLE = "benchmarks/mutation_sample.py"
_UNIT_FORMS = "tests/test_xu_ziyin_unit_forms.py"  # u, v against the sympy source
_SCALE = ["tests/test_closed_form_scale.py"]
_BAD = ["tests/test_bad_input.py"]
_SAMPLER = ["tests/test_mutation_sample.py"]
_ORACLE = ["xu_ziyin.theorem_1_oracle"]

MUTANTS = [
    # ------------------------------------------------------------------ trajectory.py
    dict(
        name="xu_ziyin.unit_u_terms_p_q_swapped",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/units.py",
        old="_U_TERMS = (0, 1, 4, 5)\n",
        new="_U_TERMS = (0, 1, 5, 4)\n",
        why=(
            "the coefficients of p0 and q0 in the second pieces of u_t swapped (both "
            "engines alike): past |ell| = 1, u(t) = (-exp(-ell/2) p0 + exp(ell/2) q0) / "
            "sqrt(eta_w) instead of (exp(ell/2) p0 - exp(-ell/2) q0) / sqrt(eta_w).  "
            "Observed: u off by 0.7-1.2 (relative) in (a)-(d), the engines still equal; W, "
            "f and the NTK (from v and the sums of squares) unchanged"
        ),
        tests=[_UNIT_FORMS, *_SCALE],
        claims=_ORACLE,
    ),
    dict(
        name="xu_ziyin.fast_first_piece_v0_term_takes_q_flag",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="        return (c[0], units[0], False, c[1], units[1], False)\n",
        new="        return (c[0], units[0], False, c[1], units[1], zq)\n",
        why=(
            "in the first pieces (|ell| <= 1) the v0 term of the fast path takes the q0 = 0"
            " flag meant for the second pieces: on the units whose q0 is 0 (sqrt(eta_u) v0 "
            "= sqrt(eta_w) rho u0), u(t) and v(t) drop their v0 term before the switch.  "
            "Observed: (c), (d): W of the fast engine off by 0.33 (W(0) of unit 0 is 0 "
            "instead of 0.5), the reference engine right; (a), (b) unchanged"
        ),
        tests=_SCALE,
        claims=[],
    ),
    dict(
        name="xu_ziyin.fast_two_terms_second_product_into_dst",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="np.multiply(cb, xb, out=tmp), out=dst)",
        new="np.multiply(cb, xb, out=dst), out=dst)",
        why=(
            "the scratch array confused with the output: the second product overwrites the "
            "first in dst before the sum, so an entry written in place (a whole block of "
            "times by a whole set of units, both terms non-zero) is 2 cb xb instead of ca "
            "xa + cb xb.  Observed: u and W of the fast engine off by 0.4-0.7 in (a)-(d); "
            "the reference engine, f and the NTK unchanged"
        ),
        tests=_SCALE,
        claims=_ORACLE,
    ),
    dict(
        name="xu_ziyin.fast_mixed_block_negation_dropped",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old=(
            "                        if fb.all() or not fb.any():"
            "  # one piece for the whole block\n"
        ),
        new="                        if fb.all() or fb.any():  # one piece for the whole block\n",
        why=(
            "a block of times whose |ell| crosses 1 is taken as uniform: every time of a "
            "block that holds any first-piece time gets the piece of its first time, so the"
            " times past the switch are evaluated with the first pieces (cosh, sinh of "
            "ell/2 instead of exp(+-ell/2) times p0, q0: the same function, other "
            "roundings).  Observed: u, W of the fast engine differ from the reference "
            "engine in the last bits in (a)-(d) (1e-16 from the unmutated values: only a "
            "bit-for-bit check sees it)"
        ),
        tests=_SCALE,
        claims=_ORACLE,
    ),
    dict(
        name="xu_ziyin.fast_direct_W_from_the_plain_units",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="outputs = ((out.u, c_u, 1), (W_flat, c_v, 5)) if direct else (",
        new="outputs = ((out.u, c_u, 1), (W_flat, c_v, 1)) if direct else (",
        why=(
            "for d0 = 1 W is made from the units' values u0, v0, p0, q0 (offset 1, as u) "
            "instead of those values times x_0 (offset 5): W(t) = v(t) / |x|^2 instead of "
            "v(t) x_0 / |x|^2, wrong by the factor x_0 wherever x_0 != +-1.  Observed: (b) "
            "(x_0 = 1.7): W of the fast engine off by 0.18; (c) (x_0 = 1) and d0 > 1 "
            "unchanged"
        ),
        tests=_SCALE,
        claims=_ORACLE,
    ),
    dict(
        name="xu_ziyin.fast_unit_sets_from_p_conditions_only",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old='    for name in ("p_t", "q_t"):\n',
        new='    for name in ("p_t",):\n',
        why=(
            "the q0 = 0 condition is not collected: the index sets of units split on p0 = 0"
            " only, and each set's q0 flag is read off its first unit: where the first unit"
            " has q0 = 0 and another one not, the other units' q-terms are dropped past "
            "|ell| = 1.  Observed: (c), (d): u and W of the fast engine off by 0.09 and "
            "0.10, the reference engine right; (a), (b) (no zero) unchanged"
        ),
        tests=_SCALE,
        claims=[],
    ),
    dict(
        name="xu_ziyin.reference_d0_1_branch_skipped",
        seed="001",
        backend="numpy",
        file=_TRAJ,
        old='                if len(k["x"]) == 1:\n',
        new='                if len(k["x"]) < 1:\n',
        why=(
            "the reference path never takes its d0 = 1 branch: W = W_perp + (v / |x|^2) x_0"
            " (v rounded first, then divided, then multiplied) instead of the coefficients "
            "of v over |x|^2 times the units' values times x_0 as the fast path.  Observed:"
            " (b): W of the two engines differs in the last bits (1e-16; not bit for bit "
            "any more); (c) (x_0 = 1) and d0 > 1 unchanged"
        ),
        tests=_SCALE,
        claims=[],
    ),
    # ------------------------------------------------------------------ evaluators.py
    dict(
        name="xu_ziyin.unit_squares_q_from_p",
        seed="001",
        backend="numpy",
        file=_EVAL,
        old="    return UnitForms(cond, tuple(coefficients), (squares[0], squares[1]))\n",
        new="    return UnitForms(cond, tuple(coefficients), (squares[0], squares[0]))\n",
        why=(
            "a copy-paste slip: the coefficient of q0^2 in q_t^2 is exp(ell) (that of p0^2)"
            " instead of exp(-ell), so sum_i q_i(t)^2 grows instead of decaying.  Observed:"
            " f off by 0.2-1.2 and the NTK by 0.2-4.8 (relative) in (a)-(d), both engines "
            "alike; u and W unchanged"
        ),
        tests=[_UNIT_FORMS, *_SCALE],
        claims=_ORACLE,
    ),
    dict(
        name="xu_ziyin.unit_coefficients_rates_swapped",
        seed="001",
        backend="numpy",
        file=_EVAL,
        old='"unit_coefficients": ((S.ell, S.eta_u, S.eta_w, S.rho), forms.coefficients, True)',
        new='"unit_coefficients": ((S.ell, S.eta_w, S.eta_u, S.rho), forms.coefficients, True)',
        why=(
            "the evaluator's arguments listed as (ell, eta_w, eta_u, rho) while both paths "
            "call it with (ell, eta_u, eta_w, rho): the rates swapped inside every "
            "coefficient, u(t), v(t) and W(t) wrong wherever eta_u != eta_w.  Observed: "
            "(a), (b): u off by 0.13-0.16 and W by 0.11, both engines alike; (c), (d) "
            "(eta_u = eta_w) unchanged"
        ),
        tests=_SCALE,
        claims=_ORACLE,
    ),
    # ------------------------------------------------------------------ holds_mpf
    dict(
        name="core.holds_mpf_arrays_taken_as_plain",
        seed="core",
        backend="mpmath",
        file=_NUMBERS,
        old="_PLAIN_NUMBERS = frozenset({float, int, bool})\n",
        new="_PLAIN_NUMBERS = frozenset({float, int, bool, np.ndarray})\n",
        why=(
            "numpy arrays counted among the plain types (as if every array were float64): a"
            " list or tuple of object arrays of mpf is said to hold no mpf, so "
            "dps_or_context runs float64 on mpmath input.  Observed: "
            "holds_mpf([np.array([mpf(1)], dtype=object)]) False instead of True; an object"
            " array itself, lists and matrices unchanged"
        ),
        tests=_BAD,
        claims=[],
    ),
    dict(
        name="core.holds_mpf_rows_first_row_only",
        seed="core",
        backend="mpmath",
        file=_NUMBERS,
        old="inner = set(map(type, itertools.chain.from_iterable(value)))",
        new="inner = set(map(type, itertools.chain.from_iterable(value[:1])))",
        why=(
            "the rows of a matrix judged by the types of the first row.  Observed: "
            "holds_mpf([[1.0, 2.0], [3.0, mpf(4)]]) (an mpf only in the last row) False "
            "instead of True; [[[mpf(1)]]], flat lists and arrays unchanged"
        ),
        tests=_BAD,
        claims=[],
    ),
    dict(
        name="core.holds_mpf_flat_iterator_reused",
        seed="core",
        backend="mpmath",
        file=_NUMBERS,
        old=(
            "        items = value.flat if isinstance(value, np.ndarray) else value"
            "  # (flat is used up)\n"
            "        return any(holds_mpf(v, depth=depth - 1) for v in items)\n"
        ),
        new="        return any(holds_mpf(v, depth=depth - 1) for v in items)\n",
        why=(
            "the second `items = value.flat ...` dropped as a duplicate: the flat iterator "
            "of an object array is already exhausted by the type scan, so nothing is looked"
            " at.  Observed: holds_mpf(np.array([mpf(1), 2.0], dtype=object)) and "
            "holds_mpf([np.array([mpf(1)], dtype=object)]) False instead of True; lists and"
            " tuples (iterable twice) unchanged"
        ),
        tests=_BAD,
        claims=[],
    ),
    # ------------------------------------------------------------------ build_map
    dict(
        name="sampler.build_map_lists_the_failed_tests_only",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="    for node in durations:  # a test that runs no measured line",
        new="    for node in failed:  # a test that runs no measured line",
        why=(
            "the wrong list of the junit loop: only a failed test that ran no measured line"
            " is added, so a passing test that only reads a module constant is again "
            "missing from covmap['tests'] and never selected as a reader of its module's "
            "import lines.  Observed: covmap['tests'] lacks test_const (3 of the 4 tests "
            "instead of 4)"
        ),
        tests=_SAMPLER,
        claims=[],
    ),
    dict(
        name="sampler.build_map_skips_failed_unmeasured_tests",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="        tests.setdefault(node, len(tests))  # is still a reader",
        new=(
            "        if node not in failed:\n"
            "            tests.setdefault(node, len(tests))  # is still a reader"
        ),
        why=(
            "a failed test that ran no measured line is left out of covmap['tests'] (a "
            "failure is no kill, so it looked safe to skip): the map no longer lists every "
            "test the run reported.  Observed: covmap['tests'] lacks test_const_fail (3 of "
            "the 4 tests instead of 4) while covmap['failed'] still names it"
        ),
        tests=_SAMPLER,
        claims=[],
    ),
]
