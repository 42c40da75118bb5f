"""Mutants of the fast float64 path of seed 001's closed form (issue 17, target 1):
``Trajectory.sample`` in blocks of times into preallocated outputs, the lazily evaluated
Piecewise, the vectorised input checks (``solvable/models/xu_ziyin/``).  Each is killed by
``tests/test_closed_form_scale.py``, which compares the fast path with the reference path
bit for bit.  Format: see ``benchmarks/mutation.py``."""

SCALE = "tests/test_closed_form_scale.py"
XZ = "solvable/models/xu_ziyin/"

MUTANTS = [
    dict(
        name="xu_ziyin.fast_lazy_select_any_as_all",
        seed="001",
        backend="numpy",
        file=XZ + "evaluators.py",
        old="        everywhere = bool(c.all())\n",
        new="        everywhere = bool(c.any())\n",
        why="the lazy Piecewise takes a condition that holds somewhere for one that holds "
        "everywhere: the first piece that applies anywhere is used everywhere (ell and the "
        "residual mix the early and late pieces over the times)",
        tests=[SCALE],
        claims="xu_ziyin.theorem_1_oracle",
    ),
    dict(
        name="xu_ziyin.fast_W_repeat_tile_swapped",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="unit_of, x_tiled = np.repeat(np.arange(d), d0), np.tile(x, d)",
        new="unit_of, x_tiled = np.tile(np.arange(d), d0), np.repeat(x, d)",
        why="W(t) = W_perp + (v/|x|^2) x^T with np.repeat and np.tile confused: v_i and x_j "
        "paired in the wrong order in the flattened (d, d0) rows of W",
        tests=[SCALE],
        claims="xu_ziyin.theorem_1_oracle",
    ),
    dict(
        name="xu_ziyin.fast_W_overflow_unchecked",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="w_ok = (v_max if direct else wp_max + v_max / x2 * x_max) <= 1e308\n",
        new="w_ok = True\n",
        why="the bound that spares looking at each entry of W taken for granted: an infinite W "
        "is returned instead of the mpmath re-evaluation",
        tests=[SCALE],
        claims=[],
    ),
    dict(
        name="xu_ziyin.fast_u_bound_without_the_second_term",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="    a = np.abs(c[0]) * mags[0] + np.abs(c[1]) * mags[1]\n",
        new="    a = np.abs(c[0]) * mags[0]\n",
        why="the bound of |u| (and of W) in the first pieces forgets the v0 term: an entry that "
        "overflows where only the v0 term is large is taken as finite, an infinite u returned "
        "instead of the mpmath re-evaluation",
        tests=["tests/test_xu_ziyin_unit_forms.py", SCALE],
        claims=[],
    ),
    dict(
        name="xu_ziyin.fast_zero_flag_of_q_from_p",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="    return (c[2], units[2], zp, c[3], units[3], zq)\n",
        new="    return (c[2], units[2], zp, c[3], units[3], zp)\n",
        why="the q-term of the second pieces of u_t, v_t takes the p0 = 0 flag (a copy-paste "
        "slip): on the units where exactly one of p0, q0 is 0, u(t) and W(t) drop their "
        "q-term or add 0 x inf",
        tests=[SCALE],
        claims="xu_ziyin.theorem_1_oracle",
    ),
    dict(
        name="xu_ziyin.times_array_check_sign",
        seed="001",
        backend="numpy",
        file=XZ + "setups.py",
        old="        and times.size and bool((times >= 0).all())\n",
        new="        and times.size and bool(np.isfinite(times[times != np.inf]).all())\n",
        why="the vectorised check of an array of times tests finiteness instead of t >= 0: a "
        "negative time is accepted",
        tests=[SCALE],
        claims=[],
    ),
    dict(
        name="xu_ziyin.W0_array_unchecked",
        seed="001",
        backend="numpy",
        file=XZ + "setups.py",
        old="        and W0.size and bool(np.isfinite(W0).all())\n",
        new="        and W0.size\n",
        why="the vectorised check of an array W0 forgets finiteness: nan weights accepted",
        tests=[SCALE],
        claims=[],
    ),
]
