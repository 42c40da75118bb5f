"""Mutants of issue 17 target 1, continued (B2): kunin's float64 isotropy decision
(``kunin._isotropy_f64``, ``kunin._sum_of_squares``) and linear_node_scaling's chunked
assembly of ``W`` (``Trajectory._assemble_W``): each a realistic bug in the fast path that
the reference (``kunin.isotropy`` at 50 digits; the per-block path) does not share, killed
by ``tests/test_closed_form_scale_models.py``.  Format: see ``benchmarks/mutation.py``."""

_T = ["tests/test_closed_form_scale_models.py"]

MUTANTS = [
    dict(
        name="kunin.isotropy_accepts_on_the_lower_end",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="    if upper <= tau * (1 - 4 * _U):",
        new="    if lower <= tau * (1 - 4 * _U):",
        why="isotropy accepted when the lower end of the deviation's interval is below rtol s "
        "(data just beyond isotropy_rtol accepted; killed by "
        "test_isotropy_at_the_threshold_and_exact_data)",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="kunin.isotropy_per_column_s",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="    G[np.diag_indices(d)] -= s_f",
        new="    G[np.diag_indices(d)] -= s_f / d",
        why="the diagonal compared with s/d (the trace confused with s): whitened data refused "
        "(killed by test_isotropy_verdicts_match_the_reference, "
        "test_isotropy_decided_in_float64_without_the_reference)",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="kunin.sum_of_squares_rounding_dropped",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="        e_sum += float(np.sum(e))",
        new="        e_sum += 0.0",
        why="the rounding errors of the squares left out of the exact sum (s off by units in "
        "the last place, outside the interval's bound; killed by "
        "test_sum_of_squares_interval_holds_the_exact_sum)",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="linear_node_scaling.chunk_boost_not_offset",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old="            Wb[apart] = self._two_parts(g[blk][apart], boost[blk][apart])",
        new="            Wb[apart] = self._two_parts(g[blk][apart], "
        "boost[: blk.stop - blk.start][apart])",
        why="every W block of a chunk scaled back with the first block's boosts (rows whose "
        "modes underflow and whose parts are subnormal, t = 1e-310, so not fused, wrong in "
        "later blocks; killed by "
        "test_lns_chunks_and_blocks_with_underflowing_rows)",
        tests=_T,
        claims="linear_node_scaling.*",
    ),
]
