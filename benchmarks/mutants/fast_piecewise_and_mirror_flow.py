"""Mutants of the issue-17 fast paths of task E2: numpy ``select`` with scalar branches
(sympy's Piecewise in a scipy right-hand side), the torch lowering of ``Piecewise((v, x <=
t), (x, True))`` to ``torch.threshold`` (the ReLU of the torch losses), and the default run
of ``mirror_flow.implicit_bias`` (30 digits at two deltas).  Each is a bug that still runs
and returns numbers of the right shape.  Format: see ``benchmarks/mutation.py``."""

_BK = "solvable/_core/backends.py"
_MF = "solvable/verification/confirmations/mirror_flow.py"

MUTANTS = [
    dict(
        name="core.scalar_select_last_true_branch",
        seed="core",
        backend="numpy",
        file=_BK,
        old="                    out[()] = choice\n                    break\n",
        new="                    out[()] = choice\n",
        why="the scalar select keeps the last true branch instead of the first: sympy's "
        "final (expr, True) branch wins every time; killed by "
        "test_scalar_select_is_the_broadcasting_select",
        tests=["tests/test_backends_fast_paths.py"],
        claims=["piecewise_linear.self_consistent_on_flow"],
    ),
    dict(
        name="core.threshold_arguments_swapped",
        seed="core",
        backend="torch",
        file=_BK,
        old='        return f"threshold({self._print(x)}, {float(t)!r}, {float(v)!r})"',
        new='        return f"threshold({self._print(x)}, {float(v)!r}, {float(t)!r})"',
        why="torch.threshold(x, value, threshold) for (x, threshold, value): right for the "
        "ReLU (both 0), wrong for any other threshold form; killed by "
        "test_threshold_form_is_the_where_form_at_the_edges[...-shifted]",
        tests=["tests/test_backends_fast_paths.py"],
        claims=[],
    ),
    dict(
        name="core.threshold_for_a_strict_inequality",
        seed="core",
        backend="torch",
        file=_BK,
        old="    if last is not sp.true or not isinstance(cond, sp.LessThan) or cond.lhs != x:",
        new="    if last is not sp.true or not isinstance(cond, (sp.LessThan, sp.StrictLessThan))"
        " or cond.lhs != x:",
        why="Piecewise((0, x < 0), (x, True)) lowered to threshold too: value -0.0 and "
        "derivative 1 at x = 0 become +0.0 and 0; killed by "
        "test_threshold_form_is_the_where_form_at_the_edges[...-strict]",
        tests=["tests/test_backends_fast_paths.py"],
        claims=[],
    ),
    dict(
        name="mirror_flow.implicit_bias_30_digits_only_in_full",
        seed="003",
        backend="mpmath",
        file=_MF,
        old="    mp_deltas = BIAS_DELTAS if full else BIAS_DELTAS_MP_FAST",
        new="    mp_deltas = BIAS_DELTAS if full else ()",
        why="the default run skips the 30-digit check (float64 only: the limit to 1e-11, "
        "not to 25 digits); killed by test_implicit_bias_default_run_checks_30_digits",
        tests=["tests/test_mirror_flow.py"],
        claims=["mirror_flow.implicit_bias"],
    ),
]
