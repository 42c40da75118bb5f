"""Mutants of the fast float64 ``sample`` paths of issue 17 target 1 for seeds 003 and 000
(``kunin.Trajectory._sample_f64``, ``linear_node_scaling.Trajectory._sample_f64``): each a
realistic bug in the fast path that the reference path does not share, killed by
``tests/test_closed_form_scale_models.py`` (fast against reference).  Format: see
``benchmarks/mutation.py``."""

_T = ["tests/test_closed_form_scale_models.py"]

MUTANTS = [
    dict(
        name="kunin.fast_piece_sign_lost",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old='        coeffs = _resolved_coefficients(_piece_choice(k["delta_p"]))',
        new='        coeffs = _resolved_coefficients(_piece_choice(abs(k["delta_p"])))',
        why="the Piecewise of the coefficients resolved on |delta'|: every trajectory takes "
        "the delta >= 0 pieces, wrong downstream (killed by "
        "test_kunin_named_cases_match_the_reference[downstream])",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="kunin.fast_loss_coordinate_rate",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old='                    np.multiply(zp, k["sw"], out=cc[:, 1])',
        new='                    np.multiply(zp, k["sa"], out=cc[:, 1])',
        why="w's c_perp coordinate (of w and of the loss) scaled by sqrt(eta_a') instead of "
        "sqrt(eta_w') (killed by test_kunin_named_cases_match_the_reference)",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="linear_node_scaling.fast_boost_forgotten",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old='        dW_w = self._scaled(rank_one(*u, c_w), e["W0"] + nboost, inplace=True)',
        new='        dW_w = self._scaled(rank_one(*u, c_w), e["W0"], inplace=True)',
        why="the W_0-part of W(t) - W_0 not scaled back by 2^-boost on rows whose modes all "
        "underflow and whose parts are subnormal (t = 1e-310, the two parts apart: W off by "
        "2^boost; killed by test_lns_matches_the_reference)",
        tests=_T,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fast_modes_swapped",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old='                    f_w = fast("f_t_w", k["d"], k["U"], k["Dm"], *w_args, h)[..., 0]',
        new='                    f_w = fast("f_t_w", k["d"], k["U"], k["Dm"], *w_args, g)[..., 0]',
        why="the mode factor G = 1 - e^{-rate t} in place of E = e^{-rate t} in the W_0-part "
        "of the outputs f(t) (killed by test_lns_matches_the_reference)",
        tests=_T,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fused_c_parts_unscaled",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old="        return parts[0] + parts[1], top",
        new="        return p_y + p_w, top",
        why="the fused assembly adds the parts' mode coefficients before their rescalings "
        "into one scale (the parts' scales lost wherever the data are not of unit scale; "
        "killed by test_lns_matches_the_reference)",
        tests=_T,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fused_where_subnormal",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old="        tiny, huge = 2.0**-1022, 2.0**1022",
        new="        tiny, huge = 0.0, 2.0**1022",
        why="the fused assembly also taken where a rescaling or a product is subnormal (an "
        "extra rounding on the subnormal grid; killed by "
        "test_lns_fused_assembly_only_where_exact)",
        tests=_T,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fused_rows_not_replaced",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old='                Wb[rows] = k["W0_full"] + fast(k["s"], k["a"], c[blk][rows])',
        new="                pass",
        why="in a W block with both kinds of times the fused ones keep the two-part value "
        "(the result then depends on the blocks; killed by "
        "test_lns_fused_assembly_only_where_exact)",
        tests=_T,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="kunin.frame_distance_dropped",
        seed="003",
        backend="sympy",
        file="solvable/models/kunin/frame.py",
        old='"full": (sp.Matrix([[r11, r12], [z, r22], [z, z]]), sp.Matrix([g1, g2, '
        "sp.sqrt(m_full)])),",
        new='"full": (sp.Matrix([[r11, r12], [z, r22], [z, z]]), sp.Matrix([g1, g2, z])),',
        why="the frame's third target sqrt(m) (the distance of y from the plane) left out: the "
        "O(1) loss short by m/2 wherever y is off the plane (killed by the claim "
        "kunin.loss_in_frame and test_kunin_loss_frame_is_the_gram_to_rounding)",
        tests=["tests/test_closed_form_scale_models.py", "tests/test_registry.py"],
        claims="kunin.*",
    ),
    dict(
        name="kunin.frame_rank_test_inverted",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/frame.py",
        old='    return ("rank_one" if G11 * G22 == G12 * G12 else "full"), swap',
        new='    return ("full" if G11 * G22 == G12 * G12 else "rank_one"), swap',
        why="the rank-one frame taken for independent columns and the full one for parallel "
        "columns (killed by test_kunin_loss_frame_is_the_gram_to_rounding and the loss bound)",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="kunin.frame_swap_not_undone",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/frame.py",
        old="    return (R[:, ::-1] if swap else R), g",
        new="    return R, g",
        why="the columns of the frame not swapped back when the first column is zero (beta* "
        "= 0: the loss of the wrong coordinate; killed by the claim kunin.loss_in_frame and "
        "test_kunin_loss_frame_is_the_gram_to_rounding)",
        tests=_T,
        claims="kunin.*",
    ),
    dict(
        name="kunin.frame_of_unrounded_plane",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old='        LX, Ly = k["frame"] if frame else (XB, k["y"])',
        new='        LX, Ly = k["frame"] if frame else (k["X"], k["y"])',
        why="with no frame (entries out of range) the O(n) loss evaluated on X with w's "
        "plane coordinates (a shape error or the wrong loss; killed by "
        "test_kunin_loss_frame_refused_out_of_range)",
        tests=_T,
        claims="kunin.*",
    ),
]
