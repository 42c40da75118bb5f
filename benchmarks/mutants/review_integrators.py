"""Mutants of the independent integrators (``numerics/mp.py``, ``numerics/scipy_ode.py``,
``numerics/torch_flow/``), written by an outside reviewer who had not read the tests, nor
the existing mutant tables, nor the docs.

They cover the Taylor engine's error control (one Taylor order instead of the last two; the
step measured against the whole state instead of each block), the fixed-point test of the
float64 integrators (an ``abs()`` dropped, so an unstable mode counts as flat), torch's
``rtol`` floor (``<`` vs ``<=`` at the documented minimum) and torch's DOP853 error norm (the
loop over the blocks skips the first).  Every one was run on a copy of the package against the
unmutated code, on the input named in ``why``, and gave a different result.

The reviewer chose the ``tests`` hints from the test files' names only; where the first
run (hints only, 28 November) missed, the file whose test kills the mutant was put first
(the mutants themselves are the reviewer's).
"""

MUTANTS = [
    dict(
        name="review.integrators.mp_error_control_top_order_only",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old="for k in (p - 1, p):",
        new="for k in (p,):",
        why="the step rule looks at the order-p coefficient only, not p-1 and p; xu_ziyin "
        "generic to t=1 (reference engine): 18 -> 17 steps",
        tests=[
            "tests/test_taylor_error_control.py",
            "tests/test_taylor_engine.py",
            "tests/test_simulate.py",
        ],
        claims="xu_ziyin.theorem_1_oracle",
    ),
    dict(
        name="review.integrators.mp_step_against_whole_state",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old="scale = series.absmax(0, start, stop)",
        new="scale = series.absmax(0, 0, len(y))",
        why="error measured against the whole state, not each block: a decaying block loses "
        "relative accuracy; Q_zero_y_negative to t=2: 49 -> 42 steps",
        tests=[
            "tests/test_taylor_error_control.py",
            "tests/test_taylor_engine.py",
            "tests/test_simulate.py",
        ],
        claims="xu_ziyin.theorem_1_oracle",
    ),
    dict(
        name="review.integrators.scipy_unstable_mode_counted_flat",
        seed="core",
        backend="scipy",
        file="numerics/scipy_ode.py",
        old="self.flat = np.abs(self.lam) <= self.tau[:, None]",
        new="self.flat = self.lam <= self.tau[:, None]",
        why="abs dropped: a negative (unstable) eigenvalue counts as flat, so a saddle passes "
        "the fixed-point test; LinearTail(diag(2,-1)) candidate",
        tests=[
            "tests/test_numerics.py",
            "tests/test_simulator_edges.py",
            "tests/test_delayed_rich.py",
        ],
        claims="delayed_rich.plateau_sweep",
    ),
    dict(
        name="review.integrators.torch_rtol_floor_inclusive",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/flow.py",
        old="if rtol < floor:",
        new="if rtol <= floor:",
        why="gradient_flow refuses rtol == min_rtol(dtype), the documented smallest valid "
        "value; simulate(kunin upstream, method='torch', rtol=2.2e-14)",
        tests=["tests/test_torch_flow.py"],
        claims="",
    ),
    dict(
        name="review.integrators.torch_error_norm_skips_first_block",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="for k, block in enumerate(em_blocks):",
        new="for k, block in enumerate(em_blocks[1:]):",
        why="DOP853's error norm ignores the first block (a for kunin, u for xu_ziyin); kunin "
        "downstream rtol=1e-8 to t=3: a changes at 1e-10",
        tests=["tests/test_torch_flow.py"],
        claims="kunin.relu_conservation",
    ),
]
